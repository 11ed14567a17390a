#!/usr/bin/env python3
"""Test HTTP(S) server for tests/unit/test_http.c (standard library only).

Prints the chosen port on the first line of stdout, then serves until
killed.  Paths (POST):
  /echo            200, echoes the request body
  /auth            200 "ok" if Authorization is "Bearer s3cret", else 401
  /headers         200, JSON of Content-Type, Accept, Authorization present
  /fail503/KEY     503 on the first request for KEY, then 200 "ok"
  /fail429/KEY     429 with Retry-After: 2 on the first request, then 200
  /status/CODE     answers CODE
  /big/N           200 with N bytes and Content-Length
  /bigchunked/N    200 with N bytes, chunked (no Content-Length)
  /truncate        Content-Length 100, sends 10 bytes, closes
  /sleep/MS        answers after MS milliseconds
  /count           number of requests served so far
"""
import argparse
import http.server
import json
import ssl
import sys
import threading
import time
import warnings

warnings.simplefilter("ignore", DeprecationWarning)

counts = {}
lock = threading.Lock()
served = [0]


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
        self.wfile.write(body)

    def first_time(self, key):
        with lock:
            n = counts.get(key, 0)
            counts[key] = n + 1
        return n == 0

    def do_POST(self):
        with lock:
            served[0] += 1
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        p = self.path
        if p.startswith("/base/"):
            p = p[5:]  # the tests' endpoint base path
        if p == "/echo":
            self.reply(200, body)
        elif p == "/tls":
            # the negotiated protocol version, e.g. "TLSv1.3"
            ver = getattr(self.connection, "version", lambda: "none")()
            self.reply(200, (ver or "none").encode())
        elif p == "/auth":
            ok = self.headers.get("Authorization") == "Bearer s3cret"
            self.reply(200 if ok else 401, b"ok" if ok else b"no")
        elif p == "/headers":
            out = {"content_type": self.headers.get("Content-Type"),
                   "accept": self.headers.get("Accept"),
                   "auth": self.headers.get("Authorization") is not None}
            self.reply(200, json.dumps(out, sort_keys=True).encode())
        elif p.startswith("/fail503/"):
            if self.first_time(p):
                self.reply(503, b"busy")
            else:
                self.reply(200, b"ok")
        elif p.startswith("/fail429/"):
            if self.first_time(p):
                self.reply(429, b"slow down", [("Retry-After", "2")])
            else:
                self.reply(200, b"ok")
        elif p.startswith("/status/"):
            self.reply(int(p[8:]), b"{}")
        elif p.startswith("/big/"):
            self.reply(200, b"x" * int(p[5:]))
        elif p.startswith("/bigchunked/"):
            left = int(p[12:])
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                while left > 0:
                    k = min(left, 65536)
                    self.wfile.write(b"%x\r\n" % k + b"x" * k + b"\r\n")
                    left -= k
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass
        elif p == "/truncate":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.close_connection = True
        elif p.startswith("/sleep/"):
            time.sleep(int(p[7:]) / 1000.0)
            self.reply(200, b"late")
        elif p == "/count":
            with lock:
                self.reply(200, str(served[0]).encode())
        else:
            self.reply(404, b"not found")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("--client-ca", help="require a client certificate")
    ap.add_argument("--tls-max", choices=["1.1", "1.2", "1.3"], default="1.3")
    a = ap.parse_args()
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    srv.daemon_threads = True
    if a.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.cert, a.key)
        if a.tls_max == "1.1":
            ctx.set_ciphers("DEFAULT:@SECLEVEL=0")
            ctx.minimum_version = ssl.TLSVersion.TLSv1
            ctx.maximum_version = ssl.TLSVersion.TLSv1_1
        elif a.tls_max == "1.2":
            ctx.maximum_version = ssl.TLSVersion.TLSv1_2
        else:
            ctx.maximum_version = ssl.TLSVersion.TLSv1_3
        if a.client_ca:
            ctx.verify_mode = ssl.CERT_REQUIRED
            ctx.load_verify_locations(a.client_ca)
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    sys.stdout.write("%d\n" % srv.server_address[1])
    sys.stdout.flush()
    srv.serve_forever()


if __name__ == "__main__":
    main()
