#!/bin/sh
# stop.sh: SIGTERM to the gateway, then waits for it to exit (it finishes
# running calls and shuts the plugins down first).
pid=$(cat gw.pid)
kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$pid" 2>/dev/null && echo "gateway still running"
rm -rf "$(cat workdir)" workdir
