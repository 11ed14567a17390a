/* Unit tests for core/engine/lifecycle: ignore_changes, replace_triggered_by,
** custom conditions and prevent_destroy. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"
#include "engine/lifecycle.h"
#include "lang/eval.h"
#include "t.h"

static Arena A;

/* ---- fixtures --------------------------------------------------------- */

/* Loads a one-file module from a temporary directory. */
static CfgModule *load(const char *tf, Diags *d)
{
  char dir[64];
  snprintf(dir, sizeof dir, "/tmp/cairn-lc-XXXXXX");
  if (!mkdtemp(dir))
    return NULL;
  char path[128];
  snprintf(path, sizeof path, "%s/main.tf", dir);
  FILE *fp = fopen(path, "w");
  if (!fp)
    return NULL;
  fputs(tf, fp);
  fclose(fp);
  SrcFiles fs;
  diag_files_init(&fs, &A);
  CfgModule *m = cfg_load_dir(&A, dir, &fs, d);
  unlink(path);
  rmdir(dir);
  for (const Diag *g = d->head; g; g = g->next)
    fprintf(stderr, "config diag: %s: %s\n", g->summary, g->detail);
  return m;
}

static const CfgResource *res(const CfgModule *m, const char *type,
                              const char *name)
{
  return m ? cfg_resource(m, CFG_MANAGED, type, name) : NULL;
}

/* A schema: id (computed), name (required), tags (map), list, secret
** (sensitive), co (optional+computed), old (deprecated); blocks single
** {x, cx computed}, lst (list) {x}, st (set) {x}, mp (map) {x}. */
static ProvAttrSchema inner_attrs[2];
static ProvBlockSchema inner;
static ProvAttrSchema top_attrs[7];
static ProvNestedBlock top_blocks[4];
static ProvBlockSchema schema;

static void schema_init(void)
{
  inner_attrs[0] = (ProvAttrSchema){"x", &ty_string, NULL, PROV_OPTIONAL,
                                    NULL, NULL};
  inner_attrs[1] = (ProvAttrSchema){"cx", &ty_string, NULL, PROV_COMPUTED,
                                    NULL, NULL};
  inner = (ProvBlockSchema){inner_attrs, 2, NULL, 0, NULL, false, NULL};
  top_attrs[0] = (ProvAttrSchema){"id", &ty_string, NULL, PROV_COMPUTED,
                                  NULL, NULL};
  top_attrs[1] = (ProvAttrSchema){"name", &ty_string, NULL, PROV_REQUIRED,
                                  NULL, NULL};
  top_attrs[2] = (ProvAttrSchema){"tags", ty_map(&A, &ty_string), NULL,
                                  PROV_OPTIONAL, NULL, NULL};
  top_attrs[3] = (ProvAttrSchema){"list", ty_list(&A, &ty_string), NULL,
                                  PROV_OPTIONAL, NULL, NULL};
  top_attrs[4] = (ProvAttrSchema){"secret", &ty_string, NULL,
                                  PROV_OPTIONAL | PROV_SENSITIVE, NULL, NULL};
  top_attrs[5] = (ProvAttrSchema){"co", &ty_string, NULL,
                                  PROV_OPTIONAL | PROV_COMPUTED, NULL, NULL};
  top_attrs[6] = (ProvAttrSchema){"old", &ty_string, NULL,
                                  PROV_OPTIONAL | PROV_DEPRECATED, NULL,
                                  NULL};
  top_blocks[0] = (ProvNestedBlock){"single", PROV_NEST_SINGLE, &inner, 0, 0};
  top_blocks[1] = (ProvNestedBlock){"lst", PROV_NEST_LIST, &inner, 0, 0};
  top_blocks[2] = (ProvNestedBlock){"st", PROV_NEST_SET, &inner, 0, 0};
  top_blocks[3] = (ProvNestedBlock){"mp", PROV_NEST_MAP, &inner, 0, 0};
  schema = (ProvBlockSchema){top_attrs, 7, top_blocks, 4, NULL, false, NULL};
}

static Value s(const char *x) { return val_cstr(&A, x); }

static Value map2(const char *k1, Value v1, const char *k2, Value v2)
{
  MapEntry *e = ARENA_NEW(&A, MapEntry, 2);
  uint32_t n = 0;
  if (k1)
    e[n++] = (MapEntry){k1, (uint32_t)strlen(k1), v1};
  if (k2)
    e[n++] = (MapEntry){k2, (uint32_t)strlen(k2), v2};
  return val_map(&A, &ty_string, e, n);
}

static Value list2(Value a, Value b)
{
  Value *e = ARENA_NEW(&A, Value, 2);
  e[0] = a;
  e[1] = b;
  return val_list(&A, &ty_string, e, 2);
}

/* An object with the top-level attributes used by the ignore tests (the
** blocks are left out: the walk only needs what the paths name). */
static Value obj(Value id, Value name, Value tags, Value list, Value secret)
{
  const char *names[] = {"id", "name", "tags", "list", "secret"};
  Value vals[] = {id, name, tags, list, secret};
  return val_object(&A, 5, names, vals);
}

static Value attr(Value o, const char *n)
{
  bool found;
  return val_attr(o, n, &found);
}

static Value mget(Value m, const char *k, bool *found)
{
  return val_map_get(m, k, strlen(k), found);
}

static const char *str(Value v)
{
  return v.type && v.type->kind == TY_STRING && !val_is_null(v) &&
                 val_is_known(v) ? v.u.s : "(not a string)";
}

#define IGN_TF(list)                                                     \
  "resource \"t_r\" \"a\" {\n  lifecycle {\n    ignore_changes = " list  \
  "\n  }\n}\n"

static const CfgResource *ign_res(const char *tf)
{
  Diags d;
  diag_init(&d, &A);
  CfgModule *m = load(tf, &d);
  T_EQ_INT(d.errors, 0);
  return res(m, "t_r", "a");
}

/* ---- ignore_changes: values ------------------------------------------- */

static void test_ignore_create_returns_config(void)
{
  const CfgResource *r = ign_res(IGN_TF("[tags]"));
  T_CHECK(r != NULL);
  if (!r)
    return;
  Value cfg = obj(val_null(&ty_string), s("n"), map2("a", s("1"), NULL, s("")),
                  list2(s("x"), s("y")), s("c"));
  Value prior = val_null(cfg.type);
  Value out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  T_CHECK(val_raw_equal(out, cfg, true));
  /* a zero prior (absent) is a create too */
  Value zero = {0};
  out = lc_ignore_changes(&A, cfg, zero, r, &schema);
  T_CHECK(val_raw_equal(out, cfg, true));
}

static void test_ignore_whole_attribute(void)
{
  const CfgResource *r = ign_res(IGN_TF("[tags, name]"));
  if (!r) {
    T_CHECK(r != NULL);
    return;
  }
  T_EQ_INT(r->ignore_changes.n, 2);
  Value prior = obj(s("i"), s("old"), map2("a", s("1"), NULL, s("")),
                    list2(s("p0"), s("p1")), s("ps"));
  Value cfg = obj(val_null(&ty_string), s("new"),
                  map2("a", s("2"), "b", s("3")), list2(s("c0"), s("c1")),
                  s("cs"));
  Value out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  T_EQ_STR(str(attr(out, "name")), "old");
  T_CHECK(val_raw_equal(attr(out, "tags"), attr(prior, "tags"), true));
  /* everything else stays as configured */
  T_CHECK(val_raw_equal(attr(out, "list"), attr(cfg, "list"), true));
  T_CHECK(val_is_null(attr(out, "id")));
  T_EQ_STR(str(attr(out, "secret")), "cs");
  /* unchanged paths: the config comes back as is */
  Value same = obj(val_null(&ty_string), s("old"),
                   map2("a", s("1"), NULL, s("")), list2(s("c0"), s("c1")),
                   s("cs"));
  out = lc_ignore_changes(&A, same, prior, r, &schema);
  T_CHECK(val_raw_equal(out, same, true));
}

static void test_ignore_map_key(void)
{
  const CfgResource *r = ign_res(IGN_TF("[tags[\"Name\"]]"));
  if (!r) {
    T_CHECK(r != NULL);
    return;
  }
  Value ns = val_null(&ty_string);
  /* changed key: prior value kept, other keys as configured */
  Value prior = obj(s("i"), s("n"), map2("Name", s("old"), "x", s("1")),
                    list2(s("a"), s("b")), ns);
  Value cfg = obj(ns, s("n"), map2("Name", s("new"), "x", s("2")),
                  list2(s("a"), s("b")), ns);
  Value out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  bool f;
  T_EQ_STR(str(mget(attr(out, "tags"), "Name", &f)), "old");
  T_CHECK(f);
  T_EQ_STR(str(mget(attr(out, "tags"), "x", &f)), "2");
  /* key absent before: removed from config */
  prior = obj(s("i"), s("n"), map2("x", s("1"), NULL, ns),
              list2(s("a"), s("b")), ns);
  cfg = obj(ns, s("n"), map2("Name", s("new"), "x", s("1")),
            list2(s("a"), s("b")), ns);
  out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  mget(attr(out, "tags"), "Name", &f);
  T_CHECK(!f);
  T_EQ_INT(attr(out, "tags").len, 1);
  /* key absent from config: added back */
  prior = obj(s("i"), s("n"), map2("Name", s("old"), NULL, ns),
              list2(s("a"), s("b")), ns);
  cfg = obj(ns, s("n"), map2("y", s("9"), NULL, ns), list2(s("a"), s("b")),
            ns);
  out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  T_EQ_STR(str(mget(attr(out, "tags"), "Name", &f)), "old");
  T_EQ_STR(str(mget(attr(out, "tags"), "y", &f)), "9");
  /* config map null: becomes a map holding the prior key */
  cfg = obj(ns, s("n"), val_null(ty_map(&A, &ty_string)),
            list2(s("a"), s("b")), ns);
  out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  T_CHECK(!val_is_null(attr(out, "tags")));
  T_EQ_STR(str(mget(attr(out, "tags"), "Name", &f)), "old");
  /* only key removed and config map null: stays null */
  prior = obj(s("i"), s("n"), map2("z", s("1"), NULL, ns),
              list2(s("a"), s("b")), ns);
  out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  T_CHECK(val_is_null(attr(out, "tags")));
  /* config map unknown: left alone */
  cfg = obj(ns, s("n"), val_unknown(ty_map(&A, &ty_string)),
            list2(s("a"), s("b")), ns);
  out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  T_CHECK(val_is_unknown(attr(out, "tags")));
}

static void test_ignore_list_index(void)
{
  const CfgResource *r = ign_res(IGN_TF("[list[0], list[5]]"));
  if (!r) {
    T_CHECK(r != NULL);
    return;
  }
  Value ns = val_null(&ty_string);
  Value prior = obj(s("i"), s("n"), map2(NULL, ns, NULL, ns),
                    list2(s("a"), s("b")), ns);
  Value cfg = obj(ns, s("n"), map2(NULL, ns, NULL, ns),
                  list2(s("x"), s("y")), ns);
  Value out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  Value l = attr(out, "list");
  T_EQ_INT(l.len, 2);
  T_EQ_STR(str(l.u.elems[0]), "a");
  T_EQ_STR(str(l.u.elems[1]), "y");
  T_CHECK(l.type->kind == TY_LIST);
}

static void test_ignore_sensitive_marks(void)
{
  const CfgResource *r = ign_res(IGN_TF("[secret, tags[\"k\"]]"));
  if (!r) {
    T_CHECK(r != NULL);
    return;
  }
  Value ns = val_null(&ty_string);
  Value prior = obj(s("i"), s("n"),
                    val_sensitive(map2("k", s("pk"), NULL, ns)),
                    list2(s("a"), s("b")), val_sensitive(s("p")));
  Value cfg = obj(ns, s("n"), map2("k", s("ck"), "j", s("cj")),
                  list2(s("a"), s("b")), s("c"));
  Value out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  Value sec = attr(out, "secret");
  T_EQ_STR(str(sec), "p");
  T_CHECK(val_is_sensitive(sec));
  /* a key taken out of a map keeps the config map's own marks */
  Value tags = attr(out, "tags");
  bool f;
  T_EQ_STR(str(mget(tags, "k", &f)), "pk");
  T_CHECK(!val_is_sensitive(tags));
  /* marked config map: its mark survives the rebuild */
  cfg = obj(ns, s("n"), val_sensitive(map2("k", s("ck"), NULL, ns)),
            list2(s("a"), s("b")), s("p"));
  out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  T_CHECK(val_is_sensitive(attr(out, "tags")));
  /* same value, different marks: still a change (marks are reverted) */
  cfg = obj(ns, s("n"), val_sensitive(map2("k", s("pk"), NULL, ns)),
            list2(s("a"), s("b")), s("p"));
  out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  T_CHECK(val_is_sensitive(attr(out, "secret")));
}

static void test_ignore_nested_block(void)
{
  const CfgResource *r = ign_res(IGN_TF("[single.x]"));
  if (!r) {
    T_CHECK(r != NULL);
    return;
  }
  const char *in[] = {"x", "cx"};
  Value pv[] = {s("px"), s("pcx")};
  Value cv[] = {s("cx"), val_null(&ty_string)};
  const char *top[] = {"name", "single"};
  Value pt[] = {s("n"), val_object(&A, 2, in, pv)};
  Value ct[] = {s("n"), val_object(&A, 2, in, cv)};
  Value prior = val_object(&A, 2, top, pt);
  Value cfg = val_object(&A, 2, top, ct);
  Value out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  Value sg = attr(out, "single");
  T_EQ_STR(str(attr(sg, "x")), "px");
  T_CHECK(val_is_null(attr(sg, "cx")));
  T_CHECK(ty_equal(out.type, cfg.type));
}

static void test_ignore_all(void)
{
  const CfgResource *r = ign_res(IGN_TF("all"));
  if (!r) {
    T_CHECK(r != NULL);
    return;
  }
  T_CHECK(r->ignore_all_changes);
  const char *in[] = {"x", "cx"};
  Value iv[] = {s("px"), s("pcx")};
  Value blk = val_object(&A, 2, in, iv);
  Value *le = ARENA_NEW(&A, Value, 1);
  le[0] = blk;
  const char *top[] = {"co", "id", "lst", "name"};
  Value pt[] = {s("pco"), s("pid"), val_list(&A, blk.type, le, 1), s("pn")};
  Value ct[] = {s("cco"), val_null(&ty_string),
                val_list(&A, blk.type, le, 0), s("cn")};
  Value prior = val_object(&A, 4, top, pt);
  Value cfg = val_object(&A, 4, top, ct);
  Value out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  /* computed-only attributes are nulled, at any depth */
  T_CHECK(val_is_null(attr(out, "id")));
  T_EQ_STR(str(attr(out, "co")), "pco");
  T_EQ_STR(str(attr(out, "name")), "pn");
  Value l = attr(out, "lst");
  T_EQ_INT(l.len, 1);
  T_EQ_STR(str(attr(l.u.elems[0], "x")), "px");
  T_CHECK(val_is_null(attr(l.u.elems[0], "cx")));
  /* without a schema: the prior object as is */
  out = lc_ignore_changes(&A, cfg, prior, r, NULL);
  T_CHECK(val_raw_equal(out, prior, true));
  /* creates are not affected */
  out = lc_ignore_changes(&A, cfg, val_null(cfg.type), r, &schema);
  T_CHECK(val_raw_equal(out, cfg, true));
}

static void test_ignore_paths_that_do_not_apply(void)
{
  /* tags.Name is an attribute step into a map: cty cannot apply it, so
  ** Terraform ignores nothing; list["0"] ignores the whole list */
  const CfgResource *r = ign_res(IGN_TF("[tags.Name, list[\"0\"], nope]"));
  if (!r) {
    T_CHECK(r != NULL);
    return;
  }
  Value ns = val_null(&ty_string);
  Value prior = obj(s("i"), s("n"), map2("Name", s("old"), NULL, ns),
                    list2(s("a"), s("b")), ns);
  Value cfg = obj(ns, s("n"), map2("Name", s("new"), NULL, ns),
                  list2(s("x"), s("y")), ns);
  Value out = lc_ignore_changes(&A, cfg, prior, r, &schema);
  bool f;
  T_EQ_STR(str(mget(attr(out, "tags"), "Name", &f)), "new");
  T_CHECK(val_raw_equal(attr(out, "list"), attr(prior, "list"), true));
}

/* ---- ignore_changes: validation ---------------------------------------- */

static const Diag *check_ign(const char *list, Diags *d, bool *ok)
{
  char tf[512];
  snprintf(tf, sizeof tf, IGN_TF("%s"), list);
  const CfgResource *r = ign_res(tf);
  diag_init(d, &A);
  *ok = r && lc_check_ignore_changes(&A, r, &schema, d);
  return d->head;
}

static void test_check_ignore_valid(void)
{
  Diags d;
  bool ok;
  check_ign("[name, tags[\"Name\"], list[0], single.x, lst[0].x, mp[\"k\"].x]",
            &d, &ok);
  T_CHECK(ok);
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(d.warnings, 0);
}

static void test_check_ignore_unknown_names(void)
{
  Diags d;
  bool ok;
  const Diag *g = check_ign("[nmae]", &d, &ok);
  T_CHECK(!ok);
  T_EQ_INT(d.errors, 1);
  if (g) {
    T_EQ_STR(g->summary, "Unsupported attribute");
    T_EQ_STR(g->detail, "This object has no argument, nested block, or "
                        "exported attribute named \"nmae\". Did you mean "
                        "\"name\"?");
    T_CHECK(g->subject.file != NULL);
    T_EQ_INT(g->subject.start.line, 3);
  }
  /* meta-arguments are not attributes of the resource type */
  const char *meta[] = {"[count]", "[for_each]", "[provider]",
                        "[depends_on]", "[lifecycle]"};
  const char *want[] = {"count", "for_each", "provider", "depends_on",
                        "lifecycle"};
  for (int i = 0; i < 5; i++) {
    g = check_ign(meta[i], &d, &ok);
    T_CHECK(!ok);
    T_EQ_INT(d.errors, 1);
    if (g) {
      char buf[160];
      snprintf(buf, sizeof buf, "This object has no argument, nested block, "
               "or exported attribute named \"%s\".", want[i]);
      T_EQ_STR(g->summary, "Unsupported attribute");
      T_EQ_STR(g->detail, buf);
    }
  }
}

static void test_check_ignore_blocks(void)
{
  Diags d;
  bool ok;
  const Diag *g = check_ign("[single[\"x\"]]", &d, &ok);
  T_CHECK(!ok);
  if (g) {
    T_EQ_STR(g->summary, "Invalid index operation");
    T_EQ_STR(g->detail, "Only attribute access is allowed here. Did you "
                        "mean to access attribute \"x\" using the dot "
                        "operator?");
  }
  g = check_ign("[single[0]]", &d, &ok);
  if (g)
    T_EQ_STR(g->detail, "Only attribute access is allowed here, using the "
                        "dot operator.");
  g = check_ign("[st[0]]", &d, &ok);
  T_CHECK(!ok);
  if (g) {
    T_EQ_STR(g->summary, "Cannot index a set value");
    T_EQ_STR(g->detail, "Block type \"st\" is represented by a set of "
                        "objects, and set elements do not have addressable "
                        "keys. To find elements matching specific criteria, "
                        "use a \"for\" expression with an \"if\" clause.");
  }
  g = check_ign("[lst.x]", &d, &ok);
  T_CHECK(!ok);
  if (g) {
    T_EQ_STR(g->summary, "Invalid operation");
    T_EQ_STR(g->detail, "Block type \"lst\" is represented by a list of "
                        "objects, so it must be indexed using a numeric "
                        "key, like .lst[0].");
  }
  /* whole blocks are fine */
  check_ign("[st, lst, mp]", &d, &ok);
  T_CHECK(ok);
  /* a step into a string attribute: HCL's own error */
  g = check_ign("[name.foo]", &d, &ok);
  T_CHECK(!ok);
  T_CHECK(g != NULL);
}

static void test_check_ignore_warnings(void)
{
  Diags d;
  bool ok;
  const Diag *g = check_ign("[id, co]", &d, &ok);
  T_CHECK(ok);
  T_EQ_INT(d.warnings, 1);
  if (g) {
    T_EQ_INT(g->severity, DIAG_WARNING);
    T_EQ_STR(g->summary, "Redundant ignore_changes element");
    T_EQ_STR(g->detail,
             "Adding an attribute name to ignore_changes tells Terraform to "
             "ignore future changes to the argument in configuration after "
             "the object has been created, retaining the value originally "
             "configured.\n\nThe attribute id is decided by the provider "
             "alone and therefore there can be no configured value to "
             "compare with. Including this attribute in ignore_changes has "
             "no effect. Remove the attribute from ignore_changes to quiet "
             "this warning.");
    /* subject: the type label of the resource */
    T_EQ_INT(g->subject.start.line, 1);
    T_EQ_INT(g->subject.start.col, 10);
  }
  g = check_ign("[single.cx]", &d, &ok);
  T_EQ_INT(d.warnings, 1);
  if (g)
    T_CHECK(strstr(g->detail, "The attribute single.cx is decided") != NULL);
  g = check_ign("[old]", &d, &ok);
  T_CHECK(ok);
  if (g) {
    T_EQ_STR(g->summary, "Deprecated attribute");
    T_EQ_STR(g->detail, "The attribute \"old\" is deprecated. Refer to the "
                        "provider documentation for details.");
  }
  /* no warning after an error */
  check_ign("[nope, id]", &d, &ok);
  T_EQ_INT(d.errors, 1);
  T_EQ_INT(d.warnings, 0);
}

/* ---- replace_triggered_by: static rules --------------------------------- */

static const Diag *check_trig(const char *list, Diags *d, bool *ok)
{
  char tf[512];
  snprintf(tf, sizeof tf,
           "resource \"t_r\" \"a\" {\n  count = 2\n  lifecycle {\n"
           "    replace_triggered_by = %s\n  }\n}\n", list);
  Diags cd;
  diag_init(&cd, &A);
  CfgModule *m = load(tf, &cd);
  T_EQ_INT(cd.errors, 0);
  const CfgResource *r = res(m, "t_r", "a");
  diag_init(d, &A);
  *ok = r && lc_check_replace_triggers(r, d);
  return d->head;
}

static void test_check_triggers_valid(void)
{
  Diags d;
  bool ok;
  check_trig("[t_x.a, t_x.a[0], t_x.a[count.index].id, t_x.b[each.key], "
             "t_x.c.attr[\"k\"]]", &d, &ok);
  T_CHECK(ok);
  T_EQ_INT(d.errors, 0);
}

static void test_check_triggers_invalid(void)
{
  Diags d;
  bool ok;
  const Diag *g = check_trig("[local.x]", &d, &ok);
  T_CHECK(!ok);
  T_EQ_INT(d.errors, 2);
  if (g) {
    T_EQ_STR(g->summary,
             "Invalid reference in replace_triggered_by expression");
    T_EQ_STR(g->detail, "Only resources, count.index, and each.key may be "
                        "used in replace_triggered_by.");
    T_EQ_INT(g->subject.start.line, 4);
    T_EQ_STR(g->next->summary, "Invalid replace_triggered_by expression");
    T_EQ_STR(g->next->detail, "Missing resource reference in "
                              "replace_triggered_by expression.");
  }
  g = check_trig("[\"x\"]", &d, &ok);
  T_EQ_INT(d.errors, 1);
  if (g)
    T_EQ_STR(g->detail, "Missing resource reference in replace_triggered_by "
                        "expression.");
  g = check_trig("[t_x.a.id == t_x.b.id]", &d, &ok);
  T_EQ_INT(d.errors, 1);
  if (g)
    T_EQ_STR(g->detail, "Multiple resource references in "
                        "replace_triggered_by expression.");
  g = check_trig("[t_x.a[each.value]]", &d, &ok);
  T_EQ_INT(d.errors, 1);
  if (g) {
    T_EQ_STR(g->summary,
             "Invalid each reference in replace_triggered_by expression");
    T_EQ_STR(g->detail, "Only each.key may be used in replace_triggered_by.");
  }
  g = check_trig("[t_x.a[count.foo]]", &d, &ok);
  T_EQ_INT(d.errors, 1);
  if (g) {
    T_EQ_STR(g->summary,
             "Invalid count reference in replace_triggered_by expression");
    T_EQ_STR(g->detail, "Only count.index may be used in "
                        "replace_triggered_by.");
  }
  g = check_trig("[var.x]", &d, &ok);
  T_CHECK(!ok);
}

/* ---- replace_triggered_by: evaluation ----------------------------------- */

typedef struct Fake {
  const char *addr;
  PlChange c;
} Fake;

typedef struct Env {
  Fake *f;
  int n;
  const char *last;         /* last address asked for */
  const PlChange *list[8];
} Env;

static const PlChange *fake_change_of(void *ctx, const char *addr)
{
  Env *e = ctx;
  e->last = addr;
  for (int i = 0; i < e->n; i++)
    if (strcmp(e->f[i].addr, addr) == 0)
      return &e->f[i].c;
  return NULL;
}

static uint32_t fake_changes_of(void *ctx, const char *addr,
                                const PlChange *const **out)
{
  Env *e = ctx;
  e->last = addr;
  uint32_t n = 0;
  size_t l = strlen(addr);
  for (int i = 0; i < e->n && n < 8; i++)
    if (strncmp(e->f[i].addr, addr, l) == 0 &&
        (e->f[i].addr[l] == 0 || e->f[i].addr[l] == '['))
      e->list[n++] = &e->f[i].c;
  *out = e->list;
  return n;
}

static Value idobj(const char *id)
{
  const char *n[] = {"id"};
  Value v[] = {id ? s(id) : val_unknown(&ty_string)};
  return val_object(&A, 1, n, v);
}

typedef struct TrigFx {
  CfgModule *m;
  const CfgResource *r;
  EvalCtx ctx;
  Diags d;
  Env env;
  LcTriggerEnv te;
  EvalVar vars[2];
} TrigFx;

static const char *TRIG_TF =
    "resource \"t_x\" \"a\" {\n  count = 2\n}\n"
    "resource \"t_x\" \"b\" {}\n"
    "resource \"t_x\" \"c\" {\n  for_each = {}\n}\n"
    "resource \"t_r\" \"counted\" {\n  count = 2\n  lifecycle {\n"
    "    replace_triggered_by = [t_x.a[count.index], t_x.b.id]\n  }\n}\n"
    "resource \"t_r\" \"each\" {\n  for_each = {}\n  lifecycle {\n"
    "    replace_triggered_by = [t_x.c[each.key]]\n  }\n}\n"
    "resource \"t_r\" \"whole\" {\n  lifecycle {\n"
    "    replace_triggered_by = [t_x.a, t_x.a[count.index], t_x.nope,\n"
    "      upper(t_x.b.id), t_x.a[0], t_x.c[\"k\"].id]\n  }\n}\n";

static void trig_init(TrigFx *x, Fake *f, int n, const char *rname)
{
  memset(x, 0, sizeof *x);
  Diags cd;
  diag_init(&cd, &A);
  x->m = load(TRIG_TF, &cd);
  T_EQ_INT(cd.errors, 0);
  x->r = res(x->m, "t_r", rname);
  diag_init(&x->d, &A);
  eval_ctx_init(&x->ctx, &A, &x->d);
  const char *cn[] = {"index"};
  Value cv[] = {val_int(1)};
  const char *en[] = {"key", "value"};
  Value ev[] = {s("k"), s("v")};
  x->vars[0] = (EvalVar){"count", val_object(&A, 1, cn, cv)};
  x->vars[1] = (EvalVar){"each", val_object(&A, 2, en, ev)};
  x->ctx.vars = x->vars;
  x->ctx.nvars = 2;
  x->env = (Env){f, n, NULL, {0}};
  x->te = (LcTriggerEnv){"", x->m, fake_change_of, fake_changes_of, &x->env};
}

static void test_trigger_instance_with_count_index(void)
{
  Fake f[] = {{"t_x.a[0]", {.action = PL_UPDATE}},
              {"t_x.a[1]", {.action = PL_NOOP}},
              {"t_x.b", {.action = PL_NOOP}}};
  TrigFx x;
  trig_init(&x, f, 3, "counted");
  if (!x.r) {
    T_CHECK(x.r != NULL);
    return;
  }
  bool t = true;
  T_CHECK(lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[0],
                             &x.te, &t, &x.d));
  T_CHECK(!t);
  T_EQ_STR(x.env.last, "t_x.a[1]");
  f[1].c.action = PL_DELETE_THEN_CREATE;
  T_CHECK(lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[0],
                             &x.te, &t, &x.d));
  T_CHECK(t);
  f[1].c.action = PL_CREATE_THEN_DELETE;
  lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[0], &x.te, &t,
                     &x.d);
  T_CHECK(t);
  /* creates and deletes do not trigger */
  f[1].c.action = PL_CREATE;
  lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[0], &x.te, &t,
                     &x.d);
  T_CHECK(!t);
  f[1].c.action = PL_DELETE;
  lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[0], &x.te, &t,
                     &x.d);
  T_CHECK(!t);
  /* in a module instance the addresses carry its prefix */
  x.te.module = "module.m[0]";
  f[1].addr = "module.m[0].t_x.a[1]";
  f[1].c.action = PL_UPDATE;
  lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[0], &x.te, &t,
                     &x.d);
  T_CHECK(t);
  T_EQ_STR(x.env.last, "module.m[0].t_x.a[1]");
  T_EQ_INT(x.d.errors, 0);
}

static void test_trigger_attribute(void)
{
  Fake f[] = {{"t_x.b", {.action = PL_UPDATE}}};
  f[0].c.before = idobj("1");
  f[0].c.after = idobj("1");
  TrigFx x;
  trig_init(&x, f, 1, "counted");
  if (!x.r) {
    T_CHECK(x.r != NULL);
    return;
  }
  const HclExpr *e = x.r->replace_triggered_by[1];
  bool t = true;
  /* updated, but the attribute is the same: no trigger */
  T_CHECK(lc_replace_trigger(&x.ctx, x.r, e, &x.te, &t, &x.d));
  T_CHECK(!t);
  T_EQ_STR(x.env.last, "t_x.b");
  f[0].c.after = idobj("2");
  lc_replace_trigger(&x.ctx, x.r, e, &x.te, &t, &x.d);
  T_CHECK(t);
  /* unknown after: a change */
  f[0].c.after = idobj(NULL);
  lc_replace_trigger(&x.ctx, x.r, e, &x.te, &t, &x.d);
  T_CHECK(t);
  /* marks alone are not a change */
  f[0].c.after = idobj("1");
  f[0].c.before = val_sensitive(idobj("1"));
  lc_replace_trigger(&x.ctx, x.r, e, &x.te, &t, &x.d);
  T_CHECK(!t);
  /* the attribute changed but the action is not update/replace */
  f[0].c.after = idobj("3");
  f[0].c.action = PL_NOOP;
  lc_replace_trigger(&x.ctx, x.r, e, &x.te, &t, &x.d);
  T_CHECK(!t);
  /* the whole list: lc_replace_triggered */
  f[0].c.action = PL_UPDATE;
  Fake g[] = {{"t_x.a[1]", {.action = PL_NOOP}}, f[0]};
  x.env.f = g;
  x.env.n = 2;
  T_CHECK(lc_replace_triggered(&x.ctx, x.r, &x.te, &t, &x.d));
  T_CHECK(t);
  T_EQ_INT(x.d.errors, 0);
}

static void test_trigger_each_key(void)
{
  Fake f[] = {{"t_x.c[\"k\"]", {.action = PL_UPDATE}}};
  TrigFx x;
  trig_init(&x, f, 1, "each");
  if (!x.r) {
    T_CHECK(x.r != NULL);
    return;
  }
  bool t = false;
  T_CHECK(lc_replace_triggered(&x.ctx, x.r, &x.te, &t, &x.d));
  T_CHECK(t);
  T_EQ_STR(x.env.last, "t_x.c[\"k\"]");
}

static void test_trigger_whole_resource_and_errors(void)
{
  Fake f[] = {{"t_x.a[0]", {.action = PL_NOOP}},
              {"t_x.a[1]", {.action = PL_CREATE}},
              {"t_x.b", {.action = PL_UPDATE}}};
  TrigFx x;
  trig_init(&x, f, 3, "whole");
  if (!x.r) {
    T_CHECK(x.r != NULL);
    return;
  }
  T_EQ_INT(x.r->nreplace_triggered_by, 6);
  bool t = true;
  T_CHECK(lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[0],
                             &x.te, &t, &x.d));
  T_CHECK(!t);
  T_EQ_STR(x.env.last, "t_x.a");
  f[0].c.action = PL_UPDATE;
  lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[0], &x.te, &t,
                     &x.d);
  T_CHECK(t);
  T_EQ_INT(x.d.errors, 0);
  /* count.index in a resource without count */
  T_CHECK(!lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[1],
                              &x.te, &t, &x.d));
  T_CHECK(!t);
  const Diag *g = x.d.tail;
  if (g) {
    T_EQ_STR(g->summary, "Reference to \"count\" in non-counted context");
    T_EQ_STR(g->detail, "The \"count\" object can only be used in "
                        "\"resource\" blocks when the \"count\" argument is "
                        "set.");
  }
  /* undeclared resource */
  T_CHECK(!lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[2],
                              &x.te, &t, &x.d));
  g = x.d.tail;
  if (g) {
    T_EQ_STR(g->summary, "Reference to undeclared resource");
    T_EQ_STR(g->detail, "A resource t_x.nope has not been declared in the "
                        "root module");
  }
  /* a function call is not a reference */
  T_CHECK(!lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[3],
                              &x.te, &t, &x.d));
  g = x.d.tail;
  if (g) {
    T_EQ_STR(g->summary, "Invalid replace_triggered_by expression");
    T_EQ_STR(g->detail, "Unexpected expression found in "
                        "replace_triggered_by.");
  }
  /* declared but not planned */
  x.env.n = 0;
  T_CHECK(!lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[0],
                              &x.te, &t, &x.d));
  g = x.d.tail;
  if (g)
    T_EQ_STR(g->summary, "no change found for t_x.a in the root module");
  /* literal keys */
  Fake lit[] = {{"t_x.a[0]", {.action = PL_UPDATE}},
                {"t_x.c[\"k\"]", {.action = PL_UPDATE}}};
  lit[1].c.before = idobj("1");
  lit[1].c.after = idobj("2");
  x.env.f = lit;
  x.env.n = 2;
  T_CHECK(lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[4],
                             &x.te, &t, &x.d));
  T_CHECK(t);
  T_EQ_STR(x.env.last, "t_x.a[0]");
  T_CHECK(lc_replace_trigger(&x.ctx, x.r, x.r->replace_triggered_by[5],
                             &x.te, &t, &x.d));
  T_CHECK(t);
  T_EQ_STR(x.env.last, "t_x.c[\"k\"]");
  x.env.n = 0;
  /* all together: every error reported, no trigger */
  Diags d2;
  diag_init(&d2, &A);
  T_CHECK(!lc_replace_triggered(&x.ctx, x.r, &x.te, &t, &d2));
  T_EQ_INT(d2.errors, 6);
}

/* ---- custom conditions --------------------------------------------------- */

typedef struct RuleFx {
  CfgModule *m;
  EvalCtx ctx;
  Diags d;
  EvalVar vars[1];
} RuleFx;

static const CfgRules *rules_of(RuleFx *x, const char *cond,
                                const char *msg)
{
  char tf[1024];
  snprintf(tf, sizeof tf,
           "resource \"t_r\" \"a\" {\n  lifecycle {\n    precondition {\n"
           "      condition     = %s\n      error_message = %s\n    }\n"
           "  }\n}\n", cond, msg);
  memset(x, 0, sizeof *x);
  Diags cd;
  diag_init(&cd, &A);
  x->m = load(tf, &cd);
  T_EQ_INT(cd.errors, 0);
  diag_init(&x->d, &A);
  eval_ctx_init(&x->ctx, &A, &x->d);
  const char *n[] = {"n", "s", "u", "nul", "str", "list"};
  Value *lv = ARENA_NEW(&A, Value, 1);
  lv[0] = s("a");
  Value v[] = {val_int(5), val_sensitive(s("secret")),
               val_unknown(&ty_bool), val_null(&ty_bool), s("maybe"),
               val_list(&A, &ty_string, lv, 1)};
  x->vars[0] = (EvalVar){"var", val_object(&A, 6, n, v)};
  x->ctx.vars = x->vars;
  x->ctx.nvars = 1;
  const CfgResource *r = res(x->m, "t_r", "a");
  return r ? &r->preconditions : NULL;
}

static void test_rules_pass_and_unknown(void)
{
  RuleFx x;
  const CfgRules *r = rules_of(&x, "var.n == 5", "\"no\"");
  T_CHECK(r != NULL);
  T_CHECK(lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "t_r.a", &x.d));
  T_CHECK(x.d.head == NULL);
  r = rules_of(&x, "var.u", "\"no\"");
  T_CHECK(lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "t_r.a", &x.d));
  T_CHECK(x.d.head == NULL);
  /* "true" converts to bool */
  r = rules_of(&x, "\"true\"", "\"no\"");
  T_CHECK(lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "t_r.a", &x.d));
  /* sensitive condition results are unmarked */
  r = rules_of(&x, "var.s == \"secret\"", "\"no\"");
  T_CHECK(lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "t_r.a", &x.d));
  T_CHECK(x.d.head == NULL);
}

static void test_rules_failure(void)
{
  RuleFx x;
  const CfgRules *r = rules_of(&x, "var.n > 10", "\"  Too small: ${var.n}. \"");
  T_CHECK(!lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "t_r.a",
                          &x.d));
  T_EQ_INT(x.d.errors, 1);
  const Diag *g = x.d.head;
  if (g) {
    T_EQ_STR(g->summary, "Resource precondition failed");
    T_EQ_STR(g->detail, "Too small: 5.");
    T_EQ_INT(g->subject.start.line, 4);
    T_EQ_INT(g->subject.start.col, 23);
    T_EQ_INT(g->subject.end.col, 33);
    T_EQ_INT(g->nvalues, 1);
    if (g->nvalues == 1)
      T_EQ_STR(g->values[0], "var.n is 5");
    T_CHECK(g->address == NULL);
  }
  const char *sum[] = {"Resource postcondition failed",
                       "Module output value precondition failed",
                       "Check block assertion failed"};
  LcRuleKind kinds[] = {LC_RESOURCE_POSTCONDITION, LC_OUTPUT_PRECONDITION,
                        LC_CHECK_ASSERTION};
  for (int i = 0; i < 3; i++) {
    r = rules_of(&x, "false", "\"m\"");
    T_CHECK(!lc_check_rules(&x.ctx, r, kinds[i], "x", &x.d));
    if (x.d.head) {
      T_EQ_STR(x.d.head->summary, sum[i]);
      T_EQ_INT(x.d.head->severity,
               kinds[i] == LC_CHECK_ASSERTION ? DIAG_WARNING : DIAG_ERROR);
    }
  }
  /* refresh-only: everything is a warning, and planning goes on (true) */
  r = rules_of(&x, "false", "\"m\"");
  T_CHECK(lc_check_rules_ex(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", true,
                            &x.d));
  T_EQ_INT(x.d.errors, 0);
  T_EQ_INT(x.d.warnings, 1);
  /* sensitive and unknown references are not listed */
  r = rules_of(&x, "var.s == \"x\" && var.n > 9", "\"m\"");
  lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", &x.d);
  if (x.d.head) {
    T_EQ_INT(x.d.head->nvalues, 1);
    if (x.d.head->nvalues)
      T_EQ_STR(x.d.head->values[0], "var.n is 5");
  }
}

static void test_rules_invalid_results(void)
{
  RuleFx x;
  const CfgRules *r = rules_of(&x, "var.nul", "\"m\"");
  T_CHECK(!lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", &x.d));
  if (x.d.head) {
    T_EQ_STR(x.d.head->summary, "Invalid condition result");
    T_EQ_STR(x.d.head->detail, "Condition expression must return either "
                               "true or false, not null.");
  }
  r = rules_of(&x, "var.str", "\"m\"");
  T_CHECK(!lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", &x.d));
  if (x.d.head) {
    T_EQ_STR(x.d.head->summary, "Invalid condition result");
    T_EQ_STR(x.d.head->detail, "Invalid condition result value: a bool is "
                               "required.");
    T_EQ_INT(x.d.head->nvalues, 1);
    if (x.d.head->nvalues)
      T_EQ_STR(x.d.head->values[0], "var.str is \"maybe\"");
  }
  r = rules_of(&x, "var.list", "\"m\"");
  lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", &x.d);
  if (x.d.head)
    T_EQ_STR(x.d.head->detail, "Invalid condition result value: bool "
                               "required.");
  /* an evaluation error: reported by the evaluator, then skipped */
  r = rules_of(&x, "var.missing", "\"m\"");
  T_CHECK(!lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", &x.d));
  T_EQ_INT(x.d.errors, 1);
}

static void test_rules_error_messages(void)
{
  RuleFx x;
  /* a number converts to a string */
  const CfgRules *r = rules_of(&x, "false", "var.n");
  lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", &x.d);
  if (x.d.head)
    T_EQ_STR(x.d.head->detail, "5");
  /* a list does not */
  r = rules_of(&x, "false", "var.list");
  lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", &x.d);
  T_EQ_INT(x.d.errors, 2);
  if (x.d.head && x.d.head->next) {
    T_EQ_STR(x.d.head->summary, "Invalid error message");
    T_EQ_STR(x.d.head->detail, "Unsuitable value for error message: string "
                               "required.");
    T_EQ_INT(x.d.head->subject.start.line, 5);
    T_EQ_STR(x.d.head->next->summary, "Resource precondition failed");
    T_EQ_STR(x.d.head->next->detail, "Failed to evaluate condition error "
                                     "message.");
  }
  /* sensitive: hidden */
  r = rules_of(&x, "false", "\"bad ${var.s}\"");
  lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", &x.d);
  T_EQ_INT(x.d.errors, 2);
  if (x.d.head && x.d.head->next) {
    T_EQ_STR(x.d.head->summary, "Error message refers to sensitive values");
    T_CHECK(strstr(x.d.head->detail, "nonsensitive() function") != NULL);
    T_EQ_STR(x.d.head->next->detail, "The error message included a "
                                     "sensitive value, so it will not be "
                                     "displayed.");
  }
  /* unknown message */
  r = rules_of(&x, "false", "var.u ? \"a\" : \"b\"");
  lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", &x.d);
  if (x.d.head)
    T_EQ_STR(x.d.head->detail, "Failed to evaluate condition error message.");
  /* blank after trimming */
  r = rules_of(&x, "false", "\"   \"");
  lc_check_rules(&x.ctx, r, LC_RESOURCE_PRECONDITION, "x", &x.d);
  if (x.d.head)
    T_EQ_STR(x.d.head->detail, "Failed to evaluate condition error message.");
  /* NULL rules: nothing to do */
  T_CHECK(lc_check_rules(&x.ctx, NULL, LC_CHECK_ASSERTION, "x", &x.d));
}

/* ---- prevent_destroy ----------------------------------------------------- */

static void test_prevent_destroy(void)
{
  Diags cd;
  diag_init(&cd, &A);
  CfgModule *m = load("\n\nresource \"t_r\" \"a\" {\n  lifecycle {\n"
                      "    prevent_destroy = true\n  }\n}\n"
                      "resource \"t_r\" \"b\" {}\n", &cd);
  const CfgResource *r = res(m, "t_r", "a");
  const CfgResource *b = res(m, "t_r", "b");
  T_CHECK(r && b);
  if (!r || !b)
    return;
  T_CHECK(lc_prevent_destroy_applies(r, PL_DELETE));
  T_CHECK(lc_prevent_destroy_applies(r, PL_DELETE_THEN_CREATE));
  T_CHECK(lc_prevent_destroy_applies(r, PL_CREATE_THEN_DELETE));
  T_CHECK(!lc_prevent_destroy_applies(r, PL_UPDATE));
  T_CHECK(!lc_prevent_destroy_applies(r, PL_FORGET));
  T_CHECK(!lc_prevent_destroy_applies(b, PL_DELETE));
  T_CHECK(!lc_prevent_destroy_applies(NULL, PL_DELETE));
  Diags d;
  diag_init(&d, &A);
  lc_prevent_destroy_error(&d, r, "t_r.a[0]");
  T_EQ_INT(d.errors, 1);
  if (d.head) {
    T_EQ_STR(d.head->summary, "Instance cannot be destroyed");
    T_EQ_STR(d.head->detail,
             "Resource t_r.a[0] has lifecycle.prevent_destroy set, but the "
             "plan calls for this resource to be destroyed. To avoid this "
             "error and continue with the plan, either disable "
             "lifecycle.prevent_destroy or reduce the scope of the plan "
             "using the -target option.");
    T_EQ_INT(d.head->subject.start.line, 3);
    T_EQ_INT(d.head->subject.start.col, 1);
  }
}

int main(void)
{
  arena_init(&A, 0);
  schema_init();
  T_RUN(test_ignore_create_returns_config);
  T_RUN(test_ignore_whole_attribute);
  T_RUN(test_ignore_map_key);
  T_RUN(test_ignore_list_index);
  T_RUN(test_ignore_sensitive_marks);
  T_RUN(test_ignore_nested_block);
  T_RUN(test_ignore_all);
  T_RUN(test_ignore_paths_that_do_not_apply);
  T_RUN(test_check_ignore_valid);
  T_RUN(test_check_ignore_unknown_names);
  T_RUN(test_check_ignore_blocks);
  T_RUN(test_check_ignore_warnings);
  T_RUN(test_check_triggers_valid);
  T_RUN(test_check_triggers_invalid);
  T_RUN(test_trigger_instance_with_count_index);
  T_RUN(test_trigger_attribute);
  T_RUN(test_trigger_each_key);
  T_RUN(test_trigger_whole_resource_and_errors);
  T_RUN(test_rules_pass_and_unknown);
  T_RUN(test_rules_failure);
  T_RUN(test_rules_invalid_results);
  T_RUN(test_rules_error_messages);
  T_RUN(test_prevent_destroy);
  int rc = t_done("lifecycle");
  arena_release(&A);
  return rc;
}
