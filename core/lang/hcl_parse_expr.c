/*
** hcl_parse_expr: expressions (parser.go's parseExpression down to
** parseExpressionTerm): operators by precedence, conditionals, function
** calls, for expressions, tuples, objects, traversals, splats and the
** nesting limit.
*/
#include "hcl_parse_priv.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Steps of a traversal under construction (in scratch memory): they go
** to the tree, exactly sized, once the traversal is complete. */
typedef struct StepVec {
  HclStep *p;
  uint32_t n, cap;
} StepVec;

static void spush(Arena *a, StepVec *v, HclStep s)
{
  if (v->n == v->cap) {
    uint32_t nc = v->cap ? v->cap * 2 : 4;
    v->p = arena_grow(a, v->p, sizeof(HclStep), _Alignof(HclStep), v->cap,
                      nc);
    v->cap = nc;
  }
  v->p[v->n++] = s;
}

static HclExpr *parse_with_traversals(P *p);
static HclExpr *parse_traversals(P *p, HclExpr *from, StepVec *pend);
static HclExpr *parse_traversals_held(P *p, HclExpr *from, StepVec *pend,
                                      int *held);

/* ---- Expressions ------------------------------------------------------------ */

static HclExpr *parse_call(P *p, Tok name)
{
  Tok open = hcl_rd(p);
  Buf nm;
  buf_init(&nm, p->s);
  buf_put(&nm, name.s, name.len);
  SrcPos name_end = name.r.end;
  uint32_t nparts = 1;
  const char *base_start_off = NULL;
  size_t base_off = 0;
  while (open.k == HCL_TOK_DOUBLE_COLON) {
    Tok part = hcl_rd(p);
    if (part.k != HCL_TOK_IDENT) {
      SrcRange c = hcl_between(name.r, part.r);
      hcl_err(p, part.r, &c, "Missing function name",
              "Function scope resolution symbol :: must be followed by a "
              "function name in this scope.");
      hcl_recover_over(p, HCL_TOK_OPAREN);
      return hcl_placeholder(p, hcl_between(name.r, part.r));
    }
    buf_puts(&nm, "::");
    base_off = nm.len;
    buf_put(&nm, part.s, part.len);
    name_end = part.r.end;
    nparts++;
    open = hcl_rd(p);
  }
  (void)base_start_off;
  SrcRange name_r = name.r;
  name_r.end = name_end;
  if (open.k != HCL_TOK_OPAREN) {
    SrcRange c = hcl_between(name.r, open.r);
    hcl_err(p, open.r, &c, "Missing open parenthesis",
            "Function selector must be followed by an open parenthesis to "
            "begin the function call.");
    hcl_recover_over(p, HCL_TOK_OPAREN);
    return hcl_placeholder(p, hcl_between(name.r, open.r));
  }
  Vec args = {0};
  bool expand = false;
  Tok close = open;
  hcl_push_nl(p, false);
  for (;;) {
    Tok t = hcl_peek(p);
    if (t.k == HCL_TOK_CPAREN) {
      close = hcl_rd(p);
      break;
    }
    int e0 = p->d->errors;
    HclExpr *arg = hcl_p_expression(p);
    hcl_vpush(p->s, &args, arg);
    if (p->recovery && hcl_errs_since(p, e0)) {
      close = hcl_recover_to(p, HCL_TOK_CPAREN);
      break;
    }
    Tok sep = hcl_rd(p);
    if (sep.k == HCL_TOK_CPAREN) {
      close = sep;
      break;
    }
    if (sep.k == HCL_TOK_ELLIPSIS) {
      expand = true;
      if (hcl_peek(p).k != HCL_TOK_CPAREN) {
        if (!p->recovery) {
          SrcRange c = hcl_between(name.r, sep.r);
          hcl_err(p, sep.r, &c, "Missing closing parenthesis",
                  "An expanded function argument (with ...) must be "
                  "immediately followed by closing parentheses.");
        }
        close = hcl_recover_to(p, HCL_TOK_CPAREN);
      } else {
        close = hcl_rd(p);
      }
      break;
    }
    if (sep.k != HCL_TOK_COMMA) {
      if (sep.k == HCL_TOK_EOF) {
        hcl_err(p, hcl_between(name.r, open.r), NULL,
                "Unterminated function call",
                "There is no closing parenthesis for this function call before "
                "the end of the file. This may be caused by incorrect "
                "parethesis nesting elsewhere in this file.");
      } else {
        SrcRange c = hcl_between(name.r, sep.r);
        hcl_err(p, sep.r, &c, "Missing argument separator",
                "A comma is required to separate each function argument from "
                "the next.");
      }
      close = hcl_recover_to(p, HCL_TOK_CPAREN);
      break;
    }
    if (hcl_peek(p).k == HCL_TOK_CPAREN) {
      close = hcl_rd(p);
      break;
    }
  }
  hcl_pop_nl(p);
  HclExpr *e = hcl_new_expr(p, HCL_E_CALL, hcl_between(name.r, close.r));
  e->u.call.name = arena_strndup(p->a, buf_str(&nm), nm.len);
  e->u.call.base = e->u.call.name + base_off;
  e->u.call.nparts = nparts;
  e->u.call.args = HCL_VFINAL(p, args, HclExpr *);
  e->u.call.nargs = args.n;
  e->u.call.expand_final = expand;
  e->u.call.name_range = name_r;
  e->u.call.open_range = open.r;
  e->u.call.close_range = close.r;
  return e;
}

static HclExpr *parse_for(P *p, Tok open)
{
  hcl_push_nl(p, false);
  hcl_rd(p); /* `for` */
  bool obj = open.k == HCL_TOK_OBRACE;
  HclTokenKind close_k = obj ? HCL_TOK_CBRACE : HCL_TOK_CBRACK;
  const char *kn = NULL, *vn = NULL;
  const char *problem = NULL;
  HclExpr *coll = NULL, *ke = NULL, *ve = NULL, *ce = NULL;
  bool group = false;
  Tok ellipsis = open;
  Tok close;

  if (hcl_peek(p).k != HCL_TOK_IDENT) {
    problem = "For expression requires variable name after 'for'.";
    goto bad;
  }
  vn = hcl_tok_str(p, hcl_rd(p));
  if (hcl_peek(p).k == HCL_TOK_COMMA) {
    kn = vn;
    hcl_rd(p);
    if (hcl_peek(p).k != HCL_TOK_IDENT) {
      problem = "For expression requires value variable name after comma.";
      goto bad;
    }
    vn = hcl_tok_str(p, hcl_rd(p));
  }
  if (!hcl_tok_is(hcl_peek(p), "in")) {
    problem = "For expression requires the 'in' keyword after its name "
              "declarations.";
    goto bad;
  }
  hcl_rd(p);
  {
    int e0 = p->d->errors;
    coll = hcl_p_expression(p);
    if (p->recovery && hcl_errs_since(p, e0))
      goto bad_quiet;
  }
  if (hcl_peek(p).k != HCL_TOK_COLON) {
    problem = "For expression requires a colon after the collection "
              "expression.";
    goto bad;
  }
  hcl_rd(p);
  {
    int e0 = p->d->errors;
    ve = hcl_p_expression(p);
    if (hcl_peek(p).k == HCL_TOK_FAT_ARROW) {
      hcl_rd(p);
      ke = ve;
      ve = hcl_p_expression(p);
    }
    if (p->recovery && hcl_errs_since(p, e0))
      goto bad_quiet;
  }
  if (hcl_peek(p).k == HCL_TOK_ELLIPSIS) {
    ellipsis = hcl_rd(p);
    group = true;
  }
  if (hcl_tok_is(hcl_peek(p), "if")) {
    hcl_rd(p);
    int e0 = p->d->errors;
    ce = hcl_p_expression(p);
    if (p->recovery && hcl_errs_since(p, e0))
      goto bad_quiet;
  }
  if (hcl_peek(p).k == close_k) {
    close = hcl_rd(p);
  } else {
    if (!p->recovery) {
      Tok t = hcl_peek(p);
      SrcRange c = hcl_between(open.r, t.r);
      hcl_err(p, t.r, &c, "Invalid 'for' expression",
              "Extra characters after the end of the 'for' expression.");
    }
    close = hcl_recover_to(p, close_k);
  }
  {
    SrcRange all = hcl_between(open.r, close.r);
    if (!obj) {
      if (ke)
        hcl_err(p, ke->range, hcl_rp(p, all), "Invalid 'for' expression",
                "Key expression is not valid when building a tuple.");
      if (group)
        hcl_err(p, ellipsis.r, hcl_rp(p, all), "Invalid 'for' expression",
                "Grouping ellipsis (...) cannot be used when building a "
                "tuple.");
    } else if (!ke) {
      hcl_err(p, ve->range, hcl_rp(p, all), "Invalid 'for' expression",
              "Key expression is required when building an object.");
    }
    HclExpr *e = hcl_new_expr(p, HCL_E_FOR, all);
    e->u.forx.key_var = kn;
    e->u.forx.val_var = vn;
    e->u.forx.coll = coll;
    e->u.forx.key = ke;
    e->u.forx.val = ve;
    e->u.forx.cond = ce;
    e->u.forx.group = group;
    e->u.forx.object = obj;
    e->u.forx.open_range = open.r;
    hcl_pop_nl(p);
    return e;
  }
bad:
  if (!p->recovery) {
    Tok t = hcl_peek(p);
    SrcRange c = hcl_between(open.r, t.r);
    hcl_err(p, t.r, &c, "Invalid 'for' expression", problem);
  }
bad_quiet:
  close = hcl_recover_to(p, close_k);
  hcl_pop_nl(p);
  return hcl_placeholder(p, hcl_between(open.r, close.r));
}

static HclExpr *parse_tuple(P *p)
{
  Tok open = hcl_rd(p);
  hcl_push_nl(p, false);
  if (hcl_tok_is(hcl_peek(p), "for")) {
    HclExpr *f = parse_for(p, open);
    hcl_pop_nl(p);
    return f;
  }
  Vec items = {0};
  Tok close;
  for (;;) {
    Tok next = hcl_peek(p);
    if (next.k == HCL_TOK_CBRACK) {
      close = hcl_rd(p);
      break;
    }
    int e0 = p->d->errors;
    hcl_vpush(p->s, &items, hcl_p_expression(p));
    if (p->recovery && hcl_errs_since(p, e0)) {
      close = hcl_recover_to(p, HCL_TOK_CBRACK);
      break;
    }
    next = hcl_peek(p);
    if (next.k == HCL_TOK_CBRACK) {
      close = hcl_rd(p);
      break;
    }
    if (next.k != HCL_TOK_COMMA) {
      if (!p->recovery) {
        if (next.k == HCL_TOK_EOF) {
          hcl_err(p, open.r, NULL, "Unterminated tuple constructor expression",
                  "There is no corresponding closing bracket before the end of "
                  "the file. This may be caused by incorrect bracket nesting "
                  "elsewhere in this file.");
        } else {
          SrcRange c = hcl_between(open.r, next.r);
          hcl_err(p, next.r, &c, "Missing item separator",
                  "Expected a comma to mark the beginning of the next item.");
        }
      }
      close = hcl_recover_to(p, HCL_TOK_CBRACK);
      break;
    }
    hcl_rd(p);
  }
  hcl_pop_nl(p);
  HclExpr *e = hcl_new_expr(p, HCL_E_TUPLE, hcl_between(open.r, close.r));
  e->u.tuple.items = HCL_VFINAL(p, items, HclExpr *);
  e->u.tuple.n = items.n;
  e->u.tuple.open_range = open.r;
  return e;
}

/* hcl.ExprAsKeyword on a freshly parsed key */
static const char *key_keyword(const HclExpr *k)
{
  if (k->kind == HCL_E_SCOPE_TRAV && k->u.trav.n == 1)
    return k->u.trav.steps[0].name;
  if (k->kind == HCL_E_LITERAL && !(k->u.lit.flags & VF_UNKNOWN)) {
    Value v = k->u.lit;
    if (val_is_null(v))
      return "null";
    if (v.type == &ty_bool)
      return v.u.b ? "true" : "false";
  }
  return NULL;
}

static HclExpr *parse_object(P *p)
{
  Tok open = hcl_rd(p);
  hcl_push_nl(p, false);
  bool is_for = hcl_tok_is(hcl_peek(p), "for");
  hcl_pop_nl(p);
  if (is_for)
    return parse_for(p, open);
  hcl_push_nl(p, true);
  HclObjectItem *items = NULL;
  uint32_t n = 0, cap = 0;
  Tok close;
  for (;;) {
    Tok next = hcl_peek(p);
    if (next.k == HCL_TOK_NEWLINE) {
      hcl_rd(p);
      continue;
    }
    if (next.k == HCL_TOK_CBRACE) {
      close = hcl_rd(p);
      break;
    }
    bool force = next.k == HCL_TOK_OPAREN;
    int e0 = p->d->errors;
    HclExpr *key = hcl_p_expression(p);
    if (p->recovery && hcl_errs_since(p, e0)) {
      close = hcl_recover_to(p, HCL_TOK_CBRACE);
      break;
    }
    next = hcl_peek(p);
    if (next.k != HCL_TOK_EQUAL && next.k != HCL_TOK_COLON) {
      if (!p->recovery) {
        SrcRange c = hcl_between(open.r, next.r);
        switch (next.k) {
        case HCL_TOK_NEWLINE:
        case HCL_TOK_COMMA:
          hcl_err(p, next.r, &c, "Missing attribute value",
                  "Expected an attribute value, introduced by an equals sign "
                  "(\"=\").");
          break;
        case HCL_TOK_IDENT:
          hcl_err(p, next.r, &c, "Missing key/value separator",
                  "Expected an equals sign (\"=\") to mark the beginning of "
                  "the attribute value. If you intended to given an attribute "
                  "name containing periods or spaces, write the name in quotes "
                  "to create a string literal.");
          break;
        case HCL_TOK_EOF:
          hcl_err(p, open.r, NULL, "Unterminated object constructor expression",
                  "There is no corresponding closing brace before the end of "
                  "the file. This may be caused by incorrect brace nesting "
                  "elsewhere in this file.");
          break;
        default:
          hcl_err(p, next.r, &c, "Missing key/value separator",
                  "Expected an equals sign (\"=\") to mark the beginning of "
                  "the attribute value.");
          break;
        }
      }
      close = hcl_recover_to(p, HCL_TOK_CBRACE);
      break;
    }
    hcl_rd(p);
    e0 = p->d->errors;
    HclExpr *val = hcl_p_expression(p);
    if (p->recovery && hcl_errs_since(p, e0)) {
      close = hcl_recover_to(p, HCL_TOK_CBRACE);
      break;
    }
    if (n == cap) {
      uint32_t nc = cap ? cap * 2 : 4;
      items = arena_grow(p->s, items, sizeof(HclObjectItem),
                         _Alignof(HclObjectItem), cap, nc);
      cap = nc;
    }
    HclObjectItem *it = &items[n++];
    it->key = key;
    it->value = val;
    it->key_parens = force;
    it->key_name = force ? NULL : key_keyword(key);
    it->key_ambiguous =
        !force && key->kind == HCL_E_SCOPE_TRAV && key->u.trav.n > 1;
    next = hcl_peek(p);
    if (next.k == HCL_TOK_CBRACE) {
      close = hcl_rd(p);
      break;
    }
    if (next.k != HCL_TOK_COMMA && next.k != HCL_TOK_NEWLINE) {
      if (!p->recovery) {
        if (next.k == HCL_TOK_EOF) {
          hcl_err(p, open.r, NULL, "Unterminated object constructor expression",
                  "There is no corresponding closing brace before the end of "
                  "the file. This may be caused by incorrect brace nesting "
                  "elsewhere in this file.");
        } else {
          SrcRange c = hcl_between(open.r, next.r);
          hcl_err(p, next.r, &c, "Missing attribute separator",
                  "Expected a newline or comma to mark the beginning of the "
                  "next attribute.");
        }
      }
      close = hcl_recover_to(p, HCL_TOK_CBRACE);
      break;
    }
    hcl_rd(p);
  }
  hcl_pop_nl(p);
  HclExpr *e = hcl_new_expr(p, HCL_E_OBJECT, hcl_between(open.r, close.r));
  e->u.object.items = (HclObjectItem *)hcl_vcopy(
      p->a, items, sizeof(HclObjectItem), _Alignof(HclObjectItem), n);
  e->u.object.n = n;
  e->u.object.open_range = open.r;
  return e;
}

bool hcl_p_enter(P *p)
{
  if (p->depth >= HCL_MAX_DEPTH) {
    if (!p->too_deep) {
      Tok t = hcl_peek(p);
      hcl_err(p, t.r, NULL, "Nesting too deep",
              "This construct is nested more deeply than the supported limit "
              "of 500 levels.");
      p->too_deep = true;
    }
    p->recovery = true;
    return false;
  }
  p->depth++;
  return true;
}

/* A root name is pushed to pend rather than allocated: parse_traversals
** adds the steps that follow and puts them in the tree in one piece. */
static HclExpr *parse_term_inner(P *p, StepVec *pend)
{
  Tok start = hcl_peek(p);
  switch (start.k) {
  case HCL_TOK_OPAREN: {
    Tok open = hcl_rd(p);
    hcl_push_nl(p, false);
    int e0 = p->d->errors;
    HclExpr *e = hcl_p_expression(p);
    if (hcl_errs_since(p, e0)) {
      hcl_recover_to(p, HCL_TOK_CPAREN);
      hcl_pop_nl(p);
      return e;
    }
    Tok close = hcl_peek(p);
    if (close.k != HCL_TOK_CPAREN) {
      SrcRange c = hcl_between(start.r, close.r);
      hcl_err(p, close.r, &c, "Unbalanced parentheses",
              "Expected a closing parenthesis to terminate the expression.");
      p->recovery = true;
    }
    close = hcl_rd(p);
    hcl_pop_nl(p);
    HclExpr *w = hcl_new_expr(p, HCL_E_PAREN, hcl_between(open.r, close.r));
    w->u.wrap = e;
    return w;
  }
  case HCL_TOK_NUMBER_LIT: {
    Tok t = hcl_rd(p);
    Value v;
    /* Every digit written is kept, as cty's 512-bit number does: the
    ** state then holds 1.2345678901234567 as written, and a plan compares
    ** it with the same literal (docs/values.md). */
    if (!val_parse_number(p->a, t.s, t.len, true, &v)) {
      hcl_err(p, t.r, NULL, "Invalid number literal",
              "Failed to recognize the value of this number literal.");
      v = val_unknown(&ty_number);
    }
    return hcl_lit(p, v, t.r);
  }
  case HCL_TOK_IDENT: {
    Tok t = hcl_rd(p);
    Tok nx = hcl_peek(p);
    if (nx.k == HCL_TOK_OPAREN || nx.k == HCL_TOK_DOUBLE_COLON)
      return parse_call(p, t);
    if (hcl_tok_is(t, "true"))
      return hcl_lit(p, val_true, t.r);
    if (hcl_tok_is(t, "false"))
      return hcl_lit(p, val_false, t.r);
    if (hcl_tok_is(t, "null"))
      return hcl_lit(p, val_dynamic_null, t.r);
    HclExpr *e = hcl_new_expr(p, HCL_E_SCOPE_TRAV, t.r);
    HclStep s;
    memset(&s, 0, sizeof s);
    s.kind = HCL_STEP_ROOT;
    s.name = hcl_tok_str(p, t);
    s.range = t.r;
    spush(p->s, pend, s);
    return e;
  }
  case HCL_TOK_OQUOTE:
  case HCL_TOK_OHEREDOC: {
    Tok open = hcl_rd(p);
    bool flush = open.k == HCL_TOK_OHEREDOC && open.len > 2 &&
                 open.s[2] == '-';
    return hcl_p_template_inner(p, hcl_opposite(open.k), flush, open.r, true);
  }
  case HCL_TOK_MINUS:
  case HCL_TOK_BANG: {
    Tok t = hcl_rd(p);
    HclExpr *operand;
    if (hcl_p_enter(p)) {
      operand = parse_with_traversals(p);
      p->depth--;
    } else {
      operand = hcl_placeholder(p, hcl_next_range(p));
    }
    HclExpr *e = hcl_new_expr(p, HCL_E_UNARY, hcl_between(t.r, operand->range));
    e->u.unary.op = t.k == HCL_TOK_MINUS ? HCL_OP_NEG : HCL_OP_NOT;
    e->u.unary.operand = operand;
    e->u.unary.symbol_range = t.r;
    return e;
  }
  case HCL_TOK_OBRACK:
    return parse_tuple(p);
  case HCL_TOK_OBRACE:
    return parse_object(p);
  default:
    if (!p->recovery) {
      if (start.k == HCL_TOK_EOF)
        hcl_err(p, start.r, NULL, "Missing expression",
                "Expected the start of an expression, but found the end of the "
                "file.");
      else
        hcl_err(p, start.r, NULL, "Invalid expression",
                "Expected the start of an expression, but found an invalid "
                "expression token.");
    }
    p->recovery = true;
    return hcl_placeholder(p, start.r);
  }
}

/* Depth is counted in hcl_p_expression (every bracketed construct nests
** through it) and for unary operators and splats, which recurse without
** it. */
static HclExpr *parse_with_traversals(P *p)
{
  StepVec pend = {0};
  HclExpr *term = parse_term_inner(p, &pend);
  return parse_traversals(p, term, &pend);
}

/* Appends pending steps to a traversal node (exactly once per node). */
static HclExpr *flush_steps(P *p, HclExpr *ret, StepVec *pend)
{
  if (pend->n == 0)
    return ret;
  HclStep **arr;
  uint32_t *n;
  if (ret->kind == HCL_E_SCOPE_TRAV) {
    arr = &ret->u.trav.steps;
    n = &ret->u.trav.n;
  } else if (ret->kind == HCL_E_REL_TRAV) {
    arr = &ret->u.rel.steps;
    n = &ret->u.rel.n;
  } else {
    HclExpr *r = hcl_new_expr(p, HCL_E_REL_TRAV, ret->range);
    r->u.rel.src = ret;
    ret = r;
    arr = &ret->u.rel.steps;
    n = &ret->u.rel.n;
  }
  HclStep *ns = arena_alloc_raw(p->a, sizeof(HclStep), _Alignof(HclStep),
                                *n + pend->n);   /* filled just below */
  if (*n)
    memcpy(ns, *arr, sizeof(HclStep) * *n);
  memcpy(ns + *n, pend->p, sizeof(HclStep) * pend->n);
  *n += pend->n;
  *arr = ns;
  ret->range = hcl_between(ret->range, pend->p[pend->n - 1].range);
  pend->n = 0;
  return ret;
}

static bool legacy_index(P *p, Tok num, Tok dot, HclStep *st, bool splat,
                         SrcRange subject)
{
  memset(st, 0, sizeof *st);
  st->kind = HCL_STEP_INDEX;
  st->legacy = true;
  st->range = hcl_between(dot.r, num.r);
  const char *dp = memchr(num.s, '.', num.len);
  if (dp) {
    int a = (int)(dp - num.s);
    int b = (int)(num.len - (uint32_t)a - 1);
    Diag *g = diag_error(
        p->d, &subject, "Invalid legacy index syntax",
        "When using the legacy index syntax, chaining two indexes together "
        "is not permitted. Use the proper index syntax%s instead, like "
        "[%.*s][%.*s].", splat ? " with a full splat expression [*]" : "",
        a, num.s, b, dp + 1);
    (void)g;
    st->key = &val_dynamic_unknown;
    return false;
  }
  Value *key = ARENA_NEW(p->a, Value, 1);
  if (!val_parse_number(p->a, num.s, num.len, false, key)) {
    hcl_err(p, num.r, NULL, "Invalid number literal",
            "Failed to recognize the value of this number literal.");
    *key = val_unknown(&ty_number);
  }
  st->key = key;
  return true;
}

/* Each splat and each index by a non-literal key wraps what came before
** (and flush_steps may wrap it once more): two levels of nesting each, held
** until the chain ends, so a[*].b[*].b... is bounded like an operator
** chain (see parse_binary). */
static HclExpr *parse_traversals(P *p, HclExpr *from, StepVec *pend)
{
  int held = 0;
  HclExpr *ret = parse_traversals_held(p, from, pend, &held);
  p->depth -= held;
  return ret;
}

static bool hold_two(P *p, int *held)
{
  if (!hcl_p_enter(p))
    return false;
  (*held)++;
  if (!hcl_p_enter(p))
    return false;
  (*held)++;
  return true;
}

static HclExpr *parse_traversals_held(P *p, HclExpr *from, StepVec *pend,
                                      int *held)
{
  HclExpr *ret = from;
  for (;;) {
    Tok next = hcl_peek(p);
    if (next.k == HCL_TOK_DOT) {
      Tok dot = hcl_rd(p);
      Tok at = hcl_peek(p);
      if (at.k == HCL_TOK_IDENT) {
        at = hcl_rd(p);
        HclStep st;
        memset(&st, 0, sizeof st);
        st.kind = HCL_STEP_ATTR;
        st.name = hcl_tok_str(p, at);
        st.range = hcl_between(dot.r, at.r);
        spush(p->s, pend, st);
      } else if (at.k == HCL_TOK_NUMBER_LIT) {
        Tok num = hcl_rd(p);
        HclStep st;
        legacy_index(p, num, dot, &st, false, num.r);
        spush(p->s, pend, st);
      } else if (at.k == HCL_TOK_STAR) {
        Tok marker = hcl_rd(p);
        if (!hold_two(p, held))
          break;
        ret = flush_steps(p, ret, pend);
        StepVec trav = {0};
        SrcRange first = hcl_next_range(p), last = marker.r;
        bool bail = false;
        while (hcl_peek(p).k == HCL_TOK_DOT) {
          Tok d2 = hcl_rd(p);
          Tok nt = hcl_peek(p);
          if (nt.k == HCL_TOK_NUMBER_LIT) {
            Tok num = hcl_rd(p);
            HclStep st;
            legacy_index(p, num, d2, &st, true, at.r);
            spush(p->s, &trav, st);
            last = num.r;
            continue;
          }
          if (nt.k != HCL_TOK_IDENT) {
            if (!p->recovery) {
              if (nt.k == HCL_TOK_STAR)
                hcl_err(p, nt.r, NULL, "Nested splat expression not allowed",
                        "A splat expression (*) cannot be used inside another "
                        "attribute-only splat expression.");
              else
                hcl_err(p, at.r, NULL, "Invalid attribute name",
                        "An attribute name is required after a dot.");
            }
            p->recovery = true;
            bail = true;
            break;
          }
          Tok an = hcl_rd(p);
          HclStep st;
          memset(&st, 0, sizeof st);
          st.kind = HCL_STEP_ATTR;
          st.name = hcl_tok_str(p, an);
          st.range = hcl_between(d2.r, an.r);
          spush(p->s, &trav, st);
          last = an.r;
        }
        HclExpr *item =
            hcl_new_expr(p, HCL_E_ANON, hcl_between(dot.r, marker.r));
        HclExpr *each = item;
        if (trav.n > 0) {
          each = hcl_new_expr(p, HCL_E_REL_TRAV, hcl_between(first, last));
          each->u.rel.src = item;
          each->u.rel.steps = HCL_VFINAL(p, trav, HclStep);
          each->u.rel.n = trav.n;
        }
        HclExpr *sp =
            hcl_new_expr(p, HCL_E_SPLAT, hcl_between(from->range, last));
        sp->u.splat.src = ret;
        sp->u.splat.each = each;
        sp->u.splat.item = item;
        sp->u.splat.marker_range = hcl_between(dot.r, marker.r);
        sp->u.splat.attr_only = true;
        ret = sp;
        if (bail)
          continue;
      } else {
        hcl_err(p, at.r, NULL, "Invalid attribute name",
                "An attribute name is required after a dot.");
        p->recovery = true;
      }
      continue;
    }
    if (next.k == HCL_TOK_OBRACK) {
      Tok open = hcl_rd(p);
      if (hcl_peek(p).k == HCL_TOK_STAR) {
        hcl_rd(p);
        Tok close = hcl_rd(p);
        if (close.k != HCL_TOK_CBRACK && !p->recovery) {
          /* the Go parser reports the token recovery stopped at */
          close = hcl_recover_to(p, HCL_TOK_CBRACK);
          hcl_err(p, close.r, NULL, "Missing close bracket on splat index",
                  "The star for a full splat operator must be immediately "
                  "followed by a closing bracket (\"]\").");
        }
        if (!hold_two(p, held))
          break;
        ret = flush_steps(p, ret, pend);
        HclExpr *item =
            hcl_new_expr(p, HCL_E_ANON, hcl_between(open.r, close.r));
        HclExpr *each;
        if (hcl_p_enter(p)) {
          StepVec inner = {0};
          each = parse_traversals(p, item, &inner);
          p->depth--;
        } else {
          each = item;
        }
        HclExpr *sp =
            hcl_new_expr(p, HCL_E_SPLAT, hcl_between(from->range, each->range));
        sp->u.splat.src = ret;
        sp->u.splat.each = each;
        sp->u.splat.item = item;
        sp->u.splat.marker_range = hcl_between(open.r, close.r);
        ret = sp;
        continue;
      }
      hcl_push_nl(p, false);
      int e0 = p->d->errors;
      HclExpr *key = hcl_p_expression(p);
      Tok close;
      if (p->recovery && hcl_errs_since(p, e0)) {
        close = hcl_recover_to(p, HCL_TOK_CBRACK);
      } else {
        close = hcl_rd(p);
        if (close.k != HCL_TOK_CBRACK && !p->recovery) {
          close = hcl_recover_to(p, HCL_TOK_CBRACK);
          hcl_err(p, close.r, NULL, "Missing close bracket on index",
                  "The index operator must end with a closing bracket "
                  "(\"]\").");
        }
      }
      hcl_pop_nl(p);
      SrcRange br = hcl_between(open.r, close.r);
      const HclExpr *k = key;
      bool is_lit = k->kind == HCL_E_LITERAL ||
                    (k->kind == HCL_E_TEMPLATE && k->u.tmpl.n == 1 &&
                     k->u.tmpl.parts[0]->kind == HCL_E_LITERAL &&
                     k->u.tmpl.parts[0]->u.lit.type == &ty_string);
      if (is_lit) {
        HclStep st;
        memset(&st, 0, sizeof st);
        st.kind = HCL_STEP_INDEX;
        /* the literal stays in the tree: point at its value */
        st.key = k->kind == HCL_E_LITERAL ? &k->u.lit
                                          : &k->u.tmpl.parts[0]->u.lit;
        st.range = br;
        spush(p->s, pend, st);
      } else {
        if (!hold_two(p, held))
          break;
        ret = flush_steps(p, ret, pend);
        HclExpr *ix =
            hcl_new_expr(p, HCL_E_INDEX, hcl_between(from->range, br));
        ix->u.index.coll = ret;
        ix->u.index.key = key;
        ix->u.index.bracket_range = br;
        ret = ix;
      }
      continue;
    }
    break;
  }
  return flush_steps(p, ret, pend);
}

static int bin_level(HclTokenKind k, HclBinOp *op)
{
  switch (k) {
  case HCL_TOK_OR: *op = HCL_OP_OR; return 0;
  case HCL_TOK_AND: *op = HCL_OP_AND; return 1;
  case HCL_TOK_EQUAL_OP: *op = HCL_OP_EQ; return 2;
  case HCL_TOK_NOT_EQUAL: *op = HCL_OP_NE; return 2;
  case HCL_TOK_GREATER_THAN: *op = HCL_OP_GT; return 3;
  case HCL_TOK_GREATER_THAN_EQ: *op = HCL_OP_GE; return 3;
  case HCL_TOK_LESS_THAN: *op = HCL_OP_LT; return 3;
  case HCL_TOK_LESS_THAN_EQ: *op = HCL_OP_LE; return 3;
  case HCL_TOK_PLUS: *op = HCL_OP_ADD; return 4;
  case HCL_TOK_MINUS: *op = HCL_OP_SUB; return 4;
  case HCL_TOK_STAR: *op = HCL_OP_MUL; return 5;
  case HCL_TOK_SLASH: *op = HCL_OP_DIV; return 5;
  case HCL_TOK_PERCENT: *op = HCL_OP_MOD; return 5;
  default: return -1;
  }
}

/* Precedence climbing; left-associative at every level, as parseBinaryOps.
** A chain a+b+c... builds a left-deep tree as deep as it is long, and every
** walker of the tree (references, evaluation, fmt) recurses over it: each
** operator counts as one level of nesting (p->depth, bounded by
** HCL_MAX_DEPTH), so 150,000 terms give "Nesting too deep" instead of a
** stack overflow.  The levels are held while the rest of the chain parses,
** so a chain nested in another chain counts both. */
static HclExpr *parse_binary(P *p, int min)
{
  int e0 = p->d->errors;
  HclExpr *lhs = parse_with_traversals(p);
  if (p->recovery && hcl_errs_since(p, e0))
    return lhs;
  int held = 0;
  for (;;) {
    HclBinOp op;
    int lvl = bin_level(hcl_peek(p).k, &op);
    if (lvl < 0 || lvl < min)
      break;
    if (!hcl_p_enter(p))
      break;
    held++;
    hcl_rd(p);
    int e1 = p->d->errors;
    HclExpr *rhs = parse_binary(p, lvl + 1);
    if (p->recovery && hcl_errs_since(p, e1))
      break;
    HclExpr *b =
        hcl_new_expr(p, HCL_E_BINARY, hcl_between(lhs->range, rhs->range));
    b->u.binary.op = op;
    b->u.binary.lhs = lhs;
    b->u.binary.rhs = rhs;
    lhs = b;
  }
  p->depth -= held;
  return lhs;
}

HclExpr *hcl_p_expression(P *p)
{
  if (!hcl_p_enter(p))
    return hcl_placeholder(p, hcl_next_range(p));
  SrcRange start = hcl_next_range(p);
  int e0 = p->d->errors;
  HclExpr *c = parse_binary(p, 0);
  HclExpr *ret = c;
  if (p->recovery && hcl_errs_since(p, e0))
    goto out;
  if (hcl_peek(p).k != HCL_TOK_QUESTION)
    goto out;
  hcl_rd(p);
  e0 = p->d->errors;
  HclExpr *t = hcl_p_expression(p);
  if (p->recovery && hcl_errs_since(p, e0))
    goto out;
  Tok colon = hcl_peek(p);
  if (colon.k != HCL_TOK_COLON) {
    SrcRange cx = hcl_between(start, colon.r);
    hcl_err(p, colon.r, &cx, "Missing false expression in conditional",
            "The conditional operator (...?...:...) requires a false "
            "expression, delimited by a colon.");
    goto out;
  }
  hcl_rd(p);
  e0 = p->d->errors;
  HclExpr *f = hcl_p_expression(p);
  if (p->recovery && hcl_errs_since(p, e0))
    goto out;
  ret = hcl_new_expr(p, HCL_E_COND, hcl_between(start, f->range));
  ret->u.cond.c = c;
  ret->u.cond.t = t;
  ret->u.cond.f = f;
out:
  p->depth--;
  return ret;
}
