Import and drift through `cairn gateway`: HashiCorp's real
terraform-provider-null and the Python test plugin served by the gateway
on 127.0.0.1 (helpers: ../gateway_null/start.sh and stop.sh, PYTEST=1),
used by another cairn process.

  $ GW_EXTRA='idle_timeout = 10m' PYTEST=1 sh $TESTDIR/../gateway_null/start.sh
  $ sed -i "s|OBJDIR|$(cat objdir)|" main.tf
  $ CAIRN_CONFIG=cairn.ini cairn init > /dev/null 2>&1; echo "exit $?"
  exit 0
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -compact-warnings 2>&1 | tail -1
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.

Import through the gateway.  null_resource (terraform-provider-null
v3.2.0) does not support import: the plugin's own diagnostic reaches the
client, for `cairn import` and for an import block, as Terraform shows
it with a local plugin.

  $ printf 'resource "null_resource" "x" {}\n' > x.tf
  $ CAIRN_CONFIG=cairn.ini cairn import null_resource.x some-id
  null_resource.x: Importing from ID "some-id"...
  null_resource\.t: Refreshing state\.\.\. \[id=\d+\] (re)
  pytest_thing.a: Refreshing state... [id=thing-1]
  
  Error: Resource Import Not Implemented
  
    with null_resource.x,
    on x.tf line 1, in resource "null_resource" "x":
     1: resource "null_resource" "x" {}
  
  This resource does not support import. Please contact the provider developer
  for additional information.
  [1]
  $ printf 'import {\n  to = null_resource.x\n  id = "some-id"\n}\n' > import.tf
  $ CAIRN_CONFIG=cairn.ini cairn plan 2>&1 | grep -e Error -e 'does not support'
  Error: Resource Import Not Implemented
  This resource does not support import. Please contact the provider developer
  $ rm x.tf import.tf

pytest_thing supports it: `cairn import` (ImportResourceState, then
ReadResource through the gateway), then an import block.

  $ cairn state rm pytest_thing.a
  Removed pytest_thing.a
  Successfully removed 1 resource instance(s).
  $ CAIRN_CONFIG=cairn.ini cairn import pytest_thing.a thing-1
  pytest_thing.a: Importing from ID "thing-1"...
  null_resource\.t: Refreshing state\.\.\. \[id=\d+\] (re)
  pytest_thing.a: Refreshing state... [id=thing-1]
  pytest_thing.a: Import prepared!
    Prepared pytest_thing for import
  
  Import successful!
  
  The resources that were imported are shown above. These resources are now in
  your cairn state and will henceforth be managed by cairn.
  
  $ cairn state show pytest_thing.a
  # pytest_thing.a:
  resource "pytest_thing" "a" {
      id     = "thing-1"
      label  = []
      name   = "alpha"
      rule   = []
      serial = 1
      size   = 2
  }
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode -compact-warnings 2>&1 | grep 'No changes'
  No changes. Your infrastructure matches the configuration.
  $ cairn state rm pytest_thing.a
  Removed pytest_thing.a
  Successfully removed 1 resource instance(s).
  $ printf 'import {\n  to = pytest_thing.a\n  id = "thing-1"\n}\n' > import.tf
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode
  null_resource\.t: Refreshing state\.\.\. \[id=\d+\] (re)
  pytest_thing.a: Refreshing state... [id=thing-1]
  
  cairn will perform the following actions:
  
    # pytest_thing.a will be imported
      resource "pytest_thing" "a" {
          id     = "thing-1"
          name   = "alpha"
          serial = 1
          size   = 2
      }
  
  Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  [2]
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve
  null_resource\.t: Refreshing state\.\.\. \[id=\d+\] (re)
  pytest_thing.a: Refreshing state... [id=thing-1]
  
  cairn will perform the following actions:
  
    # pytest_thing.a will be imported
      resource "pytest_thing" "a" {
          id     = "thing-1"
          name   = "alpha"
          serial = 1
          size   = 2
      }
  
  Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.
  pytest_thing.a: Importing... [id=thing-1]
  pytest_thing.a: Import complete [id=thing-1]
  
  Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.
  $ rm import.tf
  $ grep -c 'call=ImportResourceState status=200' gw.log
  5

Drift on the provider side: the object changed on the gateway host; the
plan shows the change made outside cairn and undoes it.

  $ python3 -c 'import json, sys; p = sys.argv[1] + "/pytest-state.json"; d = json.load(open(p)); d["things"]["thing-1"]["attrs"]["size"] = 5; json.dump(d, open(p, "w"))' "$(cat objdir)"
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode
  null_resource\.t: Refreshing state\.\.\. \[id=\d+\] (re)
  pytest_thing.a: Refreshing state... [id=thing-1]
  
  Note: Objects have changed outside of cairn
  
  cairn detected the following changes made outside of cairn since the last
  "cairn apply" which may have affected this plan:
  
    # pytest_thing.a has changed
    ~ resource "pytest_thing" "a" {
          id     = "thing-1"
          name   = "alpha"
        ~ size   = 2 -> 5
          # (1 unchanged attribute hidden)
      }
  
  
  Unless you have made equivalent changes to your configuration, or ignored the
  relevant attributes using ignore_changes, the following plan may include
  actions to undo or respond to these changes.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    ~ update in-place
  
  cairn will perform the following actions:
  
    # pytest_thing.a will be updated in-place
    ~ resource "pytest_thing" "a" {
          id     = "thing-1"
          name   = "alpha"
        ~ serial = 1 -> (known after apply)
        ~ size   = 5 -> 2
      }
  
  Plan: 0 to add, 1 to change, 0 to destroy.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  [2]
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -compact-warnings 2>&1 | tail -1
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed.

The object deleted on the gateway host: the plan shows it deleted and
creates it again.

  $ python3 -c 'import json, sys; p = sys.argv[1] + "/pytest-state.json"; d = json.load(open(p)); d["things"].clear(); json.dump(d, open(p, "w"))' "$(cat objdir)"
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode
  null_resource\.t: Refreshing state\.\.\. \[id=\d+\] (re)
  pytest_thing.a: Refreshing state... [id=thing-1]
  
  Note: Objects have changed outside of cairn
  
  cairn detected the following changes made outside of cairn since the last
  "cairn apply" which may have affected this plan:
  
    # pytest_thing.a has been deleted
    - resource "pytest_thing" "a" {
        - id     = "thing-1" -> null
        - name   = "alpha" -> null
        - serial = 2 -> null
        - size   = 2 -> null
      }
  
  
  Unless you have made equivalent changes to your configuration, or ignored the
  relevant attributes using ignore_changes, the following plan may include
  actions to undo or respond to these changes.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # pytest_thing.a will be created
    + resource "pytest_thing" "a" {
        + id     = (known after apply)
        + name   = "alpha"
        + serial = (known after apply)
        + size   = 2
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  [2]

null reads back what it is given, so an edited state is all it can show:
the triggers recorded differ from the configuration's, and the resource
must be replaced, as Terraform plans it.

  $ python3 -c 'import json; p = "terraform.tfstate"; d = json.load(open(p)); [i["attributes"]["triggers"].update(v="0") for r in d["resources"] if r["name"] == "t" for i in r["instances"]]; json.dump(d, open(p, "w"))'
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode -target=null_resource.t
  null_resource\.t: Refreshing state\.\.\. \[id=\d+\] (re)
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
  -/+ destroy and then create replacement
  
  cairn will perform the following actions:
  
    # null_resource.t must be replaced
  -/+ resource "null_resource" "t" {
        ~ id       = "\d+" -> \(known after apply\) (re)
        ~ triggers = { # forces replacement
            ~ "v" = "0" -> "1"
          }
      }
  
  Plan: 1 to add, 0 to change, 1 to destroy.
  
  Warning: Resource targeting is in effect
  
  You are creating a plan with the -target option, which means that the result
  of this plan may not represent all of the changes requested by the current
  configuration.
  
  The -target option is not for routine use, and is provided only for
  exceptional situations such as recovering from errors or mistakes, or when
  cairn specifically suggests to use it as part of an error message.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.
  [2]
  $ sh $TESTDIR/../gateway_null/stop.sh
