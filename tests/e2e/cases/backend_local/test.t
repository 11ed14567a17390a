The local backend's `path` (the default workspace's state) and
`workspace_dir` (where other workspaces live) are honoured by every
command, as Terraform's local backend does; -state still overrides.

A backend block must be initialised first, as in Terraform:

  $ mkdir states
  $ cairn plan 2>&1 | head -4
  
  Error: Backend initialization required: please run "terraform init"
  
  Reason: Initial configuration of the requested backend "local"

init records it in .terraform/terraform.tfstate (Terraform's BackendState):

  $ cairn init | head -5
  
  Initializing the backend...
  
  Successfully configured the backend "local"! Terraform will automatically
  use this backend unless the backend configuration changes.
  $ sed 's/"lineage": ".*"/"lineage": L/' .terraform/terraform.tfstate
  {
      "version": 3,
      "serial": 1,
      "lineage": L,
      "backend": {
          "type": "local",
          "config": {
              "path": "states/prod.tfstate",
              "workspace_dir": "ws"
          },
          "hash": 1882480155
      }
  }
  $ cairn init | head -3
  
  Initializing the backend...
  
  $ cairn apply -auto-approve > /dev/null
  $ ls -A
  .terraform
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

-backend-config (KEY=VALUE or a file) overrides the block; a change is
Terraform's "Backend configuration changed" until -reconfigure:

  $ cairn init -backend-config=path=states/other.tfstate
  
  Initializing the backend...
  
  Error: Backend configuration changed
  
  A change in the backend configuration has been detected, which may require
  migrating existing state.
  
  If you wish to attempt automatic migration of the state, use "terraform init
  -migrate-state".
  If you wish to store the current configuration with no changes to the state,
  use "terraform init -reconfigure".
  [1]
  $ cairn init -reconfigure -backend-config=path=states/other.tfstate | head -4
  
  Initializing the backend...
  
  Successfully configured the backend "local"! Terraform will automatically
  $ grep '"path"' .terraform/terraform.tfstate
              "path": "states/other.tfstate",
  $ cairn state list
  No state file was found!
  
  State management commands require a state file. Run this command
  in a directory where Terraform has been run or use the -state flag
  to point the command to a specific state location.
  [1]
  $ echo 'path = "states/prod.tfstate"' > prod.tfbackend
  $ cairn init -reconfigure -backend-config=prod.tfbackend > /dev/null
  $ cairn state list
  terraform_data.a
  $ cairn init -reconfigure -backend-config=bucket=x
  
  Initializing the backend...
  
  Error: Invalid backend configuration argument
  
  The backend configuration argument "bucket" given on the command line is not
  expected for the selected backend type.
  [1]
  $ echo 'bucket = "x"' > bad.tfbackend
  $ cairn init -reconfigure -backend-config=bad.tfbackend
  
  Initializing the backend...
  
  Error: Unsupported argument
  
    on bad.tfbackend line 1:
     1: bucket = "x"
  
  An argument named "bucket" is not expected here.
  [1]
  $ cairn init -migrate-state -input=false -backend-config=path=elsewhere.tfstate
  
  Initializing the backend...
  
  Error: Error asking for state migration action
  
  Can't ask approval for state migration when interactive input is disabled.
  
  Please remove the "-input=false" option and try again.
  [1]
  $ cairn init -migrate-state -backend-config=path=elsewhere.tfstate < /dev/null 2>&1 | tail -3
  Error: Error asking for state migration action
  
  No answer: the standard input ended.
  $ cairn init -migrate-state -reconfigure > /dev/null
  
  Error: Invalid command-line option
  
  The -migrate-state and -reconfigure options are mutually-exclusive.
  [1]

Changing the block itself needs init again:

  $ sed -i 's/"ws"/"ws2"/' main.tf
  $ cairn state list 2>&1 | head -4
  
  Error: Backend initialization required: please run "terraform init"
  
  Reason: Backend configuration block has changed
  $ cairn init > /dev/null
  
  Error: Backend configuration changed
  
  A change in the backend configuration has been detected, which may require
  migrating existing state.
  
  If you wish to attempt automatic migration of the state, use "terraform init
  -migrate-state".
  If you wish to store the current configuration with no changes to the state,
  use "terraform init -reconfigure".
  [1]
  $ cairn init -reconfigure > /dev/null
  $ cairn state list
  terraform_data.a

Empty values are Terraform's errors:

  $ cat > main.tf <<'X'
  > terraform {
  >   backend "local" {
  >     path = ""
  >   }
  > }
  > X
  $ cairn init -reconfigure
  
  Initializing the backend...
  
  Error: Invalid local state file path
  
    on main.tf line 2, in terraform:
     2:   backend "local" {
  
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
  $ cairn init -reconfigure
  
  Initializing the backend...
  
  Error: Unsupported argument
  
    on main.tf line 4, in terraform:
     4:     other         = 1
  
  An argument named "other" is not expected here.
  [1]

Removing the block needs init too; afterwards the default local state is
used:

  $ echo '' > main.tf
  $ cairn state list 2>&1 | head -4
  
  Error: Backend initialization required: please run "terraform init"
  
  Reason: Unsetting the previously set backend "local"
  $ cairn init -reconfigure | head -3
  
  Initializing the backend...
  
  $ cairn state list
  No state file was found!
  
  State management commands require a state file. Run this command
  in a directory where Terraform has been run or use the -state flag
  to point the command to a specific state location.
  [1]
