`cairn gateway` serves HashiCorp's real terraform-provider-null
($CAIRN_TESTPEER_NULL) over cairn's HTTPS provider protocol, on 127.0.0.1
with a test CA, and a second cairn process uses it through an endpoint in
its host configuration: an endpoint wins over the built-in null provider.

  $ cairn gateway -check -config nothing.ini
  
  Error: Cannot read the gateway configuration
  
  nothing.ini: No such file or directory.
  [1]
  $ sh $TESTDIR/start.sh
  $ CAIRN_CONFIG=cairn.ini cairn init | sed "s/:$(cat port)/:PORT/" | grep -e Using -e successfully
  - Using registry.terraform.io/hashicorp/null from https://localhost:PORT/providers/hashicorp/null
  cairn has been successfully initialized!

Plan and apply: the data source is read, the resource created, by the
plugin on the gateway.

  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -compact-warnings 2>&1 | grep -e Read -e Creat -e complete
  data.null_data_source.d: Reading...
  data\.null_data_source\.d: Read complete after \d+s \[id=static\] (re)
  null_resource.a: Creating...
  null_resource.a: Creation complete after \d+s \[id=\d+\] (re)
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ cairn state list
  data.null_data_source.d
  null_resource.a
  $ grep -c 'call=ApplyResourceChange status=200' gw.log
  1

The log has one line per call, and never a configuration or a value.

  $ grep 'call=ConfigureProvider' gw.log | head -1 | sed 's/peer=[^ ]*/peer=P/; s/duration=[0-9]*ms/duration=Nms/'
  gateway: client=edge peer=P provider=registry.terraform.io/hashicorp/null call=ConfigureProvider status=200 duration=Nms
  $ grep -c -e '"x"' -e 'triggers' gw.log
  0
  [1]

No changes; then a changed trigger replaces the resource.

  $ CAIRN_CONFIG=cairn.ini cairn plan -compact-warnings 2>&1 | grep -e 'No changes'
  No changes. Your infrastructure matches the configuration.
  $ sed -i 's/x = "1"/x = "2"/' main.tf
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -compact-warnings 2>&1 | grep -e 'must be replaced' -e Plan: -e 'null_resource.a: .*complete' -e 'Apply complete'
    # null_resource.a must be replaced
  Plan: 1 to add, 0 to change, 1 to destroy.
  null_resource\.a: Destruction complete after \d+s (re)
  null_resource.a: Creation complete after \d+s \[id=\d+\] (re)
  Apply complete! Resources: 1 added, 0 changed, 1 destroyed.

Idle plugins stop after the idle timeout (1 s here) and start again on the
next call.

  $ sh $TESTDIR/waitlog.sh idle
  $ grep -c 'stopped (idle)' gw.log | sed 's/^[2-9][0-9]*$/two or more/'
  two or more
  $ grep -c ' started$' gw.log > before
  $ CAIRN_CONFIG=cairn.ini cairn plan -compact-warnings 2>&1 | grep -e 'No changes'
  No changes. Your infrastructure matches the configuration.
  $ [ "$(grep -c ' started$' gw.log)" -gt "$(cat before)" ] && echo restarted
  restarted

A bad token and an unknown provider.

  $ cp token token.good; echo 'not-the-token-at-all' > token
  $ CAIRN_CONFIG=cairn.ini cairn plan 2>&1
  
  Error: Provider call failed
  
    with null_resource.a,
    on main.tf line 1, in resource "null_resource" "a":
     1: resource "null_resource" "a" {
  
  Provider "registry.terraform.io/hashicorp/null" answered
  ValidateResourceConfig for resource type "null_resource" with HTTP status 401
  (unauthorized: invalid token).
  
  Error: Provider call failed
  
    with data.null_data_source.d,
    on main.tf line 5, in data "null_data_source" "d":
     5: data "null_data_source" "d" {
  
  Provider "registry.terraform.io/hashicorp/null" answered
  ValidateDataResourceConfig for resource type "null_data_source" with HTTP
  status 401 (unauthorized: invalid token).
  [1]
  $ cp token.good token
  $ sed -i 's|providers/hashicorp/null|providers/hashicorp/nothing|' cairn.ini
  $ CAIRN_CONFIG=cairn.ini cairn plan 2>&1
  
  Error: Provider call failed
  
    with null_resource.a,
    on main.tf line 1, in resource "null_resource" "a":
     1: resource "null_resource" "a" {
  
  Provider "registry.terraform.io/hashicorp/null" answered
  ValidateResourceConfig for resource type "null_resource" with HTTP status 404
  (not_found: the gateway does not serve provider "hashicorp/nothing").
  
  Error: Provider call failed
  
    with data.null_data_source.d,
    on main.tf line 5, in data "null_data_source" "d":
     5: data "null_data_source" "d" {
  
  Provider "registry.terraform.io/hashicorp/null" answered
  ValidateDataResourceConfig for resource type "null_data_source" with HTTP
  status 404 (not_found: the gateway does not serve provider
  "hashicorp/nothing").
  [1]
  $ sh $TESTDIR/stop.sh
  $ grep -e 'stopping' -e 'stopped$' gw.log
  gateway: stopping: shutting the plugins down
  gateway: stopped

Eight clients at once, each in its own directory with its own state.

  $ sh $TESTDIR/start.sh
  $ for i in 1 2 3 4 5 6 7 8; do mkdir c$i; cp main.tf c$i/; done
  $ for i in 1 2 3 4 5 6 7 8; do (cd c$i && CAIRN_CONFIG=../cairn.ini cairn init > out 2>&1 && CAIRN_CONFIG=../cairn.ini cairn apply -auto-approve -compact-warnings > out 2>&1; echo $? > rc) & done; wait
  $ cat c*/rc | sort | uniq -c | sed 's/^ *//'
  8 0
  $ grep -h 'Apply complete' c*/out | sort | uniq -c | sed 's/^ *//'
  8 Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ grep -c 'call=ApplyResourceChange status=200' gw.log
  8
  $ sh $TESTDIR/stop.sh

The same provider over tfplugin6 (terraform-provider-null-v6) behind the
gateway: the client cannot tell the difference.

  $ rm -rf c[0-9] .terraform* terraform.tfstate*
  $ NULL_PLUGIN=terraform-provider-null-v6 sh $TESTDIR/start.sh
  $ CAIRN_CONFIG=cairn.ini cairn init > /dev/null 2>&1; echo "exit $?"
  exit 0
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -compact-warnings 2>&1 | grep -e 'null_resource.a: Creation' -e 'Apply complete'
  null_resource.a: Creation complete after \d+s \[id=\d+\] (re)
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ CAIRN_CONFIG=cairn.ini cairn destroy -auto-approve -compact-warnings 2>&1 | tail -1
  Destroy complete! Resources: 1 destroyed.
  $ cairn state list
  $ sh $TESTDIR/stop.sh
