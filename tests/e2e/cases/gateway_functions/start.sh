#!/bin/sh
# start.sh: starts `cairn gateway` on 127.0.0.1 (any port) serving the
# Python test plugin (tests/peers/pyprovider, $PYPLUGIN names the wrapper:
# terraform-provider-pytest or terraform-provider-pytest-v6) as
# cairn.test/test/pytest, with the test certificates in certs/
# (tests/provider/mkcerts.sh) and a client "edge" whose token is in
# ./token.  The plugin's message-class cache and its call log go to
# WORKDIR/cache (pass_env PYPROVIDER_CACHE, PYPROVIDER_CALL_LOG).  Waits
# (polling its log) until it listens; writes gw.pid, gw.log, port and
# cairn.ini (the client's host configuration, pointing
# cairn.test/test/pytest at the gateway).
[ -d certs ] || sh "$TESTDIR/../../../provider/mkcerts.sh" certs
[ -f token ] || { head -c 24 /dev/urandom | base64 > token; chmod 600 token; }
# The plugins' working directories must be reachable by the unprivileged
# plugin user, which the scratch directory (mode 700) is not.
[ -f workdir ] || { d=$(mktemp -d /tmp/cairn-gw-e2e.XXXXXX); chmod 755 "$d"; echo "$d" > workdir; }
mkdir -p "$(cat workdir)/cache" && chmod 777 "$(cat workdir)/cache"
user=""
[ "$(id -u)" = 0 ] && user="plugin_user = nobody"
peers=$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)
cat > gw.ini <<INI
[gateway]
listen = 127.0.0.1:0
cert_file = certs/server.crt
key_file = certs/server.key
work_dir = $(cat workdir)/plugins
pass_env = PYPROVIDER_CACHE, PYPROVIDER_CALL_LOG
$user

[provider "cairn.test/test/pytest"]
plugin = $peers/${PYPLUGIN:-terraform-provider-pytest}

[client "edge"]
token_file = token
providers = cairn.test/test/pytest
INI
rm -f port gw.log
PYPROVIDER_CACHE=$(cat workdir)/cache PYPROVIDER_CALL_LOG=$(cat workdir)/cache/calls.log cairn gateway -config gw.ini > /dev/null 2> gw.log &
echo $! > gw.pid
i=0
while ! grep -q 'listening on port' gw.log 2>/dev/null && [ $i -lt 300 ]; do
  sleep 0.1; i=$((i + 1))
done
P=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' gw.log)
echo "$P" > port
printf '[provider "cairn.test/test/pytest"]\nendpoint = https://localhost:%s/providers/cairn.test/test/pytest\nresolve = localhost:%s:127.0.0.1\nca_file = %s/certs/ca.crt\ntoken_file = %s/token\n' \
  "$P" "$P" "$PWD" "$PWD" > cairn.ini
