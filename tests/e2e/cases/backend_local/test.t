The local backend's `path` (the default workspace's state) and
`workspace_dir` (where other workspaces live) are honoured by every
command, as Terraform's local backend does; -state still overrides.

  $ mkdir states
  $ cairn init > /dev/null
  $ cairn apply -auto-approve > /dev/null
  $ ls -A
  .terraform.lock.hcl
  main.tf
  states
  $ ls -A states
  .prod.tfstate.lock
  prod.tfstate
  $ cairn state list
  terraform_data.a
  $ cairn output o
  "default"
  $ cairn workspace new dev > /dev/null
  $ cairn apply -auto-approve > /dev/null
  $ find ws -type f | sort
  ws/dev/.terraform.tfstate.lock
  ws/dev/terraform.tfstate
  $ cairn workspace list
    default
  * dev
  
  $ cairn output o
  "dev"
  $ cairn workspace select default
  Switched to workspace "default".
  $ cairn output o
  "default"
  $ cairn show -no-color | grep input
      input  = "default"
  $ cairn workspace delete -force dev
  Deleted workspace "dev"!
  WARNING: "dev" was non-empty.
  The resources managed by the deleted workspace may still exist,
  but are no longer manageable by Terraform since the state has
  been deleted.
  
  $ ls -A ws
  $ cairn state list -state=states/prod.tfstate
  terraform_data.a
  $ cairn state list -state=nothing.tfstate
  No state file was found!
  
  State management commands require a state file. Run this command
  in a directory where Terraform has been run or use the -state flag
  to point the command to a specific state location.
  [1]

Empty values are Terraform's errors:

  $ cat > main.tf <<'X'
  > terraform {
  >   backend "local" {
  >     path = ""
  >   }
  > }
  > X
  $ cairn init
  
  Initializing the backend...
  
  Error: Invalid local state file path
  
    on main.tf line 3, in terraform:
     3:     path = ""
  
  The "path" attribute value must not be empty.
  [1]
  $ cairn state list
  
  Error: Invalid local state file path
  
    on main.tf line 3, in terraform:
     3:     path = ""
  
  The "path" attribute value must not be empty.
  [1]
  $ cat > main.tf <<'X'
  > terraform {
  >   backend "local" {
  >     workspace_dir = ""
  >     other         = 1
  >   }
  > }
  > X
  $ cairn state list
  
  Error: Unsupported argument
  
    on main.tf line 4, in terraform:
     4:     other         = 1
  
  An argument named "other" is not expected here.
  [1]
