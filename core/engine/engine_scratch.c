/*
** engine_scratch: planning one managed instance in a scratch scope of its
** worker's arena.
**
** Planning an instance builds far more than it keeps: the decoded and
** refreshed objects, the evaluated configuration, the provider's answers
** (unmarked copies, JSON, protobuf), the contract checks.  In the worker
** arena all of it stayed until the end of the walk (about 3 KB per
** instance, docs/performance.md).  Here the prior object is decoded first
** and kept; then the arena is marked and the instance planned as before.
** When the result is a no-op whose before, after and value are the prior
** object exactly (same type, flags, marks and number representation), the
** arena is rewound to the mark and only a copy of the change (sharing the
** decoded prior as before, after and value) and of the progress events is
** kept.  Any other result (a change, drift, a diagnostic, private data
** that differs from the prior's) keeps everything, as before.
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
    return a.len == 0 || memcmp(a.u.s, b.u.s, a.len) == 0;
  case TY_NUMBER:
    if (a.flags & VF_NUMLIT)
      return a.len == 0 || memcmp(a.u.s, b.u.s, a.len) == 0;
    if (a.flags & VF_FLOAT)
      return memcmp(&a.u.d, &b.u.d, sizeof a.u.d) == 0;
    return a.u.i == b.u.i;
  case TY_BOOL:
    return a.u.b == b.u.b;
  case TY_MAP:
    for (uint32_t i = 0; i < a.len; i++) {
      const MapEntry *x = &a.u.entries[i], *y = &b.u.entries[i];
      if (x->keylen != y->keylen || memcmp(x->key, y->key, x->keylen) != 0 ||
          !same_value(x->val, y->val))
        return false;
    }
    return true;
  default:
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

bool eng_plan_managed_scoped(Engine *e, Node *n, Inst *in, Arena *a,
                             Diags *d)
{
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
  ArenaMark m = arena_mark(a);
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
  /* Everything since the mark goes; what stays is rebuilt below from the
  ** copies on the stack and the decoded prior, which precedes the mark. */
  arena_rewind(a, m);
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
