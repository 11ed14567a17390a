/*
** cmd_apply: `cairn apply [PLANFILE]` and `cairn destroy`.
*/
#include <string.h>
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

static int apply_saved(Op *op, const char *path)
{
  Plan *p;
  if (!planfile_read(op->a, path, &p, &op->d))
    return op_finish(op, 1);
  if (op->nvargs) {
    diag_error(&op->d, NULL, "Can't set variables when applying a saved plan",
               "The plan file %s was created with a specific set of "
               "variable values; -var and -var-file cannot change them.",
               path);
    return op_finish(op, 1);
  }
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
  op->vars = p->vars;
  op->nvars = p->nvars;
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
