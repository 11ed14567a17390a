/*
** json_typed.c: go-cty's typed JSON decoding (json_decode_typed,
** json_value_typed: a parsed value converted to a wanted type, with
** cty's messages and the path to the offending value) and cty's JSON type
** syntax (json_parse_type, json_type_from_value).  Also the error context
** (JsonTCtx) that the writer shares for its own failures.
*/
#include "json_priv.h"

#include <string.h>

bool json_tfail(JsonTCtx *c, const char *msg)
{
  c->msg = msg;
  return false;
}

void json_tstep(JsonTCtx *c, PathStepKind k, const char *name,
                int64_t index)
{
  if (c->nsteps == c->capsteps) {
    uint32_t nc = c->capsteps ? c->capsteps * 2 : 8;
    c->steps = arena_grow(c->a, c->steps, sizeof(PathStep),
                          _Alignof(PathStep), c->capsteps, nc);
    c->capsteps = nc;
  }
  PathStep *s = &c->steps[c->nsteps++];
  s->kind = k;
  s->name = name;
  s->index = index;
}

void json_treport(JsonTCtx *c, Diags *d, const SrcRange *where)
{
  /* Steps were collected innermost first. */
  for (uint32_t i = 0; i < c->nsteps / 2; i++) {
    PathStep t = c->steps[i];
    c->steps[i] = c->steps[c->nsteps - 1 - i];
    c->steps[c->nsteps - 1 - i] = t;
  }
  Buf b;
  buf_init(&b, c->a);
  ValPath vp = {c->steps, c->nsteps};
  val_path_format(&b, vp, true);
  diag_error(d, where, c->msg, "%s", buf_str(&b));
}

static bool type_from(JsonTCtx *c, Value v, const Type **out);

static bool is_str(Value v, const char *s)
{
  size_t n = strlen(s);
  return v.type->kind == TY_STRING && !(v.flags & (VF_NULL | VF_UNKNOWN)) &&
         v.len == n && memcmp(v.u.s, s, n) == 0;
}

static bool known(Value v) { return !(v.flags & (VF_NULL | VF_UNKNOWN)); }

/* A number value's JSON text (literal or canonical). */
static const char *num_text(Arena *a, Value v, uint32_t *len)
{
  if (v.flags & VF_NUMLIT) {
    *len = v.len;
    return v.u.s;
  }
  Buf b;
  buf_init(&b, a);
  val_num_format(&b, v);
  *len = (uint32_t)b.len;
  return buf_str(&b);
}

static bool typed(JsonTCtx *c, Value v, const Type *t, Value *out);

static bool typed_elems(JsonTCtx *c, Value v, const Type *t, Value **vals)
{
  uint32_t n = v.len;
  Value *o = ARENA_NEW(c->a, Value, n);
  for (uint32_t i = 0; i < n; i++) {
    const Type *et = t->kind == TY_TUPLE ? t->types[i] : t->elem;
    if (!typed(c, v.u.elems[i], et, &o[i])) {
      json_tstep(c, PS_INDEX, NULL, (int64_t)i);
      return false;
    }
  }
  *vals = o;
  return true;
}

static bool typed(JsonTCtx *c, Value v, const Type *t, Value *out)
{
  if (v.flags & VF_NULL) {
    *out = val_null(t);
    return true;
  }
  if (v.flags & VF_UNKNOWN)
    return json_tfail(c, "value is not known");
  TypeKind vk = v.type->kind;
  switch (t->kind) {
  case TY_DYNAMIC: {
    if (vk != TY_OBJECT)
      return json_tfail(c, "missing expected {");
    const Type *vt = v.type;
    int ti = -1, vi = -1;
    for (uint32_t i = 0; i < vt->n; i++) {
      if (strcmp(vt->names[i], "type") == 0)
        ti = (int)i;
      else if (strcmp(vt->names[i], "value") == 0)
        vi = (int)i;
      else
        return json_tfail(c, arena_printf(c->a, "invalid key \"%s\" in "
                                          "dynamically-typed value",
                                          vt->names[i]));
    }
    if (ti < 0)
      return json_tfail(c, "missing type in dynamically-typed value");
    if (vi < 0)
      return json_tfail(c, "missing value in dynamically-typed value");
    const Type *dt;
    if (!type_from(c, v.u.elems[ti], &dt)) {
      c->msg = arena_printf(c->a, "failed to decode type for dynamic "
                            "value: %s", c->msg);
      return false;
    }
    return typed(c, v.u.elems[vi], dt, out);
  }
  case TY_STRING:
    if (vk == TY_STRING) {
      *out = v;
      return true;
    }
    if (vk == TY_NUMBER) {
      uint32_t n;
      const char *s = num_text(c->a, v, &n);
      *out = val_str_ref(s, n);
      return true;
    }
    if (vk == TY_BOOL) {
      *out = val_str_ref(v.u.b ? "true" : "false", v.u.b ? 4 : 5);
      return true;
    }
    return json_tfail(c, "string is required");
  case TY_NUMBER:
    if (vk == TY_NUMBER) {
      *out = v;
      return true;
    }
    if (vk == TY_STRING) {
      if (memchr(v.u.s, 0, v.len) ||
          !val_parse_number(c->a, v.u.s, v.len, false, out))
        return json_tfail(c, "a number is required");
      return true;
    }
    return json_tfail(c, "number is required");
  case TY_BOOL:
    if (vk == TY_BOOL) {
      *out = v;
      return true;
    }
    if (vk == TY_STRING) {
      if (is_str(v, "true") || is_str(v, "1")) {
        *out = val_true;
        return true;
      }
      if (is_str(v, "false") || is_str(v, "0")) {
        *out = val_false;
        return true;
      }
      if (v.len == 4 && strncasecmp(v.u.s, "true", 4) == 0)
        return json_tfail(c, "a bool is required; to convert from string, use "
                             "lowercase \"true\"");
      if (v.len == 5 && strncasecmp(v.u.s, "false", 5) == 0)
        return json_tfail(c, "a bool is required; to convert from string, use "
                             "lowercase \"false\"");
      return json_tfail(c, "a bool is required");
    }
    return json_tfail(c, "bool is required");
  case TY_LIST:
  case TY_SET: {
    if (vk != TY_TUPLE)
      return json_tfail(c, "missing expected [");
    Value *vals;
    if (!typed_elems(c, v, t, &vals))
      return false;
    /* With a dynamic element type cty infers the type from the elements
    ** (cty.ListVal); value.c does that for a NULL element type. */
    const Type *et = ty_has_dynamic(t->elem) && v.len ? NULL : t->elem;
    *out = t->kind == TY_LIST ? val_list(c->a, et, vals, v.len)
                              : val_set(c->a, et, vals, v.len);
    return true;
  }
  case TY_TUPLE: {
    if (vk != TY_TUPLE)
      return json_tfail(c, "missing expected [");
    if (v.len > t->n)
      return json_tfail(c, arena_printf(c->a, "too many tuple elements "
                                        "(need %u)", (unsigned)t->n));
    if (v.len < t->n)
      return json_tfail(c, arena_printf(c->a, "not enough tuple elements (need "
                                        "%u)", (unsigned)t->n));
    Value *vals;
    if (!typed_elems(c, v, t, &vals))
      return false;
    if (ty_has_dynamic(t)) {
      *out = val_tuple(c->a, vals, v.len);
    } else {
      Value r = {.type = t, .len = t->n, .u = {.elems = vals}};
      *out = r;
    }
    return true;
  }
  case TY_MAP: {
    if (vk != TY_OBJECT)
      return json_tfail(c, "missing expected {");
    uint32_t n = v.len;
    MapEntry *me = ARENA_NEW(c->a, MapEntry, n);
    for (uint32_t i = 0; i < n; i++) {
      me[i].key = v.type->names[i];
      me[i].keylen = (uint32_t)strlen(me[i].key);
      if (!typed(c, v.u.elems[i], t->elem, &me[i].val)) {
        json_tstep(c, PS_KEY, me[i].key, 0);
        return false;
      }
    }
    const Type *et = t->elem;
    if (ty_has_dynamic(et))
      et = n ? NULL : et;
    *out = val_map(c->a, et, me, n);
    return true;
  }
  case TY_OBJECT: {
    if (vk != TY_OBJECT)
      return json_tfail(c, "missing expected {");
    const Type *vt = v.type;
    for (uint32_t i = 0; i < vt->n; i++)
      if (ty_attr_index(t, vt->names[i]) < 0)
        return json_tfail(c, arena_printf(c->a, "unsupported attribute \"%s\"",
                                          vt->names[i]));
    Value *vals = ARENA_NEW(c->a, Value, t->n);
    /* Both name lists are sorted: merge. */
    uint32_t j = 0;
    for (uint32_t i = 0; i < t->n; i++) {
      if (j < vt->n && strcmp(vt->names[j], t->names[i]) == 0) {
        if (!typed(c, v.u.elems[j], t->types[i], &vals[i])) {
          json_tstep(c, PS_ATTR, t->names[i], 0);
          return false;
        }
        j++;
      } else {
        vals[i] = val_null(t->types[i]);
      }
    }
    if (ty_has_dynamic(t))   /* a type of the values' own types */
      *out = val_object_like(c->a, t, vals);
    else
      *out = val_object_typed(t, vals);
    return true;
  }
  }
  return json_tfail(c, "unsupported type");
}

bool json_value_typed(Arena *a, Value v, const Type *t, Value *out,
                      Diags *d, const SrcRange *where)
{
  if (v.type && ty_equal(v.type, t)) {
    *out = v;
    return true;
  }
  JsonTCtx c;
  memset(&c, 0, sizeof c);
  c.a = a;
  if (typed(&c, v, t, out))
    return true;
  *out = val_null(t);
  json_treport(&c, d, where);
  return false;
}

static SrcRange whole_doc(const char *buf, size_t len, const JsonOpts *o)
{
  SrcRange r;
  r.file = o && o->file ? o->file : "<json>";
  r.start.line = 1;
  r.start.col = 1;
  r.start.byte = 0;
  r.end = json_pos_at(buf, len);
  return r;
}

bool json_decode_typed(Arena *a, const char *buf, size_t len, const Type *t,
                       Value *out, Diags *d, const JsonOpts *opts)
{
  Value v;
  *out = val_null(t);
  if (!json_parse(a, buf, len, &v, d, opts))
    return false;
  SrcRange r = whole_doc(buf, len, opts);
  return json_value_typed(a, v, t, out, d, &r);
}

/* ---- Type syntax --------------------------------------------------------- */

static bool type_from(JsonTCtx *c, Value v, const Type **out)
{
  if (!known(v))
    return json_tfail(c, "invalid type description");
  if (v.type->kind == TY_STRING) {
    if (is_str(v, "string"))
      *out = &ty_string;
    else if (is_str(v, "number"))
      *out = &ty_number;
    else if (is_str(v, "bool"))
      *out = &ty_bool;
    else if (is_str(v, "dynamic"))
      *out = &ty_dynamic;
    else
      return json_tfail(c, arena_printf(c->a, "invalid primitive type name "
                                        "\"%s\"", v.u.s));
    return true;
  }
  if (v.type->kind != TY_TUPLE || v.len == 0)
    return json_tfail(c, "invalid type description");
  Value k = v.u.elems[0];
  if (!known(k) || k.type->kind != TY_STRING)
    return json_tfail(c, "invalid complex type kind name");
  bool obj = is_str(k, "object");
  if (v.len < 2 || v.len > (obj ? 3u : 2u))
    return json_tfail(c, "unexpected extra data in type description");
  Value arg = v.u.elems[1];
  if (is_str(k, "list") || is_str(k, "set") || is_str(k, "map")) {
    const Type *et;
    if (!type_from(c, arg, &et))
      return false;
    *out = is_str(k, "list")  ? ty_list(c->a, et)
           : is_str(k, "set") ? ty_set(c->a, et)
                              : ty_map(c->a, et);
    return true;
  }
  if (is_str(k, "tuple")) {
    if (!known(arg) || arg.type->kind != TY_TUPLE)
      return json_tfail(c, "invalid tuple type description: an array of types "
                           "is required");
    const Type **tt = ARENA_NEW(c->a, const Type *, arg.len ? arg.len : 1);
    for (uint32_t i = 0; i < arg.len; i++)
      if (!type_from(c, arg.u.elems[i], &tt[i]))
        return false;
    *out = ty_tuple(c->a, arg.len, tt);
    return true;
  }
  if (obj) {
    if (!known(arg) || arg.type->kind != TY_OBJECT)
      return json_tfail(c, "invalid object type description: an object of "
                           "attribute types is required");
    uint32_t n = arg.len;
    const Type **tt = ARENA_NEW(c->a, const Type *, n ? n : 1);
    for (uint32_t i = 0; i < n; i++)
      if (!type_from(c, arg.u.elems[i], &tt[i]))
        return false;
    uint8_t *opt = NULL;
    if (v.len == 3) {
      Value ol = v.u.elems[2];
      if (!known(ol) || ol.type->kind != TY_TUPLE)
        return json_tfail(c, "invalid optional attribute list");
      opt = ARENA_NEW(c->a, uint8_t, n ? n : 1);
      for (uint32_t i = 0; i < ol.len; i++) {
        Value on = ol.u.elems[i];
        if (!known(on) || on.type->kind != TY_STRING)
          return json_tfail(c, "invalid optional attribute list");
        int idx = ty_attr_index(arg.type, on.u.s);
        /* cty ignores optional names that are not attributes. */
        if (idx >= 0)
          opt[idx] = 1;
      }
    }
    if (n == 0) {
      *out = &ty_empty_object;
      return true;
    }
    *out = ty_object_opt(c->a, n, arg.type->names, tt, opt, NULL);
    return true;
  }
  return json_tfail(c, "invalid complex type kind name");
}

bool json_type_from_value(Arena *a, Value v, const Type **out, Diags *d,
                          const SrcRange *where)
{
  JsonTCtx c;
  memset(&c, 0, sizeof c);
  c.a = a;
  *out = &ty_dynamic;
  if (type_from(&c, v, out))
    return true;
  *out = &ty_dynamic;
  diag_error(d, where, c.msg, "Invalid type specification in JSON.");
  return false;
}

bool json_parse_type(Arena *a, const char *buf, size_t len, const Type **out,
                     Diags *d, const JsonOpts *opts)
{
  Value v;
  *out = &ty_dynamic;
  if (!json_parse(a, buf, len, &v, d, opts))
    return false;
  SrcRange r = whole_doc(buf, len, opts);
  return json_type_from_value(a, v, out, d, &r);
}
