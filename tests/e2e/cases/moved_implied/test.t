Terraform's implied moves: adding count to a resource moves its object
from x to x[0], removing count moves x[0] back to x (no-op instead of
delete + create, with previous_address); for_each implies nothing.

  $ cp v1.tf.txt main.tf && cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ cp v2.tf.txt main.tf && cairn plan -out=p -no-color > plan.txt; echo "exit $?"
  exit 0
  $ grep -E '^  #|^Plan' plan.txt
    # terraform_data.a has moved to terraform_data.a[0]
    # terraform_data.a[1] will be created
  Plan: 1 to add, 0 to change, 0 to destroy.
  $ cairn show -json p | python3 -c '
  > import json,sys
  > for r in json.load(sys.stdin)["resource_changes"]: print(r["address"], r.get("previous_address"), r["change"]["actions"])'
  terraform_data.a[0] terraform_data.a ['no-op']
  terraform_data.a[1] None ['create']
  $ cairn apply p > /dev/null; cairn state list
  terraform_data.a[0]
  terraform_data.a[1]

Without count again, [0] moves back and only [1] is destroyed.

  $ cp v1.tf.txt main.tf && cairn plan -no-color | grep -E '^  #|^Plan'
    # terraform_data.a[0] has moved to terraform_data.a
    # terraform_data.a[1] will be destroyed
    # (because resource does not use count)
  Plan: 0 to add, 0 to change, 1 to destroy.

An explicit moved block naming the resource replaces the implied move
(here it keeps [1] instead).

  $ cat >> main.tf <<'X'
  > moved {
  >   from = terraform_data.a[1]
  >   to   = terraform_data.a
  > }
  > X
  $ cairn plan -no-color | grep -E '^  #|^Plan'
    # terraform_data.a[1] has moved to terraform_data.a
    # terraform_data.a[0] will be destroyed
    # (because resource does not use count)
  Plan: 0 to add, 0 to change, 1 to destroy.

for_each is not an implied move.

  $ cp v3.tf.txt main.tf && cairn plan -no-color | grep -E '^  #|^Plan'
    # terraform_data.a[0] will be destroyed
    # (because resource does not use count)
    # terraform_data.a[1] will be destroyed
    # (because resource does not use count)
    # terraform_data.a["k"] will be created
  Plan: 1 to add, 0 to change, 2 to destroy.
