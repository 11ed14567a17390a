/*
** engine_apply: applying one instance.  Runs the planned change through
** the provider with Terraform's checks of its result, runs provisioners,
** records every completed operation in the state through stmgr, and
** delivers the "Still creating..." heartbeats while operations run.
*/
#include <stdio.h>
#include <string.h>

#include "base/convert.h"
#include "engine_priv.h"
#include "objchange.h"
#include "provisioner.h"

static const PlChange *find_change(Engine *e, const Inst *in)
{
  char key[1024];
  snprintf(key, sizeof key, "%s%s%s", in->addr, in->deposed ? " " : "",
           in->deposed ? in->deposed : "");
  uint32_t i;
  if (!eng_map_get(&e->changes, key, &i))
    return NULL;
  return &e->plan->changes[i];
}

const PlChange *eng_find_change(Engine *e, const Inst *in)
{
  return find_change(e, in);
}

static StResource *state_res(Engine *e, Node *n, const Inst *in)
{
  pthread_mutex_lock(&e->mu);
  StResource *r = st_ensure_resource(e->state, in->module, n->mode, n->type,
                                     n->rname, n->ps->state_addr);
  pthread_mutex_unlock(&e->mu);
  return r;
}

/* Provisioner output as events (deterministic order, like the rest). */
typedef struct ProvOut {
  Arena *a;          /* events (the worker's arena) */
  Arena *scratch;    /* prv_run / prv_ui_lines rewind this one */
  Inst *in;
  const char *type;
} ProvOut;

static void prov_emit(void *ctx, const char *line)
{
  ProvOut *po = ctx;
  eng_add_event(po->a, po->in, ENG_EV_PROVISION_OUTPUT, PL_NOOP, NULL,
                (Value){0}, 0);
  po->in->ev_tail->text = line ? arena_strdup(po->a, line) : NULL;
  po->in->ev_tail->prov = po->type;
}

static void prov_line(void *ctx, const char *text)
{
  ProvOut *po = ctx;
  prv_ui_lines(text, prov_emit, po, po->scratch);
}

/* Runs the create-time (when_destroy false) or destroy-time provisioners
** of the instance's resource with self = obj.  False when one failed with
** on_failure = fail (diagnostics in d); `continue` drops its errors, as
** Terraform does. */
static bool run_provisioners(Engine *e, Node *n, Inst *in, Arena *a,
                             Diags *d, Value self, bool when_destroy)
{
  const CfgResource *r = n->res ? n->res : n->lc_res;
  if (!r)
    return true;
  for (uint32_t i = 0; i < r->nprovisioners; i++) {
    const CfgProvisioner *p = &r->provisioners[i];
    if (p->when_destroy != when_destroy)
      continue;
    eng_add_event(a, in, ENG_EV_PROVISION_START, PL_NOOP, NULL, (Value){0}, 0);
    in->ev_tail->text = in->ev_tail->prov = p->type;
    Diags pd;
    diag_init(&pd, a);
    Scope sc;
    EvalCtx ctx;
    eng_scope_ctx(&ctx, &sc, e, n, n->mod, in->mi, &in->rep, a, &pd);
    EvalVar *sv = ARENA_NEW(a, EvalVar, 1);
    sv->name = "self";
    sv->val = self;
    ctx.vars = sv;
    ctx.nvars = 1;
    PrvLocalExec x;
    Arena scratch;
    arena_init(&scratch, 0);
    ProvOut po = {a, &scratch, in, p->type};
    bool ok = prv_decode(&ctx, p, false, &x) &&
              prv_run(&scratch, &x, in->addr, prov_line, &po, e->o.stop, &pd);
    arena_release(&scratch);
    eng_add_event(a, in, ok ? ENG_EV_PROVISION_DONE : ENG_EV_PROVISION_ERRORED,
                  PL_NOOP, NULL, (Value){0}, 0);
    in->ev_tail->prov = p->type;
    if (!ok && !p->on_failure_continue) {
      diag_move(d, &pd);
      return false;
    }
  }
  return true;
}

/* ApplyResourceChange and the checks on its answer.  Records the result.
** act is CREATE, UPDATE or DELETE. */
static bool provider_apply_op(Engine *e, Node *n, Inst *in, Arena *a,
                              Diags *d, PlAction act, Value prior,
                              Value planned, Value config, ProvBytes priv,
                              const char *dkey, const PlChange *pc)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  StResource *sr = state_res(e, n, in);
  char intent[17] = {0};
  /* An intent record (synced before the call) lets a crash between "create
  ** sent" and "result recorded" converge without duplicates.  Built-in
  ** providers keep their objects in the state alone (or rewrite the same
  ** file), so a repeated create cannot duplicate anything: they skip the
  ** extra sync. */
  if (act == PL_CREATE && !n->ps->builtin) {
    /* An intent left open by an interrupted run for this address: send
    ** its key again, so a provider that did create the object answers with
    ** it instead of making a second one; the result resolves the intent. */
    uint32_t nd;
    const StIntent *dang = stmgr_dangling(e->mgr, &nd);
    for (uint32_t i = 0; i < nd && !intent[0]; i++)
      if (strcmp(dang[i].addr, in->addr) == 0 &&
          strcmp(dang[i].action, "create") == 0 && strlen(dang[i].id) < 17)
        memcpy(intent, dang[i].id, strlen(dang[i].id) + 1);
    if (!intent[0] &&
        !stmgr_intent(e->mgr, e->state, in->addr, "create", intent, d))
      return false;
  }
  double t0 = eng_now_sec();
  eng_add_event(a, in, ENG_EV_APPLY_START, act, pc, prior, 0);
  if (in->flight != UINT32_MAX) {
    Flight *f = &e->fl[in->flight];
    pthread_mutex_lock(&f->mu);
    f->start = t0;
    f->start_ev = in->ev_tail;
    pthread_mutex_unlock(&f->mu);
  }
  /* destroy-time provisioners run before the delete, but not for the
  ** deposed half of a create_before_destroy replace (seed 002) */
  if (act == PL_DELETE && !dkey &&
      !run_provisioners(e, n, in, a, d, prior, true)) {
    eng_add_event(a, in, ENG_EV_APPLY_ERRORED, act, pc, prior,
                  eng_now_sec() - t0);
    return false;
  }
  ProvCall c = {a, d, NULL};
  ProvApplyReq rq = {n->type, val_unmark_deep(a, prior),
                     val_unmark_deep(a, planned), val_unmark_deep(a, config),
                     priv, intent[0] ? intent : NULL};
  ProvApplyResp rs;
  memset(&rs, 0, sizeof rs);
  Diag *mark = d->tail;
  n->ps->prov->ops->apply_resource_change(n->ps->prov, &c, &rq, &rs);
  eng_attribute_prov_diags(d, mark, n, in);
  bool failed = diag_has_errors(d);
  Value nv = rs.new_state;
  if (!nv.type) {
    if (!failed)
      eng_inst_error(d, n, in, "Provider produced invalid object",
                     "Provider \"%s\" produced an invalid nil value after "
                     "apply for %s.%s", n->ps->fqn, in->addr, eng_bug_suffix);
    /* keep the prior object; a failed delete keeps it too.  A create
    ** whose answer was lost may exist at the provider: its intent stays
    ** open, so the next apply sends the same key (the provider answers with
    ** the object it made) instead of making a second one. */
    if (intent[0] && rs.answer_lost)
      eng_inst_error(d, n, in, "Object may have been created",
                     "The provider did not answer the create of %s, so "
                     "cairn cannot tell whether the object exists. The "
                     "create stays open in the state journal (idempotency "
                     "key %s): the next apply sends the same key, and a "
                     "provider that made the object answers with it instead "
                     "of creating a second one. If the object exists and "
                     "the provider does not remember keys, import it with "
                     "\"cairn import\" or delete it outside cairn before "
                     "applying again.", in->addr, intent);
    else if (intent[0])
      stmgr_intent_resolve(e->mgr, e->state, intent, d);
    eng_add_event(a, in, ENG_EV_APPLY_ERRORED, act, pc, prior,
                  eng_now_sec() - t0);
    return false;
  }
  if (!val_is_null(nv) && !eng_conforms(nv.type, eng_implied(e, b))) {
    Value conv;
    ConvError ce = {0};
    if (!conv_convert(a, nv, eng_implied(e, b), true, &conv, &ce)) {
      eng_inst_error(d, n, in, "Provider produced invalid object",
                     "Provider \"%s\" produced an invalid value after apply "
                     "for %s: %s. The result cannot not be saved in the cairn "
                     "state.%s",
                     n->ps->fqn, in->addr, ce.msg ? ce.msg : "wrong type",
                     eng_bug_suffix);
      if (intent[0])
        stmgr_intent_resolve(e->mgr, e->state, intent, d);
      return false;
    }
    nv = conv;
  }
  if (act == PL_DELETE) {
    if (!val_is_null(nv) && !failed) {
      eng_inst_error(d, n, in,
                     "Provider returned invalid result object after apply",
                     "After applying a Delete plan, the provider returned a "
                     "non-null object for %s. Destroying should always produce "
                     "a null value, so this is always a bug in the provider "
                     "and should be reported in the provider's own repository. "
                     "cairn will still save this errant object in the state "
                     "for debugging and recovery.", in->addr);
      failed = true;
    }
    if (val_is_null(nv)) {
      if (!stmgr_record_remove(e->mgr, e->state, sr, in->key, dkey, d))
        return false;
    } else {
      StObject *o = eng_make_obj(e, a, n, nv, rs.private_data, (Value){0}, d);
      if (o)
        stmgr_record_set(e->mgr, e->state, sr, in->key, dkey, o, NULL, d);
    }
    eng_add_event(a, in, failed ? ENG_EV_APPLY_ERRORED : ENG_EV_APPLY_DONE,
                  act, pc, prior, eng_now_sec() - t0);
    return !failed;
  }
  if (val_is_null(nv)) {
    if (!failed)
      eng_inst_error(d, n, in,
                     "Provider returned invalid result object after apply",
                     "After applying a %s plan, the provider returned a null "
                     "object for %s. Only destroying should always produce a "
                     "null value, so this is always a bug in the provider and "
                     "should be reported in the provider's own repository.",
                     act == PL_CREATE ? "Create" : "Update", in->addr);
    if (intent[0])
      stmgr_intent_resolve(e->mgr, e->state, intent, d);
    eng_add_event(a, in, ENG_EV_APPLY_ERRORED, act, pc, prior,
                  eng_now_sec() - t0);
    return false;
  }
  if (!val_is_wholly_known(nv)) {
    eng_inst_error(d, n, in,
                   "Provider returned invalid result object after apply",
                   "After the apply operation, the provider still indicated an "
                   "unknown value for %s. All values must be known after "
                   "apply, so this is always a bug in the provider and should "
                   "be reported in the provider's own repository. cairn will "
                   "still save the other known object values in the state.",
                   in->addr);
    failed = true;
  }
  if (!failed && !rs.legacy_type_system) {
    ObjcErrs errs = {0};
    if (!objc_assert_compatible(a, b, val_unmark_deep(a, planned), nv,
                                &errs)) {
      for (uint32_t i = 0; i < errs.n; i++)
        eng_inst_error(d, n, in, "Provider produced inconsistent result after "
                       "apply", "When applying changes to %s, provider \"%s\" "
                       "produced an unexpected new value: %s%s%s.%s", in->addr,
                       n->ps->fqn, eng_fmt_path(a, errs.items[i].path) + 0,
                       errs.items[i].path.n ? ": " : "", errs.items[i].reason,
                       eng_bug_suffix);
      failed = true;
    }
  }
  Value marked = prov_mark_sensitive(a, b, nv);
  marked = eng_copy_marks(a, marked, config);
  StObject *o = eng_make_obj(e, a, n, marked, rs.private_data, config, d);
  if (!o)
    return false;
  if (failed && act == PL_CREATE)
    o->status = ST_TAINTED;   /* partially created: replace next time */
  if (!stmgr_record_set(e->mgr, e->state, sr, in->key, dkey, o,
                        intent[0] ? intent : NULL, d))
    return false;
  /* create-time provisioners, after the object is durable (the record
  ** did not wait: defer_sync, eng_apply); a failure taints it so the next
  ** plan replaces it */
  const CfgResource *pr = n->res ? n->res : n->lc_res;
  bool provs = act == PL_CREATE && !failed && pr && pr->nprovisioners;
  if (provs && !stmgr_sync(e->mgr, d))
    return false;
  if (provs && !run_provisioners(e, n, in, a, d, marked, false)) {
    failed = true;
    StObject *t = ARENA_NEW(a, StObject, 1);
    *t = *o;
    t->status = ST_TAINTED;
    if (!stmgr_record_set(e->mgr, e->state, sr, in->key, dkey, t, NULL, d))
      return false;
  }
  in->value = marked;
  eng_add_event(a, in, failed ? ENG_EV_APPLY_ERRORED : ENG_EV_APPLY_DONE, act,
                pc, marked, eng_now_sec() - t0);
  return !failed;
}

/* provider_apply_op, registered as in flight for the heartbeats (which
** cover the provisioners too, as Terraform's do). */
static bool provider_apply(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                           PlAction act, Value prior, Value planned,
                           Value config, ProvBytes priv, const char *dkey,
                           const PlChange *pc)
{
  in->flight = UINT32_MAX;
  for (uint32_t i = 0; i < e->nfl; i++) {
    Flight *f = &e->fl[i];
    if (atomic_exchange(&f->taken, true))
      continue;
    pthread_mutex_lock(&f->mu);
    f->used = true;
    f->in = in;
    f->act = act;
    f->change = pc;
    f->start = 0;
    f->start_ev = NULL;
    f->beats = 0;
    pthread_mutex_unlock(&f->mu);
    in->flight = i;
    break;
  }
  bool ok = provider_apply_op(e, n, in, a, d, act, prior, planned, config,
                              priv, dkey, pc);
  if (in->flight != UINT32_MAX) {
    Flight *f = &e->fl[in->flight];
    pthread_mutex_lock(&f->mu);
    f->used = false;
    pthread_mutex_unlock(&f->mu);
    atomic_store(&f->taken, false);
  }
  return ok;
}

/* The owner's periodic work during apply: every e->beat seconds of an
** operation, "Still creating... [10s elapsed]".  Heartbeats go out at
** once, not in the deterministic order of the other events (they are the
** one output that depends on timing, and only operations that run longer
** than the period have them); the operation's "Creating..." line is
** delivered first if it is still held back. */
static void heartbeat(Engine *e)
{
  if (!e->o.event || !e->nfl)
    return;
  double now = eng_now_sec();
  EngEvent *out = NULL;
  uint32_t nout = 0;
  /* e->a is shared with workers under e->mu, and the hook allocates from
  ** the caller's arena (possibly e->a): both under it */
  pthread_mutex_lock(&e->mu);
  for (uint32_t i = 0; i < e->nfl; i++) {
    Flight *f = &e->fl[i];
    pthread_mutex_lock(&f->mu);
    if (!f->used || !f->start_ev ||
        now - f->start < (double)(f->beats + 1) * e->beat) {
      pthread_mutex_unlock(&f->mu);
      continue;
    }
    if (!out)
      out = ARENA_NEW(e->a, EngEvent, 2 * e->nfl);
    f->beats++;
    if (!f->start_ev->delivered) {
      /* a copy of the fields its worker never writes again (it may be
      ** linking the next event to it right now) */
      EngEvent *st = f->start_ev;
      st->delivered = true;
      out[nout++] = (EngEvent){.kind = st->kind, .addr = st->addr,
                               .deposed = st->deposed, .action = st->action,
                               .change = st->change, .id_key = st->id_key,
                               .id_value = st->id_value};
    }
    EngEvent *ev = &out[nout++];
    memset(ev, 0, sizeof *ev);
    ev->kind = ENG_EV_APPLY_PROGRESS;
    ev->addr = f->in->addr;
    ev->deposed = f->in->deposed;
    ev->action = f->act;
    ev->change = f->change;
    ev->elapsed = (double)(long)(now - f->start);   /* whole seconds */
    pthread_mutex_unlock(&f->mu);
  }
  for (uint32_t i = 0; i < nout; i++)
    e->o.event(e->o.event_ctx, &out[i]);
  pthread_mutex_unlock(&e->mu);
}

/* After an interrupt: StopProvider to every configured provider, once,
** so long operations can end early (Terraform does the same); what they
** answer is only advice, errors are ignored. */
static void stop_providers(Engine *e)
{
  e->stop_sent = true;
  Arena a;
  arena_init(&a, 0);
  for (uint32_t i = 0; i < e->nslots; i++) {
    Prov *p = e->slots[i].prov;
    if (!p || !p->ops->stop)
      continue;
    Diags d;
    diag_init(&d, &a);
    ProvCall c = {&a, &d, NULL};
    (void)p->ops->stop(p, &c);
  }
  arena_release(&a);
}

/* The owner thread's periodic work while the walk waits. */
void eng_tick(void *ctx)
{
  Engine *e = ctx;
  if (e->o.stop && *e->o.stop && !e->stop_sent)
    stop_providers(e);
  heartbeat(e);
}

/* Postconditions after apply, with self = the new object: a failure is
** an error for this instance (its dependents are skipped); the object is
** already recorded, as Terraform keeps it. */
static bool apply_post(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  if (!n->res || !n->res->postconditions.n)
    return true;
  return eng_check_post(e, n, in, a, d, in->value, LC_RESOURCE_POSTCONDITION);
}

/* Preconditions once more before a create, update or read, as
** Terraform's apply does (its plan and applyDataSource evaluate them with
** error severity): a condition unknown at plan time, or an ephemeral
** variable given a new value for a saved plan, is decided here, and a
** failure stops this instance before the provider is called. */
static bool apply_pre(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  if (!n->res || !n->res->preconditions.n)
    return true;
  Scope sc;
  EvalCtx ctx;
  eng_inst_scope(&ctx, &sc, e, n, in, a, d);
  return lc_check_rules_ex(&ctx, &n->res->preconditions,
                           LC_RESOURCE_PRECONDITION, in->addr, false, d);
}

bool eng_apply_managed(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  const PlChange *pc = find_change(e, in);
  if (pc && pc->importing && !in->prior && !in->deposed) {
    /* the imported object (the plan's "before") enters the state first */
    StObject *o = eng_make_obj(e, a, n, pc->before, pc->priv, pc->before, d);
    if (!o)
      return false;
    StResource *sr = state_res(e, n, in);
    if (!stmgr_record_set(e->mgr, e->state, sr, in->key, NULL, o, NULL, d))
      return false;
    in->prior = o;
    eng_add_event(a, in, ENG_EV_IMPORT_DONE, PL_NOOP, pc, pc->before, 0);
  }
  Value prior = prov_null_object(a, b);
  if (in->prior && !eng_decode_obj(e, a, n, in, in->prior, &prior, d))
    return false;
  if (!pc || pc->action == PL_NOOP) {
    if (in->in_config)
      in->value = prior;
    return true;
  }
  ProvBytes ppriv = in->prior ? (ProvBytes){in->prior->priv,
                                            in->prior->priv_len}
                              : (ProvBytes){0};
  if (pc->action == PL_FORGET) {
    StResource *sr = state_res(e, n, in);
    return stmgr_record_remove(e->mgr, e->state, sr, in->key, NULL, d);
  }
  if (pc->action == PL_DELETE) {
    return provider_apply(e, n, in, a, d, PL_DELETE, prior,
                          prov_null_object(a, b), prov_null_object(a, b),
                          ppriv, in->deposed, pc);
  }
  if (!apply_pre(e, n, in, a, d))
    return false;
  Value config;
  if (!eng_eval_config(e, n, in, a, d, &config))
    return false;
  bool replace = pc->action == PL_DELETE_THEN_CREATE ||
                 pc->action == PL_CREATE_THEN_DELETE;
  if (!replace && in->prior && n->res &&
      (n->res->ignore_all_changes || n->res->ignore_changes.n))
    config = lc_ignore_changes(a, config, prior, n->res, b);
  Value plan_prior = replace ? prov_null_object(a, b) : prior;
  ProvPlanResp rs;
  if (!eng_provider_plan(e, n, in, a, d, plan_prior, config,
                         replace ? (ProvBytes){0} : ppriv, &rs))
    return false;
  /* the final plan must agree with the saved one */
  PlAction fin = pc->action;
  if (pc->action == PL_UPDATE && val_is_wholly_known(rs.planned_state) &&
      val_raw_equal(rs.planned_state, val_unmark_deep(a, prior), false))
    fin = PL_NOOP;
  {
    ObjcErrs errs = {0};
    if (!objc_assert_compatible(a, b, val_unmark_deep(a, pc->after),
                                rs.planned_state, &errs)) {
      for (uint32_t i = 0; i < errs.n; i++)
        eng_inst_error(d, n, in, "Provider produced inconsistent final plan",
                       "When expanding the plan for %s to include new values "
                       "learned so far during apply, provider \"%s\" produced "
                       "an invalid new value for %s%s%s.%s",
                       in->addr, n->ps->fqn,
                       eng_fmt_path(a, errs.items[i].path),
                       errs.items[i].path.n ? ": " : "", errs.items[i].reason,
                       eng_bug_suffix);
      return false;
    }
  }
  if (fin == PL_NOOP) {
    in->value = prior;
    return true;
  }
  Value planned = eng_copy_marks(a, prov_mark_sensitive(a, b, rs.planned_state),
                                 config);
  switch (pc->action) {
  case PL_CREATE:
    return provider_apply(e, n, in, a, d, PL_CREATE, prov_null_object(a, b),
                          planned, config, rs.planned_private, NULL, pc) &&
           apply_post(e, n, in, a, d);
  case PL_UPDATE:
    return provider_apply(e, n, in, a, d, PL_UPDATE, prior, planned, config,
                          rs.planned_private, NULL, pc) &&
           apply_post(e, n, in, a, d);
  case PL_DELETE_THEN_CREATE:
    /* the delete half ran in the resource's N_DESTROY node */
    if (in->prior &&
        !provider_apply(e, n, in, a, d, PL_DELETE, prior,
                        prov_null_object(a, b), prov_null_object(a, b), ppriv,
                        NULL, pc))
      return false;
    return provider_apply(e, n, in, a, d, PL_CREATE, prov_null_object(a, b),
                          planned, config, rs.planned_private, NULL, pc) &&
           apply_post(e, n, in, a, d);
  case PL_CREATE_THEN_DELETE: {
    char dkey[9];
    StResource *sr = state_res(e, n, in);
    pthread_mutex_lock(&e->mu);
    StInstance *si = st_find_instance(e->state, sr, in->key);
    pthread_mutex_unlock(&e->mu);
    if (!si) {
      eng_inst_error(d, n, in, "Missing prior object",
                     "The object to replace is no longer in the state.");
      return false;
    }
    st_new_deposed_key(si, dkey);
    /* depose durably: the old object under its deposed key, then the
    ** current slot cleared by the create below */
    if (!stmgr_record_set(e->mgr, e->state, sr, in->key, dkey, in->prior,
                          NULL, d) ||
        !stmgr_record_remove(e->mgr, e->state, sr, in->key, NULL, d))
      return false;
    /* the deposed object is deleted by the N_DEPOSED node, after the
    ** dependents have been updated to the new object */
    e->dkeys[pc - e->plan->changes] = arena_strdup(a, dkey);
    if (provider_apply(e, n, in, a, d, PL_CREATE, prov_null_object(a, b),
                       planned, config, rs.planned_private, NULL, pc))
      return apply_post(e, n, in, a, d);
    /* Terraform's maybeRestoreDeposedObject: a create that left no object
    ** gives the prior object its place back as the current one; a partial
    ** (tainted) new object keeps it deposed, for the next plan to delete */
    pthread_mutex_lock(&e->mu);
    si = st_find_instance(e->state, sr, in->key);
    bool has_current = si && si->current;
    pthread_mutex_unlock(&e->mu);
    if (!has_current) {
      e->dkeys[pc - e->plan->changes] = NULL;
      if (stmgr_record_set(e->mgr, e->state, sr, in->key, NULL, in->prior,
                           NULL, d))
        stmgr_record_remove(e->mgr, e->state, sr, in->key, dkey, d);
    }
    return false;
  }
  default:
    return true;
  }
}

/* N_DESTROY / N_DEPOSED: the instances to delete, from the plan and the
** working state. */
void eng_expand_work(Engine *e, Node *n, Arena *a)
{
  n->inst = eng_new_insts(a, n->nwork);
  n->ninst = 0;
  for (uint32_t i = 0; i < n->nwork; i++) {
    const PlChange *c = n->work[i];
    const char *dkey = NULL;
    if (n->kind == N_DEPOSED) {
      dkey = e->dkeys[c - e->plan->changes];
      if (!dkey)
        continue;   /* the replacement was not created: nothing deposed */
    }
    pthread_mutex_lock(&e->mu);
    StResource *sr = st_find_resource(e->state, c->module, c->mode, c->type,
                                      c->name);
    StInstance *si = sr ? st_find_instance(e->state, sr, c->key) : NULL;
    const StObject *o = !si ? NULL : dkey ? st_get_deposed(si, dkey)
                                          : si->current;
    pthread_mutex_unlock(&e->mu);
    if (!o)
      continue;   /* already gone */
    Inst *in = &n->inst[n->ninst++];
    in->key = c->key;
    in->addr = c->addr;
    in->module = c->module;
    in->mi = UINT32_MAX;
    in->deposed = dkey;
    in->prior = o;
  }
}

bool eng_apply_work(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  const PlChange *pc = find_change(e, &(Inst){.addr = in->addr});
  Value prior;
  if (!eng_decode_obj(e, a, n, in, in->prior, &prior, d))
    return false;
  return provider_apply(e, n, in, a, d, PL_DELETE, prior,
                        prov_null_object(a, b), prov_null_object(a, b),
                        (ProvBytes){in->prior->priv, in->prior->priv_len},
                        in->deposed, pc);
}

bool eng_apply_data(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  const PlChange *pc = find_change(e, in);
  if (!in->in_config)
    return true;
  if (pc && pc->action == PL_READ) {
    if (!apply_pre(e, n, in, a, d))
      return false;
    Value config;
    if (!eng_eval_config(e, n, in, a, d, &config))
      return false;
    Value v;
    if (!eng_read_data(e, n, in, a, d, config, &v))
      return false;
    if (n->res->postconditions.n &&
        !eng_check_post(e, n, in, a, d, v, LC_RESOURCE_POSTCONDITION))
      return false;
    StObject *o = eng_make_obj(e, a, n, v, (ProvBytes){0}, config, d);
    if (!o)
      return false;
    StResource *sr = state_res(e, n, in);
    if (!stmgr_record_set(e->mgr, e->state, sr, in->key, NULL, o, NULL, d))
      return false;
    in->value = v;
    return true;
  }
  if (!in->prior) {
    eng_inst_error(d, n, in, "Missing data source result",
                   "The plan has no result for %s.", in->addr);
    return false;
  }
  return eng_decode_obj(e, a, n, in, in->prior, &in->value, d);
}
