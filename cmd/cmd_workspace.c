/*
** cmd_workspace.c: `cairn workspace list|show|new|select|delete`, the
** local backend's workspaces (core/state/workspace.h) with Terraform's messages.
**
** The state of a workspace is only touched through stmgr: `new -state`
** seeds the new workspace's state with a locked, atomic commit, and
** `delete` locks the state while it checks that nothing is tracked.
*/
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_backend.h"
#include "cmd_state.h"
#include "state/state.h"
#include "state/stmgr.h"
#include "state/workspace.h"

static const char msg_invalid_name[] =
    "\nThe workspace name \"%s\" is not allowed. The name must contain only "
    "URL safe\ncharacters, and no path separators.\n\n";

static const char msg_not_exist[] =
    "Workspace \"%s\" doesn't exist.\n\n"
    "You can create this workspace with the \"new\" subcommand \n"
    "or include the \"-or-create\" flag with the \"select\" subcommand.\n";

static const char msg_created[] =
    "Created and switched to workspace \"%s\"!\n\n"
    "You're now on a new, empty workspace. Workspaces isolate their state,\n"
    "so if you run \"terraform plan\" Terraform will not see any existing "
    "state\n"
    "for this configuration.\n";

static const char msg_overridden_note[] =
    "\n\nThe active workspace is being overridden using the TF_WORKSPACE "
    "environment\nvariable.\n\n";

static const char msg_overridden_select[] =
    "\nThe selected workspace is currently overridden using the "
    "TF_WORKSPACE\nenvironment variable.\n\n"
    "To select a new workspace, either update this environment variable or "
    "unset\nit and then run this command again.\n\n";

static const char msg_overridden_new[] =
    "\nThe workspace is currently overridden using the TF_WORKSPACE "
    "environment\nvariable. You cannot create a new workspace when using "
    "this setting.\n\n"
    "To create a new workspace, either unset this environment variable or "
    "update it\nto match the workspace name you are trying to create, and "
    "then run this command\nagain.\n\n";

static int usage(Cli *cli, const char *msg, const char *help)
{
  cli_err(cli, "%s\n%s", msg, help);
  return 2;
}

/* Prints a failed core call the way Terraform's Ui.Error does: the
** message alone. */
static int plain_error(Cli *cli, const char *prefix, Diags *d)
{
  for (Diag *g = d->head; g; g = g->next) {
    if (g->severity != DIAG_ERROR)
      continue;
    const char *msg = g->detail && *g->detail ? g->detail : g->summary;
    cli_err(cli, "%s%s\n", prefix, msg);
    return 1;
  }
  cli_err(cli, "%sunknown error\n", prefix);
  return 1;
}

/* The configured backend; prints its error. */
static const Backend *backend(Cli *cli)
{
  Diags d;
  diag_init(&d, cli->arena);
  const Backend *b = cmd_backend(cli, NULL, CMD_BACKEND_USE, &d);
  if (!b)
    cli_diags(cli, &d);
  return b;
}

static const char *current(Cli *cli, Diags *d)
{
  return ws_current(cli->arena, NULL, d);
}

/* ---- list ----------------------------------------------------------------- */

static const char help_list[] =
    "Usage: cairn [global options] workspace list\n\n"
    "  List Terraform workspaces.\n";

static int run_list(Cli *cli, int argc, char **argv)
{
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, NULL, 0, &rest, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  if (rest != argc)
    return usage(cli, "Too many command line arguments.\n", help_list);
  const Backend *be = backend(cli);
  if (!be)
    return 1;
  const char **names;
  int n;
  if (!be_list(be, cli->arena, &names, &n, &d))
    return plain_error(cli, "", &d);
  /* An invalid TF_WORKSPACE still lists, marking nothing, as Terraform's
  ** WorkspaceOverridden does not validate. */
  const char *ov = ws_override();
  const char *cur = ov ? ov : current(cli, &d);
  Buf out;
  buf_init(&out, cli->arena);
  for (int i = 0; i < n; i++)
    buf_printf(&out, "%s%s\n", cur && strcmp(cur, names[i]) == 0 ? "* " : "  ",
               names[i]);
  buf_putc(&out, '\n');
  cli_out_buf(cli, &out);
  if (ov)
    cli_out(cli, "%s", msg_overridden_note);
  return 0;
}

/* ---- show ----------------------------------------------------------------- */

static const char help_show[] =
    "Usage: cairn [global options] workspace show\n\n"
    "  Show the name of the current workspace.\n";

static int run_show(Cli *cli, int argc, char **argv)
{
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, NULL, 0, &rest, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  if (rest != argc)
    return usage(cli, "Too many command line arguments.\n", help_show);
  const char *cur = current(cli, &d);
  if (!cur) {
    cli_err(cli, "Error selecting workspace: %s\n", d.head->summary);
    return 1;
  }
  cli_out(cli, "%s\n", cur);
  return 0;
}

/* ---- new ------------------------------------------------------------------ */

static const char help_new[] =
    "Usage: cairn [global options] workspace new [OPTIONS] NAME\n\n"
    "  Create a new Terraform workspace.\n\n"
    "Options:\n\n"
    "    -lock=false         Don't hold a state lock during the operation. "
    "This is\n"
    "                        dangerous if others might concurrently run "
    "commands\n"
    "                        against the same workspace.\n\n"
    "    -lock-timeout=0s    Duration to retry a state lock.\n\n"
    "    -state=path         Copy an existing state file into the new "
    "workspace.\n";

/* Reads and parses the seed state for `new -state`; *out NULL for an
** empty file.  Prints the error itself. */
static bool read_seed(Cli *cli, const char *path, State **out)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    cli_err(cli, "open %s: %s\n", path, cmd_errstr(cli, errno));
    return false;
  }
  Buf b;
  buf_init(&b, cli->arena);
  char tmp[65536];
  bool ok = true;
  for (;;) {
    ssize_t k = read(fd, tmp, sizeof tmp);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0) {
      cli_err(cli, "read %s: %s\n", path, cmd_errstr(cli, errno));
      ok = false;
      break;
    }
    if (k == 0)
      break;
    if (b.len + (size_t)k > ST_MAX_FILE_BYTES) {
      cli_err(cli, "read %s: %s\n", path, cmd_errstr(cli, EFBIG));
      ok = false;
      break;
    }
    buf_put(&b, tmp, (size_t)k);
  }
  close(fd);
  if (!ok)
    return false;
  Diags d;
  diag_init(&d, cli->arena);
  if (!st_read(cli->arena, path, b.p ? b.p : "", b.len, out, &d) ||
      diag_has_errors(&d)) {
    cli_diags(cli, &d);
    return false;
  }
  return true;
}

static int run_new(Cli *cli, int argc, char **argv)
{
  bool lock = true;
  const char *timeout = "0s", *seed_path = NULL;
  CliFlag flags[] = {{"lock", FLAG_BOOL, &lock},
                     {"lock-timeout", FLAG_STRING, &timeout},
                     {"state", FLAG_STRING, &seed_path}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  long tmo;
  if (!cli_parse_flags(cli, argc, argv, flags, 3, &rest, &d) ||
      !cmd_lock_timeout(timeout, &tmo, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  if (argc - rest != 1)
    return usage(cli, "Expected a single argument: NAME.\n", help_new);
  const Backend *be = backend(cli);
  if (!be)
    return 1;
  const char *name = argv[rest];
  bool local = !be->ws && !be->remote;
  if (!(local ? ws_dir_name_ok(name) : ws_valid_name(name))) {
    cli_err(cli, msg_invalid_name, name);
    return 1;
  }
  const char *ov = ws_override();
  if (ov && strcmp(ov, name) != 0) {
    cli_err(cli, "%s", msg_overridden_new);
    return 1;
  }
  if (be_exists(be, cli->arena, name)) {
    cli_err(cli, "Workspace \"%s\" already exists\n", name);
    return 1;
  }
  /* The seed is read before anything is created, so a bad -state file
  ** leaves no half-made workspace behind. */
  State *seed = NULL;
  bool seeding = seed_path && *seed_path;
  if (seeding && !read_seed(cli, seed_path, &seed))
    return 1;
  if (!be_create(be, cli->arena, name, &d))
    return plain_error(cli, "", &d);
  if (!ws_select(cli->arena, NULL, name, &d))
    return plain_error(cli, "Error selecting new workspace: ", &d);
  cli_out(cli, msg_created, name);
  if (!seeding || !seed)
    return 0;
  StMgr m;
  StMgrOpts o = {be_state_path(be, cli->arena, name), NULL, "-"};
  stmgr_init(&m, cli->arena, &o);
  int rc = 1;
  State *cur = NULL;
  if (!cmd_state_lock(cli, &m, lock, "workspace-new", tmo, &d) ||
      !stmgr_load(&m, &cur, &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  /* Terraform writes the seed's content as a fresh snapshot: a new
  ** lineage, serial 1. */
  seed->lineage = "";
  if (!stmgr_commit(&m, seed, &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  rc = 0;
out:
  cmd_state_close(cli, &m);
  return rc;
}

/* ---- select --------------------------------------------------------------- */

static const char help_select[] =
    "Usage: cairn [global options] workspace select NAME\n\n"
    "  Select a different Terraform workspace.\n\n"
    "Options:\n\n"
    "    -or-create=false    Create the Terraform workspace if it doesn't "
    "exist.\n";

static int run_select(Cli *cli, int argc, char **argv)
{
  bool or_create = false;
  CliFlag flags[] = {{"or-create", FLAG_BOOL, &or_create}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 1, &rest, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  if (argc - rest != 1)
    return usage(cli, "Expected a single argument: NAME.\n", help_select);
  const Backend *be = backend(cli);
  if (!be)
    return 1;
  if (ws_override()) {
    cli_err(cli, "%s", msg_overridden_select);
    return 1;
  }
  const char *name = argv[rest];
  if (!ws_valid_name(name)) {
    cli_err(cli, msg_invalid_name, name);
    return 1;
  }
  const char *cur = current(cli, &d);
  if (cur && strcmp(cur, name) == 0)
    return 0;
  bool created = false;
  if (!be_exists(be, cli->arena, name)) {
    if (!or_create) {
      cli_err(cli, "\n");
      cli_err(cli, msg_not_exist, name);
      return 1;
    }
    if (!be_create(be, cli->arena, name, &d))
      return plain_error(cli, "", &d);
    created = true;
  }
  if (!ws_select(cli->arena, NULL, name, &d))
    return plain_error(cli, "", &d);
  if (created)
    cli_out(cli, msg_created, name);
  else
    cli_out(cli, "Switched to workspace \"%s\".\n", name);
  return 0;
}

/* ---- delete --------------------------------------------------------------- */

static const char help_delete[] =
    "Usage: cairn [global options] workspace delete [OPTIONS] NAME\n\n"
    "  Delete a Terraform workspace\n\n\n"
    "Options:\n\n"
    "  -force             Remove even a non-empty workspace.\n\n"
    "  -lock=false        Don't hold a state lock during the operation. This "
    "is\n"
    "                     dangerous if others might concurrently run "
    "commands\n"
    "                     against the same workspace.\n\n"
    "  -lock-timeout=0s   Duration to retry a state lock.\n";

/* Lists the managed objects a workspace still tracks ("\n  - addr"), or
** returns false when there are none. */
static bool tracked(Arena *a, State *s, Buf *list)
{
  st_sort(s);
  bool any = false;
  for (uint32_t i = 0; i < s->nres; i++) {
    StResource *r = s->res[i];
    if (r->mode != ST_MANAGED)
      continue;
    for (uint32_t k = 0; k < r->ninst; k++) {
      StInstance *in = r->inst[k];
      const char *addr = st_instance_addr(a, r, in->key);
      if (in->current) {
        buf_printf(list, "\n  - %s", addr);
        any = true;
      }
      for (uint32_t j = 0; j < in->ndeposed; j++) {
        buf_printf(list, "\n  - %s (deposed object %s)", addr,
                   in->deposed[j].key);
        any = true;
      }
    }
  }
  return any;
}

static int run_delete(Cli *cli, int argc, char **argv)
{
  bool force = false, lock = true;
  const char *timeout = "0s";
  CliFlag flags[] = {{"force", FLAG_BOOL, &force},
                     {"lock", FLAG_BOOL, &lock},
                     {"lock-timeout", FLAG_STRING, &timeout}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  long tmo;
  if (!cli_parse_flags(cli, argc, argv, flags, 3, &rest, &d) ||
      !cmd_lock_timeout(timeout, &tmo, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  if (argc - rest != 1)
    return usage(cli, "Expected a single argument: NAME.\n", help_delete);
  const Backend *be = backend(cli);
  if (!be)
    return 1;
  const char *name = argv[rest];
  if (!be_exists(be, cli->arena, name)) {
    cli_err(cli, msg_not_exist, name);
    return 1;
  }
  const char *cur = current(cli, &d);
  if (!cur) {
    cli_err(cli, "Error selecting workspace: %s\n", d.head->summary);
    return 1;
  }
  if (strcmp(cur, name) == 0) {
    cli_err(cli,
            "Workspace \"%s\" is your active workspace.\n\n"
            "You cannot delete the currently active workspace. Please "
            "switch\nto another workspace and try again.\n",
            name);
    return 1;
  }
  if (strcmp(name, WS_DEFAULT) == 0) {
    cli_err(cli, "cannot delete default state\n");
    return 1;
  }
  StMgr m;
  StMgrOpts o = {be_state_path(be, cli->arena, name), NULL, "-"};
  stmgr_init(&m, cli->arena, &o);
  State *s = NULL;
  /* Terraform takes this lock under the operation name
  ** "state-replace-provider" (a slip in its source); cairn names it. */
  if (!cmd_state_lock(cli, &m, lock, "workspace-delete", tmo, &d) ||
      !stmgr_load(&m, &s, &d)) {
    cmd_state_close(cli, &m);
    cli_diags(cli, &d);
    return 1;
  }
  Buf list;
  buf_init(&list, cli->arena);
  bool has = tracked(cli->arena, s, &list);
  if (has && !force) {
    cmd_state_close(cli, &m);
    diag_error(&d, NULL, "Workspace is not empty",
               "Workspace \"%s\" is currently tracking the following "
               "resource instances:%s\n\n"
               "Deleting this workspace would cause Terraform to lose track "
               "of any associated remote objects, which would then require "
               "you to delete them manually outside of Terraform. You "
               "should destroy these objects with Terraform before "
               "deleting the workspace.\n\n"
               "If you want to delete this workspace anyway, and have "
               "Terraform forget about these managed objects, use the "
               "-force option to disable this safety check.",
               name, buf_str(&list));
    cli_diags(cli, &d);
    return 1;
  }
  /* Unlock before removing: the lock file lives in the directory that is
  ** about to go. */
  cmd_state_close(cli, &m);
  if (!be_delete(be, cli->arena, name, &d))
    return plain_error(cli, "", &d);
  cli_out(cli, "Deleted workspace \"%s\"!\n", name);
  if (has)
    cli_out(cli,
            "WARNING: \"%s\" was non-empty.\n"
            "The resources managed by the deleted workspace may still "
            "exist,\n"
            "but are no longer manageable by Terraform since the state has\n"
            "been deleted.\n\n",
            name);
  return 0;
}

/* ---- `workspace` alone ---------------------------------------------------- */

static const char help_ws[] =
    "Usage: cairn [global options] workspace\n\n"
    "  new, list, show, select and delete Terraform workspaces.\n\n"
    "Subcommands:\n"
    "    delete    Delete a workspace\n"
    "    list      List Workspaces\n"
    "    new       Create a new workspace\n"
    "    select    Select a workspace\n"
    "    show      Show the name of the current workspace\n";

static int run_ws(Cli *cli, int argc, char **argv)
{
  (void)argc;
  (void)argv;
  cli_out(cli, "%s", help_ws);
  return 0;
}

const CmdEntry cmd_workspace = {"workspace", "Workspace management", help_ws,
                                run_ws, false};
const CmdEntry cmd_workspace_delete = {"workspace delete",
                                       "Delete a workspace", help_delete,
                                       run_delete, false};
const CmdEntry cmd_workspace_list = {"workspace list", "List Workspaces",
                                     help_list, run_list, false};
const CmdEntry cmd_workspace_new = {"workspace new", "Create a new workspace",
                                    help_new, run_new, false};
const CmdEntry cmd_workspace_select = {"workspace select",
                                       "Select a workspace", help_select,
                                       run_select, false};
const CmdEntry cmd_workspace_show = {"workspace show",
                                     "Show the name of the current workspace",
                                     help_show, run_show, false};
