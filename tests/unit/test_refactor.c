/* Unit tests for core/engine/refactor: moved and removed blocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"
#include "engine/refactor.h"
#include "state/state.h"
#include "t.h"

#define PROV "provider[\"registry.terraform.io/hashicorp/null\"]"

typedef struct Env {
  Arena a;
  Diags d;
  SrcFiles fs;
  char dir[64];
  CfgTree *t;
  State *s;
  RfMoves mv;
} Env;

static void write_file(const char *dir, const char *rel, const char *text)
{
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  /* Create the subdirectories of rel. */
  for (char *p = path + strlen(dir) + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(path, 0700);
      *p = '/';
    }
  FILE *f = fopen(path, "w");
  if (!f)
    return;
  fputs(text, f);
  fclose(f);
}

/* spec: pairs of (relative path, text), NULL-terminated. */
static void env_init(Env *e, const char *const *spec)
{
  arena_init(&e->a, 0);
  diag_init(&e->d, &e->a);
  diag_files_init(&e->fs, &e->a);
  snprintf(e->dir, sizeof e->dir, "/tmp/cairn_rf_XXXXXX");
  if (!mkdtemp(e->dir))
    e->dir[0] = 0;
  for (size_t i = 0; spec[i]; i += 2)
    write_file(e->dir, spec[i], spec[i + 1]);
  e->t = cfg_load_tree(&e->a, e->dir, &e->fs, &e->d);
  e->s = st_new(&e->a);
  memset(&e->mv, 0, sizeof e->mv);
}

static void rm_tree(const char *dir)
{
  char cmd[160];
  if (strncmp(dir, "/tmp/cairn_rf_", 14) != 0)
    return;
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
}

static void env_done(Env *e)
{
  rm_tree(e->dir);
  arena_release(&e->a);
}

static StObject *add(Env *e, const char *module, const char *type,
                     const char *name, StKey key)
{
  StResource *r = st_ensure_resource(e->s, module, ST_MANAGED, type, name,
                                     PROV);
  StObject *o = st_object_new(e->s);
  st_set_current(e->s, r, key, o);
  return o;
}

static StObject *get(Env *e, const char *module, const char *type,
                     const char *name, StKey key)
{
  StResource *r = st_find_resource(e->s, module, ST_MANAGED, type, name);
  StInstance *i = r ? st_find_instance(e->s, r, key) : NULL;
  return i ? i->current : NULL;
}

static StKey skey(Env *e, const char *s)
{
  return st_strkey(&e->a, s, strlen(s));
}

static int count_summary(const Diags *d, const char *summary)
{
  int n = 0;
  for (const Diag *g = d->head; g; g = g->next)
    n += strcmp(g->summary, summary) == 0;
  return n;
}

static const Diag *find_diag(const Diags *d, const char *summary)
{
  for (const Diag *g = d->head; g; g = g->next)
    if (strcmp(g->summary, summary) == 0)
      return g;
  return NULL;
}

static bool apply(Env *e)
{
  bool ok = rf_apply_moves(&e->a, e->t, e->s, &e->mv, &e->d);
  for (const Diag *g = e->d.head; g; g = g->next)
    if (getenv("RF_DEBUG"))
      fprintf(stderr, "diag: %s: %s\n", g->summary, g->detail);
  return ok;
}

/* ---- moved ---------------------------------------------------------- */

static void test_resource_rename(void)
{
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"b\" {\n  count = 2\n}\n"
      "moved {\n  from = null_resource.a\n  to   = null_resource.b\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  StObject *o0 = add(&e, "", "null_resource", "a", st_intkey(0));
  StObject *o1 = add(&e, "", "null_resource", "a", st_intkey(1));
  T_CHECK(apply(&e));
  T_EQ_INT(e.d.errors + e.d.warnings, 0);
  T_CHECK(get(&e, "", "null_resource", "b", st_intkey(0)) == o0);
  T_CHECK(get(&e, "", "null_resource", "b", st_intkey(1)) == o1);
  T_CHECK(st_find_resource(e.s, "", ST_MANAGED, "null_resource", "a") ==
          NULL);
  T_EQ_INT(e.mv.n, 2);
  T_EQ_STR(rf_prev_addr(&e.mv, "null_resource.b[1]"), "null_resource.a[1]");
  T_CHECK(rf_prev_addr(&e.mv, "null_resource.a[1]") == NULL);
  StResource *r = st_find_resource(e.s, "", ST_MANAGED, "null_resource", "b");
  T_EQ_STR(r ? r->provider : "", PROV);
  env_done(&e);
}

static void test_count_to_for_each(void)
{
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"a\" {\n  for_each = toset([\"x\", "
      "\"y\"])\n}\n"
      "moved {\n  from = null_resource.a[0]\n  to = null_resource.a[\"x\"]\n}\n"
      "moved {\n  from = null_resource.a[1]\n  to = null_resource.a[\"y\"]\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  StObject *o0 = add(&e, "", "null_resource", "a", st_intkey(0));
  StObject *o1 = add(&e, "", "null_resource", "a", st_intkey(1));
  StObject *o2 = add(&e, "", "null_resource", "a", st_intkey(2));
  T_CHECK(apply(&e));
  T_EQ_INT(e.d.errors + e.d.warnings, 0);
  T_CHECK(get(&e, "", "null_resource", "a", skey(&e, "x")) == o0);
  T_CHECK(get(&e, "", "null_resource", "a", skey(&e, "y")) == o1);
  T_CHECK(get(&e, "", "null_resource", "a", st_intkey(2)) == o2);
  T_CHECK(get(&e, "", "null_resource", "a", st_intkey(0)) == NULL);
  T_EQ_INT(e.mv.n, 2);
  T_EQ_STR(rf_prev_addr(&e.mv, "null_resource.a[\"x\"]"),
           "null_resource.a[0]");
  env_done(&e);
}

static void test_no_key_to_count(void)
{
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"a\" {\n  count = 1\n}\n"
      "moved {\n  from = null_resource.a\n  to   = null_resource.a[0]\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  StObject *o = add(&e, "", "null_resource", "a", st_nokey());
  T_CHECK(apply(&e));
  T_EQ_INT(e.d.errors, 0);
  T_CHECK(get(&e, "", "null_resource", "a", st_intkey(0)) == o);
  T_CHECK(get(&e, "", "null_resource", "a", st_nokey()) == NULL);
  T_EQ_STR(rf_prev_addr(&e.mv, "null_resource.a[0]"), "null_resource.a");
  env_done(&e);
}

static void test_module_rename(void)
{
  static const char *const spec[] = {
      "main.tf",
      "module \"new\" {\n  source = \"./m\"\n}\n"
      "moved {\n  from = module.old\n  to   = module.new\n}\n",
      "m/main.tf",
      "resource \"null_resource\" \"a\" {}\n"
      "module \"inner\" {\n  source = \"./i\"\n}\n",
      "m/i/main.tf", "resource \"null_resource\" \"b\" {}\n", NULL};
  Env e;
  env_init(&e, spec);
  T_EQ_INT(e.d.errors, 0);
  StObject *oa = add(&e, "module.old", "null_resource", "a", st_nokey());
  StObject *ob =
      add(&e, "module.old.module.inner", "null_resource", "b", st_nokey());
  StObject *keep = add(&e, "module.older", "null_resource", "a", st_nokey());
  T_CHECK(apply(&e));
  T_EQ_INT(e.d.errors + e.d.warnings, 0);
  T_CHECK(get(&e, "module.new", "null_resource", "a", st_nokey()) == oa);
  T_CHECK(get(&e, "module.new.module.inner", "null_resource", "b",
              st_nokey()) == ob);
  T_CHECK(get(&e, "module.older", "null_resource", "a", st_nokey()) == keep);
  T_CHECK(get(&e, "module.old", "null_resource", "a", st_nokey()) == NULL);
  T_EQ_STR(rf_prev_addr(&e.mv, "module.new.module.inner.null_resource.b"),
           "module.old.module.inner.null_resource.b");
  env_done(&e);
}

static void test_module_call_keys(void)
{
  /* A whole call renamed keeps each instance's key. */
  static const char *const spec[] = {
      "main.tf",
      "module \"b\" {\n  source = \"./m\"\n  count = 2\n}\n"
      "moved {\n  from = module.a\n  to   = module.b\n}\n",
      "m/main.tf", "resource \"null_resource\" \"r\" {}\n", NULL};
  Env e;
  env_init(&e, spec);
  StObject *o0 = add(&e, "module.a[0]", "null_resource", "r", st_nokey());
  StObject *o1 = add(&e, "module.a[1]", "null_resource", "r", st_nokey());
  T_CHECK(apply(&e));
  T_EQ_INT(e.d.errors, 0);
  T_CHECK(get(&e, "module.b[0]", "null_resource", "r", st_nokey()) == o0);
  T_CHECK(get(&e, "module.b[1]", "null_resource", "r", st_nokey()) == o1);
  T_EQ_INT(e.mv.n, 2);
  env_done(&e);
}

static void test_module_instance_move(void)
{
  static const char *const spec[] = {
      "main.tf",
      "module \"net\" {\n  source = \"./m\"\n  for_each = toset([\"a\"])\n}\n"
      "moved {\n  from = module.net[0]\n  to   = module.net[\"a\"]\n}\n",
      "m/main.tf", "resource \"null_resource\" \"r\" {}\n", NULL};
  Env e;
  env_init(&e, spec);
  StObject *o = add(&e, "module.net[0]", "null_resource", "r", st_nokey());
  StObject *other =
      add(&e, "module.net[1]", "null_resource", "r", st_nokey());
  T_CHECK(apply(&e));
  T_EQ_INT(e.d.errors, 0);
  T_CHECK(get(&e, "module.net[\"a\"]", "null_resource", "r", st_nokey()) ==
          o);
  T_CHECK(get(&e, "module.net[1]", "null_resource", "r", st_nokey()) ==
          other);
  T_EQ_STR(rf_prev_addr(&e.mv, "module.net[\"a\"].null_resource.r"),
           "module.net[0].null_resource.r");
  env_done(&e);
}

static void test_moved_in_child_module(void)
{
  /* A block inside module m applies to every instance of m. */
  static const char *const spec[] = {
      "main.tf", "module \"m\" {\n  source = \"./m\"\n  count = 2\n}\n",
      "m/main.tf",
      "resource \"null_resource\" \"b\" {}\n"
      "moved {\n  from = null_resource.a\n  to   = null_resource.b\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  StObject *o0 = add(&e, "module.m[0]", "null_resource", "a", st_nokey());
  StObject *o1 = add(&e, "module.m[1]", "null_resource", "a", st_nokey());
  StObject *root = add(&e, "", "null_resource", "a", st_nokey());
  T_CHECK(apply(&e));
  T_EQ_INT(e.d.errors, 0);
  T_CHECK(get(&e, "module.m[0]", "null_resource", "b", st_nokey()) == o0);
  T_CHECK(get(&e, "module.m[1]", "null_resource", "b", st_nokey()) == o1);
  T_CHECK(get(&e, "", "null_resource", "a", st_nokey()) == root);
  T_EQ_INT(e.mv.n, 2);
  env_done(&e);
}

static void test_chain(void)
{
  /* Declared last-step first: order comes from the dependency graph. */
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"c\" {}\n"
      "moved {\n  from = null_resource.b\n  to   = null_resource.c\n}\n"
      "moved {\n  from = null_resource.a\n  to   = null_resource.b\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  StObject *o = add(&e, "", "null_resource", "a", st_nokey());
  T_CHECK(apply(&e));
  T_EQ_INT(e.d.errors, 0);
  T_CHECK(get(&e, "", "null_resource", "c", st_nokey()) == o);
  T_CHECK(get(&e, "", "null_resource", "b", st_nokey()) == NULL);
  T_EQ_INT(e.mv.n, 1);
  T_EQ_STR(rf_prev_addr(&e.mv, "null_resource.c"), "null_resource.a");
  env_done(&e);
}

static void test_nested_module_and_resource(void)
{
  /* A resource move inside a module that itself moved runs after it. */
  static const char *const spec[] = {
      "main.tf",
      "module \"b\" {\n  source = \"./m\"\n}\n"
      "moved {\n  from = module.b.null_resource.p\n"
      "  to = module.b.null_resource.q\n}\n"
      "moved {\n  from = module.a\n  to   = module.b\n}\n",
      "m/main.tf", "resource \"null_resource\" \"q\" {}\n", NULL};
  Env e;
  env_init(&e, spec);
  StObject *o = add(&e, "module.a", "null_resource", "p", st_nokey());
  T_CHECK(apply(&e));
  T_EQ_INT(e.d.errors, 0);
  T_CHECK(get(&e, "module.b", "null_resource", "q", st_nokey()) == o);
  T_EQ_STR(rf_prev_addr(&e.mv, "module.b.null_resource.q"),
           "module.a.null_resource.p");
  env_done(&e);
}

static void test_cycle(void)
{
  static const char *const spec[] = {
      "main.tf",
      "moved {\n  from = null_resource.a\n  to   = null_resource.b\n}\n"
      "moved {\n  from = null_resource.b\n  to   = null_resource.a\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  StObject *o = add(&e, "", "null_resource", "a", st_nokey());
  T_CHECK(!apply(&e));
  const Diag *g = find_diag(&e.d, "Cyclic dependency in move statements");
  T_CHECK(g != NULL);
  T_CHECK(g && strstr(g->detail, "main.tf:1,1: null_resource.a[*] "
                                 "\xe2\x86\x92 null_resource.b[*]"));
  T_CHECK(g && strstr(g->detail, "main.tf:5,1: null_resource.b[*]"));
  T_CHECK(get(&e, "", "null_resource", "a", st_nokey()) == o);
  T_EQ_INT(e.mv.n, 0);
  env_done(&e);
}

static void test_ambiguous(void)
{
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"b\" {}\n"
      "resource \"null_resource\" \"c\" {}\n"
      "moved {\n  from = null_resource.a\n  to   = null_resource.b\n}\n"
      "moved {\n  from = null_resource.a\n  to   = null_resource.c\n}\n"
      "moved {\n  from = null_resource.d\n  to   = null_resource.c\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  add(&e, "", "null_resource", "a", st_nokey());
  T_CHECK(!apply(&e));
  T_EQ_INT(count_summary(&e.d, "Ambiguous move statements"), 2);
  const Diag *g = find_diag(&e.d, "Ambiguous move statements");
  char want[512];
  snprintf(want, sizeof want,
           "A statement at %s/main.tf:3,1 declared that null_resource.a "
           "moved to null_resource.b, but this statement instead declares "
           "that it moved to null_resource.c.\n\nEach resource can move to "
           "only one destination resource.",
           e.dir);
  T_EQ_STR(g ? g->detail : "", want);
  T_EQ_INT(g ? g->subject.start.line : 0, 7);
  T_CHECK(get(&e, "", "null_resource", "a", st_nokey()) != NULL);
  env_done(&e);
}

static void test_target_exists(void)
{
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"b\" {}\n"
      "moved {\n  from = null_resource.a\n  to   = null_resource.b\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  StObject *oa = add(&e, "", "null_resource", "a", st_nokey());
  StObject *ob = add(&e, "", "null_resource", "b", st_nokey());
  T_CHECK(apply(&e));
  T_EQ_INT(e.d.errors, 0);
  T_EQ_INT(e.d.warnings, 1);
  const Diag *g =
      find_diag(&e.d, "Unresolved resource instance address changes");
  T_CHECK(g && strstr(g->detail, "addresses:\n  - null_resource.a could not "
                                 "move to null_resource.b\n\nTerraform has "
                                 "planned to destroy these objects."));
  T_CHECK(g && g->subject.file == NULL);
  T_CHECK(get(&e, "", "null_resource", "a", st_nokey()) == oa);
  T_CHECK(get(&e, "", "null_resource", "b", st_nokey()) == ob);
  T_EQ_INT(e.mv.n, 0);
  env_done(&e);
}

static void test_instance_target_exists(void)
{
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"a\" {\n  for_each = var.x\n}\n"
      "variable \"x\" {}\n"
      "moved {\n  from = null_resource.a[0]\n  to = null_resource.a[\"k\"]\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  add(&e, "", "null_resource", "a", st_intkey(0));
  add(&e, "", "null_resource", "a", skey(&e, "k"));
  T_CHECK(apply(&e));
  const Diag *g =
      find_diag(&e.d, "Unresolved resource instance address changes");
  T_CHECK(g && strstr(g->detail, "null_resource.a[0] could not move to "
                                 "null_resource.a[\"k\"]"));
  env_done(&e);
}

static void test_still_declared(void)
{
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"a\" {}\n"
      "resource \"null_resource\" \"b\" {}\n"
      "moved {\n  from = null_resource.a\n  to   = null_resource.b\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  StObject *o = add(&e, "", "null_resource", "a", st_nokey());
  T_CHECK(!apply(&e));
  const Diag *g = find_diag(&e.d, "Moved object still exists");
  T_CHECK(g != NULL);
  char want[512];
  snprintf(want, sizeof want,
           "This statement declares a move from null_resource.a, but that "
           "resource is still declared at %s/main.tf:1,1.\n\nChange your "
           "configuration so that this resource will be declared as "
           "null_resource.b instead.",
           e.dir);
  T_EQ_STR(g ? g->detail : "", want);
  T_CHECK(get(&e, "", "null_resource", "a", st_nokey()) == o);
  env_done(&e);
}

static void test_still_declared_instance(void)
{
  /* With a literal count the instance [1] is provably still there; with
  ** for_each an int key never is. */
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"a\" {\n  count = 2\n}\n"
      "resource \"null_resource\" \"f\" {\n  for_each = var.m\n}\n"
      "variable \"m\" {}\n"
      "moved {\n  from = null_resource.a[1]\n  to = null_resource.z[0]\n}\n"
      "moved {\n  from = null_resource.f[0]\n  to = null_resource.f[\"x\"]\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  T_CHECK(!apply(&e));
  T_EQ_INT(count_summary(&e.d, "Moved object still exists"), 1);
  const Diag *g = find_diag(&e.d, "Moved object still exists");
  T_CHECK(g && strstr(g->detail, "null_resource.a[1], but that resource "
                                 "instance is still declared at "));
  T_CHECK(g && strstr(g->detail, "main.tf:2,11."));
  env_done(&e);
}

/* Terraform 1.8+: a managed resource may move to another type (its new
** provider converts the object, engine_move.c); a data source may not,
** and neither may a move between modes. */
static void test_type_mismatch(void)
{
  static const char *const ok_spec[] = {
      "main.tf",
      "resource \"other_thing\" \"a\" {}\n"
      "moved {\n  from = null_resource.a\n  to   = other_thing.a\n}\n",
      NULL};
  Env e;
  env_init(&e, ok_spec);
  T_CHECK(apply(&e));
  T_EQ_INT(count_summary(&e.d, "Resource type mismatch"), 0);
  env_done(&e);
  static const char *const bad_spec[] = {
      "main.tf",
      "data \"other_thing\" \"a\" {}\n"
      "moved {\n  from = data.null_data_source.a\n"
      "  to   = data.other_thing.a\n}\n",
      NULL};
  env_init(&e, bad_spec);
  T_CHECK(!apply(&e));
  const Diag *g = find_diag(&e.d, "Resource type mismatch");
  T_CHECK(g && strstr(g->detail, "This statement declares a move from "
                                 "data.null_data_source.a to "
                                 "data.other_thing.a"));
  env_done(&e);
}

static void test_bad_endpoints(void)
{
  static const char *const spec[] = {
      "main.tf",
      "moved {\n  from = module.a\n  to   = null_resource.a\n}\n"
      "moved {\n  from = null_resource\n  to   = null_resource.a\n}\n"
      "moved {\n  from = null_resource.x\n  to   = null_resource.x\n}\n"
      "moved {\n  from = var.x\n  to   = null_resource.y\n}\n"
      "moved {\n  from = null_resource.q.r\n  to   = null_resource.y\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  T_CHECK(!apply(&e));
  T_EQ_INT(count_summary(&e.d, "Invalid \"moved\" addresses"), 1);
  T_EQ_INT(count_summary(&e.d, "Invalid address"), 3);
  const Diag *g = find_diag(&e.d, "Invalid address");
  T_EQ_STR(g ? g->detail : "",
           "Resource specification must include a resource type and name.");
  env_done(&e);
  /* Redundant statements are found by validation (parse errors stop
  ** before it). */
  static const char *const spec2[] = {
      "main.tf",
      "moved {\n  from = null_resource.x\n  to   = null_resource.x\n}\n",
      NULL};
  env_init(&e, spec2);
  T_CHECK(!apply(&e));
  T_EQ_INT(count_summary(&e.d, "Redundant move statement"), 1);
  env_done(&e);
}

static void test_no_state(void)
{
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"b\" {}\n"
      "moved {\n  from = null_resource.a\n  to   = null_resource.b\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  T_CHECK(rf_apply_moves(&e.a, e.t, NULL, &e.mv, &e.d));
  T_EQ_INT(e.mv.n, 0);
  T_CHECK(rf_prev_addr(&e.mv, "null_resource.b") == NULL);
  env_done(&e);
}

static void test_many_moves(void)
{
  /* 10,000 count -> for_each moves (the benchmark shape). */
  enum { N = 10000 };
  Arena scratch;
  arena_init(&scratch, 0);
  Buf b;
  buf_init(&b, &scratch);
  buf_puts(&b, "variable \"keys\" {}\n"
               "resource \"null_resource\" \"x\" {\n"
               "  for_each = var.keys\n}\n");
  for (int i = 0; i < N; i++)
    buf_printf(&b,
               "moved {\n  from = null_resource.x[%d]\n"
               "  to   = null_resource.x[\"a%d\"]\n}\n",
               i, i);
  const char *spec[] = {"main.tf", buf_str(&b), NULL};
  Env e;
  env_init(&e, spec);
  T_EQ_INT(e.d.errors, 0);
  for (int i = 0; i < N; i++)
    add(&e, "", "null_resource", "x", st_intkey(i));
  struct timespec t0, t1;
  size_t used0 = e.a.used;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
  T_CHECK(apply(&e));
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
  double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
              (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  fprintf(stderr, "test_many_moves: %d moves applied in %.1f ms CPU, %zu KiB\n", N, ms, (e.a.used - used0) / 1024);
  T_EQ_INT(e.d.errors + e.d.warnings, 0);
  T_EQ_INT(e.mv.n, N);
  StResource *r = st_find_resource(e.s, "", ST_MANAGED, "null_resource", "x");
  T_EQ_INT(r ? r->ninst : 0, N);
  T_CHECK(get(&e, "", "null_resource", "x", skey(&e, "a9999")) != NULL);
  T_CHECK(get(&e, "", "null_resource", "x", st_intkey(5)) == NULL);
  T_EQ_STR(rf_prev_addr(&e.mv, "null_resource.x[\"a4242\"]"),
           "null_resource.x[4242]");
  env_done(&e);
  arena_release(&scratch);
}

/* ---- removed ---------------------------------------------------------- */

static void test_removed_still_declared(void)
{
  static const char *const spec[] = {
      "main.tf",
      "resource \"null_resource\" \"a\" {}\n"
      "module \"m\" {\n  source = \"./m\"\n}\n"
      "removed {\n  from = null_resource.a\n}\n"
      "removed {\n  from = module.m\n}\n"
      "removed {\n  from = module.m.null_resource.in\n}\n"
      "removed {\n  from = null_resource.gone\n}\n",
      "m/main.tf", "resource \"null_resource\" \"in\" {}\n", NULL};
  Env e;
  env_init(&e, spec);
  T_CHECK(!rf_check_removed(&e.a, e.t, &e.d));
  T_EQ_INT(count_summary(&e.d, "Removed resource still exists"), 2);
  T_EQ_INT(count_summary(&e.d, "Removed module still exists"), 1);
  const Diag *g = find_diag(&e.d, "Removed module still exists");
  T_EQ_STR(g ? g->detail : "",
           "This statement declares that module.m was removed, but it is "
           "still declared in configuration.");
  T_EQ_INT(g ? g->subject.start.line : 0, 2);
  int n = 0;
  for (const Diag *x = e.d.head; x; x = x->next)
    if (strcmp(x->summary, "Removed resource still exists") == 0 &&
        strstr(x->detail, "module.m.null_resource.in was removed"))
      n++;
  T_EQ_INT(n, 1);
  env_done(&e);
}

static void test_removed_keys(void)
{
  static const char *const spec[] = {
      "main.tf",
      "removed {\n  from = null_resource.a[0]\n}\n"
      "removed {\n  from = module.m[0].null_resource.a\n}\n"
      "removed {\n  from = data.null_data_source.d\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  T_CHECK(!rf_check_removed(&e.a, e.t, &e.d));
  T_EQ_INT(count_summary(&e.d, "Resource instance keys not allowed"), 1);
  T_EQ_INT(count_summary(&e.d, "Module instance keys not allowed"), 1);
  T_EQ_INT(count_summary(&e.d, "Data source address not allowed"), 1);
  const Diag *g = find_diag(&e.d, "Resource instance keys not allowed");
  T_EQ_INT(g ? g->subject.start.col : 0, 25);
  /* Invalid blocks cover nothing. */
  T_CHECK(rf_removed_for(e.t, "", ST_MANAGED, "null_resource", "a") == NULL);
  env_done(&e);
}

static void test_removed_lookup(void)
{
  static const char *const spec[] = {
      "main.tf",
      "module \"m\" {\n  source = \"./m\"\n  count = 2\n}\n"
      "removed {\n  from = null_resource.gone\n}\n"
      "removed {\n  from = module.old\n  lifecycle {\n    destroy = false\n"
      "  }\n}\n"
      "removed {\n  from = module.old.module.deep\n}\n",
      "m/main.tf",
      "removed {\n  from = null_resource.x\n  lifecycle {\n    destroy = "
      "false\n  }\n}\n",
      NULL};
  Env e;
  env_init(&e, spec);
  T_EQ_INT(e.d.errors, 0);
  T_CHECK(rf_check_removed(&e.a, e.t, &e.d));
  const CfgRemoved *r =
      rf_removed_for(e.t, "", ST_MANAGED, "null_resource", "gone");
  T_CHECK(r && r->destroy);
  r = rf_removed_for(e.t, "module.m[1]", ST_MANAGED, "null_resource", "x");
  T_CHECK(r && !r->destroy);
  T_CHECK(rf_removed_for(e.t, "", ST_MANAGED, "null_resource", "x") == NULL);
  T_CHECK(rf_removed_for(e.t, "module.m[0]", ST_DATA, "null_resource",
                         "x") == NULL);
  r = rf_removed_for(e.t, "module.old[\"k\"]", ST_MANAGED, "null_resource",
                     "y");
  T_CHECK(r && !r->destroy);
  /* The deeper module block wins. */
  r = rf_removed_for(e.t, "module.old.module.deep[3]", ST_MANAGED,
                     "null_resource", "y");
  T_CHECK(r && r->destroy);
  T_CHECK(rf_removed_for(e.t, "module.older", ST_MANAGED, "null_resource",
                         "y") == NULL);
  env_done(&e);
}

int main(void)
{
  T_RUN(test_resource_rename);
  T_RUN(test_count_to_for_each);
  T_RUN(test_no_key_to_count);
  T_RUN(test_module_rename);
  T_RUN(test_module_call_keys);
  T_RUN(test_module_instance_move);
  T_RUN(test_moved_in_child_module);
  T_RUN(test_chain);
  T_RUN(test_nested_module_and_resource);
  T_RUN(test_cycle);
  T_RUN(test_ambiguous);
  T_RUN(test_target_exists);
  T_RUN(test_instance_target_exists);
  T_RUN(test_still_declared);
  T_RUN(test_still_declared_instance);
  T_RUN(test_type_mismatch);
  T_RUN(test_bad_endpoints);
  T_RUN(test_no_state);
  T_RUN(test_many_moves);
  T_RUN(test_removed_still_declared);
  T_RUN(test_removed_keys);
  T_RUN(test_removed_lookup);
  return t_done("test_refactor");
}
