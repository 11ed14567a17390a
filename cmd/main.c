/*
** main.c: global options, the command table, and dispatch.
**
** Global options come before the command, as in Terraform: -chdir=DIR,
** -help/-h, -version/-v.  Commands with two words ("state list") are
** matched longest first.
*/
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "cli.h"
#include "cmd_backend.h"
#include "net/fetch.h"
#include "net/http.h"
#include "net/plugin.h"
#include "net/peerhttps.h"
#include "net/tlspeer.h"
#include "providers/provider.h"

extern const CmdEntry cmd_version;
extern const CmdEntry cmd_graph;
extern const CmdEntry cmd_refresh;
extern const CmdEntry cmd_show;
extern const CmdEntry cmd_output;
extern const CmdEntry cmd_plan;
extern const CmdEntry cmd_providers;
extern const CmdEntry cmd_providers_schema;
extern const CmdEntry cmd_destroy;
extern const CmdEntry cmd_apply;
extern const CmdEntry cmd_help;
extern const CmdEntry cmd_import;
extern const CmdEntry cmd_fmt;
extern const CmdEntry cmd_gateway;
extern const CmdEntry cmd_init;
extern const CmdEntry cmd_metadata;
extern const CmdEntry cmd_metadata_functions;
extern const CmdEntry cmd_console;
extern const CmdEntry cmd_force_unlock;
extern const CmdEntry cmd_state;
extern const CmdEntry cmd_state_list;
extern const CmdEntry cmd_state_mv;
extern const CmdEntry cmd_state_pull;
extern const CmdEntry cmd_state_push;
extern const CmdEntry cmd_state_replace_provider;
extern const CmdEntry cmd_state_rm;
extern const CmdEntry cmd_state_show;
extern const CmdEntry cmd_taint;
extern const CmdEntry cmd_untaint;
extern const CmdEntry cmd_validate;
extern const CmdEntry cmd_workspace;
extern const CmdEntry cmd_workspace_delete;
extern const CmdEntry cmd_workspace_list;
extern const CmdEntry cmd_workspace_new;
extern const CmdEntry cmd_workspace_select;
extern const CmdEntry cmd_workspace_show;

/* Sorted by name; main commands first in the help listing. */
static const CmdEntry *const commands[] = {
    &cmd_apply,
    &cmd_console,
    &cmd_destroy,
    &cmd_fmt,
    &cmd_force_unlock,
    &cmd_gateway,
    &cmd_graph,
    &cmd_help,
    &cmd_import,
    &cmd_init,
    &cmd_metadata,
    &cmd_metadata_functions,
    &cmd_output,
    &cmd_plan,
    &cmd_providers,
    &cmd_providers_schema,
    &cmd_refresh,
    &cmd_show,
    &cmd_state,
    &cmd_state_list,
    &cmd_state_mv,
    &cmd_state_pull,
    &cmd_state_push,
    &cmd_state_replace_provider,
    &cmd_state_rm,
    &cmd_state_show,
    &cmd_taint,
    &cmd_untaint,
    &cmd_validate,
    &cmd_version,
    &cmd_workspace,
    &cmd_workspace_delete,
    &cmd_workspace_list,
    &cmd_workspace_new,
    &cmd_workspace_select,
    &cmd_workspace_show,
};
#define NCOMMANDS ((int)(sizeof commands / sizeof *commands))

static const char *const main_order[] = {"init", "validate", "plan", "apply",
                                         "destroy"};

const CmdEntry *const *cli_commands(int *n)
{
  *n = NCOMMANDS;
  return commands;
}

const CmdEntry *cli_find_command(const char *name)
{
  for (int i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i]->name, name) == 0)
      return commands[i];
  return NULL;
}

void cli_print_main_help(Cli *cli, FILE *f)
{
  (void)cli;
  fprintf(f,
          "Usage: cairn [global options] <subcommand> [args]\n\n"
          "The available commands for execution are listed below.\n"
          "The primary workflow commands are given first, followed by\n"
          "less common or more advanced commands.\n\n"
          "Main commands:\n");
  for (size_t k = 0; k < sizeof main_order / sizeof *main_order; k++) {
    const CmdEntry *e = cli_find_command(main_order[k]);
    if (e)
      fprintf(f, "  %-13s %s\n", e->name, e->synopsis);
  }
  fprintf(f, "\nAll other commands:\n");
  for (int i = 0; i < NCOMMANDS; i++) {
    const CmdEntry *e = commands[i];
    if (e->main_command || strchr(e->name, ' '))
      continue;
    fprintf(f, "  %-13s %s\n", e->name, e->synopsis);
  }
  fprintf(f,
          "\nGlobal options (use these before the subcommand, if any):\n"
          "  -chdir=DIR    Switch to a different working directory before "
          "executing the\n"
          "                given subcommand.\n"
          "  -help         Show this help output, or the help for a "
          "specified subcommand.\n"
          "  -version      An alias for the \"version\" subcommand.\n");
}

static int unknown_command(Cli *cli, const char *name)
{
  const char *names[64];
  int n = 0;
  for (int i = 0; i < NCOMMANDS && n < 64; i++)
    names[n++] = commands[i]->name;
  const char *s = cli_suggest(name, names, n);
  if (s)
    cli_err(cli, "cairn has no command named \"%s\". Did you mean \"%s\"?\n",
            name, s);
  else
    cli_err(cli, "cairn has no command named \"%s\".\n", name);
  cli_err(cli, "\nTo see all of cairn's top-level commands, run:\n"
               "  cairn -help\n\n");
  return 2;
}

static bool is_help_flag(const char *a)
{
  return strcmp(a, "-help") == 0 || strcmp(a, "--help") == 0 ||
         strcmp(a, "-h") == 0;
}

/* CAIRN_LOG=debug|trace: the HTTP client's request log on stderr (the
** client never passes tokens or bodies).  One fprintf per line keeps
** lines whole across worker threads (stdio locks the stream). */
static void log_line(void *ctx, HttpLogLevel level, const char *msg)
{
  long max = (long)(intptr_t)ctx;
  if ((long)level <= max)
    fprintf(stderr, "[%s] %s\n", level == HTTP_LOG_TRACE ? "TRACE" : "DEBUG",
            msg);
}

/* The plugins' own output (net/plugin.c), at trace level only: it may
** carry whatever the provider logs. */
static void plugin_log_line(void *ctx, const char *line)
{
  (void)ctx;
  fprintf(stderr, "[TRACE] %s\n", line);
}

static void setup_log(void)
{
  const char *l = getenv("CAIRN_LOG");
  if (!l || !*l)
    return;
  long max = !strcasecmp(l, "trace") ? HTTP_LOG_TRACE
             : !strcasecmp(l, "debug") ? HTTP_LOG_DEBUG : 0;
  if (max)
    http_set_log(log_line, (void *)(intptr_t)max);
  if (max >= HTTP_LOG_TRACE)
    plugin_set_log(plugin_log_line, NULL);
}

int main(int argc, char **argv)
{
  setup_log();
  /* data "http" reaches the network through net/ (core/ cannot). */
  prov_http_set_fetcher(fetch_do);
  Arena arena;
  arena_init(&arena, 0);
  Cli cli = {0};
  cli.arena = &arena;
  cli.argv0 = "cairn";
  diag_files_init(&cli.files, &arena);
  cli.color = isatty(1) && !getenv("NO_COLOR");
  cli.stderr_tty = isatty(2);
  if (cli.stderr_tty) {
    struct winsize ws;
    if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
      cli.width = ws.ws_col;
  }
  signal(SIGPIPE, SIG_IGN);
  /* A parent that ignores SIGCHLD (some init systems and supervisors do)
  ** would make the kernel reap our children itself, and waitpid could not
  ** tell a failing program (external, local_command, a plugin) from a
  ** good one; Go's runtime, which Terraform's providers run on, always
  ** handles SIGCHLD, so cairn takes it back too. */
  signal(SIGCHLD, SIG_DFL);
  prov_tls_set_fetcher(tlspeer_fetch);
  prov_tls_set_https_fetcher(peerhttps_fetch);

  int i = 1;
  bool want_help = false, want_version = false;
  for (; i < argc && argv[i][0] == '-'; i++) {
    const char *a = argv[i];
    if (strncmp(a, "-chdir=", 7) == 0 || strncmp(a, "--chdir=", 8) == 0) {
      const char *dir = strchr(a, '=') + 1;
      if (chdir(dir) != 0) {
        cli_err(&cli, "Error handling -chdir option: chdir %s: %s\n", dir,
                strerror(errno));
        return 1;
      }
    } else if (is_help_flag(a)) {
      want_help = true;
    } else if (strcmp(a, "-version") == 0 || strcmp(a, "--version") == 0 ||
               strcmp(a, "-v") == 0) {
      want_version = true;
    } else {
      cli_err(&cli, "cairn: unknown global option \"%s\"\n\n"
                    "Global options must be given before the subcommand; "
                    "run \"cairn -help\" for the list.\n", a);
      return 2;
    }
  }
  int rc;
  if (want_version) {
    rc = cmd_version.run(&cli, 0, NULL);
  } else if (i >= argc) {
    cli_print_main_help(&cli, stdout);
    rc = want_help ? 0 : 2;
  } else {
    const CmdEntry *e = NULL;
    int used = 1;
    if (i + 1 < argc) {
      char two[128];
      snprintf(two, sizeof two, "%s %s", argv[i], argv[i + 1]);
      e = cli_find_command(two);
      if (e)
        used = 2;
    }
    if (!e)
      e = cli_find_command(argv[i]);
    if (!e) {
      rc = unknown_command(&cli, argv[i]);
    } else {
      int cargc = argc - i - used;
      char **cargv = argv + i + used;
      bool help = want_help;
      for (int k = 0; k < cargc; k++)
        if (is_help_flag(cargv[k]))
          help = true;
      if (help) {
        fputs(e->help, stdout);
        rc = 0;
      } else {
        rc = e->run(&cli, cargc, cargv);
      }
    }
  }
  fflush(stdout);
  cmd_backend_close(&cli);
  arena_release(&arena);
  return rc;
}
