/*
** hcl_parse: the HCL native-syntax parser (hclsyntax's parser.go and
** parser_template.go, hand-written recursive descent over the token array
** of hcl_lex).  Same structure, recovery strategy and diagnostics as the
** Go parser so that error messages and ranges match Terraform's.  Depth is
** bounded by HCL_MAX_DEPTH; every loop consumes a token, so parsing is
** linear in the input.
*/
#include "hcl.h"
#include "hcl_lex.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---- Parser state and peeker --------------------------------------------- */

typedef struct Tok {
  HclTokenKind k;
  SrcRange r;
  const char *s;           /* text */
  uint32_t len;
} Tok;

typedef struct P {
  Arena *a;                /* the tree */
  Arena *s;                /* temporaries (vectors under construction),
                              rewound after each top-level body item */
  const char *file;
  const char *src;         /* text of byte offset `base` */
  uint32_t base;
  /* Tokens come from the scanner in batches straight into a ring holding
  ** the previous token (for ranges) through the furthest one looked at. */
  HclLexer *lx;
  HclToken *ring;
  uint32_t rmask;          /* ring capacity - 1 (a power of two) */
  uint32_t hi;             /* tokens produced so far */
  bool eof;                /* the scanner has produced its EOF token */
  uint32_t next;           /* index of the next token to read */
  uint8_t *nl;             /* include-newlines stack */
  uint32_t nnl, nlcap;
  bool inc;                /* top of the include-newlines stack */
  bool recovery;
  int depth;
  bool too_deep;           /* reported "Nesting too deep" already */
  Diags *d;                /* parser diagnostics */
  Diags lexd;              /* scanner diagnostics (reported first) */
  /* The last peek, reused while neither position nor newline mode moved
  ** (the grammar peeks several times per token): pc_next is UINT32_MAX
  ** while nothing is cached. */
  bool pc_inc;
  uint32_t pc_next, pc_after;
  Tok pc_tok;
} P;

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

static void push_nl(P *p, bool inc)
{
  if (p->nnl == p->nlcap) {
    uint32_t nc = p->nlcap ? p->nlcap * 2 : 32;
    p->nl = arena_grow(p->a, p->nl, 1, 1, p->nlcap, nc);
    p->nlcap = nc;
  }
  p->nl[p->nnl++] = inc;
  p->inc = inc;
}

static void pop_nl(P *p)
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
static void peek_fill(P *p)
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

/* The next significant token, from the cache when it is still valid. */
static inline const Tok *peek_ref(P *p)
{
  if (p->pc_next != p->next || p->pc_inc != p->inc)
    peek_fill(p);
  return &p->pc_tok;
}

static inline Tok peek(P *p) { return *peek_ref(p); }

static inline HclTokenKind peek_k(P *p) { return peek_ref(p)->k; }

static inline Tok rd(P *p)
{
  const Tok *t = peek_ref(p);
  p->next = p->pc_after;
  return *t;
}

/* Consumes the next token without looking at it. */
static inline void skip(P *p)
{
  peek_ref(p);
  p->next = p->pc_after;
}

static SrcRange next_range(P *p) { return peek_ref(p)->r; }

static SrcRange prev_range(P *p)
{
  if (p->next == 0)
    return next_range(p);
  const HclToken *t = &p->ring[(p->next - 1) & p->rmask];
  SrcRange r = {p->file, t->start, t->end};
  return r;
}

static SrcRange between(SrcRange a, SrcRange b)
{
  SrcRange r = a;
  r.end = b.end;
  return r;
}

static SrcRange *rp(P *p, SrcRange r)
{
  SrcRange *x = ARENA_NEW(p->a, SrcRange, 1);
  *x = r;
  return x;
}

static Diag *err(P *p, SrcRange subj, const SrcRange *ctx, const char *sum,
                 const char *detail)
{
  Diag *g = diag_error(p->d, &subj, sum, "%s", detail);
  if (ctx)
    diag_set_context(p->d, g, ctx);
  return g;
}

/* hcl.Range.String() */
static const char *range_str(P *p, SrcRange r)
{
  if (r.start.line == r.end.line)
    return arena_printf(p->a, "%s:%u,%u-%u", r.file ? r.file : "",
                        r.start.line, r.start.col, r.end.col);
  return arena_printf(p->a, "%s:%u,%u-%u,%u", r.file ? r.file : "",
                      r.start.line, r.start.col, r.end.line, r.end.col);
}

static HclTokenKind opposite(HclTokenKind k)
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
static Tok recover_to(P *p, HclTokenKind end)
{
  HclTokenKind start = opposite(end);
  p->recovery = true;
  long nest = 0;
  for (;;) {
    Tok t = rd(p);
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

static void recover_over(P *p, HclTokenKind start)
{
  for (;;) {
    Tok t = rd(p);
    if (t.k == start || t.k == HCL_TOK_EOF)
      break;
  }
  recover_to(p, opposite(start));
}

static void recover_after_body_item(P *p)
{
  p->recovery = true;
  uint8_t *open = NULL;
  uint32_t nopen = 0, cap = 0;
  ArenaMark m = arena_mark(p->s);
  for (;;) {
    Tok t = rd(p);
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
      uint8_t op = (uint8_t)opposite(t.k);
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

typedef struct Vec {
  void **p;
  uint32_t n, cap;
} Vec;

static void vpush(Arena *a, Vec *v, void *x)
{
  if (v->n == v->cap) {
    uint32_t nc = v->cap ? v->cap * 2 : 4;
    v->p = arena_grow(a, v->p, sizeof(void *), _Alignof(void *), v->cap, nc);
    v->cap = nc;
  }
  v->p[v->n++] = x;
}

/* Copies a finished vector into the tree's arena, exactly sized. */
static void *vcopy(Arena *a, const void *src, size_t size, size_t align,
                   uint32_t n)
{
  void *d = arena_alloc_raw(a, size, align, n ? n : 1);
  if (n)
    memcpy(d, src, size * n);
  return d;
}

#define VFINAL(p, v, T) ((T *)vcopy((p)->a, (v).p, sizeof(T), _Alignof(T), (v).n))

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

static HclExpr *new_expr(P *p, HclExprKind k, SrcRange r)
{
  size_t n = offsetof(HclExpr, u) + payload(k);
  n = (n + _Alignof(HclExpr) - 1) & ~(size_t)(_Alignof(HclExpr) - 1);
  HclExpr *e = arena_alloc(p->a, n, _Alignof(HclExpr), 1);
  e->kind = k;
  e->range = r;
  return e;
}

static HclExpr *placeholder(P *p, SrcRange r)
{
  HclExpr *e = new_expr(p, HCL_E_LITERAL, r);
  e->u.lit = val_dynamic_unknown;
  return e;
}

static HclExpr *lit(P *p, Value v, SrcRange r)
{
  HclExpr *e = new_expr(p, HCL_E_LITERAL, r);
  e->u.lit = v;
  return e;
}

static const char *tok_str(P *p, Tok t)
{
  return arena_strndup(p->a, t.s, t.len);
}

static bool tok_is(Tok t, const char *kw)
{
  size_t n = strlen(kw);
  return t.k == HCL_TOK_IDENT && t.len == n && memcmp(t.s, kw, n) == 0;
}

static bool errs_since(const P *p, int e0) { return p->d->errors > e0; }

/* ---- Forward declarations ---------------------------------------------- */

static HclExpr *parse_expression(P *p);
static HclExpr *parse_with_traversals(P *p);
static HclExpr *parse_traversals(P *p, HclExpr *from, StepVec *pend);
static HclBody *parse_body(P *p, HclTokenKind end);

/* ---- String literals (ParseStringLiteralToken) --------------------------- */

static SrcPos pos_after(SrcPos at, const char *s, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n') {
      at.line++;
      at.col = 1;
    } else if ((c & 0xC0) != 0x80) {
      at.col++;
    }
  }
  at.byte += (uint32_t)n;
  return at;
}

static void put_utf8(Buf *b, uint32_t cp)
{
  char o[4];
  if (cp < 0x80) {
    buf_putc(b, (char)cp);
  } else if (cp < 0x800) {
    o[0] = (char)(0xC0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3F));
    buf_put(b, o, 2);
  } else if (cp < 0x10000) {
    o[0] = (char)(0xE0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    buf_put(b, o, 3);
  } else {
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    buf_put(b, o, 4);
  }
}

static int hexval(int c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Decodes a QuotedLit (quoted: escapes) or StringLit token into b. */
static void decode_lit(P *p, Tok t, bool quoted, Buf *b)
{
  const char *s = t.s;
  uint32_t n = t.len, i = 0;
  while (i < n) {
    /* copy the run up to the next character that may start a sequence */
    uint32_t run = i;
    while (run < n && s[run] != '\\' && s[run] != '$' && s[run] != '%')
      run++;
    if (run > i) {
      buf_put(b, s + i, run - i);
      i = run;
      continue;
    }
    char c = s[i];
    if (quoted && c == '\\' && i + 1 < n) {
      char sel = s[i + 1];
      uint32_t st = i;
      switch (sel) {
      case 'n': buf_putc(b, '\n'); i += 2; continue;
      case 'r': buf_putc(b, '\r'); i += 2; continue;
      case 't': buf_putc(b, '\t'); i += 2; continue;
      case '"': buf_putc(b, '"'); i += 2; continue;
      case '\\': buf_putc(b, '\\'); i += 2; continue;
      case 'u':
      case 'U': {
        uint32_t want = sel == 'u' ? 4 : 8, k = 0, cp = 0;
        i += 2;
        while (k < want && i < n && hexval(s[i]) >= 0) {
          cp = cp * 16 + (uint32_t)hexval(s[i]);
          i++;
          k++;
        }
        SrcRange r = {p->file, pos_after(t.r.start, s, st),
                      pos_after(t.r.start, s, i)};
        if (k != want) {
          err(p, r, NULL, "Invalid escape sequence",
              sel == 'u' ? "The \\u escape sequence must be followed by "
                           "four hexadecimal digits."
                         : "The \\U escape sequence must be followed by "
                           "eight hexadecimal digits.");
          buf_put(b, s + st, i - st);
          continue;
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          diag_error(p->d, &r, "Invalid escape sequence",
                     "Cannot encode character U+%04x in UTF-8.", cp);
          continue;
        }
        put_utf8(b, cp);
        continue;
      }
      default: {
        /* the selector is one whole UTF-8 character */
        uint32_t k = 1;
        while (i + 1 + k < n && ((unsigned char)s[i + 1 + k] & 0xC0) == 0x80)
          k++;
        SrcRange r = {p->file, pos_after(t.r.start, s, st),
                      pos_after(t.r.start, s, i + 1 + k)};
        Buf q;
        buf_init(&q, p->s);
        buf_putc(&q, '"');
        for (uint32_t j = 0; j < k; j++) {
          unsigned char ch = (unsigned char)s[i + 1 + j];
          if (ch == '"' || ch == '\\')
            buf_putc(&q, '\\');
          if (ch < 0x20 || ch == 0x7f)
            buf_printf(&q, "\\x%02x", ch);
          else
            buf_putc(&q, (char)ch);
        }
        buf_putc(&q, '"');
        diag_error(p->d, &r, "Invalid escape sequence",
                   "The symbol %s is not a valid escape sequence selector.",
                   buf_str(&q));
        buf_put(b, s + i + 1, k);
        i += 1 + k;
        continue;
      }
      }
    }
    if ((c == '$' || c == '%') && i + 2 < n && s[i + 1] == c &&
        s[i + 2] == '{') {
      buf_putc(b, c);
      buf_putc(b, '{');
      i += 3;
      continue;
    }
    buf_putc(b, c);
    i++;
  }
}

/* True when the literal token needs no decoding (no escapes). */
static bool plain_lit(Tok t)
{
  for (uint32_t i = 0; i < t.len; i++) {
    char c = t.s[i];
    if (c == '\\' || c == '$' || c == '%')
      return false;
  }
  return true;
}

/* parseQuotedStringLiteral: a string without template sequences (labels) */
static const char *parse_quoted_string(P *p, SrcRange *range)
{
  Tok open = rd(p);
  if (open.k != HCL_TOK_OQUOTE) {
    err(p, open.r, NULL, "Invalid string literal",
        "A quoted string is required here.");
    *range = open.r;
    return "";
  }
  Buf b;
  buf_init(&b, p->s);
  SrcRange endr;
  for (;;) {
    Tok t = rd(p);
    if (t.k == HCL_TOK_CQUOTE) {
      endr = t.r;
      break;
    }
    if (t.k == HCL_TOK_QUOTED_LIT) {
      decode_lit(p, t, true, &b);
      continue;
    }
    if (t.k == HCL_TOK_TEMPLATE_INTERP || t.k == HCL_TOK_TEMPLATE_CONTROL) {
      const char *w = t.k == HCL_TOK_TEMPLATE_CONTROL ? "%" : "$";
      Diag *g = diag_error(p->d, &t.r, "Invalid string literal",
                           "Template sequences are not allowed in this "
                           "string. To include a literal \"%s\", double it "
                           "(as \"%s%s\") to escape it.", w, w, w);
      SrcRange c = between(open.r, t.r);
      diag_set_context(p->d, g, &c);
      buf_puts(&b, w);
      buf_puts(&b, "{ ... }");
      recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
      continue;
    }
    SrcRange c = between(open.r, t.r);
    if (t.k == HCL_TOK_EOF) {
      err(p, t.r, &c, "Unterminated string literal",
          "Unable to find the closing quote mark before the end of the "
          "file.");
      endr = t.r;
      break;
    }
    err(p, t.r, &c, "Invalid string literal",
        "This item is not valid in a string literal.");
    recover_to(p, HCL_TOK_CQUOTE);
    endr = t.r;
    break;
  }
  *range = between(open.r, endr);
  return arena_strndup(p->a, buf_str(&b), b.len);
}

/* ---- Templates -------------------------------------------------------------- */

typedef enum TTKind {
  TT_LIT, TT_INTERP, TT_IF, TT_FOR, TT_ELSE, TT_ENDIF, TT_ENDFOR, TT_END
} TTKind;

typedef struct TT {
  TTKind k;
  SrcRange r;
  char *s;                 /* TT_LIT: decoded text (NUL-terminated) */
  size_t len;
  HclExpr *expr;           /* TT_INTERP, TT_IF cond, TT_FOR collection */
  const char *key_var, *val_var;
} TT;

typedef struct TTVec {
  TT *p;
  uint32_t n, cap, pos;
} TTVec;

static TT *tt_push(P *p, TTVec *v, TTKind k, SrcRange r)
{
  if (v->n == v->cap) {
    uint32_t nc = v->cap ? v->cap * 2 : 2;
    v->p = arena_grow(p->s, v->p, sizeof(TT), _Alignof(TT), v->cap, nc);
    v->cap = nc;
  }
  TT *t = &v->p[v->n++];
  memset(t, 0, sizeof *t);
  t->k = k;
  t->r = r;
  return t;
}

/* unicode.IsSpace on the UTF-8 character at s (length *n) */
static bool space_at(const char *s, size_t len, size_t *n)
{
  const unsigned char *u = (const unsigned char *)s;
  if (len == 0)
    return false;
  if (u[0] == ' ' || (u[0] >= '\t' && u[0] <= '\r')) {
    *n = 1;
    return true;
  }
  if (len >= 2 && u[0] == 0xC2 && (u[1] == 0x85 || u[1] == 0xA0)) {
    *n = 2;
    return true;
  }
  if (len >= 3 && u[0] == 0xE1 && u[1] == 0x9A && u[2] == 0x80) {
    *n = 3;
    return true;
  }
  if (len >= 3 && u[0] == 0xE2 && u[1] == 0x80 &&
      (u[2] <= 0x8A || u[2] == 0xA8 || u[2] == 0xA9 || u[2] == 0xAF)) {
    *n = 3;
    return true;
  }
  if (len >= 3 && u[0] == 0xE2 && u[1] == 0x81 && u[2] == 0x9F) {
    *n = 3;
    return true;
  }
  if (len >= 3 && u[0] == 0xE3 && u[1] == 0x80 && u[2] == 0x80) {
    *n = 3;
    return true;
  }
  return false;
}

static bool space_before(const char *s, size_t end, size_t *n)
{
  /* find the start of the last character */
  size_t b = end;
  while (b > 0 && ((unsigned char)s[b - 1] & 0xC0) == 0x80 && end - b < 3)
    b--;
  if (b > 0)
    b--;
  size_t k;
  if (space_at(s + b, end - b, &k) && k == end - b) {
    *n = k;
    return true;
  }
  return false;
}

static void ltrim(TT *t)
{
  size_t i = 0, k;
  while (i < t->len && space_at(t->s + i, t->len - i, &k))
    i += k;
  t->s += i;
  t->len -= i;
}

static void rtrim(TT *t)
{
  size_t k;
  while (t->len > 0 && space_before(t->s, t->len, &k))
    t->len -= k;
  t->s[t->len] = '\0';
}

/* parseTemplateParts */
static void template_parts(P *p, HclTokenKind end, TTVec *v, SrcRange *all)
{
  SrcRange start = next_range(p), endr;
  bool ltrim_next = false, next_can_trim_prev = false;
  for (;;) {
    Tok next = rd(p);
    if (next.k == end) {
      endr = next.r;
      break;
    }
    bool lt = ltrim_next;
    ltrim_next = false;
    bool can_trim_prev = next_can_trim_prev;
    next_can_trim_prev = false;
    switch (next.k) {
    case HCL_TOK_STRING_LIT:
    case HCL_TOK_QUOTED_LIT: {
      TT *t = tt_push(p, v, TT_LIT, next.r);
      if (plain_lit(next)) {
        t->s = arena_strndup(p->a, next.s, next.len);
        t->len = next.len;
      } else {
        Buf b;
        buf_init(&b, p->s);
        buf_reserve(&b, next.len);
        decode_lit(p, next, next.k == HCL_TOK_QUOTED_LIT, &b);
        t->s = arena_strndup(p->a, b.len ? b.p : "", b.len);
        t->len = b.len;
      }
      if (lt)
        ltrim(t);
      next_can_trim_prev = true;
      break;
    }
    case HCL_TOK_TEMPLATE_INTERP: {
      if (can_trim_prev && next.len == 3 && next.s[2] == '~' && v->n > 0 &&
          v->p[v->n - 1].k == TT_LIT)
        rtrim(&v->p[v->n - 1]);
      push_nl(p, false);
      HclExpr *e = parse_expression(p);
      Tok close = peek(p);
      if (close.k != HCL_TOK_TEMPLATE_SEQ_END) {
        if (!p->recovery) {
          SrcRange c = between(start, close.r);
          if (close.k == HCL_TOK_EOF) {
            err(p, start, NULL, "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence "
                "before the end of the file. This might be caused by "
                "incorrect nesting inside the given expression.");
          } else if (close.k == HCL_TOK_COLON) {
            err(p, close.r, &c,
                "Extra characters after interpolation expression",
                "Template interpolation doesn't expect a colon at this "
                "location. Did you intend this to be a literal sequence to "
                "be processed as part of another language? If so, you can "
                "escape it by starting with \"$${\" instead of just "
                "\"${\".");
          } else if ((close.k == HCL_TOK_CQUOTE ||
                      close.k == HCL_TOK_OQUOTE) &&
                     end == HCL_TOK_CQUOTE) {
            err(p, start, NULL, "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence "
                "before the end of the quoted template. This might be "
                "caused by incorrect nesting inside the given expression.");
          } else {
            err(p, close.r, &c,
                "Extra characters after interpolation expression",
                "Expected a closing brace to end the interpolation "
                "expression, but found extra characters.\n\nThis can happen "
                "when you include interpolation syntax for another language, "
                "such as shell scripting, but forget to escape the "
                "interpolation start token. If this is an embedded sequence "
                "for another language, escape it by starting with \"$${\" "
                "instead of just \"${\".");
          }
        }
        recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
      } else {
        rd(p);
        if (close.len == 2 && close.s[0] == '~')
          ltrim_next = true;
      }
      pop_nl(p);
      TT *t = tt_push(p, v, TT_INTERP, between(next.r, close.r));
      t->expr = e;
      break;
    }
    case HCL_TOK_TEMPLATE_CONTROL: {
      if (can_trim_prev && next.len == 3 && next.s[2] == '~' && v->n > 0 &&
          v->p[v->n - 1].k == TT_LIT)
        rtrim(&v->p[v->n - 1]);
      push_nl(p, false);
      Tok kw = peek(p);
      if (kw.k != HCL_TOK_IDENT) {
        if (!p->recovery) {
          SrcRange c = between(next.r, kw.r);
          err(p, kw.r, &c, "Invalid template directive",
              "A template directive keyword (\"if\", \"for\", etc) is "
              "expected at the beginning of a %{ sequence.");
        }
        recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
        pop_nl(p);
        continue;
      }
      rd(p);
      if (tok_is(kw, "if")) {
        HclExpr *c = parse_expression(p);
        TT *t = tt_push(p, v, TT_IF, between(next.r, next_range(p)));
        t->expr = c;
      } else if (tok_is(kw, "else")) {
        tt_push(p, v, TT_ELSE, between(next.r, next_range(p)));
      } else if (tok_is(kw, "endif")) {
        tt_push(p, v, TT_ENDIF, between(next.r, next_range(p)));
      } else if (tok_is(kw, "endfor")) {
        tt_push(p, v, TT_ENDFOR, between(next.r, next_range(p)));
      } else if (tok_is(kw, "for")) {
        const char *kn = NULL, *vn;
        const char *problem = NULL;
        if (peek(p).k != HCL_TOK_IDENT) {
          problem = "For directive requires variable name after 'for'.";
        } else {
          vn = tok_str(p, rd(p));
          if (peek(p).k == HCL_TOK_COMMA) {
            kn = vn;
            rd(p);
            if (peek(p).k != HCL_TOK_IDENT)
              problem = "For directive requires value variable name after "
                        "comma.";
            else
              vn = tok_str(p, rd(p));
          }
          if (!problem && !tok_is(peek(p), "in"))
            problem = "For directive requires 'in' keyword after names.";
        }
        if (problem) {
          if (!p->recovery)
            err(p, next_range(p), NULL, "Invalid 'for' directive", problem);
          recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
          pop_nl(p);
          continue;
        }
        rd(p);
        HclExpr *coll = parse_expression(p);
        TT *t = tt_push(p, v, TT_FOR, between(next.r, next_range(p)));
        t->expr = coll;
        t->key_var = kn;
        t->val_var = vn;
      } else {
        if (!p->recovery) {
          static const char *const kws[] = {"if", "for", "else", "endif",
                                            "endfor"};
          const char *given = tok_str(p, kw);
          const char *sug = hcl_name_suggestion(given, kws, 5);
          SrcRange c = between(next.r, kw.r);
          Diag *g = diag_error(
              p->d, &kw.r, "Invalid template control keyword",
              "\"%s\" is not a valid template control keyword.%s%s%s", given,
              sug ? " Did you mean \"" : "", sug ? sug : "", sug ? "\"?" : "");
          diag_set_context(p->d, g, &c);
        }
        recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
        pop_nl(p);
        continue;
      }
      Tok close = peek(p);
      if (close.k != HCL_TOK_TEMPLATE_SEQ_END) {
        if (!p->recovery) {
          SrcRange c = between(start, close.r);
          Diag *g = diag_error(p->d, &close.r, "", "%s",
                               "Expected a closing brace to end the "
                               "sequence, but found extra characters.");
          g->summary = arena_printf(p->d->arena, "Extra characters in %.*s "
                                    "marker", (int)kw.len, kw.s);
          diag_set_context(p->d, g, &c);
        }
        recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
      } else {
        rd(p);
        if (close.len == 2 && close.s[0] == '~')
          ltrim_next = true;
      }
      pop_nl(p);
      break;
    }
    default:
      if (!p->recovery) {
        SrcRange c = between(start, next.r);
        err(p, next.r, &c, "Unterminated template string",
            "No closing marker was found for the string.");
      }
      endr = recover_to(p, end).r;
      goto out;
    }
  }
out:
  if (v->n == 0) {
    SrcRange r = {start.file, start.end, start.end};
    TT *t = tt_push(p, v, TT_LIT, r);
    t->s = arena_strdup(p->a, "");
  }
  tt_push(p, v, TT_END, endr);
  *all = between(start, endr);
}

/* Counts the leading characters that are spaces, and their bytes. */
static size_t lead_spaces(const char *s, size_t len, size_t *bytes)
{
  size_t i = 0, n = 0, k;
  while (i < len && space_at(s + i, len - i, &k)) {
    i += k;
    n++;
  }
  *bytes = i;
  return n;
}

/* flushHeredocTemplateParts: removes the common indentation of <<- */
static void flush_heredoc(P *p, TTVec *v)
{
  size_t min = (size_t)-1;
  bool newline = true;
  TT **adjust = ARENA_NEW(p->a, TT *, v->n);
  uint32_t nadj = 0;
  for (uint32_t i = 0; i < v->n; i++) {
    TT *t = &v->p[i];
    if (newline) {
      newline = false;
      size_t spaces = (size_t)-1;
      if (t->k == TT_LIT) {
        size_t sb;
        size_t cnt = lead_spaces(t->s, t->len, &sb);
        if (sb == t->len && t->len > 0 && t->s[t->len - 1] == '\n') {
          spaces = (size_t)-1;
        } else {
          spaces = cnt;
          adjust[nadj++] = t;
        }
      } else if (t->k == TT_END) {
        break;
      } else {
        spaces = 0;
      }
      if (spaces < min)
        min = spaces;
    }
    if (t->k == TT_LIT && t->len > 0 && t->s[t->len - 1] == '\n')
      newline = true;
  }
  for (uint32_t i = 0; i < nadj; i++) {
    TT *t = adjust[i];
    size_t k, n = 0, b = 0;
    while (n < min && b < t->len && space_at(t->s + b, t->len - b, &k)) {
      b += k;
      n++;
    }
    t->s += b;
    t->len -= b;
    t->r.start.col += (uint32_t)n;
    t->r.start.byte += (uint32_t)b;
  }
}

static HclExpr *tt_expr(P *p, TTVec *v);

static HclExpr *make_template(P *p, Vec *parts, SrcRange r)
{
  HclExpr *e = new_expr(p, HCL_E_TEMPLATE, r);
  e->u.tmpl.parts = VFINAL(p, *parts, HclExpr *);
  e->u.tmpl.n = parts->n;
  return e;
}

static SrcRange empty_at(SrcPos pos, const char *file)
{
  SrcRange r = {file, pos, pos};
  return r;
}

static HclExpr *str_lit(P *p, const char *s, size_t n, SrcRange r)
{
  return lit(p, val_str_ref(s, n), r);
}

static HclExpr *tt_if(P *p, TTVec *v)
{
  TT *open = &v->p[v->pos++];
  Vec ifs = {0}, elses = {0};
  Vec *cur = &ifs;
  SrcRange endif_r;
  for (;;) {
    TT *t = &v->p[v->pos];
    if (t->k == TT_END) {
      diag_error(p->d, &t->r, "Unexpected end of template",
                 "The if directive at %s is missing its corresponding endif "
                 "directive.", range_str(p, open->r));
      return placeholder(p, t->r);
    }
    if (t->k == TT_ELSE || t->k == TT_ENDIF || t->k == TT_ENDFOR) {
      v->pos++;
      if (t->k == TT_ELSE) {
        if (cur == &ifs) {
          cur = &elses;
          continue;
        }
        diag_error(p->d, &t->r, "Unexpected else directive",
                   "Already in the else clause for the if started at %s.",
                   range_str(p, open->r));
      } else if (t->k == TT_ENDIF) {
        endif_r = t->r;
        break;
      } else {
        diag_error(p->d, &t->r, "Unexpected endfor directive",
                   "Expecting an endif directive for the if started at %s.",
                   range_str(p, open->r));
      }
      return placeholder(p, t->r);
    }
    vpush(p->s, cur, tt_expr(p, v));
  }
  if (ifs.n == 0)
    vpush(p->s, &ifs, str_lit(p, "", 0, empty_at(open->r.end, p->file)));
  if (elses.n == 0)
    vpush(p->s, &elses, str_lit(p, "", 0, empty_at(endif_r.start, p->file)));
  HclExpr *te = make_template(
      p, &ifs, between(((HclExpr *)ifs.p[0])->range,
                       ((HclExpr *)ifs.p[ifs.n - 1])->range));
  HclExpr *fe = make_template(
      p, &elses, between(((HclExpr *)elses.p[0])->range,
                         ((HclExpr *)elses.p[elses.n - 1])->range));
  HclExpr *c = new_expr(p, HCL_E_COND, between(open->r, endif_r));
  c->u.cond.c = open->expr;
  c->u.cond.t = te;
  c->u.cond.f = fe;
  return c;
}

static HclExpr *tt_for(P *p, TTVec *v)
{
  TT *open = &v->p[v->pos++];
  Vec body = {0};
  SrcRange endfor_r;
  for (;;) {
    TT *t = &v->p[v->pos];
    if (t->k == TT_END) {
      diag_error(p->d, &t->r, "Unexpected end of template",
                 "The for directive at %s is missing its corresponding "
                 "endfor directive.", range_str(p, open->r));
      return placeholder(p, t->r);
    }
    if (t->k == TT_ELSE || t->k == TT_ENDIF || t->k == TT_ENDFOR) {
      v->pos++;
      if (t->k == TT_ENDFOR) {
        endfor_r = t->r;
        break;
      }
      if (t->k == TT_ELSE)
        err(p, t->r, NULL, "Unexpected else directive",
            "An else clause is not expected for a for directive.");
      else
        diag_error(p->d, &t->r, "Unexpected endif directive",
                   "Expecting an endfor directive corresponding to the for "
                   "directive at %s.", range_str(p, open->r));
      return placeholder(p, t->r);
    }
    vpush(p->s, &body, tt_expr(p, v));
  }
  if (body.n == 0)
    vpush(p->s, &body, str_lit(p, "", 0, empty_at(open->r.end, p->file)));
  HclExpr *content = make_template(
      p, &body, between(((HclExpr *)body.p[0])->range,
                        ((HclExpr *)body.p[body.n - 1])->range));
  HclExpr *f = new_expr(p, HCL_E_FOR, between(open->r, endfor_r));
  f->u.forx.key_var = open->key_var;
  f->u.forx.val_var = open->val_var;
  f->u.forx.coll = open->expr;
  f->u.forx.val = content;
  f->u.forx.open_range = open->r;
  f->u.forx.close_range = endfor_r;
  HclExpr *j = new_expr(p, HCL_E_TEMPLATE_JOIN, f->range);
  j->u.wrap = f;
  return j;
}

static HclExpr *tt_expr(P *p, TTVec *v)
{
  TT *t = &v->p[v->pos];
  switch (t->k) {
  case TT_LIT:
    v->pos++;
    return str_lit(p, t->s, t->len, t->r);
  case TT_INTERP:
    v->pos++;
    return t->expr;
  case TT_IF:
    return tt_if(p, v);
  case TT_FOR:
    return tt_for(p, v);
  case TT_END:
    err(p, t->r, NULL, "Unexpected end of template",
        "The control directives within this template are unbalanced.");
    return placeholder(p, t->r);
  default: {
    v->pos++;
    const char *nm = t->k == TT_ELSE ? "else"
                     : t->k == TT_ENDIF ? "endif" : "endfor";
    Diag *g = err(p, t->r, NULL, "", "The control directives within this "
                  "template are unbalanced.");
    g->summary = arena_printf(p->d->arena, "Unexpected %s directive", nm);
    return placeholder(p, t->r);
  }
  }
}

/* Merges adjacent literal template tokens (after trimming), which the Go
** parser keeps apart; the concatenation is the same. */
static void merge_lits(P *p, TTVec *v)
{
  uint32_t w = 0;
  for (uint32_t i = 0; i < v->n; i++) {
    TT *t = &v->p[i];
    if (t->k == TT_LIT && w > 0 && v->p[w - 1].k == TT_LIT) {
      TT *prev = &v->p[w - 1];
      char *s = arena_alloc_raw(p->a, 1, 1, prev->len + t->len + 1);
      memcpy(s, prev->s, prev->len);
      memcpy(s + prev->len, t->s, t->len);
      s[prev->len + t->len] = '\0';
      prev->s = s;
      prev->len += t->len;
      prev->r.end = t->r.end;
      continue;
    }
    if (w != i)
      v->p[w] = *t;
    else if (t->k == TT_LIT)
      t->s[t->len] = '\0';
    w++;
  }
  v->n = w;
}

/* parseTemplateInner: returns the template (or wrap) expression over the
** tokens up to `end`; range of the parts in *r. */
static HclExpr *template_inner(P *p, HclTokenKind end, bool flush,
                               SrcRange outer, bool use_outer)
{
  TTVec v = {0};
  SrcRange r;
  template_parts(p, end, &v, &r);
  if (flush)
    flush_heredoc(p, &v);
  bool passthru = v.n == 2 && v.p[0].k == TT_INTERP;
  if (use_outer)
    r = between(outer, prev_range(p));
  if (passthru) {
    HclExpr *w = new_expr(p, HCL_E_TEMPLATE_WRAP, r);
    w->u.wrap = v.p[0].expr;
    return w;
  }
  merge_lits(p, &v);
  Vec parts = {0};
  while (v.p[v.pos].k != TT_END)
    vpush(p->s, &parts, tt_expr(p, &v));
  return make_template(p, &parts, r);
}

/* ---- Expressions ------------------------------------------------------------ */

static HclExpr *parse_call(P *p, Tok name)
{
  Tok open = rd(p);
  Buf nm;
  buf_init(&nm, p->s);
  buf_put(&nm, name.s, name.len);
  SrcPos name_end = name.r.end;
  uint32_t nparts = 1;
  const char *base_start_off = NULL;
  size_t base_off = 0;
  while (open.k == HCL_TOK_DOUBLE_COLON) {
    Tok part = rd(p);
    if (part.k != HCL_TOK_IDENT) {
      SrcRange c = between(name.r, part.r);
      err(p, part.r, &c, "Missing function name",
          "Function scope resolution symbol :: must be followed by a "
          "function name in this scope.");
      recover_over(p, HCL_TOK_OPAREN);
      return placeholder(p, between(name.r, part.r));
    }
    buf_puts(&nm, "::");
    base_off = nm.len;
    buf_put(&nm, part.s, part.len);
    name_end = part.r.end;
    nparts++;
    open = rd(p);
  }
  (void)base_start_off;
  SrcRange name_r = name.r;
  name_r.end = name_end;
  if (open.k != HCL_TOK_OPAREN) {
    SrcRange c = between(name.r, open.r);
    err(p, open.r, &c, "Missing open parenthesis",
        "Function selector must be followed by an open parenthesis to begin "
        "the function call.");
    recover_over(p, HCL_TOK_OPAREN);
    return placeholder(p, between(name.r, open.r));
  }
  Vec args = {0};
  bool expand = false;
  Tok close = open;
  push_nl(p, false);
  for (;;) {
    Tok t = peek(p);
    if (t.k == HCL_TOK_CPAREN) {
      close = rd(p);
      break;
    }
    int e0 = p->d->errors;
    HclExpr *arg = parse_expression(p);
    vpush(p->s, &args, arg);
    if (p->recovery && errs_since(p, e0)) {
      close = recover_to(p, HCL_TOK_CPAREN);
      break;
    }
    Tok sep = rd(p);
    if (sep.k == HCL_TOK_CPAREN) {
      close = sep;
      break;
    }
    if (sep.k == HCL_TOK_ELLIPSIS) {
      expand = true;
      if (peek(p).k != HCL_TOK_CPAREN) {
        if (!p->recovery) {
          SrcRange c = between(name.r, sep.r);
          err(p, sep.r, &c, "Missing closing parenthesis",
              "An expanded function argument (with ...) must be immediately "
              "followed by closing parentheses.");
        }
        close = recover_to(p, HCL_TOK_CPAREN);
      } else {
        close = rd(p);
      }
      break;
    }
    if (sep.k != HCL_TOK_COMMA) {
      if (sep.k == HCL_TOK_EOF) {
        err(p, between(name.r, open.r), NULL, "Unterminated function call",
            "There is no closing parenthesis for this function call before "
            "the end of the file. This may be caused by incorrect parethesis "
            "nesting elsewhere in this file.");
      } else {
        SrcRange c = between(name.r, sep.r);
        err(p, sep.r, &c, "Missing argument separator",
            "A comma is required to separate each function argument from "
            "the next.");
      }
      close = recover_to(p, HCL_TOK_CPAREN);
      break;
    }
    if (peek(p).k == HCL_TOK_CPAREN) {
      close = rd(p);
      break;
    }
  }
  pop_nl(p);
  HclExpr *e = new_expr(p, HCL_E_CALL, between(name.r, close.r));
  e->u.call.name = arena_strndup(p->a, buf_str(&nm), nm.len);
  e->u.call.base = e->u.call.name + base_off;
  e->u.call.nparts = nparts;
  e->u.call.args = VFINAL(p, args, HclExpr *);
  e->u.call.nargs = args.n;
  e->u.call.expand_final = expand;
  e->u.call.name_range = name_r;
  e->u.call.open_range = open.r;
  e->u.call.close_range = close.r;
  return e;
}

static HclExpr *parse_for(P *p, Tok open)
{
  push_nl(p, false);
  rd(p); /* `for` */
  bool obj = open.k == HCL_TOK_OBRACE;
  HclTokenKind close_k = obj ? HCL_TOK_CBRACE : HCL_TOK_CBRACK;
  const char *kn = NULL, *vn = NULL;
  const char *problem = NULL;
  HclExpr *coll = NULL, *ke = NULL, *ve = NULL, *ce = NULL;
  bool group = false;
  Tok ellipsis = open;
  Tok close;

  if (peek(p).k != HCL_TOK_IDENT) {
    problem = "For expression requires variable name after 'for'.";
    goto bad;
  }
  vn = tok_str(p, rd(p));
  if (peek(p).k == HCL_TOK_COMMA) {
    kn = vn;
    rd(p);
    if (peek(p).k != HCL_TOK_IDENT) {
      problem = "For expression requires value variable name after comma.";
      goto bad;
    }
    vn = tok_str(p, rd(p));
  }
  if (!tok_is(peek(p), "in")) {
    problem = "For expression requires the 'in' keyword after its name "
              "declarations.";
    goto bad;
  }
  rd(p);
  {
    int e0 = p->d->errors;
    coll = parse_expression(p);
    if (p->recovery && errs_since(p, e0))
      goto bad_quiet;
  }
  if (peek(p).k != HCL_TOK_COLON) {
    problem = "For expression requires a colon after the collection "
              "expression.";
    goto bad;
  }
  rd(p);
  {
    int e0 = p->d->errors;
    ve = parse_expression(p);
    if (peek(p).k == HCL_TOK_FAT_ARROW) {
      rd(p);
      ke = ve;
      ve = parse_expression(p);
    }
    if (p->recovery && errs_since(p, e0))
      goto bad_quiet;
  }
  if (peek(p).k == HCL_TOK_ELLIPSIS) {
    ellipsis = rd(p);
    group = true;
  }
  if (tok_is(peek(p), "if")) {
    rd(p);
    int e0 = p->d->errors;
    ce = parse_expression(p);
    if (p->recovery && errs_since(p, e0))
      goto bad_quiet;
  }
  if (peek(p).k == close_k) {
    close = rd(p);
  } else {
    if (!p->recovery) {
      Tok t = peek(p);
      SrcRange c = between(open.r, t.r);
      err(p, t.r, &c, "Invalid 'for' expression",
          "Extra characters after the end of the 'for' expression.");
    }
    close = recover_to(p, close_k);
  }
  {
    SrcRange all = between(open.r, close.r);
    if (!obj) {
      if (ke)
        err(p, ke->range, rp(p, all), "Invalid 'for' expression",
            "Key expression is not valid when building a tuple.");
      if (group)
        err(p, ellipsis.r, rp(p, all), "Invalid 'for' expression",
            "Grouping ellipsis (...) cannot be used when building a tuple.");
    } else if (!ke) {
      err(p, ve->range, rp(p, all), "Invalid 'for' expression",
          "Key expression is required when building an object.");
    }
    HclExpr *e = new_expr(p, HCL_E_FOR, all);
    e->u.forx.key_var = kn;
    e->u.forx.val_var = vn;
    e->u.forx.coll = coll;
    e->u.forx.key = ke;
    e->u.forx.val = ve;
    e->u.forx.cond = ce;
    e->u.forx.group = group;
    e->u.forx.object = obj;
    e->u.forx.open_range = open.r;
    e->u.forx.close_range = close.r;
    pop_nl(p);
    return e;
  }
bad:
  if (!p->recovery) {
    Tok t = peek(p);
    SrcRange c = between(open.r, t.r);
    err(p, t.r, &c, "Invalid 'for' expression", problem);
  }
bad_quiet:
  close = recover_to(p, close_k);
  pop_nl(p);
  return placeholder(p, between(open.r, close.r));
}

static HclExpr *parse_tuple(P *p)
{
  Tok open = rd(p);
  push_nl(p, false);
  if (tok_is(peek(p), "for")) {
    HclExpr *f = parse_for(p, open);
    pop_nl(p);
    return f;
  }
  Vec items = {0};
  Tok close;
  for (;;) {
    Tok next = peek(p);
    if (next.k == HCL_TOK_CBRACK) {
      close = rd(p);
      break;
    }
    int e0 = p->d->errors;
    vpush(p->s, &items, parse_expression(p));
    if (p->recovery && errs_since(p, e0)) {
      close = recover_to(p, HCL_TOK_CBRACK);
      break;
    }
    next = peek(p);
    if (next.k == HCL_TOK_CBRACK) {
      close = rd(p);
      break;
    }
    if (next.k != HCL_TOK_COMMA) {
      if (!p->recovery) {
        if (next.k == HCL_TOK_EOF) {
          err(p, open.r, NULL, "Unterminated tuple constructor expression",
              "There is no corresponding closing bracket before the end of "
              "the file. This may be caused by incorrect bracket nesting "
              "elsewhere in this file.");
        } else {
          SrcRange c = between(open.r, next.r);
          err(p, next.r, &c, "Missing item separator",
              "Expected a comma to mark the beginning of the next item.");
        }
      }
      close = recover_to(p, HCL_TOK_CBRACK);
      break;
    }
    rd(p);
  }
  pop_nl(p);
  HclExpr *e = new_expr(p, HCL_E_TUPLE, between(open.r, close.r));
  e->u.tuple.items = VFINAL(p, items, HclExpr *);
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
  Tok open = rd(p);
  push_nl(p, false);
  bool is_for = tok_is(peek(p), "for");
  pop_nl(p);
  if (is_for)
    return parse_for(p, open);
  push_nl(p, true);
  HclObjectItem *items = NULL;
  uint32_t n = 0, cap = 0;
  Tok close;
  for (;;) {
    Tok next = peek(p);
    if (next.k == HCL_TOK_NEWLINE) {
      rd(p);
      continue;
    }
    if (next.k == HCL_TOK_CBRACE) {
      close = rd(p);
      break;
    }
    bool force = next.k == HCL_TOK_OPAREN;
    int e0 = p->d->errors;
    HclExpr *key = parse_expression(p);
    if (p->recovery && errs_since(p, e0)) {
      close = recover_to(p, HCL_TOK_CBRACE);
      break;
    }
    next = peek(p);
    if (next.k != HCL_TOK_EQUAL && next.k != HCL_TOK_COLON) {
      if (!p->recovery) {
        SrcRange c = between(open.r, next.r);
        switch (next.k) {
        case HCL_TOK_NEWLINE:
        case HCL_TOK_COMMA:
          err(p, next.r, &c, "Missing attribute value",
              "Expected an attribute value, introduced by an equals sign "
              "(\"=\").");
          break;
        case HCL_TOK_IDENT:
          err(p, next.r, &c, "Missing key/value separator",
              "Expected an equals sign (\"=\") to mark the beginning of the "
              "attribute value. If you intended to given an attribute name "
              "containing periods or spaces, write the name in quotes to "
              "create a string literal.");
          break;
        case HCL_TOK_EOF:
          err(p, open.r, NULL, "Unterminated object constructor expression",
              "There is no corresponding closing brace before the end of "
              "the file. This may be caused by incorrect brace nesting "
              "elsewhere in this file.");
          break;
        default:
          err(p, next.r, &c, "Missing key/value separator",
              "Expected an equals sign (\"=\") to mark the beginning of the "
              "attribute value.");
          break;
        }
      }
      close = recover_to(p, HCL_TOK_CBRACE);
      break;
    }
    rd(p);
    e0 = p->d->errors;
    HclExpr *val = parse_expression(p);
    if (p->recovery && errs_since(p, e0)) {
      close = recover_to(p, HCL_TOK_CBRACE);
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
    next = peek(p);
    if (next.k == HCL_TOK_CBRACE) {
      close = rd(p);
      break;
    }
    if (next.k != HCL_TOK_COMMA && next.k != HCL_TOK_NEWLINE) {
      if (!p->recovery) {
        if (next.k == HCL_TOK_EOF) {
          err(p, open.r, NULL, "Unterminated object constructor expression",
              "There is no corresponding closing brace before the end of "
              "the file. This may be caused by incorrect brace nesting "
              "elsewhere in this file.");
        } else {
          SrcRange c = between(open.r, next.r);
          err(p, next.r, &c, "Missing attribute separator",
              "Expected a newline or comma to mark the beginning of the "
              "next attribute.");
        }
      }
      close = recover_to(p, HCL_TOK_CBRACE);
      break;
    }
    rd(p);
  }
  pop_nl(p);
  HclExpr *e = new_expr(p, HCL_E_OBJECT, between(open.r, close.r));
  e->u.object.items = (HclObjectItem *)vcopy(p->a, items, sizeof(HclObjectItem),
                                              _Alignof(HclObjectItem), n);
  e->u.object.n = n;
  e->u.object.open_range = open.r;
  return e;
}

static bool enter(P *p)
{
  if (p->depth >= HCL_MAX_DEPTH) {
    if (!p->too_deep) {
      Tok t = peek(p);
      err(p, t.r, NULL, "Nesting too deep",
          "This construct is nested more deeply than the supported limit of "
          "500 levels.");
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
  Tok start = peek(p);
  switch (start.k) {
  case HCL_TOK_OPAREN: {
    Tok open = rd(p);
    push_nl(p, false);
    int e0 = p->d->errors;
    HclExpr *e = parse_expression(p);
    if (errs_since(p, e0)) {
      recover_to(p, HCL_TOK_CPAREN);
      pop_nl(p);
      return e;
    }
    Tok close = peek(p);
    if (close.k != HCL_TOK_CPAREN) {
      SrcRange c = between(start.r, close.r);
      err(p, close.r, &c, "Unbalanced parentheses",
          "Expected a closing parenthesis to terminate the expression.");
      p->recovery = true;
    }
    close = rd(p);
    pop_nl(p);
    HclExpr *w = new_expr(p, HCL_E_PAREN, between(open.r, close.r));
    w->u.wrap = e;
    return w;
  }
  case HCL_TOK_NUMBER_LIT: {
    Tok t = rd(p);
    Value v;
    if (!val_parse_number(p->a, t.s, t.len, false, &v)) {
      err(p, t.r, NULL, "Invalid number literal",
          "Failed to recognize the value of this number literal.");
      v = val_unknown(&ty_number);
    }
    return lit(p, v, t.r);
  }
  case HCL_TOK_IDENT: {
    Tok t = rd(p);
    Tok nx = peek(p);
    if (nx.k == HCL_TOK_OPAREN || nx.k == HCL_TOK_DOUBLE_COLON)
      return parse_call(p, t);
    if (tok_is(t, "true"))
      return lit(p, val_true, t.r);
    if (tok_is(t, "false"))
      return lit(p, val_false, t.r);
    if (tok_is(t, "null"))
      return lit(p, val_dynamic_null, t.r);
    HclExpr *e = new_expr(p, HCL_E_SCOPE_TRAV, t.r);
    HclStep s;
    memset(&s, 0, sizeof s);
    s.kind = HCL_STEP_ROOT;
    s.name = tok_str(p, t);
    s.range = t.r;
    spush(p->s, pend, s);
    return e;
  }
  case HCL_TOK_OQUOTE:
  case HCL_TOK_OHEREDOC: {
    Tok open = rd(p);
    bool flush = open.k == HCL_TOK_OHEREDOC && open.len > 2 &&
                 open.s[2] == '-';
    return template_inner(p, opposite(open.k), flush, open.r, true);
  }
  case HCL_TOK_MINUS:
  case HCL_TOK_BANG: {
    Tok t = rd(p);
    HclExpr *operand;
    if (enter(p)) {
      operand = parse_with_traversals(p);
      p->depth--;
    } else {
      operand = placeholder(p, next_range(p));
    }
    HclExpr *e = new_expr(p, HCL_E_UNARY, between(t.r, operand->range));
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
        err(p, start.r, NULL, "Missing expression",
            "Expected the start of an expression, but found the end of the "
            "file.");
      else
        err(p, start.r, NULL, "Invalid expression",
            "Expected the start of an expression, but found an invalid "
            "expression token.");
    }
    p->recovery = true;
    return placeholder(p, start.r);
  }
}

/* Depth is counted in parse_expression (every bracketed construct nests
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
    HclExpr *r = new_expr(p, HCL_E_REL_TRAV, ret->range);
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
  ret->range = between(ret->range, pend->p[pend->n - 1].range);
  pend->n = 0;
  return ret;
}

static bool legacy_index(P *p, Tok num, Tok dot, HclStep *st, bool splat,
                         SrcRange subject)
{
  memset(st, 0, sizeof *st);
  st->kind = HCL_STEP_INDEX;
  st->legacy = true;
  st->range = between(dot.r, num.r);
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
    err(p, num.r, NULL, "Invalid number literal",
        "Failed to recognize the value of this number literal.");
    *key = val_unknown(&ty_number);
  }
  st->key = key;
  return true;
}

static HclExpr *parse_traversals(P *p, HclExpr *from, StepVec *pend)
{
  HclExpr *ret = from;
  for (;;) {
    Tok next = peek(p);
    if (next.k == HCL_TOK_DOT) {
      Tok dot = rd(p);
      Tok at = peek(p);
      if (at.k == HCL_TOK_IDENT) {
        at = rd(p);
        HclStep st;
        memset(&st, 0, sizeof st);
        st.kind = HCL_STEP_ATTR;
        st.name = tok_str(p, at);
        st.range = between(dot.r, at.r);
        spush(p->s, pend, st);
      } else if (at.k == HCL_TOK_NUMBER_LIT) {
        Tok num = rd(p);
        HclStep st;
        legacy_index(p, num, dot, &st, false, num.r);
        spush(p->s, pend, st);
      } else if (at.k == HCL_TOK_STAR) {
        Tok marker = rd(p);
        ret = flush_steps(p, ret, pend);
        StepVec trav = {0};
        SrcRange first = next_range(p), last = marker.r;
        bool bail = false;
        while (peek(p).k == HCL_TOK_DOT) {
          Tok d2 = rd(p);
          Tok nt = peek(p);
          if (nt.k == HCL_TOK_NUMBER_LIT) {
            Tok num = rd(p);
            HclStep st;
            legacy_index(p, num, d2, &st, true, at.r);
            spush(p->s, &trav, st);
            last = num.r;
            continue;
          }
          if (nt.k != HCL_TOK_IDENT) {
            if (!p->recovery) {
              if (nt.k == HCL_TOK_STAR)
                err(p, nt.r, NULL, "Nested splat expression not allowed",
                    "A splat expression (*) cannot be used inside another "
                    "attribute-only splat expression.");
              else
                err(p, at.r, NULL, "Invalid attribute name",
                    "An attribute name is required after a dot.");
            }
            p->recovery = true;
            bail = true;
            break;
          }
          Tok an = rd(p);
          HclStep st;
          memset(&st, 0, sizeof st);
          st.kind = HCL_STEP_ATTR;
          st.name = tok_str(p, an);
          st.range = between(d2.r, an.r);
          spush(p->s, &trav, st);
          last = an.r;
        }
        HclExpr *item = new_expr(p, HCL_E_ANON, between(dot.r, marker.r));
        HclExpr *each = item;
        if (trav.n > 0) {
          each = new_expr(p, HCL_E_REL_TRAV, between(first, last));
          each->u.rel.src = item;
          each->u.rel.steps = VFINAL(p, trav, HclStep);
          each->u.rel.n = trav.n;
        }
        HclExpr *sp = new_expr(p, HCL_E_SPLAT, between(from->range, last));
        sp->u.splat.src = ret;
        sp->u.splat.each = each;
        sp->u.splat.item = item;
        sp->u.splat.marker_range = between(dot.r, marker.r);
        sp->u.splat.attr_only = true;
        ret = sp;
        if (bail)
          continue;
      } else {
        err(p, at.r, NULL, "Invalid attribute name",
            "An attribute name is required after a dot.");
        p->recovery = true;
      }
      continue;
    }
    if (next.k == HCL_TOK_OBRACK) {
      Tok open = rd(p);
      if (peek(p).k == HCL_TOK_STAR) {
        rd(p);
        Tok close = rd(p);
        if (close.k != HCL_TOK_CBRACK && !p->recovery) {
          /* the Go parser reports the token recovery stopped at */
          close = recover_to(p, HCL_TOK_CBRACK);
          err(p, close.r, NULL, "Missing close bracket on splat index",
              "The star for a full splat operator must be immediately "
              "followed by a closing bracket (\"]\").");
        }
        ret = flush_steps(p, ret, pend);
        HclExpr *item = new_expr(p, HCL_E_ANON, between(open.r, close.r));
        HclExpr *each;
        if (enter(p)) {
          StepVec inner = {0};
          each = parse_traversals(p, item, &inner);
          p->depth--;
        } else {
          each = item;
        }
        HclExpr *sp =
            new_expr(p, HCL_E_SPLAT, between(from->range, each->range));
        sp->u.splat.src = ret;
        sp->u.splat.each = each;
        sp->u.splat.item = item;
        sp->u.splat.marker_range = between(open.r, close.r);
        ret = sp;
        continue;
      }
      push_nl(p, false);
      int e0 = p->d->errors;
      HclExpr *key = parse_expression(p);
      Tok close;
      if (p->recovery && errs_since(p, e0)) {
        close = recover_to(p, HCL_TOK_CBRACK);
      } else {
        close = rd(p);
        if (close.k != HCL_TOK_CBRACK && !p->recovery) {
          close = recover_to(p, HCL_TOK_CBRACK);
          err(p, close.r, NULL, "Missing close bracket on index",
              "The index operator must end with a closing bracket (\"]\").");
        }
      }
      pop_nl(p);
      SrcRange br = between(open.r, close.r);
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
        ret = flush_steps(p, ret, pend);
        HclExpr *ix = new_expr(p, HCL_E_INDEX, between(from->range, br));
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

/* Precedence climbing; left-associative at every level, as parseBinaryOps. */
static HclExpr *parse_binary(P *p, int min)
{
  int e0 = p->d->errors;
  HclExpr *lhs = parse_with_traversals(p);
  if (p->recovery && errs_since(p, e0))
    return lhs;
  for (;;) {
    HclBinOp op;
    int lvl = bin_level(peek(p).k, &op);
    if (lvl < 0 || lvl < min)
      return lhs;
    rd(p);
    int e1 = p->d->errors;
    HclExpr *rhs = parse_binary(p, lvl + 1);
    if (p->recovery && errs_since(p, e1))
      return lhs;
    HclExpr *b = new_expr(p, HCL_E_BINARY, between(lhs->range, rhs->range));
    b->u.binary.op = op;
    b->u.binary.lhs = lhs;
    b->u.binary.rhs = rhs;
    lhs = b;
  }
}

static HclExpr *parse_expression(P *p)
{
  if (!enter(p))
    return placeholder(p, next_range(p));
  SrcRange start = next_range(p);
  int e0 = p->d->errors;
  HclExpr *c = parse_binary(p, 0);
  HclExpr *ret = c;
  if (p->recovery && errs_since(p, e0))
    goto out;
  if (peek(p).k != HCL_TOK_QUESTION)
    goto out;
  rd(p);
  e0 = p->d->errors;
  HclExpr *t = parse_expression(p);
  if (p->recovery && errs_since(p, e0))
    goto out;
  Tok colon = peek(p);
  if (colon.k != HCL_TOK_COLON) {
    SrcRange cx = between(start, colon.r);
    err(p, colon.r, &cx, "Missing false expression in conditional",
        "The conditional operator (...?...:...) requires a false "
        "expression, delimited by a colon.");
    goto out;
  }
  rd(p);
  e0 = p->d->errors;
  HclExpr *f = parse_expression(p);
  if (p->recovery && errs_since(p, e0))
    goto out;
  ret = new_expr(p, HCL_E_COND, between(start, f->range));
  ret->u.cond.c = c;
  ret->u.cond.t = t;
  ret->u.cond.f = f;
out:
  p->depth--;
  return ret;
}

/* ---- Structure ---------------------------------------------------------- */

/* Open-addressing set of attribute names, for "Attribute redefined"
** without quadratic scans. */
typedef struct NameSet {
  HclAttribute **slots;
  uint32_t cap, n;
} NameSet;

static uint32_t hash_str(const char *s)
{
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

/* Returns the existing attribute with a's name, or adds a and returns NULL. */
static HclAttribute *nameset_add(Arena *ar, NameSet *s, HclAttribute *a)
{
  if (s->n * 2 >= s->cap) {
    uint32_t nc = s->cap ? s->cap * 2 : 16;
    HclAttribute **ns = ARENA_NEW(ar, HclAttribute *, nc);
    for (uint32_t i = 0; i < s->cap; i++) {
      if (!s->slots[i])
        continue;
      uint32_t h = hash_str(s->slots[i]->name) & (nc - 1);
      while (ns[h])
        h = (h + 1) & (nc - 1);
      ns[h] = s->slots[i];
    }
    s->slots = ns;
    s->cap = nc;
  }
  uint32_t h = hash_str(a->name) & (s->cap - 1);
  while (s->slots[h]) {
    if (strcmp(s->slots[h]->name, a->name) == 0)
      return s->slots[h];
    h = (h + 1) & (s->cap - 1);
  }
  s->slots[h] = a;
  s->n++;
  return NULL;
}

static HclAttribute *finish_attr(P *p, Tok ident, bool single_line)
{
  rd(p);   /* the `=` */
  SrcRange endr;
  int e0 = p->d->errors;
  HclExpr *e = parse_expression(p);
  if (p->recovery && errs_since(p, e0)) {
    endr = prev_range(p);
    recover_after_body_item(p);
  } else {
    endr = prev_range(p);
    if (!single_line) {
      Tok end = peek(p);
      if (end.k != HCL_TOK_NEWLINE && end.k != HCL_TOK_EOF) {
        if (!p->recovery) {
          SrcRange c = between(ident.r, end.r);
          if (end.k == HCL_TOK_COMMA)
            err(p, end.r, &c, "Unexpected comma after argument",
                "Argument definitions must be separated by newlines, not "
                "commas. An argument definition must end with a newline.");
          else
            err(p, end.r, &c, "Missing newline after argument",
                "An argument definition must end with a newline.");
        }
        endr = prev_range(p);
        recover_after_body_item(p);
      } else {
        endr = prev_range(p);
        rd(p);
      }
    }
  }
  HclAttribute *a = ARENA_NEW(p->a, HclAttribute, 1);
  a->name = tok_str(p, ident);
  a->expr = e;
  a->range = between(ident.r, endr);
  a->name_range = ident.r;
  return a;
}

static HclBody *single_attr_body(P *p, bool *ok)
{
  Tok ident = rd(p);
  *ok = false;
  if (ident.k != HCL_TOK_IDENT) {
    recover_after_body_item(p);
    err(p, ident.r, NULL, "Argument or block definition required",
        "An argument or block definition is required here.");
    return NULL;
  }
  Tok next = peek(p);
  if (next.k == HCL_TOK_EQUAL) {
    HclAttribute *a = finish_attr(p, ident, true);
    HclBody *b = ARENA_NEW(p->a, HclBody, 1);
    b->items = ARENA_NEW(p->a, HclBodyItem, 1);
    b->items[0].attr = a;
    b->nitems = 1;
    b->attrs = ARENA_NEW(p->a, HclAttribute *, 1);
    b->attrs[0] = a;
    b->nattrs = 1;
    b->range = a->range;
    b->end_range = empty_at(a->range.end, p->file);
    *ok = true;
    return b;
  }
  recover_after_body_item(p);
  if (next.k == HCL_TOK_OQUOTE || next.k == HCL_TOK_OBRACE ||
      next.k == HCL_TOK_IDENT) {
    diag_error(p->d, rp(p, between(ident.r, next.r)),
               "Argument definition required",
               "A single-line block definition can contain only a single "
               "argument. If you meant to define argument \"%.*s\", use an "
               "equals sign to assign it a value. To define a nested block, "
               "place it on a line of its own within its parent block.",
               (int)ident.len, ident.s);
  } else {
    err(p, ident.r, NULL, "Argument or block definition required",
        "An argument or block definition is required here. To set an "
        "argument, use the equals sign \"=\" to introduce the argument "
        "value.");
  }
  return NULL;
}

static HclBlock *finish_block(P *p, Tok ident)
{
  HclBlock *blk = ARENA_NEW(p->a, HclBlock, 1);
  blk->type = tok_str(p, ident);
  blk->type_range = ident.r;
  Vec labels = {0};
  SrcRange *lranges = NULL;
  uint8_t *lq = NULL;
  uint32_t lcap = 0;
  Tok obrace;
  for (;;) {
    Tok t = peek(p);
    if (t.k == HCL_TOK_OBRACE) {
      obrace = rd(p);
      break;
    }
    if (t.k == HCL_TOK_OQUOTE || t.k == HCL_TOK_IDENT) {
      SrcRange r;
      const char *l;
      if (t.k == HCL_TOK_OQUOTE) {
        l = parse_quoted_string(p, &r);
      } else {
        rd(p);
        l = tok_str(p, t);
        r = t.r;
      }
      if (labels.n == lcap) {
        uint32_t nc = lcap ? lcap * 2 : 4;
        lranges = arena_grow(p->s, lranges, sizeof(SrcRange),
                             _Alignof(SrcRange), lcap, nc);
        lq = arena_grow(p->s, lq, 1, 1, lcap, nc);
        lcap = nc;
      }
      lranges[labels.n] = r;
      lq[labels.n] = t.k == HCL_TOK_OQUOTE;
      vpush(p->s, &labels, (void *)l);
      continue;
    }
    SrcRange c = between(ident.r, t.r);
    if (t.k == HCL_TOK_EQUAL)
      err(p, t.r, &c, "Invalid block definition",
          "The equals sign \"=\" indicates an argument definition, and must "
          "not be used when defining a block.");
    else if (t.k == HCL_TOK_NEWLINE)
      err(p, t.r, &c, "Invalid block definition",
          "A block definition must have block content delimited by \"{\" "
          "and \"}\", starting on the same line as the block header.");
    else if (!p->recovery)
      err(p, t.r, &c, "Invalid block definition",
          "Either a quoted string block label or an opening brace (\"{\") "
          "is expected here.");
    recover_after_body_item(p);
    blk->labels = VFINAL(p, labels, const char *);
    blk->label_ranges = (SrcRange *)vcopy(p->a, lranges, sizeof(SrcRange),
                                          _Alignof(SrcRange), labels.n);
    blk->label_quoted = (uint8_t *)vcopy(p->a, lq, 1, 1, labels.n);
    blk->nlabels = labels.n;
    blk->body = ARENA_NEW(p->a, HclBody, 1);
    blk->body->range = ident.r;
    blk->body->end_range = ident.r;
    blk->open_brace = ident.r;
    blk->close_brace = ident.r;
    return blk;
  }
  blk->labels = VFINAL(p, labels, const char *);
  blk->label_ranges = (SrcRange *)vcopy(p->a, lranges, sizeof(SrcRange),
                                        _Alignof(SrcRange), labels.n);
  blk->label_quoted = (uint8_t *)vcopy(p->a, lq, 1, 1, labels.n);
  blk->nlabels = labels.n;
  blk->open_brace = obrace.r;

  HclBody *body = NULL;
  int e0 = p->d->errors;
  Tok nx = peek(p);
  if (nx.k == HCL_TOK_NEWLINE || nx.k == HCL_TOK_EOF ||
      nx.k == HCL_TOK_CBRACE) {
    body = parse_body(p, HCL_TOK_CBRACE);
  } else {
    bool ok;
    body = single_attr_body(p, &ok);
    Tok t = peek(p);
    if (t.k == HCL_TOK_CBRACE) {
      rd(p);
    } else if (t.k == HCL_TOK_COMMA) {
      err(p, t.r, NULL, "Invalid single-argument block definition",
          "Single-line block syntax can include only one argument "
          "definition. To define multiple arguments, use the multi-line "
          "block syntax with one argument definition per line.");
      recover_to(p, HCL_TOK_CBRACE);
    } else if (t.k == HCL_TOK_NEWLINE) {
      err(p, t.r, NULL, "Invalid single-argument block definition",
          "An argument definition on the same line as its containing block "
          "creates a single-line block definition, which must also be "
          "closed on the same line. Place the block's closing brace "
          "immediately after the argument definition.");
      recover_to(p, HCL_TOK_CBRACE);
    } else {
      if (!p->recovery) {
        if (t.k == HCL_TOK_EOF) {
          SrcRange c = between(ident.r, obrace.r);
          err(p, obrace.r, &c, "Unclosed configuration block",
              "There is no closing brace for this block before the end of "
              "the file. This may be caused by incorrect brace nesting "
              "elsewhere in this file.");
        } else {
          err(p, t.r, NULL, "Invalid single-argument block definition",
              "A single-line block definition must end with a closing brace "
              "immediately after its single argument definition.");
        }
      }
      recover_to(p, HCL_TOK_CBRACE);
    }
  }
  SrcRange cbrace = prev_range(p);
  Tok eol = peek(p);
  if (eol.k == HCL_TOK_NEWLINE || eol.k == HCL_TOK_EOF) {
    rd(p);
  } else {
    if (!p->recovery) {
      SrcRange c = between(ident.r, eol.r);
      err(p, eol.r, &c, "Missing newline after block definition",
          "A block definition must end with a newline.");
    }
    recover_after_body_item(p);
  }
  if (!body) {
    (void)e0;
    body = ARENA_NEW(p->a, HclBody, 1);
    body->range = between(obrace.r, cbrace);
    body->end_range = cbrace;
  }
  blk->body = body;
  blk->close_brace = cbrace;
  return blk;
}

static HclBody *parse_body_inner(P *p, HclTokenKind end)
{
  HclBody *b = ARENA_NEW(p->a, HclBody, 1);
  SrcRange startr = prev_range(p), endr;
  HclBodyItem *items = NULL;
  uint32_t nitems = 0, icap = 0;
  Vec attrs = {0}, blocks = {0};
  NameSet names = {0};
  /* The file's own body grows across items in the tree's arena, so that
  ** the scratch arena can be rewound after each top-level item. */
  bool top = end == HCL_TOK_EOF && p->depth == 0;
  Arena *coll = top ? p->a : p->s;
  ArenaMark item_mark = arena_mark(p->s);
  for (;;) {
    if (top)
      arena_rewind(p->s, item_mark);
    Tok next = peek(p);
    if (next.k == end) {
      endr = next.r;
      rd(p);
      break;
    }
    if (next.k == HCL_TOK_NEWLINE) {
      rd(p);
      continue;
    }
    if (next.k == HCL_TOK_IDENT) {
      Tok ident = rd(p);
      Tok nx = peek(p);
      HclBodyItem it = {NULL, NULL};
      if (nx.k == HCL_TOK_EQUAL) {
        it.attr = finish_attr(p, ident, false);
      } else if (nx.k == HCL_TOK_OQUOTE || nx.k == HCL_TOK_OBRACE ||
                 nx.k == HCL_TOK_IDENT) {
        if (!enter(p)) {
          recover_after_body_item(p);
          continue;
        }
        it.block = finish_block(p, ident);
        p->depth--;
      } else {
        recover_after_body_item(p);
        err(p, ident.r, NULL, "Argument or block definition required",
            "An argument or block definition is required here. To set an "
            "argument, use the equals sign \"=\" to introduce the argument "
            "value.");
        continue;
      }
      if (it.attr) {
        HclAttribute *ex = nameset_add(coll, &names, it.attr);
        if (ex) {
          diag_error(p->d, &it.attr->name_range, "Attribute redefined",
                     "The argument \"%s\" was already set at %s. Each "
                     "argument may be set only once.", it.attr->name,
                     range_str(p, ex->name_range));
          continue;
        }
        vpush(coll, &attrs, it.attr);
      } else {
        vpush(coll, &blocks, it.block);
      }
      if (nitems == icap) {
        uint32_t nc = icap ? icap * 2 : 8;
        items = arena_grow(coll, items, sizeof(HclBodyItem),
                           _Alignof(HclBodyItem), icap, nc);
        icap = nc;
      }
      items[nitems++] = it;
      continue;
    }
    Tok bad = rd(p);
    if (!p->recovery) {
      if (bad.k == HCL_TOK_OQUOTE) {
        err(p, bad.r, NULL, "Invalid argument name",
            "Argument names must not be quoted.");
      } else if (bad.k == HCL_TOK_EOF) {
        if (end == HCL_TOK_CBRACE)
          err(p, startr, NULL, "Unclosed configuration block",
              "There is no closing brace for this block before the end of "
              "the file. This may be caused by incorrect brace nesting "
              "elsewhere in this file.");
        else
          err(p, startr, NULL, "Unclosed configuration body",
              "Found end of file before the end of this configuration body.");
      } else {
        err(p, bad.r, NULL, "Argument or block definition required",
            "An argument or block definition is required here.");
      }
    }
    endr = prev_range(p);
    if (bad.k != HCL_TOK_EOF)
      recover_to(p, end);
    break;
  }
  b->items = (HclBodyItem *)vcopy(p->a, items, sizeof(HclBodyItem),
                                  _Alignof(HclBodyItem), nitems);
  b->nitems = nitems;
  b->attrs = VFINAL(p, attrs, HclAttribute *);
  b->nattrs = attrs.n;
  b->blocks = VFINAL(p, blocks, HclBlock *);
  b->nblocks = blocks.n;
  b->range = between(startr, endr);
  b->end_range = empty_at(endr.end, p->file);
  return b;
}

static HclBody *parse_body(P *p, HclTokenKind end)
{
  return parse_body_inner(p, end);
}

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
  push_nl(p, true);
}

/* Hands the diagnostics to the caller, the scanner's first (as HCL). */
static void finish_p(P *p, Diags *d, Arena *scratch)
{
  diag_move(d, &p->lexd);
  diag_move(d, p->d);
  arena_release(scratch);
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
  f->body = parse_body(&p, HCL_TOK_EOF);
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
  push_nl(&p, false);
  HclExpr *e = parse_expression(&p);
  Tok next = peek(&p);
  if (next.k != HCL_TOK_EOF && !p.recovery)
    err(&p, next.r, NULL, "Extra characters after expression",
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
  HclExpr *e = template_inner(&p, HCL_TOK_EOF, false, none, false);
  finish_p(&p, d, &scratch);
  return e;
}

HclExpr *hcl_parse_template(Arena *a, const char *file, const char *src,
                            size_t len, Diags *d)
{
  SrcPos start = {1, 1, 0};
  return hcl_parse_template_at(a, file, src, len, start, d);
}
