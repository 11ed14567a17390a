Import blocks (with for_each) are planned as imports and recorded at
apply; `cairn import ADDR ID` imports one object without applying
anything else; the errors for a missing configuration and an address
already managed.  random_id's import leaves keepers null (upstream), so
importing it plans no change.

  $ cp blocks.tf.txt main.tf
  $ cairn plan -out=p -no-color > plan.txt; echo "exit $?"
  exit 0
  $ grep -E '^  #|^Plan' plan.txt
    # random_id.x will be imported
    # random_string.s["a"] will be imported
    # random_string.s["b"] will be imported
  Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.
  $ cairn show -json p | python3 -c '
  > import json,sys
  > for r in json.load(sys.stdin)["resource_changes"]: print(r["address"], r["change"]["actions"], r["change"].get("importing"))'
  random_id.x ['no-op'] {'id': 'p-9hUg'}
  random_string.s["a"] ['no-op'] {'id': 'val-a'}
  random_string.s["b"] ['no-op'] {'id': 'val-b'}
  $ cairn apply p > out; echo "exit $?"
  exit 0
  $ grep -E 'Import|Apply complete' out
  random_id.x: Importing... [id=p-9hUg]
  random_id.x: Import complete [id=p-9hUg]
  random_string.s["a"]: Importing... [id=val-a]
  random_string.s["a"]: Import complete [id=val-a]
  random_string.s["b"]: Importing... [id=val-b]
  random_string.s["b"]: Import complete [id=val-b]
  Apply complete! Resources: 3 imported, 0 added, 0 changed, 0 destroyed.
  $ cairn state list
  random_id.x
  random_string.s["a"]
  random_string.s["b"]
  $ cairn plan -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0

The command form.

  $ rm terraform.tfstate* && printf 'resource "random_id" "x" {\n  byte_length = 4\n}\n' > main.tf
  $ cairn import random_id.x p-9hUg
  random_id.x: Importing from ID "p-9hUg"...
  random_id\.x: Refreshing state\.\.\. \[id=p-9hUg\] (re)
  random_id.x: Import prepared!
    Prepared random_id for import
  
  Import successful!
  
  The resources that were imported are shown above. These resources are now in
  your cairn state and will henceforth be managed by cairn.
  
  $ cairn state show random_id.x | grep hex
      hex         = "a7ef6152"
  $ cairn import random_id.x p-9hUg 2>&1 | grep '^Error'; echo "exit $?"
  Error: Resource already managed by cairn
  exit 0
  $ cairn import random_id.y zz 2>&1 | grep '^Error'
  Error: Configuration for import target does not exist
  $ cairn import random_id.x 2>&1 | grep '^Error'
  Error: Invalid number of arguments
