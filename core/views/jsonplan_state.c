/*
** jsonplan_state: the value writers every document uses (cty's JSON
** marshalling without unknowns, the *_unknown and *_sensitive shadows),
** small field helpers, the module tree that nests resources under
** child_modules, and the state values document (jplan_state, Terraform's
** jsonstate).
*/
#include "jsonplan_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

/* ---- Value writers ----------------------------------------------------- */

static bool is_seq(const Type *t)
{
  return t->kind == TY_LIST || t->kind == TY_SET || t->kind == TY_TUPLE;
}

/* cty's json.Marshal of omitUnknowns(v): unknown object members are left
** out, unknown sequence elements become null, marks are ignored. */
void jplan_w_known(Ctx *c, Value v)
{
  JsonW *w = c->w;
  if (!v.type || val_is_null(v) || val_is_unknown(v)) {
    json_w_null(w);
    return;
  }
  switch (v.type->kind) {
  case TY_STRING:
    json_w_string(w, v.u.s, v.len);
    return;
  case TY_BOOL:
    json_w_bool(w, v.u.b);
    return;
  case TY_NUMBER:
    if (v.flags & VF_NUMLIT) {
      /* Terraform re-encodes through cty: "1.50" comes out as 1.5. */
      Buf t;   /* no rewind: c->w may write into c->a too */
      buf_init(&t, c->a);
      val_num_format(&t, v);
      json_w_number_lit(w, t.p, t.len);
    } else if (!json_w_value(w, val_unmark(v), NULL, &c->d)) {
      json_w_null(w);
    }
    return;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
    json_w_begin_array(w);
    for (uint32_t i = 0; i < v.len; i++)
      jplan_w_known(c, v.u.elems[i]);
    json_w_end_array(w);
    return;
  case TY_MAP:
    json_w_begin_object(w);
    for (uint32_t i = 0; i < v.len; i++) {
      const MapEntry *e = &v.u.entries[i];
      if (val_is_unknown(e->val))
        continue;
      json_w_key(w, e->key, e->keylen);
      jplan_w_known(c, e->val);
    }
    json_w_end_object(w);
    return;
  case TY_OBJECT:
    json_w_begin_object(w);
    for (uint32_t i = 0; i < v.type->n; i++) {
      if (val_is_unknown(v.u.elems[i]))
        continue;
      json_w_keyz(w, v.type->names[i]);
      jplan_w_known(c, v.u.elems[i]);
    }
    json_w_end_object(w);
    return;
  case TY_DYNAMIC:
    json_w_null(w);
    return;
  }
  json_w_null(w);
}

/* unknownAsBool: would this member be omitted (it is `false`)? */
static bool unknown_false(Value v)
{
  if (!v.type || val_is_unknown(v))
    return !v.type;
  return val_is_null(v) || ty_is_primitive(v.type) ||
         v.type->kind == TY_DYNAMIC;
}

/* Terraform's unknownAsBool: true at unknown leaves, known members of
** objects and maps omitted, sequences element by element. */
void jplan_w_unknown(Ctx *c, Value v)
{
  JsonW *w = c->w;
  if (!v.type) {
    json_w_bool(w, false);
    return;
  }
  if (val_is_unknown(v)) {
    json_w_bool(w, true);
    return;
  }
  if (val_is_null(v) || ty_is_primitive(v.type) ||
      v.type->kind == TY_DYNAMIC) {
    json_w_bool(w, false);
    return;
  }
  if (is_seq(v.type)) {
    json_w_begin_array(w);
    for (uint32_t i = 0; i < v.len; i++)
      jplan_w_unknown(c, v.u.elems[i]);
    json_w_end_array(w);
    return;
  }
  json_w_begin_object(w);
  if (v.type->kind == TY_MAP) {
    for (uint32_t i = 0; i < v.len; i++) {
      const MapEntry *e = &v.u.entries[i];
      if (unknown_false(e->val))
        continue;
      json_w_key(w, e->key, e->keylen);
      jplan_w_unknown(c, e->val);
    }
  } else {
    for (uint32_t i = 0; i < v.type->n; i++) {
      if (unknown_false(v.u.elems[i]))
        continue;
      json_w_keyz(w, v.type->names[i]);
      jplan_w_unknown(c, v.u.elems[i]);
    }
  }
  json_w_end_object(w);
}

/* SensitiveAsBool: would this member be omitted (it is `false`)? */
static bool sens_false(Value v)
{
  if (!v.type)
    return true;
  if (val_is_sensitive(v))
    return false;
  return val_is_null(v) || ty_is_primitive(v.type) ||
         v.type->kind == TY_DYNAMIC;
}

/* jsonstate.SensitiveAsBool: true at sensitive values, non-sensitive
** members omitted, unknown collections as [] / {}. */
void jplan_w_sens(Ctx *c, Value v)
{
  JsonW *w = c->w;
  if (v.type && val_is_sensitive(v)) {
    json_w_bool(w, true);
    return;
  }
  if (sens_false(v)) {
    json_w_bool(w, false);
    return;
  }
  if (is_seq(v.type)) {
    json_w_begin_array(w);
    if (!val_is_unknown(v))
      for (uint32_t i = 0; i < v.len; i++)
        jplan_w_sens(c, v.u.elems[i]);
    json_w_end_array(w);
    return;
  }
  json_w_begin_object(w);
  if (!val_is_unknown(v)) {
    if (v.type->kind == TY_MAP) {
      for (uint32_t i = 0; i < v.len; i++) {
        const MapEntry *e = &v.u.entries[i];
        if (sens_false(e->val))
          continue;
        json_w_key(w, e->key, e->keylen);
        jplan_w_sens(c, e->val);
      }
    } else {
      for (uint32_t i = 0; i < v.type->n; i++) {
        if (sens_false(v.u.elems[i]))
          continue;
        json_w_keyz(w, v.type->names[i]);
        jplan_w_sens(c, v.u.elems[i]);
      }
    }
  }
  json_w_end_object(w);
}

/* Marks the value at path s[0..n) of v sensitive, copying what changes.
** Steps that do not apply leave v as it is. */
static Value mark_path(Arena *a, Value v, const PathStep *s, uint32_t n)
{
  if (n == 0)
    return val_sensitive(v);
  if (!v.type || val_is_null(v) || val_is_unknown(v))
    return v;
  switch (v.type->kind) {
  case TY_OBJECT: {
    if (s->kind == PS_INDEX || !s->name)
      return v;
    int idx = ty_attr_index(v.type, s->name);
    if (idx < 0)
      return v;
    Value *e = ARENA_NEW(a, Value, v.len);
    memcpy(e, v.u.elems, sizeof(Value) * v.len);
    e[idx] = mark_path(a, e[idx], s + 1, n - 1);
    v.u.elems = e;
    return v;
  }
  case TY_MAP: {
    if (s->kind == PS_INDEX || !s->name)
      return v;
    for (uint32_t i = 0; i < v.len; i++) {
      if (strcmp(v.u.entries[i].key, s->name) != 0)
        continue;
      MapEntry *e = ARENA_NEW(a, MapEntry, v.len);
      memcpy(e, v.u.entries, sizeof(MapEntry) * v.len);
      e[i].val = mark_path(a, e[i].val, s + 1, n - 1);
      v.u.entries = e;
      return v;
    }
    return v;
  }
  case TY_LIST:
  case TY_TUPLE: {
    if (s->kind != PS_INDEX || s->index < 0 || s->index >= (int64_t)v.len)
      return v;
    Value *e = ARENA_NEW(a, Value, v.len);
    memcpy(e, v.u.elems, sizeof(Value) * v.len);
    e[s->index] = mark_path(a, e[s->index], s + 1, n - 1);
    v.u.elems = e;
    return v;
  }
  default:
    return v;
  }
}

/* ---- Small helpers ----------------------------------------------------- */

const char *jplan_provider_fqn(Arena *a, const char *pc)
{
  const char *q = pc ? strchr(pc, '"') : NULL;
  if (!q)
    return pc ? pc : "";
  const char *e = strchr(q + 1, '"');
  if (!e)
    return pc;
  return arena_strndup(a, q + 1, (size_t)(e - q - 1));
}

const char *jplan_mode_name(StMode m)
{
  return m == ST_DATA ? "data" : "managed";
}

void jplan_w_key_index(JsonW *w, StKey k)
{
  if (k.kind == ST_INTKEY) {
    json_w_keyz(w, "index");
    json_w_int(w, k.i);
  } else if (k.kind == ST_STRKEY) {
    json_w_keyz(w, "index");
    json_w_string(w, k.s, k.slen);
  }
}

void jplan_w_str_field(JsonW *w, const char *key, const char *s)
{
  json_w_keyz(w, key);
  json_w_stringz(w, s ? s : "");
}

void jplan_w_actions(JsonW *w, PlAction a)
{
  int n;
  const char *const *names = plan_action_names(a, &n);
  json_w_keyz(w, "actions");
  json_w_begin_array(w);
  for (int i = 0; i < n; i++)
    json_w_stringz(w, names[i]);
  json_w_end_array(w);
}

/* ---- Module trees ------------------------------------------------------ */

static int cmp_item(const void *x, const void *y)
{
  const TItem *a = x, *b = y;
  int r = strcmp(a->module, b->module);
  if (r)
    return r;
  r = strcmp(a->addr, b->addr);
  if (r)
    return r;
  if (!a->dkey || !b->dkey)
    return (a->dkey != NULL) - (b->dkey != NULL);
  return strcmp(a->dkey, b->dkey);
}

static int cmp_mod(const void *x, const void *y)
{
  const TMod *a = x, *b = y;
  int r = strcmp(a->parent, b->parent);
  return r ? r : strcmp(a->addr, b->addr);
}

static int cmp_str(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The parent of a module instance address: everything before the last
** ".module." outside brackets ("" for a top-level call). */
static const char *mod_parent(Arena *a, const char *m)
{
  int depth = 0;
  bool in_str = false;
  size_t last = 0;
  bool found = false;
  for (size_t i = 0; m[i]; i++) {
    char ch = m[i];
    if (in_str) {
      if (ch == '\\' && m[i + 1])
        i++;
      else if (ch == '"')
        in_str = false;
    } else if (ch == '"') {
      in_str = true;
    } else if (ch == '[') {
      depth++;
    } else if (ch == ']') {
      if (depth > 0)
        depth--;
    } else if (ch == '.' && depth == 0 &&
               strncmp(m + i + 1, "module.", 7) == 0) {
      last = i;
      found = true;
    }
  }
  return found ? arena_strndup(a, m, last) : "";
}

void jplan_tree_build(Ctx *c, Tree *t)
{
  qsort(t->items, t->nitems, sizeof(TItem), cmp_item);
  /* Distinct modules of the items and all their ancestors. */
  uint32_t cap = 16, n = 0;
  const char **names = ARENA_NEW(c->a, const char *, cap);
  const char *prev = NULL;
  for (uint32_t i = 0; i < t->nitems; i++) {
    const char *m = t->items[i].module;
    if (prev && strcmp(prev, m) == 0)
      continue;
    prev = m;
    while (m[0]) {
      if (n == cap) {
        names = arena_grow(c->a, names, sizeof(const char *),
                           _Alignof(const char *), cap, cap * 2);
        cap *= 2;
      }
      names[n++] = m;
      m = mod_parent(c->a, m);
    }
  }
  qsort(names, n, sizeof(const char *), cmp_str);
  t->mods = ARENA_NEW(c->a, TMod, n);
  t->nmods = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (i > 0 && strcmp(names[i], names[i - 1]) == 0)
      continue;
    t->mods[t->nmods].addr = names[i];
    t->mods[t->nmods].parent = mod_parent(c->a, names[i]);
    t->nmods++;
  }
  qsort(t->mods, t->nmods, sizeof(TMod), cmp_mod);
}

/* First index in items whose module is >= m. */
static uint32_t items_lower(const Tree *t, const char *m)
{
  uint32_t lo = 0, hi = t->nitems;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (strcmp(t->items[mid].module, m) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static uint32_t mods_lower(const Tree *t, const char *parent)
{
  uint32_t lo = 0, hi = t->nmods;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (strcmp(t->mods[mid].parent, parent) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

void jplan_tree_write(Ctx *c, const Tree *t, const char *m)
{
  JsonW *w = c->w;
  json_w_begin_object(w);
  uint32_t i = items_lower(t, m);
  if (i < t->nitems && strcmp(t->items[i].module, m) == 0) {
    json_w_keyz(w, "resources");
    json_w_begin_array(w);
    for (; i < t->nitems && strcmp(t->items[i].module, m) == 0; i++)
      t->write_item(c, &t->items[i]);
    json_w_end_array(w);
  }
  if (m[0])
    jplan_w_str_field(w, "address", m);
  uint32_t k = mods_lower(t, m);
  if (k < t->nmods && strcmp(t->mods[k].parent, m) == 0) {
    json_w_keyz(w, "child_modules");
    json_w_begin_array(w);
    for (; k < t->nmods && strcmp(t->mods[k].parent, m) == 0; k++)
      jplan_tree_write(c, t, t->mods[k].addr);
    json_w_end_array(w);
  }
  json_w_end_object(w);
}

/* ---- State values ------------------------------------------------------ */

const ProvBlockSchema *jplan_schema_for(Ctx *c, StMode mode,
                                        const char *fqn, const char *type)
{
  if (!c->schema_of || !type)
    return NULL;
  return c->schema_of(c->sctx, mode, fqn ? fqn : "", type);
}

static void write_state_item(Ctx *c, const TItem *it)
{
  JsonW *w = c->w;
  const StResource *r = it->r;
  const StInstance *inst = it->p;
  const StObject *o = it->q;
  const char *fqn = jplan_provider_fqn(c->a, r->provider);
  json_w_begin_object(w);
  jplan_w_str_field(w, "address", it->addr);
  jplan_w_str_field(w, "mode", jplan_mode_name(r->mode));
  jplan_w_str_field(w, "type", r->type);
  jplan_w_str_field(w, "name", r->name);
  jplan_w_key_index(w, inst->key);
  jplan_w_str_field(w, "provider_name", fqn);
  json_w_keyz(w, "schema_version");
  json_w_uint(w, o->schema_version);
  Value v = o->attrs;
  if (v.type && !val_is_null(v)) {
    for (uint32_t i = 0; i < o->nsensitive; i++)
      v = mark_path(c->a, v, o->sensitive[i].steps, o->sensitive[i].n);
    const ProvBlockSchema *b = jplan_schema_for(c, r->mode, fqn, r->type);
    if (b)
      v = prov_mark_sensitive(c->a, b, v);
    if (v.type->kind == TY_OBJECT && v.type->n > 0) {
      json_w_keyz(w, "values");
      jplan_w_known(c, v);
    } else if (v.type->kind == TY_MAP && v.len > 0) {
      json_w_keyz(w, "values");
      jplan_w_known(c, v);
    }
  }
  json_w_keyz(w, "sensitive_values");
  jplan_w_sens(c, v);
  if (o->ndeps > 0) {
    json_w_keyz(w, "depends_on");
    json_w_begin_array(w);
    for (uint32_t i = 0; i < o->ndeps; i++)
      json_w_stringz(w, o->deps[i]);
    json_w_end_array(w);
  }
  if (o->status == ST_TAINTED) {
    json_w_keyz(w, "tainted");
    json_w_bool(w, true);
  }
  if (it->dkey)
    jplan_w_str_field(w, "deposed_key", it->dkey);
  json_w_end_object(w);
}

bool jplan_state_empty(const State *s)
{
  return !s || (s->nres == 0 && s->noutputs == 0);
}

/* {"format_version":"1.0","terraform_version":..,"values":{..}} */
void jplan_write_state(Ctx *c, const State *s, const char *tfver)
{
  JsonW *w = c->w;
  json_w_begin_object(w);
  jplan_w_str_field(w, "format_version", JPLAN_STATE_FORMAT_VERSION);
  if (jplan_state_empty(s)) {
    json_w_end_object(w);
    return;
  }
  if (tfver && tfver[0])
    jplan_w_str_field(w, "terraform_version", tfver);
  json_w_keyz(w, "values");
  json_w_begin_object(w);
  if (s->noutputs > 0) {
    json_w_keyz(w, "outputs");
    json_w_begin_object(w);
    for (uint32_t i = 0; i < s->noutputs; i++) {
      const StOutput *o = &s->outputs[i];
      json_w_keyz(w, o->name);
      json_w_begin_object(w);
      json_w_keyz(w, "sensitive");
      json_w_bool(w, o->sensitive);
      json_w_keyz(w, "value");
      jplan_w_known(c, o->value);
      json_w_keyz(w, "type");
      json_w_type(w, o->type ? o->type
                             : (o->value.type ? o->value.type : &ty_dynamic));
      json_w_end_object(w);
    }
    json_w_end_object(w);
  }
  /* Items: every current and deposed object. */
  uint64_t cap = 0;
  for (uint32_t i = 0; i < s->nres; i++)
    for (uint32_t j = 0; j < s->res[i]->ninst; j++)
      cap += 1 + s->res[i]->inst[j]->ndeposed;
  Tree t = {0};
  t.items = ARENA_NEW(c->a, TItem, cap);
  t.write_item = write_state_item;
  for (uint32_t i = 0; i < s->nres; i++) {
    const StResource *r = s->res[i];
    for (uint32_t j = 0; j < r->ninst; j++) {
      const StInstance *in = r->inst[j];
      const char *addr = st_instance_addr(c->a, r, in->key);
      const char *mod = r->module ? r->module : "";
      if (in->current)
        t.items[t.nitems++] = (TItem){mod, addr, NULL, in, in->current, r};
      for (uint32_t k = 0; k < in->ndeposed; k++)
        if (in->deposed[k].obj)
          t.items[t.nitems++] = (TItem){mod, addr, in->deposed[k].key, in,
                                        in->deposed[k].obj, r};
    }
  }
  jplan_tree_build(c, &t);
  json_w_keyz(w, "root_module");
  jplan_tree_write(c, &t, "");
  json_w_end_object(w);
  json_w_end_object(w);
}

void jplan_ctx_init(Ctx *c, Arena *a, JsonW *w, Buf *out,
                    JplanSchemaFn schema_of, void *sctx)
{
  memset(c, 0, sizeof *c);
  arena_init(a, 0);
  c->a = a;
  diag_init(&c->d, a);
  json_w_init(w, out, JSON_W_UNKNOWN_NULL);
  c->w = w;
  c->schema_of = schema_of;
  c->sctx = sctx;
}

void jplan_state(Buf *out, const State *s, JplanSchemaFn schema_of,
                 void *sctx)
{
  Arena a;
  JsonW w;
  Ctx c;
  jplan_ctx_init(&c, &a, &w, out, schema_of, sctx);
  jplan_write_state(&c, s, s ? s->terraform_version : NULL);
  buf_putc(out, '\n');
  arena_release(&a);
}
