"""Prints the type and resource fields of a -json UI stream on stdin."""
import json
import sys

for line in sys.stdin:
    m = json.loads(line)
    h = m.get("hook") or {}
    c = m.get("change") or {}
    r = h.get("resource") or c.get("resource")
    if not r:
        print(m["type"])
        continue
    print("%s addr=%s module=%r resource=%s name=%s key=%s provider=%s" % (
        m["type"], r["addr"], r["module"], r["resource"], r["resource_name"],
        json.dumps(r["resource_key"]), r["implied_provider"]))
