/*
** cmd_state_edit: the `state` subcommands that change state in place,
** `state rm`, `state mv` (within one state or into another) and
** `state replace-provider`: each locks, loads, changes the in-memory
** State, commits with a backup and unlocks on every exit path.
*/
#include "cmd_state_priv.h"

#include <stdint.h>
#include <string.h>

#include "state/state.h"

/* ---- state rm ------------------------------------------------------------ */

static const char help_rm[] =
    "Usage: cairn [global options] state rm [options] ADDRESS...\n\n"
    "  Remove one or more items from the Terraform state, causing Terraform "
    "to\n"
    "  \"forget\" those items without first destroying them in the remote "
    "system.\n\n"
    "  This command removes one or more resource instances from the "
    "Terraform state\n"
    "  based on the addresses given. You can view and list the available "
    "instances\n"
    "  with \"terraform state list\".\n\n"
    "  If you give the address of an entire module then all of the "
    "instances in\n"
    "  that module and any of its child modules will be removed from the "
    "state.\n\n"
    "  If you give the address of a resource that has \"count\" or "
    "\"for_each\" set,\n"
    "  all of the instances of that resource will be removed from the "
    "state.\n\n"
    "Options:\n\n"
    "  -dry-run                If set, prints out what would've been "
    "removed but\n"
    "                          doesn't actually remove anything.\n\n"
    "  -backup=PATH            Path where Terraform should write the "
    "backup\n"
    "                          state.\n\n"
    "  -lock=false             Don't hold a state lock during the "
    "operation. This is\n"
    "                          dangerous if others might concurrently run "
    "commands\n"
    "                          against the same workspace.\n\n"
    "  -lock-timeout=0s        Duration to retry a state lock.\n\n"
    "  -state=PATH             Path to the state file to update. Defaults "
    "to the\n"
    "                          current workspace state.\n\n"
    "  -ignore-remote-version  Continue even if remote and local Terraform "
    "versions\n"
    "                          are incompatible. This may result in an "
    "unusable\n"
    "                          workspace, and should be used with extreme "
    "caution.\n";

static const char msg_persist[] =
    "Error saving the state: %s\n\n"
    "The state was not saved. No items were removed from the persisted\n"
    "state. No backup was created since no modification occurred. Please\n"
    "resolve the issue above and try again.\n";

/* Forgets every object (current and deposed) of one instance. */
static void forget_instance(State *s, StResource *r, StKey key)
{
  StInstance *in = st_find_instance(s, r, key);
  if (!in)
    return;
  while (in->ndeposed > 0) {
    char dk[9];
    memcpy(dk, in->deposed[in->ndeposed - 1].key, 9);
    bool last = !in->current && in->ndeposed == 1;
    st_set_deposed(s, r, key, dk, NULL);
    if (last)
      return; /* the instance (and maybe the resource) is gone */
  }
  st_set_current(s, r, key, NULL);
}

/* Commits s, rendering a failure with Terraform's "Error saving the state"
** text.  Returns false on failure. */
static bool save_state(Cli *cli, StMgr *m, State *s)
{
  Diags d;
  diag_init(&d, cli->arena);
  if (stmgr_commit(m, s, &d))
    return true;
  const char *why = d.head ? (d.head->detail && *d.head->detail
                                  ? d.head->detail
                                  : d.head->summary)
                           : "unknown error";
  cli_err(cli, msg_persist, why);
  return false;
}

static int run_rm(Cli *cli, int argc, char **argv)
{
  bool dry = false, lock = true;
  const char *backup = "-", *timeout = "0s", *state_path = NULL;
  bool ignore_remote = false;
  CliFlag flags[] = {{"dry-run", FLAG_BOOL, &dry},
                     {"backup", FLAG_STRING, &backup},
                     {"lock", FLAG_BOOL, &lock},
                     {"lock-timeout", FLAG_STRING, &timeout},
                     {"state", FLAG_STRING, &state_path},
                     {"ignore-remote-version", FLAG_BOOL, &ignore_remote}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  long tmo;
  if (!cli_parse_flags(cli, argc, argv, flags, 6, &rest, &d) ||
      !cmd_lock_timeout(timeout, &tmo, &d))
    return cmd_state_flag_error(cli, &d);
  if (argc - rest < 1)
    return cmd_state_usage(cli, "At least one address is required.\n",
                           help_rm);
  const char *path = cmd_state_path(cli, state_path, &d);
  if (!path) {
    cli_diags(cli, &d);
    return 1;
  }
  StMgr m;
  StMgrOpts o = {path, NULL, cmd_state_backup(cli, path, backup)};
  stmgr_init(&m, cli->arena, &o);
  int rc = 1;
  State *s = NULL;
  if (!cmd_state_lock(cli, &m, lock, "state-rm", tmo, &d) ||
      !cmd_state_load(cli, &m, &s, &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  if (!s) {
    cli_err(cli, "%s", cmd_state_msg_no_state);
    goto out;
  }
  st_sort(s);
  SelList l = {0};
  for (int i = rest; i < argc; i++) {
    StAddr ad;
    if (st_parse_addr(cli->arena, argv[i], &ad, &d))
      cmd_state_lookup(cli->arena, s, &ad, argv[i], true, &l, &d);
  }
  if (diag_has_errors(&d)) {
    cli_diags(cli, &d);
    goto out;
  }
  /* Addresses are formatted before anything is removed: removal may free
  ** a resource's slot. */
  const char **names = ARENA_NEW(cli->arena, const char *, l.n + 1);
  for (size_t i = 0; i < l.n; i++)
    names[i] = st_instance_addr(cli->arena, l.v[i].r, l.v[i].key);
  for (size_t i = 0; i < l.n; i++) {
    cli_out(cli, "%s%s\n", dry ? "Would remove " : "Removed ", names[i]);
    if (!dry) {
      StResource *r = st_find_resource(s, l.v[i].r->module, l.v[i].r->mode,
                                        l.v[i].r->type, l.v[i].r->name);
      if (r)
        forget_instance(s, r, l.v[i].key);
    }
  }
  if (dry) {
    if (l.n == 0)
      cli_out(cli, "Would have removed nothing.\n");
    rc = 0;
    goto out;
  }
  if (!save_state(cli, &m, s))
    goto out;
  if (l.n == 0) {
    diag_error(&d, NULL, "Invalid target address",
               "No matching objects found. To view the available instances, "
               "use \"terraform state list\". Please modify the address to "
               "reference a specific instance.");
    cli_diags(cli, &d);
    goto out;
  }
  cli_out(cli, "Successfully removed %zu resource instance(s).\n", l.n);
  rc = 0;
out:
  cmd_state_close(cli, &m);
  return rc;
}

/* ---- state mv ------------------------------------------------------------ */

static const char help_mv[] =
    "Usage: cairn [global options] state mv [options] SOURCE DESTINATION\n\n"
    " This command will move an item matched by the address given to the\n"
    " destination address. This command can also move to a destination "
    "address\n"
    " in a completely different state file.\n\n"
    " This can be used for simple resource renaming, moving items to and "
    "from\n"
    " a module, moving entire modules, and more. And because this command "
    "can also\n"
    " move data to a completely new state, it can also be used for "
    "refactoring\n"
    " one configuration into multiple separately managed Terraform "
    "configurations.\n\n"
    " This command will output a backup copy of the state prior to saving "
    "any\n"
    " changes. The backup cannot be disabled. Due to the destructive "
    "nature\n"
    " of this command, backups are required.\n\n"
    " If you're moving an item to a different state file, a backup will be "
    "created\n"
    " for each state file.\n\n"
    "Options:\n\n"
    "  -dry-run                If set, prints out what would've been moved "
    "but doesn't\n"
    "                          actually move anything.\n\n"
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

/* The module path with instance keys removed ("module.a[0]" ->
** "module.a"), as dependencies name resources. */
static const char *config_module(Arena *a, const char *mod)
{
  Buf b;
  buf_init(&b, a);
  MStep st;
  for (const char *p = cmd_state_next_step(mod, &st); p;
       p = cmd_state_next_step(p, &st)) {
    if (b.len)
      buf_putc(&b, '.');
    buf_puts(&b, "module.");
    buf_put(&b, st.name, st.nlen);
  }
  return buf_str(&b);
}

static const char *config_resource(Arena *a, const char *mod, StMode mode,
                                   const char *type, const char *name)
{
  Buf b;
  buf_init(&b, a);
  st_format_resource(&b, config_module(a, mod), mode, type, name);
  return buf_str(&b);
}

/* Clears the dependencies of every current object that depends on what
** was moved (Terraform does this so they are recorded again in full). */
static void drop_dependencies(State *s, const char *moved, bool is_module)
{
  size_t n = strlen(moved);
  for (uint32_t i = 0; i < s->nres; i++) {
    StResource *r = s->res[i];
    for (uint32_t k = 0; k < r->ninst; k++) {
      StObject *o = r->inst[k]->current;
      if (!o)
        continue;
      for (uint32_t j = 0; j < o->ndeps; j++) {
        const char *dep = o->deps[j];
        bool hit = is_module ? (n == 0 || (strncmp(dep, moved, n) == 0 &&
                                           dep[n] == '.'))
                             : strcmp(dep, moved) == 0;
        if (hit) {
          /* objects may be shared with another state (st_clone): set a
          ** changed copy instead of writing into this one */
          StObject *no = ARENA_NEW(s->arena, StObject, 1);
          *no = *o;
          no->deps = NULL;
          no->ndeps = 0;
          r->inst[k]->current = no;
          break;
        }
      }
    }
  }
}

/* Moves every object of instance (from, fkey) to (to, tkey). */
static void move_instance(State *sf, StResource *from, StKey fkey,
                          State *stt, StResource *to, StKey tkey)
{
  StInstance *in = st_find_instance(sf, from, fkey);
  if (!in)
    return;
  StObject *cur = in->current;
  uint32_t nd = in->ndeposed;
  StDeposed *dep = ARENA_NEW(sf->arena, StDeposed, nd + 1);
  if (nd)
    memcpy(dep, in->deposed, nd * sizeof *dep);
  if (cur)
    st_set_current(stt, to, tkey, cur);
  for (uint32_t k = 0; k < nd; k++)
    st_set_deposed(stt, to, tkey, dep[k].key, dep[k].obj);
  /* Clear the source last: clearing may remove `from` itself. */
  StInstance *src = st_find_instance(sf, from, fkey);
  if (src && src != st_find_instance(stt, to, tkey))
    forget_instance(sf, from, fkey);
}

/* Moves a whole resource to a new module/name (same mode and type). */
static void move_resource(State *sf, StResource *r, State *stt,
                          const char *module, const char *name)
{
  StResource *nr = st_ensure_resource(stt, module, r->mode, r->type, name,
                                      r->provider);
  uint32_t n = r->ninst;
  StKey *keys = ARENA_NEW(sf->arena, StKey, n + 1);
  for (uint32_t k = 0; k < n; k++)
    keys[k] = r->inst[k]->key;
  const char *om = r->module, *ot = r->type, *on = r->name;
  StMode mode = r->mode;
  for (uint32_t k = 0; k < n; k++) {
    StResource *cur = st_find_resource(sf, om, mode, ot, on);
    if (!cur)
      break;
    move_instance(sf, cur, keys[k], stt, nr, keys[k]);
  }
  StResource *left = st_find_resource(sf, om, mode, ot, on);
  if (left && left != nr)
    st_remove_resource(sf, left);
}

/* Binary search in a strcmp-sorted array. */
static bool in_sorted(const char *const *v, size_t n, const char *key)
{
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(v[mid], key);
    if (c == 0)
      return true;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

/* The distinct module paths of a sorted state, in (bytewise) order:
** st_sort groups resources by module first. */
static const char **distinct_modules(Arena *a, State *s, size_t *n)
{
  st_sort(s);
  const char **v = ARENA_NEW(a, const char *, s->nres + 1);
  size_t k = 0;
  for (uint32_t i = 0; i < s->nres; i++)
    if (k == 0 || strcmp(v[k - 1], s->res[i]->module) != 0)
      v[k++] = s->res[i]->module;
  *n = k;
  return v;
}

/* "Cannot move A to B: the mode/type differ" checks. */
static void validate_move(Diags *d, const char *from_text,
                          const char *to_text, StMode fm, const char *ft,
                          StMode tm, const char *tt)
{
  if (fm != tm)
    diag_error(d, NULL, "Invalid state move request",
               "Cannot move %s to %s: a %s resource can be moved only to "
               "another %s resource address.",
               from_text, to_text, fm == ST_MANAGED ? "managed" : "data",
               fm == ST_MANAGED ? "managed" : "data");
  if (strcmp(ft, tt) != 0)
    diag_error(d, NULL, "Invalid state move request",
               "Cannot move %s to %s: resource types don't match.",
               from_text, to_text);
}

typedef struct MvCtx {
  Cli *cli;
  State *from, *to;
  bool dry;
  const char *prefix;
  int moved;
  Diags *d;
} MvCtx;

static bool mv_modules(MvCtx *c, const StAddr *src, const StAddr *dst,
                       const char *dst_text)
{
  Arena *a = c->cli->arena;
  /* The resources under src (exact keys), grouped by module path: the
  ** state is sorted, so each module's resources are contiguous and the
  ** modules come in bytewise order.  Everything is collected before
  ** anything moves, because moving reorders the resource array. */
  uint32_t nres = c->from->nres;
  StResource **rs = ARENA_NEW(a, StResource *, nres + 1);
  size_t *gstart = ARENA_NEW(a, size_t, nres + 2);
  const char **mods = ARENA_NEW(a, const char *, nres + 1);
  size_t nm = 0, nr = 0;
  size_t sl = strlen(src->module);
  for (uint32_t i = 0; i < nres; i++) {
    StResource *r = c->from->res[i];
    const char *m = r->module;
    if (strncmp(m, src->module, sl) != 0 || (m[sl] && m[sl] != '.'))
      continue;
    if (nm == 0 || strcmp(mods[nm - 1], m) != 0) {
      gstart[nm] = nr;
      mods[nm++] = m;
    }
    rs[nr++] = r;
  }
  gstart[nm] = nr;
  if (nm == 0) {
    diag_error(c->d, NULL, "Invalid source address",
               "Cannot move %s: does not match anything in the current "
               "state.",
               src->module);
    return false;
  }
  if (dst->kind != ST_ADDR_MODULE) {
    diag_error(c->d, NULL, "Invalid target address",
               "Cannot move %s to %s: the target must also be a module.",
               mods[0], dst_text);
    return false;
  }
  size_t nto;
  const char **to_mods = distinct_modules(a, c->to, &nto);
  for (size_t k = 0; k < nm; k++) {
    const char *to = arena_printf(a, "%s%s", dst->module, mods[k] + sl);
    /* A target exists when the destination had it at the start, unless
    ** it was one of the modules already moved away (same state); earlier
    ** targets are all distinct from this one. */
    bool exists = in_sorted(to_mods, nto, to) &&
                  !(c->to == c->from && in_sorted(mods, k, to));
    if (exists) {
      cli_diags(c->cli, c->d);
      cli_err(c->cli,
              "Error moving state: destination module already exists\n\n"
              "Please ensure your addresses and state paths are valid. No\n"
              "state was persisted. Your existing states are untouched.\n");
      return false;
    }
    c->moved++;
    cli_out(c->cli, "%s \"%s\" to \"%s\"\n", c->prefix, mods[k], to);
    if (!c->dry)
      for (size_t i = gstart[k]; i < gstart[k + 1]; i++)
        move_resource(c->from, rs[i], c->to, to, rs[i]->name);
  }
  /* Every moved module lies under src, so one pass covers them all. */
  drop_dependencies(c->to, config_module(a, src->module), true);
  return true;
}

static bool mv_resource(MvCtx *c, StResource *r, const char *src_text,
                        const StAddr *dst, const char *dst_text)
{
  Arena *a = c->cli->arena;
  if (dst->kind != ST_ADDR_RESOURCE) {
    diag_error(c->d, NULL, "Invalid target address",
               "Cannot move %s to %s: the source is a whole resource (not a "
               "resource instance) so the target must also be a whole "
               "resource.",
               src_text, dst_text);
    return false;
  }
  validate_move(c->d, src_text, dst_text, r->mode, r->type, dst->mode,
                dst->type);
  if (st_find_resource(c->to, dst->module, dst->mode, dst->type, dst->name))
    diag_error(c->d, NULL, "Invalid target address",
               "Cannot move to %s: there is already a resource at that "
               "address in the current state.",
               dst_text);
  if (diag_has_errors(c->d))
    return false;
  c->moved++;
  cli_out(c->cli, "%s \"%s\" to \"%s\"\n", c->prefix, src_text, dst_text);
  const char *cfg = config_resource(a, r->module, r->mode, r->type, r->name);
  if (!c->dry)
    move_resource(c->from, r, c->to, dst->module, dst->name);
  drop_dependencies(c->to, cfg, false);
  return true;
}

static bool mv_instance(MvCtx *c, StResource *r, StKey key,
                        const char *src_text, const StAddr *dst,
                        const char *dst_text, const char *dst_arg)
{
  Arena *a = c->cli->arena;
  if (dst->kind == ST_ADDR_MODULE) {
    diag_error(c->d, NULL, "Invalid target address",
               "Cannot move %s to %s: the target must also be a resource "
               "instance.",
               src_text, dst_text);
    return false;
  }
  StKey tkey = dst->kind == ST_ADDR_INSTANCE ? dst->key : st_nokey();
  Buf fr, tr;
  buf_init(&fr, a);
  buf_init(&tr, a);
  st_format_resource(&fr, r->module, r->mode, r->type, r->name);
  st_format_resource(&tr, dst->module, dst->mode, dst->type, dst->name);
  validate_move(c->d, buf_str(&fr), buf_str(&tr), r->mode, r->type,
                dst->mode, dst->type);
  StResource *tres =
      st_find_resource(c->to, dst->module, dst->mode, dst->type, dst->name);
  if (tres && st_find_instance(c->to, tres, tkey)) {
    Buf t;
    buf_init(&t, a);
    buf_puts(&t, buf_str(&tr));
    st_format_key(&t, tkey);
    diag_error(c->d, NULL, "Invalid target address",
               "Cannot move to %s: there is already a resource instance at "
               "that address in the current state.",
               buf_str(&t));
  }
  if (!st_find_instance(c->from, r, key))
    diag_error(c->d, NULL, "Invalid source address",
               "The current state does not contain %s.", src_text);
  if (diag_has_errors(c->d))
    return false;
  c->moved++;
  cli_out(c->cli, "%s \"%s\" to \"%s\"\n", c->prefix, src_text, dst_arg);
  const char *cfg = config_resource(a, r->module, r->mode, r->type, r->name);
  if (!c->dry) {
    if (!tres)
      tres = st_ensure_resource(c->to, dst->module, dst->mode, dst->type,
                                dst->name, r->provider);
    move_instance(c->from, r, key, c->to, tres, tkey);
  }
  drop_dependencies(c->to, cfg, false);
  return true;
}

static int run_mv(Cli *cli, int argc, char **argv)
{
  bool dry = false, lock = true, ignore_remote = false;
  const char *backup = "-", *backup_out = "-", *timeout = "0s";
  const char *state_path = NULL, *state_out = NULL;
  CliFlag flags[] = {{"dry-run", FLAG_BOOL, &dry},
                     {"backup", FLAG_STRING, &backup},
                     {"backup-out", FLAG_STRING, &backup_out},
                     {"lock", FLAG_BOOL, &lock},
                     {"lock-timeout", FLAG_STRING, &timeout},
                     {"state", FLAG_STRING, &state_path},
                     {"state-out", FLAG_STRING, &state_out},
                     {"ignore-remote-version", FLAG_BOOL, &ignore_remote}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  long tmo;
  if (!cli_parse_flags(cli, argc, argv, flags, 8, &rest, &d) ||
      !cmd_lock_timeout(timeout, &tmo, &d))
    return cmd_state_flag_error(cli, &d);
  if (argc - rest != 2)
    return cmd_state_usage(cli, "Exactly two arguments expected.\n",
                           help_mv);
  const char *path = cmd_state_path(cli, state_path, &d);
  if (!path) {
    cli_diags(cli, &d);
    return 1;
  }
  bool two = state_out && *state_out && strcmp(state_out, path) != 0;
  StMgr mf, mt;
  bool mt_open = false;
  int rc = 1;
  State *from = NULL, *to = NULL;
  if (!cmd_state_open_locked(cli, &mf, path,
                             cmd_state_backup(cli, path, backup), lock, tmo,
                             "state-mv", &from, &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  if (!from) {
    cli_err(cli, "%s", cmd_state_msg_no_state);
    goto out;
  }
  to = from;
  if (two) {
    mt_open = true;
    if (!cmd_state_open_locked(cli, &mt, state_out,
                               cmd_state_backup(cli, state_out, backup_out),
                               lock, tmo, "state-mv", &to, &d)) {
      cli_diags(cli, &d);
      goto out;
    }
    if (!to) {
      /* A new destination state: created in the source's arena so moved
      ** objects can be adopted as they are. */
      to = st_new(from->arena);
    }
  }
  st_sort(from);
  StAddr src, dst;
  const char *src_arg = argv[rest], *dst_arg = argv[rest + 1];
  bool okp = st_parse_addr(cli->arena, src_arg, &src, &d);
  okp = st_parse_addr(cli->arena, dst_arg, &dst, &d) && okp;
  if (!okp) {
    cli_diags(cli, &d);
    goto out;
  }
  const char *src_text = cmd_state_addr_text(cli->arena, &src);
  const char *dst_text = cmd_state_addr_text(cli->arena, &dst);
  MvCtx c = {cli, from, to, dry, dry ? "Would move" : "Move", 0, &d};
  bool ok;
  if (src.kind == ST_ADDR_MODULE) {
    ok = mv_modules(&c, &src, &dst, dst_text);
  } else {
    StResource *r =
        st_find_resource(from, src.module, src.mode, src.type, src.name);
    if (!r) {
      diag_error(&d, NULL, "Invalid source address",
                 "Cannot move %s: does not match anything in the current "
                 "state.",
                 src_text);
      ok = false;
    } else if (src.kind == ST_ADDR_RESOURCE &&
               !st_find_instance(from, r, st_nokey())) {
      ok = mv_resource(&c, r, src_text, &dst, dst_text);
    } else {
      StKey key = src.kind == ST_ADDR_INSTANCE ? src.key : st_nokey();
      ok = mv_instance(&c, r, key, src_text, &dst, dst_text, dst_arg);
    }
  }
  if (!ok) {
    cli_diags(cli, &d);
    goto out;
  }
  if (dry) {
    if (c.moved == 0)
      cli_out(cli, "Would have moved nothing.\n");
    rc = 0;
    goto out;
  }
  if (two && !save_state(cli, &mt, to))
    goto out;
  if (!save_state(cli, &mf, from))
    goto out;
  cli_diags(cli, &d);
  if (c.moved == 0)
    cli_out(cli, "No matching objects found.\n");
  else
    cli_out(cli, "Successfully moved %d object(s).\n", c.moved);
  rc = 0;
out:
  if (mt_open)
    cmd_state_close(cli, &mt);
  cmd_state_close(cli, &mf);
  return rc;
}

/* ---- state replace-provider ------------------------------------------- */

static const char help_replace[] =
    "Usage: cairn [global options] state replace-provider [options] "
    "FROM_PROVIDER_FQN TO_PROVIDER_FQN\n\n"
    "  Replace provider for resources in the Terraform state.\n\n"
    "Options:\n\n"
    "  -auto-approve           Skip interactive approval.\n\n"
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

static bool provider_part_ok(const char *s, size_t n)
{
  if (n == 0 || s[0] == '-' || s[n - 1] == '-')
    return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '-'))
      return false;
    if (c == '-' && i + 1 < n && s[i + 1] == '-')
      return false;
  }
  return true;
}

/* Terraform's ParseProviderSourceString: [hostname/][namespace/]type, the
** namespace defaulting to "hashicorp" and the host to
** registry.terraform.io; the result is the full lower-case FQN. */
static const char *parse_provider(Arena *a, const char *s, const char **err)
{
  const char *parts[4];
  size_t lens[4];
  int n = 0;
  const char *p = s;
  for (;;) {
    const char *e = strchr(p, '/');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (n == 4)
      break;
    parts[n] = p;
    lens[n++] = len;
    if (!e)
      break;
    p = e + 1;
  }
  if (n > 3 || (n >= 1 && lens[n - 1] == 0)) {
    *err = "Invalid provider source string: The \"source\" attribute must "
           "be in the format \"[hostname/][namespace/]name\"";
    return NULL;
  }
  const char *host = "registry.terraform.io", *ns = "hashicorp";
  int ti = n - 1;
  if (n >= 2) {
    /* The legacy namespace "-" (what 0.12 states' provider.null became)
    ** is accepted, as Terraform's ParseProviderSourceString does, so that
    ** replace-provider can upgrade such a state; only on the default
    ** registry host (checked below). */
    bool legacy = lens[n - 2] == 1 && parts[n - 2][0] == '-';
    if (!legacy && !provider_part_ok(parts[n - 2], lens[n - 2])) {
      *err = arena_printf(a,
                          "Invalid provider namespace \"%.*s\" in source "
                          "\"%s\": must contain only letters, digits, and "
                          "dashes, and may not use leading or trailing "
                          "dashes",
                          (int)lens[n - 2], parts[n - 2], s);
      return NULL;
    }
    ns = cmd_state_lower(a, parts[n - 2], lens[n - 2]);
  }
  if (n == 3) {
    if (lens[0] == 0) {
      *err = "Invalid provider source string: The \"source\" attribute must "
             "be in the format \"[hostname/][namespace/]name\"";
      return NULL;
    }
    host = cmd_state_lower(a, parts[0], lens[0]);
  }
  if (strcmp(ns, "-") == 0 && strcmp(host, "registry.terraform.io") != 0) {
    *err = "Invalid provider namespace: The legacy provider namespace \"-\" "
           "can be used only with hostname registry.terraform.io.";
    return NULL;
  }
  if (!provider_part_ok(parts[ti], lens[ti])) {
    *err = arena_printf(a,
                        "Invalid provider type \"%.*s\" in source \"%s\": "
                        "must contain only letters, digits, and dashes, and "
                        "may not use leading or trailing dashes",
                        (int)lens[ti], parts[ti], s);
    return NULL;
  }
  return arena_printf(a, "%s/%s/%s", host, ns,
                      cmd_state_lower(a, parts[ti], lens[ti]));
}

static int run_replace(Cli *cli, int argc, char **argv)
{
  bool approve = false, lock = true, ignore_remote = false;
  const char *backup = "-", *timeout = "0s", *state_path = NULL;
  CliFlag flags[] = {{"auto-approve", FLAG_BOOL, &approve},
                     {"backup", FLAG_STRING, &backup},
                     {"lock", FLAG_BOOL, &lock},
                     {"lock-timeout", FLAG_STRING, &timeout},
                     {"state", FLAG_STRING, &state_path},
                     {"ignore-remote-version", FLAG_BOOL, &ignore_remote}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  long tmo;
  if (!cli_parse_flags(cli, argc, argv, flags, 6, &rest, &d) ||
      !cmd_lock_timeout(timeout, &tmo, &d))
    return cmd_state_flag_error(cli, &d);
  if (argc - rest != 2)
    return cmd_state_usage(cli, "Exactly two arguments expected.\n",
                           help_replace);
  const char *err = NULL;
  const char *from = parse_provider(cli->arena, argv[rest], &err);
  if (!from)
    diag_error(&d, NULL, "Invalid \"from\" provider", "%s", err);
  const char *to = parse_provider(cli->arena, argv[rest + 1], &err);
  if (!to)
    diag_error(&d, NULL, "Invalid \"to\" provider", "%s", err);
  if (diag_has_errors(&d)) {
    /* Terraform's summaries quote the argument. */
    for (Diag *g = d.head; g; g = g->next)
      g->summary = arena_printf(cli->arena, "%s \"%s\"", g->summary,
                                strstr(g->summary, "from")
                                    ? argv[rest]
                                    : argv[rest + 1]);
    cli_diags(cli, &d);
    return 1;
  }
  const char *path = cmd_state_path(cli, state_path, &d);
  if (!path) {
    cli_diags(cli, &d);
    return 1;
  }
  StMgr m;
  int rc = 1;
  State *s = NULL;
  if (!cmd_state_open_locked(cli, &m, path,
                             cmd_state_backup(cli, path, backup), lock, tmo,
                             "state-replace-provider", &s, &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  if (!s) {
    cli_err(cli, "%s", cmd_state_msg_no_state);
    goto out;
  }
  st_sort(s);
  StResource **will = ARENA_NEW(cli->arena, StResource *, s->nres + 1);
  uint32_t nw = 0;
  for (uint32_t i = 0; i < s->nres; i++) {
    size_t b, e;
    const char *fqn =
        cmd_state_provider_fqn(cli->arena, s->res[i]->provider, &b, &e);
    if (fqn && strcmp(fqn, from) == 0)
      will[nw++] = s->res[i];
  }
  if (nw == 0) {
    cli_out(cli, "No matching resources found.\n");
    rc = 0;
    goto out;
  }
  cli_out(cli, "Terraform will perform the following actions:\n\n");
  cli_out(cli, "  ~ Updating provider:\n");
  cli_out(cli, "    - %s\n", from);
  cli_out(cli, "    + %s\n\n", to);
  cli_out(cli, "Changing %u resources:\n\n", nw);
  for (uint32_t i = 0; i < nw; i++)
    cli_out(cli, "  %s\n", will[i]->addr);
  if (!approve) {
    cli_out(cli, "\nDo you want to make these changes?\n"
                 "Only 'yes' will be accepted to continue.\n\n");
    const char *v = cmd_ask(cli, "Enter a value: ");
    if (!v) {
      cli_out(cli, "\n");
      cli_err(cli, "Error asking for approval: EOF\n");
      goto out;
    }
    if (strcmp(v, "yes") != 0) {
      cli_out(cli, "Cancelled replacing providers.\n");
      rc = 0;
      goto out;
    }
  }
  for (uint32_t i = 0; i < nw; i++) {
    size_t b, e;
    const char *pv = will[i]->provider;
    if (!cmd_state_provider_fqn(cli->arena, pv, &b, &e))
      continue;
    will[i]->provider =
        arena_printf(s->arena, "%.*s%s%s", (int)b, pv, to, pv + e);
  }
  if (!save_state(cli, &m, s))
    goto out;
  cli_out(cli, "\nSuccessfully replaced provider for %u resources.\n", nw);
  rc = 0;
out:
  cmd_state_close(cli, &m);
  return rc;
}

const CmdEntry cmd_state_rm = {"state rm", "Remove instances from the state",
                               help_rm, run_rm, false};
const CmdEntry cmd_state_mv = {"state mv", "Move an item in the state",
                               help_mv, run_mv, false};
const CmdEntry cmd_state_replace_provider = {
    "state replace-provider", "Replace provider in the state", help_replace,
    run_replace, false};
