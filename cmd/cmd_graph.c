/*
** cmd_graph: `cairn graph` — the resource dependency graph in DOT
** (Terraform 1.7+'s default view: resources only).  The other -type
** views of older Terraform are not provided.
*/
#include "cmd_op.h"

static int run(Cli *cli, int argc, char **argv)
{
  Op op;
  op_init(&op, cli);
  int rest;
  if (!op_parse(&op, 'g', argc, argv, &rest))
    return 2;
  if (rest < argc) {
    cli_err(cli, "\nError: Too many command line arguments\n\nTo specify a "
                 "working directory, use the global -chdir flag.\n\n");
    return 2;
  }
  op.lock = false;   /* graph only reads */
  if (!op_load(&op, true) || !op_engine(&op, PL_MODE_NORMAL))
    return op_finish(&op, 1);
  Buf b;
  buf_init(&b, op.a);
  if (!eng_graph_dot(op.e, op.state, &b, &op.d))
    return op_finish(&op, 1);
  cli_out_buf(cli, &b);
  return op_finish(&op, 0);
}

const CmdEntry cmd_graph = {
    "graph", "Generate a Graphviz graph of the steps in an operation",
    "Usage: cairn [global options] graph [options]\n\n"
    "  Produces a representation of the dependency graph between the\n"
    "  resources of the configuration in the DOT language, for example\n"
    "  `cairn graph | dot -Tsvg > graph.svg`.\n\n"
    "Options: -var, -var-file, -state=PATH as for plan.\n",
    run, false};
