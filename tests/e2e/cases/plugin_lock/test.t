The lock file for a bare `plugin = PATH` (docs/plugins.md "Lock file"):
cairn init records the binary's h1: hash beside its path, and every
later command refuses a binary that is not the one recorded, before
running it, as Terraform refuses a package the lock file does not
record.  A changed binary is accepted by `cairn init -upgrade`.  The
plugin here is a copy of the wrapper of the Python test plugin, so that
the test can change it.

  $ mkdir -p .config/cairn objects bin
  $ printf '#!/bin/sh\nexec %s/terraform-provider-pytest "$@"\n' "$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)" > bin/terraform-provider-pytest; chmod +x bin/terraform-provider-pytest
  $ printf '[provider "cairn.test/test/pytest"]\nplugin = %s/bin/terraform-provider-pytest\n' "$PWD" > .config/cairn/cairn.ini

Before init there is nothing recorded:

  $ cairn plan -no-color > out 2>&1; echo "exit $?"; sed "s|$PWD|DIR|g" out
  exit 1
  
  Error: Inconsistent dependency lock file
  
  The following dependency selections recorded in the lock file are
  inconsistent with the current configuration:
    - provider cairn.test/test/pytest: required by this configuration but no version is selected
  
  To make the initial dependency selections that will initialize the dependency
  lock file, run:
    cairn init
  $ cairn init -no-color | grep -e Using -e success | sed "s|$PWD|DIR|g"
  - Using cairn.test/test/pytest from plugin DIR/bin/terraform-provider-pytest
  cairn has been successfully initialized!
  $ sed "s|$PWD|DIR|g; s|h1:.*\"|h1:HASH\"|" .terraform.lock.hcl
  # This file is maintained automatically by "cairn init".
  # Manual edits may be lost in future updates.
  
  provider "cairn.test/test/pytest" {
    endpoint = "plugin:DIR/bin/terraform-provider-pytest"
    identity = ""
    schema   = ""
    hashes = [
      "h1:HASH",
    ]
  }
  $ python3 h1.py bin/terraform-provider-pytest
  True
  $ cairn apply -auto-approve -no-color > /dev/null; echo "exit $?"
  exit 0

The binary changes after init: plan refuses it without starting it, init
too; init -upgrade records the new hash.

  $ echo '# patched' >> bin/terraform-provider-pytest
  $ PYPROVIDER_CALL_LOG=$PWD/calls.log cairn plan -no-color > out 2>&1; echo "exit $?"; sed "s|$PWD|DIR|g; s|h1:[A-Za-z0-9+/=]*|h1:HASH|" out
  exit 1
  
  Error: Required plugins are not installed
  
  The installed provider plugins are not consistent with the packages selected
  in the dependency lock file:
    - cairn.test/test/pytest: the plugin DIR/bin/terraform-provider-pytest does not match any of the checksums recorded in the dependency lock file (it is h1:HASH)
  
  If the plugin was replaced on purpose, run:
    cairn init -upgrade
  $ PYPROVIDER_CALL_LOG=$PWD/calls.log cairn init -no-color > out 2>&1; echo "exit $?"; sed -n '/^Error/,$p' out | tr -s '\n ' '  ' | sed "s|$PWD|DIR|g; s|h1:[A-Za-z0-9+/=]*|h1:HASH|"; echo
  exit 1
  Error: Failed to install provider Error while installing cairn.test/test/pytest from plugin DIR/bin/terraform-provider-pytest: the plugin doesn't match any of the checksums previously recorded in the dependency lock file (it is h1:HASH). If the binary was replaced on purpose, run "cairn init -upgrade" to record the new one. 
  $ test -e calls.log || echo "not started"
  not started
  $ cairn init -upgrade -no-color > /dev/null; echo "exit $?"
  exit 0
  $ python3 h1.py bin/terraform-provider-pytest
  True
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0

The host configuration names another binary: the lock file records the
first; init records the new one.

  $ cp bin/terraform-provider-pytest bin/terraform-provider-pytest_v2
  $ printf '[provider "cairn.test/test/pytest"]\nplugin = %s/bin/terraform-provider-pytest_v2\n' "$PWD" > .config/cairn/cairn.ini
  $ cairn plan -no-color > out 2>&1; echo "exit $?"; sed "s|$PWD|DIR|g" out
  exit 1
  
  Error: Inconsistent dependency lock file
  
  The following dependency selections recorded in the lock file are
  inconsistent with the current configuration:
    - provider cairn.test/test/pytest: the lock file records plugin:DIR/bin/terraform-provider-pytest, but the host configuration names the plugin DIR/bin/terraform-provider-pytest_v2
  
  To make the initial dependency selections that will initialize the dependency
  lock file, run:
    cairn init
  $ cairn init -no-color > /dev/null; echo "exit $?"
  exit 0
  $ grep endpoint .terraform.lock.hcl | sed "s|$PWD|DIR|g"
    endpoint = "plugin:DIR/bin/terraform-provider-pytest_v2"
  $ python3 h1.py bin/terraform-provider-pytest_v2
  True
  $ cairn plan -detailed-exitcode -no-color > /dev/null; echo "exit $?"
  exit 0
