/* Unit tests for core/config/config_action.c: Terraform 1.14 `action`
** blocks and lifecycle action_trigger blocks (docs/actions.md). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/* Writes text as main.tf of a fresh directory and loads it into a. */
static CfgModule *load_text(Arena *a, Diags *d, SrcFiles *fs,
                            const char *text)
{
  static char dir[64];
  snprintf(dir, sizeof dir, "/tmp/cairn-tca-XXXXXX");
  T_CHECK(mkdtemp(dir) != NULL);
  char path[128];
  snprintf(path, sizeof path, "%s/main.tf", dir);
  FILE *f = fopen(path, "w");
  T_CHECK(f != NULL);
  fputs(text, f);
  fclose(f);
  arena_init(a, 0);
  diag_init(d, a);
  diag_files_init(fs, a);
  CfgModule *m = cfg_load_dir(a, dir, fs, d);
  unlink(path);
  rmdir(dir);
  return m;
}

/* A valid configuration: the action block and the triggers decode with
** their events, condition, references and keys. */
static void test_decode(void)
{
  Arena a;
  Diags d;
  SrcFiles fs;
  CfgModule *m = load_text(&a, &d, &fs,
      "resource \"terraform_data\" \"r\" {\n"
      "  for_each = toset([\"a\"])\n"
      "  lifecycle {\n"
      "    action_trigger {\n"
      "      events    = [before_create, after_update]\n"
      "      condition = true\n"
      "      actions   = [action.local_command.x, action.local_command.y[each.key],\n"
      "                   action.local_command.z[\"k\"]]\n"
      "    }\n"
      "  }\n"
      "}\n"
      "action \"local_command\" \"x\" {\n"
      "  provider = local.alt\n"
      "  config {\n"
      "    command = \"true\"\n"
      "  }\n"
      "}\n"
      "action \"local_command\" \"y\" {\n"
      "  for_each = toset([\"a\"])\n"
      "}\n"
      "action \"local_command\" \"z\" {\n"
      "  for_each = toset([\"k\"])\n"
      "}\n");
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(m->nactions, 3);
  const CfgAction *x = cfg_action(m, "local_command", "x");
  T_CHECK(x && x->config && !x->count && !x->for_each);
  T_EQ_STR(x ? x->provider.alias : "", "alt");
  T_EQ_STR(x ? cfg_action_provider_name(x) : "", "local");
  const CfgAction *y = cfg_action(m, "local_command", "y");
  T_CHECK(y && !y->config && y->for_each);
  T_CHECK(cfg_action(m, "local_command", "nope") == NULL);
  const CfgResource *r = cfg_resource(m, CFG_MANAGED, "terraform_data", "r");
  T_CHECK(r != NULL);
  if (!r) {
    arena_release(&a);
    return;
  }
  T_EQ_INT(r->naction_triggers, 1);
  const CfgActionTrigger *t = &r->action_triggers[0];
  T_EQ_INT(t->events, CFG_EV_BEFORE_CREATE | CFG_EV_AFTER_UPDATE);
  T_CHECK(t->condition != NULL);
  T_EQ_INT(t->nactions, 3);
  T_EQ_STR(t->actions[0].name, "x");
  T_CHECK(!t->actions[0].key && !t->actions[0].key_value);
  T_EQ_STR(t->actions[1].name, "y");
  T_CHECK(t->actions[1].key != NULL);
  T_EQ_STR(t->actions[2].name, "z");
  T_CHECK(t->actions[2].key_value &&
          t->actions[2].key_value->type->kind == TY_STRING);
  T_EQ_STR(t->actions[2].key_value ? t->actions[2].key_value->u.s : "", "k");
  arena_release(&a);
}

/* Terraform's diagnostics for misuse, one each. */
static void test_errors(void)
{
  Arena a;
  Diags d;
  SrcFiles fs;
  load_text(&a, &d, &fs,
      "resource \"terraform_data\" \"r\" {\n"
      "  lifecycle {\n"
      "    action_trigger {\n"
      "      events  = [after_create, after_destroy, later, after_create]\n"
      "      actions = [action.local_command.nope, terraform_data.r,\n"
      "                 module.m.out, local.x]\n"
      "    }\n"
      "    action_trigger {\n"
      "      events  = []\n"
      "      actions = []\n"
      "    }\n"
      "  }\n"
      "}\n"
      "data \"terraform_remote_state\" \"d\" {\n"
      "  lifecycle {\n"
      "    action_trigger {\n"
      "      events  = [after_create]\n"
      "      actions = [action.local_command.a]\n"
      "    }\n"
      "  }\n"
      "}\n"
      "action \"local_command\" \"a\" {\n"
      "  count    = 1\n"
      "  for_each = {}\n"
      "  linked_resources = [terraform_data.r]\n"
      "}\n"
      "action \"local_command\" \"a\" {\n"
      "}\n"
      "action \"local_command\" \"b\" {\n"
      "  config {}\n"
      "  config {}\n"
      "}\n"
      "action \"local_command\" \"0bad\" {\n"
      "}\n");
  T_EQ_INT(count_summary(&d, "Invalid destroy event used"), 1);
  T_EQ_INT(count_summary(&d, "Invalid \"event\" value later"), 1);
  T_EQ_INT(count_summary(&d, "Duplicate \"after_create\" event"), 1);
  T_EQ_INT(count_summary(&d, "Reference to undeclared action"), 1);
  T_EQ_INT(count_summary(&d,
                         "Invalid action argument inside action_triggers"), 1);
  T_EQ_INT(count_summary(&d,
                         "Invalid reference to action outside this module"),
           1);
  /* local.x has no action and is no resource: "No actions specified", as
  ** is the empty list of the second trigger */
  T_EQ_INT(count_summary(&d, "No actions specified"), 2);
  T_EQ_INT(count_summary(&d, "No events specified"), 1);
  T_EQ_INT(count_summary(&d, "Unsupported block type"), 1);   /* data */
  T_EQ_INT(count_summary(&d,
                         "Invalid combination of \"count\" and \"for_each\""),
           1);
  T_EQ_INT(count_summary(&d, "Unsupported argument"), 1);
  T_EQ_INT(count_summary(&d, "Duplicate action \"local_command\" "
                             "configuration"), 1);
  T_EQ_INT(count_summary(&d, "Duplicate config block"), 1);
  T_EQ_INT(count_summary(&d, "Invalid action name"), 1);
  arena_release(&a);
}

/* JSON syntax: actions are strings holding references. */
static void test_json(void)
{
  static char dir[64];
  snprintf(dir, sizeof dir, "/tmp/cairn-tca-XXXXXX");
  T_CHECK(mkdtemp(dir) != NULL);
  char path[128];
  snprintf(path, sizeof path, "%s/main.tf.json", dir);
  FILE *f = fopen(path, "w");
  T_CHECK(f != NULL);
  fputs("{\"resource\": {\"terraform_data\": {\"r\": {\"lifecycle\": "
        "[{\"action_trigger\": [{\"events\": [\"after_create\"], "
        "\"actions\": [\"action.local_command.x\"]}]}]}}},"
        "\"action\": {\"local_command\": {\"x\": {\"config\": "
        "{\"command\": \"true\"}}}}}", f);
  fclose(f);
  Arena a;
  Diags d;
  SrcFiles fs;
  arena_init(&a, 0);
  diag_init(&d, &a);
  diag_files_init(&fs, &a);
  CfgModule *m = cfg_load_dir(&a, dir, &fs, &d);
  unlink(path);
  rmdir(dir);
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(m->nactions, 1);
  const CfgResource *r = cfg_resource(m, CFG_MANAGED, "terraform_data", "r");
  T_CHECK(r && r->naction_triggers == 1);
  if (r && r->naction_triggers == 1) {
    T_EQ_INT(r->action_triggers[0].events, CFG_EV_AFTER_CREATE);
    T_EQ_INT(r->action_triggers[0].nactions, 1);
    T_EQ_STR(r->action_triggers[0].actions[0].type, "local_command");
  }
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_decode);
  T_RUN(test_errors);
  T_RUN(test_json);
  return t_done("test_config_action");
}
