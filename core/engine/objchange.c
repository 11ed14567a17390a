/*
** objchange.c: what the pieces of objchange share (see objchange_priv.h):
** small value helpers, the path stack and error collection of the two
** assertions, objc_path_string, and the requires_replace test
** (objc_path_changed).  The structure follows Terraform's
** internal/plans/objchange so behaviour can be compared case by case; Go's
** cty.Walk/Transform-based helpers are replaced by recursion over schema
** and value together, which visits each value once.  ProposedNew is
** objchange_proposed.c, AssertPlanValid objchange_plancheck.c,
** AssertObjectCompatible objchange_applycheck.c.
*/
#include "objchange_priv.h"

#include <stdarg.h>
#include <string.h>

/* ---- Small value helpers ----------------------------------------------- */

/* cty RawEquals of unrefinedValue(a) and unrefinedValue(b), ignoring
** marks: same types, same null/unknown state, same content.  Types are
** compared once at the top; below, the outer type fixes the inner ones. */
static bool eq_inner(Value a, Value b)
{
  uint16_t st = VF_NULL | VF_UNKNOWN;
  if ((a.flags & st) != (b.flags & st))
    return false;
  if (a.flags & st)
    return true;
  if (!a.type || !b.type || a.type->kind != b.type->kind)
    return false;
  switch (a.type->kind) {
  case TY_DYNAMIC:
    return true;
  case TY_STRING:
  case TY_NUMBER:
  case TY_BOOL:
    return val_raw_equal(a, b, false);
  case TY_MAP:
    if (a.len != b.len)
      return false;
    for (uint32_t i = 0; i < a.len; i++) {
      const MapEntry *x = &a.u.entries[i], *y = &b.u.entries[i];
      if (x->keylen != y->keylen || memcmp(x->key, y->key, x->keylen) != 0 ||
          !eq_inner(x->val, y->val))
        return false;
    }
    return true;
  default:
    if (a.len != b.len)
      return false;
    for (uint32_t i = 0; i < a.len; i++)
      if (!eq_inner(a.u.elems[i], b.u.elems[i]))
        return false;
    return true;
  }
}

bool objc_ueq(Value a, Value b)
{
  if (!a.type || !b.type || !ty_equal(a.type, b.type))
    return false;
  return eq_inner(a, b);
}

/* Attribute `name` of obj; a null or unknown object gives a null or
** unknown attribute; a missing attribute (or a non-object) gives a null
** (or, for an unknown value, unknown) value of type `fallback`. */
Value objc_attr_of(Value obj, const char *name, const Type *fallback)
{
  if (objc_kind(obj, TY_OBJECT)) {
    int i = ty_attr_index(obj.type, name);
    if (i >= 0) {
      const Type *at = obj.type->types[i];
      if (objc_unknown(obj))
        return val_unknown(at);
      if (objc_null(obj))
        return val_null(at);
      return obj.u.elems[i];
    }
  }
  return objc_unknown(obj) ? val_unknown(fallback) : val_null(fallback);
}

bool objc_has_attr(Value obj, const char *name)
{
  return objc_kind(obj, TY_OBJECT) && ty_attr_index(obj.type, name) >= 0;
}

/* Element type of a list/set/map, of tuple element i, or dynamic. */
const Type *objc_elem_type(const Type *t, uint32_t i)
{
  if (!t)
    return &ty_dynamic;
  switch (t->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    return t->elem;
  case TY_TUPLE:
  case TY_OBJECT:
    return i < t->n ? t->types[i] : &ty_dynamic;
  default:
    return &ty_dynamic;
  }
}

/* Number of elements of a known, non-null collection / structural value. */
uint32_t objc_coll_len(Value v)
{
  if (objc_null(v) || objc_unknown(v) || !v.type)
    return 0;
  switch (v.type->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
  case TY_TUPLE:
  case TY_OBJECT:
    return v.len;
  default:
    return 0;
  }
}

/* Key i of a known map or object. */
const char *objc_key_at(Value v, uint32_t i)
{
  return v.type->kind == TY_MAP ? v.u.entries[i].key : v.type->names[i];
}
Value objc_keyed_at(Value v, uint32_t i)
{
  return v.type->kind == TY_MAP ? v.u.entries[i].val : v.u.elems[i];
}

/* Looks key up in a known, non-null map or object. */
bool objc_keyed_get(Value v, const char *key, Value *out)
{
  if (objc_null(v) || objc_unknown(v))
    return false;
  if (objc_kind(v, TY_MAP)) {
    bool found = false;
    Value r = val_map_get(v, key, strlen(key), &found);
    if (found)
      *out = r;
    return found;
  }
  if (objc_kind(v, TY_OBJECT)) {
    int i = ty_attr_index(v.type, key);
    if (i < 0)
      return false;
    *out = v.u.elems[i];
    return true;
  }
  return false;
}

/* ---- Paths and errors ------------------------------------------------- */

const char *objc_path_string(Arena *a, ValPath p)
{
  Buf b;
  buf_init(&b, a);
  for (uint32_t i = 0; i < p.n; i++) {
    const PathStep *st = &p.steps[i];
    switch (st->kind) {
    case PS_ATTR:
      buf_putc(&b, '.');
      buf_puts(&b, st->name);
      break;
    case PS_KEY:
      buf_putc(&b, '[');
      objc_go_quote(&b, st->name, strlen(st->name));
      buf_putc(&b, ']');
      break;
    case PS_INDEX:
      if (st->index == OBJC_STEP_SET_ELEM)
        buf_puts(&b, "[...]");
      else if (st->index == OBJC_STEP_SET_UNKNOWN)
        buf_puts(&b, "[(not yet known)]");
      else
        buf_printf(&b, "[%lld]", (long long)st->index);
      break;
    }
  }
  return arena_strdup(a, buf_str(&b));
}

void objc_push(ObjcCtx *c, PathStepKind k, const char *name, int64_t index)
{
  if (c->n == c->cap) {
    uint32_t nc = c->cap ? c->cap * 2 : 16;
    c->steps = arena_grow(c->a, c->steps, sizeof(PathStep),
                          _Alignof(PathStep), c->cap, nc);
    c->cap = nc;
  }
  PathStep st = {.kind = k, .name = name, .index = index};
  c->steps[c->n++] = st;
}
void objc_pop(ObjcCtx *c) { c->n--; }

/* Appends an error at the current path.  fmt understands %V (a Value,
** rendered as cty's GoString), %q (a C string, Go-quoted), %u (unsigned)
** %s (a C string) and %L (a length: unsigned, or UINT32_MAX for unknown). */
void objc_fail(ObjcCtx *c, const char *fmt, ...)
{
  if (c->quiet) {
    c->nquiet++;
    return;
  }
  Buf b;
  buf_init(&b, c->a);
  va_list ap;
  va_start(ap, fmt);
  for (const char *p = fmt; *p; p++) {
    if (*p != '%' || !p[1]) {
      buf_putc(&b, *p);
      continue;
    }
    p++;
    if (*p == 'V') {
      objc_go_value(&b, va_arg(ap, Value));
    } else if (*p == 'q') {
      const char *s = va_arg(ap, const char *);
      objc_go_quote(&b, s, strlen(s));
    } else if (*p == 's') {
      buf_puts(&b, va_arg(ap, const char *));
    } else if (*p == 'u') {
      buf_printf(&b, "%u", va_arg(ap, unsigned));
    } else if (*p == 'L') {
      unsigned n = va_arg(ap, unsigned);
      if (n == UINT32_MAX)
        buf_puts(&b, "cty.UnknownVal(cty.Number)");
      else
        buf_printf(&b, "cty.NumberIntVal(%u)", n);
    } else {
      buf_putc(&b, *p);
    }
  }
  va_end(ap);
  ObjcErrs *e = c->errs;
  if (e->n == e->cap) {
    uint32_t nc = e->cap ? e->cap * 2 : 8;
    e->items = arena_grow(c->a, e->items, sizeof(ObjcErr), _Alignof(ObjcErr),
                          e->cap, nc);
    e->cap = nc;
  }
  PathStep *steps = ARENA_NEW(c->a, PathStep, c->n);
  if (c->n)
    memcpy(steps, c->steps, c->n * sizeof *steps);
  ObjcErr *it = &e->items[e->n++];
  it->path.steps = steps;
  it->path.n = c->n;
  it->reason = arena_strdup(c->a, buf_str(&b));
}

/* ---- requires_replace ----------------------------------------------------- */

/* Follows p from v: 0 when a step does not apply, 1 with *out set. An
** unknown value on the way makes the result unknown (hcl.ApplyPath). */
static int path_walk(Value v, ValPath p, Value *out)
{
  for (uint32_t i = 0; i < p.n; i++) {
    const PathStep *st = &p.steps[i];
    if (objc_unknown(v)) {
      *out = val_dynamic_unknown;
      return 1;
    }
    if (objc_null(v) || !v.type)
      return 0;
    if (st->kind == PS_INDEX) {
      if (!objc_is_seq(v) || st->index < 0 || st->index >= (int64_t)v.len)
        return 0;
      v = v.u.elems[st->index];
    } else if (!objc_keyed_get(v, st->name, &v)) {
      return 0;
    }
  }
  *out = v;
  return 1;
}

bool objc_path_changed(Value prior, Value planned, ValPath p, bool *exists)
{
  Value pv, nv;
  int hp = path_walk(prior, p, &pv), hn = path_walk(planned, p, &nv);
  *exists = hp || hn;
  if (!hp && !hn)
    return false;
  if (!hp)
    pv = val_null(nv.type);
  if (!hn)
    nv = val_null(pv.type);
  if (!val_is_wholly_known(pv) || !val_is_wholly_known(nv))
    return true;
  if (objc_null(pv) && objc_null(nv))
    return false;
  if (objc_null(pv) || objc_null(nv))
    return true;
  return !objc_ueq(pv, nv);
}
