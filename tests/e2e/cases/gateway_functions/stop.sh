#!/bin/sh
# stop.sh: SIGTERM to the gateway, then waits (polling, up to 30 s) for it
# to exit: it finishes running calls and shuts the plugins down first.
# Complains when it does not exit, or when the sanitizers (san build)
# reported anything in its log (leaks are reported at exit).
pid=$(cat gw.pid)
kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$pid" 2>/dev/null && echo "gateway still running"
grep -q -e 'Sanitizer' -e 'runtime error' gw.log && echo "sanitizer report in gw.log"
rm -rf "$(cat workdir)" workdir
