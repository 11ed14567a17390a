/*
** engine_walk: node visits and the walk.  The dag_walk callbacks: a
** node's visit (providers, locals, variables, outputs, expansion), the
** fan-out of a resource node into pieces, planning or applying each
** instance, the aggregate value of a finished resource node, and the
** delivery of progress events in topological order.
*/
#include "base/convert.h"
#include "engine_priv.h"
#include "providers/decode.h"

#ifndef CAIRN_VERSION
#define CAIRN_VERSION "0.0.0"
#endif

#define CHUNK 64   /* instances per piece: amortises pool overhead */

static bool visit_provider(Engine *e, Node *n, Arena *a, Diags *d)
{
  ProvSlot *ps = n->ps;
  if (!ps->prov || !ps->schema)
    return false;
  const ProvBlockSchema *b = ps->schema->provider.block;
  /* An absent provider block is an empty configuration; a provider that
  ** requires arguments then says so itself in ValidateProviderConfig. */
  static const HclBody empty;
  Diags quiet;
  diag_init(&quiet, a);
  Scope sc;
  EvalCtx ctx;
  /* a provider configured in a child module is evaluated in its (single)
  ** instance; Terraform refuses provider blocks in repeated modules */
  const EMod *mod = n->mod ? n->mod : e->root;
  bool have_cfg = ps->cfg && mod->nmi > 0;
  eng_scope_ctx(&ctx, &sc, e, n, mod, 0, mod->nmi ? &mod->mi[0].rep : NULL, a,
                have_cfg ? d : &quiet);
  Value config;
  if (!dec_body(&ctx, have_cfg ? ps->cfg->body : &empty, b, &config)) {
    if (ps->cfg)
      return false;
    config = prov_null_object(a, b);
  }
  ProvCall c = {a, d, NULL};
  Value uc = val_unmark_deep(a, config);
  Diag *mark = d->tail;
  ps->prov->ops->validate_provider_config(ps->prov, &c, uc);
  eng_provider_path_diags(d, mark, &c, ps);
  if (diag_has_errors(d))
    return false;
  ProvConfigureReq rq = {CAIRN_VERSION, uc};
  ps->prov->ops->configure(ps->prov, &c, &rq);
  return !diag_has_errors(d);
}

/* Workers allocate from their own arena (a), never from e->a, which the
** owner thread uses concurrently (aggregate). */
static Value *node_vals(Arena *a, Node *n)
{
  uint32_t k = n->mod->nmi;
  n->vals = ARENA_NEW(a, Value, k ? k : 1);
  return n->vals;
}

static bool visit_local(Engine *e, Node *n, Arena *a, Diags *d)
{
  Value *vals = node_vals(a, n);
  for (uint32_t m = 0; m < n->mod->nmi; m++) {
    Scope sc;
    EvalCtx ctx;
    eng_scope_ctx(&ctx, &sc, e, n, n->mod, m, &n->mod->mi[m].rep, a, d);
    if (!eval_expr(&ctx, n->local->expr, &vals[m]))
      return false;
  }
  return true;
}

/* An input variable of a child module, in each of its instances: the
** call's argument evaluated in the calling module, converted to the
** declared type, or the default. */
static bool visit_var(Engine *e, Node *n, Arena *a, Diags *d)
{
  const EMod *mod = n->mod;
  const CfgVariable *cv = n->var;
  const CfgModuleCall *mc = mod->t->call;
  const HclAttribute *at = mc->body ? hcl_body_attr(mc->body, cv->name)
                                    : NULL;
  Value *vals = node_vals(a, n);
  for (uint32_t m = 0; m < mod->nmi; m++) {
    const MInst *mi = &mod->mi[m];
    Value v = cv->has_default ? cv->default_val : val_null(cv->type);
    if (at) {
      Scope sc;
      EvalCtx ctx;
      eng_scope_ctx(&ctx, &sc, e, n, mod->parent, mi->parent, &mi->rep, a, d);
      if (!eval_expr(&ctx, at->expr, &v))
        return false;
      if (val_is_null(v) && !cv->nullable && cv->has_default)
        v = cv->default_val;
      Value cv2;
      ConvError ce = {0};
      /* Terraform converts module arguments the permissive way
      ** ("5" for a number) */
      if (!conv_convert(a, v, cv->type, true, &cv2, &ce)) {
        Buf tn;
        buf_init(&tn, a);
        ty_friendly(&tn, cv->type);
        diag_error(d, &at->expr->range, "Invalid value for input variable",
                   "The given value is not suitable for %s.var.%s declared "
                   "at %s:%u,%u-%u: %s.", mi->addr, cv->name,
                   cv->range.file ? cv->range.file : "?",
                   cv->range.start.line, cv->range.start.col,
                   cv->range.end.col, ce.msg ? ce.msg : buf_str(&tn));
        return false;
      }
      v = cv2;
      if (val_is_null(v) && !cv->nullable) {
        diag_error(d, &at->expr->range, "Invalid value for input variable",
                   "The given value is not suitable for %s.var.%s: required "
                   "variable may not be set to null.", mi->addr, cv->name);
        return false;
      }
    }
    if (cv->ephemeral) {
      v = val_ephemeral(v);
    } else if (at && (val_marks_deep(v) & VF_EPHEMERAL)) {
      diag_error(d, &at->expr->range, "Ephemeral value not allowed",
                 "The input variable \"%s\" does not accept ephemeral "
                 "values.", cv->name);
      return false;
    }
    if (cv->sensitive)
      v = val_sensitive(v);
    vals[m] = v;
  }
  return true;
}

static bool visit_output(Engine *e, Node *n, Arena *a, Diags *d)
{
  Value *vals = node_vals(a, n);
  for (uint32_t m = 0; m < n->mod->nmi; m++) {
    Scope sc;
    EvalCtx ctx;
    eng_scope_ctx(&ctx, &sc, e, n, n->mod, m, &n->mod->mi[m].rep, a, d);
    if (n->out->preconditions.n &&
        !lc_check_rules_ex(&ctx, &n->out->preconditions,
                           LC_OUTPUT_PRECONDITION, n->name,
                           e->o.mode == PL_MODE_REFRESH_ONLY, d))
      return false;
    if (!eval_expr(&ctx, n->out->expr, &vals[m]))
      return false;
    if (n->out->ephemeral && !n->mod->parent) {
      diag_error(d, &n->out->range, "Ephemeral output not allowed",
                 "Ephemeral outputs are not allowed in context of a root "
                 "module");
      return false;
    }
    if (n->out->ephemeral) {
      vals[m] = val_ephemeral(vals[m]);
    } else if (val_marks_deep(vals[m]) & VF_EPHEMERAL) {
      diag_error(d, &n->out->expr->range, "Ephemeral value not allowed",
                 "This output value is not declared as returning an "
                 "ephemeral value, so it cannot be set to a result derived "
                 "from an ephemeral value.");
      return false;
    }
    if (val_has_sensitive(vals[m]) && !n->out->sensitive)
      break;
  }
  Value agg = n->mod->nmi ? vals[0] : val_dynamic_null;
  for (uint32_t m = 0; m < n->mod->nmi; m++)
    if (val_has_sensitive(vals[m]))
      agg = vals[m];
  if (val_has_sensitive(agg) && !n->out->sensitive) {
    diag_error(d, &n->out->range, "Output refers to sensitive values",
               "To reduce the risk of accidentally exporting sensitive data "
               "that was intended to be only internal, cairn requires that "
               "any root module output containing sensitive data be "
               "explicitly marked as sensitive, to confirm your intent.\n\n"
               "If you do intend to export this data, annotate the output "
               "value as sensitive by adding the following argument:\n"
               "    sensitive = true");
    return false;
  }
  return true;
}

static bool visit(void *ctx, uint32_t v, PoolWorker *w)
{
  Engine *e = ctx;
  Node *n = &e->nodes[v];
  Arena *a = eng_worker_arena(e, w);
  Diags *d = eng_node_diags(n, a);
  if (n->untargeted && (n->kind == N_RESOURCE || n->kind == N_ORPHAN)) {
    /* left out by -target: its state objects, as they are */
    eng_expand_state(n, a);
    for (uint32_t i = 0; n->kind == N_RESOURCE && i < n->ninst; i++)
      n->inst[i].in_config = !n->inst[i].deposed &&
                             n->inst[i].mi != UINT32_MAX;
    return true;
  }
  if (n->untargeted && (n->kind == N_OUTPUT || n->kind == N_PROVIDER)) {
    /* not evaluated (outputs keep their recorded values), not configured */
    if (n->kind == N_OUTPUT) {
      Value *vals = node_vals(a, n);
      for (uint32_t m = 0; m < n->mod->nmi; m++)
        vals[m] = val_dynamic_unknown;
    }
    return true;
  }
  /* Destroying needs values only for provider configurations; what
  ** depends on resources (which destroy mode does not evaluate) is
  ** unknown rather than an error.  The same holds for what -target
  ** leaves out. */
  if ((e->o.mode == PL_MODE_DESTROY || n->untargeted) &&
      (n->kind == N_LOCAL || n->kind == N_VAR)) {
    Diags quiet;
    diag_init(&quiet, a);
    bool ok = n->kind == N_LOCAL ? visit_local(e, n, a, &quiet)
                                 : visit_var(e, n, a, &quiet);
    if (!ok)
      for (uint32_t m = 0; m < n->mod->nmi; m++)
        if (!n->vals[m].type)
          n->vals[m] = val_dynamic_unknown;
    return true;
  }
  switch (n->kind) {
  case N_PROVIDER:
    return visit_provider(e, n, a, d);
  case N_LOCAL:
    return visit_local(e, n, a, d);
  case N_OUTPUT:
    return visit_output(e, n, a, d);
  case N_VAR:
    return visit_var(e, n, a, d);
  case N_CALL:
    return eng_expand_call(e, n, a, d);
  case N_RESOURCE:
    if (e->o.mode == PL_MODE_DESTROY) {
      eng_expand_state(n, a);
      return true;
    }
    return eng_expand(e, n, a, d);
  case N_EPHEMERAL:
    if (n->untargeted) {   /* not needed by a target: never opened */
      n->inst = eng_new_insts(a, 0);
      n->ninst = 0;
      return true;
    }
    if (e->o.mode == PL_MODE_DESTROY) {
      /* leniently, as locals: what depends on resources is unknown */
      Diags quiet;
      diag_init(&quiet, a);
      if (!eng_expand(e, n, a, &quiet)) {
        n->inst = eng_new_insts(a, 0);
        n->ninst = 0;
      }
      return true;
    }
    return eng_expand(e, n, a, d);
  case N_ORPHAN:
    eng_expand_state(n, a);
    return true;
  case N_DESTROY:
  case N_DEPOSED:
    eng_expand_work(e, n, a);
    return true;
  }
  return false;
}

static uint32_t fanout(void *ctx, uint32_t v)
{
  Engine *e = ctx;
  Node *n = &e->nodes[v];
  if (n->kind != N_RESOURCE && n->kind != N_ORPHAN && n->kind != N_DESTROY &&
      n->kind != N_DEPOSED && n->kind != N_EPHEMERAL)
    return 0;
  /* pieces small enough to keep every worker busy on a few hundred
  ** instances (slow remote providers), at most CHUNK to amortise the pool
  ** on large counts */
  uint32_t c = n->ninst / ((uint32_t)e->nworkers * 16);
  n->chunk = c < 1 ? 1 : c > CHUNK ? CHUNK : c;
  /* Planning a managed resource of a built-in provider served in-process
  ** (not one a plugin or endpoint overrides) waits on nothing: its refresh
  ** and plan take microseconds, so full pieces. Small ones made ten
  ** workers on two cores contend for the pool's lock, about five futex
  ** calls per piece of six instances. */
  if (e->phase == PH_PLAN && n->kind == N_RESOURCE &&
      n->mode == ST_MANAGED && n->ps && n->ps->builtin && n->ps->prov) {
    const ProvBuiltin *b = prov_lookup_builtin(n->ps->fqn);
    if (b && n->ps->prov->ops == b->ops)
      n->chunk = CHUNK;
  }
  uint32_t k = (n->ninst + n->chunk - 1) / n->chunk;
  atomic_store(&n->pieces_left, k);
  return k;
}

/* -target left instance in out: it keeps its state object, and its value
** (for the outputs that still refer to it) is the recorded one. */
static bool skip_inst(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  if (in->prior && !in->deposed && in->in_config)
    return eng_decode_obj(e, a, n, in, in->prior, &in->value, d);
  return true;
}

static bool run_inst(Engine *e, Node *n, Inst *in, Arena *a)
{
  Diags *d = eng_inst_diags(in, a);
  bool ok;
  if (n->kind == N_EPHEMERAL) {
    ok = eng_open_ephemeral(e, n, in, a, d);
  } else if (e->ntg && !eng_inst_targeted(e, n, in)) {
    ok = skip_inst(e, n, in, a, d);
  } else if (e->phase == PH_PLAN) {
    if (e->o.mode == PL_MODE_DESTROY || n->kind == N_ORPHAN) {
      ok = n->mode == ST_DATA
               ? true
               : n->kind == N_ORPHAN && e->o.mode != PL_MODE_DESTROY &&
                         eng_forgotten(e, n, in)
               ? eng_plan_forget(e, n, in, a, d)
               : eng_plan_delete(e, n, in, a, d,
                                 n->kind == N_ORPHAN && e->o.mode !=
                                     PL_MODE_DESTROY
                                     ? eng_gone_reason(n, in)
                                     : PL_REASON_NONE);
      if (n->mode == ST_DATA) {
        in->refreshed = true;
        in->new_obj = NULL;
      }
    } else {
      ok = n->mode == ST_DATA ? eng_plan_data(e, n, in, a, d)
                              : eng_plan_managed_scoped(e, n, in, a, d);
    }
  } else {
    if (n->kind == N_DESTROY || n->kind == N_DEPOSED) {
      ok = eng_apply_work_scoped(e, n, in, a, d);
    } else if (n->mode == ST_DATA) {
      ok = eng_apply_data(e, n, in, a, d);
    } else if (e->plan->ninvokes && n->res && n->res->naction_triggers) {
      /* actions triggered by this change, before and after it */
      ok = eng_run_actions(e, n, in, false, a, d) &&
           eng_apply_managed_scoped(e, n, in, a, d) &&
           eng_run_actions(e, n, in, true, a, d);
    } else {
      ok = eng_apply_managed_scoped(e, n, in, a, d);
    }
  }
  if (!ok || diag_has_errors(d))
    in->failed = true;
  return !in->failed;
}

static bool sub(void *ctx, uint32_t v, uint32_t i, PoolWorker *w)
{
  Engine *e = ctx;
  Node *n = &e->nodes[v];
  Arena *a = eng_worker_arena(e, w);
  uint32_t from = i * n->chunk, to = from + n->chunk;
  if (to > n->ninst)
    to = n->ninst;
  bool ok = true;
  for (uint32_t k = from; k < to; k++) {
    if (e->o.stop && *e->o.stop) {
      ok = false;   /* stopped: what ran is still synced below */
      break;
    }
    ok &= run_inst(e, n, &n->inst[k], a);
  }
  /* Apply records without waiting for the journal's fdatasync
  ** (defer_sync, eng_apply); the node's last piece makes them all durable
  ** at once, before done() reports the node and releases its dependents
  ** (the other pieces have written theirs: they counted down after).
  ** No other piece of n runs now, so n's diagnostics are free to use. */
  if (e->phase == PH_APPLY && e->mgr &&
      atomic_fetch_sub(&n->pieces_left, 1) == 1 &&
      !stmgr_sync(e->mgr, eng_node_diags(n, a)))
    ok = false;
  return ok;
}

/* The values other nodes see for resource node n, per module instance:
** one object, a tuple (count) or an object keyed by instance key
** (for_each).  Configured instances of a module instance are contiguous
** and in key order (see eng_expand). */
static void aggregate(Engine *e, Node *n)
{
  uint32_t nmi = n->mod ? n->mod->nmi : 0;
  n->vals = ARENA_NEW(e->a, Value, nmi ? nmi : 1);
  Value *vals = ARENA_NEW(e->a, Value, n->ninst ? n->ninst : 1);
  const char **names = ARENA_NEW(e->a, const char *, n->ninst ? n->ninst : 1);
  uint32_t i = 0;
  for (uint32_t m = 0; m < nmi; m++) {
    while (i < n->ninst && n->inst[i].mi != m)
      i++;
    uint32_t k = 0, first = i;
    for (; i < n->ninst && n->inst[i].mi == m; i++) {
      Inst *in = &n->inst[i];
      if (!in->in_config || in->deposed)
        continue;
      vals[first + k] = in->value.type ? in->value : val_dynamic_unknown;
      names[first + k] = in->key.s;
      k++;
    }
    if (n->repetition == 0)
      n->vals[m] = k ? vals[first]
                   : n->disabled ? val_dynamic_null   /* OpenTofu: null */
                                 : val_dynamic_unknown;
    else if (n->repetition == 1)
      n->vals[m] = val_tuple(e->a, vals + first, k);
    else
      n->vals[m] = val_object(e->a, k, names + first, vals + first);
  }
}

static void emit_node(Engine *e, Node *n)
{
  if (n->flushed)
    return;
  n->flushed = true;
  if (!e->o.event)
    return;
  /* under e->mu: the hook allocates from the caller's arena, which may be
  ** e->a (and the state's), which workers allocate from under e->mu */
  pthread_mutex_lock(&e->mu);
  for (uint32_t i = 0; i < n->ninst; i++)
    for (EngEvent *ev = n->inst[i].ev_head; ev; ev = ev->next)
      if (!ev->delivered)
        e->o.event(e->o.event_ctx, ev);
  pthread_mutex_unlock(&e->mu);
}

static void done(void *ctx, uint32_t v, DagStatus st)
{
  Engine *e = ctx;
  Node *n = &e->nodes[v];
  n->finished = true;
  n->errored = st == DAG_FAILED || st == DAG_SKIPPED;
  if (st == DAG_OK && (n->kind == N_RESOURCE || n->kind == N_ORPHAN ||
                       n->kind == N_EPHEMERAL)) {
    if (n->kind != N_ORPHAN) {
      /* e->a may also be the state's arena, which workers allocate from
      ** under e->mu (state_res in engine_apply.c) */
      pthread_mutex_lock(&e->mu);
      aggregate(e, n);
      pthread_mutex_unlock(&e->mu);
    }
    for (uint32_t i = 0; i < n->ninst; i++)
      if (n->inst[i].change && n->inst[i].change->action != PL_NOOP)
        n->pending = true;
  }
  /* deliver events in topological order, as far as it has finished */
  while (e->topo_pos < e->nnodes && e->nodes[e->topo[e->topo_pos]].finished)
    emit_node(e, &e->nodes[e->topo[e->topo_pos++]]);
}

/* ---- walking ------------------------------------------------------------ */

bool eng_walk(Engine *e, Diags *d)
{
  e->topo_pos = 0;
  uint8_t *status = ARENA_NEW(e->a, uint8_t, e->nnodes ? e->nnodes : 1);
  DagWalk w = {&e->g, e->pool, e->nworkers, visit, done, e, NULL, e->o.stop,
               fanout, sub, eng_tick, e->beat < 5 ? e->beat / 5 : 1.0};
  /* the walk's own memory: it allocates on the owner thread while workers
  ** allocate from e->a under e->mu */
  Arena wa;
  arena_init(&wa, 0);
  bool ok = dag_walk(&w, &wa, status);
  arena_release(&wa);
  /* a stopped walk leaves nodes unfinished: deliver what exists */
  for (uint32_t i = 0; i < e->nnodes; i++)
    emit_node(e, &e->nodes[e->topo[i]]);
  eng_close_ephemerals(e, d);
  for (uint32_t i = 0; i < e->nnodes; i++) {
    Node *n = &e->nodes[e->topo[i]];
    if (n->diags_ready)
      diag_move(d, &n->diags);
    for (uint32_t k = 0; k < n->ninst; k++)
      if (n->inst[k].diags_ready)
        diag_move(d, &n->inst[k].diags);
  }
  if (!ok && !diag_has_errors(d) && e->o.stop && *e->o.stop)
    diag_error(d, NULL, "Operation cancelled",
               "The operation was interrupted; operations already started "
               "have finished and are recorded.");
  return ok && !diag_has_errors(d);
}
