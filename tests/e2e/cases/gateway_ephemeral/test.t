Ephemeral resources through `cairn gateway`: the gateway lists the
plugin's ephemeral_resource_schemas in its schema answer and forwards
ValidateEphemeralResourceConfig, OpenEphemeralResource (result, private
data, renew_at), RenewEphemeralResource and CloseEphemeralResource from
the HTTPS protocol to the plugin (the Python test plugin, tfplugin5 then
tfplugin6; helpers: ../gateway_functions/start.sh and stop.sh).

  $ sh $TESTDIR/../gateway_functions/start.sh
  $ sed "s|STATEDIR|$(cat workdir)/cache|" $TESTDIR/main.tf.txt > main.tf
  $ CAIRN_CONFIG=cairn.ini cairn init > /dev/null; echo "exit $?"
  exit 0
  $ python3 -c '
  > import json
  > print(sorted(json.load(open(".terraform/providers/cairn.test/test/pytest/schema.json"))["ephemeral_resource_schemas"]))'
  ['pytest_secret']
  $ CAIRN_CONFIG=cairn.ini cairn apply -auto-approve -no-color | grep -e ephemeral -e Apply
  ephemeral.pytest_secret.s: Opening...
  ephemeral.pytest_secret.s: Opening complete after 0s
  ephemeral.pytest_secret.t: Opening...
  ephemeral.pytest_secret.t: Opening complete after 0s
  ephemeral.pytest_secret.s: Closing...
  ephemeral.pytest_secret.s: Closing complete after 0s
  ephemeral.pytest_secret.t: Closing...
  ephemeral.pytest_secret.t: Closing complete after 0s
  ephemeral.pytest_secret.s: Opening...
  ephemeral.pytest_secret.s: Opening complete after 0s
  ephemeral.pytest_secret.t: Opening...
  ephemeral.pytest_secret.t: Opening complete after 0s
  ephemeral.pytest_secret.s: Closing...
  ephemeral.pytest_secret.s: Closing complete after 0s
  ephemeral.pytest_secret.t: Closing...
  ephemeral.pytest_secret.t: Closing complete after 0s
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  $ grep -o 'call=[A-Za-z]*Ephemeral[A-Za-z]* status=200' gw.log | sort | uniq -c | sed 's/^ *//'
  4 call=CloseEphemeralResource status=200
  4 call=OpenEphemeralResource status=200
  2 call=RenewEphemeralResource status=200
  6 call=ValidateEphemeralResourceConfig status=200
  $ grep -e Open -e Renew -e Close "$(cat workdir)/cache/calls.log"
  OpenEphemeralResource pytest_secret name=db
  RenewEphemeralResource pytest_secret private={"lease": "lease-db-1", "renewed": 0}
  OpenEphemeralResource pytest_secret name=from-lease-db-1
  CloseEphemeralResource pytest_secret private={"lease": "lease-db-1", "renewed": 0}
  CloseEphemeralResource pytest_secret private={"lease": "lease-from-lease-db-1-2", "renewed": 0}
  OpenEphemeralResource pytest_secret name=db
  RenewEphemeralResource pytest_secret private={"lease": "lease-db-3", "renewed": 0}
  OpenEphemeralResource pytest_secret name=from-lease-db-3
  CloseEphemeralResource pytest_secret private={"lease": "lease-db-3", "renewed": 0}
  CloseEphemeralResource pytest_secret private={"lease": "lease-from-lease-db-3-4", "renewed": 0}

The plugin's error on open reaches the client at its attribute.

  $ cp $TESTDIR/bad.tf.txt bad.tf
  $ CAIRN_CONFIG=cairn.ini cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Could not open secret
  
    with ephemeral.pytest_secret.bad,
    on bad.tf line 3, in ephemeral "pytest_secret" "bad":
     3:   fail = true
  
  The secret vault is locked.
  $ rm bad.tf
  $ sh $TESTDIR/../gateway_functions/stop.sh

The same over tfplugin6.

  $ PYPLUGIN=terraform-provider-pytest-v6 sh $TESTDIR/../gateway_functions/start.sh
  $ sed "s|STATEDIR|$(cat workdir)/cache|" $TESTDIR/main.tf.txt > main.tf
  $ CAIRN_CONFIG=cairn.ini cairn init -upgrade > /dev/null; echo "exit $?"
  exit 0
  $ CAIRN_CONFIG=cairn.ini cairn plan -no-color | grep -e ephemeral
  ephemeral.pytest_secret.s: Opening...
  ephemeral.pytest_secret.s: Opening complete after 0s
  ephemeral.pytest_secret.t: Opening...
  ephemeral.pytest_secret.t: Opening complete after 0s
  ephemeral.pytest_secret.s: Closing...
  ephemeral.pytest_secret.s: Closing complete after 0s
  ephemeral.pytest_secret.t: Closing...
  ephemeral.pytest_secret.t: Closing complete after 0s
  $ grep -e serving -e Open -e Renew -e Close "$(cat workdir)/cache/calls.log"
  serving tfplugin6 mtls
  serving tfplugin6 mtls
  OpenEphemeralResource pytest_secret name=db
  RenewEphemeralResource pytest_secret private={"lease": "lease-db-1", "renewed": 0}
  OpenEphemeralResource pytest_secret name=from-lease-db-1
  CloseEphemeralResource pytest_secret private={"lease": "lease-db-1", "renewed": 0}
  CloseEphemeralResource pytest_secret private={"lease": "lease-from-lease-db-1-2", "renewed": 0}
  $ sh $TESTDIR/../gateway_functions/stop.sh
