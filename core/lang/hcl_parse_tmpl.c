/*
** hcl_parse_tmpl: string literals and templates (hclsyntax's
** ParseStringLiteralToken and parser_template.go): escapes, quoted
** strings, heredocs with their indentation, interpolations and the
** if/for directives, with the Go parser's diagnostics.
*/
#include "hcl_parse_priv.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

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
        SrcRange r = {0};
        i += 2;
        while (k < want && i < n && hexval(s[i]) >= 0) {
          cp = cp * 16 + (uint32_t)hexval(s[i]);
          i++;
          k++;
        }
        /* The range only for an error: pos_after scans the token from its
        ** start, and doing that per escape made a long string of \u
        ** escapes quadratic. */
        if (k != want || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          r = (SrcRange){p->file, pos_after(t.r.start, s, st),
                         pos_after(t.r.start, s, i)};
        }
        if (k != want) {
          hcl_err(p, r, NULL, "Invalid escape sequence",
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
        buf_put_utf8(b, cp);
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
const char *hcl_p_quoted_string(P *p, SrcRange *range)
{
  Tok open = hcl_rd(p);
  if (open.k != HCL_TOK_OQUOTE) {
    hcl_err(p, open.r, NULL, "Invalid string literal",
            "A quoted string is required here.");
    *range = open.r;
    return "";
  }
  Buf b;
  buf_init(&b, p->s);
  SrcRange endr;
  for (;;) {
    Tok t = hcl_rd(p);
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
      SrcRange c = hcl_between(open.r, t.r);
      diag_set_context(p->d, g, &c);
      buf_puts(&b, w);
      buf_puts(&b, "{ ... }");
      hcl_recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
      continue;
    }
    SrcRange c = hcl_between(open.r, t.r);
    if (t.k == HCL_TOK_EOF) {
      hcl_err(p, t.r, &c, "Unterminated string literal",
              "Unable to find the closing quote mark before the end of the "
              "file.");
      endr = t.r;
      break;
    }
    hcl_err(p, t.r, &c, "Invalid string literal",
            "This item is not valid in a string literal.");
    hcl_recover_to(p, HCL_TOK_CQUOTE);
    endr = t.r;
    break;
  }
  *range = hcl_between(open.r, endr);
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
  SrcRange start = hcl_next_range(p), endr;
  bool ltrim_next = false, next_can_trim_prev = false;
  for (;;) {
    Tok next = hcl_rd(p);
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
      hcl_push_nl(p, false);
      HclExpr *e = hcl_p_expression(p);
      Tok close = hcl_peek(p);
      if (close.k != HCL_TOK_TEMPLATE_SEQ_END) {
        if (!p->recovery) {
          SrcRange c = hcl_between(start, close.r);
          if (close.k == HCL_TOK_EOF) {
            hcl_err(p, start, NULL, "Unclosed template interpolation sequence",
                    "There is no closing brace for this interpolation sequence "
                    "before the end of the file. This might be caused by "
                    "incorrect nesting inside the given expression.");
          } else if (close.k == HCL_TOK_COLON) {
            hcl_err(p, close.r, &c,
                    "Extra characters after interpolation expression",
                    "Template interpolation doesn't expect a colon at this "
                    "location. Did you intend this to be a literal sequence to "
                    "be processed as part of another language? If so, you can "
                    "escape it by starting with \"$${\" instead of just "
                    "\"${\".");
          } else if ((close.k == HCL_TOK_CQUOTE ||
                      close.k == HCL_TOK_OQUOTE) &&
                     end == HCL_TOK_CQUOTE) {
            hcl_err(p, start, NULL, "Unclosed template interpolation sequence",
                    "There is no closing brace for this interpolation sequence "
                    "before the end of the quoted template. This might be "
                    "caused by incorrect nesting inside the given expression.");
          } else {
            hcl_err(p, close.r, &c,
                    "Extra characters after interpolation expression",
                    "Expected a closing brace to end the interpolation "
                    "expression, but found extra characters.\n\nThis can "
                    "happen when you include interpolation syntax for another "
                    "language, such as shell scripting, but forget to escape "
                    "the interpolation start token. If this is an embedded "
                    "sequence for another language, escape it by starting with "
                    "\"$${\" instead of just \"${\".");
          }
        }
        hcl_recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
      } else {
        hcl_rd(p);
        if (close.len == 2 && close.s[0] == '~')
          ltrim_next = true;
      }
      hcl_pop_nl(p);
      TT *t = tt_push(p, v, TT_INTERP, hcl_between(next.r, close.r));
      t->expr = e;
      break;
    }
    case HCL_TOK_TEMPLATE_CONTROL: {
      if (can_trim_prev && next.len == 3 && next.s[2] == '~' && v->n > 0 &&
          v->p[v->n - 1].k == TT_LIT)
        rtrim(&v->p[v->n - 1]);
      hcl_push_nl(p, false);
      Tok kw = hcl_peek(p);
      if (kw.k != HCL_TOK_IDENT) {
        if (!p->recovery) {
          SrcRange c = hcl_between(next.r, kw.r);
          hcl_err(p, kw.r, &c, "Invalid template directive",
                  "A template directive keyword (\"if\", \"for\", etc) is "
                  "expected at the beginning of a %{ sequence.");
        }
        hcl_recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
        hcl_pop_nl(p);
        continue;
      }
      hcl_rd(p);
      if (hcl_tok_is(kw, "if")) {
        HclExpr *c = hcl_p_expression(p);
        TT *t = tt_push(p, v, TT_IF, hcl_between(next.r, hcl_next_range(p)));
        t->expr = c;
      } else if (hcl_tok_is(kw, "else")) {
        tt_push(p, v, TT_ELSE, hcl_between(next.r, hcl_next_range(p)));
      } else if (hcl_tok_is(kw, "endif")) {
        tt_push(p, v, TT_ENDIF, hcl_between(next.r, hcl_next_range(p)));
      } else if (hcl_tok_is(kw, "endfor")) {
        tt_push(p, v, TT_ENDFOR, hcl_between(next.r, hcl_next_range(p)));
      } else if (hcl_tok_is(kw, "for")) {
        const char *kn = NULL, *vn;
        const char *problem = NULL;
        if (hcl_peek(p).k != HCL_TOK_IDENT) {
          problem = "For directive requires variable name after 'for'.";
        } else {
          vn = hcl_tok_str(p, hcl_rd(p));
          if (hcl_peek(p).k == HCL_TOK_COMMA) {
            kn = vn;
            hcl_rd(p);
            if (hcl_peek(p).k != HCL_TOK_IDENT)
              problem = "For directive requires value variable name after "
                            "comma.";
            else
              vn = hcl_tok_str(p, hcl_rd(p));
          }
          if (!problem && !hcl_tok_is(hcl_peek(p), "in"))
            problem = "For directive requires 'in' keyword after names.";
        }
        if (problem) {
          if (!p->recovery)
            hcl_err(p, hcl_next_range(p), NULL, "Invalid 'for' directive",
                    problem);
          hcl_recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
          hcl_pop_nl(p);
          continue;
        }
        hcl_rd(p);
        HclExpr *coll = hcl_p_expression(p);
        TT *t = tt_push(p, v, TT_FOR, hcl_between(next.r, hcl_next_range(p)));
        t->expr = coll;
        t->key_var = kn;
        t->val_var = vn;
      } else {
        if (!p->recovery) {
          static const char *const kws[] = {"if", "for", "else", "endif",
                                            "endfor"};
          const char *given = hcl_tok_str(p, kw);
          const char *sug = hcl_name_suggestion(given, kws, 5);
          SrcRange c = hcl_between(next.r, kw.r);
          Diag *g = diag_error(
              p->d, &kw.r, "Invalid template control keyword",
              "\"%s\" is not a valid template control keyword.%s%s%s", given,
              sug ? " Did you mean \"" : "", sug ? sug : "", sug ? "\"?" : "");
          diag_set_context(p->d, g, &c);
        }
        hcl_recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
        hcl_pop_nl(p);
        continue;
      }
      Tok close = hcl_peek(p);
      if (close.k != HCL_TOK_TEMPLATE_SEQ_END) {
        if (!p->recovery) {
          SrcRange c = hcl_between(start, close.r);
          Diag *g = diag_error(p->d, &close.r, "", "%s",
                               "Expected a closing brace to end the "
                               "sequence, but found extra characters.");
          g->summary = arena_printf(p->d->arena, "Extra characters in %.*s "
                                    "marker", (int)kw.len, kw.s);
          diag_set_context(p->d, g, &c);
        }
        hcl_recover_to(p, HCL_TOK_TEMPLATE_SEQ_END);
      } else {
        hcl_rd(p);
        if (close.len == 2 && close.s[0] == '~')
          ltrim_next = true;
      }
      hcl_pop_nl(p);
      break;
    }
    default:
      if (!p->recovery) {
        SrcRange c = hcl_between(start, next.r);
        hcl_err(p, next.r, &c, "Unterminated template string",
                "No closing marker was found for the string.");
      }
      endr = hcl_recover_to(p, end).r;
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
  *all = hcl_between(start, endr);
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
  HclExpr *e = hcl_new_expr(p, HCL_E_TEMPLATE, r);
  e->u.tmpl.parts = HCL_VFINAL(p, *parts, HclExpr *);
  e->u.tmpl.n = parts->n;
  return e;
}

SrcRange hcl_empty_at(SrcPos pos, const char *file)
{
  SrcRange r = {file, pos, pos};
  return r;
}

static HclExpr *str_lit(P *p, const char *s, size_t n, SrcRange r)
{
  return hcl_lit(p, val_str_ref(s, n), r);
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
                 "directive.", hcl_range_str(p, open->r));
      return hcl_placeholder(p, t->r);
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
                   hcl_range_str(p, open->r));
      } else if (t->k == TT_ENDIF) {
        endif_r = t->r;
        break;
      } else {
        diag_error(p->d, &t->r, "Unexpected endfor directive",
                   "Expecting an endif directive for the if started at %s.",
                   hcl_range_str(p, open->r));
      }
      return hcl_placeholder(p, t->r);
    }
    hcl_vpush(p->s, cur, tt_expr(p, v));
  }
  if (ifs.n == 0)
    hcl_vpush(p->s, &ifs,
              str_lit(p, "", 0, hcl_empty_at(open->r.end, p->file)));
  if (elses.n == 0)
    hcl_vpush(p->s, &elses,
              str_lit(p, "", 0, hcl_empty_at(endif_r.start, p->file)));
  HclExpr *te = make_template(
      p, &ifs, hcl_between(((HclExpr *)ifs.p[0])->range,
                           ((HclExpr *)ifs.p[ifs.n - 1])->range));
  HclExpr *fe = make_template(
      p, &elses, hcl_between(((HclExpr *)elses.p[0])->range,
                             ((HclExpr *)elses.p[elses.n - 1])->range));
  HclExpr *c = hcl_new_expr(p, HCL_E_COND, hcl_between(open->r, endif_r));
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
                 "endfor directive.", hcl_range_str(p, open->r));
      return hcl_placeholder(p, t->r);
    }
    if (t->k == TT_ELSE || t->k == TT_ENDIF || t->k == TT_ENDFOR) {
      v->pos++;
      if (t->k == TT_ENDFOR) {
        endfor_r = t->r;
        break;
      }
      if (t->k == TT_ELSE)
        hcl_err(p, t->r, NULL, "Unexpected else directive",
                "An else clause is not expected for a for directive.");
      else
        diag_error(p->d, &t->r, "Unexpected endif directive",
                   "Expecting an endfor directive corresponding to the for "
                   "directive at %s.", hcl_range_str(p, open->r));
      return hcl_placeholder(p, t->r);
    }
    hcl_vpush(p->s, &body, tt_expr(p, v));
  }
  if (body.n == 0)
    hcl_vpush(p->s, &body,
              str_lit(p, "", 0, hcl_empty_at(open->r.end, p->file)));
  HclExpr *content = make_template(
      p, &body, hcl_between(((HclExpr *)body.p[0])->range,
                            ((HclExpr *)body.p[body.n - 1])->range));
  HclExpr *f = hcl_new_expr(p, HCL_E_FOR, hcl_between(open->r, endfor_r));
  f->u.forx.key_var = open->key_var;
  f->u.forx.val_var = open->val_var;
  f->u.forx.coll = open->expr;
  f->u.forx.val = content;
  f->u.forx.open_range = open->r;
  HclExpr *j = hcl_new_expr(p, HCL_E_TEMPLATE_JOIN, f->range);
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
    hcl_err(p, t->r, NULL, "Unexpected end of template",
            "The control directives within this template are unbalanced.");
    return hcl_placeholder(p, t->r);
  default: {
    v->pos++;
    const char *nm = t->k == TT_ELSE ? "else"
                     : t->k == TT_ENDIF ? "endif" : "endfor";
    Diag *g = hcl_err(p, t->r, NULL, "", "The control directives within this "
                      "template are unbalanced.");
    g->summary = arena_printf(p->d->arena, "Unexpected %s directive", nm);
    return hcl_placeholder(p, t->r);
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
HclExpr *hcl_p_template_inner(P *p, HclTokenKind end, bool flush,
                              SrcRange outer, bool use_outer)
{
  TTVec v = {0};
  SrcRange r;
  template_parts(p, end, &v, &r);
  if (flush)
    flush_heredoc(p, &v);
  bool passthru = v.n == 2 && v.p[0].k == TT_INTERP;
  if (use_outer)
    r = hcl_between(outer, hcl_prev_range(p));
  if (passthru) {
    HclExpr *w = hcl_new_expr(p, HCL_E_TEMPLATE_WRAP, r);
    w->u.wrap = v.p[0].expr;
    return w;
  }
  merge_lits(p, &v);
  Vec parts = {0};
  while (v.p[v.pos].k != TT_END)
    hcl_vpush(p->s, &parts, tt_expr(p, &v));
  return make_template(p, &parts, r);
}
