/*
** eval_priv: private to the eval module (core/lang/eval*.c).  Shared
** helpers for diagnostics, scopes and conversion, and the evaluators of
** the expression kinds that live outside eval.c (which dispatches).
** Nothing outside core/lang/eval*.c includes this header.
*/
#ifndef CAIRN_EVAL_PRIV_H
#define CAIRN_EVAL_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "base/convert.h"
#include "eval.h"

/* A local symbol: a for-expression variable (name) or a splat's
** anonymous item (anon).  Scopes are pushed on the C stack. */
struct EvalScope {
  EvalScope *parent;
  const char *name;
  const HclExpr *anon;
  Value val;
};

/* Appends an error with subject and context (either may be NULL). */
Diag *eval_err(EvalCtx *c, const SrcRange *subject, const SrcRange *context,
               const char *summary, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* cty's unsafe convert.Convert; *msg gets cty's message on failure. */
bool eval_conv(EvalCtx *c, Value v, const Type *t, Value *out,
               const char **msg);

/* The function call expression (core/lang/eval_call.c). */
bool eval_call(EvalCtx *c, const HclExpr *e, Value *out);

/* Evaluates e with diagnostics going to *d instead of ctx->diags. */
bool eval_expr_into(EvalCtx *c, const HclExpr *e, Value *out, Diags *d);

/* hcl.Range.String(): "file:1,2-5" or "file:1,2-3,4". */
void eval_range_string(Buf *b, const SrcRange *r);
/* hcl.Diagnostics.Error() of the errors in d. */
void eval_diags_error(Buf *b, const Diags *d);

/* Start range of an expression (HCL's StartRange) for call arguments. */
SrcRange eval_start_range(const HclExpr *e);

/* Unknown of dynamic type: the result of an operation on unknowns. */
static inline Value eval_dyn(void) { return val_dynamic_unknown; }

/* The marks of v (sensitive, ephemeral), to carry over to a result. */
static inline uint16_t eval_smark(Value v)
{
  return (uint16_t)(v.flags & VF_MARKS);
}

/* Number of elements of a collection or tuple, attributes of an object. */
uint32_t eval_count_of(Value v);

/* ty_friendly(t) as a string in c's arena ("list of string"). */
const char *eval_friendly(EvalCtx *c, const Type *t);

/* Operators (core/lang/eval_op.c). */
bool eval_binary(EvalCtx *c, const HclExpr *e, Value *out);
bool eval_unary(EvalCtx *c, const HclExpr *e, Value *out);

/* For expressions, splats and the splat's anonymous item
** (core/lang/eval_for.c). */
bool eval_for(EvalCtx *c, const HclExpr *e, Value *out);
bool eval_splat(EvalCtx *c, const HclExpr *e, Value *out);
bool eval_anon(EvalCtx *c, const HclExpr *e, Value *out);

#endif
