"""Apply and provision messages of a -json UI stream (stdin): type,
@message and the hook's fields other than the resource, plus the
resource's addr; ids masked."""
import json
import re
import sys

for line in sys.stdin:
    m = json.loads(line)
    t = m["type"]
    if not (t.startswith("apply_") or t.startswith("provision_")):
        continue
    h = m.get("hook", {})
    extra = {k: v for k, v in h.items() if k not in ("resource", "id_key", "id_value", "elapsed_seconds")}
    msg = re.sub(r" \[id=[^]]*\]", "", m["@message"])
    msg = re.sub(r"after [0-9]+s", "after Ns", msg)
    print("%s %s | %s %s" % (t, json.dumps(msg), h["resource"]["addr"],
                             json.dumps(extra, sort_keys=True)))
