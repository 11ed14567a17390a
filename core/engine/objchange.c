/*
** objchange: ProposedNew, PlannedDataResourceObject, AssertPlanValid and
** AssertObjectCompatible (see objchange.h).  The structure follows
** Terraform's internal/plans/objchange so behaviour can be compared case by
** case; Go's cty.Walk/Transform-based helpers are replaced by recursion
** over schema and value together, which visits each value once.
*/
#include "objchange.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/convert.h"

/* ---- Small value helpers ----------------------------------------------- */

static bool v_null(Value v) { return (v.flags & VF_NULL) != 0; }
static bool v_unknown(Value v) { return (v.flags & VF_UNKNOWN) != 0; }
static bool v_kind(Value v, TypeKind k) { return v.type && v.type->kind == k; }

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

static bool ueq(Value a, Value b)
{
  if (!a.type || !b.type || !ty_equal(a.type, b.type))
    return false;
  return eq_inner(a, b);
}

/* Attribute `name` of obj; a null or unknown object gives a null or
** unknown attribute; a missing attribute (or a non-object) gives a null
** (or, for an unknown value, unknown) value of type `fallback`. */
static Value attr_of(Value obj, const char *name, const Type *fallback)
{
  if (v_kind(obj, TY_OBJECT)) {
    int i = ty_attr_index(obj.type, name);
    if (i >= 0) {
      const Type *at = obj.type->types[i];
      if (v_unknown(obj))
        return val_unknown(at);
      if (v_null(obj))
        return val_null(at);
      return obj.u.elems[i];
    }
  }
  return v_unknown(obj) ? val_unknown(fallback) : val_null(fallback);
}

static bool has_attr(Value obj, const char *name)
{
  return v_kind(obj, TY_OBJECT) && ty_attr_index(obj.type, name) >= 0;
}

/* Element type of a list/set/map, of tuple element i, or dynamic. */
static const Type *elem_type(const Type *t, uint32_t i)
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

static bool is_seq(Value v) { return v_kind(v, TY_LIST) || v_kind(v, TY_TUPLE); }
static bool is_keyed(Value v) { return v_kind(v, TY_MAP) || v_kind(v, TY_OBJECT); }

/* Number of elements of a known, non-null collection / structural value. */
static uint32_t coll_len(Value v)
{
  if (v_null(v) || v_unknown(v) || !v.type)
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
static const char *key_at(Value v, uint32_t i)
{
  return v.type->kind == TY_MAP ? v.u.entries[i].key : v.type->names[i];
}
static Value keyed_at(Value v, uint32_t i)
{
  return v.type->kind == TY_MAP ? v.u.entries[i].val : v.u.elems[i];
}

/* Looks key up in a known, non-null map or object. */
static bool keyed_get(Value v, const char *key, Value *out)
{
  if (v_null(v) || v_unknown(v))
    return false;
  if (v_kind(v, TY_MAP)) {
    bool found = false;
    Value r = val_map_get(v, key, strlen(key), &found);
    if (found)
      *out = r;
    return found;
  }
  if (v_kind(v, TY_OBJECT)) {
    int i = ty_attr_index(v.type, key);
    if (i < 0)
      return false;
    *out = v.u.elems[i];
    return true;
  }
  return false;
}

/* Rebuilds an object of type t from vals (t's attribute order), keeping
** t when every value still has its attribute type (the common case) and
** otherwise making a new type from the values (dynamic attributes). */
static Value build_obj(Arena *a, const Type *t, Value *vals, uint16_t marks)
{
  for (uint32_t i = 0; i < t->n; i++) {
    if (!ty_equal(vals[i].type, t->types[i]))
      return val_mark(val_object(a, t->n, t->names, vals), marks);
  }
  return val_mark(val_object_typed(t, vals), marks);
}

/* Nested content of a collection: a nested block or a nested attribute
** type's object. */
typedef struct Nest {
  const ProvBlockSchema *block;
  const ProvObjectSchema *obj;
} Nest;

/* ---- Go-syntax rendering (cty GoString, strconv.Quote) ------------------ */

static void go_quote(Buf *b, const char *s, size_t n)
{
  buf_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '"': buf_puts(b, "\\\""); continue;
    case '\\': buf_puts(b, "\\\\"); continue;
    case '\a': buf_puts(b, "\\a"); continue;
    case '\b': buf_puts(b, "\\b"); continue;
    case '\f': buf_puts(b, "\\f"); continue;
    case '\n': buf_puts(b, "\\n"); continue;
    case '\r': buf_puts(b, "\\r"); continue;
    case '\t': buf_puts(b, "\\t"); continue;
    case '\v': buf_puts(b, "\\v"); continue;
    default: break;
    }
    if (c < 0x20 || c == 0x7f) {
      buf_printf(b, "\\x%02x", c);
      continue;
    }
    if (c < 0x80) {
      buf_putc(b, (char)c);
      continue;
    }
    /* UTF-8: copy a well-formed sequence, escape a stray byte. */
    size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    if (c >= 0xf5)
      len = 0;
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; k++)
      ok = ((unsigned char)s[i + k] & 0xc0) == 0x80;
    if (!ok) {
      buf_printf(b, "\\x%02x", c);
      continue;
    }
    buf_put(b, s + i, len);
    i += len - 1;
  }
  buf_putc(b, '"');
}

/* A decimal number as significant digits (no leading/trailing zeros) and
** the position of the decimal point: value = 0.DIGITS x 10^dp. */
typedef struct Dec {
  bool neg;
  char d[48];
  int nd;
  int dp;
  bool exact_double;   /* the value is exactly a float64 */
} Dec;

static void dec_from_text(Dec *x, const char *s, size_t n)
{
  size_t i = 0;
  x->neg = false;
  x->nd = 0;
  x->dp = 0;
  if (i < n && (s[i] == '-' || s[i] == '+'))
    x->neg = s[i++] == '-';
  bool point = false, lead = true;
  int dp = 0;
  for (; i < n; i++) {
    char c = s[i];
    if (c == '.') {
      point = true;
      continue;
    }
    if (c < '0' || c > '9')
      break;
    if (lead && c == '0') {
      if (point)
        dp--;
      continue;
    }
    lead = false;
    if (x->nd < (int)sizeof x->d - 1)
      x->d[x->nd++] = c;
    if (!point)
      dp++;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    long e = strtol(s + i + 1, NULL, 10);
    if (e > 100000)
      e = 100000;
    if (e < -100000)
      e = -100000;
    dp += (int)e;
  }
  while (x->nd > 0 && x->d[x->nd - 1] == '0')
    x->nd--;
  x->dp = dp;
  x->d[x->nd] = 0;
  if (x->nd == 0)
    x->neg = false;
}

/* The shortest digits that read back as d, and whether d is exactly the
** decimal they spell (its binary fraction needs no more digits). */
static void dec_from_double(Dec *x, double d)
{
  char tmp[64];
  for (int p = 1; p <= 17; p++) {
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, d);
    if (strtod(tmp, NULL) == d)
      break;
  }
  dec_from_text(x, tmp, strlen(tmp));
  /* d = m * 2^e with m odd needs exactly -e fraction digits (e < 0). */
  int e2 = 0;
  double m = frexp(d, &e2);
  int frac_bits = 0;
  if (m != 0) {
    m = ldexp(m, 53);
    e2 -= 53;
    while (m != 0 && fmod(m, 2.0) == 0.0) {
      m /= 2.0;
      e2++;
    }
    frac_bits = e2 < 0 ? -e2 : 0;
  }
  int frac_digits = x->nd - x->dp;
  if (frac_digits < 0)
    frac_digits = 0;
  x->exact_double = frac_digits == frac_bits;
}

/* Go's %g with the shortest precision (strconv 'g', -1; big.Float %v). */
static void dec_put_g(Buf *b, const Dec *x)
{
  if (x->nd == 0) {
    buf_putc(b, '0');
    return;
  }
  if (x->neg)
    buf_putc(b, '-');
  int exp = x->dp - 1;
  if (exp < -4 || exp >= 6) {
    buf_putc(b, x->d[0]);
    if (x->nd > 1) {
      buf_putc(b, '.');
      buf_put(b, x->d + 1, (size_t)(x->nd - 1));
    }
    buf_printf(b, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return;
  }
  if (x->dp <= 0) {
    buf_puts(b, "0.");
    for (int i = 0; i < -x->dp; i++)
      buf_putc(b, '0');
    buf_put(b, x->d, (size_t)x->nd);
    return;
  }
  for (int i = 0; i < x->dp; i++)
    buf_putc(b, i < x->nd ? x->d[i] : '0');
  if (x->nd > x->dp) {
    buf_putc(b, '.');
    buf_put(b, x->d + x->dp, (size_t)(x->nd - x->dp));
  }
}

static void go_number(Buf *b, Value v)
{
  Dec x;
  if (v.flags & VF_NUMLIT) {
    dec_from_text(&x, v.u.s, v.len);
    Dec y;
    dec_from_double(&y, strtod(v.u.s, NULL));
    x.exact_double = y.exact_double && y.nd == x.nd && y.dp == x.dp &&
                     memcmp(x.d, y.d, (size_t)x.nd) == 0;
  } else if (v.flags & VF_FLOAT) {
    dec_from_double(&x, v.u.d);
  } else {
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%lld", (long long)v.u.i);
    dec_from_text(&x, tmp, strlen(tmp));
    x.exact_double = true;
  }
  if (x.dp >= x.nd) {
    buf_puts(b, "cty.NumberIntVal(");
    dec_put_g(b, &x);
    buf_putc(b, ')');
  } else if (x.exact_double) {
    buf_puts(b, "cty.NumberFloatVal(");
    dec_put_g(b, &x);
    buf_putc(b, ')');
  } else {
    buf_puts(b, "cty.MustParseNumberVal(\"");
    dec_put_g(b, &x);
    buf_puts(b, "\")");
  }
}

static void go_type(Buf *b, const Type *t)
{
  switch (t->kind) {
  case TY_DYNAMIC: buf_puts(b, "cty.DynamicPseudoType"); return;
  case TY_STRING: buf_puts(b, "cty.String"); return;
  case TY_NUMBER: buf_puts(b, "cty.Number"); return;
  case TY_BOOL: buf_puts(b, "cty.Bool"); return;
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    buf_puts(b, t->kind == TY_LIST ? "cty.List(" :
                t->kind == TY_SET ? "cty.Set(" : "cty.Map(");
    go_type(b, t->elem);
    buf_putc(b, ')');
    return;
  case TY_OBJECT:
    if (t->n == 0) {
      buf_puts(b, "cty.EmptyObject");
      return;
    }
    buf_puts(b, "cty.Object(map[string]cty.Type{");
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        buf_puts(b, ", ");
      go_quote(b, t->names[i], strlen(t->names[i]));
      buf_putc(b, ':');
      go_type(b, t->types[i]);
    }
    buf_puts(b, "})");
    return;
  case TY_TUPLE:
    if (t->n == 0) {
      buf_puts(b, "cty.EmptyTuple");
      return;
    }
    buf_puts(b, "cty.Tuple([]cty.Type{");
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        buf_puts(b, ", ");
      go_type(b, t->types[i]);
    }
    buf_puts(b, "})");
    return;
  }
}

/* cty.Value.GoString of the unmarked value. */
static void go_value(Buf *b, Value v)
{
  const Type *t = v.type ? v.type : &ty_dynamic;
  if (v_null(v)) {
    buf_puts(b, "cty.NullVal(");
    go_type(b, t);
    buf_putc(b, ')');
    return;
  }
  if (v_unknown(v)) {
    if (t->kind == TY_DYNAMIC && !(v.flags & VF_NOTNULL)) {
      buf_puts(b, "cty.DynamicVal");
      return;
    }
    buf_puts(b, "cty.UnknownVal(");
    go_type(b, t);
    buf_putc(b, ')');
    if (v.flags & VF_NOTNULL)
      buf_puts(b, ".RefineNotNull()");
    return;
  }
  switch (t->kind) {
  case TY_DYNAMIC: buf_puts(b, "cty.DynamicVal"); return;
  case TY_BOOL: buf_puts(b, v.u.b ? "cty.True" : "cty.False"); return;
  case TY_NUMBER: go_number(b, v); return;
  case TY_STRING:
    buf_puts(b, "cty.StringVal(");
    go_quote(b, v.u.s, v.len);
    buf_putc(b, ')');
    return;
  case TY_LIST:
  case TY_SET:
    if (v.len == 0) {
      buf_puts(b, t->kind == TY_LIST ? "cty.ListValEmpty(" : "cty.SetValEmpty(");
      go_type(b, t->elem);
      buf_putc(b, ')');
      return;
    }
    buf_puts(b, t->kind == TY_LIST ? "cty.ListVal([]cty.Value{" :
                                     "cty.SetVal([]cty.Value{");
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_puts(b, ", ");
      go_value(b, v.u.elems[i]);
    }
    buf_puts(b, "})");
    return;
  case TY_TUPLE:
    if (v.len == 0) {
      buf_puts(b, "cty.EmptyTupleVal");
      return;
    }
    buf_puts(b, "cty.TupleVal([]cty.Value{");
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_puts(b, ", ");
      go_value(b, v.u.elems[i]);
    }
    buf_puts(b, "})");
    return;
  case TY_MAP:
    if (v.len == 0) {
      buf_puts(b, "cty.MapValEmpty(");
      go_type(b, t->elem);
      buf_putc(b, ')');
      return;
    }
    buf_puts(b, "cty.MapVal(map[string]cty.Value{");
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_puts(b, ", ");
      go_quote(b, v.u.entries[i].key, v.u.entries[i].keylen);
      buf_putc(b, ':');
      go_value(b, v.u.entries[i].val);
    }
    buf_puts(b, "})");
    return;
  case TY_OBJECT:
    if (t->n == 0) {
      buf_puts(b, "cty.EmptyObjectVal");
      return;
    }
    buf_puts(b, "cty.ObjectVal(map[string]cty.Value{");
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        buf_puts(b, ", ");
      go_quote(b, t->names[i], strlen(t->names[i]));
      buf_putc(b, ':');
      go_value(b, v.u.elems[i]);
    }
    buf_puts(b, "})");
    return;
  }
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
      go_quote(&b, st->name, strlen(st->name));
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

/* The path being checked, as a stack; copied into an ObjcErr on error. */
typedef struct Ctx {
  Arena *a;
  ObjcErrs *errs;
  PathStep *steps;
  uint32_t n, cap;
  bool quiet;         /* only count problems (set correlation, secrets) */
  uint32_t nquiet;
} Ctx;

static void push(Ctx *c, PathStepKind k, const char *name, int64_t index)
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
static void pop(Ctx *c) { c->n--; }

/* Appends an error at the current path.  fmt understands %V (a Value,
** rendered as cty's GoString), %q (a C string, Go-quoted), %u (unsigned)
** %s (a C string) and %L (a length: unsigned, or UINT32_MAX for unknown). */
static void fail(Ctx *c, const char *fmt, ...)
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
      go_value(&b, va_arg(ap, Value));
    } else if (*p == 'q') {
      const char *s = va_arg(ap, const char *);
      go_quote(&b, s, strlen(s));
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

/* ---- "Could this prior set element have come from this config?" -------- */

/* validPriorFromConfig: prior may differ from config only in computed
** leaf attributes whose config value is null; nested sets must be equal.
** Each function here handles one level of Terraform's cty.Walk over the
** prior value, with the schema attribute that AttributeByPath would find
** there. */
static bool vp_object(const ProvAttrSchema *attrs, uint32_t nattrs,
                      const ProvNestedBlock *blocks, uint32_t nblocks,
                      Value prior, Value config);
static bool vp_attr(const ProvAttrSchema *at, Value prior, Value config);

static bool vp_elem(Nest ns, Value prior, Value config)
{
  if (ns.block)
    return vp_object(ns.block->attrs, ns.block->nattrs, ns.block->blocks,
                     ns.block->nblocks, prior, config);
  return vp_object(ns.obj->attrs, ns.obj->nattrs, NULL, 0, prior, config);
}

/* A LIST / MAP / SET collection level (no schema attribute here). */
static bool vp_coll(Nest ns, Value prior, Value config)
{
  if (ueq(prior, config))
    return true;
  if (v_kind(config, TY_SET))
    return false;
  if (v_null(prior) || v_unknown(prior))
    return true;
  uint32_t n = coll_len(prior);
  if (n && v_null(config))
    return false;
  if (is_seq(prior)) {
    if (!v_unknown(config) && (!is_seq(config) || config.len < n))
      return false;
    for (uint32_t i = 0; i < n; i++) {
      Value ce = v_unknown(config) ? val_unknown(elem_type(config.type, i))
                                   : config.u.elems[i];
      if (!vp_elem(ns, prior.u.elems[i], ce))
        return false;
    }
    return true;
  }
  if (is_keyed(prior)) {
    for (uint32_t i = 0; i < n; i++) {
      const char *k = key_at(prior, i);
      Value ce;
      if (v_unknown(config))
        ce = val_unknown(v_kind(config, TY_MAP) ? config.type->elem
                                                : &ty_dynamic);
      else if (!keyed_get(config, k, &ce))
        return false;
      if (!vp_elem(ns, keyed_at(prior, i), ce))
        return false;
    }
    return true;
  }
  return false;
}

static bool vp_nested_block(const ProvNestedBlock *nb, Value prior,
                            Value config)
{
  Nest ns = {.block = nb->block};
  if (nb->nesting == PROV_NEST_SINGLE || nb->nesting == PROV_NEST_GROUP)
    return vp_elem(ns, prior, config);
  return vp_coll(ns, prior, config);
}

static bool vp_attr(const ProvAttrSchema *at, Value prior, Value config)
{
  if (ueq(prior, config))
    return true;
  if (v_kind(config, TY_SET))
    return false;
  if (at->nested) {
    Nest ns = {.obj = at->nested};
    if (at->nested->nesting == PROV_NEST_SINGLE)
      return vp_elem(ns, prior, config);
    return vp_coll(ns, prior, config);
  }
  /* A leaf: it may only differ when computed and unset in config. */
  return (at->flags & PROV_COMPUTED) && v_null(config);
}

static bool vp_object(const ProvAttrSchema *attrs, uint32_t nattrs,
                      const ProvNestedBlock *blocks, uint32_t nblocks,
                      Value prior, Value config)
{
  if (ueq(prior, config))
    return true;
  if (v_kind(config, TY_SET))
    return false;
  if (v_null(prior) || v_unknown(prior))
    return true;
  if (!v_kind(prior, TY_OBJECT))
    return false;
  if (prior.type->n == 0)
    return true;
  if (v_null(config) || !v_kind(config, TY_OBJECT))
    return false;
  for (uint32_t i = 0; i < nattrs; i++) {
    const ProvAttrSchema *at = &attrs[i];
    int pi = ty_attr_index(prior.type, at->name);
    if (pi < 0)
      continue;
    if (!has_attr(config, at->name))
      return false;
    Value cv = attr_of(config, at->name, &ty_dynamic);
    if (!vp_attr(at, prior.u.elems[pi], cv))
      return false;
  }
  for (uint32_t i = 0; i < nblocks; i++) {
    const ProvNestedBlock *nb = &blocks[i];
    int pi = ty_attr_index(prior.type, nb->type_name);
    if (pi < 0)
      continue;
    if (!has_attr(config, nb->type_name))
      return false;
    Value cv = attr_of(config, nb->type_name, &ty_dynamic);
    if (!vp_nested_block(nb, prior.u.elems[pi], cv))
      return false;
  }
  return true;
}

/* optionalValueNotComputable: an optional+computed nested attribute whose
** prior value holds a non-null non-computed attribute must have come from
** configuration, so a null config now means "remove it". */
static bool onc_value(const ProvObjectSchema *o, Value v);

static bool onc_object(const ProvObjectSchema *o, Value v)
{
  if (v_null(v) || v_unknown(v) || !v_kind(v, TY_OBJECT))
    return false;
  for (uint32_t i = 0; i < o->nattrs; i++) {
    const ProvAttrSchema *at = &o->attrs[i];
    int k = ty_attr_index(v.type, at->name);
    if (k < 0)
      continue;
    Value av = v.u.elems[k];
    if (v_null(av))
      continue;
    if (!(at->flags & PROV_COMPUTED))
      return true;
    if (at->nested && onc_value(at->nested, av))
      return true;
  }
  return false;
}

static bool onc_value(const ProvObjectSchema *o, Value v)
{
  if (v_null(v) || v_unknown(v))
    return false;
  if (o->nesting == PROV_NEST_SINGLE || o->nesting == PROV_NEST_GROUP)
    return onc_object(o, v);
  uint32_t n = coll_len(v);
  for (uint32_t i = 0; i < n; i++) {
    Value e = v_kind(v, TY_MAP) ? v.u.entries[i].val : v.u.elems[i];
    if (onc_object(o, e))
      return true;
  }
  return false;
}

static bool optional_not_computable(const ProvAttrSchema *at, Value prior)
{
  if (!(at->flags & PROV_OPTIONAL) || !at->nested)
    return false;
  return onc_value(at->nested, prior);
}

/* ---- ProposedNew ------------------------------------------------------- */

static Value pn_block(Arena *a, const ProvBlockSchema *b, Value prior,
                      Value config);
static Value pn_nested_type(Arena *a, const ProvObjectSchema *o, Value prior,
                            Value config);

/* configschema Block.EmptyValue: null attributes, null SINGLE blocks,
** empty GROUP objects and empty LIST/SET/MAP collections. */
static Value empty_value(Arena *a, const ProvBlockSchema *b)
{
  const Type *t = prov_schema_implied_type(a, b);
  if (t->kind != TY_OBJECT)
    return val_null(t);
  Value *vals = ARENA_NEW(a, Value, t->n);
  for (uint32_t i = 0; i < t->n; i++)
    vals[i] = val_null(t->types[i]);
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const ProvNestedBlock *nb = &b->blocks[i];
    int k = ty_attr_index(t, nb->type_name);
    if (k < 0)
      continue;
    const Type *bt = t->types[k];
    Value e = {.type = bt};
    switch (nb->nesting) {
    case PROV_NEST_GROUP:
      vals[k] = empty_value(a, nb->block);
      break;
    case PROV_NEST_LIST:
      if (bt->kind == TY_DYNAMIC)
        e.type = &ty_empty_tuple;
      vals[k] = e;
      break;
    case PROV_NEST_MAP:
      if (bt->kind == TY_DYNAMIC)
        e.type = &ty_empty_object;
      vals[k] = e;
      break;
    case PROV_NEST_SET:
      vals[k] = e;
      break;
    default:
      break;
    }
  }
  return val_object_typed(t, vals);
}

/* proposedNewBlockOrObject */
static Value pn_elem(Arena *a, Nest ns, Value prior, Value config);

static Value pn_list(Arena *a, Nest ns, Value prior, Value config)
{
  if (v_null(config) || v_unknown(config) || !is_seq(config) ||
      config.len == 0)
    return config;
  uint32_t n = config.len;
  Value *vals = ARENA_NEW(a, Value, n);
  for (uint32_t i = 0; i < n; i++) {
    Value ce = config.u.elems[i], pe;
    if (v_unknown(prior)) {
      pe = val_unknown(elem_type(prior.type, i));
    } else if (v_null(prior) || !is_seq(prior) || i >= prior.len) {
      vals[i] = ce;
      continue;
    } else {
      pe = prior.u.elems[i];
    }
    vals[i] = pn_elem(a, ns, pe, ce);
  }
  uint16_t marks = config.flags & VF_SENSITIVE;
  if (config.type->kind == TY_TUPLE)
    return val_mark(val_tuple(a, vals, n), marks);
  Value r = {.type = config.type, .flags = marks, .len = n,
             .u = {.elems = vals}};
  return r;
}

static Value pn_map(Arena *a, Nest ns, Value prior, Value config)
{
  if (v_null(config) || v_unknown(config) || !is_keyed(config) ||
      config.len == 0)
    return config;
  uint32_t n = config.len;
  uint16_t marks = config.flags & VF_SENSITIVE;
  if (config.type->kind == TY_MAP) {
    MapEntry *ents = ARENA_NEW(a, MapEntry, n);
    for (uint32_t i = 0; i < n; i++) {
      ents[i] = config.u.entries[i];
      Value pe;
      if (keyed_get(prior, ents[i].key, &pe))
        ents[i].val = pn_elem(a, ns, pe, ents[i].val);
    }
    Value r = {.type = config.type, .flags = marks, .len = n,
               .u = {.entries = ents}};
    return r;
  }
  Value *vals = ARENA_NEW(a, Value, n);
  for (uint32_t i = 0; i < n; i++) {
    vals[i] = config.u.elems[i];
    Value pe;
    if (keyed_get(prior, config.type->names[i], &pe))
      vals[i] = pn_elem(a, ns, pe, vals[i]);
  }
  return build_obj(a, config.type, vals, marks);
}

static Value pn_set(Arena *a, Nest ns, Value prior, Value config)
{
  if (v_null(config) || v_unknown(config) || !v_kind(config, TY_SET) ||
      config.len == 0)
    return config;
  uint32_t n = config.len, np = 0;
  const Value *pv = NULL;
  if (!v_null(prior) && !v_unknown(prior) && v_kind(prior, TY_SET)) {
    np = prior.len;
    pv = prior.u.elems;
  }
  bool *used = np ? ARENA_NEW(a, bool, np) : NULL;
  Value *vals = ARENA_NEW(a, Value, n);
  for (uint32_t i = 0; i < n; i++) {
    Value ce = config.u.elems[i];
    Value pe = val_null(config.type->elem);
    for (uint32_t j = 0; j < np; j++) {
      if (!used[j] && vp_elem(ns, pv[j], ce)) {
        pe = pv[j];
        used[j] = true;
        break;
      }
    }
    vals[i] = pn_elem(a, ns, pe, ce);
  }
  return val_mark(val_set(a, config.type->elem, vals, n),
                  config.flags & VF_SENSITIVE);
}

static Value pn_attr(Arena *a, const ProvAttrSchema *at, Value prior,
                     Value config)
{
  if ((at->flags & PROV_COMPUTED) && v_null(config)) {
    if (optional_not_computable(at, prior))
      return config;
    return prior;
  }
  if (at->nested)
    return pn_nested_type(a, at->nested, prior, config);
  return config;
}

static Value pn_nested_block(Arena *a, const ProvNestedBlock *nb, Value prior,
                             Value config)
{
  if (v_unknown(config))
    return config;
  Nest ns = {.block = nb->block};
  switch (nb->nesting) {
  case PROV_NEST_SINGLE:
    if (v_null(config))
      return config;
    return pn_block(a, nb->block, prior, config);
  case PROV_NEST_GROUP:
    return pn_block(a, nb->block, prior, config);
  case PROV_NEST_LIST:
    return pn_list(a, ns, prior, config);
  case PROV_NEST_MAP:
    return pn_map(a, ns, prior, config);
  case PROV_NEST_SET:
    return pn_set(a, ns, prior, config);
  default:
    return config;
  }
}

/* proposedNewAttributes (+ nested blocks when blocks != NULL) over the
** known-or-unknown, non-null object config; the result has config's
** type unless a dynamic attribute changed type. */
static Value pn_object(Arena *a, const ProvAttrSchema *attrs, uint32_t nattrs,
                       const ProvNestedBlock *blocks, uint32_t nblocks,
                       Value prior, Value config)
{
  const Type *t = config.type;
  if (!v_kind(config, TY_OBJECT))
    return config;
  Value *vals = ARENA_NEW(a, Value, t->n);
  for (uint32_t i = 0; i < t->n; i++)
    vals[i] = v_unknown(config) ? val_unknown(t->types[i]) : config.u.elems[i];
  for (uint32_t i = 0; i < nattrs; i++) {
    int k = ty_attr_index(t, attrs[i].name);
    if (k < 0)
      continue;
    Value pv = attr_of(prior, attrs[i].name, t->types[k]);
    vals[k] = pn_attr(a, &attrs[i], pv, vals[k]);
  }
  for (uint32_t i = 0; i < nblocks; i++) {
    int k = ty_attr_index(t, blocks[i].type_name);
    if (k < 0)
      continue;
    Value pv = attr_of(prior, blocks[i].type_name, t->types[k]);
    vals[k] = pn_nested_block(a, &blocks[i], pv, vals[k]);
  }
  return build_obj(a, t, vals, config.flags & VF_SENSITIVE);
}

static Value pn_nested_type(Arena *a, const ProvObjectSchema *o, Value prior,
                            Value config)
{
  if (v_unknown(config))
    return config;
  Nest ns = {.obj = o};
  switch (o->nesting) {
  case PROV_NEST_SINGLE:
  case PROV_NEST_GROUP:
    if (v_null(config))
      return config;
    return pn_object(a, o->attrs, o->nattrs, NULL, 0, prior, config);
  case PROV_NEST_LIST:
    return pn_list(a, ns, prior, config);
  case PROV_NEST_MAP:
    return pn_map(a, ns, prior, config);
  case PROV_NEST_SET:
    return pn_set(a, ns, prior, config);
  default:
    return config;
  }
}

/* Terraform's lower-case proposedNew: prior is non-null (maybe unknown). */
static Value pn_inner(Arena *a, const ProvBlockSchema *b, Value prior,
                      Value config)
{
  if (v_null(config) || v_unknown(config))
    return prior;
  if (!v_kind(config, TY_OBJECT))
    return config;
  return pn_object(a, b->attrs, b->nattrs, b->blocks, b->nblocks, prior,
                   config);
}

/* Terraform's ProposedNew. */
static Value pn_block(Arena *a, const ProvBlockSchema *b, Value prior,
                      Value config)
{
  if (v_null(config) && v_null(prior))
    return prior;
  if (v_null(prior))
    prior = empty_value(a, b);
  return pn_inner(a, b, prior, config);
}

static Value pn_elem(Arena *a, Nest ns, Value prior, Value config)
{
  if (ns.block)
    return pn_block(a, ns.block, prior, config);
  if (v_null(config))
    return config;
  return pn_object(a, ns.obj->attrs, ns.obj->nattrs, NULL, 0, prior, config);
}

Value objc_proposed_new(Arena *a, const ProvBlockSchema *schema, Value prior,
                        Value config)
{
  return pn_block(a, schema, prior, config);
}

Value objc_planned_data(Arena *a, const ProvBlockSchema *schema, Value config)
{
  Value prior = val_unknown(prov_schema_implied_type(a, schema));
  return pn_inner(a, schema, prior, config);
}

/* ---- AssertPlanValid ---------------------------------------------------- */

static void apv_block(Ctx *c, const ProvBlockSchema *b, Value prior,
                      Value config, Value planned);
static void apv_attrs(Ctx *c, const ProvAttrSchema *attrs, uint32_t n,
                      Value prior, Value config, Value planned);

static bool any_sensitive(Value a, Value b, Value c)
{
  return val_has_sensitive(a) || val_has_sensitive(b) || val_has_sensitive(c);
}

/* Length of a collection for the "count in plan" messages: UINT32_MAX
** stands for unknown. */
static unsigned len_or_unknown(Value v)
{
  return v_unknown(v) ? UINT32_MAX : coll_len(v);
}

/* assertPlannedObjectValid: a nested attribute type's value. */
static void apv_object(Ctx *c, const ProvAttrSchema *at, Value prior,
                       Value config, Value planned)
{
  const ProvObjectSchema *o = at->nested;
  if (v_null(planned) && !v_null(config)) {
    fail(c, "planned for absence but config wants existence");
    return;
  }
  if (v_null(config) && !v_null(planned)) {
    fail(c, "planned for existence but config wants absence");
    return;
  }
  if (!v_null(config) && v_unknown(planned) && !v_unknown(config)) {
    if (at->flags & PROV_COMPUTED)
      fail(c, "planned unknown value for configured block");
    else
      fail(c, "planned unknown value for non-computed block");
    return;
  }
  if (v_null(planned))
    return;
  switch (o->nesting) {
  case PROV_NEST_SINGLE:
  case PROV_NEST_GROUP:
    apv_attrs(c, o->attrs, o->nattrs, prior, config, planned);
    return;
  case PROV_NEST_LIST: {
    unsigned pl = len_or_unknown(planned), cl = len_or_unknown(config);
    if (pl == UINT32_MAX && cl == UINT32_MAX)
      return;
    if (pl != cl || pl == UINT32_MAX) {
      fail(c, "count in plan (%L) disagrees with count in config (%L)", pl,
           cl);
      return;
    }
    if (!is_seq(planned) || !is_seq(config))
      return;
    for (uint32_t i = 0; i < pl; i++) {
      Value pe = planned.u.elems[i], ce = config.u.elems[i];
      Value re = val_null(elem_type(planned.type, i));
      if (!v_null(prior) && !v_unknown(prior) && is_seq(prior) &&
          i < prior.len)
        re = prior.u.elems[i];
      push(c, PS_INDEX, NULL, i);
      apv_attrs(c, o->attrs, o->nattrs, re, ce, pe);
      pop(c);
    }
    return;
  }
  case PROV_NEST_MAP: {
    unsigned pl = len_or_unknown(planned), cl = len_or_unknown(config);
    if (pl == UINT32_MAX && cl == UINT32_MAX)
      return;
    if (pl != cl || pl == UINT32_MAX) {
      fail(c, "count in plan (%L) disagrees with count in config (%L)", pl,
           cl);
      return;
    }
    if (!is_keyed(planned) || !is_keyed(config))
      return;
    for (uint32_t i = 0; i < pl; i++) {
      const char *k = key_at(planned, i);
      Value ce, re;
      if (!keyed_get(config, k, &ce)) {
        fail(c, "map key %q from plan is not present in config", k);
        continue;
      }
      if (v_unknown(prior) || !keyed_get(prior, k, &re))
        re = val_null(elem_type(planned.type, i));
      /* Terraform steps into map elements with GetAttrStep here. */
      push(c, PS_ATTR, k, 0);
      apv_attrs(c, o->attrs, o->nattrs, re, ce, keyed_at(planned, i));
      pop(c);
    }
    for (uint32_t i = 0; i < cl; i++) {
      Value pe;
      if (!keyed_get(planned, key_at(config, i), &pe))
        fail(c, "map key %q from config is not present in plan",
             key_at(config, i));
    }
    return;
  }
  case PROV_NEST_SET: {
    /* Set elements cannot be correlated; only a known length change is
    ** detectable. */
    unsigned pl = len_or_unknown(planned), cl = len_or_unknown(config);
    if (pl != UINT32_MAX && cl != UINT32_MAX && pl != cl)
      fail(c, "count in plan (%L) disagrees with count in config (%L)", pl,
           cl);
    return;
  }
  default:
    return;
  }
}

/* assertPlannedValueValid */
static void apv_value(Ctx *c, const ProvAttrSchema *at, Value prior,
                      Value config, Value planned)
{
  if (ueq(planned, config))
    return;
  if (!v_null(prior) && !v_null(config) && ueq(planned, prior))
    return;
  if (at->flags & PROV_WRITE_ONLY) {
    if (!v_null(planned))
      fail(c, "planned value for write-only attribute is not null");
    return;
  }
  bool computed = (at->flags & PROV_COMPUTED) != 0;
  if (computed && !(at->flags & PROV_OPTIONAL))
    return;
  if (v_null(config) && computed)
    return;
  bool sens = (at->flags & PROV_SENSITIVE) ||
              any_sensitive(prior, config, planned);
  if (v_null(config) && !v_null(planned)) {
    if (sens)
      fail(c, "sensitive planned value for a non-computed attribute");
    else
      fail(c, "planned value %V for a non-computed attribute", planned);
    return;
  }
  if (at->nested) {
    apv_object(c, at, prior, config, planned);
    return;
  }
  if (v_null(prior)) {
    if (sens)
      fail(c, "sensitive planned value does not match config value");
    else
      fail(c, "planned value %V does not match config value %V", planned,
           config);
    return;
  }
  if (sens)
    fail(c, "sensitive planned value does not match config value nor prior "
            "value");
  else
    fail(c, "planned value %V does not match config value %V nor prior "
            "value %V", planned, config, prior);
}

static void apv_attrs(Ctx *c, const ProvAttrSchema *attrs, uint32_t n,
                      Value prior, Value config, Value planned)
{
  for (uint32_t i = 0; i < n; i++) {
    const ProvAttrSchema *at = &attrs[i];
    Value pv = attr_of(planned, at->name, &ty_dynamic);
    Value cv = attr_of(config, at->name, pv.type);
    Value rv = attr_of(prior, at->name, pv.type);
    if (v_unknown(prior))
      rv = val_null(rv.type);
    push(c, PS_ATTR, at->name, 0);
    apv_value(c, at, rv, cv, pv);
    pop(c);
  }
}

static const char *const unknown_elem_msg =
    "element representing nested block must not be unknown itself; set "
    "nested attribute values to unknown instead";

static void apv_nested_block(Ctx *c, const ProvNestedBlock *nb, Value prior,
                             Value config, Value planned)
{
  if (ueq(planned, config))
    return;
  if (v_unknown(config)) {
    fail(c, "planned value %V for unknown dynamic block", planned);
    return;
  }
  if (v_unknown(planned)) {
    fail(c, "planned unknown value for non-computed block");
    return;
  }
  if (v_unknown(prior))
    prior = val_null(prior.type);
  switch (nb->nesting) {
  case PROV_NEST_SINGLE:
  case PROV_NEST_GROUP:
    apv_block(c, nb->block, prior, config, planned);
    return;
  case PROV_NEST_LIST: {
    if (v_null(planned)) {
      fail(c, "attribute representing a list of nested blocks must be "
              "empty to indicate no blocks, not null");
      return;
    }
    uint32_t pl = coll_len(planned), cl = coll_len(config);
    if (pl != cl) {
      fail(c, "block count in plan (%u) disagrees with count in config (%u)",
           pl, cl);
      return;
    }
    if (!is_seq(planned) || !is_seq(config))
      return;
    for (uint32_t i = 0; i < pl; i++) {
      Value pe = planned.u.elems[i];
      push(c, PS_INDEX, NULL, i);
      if (v_unknown(pe)) {
        fail(c, "%s", unknown_elem_msg);
      } else {
        Value re = val_null(elem_type(planned.type, i));
        if (!v_null(prior) && is_seq(prior) && i < prior.len)
          re = prior.u.elems[i];
        apv_block(c, nb->block, re, config.u.elems[i], pe);
      }
      pop(c);
    }
    return;
  }
  case PROV_NEST_MAP: {
    if (v_null(planned)) {
      fail(c, "attribute representing a map of nested blocks must be "
              "empty to indicate no blocks, not null");
      return;
    }
    if (!is_keyed(planned))
      return;
    bool obj = planned.type->kind == TY_OBJECT;
    uint32_t pl = coll_len(planned), cl = coll_len(config);
    if (!obj && pl != cl) {
      fail(c, "block count in plan (%u) disagrees with count in config (%u)",
           pl, cl);
      return;
    }
    for (uint32_t i = 0; i < pl; i++) {
      const char *k = key_at(planned, i);
      Value pe = keyed_at(planned, i), ce, re;
      bool in_config = keyed_get(config, k, &ce);
      if (obj && !in_config) {
        fail(c, "block key %q from plan is not present in config", k);
        continue;
      }
      push(c, obj ? PS_ATTR : PS_KEY, k, 0);
      if (v_unknown(pe)) {
        fail(c, "%s", unknown_elem_msg);
      } else if (!in_config) {
        fail(c, "block key %q from plan is not present in config", k);
      } else {
        if (!keyed_get(prior, k, &re))
          re = val_null(elem_type(planned.type, i));
        apv_block(c, nb->block, re, ce, pe);
      }
      pop(c);
    }
    for (uint32_t i = 0; i < cl; i++) {
      Value pe;
      if (!keyed_get(planned, key_at(config, i), &pe))
        fail(c, "block key %q from config is not present in plan",
             key_at(config, i));
    }
    return;
  }
  case PROV_NEST_SET:
    if (v_null(planned)) {
      fail(c, "attribute representing a set of nested blocks must be "
              "empty to indicate no blocks, not null");
      return;
    }
    /* Set elements have no identity to correlate them with config, so
    ** the provider is trusted except for wholly unknown elements. */
    for (uint32_t i = 0; i < coll_len(planned); i++) {
      if (!v_unknown(planned.u.elems[i]))
        continue;
      push(c, PS_INDEX, NULL, OBJC_STEP_SET_UNKNOWN);
      fail(c, "%s", unknown_elem_msg);
      pop(c);
    }
    return;
  default:
    return;
  }
}

static void apv_block(Ctx *c, const ProvBlockSchema *b, Value prior,
                      Value config, Value planned)
{
  if (v_null(planned) && !v_null(config)) {
    fail(c, "planned for absence but config wants existence");
    return;
  }
  if (v_null(config) && !v_null(planned)) {
    fail(c, "planned for existence but config wants absence");
    return;
  }
  if (v_null(planned))
    return;
  apv_attrs(c, b->attrs, b->nattrs, prior, config, planned);
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const ProvNestedBlock *nb = &b->blocks[i];
    Value pv = attr_of(planned, nb->type_name, &ty_dynamic);
    Value cv = attr_of(config, nb->type_name, pv.type);
    Value rv = attr_of(prior, nb->type_name, pv.type);
    push(c, PS_ATTR, nb->type_name, 0);
    apv_nested_block(c, nb, rv, cv, pv);
    pop(c);
  }
}

bool objc_assert_plan_valid(Arena *a, const ProvBlockSchema *schema,
                            Value prior, Value config, Value planned,
                            ObjcErrs *errs)
{
  Ctx c = {.a = a, .errs = errs};
  uint32_t before = errs->n;
  apv_block(&c, schema, prior, config, planned);
  return errs->n == before;
}

/* ---- AssertObjectCompatible -------------------------------------------- */

/* cty TestConformance: actual's type conforms to planned's when equal,
** with dynamic in planned matching anything. */
static bool conforms(const Type *actual, const Type *planned)
{
  if (planned->kind == TY_DYNAMIC)
    return true;
  if (actual == planned)
    return true;
  if (actual->kind != planned->kind)
    return false;
  switch (planned->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    return conforms(actual->elem, planned->elem);
  case TY_OBJECT:
    if (actual->n != planned->n)
      return false;
    for (uint32_t i = 0; i < planned->n; i++)
      if (strcmp(actual->names[i], planned->names[i]) != 0 ||
          !conforms(actual->types[i], planned->types[i]))
        return false;
    return true;
  case TY_TUPLE:
    if (actual->n != planned->n)
      return false;
    for (uint32_t i = 0; i < planned->n; i++)
      if (!conforms(actual->types[i], planned->types[i]))
        return false;
    return true;
  default:
    return true;
  }
}

static void avc_value(Ctx *c, Value planned, Value actual);

/* assertSetValuesCompatible with assertValueCompatible (blk == NULL) or
** assertObjectCompatible (blk) as the correlation test. */
static void aoc_block(Ctx *c, const ProvBlockSchema *b, Value planned,
                      Value actual);

static bool correlates(Ctx *c, const ProvBlockSchema *blk, Value p, Value a)
{
  Ctx q = *c;
  q.quiet = true;
  q.nquiet = 0;
  push(&q, PS_INDEX, NULL, OBJC_STEP_SET_ELEM);
  if (blk)
    aoc_block(&q, blk, p, a);
  else
    avc_value(&q, p, a);
  /* The stack may have been reallocated; keep the larger one. */
  c->steps = q.steps;
  c->cap = q.cap;
  return q.nquiet == 0;
}

static void set_compatible(Ctx *c, const ProvBlockSchema *blk, Value planned,
                           Value actual)
{
  uint32_t np = planned.len, na = actual.len;
  bool *peq = ARENA_NEW(c->a, bool, np ? np : 1);
  bool *aeq = ARENA_NEW(c->a, bool, na ? na : 1);
  for (uint32_t i = 0; i < np; i++)
    for (uint32_t j = 0; j < na; j++)
      if (correlates(c, blk, planned.u.elems[i], actual.u.elems[j])) {
        peq[i] = true;
        aeq[j] = true;
      }
  bool any = false;
  for (uint32_t i = 0; i < np; i++)
    if (!peq[i]) {
      fail(c, "planned set element %V does not correlate with any element "
              "in actual", planned.u.elems[i]);
      any = true;
    }
  if (any)
    return;
  for (uint32_t j = 0; j < na; j++)
    if (!aeq[j])
      fail(c, "actual set element %V does not correlate with any element "
              "in plan", actual.u.elems[j]);
}

/* assertValueCompatible, on unmarked values. */
static void avc_value(Ctx *c, Value planned, Value actual)
{
  if (!planned.type || !actual.type || planned.type->kind == TY_DYNAMIC)
    return;
  if (!conforms(actual.type, planned.type)) {
    if (c->quiet) {
      c->nquiet++;
      return;
    }
    Buf m;
    buf_init(&m, c->a);
    conv_mismatch_message(&m, c->a, actual.type, planned.type);
    fail(c, "wrong final value type: %s", buf_str(&m));
    return;
  }
  if (v_unknown(planned)) {
    /* Only the not-null refinement can be violated. */
    if ((planned.flags & VF_NOTNULL) && v_null(actual))
      fail(c, "final value %V does not conform to planning placeholder %V",
           actual, planned);
    return;
  }
  if (v_null(actual)) {
    if (!v_null(planned))
      fail(c, "was %V, but now null", planned);
    return;
  }
  if (v_null(planned)) {
    fail(c, "was null, but now %V", actual);
    return;
  }
  if (v_unknown(actual)) {
    fail(c, "was known, but now unknown");
    return;
  }
  switch (planned.type->kind) {
  case TY_STRING:
  case TY_NUMBER:
  case TY_BOOL:
    if (!val_raw_equal(val_unmark(planned), val_unmark(actual), false))
      fail(c, "was %V, but now %V", planned, actual);
    return;
  case TY_LIST:
  case TY_TUPLE:
    for (uint32_t i = 0; i < planned.len; i++) {
      if (i >= actual.len) {
        fail(c, "element %u has vanished", i);
        continue;
      }
      push(c, PS_INDEX, NULL, i);
      avc_value(c, planned.u.elems[i], actual.u.elems[i]);
      pop(c);
    }
    for (uint32_t i = planned.len; i < actual.len; i++)
      fail(c, "new element %u has appeared", i);
    return;
  case TY_MAP:
    for (uint32_t i = 0; i < planned.len; i++) {
      const MapEntry *e = &planned.u.entries[i];
      Value av;
      if (!keyed_get(actual, e->key, &av)) {
        fail(c, "element %q has vanished", e->key);
        continue;
      }
      push(c, PS_KEY, e->key, 0);
      avc_value(c, e->val, av);
      pop(c);
    }
    for (uint32_t i = 0; i < actual.len; i++) {
      Value pv;
      if (!keyed_get(planned, actual.u.entries[i].key, &pv))
        fail(c, "new element %q has appeared", actual.u.entries[i].key);
    }
    return;
  case TY_OBJECT:
    for (uint32_t i = 0; i < planned.type->n; i++) {
      push(c, PS_ATTR, planned.type->names[i], 0);
      avc_value(c, planned.u.elems[i], actual.u.elems[i]);
      pop(c);
    }
    return;
  case TY_SET:
    set_compatible(c, NULL, planned, actual);
    if (planned.len < actual.len)
      fail(c, "length changed from %u to %u", planned.len, actual.len);
    return;
  default:
    return;
  }
}

static void aoc_attr(Ctx *c, const ProvAttrSchema *at, Value planned,
                     Value actual)
{
  bool sens = (at->flags & PROV_SENSITIVE) || val_has_sensitive(planned) ||
              val_has_sensitive(actual);
  if (!sens) {
    avc_value(c, planned, actual);
    return;
  }
  /* Check quietly so no sensitive value reaches a message. */
  Ctx q = *c;
  q.quiet = true;
  q.nquiet = 0;
  avc_value(&q, planned, actual);
  c->steps = q.steps;
  c->cap = q.cap;
  if (q.nquiet)
    fail(c, "inconsistent values for sensitive attribute");
}

static void aoc_nested_block(Ctx *c, const ProvNestedBlock *nb, Value planned,
                             Value actual)
{
  switch (nb->nesting) {
  case PROV_NEST_SINGLE:
  case PROV_NEST_GROUP:
    /* An unknown placeholder may have expanded into no block at all. */
    if (v_unknown(planned) && v_null(actual))
      return;
    aoc_block(c, nb->block, planned, actual);
    return;
  case PROV_NEST_LIST:
    if (v_unknown(planned) || v_unknown(actual) || v_null(planned))
      return;
    if (v_null(actual)) {
      fail(c, "null block value after apply");
      return;
    }
    if (!is_seq(planned) || !is_seq(actual))
      return;
    if (planned.len != actual.len) {
      fail(c, "block count changed from %u to %u", planned.len, actual.len);
      return;
    }
    for (uint32_t i = 0; i < planned.len; i++) {
      push(c, PS_INDEX, NULL, i);
      aoc_block(c, nb->block, planned.u.elems[i], actual.u.elems[i]);
      pop(c);
    }
    return;
  case PROV_NEST_MAP:
    if (v_kind(planned, TY_OBJECT)) {
      if (v_unknown(planned) || v_null(planned))
        return;
      if (v_null(actual)) {
        fail(c, "null block value after apply");
        return;
      }
      for (uint32_t i = 0; i < planned.type->n; i++) {
        const char *k = planned.type->names[i];
        Value av;
        if (!has_attr(actual, k)) {
          fail(c, "block key %q has vanished", k);
          continue;
        }
        av = attr_of(actual, k, &ty_dynamic);
        push(c, PS_ATTR, k, 0);
        aoc_block(c, nb->block, planned.u.elems[i], av);
        pop(c);
      }
      if (v_kind(actual, TY_OBJECT))
        for (uint32_t i = 0; i < actual.type->n; i++)
          if (!has_attr(planned, actual.type->names[i]))
            fail(c, "new block key %q has appeared", actual.type->names[i]);
      return;
    }
    if (v_unknown(planned) || v_null(planned))
      return;
    if (v_null(actual)) {
      fail(c, "null block value after apply");
      return;
    }
    if (!v_kind(planned, TY_MAP) || !v_kind(actual, TY_MAP) ||
        v_unknown(actual))
      return;
    if (planned.len != actual.len) {
      fail(c, "block count changed from %u to %u", planned.len, actual.len);
      return;
    }
    for (uint32_t i = 0; i < planned.len; i++) {
      const MapEntry *e = &planned.u.entries[i];
      Value av;
      if (!keyed_get(actual, e->key, &av))
        continue;
      push(c, PS_KEY, e->key, 0);
      aoc_block(c, nb->block, e->val, av);
      pop(c);
    }
    return;
  case PROV_NEST_SET:
    if (v_unknown(planned) || v_unknown(actual) || v_null(planned))
      return;
    if (v_null(actual)) {
      fail(c, "null block value after apply");
      return;
    }
    if (!v_kind(planned, TY_SET) || !v_kind(actual, TY_SET))
      return;
    set_compatible(c, nb->block, planned, actual);
    if (planned.len < actual.len)
      fail(c, "block set length changed from %u to %u", planned.len,
           actual.len);
    return;
  default:
    return;
  }
}

static void aoc_block(Ctx *c, const ProvBlockSchema *b, Value planned,
                      Value actual)
{
  const char *root = c->n == 0 ? "Root object " : "";
  if (v_null(planned) && !v_null(actual)) {
    fail(c, "%swas absent, but now present", root);
    return;
  }
  if (v_null(actual) && !v_null(planned)) {
    fail(c, "%swas present, but now absent", root);
    return;
  }
  if (v_null(planned))
    return;
  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *at = &b->attrs[i];
    Value pv = attr_of(planned, at->name, &ty_dynamic);
    Value av = attr_of(actual, at->name, pv.type);
    push(c, PS_ATTR, at->name, 0);
    aoc_attr(c, at, pv, av);
    pop(c);
  }
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const ProvNestedBlock *nb = &b->blocks[i];
    Value pv = val_unmark(attr_of(planned, nb->type_name, &ty_dynamic));
    Value av = val_unmark(attr_of(actual, nb->type_name, pv.type));
    push(c, PS_ATTR, nb->type_name, 0);
    aoc_nested_block(c, nb, pv, av);
    pop(c);
  }
}

bool objc_assert_compatible(Arena *a, const ProvBlockSchema *schema,
                            Value planned, Value actual, ObjcErrs *errs)
{
  Ctx c = {.a = a, .errs = errs};
  uint32_t before = errs->n;
  aoc_block(&c, schema, planned, actual);
  return errs->n == before;
}

/* ---- requires_replace ----------------------------------------------------- */

/* Follows p from v: 0 when a step does not apply, 1 with *out set. An
** unknown value on the way makes the result unknown (hcl.ApplyPath). */
static int path_walk(Value v, ValPath p, Value *out)
{
  for (uint32_t i = 0; i < p.n; i++) {
    const PathStep *st = &p.steps[i];
    if (v_unknown(v)) {
      *out = val_dynamic_unknown;
      return 1;
    }
    if (v_null(v) || !v.type)
      return 0;
    if (st->kind == PS_INDEX) {
      if (!is_seq(v) || st->index < 0 || st->index >= (int64_t)v.len)
        return 0;
      v = v.u.elems[st->index];
    } else if (!keyed_get(v, st->name, &v)) {
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
  if (v_null(pv) && v_null(nv))
    return false;
  if (v_null(pv) || v_null(nv))
    return true;
  return !ueq(pv, nv);
}
