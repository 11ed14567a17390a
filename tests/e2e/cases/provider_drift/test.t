Drift: the server's data file is changed between runs (the server stopped,
the file edited, the server started again); plan reports the change made
outside cairn and plans to undo it.

  $ $TESTDIR/../../../provider/mkcerts.sh certs
  $ sh $TESTDIR/start.sh server
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve | tail -1
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ kill $(cat pid)
  $ python3 -c 'import json; d=json.load(open("data.json")); d["devices"]["dev-1"]["name"]="renamed"; json.dump(d, open("data.json","w"))'
  $ sh $TESTDIR/start.sh server
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode
  ref_device.gw: Refreshing state... [id=dev-1]
  
  Note: Objects have changed outside of cairn
  
  cairn detected the following changes made outside of cairn since the last
  "cairn apply" which may have affected this plan:
  
    # ref_device.gw has changed
    ~ resource "ref_device" "gw" {
          id     = "dev-1"
        ~ name   = "gw" -> "renamed"
          # (2 unchanged attributes hidden)
      }
  
  
  Unless you have made equivalent changes to your configuration, or ignored the
  relevant attributes using ignore_changes, the following plan may include
  actions to undo or respond to these changes.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    ~ update in-place
  
  cairn will perform the following actions:
  
    # ref_device.gw will be updated in-place
    ~ resource "ref_device" "gw" {
          id     = "dev-1"
        ~ name   = "renamed" -> "gw"
          # (2 unchanged attributes hidden)
      }
  
  Plan: 0 to add, 1 to change, 0 to destroy.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  [2]
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve | tail -1
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed.
  $ python3 -c 'import json; print(json.load(open("data.json"))["devices"]["dev-1"]["name"])'
  gw

Deleted behind cairn's back: the plan creates it again.

  $ kill $(cat pid)
  $ python3 -c 'import json; d=json.load(open("data.json")); del d["devices"]["dev-1"]; json.dump(d, open("data.json","w"))'
  $ sh $TESTDIR/start.sh server
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode
  ref_device.gw: Refreshing state... [id=dev-1]
  
  Note: Objects have changed outside of cairn
  
  cairn detected the following changes made outside of cairn since the last
  "cairn apply" which may have affected this plan:
  
    # ref_device.gw has been deleted
    - resource "ref_device" "gw" {
        - id     = "dev-1" -> null
        - model  = "x1" -> null
        - name   = "gw" -> null
        - serial = "SN00001" -> null
      }
  
  
  Unless you have made equivalent changes to your configuration, or ignored the
  relevant attributes using ignore_changes, the following plan may include
  actions to undo or respond to these changes.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # ref_device.gw will be created
    + resource "ref_device" "gw" {
        + id     = (known after apply)
        + model  = "x1"
        + name   = "gw"
        + serial = (known after apply)
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  [2]
  $ kill $(cat pid)
