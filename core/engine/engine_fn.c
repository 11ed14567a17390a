/*
** engine_fn: provider-defined functions in the engine's scopes.
**
** As Terraform (BuiltinEvalContext.evaluationExternalFunctions): a module
** sees the functions of every provider in its required_providers block,
** under the local name it gave that provider there
** (provider::LOCAL::FUNC); providers it only implies by resource type
** offer none.  provider::terraform:: is the evaluator's (built-in table).
** The calls go to an unconfigured instance of the provider of its own,
** opened here, on the owner thread, when the engine is made: Terraform
** calls provider functions on an unconfigured instance, so they behave
** the same in validate, plan and apply, before or without any provider
** block, even inside the provider's own configuration.
**
** Every module's table is built in eng_new and only read afterwards, so
** the hook below may run on every pool worker at once.
*/
#include <string.h>

#include "engine_priv.h"

/* One provider (by fully-qualified address) asked for its functions. */
typedef struct FnProv {
  const char *fqn;
  Prov *p;                       /* unconfigured instance; NULL: none */
  const ProvProviderSchema *s;   /* NULL when it could not be opened */
  Diags open_diags;              /* why it could not, shown on first use */
  struct FnProv *next;
} FnProv;

/* The functions in scope in one module. */
typedef struct FnTab {
  const CfgModule *m;
  const char **locals;           /* required_providers local names */
  FnProv **provs;                /* per local name */
  uint32_t nlocals;
  const char **names;            /* "provider::LOCAL::FUNC" */
  const FnDef **defs;
  uint32_t n;
  struct FnTab *next;
} FnTab;

struct EngFns {
  FnProv *provs;
  FnTab *tabs;
};

static ProvSlot *slot_for(Engine *e, const char *fqn)
{
  for (uint32_t i = 0; i < e->nslots; i++)
    if (strcmp(e->slots[i].fqn, fqn) == 0 && e->slots[i].schema)
      return &e->slots[i];
  return NULL;
}

static FnProv *fn_prov(Engine *e, const char *fqn)
{
  for (FnProv *fp = e->fns->provs; fp; fp = fp->next)
    if (strcmp(fp->fqn, fqn) == 0)
      return fp;
  FnProv *fp = ARENA_NEW(e->a, FnProv, 1);
  fp->fqn = fqn;
  diag_init(&fp->open_diags, e->a);
  fp->next = e->fns->provs;
  e->fns->provs = fp;
  /* A configured slot already knows the schema: no extra instance for a
  ** provider without functions. */
  ProvSlot *ps = slot_for(e, fqn);
  if (ps && ps->schema->nfunctions == 0) {
    fp->s = ps->schema;
    return fp;
  }
  fp->p = e->o.open_provider(e->o.open_ctx, fqn, &fp->open_diags);
  if (!fp->p)
    return fp;
  ProvCall c = {fp->p->arena ? fp->p->arena : e->a, &fp->open_diags, NULL};
  const ProvProviderSchema *s = NULL;
  fp->p->ops->get_schema(fp->p, &c, &s);
  fp->s = s;
  return fp;
}

void eng_fns_prepare(Engine *e, const CfgTree *t)
{
  if (!e->fns)
    e->fns = ARENA_NEW(e->a, EngFns, 1);
  const CfgModule *m = t->m;
  FnTab *tab = ARENA_NEW(e->a, FnTab, 1);
  tab->m = m;
  tab->next = e->fns->tabs;
  e->fns->tabs = tab;
  uint32_t nr = m->nrequired_providers;
  tab->locals = ARENA_NEW(e->a, const char *, nr ? nr : 1);
  tab->provs = ARENA_NEW(e->a, FnProv *, nr ? nr : 1);
  uint32_t total = 0;
  for (uint32_t i = 0; i < nr; i++) {
    const CfgRequiredProvider *rp = &m->required_providers[i];
    if (strcmp(rp->local_name, "terraform") == 0)
      continue;
    Diags scratch;   /* a bad source is reported by the loader */
    diag_init(&scratch, e->a);
    const char *fqn = prov_source_normalize(e->a, rp->source, NULL,
                                            &scratch);
    if (!fqn)
      continue;
    FnProv *fp = fn_prov(e, fqn);
    tab->locals[tab->nlocals] = rp->local_name;
    tab->provs[tab->nlocals++] = fp;
    if (fp->s && fp->p)
      total += fp->s->nfunctions;
  }
  tab->names = ARENA_NEW(e->a, const char *, total ? total : 1);
  tab->defs = ARENA_NEW(e->a, const FnDef *, total ? total : 1);
  for (uint32_t i = 0; i < tab->nlocals; i++) {
    FnProv *fp = tab->provs[i];
    if (!fp->s || !fp->p)
      continue;
    for (uint32_t k = 0; k < fp->s->nfunctions; k++) {
      const ProvFunction *f = &fp->s->functions[k];
      const char *full = arena_printf(e->a, "provider::%s::%s",
                                      tab->locals[i], f->name);
      tab->names[tab->n] = full;
      tab->defs[tab->n++] = prov_fn_def(e->a, full, f, fp->p);
    }
  }
}

static const FnTab *tab_for(const Engine *e, const CfgModule *m)
{
  if (!e->fns)
    return NULL;
  for (const FnTab *t = e->fns->tabs; t; t = t->next)
    if (t->m == m)
      return t;
  return NULL;
}

/* The function call names in module m (see eng_provider_fn). */
static const FnDef *lookup(const Engine *e, const CfgModule *m,
                           EvalCtx *ctx, const HclExpr *call,
                           bool *has_funcs, bool *failed)
{
  const FnTab *tab = tab_for(e, m);
  if (!tab)
    return NULL;
  const char *name = call->u.call.name;
  for (uint32_t i = 0; i < tab->n; i++)
    if (strcmp(tab->names[i], name) == 0)
      return tab->defs[i];
  /* provider::LOCAL::FUNC with LOCAL declared: say why it has none */
  if (call->u.call.nparts != 3 || strncmp(name, "provider::", 10) != 0)
    return NULL;
  const char *local = name + 10;
  size_t ll = (size_t)(call->u.call.base - 2 - local);
  for (uint32_t i = 0; i < tab->nlocals; i++) {
    if (strlen(tab->locals[i]) != ll ||
        strncmp(tab->locals[i], local, ll) != 0)
      continue;
    const FnProv *fp = tab->provs[i];
    if (!fp->s && diag_has_errors(&fp->open_diags)) {
      for (const Diag *g = fp->open_diags.head; g; g = g->next)
        if (g->severity == DIAG_ERROR) {
          Diag *n = diag_error(ctx->diags, &call->u.call.name_range,
                               g->summary, "%s", g->detail ? g->detail : "");
          diag_set_context(ctx->diags, n, &call->range);
          break;
        }
      *failed = true;
      return NULL;
    }
    *has_funcs = fp->s && fp->s->nfunctions > 0;
  }
  return NULL;
}

const FnDef *eng_provider_fn(EvalCtx *ctx, const HclExpr *call,
                             bool *has_funcs, bool *failed)
{
  const Scope *s = ctx->provider_fn_data;
  if (!s || !s->mod)
    return NULL;
  return lookup(s->e, s->mod->t->m, ctx, call, has_funcs, failed);
}

const FnDef *eng_module_provider_fn(EvalCtx *ctx, const HclExpr *call,
                                    bool *has_funcs, bool *failed)
{
  const EngFnModule *fm = ctx->provider_fn_data;
  return lookup(fm->e, fm->m, ctx, call, has_funcs, failed);
}

void eng_fns_close(Engine *e)
{
  if (!e->fns)
    return;
  for (FnProv *fp = e->fns->provs; fp; fp = fp->next)
    if (fp->p)
      prov_close(fp->p);
}
