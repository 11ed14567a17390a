Locking through the pg backend: two operators (working directories a and
b) share one state in PostgreSQL.  The lock is Terraform's: session-level
advisory locks on the row's id and on -1, so cairn and Terraform exclude
each other.  a's apply holds the lock until the file go exists.

  $ sh $E2E_LIB/../../pg/pgserver.sh start
  $ . ./pg.env && echo "conn_str = \"$PGT_CONN user=cairn password=secret\"" > be.hcl
  $ printf '#!/bin/sh\n. ./pg.env\nPGPASSWORD=secret exec psql -h $PGT_SOCK -p $PGT_PORT -U cairn -d tfstate -tAc "$1"\n' > q && chmod +x q
  $ cd a && cairn init -backend-config=../be.hcl > /dev/null
  $ cd b && cairn init -backend-config=../be.hcl > /dev/null
  $ (cd a && cairn apply -auto-approve > ../a.log 2>&1; echo $? > ../a.rc) > /dev/null 2>&1 &
  $ while [ ! -f started ]; do sleep 0.1; done

b fails at once, naming the holder (its lock ID, user and session):

  $ cd b && cairn apply -auto-approve
  
  Error: Error acquiring the state lock
  
  Error message: Already locked for workspace creation: default
  Lock Info:
    ID:        ????????-????-????-????-???????????? (glob)
    Path:      -1
    Operation: 
    Who:       cairn@local socket
    Version:   
    Created:   
    Info:      PostgreSQL session pid * (application_name "cairn *"), connected at * (glob)
  
  
  Terraform acquires a state lock to protect the state from being written
  by multiple users at the same time. Please resolve the issue above and try
  again. For most commands, you can disable locking with the "-lock=false"
  flag, but this is not recommended.
  [1]

With -lock-timeout b waits; when a is done, b goes on from a's state: it
adds only its own resource, and neither update is lost.

  $ (cd b && cairn apply -auto-approve -lock-timeout=60s > ../b.log 2>&1; echo $? > ../b.rc) > /dev/null 2>&1 &
  $ while ! grep -q 'Acquiring state lock' b.log 2>/dev/null; do sleep 0.1; done
  $ touch go
  $ while [ ! -f a.rc ] || [ ! -f b.rc ]; do sleep 0.1; done
  $ cat a.rc b.rc
  0
  0
  $ grep -c 'Creation complete' a.log b.log
  a.log:1
  b.log:1
  $ grep Plan: b.log
  Plan: 1 to add, 0 to change, 0 to destroy.
  $ cd b && cairn state list
  terraform_data.a
  terraform_data.b

kill -9 of the holder: its session ends with it, and so does the lock.

  $ rm -f go started && cp b/main.tf a/main.tf
  $ cd a && { cairn apply -auto-approve -replace=terraform_data.a > ../k.log 2>&1 & echo $! > ../k.pid; }
  $ while [ ! -f started ]; do sleep 0.1; done
  $ cd b && cairn plan 2>&1 | grep 'Error message'
  Error message: Workspace is already locked: default
  $ kill -9 $(cat k.pid) && touch go
  $ cd b && cairn plan -lock-timeout=30s | tail -1
  found no differences, so no changes are needed.

force-unlock of a holder that hangs: the session carrying the lock ID is
terminated (only its own session can release an advisory lock); the
holder's later write then fails, never reported as saved (it stays in
a's working copy, pushed by a's next command).

  $ rm -f go started
  $ (cd a && cairn apply -auto-approve -replace=terraform_data.a > ../h.log 2>&1; echo $? > ../h.rc) > /dev/null 2>&1 &
  $ while [ ! -f started ]; do sleep 0.1; done
  $ cd b && cairn plan 2>&1 | sed -n 's/^  ID: *//p' > ../lock.id && wc -l < ../lock.id
  1
  $ cd b && cairn force-unlock -force 00000000-0000-0000-0000-000000000000
  Failed to unlock state: No PostgreSQL session holds a lock of the "default" workspace with the ID 00000000-0000-0000-0000-000000000000. A pg lock lives as long as the session that took it: if that process has ended, its lock is already gone.
  [1]
  $ cd b && cairn force-unlock -force $(cat ../lock.id)
  Terraform state has been successfully unlocked!
  
  The state has been unlocked, and Terraform commands should now be able to
  obtain a new lock on the remote state.
  $ cd b && cairn plan | tail -1
  found no differences, so no changes are needed.
  $ touch go && while [ ! -f h.rc ]; do sleep 0.1; done && cat h.rc
  1
  $ grep -A3 'Error: Failed to save state' h.log
  Error: Failed to save state
  
  server closed the connection unexpectedly
  (/tmp/cairn-pg-*/.s.PGSQL.*): the server may have stopped or (glob)

The server restarted in the middle of an apply: the write fails, never
reported as saved; the database keeps the whole state it had (the one a
pushed when it took the lock); the next command pushes the working copy.

  $ rm -f go started
  $ (cd a && cairn apply -auto-approve -replace=terraform_data.a > ../r.log 2>&1; echo $? > ../r.rc) > /dev/null 2>&1 &
  $ while [ ! -f started ]; do sleep 0.1; done
  $ ./q "select data::json->>'serial' from terraform_remote_state.states" > serial.before
  $ sh $E2E_LIB/../../pg/pgserver.sh down && sh $E2E_LIB/../../pg/pgserver.sh up && touch go
  $ while [ ! -f r.rc ]; do sleep 0.1; done && cat r.rc
  1
  $ grep -A3 'Error: Failed to save state' r.log
  Error: Failed to save state
  
  server closed the connection unexpectedly
  (/tmp/cairn-pg-*/.s.PGSQL.*): the server may have stopped or (glob)
  $ ./q "select data::json->>'serial' from terraform_remote_state.states" | cmp - serial.before && echo unchanged
  unchanged
  $ ./q "select (data::json->>'serial')::int - $(cat serial.before) from terraform_remote_state.states" 
  0
  $ cd a && cairn plan | tail -1
  found no differences, so no changes are needed.
  $ ./q "select (data::json->>'serial')::int > $(cat serial.before) from terraform_remote_state.states"
  t
  $ ls a/.terraform/pg/default/
  terraform.tfstate
  terraform.tfstate.backup
  $ sh $E2E_LIB/../../pg/pgserver.sh stop
