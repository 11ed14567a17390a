/*
** test_pool.c: the thread pool's contract (core/base/pool.h).  No sleeps: work
** functions that must overlap wait on atomic flags the test controls.
*/
#include "base/pool.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>

#include "t.h"

typedef struct Job {
  PoolItem it;
  int id;
  long input;
  long result;     /* written by run(), read by the owner after return */
  int ran;         /* times run() was called */
  int returned;    /* times the owner got it back */
  int worker;      /* id of the worker that ran it */
  int sigint_blocked;
} Job;

/* Shared knobs of the current test; reset by reset_knobs(). */
static atomic_int in_flight, max_in_flight, started, gate_open;
static atomic_int cancel_returned, started_after_cancel;
static int block_first;   /* items with id < block_first wait for the gate */
static Pool *sig_pool;    /* for the signal handler */

static void reset_knobs(void)
{
  atomic_store(&in_flight, 0);
  atomic_store(&max_in_flight, 0);
  atomic_store(&started, 0);
  atomic_store(&gate_open, 0);
  atomic_store(&cancel_returned, 0);
  atomic_store(&started_after_cancel, 0);
  block_first = 0;
}

static void spin_until(atomic_int *v, int at_least)
{
  while (atomic_load(v) < at_least)
    sched_yield();
}

static void note_in_flight(void)
{
  int now = atomic_fetch_add(&in_flight, 1) + 1;
  int max = atomic_load(&max_in_flight);
  while (now > max && !atomic_compare_exchange_weak(&max_in_flight, &max, now))
    ;
}

static void run_job(PoolItem *it, PoolWorker *w)
{
  Job *j = it->ctx;
  note_in_flight();
  if (atomic_load(&cancel_returned))
    atomic_fetch_add(&started_after_cancel, 1);
  atomic_fetch_add(&started, 1);
  if (j->id < block_first)
    spin_until(&gate_open, 1);
  /* Scratch work in the worker's own arena, rewound afterwards. */
  ArenaMark m = arena_mark(&w->arena);
  long *tmp = ARENA_NEW(&w->arena, long, 16);
  for (int i = 0; i < 16; i++)
    tmp[i] = j->input + i;
  long sum = 0;
  for (int i = 0; i < 16; i++)
    sum += tmp[i];
  arena_rewind(&w->arena, m);
  sigset_t cur;
  pthread_sigmask(SIG_BLOCK, NULL, &cur);
  j->sigint_blocked = sigismember(&cur, SIGINT) == 1;
  j->result = sum;
  j->worker = w->id;
  j->ran++;
  atomic_fetch_sub(&in_flight, 1);
}

static long expect(long input) { return 16 * input + 120; }

static Job *make_jobs(Arena *a, int n)
{
  Job *jobs = ARENA_NEW(a, Job, (size_t)n);
  for (int i = 0; i < n; i++) {
    jobs[i].id = i;
    jobs[i].input = i * 3 + 1;
    jobs[i].it.run = run_job;
    jobs[i].it.ctx = &jobs[i];
  }
  return jobs;
}

/* Drains p; returns how many came back and counts the cancelled ones. */
static int drain(Pool *p, int *ncancelled)
{
  int n = 0;
  PoolItem *it;
  while ((it = pool_wait(p))) {
    Job *j = it->ctx;
    j->returned++;
    if (it->cancelled)
      (*ncancelled)++;
    n++;
  }
  return n;
}

/* Every job came back once; run exactly when not cancelled, with the
** right result.  Returns the number of jobs that broke that. */
static int bad_jobs(const Job *jobs, int n)
{
  int bad = 0;
  for (int i = 0; i < n; i++) {
    const Job *j = &jobs[i];
    if (j->returned != 1)
      bad++;
    else if (j->it.cancelled ? j->ran != 0
                             : j->ran != 1 || j->result != expect(j->input))
      bad++;
  }
  return bad;
}

static void many_items(int nthreads, int n)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  Job *jobs = make_jobs(&a, n);
  Pool *p = pool_new(&a, nthreads, NULL, NULL);
  T_CHECK(p != NULL);
  if (!p) {
    arena_release(&a);
    return;
  }
  T_EQ_INT(pool_nthreads(p), nthreads);
  for (int i = 0; i < n; i++)
    pool_submit(p, &jobs[i].it);
  T_EQ_INT(pool_pending(p), n);
  int nc = 0;
  T_EQ_INT(drain(p, &nc), n);
  T_EQ_INT(nc, 0);
  T_EQ_INT(pool_pending(p), 0);
  T_CHECK(pool_wait(p) == NULL);
  T_EQ_INT(bad_jobs(jobs, n), 0);
  T_CHECK(atomic_load(&max_in_flight) <= nthreads);
  int blocked = 0, bad_worker = 0;
  for (int i = 0; i < n; i++) {
    blocked += jobs[i].sigint_blocked;
    bad_worker += jobs[i].worker < 0 || jobs[i].worker >= nthreads;
  }
  T_EQ_INT(blocked, n);
  T_EQ_INT(bad_worker, 0);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

static void test_many_small_items(void) { many_items(4, 10000); }
static void test_64_threads(void) { many_items(64, 5000); }
static void test_max_threads(void) { many_items(POOL_MAX_THREADS, 1000); }

/* With one worker the FIFO order is the completion order. */
static void test_one_thread_fifo(void)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  enum { N = 500 };
  Job *jobs = make_jobs(&a, N);
  Pool *p = pool_new(&a, 1, NULL, NULL);
  T_CHECK(p != NULL);
  for (int i = 0; i < N; i++)
    pool_submit(p, &jobs[i].it);
  int order_ok = 1;
  for (int i = 0; i < N; i++) {
    PoolItem *it = pool_wait(p);
    Job *j = it->ctx;
    j->returned++;
    if (j->id != i || j->worker != 0)
      order_ok = 0;
  }
  T_CHECK(order_ok);
  T_CHECK(pool_wait(p) == NULL);
  T_EQ_INT(bad_jobs(jobs, N), 0);
  T_EQ_INT(atomic_load(&max_in_flight), 1);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

/* The first n items wait until all n are in flight, which proves that n
** run at once; the counter proves that never more do. */
static void in_flight_bound(int nthreads)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  enum { N = 300 };
  Job *jobs = make_jobs(&a, N);
  Pool *p = pool_new(&a, nthreads, NULL, NULL);
  T_CHECK(p != NULL);
  block_first = nthreads;
  for (int i = 0; i < N; i++)
    pool_submit(p, &jobs[i].it);
  spin_until(&started, nthreads);
  T_EQ_INT(atomic_load(&in_flight), nthreads);
  atomic_store(&gate_open, 1);
  int nc = 0;
  T_EQ_INT(drain(p, &nc), N);
  T_EQ_INT(atomic_load(&max_in_flight), nthreads);
  T_EQ_INT(bad_jobs(jobs, N), 0);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

static void test_in_flight_bound(void)
{
  in_flight_bound(1);
  in_flight_bound(3);
  in_flight_bound(10);
}

/* ---- graph-like use: submit what becomes ready as completions arrive -- */

enum { GN = 400, GMAXDEP = 4 };

typedef struct Node {
  PoolItem it;
  int ndeps;
  int deps[GMAXDEP];
  int waiting;          /* owner only: deps not finished yet */
  int nout;
  int out[GN];          /* dependents (owner only) */
  struct Node *all;
  long value;           /* 1 + sum of the deps' values, mod 1000003 */
  int finished;         /* set by the owner when the node comes back */
  int deps_were_done;
} Node;

static void run_node(PoolItem *it, PoolWorker *w)
{
  Node *n = it->ctx;
  long v = 1;
  int ok = 1;
  (void)w;
  note_in_flight();
  for (int i = 0; i < n->ndeps; i++) {
    Node *d = &n->all[n->deps[i]];
    ok &= d->finished;
    v = (v + d->value) % 1000003;
  }
  n->value = v;
  n->deps_were_done = ok;
  atomic_fetch_sub(&in_flight, 1);
}

static void test_graph_walk(void)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  Node *g = ARENA_NEW(&a, Node, GN);
  /* A fixed pseudo-random DAG: edges only from lower to higher ids. */
  unsigned x = 12345;
  for (int i = 0; i < GN; i++) {
    g[i].it.run = run_node;
    g[i].it.ctx = &g[i];
    g[i].all = g;
    for (int k = 0; k < GMAXDEP && i > 0; k++) {
      x = x * 1103515245u + 12345u;
      if ((x >> 16) % 3 == 0)
        continue;
      int d = (int)((x >> 8) % (unsigned)i);
      int dup = 0;
      for (int m = 0; m < g[i].ndeps; m++)
        dup |= g[i].deps[m] == d;
      if (dup)
        continue;
      g[i].deps[g[i].ndeps++] = d;
      g[d].out[g[d].nout++] = i;
    }
    g[i].waiting = g[i].ndeps;
  }
  /* The expected values, computed in order. */
  long want[GN], want_total = 0;
  for (int i = 0; i < GN; i++) {
    long v = 1;
    for (int k = 0; k < g[i].ndeps; k++)
      v = (v + want[g[i].deps[k]]) % 1000003;
    want[i] = v;
    want_total += v;
  }

  Pool *p = pool_new(&a, 6, NULL, NULL);
  T_CHECK(p != NULL);
  for (int i = 0; i < GN; i++)
    if (g[i].waiting == 0)
      pool_submit(p, &g[i].it);
  int done = 0, cancelled = 0;
  PoolItem *it;
  while ((it = pool_wait(p))) {
    Node *n = it->ctx;
    cancelled += it->cancelled;
    n->finished++;
    done++;
    for (int k = 0; k < n->nout; k++)
      if (--g[n->out[k]].waiting == 0)
        pool_submit(p, &g[n->out[k]].it);
  }
  long total = 0;
  int wrong = 0, order = 0, twice = 0;
  for (int i = 0; i < GN; i++) {
    total += g[i].value;
    wrong += g[i].value != want[i];
    order += !g[i].deps_were_done;
    twice += g[i].finished != 1;
  }
  T_EQ_INT(done, GN);
  T_EQ_INT(cancelled, 0);
  T_EQ_INT(wrong, 0);
  T_EQ_INT(order, 0);
  T_EQ_INT(twice, 0);
  T_EQ_INT(total, want_total);
  T_CHECK(atomic_load(&max_in_flight) <= 6);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

/* ---- cancelling -------------------------------------------------------- */

/* 1000 queued, 4 running and held at the gate: cancel, then let them go.
** Nothing may start after pool_cancel returned. */
static void test_cancel_under_load(void)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  enum { N = 1000, T = 4 };
  Job *jobs = make_jobs(&a, N);
  Pool *p = pool_new(&a, T, NULL, NULL);
  T_CHECK(p != NULL);
  block_first = N;
  for (int i = 0; i < N; i++)
    pool_submit(p, &jobs[i].it);
  spin_until(&started, T);
  T_CHECK(!pool_cancelled(p));
  pool_cancel(p);
  T_CHECK(pool_cancelled(p));
  atomic_store(&cancel_returned, 1);
  atomic_store(&gate_open, 1);
  /* Submitted after the cancel: comes back cancelled, never runs. */
  Job late = {.id = N};
  late.it.run = run_job;
  late.it.ctx = &late;
  pool_submit(p, &late.it);
  T_EQ_INT(pool_pending(p), N + 1);
  int nc = 0;
  T_EQ_INT(drain(p, &nc), N + 1);
  T_EQ_INT(nc, N + 1 - T);
  T_EQ_INT(atomic_load(&started), T);
  T_EQ_INT(atomic_load(&started_after_cancel), 0);
  T_EQ_INT(bad_jobs(jobs, N), 0);
  T_CHECK(late.it.cancelled && late.ran == 0 && late.returned == 1);
  pool_cancel(p); /* idempotent */
  T_CHECK(pool_wait(p) == NULL);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

/* Cancel while the workers run freely: each item either ran or came back
** cancelled, exactly once. */
static void test_cancel_while_running(void)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  enum { N = 3000 };
  Job *jobs = make_jobs(&a, N);
  Pool *p = pool_new(&a, 8, NULL, NULL);
  T_CHECK(p != NULL);
  for (int i = 0; i < N; i++)
    pool_submit(p, &jobs[i].it);
  int got = 0, nc = 0;
  for (int i = 0; i < 100; i++) {
    PoolItem *it = pool_wait(p);
    ((Job *)it->ctx)->returned++;
    nc += it->cancelled;
    got++;
  }
  pool_cancel(p);
  got += drain(p, &nc);
  T_EQ_INT(got, N);
  T_EQ_INT(nc + atomic_load(&started), N);
  T_EQ_INT(bad_jobs(jobs, N), 0);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

/* pool_wait_for: times out while the only item is blocked (the owner's
** chance for periodic work), then returns it once it completes. */
static void test_wait_for_timeout(void)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  block_first = 1;
  Job *jobs = make_jobs(&a, 1);
  Pool *p = pool_new(&a, 2, NULL, NULL);
  T_CHECK(p != NULL);
  if (!p) {
    arena_release(&a);
    return;
  }
  bool to = false;
  T_CHECK(pool_wait_for(p, 0.01, &to) == NULL);   /* nothing pending */
  T_CHECK(!to);
  pool_submit(p, &jobs[0].it);
  spin_until(&started, 1);
  int timeouts = 0;
  PoolItem *it;
  /* after 3 timeouts the item may complete: wait long enough that a
  ** loaded machine cannot time out a fourth time */
  while (!(it = pool_wait_for(p, timeouts < 3 ? 0.002 : 600.0, &to)) && to)
    if (++timeouts == 3)
      atomic_store(&gate_open, 1);
  T_CHECK(it == &jobs[0].it);
  T_EQ_INT(timeouts, 3);
  T_EQ_INT(jobs[0].ran, 1);
  T_CHECK(pool_wait_for(p, 0.01, &to) == NULL);
  T_CHECK(!to);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

static void on_sigusr1(int sig)
{
  (void)sig;
  pool_request_cancel(sig_pool);
}

/* The SIGINT path: a handler asks for the cancel; the one running item
** finishes and nothing else starts. */
static void test_request_cancel_from_signal(void)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  enum { N = 100 };
  Job *jobs = make_jobs(&a, N);
  Pool *p = pool_new(&a, 1, NULL, NULL);
  T_CHECK(p != NULL);
  sig_pool = p;
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigusr1;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGUSR1, &sa, &old);
  block_first = 1;
  for (int i = 0; i < N; i++)
    pool_submit(p, &jobs[i].it);
  spin_until(&started, 1);
  raise(SIGUSR1);
  T_CHECK(pool_cancelled(p));
  atomic_store(&gate_open, 1);
  int nc = 0;
  T_EQ_INT(drain(p, &nc), N);
  T_EQ_INT(nc, N - 1);
  T_EQ_INT(jobs[0].ran, 1);
  T_CHECK(!jobs[0].it.cancelled);
  T_EQ_INT(bad_jobs(jobs, N), 0);
  sigaction(SIGUSR1, &old, NULL);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

/* ---- shutdown ------------------------------------------------------------ */

/* pool_free with items still pending hands every one of them back. */
static void test_free_returns_pending(void)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  enum { N = 200, T = 3 };
  Job *jobs = make_jobs(&a, N);
  Pool *p = pool_new(&a, T, NULL, NULL);
  T_CHECK(p != NULL);
  block_first = T;
  for (int i = 0; i < N; i++)
    pool_submit(p, &jobs[i].it);
  spin_until(&started, T);
  /* Held workers would make pool_free wait forever: release them. */
  atomic_store(&gate_open, 1);
  PoolItem *left = pool_free(p);
  int n = 0, nc = 0;
  for (PoolItem *it = left; it; it = it->next) {
    ((Job *)it->ctx)->returned++;
    nc += it->cancelled;
    n++;
  }
  T_EQ_INT(n, N);
  T_CHECK(nc <= N - T);
  T_EQ_INT(nc + atomic_load(&started), N);
  T_EQ_INT(bad_jobs(jobs, N), 0);
  arena_release(&a);
}

static void test_resubmit(void)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  Job *jobs = make_jobs(&a, 1);
  Pool *p = pool_new(&a, 2, NULL, NULL);
  T_CHECK(p != NULL);
  int back = 0;
  for (int round = 0; round < 50; round++) {
    pool_submit(p, &jobs[0].it);
    back += pool_wait(p) == &jobs[0].it;
  }
  T_EQ_INT(back, 50);
  T_EQ_INT(jobs[0].ran, 50);
  T_CHECK(pool_wait(p) == NULL);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

/* ---- workers ----------------------------------------------------------- */

typedef struct InitCtx {
  int calls;
  int next_id;
  int ids_in_order;
} InitCtx;

typedef struct WorkerData {
  int id;
  long items;
} WorkerData;

static void init_worker(PoolWorker *w, void *ctx)
{
  InitCtx *ic = ctx;
  ic->calls++;
  ic->ids_in_order &= w->id == ic->next_id++;
  WorkerData *d = ARENA_NEW(&w->arena, WorkerData, 1);
  d->id = w->id;
  w->user = d;
}

static void run_counting(PoolItem *it, PoolWorker *w)
{
  WorkerData *d = w->user;
  Job *j = it->ctx;
  d->items++;
  j->result = d->id == w->id ? 1 : 0;
  j->ran++;
}

static void test_worker_init_and_user(void)
{
  Arena a;
  arena_init(&a, 0);
  reset_knobs();
  enum { N = 2000, T = 5 };
  Job *jobs = make_jobs(&a, N);
  InitCtx ic = {0, 0, 1};
  Pool *p = pool_new(&a, T, init_worker, &ic);
  T_CHECK(p != NULL);
  T_EQ_INT(ic.calls, T);
  T_CHECK(ic.ids_in_order);
  T_CHECK(pool_worker(p, -1) == NULL);
  T_CHECK(pool_worker(p, T) == NULL);
  for (int i = 0; i < N; i++) {
    jobs[i].it.run = run_counting;
    pool_submit(p, &jobs[i].it);
  }
  int nc = 0, good = 0;
  T_EQ_INT(drain(p, &nc), N);
  for (int i = 0; i < N; i++)
    good += jobs[i].result == 1 && jobs[i].ran == 1;
  T_EQ_INT(good, N);
  /* Per-worker counters are consistent once everything came back. */
  long sum = 0;
  for (int i = 0; i < T; i++)
    sum += ((WorkerData *)pool_worker(p, i)->user)->items;
  T_EQ_INT(sum, N);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

/* ---- failures ------------------------------------------------------------ */

static void test_create_failure(void)
{
  Arena a;
  arena_init(&a, 0);
  InitCtx ic = {0, 0, 1};
  errno = 0;
  T_CHECK(pool_new(&a, 0, NULL, NULL) == NULL);
  T_EQ_INT(errno, EINVAL);
  errno = 0;
  T_CHECK(pool_new(&a, POOL_MAX_THREADS + 1, NULL, NULL) == NULL);
  T_EQ_INT(errno, EINVAL);
  errno = 0;
  T_CHECK(pool_new(&a, -5, NULL, NULL) == NULL);
  T_EQ_INT(errno, EINVAL);
  /* Third thread fails: the two started ones are joined, no init ran. */
  pool_test_fail_create_after(2);
  errno = 0;
  T_CHECK(pool_new(&a, 8, init_worker, &ic) == NULL);
  T_EQ_INT(errno, EAGAIN);
  T_EQ_INT(ic.calls, 0);
  pool_test_fail_create_after(0);
  errno = 0;
  T_CHECK(pool_new(&a, 1, init_worker, &ic) == NULL);
  T_EQ_INT(errno, EAGAIN);
  T_EQ_INT(ic.calls, 0);
  /* The hook is spent: the next pool works. */
  Pool *p = pool_new(&a, 2, init_worker, &ic);
  T_CHECK(p != NULL);
  T_EQ_INT(ic.calls, 2);
  T_CHECK(pool_free(p) == NULL);
  pool_test_fail_create_after(-1);
  arena_release(&a);
}

/* Many short-lived pools, cancelled at varying points. */
static void test_stress_create_cancel_free(void)
{
  enum { ROUNDS = 200, N = 60 };
  int bad = 0, lost = 0;
  for (int r = 0; r < ROUNDS; r++) {
    Arena a;
    arena_init(&a, 0);
    reset_knobs();
    Job *jobs = make_jobs(&a, N);
    Pool *p = pool_new(&a, 1 + r % 9, NULL, NULL);
    if (!p) {
      bad++;
      arena_release(&a);
      continue;
    }
    for (int i = 0; i < N; i++)
      pool_submit(p, &jobs[i].it);
    int got = 0, nc = 0;
    for (int i = 0; i < r % (N + 1); i++) {
      PoolItem *it = pool_wait(p);
      ((Job *)it->ctx)->returned++;
      nc += it->cancelled;
      got++;
    }
    if (r % 3 == 0) {
      pool_cancel(p);
      got += drain(p, &nc);
      if (pool_free(p) != NULL)
        bad++;
    } else {
      if (r % 3 == 1)
        pool_request_cancel(p);
      for (PoolItem *it = pool_free(p); it; it = it->next) {
        ((Job *)it->ctx)->returned++;
        got++;
      }
    }
    lost += N - got;
    bad += bad_jobs(jobs, N);
    arena_release(&a);
  }
  T_EQ_INT(bad, 0);
  T_EQ_INT(lost, 0);
}

int main(void)
{
  T_RUN(test_many_small_items);
  T_RUN(test_64_threads);
  T_RUN(test_max_threads);
  T_RUN(test_one_thread_fifo);
  T_RUN(test_in_flight_bound);
  T_RUN(test_graph_walk);
  T_RUN(test_cancel_under_load);
  T_RUN(test_cancel_while_running);
  T_RUN(test_wait_for_timeout);
  T_RUN(test_request_cancel_from_signal);
  T_RUN(test_free_returns_pending);
  T_RUN(test_resubmit);
  T_RUN(test_worker_init_and_user);
  T_RUN(test_create_failure);
  T_RUN(test_stress_create_cancel_free);
  return t_done("pool");
}
