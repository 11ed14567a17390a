/*
** cmd_state_push: `state push`: a state file (or stdin) replaces the
** current workspace's state after Terraform's lineage and serial checks
** (CheckValidImport), unless -force.
*/
#include "cmd_state_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "state/state.h"

/* ---- state push ---------------------------------------------------------- */

static const char help_push[] =
    "Usage: cairn [global options] state push [options] PATH\n\n"
    "  Update remote state from a local state file at PATH.\n\n"
    "  This command \"pushes\" a local state and overwrites remote state\n"
    "  with a local state file. The command will protect you against "
    "writing\n"
    "  an older serial or a different state file lineage unless you specify "
    "the\n"
    "  \"-force\" flag.\n\n"
    "  This command works with local state (it will overwrite the local\n"
    "  state), but is less useful for this use case.\n\n"
    "  If PATH is \"-\", then this command will read the state to push from "
    "stdin.\n"
    "  Data from stdin is not streamed to the backend: it is loaded "
    "completely\n"
    "  (until pipe close), verified, and then pushed.\n\n"
    "Options:\n\n"
    "  -force              Write the state even if lineages don't match or "
    "the\n"
    "                      remote serial is higher.\n\n"
    "  -lock=false         Don't hold a state lock during the operation. "
    "This is\n"
    "                      dangerous if others might concurrently run "
    "commands\n"
    "                      against the same workspace.\n\n"
    "  -lock-timeout=0s    Duration to retry a state lock.\n";

/* Reads all of fd into b; false (errno set) on a read error.  Stops with
** EFBIG beyond the state size limit rather than reading without bound. */
static bool read_all(int fd, Buf *b)
{
  char tmp[65536];
  for (;;) {
    ssize_t k = read(fd, tmp, sizeof tmp);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0)
      return false;
    if (k == 0)
      return true;
    if (b->len + (size_t)k > ST_MAX_FILE_BYTES) {
      errno = EFBIG;
      return false;
    }
    buf_put(b, tmp, (size_t)k);
  }
}

static const char *first_error(Diags *d)
{
  for (Diag *g = d->head; g; g = g->next)
    if (g->severity == DIAG_ERROR)
      return g->detail && *g->detail
                 ? arena_printf(d->arena, "%s: %s", g->summary, g->detail)
                 : g->summary;
  return "unknown error";
}

static int run_push(Cli *cli, int argc, char **argv)
{
  bool force = false, lock = true, ignore_remote = false;
  const char *timeout = "0s";
  CliFlag flags[] = {{"force", FLAG_BOOL, &force},
                     {"lock", FLAG_BOOL, &lock},
                     {"lock-timeout", FLAG_STRING, &timeout},
                     {"ignore-remote-version", FLAG_BOOL, &ignore_remote}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  long tmo;
  if (!cli_parse_flags(cli, argc, argv, flags, 4, &rest, &d) ||
      !cmd_lock_timeout(timeout, &tmo, &d))
    return cmd_state_flag_error(cli, &d);
  if (argc - rest != 1)
    return cmd_state_usage(cli, "Exactly one argument expected.\n",
                           help_push);
  const char *src_path = argv[rest];
  Buf data;
  buf_init(&data, cli->arena);
  int fd = strcmp(src_path, "-") == 0
               ? 0
               : open(src_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    cli_err(cli, "open %s: %s\n", src_path, cmd_errstr(cli, errno));
    return 1;
  }
  bool rok = read_all(fd, &data);
  int rerr = errno;
  if (fd != 0)
    close(fd);
  if (!rok) {
    cli_err(cli, "Error reading source state \"%s\": read %s: %s\n",
            src_path, src_path, cmd_errstr(cli, rerr));
    return 1;
  }
  State *src = NULL;
  Diags rd;
  diag_init(&rd, cli->arena);
  if (!st_read(cli->arena, src_path, data.p ? data.p : "", data.len, &src,
               &rd) ||
      diag_has_errors(&rd)) {
    cli_err(cli, "Error reading source state \"%s\": %s\n", src_path,
            first_error(&rd));
    return 1;
  }
  if (!src) {
    /* An empty input pushes a new, empty state. */
    src = st_new(cli->arena);
    src->lineage = st_new_lineage(cli->arena);
  }
  const char *path = cmd_state_path(cli, NULL, &d);
  if (!path) {
    cli_err(cli, "Error selecting workspace: %s\n", first_error(&d));
    return 1;
  }
  StMgr m;
  int rc = 1;
  State *cur = NULL;
  if (!cmd_state_open_locked(cli, &m, path, NULL, lock, tmo, "state-push", &cur,
                             &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  /* Terraform's CheckValidImport: any state may replace an empty one. */
  if (!force && cur && !cmd_state_empty(cur)) {
    const char *err = NULL;
    if (strcmp(src->lineage, cur->lineage) != 0) {
      err = arena_printf(cli->arena,
                         "cannot import state with lineage \"%s\" over "
                         "unrelated state with lineage \"%s\"",
                         src->lineage, cur->lineage);
    } else if (src->serial < cur->serial) {
      err = arena_printf(cli->arena,
                         "cannot import state with serial %llu over newer "
                         "state with serial %llu",
                         (unsigned long long)src->serial,
                         (unsigned long long)cur->serial);
    } else if (src->serial == cur->serial) {
      Buf a, b;
      buf_init(&a, cli->arena);
      buf_init(&b, cli->arena);
      st_write_content(&a, src);
      st_write_content(&b, cur);
      if (a.len != b.len || memcmp(a.p, b.p, a.len) != 0)
        err = arena_printf(cli->arena,
                           "cannot overwrite existing state with serial "
                           "%llu with a different state that has the same "
                           "serial",
                           (unsigned long long)src->serial);
    }
    if (err) {
      cli_err(cli, "Failed to write state: %s\n", err);
      goto out;
    }
  }
  /* The pushed lineage and serial, the serial bumped once when the
  ** content differs from what was on disk (see stmgr_commit_import). */
  if (!stmgr_commit_import(&m, src, &d)) {
    cli_err(cli, "Failed to persist state: %s\n", first_error(&d));
    goto out;
  }
  rc = 0;
out:
  cmd_state_close(cli, &m);
  return rc;
}

const CmdEntry cmd_state_push = {
    "state push", "Update remote state from a local state file", help_push,
    run_push, false};
