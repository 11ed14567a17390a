"""resource_changes of `cairn show -json PLAN` (stdin): address, actions,
action_reason and deposed (the key shown as "yes")."""
import json
import sys

p = json.load(sys.stdin)
for r in p["resource_changes"]:
    print("%s actions=%s reason=%s deposed=%s" % (
        r["address"], ",".join(r["change"]["actions"]),
        r.get("action_reason", "-"), "yes" if r.get("deposed") else "-"))
