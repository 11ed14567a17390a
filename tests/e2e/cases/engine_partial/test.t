Partial failure with parallel branches: the failing instance's dependents
are skipped, independent branches complete, the state keeps what
completed, a create that fails partway is tainted, exit status 1.

  $ cairn apply -auto-approve -parallelism=4 > out 2>&1; echo "exit $?"
  exit 1
  $ grep -v '^ \|^$\|^Resource actions\|^cairn' out
  Plan: 8 to add, 0 to change, 0 to destroy.
  Changes to Outputs:
  misbehave_ok.base: Creating...
  misbehave_ok\.base: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  misbehave_ok.bad: Creating...
  misbehave_apply_partial.half: Creating...
  misbehave_ok.indep[0]: Creating...
  misbehave_ok\.indep\[0\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  misbehave_ok.indep[1]: Creating...
  misbehave_ok\.indep\[1\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  misbehave_ok.indep[2]: Creating...
  misbehave_ok\.indep\[2\]: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  Error: Failed to apply
  misbehave: apply failed as requested (fail = true).
  Error: Partial failure
  misbehave: the object was created but configuring it failed.
Nothing ran for the dependents of the failed instance.

  $ grep -c 'after_.*:' out
  0
  [1]
  $ cairn state list
  misbehave_apply_partial.half
  misbehave_ok.base
  misbehave_ok.indep[0]
  misbehave_ok.indep[1]
  misbehave_ok.indep[2]
  $ cairn output indep
  [
    "[0-9a-f-]{36}-0", (re)
    "[0-9a-f-]{36}-1", (re)
    "[0-9a-f-]{36}-2", (re)
  ]
  $ cairn plan -detailed-exitcode -refresh=false | grep '#'
    # misbehave_apply_partial.half is tainted, so must be replaced
    # misbehave_ok.after_after will be created
    # misbehave_ok.after_bad will be created
    # misbehave_ok.bad will be created
