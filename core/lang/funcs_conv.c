/*
** funcs_conv: the funcs module's view of cty conversion and unification,
** delegating to core/base/convert (unsafe conversion, as HCL uses for
** function arguments).
*/
#include "base/convert.h"
#include "funcs_impl.h"

bool fn_convert(Arena *a, Value v, const Type *want, Value *out,
                const char **msg)
{
  ConvError e = {0};
  *msg = NULL;
  if (conv_convert(a, v, want, true, out, &e))
    return true;
  *msg = e.msg ? e.msg : "conversion failed";
  return false;
}

const Type *fn_unify(Arena *a, const Type *const *ts, uint32_t n,
                     bool unsafe)
{
  return conv_unify(a, ts, n, unsafe);
}

bool fn_unify_vals(Arena *a, Value *vals, uint32_t n, const Type **ty,
                   const char **msg)
{
  *msg = NULL;
  if (n == 0) {
    *ty = &ty_dynamic;
    return true;
  }
  const Type **ts = ARENA_NEW(a, const Type *, n);
  for (uint32_t i = 0; i < n; i++)
    ts[i] = vals[i].type;
  const Type *u = conv_unify(a, ts, n, false);
  if (!u) {
    *msg = "all arguments must have the same type";
    return false;
  }
  for (uint32_t i = 0; i < n; i++)
    if (!fn_convert(a, vals[i], u, &vals[i], msg))
      return false;
  *ty = u;
  return true;
}
