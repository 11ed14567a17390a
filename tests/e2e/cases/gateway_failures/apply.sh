#!/bin/sh
# apply.sh KEY: one ApplyResourceChange creating a null_resource, sent
# straight to the gateway with curl, with Idempotency-Key KEY; prints the
# new object's id.
P=$(cat port)
curl -s --cacert certs/ca.crt --resolve "localhost:$P:127.0.0.1" \
  -H "Authorization: Bearer $(cat token)" -H 'Content-Type: application/json' \
  -H "Idempotency-Key: $1" \
  --data '{"type_name":"null_resource","provider_config":{"value":{}},"prior_state":{"value":null},"planned_state":{"value":{"id":null,"triggers":null},"unknown":{"id":true}},"config":{"value":{"id":null,"triggers":null}},"planned_private":""}' \
  "https://localhost:$P/providers/hashicorp/null/ApplyResourceChange" |
  python3 -c 'import json,sys; a=json.load(sys.stdin); print(a["new_state"]["value"]["id"], len(a["diagnostics"]))'
