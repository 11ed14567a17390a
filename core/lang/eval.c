/*
** eval: expressions (see eval.h).  Each HclExpr kind is evaluated as the
** matching hclsyntax node's Value method does, including the order in
** which diagnostics are produced and which ones are dropped (the branch
** of a conditional not taken, the undecisive side of && and ||).
** This file holds the shared helpers, traversals, conditionals,
** templates, tuples, objects and the dispatch; operators are in
** eval_op.c, for expressions and splats in eval_for.c, calls, references
** and type expressions in eval_call.c, eval_ref.c and eval_type.c.
*/
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "eval_priv.h"

/* ---- Small helpers ------------------------------------------------------ */

Diag *eval_err(EvalCtx *c, const SrcRange *subject, const SrcRange *context,
               const char *summary, const char *fmt, ...)
{
  Buf b;
  buf_init(&b, c->diags->arena);
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  Diag *g = diag_error(c->diags, subject && subject->file ? subject : NULL,
                       summary, "%s", buf_str(&b));
  if (context && context->file)
    diag_set_context(c->diags, g, context);
  return g;
}

bool eval_conv(EvalCtx *c, Value v, const Type *t, Value *out,
               const char **msg)
{
  ConvError ce = {0};
  if (conv_convert(c->arena, v, t, true, out, &ce))
    return true;
  if (msg)
    *msg = ce.msg ? ce.msg : "unsuitable value";
  return false;
}

bool eval_expr_into(EvalCtx *c, const HclExpr *e, Value *out, Diags *d)
{
  Diags *saved = c->diags;
  c->diags = d;
  bool ok = eval_expr(c, e, out);
  c->diags = saved;
  return ok;
}

void eval_range_string(Buf *b, const SrcRange *r)
{
  const char *f = r->file ? r->file : "";
  if (r->start.line == r->end.line)
    buf_printf(b, "%s:%u,%u-%u", f, r->start.line, r->start.col, r->end.col);
  else
    buf_printf(b, "%s:%u,%u-%u,%u", f, r->start.line, r->start.col,
               r->end.line, r->end.col);
}

static void diag_error_string(Buf *b, const Diag *g)
{
  if (g->subject.file) {
    eval_range_string(b, &g->subject);
    buf_puts(b, ": ");
  }
  buf_printf(b, "%s; %s", g->summary, g->detail ? g->detail : "");
}

void eval_diags_error(Buf *b, const Diags *d)
{
  const Diag *first = NULL;
  int n = 0;
  for (const Diag *g = d->head; g; g = g->next) {
    if (!first)
      first = g;
    n++;
  }
  if (!first) {
    buf_puts(b, "no diagnostics");
    return;
  }
  diag_error_string(b, first);
  if (n > 1)
    buf_printf(b, ", and %d other diagnostic(s)", n - 1);
}

static const Value *elems_of(Value v) { return v.u.elems; }

uint32_t eval_count_of(Value v)
{
  if (v.type->kind == TY_OBJECT)
    return v.type->n;
  return v.len;
}

/* ---- Traversal: hcl.GetAttr and hcl.Index ------------------------------- */

bool eval_get_attr(EvalCtx *c, Value v, const char *name,
                   const SrcRange *where, Value *out)
{
  *out = eval_dyn();
  if (val_is_null(v)) {
    eval_err(c, where, NULL, "Attempt to get attribute from null value",
             "This value is null, so it does not have any attributes.");
    return false;
  }
  const Type *t = v.type;
  uint16_t m = eval_smark(v);
  const char *ua = "Unsupported attribute";
  switch (t->kind) {
  case TY_OBJECT: {
    int i = ty_attr_index(t, name);
    if (i < 0) {
      eval_err(c, where, NULL, ua,
               "This object does not have an attribute named \"%s\".", name);
      return false;
    }
    if (val_is_unknown(v))
      *out = val_mark(val_unknown(t->types[i]), m);
    else
      *out = val_mark(v.u.elems[i], m);
    return true;
  }
  case TY_MAP: {
    if (val_is_unknown(v)) {
      *out = val_mark(val_unknown(t->elem), m);
      return true;
    }
    bool found = false;
    Value r = val_map_get(v, name, strlen(name), &found);
    if (!found) {
      eval_err(c, where, NULL, "Missing map element",
               "This map does not have an element with the key \"%s\".",
               name);
      return false;
    }
    *out = val_mark(r, m);
    return true;
  }
  case TY_DYNAMIC:
    *out = val_mark(eval_dyn(), m);
    return true;
  case TY_LIST:
    if (t->elem->kind == TY_OBJECT) {
      if (ty_attr_index(t->elem, name) >= 0)
        eval_err(c, where, NULL, ua,
                 "Can't access attributes on a list of objects. Did you mean "
                 "to access attribute \"%s\" for a specific element of the "
                 "list, or across all elements of the list?", name);
      else
        eval_err(c, where, NULL, ua,
                 "Can't access attributes on a list of objects. Did you mean "
                 "to access an attribute for a specific element of the list, "
                 "or across all elements of the list?");
      return false;
    }
    break;
  case TY_SET:
    if (t->elem->kind == TY_OBJECT) {
      eval_err(c, where, NULL, ua,
               "Can't access attributes on a set of objects. Did you mean to "
               "access an attribute across all elements of the set?");
      return false;
    }
    break;
  case TY_STRING:
  case TY_NUMBER:
  case TY_BOOL: {
    Buf b;
    buf_init(&b, c->arena);
    ty_friendly(&b, t);
    eval_err(c, where, NULL, ua,
             "Can't access attributes on a primitive-typed value (%s).",
             buf_str(&b));
    return false;
  }
  default:
    break;
  }
  eval_err(c, where, NULL, ua, "This value does not have any attributes.");
  return false;
}

bool eval_index(EvalCtx *c, Value coll, Value key, const SrcRange *where,
                Value *out)
{
  const char *ii = "Invalid index";
  const char *nid = "The given key does not identify an element in this "
                    "collection value";
  *out = eval_dyn();
  if (val_is_null(coll)) {
    eval_err(c, where, NULL, "Attempt to index null value",
             "This value is null, so it does not have any indices.");
    return false;
  }
  if (val_is_null(key)) {
    eval_err(c, where, NULL, ii, "Can't use a null value as an indexing key.");
    return false;
  }
  const Type *t = coll.type;
  if (key.type->kind == TY_DYNAMIC || t->kind == TY_DYNAMIC)
    return true;
  uint16_t m = (uint16_t)(eval_smark(coll) | eval_smark(key));
  switch (t->kind) {
  case TY_LIST:
  case TY_TUPLE:
  case TY_MAP: {
    const Type *want = t->kind == TY_MAP ? &ty_string : &ty_number;
    const char *msg = NULL;
    Value k;
    if (!eval_conv(c, key, want, &k, &msg)) {
      eval_err(c, where, NULL, ii, "%s: %s.", nid, msg);
      return false;
    }
    if (val_is_unknown(coll) || val_is_unknown(k)) {
      if (t->kind == TY_TUPLE)
        *out = val_mark(eval_dyn(), m);
      else
        *out = val_mark(val_unknown(t->elem), m);
      return true;
    }
    if (t->kind == TY_MAP) {
      bool found = false;
      Value r = val_map_get(coll, k.u.s, k.len, &found);
      if (!found) {
        eval_err(c, where, NULL, ii, "%s.", nid);
        return false;
      }
      *out = val_mark(r, m);
      return true;
    }
    int64_t i = 0;
    bool whole = val_num_int(k, &i);
    if (!whole) {
      double d = val_num_double(k);
      if (d != floor(d)) {
        eval_err(c, where, NULL, ii,
                 "%s: indexing a sequence requires a whole number, but the "
                 "given index has a fractional part.", nid);
        return false;
      }
      if (d < 0) {
        eval_err(c, where, NULL, ii,
                 "%s: a negative number is not a valid index for a "
                 "sequence.", nid);
        return false;
      }
      i = INT64_MAX;
    }
    if (i < 0) {
      eval_err(c, where, NULL, ii,
               "%s: a negative number is not a valid index for a sequence.",
               nid);
      return false;
    }
    uint32_t len = eval_count_of(coll);
    if ((uint64_t)i >= len) {
      /* HCL's specialised messages only cover index == length. */
      if ((eval_smark(coll) & VF_SENSITIVE) || (uint64_t)i != len) {
        eval_err(c, where, NULL, ii, "%s.", nid);
      } else if (len == 0) {
        eval_err(c, where, NULL, ii, "%s: the collection has no elements.",
                 nid);
      } else {
        eval_err(c, where, NULL, ii,
                 "%s: the given index is greater than or equal to the length "
                 "of the collection.", nid);
      }
      return false;
    }
    *out = val_mark(elems_of(coll)[i], m);
    return true;
  }
  case TY_OBJECT: {
    bool was_number = key.type->kind == TY_NUMBER;
    const char *msg = NULL;
    Value k;
    if (!eval_conv(c, key, &ty_string, &k, &msg)) {
      eval_err(c, where, NULL, ii, "%s: %s.", nid, msg);
      return false;
    }
    if (val_is_unknown(k)) {
      *out = val_mark(eval_dyn(), eval_smark(coll));
      return true;
    }
    int i = ty_attr_index(t, k.u.s);
    if (i < 0) {
      eval_err(c, where, NULL, ii, "%s.%s", nid,
               was_number ? " An object only supports looking up attributes "
                            "by name, not by numeric index." : "");
      return false;
    }
    if (val_is_unknown(coll))
      *out = val_mark(val_unknown(t->types[i]), m);
    else
      *out = val_mark(coll.u.elems[i], m);
    return true;
  }
  case TY_SET:
    eval_err(c, where, NULL, ii,
             "Elements of a set are identified only by their value and don't "
             "have any separate index or key to select with, so it's only "
             "possible to perform operations across all elements of the "
             "set.");
    return false;
  default:
    eval_err(c, where, NULL, ii, "This value does not have any indices.");
    return false;
  }
}

bool eval_traverse(EvalCtx *c, Value v, const HclStep *steps, uint32_t n,
                   Value *out)
{
  for (uint32_t i = 0; i < n; i++) {
    const HclStep *s = &steps[i];
    Value r;
    bool ok;
    if (s->kind == HCL_STEP_INDEX)
      ok = eval_index(c, v, *s->key, &s->range, &r);
    else
      ok = eval_get_attr(c, v, s->name, &s->range, &r);
    if (!ok) {
      *out = eval_dyn();
      return false;
    }
    v = r;
  }
  *out = v;
  return true;
}

static bool eval_scope_trav(EvalCtx *c, const HclTraversal *t, Value *out)
{
  *out = eval_dyn();
  if (t->n == 0)
    return true;
  const char *root = t->steps[0].name ? t->steps[0].name : "";
  for (const EvalScope *s = c->scope; s; s = s->parent)
    if (s->name && strcmp(s->name, root) == 0)
      return eval_traverse(c, s->val, t->steps + 1, t->n - 1, out);
  for (uint32_t i = 0; i < c->nvars; i++)
    if (strcmp(c->vars[i].name, root) == 0)
      return eval_traverse(c, c->vars[i].val, t->steps + 1, t->n - 1, out);
  if (c->resolve && !c->no_vars) {
    uint32_t consumed = 1;
    Value v = eval_dyn();
    EvalResolveResult r = c->resolve(c, t, &consumed, &v);
    if (r == EVAL_RES_ERROR)
      return false;
    if (r == EVAL_RES_OK) {
      if (consumed < 1 || consumed > t->n)
        consumed = 1;
      return eval_traverse(c, v, t->steps + consumed, t->n - consumed, out);
    }
  }
  const SrcRange *rr = &t->steps[0].range;
  bool any_scope = false;
  for (const EvalScope *s = c->scope; s; s = s->parent)
    if (s->name)
      any_scope = true;
  if (c->no_vars || (!c->resolve && c->nvars == 0 && !any_scope)) {
    eval_err(c, rr, NULL, "Variables not allowed",
             "Variables may not be used here.");
    return false;
  }
  /* Suggestions from every name in scope, innermost first. */
  uint32_t n = c->nvars;
  for (const EvalScope *s = c->scope; s; s = s->parent)
    n++;
  const char **names = ARENA_NEW(c->arena, const char *, n ? n : 1);
  uint32_t k = 0;
  for (const EvalScope *s = c->scope; s; s = s->parent)
    if (s->name)
      names[k++] = s->name;
  for (uint32_t i = 0; i < c->nvars; i++)
    names[k++] = c->vars[i].name;
  const char *sug = hcl_name_suggestion(root, names, k);
  if (sug)
    eval_err(c, rr, NULL, "Unknown variable",
             "There is no variable named \"%s\". Did you mean \"%s\"?", root,
             sug);
  else
    eval_err(c, rr, NULL, "Unknown variable",
             "There is no variable named \"%s\".", root);
  return false;
}

/* ---- Conditional ------------------------------------------------------------ */

const char *eval_friendly(EvalCtx *c, const Type *t)
{
  Buf b;
  buf_init(&b, c->arena);
  ty_friendly(&b, t);
  return buf_str(&b);
}

static void describe_mismatch(EvalCtx *c, Buf *b, const Type *tt,
                              const Type *ft)
{
  if (tt->kind == TY_OBJECT && ft->kind == TY_OBJECT) {
    for (uint32_t i = 0; i < tt->n; i++) {
      int j = ty_attr_index(ft, tt->names[i]);
      if (j < 0) {
        buf_printf(b, "The 'true' value includes object attribute \"%s\", "
                   "which is absent in the 'false' value", tt->names[i]);
        return;
      }
      if (!ty_equal(tt->types[i], ft->types[j])) {
        buf_printf(b, "Type mismatch for object attribute \"%s\": ",
                   tt->names[i]);
        describe_mismatch(c, b, tt->types[i], ft->types[j]);
        return;
      }
    }
    for (uint32_t i = 0; i < ft->n; i++)
      if (ty_attr_index(tt, ft->names[i]) < 0) {
        buf_printf(b, "The 'false' value includes object attribute \"%s\", "
                   "which is absent in the 'true' value", ft->names[i]);
        return;
      }
  } else if (tt->kind == TY_TUPLE && ft->kind == TY_TUPLE) {
    if (tt->n != ft->n) {
      buf_printf(b, "The 'true' tuple has length %u, but the 'false' tuple "
                 "has length %u", tt->n, ft->n);
      return;
    }
    for (uint32_t i = 0; i < tt->n; i++)
      if (!ty_equal(tt->types[i], ft->types[i])) {
        buf_printf(b, "Type mismatch for tuple element %u: ", i);
        describe_mismatch(c, b, tt->types[i], ft->types[i]);
        return;
      }
  } else if (ty_is_collection(tt) && ty_is_collection(ft) &&
             tt->kind == ft->kind) {
    const Type *te = tt->elem, *fe = ft->elem;
    if ((te->kind == TY_OBJECT && fe->kind == TY_OBJECT) ||
        (te->kind == TY_TUPLE && fe->kind == TY_TUPLE)) {
      const char *noun = tt->kind == TY_LIST ? "list" :
                         tt->kind == TY_SET ? "set" : "map";
      buf_printf(b, "Mismatched %s element types: ", noun);
      describe_mismatch(c, b, te, fe);
      return;
    }
  }
  const char *tn = eval_friendly(c, tt), *fn = eval_friendly(c, ft);
  if (strcmp(tn, fn) == 0)
    buf_puts(b, "At least one deeply-nested attribute or element is not "
             "compatible across both the 'true' and the 'false' value");
  else
    buf_printf(b, "The 'true' value is %s, but the 'false' value is %s", tn,
               fn);
}

static bool is_dyn_null(Value v)
{
  return v.type->kind == TY_DYNAMIC && val_is_null(v) && val_is_known(v);
}

static bool eval_cond(EvalCtx *c, const HclExpr *e, Value *out)
{
  const HclExpr *te = e->u.cond.t, *fe = e->u.cond.f;
  Diags td, fd;
  diag_init(&td, c->diags->arena);
  diag_init(&fd, c->diags->arena);
  Value tv, fv;
  eval_expr_into(c, te, &tv, &td);
  eval_expr_into(c, fe, &fv, &fd);
  const Type *rt = &ty_dynamic;
  bool conv_t = false, conv_f = false;
  if (is_dyn_null(tv)) {
    rt = fv.type;
    conv_t = true;
  } else if (is_dyn_null(fv)) {
    rt = tv.type;
    conv_f = true;
  } else if (tv.type->kind == TY_DYNAMIC || fv.type->kind == TY_DYNAMIC) {
    rt = &ty_dynamic;
  } else {
    const Type *ts[2] = {tv.type, fv.type};
    rt = conv_unify(c->arena, ts, 2, true);
    conv_t = conv_f = true;
  }
  if (!rt) {
    Buf b;
    buf_init(&b, c->arena);
    describe_mismatch(c, &b, tv.type, fv.type);
    SrcRange sub = diag_range_join(te->range, fe->range);
    eval_err(c, &sub, &e->range, "Inconsistent conditional result types",
             "The true and false result expressions must have consistent "
             "types. %s.", buf_str(&b));
    *out = eval_dyn();
    return false;
  }
  Value cv;
  size_t before = (size_t)c->diags->errors;
  eval_expr(c, e->u.cond.c, &cv);
  bool ok = (size_t)c->diags->errors == before;
  if (val_is_null(cv)) {
    eval_err(c, &e->u.cond.c->range, &e->range, "Null condition",
             "The condition value is null. Conditions must either be true "
             "or false.");
    *out = val_unknown(rt);
    return false;
  }
  /* Marks of the condition and of both branches go on the result, so
  ** the result's sensitivity does not depend on which branch ran. */
  uint16_t cm = (uint16_t)(eval_smark(cv) | eval_smark(tv) | eval_smark(fv));
  cv = val_unmark(cv);
  tv = val_unmark(tv);
  fv = val_unmark(fv);
  if (val_is_unknown(cv)) {
    if (val_is_null(tv) && val_is_null(fv) && val_is_known(tv) &&
        val_is_known(fv))
      *out = val_mark(val_null(rt), cm);
    else
      *out = val_mark(val_unknown(rt), cm);
    return ok;
  }
  Value b;
  if (!eval_conv(c, cv, &ty_bool, &b, NULL)) {
    eval_err(c, &e->u.cond.c->range, &e->range, "Incorrect condition type",
             "The condition expression must be of type bool.");
    *out = val_unknown(rt);
    return false;
  }
  bool which = b.u.b;
  Value res = which ? tv : fv;
  Diags *rd = which ? &td : &fd;
  ok = ok && !diag_has_errors(rd);
  diag_move(c->diags, rd);
  if ((which ? conv_t : conv_f) && rt->kind != TY_DYNAMIC) {
    const char *msg = NULL;
    Value cvt;
    if (!eval_conv(c, res, rt, &cvt, &msg)) {
      eval_err(c, &(which ? te : fe)->range, &e->range,
               "Inconsistent conditional result types",
               "The %s result value has the wrong type: %s.",
               which ? "true" : "false", msg);
      *out = val_unknown(rt);
      return false;
    }
    res = cvt;
  }
  *out = val_mark(res, cm);
  return ok;
}

/* ---- Templates ---------------------------------------------------------- */

static bool eval_template(EvalCtx *c, const HclExpr *e, Value *out)
{
  Buf b;
  buf_init(&b, c->arena);
  buf_puts(&b, "");
  bool known = true, ok = true;
  uint16_t m = 0;
  for (uint32_t i = 0; i < e->u.tmpl.n; i++) {
    const HclExpr *p = e->u.tmpl.parts[i];
    Value v;
    if (!eval_expr(c, p, &v))
      ok = false;
    if (val_is_null(v)) {
      eval_err(c, &p->range, &e->range,
               "Invalid template interpolation value",
               "The expression result is null. Cannot include a null value "
               "in a string template.");
      ok = false;
      continue;
    }
    m |= eval_smark(v);
    v = val_unmark(v);
    if (val_is_unknown(v)) {
      known = false;
      continue;
    }
    Value s;
    const char *msg = NULL;
    if (!eval_conv(c, v, &ty_string, &s, &msg)) {
      eval_err(c, &p->range, &e->range,
               "Invalid template interpolation value",
               "Cannot include the given value in a string template: %s.",
               msg);
      ok = false;
      continue;
    }
    if (val_is_unknown(s)) {
      known = false;
      continue;
    }
    m |= eval_smark(s);
    buf_put(&b, s.u.s, s.len);
  }
  /* HCL refines an unknown template result as not null (it cannot be
  ** null: null interpolations are errors).  Its known prefix, which HCL
  ** also records, is not modelled. */
  if (!known)
    *out = val_mark(val_unknown(&ty_string), VF_NOTNULL);
  else
    *out = val_str_ref(b.p, b.len);
  *out = val_mark(*out, m);
  return ok;
}

static bool eval_template_join(EvalCtx *c, const HclExpr *e, Value *out)
{
  Value t;
  bool ok = eval_expr(c, e->u.wrap, &t);
  *out = val_unknown(&ty_string);
  if (val_is_null(t) || t.type->kind != TY_TUPLE)
    return ok;
  uint16_t m = eval_smark(t);
  if (val_is_unknown(t)) {
    *out = val_mark(*out, m);
    return ok;
  }
  Buf b;
  buf_init(&b, c->arena);
  buf_puts(&b, "");
  for (uint32_t i = 0; i < t.len; i++) {
    Value v = t.u.elems[i];
    if (val_is_null(v)) {
      eval_err(c, &e->range, NULL, "Invalid template interpolation value",
               "An iteration result is null. Cannot include a null value in "
               "a string template.");
      ok = false;
      continue;
    }
    if (v.type->kind == TY_DYNAMIC) {
      *out = val_mark(val_unknown(&ty_string), m);
      return ok;
    }
    Value s;
    const char *msg = NULL;
    if (!eval_conv(c, v, &ty_string, &s, &msg)) {
      eval_err(c, &e->range, NULL, "Invalid template interpolation value",
               "Cannot include one of the interpolation results into the "
               "string template: %s.", msg);
      ok = false;
      continue;
    }
    if (val_is_unknown(v)) {
      *out = val_mark(val_unknown(&ty_string), (uint16_t)(m | VF_NOTNULL));
      return ok;
    }
    m |= eval_smark(s);
    buf_put(&b, s.u.s, s.len);
  }
  *out = val_mark(val_str_ref(b.p, b.len), m);
  return ok;
}

/* ---- Tuples and objects --------------------------------------------------- */

static bool eval_tuple(EvalCtx *c, const HclExpr *e, Value *out)
{
  uint32_t n = e->u.tuple.n;
  Value *vals = ARENA_NEW(c->arena, Value, n ? n : 1);
  bool ok = true;
  for (uint32_t i = 0; i < n; i++)
    if (!eval_expr(c, e->u.tuple.items[i], &vals[i]))
      ok = false;
  *out = val_tuple(c->arena, vals, n);
  return ok;
}

/* Builds an object from parallel names/vals where later duplicates win. */
static Value build_object(EvalCtx *c, const char **names, Value *vals,
                          uint32_t n)
{
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t j;
    for (j = 0; j < k; j++)
      if (strcmp(names[j], names[i]) == 0)
        break;
    if (j < k) {
      vals[j] = vals[i];
      continue;
    }
    names[k] = names[i];
    vals[k] = vals[i];
    k++;
  }
  return val_object(c->arena, k, names, vals);
}

static bool eval_object(EvalCtx *c, const HclExpr *e, Value *out)
{
  uint32_t n = e->u.object.n;
  const char **names = ARENA_NEW(c->arena, const char *, n ? n : 1);
  Value *vals = ARENA_NEW(c->arena, Value, n ? n : 1);
  uint32_t k = 0;
  bool known = true, ok = true;
  uint16_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    const HclObjectItem *it = &e->u.object.items[i];
    Value key = eval_dyn(), val;
    bool key_err = false;
    if (it->key_ambiguous && !it->key_parens) {
      eval_err(c, &it->key->range, NULL, "Ambiguous attribute key",
               "If this expression is intended to be a reference, wrap it in "
               "parentheses. If it's instead intended as a literal name "
               "containing periods, wrap it in quotes to create a string "
               "literal.");
      key_err = true;
    } else if (it->key_name && !it->key_parens) {
      key = val_str_ref(it->key_name, strlen(it->key_name));
    } else {
      size_t before = (size_t)c->diags->errors;
      eval_expr(c, it->key, &key);
      key_err = (size_t)c->diags->errors > before;
    }
    if (!eval_expr(c, it->value, &val))
      ok = false;
    if (key_err) {
      known = ok = false;
      continue;
    }
    if (val_is_null(key)) {
      eval_err(c, &it->value->range, NULL, "Null value as key",
               "Can't use a null value as a key.");
      known = ok = false;
      continue;
    }
    m |= eval_smark(key);
    key = val_unmark(key);
    Value ks;
    const char *msg = NULL;
    if (!eval_conv(c, key, &ty_string, &ks, &msg)) {
      eval_err(c, &it->key->range, NULL, "Incorrect key type",
               "Can't use this value as a key: %s.", msg);
      known = ok = false;
      continue;
    }
    if (val_is_unknown(ks)) {
      known = false;
      continue;
    }
    names[k] = arena_strndup(c->arena, ks.u.s, ks.len);
    vals[k] = val;
    k++;
  }
  if (!known) {
    *out = eval_dyn();
    return ok;
  }
  *out = val_mark(build_object(c, names, vals, k), m);
  return ok;
}

/* ---- Dispatch ------------------------------------------------------------ */

void eval_ctx_init(EvalCtx *ctx, Arena *a, Diags *d)
{
  memset(ctx, 0, sizeof *ctx);
  ctx->arena = a;
  ctx->diags = d;
  fn_call_init(&ctx->fn, a);
}

SrcRange eval_start_range(const HclExpr *e)
{
  switch (e->kind) {
  case HCL_E_CALL:
    return diag_range_join(e->u.call.name_range, e->u.call.open_range);
  case HCL_E_BINARY:
    return eval_start_range(e->u.binary.lhs);
  case HCL_E_COND:
    return eval_start_range(e->u.cond.c);
  case HCL_E_TUPLE:
    return e->u.tuple.open_range;
  case HCL_E_OBJECT:
    return e->u.object.open_range;
  case HCL_E_FOR:
    return e->u.forx.open_range;
  case HCL_E_UNARY:
    return e->u.unary.symbol_range;
  case HCL_E_SPLAT:
    return e->u.splat.marker_range;
  case HCL_E_TEMPLATE:
    if (e->u.tmpl.n > 0)
      return eval_start_range(e->u.tmpl.parts[0]);
    return e->range;
  default:
    return e->range;
  }
}

bool eval_expr(EvalCtx *c, const HclExpr *e, Value *out)
{
  *out = eval_dyn();
  if (!e)
    return true;
  if (c->depth >= HCL_MAX_DEPTH) {
    eval_err(c, &e->range, NULL, "Nesting too deep",
             "This expression is nested too deeply to evaluate.");
    return false;
  }
  c->depth++;
  int before = c->diags->errors;
  bool ok = true;
  switch (e->kind) {
  case HCL_E_LITERAL:
    *out = e->u.lit;
    break;
  case HCL_E_TEMPLATE:
    ok = eval_template(c, e, out);
    break;
  case HCL_E_TEMPLATE_WRAP:
  case HCL_E_PAREN:
    ok = eval_expr(c, e->u.wrap, out);
    break;
  case HCL_E_TEMPLATE_JOIN:
    ok = eval_template_join(c, e, out);
    break;
  case HCL_E_SCOPE_TRAV:
    ok = eval_scope_trav(c, &e->u.trav, out);
    break;
  case HCL_E_REL_TRAV: {
    Value src;
    ok = eval_expr(c, e->u.rel.src, &src);
    if (!eval_traverse(c, src, e->u.rel.steps, e->u.rel.n, out))
      ok = false;
    break;
  }
  case HCL_E_INDEX: {
    Value coll, key;
    bool a = eval_expr(c, e->u.index.coll, &coll);
    bool b = eval_expr(c, e->u.index.key, &key);
    ok = eval_index(c, coll, key, &e->u.index.bracket_range, out) && a && b;
    break;
  }
  case HCL_E_CALL:
    ok = eval_call(c, e, out);
    break;
  case HCL_E_COND:
    ok = eval_cond(c, e, out);
    break;
  case HCL_E_BINARY:
    ok = eval_binary(c, e, out);
    break;
  case HCL_E_UNARY:
    ok = eval_unary(c, e, out);
    break;
  case HCL_E_TUPLE:
    ok = eval_tuple(c, e, out);
    break;
  case HCL_E_OBJECT:
    ok = eval_object(c, e, out);
    break;
  case HCL_E_FOR:
    ok = eval_for(c, e, out);
    break;
  case HCL_E_SPLAT:
    ok = eval_splat(c, e, out);
    break;
  case HCL_E_ANON:
    ok = eval_anon(c, e, out);
    break;
  case HCL_E_JSON: {
    HclExpr *x = hcl_json_to_expr(c->arena, e, false, c->diags);
    if (x && x->kind != HCL_E_JSON)
      ok = eval_expr(c, x, out);
    break;
  }
  }
  c->depth--;
  (void)ok;   /* the error count is the authority */
  return c->diags->errors == before;
}
