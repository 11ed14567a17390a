#!/bin/sh
# nginx.sh start|stop: Debian's nginx as a WebDAV state store for the http
# backend's tests (Terraform's no-lock mode: GET, PUT, DELETE of one URL,
# no lock_address), over TLS, in the current directory's terms:
#
#   start    a private prefix in a fresh /tmp/cairn-nginx-XXXXXX (its path
#            in ./nginx.dir): its own nginx.conf, error and access logs,
#            temp directories, pid file and document root (./nginx.root,
#            where PUT /states/x.tfstate lands as states/x.tfstate); a free
#            port on 127.0.0.1 (./nginx.port); throw-away certificates in
#            ./ngcerts (ca.crt signs server.crt for IP 127.0.0.1 and
#            localhost; stranger.crt is an unrelated CA); and be.hcl, the
#            -backend-config of an http backend for
#            https://127.0.0.1:PORT/states/x.tfstate that trusts ca.crt.
#   stop     stops it, waits until the master has exited (so the access
#            log is complete) and copies the access log ("METHOD URI
#            STATUS" per request) to ./nginx.access; removes the prefix.
#
# The master is started as a daemon: nginx binds its listening socket
# before it detaches and exits non-zero when it cannot, so when the start
# command returns the port accepts connections; one GET checks that the
# workers answer over TLS.  No fixed sleeps.  Run as root (CI), the
# workers would default to "nobody", who cannot write the private root:
# the config then says "user root;" (as another user nginx keeps that
# user and the directive is not written).  A watcher stops the server when
# the working directory disappears (a failed case's scratch directory), so
# no server outlives its test.
set -eu
PATH=$PATH:/usr/sbin:/sbin

stop_dir() { # prefix: stop the master of that prefix and wait for it
  d=$1
  if [ -s "$d/nginx.pid" ]; then
    pid=$(cat "$d/nginx.pid")
    if kill -TERM "$pid" 2>/dev/null; then
      # the master removes its pid file on exit; tail --pid waits for the
      # process itself to be gone
      timeout 20 tail --pid="$pid" -s 0.05 -f /dev/null || true
    fi
  fi
}

case ${1:-} in
start)
  dir=$(mktemp -d /tmp/cairn-nginx-XXXXXX)
  echo "$dir" > nginx.dir
  echo "$dir/root" > nginx.root
  mkdir -p "$dir/root/states" "$dir/tmp"
  mkdir -p ngcerts
  ( cd ngcerts
    EC="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
    openssl req -x509 $EC -keyout ca.key -out ca.crt -subj /CN=cairn-nginx-ca \
      -days 2 >/dev/null 2>&1
    openssl req -x509 $EC -keyout stranger.key -out stranger.crt \
      -subj /CN=stranger -days 2 >/dev/null 2>&1
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > san
    openssl req -new $EC -keyout server.key -out server.csr -subj /CN=127.0.0.1 \
      >/dev/null 2>&1
    openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -days 2 -extfile san -out server.crt >/dev/null 2>&1 )
  cp ngcerts/server.crt ngcerts/server.key "$dir/"
  user=
  [ "$(id -u)" = 0 ] && user='user root;'
  # A free port is probed, then nginx binds it: between the two, another
  # test running at the same time may take it (its own server, or a
  # client's ephemeral port).  nginx then fails to start saying so, and a
  # fresh port is tried; any other failure is reported.
  tries=0
  while :; do
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    cat > "$dir/nginx.conf" <<CONF
$user
daemon on;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log info;
events { worker_connections 64; }
http {
  log_format req '\$request_method \$uri \$status';
  access_log $dir/access.log req;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  default_type application/json;
  server {
    listen 127.0.0.1:$port ssl;
    server_name localhost;
    ssl_certificate $dir/server.crt;
    ssl_certificate_key $dir/server.key;
    root $dir/root;
    client_max_body_size 0;
    location /states/ {
      dav_methods PUT DELETE;
      create_full_put_path on;
      dav_access user:rw;
    }
  }
}
CONF
    : > "$dir/error.log"
    nginx -p "$dir/" -e "$dir/error.log" -c "$dir/nginx.conf" \
      </dev/null >"$dir/start.log" 2>&1 && break
    tries=$((tries + 1))
    if [ $tries -ge 5 ] || ! grep -q 'Address already in use' "$dir/start.log" "$dir/error.log"; then
      cat "$dir/start.log" "$dir/error.log" >&2
      exit 1
    fi
  done
  echo "$port" > nginx.port
  # the workers answer over TLS (a 404: no state yet)
  code=$(curl -s -o /dev/null -w '%{http_code}' --cacert ngcerts/ca.crt \
    "https://127.0.0.1:$port/states/")
  if [ "$code" != 404 ] && [ "$code" != 403 ]; then
    echo "nginx.sh: nginx on port $port answered $code" >&2
    cat "$dir/error.log" >&2
    exit 1
  fi
  : > "$dir/access.log"
  {
    printf 'address = "https://127.0.0.1:%s/states/x.tfstate"\n' "$port"
    printf 'client_ca_certificate_pem = <<EOT\n'
    cat ngcerts/ca.crt
    printf 'EOT\n'
  } > be.hcl
  wd=$(pwd)
  ( while [ -d "$wd" ] && [ -d "$dir" ]; do sleep 1; done
    stop_dir "$dir"
    rm -rf "$dir" ) >/dev/null 2>&1 </dev/null &
  ;;
stop)
  dir=$(cat nginx.dir)
  stop_dir "$dir"
  cp "$dir/access.log" nginx.access 2>/dev/null || : > nginx.access
  rm -rf "$dir"
  ;;
*)
  echo "usage: nginx.sh start|stop" >&2
  exit 2
  ;;
esac
