Import against the reference provider over TLS: an object the server has
but the state forgot is imported with `cairn import` (ImportResourceState,
then ReadResource), and again with an import block; afterwards the plan is
empty and the server made no second object.

  $ $TESTDIR/../../../provider/mkcerts.sh certs
  $ sh $TESTDIR/../provider_lifecycle/start.sh server
  $ CAIRN_CONFIG=cairn.ini cairn init > /dev/null
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve > /dev/null; echo "exit $?"
  exit 0
  $ CAIRN_CONFIG=cairn.ini cairn state rm ref_device.gw
  Removed ref_device.gw
  Successfully removed 1 resource instance(s).
  $ CAIRN_CONFIG=cairn.ini cairn import ref_device.gw dev-1
  ref_device.gw: Importing from ID "dev-1"...
  ref_device.gw: Refreshing state... [id=dev-1]
  ref_entry.motd: Refreshing state... [id=motd]
  ref_device.gw: Import prepared!
    Prepared ref_device for import
  
  Import successful!
  
  The resources that were imported are shown above. These resources are now in
  your cairn state and will henceforth be managed by cairn.
  
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0

The same through an import block.

  $ CAIRN_CONFIG=cairn.ini cairn state rm ref_device.gw > /dev/null
  $ printf 'import {\n  to = ref_device.gw\n  id = "dev-1"\n}\n' > import.tf
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve | grep -E 'Import|Apply complete'
  ref_device.gw: Importing... [id=dev-1]
  ref_device.gw: Import complete [id=dev-1]
  Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0

An id the server does not know.

  $ CAIRN_CONFIG=cairn.ini cairn state rm ref_device.gw > /dev/null && rm import.tf
  $ CAIRN_CONFIG=cairn.ini cairn import ref_device.gw dev-99 2>&1 | grep '^Error'
  Error: Cannot import non-existent remote object
  $ sh $TESTDIR/../provider_lifecycle/admin.sh stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["creates"], s["duplicates"], s["devices"])'
  2 0 1
  $ kill $(cat pid)
