/*
** refactor_graph.c: the order in which moved statements run.  Dependencies
** between statements (chains A->B, B->C, and moves nested in other
** moves), found through hashed buckets instead of comparing every pair;
** Kahn's topological order; and Terraform's "Cyclic dependency in move
** statements" for the cycles (internal/refactoring move_validate.go,
** move_execute.go).
*/
#include "refactor_priv.h"

#include <stdlib.h>
#include <string.h>

/* ---- Dependency graph ------------------------------------------------------- */

/* moduleInstanceCanMatch: o (shorter or equal) against e. */
static bool can_match(const SStep *o, uint32_t on, const SStep *e)
{
  for (uint32_t i = 0; i < on; i++) {
    if (strcmp(o[i].name, e[i].name) != 0)
      return false;
    if (!o[i].wild && !e[i].wild && !st_key_equal(o[i].key, e[i].key))
      return false;
  }
  return true;
}

static bool same_res(const Ep *x, const Ep *y)
{
  return x->mode == y->mode && strcmp(x->type, y->type) == 0 &&
         strcmp(x->name, y->name) == 0;
}

/* CanChainFrom: e (a statement's from) can select what o (another's to)
** selects. */
static bool chains(const Stmt *es, const Stmt *os)
{
  const Ep *e = &es->from, *o = &os->to;
  if (es->nsyn[0] != os->nsyn[1] ||
      !can_match(os->syn[1], os->nsyn[1], es->syn[0]))
    return false;
  if (!rf_ep_is_res(e) && !rf_ep_is_res(o))
    return true;
  if (e->kind != o->kind || !same_res(e, o))
    return false;
  return e->kind == EP_RES || st_key_equal(e->key, o->key);
}

/* NestedWithin: endpoint (es, ew) lies inside what (os, ow) selects. */
static bool nested(const Stmt *es, int ew, const Stmt *os, int ow)
{
  const Ep *e = ew ? &es->to : &es->from;
  const Ep *o = ow ? &os->to : &os->from;
  uint32_t en = es->nsyn[ew], on = os->nsyn[ow];
  if (on > en || !can_match(os->syn[ow], on, es->syn[ew]))
    return false;
  switch (o->kind) {
  case EP_MODCALL:
  case EP_MODINST:
    return rf_ep_is_res(e) ? true : en > on;
  case EP_RES:
    return en == on && e->kind == EP_RESINST && same_res(e, o);
  default:
    return false;
  }
}

static bool names_equal(const Ep *x, const Ep *y)
{
  if (x->nmods != y->nmods)
    return false;
  for (uint32_t i = 0; i < x->nmods; i++)
    if (strcmp(x->mods[i].name, y->mods[i].name) != 0)
      return false;
  return true;
}

/* IsModuleReIndex: only module keys differ between from and to. */
static bool module_reindex(const Stmt *s)
{
  return !rf_ep_is_res(&s->from) && names_equal(&s->from, &s->to);
}

/* The nesting half of statementDependsOn, for a pair already known to be
** nested: a must run after b unless a is a re-index inside b's module. */
static bool nesting_dep(const Stmt *a, const Stmt *b)
{
  if (a->depth >= b->depth)
    return true;
  return !module_reindex(a);
}

static const char *bucket_key(Arena *a, const Stmt *s, int w, uint32_t upto,
                              bool as_module)
{
  const Ep *e = w ? &s->to : &s->from;
  Buf b;
  buf_init(&b, a);
  buf_putc(&b, as_module ? 'M' : e->kind == EP_RES ? 'R' : 'I');
  for (uint32_t i = 0; i < upto; i++) {
    buf_putc(&b, '.');
    buf_puts(&b, s->syn[w][i].name);
  }
  if (!as_module) {
    buf_putc(&b, '|');
    st_format_resource(&b, "", e->mode, e->type, e->name);
    if (e->kind == EP_RESINST)
      st_format_key(&b, e->key);
  }
  return buf_str(&b);
}

static const char *res_bucket_key(Arena *a, const Stmt *s, int w)
{
  const Ep *e = w ? &s->to : &s->from;
  Buf b;
  buf_init(&b, a);
  buf_putc(&b, 'R');
  for (uint32_t i = 0; i < s->nsyn[w]; i++) {
    buf_putc(&b, '.');
    buf_puts(&b, s->syn[w][i].name);
  }
  buf_putc(&b, '|');
  st_format_resource(&b, "", e->mode, e->type, e->name);
  return buf_str(&b);
}

static const char *own_key(Arena *a, const Stmt *s, int w)
{
  const Ep *e = w ? &s->to : &s->from;
  return rf_ep_is_res(e) ? bucket_key(a, s, w, s->nsyn[w], false)
                      : bucket_key(a, s, w, s->nsyn[w], true);
}

static void add_dep(Ctx *c, Graph *g, uint32_t dependent, uint32_t on)
{
  rf_u32_push(c->a, &g->edges, dependent);
  rf_u32_push(c->a, &g->edges, on);
}

void rf_build_graph(Ctx *c, Graph *g)
{
  Arena *a = c->a;
  HMap buckets;
  rf_hm_init(&buckets, a, 2 * c->n);
  memset(g, 0, sizeof *g);
  g->n = c->n;
  /* Every endpoint goes in the bucket of its own address (names only for
  ** modules, resource and key for resources); tagged stmt*2 + to.  Only
  ** module and whole-resource endpoints can contain others. */
  bool containers = false;
  for (uint32_t i = 0; i < c->n; i++)
    for (int w = 0; w < 2; w++) {
      Stmt *s = &c->st[i];
      s->key[w] = own_key(a, s, w);
      containers |= (w ? s->to.kind : s->from.kind) != EP_RESINST;
      void **slot = rf_hm_slot(&buckets, s->key[w], true);
      if (!*slot)
        *slot = ARENA_NEW(a, U32List, 1);
      rf_u32_push(a, *slot, i * 2 + (uint32_t)w);
    }
  for (uint32_t i = 0; i < c->n; i++) {
    Stmt *s = &c->st[i];
    /* Chains: a later statement's from is this statement's to. */
    U32List *l = rf_hm_get(&buckets, s->key[1]);
    for (uint32_t k = 0; l && k < l->n; k++) {
      uint32_t j = l->p[k] / 2;
      if (j != i && (l->p[k] & 1) == 0 && chains(&c->st[j], s))
        add_dep(c, g, j, i);
    }
    /* Nesting: for each endpoint of s, the endpoints of other statements
    ** that could contain it live in the buckets of its ancestors. */
    for (int w = 0; containers && w < 2; w++) {
      const Ep *e = w ? &s->to : &s->from;
      uint32_t top = rf_ep_is_res(e) ? s->nsyn[w] : s->nsyn[w] - 1;
      for (uint32_t up = 1; up <= top + 1; up++) {
        const char *key;
        if (up <= top)
          key = bucket_key(a, s, w, up, true);
        else if (e->kind == EP_RESINST)
          key = res_bucket_key(a, s, w);
        else
          break;
        U32List *cl = rf_hm_get(&buckets, key);
        for (uint32_t k = 0; cl && k < cl->n; k++) {
          uint32_t j = cl->p[k] / 2;
          int ow = (int)(cl->p[k] & 1);
          if (j == i || !nested(s, w, &c->st[j], ow))
            continue;
          /* s's endpoint w lies inside j's endpoint ow. */
          Stmt *o = &c->st[j];
          if (ow == 1) {          /* inside j.to: s runs after j */
            if (nesting_dep(s, o))
              add_dep(c, g, i, j);
          } else if (nesting_dep(o, s)) {   /* inside j.from */
            add_dep(c, g, j, i);
          }
        }
      }
    }
  }
  uint32_t ne = g->edges.n / 2;
  g->off = ARENA_NEW(a, uint32_t, c->n + 1);
  g->adj = ARENA_NEW(a, uint32_t, ne + 1);
  g->ndeps = ARENA_NEW(a, uint32_t, c->n + 1);
  for (uint32_t k = 0; k < ne; k++) {
    g->off[g->edges.p[2 * k + 1]]++;
    g->ndeps[g->edges.p[2 * k]]++;
  }
  uint32_t sum = 0;
  for (uint32_t i = 0; i < c->n; i++) {
    uint32_t x = g->off[i];
    g->off[i] = sum;
    sum += x;
  }
  g->off[c->n] = sum;
  uint32_t *fill = ARENA_NEW(a, uint32_t, c->n + 1);
  for (uint32_t k = 0; k < ne; k++) {
    uint32_t on = g->edges.p[2 * k + 1];
    g->adj[g->off[on] + fill[on]++] = g->edges.p[2 * k];
  }
}

/* Kahn's order: dependencies first, declaration order among equals.
** Returns the number of statements ordered (< n when there is a cycle). */
uint32_t rf_topo_order(Ctx *c, Graph *g, uint32_t *order)
{
  uint32_t head = 0, tail = 0;
  uint32_t *need = ARENA_NEW(c->a, uint32_t, g->n + 1);
  memcpy(need, g->ndeps, g->n * sizeof *need);
  for (uint32_t i = 0; i < g->n; i++)
    if (need[i] == 0)
      order[tail++] = i;
  while (head < tail) {
    uint32_t v = order[head++];
    for (uint32_t k = g->off[v]; k < g->off[v + 1]; k++)
      if (--need[g->adj[k]] == 0)
        order[tail++] = g->adj[k];
  }
  return tail;
}

static const char *ep_pattern(Arena *a, const Stmt *s, int w)
{
  const Ep *e = w ? &s->to : &s->from;
  Buf b;
  buf_init(&b, a);
  for (uint32_t i = 0; i < s->depth; i++)
    buf_printf(&b, "module.%s[*].", s->decl_names[i]);
  Buf r;
  buf_init(&r, a);
  rf_put_mods(&r, e->mods, e->nmods, e->kind != EP_MODCALL);
  if (rf_ep_is_res(e))
    rf_put_res(&r, e);
  buf_puts(&b, buf_str(&r));
  if (e->kind == EP_RES || e->kind == EP_MODCALL)
    buf_puts(&b, "[*]");
  return buf_str(&b);
}

static int cmp_str(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Reports every strongly connected component with more than one
** statement (iterative Tarjan: chains can be thousands long). */
void rf_report_cycles(Ctx *c, Graph *g)
{
  Arena *a = c->a;
  uint32_t n = g->n;
  int64_t *idx = ARENA_NEW(a, int64_t, n + 1);
  int64_t *low = ARENA_NEW(a, int64_t, n + 1);
  bool *on = ARENA_NEW(a, bool, n + 1);
  uint32_t *stack = ARENA_NEW(a, uint32_t, n + 1);
  uint32_t *cs_v = ARENA_NEW(a, uint32_t, n + 1);
  uint32_t *cs_e = ARENA_NEW(a, uint32_t, n + 1);
  uint32_t sp = 0;
  int64_t counter = 0;
  for (uint32_t i = 0; i < n; i++)
    idx[i] = -1;
  for (uint32_t root = 0; root < n; root++) {
    if (idx[root] >= 0)
      continue;
    uint32_t csp = 0;
    cs_v[csp] = root;
    cs_e[csp++] = g->off[root];
    idx[root] = low[root] = counter++;
    stack[sp++] = root;
    on[root] = true;
    while (csp) {
      uint32_t v = cs_v[csp - 1];
      if (cs_e[csp - 1] < g->off[v + 1]) {
        uint32_t w = g->adj[cs_e[csp - 1]++];
        if (idx[w] < 0) {
          idx[w] = low[w] = counter++;
          stack[sp++] = w;
          on[w] = true;
          cs_v[csp] = w;
          cs_e[csp++] = g->off[w];
        } else if (on[w] && idx[w] < low[v]) {
          low[v] = idx[w];
        }
        continue;
      }
      csp--;
      if (csp && low[v] < low[cs_v[csp - 1]])
        low[cs_v[csp - 1]] = low[v];
      if (low[v] != idx[v])
        continue;
      uint32_t start = sp;
      do
        start--;
      while (stack[start] != v);
      uint32_t size = sp - start;
      if (size > 1) {
        const char **lines = ARENA_NEW(a, const char *, size);
        for (uint32_t k = 0; k < size; k++) {
          const Stmt *s = &c->st[stack[start + k]];
          lines[k] = arena_printf(
              a, "\n  - %s: %s \xe2\x86\x92 %s",
              rf_start_string(a, s->blk->range), ep_pattern(a, s, 0),
              ep_pattern(a, s, 1));
        }
        qsort(lines, size, sizeof *lines, cmp_str);
        Buf b;
        buf_init(&b, a);
        for (uint32_t k = 0; k < size; k++)
          buf_puts(&b, lines[k]);
        diag_error(c->d, NULL, "Cyclic dependency in move statements",
                   "The following chained move statements form a cycle, "
                   "and so there is no final location to move objects "
                   "to:%s\n\nA chain of move statements must end with an "
                   "address that doesn't appear in any other statements, "
                   "and which typically also refers to an object still "
                   "declared in the configuration.",
                   buf_str(&b));
      }
      for (uint32_t k = start; k < sp; k++)
        on[stack[k]] = false;
      sp = start;
    }
  }
}
