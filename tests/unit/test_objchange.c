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

#include "base/arena.h"
#include "base/buf.h"
#include "base/value.h"
#include "engine/objchange.h"
#include "providers/provider.h"
#include "t.h"

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


static void test_pn_prior_nested_single_to_null(void)
{
  ProvAttrSchema fb[] = {AT("bar", "s", OC), AT("baz", "s", OC)};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_SINGLE, BLK(fb, 2, NULL, 0))};
  ProvAttrSchema bl[] = {AT("blop", "s", REQ), AT("bleep", "s", OPT)};
  ProvAttrSchema attrs[] = {NAT("bloop", PROV_NEST_SINGLE, bl, 2, OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 1);
  const char *nul = "{foo = null:obj{bar:s,baz:s},"
                    " bloop = null:obj{blop:s,bleep:s}}";
  pn_case(s,
          "{foo = {bar = \"beep\", baz = \"boop\"},"
          " bloop = {blop = \"glub\", bleep = null:s}}",
          nul, nul);
}

static void test_pn_prior_optional_computed_nested_single_to_null(void)
{
  ProvAttrSchema bl[] = {AT("blop", "s", REQ), AT("bleep", "s", OPT)};
  ProvAttrSchema attrs[] = {NAT("bloop", PROV_NEST_SINGLE, bl, 2, OC)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  /* blop is not computed, so the prior object came from config: null in
  ** config now removes it instead of keeping the prior value. */
  pn_case(s, "{bloop = {blop = \"glub\", bleep = null:s}}",
          "{bloop = null:obj{blop:s,bleep:s}}",
          "{bloop = null:obj{blop:s,bleep:s}}");
}

static void test_pn_optional_computed_nested_all_computed_keeps_prior(void)
{
  ProvAttrSchema bl[] = {AT("id", "s", CMP)};
  ProvAttrSchema attrs[] = {NAT("bloop", PROV_NEST_SINGLE, bl, 1, OC)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  pn_case(s, "{bloop = {id = \"x\"}}", "{bloop = null:obj{id:s}}",
          "{bloop = {id = \"x\"}}");
}

static void test_pn_prior_nested_map(void)
{
  ProvAttrSchema fb[] = {AT("bar", "s", OC), AT("baz", "s", OC)};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_MAP, BLK(fb, 2, NULL, 0))};
  ProvAttrSchema bl[] = {AT("blop", "s", REQ)};
  ProvAttrSchema attrs[] = {NAT("bloop", PROV_NEST_MAP, bl, 1, OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 1);
  pn_case(s,
          "{foo = map{\"a\" = {bar = \"beep\", baz = \"boop\"},"
          " \"b\" = {bar = \"blep\", baz = \"boot\"}},"
          " bloop = map{\"a\" = {blop = \"glub\"}, \"b\" = {blop = \"blub\"}}}",
          "{foo = map{\"a\" = {bar = \"bap\", baz = null:s},"
          " \"c\" = {bar = \"bosh\", baz = null:s}},"
          " bloop = map{\"a\" = {blop = \"glub\"}, \"c\" = {blop = \"blub\"}}}",
          "{foo = map{\"a\" = {bar = \"bap\", baz = \"boop\"},"
          " \"c\" = {bar = \"bosh\", baz = null:s}},"
          " bloop = map{\"a\" = {blop = \"glub\"}, \"c\" = {blop = \"blub\"}}}");
}

static void test_pn_prior_nested_map_dynamic(void)
{
  ProvAttrSchema fb[] = {AT("bar", "s", OC), AT("baz", "any", OC)};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_MAP, BLK(fb, 2, NULL, 0))};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 1);
  pn_case(s,
          "{foo = {a = {bar = \"beep\", baz = \"boop\"},"
          " b = {bar = \"blep\", baz = [\"x\"]}}}",
          "{foo = {a = {bar = \"bap\", baz = null:s},"
          " c = {bar = \"bosh\", baz = null:list(s)}}}",
          "{foo = {a = {bar = \"bap\", baz = \"boop\"},"
          " c = {bar = \"bosh\", baz = null:list(s)}}}");
}

static void test_pn_prior_nested_set(void)
{
  ProvAttrSchema fb[] = {AT("bar", "s", OPT), AT("baz", "s", OC)};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_SET, BLK(fb, 2, NULL, 0))};
  ProvAttrSchema bl[] = {AT("blop", "s", REQ), AT("bleep", "s", OPT)};
  ProvAttrSchema attrs[] = {NAT("bloop", PROV_NEST_SET, bl, 2, OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 1);
  pn_case(s,
          "{foo = set[{bar = \"beep\", baz = \"boop\"},"
          " {bar = \"blep\", baz = \"boot\"}],"
          " bloop = set[{blop = \"glubglub\", bleep = null:s},"
          " {blop = \"glubglub\", bleep = \"beep\"}]}",
          "{foo = set[{bar = \"beep\", baz = null:s},"
          " {bar = \"bosh\", baz = null:s}],"
          " bloop = set[{blop = \"glubglub\", bleep = null:s},"
          " {blop = \"glub\", bleep = null:s}]}",
          "{foo = set[{bar = \"beep\", baz = \"boop\"},"
          " {bar = \"bosh\", baz = null:s}],"
          " bloop = set[{blop = \"glubglub\", bleep = null:s},"
          " {blop = \"glub\", bleep = null:s}]}");
}

static void test_pn_set_partial_optional_computed_change(void)
{
  ProvAttrSchema mb[] = {AT("opt", "s", OPT), AT("cmp", "s", OC)};
  ProvNestedBlock blocks[] = {NB("multi", PROV_NEST_SET, BLK(mb, 2, NULL, 0))};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 1);
  pn_case(s,
          "{multi = set[{opt = \"one\", cmp = \"OK\"},"
          " {opt = \"two\", cmp = \"OK\"}]}",
          "{multi = set[{opt = \"one\", cmp = null:s},"
          " {opt = \"replaced\", cmp = null:s}]}",
          "{multi = set[{opt = \"one\", cmp = \"OK\"},"
          " {opt = \"replaced\", cmp = null:s}]}");
}

static void test_pn_set_without_partial_optional_computed_change(void)
{
  ProvAttrSchema mb[] = {AT("opt", "s", OC), AT("req", "s", REQ)};
  ProvNestedBlock blocks[] = {NB("multi", PROV_NEST_SET, BLK(mb, 2, NULL, 0))};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 1);
  const char *prior = "{multi = set[{opt = \"one\", req = \"one\"},"
                      " {opt = \"two\", req = \"two\"}]}";
  pn_case(s, prior,
          "{multi = set[{opt = null:s, req = \"one\"},"
          " {opt = null:s, req = \"two\"}]}",
          prior);
}

static void test_pn_sets_differing_only_by_unknown(void)
{
  ProvAttrSchema mb[] = {AT("optional", "s", OC)};
  ProvNestedBlock blocks[] = {NB("multi", PROV_NEST_SET, BLK(mb, 1, NULL, 0))};
  ProvAttrSchema bl[] = {AT("blop", "s", REQ)};
  ProvAttrSchema attrs[] = {NAT("bloop", PROV_NEST_SET, bl, 1, OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 1);
  const char *v = "{multi = set[{optional = ?:s}, {optional = ?:s}],"
                  " bloop = set[{blop = ?:s}, {blop = ?:s}]}";
  Value got = objc_proposed_new(&A, s, V("null:any"), V(v));
  T_VAL(got, V(v));
  /* Unknown elements never merge. */
  T_EQ_INT(val_attr(got, "multi", NULL).len, 2);
}

static void test_pn_nested_list_in_set(void)
{
  ProvAttrSchema bb[] = {AT("baz", "s", OPT), AT("qux", "s", OC)};
  ProvNestedBlock inner[] = {NB("bar", PROV_NEST_LIST, BLK(bb, 2, NULL, 0))};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_SET, BLK(NULL, 0, inner, 1))};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 1);
  pn_case(s, "{foo = set[{bar = [{baz = \"beep\", qux = \"boop\"}]}]}",
          "{foo = set[{bar = [{baz = \"beep\", qux = null:s}]}]}",
          "{foo = set[{bar = [{baz = \"beep\", qux = \"boop\"}]}]}");
}

static void test_pn_empty_nested_list_in_set(void)
{
  ProvNestedBlock inner[] = {NB("bar", PROV_NEST_LIST, BLK(NULL, 0, NULL, 0))};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_SET, BLK(NULL, 0, inner, 1))};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 1);
  const char *v = "{foo = set[{bar = []:obj{}}]}";
  pn_case(s, v, v, v);
}

static void test_pn_nested_set_in_set_must_match(void)
{
  /* A nested set differing at all prevents correlation. */
  ProvAttrSchema bb[] = {AT("baz", "s", OPT), AT("qux", "s", OC)};
  ProvNestedBlock inner[] = {NB("bar", PROV_NEST_SET, BLK(bb, 2, NULL, 0))};
  ProvAttrSchema fa[] = {AT("id", "s", OC)};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_SET, BLK(fa, 1, inner, 1))};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 1);
  pn_case(s,
          "{foo = set[{id = \"p\", bar = set[{baz = \"beep\", qux = \"boop\"}]}]}",
          "{foo = set[{id = null:s, bar = set[{baz = \"beep\", qux = null:s}]}]}",
          "{foo = set[{id = null:s, bar = set[{baz = \"beep\", qux = null:s}]}]}");
}

static void test_pn_null_config_and_unknown(void)
{
  ProvAttrSchema attrs[] = {AT("a", "s", OPT), AT("id", "s", CMP)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  const char *prior = "{a = \"x\", id = \"i\"}";
  /* Destroy: config null gives the prior. */
  pn_case(s, prior, "null:obj{a:s,id:s}", prior);
  /* Both null stays null. */
  pn_case(s, "null:obj{a:s,id:s}", "null:obj{a:s,id:s}",
          "null:obj{a:s,id:s}");
  /* A wholly unknown config gives the prior. */
  pn_case(s, prior, "?:obj{a:s,id:s}", prior);
  /* Create: computed attributes are null. */
  pn_case(s, "null:obj{a:s,id:s}", "{a = \"y\", id = null:s}",
          "{a = \"y\", id = null:s}");
}

static void test_pn_unknown_dynamic_block_passthrough(void)
{
  ProvAttrSchema fb[] = {AT("x", "s", OC)};
  ProvNestedBlock blocks[] = {NB("foo", PROV_NEST_LIST, BLK(fb, 1, NULL, 0))};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 1);
  pn_case(s, "{foo = [{x = \"a\"}]}", "{foo = ?:list(obj{x:s})}",
          "{foo = ?:list(obj{x:s})}");
  /* A config list longer than the prior takes the extra element as is. */
  pn_case(s, "{foo = [{x = \"a\"}]}", "{foo = [{x = null:s}, {x = null:s}]}",
          "{foo = [{x = \"a\"}, {x = null:s}]}");
}

static void test_pn_group_block_created(void)
{
  ProvAttrSchema gb[] = {AT("x", "s", OC)};
  ProvNestedBlock blocks[] = {NB("g", PROV_NEST_GROUP, BLK(gb, 1, NULL, 0)),
                              NB("l", PROV_NEST_LIST, BLK(gb, 1, NULL, 0)),
                              NB("st", PROV_NEST_SET, BLK(gb, 1, NULL, 0))};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 3);
  pn_case(s, "null:any",
          "{g = {x = null:s}, l = []:obj{x:s}, st = set[]:obj{x:s}}",
          "{g = {x = null:s}, l = []:obj{x:s}, st = set[]:obj{x:s}}");
}

static void test_pn_sensitive_marks_kept(void)
{
  ProvAttrSchema attrs[] = {AT("pw", "s", OPT), AT("id", "s", CMP)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  pn_case(s, "{pw = sens(\"old\"), id = sens(\"i\")}",
          "{pw = sens(\"new\"), id = null:s}",
          "{pw = sens(\"new\"), id = sens(\"i\")}");
}

/* ---- PlannedDataResourceObject ----------------------------------------- */

static void test_planned_data(void)
{
  ProvAttrSchema nb[] = {AT("k", "s", OPT), AT("v", "s", CMP)};
  ProvAttrSchema attrs[] = {AT("name", "s", REQ), AT("id", "s", CMP),
                            AT("opt", "s", OC),
                            NAT("nest", PROV_NEST_LIST, nb, 2, OPT),
                            NAT("cnest", PROV_NEST_SINGLE, nb, 2, CMP)};
  ProvAttrSchema bb[] = {AT("f", "s", OPT), AT("r", "s", CMP)};
  ProvNestedBlock blocks[] = {NB("filter", PROV_NEST_LIST, BLK(bb, 2, NULL, 0)),
                              NB("one", PROV_NEST_SINGLE, BLK(bb, 2, NULL, 0))};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 2);
  Value got = objc_planned_data(&A, s,
      V("{name = \"n\", id = null:s, opt = \"set\","
        " nest = [{k = \"a\", v = null:s}], cnest = null:obj{k:s,v:s},"
        " filter = [{f = \"x\", r = null:s}], one = null:obj{f:s,r:s}}"));
  T_VAL(got,
        V("{name = \"n\", id = ?:s, opt = \"set\","
          " nest = [{k = \"a\", v = ?:s}], cnest = ?:obj{k:s,v:s},"
          " filter = [{f = \"x\", r = ?:s}], one = null:obj{f:s,r:s}}"));
  got = objc_planned_data(&A, s,
      V("{name = \"n\", id = null:s, opt = null:s,"
        " nest = null:list(obj{k:s,v:s}), cnest = null:obj{k:s,v:s},"
        " filter = []:obj{f:s,r:s}, one = {f = null:s, r = null:s}}"));
  T_VAL(got,
        V("{name = \"n\", id = ?:s, opt = ?:s,"
          " nest = null:list(obj{k:s,v:s}), cnest = ?:obj{k:s,v:s},"
          " filter = []:obj{f:s,r:s}, one = {f = null:s, r = ?:s}}"));
}

/* ---- AssertPlanValid, more cases --------------------------------------- */

static void test_apv_sensitive_and_write_only(void)
{
  ProvAttrSchema attrs[] = {AT("pw", "s", OPT | SENS), AT("b", "s", OPT),
                            AT("wo", "s", OPT | WO)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  apv_case(s, "null:obj{pw:s,b:s,wo:s}", "{pw = \"a\", b = null:s, wo = null:s}",
           "{pw = \"b\", b = null:s, wo = null:s}",
           ".pw: sensitive planned value does not match config value");
  apv_case(s, "{pw = \"z\", b = null:s, wo = null:s}",
           "{pw = \"a\", b = null:s, wo = null:s}",
           "{pw = \"b\", b = null:s, wo = null:s}",
           ".pw: sensitive planned value does not match config value nor "
           "prior value");
  apv_case(s, "null:obj{pw:s,b:s,wo:s}", "{pw = null:s, b = null:s, wo = null:s}",
           "{pw = \"b\", b = null:s, wo = null:s}",
           ".pw: sensitive planned value for a non-computed attribute");
  /* A sensitive mark on the value hides it too. */
  apv_case(s, "null:obj{pw:s,b:s,wo:s}", "{pw = null:s, b = sens(\"x\"), wo = null:s}",
           "{pw = null:s, b = sens(\"y\"), wo = null:s}",
           ".b: sensitive planned value does not match config value");
  apv_case(s, "null:obj{pw:s,b:s,wo:s}", "{pw = null:s, b = null:s, wo = \"w\"}",
           "{pw = null:s, b = null:s, wo = null:s}", "");
  apv_case(s, "null:obj{pw:s,b:s,wo:s}", "{pw = null:s, b = null:s, wo = null:s}",
           "{pw = null:s, b = null:s, wo = \"w\"}",
           ".wo: planned value for write-only attribute is not null");
}

static void test_apv_unknowns(void)
{
  ProvAttrSchema attrs[] = {AT("a", "s", OPT), AT("c", "s", OC),
                            AT("n", "n", OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  /* Config unknown may stay unknown; computed may become unknown. */
  apv_case(s, "null:obj{a:s,c:s,n:n}", "{a = ?:s, c = null:s, n = 1}",
           "{a = ?:s, c = ?:s, n = 1}", "");
  apv_case(s, "null:obj{a:s,c:s,n:n}", "{a = \"x\", c = null:s, n = 1}",
           "{a = ?:s, c = ?:s, n = 2}",
           ".a: planned value cty.UnknownVal(cty.String) does not match "
           "config value cty.StringVal(\"x\")\n"
           ".n: planned value cty.NumberIntVal(2) does not match config "
           "value cty.NumberIntVal(1)");
  /* Refinements are ignored when comparing. */
  apv_case(s, "null:obj{a:s,c:s,n:n}", "{a = ?:s, c = null:s, n = 1}",
           "{a = ?!:s, c = null:s, n = 1}", "");
}

static void test_apv_blocks(void)
{
  ProvAttrSchema ba[] = {AT("x", "s", OPT), AT("y", "s", OC)};
  ProvBlockSchema *inner = BLK(ba, 2, NULL, 0);
  ProvNestedBlock blocks[] = {NB("l", PROV_NEST_LIST, inner),
                              NB("m", PROV_NEST_MAP, inner),
                              NB("one", PROV_NEST_SINGLE, inner),
                              NB("st", PROV_NEST_SET, inner)};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 4);
  const char *nul = "null:obj{l:list(obj{x:s,y:s}),m:map(obj{x:s,y:s}),"
                    "one:obj{x:s,y:s},st:set(obj{x:s,y:s})}";
  apv_case(s, nul,
           "{l = [{x = \"a\", y = null:s}], m = map{\"k\" = {x = \"b\", y = null:s}},"
           " one = {x = \"c\", y = null:s}, st = set[{x = \"d\", y = null:s}]}",
           "{l = [{x = \"a\", y = ?:s}], m = map{\"k\" = {x = \"b\", y = \"q\"}},"
           " one = {x = \"c\", y = ?:s}, st = set[{x = \"d\", y = ?:s}]}",
           "");
  apv_case(s, nul,
           "{l = [{x = \"a\", y = null:s}], m = map{\"k\" = {x = \"b\", y = null:s}},"
           " one = {x = \"c\", y = null:s}, st = set[{x = \"d\", y = null:s}]}",
           "{l = [{x = \"a\", y = null:s}, {x = \"a\", y = null:s}],"
           " m = map{\"k\" = {x = \"z\", y = null:s}},"
           " one = null:obj{x:s,y:s}, st = null:set(obj{x:s,y:s})}",
           ".l: block count in plan (2) disagrees with count in config (1)\n"
           ".m[\"k\"].x: planned value cty.StringVal(\"z\") does not match "
           "config value cty.StringVal(\"b\")\n"
           ".one: planned for absence but config wants existence\n"
           ".st: attribute representing a set of nested blocks must be empty "
           "to indicate no blocks, not null");
  apv_case(s, nul,
           "{l = ?:list(obj{x:s,y:s}), m = map{}:obj{x:s,y:s},"
           " one = null:obj{x:s,y:s}, st = set[]:obj{x:s,y:s}}",
           "{l = []:obj{x:s,y:s}, m = map{\"k\" = {x = \"b\", y = null:s}},"
           " one = {x = null:s, y = null:s}, st = set[?:obj{x:s,y:s}]}",
           ".l: planned value cty.ListValEmpty(cty.Object(map[string]cty.Type"
           "{\"x\":cty.String, \"y\":cty.String})) for unknown dynamic block\n"
           ".m: block count in plan (1) disagrees with count in config (0)\n"
           ".one: planned for existence but config wants absence\n"
           ".st[(not yet known)]: element representing nested block must not "
           "be unknown itself; set nested attribute values to unknown instead");
  apv_case(s, nul,
           "{l = [{x = \"a\", y = null:s}], m = map{}:obj{x:s,y:s},"
           " one = null:obj{x:s,y:s}, st = set[]:obj{x:s,y:s}}",
           "{l = [?:obj{x:s,y:s}], m = null:map(obj{x:s,y:s}),"
           " one = null:obj{x:s,y:s}, st = ?:set(obj{x:s,y:s})}",
           ".l[0]: element representing nested block must not be unknown "
           "itself; set nested attribute values to unknown instead\n"
           ".m: attribute representing a map of nested blocks must be empty "
           "to indicate no blocks, not null\n"
           ".st: planned unknown value for non-computed block");
}

static void test_apv_nested_attributes(void)
{
  ProvAttrSchema na[] = {AT("x", "s", OPT), AT("y", "s", OC)};
  ProvAttrSchema attrs[] = {NAT("single", PROV_NEST_SINGLE, na, 2, OPT),
                            NAT("list", PROV_NEST_LIST, na, 2, OPT),
                            NAT("map", PROV_NEST_MAP, na, 2, OPT),
                            NAT("set", PROV_NEST_SET, na, 2, OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  const char *nul = "null:obj{single:obj{x:s,y:s},list:list(obj{x:s,y:s}),"
                    "map:map(obj{x:s,y:s}),set:set(obj{x:s,y:s})}";
  apv_case(s, nul,
           "{single = {x = \"a\", y = null:s}, list = [{x = \"b\", y = null:s}],"
           " map = map{\"k\" = {x = \"c\", y = null:s}},"
           " set = set[{x = \"d\", y = null:s}]}",
           "{single = {x = \"a\", y = ?:s}, list = [{x = \"b\", y = \"v\"}],"
           " map = map{\"k\" = {x = \"c\", y = ?:s}},"
           " set = set[{x = \"d\", y = ?:s}]}",
           "");
  apv_case(s, nul,
           "{single = {x = \"a\", y = null:s}, list = [{x = \"b\", y = null:s}],"
           " map = map{\"k\" = {x = \"c\", y = null:s}},"
           " set = set[{x = \"d\", y = null:s}]}",
           "{single = {x = \"z\", y = ?:s}, list = []:obj{x:s,y:s},"
           " map = map{\"j\" = {x = \"c\", y = null:s}},"
           " set = set[{x = \"d\", y = null:s}, {x = \"e\", y = null:s}]}",
           ".single.x: planned value cty.StringVal(\"z\") does not match "
           "config value cty.StringVal(\"a\")\n"
           ".list: count in plan (cty.NumberIntVal(0)) disagrees with count "
           "in config (cty.NumberIntVal(1))\n"
           ".map: map key \"j\" from plan is not present in config\n"
           ".map: map key \"k\" from config is not present in plan\n"
           ".set: count in plan (cty.NumberIntVal(2)) disagrees with count in "
           "config (cty.NumberIntVal(1))");
  apv_case(s, nul,
           "{single = {x = \"a\", y = null:s}, list = null:list(obj{x:s,y:s}),"
           " map = null:map(obj{x:s,y:s}), set = null:set(obj{x:s,y:s})}",
           "{single = ?:obj{x:s,y:s}, list = [{x = \"b\", y = null:s}],"
           " map = null:map(obj{x:s,y:s}), set = null:set(obj{x:s,y:s})}",
           ".single: planned unknown value for non-computed block\n"
           ".list: planned value cty.ListVal([]cty.Value{cty.ObjectVal("
           "map[string]cty.Value{\"x\":cty.StringVal(\"b\"), "
           "\"y\":cty.NullVal(cty.String)})}) for a non-computed attribute");
}

static void test_apv_whole_object(void)
{
  ProvAttrSchema attrs[] = {AT("a", "s", OPT)};
  ProvBlockSchema *s = BLK(attrs, 1, NULL, 0);
  apv_case(s, "{a = \"x\"}", "null:obj{a:s}", "null:obj{a:s}", "");
  apv_case(s, "{a = \"x\"}", "null:obj{a:s}", "{a = \"x\"}",
           "planned for existence but config wants absence");
  apv_case(s, "null:obj{a:s}", "{a = \"x\"}", "null:obj{a:s}",
           "planned for absence but config wants existence");
}

/* ---- AssertObjectCompatible, more cases --------------------------------- */

static void test_aoc_values(void)
{
  ProvAttrSchema attrs[] = {AT("s", "s", OPT), AT("n", "n", OPT),
                            AT("l", "list(s)", OPT), AT("m", "map(s)", OPT),
                            AT("st", "set(s)", OPT), AT("d", "any", OPT),
                            AT("pw", "s", OPT | SENS)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), NULL, 0);
  const char *base = "{s = \"a\", n = 1, l = [\"x\"], m = map{\"k\" = \"v\"},"
                     " st = set[\"p\"], d = \"dyn\", pw = \"secret\"}";
  aoc_case(s, base, base, "");
  aoc_case(s,
           "{s = ?:s, n = ?:n, l = ?:list(s), m = ?:map(s), st = ?:set(s),"
           " d = ?:any, pw = ?:s}",
           base, "");
  aoc_case(s, base,
           "{s = \"b\", n = 2, l = [\"x\", \"y\"], m = map{\"j\" = \"v\"},"
           " st = set[\"p\", \"q\"], d = 5, pw = \"other\"}",
           ".s: was cty.StringVal(\"a\"), but now cty.StringVal(\"b\")\n"
           ".n: was cty.NumberIntVal(1), but now cty.NumberIntVal(2)\n"
           ".l: new element 1 has appeared\n"
           ".m: element \"k\" has vanished\n"
           ".m: new element \"j\" has appeared\n"
           ".st: actual set element cty.StringVal(\"q\") does not correlate "
           "with any element in plan\n"
           ".st: length changed from 1 to 2\n"
           ".d: wrong final value type: string required\n"
           ".pw: inconsistent values for sensitive attribute");
  aoc_case(s,
           "{s = null:s, n = 1, l = [\"x\"], m = map{\"k\" = \"v\"},"
           " st = set[\"p\"], d = \"dyn\", pw = null:s}",
           "{s = \"b\", n = null:n, l = [?:s], m = map{\"k\" = \"v\"},"
           " st = set[\"p\"], d = \"dyn\", pw = null:s}",
           ".s: was null, but now cty.StringVal(\"b\")\n"
           ".n: was cty.NumberIntVal(1), but now null\n"
           ".l[0]: was known, but now unknown");
  aoc_case(s,
           "{s = ?!:s, n = 1, l = [\"x\"], m = map{\"k\" = \"v\"},"
           " st = set[\"p\"], d = \"dyn\", pw = null:s}",
           "{s = null:s, n = 1, l = [\"x\"], m = map{\"k\" = \"v\"},"
           " st = set[\"p\"], d = \"dyn\", pw = null:s}",
           ".s: final value cty.NullVal(cty.String) does not conform to "
           "planning placeholder cty.UnknownVal(cty.String).RefineNotNull()");
}

static void test_aoc_blocks(void)
{
  ProvAttrSchema ba[] = {AT("x", "s", OPT), AT("id", "s", CMP)};
  ProvBlockSchema *inner = BLK(ba, 2, NULL, 0);
  ProvNestedBlock blocks[] = {NB("l", PROV_NEST_LIST, inner),
                              NB("m", PROV_NEST_MAP, inner),
                              NB("one", PROV_NEST_SINGLE, inner),
                              NB("st", PROV_NEST_SET, inner)};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 4);
  aoc_case(s,
           "{l = [{x = \"a\", id = ?:s}], m = map{\"k\" = {x = \"b\", id = ?:s}},"
           " one = ?:obj{x:s,id:s}, st = set[{x = \"d\", id = ?:s}]}",
           "{l = [{x = \"a\", id = \"1\"}], m = map{\"k\" = {x = \"b\", id = \"2\"}},"
           " one = null:obj{x:s,id:s}, st = set[{x = \"d\", id = \"3\"}]}",
           "");
  aoc_case(s,
           "{l = [{x = \"a\", id = ?:s}], m = map{\"k\" = {x = \"b\", id = ?:s}},"
           " one = {x = \"c\", id = ?:s}, st = set[{x = \"d\", id = ?:s}]}",
           "{l = []:obj{x:s,id:s}, m = map{\"k\" = {x = \"z\", id = \"2\"}},"
           " one = null:obj{x:s,id:s},"
           " st = set[{x = \"d\", id = \"3\"}, {x = \"e\", id = \"4\"}]}",
           ".l: block count changed from 1 to 0\n"
           ".m[\"k\"].x: was cty.StringVal(\"b\"), but now cty.StringVal(\"z\")\n"
           ".one: was present, but now absent\n"
           ".st: actual set element cty.ObjectVal(map[string]cty.Value{"
           "\"id\":cty.StringVal(\"4\"), \"x\":cty.StringVal(\"e\")}) does "
           "not correlate with any element in plan\n"
           ".st: block set length changed from 1 to 2");
  aoc_case(s,
           "{l = []:obj{x:s,id:s}, m = map{}:obj{x:s,id:s},"
           " one = null:obj{x:s,id:s}, st = set[]:obj{x:s,id:s}}",
           "null:obj{l:list(obj{x:s,id:s}),m:map(obj{x:s,id:s}),"
           "one:obj{x:s,id:s},st:set(obj{x:s,id:s})}",
           "Root object was present, but now absent");
  aoc_case(s,
           "{l = [{x = \"a\", id = ?:s}], m = map{}:obj{x:s,id:s},"
           " one = null:obj{x:s,id:s}, st = set[]:obj{x:s,id:s}}",
           "{l = null:list(obj{x:s,id:s}), m = map{}:obj{x:s,id:s},"
           " one = null:obj{x:s,id:s}, st = set[]:obj{x:s,id:s}}",
           ".l: null block value after apply");
}

static void test_aoc_wrong_type(void)
{
  ProvAttrSchema attrs[] = {AT("l", "list(s)", OPT)};
  ProvBlockSchema *s = BLK(attrs, 1, NULL, 0);
  ObjcErrs e = {0};
  bool ok = objc_assert_compatible(&A, s, V("{l = [\"a\"]}"),
                                   V("{l = set[\"a\"]}"), &e);
  T_CHECK(!ok);
  T_EQ_INT(e.n, 1);
  T_CHECK(strncmp(e.items[0].reason, "wrong final value type: ", 24) == 0);
}

/* ---- rendering, paths, requires_replace --------------------------------- */

static void test_gostring_rendering(void)
{
  ProvAttrSchema attrs[] = {AT("v", "any", OPT)};
  ProvBlockSchema *s = BLK(attrs, 1, NULL, 0);
  static const struct { const char *v, *want; } cases[] = {
    {"1", "cty.NumberIntVal(1)"},
    {"1000000", "cty.NumberIntVal(1e+06)"},
    {"1234567", "cty.NumberIntVal(1.234567e+06)"},
    {"-123456", "cty.NumberIntVal(-123456)"},
    {"1.5", "cty.NumberFloatVal(1.5)"},
    {"1234567.5", "cty.NumberFloatVal(1.2345675e+06)"},
    {"0.0001", "cty.MustParseNumberVal(\"0.0001\")"},
    {"0.00001", "cty.MustParseNumberVal(\"1e-05\")"},
    {"0.125", "cty.NumberFloatVal(0.125)"},
    {"0.1", "cty.MustParseNumberVal(\"0.1\")"},
    {"\"a\\\"b\\\\c\\n\x01\xc3\xa9\t\"",
     "cty.StringVal(\"a\\\"b\\\\c\\n\\x01\xc3\xa9\\t\")"},
    {"true", "cty.True"},
    {"null:s", "cty.NullVal(cty.String)"},
    {"?:s", "cty.UnknownVal(cty.String)"},
    {"?!:s", "cty.UnknownVal(cty.String).RefineNotNull()"},
    {"?:any", "cty.DynamicVal"},
    {"null:any", "cty.NullVal(cty.DynamicPseudoType)"},
    {"[\"a\", \"b\"]", "cty.ListVal([]cty.Value{cty.StringVal(\"a\"), "
                       "cty.StringVal(\"b\")})"},
    {"[]:s", "cty.ListValEmpty(cty.String)"},
    {"set[\"a\"]", "cty.SetVal([]cty.Value{cty.StringVal(\"a\")})"},
    {"set[]:n", "cty.SetValEmpty(cty.Number)"},
    {"map{\"b\" = true, \"a\" = false}",
     "cty.MapVal(map[string]cty.Value{\"a\":cty.False, \"b\":cty.True})"},
    {"map{}:b", "cty.MapValEmpty(cty.Bool)"},
    {"{b = true, a = null:list(s)}",
     "cty.ObjectVal(map[string]cty.Value{\"a\":cty.NullVal(cty.List("
     "cty.String)), \"b\":cty.True})"},
    {"{}", "cty.EmptyObjectVal"},
    {"tup[true, \"x\"]", "cty.TupleVal([]cty.Value{cty.True, "
                         "cty.StringVal(\"x\")})"},
    {"tup[]", "cty.EmptyTupleVal"},
    {"null:obj{a:s,b:set(n)}", "cty.NullVal(cty.Object(map[string]cty.Type{"
                               "\"a\":cty.String, \"b\":cty.Set(cty.Number)}))"},
    {"null:tup[s]", "cty.NullVal(cty.Tuple([]cty.Type{cty.String}))"},
    {"null:obj{}", "cty.NullVal(cty.EmptyObject)"},
    {"null:map(s)", "cty.NullVal(cty.Map(cty.String))"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ObjcErrs e = {0};
    Value v = V(cases[i].v);
    const char *want;
    if (val_is_null(v) || val_is_unknown(v)) {
      /* Nulls and unknowns show up as planned values. */
      objc_assert_plan_valid(&A, s, V("null:obj{v:s}"), V("{v = \"c\"}"),
                             val_object(&A, 1, (const char *[]){"v"}, &v), &e);
      want = arena_printf(&A, "planned value %s does not match config "
                              "value cty.StringVal(\"c\")", cases[i].want);
    } else {
      /* Known values: "was null, but now V" against a null of V's type. */
      Value nul = val_null(v.type);
      objc_assert_compatible(&A, s,
                             val_object(&A, 1, (const char *[]){"v"}, &nul),
                             val_object(&A, 1, (const char *[]){"v"}, &v), &e);
      want = arena_printf(&A, "was null, but now %s", cases[i].want);
    }
    T_EQ_INT(e.n, 1);
    if (e.n == 1)
      T_EQ_STR(e.items[0].reason, want);
  }
}

static void test_null_rendering_in_plan(void)
{
  ProvAttrSchema attrs[] = {AT("v", "any", OPT)};
  ProvBlockSchema *s = BLK(attrs, 1, NULL, 0);
  static const struct { const char *v, *want; } cases[] = {
    {"null:any", "cty.NullVal(cty.DynamicPseudoType)"},
    {"null:obj{a:s,b:set(n)}", "cty.NullVal(cty.Object(map[string]cty.Type{"
                               "\"a\":cty.String, \"b\":cty.Set(cty.Number)}))"},
    {"null:map(s)", "cty.NullVal(cty.Map(cty.String))"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ObjcErrs e = {0};
    const char *pl = arena_printf(&A, "{v = %s}", cases[i].v);
    objc_assert_plan_valid(&A, s, V("null:obj{v:s}"), V("{v = \"c\"}"),
                           V(pl), &e);
    T_EQ_INT(e.n, 1);
    if (e.n == 1)
      T_EQ_STR(e.items[0].reason,
               arena_printf(&A, "planned value %s does not match config "
                                "value cty.StringVal(\"c\")", cases[i].want));
  }
}

static void test_path_string(void)
{
  PathStep st[] = {{.kind = PS_ATTR, .name = "a"},
                   {.kind = PS_INDEX, .index = 0},
                   {.kind = PS_KEY, .name = "k\"x"},
                   {.kind = PS_INDEX, .index = OBJC_STEP_SET_ELEM},
                   {.kind = PS_INDEX, .index = OBJC_STEP_SET_UNKNOWN},
                   {.kind = PS_ATTR, .name = "b"}};
  ValPath p = {.steps = st, .n = 6};
  T_EQ_STR(objc_path_string(&A, p),
           ".a[0][\"k\\\"x\"][...][(not yet known)].b");
  ValPath empty = {0};
  T_EQ_STR(objc_path_string(&A, empty), "");
}

static void test_path_changed(void)
{
  Value prior = V("{a = \"x\", l = [\"p\", \"q\"], m = map{\"k\" = 1},"
                  " o = {i = sens(\"s\")}, n = null:s}");
  Value same = V("{a = \"x\", l = [\"p\", \"q\"], m = map{\"k\" = 1},"
                 " o = {i = \"s\"}, n = null:s}");
  Value diff = V("{a = \"y\", l = [\"p\", ?:s], m = map{\"k\" = 2},"
                 " o = ?:obj{i:s}, n = \"now\"}");
  PathStep a[] = {{.kind = PS_ATTR, .name = "a"}};
  PathStep l1[] = {{.kind = PS_ATTR, .name = "l"}, {.kind = PS_INDEX, .index = 1}};
  PathStep l0[] = {{.kind = PS_ATTR, .name = "l"}, {.kind = PS_INDEX, .index = 0}};
  PathStep mk[] = {{.kind = PS_ATTR, .name = "m"}, {.kind = PS_KEY, .name = "k"}};
  PathStep oi[] = {{.kind = PS_ATTR, .name = "o"}, {.kind = PS_ATTR, .name = "i"}};
  PathStep n[] = {{.kind = PS_ATTR, .name = "n"}};
  PathStep nope[] = {{.kind = PS_ATTR, .name = "zzz"}};
  PathStep l9[] = {{.kind = PS_ATTR, .name = "l"}, {.kind = PS_INDEX, .index = 9}};
  bool ex = false;
  ValPath p = {a, 1};
  T_CHECK(!objc_path_changed(prior, same, p, &ex) && ex);
  T_CHECK(objc_path_changed(prior, diff, p, &ex) && ex);
  p = (ValPath){l1, 2};
  T_CHECK(!objc_path_changed(prior, same, p, &ex));
  T_CHECK(objc_path_changed(prior, diff, p, &ex));
  p = (ValPath){l0, 2};
  T_CHECK(!objc_path_changed(prior, diff, p, &ex));
  p = (ValPath){mk, 2};
  T_CHECK(objc_path_changed(prior, diff, p, &ex));
  p = (ValPath){oi, 2};
  T_CHECK(!objc_path_changed(prior, same, p, &ex) && ex); /* marks ignored */
  T_CHECK(objc_path_changed(prior, diff, p, &ex) && ex);  /* unknown */
  p = (ValPath){n, 1};
  T_CHECK(!objc_path_changed(prior, same, p, &ex));
  T_CHECK(objc_path_changed(prior, diff, p, &ex));
  p = (ValPath){nope, 1};
  T_CHECK(!objc_path_changed(prior, diff, p, &ex) && !ex);
  p = (ValPath){l9, 2};
  T_CHECK(!objc_path_changed(prior, diff, p, &ex) && !ex);
  /* Exists on one side only: compared with null. */
  Value longer = V("{a = \"x\", l = [\"p\", \"q\", \"r\"], m = map{\"k\" = 1},"
                   " o = {i = \"s\"}, n = null:s}");
  PathStep l2[] = {{.kind = PS_ATTR, .name = "l"}, {.kind = PS_INDEX, .index = 2}};
  p = (ValPath){l2, 2};
  T_CHECK(objc_path_changed(prior, longer, p, &ex) && ex);
}

/* Bad shapes must not crash: values that do not fit the schema. */
static void test_mismatched_values_do_not_crash(void)
{
  ProvAttrSchema ba[] = {AT("x", "s", OC)};
  ProvNestedBlock blocks[] = {NB("b", PROV_NEST_SET, BLK(ba, 1, NULL, 0)),
                              NB("l", PROV_NEST_LIST, BLK(ba, 1, NULL, 0))};
  ProvAttrSchema attrs[] = {AT("a", "s", OC), NAT("na", PROV_NEST_MAP, ba, 1, OPT)};
  ProvBlockSchema *s = BLK(attrs, NA(attrs), blocks, 2);
  Value weird = V("{a = 1, b = [\"x\"], l = \"str\", na = [1]}");
  Value other = V("{zz = true}");
  Value r = objc_proposed_new(&A, s, other, weird);
  T_CHECK(r.type != NULL);
  r = objc_proposed_new(&A, s, weird, other);
  T_CHECK(r.type != NULL);
  ObjcErrs e = {0};
  objc_assert_plan_valid(&A, s, other, weird, other, &e);
  objc_assert_compatible(&A, s, weird, other, &e);
  objc_assert_compatible(&A, s, other, weird, &e);
  T_CHECK(e.n > 0);
}

/* ProposedNew over many instances stays linear: 20000 list elements. */
static void test_large_list_linear(void)
{
  ProvAttrSchema ba[] = {AT("x", "s", OPT), AT("id", "s", CMP)};
  ProvNestedBlock blocks[] = {NB("l", PROV_NEST_LIST, BLK(ba, 2, NULL, 0))};
  ProvBlockSchema *s = BLK(NULL, 0, blocks, 1);
  uint32_t n = 20000;
  Value *pe = ARENA_NEW(&A, Value, n), *ce = ARENA_NEW(&A, Value, n);
  const char *names[] = {"id", "x"};
  for (uint32_t i = 0; i < n; i++) {
    Value pv[] = {val_cstr(&A, "i"), val_cstr(&A, "x")};
    Value cv[] = {val_null(&ty_string), val_cstr(&A, "x")};
    pe[i] = val_object(&A, 2, names, pv);
    ce[i] = val_object(&A, 2, names, cv);
  }
  const char *top[] = {"l"};
  Value pl = val_list(&A, NULL, pe, n), cl = val_list(&A, NULL, ce, n);
  Value prior = val_object(&A, 1, top, &pl);
  Value config = val_object(&A, 1, top, &cl);
  Value r = objc_proposed_new(&A, s, prior, config);
  T_VAL(r, prior);
  ObjcErrs e = {0};
  T_CHECK(objc_assert_plan_valid(&A, s, prior, config, r, &e));
  T_CHECK(objc_assert_compatible(&A, s, r, prior, &e));
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
  T_RUN(test_pn_prior_nested_single_to_null);
  T_RUN(test_pn_prior_optional_computed_nested_single_to_null);
  T_RUN(test_pn_optional_computed_nested_all_computed_keeps_prior);
  T_RUN(test_pn_prior_nested_map);
  T_RUN(test_pn_prior_nested_map_dynamic);
  T_RUN(test_pn_prior_nested_set);
  T_RUN(test_pn_set_partial_optional_computed_change);
  T_RUN(test_pn_set_without_partial_optional_computed_change);
  T_RUN(test_pn_sets_differing_only_by_unknown);
  T_RUN(test_pn_nested_list_in_set);
  T_RUN(test_pn_empty_nested_list_in_set);
  T_RUN(test_pn_nested_set_in_set_must_match);
  T_RUN(test_pn_null_config_and_unknown);
  T_RUN(test_pn_unknown_dynamic_block_passthrough);
  T_RUN(test_pn_group_block_created);
  T_RUN(test_pn_sensitive_marks_kept);
  T_RUN(test_planned_data);
  T_RUN(test_apv_sensitive_and_write_only);
  T_RUN(test_apv_unknowns);
  T_RUN(test_apv_blocks);
  T_RUN(test_apv_nested_attributes);
  T_RUN(test_apv_whole_object);
  T_RUN(test_aoc_values);
  T_RUN(test_aoc_blocks);
  T_RUN(test_aoc_wrong_type);
  T_RUN(test_gostring_rendering);
  T_RUN(test_null_rendering_in_plan);
  T_RUN(test_path_string);
  T_RUN(test_path_changed);
  T_RUN(test_mismatched_values_do_not_crash);
  T_RUN(test_large_list_linear);
  int rc = t_done("objchange");
  arena_release(&A);
  return rc;
}
