/*
** eval_call: function call expressions (hclsyntax FunctionCallExpr as
** Terraform configures it), the try/can special forms (HCL's tryfunc),
** and the template renderer behind templatefile/templatestring
** (Terraform's lang/funcs template functions).
*/
#include <string.h>

#include "eval_priv.h"

static const char *plain_name(const char *name)
{
  return strncmp(name, "core::", 6) == 0 ? name + 6 : name;
}

static void unknown_function(EvalCtx *c, const HclExpr *e)
{
  const char *name = e->u.call.name;
  const char *sug = NULL;
  if (e->u.call.nparts <= 1) {
    uint32_t n = 0;
    const FnDef *tab = fn_table_get(&n);
    const char **names = ARENA_NEW(c->arena, const char *, n ? n : 1);
    for (uint32_t i = 0; i < n; i++)
      names[i] = tab[i].name;
    sug = hcl_name_suggestion(name, names, n);
  }
  if (sug)
    eval_err(c, &e->u.call.name_range, &e->range, "Call to unknown function",
             "There is no function named \"%s\". Did you mean \"%s\"?", name,
             sug);
  else
    eval_err(c, &e->u.call.name_range, &e->range, "Call to unknown function",
             "There is no function named \"%s\".", name);
}

/* Terraform's rewrite of HCL's unknown-function error for namespaced
** names in its own scopes (lang's checkForUnknownFunctionDiags). */
static void unknown_provider_function(EvalCtx *c, const HclExpr *e,
                                      bool has_funcs)
{
  const char *name = e->u.call.name, *base = e->u.call.base;
  size_t nslen = (size_t)(base - name);     /* "provider::aws::" */
  const char *sep = strstr(name, "::");
  size_t p0 = sep ? (size_t)(sep - name) : 0;
  const char *p1 = sep ? sep + 2 : "";
  const char *p1end = strstr(p1, "::");
  size_t p1len = p1end ? (size_t)(p1end - p1) : 0;
  const char *s = "Unknown provider function";
  if (p0 != 8 || strncmp(name, "provider", 8) != 0)
    eval_err(c, &e->u.call.name_range, &e->range, s,
             "The function namespace \"%.*s\" is not valid. Provider "
             "function calls must use the \"provider::\" namespace prefix.",
             (int)p0, name);
  else if (p1len == 0)
    eval_err(c, &e->u.call.name_range, &e->range, s,
             "The function call must include the provider name after the "
             "\"provider::\" prefix.");
  else if (has_funcs)
    eval_err(c, &e->u.call.name_range, &e->range, s,
             "The function \"%s\" is not available from the provider "
             "\"%.*s\".", base, (int)p1len, p1);
  else
    eval_err(c, &e->u.call.name_range, &e->range, s,
             "There is no function named \"%.*s%s\". Ensure that provider "
             "name \"%.*s\" is declared in this module's required_providers "
             "block, and that this provider offers a function named \"%s\".",
             (int)nslen, name, base, (int)p1len, p1, base);
}

static SrcRange call_start(const HclExpr *e)
{
  return diag_range_join(e->u.call.name_range, e->u.call.open_range);
}

/* ---- try / can ------------------------------------------------------------ */

static bool eval_try_can(EvalCtx *c, const HclExpr *e, bool is_can,
                         Value *out)
{
  uint32_t n = e->u.call.nargs;
  SrcRange start = call_start(e);
  *out = val_dynamic_unknown;
  if (is_can && n < 1) {
    eval_err(c, &e->u.call.close_range, &e->range,
             "Not enough function arguments",
             "Function \"%s\" expects 1 argument(s). Missing value for "
             "\"expression\".", e->u.call.name);
    return false;
  }
  if (is_can && n > 1) {
    SrcRange r = eval_start_range(e->u.call.args[1]);
    eval_err(c, &r, &e->range, "Too many function arguments",
             "Function \"%s\" expects only 1 argument(s).", e->u.call.name);
    return false;
  }
  if (n == 0) {
    eval_err(c, &start, &e->range, "Error in function call",
             "Call to function \"%s\" failed: at least one argument is "
             "required.", e->u.call.name);
    return false;
  }
  Diags all;
  diag_init(&all, c->diags->arena);
  for (uint32_t i = 0; i < n; i++) {
    Diags d;
    diag_init(&d, c->diags->arena);
    Value v;
    eval_expr_into(c, e->u.call.args[i], &v, &d);
    if (diag_has_errors(&d)) {
      diag_move(&all, &d);
      continue;
    }
    if (!val_is_wholly_known(v)) {
      /* A later refinement could still make it fail. */
      *out = is_can ? val_unknown(&ty_bool) : val_dynamic_unknown;
      return true;
    }
    *out = is_can ? val_true : v;
    return true;
  }
  if (is_can) {
    *out = val_false;
    return true;
  }
  Buf b;
  buf_init(&b, c->arena);
  buf_puts(&b, "no expression succeeded:\n");
  for (const Diag *g = all.head; g; g = g->next) {
    if (g->severity != DIAG_ERROR)
      continue;
    if (g->subject.file) {
      buf_printf(&b, "- %s (at ", g->summary);
      eval_range_string(&b, &g->subject);
      buf_printf(&b, ")\n  %s\n", g->detail ? g->detail : "");
    } else {
      buf_printf(&b, "- %s\n  %s\n", g->summary, g->detail ? g->detail : "");
    }
  }
  buf_puts(&b, "\nAt least one expression must produce a successful result");
  eval_err(c, &start, &e->range, "Error in function call",
           "Call to function \"%s\" failed: %s.", e->u.call.name,
           buf_str(&b));
  return false;
}

/* ---- Ordinary calls -------------------------------------------------------- */

typedef struct ArgList {
  Value *vals;
  SrcRange *ranges;     /* subject for argument errors */
  uint32_t n;
} ArgList;

/* Evaluates the arguments with `...` expansion.  False (after errors or
** an unknown expansion, *unknown set) when the call cannot proceed. */
static bool eval_args(EvalCtx *c, const HclExpr *e, const FnDef *def,
                      ArgList *al, bool *unknown)
{
  uint32_t n = e->u.call.nargs;
  const HclExpr *const *args = (const HclExpr *const *)e->u.call.args;
  Value xv = val_dynamic_unknown;
  uint32_t nx = 0, fixed = n;
  *unknown = false;
  if (e->u.call.expand_final && n > 0) {
    const HclExpr *xe = args[n - 1];
    fixed = n - 1;
    if (!eval_expr(c, xe, &xv))
      return false;
    const Type *t = xv.type;
    if (t->kind == TY_DYNAMIC || t->kind == TY_TUPLE || t->kind == TY_LIST ||
        t->kind == TY_SET) {
      if (val_is_null(xv)) {
        eval_err(c, &xe->range, &e->range, "Invalid expanding argument value",
                 "The expanding argument (indicated by ...) must not be "
                 "null.");
        return false;
      }
      if (t->kind == TY_DYNAMIC || val_is_unknown(xv)) {
        *unknown = true;
        return false;
      }
      nx = xv.len;
    } else {
      eval_err(c, &xe->range, &e->range, "Invalid expanding argument value",
               "The expanding argument (indicated by ...) must be of a "
               "tuple, list, or set type.");
      return false;
    }
  }
  uint32_t total = fixed + nx;
  if (def) {
    if (total < def->nparams) {
      eval_err(c, &e->u.call.close_range, &e->range,
               "Not enough function arguments",
               "Function \"%s\" expects%s %u argument(s). Missing value for "
               "\"%s\".", e->u.call.name, def->varparam ? " at least" : "",
               (unsigned)def->nparams, def->params[total].name);
      return false;
    }
    if (!def->varparam && total > def->nparams) {
      SrcRange r = def->nparams < fixed
                       ? eval_start_range(args[def->nparams])
                       : args[n - 1]->range;
      eval_err(c, &r, &e->range, "Too many function arguments",
               "Function \"%s\" expects only %u argument(s).", e->u.call.name,
               (unsigned)def->nparams);
      return false;
    }
  }
  al->n = total;
  al->vals = ARENA_NEW(c->arena, Value, total ? total : 1);
  al->ranges = ARENA_NEW(c->arena, SrcRange, total ? total : 1);
  int before = c->diags->errors;
  for (uint32_t i = 0; i < fixed; i++) {
    eval_expr(c, args[i], &al->vals[i]);
    al->ranges[i] = eval_start_range(args[i]);
  }
  uint16_t xm = (uint16_t)(xv.flags & VF_MARKS);
  for (uint32_t i = 0; i < nx; i++) {
    al->vals[fixed + i] = val_mark(xv.u.elems[i], xm);
    al->ranges[fixed + i] = args[n - 1]->range;
  }
  return c->diags->errors == before;
}

/* detail with every occurrence of s replaced by "(sensitive value)"; the
** quoted form "s" as a whole first.  Strings shorter than 4 bytes are only
** replaced quoted, so a secret "1" does not mangle "parameter 1". */
static const char *scrub_one(Arena *a, const char *detail, const char *s,
                             size_t n)
{
  if (n == 0)
    return detail;
  const char *forms[2] = {arena_printf(a, "\"%.*s\"", (int)n, s),
                          n >= 4 ? arena_strndup(a, s, n) : NULL};
  for (int f = 0; f < 2; f++) {
    if (!forms[f] || !strstr(detail, forms[f]))
      continue;
    size_t fl = strlen(forms[f]);
    Buf b;
    buf_init(&b, a);
    const char *p = detail, *q;
    while ((q = strstr(p, forms[f]))) {
      buf_put(&b, p, (size_t)(q - p));
      buf_puts(&b, "(sensitive value)");
      p = q + fl;
    }
    buf_puts(&b, p);
    detail = buf_str(&b);
  }
  return detail;
}

/* Removes the sensitive strings in v (any depth; under a sensitive
** container every string counts) from detail.  A safety net under the
** functions' own wording: Terraform never quotes a sensitive value in a
** diagnostic, and no function message should be able to leak one. */
static const char *scrub(Arena *a, const char *detail, Value v, bool inside)
{
  inside = inside || val_is_sensitive(v);
  if (!v.type || val_is_null(v) || val_is_unknown(v))
    return detail;
  switch (v.type->kind) {
  case TY_STRING:
    return inside ? scrub_one(a, detail, v.u.s, v.len) : detail;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
    for (uint32_t i = 0; i < v.len; i++)
      detail = scrub(a, detail, v.u.elems[i], inside);
    return detail;
  case TY_OBJECT:
    for (uint32_t i = 0; i < v.type->n; i++)
      detail = scrub(a, detail, v.u.elems[i], inside);
    return detail;
  case TY_MAP:
    for (uint32_t i = 0; i < v.len; i++)
      detail = scrub(a, detail, v.u.entries[i].val, inside);
    return detail;
  default:
    return detail;
  }
}

static bool call_failed(EvalCtx *c, const HclExpr *e, const FnError *fe,
                        const ArgList *al)
{
  const char *summary = fe->summary ? fe->summary : "Error in function call";
  const char *detail = fe->detail ? fe->detail : "";
  for (uint32_t i = 0; i < al->n; i++)
    if (val_has_sensitive(al->vals[i]))
      detail = scrub(c->arena, detail, al->vals[i], false);
  if (fe->arg >= 0 && (uint32_t)fe->arg < al->n) {
    eval_err(c, &al->ranges[fe->arg], &e->range, summary, "%s", detail);
  } else if (strcmp(summary, "Invalid function argument") == 0) {
    eval_err(c, &e->range, NULL, summary, "%s", detail);
  } else {
    SrcRange s = call_start(e);
    eval_err(c, &s, &e->range, summary, "%s", detail);
  }
  return false;
}

bool eval_call(EvalCtx *c, const HclExpr *e, Value *out)
{
  *out = val_dynamic_unknown;
  const char *name = e->u.call.name;
  if (c->no_funcs) {
    eval_err(c, &e->range, NULL, "Function calls not allowed",
             "Functions may not be called here.");
    return false;
  }
  bool provider = e->u.call.nparts > 1 && strncmp(name, "core::", 6) != 0;
  const FnDef *def = NULL;
  if (provider && strncmp(name, "provider::terraform::", 21) == 0)
    def = fn_lookup(name);   /* the built-in provider's, always in scope */
  if (provider && !def) {
    bool has_funcs = false, failed = false;
    if (!c->provider_fn) {
      unknown_function(c, e);
      return false;
    }
    def = c->provider_fn(c, e, &has_funcs, &failed);
    if (failed)
      return false;
    if (!def) {
      unknown_provider_function(c, e, has_funcs);
      return false;
    }
  }
  if (!def)
    def = fn_lookup(name);
  if (!def) {
    unknown_function(c, e);
    return false;
  }
  const char *plain = plain_name(name);
  if (def->flags & FN_SPECIAL) {
    if (strcmp(plain, "try") == 0)
      return eval_try_can(c, e, false, out);
    if (strcmp(plain, "can") == 0)
      return eval_try_can(c, e, true, out);
  }
  SrcRange start = call_start(e);
  if (c->fn.in_template && (def->flags & FN_NOTEMPLATE)) {
    eval_err(c, &start, &e->range, "Error in function call",
             "Call to function \"%s\" failed: cannot recursively call %s "
             "from inside another template function.", name, plain);
    return false;
  }
  if (c->no_fs && (def->flags & FN_FS)) {
    eval_err(c, &start, &e->range, "Error in function call",
             "Call to function \"%s\" failed: cannot use filesystem access "
             "functions like %s in templatestring templates; consider "
             "passing the function result as a template variable "
             "instead.", name, plain);
    return false;
  }
  ArgList al = {0};
  bool unknown = false;
  if (!eval_args(c, e, def, &al, &unknown))
    return unknown;
  FnCall fc = c->fn;
  fc.arena = c->arena;
  fc.render_template = eval_render_template;
  fc.hook_ctx = c;
  memset(&fc.err, 0, sizeof fc.err);
  fc.err.arg = -1;
  if (!fn_call(def, &fc, al.vals, al.n, out)) {
    *out = val_dynamic_unknown;
    return call_failed(c, e, &fc.err, &al);
  }
  return true;
}

/* ---- templatefile / templatestring ---------------------------------------- */

static bool valid_ident(const char *s)
{
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return false;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
      return false;
  return true;
}

bool eval_render_template(FnCall *fc, const char *name, const char *src,
                          size_t n, Value vars, Value *out)
{
  EvalCtx *outer = fc->hook_ctx;
  Arena *a = fc->arena;
  *out = val_dynamic_unknown;
  Diags pd;
  diag_init(&pd, a);
  HclExpr *x = hcl_parse_template(a, name, src, n, &pd);
  if (diag_has_errors(&pd)) {
    Buf b;
    buf_init(&b, a);
    eval_diags_error(&b, &pd);
    return fn_error(fc, "%s", buf_str(&b));
  }
  bool has_vars = !val_is_null(vars);
  if (has_vars && val_is_unknown(vars))
    return true;
  uint32_t nv = 0;
  EvalVar *ev = NULL;
  if (has_vars) {
    uint16_t m = (uint16_t)(vars.flags & VF_MARKS);
    if (vars.type->kind == TY_OBJECT) {
      nv = vars.type->n;
      ev = ARENA_NEW(a, EvalVar, nv ? nv : 1);
      for (uint32_t i = 0; i < nv; i++) {
        ev[i].name = vars.type->names[i];
        ev[i].val = val_mark(vars.u.elems[i], m);
      }
    } else if (vars.type->kind == TY_MAP) {
      nv = vars.len;
      ev = ARENA_NEW(a, EvalVar, nv ? nv : 1);
      for (uint32_t i = 0; i < nv; i++) {
        ev[i].name = vars.u.entries[i].key;
        ev[i].val = val_mark(vars.u.entries[i].val, m);
      }
    } else {
      return fn_arg_error(fc, 1, "invalid vars value: must be a map");
    }
    for (uint32_t i = 0; i < nv; i++)
      if (!valid_ident(ev[i].name))
        return fn_arg_error(fc, 1,
                            "invalid template variable name \"%s\": must "
                            "start with a letter, followed by zero or more "
                            "letters, digits, and underscores", ev[i].name);
  }
  HclTraversal *refs = NULL;
  uint32_t nrefs = 0;
  hcl_expr_references(a, x, &refs, &nrefs);
  for (uint32_t i = 0; i < nrefs; i++) {
    if (refs[i].n == 0)
      continue;
    const char *root = refs[i].steps[0].name;
    bool found = false;
    for (uint32_t j = 0; j < nv && !found; j++)
      found = strcmp(ev[j].name, root) == 0;
    if (found)
      continue;
    Buf rb;
    buf_init(&rb, a);
    eval_range_string(&rb, &refs[i].steps[0].range);
    if (has_vars)
      return fn_arg_error(fc, 1, "vars map does not contain key \"%s\", "
                          "referenced at %s", root, buf_str(&rb));
    return fn_arg_error(fc, 0, "template refers to variable \"%s\" at %s, "
                        "but this call has no vars map", root, buf_str(&rb));
  }
  Diags ed;
  diag_init(&ed, a);
  EvalCtx sub;
  eval_ctx_init(&sub, a, &ed);
  if (outer) {
    sub.fn = outer->fn;
    sub.provider_fn = outer->provider_fn;
    sub.provider_fn_data = outer->provider_fn_data;
    sub.depth = outer->depth;
  } else {
    sub.fn = *fc;
  }
  sub.fn.in_template = true;
  sub.no_fs = fc->def && strcmp(plain_name(fc->def->name),
                                "templatestring") == 0;
  sub.vars = ev;
  sub.nvars = nv;
  Value v;
  eval_expr(&sub, x, &v);
  if (diag_has_errors(&ed)) {
    Buf b;
    buf_init(&b, a);
    eval_diags_error(&b, &ed);
    return fn_error(fc, "%s", buf_str(&b));
  }
  *out = v;
  return true;
}

/* ---- Stand-ins until core/lang/funcs is linked ---------------------------------
** The function library is written concurrently with this module; these
** weak definitions keep every binary linkable meanwhile (every name is an
** unknown function).  The real, strong definitions replace them. */

__attribute__((weak)) const FnDef *fn_lookup(const char *name)
{
  (void)name;
  return NULL;
}

__attribute__((weak)) const FnDef *fn_table_get(uint32_t *n)
{
  *n = 0;
  return NULL;
}

__attribute__((weak)) void fn_call_init(FnCall *c, Arena *a)
{
  memset(c, 0, sizeof *c);
  c->arena = a;
}

__attribute__((weak)) bool fn_call(const FnDef *f, FnCall *c,
                                   const Value *args, uint32_t nargs,
                                   Value *out)
{
  (void)args;
  (void)nargs;
  c->def = f;
  c->err.summary = "Error in function call";
  c->err.detail = "This function is not available.";
  c->err.arg = -1;
  *out = val_dynamic_unknown;
  return false;
}

__attribute__((weak)) bool fn_error(FnCall *c, const char *fmt, ...)
{
  (void)fmt;
  c->err.summary = "Error in function call";
  c->err.detail = "Call failed.";
  c->err.arg = -1;
  return false;
}

__attribute__((weak)) bool fn_arg_error(FnCall *c, int arg, const char *fmt,
                                        ...)
{
  (void)fmt;
  c->err.summary = "Invalid function argument";
  c->err.detail = "Invalid argument.";
  c->err.arg = arg;
  return false;
}
