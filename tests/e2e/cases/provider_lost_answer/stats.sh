#!/bin/sh
# stats.sh: creates, devices, entries at the reference provider.
sh "$(dirname "$0")/../provider_faults/admin.sh" stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["creates"], s["devices"], s["entries"])'
