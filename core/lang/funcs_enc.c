/*
** funcs_enc: encoding functions (Terraform's encoding.go, cty's csv.go
** and json.go): base64 in its variants, gzip, CSV, JSON, URL encoding
** and text encodings.
**
** base64gzip writes a valid gzip stream with stored (uncompressed)
** DEFLATE blocks: any gunzip reads it back, but the bytes differ from
** Terraform's (Go's compress/gzip at the default level).
*/
#include <string.h>

#include "base/b64.h"
#include "base/json.h"
#include "funcs_impl.h"

bool fn_base64encode(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Buf b;
  buf_init(&b, c->arena);
  b64_put(&b, a[0].u.s, a[0].len, false, true);
  *out = fn_buf_val(&b);
  return true;
}

static const char *go_quote(FnCall *c, Value s)
{
  Buf b;
  buf_init(&b, c->arena);
  json_write_string(&b, s.u.s, s.len);
  return buf_str(&b);
}

bool fn_base64decode(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Buf b;
  buf_init(&b, c->arena);
  uint8_t *raw;
  size_t len, bad;
  if (!b64_decode(c->arena, a[0].u.s, a[0].len, &raw, &len, &bad))
    return fn_arg_error(c, 0, "failed to decode base64 data %s",
                        go_quote(c, a[0]));
  buf_put(&b, raw, len);
  if (!fn_utf8_valid(b.p ? b.p : "", b.len))
    return fn_arg_error(c, 0, "the result of decoding the provided string is "
                              "not valid UTF-8");
  *out = fn_buf_val(&b);
  return true;
}

static uint32_t crc32(const uint8_t *p, size_t n)
{
  static uint32_t table[256];
  static int init;
  if (!init) {
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;
      for (int k = 0; k < 8; k++)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    init = 1;
  }
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++)
    c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

static void put_le32(Buf *b, uint32_t v)
{
  char t[4] = {(char)(v & 0xFF), (char)((v >> 8) & 0xFF),
               (char)((v >> 16) & 0xFF), (char)(v >> 24)};
  buf_put(b, t, 4);
}

bool fn_base64gzip(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const uint8_t *p = (const uint8_t *)a[0].u.s;
  size_t len = a[0].len;
  Buf z;
  buf_init(&z, c->arena);
  static const char hdr[10] = {0x1f, (char)0x8b, 8, 0, 0, 0, 0, 0, 0,
                               (char)0xff};
  buf_put(&z, hdr, 10);
  size_t i = 0;
  do {
    size_t chunk = len - i > 65535 ? 65535 : len - i;
    bool last = i + chunk >= len;
    char bh[5] = {(char)(last ? 1 : 0), (char)(chunk & 0xFF),
                  (char)(chunk >> 8), (char)(~chunk & 0xFF),
                  (char)((~chunk >> 8) & 0xFF)};
    buf_put(&z, bh, 5);
    buf_put(&z, p + i, chunk);
    i += chunk;
  } while (i < len);
  put_le32(&z, crc32(p, len));
  put_le32(&z, (uint32_t)len);
  Buf b;
  buf_init(&b, c->arena);
  b64_put(&b, z.p, z.len, false, true);
  *out = fn_buf_val(&b);
  return true;
}

/* ---- URL encoding --------------------------------------------------------- */

bool fn_urlencode(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Buf b;
  buf_init(&b, c->arena);
  for (size_t i = 0; i < a[0].len; i++) {
    unsigned char ch = (unsigned char)a[0].u.s[i];
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
        (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.' ||
        ch == '~')
      buf_putc(&b, (char)ch);
    else if (ch == ' ')
      buf_putc(&b, '+');
    else
      buf_printf(&b, "%%%02X", ch);
  }
  *out = fn_buf_val(&b);
  return true;
}

static int hexval(char h)
{
  return (h >= '0' && h <= '9') ? h - '0' :
         (h >= 'a' && h <= 'f') ? h - 'a' + 10 :
         (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
}

bool fn_urldecode(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Buf b;
  buf_init(&b, c->arena);
  const char *s = a[0].u.s;
  for (size_t i = 0; i < a[0].len; i++) {
    if (s[i] == '+') {
      buf_putc(&b, ' ');
    } else if (s[i] == '%') {
      int h = i + 1 < a[0].len ? hexval(s[i + 1]) : -1;
      int l = i + 2 < a[0].len ? hexval(s[i + 2]) : -1;
      if (h < 0 || l < 0) {
        size_t e = i + 3 <= a[0].len ? i + 3 : a[0].len;
        return fn_error(c, "invalid URL escape \"%.*s\"", (int)(e - i), s + i);
      }
      buf_putc(&b, (char)(h * 16 + l));
      i += 2;
    } else {
      buf_putc(&b, s[i]);
    }
  }
  *out = fn_buf_val(&b);
  return true;
}

/* ---- Text encodings ----------------------------------------------------------- */

typedef enum Enc { E_UTF8, E_UTF16LE, E_UTF16BE, E_UTF16, E_LATIN1, E_ASCII,
                   E_NONE } Enc;

static Enc enc_lookup(Value name)
{
  static const struct {
    const char *n;
    Enc e;
  } names[] = {
      {"utf-8", E_UTF8},        {"utf8", E_UTF8},
      {"unicode-1-1-utf-8", E_UTF8},
      {"utf-16le", E_UTF16LE},  {"utf-16be", E_UTF16BE},
      {"utf-16", E_UTF16},      {"iso-8859-1", E_LATIN1},
      {"iso_8859-1", E_LATIN1}, {"latin1", E_LATIN1},
      {"l1", E_LATIN1},         {"iso-ir-100", E_LATIN1},
      {"ibm819", E_LATIN1},     {"cp819", E_LATIN1},
      {"csisolatin1", E_LATIN1}, {"iso_8859-1:1987", E_LATIN1},
      {"us-ascii", E_ASCII},    {"ascii", E_ASCII},
      {"ansi_x3.4-1968", E_ASCII}, {"iso646-us", E_ASCII},
      {"csascii", E_ASCII},
  };
  char low[64];
  if (name.len >= sizeof low)
    return E_NONE;
  for (size_t i = 0; i < name.len; i++) {
    char ch = name.u.s[i];
    low[i] = (ch >= 'A' && ch <= 'Z') ? (char)(ch + 32) : ch;
  }
  low[name.len] = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(low, names[i].n))
      return names[i].e;
  return E_NONE;
}

static void put16(Buf *b, uint32_t u, bool le)
{
  char t[2] = {(char)(le ? u & 0xFF : u >> 8), (char)(le ? u >> 8 : u & 0xFF)};
  buf_put(b, t, 2);
}

bool fn_textencodebase64(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Enc e = enc_lookup(a[1]);
  if (e == E_NONE)
    return fn_arg_error(c, 1, "%s is not a supported IANA encoding name or "
                              "alias in this Terraform version",
                        go_quote(c, a[1]));
  Buf raw;
  buf_init(&raw, c->arena);
  const char *s = a[0].u.s;
  size_t i = 0;
  if (e == E_UTF16)
    put16(&raw, 0xFEFF, false);
  while (i < a[0].len) {
    size_t l;
    uint32_t r = fn_utf8_dec(s + i, a[0].len - i, &l);
    switch (e) {
    case E_UTF8:
      buf_put(&raw, s + i, l);
      break;
    case E_UTF16LE:
    case E_UTF16BE:
    case E_UTF16: {
      bool le = e == E_UTF16LE;
      if (r >= 0x10000) {
        uint32_t v = r - 0x10000;
        put16(&raw, 0xD800 | (v >> 10), le);
        put16(&raw, 0xDC00 | (v & 0x3FF), le);
      } else {
        put16(&raw, r, le);
      }
      break;
    }
    case E_LATIN1:
    case E_ASCII:
      if (r > (e == E_ASCII ? 0x7Fu : 0xFFu))
        return fn_arg_error(c, 0, "the given string contains characters that "
                                  "cannot be represented in %s",
                            a[1].u.s);
      buf_putc(&raw, (char)r);
      break;
    case E_NONE:
      break;
    }
    i += l;
  }
  Buf b;
  buf_init(&b, c->arena);
  b64_put(&b, raw.p ? raw.p : "", raw.len, false, true);
  *out = fn_buf_val(&b);
  return true;
}

bool fn_textdecodebase64(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Enc e = enc_lookup(a[1]);
  if (e == E_NONE)
    return fn_arg_error(c, 1, "%s is not a supported IANA encoding name or "
                              "alias in this Terraform version",
                        go_quote(c, a[1]));
  uint8_t *p;
  size_t len, bad;
  if (!b64_decode(c->arena, a[0].u.s, a[0].len, &p, &len, &bad))
    return fn_arg_error(c, 0, "the given value is has an invalid base64 "
                              "symbol at offset %zu", bad);
  Buf b;
  buf_init(&b, c->arena);
  switch (e) {
  case E_UTF8:
    if (!fn_utf8_valid((const char *)p, len))
      return fn_arg_error(c, 0, "the given string contains symbols that are "
                                "not defined for %s", a[1].u.s);
    buf_put(&b, p, len);
    break;
  case E_UTF16LE:
  case E_UTF16BE:
  case E_UTF16: {
    bool le = e == E_UTF16LE;
    size_t i = 0;
    if (e == E_UTF16 && len >= 2) {
      if (p[0] == 0xFF && p[1] == 0xFE) {
        le = true;
        i = 2;
      } else if (p[0] == 0xFE && p[1] == 0xFF) {
        i = 2;
      }
    }
    for (; i + 1 < len; i += 2) {
      uint32_t u = le ? (uint32_t)p[i] | (uint32_t)p[i + 1] << 8
                      : (uint32_t)p[i] << 8 | p[i + 1];
      if (u >= 0xD800 && u < 0xDC00 && i + 3 < len) {
        uint32_t u2 = le ? (uint32_t)p[i + 2] | (uint32_t)p[i + 3] << 8
                         : (uint32_t)p[i + 2] << 8 | p[i + 3];
        if (u2 >= 0xDC00 && u2 < 0xE000) {
          buf_put_utf8(&b, 0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00));
          i += 2;
          continue;
        }
      }
      buf_put_utf8(&b, (u >= 0xD800 && u < 0xE000) ? 0xFFFD : u);
    }
    if (i < len)
      buf_put_utf8(&b, 0xFFFD);
    break;
  }
  case E_LATIN1:
  case E_ASCII:
    for (size_t i = 0; i < len; i++)
      buf_put_utf8(&b, (e == E_ASCII && p[i] > 0x7F) ? 0xFFFD : p[i]);
    break;
  case E_NONE:
    break;
  }
  *out = fn_buf_val(&b);
  return true;
}

/* ---- CSV ----------------------------------------------------------------------- */

/* Go's encoding/csv reader with default options: one record per call.
** Returns 0 at end of input, 1 with a record, -1 on error (*err set). */
typedef struct Csv {
  const char *s;
  size_t n, i;
  int line;
} Csv;

static int csv_record(FnCall *c, Csv *r, Value **fields, uint32_t *nf,
                      const char **err)
{
  /* Skip empty lines. */
  while (r->i < r->n && (r->s[r->i] == '\n' ||
                         (r->s[r->i] == '\r' && r->i + 1 < r->n &&
                          r->s[r->i + 1] == '\n'))) {
    r->i += r->s[r->i] == '\r' ? 2 : 1;
    r->line++;
  }
  if (r->i >= r->n)
    return 0;
  int rec_line = r->line;
  uint32_t cap = 8;
  *fields = ARENA_NEW(c->arena, Value, cap);
  *nf = 0;
  for (;;) {
    Buf f;
    buf_init(&f, c->arena);
    size_t col = 0;
    {
      size_t k = r->i;
      while (k > 0 && r->s[k - 1] != '\n')
        k--;
      col = r->i - k + 1;
    }
    if (r->i < r->n && r->s[r->i] == '"') {
      r->i++;
      for (;;) {
        if (r->i >= r->n) {
          *err = arena_printf(c->arena, "parse error on line %d, column %zu: "
                                        "extraneous or missing \" in quoted-"
                                        "field", rec_line, col);
          return -1;
        }
        char ch = r->s[r->i];
        if (ch == '"') {
          if (r->i + 1 < r->n && r->s[r->i + 1] == '"') {
            buf_putc(&f, '"');
            r->i += 2;
            continue;
          }
          r->i++;
          if (r->i < r->n && r->s[r->i] != ',' && r->s[r->i] != '\n' &&
              !(r->s[r->i] == '\r' && r->i + 1 < r->n &&
                r->s[r->i + 1] == '\n')) {
            *err = arena_printf(c->arena, "parse error on line %d, column "
                                          "%zu: extraneous or missing \" in "
                                          "quoted-field", r->line, col);
            return -1;
          }
          break;
        }
        if (ch == '\r' && r->i + 1 < r->n && r->s[r->i + 1] == '\n') {
          buf_putc(&f, '\n');
          r->i += 2;
          r->line++;
          continue;
        }
        if (ch == '\n')
          r->line++;
        buf_putc(&f, ch);
        r->i++;
      }
    } else {
      size_t fstart = r->i;
      while (r->i < r->n && r->s[r->i] != ',' && r->s[r->i] != '\n' &&
             !(r->s[r->i] == '\r' && r->i + 1 < r->n &&
               r->s[r->i + 1] == '\n')) {
        if (r->s[r->i] == '"') {
          *err = arena_printf(c->arena, "parse error on line %d, column %zu: "
                                        "bare \" in non-quoted-field",
                              r->line, col + (r->i - fstart));
          return -1;
        }
        buf_putc(&f, r->s[r->i++]);
      }
    }
    if (*nf == cap) {
      *fields = arena_grow(c->arena, *fields, sizeof(Value), _Alignof(Value),
                           cap, cap * 2);
      cap *= 2;
    }
    (*fields)[(*nf)++] = fn_buf_val(&f);
    if (r->i < r->n && r->s[r->i] == ',') {
      r->i++;
      continue;
    }
    if (r->i < r->n)
      r->i += r->s[r->i] == '\r' ? 2 : 1;
    r->line++;
    return 1;
  }
}

bool fn_csvdecode(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Csv r = {a[0].u.s, a[0].len, 0, 1};
  Value *hdr;
  uint32_t nh;
  const char *err;
  int st = csv_record(c, &r, &hdr, &nh, &err);
  if (st == 0)
    return fn_error(c, "missing header line");
  if (st < 0)
    return fn_error(c, "%s", err);
  const char **names = ARENA_NEW(c->arena, const char *, nh);
  const Type **ts = ARENA_NEW(c->arena, const Type *, nh);
  for (uint32_t i = 0; i < nh; i++) {
    names[i] = hdr[i].u.s;
    ts[i] = &ty_string;
    for (uint32_t j = 0; j < i; j++)
      if (!strcmp(names[i], names[j]))
        return fn_error(c, "duplicate column name %s", go_quote(c, hdr[i]));
  }
  const Type *ot = ty_object(c->arena, nh, names, ts);
  uint32_t cap = 16, cnt = 0;
  Value *rows = ARENA_NEW(c->arena, Value, cap);
  for (;;) {
    Value *f;
    uint32_t nf;
    int rec_line = r.line;
    st = csv_record(c, &r, &f, &nf, &err);
    if (st == 0)
      break;
    if (st < 0)
      return fn_error(c, "%s", err);
    if (nf != nh)
      return fn_error(c, "record on line %d: wrong number of fields",
                      rec_line);
    /* Values in the object type's (sorted) attribute order. */
    Value *vals = ARENA_NEW(c->arena, Value, nh);
    for (uint32_t i = 0; i < nh; i++)
      vals[ty_attr_index(ot, names[i])] = f[i];
    if (cnt == cap) {
      rows = arena_grow(c->arena, rows, sizeof(Value), _Alignof(Value), cap,
                        cap * 2);
      cap *= 2;
    }
    rows[cnt++] = val_object_typed(ot, vals);
  }
  *out = val_list(c->arena, ot, rows, cnt);
  return true;
}

/* ---- JSON ------------------------------------------------------------------------ */

bool fn_jsonencode(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  if (val_is_null(a[0])) {
    *out = val_str_ref("null", 4);
    return true;
  }
  Buf b;
  buf_init(&b, c->arena);
  Diags d;
  diag_init(&d, c->arena);
  if (!json_write_value(&b, a[0], a[0].type, 0, &d))
    return fn_error(c, "%s", d.head ? d.head->summary : "cannot encode value");
  *out = fn_buf_val(&b);
  return true;
}

bool fn_jsondecode(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Diags d;
  diag_init(&d, c->arena);
  if (!json_parse(c->arena, a[0].u.s, a[0].len, out, &d, NULL)) {
    const char *m = d.head ? d.head->summary : "invalid JSON";
    return fn_error(c, "%s", m);
  }
  return true;
}
