/*
** engine_scope: resolving references.  The evaluation context of an
** expression in one module instance (and resource instance): var, local,
** module, resource and data references, count, each, path and terraform.
*/
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine_priv.h"

/* The node named prefix+name, or false. */
/* The node named by the concatenation of parts[0..n), cut at 1,023 bytes
** as snprintf into the key buffer cut it.  Without printf: a reference
** to a resource is resolved once per referring instance. */
static bool find_node_parts(const Engine *e, const char *const *parts,
                            int n, uint32_t *idx)
{
  char key[1024];
  size_t len = 0;
  for (int i = 0; i < n; i++) {
    size_t k = strlen(parts[i]);
    if (k > sizeof key - 1 - len)
      k = sizeof key - 1 - len;
    memcpy(key + len, parts[i], k);
    len += k;
  }
  key[len] = 0;
  return eng_map_get(&e->by_name, key, idx);
}

bool eng_find_node(const Engine *e, const EMod *mod, const char *name,
                   uint32_t *idx)
{
  const char *parts[2] = {mod->prefix, name};
  return find_node_parts(e, parts, 2, idx);
}

static Value node_val(const Node *n, uint32_t mi)
{
  if (!n->vals || mi == UINT32_MAX || !n->vals[mi].type)
    return val_dynamic_unknown;
  return n->vals[mi];
}

/* The object of a module instance's outputs. */
static Value module_object(Engine *e, Arena *a, const Node *call, uint32_t cmi)
{
  const CfgModule *cm = call->child->t->m;
  const char **names = ARENA_NEW(a, const char *, cm->noutputs + 1);
  Value *vals = ARENA_NEW(a, Value, cm->noutputs + 1);
  for (uint32_t i = 0; i < cm->noutputs; i++) {
    uint32_t u;
    names[i] = cm->outputs[i].name;
    vals[i] = eng_find_node(e, call->child,
                            arena_printf(a, "output.%s", names[i]), &u)
                  ? node_val(&e->nodes[u], cmi)
                  : val_dynamic_unknown;
  }
  return val_object(a, cm->noutputs, names, vals);
}

/* module.NAME (whole, or one key), or module.NAME[KEY].OUT. */
static EvalResolveResult resolve_module(EvalCtx *ctx, Scope *s,
                                        const EvalRef *r, uint32_t *consumed,
                                        Value *out)
{
  Engine *e = s->e;
  uint32_t idx;
  if (!eng_find_node(e, s->mod, arena_printf(ctx->arena, "module.%s", r->name),
                     &idx)) {
    diag_error(ctx->diags, &r->range, "Reference to undeclared module",
               "No module call named \"%s\" is declared in %s.", r->name,
               s->mod->t->path[0] ? s->mod->t->path : "the root module");
    return EVAL_RES_ERROR;
  }
  const Node *call = &e->nodes[idx];
  const EMod *ch = call->child;
  const CfgModuleCall *mc = ch->t->call;
  int rep = mc->count ? 1 : mc->for_each ? 2 : 0;
  if (!ch->child_start) {   /* expansion failed */
    *out = val_dynamic_unknown;
    *consumed = r->consumed;
    return EVAL_RES_OK;
  }
  uint32_t lo = ch->child_start[s->mi], hi = ch->child_start[s->mi + 1];
  if (r->has_key || rep == 0) {
    uint32_t cmi = UINT32_MAX;
    if (rep == 0) {
      if (r->has_key) {
        diag_error(ctx->diags, &r->range, "Invalid index",
                   "Module \"%s\" does not have count or for_each set, so "
                   "it cannot be indexed.", r->name);
        return EVAL_RES_ERROR;
      }
      if (lo < hi)
        cmi = lo;
    } else {
      for (uint32_t i = lo; i < hi && cmi == UINT32_MAX; i++) {
        StKey k = ch->mi[i].key;
        if (rep == 1 && r->key.type->kind == TY_NUMBER) {
          int64_t want;
          if (val_num_int(r->key, &want) && k.kind == ST_INTKEY &&
              k.i == want)
            cmi = i;
        } else if (rep == 2 && r->key.type->kind == TY_STRING &&
                   k.kind == ST_STRKEY && strcmp(k.s, r->key.u.s) == 0) {
          cmi = i;
        }
      }
      if (cmi == UINT32_MAX) {
        diag_error(ctx->diags, &r->range, "Invalid index",
                   "The given key does not identify an element in this "
                   "collection value.");
        return EVAL_RES_ERROR;
      }
    }
    if (cmi == UINT32_MAX) {
      *out = val_dynamic_unknown;
    } else if (r->kind == EVAL_REF_MODULE_OUT) {
      uint32_t u;
      if (!eng_find_node(e, ch, arena_printf(ctx->arena, "output.%s", r->attr),
                         &u)) {
        diag_error(ctx->diags, &r->range, "Unsupported attribute",
                   "This object does not have an attribute named \"%s\".",
                   r->attr);
        return EVAL_RES_ERROR;
      }
      *out = node_val(&e->nodes[u], cmi);
    } else {
      *out = module_object(e, ctx->arena, call, cmi);
    }
    *consumed = r->consumed;
    return EVAL_RES_OK;
  }
  /* the whole call: a tuple (count) or an object by key (for_each) */
  uint32_t n = hi - lo;
  Value *vals = ARENA_NEW(ctx->arena, Value, n + 1);
  const char **names = ARENA_NEW(ctx->arena, const char *, n + 1);
  for (uint32_t i = 0; i < n; i++) {
    vals[i] = module_object(e, ctx->arena, call, lo + i);
    names[i] = ch->mi[lo + i].key.s;
  }
  *out = rep == 1 ? val_tuple(ctx->arena, vals, n)
                  : val_object(ctx->arena, n, names, vals);
  /* module.NAME.OUT on a repeated module: let the evaluator report the
  ** attribute access on a tuple/object of objects */
  *consumed = r->kind == EVAL_REF_MODULE_OUT ? r->consumed - 1 : r->consumed;
  return EVAL_RES_OK;
}

static EvalResolveResult resolve(EvalCtx *ctx, const HclTraversal *t,
                                 uint32_t *consumed, Value *out)
{
  Scope *s = ctx->resolve_data;
  Engine *e = s->e;
  EvalRef r;
  if (!eval_parse_ref(t, &r, ctx->diags))
    return EVAL_RES_ERROR;
  uint32_t idx;
  switch (r.kind) {
  case EVAL_REF_VAR:
    if (!s->mod->parent) {
      for (uint32_t i = 0; i < e->m->nvariables; i++)
        if (strcmp(e->m->variables[i].name, r.name) == 0) {
          *out = e->varvals[i];
          *consumed = 2;
          return EVAL_RES_OK;
        }
    } else if (eng_find_node(e, s->mod, arena_printf(ctx->arena, "var.%s",
                                                     r.name), &idx)) {
      *out = node_val(&e->nodes[idx], s->mi);
      *consumed = 2;
      return EVAL_RES_OK;
    }
    diag_error(ctx->diags, &r.range, "Reference to undeclared input variable",
               "An input variable with the name \"%s\" has not been "
               "declared. This variable can be declared with a variable "
               "\"%s\" {} block.", r.name, r.name);
    return EVAL_RES_ERROR;
  case EVAL_REF_LOCAL:
    if (!eng_find_node(e, s->mod, arena_printf(ctx->arena, "local.%s", r.name),
                       &idx)) {
      diag_error(ctx->diags, &r.range, "Reference to undeclared local value",
                 "A local value with the name \"%s\" has not been declared.",
                 r.name);
      return EVAL_RES_ERROR;
    }
    *out = node_val(&e->nodes[idx], s->mi);
    *consumed = 2;
    return EVAL_RES_OK;
  case EVAL_REF_MODULE:
  case EVAL_REF_MODULE_OUT:
    return resolve_module(ctx, s, &r, consumed, out);
  case EVAL_REF_RESOURCE:
  case EVAL_REF_DATA:
  case EVAL_REF_EPHEMERAL: {
    bool eph = r.kind == EVAL_REF_EPHEMERAL;
    const char *parts[5] = {s->mod->prefix,
                            r.kind == EVAL_REF_DATA ? "data."
                            : eph                   ? "ephemeral."
                                                    : "",
                            r.type, ".", r.name};
    if (!find_node_parts(e, parts, 5, &idx) ||
        e->nodes[idx].kind != (eph ? N_EPHEMERAL : N_RESOURCE)) {
      if (r.kind == EVAL_REF_RESOURCE && strcmp(r.type, "action") == 0) {
        diag_error(ctx->diags, &r.range, "Invalid reference to an action",
                   "An action can be referenced only in the actions "
                   "argument of a resource's action_trigger block "
                   "(docs/actions.md).");
        return EVAL_RES_ERROR;
      }
      diag_error(ctx->diags, &r.range, "Reference to undeclared resource",
                 "%s resource \"%s\" \"%s\" has not been declared in %s.",
                 r.kind == EVAL_REF_DATA ? "A data"
                 : eph                   ? "An ephemeral"
                                         : "A managed",
                 r.type, r.name,
                 s->mod->parent ? s->mod->t->path : "the root module");
      return EVAL_RES_ERROR;
    }
    if (eph)
      eng_renew_ephemeral(e, &e->nodes[idx], ctx->diags);
    *out = node_val(&e->nodes[idx], s->mi);
    *consumed = r.kind == EVAL_REF_RESOURCE ? 2 : 3;
    return EVAL_RES_OK;
  }
  case EVAL_REF_COUNT:
    if (!s->rep || !s->rep->has_count) {
      diag_error(ctx->diags, &r.range,
                 "Reference to \"count\" in non-counted context",
                 "The \"count\" object can only be used in \"module\", "
                 "\"resource\", and \"data\" blocks, and only when the "
                 "\"count\" argument is set.");
      return EVAL_RES_ERROR;
    }
    *out = val_int(s->rep->count_index);
    *consumed = 2;
    return EVAL_RES_OK;
  case EVAL_REF_EACH:
    if (!s->rep || !s->rep->has_each) {
      diag_error(ctx->diags, &r.range,
                 "Reference to \"each\" in context without for_each",
                 "The \"each\" object can be used only in \"module\" or "
                 "\"resource\" blocks, and only when the \"for_each\" "
                 "argument is set.");
      return EVAL_RES_ERROR;
    }
    *out = strcmp(r.name, "key") == 0 ? s->rep->each_key
                                      : s->rep->each_value;
    *consumed = 2;
    return EVAL_RES_OK;
  case EVAL_REF_PATH:
    if (strcmp(r.name, "cwd") == 0)
      *out = val_cstr(ctx->arena, e->cwd);
    else if (strcmp(r.name, "module") == 0)
      *out = val_cstr(ctx->arena, s->mod->t->m->dir);
    else
      *out = val_cstr(ctx->arena, e->o.root_dir ? e->o.root_dir : ".");
    *consumed = 2;
    return EVAL_RES_OK;
  case EVAL_REF_TERRAFORM:
    *out = val_cstr(ctx->arena, e->o.workspace ? e->o.workspace : "default");
    *consumed = 2;
    return EVAL_RES_OK;
  default:
    diag_error(ctx->diags, &r.range, "Unsupported reference",
               "This kind of reference is not supported by cairn yet "
               "(self is available only in provisioners and "
               "postconditions).");
    return EVAL_RES_ERROR;
  }
}

void eng_scope_ctx(EvalCtx *ctx, Scope *s, Engine *e, const Node *n,
                   const EMod *mod, uint32_t mi, const Rep *rep, Arena *a,
                   Diags *d)
{
  eval_ctx_init(ctx, a, d);
  s->e = e;
  s->n = n;
  s->mod = mod;
  s->mi = mi;
  s->rep = rep;
  ctx->resolve = resolve;
  ctx->resolve_data = s;
  ctx->provider_fn = eng_provider_fn;
  ctx->provider_fn_data = s;
  ctx->fn.base_dir = e->o.root_dir ? e->o.root_dir : ".";
  /* Terraform evaluates impure functions (timestamp, uuid, bcrypt) only
  ** while applying (its scope's PureOnly outside the apply walk): during
  ** plan they are unknown, shown as (known after apply). */
  ctx->fn.pure_only = e->phase != PH_APPLY;
  if (e->plan && e->plan->timestamp) {
    ctx->fn.has_plan_time = true;
    if (e->has_plan_time)
      ctx->fn.plan_time_sec = e->plan_time_sec;
  }
}

void eng_set_plan(Engine *e, Plan *p)
{
  e->plan = p;
  e->has_plan_time = false;
  e->plan_time_sec = 0;
  if (p && p->timestamp) {
    struct tm tm = {0};
    if (strptime(p->timestamp, "%Y-%m-%dT%H:%M:%SZ", &tm)) {
      e->has_plan_time = true;
      e->plan_time_sec = (int64_t)timegm(&tm);
    }
  }
}

/* The scope of a resource instance. */
void eng_inst_scope(EvalCtx *ctx, Scope *s, Engine *e, const Node *n,
                    const Inst *in, Arena *a, Diags *d)
{
  eng_scope_ctx(ctx, s, e, n, n->mod, in->mi, &in->rep, a, d);
}
