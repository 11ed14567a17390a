A crash mid-apply with the http backend (test builds only: the crash
points are compiled into san and tst).

  $ sh $E2E_LIB/httpstate.sh
  $ cairn init -backend-config=be.hcl > /dev/null
  $ cairn apply -auto-approve > /dev/null && cairn destroy -auto-approve > /dev/null

The process dies mid-apply (the test build's crash point 7: the journal
record of the first create is durable) before anything reaches the
server.  Its lock stays on the server until force-unlock; then the next
apply replays the journal, pushes what it holds, and finishes the rest.

  $ CAIRN_TEST_CRASH_LOG=pts CAIRN_TEST_CRASH_AT=7 cairn apply -auto-approve > /dev/null 2>&1; echo $?
  99
  $ tail -1 pts
  7 journal:synced
  $ ls .terraform/http
  terraform.tfstate
  terraform.tfstate.backup
  terraform.tfstate.journal
  $ python3 -c 'import json; s = json.load(open("srv/main.tfstate")); print(len(s["resources"]))'
  0
  $ cairn apply -auto-approve 2>&1 | grep -c 'Error acquiring the state lock'
  1
  $ cairn force-unlock -force $(python3 -c 'import json; print(json.load(open("srv/main.lock"))["ID"])') > /dev/null
  $ rm srv/requests.log
  $ cairn apply -auto-approve | grep 'Creat\|Apply'
  terraform_data.b: Creating...
  terraform_data\.b: Creation complete after \d+s \[id=[0-9a-f-]{36}\] (re)
  Apply complete! Resources: 1 added, 0 changed, 0 destroyed.
  $ sed 's/ID=[0-9a-f-]*/ID=X/' srv/requests.log
  LOCK /state/main/lock 200
  POST /state/main?ID=X 200 md5=ok
  POST /state/main?ID=X 200 md5=ok
  UNLOCK /state/main/lock 200
  $ python3 -c 'import json; s = json.load(open("srv/main.tfstate")); print(len(s["resources"]))'
  2
  $ ls .terraform/http
  terraform.tfstate
  terraform.tfstate.backup

  $ kill $(cat srv.pid)
