/*
** funcs_misc: yamlencode, the provider::terraform:: functions and
** rsadecrypt.
**
** yamlencode writes what go-cty-yaml writes for the common cases: block
** style, every string double-quoted, sequences not indented under their
** key, empty collections as [] and {}.  encode_expr and encode_tfvars
** follow hclwrite's TokensForValue layout.  decode_tfvars needs the HCL
** parser, which the evaluator supplies through FnCall.decode_tfvars.
*/
#include <string.h>

#include "base/json.h"
#include "funcs_impl.h"

/* ---- yamlencode ------------------------------------------------------------ */

static void yaml_str(Buf *b, const char *s, size_t n)
{
  buf_putc(b, '"');
  size_t i = 0;
  while (i < n) {
    size_t l;
    uint32_t r = fn_utf8_dec(s + i, n - i, &l);
    switch (r) {
    case '"': buf_puts(b, "\\\""); break;
    case '\\': buf_puts(b, "\\\\"); break;
    case '\n': buf_puts(b, "\\n"); break;
    case '\t': buf_puts(b, "\\t"); break;
    case '\r': buf_puts(b, "\\r"); break;
    case 0: buf_puts(b, "\\0"); break;
    default:
      if (r < 0x20 || r == 0x7F)
        buf_printf(b, "\\x%02X", (unsigned)r);
      else if (r == 0x85)
        buf_puts(b, "\\N");
      else if (r == 0xA0)
        buf_puts(b, "\\_");
      else if (r == 0x2028)
        buf_puts(b, "\\L");
      else if (r == 0x2029)
        buf_puts(b, "\\P");
      else if (r == 0xFEFF)
        buf_puts(b, "\\uFEFF");
      else
        buf_put(b, s + i, l);
    }
    i += l;
  }
  buf_putc(b, '"');
}

static void indent(Buf *b, int n)
{
  for (int i = 0; i < n; i++)
    buf_putc(b, ' ');
}

static bool is_coll_nonempty(Value v)
{
  if (val_is_null(v))
    return false;
  switch (v.type->kind) {
  case TY_LIST: case TY_SET: case TY_TUPLE: case TY_MAP: case TY_OBJECT:
    return v.len > 0;
  default:
    return false;
  }
}

static bool is_seq_v(Value v)
{
  return v.type->kind == TY_LIST || v.type->kind == TY_SET ||
         v.type->kind == TY_TUPLE;
}

static void yaml_value(Buf *b, Value v, int ind);

static void yaml_scalar(Buf *b, Value v)
{
  v = val_unmark(v);
  if (val_is_null(v)) {
    buf_puts(b, "null");
    return;
  }
  switch (v.type->kind) {
  case TY_STRING:
    yaml_str(b, v.u.s, v.len);
    break;
  case TY_NUMBER:
    val_num_format(b, v);
    break;
  case TY_BOOL:
    buf_puts(b, v.u.b ? "true" : "false");
    break;
  default:
    buf_puts(b, is_seq_v(v) ? "[]" : "{}");
    break;
  }
}

/* Writes v (a non-empty collection) in block style at indentation ind;
** the caller is at the start of a line. */
static void yaml_value(Buf *b, Value v, int ind)
{
  v = val_unmark(v);
  if (is_seq_v(v)) {
    for (uint32_t i = 0; i < v.len; i++) {
      Value e = val_unmark(v.u.elems[i]);
      indent(b, ind);
      buf_puts(b, "- ");
      if (is_coll_nonempty(e)) {
        if (is_seq_v(e)) {
          /* Nested sequence starts on the same line, compact style. */
          Buf t;
          buf_init(&t, b->arena);
          yaml_value(&t, e, ind + 2);
          buf_puts(b, t.p + ind + 2);
        } else {
          Buf t;
          buf_init(&t, b->arena);
          yaml_value(&t, e, ind + 2);
          buf_puts(b, t.p + ind + 2);
        }
      } else {
        yaml_scalar(b, e);
        buf_putc(b, '\n');
      }
    }
    return;
  }
  for (uint32_t i = 0; i < v.len; i++) {
    const char *k;
    size_t kl;
    Value e;
    if (v.type->kind == TY_MAP) {
      k = v.u.entries[i].key;
      kl = v.u.entries[i].keylen;
      e = v.u.entries[i].val;
    } else {
      k = v.type->names[i];
      kl = strlen(k);
      e = v.u.elems[i];
    }
    e = val_unmark(e);
    indent(b, ind);
    yaml_str(b, k, kl);
    buf_putc(b, ':');
    if (is_coll_nonempty(e)) {
      buf_putc(b, '\n');
      yaml_value(b, e, is_seq_v(e) ? ind : ind + 2);
    } else {
      buf_putc(b, ' ');
      yaml_scalar(b, e);
      buf_putc(b, '\n');
    }
  }
}

bool fn_yamlencode(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Buf b;
  buf_init(&b, c->arena);
  Value v = val_unmark(a[0]);
  if (is_coll_nonempty(v)) {
    yaml_value(&b, v, 0);
  } else {
    yaml_scalar(&b, v);
    buf_putc(&b, '\n');
  }
  *out = fn_buf_val(&b);
  return true;
}

/* ---- HCL expression encoding ----------------------------------------------------- */

static bool is_ident(const char *s, size_t n)
{
  if (n == 0)
    return false;
  for (size_t i = 0; i < n; i++) {
    char ch = s[i];
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              ch == '_' || (ch & 0x80) || (i > 0 && ((ch >= '0' && ch <= '9')
                                                    || ch == '-'));
    if (!ok)
      return false;
  }
  return true;
}

static void hcl_str(Buf *b, const char *s, size_t n)
{
  buf_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    char ch = s[i];
    switch (ch) {
    case '"': buf_puts(b, "\\\""); break;
    case '\\': buf_puts(b, "\\\\"); break;
    case '\n': buf_puts(b, "\\n"); break;
    case '\r': buf_puts(b, "\\r"); break;
    case '\t': buf_puts(b, "\\t"); break;
    case '$':
    case '%':
      buf_putc(b, ch);
      if (i + 1 < n && s[i + 1] == '{')
        buf_putc(b, ch);
      break;
    default:
      if ((unsigned char)ch < 0x20)
        buf_printf(b, "\\u%04x", (unsigned char)ch);
      else
        buf_putc(b, ch);
    }
  }
  buf_putc(b, '"');
}

static void hcl_value(Buf *b, Value v, int ind)
{
  v = val_unmark(v);
  if (val_is_null(v)) {
    buf_puts(b, "null");
    return;
  }
  switch (v.type->kind) {
  case TY_STRING:
    hcl_str(b, v.u.s, v.len);
    return;
  case TY_NUMBER:
    val_num_format(b, v);
    return;
  case TY_BOOL:
    buf_puts(b, v.u.b ? "true" : "false");
    return;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
    buf_putc(b, '[');
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_puts(b, ", ");
      hcl_value(b, v.u.elems[i], ind);
    }
    buf_putc(b, ']');
    return;
  case TY_MAP:
  case TY_OBJECT: {
    if (v.len == 0) {
      buf_puts(b, "{}");
      return;
    }
    /* hclwrite aligns the equals signs of consecutive attributes. */
    size_t w = 0;
    for (uint32_t i = 0; i < v.len; i++) {
      const char *k = v.type->kind == TY_MAP ? v.u.entries[i].key
                                             : v.type->names[i];
      size_t kl = strlen(k);
      size_t kw = is_ident(k, kl) ? kl : kl + 2;
      if (kw > w)
        w = kw;
    }
    buf_puts(b, "{\n");
    for (uint32_t i = 0; i < v.len; i++) {
      const char *k = v.type->kind == TY_MAP ? v.u.entries[i].key
                                             : v.type->names[i];
      Value e = v.type->kind == TY_MAP ? v.u.entries[i].val : v.u.elems[i];
      size_t kl = strlen(k);
      indent(b, ind + 2);
      size_t before = b->len;
      if (is_ident(k, kl))
        buf_put(b, k, kl);
      else
        hcl_str(b, k, kl);
      indent(b, (int)(w - (b->len - before)));
      buf_puts(b, " = ");
      hcl_value(b, e, ind + 2);
      buf_putc(b, '\n');
    }
    indent(b, ind);
    buf_putc(b, '}');
    return;
  }
  case TY_DYNAMIC:
    buf_puts(b, "null");
    return;
  }
}

bool fn_encode_expr(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Buf b;
  buf_init(&b, c->arena);
  hcl_value(&b, a[0], 0);
  *out = fn_buf_val(&b);
  return true;
}

bool fn_encode_tfvars(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value v = val_unmark(a[0]);
  if (val_is_null(v))
    return fn_arg_error(c, 0, "cannot encode a null value in tfvars syntax");
  if (!fn_is_mapish(v.type))
    return fn_arg_error(c, 0, "invalid value to encode: must be an object "
                              "whose attribute names will become the "
                              "encoded variable names");
  size_t w = 0;
  for (uint32_t i = 0; i < v.len; i++) {
    const char *k = v.type->kind == TY_MAP ? v.u.entries[i].key
                                           : v.type->names[i];
    if (!is_ident(k, strlen(k)))
      return fn_arg_error(c, 0, "invalid variable name %s: must be a valid "
                                "identifier, per Terraform's rules for input "
                                "variable declarations",
                          arena_printf(c->arena, "\"%s\"", k));
    if (strlen(k) > w)
      w = strlen(k);
  }
  Buf b;
  buf_init(&b, c->arena);
  for (uint32_t i = 0; i < v.len; i++) {
    const char *k = v.type->kind == TY_MAP ? v.u.entries[i].key
                                           : v.type->names[i];
    Value e = v.type->kind == TY_MAP ? v.u.entries[i].val : v.u.elems[i];
    buf_puts(&b, k);
    indent(&b, (int)(w - strlen(k)));
    buf_puts(&b, " = ");
    hcl_value(&b, e, 0);
    buf_putc(&b, '\n');
  }
  *out = fn_buf_val(&b);
  return true;
}

bool fn_decode_tfvars(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  if (!c->decode_tfvars)
    return fn_error(c, "the HCL parser is not available in this context");
  return c->decode_tfvars(c, a[0].u.s, a[0].len, out);
}
