#!/usr/bin/env python3
"""Test server for the built-in http data source (tests/e2e/cases/provider_http).

Standard library only.  Prints the chosen port on the first line of stdout,
then serves until killed; with --cert/--key over TLS (--client-ca FILE
requires a client certificate signed by FILE).  A request whose target is
an absolute URI ("GET http://host/path") is answered as a proxy would:
200, "X-Proxied: yes", body "proxied METHOD URI".  Paths:
  /200            200 "1.0.0", Content-Type text/plain, X-Single: foobar,
                  X-Double: 1 and X-Double: 2 (two fields)
  /404            404, empty body
  /echo           200, body: the method, then the request's X-*, Content-Type,
                  Accept, User-Agent and Host fields (sorted), then the body
  /fail/N/KEY     502 for the first N requests naming KEY, then 200 "ok"
  /always500      500
  /sleep/MS       answers 200 after MS milliseconds
  /binary         200 with bytes that are not UTF-8
  /gzip           the body "zipped", gzip-encoded when the client accepts it
  /count/KEY      the number of /fail requests seen for KEY
"""
import argparse
import gzip
import http.server
import socketserver
import ssl
import sys
import threading
import time

counts = {}
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, code, body=b"", headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def handle_any(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        p = self.path
        if p.startswith("http://") or p.startswith("https://"):
            self.reply(200, ("proxied %s %s" % (self.command, p)).encode(),
                       [("X-Proxied", "yes")])
            return
        if p == "/200":
            self.reply(200, b"1.0.0", [("Content-Type", "text/plain"),
                                       ("X-Single", "foobar"),
                                       ("X-Double", "1"),
                                       ("X-Double", "2")])
        elif p == "/404":
            self.reply(404)
        elif p == "/echo":
            keep = sorted((k, v) for k, v in self.headers.items()
                          if k.lower().startswith("x-") or k.lower() in
                          ("content-type", "accept", "user-agent", "host"))
            out = self.command + "\n"
            out += "".join("%s: %s\n" % kv for kv in keep)
            out = out.encode() + b"\n" + body
            self.reply(200, out, [("Content-Type", "text/plain")])
        elif p.startswith("/fail/"):
            _, _, n, key = p.split("/", 3)
            with lock:
                counts[key] = counts.get(key, 0) + 1
                c = counts[key]
            if c <= int(n):
                self.reply(502, b"bad gateway")
            else:
                self.reply(200, b"ok", [("Content-Type", "text/plain")])
        elif p == "/always500":
            self.reply(500, b"broken")
        elif p.startswith("/sleep/"):
            time.sleep(int(p.split("/")[2]) / 1000.0)
            self.reply(200, b"slept")
        elif p == "/binary":
            self.reply(200, b"\xff\xfe\x00abc", [("Content-Type",
                                                  "application/octet-stream")])
        elif p == "/gzip":
            if "gzip" in (self.headers.get("Accept-Encoding") or ""):
                self.reply(200, gzip.compress(b"zipped"),
                           [("Content-Encoding", "gzip"),
                            ("Content-Type", "text/plain")])
            else:
                self.reply(200, b"zipped", [("Content-Type", "text/plain")])
        elif p.startswith("/count/"):
            with lock:
                c = counts.get(p.split("/")[2], 0)
            self.reply(200, str(c).encode())
        else:
            self.reply(400, b"unknown path")

    do_GET = do_POST = do_HEAD = do_OPTIONS = handle_any


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("--client-ca")
    args = ap.parse_args()
    srv = Server(("127.0.0.1", 0), Handler)
    if args.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.cert, args.key)
        if args.client_ca:
            ctx.load_verify_locations(args.client_ca)
            ctx.verify_mode = ssl.CERT_REQUIRED
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
