#!/bin/sh
# start.sh: throw-away certificates in certs/ (tests/provider/mkcerts.sh),
# then tests/http/http_ds_server.py twice: plain HTTP (port in ./port, pid
# in ./pid) and HTTPS with certs/server.crt for localhost (./tls_port,
# ./tls_pid), and HTTPS requiring a client certificate signed by the test
# CA (./mtls_port, ./mtls_pid); writes terraform.tfvars with the ports.
here=$(dirname "$0")
[ -f certs/ca.crt ] || sh "$here/../../../provider/mkcerts.sh" certs
srv="$here/../../../http/http_ds_server.py"
rm -f port tls_port mtls_port
python3 "$srv" > port 2>srv.err &
echo $! > pid
python3 "$srv" --cert certs/server.crt --key certs/server.key > tls_port \
  2>tls_srv.err &
echo $! > tls_pid
python3 "$srv" --cert certs/server.crt --key certs/server.key \
  --client-ca certs/ca.crt > mtls_port 2>mtls_srv.err &
echo $! > mtls_pid
i=0
while { [ ! -s port ] || [ ! -s tls_port ] || [ ! -s mtls_port ]; } &&
  [ $i -lt 600 ]; do
  sleep 0.1
  i=$((i + 1))
done
printf 'port = %s\ntls_port = %s\nmtls_port = %s\n' "$(cat port)" \
  "$(cat tls_port)" "$(cat mtls_port)" > terraform.tfvars
