/*
** refactor.c: moved and removed blocks (see refactor.h).  The rules follow
** Terraform's internal/refactoring (move_statement.go, move_validate.go,
** move_execute.go, remove_statement.go) and internal/addrs
** (move_endpoint.go, move_endpoint_module.go, remove_target.go).
**
** Layout: small containers; endpoint parsing and unification; statement
** collection; validation; the dependency graph (chains and nesting, found
** through hashed buckets instead of comparing every pair); the state
** index (module instances by address and by static path) and the moves;
** removed blocks.
*/
#include "refactor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Containers ---------------------------------------------------------- */

typedef struct PList {
  void **p;
  uint32_t n, cap;
} PList;

static void pl_push(Arena *a, PList *l, void *v)
{
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 4;
    l->p = arena_grow(a, l->p, sizeof *l->p, _Alignof(void *), l->cap, nc);
    l->cap = nc;
  }
  l->p[l->n++] = v;
}

typedef struct U32List {
  uint32_t *p;
  uint32_t n, cap;
} U32List;

static void u32_push(Arena *a, U32List *l, uint32_t v)
{
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 4;
    l->p = arena_grow(a, l->p, sizeof *l->p, _Alignof(uint32_t), l->cap, nc);
    l->cap = nc;
  }
  l->p[l->n++] = v;
}

/* String-keyed hash map (open addressing); keys are not copied. */
typedef struct HEnt {
  const char *key;
  uint64_t h;
  void *val;
} HEnt;

typedef struct HMap {
  Arena *a;
  HEnt *e;
  uint32_t cap, n;
} HMap;

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
static void hm_init(HMap *m, Arena *a, uint32_t hint)
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
static void **hm_slot(HMap *m, const char *key, bool create)
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

static void *hm_get(HMap *m, const char *key)
{
  void **s = hm_slot(m, key, false);
  return s ? *s : NULL;
}

static const char *start_string(Arena *a, SrcRange r)
{
  return arena_printf(a, "%s:%u,%u", r.file ? r.file : "", r.start.line,
                      r.start.col);
}

/* ---- Endpoints ------------------------------------------------------------ */

typedef enum EpKind { EP_MODCALL, EP_MODINST, EP_RES, EP_RESINST } EpKind;

typedef struct MStep {
  const char *name;
  StKey key;
} MStep;

/* A move endpoint relative to its module: module steps, then (for
** resource kinds) the resource and its key. */
typedef struct Ep {
  EpKind kind;
  MStep *mods;
  uint32_t nmods;
  StMode mode;
  const char *type, *name;
  StKey key;
} Ep;

static bool ep_is_res(const Ep *e) { return e->kind >= EP_RES; }

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

static bool step_is_name(const HclStep *s, const char *name)
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
  while (i < n && step_is_name(&t->steps[i], "module")) {
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
  if (step_is_name(&t->steps[i], "data")) {
    ep->mode = ST_DATA;
    i++;
  } else if (step_is_name(&t->steps[i], "resource")) {
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
  if (ep_is_res(f) != ep_is_res(t))
    return false;
  EpKind want;
  if (ep_is_res(f))
    want = f->kind == EP_RESINST || t->kind == EP_RESINST ? EP_RESINST
                                                          : EP_RES;
  else
    want = f->kind == EP_MODINST || t->kind == EP_MODINST ? EP_MODINST
                                                          : EP_MODCALL;
  f->kind = t->kind = want;
  return true;
}

static void put_mods(Buf *b, const MStep *m, uint32_t n, bool last_key)
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

static void put_res(Buf *b, const Ep *e)
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
  put_mods(&b, e->mods, e->nmods, e->kind != EP_MODCALL);
  if (ep_is_res(e))
    put_res(&b, e);
  return buf_str(&b);
}

/* ---- Statements ------------------------------------------------------------ */

/* A step of a statement's synthesised module path: the declaring module's
** steps are wildcards (the statement applies to all its instances). */
typedef struct SStep {
  const char *name;
  bool wild;
  StKey key;
} SStep;

typedef struct Stmt {
  const CfgTree *decl;
  const CfgMoved *blk;
  Ep from, to;
  SStep *syn[2];          /* from, to */
  uint32_t nsyn[2];
  const char **decl_names;
  uint32_t depth;
  const char *key[2];     /* own bucket keys (graph) */
} Stmt;

static void synth(Arena *a, Stmt *st, int which)
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

typedef struct Ctx {
  Arena *a;
  Diags *d;
  const CfgTree *root;
  Stmt *st;
  uint32_t n, cap;
} Ctx;

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
    synth(c->a, &s, 0);
    synth(c->a, &s, 1);
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

static const CfgTree *child_named(const CfgTree *t, const char *name)
{
  for (uint32_t i = 0; t->m && i < t->m->ncalls; i++)
    if (strcmp(t->m->calls[i].name, name) == 0)
      return t->children ? t->children[i] : NULL;
  return NULL;
}

static const CfgModuleCall *call_named(const CfgTree *t, const char *name)
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
  uint32_t nm = ep_is_res(e) ? e->nmods : e->nmods - 1;
  for (uint32_t i = 0; i < nm; i++) {
    const CfgModuleCall *mc = call_named(t, e->mods[i].name);
    if (!mc || key_declared(mc->count, mc->for_each, e->mods[i].key) != 1)
      return false;
    t = child_named(t, e->mods[i].name);
    if (!t)
      return false;
  }
  if (!ep_is_res(e)) {
    const MStep *last = &e->mods[e->nmods - 1];
    const CfgModuleCall *mc = call_named(t, last->name);
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
  hm_init(&from_seen, a, c->n);
  hm_init(&to_seen, a, c->n);
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
                 af, nn, start_string(a, where), sn, at);
    /* Keys carry the kind: a module call and its no-key instance print
    ** the same. */
    const char *kf = kind_key(a, s->from.kind, af);
    const char *kt = kind_key(a, s->from.kind, at);
    void **slot = hm_slot(&from_seen, kf, true);
    if (*slot) {
      Seen *x = *slot;
      if (strcmp(x->other, at) != 0)
        diag_error(c->d, rng, "Ambiguous move statements",
                   "A statement at %s declared that %s moved to %s, but "
                   "this statement instead declares that it moved to "
                   "%s.\n\nEach %s can move to only one destination %s.",
                   start_string(a, x->range), af, x->other, at, nn, sn);
    } else {
      Seen *x = ARENA_NEW(a, Seen, 1);
      x->other = at;
      x->range = *rng;
      *slot = x;
    }
    slot = hm_slot(&to_seen, kt, true);
    if (*slot) {
      Seen *x = *slot;
      if (strcmp(x->other, af) != 0)
        diag_error(c->d, rng, "Ambiguous move statements",
                   "A statement at %s declared that %s moved to %s, but "
                   "this statement instead declares that %s moved "
                   "there.\n\nEach %s can have moved from only one source "
                   "%s.",
                   start_string(a, x->range), x->other, at, af, nn, sn);
    } else {
      Seen *x = ARENA_NEW(a, Seen, 1);
      x->other = af;
      x->range = *rng;
      *slot = x;
    }
    if (ep_is_res(&s->from) && (strcmp(s->from.type, s->to.type) != 0 ||
                                s->from.mode != s->to.mode))
      diag_error(c->d, rng, "Resource type mismatch",
                 "This statement declares a move from %s to %s, which is a "
                 "%s of a different type.",
                 af, at, nn);
  }
}

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
  if (!ep_is_res(e) && !ep_is_res(o))
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
    return ep_is_res(e) ? true : en > on;
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
  return !ep_is_res(&s->from) && names_equal(&s->from, &s->to);
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
  return ep_is_res(e) ? bucket_key(a, s, w, s->nsyn[w], false)
                      : bucket_key(a, s, w, s->nsyn[w], true);
}

typedef struct Graph {
  uint32_t n;
  U32List edges;          /* pairs: dependent, dependency */
  uint32_t *off, *adj;    /* CSR: dependency -> dependents */
  uint32_t *ndeps;        /* unmet dependencies per statement */
} Graph;

static void add_dep(Ctx *c, Graph *g, uint32_t dependent, uint32_t on)
{
  u32_push(c->a, &g->edges, dependent);
  u32_push(c->a, &g->edges, on);
}

static void build_graph(Ctx *c, Graph *g)
{
  Arena *a = c->a;
  HMap buckets;
  hm_init(&buckets, a, 2 * c->n);
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
      void **slot = hm_slot(&buckets, s->key[w], true);
      if (!*slot)
        *slot = ARENA_NEW(a, U32List, 1);
      u32_push(a, *slot, i * 2 + (uint32_t)w);
    }
  for (uint32_t i = 0; i < c->n; i++) {
    Stmt *s = &c->st[i];
    /* Chains: a later statement's from is this statement's to. */
    U32List *l = hm_get(&buckets, s->key[1]);
    for (uint32_t k = 0; l && k < l->n; k++) {
      uint32_t j = l->p[k] / 2;
      if (j != i && (l->p[k] & 1) == 0 && chains(&c->st[j], s))
        add_dep(c, g, j, i);
    }
    /* Nesting: for each endpoint of s, the endpoints of other statements
    ** that could contain it live in the buckets of its ancestors. */
    for (int w = 0; containers && w < 2; w++) {
      const Ep *e = w ? &s->to : &s->from;
      uint32_t top = ep_is_res(e) ? s->nsyn[w] : s->nsyn[w] - 1;
      for (uint32_t up = 1; up <= top + 1; up++) {
        const char *key;
        if (up <= top)
          key = bucket_key(a, s, w, up, true);
        else if (e->kind == EP_RESINST)
          key = res_bucket_key(a, s, w);
        else
          break;
        U32List *cl = hm_get(&buckets, key);
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
static uint32_t topo_order(Ctx *c, Graph *g, uint32_t *order)
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
  put_mods(&r, e->mods, e->nmods, e->kind != EP_MODCALL);
  if (ep_is_res(e))
    put_res(&r, e);
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
static void report_cycles(Ctx *c, Graph *g)
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
              start_string(a, s->blk->range), ep_pattern(a, s, 0),
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
static const char *mi_step(const char *p, const char **name, size_t *nlen,
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
  void **slot = hm_slot(&x->mods, addr, false);
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
    while ((q = mi_step(p, &name, &nl, &key, &kl))) {
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
  *hm_slot(&x->mods, m->addr, true) = m;
  if (parent)
    pl_push(x->a, &parent->kids, m);
  const char *sp = buf_str(&st);
  void **ss = hm_slot(&x->statics, sp, true);
  if (!*ss)
    *ss = ARENA_NEW(x->a, PList, 1);
  pl_push(x->a, *ss, m);
  return m;
}

static void idx_add(Idx *x, StResource *r)
{
  pl_push(x->a, &reg_mod(x, r->module)->res, r);
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
  void **slot = hm_slot(&x->rec, from, false);
  RfMove *m = slot ? *slot : NULL;
  if (m) {
    *slot = NULL;
  } else {
    m = ARENA_NEW(x->out, RfMove, 1);
    m->from = from;
    pl_push(x->a, &x->moves, m);
  }
  m->to = to;
  *hm_slot(&x->rec, to, true) = m;
}

static void block(Idx *x, const char *actual, const char *wanted)
{
  pl_push(x->a, &x->blocked, (void *)actual);
  pl_push(x->a, &x->blocked, (void *)wanted);
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
  put_mods(&b, m, n, true);
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
  pl_push(a, out, m);
  for (uint32_t i = start; i < out->n; i++) {
    Mod *k = out->p[i];
    for (uint32_t j = 0; j < k->kids.n; j++)
      pl_push(a, out, k->kids.p[j]);
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
    Mod *dst = hm_get(&x->mods, na);
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
    Mod *c = hm_get(&x->mods, join(a, mi, f->mods, f->nmods));
    if (c)
      move_module(x, c, join(a, mi, t->mods, t->nmods));
    return;
  }
  Mod *p = hm_get(&x->mods, join(a, mi, f->mods, f->nmods - 1));
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
    if (mi_step(tail, &name, &nl, &key, &kl) && nl == fnl &&
        memcmp(name, fl->name, nl) == 0)
      pl_push(a, &cand, k);
  }
  for (uint32_t i = 0; i < cand.n; i++) {
    Mod *k = cand.p[i];
    const char *np = arena_printf(a, "%s%smodule.%s%s", tp, *tp ? "." : "",
                                  tl->name, k->key);
    move_module(x, k, np);
  }
}

static void apply_all(Ctx *c, State *s, const uint32_t *order,
                      Arena *outa, RfMoves *out)
{
  Arena *a = c->a;
  Idx x;
  memset(&x, 0, sizeof x);
  x.a = a;
  x.out = outa;
  x.s = s;
  hm_init(&x.mods, a, 0);
  hm_init(&x.statics, a, 0);
  hm_init(&x.rec, a, c->n);
  st_sort(s);
  reg_mod(&x, "");
  for (uint32_t i = 0; i < s->nres; i++)
    idx_add(&x, s->res[i]);
  for (uint32_t k = 0; k < c->n; k++) {
    const Stmt *st = &c->st[order[k]];
    PList *insts = hm_get(&x.statics, st->decl->path);
    /* Index loop: moves may register new instances of this module (the
    ** list may grow and move); those are new homes, not sources. */
    uint32_t n0 = insts ? insts->n : 0;
    for (uint32_t i = 0; i < n0; i++) {
      Mod *mi = insts->p[i];
      if (ep_is_res(&st->from))
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
  if (d->errors > before || c.n == 0)
    goto done;
  validate(&c);
  if (d->errors > before)
    goto done;
  Graph g;
  build_graph(&c, &g);
  uint32_t *order = ARENA_NEW(&tmp, uint32_t, c.n + 1);
  if (topo_order(&c, &g, order) < c.n) {
    report_cycles(&c, &g);
    goto done;
  }
  if (s) {
    apply_all(&c, s, order, a, out);
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

/* ---- Removed blocks ------------------------------------------------------------ */

/* A removed block's target: module steps (names), then maybe a resource.
** Filled without allocation (pointers into the traversal).  Returns false
** with `bad` set to the offending step when the address is invalid. */
typedef struct RmTarget {
  uint32_t nmods;         /* module steps: steps[1 + 2*i] are the names */
  bool is_res;
  bool is_data;
  const char *type, *name;
  const HclStep *bad;     /* the step that makes it invalid */
  const char *summary, *detail;
} RmTarget;

static bool rm_parse(const HclTraversal *t, RmTarget *r)
{
  memset(r, 0, sizeof *r);
  uint32_t i = 0, n = t->n;
  while (i < n && step_is_name(&t->steps[i], "module")) {
    if (i + 1 >= n || t->steps[i + 1].kind != HCL_STEP_ATTR) {
      r->bad = &t->steps[i + 1 < n ? i + 1 : i];
      r->summary = "Invalid address operator";
      r->detail = "Prefix \"module.\" must be followed by a module name.";
      return false;
    }
    i += 2;
    r->nmods++;
    if (i < n && t->steps[i].kind == HCL_STEP_INDEX) {
      r->bad = &t->steps[i];
      r->summary = "Module instance keys not allowed";
      r->detail = "Module address must be a module (e.g. \"module.foo\"), "
                  "not a module instance (e.g. \"module.foo[1]\").";
      return false;
    }
  }
  if (i == n)
    return r->nmods > 0;
  r->is_res = true;
  if (step_is_name(&t->steps[i], "data")) {
    r->is_data = true;
    i++;
  } else if (step_is_name(&t->steps[i], "resource")) {
    i++;
  }
  if (n - i < 2 || t->steps[i].kind == HCL_STEP_INDEX ||
      t->steps[i + 1].kind != HCL_STEP_ATTR) {
    r->bad = &t->steps[i < n ? i : n - 1];
    r->summary = "Invalid address";
    r->detail = n - i < 2 ? "Resource specification must include a "
                            "resource type and name."
                : t->steps[i].kind == HCL_STEP_INDEX
                    ? "A resource type name is required."
                    : "A resource name is required.";
    return false;
  }
  r->type = t->steps[i].name;
  r->name = t->steps[i + 1].name;
  i += 2;
  if (i < n) {
    r->bad = &t->steps[i];
    r->summary = "Resource instance keys not allowed";
    r->detail = "Resource address must be a resource (e.g. "
                "\"test_instance.foo\"), not a resource instance (e.g. "
                "\"test_instance.foo[1]\").";
    return false;
  }
  if (r->is_data) {
    r->summary = "Data source address not allowed";
    r->detail = "Data sources are never destroyed, so they are not valid "
                "targets of removed blocks. To remove the data source from "
                "state, remove the data source block from configuration.";
    return false;
  }
  return true;
}

static void check_removed_in(Arena *a, const CfgTree *t, Diags *d)
{
  const CfgModule *m = t->m;
  for (uint32_t i = 0; m && i < m->nremoved; i++) {
    const CfgRemoved *rm = &m->removed[i];
    RmTarget r;
    if (!rm_parse(&rm->from, &r)) {
      SrcRange rng = r.bad ? r.bad->range : hcl_trav_range(&rm->from);
      if (r.summary)
        diag_error(d, &rng, r.summary, "%s", r.detail);
      continue;
    }
    /* Walk down the still-declared calls. */
    const CfgTree *cur = t;
    Buf abs;
    buf_init(&abs, a);
    buf_puts(&abs, t->path);
    const CfgModuleCall *last_call = NULL;
    uint32_t k = 0;
    for (; k < r.nmods && cur; k++) {
      const char *nm = rm->from.steps[1 + 2 * k].name;
      last_call = call_named(cur, nm);
      cur = last_call ? child_named(cur, nm) : NULL;
      buf_printf(&abs, "%smodule.%s", abs.len ? "." : "", nm);
    }
    if (k < r.nmods || !cur || !cur->m)
      continue; /* the path is gone (or did not load) */
    if (!r.is_res) {
      diag_error(d, &last_call->range, "Removed module still exists",
                 "This statement declares that %s was removed, but it is "
                 "still declared in configuration.",
                 buf_str(&abs));
      continue;
    }
    const CfgResource *res =
        cfg_resource(cur->m, CFG_MANAGED, r.type, r.name);
    if (res) {
      if (abs.len)
        buf_putc(&abs, '.');
      buf_printf(&abs, "%s.%s", r.type, r.name);
      diag_error(d, &res->range, "Removed resource still exists",
                 "This statement declares that %s was removed, but it is "
                 "still declared in configuration.",
                 buf_str(&abs));
    }
  }
  for (uint32_t i = 0; m && i < m->ncalls; i++)
    if (t->children && t->children[i])
      check_removed_in(a, t->children[i], d);
}

bool rf_check_removed(Arena *a, const CfgTree *t, Diags *d)
{
  int before = d->errors;
  if (t)
    check_removed_in(a, t, d);
  return d->errors == before;
}

/* Consumes the module steps of tree node t (its static path) from module
** instance address p; NULL when they do not match. */
static const char *match_tree(const CfgTree *t, const char *p)
{
  if (!t->parent)
    return p;
  p = match_tree(t->parent, p);
  if (!p)
    return NULL;
  const char *name, *key;
  size_t nl, kl;
  const char *q = mi_step(p, &name, &nl, &key, &kl);
  if (!q || nl != strlen(t->call->name) ||
      memcmp(name, t->call->name, nl) != 0)
    return NULL;
  return q;
}

typedef struct RmBest {
  const CfgRemoved *rm;
  uint32_t score;         /* module depth + 1, or UINT32_MAX for a resource */
} RmBest;

static void removed_walk(const CfgTree *t, const char *mi, StMode mode,
                         const char *type, const char *name, RmBest *best)
{
  const CfgModule *m = t->m;
  const char *p = match_tree(t, mi);
  for (uint32_t i = 0; p && m && i < m->nremoved; i++) {
    const CfgRemoved *rm = &m->removed[i];
    RmTarget r;
    if (!rm_parse(&rm->from, &r))
      continue;
    const char *q = p;
    bool ok = true;
    for (uint32_t k = 0; k < r.nmods && ok; k++) {
      const char *sn, *key;
      size_t nl, kl;
      const char *want = rm->from.steps[1 + 2 * k].name;
      const char *nq = mi_step(q, &sn, &nl, &key, &kl);
      ok = nq && nl == strlen(want) && memcmp(sn, want, nl) == 0;
      q = nq;
    }
    if (!ok)
      continue;
    uint32_t score;
    if (r.is_res) {
      if (*q || mode != ST_MANAGED || strcmp(r.type, type) != 0 ||
          strcmp(r.name, name) != 0)
        continue;
      score = UINT32_MAX;
    } else {
      score = t->depth + r.nmods + 1;
    }
    if (score > best->score) {
      best->score = score;
      best->rm = rm;
    }
  }
  for (uint32_t i = 0; p && m && i < m->ncalls; i++)
    if (t->children && t->children[i])
      removed_walk(t->children[i], mi, mode, type, name, best);
}

const CfgRemoved *rf_removed_for(const CfgTree *t,
                                 const char *module_instance, StMode mode,
                                 const char *type, const char *name)
{
  RmBest best = {NULL, 0};
  if (t)
    removed_walk(t, module_instance ? module_instance : "", mode, type, name,
                 &best);
  return best.rm;
}
