/*
** eval_for.c: for expressions (hclsyntax's ForExpr: iteration, the
** condition, grouping, key conflicts) and splats (SplatExpr and its
** anonymous item), including the order of their diagnostics.
*/
#include <string.h>

#include "eval_priv.h"

/* ---- for expressions --------------------------------------------------- */

static bool iterable(const Type *t)
{
  switch (t->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
  case TY_MAP:
  case TY_OBJECT:
    return true;
  default:
    return false;
  }
}

/* Element i of an iterable value as cty's ElementIterator gives it. */
static void elem_at(EvalCtx *c, Value v, uint32_t i, Value *k, Value *e)
{
  switch (v.type->kind) {
  case TY_LIST:
  case TY_TUPLE:
    *k = val_int(i);
    *e = v.u.elems[i];
    break;
  case TY_SET:
    *k = *e = v.u.elems[i];
    break;
  case TY_MAP:
    *k = val_str_ref(v.u.entries[i].key, v.u.entries[i].keylen);
    *e = v.u.entries[i].val;
    break;
  case TY_OBJECT:
    *k = val_cstr(c->arena, v.type->names[i]);
    *e = v.u.elems[i];
    break;
  default:
    *k = *e = eval_dyn();
    break;
  }
}

typedef struct ForScope {
  EvalScope ks, vs;
} ForScope;

static void push_for(EvalCtx *c, ForScope *fs, const HclExpr *e, Value k,
                     Value v)
{
  memset(fs, 0, sizeof *fs);
  EvalScope *top = c->scope;
  if (e->u.forx.key_var) {
    fs->ks.parent = top;
    fs->ks.name = e->u.forx.key_var;
    fs->ks.val = k;
    top = &fs->ks;
  }
  fs->vs.parent = top;
  fs->vs.name = e->u.forx.val_var;
  fs->vs.val = v;
  c->scope = &fs->vs;
}

/* The `if` clause for one element: 1 include, 0 skip, -1 unknown or
** error (known becomes false; only the first error is reported). */
static int for_cond(EvalCtx *c, const HclExpr *e, bool *known, bool *ok,
                    uint16_t *m)
{
  const HclExpr *ce = e->u.forx.cond;
  Value r;
  if (!eval_expr(c, ce, &r))
    *ok = false;
  if (val_is_null(r)) {
    if (*known)
      eval_err(c, &ce->range, &e->range, "Invalid 'for' condition",
               "The value of the 'if' clause must not be null.");
    *known = *ok = false;
    return -1;
  }
  if (!e->u.forx.object && val_is_unknown(r)) {
    *known = false;
    return -1;
  }
  Value b;
  const char *msg = NULL;
  if (!eval_conv(c, r, &ty_bool, &b, &msg)) {
    if (*known)
      eval_err(c, &ce->range, &e->range, "Invalid 'for' condition",
               "The 'if' clause value is invalid: %s.", msg);
    *known = *ok = false;
    return -1;
  }
  if (val_is_unknown(b)) {
    *known = false;
    return -1;
  }
  *m |= eval_smark(b);
  return val_unmark(b).u.b ? 1 : 0;
}

bool eval_for(EvalCtx *c, const HclExpr *e, Value *out)
{
  Value coll;
  bool ok = eval_expr(c, e->u.forx.coll, &coll);
  *out = eval_dyn();
  if (val_is_null(coll)) {
    eval_err(c, &e->u.forx.coll->range, &e->range, "Iteration over null value",
             "A null value cannot be used as the collection in a 'for' "
             "expression.");
    return false;
  }
  if (coll.type->kind == TY_DYNAMIC)
    return ok;
  uint16_t m = eval_smark(coll);
  coll = val_unmark(coll);
  if (!iterable(coll.type)) {
    eval_err(c, &e->u.forx.coll->range, &e->range,
             "Iteration over non-iterable value",
             "A value of type %s cannot be used as the collection in a 'for' "
             "expression.", eval_friendly(c, coll.type));
    return false;
  }
  if (val_is_unknown(coll))
    return ok;
  EvalScope *saved = c->scope;
  if (e->u.forx.cond) {
    /* HCL checks the condition once with unknown symbols first. */
    ForScope fs;
    push_for(c, &fs, e, eval_dyn(), eval_dyn());
    Value r;
    size_t before = (size_t)c->diags->errors;
    eval_expr(c, e->u.forx.cond, &r);
    c->scope = saved;
    const HclExpr *ce = e->u.forx.cond;
    if (val_is_null(r)) {
      eval_err(c, &ce->range, &e->range, "Condition is null",
               "The value of the 'if' clause must not be null.");
      return false;
    }
    Value b;
    const char *msg = NULL;
    if (!eval_conv(c, r, &ty_bool, &b, &msg)) {
      eval_err(c, &ce->range, &e->range, "Invalid 'for' condition",
               "The 'if' clause value is invalid: %s.", msg);
      return false;
    }
    if ((size_t)c->diags->errors > before)
      return false;
  }
  uint32_t n = eval_count_of(coll);
  bool known = true;
  if (e->u.forx.object) {
    const char **names = ARENA_NEW(c->arena, const char *, n ? n : 1);
    Value *vals = ARENA_NEW(c->arena, Value, n ? n : 1);
    uint32_t *gcount = NULL;
    Value **gvals = NULL;
    if (e->u.forx.group) {
      gcount = ARENA_NEW(c->arena, uint32_t, n ? n : 1);
      gvals = ARENA_NEW(c->arena, Value *, n ? n : 1);
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
      Value ek, ev;
      elem_at(c, coll, i, &ek, &ev);
      ForScope fs;
      push_for(c, &fs, e, ek, ev);
      if (e->u.forx.cond) {
        int inc = for_cond(c, e, &known, &ok, &m);
        if (inc <= 0) {
          c->scope = saved;
          continue;
        }
      }
      const HclExpr *ke = e->u.forx.key;
      Value kr;
      if (!eval_expr(c, ke, &kr))
        ok = false;
      if (val_is_null(kr)) {
        if (known)
          eval_err(c, &ke->range, &e->range, "Invalid object key",
                   "Key expression in 'for' expression must not produce a "
                   "null value.");
        known = ok = false;
        c->scope = saved;
        continue;
      }
      if (val_is_unknown(kr)) {
        known = false;
        c->scope = saved;
        continue;
      }
      Value ks;
      const char *msg = NULL;
      if (!eval_conv(c, kr, &ty_string, &ks, &msg)) {
        if (known)
          eval_err(c, &ke->range, &e->range, "Invalid object key",
                   "The key expression produced an invalid result: %s.", msg);
        known = ok = false;
        c->scope = saved;
        continue;
      }
      m |= eval_smark(ks);
      Value vv;
      if (!eval_expr(c, e->u.forx.val, &vv))
        ok = false;
      c->scope = saved;
      const char *name = arena_strndup(c->arena, ks.u.s, ks.len);
      uint32_t j;
      for (j = 0; j < k; j++)
        if (strcmp(names[j], name) == 0)
          break;
      if (e->u.forx.group) {
        if (j == k) {
          names[k] = name;
          gvals[k] = ARENA_NEW(c->arena, Value, n);
          gcount[k] = 0;
          k++;
        }
        gvals[j][gcount[j]++] = vv;
      } else if (j < k) {
        ForScope fs2;
        push_for(c, &fs2, e, ek, ev);
        eval_err(c, &ke->range, &e->range, "Duplicate object key",
                 "Two different items produced the key \"%s\" in this 'for' "
                 "expression. If duplicates are expected, use the ellipsis "
                 "(...) after the value expression to enable grouping by "
                 "key.", name);
        c->scope = saved;
        ok = false;
      } else {
        names[k] = name;
        vals[k] = vv;
        k++;
      }
    }
    if (!known)
      return ok;
    if (e->u.forx.group)
      for (uint32_t j = 0; j < k; j++)
        vals[j] = val_tuple(c->arena, gvals[j], gcount[j]);
    *out = val_mark(val_object(c->arena, k, names, vals), m);
    return ok;
  }
  Value *vals = ARENA_NEW(c->arena, Value, n ? n : 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    Value ek, ev;
    elem_at(c, coll, i, &ek, &ev);
    ForScope fs;
    push_for(c, &fs, e, ek, ev);
    if (e->u.forx.cond) {
      int inc = for_cond(c, e, &known, &ok, &m);
      if (inc <= 0) {
        c->scope = saved;
        continue;
      }
    }
    if (!eval_expr(c, e->u.forx.val, &vals[k]))
      ok = false;
    k++;
    c->scope = saved;
  }
  if (!known)
    return ok;
  *out = val_mark(val_tuple(c->arena, vals, k), m);
  return ok;
}

/* ---- Splat ------------------------------------------------------------------- */

static Value eval_each(EvalCtx *c, const HclExpr *e, Value item, Diags *d,
                       bool *had_err)
{
  EvalScope s = {.parent = c->scope, .anon = e->u.splat.item, .val = item};
  EvalScope *saved = c->scope;
  c->scope = &s;
  Value r;
  size_t before = (size_t)d->errors;
  eval_expr_into(c, e->u.splat.each, &r, d);
  c->scope = saved;
  if (had_err)
    *had_err = (size_t)d->errors > before;
  return r;
}

/* HCL's resultTy: the type of the splat result, from the element types. */
static const Type *splat_type(EvalCtx *c, const HclExpr *e, const Type *st,
                              Diags *d)
{
  if (st->kind == TY_LIST || st->kind == TY_SET) {
    Value r = eval_each(c, e, val_unknown(st->elem), d, NULL);
    return ty_list(c->arena, r.type);
  }
  if (st->kind == TY_TUPLE) {
    const Type **ts = ARENA_NEW(c->arena, const Type *, st->n ? st->n : 1);
    for (uint32_t i = 0; i < st->n; i++)
      ts[i] = eval_each(c, e, val_unknown(st->types[i]), d, NULL).type;
    return ty_tuple(c->arena, st->n, ts);
  }
  return &ty_dynamic;
}

bool eval_splat(EvalCtx *c, const HclExpr *e, Value *out)
{
  Value src;
  *out = eval_dyn();
  if (!eval_expr(c, e->u.splat.src, &src))
    return false;
  const Type *st = src.type;
  bool upgrade = !(st->kind == TY_TUPLE || st->kind == TY_LIST ||
                   st->kind == TY_SET);
  if (val_is_null(src)) {
    if (upgrade) {
      *out = val_tuple(c->arena, NULL, 0);
      return true;
    }
    SrcRange ctxr = diag_range_join(e->u.splat.src->range,
                                    e->u.splat.marker_range);
    eval_err(c, &e->u.splat.src->range, &ctxr, "Splat of null value",
             "Splat expressions (with the * symbol) cannot be applied to "
             "null sequences.");
    return false;
  }
  if (st->kind == TY_DYNAMIC)
    return true;
  bool upgraded_unknown = false;
  if (upgrade) {
    upgraded_unknown = val_is_unknown(src);
    Value *one = ARENA_NEW(c->arena, Value, 1);
    one[0] = src;
    src = val_tuple(c->arena, one, 1);
    st = src.type;
  }
  if (val_is_unknown(src)) {
    const Type *t = splat_type(c, e, st, c->diags);
    *out = val_mark(val_unknown(t), eval_smark(src));
    return true;
  }
  uint16_t m = eval_smark(src);
  src = val_unmark(src);
  uint32_t n = src.len;
  Value *vals = ARENA_NEW(c->arena, Value, n ? n : 1);
  bool known = true, ok = true;
  for (uint32_t i = 0; i < n; i++) {
    bool had = false;
    vals[i] = eval_each(c, e, src.u.elems[i], c->diags, &had);
    if (had)
      known = ok = false;
  }
  if (upgraded_unknown) {
    *out = eval_dyn();
    return ok;
  }
  if (!known) {
    Diags scratch;
    diag_init(&scratch, c->arena);
    *out = val_unknown(splat_type(c, e, st, &scratch));
    return ok;
  }
  if (st->kind == TY_LIST || st->kind == TY_SET) {
    if (n == 0) {
      const Type *t = splat_type(c, e, st, c->diags);
      *out = val_mark(val_list(c->arena, t->elem, vals, 0), m);
      return ok;
    }
    const Type **ts = ARENA_NEW(c->arena, const Type *, n);
    for (uint32_t i = 0; i < n; i++)
      ts[i] = vals[i].type;
    const Type *u = conv_unify(c->arena, ts, n, false);
    if (!u) {
      eval_err(c, &e->range, NULL, "Invalid splat expression",
               "The elements produced by this splat expression have "
               "inconsistent types, so they cannot form a list.");
      return false;
    }
    for (uint32_t i = 0; i < n; i++)
      if (!ty_equal(vals[i].type, u))
        eval_conv(c, vals[i], u, &vals[i], NULL);
    *out = val_mark(val_list(c->arena, u, vals, n), m);
    return ok;
  }
  *out = val_mark(val_tuple(c->arena, vals, n), m);
  return ok;
}

bool eval_anon(EvalCtx *c, const HclExpr *e, Value *out)
{
  for (const EvalScope *s = c->scope; s; s = s->parent)
    if (s->anon == e) {
      *out = s->val;
      return true;
    }
  *out = eval_dyn();
  return true;
}
