Renames: a dry run changes nothing, a real move bumps the serial and writes a
timestamped backup of the state as it was.

  $ cairn state mv -dry-run null_resource.a null_resource.z
  Would move "null_resource.a" to "null_resource.z"
  $ grep '"serial"' terraform.tfstate
    "serial": 3,
  $ cairn state mv null_resource.a null_resource.z
  Move "null_resource.a" to "null_resource.z"
  Successfully moved 1 object(s).
  $ grep '"serial"' terraform.tfstate
    "serial": 4,
  $ ls terraform.tfstate.*.backup | wc -l
  1
  $ grep -c '"id": "100"' terraform.tfstate.*.backup
  1
  $ stat -c %a terraform.tfstate
  600
  $ cairn state mv 'null_resource.b[1]' null_resource.q
  Move "null_resource.b[1]" to "null_resource.q"
  Successfully moved 1 object(s).
  $ cairn state mv module.child module.other
  Move "module.child" to "module.other"
  Successfully moved 1 object(s).
  $ cairn state list
  data.null_data_source.d
  null_resource.b[0]
  null_resource.q
  null_resource.z
  module.other.null_resource.c

Moving into another state file with -state-out.

  $ cairn state mv -state-out=other.tfstate null_resource.q null_resource.q
  Move "null_resource.q" to "null_resource.q"
  Successfully moved 1 object(s).
  $ cairn state list -state=other.tfstate
  null_resource.q
  $ cairn state list
  data.null_data_source.d
  null_resource.b[0]
  null_resource.z
  module.other.null_resource.c

Validation errors leave the state untouched.

  $ cp terraform.tfstate before
  $ cairn state mv null_resource.z data.null_resource.z
  
  Error: Invalid state move request
  
  Cannot move null_resource.z to data.null_resource.z: a managed resource can
  be moved only to another managed resource address.
  [1]
  $ cairn state mv null_resource.z null_data.z
  
  Error: Invalid state move request
  
  Cannot move null_resource.z to null_data.z: resource types don't match.
  [1]
  $ cairn state mv null_resource.z 'null_resource.b[0]'
  
  Error: Invalid target address
  
  Cannot move to null_resource.b[0]: there is already a resource instance at
  that address in the current state.
  [1]
  $ cairn state mv 'null_resource.b' module.x
  
  Error: Invalid target address
  
  Cannot move null_resource.b to module.x: the source is a whole resource (not
  a resource instance) so the target must also be a whole resource.
  [1]
  $ cairn state mv null_resource.nope null_resource.y
  
  Error: Invalid source address
  
  Cannot move null_resource.nope: does not match anything in the current state.
  [1]
  $ cairn state mv module.other module.other
  Error moving state: destination module already exists
  
  Please ensure your addresses and state paths are valid. No
  state was persisted. Your existing states are untouched.
  [1]
  $ cairn state mv 'null_resource.[' x.y
  
  Error: Invalid attribute name
  
  An attribute name is required after a dot.
  [1]
  $ cairn state mv only-one
  Exactly two arguments expected.
  
  Usage: cairn [global options] state mv [options] SOURCE DESTINATION
  
   This command will move an item matched by the address given to the
   destination address. This command can also move to a destination address
   in a completely different state file.
  
   This can be used for simple resource renaming, moving items to and from
   a module, moving entire modules, and more. And because this command can also
   move data to a completely new state, it can also be used for refactoring
   one configuration into multiple separately managed Terraform configurations.
  
   This command will output a backup copy of the state prior to saving any
   changes. The backup cannot be disabled. Due to the destructive nature
   of this command, backups are required.
  
   If you're moving an item to a different state file, a backup will be created
   for each state file.
  
  Options:
  
    -dry-run                If set, prints out what would've been moved but doesn't
                            actually move anything.
  
    -lock=false             Don't hold a state lock during the operation. This is
                            dangerous if others might concurrently run commands
                            against the same workspace.
  
    -lock-timeout=0s        Duration to retry a state lock.
  
    -ignore-remote-version  A rare option used for the remote backend only. See
                            the remote backend documentation for more information.
  
    -state, state-out, and -backup are legacy options supported for the local
    backend only. For more information, see the local backend's documentation.
  [2]
  $ cairn state mv -lock-timeout=soon a.b c.d
  
  Error: Failed to parse command-line flags
  
  invalid value "soon" for flag -lock-timeout: parse error
  [2]
  $ cmp before terraform.tfstate && echo unchanged
  unchanged
