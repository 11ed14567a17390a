/*
** test_validate: vld_module on small modules written to a temporary
** directory, with a hand-written schema callback.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"
#include "config/validate.h"
#include "providers/provider.h"
#include "t.h"

static const ProvAttrSchema blk_attrs[] = {
    {"port", &ty_number, NULL, PROV_REQUIRED, NULL, NULL},
};
static const ProvBlockSchema blk = {blk_attrs, 1, NULL, 0, NULL, false, NULL};

static const ProvAttrSchema thing_attrs[] = {
    {"name", &ty_string, NULL, PROV_REQUIRED, NULL, NULL},
    {"size", &ty_number, NULL, PROV_OPTIONAL, NULL, NULL},
    {"tags", NULL, NULL, PROV_OPTIONAL, NULL, NULL},
    {"id", &ty_string, NULL, PROV_COMPUTED, NULL, NULL},
};
static const ProvNestedBlock thing_blocks[] = {
    {"rule", PROV_NEST_LIST, &blk, 0, 0},
};
static const ProvBlockSchema thing = {thing_attrs, 4, thing_blocks, 1, NULL,
                                      false, NULL};

static const ProvAttrSchema data_attrs[] = {
    {"input", &ty_string, NULL, PROV_OPTIONAL, NULL, NULL},
    {"result", &ty_string, NULL, PROV_COMPUTED, NULL, NULL},
};
static const ProvBlockSchema data = {data_attrs, 2, NULL, 0, NULL, false,
                                     NULL};

static const ProvBlockSchema *schema_of(void *ctx, CfgMode mode,
                                        const CfgResource *r)
{
  (void)ctx;
  if (strncmp(r->type, "remote_", 7) == 0)
    return VLD_SCHEMA_SKIP;
  if (mode == CFG_MANAGED && strcmp(r->type, "test_thing") == 0)
    return &thing;
  if (mode == CFG_DATA && strcmp(r->type, "test_data") == 0)
    return &data;
  return NULL;
}

static void types_of(void *ctx, CfgMode mode, const CfgResource *r,
                     const char *const **names, uint32_t *n)
{
  static const char *const managed[] = {"test_thing"};
  static const char *const ds[] = {"test_data"};
  (void)ctx;
  (void)r;
  *names = mode == CFG_MANAGED ? managed : ds;
  *n = 1;
}

typedef struct Fx {
  Arena a;
  Diags d;
  SrcFiles files;
  char dir[64];
  bool ok;
} Fx;

static void fx_run(Fx *f, const char *src)
{
  arena_init(&f->a, 0);
  diag_init(&f->d, &f->a);
  diag_files_init(&f->files, &f->a);
  snprintf(f->dir, sizeof f->dir, "/tmp/cairn-vld-XXXXXX");
  T_CHECK(mkdtemp(f->dir) != NULL);
  char path[128];
  snprintf(path, sizeof path, "%s/main.tf", f->dir);
  FILE *fp = fopen(path, "w");
  T_CHECK(fp != NULL);
  if (fp) {
    fputs(src, fp);
    fclose(fp);
  }
  CfgModule *m = cfg_load_dir(&f->a, f->dir, &f->files, &f->d);
  T_EQ_INT(f->d.errors, 0);
  /* the loader's diagnostics are not what is tested here */
  diag_init(&f->d, &f->a);
  f->ok = vld_module_ex(&f->a, m, schema_of, types_of, NULL, &f->d);
  unlink(path);
  rmdir(f->dir);
}

static void fx_done(Fx *f) { arena_release(&f->a); }

static const Diag *find(Fx *f, const char *summary)
{
  for (const Diag *g = f->d.head; g; g = g->next)
    if (strcmp(g->summary, summary) == 0)
      return g;
  return NULL;
}

static void test_valid(void)
{
  Fx f;
  fx_run(&f,
         "variable \"n\" {\n  type = number\n}\n"
         "locals {\n  x = var.n + 1\n}\n"
         "resource \"test_thing\" \"a\" {\n"
         "  count = var.n\n"
         "  name  = \"a-${count.index}\"\n"
         "  size  = local.x\n"
         "  rule {\n    port = 1\n  }\n"
         "  lifecycle {\n    postcondition {\n"
         "      condition = self.id != \"\"\n"
         "      error_message = \"x\"\n    }\n  }\n"
         "}\n"
         "resource \"test_thing\" \"b\" {\n"
         "  for_each = toset([\"p\"])\n"
         "  name = test_thing.a[0].id\n"
         "  size = length(each.key)\n"
         "  depends_on = [test_thing.a, data.test_data.d]\n"
         "}\n"
         "data \"test_data\" \"d\" {\n  input = path.module\n}\n"
         "resource \"remote_x\" \"r\" {\n  anything = var.n\n}\n"
         "output \"o\" {\n  value = data.test_data.d.result\n}\n");
  T_CHECK(f.ok);
  T_EQ_INT(f.d.errors, 0);
  for (const Diag *g = f.d.head; g; g = g->next)
    fprintf(stderr, "unexpected: %s: %s\n", g->summary, g->detail);
  fx_done(&f);
}

static void test_undeclared(void)
{
  Fx f;
  fx_run(&f,
         "variable \"name\" {}\n"
         "locals {\n  a = var.nme\n  b = local.aa\n  c = var.zzz\n}\n"
         "output \"o\" {\n  value = module.m.out\n}\n"
         "output \"p\" {\n  value = test_thing.nope.id\n}\n");
  T_CHECK(!f.ok);
  T_EQ_INT(f.d.errors, 5);
  const Diag *g = find(&f, "Reference to undeclared input variable");
  if (g) {
    T_EQ_STR(g->detail, "An input variable with the name \"nme\" has not "
                        "been declared. Did you mean \"name\"?");
    T_EQ_INT(g->subject.start.line, 3);
    T_EQ_INT(g->subject.start.col, 7);
    T_EQ_INT(g->subject.end.col, 14);
  } else {
    T_CHECK(0);
  }
  bool saw_block_hint = false;
  for (const Diag *d = f.d.head; d; d = d->next)
    if (strstr(d->detail, "This variable can be declared with a variable "
                          "\"zzz\" {} block."))
      saw_block_hint = true;
  T_CHECK(saw_block_hint);
  g = find(&f, "Reference to undeclared local value");
  T_CHECK(g != NULL);
  if (g)
    T_EQ_STR(g->detail, "A local value with the name \"aa\" has not been "
                        "declared. Did you mean \"a\"?");
  g = find(&f, "Reference to undeclared module");
  T_CHECK(g != NULL);
  if (g)
    T_EQ_STR(g->detail, "No module call named \"m\" is declared in the root "
                        "module.");
  g = find(&f, "Reference to undeclared resource");
  T_CHECK(g != NULL);
  if (g)
    T_EQ_STR(g->detail, "A managed resource \"test_thing\" \"nope\" has not "
                        "been declared in the root module.");
  fx_done(&f);
}

static void test_count_each_self(void)
{
  Fx f;
  fx_run(&f,
         "resource \"test_thing\" \"a\" {\n"
         "  name = \"${count.index}-${each.key}\"\n"
         "}\n"
         "locals {\n  s = self.id\n}\n");
  T_EQ_INT(f.d.errors, 3);
  const Diag *g = find(&f, "Reference to \"count\" in non-counted context");
  T_CHECK(g != NULL);
  if (g)
    T_EQ_STR(g->detail, "The \"count\" object can only be used in "
                        "\"module\", \"resource\", and \"data\" blocks, and "
                        "only when the \"count\" argument is set.");
  g = find(&f, "Reference to \"each\" in context without for_each");
  T_CHECK(g != NULL);
  g = find(&f, "Invalid \"self\" reference");
  T_CHECK(g != NULL);
  if (g)
    T_EQ_INT(g->subject.start.line, 5);
  fx_done(&f);
}

/* Terraform evaluates a dynamic block's content once per for_each
** element: with for_each = [] there is no content, and with an unknown
** for_each HCL's unknownBody replaces every attribute by an unknown
** without evaluating it, so a reference valid only elsewhere (each.value
** in a resource without for_each) is no error in either; with a known
** element it is evaluated and reported, as outside dynamic blocks. */
static void test_dynamic_content_checked_when_evaluated(void)
{
  Fx f;
  fx_run(&f,
         "variable \"ports\" {\n  type = list(number)\n}\n"
         "resource \"test_thing\" \"a\" {\n"
         "  name = \"a\"\n"
         "  dynamic \"rule\" {\n"
         "    for_each = []\n"
         "    content {\n      port = each.value\n    }\n"
         "  }\n"
         "  dynamic \"rule\" {\n"
         "    for_each = var.ports\n"
         "    content {\n      port = rule.value\n    }\n"
         "  }\n"
         "}\n");
  for (const Diag *g = f.d.head; g; g = g->next)
    fprintf(stderr, "diag: %s: %s\n", g->summary, g->detail);
  T_EQ_INT(f.d.errors, 0);
  fx_done(&f);
  fx_run(&f,
         "variable \"ports\" {\n  type = list(number)\n}\n"
         "resource \"test_thing\" \"a\" {\n"
         "  name = \"a\"\n"
         "  dynamic \"rule\" {\n"
         "    for_each = [1]\n"
         "    content {\n      port = each.value\n    }\n"
         "  }\n"
         "  dynamic \"rule\" {\n"
         "    for_each = var.ports\n"
         "    content {\n      port = each.value\n    }\n"
         "  }\n"
         "}\n");
  T_EQ_INT(f.d.errors, 1);
  const Diag *g = find(&f, "Reference to \"each\" in context without "
                           "for_each");
  T_CHECK(g != NULL);
  if (g)
    T_EQ_INT(g->subject.start.line, 9);
  fx_done(&f);
}

static void test_schema_errors(void)
{
  Fx f;
  fx_run(&f,
         "variable \"v\" {\n  type = list(string)\n}\n"
         "resource \"test_thng\" \"a\" {\n}\n"
         "resource \"test_data\" \"b\" {\n}\n"
         "resource \"test_thing\" \"c\" {\n"
         "  nam  = \"x\"\n"
         "  size = \"big\"\n"
         "  rule {\n  }\n"
         "}\n"
         "resource \"test_thing\" \"d\" {\n"
         "  name = var.v\n"
         "}\n"
         "output \"o\" {\n  value = test_thing.d.nmae\n}\n");
  const Diag *g = find(&f, "Invalid resource type");
  T_CHECK(g != NULL);
  if (g) {
    T_EQ_STR(g->detail, "The provider hashicorp/test does not support "
                        "resource type \"test_thng\". Did you mean "
                        "\"test_thing\"?");
    T_EQ_INT(g->subject.start.line, 4);
    T_EQ_INT(g->subject.start.col, 10);
  }
  bool saw_data_hint = false;
  for (const Diag *d = f.d.head; d; d = d->next)
    if (strstr(d->detail, "Did you intend to use the data source "
                          "\"test_data\"?"))
      saw_data_hint = true;
  T_CHECK(saw_data_hint);
  T_CHECK(find(&f, "Unsupported argument") != NULL);
  T_CHECK(find(&f, "Missing required argument") != NULL);
  g = find(&f, "Incorrect attribute value type");
  T_CHECK(g != NULL);
  /* var.v is an unknown list(string): wrong for a string argument */
  int n = 0;
  for (const Diag *d = f.d.head; d; d = d->next)
    if (strcmp(d->summary, "Incorrect attribute value type") == 0)
      n++;
  T_EQ_INT(n, 2);
  g = find(&f, "Unsupported attribute");
  T_CHECK(g != NULL);
  if (g)
    T_EQ_STR(g->detail, "This object has no argument, nested block, or "
                        "exported attribute named \"nmae\". Did you mean "
                        "\"name\"?");
  fx_done(&f);
}

static void test_instance_keys_depends_on(void)
{
  Fx f;
  fx_run(&f,
         "resource \"test_thing\" \"a\" {\n  count = 2\n  name = \"a\"\n}\n"
         "resource \"test_thing\" \"b\" {\n  name = test_thing.a.id\n"
         "  depends_on = [test_thing.a.id]\n}\n"
         "resource \"test_thing\" \"c\" {\n  name = test_thing.b[0].id\n}\n");
  const Diag *g = find(&f, "Missing resource instance key");
  T_CHECK(g != NULL);
  if (g)
    T_EQ_STR(g->detail, "Because test_thing.a has \"count\" set, its "
                        "attributes must be accessed on specific instances."
                        "\n\nFor example, to correlate with indices of a "
                        "referring resource, use:\n    "
                        "test_thing.a[count.index]");
  T_CHECK(find(&f, "Invalid depends_on reference") != NULL);
  T_CHECK(find(&f, "Unexpected resource instance key") != NULL);
  T_EQ_INT(f.d.errors, 3);
  fx_done(&f);
}

static void test_json_render(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  SrcFiles fs;
  diag_files_init(&fs, &a);
  Buf b;
  buf_init(&b, &a);
  vld_render_json(&b, &d, &fs);
  T_EQ_STR(buf_str(&b), "{\n  \"format_version\": \"1.0\",\n  \"valid\": "
                        "true,\n  \"error_count\": 0,\n  \"warning_count\": "
                        "0,\n  \"diagnostics\": []\n}");
  diag_error(&d, NULL, "Bad", "Very bad.");
  buf_clear(&b);
  vld_render_json(&b, &d, &fs);
  T_CHECK(strstr(buf_str(&b), "\"valid\": false") != NULL);
  T_CHECK(strstr(buf_str(&b), "\"error_count\": 1") != NULL);
  T_CHECK(strstr(buf_str(&b), "      \"severity\": \"error\"") != NULL);
  T_CHECK(strstr(buf_str(&b), "\"summary\": \"Bad\"") != NULL);
  arena_release(&a);
}

static void test_sort(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  SrcRange r1 = {"b.tf", {1, 1, 0}, {1, 2, 1}};
  SrcRange r2 = {"a.tf", {3, 1, 40}, {3, 2, 41}};
  SrcRange r3 = {"a.tf", {1, 1, 5}, {1, 2, 6}};
  SrcRange r4 = {"m/a.tf", {1, 1, 0}, {1, 2, 1}};
  diag_error(&d, &r4, "4", NULL);
  diag_error(&d, &r1, "3", NULL);
  diag_error(&d, &r2, "2", NULL);
  diag_error(&d, NULL, "0", NULL);
  diag_error(&d, &r3, "1", NULL);
  diag_warning(&d, &r1, "w", NULL);
  vld_sort_diags(&d);
  Buf b;
  buf_init(&b, &a);
  for (const Diag *g = d.head; g; g = g->next)
    buf_puts(&b, g->summary);
  T_EQ_STR(buf_str(&b), "w01234");
  T_EQ_STR(d.tail->summary, "4");
  T_CHECK(d.tail->next == NULL);
  arena_release(&a);
}


/* ---- cycles, module trees -------------------------------------------------- */

static void test_cycles(void)
{
  Fx f;
  fx_run(&f,
         "locals {\n  a = local.b\n  b = upper(local.a)\n  self = 1\n}\n"
         "resource \"test_thing\" \"x\" {\n  name = test_thing.y.id\n}\n"
         "resource \"test_thing\" \"y\" {\n  name = \"y\"\n"
         "  depends_on = [output.nope, test_thing.x]\n}\n"
         "resource \"remote_z\" \"z\" {\n  v = remote_z.z.id\n}\n"
         "output \"o\" {\n  value = local.a\n}\n"
         "output \"undeclared\" {\n  value = var.missing\n}\n");
  T_CHECK(!f.ok);
  /* only the cycles: Terraform stops at the graph */
  T_EQ_INT(f.d.errors, 2);
  T_CHECK(find(&f, "Cycle: local.a, local.b") != NULL);
  T_CHECK(find(&f, "Cycle: test_thing.x, test_thing.y") != NULL);
  T_CHECK(find(&f, "Reference to undeclared input variable") == NULL);
  fx_done(&f);

  /* through a module call's depends_on and an unavailable provider's body */
  fx_run(&f,
         "module \"m\" {\n  source = \"./m\"\n"
         "  depends_on = [remote_r.r]\n}\n"
         "resource \"remote_r\" \"r\" {\n  nested {\n"
         "    v = module.m.out\n  }\n}\n");
  T_EQ_INT(f.d.errors, 1);
  T_CHECK(find(&f, "Cycle: remote_r.r, module.m") != NULL);
  fx_done(&f);

  /* a self-reference is no cycle; lifecycle paths are not references */
  fx_run(&f,
         "resource \"remote_q\" \"q\" {\n  v = 1\n"
         "  lifecycle {\n    ignore_changes = [tags]\n  }\n}\n"
         "locals {\n  l = [for x in [1] : x]\n}\n");
  T_CHECK(f.ok);
  T_EQ_INT(f.d.errors, 0);
  fx_done(&f);
}

static void write_file(const char *dir, const char *name, const char *text)
{
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "w");
  T_CHECK(fp != NULL);
  if (fp) {
    fputs(text, fp);
    fclose(fp);
  }
}

static int entered;

static void enter(void *ctx, const CfgTree *t)
{
  (void)ctx;
  (void)t;
  entered++;
}

static void test_tree(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  SrcFiles files;
  diag_files_init(&files, &a);
  char dir[64];
  snprintf(dir, sizeof dir, "/tmp/cairn-vldt-XXXXXX");
  T_CHECK(mkdtemp(dir) != NULL);
  char sub[96];
  snprintf(sub, sizeof sub, "%s/child", dir);
  T_CHECK(mkdir(sub, 0700) == 0);
  write_file(dir, "main.tf",
             "module \"c\" {\n  source = \"./child\"\n  nam = \"x\"\n}\n"
             "module \"k\" {\n  source = \"./child\"\n  count = 2\n"
             "  name = \"y\"\n}\n"
             "output \"a\" {\n  value = module.c.nope\n}\n"
             "output \"b\" {\n  value = module.c.id\n}\n"
             "output \"c\" {\n  value = module.k[0].id\n}\n"
             "output \"d\" {\n  value = module.k[1].bad\n}\n");
  write_file(sub, "main.tf",
             "variable \"name\" {\n  type = string\n}\n"
             "variable \"opt\" {\n  default = 1\n}\n"
             "locals {\n  p = local.q\n  q = local.p\n}\n"
             "output \"id\" {\n  value = var.name\n}\n");
  CfgTree *t = cfg_load_tree(&a, dir, &files, &d);
  T_EQ_INT(d.errors, 0);
  entered = 0;
  bool ok = vld_tree(&a, t, schema_of, types_of, enter, NULL, &d);
  T_CHECK(!ok);
  /* the child's cycle, once per call, named with the module path */
  T_EQ_INT(d.errors, 2);
  const Diag *g = d.head;
  T_CHECK(g && strcmp(g->summary, "Cycle: module.c.local.p, "
                                  "module.c.local.q") == 0);
  T_CHECK(g && g->next && strcmp(g->next->summary,
                                  "Cycle: module.k.local.p, "
                                  "module.k.local.q") == 0);
  T_EQ_INT(entered, 3);

  /* without the cycle: calls and outputs are checked */
  write_file(sub, "main.tf",
             "variable \"name\" {\n  type = string\n}\n"
             "variable \"opt\" {\n  default = 1\n}\n"
             "output \"id\" {\n  value = var.nme\n}\n");
  diag_init(&d, &a);
  t = cfg_load_tree(&a, dir, &files, &d);
  T_EQ_INT(d.errors, 0);
  ok = vld_tree(&a, t, schema_of, types_of, NULL, NULL, &d);
  T_CHECK(!ok);
  int missing = 0, unsupported = 0, attr = 0, undeclared = 0;
  for (g = d.head; g; g = g->next) {
    if (strcmp(g->summary, "Missing required argument") == 0) {
      missing++;
      T_EQ_STR(g->detail, "The argument \"name\" is required, but no "
                          "definition was found.");
    } else if (strcmp(g->summary, "Unsupported argument") == 0) {
      unsupported++;
      T_EQ_STR(g->detail, "An argument named \"nam\" is not expected "
                          "here. Did you mean \"name\"?");
    } else if (strcmp(g->summary, "Unsupported attribute") == 0) {
      attr++;
      T_CHECK(strstr(g->detail, "\"nope\"") || strstr(g->detail, "\"bad\""));
    } else if (strcmp(g->summary,
                      "Reference to undeclared input variable") == 0) {
      undeclared++;
    }
  }
  T_EQ_INT(missing, 1);
  T_EQ_INT(unsupported, 1);
  T_EQ_INT(attr, 2);
  T_EQ_INT(undeclared, 2);   /* in each of the two calls of the child */
  T_EQ_INT(d.errors, 6);

  char path[256];
  snprintf(path, sizeof path, "%s/main.tf", sub);
  unlink(path);
  rmdir(sub);
  snprintf(path, sizeof path, "%s/main.tf", dir);
  unlink(path);
  rmdir(dir);
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_sort);
  T_RUN(test_valid);
  T_RUN(test_undeclared);
  T_RUN(test_count_each_self);
  T_RUN(test_dynamic_content_checked_when_evaluated);
  T_RUN(test_schema_errors);
  T_RUN(test_instance_keys_depends_on);
  T_RUN(test_json_render);
  T_RUN(test_cycles);
  T_RUN(test_tree);
  return t_done("test_validate");
}
