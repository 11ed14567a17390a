/*
** cmd_state.c: the helpers of cmd_state.h shared with `workspace` and
** `force-unlock`, the plumbing the `state` subcommands share
** (cmd_state_priv.h), and `cairn state` alone.  The subcommands are in
** cmd_state_read.c (list, show, pull), cmd_state_edit.c (rm, mv,
** replace-provider) and cmd_state_push.c (push), their address selection
** in cmd_state_select.c.
**
** Every file access goes through stmgr: commands that change state lock
** it (operation names as Terraform's: state-mv, state-rm, state-push,
** state-replace-provider), load, change the in-memory State, commit
** atomically (backup first, "<out>.<unix>.backup" by default) and unlock
** on every exit path.  Read-only commands (list, show, pull) never lock,
** as in Terraform.  See docs/state-commands.md.
*/
#include "cmd_state_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd_backend.h"
#include "state/workspace.h"

/* ---- shared helpers (cmd_state.h) ----------------------------------- */

bool cmd_parse_duration(const char *s, long *ms)
{
  /* Go's time.ParseDuration: [-+]? (number unit)+, or a bare "0". */
  const char *p = s;
  if (*p == '+')
    p++;
  if (*p == '-')
    return false; /* negative timeouts make no sense here */
  if (strcmp(p, "0") == 0) {
    *ms = 0;
    return true;
  }
  if (!*p)
    return false;
  double total = 0;
  while (*p) {
    const char *st = p;
    double whole = 0, frac = 0, scale = 1;
    while (*p >= '0' && *p <= '9') {
      whole = whole * 10 + (*p - '0');
      p++;
      if (whole > 1e15)
        return false;
    }
    bool digits = p > st;
    if (*p == '.') {
      p++;
      const char *fs = p;
      while (*p >= '0' && *p <= '9') {
        if (scale < 1e15) {
          scale *= 10;
          frac += (*p - '0') / scale;
        }
        p++;
      }
      digits = digits || p > fs;
    }
    if (!digits)
      return false;
    double unit;
    if (strncmp(p, "ns", 2) == 0) {
      unit = 1e-6;
      p += 2;
    } else if (strncmp(p, "us", 2) == 0) {
      unit = 1e-3;
      p += 2;
    } else if (strncmp(p, "\xc2\xb5s", 3) == 0 ||
               strncmp(p, "\xce\xbcs", 3) == 0) {
      unit = 1e-3;
      p += 3;
    } else if (strncmp(p, "ms", 2) == 0) {
      unit = 1;
      p += 2;
    } else if (*p == 's') {
      unit = 1000;
      p++;
    } else if (*p == 'm') {
      unit = 60000;
      p++;
    } else if (*p == 'h') {
      unit = 3600000;
      p++;
    } else {
      return false; /* Go: missing unit in duration */
    }
    total += (whole + frac) * unit;
    if (total > 9.2e15)
      return false;
  }
  *ms = (long)total;
  return true;
}

bool cmd_lock_timeout(const char *text, long *ms, Diags *d)
{
  if (cmd_parse_duration(text, ms))
    return true;
  diag_error(d, NULL, "Failed to parse command-line flags",
             "invalid value \"%s\" for flag -lock-timeout: parse error",
             text);
  return false;
}

const char *cmd_state_path(Cli *cli, const char *explicit_path, Diags *d)
{
  /* The backend is checked even with -state, as Terraform's Meta.Backend
  ** is: a state the configuration keeps elsewhere must not be
  ** shadowed by a local file silently. */
  const Backend *b = cmd_backend(cli, NULL, CMD_BACKEND_USE, d);
  if (!b)
    return NULL;
  if (explicit_path && *explicit_path)
    return explicit_path;
  const char *ws = ws_current(cli->arena, NULL, d);
  if (!ws)
    return NULL;
  return be_state_path(b, cli->arena, ws);
}

static void lock_notice(void *ctx)
{
  cli_out(ctx, "Acquiring state lock. This may take a few moments...\n");
  fflush(stdout);   /* shown while waiting, not at the end */
}

bool cmd_state_lock(Cli *cli, StMgr *m, bool lock, const char *operation,
                    long timeout_ms, Diags *d)
{
  if (!lock)
    return true;
  return stmgr_lock(m, operation, timeout_ms, lock_notice, cli, d);
}

void cmd_state_close(Cli *cli, StMgr *m)
{
  Diags d;
  diag_init(&d, cli->arena);
  if (m->locked)
    stmgr_unlock(m, &d);
  stmgr_close(m);
  cli_diags(cli, &d);
}

const char *cmd_ask(Cli *cli, const char *prompt)
{
  cli_out(cli, "%s", prompt);
  fflush(stdout);
  Buf b;
  buf_init(&b, cli->arena);
  bool any = false;
  for (;;) {
    char c;
    ssize_t k = read(0, &c, 1);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    any = true;
    if (c == '\n')
      break;
    /* One answer line; a longer one is not an answer anyone typed. */
    if (b.len < 4096)
      buf_putc(&b, c);
  }
  if (!any)
    return NULL;
  if (b.len && b.p[b.len - 1] == '\r')
    b.p[--b.len] = 0;
  return buf_str(&b);
}

const char *cmd_state_backup(Cli *cli, const char *out, const char *given)
{
  if (given && *given && strcmp(given, "-") != 0)
    return given;
  return arena_printf(cli->arena, "%s.%lld.backup", out,
                      (long long)time(NULL));
}

const char *cmd_errstr(Cli *cli, int err)
{
  char *s = arena_strdup(cli->arena, strerror(err));
  if (s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = (char)(s[0] - 'A' + 'a');
  return s;
}

bool cmd_state_empty(const State *s)
{
  return s->nres == 0 && s->noutputs == 0;
}

/* ---- common plumbing for the subcommands ---------------------------- */

const char cmd_state_msg_no_state[] =
    "No state file was found!\n\n"
    "State management commands require a state file. Run this command\n"
    "in a directory where Terraform has been run or use the -state flag\n"
    "to point the command to a specific state location.\n";

int cmd_state_usage(Cli *cli, const char *msg, const char *help)
{
  cli_err(cli, "%s\n%s", msg, help);
  return 2;
}

int cmd_state_flag_error(Cli *cli, Diags *d)
{
  cli_diags(cli, d);
  return 2;
}

/* Opens (without locking) and loads the state at path.  *out is NULL when
** there is no state (diagnostic-free); false on unreadable state. */
bool cmd_state_load(Cli *cli, StMgr *m, State **out, Diags *d)
{
  (void)cli;
  State *s = NULL;
  if (!stmgr_load(m, &s, d))
    return false;
  /* a journal left by a killed first apply holds state even before any
  ** snapshot exists: stmgr_load replayed it */
  *out = m->had_file || !cmd_state_empty(s) ? s : NULL;
  return true;
}

char *cmd_state_lower(Arena *a, const char *s, size_t n)
{
  char *r = arena_strndup(a, s, n);
  for (char *p = r; *p; p++)
    if (*p >= 'A' && *p <= 'Z')
      *p = (char)(*p - 'A' + 'a');
  return r;
}

/* Splits a state provider string (module.x.provider["FQN"].alias) into
** the FQN (returned) and the text around it. */
const char *cmd_state_provider_fqn(Arena *a, const char *cfg, size_t *beg,
                                   size_t *end)
{
  const char *p = strstr(cfg, "provider[\"");
  if (!p)
    return NULL;
  const char *f = p + 10;
  const char *q = strchr(f, '"');
  if (!q)
    return NULL;
  *beg = (size_t)(f - cfg);
  *end = (size_t)(q - cfg);
  return cmd_state_lower(a, f, (size_t)(q - f));
}

bool cmd_state_open_locked(Cli *cli, StMgr *m, const char *path,
                           const char *backup, bool lock, long tmo,
                           const char *op, State **s, Diags *d)
{
  StMgrOpts o = {path, NULL, backup};
  stmgr_init(m, cli->arena, &o);
  return cmd_state_lock(cli, m, lock, op, tmo, d) &&
         cmd_state_load(cli, m, s, d);
}

/* ---- `state` alone ------------------------------------------------------- */

static const char help_state[] =
    "Usage: cairn [global options] state <subcommand> [options] [args]\n\n"
    "  This command has subcommands for advanced state management.\n\n"
    "  These subcommands can be used to slice and dice the Terraform state.\n"
    "  This is sometimes necessary in advanced cases. For your safety, all\n"
    "  state management commands that modify the state create a timestamped\n"
    "  backup of the state prior to making modifications.\n\n"
    "  The structure and output of the commands is specifically tailored to "
    "work\n"
    "  well with the common Unix utilities such as grep, awk, etc. We "
    "recommend\n"
    "  using those tools to perform more advanced state tasks.\n\n"
    "Subcommands:\n"
    "    list                List resources in the state\n"
    "    mv                  Move an item in the state\n"
    "    pull                Pull current state and output to stdout\n"
    "    push                Update remote state from a local state file\n"
    "    replace-provider    Replace provider in the state\n"
    "    rm                  Remove instances from the state\n"
    "    show                Show a resource in the state\n";

static int run_state(Cli *cli, int argc, char **argv)
{
  (void)argc;
  (void)argv;
  cli_err(cli, "%s", help_state);
  return 2;
}

const CmdEntry cmd_state = {"state", "Advanced state management",
                            help_state, run_state, false};
