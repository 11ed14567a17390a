#!/bin/sh
# start.sh CERT [CA]: starts the reference provider with certs/CERT.crt in
# the background (pid in ./pid, port in ./port) and writes cairn.ini
# mapping acme.test/ref/ref to it, trusting certs/CA.crt (default ca).
here=$(dirname "$0")
rm -f port
python3 "$here/../../../provider/server.py" --port 0 --prefix /cairn/v1 \
  --cert "certs/$1.crt" --key "certs/$1.key" > port 2>/dev/null &
echo $! > pid
i=0
while [ ! -s port ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
P=$(cat port)
printf '[provider "acme.test/ref/ref"]\nendpoint = https://localhost:%s/cairn/v1\nresolve = localhost:%s:127.0.0.1\nca_file = certs/%s.crt\n' \
  "$P" "$P" "${2:-ca}" > cairn.ini
