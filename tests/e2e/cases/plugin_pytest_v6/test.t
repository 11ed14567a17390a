The Python test plugin (tests/peers/pyprovider) over tfplugin6, for what
terraform-provider-null cannot show: computed attributes, an attribute
that forces replacement, nested blocks (list and set), nested attributes
(single and list, tfplugin6 only), a sensitive attribute, private data,
a data source, drift, import, a schema upgrade, destroy.  cairn talks to
it with AutoMTLS (the plugin logs "mtls" when it serves TLS).  The plugin
keeps its objects in objects/pytest-state.json; PYPROVIDER_CALL_LOG makes
it log the calls it gets.

  $ mkdir -p .config/cairn objects
  $ printf '[provider "cairn.test/test/pytest"]\nplugin = %s/terraform-provider-pytest-v6\n' "$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)" > .config/cairn/cairn.ini
  $ cairn init | grep -e Using -e successfully | sed 's|plugin /.*/|plugin PEERS/|'
  - Using cairn.test/test/pytest from plugin PEERS/terraform-provider-pytest-v6
  cairn has been successfully initialized!
  $ PYPROVIDER_CALL_LOG=$PWD/calls.log cairn apply -auto-approve
  data.pytest_echo.e: Reading...
  data\.pytest_echo\.e: Read complete after \d+s (re)
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # pytest_thing.a will be created
    + resource "pytest_thing" "a" {
        + disks    = [
            + {
                + kind = "ssd"
                + size = 10
              },
            + {
                + kind = "hdd"
                + size = 20
              },
          ]
        + endpoint = {
            + host = "db.example"
            + port = 443
          }
        + id       = (known after apply)
        + name     = "alpha"
        + password = (sensitive value)
        + serial   = (known after apply)
        + size     = 2
        + tags     = {
            + "env" = "test"
          }
  
        + label {
            + key   = "team"
            + value = "core"
          }
  
        + rule {
            + port  = 80
            + proto = "tcp"
          }
        + rule {
            + port  = 53
            + proto = "udp"
          }
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + upper = "ALPHA"
  pytest_thing.a: Creating...
  pytest_thing\.a: Creation complete after \d+s \[id=thing\-1\] (re)
  
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  upper = "ALPHA"
  $ grep -c mtls calls.log
  2
  $ grep -e Apply -e Plan calls.log
  PlanResourceChange pytest_thing create prior_private=
  PlanResourceChange pytest_thing create prior_private=
  ApplyResourceChange pytest_thing create planned_private={"planned":"create"}

The object as the plugin stored it: the computed values filled in, the
defaults of the optional computed attributes in nested blocks and nested
attributes.

  $ python3 -c 'import json; t = json.load(open("objects/pytest-state.json"))["things"]["thing-1"]; print(json.dumps(t["attrs"], sort_keys=True)); print(t["private"])'
  {"disks": [{"kind": "ssd", "size": 10}, {"kind": "hdd", "size": 20}], "endpoint": {"host": "db.example", "port": 443}, "id": "thing-1", "label": [{"key": "team", "value": "core"}], "name": "alpha", "password": "hunter2", "rule": [{"port": 80, "proto": "tcp"}, {"port": 53, "proto": "udp"}], "serial": 1, "size": 2, "tags": {"env": "test"}}
  {"id":"thing-1","serial":1}

Private data is in the state, and the sensitive password is not in the
output.

  $ grep -c '"private"' terraform.tfstate
  1
  $ cairn show | grep -c hunter2
  0
  [1]

Nothing changed: refresh and plan agree; the private data went back to
the plugin with the read and the plan (it checks them).  The data source
reads "alpha" during the plan: its configuration is known, and referring
to nothing managed, it waits for nothing.

  $ rm calls.log; PYPROVIDER_CALL_LOG=$PWD/calls.log cairn plan | grep -e 'No changes'
  No changes. Your infrastructure matches the configuration.
  $ grep -e Read -e Plan calls.log | sort
  PlanResourceChange pytest_thing update prior_private={"id":"thing-1","serial":1}
  ReadDataSource pytest_echo input='alpha'
  ReadResource pytest_thing private={"id":"thing-1","serial":1}

The plan in JSON: nested attributes and blocks, the sensitive value
masked, computed values unknown.

  $ sed -i 's/size     = 2/size     = 3/; s/size = 20, kind = "hdd"/size = 30, kind = "hdd"/' main.tf
  $ cairn plan -out=p.plan >/dev/null && cairn show -json p.plan | python3 -c 'import json, sys; p = json.load(sys.stdin); c = [r for r in p["resource_changes"] if r["type"] == "pytest_thing"][0]["change"]; print(c["actions"]); a = c["after"]; print(a["disks"], a["endpoint"], a["rule"], a["label"]); print(c["after_unknown"]); print(c["after_sensitive"]); print("password" in a)'
  ['update']
  [{'kind': 'ssd', 'size': 10}, {'kind': 'hdd', 'size': 30}] {'host': 'db.example', 'port': 443} [{'port': 80, 'proto': 'tcp'}, {'port': 53, 'proto': 'udp'}] [{'key': 'team', 'value': 'core'}]
  {'disks': [{}, {}], 'endpoint': {}, 'label': [{}], 'rule': [{}, {}], 'serial': True, 'tags': {}}
  {'disks': [{}, {}], 'endpoint': {}, 'label': [{}], 'password': True, 'rule': [{}, {}], 'tags': {}}
  True

An update in place: the serial is computed again.

  $ cairn apply -auto-approve p.plan | grep -v '^$'
  pytest_thing.a: Modifying... [id=thing-1]
  pytest_thing\.a: Modifications complete after \d+s \[id=thing\-1\] (re)
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed.
  Outputs:
  upper = "ALPHA"

A new name forces replacement.

  $ sed -i 's/"alpha"/"beta"/' main.tf
  $ cairn apply -auto-approve | grep -e 'must be replaced' -e 'forces replacement' -e 'id  *=' -e Plan: -e complete
  data\.pytest_echo\.e: Read complete after \d+s (re)
    # pytest_thing.a must be replaced
        ~ id       = "thing-1" -> (known after apply)
        ~ name     = "alpha" -> "beta" # forces replacement
  Plan: 1 to add, 0 to change, 1 to destroy.
  pytest_thing\.a: Destruction complete after \d+s (re)
  pytest_thing\.a: Creation complete after \d+s \[id=thing\-2\] (re)
  Apply complete! Resources: 1 added, 0 changed, 1 destroyed.

Drift: the object changes behind cairn's back.

  $ python3 -c 'import json; p = "objects/pytest-state.json"; d = json.load(open(p)); t = d["things"]["thing-2"]["attrs"]; t["size"] = 7; t["endpoint"]["port"] = 8443; json.dump(d, open(p, "w"))'
  $ cairn plan | grep -v '^$' | sed -n '/Objects have changed/,/Unless/p'
  Note: Objects have changed outside of cairn
  cairn detected the following changes made outside of cairn since the last
  "cairn apply" which may have affected this plan:
    # pytest_thing.a has changed
    ~ resource "pytest_thing" "a" {
        ~ endpoint = {
            ~ port = 443 -> 8443
              # (1 unchanged attribute hidden)
          }
          id       = "thing-2"
          name     = "beta"
        ~ size     = 3 -> 7
          tags     = {
              "env" = "test"
          }
          # (3 unchanged attributes hidden)
          # (3 unchanged blocks hidden)
      }
  Unless you have made equivalent changes to your configuration, or ignored the
  $ cairn apply -refresh-only -auto-approve | grep -e 'has changed' -e 'complete'
  data\.pytest_echo\.e: Read complete after \d+s (re)
    # pytest_thing.a has changed
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  $ cairn state show pytest_thing.a | grep -e size -e port -e '{'
  resource "pytest_thing" "a" {
          {
              size = 10
          {
              size = 30
      endpoint = {
          port = 8443
      size     = 7
      tags     = {
      label {
      rule {
          port  = 80
      rule {
          port  = 53

Import: the object is forgotten, then imported by its id; the plugin's
private data comes with it.  An id the plugin does not know is an error.

  $ cairn state rm pytest_thing.a
  Removed pytest_thing.a
  Successfully removed 1 resource instance(s).
  $ cairn import pytest_thing.a thing-404
  pytest_thing.a: Importing from ID "thing-404"...
  data.pytest_echo.e: Reading...
  data\.pytest_echo\.e: Read complete after \d+s (re)
  
  Error: Cannot import non-existent remote object
  
    with pytest_thing.a,
    on main.tf line 11, in resource "pytest_thing" "a":
    11: resource "pytest_thing" "a" {
  
  There is no pytest_thing with id 'thing-404'.
  [1]
  $ cairn import pytest_thing.a thing-2 | grep -e Import -e successful
  pytest_thing.a: Importing from ID "thing-2"...
  pytest_thing.a: Import prepared!
  Import successful!
  $ cairn state show pytest_thing.a | grep -e 'id  *=' -e 'name  *='
      id       = "thing-2"
      name     = "beta"
  $ grep -c '"private"' terraform.tfstate
  1

Schema upgrade: a state written at schema version 0 (which called `name`
`title` and stored size as a string) is upgraded by the plugin before it
is read.

  $ python3 -c 'import json; p = "terraform.tfstate"; d = json.load(open(p)); i = [r for r in d["resources"] if r["type"] == "pytest_thing"][0]["instances"][0]; i["schema_version"] = 0; a = i["attributes"]; a["title"] = a.pop("name"); a["size"] = str(a["size"]); json.dump(d, open(p, "w"))'
  $ rm calls.log; PYPROVIDER_CALL_LOG=$PWD/calls.log cairn plan -refresh=false | grep -e 'No changes' -e Plan: -e 'size  *='
        ~ size     = 7 -> 3
  Plan: 0 to add, 1 to change, 0 to destroy.
  $ grep Upgrade calls.log
  UpgradeResourceState pytest_thing version=0
  $ cairn apply -auto-approve | grep complete
  data\.pytest_echo\.e: Read complete after \d+s (re)
  pytest_thing\.a: Modifications complete after \d+s \[id=thing\-2\] (re)
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed.
  $ grep -A1 '"schema_version"' terraform.tfstate | grep -c '"schema_version": 1'
  1

Destroy: the plugin forgets the object; no plugin process is left.

  $ cairn destroy -auto-approve | tail -1
  Destroy complete! Resources: 1 destroyed.
  $ python3 -c 'import json; print(json.load(open("objects/pytest-state.json"))["things"])'
  {}
  $ for p in $(pgrep -f '^/usr/bin/python3 .*pyprovider'); do [ "$(readlink /proc/$p/cwd)" = "$PWD" ] && echo "left running: $p"; done; echo checked
  checked
