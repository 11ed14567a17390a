/*
** cmd_plan: `cairn plan`, and the plan-then-apply shared by apply and
** destroy (cmd_apply.c calls cmd_plan_run).
*/
#include <string.h>

#include "cmd_op.h"
#include "engine/planfile.h"
#include "views/render.h"

int cmd_plan_run(Op *op, PlMode mode, bool applying, Plan **out);

/* Prints the plan (human text or the -json stream), then the diagnostics
** collected so far, as Terraform's view prints them after the plan. */
static void show_plan(Op *op, const Plan *p)
{
  if (op->json) {
    for (uint32_t i = 0; i < p->ndrift; i++)
      jui_resource_drift(&op->ui, &p->drift[i]);
    jui_planned_changes(&op->ui, p);
    /* "plan" for destroy plans too: Terraform's plan view always
    ** summarises as planned ("Plan: 0 to add, 0 to change, 1 to
    ** destroy."); "destroy" belongs to the apply's end */
    jui_change_summary(&op->ui, plan_counts(p), "plan");
    /* Terraform ends the plan stream with the root output changes. */
    if (p->noutputs)
      jui_outputs(&op->ui, p->outputs, p->noutputs);
    op_flush_diags(op);
    cli_out_buf(op->cli, &op->uibuf);
    buf_clear(&op->uibuf);
    return;
  }
  /* The text is written out and dropped: a plan of 10,000 creates is
  ** megabytes of it, which the command's arena would keep to the end. */
  Arena ta;
  arena_init(&ta, 0);
  Buf b;
  buf_init(&b, &ta);
  RenderOpts ro = {op->cli->color, "cairn", 0, false};
  render_plan(&b, p, &ro);
  cli_out_buf(op->cli, &b);
  arena_release(&ta);
  /* warnings follow the rendered plan, as Terraform prints them */
  op_flush_diags(op);
}

/* Plans and prints the plan.  Returns 0, or 1 on errors.  applying: the
** plan of apply or destroy, which shows a partial plan only when it has
** changes (Terraform's opApply), where plan always shows it (opPlan). */
int cmd_plan_run(Op *op, PlMode mode, bool applying, Plan **out)
{
  if (!op_engine(op, mode))
    return 1;
  Plan *p = NULL;
  bool ok = eng_plan(op->e, op->state, &p, &op->d);
  *out = p;
  if (!ok || !p) {
    /* Terraform's local backend renders the partial plan of a walk that
    ** failed (errored: "Planning failed." or "Terraform planned the
    ** following actions, but then encountered a problem:") before the
    ** errors; only a failure before the walk leaves no plan to show. */
    if (p && p->errored && (!applying || p->nchanges || p->noutputs))
      show_plan(op, p);
    else
      op_flush_diags(op);
    return 1;
  }
  show_plan(op, p);
  return 0;
}

static int run(Cli *cli, int argc, char **argv)
{
  Op op;
  op_init(&op, cli);
  int rest;
  if (!op_parse(&op, 'p', argc, argv, &rest))
    return 2;
  if (rest < argc) {
    cli_err(cli, "\nError: Too many command line arguments\n\nTo specify a "
                 "working directory for the plan, use the global -chdir "
                 "flag.\n\n");
    return 2;
  }
  if (!op_load(&op, true))
    return op_finish(&op, 1);
  /* A plan never writes the state: the file's bytes need not stay. */
  if (op.mgr_ready)
    stmgr_drop_source(&op.mgr);
  PlMode mode = op.destroy        ? PL_MODE_DESTROY
                : op.refresh_only ? PL_MODE_REFRESH_ONLY
                                  : PL_MODE_NORMAL;
  Plan *p = NULL;
  int st = cmd_plan_run(&op, mode, false, &p);
  if (st) {
    /* Terraform saves a plan whose walk failed too (errored: true, which
    ** apply refuses and show -json renders), still exiting 1. */
    if (op.out_path && p && p->errored)
      planfile_write(op.a, op.out_path, p, &op.d);
    return op_finish(&op, st);
  }
  if (op.out_path) {
    if (!planfile_write(op.a, op.out_path, p, &op.d))
      return op_finish(&op, 1);
    if (!op.json)
      cli_out(cli, "\n─────────────────────────────────────────────────────"
                   "────────────────────────\n\nSaved the plan to: %s\n\n"
                   "To perform exactly these actions, run the following "
                   "command to apply:\n    cairn apply \"%s\"\n",
              op.out_path, op.out_path);
  } else if (!op.json && p->applyable) {
    /* Terraform word-wraps this note at 78 columns off a terminal. */
    cli_out(cli, "\n─────────────────────────────────────────────────────"
                 "────────────────────────\n\nNote: You didn't use the -out "
                 "option to save this plan, so cairn can't\nguarantee to take "
                 "exactly these actions if you run \"cairn apply\" now.\n");
  }
  int status = 0;
  if (op.detailed && p->applyable)
    status = 2;
  return op_finish(&op, status);
}

const CmdEntry cmd_plan = {
    "plan", "Show changes required by the current configuration",
    "Usage: cairn [global options] plan [options]\n\n"
    "  Generates a speculative execution plan, showing what actions cairn\n"
    "  would take to apply the current configuration.\n\n"
    "Options:\n\n"
    "  -destroy            Plan to destroy all managed objects.\n"
    "  -refresh-only       Plan only to update the state from remote objects.\n"
    "  -refresh=false      Skip checking for changes made outside cairn.\n"
    "  -replace=ADDR       Force replacement of this resource instance.\n"
    "  -invoke=ADDR        Plan only to invoke this action (docs/actions.md).\n"
    "  -out=FILE           Write the plan to FILE for `cairn apply FILE`.\n"
    "  -detailed-exitcode  Exit 0 when no changes, 1 on error, 2 when the\n"
    "                      plan has changes.\n"
    "  -var 'NAME=VALUE'   Set a root input variable.\n"
    "  -var-file=FILE      Load variable values from FILE.\n"
    "  -input=false        Do not prompt for missing variables.\n"
    "  -parallelism=N      At most N concurrent operations (default 10).\n"
    "  -lock=false         Do not lock the state (dangerous).\n"
    "  -lock-timeout=D     Retry taking the lock for duration D.\n"
    "  -state=PATH         State file (default terraform.tfstate).\n"
    "  -json               Machine-readable UI output.\n"
    "  -no-color           No terminal colours.\n"
    "  -compact-warnings   Show warnings in compact form.\n",
    run, true};
