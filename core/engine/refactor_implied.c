/*
** refactor_implied.c: Terraform's implied move statements
** (internal/refactoring ImpliedMoveStatements).  Adding `count` to a
** resource that has a no-key object moves it to [0]; removing count (and
** having no for_each) moves [0] to the no-key address, so the object is
** kept instead of destroyed and created again.  for_each is never implied.
** A resource that an explicit moved block names (from or to) gets no
** implied statement: its author may want another key kept.
*/
#include "refactor_priv.h"

#include <string.h>

/* The static module path ("module.a.module.b", "" for the root) of a
** module instance address, in a. */
static const char *static_path(Arena *a, const char *mi)
{
  Buf b;
  buf_init(&b, a);
  const char *p = mi, *name, *key;
  size_t nlen, klen;
  while (p && *p && (p = rf_mi_step(p, &name, &nlen, &key, &klen))) {
    if (b.len)
      buf_putc(&b, '.');
    buf_puts(&b, "module.");
    buf_put(&b, name, nlen);
  }
  return buf_str(&b);
}

/* The static module path an explicit statement's endpoint lives in. */
static const char *ep_static_path(Arena *a, const Stmt *s, int which)
{
  Buf b;
  buf_init(&b, a);
  for (uint32_t i = 0; i < s->nsyn[which]; i++)
    buf_printf(&b, "%smodule.%s", i ? "." : "", s->syn[which][i].name);
  return buf_str(&b);
}

/* haveMoveStatementForResource, on static addresses. */
static bool named_by_explicit(Ctx *c, uint32_t nexplicit, const char *path,
                              const CfgResource *r)
{
  for (uint32_t i = 0; i < nexplicit; i++) {
    const Stmt *s = &c->st[i];
    for (int w = 0; w < 2; w++) {
      const Ep *e = w ? &s->to : &s->from;
      if (rf_ep_is_res(e) && (int)e->mode == (int)r->mode &&
          strcmp(e->type, r->type) == 0 && strcmp(e->name, r->name) == 0 &&
          strcmp(ep_static_path(c->a, s, w), path) == 0)
        return true;
    }
  }
  return false;
}

static void push(Ctx *c, const Stmt *s)
{
  if (c->n == c->cap) {
    uint32_t nc = c->cap ? c->cap * 2 : 16;
    c->st = arena_grow(c->a, c->st, sizeof *c->st, _Alignof(Stmt), c->cap,
                       nc);
    c->cap = nc;
  }
  c->st[c->n++] = *s;
}

void rf_add_implied(Ctx *c, const State *s)
{
  uint32_t nexplicit = c->n;
  HMap seen;
  rf_hm_init(&seen, c->a, 0);
  for (uint32_t i = 0; i < s->nres; i++) {
    const StResource *sr = s->res[i];
    const char *path = static_path(c->a, sr->module);
    const CfgTree *t = cfg_tree_find(c->root, path);
    if (!t)
      continue;
    const CfgResource *r = cfg_resource(t->m, sr->mode == ST_DATA ? CFG_DATA
                                                                   : CFG_MANAGED,
                                        sr->type, sr->name);
    if (!r)
      continue;
    StKey from, to;
    if (r->count) {
      from = st_nokey();
      to = st_intkey(0);
    } else if (!r->for_each) {
      from = st_intkey(0);
      to = st_nokey();
    } else {
      continue;
    }
    if (!st_find_instance(s, sr, from))
      continue;
    /* One statement per configured resource covers every instance of its
    ** module (statements apply to all of them). */
    const char *key = arena_printf(c->a, "%s|%d|%s.%s", path, (int)r->mode,
                                   r->type, r->name);
    void **slot = rf_hm_slot(&seen, key, true);
    if (*slot)
      continue;
    *slot = (void *)r;
    if (named_by_explicit(c, nexplicit, path, r))
      continue;
    Stmt st;
    memset(&st, 0, sizeof st);
    st.decl = t;
    CfgMoved *blk = ARENA_NEW(c->a, CfgMoved, 1);
    blk->range = r->count ? r->count->range : r->range;
    st.blk = blk;
    Ep e = {EP_RESINST, NULL, 0, (StMode)r->mode, r->type, r->name, from};
    st.from = e;
    e.key = to;
    st.to = e;
    st.depth = t->depth;
    st.decl_names = ARENA_NEW(c->a, const char *, t->depth + 1);
    uint32_t k = t->depth;
    for (const CfgTree *p = t; p->parent; p = p->parent)
      st.decl_names[--k] = p->call->name;
    rf_synth(c->a, &st, 0);
    rf_synth(c->a, &st, 1);
    push(c, &st);
  }
}
