`moved` across resource types through `cairn gateway` (Terraform 1.8+):
the client sends MoveResourceState over the HTTPS protocol with the
source object as it is in its state, and the gateway hands it to the
plugin of the target type.  The source is a null_resource of HashiCorp's
real terraform-provider-null, itself served by the gateway; the target
is the Python test plugin's pytest_thing, which adopts the id (helpers:
../gateway_null/start.sh and stop.sh, PYTEST=1).

  $ PYTEST=1 sh $TESTDIR/../gateway_null/start.sh
  $ sed "s|OBJDIR|$(cat objdir)|" $TESTDIR/v1.tf.txt > main.tf
  $ CAIRN_CONFIG=cairn.ini cairn init > /dev/null 2>&1; echo "exit $?"
  exit 0
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -compact-warnings 2>&1 | tail -1
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  $ python3 -c 'import json; print([r for r in json.load(open("terraform.tfstate"))["resources"] if r["type"] == "null_resource"][0]["instances"][0]["attributes"]["id"])' > id
  $ sed "s|OBJDIR|$(cat objdir)|" $TESTDIR/v2.tf.txt > main.tf
  $ CAIRN_CONFIG=cairn.ini cairn plan -out=p -no-color 2>&1 | sed "s/$(cat id)/ID/g" | sed -n '/will perform/,/^Plan/p'
  cairn will perform the following actions:
  
    # null_resource.a has moved to pytest_thing.a
      resource "pytest_thing" "a" {
          id     = "ID"
          name   = "alpha"
          # (1 unchanged attribute hidden)
      }
  
  Plan: 0 to add, 0 to change, 0 to destroy.
  $ CAIRN_CONFIG=cairn.ini cairn apply -no-color p 2>&1 | tail -1
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  $ python3 -c '
  > import json
  > for r in json.load(open("terraform.tfstate"))["resources"]:
  >     i = r["instances"][0]
  >     print(r["type"], r["provider"], i["attributes"].get("name"), i["attributes"]["id"] == open("id").read().strip())'
  pytest_thing provider["cairn.test/test/pytest"] alpha True
  random_id provider["registry.terraform.io/hashicorp/random"] None False
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode -no-color > /dev/null 2>&1; echo "exit $?"
  exit 0
  $ grep -c 'provider=cairn.test/test/pytest call=MoveResourceState status=200' gw.log
  1

A source the plugin does not take over (a random_id, a provider built
into the client): the plugin's own diagnostic comes back through the
gateway, at the resource.

  $ sed "s|OBJDIR|$(cat objdir)|" $TESTDIR/v3.tf.txt > main.tf
  $ CAIRN_CONFIG=cairn.ini cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Unable to Move Resource State
  
    with pytest_thing.r,
    on main.tf line 21, in resource "pytest_thing" "r":
    21: resource "pytest_thing" "r" {
  
  pytest_thing can take over only a hashicorp/null null_resource of schema
  version 0, not registry.terraform.io/hashicorp/random's random_id version 0.
  $ sh $TESTDIR/../gateway_null/stop.sh
