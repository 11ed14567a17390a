"""resource_changes of `cairn show -json PLAN` (stdin): address,
actions, previous_address, and whether before equals after."""
import json
import sys

p = json.load(sys.stdin)
for r in p["resource_changes"]:
    c = r["change"]
    print("%s actions=%s previous_address=%s same=%s" % (
        r["address"], ",".join(c["actions"]), r.get("previous_address", "-"),
        c["before"] == c["after"]))
