taint marks the current object of one managed instance tainted: the next
plan replaces it (replace_because_tainted); untaint makes it ready again.

  $ cairn init >/dev/null && cairn apply -auto-approve >/dev/null
  $ cairn taint terraform_data.a
  Resource instance terraform_data.a has been marked as tainted.
  $ grep -c '"status": "tainted"' terraform.tfstate
  1
  $ grep -q tainted terraform.tfstate.backup || echo backup not tainted
  backup not tainted
  $ cairn state show terraform_data.a | head -1
  # terraform_data.a: (tainted)
  $ cairn show -json | python3 -c "import json,sys; [print(r['address'], r.get('tainted', False)) for r in json.load(sys.stdin)['values']['root_module']['resources']]"
  data.null_data_source.d False
  null_resource.b[0] False
  null_resource.b[1] False
  terraform_data.a True
  $ cairn plan -no-color -out=p.bin | sed -n '/will perform/,/^Plan:/p' | sed 's/"[0-9a-f-]\{36\}"/"UUID"/'
  cairn will perform the following actions:
  
    # terraform_data.a is tainted, so must be replaced
  -/+ resource "terraform_data" "a" {
        ~ id     = "UUID" -> (known after apply)
        ~ output = "one" -> (known after apply)
          # (1 unchanged attribute hidden)
      }
  
  Plan: 1 to add, 0 to change, 1 to destroy.
  $ cairn show -json p.bin | python3 -c "import json,sys; [print(r['address'], r['change']['actions'], r.get('action_reason')) for r in json.load(sys.stdin)['resource_changes']]"
  null_resource.b[0] ['no-op'] None
  null_resource.b[1] ['no-op'] None
  terraform_data.a ['delete', 'create'] replace_because_tainted

Tainting again is allowed; so is an instance key, and a whole-resource
address means its no-key instance.

  $ cairn taint terraform_data.a
  Resource instance terraform_data.a has been marked as tainted.
  $ cairn taint 'null_resource.b[1]'
  Resource instance null_resource.b[1] has been marked as tainted.
  $ cairn untaint 'null_resource.b[1]'
  Resource instance null_resource.b[1] has been successfully untainted.
  $ cairn taint null_resource.b
  
  Error: No such resource instance
  
  There is no resource instance in the state with the address null_resource.b.
  If the resource configuration has just been added, you must run "terraform
  apply" once to create the corresponding instance(s) before they can be
  tainted.
  [1]

untaint, then the plan is empty again.

  $ cairn untaint terraform_data.a
  Resource instance terraform_data.a has been successfully untainted.
  $ grep -q '"status"' terraform.tfstate || echo no status
  no status
  $ cairn plan -no-color -detailed-exitcode > plan.txt; echo "exit $?"; tail -2 plan.txt
  exit 0
  cairn has compared your real infrastructure against your configuration and
  found no differences, so no changes are needed.
  $ cairn untaint terraform_data.a
  
  Error: Resource instance is not tainted
  
  Resource instance terraform_data.a is not currently tainted, and so it cannot
  be untainted.
  [1]

Errors: unknown instances, data sources, module addresses, bad syntax.

  $ cairn taint null_resource.nothing
  
  Error: No such resource instance
  
  There is no resource instance in the state with the address
  null_resource.nothing. If the resource configuration has just been added, you
  must run "terraform apply" once to create the corresponding instance(s)
  before they can be tainted.
  [1]
  $ cairn untaint 'null_resource.b[7]'
  
  Error: No such resource instance
  
  There is no resource instance in the state with the address
  null_resource.b[7]. If the resource configuration has just been added, you
  must run "terraform apply" once to create the corresponding instance(s)
  before they can be tainted.
  [1]
  $ cairn taint data.null_data_source.d
  Resource instance data.null_data_source.d cannot be tainted
  [1]
  $ cairn taint module.child
  
  Error: Invalid address
  
  Resource specification must include a resource type and name.
  [1]
  $ cairn taint 'null_resource.b['
  
  Error: Invalid index key
  
  Index brackets must contain either a literal number or a literal string.
  [1]
  $ cairn taint -allow-missing null_resource.nothing
  
  Warning: No such resource instance
  
  Resource instance null_resource.nothing was not found, but this is not an
  error because -allow-missing was set.
  $ cairn untaint -allow-missing null_resource.nothing
  
  Warning: No such resource instance
  
  Resource instance null_resource.nothing was not found, but this is not an
  error because -allow-missing was set.
  $ cairn taint
  The taint command expects exactly one argument.
  Usage: cairn [global options] taint [options] <address>
  
    Terraform uses the term "tainted" to describe a resource instance
    which may not be fully functional, either because its creation
    partially failed or because you've manually marked it as such using
    this command.
  
    This will not modify your infrastructure directly, but subsequent
    Terraform plans will include actions to destroy the remote object
    and create a new object to replace it.
  
    You can remove the "taint" state from a resource instance using
    the "cairn untaint" command.
  
    The address is in the usual resource address syntax, such as:
      aws_instance.foo
      aws_instance.bar[1]
      module.foo.module.bar.aws_instance.baz
  
    Use your shell's quoting or escaping syntax to ensure that the
    address will reach Terraform correctly, without any special
    interpretation.
  
  Options:
  
    -allow-missing          If specified, the command will succeed (exit code 0)
                            even if the resource is missing.
  
    -lock=false             Don't hold a state lock during the operation. This is
                            dangerous if others might concurrently run commands
                            against the same workspace.
  
    -lock-timeout=0s        Duration to retry a state lock.
  
    -ignore-remote-version  A rare option used for the remote backend only. See
                            the remote backend documentation for more information.
  
    -state, state-out, and -backup are legacy options supported for the local
    backend only. For more information, see the local backend's documentation.
  
  [1]
  $ cairn untaint a.b c.d
  The untaint command expects exactly one argument.
  Usage: cairn [global options] untaint [options] name
  
    Terraform uses the term "tainted" to describe a resource instance
    which may not be fully functional, either because its creation
    partially failed or because you've manually marked it as such using
    the "cairn taint" command.
  
    This command removes that state from a resource instance, causing
    Terraform to see it as fully-functional and not in need of
    replacement.
  
    This will not modify your infrastructure directly. It only avoids
    Terraform planning to replace a tainted instance in a future operation.
  
  Options:
  
    -allow-missing          If specified, the command will succeed (exit code 0)
                            even if the resource is missing.
  
    -lock=false             Don't hold a state lock during the operation. This is
                            dangerous if others might concurrently run commands
                            against the same workspace.
  
    -lock-timeout=0s        Duration to retry a state lock.
  
    -ignore-remote-version  A rare option used for the remote backend only. See
                            the remote backend documentation for more information.
  
    -state, state-out, and -backup are legacy options supported for the local
    backend only. For more information, see the local backend's documentation.
  
  [1]
  $ cairn taint -bogus terraform_data.a
  Usage: cairn [global options] taint [options] <address>
  
    Terraform uses the term "tainted" to describe a resource instance
    which may not be fully functional, either because its creation
    partially failed or because you've manually marked it as such using
    this command.
  
    This will not modify your infrastructure directly, but subsequent
    Terraform plans will include actions to destroy the remote object
    and create a new object to replace it.
  
    You can remove the "taint" state from a resource instance using
    the "cairn untaint" command.
  
    The address is in the usual resource address syntax, such as:
      aws_instance.foo
      aws_instance.bar[1]
      module.foo.module.bar.aws_instance.baz
  
    Use your shell's quoting or escaping syntax to ensure that the
    address will reach Terraform correctly, without any special
    interpretation.
  
  Options:
  
    -allow-missing          If specified, the command will succeed (exit code 0)
                            even if the resource is missing.
  
    -lock=false             Don't hold a state lock during the operation. This is
                            dangerous if others might concurrently run commands
                            against the same workspace.
  
    -lock-timeout=0s        Duration to retry a state lock.
  
    -ignore-remote-version  A rare option used for the remote backend only. See
                            the remote backend documentation for more information.
  
    -state, state-out, and -backup are legacy options supported for the local
    backend only. For more information, see the local backend's documentation.
  
  Error parsing command-line flags: flag provided but not defined: -bogus
  
  [1]
  $ cairn taint -lock-timeout=soon terraform_data.a
  Usage: cairn [global options] taint [options] <address>
  
    Terraform uses the term "tainted" to describe a resource instance
    which may not be fully functional, either because its creation
    partially failed or because you've manually marked it as such using
    this command.
  
    This will not modify your infrastructure directly, but subsequent
    Terraform plans will include actions to destroy the remote object
    and create a new object to replace it.
  
    You can remove the "taint" state from a resource instance using
    the "cairn untaint" command.
  
    The address is in the usual resource address syntax, such as:
      aws_instance.foo
      aws_instance.bar[1]
      module.foo.module.bar.aws_instance.baz
  
    Use your shell's quoting or escaping syntax to ensure that the
    address will reach Terraform correctly, without any special
    interpretation.
  
  Options:
  
    -allow-missing          If specified, the command will succeed (exit code 0)
                            even if the resource is missing.
  
    -lock=false             Don't hold a state lock during the operation. This is
                            dangerous if others might concurrently run commands
                            against the same workspace.
  
    -lock-timeout=0s        Duration to retry a state lock.
  
    -ignore-remote-version  A rare option used for the remote backend only. See
                            the remote backend documentation for more information.
  
    -state, state-out, and -backup are legacy options supported for the local
    backend only. For more information, see the local backend's documentation.
  
  Error parsing command-line flags: invalid value "soon" for flag -lock-timeout: parse error
  
  [1]

A tainted object is replaced by apply and the replacement is ready.

  $ cairn taint terraform_data.a >/dev/null && cairn apply -auto-approve -no-color | grep -c 'Destroying\|Creating'
  2
  $ grep -q '"status"' terraform.tfstate || echo no status
  no status

-state, -state-out and -backup (legacy local-backend options).

  $ cp terraform.tfstate other.tfstate
  $ cairn taint -state=other.tfstate -state-out=out.tfstate -backup=- terraform_data.a
  Resource instance terraform_data.a has been marked as tainted.
  $ grep -c '"status": "tainted"' other.tfstate out.tfstate
  other.tfstate:0
  out.tfstate:1
  $ ls other.tfstate.backup out.tfstate.backup 2>&1 | sort
  ls: cannot access 'other.tfstate.backup': No such file or directory
  ls: cannot access 'out.tfstate.backup': No such file or directory
  $ cairn untaint -state=out.tfstate -backup=mine.backup terraform_data.a
  Resource instance terraform_data.a has been successfully untainted.
  $ grep -c '"status": "tainted"' out.tfstate mine.backup
  out.tfstate:0
  mine.backup:1

An object that is only deposed (part-way through create_before_destroy).

  $ python3 -c "
  > import json; s = json.load(open('other.tfstate'))
  > for r in s['resources']:
  >     if r['type'] == 'terraform_data':
  >         r['instances'][0]['deposed'] = '00000001'
  > json.dump(s, open('deposed.tfstate', 'w'), indent=2)"
  $ cairn taint -state=deposed.tfstate terraform_data.a
  
  Error: No such resource instance
  
  Resource instance terraform_data.a is currently part-way through a
  create_before_destroy replacement action. Run "terraform apply" to complete
  its replacement before tainting it.
  [1]
  $ cairn untaint -state=deposed.tfstate terraform_data.a
  
  Error: No such resource instance
  
  Resource instance terraform_data.a is currently part-way through a
  create_before_destroy replacement action. Run "terraform apply" to complete
  its replacement before tainting it.
  [1]

No state at all, or an empty one.

  $ mkdir empty && cd empty && cairn taint null_resource.a
  
  Error: No such resource instance
  
  The state currently contains no resource instances whatsoever. This may occur
  if the configuration has never been applied or if it has recently been
  destroyed.
  [1]
  $ cd empty && cairn untaint -allow-missing null_resource.a
  
  Warning: No such resource instance
  
  Resource instance null_resource.a was not found, but this is not an error
  because -allow-missing was set.
  $ cd empty && ls -a
  .
  ..
  .terraform.tfstate.lock

Another process holding the lock: nothing changes; -lock=false ignores it.

  $ mkfifo release && (python3 $TESTDIR/hold.py >/dev/null 2>&1 &) && while [ ! -f ready ]; do :; done
  $ cp terraform.tfstate before
  $ cairn taint terraform_data.a
  
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
  $ cmp before terraform.tfstate && echo unchanged
  unchanged
  $ cairn taint -lock=false terraform_data.a
  Resource instance terraform_data.a has been marked as tainted.
  $ echo > release && while [ ! -f released ]; do :; done
  $ cairn untaint -lock-timeout=1s terraform_data.a
  Resource instance terraform_data.a has been successfully untainted.

Help.

  $ cairn taint -h | head -1
  Usage: cairn [global options] taint [options] <address>
  $ cairn untaint -help | head -1
  Usage: cairn [global options] untaint [options] name
