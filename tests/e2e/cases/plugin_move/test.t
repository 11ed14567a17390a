`moved` across resource types through a plugin (Terraform 1.8+): the
target type's provider, here the Python test plugin, gets
MoveResourceState with the source provider's address, the source type,
its schema version, its state as JSON and its private data, and answers
the object of the target type and its private data.  pytest_thing takes
over a null_resource (the built-in null provider's) and adopts its id:
the plan shows only the move, the state then holds the pytest_thing with
the private data the move answered (the plugin checks it on every read),
and the next plan is empty.

  $ mkdir -p .config/cairn objects
  $ printf '[provider "cairn.test/test/pytest"]\nplugin = %s/terraform-provider-pytest\n' "$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)" > .config/cairn/cairn.ini
  $ cp v1.tf.txt main.tf && cairn init > /dev/null && cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ python3 -c 'import json; print(json.load(open("terraform.tfstate"))["resources"][0]["instances"][0]["attributes"]["id"])' > id
  $ cp v2.tf.txt main.tf
  $ PYPROVIDER_CALL_LOG=$PWD/calls.log cairn plan -out=p -no-color | sed "s/$(cat id)/ID/g"
  pytest_thing.a: Refreshing state... [id=ID]
  
  cairn will perform the following actions:
  
    # null_resource.a has moved to pytest_thing.a
      resource "pytest_thing" "a" {
          id     = "ID"
          name   = "alpha"
          # (1 unchanged attribute hidden)
      }
  
  Plan: 0 to add, 0 to change, 0 to destroy.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p"
  $ grep Move calls.log | sed "s/$(cat id)/ID/g"
  MoveResourceState registry.terraform.io/hashicorp/null null_resource v0 -> pytest_thing state={"id":"ID","triggers":{"name":"alpha"}} private=
  $ cairn show -json p | python3 -c '
  > import json,sys
  > for r in json.load(sys.stdin)["resource_changes"]: print(r["address"], r.get("previous_address"), r["change"]["actions"])'
  pytest_thing.a null_resource.a ['no-op']
  $ cairn apply -no-color p | tail -1; echo "exit $?"
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  exit 0
  $ python3 -c '
  > import json
  > r = json.load(open("terraform.tfstate"))["resources"][0]
  > i = r["instances"][0]
  > print(r["type"], r["provider"], i["schema_version"], i["attributes"]["name"], i["attributes"]["id"] == open("id").read().strip())'
  pytest_thing provider["cairn.test/test/pytest"] 1 alpha True
  $ PYPROVIDER_CALL_LOG=$PWD/calls2.log cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0
  $ grep -e Move -e ReadResource calls2.log | sed "s/$(cat id)/ID/g"
  ReadResource pytest_thing private={"id":"ID","moved_from":"null_resource"}

A source the provider does not take over: its own diagnostic, at the
resource.

  $ cp v4.tf.txt main.tf && cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ cp v3.tf.txt main.tf && cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Unable to Move Resource State
  
    with pytest_thing.r,
    on main.tf line 20, in resource "pytest_thing" "r":
    20: resource "pytest_thing" "r" {
  
  pytest_thing can take over only a hashicorp/null null_resource of schema
  version 0, not registry.terraform.io/hashicorp/random's random_id version 0.

A plugin from before protocol 5.5 / 6.5 answers gRPC's Unimplemented:
Terraform's "Unsupported plugin method".

  $ PYPROVIDER_NO_MOVE=1 cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Unsupported plugin method
  
    with pytest_thing.r,
    on main.tf line 20, in resource "pytest_thing" "r":
    20: resource "pytest_thing" "r" {
  
  The plugin.(*GRPCProvider).MoveResourceState method is not supported by this
  plugin.

The same move over tfplugin6.

  $ cp v4.tf.txt main.tf && cairn destroy -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ printf '[provider "cairn.test/test/pytest"]\nplugin = %s/terraform-provider-pytest-v6\n' "$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)" > .config/cairn/cairn.ini
  $ cp v1.tf.txt main.tf && cairn init > /dev/null && cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ cp v2.tf.txt main.tf
  $ PYPROVIDER_CALL_LOG=$PWD/calls6.log cairn apply -auto-approve -no-color | grep -e moved -e Apply
    # null_resource.a has moved to pytest_thing.a
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  $ grep -e serving -e Move calls6.log | sed 's/ state=.*//' | sort -u
  MoveResourceState registry.terraform.io/hashicorp/null null_resource v0 -> pytest_thing
  serving tfplugin6 mtls
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0
