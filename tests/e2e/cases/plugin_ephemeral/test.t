Ephemeral resources of a plugin (protocol 5.7 / 6.7): GetProviderSchema
lists pytest_secret under ephemeral_resource_schemas; every walk
validates it (ValidateEphemeralResourceConfig), opens it
(OpenEphemeralResource), and closes it at the end with the private data
Open answered (CloseEphemeralResource).  pytest_secret with renew = true
answers a renew_at already past, so the first reader after the open
(ephemeral.pytest_secret.t) makes cairn renew it first
(RenewEphemeralResource with the private data, once: the renewal answers
a renew time an hour away).  Nothing of it reaches the plan or the state.

  $ mkdir -p .config/cairn objects
  $ printf '[provider "cairn.test/test/pytest"]\nplugin = %s/terraform-provider-pytest\n' "$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)" > .config/cairn/cairn.ini
  $ cp v1.tf.txt main.tf && cairn init > /dev/null; echo "exit $?"
  exit 0
  $ cairn providers schema -json | python3 -c '
  > import json,sys
  > p = json.load(sys.stdin)["provider_schemas"]["cairn.test/test/pytest"]
  > for n, s in p["ephemeral_resource_schemas"].items(): print(n, sorted(s["block"]["attributes"]))'
  pytest_secret ['fail', 'lease', 'name', 'renew', 'value']
  $ PYPROVIDER_CALL_LOG=$PWD/calls.log cairn apply -auto-approve -no-color | grep -e ephemeral -e Apply
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
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ grep Ephemeral calls.log
  ValidateEphemeralResourceConfig pytest_secret
  ValidateEphemeralResourceConfig pytest_secret
  ValidateEphemeralResourceConfig pytest_secret
  OpenEphemeralResource pytest_secret name=db
  RenewEphemeralResource pytest_secret private={"lease": "lease-db-1", "renewed": 0}
  ValidateEphemeralResourceConfig pytest_secret
  OpenEphemeralResource pytest_secret name=from-lease-db-1
  CloseEphemeralResource pytest_secret private={"lease": "lease-db-1", "renewed": 0}
  CloseEphemeralResource pytest_secret private={"lease": "lease-from-lease-db-1-2", "renewed": 0}
  ValidateEphemeralResourceConfig pytest_secret
  OpenEphemeralResource pytest_secret name=db
  RenewEphemeralResource pytest_secret private={"lease": "lease-db-3", "renewed": 0}
  ValidateEphemeralResourceConfig pytest_secret
  OpenEphemeralResource pytest_secret name=from-lease-db-3
  CloseEphemeralResource pytest_secret private={"lease": "lease-db-3", "renewed": 0}
  CloseEphemeralResource pytest_secret private={"lease": "lease-from-lease-db-3-4", "renewed": 0}
  $ grep -c -e lease -e s3cr3t terraform.tfstate
  0
  [1]

The apply of a saved plan opens them again.

  $ PYPROVIDER_CALL_LOG=$PWD/calls2.log cairn plan -out=p -no-color > /dev/null; echo "exit $?"
  exit 0
  $ grep -c -e lease -e s3cr3t p
  0
  [1]
  $ PYPROVIDER_CALL_LOG=$PWD/calls3.log cairn apply -no-color p | grep -e ephemeral -e Apply
  ephemeral.pytest_secret.s: Opening...
  ephemeral.pytest_secret.s: Opening complete after 0s
  ephemeral.pytest_secret.t: Opening...
  ephemeral.pytest_secret.t: Opening complete after 0s
  ephemeral.pytest_secret.s: Closing...
  ephemeral.pytest_secret.s: Closing complete after 0s
  ephemeral.pytest_secret.t: Closing...
  ephemeral.pytest_secret.t: Closing complete after 0s
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  $ grep -e Open -e Renew -e Close calls3.log
  OpenEphemeralResource pytest_secret name=db
  RenewEphemeralResource pytest_secret private={"lease": "lease-db-1", "renewed": 0}
  OpenEphemeralResource pytest_secret name=from-lease-db-1
  CloseEphemeralResource pytest_secret private={"lease": "lease-db-1", "renewed": 0}
  CloseEphemeralResource pytest_secret private={"lease": "lease-from-lease-db-1-2", "renewed": 0}

The plugin's error on open, at the block, and its validation error at
the attribute.

  $ cp v2.tf.txt main.tf && cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Could not open secret
  
    with ephemeral.pytest_secret.bad,
    on main.tf line 13, in ephemeral "pytest_secret" "bad":
    13:   fail = true
  
  The secret vault is locked.
  $ cp v3.tf.txt main.tf && cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Invalid name
  
    with ephemeral.pytest_secret.e,
    on main.tf line 12, in ephemeral "pytest_secret" "e":
    12:   name = ""
  
  name must not be empty.

A plugin that lists the type but lacks the calls (gRPC Unimplemented):
Terraform's "Unsupported plugin method".

  $ cp v4.tf.txt main.tf && PYPROVIDER_NO_EPHEMERAL=1 cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Unsupported plugin method
  
    with ephemeral.pytest_secret.s,
    on main.tf line 11, in ephemeral "pytest_secret" "s":
    11: ephemeral "pytest_secret" "s" {
  
  The plugin.(*GRPCProvider).ValidateEphemeralResourceConfig method is not
  supported by this plugin.

The same over tfplugin6, with -json's ephemeral_op messages.

  $ printf '[provider "cairn.test/test/pytest"]\nplugin = %s/terraform-provider-pytest-v6\n' "$(cd "$TESTDIR/../../../peers/pyprovider" && pwd)" > .config/cairn/cairn.ini
  $ cp v1.tf.txt main.tf && cairn init > /dev/null; echo "exit $?"
  exit 0
  $ PYPROVIDER_CALL_LOG=$PWD/calls6.log cairn apply -auto-approve -json | python3 -c '
  > import json,sys
  > for l in sys.stdin:
  >     m = json.loads(l)
  >     if m["type"].startswith("ephemeral_op"): print(m["type"], m["hook"]["resource"]["addr"], m["hook"]["action"])'
  ephemeral_op_start ephemeral.pytest_secret.s open
  ephemeral_op_complete ephemeral.pytest_secret.s open
  ephemeral_op_start ephemeral.pytest_secret.t open
  ephemeral_op_complete ephemeral.pytest_secret.t open
  ephemeral_op_start ephemeral.pytest_secret.s close
  ephemeral_op_complete ephemeral.pytest_secret.s close
  ephemeral_op_start ephemeral.pytest_secret.t close
  ephemeral_op_complete ephemeral.pytest_secret.t close
  ephemeral_op_start ephemeral.pytest_secret.s open
  ephemeral_op_complete ephemeral.pytest_secret.s open
  ephemeral_op_start ephemeral.pytest_secret.t open
  ephemeral_op_complete ephemeral.pytest_secret.t open
  ephemeral_op_start ephemeral.pytest_secret.s close
  ephemeral_op_complete ephemeral.pytest_secret.s close
  ephemeral_op_start ephemeral.pytest_secret.t close
  ephemeral_op_complete ephemeral.pytest_secret.t close
  $ grep -e serving -e Open -e Renew -e Close calls6.log
  serving tfplugin6 mtls
  serving tfplugin6 mtls
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
  $ cp v2.tf.txt main.tf && cairn plan -no-color 2>&1 | sed -n '/^Error/,$p'
  Error: Could not open secret
  
    with ephemeral.pytest_secret.bad,
    on main.tf line 13, in ephemeral "pytest_secret" "bad":
    13:   fail = true
  
  The secret vault is locked.
  $ cp v1.tf.txt main.tf && cairn destroy -auto-approve -no-color | tail -1
  Destroy complete! Resources: 1 destroyed.
