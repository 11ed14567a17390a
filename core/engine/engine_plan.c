/*
** engine_plan: planning one instance.  Refresh, import, the provider's
** planned change with its contract checks, deletes, forgets, data source
** reads, and the lifecycle rules (preconditions, postconditions,
** ignore_changes, replace_triggered_by, prevent_destroy) around them.
*/
#include <string.h>

#include "base/convert.h"
#include "engine_priv.h"
#include "objchange.h"
#include "providers/decode.h"

static PlChange *new_change(Arena *a, Engine *e, const Node *n,
                            const Inst *in, PlAction act, PlReason why,
                            Value before, Value after)
{
  PlChange *c = ARENA_NEW(a, PlChange, 1);
  c->addr = in->addr;
  c->module = in->module ? in->module : "";
  c->mode = n->mode;
  c->type = n->type;
  c->name = n->rname;
  c->key = in->key;
  c->deposed = in->deposed;
  if (e->moves.n && !in->deposed)
    c->prev_addr = rf_prev_addr(&e->moves, in->addr);
  c->provider = n->ps->state_addr;
  c->provider_name = n->ps->fqn;
  c->action = act;
  c->reason = why;
  c->before = before;
  c->after = after;
  c->schema = n->tschema->schema.block;
  c->schema_version = (uint64_t)n->tschema->schema.version;
  c->tainted_before = in->prior && in->prior->status == ST_TAINTED &&
                      !in->deposed;
  c->cbd = n->cbd;
  return c;
}

const char *eng_fmt_path(Arena *a, ValPath p)
{
  return objc_path_string(a, p);
}

/* Reports objc problems as one diagnostic each. */
static void report_errs(Diags *d, const Node *n, const Inst *in,
                        const char *summary, const char *lead,
                        ObjcErrs *errs, Arena *a)
{
  for (uint32_t i = 0; i < errs->n; i++)
    eng_inst_error(d, n, in, summary, "%s%s%s: %s.%s", lead, in->addr,
                   eng_fmt_path(a, errs->items[i].path), errs->items[i].reason,
                   eng_bug_suffix);
}

/* Refreshes a prior object (ReadResource).  *cur receives the refreshed
** value (null when gone).  Records drift. */
static bool refresh_obj(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                        Value prior, Value *cur)
{
  Prov *p = n->ps->prov;
  eng_add_event(a, in, ENG_EV_REFRESH_START, PL_NOOP, NULL, prior, 0);
  ProvCall c = {a, d, NULL};
  ProvReadReq rq = {n->type, val_unmark_deep(a, prior),
                    {in->prior->priv, in->prior->priv_len}};
  ProvReadResp rs = {{0}, {0}};
  Diag *mark = d->tail;
  p->ops->read_resource(p, &c, &rq, &rs);
  eng_attribute_prov_diags(d, mark, n, in);
  if (diag_has_errors(d))
    return false;
  const ProvBlockSchema *b = n->tschema->schema.block;
  Value nv = rs.new_state;
  if (!nv.type) {
    *cur = prior;
    eng_add_event(a, in, ENG_EV_REFRESH_DONE, PL_NOOP, NULL, prior, 0);
    return true;
  }
  if (!eng_conforms(nv.type, eng_implied(e, b)) && !val_is_null(nv)) {
    Value conv;
    ConvError ce = {0};
    if (!conv_convert(a, nv, eng_implied(e, b), true, &conv, &ce)) {
      eng_inst_error(d, n, in, "Provider produced invalid object",
                     "Provider \"%s\" planned an invalid value for %s during "
                     "refresh: %s.%s", n->ps->fqn, in->addr,
                     ce.msg ? ce.msg : "wrong type", eng_bug_suffix);
      return false;
    }
    nv = conv;
  }
  if (!val_is_wholly_known(nv)) {
    eng_inst_error(d, n, in, "Provider produced invalid object",
                   "Provider \"%s\" planned an invalid value for %s during "
                   "refresh: The returned state contains unknown values.%s",
                   n->ps->fqn, in->addr, eng_bug_suffix);
    return false;
  }
  if (val_is_null(nv)) {
    *cur = nv;
  } else {
    nv = prov_mark_sensitive(a, b, nv);
    nv = eng_copy_marks(a, nv, prior);
    *cur = nv;
  }
  eng_add_event(a, in, ENG_EV_REFRESH_DONE, PL_NOOP, NULL,
                val_is_null(nv) ? (Value){0} : nv, 0);
  ProvBytes priv = rs.private_data.p ? rs.private_data
                                     : (ProvBytes){in->prior->priv,
                                                   in->prior->priv_len};
  if (!val_raw_equal(val_unmark_deep(a, nv), val_unmark_deep(a, prior),
                     false)) {
    in->drift = new_change(a, e, n, in, val_is_null(nv) ? PL_DELETE : PL_UPDATE,
                           PL_REASON_NONE, prior, nv);
  }
  if (!in->drift && !rs.private_data.p) {
    /* unchanged: the prior state object stays as it is (no copy) */
    return true;
  }
  in->refreshed = true;
  if (val_is_null(nv)) {
    in->new_obj = NULL;
  } else {
    Value cm = {0};
    if (in->prior->nsensitive)
      cm = eng_copy_marks(a, val_unmark_deep(a, nv), prior);
    StObject *o = eng_make_obj(e, a, n, nv, priv, cm, d);
    if (!o)
      return false;
    o->status = in->prior->status;
    o->deps = in->prior->deps;
    o->ndeps = in->prior->ndeps;
    o->create_before_destroy = in->prior->create_before_destroy;
    o->sensitive = in->prior->sensitive;
    o->nsensitive = in->prior->nsensitive;
    in->new_obj = o;
  }
  return true;
}

static bool replace_requested(Engine *e, const Inst *in)
{
  for (uint32_t i = 0; i < e->o.nreplace; i++)
    if (strcmp(e->o.replace[i], in->addr) == 0)
      return true;
  return false;
}

/* Evaluates the resource body for instance in. */
bool eng_eval_config(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                     Value *out)
{
  Scope sc;
  EvalCtx ctx;
  eng_inst_scope(&ctx, &sc, e, n, in, a, d);
  return dec_body(&ctx, n->res->body, n->tschema->schema.block, out) &&
         eng_check_ephemeral_config(n, in, *out, d);
}

/* PlanResourceChange with the contract checks of seed 001.  prior may be
** null (create). */
bool eng_provider_plan(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                       Value prior, Value config, ProvBytes ppriv,
                       ProvPlanResp *out)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  Value uprior = val_unmark_deep(a, prior);
  Value uconfig = val_unmark_deep(a, config);
  Value proposed = objc_proposed_new(a, b, uprior, uconfig);
  Prov *p = n->ps->prov;
  ProvCall c = {a, d, NULL};
  ProvPlanReq rq = {n->type, uprior, proposed, uconfig, ppriv};
  memset(out, 0, sizeof *out);
  Diag *mark = d->tail;
  p->ops->plan_resource_change(p, &c, &rq, out);
  eng_attribute_prov_diags(d, mark, n, in);
  if (diag_has_errors(d))
    return false;
  Value pl = out->planned_state;
  if (!pl.type) {
    eng_inst_error(d, n, in, "Provider produced invalid plan",
                   "Provider \"%s\" planned an invalid value for %s: planned "
                   "value is absent.%s", n->ps->fqn, in->addr, eng_bug_suffix);
    return false;
  }
  if (!eng_conforms(pl.type, eng_implied(e, b))) {
    Value conv;
    ConvError ce = {0};
    if (!conv_convert(a, pl, eng_implied(e, b), true, &conv, &ce) ||
        !eng_conforms(conv.type, eng_implied(e, b))) {
      eng_inst_error(d, n, in, "Provider produced invalid plan",
                     "Provider \"%s\" planned an invalid value for %s: %s.%s",
                     n->ps->fqn, in->addr,
                     ce.msg ? ce.msg : "wrong type", eng_bug_suffix);
      return false;
    }
    pl = conv;
  }
  out->planned_state = pl;
  if (!out->legacy_type_system) {
    ObjcErrs errs = {0};
    if (!objc_assert_plan_valid(a, b, uprior, uconfig, pl, &errs)) {
      Buf lead;
      buf_init(&lead, a);
      buf_printf(&lead, "Provider \"%s\" planned an invalid value for ",
                 n->ps->fqn);
      report_errs(d, n, in, "Provider produced invalid plan", buf_str(&lead),
                  &errs, a);
      return false;
    }
  }
  for (uint32_t i = 0; i < out->nrequires_replace; i++) {
    bool exists;
    objc_path_changed(uprior, pl, out->requires_replace[i], &exists);
    if (!exists) {
      eng_inst_error(d, n, in, "Provider produced invalid plan",
                     "Provider \"%s\" has indicated \"requires replacement\" "
                     "on %s for a non-existent attribute path %s.%s",
                     n->ps->fqn, in->addr,
                     eng_fmt_path(a, out->requires_replace[i]), eng_bug_suffix);
      return false;
    }
  }
  return true;
}

/* Plans a delete of in's prior object. */
bool eng_plan_delete(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                     PlReason why)
{
  /* prevent_destroy holds while the block is in the configuration:
  ** removed keys of a configured resource, and everything in destroy
  ** mode (n->lc_res) */
  const CfgResource *cr = n->res ? n->res : n->lc_res;
  if (!in->deposed && lc_prevent_destroy_applies(cr, PL_DELETE)) {
    lc_prevent_destroy_error(d, cr, in->addr);
    return false;
  }
  Value prior;
  if (!eng_decode_obj(e, a, n, in, in->prior, &prior, d))
    return false;
  if (e->o.refresh && !in->deposed) {
    Value cur;
    if (!refresh_obj(e, n, in, a, d, prior, &cur))
      return false;
    if (val_is_null(cur))
      return true;   /* already gone: drift only */
    prior = cur;
  }
  if (n->ps->schema->plan_destroy) {
    ProvCall c = {a, d, NULL};
    Value np = prov_null_object(a, n->tschema->schema.block);
    ProvPlanReq rq = {n->type, val_unmark_deep(a, prior), np, np,
                      {in->prior->priv, in->prior->priv_len}};
    ProvPlanResp rs;
    memset(&rs, 0, sizeof rs);
    Diag *mark = d->tail;
    n->ps->prov->ops->plan_resource_change(n->ps->prov, &c, &rq, &rs);
    eng_attribute_prov_diags(d, mark, n, in);
    if (diag_has_errors(d))
      return false;
    if (rs.planned_state.type && !val_is_null(rs.planned_state)) {
      eng_inst_error(d, n, in, "Provider produced invalid plan",
                     "Provider \"%s\" planned a non-null destroy value for "
                     "%s.%s", n->ps->fqn, in->addr, eng_bug_suffix);
      return false;
    }
  }
  in->change = new_change(a, e, n, in, PL_DELETE, why, prior,
                          prov_null_object(a, n->tschema->schema.block));
  return true;
}

/* A removed block with lifecycle { destroy = false } covers it. */
bool eng_forgotten(Engine *e, const Node *n, const Inst *in)
{
  if (in->deposed)
    return false;
  const CfgRemoved *rm = rf_removed_for(e->tree, in->module, n->mode,
                                        n->type, n->rname);
  return rm && !rm->destroy;
}

/* "will no longer be managed": the object leaves the state, untouched. */
bool eng_plan_forget(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  Value prior;
  if (!eng_decode_obj(e, a, n, in, in->prior, &prior, d))
    return false;
  in->change = new_change(a, e, n, in, PL_FORGET, PL_REASON_NONE, prior,
                          prov_null_object(a, n->tschema->schema.block));
  return true;
}

PlReason eng_gone_reason(const Node *n, const Inst *in)
{
  if (in->no_module)
    return PL_REASON_DELETE_NO_MODULE;
  if (!n->res || n->disabled)
    return PL_REASON_DELETE_NO_RESOURCE_CONFIG;
  StKeyKind want = n->repetition == 1 ? ST_INTKEY
                   : n->repetition == 2 ? ST_STRKEY : ST_NOKEY;
  if (in->key.kind != want)
    return PL_REASON_DELETE_WRONG_REPETITION;
  return n->repetition == 1 ? PL_REASON_DELETE_COUNT_INDEX
                            : PL_REASON_DELETE_EACH_KEY;
}

/* An import: ImportResourceState, then ReadResource of the result (which
** must exist); *out and in->prior become the imported object, which the
** plan carries as the change's "before" and apply records. */
static bool import_obj(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                       const char *id, Value *out)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  ProvCall c = {a, d, NULL};
  ProvImportReq rq = {n->type, id};
  ProvImportResp rs = {0};
  Diag *mark = d->tail;
  n->ps->prov->ops->import_resource_state(n->ps->prov, &c, &rq, &rs);
  eng_attribute_prov_diags(d, mark, n, in);
  if (diag_has_errors(d))
    return false;
  const ProvImported *im = NULL;
  for (uint32_t i = 0; i < rs.nimported && !im; i++)
    if (!rs.imported[i].type_name ||
        strcmp(rs.imported[i].type_name, n->type) == 0)
      im = &rs.imported[i];
  if (!im || !im->state.type || val_is_null(im->state)) {
    eng_inst_error(d, n, in, "Cannot import non-existent remote object",
                   "While attempting to import an existing object to \"%s\", "
                   "the provider detected that no object exists with the given "
                   "id. Only pre-existing objects can be imported; check that "
                   "the id is correct and that it is associated with the "
                   "provider's configured region or endpoint, or use \"cairn "
                   "apply\" to create a new remote object for this resource.",
                   in->addr);
    return false;
  }
  Value v = im->state;
  if (!eng_conforms(v.type, eng_implied(e, b))) {
    Value conv;
    ConvError ce = {0};
    if (!conv_convert(a, v, eng_implied(e, b), true, &conv, &ce)) {
      eng_inst_error(d, n, in, "Provider produced invalid object",
                     "Provider \"%s\" returned an invalid imported object for "
                     "%s: %s.%s", n->ps->fqn, in->addr,
                     ce.msg ? ce.msg : "wrong type", eng_bug_suffix);
      return false;
    }
    v = conv;
  }
  StObject *o = eng_make_obj(e, a, n, prov_mark_sensitive(a, b, v),
                             im->private_data, (Value){0}, d);
  if (!o)
    return false;
  in->prior = o;
  Value cur;
  if (!refresh_obj(e, n, in, a, d, prov_mark_sensitive(a, b, v), &cur))
    return false;
  /* an import is not drift, and the refreshed prior state keeps no
  ** object for it (apply records the imported one) */
  in->drift = NULL;
  in->refreshed = false;
  if (val_is_null(cur)) {
    eng_inst_error(d, n, in, "Cannot import non-existent remote object",
                   "While attempting to import an existing object to \"%s\", "
                   "the provider detected that no object exists with the given "
                   "id.", in->addr);
    return false;
  }
  if (in->new_obj)
    in->prior = in->new_obj;
  in->new_obj = NULL;
  *out = cur;
  return true;
}

/* replace_triggered_by lookups (lifecycle.h): the planned change of an
** instance / every instance of a resource.  The referenced nodes have
** finished (the graph has edges to them), so their changes are final. */
typedef struct TrigCtx {
  Engine *e;
  Arena *a;   /* the worker's arena */
} TrigCtx;

static Node *trig_node(Engine *e, Arena *a, const char *addr, bool instance)
{
  const char *ra = addr;
  size_t n = strlen(addr);
  if (instance && n && addr[n - 1] == ']') {
    const char *lb = strrchr(addr, '[');
    /* the key of the resource, not of a module: "x.y[0]" */
    if (lb)
      ra = arena_strndup(a, addr, (size_t)(lb - addr));
  }
  uint32_t v;
  const char *sp = st_static_path(a, ra);
  if (!eng_map_get(&e->by_name, sp, &v) || e->nodes[v].kind != N_RESOURCE)
    return NULL;
  return &e->nodes[v];
}

static const PlChange *trig_change_of(void *ctx, const char *addr)
{
  TrigCtx *tc = ctx;
  Node *t = trig_node(tc->e, tc->a, addr, true);
  if (!t)
    return NULL;
  for (uint32_t i = 0; i < t->ninst; i++)
    if (!t->inst[i].deposed && strcmp(t->inst[i].addr, addr) == 0)
      return t->inst[i].change;
  return NULL;
}

static uint32_t trig_changes_of(void *ctx, const char *raddr,
                                const PlChange *const **out)
{
  TrigCtx *tc = ctx;
  Node *t = trig_node(tc->e, tc->a, raddr, false);
  *out = NULL;
  if (!t)
    return 0;
  const PlChange **v = ARENA_NEW(tc->a, const PlChange *, t->ninst + 1);
  size_t pl = strlen(raddr);
  uint32_t k = 0;
  for (uint32_t i = 0; i < t->ninst; i++) {
    const Inst *in = &t->inst[i];
    if (in->deposed || !in->change || strncmp(in->addr, raddr, pl) != 0 ||
        (in->addr[pl] != '\0' && in->addr[pl] != '['))
      continue;
    v[k++] = in->change;
  }
  *out = v;
  return k;
}

/* Postconditions with self = the planned (or new) object. */
bool eng_check_post(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                    Value self, LcRuleKind kind)
{
  Scope sc;
  EvalCtx ctx;
  eng_inst_scope(&ctx, &sc, e, n, in, a, d);
  EvalVar *sv = ARENA_NEW(a, EvalVar, 1);
  sv->name = "self";
  sv->val = self;
  ctx.vars = sv;
  ctx.nvars = 1;
  return lc_check_rules_ex(&ctx, &n->res->postconditions, kind, in->addr,
                           e->o.mode == PL_MODE_REFRESH_ONLY, d);
}

bool eng_plan_managed(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  if (in->deposed)
    return eng_plan_delete(e, n, in, a, d, PL_REASON_NONE);
  if (!in->in_config)
    return eng_plan_delete(e, n, in, a, d, eng_gone_reason(n, in));
  const ProvBlockSchema *b = n->tschema->schema.block;
  Value prior = prov_null_object(a, b);
  bool tainted = false;
  ProvBytes ppriv = {0};
  const char *import_id = NULL;
  uint32_t ii = UINT32_MAX;
  if (e->nimports && eng_map_get(&e->imports, in->addr, &ii))
    e->import_used[ii] = 1;   /* an existing object ignores its import */
  if (!in->prior && ii != UINT32_MAX) {
    import_id = e->import_ids[ii];
    if (!import_obj(e, n, in, a, d, import_id, &prior))
      return false;
    ppriv = (ProvBytes){in->prior->priv, in->prior->priv_len};
  } else if (in->prior) {
    if (in->decoded.type)
      prior = in->decoded;   /* decoded before the scratch scope */
    else if (!eng_decode_obj(e, a, n, in, in->prior, &prior, d))
      return false;
    ppriv = (ProvBytes){in->prior->priv, in->prior->priv_len};
    tainted = in->prior->status == ST_TAINTED;
    if (e->o.refresh) {
      Value cur;
      if (!refresh_obj(e, n, in, a, d, prior, &cur))
        return false;
      prior = val_is_null(cur) ? prov_null_object(a, b) : cur;
      if (val_is_null(cur))
        tainted = false;
    }
  }
  const CfgResource *r = n->res;
  Scope sc;
  EvalCtx ctx;
  eng_inst_scope(&ctx, &sc, e, n, in, a, d);
  bool refresh_only = e->o.mode == PL_MODE_REFRESH_ONLY;
  if (r->preconditions.n &&
      !lc_check_rules_ex(&ctx, &r->preconditions, LC_RESOURCE_PRECONDITION,
                         in->addr, refresh_only, d))
    return false;
  Value config;
  if (!eng_eval_config(e, n, in, a, d, &config))
    return false;
  if (refresh_only) {
    in->value = val_is_null(prior) ? config : prior;
    return true;
  }
  if (!val_is_null(prior) && (r->ignore_all_changes || r->ignore_changes.n))
    config = lc_ignore_changes(a, config, prior, r, b);
  bool triggered = false;
  if (r->nreplace_triggered_by) {
    TrigCtx tc = {e, a};
    LcTriggerEnv env = {in->module, n->mod->t->m, trig_change_of,
                        trig_changes_of, &tc};
    if (!lc_replace_triggered(&ctx, r, &env, &triggered, d))
      return false;
  }
  {
    ProvCall c = {a, d, NULL};
    Diag *mark = d->tail;
    n->ps->prov->ops->validate_resource_config(n->ps->prov, &c, n->type,
                                               val_unmark_deep(a, config));
    eng_attribute_path_diags(d, mark, &c, n, in);
    if (diag_has_errors(d))
      return false;
  }
  ProvPlanResp rs;
  if (!eng_provider_plan(e, n, in, a, d, prior, config, ppriv, &rs))
    return false;
  Value planned = rs.planned_state;
  PlAction act;
  PlReason why = PL_REASON_NONE;
  const ValPath *rp = NULL;
  uint32_t nrp = 0;
  if (val_is_null(prior)) {
    act = PL_CREATE;
  } else {
    bool repl = false;
    if (triggered) {
      repl = true;
      why = PL_REASON_REPLACE_BY_TRIGGERS;
    } else if (tainted) {
      repl = true;
      why = PL_REASON_REPLACE_BECAUSE_TAINTED;
    } else if (replace_requested(e, in)) {
      repl = true;
      why = PL_REASON_REPLACE_BY_REQUEST;
    } else {
      ValPath *kept = ARENA_NEW(a, ValPath, rs.nrequires_replace + 1);
      for (uint32_t i = 0; i < rs.nrequires_replace; i++) {
        bool ex;
        if (objc_path_changed(val_unmark_deep(a, prior), planned,
                              rs.requires_replace[i], &ex))
          kept[nrp++] = rs.requires_replace[i];
      }
      if (nrp) {
        repl = true;
        rp = kept;
        why = PL_REASON_REPLACE_CANNOT_UPDATE;
      }
    }
    if (repl) {
      /* plan again as a create to get the new object's planned value */
      ProvPlanResp rs2;
      if (!eng_provider_plan(e, n, in, a, d, prov_null_object(a, b), config,
                             (ProvBytes){0}, &rs2))
        return false;
      planned = rs2.planned_state;
      rs.planned_private = rs2.planned_private;
      act = n->cbd ? PL_CREATE_THEN_DELETE : PL_DELETE_THEN_CREATE;
    } else if (val_is_wholly_known(planned) &&
               val_raw_equal(planned, val_unmark_deep(a, prior), false)) {
      act = PL_NOOP;
    } else {
      act = PL_UPDATE;
    }
  }
  if (lc_prevent_destroy_applies(r, act)) {
    lc_prevent_destroy_error(d, r, in->addr);
    return false;
  }
  Value after = prov_mark_sensitive(a, b, planned);
  after = eng_copy_marks(a, after, config);
  if (r->postconditions.n &&
      !eng_check_post(e, n, in, a, d, after, LC_RESOURCE_POSTCONDITION))
    return false;
  PlChange *c = new_change(a, e, n, in, act, why, prior, after);
  if (import_id) {
    c->importing = true;
    c->import_id = import_id;
  }
  c->replace_paths = rp;
  c->nreplace_paths = nrp;
  c->priv = rs.planned_private;
  in->change = c;
  in->value = after;
  return true;
}

bool eng_read_data(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                   Value config, Value *out)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  double t0 = eng_now_sec();
  eng_add_event(a, in, ENG_EV_READ_START, PL_READ, in->change, config, 0);
  ProvCall c = {a, d, NULL};
  n->ps->prov->ops->validate_data_resource_config(
      n->ps->prov, &c, n->type, val_unmark_deep(a, config));
  if (diag_has_errors(d))
    return false;
  ProvReadDataReq rq = {n->type, val_unmark_deep(a, config)};
  ProvReadDataResp rs = {{0}};
  Diag *mark = d->tail;
  n->ps->prov->ops->read_data_source(n->ps->prov, &c, &rq, &rs);
  eng_attribute_prov_diags(d, mark, n, in);
  if (diag_has_errors(d))
    return false;
  Value v = rs.state;
  if (!v.type || val_is_null(v)) {
    eng_inst_error(d, n, in, "Provider produced null object",
                   "Provider \"%s\" produced a null value for %s.%s",
                   n->ps->fqn, in->addr, eng_bug_suffix);
    return false;
  }
  if (!eng_conforms(v.type, eng_implied(e, b))) {
    Value conv;
    ConvError ce = {0};
    if (!conv_convert(a, v, eng_implied(e, b), true, &conv, &ce)) {
      eng_inst_error(d, n, in, "Provider produced invalid object",
                     "Provider \"%s\" produced an invalid value for %s.%s",
                     n->ps->fqn, in->addr, eng_bug_suffix);
      return false;
    }
    v = conv;
  }
  if (!val_is_wholly_known(v)) {
    eng_inst_error(d, n, in, "Provider produced invalid object",
                   "Provider \"%s\" produced a value for %s that is not wholly "
                   "known.%s", n->ps->fqn, in->addr, eng_bug_suffix);
    return false;
  }
  v = prov_mark_sensitive(a, b, v);
  v = eng_copy_marks(a, v, config);
  eng_add_event(a, in, ENG_EV_READ_DONE, PL_READ, in->change, v,
                eng_now_sec() - t0);
  *out = v;
  return true;
}

static bool deps_pending(Engine *e, const Node *n)
{
  for (uint32_t i = 0; i < n->ndeps; i++) {
    uint32_t u;
    if (eng_map_get(&e->by_name, n->deps[i], &u) && e->nodes[u].pending)
      return true;
  }
  return false;
}

bool eng_plan_data(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  if (!in->in_config) {
    in->refreshed = true;   /* dropped from the refreshed state */
    in->new_obj = NULL;
    return true;
  }
  if (n->res->preconditions.n) {
    Scope sc;
    EvalCtx ctx;
    eng_inst_scope(&ctx, &sc, e, n, in, a, d);
    if (!lc_check_rules_ex(&ctx, &n->res->preconditions,
                           LC_RESOURCE_PRECONDITION, in->addr,
                           e->o.mode == PL_MODE_REFRESH_ONLY, d))
      return false;
  }
  Value config;
  if (!eng_eval_config(e, n, in, a, d, &config))
    return false;
  const ProvBlockSchema *b = n->tschema->schema.block;
  bool unknown = !val_is_wholly_known(config);
  if (unknown || deps_pending(e, n)) {
    Value after = objc_planned_data(a, b, val_unmark_deep(a, config));
    after = prov_mark_sensitive(a, b, after);
    after = eng_copy_marks(a, after, config);
    Value before = prov_null_object(a, b);
    in->change = new_change(a, e, n, in, PL_READ,
                            unknown ? PL_REASON_READ_CONFIG_UNKNOWN
                                    : PL_REASON_READ_DEPENDENCY_PENDING,
                            before, after);
    in->value = after;
    return true;
  }
  Value v;
  if (!eng_read_data(e, n, in, a, d, config, &v))
    return false;
  if (n->res->postconditions.n &&
      !eng_check_post(e, n, in, a, d, v, LC_RESOURCE_POSTCONDITION))
    return false;
  in->value = v;
  in->refreshed = true;
  in->new_obj = eng_make_obj(e, a, n, v, (ProvBytes){0}, config, d);
  return in->new_obj != NULL;
}
