/*
** eval_ref: Terraform references (addrs.ParseRef) and the console value
** rendering (repl.FormatValue).
*/
#include <stdio.h>
#include <string.h>

#include "eval_priv.h"

/* ---- References ------------------------------------------------------------ */

static bool ref_err(Diags *d, const SrcRange *r, const char *summary,
                    const char *detail)
{
  diag_error(d, r && r->file ? r : NULL, summary, "%s", detail);
  return false;
}

static SrcRange step_range(const HclStep *s) { return s->range; }

/* parseSingleAttrRef: root.NAME */
static bool single_attr(const HclTraversal *t, EvalRef *out, Diags *d)
{
  const char *root = t->steps[0].name;
  char buf[256];
  if (t->n < 2) {
    snprintf(buf, sizeof buf, "The \"%s\" object cannot be accessed "
             "directly. Instead, access one of its attributes.", root);
    return ref_err(d, &t->steps[0].range, "Invalid reference", buf);
  }
  if (t->steps[1].kind != HCL_STEP_ATTR) {
    snprintf(buf, sizeof buf, "The \"%s\" object does not support this "
             "operation.", root);
    SrcRange r = step_range(&t->steps[1]);
    return ref_err(d, &r, "Invalid reference", buf);
  }
  out->name = t->steps[1].name;
  out->range = diag_range_join(t->steps[0].range, t->steps[1].range);
  out->consumed = 2;
  return true;
}

static bool instance_key(const HclStep *s, const char *what, Value *key,
                         Diags *d)
{
  Value k = *s->key;
  char buf[200];
  if (val_is_known(k) && !val_is_null(k) && k.type->kind == TY_STRING) {
    *key = k;
    return true;
  }
  int64_t i;
  if (val_is_known(k) && !val_is_null(k) && k.type->kind == TY_NUMBER &&
      val_num_int(k, &i)) {
    *key = k;
    return true;
  }
  if (val_is_known(k) && !val_is_null(k) && k.type->kind == TY_NUMBER)
    snprintf(buf, sizeof buf, "Invalid index for %s: value must be a whole "
             "number, between -9223372036854775808 and "
             "9223372036854775807.", what);
  else
    snprintf(buf, sizeof buf, "Invalid index for %s: either a string or an "
             "integer is required.", what);
  return ref_err(d, &s->range, "Invalid index key", buf);
}

static bool resource_ref(EvalRefKind kind, const HclTraversal *t,
                         uint32_t first, EvalRef *out, Diags *d)
{
  const HclStep *s = t->steps + first;
  uint32_t n = t->n - first;
  const char *what = kind == EVAL_REF_DATA ? "data source" :
                     kind == EVAL_REF_EPHEMERAL ? "ephemeral resource" :
                     "resource type";
  char buf[256];
  if (n < 2) {
    SrcRange r = diag_range_join(s[0].range, s[n - 1].range);
    return ref_err(d, &r, "Invalid reference",
                   "A reference to a resource type must be followed by at "
                   "least one attribute access, specifying the resource "
                   "name.");
  }
  if (s[0].kind == HCL_STEP_INDEX) {
    snprintf(buf, sizeof buf, "The \"%s\" object does not support this "
             "operation.", t->steps[0].name);
    return ref_err(d, &s[0].range, "Invalid reference", buf);
  }
  if (s[1].kind != HCL_STEP_ATTR) {
    snprintf(buf, sizeof buf, "A reference to a %s must be followed by at "
             "least one attribute access, specifying the resource name.",
             what);
    return ref_err(d, &s[1].range, "Invalid reference", buf);
  }
  out->kind = kind;
  out->type = s[0].name;
  out->name = s[1].name;
  out->range = diag_range_join(t->steps[0].range, s[1].range);
  out->consumed = first + 2;
  if (n > 2 && s[2].kind == HCL_STEP_INDEX) {
    if (!instance_key(&s[2], "resource instance", &out->key, d))
      return false;
    out->has_key = true;
    out->range = diag_range_join(out->range, s[2].range);
    out->consumed++;
  }
  return true;
}

bool eval_parse_ref(const HclTraversal *t, EvalRef *out, Diags *d)
{
  memset(out, 0, sizeof *out);
  SrcRange t_range = hcl_trav_range(t);
  if (t->n == 0 || t->steps[0].kind != HCL_STEP_ROOT)
    return ref_err(d, &t_range, "Invalid reference",
                   "A reference must start with a name.");
  const char *root = t->steps[0].name;
  bool ok = true;
  char buf[400];
  if (!strcmp(root, "count") || !strcmp(root, "each") ||
      !strcmp(root, "local") || !strcmp(root, "path") ||
      !strcmp(root, "terraform") || !strcmp(root, "var")) {
    out->kind = root[0] == 'c' ? EVAL_REF_COUNT :
                root[0] == 'e' ? EVAL_REF_EACH :
                root[0] == 'l' ? EVAL_REF_LOCAL :
                root[0] == 'p' ? EVAL_REF_PATH :
                root[0] == 't' ? EVAL_REF_TERRAFORM : EVAL_REF_VAR;
    ok = single_attr(t, out, d);
  } else if (!strcmp(root, "data") || !strcmp(root, "resource") ||
             !strcmp(root, "ephemeral")) {
    if (t->n < 3) {
      if (root[0] == 'd')
        snprintf(buf, sizeof buf, "The \"data\" object must be followed by "
                 "two attribute names: the data source type and the "
                 "resource name.");
      else if (root[0] == 'r')
        snprintf(buf, sizeof buf, "The \"resource\" object must be followed "
                 "by two attribute names: the resource type and the "
                 "resource name.");
      else
        snprintf(buf, sizeof buf, "The \"ephemeral\" object must be "
                 "followed by two attribute names: the ephemeral resource "
                 "type and the resource name.");
      return ref_err(d, &t_range, "Invalid reference", buf);
    }
    ok = resource_ref(root[0] == 'd' ? EVAL_REF_DATA :
                      root[0] == 'r' ? EVAL_REF_RESOURCE : EVAL_REF_EPHEMERAL,
                      t, 1, out, d);
  } else if (!strcmp(root, "module")) {
    out->kind = EVAL_REF_MODULE;
    if (!single_attr(t, out, d))
      return false;
    uint32_t i = 2;
    if (i < t->n && t->steps[i].kind == HCL_STEP_INDEX) {
      if (!instance_key(&t->steps[i], "module instance", &out->key, d))
        return false;
      out->has_key = true;
      out->range = diag_range_join(out->range, t->steps[i].range);
      i++;
    }
    if (i < t->n) {
      if (t->steps[i].kind != HCL_STEP_ATTR)
        return ref_err(d, &t->steps[i].range, "Invalid reference",
                       "Module instance objects do not support this "
                       "operation.");
      out->kind = EVAL_REF_MODULE_OUT;
      out->attr = t->steps[i].name;
      out->range = diag_range_join(out->range, t->steps[i].range);
      i++;
    }
    out->consumed = i;
  } else if (!strcmp(root, "self")) {
    out->kind = EVAL_REF_SELF;
    out->name = "self";
    out->range = t->steps[0].range;
    out->consumed = 1;
  } else if (!strcmp(root, "template") || !strcmp(root, "lazy") ||
             !strcmp(root, "arg")) {
    snprintf(buf, sizeof buf, "The symbol name \"%s\" is reserved for use "
             "in a future Terraform version. If you are using a provider "
             "that already uses this as a resource type name, add the "
             "prefix \"resource.\" to force interpretation as a resource "
             "type name.", root);
    return ref_err(d, &t->steps[0].range, "Reserved symbol name", buf);
  } else {
    ok = resource_ref(EVAL_REF_RESOURCE, t, 0, out, d);
  }
  if (!ok)
    return false;
  out->rest = t->steps + out->consumed;
  out->nrest = t->n - out->consumed;
  return true;
}

static void key_string(Buf *out, Value k)
{
  if (k.type->kind == TY_STRING) {
    buf_putc(out, '[');
    eval_format_value(out, val_unmark(k), 0);
    buf_putc(out, ']');
  } else {
    buf_putc(out, '[');
    val_num_format(out, k);
    buf_putc(out, ']');
  }
}

void eval_ref_string(Buf *out, const EvalRef *r)
{
  switch (r->kind) {
  case EVAL_REF_VAR:
    buf_printf(out, "var.%s", r->name);
    break;
  case EVAL_REF_LOCAL:
    buf_printf(out, "local.%s", r->name);
    break;
  case EVAL_REF_COUNT:
    buf_printf(out, "count.%s", r->name);
    break;
  case EVAL_REF_EACH:
    buf_printf(out, "each.%s", r->name);
    break;
  case EVAL_REF_PATH:
    buf_printf(out, "path.%s", r->name);
    break;
  case EVAL_REF_TERRAFORM:
    buf_printf(out, "terraform.%s", r->name);
    break;
  case EVAL_REF_SELF:
    buf_puts(out, "self");
    break;
  case EVAL_REF_MODULE:
  case EVAL_REF_MODULE_OUT:
    buf_printf(out, "module.%s", r->name);
    if (r->has_key)
      key_string(out, r->key);
    if (r->kind == EVAL_REF_MODULE_OUT)
      buf_printf(out, ".%s", r->attr);
    break;
  case EVAL_REF_DATA:
  case EVAL_REF_EPHEMERAL:
  case EVAL_REF_RESOURCE:
    if (r->kind == EVAL_REF_DATA)
      buf_puts(out, "data.");
    else if (r->kind == EVAL_REF_EPHEMERAL)
      buf_puts(out, "ephemeral.");
    buf_printf(out, "%s.%s", r->type, r->name);
    if (r->has_key)
      key_string(out, r->key);
    break;
  }
}

/* ---- Console rendering ------------------------------------------------------ */

static void indent_to(Buf *out, int n)
{
  for (int i = 0; i < n; i++)
    buf_putc(out, ' ');
}

static bool multiline(Buf *out, Value v, int indent)
{
  const char *s = v.u.s;
  size_t n = v.len;
  if (!memchr(s, '\n', n))
    return false;
  /* Pick a delimiter no line equals (after trimming spaces). */
  size_t dl = 3;
  for (;;) {
    bool clash = false;
    size_t ls = 0;
    for (size_t i = 0; i <= n && !clash; i++) {
      if (i == n || s[i] == '\n') {
        size_t a = ls, b = i;
        while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r' ||
                         s[a] == '\v' || s[a] == '\f'))
          a++;
        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' ||
                         s[b - 1] == '\r' || s[b - 1] == '\v' ||
                         s[b - 1] == '\f'))
          b--;
        if (b - a == dl && memcmp(s + a, "EOT", 3) == 0) {
          bool rest = true;
          for (size_t k = 3; k < dl; k++)
            if (s[a + k] != '_')
              rest = false;
          clash = rest;
        }
        ls = i + 1;
      }
    }
    if (!clash)
      break;
    dl++;
  }
  buf_puts(out, indent > 0 ? "<<-" : "<<");
  buf_puts(out, "EOT");
  for (size_t k = 3; k < dl; k++)
    buf_putc(out, '_');
  size_t ls = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i == n || s[i] == '\n') {
      buf_putc(out, '\n');
      indent_to(out, indent);
      buf_put(out, s + ls, i - ls);
      ls = i + 1;
    }
  }
  buf_putc(out, '\n');
  indent_to(out, indent);
  buf_puts(out, "EOT");
  for (size_t k = 3; k < dl; k++)
    buf_putc(out, '_');
  return true;
}

static void fmt_seq(Buf *out, Value v, int indent)
{
  buf_putc(out, '[');
  for (uint32_t i = 0; i < v.len; i++) {
    buf_putc(out, '\n');
    indent_to(out, indent + 2);
    eval_format_value(out, v.u.elems[i], indent + 2);
    buf_putc(out, ',');
  }
  if (v.len > 0) {
    buf_putc(out, '\n');
    indent_to(out, indent);
  }
  buf_putc(out, ']');
}

static void fmt_mapping(Buf *out, Value v, int indent)
{
  bool obj = v.type->kind == TY_OBJECT;
  uint32_t n = obj ? v.type->n : v.len;
  buf_putc(out, '{');
  for (uint32_t i = 0; i < n; i++) {
    buf_putc(out, '\n');
    indent_to(out, indent + 2);
    if (obj)
      buf_strconv_quote(out, v.type->names[i], strlen(v.type->names[i]));
    else
      buf_strconv_quote(out, v.u.entries[i].key, v.u.entries[i].keylen);
    buf_puts(out, " = ");
    eval_format_value(out, obj ? v.u.elems[i] : v.u.entries[i].val,
                      indent + 2);
  }
  if (n > 0) {
    buf_putc(out, '\n');
    indent_to(out, indent);
  }
  buf_putc(out, '}');
}

void eval_format_value(Buf *out, Value v, int indent)
{
  if (val_is_unknown(v)) {
    buf_puts(out, "(known after apply)");
    return;
  }
  if (val_is_sensitive(v)) {
    buf_puts(out, "(sensitive value)");
    return;
  }
  const Type *t = v.type;
  if (val_is_null(v)) {
    Buf fb;
    Arena *a = out->arena;
    buf_init(&fb, a);
    switch (t->kind) {
    case TY_DYNAMIC:
      buf_puts(out, "null");
      return;
    case TY_STRING:
      buf_puts(out, "tostring(null)");
      return;
    case TY_NUMBER:
      buf_puts(out, "tonumber(null)");
      return;
    case TY_BOOL:
      buf_puts(out, "tobool(null)");
      return;
    case TY_LIST:
    case TY_SET:
    case TY_MAP:
      ty_friendly(&fb, t->elem);
      buf_printf(out, "%s(null) /* of %s */",
                 t->kind == TY_LIST ? "tolist" :
                 t->kind == TY_SET ? "toset" : "tomap", buf_str(&fb));
      return;
    default:
      ty_friendly(&fb, t);
      buf_printf(out, "null /* %s */", buf_str(&fb));
      return;
    }
  }
  switch (t->kind) {
  case TY_STRING:
    if (!multiline(out, v, indent))
      buf_strconv_quote(out, v.u.s, v.len);
    break;
  case TY_NUMBER:
    val_num_format(out, v);
    break;
  case TY_BOOL:
    buf_puts(out, v.u.b ? "true" : "false");
    break;
  case TY_OBJECT:
    fmt_mapping(out, v, indent);
    break;
  case TY_TUPLE:
    fmt_seq(out, v, indent);
    break;
  case TY_LIST:
    buf_puts(out, "tolist(");
    fmt_seq(out, v, indent);
    buf_putc(out, ')');
    break;
  case TY_SET:
    buf_puts(out, "toset(");
    fmt_seq(out, v, indent);
    buf_putc(out, ')');
    break;
  case TY_MAP:
    buf_puts(out, "tomap(");
    fmt_mapping(out, v, indent);
    buf_putc(out, ')');
    break;
  default:
    buf_puts(out, "null");
    break;
  }
}
