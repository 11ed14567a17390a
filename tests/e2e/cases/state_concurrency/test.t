Eight `cairn apply -lock-timeout=60s` processes on one state at once,
round after round (conc.py holds the details).  Each apply reads the
member list from the state it is changing and adds itself, so a lost
update (two applies working from the same read, or one overwriting the
other's write) leaves a member out.  Every round must end with all eight
members, as outputs and as instances, and serial 1 + 8.

Runs on the test builds only: CAIRN_TEST_LOCK_DELAY_MS=1 makes the lock
retries wait 1, 2, 4 ... 16 ms instead of Terraform's 1 ... 16 s (eight
processes at the real pace take a minute per round).  100 rounds in tst;
10 in san, where every apply is several times slower under ASan.

  $ if [ "$CAIRN_FLAVOUR" = tst ]; then n=100; else n=10; fi; CAIRN_TEST_LOCK_DELAY_MS=1 python3 $TESTDIR/conc.py wait $n
  ok
