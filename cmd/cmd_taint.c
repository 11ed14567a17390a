/*
** cmd_taint.c: `cairn taint ADDRESS` and `cairn untaint ADDRESS`, as
** Terraform's internal/command/taint.go and untaint.go: mark the current
** object of one managed resource instance tainted (the next plan replaces
** it) or ready again.
**
** Same plumbing as `state rm` (cmd_state.c): the state file is -state or
** the current workspace's; the lock is taken (operation "taint" /
** "untaint") before the state is read; the change is committed atomically
** through stmgr (backup "<out>.backup" unless -backup says otherwise,
** -state-out writes elsewhere); the lock is released on every path.
** -ignore-remote-version is accepted and ignored (no remote backends).
** Flag errors exit 1 after the help text, as Terraform's do.
*/
#include <string.h>

#include "cli.h"
#include "cmd_backend.h"
#include "cmd_state.h"
#include "state/state.h"
#include "state/stmgr.h"

static const char help_taint[] =
    "Usage: cairn [global options] taint [options] <address>\n\n"
    "  Terraform uses the term \"tainted\" to describe a resource instance\n"
    "  which may not be fully functional, either because its creation\n"
    "  partially failed or because you've manually marked it as such "
    "using\n"
    "  this command.\n\n"
    "  This will not modify your infrastructure directly, but subsequent\n"
    "  Terraform plans will include actions to destroy the remote object\n"
    "  and create a new object to replace it.\n\n"
    "  You can remove the \"taint\" state from a resource instance using\n"
    "  the \"cairn untaint\" command.\n\n"
    "  The address is in the usual resource address syntax, such as:\n"
    "    aws_instance.foo\n"
    "    aws_instance.bar[1]\n"
    "    module.foo.module.bar.aws_instance.baz\n\n"
    "  Use your shell's quoting or escaping syntax to ensure that the\n"
    "  address will reach Terraform correctly, without any special\n"
    "  interpretation.\n\n"
    "Options:\n\n"
    "  -allow-missing          If specified, the command will succeed (exit "
    "code 0)\n"
    "                          even if the resource is missing.\n\n"
    "  -lock=false             Don't hold a state lock during the "
    "operation. This is\n"
    "                          dangerous if others might concurrently run "
    "commands\n"
    "                          against the same workspace.\n\n"
    "  -lock-timeout=0s        Duration to retry a state lock.\n\n"
    "  -ignore-remote-version  A rare option used for the remote backend "
    "only. See\n"
    "                          the remote backend documentation for more "
    "information.\n\n"
    "  -state, state-out, and -backup are legacy options supported for the "
    "local\n"
    "  backend only. For more information, see the local backend's "
    "documentation.\n";

static const char help_untaint[] =
    "Usage: cairn [global options] untaint [options] name\n\n"
    "  Terraform uses the term \"tainted\" to describe a resource instance\n"
    "  which may not be fully functional, either because its creation\n"
    "  partially failed or because you've manually marked it as such "
    "using\n"
    "  the \"cairn taint\" command.\n\n"
    "  This command removes that state from a resource instance, causing\n"
    "  Terraform to see it as fully-functional and not in need of\n"
    "  replacement.\n\n"
    "  This will not modify your infrastructure directly. It only avoids\n"
    "  Terraform planning to replace a tainted instance in a future "
    "operation.\n\n"
    "Options:\n\n"
    "  -allow-missing          If specified, the command will succeed (exit "
    "code 0)\n"
    "                          even if the resource is missing.\n\n"
    "  -lock=false             Don't hold a state lock during the "
    "operation. This is\n"
    "                          dangerous if others might concurrently run "
    "commands\n"
    "                          against the same workspace.\n\n"
    "  -lock-timeout=0s        Duration to retry a state lock.\n\n"
    "  -ignore-remote-version  A rare option used for the remote backend "
    "only. See\n"
    "                          the remote backend documentation for more "
    "information.\n\n"
    "  -state, state-out, and -backup are legacy options supported for the "
    "local\n"
    "  backend only. For more information, see the local backend's "
    "documentation.\n";

/* The instance address as Terraform prints an AbsResourceInstance. */
static const char *instance_text(Arena *a, const StAddr *ad)
{
  Buf rb;
  buf_init(&rb, a);
  st_format_resource(&rb, ad->module, ad->mode, ad->type, ad->name);
  StResource tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.addr = buf_str(&rb);
  return st_instance_addr(a, &tmp, ad->key);
}

static int missing_ok(Cli *cli, const char *addr)
{
  Diags d;
  diag_init(&d, cli->arena);
  diag_warning(&d, NULL, "No such resource instance",
               "Resource instance %s was not found, but this is not an "
               "error because -allow-missing was set.", addr);
  cli_diags(cli, &d);
  return 0;
}

static int fail(Cli *cli, Diags *d)
{
  cli_diags(cli, d);
  return 1;
}

/* Commits s; Terraform reports a failed write as "Error writing state
** file: ...". */
static bool save(Cli *cli, StMgr *m, State *s)
{
  Diags d;
  diag_init(&d, cli->arena);
  if (stmgr_commit(m, s, &d))
    return true;
  const char *why = "unknown error";
  if (d.head)
    why = d.head->detail && *d.head->detail ? d.head->detail
                                             : d.head->summary;
  cli_err(cli, "Error writing state file: %s\n", why);
  return false;
}

static int run(Cli *cli, int argc, char **argv, bool untaint)
{
  const char *name = untaint ? "untaint" : "taint";
  const char *help = untaint ? help_untaint : help_taint;
  bool allow_missing = false, lock = true, ignore_remote = false;
  const char *backup = NULL, *timeout = "0s", *state_path = NULL;
  const char *state_out = NULL;
  CliFlag flags[] = {{"allow-missing", FLAG_BOOL, &allow_missing},
                     {"backup", FLAG_STRING, &backup},
                     {"lock", FLAG_BOOL, &lock},
                     {"lock-timeout", FLAG_STRING, &timeout},
                     {"state", FLAG_STRING, &state_path},
                     {"state-out", FLAG_STRING, &state_out},
                     {"ignore-remote-version", FLAG_BOOL, &ignore_remote}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  long tmo;
  if (!cli_parse_flags(cli, argc, argv, flags, 7, &rest, &d) ||
      !cmd_lock_timeout(timeout, &tmo, &d)) {
    /* Go's flag package calls Usage (the help) before the error. */
    cli_err(cli, "%s\nError parsing command-line flags: %s\n\n", help,
            d.head && d.head->detail ? d.head->detail : "");
    return 1;
  }
  if (argc - rest != 1) {
    cli_err(cli, "The %s command expects exactly one argument.\n%s\n", name,
            help);
    return 1;
  }
  StAddr ad;
  if (!st_parse_addr(cli->arena, argv[rest], &ad, &d))
    return fail(cli, &d);
  if (ad.kind == ST_ADDR_MODULE) {
    diag_error(&d, NULL, "Invalid address",
               "Resource specification must include a resource type and "
               "name.");
    return fail(cli, &d);
  }
  if (ad.kind == ST_ADDR_RESOURCE)
    ad.key = st_nokey();
  const char *addr = instance_text(cli->arena, &ad);
  if (!untaint && ad.mode != ST_MANAGED) {
    cli_err(cli, "Resource instance %s cannot be tainted\n", addr);
    return 1;
  }

  if (!cmd_backend(cli, NULL, CMD_BACKEND_USE, &d)) {
    cli_diags(cli, &d);
    return 1;
  }
  const char *path = cmd_state_path(cli, state_path, &d);
  if (!path) {
    cli_err(cli, "Error selecting workspace: %s\n", d.head->summary);
    return 1;
  }
  StMgr m;
  StMgrOpts o = {path, state_out && *state_out ? state_out : NULL, backup};
  stmgr_init(&m, cli->arena, &o);
  int rc = 1;
  State *s = NULL;
  if (!cmd_state_lock(cli, &m, lock, name, tmo, &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  if (!stmgr_load(&m, &s, &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  if (!m.had_file || cmd_state_empty(s)) {
    if (allow_missing) {
      rc = missing_ok(cli, addr);
      goto out;
    }
    diag_error(&d, NULL, "No such resource instance",
               "The state currently contains no resource instances "
               "whatsoever. This may occur if the configuration has never "
               "been applied or if it has recently been destroyed.");
    cli_diags(cli, &d);
    goto out;
  }
  StResource *r = st_find_resource(s, ad.module, ad.mode, ad.type, ad.name);
  StInstance *in = r ? st_find_instance(s, r, ad.key) : NULL;
  if (!in) {
    if (allow_missing) {
      rc = missing_ok(cli, addr);
      goto out;
    }
    /* untaint.go keeps taint's wording, "before they can be tainted". */
    diag_error(&d, NULL, "No such resource instance",
               "There is no resource instance in the state with the address "
               "%s. If the resource configuration has just been added, you "
               "must run \"terraform apply\" once to create the "
               "corresponding instance(s) before they can be tainted.",
               addr);
    cli_diags(cli, &d);
    goto out;
  }
  StObject *obj = in->current;
  if (!obj) {
    if (in->ndeposed)
      diag_error(&d, NULL, "No such resource instance",
                 "Resource instance %s is currently part-way through a "
                 "create_before_destroy replacement action. Run \"terraform "
                 "apply\" to complete its replacement before tainting it.",
                 addr);
    else
      diag_error(&d, NULL, "No such resource instance",
                 "Resource instance %s does not currently have a remote "
                 "object associated with it, so it cannot be tainted.",
                 addr);
    cli_diags(cli, &d);
    goto out;
  }
  if (untaint && obj->status != ST_TAINTED) {
    diag_error(&d, NULL, "Resource instance is not tainted",
               "Resource instance %s is not currently tainted, and so it "
               "cannot be untainted.", addr);
    cli_diags(cli, &d);
    goto out;
  }
  /* Objects may be shared with other structures of the state; change a
  ** copy, as st_set_current's callers do. */
  StObject *nobj = ARENA_NEW(cli->arena, StObject, 1);
  *nobj = *obj;
  nobj->status = untaint ? ST_READY : ST_TAINTED;
  st_set_current(s, r, ad.key, nobj);
  if (!save(cli, &m, s))
    goto out;
  if (untaint)
    cli_out(cli, "Resource instance %s has been successfully untainted.\n",
            addr);
  else
    cli_out(cli, "Resource instance %s has been marked as tainted.\n", addr);
  rc = 0;
out:
  cmd_state_close(cli, &m);
  return rc;
}

static int run_taint(Cli *cli, int argc, char **argv)
{
  return run(cli, argc, argv, false);
}

static int run_untaint(Cli *cli, int argc, char **argv)
{
  return run(cli, argc, argv, true);
}

const CmdEntry cmd_taint = {"taint",
                            "Mark a resource instance as not fully functional",
                            help_taint, run_taint, false};
const CmdEntry cmd_untaint = {
    "untaint", "Remove the 'tainted' state from a resource instance",
    help_untaint, run_untaint, false};
