/*
** test_decode: dec_body and dec_body_refs against hand-written schemas.
*/
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/value.h"
#include "lang/eval.h"
#include "lang/hcl.h"
#include "providers/decode.h"
#include "providers/provider.h"
#include "t.h"

/* ---- Schemas --------------------------------------------------------- */

static const ProvAttrSchema inner_attrs[] = {
    {"port", &ty_number, NULL, PROV_REQUIRED, NULL, NULL},
    {"proto", &ty_string, NULL, PROV_OPTIONAL, NULL, NULL},
};
static const ProvBlockSchema inner = {inner_attrs, 2, NULL, 0, NULL, false,
                                      NULL};

static const ProvAttrSchema obj_attrs[] = {
    {"a", &ty_number, NULL, PROV_REQUIRED, NULL, NULL},
    {"b", &ty_string, NULL, PROV_OPTIONAL, NULL, NULL},
    {"c", &ty_string, NULL, PROV_COMPUTED, NULL, NULL},
};
static const ProvObjectSchema obj_single = {PROV_NEST_SINGLE, obj_attrs, 3};
static const ProvObjectSchema obj_list = {PROV_NEST_LIST, obj_attrs, 3};

static const ProvAttrSchema top_attrs[] = {
    {"name", &ty_string, NULL, PROV_REQUIRED, NULL, NULL},
    {"size", &ty_number, NULL, PROV_OPTIONAL, NULL, NULL},
    {"enabled", &ty_bool, NULL, PROV_OPTIONAL, NULL, NULL},
    {"id", &ty_string, NULL, PROV_COMPUTED, NULL, NULL},
    {"secret", &ty_string, NULL, PROV_OPTIONAL | PROV_SENSITIVE, NULL, NULL},
    {"obj", NULL, &obj_single, PROV_OPTIONAL, NULL, NULL},
    {"objs", NULL, &obj_list, PROV_OPTIONAL, NULL, NULL},
};

static const ProvNestedBlock top_blocks[] = {
    {"single", PROV_NEST_SINGLE, &inner, 0, 0},
    {"group", PROV_NEST_GROUP, &inner, 0, 0},
    {"rule", PROV_NEST_LIST, &inner, 0, 2},
    {"tag", PROV_NEST_SET, &inner, 0, 0},
    {"named", PROV_NEST_MAP, &inner, 0, 0},
};
static const ProvBlockSchema top = {top_attrs, 7, top_blocks, 5, NULL, false,
                                    NULL};

static const ProvNestedBlock req_blocks[] = {
    {"must", PROV_NEST_SINGLE, &inner, 1, 0},
    {"two", PROV_NEST_LIST, &inner, 2, 0},
};
static const ProvBlockSchema req = {NULL, 0, req_blocks, 2, NULL, false, NULL};

/* ---- Harness --------------------------------------------------------- */

typedef struct Fx {
  Arena a;
  Diags d;
  EvalCtx ctx;
  EvalVar vars[1];
} Fx;

static void fx_init(Fx *f)
{
  arena_init(&f->a, 0);
  diag_init(&f->d, &f->a);
  eval_ctx_init(&f->ctx, &f->a, &f->d);
  /* var = {known = "k", unk = (unknown string), sec = (sensitive "s"),
  **        list = ["x", "y"], m = {p = "1", q = "2"}} */
  static const char *const names[] = {"known", "unk", "sec", "list", "m"};
  Value vals[5];
  vals[0] = val_cstr(&f->a, "k");
  vals[1] = val_unknown(&ty_string);
  vals[2] = val_sensitive(val_cstr(&f->a, "s"));
  Value *le = ARENA_NEW(&f->a, Value, 2);
  le[0] = val_cstr(&f->a, "x");
  le[1] = val_cstr(&f->a, "y");
  vals[3] = val_list(&f->a, &ty_string, le, 2);
  MapEntry *me = ARENA_NEW(&f->a, MapEntry, 2);
  me[0].key = "p";
  me[0].keylen = 1;
  me[0].val = val_cstr(&f->a, "1");
  me[1].key = "q";
  me[1].keylen = 1;
  me[1].val = val_cstr(&f->a, "2");
  vals[4] = val_map(&f->a, &ty_string, me, 2);
  f->vars[0].name = "var";
  f->vars[0].val = val_object(&f->a, 5, names, vals);
  f->ctx.vars = f->vars;
  f->ctx.nvars = 1;
}

static void fx_done(Fx *f) { arena_release(&f->a); }

static const HclBody *parse(Fx *f, const char *src)
{
  HclFile *file = hcl_parse_file(&f->a, "main.tf", src, strlen(src), &f->d);
  return file->body;
}

static const HclBody *parse_json(Fx *f, const char *src)
{
  HclFile *file =
      hcl_parse_json_file(&f->a, "main.tf.json", src, strlen(src), &f->d);
  return file->body;
}

static bool decode(Fx *f, const char *src, const ProvBlockSchema *s, Value *out)
{
  const HclBody *b = parse(f, src);
  T_EQ_INT(f->d.errors, 0);
  return dec_body(&f->ctx, b, s, out);
}

static Value get(Value obj, const char *name)
{
  bool found = false;
  Value v = val_attr(obj, name, &found);
  T_CHECK(found);
  return v;
}

static const char *str(Value v)
{
  if (v.type != &ty_string && (!v.type || v.type->kind != TY_STRING))
    return "(not a string)";
  if (val_is_null(v) || val_is_unknown(v))
    return "(null/unknown)";
  return v.u.s;
}

static int64_t num(Value v)
{
  int64_t i = -999;
  if (v.type && v.type->kind == TY_NUMBER && val_is_known(v) &&
      !val_is_null(v))
    val_num_int(v, &i);
  return i;
}

/* The only diagnostic, or NULL. */
static const Diag *one_diag(Fx *f)
{
  T_EQ_INT(f->d.errors + f->d.warnings, 1);
  return f->d.head;
}

static bool has_summary(Fx *f, const char *summary)
{
  for (const Diag *g = f->d.head; g; g = g->next)
    if (strcmp(g->summary, summary) == 0)
      return true;
  return false;
}

/* ---- Tests ----------------------------------------------------------- */

static void test_attributes(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(decode(&f, "name = \"a\"\nsize = \"5\"\nenabled = true\n", &top,
                 &v));
  T_CHECK(ty_equal(v.type, prov_schema_implied_type(&f.a, &top)));
  T_EQ_STR(str(get(v, "name")), "a");
  T_EQ_INT(num(get(v, "size")), 5);
  T_CHECK(get(v, "enabled").u.b);
  T_CHECK(val_is_null(get(v, "id")));
  T_CHECK(val_is_null(get(v, "secret")));
  T_CHECK(get(v, "id").type == &ty_string ||
          ty_equal(get(v, "id").type, &ty_string));
  /* number -> string conversion */
  T_CHECK(decode(&f, "name = 12\n", &top, &v));
  T_EQ_STR(str(get(v, "name")), "12");
  T_EQ_INT(f.d.errors, 0);
  fx_done(&f);
}

static void test_attribute_errors(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(!decode(&f, "size = 1\n", &top, &v));
  const Diag *g = one_diag(&f);
  if (g) {
    T_EQ_STR(g->summary, "Missing required argument");
    T_EQ_STR(g->detail,
             "The argument \"name\" is required, but no definition was "
             "found.");
  }
  T_CHECK(val_is_unknown(v));
  T_CHECK(ty_equal(v.type, prov_schema_implied_type(&f.a, &top)));
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = \"a\"\nsise = 1\n", &top, &v));
  g = one_diag(&f);
  if (g) {
    T_EQ_STR(g->summary, "Unsupported argument");
    T_EQ_STR(g->detail, "An argument named \"sise\" is not expected here. "
                        "Did you mean \"size\"?");
    T_EQ_INT(g->subject.start.line, 2);
    T_EQ_INT(g->subject.start.col, 1);
    T_EQ_INT(g->subject.end.col, 5);
  }
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = \"a\"\nsize = \"big\"\n", &top, &v));
  g = one_diag(&f);
  if (g) {
    T_EQ_STR(g->summary, "Incorrect attribute value type");
    T_EQ_STR(g->detail, "Inappropriate value for attribute \"size\": a "
                        "number is required.");
    T_EQ_INT(g->subject.start.line, 2);
    T_EQ_INT(g->subject.start.col, 8);
    T_EQ_INT(g->subject.end.col, 13);
    T_EQ_INT(g->context.start.col, 1);
  }
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = \"a\"\nname2 { }\n", &top, &v));
  g = one_diag(&f);
  if (g)
    T_EQ_STR(g->summary, "Unsupported block type");
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = [\"a\"]\n", &top, &v));
  g = one_diag(&f);
  if (g)
    T_EQ_STR(g->detail, "Inappropriate value for attribute \"name\": string "
                        "required.");
  fx_done(&f);
}

static void test_unknown_sensitive(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(decode(&f, "name = var.unk\nsecret = var.sec\nsize = length(var."
                     "unk)\n", &top, &v));
  T_CHECK(val_is_unknown(get(v, "name")));
  T_CHECK(ty_equal(get(v, "name").type, &ty_string));
  T_CHECK(val_is_sensitive(get(v, "secret")));
  T_EQ_STR(str(get(v, "secret")), "s");
  T_CHECK(val_is_unknown(get(v, "size")));
  T_CHECK(!val_is_unknown(v));
  /* marks survive dynamic expansion: on elements and on the collection */
  T_CHECK(decode(&f, "name = \"a\"\n"
                     "dynamic \"rule\" {\n  for_each = [var.sec]\n"
                     "  content {\n    port = 1\n    proto = rule.value\n"
                     "  }\n}\n"
                     "dynamic \"tag\" {\n  for_each = sensitive([\"t\"])\n"
                     "  content {\n    port = 2\n    proto = tag.value\n"
                     "  }\n}\n", &top, &v));
  Value r = get(v, "rule");
  T_EQ_INT(r.len, 1);
  if (r.len == 1)
    T_CHECK(val_is_sensitive(get(r.u.elems[0], "proto")));
  Value t = get(v, "tag");
  T_EQ_INT(t.len, 1);
  if (t.len == 1)
    T_CHECK(val_has_sensitive(t));
  fx_done(&f);
}

static void test_single_group(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(decode(&f, "name = \"a\"\n", &top, &v));
  T_CHECK(val_is_null(get(v, "single")));
  Value g = get(v, "group");
  T_CHECK(!val_is_null(g));
  T_CHECK(val_is_null(get(g, "port")));
  T_CHECK(decode(&f, "name = \"a\"\nsingle {\n  port = 80\n}\n"
                     "group {\n  port = \"81\"\n  proto = \"tcp\"\n}\n",
                 &top, &v));
  T_EQ_INT(num(get(get(v, "single"), "port")), 80);
  T_CHECK(val_is_null(get(get(v, "single"), "proto")));
  T_EQ_INT(num(get(get(v, "group"), "port")), 81);
  T_EQ_STR(str(get(get(v, "group"), "proto")), "tcp");
  T_EQ_INT(f.d.errors, 0);
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = \"a\"\nsingle {\n  port = 1\n}\n"
                      "single {\n  port = 2\n}\n", &top, &v));
  const Diag *d = one_diag(&f);
  if (d) {
    T_EQ_STR(d->summary, "Duplicate single block");
    T_EQ_STR(d->detail, "Only one block of type \"single\" is allowed. "
                        "Previous definition was at main.tf:2,1-7.");
    T_EQ_INT(d->subject.start.line, 5);
  }
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "single {\n}\n", &top, &v));
  T_EQ_INT(f.d.errors, 2);
  T_CHECK(has_summary(&f, "Missing required argument"));
  fx_done(&f);
}

static void test_list_set_map(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(decode(&f,
                 "name = \"a\"\n"
                 "rule {\n  port = 1\n}\n"
                 "rule {\n  port = 2\n}\n"
                 "tag {\n  port = 3\n}\n"
                 "tag {\n  port = 3\n}\n"
                 "named \"x\" {\n  port = 4\n}\n"
                 "named \"y\" {\n  port = 5\n}\n",
                 &top, &v));
  Value r = get(v, "rule");
  T_EQ_INT(r.type->kind, TY_LIST);
  T_EQ_INT(r.len, 2);
  if (r.len == 2)
    T_EQ_INT(num(get(r.u.elems[1], "port")), 2);
  Value t = get(v, "tag");
  T_EQ_INT(t.type->kind, TY_SET);
  T_EQ_INT(t.len, 1);   /* identical blocks collapse in a set */
  Value m = get(v, "named");
  T_EQ_INT(m.type->kind, TY_MAP);
  T_EQ_INT(m.len, 2);
  bool found = false;
  Value y = val_map_get(m, "y", 1, &found);
  T_CHECK(found);
  if (found)
    T_EQ_INT(num(get(y, "port")), 5);
  T_CHECK(ty_equal(v.type, prov_schema_implied_type(&f.a, &top)));
  /* absent collections are empty, not null */
  T_CHECK(decode(&f, "name = \"a\"\n", &top, &v));
  T_CHECK(!val_is_null(get(v, "rule")));
  T_EQ_INT(get(v, "rule").len, 0);
  T_EQ_INT(get(v, "named").len, 0);
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f,
                  "name = \"a\"\n"
                  "rule {\n  port = 1\n}\n"
                  "rule {\n  port = 2\n}\n"
                  "rule {\n  port = 3\n}\n",
                  &top, &v));
  const Diag *d = one_diag(&f);
  if (d) {
    T_EQ_STR(d->summary, "Too many rule blocks");
    T_EQ_STR(d->detail, "No more than 2 \"rule\" blocks are allowed");
    T_EQ_INT(d->subject.start.line, 8);
    T_EQ_INT(d->subject.start.col, 6);
  }
  fx_done(&f);

}

static void test_min_items(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(!decode(&f, "two {\n  port = 1\n}\n", &req, &v));
  T_EQ_INT(f.d.errors, 2);
  T_CHECK(has_summary(&f, "Missing must block"));
  T_CHECK(has_summary(&f, "Insufficient two blocks"));
  for (const Diag *g = f.d.head; g; g = g->next)
    if (strcmp(g->summary, "Insufficient two blocks") == 0)
      T_EQ_STR(g->detail, "At least 2 \"two\" blocks are required.");
  fx_done(&f);
}

static void test_map_duplicate(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(!decode(&f, "name = \"a\"\nnamed \"x\" {\n  port = 1\n}\n"
                      "named \"x\" {\n  port = 2\n}\n", &top, &v));
  const Diag *d = one_diag(&f);
  if (d) {
    T_EQ_STR(d->summary, "Duplicate named block");
    T_EQ_STR(d->detail, "A block for named \"x\" was already defined. The "
                        "named labels must be unique.");
  }
  fx_done(&f);
}

static void test_nested_attr_types(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(decode(&f, "name = \"a\"\nobj = { a = \"1\" }\n"
                     "objs = [{ a = 2, b = \"x\" }, { a = 3 }]\n", &top, &v));
  Value o = get(v, "obj");
  T_EQ_INT(num(get(o, "a")), 1);
  T_CHECK(val_is_null(get(o, "b")));
  T_CHECK(val_is_null(get(o, "c")));
  Value l = get(v, "objs");
  T_EQ_INT(l.type->kind, TY_LIST);
  T_EQ_INT(l.len, 2);
  T_CHECK(ty_equal(v.type, prov_schema_implied_type(&f.a, &top)));
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = \"a\"\nobj = { b = \"x\" }\n", &top, &v));
  const Diag *d = one_diag(&f);
  if (d) {
    T_EQ_STR(d->summary, "Incorrect attribute value type");
    T_EQ_STR(d->detail, "Inappropriate value for attribute \"obj\": "
                        "attribute \"a\" is required.");
  }
  fx_done(&f);
}

static void test_dynamic(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(decode(&f,
                 "name = \"a\"\n"
                 "dynamic \"rule\" {\n"
                 "  for_each = var.list\n"
                 "  content {\n"
                 "    port  = rule.key + 10\n"
                 "    proto = rule.value\n"
                 "  }\n"
                 "}\n"
                 "dynamic \"named\" {\n"
                 "  for_each = var.m\n"
                 "  iterator = it\n"
                 "  labels   = [\"n-${it.key}\"]\n"
                 "  content {\n"
                 "    port = it.value\n"
                 "  }\n"
                 "}\n"
                 "dynamic \"single\" {\n"
                 "  for_each = [1]\n"
                 "  content {\n"
                 "    port = 7\n"
                 "  }\n"
                 "}\n",
                 &top, &v));
  Value r = get(v, "rule");
  T_EQ_INT(r.len, 2);
  if (r.len == 2) {
    T_EQ_INT(num(get(r.u.elems[0], "port")), 10);
    T_EQ_STR(str(get(r.u.elems[1], "proto")), "y");
  }
  Value m = get(v, "named");
  T_EQ_INT(m.len, 2);
  bool found = false;
  Value q = val_map_get(m, "n-q", 3, &found);
  T_CHECK(found);
  if (found)
    T_EQ_INT(num(get(q, "port")), 2);
  T_EQ_INT(num(get(get(v, "single"), "port")), 7);
  fx_done(&f);
}

static void test_dynamic_unknown(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(decode(&f,
                 "name = \"a\"\n"
                 "rule {\n  port = 1\n}\n"
                 "dynamic \"rule\" {\n"
                 "  for_each = var.unk == \"\" ? [] : [1]\n"
                 "  content {\n"
                 "    port = rule.value\n"
                 "  }\n"
                 "}\n"
                 "dynamic \"single\" {\n"
                 "  for_each = var.unk == \"\" ? [] : [1]\n"
                 "  content {\n"
                 "    port = 1\n"
                 "  }\n"
                 "}\n",
                 &top, &v));
  Value r = get(v, "rule");
  T_CHECK(val_is_unknown(r));
  T_EQ_INT(r.type->kind, TY_LIST);
  Value s = get(v, "single");
  T_CHECK(!val_is_unknown(s));
  T_CHECK(val_is_unknown(get(s, "port")));
  T_CHECK(val_is_null(get(s, "proto")));
  fx_done(&f);
}

static void test_dynamic_errors(void)
{
  Fx f;
  fx_init(&f);
  Value v;
  T_CHECK(!decode(&f, "name = \"a\"\ndynamic \"nope\" {\n  for_each = []\n"
                      "  content {}\n}\n", &top, &v));
  const Diag *d = one_diag(&f);
  if (d) {
    T_EQ_STR(d->summary, "Unsupported block type");
    T_EQ_STR(d->detail, "Blocks of type \"nope\" are not expected here.");
    T_EQ_INT(d->subject.start.col, 9);
  }
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = \"a\"\ndynamic \"rule\" {\n  for_each = 5\n"
                      "  content {}\n}\n", &top, &v));
  d = one_diag(&f);
  if (d) {
    T_EQ_STR(d->summary, "Invalid dynamic for_each value");
    T_EQ_STR(d->detail, "Cannot use a number value in for_each. An iterable "
                        "collection is required.");
  }
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = \"a\"\ndynamic \"rule\" {\n  for_each = [1]\n"
                      "}\n", &top, &v));
  d = one_diag(&f);
  if (d)
    T_EQ_STR(d->summary, "Missing dynamic content block");
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = \"a\"\ndynamic \"rule\" {\n  for_each = [1]\n"
                      "  content {\n    port = 1\n    bad = 2\n  }\n}\n",
                  &top, &v));
  d = one_diag(&f);
  if (d) {
    T_EQ_STR(d->summary, "Unsupported argument");
    T_EQ_INT(d->subject.start.line, 6);
  }
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = \"a\"\ndynamic \"named\" {\n  for_each = [1]\n"
                      "  content {\n    port = 1\n  }\n}\n", &top, &v));
  d = one_diag(&f);
  if (d)
    T_EQ_STR(d->summary, "Missing required argument");
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!decode(&f, "name = \"a\"\ndynamic \"rule\" {\n  for_each = [1]\n"
                      "  iterator = a.b\n  content {\n    port = 1\n  }\n"
                      "}\n", &top, &v));
  d = one_diag(&f);
  if (d)
    T_EQ_STR(d->summary, "Invalid dynamic iterator name");
  fx_done(&f);
}

static void test_json(void)
{
  Fx f;
  fx_init(&f);
  const HclBody *b = parse_json(&f,
                                "{\"name\": \"${var.known}-x\", \"size\": 3,"
                                " \"rule\": [{\"port\": 1}, {\"port\": 2}],"
                                " \"named\": {\"k\": {\"port\": 9}}}");
  T_EQ_INT(f.d.errors, 0);
  Value v;
  T_CHECK(dec_body(&f.ctx, b, &top, &v));
  T_EQ_STR(str(get(v, "name")), "k-x");
  T_EQ_INT(get(v, "rule").len, 2);
  T_EQ_INT(get(v, "named").len, 1);
  fx_done(&f);

  fx_init(&f);
  b = parse_json(&f, "{\"name\": \"a\", \"nme\": 1}");
  T_CHECK(!dec_body(&f.ctx, b, &top, &v));
  const Diag *d = one_diag(&f);
  if (d)
    T_EQ_STR(d->summary, "Extraneous JSON object property");
  fx_done(&f);
}

static bool has_ref(const HclTraversal *ts, uint32_t n, const char *root,
                    const char *attr)
{
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(ts[i].steps[0].name, root) == 0 &&
        (!attr || (ts[i].n > 1 && ts[i].steps[1].name &&
                   strcmp(ts[i].steps[1].name, attr) == 0)))
      return true;
  return false;
}

static void test_refs(void)
{
  Fx f;
  fx_init(&f);
  const HclBody *b = parse(&f,
                           "name = var.a\n"
                           "unknown_attr = var.ignored\n"
                           "single {\n  port = local.p\n}\n"
                           "dynamic \"rule\" {\n"
                           "  for_each = aws_thing.x.ids\n"
                           "  content {\n"
                           "    port = rule.value + data.d.e.n\n"
                           "    proto = each.key\n"
                           "  }\n"
                           "}\n"
                           "dynamic \"named\" {\n"
                           "  for_each = module.m.out\n"
                           "  iterator = it\n"
                           "  labels = [it.key, var.lbl]\n"
                           "  content {\n    port = it.value\n  }\n"
                           "}\n");
  HclTraversal *ts;
  uint32_t n;
  dec_body_refs(&f.a, b, &top, &ts, &n);
  T_CHECK(has_ref(ts, n, "var", "a"));
  T_CHECK(!has_ref(ts, n, "var", "ignored"));
  T_CHECK(has_ref(ts, n, "local", "p"));
  T_CHECK(has_ref(ts, n, "aws_thing", "x"));
  T_CHECK(has_ref(ts, n, "data", "d"));
  T_CHECK(has_ref(ts, n, "each", "key"));
  T_CHECK(has_ref(ts, n, "module", "m"));
  T_CHECK(has_ref(ts, n, "var", "lbl"));
  T_CHECK(!has_ref(ts, n, "rule", NULL));
  T_CHECK(!has_ref(ts, n, "it", NULL));
  T_EQ_INT(n, 7);
  T_EQ_INT(f.d.errors, 0);
  fx_done(&f);
}

int main(void)
{
  T_RUN(test_attributes);
  T_RUN(test_attribute_errors);
  T_RUN(test_unknown_sensitive);
  T_RUN(test_single_group);
  T_RUN(test_list_set_map);
  T_RUN(test_min_items);
  T_RUN(test_map_duplicate);
  T_RUN(test_nested_attr_types);
  T_RUN(test_dynamic);
  T_RUN(test_dynamic_unknown);
  T_RUN(test_dynamic_errors);
  T_RUN(test_json);
  T_RUN(test_refs);
  return t_done("test_decode");
}
