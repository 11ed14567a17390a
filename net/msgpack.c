/*
** msgpack: cty values in MessagePack (see msgpack.h for the contract).
*/
#include "net/msgpack.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

/* ---- Encoding ------------------------------------------------------------ */

typedef struct Enc {
  Buf *out;
  Diags *d;
  const char *summary;
  /* The path to the value being written, for error details. */
  PathStep steps[MSGPACK_MAX_DEPTH];
  uint32_t depth;
} Enc;

static void put_u8(Buf *b, uint8_t c) { buf_putc(b, (char)c); }

static void put_be(Buf *b, uint64_t v, int nbytes)
{
  for (int i = nbytes - 1; i >= 0; i--)
    put_u8(b, (uint8_t)(v >> (8 * i)));
}

/* A header with a length: the fix form when it fits (fixbase + n, up to
** fixmax), then the 8-bit form (when c8 is not 0), 16-bit and 32-bit. */
static void put_len(Buf *b, uint32_t n, uint8_t fixbase, uint32_t fixmax,
                    uint8_t c8, uint8_t c16, uint8_t c32)
{
  if (fixbase && n <= fixmax) {
    put_u8(b, (uint8_t)(fixbase + n));
  } else if (c8 && n <= 0xff) {
    put_u8(b, c8);
    put_be(b, n, 1);
  } else if (n <= 0xffff) {
    put_u8(b, c16);
    put_be(b, n, 2);
  } else {
    put_u8(b, c32);
    put_be(b, n, 4);
  }
}

static void put_str(Buf *b, const char *s, size_t n)
{
  put_len(b, (uint32_t)n, 0xa0, 31, 0xd9, 0xda, 0xdb);
  buf_put(b, s, n);
}

static void put_bin(Buf *b, const char *s, size_t n)
{
  put_len(b, (uint32_t)n, 0, 0, 0xc4, 0xc5, 0xc6);
  buf_put(b, s, n);
}

static void put_int(Buf *b, int64_t i)
{
  if (i >= 0) {
    uint64_t u = (uint64_t)i;
    if (u <= 0x7f) {
      put_u8(b, (uint8_t)u);
    } else if (u <= 0xff) {
      put_u8(b, 0xcc);
      put_be(b, u, 1);
    } else if (u <= 0xffff) {
      put_u8(b, 0xcd);
      put_be(b, u, 2);
    } else if (u <= 0xffffffffu) {
      put_u8(b, 0xce);
      put_be(b, u, 4);
    } else {
      put_u8(b, 0xcf);
      put_be(b, u, 8);
    }
    return;
  }
  if (i >= -32) {
    put_u8(b, (uint8_t)(0xe0 | (uint8_t)(i + 32)));
  } else if (i >= INT8_MIN) {
    put_u8(b, 0xd0);
    put_be(b, (uint64_t)i, 1);
  } else if (i >= INT16_MIN) {
    put_u8(b, 0xd1);
    put_be(b, (uint64_t)i, 2);
  } else if (i >= INT32_MIN) {
    put_u8(b, 0xd2);
    put_be(b, (uint64_t)i, 4);
  } else {
    put_u8(b, 0xd3);
    put_be(b, (uint64_t)i, 8);
  }
}

static void put_f64(Buf *b, double d)
{
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  put_u8(b, 0xcb);
  put_be(b, u, 8);
}

/* Strips trailing fraction zeros (and a bare '.') from plain decimal text. */
static size_t trim_fraction(const char *s, size_t n)
{
  if (!memchr(s, '.', n))
    return n;
  while (n && s[n - 1] == '0')
    n--;
  if (n && s[n - 1] == '.')
    n--;
  return n;
}

/* True when the decimal text (plain positional, as val_num_format writes
** it) is exactly the double d: then cty's big float converts to float64
** without loss and sends a float64; otherwise it sends the text. */
static bool decimal_is_double(const char *text, size_t n, double d)
{
  /* Every double's exact expansion has at most 1074 fraction digits and
  ** 309 integer digits. */
  char exact[1600];
  int w = snprintf(exact, sizeof exact, "%.1080f", d);
  if (w < 0 || (size_t)w >= sizeof exact)
    return false;
  size_t en = trim_fraction(exact, (size_t)w);
  size_t tn = trim_fraction(text, n);
  if (en == 2 && memcmp(exact, "-0", 2) == 0)
    return tn == 1 && text[0] == '0';
  return en == tn && memcmp(exact, text, en) == 0;
}

static void put_number(Buf *b, Value v)
{
  int64_t i;
  Buf t;
  buf_init(&t, b->arena);
  if (!(v.flags & VF_NUMLIT)) {
    if (val_num_int(v, &i)) {
      put_int(b, i);
      return;
    }
  } else {
    /* A literal: integral only when its exact decimal value is (the
    ** double behind it may be integral when the literal is not). */
    val_num_format(&t, v);
    if (!memchr(t.p, '.', t.len) && val_num_int(v, &i)) {
      char s[32];
      int n = snprintf(s, sizeof s, "%lld", (long long)i);
      if ((size_t)n == t.len && memcmp(s, t.p, t.len) == 0) {
        put_int(b, i);
        return;
      }
    }
    buf_clear(&t);
  }
  double d = val_num_double(v);
  if (isinf(d) && !(v.flags & VF_NUMLIT)) {
    put_f64(b, d);
    return;
  }
  val_num_format(&t, v);
  if (!isinf(d) && !isnan(d) && decimal_is_double(t.p, t.len, d))
    put_f64(b, d);
  else
    put_str(b, t.p, t.len);
}

static bool enc_fail(Enc *e, const char *msg)
{
  Buf p;
  buf_init(&p, e->d->arena);
  ValPath path = {e->steps, e->depth};
  val_path_format(&p, path, true);
  diag_error(e->d, NULL, e->summary, "%s%s%s", p.len ? buf_str(&p) : "",
             p.len ? ": " : "", msg);
  return false;
}

static bool enc_value(Enc *e, Value v, const Type *t);

static bool enc_child(Enc *e, PathStepKind k, const char *name, int64_t idx,
                      Value v, const Type *t)
{
  if (e->depth >= MSGPACK_MAX_DEPTH)
    return enc_fail(e, "value nested too deeply");
  e->steps[e->depth++] = (PathStep){k, name, idx};
  bool ok = enc_value(e, v, t);
  if (ok)
    e->depth--;
  return ok;
}

static bool enc_value(Enc *e, Value v, const Type *t)
{
  Buf *b = e->out;
  if (v.flags & VF_UNKNOWN) {
    put_u8(b, 0xd4);
    put_u8(b, 0);
    put_u8(b, 0);
    return true;
  }
  if (v.flags & VF_NULL) {
    put_u8(b, 0xc0);
    return true;
  }
  if (!v.type)
    return enc_fail(e, "value is absent");
  if (t->kind == TY_DYNAMIC) {
    if (v.type->kind == TY_DYNAMIC)
      return enc_fail(e, "value of dynamic type has no concrete type");
    Buf tj;
    buf_init(&tj, b->arena);
    json_write_type(&tj, v.type);
    put_u8(b, 0x92);
    put_bin(b, tj.p, tj.len);
    return enc_value(e, v, v.type);
  }
  TypeKind vk = v.type->kind;
  switch (t->kind) {
  case TY_STRING:
    if (vk != TY_STRING)
      return enc_fail(e, "string is required");
    put_str(b, v.u.s, v.len);
    return true;
  case TY_NUMBER:
    if (vk != TY_NUMBER)
      return enc_fail(e, "number is required");
    put_number(b, v);
    return true;
  case TY_BOOL:
    if (vk != TY_BOOL)
      return enc_fail(e, "bool is required");
    put_u8(b, v.u.b ? 0xc3 : 0xc2);
    return true;
  case TY_LIST:
  case TY_SET:
    if (vk != t->kind)
      return enc_fail(e, t->kind == TY_LIST ? "list is required"
                                            : "set is required");
    put_len(b, v.len, 0x90, 15, 0, 0xdc, 0xdd);
    for (uint32_t i = 0; i < v.len; i++)
      if (!enc_child(e, PS_INDEX, NULL, i, v.u.elems[i], t->elem))
        return false;
    return true;
  case TY_TUPLE:
    if (vk != TY_TUPLE || v.len != t->n)
      return enc_fail(e, "tuple of the schema's length is required");
    put_len(b, v.len, 0x90, 15, 0, 0xdc, 0xdd);
    for (uint32_t i = 0; i < v.len; i++)
      if (!enc_child(e, PS_INDEX, NULL, i, v.u.elems[i], t->types[i]))
        return false;
    return true;
  case TY_MAP:
    if (vk != TY_MAP)
      return enc_fail(e, "map is required");
    put_len(b, v.len, 0x80, 15, 0, 0xde, 0xdf);
    for (uint32_t i = 0; i < v.len; i++) {
      const MapEntry *me = &v.u.entries[i];
      put_str(b, me->key, me->keylen);
      if (!enc_child(e, PS_KEY, me->key, 0, me->val, t->elem))
        return false;
    }
    return true;
  case TY_OBJECT:
    if (vk != TY_OBJECT)
      return enc_fail(e, "object is required");
    for (uint32_t i = 0; i < v.type->n; i++)
      if (ty_attr_index(t, v.type->names[i]) < 0)
        return enc_fail(e, arena_printf(b->arena, "unsupported attribute "
                                        "\"%s\"", v.type->names[i]));
    put_len(b, t->n, 0x80, 15, 0, 0xde, 0xdf);
    for (uint32_t i = 0; i < t->n; i++) {
      bool found;
      Value av = val_attr(v, t->names[i], &found);
      if (!found)
        av = val_null(t->types[i]);
      put_str(b, t->names[i], strlen(t->names[i]));
      if (!enc_child(e, PS_ATTR, t->names[i], 0, av, t->types[i]))
        return false;
    }
    return true;
  case TY_DYNAMIC:
    break;
  }
  return enc_fail(e, "unsupported type");
}

bool msgpack_encode(Buf *out, Value v, const Type *t, Diags *d,
                    const char *summary)
{
  Enc *e = ARENA_NEW(d->arena, Enc, 1);
  e->out = out;
  e->d = d;
  e->summary = summary;
  return enc_value(e, v, t);
}

/* ---- Decoding ------------------------------------------------------------ */

typedef enum TokKind {
  TK_NIL, TK_BOOL, TK_INT, TK_UINT, TK_FLOAT, TK_STR, TK_BIN, TK_ARRAY,
  TK_MAP, TK_EXT
} TokKind;

typedef struct Tok {
  TokKind kind;
  bool b;
  int64_t i;
  uint64_t u;
  double d;
  const uint8_t *p;      /* TK_STR, TK_BIN, TK_EXT payload */
  uint32_t n;            /* byte length, or element / pair count */
  int8_t ext;            /* TK_EXT type code */
} Tok;

typedef struct Dec {
  Arena *a;
  const uint8_t *p, *end;
  uint32_t depth;
  const char *msg;       /* the first error */
  PathStep steps[MSGPACK_MAX_DEPTH];  /* path, innermost last, on error */
  uint32_t nsteps;
  bool pathing;          /* error seen: unwinding records steps */
} Dec;

static bool dfail(Dec *r, const char *msg)
{
  if (!r->msg)
    r->msg = msg;
  return false;
}

/* Records one step of the path while the failure unwinds (innermost
** first; reversed when reported). */
static void dstep(Dec *r, PathStepKind k, const char *name, int64_t idx)
{
  if (r->nsteps < MSGPACK_MAX_DEPTH)
    r->steps[r->nsteps++] = (PathStep){k, name, idx};
}

static bool take(Dec *r, size_t n, const uint8_t **out)
{
  if ((size_t)(r->end - r->p) < n)
    return dfail(r, "unexpected end of msgpack data");
  *out = r->p;
  r->p += n;
  return true;
}

static bool be(Dec *r, int nbytes, uint64_t *out)
{
  const uint8_t *q;
  if (!take(r, (size_t)nbytes, &q))
    return false;
  uint64_t v = 0;
  for (int i = 0; i < nbytes; i++)
    v = (v << 8) | q[i];
  *out = v;
  return true;
}

static bool tok_bytes(Dec *r, Tok *t, TokKind k, int lenbytes)
{
  uint64_t n;
  if (!be(r, lenbytes, &n))
    return false;
  t->kind = k;
  t->n = (uint32_t)n;
  return take(r, (size_t)n, &t->p);
}

static bool tok_count(Dec *r, Tok *t, TokKind k, uint64_t n)
{
  /* Every element takes at least one byte (a pair two): a count beyond
  ** what is left is malformed, and must not size an allocation. */
  uint64_t left = (uint64_t)(r->end - r->p);
  if (n > left || (k == TK_MAP && n * 2 > left))
    return dfail(r, "unexpected end of msgpack data");
  t->kind = k;
  t->n = (uint32_t)n;
  return true;
}

static bool tok_ext(Dec *r, Tok *t, uint64_t n)
{
  const uint8_t *q;
  if (!take(r, 1, &q))
    return false;
  t->kind = TK_EXT;
  t->ext = (int8_t)q[0];
  t->n = (uint32_t)n;
  return take(r, (size_t)n, &t->p);
}

static bool next(Dec *r, Tok *t)
{
  const uint8_t *q;
  if (!take(r, 1, &q))
    return false;
  uint8_t c = q[0];
  uint64_t u;
  memset(t, 0, sizeof *t);
  if (c <= 0x7f) {
    t->kind = TK_INT;
    t->i = c;
    return true;
  }
  if (c >= 0xe0) {
    t->kind = TK_INT;
    t->i = (int8_t)c;
    return true;
  }
  if (c >= 0x80 && c <= 0x8f)
    return tok_count(r, t, TK_MAP, c & 0x0f);
  if (c >= 0x90 && c <= 0x9f)
    return tok_count(r, t, TK_ARRAY, c & 0x0f);
  if (c >= 0xa0 && c <= 0xbf) {
    t->kind = TK_STR;
    t->n = c & 0x1f;
    return take(r, t->n, &t->p);
  }
  switch (c) {
  case 0xc0: t->kind = TK_NIL; return true;
  case 0xc2: case 0xc3: t->kind = TK_BOOL; t->b = c == 0xc3; return true;
  case 0xc4: return tok_bytes(r, t, TK_BIN, 1);
  case 0xc5: return tok_bytes(r, t, TK_BIN, 2);
  case 0xc6: return tok_bytes(r, t, TK_BIN, 4);
  case 0xc7: return be(r, 1, &u) && tok_ext(r, t, u);
  case 0xc8: return be(r, 2, &u) && tok_ext(r, t, u);
  case 0xc9: return be(r, 4, &u) && tok_ext(r, t, u);
  case 0xca: {
    if (!be(r, 4, &u))
      return false;
    uint32_t u32 = (uint32_t)u;
    float f;
    memcpy(&f, &u32, sizeof f);
    t->kind = TK_FLOAT;
    t->d = (double)f;
    return true;
  }
  case 0xcb:
    if (!be(r, 8, &u))
      return false;
    t->kind = TK_FLOAT;
    memcpy(&t->d, &u, sizeof t->d);
    return true;
  case 0xcc: case 0xcd: case 0xce: case 0xcf:
    if (!be(r, 1 << (c - 0xcc), &u))
      return false;
    if (u <= INT64_MAX) {
      t->kind = TK_INT;
      t->i = (int64_t)u;
    } else {
      t->kind = TK_UINT;
      t->u = u;
    }
    return true;
  case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
    int nb = 1 << (c - 0xd0);
    if (!be(r, nb, &u))
      return false;
    /* Sign-extend from nb bytes. */
    if (nb < 8 && (u >> (8 * nb - 1)) & 1)
      u |= ~(uint64_t)0 << (8 * nb);
    t->kind = TK_INT;
    t->i = (int64_t)u;
    return true;
  }
  case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
    return tok_ext(r, t, (uint64_t)1 << (c - 0xd4));
  case 0xd9: return tok_bytes(r, t, TK_STR, 1);
  case 0xda: return tok_bytes(r, t, TK_STR, 2);
  case 0xdb: return tok_bytes(r, t, TK_STR, 4);
  case 0xdc: return be(r, 2, &u) && tok_count(r, t, TK_ARRAY, u);
  case 0xdd: return be(r, 4, &u) && tok_count(r, t, TK_ARRAY, u);
  case 0xde: return be(r, 2, &u) && tok_count(r, t, TK_MAP, u);
  case 0xdf: return be(r, 4, &u) && tok_count(r, t, TK_MAP, u);
  default: break;
  }
  return dfail(r, arena_printf(r->a, "invalid msgpack byte 0x%02x", c));
}

static bool dec_value(Dec *r, const Type *t, Value *out);

/* A string key (map key or attribute name), NUL-terminated in r->a. */
static bool dec_key(Dec *r, const char **key, uint32_t *len)
{
  Tok k;
  if (!next(r, &k))
    return false;
  if (k.kind != TK_STR && k.kind != TK_BIN)
    return dfail(r, "map keys must be strings");
  *key = arena_strndup(r->a, (const char *)k.p, k.n);
  *len = k.n;
  return true;
}

static bool dec_number(Dec *r, const Tok *k, Value *out)
{
  switch (k->kind) {
  case TK_INT:
    *out = val_int(k->i);
    return true;
  case TK_UINT: {
    char s[32];
    int n = snprintf(s, sizeof s, "%llu", (unsigned long long)k->u);
    return val_parse_number(r->a, s, (size_t)n, true, out) ||
           dfail(r, "a number is required");
  }
  case TK_FLOAT:
    if (isnan(k->d))
      return dfail(r, "NaN is not a number");
    *out = val_double(k->d);
    return true;
  case TK_STR:
    if (memchr(k->p, 0, k->n) ||
        !val_parse_number(r->a, (const char *)k->p, k->n, true, out))
      return dfail(r, "a number is required");
    return true;
  default:
    return dfail(r, "number is required");
  }
}

static bool dec_elems(Dec *r, const Tok *k, const Type *t, Value **vals)
{
  *vals = ARENA_NEW(r->a, Value, k->n);
  for (uint32_t i = 0; i < k->n; i++) {
    const Type *et = t->kind == TY_TUPLE ? t->types[i] : t->elem;
    if (!dec_value(r, et, &(*vals)[i])) {
      dstep(r, PS_INDEX, NULL, i);
      return false;
    }
  }
  return true;
}

static int cmp_entry(const void *x, const void *y)
{
  const MapEntry *a = x, *b = y;
  uint32_t n = a->keylen < b->keylen ? a->keylen : b->keylen;
  int c = memcmp(a->key, b->key, n);
  if (c)
    return c;
  if (a->keylen != b->keylen)
    return a->keylen < b->keylen ? -1 : 1;
  return 0;
}

/* A decoded map entry and its position in the input: equal keys sort by
** position, so the last one is kept (dec_map). */
typedef struct Pos {
  MapEntry e;
  uint32_t at;
} Pos;

static int cmp_pos(const void *x, const void *y)
{
  const Pos *a = x, *b = y;
  int c = cmp_entry(&a->e, &b->e);
  if (c)
    return c;
  return a->at < b->at ? -1 : a->at > b->at;
}

static bool dec_map(Dec *r, const Tok *k, const Type *t, Value *out)
{
  Pos *ps = ARENA_NEW(r->a, Pos, k->n);
  for (uint32_t i = 0; i < k->n; i++) {
    ps[i].at = i;
    if (!dec_key(r, &ps[i].e.key, &ps[i].e.keylen))
      return false;
    if (!dec_value(r, t->elem, &ps[i].e.val)) {
      dstep(r, PS_KEY, ps[i].e.key, 0);
      return false;
    }
  }
  /* Duplicate keys: the last one wins, as in go-cty (a Go map). */
  qsort(ps, k->n, sizeof *ps, cmp_pos);
  MapEntry *me = ARENA_NEW(r->a, MapEntry, k->n);
  uint32_t n = 0;
  for (uint32_t i = 0; i < k->n; i++) {
    if (i + 1 < k->n && cmp_entry(&ps[i].e, &ps[i + 1].e) == 0)
      continue;
    me[n++] = ps[i].e;
  }
  const Type *et = ty_has_dynamic(t->elem) && n ? NULL : t->elem;
  *out = val_map(r->a, et, me, n);
  return true;
}

static bool dec_object(Dec *r, const Tok *k, const Type *t, Value *out)
{
  Value *vals = ARENA_NEW(r->a, Value, t->n);
  for (uint32_t i = 0; i < t->n; i++)
    vals[i] = val_null(t->types[i]);
  for (uint32_t i = 0; i < k->n; i++) {
    const char *key;
    uint32_t len;
    if (!dec_key(r, &key, &len))
      return false;
    int ai = strlen(key) == len ? ty_attr_index(t, key) : -1;
    if (ai < 0)
      return dfail(r, arena_printf(r->a, "unsupported attribute \"%s\"",
                                   key));
    if (!dec_value(r, t->types[ai], &vals[ai])) {
      dstep(r, PS_ATTR, t->names[ai], 0);
      return false;
    }
  }
  if (ty_has_dynamic(t))
    *out = val_object(r->a, t->n, t->names, vals);
  else
    *out = val_object_typed(t, vals);
  return true;
}

static bool dec_dynamic(Dec *r, const Tok *k, Value *out)
{
  if (k->kind != TK_ARRAY || k->n != 2)
    return dfail(r, "dynamic value must be a [type, value] pair");
  Tok tj;
  if (!next(r, &tj))
    return false;
  if (tj.kind != TK_STR && tj.kind != TK_BIN)
    return dfail(r, "dynamic value's type must be JSON bytes");
  Diags scratch;
  diag_init(&scratch, r->a);
  const Type *dt;
  if (!json_parse_type(r->a, (const char *)tj.p, tj.n, &dt, &scratch, NULL))
    return dfail(r, arena_printf(r->a, "invalid type in dynamic value: %s",
                                 scratch.head ? scratch.head->summary : ""));
  return dec_value(r, dt, out);
}

static bool dec_value(Dec *r, const Type *t, Value *out)
{
  if (r->depth >= MSGPACK_MAX_DEPTH)
    return dfail(r, "msgpack value nested too deeply");
  Tok k;
  if (!next(r, &k))
    return false;
  if (k.kind == TK_NIL) {
    *out = val_null(t);
    return true;
  }
  if (k.kind == TK_EXT) {
    /* 0: unknown; 12: unknown with refinements (not kept). */
    if (k.ext != 0 && k.ext != 12)
      return dfail(r, arena_printf(r->a, "unsupported msgpack extension "
                                   "type %d", k.ext));
    *out = val_unknown(t);
    return true;
  }
  r->depth++;
  bool ok = false;
  switch (t->kind) {
  case TY_DYNAMIC:
    ok = dec_dynamic(r, &k, out);
    break;
  case TY_STRING:
    if (k.kind == TK_STR || k.kind == TK_BIN) {
      *out = val_str(r->a, (const char *)k.p, k.n);
      ok = true;
    } else {
      ok = dfail(r, "string is required");
    }
    break;
  case TY_NUMBER:
    ok = dec_number(r, &k, out);
    break;
  case TY_BOOL:
    if (k.kind == TK_BOOL) {
      *out = val_bool(k.b);
      ok = true;
    } else {
      ok = dfail(r, "bool is required");
    }
    break;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE: {
    if (k.kind != TK_ARRAY) {
      ok = dfail(r, t->kind == TY_LIST ? "list is required"
                    : t->kind == TY_SET ? "set is required"
                                        : "tuple is required");
      break;
    }
    if (t->kind == TY_TUPLE && k.n != t->n) {
      ok = dfail(r, arena_printf(r->a, "tuple needs %u elements, not %u",
                                 (unsigned)t->n, (unsigned)k.n));
      break;
    }
    Value *vals;
    if (!dec_elems(r, &k, t, &vals))
      break;
    if (t->kind == TY_TUPLE) {
      *out = val_tuple(r->a, vals, k.n);
    } else {
      const Type *et = ty_has_dynamic(t->elem) && k.n ? NULL : t->elem;
      *out = t->kind == TY_LIST ? val_list(r->a, et, vals, k.n)
                                : val_set(r->a, et, vals, k.n);
    }
    ok = true;
    break;
  }
  case TY_MAP:
    ok = k.kind == TK_MAP ? dec_map(r, &k, t, out)
                          : dfail(r, "map is required");
    break;
  case TY_OBJECT:
    ok = k.kind == TK_MAP ? dec_object(r, &k, t, out)
                          : dfail(r, "object is required");
    break;
  }
  r->depth--;
  return ok;
}

bool msgpack_decode(Arena *a, const uint8_t *buf, size_t len, const Type *t,
                    Value *out, Diags *d, const char *summary)
{
  Dec *r = ARENA_NEW(a, Dec, 1);
  r->a = a;
  r->p = buf;
  r->end = buf + len;
  bool ok = dec_value(r, t, out);
  if (ok && r->p != r->end) {
    ok = false;
    dfail(r, "trailing bytes after the msgpack value");
  }
  if (ok)
    return true;
  /* The steps were recorded innermost first. */
  PathStep *steps = ARENA_NEW(a, PathStep, r->nsteps ? r->nsteps : 1);
  for (uint32_t i = 0; i < r->nsteps; i++)
    steps[i] = r->steps[r->nsteps - 1 - i];
  Buf p;
  buf_init(&p, a);
  val_path_format(&p, (ValPath){steps, r->nsteps}, true);
  diag_error(d, NULL, summary, "%s%s%s", p.len ? buf_str(&p) : "",
             p.len ? ": " : "", r->msg ? r->msg : "malformed msgpack");
  *out = val_null(t);
  return false;
}
