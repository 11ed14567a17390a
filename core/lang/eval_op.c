/*
** eval_op.c: binary and unary operators (hclsyntax's BinaryOpExpr and
** UnaryOpExpr): cty's Equals, operand conversion, null and unknown
** operands, short-circuiting && and ||, and how marks propagate.
*/
#include <math.h>
#include <string.h>

#include "eval_priv.h"

/* ---- Operators ------------------------------------------------------------ */

/* cty Value.Equals: 1 true, 0 false, -1 unknown.  Marks are ignored here
** (the caller collects them). */
static int val_equals(Value a, Value b)
{
  bool ak = val_is_known(a), bk = val_is_known(b);
  if (!ak && !bk)
    return -1;
  if (ak != bk) {
    Value k = ak ? a : b, u = ak ? b : a;
    /* cty >= 1.13 (Terraform >= 1.6): an unknown refined as not null
    ** is definitely not equal to null. */
    if (val_is_null(k) && (u.flags & VF_NOTNULL))
      return 0;
    if (val_is_null(k) || ty_has_dynamic(u.type))
      return -1;
    if (!ty_equal(k.type, u.type))
      return 0;
    return -1;
  }
  if (val_is_null(a) && val_is_null(b))
    return 1;
  if (val_is_null(a) || val_is_null(b))
    return 0;
  if (ty_has_dynamic(a.type) || ty_has_dynamic(b.type)) {
    if (a.type->kind != TY_DYNAMIC && b.type->kind != TY_DYNAMIC &&
        a.type->kind != b.type->kind)
      return 0;
    return -1;
  }
  if (!ty_equal(a.type, b.type))
    return 0;
  switch (a.type->kind) {
  case TY_NUMBER:
    return val_num_cmp(a, b) == 0;
  case TY_BOOL:
    return a.u.b == b.u.b;
  case TY_STRING:
    return a.len == b.len && memcmp(a.u.s, b.u.s, a.len) == 0;
  case TY_MAP: {
    if (a.len != b.len)
      return 0;
    for (uint32_t i = 0; i < a.len; i++)
      if (a.u.entries[i].keylen != b.u.entries[i].keylen ||
          memcmp(a.u.entries[i].key, b.u.entries[i].key,
                 a.u.entries[i].keylen) != 0)
        return 0;
    int res = 1;
    for (uint32_t i = 0; i < a.len; i++) {
      int r = val_equals(a.u.entries[i].val, b.u.entries[i].val);
      if (r < 0)
        return -1;
      if (r == 0)
        res = 0;
    }
    return res;
  }
  case TY_SET: {
    if (!val_is_wholly_known(a) || !val_is_wholly_known(b))
      return -1;
    if (a.len != b.len)
      return 0;
    for (uint32_t i = 0; i < a.len; i++)
      if (val_compare(val_unmark(a.u.elems[i]), val_unmark(b.u.elems[i])))
        return 0;
    return 1;
  }
  case TY_LIST:
  case TY_TUPLE:
  case TY_OBJECT: {
    uint32_t n = eval_count_of(a);
    if (n != eval_count_of(b))
      return 0;
    for (uint32_t i = 0; i < n; i++) {
      int r = val_equals(a.u.elems[i], b.u.elems[i]);
      if (r <= 0)
        return r;
    }
    return 1;
  }
  default:
    return -1;
  }
}

static uint16_t deep_mark(Value v)
{
  return val_marks_deep(v);
}

static bool op_failed(EvalCtx *c, const HclExpr *e, const char *msg,
                      const Type *t, Value *out)
{
  eval_err(c, &e->range, NULL, "Operation failed",
           "Error during operation: %s.", msg);
  *out = val_unknown(t);
  return false;
}

static bool is_logical(HclBinOp op) { return op == HCL_OP_AND || op == HCL_OP_OR; }

static const Type *binop_param(HclBinOp op)
{
  switch (op) {
  case HCL_OP_OR:
  case HCL_OP_AND:
    return &ty_bool;
  case HCL_OP_EQ:
  case HCL_OP_NE:
    return &ty_dynamic;
  default:
    return &ty_number;
  }
}

static const Type *binop_result(HclBinOp op)
{
  switch (op) {
  case HCL_OP_ADD:
  case HCL_OP_SUB:
  case HCL_OP_MUL:
  case HCL_OP_DIV:
  case HCL_OP_MOD:
    return &ty_number;
  default:
    return &ty_bool;
  }
}

bool eval_binary(EvalCtx *c, const HclExpr *e, Value *out)
{
  HclBinOp op = e->u.binary.op;
  const Type *pt = binop_param(op), *rt = binop_result(op);
  Diags ld, rd, cd;
  diag_init(&ld, c->diags->arena);
  diag_init(&rd, c->diags->arena);
  diag_init(&cd, c->diags->arena);
  Value gl, gr, l = eval_dyn(), r = eval_dyn();
  const char *msg = NULL;

  eval_expr_into(c, e->u.binary.lhs, &gl, &ld);
  if (pt->kind == TY_DYNAMIC)
    l = gl;
  else if (!eval_conv(c, gl, pt, &l, &msg)) {
    Diags *s = c->diags;
    c->diags = &cd;
    eval_err(c, &e->u.binary.lhs->range, &e->range, "Invalid operand",
             "Unsuitable value for left operand: %s.", msg);
    c->diags = s;
  }
  eval_expr_into(c, e->u.binary.rhs, &gr, &rd);
  if (pt->kind == TY_DYNAMIC)
    r = gr;
  else if (!eval_conv(c, gr, pt, &r, &msg)) {
    Diags *s = c->diags;
    c->diags = &cd;
    eval_err(c, &e->u.binary.rhs->range, &e->range, "Invalid operand",
             "Unsuitable value for right operand: %s.", msg);
    c->diags = s;
  }
  if (diag_has_errors(&cd)) {
    diag_move(c->diags, &cd);
    diag_move(c->diags, &ld);
    diag_move(c->diags, &rd);
    *out = val_unknown(rt);
    return false;
  }
  uint16_t m;
  if (op == HCL_OP_EQ || op == HCL_OP_NE)
    m = (uint16_t)(deep_mark(l) | deep_mark(r));
  else
    m = (uint16_t)(eval_smark(l) | eval_smark(r));
  l = val_unmark(l);
  r = val_unmark(r);

  if (is_logical(op) && !val_is_null(l) && !val_is_null(r)) {
    bool lk = val_is_known(l), rk = val_is_known(r);
    bool decide = op == HCL_OP_OR;   /* the controlling value */
    Diags *keep = NULL;
    Value force = val_unknown(&ty_bool);
    bool forced = false;
    if (!lk && !rk) {
      if (!diag_has_errors(&ld)) {
        keep = &ld;
        forced = true;
      }
    } else if (lk && l.u.b == decide) {
      keep = &ld;
      force = val_bool(decide);
      forced = true;
    } else if (rk && r.u.b == decide) {
      keep = &rd;
      force = val_bool(decide);
      forced = true;
    } else if (!lk && rk) {
      keep = &ld;
      forced = true;
    } else if (!rk && lk) {
      keep = &rd;
      forced = true;
    }
    if (forced) {
      bool ok = !diag_has_errors(keep);
      diag_move(c->diags, keep);
      *out = val_mark(force, m);
      return ok;
    }
  }
  bool had = diag_has_errors(&ld) || diag_has_errors(&rd);
  diag_move(c->diags, &ld);
  diag_move(c->diags, &rd);
  if (had) {
    *out = val_mark(val_unknown(rt), m);
    return false;
  }
  if (op == HCL_OP_EQ || op == HCL_OP_NE) {
    int q = val_equals(l, r);
    if (q < 0)
      *out = val_unknown(&ty_bool);
    else
      *out = val_bool(op == HCL_OP_EQ ? q == 1 : q == 0);
    *out = val_mark(*out, m);
    return true;
  }
  if (val_is_null(l) || val_is_null(r))
    return op_failed(c, e, "argument must not be null", rt, out);
  if (val_is_unknown(l) || val_is_unknown(r)) {
    *out = val_mark(val_unknown(rt), m);
    return true;
  }
  Value res;
  switch (op) {
  case HCL_OP_AND:
    res = val_bool(l.u.b && r.u.b);
    break;
  case HCL_OP_OR:
    res = val_bool(l.u.b || r.u.b);
    break;
  case HCL_OP_GT:
    res = val_bool(val_num_cmp(l, r) > 0);
    break;
  case HCL_OP_GE:
    res = val_bool(val_num_cmp(l, r) >= 0);
    break;
  case HCL_OP_LT:
    res = val_bool(val_num_cmp(l, r) < 0);
    break;
  case HCL_OP_LE:
    res = val_bool(val_num_cmp(l, r) <= 0);
    break;
  case HCL_OP_ADD:
    res = val_num_add(l, r);
    break;
  case HCL_OP_SUB:
    res = val_num_sub(l, r);
    break;
  case HCL_OP_MUL:
    res = val_num_mul(l, r);
    break;
  case HCL_OP_DIV: {
    double ld2 = val_num_double(l), rd2 = val_num_double(r);
    if ((ld2 == 0 && rd2 == 0) || (isinf(ld2) && isinf(rd2)))
      return op_failed(c, e,
                       "can't divide zero by zero or infinity by infinity",
                       rt, out);
    if (!val_num_div(l, r, &res))
      res = val_double(ld2 < 0 ? -INFINITY : INFINITY);
    break;
  }
  case HCL_OP_MOD: {
    double ld2 = val_num_double(l), rd2 = val_num_double(r);
    if (isinf(ld2) || isinf(rd2)) {
      if (rd2 == 0 || ld2 == 0)
        return op_failed(c, e, "can't use modulo with zero and infinity",
                         rt, out);
      res = val_num_mul(l, r);
    } else if (!val_num_mod(l, r, &res)) {
      res = l;   /* cty: x % 0 is x */
    }
    break;
  }
  default:
    res = eval_dyn();
    break;
  }
  *out = val_mark(res, m);
  return true;
}

bool eval_unary(EvalCtx *c, const HclExpr *e, Value *out)
{
  bool neg = e->u.unary.op == HCL_OP_NEG;
  const Type *t = neg ? &ty_number : &ty_bool;
  Value g, v = eval_dyn();
  size_t before = (size_t)c->diags->errors;
  eval_expr(c, e->u.unary.operand, &g);
  const char *msg = NULL;
  if (!eval_conv(c, g, t, &v, &msg))
    eval_err(c, &e->u.unary.operand->range, &e->range, "Invalid operand",
             "Unsuitable value for unary operand: %s.", msg);
  if ((size_t)c->diags->errors > before) {
    *out = val_unknown(t);
    return false;
  }
  uint16_t m = eval_smark(v);
  v = val_unmark(v);
  if (val_is_null(v))
    return op_failed(c, e, "argument must not be null", t, out);
  if (val_is_unknown(v))
    *out = val_unknown(t);
  else if (neg)
    *out = val_num_neg(v);
  else
    *out = val_bool(!v.u.b);
  *out = val_mark(*out, m);
  return true;
}
