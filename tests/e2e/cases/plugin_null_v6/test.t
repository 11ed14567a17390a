HashiCorp's real terraform-provider-null built for tfplugin6 (the same
provider, the other protocol version; plugin_null is the tfplugin5 build), started by cairn as
Terraform starts it, because the host configuration names the binary with
`plugin =`.  The host's choice wins over cairn's built-in null provider.
run-tests passes the test peers' directory in CAIRN_TESTPEER_NULL.

  $ mkdir -p .config/cairn
  $ printf '[provider "hashicorp/null"]\nplugin = %s/terraform-provider-null-v6\n' "$CAIRN_TESTPEER_NULL" > .config/cairn/cairn.ini
  $ cairn init | sed "s|$CAIRN_TESTPEER_NULL|PEERS|" | grep -e Using -e successfully
  - Using registry.terraform.io/hashicorp/null from plugin PEERS/terraform-provider-null-v6
  cairn has been successfully initialized!
  $ grep endpoint .terraform.lock.hcl | sed "s|$CAIRN_TESTPEER_NULL|PEERS|"
    endpoint = "plugin:PEERS/terraform-provider-null-v6"

Plan and apply: the data source is read, the resource created.

  $ cairn apply -auto-approve 2>&1 | grep -v '^$'
  data.null_data_source.d: Reading...
  data\.null_data_source\.d: Read complete after \d+s \[id=static\] (re)
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  cairn will perform the following actions:
    # null_resource.a will be created
    + resource "null_resource" "a" {
        + id       = (known after apply)
        + triggers = {
            + "x" = "1"
          }
      }
  Plan: 1 to add, 0 to change, 0 to destroy.
  Changes to Outputs:
    + d = {
        + a = "b"
      }
  Warning: Deprecated
  The null_data_source was historically used to construct intermediate values
  to re-use elsewhere in configuration, the same can now be achieved using
  locals
  null_resource.a: Creating...
  null_resource.a: Creation complete after \d+s \[id=\d+\] (re)
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  Outputs:
  d = tomap({
    "a" = "b"
  })
  $ cairn state list
  data.null_data_source.d
  null_resource.a

Nothing changed: the plugin's refresh and plan agree with the state.

  $ cairn plan -compact-warnings 2>&1 | grep -e 'No changes' -e Plan:
  No changes. Your infrastructure matches the configuration.

A changed trigger replaces the resource (the plugin says requires_replace).

  $ sed -i 's/x = "1"/x = "2"/' main.tf
  $ cairn apply -auto-approve -compact-warnings 2>&1 | grep -e 'must be replaced' -e 'forces replacement' -e Plan: -e complete
  data\.null_data_source\.d: Read complete after \d+s \[id=static\] (re)
    # null_resource.a must be replaced
        ~ triggers = { # forces replacement
  Plan: 1 to add, 0 to change, 1 to destroy.
  null_resource\.a: Destruction complete after \d+s (re)
  null_resource.a: Creation complete after \d+s \[id=\d+\] (re)
  Apply complete! Resources: 1 added, 0 changed, 1 destroyed.

Import: null_resource does not support it, and the plugin says so.

  $ printf 'resource "null_resource" "b" {}\n' >> main.tf
  $ cairn import null_resource.b some-id 2>&1 | grep -e Error -e 'does not support import'
  Error: Resource Import Not Implemented
  This resource does not support import. Please contact the provider developer
  $ sed -i '/null_resource" "b"/d' main.tf

Destroy, and no plugin process is left behind (GRPCController/Shutdown,
then wait, then kill).

  $ cairn destroy -auto-approve -compact-warnings 2>&1 | tail -1
  Destroy complete! Resources: 1 destroyed.
  $ cairn state list
  $ for p in $(pgrep '^terraform-prov'); do [ "$(readlink /proc/$p/cwd)" = "$PWD" ] && echo "left running: $p"; done; echo checked
  checked
