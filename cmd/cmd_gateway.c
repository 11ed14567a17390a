/*
** cmd_gateway.c: `cairn gateway -config FILE [-check]`: serves provider
** plugins over cairn's HTTPS provider protocol (net/gateway.h,
** docs/gateway.md).  -check validates the configuration and exits.
** SIGTERM and SIGINT stop accepting, let running calls finish, and shut
** the plugins down.  The log (one line per call) goes to stderr.
*/
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "net/gateway.h"

static void on_signal(int sig)
{
  (void)sig;
  gw_stop();
}

/* One fprintf per line keeps lines whole across threads. */
static void log_line(void *ctx, const char *line)
{
  (void)ctx;
  fprintf(stderr, "%s\n", line);
  fflush(stderr);
}

static int run(Cli *cli, int argc, char **argv)
{
  const char *config = NULL;
  bool check = false;
  CliFlag flags[] = {{"config", FLAG_STRING, &config},
                     {"check", FLAG_BOOL, &check}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 2, &rest, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  if (!config || rest < argc) {
    cli_err(cli, "Usage: cairn gateway -config FILE [-check]\n");
    return 2;
  }
  GwConfig *c = gw_load(cli->arena, config, &d);
  if (!c) {
    /* The text, for the snippets under the diagnostics. */
    Buf text;
    buf_init(&text, cli->arena);
    FILE *f = fopen(config, "r");
    if (f && buf_read_fd(&text, fileno(f), 1 << 20) == 0)
      diag_files_add(&cli->files, config, buf_str(&text),
                     (uint32_t)text.len);
    if (f)
      fclose(f);
    cli_diags(cli, &d);
    return 1;
  }
  if (check) {
    cli_out(cli, "The gateway configuration %s is valid: %d provider%s, %d "
                 "client%s.\n",
            config, c->nproviders, c->nproviders == 1 ? "" : "s",
            c->nclients, c->nclients == 1 ? "" : "s");
    for (int i = 0; i < c->nproviders; i++)
      if (c->providers[i].plugin_dir)
        cli_out(cli, "- %s v%s from %s%s\n", c->providers[i].addr,
                c->providers[i].version, c->providers[i].plugin_dir,
                c->providers[i].zip ? " (a .zip, unpacked at start)" : "");
    return 0;
  }
  if (!gw_prepare(cli->arena, c, &d)) {
    cli_diags(cli, &d);
    return 1;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  bool ok = gw_run(c, log_line, NULL, NULL, &d);
  cli_diags(cli, &d);
  return ok ? 0 : 1;
}

const CmdEntry cmd_gateway = {
    "gateway",
    "Serve provider plugins over HTTPS to other hosts",
    "Usage: cairn gateway -config FILE [-check]\n\n"
    "  Serves the provider plugins named in FILE over cairn's HTTPS\n"
    "  provider protocol, so that hosts that cannot run them (small\n"
    "  devices) use them through one endpoint.  See docs/gateway.md.\n\n"
    "Options:\n\n"
    "  -config=FILE  The gateway configuration (INI).\n"
    "  -check        Validate the configuration and exit.\n",
    run,
    false};
