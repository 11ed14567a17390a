/*
** cmd_show: `cairn show [-json] [-no-color] [PATH]` — the current state,
** a saved plan, or a state file, as human text or Terraform's JSON.
** Provider schemas (for typed rendering) come from the built-in or
** configured providers named in the plan or state; when one cannot be
** opened its objects are rendered from their JSON values.
*/
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/json.h"
#include "cli.h"
#include "cmd_backend.h"
#include "engine/planfile.h"
#include "net/provreg.h"
#include "state/state.h"
#include "state/stmgr.h"
#include "state/workspace.h"
#include "views/jsonplan.h"
#include "views/render.h"

typedef struct Schemas {
  Arena *a;
  ProvReg reg;
  struct {
    const char *fqn;
    ProvProviderSchema *s;   /* NULL: could not open */
  } items[32];
  int n;
} Schemas;

static const ProvProviderSchema *provider_schema(Schemas *sc, const char *fqn)
{
  for (int i = 0; i < sc->n; i++)
    if (strcmp(sc->items[i].fqn, fqn) == 0)
      return sc->items[i].s;
  if (sc->n == (int)(sizeof sc->items / sizeof sc->items[0]))
    return NULL;
  Diags d;
  diag_init(&d, sc->a);
  int k = sc->n++;
  sc->items[k].fqn = arena_strdup(sc->a, fqn);
  sc->items[k].s = NULL;
  Prov *p = preg_open(&sc->reg, fqn, &d);
  if (!p)
    return NULL;
  const ProvProviderSchema *s = NULL;
  ProvCall c = {sc->a, &d, NULL};
  p->ops->get_schema(p, &c, &s);
  if (s) {
    sc->items[k].s = prov_schema_clone(sc->a, s);
    prov_schema_prepare(sc->a, sc->items[k].s);
  }
  return sc->items[k].s;
}

static const ProvBlockSchema *schema_of(void *ctx, StMode mode,
                                        const char *fqn, const char *type)
{
  const ProvProviderSchema *s = provider_schema(ctx, fqn);
  if (!s)
    return NULL;
  const ProvTypeSchema *t = mode == ST_DATA ? prov_schema_data_source(s, type)
                                            : prov_schema_resource(s, type);
  return t ? t->schema.block : NULL;
}

/* Prints the state as Terraform's `show` does: schema sensitivity and the
** state's own sensitive_attributes are both redacted.  An object whose
** attributes do not fit its schema (or are not an object at all) is an
** error, as in plan and apply: false with a diagnostic in d. */
static bool show_state(Cli *cli, Schemas *sc, State *s, Diags *d)
{
  Buf b;
  buf_init(&b, cli->arena);
  RenderOpts ro = {cli->color, "cairn", 0, false};
  st_sort(s);
  if (s->nres == 0 && s->noutputs == 0) {
    cli_out(cli, "No state.\n");
    return true;
  }
  bool first = true;
  for (uint32_t i = 0; i < s->nres; i++) {
    StResource *r = s->res[i];
    const char *fqn = jplan_provider_fqn(cli->arena, r->provider);
    const ProvBlockSchema *bs = schema_of(sc, r->mode, fqn, r->type);
    for (uint32_t k = 0; k < r->ninst; k++) {
      StInstance *in = r->inst[k];
      for (int32_t j = -1; j < (int32_t)in->ndeposed; j++) {
        const StObject *o = j < 0 ? in->current : in->deposed[j].obj;
        if (!o)
          continue;
        const char *addr = st_instance_addr(cli->arena, r, in->key);
        Value v = o->attrs;
        Diags td;
        diag_init(&td, cli->arena);
        bool ok = val_is_null(v) || (v.type && v.type->kind == TY_OBJECT);
        if (ok && bs && !val_is_null(v)) {
          Value tv;
          ok = json_value_typed(cli->arena, o->attrs,
                                prov_schema_implied_type(cli->arena, bs), &tv,
                                &td, NULL);
          if (ok)
            v = prov_mark_sensitive(cli->arena, bs, tv);
        }
        if (!ok) {
          diag_error(d, NULL, "Invalid resource state",
                     "The state of %s does not match the schema of %s: %s",
                     addr, r->type,
                     td.head && td.head->detail
                         ? td.head->detail
                         : "the attributes must be an object");
          return false;
        }
        v = st_mark_sensitive(cli->arena, v, o);
        if (!first)
          buf_putc(&b, '\n');
        first = false;
        render_object(&b, addr, r->mode, r->type, r->name,
                      j < 0 ? NULL : in->deposed[j].key,
                      o->status == ST_TAINTED, v, bs, &ro);
      }
    }
  }
  if (s->noutputs) {
    buf_puts(&b, first ? "Outputs:\n\n" : "\n\nOutputs:\n\n");
    for (uint32_t i = 0; i < s->noutputs; i++) {
      const StOutput *o = &s->outputs[i];
      Value v = o->value;
      Diags od;
      diag_init(&od, cli->arena);
      Value tv;
      if (json_value_typed(cli->arena, o->value, o->type, &tv, &od, NULL))
        v = tv;
      buf_printf(&b, "%s = ", o->name);
      render_value(&b, v, o->sensitive, 0, &ro);
      buf_putc(&b, '\n');
    }
  }
  cli_out_buf(cli, &b);
  return true;
}

static int run(Cli *cli, int argc, char **argv)
{
  bool json = false, no_color = false;
  const char *config = NULL;
  CliFlag flags[] = {{"json", FLAG_BOOL, &json},
                     {"no-color", FLAG_BOOL, &no_color},
                     {"config", FLAG_STRING, &config}};
  int rest;
  Diags d;
  diag_init(&d, cli->arena);
  if (!cli_parse_flags(cli, argc, argv, flags, 3, &rest, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  if (no_color)
    cli->color = false;
  if (argc - rest > 1) {
    cli_err(cli, "\nError: Too many command line arguments\n\nExpected at "
                 "most one positional argument.\n\n");
    return 2;
  }
  Schemas sc;
  memset(&sc, 0, sizeof sc);
  sc.a = cli->arena;
  /* the host configuration locates remote providers, whose schemas
  ** decode their objects; a broken one is an error, not silence */
  preg_init(&sc.reg, cli->arena, config, &d);
  if (diag_has_errors(&d)) {
    cli_diags(cli, &d);
    preg_close(&sc.reg);
    return 1;
  }
  diag_init(&d, cli->arena);
  int status = 0;
  Buf b;
  buf_init(&b, cli->arena);
  const char *path = rest < argc ? argv[rest] : NULL;
  struct stat stb;
  if (path && stat(path, &stb) != 0) {
    /* Terraform tries the path as a plan, then as a state, and reports
    ** both failures; a missing file is never an empty state. */
    char why[128];
    snprintf(why, sizeof why, "%s", strerror(errno));
    why[0] = (char)tolower((unsigned char)why[0]);   /* Go's wording */
    diag_error(&d, NULL,
               "Failed to read the given file as a state or plan file",
               "State read error: Error loading statefile: open %s: %s\n\n"
               "Plan read error: couldn't load the provided path as either "
               "a local plan file (open %s: %s) or a saved cloud plan (open "
               "%s: %s)", path, why, path, why, path, why);
    cli_diags(cli, &d);
    preg_close(&sc.reg);
    return 1;
  }
  if (path && planfile_is_plan(path)) {
    Plan *p;
    if (!planfile_read(cli->arena, path, &p, &d)) {
      cli_diags(cli, &d);
      preg_close(&sc.reg);
      return 1;
    }
    for (uint32_t i = 0; i < p->nchanges; i++)
      p->changes[i].schema = schema_of(&sc, p->changes[i].mode,
                                       p->changes[i].provider_name,
                                       p->changes[i].type);
    for (uint32_t i = 0; i < p->ndrift; i++)
      p->drift[i].schema = schema_of(&sc, p->drift[i].mode,
                                     p->drift[i].provider_name,
                                     p->drift[i].type);
    if (json) {
      Diags cd;
      diag_init(&cd, cli->arena);
      SrcFiles files;
      diag_files_init(&files, cli->arena);
      CfgTree *t = cfg_load_tree(cli->arena, ".", &files, &cd);
      jplan_plan(&b, p, t, schema_of, &sc);
    } else {
      RenderOpts ro = {cli->color, "cairn", 0, false};
      render_plan(&b, p, &ro);
    }
    cli_out_buf(cli, &b);
    preg_close(&sc.reg);
    return 0;
  }
  State *s = NULL;
  StMgr m;
  Arena *a = cli->arena;
  /* A state file named on the command line is read as it is, as
  ** Terraform's show does; the current state comes from the backend. */
  const Backend *be = path ? NULL
                           : cmd_backend(cli, NULL, CMD_BACKEND_USE, &d);
  if (!path && !be) {
    cli_diags(cli, &d);
    preg_close(&sc.reg);
    return 1;
  }
  const char *ws = ws_current(a, ".", &d);
  StMgrOpts so = {path ? path : be_state_path(be, a, ws), NULL, "-"};
  stmgr_init(&m, a, &so);
  if (!stmgr_load(&m, &s, &d)) {
    cli_diags(cli, &d);
    status = 1;
  } else if (json) {
    jplan_state(&b, s, schema_of, &sc);
    cli_out_buf(cli, &b);
  } else if (!show_state(cli, &sc, s, &d)) {
    cli_diags(cli, &d);
    status = 1;
  }
  stmgr_close(&m);
  preg_close(&sc.reg);
  return status;
}

const CmdEntry cmd_show = {
    "show", "Show the current state or a saved plan",
    "Usage: cairn [global options] show [options] [path]\n\n"
    "  Reads and outputs a cairn state or plan file in a human-readable\n"
    "  form. If no path is specified, the current state will be shown.\n\n"
    "Options:\n\n"
    "  -no-color           If specified, output won't contain any color.\n"
    "  -json               If specified, output the cairn plan or state in\n"
    "                      a machine-readable form.\n",
    run, true};
