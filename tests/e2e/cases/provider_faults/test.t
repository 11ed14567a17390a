Faults injected by the reference provider: each ends in a clear diagnostic
(naming the provider, call and resource type), a non-zero exit, and a
state that keeps what was applied.

  $ $TESTDIR/../../../provider/mkcerts.sh certs
  $ sh $TESTDIR/start.sh server
  $ printf 'retries = 4\n' >> cairn.ini

503, 429 (Retry-After: 0) and 502 answers are retried, then the apply
succeeds with no duplicate:

  $ sh $TESTDIR/admin.sh faults '{"rules":[{"call":"ApplyResourceChange","kind":"status","status":503,"count":1},{"call":"ApplyResourceChange","kind":"status","status":429,"retry_after":0,"count":1},{"call":"PlanResourceChange","kind":"status","status":502,"count":1}]}'
  {}
  $ sh $TESTDIR/run.sh apply -auto-approve
  exit 0
  $ cairn state list
  ref_device.gw
  ref_entry.owner
  $ sh $TESTDIR/admin.sh stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["creates"], s["duplicates"], s["devices"], s["entries"])'
  2 0 1 1
  $ sh $TESTDIR/run.sh destroy -auto-approve
  exit 0

A permanent 500 on the second ApplyResourceChange: the device made by the
first one stays in the state; the next apply (fault gone) only adds the
entry.

  $ sh $TESTDIR/admin.sh faults '{"rules":[{"call":"ApplyResourceChange","kind":"latency","ms":1,"count":1},{"call":"ApplyResourceChange","kind":"status","status":500,"count":100}]}'
  {}
  $ sh $TESTDIR/run.sh apply -auto-approve
  exit 1
  Error: Provider call failed
  
    with ref_entry.owner,
    on main.tf line 16, in resource "ref_entry" "owner":
    16: resource "ref_entry" "owner" {
  
  Provider "example.test/ref/fleet" answered ApplyResourceChange for resource
  type "ref_entry" with HTTP status 500 (injected: injected fault).
  $ cairn state list
  ref_device.gw
  $ sh $TESTDIR/admin.sh faults '{}'
  {}
  $ sh $TESTDIR/run.sh apply -auto-approve
  exit 0
  $ grep -c 'Resources: 1 added, 0 changed, 0 destroyed' out
  1
  $ sh $TESTDIR/admin.sh stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["creates"], s["duplicates"], s["devices"], s["entries"])'
  4 0 1 1

A truncated answer (retried, truncated every time): the state keeps the
old name.

  $ sh $TESTDIR/admin.sh faults '{"rules":[{"call":"ApplyResourceChange","kind":"truncate","count":100}]}'
  {}
  $ sh $TESTDIR/run.sh apply -auto-approve -var name=t
  exit 1
  Error: Provider request failed
  
    with ref_device.gw,
    on main.tf line 11, in resource "ref_device" "gw":
    11: resource "ref_device" "gw" {
  
  Provider "example.test/ref/fleet" for resource type "ref_device": The call
  /ApplyResourceChange to https://localhost:PORT/cairn/v1/ApplyResourceChange
  failed after retries: truncated response: the connection closed after 17 of
  1000 bytes.
  $ cairn state show ref_device.gw | grep name
      name      = "gw"

An inconsistent plan (the provider plans a name the configuration did not
ask for) is refused before anything is applied:

  $ sh $TESTDIR/admin.sh faults '{"rules":[{"call":"PlanResourceChange","kind":"inconsistent_plan","count":100}]}'
  {}
  $ sh $TESTDIR/run.sh apply -auto-approve -var name=p
  exit 1
  Error: Provider produced invalid plan
  
    with ref_device.gw,
    on main.tf line 11, in resource "ref_device" "gw":
    11: resource "ref_device" "gw" {
  
  Provider "example.test/ref/fleet" planned an invalid value for
  ref_device.gw.name: planned value cty.StringVal("p-changed") does not match
  config value cty.StringVal("p") nor prior value cty.StringVal("gw").
  
  This is a bug in the provider, which should be reported in the provider's own
  issue tracker.
  $ cairn state show ref_device.gw | grep name
      name      = "gw"

An inconsistent apply result is an error, but the object the provider
returned is what exists now, so the state records it and the next plan
corrects it:

  $ sh $TESTDIR/admin.sh faults '{"rules":[{"call":"ApplyResourceChange","kind":"inconsistent_apply","count":1}]}'
  {}
  $ sh $TESTDIR/run.sh apply -auto-approve -var name=a
  exit 1
  Error: Provider produced inconsistent result after apply
  
    with ref_device.gw,
    on main.tf line 11, in resource "ref_device" "gw":
    11: resource "ref_device" "gw" {
  
  When applying changes to ref_device.gw, provider "example.test/ref/fleet"
  produced an unexpected new value: .name: was cty.StringVal("a"), but now
  cty.StringVal("a-x").
  
  This is a bug in the provider, which should be reported in the provider's own
  issue tracker.
  $ cairn state show ref_device.gw | grep name
      name      = "a-x"
  $ sh $TESTDIR/admin.sh faults '{}'
  {}
  $ CAIRN_CONFIG=cairn.ini cairn plan -detailed-exitcode -var name=a | grep 'name '
        ~ name   = "a-x" -> "a"
  $ sh $TESTDIR/admin.sh stats | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["creates"], s["duplicates"], s["devices"], s["entries"])'
  4 0 1 1
  $ kill $(cat pid)
