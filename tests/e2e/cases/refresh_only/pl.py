"""The refresh-only fields of `cairn show -json PLAN` (stdin)."""
import json
import sys

p = json.load(sys.stdin)
print("applyable=%s complete=%s errored=%s" % (
    p.get("applyable"), p.get("complete"), p.get("errored")))
for k in ("resource_drift", "resource_changes"):
    if k not in p:
        print("%s: (none)" % k)
        continue
    print("%s:" % k)
    for r in p[k]:
        print("  %s actions=%s after=%s" % (
            r["address"], ",".join(r["change"]["actions"]),
            json.dumps(r["change"]["after"])))
print("prior_state: %s" % " ".join(
    r["address"] for r in p["prior_state"]["values"]["root_module"]["resources"]))
