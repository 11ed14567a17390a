/*
** test_jsonplan: `show -json` documents for plans and states, golden
** JSON checked field by field against Terraform's jsonplan/jsonstate/
** jsonconfig rules.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "t.h"
#include "views/jsonplan.h"

static Arena A;

/* A null_resource-like schema with one sensitive attribute and a nested
** list block. */
static const ProvAttrSchema inner_attrs[] = {
  {"v", &ty_string, NULL, PROV_OPTIONAL, NULL, NULL},
};
static const ProvBlockSchema inner_block = {inner_attrs, 1, NULL, 0, NULL,
                                            false, NULL};
static const ProvNestedBlock nested[] = {
  {"rule", PROV_NEST_LIST, &inner_block, 0, 0},
};
static ProvAttrSchema res_attrs[4];
static ProvBlockSchema res_block;

static const ProvBlockSchema *schema_of(void *ctx, StMode mode,
                                        const char *fqn, const char *type)
{
  (void)ctx;
  (void)mode;
  if (strcmp(fqn, "registry.terraform.io/hashicorp/null") != 0)
    return NULL;
  return strcmp(type, "null_resource") == 0 ? &res_block : NULL;
}

static void setup_schema(void)
{
  res_attrs[0] = (ProvAttrSchema){"id", &ty_string, NULL, PROV_COMPUTED,
                                  NULL, NULL};
  res_attrs[1] = (ProvAttrSchema){"triggers", ty_map(&A, &ty_string), NULL,
                                  PROV_OPTIONAL, NULL, NULL};
  res_attrs[2] = (ProvAttrSchema){"secret", &ty_string, NULL,
                                  PROV_OPTIONAL | PROV_SENSITIVE, NULL,
                                  NULL};
  res_attrs[3] = (ProvAttrSchema){"list", ty_list(&A, &ty_string), NULL,
                                  PROV_OPTIONAL, NULL, NULL};
  res_block = (ProvBlockSchema){res_attrs, 4, nested, 1, NULL, false, NULL};
}

static Value obj(uint32_t n, const char *const *names, const Value *vals)
{
  return val_object(&A, n, names, vals);
}

static State *read_state(const char *src)
{
  Diags d;
  diag_init(&d, &A);
  State *s = NULL;
  T_CHECK(st_read(&A, "t.tfstate", src, strlen(src), &s, &d));
  return s;
}

/* Checks that out is one line of valid JSON. */
static void check_json_line(const char *out)
{
  size_t n = strlen(out);
  T_CHECK(n > 0 && out[n - 1] == '\n');
  T_CHECK(strchr(out, '\n') == out + n - 1);
  Diags d;
  diag_init(&d, &A);
  Value v;
  T_CHECK(json_parse(&A, out, n, &v, &d, NULL));
}

static void test_state_empty(void)
{
  Buf b;
  buf_init(&b, &A);
  jplan_state(&b, NULL, NULL, NULL);
  T_EQ_STR(buf_str(&b), "{\"format_version\":\"1.0\"}\n");
  buf_clear(&b);
  jplan_state(&b, st_new(&A), NULL, NULL);
  T_EQ_STR(buf_str(&b), "{\"format_version\":\"1.0\"}\n");
}

static const char *STATE1 =
  "{\"version\":4,\"terraform_version\":\"1.9.0\",\"serial\":3,"
  "\"lineage\":\"l\",\"outputs\":{\"o\":{\"value\":\"x<y\",\"type\":"
  "\"string\"},\"p\":{\"value\":[1,2],\"type\":[\"list\",\"number\"],"
  "\"sensitive\":true}},\"resources\":["
  "{\"module\":\"module.b.module.c\",\"mode\":\"managed\",\"type\":"
  "\"null_resource\",\"name\":\"n\",\"provider\":\"provider[\\\"registry."
  "terraform.io/hashicorp/null\\\"]\",\"instances\":[{\"schema_version\":0,"
  "\"attributes\":{\"id\":\"5\"}}]},"
  "{\"mode\":\"managed\",\"type\":\"null_resource\",\"name\":\"a\","
  "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/null\\\"]\","
  "\"instances\":[{\"index_key\":\"k\",\"schema_version\":1,\"attributes\":"
  "{\"id\":\"1\",\"secret\":\"s\",\"triggers\":{\"t\":\"v\",\"u\":\"w\"}},"
  "\"sensitive_attributes\":[[{\"type\":\"get_attr\",\"value\":"
  "\"triggers\"},{\"type\":\"index\",\"value\":{\"value\":\"u\",\"type\":"
  "\"string\"}}]],\"dependencies\":[\"data.x.y\"],\"status\":\"tainted\"},"
  "{\"index_key\":\"k\",\"deposed\":\"0a0b0c0d\",\"schema_version\":1,"
  "\"attributes\":{\"id\":\"0\"}}]},"
  "{\"mode\":\"data\",\"type\":\"local_file\",\"name\":\"f\",\"provider\":"
  "\"provider[\\\"registry.terraform.io/hashicorp/local\\\"].alt\","
  "\"instances\":[{\"index_key\":0,\"schema_version\":0,\"attributes\":"
  "{\"content\":\"c\",\"n\":1.50,\"l\":[true,null],\"big\":"
  "123456789012345678901234567890,\"e\":1e3,\"f\":0.1}}]}]}";

/* Objects are decoded with their schema first (jsonstate), so attributes
** the file leaves out come out as null, as cty's JSON decoding makes them;
** the sensitive schema attribute is marked even when null. */
static void test_state_values(void)
{
  State *s = read_state(STATE1);
  T_CHECK(s != NULL);
  if (!s)
    return;
  Buf b;
  buf_init(&b, &A);
  jplan_state(&b, s, schema_of, NULL);
  check_json_line(buf_str(&b));
  T_EQ_STR(buf_str(&b),
    "{\"format_version\":\"1.0\",\"terraform_version\":\"1.9.0\","
    "\"values\":{\"outputs\":{"
    "\"o\":{\"sensitive\":false,\"value\":\"x\\u003cy\",\"type\":\"string\"},"
    "\"p\":{\"sensitive\":true,\"value\":[1,2],\"type\":[\"list\","
    "\"number\"]}},"
    "\"root_module\":{\"resources\":["
    "{\"address\":\"data.local_file.f[0]\",\"mode\":\"data\",\"type\":"
    "\"local_file\",\"name\":\"f\",\"index\":0,\"provider_name\":"
    "\"registry.terraform.io/hashicorp/local\",\"schema_version\":0,"
    "\"values\":{\"big\":123456789012345678901234567890,\"content\":"
    "\"c\",\"e\":1000,\"f\":0.1,\"l\":[true,null],\"n\":1.5},"
    "\"sensitive_values\":{\"l\":[false,false]}},"
    "{\"address\":\"null_resource.a[\\\"k\\\"]\",\"mode\":\"managed\","
    "\"type\":\"null_resource\",\"name\":\"a\",\"index\":\"k\","
    "\"provider_name\":\"registry.terraform.io/hashicorp/null\","
    "\"schema_version\":1,\"values\":{\"id\":\"1\",\"list\":null,"
    "\"rule\":null,\"secret\":\"s\",\"triggers\":{\"t\":\"v\",\"u\":\"w\"}},\"sensitive_values\":{"
    "\"secret\":true,\"triggers\":{\"u\":true}},\"depends_on\":"
    "[\"data.x.y\"],\"tainted\":true},"
    "{\"address\":\"null_resource.a[\\\"k\\\"]\",\"mode\":\"managed\","
    "\"type\":\"null_resource\",\"name\":\"a\",\"index\":\"k\","
    "\"provider_name\":\"registry.terraform.io/hashicorp/null\","
    "\"schema_version\":1,\"values\":{\"id\":\"0\",\"list\":null,"
    "\"rule\":null,\"secret\":null,\"triggers\":null},\"sensitive_values\":"
    "{\"secret\":true},\"deposed_key\":\"0a0b0c0d\"}],"
    "\"child_modules\":[{\"address\":\"module.b\",\"child_modules\":["
    "{\"resources\":[{\"address\":\"module.b.module.c.null_resource.n\","
    "\"mode\":\"managed\",\"type\":\"null_resource\",\"name\":\"n\","
    "\"provider_name\":\"registry.terraform.io/hashicorp/null\","
    "\"schema_version\":0,\"values\":{\"id\":\"5\",\"list\":null,"
    "\"rule\":null,\"secret\":null,\"triggers\":null},\"sensitive_values\":"
    "{\"secret\":true}}],\"address\":\"module.b.module.c\"}]}]}}}\n");
}

/* Terraform's jsonstate decodes each object with its schema before
** marshalling: terraform_data's dynamic-typed input/output, stored in the
** tfstate as {"value":..,"type":..}, are written as plain values. */
static ProvAttrSchema tfdata_attrs[4];
static ProvBlockSchema tfdata_block;

static const ProvBlockSchema *tfdata_schema_of(void *ctx, StMode mode,
                                               const char *fqn,
                                               const char *type)
{
  (void)ctx;
  (void)mode;
  return strcmp(fqn, "terraform.io/builtin/terraform") == 0 &&
                 strcmp(type, "terraform_data") == 0
             ? &tfdata_block
             : NULL;
}

static void test_state_dynamic_attributes_plain(void)
{
  tfdata_attrs[0] = (ProvAttrSchema){"id", &ty_string, NULL, PROV_COMPUTED,
                                     NULL, NULL};
  tfdata_attrs[1] = (ProvAttrSchema){"input", &ty_dynamic, NULL,
                                     PROV_OPTIONAL, NULL, NULL};
  tfdata_attrs[2] = (ProvAttrSchema){"output", &ty_dynamic, NULL,
                                     PROV_COMPUTED, NULL, NULL};
  tfdata_attrs[3] = (ProvAttrSchema){"triggers_replace", &ty_dynamic, NULL,
                                     PROV_OPTIONAL, NULL, NULL};
  tfdata_block = (ProvBlockSchema){tfdata_attrs, 4, NULL, 0, NULL, false,
                                   NULL};
  State *s = read_state(
    "{\"version\":4,\"terraform_version\":\"1.9.0\",\"serial\":1,"
    "\"lineage\":\"l\",\"outputs\":{},\"resources\":[{\"mode\":"
    "\"managed\",\"type\":\"terraform_data\",\"name\":\"d\","
    "\"provider\":\"provider[\\\"terraform.io/builtin/terraform\\\"]\","
    "\"instances\":[{\"schema_version\":0,\"attributes\":{\"id\":\"i\","
    "\"input\":{\"value\":{\"a\":[1,\"x\"]},\"type\":[\"object\",{"
    "\"a\":[\"tuple\",[\"number\",\"string\"]]}]},\"output\":{"
    "\"value\":\"s\",\"type\":\"string\"},\"triggers_replace\":null}}]}]}");
  T_CHECK(s != NULL);
  if (!s)
    return;
  Buf b;
  buf_init(&b, &A);
  jplan_state(&b, s, tfdata_schema_of, NULL);
  check_json_line(buf_str(&b));
  T_CHECK(strstr(buf_str(&b),
                 "\"values\":{\"id\":\"i\",\"input\":{\"a\":[1,\"x\"]},"
                 "\"output\":\"s\",\"triggers_replace\":null}") != NULL);
  T_CHECK(strstr(buf_str(&b), "\"type\":\"string\"") == NULL);
}

static void test_provider_fqn(void)
{
  T_EQ_STR(jplan_provider_fqn(&A, "provider[\"registry.terraform.io/a/b\"]"),
           "registry.terraform.io/a/b");
  T_EQ_STR(jplan_provider_fqn(&A,
                              "module.x.provider[\"example.com/a/b\"].al"),
           "example.com/a/b");
  T_EQ_STR(jplan_provider_fqn(&A, "weird"), "weird");
  T_EQ_STR(jplan_provider_fqn(&A, "provider[\"unterminated"),
           "provider[\"unterminated");
}

/* Writes files into a fresh directory and loads its module tree: main_tf
** at the top, each child_tf[i] (NULL-terminated) as CHILD_DIRS[i]/main.tf. */
static const char *const CHILD_DIRS[] = {"m", "m/n", "o"};

static CfgTree *load_tree(const char *main_tf, const char *const *child_tf)
{
  char tmpl[] = "/tmp/cairn-jsonplan-XXXXXX";
  char *dir = mkdtemp(tmpl);
  T_CHECK(dir != NULL);
  if (!dir)
    return NULL;
  char path[256];
  uint32_t nchild = 0;
  while (child_tf && child_tf[nchild] && nchild < 3)
    nchild++;
  for (uint32_t i = 0; i <= nchild; i++) {
    if (i > 0) {
      snprintf(path, sizeof path, "%s/%s", dir, CHILD_DIRS[i - 1]);
      T_CHECK(mkdir(path, 0700) == 0);
    }
    if (i == 0)
      snprintf(path, sizeof path, "%s/main.tf", dir);
    else
      snprintf(path, sizeof path, "%s/%s/main.tf", dir, CHILD_DIRS[i - 1]);
    FILE *f = fopen(path, "w");
    T_CHECK(f != NULL);
    if (!f)
      return NULL;
    fputs(i == 0 ? main_tf : child_tf[i - 1], f);
    fclose(f);
  }
  SrcFiles fs;
  diag_files_init(&fs, &A);
  Diags d;
  diag_init(&d, &A);
  CfgTree *t = cfg_load_tree(&A, arena_strdup(&A, dir), &fs, &d);
  T_EQ_INT(d.errors, 0);
  for (uint32_t i = nchild; i > 0; i--) {
    snprintf(path, sizeof path, "%s/%s/main.tf", dir, CHILD_DIRS[i - 1]);
    unlink(path);
    snprintf(path, sizeof path, "%s/%s", dir, CHILD_DIRS[i - 1]);
    rmdir(path);
  }
  snprintf(path, sizeof path, "%s/main.tf", dir);
  unlink(path);
  rmdir(dir);
  return t;
}

static CfgTree *load_cfg(const char *main_tf)
{
  return load_tree(main_tf, NULL);
}

static const char *MAIN_TF =
  "terraform {\n"
  "  required_providers {\n"
  "    null = { source = \"hashicorp/null\", version = \"~> 3.0\" }\n"
  "    random = { source = \"hashicorp/random\" }\n"
  "  }\n"
  "}\n"
  "provider \"random\" {\n"
  "  alias = \"two\"\n"
  "  region = \"r\"\n"
  "}\n"
  "variable \"v\" {\n"
  "  default = \"d\"\n"
  "  description = \"a var\"\n"
  "}\n"
  "variable \"w\" {\n"
  "  sensitive = true\n"
  "}\n"
  "resource \"null_resource\" \"a\" {\n"
  "  count = 2\n"
  "  triggers = { x = var.v, y = null_resource.b[0].id }\n"
  "  list = [\"a\", upper(\"b\")]\n"
  "  bogus = 1\n"
  "  rule { v = module.m.out }\n"
  "  rule { v = \"lit\" }\n"
  "  depends_on = [null_resource.b]\n"
  "}\n"
  "resource \"null_resource\" \"b\" {\n"
  "  provider = random.two\n"
  "  for_each = toset([\"a\"])\n"
  "  triggers = { k = each.key, p = path.module }\n"
  "  provisioner \"local-exec\" { command = \"echo ${self.id}\" }\n"
  "}\n"
  "data \"local_file\" \"f\" {\n"
  "  filename = \"${path.module}/x\"\n"
  "}\n"
  "module \"m\" {\n"
  "  source = \"./m\"\n"
  "  count = 1\n"
  "  in = local.l[\"k\"].z\n"
  "}\n"
  "output \"o\" {\n"
  "  value = module.m[0].out\n"
  "  sensitive = true\n"
  "  description = \"d\"\n"
  "}\n"
  "output \"c\" {\n"
  "  value = 1 + 2\n"
  "  depends_on = [null_resource.a]\n"
  "}\n";

static const char *const MAIN_CHILD[] = {
  "variable \"in\" {}\n"
  "variable \"unused\" {\n"
  "  default = null\n"
  "}\n"
  "resource \"null_resource\" \"c\" {}\n"
  "output \"out\" {\n"
  "  value = var.in\n"
  "}\n",
  NULL};

static void test_configuration(void)
{
  CfgTree *m = load_tree(MAIN_TF, MAIN_CHILD);
  T_CHECK(m != NULL);
  if (!m)
    return;
  Plan p;
  memset(&p, 0, sizeof p);
  p.arena = &A;
  p.complete = true;
  Buf b;
  buf_init(&b, &A);
  jplan_plan(&b, &p, m, schema_of, NULL);
  check_json_line(buf_str(&b));
  const char *s = buf_str(&b);
  const char *cfg = strstr(s, "\"configuration\":");
  T_CHECK(cfg != NULL);
  if (!cfg)
    return;
  T_EQ_STR(cfg,
    "\"configuration\":{\"provider_config\":{"
    /* implied by a resource alone: Terraform lists it too */
    "\"local\":{\"name\":\"local\",\"full_name\":"
    "\"registry.terraform.io/hashicorp/local\"},"
    "\"null\":{\"name\":\"null\",\"full_name\":"
    "\"registry.terraform.io/hashicorp/null\",\"version_constraint\":"
    "\"~\\u003e 3.0\"},"
    "\"random\":{\"name\":\"random\",\"full_name\":"
    "\"registry.terraform.io/hashicorp/random\"},"
    "\"random.two\":{\"name\":\"random\",\"full_name\":"
    "\"registry.terraform.io/hashicorp/random\",\"alias\":\"two\","
    "\"expressions\":{\"region\":{\"constant_value\":\"r\"}}}},"
    "\"root_module\":{\"outputs\":{"
    "\"c\":{\"expression\":{\"constant_value\":3},\"depends_on\":"
    "[\"null_resource.a\"]},"
    "\"o\":{\"sensitive\":true,\"expression\":{\"references\":["
    "\"module.m[0].out\",\"module.m[0]\"]},\"description\":\"d\"}},"
    "\"resources\":["
    "{\"address\":\"data.local_file.f\",\"mode\":\"data\",\"type\":"
    "\"local_file\",\"name\":\"f\",\"provider_config_key\":\"local\","
    "\"expressions\":{\"filename\":{\"references\":[\"path.module\"]}},"
    "\"schema_version\":0},"
    "{\"address\":\"null_resource.a\",\"mode\":\"managed\",\"type\":"
    "\"null_resource\",\"name\":\"a\",\"provider_config_key\":\"null\","
    "\"expressions\":{\"list\":{},\"rule\":[{\"v\":{\"references\":["
    "\"module.m.out\",\"module.m\"]}},{\"v\":{\"constant_value\":\"lit\"}}],"
    "\"triggers\":{\"references\":[\"var.v\",\"null_resource.b[0].id\","
    "\"null_resource.b[0]\",\"null_resource.b\"]}},\"schema_version\":0,"
    "\"count_expression\":{\"constant_value\":2},\"depends_on\":"
    "[\"null_resource.b\"]},"
    "{\"address\":\"null_resource.b\",\"mode\":\"managed\",\"type\":"
    "\"null_resource\",\"name\":\"b\",\"provider_config_key\":\"random.two\","
    "\"provisioners\":[{\"type\":\"local-exec\",\"expressions\":{"
    "\"command\":{\"references\":[\"self.id\",\"self\"]}}}],"
    "\"expressions\":{\"triggers\":{\"references\":[\"each.key\","
    "\"path.module\"]}},\"schema_version\":0}],"
    "\"module_calls\":{\"m\":{\"source\":\"./m\",\"expressions\":{\"in\":{"
    "\"references\":[\"local.l[\\\"k\\\"].z\",\"local.l[\\\"k\\\"]\","
    "\"local.l\"]}},\"count_expression\":{\"constant_value\":1},"
    "\"module\":{\"outputs\":{\"out\":{\"expression\":{\"references\":["
    "\"var.in\"]}}},\"resources\":[{\"address\":\"null_resource.c\","
    "\"mode\":\"managed\",\"type\":\"null_resource\",\"name\":\"c\","
    "\"provider_config_key\":\"null\",\"schema_version\":0}],"
    "\"variables\":{\"in\":{},\"unused\":{\"default\":null}}}}},"
    "\"variables\":{\"v\":{\"default\":\"d\",\"description\":\"a var\"},"
    "\"w\":{\"sensitive\":true}}}},"
    "\"applyable\":false,\"complete\":true,\"errored\":false}\n");
  /* Defaults of unset variables are listed as plan variables. */
  T_CHECK(strstr(s, "\"variables\":{\"v\":{\"value\":\"d\"}},") != NULL);
}

static const char *const N3[] = {"id", "list", "rule", "secret", "triggers"};

static PlChange mk_change(const char *addr, const char *name, StKey key,
                          PlAction a)
{
  PlChange c;
  memset(&c, 0, sizeof c);
  c.addr = addr;
  c.module = "";
  c.mode = ST_MANAGED;
  c.type = "null_resource";
  c.name = name;
  c.key = key;
  c.provider = "provider[\"registry.terraform.io/hashicorp/null\"]";
  c.provider_name = "registry.terraform.io/hashicorp/null";
  c.action = a;
  return c;
}

/* resource_changes (and the human plan) follow Terraform's
** addrs.AbsResourceInstance.Less, not the address strings: shallower
** module paths first, data before managed, x[2] before x[10], integer
** keys before string keys, the current object before deposed ones. */
static void test_plan_order_abs_resource_instance_less(void)
{
  PlChange v[8];
  StKey k2 = {ST_INTKEY, 2, NULL, 0}, k10 = {ST_INTKEY, 10, NULL, 0};
  StKey ka = {ST_STRKEY, 0, "a", 1};
  v[0] = mk_change("module.child.null_resource.a", "a", st_nokey(),
                   PL_CREATE);
  v[0].module = "module.child";
  v[1] = mk_change("null_resource.x[10]", "x", k10, PL_CREATE);
  v[2] = mk_change("null_resource.x[2]", "x", k2, PL_CREATE);
  v[3] = mk_change("test_instance.test", "test", st_nokey(), PL_CREATE);
  v[3].type = "test_instance";
  v[4] = mk_change("data.null_data_source.z", "z", st_nokey(), PL_READ);
  v[4].mode = ST_DATA;
  v[4].type = "null_data_source";
  v[5] = mk_change("null_resource.x[\"a\"]", "x", ka, PL_CREATE);
  v[6] = mk_change("null_resource.x[2]", "x", k2, PL_DELETE);
  v[6].deposed = "00000001";
  v[7] = mk_change("module.b[10].null_resource.a", "a", st_nokey(),
                   PL_CREATE);
  v[7].module = "module.b[10]";
  PlChange w = v[0];
  w.addr = "module.b[2].null_resource.a";
  w.module = "module.b[2]";
  Plan p;
  memset(&p, 0, sizeof p);
  PlChange all[9];
  memcpy(all, v, sizeof v);
  all[8] = w;
  p.changes = all;
  p.nchanges = 9;
  plan_sort(&p);
  static const char *const want[] = {
    "data.null_data_source.z", "null_resource.x[2]", "null_resource.x[2]",
    "null_resource.x[10]", "null_resource.x[\"a\"]", "test_instance.test",
    "module.b[2].null_resource.a", "module.b[10].null_resource.a",
    "module.child.null_resource.a"};
  for (uint32_t i = 0; i < 9; i++)
    T_EQ_STR(p.changes[i].addr, want[i]);
  T_CHECK(p.changes[1].deposed == NULL);
  T_EQ_STR(p.changes[2].deposed, "00000001");
  T_EQ_INT(p.changes[3].index, 3);
}

static void test_plan_changes(void)
{
  const Type *lt = ty_list(&A, &ty_string);
  const Type *mt = ty_map(&A, &ty_string);
  Value after_vals[5] = {
    val_unknown(&ty_string),
    val_list(&A, &ty_string,
             (Value[]){val_cstr(&A, "a"), val_unknown(&ty_string)}, 2),
    val_list(&A, NULL, NULL, 0),
    val_cstr(&A, "pw"),
    val_map(&A, &ty_string,
            (MapEntry[]){{"x", 1, val_sensitive(val_cstr(&A, "1"))}}, 1),
  };
  PlChange cs[4];
  cs[0] = mk_change("null_resource.a[0]", "a", st_intkey(0), PL_CREATE);
  cs[0].before = val_null(&ty_dynamic);
  cs[0].after = obj(5, N3, after_vals);

  Value before_vals[5] = {val_cstr(&A, "9"), val_null(lt),
                          val_list(&A, NULL, NULL, 0), val_null(&ty_string),
                          val_null(mt)};
  cs[1] = mk_change("null_resource.b", "b", st_nokey(),
                    PL_DELETE_THEN_CREATE);
  cs[1].before = obj(5, N3, before_vals);
  Value after2[5] = {val_unknown(&ty_string), val_null(lt),
                     val_list(&A, NULL, NULL, 0), val_null(&ty_string),
                     val_null(mt)};
  cs[1].after = obj(5, N3, after2);
  cs[1].reason = PL_REASON_REPLACE_CANNOT_UPDATE;
  PathStep ps[2] = {{PS_ATTR, "triggers", 0}, {PS_KEY, "x", 0}};
  ValPath vp[1] = {{ps, 2}};
  cs[1].replace_paths = vp;
  cs[1].nreplace_paths = 1;
  cs[1].prev_addr = "null_resource.old";
  cs[1].schema_version = 2;

  cs[2] = mk_change("null_resource.c", "c", st_nokey(), PL_DELETE);
  cs[2].before = obj(5, N3, before_vals);
  cs[2].after = val_null(cs[2].before.type);
  cs[2].deposed = "00000001";
  cs[2].reason = PL_REASON_DELETE_NO_RESOURCE_CONFIG;

  cs[3] = mk_change("data.null_data_source.d", "d", st_nokey(), PL_DELETE);
  cs[3].mode = ST_DATA;
  cs[3].type = "null_data_source";

  PlOutput outs[2];
  memset(outs, 0, sizeof outs);
  outs[0].name = "gone";
  outs[0].action = PL_DELETE;
  outs[0].before = val_cstr(&A, "x");
  outs[0].after = val_null(&ty_dynamic);
  outs[1].name = "o";
  outs[1].action = PL_CREATE;
  outs[1].before = val_null(&ty_dynamic);
  outs[1].after = val_unknown(&ty_string);
  outs[1].sensitive = true;

  PlVariable vars[1] = {{"v", val_cstr(&A, "hi"), false, false, false,
                          PL_VAR_UNSET}};
  Plan p;
  memset(&p, 0, sizeof p);
  p.arena = &A;
  p.changes = cs;
  p.nchanges = 4;
  p.outputs = outs;
  p.noutputs = 2;
  p.vars = vars;
  p.nvars = 1;
  p.timestamp = "2024-01-01T00:00:00Z";
  p.applyable = true;
  p.complete = true;
  p.drift = &cs[1];
  p.ndrift = 1;
  Buf b;
  buf_init(&b, &A);
  jplan_plan(&b, &p, NULL, schema_of, NULL);
  check_json_line(buf_str(&b));
  T_EQ_STR(buf_str(&b),
    "{\"format_version\":\"1.2\",\"terraform_version\":\"" CAIRN_VERSION
    "\",\"variables\":{\"v\":{\"value\":\"hi\"}},"
    "\"planned_values\":{\"outputs\":{\"o\":{\"sensitive\":true}},"
    "\"root_module\":{\"resources\":["
    "{\"address\":\"null_resource.a[0]\",\"mode\":\"managed\",\"type\":"
    "\"null_resource\",\"name\":\"a\",\"index\":0,\"provider_name\":"
    "\"registry.terraform.io/hashicorp/null\",\"schema_version\":0,"
    "\"values\":{\"list\":[\"a\",null],\"rule\":[],\"secret\":\"pw\","
    "\"triggers\":{\"x\":\"1\"}},\"sensitive_values\":{\"list\":"
    "[false,false],\"rule\":[],\"secret\":true,\"triggers\":{\"x\":true}}},"
    "{\"address\":\"null_resource.b\",\"mode\":\"managed\",\"type\":"
    "\"null_resource\",\"name\":\"b\",\"provider_name\":"
    "\"registry.terraform.io/hashicorp/null\",\"schema_version\":2,"
    "\"values\":{\"list\":null,\"rule\":[],\"secret\":null,\"triggers\":"
    "null},\"sensitive_values\":{\"rule\":[],\"secret\":true}}]}},"
    "\"resource_drift\":[{\"address\":\"null_resource.b\","
    "\"previous_address\":\"null_resource.old\",\"mode\":\"managed\","
    "\"type\":\"null_resource\",\"name\":\"b\",\"provider_name\":"
    "\"registry.terraform.io/hashicorp/null\",\"change\":{\"actions\":"
    "[\"delete\",\"create\"],\"before\":{\"id\":\"9\",\"list\":null,"
    "\"rule\":[],\"secret\":null,\"triggers\":null},\"after\":{\"list\":"
    "null,\"rule\":[],\"secret\":null,\"triggers\":null},\"after_unknown\":"
    "{\"id\":true,\"rule\":[]},\"before_sensitive\":{\"rule\":[],"
    "\"secret\":true},\"after_sensitive\":{\"rule\":[],\"secret\":true},"
    "\"replace_paths\":[[\"triggers\","
    "\"x\"]]},\"action_reason\":\"replace_because_cannot_update\"}],"
    "\"resource_changes\":["
    "{\"address\":\"null_resource.a[0]\",\"mode\":\"managed\",\"type\":"
    "\"null_resource\",\"name\":\"a\",\"index\":0,\"provider_name\":"
    "\"registry.terraform.io/hashicorp/null\",\"change\":{\"actions\":"
    "[\"create\"],\"before\":null,\"after\":{\"list\":[\"a\",null],"
    "\"rule\":[],\"secret\":\"pw\",\"triggers\":{\"x\":\"1\"}},"
    "\"after_unknown\":{\"id\":true,\"list\":[false,true],\"rule\":[],"
    "\"triggers\":{}},"
    "\"before_sensitive\":false,\"after_sensitive\":{\"list\":[false,false],"
    "\"rule\":[],\"secret\":true,\"triggers\":{\"x\":true}}}},"
    "{\"address\":\"null_resource.b\",\"previous_address\":"
    "\"null_resource.old\",\"mode\":\"managed\",\"type\":\"null_resource\","
    "\"name\":\"b\",\"provider_name\":"
    "\"registry.terraform.io/hashicorp/null\",\"change\":{\"actions\":"
    "[\"delete\",\"create\"],\"before\":{\"id\":\"9\",\"list\":null,"
    "\"rule\":[],\"secret\":null,\"triggers\":null},\"after\":{\"list\":"
    "null,\"rule\":[],\"secret\":null,\"triggers\":null},\"after_unknown\":"
    "{\"id\":true,\"rule\":[]},\"before_sensitive\":{\"rule\":[],"
    "\"secret\":true},\"after_sensitive\":{\"rule\":[],\"secret\":true},"
    "\"replace_paths\":[[\"triggers\","
    "\"x\"]]},\"action_reason\":\"replace_because_cannot_update\"},"
    "{\"address\":\"null_resource.c\",\"mode\":\"managed\",\"type\":"
    "\"null_resource\",\"name\":\"c\",\"provider_name\":"
    "\"registry.terraform.io/hashicorp/null\",\"deposed\":\"00000001\","
    "\"change\":{\"actions\":[\"delete\"],\"before\":{\"id\":\"9\",\"list\":"
    "null,\"rule\":[],\"secret\":null,\"triggers\":null},\"after\":null,"
    "\"after_unknown\":{},\"before_sensitive\":{\"rule\":[],"
    "\"secret\":true},"
    "\"after_sensitive\":false},\"action_reason\":"
    "\"delete_because_no_resource_config\"}],"
    "\"output_changes\":{\"gone\":{\"actions\":[\"delete\"],\"before\":"
    "\"x\",\"after\":null,\"after_unknown\":false,\"before_sensitive\":"
    "false,\"after_sensitive\":false},\"o\":{\"actions\":[\"create\"],"
    "\"before\":null,\"after_unknown\":true,\"before_sensitive\":true,"
    "\"after_sensitive\":true}},"
    "\"configuration\":{\"root_module\":{}},\"timestamp\":"
    "\"2024-01-01T00:00:00Z\",\"applyable\":true,\"complete\":true,"
    "\"errored\":false}\n");
}

static void test_plan_prior_state_and_modules(void)
{
  State *s = read_state(STATE1);
  T_CHECK(s != NULL);
  PlChange cs[3];
  cs[0] = mk_change("module.x[\"a.module.b\"].module.y.null_resource.n",
                    "n", st_nokey(), PL_CREATE);
  cs[0].module = "module.x[\"a.module.b\"].module.y";
  cs[0].after = val_object(&A, 0, NULL, NULL);
  cs[1] = mk_change("module.x[\"a.module.b\"].null_resource.n", "n",
                    st_nokey(), PL_FORGET);
  cs[1].module = "module.x[\"a.module.b\"]";
  cs[2] = mk_change("module.w.null_resource.n", "n", st_nokey(), PL_READ);
  cs[2].module = "module.w";
  cs[2].after = val_unknown(&ty_empty_object);
  Plan p;
  memset(&p, 0, sizeof p);
  p.changes = cs;
  p.nchanges = 3;
  p.prior_state = s;
  p.errored = true;
  Buf b;
  buf_init(&b, &A);
  jplan_plan(&b, &p, NULL, NULL, NULL);
  const char *out = buf_str(&b);
  check_json_line(out);
  if (getenv("SHOW"))
    puts(out);
  T_CHECK(strstr(out,
    "\"planned_values\":{\"root_module\":{\"child_modules\":["
    "{\"resources\":[{\"address\":\"module.w.null_resource.n\",\"mode\":"
    "\"managed\",\"type\":\"null_resource\",\"name\":\"n\","
    "\"provider_name\":\"registry.terraform.io/hashicorp/null\","
    "\"schema_version\":0,\"sensitive_values\":{}}],\"address\":"
    "\"module.w\"},"
    "{\"address\":\"module.x[\\\"a.module.b\\\"]\",\"child_modules\":["
    "{\"resources\":[{\"address\":\"module.x[\\\"a.module.b\\\"].module.y."
    "null_resource.n\",\"mode\":\"managed\",\"type\":\"null_resource\","
    "\"name\":\"n\",\"provider_name\":"
    "\"registry.terraform.io/hashicorp/null\",\"schema_version\":0,"
    "\"sensitive_values\":{}}],\"address\":"
    "\"module.x[\\\"a.module.b\\\"].module.y\"}]}]}},") != NULL);
  /* Read with a wholly unknown result: no "after" at all. */
  T_CHECK(strstr(out, "\"actions\":[\"read\"],\"before\":null,"
                      "\"after_unknown\":true,\"before_sensitive\":false,"
                      "\"after_sensitive\":{}}") != NULL);
  T_CHECK(strstr(out, "\"actions\":[\"forget\"]") != NULL);
  T_CHECK(strstr(out, "\"module_address\":\"module.w\"") != NULL);
  T_CHECK(strstr(out, "\"prior_state\":{\"format_version\":\"1.0\","
                      "\"terraform_version\":\"" CAIRN_VERSION "\","
                      "\"values\":{\"outputs\":{\"o\":") != NULL);
  T_CHECK(strstr(out, "\"configuration\":{\"root_module\":{}},"
                      "\"applyable\":false,\"complete\":false,"
                      "\"errored\":true}\n") != NULL);
}

static void test_refresh_only_drift_keeps_noop(void)
{
  PlChange d = mk_change("null_resource.a", "a", st_nokey(), PL_NOOP);
  d.prev_addr = "null_resource.z";
  d.before = val_object(&A, 0, NULL, NULL);
  d.after = d.before;
  Plan p;
  memset(&p, 0, sizeof p);
  p.drift = &d;
  p.ndrift = 1;
  Buf b;
  buf_init(&b, &A);
  jplan_plan(&b, &p, NULL, NULL, NULL);
  T_CHECK(strstr(buf_str(&b), "resource_drift") == NULL);
  buf_clear(&b);
  p.mode = PL_MODE_REFRESH_ONLY;
  jplan_plan(&b, &p, NULL, NULL, NULL);
  T_CHECK(strstr(buf_str(&b), "\"resource_drift\":[{\"address\":"
                              "\"null_resource.a\",\"previous_address\":"
                              "\"null_resource.z\"") != NULL);
  T_CHECK(strstr(buf_str(&b), "\"after_unknown\":{},\"before_sensitive\""
                              ":{},\"after_sensitive\":{}") != NULL);
}

/* Hostile shapes: deep module nesting and a large flat plan finish and
** stay valid JSON. */
static void test_many_modules(void)
{
  enum { N = 3000 };
  PlChange *cs = ARENA_NEW(&A, PlChange, N);
  Buf mod;
  buf_init(&mod, &A);
  for (int i = 0; i < N; i++) {
    if (i < 200) {
      if (i)
        buf_putc(&mod, '.');
      buf_printf(&mod, "module.m%d", i);
    }
    const char *m = i < 200 ? arena_strdup(&A, buf_str(&mod))
                            : arena_printf(&A, "module.f%d", i);
    cs[i] = mk_change(arena_printf(&A, "%s.null_resource.n", m), "n",
                      st_nokey(), PL_CREATE);
    cs[i].module = m;
    cs[i].after = val_object(&A, 0, NULL, NULL);
  }
  Plan p;
  memset(&p, 0, sizeof p);
  p.changes = cs;
  p.nchanges = N;
  Buf b;
  buf_init(&b, &A);
  jplan_plan(&b, &p, NULL, NULL, NULL);
  check_json_line(buf_str(&b));
  T_CHECK(strstr(buf_str(&b), "\"address\":\"module.f2999\"") != NULL);
}

/* Many nested blocks stay n log n; schema_version comes from the plan. */
static void test_many_blocks(void)
{
  enum { NB = 20000 };
  Buf src;
  buf_init(&src, &A);
  buf_puts(&src, "resource \"null_resource\" \"a\" {\n");
  for (int i = 0; i < NB; i++)
    buf_printf(&src, "  rule { v = \"%d\" }\n", i);
  buf_puts(&src, "}\n");
  CfgTree *m = load_cfg(buf_str(&src));
  T_CHECK(m != NULL);
  if (!m)
    return;
  PlChange cs[3];
  cs[0] = mk_change("null_resource.a", "a", st_nokey(), PL_NOOP);
  cs[0].mode = ST_DATA;
  cs[0].schema_version = 9;
  cs[1] = mk_change("null_resource.a[0]", "a", st_intkey(0), PL_NOOP);
  cs[1].schema_version = 3;
  cs[2] = mk_change("null_resource.ab", "ab", st_nokey(), PL_NOOP);
  cs[2].schema_version = 7;
  Plan p;
  memset(&p, 0, sizeof p);
  p.changes = cs;
  p.nchanges = 3;
  Buf b;
  buf_init(&b, &A);
  jplan_plan(&b, &p, m, schema_of, NULL);
  const char *out = buf_str(&b);
  check_json_line(out);
  int count = 0;
  for (const char *q = out; (q = strstr(q, "{\"v\":{\"constant_value\":"));
       q++)
    count++;
  T_EQ_INT(count, NB);
  T_CHECK(strstr(out, "{\"v\":{\"constant_value\":\"0\"}},{\"v\":"
                      "{\"constant_value\":\"1\"}},") != NULL);
  T_CHECK(strstr(out, "\"schema_version\":3}]") != NULL);
}

/* Module calls carry their modules; provider_config lists the tree's
** configurations keyed as Terraform does, dropping those a module inherits
** or is passed, whose resources name the configuration used instead. */
static void test_configuration_tree(void)
{
  static const char *const children[] = {
    /* m */
    "variable \"in\" {}\n"
    "resource \"random_id\" \"r\" {\n"
    "  byte_length = 2\n"
    "}\n"
    "module \"n\" {\n"
    "  source = \"./n\"\n"
    "}\n",
    /* m/n */
    "resource \"random_id\" \"deep\" {\n"
    "  byte_length = 1\n"
    "}\n"
    "resource \"null_resource\" \"z\" {}\n",
    /* o */
    "provider \"null\" {}\n"
    "resource \"null_resource\" \"o\" {}\n",
    NULL};
  CfgTree *t = load_tree(
      "provider \"random\" {\n"
      "  alias = \"alt\"\n"
      "}\n"
      "module \"a\" {\n"
      "  source = \"./m\"\n"
      "  in = \"x\"\n"
      "  not_a_variable = 1\n"
      "  providers = {\n"
      "    random = random.alt\n"
      "  }\n"
      "}\n"
      "module \"b\" {\n"
      "  source = \"./o\"\n"
      "  for_each = { k = 1 }\n"
      "  depends_on = [module.a]\n"
      "}\n",
      children);
  T_CHECK(t != NULL);
  if (!t)
    return;
  PlChange cs[1];
  cs[0] = mk_change("module.a.module.n.random_id.deep", "deep", st_nokey(),
                    PL_CREATE);
  cs[0].module = "module.a.module.n";
  cs[0].type = "random_id";
  cs[0].schema_version = 4;
  Plan p;
  memset(&p, 0, sizeof p);
  p.arena = &A;
  p.changes = cs;
  p.nchanges = 1;
  Buf b;
  buf_init(&b, &A);
  jplan_plan(&b, &p, t, NULL, NULL);
  const char *s = buf_str(&b);
  check_json_line(s);
  const char *cfg = strstr(s, "\"configuration\":");
  T_CHECK(cfg != NULL);
  if (!cfg)
    return;
  T_EQ_STR(cfg,
    "\"configuration\":{\"provider_config\":{"
    "\"module.a.module.n:null\":{\"name\":\"null\",\"full_name\":"
    "\"registry.terraform.io/hashicorp/null\",\"module_address\":"
    "\"module.a.module.n\"},"
    "\"module.b:null\":{\"name\":\"null\",\"full_name\":"
    "\"registry.terraform.io/hashicorp/null\",\"module_address\":"
    "\"module.b\"},"
    /* the root's requirement (its aliased block) implies the default */
    "\"random\":{\"name\":\"random\",\"full_name\":"
    "\"registry.terraform.io/hashicorp/random\"},"
    "\"random.alt\":{\"name\":\"random\",\"full_name\":"
    "\"registry.terraform.io/hashicorp/random\",\"alias\":\"alt\"}},"
    "\"root_module\":{\"module_calls\":{"
    "\"a\":{\"source\":\"./m\",\"expressions\":{\"in\":{"
    "\"constant_value\":\"x\"}},\"module\":{\"resources\":[{"
    "\"address\":\"random_id.r\",\"mode\":\"managed\",\"type\":"
    "\"random_id\",\"name\":\"r\",\"provider_config_key\":\"random.alt\","
    "\"expressions\":{\"byte_length\":{\"constant_value\":2}},"
    "\"schema_version\":0}],"
    "\"module_calls\":{\"n\":{\"source\":\"./n\",\"module\":{"
    "\"resources\":[{\"address\":\"null_resource.z\",\"mode\":"
    "\"managed\",\"type\":\"null_resource\",\"name\":\"z\","
    "\"provider_config_key\":\"module.a.module.n:null\","
    "\"schema_version\":0},"
    "{\"address\":\"random_id.deep\",\"mode\":\"managed\",\"type\":"
    "\"random_id\",\"name\":\"deep\",\"provider_config_key\":"
    "\"random.alt\",\"expressions\":{\"byte_length\":{"
    "\"constant_value\":1}},\"schema_version\":4}]}}},"
    "\"variables\":{\"in\":{}}}},"
    "\"b\":{\"source\":\"./o\",\"for_each_expression\":{"
    "\"constant_value\":{\"k\":1}},\"module\":{\"resources\":[{"
    "\"address\":\"null_resource.o\",\"mode\":\"managed\",\"type\":"
    "\"null_resource\",\"name\":\"o\",\"provider_config_key\":"
    "\"module.b:null\",\"schema_version\":0}]},\"depends_on\":"
    "[\"module.a\"]}}}},"
    "\"applyable\":false,\"complete\":false,\"errored\":false}\n");
  /* No configuration at all: an empty root module. */
  buf_init(&b, &A);
  jplan_plan(&b, &p, NULL, NULL, NULL);
  T_CHECK(strstr(buf_str(&b), "\"configuration\":{\"root_module\":{}}")
          != NULL);
}

int main(void)
{
  arena_init(&A, 0);
  setup_schema();
  T_RUN(test_state_empty);
  T_RUN(test_state_values);
  T_RUN(test_state_dynamic_attributes_plain);
  T_RUN(test_provider_fqn);
  T_RUN(test_configuration);
  T_RUN(test_configuration_tree);
  T_RUN(test_plan_changes);
  T_RUN(test_plan_order_abs_resource_instance_less);
  T_RUN(test_plan_prior_state_and_modules);
  T_RUN(test_refresh_only_drift_keeps_noop);
  T_RUN(test_many_modules);
  T_RUN(test_many_blocks);
  arena_release(&A);
  return t_done("jsonplan");
}
