The pg backend against a real PostgreSQL (tests/pg/pgserver.sh: a private
cluster with SCRAM, md5 and cleartext-password roles, TLS with a test CA;
pg.env holds its socket directory, port and a keyword conn_str for it).

  $ sh $E2E_LIB/../../pg/pgserver.sh start
  $ . ./pg.env && echo "conn_str = \"$PGT_CONN user=cairn password=secret\"" > be.hcl
  $ printf '#!/bin/sh\n. ./pg.env\nPGPASSWORD=secret exec psql -h $PGT_SOCK -p $PGT_PORT -U cairn -d tfstate -tAc "$1"\n' > q && chmod +x q

init records the backend (with -backend-config); apply writes the state
into Terraform's table (schema, table and index created as Terraform
does), and nothing is written to a local state file:

  $ cairn init -backend-config=be.hcl | grep pg
  Successfully configured the backend "pg"! Terraform will automatically
  $ cairn apply -auto-approve | tail -1
  a = "one-default"
  $ cairn state list
  terraform_data.a
  $ cairn output a
  "one-default"
  $ cairn show -no-color | head -1
  # terraform_data.a:
  $ ./q "select name, data::json->>'serial' from terraform_remote_state.states order by name"
  default|1
  $ ./q "select indexname from pg_indexes where schemaname = 'terraform_remote_state' order by 1"
  states_by_name
  states_name_key
  states_pkey
  $ ./q "select column_default from information_schema.columns where table_schema = 'terraform_remote_state' and column_name = 'id'"
  nextval('global_states_id_seq'::regclass)
  $ ls terraform.tfstate 2>&1
  ls: cannot access 'terraform.tfstate': No such file or directory
  [2]
  $ cairn plan | tail -1
  found no differences, so no changes are needed.

Workspaces are rows:

  $ cairn workspace new dev
  Created and switched to workspace "dev"!
  
  You're now on a new, empty workspace. Workspaces isolate their state,
  so if you run "terraform plan" Terraform will not see any existing state
  for this configuration.
  $ cairn apply -auto-approve | tail -1
  a = "one-dev"
  $ cairn workspace new staging > /dev/null
  $ cairn workspace list
    default
    dev
  * staging
  
  $ ./q "select name from terraform_remote_state.states order by name"
  default
  dev
  staging
  $ cairn workspace select default
  Switched to workspace "default".
  $ cairn output a
  "one-default"
  $ cairn workspace delete staging
  Deleted workspace "staging"!
  $ cairn workspace delete dev 2>&1 | head -2
  
  Error: Workspace is not empty
  $ cairn workspace list
  * default
    dev
  

A row any client inserted, named "..", is a workspace whose working copy
stays inside .terraform/pg (its name in hex after a '%'):

  $ ./q "insert into terraform_remote_state.states (name, data) select '..', data from terraform_remote_state.states where name = 'default'"
  INSERT 0 1
  $ cairn workspace select .. && cairn state list && ls .terraform/pg
  Switched to workspace "..".
  terraform_data.a
  %2e2e
  default
  dev
  $ cairn workspace select default > /dev/null && cairn workspace delete -force .. | head -1 && ls .terraform/pg
  Deleted workspace ".."!
  default
  dev

data "terraform_remote_state" reads a workspace of the pg backend:

  $ . ./pg.env && cd reader && cairn init > /dev/null && cairn apply -auto-approve -var "conn_str=$PGT_CONN user=cairn password=secret" | tail -1
  from_dev = "one-dev"

md5 and cleartext-password authentication on the socket, PG_CONN_STR and
PG_SCHEMA_NAME; SCRAM over TLS with verify-full and the URI form:

  $ mkdir other && cp main.tf other/ && cd other && . ../pg.env && PG_CONN_STR="$PGT_CONN user=cairn_md5 password=md5pw" PG_SCHEMA_NAME=md5s cairn init > /dev/null && PG_CONN_STR="$PGT_CONN user=cairn_md5 password=md5pw" PG_SCHEMA_NAME=md5s cairn apply -auto-approve | tail -1
  a = "one-default"
  $ cd other && . ../pg.env && PG_CONN_STR="$PGT_CONN user=cairn_pw password=plainpw" PG_SCHEMA_NAME=md5s cairn state list
  
  Error: Error preparing the pg backend's schema
  
  permission denied for schema md5s (SQLSTATE 42501)
  [1]
  $ cd other && . ../pg.env && PG_CONN_STR="postgres://cairn:secret@localhost:$PGT_PORT/tfstate?sslmode=verify-full&sslrootcert=$HOME/certs/ca.crt" cairn output a
  "one-default"

A wrong password, a certificate for another host name, an untrusted CA, a
server without TLS where it is required, a bad conn_str: clear errors,
exit 1, nothing written locally.

  $ . ./pg.env && PG_CONN_STR="postgres://cairn:wrong@localhost:$PGT_PORT/tfstate?sslmode=verify-full&sslrootcert=$HOME/certs/ca.crt" cairn -chdir=other plan
  
  Error: Error connecting to the pg backend
  
  password authentication failed for user "cairn" (SQLSTATE 28P01)
  [1]
  $ . ./pg.env && PG_CONN_STR="postgres://cairn:secret@127.0.0.1:$PGT_PORT/tfstate?sslmode=verify-full&sslrootcert=$HOME/certs/ca.crt" cairn -chdir=other plan 2>&1 | sed "s/$PGT_PORT/PORT/"
  
  Error: Error connecting to the pg backend
  
  TLS connection to 127.0.0.1:PORT refused (sslmode=verify-full): the server's
  certificate does not match the host name "127.0.0.1"
  $ . ./pg.env && PG_CONN_STR="postgres://cairn:secret@127.0.0.1:$PGT_PORT/tfstate?sslmode=verify-full&sslrootcert=$HOME/certs/ca.crt" cairn -chdir=other plan > /dev/null 2>&1
  [1]
  $ . ./pg.env && PG_CONN_STR="postgres://cairn:secret@localhost:$PGT_PORT/tfstate?sslmode=verify-ca&sslrootcert=$HOME/certs/ca2.crt" cairn -chdir=other plan 2>&1 | sed "s/$PGT_PORT/PORT/;s|$HOME|HOME|"
  
  Error: Error connecting to the pg backend
  
  TLS connection to localhost:PORT refused (sslmode=verify-ca): the server's
  certificate is not signed by a trusted CA
  (HOME/certs/ca2.crt)
  $ PG_CONN_STR="bogus" cairn -chdir=other plan
  
  Error: Invalid pg backend configuration
  
  conn_str: missing "=" after "bogus" in the connection string.
  [1]
  $ PG_CONN_STR="" cairn -chdir=other plan
  
  Error: Missing required argument
  
  The argument "conn_str" is required, but no definition was found: set it in
  the backend block, with -backend-config, or in PG_CONN_STR.
  [1]
  $ ls other
  main.tf

init -migrate-state (here -force-copy) moves every local workspace into
the pg backend:

  $ mkdir mig && cd mig && echo 'resource "terraform_data" "w" { input = terraform.workspace }' > main.tf && cairn apply -auto-approve > /dev/null && cairn workspace new dev > /dev/null && cairn apply -auto-approve > /dev/null && cairn workspace select default
  Switched to workspace "default".
  $ cd mig && . ../pg.env && printf 'terraform {\n  backend "pg" {\n    schema_name = "mig"\n  }\n}\n' > be.tf && cairn init -force-copy -backend-config="conn_str=$PGT_CONN user=cairn password=secret" | grep pg
  Successfully configured the backend "pg"! Terraform will automatically
  $ ./q "select name, data::json->'resources'->0->'instances'->0->'attributes'->'input'->>'value' from mig.states order by name"
  default|default
  dev|dev
  $ cd mig && cairn workspace list
  * default
    dev
  

The server stopped: a clear error, exit 1, and no fallback to a local
state; started again, everything is there.

  $ sh $E2E_LIB/../../pg/pgserver.sh down
  $ . ./pg.env && cairn apply -auto-approve 2>&1 | sed "s|$PGT_SOCK|SOCK|;s/$PGT_PORT/PORT/"
  
  Error: Error connecting to the pg backend
  
  connection to server on socket "SOCK/.s.PGSQL.PORT" failed:
  No such file or directory (is the server running locally and accepting
  connections on that socket?)
  $ cairn apply -auto-approve > /dev/null 2>&1
  [1]
  $ ls terraform.tfstate* 2>&1
  ls: cannot access 'terraform.tfstate*': No such file or directory
  [2]
  $ sh $E2E_LIB/../../pg/pgserver.sh up
  $ cairn plan | tail -1
  found no differences, so no changes are needed.
  $ sh $E2E_LIB/../../pg/pgserver.sh stop
