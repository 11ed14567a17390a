The built-in hashicorp/external provider and data local_command: query as
JSON on stdin, the result map, stdout/stderr/exit_code, upstream's errors,
and a hanging program stopped by an interrupt.

  $ cairn apply -auto-approve -no-color > out; echo "exit $?"
  exit 0
  $ sed -n '/^Outputs/,$p' out
  Outputs:
  
  cmd = [
    <<-EOT
    got abc
    
    EOT,
    <<-EOT
    warn
    
    EOT,
    3,
  ]
  result = tomap({
    "greeting" = "hi"
    "n" = "1"
  })
  $ cat q.json; echo
  {"b":"2","name":"edge"}
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

Failures.

  $ cp fail.tf.txt main.tf
  $ cairn plan -no-color 2>&1 | grep -E '^Error|Program:|Error Message|State:|Result Error|Command|^Error: exec'
  Error: External Program Execution Failed
  Program: /.*/sh (re)
  Error Message: broken
  State: exit status 2
  Error: External Program Lookup Failed
  Program: no-such-program-xyz
  Error: exec: "no-such-program-xyz": executable file not found in $PATH
  Error: Unexpected External Program Results
  Program: /.*/sh (re)
  Result Error: json: cannot unmarshal number into Go value of type string
  Error: Command Execution Failed
  Command: /.*/sh -c echo nope >&2; exit 5 (re)
  Command Error: nope
  State: exit status 5

Started by a parent that ignores SIGCHLD (children would be reaped by the
kernel and their exit status lost), cairn still sees the failures.

  $ python3 -c 'import os, signal, sys; signal.signal(signal.SIGCHLD, signal.SIG_IGN); os.execvp("cairn", sys.argv[1:])' cairn plan -no-color 2>&1 | grep -E '^State:'
  State: exit status 2
  State: exit status 5

An interrupt kills a program that hangs.

  $ cp hang.tf.txt main.tf
  $ (cairn plan -no-color > out 2>&1 & echo $! > pid; wait $!; echo $? > status.tmp; mv status.tmp status) > /dev/null 2>&1 &
  $ while { [ ! -f started ] || [ ! -s pid ]; } && [ ! -f status ]; do :; done
  $ kill -INT $(cat pid)
  $ while [ ! -f status ]; do :; done; cat status
  1
  $ grep -E '^Error|context canceled' out
  Error: External Program Execution Failed
  Error: context canceled
