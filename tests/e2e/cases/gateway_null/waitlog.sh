#!/bin/sh
# waitlog.sh PATTERN [N]: waits (up to 30 s, polling) until gw.log has at
# least N (default 1) lines matching PATTERN; fails otherwise.
n=${2:-1}
i=0
while [ "$(grep -c -e "$1" gw.log)" -lt "$n" ]; do
  [ $i -ge 300 ] && { echo "timeout waiting for: $1"; exit 1; }
  sleep 0.1; i=$((i + 1))
done
