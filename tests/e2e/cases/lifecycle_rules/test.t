Lifecycle arguments: ignore_changes with an index path, replace_triggered_by
on a whole resource (every instance replaced, reason replace_by_triggers),
prevent_destroy refusing destroy and -replace, preconditions and
postconditions with Terraform's messages.

  $ cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ cairn plan -var v=2 -out=p > plan.txt; echo "exit $?"
  exit 0
  $ grep -E '^  #|^Plan' plan.txt
    # terraform_data.rt[0] will be replaced due to changes in replace_triggered_by
    # terraform_data.rt[1] will be replaced due to changes in replace_triggered_by
    # terraform_data.trig will be updated in-place
  Plan: 2 to add, 1 to change, 2 to destroy.
  $ cairn show -json p | python3 -c '
  > import json,sys
  > for r in json.load(sys.stdin)["resource_changes"]: print(r["address"], r["change"]["actions"], r.get("action_reason"))'
  terraform_data.ign ['no-op'] None
  terraform_data.keep ['no-op'] None
  terraform_data.pre ['no-op'] None
  terraform_data.rt[0] ['delete', 'create'] replace_by_triggers
  terraform_data.rt[1] ['delete', 'create'] replace_by_triggers
  terraform_data.trig ['update'] None
  $ cairn apply p > /dev/null; echo "exit $?"
  exit 0

ignore_changes keeps the prior value of input["a"]; the state still says 1.

  $ python3 -c '
  > import json
  > for r in json.load(open("terraform.tfstate"))["resources"]:
  >   if r["name"] == "ign": print(r["instances"][0]["attributes"]["input"])'
  {'type': ['object', {'a': 'string', 'b': 'string'}], 'value': {'a': '1', 'b': 'fixed'}}

A failing precondition stops the plan with the condition's source and values.

  $ cairn plan -var n=7 -no-color 2>&1 | sed -n '/Error/,$p'
  Error: Resource precondition failed
  
    on main.tf line 38, in resource "terraform_data" "pre":
    38:       condition     = var.n < 5
      ├─────────────────
      │ var.n is "7"
  
  n must be below 5.

prevent_destroy refuses a destroy and a requested replacement.

  $ cairn destroy -auto-approve -no-color > out 2>&1; echo "exit $?"
  exit 1
  $ sed -n '/Error/,$p' out
  Error: Instance cannot be destroyed
  
    on main.tf line 27, in resource "terraform_data" "keep":
    27: resource "terraform_data" "keep" {
  
  Resource terraform_data.keep has lifecycle.prevent_destroy set, but the plan
  calls for this resource to be destroyed. To avoid this error and continue
  with the plan, either disable lifecycle.prevent_destroy or reduce the scope
  of the plan using the -target option.
  $ cairn plan -replace=terraform_data.keep -no-color 2>&1 | grep -c 'Instance cannot be destroyed'
  1

Removing the block lifts the protection.

  $ sed -i '/prevent_destroy = true/d' main.tf
  $ cairn destroy -auto-approve > out 2>&1; echo "exit $?"
  exit 0
  $ tail -1 out
  Destroy complete! Resources: 6 destroyed.
