/*
** dag.c: graph freezing, cycle detection and the parallel walk.
**
** Method (walk): each node counts its unfinished dependencies.  Nodes at
** zero wait in a FIFO ready queue; the owner thread keeps up to
** `parallelism` of them on the pool and, as each comes back, decrements
** its dependents' counters.  A failure marks the dependents "tainted"; a
** tainted node reaching zero is skipped without a visit and its own
** dependents are handled the same way through an explicit work list, so
** nothing recurses.
*/
#include "dag.h"

#include <stdatomic.h>
#include <string.h>
#include <time.h>

void dag_builder_init(DagBuilder *b, Arena *a, uint32_t nnodes)
{
  memset(b, 0, sizeof *b);
  b->arena = a;
  b->n = nnodes;
}

uint32_t dag_add_node(DagBuilder *b) { return b->n++; }

void dag_add_edge(DagBuilder *b, uint32_t a, uint32_t b_node)
{
  if (b->nedges == b->cap) {
    uint32_t cap = b->cap ? b->cap * 2 : 64;
    b->from = arena_grow(b->arena, b->from, sizeof(uint32_t),
                         _Alignof(uint32_t), b->cap, cap);
    b->to = arena_grow(b->arena, b->to, sizeof(uint32_t), _Alignof(uint32_t),
                       b->cap, cap);
    b->cap = cap;
  }
  b->from[b->nedges] = a;
  b->to[b->nedges] = b_node;
  b->nedges++;
}

/* Builds one CSR direction: for each src[i] -> dst[i], sorted and
** deduplicated per row. */
static void csr(Arena *a, uint32_t n, uint32_t m, const uint32_t *src,
                const uint32_t *dst, uint32_t **start_out, uint32_t **adj_out)
{
  uint32_t *start = ARENA_NEW(a, uint32_t, (size_t)n + 1);
  for (uint32_t i = 0; i < m; i++)
    start[src[i] + 1]++;
  for (uint32_t v = 0; v < n; v++)
    start[v + 1] += start[v];
  uint32_t *fill = ARENA_NEW(a, uint32_t, n ? n : 1);
  uint32_t *adj = ARENA_NEW(a, uint32_t, m ? m : 1);
  for (uint32_t i = 0; i < m; i++) {
    uint32_t s = src[i];
    adj[start[s] + fill[s]++] = dst[i];
  }
  /* Sort each row (insertion sort: rows are short) and drop duplicates,
  ** compacting in place. */
  uint32_t w = 0;
  for (uint32_t v = 0; v < n; v++) {
    uint32_t b = start[v], e = start[v + 1];
    for (uint32_t i = b + 1; i < e; i++) {
      uint32_t x = adj[i], j = i;
      while (j > b && adj[j - 1] > x) {
        adj[j] = adj[j - 1];
        j--;
      }
      adj[j] = x;
    }
    start[v] = w;
    for (uint32_t i = b; i < e; i++)
      if (i == b || adj[i] != adj[i - 1])
        adj[w++] = adj[i];
  }
  start[n] = w;
  *start_out = start;
  *adj_out = adj;
}

void dag_build(const DagBuilder *b, Dag *g)
{
  memset(g, 0, sizeof *g);
  g->n = b->n;
  csr(b->arena, b->n, b->nedges, b->from, b->to, &g->dep_start, &g->deps);
  csr(b->arena, b->n, b->nedges, b->to, b->from, &g->rdep_start, &g->rdeps);
}

/* ---- cycles: iterative Tarjan ------------------------------------------ */

uint32_t dag_cycles(const Dag *g, Arena *a, uint32_t ***out, uint32_t **sizes)
{
  uint32_t n = g->n;
  const uint32_t UNSEEN = UINT32_MAX;
  uint32_t *index = ARENA_NEW(a, uint32_t, n ? n : 1);
  uint32_t *low = ARENA_NEW(a, uint32_t, n ? n : 1);
  uint8_t *on = ARENA_NEW(a, uint8_t, n ? n : 1);
  uint32_t *stack = ARENA_NEW(a, uint32_t, n ? n : 1);
  uint32_t *cs_v = ARENA_NEW(a, uint32_t, n ? n : 1);   /* call stack */
  uint32_t *cs_i = ARENA_NEW(a, uint32_t, n ? n : 1);
  uint32_t sp = 0, next = 0, ncyc = 0, cap = 0;
  uint32_t **cyc = NULL, *csz = NULL;
  for (uint32_t v = 0; v < n; v++)
    index[v] = UNSEEN;
  for (uint32_t root = 0; root < n; root++) {
    if (index[root] != UNSEEN)
      continue;
    uint32_t depth = 0;
    cs_v[0] = root;
    cs_i[0] = g->dep_start[root];
    index[root] = low[root] = next++;
    stack[sp++] = root;
    on[root] = 1;
    while (1) {
      uint32_t v = cs_v[depth];
      if (cs_i[depth] < g->dep_start[v + 1]) {
        uint32_t w = g->deps[cs_i[depth]++];
        if (index[w] == UNSEEN) {
          index[w] = low[w] = next++;
          stack[sp++] = w;
          on[w] = 1;
          depth++;
          cs_v[depth] = w;
          cs_i[depth] = g->dep_start[w];
        } else if (on[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      if (low[v] == index[v]) {
        uint32_t k = sp;
        do
          k--;
        while (stack[k] != v);
        uint32_t size = sp - k;
        bool self = false;
        if (size == 1)
          for (uint32_t i = g->dep_start[v]; i < g->dep_start[v + 1]; i++)
            self |= g->deps[i] == v;
        if (size > 1 || self) {
          if (ncyc == cap) {
            uint32_t nc = cap ? cap * 2 : 4;
            cyc = arena_grow(a, cyc, sizeof *cyc, _Alignof(uint32_t *), cap, nc);
            csz = arena_grow(a, csz, sizeof *csz, _Alignof(uint32_t), cap, nc);
            cap = nc;
          }
          uint32_t *mem = ARENA_NEW(a, uint32_t, size);
          memcpy(mem, stack + k, size * sizeof *mem);
          for (uint32_t i = 1; i < size; i++) {   /* ascending members */
            uint32_t x = mem[i], j = i;
            while (j > 0 && mem[j - 1] > x) {
              mem[j] = mem[j - 1];
              j--;
            }
            mem[j] = x;
          }
          cyc[ncyc] = mem;
          csz[ncyc] = size;
          ncyc++;
        }
        for (uint32_t i = k; i < sp; i++)
          on[stack[i]] = 0;
        sp = k;
      }
      if (depth == 0)
        break;
      depth--;
      uint32_t parent = cs_v[depth];
      if (low[v] < low[parent])
        low[parent] = low[v];
    }
  }
  /* Order cycles by smallest member: roots are visited ascending but SCCs
  ** complete in post-order, so sort. */
  for (uint32_t i = 1; i < ncyc; i++) {
    uint32_t *x = cyc[i], xs = csz[i], j = i;
    while (j > 0 && cyc[j - 1][0] > x[0]) {
      cyc[j] = cyc[j - 1];
      csz[j] = csz[j - 1];
      j--;
    }
    cyc[j] = x;
    csz[j] = xs;
  }
  *out = cyc;
  *sizes = csz;
  return ncyc;
}

bool dag_topo_order(const Dag *g, Arena *a, uint32_t *order)
{
  uint32_t n = g->n;
  uint32_t *remaining = ARENA_NEW(a, uint32_t, n ? n : 1);
  uint32_t head = 0, tail = 0;
  for (uint32_t v = 0; v < n; v++) {
    remaining[v] = g->dep_start[v + 1] - g->dep_start[v];
    if (!remaining[v])
      order[tail++] = v;
  }
  while (head < tail) {
    uint32_t v = order[head++];
    for (uint32_t i = g->rdep_start[v]; i < g->rdep_start[v + 1]; i++)
      if (--remaining[g->rdeps[i]] == 0)
        order[tail++] = g->rdeps[i];
  }
  return tail == n;
}

/* ---- the walk ------------------------------------------------------------ */

/* A node whose pieces are being run.  Its pieces are not pool items of
** their own: up to `parallelism` runners (pool items) claim them one at a
** time from `next`, so a node of thousands of pieces costs a few pool
** round trips (each a mutex, a wake-up and a sleep) instead of one per
** piece, and the pieces still spread over the workers as they free up. */
typedef struct FanNode {
  uint32_t node;
  atomic_uint next;      /* next piece to claim (runners, any thread) */
  uint32_t total;
  uint32_t runners;      /* owner only: runners submitted */
  uint32_t back;         /* owner only: runners returned */
} FanNode;

typedef struct WalkItem {
  PoolItem it;
  const DagWalk *w;
  uint32_t node;
  FanNode *fan;          /* a runner of this node's pieces; NULL: visit */
  bool ok;
} WalkItem;

typedef struct WalkState {
  const DagWalk *w;
  uint8_t *status;
  uint32_t *remaining;
  uint8_t *tainted;
  uint32_t *ready;       /* FIFO of nodes whose dependencies all succeeded */
  uint32_t rhead, rtail;
  uint32_t *work;        /* finished nodes whose dependents need updating */
  uint32_t finished;
  uint8_t *piece_failed; /* per node: some piece failed */
  FanNode *fan;          /* FIFO of fanned-out nodes that may need more
                            runners */
  uint32_t fhead, ftail;
} WalkState;

static double mono_sec(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run_item(PoolItem *it, PoolWorker *pw)
{
  WalkItem *wi = (WalkItem *)it;
  const DagWalk *w = wi->w;
  if (!wi->fan) {
    wi->ok = w->visit(w->ctx, wi->node, pw);
    return;
  }
  /* A runner: pieces until none is left; a stop request leaves the rest
  ** unclaimed (cancelled).  Every piece runs even after one failed, as
  ** when each was an item of its own. */
  bool ok = true;
  for (;;) {
    if (w->stop && *w->stop)
      break;
    uint32_t i = atomic_fetch_add(&wi->fan->next, 1);
    if (i >= wi->fan->total)
      break;
    ok &= w->sub(w->ctx, wi->node, i, pw);
  }
  wi->ok = ok;
}

static bool all_claimed(FanNode *f)
{
  return atomic_load(&f->next) >= f->total;
}

/* v has its final status: report it and release its dependents, skipping
** (transitively) those that depend on a failure. */
static void finish(WalkState *s, uint32_t v)
{
  const Dag *g = s->w->g;
  uint32_t wn = 0;
  s->work[wn++] = v;
  while (wn) {
    uint32_t u = s->work[--wn];
    s->finished++;
    if (s->w->done)
      s->w->done(s->w->ctx, u, (DagStatus)s->status[u]);
    for (uint32_t i = g->rdep_start[u]; i < g->rdep_start[u + 1]; i++) {
      uint32_t d = g->rdeps[i];
      if (s->status[u] != DAG_OK)
        s->tainted[d] = 1;
      if (--s->remaining[d] == 0) {
        if (s->tainted[d]) {
          s->status[d] = DAG_SKIPPED;
          s->work[wn++] = d;
        } else {
          s->ready[s->rtail++] = d;
        }
      }
    }
  }
}

bool dag_walk(const DagWalk *w, Arena *a, uint8_t *status)
{
  const Dag *g = w->g;
  uint32_t n = g->n, m = n ? n : 1;
  WalkState s = {w, status, ARENA_NEW(a, uint32_t, m), ARENA_NEW(a, uint8_t, m),
                 ARENA_NEW(a, uint32_t, m), 0, 0, ARENA_NEW(a, uint32_t, m), 0,
                 ARENA_NEW(a, uint8_t, m), ARENA_NEW(a, FanNode, m), 0, 0};
  WalkItem *items = ARENA_NEW(a, WalkItem, m);
  int inflight = 0;
  for (uint32_t v = 0; v < n; v++) {
    status[v] = DAG_PENDING;
    s.remaining[v] = g->dep_start[v + 1] - g->dep_start[v];
    if (!s.remaining[v])
      s.ready[s.rtail++] = v;
  }
  double last_tick = mono_sec();
  while (s.finished < n) {
    bool stopping = w->stop && *w->stop;
    /* Pieces of nodes already started go first: they finish what the
    ** user is waiting for and release dependents sooner. */
    while (!stopping && inflight < w->parallelism && s.fhead < s.ftail) {
      FanNode *f = &s.fan[s.fhead];
      /* no runner more than pieces, none once all are claimed */
      if (f->runners == f->total || all_claimed(f)) {
        s.fhead++;
        continue;
      }
      WalkItem *wi = ARENA_NEW(a, WalkItem, 1);
      wi->it.run = run_item;
      wi->w = w;
      wi->node = f->node;
      wi->fan = f;
      f->runners++;
      pool_submit(w->pool, &wi->it);
      inflight++;
    }
    while (!stopping && inflight < w->parallelism && s.rhead < s.rtail) {
      uint32_t v = s.ready[s.rhead++];
      if (w->noop && w->noop[v]) {   /* nothing to do: finishes inline */
        status[v] = DAG_OK;
        finish(&s, v);
        continue;
      }
      items[v].it.run = run_item;
      items[v].w = w;
      items[v].node = v;
      items[v].fan = NULL;
      pool_submit(w->pool, &items[v].it);
      inflight++;
    }
    if (inflight == 0)
      break;   /* stopped, or everything reachable has finished */
    PoolItem *it;
    bool timed_out = false;
    if (w->tick) {
      /* tick every tick_sec, whether items keep completing or not */
      for (;;) {
        it = pool_wait_for(w->pool, w->tick_sec, &timed_out);
        double now = mono_sec();
        if (now - last_tick >= w->tick_sec) {
          last_tick = now;
          w->tick(w->ctx);
        }
        if (it || !timed_out)
          break;
      }
    } else {
      it = pool_wait(w->pool);
    }
    if (!it)
      break;
    inflight--;
    WalkItem *wi = (WalkItem *)it;
    uint32_t v = wi->node;
    if (wi->fan) {                       /* a runner came back */
      FanNode *f = wi->fan;
      /* A runner the pool cancelled claimed nothing: what it would have
      ** run is still unclaimed, and that is what keeps v unfinished. */
      if (!it->cancelled && !wi->ok)
        s.piece_failed[v] = 1;
      /* Done when every runner is back and every piece was claimed (a
      ** runner returns only then, or on a stop, which leaves the node
      ** pending: cancelled below). */
      if (++f->back == f->runners && all_claimed(f)) {
        status[v] = s.piece_failed[v] ? DAG_FAILED : DAG_OK;
        finish(&s, v);
      }
      continue;
    }
    if (!it->cancelled && wi->ok && w->fanout) {
      uint32_t k = w->fanout(w->ctx, v);
      if (k > 0) {
        FanNode *f = &s.fan[s.ftail++];
        f->node = v;
        atomic_init(&f->next, 0);
        f->total = k;
        f->runners = f->back = 0;
        continue;
      }
    }
    status[v] = it->cancelled ? DAG_CANCELLED : (wi->ok ? DAG_OK : DAG_FAILED);
    finish(&s, v);
  }
  /* A stop request can leave fanned-out nodes with unsubmitted pieces:
  ** they count as cancelled. */
  bool all_ok = true;
  for (uint32_t v = 0; v < n; v++) {
    if (status[v] == DAG_PENDING)
      status[v] = DAG_CANCELLED;
    all_ok &= status[v] == DAG_OK;
  }
  return all_ok;
}
