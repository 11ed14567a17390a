/*
** cmd_help.c: `cairn help [COMMAND...]`.
*/
#include <string.h>

#include "cli.h"

static int run(Cli *cli, int argc, char **argv)
{
  if (argc == 0) {
    cli_print_main_help(cli, stdout);
    return 0;
  }
  char name[128] = "";
  for (int i = 0; i < argc && i < 2; i++) {
    if (i)
      strncat(name, " ", sizeof name - strlen(name) - 1);
    strncat(name, argv[i], sizeof name - strlen(name) - 1);
  }
  const CmdEntry *e = cli_find_command(name);
  if (!e && argc > 1)
    e = cli_find_command(argv[0]);
  if (!e) {
    int n;
    const CmdEntry *const *all = cli_commands(&n);
    const char *names[64];
    int k = 0;
    for (int i = 0; i < n && k < 64; i++)
      names[k++] = all[i]->name;
    const char *s = cli_suggest(argv[0], names, k);
    if (s)
      cli_err(cli, "cairn has no command named \"%s\". Did you mean \"%s\"?\n",
              argv[0], s);
    else
      cli_err(cli, "cairn has no command named \"%s\".\n", argv[0]);
    return 2;
  }
  cli_out(cli, "%s", e->help);
  return 0;
}

const CmdEntry cmd_help = {
    "help",
    "Show help for cairn or one of its commands",
    "Usage: cairn help [COMMAND]\n\n"
    "  Shows the list of commands, or the help of one command.\n",
    run,
    false,
};
