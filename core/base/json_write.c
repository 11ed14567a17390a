/*
** json_write.c: the JSON writer (JsonW): Go's encoding/json escaping and
** layout (compact or MarshalIndent), cty's type syntax out, raw documents
** re-indented, and cty values as go-cty's json.Marshal writes them.
*/
#include "json_priv.h"

#include <math.h>
#include <string.h>

/* 0: copy as is; 1: short escape or \u00XX; 2: non-ASCII, check. */
static const uint8_t esc_class[256] = {
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* " & */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,   /* < > */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,   /* \ */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

void json_write_string(Buf *out, const char *s, size_t n)
{
  static const char hex[] = "0123456789abcdef";
  buf_reserve(out, n + 2);
  buf_putc(out, '"');
  size_t run = 0;   /* start of the pending plain run */
  size_t i = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    uint8_t k = esc_class[c];
    if (k == 0) {
      i++;
      continue;
    }
    size_t len = 1;
    if (k == 2) {
      len = json_utf8_len((const unsigned char *)s + i,
                          (const unsigned char *)s + n);
      bool ls = len == 3 && c == 0xE2 && (unsigned char)s[i + 1] == 0x80 &&
                ((unsigned char)s[i + 2] & 0xFE) == 0xA8;
      if (len && !ls) {
        i += len;
        continue;
      }
      buf_put(out, s + run, i - run);
      if (ls) {
        buf_puts(out, (unsigned char)s[i + 2] == 0xA8 ? "\\u2028"
                                                      : "\\u2029");
        i += 3;
      } else {
        buf_puts(out, "\\ufffd");
        i++;
      }
      run = i;
      continue;
    }
    buf_put(out, s + run, i - run);
    char e[6];
    size_t en = 2;
    e[0] = '\\';
    switch (c) {
    case '"': e[1] = '"'; break;
    case '\\': e[1] = '\\'; break;
    case '\n': e[1] = 'n'; break;
    case '\r': e[1] = 'r'; break;
    case '\t': e[1] = 't'; break;
    case '\b': e[1] = 'b'; break;
    case '\f': e[1] = 'f'; break;
    default:
      e[1] = 'u';
      e[2] = '0';
      e[3] = '0';
      e[4] = hex[c >> 4];
      e[5] = hex[c & 15];
      en = 6;
    }
    buf_put(out, e, en);
    i += len;
    run = i;
  }
  buf_put(out, s + run, n - run);
  buf_putc(out, '"');
}

void json_w_init(JsonW *w, Buf *out, unsigned flags)
{
  w->out = out;
  w->flags = flags;
  w->depth = 0;
  w->first = true;
  w->after_key = false;
}

static void w_newline(JsonW *w, uint32_t depth)
{
  Buf *b = w->out;
  size_t n = 1 + (size_t)depth * 2;
  buf_reserve(b, n);
  b->p[b->len] = '\n';
  memset(b->p + b->len + 1, ' ', n - 1);
  b->len += n;
  b->p[b->len] = 0;
}

/* Separator and layout before a value or key. */
static void w_pre(JsonW *w)
{
  if (w->after_key) {
    w->after_key = false;
    return;
  }
  if (w->depth == 0)
    return;
  if (!w->first)
    buf_putc(w->out, ',');
  if (w->flags & JSON_W_INDENT)
    w_newline(w, w->depth);
  w->first = false;
}

static void w_open(JsonW *w, char c)
{
  w_pre(w);
  buf_putc(w->out, c);
  w->depth++;
  w->first = true;
}

static void w_close(JsonW *w, char c)
{
  if (w->depth)
    w->depth--;
  if (!w->first && (w->flags & JSON_W_INDENT))
    w_newline(w, w->depth);
  buf_putc(w->out, c);
  w->first = false;
}

void json_w_begin_object(JsonW *w) { w_open(w, '{'); }
void json_w_end_object(JsonW *w) { w_close(w, '}'); }
void json_w_begin_array(JsonW *w) { w_open(w, '['); }
void json_w_end_array(JsonW *w) { w_close(w, ']'); }

void json_w_key(JsonW *w, const char *key, size_t n)
{
  w_pre(w);
  json_write_string(w->out, key, n);
  if (w->flags & JSON_W_INDENT)
    buf_put(w->out, ": ", 2);
  else
    buf_putc(w->out, ':');
  w->after_key = true;
}

void json_w_keyz(JsonW *w, const char *key) { json_w_key(w, key, strlen(key)); }

void json_w_string(JsonW *w, const char *s, size_t n)
{
  w_pre(w);
  json_write_string(w->out, s, n);
}

void json_w_stringz(JsonW *w, const char *s) { json_w_string(w, s, strlen(s)); }

void json_w_number_lit(JsonW *w, const char *s, size_t n)
{
  w_pre(w);
  buf_put(w->out, s, n);
}

void json_w_int(JsonW *w, int64_t i)
{
  w_pre(w);
  buf_printf(w->out, "%lld", (long long)i);
}

void json_w_uint(JsonW *w, uint64_t u)
{
  w_pre(w);
  buf_printf(w->out, "%llu", (unsigned long long)u);
}

void json_w_bool(JsonW *w, bool b)
{
  w_pre(w);
  buf_puts(w->out, b ? "true" : "false");
}

void json_w_null(JsonW *w)
{
  w_pre(w);
  buf_put(w->out, "null", 4);
}

void json_w_raw(JsonW *w, const char *s, size_t n)
{
  const char *p = s, *end = s + n;
  while (p < end) {
    char c = *p;
    switch (c) {
    case ' ': case '\t': case '\n': case '\r': case ',':
      p++;
      break;
    case '{':
    case '[': {
      char close = c == '{' ? '}' : ']';
      w_open(w, c);
      p = json_skip_ws(p + 1, end);
      if (p < end && *p == close) {
        w_close(w, close);
        p++;
      }
      break;
    }
    case '}':
    case ']':
      w_close(w, c);
      p++;
      break;
    case ':':
      if (w->flags & JSON_W_INDENT)
        buf_put(w->out, ": ", 2);
      else
        buf_putc(w->out, ':');
      w->after_key = true;
      p++;
      break;
    case '"': {
      /* Copied verbatim except for Go's HTML-safe escapes, which
      ** json.Marshal applies to raw messages too. */
      w_pre(w);
      const char *q = p + 1;
      buf_putc(w->out, '"');
      while (q < end && *q != '"') {
        unsigned char b = (unsigned char)*q;
        if (b == '\\' && q + 1 < end) {
          buf_put(w->out, q, 2);
          q += 2;
        } else if (b == '<' || b == '>' || b == '&') {
          buf_printf(w->out, "\\u00%02x", b);
          q++;
        } else if (b == 0xE2 && end - q >= 3 && (unsigned char)q[1] == 0x80 &&
                   ((unsigned char)q[2] & 0xFE) == 0xA8) {
          buf_puts(w->out, (unsigned char)q[2] == 0xA8 ? "\\u2028"
                                                       : "\\u2029");
          q += 3;
        } else {
          buf_putc(w->out, (char)b);
          q++;
        }
      }
      buf_putc(w->out, '"');
      p = q < end ? q + 1 : q;
      break;
    }
    default: {
      w_pre(w);
      const char *q = p;
      while (q < end && !json_is_ws((unsigned char)*q) && *q != ',' &&
             *q != '}' && *q != ']' && *q != ':')
        q++;
      buf_put(w->out, p, (size_t)(q - p));
      p = q;
      break;
    }
    }
  }
}

void json_w_type(JsonW *w, const Type *t)
{
  switch (t->kind) {
  case TY_DYNAMIC: json_w_string(w, "dynamic", 7); return;
  case TY_STRING: json_w_string(w, "string", 6); return;
  case TY_NUMBER: json_w_string(w, "number", 6); return;
  case TY_BOOL: json_w_string(w, "bool", 4); return;
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    json_w_begin_array(w);
    json_w_stringz(w, t->kind == TY_LIST ? "list"
                      : t->kind == TY_SET ? "set" : "map");
    json_w_type(w, t->elem);
    json_w_end_array(w);
    return;
  case TY_TUPLE:
    json_w_begin_array(w);
    json_w_string(w, "tuple", 5);
    json_w_begin_array(w);
    for (uint32_t i = 0; i < t->n; i++)
      json_w_type(w, t->types[i]);
    json_w_end_array(w);
    json_w_end_array(w);
    return;
  case TY_OBJECT: {
    json_w_begin_array(w);
    json_w_string(w, "object", 6);
    json_w_begin_object(w);
    bool any_opt = false;
    for (uint32_t i = 0; i < t->n; i++) {
      json_w_keyz(w, t->names[i]);
      json_w_type(w, t->types[i]);
      if (t->optional && t->optional[i])
        any_opt = true;
    }
    json_w_end_object(w);
    if (any_opt) {
      json_w_begin_array(w);
      for (uint32_t i = 0; i < t->n; i++)
        if (t->optional[i])
          json_w_stringz(w, t->names[i]);
      json_w_end_array(w);
    }
    json_w_end_array(w);
    return;
  }
  }
}

void json_write_type(Buf *out, const Type *t)
{
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_type(&w, t);
}

typedef struct WCtx {
  JsonW *w;
  JsonTCtx t;     /* error message and path */
} WCtx;

static bool wvalue(WCtx *c, Value v, const Type *t)
{
  JsonW *w = c->w;
  if ((w->flags & JSON_W_REJECT_MARKS) && (v.flags & VF_SENSITIVE))
    return json_tfail(&c->t, "value has marks, so it cannot be serialized as "
                             "JSON");
  if (t->kind == TY_DYNAMIC && v.type->kind != TY_DYNAMIC) {
    json_w_begin_object(w);
    json_w_key(w, "value", 5);
    if (!wvalue(c, v, v.type))
      return false;
    json_w_key(w, "type", 4);
    json_w_type(w, v.type);
    json_w_end_object(w);
    return true;
  }
  if (v.flags & VF_NULL) {
    json_w_null(w);
    return true;
  }
  if (v.flags & VF_UNKNOWN) {
    if (w->flags & JSON_W_UNKNOWN_NULL) {
      json_w_null(w);
      return true;
    }
    return json_tfail(&c->t, "value is not known");
  }
  /* Encode against t when it has v's shape, else against v's own type. */
  if (t->kind != v.type->kind ||
      ((t->kind == TY_OBJECT || t->kind == TY_TUPLE) && t->n != v.type->n))
    t = v.type;
  switch (t->kind) {
  case TY_DYNAMIC:
    json_w_null(w);
    return true;
  case TY_STRING:
    json_w_string(w, v.u.s, v.len);
    return true;
  case TY_NUMBER:
    if (v.flags & VF_NUMLIT) {
      json_w_number_lit(w, v.u.s, v.len);
      return true;
    }
    if ((v.flags & VF_FLOAT) && !isfinite(v.u.d))
      return json_tfail(&c->t, "cannot serialize infinity as JSON");
    w_pre(w);
    val_num_format(w->out, v);
    return true;
  case TY_BOOL:
    json_w_bool(w, v.u.b);
    return true;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
    json_w_begin_array(w);
    for (uint32_t i = 0; i < v.len; i++) {
      const Type *et = t->kind == TY_TUPLE ? t->types[i] : t->elem;
      if (!wvalue(c, v.u.elems[i], et)) {
        json_tstep(&c->t, PS_INDEX, NULL, (int64_t)i);
        return false;
      }
    }
    json_w_end_array(w);
    return true;
  case TY_MAP:
    json_w_begin_object(w);
    for (uint32_t i = 0; i < v.len; i++) {
      const MapEntry *e = &v.u.entries[i];
      json_w_key(w, e->key, e->keylen);
      if (!wvalue(c, e->val, t->elem)) {
        json_tstep(&c->t, PS_KEY, e->key, 0);
        return false;
      }
    }
    json_w_end_object(w);
    return true;
  case TY_OBJECT:
    json_w_begin_object(w);
    for (uint32_t i = 0; i < v.type->n; i++) {
      json_w_keyz(w, v.type->names[i]);
      if (!wvalue(c, v.u.elems[i], t->types[i])) {
        json_tstep(&c->t, PS_ATTR, v.type->names[i], 0);
        return false;
      }
    }
    json_w_end_object(w);
    return true;
  }
  return json_tfail(&c->t, "unsupported type");
}

bool json_w_value(JsonW *w, Value v, const Type *t, Diags *d)
{
  WCtx c;
  memset(&c, 0, sizeof c);
  c.w = w;
  c.t.a = w->out->arena;
  if (wvalue(&c, v, t ? t : v.type))
    return true;
  json_treport(&c.t, d, NULL);
  return false;
}

bool json_write_value(Buf *out, Value v, const Type *t, unsigned flags,
                      Diags *d)
{
  JsonW w;
  json_w_init(&w, out, flags);
  return json_w_value(&w, v, t, d);
}
