"""Summary of `cairn show -json PLAN` (stdin) for json_lifecycle: each
resource change with its actions and the refactoring/lifecycle fields, and
the configuration's depends_on."""
import json
import sys

p = json.load(sys.stdin)
for r in p.get("resource_changes", []):
    c = r["change"]
    extra = []
    for k in ("action_reason", "previous_address"):
        if k in r:
            extra.append("%s=%s" % (k, r[k]))
    if "importing" in c:
        extra.append("importing=%s" % json.dumps(c["importing"], sort_keys=True))
    if c.get("replace_paths"):
        extra.append("replace_paths=%s" % json.dumps(c["replace_paths"]))
    print("%s %s %s" % (r["address"], ",".join(c["actions"]), " ".join(extra)))
for r in p["configuration"]["root_module"].get("resources", []):
    if "depends_on" in r:
        print("config %s depends_on=%s" % (r["address"], r["depends_on"]))
