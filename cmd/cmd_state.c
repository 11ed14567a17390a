/*
** cmd_state.c: `cairn state list|show|mv|rm|pull|push|replace-provider`
** with Terraform's flags, messages and exit statuses, plus the helpers of
** cmd_state.h shared with `workspace` and `force-unlock`.
**
** Every file access goes through stmgr: commands that change state lock
** it (operation names as Terraform's: state-mv, state-rm, state-push,
** state-replace-provider), load, change the in-memory State, commit
** atomically (backup first, "<out>.<unix>.backup" by default) and unlock
** on every exit path.  Read-only commands (list, show, pull) never lock,
** as in Terraform.  See docs/state-commands.md.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/json.h"
#include "cli.h"
#include "cmd_state.h"
#include "providers/provider.h"
#include "state/state.h"
#include "state/stmgr.h"
#include "state/workspace.h"
#include "views/render.h"

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
  if (explicit_path && *explicit_path)
    return explicit_path;
  const char *ws = ws_current(cli->arena, NULL, d);
  if (!ws)
    return NULL;
  return ws_state_path(cli->arena, NULL, ws);
}

static void lock_notice(void *ctx)
{
  cli_out(ctx, "Acquiring state lock. This may take a few moments...\n");
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

static const char msg_no_state[] =
    "No state file was found!\n\n"
    "State management commands require a state file. Run this command\n"
    "in a directory where Terraform has been run or use the -state flag\n"
    "to point the command to a specific state location.\n";

static int usage(Cli *cli, const char *msg, const char *help)
{
  cli_err(cli, "%s\n%s", msg, help);
  return 2;
}

static int flag_error(Cli *cli, Diags *d)
{
  cli_diags(cli, d);
  return 2;
}

/* Opens (without locking) and loads the state at path.  *out is NULL when
** there is no state (diagnostic-free); false on unreadable state. */
static bool load_state(Cli *cli, StMgr *m, State **out, Diags *d)
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

/* The state for a read-only subcommand (list, show, pull): resolved from
** -state or the backend, loaded and closed again.  False, with the
** diagnostics printed, when the path or the file is bad; *out is NULL
** when there is no state yet. */
static bool read_state(Cli *cli, const char *state_path, State **out,
                       Diags *d)
{
  *out = NULL;
  const char *path = cmd_state_path(cli, state_path, d);
  if (!path) {
    cli_diags(cli, d);
    return false;
  }
  StMgr m;
  StMgrOpts o = {path, NULL, "-"};
  stmgr_init(&m, cli->arena, &o);
  bool ok = load_state(cli, &m, out, d);
  stmgr_close(&m);
  if (!ok)
    cli_diags(cli, d);
  return ok;
}

/* ---- instance order and selection ----------------------------------- */

typedef struct MStep {
  const char *name;
  size_t nlen;
  StKeyKind kind;
  int64_t i;
  const char *s;        /* string key, still escaped */
  size_t slen;
} MStep;

/* Reads one "module.NAME[KEY]" step at p; returns the position after it
** (at "." or the end) or NULL at the end of the path. */
static const char *next_step(const char *p, MStep *st)
{
  if (!*p)
    return NULL;
  if (*p == '.')
    p++;
  if (strncmp(p, "module.", 7) == 0)
    p += 7;
  st->name = p;
  while (*p && *p != '.' && *p != '[')
    p++;
  st->nlen = (size_t)(p - st->name);
  st->kind = ST_NOKEY;
  if (*p == '[') {
    p++;
    if (*p == '"') {
      p++;
      st->kind = ST_STRKEY;
      st->s = p;
      while (*p && *p != '"') {
        if (*p == '\\' && p[1])
          p++;
        p++;
      }
      st->slen = (size_t)(p - st->s);
      if (*p)
        p++;
    } else {
      st->kind = ST_INTKEY;
      st->i = strtoll(p, NULL, 10);
      while (*p && *p != ']')
        p++;
    }
    if (*p == ']')
      p++;
  }
  return p;
}

static int module_depth(const char *m)
{
  int n = 0;
  MStep st;
  for (const char *p = next_step(m, &st); p; p = next_step(p, &st))
    n++;
  return n;
}

static int cmp_bytes(const char *a, size_t an, const char *b, size_t bn)
{
  int c = memcmp(a, b, an < bn ? an : bn);
  if (c)
    return c;
  return an < bn ? -1 : an > bn;
}

static int cmp_modules(const char *a, const char *b)
{
  int da = module_depth(a), db = module_depth(b);
  if (da != db)
    return da < db ? -1 : 1;
  MStep sa, sb;
  const char *pa = next_step(a, &sa), *pb = next_step(b, &sb);
  while (pa && pb) {
    int c = cmp_bytes(sa.name, sa.nlen, sb.name, sb.nlen);
    if (c)
      return c;
    if (sa.kind != sb.kind)
      return sa.kind < sb.kind ? -1 : 1;
    if (sa.kind == ST_INTKEY && sa.i != sb.i)
      return sa.i < sb.i ? -1 : 1;
    if (sa.kind == ST_STRKEY) {
      c = cmp_bytes(sa.s, sa.slen, sb.s, sb.slen);
      if (c)
        return c;
    }
    pa = next_step(pa, &sa);
    pb = next_step(pb, &sb);
  }
  return 0;
}

typedef struct Sel {
  StResource *r;
  StKey key;
} Sel;

typedef struct SelList {
  Sel *v;
  size_t n, cap;
} SelList;

static void sel_add(Arena *a, SelList *l, StResource *r, StKey key)
{
  if (l->n == l->cap) {
    size_t nc = l->cap ? l->cap * 2 : 16;
    l->v = arena_grow(a, l->v, sizeof *l->v, _Alignof(Sel), l->cap, nc);
    l->cap = nc;
  }
  l->v[l->n].r = r;
  l->v[l->n].key = key;
  l->n++;
}

/* Terraform's AbsResourceInstance.Less: module depth, module steps, data
** before managed, type, name, key. */
static int sel_cmp(const void *x, const void *y)
{
  const Sel *a = x, *b = y;
  int c = 0;
  if (a->r != b->r) {
    if (strcmp(a->r->module, b->r->module) != 0)
      c = cmp_modules(a->r->module, b->r->module);
    if (!c && a->r->mode != b->r->mode)
      c = a->r->mode == ST_DATA ? -1 : 1;
    if (!c)
      c = strcmp(a->r->type, b->r->type);
    if (!c)
      c = strcmp(a->r->name, b->r->name);
  }
  if (!c)
    c = st_key_compare(a->key, b->key);
  return c;
}

/* Module selection as Terraform's list/rm do it: the module itself and
** its descendants; a last step without a key covers every instance of
** that module. */
static bool module_selects(const char *sel, const char *mod)
{
  size_t n = strlen(sel);
  if (n == 0)
    return true;
  if (strncmp(mod, sel, n) != 0)
    return false;
  if (mod[n] == 0 || mod[n] == '.')
    return true;
  return mod[n] == '[' && sel[n - 1] != ']';
}

static void add_resource_instances(Arena *a, SelList *l, StResource *r)
{
  for (uint32_t k = 0; k < r->ninst; k++)
    sel_add(a, l, r, r->inst[k]->key);
}

/* Instances selected by one parsed address, sorted.  With allow_missing
** false an address matching nothing is an error (Terraform's "Unknown
** module/resource/resource instance"). */
static void lookup(Arena *a, State *s, const StAddr *ad, const char *text,
                   bool allow_missing, SelList *out, Diags *d)
{
  SelList l = {0};
  if (ad->kind == ST_ADDR_MODULE) {
    bool found = false;
    for (uint32_t i = 0; i < s->nres; i++) {
      StResource *r = s->res[i];
      if (module_selects(ad->module, r->module)) {
        found = true;
        add_resource_instances(a, &l, r);
      }
    }
    if (!found && !allow_missing)
      diag_error(d, NULL, "Unknown module",
                 "The current state contains no module at %s. If you've "
                 "just added this module to the configuration, you must run "
                 "\"terraform apply\" first to create the module's entry in "
                 "the state.",
                 text);
  } else {
    StResource *r =
        st_find_resource(s, ad->module, ad->mode, ad->type, ad->name);
    if (ad->kind == ST_ADDR_RESOURCE) {
      if (r)
        add_resource_instances(a, &l, r);
      else if (!allow_missing)
        diag_error(d, NULL, "Unknown resource",
                   "The current state contains no resource %s. If you've "
                   "just added this resource to the configuration, you must "
                   "run \"terraform apply\" first to create the resource's "
                   "entry in the state.",
                   text);
    } else if (r && st_find_instance(s, r, ad->key)) {
      sel_add(a, &l, r, ad->key);
    } else if (!allow_missing) {
      diag_error(d, NULL, "Unknown resource instance",
                 "The current state contains no resource instance %s. If "
                 "you've just added its resource to the configuration or "
                 "have changed the count or for_each arguments, you must "
                 "run \"terraform apply\" first to update the resource's "
                 "entry in the state.",
                 text);
    }
  }
  if (l.n > 1)
    qsort(l.v, l.n, sizeof *l.v, sel_cmp);
  for (size_t i = 0; i < l.n; i++)
    sel_add(a, out, l.v[i].r, l.v[i].key);
}

/* The canonical text of a parsed address (for messages). */
static const char *addr_text(Arena *a, const StAddr *ad)
{
  Buf b;
  buf_init(&b, a);
  if (ad->kind == ST_ADDR_MODULE) {
    buf_puts(&b, ad->module);
    return buf_str(&b);
  }
  st_format_resource(&b, ad->module, ad->mode, ad->type, ad->name);
  if (ad->kind == ST_ADDR_INSTANCE)
    st_format_key(&b, ad->key);
  return buf_str(&b);
}

/* Terraform's LegacyInstanceObjectID: the "id" attribute when it is a
** string. */
static bool object_id_is(const StObject *o, const char *id)
{
  if (!o)
    return false;
  bool found = false;
  Value v;
  if (!val_is_null(o->attrs))
    v = val_attr(o->attrs, "id", &found);
  else if (!val_is_null(o->attrs_flat))
    v = val_map_get(o->attrs_flat, "id", 2, &found);
  if (!found || val_is_null(v) || v.type != &ty_string)
    return false;
  return strlen(id) == v.len && memcmp(v.u.s, id, v.len) == 0;
}

/* ---- state list --------------------------------------------------------- */

static const char help_list[] =
    "Usage: cairn [global options] state list [options] [address...]\n\n"
    "  List resources in the Terraform state.\n\n"
    "  This command lists resource instances in the Terraform state. The "
    "address\n"
    "  argument can be used to filter the instances by resource or module. "
    "If\n"
    "  no pattern is given, all resource instances are listed.\n\n"
    "  The addresses must either be module addresses or absolute resource\n"
    "  addresses, such as:\n"
    "      aws_instance.example\n"
    "      module.example\n"
    "      module.example.module.child\n"
    "      module.example.aws_instance.example\n\n"
    "  An error will be returned if any of the resources or modules given "
    "as\n"
    "  filter addresses do not exist in the state.\n\n"
    "Options:\n\n"
    "  -state=statefile    Path to a Terraform state file to use to look\n"
    "                      up Terraform-managed resources. By default, "
    "Terraform\n"
    "                      will consult the state of the "
    "currently-selected\n"
    "                      workspace.\n\n"
    "  -id=ID              Filters the results to include only instances "
    "whose\n"
    "                      resource types have an attribute named \"id\" "
    "whose value\n"
    "                      equals the given id string.\n";

static int run_list(Cli *cli, int argc, char **argv)
{
  const char *state_path = NULL, *id = NULL;
  CliFlag flags[] = {{"state", FLAG_STRING, &state_path},
                     {"id", FLAG_STRING, &id}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 2, &rest, &d))
    return flag_error(cli, &d);
  State *s;
  if (!read_state(cli, state_path, &s, &d))
    return 1;
  if (!s) {
    cli_err(cli, "%s", msg_no_state);
    return 1;
  }
  st_sort(s);
  SelList l = {0};
  if (rest == argc) {
    for (uint32_t i = 0; i < s->nres; i++)
      add_resource_instances(cli->arena, &l, s->res[i]);
    if (l.n > 1)
      qsort(l.v, l.n, sizeof *l.v, sel_cmp);
  } else {
    for (int i = rest; i < argc; i++) {
      StAddr ad;
      if (st_parse_addr(cli->arena, argv[i], &ad, &d))
        lookup(cli->arena, s, &ad, addr_text(cli->arena, &ad), false, &l,
               &d);
    }
  }
  if (diag_has_errors(&d)) {
    cli_diags(cli, &d);
    return 1;
  }
  Buf out;
  buf_init(&out, cli->arena);
  for (size_t i = 0; i < l.n; i++) {
    StInstance *in = st_find_instance(s, l.v[i].r, l.v[i].key);
    if (!in)
      continue;
    if (id && *id && !object_id_is(in->current, id))
      continue;
    st_format_instance(&out, l.v[i].r, l.v[i].key);
    buf_putc(&out, '\n');
  }
  cli_out_buf(cli, &out);
  cli_diags(cli, &d);
  return 0;
}

static char *lower(Arena *a, const char *s, size_t n)
{
  char *r = arena_strndup(a, s, n);
  for (char *p = r; *p; p++)
    if (*p >= 'A' && *p <= 'Z')
      *p = (char)(*p - 'A' + 'a');
  return r;
}

/* Splits a state provider string (module.x.provider["FQN"].alias) into
** the FQN (returned) and the text around it. */
static const char *provider_fqn(Arena *a, const char *cfg, size_t *beg,
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
  return lower(a, f, (size_t)(q - f));
}

/* ---- state show ----------------------------------------------------------
** The object is drawn by core/views/render with the provider's schema when the
** resource belongs to a built-in provider (attributes decoded against it,
** so nested blocks and schema-sensitive attributes render as Terraform
** does); other providers' objects are drawn from the stored JSON alone.
*/

/* v with the value at steps[0..n) marked sensitive (copied along the path;
** a path that does not apply leaves v as it is). */
static Value mark_path(Arena *a, Value v, const PathStep *steps, uint32_t n)
{
  if (n == 0)
    return val_sensitive(v);
  if (val_is_null(v) || val_is_unknown(v) || !v.type)
    return v;
  const PathStep *st = &steps[0];
  switch (v.type->kind) {
  case TY_OBJECT: {
    if (st->kind == PS_INDEX)
      return v;
    int k = ty_attr_index(v.type, st->name);
    if (k < 0)
      return v;
    Value *el = ARENA_NEW(a, Value, v.type->n + 1);
    memcpy(el, v.u.elems, v.type->n * sizeof *el);
    el[k] = mark_path(a, el[k], steps + 1, n - 1);
    v.u.elems = el;
    return v;
  }
  case TY_MAP: {
    if (st->kind == PS_INDEX)
      return v;
    MapEntry *en = ARENA_NEW(a, MapEntry, v.len + 1);
    if (v.len)
      memcpy(en, v.u.entries, v.len * sizeof *en);
    for (uint32_t k = 0; k < v.len; k++)
      if (strcmp(en[k].key, st->name) == 0)
        en[k].val = mark_path(a, en[k].val, steps + 1, n - 1);
    v.u.entries = en;
    return v;
  }
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE: {
    if (st->kind != PS_INDEX || st->index < 0 || st->index >= v.len)
      return v;
    Value *el = ARENA_NEW(a, Value, v.len + 1);
    memcpy(el, v.u.elems, v.len * sizeof *el);
    el[st->index] = mark_path(a, el[st->index], steps + 1, n - 1);
    v.u.elems = el;
    return v;
  }
  default:
    return v;
  }
}

/* The schema of r's type when its provider is a built-in, with the
** object's attributes decoded against it in *val; NULL (and *val left
** alone) otherwise or when decoding fails. */
static const ProvBlockSchema *builtin_schema(Arena *a, const StResource *r,
                                             const StObject *o, Value *val)
{
  size_t b, e;
  const char *fqn = provider_fqn(a, r->provider, &b, &e);
  const ProvBuiltin *bi = fqn ? prov_lookup_builtin(fqn) : NULL;
  if (!bi || val_is_null(o->attrs))
    return NULL;
  Prov *p = prov_open_builtin(a, bi);
  Diags d;
  diag_init(&d, a);
  ProvCall call = {a, &d, NULL};
  const ProvProviderSchema *ps = NULL;
  p->ops->get_schema(p, &call, &ps);
  const ProvTypeSchema *ts =
      !ps ? NULL
          : r->mode == ST_DATA ? prov_schema_data_source(ps, r->type)
                               : prov_schema_resource(ps, r->type);
  const ProvBlockSchema *blk = NULL;
  if (ts && !diag_has_errors(&d)) {
    Buf js;
    buf_init(&js, a);
    Value dv;
    if (json_write_value(&js, o->attrs, o->attrs.type, 0, &d) &&
        prov_decode_state(&call, ts->schema.block, js.p, js.len, &dv) &&
        !diag_has_errors(&d)) {
      *val = dv;
      blk = ts->schema.block;
    }
  }
  prov_close(p);
  return blk;
}

static void show_object(Cli *cli, Buf *out, const StResource *r, StKey key,
                        const StObject *o, const char *dkey)
{
  Arena *a = cli->arena;
  Value v = o->attrs;
  const ProvBlockSchema *schema = builtin_schema(a, r, o, &v);
  if (val_is_null(v) && !val_is_null(o->attrs_flat))
    v = o->attrs_flat; /* legacy flatmap: shown as stored */
  for (uint32_t k = 0; k < o->nsensitive; k++)
    v = mark_path(a, v, o->sensitive[k].steps, o->sensitive[k].n);
  RenderOpts ro = {cli->color, "cairn", cli->width, false};
  render_object(out, st_instance_addr(a, r, key), r->mode, r->type, r->name,
                dkey, o->status == ST_TAINTED, v, schema, &ro);
}

static const char help_show[] =
    "Usage: cairn [global options] state show [options] ADDRESS\n\n"
    "  Shows the attributes of a resource in the Terraform state.\n\n"
    "  This command shows the attributes of a single resource in the "
    "Terraform\n"
    "  state. The address argument must be used to specify a single "
    "resource.\n"
    "  You can view the list of available resources with \"terraform state "
    "list\".\n\n"
    "Options:\n\n"
    "  -state=statefile    Path to a Terraform state file to use to look\n"
    "                      up Terraform-managed resources. By default it "
    "will\n"
    "                      use the state \"terraform.tfstate\" if it "
    "exists.\n";

static const char msg_need_instance[] =
    "This command requires that the address references one specific "
    "instance.\n"
    "To view the available instances, use \"terraform state list\". Please "
    "modify \n"
    "the address to reference a specific instance.\n";

static int run_show(Cli *cli, int argc, char **argv)
{
  const char *state_path = NULL;
  CliFlag flags[] = {{"state", FLAG_STRING, &state_path}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 1, &rest, &d))
    return flag_error(cli, &d);
  if (argc - rest != 1)
    return usage(cli, "Exactly one argument expected.\n",
                 help_show);
  const char *text = argv[rest];
  StAddr ad;
  Diags pd;
  diag_init(&pd, cli->arena);
  if (!st_parse_addr(cli->arena, text, &ad, &pd) ||
      ad.kind == ST_ADDR_MODULE) {
    cli_err(cli, "Error parsing instance address: %s\n\n%s", text,
            msg_need_instance);
    return 1;
  }
  State *s;
  if (!read_state(cli, state_path, &s, &d))
    return 1;
  if (!s) {
    cli_err(cli, "%s", msg_no_state);
    return 1;
  }
  StResource *r = st_find_resource(s, ad.module, ad.mode, ad.type, ad.name);
  StKey key = ad.kind == ST_ADDR_INSTANCE ? ad.key : st_nokey();
  StInstance *in = r ? st_find_instance(s, r, key) : NULL;
  if (!in || !in->current) {
    cli_err(cli, "No instance found for the given address!\n\n%s",
            msg_need_instance);
    return 1;
  }
  Buf out;
  buf_init(&out, cli->arena);
  show_object(cli, &out, r, key, in->current, NULL);
  cli_out_buf(cli, &out);
  return 0;
}

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
    return flag_error(cli, &d);
  if (argc - rest < 1)
    return usage(cli, "At least one address is required.\n",
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
      !load_state(cli, &m, &s, &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  if (!s) {
    cli_err(cli, "%s", msg_no_state);
    goto out;
  }
  st_sort(s);
  SelList l = {0};
  for (int i = rest; i < argc; i++) {
    StAddr ad;
    if (st_parse_addr(cli->arena, argv[i], &ad, &d))
      lookup(cli->arena, s, &ad, argv[i], true, &l, &d);
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
  for (const char *p = next_step(mod, &st); p; p = next_step(p, &st)) {
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
          o->deps = NULL;
          o->ndeps = 0;
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

static bool open_locked(Cli *cli, StMgr *m, const char *path,
                        const char *backup, bool lock, long tmo,
                        const char *op, State **s, Diags *d)
{
  StMgrOpts o = {path, NULL, backup};
  stmgr_init(m, cli->arena, &o);
  return cmd_state_lock(cli, m, lock, op, tmo, d) &&
         load_state(cli, m, s, d);
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
    return flag_error(cli, &d);
  if (argc - rest != 2)
    return usage(cli, "Exactly two arguments expected.\n",
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
  if (!open_locked(cli, &mf, path, cmd_state_backup(cli, path, backup), lock,
                   tmo, "state-mv", &from, &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  if (!from) {
    cli_err(cli, "%s", msg_no_state);
    goto out;
  }
  to = from;
  if (two) {
    mt_open = true;
    if (!open_locked(cli, &mt, state_out,
                     cmd_state_backup(cli, state_out, backup_out), lock, tmo,
                     "state-mv", &to, &d)) {
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
  const char *src_text = addr_text(cli->arena, &src);
  const char *dst_text = addr_text(cli->arena, &dst);
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

/* ---- state pull ---------------------------------------------------------- */

static const char help_pull[] =
    "Usage: cairn [global options] state pull [options]\n\n"
    "  Pull the state from its location, upgrade the local copy, and output "
    "it\n"
    "  to stdout.\n\n"
    "  This command \"pulls\" the current state and outputs it to stdout.\n"
    "  As part of this process, Terraform will upgrade the state format of "
    "the\n"
    "  local copy to the current version.\n\n"
    "  The primary use of this is for state stored remotely. This command\n"
    "  will still work with local state but is less useful for this.\n";

static int run_pull(Cli *cli, int argc, char **argv)
{
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, NULL, 0, &rest, &d))
    return flag_error(cli, &d);
  if (rest != argc)
    return usage(cli, "Too many command line arguments.\n",
                 help_pull);
  State *s;
  if (!read_state(cli, NULL, &s, &d))
    return 1;
  if (s) {
    Buf out;
    buf_init(&out, cli->arena);
    st_write(&out, s, *s->terraform_version ? s->terraform_version : NULL);
    buf_putc(&out, '\n');
    cli_out_buf(cli, &out);
  }
  cli_diags(cli, &d);
  return 0;
}

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
    return flag_error(cli, &d);
  if (argc - rest != 1)
    return usage(cli, "Exactly one argument expected.\n",
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
  if (!open_locked(cli, &m, path, NULL, lock, tmo, "state-push", &cur,
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
    if (!provider_part_ok(parts[n - 2], lens[n - 2])) {
      *err = arena_printf(a,
                          "Invalid provider namespace \"%.*s\" in source "
                          "\"%s\": must contain only letters, digits, and "
                          "dashes, and may not use leading or trailing "
                          "dashes",
                          (int)lens[n - 2], parts[n - 2], s);
      return NULL;
    }
    ns = lower(a, parts[n - 2], lens[n - 2]);
  }
  if (n == 3) {
    if (lens[0] == 0) {
      *err = "Invalid provider source string: The \"source\" attribute must "
             "be in the format \"[hostname/][namespace/]name\"";
      return NULL;
    }
    host = lower(a, parts[0], lens[0]);
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
                      lower(a, parts[ti], lens[ti]));
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
    return flag_error(cli, &d);
  if (argc - rest != 2)
    return usage(cli, "Exactly two arguments expected.\n",
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
  if (!open_locked(cli, &m, path, cmd_state_backup(cli, path, backup), lock,
                   tmo, "state-replace-provider", &s, &d)) {
    cli_diags(cli, &d);
    goto out;
  }
  if (!s) {
    cli_err(cli, "%s", msg_no_state);
    goto out;
  }
  st_sort(s);
  StResource **will = ARENA_NEW(cli->arena, StResource *, s->nres + 1);
  uint32_t nw = 0;
  for (uint32_t i = 0; i < s->nres; i++) {
    size_t b, e;
    const char *fqn = provider_fqn(cli->arena, s->res[i]->provider, &b, &e);
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
    if (!provider_fqn(cli->arena, pv, &b, &e))
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
const CmdEntry cmd_state_list = {"state list", "List resources in the state",
                                 help_list, run_list, false};
const CmdEntry cmd_state_show = {"state show", "Show a resource in the state",
                                 help_show, run_show, false};
const CmdEntry cmd_state_rm = {"state rm", "Remove instances from the state",
                               help_rm, run_rm, false};
const CmdEntry cmd_state_mv = {"state mv", "Move an item in the state",
                               help_mv, run_mv, false};
const CmdEntry cmd_state_pull = {"state pull",
                                 "Pull current state and output to stdout",
                                 help_pull, run_pull, false};
const CmdEntry cmd_state_push = {
    "state push", "Update remote state from a local state file", help_push,
    run_push, false};
const CmdEntry cmd_state_replace_provider = {
    "state replace-provider", "Replace provider in the state", help_replace,
    run_replace, false};
