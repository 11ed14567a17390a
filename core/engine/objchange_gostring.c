/*
** objchange_gostring.c: rendering values as cty's GoString and strings as
** Go's strconv.Quote, for the reason texts of objchange's assertions and
** the keys in objc_path_string (Terraform prints these with %#v).
*/
#include "objchange_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Go-syntax rendering (cty GoString, strconv.Quote) ------------------ */

void objc_go_quote(Buf *b, const char *s, size_t n)
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
      objc_go_quote(b, t->names[i], strlen(t->names[i]));
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
void objc_go_value(Buf *b, Value v)
{
  const Type *t = v.type ? v.type : &ty_dynamic;
  if (objc_null(v)) {
    buf_puts(b, "cty.NullVal(");
    go_type(b, t);
    buf_putc(b, ')');
    return;
  }
  if (objc_unknown(v)) {
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
    objc_go_quote(b, v.u.s, v.len);
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
      objc_go_value(b, v.u.elems[i]);
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
      objc_go_value(b, v.u.elems[i]);
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
      objc_go_quote(b, v.u.entries[i].key, v.u.entries[i].keylen);
      buf_putc(b, ':');
      objc_go_value(b, v.u.entries[i].val);
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
      objc_go_quote(b, t->names[i], strlen(t->names[i]));
      buf_putc(b, ':');
      objc_go_value(b, v.u.elems[i]);
    }
    buf_puts(b, "})");
    return;
  }
}
