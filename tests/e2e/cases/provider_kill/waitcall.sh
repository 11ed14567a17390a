#!/bin/sh
# waitcall.sh KEY N: waits (up to 20 s) until the reference provider's
# stats field KEY (a call name under "calls", or "creates") reaches N.
i=0
while [ $i -lt 200 ]; do
  n=$(sh "$(dirname "$0")/admin.sh" stats | python3 -c "import json,sys; s=json.load(sys.stdin); print(s['calls'].get('$1', s.get('$1', 0)))")
  [ "$n" -ge "$2" ] && exit 0
  sleep 0.1
  i=$((i + 1))
done
echo "timed out waiting for $1 >= $2 (at $n)"
exit 1
