#!/bin/sh
# Makes throw-away certificates for the reference provider in DIR (no key is
# ever committed):
#   ca.crt/ca.key          the test CA
#   ca2.crt                a stranger's CA (for "unknown CA" failures)
#   server.crt/.key        localhost, signed by ca
#   expired.crt/.key       localhost, expired yesterday
#   other.crt/.key         other.example (host-name mismatch)
#   client.crt/.key        a client certificate for mutual TLS
#   server.pin             sha256//BASE64 of server.crt's public key
# Usage: mkcerts.sh DIR
set -eu
dir=$1
mkdir -p "$dir"
cd "$dir"
EC="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
openssl req -x509 $EC -keyout ca.key -out ca.crt -subj /CN=cairn-test-ca \
  -days 2 >/dev/null 2>&1
openssl req -x509 $EC -keyout ca2.key -out ca2.crt -subj /CN=stranger \
  -days 2 >/dev/null 2>&1
printf 'subjectAltName=DNS:localhost\n' > san_local
printf 'subjectAltName=DNS:other.example\n' > san_other
mk() { # name days extfile
  openssl req -new $EC -keyout "$1.key" -out "$1.csr" -subj "/CN=$1" \
    >/dev/null 2>&1
  openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial \
    -days "$2" -extfile "$3" -out "$1.crt" >/dev/null 2>&1
}
mk server 2 san_local
mk expired -1 san_local
mk other 2 san_other
mk client 2 san_local
pin=$(openssl x509 -in server.crt -pubkey -noout | openssl pkey -pubin \
  -outform der | openssl dgst -sha256 -binary | openssl base64 -A)
printf 'sha256//%s\n' "$pin" > server.pin
