/*
** hcl_parse: the HCL native-syntax parser (hclsyntax's parser.go and
** parser_template.go, hand-written recursive descent over the token array
** of hcl_lex).  Same structure, recovery strategy and diagnostics as the
** Go parser so that error messages and ranges match Terraform's.  Depth is
** bounded by HCL_MAX_DEPTH; every loop consumes a token, so parsing is
** linear in the input.
**
** This file holds the parser state: the token ring and the peeker,
** newline modes, recovery, vectors, node construction, and the public
** entry points.  The grammar is in hcl_parse_expr.c (expressions),
** hcl_parse_tmpl.c (string literals and templates) and hcl_parse_body.c
** (bodies, attributes and blocks), which call each other through
** hcl_parse_priv.h.
*/
#include "hcl_parse_priv.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---- Parser state and peeker --------------------------------------------- */

/* Scans the next batch of tokens into the ring (growing it so that it
** keeps everything from the previous token on). */
static void refill(P *p)
{
  enum { BATCH = 64 };
  uint32_t lo = p->next > 0 ? p->next - 1 : 0;
  if (p->rmask + 1 - (p->hi - lo) < 8) {
    uint32_t cap = (p->rmask + 1) * 2;
    /* not in scratch: that is rewound between top-level items */
    HclToken *nr = arena_alloc_raw(p->a, sizeof(HclToken),
                                   _Alignof(HclToken), cap);
    for (uint32_t k = lo; k < p->hi; k++)
      nr[k & (cap - 1)] = p->ring[k & p->rmask];
    p->ring = nr;
    p->rmask = cap - 1;
  }
  /* Scan in place up to the ring's end or the oldest token kept; a
  ** stretch too short for the scanner (it wants room for 4) goes through
  ** a small buffer. */
  uint32_t at = p->hi & p->rmask, room = p->rmask + 1 - at;
  uint32_t space = p->rmask + 1 - (p->hi - lo);
  uint32_t max = room < space ? room : space;
  if (max > BATCH)
    max = BATCH;
  uint32_t n;
  if (max >= 4) {
    n = hcl_lexer_next(p->lx, p->ring + at, max);
  } else {
    HclToken batch[4];
    n = hcl_lexer_next(p->lx, batch, 4);
    for (uint32_t k = 0; k < n; k++)
      p->ring[(p->hi + k) & p->rmask] = batch[k];
  }
  if (n == 0) {
    p->eof = true;
    return;
  }
  p->hi += n;
  if (p->ring[(p->hi - 1) & p->rmask].kind == HCL_TOK_EOF)
    p->eof = true;
}

/* Token i, scanning more as needed; NULL when i is past the EOF token. */
static inline const HclToken *tok_at(P *p, uint32_t i)
{
  while (i >= p->hi && !p->eof)
    refill(p);
  return i < p->hi ? &p->ring[i & p->rmask] : NULL;
}

void hcl_push_nl(P *p, bool inc)
{
  if (p->nnl == p->nlcap) {
    uint32_t nc = p->nlcap ? p->nlcap * 2 : 32;
    p->nl = arena_grow(p->a, p->nl, 1, 1, p->nlcap, nc);
    p->nlcap = nc;
  }
  p->nl[p->nnl++] = inc;
  p->inc = inc;
}

void hcl_pop_nl(P *p)
{
  if (p->nnl > 1)
    p->nnl--;
  p->inc = p->nl[p->nnl - 1] != 0;
}

static void set_tok(const P *p, Tok *r, const HclToken *t, HclTokenKind k)
{
  r->k = k;
  r->r.file = p->file;
  r->r.start = t->start;
  r->r.end = t->end;
  r->s = p->src + (t->start.byte - p->base);
  r->len = t->end.byte - t->start.byte;
}

/* Fills the peek cache with the next significant token and the index
** after it (peeker.nextToken): comments vanish, but a line comment stands
** for its newline when newlines matter. */
void hcl_peek_fill(P *p)
{
  bool inc = p->inc;
  p->pc_next = p->next;
  p->pc_inc = inc;
  for (uint32_t i = p->next;; i++) {
    const HclToken *t = tok_at(p, i);
    if (!t)
      break;
    if (t->kind == HCL_TOK_COMMENT) {
      if (inc) {
        const char *s = p->src + (t->end.byte - p->base);
        if (t->end.byte > t->start.byte && s[-1] == '\n') {
          p->pc_after = i + 1;
          set_tok(p, &p->pc_tok, t, HCL_TOK_NEWLINE);
          return;
        }
      }
      continue;
    }
    if (t->kind == HCL_TOK_NEWLINE && !inc)
      continue;
    p->pc_after = i + 1;
    set_tok(p, &p->pc_tok, t, (HclTokenKind)t->kind);
    return;
  }
  p->pc_after = p->hi;
  set_tok(p, &p->pc_tok, &p->ring[(p->hi - 1) & p->rmask], HCL_TOK_EOF);
}

SrcRange hcl_next_range(P *p) { return hcl_peek_ref(p)->r; }

SrcRange hcl_prev_range(P *p)
{
  if (p->next == 0)
    return hcl_next_range(p);
  const HclToken *t = &p->ring[(p->next - 1) & p->rmask];
  SrcRange r = {p->file, t->start, t->end};
  return r;
}

SrcRange hcl_between(SrcRange a, SrcRange b)
{
  SrcRange r = a;
  r.end = b.end;
  return r;
}

SrcRange *hcl_rp(P *p, SrcRange r)
{
  SrcRange *x = ARENA_NEW(p->a, SrcRange, 1);
  *x = r;
  return x;
}

Diag *hcl_err(P *p, SrcRange subj, const SrcRange *ctx, const char *sum,
              const char *detail)
{
  Diag *g = diag_error(p->d, &subj, sum, "%s", detail);
  if (ctx)
    diag_set_context(p->d, g, ctx);
  return g;
}

/* hcl.Range.String() */
const char *hcl_range_str(P *p, SrcRange r)
{
  if (r.start.line == r.end.line)
    return arena_printf(p->a, "%s:%u,%u-%u", r.file ? r.file : "",
                        r.start.line, r.start.col, r.end.col);
  return arena_printf(p->a, "%s:%u,%u-%u,%u", r.file ? r.file : "",
                      r.start.line, r.start.col, r.end.line, r.end.col);
}

HclTokenKind hcl_opposite(HclTokenKind k)
{
  switch (k) {
  case HCL_TOK_OBRACE: return HCL_TOK_CBRACE;
  case HCL_TOK_OBRACK: return HCL_TOK_CBRACK;
  case HCL_TOK_OPAREN: return HCL_TOK_CPAREN;
  case HCL_TOK_OQUOTE: return HCL_TOK_CQUOTE;
  case HCL_TOK_OHEREDOC: return HCL_TOK_CHEREDOC;
  case HCL_TOK_CBRACE: return HCL_TOK_OBRACE;
  case HCL_TOK_CBRACK: return HCL_TOK_OBRACK;
  case HCL_TOK_CPAREN: return HCL_TOK_OPAREN;
  case HCL_TOK_CQUOTE: return HCL_TOK_OQUOTE;
  case HCL_TOK_CHEREDOC: return HCL_TOK_OHEREDOC;
  case HCL_TOK_TEMPLATE_CONTROL:
  case HCL_TOK_TEMPLATE_INTERP: return HCL_TOK_TEMPLATE_SEQ_END;
  case HCL_TOK_TEMPLATE_SEQ_END: return HCL_TOK_TEMPLATE_INTERP;
  default: return HCL_TOK_INVALID; /* "nil": never matches a real token */
  }
}

/* Skips to just after the `end` that closes the current construct. */
Tok hcl_recover_to(P *p, HclTokenKind end)
{
  HclTokenKind start = hcl_opposite(end);
  p->recovery = true;
  long nest = 0;
  for (;;) {
    Tok t = hcl_rd(p);
    HclTokenKind ty = t.k;
    if (end == HCL_TOK_TEMPLATE_SEQ_END && ty == HCL_TOK_TEMPLATE_CONTROL)
      ty = HCL_TOK_TEMPLATE_INTERP;
    if (ty == HCL_TOK_EOF)
      return t;
    if (ty == start && start != HCL_TOK_INVALID) {
      nest++;
    } else if (ty == end) {
      if (nest < 1)
        return t;
      nest--;
    }
  }
}

void hcl_recover_over(P *p, HclTokenKind start)
{
  for (;;) {
    Tok t = hcl_rd(p);
    if (t.k == start || t.k == HCL_TOK_EOF)
      break;
  }
  hcl_recover_to(p, hcl_opposite(start));
}

void hcl_recover_after_body_item(P *p)
{
  p->recovery = true;
  uint8_t *open = NULL;
  uint32_t nopen = 0, cap = 0;
  ArenaMark m = arena_mark(p->s);
  for (;;) {
    Tok t = hcl_rd(p);
    switch (t.k) {
    case HCL_TOK_NEWLINE:
      if (nopen == 0)
        goto done;
      break;
    case HCL_TOK_EOF:
      goto done;
    case HCL_TOK_OBRACE: case HCL_TOK_OBRACK: case HCL_TOK_OPAREN:
    case HCL_TOK_OQUOTE: case HCL_TOK_OHEREDOC:
    case HCL_TOK_TEMPLATE_INTERP: case HCL_TOK_TEMPLATE_CONTROL:
      if (nopen == cap) {
        uint32_t nc = cap ? cap * 2 : 64;
        open = arena_grow(p->s, open, 1, 1, cap, nc);
        cap = nc;
      }
      open[nopen++] = (uint8_t)t.k;
      break;
    case HCL_TOK_CBRACE: case HCL_TOK_CBRACK: case HCL_TOK_CPAREN:
    case HCL_TOK_CQUOTE: case HCL_TOK_CHEREDOC: {
      uint8_t op = (uint8_t)hcl_opposite(t.k);
      while (nopen > 0 && open[nopen - 1] != op)
        nopen--;
      if (nopen > 0)
        nopen--;
      break;
    }
    case HCL_TOK_TEMPLATE_SEQ_END:
      while (nopen > 0 && open[nopen - 1] != HCL_TOK_TEMPLATE_INTERP &&
             open[nopen - 1] != HCL_TOK_TEMPLATE_CONTROL)
        nopen--;
      if (nopen > 0)
        nopen--;
      break;
    default:
      break;
    }
  }
done:
  arena_rewind(p->s, m);
}

/* ---- Small vectors -------------------------------------------------------- */

void hcl_vpush(Arena *a, Vec *v, void *x)
{
  if (v->n == v->cap) {
    uint32_t nc = v->cap ? v->cap * 2 : 4;
    v->p = arena_grow(a, v->p, sizeof(void *), _Alignof(void *), v->cap, nc);
    v->cap = nc;
  }
  v->p[v->n++] = x;
}

/* Copies a finished vector into the tree's arena, exactly sized. */
void *hcl_vcopy(Arena *a, const void *src, size_t size, size_t align,
                uint32_t n)
{
  void *d = arena_alloc_raw(a, size, align, n ? n : 1);
  if (n)
    memcpy(d, src, size * n);
  return d;
}

/* ---- Node helpers ---------------------------------------------------------- */

#define PAYLOAD(m) sizeof(((HclExpr *)0)->u.m)

/* Bytes of the union a node of kind k uses (see the contract in hcl.h:
** nodes are allocated without the unused tail of the union, which more
** than halves the tree of a large configuration). */
static size_t payload(HclExprKind k)
{
  switch (k) {
  case HCL_E_LITERAL: return PAYLOAD(lit);
  case HCL_E_TEMPLATE: return PAYLOAD(tmpl);
  case HCL_E_TEMPLATE_WRAP:
  case HCL_E_TEMPLATE_JOIN:
  case HCL_E_PAREN: return PAYLOAD(wrap);
  case HCL_E_SCOPE_TRAV: return PAYLOAD(trav);
  case HCL_E_REL_TRAV: return PAYLOAD(rel);
  case HCL_E_INDEX: return PAYLOAD(index);
  case HCL_E_CALL: return PAYLOAD(call);
  case HCL_E_COND: return PAYLOAD(cond);
  case HCL_E_BINARY: return PAYLOAD(binary);
  case HCL_E_UNARY: return PAYLOAD(unary);
  case HCL_E_TUPLE: return PAYLOAD(tuple);
  case HCL_E_OBJECT: return PAYLOAD(object);
  case HCL_E_FOR: return PAYLOAD(forx);
  case HCL_E_SPLAT: return PAYLOAD(splat);
  case HCL_E_ANON: return 0;
  case HCL_E_JSON: return PAYLOAD(json);
  }
  return sizeof(HclExpr) - offsetof(HclExpr, u);
}

HclExpr *hcl_new_expr(P *p, HclExprKind k, SrcRange r)
{
  size_t n = offsetof(HclExpr, u) + payload(k);
  n = (n + _Alignof(HclExpr) - 1) & ~(size_t)(_Alignof(HclExpr) - 1);
  HclExpr *e = arena_alloc(p->a, n, _Alignof(HclExpr), 1);
  e->kind = k;
  e->range = r;
  return e;
}

HclExpr *hcl_placeholder(P *p, SrcRange r)
{
  HclExpr *e = hcl_new_expr(p, HCL_E_LITERAL, r);
  e->u.lit = val_dynamic_unknown;
  return e;
}

HclExpr *hcl_lit(P *p, Value v, SrcRange r)
{
  HclExpr *e = hcl_new_expr(p, HCL_E_LITERAL, r);
  e->u.lit = v;
  return e;
}

const char *hcl_tok_str(P *p, Tok t)
{
  return arena_strndup(p->a, t.s, t.len);
}

bool hcl_tok_is(Tok t, const char *kw)
{
  size_t n = strlen(kw);
  return t.k == HCL_TOK_IDENT && t.len == n && memcmp(t.s, kw, n) == 0;
}

bool hcl_errs_since(const P *p, int e0) { return p->d->errors > e0; }

/* ---- Public entry points --------------------------------------------------- */

/* Tokens and temporaries live in `scratch`, which the caller releases
** once the tree is built. */
static void init_p(P *p, Arena *a, Arena *scratch, const char *file,
                   const char *src, size_t len, SrcPos start, HclLexMode mode,
                   Diags *d)
{
  memset(p, 0, sizeof *p);
  p->a = a;
  arena_init(scratch, len < 4096 ? 16 * 1024 : 256 * 1024);
  p->s = scratch;
  arena_init(&p->top, 0);
  p->file = file;
  p->src = src;
  p->base = start.byte;
  p->d = ARENA_NEW(scratch, Diags, 1);
  diag_init(p->d, d->arena);
  diag_init(&p->lexd, d->arena);
  /* the scanner and the ring grow during items: keep them out of scratch */
  p->lx = hcl_lexer_new(a, file, src, len, start, mode, &p->lexd);
  p->rmask = len < 256 ? 15 : 255;
  p->ring = arena_alloc_raw(a, sizeof(HclToken), _Alignof(HclToken),
                            p->rmask + 1);
  p->pc_next = UINT32_MAX;
  tok_at(p, 0);
  hcl_push_nl(p, true);
}

/* Hands the diagnostics to the caller, the scanner's first (as HCL). */
static void finish_p(P *p, Diags *d, Arena *scratch)
{
  diag_move(d, &p->lexd);
  diag_move(d, p->d);
  arena_release(scratch);
  arena_release(&p->top);
}

static const char *copy_name(Arena *a, const char *file)
{
  return arena_strdup(a, file ? file : "");
}

HclFile *hcl_parse_file(Arena *a, const char *file, const char *src,
                        size_t len, Diags *d)
{
  P p;
  Arena scratch;
  SrcPos start = {1, 1, 0};
  file = copy_name(a, file);
  init_p(&p, a, &scratch, file, src, len, start, HCL_LEX_CONFIG, d);
  HclFile *f = ARENA_NEW(a, HclFile, 1);
  f->name = file;
  f->body = hcl_p_body(&p, HCL_TOK_EOF);
  f->src = src;
  f->len = (uint32_t)len;
  finish_p(&p, d, &scratch);
  return f;
}

HclExpr *hcl_parse_expr_at(Arena *a, const char *file, const char *src,
                           size_t len, SrcPos start, Diags *d)
{
  P p;
  Arena scratch;
  file = copy_name(a, file);
  init_p(&p, a, &scratch, file, src, len, start, HCL_LEX_CONFIG, d);
  hcl_push_nl(&p, false);
  HclExpr *e = hcl_p_expression(&p);
  Tok next = hcl_peek(&p);
  if (next.k != HCL_TOK_EOF && !p.recovery)
    hcl_err(&p, next.r, NULL, "Extra characters after expression",
            "An expression was successfully parsed, but extra characters were "
            "found after it.");
  finish_p(&p, d, &scratch);
  return e;
}

HclExpr *hcl_parse_expr(Arena *a, const char *file, const char *src,
                        size_t len, Diags *d)
{
  SrcPos start = {1, 1, 0};
  return hcl_parse_expr_at(a, file, src, len, start, d);
}

HclExpr *hcl_parse_template_at(Arena *a, const char *file, const char *src,
                               size_t len, SrcPos start, Diags *d)
{
  P p;
  Arena scratch;
  file = copy_name(a, file);
  init_p(&p, a, &scratch, file, src, len, start, HCL_LEX_TEMPLATE, d);
  SrcRange none = {0};
  HclExpr *e = hcl_p_template_inner(&p, HCL_TOK_EOF, false, none, false);
  finish_p(&p, d, &scratch);
  return e;
}

HclExpr *hcl_parse_template(Arena *a, const char *file, const char *src,
                            size_t len, Diags *d)
{
  SrcPos start = {1, 1, 0};
  return hcl_parse_template_at(a, file, src, len, start, d);
}
