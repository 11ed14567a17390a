Apply of replaces (both orders) and deletes runs each instance in a scratch
scope of its worker's arena, given back once the instance's value, events
and deposed key are copied out (engine_scratch.c).  Dependents, outputs, the
deposed node and the state then read only the copies: under the san build a
value still pointing into a rewound scope is a use-after-poison.  The
outputs, the state and a second plan show every value intact.

  $ cairn apply -auto-approve > /dev/null; echo $?
  0
  $ cp v2/main.tf main.tf
  $ cairn apply -auto-approve -parallelism=3 -no-color | grep -E '^(Plan|Apply|labels|ids_differ|  "|\])'
  Plan: 8 to add, 4 to change, 10 to destroy.
  Apply complete! Resources: 8 added, 4 changed, 10 destroyed.
  ids_differ = true
  labels = [
    "dtc-0-2/cbd-0-2",
    "dtc-1-2/cbd-1-2",
    "dtc-2-2/cbd-2-2",
    "dtc-3-2/cbd-3-2",
  ]
  $ cairn state list | sort
  terraform_data.cbd[0]
  terraform_data.cbd[1]
  terraform_data.cbd[2]
  terraform_data.cbd[3]
  terraform_data.dep[0]
  terraform_data.dep[1]
  terraform_data.dep[2]
  terraform_data.dep[3]
  terraform_data.dtc[0]
  terraform_data.dtc[1]
  terraform_data.dtc[2]
  terraform_data.dtc[3]
  terraform_data.gone[0]
  $ python3 -c '
  > import json
  > s = json.load(open("terraform.tfstate"))
  > for r in s["resources"]:
  >     for i in r["instances"]:
  >         a = i["attributes"]
  >         assert "deposed" not in i, i
  >         print(r["name"], i["index_key"], json.dumps(a["output"]["value"], sort_keys=True))'
  cbd 0 "cbd-0-2"
  cbd 1 "cbd-1-2"
  cbd 2 "cbd-2-2"
  cbd 3 "cbd-3-2"
  dep 0 "dtc-0-2/cbd-0-2"
  dep 1 "dtc-1-2/cbd-1-2"
  dep 2 "dtc-2-2/cbd-2-2"
  dep 3 "dtc-3-2/cbd-3-2"
  dtc 0 {"label": "dtc-0-2", "n": 0}
  dtc 1 {"label": "dtc-1-2", "n": 1}
  dtc 2 {"label": "dtc-2-2", "n": 2}
  dtc 3 {"label": "dtc-3-2", "n": 3}
  gone 0 "gone-0"
  $ cairn plan -detailed-exitcode > /dev/null; echo $?
  0
