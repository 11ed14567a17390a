A live holder cannot be unlocked; its lock dies with it.

  $ printf '{"version":4,"serial":1,"lineage":"l","resources":[]}' > terraform.tfstate
  $ mkfifo release && (python3 $TESTDIR/hold.py >/dev/null 2>&1 &) && while [ ! -f ready ]; do :; done
  $ cairn force-unlock -force 00000000-1111-2222-3333-444444444444
  Failed to unlock state: Local state cannot be unlocked by another process
  [1]
  $ echo done > release && while [ ! -f released ]; do :; done

The holder is gone but its lock info stayed: the ID must match, and without
-force only "yes" confirms.

  $ cairn force-unlock -force wrong-id
  Failed to unlock state: invalid lock id: "wrong-id". current id: "00000000-1111-2222-3333-444444444444"
  [1]
  $ echo no | cairn force-unlock 00000000-1111-2222-3333-444444444444
  Do you really want to force-unlock?
    Terraform will remove the lock on the remote state.
    This will allow local Terraform commands to modify this state, even though it
    may still be in use. Only 'yes' will be accepted to confirm.
  
    Enter a value: 
  force-unlock cancelled.
  [1]
  $ cairn force-unlock 00000000-1111-2222-3333-444444444444
  Do you really want to force-unlock?
    Terraform will remove the lock on the remote state.
    This will allow local Terraform commands to modify this state, even though it
    may still be in use. Only 'yes' will be accepted to confirm.
  
    Enter a value: 
  Error asking for confirmation: EOF
  [1]
  $ echo yes | cairn force-unlock 00000000-1111-2222-3333-444444444444
  Do you really want to force-unlock?
    Terraform will remove the lock on the remote state.
    This will allow local Terraform commands to modify this state, even though it
    may still be in use. Only 'yes' will be accepted to confirm.
  
    Enter a value: 
  Terraform state has been successfully unlocked!
  
  The state has been unlocked, and Terraform commands should now be able to
  obtain a new lock on the remote state.
  $ ls -a | grep lock
  .terraform.tfstate.lock
  $ cairn force-unlock -force 00000000-1111-2222-3333-444444444444
  Failed to unlock state: LocalState not locked
  [1]
  $ cairn force-unlock
  Expected a single argument: LOCK_ID
  Usage: cairn [global options] force-unlock LOCK_ID
  
    Manually unlock the state for the defined configuration.
  
    This will not modify your infrastructure. This command removes the lock on the
    state for the current workspace. The behavior of this lock is dependent
    on the backend being used. Local state files cannot be unlocked by another
    process.
  
  Options:
  
    -force                 Don't ask for input for unlock confirmation.
  [2]
