/* Unit tests for core/config/config: decoding a module directory. */
#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"
#include "t.h"

static int count_summary(const Diags *d, const char *summary)
{
  int n = 0;
  for (const Diag *g = d->head; g; g = g->next)
    n += strcmp(g->summary, summary) == 0;
  return n;
}

/* Loads dir into a fresh arena a: diagnostics into d, sources into fs. */
static CfgModule *load(Arena *a, Diags *d, SrcFiles *fs, const char *dir)
{
  arena_init(a, 0);
  diag_init(d, a);
  diag_files_init(fs, a);
  return cfg_load_dir(a, dir, fs, d);
}

/* Override files as Terraform merges them (configs/module_merge.go,
** module_merge_body.go): attributes replaced one by one, nested blocks
** of a type replaced as a group (dynamic ones included), lifecycle
** settings only where set, provisioners replaced, locals and
** required_version lists replaced, required_providers per provider; an
** overridden type re-checks the default, depends_on cannot be
** overridden. */
static void test_override_files(void)
{
  Arena a;
  Diags d;
  SrcFiles fs;
  CfgModule *m = load(&a, &d, &fs, "tests/config/override");
  T_EQ_INT(m->nfiles, 3);
  T_EQ_INT(count_summary(&d, "Unsupported override"), 1);
  T_EQ_INT(count_summary(&d, "Invalid default value for variable"), 1);
  T_EQ_INT(count_summary(&d, "Unsupported Terraform Core version"), 0);
  T_EQ_INT(d.errors, 2);
  for (const Diag *g = d.head; g; g = g->next)
    if (strcmp(g->summary, "Invalid default value for variable") == 0)
      T_CHECK(strncmp(g->detail, "Overriding this variable's type "
                      "constraint has made its default value invalid: ",
                      60) == 0);
  T_EQ_INT(m->nrequired_versions, 1);
  T_EQ_STR(m->required_versions[0], ">= 1.0");
  T_EQ_STR(cfg_provider_source(m, "thing"), "acme/thing2");
  T_CHECK(m->required_providers[0].version == NULL);
  const CfgLocal *l = cfg_local(m, "greeting");
  T_CHECK(l && l->expr->range.file && strstr(l->expr->range.file,
                                             "override.tf"));
  const CfgOutput *o = cfg_output(m, "o");
  T_CHECK(o && o->sensitive && o->expr);
  T_EQ_STR(o ? o->description : "", "kept");
  const CfgResource *r = cfg_resource(m, CFG_MANAGED, "thing_x", "a");
  T_CHECK(r != NULL);
  if (!r) {
    arena_release(&a);
    return;
  }
  T_CHECK(r->create_before_destroy && r->create_before_destroy_set);
  T_CHECK(!r->prevent_destroy && r->prevent_destroy_set);
  T_EQ_INT(r->nprovisioners, 1);
  const HclBody *b = r->body;
  T_CHECK(hcl_body_attr(b, "keep") != NULL);
  const HclAttribute *sw = hcl_body_attr(b, "swap");
  T_CHECK(sw && strstr(sw->range.file, "override.tf"));
  /* every rule block, the dynamic one too, gave way to the override's
  ** one; other stayed */
  int rules = 0, others = 0, dyn = 0;
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const HclBlock *blk = b->blocks[i];
    rules += strcmp(blk->type, "rule") == 0;
    others += strcmp(blk->type, "other") == 0;
    dyn += strcmp(blk->type, "dynamic") == 0;
  }
  T_EQ_INT(rules, 1);
  T_EQ_INT(others, 1);
  T_EQ_INT(dyn, 0);
  arena_release(&a);
}

static void test_basic_module(void)
{
  Arena a;
  Diags d;
  SrcFiles fs;
  CfgModule *m = load(&a, &d, &fs, "tests/config/basic");
  for (const Diag *g = d.head; g; g = g->next)
    fprintf(stderr, "diag: %s: %s\n", g->summary, g->detail);
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(m->nfiles, 2);
  T_EQ_INT(m->nrequired_versions, 1);
  T_EQ_INT(m->nrequired_providers, 1);
  T_EQ_STR(m->required_providers[0].source, "acme.example/fleet/edge");
  T_EQ_STR(m->required_providers[0].version, "~> 1.0");
  T_EQ_STR(cfg_provider_source(m, "edge"), "acme.example/fleet/edge");
  T_EQ_INT(m->nproviders, 1);
  T_EQ_STR(m->providers[0].alias, "west");
  const CfgVariable *v = cfg_variable(m, "name");
  T_CHECK(v && v->has_default && v->type == &ty_string);
  T_EQ_STR(v ? v->default_val.u.s : "", "demo");
  T_EQ_INT(v ? v->validations.n : 0, 1);
  const CfgVariable *tags = cfg_variable(m, "tags");
  T_CHECK(tags && !tags->has_default && tags->type->kind == TY_MAP);
  const CfgVariable *n = cfg_variable(m, "n");   /* from the .tf.json file */
  T_CHECK(n && n->has_default && n->default_val.type->kind == TY_NUMBER);
  T_CHECK(cfg_local(m, "greeting") != NULL);
  const CfgResource *r = cfg_resource(m, CFG_MANAGED, "null_resource", "a");
  T_CHECK(r && r->count && !r->for_each);
  T_CHECK(r && r->create_before_destroy && r->create_before_destroy_set);
  T_EQ_INT(r ? r->ignore_changes.n : 0, 1);
  T_EQ_INT(r ? r->nprovisioners : 0, 1);
  T_CHECK(r && r->provisioners[0].when_destroy);
  T_EQ_STR(r ? cfg_resource_provider_name(r) : "", "null");
  const CfgResource *f = cfg_resource(m, CFG_DATA, "local_file", "f");
  T_EQ_INT(f ? f->depends_on.n : 0, 1);
  T_CHECK(cfg_resource(m, CFG_MANAGED, "terraform_data", "j") != NULL);
  const CfgModuleCall *mc = cfg_call(m, "net");
  T_EQ_STR(mc ? mc->source : "", "./net");
  T_EQ_INT(mc ? mc->nproviders : 0, 1);
  const CfgOutput *o = cfg_output(m, "greeting");
  T_CHECK(o && o->sensitive && o->expr);
  T_EQ_INT(m->nmoved, 1);
  T_EQ_INT(m->nremoved, 1);
  T_CHECK(m->nremoved == 1 && !m->removed[0].destroy);
  arena_release(&a);
}

static void test_errors(void)
{
  Arena a;
  Diags d;
  SrcFiles fs;
  (void)load(&a, &d, &fs, "tests/config/errors");
  T_EQ_INT(count_summary(&d, "Duplicate variable declaration"), 1);
  T_EQ_INT(count_summary(&d, "Invalid combination of \"count\" and "
                             "\"for_each\""), 1);
  T_EQ_INT(count_summary(&d, "Duplicate resource \"null_resource\" "
                             "configuration"), 1);
  T_EQ_INT(count_summary(&d, "Duplicate local value definition"), 1);
  T_EQ_INT(count_summary(&d, "Missing required argument"), 1);
  T_EQ_INT(count_summary(&d, "Invalid variable name"), 1);
  T_EQ_INT(count_summary(&d, "Unsupported block type"), 1);
  T_EQ_INT(count_summary(&d, "Invalid default value for variable"), 1);
  /* every error points into the file, with a block context */
  for (const Diag *g = d.head; g; g = g->next)
    T_CHECK(g->subject.file != NULL);
  const Diag *dup = d.head;
  while (dup && strcmp(dup->summary, "Duplicate variable declaration"))
    dup = dup->next;
  Buf b;
  buf_init(&b, &a);
  DiagStyle st = {false, 0};
  if (dup)
    diag_render(&b, dup, &fs, st);
  T_EQ_STR(buf_str(&b),
           "\nError: Duplicate variable declaration\n\n"
           "  on tests/config/errors/main.tf line 2, in variable \"x\":\n"
           "   2: variable \"x\" {}\n\n"
           "A variable named \"x\" was already declared at "
           "tests/config/errors/main.tf:1,1-13. Variable names must be "
           "unique within a module.\n");
  arena_release(&a);
}

/* Terraform converts a variable's default with convert.Convert, as it
** converts -var and tfvars values: strings to numbers and bools, nulls
** inside collections kept, optional attributes given their defaults. */
static void test_default_conversion(void)
{
  Arena a;
  Diags d;
  SrcFiles fs;
  CfgModule *m = load(&a, &d, &fs, "tests/config/defaults");
  for (const Diag *g = d.head; g; g = g->next)
    fprintf(stderr, "diag: %s: %s\n", g->summary, g->detail);
  T_EQ_INT(d.errors, 0);
  const CfgVariable *n = cfg_variable(m, "n");
  int64_t i = 0;
  T_CHECK(n && n->default_val.type->kind == TY_NUMBER &&
          val_num_int(n->default_val, &i) && i == 1500);
  const CfgVariable *b = cfg_variable(m, "b");
  T_CHECK(b && b->default_val.type->kind == TY_BOOL && b->default_val.u.b);
  const CfgVariable *l = cfg_variable(m, "l");
  T_CHECK(l && l->default_val.type->kind == TY_LIST &&
          l->default_val.len == 1 &&
          val_is_null(l->default_val.u.elems[0]));
  const CfgVariable *o = cfg_variable(m, "o");
  bool found = false;
  T_CHECK(o && val_is_null(val_attr(o->default_val, "a", &found)) && found);
  const CfgVariable *opt = cfg_variable(m, "opt");
  Value oa = opt ? val_attr(opt->default_val, "a", &found) : val_dynamic_null;
  T_CHECK(found && oa.type->kind == TY_STRING && !strcmp(oa.u.s, "x"));
  arena_release(&a);
}

/* required_version: the loader checks each module's constraints against
** the Terraform language version cairn implements (the constraint rules
** are test_provver's). */
static void test_version_constraints(void)
{
  /* The loader reports Terraform's error at the constraint. */
  Arena a;
  Diags d;
  SrcFiles fs;
  (void)load(&a, &d, &fs, "tests/config/required_version");
  T_EQ_INT(count_summary(&d, "Unsupported Terraform Core version"), 1);
  for (const Diag *g = d.head; g; g = g->next)
    if (!strcmp(g->summary, "Unsupported Terraform Core version")) {
      T_EQ_INT(g->subject.start.line, 2);
      T_CHECK(strstr(g->detail, "does not support Terraform version "
                                CFG_TERRAFORM_VERSION ".") != NULL);
    }
  T_EQ_INT(count_summary(&d, "Invalid version constraint"), 1);
  arena_release(&a);
}

static void test_missing_dir(void)
{
  Arena a;
  Diags d;
  SrcFiles fs;
  CfgModule *m = load(&a, &d, &fs, "tests/config/nope");
  T_CHECK(m != NULL);
  T_EQ_INT(d.errors, 1);
  arena_release(&a);
}

/* Every file is parsed before any is decoded (the block counts size the
** module's arrays), but diagnostics keep the order of parsing and decoding
** one file at a time; JSON blocks, not counted, grow the arrays. */
static void test_load_order_and_sizes(void)
{
  Arena a;
  Diags d;
  SrcFiles fs;
  CfgModule *m = load(&a, &d, &fs, "tests/config/order");
  const Diag *g = d.head;
  T_CHECK(g && strcmp(g->summary, "Unsupported argument") == 0);
  T_CHECK(g && g->subject.file && strstr(g->subject.file, "a.tf"));
  g = g ? g->next : NULL;
  T_CHECK(g && strcmp(g->summary, "Missing expression") == 0);
  T_CHECK(g && g->subject.file && strstr(g->subject.file, "b.tf"));
  T_EQ_INT(m->nfiles, 4);
  T_EQ_INT(m->nresources, 9);   /* b.tf's partial block too */
  T_EQ_INT(m->nlocals, 6);
  T_EQ_INT(m->noutputs, 1);
  T_EQ_INT(m->nvariables, 1);
  static const char *const managed[] = {"a1", "a2", "a3"};
  for (int i = 0; i < 3; i++)
    T_CHECK(cfg_resource(m, CFG_MANAGED, "null_resource", managed[i]));
  T_CHECK(cfg_resource(m, CFG_MANAGED, "terraform_data", "c2"));
  T_CHECK(cfg_resource(m, CFG_DATA, "local_file", "c3"));
  T_CHECK(cfg_resource(m, CFG_MANAGED, "terraform_data", "j1"));
  T_CHECK(cfg_resource(m, CFG_MANAGED, "terraform_data", "j2"));
  T_CHECK(cfg_local(m, "l4") && cfg_local(m, "lj"));
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_basic_module);
  T_RUN(test_override_files);
  T_RUN(test_errors);
  T_RUN(test_default_conversion);
  T_RUN(test_version_constraints);
  T_RUN(test_missing_dir);
  T_RUN(test_load_order_and_sizes);
  return t_done("test_config");
}
