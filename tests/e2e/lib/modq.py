"""Summaries of cairn's JSON documents for the module e2e cases, shared by
them: a transcript runs it as `python3 "$E2E_LIB/modq.py" ...`.

  modq.py state [FILE]  resources of a state file (default terraform.tfstate):
                        module, address, provider, instances, dependencies
  modq.py plan          reads `cairn show -json PLAN` on stdin: resource
                        changes, the planned_values module tree, and the
                        configuration's provider_config and module_calls
"""
import json
import sys


def state(path):
    with open(path) as f:
        s = json.load(f)
    for r in s["resources"]:
        mod = r.get("module", "")
        addr = ("%s." % mod if mod else "") + "%s.%s" % (r["type"], r["name"])
        if r["mode"] == "data":
            addr = ("%s." % mod if mod else "") + "data.%s.%s" % (r["type"], r["name"])
        print("%s module=%r provider=%s" % (addr, mod, r["provider"]))
        for i in r["instances"]:
            key = i.get("index_key")
            print("  key=%s deps=%s" % (json.dumps(key), i.get("dependencies", [])))


def tree(m, depth):
    pad = "  " * depth
    print("%smodule %s" % (pad, m.get("address", "(root)")))
    for r in m.get("resources", []):
        print("%s  %s" % (pad, r["address"]))
    for c in m.get("child_modules", []):
        tree(c, depth + 1)


def calls(name, c, depth):
    pad = "  " * depth
    extra = []
    for k in ("source", "count_expression", "for_each_expression", "depends_on"):
        if k in c:
            extra.append("%s=%s" % (k, json.dumps(c[k], sort_keys=True)))
    if "expressions" in c:
        extra.append("args=%s" % ",".join(sorted(c["expressions"])))
    print("%scall %s %s" % (pad, name, " ".join(extra)))
    mod = c.get("module", {})
    for r in mod.get("resources", []):
        print("%s  resource %s key=%s" % (pad, r["address"], r["provider_config_key"]))
    for o in sorted(mod.get("outputs", {})):
        print("%s  output %s" % (pad, o))
    for v, d in sorted(mod.get("variables", {}).items()):
        print("%s  variable %s %s" % (pad, v, json.dumps(d, sort_keys=True)))
    for n, cc in sorted(mod.get("module_calls", {}).items()):
        calls(n, cc, depth + 1)


def plan():
    p = json.load(sys.stdin)
    print("resource_changes:")
    for r in p.get("resource_changes", []):
        print("  %s module_address=%s actions=%s reason=%s" % (
            r["address"], r.get("module_address", "-"),
            ",".join(r["change"]["actions"]), r.get("action_reason", "-")))
    print("planned_values:")
    tree(p["planned_values"]["root_module"], 1)
    cfg = p["configuration"]
    print("provider_config:")
    for k, v in sorted(cfg.get("provider_config", {}).items()):
        print("  %s %s" % (k, json.dumps(v, sort_keys=True)))
    print("configuration:")
    root = cfg["root_module"]
    for r in root.get("resources", []):
        print("  resource %s key=%s" % (r["address"], r["provider_config_key"]))
    for n, c in sorted(root.get("module_calls", {}).items()):
        calls(n, c, 1)


if sys.argv[1] == "state":
    state(sys.argv[2] if len(sys.argv) > 2 else "terraform.tfstate")
else:
    plan()
