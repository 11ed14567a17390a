/*
** provider_fn: a provider's functions as definitions the evaluator runs
** like built-ins (lang/funcs.h FnDef), calling the provider through
** CallFunction.  Mirrors Terraform's providers.FunctionDecl.BuildFunction:
** cty's function machinery (fn_call) converts the arguments to the
** parameter types, refuses nulls where the parameter does not allow them,
** removes sensitive marks before the call and puts them on the result;
** this file adds what Terraform adds on top: an argument with an unknown
** anywhere inside, for a parameter without allow_unknown_values, makes the
** result unknown without a call, and the provider's answer becomes the
** function's error (with the argument index, if it named one).
*/
#include "provider.h"

#include "base/convert.h"

#include <string.h>

static const ProvFuncParam *param_at(const ProvFunction *f, uint32_t i)
{
  return i < f->nparams ? &f->params[i] : f->variadic;
}

static bool call_impl(FnCall *c, const Value *args, uint32_t nargs,
                      Value *out)
{
  const ProvFnDef *d = (const ProvFnDef *)c->def;
  const ProvFunction *f = d->f;
  const Type *ret = f->return_type ? f->return_type : &ty_dynamic;
  /* fn_call only catches a top-level unknown; Terraform promises
  ** providers wholly known values unless they opt in. */
  for (uint32_t i = 0; i < nargs; i++) {
    const ProvFuncParam *pp = param_at(f, i);
    if (pp && !pp->allow_unknown_values && !val_is_wholly_known(args[i])) {
      *out = val_unknown(ret);
      return true;
    }
  }
  Diags dg;
  diag_init(&dg, c->arena);
  ProvCall pc = {c->arena, &dg, NULL};
  ProvCallFuncReq req = {f->name, args, nargs};
  ProvCallFuncResp resp;
  prov_call_function(d->p, &pc, &req, &resp);
  for (const Diag *g = dg.head; g; g = g->next)
    if (g->severity == DIAG_ERROR)
      return fn_error(c, "%s%s%s", g->summary,
                      g->detail && *g->detail ? ": " : "",
                      g->detail ? g->detail : "");
  if (resp.error) {
    if (resp.error_arg >= 0 && (uint64_t)resp.error_arg < nargs)
      return fn_arg_error(c, (int)resp.error_arg, "%s", resp.error);
    return fn_error(c, "%s", resp.error);
  }
  if (!resp.result.type)
    return fn_error(c, "provider returned no result and no errors");
  Value v = resp.result;
  if (ret->kind != TY_DYNAMIC && !ty_equal(v.type, ret)) {
    /* A remote answer decoded without the type, or a misbehaving
    ** provider: never hand the evaluator a value of another type. */
    ConvError ce;
    if (!conv_convert(c->arena, v, ret, false, &v, &ce)) {
      Buf b;
      buf_init(&b, c->arena);
      ty_friendly(&b, resp.result.type);
      buf_puts(&b, " where the function declares ");
      ty_friendly(&b, ret);
      return fn_error(c, "provider returned a %s", buf_str(&b));
    }
  }
  *out = v;
  return true;
}

static FnParam fn_param(const ProvFuncParam *p)
{
  FnParam q = {p->name, p->type ? p->type : &ty_dynamic, 0};
  if (p->allow_null_value)
    q.flags |= FP_NULL;
  if (p->allow_unknown_values)
    q.flags |= FP_UNKNOWN;
  /* a null literal is dynamically typed: a dynamic parameter must let it
  ** through (Terraform's AllowDynamicType for DynamicPseudoType) */
  if (q.type->kind == TY_DYNAMIC)
    q.flags |= FP_DYNAMIC;
  return q;
}

const FnDef *prov_fn_def(Arena *a, const char *full_name,
                         const ProvFunction *f, Prov *p)
{
  ProvFnDef *d = ARENA_NEW(a, ProvFnDef, 1);
  d->f = f;
  d->p = p;
  d->def.name = arena_strdup(a, full_name);
  uint32_t np = f->nparams > 255 ? 255 : f->nparams;
  FnParam *ps = ARENA_NEW(a, FnParam, np ? np : 1);
  for (uint32_t i = 0; i < np; i++)
    ps[i] = fn_param(&f->params[i]);
  d->def.params = ps;
  d->def.nparams = (uint8_t)np;
  if (f->variadic) {
    FnParam *vp = ARENA_NEW(a, FnParam, 1);
    *vp = fn_param(f->variadic);
    d->def.varparam = vp;
  }
  d->def.ret = f->return_type ? f->return_type : &ty_dynamic;
  d->def.impl = call_impl;
  return &d->def;
}
