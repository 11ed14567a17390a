/*
** provver.c: provider versions and Ruby-style version constraints, as
** Terraform's provider installer reads them.  Contracts in provver.h.
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "provver.h"

typedef struct PV {
  long seg[3];
  int nseg;            /* parts written (1..3) */
  char pre[64];        /* prerelease, "" for none */
  char meta[64];       /* build metadata, "" for none */
} PV;

/* Operators, in the order Terraform sorts terms that share a version. */
enum { OP_GT, OP_GE, OP_EQ, OP_PATCH, OP_MINOR, OP_LE, OP_LT, OP_NE };

typedef struct Term {
  int op;
  PV v;
} Term;

static bool ident_ok(const char *s, size_t n)
{
  if (!n)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '.')
      return false;
  return s[0] != '.' && s[n - 1] != '.' && !strstr(s, "..");
}

/* Parses one version.  go: hashicorp/go-version's leniency, for
** required_version: a leading "v", any prerelease text, metadata of any
** length (not kept). */
static bool parse_pv(const char *s, size_t n, PV *v, bool go)
{
  memset(v, 0, sizeof *v);
  size_t i = 0;
  if (go && i < n && s[i] == 'v')
    i++;
  while (v->nseg < 3) {
    if (i >= n || !isdigit((unsigned char)s[i]))
      return false;
    long x = 0;
    while (i < n && isdigit((unsigned char)s[i])) {
      x = x * 10 + (s[i++] - '0');
      if (x > 1000000000L)
        return false;
    }
    v->seg[v->nseg++] = x;
    if (i < n && s[i] == '.' && (go || v->nseg < 3)) {
      i++;
      continue;
    }
    break;
  }
  if (i < n && s[i] == '-') {
    size_t st = ++i;
    while (i < n && s[i] != '+')
      i++;
    if (i - st >= sizeof v->pre || (go ? i == st : !ident_ok(s + st, i - st)))
      return false;
    memcpy(v->pre, s + st, i - st);
  }
  if (i < n && s[i] == '+') {
    size_t st = ++i;
    i = n;
    if (go)
      return i > st;   /* ignored in comparisons */
    if (i - st >= sizeof v->meta || !ident_ok(s + st, i - st))
      return false;
    memcpy(v->meta, s + st, i - st);
  }
  return i == n;
}

static bool all_digits(const char *s, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!isdigit((unsigned char)s[i]))
      return false;
  return n > 0;
}

/* Semver's prerelease precedence: dot-separated identifiers, numeric
** ones numerically and below alphanumeric ones, a shorter list lower. */
static int cmp_pre(const char *a, const char *b)
{
  for (;;) {
    size_t na = strcspn(a, "."), nb = strcspn(b, ".");
    bool da = all_digits(a, na), db = all_digits(b, nb);
    int r;
    if (da && db) {
      r = na != nb ? (na < nb ? -1 : 1) : strncmp(a, b, na);
    } else if (da != db) {
      r = da ? -1 : 1;
    } else {
      r = strncmp(a, b, na < nb ? na : nb);
      if (!r && na != nb)
        r = na < nb ? -1 : 1;
    }
    if (r)
      return r < 0 ? -1 : 1;
    a += na;
    b += nb;
    if (!*a || !*b)
      return !*a && !*b ? 0 : !*a ? -1 : 1;
    a++;
    b++;
  }
}

static int cmp_pv(const PV *a, const PV *b)
{
  for (int i = 0; i < 3; i++)
    if (a->seg[i] != b->seg[i])
      return a->seg[i] < b->seg[i] ? -1 : 1;
  if (!a->pre[0] || !b->pre[0])
    return a->pre[0] ? -1 : b->pre[0] ? 1 : 0;
  return cmp_pre(a->pre, b->pre);
}

int pver_cmp(const char *a, const char *b)
{
  PV x, y;
  bool ox = parse_pv(a, strlen(a), &x, false),
       oy = parse_pv(b, strlen(b), &y, false);
  if (!ox || !oy) {
    if (ox != oy)
      return ox ? 1 : -1;
    int r = strcmp(a, b);
    return r < 0 ? -1 : r > 0;
  }
  return cmp_pv(&x, &y);
}

bool pver_valid(const char *s)
{
  PV v;
  return parse_pv(s, strlen(s), &v, false) && v.nseg == 3;
}

/* Parses the term of a constraint string that starts at p (terms are
** separated by commas; an operator, then a version, white space around
** either).  Returns where the next term starts, NULL after the last; sets
** *ok to false when the term does not parse. */
static const char *next_term(const char *p, bool go, Term *t, bool *ok)
{
  const char *end = strchr(p, ',');
  size_t len = end ? (size_t)(end - p) : strlen(p);
  size_t i = 0;
  while (i < len && isspace((unsigned char)p[i]))
    i++;
  t->op = OP_EQ;
  static const struct { const char *s; int op; } ops[] = {
      {"~>", OP_MINOR}, {">=", OP_GE}, {"<=", OP_LE}, {"!=", OP_NE},
      {">", OP_GT},     {"<", OP_LT},  {"=", OP_EQ}};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    size_t l = strlen(ops[k].s);
    if (len - i >= l && !strncmp(p + i, ops[k].s, l)) {
      t->op = ops[k].op;
      i += l;
      break;
    }
  }
  while (i < len && isspace((unsigned char)p[i]))
    i++;
  size_t e = len;
  while (e > i && isspace((unsigned char)p[e - 1]))
    e--;
  *ok = parse_pv(p + i, e - i, &t->v, go);
  return end ? end + 1 : NULL;
}

/* Parses the terms of one constraint string, appending to *out. */
static bool parse_terms(Arena *a, const char *s, Term **out, uint32_t *n,
                        uint32_t *cap)
{
  for (const char *p = s; p;) {
    Term t;
    bool ok;
    p = next_term(p, false, &t, &ok);
    if (!ok)
      return false;
    if (t.op == OP_MINOR && t.v.nseg == 3)
      t.op = OP_PATCH;
    if (*n == *cap) {
      uint32_t nc = *cap ? *cap * 2 : 8;
      *out = arena_grow(a, *out, sizeof(Term), _Alignof(Term), *cap, nc);
      *cap = nc;
    }
    (*out)[(*n)++] = t;
  }
  return true;
}

static bool term_ok(const Term *t, const PV *v)
{
  int r = cmp_pv(v, &t->v);
  PV hi = t->v;
  hi.pre[0] = 0;
  switch (t->op) {
  case OP_EQ: return r == 0;
  case OP_NE: return r != 0;
  case OP_GT: return r > 0;
  case OP_GE: return r >= 0;
  case OP_LT: return r < 0;
  case OP_LE: return r <= 0;
  case OP_PATCH:
    hi.seg[1]++;
    hi.seg[2] = 0;
    return r >= 0 && cmp_pv(v, &hi) < 0;
  default:   /* OP_MINOR */
    hi.seg[0]++;
    hi.seg[1] = hi.seg[2] = 0;
    return r >= 0 && cmp_pv(v, &hi) < 0;
  }
}

int pver_match(const char *constraints, const char *version)
{
  PV v;
  if (!parse_pv(version, strlen(version), &v, false))
    return -1;
  if (!constraints || !*constraints)
    return v.pre[0] ? 0 : 1;
  Arena a;
  arena_init(&a, 0);
  Term *t = NULL;
  uint32_t n = 0, cap = 0;
  int res = -1;
  if (parse_terms(&a, constraints, &t, &n, &cap)) {
    bool ok = true, named = false;
    for (uint32_t i = 0; i < n; i++) {
      if (!term_ok(&t[i], &v))
        ok = false;
      if (t[i].op == OP_EQ && v.pre[0] && cmp_pv(&t[i].v, &v) == 0)
        named = true;
    }
    /* A prerelease is chosen only by an exact constraint naming it. */
    res = ok && (!v.pre[0] || named);
  }
  arena_release(&a);
  return res;
}

static int cmp_term(const void *x, const void *y)
{
  const Term *a = x, *b = y;
  int r = cmp_pv(&a->v, &b->v);
  if (!r)
    r = strcmp(a->v.meta, b->v.meta);
  if (!r)
    r = a->op - b->op;
  return r;
}

const char *pver_canon(Arena *a, const char *const *cons, uint32_t n,
                       const char **bad)
{
  Term *t = NULL;
  uint32_t nt = 0, cap = 0;
  *bad = NULL;
  for (uint32_t i = 0; i < n; i++) {
    if (!cons[i] || !*cons[i])
      continue;
    if (!parse_terms(a, cons[i], &t, &nt, &cap)) {
      *bad = cons[i];
      return NULL;
    }
  }
  if (!nt)
    return "";
  qsort(t, nt, sizeof *t, cmp_term);
  static const char *const opname[] = {"> ", ">= ", "",    "~> ",
                                       "~> ", "<= ", "< ", "!= "};
  Buf b;
  buf_init(&b, a);
  for (uint32_t i = 0; i < nt; i++) {
    if (i && cmp_term(&t[i - 1], &t[i]) == 0)
      continue;
    if (b.len)
      buf_puts(&b, ", ");
    buf_puts(&b, opname[t[i].op]);
    if (t[i].op == OP_MINOR)
      buf_printf(&b, "%ld.%ld", t[i].v.seg[0], t[i].v.seg[1]);
    else
      buf_printf(&b, "%ld.%ld.%ld", t[i].v.seg[0], t[i].v.seg[1],
                 t[i].v.seg[2]);
    if (t[i].v.pre[0])
      buf_printf(&b, "-%s", t[i].v.pre);
    if (t[i].v.meta[0])
      buf_printf(&b, "+%s", t[i].v.meta);
  }
  return buf_str(&b);
}

/* ---- required_version: hashicorp/go-version ----------------------------- */

/* go-version's Compare: segments, then a prerelease is lower than the
** release; two prereleases compare as strings. */
static int cmp_go(const PV *a, const PV *b)
{
  for (int i = 0; i < 3; i++)
    if (a->seg[i] != b->seg[i])
      return a->seg[i] < b->seg[i] ? -1 : 1;
  if (!a->pre[0] || !b->pre[0])
    return a->pre[0] ? -1 : b->pre[0] ? 1 : 0;
  int r = strcmp(a->pre, b->pre);
  return r < 0 ? -1 : r > 0;
}

/* go-version's Constraint.Check of one term. */
static bool check_go(const Term *t, const PV *v)
{
  const PV *c = &t->v;
  bool cpre = c->pre[0] != 0, vpre = v->pre[0] != 0;
  if (vpre && !cpre)
    return false;
  if (vpre && cpre &&
      (c->seg[0] != v->seg[0] || c->seg[1] != v->seg[1] ||
       c->seg[2] != v->seg[2]))
    return false;
  int r = cmp_go(v, c);
  switch (t->op) {
  case OP_EQ: return r == 0;
  case OP_NE: return r != 0;
  case OP_GT: return r > 0;
  case OP_LT: return r < 0;
  case OP_GE: return r >= 0;
  case OP_LE: return r <= 0;
  default:   /* ~>: the segments written but the last stay the same */
    if ((cpre && !vpre) || r < 0)
      return false;
    for (int i = 0; i < c->nseg - 1; i++)
      if (v->seg[i] != c->seg[i])
        return false;
    return true;
  }
}

int pver_tf_match(const char *constraints, const char *version)
{
  PV v;
  if (!parse_pv(version, strlen(version), &v, true))
    return -1;
  bool all = true;
  for (const char *p = constraints; p;) {
    Term t;
    bool ok;
    p = next_term(p, true, &t, &ok);
    if (!ok)
      return -1;
    if (!check_go(&t, &v))
      all = false;
  }
  return all ? 1 : 0;
}
