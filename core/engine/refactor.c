/*
** refactor.c: moved blocks up to their order (see refactor.h), and the
** module's shared helpers.  The rules follow Terraform's
** internal/refactoring (move_statement.go, move_validate.go,
** move_execute.go) and internal/addrs (move_endpoint.go,
** move_endpoint_module.go).
**
** Layout: small containers; endpoint parsing and unification; statement
** collection; validation; rf_apply_moves, which runs them, then orders
** the statements by their dependency graph (refactor_graph.c) and moves
** the objects in the State (refactor_state.c).  Removed blocks are
** refactor_removed.c.
*/
#include "refactor_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Containers ---------------------------------------------------------- */

void rf_pl_push(Arena *a, PList *l, void *v)
{
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 4;
    l->p = arena_grow(a, l->p, sizeof *l->p, _Alignof(void *), l->cap, nc);
    l->cap = nc;
  }
  l->p[l->n++] = v;
}

void rf_u32_push(Arena *a, U32List *l, uint32_t v)
{
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 4;
    l->p = arena_grow(a, l->p, sizeof *l->p, _Alignof(uint32_t), l->cap, nc);
    l->cap = nc;
  }
  l->p[l->n++] = v;
}

static uint64_t hash_str(const char *s)
{
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ull;
  }
  return h ^ (h >> 29);
}

/* hint: expected number of keys (sizes the table once). */
void rf_hm_init(HMap *m, Arena *a, uint32_t hint)
{
  memset(m, 0, sizeof *m);
  m->a = a;
  if (hint) {
    uint32_t cap = 64;
    while (cap < hint * 2 + 2 && cap < (1u << 30))
      cap *= 2;
    m->e = ARENA_NEW(a, HEnt, cap);
    m->cap = cap;
  }
}

static void hm_grow(HMap *m)
{
  uint32_t nc = m->cap ? m->cap * 2 : 64;
  HEnt *ne = ARENA_NEW(m->a, HEnt, nc);
  for (uint32_t i = 0; i < m->cap; i++) {
    if (!m->e[i].key)
      continue;
    uint32_t j = (uint32_t)m->e[i].h & (nc - 1);
    while (ne[j].key)
      j = (j + 1) & (nc - 1);
    ne[j] = m->e[i];
  }
  m->e = ne;
  m->cap = nc;
}

/* The value slot for key; created (NULL value) when create is set,
** otherwise NULL when absent. */
void **rf_hm_slot(HMap *m, const char *key, bool create)
{
  uint64_t h = hash_str(key);
  if (m->cap) {
    uint32_t j = (uint32_t)h & (m->cap - 1);
    while (m->e[j].key) {
      if (m->e[j].h == h && strcmp(m->e[j].key, key) == 0)
        return &m->e[j].val;
      j = (j + 1) & (m->cap - 1);
    }
  }
  if (!create)
    return NULL;
  if ((m->n + 1) * 2 > m->cap)
    hm_grow(m);
  uint32_t j = (uint32_t)h & (m->cap - 1);
  while (m->e[j].key)
    j = (j + 1) & (m->cap - 1);
  m->e[j].key = key;
  m->e[j].h = h;
  m->e[j].val = NULL;
  m->n++;
  return &m->e[j].val;
}

void *rf_hm_get(HMap *m, const char *key)
{
  void **s = rf_hm_slot(m, key, false);
  return s ? *s : NULL;
}

const char *rf_start_string(Arena *a, SrcRange r)
{
  return arena_printf(a, "%s:%u,%u", r.file ? r.file : "", r.start.line,
                      r.start.col);
}

/* ---- Endpoints ------------------------------------------------------------ */

static const char *const reserved[] = {
    "count", "each", "local", "module", "path", "self", "terraform",
    "var", "template", "lazy", "arg", "ephemeral", "list"};

static bool parse_key(Arena *a, const HclStep *st, StKey *out,
                      const char **err)
{
  Value v = *st->key;
  if (v.type && val_is_known(v) && !val_is_null(v)) {
    if (v.type->kind == TY_STRING) {
      *out = st_strkey(a, v.u.s, v.len);
      return true;
    }
    if (v.type->kind == TY_NUMBER) {
      int64_t i;
      if (val_num_int(v, &i)) {
        *out = st_intkey(i);
        return true;
      }
      *err = "value must be a whole number, between -9223372036854775808 "
             "and 9223372036854775807";
      return false;
    }
  }
  *err = "either a string or an integer is required";
  return false;
}

static SrcRange steps_range(const HclTraversal *t, uint32_t from)
{
  if (from >= t->n)
    return hcl_trav_range(t);
  return diag_range_join(t->steps[from].range, t->steps[t->n - 1].range);
}

bool rf_step_is_name(const HclStep *s, const char *name)
{
  return s->kind != HCL_STEP_INDEX && strcmp(s->name, name) == 0;
}

/* addrs.ParseMoveEndpoint: a module instance prefix, then optionally a
** resource instance.  Diagnostics as Terraform's. */
static bool parse_ep(Arena *a, const HclTraversal *t, Ep *ep, Diags *d)
{
  memset(ep, 0, sizeof *ep);
  uint32_t i = 0, n = t->n;
  const char *err;
  ep->mods = ARENA_NEW(a, MStep, n / 2 + 1);
  while (i < n && rf_step_is_name(&t->steps[i], "module")) {
    if (i + 1 >= n || t->steps[i + 1].kind != HCL_STEP_ATTR) {
      SrcRange r = t->steps[i + 1 < n ? i + 1 : i].range;
      diag_error(d, &r, "Invalid address operator",
                 "Prefix \"module.\" must be followed by a module name.");
      return false;
    }
    MStep *m = &ep->mods[ep->nmods++];
    m->name = t->steps[i + 1].name;
    m->key = st_nokey();
    i += 2;
    if (i < n && t->steps[i].kind == HCL_STEP_INDEX) {
      if (!parse_key(a, &t->steps[i], &m->key, &err)) {
        diag_error(d, &t->steps[i].range, "Invalid address operator",
                   "Invalid module instance key: %s.", err);
        return false;
      }
      i++;
    }
  }
  if (i == n) {
    if (ep->nmods == 0)
      return false; /* unreachable: a traversal has a root */
    ep->kind = ep->mods[ep->nmods - 1].key.kind == ST_NOKEY ? EP_MODCALL
                                                            : EP_MODINST;
    return true;
  }
  ep->mode = ST_MANAGED;
  if (rf_step_is_name(&t->steps[i], "data")) {
    ep->mode = ST_DATA;
    i++;
  } else if (rf_step_is_name(&t->steps[i], "resource")) {
    i++;
  } else if (t->steps[i].kind != HCL_STEP_INDEX) {
    for (size_t k = 0; k < sizeof reserved / sizeof *reserved; k++)
      if (strcmp(t->steps[i].name, reserved[k]) == 0) {
        SrcRange r = steps_range(t, i);
        diag_error(d, &r, "Invalid address",
                   "The keyword \"%s\" is reserved and cannot be used to "
                   "target a resource address. If you are targeting a "
                   "resource type that uses a reserved keyword, please "
                   "prefix your address with \"resource.\".",
                   reserved[k]);
        return false;
      }
  }
  if (n - i < 2) {
    SrcRange r = steps_range(t, i);
    diag_error(d, &r, "Invalid address",
               "Resource specification must include a resource type and "
               "name.");
    return false;
  }
  if (t->steps[i].kind == HCL_STEP_INDEX) {
    diag_error(d, &t->steps[i].range, "Invalid address",
               ep->mode == ST_DATA ? "A data source name is required."
                                   : "A resource type name is required.");
    return false;
  }
  if (t->steps[i + 1].kind != HCL_STEP_ATTR) {
    diag_error(d, &t->steps[i + 1].range, "Invalid address",
               "A resource name is required.");
    return false;
  }
  ep->type = t->steps[i].name;
  ep->name = t->steps[i + 1].name;
  ep->key = st_nokey();
  i += 2;
  if (n - i > 1) {
    diag_error(d, &t->steps[i + 1].range, "Invalid address",
               "Unexpected extra operators after address.");
    return false;
  }
  if (n - i == 1) {
    if (t->steps[i].kind != HCL_STEP_INDEX) {
      diag_error(d, &t->steps[i].range, "Invalid address",
                 "Resource instance key must be given in square brackets.");
      return false;
    }
    if (!parse_key(a, &t->steps[i], &ep->key, &err)) {
      diag_error(d, &t->steps[i].range, "Invalid address",
                 "Invalid resource instance key: %s.", err);
      return false;
    }
  }
  ep->kind = ep->key.kind == ST_NOKEY ? EP_RES : EP_RESINST;
  return true;
}

/* addrs.UnifyMoveEndpoints: both whole objects when both agree, else both
** instances; false when one is a module and the other a resource. */
static bool unify(Ep *f, Ep *t)
{
  if (rf_ep_is_res(f) != rf_ep_is_res(t))
    return false;
  EpKind want;
  if (rf_ep_is_res(f))
    want = f->kind == EP_RESINST || t->kind == EP_RESINST ? EP_RESINST
                                                          : EP_RES;
  else
    want = f->kind == EP_MODINST || t->kind == EP_MODINST ? EP_MODINST
                                                          : EP_MODCALL;
  f->kind = t->kind = want;
  return true;
}

void rf_put_mods(Buf *b, const MStep *m, uint32_t n, bool last_key)
{
  for (uint32_t i = 0; i < n; i++) {
    if (b->len)
      buf_putc(b, '.');
    buf_puts(b, "module.");
    buf_puts(b, m[i].name);
    if (i + 1 < n || last_key)
      st_format_key(b, m[i].key);
  }
}

void rf_put_res(Buf *b, const Ep *e)
{
  if (b->len)
    buf_putc(b, '.');
  st_format_resource(b, "", e->mode, e->type, e->name);
  if (e->kind == EP_RESINST)
    st_format_key(b, e->key);
}

/* The endpoint in module instance `prefix` (an address or a static path):
** what Terraform's AbsMoveable String() gives. */
static const char *ep_abs(Arena *a, const char *prefix, const Ep *e)
{
  Buf b;
  buf_init(&b, a);
  buf_puts(&b, prefix);
  rf_put_mods(&b, e->mods, e->nmods, e->kind != EP_MODCALL);
  if (rf_ep_is_res(e))
    rf_put_res(&b, e);
  return buf_str(&b);
}

/* ---- Statements ------------------------------------------------------------ */

void rf_synth(Arena *a, Stmt *st, int which)
{
  const Ep *e = which ? &st->to : &st->from;
  uint32_t n = st->depth + e->nmods;
  SStep *s = ARENA_NEW(a, SStep, n + 1);
  for (uint32_t i = 0; i < st->depth; i++) {
    s[i].name = st->decl_names[i];
    s[i].wild = true;
  }
  for (uint32_t i = 0; i < e->nmods; i++) {
    SStep *x = &s[st->depth + i];
    x->name = e->mods[i].name;
    x->key = e->mods[i].key;
    x->wild = e->kind == EP_MODCALL && i + 1 == e->nmods;
  }
  st->syn[which] = s;
  st->nsyn[which] = n;
}

static uint32_t count_moved(const CfgTree *t)
{
  uint32_t n = t->m ? t->m->nmoved : 0;
  for (uint32_t i = 0; t->m && i < t->m->ncalls; i++)
    if (t->children && t->children[i])
      n += count_moved(t->children[i]);
  return n;
}

static void collect(Ctx *c, const CfgTree *t)
{
  const CfgModule *m = t->m;
  for (uint32_t i = 0; m && i < m->nmoved; i++) {
    const CfgMoved *mv = &m->moved[i];
    Stmt s;
    memset(&s, 0, sizeof s);
    s.decl = t;
    s.blk = mv;
    bool ok = parse_ep(c->a, &mv->from, &s.from, c->d);
    ok = parse_ep(c->a, &mv->to, &s.to, c->d) && ok;
    if (!ok)
      continue;
    if (!unify(&s.from, &s.to)) {
      diag_error(c->d, &mv->range, "Invalid \"moved\" addresses",
                 "The \"from\" and \"to\" addresses must either both refer "
                 "to resources or both refer to modules.");
      continue;
    }
    s.depth = t->depth;
    s.decl_names = ARENA_NEW(c->a, const char *, t->depth + 1);
    uint32_t k = t->depth;
    for (const CfgTree *p = t; p->parent; p = p->parent)
      s.decl_names[--k] = p->call->name;
    rf_synth(c->a, &s, 0);
    rf_synth(c->a, &s, 1);
    if (c->n == c->cap) {
      uint32_t nc = c->cap ? c->cap * 2 : 16;
      c->st = arena_grow(c->a, c->st, sizeof *c->st, _Alignof(Stmt), c->cap,
                         nc);
      c->cap = nc;
    }
    c->st[c->n++] = s;
  }
  for (uint32_t i = 0; m && i < m->ncalls; i++)
    if (t->children && t->children[i])
      collect(c, t->children[i]);
}

/* ---- Validation ------------------------------------------------------------ */

const CfgTree *rf_child_named(const CfgTree *t, const char *name)
{
  for (uint32_t i = 0; t->m && i < t->m->ncalls; i++)
    if (strcmp(t->m->calls[i].name, name) == 0)
      return t->children ? t->children[i] : NULL;
  return NULL;
}

const CfgModuleCall *rf_call_named(const CfgTree *t, const char *name)
{
  return t->m ? cfg_call(t->m, name) : NULL;
}

/* Whether an object with key k of something with this count / for_each is
** declared: 1 yes, 0 no, 2 cannot tell before evaluation. */
static int key_declared(const HclExpr *count, const HclExpr *for_each,
                        StKey k)
{
  if (for_each)
    return k.kind == ST_STRKEY ? 2 : 0;
  if (count) {
    if (k.kind != ST_INTKEY)
      return 0;
    const HclExpr *e = hcl_expr_unwrap(count);
    int64_t n;
    Value lit = val_dynamic_null;
    if (e->kind == HCL_E_LITERAL)
      lit = e->u.lit;
    else if (e->kind == HCL_E_JSON && e->u.json->kind == HCL_J_NUMBER)
      lit = e->u.json->u.num;   /* "count": 2 in .tf.json */
    if (lit.type == &ty_number && val_is_known(lit) && !val_is_null(lit) &&
        val_num_int(lit, &n))
      return k.i >= 0 && k.i < n;
    return 2;
  }
  return k.kind == ST_NOKEY;
}

/* True (with the range to blame) when the configuration alone shows that
** the `from` endpoint is still declared. */
static bool still_declared(const Stmt *s, SrcRange *where)
{
  const Ep *e = &s->from;
  const CfgTree *t = s->decl;
  uint32_t nm = rf_ep_is_res(e) ? e->nmods : e->nmods - 1;
  for (uint32_t i = 0; i < nm; i++) {
    const CfgModuleCall *mc = rf_call_named(t, e->mods[i].name);
    if (!mc || key_declared(mc->count, mc->for_each, e->mods[i].key) != 1)
      return false;
    t = rf_child_named(t, e->mods[i].name);
    if (!t)
      return false;
  }
  if (!rf_ep_is_res(e)) {
    const MStep *last = &e->mods[e->nmods - 1];
    const CfgModuleCall *mc = rf_call_named(t, last->name);
    if (!mc)
      return false;
    if (e->kind == EP_MODCALL) {
      *where = mc->range;
      return true;
    }
    if (key_declared(mc->count, mc->for_each, last->key) != 1)
      return false;
    *where = mc->for_each ? mc->for_each->range
             : mc->count  ? mc->count->range
                          : mc->range;
    return true;
  }
  if (!t->m)
    return false;
  const CfgResource *r = cfg_resource(
      t->m, e->mode == ST_DATA ? CFG_DATA : CFG_MANAGED, e->type, e->name);
  if (!r)
    return false;
  if (e->kind == EP_RES) {
    *where = r->range;
    return true;
  }
  if (key_declared(r->count, r->for_each, e->key) != 1)
    return false;
  *where = r->for_each ? r->for_each->range
           : r->count  ? r->count->range
                       : r->range;
  return true;
}

static const char *noun(EpKind k, bool short_form)
{
  switch (k) {
  case EP_MODINST:
    return short_form ? "instance" : "module instance";
  case EP_MODCALL:
    return short_form ? "call" : "module call";
  case EP_RESINST:
    return short_form ? "instance" : "resource instance";
  default:
    return "resource";
  }
}

static const char *kind_key(Arena *a, EpKind k, const char *addr)
{
  size_t n = strlen(addr);
  char *p = arena_alloc_raw(a, 1, 1, n + 2);
  p[0] = (char)('0' + k);
  memcpy(p + 1, addr, n + 1);
  return p;
}

typedef struct Seen {
  const char *other;
  SrcRange range;
} Seen;

static void validate(Ctx *c)
{
  Arena *a = c->a;
  HMap from_seen, to_seen;
  rf_hm_init(&from_seen, a, c->n);
  rf_hm_init(&to_seen, a, c->n);
  for (uint32_t i = 0; i < c->n; i++) {
    Stmt *s = &c->st[i];
    const SrcRange *rng = &s->blk->range;
    const char *af = ep_abs(a, s->decl->path, &s->from);
    const char *at = ep_abs(a, s->decl->path, &s->to);
    if (strcmp(af, at) == 0) {
      diag_error(c->d, rng, "Redundant move statement",
                 "This statement declares a move from %s to the same "
                 "address, which is the same as not declaring this move at "
                 "all.",
                 af);
      continue;
    }
    const char *nn = noun(s->from.kind, false);
    const char *sn = noun(s->from.kind, true);
    SrcRange where;
    if (still_declared(s, &where))
      diag_error(c->d, rng, "Moved object still exists",
                 "This statement declares a move from %s, but that %s is "
                 "still declared at %s.\n\nChange your configuration so that "
                 "this %s will be declared as %s instead.",
                 af, nn, rf_start_string(a, where), sn, at);
    /* Keys carry the kind: a module call and its no-key instance print
    ** the same. */
    const char *kf = kind_key(a, s->from.kind, af);
    const char *kt = kind_key(a, s->from.kind, at);
    void **slot = rf_hm_slot(&from_seen, kf, true);
    if (*slot) {
      Seen *x = *slot;
      if (strcmp(x->other, at) != 0)
        diag_error(c->d, rng, "Ambiguous move statements",
                   "A statement at %s declared that %s moved to %s, but "
                   "this statement instead declares that it moved to "
                   "%s.\n\nEach %s can move to only one destination %s.",
                   rf_start_string(a, x->range), af, x->other, at, nn, sn);
    } else {
      Seen *x = ARENA_NEW(a, Seen, 1);
      x->other = at;
      x->range = *rng;
      *slot = x;
    }
    slot = rf_hm_slot(&to_seen, kt, true);
    if (*slot) {
      Seen *x = *slot;
      if (strcmp(x->other, af) != 0)
        diag_error(c->d, rng, "Ambiguous move statements",
                   "A statement at %s declared that %s moved to %s, but "
                   "this statement instead declares that %s moved "
                   "there.\n\nEach %s can have moved from only one source "
                   "%s.",
                   rf_start_string(a, x->range), x->other, at, af, nn, sn);
    } else {
      Seen *x = ARENA_NEW(a, Seen, 1);
      x->other = af;
      x->range = *rng;
      *slot = x;
    }
    /* Managed resources may change type (Terraform 1.8+: the target's
    ** provider converts the object, engine_move.c); data sources not. */
    if (rf_ep_is_res(&s->from) &&
        (s->from.mode != s->to.mode ||
         (s->from.mode == ST_DATA && strcmp(s->from.type, s->to.type) != 0)))
      diag_error(c->d, rng, "Resource type mismatch",
                 "This statement declares a move from %s to %s, which is a "
                 "%s of a different type.",
                 af, at, nn);
  }
}

static int cmp_move_to(const void *x, const void *y)
{
  return strcmp(((const RfMove *)x)->to, ((const RfMove *)y)->to);
}

bool rf_apply_moves(Arena *a, const CfgTree *t, State *s, RfMoves *out,
                    Diags *d)
{
  out->items = NULL;
  out->n = 0;
  if (!t)
    return true;
  /* Statements, indexes and the graph are scratch: only the moves (in a),
  ** the State's objects and the diagnostics outlive this call. */
  Arena tmp;
  arena_init(&tmp, 0);
  Ctx c;
  memset(&c, 0, sizeof c);
  c.a = &tmp;
  c.d = d;
  c.root = t;
  int before = d->errors;
  bool ok = true;
  c.cap = count_moved(t);
  c.st = ARENA_NEW(&tmp, Stmt, c.cap + 1);
  collect(&c, t);
  if (d->errors > before)
    goto done;
  validate(&c);
  if (d->errors > before)
    goto done;
  /* Implied statements come after the explicit ones (Terraform appends
  ** them) and need no validation: they only ever name declared
  ** resources. */
  if (s)
    rf_add_implied(&c, s);
  if (c.n == 0)
    goto done;
  Graph g;
  rf_build_graph(&c, &g);
  uint32_t *order = ARENA_NEW(&tmp, uint32_t, c.n + 1);
  if (rf_topo_order(&c, &g, order) < c.n) {
    rf_report_cycles(&c, &g);
    goto done;
  }
  if (s) {
    rf_apply_all(&c, s, order, a, out);
    qsort(out->items, out->n, sizeof *out->items, cmp_move_to);
  }
done:
  ok = d->errors == before;
  arena_release(&tmp);
  return ok;
}

const char *rf_prev_addr(const RfMoves *m, const char *new_instance_addr)
{
  size_t lo = 0, hi = m ? m->n : 0;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int r = strcmp(m->items[mid].to, new_instance_addr);
    if (r == 0)
      return m->items[mid].from;
    if (r < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}
