Eight `cairn apply` processes on one state at once without -lock-timeout,
round after round (the script is ../state_concurrency/conc.py).  Each
either wins the lock and applies, or fails cleanly: exit 1 with "Error
acquiring the state lock" and nothing applied.  The state always parses,
holds exactly the winners' members (no lost update) with serial 1 + the
number of winners, and no lock info, journal or temp file is left.
100 rounds on the release build; 20 on san and tst.

  $ if [ "$CAIRN_FLAVOUR" = rel ]; then n=100; else n=20; fi; python3 $TESTDIR/../state_concurrency/conc.py nowait $n
  ok
