Saved plans: plan -out then apply FILE; a plan made before another apply
is stale; a plan from another state lineage and a plan for another
configuration are refused.

  $ cairn plan -out=first.plan
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # terraform_data.a will be created
    + resource "terraform_data" "a" {
        + id     = (known after apply)
        + input  = "one"
        + output = (known after apply)
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  Changes to Outputs:
    + a = (known after apply)
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Saved the plan to: first.plan
  
  To perform exactly these actions, run the following command to apply:
      cairn apply "first.plan"
  $ cairn plan -out=second.plan > /dev/null
  $ cairn apply first.plan
  terraform_data.a: Creating...
  terraform_data\.a: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  
  Outputs:
  
  a = "one"
  $ cairn apply second.plan
  
  Error: Saved plan is stale
  
  The given plan file can no longer be applied because the state was changed by
  another operation after the plan was created.
  [1]
  $ cairn apply first.plan
  
  Error: Saved plan is stale
  
  The given plan file can no longer be applied because the state was changed by
  another operation after the plan was created.
  [1]

Applying a plan leaves nothing to do.

  $ cairn plan -var v=two -out=two.plan > /dev/null
  $ cairn apply two.plan > /dev/null
  $ cairn plan -var v=two -detailed-exitcode -refresh=false
  
  No changes. Your infrastructure matches the configuration.
  
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.
  $ cairn output a
  "two"

A plan for a configuration that changed since.

  $ cairn plan -var v=three -out=three.plan > /dev/null
  $ sed -i 's/"one"/"changed"/' main.tf
  $ cairn apply three.plan
  
  Error: Saved plan does not match the configuration
  
  The configuration has changed since the plan file three.plan was created, so
  it cannot be applied. Run "cairn plan" again.
  [1]
  $ sed -i 's/"changed"/"one"/' main.tf

A plan made against another state (another lineage).

  $ mkdir other && cp main.tf other/
  $ cd other && cairn apply -auto-approve > /dev/null && cairn plan -var v=other -out=../other.plan > /dev/null
  $ cairn apply other.plan
  
  Error: Saved plan does not match the given state
  
  The given plan file can not be applied because it was created from a
  different state lineage.
  [1]
  $ cairn apply not-a-plan.tfplan
  
  Error: Failed to load "not-a-plan.tfplan" as a plan file
  
  Error: open not-a-plan.tfplan: no such file or directory
  [1]
  $ echo garbage > bad.plan && cairn apply bad.plan
  
  Error: Failed to load "bad.plan" as a plan file
  
  Error: the given file is not a valid plan file
  [1]
