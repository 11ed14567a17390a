/*
** funcs_re: a regular expression engine with RE2 syntax and semantics,
** for regex(), regexall() and replace("/re/").
**
** Parsing builds a small tree; compilation turns it into instructions for
** a Pike VM (Thompson NFA simulation with capture slots), which matches in
** O(len(subject) * len(program)) time and never backtracks, so hostile
** patterns cannot blow up.  Matching is leftmost-first (Perl order), as in
** Go's regexp.  Supported: literals, ., classes [...] with ranges,
** negation, POSIX [[:name:]] classes and \d \w \s \D \W \S; anchors ^ $
** \A \z \b \B; groups (...), (?:...), (?P<name>...), (?<name>...); flags
** (?imsU) and (?flags:...); repetition * + ? {n} {n,} {n,m} with lazy
** forms; escapes \n \t \r \f \v \a \x41 \x{263a} \Q...\E and escaped
** punctuation.  Not supported: Unicode classes \p{..} (an error).
** Case folding uses the simple mappings of funcs_str.c.
*/
#include <string.h>

#include "funcs_impl.h"

enum {
  N_EMPTY, N_LIT, N_CLASS, N_ANY, N_CAT, N_ALT, N_REP, N_CAP, N_ASSERT
};
enum { A_BOL, A_EOL, A_BOT, A_EOT, A_WORD, A_NWORD };
enum { F_FOLD = 1, F_DOTNL = 2, F_MULTI = 4, F_UNGREEDY = 8 };

typedef struct Node Node;
struct Node {
  int kind;
  Node *a, *b;
  int min, max;         /* N_REP; max -1 = unbounded */
  bool greedy;
  int cap;              /* N_CAP */
  uint32_t *ranges;     /* N_CLASS: pairs */
  uint32_t nr;
  bool neg;
  bool fold;
  bool dotnl;           /* N_ANY */
  int assert;           /* N_ASSERT */
  uint32_t ch;          /* N_LIT */
};

enum { I_CLASS, I_ANY, I_SPLIT, I_JMP, I_SAVE, I_MATCH, I_ASSERT };

typedef struct Inst {
  uint8_t op;
  bool neg, fold, dotnl;
  uint32_t x, y;        /* jump targets / save slot / assert kind */
  const uint32_t *ranges;
  uint32_t nr;
} Inst;

struct FnRe {
  Inst *prog;
  uint32_t n;
  uint32_t ncap;
  const char **names;   /* [ncap+1], NULL for unnamed */
};

#define MAX_INST 20000
#define MAX_REPEAT 1000

typedef struct Parser {
  Arena *a;
  const char *s;
  size_t n, i;
  int ncap;
  const char **names;
  int names_cap;
  const char *err_code;
  const char *err_expr;
  int depth;
} Parser;

static Node *node(Parser *p, int kind)
{
  Node *x = ARENA_NEW(p->a, Node, 1);
  x->kind = kind;
  return x;
}

static bool fail(Parser *p, const char *code, size_t from, size_t to)
{
  if (!p->err_code) {
    p->err_code = code;
    if (to > p->n)
      to = p->n;
    p->err_expr = arena_strndup(p->a, p->s + from, to - from);
  }
  return false;
}

static uint32_t peek_rune(Parser *p, size_t *len)
{
  return fn_utf8_dec(p->s + p->i, p->n - p->i, len);
}

/* Ranges builder. */
typedef struct Ranges {
  uint32_t *r;
  uint32_t n, cap;
} Ranges;

static void add_range(Parser *p, Ranges *rs, uint32_t lo, uint32_t hi)
{
  if (rs->n + 2 > rs->cap) {
    uint32_t nc = rs->cap ? rs->cap * 2 : 16;
    rs->r = arena_grow(p->a, rs->r, sizeof(uint32_t), _Alignof(uint32_t),
                       rs->cap, nc);
    rs->cap = nc;
  }
  rs->r[rs->n++] = lo;
  rs->r[rs->n++] = hi;
}

static void add_perl(Parser *p, Ranges *rs, char c)
{
  switch (c) {
  case 'd':
    add_range(p, rs, '0', '9');
    break;
  case 'w':
    add_range(p, rs, '0', '9');
    add_range(p, rs, 'A', 'Z');
    add_range(p, rs, '_', '_');
    add_range(p, rs, 'a', 'z');
    break;
  case 's':
    add_range(p, rs, '\t', '\n');
    add_range(p, rs, '\f', '\r');
    add_range(p, rs, ' ', ' ');
    break;
  }
}

/* Adds the complement of the ranges of the perl class c. */
static void add_perl_neg(Parser *p, Ranges *rs, char c)
{
  Ranges t = {0};
  add_perl(p, &t, c);
  uint32_t lo = 0;
  for (uint32_t i = 0; i < t.n; i += 2) {
    if (t.r[i] > lo)
      add_range(p, rs, lo, t.r[i] - 1);
    lo = t.r[i + 1] + 1;
  }
  add_range(p, rs, lo, 0x10FFFF);
}

static const struct {
  const char *name;
  const char *ranges;   /* pairs of chars */
} posix[] = {
    {"alnum", "09AZaz"}, {"alpha", "AZaz"}, {"ascii", "\x01\x7f"},
    {"blank", "\t\t  "}, {"cntrl", "\x01\x1f\x7f\x7f"}, {"digit", "09"},
    {"graph", "!~"}, {"lower", "az"}, {"print", " ~"},
    {"punct", "!/:@[`{~"}, {"space", "\t\r  "}, {"upper", "AZ"},
    {"word", "09AZ__az"}, {"xdigit", "09AFaf"},
};

/* Parses an escape after '\' (p->i at the char after the backslash).
** Either sets *lit or adds to rs (class escapes, rs may be NULL: then
** a class escape is returned through *cls). */
static bool parse_escape(Parser *p, uint32_t *lit, char *cls)
{
  size_t start = p->i - 1;
  *cls = 0;
  if (p->i >= p->n)
    return fail(p, "trailing backslash at end of expression", start, p->n);
  size_t l;
  uint32_t c = peek_rune(p, &l);
  p->i += l;
  switch (c) {
  case 'd': case 'w': case 's': case 'D': case 'W': case 'S':
    *cls = (char)c;
    return true;
  case 'n': *lit = '\n'; return true;
  case 't': *lit = '\t'; return true;
  case 'r': *lit = '\r'; return true;
  case 'f': *lit = '\f'; return true;
  case 'v': *lit = '\v'; return true;
  case 'a': *lit = 7; return true;
  case '0': case '1': case '2': case '3': case '4': case '5': case '6':
  case '7': {
    /* Octal: \0 up to three digits; \1-\7 only as octal when followed
    ** by more digits (Go rejects backreferences). */
    if (c != '0' && (p->i >= p->n || p->s[p->i] < '0' || p->s[p->i] > '7'))
      return fail(p, "invalid escape sequence", start, p->i);
    uint32_t v = c - '0';
    for (int k = 0; k < 2 && p->i < p->n && p->s[p->i] >= '0' &&
                    p->s[p->i] <= '7'; k++)
      v = v * 8 + (uint32_t)(p->s[p->i++] - '0');
    *lit = v;
    return true;
  }
  case 'x': {
    uint32_t v = 0;
    if (p->i < p->n && p->s[p->i] == '{') {
      p->i++;
      int nd = 0;
      while (p->i < p->n && p->s[p->i] != '}') {
        char h = p->s[p->i++];
        int d = (h >= '0' && h <= '9') ? h - '0' :
                (h >= 'a' && h <= 'f') ? h - 'a' + 10 :
                (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
        if (d < 0 || ++nd > 8)
          return fail(p, "invalid escape sequence", start, p->i);
        v = v * 16 + (uint32_t)d;
      }
      if (p->i >= p->n || nd == 0 || v > 0x10FFFF)
        return fail(p, "invalid escape sequence", start, p->i);
      p->i++;
    } else {
      for (int k = 0; k < 2; k++) {
        char h = p->i < p->n ? p->s[p->i] : 0;
        int d = (h >= '0' && h <= '9') ? h - '0' :
                (h >= 'a' && h <= 'f') ? h - 'a' + 10 :
                (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
        if (d < 0)
          return fail(p, "invalid escape sequence", start, p->i);
        p->i++;
        v = v * 16 + (uint32_t)d;
      }
    }
    *lit = v;
    return true;
  }
  case 'p': case 'P':
    return fail(p, "invalid character class range", start,
                p->i < p->n && p->s[p->i] == '{' ? p->i + 3 : p->i + 1);
  default:
    if (c < 0x80 && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                      (c >= 'A' && c <= 'Z'))) {
      *lit = c;
      return true;
    }
    return fail(p, "invalid escape sequence", start, p->i);
  }
}

static Node *parse_class(Parser *p, int flags)
{
  size_t start = p->i;   /* at '[' */
  p->i++;
  Node *x = node(p, N_CLASS);
  x->fold = (flags & F_FOLD) != 0;
  Ranges rs = {0};
  if (p->i < p->n && p->s[p->i] == '^') {
    x->neg = true;
    p->i++;
  }
  bool first = true;
  for (;;) {
    if (p->i >= p->n) {
      fail(p, "missing closing ]", start, p->n);
      return NULL;
    }
    if (p->s[p->i] == ']' && !first)
      break;
    first = false;
    if (p->s[p->i] == '[' && p->i + 1 < p->n && p->s[p->i + 1] == ':') {
      size_t e = p->i + 2;
      while (e + 1 < p->n && !(p->s[e] == ':' && p->s[e + 1] == ']'))
        e++;
      if (e + 1 < p->n) {
        bool neg = p->s[p->i + 2] == '^';
        size_t ns = p->i + 2 + (neg ? 1 : 0);
        bool found = false;
        for (size_t k = 0; k < sizeof posix / sizeof posix[0]; k++) {
          if (strlen(posix[k].name) == e - ns &&
              !memcmp(posix[k].name, p->s + ns, e - ns)) {
            found = true;
            Ranges t = {0};
            for (const char *r = posix[k].ranges; *r; r += 2)
              add_range(p, &t, (unsigned char)r[0], (unsigned char)r[1]);
            if (!neg) {
              for (uint32_t j = 0; j < t.n; j += 2)
                add_range(p, &rs, t.r[j], t.r[j + 1]);
            } else {
              uint32_t lo = 0;
              for (uint32_t j = 0; j < t.n; j += 2) {
                if (t.r[j] > lo)
                  add_range(p, &rs, lo, t.r[j] - 1);
                lo = t.r[j + 1] + 1;
              }
              add_range(p, &rs, lo, 0x10FFFF);
            }
          }
        }
        if (!found) {
          fail(p, "invalid character class range", p->i, e + 2);
          return NULL;
        }
        p->i = e + 2;
        continue;
      }
    }
    size_t rstart = p->i;
    uint32_t lo, hi;
    size_t l;
    lo = peek_rune(p, &l);
    p->i += l;
    if (lo == '\\') {
      char cls;
      if (!parse_escape(p, &lo, &cls))
        return NULL;
      if (cls) {
        if (cls >= 'a')
          add_perl(p, &rs, cls);
        else
          add_perl_neg(p, &rs, (char)(cls + 32));
        continue;
      }
    }
    hi = lo;
    if (p->i + 1 < p->n && p->s[p->i] == '-' && p->s[p->i + 1] != ']') {
      p->i++;
      hi = peek_rune(p, &l);
      p->i += l;
      if (hi == '\\') {
        char cls;
        if (!parse_escape(p, &hi, &cls))
          return NULL;
        if (cls) {
          fail(p, "invalid character class range", rstart, p->i);
          return NULL;
        }
      }
      if (hi < lo) {
        fail(p, "invalid character class range", rstart, p->i);
        return NULL;
      }
    }
    add_range(p, &rs, lo, hi);
  }
  p->i++;   /* ']' */
  x->ranges = rs.r;
  x->nr = rs.n;
  return x;
}

static Node *parse_alt(Parser *p, int *flags);

static Node *cat(Parser *p, Node *a, Node *b)
{
  if (!a)
    return b;
  Node *x = node(p, N_CAT);
  x->a = a;
  x->b = b;
  return x;
}

/* Parses "(?flags)" or "(?flags:" after "(?"; returns 1 for a bare flag
** group (flags changed), 2 for a non-capturing group start, 0 on error. */
static int parse_flags(Parser *p, int *flags, size_t start)
{
  bool neg = false, any = false;
  int f = *flags;
  while (p->i < p->n) {
    char c = p->s[p->i++];
    int bit = 0;
    switch (c) {
    case 'i': bit = F_FOLD; break;
    case 's': bit = F_DOTNL; break;
    case 'm': bit = F_MULTI; break;
    case 'U': bit = F_UNGREEDY; break;
    case '-':
      if (neg) {
        fail(p, "invalid or unsupported Perl syntax", start, p->i);
        return 0;
      }
      neg = true;
      any = false;
      continue;
    case ')':
    case ':':
      if (neg && !any) {
        fail(p, "invalid or unsupported Perl syntax", start, p->i);
        return 0;
      }
      *flags = f;
      return c == ')' ? 1 : 2;
    default:
      fail(p, "invalid or unsupported Perl syntax", start, p->i);
      return 0;
    }
    any = true;
    if (neg)
      f &= ~bit;
    else
      f |= bit;
  }
  fail(p, "missing closing )", 0, p->n);
  return 0;
}

static Node *parse_atom(Parser *p, int *flags)
{
  size_t l;
  uint32_t c = peek_rune(p, &l);
  size_t start = p->i;
  switch (c) {
  case '(': {
    if (++p->depth > 1000) {
      fail(p, "expression nests too deeply", start, p->n);
      return NULL;
    }
    p->i++;
    int inner = *flags;
    int capidx = -1;
    const char *name = NULL;
    if (p->i < p->n && p->s[p->i] == '?') {
      p->i++;
      if (p->i < p->n && (p->s[p->i] == 'P' || p->s[p->i] == '<')) {
        if (p->s[p->i] == 'P')
          p->i++;
        if (p->i >= p->n || p->s[p->i] != '<') {
          fail(p, "invalid or unsupported Perl syntax", start, p->i + 1);
          return NULL;
        }
        size_t ns = ++p->i;
        while (p->i < p->n && p->s[p->i] != '>')
          p->i++;
        if (p->i >= p->n) {
          fail(p, "invalid named capture", start, p->n);
          return NULL;
        }
        bool ok = p->i > ns;
        for (size_t k = ns; k < p->i; k++) {
          char ch = p->s[k];
          if (!(ch == '_' || (ch >= '0' && ch <= '9') ||
                (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')))
            ok = false;
        }
        name = arena_strndup(p->a, p->s + ns, p->i - ns);
        for (int k = 1; ok && k <= p->ncap; k++)
          if (p->names[k] && !strcmp(p->names[k], name)) {
            fail(p, "duplicate capture group name", start, p->i + 1);
            return NULL;
          }
        if (!ok) {
          fail(p, "invalid named capture", start, p->i + 1);
          return NULL;
        }
        p->i++;
        capidx = ++p->ncap;
      } else {
        int r = parse_flags(p, &inner, start);
        if (r == 0)
          return NULL;
        if (r == 1) {   /* (?i): applies to the rest of this group */
          *flags = inner;
          p->depth--;
          return node(p, N_EMPTY);
        }
      }
    } else {
      capidx = ++p->ncap;
    }
    if (capidx > 0) {
      if (capidx >= p->names_cap) {
        int nc = p->names_cap * 2 + 8;
        p->names = arena_grow(p->a, p->names, sizeof(char *),
                              _Alignof(char *), (size_t)p->names_cap,
                              (size_t)nc);
        p->names_cap = nc;
      }
      p->names[capidx] = name;
    }
    Node *in = parse_alt(p, &inner);
    if (!in)
      return NULL;
    if (p->i >= p->n || p->s[p->i] != ')') {
      fail(p, "missing closing )", 0, p->n);
      return NULL;
    }
    p->i++;
    p->depth--;
    if (capidx < 0)
      return in;
    Node *x = node(p, N_CAP);
    x->a = in;
    x->cap = capidx;
    return x;
  }
  case '[':
    return parse_class(p, *flags);
  case '.': {
    p->i++;
    Node *x = node(p, N_ANY);
    x->dotnl = (*flags & F_DOTNL) != 0;
    return x;
  }
  case '^': {
    p->i++;
    Node *x = node(p, N_ASSERT);
    x->assert = (*flags & F_MULTI) ? A_BOL : A_BOT;
    return x;
  }
  case '$': {
    p->i++;
    Node *x = node(p, N_ASSERT);
    x->assert = (*flags & F_MULTI) ? A_EOL : A_EOT;
    return x;
  }
  case '\\': {
    p->i++;
    if (p->i < p->n) {
      char e = p->s[p->i];
      int as = e == 'A' ? A_BOT : e == 'z' ? A_EOT : e == 'b' ? A_WORD :
               e == 'B' ? A_NWORD : -1;
      if (as >= 0) {
        p->i++;
        Node *x = node(p, N_ASSERT);
        x->assert = as;
        return x;
      }
      if (e == 'Q') {
        p->i++;
        size_t qs = p->i;
        const char *qe = NULL;
        for (size_t k = qs; k + 1 < p->n; k++)
          if (p->s[k] == '\\' && p->s[k + 1] == 'E') {
            qe = p->s + k;
            break;
          }
        size_t end = qe ? (size_t)(qe - p->s) : p->n;
        Node *seq = NULL;
        while (p->i < end) {
          size_t ql;
          Node *x = node(p, N_LIT);
          x->ch = fn_utf8_dec(p->s + p->i, end - p->i, &ql);
          x->fold = (*flags & F_FOLD) != 0;
          p->i += ql;
          seq = cat(p, seq, x);
        }
        p->i = qe ? end + 2 : end;
        return seq ? seq : node(p, N_EMPTY);
      }
    }
    uint32_t lit;
    char cls;
    if (!parse_escape(p, &lit, &cls))
      return NULL;
    if (cls) {
      Node *x = node(p, N_CLASS);
      Ranges rs = {0};
      if (cls >= 'a')
        add_perl(p, &rs, cls);
      else
        add_perl_neg(p, &rs, (char)(cls + 32));
      x->ranges = rs.r;
      x->nr = rs.n;
      return x;
    }
    Node *x = node(p, N_LIT);
    x->ch = lit;
    x->fold = (*flags & F_FOLD) != 0;
    return x;
  }
  case '*': case '+': case '?':
    fail(p, "missing argument to repetition operator", start, start + 1);
    return NULL;
  default: {
    p->i += l;
    Node *x = node(p, N_LIT);
    x->ch = c;
    x->fold = (*flags & F_FOLD) != 0;
    return x;
  }
  }
}

/* Parses {n}, {n,}, {n,m} at p->i; false (p->i unchanged) when it is not
** a repetition (then '{' is a literal, as in Go). */
static bool parse_braces(Parser *p, int *min, int *max)
{
  size_t i = p->i + 1;
  long lo = 0, hi;
  size_t ds = i;
  while (i < p->n && p->s[i] >= '0' && p->s[i] <= '9' && lo <= 100000)
    lo = lo * 10 + (p->s[i++] - '0');
  if (i == ds || i >= p->n)
    return false;
  if (p->s[i] == '}') {
    hi = lo;
  } else if (p->s[i] == ',') {
    i++;
    if (i < p->n && p->s[i] == '}') {
      hi = -1;
    } else {
      size_t hs = i;
      hi = 0;
      while (i < p->n && p->s[i] >= '0' && p->s[i] <= '9' && hi <= 100000)
        hi = hi * 10 + (p->s[i++] - '0');
      if (i == hs || i >= p->n || p->s[i] != '}')
        return false;
    }
  } else {
    return false;
  }
  *min = (int)(lo > 100000 ? 100000 : lo);
  *max = hi < 0 ? -1 : (int)(hi > 100000 ? 100000 : hi);
  p->i = i + 1;
  return true;
}

static Node *parse_repeat(Parser *p, int *flags)
{
  Node *x = parse_atom(p, flags);
  if (!x)
    return NULL;
  bool repeated = false;
  while (p->i < p->n) {
    char c = p->s[p->i];
    size_t op_start = p->i;
    int min, max;
    if (c == '*') {
      min = 0, max = -1;
      p->i++;
    } else if (c == '+') {
      min = 1, max = -1;
      p->i++;
    } else if (c == '?') {
      min = 0, max = 1;
      p->i++;
    } else if (c == '{') {
      if (!parse_braces(p, &min, &max))
        break;
      if (min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && max < min)) {
        fail(p, "invalid repeat count", op_start, p->i);
        return NULL;
      }
    } else {
      break;
    }
    bool greedy = true;
    if (p->i < p->n && p->s[p->i] == '?') {
      greedy = false;
      p->i++;
    }
    if (*flags & F_UNGREEDY)
      greedy = !greedy;
    if (repeated) {
      fail(p, "invalid nested repetition operator", op_start - 1, p->i);
      return NULL;
    }
    if (x->kind == N_EMPTY || (x->kind == N_ASSERT && false)) {
      fail(p, "missing argument to repetition operator", op_start, p->i);
      return NULL;
    }
    repeated = true;
    Node *r = node(p, N_REP);
    r->a = x;
    r->min = min;
    r->max = max;
    r->greedy = greedy;
    x = r;
  }
  return x;
}

static Node *parse_concat(Parser *p, int *flags)
{
  Node *seq = NULL;
  while (p->i < p->n && p->s[p->i] != '|' && p->s[p->i] != ')') {
    Node *x = parse_repeat(p, flags);
    if (!x)
      return NULL;
    seq = cat(p, seq, x);
  }
  return seq ? seq : node(p, N_EMPTY);
}

static Node *parse_alt(Parser *p, int *flags)
{
  Node *x = parse_concat(p, flags);
  if (!x)
    return NULL;
  while (p->i < p->n && p->s[p->i] == '|') {
    p->i++;
    Node *y = parse_concat(p, flags);
    if (!y)
      return NULL;
    Node *alt = node(p, N_ALT);
    alt->a = x;
    alt->b = y;
    x = alt;
  }
  return x;
}

/* ---- Compiler --------------------------------------------------------------- */

typedef struct Comp {
  Arena *a;
  Inst *prog;
  uint32_t n, cap;
  bool too_big;
} Comp;

static uint32_t emit(Comp *c, uint8_t op)
{
  if (c->n >= MAX_INST) {
    c->too_big = true;
    return c->n > 0 ? c->n - 1 : 0;
  }
  if (c->n == c->cap) {
    uint32_t nc = c->cap ? c->cap * 2 : 64;
    c->prog = arena_grow(c->a, c->prog, sizeof(Inst), _Alignof(Inst), c->cap,
                         nc);
    c->cap = nc;
  }
  memset(&c->prog[c->n], 0, sizeof(Inst));
  c->prog[c->n].op = op;
  return c->n++;
}

static void compile(Comp *c, const Node *x)
{
  if (c->too_big)
    return;
  switch (x->kind) {
  case N_EMPTY:
    break;
  case N_LIT: {
    uint32_t i = emit(c, I_CLASS);
    uint32_t *r = ARENA_NEW(c->a, uint32_t, 2);
    r[0] = r[1] = x->ch;
    c->prog[i].ranges = r;
    c->prog[i].nr = 2;
    c->prog[i].fold = x->fold;
    break;
  }
  case N_CLASS: {
    uint32_t i = emit(c, I_CLASS);
    c->prog[i].ranges = x->ranges;
    c->prog[i].nr = x->nr;
    c->prog[i].neg = x->neg;
    c->prog[i].fold = x->fold;
    break;
  }
  case N_ANY: {
    uint32_t i = emit(c, I_ANY);
    c->prog[i].dotnl = x->dotnl;
    break;
  }
  case N_ASSERT: {
    uint32_t i = emit(c, I_ASSERT);
    c->prog[i].x = (uint32_t)x->assert;
    break;
  }
  case N_CAT:
    compile(c, x->a);
    compile(c, x->b);
    break;
  case N_ALT: {
    uint32_t sp = emit(c, I_SPLIT);
    c->prog[sp].x = c->n;
    compile(c, x->a);
    uint32_t j = emit(c, I_JMP);
    c->prog[sp].y = c->n;
    compile(c, x->b);
    c->prog[j].x = c->n;
    break;
  }
  case N_CAP: {
    uint32_t s = emit(c, I_SAVE);
    c->prog[s].x = (uint32_t)(2 * x->cap);
    compile(c, x->a);
    uint32_t e = emit(c, I_SAVE);
    c->prog[e].x = (uint32_t)(2 * x->cap + 1);
    break;
  }
  case N_REP: {
    for (int k = 0; k < x->min && !c->too_big; k++)
      compile(c, x->a);
    if (x->max < 0) {
      /* L: split body, out; body; jmp L */
      uint32_t sp = emit(c, I_SPLIT);
      compile(c, x->a);
      uint32_t j = emit(c, I_JMP);
      c->prog[j].x = sp;
      uint32_t body = sp + 1, out = c->n;
      c->prog[sp].x = x->greedy ? body : out;
      c->prog[sp].y = x->greedy ? out : body;
    } else {
      /* Nested optionals: (x(x(x)?)?)? */
      int opt = x->max - x->min;
      uint32_t *splits = ARENA_NEW(c->a, uint32_t, (size_t)opt + 1);
      for (int k = 0; k < opt && !c->too_big; k++) {
        splits[k] = emit(c, I_SPLIT);
        c->prog[splits[k]].x = c->n;
        compile(c, x->a);
      }
      for (int k = 0; k < opt && !c->too_big; k++) {
        uint32_t sp = splits[k], body = sp + 1, out = c->n;
        c->prog[sp].x = x->greedy ? body : out;
        c->prog[sp].y = x->greedy ? out : body;
      }
    }
    break;
  }
  }
}

FnRe *fn_re_compile(Arena *a, const char *pat, size_t n, const char **err)
{
  Parser p;
  memset(&p, 0, sizeof p);
  p.a = a;
  p.s = pat;
  p.n = n;
  p.names_cap = 8;
  p.names = ARENA_NEW(a, const char *, 8);
  int flags = 0;
  Node *root = parse_alt(&p, &flags);
  if (root && p.i < p.n) {   /* stopped at an unmatched ')' */
    fail(&p, "unexpected )", 0, p.n);
    root = NULL;
  }
  if (!root) {
    *err = arena_printf(a, "%s\x1f%s", p.err_code, p.err_expr);
    return NULL;
  }
  Comp c;
  memset(&c, 0, sizeof c);
  c.a = a;
  uint32_t s0 = emit(&c, I_SAVE);
  c.prog[s0].x = 0;
  compile(&c, root);
  uint32_t s1 = emit(&c, I_SAVE);
  c.prog[s1].x = 1;
  emit(&c, I_MATCH);
  if (c.too_big || (size_t)c.n * 2 * ((size_t)p.ncap + 1) > ((size_t)1 << 21)) {
    *err = arena_printf(a, "expression too large\x1f%.*s", (int)n, pat);
    return NULL;
  }
  FnRe *re = ARENA_NEW(a, FnRe, 1);
  re->prog = c.prog;
  re->n = c.n;
  re->ncap = (uint32_t)p.ncap;
  re->names = p.names;
  return re;
}

uint32_t fn_re_ncap(const FnRe *re) { return re->ncap; }

const char *fn_re_capname(const FnRe *re, uint32_t i)
{
  return i >= 1 && i <= re->ncap ? re->names[i] : NULL;
}

/* ---- Pike VM ------------------------------------------------------------------ */

static bool is_word(int c)
{
  return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z');
}

static bool assert_ok(uint32_t kind, const char *s, size_t n, size_t pos)
{
  switch (kind) {
  case A_BOT: return pos == 0;
  case A_EOT: return pos == n;
  case A_BOL: return pos == 0 || s[pos - 1] == '\n';
  case A_EOL: return pos == n || s[pos] == '\n';
  case A_WORD:
  case A_NWORD: {
    bool a = pos > 0 && is_word((unsigned char)s[pos - 1]);
    bool b = pos < n && is_word((unsigned char)s[pos]);
    return (a != b) == (kind == A_WORD);
  }
  }
  return false;
}

static bool class_has(const Inst *in, uint32_t r)
{
  bool hit = false;
  for (uint32_t i = 0; i < in->nr && !hit; i += 2)
    if (r >= in->ranges[i] && r <= in->ranges[i + 1])
      hit = true;
  if (!hit && in->fold) {
    uint32_t lo = fn_case_lower(r), up = fn_case_upper(r);
    for (uint32_t i = 0; i < in->nr && !hit; i += 2)
      if ((lo >= in->ranges[i] && lo <= in->ranges[i + 1]) ||
          (up >= in->ranges[i] && up <= in->ranges[i + 1]))
        hit = true;
    /* Ranges given in one case match the other (e.g. [a-z] with (?i)). */
    for (uint32_t i = 0; i < in->nr && !hit; i += 2)
      for (uint32_t k = in->ranges[i]; k <= in->ranges[i + 1] && k < 0x800 &&
                                       !hit; k++)
        if (fn_case_lower(k) == lo || fn_case_upper(k) == up)
          hit = true;
  }
  return hit != in->neg;
}

typedef struct TList {
  uint32_t *pc;
  long *caps;       /* n * nslots */
  uint32_t n;
} TList;

typedef struct Vm {
  const FnRe *re;
  const char *s;
  size_t len;
  uint32_t nslots;
  uint32_t *mark;   /* per pc: generation that added it */
  uint32_t gen;
  uint32_t *stack;  /* pcs, or 0x80000000|slot for restores */
  long *stackv;
  uint32_t scap;
} Vm;

static void add_thread(Vm *vm, TList *l, uint32_t pc0, long *caps, size_t pos)
{
  uint32_t sp = 0;
  vm->stack[sp++] = pc0;
  while (sp > 0) {
    uint32_t e = vm->stack[--sp];
    if (e & 0x80000000u) {
      caps[e & 0x7FFFFFFFu] = vm->stackv[sp];
      continue;
    }
    uint32_t pc = e;
    if (vm->mark[pc] == vm->gen)
      continue;
    vm->mark[pc] = vm->gen;
    const Inst *in = &vm->re->prog[pc];
    switch (in->op) {
    case I_JMP:
      vm->stack[sp++] = in->x;
      break;
    case I_SPLIT:
      vm->stack[sp++] = in->y;
      vm->stack[sp++] = in->x;
      break;
    case I_SAVE:
      if (in->x < vm->nslots) {
        vm->stackv[sp] = caps[in->x];
        vm->stack[sp++] = 0x80000000u | in->x;
        caps[in->x] = (long)pos;
      }
      vm->stack[sp++] = pc + 1;
      break;
    case I_ASSERT:
      if (assert_ok(in->x, vm->s, vm->len, pos))
        vm->stack[sp++] = pc + 1;
      break;
    default:
      l->pc[l->n] = pc;
      memcpy(l->caps + (size_t)l->n * vm->nslots, caps,
             vm->nslots * sizeof(long));
      l->n++;
      break;
    }
  }
}

bool fn_re_match(const FnRe *re, Arena *scratch, const char *s, size_t n,
                 size_t start, long *caps)
{
  ArenaMark m = arena_mark(scratch);
  Vm vm;
  vm.re = re;
  vm.s = s;
  vm.len = n;
  vm.nslots = 2 * (re->ncap + 1);
  vm.mark = ARENA_NEW(scratch, uint32_t, re->n);
  vm.gen = 0;
  /* Each instruction is pushed at most once per closure, plus one
  ** restore entry per SAVE. */
  vm.scap = 3 * re->n + 4;
  vm.stack = ARENA_NEW(scratch, uint32_t, vm.scap);
  vm.stackv = ARENA_NEW(scratch, long, vm.scap);
  TList cl, nl;
  cl.pc = ARENA_NEW(scratch, uint32_t, re->n);
  nl.pc = ARENA_NEW(scratch, uint32_t, re->n);
  cl.caps = ARENA_NEW(scratch, long, (size_t)re->n * vm.nslots);
  nl.caps = ARENA_NEW(scratch, long, (size_t)re->n * vm.nslots);
  cl.n = nl.n = 0;
  long *tmp = ARENA_NEW(scratch, long, vm.nslots);
  long *best = ARENA_NEW(scratch, long, vm.nslots);
  bool matched = false;
  size_t pos = start;
  vm.gen++;
  for (;;) {
    if (!matched) {
      for (uint32_t k = 0; k < vm.nslots; k++)
        tmp[k] = -1;
      add_thread(&vm, &cl, 0, tmp, pos);
    }
    size_t rl = 0;
    uint32_t r = 0;
    if (pos < n)
      r = fn_utf8_dec(s + pos, n - pos, &rl);
    if (cl.n == 0) {
      /* Nothing alive here (e.g. an anchor failed): try the next
      ** position unless a match is already decided. */
      if (matched || pos >= n)
        break;
      pos += rl;
      vm.gen++;
      continue;
    }
    vm.gen++;
    nl.n = 0;
    for (uint32_t t = 0; t < cl.n; t++) {
      const Inst *in = &re->prog[cl.pc[t]];
      long *tc = cl.caps + (size_t)t * vm.nslots;
      if (in->op == I_MATCH) {
        memcpy(best, tc, vm.nslots * sizeof(long));
        matched = true;
        break;   /* lower-priority threads lose */
      }
      if (pos >= n)
        continue;
      bool ok = in->op == I_ANY ? (in->dotnl || r != '\n')
                                : class_has(in, r);
      if (ok) {
        memcpy(tmp, tc, vm.nslots * sizeof(long));
        add_thread(&vm, &nl, cl.pc[t] + 1, tmp, pos + rl);
      }
    }
    TList sw = cl;
    cl = nl;
    nl = sw;
    if (pos >= n)
      break;
    pos += rl;
    /* The next step's start thread joins the list already built for this
    ** position, so it shares its generation. */
  }
  if (matched)
    memcpy(caps, best, vm.nslots * sizeof(long));
  /* best lives in scratch; copied out before rewinding. */
  arena_rewind(scratch, m);
  return matched;
}
