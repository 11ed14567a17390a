The state commands against the pg backend (a real PostgreSQL, as in
backend_pg): taint/untaint, refresh, state rm and import, state mv,
state pull/push, destroy, and init -migrate-state back to a local state.
Each command reads and writes the row, never a local file.

  $ sh $E2E_LIB/../../pg/pgserver.sh start
  $ . ./pg.env && echo "conn_str = \"$PGT_CONN user=cairn password=secret\"" > be.hcl
  $ printf '#!/bin/sh\n. ./pg.env\nPGPASSWORD=secret exec psql -h $PGT_SOCK -p $PGT_PORT -U cairn -d tfstate -tAc "$1"\n' > q && chmod +x q
  $ cairn init -backend-config=be.hcl > /dev/null; echo "exit $?"
  exit 0
  $ cairn apply -auto-approve | tail -1
  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.
  $ ./q "select data::json->>'serial' from terraform_remote_state.states where name = 'default'"
  1

taint marks the object in the row; the plan replaces it; untaint clears it:

  $ cairn taint terraform_data.a
  Resource instance terraform_data.a has been marked as tainted.
  $ ./q "select data::json->'resources'->0->'instances'->0->>'status' from terraform_remote_state.states where name = 'default'"
  tainted
  $ cairn plan | grep -e tainted -e Plan:
    # terraform_data.a is tainted, so must be replaced
  Plan: 1 to add, 0 to change, 1 to destroy.
  $ cairn untaint terraform_data.a
  Resource instance terraform_data.a has been successfully untainted.
  $ cairn plan -detailed-exitcode > /dev/null; echo "exit $?"
  exit 0

refresh finds nothing changed and writes no new serial (taint and
untaint wrote 2 and 3):

  $ cairn refresh | tail -1
  Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
  $ ./q "select data::json->>'serial' from terraform_remote_state.states where name = 'default'"
  3

state rm forgets b; import takes it back by its id:

  $ cairn state show terraform_data.b | grep ' id ' | sed 's/"[^"]*"/"ID"/'
      id     = "ID"
  $ id=$(cairn state show terraform_data.b | sed -n 's/^ *id *= "\(.*\)"$/\1/p'); echo "$id" > b.id
  $ cairn state rm terraform_data.b
  Removed terraform_data.b
  Successfully removed 1 resource instance(s).
  $ cairn state list
  terraform_data.a
  $ cairn import terraform_data.b "$(cat b.id)" | grep successful
  Import successful!
  $ cairn state list
  terraform_data.a
  terraform_data.b

state mv renames an address in the row:

  $ sed -i 's/"terraform_data" "b"/"terraform_data" "c"/' main.tf
  $ cairn state mv terraform_data.b terraform_data.c
  Move "terraform_data.b" to "terraform_data.c"
  Successfully moved 1 object(s).
  $ cairn state list
  terraform_data.a
  terraform_data.c
  $ cairn plan | grep Plan:
  Plan: 0 to add, 1 to change, 0 to destroy.

(The update is input = "b": an imported terraform_data has no input, as
in Terraform.)

state pull prints the row's state; state push of an older serial is
refused, as Terraform refuses it; of the same lineage and a higher serial
it is written:

  $ cairn state pull > s.json; python3 -c 'import json; s=json.load(open("s.json")); print(s["serial"], len(s["resources"]))'
  6 2
  $ python3 -c 'import json; s=json.load(open("s.json")); s["serial"] -= 1; json.dump(s, open("old.json","w"))'
  $ cairn state push old.json > out 2>&1; echo "exit $?"; cat out
  exit 1
  Failed to write state: cannot import state with serial 5 over newer state with serial 6
  $ python3 -c 'import json; s=json.load(open("s.json")); s["serial"] += 5; json.dump(s, open("new.json","w"))'
  $ cairn state push new.json; echo "exit $?"
  exit 0
  $ ./q "select data::json->>'serial' from terraform_remote_state.states where name = 'default'"
  11

state replace-provider rewrites the provider of every matching resource in
the row (and back):

  $ cairn state replace-provider -auto-approve terraform.io/builtin/terraform example.com/test/other | tail -1
  Successfully replaced provider for 2 resources.
  $ ./q "select data::json->'resources'->0->>'provider' from terraform_remote_state.states where name = 'default'"
  provider["example.com/test/other"]
  $ cairn state replace-provider -auto-approve example.com/test/other terraform.io/builtin/terraform | tail -1
  Successfully replaced provider for 2 resources.
  $ cairn plan -detailed-exitcode > /dev/null; echo "exit $?"
  exit 2

Back to a local state: the backend block removed, init -migrate-state
-force-copy copies the row into terraform.tfstate.

  $ python3 -c 'import re; p="main.tf"; s=open(p).read(); open(p,"w").write(re.sub(r"terraform \{.*?\n\}\n", "", s, count=1, flags=re.S))'
  $ cairn init -migrate-state -force-copy > out 2>&1; echo "exit $?"; sed -n '/Initializing the backend/,/Initializing provider/p' out
  exit 0
  Initializing the backend...
  Terraform has detected you're unconfiguring your previously set "pg" backend.
  
  
  Successfully unset the backend "pg". Terraform will now operate locally.
  
  Initializing provider plugins...
  $ python3 -c 'import json; s=json.load(open("terraform.tfstate")); print(s["serial"], sorted(r["name"] for r in s["resources"]))'
  13 ['a', 'c']
  $ cairn destroy -auto-approve | tail -1
  Destroy complete! Resources: 2 destroyed.
  $ sh $E2E_LIB/../../pg/pgserver.sh stop
