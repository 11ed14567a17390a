Locking through the http backend: a lock held by someone else is
Terraform's "Error acquiring the state lock" naming the holder from the
server's 423 answer; -lock-timeout waits for it; force-unlock removes it.

  $ sh $E2E_LIB/httpstate.sh
  $ cairn init -backend-config=be.hcl > /dev/null
  $ cairn apply -auto-approve > /dev/null

Alice's CI runner holds the lock (the server keeps it in srv/main.lock):

  $ cat > srv/main.lock <<'X'
  > {"ID":"11111111-2222-3333-4444-555555555555","Operation":"OperationTypeApply","Info":"","Who":"alice@ci-runner","Version":"1.9.0","Created":"2026-01-02T03:04:05.000000006Z","Path":""}
  > X
  $ cairn apply -auto-approve
  
  Error: Error acquiring the state lock
  
  Error message: HTTP remote state already locked:
  ID=11111111-2222-3333-4444-555555555555
  Lock Info:
    ID:        11111111-2222-3333-4444-555555555555
    Path:      
    Operation: OperationTypeApply
    Who:       alice@ci-runner
    Version:   1.9.0
    Created:   2026-01-02 03:04:05.000000006 +0000 UTC
    Info:      
  
  
  Terraform acquires a state lock to protect the state from being written
  by multiple users at the same time. Please resolve the issue above and try
  again. For most commands, you can disable locking with the "-lock=false"
  flag, but this is not recommended.
  [1]
  $ cairn state rm terraform_data.a 2>&1 | grep -c 'alice@ci-runner'
  1

Reading is not blocked; -lock=false goes on without the lock (and the
server refuses the write without the holder's ID: 409).

  $ cairn output b
  "one"
  $ cairn apply -auto-approve -lock=false -replace=terraform_data.a 2>&1 | grep -A1 'Error: Failed'
  Error: Failed to save state
  
  $ tail -1 srv/requests.log
  POST /state/main 409 md5=ok
  $ ls .terraform/http/
  terraform.tfstate
  terraform.tfstate.backup
  terraform.tfstate.pending

force-unlock with the holder's ID:

  $ cairn force-unlock -force 11111111-2222-3333-4444-555555555555
  Terraform state has been successfully unlocked!
  
  The state has been unlocked, and Terraform commands should now be able to
  obtain a new lock on the remote state.
  $ ls srv
  main.tfstate
  requests.log
  $ tail -1 srv/requests.log
  UNLOCK /state/main/lock 200

The next command that locks pushes the state the server refused before
(the replaced terraform_data.a), then goes on.

  $ cairn plan | tail -1
  found no differences, so no changes are needed.
  $ sed 's/ID=[0-9a-f-]*/ID=X/' srv/requests.log | tail -4
  UNLOCK /state/main/lock 200
  LOCK /state/main/lock 200
  POST /state/main?ID=X 200 md5=ok
  UNLOCK /state/main/lock 200
  $ ls .terraform/http/
  terraform.tfstate
  terraform.tfstate.backup

A lock that goes away while we wait: the server answers 423 once, and
-lock-timeout retries.

  $ echo 'LOCK locked 1' > srv/faults
  $ cairn plan -lock-timeout=10s | tail -1
  found no differences, so no changes are needed.
  $ grep LOCK srv/requests.log | tail -3 | cut -d' ' -f1,3
  LOCK 423
  LOCK 200
  UNLOCK 200

A server's 423 without lock info in the body:

  $ echo 'X' > srv/main.lock
  $ cairn plan 2>&1 | grep 'Error message'
  Error message: HTTP remote state already locked, failed to unmarshal body
  $ rm srv/main.lock
  $ kill $(cat srv.pid)
