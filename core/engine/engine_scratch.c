/*
** engine_scratch: planning one managed instance in a scratch scope of its
** worker's arena.
**
** Planning an instance builds far more than it keeps: the decoded and
** refreshed objects, the evaluated configuration, the provider's answers
** (unmarked copies, JSON, protobuf), the contract checks.  In the worker
** arena all of it stayed until the end of the walk (about 3 KB per
** instance, docs/performance.md).  Here the arena is marked, the prior
** object decoded first, then the instance planned as before.
** When the result is a no-op whose before, after and value are the prior
** object exactly (same type, flags, marks and number representation), the
** arena is rewound to the mark and only the decoded prior (copied across
** the rewind), a copy of the change (sharing it as before, after and
** value) and of the progress events are kept.  Any other result (a
** change, drift, a diagnostic, private data that differs from the
** prior's) keeps everything, as before.
**
** Threads: the arena is the calling worker's own; nothing allocated after
** the mark has been published (in->value and in->change are read by other
** threads only once the node is done, after they have been replaced).
*/
#include <string.h>

#include "engine_priv.h"

#define KEEP_EVENTS 8   /* events of a no-op plan: refresh start and done */
#define KEEP_ID 256     /* longest [id=...] copied across the rewind */

/* a and b are interchangeable: same type, flags (null, unknown, marks,
** number form) and content, at every depth.  Stricter than
** val_raw_equal, which compares numbers by value and ignores marks. */
static bool same_value(Value a, Value b)
{
  if (a.flags != b.flags || a.len != b.len)
    return false;
  if (!a.type || !b.type)
    return a.type == b.type;
  if (!ty_equal(a.type, b.type))
    return false;
  if (a.flags & (VF_NULL | VF_UNKNOWN))
    return true;
  switch (a.type->kind) {
  case TY_DYNAMIC:
    return true;
  case TY_STRING:
    return a.len == 0 || a.u.s == b.u.s || memcmp(a.u.s, b.u.s, a.len) == 0;
  case TY_NUMBER:
    if (a.flags & VF_NUMLIT)
      return a.len == 0 || a.u.s == b.u.s ||
             memcmp(a.u.s, b.u.s, a.len) == 0;
    if (a.flags & VF_FLOAT)
      return memcmp(&a.u.d, &b.u.d, sizeof a.u.d) == 0;
    return a.u.i == b.u.i;
  case TY_BOOL:
    return a.u.b == b.u.b;
  case TY_MAP:
    if (a.u.entries == b.u.entries)
      return true;   /* immutable: the same entries */
    for (uint32_t i = 0; i < a.len; i++) {
      const MapEntry *x = &a.u.entries[i], *y = &b.u.entries[i];
      if (x->keylen != y->keylen || memcmp(x->key, y->key, x->keylen) != 0 ||
          !same_value(x->val, y->val))
        return false;
    }
    return true;
  default:
    if (a.u.elems == b.u.elems)
      return true;   /* immutable: the same elements */
    for (uint32_t i = 0; i < a.len; i++)
      if (!same_value(a.u.elems[i], b.u.elems[i]))
        return false;
    return true;
  }
}

typedef struct KeptEvent {
  EngEvent ev;
  char id[KEEP_ID];
  size_t id_len;
} KeptEvent;

/* The id string to keep for a saved event: the one inside v (the decoded
** prior, which stays) when it is equal, else a copy in a. */
static const char *kept_id(Arena *a, Value v, const KeptEvent *k)
{
  bool f = false;
  Value s = {0};
  if (v.type && v.type->kind == TY_OBJECT && !val_is_null(v) &&
      val_is_known(v))
    s = val_attr(v, k->ev.id_key, &f);
  if (f && s.type && s.type->kind == TY_STRING && val_is_known(s) &&
      !val_is_null(s) && s.len == k->id_len &&
      memcmp(s.u.s, k->id, k->id_len) == 0)
    return s.u.s;
  return arena_strndup(a, k->id, k->id_len);
}

static bool plan_create_scoped(Engine *e, Node *n, Inst *in, Arena *a,
                               Diags *d);
static Value value_across(Arena *a, ArenaMark m, Value v,
                          const Type **shared);

bool eng_plan_managed_scoped(Engine *e, Node *n, Inst *in, Arena *a,
                             Diags *d)
{
  if (!in->prior && !in->deposed && in->in_config && !in->ev_head &&
      !in->change && e->o.mode == PL_MODE_NORMAL && !d->head)
    return plan_create_scoped(e, n, in, a, d);
  /* Only a prior of the current schema version is decoded here: an
  ** upgrade is a provider call, which must not run twice when the plain
  ** path has to decode again to report an error. */
  if (!in->prior || in->deposed || !in->in_config || in->ev_head ||
      in->change || e->o.mode != PL_MODE_NORMAL || d->head ||
      val_is_null(in->prior->attrs) ||
      in->prior->schema_version != (uint64_t)n->tschema->schema.version)
    return eng_plan_managed(e, n, in, a, d);
  ArenaMark m0 = arena_mark(a);
  Diags quiet;
  diag_init(&quiet, a);
  Value pv;
  if (!eng_decode_obj(e, a, n, in, in->prior, &pv, &quiet)) {
    /* the plain path decodes again (no provider call) and reports it */
    arena_rewind(a, m0);
    return eng_plan_managed(e, n, in, a, d);
  }
  in->decoded = pv;
  bool ok = eng_plan_managed(e, n, in, a, d);
  in->decoded = (Value){0};
  PlChange *c = in->change;
  if (!ok || d->head || !c || c->action != PL_NOOP || in->drift ||
      in->refreshed || in->new_obj || c->importing || c->nreplace_paths ||
      c->deposed || !same_value(c->before, pv) ||
      !same_value(c->after, pv) || !same_value(in->value, pv))
    return ok;
  /* private data: none, or the prior's own bytes (shared below) */
  bool priv_none = !c->priv.p && !c->priv.n;
  bool priv_prior = c->priv.n && c->priv.n == in->prior->priv_len &&
                    memcmp(c->priv.p, in->prior->priv, c->priv.n) == 0;
  if (!priv_none && !priv_prior)
    return ok;
  KeptEvent kept[KEEP_EVENTS];
  uint32_t nk = 0;
  for (EngEvent *ev = in->ev_head; ev; ev = ev->next) {
    if (nk == KEEP_EVENTS || (ev->change && ev->change != c) || ev->text ||
        ev->prov || ev->delivered)
      return ok;
    KeptEvent *k = &kept[nk++];
    k->ev = *ev;
    k->id_len = 0;
    if (ev->id_value) {
      size_t l = strlen(ev->id_value);
      if (l >= KEEP_ID)
        return ok;
      memcpy(k->id, ev->id_value, l);
      k->id_len = l;
    }
  }
  PlChange keep = *c;
  /* Everything since the first mark goes, the decoding's own scratch too
  ** (about 230 bytes an instance, docs/performance.md change 15): the
  ** decoded prior is copied across the rewind, and what else stays is
  ** rebuilt below from the copies on the stack. */
  uintptr_t off = (uintptr_t)a - (uintptr_t)e->warena;
  const Type **shared = off % sizeof *a == 0 &&
                                off / sizeof *a < (uintptr_t)e->nworkers
                            ? &e->wtype[off / sizeof *a]
                            : NULL;
  pv = value_across(a, m0, pv, shared);
  PlChange *nc = ARENA_NEW(a, PlChange, 1);
  *nc = keep;
  nc->before = pv;
  nc->after = pv;
  if (priv_prior)
    nc->priv = (ProvBytes){in->prior->priv, in->prior->priv_len};
  in->change = nc;
  in->value = pv;
  in->ev_head = in->ev_tail = NULL;
  for (uint32_t i = 0; i < nk; i++) {
    EngEvent *ev = ARENA_NEW(a, EngEvent, 1);
    *ev = kept[i].ev;
    ev->next = NULL;
    if (ev->change)
      ev->change = nc;
    if (ev->id_value)
      ev->id_value = kept_id(a, pv, &kept[i]);
    if (in->ev_tail)
      in->ev_tail->next = ev;
    else
      in->ev_head = ev;
    in->ev_tail = ev;
  }
  return ok;
}

/* ---- Applying an instance in a scratch scope --------------------------- */

/* Applying an instance builds even more than planning it (the evaluated
** configuration again, the final plan and its checks, the provider's
** request and answer, the object written as JSON and parsed for its
** journal record): about 5 KB per created instance that stayed in the
** worker arena to the end of the walk.  What outlives the instance is
** small: its value (read by its dependents and the outputs) and its
** progress events (delivered when its node is done).  The state does not
** point into the scope: stmgr_record_set writes the object as a journal
** record and the state adopts the record's parse, in the manager's arena.
**
** Method: mark the worker arena, apply as before, then copy the value and
** the events out of the scope into a small arena of their own, rewind,
** and copy them back; what did not come from the scope (schema types,
** configuration strings, the plan's changes) is shared, not copied.
** Anything unusual keeps everything, as before: a diagnostic, provisioner
** output, an import, a replace (whose deposed key outlives the
** instance), a delete. */

#define KEEP_TYPES 32   /* types built in one scope that are shared */

typedef struct Keep {
  const Arena *src;     /* what src handed out since `from` is copied */
  ArenaMark from;
  Arena *dst;
  const Type *tfrom[KEEP_TYPES];
  const Type *tto[KEEP_TYPES];
  uint32_t nt;
} Keep;

static bool in_scope(const Keep *k, const void *p)
{
  return p && arena_since(k->src, k->from, p);
}

static const char *keep_bytes(Keep *k, const char *s, size_t n)
{
  if (!in_scope(k, s))
    return s;
  char *c = arena_alloc_raw(k->dst, 1, 1, n + 1);
  memcpy(c, s, n);
  c[n] = 0;
  return c;
}

static Value keep_value(Keep *k, Value v);

/* Memory older than the scope never points into it (values and types are
** immutable once built), so a pointer from before the scope is shared
** with everything below it. */
static const Type *keep_type(Keep *k, const Type *t)
{
  if (!in_scope(k, t))
    return t;
  for (uint32_t i = 0; i < k->nt; i++)
    if (k->tfrom[i] == t)
      return k->tto[i];
  Type *c = ARENA_NEW(k->dst, Type, 1);
  *c = *t;
  if (k->nt < KEEP_TYPES) {
    k->tfrom[k->nt] = t;
    k->tto[k->nt++] = c;
  }
  if (t->elem)
    c->elem = keep_type(k, t->elem);
  if (t->names && in_scope(k, t->names)) {
    const char **names = ARENA_NEW(k->dst, const char *, t->n);
    for (uint32_t i = 0; i < t->n; i++)
      names[i] = keep_bytes(k, t->names[i], strlen(t->names[i]));
    c->names = names;
  }
  if (t->types && in_scope(k, t->types)) {
    const Type **types = ARENA_NEW(k->dst, const Type *, t->n);
    for (uint32_t i = 0; i < t->n; i++)
      types[i] = keep_type(k, t->types[i]);
    c->types = types;
  }
  if (t->optional && in_scope(k, t->optional)) {
    uint8_t *o = ARENA_NEW(k->dst, uint8_t, t->n);
    memcpy(o, t->optional, t->n);
    c->optional = o;
  }
  if (t->defaults && in_scope(k, t->defaults)) {
    Value *dv = ARENA_NEW(k->dst, Value, t->n);
    for (uint32_t i = 0; i < t->n; i++)
      dv[i] = keep_value(k, t->defaults[i]);
    c->defaults = dv;
  }
  return c;
}

static Value keep_value(Keep *k, Value v)
{
  Value o = v;
  if (!v.type)
    return o;
  o.type = keep_type(k, v.type);
  if (v.flags & (VF_NULL | VF_UNKNOWN))
    return o;
  switch (v.type->kind) {
  case TY_STRING:
    o.u.s = keep_bytes(k, v.u.s, v.len);
    break;
  case TY_NUMBER:
    if (v.flags & VF_NUMLIT)
      o.u.s = keep_bytes(k, v.u.s, v.len);
    break;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
  case TY_OBJECT:
    if (in_scope(k, v.u.elems)) {
      Value *e = ARENA_NEW(k->dst, Value, v.len);
      for (uint32_t i = 0; i < v.len; i++)
        e[i] = keep_value(k, v.u.elems[i]);
      o.u.elems = e;
    }
    break;
  case TY_MAP:
    if (in_scope(k, v.u.entries)) {
      MapEntry *e = ARENA_NEW(k->dst, MapEntry, v.len);
      for (uint32_t i = 0; i < v.len; i++) {
        e[i] = v.u.entries[i];
        e[i].key = keep_bytes(k, e[i].key, e[i].keylen);
        e[i].val = keep_value(k, e[i].val);
      }
      o.u.entries = e;
    }
    break;
  default:
    break;
  }
  return o;
}

static const char *keep_str(Keep *k, const char *s)
{
  return s ? keep_bytes(k, s, strlen(s)) : NULL;
}

/* A copy of planned change c in k->dst, sharing what predates k's scope. */
static PlChange *keep_change(Keep *k, const PlChange *c)
{
  PlChange *nc = ARENA_NEW(k->dst, PlChange, 1);
  *nc = *c;
  nc->addr = keep_str(k, c->addr);
  nc->module = keep_str(k, c->module);
  nc->type = keep_str(k, c->type);
  nc->name = keep_str(k, c->name);
  nc->deposed = keep_str(k, c->deposed);
  nc->prev_addr = keep_str(k, c->prev_addr);
  nc->provider = keep_str(k, c->provider);
  nc->provider_name = keep_str(k, c->provider_name);
  nc->import_id = keep_str(k, c->import_id);
  if (c->key.kind == ST_STRKEY)
    nc->key.s = keep_bytes(k, c->key.s, c->key.slen);
  nc->before = keep_value(k, c->before);
  nc->after = keep_value(k, c->after);
  if (c->nreplace_paths && in_scope(k, c->replace_paths)) {
    ValPath *ps = ARENA_NEW(k->dst, ValPath, c->nreplace_paths);
    for (uint32_t i = 0; i < c->nreplace_paths; i++) {
      ps[i] = c->replace_paths[i];
      if (in_scope(k, ps[i].steps)) {
        PathStep *st = ARENA_NEW(k->dst, PathStep, ps[i].n);
        for (uint32_t j = 0; j < ps[i].n; j++) {
          st[j] = ps[i].steps[j];
          st[j].name = keep_str(k, st[j].name);
        }
        ps[i].steps = st;
      }
    }
    nc->replace_paths = ps;
  }
  if (c->priv.n && in_scope(k, c->priv.p)) {
    uint8_t *p = arena_alloc_raw(k->dst, 1, 1, c->priv.n);
    memcpy(p, c->priv.p, c->priv.n);
    nc->priv.p = p;
  }
  return nc;
}

/* Two Values that are the same bits (one shared value). */
static bool same_bits(Value a, Value b)
{
  return a.type == b.type && a.flags == b.flags && a.len == b.len &&
         memcmp(&a.u, &b.u, sizeof a.u) == 0;
}

/* Copies in's value, its change (when in scope) and its events out of
** k's scope into k->dst. */
static void keep_inst(Keep *k, Inst *in)
{
  PlChange *oc = in->change;
  if (oc && in_scope(k, oc)) {
    in->change = keep_change(k, oc);
    in->value = same_bits(in->value, oc->after) ? in->change->after
                                                 : keep_value(k, in->value);
  } else {
    in->value = keep_value(k, in->value);
  }
  EngEvent *head = NULL, *tail = NULL;
  for (EngEvent *ev = in->ev_head; ev; ev = ev->next) {
    EngEvent *c = ARENA_NEW(k->dst, EngEvent, 1);
    *c = *ev;
    c->next = NULL;
    if (oc && c->change == oc)
      c->change = in->change;
    if (c->id_value) {
      /* the id is the value's own string when the value has it */
      bool f = false;
      Value s = {0};
      Value v = in->value;
      if (v.type && v.type->kind == TY_OBJECT && !val_is_null(v) &&
          val_is_known(v))
        s = val_attr(v, c->id_key, &f);
      size_t l = strlen(c->id_value);
      if (f && s.type && s.type->kind == TY_STRING && val_is_known(s) &&
          !val_is_null(s) && s.len == l && memcmp(s.u.s, c->id_value, l) == 0)
        c->id_value = s.u.s;
      else
        c->id_value = keep_bytes(k, c->id_value, l);
    }
    if (tail)
      tail->next = c;
    else
      head = c;
    tail = c;
  }
  in->ev_head = head;
  in->ev_tail = tail;
}

/* After an apply in the scope of a that began at m: when it went cleanly
** (no diagnostic, the same prior and change, no refreshed object, only
** plain events of its own change), copies what outlives the scope (the
** value, events, and *dk: the deposed key a create-before-destroy
** replace left for its N_DEPOSED node, when dk is given) out, rewinds a to m and copies it back;
** otherwise keeps everything. */
static void keep_applied(Inst *in, Arena *a, ArenaMark m,
                         const StObject *prior, PlChange *change,
                         const PlChange *pc, const char **dk, Diags *d)
{
  if (d->head || in->prior != prior || in->change != change || in->new_obj)
    return;
  Arena tmp;
  Keep out = {.src = a, .from = m, .dst = &tmp};
  for (EngEvent *ev = in->ev_head; ev; ev = ev->next)
    if (ev->text || ev->prov || (ev->change && ev->change != pc) ||
        in_scope(&out, ev->addr) || in_scope(&out, ev->deposed))
      return;
  arena_init(&tmp, 0);
  keep_inst(&out, in);
  if (dk)
    *dk = keep_str(&out, *dk);
  arena_rewind(a, m);
  Keep back = {.src = &tmp, .from = {0}, .dst = a};   /* all of tmp */
  keep_inst(&back, in);
  if (dk)
    *dk = keep_str(&back, *dk);
  arena_release(&tmp);
}

bool eng_apply_managed_scoped(Engine *e, Node *n, Inst *in, Arena *a,
                              Diags *d)
{
  const PlChange *pc = eng_find_change(e, in);
  if (in->deposed || in->ev_head || d->head || (pc && pc->importing))
    return eng_apply_managed(e, n, in, a, d);
  const StObject *prior = in->prior;
  PlChange *change = in->change;
  ArenaMark m = arena_mark(a);
  bool ok = eng_apply_managed(e, n, in, a, d);
  /* (the flight slot, if any, was given back under its mu before the
  ** return, so the heartbeat no longer reads its start event) */
  if (ok)
    keep_applied(in, a, m, prior, change, pc,
                 pc && pc->action == PL_CREATE_THEN_DELETE
                     ? &e->dkeys[pc - e->plan->changes]
                     : NULL,
                 d);
  return ok;
}

bool eng_apply_work_scoped(Engine *e, Node *n, Inst *in, Arena *a,
                           Diags *d)
{
  if (in->ev_head || d->head)
    return eng_apply_work(e, n, in, a, d);
  const PlChange *pc = eng_find_change(e, &(Inst){.addr = in->addr});
  const StObject *prior = in->prior;
  PlChange *change = in->change;
  ArenaMark m = arena_mark(a);
  bool ok = eng_apply_work(e, n, in, a, d);
  if (ok)
    keep_applied(in, a, m, prior, change, pc, NULL, d);
  return ok;
}

/* A plain object type (no optional attributes or defaults): one that
** can stand for any type ty_equal to it. */
static bool plain_object_type(const Type *t)
{
  return t && t->kind == TY_OBJECT && !t->optional && !t->defaults;
}

/* v, built (in part) in a since m, copied across a rewind of a to m:
** what predates m is shared, the rest copied out and back.  *shared (when
** shared is not NULL) is an object type kept by an earlier call on the
** same arena: a decoded prior with dynamic attributes has an object type
** of its own, equal from one instance to the next, and sharing it saves
** its copy (about 150 bytes and 2,500 instructions an instance).  It
** predates m, so no rewind to m removes it. */
static Value value_across(Arena *a, ArenaMark m, Value v,
                          const Type **shared)
{
  if (shared && plain_object_type(*shared) && plain_object_type(v.type) &&
      arena_since(a, m, v.type) && ty_equal(v.type, *shared))
    v.type = *shared;
  Arena tmp;
  arena_init(&tmp, 0);
  Keep out = {.src = a, .from = m, .dst = &tmp};
  Value t = keep_value(&out, v);
  arena_rewind(a, m);
  Keep back = {.src = &tmp, .from = {0}, .dst = a};   /* all of tmp */
  Value r = keep_value(&back, t);
  arena_release(&tmp);
  if (shared && plain_object_type(r.type))
    *shared = r.type;
  return r;
}

/* Planning a create in a scratch scope: the change (its planned value)
** and the instance's value are copied out as apply's are, the rest of
** the plan's work (about 3 KB per instance) given back.  Anything but a
** clean create (a diagnostic, an import, drift, events) keeps
** everything. */
static bool plan_create_scoped(Engine *e, Node *n, Inst *in, Arena *a,
                               Diags *d)
{
  ArenaMark m = arena_mark(a);
  bool ok = eng_plan_managed(e, n, in, a, d);
  PlChange *c = in->change;
  Keep out = {.src = a, .from = m};
  if (!ok || d->head || !c || c->action != PL_CREATE || c->importing ||
      in->drift || in->refreshed || in->new_obj || in->ev_head ||
      in_scope(&out, c->schema))
    return ok;
  Arena tmp;
  arena_init(&tmp, 0);
  out.dst = &tmp;
  keep_inst(&out, in);
  arena_rewind(a, m);
  Keep back = {.src = &tmp, .from = {0}, .dst = a};   /* all of tmp */
  keep_inst(&back, in);
  arena_release(&tmp);
  return ok;
}
