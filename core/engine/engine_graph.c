/*
** engine_graph: graph construction.  Provider slots (opened with their
** schemas), the static modules, one node per provider, local, variable,
** output, module call, configured resource and orphan, the edges from
** references and recorded dependencies, and in apply the nodes that run
** deletes (N_DESTROY, N_DEPOSED) in dependency order.
*/
#include <stdlib.h>
#include <string.h>

#include "engine_priv.h"
#include "providers/decode.h"
#include "provisioner.h"

static uint32_t add_node(Engine *e, NodeKind k, const char *name)
{
  if (e->nnodes == e->cap_nodes) {
    uint32_t nc = e->cap_nodes ? e->cap_nodes * 2 : 64;
    Node *nn = ARENA_NEW(e->a, Node, nc);
    if (e->nnodes)
      memcpy(nn, e->nodes, sizeof(Node) * e->nnodes);
    e->nodes = nn;
    e->cap_nodes = nc;
  }
  Node *n = &e->nodes[e->nnodes];
  memset(n, 0, sizeof *n);
  n->kind = k;
  n->name = name;
  n->pre = n->post = UINT32_MAX;
  return e->nnodes++;
}

static bool same_alias(const char *a, const char *b)
{
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static ProvSlot *find_slot(Engine *e, const char *mod_path, const char *fqn,
                           const char *alias)
{
  for (uint32_t i = 0; i < e->nslots; i++)
    if (strcmp(e->slots[i].fqn, fqn) == 0 &&
        strcmp(e->slots[i].mod_path, mod_path) == 0 &&
        same_alias(alias, e->slots[i].alias))
      return &e->slots[i];
  return NULL;
}

/* The provider block configuring local.alias in module m, or NULL. */
static const CfgProvider *provider_block(const CfgModule *m,
                                         const char *local, const char *alias)
{
  for (uint32_t i = 0; i < m->nproviders; i++)
    if (strcmp(m->providers[i].name, local) == 0 &&
        same_alias(alias, m->providers[i].alias))
      return &m->providers[i];
  return NULL;
}

ProvSlot *eng_ensure_slot(Engine *e, const char *mod_path,
                          const CfgProvider *cfg, const char *local,
                          const char *fqn, const char *alias, Diags *d)
{
  ProvSlot *ps = find_slot(e, mod_path, fqn, alias);
  if (ps)
    return ps;
  ProvSlot *ns = ARENA_NEW(e->a, ProvSlot, e->nslots + 1);
  if (e->nslots)
    memcpy(ns, e->slots, sizeof(ProvSlot) * e->nslots);
  /* nodes keep ProvSlot pointers only after all slots exist (see
  ** eng_new), so reallocating here is safe. */
  e->slots = ns;
  ps = &e->slots[e->nslots++];
  memset(ps, 0, sizeof *ps);
  ps->mod_path = mod_path;
  ps->local_name = local;
  ps->alias = alias;
  ps->fqn = fqn;
  ps->state_addr = arena_printf(e->a, "%s%sprovider[\"%s\"]%s%s", mod_path,
                                mod_path[0] ? "." : "", fqn,
                                alias ? "." : "", alias ? alias : "");
  ps->builtin = prov_lookup_builtin(fqn) != NULL;
  ps->cfg = cfg;
  ps->prov = e->o.open_provider(e->o.open_ctx, fqn, d);
  if (ps->prov) {
    ProvCall c = {ps->prov->arena ? ps->prov->arena : e->a, d, NULL};
    const ProvProviderSchema *sch = NULL;
    ps->prov->ops->get_schema(ps->prov, &c, &sch);
    if (sch) {
      ps->schema = prov_schema_clone(e->a, sch);
      prov_schema_prepare(e->a, ps->schema);
    }
  }
  return ps;
}

/* The slot a reference to provider local.alias from module t resolves to:
** the module's own provider block, else what its caller passes in the
** `providers` map, else (default configurations only) the caller's
** configuration of the same name, up to the root, where an absent block is
** an empty configuration.  fqn is fixed by the module that uses it. */
static ProvSlot *provider_for(Engine *e, const CfgTree *t, const char *local,
                              const char *alias, const char *fqn,
                              const SrcRange *rg, Diags *d)
{
  for (;;) {
    const CfgProvider *cp = provider_block(t->m, local, alias);
    if (cp || !t->parent)
      return eng_ensure_slot(e, t->path, cp, local, fqn, alias, d);
    const CfgModuleCall *mc = t->call;
    bool passed = false;
    for (uint32_t i = 0; i < mc->nproviders && !passed; i++)
      if (strcmp(mc->providers[i].in_child.name, local) == 0 &&
          same_alias(alias, mc->providers[i].in_child.alias)) {
        local = mc->providers[i].in_parent.name;
        alias = mc->providers[i].in_parent.alias;
        passed = true;
      }
    if (!passed && alias) {
      diag_error(d, rg, "Provider configuration not present",
                 "The configuration for %s needs the provider configuration "
                 "%s.%s, which module \"%s\" does not receive: add it to the "
                 "call's providers argument, e.g. providers = { %s.%s = "
                 "%s.%s }.", t->path, local, alias, mc->name, local, alias,
                 local, alias);
      return NULL;
    }
    t = t->parent;
  }
}

/* The provider slot a configured resource of module t uses. */
ProvSlot *eng_resource_slot(Engine *e, const CfgTree *t,
                            const CfgResource *r, Diags *d)
{
  const char *local = cfg_resource_provider_name(r);
  const char *src = cfg_provider_source(t->m, local);
  if (!src)
    src = local;   /* not in required_providers: hashicorp/<local> */
  const char *fqn = prov_source_normalize(e->a, src, &r->range, d);
  if (!fqn)
    return NULL;
  return provider_for(e, t, local, r->provider.name ? r->provider.alias : NULL,
                      fqn, &r->range, d);
}

/* Terraform's init refuses a state (or configuration) naming a provider
** in the legacy namespace ("-", what 0.12 states' provider.null becomes)
** with this error, once per provider; cairn needs no init for built-in
** providers, so it refuses such a state where it opens its providers. */
static void legacy_provider_error(Arena *a, const char *type, Diags *d)
{
  const char *summary = "Invalid legacy provider address";
  const char *detail = arena_printf(
      a,
      "This configuration or its associated state refers to the "
      "unqualified provider \"%s\".\n\nYou must complete the Terraform "
      "0.13 upgrade process before upgrading to later versions.",
      type);
  for (const Diag *g = d->head; g; g = g->next)
    if (strcmp(g->summary, summary) == 0 && g->detail &&
        strcmp(g->detail, detail) == 0)
      return;
  diag_error(d, NULL, summary, "%s", detail);
}

/* Parses [MODULE.]provider["fqn"][.alias] from the state. */
ProvSlot *eng_state_slot(Engine *e, const char *paddr, Diags *d)
{
  const char *p = strstr(paddr, "provider[\"");
  if (!p) {
    diag_error(d, NULL, "Invalid provider address in state",
               "The state names the provider \"%s\", which is not a valid "
               "provider configuration address.", paddr);
    return NULL;
  }
  const char *mod_path = "";
  if (p > paddr) {
    if (p - paddr < 2 || p[-1] != '.') {
      diag_error(d, NULL, "Invalid provider address in state",
                 "The state names the provider \"%s\".", paddr);
      return NULL;
    }
    mod_path = st_static_path(e->a, arena_strndup(e->a, paddr,
                                               (size_t)(p - paddr - 1)));
  }
  p += 10;
  const char *q = strchr(p, '"');
  if (!q) {
    diag_error(d, NULL, "Invalid provider address in state",
               "The state names the provider \"%s\".", paddr);
    return NULL;
  }
  const char *fqn = arena_strndup(e->a, p, (size_t)(q - p));
  if (strncmp(fqn, "registry.terraform.io/-/", 24) == 0) {
    legacy_provider_error(e->a, fqn + 24, d);
    return NULL;
  }
  const char *alias = NULL;
  if (q[1] == ']' && q[2] == '.')
    alias = arena_strdup(e->a, q + 3);
  const char *slash = strrchr(fqn, '/');
  const char *local = slash ? slash + 1 : fqn;
  const CfgTree *t = e->tree ? cfg_tree_find(e->tree, mod_path) : NULL;
  const CfgProvider *cp = NULL;
  if (t)
    for (uint32_t i = 0; i < t->m->nproviders && !cp; i++) {
      const char *src = cfg_provider_source(t->m, t->m->providers[i].name);
      Diags q2;
      diag_init(&q2, e->a);
      const char *f = prov_source_normalize(
          e->a, src ? src : t->m->providers[i].name, NULL, &q2);
      if (f && strcmp(f, fqn) == 0 &&
          same_alias(alias, t->m->providers[i].alias))
        cp = &t->m->providers[i];
    }
  if (cp)
    local = cp->name;
  return eng_ensure_slot(e, mod_path, cp, local, fqn, alias, d);
}

const ProvTypeSchema *eng_type_schema(const ProvSlot *ps, StMode mode,
                                      const char *type)
{
  if (!ps || !ps->schema)
    return NULL;
  return mode == ST_DATA ? prov_schema_data_source(ps->schema, type)
                         : prov_schema_resource(ps->schema, type);
}

/* References to link, each with the module it is evaluated in. */
typedef struct RefList {
  HclTraversal *items;
  EMod **mods;
  uint32_t n, cap;
  uint32_t order_from;      /* nonzero: items from order_from - 1 on only
                               order the walk (action configurations),
                               they are no state "dependencies" */
} RefList;

static void refs_add(Arena *a, RefList *l, EMod *mod, HclTraversal *t,
                     uint32_t n)
{
  if (n == 0)
    return;
  if (l->n + n > l->cap) {
    uint32_t nc = (l->n + n) * 2 + 8;
    HclTraversal *ni = ARENA_NEW(a, HclTraversal, nc);
    EMod **nm = ARENA_NEW(a, EMod *, nc);
    if (l->n) {
      memcpy(ni, l->items, sizeof(HclTraversal) * l->n);
      memcpy(nm, l->mods, sizeof(EMod *) * l->n);
    }
    l->items = ni;
    l->mods = nm;
    l->cap = nc;
  }
  memcpy(l->items + l->n, t, sizeof(HclTraversal) * n);
  for (uint32_t i = 0; i < n; i++)
    l->mods[l->n + i] = mod;
  l->n += n;
}

static void expr_refs(Arena *a, RefList *l, EMod *mod, const HclExpr *x)
{
  if (!x)
    return;
  HclTraversal *t;
  uint32_t n;
  hcl_expr_references(a, x, &t, &n);
  refs_add(a, l, mod, t, n);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void add_dep_edge(Engine *e, DagBuilder *b, uint32_t v, uint32_t u,
                         const char **deps, uint32_t *nd)
{
  if (u == UINT32_MAX || u == v)
    return;
  dag_add_edge(b, v, u);
  if (e->nodes[u].kind == N_RESOURCE && deps)
    deps[(*nd)++] = e->nodes[u].addr;
}

/* What the actions resource node v triggers refer to (trigger
** conditions and keys, the actions' count, for_each and configuration):
** v runs after it, and after the actions' providers are configured.  The
** items only order the walk (RefList.order_from). */
static void action_refs(Engine *e, DagBuilder *b, uint32_t v, RefList *l)
{
  Node *n = &e->nodes[v];
  EMod *mod = n->mod;
  const CfgResource *r = n->res;
  l->order_from = l->n + 1;
  for (uint32_t i = 0; i < r->naction_triggers; i++) {
    const CfgActionTrigger *t = &r->action_triggers[i];
    expr_refs(e->a, l, mod, t->condition);
    for (uint32_t k = 0; k < t->nactions; k++) {
      expr_refs(e->a, l, mod, t->actions[k].key);
      const CfgAction *x = cfg_action(mod->t->m, t->actions[k].type,
                                      t->actions[k].name);
      if (!x)
        continue;
      expr_refs(e->a, l, mod, x->count);
      expr_refs(e->a, l, mod, x->for_each);
      Diags q;
      diag_init(&q, e->a);
      ProvSlot *ps = eng_action_slot(e, mod->t, x, &q);
      if (!ps || !ps->schema)
        continue;
      dag_add_edge(b, v, ps->node);
      const ProvTypeSchema *ts = prov_schema_action(ps->schema, x->type);
      if (ts && x->config) {
        HclTraversal *tv;
        uint32_t nt;
        dec_body_refs(e->a, x->config, ts->schema.block, &tv, &nt);
        refs_add(e->a, l, mod, tv, nt);
      }
    }
  }
}

/* Adds edges from node v to every node its references name; records the
** static resource dependencies (state "dependencies") of resources.  A
** reference to module.NAME.OUT depends on that output (and the call); a
** reference to the whole call on every output of the called module. */
static void link_refs(Engine *e, DagBuilder *b, uint32_t v, RefList *l)
{
  Node *n = &e->nodes[v];
  const char **deps = ARENA_NEW(e->a, const char *, l->n + 1);
  uint32_t nd = 0;
  for (uint32_t i = 0; i < l->n; i++) {
    Diags d;
    diag_init(&d, e->a);
    EvalRef r;
    if (!eval_parse_ref(&l->items[i], &r, &d))
      continue;
    EMod *mod = l->mods[i];
    const char *nm = NULL;
    switch (r.kind) {
    case EVAL_REF_LOCAL:
      nm = arena_printf(e->a, "local.%s", r.name);
      break;
    case EVAL_REF_VAR:
      nm = mod->parent ? arena_printf(e->a, "var.%s", r.name) : NULL;
      break;
    case EVAL_REF_RESOURCE:
      nm = arena_printf(e->a, "%s.%s", r.type, r.name);
      break;
    case EVAL_REF_DATA:
      nm = arena_printf(e->a, "data.%s.%s", r.type, r.name);
      break;
    case EVAL_REF_EPHEMERAL:
      nm = arena_printf(e->a, "ephemeral.%s.%s", r.type, r.name);
      break;
    case EVAL_REF_MODULE:
    case EVAL_REF_MODULE_OUT: {
      uint32_t c;
      if (!eng_find_node(e, mod, arena_printf(e->a, "module.%s", r.name), &c))
        break;
      add_dep_edge(e, b, v, c, NULL, NULL);
      EMod *ch = e->nodes[c].child;
      const CfgModuleCall *mc = ch->t->call;
      uint32_t u;
      if (r.kind == EVAL_REF_MODULE_OUT &&
          (r.has_key || (!mc->count && !mc->for_each))) {
        if (eng_find_node(e, ch, arena_printf(e->a, "output.%s", r.attr), &u))
          add_dep_edge(e, b, v, u, NULL, NULL);
        break;
      }
      for (uint32_t k = 0; k < ch->t->m->noutputs; k++)
        if (eng_find_node(e, ch, arena_printf(e->a, "output.%s",
                                              ch->t->m->outputs[k].name), &u))
          add_dep_edge(e, b, v, u, NULL, NULL);
      break;
    }
    default:
      break;
    }
    uint32_t u;
    /* destroying, an ephemeral block is opened before the providers the
    ** orphans need: it must not wait for their deletes */
    if (nm && eng_find_node(e, mod, nm, &u) &&
        !(n->kind == N_EPHEMERAL && e->nodes[u].kind == N_ORPHAN))
      add_dep_edge(e, b, v, u,
                   l->order_from && i + 1 >= l->order_from ? NULL : deps,
                   &nd);
  }
  if (n->kind == N_RESOURCE) {
    qsort(deps, nd, sizeof *deps, cmp_str);
    uint32_t k = 0;
    for (uint32_t i = 0; i < nd; i++)
      if (k == 0 || strcmp(deps[k - 1], deps[i]) != 0)
        deps[k++] = deps[i];
    n->deps = deps;
    n->ndeps = k;
  }
}

static const char *res_addr(Arena *a, const EMod *mod, StMode mode,
                            const char *type, const char *name)
{
  return arena_printf(a, "%s%s%s.%s", mod->prefix,
                      mode == ST_DATA ? "data." : "", type, name);
}

/* The static modules of tree t (children first built recursively). */
EMod *eng_build_mods(Engine *e, const CfgTree *t, EMod *parent)
{
  EMod *m = ARENA_NEW(e->a, EMod, 1);
  m->t = t;
  m->parent = parent;
  m->prefix = t->path[0] ? arena_printf(e->a, "%s.", t->path) : "";
  m->call_node = UINT32_MAX;
  m->children = ARENA_NEW(e->a, EMod *, t->m->ncalls + 1);
  for (uint32_t i = 0; i < t->m->ncalls; i++)
    if (t->children && t->children[i])
      m->children[i] = eng_build_mods(e, t->children[i], m);
  return m;
}

static EMod *emod_find(EMod *m, const char *path)
{
  if (strcmp(m->t->path, path) == 0)
    return m;
  for (uint32_t i = 0; i < m->t->m->ncalls; i++)
    if (m->children[i]) {
      EMod *f = emod_find(m->children[i], path);
      if (f)
        return f;
    }
  return NULL;
}

/* Clears the instances of every module below the root (a new walk
** expands them again). */
static void reset_mods(EMod *m)
{
  if (m->parent) {
    m->mi = NULL;
    m->nmi = 0;
    m->child_start = NULL;
  }
  for (uint32_t i = 0; i < m->t->m->ncalls; i++)
    if (m->children[i])
      reset_mods(m->children[i]);
}

static uint32_t count_items(const EMod *m)
{
  const CfgModule *cm = m->t->m;
  uint32_t n = cm->nlocals + cm->noutputs + cm->nresources + cm->ncalls +
               cm->nvariables;
  for (uint32_t i = 0; i < cm->ncalls; i++)
    if (m->children[i])
      n += count_items(m->children[i]);
  return n;
}

/* Nodes of module m and, recursively, of the modules it calls. */
static void add_module_nodes(Engine *e, EMod *m, const State *s, Diags *d)
{
  const CfgModule *cm = m->t->m;
  bool destroy = e->o.mode == PL_MODE_DESTROY;
  for (uint32_t i = 0; i < cm->nlocals; i++) {
    const char *nm = arena_printf(e->a, "%slocal.%s", m->prefix,
                                  cm->locals[i].name);
    uint32_t v = add_node(e, N_LOCAL, nm);
    e->nodes[v].local = &cm->locals[i];
    e->nodes[v].mod = m;
    eng_map_put(&e->by_name, nm, v);
  }
  if (m->parent)
    for (uint32_t i = 0; i < cm->nvariables; i++) {
      const char *nm = arena_printf(e->a, "%svar.%s", m->prefix,
                                    cm->variables[i].name);
      uint32_t v = add_node(e, N_VAR, nm);
      e->nodes[v].var = &cm->variables[i];
      e->nodes[v].mod = m;
      eng_map_put(&e->by_name, nm, v);
    }
  if (!destroy)
    for (uint32_t i = 0; i < cm->noutputs; i++) {
      const char *nm = arena_printf(e->a, "%soutput.%s", m->prefix,
                                    cm->outputs[i].name);
      uint32_t v = add_node(e, N_OUTPUT, nm);
      e->nodes[v].out = &cm->outputs[i];
      e->nodes[v].mod = m;
      eng_map_put(&e->by_name, nm, v);
    }
  for (uint32_t i = 0; i < cm->ncalls; i++) {
    if (!m->children[i])
      continue;
    const char *nm = arena_printf(e->a, "%smodule.%s", m->prefix,
                                  cm->calls[i].name);
    uint32_t v = add_node(e, N_CALL, nm);
    e->nodes[v].mod = m;
    e->nodes[v].child = m->children[i];
    m->children[i]->call_node = v;
    eng_map_put(&e->by_name, nm, v);
  }
  /* destroying: only ephemeral blocks (provider configurations may need
  ** them); the resources are orphans of the state */
  for (uint32_t i = 0; i < cm->nresources; i++) {
    const CfgResource *r = &cm->resources[i];
    if (destroy && r->mode != CFG_EPHEMERAL)
      continue;
    StMode mode = r->mode == CFG_DATA ? ST_DATA : ST_MANAGED;
    bool eph = r->mode == CFG_EPHEMERAL;
    const char *addr =
        eph ? arena_printf(e->a, "%sephemeral.%s.%s", m->prefix, r->type,
                           r->name)
            : res_addr(e->a, m, mode, r->type, r->name);
    uint32_t v = add_node(e, eph ? N_EPHEMERAL : N_RESOURCE, addr);
    Node *n = &e->nodes[v];
    n->mod = m;
    n->res = r;
    n->addr = addr;
    n->mode = mode;
    n->type = r->type;
    n->rname = r->name;
    n->ps = eng_resource_slot(e, m->t, r, d);
    n->tschema = !eph ? eng_type_schema(n->ps, mode, r->type)
                 : n->ps && n->ps->schema
                     ? prov_schema_ephemeral(n->ps->schema, r->type)
                     : NULL;
    n->repetition = r->count ? 1 : r->for_each ? 2 : 0;
    n->cbd = r->create_before_destroy;
    eng_map_put(&e->by_name, addr, v);
  }
  (void)s;
  for (uint32_t i = 0; i < cm->ncalls; i++)
    if (m->children[i])
      add_module_nodes(e, m->children[i], s, d);
}

static int cmp_sres_module(const void *a, const void *b)
{
  return strcmp((*(StResource *const *)a)->module,
                (*(StResource *const *)b)->module);
}

/* Resource nodes reachable from v through locals, variables, outputs,
** module calls and other resources (not through providers): the
** "dependencies" Terraform records in the state, also across modules. */
static void collect_deps(Engine *e, uint32_t v, uint32_t *seen,
                         uint32_t stamp, const char **out, uint32_t *n)
{
  for (uint32_t i = e->g.dep_start[v]; i < e->g.dep_start[v + 1]; i++) {
    uint32_t u = e->g.deps[i];
    if (seen[u] == stamp)
      continue;
    seen[u] = stamp;
    Node *d = &e->nodes[u];
    if (d->kind == N_RESOURCE)
      out[(*n)++] = d->addr;
    /* transitive, through resources too: Terraform records every
    ** resource ancestor (AttachDependenciesTransformer) */
    if (d->kind != N_PROVIDER && d->kind != N_ORPHAN)
      collect_deps(e, u, seen, stamp, out, n);
  }
}

static void compute_deps(Engine *e)
{
  uint32_t *seen = ARENA_NEW(e->a, uint32_t, e->nnodes + 1);
  const char **buf = ARENA_NEW(e->a, const char *, e->nnodes + 1);
  uint32_t stamp = 0;
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    if (n->kind != N_RESOURCE)
      continue;
    uint32_t k = 0;
    seen[v] = ++stamp;
    collect_deps(e, v, seen, stamp, buf, &k);
    if (k == n->ndeps)
      continue;   /* only direct references: link_refs' list is right */
    qsort(buf, k, sizeof *buf, cmp_str);
    const char **deps = ARENA_NEW(e->a, const char *, k + 1);
    uint32_t nd = 0;
    for (uint32_t i = 0; i < k; i++)
      if (nd == 0 || strcmp(deps[nd - 1], buf[i]) != 0)
        deps[nd++] = buf[i];
    n->deps = deps;
    n->ndeps = nd;
  }
}

/* create_before_destroy propagates from a resource to everything it
** depends on (seed 002): dependents first, so chains carry it down. */
static void propagate_cbd(Engine *e)
{
  for (uint32_t i = e->nnodes; i-- > 0;) {
    Node *n = &e->nodes[e->topo[i]];
    if (n->kind != N_RESOURCE || !n->cbd)
      continue;
    for (uint32_t k = 0; k < n->ndeps; k++) {
      uint32_t u;
      if (eng_map_get(&e->by_name, n->deps[k], &u) &&
          e->nodes[u].kind == N_RESOURCE)
        e->nodes[u].cbd = true;
    }
  }
}

/* The static resource node of a change's resource, or UINT32_MAX. */
uint32_t eng_change_node(Engine *e, const PlChange *c)
{
  const char *ra = arena_printf(e->a, "%s%s%s%s.%s", c->module,
                                c->module[0] ? "." : "",
                                c->mode == ST_DATA ? "data." : "", c->type,
                                c->name);
  uint32_t v;
  if (!eng_map_get(&e->by_name, st_static_path(e->a, ra), &v) ||
      e->nodes[v].kind != N_RESOURCE)
    return UINT32_MAX;
  return v;
}

static uint32_t new_work_node(Engine *e, DagBuilder *b, NodeKind k,
                              uint32_t target, uint32_t nwork)
{
  Node *t = &e->nodes[target];
  const char *nm = arena_printf(e->a, "%s (%s)", t->addr,
                                k == N_DESTROY ? "destroy" : "deposed");
  uint32_t v = add_node(e, k, nm);
  dag_add_node(b);
  Node *n = &e->nodes[v];
  t = &e->nodes[target];   /* add_node may have moved the array */
  n->target = target;
  n->mod = t->mod;
  n->res = t->res;
  n->ps = t->ps;
  n->tschema = t->tschema;
  n->mode = t->mode;
  n->type = t->type;
  n->rname = t->rname;
  n->addr = t->addr;
  n->work = ARENA_NEW(e->a, const PlChange *, nwork);
  return v;
}

/* Apply phase: the delete nodes Terraform's apply graph has.  Deletes of
** configured resources (removed keys, -/+ replaces) run before the
** resource's creates and after the deletes of the resources depending on
** it; the deposed objects of +/- replaces are deleted after everything
** depending on the resource has been updated.  True when nodes were
** added (the caller rebuilds the graph). */
static bool add_apply_nodes(Engine *e, DagBuilder *b)
{
  Plan *p = e->plan;
  uint32_t nn = e->nnodes;
  uint32_t *npre = ARENA_NEW(e->a, uint32_t, nn + 1);
  uint32_t *npost = ARENA_NEW(e->a, uint32_t, nn + 1);
  uint32_t *owner = ARENA_NEW(e->a, uint32_t, p->nchanges + 1);
  bool any = false;
  e->dkeys = ARENA_NEW(e->a, const char *, p->nchanges + 1);
  for (uint32_t i = 0; i < p->nchanges; i++) {
    const PlChange *c = &p->changes[i];
    owner[i] = UINT32_MAX;
    bool pre = (c->action == PL_DELETE && !c->deposed) ||
               c->action == PL_DELETE_THEN_CREATE;
    bool post = c->action == PL_CREATE_THEN_DELETE;
    if (c->mode != ST_MANAGED || (!pre && !post))
      continue;
    uint32_t v = eng_change_node(e, c);
    if (v == UINT32_MAX)
      continue;   /* orphans keep their place in the forward walk */
    owner[i] = v;
    if (pre)
      npre[v]++;
    else
      npost[v]++;
    any = true;
  }
  if (!any)
    return false;
  for (uint32_t v = 0; v < nn; v++) {
    if (npre[v])
      e->nodes[v].pre = new_work_node(e, b, N_DESTROY, v, npre[v]);
    if (npost[v])
      e->nodes[v].post = new_work_node(e, b, N_DEPOSED, v, npost[v]);
  }
  for (uint32_t i = 0; i < p->nchanges; i++) {
    if (owner[i] == UINT32_MAX)
      continue;
    Node *t = &e->nodes[owner[i]];
    Node *w = &e->nodes[p->changes[i].action == PL_CREATE_THEN_DELETE
                            ? t->post : t->pre];
    w->work[w->nwork++] = &p->changes[i];
  }
  for (uint32_t v = 0; v < nn; v++) {
    Node *n = &e->nodes[v];
    if (n->pre != UINT32_MAX) {
      dag_add_edge(b, n->pre, n->ps->node);
      dag_add_edge(b, v, n->pre);
    }
    if (n->post != UINT32_MAX)
      dag_add_edge(b, n->post, v);
  }
  /* B depends on A: D(A) after D(B); X(A) after B and after X(B) */
  for (uint32_t bv = 0; bv < nn; bv++) {
    Node *bn = &e->nodes[bv];
    if (bn->kind != N_RESOURCE)
      continue;
    for (uint32_t k = 0; k < bn->ndeps; k++) {
      uint32_t av;
      if (!eng_map_get(&e->by_name, bn->deps[k], &av) || av == bv)
        continue;
      Node *an = &e->nodes[av];
      if (an->pre != UINT32_MAX && bn->pre != UINT32_MAX)
        dag_add_edge(b, an->pre, bn->pre);
      if (an->post != UINT32_MAX) {
        dag_add_edge(b, an->post, bv);
        if (bn->post != UINT32_MAX)
          dag_add_edge(b, an->post, bn->post);
      }
    }
  }
  return true;
}

/* Resolves (and opens) the provider of every resource and action of m
** and below. */
static void open_slots(Engine *e, const EMod *m, Diags *d)
{
  for (uint32_t i = 0; i < m->t->m->nresources; i++)
    eng_resource_slot(e, m->t, &m->t->m->resources[i], d);
  for (uint32_t i = 0; i < m->t->m->nactions; i++)
    eng_action_slot(e, m->t, &m->t->m->actions[i], d);
  for (uint32_t i = 0; i < m->t->m->ncalls; i++)
    if (m->children[i])
      open_slots(e, m->children[i], d);
}


/* Builds nodes and edges for e->phase against state s. */

bool eng_build_graph(Engine *e, const State *s, Diags *d)
{
  bool destroy = e->o.mode == PL_MODE_DESTROY;
  e->nnodes = 0;
  reset_mods(e->root);
  eng_map_init(&e->by_name, e->a, count_items(e->root) + (s ? s->nres : 0));
  /* Every provider slot first (opening a provider may grow the slot
  ** array, so nodes take slot pointers only afterwards); eng_new has
  ** normally opened them all already.  Then one node per slot. */
  if (!destroy)
    open_slots(e, e->root, d);
  if (s)
    for (uint32_t i = 0; i < s->nres; i++)
      if (s->res[i]->mode == ST_MANAGED)
        eng_state_slot(e, s->res[i]->provider, d);
  if (diag_has_errors(d))
    return false;
  for (uint32_t i = 0; i < e->nslots; i++) {
    uint32_t v = add_node(e, N_PROVIDER, e->slots[i].state_addr);
    e->nodes[v].ps = &e->slots[i];
    e->nodes[v].mod = emod_find(e->root, e->slots[i].mod_path);
    e->slots[i].node = v;
  }
  add_module_nodes(e, e->root, s, d);
  /* state resources by static address: the configured node gets them;
  ** the others become orphans (all of them when destroying) */
  if (s) {
    uint32_t *owner = ARENA_NEW(e->a, uint32_t, s->nres + 1);
    uint32_t *cnt = ARENA_NEW(e->a, uint32_t, e->nnodes + s->nres + 1);
    for (uint32_t i = 0; i < s->nres; i++) {
      StResource *sr = s->res[i];
      const char *sa = st_static_path(e->a, sr->addr);
      uint32_t v;
      if (!eng_map_get(&e->by_name, sa, &v)) {
        if (sr->mode == ST_DATA) {
          owner[i] = UINT32_MAX;   /* data without config: dropped */
          continue;
        }
        v = add_node(e, N_ORPHAN, sa);
        Node *n = &e->nodes[v];
        n->addr = sa;
        n->mode = sr->mode;
        n->type = sr->type;
        n->rname = sr->name;
        n->mod = emod_find(e->root, st_static_path(e->a, sr->module));
        if (destroy && n->mod)
          n->lc_res = cfg_resource(n->mod->t->m,
                                   sr->mode == ST_DATA ? CFG_DATA
                                                       : CFG_MANAGED,
                                   sr->type, sr->name);
        n->ps = eng_state_slot(e, sr->provider, d);
        n->tschema = eng_type_schema(n->ps, sr->mode, sr->type);
        eng_map_put(&e->by_name, sa, v);
      }
      owner[i] = v;
      cnt[v]++;
    }
    for (uint32_t i = 0; i < s->nres; i++) {
      if (owner[i] == UINT32_MAX)
        continue;
      Node *n = &e->nodes[owner[i]];
      if (!n->srs)
        n->srs = ARENA_NEW(e->a, StResource *, cnt[owner[i]]);
      n->srs[n->nsrs++] = s->res[i];
    }
    for (uint32_t v = 0; v < e->nnodes; v++)
      if (e->nodes[v].nsrs > 1)
        qsort(e->nodes[v].srs, e->nodes[v].nsrs, sizeof(StResource *),
              cmp_sres_module);
  }
  if (diag_has_errors(d))
    return false;
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    bool res = n->kind == N_RESOURCE || n->kind == N_ORPHAN ||
               n->kind == N_EPHEMERAL;
    if (res && n->ps && n->ps->prov && !n->tschema) {
      diag_error(d, n->res ? &n->res->type_range : NULL,
                 n->kind == N_EPHEMERAL ? "Invalid ephemeral resource type"
                                        : "Invalid resource type",
                 "The provider %s does not support %s \"%s\".", n->ps->fqn,
                 n->kind == N_EPHEMERAL ? "ephemeral resource type"
                 : n->mode == ST_DATA   ? "data source"
                                        : "resource type",
                 n->type);
    }
    if (res && (!n->ps || !n->ps->prov))
      return false;   /* reported when the slot was resolved or opened */
  }
  if (diag_has_errors(d))
    return false;

  DagBuilder b;
  dag_builder_init(&b, e->a, e->nnodes);
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    RefList l = {0};
    EMod *mod = n->mod;
    /* every node of a child module waits for the module's expansion */
    if (mod && mod->parent && n->kind != N_CALL)
      dag_add_edge(&b, v, mod->call_node);
    switch (n->kind) {
    case N_PROVIDER:
      if (n->ps->cfg && n->ps->schema && mod) {
        HclTraversal *t;
        uint32_t k;
        dec_body_refs(e->a, n->ps->cfg->body, n->ps->schema->provider.block,
                      &t, &k);
        refs_add(e->a, &l, mod, t, k);
      }
      break;
    case N_LOCAL:
      expr_refs(e->a, &l, mod, n->local->expr);
      break;
    case N_VAR: {
      const HclAttribute *at =
          mod->t->call->body ? hcl_body_attr(mod->t->call->body,
                                             n->var->name)
                             : NULL;
      if (at)
        expr_refs(e->a, &l, mod->parent, at->expr);
      break;
    }
    case N_CALL: {
      const CfgModuleCall *mc = n->child->t->call;
      if (e->o.mode == PL_MODE_DESTROY) {
        /* destroying: every resource is an orphan ordered by its recorded
        ** dependencies; the call's references would only add cycles */
        if (mod->parent)
          dag_add_edge(&b, v, mod->call_node);
        break;
      }
      expr_refs(e->a, &l, mod, mc->count);
      expr_refs(e->a, &l, mod, mc->for_each);
      for (uint32_t i = 0; i < mc->depends_on.n; i++)
        refs_add(e->a, &l, mod, &mc->depends_on.items[i], 1);
      if (mod->parent)
        dag_add_edge(&b, v, mod->call_node);
      break;
    }
    case N_OUTPUT:
      expr_refs(e->a, &l, mod, n->out->expr);
      for (uint32_t i = 0; i < n->out->depends_on.n; i++)
        refs_add(e->a, &l, mod, &n->out->depends_on.items[i], 1);
      for (uint32_t i = 0; i < n->out->preconditions.n; i++) {
        expr_refs(e->a, &l, mod, n->out->preconditions.items[i].condition);
        expr_refs(e->a, &l, mod,
                  n->out->preconditions.items[i].error_message);
      }
      break;
    case N_RESOURCE:
    case N_EPHEMERAL: {
      const CfgResource *r = n->res;
      expr_refs(e->a, &l, mod, r->count);
      expr_refs(e->a, &l, mod, r->for_each);
      if (n->tschema) {
        HclTraversal *t;
        uint32_t k;
        dec_body_refs(e->a, r->body, n->tschema->schema.block, &t, &k);
        refs_add(e->a, &l, mod, t, k);
      }
      for (uint32_t i = 0; i < r->depends_on.n; i++)
        refs_add(e->a, &l, mod, &r->depends_on.items[i], 1);
      for (uint32_t i = 0; i < r->nreplace_triggered_by; i++)
        expr_refs(e->a, &l, mod, r->replace_triggered_by[i]);
      for (uint32_t i = 0; i < r->nprovisioners; i++) {
        HclTraversal *t;
        uint32_t k;
        dec_body_refs(e->a, r->provisioners[i].body, prv_local_exec_schema(),
                      &t, &k);
        refs_add(e->a, &l, mod, t, k);
      }
      for (uint32_t i = 0; i < r->preconditions.n; i++) {
        expr_refs(e->a, &l, mod, r->preconditions.items[i].condition);
        expr_refs(e->a, &l, mod, r->preconditions.items[i].error_message);
      }
      for (uint32_t i = 0; i < r->postconditions.n; i++) {
        expr_refs(e->a, &l, mod, r->postconditions.items[i].condition);
        expr_refs(e->a, &l, mod, r->postconditions.items[i].error_message);
      }
      /* depends_on of the calls that lead here applies to everything
      ** inside (Terraform: module depends_on) */
      for (EMod *am = mod; am->parent; am = am->parent) {
        const CfgModuleCall *mc = am->t->call;
        for (uint32_t i = 0; i < mc->depends_on.n; i++)
          refs_add(e->a, &l, am->parent, &mc->depends_on.items[i], 1);
      }
      if (r->naction_triggers)   /* last: see RefList.order_from */
        action_refs(e, &b, v, &l);
      dag_add_edge(&b, v, n->ps->node);
      break;
    }
    case N_ORPHAN:
      dag_add_edge(&b, v, n->ps->node);
      if (mod && mod->parent)
        dag_add_edge(&b, v, mod->call_node);
      break;
    case N_DESTROY:
    case N_DEPOSED:
      break;   /* added by add_apply_nodes, after this pass */
    }
    link_refs(e, &b, v, &l);
  }
  /* Destroy ordering: an orphan is deleted after everything that
  ** depends on it (by its recorded dependencies) is deleted or updated.
  ** Without an orphan node no edge can be added: skip the look-ups, one
  ** per recorded dependency of every instance in the state. */
  bool orphans = false;
  for (uint32_t v = 0; v < e->nnodes && !orphans; v++)
    orphans = e->nodes[v].kind == N_ORPHAN;
  for (uint32_t v = 0; orphans && v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    if (n->kind != N_ORPHAN && n->kind != N_RESOURCE)
      continue;
    for (uint32_t r = 0; r < n->nsrs; r++)
      for (uint32_t i = 0; i < n->srs[r]->ninst; i++) {
        const StObject *o = n->srs[r]->inst[i]->current;
        if (!o)
          continue;
        for (uint32_t j = 0; j < o->ndeps; j++) {
          uint32_t u;
          if (eng_map_get(&e->by_name, o->deps[j], &u) && u != v &&
              e->nodes[u].kind == N_ORPHAN)
            dag_add_edge(&b, u, v);
        }
      }
  }
  dag_build(&b, &e->g);
  uint32_t **cyc, *sz;
  uint32_t nc = dag_cycles(&e->g, e->a, &cyc, &sz);
  if (nc) {
    for (uint32_t c = 0; c < nc; c++) {
      Buf msg;
      buf_init(&msg, e->a);
      for (uint32_t k = 0; k < sz[c]; k++)
        buf_printf(&msg, "%s%s", k ? ", " : "", e->nodes[cyc[c][k]].name);
      diag_error(d, NULL, arena_printf(e->a, "Cycle: %s", buf_str(&msg)),
                 "%s", "");
    }
    return false;
  }
  e->topo = ARENA_NEW(e->a, uint32_t, e->nnodes ? e->nnodes : 1);
  dag_topo_order(&e->g, e->a, e->topo);
  compute_deps(e);
  propagate_cbd(e);
  eng_select_targets(e);
  if (e->phase == PH_APPLY && add_apply_nodes(e, &b)) {
    dag_build(&b, &e->g);
    if (dag_cycles(&e->g, e->a, &cyc, &sz)) {
      diag_error(d, NULL, "Cycle in the apply graph",
                 "Ordering the deletes of this plan after their dependents "
                 "creates a cycle (a provider configuration probably "
                 "depends on a resource being replaced).");
      return false;
    }
    e->topo = ARENA_NEW(e->a, uint32_t, e->nnodes ? e->nnodes : 1);
    dag_topo_order(&e->g, e->a, e->topo);
  }
  return true;
}
