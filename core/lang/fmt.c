/*
** fmt.c: Terraform's `fmt` as a token rewrite plus hclwrite's format().
**
** Pipeline: lex (comments and newlines kept), apply Terraform's rewrites
** with a light structural walk over the tokens (bodies, attributes, block
** headers), then recompute the spaces before every token in three passes
** (indentation, pair spacing, cell alignment) and print.
*/
#include "fmt.h"

#include <string.h>

#include "hcl.h"

typedef struct Tok {
  uint32_t kind;        /* HclTokenKind */
  const char *p;        /* text (points into the source or a literal) */
  uint32_t len;
  uint32_t sp;          /* spaces printed before the token */
} Tok;

typedef struct TokVec {
  Arena *a;
  Tok *v;
  uint32_t n, cap;
} TokVec;

static void tv_push(TokVec *t, Tok k)
{
  if (t->n == t->cap) {
    uint32_t nc = t->cap ? t->cap * 2 : 256;
    t->v = arena_grow(t->a, t->v, sizeof(Tok), _Alignof(Tok), t->cap, nc);
    t->cap = nc;
  }
  t->v[t->n++] = k;
}

static void tv_lit(TokVec *t, uint32_t kind, const char *s)
{
  Tok k = {kind, s, (uint32_t)strlen(s), 0};
  tv_push(t, k);
}

static bool tok_is(const Tok *t, const char *s)
{
  size_t n = strlen(s);
  return t->len == n && memcmp(t->p, s, n) == 0;
}

static int bracket_change(uint32_t k)
{
  switch (k) {
  case HCL_TOK_OBRACE: case HCL_TOK_OBRACK: case HCL_TOK_OPAREN:
  case HCL_TOK_TEMPLATE_CONTROL: case HCL_TOK_TEMPLATE_INTERP:
    return 1;
  case HCL_TOK_CBRACE: case HCL_TOK_CBRACK: case HCL_TOK_CPAREN:
  case HCL_TOK_TEMPLATE_SEQ_END:
    return -1;
  default:
    return 0;
  }
}

/* ---- Terraform's rewrites ------------------------------------------- */

/* "${ x }" -> x, following Terraform's conservative test: no literal text
** and no other interpolation at the outer quoting level. */
static void rewrite_value(TokVec *o, const Tok *t, uint32_t n)
{
  if (n < 5 || t[0].kind != HCL_TOK_OQUOTE ||
      t[1].kind != HCL_TOK_TEMPLATE_INTERP ||
      t[n - 2].kind != HCL_TOK_TEMPLATE_SEQ_END ||
      t[n - 1].kind != HCL_TOK_CQUOTE)
    goto keep;
  int quotes = 0;
  for (uint32_t i = 2; i < n - 2; i++) {
    uint32_t k = t[i].kind;
    if (k == HCL_TOK_OQUOTE) { quotes++; continue; }
    if (k == HCL_TOK_CQUOTE) { quotes--; continue; }
    if (quotes > 0)
      continue;
    if (k == HCL_TOK_TEMPLATE_INTERP || k == HCL_TOK_TEMPLATE_SEQ_END ||
        k == HCL_TOK_QUOTED_LIT)
      goto keep;
  }
  uint32_t s = 2, e = n - 2;
  while (s < e && t[s].kind == HCL_TOK_NEWLINE)
    s++;
  while (e > s && t[e - 1].kind == HCL_TOK_NEWLINE)
    e--;
  bool multi = false, lead = false, trail = false;
  for (uint32_t i = s; i < e; i++) {
    if (i == s && t[i].kind == HCL_TOK_OPAREN)
      lead = true;
    else if (t[i].kind == HCL_TOK_NEWLINE)
      multi = true;
    else if (i == e - 1 && t[i].kind == HCL_TOK_CPAREN)
      trail = true;
  }
  bool wrap = multi && !(lead && trail);
  if (wrap)
    tv_lit(o, HCL_TOK_OPAREN, "(");
  for (uint32_t i = s; i < e; i++)
    tv_push(o, t[i]);
  if (wrap)
    tv_lit(o, HCL_TOK_CPAREN, ")");
  return;
keep:
  for (uint32_t i = 0; i < n; i++)
    tv_push(o, t[i]);
}

static void push_call(TokVec *o, const char *fn, const char *arg)
{
  tv_lit(o, HCL_TOK_IDENT, fn);
  tv_lit(o, HCL_TOK_OPAREN, "(");
  tv_lit(o, HCL_TOK_IDENT, arg);
  tv_lit(o, HCL_TOK_CPAREN, ")");
}

/* The `type` of a top-level variable block. */
static void rewrite_type(TokVec *o, const Tok *t, uint32_t n)
{
  if (n == 1 && t[0].kind == HCL_TOK_IDENT &&
      (tok_is(&t[0], "list") || tok_is(&t[0], "map") ||
       tok_is(&t[0], "set"))) {
    push_call(o, tok_is(&t[0], "list") ? "list"
                 : tok_is(&t[0], "map") ? "map" : "set", "any");
    return;
  }
  if (n == 3 && t[0].kind == HCL_TOK_OQUOTE &&
      t[1].kind == HCL_TOK_QUOTED_LIT && t[2].kind == HCL_TOK_CQUOTE) {
    if (tok_is(&t[1], "string")) {
      tv_lit(o, HCL_TOK_IDENT, "string");
      return;
    }
    if (tok_is(&t[1], "list") || tok_is(&t[1], "map")) {
      push_call(o, tok_is(&t[1], "list") ? "list" : "map", "string");
      return;
    }
  }
  for (uint32_t i = 0; i < n; i++)
    tv_push(o, t[i]);
}

typedef struct Walk {
  const Tok *t;
  uint32_t n;
  TokVec *o;
} Walk;

/* End of an attribute's expression starting at i: the first newline,
** comment, end of input or unmatched `}` outside brackets. */
static uint32_t expr_end(const Walk *w, uint32_t i)
{
  int depth = 0;
  for (; i < w->n; i++) {
    uint32_t k = w->t[i].kind;
    if (k == HCL_TOK_EOF)
      break;
    if (depth == 0 && (k == HCL_TOK_NEWLINE || k == HCL_TOK_COMMENT ||
                       k == HCL_TOK_CBRACE || k == HCL_TOK_CBRACK ||
                       k == HCL_TOK_CPAREN))
      break;
    depth += bracket_change(k);
  }
  return i;
}

/* Copies a body (top level when depth == 0) starting at i, rewriting its
** items; returns the index after the body's closing brace.  Iterative
** over items, recursive over nested blocks: nesting depth is bounded by
** the lexer's input, and the parser (run first by the command) caps it at
** HCL_MAX_DEPTH. */
static uint32_t walk_body(Walk *w, uint32_t i, int depth, bool in_variable)
{
  const Tok *t = w->t;
  while (i < w->n) {
    uint32_t k = t[i].kind;
    if (k == HCL_TOK_EOF)
      return i;
    if (k == HCL_TOK_CBRACE && depth > 0) {
      tv_push(w->o, t[i]);
      return i + 1;
    }
    if (k != HCL_TOK_IDENT) {
      tv_push(w->o, t[i]);
      i++;
      continue;
    }
    const Tok *name = &t[i];
    uint32_t j = i + 1;
    if (j < w->n && t[j].kind == HCL_TOK_EQUAL) {
      tv_push(w->o, t[i]);
      tv_push(w->o, t[j]);
      uint32_t s = j + 1, e = expr_end(w, s);
      if (depth == 1 && in_variable && tok_is(name, "type"))
        rewrite_type(w->o, t + s, e - s);
      else
        rewrite_value(w->o, t + s, e - s);
      i = e;
      continue;
    }
    /* A block header: labels until `{`. */
    tv_push(w->o, t[i]);
    for (;;) {
      if (j >= w->n)
        return j;
      k = t[j].kind;
      if (k == HCL_TOK_IDENT) {
        tv_lit(w->o, HCL_TOK_OQUOTE, "\"");
        Tok q = t[j];
        q.kind = HCL_TOK_QUOTED_LIT;
        tv_push(w->o, q);
        tv_lit(w->o, HCL_TOK_CQUOTE, "\"");
        j++;
      } else if (k == HCL_TOK_OQUOTE) {
        while (j < w->n && t[j].kind != HCL_TOK_CQUOTE &&
               t[j].kind != HCL_TOK_EOF && t[j].kind != HCL_TOK_NEWLINE)
          tv_push(w->o, t[j++]);
        if (j < w->n && t[j].kind == HCL_TOK_CQUOTE)
          tv_push(w->o, t[j++]);
      } else if (k == HCL_TOK_COMMENT && t[j].len > 0 &&
                 t[j].p[t[j].len - 1] != '\n') {
        j++; /* inline comments between labels are dropped */
      } else {
        break;
      }
    }
    if (t[j].kind == HCL_TOK_OBRACE) {
      tv_push(w->o, t[j]);
      i = walk_body(w, j + 1, depth + 1,
                    depth == 0 && tok_is(name, "variable"));
    } else {
      i = j; /* not a block after all: copy on */
    }
  }
  return i;
}

/* ---- hclwrite's format() -------------------------------------------- */

typedef struct Line {
  uint32_t s, as, cs, e;   /* lead [s,as), assign [as,cs), comment [cs,e) */
} Line;

static bool is_newline(const Tok *t)
{
  return t->kind == HCL_TOK_NEWLINE ||
         (t->kind == HCL_TOK_COMMENT && t->len > 0 &&
          t->p[t->len - 1] == '\n');
}

/* Grapheme clusters, approximated: code points that are not combining
** marks, variation selectors or skin tones, nor joined by a ZWJ; CR LF
** counts once. */
static uint32_t clusters(const Tok *t)
{
  uint32_t c = 0;
  bool joined = false;
  const unsigned char *p = (const unsigned char *)t->p;
  for (uint32_t i = 0; i < t->len;) {
    unsigned b = p[i];
    uint32_t cp = b, n = 1;
    if (b >= 0xF0 && i + 3 < t->len) {
      cp = ((b & 7u) << 18) | ((p[i + 1] & 63u) << 12) |
           ((p[i + 2] & 63u) << 6) | (p[i + 3] & 63u);
      n = 4;
    } else if (b >= 0xE0 && i + 2 < t->len) {
      cp = ((b & 15u) << 12) | ((p[i + 1] & 63u) << 6) | (p[i + 2] & 63u);
      n = 3;
    } else if (b >= 0xC0 && i + 1 < t->len) {
      cp = ((b & 31u) << 6) | (p[i + 1] & 63u);
      n = 2;
    }
    bool extend = (cp >= 0x300 && cp <= 0x36F) || cp == 0x200D ||
                  (cp >= 0xFE00 && cp <= 0xFE0F) ||
                  (cp >= 0x1F3FB && cp <= 0x1F3FF) ||
                  (cp >= 0xE0100 && cp <= 0xE01EF) ||
                  (cp == '\n' && i > 0 && p[i - 1] == '\r');
    if (!extend && !joined)
      c++;
    joined = cp == 0x200D;
    i += n;
  }
  return c;
}

static uint32_t columns(const Tok *t, uint32_t s, uint32_t e)
{
  uint32_t c = 0;
  for (uint32_t i = s; i < e; i++)
    c += t[i].sp + clusters(&t[i]);
  return c;
}

static bool space_after(const Tok *subj, const Tok *before, const Tok *after)
{
  uint32_t s = subj->kind, a = after->kind, b = before ? before->kind : 0;
  bool have_before = before != NULL;
  if (a == HCL_TOK_NEWLINE || a == HCL_TOK_EOF)
    return false;
  if (s == HCL_TOK_IDENT && a == HCL_TOK_OPAREN)
    return false;
  if (s == HCL_TOK_DOUBLE_COLON || a == HCL_TOK_DOUBLE_COLON)
    return false;
  if (s == HCL_TOK_DOT || a == HCL_TOK_DOT)
    return false;
  if (a == HCL_TOK_COMMA || a == HCL_TOK_ELLIPSIS)
    return false;
  if (s == HCL_TOK_COMMA)
    return true;
  if (s == HCL_TOK_QUOTED_LIT || s == HCL_TOK_STRING_LIT ||
      s == HCL_TOK_OQUOTE || s == HCL_TOK_OHEREDOC ||
      a == HCL_TOK_QUOTED_LIT || a == HCL_TOK_STRING_LIT ||
      a == HCL_TOK_CQUOTE || a == HCL_TOK_CHEREDOC)
    return false;
  if (s == HCL_TOK_IDENT && tok_is(subj, "in") && have_before &&
      b == HCL_TOK_IDENT)
    return true;
  if (a == HCL_TOK_OBRACK &&
      (s == HCL_TOK_IDENT || s == HCL_TOK_NUMBER_LIT || bracket_change(s) < 0))
    return false;
  if (s == HCL_TOK_BANG)
    return false;
  if (s == HCL_TOK_MINUS) {
    if (!have_before)
      return false;
    switch (b) {
    case HCL_TOK_OPAREN: case HCL_TOK_OBRACE: case HCL_TOK_OBRACK:
    case HCL_TOK_EQUAL: case HCL_TOK_COLON: case HCL_TOK_COMMA:
    case HCL_TOK_QUESTION:
    case HCL_TOK_PLUS: case HCL_TOK_STAR: case HCL_TOK_SLASH:
    case HCL_TOK_PERCENT: case HCL_TOK_MINUS:
    case HCL_TOK_EQUAL_OP: case HCL_TOK_NOT_EQUAL: case HCL_TOK_GREATER_THAN:
    case HCL_TOK_GREATER_THAN_EQ: case HCL_TOK_LESS_THAN:
    case HCL_TOK_LESS_THAN_EQ:
    case HCL_TOK_AND: case HCL_TOK_OR: case HCL_TOK_BANG:
      return false;
    default:
      return true;
    }
  }
  if (s == HCL_TOK_OBRACE || a == HCL_TOK_CBRACE)
    return !(s == HCL_TOK_OBRACE && a == HCL_TOK_CBRACE);
  if ((s == HCL_TOK_TEMPLATE_INTERP || s == HCL_TOK_TEMPLATE_CONTROL) &&
      a == HCL_TOK_OBRACE)
    return true;
  if (s == HCL_TOK_CBRACE && a == HCL_TOK_TEMPLATE_SEQ_END)
    return true;
  if (s == HCL_TOK_TEMPLATE_SEQ_END &&
      (a == HCL_TOK_TEMPLATE_INTERP || a == HCL_TOK_TEMPLATE_CONTROL))
    return false;
  if (bracket_change(s) > 0)
    return false;
  if (bracket_change(a) < 0)
    return false;
  return true;
}

static void space_cell(Tok *t, uint32_t s, uint32_t e)
{
  for (uint32_t i = s; i + 1 < e; i++)
    t[i + 1].sp = space_after(&t[i], i > s ? &t[i - 1] : NULL, &t[i + 1]) ? 1
                                                                       : 0;
}

static void format_tokens(Arena *a, Tok *t, uint32_t n)
{
  /* n excludes EOF.  Lines first. */
  uint32_t nlines = 1;
  for (uint32_t i = 0; i < n; i++)
    nlines += is_newline(&t[i]);
  Line *ln = ARENA_NEW(a, Line, nlines);
  uint32_t li = 0, start = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (is_newline(&t[i])) {
      ln[li].s = start;
      ln[li].e = i + 1;
      li++;
      start = i + 1;
    }
  }
  ln[li].s = start;
  ln[li].e = n;
  nlines = li + 1;
  for (uint32_t l = 0; l < nlines; l++) {
    Line *L = &ln[l];
    L->cs = L->as = L->e;
    if (L->e - L->s > 1 && t[L->e - 1].kind == HCL_TOK_COMMENT)
      L->cs = L->as = L->e - 1;
    for (uint32_t i = L->s + 1; i < L->as; i++) {
      if (t[i].kind == HCL_TOK_EQUAL) {
        int net = 0;
        for (uint32_t j = i; j < L->as; j++)
          net += bracket_change(t[j].kind);
        if (net == 0)
          L->as = i;
        break;
      }
    }
  }

  /* Pass 1: indentation. */
  uint32_t cap = 16, depth = 0;
  int *stack = ARENA_NEW(a, int, cap);
  for (uint32_t l = 0; l < nlines; l++) {
    Line *L = &ln[l];
    if (L->as == L->s)
      continue;
    if (t[L->s].kind == HCL_TOK_NEWLINE) {
      t[L->s].sp = 0;
      continue;
    }
    int net = 0;
    for (uint32_t i = L->s; i < L->as; i++) {
      net += bracket_change(t[i].kind);
      if (t[i].kind == HCL_TOK_OHEREDOC)
        break;
    }
    for (uint32_t i = L->as; i < L->cs; i++)
      net += bracket_change(t[i].kind);
    if (net > 0) {
      t[L->s].sp = 2 * depth;
      if (depth == cap) {
        stack = arena_grow(a, stack, sizeof(int), _Alignof(int), cap,
                           cap * 2);
        cap *= 2;
      }
      stack[depth++] = net;
    } else {
      int closed = -net;
      while (closed > 0 && depth > 0) {
        if (closed > stack[depth - 1]) {
          closed -= stack[--depth];
        } else if (closed < stack[depth - 1]) {
          stack[depth - 1] -= closed;
          closed = 0;
        } else {
          depth--;
          closed = 0;
        }
      }
      t[L->s].sp = 2 * depth;
    }
  }

  /* Pass 2: spaces inside cells. */
  for (uint32_t l = 0; l < nlines; l++) {
    Line *L = &ln[l];
    space_cell(t, L->s, L->as);
    if (L->as < L->cs) {
      t[L->as].sp = 1;
      space_cell(t, L->as, L->cs);
    }
  }

  /* Pass 3: align `=` of consecutive assignment lines, then comments. */
  for (uint32_t l = 0; l < nlines;) {
    if (ln[l].as == ln[l].cs) {
      l++;
      continue;
    }
    uint32_t m = l, maxc = 0;
    for (; m < nlines && ln[m].as < ln[m].cs; m++) {
      uint32_t c = columns(t, ln[m].s, ln[m].as);
      if (c > maxc)
        maxc = c;
    }
    for (; l < m; l++)
      t[ln[l].as].sp = maxc - columns(t, ln[l].s, ln[l].as) + 1;
  }
  for (uint32_t l = 0; l < nlines;) {
    if (ln[l].cs == ln[l].e) {
      l++;
      continue;
    }
    uint32_t m = l, maxc = 0;
    for (; m < nlines && ln[m].cs < ln[m].e; m++) {
      uint32_t c = columns(t, ln[m].s, ln[m].cs);
      if (c > maxc)
        maxc = c;
    }
    for (; l < m; l++)
      t[ln[l].cs].sp = maxc - columns(t, ln[l].s, ln[l].cs) + 1;
  }
}

bool fmt_source(Arena *a, const char *file, const char *src, size_t len,
                Buf *out, Diags *d)
{
  HclToken *raw;
  uint32_t nraw;
  int errs = d->errors;
  hcl_lex(a, file, src, len, &raw, &nraw, d);
  if (d->errors > errs)
    return false;
  TokVec in = {a, NULL, 0, 0};
  uint32_t last = 0;
  for (uint32_t i = 0; i < nraw; i++) {
    Tok k = {raw[i].kind, src + raw[i].start.byte,
             raw[i].end.byte - raw[i].start.byte,
             raw[i].start.byte >= last ? raw[i].start.byte - last : 0};
    last = raw[i].end.byte;
    tv_push(&in, k);
  }
  if (in.n == 0 || in.v[in.n - 1].kind != HCL_TOK_EOF) {
    Tok eof = {HCL_TOK_EOF, src + len, 0, 0};
    tv_push(&in, eof);
  }
  TokVec o = {a, NULL, 0, 0};
  Walk w = {in.v, in.n, &o};
  uint32_t i = walk_body(&w, 0, 0, false);
  for (; i < in.n; i++)
    tv_push(&o, in.v[i]); /* anything after a stray `}` and the EOF */
  uint32_t n = o.n;
  while (n > 0 && o.v[n - 1].kind == HCL_TOK_EOF)
    n--;
  format_tokens(a, o.v, n);
  for (uint32_t k = 0; k < o.n; k++) {
    for (uint32_t s = 0; s < o.v[k].sp; s++)
      buf_putc(out, ' ');
    buf_put(out, o.v[k].p, o.v[k].len);
  }
  return true;
}

/* ---- Unified diff ------------------------------------------------------- */

/* `terraform fmt -diff` runs `diff -u` with the labels old/PATH and
** new/PATH; this is the same output from Myers' O((N+M)D) greedy
** algorithm on lines, after trimming the common prefix and suffix.  The
** trace of the search is O(D^2), so D and the total work are bounded:
** past them the changed middle is written as one deletion of every old
** line followed by one insertion of every new one (still a valid patch,
** just not minimal). */
#define DIFF_MAX_D 2000
#define DIFF_MAX_WORK 40000000u
#define DIFF_CONTEXT 3

typedef struct DLine {
  const char *p;
  uint32_t n;          /* bytes, with the newline when there is one */
  uint32_t h;          /* hash, to skip most memcmp calls */
} DLine;

static DLine *dsplit_lines(Arena *a, const char *s, size_t len, uint32_t *n)
{
  uint32_t cnt = 0;
  for (size_t i = 0; i < len; i++)
    cnt += s[i] == '\n';
  DLine *l = ARENA_NEW(a, DLine, (size_t)cnt + 1);
  uint32_t k = 0;
  size_t st = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i == len ? i > st : s[i] == '\n') {
      size_t e = i == len ? len : i + 1;
      uint32_t h = 2166136261u;
      for (size_t j = st; j < e; j++)
        h = (h ^ (unsigned char)s[j]) * 16777619u;
      l[k].p = s + st;
      l[k].n = (uint32_t)(e - st);
      l[k].h = h;
      k++;
      st = e;
    }
  }
  *n = k;
  return l;
}

static bool line_eq(const DLine *x, const DLine *y)
{
  return x->h == y->h && x->n == y->n && memcmp(x->p, y->p, x->n) == 0;
}

/* Marks del[i] / ins[j] for a shortest edit script of x[0..n) -> y[0..m).
** Returns false (marking everything) when the bounds are exceeded. */
static bool myers(Arena *a, const DLine *x, uint32_t n, const DLine *y,
                  uint32_t m, uint8_t *del, uint8_t *ins)
{
  uint64_t maxd64 = (uint64_t)n + m;
  int32_t maxd = maxd64 < DIFF_MAX_D ? (int32_t)maxd64 : DIFF_MAX_D;
  ArenaMark mk = arena_mark(a);
  /* v[k + off]: furthest x on diagonal k; trace[d] is v after step d */
  int32_t off = maxd + 1;
  int32_t *v = ARENA_NEW(a, int32_t, (size_t)2 * (size_t)off + 1);
  int32_t **trace = ARENA_NEW(a, int32_t *, (size_t)maxd + 1);
  uint64_t work = 0;
  int32_t found = -1;
  for (int32_t d = 0; d <= maxd && found < 0; d++) {
    for (int32_t k = -d; k <= d; k += 2) {
      int32_t xi;
      if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
        xi = v[off + k + 1];
      else
        xi = v[off + k - 1] + 1;
      int32_t yi = xi - k;
      while (xi < (int32_t)n && yi < (int32_t)m && line_eq(&x[xi], &y[yi])) {
        xi++;
        yi++;
        work++;
      }
      v[off + k] = xi;
      work++;
      if (xi >= (int32_t)n && yi >= (int32_t)m) {
        found = d;
        break;
      }
    }
    trace[d] = ARENA_NEW(a, int32_t, (size_t)2 * (size_t)d + 1);
    memcpy(trace[d], v + off - d, sizeof(int32_t) * (size_t)(2 * d + 1));
    if (work > DIFF_MAX_WORK)
      break;
  }
  if (found < 0) {
    memset(del, 1, n);
    memset(ins, 1, m);
    arena_rewind(a, mk);
    return false;
  }
  int32_t xi = (int32_t)n, yi = (int32_t)m;
  for (int32_t d = found; d > 0; d--) {
    const int32_t *pv = trace[d - 1];   /* indices -(d-1) .. d-1 */
    int32_t k = xi - yi;
#define PV(kk) pv[(kk) + d - 1]
    int32_t pk = (k == -d || (k != d && PV(k - 1) < PV(k + 1))) ? k + 1
                                                                 : k - 1;
    int32_t px = PV(pk), py = px - pk;
#undef PV
    while (xi > px && yi > py) {   /* the snake back to (px, py) */
      xi--;
      yi--;
    }
    if (pk == k + 1)
      ins[yi - 1] = 1;
    else
      del[xi - 1] = 1;
    xi = px;
    yi = py;
  }
  arena_rewind(a, mk);
  return true;
}

typedef struct Op {
  char kind;           /* ' ', '-', '+' */
  uint32_t i, j;       /* line in x (' ', '-'), line in y (' ', '+') */
} Op;

static void dput_line(Buf *b, char c, const DLine *l)
{
  buf_putc(b, c);
  buf_put(b, l->p, l->n);
  if (l->n == 0 || l->p[l->n - 1] != '\n')
    buf_puts(b, "\n\\ No newline at end of file\n");
}

/* GNU diff's range: "start,count", "start" for one line, and for an
** empty range the line before it with count 0. */
static void put_range(Buf *b, uint32_t start, uint32_t count)
{
  if (count == 1)
    buf_printf(b, "%u", start + 1);
  else if (count == 0)
    buf_printf(b, "%u,0", start);
  else
    buf_printf(b, "%u,%u", start + 1, count);
}

bool fmt_unified_diff(Arena *a, Buf *out, const char *old_label,
                      const char *new_label, const char *x, size_t xn,
                      const char *y, size_t yn)
{
  /* scratch of our own: out may grow in a meanwhile */
  (void)a;
  Arena scratch;
  arena_init(&scratch, 0);
  a = &scratch;
  uint32_t n, m;
  DLine *lx = dsplit_lines(a, x, xn, &n);
  DLine *ly = dsplit_lines(a, y, yn, &m);
  uint32_t pre = 0;
  while (pre < n && pre < m && line_eq(&lx[pre], &ly[pre]))
    pre++;
  uint32_t suf = 0;
  while (suf < n - pre && suf < m - pre &&
         line_eq(&lx[n - 1 - suf], &ly[m - 1 - suf]))
    suf++;
  uint8_t *del = ARENA_NEW(a, uint8_t, (size_t)n + 1);
  uint8_t *ins = ARENA_NEW(a, uint8_t, (size_t)m + 1);
  bool exact = myers(a, lx + pre, n - pre - suf, ly + pre, m - pre - suf,
                     del + pre, ins + pre);
  /* the script: deletions before insertions inside each change */
  Op *ops = ARENA_NEW(a, Op, (size_t)n + m + 1);
  uint32_t nops = 0, i = 0, j = 0;
  bool changed = false;
  while (i < n || j < m) {
    if (i < n && del[i]) {
      ops[nops++] = (Op){'-', i++, j};
      changed = true;
    } else if (j < m && ins[j]) {
      ops[nops++] = (Op){'+', i, j++};
      changed = true;
    } else {
      ops[nops++] = (Op){' ', i++, j++};
    }
  }
  if (!changed) {
    arena_release(&scratch);
    return true;
  }
  buf_printf(out, "--- %s\n+++ %s\n", old_label, new_label);
  uint32_t k = 0;
  while (k < nops) {
    while (k < nops && ops[k].kind == ' ')
      k++;
    if (k == nops)
      break;
    uint32_t s = k >= DIFF_CONTEXT ? k - DIFF_CONTEXT : 0;
    /* hunks end after a run of more than twice the context */
    uint32_t last = k, e = k;
    for (e = k; e < nops; e++) {
      if (ops[e].kind != ' ')
        last = e;
      else if (e - last > 2 * DIFF_CONTEXT)
        break;
    }
    e = last + 1 + DIFF_CONTEXT < nops ? last + 1 + DIFF_CONTEXT : nops;
    uint32_t ca = 0, cb = 0;
    for (uint32_t q = s; q < e; q++) {
      ca += ops[q].kind != '+';
      cb += ops[q].kind != '-';
    }
    buf_puts(out, "@@ -");
    put_range(out, ops[s].i, ca);
    buf_puts(out, " +");
    put_range(out, ops[s].j, cb);
    buf_puts(out, " @@\n");
    for (uint32_t q = s; q < e; q++)
      dput_line(out, ops[q].kind,
               ops[q].kind == '+' ? &ly[ops[q].j] : &lx[ops[q].i]);
    k = e;
  }
  arena_release(&scratch);
  return exact;
}
