/*
** engine_state: values to and from the state.  Decodes a state object
** into the typed, marked value of its schema (upgrading it through the
** provider when its schema version is older) and makes the state object
** of a planned or applied value, with its sensitive paths.
*/
#include <string.h>

#include "base/json.h"
#include "engine_priv.h"

/* cty's TestConformance: have is want, with dynamic in want accepting
** anything. */
bool eng_conforms(const Type *have, const Type *want)
{
  if (want->kind == TY_DYNAMIC || have == want)
    return true;
  if (have->kind != want->kind)
    return false;
  switch (want->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    return eng_conforms(have->elem, want->elem);
  case TY_OBJECT:
  case TY_TUPLE:
    if (have->n != want->n)
      return false;
    for (uint32_t i = 0; i < want->n; i++) {
      if (want->kind == TY_OBJECT && strcmp(have->names[i], want->names[i]))
        return false;
      if (!eng_conforms(have->types[i], want->types[i]))
        return false;
    }
    return true;
  default:
    return true;
  }
}

const Type *eng_implied(Engine *e, const ProvBlockSchema *b)
{
  return prov_schema_implied_type(e->a, b);
}

/* Marks the values at the given paths sensitive. */
static Value mark_path(Arena *a, Value v, const PathStep *s, uint32_t n)
{
  if (n == 0)
    return val_sensitive(v);
  if (val_is_null(v) || val_is_unknown(v))
    return v;
  const Type *t = v.type;
  if ((s->kind == PS_ATTR || s->kind == PS_KEY) && t->kind == TY_OBJECT) {
    int i = ty_attr_index(t, s->name);
    if (i < 0)
      return v;
    Value *el = ARENA_NEW(a, Value, t->n);
    memcpy(el, v.u.elems, sizeof(Value) * t->n);
    el[i] = mark_path(a, el[i], s + 1, n - 1);
    Value r = v;
    r.u.elems = el;
    return r;
  }
  if (s->kind == PS_INDEX && (t->kind == TY_LIST || t->kind == TY_TUPLE) &&
      s->index >= 0 && (uint32_t)s->index < v.len) {
    Value *el = ARENA_NEW(a, Value, v.len);
    memcpy(el, v.u.elems, sizeof(Value) * v.len);
    el[s->index] = mark_path(a, el[s->index], s + 1, n - 1);
    Value r = v;
    r.u.elems = el;
    return r;
  }
  if (s->kind == PS_KEY && t->kind == TY_MAP) {
    MapEntry *en = ARENA_NEW(a, MapEntry, v.len ? v.len : 1);
    memcpy(en, v.u.entries, sizeof(MapEntry) * v.len);
    for (uint32_t i = 0; i < v.len; i++)
      if (strcmp(en[i].key, s->name) == 0)
        en[i].val = mark_path(a, en[i].val, s + 1, n - 1);
    Value r = v;
    r.u.entries = en;
    return r;
  }
  return v;
}

/* Collects the paths of sensitive marks in v (outermost only). */
typedef struct PathList {
  ValPath *items;
  uint32_t n, cap;
} PathList;

static void collect_marks(Arena *a, Value v, PathStep *stack, uint32_t depth,
                          PathList *out)
{
  if (val_is_sensitive(v)) {
    if (out->n == out->cap) {
      uint32_t nc = out->cap ? out->cap * 2 : 4;
      ValPath *ni = ARENA_NEW(a, ValPath, nc);
      if (out->n)
        memcpy(ni, out->items, sizeof(ValPath) * out->n);
      out->items = ni;
      out->cap = nc;
    }
    PathStep *cp = ARENA_NEW(a, PathStep, depth ? depth : 1);
    if (depth)
      memcpy(cp, stack, sizeof(PathStep) * depth);
    out->items[out->n++] = (ValPath){cp, depth};
    return;
  }
  if (val_is_null(v) || val_is_unknown(v) || depth >= 64)
    return;
  const Type *t = v.type;
  switch (t->kind) {
  case TY_OBJECT:
    for (uint32_t i = 0; i < t->n; i++) {
      stack[depth] = (PathStep){PS_ATTR, t->names[i], 0};
      collect_marks(a, v.u.elems[i], stack, depth + 1, out);
    }
    break;
  case TY_LIST:
  case TY_TUPLE:
  case TY_SET:
    for (uint32_t i = 0; i < v.len; i++) {
      stack[depth] = (PathStep){PS_INDEX, NULL, (int64_t)i};
      collect_marks(a, v.u.elems[i], stack, depth + 1, out);
    }
    break;
  case TY_MAP:
    for (uint32_t i = 0; i < v.len; i++) {
      stack[depth] = (PathStep){PS_KEY, v.u.entries[i].key, 0};
      collect_marks(a, v.u.entries[i].val, stack, depth + 1, out);
    }
    break;
  default:
    break;
  }
}

/* Copies the sensitive marks of `from` onto `to` where the shapes agree
** (config-derived marks onto the provider's planned value). */
Value eng_copy_marks(Arena *a, Value to, Value from)
{
  PathList pl = {0};
  PathStep stack[64];
  collect_marks(a, from, stack, 0, &pl);
  for (uint32_t i = 0; i < pl.n; i++)
    to = mark_path(a, to, pl.items[i].steps, pl.items[i].n);
  return to;
}

/* The typed, marked value of a state object.  False with a diagnostic on
** attributes that do not fit the schema. */
bool eng_decode_obj(Engine *e, Arena *a, const Node *n, const Inst *in,
                    const StObject *o, Value *out, Diags *d)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  const Type *t = eng_implied(e, b);
  if (val_is_null(o->attrs)) {
    eng_inst_error(d, n, in, "Unsupported state",
                   "The state object of %s uses the legacy attributes_flat "
                   "form, which cairn cannot read.", in ? in->addr : n->addr);
    return false;
  }
  Value v;
  if (o->schema_version == (uint64_t)n->tschema->schema.version) {
    Diags tmp;
    diag_init(&tmp, a);
    if (!json_value_typed(a, o->attrs, t, &v, &tmp, NULL)) {
      Diag *g = eng_inst_error(d, n, in, "Invalid resource state",
                               "The state of %s does not match the schema of "
                               "%s: %s", in ? in->addr : n->addr, n->type,
                               tmp.head ? tmp.head->detail : "");
      (void)g;
      return false;
    }
  } else {
    /* UpgradeResourceState with the JSON text. */
    Buf js;
    buf_init(&js, a);
    if (!json_write_value(&js, o->attrs, NULL, 0, d))
      return false;
    ProvCall c = {a, d, NULL};
    ProvUpgradeReq rq = {n->type, (int64_t)o->schema_version, js.p,
                         js.len};
    ProvUpgradeResp rs = {{0}};
    n->ps->prov->ops->upgrade_resource_state(n->ps->prov, &c, &rq, &rs);
    if (diag_has_errors(d))
      return false;
    if (!rs.upgraded_state.type) {
      eng_inst_error(d, n, in, "Invalid resource state upgrade",
                     "Provider \"%s\" returned no state for %s.", n->ps->fqn,
                     in ? in->addr : n->addr);
      return false;
    }
    v = rs.upgraded_state;
  }
  v = prov_mark_sensitive(a, b, v);
  for (uint32_t i = 0; i < o->nsensitive; i++)
    v = mark_path(a, v, o->sensitive[i].steps, o->sensitive[i].n);
  *out = v;
  return true;
}

/* A state object for value v (typed, marked): attributes as generic JSON
** written against the schema type; sensitive_attributes from the marks
** that are not the schema's own. */
StObject *eng_make_obj(Engine *e, Arena *a, const Node *n, Value v,
                       ProvBytes priv, Value config_marks, Diags *d)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  StObject *o = ARENA_NEW(a, StObject, 1);
  Buf js;
  buf_init(&js, a);
  Value plain = val_unmark_deep(a, v);
  if (!json_write_value(&js, plain, eng_implied(e, b), JSON_W_UNKNOWN_NULL, d))
    return NULL;
  if (!json_parse(a, js.p, js.len, &o->attrs, d, NULL))
    return NULL;
  o->attrs_flat = val_dynamic_null;
  o->schema_version = (uint64_t)n->tschema->schema.version;
  o->priv = priv.p;
  o->priv_len = priv.n;
  PathList pl = {0};
  PathStep stack[64];
  if (config_marks.type)
    collect_marks(a, config_marks, stack, 0, &pl);
  o->sensitive = pl.items;
  o->nsensitive = pl.n;
  o->deps = n->deps;
  o->ndeps = n->ndeps;
  o->create_before_destroy = n->cbd;
  o->status = ST_READY;
  return o;
}
