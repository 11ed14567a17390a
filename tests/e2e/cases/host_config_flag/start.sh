#!/bin/sh
# start.sh INI: starts the reference provider over TLS in the background
# (pid in ./pid, port in ./port) and writes the host configuration INI
# mapping acme.test/ref/ref to it.
here=$(dirname "$0")
rm -f port
python3 "$here/../../../provider/server.py" --port 0 --prefix /cairn/v1 \
  --cert certs/server.crt --key certs/server.key > port 2>/dev/null &
echo $! > pid
i=0
while [ ! -s port ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
P=$(cat port)
printf '[provider "acme.test/ref/ref"]\nendpoint = https://localhost:%s/cairn/v1\nresolve = localhost:%s:127.0.0.1\nca_file = certs/ca.crt\n' \
  "$P" "$P" > "$1"
