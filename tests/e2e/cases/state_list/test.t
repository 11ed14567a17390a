state list prints instances in Terraform's order: root before modules, data
before managed, then type, name and key.

  $ cairn state list
  data.null_data_source.d
  null_resource.a
  null_resource.b[0]
  null_resource.b[1]
  module.child.null_resource.c
  $ cairn state list null_resource.b module.child
  null_resource.b[0]
  null_resource.b[1]
  module.child.null_resource.c
  $ cairn state list 'null_resource.b[1]'
  null_resource.b[1]
  $ cairn state list -id=200
  null_resource.b[0]
  $ cairn state list -id=nothing

Unknown addresses and bad syntax are errors; nothing is listed.

  $ cairn state list null_resource.zz
  
  Error: Unknown resource
  
  The current state contains no resource null_resource.zz. If you've just added
  this resource to the configuration, you must run "terraform apply" first to
  create the resource's entry in the state.
  [1]
  $ cairn state list module.nope
  
  Error: Unknown module
  
  The current state contains no module at module.nope. If you've just added
  this module to the configuration, you must run "terraform apply" first to
  create the module's entry in the state.
  [1]
  $ cairn state list 'null_resource.b[7]' null_resource.a
  
  Error: Unknown resource instance
  
  The current state contains no resource instance null_resource.b[7]. If you've
  just added its resource to the configuration or have changed the count or
  for_each arguments, you must run "terraform apply" first to update the
  resource's entry in the state.
  [1]
  $ cairn state list 'null_resource.'
  
  Error: Invalid attribute name
  
  An attribute name is required after a dot.
  [1]
  $ cairn state list -bogus
  
  Error: Failed to parse command-line flags
  
  flag provided but not defined: -bogus
  [2]

A missing state file, or an unparsable one.

  $ cairn state list -state=missing.tfstate
  No state file was found!
  
  State management commands require a state file. Run this command
  in a directory where Terraform has been run or use the -state flag
  to point the command to a specific state location.
  [1]
  $ printf '{"version": 4, "serial": "x"}' > broken.tfstate && cairn state list -state=broken.tfstate
  
  Error: Invalid state file format
  
  The state file field "serial" has invalid value string
  
  State file: broken.tfstate
  [1]
  $ cairn state list -state=terraform.tfstate null_resource.a
  null_resource.a
