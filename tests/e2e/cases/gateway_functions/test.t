Provider-defined functions through `cairn gateway`: the gateway lists the
plugin's functions in its schema answer and forwards CallFunction to the
plugin's unconfigured process (the client sends no provider
configuration, as Terraform calls functions on an unconfigured
instance).  The plugin is the Python test plugin, over tfplugin5 and then
tfplugin6; a second cairn process uses it through an endpoint.

  $ sh $TESTDIR/start.sh
  $ CAIRN_CONFIG=cairn.ini cairn init | sed "s/:$(cat port)/:PORT/" | grep -e Using -e successfully
  - Using cairn.test/test/pytest from https://localhost:PORT/providers/cairn.test/test/pytest
  cairn has been successfully initialized!
  $ python3 -c '
  > import json
  > print(sorted(json.load(open(".terraform/providers/cairn.test/test/pytest/schema.json"))["functions"]))'
  ['repeat', 'upper']
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -no-color | sed -n '/^Outputs/,$p'
  Outputs:
  
  shout = "ALPHA"
  twice = "ALPHAALPHA"
  $ grep -q 'call=CallFunction status=200' gw.log && echo forwarded
  forwarded

The plugin's errors come back as Terraform words them: at the argument it
names, or for the whole call.

  $ cp bad.tf.txt bad.tf
  $ CAIRN_CONFIG=cairn.ini cairn plan -no-color > out 2>&1; echo "exit $?"; sed -n '/^Error/,$p' out
  exit 1
  Error: Invalid function argument
  
    on bad.tf line 1, in output "neg":
     1: output "neg" { value = provider::pytest::repeat("x", -1) }
  
  Invalid value for "n" parameter: must be a whole number, not negative, got
  -1.
  
  Error: Error in function call
  
    on bad.tf line 2, in output "long":
     2: output "long" { value = provider::pytest::repeat("xy", 600) }
  
  Call to function "provider::pytest::repeat" failed: the result would be
  longer than 1000 characters.
  $ rm bad.tf
  $ sh $TESTDIR/stop.sh

The same over tfplugin6.

  $ PYPLUGIN=terraform-provider-pytest-v6 sh $TESTDIR/start.sh
  $ CAIRN_CONFIG=cairn.ini cairn init -upgrade > /dev/null; echo "exit $?"
  exit 0
  $ CAIRN_CONFIG=cairn.ini cairn destroy -auto-approve -no-color > /dev/null; echo "exit $?"
  exit 0
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -no-color | sed -n '/^Outputs/,$p'
  Outputs:
  
  shout = "ALPHA"
  twice = "ALPHAALPHA"
  $ grep -e serving -e CallFunction "$(cat workdir)/cache/calls.log" | sort -u
  CallFunction repeat 'ALPHA' 2
  CallFunction upper 'alpha'
  serving tfplugin6 mtls
  $ sh $TESTDIR/stop.sh
