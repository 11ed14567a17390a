Where "# forces replacement" shows in the human plan, as Terraform's
renderer decides it (internal/command/jsonformat/differ).  The provider's
RequiresReplace paths reach the plan (replace_paths in the JSON plan) for
terraform_data's triggers_replace as for null_resource's triggers, and
both resources "must be replaced".  A typed attribute on such a path
(triggers, map of string) carries the "# forces replacement" mark; a
dynamic-typed one (triggers_replace) is rendered through the differ's
JSON path (ComputeDiffForType -> ComputeDiffForOutput ->
RendererJsonOpts), whose diffs never carry the mark, so Terraform prints
none there and neither does cairn (issue 15 point 13: checked against
Terraform's renderer, which wins over the issue's wording).

  $ cairn apply -auto-approve -no-color > /dev/null
  $ cairn plan -no-color -var t=b -refresh=false -out p.tfplan | sed -n '/^  #/,/^Plan/p' | sed -E 's/id( +)= "[-0-9a-f]+" ->/id\1= ID ->/'
    # null_resource.n must be replaced
  -/+ resource "null_resource" "n" {
        ~ id       = ID -> (known after apply)
        ~ triggers = { # forces replacement
            ~ "k" = "a" -> "b"
          }
      }
  
    # terraform_data.d must be replaced
  -/+ resource "terraform_data" "d" {
        ~ id               = ID -> (known after apply)
        ~ triggers_replace = "a" -> "b"
      }
  
    # terraform_data.o must be replaced
  -/+ resource "terraform_data" "o" {
        ~ id               = ID -> (known after apply)
        ~ triggers_replace = {
            ~ k = "a" -> "b"
          }
      }
  
  Plan: 3 to add, 0 to change, 3 to destroy.
  $ cairn show -json p.tfplan | python3 -c 'import json,sys; [print(r["address"], r["change"]["actions"], r["change"].get("replace_paths")) for r in json.load(sys.stdin)["resource_changes"]]'
  null_resource.n ['delete', 'create'] [['triggers']]
  terraform_data.d ['delete', 'create'] [['triggers_replace']]
  terraform_data.o ['delete', 'create'] [['triggers_replace']]
