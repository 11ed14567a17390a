state rm forgets instances (a module takes its children with it).

  $ cairn state rm -dry-run module.child null_resource.b
  Would remove module.child.null_resource.c
  Would remove null_resource.b[0]
  Would remove null_resource.b[1]
  $ cairn state rm null_resource.b null_resource.nothing
  Removed null_resource.b[0]
  Removed null_resource.b[1]
  Successfully removed 2 resource instance(s).
  $ cairn state list
  data.null_data_source.d
  null_resource.a
  module.child.null_resource.c
  $ cairn state rm null_resource.nothing
  
  Error: Invalid target address
  
  No matching objects found. To view the available instances, use "terraform
  state list". Please modify the address to reference a specific instance.
  [1]
  $ cairn state rm
  At least one address is required.
  
  Usage: cairn [global options] state rm [options] ADDRESS...
  
    Remove one or more items from the Terraform state, causing Terraform to
    "forget" those items without first destroying them in the remote system.
  
    This command removes one or more resource instances from the Terraform state
    based on the addresses given. You can view and list the available instances
    with "terraform state list".
  
    If you give the address of an entire module then all of the instances in
    that module and any of its child modules will be removed from the state.
  
    If you give the address of a resource that has "count" or "for_each" set,
    all of the instances of that resource will be removed from the state.
  
  Options:
  
    -dry-run                If set, prints out what would've been removed but
                            doesn't actually remove anything.
  
    -backup=PATH            Path where Terraform should write the backup
                            state.
  
    -lock=false             Don't hold a state lock during the operation. This is
                            dangerous if others might concurrently run commands
                            against the same workspace.
  
    -lock-timeout=0s        Duration to retry a state lock.
  
    -state=PATH             Path to the state file to update. Defaults to the
                            current workspace state.
  
    -ignore-remote-version  Continue even if remote and local Terraform versions
                            are incompatible. This may result in an unusable
                            workspace, and should be used with extreme caution.
  [2]
  $ cairn state rm 'module.child.null_resource.c' && cairn state list
  Removed module.child.null_resource.c
  Successfully removed 1 resource instance(s).
  data.null_data_source.d
  null_resource.a

Another process holding the lock: the state is not touched.

  $ mkfifo release && (python3 $TESTDIR/hold.py >/dev/null 2>&1 &) && while [ ! -f ready ]; do :; done
  $ cp terraform.tfstate before
  $ cairn state rm null_resource.a
  
  Error: Error acquiring the state lock
  
  Error message: resource temporarily unavailable
  Lock Info:
    ID:        00000000-1111-2222-3333-444444444444
    Path:      terraform.tfstate
    Operation: OperationTypeApply
    Who:       someone@elsewhere
    Version:   1.9.0
    Created:   2025-03-01 10:11:12.123456789 +0000 UTC
    Info:      
  
  
  Terraform acquires a state lock to protect the state from being written
  by multiple users at the same time. Please resolve the issue above and try
  again. For most commands, you can disable locking with the "-lock=false"
  flag, but this is not recommended.
  [1]
  $ cairn state rm -lock=false -dry-run null_resource.a
  Would remove null_resource.a
  $ echo done > release && while [ ! -f released ]; do :; done
  $ cmp before terraform.tfstate && echo unchanged
  unchanged
  $ cairn state rm null_resource.a
  Removed null_resource.a
  Successfully removed 1 resource instance(s).
  $ ls -a | grep lock
  .terraform.tfstate.lock
