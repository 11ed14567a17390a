"""The objects of terraform.tfstate, one line each: address, current or
deposed, status, create_before_destroy, and the id as id1, id2... in the
order first seen (kept in ids.json, so that runs can be compared)."""
import json
import os

ids = json.load(open("ids.json")) if os.path.exists("ids.json") else {}
s = json.load(open("terraform.tfstate"))
for r in s["resources"]:
    for i in r["instances"]:
        oid = i["attributes"]["id"]
        if oid not in ids:
            ids[oid] = "id%d" % (len(ids) + 1)
        slot = "deposed" if "deposed" in i else "current"
        print("%s.%s %s status=%s cbd=%s id=%s" % (
            r["type"], r["name"], slot, i.get("status", "-"),
            i.get("create_before_destroy", False), ids[oid]))
json.dump(ids, open("ids.json", "w"))
