The full lifecycle against the reference provider over TLS on 127.0.0.1
(certificates made now): create, update in place, replace, destroy.  The
host configuration named by CAIRN_CONFIG maps example.test/ref/fleet to it.

  $ $TESTDIR/../../../provider/mkcerts.sh certs
  $ sh $TESTDIR/start.sh server
  $ CAIRN_CONFIG=cairn.ini cairn init > /dev/null

  $ CAIRN_CONFIG=cairn.ini cairn plan
  
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
        + tags   = {
            + "site" = "lab"
          }
      }
  
    # ref_entry.motd will be created
    + resource "ref_entry" "motd" {
        + id      = (known after apply)
        + key     = "motd"
        + value   = (known after apply)
        + version = (known after apply)
      }
  
  Plan: 2 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + serial = (known after apply)
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve
  
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
        + tags   = {
            + "site" = "lab"
          }
      }
  
    # ref_entry.motd will be created
    + resource "ref_entry" "motd" {
        + id      = (known after apply)
        + key     = "motd"
        + value   = (known after apply)
        + version = (known after apply)
      }
  
  Plan: 2 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + serial = (known after apply)
  ref_device.gw: Creating...
  ref_device\.gw: Creation complete after \d+s \[id=dev\-1\] (re)
  ref_entry.motd: Creating...
  ref_entry\.motd: Creation complete after \d+s \[id=motd\] (re)
  
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  serial = "SN00001"
  $ cairn state list
  ref_device.gw
  ref_entry.motd

Nothing to do on a second run.

  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode
  ref_device.gw: Refreshing state... [id=dev-1]
  ref_entry.motd: Refreshing state... [id=motd]
  
  No changes. Your infrastructure matches the configuration.
  
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.

Update in place (name):

  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -var name=gw2
  ref_device.gw: Refreshing state... [id=dev-1]
  ref_entry.motd: Refreshing state... [id=motd]
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    ~ update in-place
  
  cairn will perform the following actions:
  
    # ref_device.gw will be updated in-place
    ~ resource "ref_device" "gw" {
          id     = "dev-1"
        ~ name   = "gw" -> "gw2"
          tags   = {
              "site" = "lab"
          }
          # (2 unchanged attributes hidden)
      }
  
  Plan: 0 to add, 1 to change, 0 to destroy.
  ref_device.gw: Modifying... [id=dev-1]
  ref_device\.gw: Modifications complete after \d+s \[id=dev\-1\] (re)
  
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed.
  
  Outputs:
  
  serial = "SN00001"

Replace (model forces replacement); the entry that uses its id follows:

  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -var name=gw2 -var model=x2
  ref_device.gw: Refreshing state... [id=dev-1]
  ref_entry.motd: Refreshing state... [id=motd]
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    ~ update in-place
  -/+ destroy and then create replacement
  
  cairn will perform the following actions:
  
    # ref_device.gw must be replaced
  -/+ resource "ref_device" "gw" {
        ~ id     = "dev-1" -> (known after apply)
        ~ model  = "x1" -> "x2" # forces replacement
          name   = "gw2"
        ~ serial = "SN00001" -> (known after apply)
          tags   = {
              "site" = "lab"
          }
      }
  
    # ref_entry.motd will be updated in-place
    ~ resource "ref_entry" "motd" {
          id      = "motd"
        ~ value   = "hello from dev-1" -> (known after apply)
        ~ version = 1 -> (known after apply)
          # (1 unchanged attribute hidden)
      }
  
  Plan: 1 to add, 1 to change, 1 to destroy.
  
  Changes to Outputs:
    ~ serial = "SN00001" -> (known after apply)
  ref_device.gw: Destroying... [id=dev-1]
  ref_device\.gw: Destruction complete after \d+s (re)
  ref_device.gw: Creating...
  ref_device\.gw: Creation complete after \d+s \[id=dev\-2\] (re)
  ref_entry.motd: Modifying... [id=motd]
  ref_entry\.motd: Modifications complete after \d+s \[id=motd\] (re)
  
  Apply complete! Resources: 1 added, 1 changed, 1 destroyed.
  
  Outputs:
  
  serial = "SN00002"
  $ cairn output serial
  "SN00002"

The server made exactly the objects asked for (creates, duplicates,
devices, entries):

  $ sh $TESTDIR/admin.sh stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["creates"], s["duplicates"], s["devices"], s["entries"])'
  3 0 1 1

Destroy:

  $ CAIRN_CONFIG=cairn.ini cairn destroy -auto-approve -var name=gw2 -var model=x2
  ref_entry.motd: Refreshing state... [id=motd]
  ref_device.gw: Refreshing state... [id=dev-2]
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    - destroy
  
  cairn will perform the following actions:
  
    # ref_device.gw will be destroyed
    - resource "ref_device" "gw" {
        - id     = "dev-2" -> null
        - model  = "x2" -> null
        - name   = "gw2" -> null
        - serial = "SN00002" -> null
        - tags   = {
            - "site" = "lab"
          } -> null
      }
  
    # ref_entry.motd will be destroyed
    - resource "ref_entry" "motd" {
        - id      = "motd" -> null
        - key     = "motd" -> null
        - value   = "hello from dev-2" -> null
        - version = 2 -> null
      }
  
  Plan: 0 to add, 0 to change, 2 to destroy.
  
  Changes to Outputs:
    - serial = "SN00002" -> null
  ref_entry.motd: Destroying... [id=motd]
  ref_entry\.motd: Destruction complete after \d+s (re)
  ref_device.gw: Destroying... [id=dev-2]
  ref_device\.gw: Destruction complete after \d+s (re)
  
  Destroy complete! Resources: 2 destroyed.
  $ cairn state list
  $ sh $TESTDIR/admin.sh stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["creates"], s["duplicates"], s["devices"], s["entries"])'
  3 0 0 0
  $ kill $(cat pid)
