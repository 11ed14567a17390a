/*
** cmd_state_read: the read-only `state` subcommands, `state list`,
** `state show` and `state pull`, with Terraform's flags, messages and exit
** statuses.  They never lock the state, as in Terraform.
*/
#include "cmd_state_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "net/provreg.h"
#include "providers/provider.h"
#include "state/state.h"
#include "views/render.h"

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
  bool ok = cmd_state_load(cli, &m, out, d);
  stmgr_close(&m);
  if (!ok)
    cli_diags(cli, d);
  return ok;
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
    return cmd_state_flag_error(cli, &d);
  State *s;
  if (!read_state(cli, state_path, &s, &d))
    return 1;
  if (!s) {
    cli_err(cli, "%s", cmd_state_msg_no_state);
    return 1;
  }
  st_sort(s);
  SelList l = {0};
  if (rest == argc) {
    for (uint32_t i = 0; i < s->nres; i++)
      cmd_state_add_resource_instances(cli->arena, &l, s->res[i]);
    if (l.n > 1)
      qsort(l.v, l.n, sizeof *l.v, cmd_state_sel_cmp);
  } else {
    for (int i = rest; i < argc; i++) {
      StAddr ad;
      if (st_parse_addr(cli->arena, argv[i], &ad, &d))
        cmd_state_lookup(cli->arena, s, &ad,
                         cmd_state_addr_text(cli->arena, &ad), false, &l, &d);
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

/* ---- state show ----------------------------------------------------------
** The object is drawn by core/views/render with its provider's schema
** (attributes decoded against it, so nested blocks and schema-sensitive
** attributes render as Terraform does), whatever serves the provider: a
** built-in, a remote provider (the schema `cairn init` cached) or a plugin
** (started for its schema, as Terraform does).  When the provider cannot
** be opened or the object does not fit its schema, the object is drawn
** from the stored JSON alone.
*/

/* The schema of r's type, with the object's attributes decoded against it
** in *val; NULL (and *val left alone) when there is none. */
static const ProvBlockSchema *object_schema(Arena *a, const StResource *r,
                                            const StObject *o, Value *val)
{
  size_t b, e;
  const char *fqn = cmd_state_provider_fqn(a, r->provider, &b, &e);
  if (!fqn || val_is_null(o->attrs))
    return NULL;
  Diags d, hd;
  diag_init(&d, a);
  diag_init(&hd, a);
  ProvReg reg;
  const ProvBlockSchema *blk = NULL;
  /* A broken host configuration still leaves the built-ins. */
  preg_init(&reg, a, NULL, &hd);
  Prov *p = preg_open(&reg, fqn, &d);
  ProvCall call = {a, &d, NULL};
  const ProvProviderSchema *ps = NULL;
  if (p)
    p->ops->get_schema(p, &call, &ps);
  const ProvTypeSchema *ts =
      !ps ? NULL
          : r->mode == ST_DATA ? prov_schema_data_source(ps, r->type)
                               : prov_schema_resource(ps, r->type);
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
  preg_close(&reg);
  return blk;
}

static void show_object(Cli *cli, Buf *out, const StResource *r, StKey key,
                        const StObject *o, const char *dkey)
{
  Arena *a = cli->arena;
  Value v = o->attrs;
  const ProvBlockSchema *schema = object_schema(a, r, o, &v);
  if (val_is_null(v) && !val_is_null(o->attrs_flat))
    v = o->attrs_flat; /* legacy flatmap: shown as stored */
  v = st_mark_sensitive(a, v, o);
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
    return cmd_state_flag_error(cli, &d);
  if (argc - rest != 1)
    return cmd_state_usage(cli, "Exactly one argument expected.\n",
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
    cli_err(cli, "%s", cmd_state_msg_no_state);
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
    return cmd_state_flag_error(cli, &d);
  if (rest != argc)
    return cmd_state_usage(cli, "Too many command line arguments.\n",
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

const CmdEntry cmd_state_list = {"state list", "List resources in the state",
                                 help_list, run_list, false};
const CmdEntry cmd_state_show = {"state show", "Show a resource in the state",
                                 help_show, run_show, false};
const CmdEntry cmd_state_pull = {"state pull",
                                 "Pull current state and output to stdout",
                                 help_pull, run_pull, false};
