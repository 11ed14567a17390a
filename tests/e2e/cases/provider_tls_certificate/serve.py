# A TLS server for data "tls_certificate" with url: presents chain.pem
# (leaf, then CA) with key.pem, on 127.0.0.1 at a free port written to
# ./port; its pid goes to ./pid.  Each connection: handshake, then an
# HTTP answer (204) to a request when one comes (https://), then close.
import os, socket, ssl, threading
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain("chain.pem", "key.pem")
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
open("pid", "w").write(str(os.getpid()))
open("port.tmp", "w").write(str(s.getsockname()[1]))
os.rename("port.tmp", "port")
def handle(c):
    try:
        t = ctx.wrap_socket(c, server_side=True)
        req = b""
        while b"\r\n\r\n" not in req:
            b = t.recv(4096)
            if not b:
                break
            req += b
        if req:
            t.sendall(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
        t.close()
    except Exception:
        pass
while True:
    c, _ = s.accept()
    threading.Thread(target=handle, args=(c,), daemon=True).start()
