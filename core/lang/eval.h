/*
** eval: the expression evaluator of the configuration language (HCL's
** hclsyntax expression semantics as Terraform uses them), type constraint
** expressions (Terraform's typeexpr), Terraform references, and the
** `terraform console` value rendering.  Owned by the eval module; see
** docs/eval.md.
**
** Contracts:
** - eval_expr() never fails hard: it always sets *out (the dynamic unknown
**   after an error, as HCL does) and appends HCL's diagnostics, with
**   Terraform's summaries, details and subject ranges, to ctx->diags.  It
**   returns false when it added an error.
** - Root names are resolved, in this order, by the local symbols of the
**   enclosing `for` expressions, by the EvalVar table (ctx->vars), then by
**   the resolve callback, which receives the whole absolute traversal and
**   says how many leading steps it consumed (var.x -> 2,
**   aws_instance.foo -> 2, each -> 1 ...).  The remaining steps are applied
**   with HCL's GetAttr/Index rules (eval_get_attr / eval_index).
** - Sensitive marks propagate as Terraform does: through operators,
**   attribute/index access, templates, for/splat collections and function
**   calls.  Unknown values propagate with the right result type.
** - Memory: results and diagnostics live in ctx->arena / ctx->diags'
**   arena; the expression tree is only read (it may be shared between
**   threads, each thread with its own EvalCtx).
** - Recursion is bounded: nesting beyond HCL_MAX_DEPTH gives "Nesting too
**   deep"; templatefile/templatestring cannot call themselves.
*/
#ifndef CAIRN_EVAL_H
#define CAIRN_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/value.h"
#include "funcs.h"
#include "hcl.h"

typedef struct EvalCtx EvalCtx;

/* What a resolve callback did with a traversal. */
typedef enum EvalResolveResult {
  EVAL_RES_OK,          /* *out set, *consumed steps used (>= 1) */
  EVAL_RES_UNKNOWN,     /* the root name is not known here: the evaluator
                           reports HCL's "Unknown variable" */
  EVAL_RES_ERROR        /* the callback added its own error diagnostics */
} EvalResolveResult;

/* Resolves the longest prefix of an absolute traversal it understands.
** *consumed must be between 1 and trav->n on EVAL_RES_OK. */
typedef EvalResolveResult (*EvalResolveFn)(EvalCtx *ctx,
                                           const HclTraversal *trav,
                                           uint32_t *consumed, Value *out);

/* Provider-defined functions (provider::NAME::FUNC): the hook resolves
** the called name to a definition the evaluator then runs like a built-in
** (arity, conversion, null and unknown checks, marks: fn_call), or
** returns NULL.  On NULL it sets *failed when it added an error of its
** own (a provider that could not be asked), and otherwise *has_funcs when
** the provider NAME offers other functions; the evaluator then reports
** Terraform's "Unknown provider function" with the fitting detail.  The
** definition must stay valid as long as the evaluation's results.  Called
** from any thread.  Without a hook, provider::terraform:: names the
** built-in table's functions and every other namespaced name is HCL's
** "Call to unknown function". */
typedef const FnDef *(*EvalProviderFnHook)(EvalCtx *ctx, const HclExpr *call,
                                           bool *has_funcs, bool *failed);

/* A root variable of the simple symbol table. */
typedef struct EvalVar {
  const char *name;
  Value val;
} EvalVar;

typedef struct EvalScope EvalScope;   /* private: for/splat symbols */

struct EvalCtx {
  Arena *arena;              /* results */
  Diags *diags;              /* diagnostics are appended here */
  const EvalVar *vars;       /* root variables, searched linearly */
  uint32_t nvars;
  EvalResolveFn resolve;     /* may be NULL */
  void *resolve_data;        /* for the callback */
  bool no_vars;              /* "Variables not allowed" (constants only) */
  bool no_funcs;             /* "Function calls not allowed" */
  FnCall fn;                 /* settings copied into every function call:
                                base_dir, pure_only, console, plan time,
                                in_template (arena/hook are set by eval) */
  EvalProviderFnHook provider_fn;  /* NULL: no provider functions */
  void *provider_fn_data;
  /* private */
  EvalScope *scope;
  uint32_t depth;
  bool no_fs;                /* inside templatestring */
};

/* Zeroes ctx and sets arena and diags. */
void eval_ctx_init(EvalCtx *ctx, Arena *a, Diags *d);

/* Evaluates e.  See the contracts above. */
bool eval_expr(EvalCtx *ctx, const HclExpr *e, Value *out);

/* HCL's hcl.GetAttr / hcl.Index on values, with HCL's errors attached to
** `where` (may be NULL).  On error *out is the dynamic unknown. */
bool eval_get_attr(EvalCtx *ctx, Value v, const char *name,
                   const SrcRange *where, Value *out);
bool eval_index(EvalCtx *ctx, Value coll, Value key, const SrcRange *where,
                Value *out);
/* Applies steps[0..n) of a traversal to v (relative traversal). */
bool eval_traverse(EvalCtx *ctx, Value v, const HclStep *steps, uint32_t n,
                   Value *out);

/* Renders a template source (templatefile/templatestring) with the
** variables of `vars` (object or map) and nothing else.  Errors are
** returned as Terraform's function errors in c->err (this is the
** FnCall.render_template hook; the evaluator installs it itself). */
bool eval_render_template(FnCall *c, const char *name, const char *src,
                          size_t n, Value vars, Value *out);

/* ---- Type constraints --------------------------------------------------- */

/* Terraform's variable type constraint: typeexpr.TypeConstraint with
** defaults (optional(T, default)), plus Terraform's bare `list`/`map`
** (= list(any)/map(any)) and the legacy quoted forms as errors.  The
** resulting object types carry their optional flags and converted
** defaults (Type.optional / Type.defaults).  On error *out is dynamic. */
bool eval_type_constraint(Arena *a, const HclExpr *e, const Type **out,
                          Diags *d);
/* typeexpr.Type: an exact type (no `any`, no optional). */
bool eval_type_exact(Arena *a, const HclExpr *e, const Type **out, Diags *d);

/* ---- References --------------------------------------------------------- */

typedef enum EvalRefKind {
  EVAL_REF_VAR,         /* var.NAME */
  EVAL_REF_LOCAL,       /* local.NAME */
  EVAL_REF_MODULE,      /* module.NAME (has_key: module.NAME[KEY]) */
  EVAL_REF_MODULE_OUT,  /* module.NAME[KEY].OUTPUT (attr = OUTPUT) */
  EVAL_REF_RESOURCE,    /* TYPE.NAME[KEY] (managed) */
  EVAL_REF_DATA,        /* data.TYPE.NAME[KEY] */
  EVAL_REF_EPHEMERAL,   /* ephemeral.TYPE.NAME[KEY] */
  EVAL_REF_COUNT,       /* count.ATTR */
  EVAL_REF_EACH,        /* each.ATTR */
  EVAL_REF_PATH,        /* path.ATTR */
  EVAL_REF_TERRAFORM,   /* terraform.ATTR */
  EVAL_REF_SELF         /* self */
} EvalRefKind;

/* addrs.Reference: the referenced object, its source range, and the
** steps after it. */
typedef struct EvalRef {
  EvalRefKind kind;
  const char *type;        /* RESOURCE/DATA/EPHEMERAL: resource type */
  const char *name;        /* variable, local, module call or resource
                              name; attribute for COUNT/EACH/PATH/
                              TERRAFORM */
  const char *attr;        /* MODULE_OUT: the output name */
  bool has_key;            /* an instance key follows */
  Value key;               /* string or whole number */
  const HclStep *rest;     /* remaining steps (Reference.Remaining) */
  uint32_t nrest;
  uint32_t consumed;       /* steps of the traversal used by the subject */
  SrcRange range;          /* Reference.SourceRange */
} EvalRef;

/* addrs.ParseRef: false with Terraform's diagnostic ("Invalid reference",
** "Invalid index key", "Reserved symbol name") on a malformed one. */
bool eval_parse_ref(const HclTraversal *t, EvalRef *out, Diags *d);
/* Reference.DisplayString-like text of the subject: var.x, module.m.out,
** aws_instance.a[0], data.t.n["k"]. */
void eval_ref_string(Buf *out, const EvalRef *r);

/* ---- Console rendering --------------------------------------------------- */

/* `terraform console` (repl.FormatValue): quoted strings, heredocs for
** multi-line strings, tolist([...]), toset([...]), tomap({...}), objects
** and tuples, null forms like tostring(null), "(known after apply)" and
** "(sensitive value)".  indent is the current indentation. */
void eval_format_value(Buf *out, Value v, int indent);

#endif
