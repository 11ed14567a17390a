The Python test plugin (tests/peers/pyprovider) over tfplugin5: computed
attributes, an attribute that forces replacement, nested blocks, a
sensitive attribute, private data, drift, import, a schema upgrade,
destroy; a diagnostic with an attribute path; AutoMTLS and its one
fallback.  plugin_pytest_v6 has the tfplugin6 story with nested
attributes and a data source.

  $ mkdir -p .config/cairn objects
  $ printf '[provider "cairn.test/test/pytest"]\nplugin = %s/terraform-provider-pytest\n' "$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)" > .config/cairn/cairn.ini
  $ cairn init | grep -e Using -e successfully | sed 's|plugin /.*/|plugin PEERS/|'
  - Using cairn.test/test/pytest from plugin PEERS/terraform-provider-pytest
  cairn has been successfully initialized!
  $ PYPROVIDER_CALL_LOG=$PWD/calls.log cairn apply -auto-approve
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # pytest_thing.a will be created
    + resource "pytest_thing" "a" {
        + id       = (known after apply)
        + name     = "alpha"
        + password = (sensitive value)
        + serial   = (known after apply)
        + size     = 2
  
        + label {
            + key   = "team"
            + value = "core"
          }
  
        + rule {
            + port  = 80
            + proto = "tcp"
          }
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + id = (known after apply)
  pytest_thing.a: Creating...
  pytest_thing\.a: Creation complete after \d+s \[id=thing\-1\] (re)
  
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  id = "thing-1"
  $ grep -e serving -e Apply calls.log
  serving tfplugin5 mtls
  serving tfplugin5 mtls
  ApplyResourceChange pytest_thing create planned_private={"planned":"create"}

The plugin checks every attribute path it is given: a negative size is
its error, pointed at the attribute, and so is a port in the second of
two nested blocks.  These are ValidateResourceConfig answers, which the
validate walk before the plan gets: they show alone, with no refresh and
no partial plan, as in Terraform.

  $ sed -i 's/size     = 2/size     = -1/; s/^  rule {/  rule {\n    port = 81\n  }\n  rule {/; s/port = 80/port = 0/' main.tf
  $ cairn plan
  
  Error: Invalid size
  
    with pytest_thing.a,
    on main.tf line 13, in resource "pytest_thing" "a":
    13:   size     = -1
  
  size must not be negative, got -1.
  
  Error: Invalid port
  
    with pytest_thing.a,
    on main.tf line 20, in resource "pytest_thing" "a":
    20:     port = 0
  
  port must be 1 to 65535.
  [1]
  $ sed -i 's/size     = -1/size     = 2/; /port = 81/,+2d; s/port = 0/port = 80/' main.tf
  $ grep -c port main.tf
  1

Nothing changed; then an update in place, then a replacement.

  $ rm calls.log; PYPROVIDER_CALL_LOG=$PWD/calls.log cairn plan | grep 'No changes'
  No changes. Your infrastructure matches the configuration.
  $ grep -e Read -e Plan calls.log
  ReadResource pytest_thing private={"id":"thing-1","serial":1}
  PlanResourceChange pytest_thing update prior_private={"id":"thing-1","serial":1}
  $ sed -i 's/port = 80/port = 8080/; s/hunter2/hunter3/' main.tf
  $ cairn apply -auto-approve | grep -v '^$' | sed -n '/will be updated/,/^    }/p'
    # pytest_thing.a will be updated in-place
    ~ resource "pytest_thing" "a" {
          id       = "thing-1"
          name     = "alpha"
        ~ password = (sensitive value)
        ~ serial   = 1 -> (known after apply)
          # (1 unchanged attribute hidden)
        ~ rule {
            ~ port  = 80 -> 8080
              # (1 unchanged attribute hidden)
          }
          # (1 unchanged block hidden)
      }
  $ sed -i 's/"alpha"/"beta"/' main.tf
  $ cairn apply -auto-approve | grep -e 'must be replaced' -e 'forces replacement' -e Plan: -e complete
    # pytest_thing.a must be replaced
        ~ name     = "alpha" -> "beta" # forces replacement
  Plan: 1 to add, 0 to change, 1 to destroy.
  pytest_thing\.a: Destruction complete after \d+s (re)
  pytest_thing\.a: Creation complete after \d+s \[id=thing\-2\] (re)
  Apply complete! Resources: 1 added, 0 changed, 1 destroyed.

Drift, import and a schema upgrade.

  $ python3 -c 'import json; p = "objects/pytest-state.json"; d = json.load(open(p)); d["things"]["thing-2"]["attrs"]["label"].append({"key": "extra", "value": None}); json.dump(d, open(p, "w"))'
  $ cairn plan | grep -v '^$' | sed -n '/has changed/,/^    }/p'
    # pytest_thing.a has changed
    ~ resource "pytest_thing" "a" {
          id       = "thing-2"
          name     = "beta"
          # (3 unchanged attributes hidden)
        + label {
            + key = "extra"
          }
          # (2 unchanged blocks hidden)
      }
  $ cairn state rm pytest_thing.a >/dev/null
  $ cairn import pytest_thing.a thing-2 | grep successful
  Import successful!
  $ python3 -c 'import json; p = "terraform.tfstate"; d = json.load(open(p)); i = d["resources"][0]["instances"][0]; i["schema_version"] = 0; a = i["attributes"]; a["title"] = a.pop("name"); json.dump(d, open(p, "w"))'
  $ rm calls.log; PYPROVIDER_CALL_LOG=$PWD/calls.log cairn apply -auto-approve | grep -e Plan: -e complete
  Plan: 0 to add, 1 to change, 0 to destroy.
  pytest_thing\.a: Modifications complete after \d+s \[id=thing\-2\] (re)
  Apply complete! Resources: 0 added, 1 changed, 0 destroyed.
  $ grep -e Upgrade calls.log
  UpgradeResourceState pytest_thing version=0

A plugin that ignores AutoMTLS (it answers no certificate) is refused;
TF_DISABLE_PLUGIN_TLS=1, Terraform's switch, talks to it in plain HTTP/2.
The message names the plugin's absolute path, whose length depends on where
the tree is checked out, so its paragraphs are compared as joined lines.

  $ PYPROVIDER_NO_TLS=1 cairn plan >out 2>&1; echo "exit $?"; sed 's|(/[^)]*/terraform-provider-pytest)|(PEERS/terraform-provider-pytest)|' out | awk 'BEGIN { RS = "" } { gsub(/\n/, " "); print }'
  exit 1
  Error: Failed to start provider plugin
  The plugin cairn.test/test/pytest (PEERS/terraform-provider-pytest) answered its handshake without a server certificate, although cairn passed it a client certificate for mutual TLS (AutoMTLS): it does not speak AutoMTLS. Set TF_DISABLE_PLUGIN_TLS=1 to talk to it over plain HTTP/2, as Terraform allows.
  $ rm calls.log; PYPROVIDER_NO_TLS=1 TF_DISABLE_PLUGIN_TLS=1 PYPROVIDER_CALL_LOG=$PWD/calls.log cairn plan | grep 'No changes'
  No changes. Your infrastructure matches the configuration.
  $ grep serving calls.log
  serving tfplugin5
  serving tfplugin5

Destroy; no plugin process is left.

  $ cairn destroy -auto-approve | tail -1
  Destroy complete! Resources: 1 destroyed.
  $ python3 -c 'import json; print(json.load(open("objects/pytest-state.json"))["things"])'
  {}
  $ for p in $(pgrep -f '^/usr/bin/python3 .*pyprovider'); do [ "$(readlink /proc/$p/cwd)" = "$PWD" ] && echo "left running: $p"; done; echo checked
  checked
