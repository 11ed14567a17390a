/*
** Unit tests for core/providers/provider and the built-in providers.
*/
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "providers/provider.h"
#include "t.h"

static Arena A;

/* ---- helpers -------------------------------------------------------- */

static Value S(const char *s) { return val_cstr(&A, s); }

static int64_t get_int_attr(Value obj, const char *name)
{
  int64_t i = -999999;
  Value v = prov_get(obj, name);
  if (!val_is_null(v) && val_is_known(v) && v.type->kind == TY_NUMBER)
    val_num_int(v, &i);
  return i;
}

static Value obj2(const char *n1, Value v1, const char *n2, Value v2)
{
  const char *names[2] = {n1, n2};
  Value vals[2] = {v1, v2};
  return val_object(&A, 2, names, vals);
}

static Value smap1(const char *k, const char *v)
{
  MapEntry *e = ARENA_NEW(&A, MapEntry, 1);
  e[0].key = arena_strdup(&A, k);
  e[0].keylen = (uint32_t)strlen(k);
  e[0].val = S(v);
  return val_map(&A, &ty_string, e, 1);
}

static bool has_replace(const ProvPlanResp *r, const char *name)
{
  for (uint32_t i = 0; i < r->nrequires_replace; i++)
    if (r->requires_replace[i].n == 1 &&
        strcmp(r->requires_replace[i].steps[0].name, name) == 0)
      return true;
  return false;
}

typedef struct Ctx {
  Diags d;
  ProvCall c;
} Ctx;

static ProvCall *call(Ctx *x)
{
  diag_init(&x->d, &A);
  x->c.arena = &A;
  x->c.diags = &x->d;
  x->c.paths = NULL;
  return &x->c;
}

static Prov *open_b(const char *src)
{
  const ProvBuiltin *b = prov_lookup_builtin(src);
  return b ? prov_open_builtin(&A, b) : NULL;
}

static const ProvBlockSchema *res_schema(Prov *p, const char *type)
{
  Ctx x;
  const ProvProviderSchema *s = NULL;
  p->ops->get_schema(p, call(&x), &s);
  const ProvTypeSchema *t = prov_schema_resource(s, type);
  return t ? t->schema.block : NULL;
}

/* Builds a value of block b's implied type from name/value pairs; other
** attributes null.  Strings given as values for string attributes. */
static Value mk(const ProvBlockSchema *b, int n, const char **names,
                const Value *vals)
{
  const Type *t = prov_schema_implied_type(&A, b);
  const char **nn = ARENA_NEW(&A, const char *, t->n);
  Value *vv = ARENA_NEW(&A, Value, t->n);
  for (uint32_t i = 0; i < t->n; i++) {
    nn[i] = t->names[i];
    vv[i] = val_null(t->types[i]);
    for (int k = 0; k < n; k++)
      if (strcmp(names[k], t->names[i]) == 0)
        vv[i] = vals[k];
  }
  return val_object(&A, t->n, nn, vv);
}

/* ---- source addresses ----------------------------------------------- */

static void test_source_normalize(void)
{
  Diags d;
  diag_init(&d, &A);
  T_EQ_STR(prov_source_normalize(&A, "null", NULL, &d),
           "registry.terraform.io/hashicorp/null");
  T_EQ_STR(prov_source_normalize(&A, "hashicorp/Local", NULL, &d),
           "registry.terraform.io/hashicorp/local");
  T_EQ_STR(prov_source_normalize(&A, "Registry.Terraform.io/hashicorp/random",
                                 NULL, &d),
           "registry.terraform.io/hashicorp/random");
  T_EQ_STR(prov_source_normalize(&A, "terraform", NULL, &d),
           "terraform.io/builtin/terraform");
  T_EQ_STR(prov_source_normalize(&A, "example.com/acme/thing", NULL, &d),
           "example.com/acme/thing");
  T_EQ_INT(d.errors, 0);
  T_CHECK(prov_source_normalize(&A, "a/b/c/d", NULL, &d) == NULL);
  T_CHECK(prov_source_normalize(&A, "", NULL, &d) == NULL);
  T_CHECK(prov_source_normalize(&A, "hashicorp//null", NULL, &d) == NULL);
  T_CHECK(prov_source_normalize(&A, "-bad", NULL, &d) == NULL);
  T_EQ_INT(d.errors, 4);
  T_EQ_STR(d.head->summary, "Invalid provider source string");
  T_CHECK(prov_source_normalize(&A, "acme/terraform-provider-x", NULL, &d) ==
          NULL);
  T_EQ_STR(d.tail->summary, "Invalid provider type");
  T_EQ_STR(prov_implied_type(&A, "null_resource"), "null");
  T_EQ_STR(prov_implied_type(&A, "terraform_data"), "terraform");
  T_EQ_STR(prov_implied_type(&A, "foo"), "foo");
}

static void test_lookup_builtin(void)
{
  T_CHECK(prov_lookup_builtin("null") == &prov_null_builtin);
  T_CHECK(prov_lookup_builtin("hashicorp/null") == &prov_null_builtin);
  T_CHECK(prov_lookup_builtin("registry.terraform.io/hashicorp/local") ==
          &prov_local_builtin);
  T_CHECK(prov_lookup_builtin("registry.opentofu.org/hashicorp/random") ==
          &prov_random_builtin);
  T_CHECK(prov_lookup_builtin("HashiCorp/Random") == &prov_random_builtin);
  T_CHECK(prov_lookup_builtin("terraform") == &prov_terraform_builtin);
  T_CHECK(prov_lookup_builtin("hashicorp/time") == &prov_time_builtin);
  T_CHECK(prov_lookup_builtin("hashicorp/tls") == &prov_tls_builtin);
  T_CHECK(prov_lookup_builtin("registry.terraform.io/hashicorp/external") ==
          &prov_external_builtin);
  T_CHECK(prov_lookup_builtin("terraform.io/builtin/terraform") ==
          &prov_terraform_builtin);
  T_CHECK(prov_lookup_builtin("hashicorp/archive") == &prov_archive_builtin);
#ifdef CAIRN_TEST
  T_CHECK(prov_lookup_builtin("cairn.test/test/misbehave") ==
          &prov_test_builtin);
#else
  T_CHECK(prov_lookup_builtin("cairn.test/test/misbehave") == NULL);
#endif
  T_CHECK(prov_lookup_builtin("hashicorp/http") == &prov_http_builtin);
  T_CHECK(prov_lookup_builtin("registry.terraform.io/hashicorp/cloudinit") ==
          &prov_cloudinit_builtin);
  T_CHECK(prov_lookup_builtin("acme/null") == NULL);
  T_CHECK(prov_lookup_builtin("hashicorp/aws") == NULL);
  T_CHECK(prov_lookup_builtin("a//b") == NULL);
  size_t n;
  prov_builtins(&n);
#ifdef CAIRN_TEST
  T_EQ_INT(n, 11);
#else
  T_EQ_INT(n, 10);
#endif
}

/* ---- schemas -------------------------------------------------------- */

static const ProvAttrSchema inner_attrs[] = {
  {.name = "x", .type = &ty_string, .flags = PROV_OPTIONAL},
  {.name = "secret", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_SENSITIVE},
};
static const ProvBlockSchema inner = {.attrs = inner_attrs, .nattrs = 2};
static const ProvAttrSchema dyn_attrs[] = {
  {.name = "d", .type = &ty_dynamic, .flags = PROV_OPTIONAL},
};
static const ProvBlockSchema dyn_inner = {.attrs = dyn_attrs, .nattrs = 1};
static const ProvObjectSchema nested_obj = {
  .nesting = PROV_NEST_LIST, .attrs = inner_attrs, .nattrs = 2};
static const ProvAttrSchema outer_attrs[] = {
  {.name = "name", .type = &ty_string, .flags = PROV_REQUIRED},
  {.name = "pw", .type = &ty_string, .flags = PROV_OPTIONAL | PROV_SENSITIVE},
  {.name = "rules", .nested = &nested_obj, .flags = PROV_OPTIONAL},
};
static const ProvNestedBlock outer_blocks[] = {
  {.type_name = "one", .nesting = PROV_NEST_SINGLE, .block = &inner},
  {.type_name = "many", .nesting = PROV_NEST_LIST, .block = &inner},
  {.type_name = "bag", .nesting = PROV_NEST_SET, .block = &inner},
  {.type_name = "named", .nesting = PROV_NEST_MAP, .block = &inner},
  {.type_name = "dyn", .nesting = PROV_NEST_LIST, .block = &dyn_inner},
};
static const ProvBlockSchema outer = {
  .attrs = outer_attrs, .nattrs = 3, .blocks = outer_blocks, .nblocks = 5};

static void test_implied_type(void)
{
  const Type *t = prov_schema_implied_type(&A, &outer);
  T_EQ_INT(t->kind, TY_OBJECT);
  T_EQ_INT(t->n, 8);
  Buf b;
  buf_init(&b, &A);
  ty_hcl(&b, t);
  T_EQ_STR(buf_str(&b),
           "object({bag=set(object({secret=string,x=string})),dyn=any,"
           "many=list(object({secret=string,x=string})),"
           "name=string,"
           "named=map(object({secret=string,x=string})),"
           "one=object({secret=string,x=string}),pw=string,"
           "rules=list(object({secret=string,x=string}))})");
  T_CHECK(prov_block_attr(&outer, "pw") == &outer_attrs[1]);
  T_CHECK(prov_block_attr(&outer, "nope") == NULL);
  T_CHECK(prov_block_nested(&outer, "many") == &outer_blocks[1]);
  T_CHECK(prov_block_nested(&outer, "pw") == NULL);
  T_CHECK(prov_schema_implied_type(&A, &(ProvBlockSchema){0}) ==
          &ty_empty_object);
}

static ValPath mkpath(int n, const PathStep *s)
{
  ValPath p = {s, (uint32_t)n};
  return p;
}

static void test_path_sensitive(void)
{
  PathStep pw[] = {{PS_ATTR, "pw", 0}};
  PathStep name[] = {{PS_ATTR, "name", 0}};
  PathStep many_secret[] = {{PS_ATTR, "many", 0}, {PS_INDEX, NULL, 3},
                            {PS_ATTR, "secret", 0}};
  PathStep many_x[] = {{PS_ATTR, "many", 0}, {PS_INDEX, NULL, 3},
                       {PS_ATTR, "x", 0}};
  PathStep one_secret[] = {{PS_ATTR, "one", 0}, {PS_ATTR, "secret", 0}};
  PathStep named_secret[] = {{PS_ATTR, "named", 0}, {PS_KEY, "k", 0},
                             {PS_ATTR, "secret", 0}};
  PathStep rules_secret[] = {{PS_ATTR, "rules", 0}, {PS_INDEX, NULL, 0},
                             {PS_ATTR, "secret", 0}};
  PathStep pw_deeper[] = {{PS_ATTR, "pw", 0}, {PS_INDEX, NULL, 0}};
  T_CHECK(prov_path_sensitive(&outer, mkpath(1, pw)));
  T_CHECK(prov_path_sensitive(&outer, mkpath(2, pw_deeper)));
  T_CHECK(!prov_path_sensitive(&outer, mkpath(1, name)));
  T_CHECK(prov_path_sensitive(&outer, mkpath(3, many_secret)));
  T_CHECK(!prov_path_sensitive(&outer, mkpath(3, many_x)));
  T_CHECK(prov_path_sensitive(&outer, mkpath(2, one_secret)));
  T_CHECK(prov_path_sensitive(&outer, mkpath(3, named_secret)));
  T_CHECK(prov_path_sensitive(&outer, mkpath(3, rules_secret)));
  T_CHECK(!prov_path_sensitive(&outer, mkpath(0, NULL)));
}

static void test_mark_sensitive(void)
{
  Value inner_v = obj2("secret", S("s"), "x", S("x"));
  Value elems[1] = {inner_v};
  Value many = val_list(&A, inner_v.type, elems, 1);
  const char *names[] = {"name", "pw", "many"};
  Value vals[] = {S("n"), S("p"), many};
  Value v = val_object(&A, 3, names, vals);
  Value m = prov_mark_sensitive(&A, &outer, v);
  T_CHECK(!val_is_sensitive(prov_get(m, "name")));
  T_CHECK(val_is_sensitive(prov_get(m, "pw")));
  Value ml = prov_get(m, "many");
  T_CHECK(!val_is_sensitive(ml));
  T_CHECK(val_is_sensitive(prov_get(ml.u.elems[0], "secret")));
  T_CHECK(!val_is_sensitive(prov_get(ml.u.elems[0], "x")));
  /* The input is not modified. */
  T_CHECK(!val_is_sensitive(prov_get(v, "pw")));
  T_CHECK(!val_has_sensitive(v));
}

static void test_schema_prepare(void)
{
  Prov *p = open_b("null");
  Ctx x;
  const ProvProviderSchema *s = NULL;
  p->ops->get_schema(p, call(&x), &s);
  T_CHECK(s != NULL);
  const ProvTypeSchema *r = prov_schema_resource(s, "null_resource");
  T_CHECK(r != NULL);
  T_CHECK(r->schema.block->implied != NULL);
  T_CHECK(prov_schema_implied_type(&A, r->schema.block) ==
          r->schema.block->implied);
  T_CHECK(prov_schema_data_source(s, "null_data_source") != NULL);
  T_CHECK(prov_schema_resource(s, "null_data_source") == NULL);
  T_CHECK(s->plan_destroy);
}

static void test_diag_attr(void)
{
  Ctx x;
  ProvCall *c = call(&x);
  Diag *g = prov_diag_attr(c, DIAG_ERROR, prov_path_attr(&A, "length"),
                           "Bad", "value %d", 3);
  Diag *h = diag_error(c->diags, NULL, "Other", NULL);
  T_EQ_STR(g->detail, "value 3");
  const ValPath *p = prov_diag_path(c, g);
  T_CHECK(p && p->n == 1 && strcmp(p->steps[0].name, "length") == 0);
  T_CHECK(prov_diag_path(c, h) == NULL);
}

/* ---- null ----------------------------------------------------------- */

static void test_null_resource(void)
{
  Prov *p = open_b("hashicorp/null");
  const ProvBlockSchema *b = res_schema(p, "null_resource");
  T_CHECK(b != NULL);
  const char *n1[] = {"triggers"};
  Value v1[] = {smap1("a", "1")};
  Value cfg = mk(b, 1, n1, v1);
  Value prior0 = prov_null_object(&A, b);
  Ctx x;
  ProvPlanReq pr = {.type_name = "null_resource", .prior_state = prior0,
                    .proposed_new_state = cfg, .config = cfg};
  ProvPlanResp ps = {0};
  p->ops->plan_resource_change(p, call(&x), &pr, &ps);
  T_EQ_INT(x.d.errors, 0);
  T_CHECK(!val_is_known(prov_get(ps.planned_state, "id")));
  T_EQ_INT(ps.nrequires_replace, 0);
  ProvApplyReq ar = {.type_name = "null_resource", .prior_state = prior0,
                     .planned_state = ps.planned_state, .config = cfg};
  ProvApplyResp as = {0};
  p->ops->apply_resource_change(p, call(&x), &ar, &as);
  Value st = as.new_state;
  T_CHECK(val_is_wholly_known(st));
  Value id = prov_get(st, "id");
  T_CHECK(id.len > 0 && strspn(id.u.s, "0123456789") == id.len);
  /* Same config: no replacement, id kept. */
  ProvPlanReq pr2 = {.type_name = "null_resource", .prior_state = st,
                     .proposed_new_state = st, .config = cfg};
  ProvPlanResp ps2 = {0};
  p->ops->plan_resource_change(p, call(&x), &pr2, &ps2);
  T_EQ_INT(ps2.nrequires_replace, 0);
  T_CHECK(val_raw_equal(ps2.planned_state, st, false));
  /* Changed trigger: replace. */
  Value v2[] = {smap1("a", "2")};
  Value cfg2 = mk(b, 1, n1, v2);
  Value prop2 = prov_set(&A, cfg2, "id", id);
  ProvPlanReq pr3 = {.type_name = "null_resource", .prior_state = st,
                     .proposed_new_state = prop2, .config = cfg2};
  ProvPlanResp ps3 = {0};
  p->ops->plan_resource_change(p, call(&x), &pr3, &ps3);
  T_CHECK(has_replace(&ps3, "triggers"));
  T_CHECK(val_raw_equal(prov_get(ps3.planned_state, "id"), id, false));
  /* Destroy plans null. */
  ProvPlanReq pr4 = {.type_name = "null_resource", .prior_state = st,
                     .proposed_new_state = prior0, .config = prior0};
  ProvPlanResp ps4 = {0};
  p->ops->plan_resource_change(p, call(&x), &pr4, &ps4);
  T_CHECK(val_is_null(ps4.planned_state));
  /* Import is not supported. */
  ProvImportReq ir = {"null_resource", "x"};
  ProvImportResp is = {0};
  p->ops->import_resource_state(p, call(&x), &ir, &is);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Resource Import Not Implemented");
}

static void test_null_data_source(void)
{
  Prov *p = open_b("null");
  Ctx x;
  const ProvProviderSchema *s;
  p->ops->get_schema(p, call(&x), &s);
  const ProvBlockSchema *b = prov_schema_data_source(s, "null_data_source")
                                 ->schema.block;
  const char *n1[] = {"inputs"};
  Value v1[] = {smap1("k", "v")};
  ProvReadDataReq rq = {"null_data_source", mk(b, 1, n1, v1)};
  ProvReadDataResp rs = {0};
  p->ops->read_data_source(p, call(&x), &rq, &rs);
  T_CHECK(val_is_wholly_known(rs.state));
  T_CHECK(val_raw_equal(prov_get(rs.state, "outputs"), v1[0], false));
  T_EQ_STR(prov_get(rs.state, "has_computed_default").u.s, "default");
  T_EQ_STR(prov_get(rs.state, "id").u.s, "static");
  T_CHECK(ty_equal(rs.state.type, prov_schema_implied_type(&A, b)));
}

static void test_upgrade_state(void)
{
  Prov *p = open_b("null");
  Ctx x;
  const char *js = "{\"id\":\"123\",\"triggers\":{\"a\":\"b\"},\"gone\":1}";
  ProvUpgradeReq rq = {"null_resource", 0, js, strlen(js)};
  ProvUpgradeResp rs = {0};
  p->ops->upgrade_resource_state(p, call(&x), &rq, &rs);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_STR(prov_get(rs.upgraded_state, "id").u.s, "123");
  T_CHECK(ty_equal(rs.upgraded_state.type,
                   prov_schema_implied_type(&A,
                                            res_schema(p, "null_resource"))));
  const char *bad = "{\"id\":5,";
  ProvUpgradeReq rq2 = {"null_resource", 0, bad, strlen(bad)};
  p->ops->upgrade_resource_state(p, call(&x), &rq2, &rs);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Invalid resource state upgrade");
}

/* ---- terraform ------------------------------------------------------ */

static void test_terraform_data(void)
{
  Prov *p = open_b("terraform");
  const ProvBlockSchema *b = res_schema(p, "terraform_data");
  Value prior0 = prov_null_object(&A, b);
  const char *n1[] = {"input"};
  Value v1[] = {S("hello")};
  Value cfg = mk(b, 1, n1, v1);
  Ctx x;
  ProvPlanReq pr = {"terraform_data", prior0, cfg, cfg, {0}};
  ProvPlanResp ps = {0};
  p->ops->plan_resource_change(p, call(&x), &pr, &ps);
  T_CHECK(!val_is_known(prov_get(ps.planned_state, "id")));
  Value out = prov_get(ps.planned_state, "output");
  T_CHECK(!val_is_known(out) && out.type == &ty_string);
  ProvApplyReq ar = {"terraform_data", prior0, ps.planned_state, cfg, {0}, NULL};
  ProvApplyResp as = {0};
  p->ops->apply_resource_change(p, call(&x), &ar, &as);
  Value st = as.new_state;
  T_CHECK(val_is_wholly_known(st));
  T_EQ_STR(prov_get(st, "output").u.s, "hello");
  T_EQ_INT(prov_get(st, "id").len, 36);
  /* input changes: output unknown, no replace */
  Value v2[] = {S("bye")};
  Value cfg2 = mk(b, 1, n1, v2);
  Value prop2 = prov_set(&A, prov_set(&A, cfg2, "id", prov_get(st, "id")),
                         "output", prov_get(st, "output"));
  ProvPlanReq pr2 = {"terraform_data", st, prop2, cfg2, {0}};
  ProvPlanResp ps2 = {0};
  p->ops->plan_resource_change(p, call(&x), &pr2, &ps2);
  T_EQ_INT(ps2.nrequires_replace, 0);
  T_CHECK(!val_is_known(prov_get(ps2.planned_state, "output")));
  T_CHECK(val_is_known(prov_get(ps2.planned_state, "id")));
  /* triggers_replace changes: replace */
  const char *n3[] = {"input", "triggers_replace"};
  Value v3[] = {S("hello"), val_int(1)};
  Value cfg3 = mk(b, 2, n3, v3);
  Value prop3 = prov_set(&A, prov_set(&A, cfg3, "id", prov_get(st, "id")),
                         "output", prov_get(st, "output"));
  ProvPlanReq pr3 = {"terraform_data", st, prop3, cfg3, {0}};
  ProvPlanResp ps3 = {0};
  p->ops->plan_resource_change(p, call(&x), &pr3, &ps3);
  T_CHECK(has_replace(&ps3, "triggers_replace"));
  /* validation: output is read-only */
  const char *n4[] = {"output"};
  Value v4[] = {S("x")};
  p->ops->validate_resource_config(p, call(&x), "terraform_data",
                                   mk(b, 1, n4, v4));
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "\"output\" attribute is read-only");
  /* import */
  ProvImportReq ir = {"terraform_data", "abc"};
  ProvImportResp is = {0};
  p->ops->import_resource_state(p, call(&x), &ir, &is);
  T_EQ_INT(is.nimported, 1);
  T_EQ_STR(prov_get(is.imported[0].state, "id").u.s, "abc");
  /* upgrade of a state with a dynamic input */
  const char *js = "{\"id\":\"i\",\"input\":{\"value\":[1,2],\"type\":"
                   "[\"list\",\"number\"]},\"output\":null,"
                   "\"triggers_replace\":null}";
  ProvUpgradeReq uq = {"terraform_data", 0, js, strlen(js)};
  ProvUpgradeResp us = {0};
  p->ops->upgrade_resource_state(p, call(&x), &uq, &us);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_INT(prov_get(us.upgraded_state, "input").type->kind, TY_LIST);
}

static const char *tmpdir;

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void test_remote_state(void)
{
  Prov *p = open_b("terraform");
  Ctx x;
  const ProvProviderSchema *s;
  p->ops->get_schema(p, call(&x), &s);
  const ProvBlockSchema *b =
      prov_schema_data_source(s, "terraform_remote_state")->schema.block;
  const char *path = arena_printf(&A, "%s/other.tfstate", tmpdir);
  write_file(path,
             "{\"version\":4,\"serial\":1,\"lineage\":\"x\",\"outputs\":{"
             "\"a\":{\"value\":\"hi\",\"type\":\"string\"},"
             "\"n\":{\"value\":[1,2],\"type\":[\"tuple\",[\"number\","
             "\"number\"]],\"sensitive\":true}},\"resources\":[]}");
  const char *names[] = {"backend", "config"};
  Value vals[] = {S("local"), obj2("path", S(path), "workspace_dir",
                                   val_null(&ty_string))};
  ProvReadDataReq rq = {"terraform_remote_state", mk(b, 2, names, vals)};
  ProvReadDataResp rs = {0};
  p->ops->read_data_source(p, call(&x), &rq, &rs);
  T_EQ_INT(x.d.errors, 0);
  Value outs = prov_get(rs.state, "outputs");
  T_EQ_INT(outs.type->kind, TY_OBJECT);
  T_EQ_STR(prov_get(outs, "a").u.s, "hi");
  T_EQ_INT(prov_get(outs, "n").len, 2);
  T_CHECK(val_is_wholly_known(rs.state));
  /* Missing file: "Unable to find remote state". */
  Value vals2[] = {S("local"),
                   obj2("path", S(arena_printf(&A, "%s/nope", tmpdir)),
                        "workspace_dir", val_null(&ty_string))};
  ProvReadDataReq rq2 = {"terraform_remote_state", mk(b, 2, names, vals2)};
  p->ops->read_data_source(p, call(&x), &rq2, &rs);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Unable to find remote state");
  /* Unknown backend. */
  Value vals3[] = {S("bogus"), val_dynamic_null};
  ProvReadDataReq rq3 = {"terraform_remote_state", mk(b, 2, names, vals3)};
  p->ops->read_data_source(p, call(&x), &rq3, &rs);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->detail, "There is no backend type named \"bogus\".");
  /* Validation: config must be an object. */
  Value vals4[] = {S("local"), S("str")};
  p->ops->validate_data_resource_config(p, call(&x), "terraform_remote_state",
                                        mk(b, 2, names, vals4));
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->detail, "The configuration must be an object value.");
}

/* ---- local --------------------------------------------------------- */

static const char *file_text(const char *path)
{
  const char *d;
  size_t n;
  return prov_read_file(&A, path, &d, &n) ? d : NULL;
}

/* Plans and applies a create of type with config cfg; returns the state. */
static Value create_res(Prov *p, const char *type, Value cfg, Ctx *x,
                        ProvPlanResp *ps)
{
  const ProvBlockSchema *b = res_schema(p, type);
  Value prior0 = prov_null_object(&A, b);
  ProvPlanReq pr = {type, prior0, cfg, cfg, {0}};
  *ps = (ProvPlanResp){0};
  p->ops->plan_resource_change(p, call(x), &pr, ps);
  if (x->d.errors)
    return prior0;
  ProvApplyReq ar = {type, prior0, ps->planned_state, cfg, {0}, NULL};
  ProvApplyResp as = {0};
  p->ops->apply_resource_change(p, call(x), &ar, &as);
  return as.new_state;
}

/* ---- time ---------------------------------------------------------- */

/* time_offset of base 2020-01-01T00:00:00Z by one offset_* argument:
** "rfc3339 unix" of the applied state.  Past Go's ranges the answers are
** Go's own (go1.19 time package): Duration wraps at 2^63 ns. */
static const char *time_offset(const char *arg, int64_t n)
{
  Prov *p = open_b("registry.terraform.io/hashicorp/time");
  const ProvBlockSchema *b = res_schema(p, "time_offset");
  const char *names[] = {"base_rfc3339", arg};
  Value vals[] = {S("2020-01-01T00:00:00Z"), val_int(n)};
  Ctx x;
  ProvPlanResp ps;
  Value st = create_res(p, "time_offset", mk(b, 2, names, vals), &x, &ps);
  T_EQ_INT(x.d.errors, 0);
  int64_t u = 0;
  T_CHECK(val_num_int(prov_get(st, "unix"), &u));
  return arena_printf(&A, "%s %lld", prov_get(st, "rfc3339").u.s,
                      (long long)u);
}

static void test_time_offset_extremes(void)
{
  T_EQ_STR(time_offset("offset_hours", 24), "2020-01-02T00:00:00Z 1577923200");
  T_EQ_STR(time_offset("offset_hours", 3000000),
           "1777-09-07T00:25:26Z -6068907274");
  T_EQ_STR(time_offset("offset_hours", -3000000),
           "2262-04-25T23:34:33Z 9224580873");
  T_EQ_STR(time_offset("offset_seconds", (int64_t)1 << 62),
           "2020-01-01T00:00:00Z 1577836800");
  /* AddDate by 2^62 years wraps (Go's answer depends on its version's
  ** internal epoch); the point is an answer, not undefined behaviour */
  T_CHECK(time_offset("offset_years", (int64_t)1 << 62) != NULL);
  T_CHECK(time_offset("offset_days", INT64_MIN) != NULL);
  T_CHECK(time_offset("offset_months", INT64_MAX) != NULL);
}

static void test_local_file(void)
{
  Prov *p = open_b("registry.terraform.io/hashicorp/local");
  const ProvBlockSchema *b = res_schema(p, "local_file");
  T_CHECK(b != NULL);
  const char *fn = arena_printf(&A, "%s/sub/dir/a.txt", tmpdir);
  const char *n1[] = {"filename", "content", "file_permission"};
  Value v1[] = {S(fn), S("hello\n"), S("0640")};
  Value cfg = mk(b, 3, n1, v1);
  Ctx x;
  p->ops->validate_resource_config(p, call(&x), "local_file", cfg);
  T_EQ_INT(x.d.errors, 0);
  ProvPlanResp ps;
  Value st = create_res(p, "local_file", cfg, &x, &ps);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_STR(prov_get(ps.planned_state, "directory_permission").u.s, "0777");
  T_EQ_STR(prov_get(ps.planned_state, "file_permission").u.s, "0640");
  T_CHECK(!val_is_known(prov_get(ps.planned_state, "id")));
  T_CHECK(!val_is_known(prov_get(ps.planned_state, "content_sha256")));
  T_CHECK(val_is_wholly_known(st));
  T_EQ_STR(file_text(fn), "hello\n");
  struct stat sb;
  T_CHECK(stat(fn, &sb) == 0 && (sb.st_mode & 0777) == (0640 & ~0022u));
  T_EQ_STR(prov_get(st, "id").u.s, "f572d396fae9206628714fb2ce00f72e94f2258f");
  T_EQ_STR(prov_get(st, "content_md5").u.s,
           "b1946ac92492d2347c6235b4d2611184");
  T_EQ_STR(prov_get(st, "content_sha256").u.s,
           "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
  T_EQ_STR(prov_get(st, "content_base64sha256").u.s,
           "WJG1tSLV3whtD/CxEPvZ0hu0/HFjrzTQgoai6Eb2vgM=");
  /* Refresh: unchanged file keeps the state. */
  ProvReadReq rr = {"local_file", st, {0}};
  ProvReadResp rs = {0};
  p->ops->read_resource(p, call(&x), &rr, &rs);
  T_CHECK(val_raw_equal(rs.new_state, st, false));
  /* Changed outside: gone (plan re-creates). */
  write_file(fn, "tampered");
  p->ops->read_resource(p, call(&x), &rr, &rs);
  T_CHECK(val_is_null(rs.new_state));
  /* Deleted outside: gone. */
  unlink(fn);
  rs = (ProvReadResp){0};
  p->ops->read_resource(p, call(&x), &rr, &rs);
  T_CHECK(val_is_null(rs.new_state));
  T_EQ_INT(x.d.errors, 0);
  /* Same config again: no change, no replace. */
  ProvPlanReq pr = {"local_file", st, st, cfg, {0}};
  ProvPlanResp ps2 = {0};
  p->ops->plan_resource_change(p, call(&x), &pr, &ps2);
  T_EQ_INT(ps2.nrequires_replace, 0);
  T_CHECK(val_raw_equal(ps2.planned_state, st, false));
  /* Content change forces replacement. */
  Value prop = prov_set(&A, st, "content", S("other"));
  Value cfg3 = prov_set(&A, cfg, "content", S("other"));
  ProvPlanReq pr3 = {"local_file", st, prop, cfg3, {0}};
  ProvPlanResp ps3 = {0};
  p->ops->plan_resource_change(p, call(&x), &pr3, &ps3);
  T_CHECK(has_replace(&ps3, "content"));
  /* Delete removes the file. */
  write_file(fn, "hello\n");
  ProvApplyReq dr = {"local_file", st, prov_null_object(&A, b),
                     prov_null_object(&A, b), {0}, NULL};
  ProvApplyResp ds = {0};
  p->ops->apply_resource_change(p, call(&x), &dr, &ds);
  T_CHECK(val_is_null(ds.new_state));
  T_CHECK(access(fn, F_OK) != 0);
  /* Import is not supported upstream. */
  ProvImportReq ir = {"local_file", fn};
  ProvImportResp is = {0};
  p->ops->import_resource_state(p, call(&x), &ir, &is);
  T_EQ_INT(x.d.errors, 1);
}

static void test_local_validation(void)
{
  Prov *p = open_b("local");
  const ProvBlockSchema *b = res_schema(p, "local_file");
  Ctx x;
  const char *n1[] = {"filename"};
  Value v1[] = {S("x")};
  p->ops->validate_resource_config(p, call(&x), "local_file", mk(b, 1, n1, v1));
  T_EQ_INT(x.d.errors, 4);
  T_EQ_STR(x.d.head->summary, "Invalid Attribute Combination");
  T_EQ_STR(x.d.head->detail,
           "No attribute specified when one (and only one) of "
           "[content,content_base64,sensitive_content,source] is required");
  const char *n2[] = {"filename", "content", "source"};
  Value v2[] = {S("x"), S("a"), S("b")};
  p->ops->validate_resource_config(p, call(&x), "local_file", mk(b, 3, n2, v2));
  T_EQ_INT(x.d.errors, 4);
  T_CHECK(strncmp(x.d.head->detail, "2 attributes specified", 22) == 0);
  const char *n3[] = {"filename", "content", "file_permission",
                      "directory_permission"};
  Value v3[] = {S("x"), S("a"), S("0888"), S("77777")};
  p->ops->validate_resource_config(p, call(&x), "local_file", mk(b, 4, n3, v3));
  T_EQ_INT(x.d.errors, 2);
  T_EQ_STR(x.d.head->summary, "Invalid File Permission String Value");
  T_EQ_STR(x.d.head->detail, "bad mode permission: string must be expressed "
                             "in octal numeric notation: 0888");
  const ValPath *vp = prov_diag_path(&x.c, x.d.head);
  T_CHECK(vp && strcmp(vp->steps[0].name, "file_permission") == 0);
  T_EQ_STR(x.d.tail->detail, "bad mode permission: string length should be "
                             "3 or 4 digits: 77777");
  /* Unknown content: no verdict yet. */
  Value v4[] = {S("x"), val_unknown(&ty_string), val_null(&ty_string)};
  p->ops->validate_resource_config(p, call(&x), "local_file", mk(b, 3, n2, v4));
  T_EQ_INT(x.d.errors, 0);
}

static void test_local_sensitive_and_data(void)
{
  Prov *p = open_b("hashicorp/local");
  const ProvBlockSchema *b = res_schema(p, "local_sensitive_file");
  T_CHECK(prov_block_attr(b, "content")->flags & PROV_SENSITIVE);
  T_CHECK(prov_block_attr(b, "sensitive_content") == NULL);
  const char *fn = arena_printf(&A, "%s/s.bin", tmpdir);
  const char *n1[] = {"filename", "content_base64"};
  Value v1[] = {S(fn), S("AAEC/w==")};
  Ctx x;
  ProvPlanResp ps;
  Value st = create_res(p, "local_sensitive_file", mk(b, 2, n1, v1), &x, &ps);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_STR(prov_get(ps.planned_state, "file_permission").u.s, "0700");
  struct stat sb;
  T_CHECK(stat(fn, &sb) == 0 && sb.st_size == 4 &&
          (sb.st_mode & 0777) == 0700);
  T_EQ_STR(prov_get(st, "content_md5").u.s, "0416dab819887333af831f8c765ac2ae");
  /* data local_file reads it back */
  const ProvProviderSchema *s;
  p->ops->get_schema(p, call(&x), &s);
  const ProvBlockSchema *db =
      prov_schema_data_source(s, "local_file")->schema.block;
  const char *dn[] = {"filename"};
  Value dv[] = {S(fn)};
  ProvReadDataReq rq = {"local_file", mk(db, 1, dn, dv)};
  ProvReadDataResp rs = {0};
  p->ops->read_data_source(p, call(&x), &rq, &rs);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_STR(prov_get(rs.state, "content_base64").u.s, "AAEC/w==");
  Value ct = prov_get(rs.state, "content");
  T_EQ_INT(ct.len, 6);
  T_CHECK(ct.len == 6 && memcmp(ct.u.s, "\x00\x01\x02\xEF\xBF\xBD", 6) == 0);
  T_EQ_STR(prov_get(rs.state, "id").u.s, prov_get(st, "id").u.s);
  T_CHECK(val_is_wholly_known(rs.state));
  /* A bad base64 fails at apply with upstream's message. */
  const char *fn2 = arena_printf(&A, "%s/bad.bin", tmpdir);
  Value v2[] = {S(fn2), S("!!!")};
  create_res(p, "local_sensitive_file", mk(b, 2, n1, v2), &x, &ps);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Create local file error");
  /* Missing file for the data source. */
  Value dv2[] = {S(arena_printf(&A, "%s/none", tmpdir))};
  ProvReadDataReq rq2 = {"local_file", mk(db, 1, dn, dv2)};
  p->ops->read_data_source(p, call(&x), &rq2, &rs);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Read local file data source error");
  T_CHECK(strstr(x.d.head->detail, "no such file or directory") != NULL);
}

/* ---- random -------------------------------------------------------- */

static int count_in(Value v, const char *set)
{
  int n = 0;
  for (uint32_t i = 0; i < v.len; i++)
    if (strchr(set, v.u.s[i]))
      n++;
  return n;
}

static void test_random_string(void)
{
  Prov *p = open_b("random");
  const ProvBlockSchema *b = res_schema(p, "random_string");
  const char *n1[] = {"length", "special", "min_upper", "min_numeric"};
  Value v1[] = {val_int(40), val_false, val_int(5), val_int(30)};
  Value cfg = mk(b, 4, n1, v1);
  Ctx x;
  p->ops->validate_resource_config(p, call(&x), "random_string", cfg);
  T_EQ_INT(x.d.errors, 0);
  ProvPlanResp ps;
  Value st = create_res(p, "random_string", cfg, &x, &ps);
  T_EQ_INT(x.d.errors, 0);
  Value pl = ps.planned_state;
  T_CHECK(prov_get(pl, "upper").u.b && prov_get(pl, "lower").u.b);
  T_CHECK(prov_get(pl, "number").u.b && prov_get(pl, "numeric").u.b);
  T_CHECK(!prov_get(pl, "special").u.b);
  T_CHECK(!val_is_known(prov_get(pl, "result")));
  T_CHECK(val_is_wholly_known(st));
  Value r = prov_get(st, "result");
  T_EQ_INT(r.len, 40);
  T_CHECK(count_in(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") >= 5);
  T_CHECK(count_in(r, "0123456789") >= 30);
  T_EQ_INT(count_in(r, "!@#$%&*()-_=+[]{}<>:?"), 0);
  T_EQ_STR(prov_get(st, "id").u.s, r.u.s);
  /* Only specials from override_special. */
  const char *n2[] = {"length", "upper", "lower", "numeric",
                      "override_special"};
  Value v2[] = {val_int(16), val_false, val_false, val_false, S("#")};
  Value st2 = create_res(p, "random_string", mk(b, 5, n2, v2), &x, &ps);
  T_EQ_STR(prov_get(st2, "result").u.s, "################");
  /* Nothing to draw from. */
  const char *n3[] = {"length", "upper", "lower", "numeric", "special"};
  Value v3[] = {val_int(3), val_false, val_false, val_false, val_false};
  create_res(p, "random_string", mk(b, 5, n3, v3), &x, &ps);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Random Read Error");
  /* Validation: length below the sum of minimums; below 1. */
  const char *n4[] = {"length", "min_lower"};
  Value v4[] = {val_int(2), val_int(3)};
  p->ops->validate_resource_config(p, call(&x), "random_string",
                                   mk(b, 2, n4, v4));
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->detail,
           "Attribute length value must be at least sum of min_upper + "
           "min_lower + min_numeric + min_special, got: 2");
  Value v5[] = {val_int(0), val_null(&ty_number)};
  p->ops->validate_resource_config(p, call(&x), "random_string",
                                   mk(b, 2, n4, v5));
  T_EQ_STR(x.d.head->detail, "Attribute length value must be at least 1, "
                             "got: 0");
  /* number/numeric conflict */
  const char *n6[] = {"length", "number", "numeric"};
  Value v6[] = {val_int(3), val_true, val_false};
  create_res(p, "random_string", mk(b, 3, n6, v6), &x, &ps);
  T_EQ_INT(x.d.errors, 2);
  T_EQ_STR(x.d.head->summary,
           "Number and numeric are both configured with different values");
  /* numeric=false alone carries over to number */
  Value v7[] = {val_int(3), val_null(&ty_bool), val_false};
  create_res(p, "random_string", mk(b, 3, n6, v7), &x, &ps);
  T_CHECK(!prov_get(ps.planned_state, "number").u.b);
}

static void test_random_keepers(void)
{
  Prov *p = open_b("random");
  const ProvBlockSchema *b = res_schema(p, "random_uuid");
  const char *n1[] = {"keepers"};
  Value v1[] = {smap1("k", "1")};
  Value cfg = mk(b, 1, n1, v1);
  Ctx x;
  ProvPlanResp ps;
  Value st = create_res(p, "random_uuid", cfg, &x, &ps);
  T_EQ_INT(prov_get(st, "result").len, 36);
  T_EQ_STR(prov_get(st, "id").u.s, prov_get(st, "result").u.s);
  /* unchanged keepers: no-op */
  ProvPlanReq pr = {"random_uuid", st, st, cfg, {0}};
  ProvPlanResp ps1 = {0};
  p->ops->plan_resource_change(p, call(&x), &pr, &ps1);
  T_EQ_INT(ps1.nrequires_replace, 0);
  T_CHECK(val_raw_equal(ps1.planned_state, st, false));
  /* changed keepers: replace */
  Value v2[] = {smap1("k", "2")};
  Value cfg2 = mk(b, 1, n1, v2);
  ProvPlanReq pr2 = {"random_uuid", st, prov_set(&A, st, "keepers", v2[0]),
                     cfg2, {0}};
  ProvPlanResp ps2 = {0};
  p->ops->plan_resource_change(p, call(&x), &pr2, &ps2);
  T_CHECK(has_replace(&ps2, "keepers"));
  /* a keeper whose value is null does not */
  MapEntry *e = ARENA_NEW(&A, MapEntry, 2);
  e[0] = (MapEntry){"k", 1, S("1")};
  e[1] = (MapEntry){"z", 1, val_null(&ty_string)};
  Value m3 = val_map(&A, &ty_string, e, 2);
  Value cfg3 = mk(b, 1, n1, &m3);
  ProvPlanReq pr3 = {"random_uuid", st, prov_set(&A, st, "keepers", m3),
                     cfg3, {0}};
  ProvPlanResp ps3 = {0};
  p->ops->plan_resource_change(p, call(&x), &pr3, &ps3);
  T_EQ_INT(ps3.nrequires_replace, 0);
  /* import */
  ProvImportReq ir = {"random_uuid", "not-a-uuid"};
  ProvImportResp is = {0};
  p->ops->import_resource_state(p, call(&x), &ir, &is);
  T_EQ_INT(x.d.errors, 1);
  ProvImportReq ir2 = {"random_uuid", "6b0d1f2a-0000-4000-8000-00000000abcd"};
  p->ops->import_resource_state(p, call(&x), &ir2, &is);
  T_EQ_INT(is.nimported, 1);
  T_EQ_STR(prov_get(is.imported[0].state, "result").u.s,
           "6b0d1f2a-0000-4000-8000-00000000abcd");
}

static void test_random_password(void)
{
  Prov *p = open_b("random");
  const ProvBlockSchema *b = res_schema(p, "random_password");
  PathStep rs[] = {{PS_ATTR, "result", 0}};
  PathStep bh[] = {{PS_ATTR, "bcrypt_hash", 0}};
  PathStep ln[] = {{PS_ATTR, "length", 0}};
  T_CHECK(prov_path_sensitive(b, mkpath(1, rs)));
  T_CHECK(prov_path_sensitive(b, mkpath(1, bh)));
  T_CHECK(!prov_path_sensitive(b, mkpath(1, ln)));
  T_CHECK(!prov_path_sensitive(res_schema(p, "random_string"),
                               mkpath(1, rs)));
  const char *n1[] = {"length", "min_special"};
  Value v1[] = {val_int(12), val_int(2)};
  Ctx x;
  ProvPlanResp ps;
  Value st = create_res(p, "random_password", mk(b, 2, n1, v1), &x, &ps);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_INT(prov_get(st, "result").len, 12);
  T_CHECK(count_in(prov_get(st, "result"), "!@#$%&*()-_=+[]{}<>:?") >= 2);
  T_EQ_STR(prov_get(st, "id").u.s, "none");
  Value h = prov_get(st, "bcrypt_hash");
  T_EQ_INT(h.len, 60);
  T_CHECK(strncmp(h.u.s, "$2a$10$", 7) == 0);
  /* Upgrading a version-2 state keeps a matching hash (Go's test vector)
  ** and regenerates a wrong one. */
  const char *js =
      "{\"id\":\"none\",\"length\":7,\"result\":\"allmine\",\"number\":true,"
      "\"bcrypt_hash\":\"$2a$10$XajjQvNhvvRt5GSeFk1xFeyqRrsxkhBkUiQeg0dt."
      "wU1qD4aFDcga\"}";
  ProvUpgradeReq uq = {"random_password", 2, js, strlen(js)};
  ProvUpgradeResp us = {0};
  p->ops->upgrade_resource_state(p, call(&x), &uq, &us);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_STR(prov_get(us.upgraded_state, "bcrypt_hash").u.s,
           "$2a$10$XajjQvNhvvRt5GSeFk1xFeyqRrsxkhBkUiQeg0dt.wU1qD4aFDcga");
  T_CHECK(prov_get(us.upgraded_state, "numeric").u.b);
  T_EQ_INT(get_int_attr(us.upgraded_state, "min_upper"), 0);
  const char *js2 =
      "{\"id\":\"none\",\"length\":7,\"result\":\"allmine2\","
      "\"bcrypt_hash\":\"$2a$10$XajjQvNhvvRt5GSeFk1xFeyqRrsxkhBkUiQeg0dt."
      "wU1qD4aFDcga\"}";
  ProvUpgradeReq uq2 = {"random_password", 1, js2, strlen(js2)};
  p->ops->upgrade_resource_state(p, call(&x), &uq2, &us);
  T_CHECK(strcmp(prov_get(us.upgraded_state, "bcrypt_hash").u.s,
                 "$2a$10$XajjQvNhvvRt5GSeFk1xFeyqRrsxkhBkUiQeg0dt."
                 "wU1qD4aFDcga") != 0);
  /* import */
  ProvImportReq ir = {"random_password", "s3cret"};
  ProvImportResp is = {0};
  p->ops->import_resource_state(p, call(&x), &ir, &is);
  T_EQ_INT(is.nimported, 1);
  T_EQ_STR(prov_get(is.imported[0].state, "result").u.s, "s3cret");
  T_EQ_INT(get_int_attr(is.imported[0].state, "length"), 6);
  T_CHECK(prov_get(is.imported[0].state, "special").u.b);
}

static void test_random_id_integer(void)
{
  Prov *p = open_b("random");
  const ProvBlockSchema *b = res_schema(p, "random_id");
  const char *n1[] = {"byte_length", "prefix"};
  Value v1[] = {val_int(8), S("p-")};
  Ctx x;
  ProvPlanResp ps;
  Value st = create_res(p, "random_id", mk(b, 2, n1, v1), &x, &ps);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_INT(prov_get(st, "id").len, 11);
  T_EQ_INT(prov_get(st, "hex").len, 18);
  T_CHECK(strncmp(prov_get(st, "b64_url").u.s, "p-", 2) == 0);
  T_EQ_INT(prov_get(st, "b64_std").len, 2 + 12);
  /* import "prefix,b64url" */
  ProvImportReq ir = {"random_id", "pre-,AAEC_w"};
  ProvImportResp is = {0};
  p->ops->import_resource_state(p, call(&x), &ir, &is);
  T_EQ_INT(x.d.errors, 0);
  Value im = is.imported[0].state;
  T_EQ_STR(prov_get(im, "hex").u.s, "pre-000102ff");
  T_EQ_STR(prov_get(im, "dec").u.s, "pre-66303");
  T_EQ_STR(prov_get(im, "b64_std").u.s, "pre-AAEC/w==");
  T_EQ_STR(prov_get(im, "id").u.s, "AAEC_w");
  T_EQ_INT(get_int_attr(im, "byte_length"), 4);
  ProvImportReq bad = {"random_id", "A"};
  p->ops->import_resource_state(p, call(&x), &bad, &is);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Import Random ID Error");

  const ProvBlockSchema *ib = res_schema(p, "random_integer");
  const char *n2[] = {"min", "max"};
  for (int i = 0; i < 20; i++) {
    Value v2[] = {val_int(-3), val_int(3)};
    Value s2 = create_res(p, "random_integer", mk(ib, 2, n2, v2), &x, &ps);
    int64_t r = get_int_attr(s2, "result");
    T_CHECK(r >= -3 && r <= 3);
  }
  /* seeded: deterministic */
  const char *n3[] = {"min", "max", "seed"};
  Value v3[] = {val_int(1), val_int(1000000), S("abc")};
  Value a1 = create_res(p, "random_integer", mk(ib, 3, n3, v3), &x, &ps);
  Value a2 = create_res(p, "random_integer", mk(ib, 3, n3, v3), &x, &ps);
  T_EQ_INT(get_int_attr(a1, "result"), get_int_attr(a2, "result"));
  Value v4[] = {val_int(5), val_int(1)};
  create_res(p, "random_integer", mk(ib, 2, n2, v4), &x, &ps);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Create Random Integer Error");
  ProvImportReq ii = {"random_integer", "7,1,10"};
  p->ops->import_resource_state(p, call(&x), &ii, &is);
  T_EQ_INT(get_int_attr(is.imported[0].state, "result"), 7);
  T_EQ_STR(prov_get(is.imported[0].state, "id").u.s, "7");
  ProvImportReq ib2 = {"random_integer", "7,x"};
  p->ops->import_resource_state(p, call(&x), &ib2, &is);
  T_EQ_INT(x.d.errors, 1);
}

static void test_random_pet_shuffle(void)
{
  Prov *p = open_b("random");
  const ProvBlockSchema *b = res_schema(p, "random_pet");
  Ctx x;
  ProvPlanResp ps;
  Value st = create_res(p, "random_pet", mk(b, 0, NULL, NULL), &x, &ps);
  T_EQ_INT(get_int_attr(ps.planned_state, "length"), 2);
  T_EQ_STR(prov_get(ps.planned_state, "separator").u.s, "-");
  const char *id = prov_get(st, "id").u.s;
  T_CHECK(strchr(id, '-') != NULL && strchr(strchr(id, '-') + 1, '-') == NULL);
  const char *n1[] = {"length", "prefix", "separator"};
  Value v1[] = {val_int(4), S("pre"), S("_")};
  Value st2 = create_res(p, "random_pet", mk(b, 3, n1, v1), &x, &ps);
  const char *id2 = prov_get(st2, "id").u.s;
  int seps = 0;
  for (const char *q = id2; *q; q++)
    seps += *q == '_';
  T_EQ_INT(seps, 4);
  T_CHECK(strncmp(id2, "pre_", 4) == 0);
  ProvImportReq ir = {"random_pet", "x"};
  ProvImportResp is = {0};
  p->ops->import_resource_state(p, call(&x), &ir, &is);
  T_EQ_INT(x.d.errors, 1);

  const ProvBlockSchema *sb = res_schema(p, "random_shuffle");
  Value in[3] = {S("a"), S("b"), S("c")};
  Value inl = val_list(&A, &ty_string, in, 3);
  const char *n2[] = {"input", "result_count"};
  Value v2[] = {inl, val_int(7)};
  Value s1 = create_res(p, "random_shuffle", mk(sb, 2, n2, v2), &x, &ps);
  T_CHECK(!val_is_known(prov_get(ps.planned_state, "result")));
  Value res = prov_get(s1, "result");
  T_EQ_INT(res.len, 7);
  T_EQ_STR(prov_get(s1, "id").u.s, "-");
  Value v3[] = {inl, val_null(&ty_number)};
  Value s2 = create_res(p, "random_shuffle", mk(sb, 2, n2, v3), &x, &ps);
  Value r2 = prov_get(s2, "result");
  T_EQ_INT(r2.len, 3);
  int seen = 0;
  for (uint32_t i = 0; i < r2.len; i++)
    seen |= 1 << (r2.u.elems[i].u.s[0] - 'a');
  T_EQ_INT(seen, 7);
}

/* ---- the misbehaving test provider ---------------------------------- */

#ifdef CAIRN_TEST
typedef struct Mis {
  Prov *p;
  const ProvBlockSchema *b;
  Ctx x;
} Mis;

static Value mis_cfg(Mis *m, const char *value)
{
  const char *n[] = {"value", "item"};
  Value items = val_list(&A, prov_schema_implied_type(&A, m->b)
                                 ->types[ty_attr_index(
                                     prov_schema_implied_type(&A, m->b),
                                     "item")]->elem,
                         NULL, 0);
  Value v[] = {S(value), items};
  return mk(m->b, 2, n, v);
}

static void mis_plan(Mis *m, const char *type, Value prior, Value cfg,
                     ProvPlanResp *ps)
{
  ProvPlanReq pr = {type, prior, cfg, cfg, {0}};
  *ps = (ProvPlanResp){0};
  m->p->ops->plan_resource_change(m->p, call(&m->x), &pr, ps);
}

static ProvApplyResp mis_apply(Mis *m, const char *type, Value prior,
                               Value planned, Value cfg)
{
  ProvApplyReq ar = {type, prior, planned, cfg, {0}, NULL};
  ProvApplyResp as = {0};
  m->p->ops->apply_resource_change(m->p, call(&m->x), &ar, &as);
  return as;
}

static void test_misbehave(void)
{
  Mis m;
  m.p = open_b("cairn.test/test/misbehave");
  T_CHECK(m.p != NULL);
  if (!m.p)
    return;
  m.b = res_schema(m.p, "misbehave_ok");
  Value null0 = prov_null_object(&A, m.b);
  Value cfg = mis_cfg(&m, "v");
  ProvPlanResp ps;
  /* ok: plan keeps config, apply returns the planned known values */
  mis_plan(&m, "misbehave_ok", null0, cfg, &ps);
  T_EQ_STR(prov_get(ps.planned_state, "value").u.s, "v");
  ProvApplyResp as = mis_apply(&m, "misbehave_ok", null0, ps.planned_state,
                               cfg);
  T_CHECK(val_is_wholly_known(as.new_state));
  T_EQ_STR(prov_get(as.new_state, "value").u.s, "v");
  Value st = as.new_state;
  /* plan_changes_config */
  mis_plan(&m, "misbehave_plan_changes_config", null0, cfg, &ps);
  T_EQ_STR(prov_get(ps.planned_state, "value").u.s, "v-changed");
  /* plan_wrong_type */
  mis_plan(&m, "misbehave_plan_wrong_type", null0, cfg, &ps);
  T_EQ_INT(prov_get(ps.planned_state, "value").type->kind, TY_NUMBER);
  /* plan_unstable: two plans disagree on a known value */
  ProvPlanResp ps2;
  mis_plan(&m, "misbehave_plan_unstable", null0, cfg, &ps);
  mis_plan(&m, "misbehave_plan_unstable", null0, cfg, &ps2);
  T_CHECK(val_is_known(prov_get(ps.planned_state, "computed")));
  T_CHECK(!val_raw_equal(prov_get(ps.planned_state, "computed"),
                         prov_get(ps2.planned_state, "computed"), false));
  /* plan_bad_replace */
  mis_plan(&m, "misbehave_plan_bad_replace", st, cfg, &ps);
  T_CHECK(has_replace(&ps, "no_such_attribute"));
  /* plan_destroy_nonnull */
  mis_plan(&m, "misbehave_plan_destroy_nonnull", st, null0, &ps);
  T_CHECK(!val_is_null(ps.planned_state));
  /* plan_block_count */
  mis_plan(&m, "misbehave_plan_block_count", null0, cfg, &ps);
  T_EQ_INT(prov_get(ps.planned_state, "item").len, 1);
  /* apply_changes_known */
  mis_plan(&m, "misbehave_apply_changes_known", null0, cfg, &ps);
  as = mis_apply(&m, "misbehave_apply_changes_known", null0,
                 ps.planned_state, cfg);
  T_EQ_STR(prov_get(as.new_state, "value").u.s, "changed-by-apply");
  /* apply_unknown */
  mis_plan(&m, "misbehave_apply_unknown", null0, cfg, &ps);
  as = mis_apply(&m, "misbehave_apply_unknown", null0, ps.planned_state, cfg);
  T_CHECK(!val_is_wholly_known(as.new_state));
  /* apply_nil / apply_null */
  as = mis_apply(&m, "misbehave_apply_nil", null0, ps.planned_state, cfg);
  T_CHECK(as.new_state.type == NULL);
  as = mis_apply(&m, "misbehave_apply_null", null0, ps.planned_state, cfg);
  T_CHECK(as.new_state.type != NULL && val_is_null(as.new_state));
  /* apply_partial: an object and an error */
  as = mis_apply(&m, "misbehave_apply_partial", null0, ps.planned_state, cfg);
  T_EQ_INT(m.x.d.errors, 1);
  T_CHECK(!val_is_null(as.new_state) &&
          val_is_known(prov_get(as.new_state, "id")));
  /* delete_nonnull */
  as = mis_apply(&m, "misbehave_delete_nonnull", st, null0, null0);
  T_CHECK(!val_is_null(as.new_state));
  /* read_* */
  ProvReadReq rr = {"misbehave_read_deletes", st, {0}};
  ProvReadResp rs = {0};
  m.p->ops->read_resource(m.p, call(&m.x), &rr, &rs);
  T_CHECK(val_is_null(rs.new_state));
  rr.type_name = "misbehave_read_changes";
  m.p->ops->read_resource(m.p, call(&m.x), &rr, &rs);
  T_EQ_STR(prov_get(rs.new_state, "value").u.s, "drifted");
  rr.type_name = "misbehave_read_unknown";
  m.p->ops->read_resource(m.p, call(&m.x), &rr, &rs);
  T_CHECK(!val_is_wholly_known(rs.new_state));
  /* fail = true */
  Value fcfg = prov_set(&A, cfg, "fail", val_true);
  mis_plan(&m, "misbehave_ok", null0, fcfg, &ps);
  as = mis_apply(&m, "misbehave_ok", null0, ps.planned_state, fcfg);
  T_EQ_INT(m.x.d.errors, 1);
  T_CHECK(as.new_state.type == NULL);
  /* delay_ms, cut short by StopProvider */
  Value dcfg = prov_set(&A, cfg, "delay_ms", val_int(60000));
  m.p->ops->stop(m.p, call(&m.x));
  as = mis_apply(&m, "misbehave_ok", null0, dcfg, dcfg);
  T_EQ_INT(m.x.d.errors, 1);
  T_EQ_STR(m.x.d.head->summary, "Operation interrupted");
  /* data sources */
  ProvReadDataReq dq = {"misbehave_null", cfg};
  ProvReadDataResp ds = {0};
  m.p->ops->read_data_source(m.p, call(&m.x), &dq, &ds);
  T_CHECK(val_is_null(ds.state));
  dq.type_name = "misbehave_unknown";
  m.p->ops->read_data_source(m.p, call(&m.x), &dq, &ds);
  T_CHECK(!val_is_wholly_known(ds.state));
  T_CHECK(prov_path_sensitive(m.b, prov_path_attr(&A, "secret")));
}
#endif

/* ---- concurrency ---------------------------------------------------- */

typedef struct Worker {
  Prov *p;
  const ProvBlockSchema *b;
  int id;
  int ok;
} Worker;

/* Each worker has its own arena and diagnostics, as pool workers do. */
static void *worker(void *arg)
{
  Worker *w = arg;
  Arena a;
  arena_init(&a, 0);
  for (int i = 0; i < 50; i++) {
    Diags d;
    diag_init(&d, &a);
    ProvCall c = {&a, &d, NULL};
    const Type *t = prov_schema_implied_type(&a, w->b);
    Value *vals = ARENA_NEW(&a, Value, t->n);
    for (uint32_t k = 0; k < t->n; k++)
      vals[k] = strcmp(t->names[k], "length") == 0 ? val_int(24)
                                                   : val_null(t->types[k]);
    Value cfg = val_object_typed(t, vals);
    ProvPlanReq pr = {"random_string", val_null(t), cfg, cfg, {0}};
    ProvPlanResp ps = {0};
    w->p->ops->plan_resource_change(w->p, &c, &pr, &ps);
    ProvApplyReq ar = {"random_string", val_null(t), ps.planned_state, cfg,
                       {0}, NULL};
    ProvApplyResp as = {0};
    w->p->ops->apply_resource_change(w->p, &c, &ar, &as);
    Value r = prov_get(as.new_state, "result");
    if (d.errors == 0 && r.len == 24)
      w->ok++;
  }
  arena_release(&a);
  return NULL;
}

static void test_concurrent_calls(void)
{
  Prov *p = open_b("random");
  const ProvBlockSchema *b = res_schema(p, "random_string");
  Worker w[8];
  pthread_t th[8];
  for (int i = 0; i < 8; i++) {
    w[i] = (Worker){p, b, i, 0};
    pthread_create(&th[i], NULL, worker, &w[i]);
  }
  int ok = 0;
  for (int i = 0; i < 8; i++) {
    pthread_join(th[i], NULL);
    ok += w[i].ok;
  }
  T_EQ_INT(ok, 8 * 50);
}

static int rm_one(const char *path, const struct stat *st, int flag,
                  struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}


/* Go's time semantics the time provider relies on. */
static void test_time_encodings(void)
{
  ProvTime t;
  const char *err = NULL;
  T_CHECK(prov_time_parse(&A, "2020-01-31T10:00:00+01:00", &t, &err));
  T_EQ_INT(t.unix, 1580461200);
  T_EQ_STR(prov_time_format(&A, t), "2020-01-31T10:00:00+01:00");
  /* AddDate normalises like time.Date: Jan 31 + 1 month = Mar 2 (2020). */
  T_EQ_STR(prov_time_format(&A, prov_time_add_date(t, 0, 1, 0)),
           "2020-03-02T10:00:00+01:00");
  T_EQ_STR(prov_time_format(&A, prov_time_add_date(t, 1, -13, 1)),
           "2020-01-01T10:00:00+01:00");
  ProvTimeFields f;
  prov_time_fields(t, &f);
  T_EQ_INT(f.hour, 10);
  T_EQ_INT(f.day, 31);
  T_CHECK(prov_time_parse(&A, "2024-02-29T23:59:59.123456Z", &t, &err));
  T_EQ_STR(prov_time_format(&A, t), "2024-02-29T23:59:59Z");
  T_EQ_STR(prov_time_format(&A, prov_time_add_date(t, 1, 0, 0)),
           "2025-03-01T23:59:59Z");
  /* Go's zero time, which upstream writes when no offset applies. */
  t = (ProvTime){-62135596800LL, 0};
  T_EQ_STR(prov_time_format(&A, t), "0001-01-01T00:00:00Z");
  T_CHECK(!prov_time_parse(&A, "2023-02-29T00:00:00Z", &t, &err));
  T_EQ_STR(err, "parsing time \"2023-02-29T00:00:00Z\": day out of range");
  T_CHECK(!prov_time_parse(&A, "2020-01-01 00:00:00Z", &t, &err));
  T_EQ_STR(err, "parsing time \"2020-01-01 00:00:00Z\" as "
                "\"2006-01-02T15:04:05Z07:00\": cannot parse "
                "\" 00:00:00Z\" as \"T\"");
  T_CHECK(!prov_time_parse(&A, "2020-01-01T00:00:00", &t, &err));
  T_EQ_STR(err, "parsing time \"2020-01-01T00:00:00\" as "
                "\"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as "
                "\"Z07:00\"");
  T_CHECK(!prov_time_parse(&A, "2020-01-01T00:00:00Zx", &t, &err));
  T_EQ_STR(err, "parsing time \"2020-01-01T00:00:00Zx\": extra text: "
                "\"x\"");

  int64_t ns = 0;
  T_CHECK(prov_go_duration(&A, "1h30m", &ns, &err));
  T_EQ_INT(ns, 5400000000000LL);
  T_CHECK(prov_go_duration(&A, "1.5s", &ns, &err));
  T_EQ_INT(ns, 1500000000LL);
  T_CHECK(prov_go_duration(&A, "-2ms300us", &ns, &err));
  T_EQ_INT(ns, -2300000LL);
  T_CHECK(prov_go_duration(&A, "0", &ns, &err));
  T_EQ_INT(ns, 0);
  T_CHECK(!prov_go_duration(&A, "1", &ns, &err));
  T_EQ_STR(err, "time: missing unit in duration \"1\"");
  T_CHECK(!prov_go_duration(&A, "1x", &ns, &err));
  T_EQ_STR(err, "time: unknown unit \"x\" in duration \"1x\"");
  T_CHECK(!prov_go_duration(&A, "", &ns, &err));
  T_EQ_STR(err, "time: invalid duration \"\"");
  T_CHECK(!prov_go_duration(&A, "9999999999h", &ns, &err));
  T_EQ_STR(err, "time: invalid duration \"9999999999h\"");
}

/* time_rotating: create, the rotation arithmetic, the refresh that drops
** an object whose rotation time has passed, and import. */
static void test_time_rotating(void)
{
  Prov *p = open_b("hashicorp/time");
  T_CHECK(p != NULL);
  const ProvBlockSchema *b = res_schema(p, "time_rotating");
  const char *n[] = {"rfc3339", "rotation_months"};
  Value v[] = {S("2021-01-31T00:00:00Z"), val_int(1)};
  Value cfg = mk(b, 2, n, v);
  Ctx x;
  ProvPlanResp pr = {0};
  p->ops->plan_resource_change(p, call(&x), &(ProvPlanReq){
      .type_name = "time_rotating", .prior_state = prov_null_object(&A, b),
      .proposed_new_state = cfg, .config = cfg}, &pr);
  T_CHECK(!val_is_known(prov_get(pr.planned_state, "rotation_rfc3339")));
  ProvApplyResp ar = {0};
  p->ops->apply_resource_change(p, call(&x), &(ProvApplyReq){
      .type_name = "time_rotating", .prior_state = prov_null_object(&A, b),
      .planned_state = pr.planned_state, .config = cfg}, &ar);
  T_EQ_STR(prov_get(ar.new_state, "rotation_rfc3339").u.s,
           "2021-03-03T00:00:00Z");
  T_EQ_INT(get_int_attr(ar.new_state, "month"), 3);
  T_EQ_INT(get_int_attr(ar.new_state, "unix"), 1614729600);
  /* the rotation time lies in the past: the object is gone */
  ProvReadResp rr = {0};
  p->ops->read_resource(p, call(&x), &(ProvReadReq){
      .type_name = "time_rotating", .current_state = ar.new_state}, &rr);
  T_CHECK(val_is_null(rr.new_state));
  /* -refresh=false plans replace it (ReplaceIfOutdated) */
  ProvPlanResp pr2 = {0};
  p->ops->plan_resource_change(p, call(&x), &(ProvPlanReq){
      .type_name = "time_rotating", .prior_state = ar.new_state,
      .proposed_new_state = ar.new_state, .config = cfg}, &pr2);
  T_CHECK(has_replace(&pr2, "rotation_rfc3339"));

  ProvImportResp ir = {0};
  p->ops->import_resource_state(p, call(&x), &(ProvImportReq){
      .type_name = "time_rotating", .id = "2020-01-01T00:00:00Z,,,,2,"}, &ir);
  T_EQ_INT(ir.nimported, 1);
  T_EQ_STR(prov_get(ir.imported[0].state, "rotation_rfc3339").u.s,
           "2020-01-01T02:00:00Z");
  p->ops->import_resource_state(p, call(&x), &(ProvImportReq){
      .type_name = "time_rotating", .id = "2020-01-01T00:00:00Z,,,,,"}, &ir);
  T_CHECK(diag_has_errors(&x.d));
  T_CHECK(strstr(x.d.head->detail, "at least one rotation value") != NULL);
}

/* time_sleep: validation messages and paths, and StopProvider ending a
** create early. */
static void test_time_sleep(void)
{
  Prov *p = open_b("hashicorp/time");
  const ProvBlockSchema *b = res_schema(p, "time_sleep");
  const char *n[] = {"create_duration"};
  Value v[] = {S("10 s")};
  Value cfg = mk(b, 1, n, v);
  Ctx x;
  p->ops->validate_resource_config(p, call(&x), "time_sleep", cfg);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Invalid Attribute Value Match");
  cfg = mk(b, 0, NULL, NULL);
  p->ops->validate_resource_config(p, call(&x), "time_sleep", cfg);
  T_EQ_INT(x.d.errors, 2);
  T_EQ_STR(x.d.head->detail, "At least one attribute out of "
                             "[create_duration,destroy_duration] must be "
                             "specified");
  T_CHECK(prov_diag_path(&x.c, x.d.head) != NULL);
  /* a stopped provider ends the wait at once */
  v[0] = S("1h");
  cfg = mk(b, 1, n, v);
  atomic_store(&p->stopping, true);
  ProvApplyResp ar = {0};
  p->ops->apply_resource_change(p, call(&x), &(ProvApplyReq){
      .type_name = "time_sleep", .prior_state = prov_null_object(&A, b),
      .planned_state = cfg, .config = cfg}, &ar);
  T_CHECK(!ar.new_state.type);
  T_EQ_STR(x.d.head->summary, "Create time sleep error");
  T_EQ_STR(x.d.head->detail, "Original Error: context canceled");
}

/* random_bytes/uuid4/uuid7 encodings and imports. */
static void test_random_bytes_uuid(void)
{
  uint8_t u[16];
  memset(u, 0xff, sizeof u);
  prov_uuid7_stamp(u, 0x0123456789abLL);
  const char *s = prov_uuid_string(&A, u);
  T_EQ_STR(s, "01234567-89ab-7fff-bfff-ffffffffffff");
  T_CHECK(prov_uuid_parse(&A, "{01234567-89AB-7FFF-BFFF-FFFFFFFFFFFF}", u) ==
          NULL);
  T_EQ_STR(prov_uuid_string(&A, u), s);
  T_EQ_STR(prov_uuid_parse(&A, "abc", u), "invalid UUID length: 3");
  T_EQ_STR(prov_uuid_parse(&A, "0123456789ab7fffbfffffffffffffxz", u),
           "invalid UUID format");

  Prov *p = open_b("registry.terraform.io/hashicorp/random");
  const ProvBlockSchema *b = res_schema(p, "random_uuid7");
  Value cfg = mk(b, 0, NULL, NULL);
  Ctx x;
  ProvApplyResp ar = {0};
  p->ops->apply_resource_change(p, call(&x), &(ProvApplyReq){
      .type_name = "random_uuid7", .prior_state = prov_null_object(&A, b),
      .planned_state = cfg, .config = cfg}, &ar);
  const char *r = prov_get(ar.new_state, "result").u.s;
  T_EQ_INT((int64_t)strlen(r), 36);
  T_CHECK(r[14] == '7');
  T_CHECK(strchr("89ab", r[19]) != NULL);

  b = res_schema(p, "random_bytes");
  ProvImportResp ir = {0};
  p->ops->import_resource_state(p, call(&x), &(ProvImportReq){
      .type_name = "random_bytes", .id = "3q2+7w=="}, &ir);
  T_EQ_INT(ir.nimported, 1);
  T_EQ_STR(prov_get(ir.imported[0].state, "hex").u.s, "deadbeef");
  T_EQ_INT(get_int_attr(ir.imported[0].state, "length"), 4);
  T_CHECK(prov_path_sensitive(b, prov_path_attr(&A, "base64")));
  p->ops->import_resource_state(p, call(&x), &(ProvImportReq){
      .type_name = "random_bytes", .id = "3q2+7w"}, &ir);
  T_EQ_STR(x.d.head->summary, "Import Random bytes Error");
}

/* data external and local_command through the program runner. */
static void test_external_command(void)
{
  Prov *p = open_b("registry.terraform.io/hashicorp/external");
  const ProvProviderSchema *s = NULL;
  Ctx x;
  p->ops->get_schema(p, call(&x), &s);
  const ProvBlockSchema *b = prov_schema_data_source(s, "external")->schema.block;
  Value prog[] = {S("sh"), S("-c"), S("read q; echo \"{\\\"q\\\":$q}\" | "
                                      "sed 's/{\"k\":\"v\"}/\"ok\"/'")};
  const char *n[] = {"program", "query"};
  Value v[] = {val_list(&A, &ty_string, prog, 3), smap1("k", "v")};
  ProvReadDataResp dr = {0};
  p->ops->read_data_source(p, call(&x), &(ProvReadDataReq){
      .type_name = "external", .config = mk(b, 2, n, v)}, &dr);
  T_EQ_INT(x.d.errors, 0);
  bool found;
  Value q = val_map_get(prov_get(dr.state, "result"), "q", 1, &found);
  T_CHECK(found);
  T_EQ_STR(q.u.s, "ok");
  T_EQ_STR(prov_get(dr.state, "id").u.s, "-");

  Prov *l = open_b("hashicorp/local");
  l->ops->get_schema(l, call(&x), &s);
  b = prov_schema_data_source(s, "local_command")->schema.block;
  Value args[] = {S("-c"), S("cat; exit 4")};
  const char *n2[] = {"command", "arguments", "stdin"};
  Value v2[] = {S("sh"), val_list(&A, &ty_string, args, 2), S("in")};
  ProvReadDataResp lr = {0};
  l->ops->read_data_source(l, call(&x), &(ProvReadDataReq){
      .type_name = "local_command", .config = mk(b, 3, n2, v2)}, &lr);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Command Execution Failed");
  T_CHECK(strstr(x.d.head->detail, "State: exit status 4") != NULL);
}

int main(void)
{
  arena_init(&A, 0);
  char tmpl[] = "/tmp/cairn-provtest-XXXXXX";
  tmpdir = mkdtemp(tmpl);
  if (!tmpdir) {
    perror("mkdtemp");
    return 1;
  }
  T_RUN(test_source_normalize);
  T_RUN(test_lookup_builtin);
  T_RUN(test_implied_type);
  T_RUN(test_path_sensitive);
  T_RUN(test_mark_sensitive);
  T_RUN(test_schema_prepare);
  T_RUN(test_diag_attr);
  T_RUN(test_null_resource);
  T_RUN(test_null_data_source);
  T_RUN(test_upgrade_state);
  T_RUN(test_terraform_data);
  T_RUN(test_remote_state);
  T_RUN(test_local_file);
  T_RUN(test_time_offset_extremes);
  T_RUN(test_local_validation);
  T_RUN(test_local_sensitive_and_data);
  T_RUN(test_random_string);
  T_RUN(test_random_keepers);
  T_RUN(test_random_password);
  T_RUN(test_random_id_integer);
  T_RUN(test_random_pet_shuffle);
  T_RUN(test_time_encodings);
  T_RUN(test_time_rotating);
  T_RUN(test_time_sleep);
  T_RUN(test_random_bytes_uuid);
  T_RUN(test_external_command);
  T_RUN(test_concurrent_calls);
#ifdef CAIRN_TEST
  T_RUN(test_misbehave);
#endif
  nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  int rc = t_done("provider");
  arena_release(&A);
  return rc;
}
