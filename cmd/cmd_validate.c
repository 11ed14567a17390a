/*
** cmd_validate: `cairn validate [-json] [-no-color] [DIR]`.
**
** Loads the module tree (the root and every module it calls from a local
** path), opens the built-in providers its resources use (for their
** schemas), runs vld_tree_ex with the built-ins' ValidateResourceConfig, then
** the engine's validate walk (eng_validate: locals, outputs, provider
** functions, every provider's validation), and prints either Terraform's
** success line or the diagnostics (exit 1), or with -json Terraform's
** validate document.  The static step checks resources of providers that
** are not built in for references only (schema_of); the walk covers them.
*/
#include <string.h>

#include "cli.h"
#include "cmd_backend.h"
#include "config/config.h"
#include "config/validate.h"
#include "engine/engine.h"
#include "net/provreg.h"
#include "providers/provider.h"
#include "state/workspace.h"

typedef struct OpenProv {
  const ProvBuiltin *b;
  Prov *p;
  const ProvProviderSchema *s;   /* NULL when get_schema failed */
} OpenProv;

/* What a provider name of a module resolved to, so that the source
** lookup (string building and parsing) runs once per name, not once per
** resource: at 10,000 resources it was an eighth of validate's time. */
typedef struct NameHit {
  const CfgModule *m;
  const char *name;                  /* in the arena */
  const ProvProviderSchema *s;       /* NULL: not built in */
} NameHit;

typedef struct Provs {
  Arena *a;
  const CfgModule *m;
  Diags *d;
  OpenProv items[16];
  int n;
  NameHit hits[32];                  /* a small cache, replaced round-robin */
  unsigned nhits, next_hit;
  bool skipped;                      /* a resource's provider is not built in */
  Diags pd;                          /* the built-ins' answers (provider_check) */
} Provs;

static const char *source_of(Provs *ps, const CfgResource *r)
{
  const char *name = cfg_resource_provider_name(r);
  const char *src = cfg_provider_source(ps->m, name);
  return src ? src : arena_printf(ps->a, "hashicorp/%s", name);
}

/* The schema of the built-in provider serving r, opened on first use;
** NULL when r's provider is not built in. */
static const ProvProviderSchema *open_schema(Provs *ps, const CfgResource *r)
{
  const ProvBuiltin *b = prov_lookup_builtin(source_of(ps, r));
  if (!b)
    return NULL;
  for (int i = 0; i < ps->n; i++)
    if (ps->items[i].b == b)
      return ps->items[i].s;
  if (ps->n == (int)(sizeof ps->items / sizeof ps->items[0]))
    return NULL;
  OpenProv *op = &ps->items[ps->n++];
  op->b = b;
  op->p = prov_open_builtin(ps->a, b);
  ProvCall c = {ps->a, ps->d, NULL};
  op->p->ops->get_schema(op->p, &c, &op->s);
  return op->s;
}

static const ProvProviderSchema *provider_schema(Provs *ps,
                                                 const CfgResource *r)
{
  const char *name = cfg_resource_provider_name(r);
  for (unsigned i = 0; i < ps->nhits; i++)
    if (ps->hits[i].m == ps->m && strcmp(ps->hits[i].name, name) == 0)
      return ps->hits[i].s;
  NameHit h = {ps->m, arena_strdup(ps->a, name), open_schema(ps, r)};
  unsigned cap = sizeof ps->hits / sizeof ps->hits[0];
  if (ps->nhits < cap) {
    ps->hits[ps->nhits++] = h;
  } else {
    ps->hits[ps->next_hit] = h;
    ps->next_hit = (ps->next_hit + 1) % cap;
  }
  return h.s;
}

static const ProvBlockSchema *schema_of(void *ctx, CfgMode mode,
                                        const CfgResource *r)
{
  Provs *ps = ctx;
  const ProvProviderSchema *s = provider_schema(ps, r);
  if (!s) {
    /* Not built in: the engine's validate walk (engine_checks) decodes
    ** these against the plugin's or remote provider's schema. */
    ps->skipped = true;
    return VLD_SCHEMA_SKIP;
  }
  const ProvTypeSchema *t = mode == CFG_DATA ? prov_schema_data_source(s, r->type)
                            : mode == CFG_EPHEMERAL
                                ? prov_schema_ephemeral(s, r->type)
                                : prov_schema_resource(s, r->type);
  return t ? t->schema.block : NULL;
}

static void types_of(void *ctx, CfgMode mode, const CfgResource *r,
                     const char *const **names, uint32_t *n)
{
  Provs *ps = ctx;
  *names = NULL;
  *n = 0;
  const ProvProviderSchema *s = provider_schema(ps, r);
  if (!s)
    return;
  const ProvTypeSchema *ts = mode == CFG_DATA        ? s->data_sources
                             : mode == CFG_EPHEMERAL ? s->ephemeral_resources
                                                     : s->resources;
  uint32_t k = mode == CFG_DATA        ? s->ndata_sources
               : mode == CFG_EPHEMERAL ? s->nephemeral_resources
                                       : s->nresources;
  const char **out = ARENA_NEW(ps->a, const char *, k + 1);
  for (uint32_t i = 0; i < k; i++)
    out[i] = ts[i].type_name;
  /* didyoumean sees the names sorted (Terraform sorts map keys) */
  for (uint32_t i = 1; i < k; i++)
    for (uint32_t j = i; j > 0 && strcmp(out[j - 1], out[j]) > 0; j--) {
      const char *t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
  *names = out;
  *n = k;
}

/* Provider names resolve in the module being checked. */
static void enter_module(void *ctx, const CfgTree *t)
{
  Provs *ps = ctx;
  ps->m = t->m;
}

/* The open built-in provider serving r (after open_schema), or NULL. */
static Prov *prov_of(Provs *ps, const CfgResource *r)
{
  const ProvBuiltin *b = prov_lookup_builtin(source_of(ps, r));
  for (int i = 0; b && i < ps->n; i++)
    if (ps->items[i].b == b)
      return ps->items[i].p;
  return NULL;
}

/* Terraform's validate walk asks each resource's provider to validate its
** configuration (ValidateResourceConfig), with unknown references: the
** built-in providers' validators and deprecation warnings show here, not
** only at plan.  vld_tree_ex hands over each body it decoded, so it is
** decoded once; the answers wait in ps->pd until the static checks are
** known to have passed.  A diagnostic about an attribute is shown on its
** line. */
static void provider_check(void *ctx, const CfgTree *t, const CfgResource *r,
                           const ProvBlockSchema *s, Value cfg)
{
  Provs *ps = ctx;
  (void)s;
  Prov *p = prov_of(ps, r);
  if (!p)
    return;
  Diags *d = &ps->pd;
  ProvCall c = {ps->a, d, NULL};
  Diag *mark = d->tail;
  if (r->mode == CFG_MANAGED)
    p->ops->validate_resource_config(p, &c, r->type, cfg);
  else if (r->mode == CFG_EPHEMERAL)
    prov_validate_ephemeral(p, &c, r->type, cfg);
  else
    p->ops->validate_data_resource_config(p, &c, r->type, cfg);
  if (d->tail == mark)
    return;   /* nothing to place or address */
  const char *addr = arena_printf(ps->a, "%s%s%s%s.%s", t->path,
                                  t->path[0] ? "." : "",
                                  r->mode == CFG_DATA        ? "data."
                                  : r->mode == CFG_EPHEMERAL ? "ephemeral."
                                                             : "",
                                  r->type, r->name);
  for (Diag *g = mark ? mark->next : d->head; g; g = g->next) {
    const ValPath *vp = prov_diag_path(&c, g);
    const HclAttribute *at =
        vp && vp->n && vp->steps[0].kind == PS_ATTR && r->body
            ? hcl_body_attr(r->body, vp->steps[0].name)
            : NULL;
    if (!g->subject.file)
      g->subject = at ? at->range : r->range;
    diag_set_address(d, g, addr);
  }
}

/* Moves src's errors to the end of dst, dropping its warnings. */
static void keep_errors(Diags *dst, Diags *src)
{
  for (Diag *g = src->head, *next; g; g = next) {
    next = g->next;
    if (g->severity != DIAG_ERROR)
      continue;
    g->next = NULL;
    if (dst->tail)
      dst->tail->next = g;
    else
      dst->head = g;
    dst->tail = g;
    dst->errors++;
  }
  src->head = src->tail = NULL;
  src->errors = src->warnings = 0;
}

static Prov *open_provider(void *ctx, const char *fqn, Diags *d)
{
  return preg_open(ctx, fqn, d);
}

/* Terraform's validate walk (eng_validate), after the static checks
** passed: locals and outputs evaluated with every input unknown (a
** function called with the wrong arguments, an operand of the wrong type,
** an attribute of a string), known count and for_each, module arguments,
** provider functions, and ValidateResourceConfig by every provider,
** plugins and remote ones included (the built-ins were asked by
** provider_check).  Only its errors are kept: its warnings are the ones
** provider_check reported. */
static void engine_checks(Cli *cli, const CfgTree *t, const char *dir,
                          bool static_checked, Diags *d)
{
  Diags tmp;
  diag_init(&tmp, cli->arena);
  ProvReg reg;
  if (!preg_init(&reg, cli->arena, NULL, &tmp)) {
    keep_errors(d, &tmp);
    return;
  }
  EngOpts eo;
  memset(&eo, 0, sizeof eo);
  eo.parallelism = 1;
  eo.mode = PL_MODE_NORMAL;
  eo.workspace = ws_current(cli->arena, dir, &tmp);
  eo.open_provider = open_provider;
  eo.open_ctx = &reg;
  eo.root_dir = dir;
  /* vld_tree saw every schema: the engine's copy of it would only repeat
  ** it (a fifth of validate's instructions at 10,000 resources) */
  eo.static_checked = static_checked;
  Engine *e = eo.workspace
                  ? eng_new(cli->arena, t, &cli->files, NULL, &eo, &tmp)
                  : NULL;
  if (e) {
    eng_validate(e, &tmp);
    eng_close(e);
  }
  preg_close(&reg);
  keep_errors(d, &tmp);
}

static int run(Cli *cli, int argc, char **argv)
{
  bool json = false, no_color = false, no_tests = false;
  const char *test_dir = NULL;
  CliFlag flags[] = {{"json", FLAG_BOOL, &json},
                     {"no-color", FLAG_BOOL, &no_color},
                     {"no-tests", FLAG_BOOL, &no_tests},
                     {"test-directory", FLAG_STRING, &test_dir}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 4, &rest, &d)) {
    cli_diags(cli, &d);
    return 1;
  }
  if (no_color || json)
    cli->color = false;
  const char *dir = ".";
  if (argc - rest > 1) {
    diag_error(&d, NULL, "Too many command line arguments",
               "Expected at most one positional argument.");
  } else if (argc - rest == 1) {
    dir = argv[rest];
  }

  Provs ps = {0};
  if (!diag_has_errors(&d)) {
    CfgTree *t = cfg_load_tree(cli->arena, dir, &cli->files, &d);
    if (!diag_has_errors(&d))
      cmd_backend(cli, t->m, CMD_BACKEND_INIT, &d);
    if (!diag_has_errors(&d)) {
      ps.a = cli->arena;
      ps.m = t->m;
      ps.d = &d;
      diag_init(&ps.pd, cli->arena);
      vld_tree_ex(cli->arena, t, schema_of, types_of, enter_module,
                  provider_check, &ps, &d);
      if (!diag_has_errors(&d))
        diag_move(&d, &ps.pd);
      if (!diag_has_errors(&d))
        engine_checks(cli, t, dir, !ps.skipped, &d);
    }
  }
  for (int i = 0; i < ps.n; i++)
    prov_close(ps.items[i].p);
  vld_sort_diags(&d);

  if (json) {
    Buf b;
    buf_init(&b, cli->arena);
    vld_render_json(&b, &d, &cli->files);
    buf_putc(&b, '\n');
    cli_out_buf(cli, &b);
    return diag_has_errors(&d) ? 1 : 0;
  }
  if (d.head)
    cli_diags(cli, &d);
  if (diag_has_errors(&d))
    return 1;
  const char *msg = d.head ? "The configuration is valid, but there were "
                             "some validation warnings as shown above."
                           : "The configuration is valid.";
  if (cli->color)
    cli_out(cli, "\x1b[32m\x1b[1mSuccess!\x1b[0m %s\n\x1b[0m\n", msg);
  else
    cli_out(cli, "Success! %s\n\n", msg);
  return 0;
}

const CmdEntry cmd_validate = {
    "validate",
    "Check whether the configuration is valid",
    "Usage: cairn [global options] validate [options]\n"
    "\n"
    "  Validate the configuration files in a directory, referring only to the\n"
    "  configuration and not accessing any remote services such as remote\n"
    "  state, provider APIs, etc.\n"
    "\n"
    "  Validate runs checks that verify whether a configuration is\n"
    "  syntactically valid and internally consistent, regardless of any\n"
    "  provided variables or existing state. It is thus primarily useful for\n"
    "  general verification of reusable modules, including correctness of\n"
    "  attribute names and value types.\n"
    "\n"
    "  It is safe to run this command automatically, for example as a\n"
    "  post-save check in a text editor or as a test step for a re-usable\n"
    "  module in a CI system.\n"
    "\n"
    "  Validation requires an initialized working directory with any\n"
    "  referenced plugins and modules installed. Providers built into cairn\n"
    "  need no initialization.\n"
    "\n"
    "Options:\n"
    "\n"
    "  -json        Produce output in a machine-readable JSON format,\n"
    "               suitable for use in text editor integrations and other\n"
    "               automated systems. Always disables color.\n"
    "\n"
    "  -no-color    If specified, output won't contain any color.\n"
    "\n"
    "  -no-tests    If specified, cairn will not validate test files.\n"
    "\n"
    "  -test-directory=path  Set the test directory, default is \"tests\".\n",
    run,
    true,
};
