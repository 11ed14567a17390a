moved from null_resource to terraform_data (Terraform 1.9): the terraform
provider's MoveResourceState keeps the id and turns triggers into
triggers_replace, so the plan is only the move, and the next plan is
empty.

  $ cp v1.tf.txt main.tf && cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ python3 -c 'import json; print(json.load(open("terraform.tfstate"))["resources"][0]["instances"][0]["attributes"]["id"])' > id
  $ cp v2.tf.txt main.tf && cairn plan -out=p -no-color > plan.txt; echo "exit $?"
  exit 0
  $ grep -E '^  #|^Plan' plan.txt
    # null_resource.a has moved to terraform_data.a
  Plan: 0 to add, 0 to change, 0 to destroy.
  $ cairn show -json p | python3 -c '
  > import json,sys
  > for r in json.load(sys.stdin)["resource_changes"]: print(r["address"], r.get("previous_address"), r["change"]["actions"])'
  terraform_data.a null_resource.a ['no-op']
  $ cairn apply p > /dev/null; echo "exit $?"
  exit 0
  $ python3 -c '
  > import json
  > r = json.load(open("terraform.tfstate"))["resources"][0]
  > a = r["instances"][0]["attributes"]
  > print(r["type"], r["provider"], a["triggers_replace"], a["id"] == open("id").read().strip())'
  terraform_data provider["terraform.io/builtin/terraform"] {'type': ['object', {'k': 'string'}], 'value': {'k': 'v'}} True
  $ cairn plan -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0

A provider that cannot take a move over refuses it with the plugin
framework's error (here random_id, from terraform_data).

  $ cp v3.tf.txt main.tf && cairn plan -no-color 2>&1 | grep -E 'Error|with|Source|Target'
  Error: Unable to Move Resource State
    with random_id.a,
  developers to include this support with the ResourceWithMoveState interface.
  Source Provider Address: terraform.io/builtin/terraform
  Source Resource Type: terraform_data
  Source Resource Schema Version: 0
  Target Resource Type: random_id
