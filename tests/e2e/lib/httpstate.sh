#!/bin/sh
# httpstate.sh [SERVER ARGS...]: starts tests/http/state_server.py over TLS
# with throw-away certificates (certs/, tests/provider/mkcerts.sh), states
# in ./srv, pid in ./srv.pid, port in ./port, and writes be.hcl, the
# -backend-config file of an http backend for /state/main on it (address,
# lock and unlock addresses, the test CA).  Extra arguments go to the
# server (--user U --password P, --client-ca FILE).
set -eu
lib=$(dirname "$0")
[ -f certs/ca.crt ] || sh "$lib/../../provider/mkcerts.sh" certs
rm -f port
python3 "$lib/../../http/state_server.py" --dir srv --cert certs/server.crt \
  --key certs/server.key "$@" > port 2>srv.err &
echo $! > srv.pid
i=0
while [ ! -s port ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
P=$(cat port)
{
  printf 'address = "https://localhost:%s/state/main"\n' "$P"
  printf 'lock_address = "https://localhost:%s/state/main/lock"\n' "$P"
  printf 'unlock_address = "https://localhost:%s/state/main/lock"\n' "$P"
  printf 'client_ca_certificate_pem = <<EOT\n'
  cat certs/ca.crt
  printf 'EOT\n'
} > be.hcl
