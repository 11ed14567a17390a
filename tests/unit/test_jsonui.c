/*
** test_jsonui: the -json UI stream, golden lines with a fixed clock.
*/
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "views/jsonui.h"

static Arena A;

static const char *fixed_now(void *ctx)
{
  (void)ctx;
  return "2024-05-01T10:11:12.123456+02:00";
}

#define ENV(lvl, msg) \
  "{\"@level\":\"" lvl "\",\"@message\":\"" msg "\",\"@module\":" \
  "\"terraform.ui\",\"@timestamp\":\"2024-05-01T10:11:12.123456+02:00\","

static JUi ui(Buf *b)
{
  buf_init(b, &A);
  JUi u = {b, fixed_now, NULL};
  return u;
}

static PlChange change(const char *addr, PlAction a)
{
  PlChange c;
  memset(&c, 0, sizeof c);
  c.addr = addr;
  c.module = "";
  c.mode = ST_MANAGED;
  c.type = "null_resource";
  c.name = "a";
  c.action = a;
  c.key = st_nokey();
  return c;
}

#define RES_A                                                            \
  "{\"addr\":\"null_resource.a\",\"module\":\"\",\"resource\":"         \
  "\"null_resource.a\",\"implied_provider\":\"null\",\"resource_type\":" \
  "\"null_resource\",\"resource_name\":\"a\",\"resource_key\":null}"

static void test_version(void)
{
  Buf b;
  JUi u = ui(&b);
  jui_version(&u);
  T_EQ_STR(buf_str(&b), ENV("info", "cairn " CAIRN_VERSION)
           "\"terraform\":\"" CAIRN_VERSION "\",\"type\":\"version\","
           "\"ui\":\"1.2\"}\n");
}

static void test_log(void)
{
  Buf b;
  JUi u = ui(&b);
  jui_log(&u, "info", "a <b> & \"c\"");
  T_EQ_STR(buf_str(&b), ENV("info", "a \\u003cb\\u003e \\u0026 \\\"c\\\"")
           "\"type\":\"log\"}\n");
}

static void test_planned_change(void)
{
  Buf b;
  JUi u = ui(&b);
  PlChange c = change("null_resource.a", PL_CREATE);
  jui_planned_change(&u, &c);
  T_EQ_STR(buf_str(&b), ENV("info", "null_resource.a: Plan to create")
           "\"change\":{\"resource\":" RES_A ",\"action\":\"create\"},"
           "\"type\":\"planned_change\"}\n");
}

static void test_planned_replace_keyed_module(void)
{
  Buf b;
  JUi u = ui(&b);
  PlChange c = change("module.m[\"x\"].null_resource.a[2]",
                      PL_DELETE_THEN_CREATE);
  c.module = "module.m[\"x\"]";
  c.key = st_intkey(2);
  c.reason = PL_REASON_REPLACE_BECAUSE_TAINTED;
  jui_planned_change(&u, &c);
  T_EQ_STR(buf_str(&b),
           ENV("info", "module.m[\\\"x\\\"].null_resource.a[2]: Plan to "
               "replace")
           "\"change\":{\"resource\":{\"addr\":\"module.m[\\\"x\\\"]."
           "null_resource.a[2]\",\"module\":\"module.m[\\\"x\\\"]\","
           "\"resource\":\"null_resource.a[2]\",\"implied_provider\":"
           "\"null\",\"resource_type\":\"null_resource\",\"resource_name\":"
           "\"a\",\"resource_key\":2},\"action\":\"replace\",\"reason\":"
           "\"tainted\"},\"type\":\"planned_change\"}\n");
}

static void test_move_and_import(void)
{
  Buf b;
  JUi u = ui(&b);
  PlChange c = change("null_resource.a", PL_NOOP);
  c.prev_addr = "data.null_data_source.old[\"k\"]";
  jui_planned_change(&u, &c);
  T_EQ_STR(buf_str(&b), ENV("info", "null_resource.a: Plan to move")
           "\"change\":{\"resource\":" RES_A ",\"previous_resource\":{"
           "\"addr\":\"data.null_data_source.old[\\\"k\\\"]\",\"module\":"
           "\"\",\"resource\":\"data.null_data_source.old[\\\"k\\\"]\","
           "\"implied_provider\":\"null\",\"resource_type\":"
           "\"null_data_source\",\"resource_name\":\"old\",\"resource_key\":"
           "\"k\"},\"action\":\"move\"},\"type\":\"planned_change\"}\n");

  JUi u2 = ui(&b);
  PlChange d = change("null_resource.a", PL_NOOP);
  d.importing = true;
  d.import_id = "i-123";
  jui_planned_change(&u2, &d);
  T_EQ_STR(buf_str(&b), ENV("info", "null_resource.a: Plan to import")
           "\"change\":{\"resource\":" RES_A ",\"action\":\"import\","
           "\"importing\":{\"id\":\"i-123\"}},\"type\":\"planned_change\"}\n");
}

static void test_planned_changes_filter(void)
{
  Buf b;
  JUi u = ui(&b);
  PlChange cs[3];
  cs[0] = change("data.null_data_source.d", PL_DELETE);
  cs[0].mode = ST_DATA;
  cs[1] = change("null_resource.a", PL_NOOP);
  cs[2] = change("null_resource.b", PL_DELETE);
  cs[2].name = "b";
  Plan p;
  memset(&p, 0, sizeof p);
  p.changes = cs;
  p.nchanges = 3;
  jui_planned_changes(&u, &p);
  T_CHECK(strstr(buf_str(&b), "null_resource.b: Plan to delete") != NULL);
  T_CHECK(strstr(buf_str(&b), "null_data_source") == NULL);
  T_CHECK(strstr(buf_str(&b), "null_resource.a") == NULL);
}

static void test_drift(void)
{
  Buf b;
  JUi u = ui(&b);
  PlChange c = change("null_resource.a", PL_UPDATE);
  jui_resource_drift(&u, &c);
  T_EQ_STR(buf_str(&b), ENV("info", "null_resource.a: Drift detected "
                                    "(update)")
           "\"change\":{\"resource\":" RES_A ",\"action\":\"update\"},"
           "\"type\":\"resource_drift\"}\n");
}

static void test_summary(void)
{
  Buf b;
  JUi u = ui(&b);
  PlCounts n = {1, 2, 3, 0, 0, 0};
  jui_change_summary(&u, n, "plan");
  T_EQ_STR(buf_str(&b), ENV("info", "Plan: 1 to add, 2 to change, 3 to "
                                    "destroy.")
           "\"changes\":{\"add\":1,\"change\":2,\"import\":0,\"remove\":3,"
           "\"operation\":\"plan\"},\"type\":\"change_summary\"}\n");
  buf_clear(&b);
  n.import = 4;
  jui_change_summary(&u, n, "apply");
  T_CHECK(strstr(buf_str(&b), "\"@message\":\"Apply complete! Resources: "
                              "4 imported, 1 added, 2 changed, 3 "
                              "destroyed.\"") != NULL);
  buf_clear(&b);
  jui_change_summary(&u, n, "destroy");
  T_CHECK(strstr(buf_str(&b), "\"@message\":\"Destroy complete! "
                              "Resources: 3 destroyed.\"") != NULL);
  buf_clear(&b);
  jui_change_summary(&u, n, "plan");
  T_CHECK(strstr(buf_str(&b), "Plan: 4 to import, 1 to add") != NULL);
}

static void test_apply_hooks(void)
{
  Buf b;
  JUi u = ui(&b);
  PlChange c = change("null_resource.a", PL_CREATE);
  jui_apply_start(&u, &c, NULL, NULL);
  T_EQ_STR(buf_str(&b), ENV("info", "null_resource.a: Creating...")
           "\"hook\":{\"resource\":" RES_A ",\"action\":\"create\"},"
           "\"type\":\"apply_start\"}\n");
  buf_clear(&b);
  jui_apply_progress(&u, &c, 10);
  T_EQ_STR(buf_str(&b), ENV("info", "null_resource.a: Still creating... "
                                    "[10s elapsed]")
           "\"hook\":{\"resource\":" RES_A ",\"action\":\"create\","
           "\"elapsed_seconds\":10},\"type\":\"apply_progress\"}\n");
  buf_clear(&b);
  jui_apply_complete(&u, &c, "id", "123", 0);
  T_EQ_STR(buf_str(&b), ENV("info", "null_resource.a: Creation complete "
                                    "after 0s [id=123]")
           "\"hook\":{\"resource\":" RES_A ",\"action\":\"create\","
           "\"id_key\":\"id\",\"id_value\":\"123\",\"elapsed_seconds\":0},"
           "\"type\":\"apply_complete\"}\n");
  buf_clear(&b);
  PlChange d = change("null_resource.a", PL_DELETE);
  jui_apply_start(&u, &d, "id", "123");
  T_CHECK(strstr(buf_str(&b), "\"@message\":\"null_resource.a: "
                              "Destroying... [id=123]\"") != NULL);
  buf_clear(&b);
  jui_apply_errored(&u, &d, 75);
  T_EQ_STR(buf_str(&b), ENV("info", "null_resource.a: Destruction errored "
                                    "after 1m15s")
           "\"hook\":{\"resource\":" RES_A ",\"action\":\"delete\","
           "\"elapsed_seconds\":75},\"type\":\"apply_errored\"}\n");
  buf_clear(&b);
  PlChange m = change("null_resource.a", PL_UPDATE);
  jui_apply_complete(&u, &m, NULL, NULL, 3600);
  T_CHECK(strstr(buf_str(&b), "Modifications complete after 1h0m0s\"") !=
          NULL);
}

static void test_duration(void)
{
  Buf b;
  buf_init(&b, &A);
  jui_duration(&b, 0);
  buf_putc(&b, ' ');
  jui_duration(&b, 59);
  buf_putc(&b, ' ');
  jui_duration(&b, 60);
  buf_putc(&b, ' ');
  jui_duration(&b, 3725);
  T_EQ_STR(buf_str(&b), "0s 59s 1m0s 1h2m5s");
}

static void test_refresh(void)
{
  Buf b;
  JUi u = ui(&b);
  State *s = st_new(&A);
  StResource *r = st_ensure_resource(s, "module.m", ST_DATA, "local_file",
                                     "f", "provider[\"x\"]");
  jui_refresh_start(&u, r, st_strkey(&A, "k", 1), "id", "abc");
  T_EQ_STR(buf_str(&b),
           ENV("info", "module.m.data.local_file.f[\\\"k\\\"]: Refreshing "
               "state... [id=abc]")
           "\"hook\":{\"resource\":{\"addr\":\"module.m.data.local_file.f["
           "\\\"k\\\"]\",\"module\":\"module.m\",\"resource\":\"data."
           "local_file.f[\\\"k\\\"]\",\"implied_provider\":\"local\","
           "\"resource_type\":\"local_file\",\"resource_name\":\"f\","
           "\"resource_key\":\"k\"},\"id_key\":\"id\",\"id_value\":\"abc\"},"
           "\"type\":\"refresh_start\"}\n");
  buf_clear(&b);
  jui_refresh_complete(&u, r, st_strkey(&A, "k", 1), NULL, NULL);
  T_CHECK(strstr(buf_str(&b), "f[\\\"k\\\"]: Refresh complete\"") != NULL);
  T_CHECK(strstr(buf_str(&b), "\"type\":\"refresh_complete\"}\n") != NULL);
}

static void test_provision(void)
{
  Buf b;
  JUi u = ui(&b);
  PlChange c = change("null_resource.a", PL_CREATE);
  jui_provision_progress(&u, &c, "local-exec", "hello");
  T_EQ_STR(buf_str(&b), ENV("info", "null_resource.a: (local-exec): hello")
           "\"hook\":{\"resource\":" RES_A ",\"provisioner\":"
           "\"local-exec\",\"output\":\"hello\"},\"type\":"
           "\"provision_progress\"}\n");
  buf_clear(&b);
  jui_provision_start(&u, &c, "local-exec");
  T_CHECK(strstr(buf_str(&b), "Provisioning with 'local-exec'...") != NULL);
}

static void test_outputs(void)
{
  Buf b;
  JUi u = ui(&b);
  PlOutput o[2];
  memset(o, 0, sizeof o);
  o[0].name = "a";
  o[0].action = PL_CREATE;
  o[1].name = "b";
  o[1].action = PL_NOOP;
  o[1].sensitive = true;
  jui_outputs(&u, o, 2);
  T_EQ_STR(buf_str(&b), ENV("info", "Outputs: 2")
           "\"outputs\":{\"a\":{\"sensitive\":false,\"action\":\"create\"},"
           "\"b\":{\"sensitive\":true,\"action\":\"noop\"}},\"type\":"
           "\"outputs\"}\n");

  buf_clear(&b);
  State *s = st_new(&A);
  st_set_output(s, "pw", val_cstr(&A, "hunter2"), &ty_string, true);
  Value els[2] = {val_int(1), val_int(2)};
  st_set_output(s, "xs", val_list(&A, &ty_number, els, 2),
                ty_list(&A, &ty_number), false);
  jui_outputs_state(&u, s);
  T_EQ_STR(buf_str(&b), ENV("info", "Outputs: 2")
           "\"outputs\":{\"pw\":{\"sensitive\":true,\"type\":\"string\"},"
           "\"xs\":{\"sensitive\":false,\"type\":[\"list\",\"number\"],"
           "\"value\":[1,2]}},\"type\":\"outputs\"}\n");
}

static void test_diagnostic(void)
{
  Buf b;
  JUi u = ui(&b);
  Diags d;
  diag_init(&d, &A);
  diag_warning(&d, NULL, "Careful", "Some detail");
  diag_error(&d, NULL, "Broken", NULL);
  jui_diagnostics(&u, &d, NULL);
  const char *s = buf_str(&b);
  T_CHECK(strncmp(s, ENV("warn", "Warning: Careful") "\"diagnostic\":{"
                  "\"severity\":\"warning\",\"summary\":\"Careful\","
                  "\"detail\":\"Some detail\"},\"type\":\"diagnostic\"}\n",
                  strlen(ENV("warn", "Warning: Careful"))) == 0);
  T_CHECK(strstr(s, "\"severity\":\"warning\",\"summary\":\"Careful\"") !=
          NULL);
  const char *second = strchr(s, '\n');
  T_CHECK(second != NULL);
  if (second)
    T_CHECK(strncmp(second + 1, ENV("error", "Error: Broken"),
                    strlen(ENV("error", "Error: Broken"))) == 0);
  T_CHECK(strstr(s, "\"type\":\"diagnostic\"}\n") != NULL);
}

static void test_real_clock(void)
{
  Buf b;
  buf_init(&b, &A);
  JUi u = {&b, NULL, NULL};
  jui_log(&u, "info", "x");
  const char *s = buf_str(&b);
  const char *ts = strstr(s, "\"@timestamp\":\"");
  T_CHECK(ts != NULL);
  if (!ts)
    return;
  ts += 14;
  /* 2024-05-01T10:11:12.123456 then Z or +hh:mm */
  T_CHECK(ts[4] == '-' && ts[7] == '-' && ts[10] == 'T' && ts[13] == ':' &&
          ts[19] == '.');
  T_CHECK(ts[26] == 'Z' || ((ts[26] == '+' || ts[26] == '-') &&
                            ts[29] == ':'));
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_version);
  T_RUN(test_log);
  T_RUN(test_planned_change);
  T_RUN(test_planned_replace_keyed_module);
  T_RUN(test_move_and_import);
  T_RUN(test_planned_changes_filter);
  T_RUN(test_drift);
  T_RUN(test_summary);
  T_RUN(test_apply_hooks);
  T_RUN(test_duration);
  T_RUN(test_refresh);
  T_RUN(test_provision);
  T_RUN(test_outputs);
  T_RUN(test_diagnostic);
  T_RUN(test_real_clock);
  arena_release(&A);
  return t_done("jsonui");
}
