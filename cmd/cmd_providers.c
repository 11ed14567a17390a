/*
** cmd_providers: `cairn providers [DIR]` — the provider requirements of
** the configuration as a tree of modules, then those of the state, as
** Terraform 1.9 prints them — and `cairn providers schema -json`, the
** schemas of every provider the configuration and state need, in
** Terraform's jsonprovider format (format_version 1.0), which
** terraform-json's ProviderSchemas decodes.
**
** Terraform ranges over Go maps here, so its order varies from run to
** run; cairn sorts: providers by address, modules by call name.
** Version constraints (required_providers `version` and provider blocks'
** `version`) are printed in Terraform's canonical form
** (getproviders.VersionConstraintsString: full versions, "~> 1.2" kept at
** two parts, duplicates removed, sorted by version then operator).
*/
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "cli.h"
#include "cmd_backend.h"
#include "config/config.h"
#include "config/provver.h"
#include "net/provreg.h"
#include "providers/provider.h"
#include "state/state.h"
#include "state/stmgr.h"
#include "state/workspace.h"

/* One provider a module needs, with its constraints as written. */
typedef struct Req {
  const char *fqn;
  const char *version;   /* "" when none */
} Req;

typedef struct Reqs {
  Req *v;
  uint32_t n, cap;
} Reqs;

static const char *fqn_of(Arena *a, const CfgModule *m, const char *local,
                          Diags *d)
{
  const char *src = cfg_provider_source(m, local);
  return prov_source_normalize(a, src ? src : local, NULL, d);
}

static Req *req_get(Arena *a, Reqs *r, const char *fqn)
{
  for (uint32_t i = 0; i < r->n; i++)
    if (strcmp(r->v[i].fqn, fqn) == 0)
      return &r->v[i];
  if (r->n == r->cap) {
    uint32_t nc = r->cap ? r->cap * 2 : 8;
    r->v = arena_grow(a, r->v, sizeof(Req), _Alignof(Req), r->cap, nc);
    r->cap = nc;
  }
  r->v[r->n] = (Req){fqn, ""};
  return &r->v[r->n++];
}

static void req_add(Arena *a, Reqs *r, const char *fqn, const char *version)
{
  if (!fqn)
    return;
  Req *q = req_get(a, r, fqn);
  if (version && version[0])
    q->version = q->version[0] ? arena_printf(a, "%s, %s", q->version, version)
                               : version;
}

static int cmp_req(const void *x, const void *y)
{
  return strcmp(((const Req *)x)->fqn, ((const Req *)y)->fqn);
}

/* ProviderRequirementsShallow: required_providers, provider blocks,
** and the providers resources (managed and data) imply or name. */
static void module_reqs(Arena *a, const CfgModule *m, Reqs *r, Diags *d)
{
  for (uint32_t i = 0; i < m->nrequired_providers; i++) {
    const CfgRequiredProvider *rp = &m->required_providers[i];
    req_add(a, r, fqn_of(a, m, rp->local_name, d), rp->version);
  }
  for (uint32_t i = 0; i < m->nproviders; i++)
    req_add(a, r, fqn_of(a, m, m->providers[i].name, d),
            m->providers[i].version);
  for (uint32_t i = 0; i < m->nresources; i++)
    req_add(a, r,
            fqn_of(a, m, cfg_resource_provider_name(&m->resources[i]), d),
            NULL);
  for (uint32_t i = 0; i < m->nactions; i++)   /* Terraform 1.14 actions */
    req_add(a, r,
            fqn_of(a, m, cfg_action_provider_name(&m->actions[i]), d),
            NULL);
  if (r->n)
    qsort(r->v, r->n, sizeof(Req), cmp_req);
}

typedef struct CallIx {
  const char *name;
  uint32_t i;
} CallIx;

static int cmp_call(const void *x, const void *y)
{
  return strcmp(((const CallIx *)x)->name, ((const CallIx *)y)->name);
}

/* treeprint's layout: "├── " / "└── " before a node, "│   " / "    "
** below it for its children. */
static void tree(Arena *a, Buf *b, const CfgTree *t, const char *indent,
                 uint32_t depth, Diags *d)
{
  Reqs r = {0};
  module_reqs(a, t->m, &r, d);
  CallIx *calls = ARENA_NEW(a, CallIx, t->m->ncalls + 1);
  uint32_t nc = 0;
  for (uint32_t i = 0; i < t->m->ncalls; i++)
    if (t->children && t->children[i] && t->children[i]->m)
      calls[nc++] = (CallIx){t->m->calls[i].name, i};
  qsort(calls, nc, sizeof(CallIx), cmp_call);
  uint32_t total = r.n + nc;
  for (uint32_t k = 0; k < total; k++) {
    bool last = k + 1 == total;
    buf_printf(b, "%s%s", indent, last ? "└── " : "├── ");
    if (k < r.n) {
      /* a constraint that does not parse was refused by the loader; keep
      ** it as written rather than drop it */
      const char *bad;
      const char *canon = pver_canon(a, &r.v[k].version, 1, &bad);
      if (!canon)
        canon = r.v[k].version;
      buf_printf(b, "provider[%s]%s%s\n", r.v[k].fqn, canon[0] ? " " : "",
                 canon);
      continue;
    }
    const CallIx *c = &calls[k - r.n];
    buf_printf(b, "module.%s\n", c->name);
    if (depth < 256)
      tree(a, b, t->children[c->i],
           arena_printf(a, "%s%s", indent, last ? "    " : "│   "),
           depth + 1, d);
  }
}

/* The providers the state's resources name, sorted and deduplicated
** (State.ProviderRequirements). */
static uint32_t state_reqs(Arena *a, const State *s, const char ***out)
{
  const char **v = ARENA_NEW(a, const char *, s->nres + 1);
  uint32_t n = 0;
  for (uint32_t i = 0; i < s->nres; i++) {
    const char *p = strstr(s->res[i]->provider, "provider[\"");
    if (!p)
      continue;
    p += 10;
    const char *q = strchr(p, '"');
    if (!q)
      continue;
    const char *f = arena_strndup(a, p, (size_t)(q - p));
    bool dup = false;
    for (uint32_t k = 0; k < n && !dup; k++)
      dup = strcmp(v[k], f) == 0;
    if (!dup)
      v[n++] = f;
  }
  for (uint32_t i = 1; i < n; i++)
    for (uint32_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
      const char *t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  *out = v;
  return n;
}

/* Loads the configuration (refusing a directory without one, as
** Terraform does) and the current workspace's state.  NULL tree on
** failure, with diagnostics. */
static CfgTree *load(Cli *cli, const char *dir, State **st, Diags *d)
{
  *st = NULL;
  CfgTree *t = cfg_load_tree(cli->arena, dir, &cli->files, d);
  if (diag_has_errors(d))
    return NULL;
  if (!t->m || t->m->nfiles == 0) {
    diag_error(d, NULL, "No configuration files",
               "The directory %s contains no cairn configuration files.",
               dir);
    return NULL;
  }
  const Backend *be = cmd_backend(cli, t->m, CMD_BACKEND_USE, d);
  if (!be)
    return NULL;
  const char *ws = ws_current(cli->arena, ".", d);
  if (!ws)
    return NULL;
  StMgrOpts so = {be_state_path(be, cli->arena, ws), NULL, "-"};
  StMgr m;
  stmgr_init(&m, cli->arena, &so);
  bool ok = stmgr_load(&m, st, d);
  stmgr_close(&m);
  return ok ? t : NULL;
}

static int run(Cli *cli, int argc, char **argv)
{
  const char *test_dir = NULL;
  CliFlag flags[] = {{"test-directory", FLAG_STRING, &test_dir}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 1, &rest, &d)) {
    cli_diags(cli, &d);
    return 1;
  }
  if (argc - rest > 1) {
    cli_err(cli, "\nError: Too many command line arguments\n\nExpected at "
                 "most one positional argument.\n\n");
    return 1;
  }
  const char *dir = rest < argc ? argv[rest] : ".";
  State *st;
  CfgTree *t = load(cli, dir, &st, &d);
  if (!t) {
    cli_diags(cli, &d);
    return 1;
  }
  Buf b;
  buf_init(&b, cli->arena);
  buf_puts(&b, "\nProviders required by configuration:\n.\n");
  tree(cli->arena, &b, t, "", 0, &d);
  /* Terraform 1.9 writes the tree with Ui.Output, which adds a line */
  buf_putc(&b, '\n');
  const char **sr;
  uint32_t nsr = st ? state_reqs(cli->arena, st, &sr) : 0;
  if (nsr) {
    buf_puts(&b, "Providers required by state:\n\n");
    for (uint32_t i = 0; i < nsr; i++)
      buf_printf(&b, "    provider[%s]\n\n", sr[i]);
  }
  if (diag_has_errors(&d)) {
    cli_diags(cli, &d);
    return 1;
  }
  cli_out_buf(cli, &b);
  if (d.head)
    cli_diags(cli, &d);
  return 0;
}

const CmdEntry cmd_providers = {
    "providers", "Show the providers required for this configuration",
    "Usage: cairn [global options] providers [options] [DIR]\n\n"
    "  Prints out a tree of modules in the referenced configuration "
    "annotated with\n"
    "  their provider requirements.\n\n"
    "  This provides an overview of all of the provider requirements across "
    "all\n"
    "  referenced modules, as an aid to understanding why particular "
    "provider\n"
    "  plugins are needed and why particular versions are selected.\n\n"
    "Options:\n\n"
    "  -test-directory=path\tSet the test directory, default is \"tests\".\n",
    run, false};

/* ---- providers schema -json ------------------------------------------- */

static void w_attrs(JsonW *w, const ProvAttrSchema *at, uint32_t n,
                    int depth);

static const char *nesting_name(ProvNesting n)
{
  switch (n) {
  case PROV_NEST_SINGLE: return "single";
  case PROV_NEST_LIST: return "list";
  case PROV_NEST_SET: return "set";
  case PROV_NEST_MAP: return "map";
  case PROV_NEST_GROUP: return "group";
  default: return "invalid";
  }
}

static int cmp_attr(const void *x, const void *y)
{
  return strcmp((*(const ProvAttrSchema *const *)x)->name,
                (*(const ProvAttrSchema *const *)y)->name);
}

static int cmp_nb(const void *x, const void *y)
{
  return strcmp((*(const ProvNestedBlock *const *)x)->type_name,
                (*(const ProvNestedBlock *const *)y)->type_name);
}

/* jsonprovider.Attribute, fields in its order (omitempty). */
static void w_attr(JsonW *w, const ProvAttrSchema *a, int depth)
{
  json_w_begin_object(w);
  if (a->type) {
    json_w_keyz(w, "type");
    json_w_type(w, a->type);
  }
  if (a->nested && depth < 64) {
    json_w_keyz(w, "nested_type");
    json_w_begin_object(w);
    json_w_keyz(w, "attributes");
    w_attrs(w, a->nested->attrs, a->nested->nattrs, depth + 1);
    json_w_keyz(w, "nesting_mode");
    json_w_stringz(w, nesting_name(a->nested->nesting));
    json_w_end_object(w);
  }
  if (a->description && a->description[0]) {
    json_w_keyz(w, "description");
    json_w_stringz(w, a->description);
  }
  json_w_keyz(w, "description_kind");
  json_w_stringz(w, "plain");
  static const struct {
    unsigned flag;
    const char *key;
  } fl[] = {{PROV_DEPRECATED, "deprecated"}, {PROV_REQUIRED, "required"},
            {PROV_OPTIONAL, "optional"},     {PROV_COMPUTED, "computed"},
            {PROV_SENSITIVE, "sensitive"},   {PROV_WRITE_ONLY, "write_only"}};
  for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
    if (a->flags & fl[i].flag) {
      json_w_keyz(w, fl[i].key);
      json_w_bool(w, true);
    }
  json_w_end_object(w);
}

/* Go marshals map keys sorted. */
static void w_attrs(JsonW *w, const ProvAttrSchema *at, uint32_t n,
                    int depth)
{
  const ProvAttrSchema **v = ARENA_NEW(w->out->arena, const ProvAttrSchema *,
                                       n + 1);
  for (uint32_t i = 0; i < n; i++)
    v[i] = &at[i];
  qsort(v, n, sizeof *v, cmp_attr);
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    json_w_keyz(w, v[i]->name);
    w_attr(w, v[i], depth);
  }
  json_w_end_object(w);
}

/* jsonprovider.Block: attributes, block_types, description,
** description_kind, deprecated. */
static void w_block(JsonW *w, const ProvBlockSchema *b, int depth)
{
  json_w_begin_object(w);
  if (b && b->nattrs) {
    json_w_keyz(w, "attributes");
    w_attrs(w, b->attrs, b->nattrs, depth);
  }
  if (b && b->nblocks && depth < 64) {
    const ProvNestedBlock **v = ARENA_NEW(w->out->arena, const ProvNestedBlock *,
                                          b->nblocks + 1);
    for (uint32_t i = 0; i < b->nblocks; i++)
      v[i] = &b->blocks[i];
    qsort(v, b->nblocks, sizeof *v, cmp_nb);
    json_w_keyz(w, "block_types");
    json_w_begin_object(w);
    for (uint32_t i = 0; i < b->nblocks; i++) {
      json_w_keyz(w, v[i]->type_name);
      json_w_begin_object(w);
      json_w_keyz(w, "nesting_mode");
      json_w_stringz(w, nesting_name(v[i]->nesting));
      json_w_keyz(w, "block");
      w_block(w, v[i]->block, depth + 1);
      if (v[i]->min_items) {
        json_w_keyz(w, "min_items");
        json_w_uint(w, v[i]->min_items);
      }
      if (v[i]->max_items) {
        json_w_keyz(w, "max_items");
        json_w_uint(w, v[i]->max_items);
      }
      json_w_end_object(w);
    }
    json_w_end_object(w);
  }
  if (b && b->description && b->description[0]) {
    json_w_keyz(w, "description");
    json_w_stringz(w, b->description);
  }
  json_w_keyz(w, "description_kind");
  json_w_stringz(w, "plain");
  if (b && b->deprecated) {
    json_w_keyz(w, "deprecated");
    json_w_bool(w, true);
  }
  json_w_end_object(w);
}

static void w_schema(JsonW *w, const ProvSchema *s)
{
  json_w_begin_object(w);
  json_w_keyz(w, "version");
  json_w_uint(w, s->version < 0 ? 0 : (uint64_t)s->version);
  json_w_keyz(w, "block");
  w_block(w, s->block, 0);
  json_w_end_object(w);
}

static int cmp_ts(const void *x, const void *y)
{
  return strcmp((*(const ProvTypeSchema *const *)x)->type_name,
                (*(const ProvTypeSchema *const *)y)->type_name);
}

static void w_types(JsonW *w, const char *key, const ProvTypeSchema *ts,
                    uint32_t n)
{
  if (!n)
    return;
  const ProvTypeSchema **v = ARENA_NEW(w->out->arena, const ProvTypeSchema *,
                                       n + 1);
  for (uint32_t i = 0; i < n; i++)
    v[i] = &ts[i];
  qsort(v, n, sizeof *v, cmp_ts);
  json_w_keyz(w, key);
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    json_w_keyz(w, v[i]->type_name);
    w_schema(w, &v[i]->schema);
  }
  json_w_end_object(w);
}

/* jsonfunction's parameter: name, description, is_nullable, type
** (omitempty). */
static void w_fn_param(JsonW *w, const ProvFuncParam *pp)
{
  json_w_begin_object(w);
  json_w_keyz(w, "name");
  json_w_stringz(w, pp->name ? pp->name : "");
  if (pp->description && pp->description[0]) {
    json_w_keyz(w, "description");
    json_w_stringz(w, pp->description);
  }
  if (pp->allow_null_value) {
    json_w_keyz(w, "is_nullable");
    json_w_bool(w, true);
  }
  json_w_keyz(w, "type");
  json_w_type(w, pp->type);
  json_w_end_object(w);
}

/* The provider's functions as Terraform 1.8 writes them (jsonprovider
** "functions": jsonfunction.FunctionSignature per name, fields in its
** order, omitempty); the schema keeps them sorted by name. */
static void w_functions(JsonW *w, const ProvFunction *fs, uint32_t n)
{
  if (!n)
    return;
  json_w_keyz(w, "functions");
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    const ProvFunction *f = &fs[i];
    json_w_keyz(w, f->name);
    json_w_begin_object(w);
    if (f->description && f->description[0]) {
      json_w_keyz(w, "description");
      json_w_stringz(w, f->description);
    }
    if (f->summary && f->summary[0]) {
      json_w_keyz(w, "summary");
      json_w_stringz(w, f->summary);
    }
    if (f->deprecation_message && f->deprecation_message[0]) {
      json_w_keyz(w, "deprecation_message");
      json_w_stringz(w, f->deprecation_message);
    }
    json_w_keyz(w, "return_type");
    json_w_type(w, f->return_type);
    if (f->nparams) {
      json_w_keyz(w, "parameters");
      json_w_begin_array(w);
      for (uint32_t k = 0; k < f->nparams; k++)
        w_fn_param(w, &f->params[k]);
      json_w_end_array(w);
    }
    if (f->variadic) {
      json_w_keyz(w, "variadic_parameter");
      w_fn_param(w, f->variadic);
    }
    json_w_end_object(w);
  }
  json_w_end_object(w);
}

/* Every provider of the tree, once, sorted. */
static void all_reqs(Arena *a, const CfgTree *t, Reqs *r, uint32_t depth,
                     Diags *d)
{
  Reqs m = {0};
  module_reqs(a, t->m, &m, d);
  for (uint32_t i = 0; i < m.n; i++)
    req_get(a, r, m.v[i].fqn);
  for (uint32_t i = 0; i < t->m->ncalls && depth < 256; i++)
    if (t->children && t->children[i] && t->children[i]->m)
      all_reqs(a, t->children[i], r, depth + 1, d);
}

static int run_schema(Cli *cli, int argc, char **argv)
{
  bool json = false;
  const char *config = NULL;
  CliFlag flags[] = {{"json", FLAG_BOOL, &json},
                     {"config", FLAG_STRING, &config}};
  Diags d;
  diag_init(&d, cli->arena);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags, 2, &rest, &d)) {
    cli_diags(cli, &d);
    return 1;
  }
  /* Terraform: "The `terraform providers schema` command requires the
  ** `-json` flag." and no positional arguments */
  if (!json || rest < argc) {
    cli_err(cli, "The `cairn providers schema` command requires the "
                 "`-json` flag.\n\nUsage: cairn [global options] providers "
                 "schema -json\n");
    return 1;
  }
  Arena *a = cli->arena;
  State *st;
  CfgTree *t = load(cli, ".", &st, &d);
  if (!t) {
    cli_diags(cli, &d);
    return 1;
  }
  Reqs r = {0};
  all_reqs(a, t, &r, 0, &d);
  const char **sr;
  uint32_t nsr = st ? state_reqs(a, st, &sr) : 0;
  for (uint32_t i = 0; i < nsr; i++)
    req_get(a, &r, sr[i]);
  if (r.n)
    qsort(r.v, r.n, sizeof(Req), cmp_req);
  ProvReg reg;
  if (!preg_init(&reg, a, config, &d) || diag_has_errors(&d)) {
    cli_diags(cli, &d);
    preg_close(&reg);
    return 1;
  }
  Buf b;
  buf_init(&b, a);
  JsonW w;
  json_w_init(&w, &b, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "format_version");
  json_w_stringz(&w, "1.0");
  if (r.n)
    json_w_keyz(&w, "provider_schemas");
  if (r.n)
    json_w_begin_object(&w);
  for (uint32_t i = 0; i < r.n && !diag_has_errors(&d); i++) {
    Prov *p = preg_open(&reg, r.v[i].fqn, &d);
    if (!p)
      break;
    const ProvProviderSchema *s = NULL;
    ProvCall c = {a, &d, NULL};
    p->ops->get_schema(p, &c, &s);
    if (!s) {
      if (!diag_has_errors(&d))
        diag_error(&d, NULL, "Failed to load plugin schemas",
                   "Could not load the schema for provider %s.",
                   r.v[i].fqn);
      break;
    }
    json_w_keyz(&w, r.v[i].fqn);
    json_w_begin_object(&w);
    json_w_keyz(&w, "provider");
    w_schema(&w, &s->provider);
    w_types(&w, "resource_schemas", s->resources, s->nresources);
    w_types(&w, "data_source_schemas", s->data_sources, s->ndata_sources);
    w_types(&w, "ephemeral_resource_schemas", s->ephemeral_resources,
            s->nephemeral_resources);
    w_functions(&w, s->functions, s->nfunctions);
    w_types(&w, "action_schemas", s->actions, s->nactions);
    json_w_end_object(&w);
  }
  preg_close(&reg);
  if (diag_has_errors(&d)) {
    cli_diags(cli, &d);
    return 1;
  }
  if (r.n)
    json_w_end_object(&w);
  json_w_end_object(&w);
  buf_putc(&b, '\n');
  cli_out_buf(cli, &b);
  return 0;
}

const CmdEntry cmd_providers_schema = {
    "providers schema", "Show schemas for the providers used in the "
                        "configuration",
    "Usage: cairn [global options] providers schema -json\n\n"
    "  Prints out a json representation of the schemas for all providers "
    "used\n"
    "  in the current configuration.\n",
    run_schema, false};
