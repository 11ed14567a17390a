SIGINT during apply, made deterministic without sleeps: misbehave_gate
creates gate.started when its apply begins and then blocks until the file
"gate" exists.  The transcript waits for gate.started, sends SIGINT, waits
for the notice (so the signal was handled), and only then opens the gate.
The background apply's exit status lands in the file "status"; every wait
also ends when it appears, so a broken build fails instead of spinning.

  $ (cairn apply -auto-approve -parallelism=1 > out 2>&1 & echo $! > pid; wait $!; echo $? > status.tmp; mv status.tmp status) > /dev/null 2>&1 &
  $ while { [ ! -f gate.started ] || [ ! -s pid ]; } && [ ! -f status ]; do :; done; cat status 2>/dev/null || true
  $ kill -INT $(cat pid)
  $ while ! grep -q 'Stopping operation' out && [ ! -f status ]; do :; done; cat status 2>/dev/null || true
  $ touch gate
  $ while [ ! -f status ]; do :; done; cat status
  1

The operation in flight finished and was recorded; nothing new started.

  $ grep -v '^ \|^$\|^Resource actions\|^cairn' out
  Plan: 3 to add, 0 to change, 0 to destroy.
  misbehave_ok.first: Creating...
  misbehave_ok\.first: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  Interrupt received.
  Please wait for cairn to exit or data loss may occur.
  Gracefully shutting down...
  Stopping operation...
  misbehave_gate.slow: Creating...
  misbehave_gate\.slow: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  Error: Operation cancelled
  The operation was interrupted; operations already started have finished and
  are recorded.

The lock is released, the journal compacted, the state whole:

  $ ls -a | grep -c 'lock.info\|journal'
  0
  [1]
  $ cairn state list
  misbehave_gate.slow
  misbehave_ok.first

A second apply converges.

  $ cairn apply -auto-approve > out2 2>&1; echo "exit $?"
  exit 0
  $ grep 'Apply complete' out2
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ cairn plan -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0

A second SIGINT exits at once, with the gate still shut.  No snapshot was
written yet: the journal holds the completed create, and the next command
replays it (the lock info file stays behind, but the kernel dropped the
dead process's lock, so it blocks nobody).

  $ mkdir two && cp main.tf two/
  $ cd two && (cairn apply -auto-approve -parallelism=1 > out 2>&1 & echo $! > pid; wait $!; echo $? > status.tmp; mv status.tmp status) > /dev/null 2>&1 &
  $ while { [ ! -f two/gate.started ] || [ ! -s two/pid ]; } && [ ! -f two/status ]; do :; done; cat two/status 2>/dev/null || true
  $ kill -INT $(cat two/pid)
  $ while ! grep -q 'Stopping operation' two/out && [ ! -f two/status ]; do :; done; cat two/status 2>/dev/null || true
  $ kill -INT $(cat two/pid)
  $ while [ ! -f two/status ]; do :; done; cat two/status
  1
  $ grep -A1 'Two interrupts' two/out
  Two interrupts received. Exiting immediately. Note that data loss may have occurred.
  
  $ cd two && ls terraform.tfstate*
  terraform.tfstate.journal
  $ cd two && cairn state list
  misbehave_ok.first
  $ cd two && cairn plan -no-color | grep -E '^(Plan|  # )'
    # misbehave_gate.slow will be created
    # misbehave_ok.after will be created
  Plan: 2 to add, 0 to change, 0 to destroy.
  $ cd two && touch gate && cairn apply -auto-approve > out2 2>&1; echo "exit $?"
  exit 0
  $ cd two && grep 'Apply complete' out2 && cairn state list && ls -a | grep -c 'lock.info\|journal'
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  misbehave_gate.slow
  misbehave_ok.after
  misbehave_ok.first
  0
  [1]
