/*
** test_procpool: the gateway's keyed instance pool (net/procpool.c), with
** cairn's built-in null provider standing in for a plugin process: the
** pool's rules (reuse, cap, eviction, idle stop, broken instances) do not
** depend on what the instance is.
*/
#include <string.h>

#include "net/procpool.h"
#include "t.h"

typedef struct Rec {
  int opened;
  int fail_next;
  char events[64][96];
  int nevents;
} Rec;

static Prov *open_null(void *ctx, Arena *a, const char *key, void *arg)
{
  (void)key;
  (void)arg;
  Rec *r = ctx;
  if (r->fail_next) {
    r->fail_next = 0;
    return NULL;
  }
  r->opened++;
  return prov_open_builtin(a, &prov_null_builtin);
}

static void log_ev(void *ctx, const char *key, const char *event)
{
  Rec *r = ctx;
  if (r->nevents < 64)
    snprintf(r->events[r->nevents++], 96, "%s %s", key, event);
}

static bool has_event(Rec *r, const char *s)
{
  for (int i = 0; i < r->nevents; i++)
    if (strcmp(r->events[i], s) == 0)
      return true;
  return false;
}

static void test_reuse_and_ready(void)
{
  Arena a;
  arena_init(&a, 0);
  Rec r = {0};
  Procpool *pp = procpool_new(&a, 2, 1000, open_null, log_ev, &r);
  bool fresh, full;
  ProcpoolEntry *e1 = procpool_get(pp, "k1", NULL, &fresh, &full);
  T_CHECK(e1 && fresh && !full);
  T_CHECK(procpool_prov(e1) != NULL);
  procpool_ready(pp, e1, true);
  ProcpoolEntry *e2 = procpool_get(pp, "k1", NULL, &fresh, &full);
  T_CHECK(e2 == e1 && !fresh);
  procpool_put(pp, e1, false);
  procpool_put(pp, e2, false);
  T_EQ_INT(r.opened, 1);
  T_EQ_INT(procpool_count(pp), 1);
  T_CHECK(has_event(&r, "k1 started"));
  procpool_shutdown(pp);
  T_EQ_INT(procpool_count(pp), 0);
  T_CHECK(has_event(&r, "k1 stopped (shutdown)"));
  arena_release(&a);
}

static void test_cap_and_eviction(void)
{
  Arena a;
  arena_init(&a, 0);
  Rec r = {0};
  Procpool *pp = procpool_new(&a, 2, 1000, open_null, log_ev, &r);
  bool fresh, full;
  ProcpoolEntry *e1 = procpool_get(pp, "k1", NULL, &fresh, &full);
  procpool_ready(pp, e1, true);
  ProcpoolEntry *e2 = procpool_get(pp, "k2", NULL, &fresh, &full);
  procpool_ready(pp, e2, true);
  /* Both busy: a third key is refused as full. */
  T_CHECK(procpool_get(pp, "k3", NULL, &fresh, &full) == NULL);
  T_CHECK(full);
  /* One idle: it makes room. */
  procpool_put(pp, e1, false);
  ProcpoolEntry *e3 = procpool_get(pp, "k3", NULL, &fresh, &full);
  T_CHECK(e3 && fresh);
  procpool_ready(pp, e3, true);
  T_CHECK(has_event(&r, "k1 stopped (evicted)"));
  T_EQ_INT(procpool_count(pp), 2);
  int open, busy;
  procpool_stats(pp, &open, &busy);
  T_EQ_INT(open, 2);
  T_EQ_INT(busy, 2);
  procpool_put(pp, e2, false);
  procpool_stats(pp, &open, &busy);
  T_EQ_INT(open, 2);
  T_EQ_INT(busy, 1);
  procpool_put(pp, e3, false);
  procpool_shutdown(pp);
  arena_release(&a);
}

static void test_idle_broken_failed(void)
{
  Arena a;
  arena_init(&a, 0);
  Rec r = {0};
  Procpool *pp = procpool_new(&a, 4, 500, open_null, log_ev, &r);
  bool fresh, full;
  ProcpoolEntry *e1 = procpool_get(pp, "k1", NULL, &fresh, &full);
  procpool_ready(pp, e1, true);
  procpool_put(pp, e1, false);
  long now = procpool_now();
  /* Not idle long enough yet, then long enough (the clock is passed in,
  ** so no waiting). */
  T_EQ_INT(procpool_reap(pp, now + 100), 0);
  T_EQ_INT(procpool_reap(pp, now + 10000), 1);
  T_CHECK(has_event(&r, "k1 stopped (idle)"));
  T_EQ_INT(procpool_count(pp), 0);
  /* The same key again: a new instance. */
  e1 = procpool_get(pp, "k1", NULL, &fresh, &full);
  T_CHECK(e1 && fresh);
  procpool_ready(pp, e1, true);
  /* A busy entry is never reaped. */
  T_EQ_INT(procpool_reap(pp, procpool_now() + 10000), 0);
  /* Broken: closed when the last reference goes. */
  procpool_put(pp, e1, true);
  T_CHECK(has_event(&r, "k1 stopped (broken)"));
  T_EQ_INT(procpool_count(pp), 0);
  /* A failed configuration closes the entry; the next get starts over. */
  ProcpoolEntry *e2 = procpool_get(pp, "k2", NULL, &fresh, &full);
  procpool_ready(pp, e2, false);
  T_CHECK(has_event(&r, "k2 stopped (configuration failed)"));
  T_EQ_INT(procpool_count(pp), 0);
  /* An open that fails. */
  r.fail_next = 1;
  T_CHECK(procpool_get(pp, "k3", NULL, &fresh, &full) == NULL);
  T_CHECK(!full);
  T_EQ_INT(r.opened, 3);
  procpool_shutdown(pp);
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_reuse_and_ready);
  T_RUN(test_cap_and_eviction);
  T_RUN(test_idle_broken_failed);
  return t_done("procpool");
}
