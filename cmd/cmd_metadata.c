/*
** cmd_metadata: `cairn metadata` and `cairn metadata functions -json`,
** Terraform's document of the built-in function signatures
** (core/lang/funcs_meta.c), one line of JSON on stdout.  Without -json it
** refuses with Terraform's message (exit
** 2, cairn's usage-error status).
*/
#include "cli.h"
#include "lang/funcs.h"

static const char help_metadata[] =
    "Usage: cairn [global options] metadata <subcommand> [options] [args]\n"
    "\n"
    "  This command has subcommands for metadata related purposes.\n"
    "\n"
    "Subcommands:\n"
    "    functions    Show signatures and descriptions for the available "
    "functions\n";

static const char help_functions[] =
    "Usage: cairn [global options] metadata functions -json\n"
    "\n"
    "  Prints out a json representation of the available function "
    "signatures.\n";

static int run_metadata(Cli *cli, int argc, char **argv)
{
  (void)argc;
  (void)argv;
  cli_err(cli, "%s", help_metadata);
  return 2;
}

static int run_functions(Cli *cli, int argc, char **argv)
{
  bool json = false;
  CliFlag flags[] = {{"json", FLAG_BOOL, &json}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 1, &rest, &d)) {
    cli_diags(cli, &d);
    return 1;
  }
  if (!json) {
    cli_err(cli, "The `cairn metadata functions` command requires the "
                 "`-json` flag.\n\n%s", help_functions);
    return 2;   /* a usage error (docs/cli.md; Terraform exits 1) */
  }
  Buf b;
  buf_init(&b, cli->arena);
  fn_metadata_json(&b, cli->arena);
  buf_putc(&b, '\n');
  cli_out_buf(cli, &b);
  return 0;
}

const CmdEntry cmd_metadata = {"metadata", "Metadata related commands",
                               help_metadata, run_metadata, false};
const CmdEntry cmd_metadata_functions = {
    "metadata functions",
    "Show signatures and descriptions for the available functions",
    help_functions, run_functions, false};
