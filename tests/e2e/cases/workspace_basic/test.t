The default workspace always exists; new ones live in terraform.tfstate.d.

  $ cairn workspace list
  * default
  
  $ cairn workspace show
  default
  $ cairn workspace new dev
  Created and switched to workspace "dev"!
  
  You're now on a new, empty workspace. Workspaces isolate their state,
  so if you run "terraform plan" Terraform will not see any existing state
  for this configuration.
  $ cat .terraform/environment; echo
  dev
  $ cairn workspace new dev
  Workspace "dev" already exists
  [1]
  $ cairn workspace new 'a/b'
  
  The workspace name "a/b" is not allowed. The name must contain only URL safe
  characters, and no path separators.
  
  [1]
  $ cairn workspace new
  Expected a single argument: NAME.
  
  Usage: cairn [global options] workspace new [OPTIONS] NAME
  
    Create a new Terraform workspace.
  
  Options:
  
      -lock=false         Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.
  
      -lock-timeout=0s    Duration to retry a state lock.
  
      -state=path         Copy an existing state file into the new workspace.
  [2]
  $ cairn workspace list
    default
  * dev
  
  $ cairn workspace select default
  Switched to workspace "default".
  $ cairn workspace select default
  $ cairn workspace select nope
  
  Workspace "nope" doesn't exist.
  
  You can create this workspace with the "new" subcommand 
  or include the "-or-create" flag with the "select" subcommand.
  [1]
  $ cairn workspace select -or-create stage
  Created and switched to workspace "stage"!
  
  You're now on a new, empty workspace. Workspaces isolate their state,
  so if you run "terraform plan" Terraform will not see any existing state
  for this configuration.
  $ ls terraform.tfstate.d
  dev
  stage

Seeding a workspace from a state file, and what delete refuses.

  $ cairn workspace new -state=$TESTDIR/seed.tfstate seeded
  Created and switched to workspace "seeded"!
  
  You're now on a new, empty workspace. Workspaces isolate their state,
  so if you run "terraform plan" Terraform will not see any existing state
  for this configuration.
  $ cairn state list
  data.null_data_source.d
  null_resource.a
  null_resource.b[0]
  null_resource.b[1]
  module.child.null_resource.c
  $ grep '"serial"' terraform.tfstate.d/seeded/terraform.tfstate
    "serial": 1,
  $ stat -c %a terraform.tfstate.d/seeded/terraform.tfstate
  600
  $ cairn workspace new -state=missing.tfstate broken
  open missing.tfstate: no such file or directory
  [1]
  $ ls terraform.tfstate.d
  dev
  seeded
  stage
  $ cairn workspace delete seeded
  Workspace "seeded" is your active workspace.
  
  You cannot delete the currently active workspace. Please switch
  to another workspace and try again.
  [1]
  $ cairn workspace select dev
  Switched to workspace "dev".
  $ cairn workspace delete seeded
  
  Error: Workspace is not empty
  
  Workspace "seeded" is currently tracking the following resource instances:
    - null_resource.a
    - null_resource.b[0]
    - null_resource.b[1]
    - module.child.null_resource.c
  
  Deleting this workspace would cause Terraform to lose track of any associated
  remote objects, which would then require you to delete them manually outside
  of Terraform. You should destroy these objects with Terraform before deleting
  the workspace.
  
  If you want to delete this workspace anyway, and have Terraform forget about
  these managed objects, use the -force option to disable this safety check.
  [1]
  $ cairn workspace delete -force seeded
  Deleted workspace "seeded"!
  WARNING: "seeded" was non-empty.
  The resources managed by the deleted workspace may still exist,
  but are no longer manageable by Terraform since the state has
  been deleted.
  
  $ cairn workspace delete default
  cannot delete default state
  [1]
  $ cairn workspace delete nope
  Workspace "nope" doesn't exist.
  
  You can create this workspace with the "new" subcommand 
  or include the "-or-create" flag with the "select" subcommand.
  [1]
  $ cairn workspace delete stage
  Deleted workspace "stage"!
  $ cairn workspace list
    default
  * dev
  

TF_WORKSPACE overrides the selection.

  $ TF_WORKSPACE=default cairn workspace show
  default
  $ TF_WORKSPACE=default cairn workspace list
  * default
    dev
  
  
  
  The active workspace is being overridden using the TF_WORKSPACE environment
  variable.
  
  $ TF_WORKSPACE=dev cairn workspace select default
  
  The selected workspace is currently overridden using the TF_WORKSPACE
  environment variable.
  
  To select a new workspace, either update this environment variable or unset
  it and then run this command again.
  
  [1]
  $ TF_WORKSPACE=x/y cairn workspace show
  Error selecting workspace: Invalid workspace name set using TF_WORKSPACE
  [1]
  $ TF_WORKSPACE=other cairn workspace new dev2
  
  The workspace is currently overridden using the TF_WORKSPACE environment
  variable. You cannot create a new workspace when using this setting.
  
  To create a new workspace, either unset this environment variable or update it
  to match the workspace name you are trying to create, and then run this command
  again.
  
  [1]
  $ cairn workspace
  Usage: cairn [global options] workspace
  
    new, list, show, select and delete Terraform workspaces.
  
  Subcommands:
      delete    Delete a workspace
      list      List Workspaces
      new       Create a new workspace
      select    Select a workspace
      show      Show the name of the current workspace
