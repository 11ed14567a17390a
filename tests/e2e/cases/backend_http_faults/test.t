Faults of the http backend's server (tests/http/state_server.py injects
them): retries as Terraform's (retry_max 2, waits of retry_wait_min * 2^n,
0 here), slow answers, dropped connections, and a server that stays down
while apply saves: the state is never reported as saved, nothing is lost,
and the next command pushes it.

  $ sh $E2E_LIB/httpstate.sh
  $ cairn init -backend-config=be.hcl > /dev/null

A 500 and a dropped connection on GET are retried; a slow answer waited for.

  $ printf 'GET 500 1\nGET drop 1\n' > srv/faults
  $ cairn plan > /dev/null
  $ cut -d' ' -f1,3 srv/requests.log
  GET 404
  LOCK 200
  GET 500
  GET dropped
  GET 404
  UNLOCK 200
  $ rm srv/requests.log
  $ echo 'GET slow:1500 1' > srv/faults
  $ cairn state list
  No state file was found!
  
  State management commands require a state file. Run this command
  in a directory where Terraform has been run or use the -state flag
  to point the command to a specific state location.
  [1]
  $ cut -d' ' -f1,3 srv/requests.log
  GET 404

Three 500s in a row are Terraform's "giving up": an error, not an empty state.

  $ echo 'GET 500 3' > srv/faults
  $ cairn state list
  
  Error: Failed to get state
  
  HTTP remote state internal server error
  [1]

The server fails every write while apply runs: the resources are created
and recorded on local disk, the command fails, the backend's lock stays (so
no one else writes over the newer state), the server's state is unchanged.

  $ echo 'POST 500 3' > srv/faults
  $ cairn apply -auto-approve > out 2>&1; echo $?
  1
  $ grep -c 'Creation complete' out
  2
  $ tail -5 out
  The http backend did not confirm the new state, so it is not saved there.
  Nothing is lost: it is saved in the local working copy
  .terraform/http/terraform.tfstate, and the next command that locks the state
  pushes it (the backend's lock is kept until then, so no one else writes over
  it).
  $ ls srv
  faults
  main.lock
  requests.log
  $ ls .terraform/http
  terraform.tfstate
  terraform.tfstate.pending

Reading commands use the newer local copy meanwhile; another working
directory is locked out, naming our lock.

  $ cairn output b
  "one"
  $ mkdir other && cp main.tf be.hcl other/ && cd other && cairn init -backend-config=be.hcl > /dev/null && cairn plan 2>&1 | grep -c 'Who:.*@'
  1

The server is back: the next command finds its own lock, pushes, and goes
on; the lock is released at its end.

  $ rm srv/requests.log
  $ cairn plan | tail -1
  found no differences, so no changes are needed.
  $ sed 's/ID=[0-9a-f-]*/ID=X/' srv/requests.log
  LOCK /state/main/lock 423
  POST /state/main?ID=X 200 md5=ok
  UNLOCK /state/main/lock 200
  $ python3 -c 'import json; s = json.load(open("srv/main.tfstate")); print(s["serial"], len(s["resources"]))'
  1 2
  $ ls srv .terraform/http
  .terraform/http:
  terraform.tfstate
  
  srv:
  faults
  main.tfstate
  requests.log

A connection dropped after the server stored the state (the answer lost):
the retry sends the same bytes, and the write is confirmed.

  $ echo 'POST dropafter 1' > srv/faults
  $ rm srv/requests.log
  $ cairn apply -auto-approve -replace=terraform_data.a > /dev/null
  $ sed 's/ID=[0-9a-f-]*/ID=X/' srv/requests.log
  LOCK /state/main/lock 200
  GET /state/main 200
  POST /state/main?ID=X dropped md5=ok
  POST /state/main?ID=X 200 md5=ok
  UNLOCK /state/main/lock 200
  $ ls .terraform/http
  terraform.tfstate
  terraform.tfstate.backup

Connections dropped before any answer on every attempt (curl also retries
once on its own when a kept-alive connection dies): the same as a 500.

  $ echo 'POST drop 4' > srv/faults
  $ cairn apply -auto-approve -replace=terraform_data.a 2>&1 | grep -A2 'Error:' | sed "s/:$(cat port)/:PORT/"
  Error: Failed to save state
  
  The request POST https://localhost:PORT/state/main failed after retries: the
  $ cairn plan > /dev/null
  $ ls .terraform/http
  terraform.tfstate
  terraform.tfstate.backup

An unlock the server refuses is an error, and the lock stays on the server
for force-unlock.

  $ echo 'UNLOCK 500 3' > srv/faults
  $ cairn plan 2>&1 | tail -3
  Error: Failed to unlock state
  
  Unexpected HTTP response code 500
  $ ls srv
  faults
  main.lock
  main.tfstate
  requests.log

  $ kill $(cat srv.pid)
