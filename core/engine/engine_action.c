/*
** engine_action: Terraform 1.14 actions (docs/actions.md).  Planning
** lists the invocations the planned changes trigger (a resource's
** lifecycle action_trigger blocks) and those -invoke asks for, with their
** configuration (unknown parts are known at apply); applying invokes them
** through the provider's invoke_action before or after the triggering
** instance's create or update, or after the walk for -invoke.
**
** Configurations without actions pay nothing: every entry point returns
** at once when the plan has no invocations or the module no actions.
*/
#include <string.h>

#include "engine_priv.h"
#include "providers/decode.h"

ProvSlot *eng_action_slot(Engine *e, const CfgTree *t, const CfgAction *x,
                          Diags *d)
{
  CfgResource r = {0};
  r.type = x->type;
  r.name = x->name;
  r.provider = x->provider;
  r.range = x->range;
  r.type_range = x->type_range;
  return eng_resource_slot(e, t, &r, d);
}

/* The InvokeAction of slot ps's provider: built-in providers only. */
static void (*invoker(const ProvSlot *ps))(Prov *, ProvCall *,
                                           const ProvInvokeReq *)
{
  if (!ps || !ps->prov)
    return NULL;
  const ProvBuiltin *b = prov_lookup_builtin(ps->fqn);
  return b && b->ops == ps->prov->ops ? b->invoke_action : NULL;
}

static ProvSlot *slot_by_addr(Engine *e, const char *state_addr)
{
  for (uint32_t i = 0; i < e->nslots; i++)
    if (strcmp(e->slots[i].state_addr, state_addr) == 0)
      return &e->slots[i];
  return NULL;
}

static bool key_match(StKey k, Value v)
{
  if (k.kind == ST_INTKEY && v.type->kind == TY_NUMBER) {
    int64_t want;
    return val_num_int(v, &want) && want == k.i;
  }
  return k.kind == ST_STRKEY && v.type->kind == TY_STRING &&
         strcmp(k.s, v.u.s) == 0;
}

/* The action's instances in module instance mi of mod: their keys and
** count/each data.  false with diagnostics. */
static bool expand(Engine *e, const EMod *mod, uint32_t mi,
                   const CfgAction *x, Arena *a, Diags *d, StKey **keys,
                   Rep **reps, uint32_t *n)
{
  Scope sc;
  EvalCtx ctx;
  eng_scope_ctx(&ctx, &sc, e, NULL, mod, mi,
                mod->nmi ? &mod->mi[mi].rep : NULL, a, d);
  return eng_expand_keys(&ctx, x->count, x->for_each, a, d, keys, reps, n);
}

/* Resolution of the triggering resource while its own node is still
** running (after_create / after_update): that instance's new value. */
typedef struct SelfScope {
  Scope s;                  /* first: the engine's resolver casts to it */
  EvalResolveFn orig;
  const Node *n;
  const Inst *in;
} SelfScope;

static EvalResolveResult resolve_self(EvalCtx *ctx, const HclTraversal *t,
                                      uint32_t *consumed, Value *out)
{
  SelfScope *ss = ctx->resolve_data;
  EvalRef r;
  Diags q;
  diag_init(&q, ctx->arena);
  if (ss->in && eval_parse_ref(t, &r, &q) && r.kind == EVAL_REF_RESOURCE &&
      strcmp(r.type, ss->n->type) == 0 && strcmp(r.name, ss->n->rname) == 0) {
    const Node *n = ss->n;
    Value self = ss->in->value.type ? ss->in->value : val_dynamic_unknown;
    if (n->repetition == 0) {
      *out = self;
    } else {
      /* the other instances may be applying now: unknown to this one */
      uint32_t k = 0;
      for (uint32_t i = 0; i < n->ninst; i++)
        k += n->inst[i].mi == ss->in->mi && n->inst[i].in_config &&
             !n->inst[i].deposed;
      Value *vals = ARENA_NEW(ctx->arena, Value, k + 1);
      const char **names = ARENA_NEW(ctx->arena, const char *, k + 1);
      k = 0;
      for (uint32_t i = 0; i < n->ninst; i++) {
        const Inst *o = &n->inst[i];
        if (o->mi != ss->in->mi || !o->in_config || o->deposed)
          continue;
        vals[k] = o == ss->in ? self : val_dynamic_unknown;
        names[k++] = o->key.s;
      }
      *out = n->repetition == 1 ? val_tuple(ctx->arena, vals, k)
                                : val_object(ctx->arena, k, names, vals);
    }
    *consumed = 2;
    return EVAL_RES_OK;
  }
  return ss->orig(ctx, t, consumed, out);
}

/* The configuration of action x's instance (rep) in module instance mi,
** against schema; in (may be NULL) is the triggering instance whose own
** value the configuration may read. */
static bool eval_config(Engine *e, const EMod *mod, uint32_t mi,
                        const Rep *rep, const CfgAction *x,
                        const ProvBlockSchema *schema, const Node *n,
                        const Inst *in, Arena *a, Diags *d, Value *out)
{
  static const HclBody empty;
  SelfScope ss;
  EvalCtx ctx;
  eng_scope_ctx(&ctx, &ss.s, e, NULL, mod, mi, rep, a, d);
  ss.orig = ctx.resolve;
  ss.n = n;
  ss.in = in;
  ctx.resolve = resolve_self;
  ctx.resolve_data = &ss;
  return dec_body(&ctx, x->config ? x->config : &empty, schema, out);
}

/* The action instance a reference names: its index among keys, or
** UINT32_MAX with a diagnostic. */
static uint32_t pick(Arena *a, const CfgAction *x, const StKey *keys,
                     uint32_t nk, bool has_key, Value key, SrcRange *rg,
                     Diags *d)
{
  bool rep = x->count || x->for_each;
  if (!has_key) {
    if (!rep && nk == 1)
      return 0;
    diag_error(d, rg, "Missing action instance key",
               "Because action.%s.%s has \"%s\" set, its instances must be "
               "referenced with an index.", x->type, x->name,
               x->count ? "count" : "for_each");
    return UINT32_MAX;
  }
  if (!rep) {
    diag_error(d, rg, "Unexpected action instance key",
               "Because action.%s.%s does not have \"count\" or "
               "\"for_each\" set, it cannot be indexed.", x->type, x->name);
    return UINT32_MAX;
  }
  for (uint32_t i = 0; i < nk; i++)
    if (key_match(keys[i], key))
      return i;
  (void)a;
  diag_error(d, rg, "Invalid action instance key",
             "The given key does not identify an instance of "
             "action.%s.%s.", x->type, x->name);
  return UINT32_MAX;
}

typedef struct Inv {
  PlInvoke *v;
  uint32_t n, cap;
} Inv;

static PlInvoke *push(Arena *a, Inv *l)
{
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 8;
    PlInvoke *nv = ARENA_NEW(a, PlInvoke, nc);
    if (l->n)
      memcpy(nv, l->v, sizeof *nv * l->n);
    l->v = nv;
    l->cap = nc;
  }
  PlInvoke *iv = &l->v[l->n++];
  memset(iv, 0, sizeof *iv);
  return iv;
}

/* The provider slot and schema of x; NULL with Terraform's error when the
** provider has no such action type (plugins and HTTPS providers have
** none: docs/actions.md). */
static const ProvBlockSchema *action_schema(Engine *e, const EMod *mod,
                                            const CfgAction *x,
                                            ProvSlot **ps_out, Diags *d)
{
  ProvSlot *ps = eng_action_slot(e, mod->t, x, d);
  *ps_out = ps;
  if (!ps || !ps->prov || !ps->schema)
    return NULL;
  const ProvTypeSchema *ts = prov_schema_action(ps->schema, x->type);
  if (!ts || !invoker(ps)) {
    diag_error(d, &x->type_range, "Invalid action type",
               "The provider %s does not support action type \"%s\".",
               ps->fqn, x->type);
    return NULL;
  }
  return ts->schema.block;
}

/* Fills iv for instance k of x in module instance mi and runs the
** provider's plan-time checks on its configuration. */
static bool plan_one(Engine *e, const EMod *mod, uint32_t mi,
                     const CfgAction *x, const StKey *keys, const Rep *reps,
                     uint32_t k, const Node *n, const Inst *in, Arena *a,
                     Diags *d, PlInvoke *iv)
{
  ProvSlot *ps;
  const ProvBlockSchema *b = action_schema(e, mod, x, &ps, d);
  if (!b)
    return false;
  Value cfg;
  if (!eval_config(e, mod, mi, &reps[k], x, b, n, in, a, d, &cfg))
    return false;
  Buf buf;
  buf_init(&buf, a);
  buf_printf(&buf, "%saction.%s.%s", mod->nmi && mod->mi[mi].addr[0]
                                         ? arena_printf(a, "%s.",
                                                        mod->mi[mi].addr)
                                         : "",
             x->type, x->name);
  st_format_key(&buf, keys[k]);
  iv->addr = buf_str(&buf);
  iv->module = mod->nmi ? mod->mi[mi].addr : "";
  iv->type = x->type;
  iv->name = x->name;
  iv->key = keys[k];
  iv->provider = ps->state_addr;
  iv->provider_name = ps->fqn;
  iv->config = cfg;
  iv->schema = b;
  /* the provider's ModifyPlan checks (local_command: the command exists) */
  ProvCall c = {a, d, NULL};
  ProvInvokeReq rq = {x->type, val_unmark_deep(a, cfg), true, NULL, NULL};
  Diag *mark = d->tail;
  invoker(ps)(ps->prov, &c, &rq);
  for (Diag *g = mark ? mark->next : d->head; g; g = g->next)
    if (!g->subject.file)
      g->subject = x->range;
  return !diag_has_errors(d);
}

/* The invocations instance in's change triggers, before (after = false)
** or after it. */
static void plan_triggers(Engine *e, Node *n, Inst *in, bool after,
                          Arena *a, Inv *l, Diags *d)
{
  PlAction act = in->change->action;
  bool create = act == PL_CREATE || act == PL_DELETE_THEN_CREATE ||
                act == PL_CREATE_THEN_DELETE;
  if (!create && act != PL_UPDATE)
    return;
  unsigned want = create ? (after ? CFG_EV_AFTER_CREATE
                                  : CFG_EV_BEFORE_CREATE)
                         : (after ? CFG_EV_AFTER_UPDATE
                                  : CFG_EV_BEFORE_UPDATE);
  const CfgResource *r = n->res;
  for (uint32_t ti = 0; ti < r->naction_triggers; ti++) {
    const CfgActionTrigger *t = &r->action_triggers[ti];
    if (!(t->events & want))
      continue;
    Scope sc;
    EvalCtx ctx;
    eng_inst_scope(&ctx, &sc, e, n, in, a, d);
    if (t->condition) {
      Value c;
      if (!eval_expr(&ctx, t->condition, &c))
        continue;
      c = val_unmark_deep(a, c);
      if (!c.type || c.type->kind != TY_BOOL || !val_is_known(c) ||
          val_is_null(c)) {
        diag_error(d, &t->condition->range, "Invalid condition result",
                   "The condition of an action_trigger must be a known "
                   "bool (true or false) during planning.");
        continue;
      }
      if (!c.u.b)
        continue;
    }
    for (uint32_t ai = 0; ai < t->nactions; ai++) {
      const CfgActionRef *ref = &t->actions[ai];
      const CfgAction *x = cfg_action(n->mod->t->m, ref->type, ref->name);
      if (!x)
        continue;   /* reported when the configuration was loaded */
      Value key = val_dynamic_null;
      bool has_key = ref->key_value || ref->key;
      if (ref->key_value)
        key = *ref->key_value;
      else if (ref->key && !eval_expr(&ctx, ref->key, &key))
        continue;
      StKey *keys;
      Rep *reps;
      uint32_t nk;
      if (!expand(e, n->mod, in->mi, x, a, d, &keys, &reps, &nk))
        continue;
      SrcRange rg = ref->range;
      uint32_t k = pick(a, x, keys, nk, has_key, val_unmark_deep(a, key),
                        &rg, d);
      if (k == UINT32_MAX)
        continue;
      PlInvoke *iv = push(a, l);
      if (!plan_one(e, n->mod, in->mi, x, keys, reps, k, n,
                    after ? in : NULL, a, d, iv)) {
        l->n--;
        continue;
      }
      iv->trigger = in->addr;
      iv->event = want;
      iv->trigger_index = ti;
      iv->action_index = ai;
    }
  }
}

/* -invoke=ADDR: root module actions, every instance unless keyed. */
static void plan_cli(Engine *e, const char *addr, Arena *a, Inv *l,
                     Diags *d)
{
  HclTraversal t;
  Diags q;
  diag_init(&q, a);
  bool ok = hcl_parse_traversal(a, "-invoke", addr, strlen(addr), &t, &q);
  if (ok && t.n >= 1 && strcmp(t.steps[0].name, "module") == 0) {
    diag_error(d, NULL, "Invalid action address",
               "cairn supports -invoke only for actions of the root module "
               "(docs/actions.md); got \"%s\".", addr);
    return;
  }
  if (!ok || t.n < 3 || t.n > 4 || strcmp(t.steps[0].name, "action") != 0 ||
      t.steps[1].kind != HCL_STEP_ATTR || t.steps[2].kind != HCL_STEP_ATTR ||
      (t.n == 4 && t.steps[3].kind != HCL_STEP_INDEX)) {
    diag_error(d, NULL, "Invalid action address",
               "The -invoke option needs an action address such as "
               "action.TYPE.NAME or action.TYPE.NAME[KEY]; got \"%s\".",
               addr);
    return;
  }
  const CfgAction *x = cfg_action(e->m, t.steps[1].name, t.steps[2].name);
  if (!x) {
    diag_error(d, NULL, "Action not found",
               "No action \"%s\" \"%s\" is declared in the root module.",
               t.steps[1].name, t.steps[2].name);
    return;
  }
  StKey *keys;
  Rep *reps;
  uint32_t nk;
  if (!e->root->nmi || !expand(e, e->root, 0, x, a, d, &keys, &reps, &nk))
    return;
  for (uint32_t k = 0; k < nk; k++) {
    if (t.n == 4) {
      bool rep = x->count || x->for_each;
      if (!rep || !key_match(keys[k], *t.steps[3].key))
        continue;
    }
    PlInvoke *iv = push(a, l);
    if (!plan_one(e, e->root, 0, x, keys, reps, k, NULL, NULL, a, d, iv))
      l->n--;
  }
  if (t.n == 4 && l->n == 0 && !diag_has_errors(d))
    diag_error(d, NULL, "Action not found",
               "The action address \"%s\" does not identify an instance of "
               "action.%s.%s.", addr, x->type, x->name);
}

/* Every action block of mod and below, in every module instance, is
** checked against its schema while planning, triggered or not (as
** Terraform validates them): a misspelt argument is an error even when
** nothing invokes the action this time. */
static void check_actions(Engine *e, const EMod *mod, Arena *a, Diags *d)
{
  const CfgModule *m = mod->t->m;
  for (uint32_t i = 0; i < m->nactions; i++) {
    const CfgAction *x = &m->actions[i];
    ProvSlot *ps;
    const ProvBlockSchema *b = action_schema(e, mod, x, &ps, d);
    if (!b)
      continue;
    for (uint32_t mi = 0; mi < mod->nmi; mi++) {
      StKey *keys;
      Rep *reps;
      uint32_t nk;
      if (!expand(e, mod, mi, x, a, d, &keys, &reps, &nk))
        break;
      Value cfg;
      for (uint32_t k = 0; k < nk; k++)
        if (!eval_config(e, mod, mi, &reps[k], x, b, NULL, NULL, a, d, &cfg))
          break;
    }
  }
  for (uint32_t i = 0; i < m->ncalls; i++)
    if (mod->children[i])
      check_actions(e, mod->children[i], a, d);
}

static bool has_actions(const CfgTree *t)
{
  if (t->m->nactions)
    return true;
  for (uint32_t i = 0; i < t->m->ncalls; i++)
    if (t->children[i] && has_actions(t->children[i]))
      return true;
  return false;
}

bool eng_plan_actions(Engine *e, Plan *p, Diags *d)
{
  if (e->o.mode == PL_MODE_NORMAL && has_actions(e->tree)) {
    check_actions(e, e->root, e->a, d);
    if (diag_has_errors(d))
      return false;
  }
  bool any = e->o.ninvoke > 0;
  for (uint32_t v = 0; v < e->nnodes && !any; v++)
    any = e->nodes[v].kind == N_RESOURCE && e->nodes[v].res &&
          e->nodes[v].res->naction_triggers;
  if (!any)
    return true;
  Arena *a = e->a;
  Inv l = {0};
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    if (n->kind != N_RESOURCE || !n->res || !n->res->naction_triggers ||
        n->untargeted || n->mode != ST_MANAGED)
      continue;
    for (uint32_t i = 0; i < n->ninst; i++) {
      Inst *in = &n->inst[i];
      if (!in->change || in->deposed || !in->in_config)
        continue;
      plan_triggers(e, n, in, false, a, &l, d);
      plan_triggers(e, n, in, true, a, &l, d);
    }
  }
  for (uint32_t i = 0; i < e->o.ninvoke; i++)
    plan_cli(e, e->o.invoke[i], a, &l, d);
  p->invokes = l.v;
  p->ninvokes = l.n;
  return !diag_has_errors(d);
}

/* ---- apply -------------------------------------------------------------- */

typedef struct Run {
  Engine *e;
  Inst *in;                 /* NULL: -invoke, events delivered at once */
  Arena *a;
  const PlInvoke *iv;
} Run;

static void event(Run *r, EngEventKind k, const char *text)
{
  EngEvent *ev = ARENA_NEW(r->a, EngEvent, 1);
  ev->kind = k;
  ev->addr = r->iv->addr;
  ev->trigger = r->iv->trigger;
  ev->invoke = r->iv;
  ev->change = r->in ? eng_find_change(r->e, r->in) : NULL;
  ev->text = text;
  if (!r->in) {
    if (r->e->o.event) {
      pthread_mutex_lock(&r->e->mu);
      r->e->o.event(r->e->o.event_ctx, ev);
      pthread_mutex_unlock(&r->e->mu);
    }
    return;
  }
  if (r->in->ev_tail)
    r->in->ev_tail->next = ev;
  else
    r->in->ev_head = ev;
  r->in->ev_tail = ev;
}

static void progress(void *ctx, const char *msg)
{
  Run *r = ctx;
  event(r, ENG_EV_ACTION_PROGRESS, arena_strndup(r->a, msg, strlen(msg)));
}

/* Invokes iv with configuration cfg; errors carry the action block. */
static bool invoke(Run *r, const CfgAction *x, Value cfg, Diags *d)
{
  Engine *e = r->e;
  const PlInvoke *iv = r->iv;
  ProvSlot *ps = slot_by_addr(e, iv->provider);
  if (!invoker(ps)) {
    diag_error(d, x ? &x->type_range : NULL, "Invalid action type",
               "The provider %s does not support action type \"%s\".",
               iv->provider_name, iv->type);
    return false;
  }
  if (!val_is_wholly_known(cfg)) {
    diag_error(d, x ? &x->range : NULL, "Action configuration unknown",
               "The configuration of %s is not known during apply: it "
               "refers to values that are not available yet.", iv->addr);
    return false;
  }
  event(r, ENG_EV_ACTION_START, NULL);
  ProvCall c = {r->a, d, NULL};
  ProvInvokeReq rq = {iv->type, val_unmark_deep(r->a, cfg), false, progress,
                      r};
  Diag *mark = d->tail;
  invoker(ps)(ps->prov, &c, &rq);
  const char *first = NULL;
  for (Diag *g = mark ? mark->next : d->head; g; g = g->next) {
    if (!g->subject.file && x)
      g->subject = x->range;
    if (!g->address)
      g->address = iv->addr;
    if (!first && g->severity == DIAG_ERROR)
      first = g->summary;
  }
  if (first) {
    event(r, ENG_EV_ACTION_ERRORED, first);
    return false;
  }
  event(r, ENG_EV_ACTION_DONE, NULL);
  return true;
}

bool eng_run_actions(Engine *e, Node *n, Inst *in, bool after, Arena *a,
                     Diags *d)
{
  const Plan *p = e->plan;
  const unsigned aft = CFG_EV_AFTER_CREATE | CFG_EV_AFTER_UPDATE;
  for (uint32_t i = 0; i < p->ninvokes; i++) {
    const PlInvoke *iv = &p->invokes[i];
    if (!iv->trigger || ((iv->event & aft) != 0) != after ||
        strcmp(iv->trigger, in->addr) != 0)
      continue;
    const CfgAction *x = cfg_action(n->mod->t->m, iv->type, iv->name);
    Value cfg = iv->config;
    if (x && !val_is_wholly_known(cfg)) {
      /* known now: evaluate again, as Terraform does at apply */
      StKey *keys;
      Rep *reps;
      uint32_t nk, k;
      if (!expand(e, n->mod, in->mi, x, a, d, &keys, &reps, &nk))
        return false;
      for (k = 0; k < nk && !st_key_equal(keys[k], iv->key); k++)
        ;
      if (k == nk || !eval_config(e, n->mod, in->mi, &reps[k], x,
                                  iv->schema, n, after ? in : NULL, a, d,
                                  &cfg))
        return false;
    }
    Run r = {e, in, a, iv};
    if (!invoke(&r, x, cfg, d))
      return false;
  }
  return true;
}

bool eng_run_cli_actions(Engine *e, Plan *p, Diags *d)
{
  bool ok = true;
  for (uint32_t i = 0; i < p->ninvokes && ok; i++) {
    const PlInvoke *iv = &p->invokes[i];
    if (iv->trigger)
      continue;
    Run r = {e, NULL, e->a, iv};
    ok = invoke(&r, cfg_action(e->m, iv->type, iv->name), iv->config, d);
  }
  return ok;
}
