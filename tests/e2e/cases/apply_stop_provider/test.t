An interrupt during apply sends StopProvider to the providers, so a long
operation ends early instead of running to completion (Terraform does the
same).  misbehave_ok waits delay_ms (a minute here) polling the provider's
stop flag.  The transcript waits for the first heartbeat (the create is in
flight), sends SIGINT, and waits for the apply to end.

  $ (CAIRN_TEST_HEARTBEAT_MS=20 cairn apply -auto-approve > out 2>&1 & echo $! > pid; wait $!; echo $? > status.tmp; mv status.tmp status) > /dev/null 2>&1 &
  $ while { ! grep -q 'Still creating' out 2>/dev/null || [ ! -s pid ]; } && [ ! -f status ]; do :; done; cat status 2>/dev/null || true
  $ kill -INT $(cat pid)
  $ while [ ! -f status ]; do :; done; cat status
  1
  $ grep -E '^Error|interrupt|asked' out
  Error: Operation interrupted
  The provider was asked to stop.

Nothing was recorded for the stopped create.

  $ cairn state list
