state pull prints the stored state re-serialized in the current format (the
terraform_version is kept as stored).

  $ cairn state pull > pulled.json && head -5 pulled.json
  {
    "version": 4,
    "terraform_version": "1.9.0",
    "serial": 3,
    "lineage": "11111111-2222-3333-4444-555555555555",
  $ tail -3 pulled.json
    "check_results": null
  }
  

push refuses an older serial, another lineage, or a different state with the
same serial.

  $ sed 's/"serial": 3/"serial": 2/' terraform.tfstate > old.json
  $ sed 's/11111111/99999999/' terraform.tfstate > other.json
  $ sed 's/"id": "100"/"id": "101"/' terraform.tfstate > same.json
  $ cairn state push old.json
  Failed to write state: cannot import state with serial 2 over newer state with serial 3
  [1]
  $ cairn state push other.json
  Failed to write state: cannot import state with lineage "99999999-2222-3333-4444-555555555555" over unrelated state with lineage "11111111-2222-3333-4444-555555555555"
  [1]
  $ cairn state push same.json
  Failed to write state: cannot overwrite existing state with serial 3 with a different state that has the same serial
  [1]
  $ cairn state push missing.json
  open missing.json: no such file or directory
  [1]
  $ printf '{bad' > bad.json && cairn state push bad.json
  Error reading source state "bad.json": Unsupported state file format: The state file could not be parsed as JSON: syntax error at byte offset 1.
  
  bad.json: Invalid JSON: unexpected character 'b'
  [1]
  $ cairn state push
  Exactly one argument expected.
  
  Usage: cairn [global options] state push [options] PATH
  
    Update remote state from a local state file at PATH.
  
    This command "pushes" a local state and overwrites remote state
    with a local state file. The command will protect you against writing
    an older serial or a different state file lineage unless you specify the
    "-force" flag.
  
    This command works with local state (it will overwrite the local
    state), but is less useful for this use case.
  
    If PATH is "-", then this command will read the state to push from stdin.
    Data from stdin is not streamed to the backend: it is loaded completely
    (until pipe close), verified, and then pushed.
  
  Options:
  
    -force              Write the state even if lineages don't match or the
                        remote serial is higher.
  
    -lock=false         Don't hold a state lock during the operation. This is
                        dangerous if others might concurrently run commands
                        against the same workspace.
  
    -lock-timeout=0s    Duration to retry a state lock.
  [2]
  $ grep -E '"(serial|lineage)"' terraform.tfstate
    "serial": 3,
    "lineage": "11111111-2222-3333-4444-555555555555",

-force writes it anyway: lineage and serial come from the pushed file, the
serial bumped once because the content differs.

  $ cairn state push -force same.json && grep -E '"(serial|lineage)"' terraform.tfstate
    "serial": 4,
    "lineage": "11111111-2222-3333-4444-555555555555",
  $ cairn state push -force - < other.json && grep -E '"(serial|lineage)"' terraform.tfstate
    "serial": 4,
    "lineage": "99999999-2222-3333-4444-555555555555",
  $ stat -c %a terraform.tfstate
  600

An empty state is overwritten whatever its lineage.

  $ mkdir empty && cd empty && cairn state push ../old.json && grep -E '"serial"' terraform.tfstate
    "serial": 3,
  $ cd empty && cairn state pull | grep -c null_resource
  4
  $ mkdir none && cd none && cairn state pull && echo nothing
  nothing

The written serial follows Terraform's rules (WriteStateForMigration with
the pushed serial, then WriteState bumping it once if the content differs
from what was on disk), and the replaced state goes to the backup.

  $ mkdir rules && cp $TESTDIR/terraform.tfstate rules/ && cp *.json rules/
  $ cd rules && cairn state push terraform.tfstate && grep -E '"serial"' terraform.tfstate && test ! -e terraform.tfstate.backup && echo no backup
    "serial": 3,
  no backup
  $ cd rules && sed 's/"serial": 3/"serial": 7/' terraform.tfstate > newer.json && cairn state push newer.json && grep -E '"serial"' terraform.tfstate
    "serial": 7,
  $ cd rules && sed 's/"serial": 3/"serial": 9/' same.json > newer2.json && cairn state push newer2.json && grep -E '"serial"' terraform.tfstate
    "serial": 10,
  $ cd rules && grep -E '"serial"|"id": "10' terraform.tfstate.backup
    "serial": 7,
              "id": "100",
  $ cd rules && cairn state push -force old.json && grep -E '"serial"' terraform.tfstate
    "serial": 3,

A state without a lineage is another lineage (Terraform compares the
strings); an empty input pushes a new, empty state, which only -force may
write over a non-empty one.

  $ cd rules && grep -v '"lineage"' old.json > nolineage.json && cairn state push nolineage.json
  Failed to write state: cannot import state with lineage "" over unrelated state with lineage "11111111-2222-3333-4444-555555555555"
  [1]
  $ cd rules && : > empty.json && cairn state push empty.json 2>&1 | sed 's/"[0-9a-f-]\{36\}" over/"NEW" over/'
  Failed to write state: cannot import state with lineage "NEW" over unrelated state with lineage "11111111-2222-3333-4444-555555555555"
  $ cd rules && cairn state push -force empty.json && grep -E '"serial"|"resources"' terraform.tfstate
    "serial": 1,
    "resources": [],

The push runs under the lock: a holder makes it fail without writing.

  $ cd rules && mkfifo release && (python3 $TESTDIR/hold.py >/dev/null 2>&1 &) && while [ ! -f ready ]; do :; done
  $ cd rules && cairn state push -force old.json > out 2>&1; echo "exit $?"; grep 'Error acquiring\|Error message\|ID:' out
  exit 1
  Error: Error acquiring the state lock
  Error message: resource temporarily unavailable
    ID:        00000000-1111-2222-3333-444444444444
  $ cd rules && grep -E '"serial"' terraform.tfstate
    "serial": 1,
  $ cd rules && echo done > release && while [ ! -f released ]; do :; done
  $ cd rules && cairn state push -force old.json && grep -E '"serial"' terraform.tfstate && ls -a | grep -c 'lock.info\|tmp'
    "serial": 3,
  0
  [1]
