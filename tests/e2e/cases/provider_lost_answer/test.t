A create whose answers are all lost (dropped after the server acted, or
timed out) may exist at the provider: its intent stays open in the
journal, and the next apply sends the same idempotency key, so the
provider answers with the object it made.  Never a second create.
(kill -9 between send and record: provider_kill.)

  $ $TESTDIR/../../../provider/mkcerts.sh certs
  $ sh $TESTDIR/../provider_faults/start.sh server
  $ printf 'retries = 1\ntimeout = 1s\n' >> cairn.ini

Every attempt of the device's create is dropped after the server made it:

  $ sh $TESTDIR/../provider_faults/admin.sh faults '{"rules":[{"call":"ApplyResourceChange","kind":"drop_after_apply","count":100}]}'
  {}
  $ sh $TESTDIR/../provider_faults/run.sh apply -auto-approve 2>&1 | sed 's/key [0-9a-f]*/key K/'
  exit 1
  Error: Provider request failed
  
    with ref_device.gw,
    on main.tf line 11, in resource "ref_device" "gw":
    11: resource "ref_device" "gw" {
  
  Provider "example.test/ref/fleet" for resource type "ref_device": The call
  /ApplyResourceChange to https://localhost:PORT/cairn/v1/ApplyResourceChange
  failed after retries: the connection was dropped: the server closed it before
  answering.
  
  Error: Object may have been created
  
    with ref_device.gw,
    on main.tf line 11, in resource "ref_device" "gw":
    11: resource "ref_device" "gw" {
  
  The provider did not answer the create of ref_device.gw, so cairn cannot tell
  whether the object exists. The create stays open in the state journal
  (idempotency key K): the next apply sends the same key, and a
  provider that made the object answers with it instead of creating a second
  one. If the object exists and the provider does not remember keys, import it
  with "cairn import" or delete it outside cairn before applying again.
  $ cairn state list
  $ grep -c '"op":"intent"' terraform.tfstate.journal
  1
  $ grep -c '"op":"resolve"' terraform.tfstate.journal
  0
  [1]
  $ sh $TESTDIR/stats.sh
  1 1 0

The fault gone, the next apply warns, resends the key and converges:

  $ sh $TESTDIR/../provider_faults/admin.sh faults '{}'
  {}
  $ sh $TESTDIR/../provider_faults/run.sh apply -auto-approve | sed 's/key [0-9a-f]*/key K/; s/at [^ ]* and/at TIME and/' | sed -n '1,4p'
  exit 0
  Warning: Possibly created but unrecorded object
  
  An earlier run started creating ref_device.gw at
  $ grep 'Apply complete' out
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  $ cairn state list
  ref_device.gw
  ref_entry.owner
  $ sh $TESTDIR/stats.sh
  2 1 1
  $ test -e terraform.tfstate.journal || echo no journal
  no journal
  $ sh $TESTDIR/../provider_faults/run.sh destroy -auto-approve
  exit 0

Every attempt times out (the server answers after 2.5 s, cairn waits 1 s):

  $ sh $TESTDIR/../provider_faults/admin.sh faults '{"rules":[{"call":"ApplyResourceChange","kind":"latency","ms":2500,"count":2}]}'
  {}
  $ sh $TESTDIR/../provider_faults/run.sh apply -auto-approve -var name=t > /dev/null; grep -c 'Object may have been created' out
  1
  $ cairn state list
  $ sh $TESTDIR/../provider_kill/waitcall.sh creates 3
  $ sh $TESTDIR/../provider_faults/admin.sh faults '{}'
  {}
  $ sh $TESTDIR/../provider_faults/run.sh apply -auto-approve -var name=t > /dev/null; grep 'Apply complete' out
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  $ cairn state list
  ref_device.gw
  ref_entry.owner
  $ sh $TESTDIR/stats.sh
  4 1 1
  $ kill $(cat pid)
