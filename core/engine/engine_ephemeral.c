/*
** engine_ephemeral: Terraform 1.10's ephemeral resources and the checks
** that keep ephemeral values out of plans and states (docs/ephemeral.md).
**
** An `ephemeral` block is a node of its own (N_EPHEMERAL) that the walk
** expands like a data source and fans out per instance; each instance is
** opened with the provider's OpenEphemeralResource in the plan walk and
** again in the apply walk, its result published (marked ephemeral) as the
** instance value, and closed once the walk is over (eng_close_ephemerals).
** Nothing of it reaches PlChange, StObject or the plan file: the value
** lives only in the walk's arenas.
*/
#include <string.h>
#include <time.h>

#include "base/convert.h"
#include "engine_priv.h"
#include "providers/decode.h"

/* The error Terraform's validateResourceForbiddenEphemeralValues gives
** for one attribute (subject: its expression). */
static void forbidden(Diags *d, const Node *n, const Inst *in,
                      const char *name, const SrcRange *rg)
{
  Diag *g = diag_error(d, rg ? rg : &n->res->range,
                       "Invalid use of ephemeral value",
                       "Ephemeral values are not valid for \"%s\", because "
                       "it is not a write-only attribute and must be "
                       "persisted to state.", name);
  if (in)
    diag_set_address(d, g, in->addr);
}

bool eng_check_ephemeral_config(const Node *n, const Inst *in, Value config,
                                Diags *d)
{
  if (!(val_marks_deep(config) & VF_EPHEMERAL))
    return true;
  if (!config.type || config.type->kind != TY_OBJECT ||
      (config.flags & (VF_NULL | VF_UNKNOWN | VF_EPHEMERAL))) {
    forbidden(d, n, in, n->type, NULL);
    return false;
  }
  const ProvBlockSchema *b = n->tschema->schema.block;
  bool ok = true;
  for (uint32_t i = 0; i < config.type->n; i++) {
    const char *name = config.type->names[i];
    if (!(val_marks_deep(config.u.elems[i]) & VF_EPHEMERAL))
      continue;
    const ProvAttrSchema *at = prov_block_attr(b, name);
    if (at && (at->flags & PROV_WRITE_ONLY))
      continue;
    const HclAttribute *ha = hcl_body_attr(n->res->body, name);
    forbidden(d, n, in, name, ha ? &ha->expr->range : NULL);
    ok = false;
  }
  return ok;
}

static void fill_event(EngEvent *ev, const Node *n, const Inst *in)
{
  ev->module = in->module ? in->module : "";
  ev->type = n->type;
  ev->name = n->rname;
  ev->key = in->key;
}

static void eph_event(Arena *a, const Node *n, Inst *in, EngEventKind k,
                      double elapsed)
{
  eng_add_event(a, in, k, PL_NOOP, NULL, val_dynamic_null, elapsed);
  fill_event(in->ev_tail, n, in);
}

static bool open_one(Engine *e, Node *n, Inst *in, Arena *a, Diags *d);

bool eng_open_ephemeral(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  if (!in->in_config)
    return true;
  if (e->o.mode != PL_MODE_DESTROY)
    return open_one(e, n, in, a, d);
  /* Destroying evaluates only what provider configurations need, and
  ** resources are not evaluated: an ephemeral resource that cannot be
  ** opened is unknown there, as a local would be. */
  Diags quiet;
  diag_init(&quiet, a);
  if (!open_one(e, n, in, a, &quiet) || diag_has_errors(&quiet))
    in->value = val_ephemeral(val_dynamic_unknown);
  return true;
}

static bool open_one(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  const CfgResource *r = n->res;
  const ProvBlockSchema *b = n->tschema->schema.block;
  Scope sc;
  EvalCtx ctx;
  eng_inst_scope(&ctx, &sc, e, n, in, a, d);
  if (r->preconditions.n &&
      !lc_check_rules_ex(&ctx, &r->preconditions, LC_RESOURCE_PRECONDITION,
                         in->addr, false, d))
    return false;
  Value config;
  if (!dec_body(&ctx, r->body, b, &config))
    return false;
  Value uc = val_unmark_deep(a, config);
  Prov *p = n->ps->prov;
  ProvCall c = {a, d, NULL};
  Diag *mark = d->tail;
  prov_validate_ephemeral(p, &c, n->type, uc);
  eng_attribute_path_diags(d, mark, &c, n, in);
  if (diag_has_errors(d))
    return false;
  if (!val_is_wholly_known(uc)) {
    /* Terraform defers it: the result is unknown and nothing is opened */
    in->value = val_ephemeral(val_unknown(eng_implied(e, b)));
    return true;
  }
  double t0 = eng_now_sec();
  eph_event(a, n, in, ENG_EV_EPHEMERAL_OPEN_START, 0);
  ProvOpenEphReq rq = {n->type, uc};
  ProvOpenEphResp rs;
  memset(&rs, 0, sizeof rs);
  mark = d->tail;
  c.paths = NULL;
  prov_open_ephemeral(p, &c, &rq, &rs);
  eng_attribute_path_diags(d, mark, &c, n, in);
  if (diag_has_errors(d))
    return false;
  in->eph_open = true;
  in->eph_priv = rs.private_data;
  pthread_mutex_lock(&e->mu);
  in->eph_renew_at = rs.renew_at;
  in->eph_renew_priv = rs.private_data;
  pthread_mutex_unlock(&e->mu);
  Value v = rs.result;
  const Type *want = eng_implied(e, b);
  if (v.type && !val_is_null(v) && !eng_conforms(v.type, want)) {
    Value conv;
    ConvError ce = {0};
    if (conv_convert(a, v, want, true, &conv, &ce))
      v = conv;
    else
      v.type = NULL;
  }
  if (!v.type || val_is_null(v) || !eng_conforms(v.type, want)) {
    eng_inst_error(d, n, in, "Provider produced invalid object",
                   "Provider \"%s\" produced an invalid value for %s.%s",
                   n->ps->fqn, in->addr, eng_bug_suffix);
    return false;
  }
  v = prov_mark_sensitive(a, b, v);
  v = eng_copy_marks(a, v, config);
  in->value = val_ephemeral_deep(a, v);
  eph_event(a, n, in, ENG_EV_EPHEMERAL_OPEN_DONE, eng_now_sec() - t0);
  if (r->postconditions.n &&
      !eng_check_post(e, n, in, a, d, in->value, LC_RESOURCE_POSTCONDITION))
    return false;
  return true;
}

/* Sends ev at once (the walk is over: nothing orders it any more). */
static void deliver(Engine *e, EngEvent *ev)
{
  if (!e->o.event)
    return;
  pthread_mutex_lock(&e->mu);
  e->o.event(e->o.event_ctx, ev);
  pthread_mutex_unlock(&e->mu);
}

void eng_renew_ephemeral(Engine *e, Node *n, Diags *d)
{
  /* Terraform renews on a timer of its own; cairn renews lazily, when a
  ** reader comes after the renew time (docs/ephemeral.md).  Under e->mu:
  ** concurrent readers renew once, and the new private data is copied
  ** into e->a, which workers allocate from under e->mu. */
  pthread_mutex_lock(&e->mu);
  int64_t now = (int64_t)time(NULL);
  for (uint32_t k = 0; k < n->ninst; k++) {
    Inst *in = &n->inst[k];
    if (!in->eph_open || !in->eph_renew_at || in->eph_renew_at > now)
      continue;
    Diags rd;
    diag_init(&rd, e->a);
    ProvCall c = {e->a, &rd, NULL};
    ProvEphReq rq = {n->type, in->eph_renew_priv};
    ProvRenewEphResp rs;
    memset(&rs, 0, sizeof rs);
    prov_renew_ephemeral(n->ps->prov, &c, &rq, &rs);
    eng_attribute_prov_diags(&rd, NULL, n, in);
    /* a failed renewal is not tried again (Terraform stops its timer) */
    in->eph_renew_at = diag_has_errors(&rd) ? 0 : rs.renew_at;
    in->eph_renew_priv = rs.private_data;
    diag_move(d, &rd);
  }
  pthread_mutex_unlock(&e->mu);
}

void eng_close_ephemerals(Engine *e, Diags *d)
{
  for (uint32_t i = 0; i < e->nnodes; i++) {
    Node *n = &e->nodes[e->topo[i]];
    if (n->kind != N_EPHEMERAL)
      continue;
    for (uint32_t k = 0; k < n->ninst; k++) {
      Inst *in = &n->inst[k];
      if (!in->eph_open)
        continue;
      in->eph_open = false;
      EngEvent ev;
      memset(&ev, 0, sizeof ev);
      ev.kind = ENG_EV_EPHEMERAL_CLOSE_START;
      ev.addr = in->addr;
      ev.action = PL_NOOP;
      fill_event(&ev, n, in);
      deliver(e, &ev);
      double t0 = eng_now_sec();
      ProvCall c = {e->a, d, NULL};
      ProvEphReq rq = {n->type, in->eph_priv};
      Diag *mark = d->tail;
      prov_close_ephemeral(n->ps->prov, &c, &rq);
      eng_attribute_prov_diags(d, mark, n, in);
      ev.kind = ENG_EV_EPHEMERAL_CLOSE_DONE;
      ev.elapsed = eng_now_sec() - t0;
      deliver(e, &ev);
    }
  }
}
