/*
** cmd_force_unlock.c: `cairn force-unlock [-force] LOCK_ID`.
**
** cairn's local lock is an fcntl lock that dies with its holder, so what
** can be stuck is only the lock info file a crashed command left behind.
** stmgr_force_unlock removes it when its ID matches and no live process
** holds the lock; a live holder is refused with Terraform's "Local state
** cannot be unlocked by another process".  Without -force the user
** confirms first, with Terraform's prompt (Terraform's local backend
** refuses outright instead; see docs/state-commands.md).
*/
#include <string.h>

#include "cli.h"
#include "cmd_backend.h"
#include "cmd_state.h"
#include "state/stmgr.h"

static const char help[] =
    "Usage: cairn [global options] force-unlock LOCK_ID\n\n"
    "  Manually unlock the state for the defined configuration.\n\n"
    "  This will not modify your infrastructure. This command removes the "
    "lock on the\n"
    "  state for the current workspace. The behavior of this lock is "
    "dependent\n"
    "  on the backend being used. Local state files cannot be unlocked by "
    "another\n"
    "  process.\n\n"
    "Options:\n\n"
    "  -force                 Don't ask for input for unlock "
    "confirmation.\n";

static int run(Cli *cli, int argc, char **argv)
{
  bool force = false;
  CliFlag flags[] = {{"force", FLAG_BOOL, &force}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 1, &rest, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  if (argc - rest != 1) {
    cli_err(cli, "Expected a single argument: LOCK_ID\n%s", help);
    return 2;
  }
  const char *id = argv[rest];
  if (!cmd_backend(cli, NULL, CMD_BACKEND_USE, &d)) {
    cli_diags(cli, &d);
    return 1;
  }
  const char *path = cmd_state_path(cli, NULL, &d);
  if (!path) {
    cli_err(cli, "Error selecting workspace: %s\n", d.head->summary);
    return 1;
  }
  if (!force) {
    cli_out(cli,
            "Do you really want to force-unlock?\n"
            "  Terraform will remove the lock on the remote state.\n"
            "  This will allow local Terraform commands to modify this "
            "state, even though it\n"
            "  may still be in use. Only 'yes' will be accepted to "
            "confirm.\n\n");
    const char *v = cmd_ask(cli, "  Enter a value: ");
    if (!v) {
      cli_out(cli, "\n");
      cli_err(cli, "Error asking for confirmation: EOF\n");
      return 1;
    }
    cli_out(cli, "\n");
    if (strcmp(v, "yes") != 0) {
      cli_out(cli, "force-unlock cancelled.\n");
      return 1;
    }
  }
  StMgr m;
  StMgrOpts o = {path, NULL, "-"};
  stmgr_init(&m, cli->arena, &o);
  bool ok = stmgr_force_unlock(&m, id, &d);
  stmgr_close(&m);
  if (!ok) {
    for (Diag *g = d.head; g; g = g->next)
      if (g->severity == DIAG_ERROR) {
        cli_err(cli, "%s: %s\n", g->summary,
                g->detail && *g->detail ? g->detail : "unknown error");
        break;
      }
    return 1;
  }
  cli_out(cli, "Terraform state has been successfully unlocked!\n\n"
               "The state has been unlocked, and Terraform commands should "
               "now be able to\n"
               "obtain a new lock on the remote state.\n");
  return 0;
}

const CmdEntry cmd_force_unlock = {
    "force-unlock", "Release a stuck lock on the current workspace", help,
    run, false};
