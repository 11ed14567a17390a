moved blocks (count -> for_each) and a removed block with destroy = false:
the plan shows the moves and the forget, applies with no provider call,
and the next plan is empty.  Then the errors: a cycle and a moved object
still declared.

  $ cp v1.tf.txt main.tf && cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ cp v2.tf.txt main.tf
  $ cairn plan -out=p > plan.txt 2>&1; echo "exit $?"
  exit 0
  $ grep -E '^ {1,2}# |^Plan|Warning|^ - ' plan.txt
   # terraform_data.gone will no longer be managed by cairn, but will not be destroyed
   # (destroy = false is set in the configuration)
    # terraform_data.old[0] has moved to terraform_data.new["a"]
    # terraform_data.old[1] has moved to terraform_data.new["b"]
  Plan: 0 to add, 0 to change, 0 to destroy, 1 to forget.
  Warning: Some objects will no longer be managed by cairn
   - terraform_data.gone
  $ cairn show -json p | python3 -c '
  > import json,sys
  > for r in json.load(sys.stdin)["resource_changes"]: print(r["address"], r.get("previous_address"), r["change"]["actions"])'
  terraform_data.gone None ['forget']
  terraform_data.new["a"] terraform_data.old[0] ['no-op']
  terraform_data.new["b"] terraform_data.old[1] ['no-op']
  $ cairn apply p > out 2>&1; echo "exit $?"
  exit 0
  $ grep -c Destroying out
  0
  [1]
  $ cairn state list
  terraform_data.new["a"]
  terraform_data.new["b"]
  $ cairn plan -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0

A cycle between moved blocks, and moving from an address still declared.

  $ cat >> main.tf <<'X'
  > moved {
  >   from = terraform_data.x
  >   to   = terraform_data.y
  > }
  > moved {
  >   from = terraform_data.y
  >   to   = terraform_data.x
  > }
  > X
  $ cairn plan -no-color 2>&1 | grep '^Error'
  Error: Cyclic dependency in move statements
  $ cp v2.tf.txt main.tf && cat >> main.tf <<'X'
  > moved {
  >   from = terraform_data.new
  >   to   = terraform_data.other
  > }
  > X
  $ cairn plan -no-color 2>&1 | grep '^Error'; echo "exit $?"
  Error: Moved object still exists
  exit 0
