Ephemeral resources of a remote provider over the HTTPS protocol
(docs/provider-protocol.md): the schema answer lists ref_token under
ephemeral_resource_schemas; ValidateEphemeralResourceConfig,
OpenEphemeralResource (result, private data, renew_at),
RenewEphemeralResource and CloseEphemeralResource.  ref_token with
renew = true answers a renew_at long past, so the first reader
(ephemeral.ref_token.u) has cairn renew it; every lease is closed at the
end of each walk, none stays open, and no token reaches the state.

  $ $TESTDIR/../../../provider/mkcerts.sh certs
  $ sh $TESTDIR/start.sh server
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -no-color | grep -e ephemeral -e Apply
  ephemeral.ref_token.t: Opening...
  ephemeral.ref_token.t: Opening complete after 0s
  ephemeral.ref_token.u: Opening...
  ephemeral.ref_token.u: Opening complete after 0s
  ephemeral.ref_token.t: Closing...
  ephemeral.ref_token.t: Closing complete after 0s
  ephemeral.ref_token.u: Closing...
  ephemeral.ref_token.u: Closing complete after 0s
  ephemeral.ref_token.t: Opening...
  ephemeral.ref_token.t: Opening complete after 0s
  ephemeral.ref_token.u: Opening...
  ephemeral.ref_token.u: Opening complete after 0s
  ephemeral.ref_token.t: Closing...
  ephemeral.ref_token.t: Closing complete after 0s
  ephemeral.ref_token.u: Closing...
  ephemeral.ref_token.u: Closing complete after 0s
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ sh admin.sh stats | python3 -c '
  > import json,sys
  > s = json.load(sys.stdin)
  > print({k: v for k, v in sorted(s["calls"].items()) if "Ephemeral" in k})
  > print(s["leases"], s["closed"])'
  {'CloseEphemeralResource': 4, 'OpenEphemeralResource': 4, 'RenewEphemeralResource': 2, 'ValidateEphemeralResourceConfig': 6}
  [] ['L1 renewed=1', 'L2 renewed=0', 'L3 renewed=1', 'L4 renewed=0']
  $ grep -c tok- terraform.tfstate
  0
  [1]

The provider's error on open, at its attribute.

  $ cp bad.tf.txt bad.tf && CAIRN_CONFIG=cairn.ini cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Token refused
  
    with ephemeral.ref_token.bad,
    on bad.tf line 3, in ephemeral "ref_token" "bad":
     3:   fail   = true
  
  device d9 is locked
  $ rm bad.tf

A malformed answer is refused with a clear diagnostic.

  $ sh admin.sh faults '{"rules": [{"call": "OpenEphemeralResource", "kind": "wrong_type", "count": 1}]}' > /dev/null
  $ CAIRN_CONFIG=cairn.ini cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Invalid provider response
  
    with ephemeral.ref_token.t,
    on main.tf line 7, in ephemeral "ref_token" "t":
     7: ephemeral "ref_token" "t" {
  
  Provider "example.test/ref/fleet" sent an invalid answer to
  OpenEphemeralResource for resource type "ref_token": "result" is missing.
  $ kill $(cat pid)
