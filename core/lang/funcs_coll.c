/*
** funcs_coll: numeric, collection, type-conversion and mark functions
** (cty stdlib number.go, collection.go, sequence.go, set.go and
** Terraform's collection.go, conversion.go, number.go, sensitive.go).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "funcs_impl.h"

static Value mk_list_of(FnCall *c, const Type *et, Value *v, uint32_t n)
{
  return val_list(c->arena, et, v, n);
}

static Value *copy_vals(FnCall *c, const Value *v, uint32_t n)
{
  Value *r = ARENA_NEW(c->arena, Value, n ? n : 1);
  if (n)
    memcpy(r, v, n * sizeof(Value));
  return r;
}

/* Go's strconv.Quote for messages. */
static const char *quote(FnCall *c, Value s)
{
  Buf b;
  buf_init(&b, c->arena);
  buf_putc(&b, '"');
  size_t i = 0;
  while (i < s.len) {
    size_t l;
    uint32_t r = fn_utf8_dec(s.u.s + i, s.len - i, &l);
    if (r == '"' || r == '\\') {
      buf_putc(&b, '\\');
      buf_putc(&b, (char)r);
    } else if (r == '\n') {
      buf_puts(&b, "\\n");
    } else if (r == '\t') {
      buf_puts(&b, "\\t");
    } else if (r == '\r') {
      buf_puts(&b, "\\r");
    } else if (r == 0xFFFD && l == 1) {
      buf_printf(&b, "\\x%02x", (unsigned char)s.u.s[i]);
    } else if (r < 0x20 || r == 0x7F) {
      buf_printf(&b, "\\x%02x", (unsigned)r);
    } else {
      buf_put(&b, s.u.s + i, l);
    }
    i += l;
  }
  buf_putc(&b, '"');
  return b.p;
}

static const char *friendly(FnCall *c, const Type *t)
{
  Buf b;
  buf_init(&b, c->arena);
  ty_friendly(&b, t);
  return buf_str(&b);
}

/* ---- Numeric --------------------------------------------------------------- */

static const Value zero = {.type = &ty_number};

bool fn_abs(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  *out = val_num_cmp(a[0], zero) < 0 ? val_num_neg(a[0]) : a[0];
  return true;
}

bool fn_signum(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  *out = val_int(val_num_cmp(a[0], zero));
  return true;
}

bool fn_ceil(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  int64_t i;
  if (val_num_int(a[0], &i)) {
    *out = val_int(i);
    return true;
  }
  double d = val_num_double(a[0]);
  *out = isinf(d) ? a[0] : val_double(ceil(d));
  return true;
}

bool fn_floor(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  int64_t i;
  if (val_num_int(a[0], &i)) {
    *out = val_int(i);
    return true;
  }
  double d = val_num_double(a[0]);
  *out = isinf(d) ? a[0] : val_double(floor(d));
  return true;
}

static bool num_result(FnCall *c, double d, Value *out)
{
  if (isnan(d))
    return fn_error(c, "the result is not a number (NaN)");
  *out = val_double(d);
  return true;
}

bool fn_log(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  return num_result(c, log(val_num_double(a[0])) /
                           log(val_num_double(a[1])), out);
}

bool fn_pow(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  int64_t b, e;
  /* Exact integer powers while they fit. */
  if (val_num_int(a[0], &b) && val_num_int(a[1], &e) && e >= 0 && e < 64) {
    int64_t r = 1;
    bool ovf = false;
    for (int64_t k = 0; k < e && !ovf; k++)
      ovf = __builtin_mul_overflow(r, b, &r);
    if (!ovf) {
      *out = val_int(r);
      return true;
    }
  }
  return num_result(c, pow(val_num_double(a[0]), val_num_double(a[1])), out);
}

static bool minmax(FnCall *c, const Value *a, uint32_t n, Value *out, int dir)
{
  if (n == 0)
    return fn_error(c, "must pass at least one number");
  Value best = a[0];
  for (uint32_t i = 1; i < n; i++)
    if (val_num_cmp(a[i], best) * dir > 0)
      best = a[i];
  *out = best;
  return true;
}

bool fn_max(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  return minmax(c, a, n, out, 1);
}

bool fn_min(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  return minmax(c, a, n, out, -1);
}

bool fn_parseint(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  if (a[0].type->kind != TY_STRING)
    return fn_arg_error(c, 0, "first argument must be a string, not %s",
                        friendly(c, a[0].type));
  int64_t base;
  if (!val_num_int(a[1], &base))
    return fn_arg_error(c, 1, "value must be a whole number, between "
                              "-9223372036854775808 and 9223372036854775807");
  if (base < 2 || base > 62)
    return fn_arg_error(c, 1, "base must be a whole number between 2 and 62 "
                              "inclusive");
  const char *s = a[0].u.s;
  size_t len = a[0].len, i = 0;
  bool neg = false;
  if (i < len && (s[i] == '+' || s[i] == '-'))
    neg = s[i++] == '-';
  if (i == len)
    goto bad;
  double acc_d = 0;
  uint64_t acc = 0;
  bool big = false;
  for (; i < len; i++) {
    char ch = s[i];
    int d;
    if (ch >= '0' && ch <= '9')
      d = ch - '0';
    else if (ch >= 'a' && ch <= 'z')
      d = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'Z')
      d = base <= 36 ? ch - 'A' + 10 : ch - 'A' + 36;
    else
      goto bad;
    if (d >= base)
      goto bad;
    if (!big && (acc > (UINT64_MAX - (uint64_t)d) / (uint64_t)base))
      big = true;
    if (!big)
      acc = acc * (uint64_t)base + (uint64_t)d;
    acc_d = acc_d * (double)base + d;
  }
  if (!big && acc <= (uint64_t)INT64_MAX) {
    *out = val_int(neg ? -(int64_t)acc : (int64_t)acc);
  } else if (!big && neg && acc == (uint64_t)INT64_MAX + 1) {
    *out = val_int(INT64_MIN);
  } else {
    *out = val_double(neg ? -acc_d : acc_d);
  }
  return true;
bad:
  return fn_arg_error(c, 0, "cannot parse %s as a base %d integer",
                      quote(c, a[0]), (int)base);
}

/* ---- Collections ----------------------------------------------------------------- */

bool fn_alltrue(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  /* Terraform's alltrue: an unknown element before any false one makes
  ** the result unknown; a false (or null) one before it decides. */
  for (uint32_t i = 0; i < a[0].len; i++) {
    Value e = a[0].u.elems[i];
    if (val_is_unknown(e)) {
      *out = val_unknown(&ty_bool);
      return true;
    }
    if (val_is_null(e) || !e.u.b) {
      *out = val_false;
      return true;
    }
  }
  *out = val_true;
  return true;
}

bool fn_anytrue(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  bool unk = false;
  for (uint32_t i = 0; i < a[0].len; i++) {
    Value e = a[0].u.elems[i];
    if (val_is_unknown(e)) {
      unk = true;
      continue;
    }
    if (!val_is_null(e) && e.u.b) {
      *out = val_true;
      return true;
    }
  }
  *out = unk ? val_unknown(&ty_bool) : val_false;
  return true;
}

bool fn_chunklist(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  int64_t size;
  if (!val_num_int(a[1], &size))
    return fn_arg_error(c, 1, "invalid size: value must be a whole number");
  if (size < 0)
    return fn_error(c, "the size argument must be positive");
  const Type *et = a[0].type->elem;
  const Type *lt = ty_list(c->arena, et);
  uint32_t len = a[0].len;
  if (len == 0) {
    *out = val_list(c->arena, lt, NULL, 0);
    return true;
  }
  if (size == 0 || (uint64_t)size >= len) {
    Value *one = ARENA_NEW(c->arena, Value, 1);
    one[0] = a[0];
    *out = val_list(c->arena, lt, one, 1);
    return true;
  }
  uint32_t nch = (uint32_t)((len + (uint64_t)size - 1) / (uint64_t)size);
  Value *ch = ARENA_NEW(c->arena, Value, nch);
  for (uint32_t k = 0; k < nch; k++) {
    uint32_t from = k * (uint32_t)size;
    uint32_t cnt = len - from < (uint32_t)size ? len - from : (uint32_t)size;
    ch[k] = val_list(c->arena, et, copy_vals(c, a[0].u.elems + from, cnt),
                     cnt);
  }
  *out = val_list(c->arena, lt, ch, nch);
  return true;
}

bool fn_coalesce(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  if (n == 0)
    return fn_error(c, "at least one argument is required");
  Value *v = copy_vals(c, a, n);
  const Type **ts = ARENA_NEW(c->arena, const Type *, n);
  for (uint32_t i = 0; i < n; i++)
    ts[i] = v[i].type;
  const Type *u = fn_unify(c->arena, ts, n, true);
  if (!u)
    return fn_error(c, "all arguments must have the same type");
  for (uint32_t i = 0; i < n; i++) {
    Value x;
    const char *msg;
    if (!fn_convert(c->arena, v[i], u, &x, &msg))
      return fn_error(c, "all arguments must have the same type");
    if (val_is_unknown(x)) {
      *out = val_unknown(u);
      return true;
    }
    if (val_is_null(x))
      continue;
    if (x.type->kind == TY_STRING && x.len == 0)
      continue;
    *out = x;
    return true;
  }
  return fn_error(c, "no non-null, non-empty-string arguments");
}

bool fn_coalescelist(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  if (n == 0)
    return fn_error(c, "at least one argument is required");
  for (uint32_t i = 0; i < n; i++) {
    TypeKind k = a[i].type->kind;
    if (k != TY_LIST && k != TY_TUPLE && k != TY_DYNAMIC)
      return fn_arg_error(c, (int)i, "coalescelist arguments must be lists "
                                     "or tuples, got %s",
                          friendly(c, a[i].type));
  }
  for (uint32_t i = 0; i < n; i++) {
    if (val_is_unknown(a[i])) {
      *out = val_dynamic_unknown;
      return true;
    }
    if (val_is_null(a[i]))
      continue;
    if (a[i].len > 0) {
      *out = a[i];
      return true;
    }
  }
  return fn_error(c, "no non-null arguments");
}

bool fn_compact(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value *v = ARENA_NEW(c->arena, Value, a[0].len ? a[0].len : 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < a[0].len; i++) {
    Value e = a[0].u.elems[i];
    if (val_is_null(e) || e.len == 0)
      continue;
    v[k++] = e;
  }
  *out = mk_list_of(c, &ty_string, v, k);
  return true;
}

bool fn_concat(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  if (n == 0)
    return fn_error(c, "at least one argument is required");
  bool all_lists = true;
  uint32_t total = 0;
  for (uint32_t i = 0; i < n; i++) {
    TypeKind k = a[i].type->kind;
    if (k != TY_LIST && k != TY_TUPLE)
      return fn_arg_error(c, (int)i, "all arguments must be lists or tuples; "
                                     "got %s", friendly(c, a[i].type));
    if (k != TY_LIST)
      all_lists = false;
    if (val_is_null(a[i]))
      return fn_arg_error(c, (int)i, "argument must not be null");
    total += a[i].len;
  }
  Value *v = ARENA_NEW(c->arena, Value, total ? total : 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < a[i].len; j++)
      v[k++] = a[i].u.elems[j];
  if (all_lists) {
    const Type **ts = ARENA_NEW(c->arena, const Type *, n);
    for (uint32_t i = 0; i < n; i++)
      ts[i] = a[i].type;
    const Type *u = fn_unify(c->arena, ts, n, true);
    if (u && u->kind == TY_LIST) {
      for (uint32_t i = 0; i < total; i++) {
        const char *msg;
        if (!fn_convert(c->arena, v[i], u->elem, &v[i], &msg))
          return fn_error(c, "%s", msg);
      }
      *out = val_list(c->arena, u->elem, v, total);
      return true;
    }
  }
  *out = val_tuple(c->arena, v, total);
  return true;
}

/* cty Equals for known values: true/false, or unknown (-1). */
static int equals(Value x, Value y)
{
  if (!val_is_wholly_known(x) || !val_is_wholly_known(y))
    return -1;
  x = val_unmark(x);
  y = val_unmark(y);
  if (val_is_null(x) || val_is_null(y))
    return val_is_null(x) && val_is_null(y);
  if (x.type->kind == TY_NUMBER && y.type->kind == TY_NUMBER)
    return val_num_cmp(x, y) == 0;
  return val_raw_equal(x, y, false);
}

bool fn_contains(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  if (!fn_is_seq(a[0].type))
    return fn_error(c, "argument must be list, tuple, or set");
  bool unk = false;
  for (uint32_t i = 0; i < a[0].len; i++) {
    int r = equals(a[0].u.elems[i], a[1]);
    if (r == 1) {
      *out = val_true;
      return true;
    }
    if (r < 0)
      unk = true;
  }
  *out = unk ? val_unknown(&ty_bool) : val_false;
  return true;
}

bool fn_distinct(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  uint32_t len = a[0].len, k = 0;
  Value *v = ARENA_NEW(c->arena, Value, len ? len : 1);
  for (uint32_t i = 0; i < len; i++) {
    Value e = a[0].u.elems[i];
    bool dup = false;
    for (uint32_t j = 0; j < k && !dup; j++)
      dup = val_raw_equal(v[j], e, true);
    if (!dup)
      v[k++] = e;
  }
  *out = val_list(c->arena, a[0].type->elem, v, k);
  return true;
}

bool fn_element(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  TypeKind k = a[0].type->kind;
  if (k != TY_LIST && k != TY_TUPLE) {
    return fn_error(c, "cannot read elements from %s",
                    friendly(c, a[0].type));
  }
  int64_t idx;
  if (!val_num_int(a[1], &idx))
    return fn_error(c, "invalid index: value must be a whole number, between "
                       "-9223372036854775808 and 9223372036854775807");
  if (idx < 0)
    return fn_error(c, "cannot use element function with a negative index");
  if (val_is_unknown(a[0])) {
    *out = val_dynamic_unknown;
    return true;
  }
  if (a[0].len == 0)
    return fn_error(c, "cannot use element function with an empty list");
  *out = a[0].u.elems[idx % a[0].len];
  return true;
}

/* cty's flattener: unknown scalar elements are kept as they are, but an
** unknown nested sequence (or one of dynamic type) has an unknown length,
** so the whole result is unknown (*known cleared). */
static bool flatten_into(FnCall *c, Value v, Value **acc, uint32_t *n,
                         uint32_t *cap, int depth, bool *known)
{
  if (depth > 100)
    return fn_error(c, "nesting too deep");
  for (uint32_t i = 0; i < v.len && *known; i++) {
    Value e = v.u.elems[i];
    if ((fn_is_seq(e.type) || e.type->kind == TY_DYNAMIC) &&
        val_is_unknown(e)) {
      *known = false;
      return true;
    }
    if (fn_is_seq(e.type) && !val_is_null(e)) {
      if (!flatten_into(c, e, acc, n, cap, depth + 1, known))
        return false;
      continue;
    }
    if (*n == *cap) {
      *acc = arena_grow(c->arena, *acc, sizeof(Value), _Alignof(Value), *cap,
                        *cap * 2);
      *cap *= 2;
    }
    (*acc)[(*n)++] = e;
  }
  return true;
}

bool fn_flatten(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  if (!fn_is_seq(a[0].type))
    return fn_error(c, "can only flatten lists, sets and tuples");
  uint32_t cnt = 0, cap = 16;
  Value *acc = ARENA_NEW(c->arena, Value, cap);
  bool known = true;
  if (!flatten_into(c, a[0], &acc, &cnt, &cap, 0, &known))
    return false;
  *out = known ? val_tuple(c->arena, acc, cnt) : val_dynamic_unknown;
  return true;
}

bool fn_index(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  TypeKind k = a[0].type->kind;
  if (k != TY_LIST && k != TY_TUPLE)
    return fn_error(c, "argument must be a list or tuple");
  if (a[0].len == 0)
    return fn_error(c, "cannot search an empty list");
  /* Terraform's index: an element that cannot be compared yet (unknown)
  ** before the match makes the result unknown. */
  for (uint32_t i = 0; i < a[0].len; i++) {
    int r = equals(a[0].u.elems[i], a[1]);
    if (r < 0) {
      *out = val_unknown(&ty_number);
      return true;
    }
    if (r == 1) {
      *out = val_int(i);
      return true;
    }
  }
  return fn_error(c, "item not found");
}

static int str_cmp(const void *pa, const void *pb)
{
  const Value *x = pa, *y = pb;
  size_t m = x->len < y->len ? x->len : y->len;
  int r = memcmp(x->u.s, y->u.s, m);
  if (r)
    return r;
  return x->len < y->len ? -1 : x->len > y->len;
}

bool fn_keys(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value m = a[0];
  if (m.type->kind == TY_MAP) {
    if (val_is_unknown(m)) {
      *out = val_unknown(&fn_ty_list_string);
      return true;
    }
    Value *v = ARENA_NEW(c->arena, Value, m.len ? m.len : 1);
    for (uint32_t i = 0; i < m.len; i++)
      v[i] = val_str_ref(m.u.entries[i].key, m.u.entries[i].keylen);
    *out = val_list(c->arena, &ty_string, v, m.len);
    return true;
  }
  if (m.type->kind == TY_OBJECT) {
    uint32_t na = m.type->n;
    Value *v = ARENA_NEW(c->arena, Value, na ? na : 1);
    for (uint32_t i = 0; i < na; i++)
      v[i] = val_str_ref(m.type->names[i], strlen(m.type->names[i]));
    *out = val_tuple(c->arena, v, na);
    return true;
  }
  return fn_arg_error(c, 0, "must have map or object type");
}

bool fn_length(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value v = a[0];
  uint16_t marks = v.flags & VF_MARKS;
  v = val_unmark(v);
  switch (v.type->kind) {
  case TY_DYNAMIC:
    *out = val_unknown(&ty_number);
    break;
  case TY_TUPLE:
  case TY_OBJECT:
    *out = val_int(v.type->n);
    break;
  case TY_STRING:
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    if (val_is_unknown(v)) {
      *out = val_unknown(&ty_number);
    } else if (v.type->kind == TY_STRING) {
      *out = val_int((int64_t)fn_graphemes(v.u.s, v.len));
    } else {
      *out = val_int(v.len);
    }
    break;
  default:
    return fn_arg_error(c, 0, "argument must be a string, a collection type, "
                              "or a structural type");
  }
  *out = val_mark(*out, marks);
  return true;
}

bool fn_list(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)a;
  (void)n;
  (void)out;
  return fn_error(c, "the \"list\" function was deprecated in Terraform v0.12 "
                     "and is no longer available; use tolist([ ... ]) syntax "
                     "to write a literal list");
}

bool fn_map(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)a;
  (void)n;
  (void)out;
  return fn_error(c, "the \"map\" function was deprecated in Terraform v0.12 "
                     "and is no longer available; use tomap({ ... }) syntax "
                     "to write a literal map");
}

bool fn_lookup_fn(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  if (n > 3)
    return fn_error(c, "lookup() takes no more than three arguments");
  Value m = a[0];
  const char *key = a[1].u.s;
  bool found = false;
  Value v;
  if (m.type->kind == TY_MAP) {
    v = val_map_get(m, key, a[1].len, &found);
  } else if (m.type->kind == TY_OBJECT) {
    v = val_attr(m, key, &found);
  } else {
    return fn_arg_error(c, 0, "lookup() requires a map as the first argument");
  }
  if (!found) {
    if (n == 3) {
      v = a[2];
    } else {
      if (m.type->kind == TY_OBJECT)
        return fn_arg_error(c, 0, "the given object has no attribute %s",
                            quote(c, a[1]));
      return fn_error(c, "lookup failed to find key %s", quote(c, a[1]));
    }
  }
  /* With a default the result has the unified type of both. */
  if (n == 3 && m.type->kind == TY_MAP) {
    const Type *ts[2] = {m.type->elem, a[2].type};
    const Type *u = fn_unify(c->arena, ts, 2, true);
    const char *msg;
    if (!u || !fn_convert(c->arena, v, u, &v, &msg))
      return fn_arg_error(c, 2, "the default value must have the same type "
                                "as the map elements");
  }
  *out = v;
  return true;
}

bool fn_matchkeys(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  if (a[0].len != a[1].len)
    return fn_error(c, "length of keys and values should be equal");
  const Type *ts[2] = {a[1].type->elem, a[2].type->elem};
  if (!fn_unify(c->arena, ts, 2, false) && a[1].len && a[2].len)
    return fn_arg_error(c, 2, "keys and searchset must be of the same type");
  uint32_t k = 0;
  Value *v = ARENA_NEW(c->arena, Value, a[0].len ? a[0].len : 1);
  for (uint32_t i = 0; i < a[1].len; i++)
    for (uint32_t j = 0; j < a[2].len; j++)
      if (equals(a[1].u.elems[i], a[2].u.elems[j]) == 1) {
        v[k++] = a[0].u.elems[i];
        break;
      }
  *out = val_list(c->arena, a[0].type->elem, v, k);
  return true;
}

bool fn_merge(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  bool all_maps = n > 0;
  const Type *et = NULL;
  uint32_t total = 0;
  for (uint32_t i = 0; i < n; i++) {
    const Type *t = a[i].type;
    if (t->kind != TY_MAP && t->kind != TY_OBJECT && t->kind != TY_DYNAMIC)
      return fn_error(c, "arguments must be maps or objects, got \"%s\"",
                      friendly(c, t));
    if (t->kind == TY_DYNAMIC) {
      if (val_is_null(a[i]))
        continue;
      *out = val_dynamic_unknown;
      return true;
    }
    if (t->kind == TY_OBJECT)
      all_maps = false;
    else if (!et)
      et = t->elem;
    else if (!ty_equal(et, t->elem))
      all_maps = false;
    if (!val_is_null(a[i]))
      total += a[i].len;
  }
  /* Later arguments win: collect in order, then keep the last of each. */
  const char **names = ARENA_NEW(c->arena, const char *, total ? total : 1);
  Value *vals = ARENA_NEW(c->arena, Value, total ? total : 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (val_is_null(a[i]) || a[i].type->kind == TY_DYNAMIC)
      continue;
    for (uint32_t j = 0; j < a[i].len; j++) {
      const char *nm = a[i].type->kind == TY_MAP ? a[i].u.entries[j].key
                                                  : a[i].type->names[j];
      Value v = a[i].type->kind == TY_MAP ? a[i].u.entries[j].val
                                          : a[i].u.elems[j];
      uint32_t at = k;
      for (uint32_t q = 0; q < k; q++)
        if (!strcmp(names[q], nm)) {
          at = q;
          break;
        }
      names[at] = nm;
      vals[at] = v;
      if (at == k)
        k++;
    }
  }
  if (all_maps && !et)
    all_maps = false;   /* only nulls: cty gives an empty object */
  if (all_maps) {
    MapEntry *e = ARENA_NEW(c->arena, MapEntry, k ? k : 1);
    for (uint32_t i = 0; i < k; i++) {
      e[i].key = names[i];
      e[i].keylen = (uint32_t)strlen(names[i]);
      e[i].val = vals[i];
    }
    *out = val_map(c->arena, et ? et : &ty_dynamic, e, k);
    return true;
  }
  *out = val_object(c->arena, k, names, vals);
  return true;
}

bool fn_one(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value l = a[0];
  if (!fn_is_seq(l.type))
    return fn_arg_error(c, 0, "must be a list, set, or tuple value with "
                              "either zero or one elements");
  if (l.type->kind == TY_TUPLE) {
    if (l.type->n == 0) {
      *out = val_dynamic_null;
      return true;
    }
    if (l.type->n > 1)
      return fn_arg_error(c, 0, "must be a list, set, or tuple value with "
                                "either zero or one elements");
    *out = val_is_unknown(l) ? val_unknown(l.type->types[0]) : l.u.elems[0];
    return true;
  }
  if (val_is_unknown(l)) {
    *out = val_unknown(l.type->elem);
    return true;
  }
  if (l.len == 0) {
    *out = val_null(l.type->elem);
    return true;
  }
  if (l.len > 1)
    return fn_arg_error(c, 0, "must be a list, set, or tuple value with "
                              "either zero or one elements");
  *out = l.u.elems[0];
  return true;
}

bool fn_range(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  Value start = val_int(0), end, step = val_int(1);
  switch (n) {
  case 1:
    end = a[0];
    if (val_num_cmp(end, zero) < 0)
      step = val_int(-1);
    break;
  case 2:
    start = a[0];
    end = a[1];
    if (val_num_cmp(end, start) < 0)
      step = val_int(-1);
    break;
  case 3:
    start = a[0];
    end = a[1];
    step = a[2];
    break;
  default:
    return fn_error(c, "must have one, two, or three arguments");
  }
  if (val_num_cmp(step, zero) == 0)
    return fn_arg_error(c, 2, "step must not be zero");
  bool down = val_num_cmp(step, zero) < 0;
  if (down && val_num_cmp(end, start) > 0)
    return fn_arg_error(c, 1, "end must be less than start when step is "
                              "negative");
  if (!down && val_num_cmp(end, start) < 0)
    return fn_arg_error(c, 1, "end must be greater than start when step is "
                              "positive");
  /* Grown as needed rather than 1,024 slots up front: range(3) in a
  ** local evaluated at validate took 24 KB a call (bench-parse: a quarter
  ** of its peak).  val_num_add does not allocate, so v stays the arena's
  ** last allocation and grows in place. */
  uint32_t cap = 8;
  Value *v = arena_alloc_raw(c->arena, sizeof(Value), _Alignof(Value), cap);
  uint32_t k = 0;
  Value num = start;
  for (;;) {
    int r = val_num_cmp(num, end);
    if (down ? r <= 0 : r >= 0)
      break;
    if (k >= 1024)
      return fn_error(c, "more than 1024 values were generated; either "
                         "decrease the difference between start and end or "
                         "use a smaller step");
    if (k == cap) {
      v = arena_grow_raw(c->arena, v, sizeof(Value), _Alignof(Value), cap,
                         cap * 2);
      cap *= 2;
    }
    v[k++] = num;
    num = val_num_add(num, step);
  }
  *out = val_list(c->arena, &ty_number, v, k);
  return true;
}

bool fn_reverse(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  TypeKind k = a[0].type->kind;
  /* cty accepts a set too (as the usual conversion to a list would). */
  if (k != TY_LIST && k != TY_TUPLE && k != TY_SET)
    return fn_arg_error(c, 0, "can only reverse list or tuple values, not %s",
                        friendly(c, a[0].type));
  uint32_t len = a[0].len;
  Value *v = ARENA_NEW(c->arena, Value, len ? len : 1);
  for (uint32_t i = 0; i < len; i++)
    v[i] = a[0].u.elems[len - 1 - i];
  *out = k != TY_TUPLE ? val_list(c->arena, a[0].type->elem, v, len)
                       : val_tuple(c->arena, v, len);
  return true;
}

/* Sets: args are already set(T_i); unify the T_i. */
static bool set_elem_type(FnCall *c, const Value *a, uint32_t n,
                          const Type **u)
{
  const Type **ts = ARENA_NEW(c->arena, const Type *, n);
  for (uint32_t i = 0; i < n; i++)
    ts[i] = a[i].type->elem;
  *u = fn_unify(c->arena, ts, n, false);
  if (!*u)
    return fn_error(c, "given sets must all have compatible element types");
  return true;
}

static bool set_has(Value s, Value e)
{
  for (uint32_t i = 0; i < s.len; i++)
    if (val_raw_equal(s.u.elems[i], e, false))
      return true;
  return false;
}

static bool set_conv(FnCall *c, const Value *a, uint32_t n, const Type *u,
                     Value *conv)
{
  for (uint32_t i = 0; i < n; i++) {
    const char *msg;
    if (!fn_convert(c->arena, a[i], ty_set(c->arena, u), &conv[i], &msg))
      return fn_error(c, "given sets must all have compatible element types");
  }
  return true;
}

bool fn_setunion(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  const Type *u;
  if (!set_elem_type(c, a, n, &u))
    return false;
  Value *cv = ARENA_NEW(c->arena, Value, n);
  if (!set_conv(c, a, n, u, cv))
    return false;
  uint32_t total = 0;
  for (uint32_t i = 0; i < n; i++)
    total += cv[i].len;
  Value *v = ARENA_NEW(c->arena, Value, total ? total : 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < cv[i].len; j++)
      v[k++] = cv[i].u.elems[j];
  *out = val_set(c->arena, u, v, k);
  return true;
}

bool fn_setintersection(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  const Type *u;
  if (!set_elem_type(c, a, n, &u))
    return false;
  Value *cv = ARENA_NEW(c->arena, Value, n);
  if (!set_conv(c, a, n, u, cv))
    return false;
  Value *v = ARENA_NEW(c->arena, Value, cv[0].len ? cv[0].len : 1);
  uint32_t k = 0;
  for (uint32_t j = 0; j < cv[0].len; j++) {
    bool all = true;
    for (uint32_t i = 1; i < n && all; i++)
      all = set_has(cv[i], cv[0].u.elems[j]);
    if (all)
      v[k++] = cv[0].u.elems[j];
  }
  *out = val_set(c->arena, u, v, k);
  return true;
}

bool fn_setsubtract(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  const Type *u;
  if (!set_elem_type(c, a, n, &u))
    return false;
  Value cv[2];
  if (!set_conv(c, a, 2, u, cv))
    return false;
  Value *v = ARENA_NEW(c->arena, Value, cv[0].len ? cv[0].len : 1);
  uint32_t k = 0;
  for (uint32_t j = 0; j < cv[0].len; j++)
    if (!set_has(cv[1], cv[0].u.elems[j]))
      v[k++] = cv[0].u.elems[j];
  *out = val_set(c->arena, u, v, k);
  return true;
}

bool fn_setproduct(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  if (n < 2)
    return fn_error(c, "at least two arguments are required");
  /* cty: a list of tuples only when every argument is a sequence; one
  ** set makes the result a set. */
  bool all_list = true;
  uint64_t total = 1;
  const Type **ets = ARENA_NEW(c->arena, const Type *, n);
  for (uint32_t i = 0; i < n; i++) {
    TypeKind k = a[i].type->kind;
    if (k != TY_SET && k != TY_LIST && k != TY_TUPLE)
      return fn_arg_error(c, (int)i, "a set or a list is required");
    if (k == TY_SET)
      all_list = false;
    const Type *et = fn_elem_type(c->arena, a[i]);
    if (!et)
      return fn_arg_error(c, (int)i, "all elements must be of the same type");
    ets[i] = et;
    total *= a[i].len;
    if (total > 100000)
      return fn_error(c, "the product would have too many elements");
  }
  const Type *tt = ty_tuple(c->arena, n, ets);
  /* A set of tuples holding unknowns cannot be built element by element
  ** (cairn's sets do not keep unknown elements apart), so a set result is
  ** wholly unknown then; a list result keeps its unknown elements. */
  if (!all_list) {
    for (uint32_t i = 0; i < n; i++)
      if (!val_is_wholly_known(a[i])) {
        *out = val_unknown(ty_set(c->arena, tt));
        return true;
      }
  }
  Value *res = ARENA_NEW(c->arena, Value, total ? total : 1);
  uint32_t *idx = ARENA_NEW(c->arena, uint32_t, n);
  for (uint64_t r = 0; r < total; r++) {
    Value *t = ARENA_NEW(c->arena, Value, n);
    for (uint32_t i = 0; i < n; i++) {
      const char *msg;
      if (!fn_convert(c->arena, a[i].u.elems[idx[i]], ets[i], &t[i], &msg))
        return fn_error(c, "%s", msg);
    }
    res[r] = val_tuple(c->arena, t, n);
    for (uint32_t i = n; i-- > 0;) {
      if (++idx[i] < a[i].len)
        break;
      idx[i] = 0;
    }
  }
  *out = all_list ? val_list(c->arena, tt, res, (uint32_t)total)
                  : val_set(c->arena, tt, res, (uint32_t)total);
  return true;
}

bool fn_slice(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  TypeKind k = a[0].type->kind;
  if (k == TY_SET)
    return fn_arg_error(c, 0, "cannot slice a set, because its elements do "
                              "not have indices; explicitly convert to a list "
                              "if the ordering of the result is not "
                              "important");
  if (k != TY_LIST && k != TY_TUPLE)
    return fn_arg_error(c, 0, "must be a list or tuple value");
  int64_t s, e;
  if (!val_num_int(a[1], &s))
    return fn_arg_error(c, 1, "invalid start index: value must be a whole "
                              "number");
  if (s < 0)
    return fn_arg_error(c, 1, "start index must not be less than zero");
  if (s > a[0].len)
    return fn_arg_error(c, 1, "start index must not be greater than the "
                              "length of the list");
  if (!val_num_int(a[2], &e))
    return fn_arg_error(c, 2, "invalid end index: value must be a whole "
                              "number");
  if (e < 0)
    return fn_arg_error(c, 2, "end index must not be less than zero");
  if (e > a[0].len)
    return fn_arg_error(c, 2, "end index must not be greater than the length "
                              "of the list");
  if (s > e)
    return fn_arg_error(c, 1, "start index must not be greater than end "
                              "index");
  uint32_t cnt = (uint32_t)(e - s);
  Value *v = copy_vals(c, a[0].u.elems + s, cnt);
  *out = k == TY_LIST ? val_list(c->arena, a[0].type->elem, v, cnt)
                      : val_tuple(c->arena, v, cnt);
  return true;
}

bool fn_sort(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  uint32_t len = a[0].len;
  for (uint32_t i = 0; i < len; i++)
    if (val_is_null(a[0].u.elems[i]))
      return fn_error(c, "given list element %u is null; a null string "
                         "cannot be sorted", (unsigned)i);
  Value *v = copy_vals(c, a[0].u.elems, len);
  qsort(v, len, sizeof(Value), str_cmp);
  *out = val_list(c->arena, &ty_string, v, len);
  return true;
}

bool fn_sum(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value l = a[0];
  if (!fn_is_seq(l.type))
    return fn_error(c, "cannot sum noncollection");
  if (l.len == 0)
    return fn_error(c, "cannot sum an empty list");
  Value acc = val_int(0);
  for (uint32_t i = 0; i < l.len; i++) {
    Value e = l.u.elems[i];
    const char *msg;
    if (val_is_null(e))
      return fn_arg_error(c, 0, "argument must be list, set, or tuple of "
                                "number values");
    if (!fn_convert(c->arena, e, &ty_number, &e, &msg))
      return fn_error(c, "argument must be list, set, or tuple of number "
                         "values");
    double x = val_num_double(acc), y = val_num_double(e);
    if (isinf(x) && isinf(y) && (x > 0) != (y > 0))
      return fn_error(c, "can't compute sum of opposing infinities");
    acc = val_num_add(acc, e);
  }
  *out = acc;
  return true;
}

bool fn_transpose(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value m = a[0];
  /* Count distinct output keys, in order of first appearance. */
  uint32_t total = 0;
  for (uint32_t i = 0; i < m.len; i++) {
    Value l = m.u.entries[i].val;
    if (val_is_null(l))
      return fn_error(c, "cannot transpose a map with null lists");
    total += l.len;
  }
  const char **keys = ARENA_NEW(c->arena, const char *, total ? total : 1);
  uint32_t *klen = ARENA_NEW(c->arena, uint32_t, total ? total : 1);
  Value **lists = ARENA_NEW(c->arena, Value *, total ? total : 1);
  uint32_t *cnt = ARENA_NEW(c->arena, uint32_t, total ? total : 1);
  uint32_t nk = 0;
  for (uint32_t i = 0; i < m.len; i++) {
    Value l = m.u.entries[i].val;
    for (uint32_t j = 0; j < l.len; j++) {
      Value e = l.u.elems[j];
      if (val_is_null(e))
        return fn_error(c, "cannot transpose a map with null values");
      uint32_t at = nk;
      for (uint32_t q = 0; q < nk; q++)
        if (klen[q] == e.len && !memcmp(keys[q], e.u.s, e.len)) {
          at = q;
          break;
        }
      if (at == nk) {
        keys[nk] = e.u.s;
        klen[nk] = e.len;
        lists[nk] = ARENA_NEW(c->arena, Value, m.len);
        cnt[nk] = 0;
        nk++;
      }
      lists[at][cnt[at]++] = val_str_ref(m.u.entries[i].key,
                                         m.u.entries[i].keylen);
    }
  }
  MapEntry *ent = ARENA_NEW(c->arena, MapEntry, nk ? nk : 1);
  for (uint32_t q = 0; q < nk; q++) {
    ent[q].key = arena_strndup(c->arena, keys[q], klen[q]);
    ent[q].keylen = klen[q];
    ent[q].val = val_list(c->arena, &ty_string, lists[q], cnt[q]);
  }
  *out = val_map(c->arena, &fn_ty_list_string, ent, nk);
  return true;
}

bool fn_values(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value m = a[0];
  if (m.type->kind == TY_MAP) {
    Value *v = ARENA_NEW(c->arena, Value, m.len ? m.len : 1);
    for (uint32_t i = 0; i < m.len; i++)
      v[i] = m.u.entries[i].val;
    *out = val_list(c->arena, m.type->elem, v, m.len);
    return true;
  }
  if (m.type->kind == TY_OBJECT) {
    *out = val_tuple(c->arena, copy_vals(c, m.u.elems, m.len), m.len);
    return true;
  }
  return fn_error(c, "values() requires a map as the first argument");
}

bool fn_zipmap(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value k = a[0], v = a[1];
  if (v.type->kind != TY_LIST && v.type->kind != TY_TUPLE)
    return fn_error(c, "values argument must be a list or tuple value");
  /* Unknown keys: the result's keys (and for a tuple its type) are not
  ** known; unknown values are kept in place (cty's zipmap). */
  if (!val_is_wholly_known(k)) {
    *out = v.type->kind == TY_LIST
               ? val_unknown(ty_map(c->arena, v.type->elem))
               : val_dynamic_unknown;
    return true;
  }
  if (k.len != v.len)
    return fn_error(c, "number of keys (%u) does not match number of values "
                       "(%u)", (unsigned)k.len, (unsigned)v.len);
  for (uint32_t i = 0; i < k.len; i++)
    if (val_is_null(k.u.elems[i]))
      return fn_error(c, "keys list has null value at index %u",
                      (unsigned)i);
  /* Duplicate keys: the last one wins. */
  const char **names = ARENA_NEW(c->arena, const char *, k.len ? k.len : 1);
  Value *vals = ARENA_NEW(c->arena, Value, k.len ? k.len : 1);
  uint32_t cnt = 0;
  for (uint32_t i = 0; i < k.len; i++) {
    uint32_t at = cnt;
    for (uint32_t q = 0; q < cnt; q++)
      if (!strcmp(names[q], k.u.elems[i].u.s))
        at = q;
    names[at] = k.u.elems[i].u.s;
    vals[at] = v.u.elems[i];
    if (at == cnt)
      cnt++;
  }
  if (v.type->kind == TY_LIST) {
    MapEntry *e = ARENA_NEW(c->arena, MapEntry, cnt ? cnt : 1);
    for (uint32_t i = 0; i < cnt; i++) {
      e[i].key = names[i];
      e[i].keylen = (uint32_t)strlen(names[i]);
      e[i].val = vals[i];
    }
    *out = val_map(c->arena, v.type->elem, e, cnt);
    return true;
  }
  *out = val_object(c->arena, cnt, names, vals);
  return true;
}

/* ---- Type conversion ---------------------------------------------------------------- */

static bool to_type(FnCall *c, Value v, const Type *want, Value *out)
{
  const char *msg;
  if (fn_convert(c->arena, v, want, out, &msg))
    return true;
  Value u = val_unmark(v);
  /* A sensitive argument is never quoted (Terraform's MakeToFunc). */
  bool secret = val_has_sensitive(v);
  if (!secret && u.type->kind == TY_STRING && want->kind == TY_BOOL)
    return fn_arg_error(c, 0, "cannot convert %s to bool; only the strings "
                              "\"true\" or \"false\" are allowed",
                        val_is_null(u) ? "string" : quote(c, u));
  if (!secret && u.type->kind == TY_STRING && want->kind == TY_NUMBER)
    return fn_arg_error(c, 0, "cannot convert %s to number; given string "
                              "must be a decimal representation of a number",
                        val_is_null(u) ? "string" : quote(c, u));
  Buf b;
  buf_init(&b, c->arena);
  if (want->kind == TY_DYNAMIC) {
    buf_puts(&b, "any type");
  } else if (ty_is_collection(want) && want->elem->kind == TY_DYNAMIC) {
    buf_puts(&b, want->kind == TY_LIST ? "list of any single type" :
                 want->kind == TY_SET ? "set of any single type" :
                 "map of any single type");
  } else {
    ty_friendly(&b, want);
  }
  return fn_arg_error(c, 0, "cannot convert %s%s to %s",
                      secret ? "this sensitive " : "", friendly(c, u.type),
                      buf_str(&b));
}

bool fn_tobool(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  return to_type(c, a[0], &ty_bool, out);
}

bool fn_tonumber(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  return to_type(c, a[0], &ty_number, out);
}

bool fn_tostring(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  return to_type(c, a[0], &ty_string, out);
}

bool fn_tolist(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  return to_type(c, a[0], &fn_ty_list_dynamic, out);
}

bool fn_toset(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  return to_type(c, a[0], &fn_ty_set_dynamic, out);
}

bool fn_tomap(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  return to_type(c, a[0], &fn_ty_map_dynamic, out);
}

/* ---- Marks ------------------------------------------------------------------------ */

bool fn_sensitive(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  *out = val_sensitive(a[0]);
  return true;
}

bool fn_nonsensitive(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  *out = a[0];
  out->flags = (uint16_t)(out->flags & ~VF_SENSITIVE);
  return true;
}

bool fn_issensitive(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  *out = val_bool(val_is_sensitive(a[0]));
  return true;
}

/* Terraform's ephemeralasnull: every ephemeral value (at any depth)
** becomes a null of its type without marks; other values keep their
** sensitive marks.  An unknown ephemeral value is null too. */
static Value eph_null(Arena *a, Value v)
{
  if (v.flags & VF_EPHEMERAL)
    return val_null(v.type);
  if (!(val_marks_deep(v) & VF_EPHEMERAL) || val_is_null(v) ||
      val_is_unknown(v))
    return v;
  TypeKind k = v.type->kind;
  if (k == TY_MAP) {
    MapEntry *e = ARENA_NEW(a, MapEntry, v.len);
    for (uint32_t i = 0; i < v.len; i++) {
      e[i] = v.u.entries[i];
      e[i].val = eph_null(a, e[i].val);
    }
    v.u.entries = e;
  } else if (k == TY_LIST || k == TY_SET || k == TY_TUPLE ||
             k == TY_OBJECT) {
    Value *el = ARENA_NEW(a, Value, v.len);
    for (uint32_t i = 0; i < v.len; i++)
      el[i] = eph_null(a, v.u.elems[i]);
    v.u.elems = el;
  }
  return v;
}

bool fn_ephemeralasnull(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  *out = eph_null(c->arena, a[0]);
  return true;
}

bool fn_type(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Buf b;
  buf_init(&b, c->arena);
  ty_hcl(&b, val_unmark(a[0]).type);
  *out = fn_buf_val(&b);
  return true;
}
