-config=FILE names the host configuration on every command that opens
providers: init, plan, apply, refresh, destroy and graph.  It comes before
CAIRN_CONFIG, which comes before ~/.config/cairn/cairn.ini and
/etc/cairn/cairn.ini.  Here CAIRN_CONFIG names a file that does not exist,
so a command only works when -config wins.

  $ $TESTDIR/../../../provider/mkcerts.sh certs
  $ sh $TESTDIR/start.sh hosts.ini
  $ CAIRN_CONFIG=nowhere.ini cairn init -config=hosts.ini 2>&1 | sed "s/:$(cat port)/:PORT/" | grep -e Using -e Error -e successfully
  - Using acme.test/ref/ref from https://localhost:PORT/cairn/v1
  cairn has been successfully initialized!
  $ CAIRN_CONFIG=nowhere.ini cairn plan -config=hosts.ini | grep Plan:
  Plan: 1 to add, 0 to change, 0 to destroy.
  $ CAIRN_CONFIG=nowhere.ini cairn apply -config=hosts.ini -auto-approve | tail -1
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ CAIRN_CONFIG=nowhere.ini cairn refresh -config=hosts.ini | head -1
  ref_device.d: Refreshing state... [id=dev-1]
  $ CAIRN_CONFIG=nowhere.ini cairn graph -config=hosts.ini | grep -c ref_device
  1
  $ CAIRN_CONFIG=nowhere.ini cairn destroy -config=hosts.ini -auto-approve | tail -1
  Destroy complete! Resources: 1 destroyed.

Without the flag CAIRN_CONFIG is used, and the file it names must exist:

  $ CAIRN_CONFIG=nowhere.ini cairn plan
  
  Error: Host configuration file not found
  
  The host configuration nowhere.ini (named by CAIRN_CONFIG) does not exist.
  [1]
  $ CAIRN_CONFIG=hosts.ini cairn plan | grep Plan:
  Plan: 1 to add, 0 to change, 0 to destroy.

With neither, ~/.config/cairn/cairn.ini (HOME is the scratch directory):

  $ cairn plan 2>&1 | grep -e Error -e Plan:
  Error: Failed to query available provider packages
  $ mkdir -p .config/cairn && cp hosts.ini .config/cairn/cairn.ini
  $ cairn plan | grep Plan:
  Plan: 1 to add, 0 to change, 0 to destroy.

The file named by -config must exist too, and a malformed one is an error
with file and line:

  $ cairn plan -config=missing.ini
  
  Error: Host configuration file not found
  
  The host configuration missing.ini (named by -config) does not exist.
  [1]
  $ printf '[provider "acme.test/ref/ref"]\nendpoint\n' > bad.ini
  $ cairn apply -config=bad.ini -auto-approve
  
  Error: Invalid host configuration line
  
    on bad.ini line 2:
    (source code not available)
  
  bad.ini line 2: expected "name = value", "name: value", a [section] header or
  a comment.
  [1]
show takes -config too (it decodes remote objects with their schemas):

  $ cairn show -config=nope.ini -no-color 2>&1 | grep -A2 '^Error'; echo "exit $?"
  Error: Host configuration file not found
  
  The host configuration nope.ini (named by -config) does not exist.
  exit 0
  $ kill $(cat pid)
