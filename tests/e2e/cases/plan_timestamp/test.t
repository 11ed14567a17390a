plantimestamp() is the plan's timestamp in every scope of the plan (each
instance's and the outputs'), RFC 3339 in UTC, and applying a saved plan
gives the same value as the plan recorded (the engine parses the plan's
timestamp once when it gets the plan, docs/performance.md change 40).

  $ cairn plan -out=p.plan | grep -e 'input *=' -e '+ t *=' -e '+ year *='
        \+ input  = "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" (re)
        \+ input  = "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" (re)
        \+ input  = "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" (re)
    \+ t    = "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" (re)
    \+ year = "\d{4}" (re)
  $ cairn show -json p.plan > plan.json
  $ cairn apply p.plan > /dev/null
  $ python3 - <<'PY'
  > import json, subprocess
  > p = json.load(open("plan.json"))
  > ts = p["timestamp"]
  > outs = json.loads(subprocess.run(["cairn", "output", "-json"],
  >                   capture_output=True, text=True).stdout)
  > st = json.load(open("terraform.tfstate"))
  > inputs = [i["attributes"]["input"]["value"]
  >           for r in st["resources"] for i in r["instances"]]
  > print(outs["t"]["value"] == ts, outs["year"]["value"] == ts[:4],
  >       inputs == [ts] * 3)
  > PY
  True True True
