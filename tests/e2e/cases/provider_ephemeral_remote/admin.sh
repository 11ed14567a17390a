#!/bin/sh
# admin.sh CALL [JSON]: posts JSON to the reference provider's /_admin/CALL
# (over TLS, trusting certs/ca.crt) and prints the answer.
P=$(cat port)
python3 - "$P" "$1" "${2:-{\}}" <<'PY'
import http.client, ssl, sys
ctx = ssl.create_default_context(cafile="certs/ca.crt")
try:
    ctx.load_cert_chain("certs/client.crt", "certs/client.key")
except OSError:
    pass
c = http.client.HTTPSConnection("localhost", int(sys.argv[1]), context=ctx)
c.request("POST", "/_admin/" + sys.argv[2], body=sys.argv[3],
          headers={"Content-Type": "application/json"})
print(c.getresponse().read().decode())
PY
