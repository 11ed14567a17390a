Replace ordering.  Without create_before_destroy, a chain of replaces is
destroyed dependents first and created dependencies first (Terraform's
apply graph); with create_before_destroy on the last resource, the setting
propagates to what it depends on, every replacement is created first and
the deposed objects are destroyed afterwards, dependents first.  The
output is the same at -parallelism=1 and =64.

  $ cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ cairn apply -auto-approve -var v=2 -parallelism=1 > out 2>&1; echo "exit $?"
  exit 0
  $ grep -E 'Destroying|Destruction|Creating|Creation|^Plan' out | sed 's/ \[id=.*//'
  Plan: 3 to add, 0 to change, 3 to destroy.
  terraform_data.c: Destroying...
  terraform_data.c: Destruction complete after 0s
  terraform_data.b: Destroying...
  terraform_data.b: Destruction complete after 0s
  terraform_data.a: Destroying...
  terraform_data.a: Destruction complete after 0s
  terraform_data.a: Creating...
  terraform_data.a: Creation complete after 0s
  terraform_data.b: Creating...
  terraform_data.b: Creation complete after 0s
  terraform_data.c: Creating...
  terraform_data.c: Creation complete after 0s
  $ grep -c create_before_destroy terraform.tfstate
  0
  [1]

Now with create_before_destroy on c only.

  $ cat >> main.tf <<'X'
  > resource "terraform_data" "d" {
  >   input = "unrelated"
  > }
  > X
  $ sed -i 's/^  triggers_replace = var.v$/  triggers_replace = var.v\n  lifecycle {\n    create_before_destroy = true\n  }/' main.tf
  $ sed -n '/"c"/,$p' main.tf | head -7
  resource "terraform_data" "c" {
    input            = terraform_data.b.id
    triggers_replace = var.v
    lifecycle {
      create_before_destroy = true
    }
  }
  $ cairn plan -var v=3 -out=p > plan.txt; echo "exit $?"
  exit 0
  $ grep -E '^  # |^Plan|resource "' plan.txt
    # terraform_data.a must be replaced
  +/- resource "terraform_data" "a" {
    # terraform_data.b must be replaced
  +/- resource "terraform_data" "b" {
    # terraform_data.c must be replaced
  +/- resource "terraform_data" "c" {
    # terraform_data.d will be created
    + resource "terraform_data" "d" {
  Plan: 4 to add, 0 to change, 3 to destroy.
  $ cairn show -json p | python3 -c '
  > import json,sys
  > for r in json.load(sys.stdin)["resource_changes"]: print(r["address"], r["change"]["actions"], r.get("action_reason"))'
  terraform_data.a ['create', 'delete'] replace_because_cannot_update
  terraform_data.b ['create', 'delete'] replace_because_cannot_update
  terraform_data.c ['create', 'delete'] replace_because_cannot_update
  terraform_data.d ['create'] None
  $ cairn apply -parallelism=64 p > out 2>&1; echo "exit $?"
  exit 0
  $ grep -E 'Destroying|Destruction|Creating|Creation' out | sed 's/ \[id=.*//; s/object [0-9a-f]\{8\}/object KEY/'
  terraform_data.a: Creating...
  terraform_data.a: Creation complete after 0s
  terraform_data.d: Creating...
  terraform_data.d: Creation complete after 0s
  terraform_data.b: Creating...
  terraform_data.b: Creation complete after 0s
  terraform_data.c: Creating...
  terraform_data.c: Creation complete after 0s
  terraform_data.c (deposed object KEY): Destroying...
  terraform_data.c (deposed object KEY): Destruction complete after 0s
  terraform_data.b (deposed object KEY): Destroying...
  terraform_data.b (deposed object KEY): Destruction complete after 0s
  terraform_data.a (deposed object KEY): Destroying...
  terraform_data.a (deposed object KEY): Destruction complete after 0s
  $ grep -c '"create_before_destroy": true' terraform.tfstate
  3
  $ grep -c deposed terraform.tfstate
  0
  [1]
  $ cairn plan -var v=3 -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0
