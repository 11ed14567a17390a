State migration between the local backend and the http backend, both
ways, with Terraform's prompts and -force-copy.

  $ sh $E2E_LIB/httpstate.sh
  $ cairn init > /dev/null && cairn apply -auto-approve > /dev/null
  $ cp backend.tf.http backend.tf

A first configuration of the backend offers to copy the local state; "no"
starts with an empty state there and records the backend.

  $ echo no | cairn init -backend-config=be.hcl | head -12
  
  Initializing the backend...
  Do you want to copy existing state to the new backend?
    Pre-existing state was found while migrating the previous "local" backend to the
    newly configured "http" backend. No existing state was found in the newly
    configured "http" backend. Do you want to copy this state to the new "http"
    backend? Enter "yes" to copy and "no" to start with an empty state.
  
    Enter a value: 
  
  Successfully configured the backend "http"! Terraform will automatically
  use this backend unless the backend configuration changes.
  $ cairn state list
  No state file was found!
  
  State management commands require a state file. Run this command
  in a directory where Terraform has been run or use the -state flag
  to point the command to a specific state location.
  [1]
  $ cat terraform.tfstate | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["resources"]))'
  1

Now with -migrate-state and "yes": the state is copied (lineage and serial
kept), the local file emptied with a backup, as Terraform does.

  $ rm -r .terraform
  $ echo yes | cairn init -migrate-state -backend-config=be.hcl > /dev/null
  $ cairn state list
  terraform_data.a
  $ python3 -c 'import json; a = json.load(open("srv/main.tfstate")); b = json.load(open("terraform.tfstate.backup")); print(a["lineage"] == b["lineage"], a["serial"] == b["serial"])'
  True True
  $ wc -c < terraform.tfstate
  0
  $ sed 's/ID=[0-9a-f-]*/ID=X/' srv/requests.log
  GET /state/main 404
  GET /state/main 404
  GET /state/main 404
  GET /state/main 404
  LOCK /state/main/lock 200
  POST /state/main?ID=X 200 md5=ok
  UNLOCK /state/main/lock 200
  GET /state/main 200
  GET /state/main 200

Back to local: the block removed is "Backend configuration changed" until
-migrate-state, which needs an answer (-input=false cannot give one);
-force-copy answers "yes".

  $ cairn apply -auto-approve -replace=terraform_data.a > /dev/null
  $ rm backend.tf
  $ cairn init > /dev/null
  
  Error: Backend configuration changed
  
  A change in the backend configuration has been detected, which may require
  migrating existing state.
  
  If you wish to attempt automatic migration of the state, use "terraform init
  -migrate-state".
  If you wish to store the current configuration with no changes to the state,
  use "terraform init -reconfigure".
  [1]
  $ cairn init -migrate-state -input=false > /dev/null
  
  Error: Error asking for state migration action
  
  Can't ask approval for state migration when interactive input is disabled.
  
  Please remove the "-input=false" option and try again.
  [1]
  $ cairn init -migrate-state -force-copy | head -3
  
  Initializing the backend...
  Terraform has detected you're unconfiguring your previously set "http" backend.
  $ cairn state list
  terraform_data.a
  $ python3 -c 'import json; a = json.load(open("srv/main.tfstate")); b = json.load(open("terraform.tfstate")); print(a == b)'
  True
  $ grep -c backend .terraform/terraform.tfstate
  0
  [1]

  $ kill $(cat srv.pid)
