/* Unit tests for core/base/dag: freezing, cycles, topological order, the walk. */
#include <sched.h>
#include <stdatomic.h>

#include "base/arena.h"
#include "base/dag.h"
#include "base/pool.h"
#include "t.h"

static void test_build_dedup_and_both_directions(void)
{
  Arena a;
  arena_init(&a, 0);
  DagBuilder b;
  dag_builder_init(&b, &a, 3);
  dag_add_edge(&b, 0, 1);
  dag_add_edge(&b, 0, 2);
  dag_add_edge(&b, 0, 1);   /* duplicate */
  dag_add_edge(&b, 1, 2);
  Dag g;
  dag_build(&b, &g);
  T_EQ_INT(g.dep_start[1] - g.dep_start[0], 2);
  T_EQ_INT(g.deps[g.dep_start[0]], 1);
  T_EQ_INT(g.deps[g.dep_start[0] + 1], 2);
  T_EQ_INT(g.rdep_start[3] - g.rdep_start[2], 2);   /* 2 <- 0, 1 */
  uint32_t order[3];
  T_CHECK(dag_topo_order(&g, &a, order));
  T_EQ_INT(order[0], 2);
  T_EQ_INT(order[1], 1);
  T_EQ_INT(order[2], 0);
  uint32_t **cyc, *sz;
  T_EQ_INT(dag_cycles(&g, &a, &cyc, &sz), 0);
  arena_release(&a);
}

static void test_cycles_named(void)
{
  Arena a;
  arena_init(&a, 0);
  DagBuilder b;
  dag_builder_init(&b, &a, 7);
  /* 1 -> 2 -> 3 -> 1, 4 -> 4 (self), 5 -> 6 -> 5, 0 -> 1 */
  dag_add_edge(&b, 1, 2);
  dag_add_edge(&b, 2, 3);
  dag_add_edge(&b, 3, 1);
  dag_add_edge(&b, 4, 4);
  dag_add_edge(&b, 6, 5);
  dag_add_edge(&b, 5, 6);
  dag_add_edge(&b, 0, 1);
  Dag g;
  dag_build(&b, &g);
  uint32_t **cyc, *sz;
  uint32_t n = dag_cycles(&g, &a, &cyc, &sz);
  T_EQ_INT(n, 3);
  T_EQ_INT(sz[0], 3);
  T_EQ_INT(cyc[0][0], 1);
  T_EQ_INT(cyc[0][2], 3);
  T_EQ_INT(sz[1], 1);
  T_EQ_INT(cyc[1][0], 4);
  T_EQ_INT(sz[2], 2);
  T_EQ_INT(cyc[2][0], 5);
  uint32_t order[7];
  T_CHECK(!dag_topo_order(&g, &a, order));
  arena_release(&a);
}

static void test_deep_chain_no_recursion(void)
{
  Arena a;
  arena_init(&a, 0);
  enum { N = 200000 };
  DagBuilder b;
  dag_builder_init(&b, &a, N);
  for (uint32_t i = 1; i < N; i++)
    dag_add_edge(&b, i, i - 1);
  dag_add_edge(&b, 0, N - 1);   /* one big cycle */
  Dag g;
  dag_build(&b, &g);
  uint32_t **cyc, *sz;
  T_EQ_INT(dag_cycles(&g, &a, &cyc, &sz), 1);
  T_EQ_INT(sz[0], N);
  arena_release(&a);
}

/* ---- walk ---------------------------------------------------------------- */

typedef struct WalkCtx {
  const Dag *g;
  atomic_int inflight;
  atomic_int max_inflight;
  atomic_int visits;
  _Atomic uint8_t *done_flags;   /* set when a node's visit finished */
  const uint8_t *fail;           /* nodes that fail */
  atomic_int order_ok;
  int done_calls;
  volatile sig_atomic_t *stop;
  int stop_after;
} WalkCtx;

static bool visit(void *ctx, uint32_t v, PoolWorker *w)
{
  (void)w;
  WalkCtx *c = ctx;
  int now = atomic_fetch_add(&c->inflight, 1) + 1;
  int m = atomic_load(&c->max_inflight);
  while (now > m && !atomic_compare_exchange_weak(&c->max_inflight, &m, now))
    ;
  /* every dependency has finished before we run */
  for (uint32_t i = c->g->dep_start[v]; i < c->g->dep_start[v + 1]; i++)
    if (!atomic_load(&c->done_flags[c->g->deps[i]]))
      atomic_store(&c->order_ok, 0);
  for (volatile int spin = 0; spin < 2000; spin++)
    ;
  atomic_fetch_add(&c->visits, 1);
  atomic_store(&c->done_flags[v], 1);
  atomic_fetch_sub(&c->inflight, 1);
  return !(c->fail && c->fail[v]);
}

static void done(void *ctx, uint32_t v, DagStatus st)
{
  (void)v;
  (void)st;
  WalkCtx *c = ctx;
  c->done_calls++;
  if (c->stop && c->done_calls == c->stop_after)
    *c->stop = 1;
}

/* Random DAG: node i depends on up to 3 lower-numbered nodes. */
static void random_dag(Arena *a, uint32_t n, Dag *g)
{
  DagBuilder b;
  dag_builder_init(&b, a, n);
  uint32_t x = 12345;
  for (uint32_t i = 1; i < n; i++)
    for (int k = 0; k < 3; k++) {
      x = x * 1103515245u + 12345u;
      if ((x >> 16) % 2)
        dag_add_edge(&b, i, (x >> 8) % i);
    }
  dag_build(&b, g);
}

static void test_walk_parallel_respects_order_and_limit(void)
{
  Arena a;
  arena_init(&a, 0);
  Dag g;
  random_dag(&a, 2000, &g);
  Pool *p = pool_new(&a, 8, NULL, NULL);
  T_CHECK(p != NULL);
  WalkCtx c = {0};
  c.g = &g;
  c.done_flags = ARENA_NEW(&a, _Atomic uint8_t, g.n);
  atomic_store(&c.order_ok, 1);
  DagWalk w = {&g, p, 5, visit, done, &c, NULL, NULL, NULL, NULL, NULL, 0};
  uint8_t *st = ARENA_NEW(&a, uint8_t, g.n);
  T_CHECK(dag_walk(&w, &a, st));
  T_EQ_INT(atomic_load(&c.visits), 2000);
  T_EQ_INT(c.done_calls, 2000);
  T_CHECK(atomic_load(&c.order_ok));
  T_CHECK(atomic_load(&c.max_inflight) <= 5);
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

/* tick runs on the owner while a visit is in flight: the visit waits
** until the walk has ticked twice (a condition, not a time). */
static atomic_int ticks;

static bool tick_visit(void *ctx, uint32_t v, PoolWorker *w)
{
  (void)ctx;
  (void)w;
  if (v == 1)
    while (atomic_load(&ticks) < 2)
      sched_yield();
  return true;
}

static void on_tick(void *ctx)
{
  (void)ctx;
  atomic_fetch_add(&ticks, 1);
}

static void test_walk_ticks_while_waiting(void)
{
  Arena a;
  arena_init(&a, 0);
  DagBuilder b;
  dag_builder_init(&b, &a, 3);
  dag_add_edge(&b, 2, 1);
  Dag g;
  dag_build(&b, &g);
  Pool *p = pool_new(&a, 2, NULL, NULL);
  T_CHECK(p != NULL);
  atomic_store(&ticks, 0);
  DagWalk w = {&g, p, 2, tick_visit, NULL, NULL, NULL, NULL, NULL, NULL,
               on_tick, 0.001};
  uint8_t st[3];
  T_CHECK(dag_walk(&w, &a, st));
  T_EQ_INT(st[2], DAG_OK);
  T_CHECK(atomic_load(&ticks) >= 2);
  pool_free(p);
  arena_release(&a);
}

static void test_walk_failure_skips_dependents_only(void)
{
  Arena a;
  arena_init(&a, 0);
  /* 0 <- 1 <- 2 (chain), 3 independent, 4 depends on 2 and 3 */
  DagBuilder b;
  dag_builder_init(&b, &a, 5);
  dag_add_edge(&b, 1, 0);
  dag_add_edge(&b, 2, 1);
  dag_add_edge(&b, 4, 2);
  dag_add_edge(&b, 4, 3);
  Dag g;
  dag_build(&b, &g);
  Pool *p = pool_new(&a, 2, NULL, NULL);
  uint8_t fail[5] = {0, 1, 0, 0, 0};
  WalkCtx c = {0};
  c.g = &g;
  c.done_flags = ARENA_NEW(&a, _Atomic uint8_t, 5);
  c.fail = fail;
  atomic_store(&c.order_ok, 1);
  DagWalk w = {&g, p, 10, visit, done, &c, NULL, NULL, NULL, NULL, NULL, 0};
  uint8_t st[5];
  T_CHECK(!dag_walk(&w, &a, st));
  T_EQ_INT(st[0], DAG_OK);
  T_EQ_INT(st[1], DAG_FAILED);
  T_EQ_INT(st[2], DAG_SKIPPED);
  T_EQ_INT(st[3], DAG_OK);
  T_EQ_INT(st[4], DAG_SKIPPED);
  T_EQ_INT(atomic_load(&c.visits), 3);   /* 2 and 4 never visited */
  T_EQ_INT(c.done_calls, 5);
  pool_free(p);
  arena_release(&a);
}

static void test_walk_noop_nodes_and_stop(void)
{
  Arena a;
  arena_init(&a, 0);
  Dag g;
  DagBuilder b;
  dag_builder_init(&b, &a, 100);
  for (uint32_t i = 1; i < 100; i++)
    dag_add_edge(&b, i, i - 1);   /* a chain: strictly sequential */
  dag_build(&b, &g);
  Pool *p = pool_new(&a, 4, NULL, NULL);
  uint8_t *noop = ARENA_NEW(&a, uint8_t, 100);
  for (int i = 0; i < 100; i += 2)
    noop[i] = 1;
  volatile sig_atomic_t stop = 0;
  WalkCtx c = {0};
  c.g = &g;
  c.done_flags = ARENA_NEW(&a, _Atomic uint8_t, 100);
  for (int i = 0; i < 100; i += 2)
    c.done_flags[i] = 1;
  c.stop = &stop;
  c.stop_after = 10;
  atomic_store(&c.order_ok, 1);
  DagWalk w = {&g, p, 4, visit, done, &c, noop, &stop, NULL, NULL, NULL, 0};
  uint8_t st[100];
  T_CHECK(!dag_walk(&w, &a, st));
  T_EQ_INT(st[0], DAG_OK);
  T_EQ_INT(st[9], DAG_OK);
  T_EQ_INT(st[10], DAG_CANCELLED);   /* nothing started after the stop */
  T_EQ_INT(st[99], DAG_CANCELLED);
  T_EQ_INT(atomic_load(&c.visits), 5);   /* the odd nodes 1..9 */
  pool_free(p);
  arena_release(&a);
}

/* Fan-out: node v has v % 4 pieces; a dependent starts only after every
** piece of its dependencies finished; a failing piece fails its node and
** skips its dependents. */
typedef struct FanCtx {
  const Dag *g;
  _Atomic uint32_t *pieces_done;   /* per node */
  atomic_int order_ok;
  atomic_int inflight, max_inflight;
  uint32_t fail_node;
} FanCtx;

static bool fan_visit(void *ctx, uint32_t v, PoolWorker *w)
{
  (void)w;
  FanCtx *c = ctx;
  for (uint32_t i = c->g->dep_start[v]; i < c->g->dep_start[v + 1]; i++) {
    uint32_t d = c->g->deps[i];
    if (atomic_load(&c->pieces_done[d]) != d % 4)
      atomic_store(&c->order_ok, 0);
  }
  return true;
}

static uint32_t fan_count(void *ctx, uint32_t v)
{
  (void)ctx;
  return v % 4;
}

static bool fan_sub(void *ctx, uint32_t v, uint32_t i, PoolWorker *w)
{
  (void)w;
  FanCtx *c = ctx;
  int now = atomic_fetch_add(&c->inflight, 1) + 1;
  int m = atomic_load(&c->max_inflight);
  while (now > m && !atomic_compare_exchange_weak(&c->max_inflight, &m, now))
    ;
  for (volatile int spin = 0; spin < 1000; spin++)
    ;
  atomic_fetch_add(&c->pieces_done[v], 1);
  atomic_fetch_sub(&c->inflight, 1);
  return !(v == c->fail_node && i == 1);
}

static void test_walk_fanout(void)
{
  Arena a;
  arena_init(&a, 0);
  Dag g;
  random_dag(&a, 500, &g);
  Pool *p = pool_new(&a, 4, NULL, NULL);
  FanCtx c = {0};
  c.g = &g;
  c.pieces_done = ARENA_NEW(&a, _Atomic uint32_t, g.n);
  c.fail_node = UINT32_MAX;
  atomic_store(&c.order_ok, 1);
  DagWalk w = {&g, p, 3, fan_visit, NULL, &c, NULL, NULL, fan_count, fan_sub, NULL, 0};
  uint8_t *st = ARENA_NEW(&a, uint8_t, g.n);
  T_CHECK(dag_walk(&w, &a, st));
  T_CHECK(atomic_load(&c.order_ok));
  T_CHECK(atomic_load(&c.max_inflight) <= 3);
  uint32_t total = 0;
  for (uint32_t v = 0; v < g.n; v++)
    total += atomic_load(&c.pieces_done[v]);
  T_EQ_INT(total, 750);   /* v % 4 summed over 0..499 */

  /* node 3 (3 pieces) fails in piece 1: it fails, dependents skip */
  DagBuilder b;
  dag_builder_init(&b, &a, 5);
  dag_add_edge(&b, 4, 3);
  Dag g2;
  dag_build(&b, &g2);
  FanCtx c2 = {0};
  c2.g = &g2;
  c2.pieces_done = ARENA_NEW(&a, _Atomic uint32_t, 5);
  c2.fail_node = 3;
  atomic_store(&c2.order_ok, 1);
  DagWalk w2 = {&g2, p, 8, fan_visit, NULL, &c2, NULL, NULL, fan_count,
                fan_sub, NULL, 0};
  uint8_t st2[5];
  T_CHECK(!dag_walk(&w2, &a, st2));
  T_EQ_INT(st2[3], DAG_FAILED);
  T_EQ_INT(st2[4], DAG_SKIPPED);
  T_EQ_INT(st2[2], DAG_OK);
  T_EQ_INT(atomic_load(&c2.pieces_done[3]), 3);   /* all pieces ran */
  T_CHECK(pool_free(p) == NULL);
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_build_dedup_and_both_directions);
  T_RUN(test_cycles_named);
  T_RUN(test_deep_chain_no_recursion);
  T_RUN(test_walk_parallel_respects_order_and_limit);
  T_RUN(test_walk_failure_skips_dependents_only);
  T_RUN(test_walk_ticks_while_waiting);
  T_RUN(test_walk_noop_nodes_and_stop);
  T_RUN(test_walk_fanout);
  return t_done("test_dag");
}
