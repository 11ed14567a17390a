/*
** engine_validate: Terraform's validate walk, which eng_plan runs before
** planning (Terraform's local backend calls Context.Validate before
** Context.Plan, and a plan whose validation failed is never started: its
** errors are shown alone, with no "Planning failed." and no partial plan).
**
** What the static checks of eng_new (vld_module_ex) cannot see because it
** needs the providers or an evaluation, done once per configuration block
** (not per instance), with every root variable, resource, data source,
** local and module output unknown, as in Terraform's walkValidate:
** - count and for_each: a known value is checked as the plan checks it
**   (eng_expand_keys: negative or null count, a list for for_each, a set
**   of numbers); an unknown one waits for the plan;
** - a resource or data source body is decoded and handed to its provider's
**   ValidateResourceConfig / ValidateDataResourceConfig, so the provider's
**   own validators (the built-ins', a plugin's) stop the operation before
**   anything is refreshed or planned;
** - locals and outputs are evaluated, so an unknown function (a provider
**   function the provider does not offer, a bad namespace) and a function
**   argument error on known arguments are validation errors;
** - module calls: arguments against the called module's variables
**   (Unsupported / Missing required argument) and known argument values
**   against the variables' types ("Invalid value for input variable").
** Warnings of this walk are dropped when it finds no error: the plan walk
** makes the same provider calls and reports them there (once, as
** Terraform's consolidated output shows them).
**
** Runs on the owner thread, before the pool starts working; scratch and
** results in e->a, the scratch of each item rewound when it reported
** nothing (vw_rewind).
*/
#include <string.h>

#include "base/convert.h"
#include "config/validate.h"
#include "engine_priv.h"
#include "providers/decode.h"

typedef struct Vw {
  Engine *e;
  Arena *a;
  Diags *d;
} Vw;

static void unknown_ctx(Vw *w, EvalCtx *ctx, EngFnModule *fm,
                        const CfgModule *m, bool count, bool each)
{
  vld_unknown_ctx(ctx, w->a, w->d, m, count, each);
  fm->e = w->e;
  fm->m = m;
  /* the real provider functions: Terraform calls them (on an unconfigured
  ** instance) in the validate walk too */
  ctx->provider_fn = eng_module_provider_fn;
  ctx->provider_fn_data = fm;
}

/* count / for_each of a resource or module call: checked when known. */
static void check_repetition(Vw *w, const CfgModule *m, const HclExpr *count,
                             const HclExpr *for_each)
{
  const HclExpr *x = count ? count : for_each;
  if (!x)
    return;
  EvalCtx ctx;
  EngFnModule fm;
  unknown_ctx(w, &ctx, &fm, m, false, false);
  Value v;
  if (!eval_expr(&ctx, x, &v) || !val_is_wholly_known(v))
    return;
  StKey *keys;
  Rep *reps;
  uint32_t n;
  eng_expand_keys(&ctx, count, count ? NULL : for_each, w->a, w->d, &keys,
                  &reps, &n);
}

static void check_resource_body(Vw *w, const CfgTree *t,
                                const CfgResource *r)
{
  const CfgModule *m = t->m;
  check_repetition(w, m, r->count, r->for_each);
  Diags scratch;
  diag_init(&scratch, w->a);
  ProvSlot *ps = eng_resource_slot(w->e, t, r, &scratch);
  if (!ps || !ps->schema || !ps->prov || !r->body)
    return;   /* eng_new reported an unavailable provider */
  StMode mode = r->mode == CFG_DATA ? ST_DATA : ST_MANAGED;
  bool eph = r->mode == CFG_EPHEMERAL;
  const ProvTypeSchema *ts = eph ? prov_schema_ephemeral(ps->schema, r->type)
                                 : eng_type_schema(ps, mode, r->type);
  if (!ts)
    return;   /* "Invalid resource type", reported by eng_new */
  EvalCtx ctx;
  EngFnModule fm;
  unknown_ctx(w, &ctx, &fm, m, r->count != NULL, r->for_each != NULL);
  Value cfg;
  int e0 = w->d->errors;
  if (!dec_body(&ctx, r->body, ts->schema.block, &cfg) || w->d->errors > e0)
    return;
  ProvCall c = {w->a, w->d, NULL};
  Diag *mark = w->d->tail;
  if (eph)
    prov_validate_ephemeral(ps->prov, &c, r->type, val_unmark_deep(w->a, cfg));
  else if (mode == ST_MANAGED)
    ps->prov->ops->validate_resource_config(ps->prov, &c, r->type,
                                            val_unmark_deep(w->a, cfg));
  else
    ps->prov->ops->validate_data_resource_config(
        ps->prov, &c, r->type, val_unmark_deep(w->a, cfg));
  if (w->d->tail == mark)
    return;   /* nothing to place or address */
  const char *addr = arena_printf(w->a, "%s%s%s%s.%s", t->path,
                                  t->path[0] ? "." : "",
                                  eph               ? "ephemeral."
                                  : mode == ST_DATA ? "data."
                                                    : "",
                                  r->type, r->name);
  /* Terraform names the resource (not an instance) in validate's
  ** diagnostics: "with pytest_thing.a" */
  Node nd;
  memset(&nd, 0, sizeof nd);
  nd.res = r;
  Inst in;
  memset(&in, 0, sizeof in);
  in.addr = addr;
  eng_attribute_path_diags(w->d, mark, &c, &nd, &in);
}

/* The walk's allocations (decoded bodies, evaluation contexts, the
** providers' answers) are scratch in e->a: an item that reported nothing
** and opened no provider slot gives them back (bench-parse: about 20 MB at
** 10,000 resources, a fifth of validate's peak).  An item that reported
** keeps them, since a diagnostic may point into them. */
typedef struct VwMark {
  ArenaMark m;
  Diag *tail;
  int errors, warnings;
  uint32_t nslots;
} VwMark;

static VwMark vw_mark(Vw *w)
{
  VwMark k = {arena_mark(w->a), w->d->tail, w->d->errors, w->d->warnings,
              w->e->nslots};
  return k;
}

static void vw_rewind(Vw *w, VwMark k)
{
  if (w->d->tail == k.tail && w->d->errors == k.errors &&
      w->d->warnings == k.warnings && w->e->nslots == k.nslots)
    arena_rewind(w->a, k.m);
}

static void check_resource(Vw *w, const CfgTree *t, const CfgResource *r)
{
  VwMark k = vw_mark(w);
  check_resource_body(w, t, r);
  vw_rewind(w, k);
}

/* A module call's arguments: names against the child's variables, known
** values against their types (as visit_var converts them). */
static void check_call(Vw *w, const CfgTree *t, uint32_t i)
{
  const CfgModuleCall *mc = &t->m->calls[i];
  check_repetition(w, t->m, mc->count, mc->for_each);
  const CfgTree *ch = t->children ? t->children[i] : NULL;
  if (!ch || !mc->body)
    return;
  int e0 = w->d->errors;
  vld_call_args(w->a, mc, ch->m, w->d);
  if (w->d->errors > e0)
    return;
  for (uint32_t k = 0; k < ch->m->nvariables; k++) {
    const CfgVariable *cv = &ch->m->variables[k];
    const HclAttribute *at = hcl_body_attr(mc->body, cv->name);
    if (!at)
      continue;
    EvalCtx ctx;
    EngFnModule fm;
    unknown_ctx(w, &ctx, &fm, t->m, mc->count != NULL,
                mc->for_each != NULL);
    Value v, cv2;
    if (!eval_expr(&ctx, at->expr, &v) || val_is_null(v))
      continue;
    ConvError ce = {0};
    if (conv_convert(w->a, v, cv->type, true, &cv2, &ce))
      continue;
    Buf tn;
    buf_init(&tn, w->a);
    ty_friendly(&tn, cv->type);
    diag_error(w->d, &at->expr->range, "Invalid value for input variable",
               "The given value is not suitable for %s.var.%s declared at "
               "%s:%u,%u-%u: %s.", ch->path, cv->name,
               cv->range.file ? cv->range.file : "?", cv->range.start.line,
               cv->range.start.col, cv->range.end.col,
               ce.msg ? ce.msg : buf_str(&tn));
  }
}

/* A provider block of t's module, decoded with every input unknown and
** handed to the provider's ValidateProviderConfig, as Terraform's validate
** walk does (a bad proxy URL shows at validate, not only at plan). */
static void check_provider(Vw *w, const CfgTree *t, const ProvSlot *ps)
{
  if (!ps->prov || !ps->schema || !ps->cfg || !ps->cfg->body)
    return;   /* eng_new reported an unavailable provider */
  EvalCtx ctx;
  EngFnModule fm;
  unknown_ctx(w, &ctx, &fm, t->m, false, false);
  Value cfg;
  int e0 = w->d->errors;
  if (!dec_body(&ctx, ps->cfg->body, ps->schema->provider.block, &cfg) ||
      w->d->errors > e0)
    return;
  ProvCall c = {w->a, w->d, NULL};
  Diag *mark = w->d->tail;
  ps->prov->ops->validate_provider_config(ps->prov, &c,
                                          val_unmark_deep(w->a, cfg));
  eng_provider_path_diags(w->d, mark, &c, ps);
}

static void check_module(Vw *w, const CfgTree *t)
{
  const CfgModule *m = t->m;
  for (uint32_t i = 0; i < w->e->nslots; i++) {
    const ProvSlot *ps = &w->e->slots[i];
    if (ps->cfg >= m->providers && ps->cfg < m->providers + m->nproviders)
      check_provider(w, t, ps);
  }
  for (uint32_t i = 0; i < m->nresources; i++)
    check_resource(w, t, &m->resources[i]);
  for (uint32_t i = 0; i < m->nlocals; i++) {
    VwMark k = vw_mark(w);
    EvalCtx ctx;
    EngFnModule fm;
    unknown_ctx(w, &ctx, &fm, m, false, false);
    Value v;
    eval_expr(&ctx, m->locals[i].expr, &v);
    vw_rewind(w, k);
  }
  for (uint32_t i = 0; i < m->noutputs; i++) {
    if (!m->outputs[i].expr)
      continue;
    VwMark k = vw_mark(w);
    EvalCtx ctx;
    EngFnModule fm;
    unknown_ctx(w, &ctx, &fm, m, false, false);
    Value v;
    eval_expr(&ctx, m->outputs[i].expr, &v);
    vw_rewind(w, k);
  }
  for (uint32_t i = 0; i < m->ncalls; i++)
    check_call(w, t, i);
  for (uint32_t i = 0; i < m->ncalls; i++)
    if (t->children && t->children[i])
      check_module(w, t->children[i]);
}

bool eng_validate(Engine *e, Diags *d)
{
  Diags vd;
  diag_init(&vd, e->a);
  Vw w = {e, e->a, &vd};
  check_module(&w, e->tree);
  if (!diag_has_errors(&vd))
    return true;
  /* shown as Terraform's view shows diagnostics: sorted */
  vld_sort_diags(&vd);
  diag_move(d, &vd);
  return false;
}
