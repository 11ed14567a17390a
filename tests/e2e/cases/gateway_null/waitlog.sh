#!/bin/sh
# waitlog.sh idle: waits (polling gw.log, up to 30 s) until every plugin
# process the gateway started has stopped again.
i=0
while [ "$(grep -c ' started$' gw.log)" -ne "$(grep -c ' stopped (' gw.log)" ]; do
  [ $i -ge 300 ] && { echo "timeout waiting for the plugins to stop"; exit 1; }
  sleep 0.1; i=$((i + 1))
done
