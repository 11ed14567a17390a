The http backend against tests/http/state_server.py over TLS (GitLab's
protocol; the test CA comes from -backend-config): init records it, apply
takes the lock, reads the state, pushes it with Content-MD5 and the lock
ID, and unlocks; every other command reads it back through the backend.

  $ sh $E2E_LIB/httpstate.sh
  $ cairn init -backend-config=be.hcl | grep -i backend
  Initializing the backend...
  Successfully configured the backend "http"! Terraform will automatically
  use this backend unless the backend configuration changes.
  If you ever set or change modules or backend configuration for cairn,
  $ grep -c '"type": "http"' .terraform/terraform.tfstate
  1
  $ cairn apply -auto-approve | tail -3
  Outputs:
  
  b = "one"
  $ sed 's/ID=[0-9a-f-]*/ID=X/' srv/requests.log
  GET /state/main 404
  LOCK /state/main/lock 200
  GET /state/main 404
  POST /state/main?ID=X 200 md5=ok
  UNLOCK /state/main/lock 200
  $ python3 -c 'import json; s = json.load(open("srv/main.tfstate")); print(s["serial"], len(s["resources"]), s["outputs"]["b"]["value"])'
  1 2 one
  $ ls srv
  main.tfstate
  requests.log

The lock info sent is Terraform's (ID, Operation, Who, Version, Created,
Path empty for a remote state).

  $ rm srv/requests.log
  $ cairn plan -detailed-exitcode | tail -1
  found no differences, so no changes are needed.
  $ sed 's/ID=[0-9a-f-]*/ID=X/' srv/requests.log
  LOCK /state/main/lock 200
  GET /state/main 200
  UNLOCK /state/main/lock 200

Reading commands: no lock, one GET each.

  $ rm srv/requests.log
  $ cairn output b
  "one"
  $ cairn state list
  terraform_data.a
  terraform_data.b
  $ cairn state pull | python3 -c 'import json,sys; print(json.load(sys.stdin)["serial"])'
  1
  $ cairn show -no-color | grep -c 'resource "terraform_data"'
  2
  $ cat srv/requests.log
  GET /state/main 200
  GET /state/main 200
  GET /state/main 200
  GET /state/main 200

Writing commands push a new serial: taint, untaint, state rm, refresh,
destroy.

  $ cairn taint terraform_data.b
  Resource instance terraform_data.b has been marked as tainted.
  $ python3 -c 'import json; print(json.load(open("srv/main.tfstate"))["serial"])'
  2
  $ cairn untaint terraform_data.b
  Resource instance terraform_data.b has been successfully untainted.
  $ cairn state rm terraform_data.b | head -1
  Removed terraform_data.b
  $ python3 -c 'import json; s = json.load(open("srv/main.tfstate")); print(s["serial"], [r["name"] for r in s["resources"]])'
  4 ['a']
  $ cairn apply -auto-approve -refresh-only > /dev/null
  $ cairn destroy -auto-approve | tail -1
  Destroy complete! Resources: 1 destroyed.
  $ python3 -c 'import json; s = json.load(open("srv/main.tfstate")); print(len(s["resources"]))'
  0

-lock=false sends no LOCK.

  $ rm srv/requests.log
  $ cairn plan -lock=false > /dev/null
  $ cat srv/requests.log
  GET /state/main 200

Workspaces: Terraform's http backend has only "default".

  $ cairn workspace show
  default
  $ cairn workspace new dev
  workspaces not supported: the http backend keeps only the "default" workspace.
  [1]
  $ cairn workspace list
  workspaces not supported: the http backend keeps only the "default" workspace.
  [1]
  $ TF_WORKSPACE=dev cairn plan
  
  Error: Failed to select workspace
  
  workspaces not supported (the http backend has only the "default" workspace;
  "dev" is selected)
  [1]

A configuration without an address anywhere is Terraform's error.

  $ mkdir noaddr && cp main.tf noaddr/ && cd noaddr && cairn init
  
  Initializing the backend...
  
  Error: Invalid http backend configuration
  
  address argument is required
  [1]
  $ cd noaddr && TF_HTTP_ADDRESS=ftp://x/ cairn init
  
  Initializing the backend...
  
  Error: Invalid http backend configuration
  
  address must be HTTP or HTTPS
  [1]

  $ kill $(cat srv.pid)
