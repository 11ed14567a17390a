#!/bin/sh
# start.sh CERT [CA [SERVER-ARGS...]]: starts the reference provider with
# certs/CERT.crt in the background (pid in ./pid, port in ./port, objects
# in ./data.json) and writes cairn.ini mapping example.test/ref/fleet to
# it, trusting certs/CA.crt (default ca).  $INI_EXTRA is appended to the
# provider section (client certificates, retries, ...).
here=$(dirname "$0")
cert=$1
ca=${2:-ca}
shift
[ $# -gt 0 ] && shift
rm -f port
python3 "$here/../../../provider/server.py" --port 0 --prefix /cairn/v1 \
  --cert "certs/$cert.crt" --key "certs/$cert.key" --data data.json "$@" \
  > port 2>/dev/null &
echo $! > pid
i=0
while [ ! -s port ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
P=$(cat port)
printf '[provider "example.test/ref/fleet"]\nendpoint = https://localhost:%s/cairn/v1\nresolve = localhost:%s:127.0.0.1\nca_file = certs/%s.crt\n%s' \
  "$P" "$P" "$ca" "${INI_EXTRA:-}" > cairn.ini
