#!/bin/sh
# start.sh: starts `cairn gateway` on 127.0.0.1 (any port) serving the
# real terraform-provider-null ($CAIRN_TESTPEER_NULL; $NULL_PLUGIN picks
# another binary, e.g. terraform-provider-null-v6 for tfplugin6), with the
# test certificates in certs/ (tests/provider/mkcerts.sh), a client "edge"
# whose token is in ./token, and an idle timeout of 1 s.  $GW_EXTRA is
# appended to the [gateway] section, $CLIENT_EXTRA to the client section
# (it may open other sections), $INI_EXTRA to the client's host
# configuration.  $NULL_SOURCE replaces the null section's "plugin = ..."
# line (e.g. with plugin_dir and version lines).  Waits (polling its log)
# until it listens; writes gw.pid, gw.log, port, and cairn.ini (pointing
# hashicorp/null at the gateway).
# With PYTEST=1 it also serves the Python test plugin
# (tests/peers/pyprovider, cairn.test/test/pytest) to the client, its
# objects in the directory named in ./objdir (writable by the plugin user:
# a provider "pytest" block gives it as state_dir), its message cache in
# the work directory, and cairn.ini points at it too.
[ -d certs ] || sh "$TESTDIR/../../../provider/mkcerts.sh" certs
[ -f token ] || { head -c 24 /dev/urandom | base64 > token; chmod 600 token; }
# The plugins' working directories must be reachable by the unprivileged
# plugin user, which the scratch directory (mode 700) is not.
[ -f workdir ] || { d=$(mktemp -d /tmp/cairn-gw-e2e.XXXXXX); chmod 755 "$d"; echo "$d" > workdir; }
user=""
pyt_gw="" pyt_client="" pyt_env=""
if [ "${PYTEST:-}" = 1 ]; then
  [ -f objdir ] || { mkdir -m 777 "$(cat workdir)/objects" "$(cat workdir)/pycache"; echo "$(cat workdir)/objects" > objdir; }
  pyt_gw=$(printf '[provider "cairn.test/test/pytest"]\nplugin = %s/terraform-provider-pytest\n' "$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)")
  pyt_client=", cairn.test/test/pytest"
  pyt_env="pass_env = PYPROVIDER_CACHE"
  export PYPROVIDER_CACHE="$(cat workdir)/pycache"
fi
[ "$(id -u)" = 0 ] && user="plugin_user = nobody"
cat > gw.ini <<INI
[gateway]
listen = 127.0.0.1:0
cert_file = certs/server.crt
key_file = certs/server.key
work_dir = $(cat workdir)/plugins
idle_timeout = 1s
$user
${GW_EXTRA:-}
$pyt_env

[provider "hashicorp/null"]
${NULL_SOURCE:-plugin = $CAIRN_TESTPEER_NULL/${NULL_PLUGIN:-terraform-provider-null}}
$pyt_gw

[client "edge"]
token_file = token
providers = hashicorp/null$pyt_client
${CLIENT_EXTRA:-}
INI
rm -f port gw.log
cairn gateway -config gw.ini > /dev/null 2> gw.log &
echo $! > gw.pid
i=0
while ! grep -q 'listening on port' gw.log 2>/dev/null && [ $i -lt 300 ]; do
  sleep 0.1; i=$((i + 1))
done
P=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' gw.log)
echo "$P" > port
printf '[provider "hashicorp/null"]\nendpoint = https://localhost:%s/providers/hashicorp/null\nresolve = localhost:%s:127.0.0.1\nca_file = %s/certs/ca.crt\ntoken_file = %s/token\n%s' \
  "$P" "$P" "$PWD" "$PWD" "${INI_EXTRA:-}" > cairn.ini
[ "${PYTEST:-}" = 1 ] && printf '[provider "cairn.test/test/pytest"]\nendpoint = https://localhost:%s/providers/cairn.test/test/pytest\nresolve = localhost:%s:127.0.0.1\nca_file = %s/certs/ca.crt\ntoken_file = %s/token\n' \
  "$P" "$P" "$PWD" "$PWD" >> cairn.ini
exit 0
