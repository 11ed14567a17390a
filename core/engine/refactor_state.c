/*
** refactor_state.c: applying ordered moved statements to the State.  The
** state index (module instances by address and by static path), moving
** resource instances, whole resources and module instances, and the net
** effect per instance that rf_apply_moves returns (Terraform's
** internal/refactoring move_execute.go).
*/
#include "refactor_priv.h"

#include <stdlib.h>
#include <string.h>

/* ---- State index -------------------------------------------------------------- */

/* Skips a "[...]" key at p; NULL when malformed. */
static const char *skip_key(const char *p)
{
  p++;
  if (*p == '"') {
    p++;
    while (*p && *p != '"') {
      if (*p == '\\' && p[1])
        p++;
      p++;
    }
    if (*p != '"')
      return NULL;
    p++;
  } else {
    while (*p && *p != ']')
      p++;
  }
  return *p == ']' ? p + 1 : NULL;
}

/* One "module.NAME[KEY]" step of a module instance address at p: returns
** the position after it (and after a following '.'), or NULL at the end
** or on malformed text. */
const char *rf_mi_step(const char *p, const char **name, size_t *nlen,
                       const char **key, size_t *klen)
{
  if (strncmp(p, "module.", 7) != 0)
    return NULL;
  p += 7;
  *name = p;
  while (*p && *p != '.' && *p != '[')
    p++;
  *nlen = (size_t)(p - *name);
  *key = p;
  if (*p == '[' && !(p = skip_key(p)))
    return NULL;
  *klen = (size_t)(p - *key);
  if (*p == '.')
    p++;
  return p;
}

typedef struct Mod {
  const char *addr;       /* module instance address, "" for the root */
  const char *key;        /* last step's key text ("[0]"), "" for none */
  PList res;              /* StResource *; may be stale (moved away) */
  PList kids;             /* Mod *: direct child module instances */
} Mod;

typedef struct Idx {
  Arena *a;               /* scratch */
  Arena *out;             /* the caller's: RfMove records and strings */
  State *s;
  HMap mods;              /* address -> Mod */
  HMap statics;           /* static path -> PList of Mod */
  HMap rec;               /* instance address -> RfMove (current) */
  PList moves;            /* RfMove * in order */
  PList blocked;          /* pairs of strings: actual, wanted */
} Idx;

static Mod *reg_mod(Idx *x, const char *addr)
{
  void **slot = rf_hm_slot(&x->mods, addr, false);
  if (slot)
    return *slot;
  Mod *m = ARENA_NEW(x->a, Mod, 1);
  m->addr = arena_strdup(x->a, addr);
  m->key = "";
  Buf st;
  buf_init(&st, x->a);
  Mod *parent = NULL;
  if (*addr) {
    const char *p = addr, *last = addr, *name, *key;
    size_t nl, kl;
    const char *q;
    while ((q = rf_mi_step(p, &name, &nl, &key, &kl))) {
      if (st.len)
        buf_putc(&st, '.');
      buf_puts(&st, "module.");
      buf_put(&st, name, nl);
      m->key = arena_strndup(x->a, key, kl);
      last = p;
      p = q;
      if (!*q)
        break;
    }
    size_t plen = last > addr ? (size_t)(last - addr) - 1 : 0;
    parent = reg_mod(x, arena_strndup(x->a, addr, plen));
  }
  *rf_hm_slot(&x->mods, m->addr, true) = m;
  if (parent)
    rf_pl_push(x->a, &parent->kids, m);
  const char *sp = buf_str(&st);
  void **ss = rf_hm_slot(&x->statics, sp, true);
  if (!*ss)
    *ss = ARENA_NEW(x->a, PList, 1);
  rf_pl_push(x->a, *ss, m);
  return m;
}

static void idx_add(Idx *x, StResource *r)
{
  rf_pl_push(x->a, &reg_mod(x, r->module)->res, r);
}

static bool live(const Idx *x, const StResource *r)
{
  return r->ninst > 0 && st_find_resource_addr(x->s, r->addr) == r;
}

static bool mod_has_res(const Idx *x, const Mod *m)
{
  for (uint32_t i = 0; i < m->res.n; i++)
    if (live(x, m->res.p[i]))
      return true;
  return false;
}

static void record(Idx *x, const char *from, const char *to)
{
  void **slot = rf_hm_slot(&x->rec, from, false);
  RfMove *m = slot ? *slot : NULL;
  if (m) {
    *slot = NULL;
  } else {
    m = ARENA_NEW(x->out, RfMove, 1);
    m->from = from;
    rf_pl_push(x->a, &x->moves, m);
  }
  m->to = to;
  *rf_hm_slot(&x->rec, to, true) = m;
}

static void block(Idx *x, const char *actual, const char *wanted)
{
  rf_pl_push(x->a, &x->blocked, (void *)actual);
  rf_pl_push(x->a, &x->blocked, (void *)wanted);
}

/* Moves every object of (from, fk) to (to, tk); to's instance is free. */
static void move_inst(Idx *x, StResource *from, StKey fk, StResource *to,
                      StKey tk)
{
  State *s = x->s;
  StInstance *in = st_find_instance(s, from, fk);
  if (!in)
    return;
  const char *fa = st_instance_addr(x->out, from, fk);
  const char *ta = st_instance_addr(x->out, to, tk);
  StObject *cur = in->current;
  uint32_t nd = in->ndeposed;
  StDeposed *dep = ARENA_NEW(x->a, StDeposed, nd + 1);
  if (nd)
    memcpy(dep, in->deposed, nd * sizeof *dep);
  if (cur)
    st_set_current(s, to, tk, cur);
  for (uint32_t k = 0; k < nd; k++)
    st_set_deposed(s, to, tk, dep[k].key, dep[k].obj);
  /* Clearing the last object prunes the instance (and the resource), so
  ** the current object goes last. */
  for (uint32_t k = 0; k < nd; k++)
    st_set_deposed(s, from, fk, dep[k].key, NULL);
  if (cur)
    st_set_current(s, from, fk, NULL);
  record(x, fa, ta);
}

static StResource *ensure_res(Idx *x, const char *module, const StResource *like,
                              const char *type, const char *name)
{
  bool existed = st_find_resource(x->s, module, like->mode, type, name);
  StResource *r = st_ensure_resource(x->s, module, like->mode, type, name,
                                     existed ? NULL : like->provider);
  if (!existed)
    idx_add(x, r);
  return r;
}

static void move_whole(Idx *x, StResource *r, const char *module,
                       const char *type, const char *name)
{
  StResource *to = ensure_res(x, module, r, type, name);
  uint32_t n = r->ninst;
  StKey *keys = ARENA_NEW(x->a, StKey, n + 1);
  for (uint32_t k = 0; k < n; k++)
    keys[k] = r->inst[k]->key;
  for (uint32_t k = 0; k < n; k++)
    move_inst(x, r, keys[k], to, keys[k]);
}

static const char *join(Arena *a, const char *mi, const MStep *m, uint32_t n)
{
  if (n == 0)
    return mi;
  Buf b;
  buf_init(&b, a);
  buf_puts(&b, mi);
  rf_put_mods(&b, m, n, true);
  return buf_str(&b);
}

static void apply_res(Idx *x, const Stmt *s, const char *mi)
{
  Arena *a = x->a;
  const Ep *f = &s->from, *t = &s->to;
  const char *fm = join(a, mi, f->mods, f->nmods);
  const char *tm = join(a, mi, t->mods, t->nmods);
  StResource *r = st_find_resource(x->s, fm, f->mode, f->type, f->name);
  if (!r)
    return;
  StResource *tr = st_find_resource(x->s, tm, t->mode, t->type, t->name);
  if (f->kind == EP_RES) {
    if (tr) {
      Buf fb, tb;
      buf_init(&fb, a);
      buf_init(&tb, a);
      st_format_resource(&fb, fm, f->mode, f->type, f->name);
      st_format_resource(&tb, tm, t->mode, t->type, t->name);
      block(x, buf_str(&fb), buf_str(&tb));
      return;
    }
    move_whole(x, r, tm, t->type, t->name);
    return;
  }
  if (!st_find_instance(x->s, r, f->key))
    return;
  if (tr && st_find_instance(x->s, tr, t->key)) {
    block(x, st_instance_addr(a, r, f->key), st_instance_addr(a, tr, t->key));
    return;
  }
  if (!tr)
    tr = ensure_res(x, tm, r, t->type, t->name);
  move_inst(x, r, f->key, tr, t->key);
}

static void collect_subtree(Arena *a, Mod *m, PList *out)
{
  uint32_t start = out->n;
  rf_pl_push(a, out, m);
  for (uint32_t i = start; i < out->n; i++) {
    Mod *k = out->p[i];
    for (uint32_t j = 0; j < k->kids.n; j++)
      rf_pl_push(a, out, k->kids.p[j]);
  }
}

/* Moves module instance c (matched by the statement) and everything below
** it to the new prefix np. */
static void move_module(Idx *x, Mod *c, const char *np)
{
  Arena *a = x->a;
  PList sub = {0};
  collect_subtree(a, c, &sub);
  size_t cl = strlen(c->addr);
  for (uint32_t i = 0; i < sub.n; i++) {
    Mod *m = sub.p[i];
    if (!mod_has_res(x, m))
      continue;
    const char *na = arena_printf(a, "%s%s", np, m->addr + cl);
    Mod *dst = rf_hm_get(&x->mods, na);
    if (dst && mod_has_res(x, dst)) {
      block(x, m->addr, na);
      continue;
    }
    uint32_t n = m->res.n;
    StResource **rs = ARENA_NEW(a, StResource *, n + 1);
    memcpy(rs, m->res.p, n * sizeof *rs);
    for (uint32_t k = 0; k < n; k++)
      if (live(x, rs[k]))
        move_whole(x, rs[k], na, rs[k]->type, rs[k]->name);
  }
}

static void apply_mod(Idx *x, const Stmt *s, const char *mi)
{
  Arena *a = x->a;
  const Ep *f = &s->from, *t = &s->to;
  const MStep *fl = &f->mods[f->nmods - 1], *tl = &t->mods[t->nmods - 1];
  if (f->kind == EP_MODINST) {
    Mod *c = rf_hm_get(&x->mods, join(a, mi, f->mods, f->nmods));
    if (c)
      move_module(x, c, join(a, mi, t->mods, t->nmods));
    return;
  }
  Mod *p = rf_hm_get(&x->mods, join(a, mi, f->mods, f->nmods - 1));
  if (!p)
    return;
  const char *tp = join(a, mi, t->mods, t->nmods - 1);
  PList cand = {0};
  size_t fnl = strlen(fl->name);
  for (uint32_t i = 0; i < p->kids.n; i++) {
    Mod *k = p->kids.p[i];
    const char *name, *key;
    size_t nl, kl;
    const char *tail = k->addr + strlen(p->addr) + (*p->addr ? 1 : 0);
    if (rf_mi_step(tail, &name, &nl, &key, &kl) && nl == fnl &&
        memcmp(name, fl->name, nl) == 0)
      rf_pl_push(a, &cand, k);
  }
  for (uint32_t i = 0; i < cand.n; i++) {
    Mod *k = cand.p[i];
    const char *np = arena_printf(a, "%s%smodule.%s%s", tp, *tp ? "." : "",
                                  tl->name, k->key);
    move_module(x, k, np);
  }
}

void rf_apply_all(Ctx *c, State *s, const uint32_t *order,
                  Arena *outa, RfMoves *out)
{
  Arena *a = c->a;
  Idx x;
  memset(&x, 0, sizeof x);
  x.a = a;
  x.out = outa;
  x.s = s;
  rf_hm_init(&x.mods, a, 0);
  rf_hm_init(&x.statics, a, 0);
  rf_hm_init(&x.rec, a, c->n);
  st_sort(s);
  reg_mod(&x, "");
  for (uint32_t i = 0; i < s->nres; i++)
    idx_add(&x, s->res[i]);
  for (uint32_t k = 0; k < c->n; k++) {
    const Stmt *st = &c->st[order[k]];
    PList *insts = rf_hm_get(&x.statics, st->decl->path);
    /* Index loop: moves may register new instances of this module (the
    ** list may grow and move); those are new homes, not sources. */
    uint32_t n0 = insts ? insts->n : 0;
    for (uint32_t i = 0; i < n0; i++) {
      Mod *mi = insts->p[i];
      if (rf_ep_is_res(&st->from))
        apply_res(&x, st, mi->addr);
      else
        apply_mod(&x, st, mi->addr);
    }
  }
  uint32_t n = 0;
  out->items = ARENA_NEW(outa, RfMove, x.moves.n + 1);
  for (uint32_t i = 0; i < x.moves.n; i++) {
    RfMove *m = x.moves.p[i];
    if (strcmp(m->from, m->to) != 0)
      out->items[n++] = *m;
  }
  out->n = n;
  if (x.blocked.n) {
    Buf b;
    buf_init(&b, a);
    for (uint32_t i = 0; i + 1 < x.blocked.n; i += 2)
      buf_printf(&b, "\n  - %s could not move to %s",
                 (const char *)x.blocked.p[i],
                 (const char *)x.blocked.p[i + 1]);
    diag_warning(c->d, NULL, "Unresolved resource instance address changes",
                 "Terraform tried to adjust resource instance addresses in "
                 "the prior state based on change information recorded in "
                 "the configuration, but some adjustments did not succeed "
                 "due to existing objects already at the intended "
                 "addresses:%s\n\nTerraform has planned to destroy these "
                 "objects. If Terraform's proposed changes aren't "
                 "appropriate, you must first resolve the conflicts using "
                 "the \"terraform state\" subcommands and then create a new "
                 "plan.",
                 buf_str(&b));
  }
}
