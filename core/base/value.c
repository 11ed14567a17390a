/*
** value.c: cty types and values (see value.h and docs/values.md).
**
** Numbers have three representations: the exact int64 form (canonical for
** integral values in range), a double (VF_FLOAT) and literal text kept from
** JSON (VF_NUMLIT).  Every number operation first reduces its operands to
** an "effective" int-or-double (NumX); a literal is analysed through a
** decimal form (Dec) so that two literals compare exactly and a literal
** renders its exact digits.
*/
#include "value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Static types and values ------------------------------------------ */

const Type ty_dynamic = {.kind = TY_DYNAMIC};
const Type ty_string = {.kind = TY_STRING};
const Type ty_number = {.kind = TY_NUMBER};
const Type ty_bool = {.kind = TY_BOOL};
const Type ty_empty_object = {.kind = TY_OBJECT};
const Type ty_empty_tuple = {.kind = TY_TUPLE};

/* Collections of primitives and of dynamic are shared constants, so the
** common types cost nothing and compare by pointer. Indexed by TypeKind. */
#define PRIM_COLL(k)                                                       \
  {{.kind = k, .elem = &ty_dynamic}, {.kind = k, .elem = &ty_string},      \
   {.kind = k, .elem = &ty_number}, {.kind = k, .elem = &ty_bool}}
static const Type prim_list[4] = PRIM_COLL(TY_LIST);
static const Type prim_set[4] = PRIM_COLL(TY_SET);
static const Type prim_map[4] = PRIM_COLL(TY_MAP);

const Value val_true = {.type = &ty_bool, .u = {.b = true}};
const Value val_false = {.type = &ty_bool, .u = {.b = false}};
const Value val_dynamic_unknown = {.type = &ty_dynamic, .flags = VF_UNKNOWN};
const Value val_dynamic_null = {.type = &ty_dynamic, .flags = VF_NULL};

/* ---- Types ------------------------------------------------------------ */

static const Type *coll_type(Arena *a, TypeKind k, const Type *elem,
                             const Type *prim)
{
  if (elem->kind <= TY_BOOL && (elem == &ty_dynamic || elem == &ty_string ||
                                elem == &ty_number || elem == &ty_bool))
    return &prim[elem->kind];
  Type *t = ARENA_NEW(a, Type, 1);
  t->kind = k;
  t->elem = elem;
  return t;
}

const Type *ty_list(Arena *a, const Type *elem)
{
  return coll_type(a, TY_LIST, elem, prim_list);
}

const Type *ty_set(Arena *a, const Type *elem)
{
  return coll_type(a, TY_SET, elem, prim_set);
}

const Type *ty_map(Arena *a, const Type *elem)
{
  return coll_type(a, TY_MAP, elem, prim_map);
}

typedef struct NameIdx {
  const char *name;
  uint32_t idx;
} NameIdx;

static int name_idx_cmp(const void *pa, const void *pb)
{
  const NameIdx *a = pa, *b = pb;
  int c = strcmp(a->name, b->name);
  if (c)
    return c;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Sorts names, dropping all but the last of equal names; returns the
** count kept.  ni must hold n entries. */
static uint32_t sort_names(NameIdx *ni, uint32_t n, const char *const *names)
{
  bool sorted = true;   /* strictly ascending: the sort is the identity */
  for (uint32_t i = 0; i < n; i++) {
    ni[i].name = names[i];
    ni[i].idx = i;
    if (sorted && i > 0 && strcmp(names[i - 1], names[i]) >= 0)
      sorted = false;
  }
  if (sorted)
    return n;   /* and no two names are equal */
  qsort(ni, n, sizeof *ni, name_idx_cmp);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (i + 1 < n && strcmp(ni[i].name, ni[i + 1].name) == 0)
      continue;
    ni[k++] = ni[i];
  }
  return k;
}

static const Type *make_object(Arena *a, uint32_t n, const char *const *names,
                               const Type *const *types,
                               const uint8_t *optional, const Value *defaults,
                               bool copy_names)
{
  if (n == 0)
    return &ty_empty_object;
  NameIdx *ni = ARENA_NEW(a, NameIdx, n);
  uint32_t k = sort_names(ni, n, names);
  Type *t = ARENA_NEW(a, Type, 1);
  const char **nn = ARENA_NEW(a, const char *, k);
  const Type **tt = ARENA_NEW(a, const Type *, k);
  uint8_t *oo = NULL;
  Value *dd = NULL;
  if (optional)
    oo = ARENA_NEW(a, uint8_t, k);
  if (defaults)
    dd = ARENA_NEW(a, Value, k);
  for (uint32_t i = 0; i < k; i++) {
    nn[i] = copy_names ? arena_strdup(a, ni[i].name) : ni[i].name;
    tt[i] = types[ni[i].idx];
    if (oo)
      oo[i] = optional[ni[i].idx];
    if (dd)
      dd[i] = defaults[ni[i].idx];
  }
  t->kind = TY_OBJECT;
  t->n = k;
  t->names = nn;
  t->types = tt;
  t->optional = oo;
  t->defaults = dd;
  return t;
}

const Type *ty_object_opt(Arena *a, uint32_t n, const char *const *names,
                          const Type *const *types, const uint8_t *optional,
                          const Value *defaults)
{
  return make_object(a, n, names, types, optional, defaults, true);
}

const Type *ty_object(Arena *a, uint32_t n, const char *const *names,
                      const Type *const *types)
{
  return make_object(a, n, names, types, NULL, NULL, true);
}

const Type *ty_object_shared_names(Arena *a, uint32_t n,
                                   const char *const *names,
                                   const Type *const *types)
{
  return make_object(a, n, names, types, NULL, NULL, false);
}

const Type *ty_tuple(Arena *a, uint32_t n, const Type *const *types)
{
  if (n == 0)
    return &ty_empty_tuple;
  Type *t = ARENA_NEW(a, Type, 1);
  const Type **tt = ARENA_NEW(a, const Type *, n);
  memcpy(tt, types, n * sizeof *tt);
  t->kind = TY_TUPLE;
  t->n = n;
  t->types = tt;
  return t;
}

static bool attr_optional(const Type *t, uint32_t i)
{
  return t->optional && t->optional[i];
}

bool ty_equal(const Type *a, const Type *b)
{
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind)
    return false;
  switch (a->kind) {
  case TY_DYNAMIC:
  case TY_STRING:
  case TY_NUMBER:
  case TY_BOOL:
    return true;
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    return ty_equal(a->elem, b->elem);
  case TY_OBJECT:
    if (a->n != b->n)
      return false;
    for (uint32_t i = 0; i < a->n; i++) {
      if ((a->names[i] != b->names[i] &&
           strcmp(a->names[i], b->names[i]) != 0) ||
          attr_optional(a, i) != attr_optional(b, i) ||
          !ty_equal(a->types[i], b->types[i]))
        return false;
    }
    return true;
  case TY_TUPLE:
    if (a->n != b->n)
      return false;
    for (uint32_t i = 0; i < a->n; i++)
      if (!ty_equal(a->types[i], b->types[i]))
        return false;
    return true;
  }
  return false;
}

/* strcmp's order, inline: about a hundred look-ups per planned instance,
** most of short names. */
static inline int name_cmp(const char *x, const char *y)
{
  while (*x && *x == *y) {
    x++;
    y++;
  }
  return (int)(unsigned char)*x - (int)(unsigned char)*y;
}

int ty_attr_index(const Type *t, const char *name)
{
  if (t->kind != TY_OBJECT)
    return -1;
  /* Small objects (most of them): a linear scan that only compares names
  ** whose first byte matches, stopping at the first name past it (names
  ** are sorted and unique, so it finds what the binary search finds). */
  unsigned char c0 = (unsigned char)name[0];
  if (t->n <= 8) {
    for (uint32_t i = 0; i < t->n; i++) {
      const char *x = t->names[i];
      if (x == name)   /* often the same interned pointer */
        return (int)i;
      unsigned char x0 = (unsigned char)x[0];
      if (x0 > c0)
        return -1;
      if (x0 == c0 && name_cmp(x, name) == 0)
        return (int)i;
    }
    return -1;
  }
  uint32_t lo = 0, hi = t->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (t->names[mid] == name)
      return (int)mid;
    int c = name_cmp(t->names[mid], name);
    if (c == 0)
      return (int)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

bool ty_has_dynamic(const Type *t)
{
  switch (t->kind) {
  case TY_DYNAMIC:
    return true;
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    return ty_has_dynamic(t->elem);
  case TY_OBJECT:
  case TY_TUPLE:
    for (uint32_t i = 0; i < t->n; i++)
      if (ty_has_dynamic(t->types[i]))
        return true;
    return false;
  default:
    return false;
  }
}

void ty_friendly(Buf *out, const Type *t)
{
  switch (t->kind) {
  case TY_DYNAMIC: buf_puts(out, "dynamic"); return;
  case TY_STRING: buf_puts(out, "string"); return;
  case TY_NUMBER: buf_puts(out, "number"); return;
  case TY_BOOL: buf_puts(out, "bool"); return;
  case TY_LIST: buf_puts(out, "list of "); ty_friendly(out, t->elem); return;
  case TY_SET: buf_puts(out, "set of "); ty_friendly(out, t->elem); return;
  case TY_MAP: buf_puts(out, "map of "); ty_friendly(out, t->elem); return;
  case TY_OBJECT: buf_puts(out, "object"); return;
  case TY_TUPLE: buf_puts(out, "tuple"); return;
  }
}

void ty_hcl(Buf *out, const Type *t)
{
  switch (t->kind) {
  case TY_DYNAMIC: buf_puts(out, "any"); return;
  case TY_STRING: buf_puts(out, "string"); return;
  case TY_NUMBER: buf_puts(out, "number"); return;
  case TY_BOOL: buf_puts(out, "bool"); return;
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    buf_puts(out, t->kind == TY_LIST ? "list(" :
                  t->kind == TY_SET ? "set(" : "map(");
    ty_hcl(out, t->elem);
    buf_putc(out, ')');
    return;
  case TY_OBJECT:
    buf_puts(out, "object({");
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        buf_putc(out, ',');
      buf_puts(out, t->names[i]);
      buf_putc(out, '=');
      if (attr_optional(t, i)) {
        buf_puts(out, "optional(");
        ty_hcl(out, t->types[i]);
        buf_putc(out, ')');
      } else {
        ty_hcl(out, t->types[i]);
      }
    }
    buf_puts(out, "})");
    return;
  case TY_TUPLE:
    buf_puts(out, "tuple([");
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        buf_putc(out, ',');
      ty_hcl(out, t->types[i]);
    }
    buf_puts(out, "])");
    return;
  }
}

/* ---- Numbers ------------------------------------------------------------ */

/* Significant digits kept when analysing a literal; more than any double
** needs, and literals longer than this compare on their first DEC_MAX
** digits. */
#define DEC_MAX 120

/* value = (neg ? -1 : 1) * 0.D1D2...Dnd * 10^exp; nd == 0 means zero. */
typedef struct Dec {
  bool neg;
  uint32_t nd;
  int64_t exp;
  char dig[DEC_MAX];
} Dec;

/* Strict decimal syntax: [+-]? (d+ ('.' d*)? | '.' d+) ([eE] [+-]? d+)? */
static bool dec_parse(const char *s, size_t n, Dec *d)
{
  size_t i = 0;
  memset(d, 0, offsetof(Dec, dig));
  if (i < n && (s[i] == '-' || s[i] == '+'))
    d->neg = s[i++] == '-';
  int64_t point = 0;       /* digits seen before the point, after zeros */
  bool seen_point = false, any = false, lead = true;
  int64_t frac_zeros = 0;  /* leading zeros after the point */
  for (; i < n; i++) {
    char c = s[i];
    if (c == '.') {
      if (seen_point)
        return false;
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9')
      break;
    any = true;
    if (lead && c == '0') {
      if (seen_point)
        frac_zeros++;
      continue;
    }
    lead = false;
    if (!seen_point)
      point++;
    if (d->nd < DEC_MAX)
      d->dig[d->nd++] = c;
  }
  if (!any)
    return false;
  int64_t e = 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    bool eneg = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
      eneg = s[i++] == '-';
    if (i >= n || s[i] < '0' || s[i] > '9')
      return false;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
      if (e < 1000000000)
        e = e * 10 + (s[i] - '0');
    if (eneg)
      e = -e;
  }
  if (i != n)
    return false;
  while (d->nd > 0 && d->dig[d->nd - 1] == '0')
    d->nd--;
  if (d->nd == 0) {
    d->neg = false;
    d->exp = 0;
    return true;
  }
  d->exp = (point > 0 ? point : -frac_zeros) + e;
  return true;
}

static bool dec_to_int(const Dec *d, int64_t *out)
{
  if (d->nd == 0) {
    *out = 0;
    return true;
  }
  if (d->exp < (int64_t)d->nd || d->exp > 19)
    return false;
  uint64_t u = 0;
  for (int64_t k = 0; k < d->exp; k++) {
    unsigned dg = k < (int64_t)d->nd ? (unsigned)(d->dig[k] - '0') : 0;
    if (u > (UINT64_MAX - dg) / 10)
      return false;
    u = u * 10 + dg;
  }
  if (d->neg) {
    if (u > (uint64_t)INT64_MAX + 1)
      return false;
    *out = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
  } else {
    if (u > (uint64_t)INT64_MAX)
      return false;
    *out = (int64_t)u;
  }
  return true;
}

static double dec_to_double(const Dec *d)
{
  if (d->nd == 0)
    return 0.0;
  char tmp[DEC_MAX + 40];
  snprintf(tmp, sizeof tmp, "%s0.%.*se%lld", d->neg ? "-" : "", (int)d->nd,
           d->dig, (long long)d->exp);
  return strtod(tmp, NULL);
}

/* Decimal form of a double, rounded to 15 significant digits. */
static void dec_from_double(double x, Dec *d)
{
  char tmp[64];
  memset(d, 0, offsetof(Dec, dig));
  if (x == 0)
    return;
  snprintf(tmp, sizeof tmp, "%.14e", x);
  const char *p = tmp;
  if (*p == '-') {
    d->neg = true;
    p++;
  }
  for (; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9')
      d->dig[d->nd++] = *p;
  long e = *p == 'e' ? strtol(p + 1, NULL, 10) : 0;
  while (d->nd > 0 && d->dig[d->nd - 1] == '0')
    d->nd--;
  d->exp = e + 1;
}

static void dec_from_int(int64_t i, Dec *d)
{
  char tmp[32];
  memset(d, 0, offsetof(Dec, dig));
  int len = snprintf(tmp, sizeof tmp, "%lld", (long long)i);
  const char *p = tmp;
  if (*p == '-') {
    d->neg = true;
    p++;
    len--;
  }
  if (i == 0)
    return;
  memcpy(d->dig, p, (size_t)len);
  d->nd = (uint32_t)len;
  d->exp = len;
  while (d->nd > 0 && d->dig[d->nd - 1] == '0')
    d->nd--;
}

/* Positional rendering; absurd exponents (only reachable from literals)
** are capped so output stays bounded. */
static void dec_format(Buf *out, const Dec *d)
{
  if (d->nd == 0) {
    buf_putc(out, '0');
    return;
  }
  if (d->exp > 400 || d->exp < -400) {
    double x = dec_to_double(d);
    if (isinf(x)) {
      buf_puts(out, x > 0 ? "+Inf" : "-Inf");
      return;
    }
    Dec t;
    dec_from_double(x, &t);
    if (t.exp <= 400 && t.exp >= -400)
      dec_format(out, &t);
    else
      buf_putc(out, '0');
    return;
  }
  if (d->neg)
    buf_putc(out, '-');
  if (d->exp <= 0) {
    buf_puts(out, "0.");
    for (int64_t k = 0; k < -d->exp; k++)
      buf_putc(out, '0');
    buf_put(out, d->dig, d->nd);
  } else if (d->exp >= (int64_t)d->nd) {
    buf_put(out, d->dig, d->nd);
    for (int64_t k = d->nd; k < d->exp; k++)
      buf_putc(out, '0');
  } else {
    buf_put(out, d->dig, (size_t)d->exp);
    buf_putc(out, '.');
    buf_put(out, d->dig + d->exp, d->nd - (size_t)d->exp);
  }
}

static int dec_cmp(const Dec *a, const Dec *b)
{
  int sa = a->nd == 0 ? 0 : a->neg ? -1 : 1;
  int sb = b->nd == 0 ? 0 : b->neg ? -1 : 1;
  if (sa != sb)
    return sa < sb ? -1 : 1;
  if (sa == 0)
    return 0;
  int mag;
  if (a->exp != b->exp) {
    mag = a->exp < b->exp ? -1 : 1;
  } else {
    uint32_t m = a->nd < b->nd ? a->nd : b->nd;
    int c = memcmp(a->dig, b->dig, m);
    mag = c ? (c < 0 ? -1 : 1) : a->nd < b->nd ? -1 : a->nd > b->nd;
  }
  return sa < 0 ? -mag : mag;
}

/* The effective value of a known number. */
typedef struct NumX {
  bool is_int;
  int64_t i;
  double d;
} NumX;

static NumX num_get(Value v)
{
  NumX x = {true, 0, 0.0};
  if (v.flags & VF_NUMLIT) {
    Dec d;
    if (dec_parse(v.u.s, v.len, &d) && dec_to_int(&d, &x.i))
      return x;
    x.is_int = false;
    x.d = dec_parse(v.u.s, v.len, &d) ? dec_to_double(&d) : 0.0;
    return x;
  }
  if (v.flags & VF_FLOAT) {
    x.is_int = false;
    x.d = v.u.d;
    return x;
  }
  x.i = v.u.i;
  return x;
}

Value val_int(int64_t i)
{
  Value v = {.type = &ty_number, .u = {.i = i}};
  return v;
}

static bool double_is_int(double d, int64_t *out)
{
  if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
      d == trunc(d)) {
    *out = (int64_t)d;
    return true;
  }
  return false;
}

/* A double is the number its 15 significant digits say (docs/values.md):
** rounding every double to them makes what is shown, written to the state
** and read back the same number, so 1/3 in a configuration equals the
** 0.333333333333333 its state holds (and a Terraform state's 0.3 equals
** 0.1 + 0.2), instead of a change planned on every run. */
static double round15(double d)
{
  if (!isfinite(d))
    return d;
  char b[32];
  snprintf(b, sizeof b, "%.15g", d);
  return strtod(b, NULL);
}

Value val_double(double d)
{
  int64_t i;
  if (double_is_int(d, &i))
    return val_int(i);
  d = round15(d);
  if (double_is_int(d, &i))
    return val_int(i);
  Value v = {.type = &ty_number, .flags = VF_FLOAT, .u = {.d = d}};
  return v;
}

double val_num_double(Value v)
{
  NumX x = num_get(v);
  return x.is_int ? (double)x.i : x.d;
}

bool val_num_int(Value v, int64_t *out)
{
  NumX x = num_get(v);
  if (x.is_int) {
    *out = x.i;
    return true;
  }
  return double_is_int(x.d, out);
}

static void num_dec(Value v, Dec *d)
{
  if ((v.flags & VF_NUMLIT) && dec_parse(v.u.s, v.len, d))
    return;
  NumX x = num_get(v);
  if (x.is_int)
    dec_from_int(x.i, d);
  else
    dec_from_double(x.d, d);
}

void val_num_format(Buf *out, Value v)
{
  if (!(v.flags & VF_NUMLIT)) {
    NumX x = num_get(v);
    if (x.is_int) {
      buf_printf(out, "%lld", (long long)x.i);
      return;
    }
    if (isinf(x.d)) {
      buf_puts(out, x.d > 0 ? "+Inf" : "-Inf");
      return;
    }
    if (isnan(x.d)) {
      buf_puts(out, "NaN");
      return;
    }
  }
  Dec d;
  num_dec(v, &d);
  dec_format(out, &d);
}

bool val_parse_number(Arena *a, const char *s, size_t n, bool keep_literal,
                      Value *out)
{
  Dec d;
  if (!dec_parse(s, n, &d))
    return false;
  int64_t i;
  Value v;
  if (dec_to_int(&d, &i))
    v = val_int(i);
  else
    v = val_double(dec_to_double(&d));
  if (!keep_literal) {
    *out = v;
    return true;
  }
  /* Keep the literal only when the canonical rendering differs. */
  ArenaMark m = arena_mark(a);
  Buf b;
  buf_init(&b, a);
  val_num_format(&b, v);
  bool same = b.len == n && memcmp(b.p, s, n) == 0;
  arena_rewind(a, m);
  if (same) {
    *out = v;
    return true;
  }
  Value lit = {.type = &ty_number, .flags = VF_NUMLIT, .len = (uint32_t)n,
               .u = {.s = arena_strndup(a, s, n)}};
  *out = lit;
  return true;
}

static int cmp_int_double(int64_t i, double d)
{
  if (isnan(d))
    return -1;
  if (d >= 9223372036854775808.0)
    return -1;
  if (d < -9223372036854775808.0)
    return 1;
  double f = floor(d);
  int64_t fi = (int64_t)f;
  if (i < fi)
    return -1;
  if (i > fi)
    return 1;
  return d > f ? -1 : 0;
}

static int num_cmp(Value a, Value b)
{
  if ((a.flags & VF_NUMLIT) && (b.flags & VF_NUMLIT)) {
    Dec da, db;
    num_dec(a, &da);
    num_dec(b, &db);
    return dec_cmp(&da, &db);
  }
  NumX x = num_get(a), y = num_get(b);
  if (x.is_int && y.is_int)
    return x.i < y.i ? -1 : x.i > y.i;
  if (x.is_int)
    return cmp_int_double(x.i, y.d);
  if (y.is_int)
    return -cmp_int_double(y.i, x.d);
  /* A literal beside a double is compared at the double's 15 digits (a
  ** Terraform state's 155 digits of 1/3 are the 1/3 cairn computes). */
  if ((a.flags & VF_NUMLIT) && (b.flags & VF_FLOAT))
    x.d = round15(x.d);
  else if ((b.flags & VF_NUMLIT) && (a.flags & VF_FLOAT))
    y.d = round15(y.d);
  return x.d < y.d ? -1 : x.d > y.d;
}

/* ---- Values ------------------------------------------------------------- */

Value val_null(const Type *t)
{
  Value v = {.type = t, .flags = VF_NULL};
  return v;
}

Value val_unknown(const Type *t)
{
  Value v = {.type = t, .flags = VF_UNKNOWN};
  return v;
}

Value val_bool(bool b) { return b ? val_true : val_false; }

Value val_str(Arena *a, const char *s, size_t n)
{
  return val_str_ref(arena_strndup(a, s, n), n);
}

Value val_cstr(Arena *a, const char *s) { return val_str(a, s, strlen(s)); }

Value val_str_ref(const char *s, size_t n)
{
  Value v = {.type = &ty_string, .len = (uint32_t)n, .u = {.s = s}};
  return v;
}

static int key_cmp(const char *a, uint32_t alen, const char *b,
                   uint32_t blen);

/* Element type for list/set constructors given NULL: the common type of
** the elements.  Without conversion at hand (that is convert.c's job),
** mixed element types resolve to the first non-dynamic type. */
static const Type *elems_type(const Value *elems, uint32_t n)
{
  const Type *t = &ty_dynamic;
  for (uint32_t i = 0; i < n; i++) {
    if (elems[i].type->kind != TY_DYNAMIC) {
      t = elems[i].type;
      break;
    }
  }
  return t;
}

Value val_list(Arena *a, const Type *elem, Value *elems, uint32_t n)
{
  if (!elem)
    elem = elems_type(elems, n);
  Value v = {.type = ty_list(a, elem), .len = n, .u = {.elems = elems}};
  return v;
}

/* Equal elements can still differ in representation (3 and a "3.0"
** literal) or marks; order those too, so the survivor of deduplication
** does not depend on the C library's qsort. */
static int set_cmp(const void *pa, const void *pb)
{
  const Value *a = pa, *b = pb;
  int c = val_compare(*a, *b);
  if (c)
    return c;
  uint16_t rep = VF_FLOAT | VF_NUMLIT | VF_MARKS | VF_NOTNULL;
  uint16_t fa = a->flags & rep, fb = b->flags & rep;
  if (fa != fb)
    return fa < fb ? -1 : 1;
  if ((a->flags & VF_NUMLIT) && (b->flags & VF_NUMLIT))
    return key_cmp(a->u.s, a->len, b->u.s, b->len);
  return 0;
}

Value val_set(Arena *a, const Type *elem, Value *elems, uint32_t n)
{
  if (!elem)
    elem = elems_type(elems, n);
  if (n > 1)
    qsort(elems, n, sizeof *elems, set_cmp);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (k > 0 && val_is_wholly_known(elems[i]) &&
        val_is_wholly_known(elems[k - 1]) &&
        val_compare(elems[k - 1], elems[i]) == 0) {
      /* A duplicate: the survivor keeps either's sensitivity. */
      elems[k - 1] = val_mark(elems[k - 1], elems[i].flags & VF_MARKS);
      continue;
    }
    elems[k++] = elems[i];
  }
  Value v = {.type = ty_set(a, elem), .len = k, .u = {.elems = elems}};
  return v;
}

Value val_tuple(Arena *a, Value *elems, uint32_t n)
{
  if (n == 0) {
    Value v = {.type = &ty_empty_tuple, .u = {.elems = elems}};
    return v;
  }
  const Type **tt = ARENA_NEW(a, const Type *, n);
  for (uint32_t i = 0; i < n; i++)
    tt[i] = elems[i].type;
  Type *t = ARENA_NEW(a, Type, 1);
  t->kind = TY_TUPLE;
  t->n = n;
  t->types = tt;
  Value v = {.type = t, .len = n, .u = {.elems = elems}};
  return v;
}

static int key_cmp(const char *a, uint32_t alen, const char *b, uint32_t blen)
{
  uint32_t m = alen < blen ? alen : blen;
  int c = m ? memcmp(a, b, m) : 0;
  if (c)
    return c < 0 ? -1 : 1;
  return alen < blen ? -1 : alen > blen;
}

static int entry_cmp(const void *pa, const void *pb)
{
  const MapEntry *a = pa, *b = pb;
  int c = key_cmp(a->key, a->keylen, b->key, b->keylen);
  return c ? c : val_compare(a->val, b->val);
}

Value val_map(Arena *a, const Type *elem, MapEntry *entries, uint32_t n)
{
  if (!elem) {
    elem = &ty_dynamic;
    for (uint32_t i = 0; i < n; i++)
      if (entries[i].val.type->kind != TY_DYNAMIC) {
        elem = entries[i].val.type;
        break;
      }
  }
  if (n > 1)
    qsort(entries, n, sizeof *entries, entry_cmp);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (k > 0 && key_cmp(entries[k - 1].key, entries[k - 1].keylen,
                         entries[i].key, entries[i].keylen) == 0) {
      entries[k - 1] = entries[i];  /* duplicate key: keep one */
      continue;
    }
    entries[k++] = entries[i];
  }
  Value v = {.type = ty_map(a, elem), .len = k, .u = {.entries = entries}};
  return v;
}

Value val_object(Arena *a, uint32_t n, const char *const *names,
                 const Value *vals)
{
  if (n == 0) {
    Value v = {.type = &ty_empty_object};
    return v;
  }
  NameIdx *ni = ARENA_NEW(a, NameIdx, n);
  uint32_t k = sort_names(ni, n, names);
  const char **nn = ARENA_NEW(a, const char *, k);
  const Type **tt = ARENA_NEW(a, const Type *, k);
  Value *vv = ARENA_NEW(a, Value, k);
  for (uint32_t i = 0; i < k; i++) {
    nn[i] = arena_strdup(a, ni[i].name);
    vv[i] = vals[ni[i].idx];
    tt[i] = vv[i].type;
  }
  Type *t = ARENA_NEW(a, Type, 1);
  t->kind = TY_OBJECT;
  t->n = k;
  t->names = nn;
  t->types = tt;
  Value v = {.type = t, .len = k, .u = {.elems = vv}};
  return v;
}

Value val_object_typed(const Type *t, Value *vals)
{
  Value v = {.type = t, .len = t->n, .u = {.elems = vals}};
  return v;
}

Value val_object_like(Arena *a, const Type *like, Value *vals)
{
  Type *t = ARENA_NEW(a, Type, 1);
  const Type **tt = ARENA_NEW(a, const Type *, like->n);
  for (uint32_t i = 0; i < like->n; i++)
    tt[i] = vals[i].type;
  t->kind = TY_OBJECT;
  t->n = like->n;
  t->names = like->names;   /* sorted and unique already */
  t->types = tt;
  return val_object_typed(t, vals);
}

/* ---- Accessors -------------------------------------------------------- */

Value val_attr(Value obj, const char *name, bool *found)
{
  int i = ty_attr_index(obj.type, name);
  if (i < 0) {
    if (found)
      *found = false;
    return val_dynamic_null;
  }
  if (found)
    *found = true;
  const Type *at = obj.type->types[i];
  if (val_is_unknown(obj))
    return val_unknown(at);
  if (val_is_null(obj))
    return val_null(at);
  return obj.u.elems[i];
}

Value val_map_get(Value m, const char *key, size_t keylen, bool *found)
{
  if (found)
    *found = false;
  if (m.type->kind != TY_MAP)
    return val_dynamic_null;
  if (val_is_unknown(m)) {
    if (found)
      *found = true;
    return val_unknown(m.type->elem);
  }
  if (val_is_null(m))
    return val_null(m.type->elem);
  uint32_t lo = 0, hi = m.len;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const MapEntry *e = &m.u.entries[mid];
    int c = key_cmp(e->key, e->keylen, key, (uint32_t)keylen);
    if (c == 0) {
      if (found)
        *found = true;
      return e->val;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return val_null(m.type->elem);
}

/* ---- Deep queries ------------------------------------------------------ */

static bool has_children(Value v)
{
  if (v.flags & (VF_NULL | VF_UNKNOWN))
    return false;
  TypeKind k = v.type->kind;
  return k == TY_LIST || k == TY_SET || k == TY_MAP || k == TY_OBJECT ||
         k == TY_TUPLE;
}

static Value *child_at(Value v, uint32_t i)
{
  if (v.type->kind == TY_MAP)
    return (Value *)&v.u.entries[i].val;
  return (Value *)&v.u.elems[i];
}

bool val_has_sensitive(Value v)
{
  if (v.flags & VF_SENSITIVE)
    return true;
  if (!has_children(v))
    return false;
  for (uint32_t i = 0; i < v.len; i++)
    if (val_has_sensitive(*child_at(v, i)))
      return true;
  return false;
}

uint16_t val_marks_deep(Value v)
{
  uint16_t m = v.flags & VF_MARKS;
  if (!has_children(v))
    return m;
  for (uint32_t i = 0; i < v.len && m != VF_MARKS; i++)
    m = (uint16_t)(m | val_marks_deep(*child_at(v, i)));
  return m;
}

/* v with f applied to each child, in new arrays in a (v has children). */
static Value map_children(Arena *a, Value v, Value (*f)(Arena *, Value))
{
  if (v.type->kind == TY_MAP) {
    MapEntry *e = ARENA_NEW(a, MapEntry, v.len);
    for (uint32_t i = 0; i < v.len; i++) {
      e[i] = v.u.entries[i];
      e[i].val = f(a, e[i].val);
    }
    v.u.entries = e;
    return v;
  }
  Value *el = ARENA_NEW(a, Value, v.len);
  for (uint32_t i = 0; i < v.len; i++)
    el[i] = f(a, v.u.elems[i]);
  v.u.elems = el;
  return v;
}

Value val_ephemeral_deep(Arena *a, Value v)
{
  v = val_ephemeral(v);
  return has_children(v) ? map_children(a, v, val_ephemeral_deep) : v;
}

bool val_is_wholly_known(Value v)
{
  if (v.flags & VF_UNKNOWN)
    return false;
  if (!has_children(v))
    return true;
  for (uint32_t i = 0; i < v.len; i++)
    if (!val_is_wholly_known(*child_at(v, i)))
      return false;
  return true;
}

Value val_unmark_deep(Arena *a, Value v)
{
  v = val_unmark(v);
  if (!has_children(v) || !val_marks_deep(v))
    return v;
  return map_children(a, v, val_unmark_deep);
}

/* ---- Order and equality ---------------------------------------------- */

int val_compare(Value a, Value b)
{
  int sa = val_is_null(a) ? 0 : val_is_unknown(a) ? 2 : 1;
  int sb = val_is_null(b) ? 0 : val_is_unknown(b) ? 2 : 1;
  if (sa != sb)
    return sa < sb ? -1 : 1;
  if (a.type->kind != b.type->kind)
    return a.type->kind < b.type->kind ? -1 : 1;
  if (sa != 1)
    return 0;
  switch (a.type->kind) {
  case TY_DYNAMIC:
    return 0;
  case TY_STRING:
    return key_cmp(a.u.s, a.len, b.u.s, b.len);
  case TY_NUMBER:
    return num_cmp(a, b);
  case TY_BOOL:
    return a.u.b == b.u.b ? 0 : a.u.b ? 1 : -1;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
  case TY_OBJECT:
  case TY_MAP:
    break;
  }
  uint32_t m = a.len < b.len ? a.len : b.len;
  for (uint32_t i = 0; i < m; i++) {
    int c;
    if (a.type->kind == TY_MAP) {
      const MapEntry *x = &a.u.entries[i], *y = &b.u.entries[i];
      c = key_cmp(x->key, x->keylen, y->key, y->keylen);
      if (!c)
        c = val_compare(x->val, y->val);
    } else {
      c = 0;
      if (a.type->kind == TY_OBJECT) {
        c = strcmp(a.type->names[i], b.type->names[i]);
        c = c < 0 ? -1 : c > 0;
      }
      if (!c)
        c = val_compare(a.u.elems[i], b.u.elems[i]);
    }
    if (c)
      return c;
  }
  return a.len < b.len ? -1 : a.len > b.len;
}

bool val_raw_equal(Value a, Value b, bool cmp_marks)
{
  if (!ty_equal(a.type, b.type))
    return false;
  uint16_t state = VF_NULL | VF_UNKNOWN | VF_NOTNULL;
  if ((a.flags & state) != (b.flags & state))
    return false;
  if (cmp_marks && (a.flags & VF_MARKS) != (b.flags & VF_MARKS))
    return false;
  if (a.flags & (VF_NULL | VF_UNKNOWN))
    return true;
  switch (a.type->kind) {
  case TY_DYNAMIC:
    return true;
  case TY_STRING:
    return a.len == b.len &&
           (a.u.s == b.u.s || memcmp(a.u.s, b.u.s, a.len) == 0);
  case TY_NUMBER:
    return num_cmp(a, b) == 0;
  case TY_BOOL:
    return a.u.b == b.u.b;
  default:
    break;
  }
  if (a.len != b.len)
    return false;
  /* Values are immutable: the same elements compare equal (a planned
  ** object often shares its prior's arrays). */
  if (a.u.elems == b.u.elems)
    return true;
  for (uint32_t i = 0; i < a.len; i++) {
    if (a.type->kind == TY_MAP) {
      const MapEntry *x = &a.u.entries[i], *y = &b.u.entries[i];
      if (key_cmp(x->key, x->keylen, y->key, y->keylen) != 0 ||
          !val_raw_equal(x->val, y->val, cmp_marks))
        return false;
    } else if (!val_raw_equal(a.u.elems[i], b.u.elems[i], cmp_marks)) {
      return false;
    }
  }
  return true;
}

/* ---- Paths -------------------------------------------------------------- */

bool val_path_get(Value v, ValPath p, Value *out)
{
  for (uint32_t s = 0; s < p.n; s++) {
    const PathStep *st = &p.steps[s];
    const Type *t = v.type;
    if (val_is_null(v))
      return false;
    bool found = false;
    if ((st->kind == PS_ATTR || st->kind == PS_KEY) && t->kind == TY_OBJECT) {
      v = val_attr(v, st->name, &found);
    } else if ((st->kind == PS_ATTR || st->kind == PS_KEY) &&
               t->kind == TY_MAP) {
      v = val_map_get(v, st->name, strlen(st->name), &found);
    } else if (st->kind == PS_INDEX &&
               (t->kind == TY_LIST || t->kind == TY_TUPLE)) {
      if (val_is_unknown(v)) {
        if (t->kind == TY_LIST) {
          v = val_unknown(t->elem);
          continue;
        }
        if (st->index < 0 || st->index >= t->n)
          return false;
        v = val_unknown(t->types[st->index]);
        continue;
      }
      if (st->index < 0 || st->index >= v.len)
        return false;
      v = v.u.elems[st->index];
      found = true;
    } else if (t->kind == TY_DYNAMIC && val_is_unknown(v)) {
      v = val_dynamic_unknown;
      found = true;
    }
    if (!found)
      return false;
  }
  *out = v;
  return true;
}

static void put_quoted(Buf *out, const char *s)
{
  buf_putc(out, '"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '"': buf_puts(out, "\\\""); break;
    case '\\': buf_puts(out, "\\\\"); break;
    case '\n': buf_puts(out, "\\n"); break;
    case '\r': buf_puts(out, "\\r"); break;
    case '\t': buf_puts(out, "\\t"); break;
    default:
      if (c < 0x20)
        buf_printf(out, "\\u%04x", c);
      else
        buf_putc(out, (char)c);
    }
  }
  buf_putc(out, '"');
}

void val_path_format(Buf *out, ValPath p, bool leading_dot)
{
  for (uint32_t s = 0; s < p.n; s++) {
    const PathStep *st = &p.steps[s];
    switch (st->kind) {
    case PS_ATTR:
      if (s > 0 || leading_dot)
        buf_putc(out, '.');
      buf_puts(out, st->name);
      break;
    case PS_KEY:
      buf_putc(out, '[');
      put_quoted(out, st->name);
      buf_putc(out, ']');
      break;
    case PS_INDEX:
      buf_printf(out, "[%lld]", (long long)st->index);
      break;
    }
  }
}

/* ---- added by values: arithmetic -------------------------------------- */

static Value num_result(Value a, Value b, Value r)
{
  return val_mark(r, (uint16_t)((a.flags | b.flags) & VF_MARKS));
}

/* An unknown or null operand decides the result before any arithmetic. */
static bool num_special(Value a, Value b, Value *out)
{
  if (val_is_unknown(a) || val_is_unknown(b)) {
    *out = num_result(a, b, val_unknown(&ty_number));
    return true;
  }
  if (val_is_null(a) || val_is_null(b)) {
    *out = num_result(a, b, val_null(&ty_number));
    return true;
  }
  return false;
}

/* NaN is not a value; it only arises from infinities (inf - inf), which
** cty cannot produce either, so it is flattened to zero. */
static Value num_from_double(double d)
{
  return val_double(isnan(d) ? 0.0 : d);
}

static double numx_d(NumX x) { return x.is_int ? (double)x.i : x.d; }

Value val_num_add(Value a, Value b)
{
  Value r;
  if (num_special(a, b, &r))
    return r;
  NumX x = num_get(a), y = num_get(b);
  int64_t s;
  if (x.is_int && y.is_int && !__builtin_add_overflow(x.i, y.i, &s))
    return num_result(a, b, val_int(s));
  return num_result(a, b, num_from_double(numx_d(x) + numx_d(y)));
}

Value val_num_sub(Value a, Value b)
{
  Value r;
  if (num_special(a, b, &r))
    return r;
  NumX x = num_get(a), y = num_get(b);
  int64_t s;
  if (x.is_int && y.is_int && !__builtin_sub_overflow(x.i, y.i, &s))
    return num_result(a, b, val_int(s));
  return num_result(a, b, num_from_double(numx_d(x) - numx_d(y)));
}

Value val_num_mul(Value a, Value b)
{
  Value r;
  if (num_special(a, b, &r))
    return r;
  NumX x = num_get(a), y = num_get(b);
  int64_t s;
  if (x.is_int && y.is_int && !__builtin_mul_overflow(x.i, y.i, &s))
    return num_result(a, b, val_int(s));
  return num_result(a, b, num_from_double(numx_d(x) * numx_d(y)));
}

static bool num_is_zero(NumX x) { return x.is_int ? x.i == 0 : x.d == 0; }

bool val_num_div(Value a, Value b, Value *out)
{
  if (num_special(a, b, out))
    return true;
  NumX x = num_get(a), y = num_get(b);
  if (num_is_zero(y))
    return false;
  if (x.is_int && y.is_int && !(x.i == INT64_MIN && y.i == -1) &&
      x.i % y.i == 0) {
    *out = num_result(a, b, val_int(x.i / y.i));
    return true;
  }
  *out = num_result(a, b, num_from_double(numx_d(x) / numx_d(y)));
  return true;
}

bool val_num_mod(Value a, Value b, Value *out)
{
  if (num_special(a, b, out))
    return true;
  NumX x = num_get(a), y = num_get(b);
  if (num_is_zero(y))
    return false;
  if (x.is_int && y.is_int) {
    /* C's % truncates, so the result takes the dividend's sign, as in
    ** cty; INT64_MIN % -1 overflows in C but is mathematically 0. */
    *out = num_result(a, b, val_int(y.i == -1 ? 0 : x.i % y.i));
    return true;
  }
  *out = num_result(a, b, num_from_double(fmod(numx_d(x), numx_d(y))));
  return true;
}

Value val_num_neg(Value a)
{
  if (val_is_unknown(a) || val_is_null(a))
    return a;
  Value r;
  if (a.flags & VF_NUMLIT) {
    /* No arena here to build a negated literal: use the effective
    ** value. */
    NumX x = num_get(a);
    if (x.is_int && x.i != INT64_MIN)
      r = val_int(-x.i);
    else
      r = num_from_double(-numx_d(x));
  } else if (a.flags & VF_FLOAT) {
    r = num_from_double(-a.u.d);
  } else if (a.u.i == INT64_MIN) {
    r = num_from_double(-(double)a.u.i);
  } else {
    r = val_int(-a.u.i);
  }
  return val_mark(r, a.flags & VF_MARKS);
}

int val_num_cmp(Value a, Value b) { return num_cmp(a, b); }
