A plugin that dies in the middle of a call through `cairn gateway`: the
Python test plugin, served by the gateway, kills itself (SIGKILL) inside
the ApplyResourceChange that creates pytest_thing.b (its die-on-apply
knob, tests/peers/pyprovider), after pytest_thing.a was created.  The
client gets Terraform's "Plugin did not respond", with the plugin's last
output (its stderr), through the gateway's answer and exits 1; its state
keeps pytest_thing.a; the gateway retires the dead process and starts a
fresh one on the next call.  Helpers: ../gateway_null/start.sh and
stop.sh.

  $ GW_EXTRA='idle_timeout = 10m' PYTEST=1 sh $TESTDIR/../gateway_null/start.sh
  $ sed -i "s|OBJDIR|$(cat objdir)|" main.tf
  $ echo beta > "$(cat objdir)/die-on-apply"
  $ CAIRN_CONFIG=cairn.ini cairn init > /dev/null 2>&1; echo "exit $?"
  exit 0
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve > out 2>&1; echo "exit $?"
  exit 1
  $ sed -n '/complete/p; /Error/,$p' out
  pytest_thing\.a: Creation complete after \d+s \[id=thing-1\] (re)
  Error: Plugin did not respond
  
    with pytest_thing.b,
    on main.tf line 17, in resource "pytest_thing" "b":
    17: resource "pytest_thing" "b" {
  
  The plugin encountered an error, and failed to respond to the
  plugin.(*GRPCProvider).ApplyResourceChange call. The plugin logs may contain
  more details.
  
  (cairn.test/test/pytest: Failure when receiving data from the peer)
  
  The plugin's last output:
  pytest: killed in ApplyResourceChange of beta (die-on-apply)
  
  $ cairn state list
  pytest_thing.a
  $ grep 'call=ApplyResourceChange' gw.log | sed 's/peer=[^ ]*/peer=P/; s/duration=[0-9]*ms/duration=Nms/'
  gateway: client=edge peer=P provider=cairn.test/test/pytest call=ApplyResourceChange status=200 duration=Nms
  gateway: client=edge peer=P provider=cairn.test/test/pytest call=ApplyResourceChange status=200 duration=Nms (the plugin failed (see its diagnostics))
  $ grep -c 'stopped (broken)' gw.log
  1

The gateway survives: with the knob disarmed, the next run gets a fresh
plugin process, configured from the call's provider_config, and creates
pytest_thing.b.

  $ rm "$(cat objdir)/die-on-apply"
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve > out 2>&1; echo "exit $?"
  exit 0
  $ grep -e complete out
  pytest_thing\.b: Creation complete after \d+s \[id=thing-2\] (re)
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ cairn state list
  pytest_thing.a
  pytest_thing.b

Three processes in all: the unconfigured one (schema, validation), the
configured one that died, and its replacement.

  $ grep -c ' started$' gw.log
  3
  $ sh $TESTDIR/../gateway_null/stop.sh
