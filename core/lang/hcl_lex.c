/*
** hcl_lex: the HCL native-syntax scanner (hclsyntax's scan_tokens.rl,
** hand-written).  One pass over the input with an explicit stack of modes
** (expression, quoted template, heredoc, bare template), so nesting depth
** costs heap, never C stack.  Tokens point into the source by offset.
** Lexical errors are reported afterwards from the token stream with
** hclsyntax's checkInvalidTokens wording and rate limits.
*/
#include "hcl.h"
#include "hcl_lex.h"

#include <string.h>

typedef enum Mode { M_MAIN, M_STRING, M_HEREDOC, M_BARE } Mode;

typedef struct Frame {
  Mode mode;
  uint32_t ret_brace;      /* M_MAIN: brace level that ends the interp */
  uint32_t marker;         /* M_HEREDOC: marker offset and length */
  uint32_t marker_len;
  bool start_of_line;      /* M_HEREDOC: next literal starts a line */
} Frame;

typedef struct HclLexer {
  Arena *a;
  const char *file;
  Diags *d;
  uint32_t base;           /* byte offset of s[0] */
  bool eof_done;
  bool streaming;          /* toks is the caller's fixed-size buffer */
  int told_bitwise, told_backtick, told_apos, told_semi, told_badutf;
  const unsigned char *s;
  size_t len;
  size_t pos;
  SrcPos cur;
  HclToken *toks;
  uint32_t ntoks, cap;
  Frame *frames;
  uint32_t nframes, fcap;
  uint32_t braces;
  bool no_close_comment;   /* no "*" "/" after the last failed search */
} HclLexer;

typedef HclLexer Lexer;

/* ---- UTF-8 ---------------------------------------------------------------- */

/* Length of the well-formed (in ragel's loose AnyUTF8 sense) character at
** i, or 0 when the byte starts no valid sequence. */
static size_t utf8_len(const unsigned char *s, size_t i, size_t len)
{
  unsigned char c = s[i];
  size_t n;
  if (c < 0x80)
    return 1;
  if (c >= 0xC0 && c <= 0xDF)
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3;
  else if (c >= 0xF0 && c <= 0xF7)
    n = 4;
  else
    return 0;
  if (i + n > len)
    return 0;
  for (size_t k = 1; k < n; k++)
    if ((s[i + k] & 0xC0) != 0x80)
      return 0;
  return n;
}

static uint32_t utf8_cp(const unsigned char *s, size_t n)
{
  switch (n) {
  case 1: return s[0];
  case 2: return ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
  case 3:
    return ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) |
           (s[2] & 0x3F);
  default:
    return ((uint32_t)(s[0] & 0x07) << 18) |
           ((uint32_t)(s[1] & 0x3F) << 12) | ((uint32_t)(s[2] & 0x3F) << 6) |
           (s[3] & 0x3F);
  }
}

/* Characters that do not start a new grapheme cluster for the purposes of
** column counting (a practical subset of Unicode's extend rules). */
static bool cp_extends(uint32_t cp)
{
  return (cp >= 0x300 && cp <= 0x36F) || cp == 0x200D ||
         (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0x1F3FB && cp <= 0x1F3FF) ||
         (cp >= 0x1AB0 && cp <= 0x1AFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
         (cp >= 0xE0020 && cp <= 0xE007F);
}

/* Approximates Unicode ID_Start/ID_Continue for non-ASCII code points:
** everything except punctuation, symbols, spaces and emoji blocks. */
static bool cp_ident(uint32_t cp)
{
  if (cp < 0x80)
    return false;
  if (cp < 0xC0)
    return cp == 0xAA || cp == 0xB5 || cp == 0xBA;
  if (cp == 0xD7 || cp == 0xF7)
    return false;
  if (cp >= 0x2000 && cp <= 0x206F)
    return cp == 0x200C || cp == 0x200D || cp == 0x203F || cp == 0x2040;
  if (cp >= 0x2190 && cp <= 0x2BFF)
    return false;
  if (cp >= 0x3000 && cp <= 0x3003)
    return false;
  if (cp == 0xFEFF || (cp >= 0xFF00 && cp <= 0xFF0F) ||
      (cp >= 0xFFF0 && cp <= 0xFFFF))
    return false;
  if (cp >= 0x1F000 && cp <= 0x1FAFF)
    return false;
  return true;
}

/* ---- Positions and emission ---------------------------------------------- */

/* Moves the cursor n bytes forward, keeping line and column. */
static void advance(Lexer *lx, size_t n)
{
  const unsigned char *s = lx->s;
  size_t end = lx->pos + n;
  /* fast path: printable ASCII only (most tokens); the rest, often just a
  ** final newline, goes through the slow loop */
  size_t q = lx->pos;
  while (q < end && s[q] >= 0x20 && s[q] < 0x7f)
    q++;
  lx->cur.col += (uint32_t)(q - lx->pos);
  bool ext_next = false;    /* the character after a ZWJ joins the cluster */
  for (size_t i = q; i < end; i++) {
    unsigned char c = s[i];
    if (c == '\n') {
      lx->cur.line++;
      lx->cur.col = 1;
    } else if (c == '\r') {
      if (!(i + 1 < lx->len && s[i + 1] == '\n')) {
        lx->cur.line++;
        lx->cur.col = 1;
      }
    } else if (c < 0x80) {
      lx->cur.col++;
    } else if (c >= 0xC0) {
      size_t k = utf8_len(s, i, lx->len);
      if (k == 0) {
        lx->cur.col++;
        continue;
      }
      uint32_t cp = utf8_cp(s + i, k);
      if (ext_next || cp_extends(cp)) {
        ext_next = cp == 0x200D;
      } else {
        lx->cur.col++;
      }
      i += k - 1;
      continue;
    } else {
      lx->cur.col++;    /* stray continuation byte: a (bad) character */
    }
    ext_next = false;
  }
  lx->cur.byte += (uint32_t)n;
  lx->pos = end;
}

static void grow_toks(Lexer *lx)
{
  uint32_t nc = lx->cap ? lx->cap * 2 : 256;
  lx->toks = arena_grow(lx->a, lx->toks, sizeof(HclToken),
                        _Alignof(HclToken), lx->cap, nc);
  lx->cap = nc;
}

static inline HclToken *tok_new(Lexer *lx, HclTokenKind k)
{
  /* streaming: run() leaves room, so this only grows a whole-file array */
  if (lx->ntoks == lx->cap)
    grow_toks(lx);
  HclToken *t = &lx->toks[lx->ntoks++];
  t->kind = (uint32_t)k;
  t->start = lx->cur;
  return t;
}

static void emit(Lexer *lx, HclTokenKind k, size_t n)
{
  HclToken *t = tok_new(lx, k);
  advance(lx, n);
  t->end = lx->cur;
}

/* A token of n ASCII bytes, none of them a line break: one column each,
** without looking at them again. */
static inline void emit_ascii(Lexer *lx, HclTokenKind k, size_t n)
{
  HclToken *t = tok_new(lx, k);
  lx->cur.col += (uint32_t)n;
  lx->cur.byte += (uint32_t)n;
  lx->pos += n;
  t->end = lx->cur;
}

/* A NEWLINE token of n bytes (LF or CRLF). */
static inline void emit_newline(Lexer *lx, size_t n)
{
  HclToken *t = tok_new(lx, HCL_TOK_NEWLINE);
  lx->cur.line++;
  lx->cur.col = 1;
  lx->cur.byte += (uint32_t)n;
  lx->pos += n;
  t->end = lx->cur;
}

static Frame *push(Lexer *lx, Mode m)
{
  if (lx->nframes == lx->fcap) {
    uint32_t nc = lx->fcap ? lx->fcap * 2 : 16;
    lx->frames = arena_grow(lx->a, lx->frames, sizeof(Frame), _Alignof(Frame),
                            lx->fcap, nc);
    lx->fcap = nc;
  }
  Frame *f = &lx->frames[lx->nframes++];
  memset(f, 0, sizeof *f);
  f->mode = m;
  return f;
}

static int at(const Lexer *lx, size_t off)
{
  size_t i = lx->pos + off;
  return i < lx->len ? lx->s[i] : -1;
}

static bool is_id_start_at(const Lexer *lx, size_t i, size_t *n)
{
  unsigned char c = lx->s[i];
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
    *n = 1;
    return true;
  }
  if (c < 0x80)
    return false;
  size_t k = utf8_len(lx->s, i, lx->len);
  if (k == 0 || !cp_ident(utf8_cp(lx->s + i, k)))
    return false;
  *n = k;
  return true;
}

/* ASCII bytes that continue an identifier: letters, digits, _ and -
** (bytes >= 0x80 are zero: UTF-8 goes through is_id_start_at). */
static const unsigned char ident_cont[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
};

/* Length of the identifier starting at i (0 when none); *wide tells
** whether it has non-ASCII characters (which need column counting). */
static size_t ident_len(const Lexer *lx, size_t i, bool *wide)
{
  const unsigned char *s = lx->s;
  size_t k, j = i;
  *wide = false;
  if (i >= lx->len || !is_id_start_at(lx, i, &k))
    return 0;
  if (k > 1)
    *wide = true;
  j += k;
  for (;;) {
    while (j < lx->len && ident_cont[s[j]])
      j++;
    if (j >= lx->len || s[j] < 0x80 || !is_id_start_at(lx, j, &k))
      break;
    *wide = true;
    j += k;
  }
  return j - i;
}

/* Number literal: digit (digit | '.' | [eE][+-]?digit)*, never ending in a
** dot (scan_tokens.rl's NumberLit). */
static size_t number_len(const Lexer *lx)
{
  const unsigned char *s = lx->s;
  size_t i = lx->pos + 1, good = i;
  while (i < lx->len) {
    unsigned char c = s[i];
    if (c >= '0' && c <= '9') {
      good = ++i;
    } else if (c == '.') {
      i++;
    } else if (c == 'e' || c == 'E') {
      size_t j = i + 1;
      if (j < lx->len && (s[j] == '+' || s[j] == '-'))
        j++;
      if (j < lx->len && s[j] >= '0' && s[j] <= '9') {
        i = j + 1;
        good = i;
      } else {
        break;
      }
    } else {
      break;
    }
  }
  return good - lx->pos;
}

/* One character of "invalid" input: a whole UTF-8 character, or one byte
** that is not valid UTF-8. */
static void emit_invalid_char(Lexer *lx)
{
  size_t k = utf8_len(lx->s, lx->pos, lx->len);
  if (k == 0)
    emit(lx, HCL_TOK_BAD_UTF8, 1);
  else
    emit(lx, HCL_TOK_INVALID, k);
}

static void begin_seq(Lexer *lx, HclTokenKind k)
{
  emit_ascii(lx, k, at(lx, 2) == '~' ? 3 : 2);
  lx->braces++;
  Frame *f = push(lx, M_MAIN);
  f->ret_brace = lx->braces;
}

/* ---- Modes ---------------------------------------------------------------- */

static void lex_main(Lexer *lx)
{
  Frame *f = &lx->frames[lx->nframes - 1];
  int c = lx->s[lx->pos];
  size_t n;
  if (c == ' ' || c == '\t') {
    /* blanks make no token: skip them and scan what follows now */
    n = 1;
    while (lx->pos + n < lx->len &&
           (lx->s[lx->pos + n] == ' ' || lx->s[lx->pos + n] == '\t'))
      n++;
    lx->cur.col += (uint32_t)n;
    lx->cur.byte += (uint32_t)n;
    lx->pos += n;
    if (lx->pos >= lx->len)
      return;
    c = lx->s[lx->pos];
  }
  int c1 = at(lx, 1);
  switch (c) {
  case '\n': emit_newline(lx, 1); return;
  case '\r':
    if (c1 == '\n')
      emit_newline(lx, 2);
    else
      emit(lx, HCL_TOK_INVALID, 1);
    return;
  case '#':
  line_comment: {
    const unsigned char *nl =
        memchr(lx->s + lx->pos, '\n', lx->len - lx->pos);
    emit(lx, HCL_TOK_COMMENT,
         nl ? (size_t)(nl - (lx->s + lx->pos)) + 1 : lx->len - lx->pos);
    return;
  }
  case '/':
    if (c1 == '/')
      goto line_comment;
    if (c1 == '*') {
      size_t i = lx->pos + 2;
      /* once a search failed, no later one can succeed: stay linear */
      if (lx->no_close_comment)
        i = lx->len;
      while (i + 1 < lx->len && !(lx->s[i] == '*' && lx->s[i + 1] == '/'))
        i++;
      if (i + 1 >= lx->len)
        lx->no_close_comment = true;
      /* unterminated: the scanner falls back to a lone slash */
      if (i + 1 < lx->len) {
        emit(lx, HCL_TOK_COMMENT, i + 2 - lx->pos);
        return;
      }
    }
    emit_ascii(lx, HCL_TOK_SLASH, 1);
    return;
  case '=':
    if (c1 == '=')
      emit_ascii(lx, HCL_TOK_EQUAL_OP, 2);
    else if (c1 == '>')
      emit_ascii(lx, HCL_TOK_FAT_ARROW, 2);
    else
      emit_ascii(lx, HCL_TOK_EQUAL, 1);
    return;
  case '!':
    emit_ascii(lx, c1 == '=' ? HCL_TOK_NOT_EQUAL : HCL_TOK_BANG, c1 == '=' ? 2 : 1);
    return;
  case '>':
    emit_ascii(lx, c1 == '=' ? HCL_TOK_GREATER_THAN_EQ : HCL_TOK_GREATER_THAN,
         c1 == '=' ? 2 : 1);
    return;
  case '<':
    if (c1 == '=') {
      emit_ascii(lx, HCL_TOK_LESS_THAN_EQ, 2);
      return;
    }
    if (c1 == '<') {
      size_t i = lx->pos + 2;
      if (i < lx->len && lx->s[i] == '-')
        i++;
      bool wide;
      size_t il = ident_len(lx, i, &wide);
      if (il > 0) {
        size_t j = i + il;
        if (j < lx->len && lx->s[j] == '\r')
          j++;
        if (j < lx->len && lx->s[j] == '\n') {
          uint32_t mk = (uint32_t)i;
          emit(lx, HCL_TOK_OHEREDOC, j + 1 - lx->pos);
          Frame *h = push(lx, M_HEREDOC);
          h->marker = mk;
          h->marker_len = (uint32_t)il;
          h->start_of_line = true;
          return;
        }
      }
    }
    emit_ascii(lx, HCL_TOK_LESS_THAN, 1);
    return;
  case '&':
    emit_ascii(lx, c1 == '&' ? HCL_TOK_AND : HCL_TOK_BITWISE_AND, c1 == '&' ? 2 : 1);
    return;
  case '|':
    emit_ascii(lx, c1 == '|' ? HCL_TOK_OR : HCL_TOK_BITWISE_OR, c1 == '|' ? 2 : 1);
    return;
  case ':':
    emit_ascii(lx, c1 == ':' ? HCL_TOK_DOUBLE_COLON : HCL_TOK_COLON,
         c1 == ':' ? 2 : 1);
    return;
  case '.':
    if (c1 == '.' && at(lx, 2) == '.')
      emit_ascii(lx, HCL_TOK_ELLIPSIS, 3);
    else
      emit_ascii(lx, HCL_TOK_DOT, 1);
    return;
  case '[': emit_ascii(lx, HCL_TOK_OBRACK, 1); return;
  case ']': emit_ascii(lx, HCL_TOK_CBRACK, 1); return;
  case '(': emit_ascii(lx, HCL_TOK_OPAREN, 1); return;
  case ')': emit_ascii(lx, HCL_TOK_CPAREN, 1); return;
  case ',': emit_ascii(lx, HCL_TOK_COMMA, 1); return;
  case '*': emit_ascii(lx, HCL_TOK_STAR, 1); return;
  case '%': emit_ascii(lx, HCL_TOK_PERCENT, 1); return;
  case '+': emit_ascii(lx, HCL_TOK_PLUS, 1); return;
  case '-': emit_ascii(lx, HCL_TOK_MINUS, 1); return;
  case '?': emit_ascii(lx, HCL_TOK_QUESTION, 1); return;
  case '^': emit_ascii(lx, HCL_TOK_BITWISE_XOR, 1); return;
  case ';': emit_ascii(lx, HCL_TOK_SEMICOLON, 1); return;
  case '`': emit_ascii(lx, HCL_TOK_BACKTICK, 1); return;
  case '\'': emit_ascii(lx, HCL_TOK_APOSTROPHE, 1); return;
  case '~':
    if (c1 != '}') {
      emit_ascii(lx, HCL_TOK_BITWISE_NOT, 1);
      return;
    }
    /* ~} always ends a template sequence; when it does not balance one
    ** the parser reports the stray token (closeTemplateSeqEatWhitespace). */
    emit_ascii(lx, HCL_TOK_TEMPLATE_SEQ_END, 2);
    if (f->ret_brace != 0 && f->ret_brace == lx->braces) {
      lx->braces--;
      lx->nframes--;
    } else if (lx->braces > 0) {
      lx->braces--;
    }
    return;
  case '{':
    emit_ascii(lx, HCL_TOK_OBRACE, 1);
    lx->braces++;
    return;
  case '}':
    if (f->ret_brace != 0 && f->ret_brace == lx->braces) {
      emit_ascii(lx, HCL_TOK_TEMPLATE_SEQ_END, 1);
      lx->braces--;
      lx->nframes--;
    } else {
      emit_ascii(lx, HCL_TOK_CBRACE, 1);
      if (lx->braces > 0)
        lx->braces--;
    }
    return;
  case '"':
    emit_ascii(lx, HCL_TOK_OQUOTE, 1);
    push(lx, M_STRING);
    return;
  default:
    break;
  }
  if (c >= '0' && c <= '9') {
    emit_ascii(lx, HCL_TOK_NUMBER_LIT, number_len(lx));
    return;
  }
  bool wide;
  n = ident_len(lx, lx->pos, &wide);
  if (n > 0) {
    if (wide)
      emit(lx, HCL_TOK_IDENT, n);
    else
      emit_ascii(lx, HCL_TOK_IDENT, n);
    return;
  }
  emit_invalid_char(lx);
}

static void lex_string(Lexer *lx)
{
  const unsigned char *s = lx->s;
  int c = s[lx->pos], c1 = at(lx, 1);
  if (c == '"') {
    emit_ascii(lx, HCL_TOK_CQUOTE, 1);
    lx->nframes--;
    return;
  }
  if (c == '$' && c1 == '{') {
    begin_seq(lx, HCL_TOK_TEMPLATE_INTERP);
    return;
  }
  if (c == '%' && c1 == '{') {
    begin_seq(lx, HCL_TOK_TEMPLATE_CONTROL);
    return;
  }
  if (c == '\r' || c == '\n') {
    size_t n = 1;
    while (lx->pos + n < lx->len &&
           (s[lx->pos + n] == '\r' || s[lx->pos + n] == '\n'))
      n++;
    emit(lx, HCL_TOK_QUOTED_NEWLINE, n);
    return;
  }
  size_t i = lx->pos;
  bool wide = false;        /* non-ASCII text: columns need counting */
  while (i < lx->len) {
    unsigned char d = s[i];
    if (d == '"' || d == '\r' || d == '\n')
      break;
    if (d == '\\') {
      size_t k = i + 1 < lx->len ? utf8_len(s, i + 1, lx->len) : 0;
      if (k == 0 || s[i + 1] == '\r' || s[i + 1] == '\n')
        break;
      if (k > 1)
        wide = true;
      i += 1 + k;
      continue;
    }
    if (d == '$' || d == '%') {
      if (i + 1 < lx->len && s[i + 1] == '{')
        break;
      if (i + 2 < lx->len && s[i + 1] == d && s[i + 2] == '{') {
        i += 3;
        continue;
      }
      i++;
      continue;
    }
    if (d < 0x80) {
      i++;
      continue;
    }
    size_t k = utf8_len(s, i, lx->len);
    if (k == 0)
      break;
    wide = true;
    i += k;
  }
  if (i > lx->pos) {
    if (wide)
      emit(lx, HCL_TOK_QUOTED_LIT, i - lx->pos);
    else
      emit_ascii(lx, HCL_TOK_QUOTED_LIT, i - lx->pos);
    return;
  }
  /* a lone backslash before a newline / EOF, or a bad byte */
  emit_invalid_char(lx);
}

static bool is_trim_space(unsigned char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Heredoc and bare-template text: one token per line (newline included),
** split before ${ and %{. */
static void lex_heredoc(Lexer *lx, Frame *f)
{
  const unsigned char *s = lx->s;
  int c = s[lx->pos], c1 = at(lx, 1);
  if (c == '$' && c1 == '{') {
    f->start_of_line = false;
    begin_seq(lx, HCL_TOK_TEMPLATE_INTERP);
    return;
  }
  if (c == '%' && c1 == '{') {
    f->start_of_line = false;
    begin_seq(lx, HCL_TOK_TEMPLATE_CONTROL);
    return;
  }
  size_t i = lx->pos;
  bool eol = false;
  while (i < lx->len) {
    unsigned char d = s[i];
    if (d == '\n') {
      i++;
      eol = true;
      break;
    }
    if (d == '$' || d == '%') {
      if (i + 1 < lx->len && s[i + 1] == '{')
        break;
      if (i + 2 < lx->len && s[i + 1] == d && s[i + 2] == '{') {
        i += 3;
        continue;
      }
      i++;
      continue;
    }
    size_t k = utf8_len(s, i, lx->len);
    if (k == 0)
      break;
    i += k;
  }
  if (i == lx->pos) {
    emit(lx, HCL_TOK_BAD_UTF8, 1);
    f->start_of_line = false;
    return;
  }
  if (f->mode == M_HEREDOC && eol && f->start_of_line) {
    size_t b = lx->pos, e = i - 1;  /* e: the newline */
    while (b < e && is_trim_space(s[b]))
      b++;
    size_t te = e;
    while (te > b && is_trim_space(s[te - 1]))
      te--;
    if (te - b == f->marker_len &&
        memcmp(s + b, s + f->marker, f->marker_len) == 0) {
      size_t nl = (e > lx->pos && s[e - 1] == '\r') ? e - 1 : e;
      emit(lx, HCL_TOK_CHEREDOC, nl - lx->pos);
      emit(lx, HCL_TOK_NEWLINE, i - nl);
      lx->nframes--;
      return;
    }
  }
  emit(lx, HCL_TOK_STRING_LIT, i - lx->pos);
  f->start_of_line = eol;
}

/* ---- Diagnostics (checkInvalidTokens) ------------------------------------ */

_Static_assert(HCL_TOK_BITWISE_AND > HCL_TOK_QUOTED_NEWLINE &&
               HCL_TOK_SEMICOLON > HCL_TOK_QUOTED_NEWLINE &&
               HCL_TOK_APOSTROPHE > HCL_TOK_QUOTED_NEWLINE &&
               HCL_TOK_BACKTICK > HCL_TOK_QUOTED_NEWLINE &&
               HCL_TOK_INVALID > HCL_TOK_QUOTED_NEWLINE &&
               HCL_TOK_BAD_UTF8 > HCL_TOK_QUOTED_NEWLINE,
               "check_tokens skips the kinds before QUOTED_NEWLINE");

static void check_tokens(Lexer *lx, const HclToken *t, uint32_t n)
{
  const char *file = lx->file;
  const char *src = (const char *)lx->s;
  uint32_t base = lx->base;
  Diags *d = lx->d;
  int bitwise = lx->told_bitwise, backtick = lx->told_backtick;
  int apos = lx->told_apos, semi = lx->told_semi, badutf = lx->told_badutf;
  for (uint32_t i = 0; i < n; i++) {
    /* the kinds reported below are the enum's last ones */
    if (t[i].kind < HCL_TOK_QUOTED_NEWLINE)
      continue;
    SrcRange r = hcl_token_range(file, &t[i]);
    switch ((HclTokenKind)t[i].kind) {
    case HCL_TOK_BITWISE_AND:
    case HCL_TOK_BITWISE_OR:
    case HCL_TOK_BITWISE_XOR:
    case HCL_TOK_BITWISE_NOT:
      if (bitwise < 4) {
        const char *sug = "";
        if (t[i].kind == HCL_TOK_BITWISE_AND)
          sug = " Did you mean boolean AND (\"&&\")?";
        else if (t[i].kind == HCL_TOK_BITWISE_OR)
          sug = " Did you mean boolean OR (\"||\")?";
        else if (t[i].kind == HCL_TOK_BITWISE_NOT)
          sug = " Did you mean boolean NOT (\"!\")?";
        diag_error(d, &r, "Unsupported operator",
                   "Bitwise operators are not supported.%s", sug);
        bitwise++;
      }
      break;
    case HCL_TOK_BACKTICK:
      if (backtick % 2 == 0)
        diag_error(d, &r, "Invalid character",
                   "The \"`\" character is not valid. To create a multi-line "
                   "string, use the \"heredoc\" syntax, like \"<<EOT\".");
      if (backtick <= 2)
        backtick++;
      break;
    case HCL_TOK_APOSTROPHE:
      if (apos % 2 == 0)
        diag_error(d, &r, "Invalid character",
                   "Single quotes are not valid. Use double quotes (\") to "
                   "enclose strings.");
      if (apos <= 2)
        apos++;
      break;
    case HCL_TOK_SEMICOLON:
      if (semi < 1)
        diag_error(d, &r, "Invalid character",
                   "The \";\" character is not valid. Use newlines to "
                   "separate arguments and blocks, and commas to separate "
                   "items in collection values.");
      semi++;
      break;
    case HCL_TOK_BAD_UTF8:
      if (badutf < 1)
        diag_error(d, &r, "Invalid character encoding",
                   "All input files must be UTF-8 encoded. Ensure that UTF-8 "
                   "encoding is selected in your editor.");
      badutf++;
      break;
    case HCL_TOK_QUOTED_NEWLINE:
      diag_error(d, &r, "Invalid multi-line string",
                 "Quoted strings may not be split over multiple lines. To "
                 "produce a multi-line string, either use the \\n escape to "
                 "represent a newline character or use the \"heredoc\" "
                 "multi-line template syntax.");
      break;
    case HCL_TOK_INVALID: {
      const char *p = src + (t[i].start.byte - base);
      size_t len = t[i].end.byte - t[i].start.byte;
      if (len == 3 && (memcmp(p, "\xe2\x80\x9c", 3) == 0 ||
                       memcmp(p, "\xe2\x80\x9d", 3) == 0))
        diag_error(d, &r, "Invalid character",
                   "\"Curly quotes\" are not valid here. These can sometimes "
                   "be inadvertently introduced when sharing code via "
                   "documents or discussion forums. It might help to replace "
                   "the character with a \"straight quote\".");
      else
        diag_error(d, &r, "Invalid character",
                   "This character is not used within the language.");
      break;
    }
    default:
      break;
    }
  }
  lx->told_bitwise = bitwise;
  lx->told_backtick = backtick;
  lx->told_apos = apos;
  lx->told_semi = semi;
  lx->told_badutf = badutf;
}

/* ---- Public --------------------------------------------------------------- */

HclLexer *hcl_lexer_new(Arena *a, const char *file, const char *src,
                        size_t len, SrcPos start, HclLexMode mode, Diags *d)
{
  Lexer *lx = ARENA_NEW(a, Lexer, 1);
  lx->a = a;
  lx->file = file;
  lx->d = d;
  lx->base = start.byte;
  lx->s = (const unsigned char *)src;
  lx->len = len;
  lx->cur = start;
  if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0) {
    lx->pos = 3;
    lx->cur.byte += 3;
  }
  /* Offsets are 32-bit: refuse what cannot fit. */
  if (len > 0xFFFFFFF0u) {
    lx->len = lx->pos;
    SrcRange r = {file, start, start};
    diag_error(d, &r, "File too large", "Source files over 4 GiB are not "
               "supported.");
  }
  push(lx, mode == HCL_LEX_TEMPLATE ? M_BARE : M_MAIN);
  return lx;
}

/* Runs the scanner until the buffer is nearly full (one step emits at most
** two tokens) or the input ends. */
static void run(Lexer *lx)
{
  while (lx->pos < lx->len && (!lx->streaming || lx->ntoks + 2 < lx->cap)) {
    Frame *f = &lx->frames[lx->nframes - 1];
    switch (f->mode) {
    case M_MAIN: lex_main(lx); break;
    case M_STRING: lex_string(lx); break;
    case M_HEREDOC:
    case M_BARE: lex_heredoc(lx, f); break;
    }
  }
  if (lx->pos >= lx->len && !lx->eof_done &&
      (!lx->streaming || lx->ntoks < lx->cap)) {
    emit(lx, HCL_TOK_EOF, 0);
    lx->eof_done = true;
  }
}

uint32_t hcl_lexer_next(HclLexer *lx, HclToken *out, uint32_t max)
{
  if (lx->eof_done)
    return 0;
  lx->streaming = true;
  lx->toks = out;
  lx->cap = max;
  lx->ntoks = 0;
  run(lx);
  check_tokens(lx, out, lx->ntoks);
  return lx->ntoks;
}

void hcl_lex_ex(Arena *a, const char *file, const char *src, size_t len,
                SrcPos start, HclLexMode mode, HclToken **out, uint32_t *n,
                Diags *d)
{
  Lexer *lx = hcl_lexer_new(a, file, src, len, start, mode, d);
  /* Tokens average over 3 bytes in real configurations: reserve that
  ** much up front (not zeroed, so untouched pages cost nothing) instead
  ** of doubling and copying. */
  lx->cap = (uint32_t)(lx->len / 3 + 64);
  lx->toks = arena_alloc_raw(a, sizeof(HclToken), _Alignof(HclToken), lx->cap);
  run(lx);
  *out = lx->toks;
  *n = lx->ntoks;
  check_tokens(lx, lx->toks, lx->ntoks);
}

void hcl_lex(Arena *a, const char *file, const char *src, size_t len,
             HclToken **out, uint32_t *n, Diags *d)
{
  SrcPos start = {1, 1, 0};
  hcl_lex_ex(a, file, src, len, start, HCL_LEX_CONFIG, out, n, d);
}

SrcRange hcl_token_range(const char *file, const HclToken *t)
{
  SrcRange r;
  r.file = file;
  r.start = t->start;
  r.end = t->end;
  return r;
}

const char *hcl_token_name(HclTokenKind k)
{
  static const char *const names[] = {
      "TokenOBrace", "TokenCBrace", "TokenOBrack", "TokenCBrack",
      "TokenOParen", "TokenCParen", "TokenOQuote", "TokenCQuote",
      "TokenOHeredoc", "TokenCHeredoc", "TokenStar", "TokenSlash",
      "TokenPlus", "TokenMinus", "TokenPercent", "TokenEqual",
      "TokenEqualOp", "TokenNotEqual", "TokenLessThan", "TokenLessThanEq",
      "TokenGreaterThan", "TokenGreaterThanEq", "TokenAnd", "TokenOr",
      "TokenBang", "TokenDot", "TokenComma", "TokenDoubleColon",
      "TokenEllipsis", "TokenFatArrow", "TokenQuestion", "TokenColon",
      "TokenTemplateInterp", "TokenTemplateControl", "TokenTemplateSeqEnd",
      "TokenQuotedLit", "TokenStringLit", "TokenNumberLit", "TokenIdent",
      "TokenComment", "TokenNewline", "TokenEOF", "TokenQuotedNewline",
      "TokenBitwiseAnd", "TokenBitwiseOr", "TokenBitwiseXor",
      "TokenBitwiseNot", "TokenSemicolon", "TokenApostrophe",
      "TokenBacktick", "TokenInvalid", "TokenBadUTF8", "TokenTabs"};
  if ((size_t)k < sizeof names / sizeof names[0])
    return names[k];
  return "TokenNil";
}
