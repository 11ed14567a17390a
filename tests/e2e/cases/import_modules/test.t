Import blocks and `cairn import` into resources of child modules (module
keys included); a target no configured instance has is an error.

  $ cairn plan -no-color 2>&1 | grep -E '#|^Plan|Error'
    # module.m[0].random_id.x will be created
    # module.m[0].random_string.s["a"] will be created
    # module.n.random_id.x will be imported
    # module.n.random_string.s["a"] will be imported
  Plan: 2 to import, 2 to add, 0 to change, 0 to destroy.
  $ cairn import -no-color 'module.m[0].random_id.x' p-9hUg | grep -E 'Import|Prepared'
  module.m[0].random_id.x: Importing from ID "p-9hUg"...
  module.m[0].random_id.x: Import prepared!
    Prepared random_id for import
  Import successful!
  $ cairn state list
  module.m[0].random_id.x
  $ cairn import -no-color 'module.m[1].random_id.x' p-9hUg 2>&1 | grep -E '^Error|^The'; echo "exit $?"
  Error: Configuration for import target does not exist
  The configuration for the given import target module.m[1].random_id.x does
  exit 0
  $ cairn import -no-color 'module.z.random_id.x' p-9hUg > /dev/null 2>&1; echo "exit $?"
  exit 1

An import block whose target is not configured fails the plan.

  $ cat >> main.tf <<'X'
  > import {
  >   to = module.n.random_id.nope
  >   id = "zz"
  > }
  > X
  $ cairn plan -no-color 2>&1 | grep -A4 '^Error'
  Error: Configuration for import target does not exist
  
    on main.tf line 17, in import:
    17: import {
  
  $ cairn plan -no-color > /dev/null 2>&1; echo "exit $?"
  exit 1
