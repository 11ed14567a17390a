-target=ADDR limits a plan to the targeted instances and everything they
depend on, with Terraform's warning (on stdout, as Terraform prints
warnings); the saved plan is not "complete".

  $ cairn plan -no-color -target='module.m[1].terraform_data.x' -out=p > plan.txt 2> err.txt; echo "exit $?"
  exit 0
  $ grep -E '^  #|^Plan' plan.txt
    # terraform_data.root will be created
    # module.m[1].terraform_data.x will be created
  Plan: 2 to add, 0 to change, 0 to destroy.
  $ cat err.txt
  $ sed -n '/^Warning/,/^The -target/p' plan.txt
  Warning: Resource targeting is in effect
  
  You are creating a plan with the -target option, which means that the result
  of this plan may not represent all of the changes requested by the current
  configuration.
  
  The -target option is not for routine use, and is provided only for
  $ cairn show -json p | python3 -c '
  > import json,sys
  > p = json.load(sys.stdin)
  > print(p["complete"], p["applyable"], sorted(r["address"] for r in p["resource_changes"]))'
  False True ['module.m[1].terraform_data.x', 'terraform_data.root']

Applying the saved plan warns that other changes may be pending.

  $ cairn apply -no-color p 2>&1 | grep -E 'Warning|complete!|cairn plan'
  Warning: Applied changes may be incomplete
      cairn plan
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  $ cairn state list
  terraform_data.root
  module.m[1].terraform_data.x

A module target selects every resource in the module's instances; an
instance target of a counted resource leaves its siblings alone.  The
outputs that refer to a targeted resource are updated.

  $ cairn apply -no-color -auto-approve -target=module.m -target='terraform_data.other[1]' 2>/dev/null | grep -E 'Creating|Apply complete'
  terraform_data.other[1]: Creating...
  module.m[0].terraform_data.y: Creating...
  module.m[1].terraform_data.y: Creating...
  module.m[0].terraform_data.x: Creating...
  Apply complete! Resources: 4 added, 0 changed, 0 destroyed.
  $ cairn output -json o
  ["r","r"]
  $ cairn plan -no-color 2>/dev/null | grep -E '^  #|^Plan'
    # terraform_data.after will be created
    # terraform_data.other[0] will be created
  Plan: 2 to add, 0 to change, 0 to destroy.

A target that names nothing plans nothing.

  $ cairn plan -no-color -target=terraform_data.nothing 2>/dev/null | grep -E 'No changes'
  No changes. Your infrastructure matches the configuration.

Objects no longer configured are deleted only when targeted.

  $ cairn apply -auto-approve > /dev/null 2>&1; echo "exit $?"
  exit 0
  $ sed -i 's/count  = 2/count  = 1/; s/data" "other"/data" "other2"/; s/data.other\[/data.other2[/' main.tf
  $ cairn plan -no-color -target='terraform_data.other[0]' -target='module.m[1].terraform_data.y' 2>/dev/null | grep -E '^  #|^Plan'
    # terraform_data.other[0] will be destroyed
    # (because terraform_data.other is not in configuration)
    # module.m[1].terraform_data.y will be destroyed
    # (because module.m[1] is not in configuration)
  Plan: 0 to add, 0 to change, 2 to destroy.

Destroying with -target also destroys what depends on the target.

  $ cairn destroy -no-color -auto-approve -target='module.m[0].terraform_data.x' 2>/dev/null | grep -E 'Destroying|Destroy complete'
  terraform_data.after: Destroying... \[id=[0-9a-f-]+\] (re)
  module.m\[0\].terraform_data.x: Destroying... \[id=[0-9a-f-]+\] (re)
  Destroy complete! Resources: 2 destroyed.
  $ cairn state list
  terraform_data.other[0]
  terraform_data.other[1]
  terraform_data.root
  module.m[0].terraform_data.y
  module.m[1].terraform_data.x
  module.m[1].terraform_data.y

A malformed target is an error.

  $ cairn plan -no-color -target='module.' 2>&1; echo "exit $?"
  
  Error: Invalid target "module."
  
  An attribute name is required after a dot.
  exit 1

A destroy plan's -json summary is a plan summary (the apply's end says
"Destroy complete!").

  $ cairn plan -destroy -json -target=terraform_data.root | python3 -c '
  > import json,sys
  > for l in sys.stdin:
  >   m = json.loads(l)
  >   if m["type"] == "change_summary": print(m["changes"]["operation"], m["@message"])'
  plan Plan: 0 to add, 0 to change, 2 to destroy.

Objects that moved blocks move must be covered by the targets.

  $ mkdir mv && cd mv && printf 'resource "terraform_data" "a" {\n  count = 2\n}\n' > main.tf && cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ cd mv && cat > main.tf <<'X'
  > resource "terraform_data" "a" {
  >   for_each = toset(["x", "y"])
  > }
  > moved {
  >   from = terraform_data.a[0]
  >   to   = terraform_data.a["x"]
  > }
  > moved {
  >   from = terraform_data.a[1]
  >   to   = terraform_data.a["y"]
  > }
  > X
  $ cd mv && cairn plan -no-color -target='terraform_data.a["y"]' 2>&1 | grep -E '^Error|-target="'; echo "exit $?"
  Error: Moved resource instances excluded by targeting
    -target="terraform_data.a[\"x\"]"
  exit 0
  $ cd mv && cairn plan -no-color -target=terraform_data.a 2>/dev/null | grep -E '^  #|^Plan'
    # terraform_data.a[0] has moved to terraform_data.a["x"]
    # terraform_data.a[1] has moved to terraform_data.a["y"]
  Plan: 0 to add, 0 to change, 0 to destroy.
