JSON syntax (.tf.json) where Terraform reads a reference, not a template:
depends_on, lifecycle's ignore_changes (with an index path) and
replace_triggered_by (a resource, then one of its attributes), moved
from/to and import `to` (with each.key).  The same two steps run from
equivalent .tf files (hcl/) and .tf.json files (json/): v1 is applied, then
v2 changes var.v (ignored on null_resource.ign, a trigger for
terraform_data.rep), moves terraform_data.old and imports two objects.

  $ sh run.sh json > json.out; sh run.sh hcl > hcl.out; cat json.out
  terraform_data.a: Refreshing state... [id=UUID]
  terraform_data.new: Refreshing state... [id=UUID]
  null_resource.ign: Refreshing state... [id=NUM]
  random_string.s["a"]: Refreshing state... [id=val-a]
  random_string.s["b"]: Refreshing state... [id=val-b]
  terraform_data.rep: Refreshing state... [id=UUID]
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    ~ update in-place
  -/+ destroy and then create replacement
  
  cairn will perform the following actions:
  
    # random_string.s["a"] will be imported
      resource "random_string" "s" {
          id          = "val-a"
          length      = 5
          lower       = true
          min_lower   = 0
          min_numeric = 0
          min_special = 0
          min_upper   = 0
          number      = true
          numeric     = true
          result      = "val-a"
          special     = true
          upper       = true
      }
  
    # random_string.s["b"] will be imported
      resource "random_string" "s" {
          id          = "val-b"
          length      = 5
          lower       = true
          min_lower   = 0
          min_numeric = 0
          min_special = 0
          min_upper   = 0
          number      = true
          numeric     = true
          result      = "val-b"
          special     = true
          upper       = true
      }
  
    # terraform_data.a will be updated in-place
    ~ resource "terraform_data" "a" {
          id     = "UUID"
        ~ input  = "1" -> "2"
        ~ output = "1" -> (known after apply)
      }
  
    # terraform_data.old has moved to terraform_data.new
      resource "terraform_data" "new" {
          id     = "UUID"
          # (2 unchanged attributes hidden)
      }
  
    # terraform_data.rep will be replaced due to changes in replace_triggered_by
  -/+ resource "terraform_data" "rep" {
        ~ id     = "UUID" -> (known after apply)
        ~ output = "fixed" -> (known after apply)
          # (1 unchanged attribute hidden)
      }
  
  Plan: 2 to import, 1 to add, 1 to change, 1 to destroy.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: p.bin
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "p.bin"
  null_resource.ign no-op 
  random_string.s["a"] no-op importing={"id": "val-a"}
  random_string.s["b"] no-op importing={"id": "val-b"}
  terraform_data.a update 
  terraform_data.new no-op previous_address=terraform_data.old
  terraform_data.rep delete,create action_reason=replace_by_triggers
  config terraform_data.rep depends_on=['terraform_data.a']
  terraform_data.a: Modifying... [id=UUID]
  terraform_data.a: Modifications complete after Ns [id=UUID]
  terraform_data.rep: Destroying... [id=UUID]
  terraform_data.rep: Destruction complete after Ns
  random_string.s["a"]: Importing... [id=val-a]
  random_string.s["a"]: Import complete [id=val-a]
  random_string.s["b"]: Importing... [id=val-b]
  random_string.s["b"]: Import complete [id=val-b]
  terraform_data.rep: Creating...
  terraform_data.rep: Creation complete after Ns [id=UUID]
  Apply complete! Resources: 2 imported, 1 added, 1 changed, 1 destroyed.
  null_resource.ign
  random_string.s["a"]
  random_string.s["b"]
  terraform_data.a
  terraform_data.new
  terraform_data.rep
  exit 0
  $ diff hcl.out json.out && echo same
  same
