"Still creating... [10s elapsed]" heartbeats while an operation runs.  The
test build takes the period from CAIRN_TEST_HEARTBEAT_MS (10 s otherwise).
No sleeps: misbehave_gate blocks its create until the file "gate" exists,
and the transcript opens the gate only once a heartbeat has been printed.
The background apply's exit status lands in "status"; every wait also ends
when it appears, so a broken build fails instead of spinning.

  $ (CAIRN_TEST_HEARTBEAT_MS=20 cairn apply -auto-approve > out 2>&1; echo $? > status.tmp; mv status.tmp status) > /dev/null 2>&1 &
  $ while ! grep -q 'Still creating' out 2>/dev/null && [ ! -f status ]; do :; done; cat status 2>/dev/null || true
  $ touch gate
  $ while [ ! -f status ]; do :; done; cat status
  0

"Creating..." comes first (delivered ahead of its turn), then the
heartbeats, then the completion.

  $ grep -E '^misbehave' out | uniq -c | sed -E 's/^ *[0-9]+ //; s/\[[0-9]+s elapsed\]/[Ns elapsed]/' | uniq
  misbehave_gate.slow: Creating...
  misbehave_gate.slow: Still creating... [Ns elapsed]
  misbehave_gate\.slow: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)

The JSON stream carries them as apply_progress messages.

  $ rm -f gate gate.started status
  $ cairn destroy -auto-approve > /dev/null 2>&1; echo "exit $?"
  exit 0
  $ (CAIRN_TEST_HEARTBEAT_MS=20 cairn apply -json -auto-approve > out.json 2>&1; echo $? > status.tmp; mv status.tmp status) > /dev/null 2>&1 &
  $ while ! grep -q 'apply_progress' out.json 2>/dev/null && [ ! -f status ]; do :; done; cat status 2>/dev/null || true
  $ touch gate
  $ while [ ! -f status ]; do :; done; cat status
  0
  $ python3 -c '
  > import json
  > seen = []
  > for l in open("out.json"):
  >   m = json.loads(l)
  >   if m["type"] == "apply_progress" and "apply_progress" not in seen:
  >     print(m["hook"]["action"], m["hook"]["resource"]["addr"], type(m["hook"]["elapsed_seconds"]).__name__, m["@message"].split(": ")[1].split(" [")[0])
  >   if m["type"].startswith("apply_") and m["type"] not in seen: seen.append(m["type"])
  > print(seen)'
  create misbehave_gate.slow int Still creating...
  ['apply_start', 'apply_progress', 'apply_complete']
