kill -9 while a create is in flight: the provider makes the object but
cairn never records the answer.  The intent record (journal, synced before
the call) carries the idempotency key, so the next apply sends the same
key, the provider answers with the object it already made, and the run
converges with no duplicate at the server.

The same for answers lost without a kill (dropped, timed out):
provider_lost_answer.

  $ $TESTDIR/../../../provider/mkcerts.sh certs
  $ sh $TESTDIR/start.sh server

The first create answers after 3 s; cairn is killed once it is sent.

  $ sh $TESTDIR/admin.sh faults '{"rules":[{"call":"ApplyResourceChange","kind":"latency","ms":3000,"count":1}]}'
  {}
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -parallelism=1 > out1 2>&1 & echo $! > cpid
  $ sh $TESTDIR/waitcall.sh ApplyResourceChange 1
  $ kill -9 $(cat cpid)
  $ grep -c '"op":"intent"' terraform.tfstate.journal
  1

The server finishes the create it was given:

  $ sh $TESTDIR/waitcall.sh creates 1
  $ sh $TESTDIR/admin.sh stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["creates"], s["duplicates"], s["devices"])'
  1 0 1

The next apply converges: four devices, each made once; the retried
create of d[0] was answered from the server's memory of its key.

  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve > out2 2>&1; echo "exit $?"
  exit 0
  $ grep 'Apply complete' out2
  Apply complete! Resources: 4 added, 0 changed, 0 destroyed.
  $ cairn state list
  ref_device.d[0]
  ref_device.d[1]
  ref_device.d[2]
  ref_device.d[3]
  $ sh $TESTDIR/admin.sh stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["creates"], s["duplicates"], s["devices"])'
  4 1 4
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode > /dev/null
  $ test -e terraform.tfstate.journal || echo no journal
  no journal
  $ kill $(cat pid)
