#!/usr/bin/env python3
"""A GitLab-compatible Terraform state server for the http backend's tests
(standard library only).  docs/backends.md describes the protocol.

States and locks live in files under --dir, so a test can look at them and
a restarted server keeps them:
  DIR/NAME.tfstate      the state of /state/NAME
  DIR/NAME.lock         the lock info JSON while /state/NAME is locked
  DIR/requests.log      one line per request: METHOD PATH STATUS [md5=ok|bad|none] [auth=...]
  DIR/faults            fault injection, read at every request (see below)

Routes (GitLab's managed state: the lock lives at ADDRESS/lock):
  GET    /state/NAME        200 + state, 404 when none
  POST   /state/NAME[?ID=X] stores the body; checks Content-MD5 (400 when
                            absent or wrong, as GitLab); 409 when locked by
                            another ID (or no ID given while locked)
  DELETE /state/NAME        200, removes the state
  LOCK   /state/NAME/lock   200 when free; 423 + the holder's lock info
  UNLOCK /state/NAME/lock   200 when the body's ID holds the lock (or the
                            lock is gone); 409 + holder otherwise
  (POST and DELETE on /state/NAME/lock do the same as LOCK and UNLOCK,
  as GitLab's API has them.)

Basic auth: with --user U --password P every request needs it (401
without, 403 when wrong).

Faults: each line of DIR/faults is "METHOD ACTION [COUNT]" (METHOD may be
*); the first matching line with COUNT left applies to a request and its
count goes down (no COUNT: forever).  ACTION:
  500 / 503 / ...   answer that status (no change made)
  drop              read the request, close the connection unanswered,
                    without making the change
  dropafter         make the change, then close the connection unanswered
  slow:MS           answer normally after MS milliseconds
  locked            answer LOCK with 423 and a foreign holder's lock info

Prints the port on stdout's first line, then serves until killed or until
--dir is removed.
"""
import argparse
import base64
import hashlib
import http.server
import json
import os
import socketserver
import ssl
import sys
import threading
import time
import urllib.parse

mu = threading.Lock()
ARGS = None

FOREIGN = {"ID": "11111111-2222-3333-4444-555555555555",
           "Operation": "OperationTypeApply", "Info": "",
           "Who": "alice@ci-runner", "Version": "1.9.0",
           "Created": "2026-01-02T03:04:05.000000006Z", "Path": ""}


def path_of(name, ext):
    return os.path.join(ARGS.dir, name + ext)


def take_fault(method):
    """The action of the first matching fault line, consuming one count."""
    fp = os.path.join(ARGS.dir, "faults")
    try:
        with open(fp) as f:
            lines = f.read().split("\n")
    except FileNotFoundError:
        return None
    action = None
    out = []
    for ln in lines:
        parts = ln.split()
        if action is None and len(parts) >= 2 and parts[0] in (method, "*"):
            if len(parts) == 2:
                action = parts[1]
            elif int(parts[2]) > 0:
                action = parts[1]
                parts[2] = str(int(parts[2]) - 1)
                ln = " ".join(parts)
        out.append(ln)
    with open(fp + ".tmp", "w") as f:
        f.write("\n".join(out))
    os.replace(fp + ".tmp", fp)
    return action


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def log_req(self, status, extra=""):
        with open(os.path.join(ARGS.dir, "requests.log"), "a") as f:
            f.write("%s %s %s%s\n" % (self.command, self.path, status, extra))

    def reply(self, code, body=b"", extra=""):
        self.log_req(code, extra)
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def drop(self, extra=""):
        self.log_req("dropped", extra)
        self.close_connection = True
        try:
            self.connection.shutdown(2)
        except OSError:
            pass

    def auth_ok(self):
        if not ARGS.user:
            return True
        h = self.headers.get("Authorization", "")
        if not h.startswith("Basic "):
            self.reply(401, b'{"message":"401 Unauthorized"}')
            return False
        want = base64.b64encode(
            ("%s:%s" % (ARGS.user, ARGS.password)).encode()).decode()
        if h[6:] != want:
            self.reply(403, b'{"message":"403 Forbidden"}')
            return False
        return True

    def handle_any(self):
        n = int(self.headers.get("Content-Length", "0") or "0")
        body = self.rfile.read(n) if n else b""
        if not self.auth_ok():
            return
        u = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(u.query)
        parts = u.path.strip("/").split("/")
        if len(parts) < 2 or parts[0] != "state":
            return self.reply(404, b'{"message":"404 Not Found"}')
        name = parts[1]
        is_lock = len(parts) == 3 and parts[2] == "lock"
        method = self.command
        action = take_fault(method)
        if action and action.startswith("slow:"):
            time.sleep(int(action[5:]) / 1000.0)
            action = None
        if action == "drop":
            return self.drop()
        if action and action.isdigit():
            return self.reply(int(action), b'{"message":"injected"}')
        after = action == "dropafter"
        with mu:
            if is_lock:
                return self.do_lock(name, method, body, action, after)
            return self.do_state(name, method, body, q, after)

    def finish_reply(self, after, code, body=b"", extra=""):
        if after:
            return self.drop(extra)
        return self.reply(code, body, extra)

    def do_state(self, name, method, body, q, after):
        sp = path_of(name, ".tfstate")
        lp = path_of(name, ".lock")
        if method == "GET":
            if not os.path.exists(sp):
                return self.reply(404, b'{"message":"404 Not Found"}')
            with open(sp, "rb") as f:
                return self.reply(200, f.read())
        if method in ("POST", "PUT"):
            md5 = self.headers.get("Content-MD5")
            got = base64.b64encode(hashlib.md5(body).digest()).decode()
            if md5 is None:
                return self.reply(400, b'{"message":"no Content-MD5"}',
                                  " md5=none")
            if md5 != got:
                return self.reply(400, b'{"message":"Content-MD5 mismatch"}',
                                  " md5=bad")
            if os.path.exists(lp):
                with open(lp) as f:
                    holder = json.load(f)
                if q.get("ID", [""])[0] != holder.get("ID"):
                    return self.reply(409, json.dumps(holder).encode(),
                                      " md5=ok")
            with open(sp + ".tmp", "wb") as f:
                f.write(body)
            os.replace(sp + ".tmp", sp)
            return self.finish_reply(after, 200, b"", " md5=ok")
        if method == "DELETE":
            if os.path.exists(sp):
                os.remove(sp)
            return self.finish_reply(after, 200)
        return self.reply(405, b'{"message":"405 Method Not Allowed"}')

    def do_lock(self, name, method, body, action, after):
        lp = path_of(name, ".lock")
        if method in ("LOCK", "POST"):
            if action == "locked":
                return self.reply(423, json.dumps(FOREIGN).encode())
            try:
                info = json.loads(body or b"{}")
            except ValueError:
                return self.reply(400, b'{"message":"bad lock info"}')
            if os.path.exists(lp):
                with open(lp, "rb") as f:
                    return self.reply(423, f.read())
            with open(lp, "wb") as f:
                f.write(json.dumps(info).encode())
            return self.finish_reply(after, 200)
        if method in ("UNLOCK", "DELETE"):
            try:
                info = json.loads(body or b"{}")
            except ValueError:
                return self.reply(400, b'{"message":"bad lock info"}')
            if not os.path.exists(lp):
                return self.finish_reply(after, 200)
            with open(lp, "rb") as f:
                cur = f.read()
            if json.loads(cur).get("ID") != info.get("ID"):
                return self.reply(409, cur)
            os.remove(lp)
            return self.finish_reply(after, 200)
        return self.reply(405, b'{"message":"405 Method Not Allowed"}')

    do_GET = do_POST = do_PUT = do_DELETE = handle_any
    do_LOCK = do_UNLOCK = handle_any


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def watch_dir():
    """Exits once --dir is gone: a test that failed before killing the
    server has had its scratch directory removed by the runner."""
    while os.path.isdir(ARGS.dir):
        time.sleep(1)
    os._exit(0)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("--client-ca", help="require client certificates")
    ap.add_argument("--user")
    ap.add_argument("--password", default="")
    ARGS = ap.parse_args()
    os.makedirs(ARGS.dir, exist_ok=True)
    srv = Server(("127.0.0.1", ARGS.port), Handler)
    if ARGS.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(ARGS.cert, ARGS.key)
        if ARGS.client_ca:
            ctx.verify_mode = ssl.CERT_REQUIRED
            ctx.load_verify_locations(ARGS.client_ca)
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    print(srv.server_address[1], flush=True)
    threading.Thread(target=watch_dir, daemon=True).start()
    srv.serve_forever()


if __name__ == "__main__":
    main()
