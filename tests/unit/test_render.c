/*
** test_render: golden outputs of the human plan/state renderer.  Most
** expectations are Terraform's own (command/jsonformat plan_test.go and
** state_test.go, renderer tests), rewritten as C cases.
*/
#include <stdarg.h>
#include <string.h>

#include "t.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/value.h"
#include "engine/plan.h"
#include "views/render.h"

static Arena A;

/* ---- builders ----------------------------------------------------------- */

static Value S(const char *s) { return val_cstr(&A, s); }
static Value N(int64_t i) { return val_int(i); }
static Value UNK(void) { return val_unknown(&ty_string); }
static Value SENS(Value v) { return val_sensitive(v); }

/* O(n, "a", va, "b", vb, ...) */
static Value O(int n, ...)
{
  const char **names = ARENA_NEW(&A, const char *, (size_t)n + 1);
  Value *vals = ARENA_NEW(&A, Value, (size_t)n + 1);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    names[i] = va_arg(ap, const char *);
    vals[i] = va_arg(ap, Value);
  }
  va_end(ap);
  return val_object(&A, (uint32_t)n, names, vals);
}

static Value L(const Type *et, int n, ...)
{
  Value *v = ARENA_NEW(&A, Value, (size_t)n + 1);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    v[i] = va_arg(ap, Value);
  va_end(ap);
  return val_list(&A, et, v, (uint32_t)n);
}

static Value SET(const Type *et, int n, ...)
{
  Value *v = ARENA_NEW(&A, Value, (size_t)n + 1);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    v[i] = va_arg(ap, Value);
  va_end(ap);
  return val_set(&A, et, v, (uint32_t)n);
}

static Value M(int n, ...)
{
  MapEntry *e = ARENA_NEW(&A, MapEntry, (size_t)n + 1);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    e[i].key = va_arg(ap, const char *);
    e[i].keylen = (uint32_t)strlen(e[i].key);
    e[i].val = va_arg(ap, Value);
  }
  va_end(ap);
  return val_map(&A, &ty_string, e, (uint32_t)n);
}

static Value NULLOBJ(void) { return val_null(&ty_empty_object); }

#define ATTR(n, t) {(n), (t), NULL, PROV_OPTIONAL, NULL, NULL}
#define SATTR(n, t) {(n), (t), NULL, PROV_OPTIONAL | PROV_SENSITIVE, NULL, NULL}

static const ProvAttrSchema id_ami[] = {ATTR("id", &ty_string),
                                        ATTR("ami", &ty_string)};
static const ProvBlockSchema s_id_ami = {id_ami, 2, NULL, 0, NULL, false,
                                         NULL};

static ValPath path1(const char *name)
{
  PathStep *s = ARENA_NEW(&A, PathStep, 1);
  s->kind = PS_ATTR;
  s->name = name;
  ValPath p = {s, 1};
  return p;
}

static PlChange chg(PlAction act, Value before, Value after,
                    const ProvBlockSchema *s)
{
  PlChange c;
  memset(&c, 0, sizeof c);
  c.addr = "test_instance.example";
  c.module = "";
  c.mode = ST_MANAGED;
  c.type = "test_instance";
  c.name = "example";
  c.action = act;
  c.before = before;
  c.after = after;
  c.schema = s;
  return c;
}

static const char *change_text(const PlChange *c)
{
  Buf b;
  buf_init(&b, &A);
  RenderOpts o = {false, "Terraform", 0, false};
  render_change(&b, c, &o);
  /* Terraform's test strings have no trailing newline. */
  if (b.len && b.p[b.len - 1] == '\n')
    b.p[--b.len] = 0;
  return buf_str(&b);
}

static const char *plan_text(const Plan *p, const char *tool)
{
  Buf b;
  buf_init(&b, &A);
  RenderOpts o = {false, tool, 0, false};
  render_plan(&b, p, &o);
  return buf_str(&b);
}

/* ---- primitive attributes ------------------------------------------------ */

static void test_create_unknown_id(void)
{
  static const ProvAttrSchema at[] = {ATTR("id", &ty_string)};
  static const ProvBlockSchema s = {at, 1, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_CREATE, NULLOBJ(), O(1, "id", UNK()), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be created\n"
           "  + resource \"test_instance\" \"example\" {\n"
           "      + id = (known after apply)\n"
           "    }");
}

static void test_create_quoted_object_keys(void)
{
  const char *names[] = {"quoted:key", "unquoted"};
  const Type *types[] = {&ty_string, &ty_string};
  const Type *ot = ty_object(&A, 2, names, types);
  ProvAttrSchema *at = ARENA_NEW(&A, ProvAttrSchema, 1);
  at->name = "object";
  at->type = ot;
  at->flags = PROV_OPTIONAL;
  ProvBlockSchema s = {at, 1, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_CREATE, NULLOBJ(),
                   O(1, "object", O(2, "unquoted", S("value"), "quoted:key",
                                    S("some-value"))), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be created\n"
           "  + resource \"test_instance\" \"example\" {\n"
           "      + object = {\n"
           "          + \"quoted:key\" = \"some-value\"\n"
           "          + unquoted     = \"value\"\n"
           "        }\n"
           "    }");
}

static void test_delete_and_deposed(void)
{
  static const ProvAttrSchema at[] = {ATTR("id", &ty_string),
                                      ATTR("intentionally_long", &ty_string)};
  static const ProvBlockSchema s = {at, 2, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_DELETE, O(2, "id", S("i-02ae66f368e8518a9"),
                                "intentionally_long", S("")),
                   NULLOBJ(), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be destroyed\n"
           "  - resource \"test_instance\" \"example\" {\n"
           "      - id                 = \"i-02ae66f368e8518a9\" -> null\n"
           "        # (1 unchanged attribute hidden)\n"
           "    }");
  PlChange d = chg(PL_DELETE, O(1, "id", S("i-02ae66f368e8518a9")),
                   NULLOBJ(), &s);
  d.deposed = "byebye";
  T_EQ_STR(change_text(&d),
           "  # test_instance.example (deposed object byebye) will be "
           "destroyed\n"
           "  # (left over from a partially-failed replacement of this "
           "instance)\n"
           "  - resource \"test_instance\" \"example\" {\n"
           "      - id = \"i-02ae66f368e8518a9\" -> null\n"
           "    }");
}

static void test_delete_reasons(void)
{
  PlChange c = chg(PL_DELETE, O(1, "id", S("x")), NULLOBJ(), &s_id_ami);
  c.reason = PL_REASON_DELETE_NO_RESOURCE_CONFIG;
  T_CHECK(strstr(change_text(&c), "will be destroyed\n  # (because "
                 "test_instance.example is not in configuration)\n") != NULL);
  c.reason = PL_REASON_DELETE_COUNT_INDEX;
  c.key = st_intkey(1);
  c.addr = "test_instance.example[1]";
  T_CHECK(strstr(change_text(&c), "  # (because index [1] is out of range "
                 "for count)\n") != NULL);
  c.reason = PL_REASON_DELETE_EACH_KEY;
  c.key.kind = ST_STRKEY;
  c.key.s = "b";
  c.key.slen = 1;
  T_CHECK(strstr(change_text(&c), "  # (because key [\"b\"] is not in "
                 "for_each map)\n") != NULL);
  c.reason = PL_REASON_DELETE_WRONG_REPETITION;
  T_CHECK(strstr(change_text(&c), "(because resource does not use for_each)")
          != NULL);
  c.key = st_nokey();
  T_CHECK(strstr(change_text(&c), "(because resource uses count or "
                 "for_each)") != NULL);
  c.reason = PL_REASON_DELETE_NO_MODULE;
  c.module = "module.child";
  T_CHECK(strstr(change_text(&c), "(because module.child is not in "
                 "configuration)") != NULL);
  c.reason = PL_REASON_DELETE_NO_MOVE_TARGET;
  c.prev_addr = "test_instance.old";
  T_CHECK(strstr(change_text(&c), "(because test_instance.old was moved to "
                 "test_instance.example[1], which is not in configuration)")
          != NULL);
}

static void test_update_hidden_and_important(void)
{
  PlChange c = chg(PL_UPDATE, O(2, "id", S("i-02ae66f368e8518a9"), "ami",
                                S("ami-BEFORE")),
                   O(2, "id", S("i-02ae66f368e8518a9"), "ami",
                     S("ami-AFTER")), &s_id_ami);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      ~ ami = \"ami-BEFORE\" -> \"ami-AFTER\"\n"
           "        id  = \"i-02ae66f368e8518a9\"\n"
           "    }");
}

static void test_update_null_values_legacy(void)
{
  static const ProvAttrSchema at[] = {
    ATTR("id", &ty_string), ATTR("ami", &ty_string),
    ATTR("unchanged", &ty_string), ATTR("empty", &ty_string)};
  static const ProvBlockSchema s = {at, 4, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_UPDATE,
                   O(4, "id", S("i-02ae66f368e8518a9"), "ami", S("ami-BEFORE"),
                     "unchanged", val_null(&ty_string), "empty", S("")),
                   O(4, "id", S("i-02ae66f368e8518a9"), "ami", S("ami-AFTER"),
                     "unchanged", val_null(&ty_string), "empty",
                     val_null(&ty_string)), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      ~ ami   = \"ami-BEFORE\" -> \"ami-AFTER\"\n"
           "        id    = \"i-02ae66f368e8518a9\"\n"
           "        # (1 unchanged attribute hidden)\n"
           "    }");
}

static void test_update_nonlegacy(void)
{
  static const ProvAttrSchema at[] = {ATTR("id", &ty_string),
                                      ATTR("from_null", &ty_dynamic),
                                      ATTR("to_null", &ty_string)};
  static const ProvBlockSchema s = {at, 3, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_UPDATE,
                   O(3, "id", S("i-02ae66f368e8518a9"), "from_null",
                     val_null(&ty_string), "to_null", S("")),
                   O(3, "id", S("i-02ae66f368e8518a9"), "from_null", S(""),
                     "to_null", val_null(&ty_string)), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      + from_null = \"\"\n"
           "        id        = \"i-02ae66f368e8518a9\"\n"
           "      - to_null   = \"\" -> null\n"
           "    }");
}

static void test_replace_forces(void)
{
  PlChange c = chg(PL_DELETE_THEN_CREATE,
                   O(2, "id", S("i-02ae66f368e8518a9"), "ami", S("ami-BEFORE")),
                   O(2, "id", S("i-02ae66f368e8518a9"), "ami", S("ami-AFTER")),
                   &s_id_ami);
  c.reason = PL_REASON_REPLACE_CANNOT_UPDATE;
  ValPath *rp = ARENA_NEW(&A, ValPath, 1);
  rp[0] = path1("ami");
  c.replace_paths = rp;
  c.nreplace_paths = 1;
  T_EQ_STR(change_text(&c),
           "  # test_instance.example must be replaced\n"
           "-/+ resource \"test_instance\" \"example\" {\n"
           "      ~ ami = \"ami-BEFORE\" -> \"ami-AFTER\" # forces replacement\n"
           "        id  = \"i-02ae66f368e8518a9\"\n"
           "    }");
  c.action = PL_CREATE_THEN_DELETE;
  c.reason = PL_REASON_REPLACE_BECAUSE_TAINTED;
  T_CHECK(strstr(change_text(&c), "  # test_instance.example is tainted, so "
                 "must be replaced\n+/- resource") != NULL);
  c.reason = PL_REASON_REPLACE_BY_REQUEST;
  T_CHECK(strstr(change_text(&c), "will be replaced, as requested\n") != NULL);
  c.reason = PL_REASON_REPLACE_BY_TRIGGERS;
  T_CHECK(strstr(change_text(&c), "will be replaced due to changes in "
                 "replace_triggered_by\n") != NULL);
}

static void test_multiline_strings(void)
{
  static const ProvAttrSchema at[] = {ATTR("id", &ty_string),
                                      ATTR("more_lines", &ty_string)};
  static const ProvBlockSchema s = {at, 2, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_UPDATE,
                   O(2, "id", S("i-02ae66f368e8518a9"), "more_lines",
                     S("original\nlong\nmulti-line\nstring\nfield")),
                   O(2, "id", UNK(), "more_lines",
                     S("original\nextremely long\nmulti-line\nstring\nfield")),
                   &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      ~ id         = \"i-02ae66f368e8518a9\" -> (known after "
           "apply)\n"
           "      ~ more_lines = <<-EOT\n"
           "            original\n"
           "          - long\n"
           "          + extremely long\n"
           "            multi-line\n"
           "            string\n"
           "            field\n"
           "        EOT\n"
           "    }");
  PlChange d = chg(PL_UPDATE,
                   O(2, "id", S("i-02ae66f368e8518a9"), "more_lines",
                     val_null(&ty_string)),
                   O(2, "id", UNK(), "more_lines", S("original\nnew line")),
                   &s);
  T_EQ_STR(change_text(&d),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      ~ id         = \"i-02ae66f368e8518a9\" -> (known after "
           "apply)\n"
           "      + more_lines = <<-EOT\n"
           "            original\n"
           "            new line\n"
           "        EOT\n"
           "    }");
  PlChange e = chg(PL_DELETE_THEN_CREATE,
                   O(2, "id", S("i-02ae66f368e8518a9"), "more_lines",
                     S("original")),
                   O(2, "id", UNK(), "more_lines", S("original\nnew line")),
                   &s);
  ValPath *rp = ARENA_NEW(&A, ValPath, 1);
  rp[0] = path1("more_lines");
  e.replace_paths = rp;
  e.nreplace_paths = 1;
  T_EQ_STR(change_text(&e),
           "  # test_instance.example must be replaced\n"
           "-/+ resource \"test_instance\" \"example\" {\n"
           "      ~ id         = \"i-02ae66f368e8518a9\" -> (known after "
           "apply)\n"
           "      ~ more_lines = <<-EOT # forces replacement\n"
           "            original\n"
           "          + new line\n"
           "        EOT\n"
           "    }");
}

static void test_forget(void)
{
  PlChange c = chg(PL_FORGET, O(2, "id", S("i-02ae66f368e8518a9"), "ami",
                                S("ami-123")), NULLOBJ(), &s_id_ami);
  T_EQ_STR(change_text(&c),
           " # test_instance.example will no longer be managed by Terraform, "
           "but will not be destroyed\n"
           " # (destroy = false is set in the configuration)\n"
           " . resource \"test_instance\" \"example\" {\n"
           "        id  = \"i-02ae66f368e8518a9\"\n"
           "        # (1 unchanged attribute hidden)\n"
           "    }");
}

static void test_sensitive(void)
{
  static const ProvAttrSchema at[] = {ATTR("id", &ty_string),
                                      SATTR("password", &ty_string),
                                      ATTR("ami", &ty_string)};
  static const ProvBlockSchema s = {at, 3, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_CREATE, NULLOBJ(),
                   O(3, "id", UNK(), "password", S("top-secret"), "ami",
                     SENS(S("ami-1"))), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be created\n"
           "  + resource \"test_instance\" \"example\" {\n"
           "      + ami      = (sensitive value)\n"
           "      + id       = (known after apply)\n"
           "      + password = (sensitive value)\n"
           "    }");
  /* A value becoming sensitive: the warning lines. */
  PlChange d = chg(PL_UPDATE, O(3, "id", S("i"), "password", S("p"), "ami",
                                S("ami-1")),
                   O(3, "id", S("i"), "password", S("p"), "ami",
                     SENS(S("ami-1"))), &s);
  T_EQ_STR(change_text(&d),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      # Warning: this attribute value will be marked as sensitive "
           "and will not\n"
           "      # display in UI output after applying this change. The value "
           "is unchanged.\n"
           "      ~ ami      = (sensitive value)\n"
           "        id       = \"i\"\n"
           "        # (1 unchanged attribute hidden)\n"
           "    }");
  PlChange e = chg(PL_DELETE, O(3, "id", S("i"), "password", S("p"), "ami",
                                S("a")), NULLOBJ(), &s);
  T_CHECK(strstr(change_text(&e), "      - password = (sensitive value) -> "
                 "null\n") != NULL);
}

/* ---- collections ---------------------------------------------------------- */

static void test_map_update(void)
{
  const Type *mt = ty_map(&A, &ty_string);
  ProvAttrSchema at[] = {ATTR("id", &ty_string), ATTR("tags", NULL),
                         ATTR("labels", NULL)};
  at[1].type = mt;
  at[2].type = mt;
  ProvBlockSchema s = {at, 3, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_UPDATE,
                   O(3, "id", S("i-1"), "tags", M(1, "Name", S("a")),
                     "labels", M(3, "a", S("1"), "b", S("2"), "cc", S("3"))),
                   O(3, "id", S("i-1"), "tags", M(1, "Name", S("a")),
                     "labels", M(3, "a", S("1"), "b", S("22"), "new",
                                 UNK())), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "        id     = \"i-1\"\n"
           "      ~ labels = {\n"
           "          ~ \"b\"   = \"2\" -> \"22\"\n"
           "          - \"cc\"  = \"3\" -> null\n"
           "          + \"new\" = (known after apply)\n"
           "            # (1 unchanged element hidden)\n"
           "        }\n"
           "        tags   = {\n"
           "            \"Name\" = \"a\"\n"
           "        }\n"
           "    }");
}

static void test_list_context(void)
{
  const Type *lt = ty_list(&A, &ty_string);
  ProvAttrSchema at[] = {ATTR("id", &ty_string), ATTR("list_field", NULL)};
  at[1].type = lt;
  ProvBlockSchema s = {at, 2, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_UPDATE,
                   O(2, "id", S("i-02ae66f368e8518a9"), "list_field",
                     L(&ty_string, 6, S("aaaa"), S("bbbb"), S("cccc"),
                       S("dddd"), S("eeee"), S("ffff"))),
                   O(2, "id", S("i-02ae66f368e8518a9"), "list_field",
                     L(&ty_string, 7, S("aaaa"), S("bbbb"), S("cccc"),
                       S("dddd"), S("eeee"), S("ffff"), S("gggg"))), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "        id         = \"i-02ae66f368e8518a9\"\n"
           "      ~ list_field = [\n"
           "            # (5 unchanged elements hidden)\n"
           "            \"ffff\",\n"
           "          + \"gggg\",\n"
           "        ]\n"
           "    }");
  PlChange d = chg(PL_UPDATE,
                   O(2, "id", S("i"), "list_field",
                     L(&ty_string, 3, S("aaaa"), S("bbbb"), S("cccc"))),
                   O(2, "id", S("i"), "list_field",
                     L(&ty_string, 3, S("aaaa"), S("xxxx"), S("cccc"))), &s);
  T_EQ_STR(change_text(&d),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "        id         = \"i\"\n"
           "      ~ list_field = [\n"
           "            \"aaaa\",\n"
           "          - \"bbbb\",\n"
           "          + \"xxxx\",\n"
           "            \"cccc\",\n"
           "        ]\n"
           "    }");
  PlChange e = chg(PL_CREATE, NULLOBJ(),
                   O(2, "id", UNK(), "list_field", L(&ty_string, 0)), &s);
  T_CHECK(strstr(change_text(&e), "      + list_field = []\n") != NULL);
}

static void test_set_update(void)
{
  const Type *st = ty_set(&A, &ty_string);
  ProvAttrSchema at[] = {ATTR("id", &ty_string), ATTR("set_field", NULL)};
  at[1].type = st;
  ProvBlockSchema s = {at, 2, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_UPDATE,
                   O(2, "id", S("i"), "set_field",
                     SET(&ty_string, 2, S("aaaa"), S("bbbb"))),
                   O(2, "id", S("i"), "set_field",
                     SET(&ty_string, 2, S("aaaa"), S("cccc"))), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "        id        = \"i\"\n"
           "      ~ set_field = [\n"
           "          - \"bbbb\",\n"
           "          + \"cccc\",\n"
           "            # (1 unchanged element hidden)\n"
           "        ]\n"
           "    }");
}

static void test_json_string(void)
{
  static const ProvAttrSchema at[] = {ATTR("id", &ty_string),
                                      ATTR("json_field", &ty_string)};
  static const ProvBlockSchema s = {at, 2, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_UPDATE,
                   O(2, "id", S("i"), "json_field",
                     S("{\"aaa\": \"value\"}")),
                   O(2, "id", S("i"), "json_field",
                     S("{\"aaa\": \"value\", \"bbb\": \"new_value\"}")), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "        id         = \"i\"\n"
           "      ~ json_field = jsonencode(\n"
           "          ~ {\n"
           "              + bbb = \"new_value\"\n"
           "                # (1 unchanged attribute hidden)\n"
           "            }\n"
           "        )\n"
           "    }");
  PlChange d = chg(PL_CREATE, NULLOBJ(),
                   O(2, "id", UNK(), "json_field", S("{\"a\":[1,2]}")), &s);
  T_EQ_STR(change_text(&d),
           "  # test_instance.example will be created\n"
           "  + resource \"test_instance\" \"example\" {\n"
           "      + id         = (known after apply)\n"
           "      + json_field = jsonencode(\n"
           "            {\n"
           "              + a = [\n"
           "                  + 1,\n"
           "                  + 2,\n"
           "                ]\n"
           "            }\n"
           "        )\n"
           "    }");
  PlChange e = chg(PL_UPDATE, O(2, "id", S("i"), "json_field", S("{}")),
                   O(2, "id", S("i"), "json_field", S("[]")), &s);
  T_CHECK(strstr(change_text(&e), "~ json_field = jsonencode({}) -> "
                 "jsonencode([])") == NULL);
}

/* ---- nested blocks -------------------------------------------------------- */

static const ProvAttrSchema blk_attrs[] = {ATTR("size", &ty_number),
                                           ATTR("volume_type", &ty_string)};
static const ProvBlockSchema blk = {blk_attrs, 2, NULL, 0, NULL, false, NULL};

static ProvBlockSchema with_block(ProvNesting nest, ProvNestedBlock *nb)
{
  static const ProvAttrSchema at[] = {ATTR("ami", &ty_string),
                                      ATTR("id", &ty_string)};
  nb->type_name = "root_block_device";
  nb->nesting = nest;
  nb->block = &blk;
  ProvBlockSchema s = {at, 2, nb, 1, NULL, false, NULL};
  return s;
}

static void test_block_list(void)
{
  ProvNestedBlock nb;
  ProvBlockSchema s = with_block(PROV_NEST_LIST, &nb);
  const Type *bt = NULL;
  Value d1 = O(2, "size", N(10), "volume_type", S("gp2"));
  Value d2 = O(2, "size", N(20), "volume_type", S("gp2"));
  bt = d1.type;
  PlChange c = chg(PL_UPDATE,
                   O(3, "ami", S("ami-BEFORE"), "id", S("i-1"),
                     "root_block_device", L(bt, 1, d1)),
                   O(3, "ami", S("ami-AFTER"), "id", S("i-1"),
                     "root_block_device", L(bt, 1, d2)), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      ~ ami = \"ami-BEFORE\" -> \"ami-AFTER\"\n"
           "        id  = \"i-1\"\n"
           "\n"
           "      ~ root_block_device {\n"
           "          ~ size        = 10 -> 20\n"
           "            # (1 unchanged attribute hidden)\n"
           "        }\n"
           "    }");
  /* Unchanged blocks are counted. */
  PlChange d = chg(PL_UPDATE,
                   O(3, "ami", S("ami-BEFORE"), "id", S("i-1"),
                     "root_block_device", L(bt, 1, d1)),
                   O(3, "ami", S("ami-AFTER"), "id", S("i-1"),
                     "root_block_device", L(bt, 1, d1)), &s);
  T_EQ_STR(change_text(&d),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      ~ ami = \"ami-BEFORE\" -> \"ami-AFTER\"\n"
           "        id  = \"i-1\"\n"
           "\n"
           "        # (1 unchanged block hidden)\n"
           "    }");
  /* Creation draws every block. */
  PlChange e = chg(PL_CREATE, NULLOBJ(),
                   O(3, "ami", S("ami-AFTER"), "id", UNK(),
                     "root_block_device", L(bt, 2, d1, d2)), &s);
  T_EQ_STR(change_text(&e),
           "  # test_instance.example will be created\n"
           "  + resource \"test_instance\" \"example\" {\n"
           "      + ami = \"ami-AFTER\"\n"
           "      + id  = (known after apply)\n"
           "\n"
           "      + root_block_device {\n"
           "          + size        = 10\n"
           "          + volume_type = \"gp2\"\n"
           "        }\n"
           "      + root_block_device {\n"
           "          + size        = 20\n"
           "          + volume_type = \"gp2\"\n"
           "        }\n"
           "    }");
}

static void test_block_set_and_map(void)
{
  ProvNestedBlock nb;
  ProvBlockSchema s = with_block(PROV_NEST_SET, &nb);
  Value d1 = O(2, "size", N(10), "volume_type", S("gp2"));
  Value d2 = O(2, "size", N(20), "volume_type", S("gp2"));
  PlChange c = chg(PL_UPDATE,
                   O(3, "ami", S("a"), "id", S("i-1"), "root_block_device",
                     SET(d1.type, 1, d1)),
                   O(3, "ami", S("a"), "id", S("i-1"), "root_block_device",
                     SET(d1.type, 1, d2)), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "        id  = \"i-1\"\n"
           "        # (1 unchanged attribute hidden)\n"
           "\n"
           "      - root_block_device {\n"
           "          - size        = 10 -> null\n"
           "          - volume_type = \"gp2\" -> null\n"
           "        }\n"
           "      + root_block_device {\n"
           "          + size        = 20\n"
           "          + volume_type = \"gp2\"\n"
           "        }\n"
           "    }");
  ProvNestedBlock nm;
  ProvBlockSchema sm = with_block(PROV_NEST_MAP, &nm);
  MapEntry *e1 = ARENA_NEW(&A, MapEntry, 1);
  e1[0].key = "a", e1[0].keylen = 1, e1[0].val = d1;
  MapEntry *e2 = ARENA_NEW(&A, MapEntry, 1);
  e2[0].key = "a", e2[0].keylen = 1, e2[0].val = d2;
  PlChange d = chg(PL_UPDATE,
                   O(3, "ami", S("a"), "id", S("i-1"), "root_block_device",
                     val_map(&A, d1.type, e1, 1)),
                   O(3, "ami", S("a"), "id", S("i-1"), "root_block_device",
                     val_map(&A, d1.type, e2, 1)), &sm);
  T_EQ_STR(change_text(&d),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "        id  = \"i-1\"\n"
           "        # (1 unchanged attribute hidden)\n"
           "\n"
           "      ~ root_block_device \"a\" {\n"
           "          ~ size        = 10 -> 20\n"
           "            # (1 unchanged attribute hidden)\n"
           "        }\n"
           "    }");
}

static void test_block_single_unknown(void)
{
  ProvNestedBlock nb;
  ProvBlockSchema s = with_block(PROV_NEST_SINGLE, &nb);
  Value d1 = O(2, "size", N(10), "volume_type", S("gp2"));
  PlChange c = chg(PL_UPDATE,
                   O(3, "ami", S("a"), "id", S("i-1"), "root_block_device", d1),
                   O(3, "ami", S("a"), "id", S("i-1"), "root_block_device",
                     val_unknown(d1.type)), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "        id  = \"i-1\"\n"
           "        # (1 unchanged attribute hidden)\n"
           "\n"
           "      ~ root_block_device {\n"
           "          ~ size        = 10 -> (known after apply)\n"
           "          ~ volume_type = \"gp2\" -> (known after apply)\n"
           "        } -> (known after apply)\n"
           "    }");
}

static void test_set_block_sensitive(void)
{
  static const ProvAttrSchema sa[] = {SATTR("secret", &ty_string)};
  static const ProvBlockSchema sb = {sa, 1, NULL, 0, NULL, false, NULL};
  ProvNestedBlock nb = {"cred", PROV_NEST_SET, &sb, 0, 0};
  static const ProvAttrSchema at[] = {ATTR("id", &ty_string)};
  ProvBlockSchema s = {at, 1, &nb, 1, NULL, false, NULL};
  Value e = O(1, "secret", S("x"));
  PlChange c = chg(PL_CREATE, NULLOBJ(),
                   O(2, "id", UNK(), "cred", SET(e.type, 1, e)), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be created\n"
           "  + resource \"test_instance\" \"example\" {\n"
           "      + id = (known after apply)\n"
           "\n"
           "      + cred {\n"
           "          # At least one attribute in this block is (or was) "
           "sensitive,\n"
           "          # so its contents will not be displayed.\n"
           "        }\n"
           "    }");
}

static void test_nested_attribute_single(void)
{
  static const ProvAttrSchema inner[] = {ATTR("from_null", &ty_dynamic),
                                         ATTR("to_null", &ty_string)};
  static const ProvObjectSchema obj = {PROV_NEST_SINGLE, inner, 2};
  static const ProvAttrSchema at[] = {
    ATTR("id", &ty_string), {"obj", NULL, &obj, PROV_OPTIONAL, NULL, NULL}};
  static const ProvBlockSchema s = {at, 2, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_UPDATE,
                   O(2, "id", S("i-02ae66f368e8518a9"), "obj",
                     O(2, "from_null", val_null(&ty_string), "to_null", S(""))),
                   O(2, "id", S("i-02ae66f368e8518a9"), "obj",
                     O(2, "from_null", S(""), "to_null", val_null(&ty_string))),
                   &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "        id  = \"i-02ae66f368e8518a9\"\n"
           "      ~ obj = {\n"
           "          + from_null = \"\"\n"
           "          - to_null   = \"\" -> null\n"
           "        }\n"
           "    }");
}

static void test_read_and_moved_import(void)
{
  PlChange c = chg(PL_READ, NULLOBJ(), O(2, "id", UNK(), "ami", S("x")),
                   &s_id_ami);
  c.mode = ST_DATA;
  c.addr = "data.test_instance.example";
  c.reason = PL_REASON_READ_CONFIG_UNKNOWN;
  T_EQ_STR(change_text(&c),
           "  # data.test_instance.example will be read during apply\n"
           "  # (config refers to values not yet known)\n"
           " <= data \"test_instance\" \"example\" {\n"
           "      + ami = \"x\"\n"
           "      + id  = (known after apply)\n"
           "    }");
  Value v = O(2, "id", S("1D5F5E9E"), "ami", S("Hello"));
  PlChange m = chg(PL_NOOP, v, v, &s_id_ami);
  m.addr = "test_instance.after";
  m.name = "after";
  m.prev_addr = "test_instance.before";
  m.importing = true;
  m.import_id = "1D5F5E9E";
  T_EQ_STR(change_text(&m),
           "  # test_instance.before has moved to test_instance.after\n"
           "  # (imported from \"1D5F5E9E\")\n"
           "    resource \"test_instance\" \"after\" {\n"
           "        ami = \"Hello\"\n"
           "        id  = \"1D5F5E9E\"\n"
           "    }");
  PlChange n = chg(PL_NOOP, v, v, &s_id_ami);
  T_EQ_STR(change_text(&n), "");
}

/* More of Terraform's TestResourceChange_primitiveTypes/JSON cases. */
static void test_terraform_oracles(void)
{
  const Type *mt = ty_map(&A, &ty_string);
  ProvAttrSchema at[] = {ATTR("id", &ty_string), ATTR("ami", &ty_string),
                         ATTR("bar", &ty_string), ATTR("foo", &ty_string),
                         ATTR("name", &ty_string), ATTR("tags", NULL)};
  at[5].type = mt;
  ProvBlockSchema s = {at, 6, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_UPDATE,
                   O(6, "id", S("i-02ae66f368e8518a9"), "ami", S("ami-BEFORE"),
                     "bar", S("bar"), "foo", S("foo"), "name", S("alice"),
                     "tags", M(1, "name", S("bob"))),
                   O(6, "id", S("i-02ae66f368e8518a9"), "ami", S("ami-AFTER"),
                     "bar", S("bar"), "foo", S("foo"), "name", S("alice"),
                     "tags", M(1, "name", S("bob"))), &s);
  T_EQ_STR(change_text(&c),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      ~ ami  = \"ami-BEFORE\" -> \"ami-AFTER\"\n"
           "        id   = \"i-02ae66f368e8518a9\"\n"
           "        name = \"alice\"\n"
           "        tags = {\n"
           "            \"name\" = \"bob\"\n"
           "        }\n"
           "        # (2 unchanged attributes hidden)\n"
           "    }");

  static const ProvAttrSchema fa[] = {ATTR("name", &ty_string),
                                      ATTR("forced", &ty_string)};
  static const ProvBlockSchema fs = {fa, 2, NULL, 0, NULL, false, NULL};
  PlChange d = chg(PL_DELETE_THEN_CREATE,
                   O(2, "name", S("name"), "forced", S("")),
                   O(2, "name", S("name"), "forced", S("example")), &fs);
  ValPath *rp = ARENA_NEW(&A, ValPath, 1);
  rp[0] = path1("forced");
  d.replace_paths = rp;
  d.nreplace_paths = 1;
  T_EQ_STR(change_text(&d),
           "  # test_instance.example must be replaced\n"
           "-/+ resource \"test_instance\" \"example\" {\n"
           "      + forced = \"example\" # forces replacement\n"
           "        name   = \"name\"\n"
           "    }");

  static const ProvAttrSchema ja[] = {ATTR("id", &ty_string),
                                      ATTR("json_field", &ty_string)};
  static const ProvBlockSchema js = {ja, 2, NULL, 0, NULL, false, NULL};
  PlChange e = chg(PL_UPDATE,
                   O(2, "id", S("i-02ae66f368e8518a9"), "json_field",
                     S("{\"aaa\": [42, {\"foo\":\"bar\"}, \"value\"]}")),
                   O(2, "id", UNK(), "json_field",
                     S("{\"aaa\": [42, {\"foo\":\"baz\"}, \"value\"]}")), &js);
  T_EQ_STR(change_text(&e),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      ~ id         = \"i-02ae66f368e8518a9\" -> (known after "
           "apply)\n"
           "      ~ json_field = jsonencode(\n"
           "          ~ {\n"
           "              ~ aaa = [\n"
           "                    42,\n"
           "                  ~ {\n"
           "                      ~ foo = \"bar\" -> \"baz\"\n"
           "                    },\n"
           "                    \"value\",\n"
           "                ]\n"
           "            }\n"
           "        )\n"
           "    }");

  static const ProvAttrSchema ci[] = {ATTR("user", &ty_string),
                                      SATTR("password", &ty_string)};
  static const ProvObjectSchema cio = {PROV_NEST_SINGLE, ci, 2};
  static const ProvAttrSchema sa[] = {
    ATTR("id", &ty_string), SATTR("password", &ty_string),
    {"conn_info", NULL, &cio, PROV_OPTIONAL, NULL, NULL}};
  static const ProvBlockSchema ss = {sa, 3, NULL, 0, NULL, false, NULL};
  PlChange f = chg(PL_CREATE, NULLOBJ(),
                   O(3, "id", UNK(), "password", S("top-secret"), "conn_info",
                     O(2, "user", S("not-secret"), "password",
                       S("top-secret"))), &ss);
  T_EQ_STR(change_text(&f),
           "  # test_instance.example will be created\n"
           "  + resource \"test_instance\" \"example\" {\n"
           "      + conn_info = {\n"
           "          + password = (sensitive value)\n"
           "          + user     = \"not-secret\"\n"
           "        }\n"
           "      + id        = (known after apply)\n"
           "      + password  = (sensitive value)\n"
           "    }");
  static const ProvAttrSchema ea[] = {ATTR("id", &ty_string),
                                      ATTR("str", &ty_string),
                                      SATTR("password", &ty_string)};
  static const ProvBlockSchema es = {ea, 3, NULL, 0, NULL, false, NULL};
  PlChange g = chg(PL_UPDATE,
                   O(3, "id", S("blah"), "str", S("before"), "password",
                     S("top-secret")),
                   O(3, "id", UNK(), "str", S("after"), "password",
                     S("top-secret")), &es);
  T_EQ_STR(change_text(&g),
           "  # test_instance.example will be updated in-place\n"
           "  ~ resource \"test_instance\" \"example\" {\n"
           "      ~ id       = \"blah\" -> (known after apply)\n"
           "      ~ str      = \"before\" -> \"after\"\n"
           "        # (1 unchanged attribute hidden)\n"
           "    }");
}

/* Values that do not match the schema are drawn, not crashed on. */
static void test_mismatched_shapes(void)
{
  ProvNestedBlock nb;
  ProvBlockSchema s = with_block(PROV_NEST_LIST, &nb);
  PlChange c = chg(PL_UPDATE,
                   O(3, "ami", N(1), "id", L(&ty_string, 1, S("x")),
                     "root_block_device", S("not a list")),
                   O(3, "ami", S("x"), "id", M(1, "k", S("v")),
                     "root_block_device", N(3)), &s);
  const char *t = change_text(&c);
  T_CHECK(strstr(t, "~ ami = 1 -> \"x\"") != NULL);
  PlChange d = chg(PL_UPDATE, S("weird"), N(2), NULL);
  T_CHECK(change_text(&d) != NULL);
  PlChange e = chg(PL_CREATE, NULLOBJ(),
                   O(1, "x", S("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]"
                                "]]]]]]]]]]]]]]]]]]]]")), NULL);
  T_CHECK(strstr(change_text(&e), "jsonencode(") != NULL);
}

/* ---- whole plans ------------------------------------------------------------ */

static void test_plan_no_changes(void)
{
  Plan p;
  memset(&p, 0, sizeof p);
  T_EQ_STR(plan_text(&p, "Terraform"),
           "\n"
           "No changes. Your infrastructure matches the configuration.\n"
           "\n"
           "Terraform has compared your real infrastructure against your "
           "configuration\n"
           "and found no differences, so no changes are needed.\n");
  T_EQ_STR(plan_text(&p, NULL),
           "\n"
           "No changes. Your infrastructure matches the configuration.\n"
           "\n"
           "cairn has compared your real infrastructure against your "
           "configuration and\n"
           "found no differences, so no changes are needed.\n");
  p.mode = PL_MODE_DESTROY;
  T_EQ_STR(plan_text(&p, "Terraform"),
           "\n"
           "No changes. No objects need to be destroyed.\n"
           "\n"
           "Either you have not created any objects yet or the existing "
           "objects were\n"
           "already deleted outside of Terraform.\n");
  p.mode = PL_MODE_REFRESH_ONLY;
  T_EQ_STR(plan_text(&p, "Terraform"),
           "\n"
           "No changes. Your infrastructure still matches the configuration."
           "\n\n"
           "Terraform has checked that the real remote objects still match "
           "the result of\n"
           "your most recent changes, and found no differences.\n");
}

static void test_plan_full(void)
{
  Plan p;
  memset(&p, 0, sizeof p);
  PlChange *cs = ARENA_NEW(&A, PlChange, 2);
  cs[0] = chg(PL_CREATE, NULLOBJ(), O(2, "id", UNK(), "ami", S("x")),
              &s_id_ami);
  cs[0].addr = "test_instance.a";
  cs[0].name = "a";
  cs[1] = chg(PL_UPDATE, O(2, "id", S("1"), "ami", S("x")),
              O(2, "id", S("1"), "ami", S("y")), &s_id_ami);
  cs[1].addr = "test_instance.b";
  cs[1].name = "b";
  p.changes = cs;
  p.nchanges = 2;
  PlOutput *os = ARENA_NEW(&A, PlOutput, 3);
  os[0].name = "a_out";
  os[0].action = PL_CREATE;
  os[0].before = val_null(&ty_dynamic);
  os[0].after = UNK();
  os[1].name = "long_name";
  os[1].action = PL_NOOP;
  os[1].before = S("same");
  os[1].after = S("same");
  os[2].name = "secret";
  os[2].action = PL_UPDATE;
  os[2].before = S("a");
  os[2].after = S("b");
  os[2].sensitive = true;
  p.outputs = os;
  p.noutputs = 3;
  T_EQ_STR(plan_text(&p, "Terraform"),
           "\n"
           "Terraform used the selected providers to generate the following "
           "execution\n"
           "plan. Resource actions are indicated with the following symbols:\n"
           "  + create\n"
           "  ~ update in-place\n"
           "\n"
           "Terraform will perform the following actions:\n"
           "\n"
           "  # test_instance.a will be created\n"
           "  + resource \"test_instance\" \"a\" {\n"
           "      + ami = \"x\"\n"
           "      + id  = (known after apply)\n"
           "    }\n"
           "\n"
           "  # test_instance.b will be updated in-place\n"
           "  ~ resource \"test_instance\" \"b\" {\n"
           "      ~ ami = \"x\" -> \"y\"\n"
           "        id  = \"1\"\n"
           "    }\n"
           "\n"
           "Plan: 1 to add, 1 to change, 0 to destroy.\n"
           "\n"
           "Changes to Outputs:\n"
           "  + a_out     = (known after apply)\n"
           "  ~ secret    = (sensitive value)\n");
}

static void test_plan_outputs_only_and_drift(void)
{
  Plan p;
  memset(&p, 0, sizeof p);
  PlOutput *os = ARENA_NEW(&A, PlOutput, 1);
  os[0].name = "x";
  os[0].action = PL_CREATE;
  os[0].before = val_null(&ty_dynamic);
  os[0].after = M(1, "k", S("v"));
  p.outputs = os;
  p.noutputs = 1;
  T_EQ_STR(plan_text(&p, "Terraform"),
           "\n"
           "Changes to Outputs:\n"
           "  + x = {\n"
           "      + k = \"v\"\n"
           "    }\n"
           "\n"
           "You can apply this plan to save these new output values to the "
           "Terraform\n"
           "state, without changing any real infrastructure.\n");

  /* Drift plus a change. */
  PlChange *dr = ARENA_NEW(&A, PlChange, 1);
  dr[0] = chg(PL_UPDATE, O(2, "id", S("1"), "ami", S("old")),
              O(2, "id", S("1"), "ami", S("new")), &s_id_ami);
  p.drift = dr;
  p.ndrift = 1;
  const char *t = plan_text(&p, "Terraform");
  const char *want =
      "\nNote: Objects have changed outside of Terraform\n\n"
                     "Terraform detected the following changes made outside "
                     "of Terraform since the\nlast \"terraform apply\" which "
                     "may have affected this plan:\n\n"
                     "  # test_instance.example has changed\n"
                     "  ~ resource \"test_instance\" \"example\" {\n"
                     "      ~ ami = \"old\" -> \"new\"\n"
                     "        id  = \"1\"\n"
                     "    }\n\n\n"
                     "Unless you have made equivalent changes to your "
                     "configuration, or ignored the\n";
  T_CHECK(strncmp(t, want, strlen(want)) == 0);
  T_CHECK(strstr(t, "\n\xe2\x94\x80") != NULL);
  /* Drift alone in a normal plan is not shown. */
  p.noutputs = 0;
  T_CHECK(strstr(plan_text(&p, "Terraform"), "Note:") == NULL);
  p.mode = PL_MODE_REFRESH_ONLY;
  T_CHECK(strstr(plan_text(&p, "Terraform"), "This is a refresh-only plan") !=
          NULL);
}

static void test_plan_color(void)
{
  Plan p;
  memset(&p, 0, sizeof p);
  PlChange *cs = ARENA_NEW(&A, PlChange, 1);
  cs[0] = chg(PL_DELETE, O(2, "id", S("1"), "ami", S("x")), NULLOBJ(),
              &s_id_ami);
  p.changes = cs;
  p.nchanges = 1;
  Buf b;
  buf_init(&b, &A);
  RenderOpts o = {true, "cairn", 0, false};
  render_plan(&b, &p, &o);
  const char *t = buf_str(&b);
  T_CHECK(strstr(t, "  \x1b[31m-\x1b[0m destroy") != NULL);
  T_CHECK(strstr(t, "\x1b[1m  # test_instance.example\x1b[0m will be "
                 "\x1b[1m\x1b[31mdestroyed\x1b[0m") != NULL);
  T_CHECK(strstr(t, " \x1b[90m-> null\x1b[0m") != NULL);
  T_CHECK(strstr(t, "\x1b[1mPlan:\x1b[0m \x1b[0m0 to add, 0 to change, 1 to "
                 "destroy.") != NULL);
}

static void test_plan_import_counts(void)
{
  Plan p;
  memset(&p, 0, sizeof p);
  PlChange *cs = ARENA_NEW(&A, PlChange, 2);
  Value v = O(2, "id", S("1"), "ami", S("x"));
  cs[0] = chg(PL_NOOP, v, v, &s_id_ami);
  cs[0].importing = true;
  cs[0].import_id = "1";
  cs[1] = chg(PL_FORGET, v, NULLOBJ(), &s_id_ami);
  cs[1].addr = "test_instance.f";
  p.changes = cs;
  p.nchanges = 2;
  const char *t = plan_text(&p, "cairn");
  T_CHECK(strstr(t, "  # test_instance.example will be imported\n"
                    "    resource \"test_instance\" \"example\" {\n"
                    "        ami = \"x\"\n"
                    "        id  = \"1\"\n    }\n") != NULL);
  T_CHECK(strstr(t, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy, "
                    "1 to forget.\n") != NULL);
  T_CHECK(strstr(t, "will no longer be managed by cairn") != NULL);
}

/* ---- state objects ---------------------------------------------------------- */

static void test_state_object(void)
{
  static const ProvAttrSchema nat[] = {ATTR("compute", &ty_string),
                                       ATTR("value", &ty_string)};
  static const ProvBlockSchema nbk = {nat, 2, NULL, 0, NULL, false, NULL};
  static const ProvNestedBlock nb[] = {{"nested", PROV_NEST_LIST, &nbk, 0, 0}};
  static const ProvAttrSchema at[] = {ATTR("id", &ty_string),
                                      ATTR("foo", &ty_string),
                                      ATTR("woozles", &ty_string)};
  static const ProvBlockSchema s = {at, 3, nb, 1, NULL, false, NULL};
  Value n = O(2, "compute", val_null(&ty_string), "value", S("42"));
  Value obj = O(4, "id", val_null(&ty_string), "foo", val_null(&ty_string),
                "woozles", S("confuzles"), "nested", L(n.type, 1, n));
  Buf b;
  buf_init(&b, &A);
  render_object(&b, "test_resource.baz[0]", ST_MANAGED, "test_resource",
                "baz", NULL, false, obj, &s, NULL);
  T_EQ_STR(buf_str(&b),
           "# test_resource.baz[0]:\n"
           "resource \"test_resource\" \"baz\" {\n"
           "    woozles = \"confuzles\"\n"
           "\n"
           "    nested {\n"
           "        value = \"42\"\n"
           "    }\n"
           "}\n");
  buf_clear(&b);
  render_object(&b, "test_resource.baz[0]", ST_MANAGED, "test_resource",
                "baz", "1234", false, obj, &s, NULL);
  T_CHECK(strncmp(buf_str(&b), "# test_resource.baz[0]: (deposed object "
                  "1234)\nresource", 50) == 0);
  buf_clear(&b);
  Value d = O(2, "compute", S("sure"), "value", val_null(&ty_string));
  render_object(&b, "data.test_data_source.data", ST_DATA, "test_data_source",
                "data", NULL, true, d, NULL, NULL);
  T_EQ_STR(buf_str(&b),
           "# data.test_data_source.data: (tainted)\n"
           "data \"test_data_source\" \"data\" {\n"
           "    compute = \"sure\"\n"
           "}\n");
}

static void test_render_value(void)
{
  Buf b;
  buf_init(&b, &A);
  render_value(&b, M(2, "first", S("foo"), "second", S("bar")), false, 0,
               NULL);
  T_EQ_STR(buf_str(&b), "{\n    \"first\"  = \"foo\"\n"
                        "    \"second\" = \"bar\"\n}");
  buf_clear(&b);
  render_value(&b, S("secret!!!"), true, 0, NULL);
  T_EQ_STR(buf_str(&b), "(sensitive value)");
  buf_clear(&b);
  render_value(&b, N(42), false, 0, NULL);
  T_EQ_STR(buf_str(&b), "42");
  buf_clear(&b);
  render_value(&b, S("a\tb\x01\xff"), false, 0, NULL);
  T_EQ_STR(buf_str(&b), "\"a\\tb\\x01\\xff\"");
}

static void test_wrap(void)
{
  Buf b;
  buf_init(&b, &A);
  render_wrap(&b, "aaa bbb ccc\n  keep   this line\nddd", 8);
  T_EQ_STR(buf_str(&b), "aaa bbb\nccc\n  keep   this line\nddd");
}

/* Hostile input: a long list diff stays fast (prefix/suffix fallback). */
static void test_big_list(void)
{
  const uint32_t n = 5000;
  Value *x = ARENA_NEW(&A, Value, n);
  Value *y = ARENA_NEW(&A, Value, n);
  for (uint32_t i = 0; i < n; i++) {
    x[i] = N((int64_t)i);
    y[i] = N((int64_t)(i == n / 2 ? 999999 : i));
  }
  const Type *lt = ty_list(&A, &ty_number);
  ProvAttrSchema at[] = {ATTR("id", &ty_string), ATTR("l", NULL)};
  at[1].type = lt;
  ProvBlockSchema s = {at, 2, NULL, 0, NULL, false, NULL};
  PlChange c = chg(PL_UPDATE,
                   O(2, "id", S("i"), "l", val_list(&A, &ty_number, x, n)),
                   O(2, "id", S("i"), "l", val_list(&A, &ty_number, y, n)),
                   &s);
  const char *t = change_text(&c);
  T_CHECK(strstr(t, "          - 2500,\n          + 999999,\n") != NULL);
  T_CHECK(strstr(t, "# (2498 unchanged elements hidden)") != NULL);
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_create_unknown_id);
  T_RUN(test_create_quoted_object_keys);
  T_RUN(test_delete_and_deposed);
  T_RUN(test_delete_reasons);
  T_RUN(test_update_hidden_and_important);
  T_RUN(test_update_null_values_legacy);
  T_RUN(test_update_nonlegacy);
  T_RUN(test_replace_forces);
  T_RUN(test_multiline_strings);
  T_RUN(test_forget);
  T_RUN(test_sensitive);
  T_RUN(test_map_update);
  T_RUN(test_list_context);
  T_RUN(test_set_update);
  T_RUN(test_json_string);
  T_RUN(test_block_list);
  T_RUN(test_block_set_and_map);
  T_RUN(test_block_single_unknown);
  T_RUN(test_set_block_sensitive);
  T_RUN(test_nested_attribute_single);
  T_RUN(test_read_and_moved_import);
  T_RUN(test_terraform_oracles);
  T_RUN(test_mismatched_shapes);
  T_RUN(test_plan_no_changes);
  T_RUN(test_plan_full);
  T_RUN(test_plan_outputs_only_and_drift);
  T_RUN(test_plan_color);
  T_RUN(test_plan_import_counts);
  T_RUN(test_state_object);
  T_RUN(test_render_value);
  T_RUN(test_wrap);
  T_RUN(test_big_list);
  int rc = t_done("render");
  arena_release(&A);
  return rc;
}
