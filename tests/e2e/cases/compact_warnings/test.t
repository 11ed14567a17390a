-compact-warnings: when a command ends with warnings only, they are listed
by summary with their first source line (same summaries folded into the
first, "(and N more)"), as Terraform's DiagnosticWarningsCompact does.

  $ cairn init > /dev/null 2>&1
  $ cairn plan -compact-warnings
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # terraform_data.a will be created
    + resource "terraform_data" "a" {
        + id     = (known after apply)
        + input  = "x"
        + output = (known after apply)
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  Warnings:
  
  - Version constraints inside provider configuration blocks are deprecated
    on main.tf line 2 (and 1 more)
  
  To see the full warning notes, run cairn without -compact-warnings.
  
  ─────────────────────────────────────────────────────────────────────────────
  
  Note: You didn't use the -out option to save this plan, so cairn can't
  guarantee to take exactly these actions if you run "cairn apply" now.

Without the flag, the same warnings in full.

  $ cairn plan 2>&1 | sed -n '/^Warning/,/^cairn ignores/{p;/^cairn ignores/q}'
  Warning: Version constraints inside provider configuration blocks are deprecated
  
    on main.tf line 2, in provider "null":
     2:   version = "3.0.0"
  
  cairn ignores the version argument in provider blocks; use required_providers

apply, refresh and destroy take the flag too.

  $ cairn apply -auto-approve -compact-warnings
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    + create
  
  cairn will perform the following actions:
  
    # terraform_data.a will be created
    + resource "terraform_data" "a" {
        + id     = (known after apply)
        + input  = "x"
        + output = (known after apply)
      }
  
  Plan: 1 to add, 0 to change, 0 to destroy.
  
  Warnings:
  
  - Version constraints inside provider configuration blocks are deprecated
    on main.tf line 2 (and 1 more)
  
  To see the full warning notes, run cairn without -compact-warnings.
  terraform_data.a: Creating...
  terraform_data\.a: Creation complete after 0s \[id=[-0-9a-f]+\] (re)
  
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ cairn refresh -compact-warnings
  terraform_data\.a: Refreshing state\.\.\. \[id=[-0-9a-f]+\] (re)
  
  No changes. Your infrastructure still matches the configuration.
  
  cairn has checked that the real remote objects still match the result of your
  most recent changes, and found no differences.
  
  Warnings:
  
  - Version constraints inside provider configuration blocks are deprecated
    on main.tf line 2 (and 1 more)
  
  To see the full warning notes, run cairn without -compact-warnings.
  
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  $ cairn destroy -auto-approve -compact-warnings
  terraform_data\.a: Refreshing state\.\.\. \[id=[-0-9a-f]+\] (re)
  
  cairn used the selected providers to generate the following execution plan.
  Resource actions are indicated with the following symbols:
    - destroy
  
  cairn will perform the following actions:
  
    # terraform_data.a will be destroyed
    - resource "terraform_data" "a" {
        - id     = "[-0-9a-f]+" -> null (re)
        - input  = "x" -> null
        - output = "x" -> null
      }
  
  Plan: 0 to add, 0 to change, 1 to destroy.
  
  Warnings:
  
  - Version constraints inside provider configuration blocks are deprecated
    on main.tf line 2 (and 1 more)
  
  To see the full warning notes, run cairn without -compact-warnings.
  terraform_data\.a: Destroying\.\.\. \[id=[-0-9a-f]+\] (re)
  terraform_data.a: Destruction complete after 0s
  
  Destroy complete! Resources: 1 destroyed.

With an error among them, everything is shown in full: a warning can
explain the error.

  $ cat >> main.tf <<'TF'
  > resource "terraform_data" "b" {
  >   input = var.missing
  > }
  > TF
  $ cairn plan -compact-warnings
  
  Warning: Version constraints inside provider configuration blocks are deprecated
  
    on main.tf line 2, in provider "null":
     2:   version = "3.0.0"
  
  cairn ignores the version argument in provider blocks; use required_providers
  in the terraform block instead.
  
  Warning: Version constraints inside provider configuration blocks are deprecated
  
    on main.tf line 6, in provider "random":
     6:   version = "3.0.0"
  
  cairn ignores the version argument in provider blocks; use required_providers
  in the terraform block instead.
  
  Error: Reference to undeclared input variable
  
    on main.tf line 13, in resource "terraform_data" "b":
    13:   input = var.missing
  
  An input variable with the name "missing" has not been declared. This
  variable can be declared with a variable "missing" {} block.
  [1]

