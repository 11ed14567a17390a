/*
** cmd_import: `cairn import [options] ADDR ID` (Terraform's import
** command): plans with one extra import target (the engine's import-block
** path: ImportResourceState, then ReadResource), and records only the
** imported object in the state, applying nothing else.
*/
#include <string.h>

#include "cmd_op.h"

static int fail(Op *op, const char *summary, const char *detail)
{
  diag_error(&op->d, NULL, summary, "%s", detail);
  return op_finish(op, 1);
}

static void no_config(Op *op, const char *addr)
{
  diag_error(&op->d, NULL, "Configuration for import target does not exist",
             "The configuration for the given import target %s does not "
             "exist. All target instances must have an associated "
             "configuration to be imported.", addr);
}

static int run(Cli *cli, int argc, char **argv)
{
  Op op;
  op_init(&op, cli);
  int rest;
  if (!op_parse(&op, 'p', argc, argv, &rest))
    return 2;
  if (argc - rest != 2) {
    cli_err(cli, "\nError: Invalid number of arguments\n\nThe import command "
                 "expects two arguments.\n\n");
    return 1;
  }
  const char *text = argv[rest], *id = argv[rest + 1];
  StAddr sa;
  if (!st_parse_addr(op.a, text, &sa, &op.d)) {
    op_flush_diags(&op);
    return 1;
  }
  if (sa.kind == ST_ADDR_MODULE || sa.mode != ST_MANAGED) {
    return fail(&op, "Invalid address",
                "The import target must be a managed resource instance, "
                "such as aws_instance.a or aws_instance.a[\"key\"].");
  }
  Buf ab;
  buf_init(&ab, op.a);
  st_format_resource(&ab, sa.module, ST_MANAGED, sa.type, sa.name);
  if (sa.kind == ST_ADDR_INSTANCE)
    st_format_key(&ab, sa.key);
  const char *addr = buf_str(&ab);
  if (!op_load(&op, true))
    return op_finish(&op, 1);
  const CfgTree *ct = cfg_tree_find(op.tree, st_static_path(op.a, sa.module));
  if (!ct || !cfg_resource(ct->m, CFG_MANAGED, sa.type, sa.name)) {
    no_config(&op, addr);
    return op_finish(&op, 1);
  }
  StResource *sr = st_find_resource(op.state, sa.module, ST_MANAGED,
                                    sa.type, sa.name);
  StInstance *si = sr ? st_find_instance(op.state, sr, sa.kind ==
                                         ST_ADDR_INSTANCE ? sa.key
                                                          : st_nokey())
                      : NULL;
  if (si && si->current) {
    diag_error(&op.d, NULL, "Resource already managed by cairn",
               "cairn is already managing a remote object for %s. To import "
               "to this address you must first remove the existing object "
               "from the state.", addr);
    return op_finish(&op, 1);
  }
  if (!op_engine(&op, PL_MODE_NORMAL))
    return op_finish(&op, 1);
  eng_set_import(op.e, addr, id);
  cli_out(cli, "%s: Importing from ID \"%s\"...\n", addr, id);
  Plan *p = NULL;
  bool ok = eng_plan(op.e, op.state, &p, &op.d);
  const PlChange *c = NULL;
  for (uint32_t i = 0; ok && p && i < p->nchanges; i++)
    if (p->changes[i].importing && !p->changes[i].deposed &&
        strcmp(p->changes[i].addr, addr) == 0)
      c = &p->changes[i];
  if (!ok || !c) {
    if (ok)
      no_config(&op, addr);
    op_flush_diags(&op);
    return op_finish(&op, 1);
  }
  cli_out(cli, "%s: Import prepared!\n  Prepared %s for import\n", addr,
          c->type);
  State *work = st_clone(op.a, op.state);
  if (!eng_record_import(op.e, c, work, &op.mgr, &op.d) ||
      !stmgr_commit(&op.mgr, work, &op.d))
    return op_finish(&op, 1);
  op_flush_diags(&op);
  cli_out(cli, "\nImport successful!\n\nThe resources that were imported are "
               "shown above. These resources are now in\nyour cairn state "
               "and will henceforth be managed by cairn.\n\n");
  return op_finish(&op, 0);
}

const CmdEntry cmd_import = {
    "import", "Associate existing infrastructure with a cairn resource",
    "Usage: cairn [global options] import [options] ADDR ID\n\n"
    "  Imports an existing object into the state at ADDR, a managed\n"
    "  resource instance (module.m.x.y for one in a module), using the provider's\n"
    "  import for ID, then reads it.  Nothing else is planned or applied;\n"
    "  prefer import blocks, which plan the import with everything else.\n\n"
    "Options:\n\n"
    "  -var 'foo=bar'      Set a value for one of the input variables.\n"
    "  -var-file=FILE      Set variables from a file.\n"
    "  -input=false        Do not prompt for missing variables.\n"
    "  -lock=false         Do not lock the state (dangerous).\n"
    "  -lock-timeout=D     Retry taking the lock for duration D.\n"
    "  -state=PATH         State file (default terraform.tfstate).\n"
    "  -no-color           No terminal colours.\n",
    run, true};
