# An HTTP CONNECT proxy for data "tls_certificate" through a proxy: every
# tunnel goes to 127.0.0.1 at the port in ./port (whatever host was
# asked for), and its request line and Proxy-Authorization header are
# appended to ./proxy.log.  Listens on a free port written to ./pport;
# its pid goes to ./ppid.
import os, socket, threading
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
open("ppid", "w").write(str(os.getpid()))
open("pport.tmp", "w").write(str(s.getsockname()[1]))
os.rename("pport.tmp", "pport")
def pipe(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    except Exception:
        pass
    finally:
        b.close()
def handle(c):
    head = b""
    while b"\r\n\r\n" not in head:
        d = c.recv(4096)
        if not d:
            c.close()
            return
        head += d
    lines = head.split(b"\r\n")
    auth = [l.decode() for l in lines if l.lower().startswith(b"proxy-authorization:")]
    with open("proxy.log", "a") as f:
        f.write(" ".join([lines[0].decode()] + auth) + "\n")
    u = socket.create_connection(("127.0.0.1", int(open("port").read())))
    c.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
    threading.Thread(target=pipe, args=(u, c), daemon=True).start()
    pipe(c, u)
while True:
    c, _ = s.accept()
    threading.Thread(target=handle, args=(c,), daemon=True).start()
