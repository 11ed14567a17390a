/*
** cmd_apply: `cairn apply [PLANFILE]` and `cairn destroy`.
*/
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cmd_op.h"
#include "engine/planfile.h"
#include "views/render.h"

int cmd_plan_run(Op *op, PlMode mode, bool applying, Plan **out);

/* Applies p to a copy of its prior state, commits, prints the summary. */
static int do_apply(Op *op, Plan *p, bool destroy)
{
  State *work = st_clone(op->a, p->prior_state);
  work->lineage = op->state->lineage;
  work->serial = op->state->serial;
  bool ok = eng_apply(op->e, p, work, &op->mgr, &op->d);
  Diags cd;
  diag_init(&cd, op->a);
  bool committed = stmgr_commit(&op->mgr, work, &cd);
  diag_move(&op->d, &cd);
  op_flush_diags(op);
  if (!ok || !committed)
    return 1;
  if (op->json) {
    PlCounts c = {op->added, op->changed, op->destroyed, op->imported, 0,
                  0};
    jui_change_summary(&op->ui, c, destroy ? "destroy" : "apply");
    cli_out_buf(op->cli, &op->uibuf);
    buf_clear(&op->uibuf);
  } else if (destroy) {
    cli_out(op->cli, "\n%sDestroy complete! Resources: %u destroyed.%s\n",
            op->cli->color ? "\x1b[0m\x1b[1m\x1b[32m" : "", op->destroyed,
            op->cli->color ? "\x1b[0m" : "");
  } else {
    char imp[32] = "", acts[64] = "";
    if (op->imported)
      snprintf(imp, sizeof imp, "%u imported, ", op->imported);
    if (op->invoked && op->invoke_failed)
      snprintf(acts, sizeof acts, " Actions: %u invoked, %u failed.",
               op->invoked, op->invoke_failed);
    else if (op->invoked)
      snprintf(acts, sizeof acts, " Actions: %u invoked.", op->invoked);
    cli_out(op->cli,
            "\n%sApply complete! Resources: %s%u added, %u changed, %u "
            "destroyed.%s%s\n", op->cli->color ? "\x1b[0m\x1b[1m\x1b[32m" : "",
            imp, op->added, op->changed, op->destroyed, acts,
            op->cli->color ? "\x1b[0m" : "");
  }
  if (!destroy)
    op_print_outputs(op, work);
  return 0;
}

/* The root variables of `apply PLANFILE`, as Terraform 1.10+'s local
** backend and core take them (backend_apply.go, checkApplyTimeVariables):
** the plan's values, plus the ephemeral ones set at plan ("apply-time":
** the plan file keeps only their names), which must be given again here
** from -var, -var-file, TF_VAR_ or the .tfvars files, and nothing else.
** A non-ephemeral variable given a different value is an error from -var
** or -var-file, a warning from the environment, ignored from an automatic
** .tfvars file.  False with diagnostics in op->d. */
static bool saved_plan_vars(Op *op, Plan *p)
{
  VarsInput in;
  memset(&in, 0, sizeof in);
  in.args = op->vargs;
  in.nargs = op->nvargs;
  in.dir = ".";
  in.environ = environ;
  in.allow_unset = true;        /* the plan's values stand in */
  PlVariable *cur;
  uint32_t ncur;
  if (!vars_collect(op->a, op->m, &in, &op->cli->files, &cur, &ncur,
                    &op->d))
    return false;
  PlVariable *out = ARENA_NEW(op->a, PlVariable, p->nvars ? p->nvars : 1);
  for (uint32_t i = 0; i < p->nvars; i++) {
    const PlVariable *pv = &p->vars[i];
    const PlVariable *cv = NULL;
    for (uint32_t k = 0; k < ncur && !cv; k++)
      if (strcmp(cur[k].name, pv->name) == 0)
        cv = &cur[k];
    out[i] = *pv;
    if (!cv)
      continue;                 /* no longer declared: config hash refused */
    if (pv->ephemeral || cv->ephemeral) {
      if (!pv->apply_time && cv->src != PL_VAR_UNSET) {
        diag_error(&op->d, NULL,
                   "Ephemeral variable was not set during planning",
                   "The ephemeral input variable \"%s\" was not set during "
                   "the planning phase, and so must remain unset during the "
                   "apply phase.", pv->name);
      } else if (pv->apply_time && cv->src == PL_VAR_UNSET) {
        diag_error(&op->d, NULL, "No value for required variable",
                   "The ephemeral input variable \"%s\" was set during the "
                   "plan phase, and so must also be set during the apply "
                   "phase.", pv->name);
      } else if (pv->apply_time && val_is_null(cv->value)) {
        diag_error(&op->d, NULL, "Ephemeral variable must be set for apply",
                   "The ephemeral input variable \"%s\" was set during the "
                   "planning phase, and so must be set again during the "
                   "apply phase.", pv->name);
      } else if (pv->apply_time) {
        out[i].value = cv->value;
      } else {
        out[i].value = cv->value;   /* unset then and now: the default */
      }
      continue;
    }
    if (cv->src == PL_VAR_UNSET || cv->src == PL_VAR_AUTO ||
        !cv->value.type || val_raw_equal(cv->value, pv->value, false))
      continue;
    Buf was, now;
    buf_init(&was, op->a);
    buf_init(&now, op->a);
    vars_compact_value(&was, pv->sensitive ? val_sensitive(pv->value)
                                           : pv->value);
    vars_compact_value(&now, pv->sensitive ? val_sensitive(cv->value)
                                           : cv->value);
    bool env = cv->src == PL_VAR_ENV;
    diag_add(&op->d, env ? DIAG_WARNING : DIAG_ERROR, NULL,
             env ? "Ignoring variable when applying a saved plan"
                 : "Can't change variable when applying a saved plan",
             "The variable %s cannot be %s when applying a saved plan file, "
             "because a saved plan includes the variable values that were "
             "set when it was created. The saved plan specifies %s as the "
             "value whereas during apply the value %s was %s. To declare an "
             "ephemeral variable which is not saved in the plan file, use "
             "ephemeral = true.", pv->name,
             env ? "overriden" : "set using the -var and -var-file options",
             buf_str(&was), buf_str(&now),
             env ? "set by an environment variable"
             : cv->src == PL_VAR_FILE
                 ? "set by a .tfvars file passed through -var-file argument"
                 : "set by a CLI argument");
  }
  /* the apply walk reads the plan's variables (eng_apply): the in-memory
  ** plan gets the apply-time values, the file never does */
  p->vars = op->vars = out;
  op->nvars = p->nvars;
  return !diag_has_errors(&op->d);
}

static int apply_saved(Op *op, const char *path)
{
  Plan *p;
  if (!planfile_read(op->a, path, &p, &op->d))
    return op_finish(op, 1);
  if (p->errored) {
    diag_error(&op->d, NULL, "Cannot apply incomplete plan",
               "cairn encountered an error when generating this plan, so it "
               "cannot be applied.");
    return op_finish(op, 1);
  }
  if (!op_load(op, false))
    return op_finish(op, 1);
  const State *cur = op->state;
  bool first = (!p->lineage || !p->lineage[0]) && p->serial == 0;
  if (!first && strcmp(p->lineage ? p->lineage : "",
                       cur->lineage ? cur->lineage : "") != 0) {
    diag_error(&op->d, NULL, "Saved plan does not match the given state",
               "The given plan file can not be applied because it was "
               "created from a different state lineage.");
    return op_finish(op, 1);
  }
  if (p->serial != cur->serial ||
      (first && cur->lineage && cur->lineage[0])) {
    diag_error(&op->d, NULL, "Saved plan is stale",
               "The given plan file can no longer be applied because the "
               "state was changed by another operation after the plan was "
               "created.");
    return op_finish(op, 1);
  }
  const CfgModule **mods;
  uint32_t nmods;
  cfg_tree_modules(op->a, op->tree, &mods, &nmods);
  const char *h = planfile_config_hash(op->a, mods, nmods);
  if (!p->config_hash || strcmp(h, p->config_hash) != 0) {
    diag_error(&op->d, NULL, "Saved plan does not match the configuration",
               "The configuration has changed since the plan file %s was "
               "created, so it cannot be applied. Run \"cairn plan\" again.",
               path);
    return op_finish(op, 1);
  }
  if (!saved_plan_vars(op, p))
    return op_finish(op, 1);
  if (!op_engine(op, p->mode))
    return op_finish(op, 1);
  return op_finish(op, do_apply(op, p, p->mode == PL_MODE_DESTROY));
}

static int run_op(Cli *cli, int argc, char **argv, bool destroy)
{
  Op op;
  op_init(&op, cli);
  int rest;
  bool refresh_cmd = argc < 0;   /* `cairn refresh` */
  if (refresh_cmd)
    argc = -argc;
  if (!op_parse(&op, 'a', argc, argv, &rest))
    return 2;
  if (refresh_cmd) {
    op.refresh_only = true;
    op.auto_approve = true;
  }
  destroy = destroy || op.destroy;
  if (rest < argc - 1) {
    cli_err(cli, "\nError: Too many command line arguments\n\nExpected at "
                 "most one positional argument.\n\n");
    return 2;
  }
  if (rest == argc - 1) {
    if (destroy) {
      cli_err(cli, "\nError: Too many command line arguments\n\n`cairn "
                   "destroy` takes no positional arguments.\n\n");
      return 2;
    }
    struct stat stt;
    if (stat(argv[rest], &stt) == 0 && S_ISDIR(stt.st_mode)) {
      cli_err(cli, "\nError: Too many command line arguments\n\nTo specify a "
                   "working directory, use the global -chdir flag.\n\n");
      return 2;
    }
    return apply_saved(&op, argv[rest]);
  }
  if (!op_load(&op, true))
    return op_finish(&op, 1);
  PlMode mode = destroy            ? PL_MODE_DESTROY
                : op.refresh_only  ? PL_MODE_REFRESH_ONLY
                                   : PL_MODE_NORMAL;
  Plan *p;
  int st = cmd_plan_run(&op, mode, true, &p);
  if (st)
    return op_finish(&op, st);
  if (p->applyable && !op.auto_approve) {
    if (op.json) {
      diag_error(&op.d, NULL, "No configuration files",
                 "-json requires -auto-approve for apply and destroy.");
      return op_finish(&op, 1);
    }
    bool yes = destroy
        ? op_approve(&op, "Do you really want to destroy all resources?",
                     "  cairn will destroy all your managed infrastructure, "
                     "as shown above.\n  There is no undo.")
        : op_approve(&op, "Do you want to perform these actions?",
                     "  cairn will perform the actions described above.");
    if (!yes) {
      cli_out(cli, "%s cancelled.\n", destroy ? "Destroy" : "Apply");
      return op_finish(&op, 1);
    }
  }
  return op_finish(&op, do_apply(&op, p, destroy));
}

static int run_apply(Cli *cli, int argc, char **argv)
{
  return run_op(cli, argc, argv, false);
}

static int run_destroy(Cli *cli, int argc, char **argv)
{
  return run_op(cli, argc, argv, true);
}

/* `cairn refresh`: apply -refresh-only -auto-approve, as Terraform. */
static int run_refresh(Cli *cli, int argc, char **argv)
{
  return run_op(cli, -argc, argv, false);
}

const CmdEntry cmd_refresh = {
    "refresh", "Update the state to match remote systems",
    "Usage: cairn [global options] refresh [options]\n\n"
    "  Updates the state file to match the real objects (drift), without\n"
    "  changing them.  The same as `cairn apply -refresh-only\n"
    "  -auto-approve`.  Options as for apply.\n",
    run_refresh, false};

const CmdEntry cmd_apply = {
    "apply", "Create or update infrastructure",
    "Usage: cairn [global options] apply [options] [PLAN]\n\n"
    "  Creates or updates infrastructure according to the configuration.\n"
    "  Without PLAN, plans first and asks for approval; with a saved PLAN\n"
    "  (from plan -out) applies exactly that plan.\n\n"
    "Options:\n\n"
    "  -auto-approve       Skip interactive approval.\n"
    "  -destroy            Destroy instead (same as `cairn destroy`).\n"
    "  -refresh=false, -replace=ADDR, -invoke=ADDR, -var, -var-file,\n"
    "  -input=false, -parallelism=N, -lock=false, -lock-timeout=D,\n"
    "  -state=PATH, -state-out=PATH, -backup=PATH, -json, -no-color,\n"
    "  -compact-warnings\n"
    "                      As for plan.\n",
    run_apply, true};

const CmdEntry cmd_destroy = {
    "destroy", "Destroy previously-created infrastructure",
    "Usage: cairn [global options] destroy [options]\n\n"
    "  Destroys every object the state records.  Same options as apply.\n",
    run_destroy, true};
