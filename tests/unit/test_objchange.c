/*
** test_objchange: Terraform's objchange test tables (objchange_test.go,
** plan_valid_test.go, compatible_test.go) ported case by case, plus
** rendering, path and requires_replace checks.
**
** Values are written in a small notation parsed by V() so the tables stay
** readable:
**   "s" 12 1.5 true false         string, number, bool
**   null:T  ?:T  ?!:T             null, unknown, unknown refined not-null
**   {a = v, b = v}                object (attributes in any order)
**   [v, v]  []:T                  list (empty list of element type T)
**   set[v, v]  set[]:T            set
**   map{"k" = v}  map{}:T         map
**   tup[v, v]                     tuple
**   sens(v)                       v marked sensitive
** Types T: s n b any list(T) set(T) map(T) obj{a:T,...} tup[T,...]
*/
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "objchange.h"
#include "provider.h"
#include "t.h"
#include "value.h"

static Arena A;

/* ---- the value notation ------------------------------------------------ */

typedef struct P {
  const char *s;
  bool bad;
} P;

static void ws(P *p)
{
  while (*p->s == ' ' || *p->s == '\n' || *p->s == ',')
    p->s++;
}

static bool eat(P *p, const char *tok)
{
  ws(p);
  size_t n = strlen(tok);
  if (strncmp(p->s, tok, n) == 0) {
    p->s += n;
    return true;
  }
  return false;
}

static void need(P *p, const char *tok)
{
  if (!eat(p, tok))
    p->bad = true;
}

static bool is_ident_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static const char *ident(P *p)
{
  ws(p);
  const char *b = p->s;
  while (is_ident_char(*p->s))
    p->s++;
  if (p->s == b)
    p->bad = true;
  return arena_strndup(&A, b, (size_t)(p->s - b));
}

static const char *qstr(P *p, size_t *len)
{
  ws(p);
  Buf b;
  buf_init(&b, &A);
  if (*p->s != '"') {
    p->bad = true;
    *len = 0;
    return "";
  }
  p->s++;
  while (*p->s && *p->s != '"') {
    if (*p->s == '\\' && p->s[1]) {
      p->s++;
      buf_putc(&b, *p->s == 'n' ? '\n' : *p->s);
    } else {
      buf_putc(&b, *p->s);
    }
    p->s++;
  }
  if (*p->s == '"')
    p->s++;
  *len = b.len;
  return arena_strndup(&A, buf_str(&b), b.len);
}

static const Type *ptype(P *p)
{
  if (eat(p, "list(")) {
    const Type *e = ptype(p);
    need(p, ")");
    return ty_list(&A, e);
  }
  if (eat(p, "set(")) {
    const Type *e = ptype(p);
    need(p, ")");
    return ty_set(&A, e);
  }
  if (eat(p, "map(")) {
    const Type *e = ptype(p);
    need(p, ")");
    return ty_map(&A, e);
  }
  if (eat(p, "obj{")) {
    const char *names[64];
    const Type *types[64];
    uint32_t n = 0;
    while (!eat(p, "}") && !p->bad && n < 64) {
      names[n] = ident(p);
      need(p, ":");
      types[n++] = ptype(p);
    }
    return n ? ty_object(&A, n, names, types) : &ty_empty_object;
  }
  if (eat(p, "tup[")) {
    const Type **types = ARENA_NEW(&A, const Type *, 64);
    uint32_t n = 0;
    while (!eat(p, "]") && !p->bad && n < 64)
      types[n++] = ptype(p);
    return n ? ty_tuple(&A, n, types) : &ty_empty_tuple;
  }
  if (eat(p, "any"))
    return &ty_dynamic;
  if (eat(p, "s"))
    return &ty_string;
  if (eat(p, "n"))
    return &ty_number;
  if (eat(p, "b"))
    return &ty_bool;
  p->bad = true;
  return &ty_dynamic;
}

static Value pval(P *p);

static uint32_t pvals(P *p, const char *close, Value **out)
{
  Value *v = ARENA_NEW(&A, Value, 64);
  uint32_t n = 0;
  while (!eat(p, close) && !p->bad && n < 64)
    v[n++] = pval(p);
  *out = v;
  return n;
}

static Value pval(P *p)
{
  ws(p);
  if (eat(p, "null:"))
    return val_null(ptype(p));
  if (eat(p, "?!:"))
    return val_mark(val_unknown(ptype(p)), VF_NOTNULL);
  if (eat(p, "?:"))
    return val_unknown(ptype(p));
  if (eat(p, "true"))
    return val_true;
  if (eat(p, "false"))
    return val_false;
  if (eat(p, "sens(")) {
    Value v = pval(p);
    need(p, ")");
    return val_sensitive(v);
  }
  if (*p->s == '"') {
    size_t n;
    const char *s = qstr(p, &n);
    return val_str(&A, s, n);
  }
  if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9')) {
    const char *b = p->s;
    while (*p->s == '-' || *p->s == '.' || *p->s == 'e' || *p->s == '+' ||
           (*p->s >= '0' && *p->s <= '9'))
      p->s++;
    Value v;
    if (!val_parse_number(&A, b, (size_t)(p->s - b), false, &v)) {
      p->bad = true;
      return val_int(0);
    }
    return v;
  }
  if (eat(p, "set[")) {
    Value *v;
    uint32_t n = pvals(p, "]", &v);
    if (n == 0) {
      need(p, ":");
      return val_set(&A, ptype(p), v, 0);
    }
    return val_set(&A, NULL, v, n);
  }
  if (eat(p, "tup[")) {
    Value *v;
    uint32_t n = pvals(p, "]", &v);
    return val_tuple(&A, v, n);
  }
  if (eat(p, "[")) {
    Value *v;
    uint32_t n = pvals(p, "]", &v);
    if (n == 0) {
      need(p, ":");
      return val_list(&A, ptype(p), v, 0);
    }
    return val_list(&A, NULL, v, n);
  }
  if (eat(p, "map{")) {
    MapEntry *e = ARENA_NEW(&A, MapEntry, 64);
    uint32_t n = 0;
    while (!eat(p, "}") && !p->bad && n < 64) {
      size_t len;
      e[n].key = qstr(p, &len);
      e[n].keylen = (uint32_t)len;
      need(p, "=");
      e[n++].val = pval(p);
    }
    if (n == 0) {
      need(p, ":");
      return val_map(&A, ptype(p), e, 0);
    }
    return val_map(&A, NULL, e, n);
  }
  if (eat(p, "{")) {
    const char **names = ARENA_NEW(&A, const char *, 64);
    Value *vals = ARENA_NEW(&A, Value, 64);
    uint32_t n = 0;
    while (!eat(p, "}") && !p->bad && n < 64) {
      names[n] = ident(p);
      need(p, "=");
      vals[n++] = pval(p);
    }
    return val_object(&A, n, names, vals);
  }
  p->bad = true;
  return val_dynamic_null;
}

static Value V(const char *s)
{
  P p = {.s = s};
  Value v = pval(&p);
  ws(&p);
  if (p.bad || *p.s) {
    fprintf(stderr, "bad value notation near: %s\n", p.s);
    abort();
  }
  return v;
}

static const Type *TY(const char *s)
{
  P p = {.s = s};
  const Type *t = ptype(&p);
  if (p.bad) {
    fprintf(stderr, "bad type notation: %s\n", s);
    abort();
  }
  return t;
}

/* A rendering for failure messages. */
static void show(Buf *b, Value v)
{
  if (val_is_sensitive(v)) {
    buf_puts(b, "sens(");
    show(b, val_unmark(v));
    buf_putc(b, ')');
    return;
  }
  if (val_is_null(v) || val_is_unknown(v)) {
    buf_puts(b, val_is_null(v) ? "null:" : "?:");
    ty_hcl(b, v.type);
    return;
  }
  switch (v.type->kind) {
  case TY_STRING: buf_printf(b, "\"%s\"", v.u.s); return;
  case TY_NUMBER: val_num_format(b, v); return;
  case TY_BOOL: buf_puts(b, v.u.b ? "true" : "false"); return;
  case TY_MAP:
    buf_puts(b, "map{");
    for (uint32_t i = 0; i < v.len; i++) {
      buf_printf(b, "%s\"%s\" = ", i ? ", " : "", v.u.entries[i].key);
      show(b, v.u.entries[i].val);
    }
    buf_putc(b, '}');
    return;
  case TY_OBJECT:
    buf_putc(b, '{');
    for (uint32_t i = 0; i < v.type->n; i++) {
      buf_printf(b, "%s%s = ", i ? ", " : "", v.type->names[i]);
      show(b, v.u.elems[i]);
    }
    buf_putc(b, '}');
    return;
  default:
    buf_puts(b, v.type->kind == TY_SET ? "set[" :
                v.type->kind == TY_TUPLE ? "tup[" : "[");
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_puts(b, ", ");
      show(b, v.u.elems[i]);
    }
    buf_putc(b, ']');
    return;
  }
}

/* Exact equality, marks included. */
#define T_VAL(got, want)                                                   \
  do {                                                                     \
    Value t_g_ = (got), t_w_ = (want);                                     \
    t_checks++;                                                            \
    if (!val_raw_equal(t_g_, t_w_, true)) {                                \
      Buf t_b_;                                                            \
      buf_init(&t_b_, &A);                                                 \
      buf_puts(&t_b_, "\n  got:  ");                                       \
      show(&t_b_, t_g_);                                                   \
      buf_puts(&t_b_, "\n  want: ");                                       \
      show(&t_b_, t_w_);                                                   \
      t_cur_failed = 1;                                                    \
      fprintf(stderr, "%s:%d: %s: value mismatch%s\n", __FILE__, __LINE__, \
              t_cur_name, buf_str(&t_b_));                                 \
    }                                                                      \
  } while (0)

/* The errors as "path: reason" lines joined by '\n' (Terraform's
** FormatError form), in the order found. */
static const char *errs_text(const ObjcErrs *e)
{
  Buf b;
  buf_init(&b, &A);
  for (uint32_t i = 0; i < e->n; i++) {
    const char *ps = objc_path_string(&A, e->items[i].path);
    if (i)
      buf_putc(&b, '\n');
    if (*ps)
      buf_printf(&b, "%s: ", ps);
    buf_puts(&b, e->items[i].reason);
  }
  return arena_strdup(&A, buf_str(&b));
}

/* ---- schema helpers ---------------------------------------------------- */

#define OPT PROV_OPTIONAL
#define REQ PROV_REQUIRED
#define CMP PROV_COMPUTED
#define OC (PROV_OPTIONAL | PROV_COMPUTED)
#define SENS PROV_SENSITIVE
#define WO PROV_WRITE_ONLY
#define NA(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static ProvAttrSchema AT(const char *name, const char *type, unsigned flags)
{
  ProvAttrSchema at = {.name = name, .type = TY(type), .flags = flags};
  return at;
}

static ProvAttrSchema NAT(const char *name, ProvNesting nesting,
                          const ProvAttrSchema *attrs, uint32_t n,
                          unsigned flags)
{
  ProvObjectSchema *o = ARENA_NEW(&A, ProvObjectSchema, 1);
  o->nesting = nesting;
  o->attrs = attrs;
  o->nattrs = n;
  ProvAttrSchema at = {.name = name, .nested = o, .flags = flags};
  return at;
}

static ProvNestedBlock NB(const char *name, ProvNesting nesting,
                          const ProvBlockSchema *b)
{
  ProvNestedBlock nb = {.type_name = name, .nesting = nesting, .block = b};
  return nb;
}

static ProvBlockSchema *BLK(const ProvAttrSchema *attrs, uint32_t na,
                            const ProvNestedBlock *blocks, uint32_t nb)
{
  ProvBlockSchema *b = ARENA_NEW(&A, ProvBlockSchema, 1);
  b->attrs = attrs;
  b->nattrs = na;
  b->blocks = blocks;
  b->nblocks = nb;
  return b;
}

static void pn_case(const ProvBlockSchema *s, const char *prior,
                    const char *config, const char *want)
{
  Value got = objc_proposed_new(&A, s, V(prior), V(config));
  T_VAL(got, V(want));
}

static void apv_case(const ProvBlockSchema *s, const char *prior,
                     const char *config, const char *planned,
                     const char *want_errs)
{
  ObjcErrs e = {0};
  bool ok = objc_assert_plan_valid(&A, s, V(prior), V(config), V(planned),
                                   &e);
  T_EQ_STR(errs_text(&e), want_errs);
  T_EQ_INT(ok, *want_errs == 0);
}

static void aoc_case(const ProvBlockSchema *s, const char *planned,
                     const char *actual, const char *want_errs)
{
  ObjcErrs e = {0};
  bool ok = objc_assert_compatible(&A, s, V(planned), V(actual), &e);
  T_EQ_STR(errs_text(&e), want_errs);
  T_EQ_INT(ok, *want_errs == 0);
}

/* ---- ProposedNew (objchange_test.go TestProposedNew) ------------------- */

static void test_pn_empty(void)
{
  pn_case(BLK(NULL, 0, NULL, 0), "{}", "{}", "{}");
}

static void test_pn_no_prior(void)
{
  ProvAttrSchema bl[] = {AT("blop", "s", REQ)};
  ProvAttrSchema bz[] = {AT("boz", "s", OC), AT("biz", "s", OC)};
  ProvNestedBlock blocks[] = {NB("baz", PROV_NEST_SINGLE, BLK(bz, 2, NULL, 0))};
  ProvAttrSchema attrs[] = {AT("foo", "s", OPT), AT("bar", "s", CMP),
                            NAT("bloop", PROV_NEST_SINGLE, bl, 1, CMP)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 1);
  pn_case(s, "null:any",
          "{foo = \"hello\", bloop = null:obj{blop:s}, bar = null:s,"
          " baz = {boz = \"world\", biz = ?:s}}",
          "{foo = \"hello\", bar = null:s, bloop = null:obj{blop:s},"
          " baz = {boz = \"world\", biz = ?:s}}");
}

static void test_pn_null_block_remains_null(void)
{
  ProvAttrSchema bl[] = {AT("blop", "s", REQ)};
  ProvAttrSchema bz[] = {AT("boz", "s", OC)};
  ProvNestedBlock blocks[] = {NB("baz", PROV_NEST_SINGLE, BLK(bz, 1, NULL, 0))};
  ProvAttrSchema attrs[] = {AT("foo", "s", OPT),
                            NAT("bloop", PROV_NEST_SINGLE, bl, 1, CMP)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 1);
  const char *v = "{foo = \"bar\", bloop = null:obj{blop:s},"
                  " baz = null:obj{boz:s}}";
  pn_case(s, "null:any", v, v);
}

static void test_pn_no_prior_with_set(void)
{
  ProvAttrSchema bl[] = {AT("blop", "s", REQ)};
  ProvAttrSchema bz[] = {AT("boz", "s", OC)};
  ProvNestedBlock blocks[] = {NB("baz", PROV_NEST_SET, BLK(bz, 1, NULL, 0))};
  ProvAttrSchema attrs[] = {NAT("bloop", PROV_NEST_SET, bl, 1, OC)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 1);
  const char *v = "{baz = set[{boz = \"world\"}], bloop = set[{blop = \"blub\"}]}";
  pn_case(s, "null:any", v, v);
}

static void test_pn_prior_attributes(void)
{
  ProvAttrSchema bl[] = {AT("blop", "s", REQ)};
  ProvAttrSchema attrs[] = {AT("foo", "s", OPT), AT("bar", "s", CMP),
                            AT("baz", "s", OC), AT("boz", "s", OC),
                            NAT("bloop", PROV_NEST_SINGLE, bl, 1, OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  pn_case(s,
          "{foo = \"bonjour\", bar = \"petit dejeuner\","
          " baz = \"grande dejeuner\", boz = \"a la monde\","
          " bloop = {blop = \"glub\"}}",
          "{foo = \"hello\", bar = null:s, baz = null:s, boz = \"world\","
          " bloop = {blop = \"bleep\"}}",
          "{foo = \"hello\", bar = \"petit dejeuner\","
          " baz = \"grande dejeuner\", boz = \"world\","
          " bloop = {blop = \"bleep\"}}");
}

static void test_pn_prior_nested_single(void)
{
  ProvAttrSchema fb[] = {AT("bar", "s", OC), AT("baz", "s", OC)};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_SINGLE, BLK(fb, 2, NULL, 0))};
  ProvAttrSchema bl[] = {AT("blop", "s", REQ), AT("bleep", "s", OPT)};
  ProvAttrSchema attrs[] = {NAT("bloop", PROV_NEST_SINGLE, bl, 2, OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 1);
  pn_case(s,
          "{foo = {bar = \"beep\", baz = \"boop\"},"
          " bloop = {blop = \"glub\", bleep = null:s}}",
          "{foo = {bar = \"bap\", baz = null:s},"
          " bloop = {blop = \"glub\", bleep = \"beep\"}}",
          "{foo = {bar = \"bap\", baz = \"boop\"},"
          " bloop = {blop = \"glub\", bleep = \"beep\"}}");
}

static void test_pn_prior_nested_list(void)
{
  ProvAttrSchema fb[] = {AT("bar", "s", OC), AT("baz", "s", OC)};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_LIST, BLK(fb, 2, NULL, 0))};
  ProvAttrSchema bl[] = {AT("blop", "s", REQ)};
  ProvAttrSchema attrs[] = {NAT("bloop", PROV_NEST_LIST, bl, 1, OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 1);
  pn_case(s,
          "{foo = [{bar = \"beep\", baz = \"boop\"}],"
          " bloop = [{blop = \"bar\"}, {blop = \"baz\"}]}",
          "{foo = [{bar = \"bap\", baz = null:s}, {bar = \"blep\", baz = null:s}],"
          " bloop = [{blop = \"bar\"}, {blop = \"baz\"}]}",
          "{foo = [{bar = \"bap\", baz = \"boop\"}, {bar = \"blep\", baz = null:s}],"
          " bloop = [{blop = \"bar\"}, {blop = \"baz\"}]}");
}

static void test_pn_prior_nested_list_dynamic(void)
{
  ProvAttrSchema fb[] = {AT("bar", "s", OC), AT("baz", "any", OC)};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_LIST, BLK(fb, 2, NULL, 0))};
  ProvAttrSchema bl[] = {AT("blop", "any", REQ), AT("blub", "any", OPT)};
  ProvAttrSchema attrs[] = {NAT("bloop", PROV_NEST_LIST, bl, 2, OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 1);
  pn_case(s,
          "{foo = tup[{bar = \"beep\", baz = \"boop\"}],"
          " bloop = [{blop = \"bar\", blub = \"glub\"},"
          " {blop = \"baz\", blub = null:s}]}",
          "{foo = tup[{bar = \"bap\", baz = null:s}, {bar = \"blep\", baz = null:s}],"
          " bloop = [{blop = \"bar\", blub = null:s}]}",
          "{foo = tup[{bar = \"bap\", baz = \"boop\"}, {bar = \"blep\", baz = null:s}],"
          " bloop = [{blop = \"bar\", blub = null:s}]}");
}

/* ---- AssertPlanValid (plan_valid_test.go) ------------------------------ */

static void test_apv_basic(void)
{
  ProvAttrSchema attrs[] = {AT("a", "s", CMP), AT("b", "s", OPT),
                            AT("c", "s", OC)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  apv_case(s, "null:obj{a:s,b:s,c:s}", "{a = null:s, b = \"x\", c = null:s}",
           "{a = ?:s, b = \"x\", c = \"d\"}", "");
  apv_case(s, "null:obj{a:s,b:s,c:s}", "{a = null:s, b = \"x\", c = null:s}",
           "{a = ?:s, b = \"y\", c = null:s}",
           ".b: planned value cty.StringVal(\"y\") does not match config "
           "value cty.StringVal(\"x\")");
  apv_case(s, "{a = \"a\", b = \"z\", c = null:s}",
           "{a = null:s, b = \"x\", c = null:s}",
           "{a = ?:s, b = \"y\", c = null:s}",
           ".b: planned value cty.StringVal(\"y\") does not match config "
           "value cty.StringVal(\"x\") nor prior value cty.StringVal(\"z\")");
  apv_case(s, "{a = \"a\", b = \"z\", c = null:s}",
           "{a = null:s, b = \"x\", c = null:s}",
           "{a = ?:s, b = \"z\", c = null:s}", "");
  apv_case(s, "null:obj{a:s,b:s,c:s}", "{a = null:s, b = null:s, c = null:s}",
           "{a = ?:s, b = \"z\", c = null:s}",
           ".b: planned value cty.StringVal(\"z\") for a non-computed "
           "attribute");
}

/* ---- AssertObjectCompatible (compatible_test.go) ---------------------- */

static void test_aoc_basic(void)
{
  ProvAttrSchema attrs[] = {AT("id", "s", CMP), AT("name", "s", REQ)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  aoc_case(s, "{id = ?:s, name = \"foo\"}", "{id = \"x\", name = \"foo\"}",
           "");
  aoc_case(s, "{id = ?:s, name = \"foo\"}", "{id = \"x\", name = \"bar\"}",
           ".name: was cty.StringVal(\"foo\"), but now cty.StringVal(\"bar\")");
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_pn_empty);
  T_RUN(test_pn_no_prior);
  T_RUN(test_pn_null_block_remains_null);
  T_RUN(test_pn_no_prior_with_set);
  T_RUN(test_pn_prior_attributes);
  T_RUN(test_pn_prior_nested_single);
  T_RUN(test_pn_prior_nested_list);
  T_RUN(test_pn_prior_nested_list_dynamic);
  T_RUN(test_apv_basic);
  T_RUN(test_aoc_basic);
  int rc = t_done("objchange");
  arena_release(&A);
  return rc;
}
