#!/bin/sh
# pgserver.sh start|stop|restart: a private PostgreSQL cluster for the pg
# backend's tests, in the current directory's terms:
#
#   start    initdb in a fresh /tmp/cairn-pg-XXXXXX (its path in ./pg.dir),
#            a free TCP port on 127.0.0.1 (./pg.port), the unix socket in
#            the cluster directory (./pg.sock), TLS with throw-away
#            certificates (./certs, tests/provider/mkcerts.sh: localhost,
#            signed by certs/ca.crt), and the database "tfstate" with roles
#              cairn / secret      scram-sha-256 (socket and TCP)
#              cairn_md5 / md5pw   md5
#              cairn_pw / plainpw  cleartext password (socket only)
#            and writes ./pg.env for the transcript's commands to source:
#            PGT_SOCK, PGT_PORT, PGT_CONN (a keyword conn_str for the
#            socket, without user and password).
#   stop     stops it (immediate) and removes the cluster directory.
#   down     stops it, keeping everything (a server outage); start again
#            with "up".
#   up       starts a cluster that "down" stopped.
#
# PostgreSQL refuses to run as root: as root, the cluster belongs to the
# "postgres" user (Debian's package creates it) and runs as that user.
# pg_ctl -w polls until the server accepts connections: no fixed sleeps.
# A watcher stops the server when the working directory disappears (a
# failed case's scratch directory), so no server outlives its test.
set -eu
PATH=$PATH:/usr/sbin:/sbin
here=$(cd "$(dirname "$0")" && pwd)
bin=
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && bin=$d
done
if [ -z "$bin" ]; then
  bin=$(dirname "$(command -v initdb)")
fi
as_pg() {
  if [ "$(id -u)" = 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

case ${1:-} in
start)
  dir=$(mktemp -d /tmp/cairn-pg-XXXXXX)
  chmod 755 "$dir"
  echo "$dir" > pg.dir
  echo "$dir" > pg.sock
  [ -f certs/ca.crt ] || sh "$here/../provider/mkcerts.sh" certs
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  printf 'secret\n' > "$dir/pw"
  [ "$(id -u)" = 0 ] && chown postgres "$dir/pw"
  as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust \
    --auth-local=trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1
  cp certs/server.crt certs/server.key "$dir/data/"
  chmod 600 "$dir/data/server.key"
  [ "$(id -u)" = 0 ] && chown postgres "$dir/data/server.crt" "$dir/data/server.key"
  cat >> "$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
fsync = off
max_connections = 40
include 'port.conf'
EOF
  cat > "$dir/data/pg_hba.conf" <<EOF
local all postgres trust
local all cairn_md5 md5
local all cairn_pw password
local all all scram-sha-256
host all cairn_md5 127.0.0.1/32 md5
host all all 127.0.0.1/32 scram-sha-256
EOF
  [ "$(id -u)" = 0 ] && chown postgres "$dir/data/pg_hba.conf"
  # A free port is probed, then the server binds it: between the two,
  # another test running at the same time may take it (its own server, or
  # a client's ephemeral port).  The server then fails to start saying so,
  # and a fresh port is tried; any other failure is reported.
  tries=0
  while :; do
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    echo "port = $port" > "$dir/data/port.conf"
    [ "$(id -u)" = 0 ] && chown postgres "$dir/data/port.conf"
    : > "$dir/server.log"
    [ "$(id -u)" = 0 ] && chown postgres "$dir/server.log"
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null && break
    tries=$((tries + 1))
    if [ $tries -ge 5 ] || ! grep -q 'could not bind\|could not create any TCP/IP sockets' "$dir/server.log"; then
      cat "$dir/server.log" >&2; exit 1
    fi
  done
  echo "$port" > pg.port
  as_pg "$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -q -v ON_ERROR_STOP=1 >/dev/null <<'EOF'
SET password_encryption = 'scram-sha-256';
CREATE ROLE cairn LOGIN PASSWORD 'secret';
CREATE ROLE cairn_pw LOGIN PASSWORD 'plainpw';
SET password_encryption = 'md5';
CREATE ROLE cairn_md5 LOGIN PASSWORD 'md5pw';
CREATE DATABASE tfstate OWNER cairn;
\c tfstate
GRANT ALL ON SCHEMA public TO cairn;
GRANT cairn TO cairn_md5, cairn_pw;
EOF
  printf 'PGT_SOCK=%s\nPGT_PORT=%s\nPGT_CONN="host=%s port=%s dbname=tfstate"\n' \
    "$dir" "$port" "$dir" "$port" > pg.env
  wd=$(pwd)
  ( while [ -d "$wd" ] && [ -d "$dir" ]; do sleep 1; done
    as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir" ) >/dev/null 2>&1 </dev/null &
  ;;
stop)
  dir=$(cat pg.dir)
  as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
down)
  dir=$(cat pg.dir)
  as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  ;;
up)
  dir=$(cat pg.dir)
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
  ;;
*)
  echo "usage: pgserver.sh start|stop|down|up" >&2
  exit 2
  ;;
esac
