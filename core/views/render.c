/*
** render.c: Terraform's human plan/state text (see render.h).
**
** Two passes, as jsonformat does: the differ (cd_*) turns a before/after
** pair plus schema into a tree of Diff nodes, each with an action that
** depends on its children; the drawers (rd_*) walk that tree.  The Chg
** struct mirrors jsonformat's structured.Change: Terraform works on the
** JSON plan, where an unknown after value is absent (null) with a true in
** after_unknown, and a sensitive one has a true in before/after_sensitive;
** here those facts are read off the values' flags.
*/
#include "render.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/json.h"

/* ---- Colour markup ---------------------------------------------------- */

typedef struct R {
  Arena *a;          /* scratch: diff trees, temporary text */
  bool color;
  const char *tool;
  int width;
  bool automation;
} R;

static const struct {
  const char *name;
  const char *code;
} colors[] = {
  {"reset", "0"}, {"bold", "1"}, {"red", "31"}, {"green", "32"},
  {"yellow", "33"}, {"cyan", "36"}, {"dark_gray", "90"},
  {"light_gray", "37"},
};

/* colorstring.Colorize.Color with Reset: known [tags] become escape codes
** (or vanish without colour); a reset is appended when any tag was seen. */
static void col(const R *r, Buf *o, const char *s)
{
  bool any = false;
  while (*s) {
    if (*s == '[') {
      const char *e = s + 1;
      while ((*e >= 'a' && *e <= 'z') || *e == '_' || (*e >= '0' && *e <= '9'))
        e++;
      if (*e == ']' && e > s + 1) {
        size_t n = (size_t)(e - s - 1);
        size_t i;
        for (i = 0; i < sizeof colors / sizeof colors[0]; i++)
          if (strlen(colors[i].name) == n && !memcmp(colors[i].name, s + 1, n))
            break;
        if (i < sizeof colors / sizeof colors[0]) {
          any = true;
          if (r->color)
            buf_printf(o, "\x1b[%sm", colors[i].code);
          s = e + 1;
          continue;
        }
      }
    }
    buf_putc(o, *s++);
  }
  if (any && r->color)
    buf_puts(o, "\x1b[0m");
}

/* Terraform's sentences with "Terraform"/"terraform" replaced by the tool
** name, then coloured. */
static void colt(const R *r, Buf *o, const char *s)
{
  Buf t;
  buf_init(&t, r->a);
  const char *start = s;
  while (*s) {
    if (!strncmp(s, "Terraform", 9)) {
      buf_puts(&t, r->tool);
      s += 9;
    } else if (!strncmp(s, "terraform", 9) && (s[9] == ' ' || s[9] == '"') &&
               (s == start || s[-1] == ' ' || s[-1] == '"')) {
      /* Command lines ("terraform apply"), not addresses such as
      ** terraform_data.a: the lower-case program name. */
      for (const char *q = r->tool; *q; q++)
        buf_putc(&t, (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q));
      s += 9;
    } else {
      buf_putc(&t, *s++);
    }
  }
  col(r, o, buf_str(&t));
}

static void indent_to(Buf *o, int n)
{
  for (int i = 0; i < n; i++)
    buf_puts(o, "    ");
}

/* ---- Word wrapping (mitchellh/go-wordwrap as format.WordWrap uses it) -- */

static size_t utf8_count(const char *s, size_t n)
{
  size_t c = 0;
  for (size_t i = 0; i < n; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80)
      c++;
  return c;
}

static void wrap_line(Buf *o, const char *s, size_t n, size_t lim)
{
  size_t cur = 0;
  size_t i = 0;
  const char *sp = NULL, *wd = NULL; /* pending spaces and word */
  size_t spn = 0, wdn = 0, splen = 0, wdlen = 0;
  while (i < n) {
    size_t cl = 1;
    unsigned char ch = (unsigned char)s[i];
    while (i + cl < n && ((unsigned char)s[i + cl] & 0xC0) == 0x80)
      cl++;
    if (ch == ' ' || ch == '\t') {
      if (spn == 0 || wdn > 0) {
        cur += splen + wdlen;
        if (spn)
          buf_put(o, sp, spn);
        if (wdn)
          buf_put(o, wd, wdn);
        sp = NULL, spn = 0, splen = 0, wd = NULL, wdn = 0, wdlen = 0;
      }
      if (!sp)
        sp = s + i;
      spn += cl;
      splen++;
    } else {
      if (!wd)
        wd = s + i;
      wdn += cl;
      wdlen++;
      if (cur + splen + wdlen > lim && wdlen < lim) {
        buf_putc(o, '\n');
        cur = 0;
        sp = NULL, spn = 0, splen = 0;
      }
    }
    i += cl;
  }
  if (wdn == 0) {
    if (cur + splen <= lim && spn)
      buf_put(o, sp, spn);
  } else {
    if (spn)
      buf_put(o, sp, spn);
    buf_put(o, wd, wdn);
  }
}

void render_wrap(Buf *out, const char *text, int width)
{
  if (width <= 0)
    width = 78;
  if (width <= 1) {
    buf_puts(out, text);
    return;
  }
  const char *p = text;
  bool first = true;
  for (;;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (!first)
      buf_putc(out, '\n');
    first = false;
    if (n > 0 && p[0] == ' ')
      buf_put(out, p, n);
    else
      wrap_line(out, p, n, (size_t)width - 1);
    if (!nl)
      break;
    p = nl + 1;
  }
}

/* Tool substitution, then wrapping (colour-free sentences). */
static void wrapt(const R *r, Buf *o, const char *s)
{
  Buf t, u;
  buf_init(&t, r->a);
  colt(r, &t, s);
  buf_init(&u, r->a);
  render_wrap(&u, buf_str(&t), r->width);
  buf_puts(o, buf_str(&u));
}

static void hrule(const R *r, Buf *o)
{
  Buf t;
  buf_init(&t, r->a);
  buf_puts(&t, "[dark_gray]\n");
  for (int i = 0; i < r->width - 1; i++)
    buf_puts(&t, "\xe2\x94\x80");
  col(r, o, buf_str(&t));
}

/* ---- Go's %q ---------------------------------------------------------- */

/* Decodes one UTF-8 sequence; returns its length, 0 when invalid. */
static int utf8_dec(const unsigned char *s, size_t n, uint32_t *cp)
{
  if (s[0] < 0x80) {
    *cp = s[0];
    return 1;
  }
  int len;
  uint32_t c, min;
  if ((s[0] & 0xE0) == 0xC0)
    len = 2, c = s[0] & 0x1Fu, min = 0x80;
  else if ((s[0] & 0xF0) == 0xE0)
    len = 3, c = s[0] & 0x0Fu, min = 0x800;
  else if ((s[0] & 0xF8) == 0xF0)
    len = 4, c = s[0] & 0x07u, min = 0x10000;
  else
    return 0;
  if ((size_t)len > n)
    return 0;
  for (int i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    c = (c << 6) | (s[i] & 0x3Fu);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return 0;
  *cp = c;
  return len;
}

/* Not printable for strconv.Quote (the common cases; see docs). */
static bool go_unprintable(uint32_t c)
{
  return c < 0x20 || (c >= 0x7F && c <= 0xA0) || c == 0xAD ||
         (c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F) ||
         (c >= 0x205F && c <= 0x206F) || c == 0x3000 || c == 0xFEFF ||
         (c >= 0xFFF9 && c <= 0xFFFB) || (c >= 0xE000 && c <= 0xF8FF);
}

static void go_quote(Buf *o, const char *s, size_t n)
{
  const unsigned char *u = (const unsigned char *)s;
  buf_putc(o, '"');
  for (size_t i = 0; i < n;) {
    uint32_t c;
    int l = utf8_dec(u + i, n - i, &c);
    if (l == 0) {
      buf_printf(o, "\\x%02x", u[i]);
      i++;
      continue;
    }
    i += (size_t)l;
    switch (c) {
    case '"': buf_puts(o, "\\\""); continue;
    case '\\': buf_puts(o, "\\\\"); continue;
    case '\a': buf_puts(o, "\\a"); continue;
    case '\b': buf_puts(o, "\\b"); continue;
    case '\f': buf_puts(o, "\\f"); continue;
    case '\n': buf_puts(o, "\\n"); continue;
    case '\r': buf_puts(o, "\\r"); continue;
    case '\t': buf_puts(o, "\\t"); continue;
    case '\v': buf_puts(o, "\\v"); continue;
    default: break;
    }
    if (go_unprintable(c)) {
      if (c < 0x80)
        buf_printf(o, "\\x%02x", (unsigned)c);
      else if (c < 0x10000)
        buf_printf(o, "\\u%04x", (unsigned)c);
      else
        buf_printf(o, "\\U%08x", (unsigned)c);
    } else {
      buf_put(o, s + i - (size_t)l, (size_t)l);
    }
  }
  buf_putc(o, '"');
}

/* hclsyntax.ValidIdentifier (ASCII letters, digits, _ and -; non-ASCII
** letters are accepted as letters). */
static bool valid_ident(const char *s)
{
  if (!*s)
    return false;
  unsigned char c = (unsigned char)s[0];
  if (!(c >= 0x80 || c == '_' || (c >= 'a' && c <= 'z') ||
        (c >= 'A' && c <= 'Z')))
    return false;
  for (s++; *s; s++) {
    c = (unsigned char)*s;
    if (!(c >= 0x80 || c == '_' || c == '-' || (c >= 'a' && c <= 'z') ||
          (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  }
  return true;
}

static const char *attr_name(const R *r, const char *name)
{
  if (valid_ident(name))
    return name;
  Buf b;
  buf_init(&b, r->a);
  go_quote(&b, name, strlen(name));
  return buf_str(&b);
}

static const char *quoted(const R *r, const char *s, size_t n)
{
  Buf b;
  buf_init(&b, r->a);
  go_quote(&b, s, n);
  return buf_str(&b);
}

/* %-*s: pads by characters to width (a byte length, as Go's callers
** measure it). */
static void put_padded(Buf *o, const char *s, size_t width)
{
  size_t n = strlen(s);
  buf_put(o, s, n);
  for (size_t c = utf8_count(s, n); c < width; c++)
    buf_putc(o, ' ');
}

/* ---- Replace-path matcher (attribute_path.PathMatcher, no propagate) -- */

typedef struct Matcher {
  const ValPath *p;      /* suffixes of the replace paths still in play */
  uint32_t n;
} Matcher;

static bool m_matches(Matcher m)
{
  for (uint32_t i = 0; i < m.n; i++)
    if (m.p[i].n == 0)
      return true;
  return false;
}

static Matcher m_key(const R *r, Matcher m, const char *key)
{
  Matcher c = {NULL, 0};
  if (!m.n)
    return c;
  ValPath *v = ARENA_NEW(r->a, ValPath, m.n);
  for (uint32_t i = 0; i < m.n; i++) {
    const ValPath *p = &m.p[i];
    if (p->n == 0)
      continue;
    const PathStep *s = &p->steps[0];
    if ((s->kind == PS_ATTR || s->kind == PS_KEY) && s->name &&
        !strcmp(s->name, key)) {
      v[c.n].steps = p->steps + 1;
      v[c.n].n = p->n - 1;
      c.n++;
    }
  }
  c.p = v;
  return c;
}

static Matcher m_index(const R *r, Matcher m, int64_t ix)
{
  Matcher c = {NULL, 0};
  if (!m.n)
    return c;
  ValPath *v = ARENA_NEW(r->a, ValPath, m.n);
  for (uint32_t i = 0; i < m.n; i++) {
    const ValPath *p = &m.p[i];
    if (p->n == 0)
      continue;
    const PathStep *s = &p->steps[0];
    bool hit = false;
    if (s->kind == PS_INDEX)
      hit = s->index == ix;
    else if (s->kind == PS_KEY && s->name) {
      char *end;
      long long k = strtoll(s->name, &end, 10);
      hit = *s->name && !*end && k == ix;
    }
    if (hit) {
      v[c.n].steps = p->steps + 1;
      v[c.n].n = p->n - 1;
      c.n++;
    }
  }
  c.p = v;
  return c;
}

/* ---- The change view (structured.Change) ------------------------------- */

typedef struct Chg {
  Value b, a;            /* type == NULL: slot absent */
  bool bexp, aexp;       /* explicit: the slot exists */
  bool bsens, asens;     /* sensitive at this level */
  bool unknown;          /* the after value is unknown */
  bool child_unknown;    /* CheckForUnknown's childUnknown: every child
                            attribute counts as unknown */
  bool nonlegacy;
  Matcher rp;
} Chg;

static bool v_nil(Value v)
{
  return !v.type || val_is_null(v);
}
static bool c_bnil(const Chg *c) { return v_nil(c->b); }
static bool c_anil(const Chg *c)
{
  return v_nil(c->a) || val_is_unknown(c->a);
}
/* A known, non-null value usable for its contents. */
static bool v_live(Value v)
{
  return v.type && !val_is_null(v) && !val_is_unknown(v);
}

static Chg chg_make(Value b, Value a, Matcher rp)
{
  Chg c;
  memset(&c, 0, sizeof c);
  c.b = b;
  c.a = a;
  c.bsens = b.type && val_is_sensitive(b);
  c.asens = a.type && val_is_sensitive(a);
  c.unknown = a.type && val_is_unknown(a);
  c.rp = rp;
  return c;
}

/* Member `key` of an object or map value; false when absent. */
static bool v_member(Value v, const char *key, Value *out)
{
  if (!v_live(v))
    return false;
  if (v.type->kind == TY_OBJECT) {
    int i = ty_attr_index(v.type, key);
    if (i < 0)
      return false;
    *out = v.u.elems[i];
    return true;
  }
  if (v.type->kind == TY_MAP) {
    bool f;
    Value x = val_map_get(v, key, strlen(key), &f);
    if (f)
      *out = x;
    return f;
  }
  return false;
}

static bool v_is_seq(Value v)
{
  return v_live(v) && (v.type->kind == TY_LIST || v.type->kind == TY_SET ||
                       v.type->kind == TY_TUPLE);
}
static bool v_is_map(Value v)
{
  return v_live(v) && (v.type->kind == TY_MAP || v.type->kind == TY_OBJECT);
}

/* ChangeMap.GetChild */
static Chg c_member(const R *r, const Chg *p, const char *key)
{
  Chg c;
  memset(&c, 0, sizeof c);
  Value x;
  if (v_member(p->b, key, &x)) {
    c.b = x;
    c.bexp = true;
    c.bsens = val_is_sensitive(x);
  }
  if (!p->unknown && v_member(p->a, key, &x)) {
    c.a = x;
    c.aexp = true;
    c.asens = val_is_sensitive(x);
    c.unknown = val_is_unknown(x);
    if (c.unknown) /* unknown members are absent from the JSON after */
      c.aexp = false;
  }
  if (p->child_unknown)
    c.unknown = true;
  c.rp = m_key(r, p->rp, key);
  c.nonlegacy = p->nonlegacy;
  return c;
}

static uint32_t v_len(Value v)
{
  return v_is_seq(v) ? v.len : 0;
}

/* ChangeSlice.GetChild (NonLegacySchema is not carried, as in Terraform) */
static Chg c_elem(const R *r, const Chg *p, int64_t bi, int64_t ai)
{
  Chg c;
  memset(&c, 0, sizeof c);
  bool bin = v_is_seq(p->b) && bi >= 0 && bi < (int64_t)p->b.len;
  bool ain = !p->unknown && v_is_seq(p->a) && ai >= 0 &&
             ai < (int64_t)p->a.len;
  if (bin) {
    c.b = p->b.u.elems[bi];
    c.bexp = true;
    c.bsens = val_is_sensitive(c.b);
  }
  if (ain) {
    c.a = p->a.u.elems[ai];
    c.aexp = true;
    c.asens = val_is_sensitive(c.a);
    c.unknown = val_is_unknown(c.a);
  }
  c.rp = m_index(r, p->rp, bin ? bi : ai);
  return c;
}

static Chg c_as_noop(Chg c)
{
  c.a = c.b;
  c.aexp = c.bexp;
  c.unknown = false;
  c.asens = c.bsens;
  c.child_unknown = false;
  return c;
}

static Chg c_as_delete(Chg c)
{
  c.a.type = NULL;
  c.aexp = false;
  c.unknown = false;
  c.asens = false;
  c.child_unknown = false;
  return c;
}

static Chg c_as_create(Chg c)
{
  c.b.type = NULL;
  c.bexp = false;
  c.bsens = false;
  return c;
}

/* ---- JSON-ish equality (reflect.DeepEqual of the JSON plan values) ---- */

static bool num_text_eq(const R *r, Value x, Value y)
{
  ArenaMark m = arena_mark(r->a);
  Buf a, b;
  buf_init(&a, r->a);
  buf_init(&b, r->a);
  val_num_format(&a, x);
  val_num_format(&b, y);
  bool eq = a.len == b.len && !memcmp(buf_str(&a), buf_str(&b), a.len);
  arena_rewind(r->a, m);
  return eq;
}

/* An unknown value is JSON null in arrays and absent in objects. */
static bool jeq(const R *r, Value x, Value y, int depth)
{
  bool xn = v_nil(x) || val_is_unknown(x);
  bool yn = v_nil(y) || val_is_unknown(y);
  if (xn || yn)
    return xn && yn;
  if (depth > 200)
    return false;
  TypeKind xk = x.type->kind, yk = y.type->kind;
  bool xo = xk == TY_OBJECT || xk == TY_MAP;
  bool yo = yk == TY_OBJECT || yk == TY_MAP;
  bool xa = xk == TY_LIST || xk == TY_SET || xk == TY_TUPLE;
  bool ya = yk == TY_LIST || yk == TY_SET || yk == TY_TUPLE;
  if (xa || ya) {
    if (!(xa && ya) || x.len != y.len)
      return false;
    for (uint32_t i = 0; i < x.len; i++)
      if (!jeq(r, x.u.elems[i], y.u.elems[i], depth + 1))
        return false;
    return true;
  }
  if (xo || yo) {
    if (!(xo && yo))
      return false;
    /* Compare present (non-unknown) members both ways. */
    for (int pass = 0; pass < 2; pass++) {
      Value s = pass ? y : x, t = pass ? x : y;
      uint32_t n = s.type->kind == TY_OBJECT ? s.type->n : s.len;
      for (uint32_t i = 0; i < n; i++) {
        const char *k;
        Value sv;
        if (s.type->kind == TY_OBJECT)
          k = s.type->names[i], sv = s.u.elems[i];
        else
          k = s.u.entries[i].key, sv = s.u.entries[i].val;
        if (val_is_unknown(sv))
          continue;
        Value tv;
        if (!v_member(t, k, &tv) || val_is_unknown(tv))
          return false;
        if (pass == 0 && !jeq(r, sv, tv, depth + 1))
          return false;
      }
    }
    return true;
  }
  if (xk != yk)
    return false;
  switch (xk) {
  case TY_STRING:
    return x.len == y.len && !memcmp(x.u.s, y.u.s, x.len);
  case TY_BOOL:
    return x.u.b == y.u.b;
  case TY_NUMBER:
    return num_text_eq(r, x, y);
  default:
    return false;
  }
}

/* ---- Diff tree ---------------------------------------------------------- */

typedef enum DKind {
  DK_PRIM, DK_UNKNOWN, DK_SENS, DK_SENSBLOCK, DK_WO, DK_TYPECHG,
  DK_LIST, DK_SET, DK_MAP, DK_OBJECT, DK_BLOCK
} DKind;

typedef struct Diff Diff;

typedef struct BGroup {
  const char *name;
  ProvNesting nest;
  Diff **el;
  const char **keys;     /* MAP nesting */
  uint32_t n;
  bool replace, bsens, asens, unknown;
} BGroup;

struct Diff {
  DKind kind;
  PlAction action;       /* NOOP, CREATE, UPDATE, DELETE */
  bool replace;
  /* DK_PRIM: the values (absent/null = nil) and the type drawn */
  Value b, a;
  TypeKind ptype;        /* TY_DYNAMIC: JSON null */
  /* DK_UNKNOWN (inner may be NULL), DK_SENS, DK_SENSBLOCK; DK_TYPECHG
  ** uses inner (before) and other (after) */
  Diff *inner, *other;
  bool bsens, asens;
  /* collections and blocks */
  Diff **el;
  const char **keys;     /* map keys / object and block attribute names */
  uint32_t n;
  bool context;          /* list: show context (List, not NestedList) */
  bool nested;           /* NestedMap/NestedSet/NestedObject flavours */
  BGroup *groups;
  uint32_t ngroups;
};

static Diff *d_new(const R *r, DKind k, PlAction act, bool replace)
{
  Diff *d = ARENA_NEW(r->a, Diff, 1);
  d->kind = k;
  d->action = act;
  d->replace = replace;
  return d;
}

/* collections.CompareActions */
static PlAction cmp_act(PlAction cur, PlAction next)
{
  if (next == PL_NOOP)
    return cur;
  return cur != next ? PL_UPDATE : cur;
}

/* GetDefaultActionForIteration */
static PlAction def_act(const Chg *c)
{
  bool bn = c_bnil(c), an = c_anil(c);
  if (bn && an)
    return PL_NOOP;
  if (bn)
    return PL_CREATE;
  if (an)
    return PL_DELETE;
  return PL_NOOP;
}

/* CalculateAction */
static PlAction calc_act(const R *r, const Chg *c)
{
  bool bn = c_bnil(c), an = c_anil(c);
  if (bn && !c->bexp && (!an || c->aexp))
    return PL_CREATE;
  if (an && !c->aexp && (!bn || c->bexp))
    return PL_DELETE;
  Value a = c->a;
  if (val_is_unknown(a))
    a.type = NULL;
  if (jeq(r, c->b, a, 0) && c->aexp == c->bexp && c->asens == c->bsens)
    return PL_NOOP;
  return PL_UPDATE;
}

/* Dynamic array of diff pointers in the scratch arena. */
typedef struct DVec {
  Diff **v;
  const char **k;
  uint32_t n, cap;
} DVec;

static void dv_push(const R *r, DVec *d, Diff *x, const char *key)
{
  if (d->n == d->cap) {
    uint32_t nc = d->cap ? d->cap * 2 : 8;
    d->v = arena_grow(r->a, d->v, sizeof(Diff *), _Alignof(Diff *), d->cap, nc);
    d->k = arena_grow(r->a, d->k, sizeof(char *), _Alignof(char *), d->cap, nc);
    d->cap = nc;
  }
  d->v[d->n] = x;
  d->k[d->n] = key;
  d->n++;
}

typedef struct KD {
  const char *k;
  Diff *d;
} KD;

static int cmp_kd(const void *x, const void *y)
{
  return strcmp(((const KD *)x)->k, ((const KD *)y)->k);
}

/* Sorts a keyed vector by key (renderers print members in name order). */
static void dv_sort(const R *r, DVec *d)
{
  KD *t = ARENA_NEW(r->a, KD, d->n + 1);
  for (uint32_t i = 0; i < d->n; i++)
    t[i].k = d->k[i], t[i].d = d->v[i];
  qsort(t, d->n, sizeof *t, cmp_kd);
  for (uint32_t i = 0; i < d->n; i++)
    d->k[i] = t[i].k, d->v[i] = t[i].d;
}

/* ---- Slices: LCS and ProcessSlice -------------------------------------- */

typedef void (*SliceFn)(const R *r, void *ctx, int64_t bi, int64_t ai);

/* The largest LCS table built; bigger lists match common prefix and suffix
** only, so the work stays linear. */
#define LCS_MAX_CELLS ((size_t)1 << 22)

typedef bool (*EqFn)(const R *r, const void *xs, uint32_t i, const void *ys,
                     uint32_t j);

/* Marks in inb/ina the positions of one longest common subsequence, with
** objchange.LongestCommonSubsequence's tie-breaking. */
static void lcs_mark(const R *r, const void *xs, uint32_t nx, const void *ys,
                     uint32_t ny, EqFn eq, uint8_t *inb, uint8_t *ina)
{
  uint32_t lo = 0, hx = nx, hy = ny;
  if (nx == 0 || ny == 0)
    return;
  if ((size_t)nx * ny > LCS_MAX_CELLS) {
    while (lo < nx && lo < ny && eq(r, xs, lo, ys, lo)) {
      inb[lo] = ina[lo] = 1;
      lo++;
    }
    while (hx > lo && hy > lo && eq(r, xs, hx - 1, ys, hy - 1)) {
      inb[hx - 1] = ina[hy - 1] = 1;
      hx--, hy--;
    }
    return;
  }
  size_t w = nx;
  uint32_t *c = ARENA_NEW(r->a, uint32_t, (size_t)nx * ny);
  uint8_t *e = ARENA_NEW(r->a, uint8_t, (size_t)nx * ny);
  for (uint32_t y = 0; y < ny; y++) {
    for (uint32_t x = 0; x < nx; x++) {
      bool q = eq(r, xs, x, ys, y);
      e[w * y + x] = q;
      if (q) {
        uint32_t prev = (x > 0 && y > 0) ? c[w * (y - 1) + (x - 1)] : 0;
        c[w * y + x] = prev + 1;
      } else {
        uint32_t px = x > 0 ? c[w * y + (x - 1)] : 0;
        uint32_t py = y > 0 ? c[w * (y - 1) + x] : 0;
        c[w * y + x] = px > py ? px : py;
      }
    }
  }
  int64_t x = nx - 1, y = ny - 1;
  while (x >= 0 && y >= 0) {
    if (e[w * (size_t)y + (size_t)x]) {
      inb[x] = ina[y] = 1;
      x--, y--;
      continue;
    }
    uint32_t xl = x > 0 ? c[w * (size_t)y + (size_t)(x - 1)] : 0;
    uint32_t yl = y > 0 ? c[w * (size_t)(y - 1) + (size_t)x] : 0;
    if (xl > yl)
      x--;
    else
      y--;
  }
}

/* collections.ProcessSlice, walking the LCS by position. */
static void process_slice(const R *r, const void *xs, uint32_t nx,
                          const void *ys, uint32_t ny, EqFn eq,
                          const bool *xobj, const bool *yobj, SliceFn fn,
                          void *ctx)
{
  uint8_t *kb = ARENA_NEW(r->a, uint8_t, nx + 1);
  uint8_t *ka = ARENA_NEW(r->a, uint8_t, ny + 1);
  lcs_mark(r, xs, nx, ys, ny, eq, kb, ka);
  uint32_t bi = 0, ai = 0;
  while (bi < nx || ai < ny) {
    while (bi < nx && !kb[bi]) {
      bool objd = xobj && yobj && xobj[bi] && ai < ny && yobj[ai] && !ka[ai];
      if (objd) {
        fn(r, ctx, bi, ai);
        bi++, ai++;
        continue;
      }
      fn(r, ctx, bi, ny);
      bi++;
    }
    while (ai < ny && !ka[ai]) {
      fn(r, ctx, nx, ai);
      ai++;
    }
    if (bi < nx && ai < ny) {
      fn(r, ctx, bi, ai);
      bi++, ai++;
    }
  }
}

static bool eq_vals(const R *r, const void *xs, uint32_t i, const void *ys,
                    uint32_t j)
{
  return jeq(r, ((const Value *)xs)[i], ((const Value *)ys)[j], 0);
}

/* ---- Differ ------------------------------------------------------------- */

static Diff *cd_type(const R *r, Chg c, const Type *t);
static Diff *cd_json(const R *r, Chg c);
static Diff *cd_block(const R *r, Chg c, const ProvBlockSchema *b);
static Diff *cd_nested(const R *r, Chg c, const ProvObjectSchema *o,
                       ProvNesting nest);

typedef Diff *(*InnerFn)(const R *r, Chg c, const void *arg, int extra);

/* CheckForSensitive: NULL when c is not sensitive at this level. */
static Diff *chk_sens(const R *r, const Chg *c, InnerFn fn, const void *arg,
                      int extra, DKind kind)
{
  if (!c->bsens && !c->asens)
    return NULL;
  Chg v = *c;
  v.bsens = v.asens = false;
  Diff *in = fn(r, v, arg, extra);
  PlAction act = in->action;
  bool null_noop = c_bnil(c) && !c->bexp && c_anil(c) && !c->aexp;
  if (act == PL_NOOP && c->bsens != c->asens && !null_noop)
    act = PL_UPDATE;
  Diff *d = d_new(r, kind, act, m_matches(c->rp));
  d->inner = in;
  d->bsens = c->bsens;
  d->asens = c->asens;
  return d;
}

/* CheckForUnknown with the typed differ's renderers. */
static Diff *chk_unknown(const R *r, const Chg *c, bool child_unknown,
                         InnerFn fn, const void *arg, int extra)
{
  if (!c->unknown)
    return NULL;
  Chg cur = *c;
  cur.aexp = true;
  Diff *d = d_new(r, DK_UNKNOWN, PL_NOOP, m_matches(c->rp));
  if (!c_bnil(c)) {
    Chg before = c_as_delete(cur);
    before.child_unknown = child_unknown;
    d->inner = fn(r, before, arg, extra);
  }
  d->action = calc_act(r, &cur);
  return d;
}

static Diff *fn_type(const R *r, Chg c, const void *arg, int extra)
{
  (void)extra;
  return cd_type(r, c, arg);
}
static Diff *fn_block(const R *r, Chg c, const void *arg, int extra)
{
  (void)extra;
  return cd_block(r, c, arg);
}
static Diff *fn_nested(const R *r, Chg c, const void *arg, int extra)
{
  return cd_nested(r, c, arg, (ProvNesting)extra);
}
static Diff *fn_json(const R *r, Chg c, const void *arg, int extra)
{
  (void)arg, (void)extra;
  return cd_json(r, c);
}

/* processSet: pairs equal elements (sorted sets: binary search), then
** before elements in order, then the unmatched after elements. */
typedef Diff *(*ElemFn)(const R *r, Chg c, const void *arg, int extra);

static void process_set(const R *r, const Chg *c, ElemFn fn, const void *arg,
                        int extra, DVec *out, PlAction *cur)
{
  uint32_t nb = v_len(c->b), na = c->unknown ? 0 : v_len(c->a);
  const Value *bv = nb ? c->b.u.elems : NULL;
  const Value *av = na ? c->a.u.elems : NULL;
  int64_t *fb = ARENA_NEW(r->a, int64_t, nb + 1);
  uint8_t *fa = ARENA_NEW(r->a, uint8_t, na + 1);
  for (uint32_t i = 0; i < nb; i++) {
    fb[i] = -1;
    /* Sets are in val_compare order: find the equal element, if any. */
    uint32_t lo = 0, hi = na;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (val_compare(av[mid], bv[i]) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (uint32_t j = lo; j < na && val_compare(av[j], bv[i]) == 0; j++) {
      if (fa[j] || val_is_unknown(av[j]))
        continue;
      if (jeq(r, bv[i], av[j], 0) &&
          val_is_sensitive(bv[i]) == val_is_sensitive(av[j])) {
        fb[i] = j;
        fa[j] = 1;
        break;
      }
    }
  }
  for (uint32_t i = 0; i < nb; i++) {
    Chg ch = c_elem(r, c, i, fb[i] >= 0 ? fb[i] : (int64_t)na);
    Diff *d = fn(r, ch, arg, extra);
    dv_push(r, out, d, NULL);
    *cur = cmp_act(*cur, d->action);
  }
  for (uint32_t j = 0; j < na; j++) {
    if (fa[j])
      continue;
    Chg ch = c_elem(r, c, nb, j);
    Diff *d = fn(r, ch, arg, extra);
    dv_push(r, out, d, NULL);
    *cur = cmp_act(*cur, d->action);
  }
}

/* Sorted union of the member names of before and after (maps, objects).
** explicit_only drops keys present only as unknown after members. */
static const char **member_keys(const R *r, const Chg *c, bool explicit_only,
                                uint32_t *n)
{
  DVec d = {0};
  Value vs[2] = {c->b, c->unknown ? (Value){0} : c->a};
  uint32_t nb = 0;
  for (int s = 0; s < 2; s++) {
    Value v = vs[s];
    if (!v_is_map(v))
      continue;
    uint32_t cnt = v.type->kind == TY_OBJECT ? v.type->n : v.len;
    for (uint32_t i = 0; i < cnt; i++) {
      const char *k = v.type->kind == TY_OBJECT ? v.type->names[i]
                                                : v.u.entries[i].key;
      Value mv = v.type->kind == TY_OBJECT ? v.u.elems[i] : v.u.entries[i].val;
      if (s == 1) {
        Value tmp;
        if (v_member(vs[0], k, &tmp))
          continue;
        if (explicit_only && val_is_unknown(mv))
          continue;
      }
      dv_push(r, &d, NULL, k);
    }
    if (s == 0)
      nb = d.n;
  }
  /* Both halves are sorted; merge them. */
  const char **out = ARENA_NEW(r->a, const char *, d.n + 1);
  uint32_t i = 0, j = nb, k = 0;
  while (i < nb || j < d.n) {
    if (j >= d.n || (i < nb && strcmp(d.k[i], d.k[j]) <= 0))
      out[k++] = d.k[i++];
    else
      out[k++] = d.k[j++];
  }
  *n = k;
  return out;
}

/* TransformMap's starting action. */
static PlAction map_start(const Chg *c)
{
  bool bm = v_is_map(c->b), am = !c->unknown && v_is_map(c->a);
  if (bm && !am)
    return PL_DELETE;
  if (!bm && am)
    return PL_CREATE;
  return PL_NOOP;
}

static PlAction slice_start(const Chg *c)
{
  bool bs = v_is_seq(c->b), as = !c->unknown && v_is_seq(c->a);
  if (bs && !as)
    return PL_DELETE;
  if (!bs && as)
    return PL_CREATE;
  return PL_NOOP;
}

typedef struct ListCtx {
  const Chg *c;
  const Type *elem;      /* typed list; NULL: JSON array */
  DVec *out;
  PlAction cur;
} ListCtx;

static void list_cb(const R *r, void *vctx, int64_t bi, int64_t ai)
{
  ListCtx *x = vctx;
  Chg ch = c_elem(r, x->c, bi, ai);
  Diff *d = x->elem ? cd_type(r, ch, x->elem) : cd_json(r, ch);
  dv_push(r, x->out, d, NULL);
  x->cur = cmp_act(x->cur, d->action);
}

static bool v_is_jobject(Value v)
{
  return v_live(v) &&
         (v.type->kind == TY_OBJECT || v.type->kind == TY_MAP);
}

/* Typed list or JSON array, with LCS. */
static Diff *cd_list(const R *r, const Chg *c, const Type *elem)
{
  DVec out = {0};
  ListCtx x = {c, elem, &out, slice_start(c)};
  uint32_t nb = v_len(c->b), na = c->unknown ? 0 : v_len(c->a);
  const Value *bv = nb ? c->b.u.elems : NULL;
  const Value *av = na ? c->a.u.elems : NULL;
  bool *bo = NULL, *ao = NULL;
  bool objs = elem ? elem->kind == TY_OBJECT : true;
  if (objs) {
    bo = ARENA_NEW(r->a, bool, nb + 1);
    ao = ARENA_NEW(r->a, bool, na + 1);
    for (uint32_t i = 0; i < nb; i++)
      bo[i] = elem ? true : v_is_jobject(bv[i]);
    for (uint32_t i = 0; i < na; i++)
      ao[i] = elem ? true : v_is_jobject(av[i]);
  }
  process_slice(r, bv, nb, av, na, eq_vals, bo, ao, list_cb, &x);
  Diff *d = d_new(r, DK_LIST, x.cur, elem ? m_matches(c->rp) : false);
  d->el = out.v;
  d->n = out.n;
  d->context = true;
  return d;
}

static Diff *cd_prim(const R *r, const Chg *c, TypeKind k, bool replace)
{
  Diff *d = d_new(r, DK_PRIM, calc_act(r, c), replace);
  d->b = c_bnil(c) ? (Value){0} : c->b;
  d->a = c_anil(c) ? (Value){0} : c->a;
  d->ptype = k;
  return d;
}

/* ComputeDiffForType */
static Diff *cd_type(const R *r, Chg c, const Type *t)
{
  if (!c.nonlegacy) {
    /* The legacy SDK cannot tell "" from null. */
    if (v_live(c.b) && c.b.type->kind == TY_STRING && c.b.len == 0)
      c.b = val_null(&ty_string);
    if (v_live(c.a) && c.a.type->kind == TY_STRING && c.a.len == 0)
      c.a = val_null(&ty_string);
  }
  Diff *d = chk_sens(r, &c, fn_type, t, 0, DK_SENS);
  if (d)
    return d;
  d = chk_unknown(r, &c, false, fn_type, t, 0);
  if (d)
    return d;
  /* Trust the values' own kinds when they disagree with the schema. */
  const Type *vt = v_live(c.b) ? c.b.type : v_live(c.a) ? c.a.type : NULL;
  if (!t || t->kind == TY_DYNAMIC || (vt && vt->kind != t->kind &&
                                      !(ty_is_collection(vt) &&
                                        ty_is_collection(t))))
    return cd_json(r, c);
  bool rep = m_matches(c.rp);
  switch (t->kind) {
  case TY_STRING:
  case TY_NUMBER:
  case TY_BOOL:
    return cd_prim(r, &c, t->kind, rep);
  case TY_OBJECT: {
    DVec out = {0};
    PlAction cur = def_act(&c);
    for (uint32_t i = 0; i < t->n; i++) {
      Chg ch = c_member(r, &c, t->names[i]);
      ch.bexp = ch.aexp = false;
      Diff *x = cd_type(r, ch, t->types[i]);
      if (x->action == PL_NOOP && c_bnil(&ch) && c_anil(&ch))
        continue;
      dv_push(r, &out, x, t->names[i]);
      cur = cmp_act(cur, x->action);
    }
    d = d_new(r, DK_OBJECT, cur, rep);
    d->el = out.v, d->keys = out.k, d->n = out.n;
    return d;
  }
  case TY_MAP: {
    DVec out = {0};
    PlAction cur = map_start(&c);
    uint32_t nk;
    const char **keys = member_keys(r, &c, false, &nk);
    for (uint32_t i = 0; i < nk; i++) {
      Chg ch = c_member(r, &c, keys[i]);
      Diff *x = cd_type(r, ch, t->elem);
      dv_push(r, &out, x, keys[i]);
      cur = cmp_act(cur, x->action);
    }
    d = d_new(r, DK_MAP, cur, rep);
    d->el = out.v, d->keys = out.k, d->n = out.n;
    return d;
  }
  case TY_LIST:
    if (vt && vt->kind != TY_LIST)
      return cd_json(r, c);
    return cd_list(r, &c, t->elem);
  case TY_TUPLE: {
    DVec out = {0};
    PlAction cur = def_act(&c);
    for (uint32_t i = 0; i < t->n; i++) {
      Chg ch = c_elem(r, &c, i, i);
      Diff *x = cd_type(r, ch, t->types[i]);
      dv_push(r, &out, x, NULL);
      cur = cmp_act(cur, x->action);
    }
    d = d_new(r, DK_LIST, cur, rep);
    d->el = out.v, d->n = out.n, d->context = true;
    return d;
  }
  case TY_SET: {
    if (vt && vt->kind != TY_SET)
      return cd_json(r, c);
    DVec out = {0};
    PlAction cur = def_act(&c);
    process_set(r, &c, fn_type, t->elem, 0, &out, &cur);
    d = d_new(r, DK_SET, cur, rep);
    d->el = out.v, d->n = out.n;
    return d;
  }
  default:
    return cd_json(r, c);
  }
}

/* jsondiff.Transform with RendererJsonOpts (outputs, dynamic values). */
typedef enum JT { JT_NULL, JT_BOOL, JT_NUM, JT_STR, JT_OBJ, JT_ARR } JT;

static JT jtype(Value v)
{
  if (!v_live(v))
    return JT_NULL;
  switch (v.type->kind) {
  case TY_BOOL: return JT_BOOL;
  case TY_NUMBER: return JT_NUM;
  case TY_STRING: return JT_STR;
  case TY_OBJECT:
  case TY_MAP: return JT_OBJ;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE: return JT_ARR;
  default: return JT_NULL;
  }
}

static Diff *json_update(const R *r, Chg c, JT t)
{
  switch (t) {
  case JT_NULL:
  case JT_BOOL:
  case JT_NUM:
  case JT_STR: {
    bool bm = c_bnil(&c) && !c.bexp, am = c_anil(&c) && !c.aexp;
    PlAction act;
    Value a = c.a;
    if (val_is_unknown(a))
      a.type = NULL;
    if (bm && !am)
      act = PL_CREATE;
    else if (!bm && am)
      act = PL_DELETE;
    else if (jeq(r, c.b, a, 0))
      act = PL_NOOP;
    else
      act = PL_UPDATE;
    Diff *d = d_new(r, DK_PRIM, act, false);
    d->b = c_bnil(&c) ? (Value){0} : c.b;
    d->a = c_anil(&c) ? (Value){0} : c.a;
    d->ptype = t == JT_BOOL ? TY_BOOL : t == JT_NUM ? TY_NUMBER
               : t == JT_STR ? TY_STRING : TY_DYNAMIC;
    return d;
  }
  case JT_OBJ: {
    DVec out = {0};
    PlAction cur = map_start(&c);
    uint32_t nk;
    const char **keys = member_keys(r, &c, false, &nk);
    for (uint32_t i = 0; i < nk; i++) {
      Chg ch = c_member(r, &c, keys[i]);
      Diff *x = cd_json(r, ch);
      dv_push(r, &out, x, keys[i]);
      cur = cmp_act(cur, x->action);
    }
    Diff *d = d_new(r, DK_OBJECT, cur, false);
    d->el = out.v, d->keys = out.k, d->n = out.n;
    return d;
  }
  case JT_ARR:
  default:
    return cd_list(r, &c, NULL);
  }
}

static Diff *cd_json(const R *r, Chg c)
{
  Diff *d = chk_sens(r, &c, fn_json, NULL, 0, DK_SENS);
  if (d)
    return d;
  if (c.unknown) {
    d = d_new(r, DK_UNKNOWN, PL_CREATE, false);
    if (!c_bnil(&c)) {
      Chg cur = c;
      cur.aexp = true;
      d->inner = cd_json(r, c_as_delete(cur));
      d->action = PL_UPDATE;
    }
    return d;
  }
  JT bt = jtype(c.b), at = jtype(c.a);
  bool deleted = at == JT_NULL && !c.aexp;
  bool created = bt == JT_NULL && !c.bexp;
  if (bt == at || created || deleted)
    return json_update(r, c, bt == JT_NULL ? at : bt);
  d = d_new(r, DK_TYPECHG, PL_UPDATE, false);
  d->inner = json_update(r, c_as_delete(c), bt);
  d->other = json_update(r, c_as_create(c), at);
  return d;
}

/* ---- Schema helpers ----------------------------------------------------- */

static bool type_has_dynamic(const Type *t)
{
  return t && ty_has_dynamic(t);
}

static bool block_nonlegacy(const ProvBlockSchema *b)
{
  for (uint32_t i = 0; i < b->nblocks; i++)
    if (b->blocks[i].nesting == PROV_NEST_MAP ||
        b->blocks[i].nesting == PROV_NEST_GROUP)
      return true;
  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *a = &b->attrs[i];
    if (a->nested)
      return true;
    const Type *t = a->type;
    if (!t)
      continue;
    if (type_has_dynamic(t) || t->kind == TY_TUPLE || t->kind == TY_OBJECT)
      return true;
    if (ty_is_collection(t) && t->elem && ty_is_collection(t->elem) &&
        t->elem->elem && !ty_is_primitive(t->elem->elem))
      return true;
  }
  return false;
}

static bool attrs_sensitive(const ProvAttrSchema *a, uint32_t n, int depth);

static bool block_contains_sensitive(const ProvBlockSchema *b, int depth)
{
  if (!b || depth > 64)
    return false;
  if (attrs_sensitive(b->attrs, b->nattrs, depth))
    return true;
  for (uint32_t i = 0; i < b->nblocks; i++)
    if (block_contains_sensitive(b->blocks[i].block, depth + 1))
      return true;
  return false;
}

static bool attrs_sensitive(const ProvAttrSchema *a, uint32_t n, int depth)
{
  for (uint32_t i = 0; i < n; i++) {
    if (a[i].flags & PROV_SENSITIVE)
      return true;
    if (a[i].nested && depth < 64 &&
        attrs_sensitive(a[i].nested->attrs, a[i].nested->nattrs, depth + 1))
      return true;
  }
  return false;
}

/* cty sets cannot hold marks: a set containing anything sensitive (by mark
** or by schema) is sensitive as a whole. */
static void hoist_set(Chg *c, bool schema_sens)
{
  if (v_is_seq(c->b) && (val_has_sensitive(c->b) ||
                         (schema_sens && c->b.len > 0)))
    c->bsens = true;
  if (!c->unknown && v_is_seq(c->a) &&
      (val_has_sensitive(c->a) || (schema_sens && c->a.len > 0)))
    c->asens = true;
}

/* Schema sensitivity of a member slot: marked whenever the slot exists. */
static void mark_schema_sens(Chg *c, const Chg *parent)
{
  if (v_live(parent->b))
    c->bsens = true;
  if (!parent->unknown && v_live(parent->a))
    c->asens = true;
}

/* computeDiffForWriteOnlyAttribute */
static Diff *cd_wo(const R *r, const Chg *blk, PlAction cur)
{
  Diff *d = d_new(r, DK_WO, cur == PL_UPDATE ? PL_NOOP : cur,
                  m_matches(blk->rp));
  d->bsens = blk->bsens || blk->asens;
  return d;
}

static Diff *cd_attr(const R *r, Chg c, const ProvAttrSchema *a)
{
  if (a->nested)
    return cd_nested(r, c, a->nested, a->nested->nesting);
  return cd_type(r, c, a->type);
}

/* processObject for nested attribute types (NestedObject renderer). */
static Diff *cd_nested_object(const R *r, const Chg *c,
                              const ProvObjectSchema *o)
{
  DVec out = {0};
  PlAction cur = def_act(c);
  for (uint32_t i = 0; i < o->nattrs; i++) {
    const ProvAttrSchema *at = &o->attrs[i];
    if (at->flags & PROV_WRITE_ONLY)
      continue;
    Chg ch = c_member(r, c, at->name);
    if (at->flags & PROV_SENSITIVE)
      mark_schema_sens(&ch, c);
    ch.bexp = ch.aexp = false;
    Diff *x = cd_attr(r, ch, at);
    if (x->action == PL_NOOP && c_bnil(&ch) && c_anil(&ch))
      continue;
    dv_push(r, &out, x, at->name);
    cur = cmp_act(cur, x->action);
  }
  for (uint32_t i = 0; i < o->nattrs; i++) {
    const ProvAttrSchema *at = &o->attrs[i];
    if (!(at->flags & PROV_WRITE_ONLY))
      continue;
    Chg ch = c_member(r, c, at->name);
    ch.bexp = ch.aexp = false;
    dv_push(r, &out, cd_wo(r, &ch, cur), at->name);
  }
  dv_sort(r, &out);
  Diff *d = d_new(r, DK_OBJECT, cur, m_matches(c->rp));
  d->el = out.v, d->keys = out.k, d->n = out.n;
  d->nested = true;
  return d;
}

static Diff *cd_nested(const R *r, Chg c, const ProvObjectSchema *o,
                       ProvNesting nest)
{
  if (nest == PROV_NEST_SET)
    hoist_set(&c, attrs_sensitive(o->attrs, o->nattrs, 0));
  Diff *d = chk_sens(r, &c, fn_nested, o, (int)nest, DK_SENS);
  if (d)
    return d;
  d = chk_unknown(r, &c, true, fn_nested, o, (int)nest);
  if (d)
    return d;
  bool rep = m_matches(c.rp);
  switch (nest) {
  case PROV_NEST_MAP: {
    DVec out = {0};
    PlAction cur = map_start(&c);
    uint32_t nk;
    const char **keys = member_keys(r, &c, true, &nk);
    for (uint32_t i = 0; i < nk; i++) {
      Chg ch = c_member(r, &c, keys[i]);
      Diff *x = cd_nested(r, ch, o, PROV_NEST_SINGLE);
      dv_push(r, &out, x, keys[i]);
      cur = cmp_act(cur, x->action);
    }
    d = d_new(r, DK_MAP, cur, rep);
    d->el = out.v, d->keys = out.k, d->n = out.n, d->nested = true;
    return d;
  }
  case PROV_NEST_LIST: {
    DVec out = {0};
    PlAction cur = def_act(&c);
    uint32_t nb = v_len(c.b), na = c.unknown ? 0 : v_len(c.a);
    for (uint32_t i = 0; i < nb || i < na; i++) {
      Diff *x = cd_nested(r, c_elem(r, &c, i, i), o, PROV_NEST_SINGLE);
      dv_push(r, &out, x, NULL);
      cur = cmp_act(cur, x->action);
    }
    d = d_new(r, DK_LIST, cur, rep);
    d->el = out.v, d->n = out.n;
    return d;
  }
  case PROV_NEST_SET: {
    DVec out = {0};
    PlAction cur = def_act(&c);
    process_set(r, &c, fn_nested, o, PROV_NEST_SINGLE, &out, &cur);
    d = d_new(r, DK_SET, cur, rep);
    d->el = out.v, d->n = out.n, d->nested = true;
    return d;
  }
  default:
    return cd_nested_object(r, &c, o);
  }
}

static int cmp_attr_name(const void *x, const void *y)
{
  const ProvAttrSchema *const *a = x, *const *b = y;
  return strcmp((*a)->name, (*b)->name);
}
static int cmp_block_name(const void *x, const void *y)
{
  const ProvNestedBlock *const *a = x, *const *b = y;
  return strcmp((*a)->type_name, (*b)->type_name);
}

static Diff *cd_block(const R *r, Chg c, const ProvBlockSchema *b)
{
  Diff *d = chk_sens(r, &c, fn_block, b, 0, DK_SENSBLOCK);
  if (d)
    return d;
  d = chk_unknown(r, &c, true, fn_block, b, 0);
  if (d)
    return d;
  c.nonlegacy = c.nonlegacy || block_nonlegacy(b);
  PlAction cur = def_act(&c);

  const ProvAttrSchema **as = ARENA_NEW(r->a, const ProvAttrSchema *,
                                        b->nattrs + 1);
  for (uint32_t i = 0; i < b->nattrs; i++)
    as[i] = &b->attrs[i];
  qsort(as, b->nattrs, sizeof *as, cmp_attr_name);
  DVec out = {0};
  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *at = as[i];
    if (at->flags & PROV_WRITE_ONLY)
      continue;
    Chg ch = c_member(r, &c, at->name);
    if (at->flags & PROV_SENSITIVE)
      mark_schema_sens(&ch, &c);
    ch.bexp = ch.aexp = false;
    Diff *x = cd_attr(r, ch, at);
    if (x->action == PL_NOOP && c_bnil(&ch) && c_anil(&ch))
      continue;
    dv_push(r, &out, x, at->name);
    cur = cmp_act(cur, x->action);
  }

  const ProvNestedBlock **bs = ARENA_NEW(r->a, const ProvNestedBlock *,
                                         b->nblocks + 1);
  for (uint32_t i = 0; i < b->nblocks; i++)
    bs[i] = &b->blocks[i];
  qsort(bs, b->nblocks, sizeof *bs, cmp_block_name);
  BGroup *gs = ARENA_NEW(r->a, BGroup, b->nblocks + 1);
  uint32_t ng = 0;
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const ProvNestedBlock *nb = bs[i];
    Chg ch = c_member(r, &c, nb->type_name);
    if (c.child_unknown) /* childUnknown names attributes only */
      ch.unknown = false;
    if (nb->nesting == PROV_NEST_SET)
      hoist_set(&ch, block_contains_sensitive(nb->block, 0));
    BGroup g;
    memset(&g, 0, sizeof g);
    g.name = nb->type_name;
    g.nest = nb->nesting;
    g.bsens = ch.bsens;
    g.asens = ch.asens;
    g.replace = m_matches(ch.rp);
    g.unknown = ch.unknown;
    DVec el = {0};
    PlAction act = def_act(&ch);
    switch (nb->nesting) {
    case PROV_NEST_SET:
      process_set(r, &ch, fn_block, nb->block, 0, &el, &act);
      break;
    case PROV_NEST_LIST: {
      uint32_t n1 = v_len(ch.b), n2 = ch.unknown ? 0 : v_len(ch.a);
      for (uint32_t k = 0; k < n1 || k < n2; k++) {
        Diff *x = cd_block(r, c_elem(r, &ch, k, k), nb->block);
        dv_push(r, &el, x, NULL);
        act = cmp_act(act, x->action);
      }
      break;
    }
    case PROV_NEST_MAP: {
      act = map_start(&ch);
      uint32_t nk;
      const char **keys = member_keys(r, &ch, true, &nk);
      for (uint32_t k = 0; k < nk; k++) {
        Diff *x = cd_block(r, c_member(r, &ch, keys[k]), nb->block);
        dv_push(r, &el, x, keys[k]);
        act = cmp_act(act, x->action);
      }
      break;
    }
    default: {
      Diff *x = cd_block(r, ch, nb->block);
      dv_push(r, &el, x, NULL);
      act = x->action;
      break;
    }
    }
    if (act == PL_NOOP && c_bnil(&ch) && c_anil(&ch) && !ch.unknown)
      continue;
    g.el = el.v, g.keys = el.k, g.n = el.n;
    gs[ng++] = g;
    cur = cmp_act(cur, act);
  }

  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *at = as[i];
    if (at->flags & PROV_WRITE_ONLY) {
      dv_push(r, &out, cd_wo(r, &c, cur), at->name);
    }
  }
  dv_sort(r, &out);
  d = d_new(r, DK_BLOCK, cur, m_matches(c.rp));
  d->el = out.v, d->keys = out.k, d->n = out.n;
  d->groups = gs, d->ngroups = ng;
  return d;
}

/* A schema built from a value's type, for changes without a schema: every
** attribute typed as the value says (or dynamic when the sides differ). */
static const ProvBlockSchema *generic_schema(const R *r, Value b, Value a)
{
  const Type *tb = v_live(b) ? b.type : NULL;
  const Type *ta = v_live(a) ? a.type : NULL;
  ProvBlockSchema *s = ARENA_NEW(r->a, ProvBlockSchema, 1);
  const Type *t = ta ? ta : tb;
  if (!t || t->kind != TY_OBJECT)
    return s;
  ProvAttrSchema *as = ARENA_NEW(r->a, ProvAttrSchema, t->n + 1);
  uint32_t n = 0;
  for (uint32_t i = 0; i < t->n; i++) {
    as[n].name = t->names[i];
    as[n].type = t->types[i];
    as[n].flags = PROV_OPTIONAL;
    if (ta && tb) {
      int k = ty_attr_index(tb, t->names[i]);
      if (k < 0 || !ty_equal(tb->types[k], t->types[i]))
        as[n].type = &ty_dynamic;
    }
    n++;
  }
  if (tb && ta && tb->kind == TY_OBJECT) {
    /* Attributes only in the before object. */
    ProvAttrSchema *more = ARENA_NEW(r->a, ProvAttrSchema, n + tb->n + 1);
    memcpy(more, as, n * sizeof *as);
    for (uint32_t i = 0; i < tb->n; i++) {
      if (ty_attr_index(ta, tb->names[i]) >= 0)
        continue;
      more[n].name = tb->names[i];
      more[n].type = &ty_dynamic;
      more[n].flags = PROV_OPTIONAL;
      n++;
    }
    as = more;
  }
  s->attrs = as;
  s->nattrs = n;
  return s;
}

/* ---- Drawing ------------------------------------------------------------ */

typedef struct ROpts {
  bool no_null_suffix;   /* OverrideNullSuffix */
  bool force_replace;    /* ForceForcesReplacement (not inherited) */
  bool forbid_replace;   /* ForbidForcesReplacement (not inherited) */
  bool show_unchanged;   /* ShowUnchangedChildren */
  bool hide_symbols;     /* HideDiffActionSymbols */
} ROpts;

static ROpts clone_opts(ROpts o)
{
  o.force_replace = o.forbid_replace = false;
  return o;
}

static const char *sym_markup(PlAction a)
{
  switch (a) {
  case PL_DELETE_THEN_CREATE: return "[red]-[reset]/[green]+[reset]";
  case PL_CREATE_THEN_DELETE: return "[green]+[reset]/[red]-[reset]";
  case PL_CREATE: return "  [green]+[reset]";
  case PL_DELETE: return "  [red]-[reset]";
  case PL_FORGET: return " [red].[reset]";
  case PL_READ: return " [cyan]<=[reset]";
  case PL_UPDATE: return "  [yellow]~[reset]";
  case PL_NOOP: return "   ";
  default: return "  ?";
  }
}

/* writeDiffActionSymbol */
static void sym(const R *r, Buf *o, PlAction a, ROpts op)
{
  if (op.hide_symbols)
    return;
  col(r, o, sym_markup(a));
  buf_putc(o, ' ');
}

static void null_suffix(const R *r, Buf *o, PlAction a, ROpts op)
{
  if (!op.no_null_suffix && a == PL_DELETE)
    col(r, o, " [dark_gray]-> null[reset]");
}

static void forces(const R *r, Buf *o, bool replace, ROpts op)
{
  if ((replace || op.force_replace) && !op.forbid_replace)
    col(r, o, " [red]# forces replacement[reset]");
}

/* The line `# (N unchanged KWs hidden)` inside a collection or block at
** indent ind; nothing when n is 0. */
static void unchanged(const R *r, Buf *o, int ind, ROpts op, const char *kw,
                      uint32_t n)
{
  if (n == 0)
    return;
  indent_to(o, ind + 1);
  sym(r, o, PL_NOOP, op);
  Buf t;
  buf_init(&t, r->a);
  buf_printf(&t, "[dark_gray]# (%u unchanged %s%s hidden)[reset]", n, kw,
             n == 1 ? "" : "s");
  col(r, o, buf_str(&t));
  buf_putc(o, '\n');
}

/* The closing bracket of a collection at indent ind, with its null
** suffix. */
static void close_coll(const R *r, Buf *o, const Diff *d, int ind, ROpts op,
                       char bracket)
{
  indent_to(o, ind);
  sym(r, o, PL_NOOP, op);
  buf_putc(o, bracket);
  null_suffix(r, o, d->action, op);
}

static void rd(const R *r, Buf *o, const Diff *d, int ind, ROpts op);

/* WarningsHuman, each written as formatIndent(ind) + warning + "\n". */
static void warnings(const R *r, Buf *o, const Diff *d, int ind)
{
  if ((d->kind != DK_SENS && d->kind != DK_SENSBLOCK) ||
      d->bsens == d->asens || !d->inner ||
      d->inner->action == PL_CREATE || d->inner->action == PL_DELETE)
    return;
  const char *what = d->kind == DK_SENS ? "attribute value" : "block";
  Buf t;
  buf_init(&t, r->a);
  if (d->bsens) {
    buf_printf(&t, "  # [yellow]Warning[reset]: this %s will no longer be "
               "marked as sensitive\n", what);
    indent_to(&t, ind);
    buf_puts(&t, "  # after applying this change.");
  } else {
    buf_printf(&t, "  # [yellow]Warning[reset]: this %s will be marked as "
               "sensitive and will not\n", what);
    indent_to(&t, ind);
    buf_puts(&t, "  # display in UI output after applying this change.");
  }
  indent_to(o, ind);
  col(r, o, buf_str(&t));
  if (d->kind == DK_SENS && d->inner->action == PL_NOOP)
    buf_puts(o, " The value is unchanged.");
  buf_putc(o, '\n');
}

static void put_number(Buf *o, Value v)
{
  val_num_format(o, v);
}

static void put_prim_value(const R *r, Buf *o, Value v, TypeKind k)
{
  if (!v.type) {
    col(r, o, "[dark_gray]null[reset]");
    return;
  }
  if (k == TY_BOOL)
    buf_puts(o, v.u.b ? "true" : "false");
  else if (k == TY_NUMBER)
    put_number(o, v);
  else if (k == TY_STRING)
    go_quote(o, v.u.s, v.len);
  else
    col(r, o, "[dark_gray]null[reset]");
}

/* evaluatePrimitiveString */
typedef struct EStr {
  const char *s;
  size_t n;
  bool null, multiline, json;
  Value jv;
} EStr;

static EStr eval_str(const R *r, Value v)
{
  EStr e;
  memset(&e, 0, sizeof e);
  if (!v.type || val_is_null(v) || v.type->kind != TY_STRING) {
    e.null = true;
    return e;
  }
  e.s = v.u.s;
  e.n = v.len;
  if (e.n && (e.s[0] == '{' || e.s[0] == '[')) {
    Arena tmp;
    arena_init(&tmp, 0);
    Diags dg;
    diag_init(&dg, &tmp);
    Value jv;
    bool ok = json_parse(r->a, e.s, e.n, &jv, &dg, NULL);
    arena_release(&tmp);
    if (ok) {
      e.json = true;
      e.jv = jv;
      return e;
    }
  }
  if (memchr(e.s, '\n', e.n)) {
    /* strings.TrimSpace */
    while (e.n && (e.s[0] == ' ' || e.s[0] == '\t' || e.s[0] == '\n' ||
                   e.s[0] == '\r' || e.s[0] == '\v' || e.s[0] == '\f'))
      e.s++, e.n--;
    while (e.n && (e.s[e.n - 1] == ' ' || e.s[e.n - 1] == '\t' ||
                   e.s[e.n - 1] == '\n' || e.s[e.n - 1] == '\r' ||
                   e.s[e.n - 1] == '\v' || e.s[e.n - 1] == '\f'))
      e.n--;
    e.multiline = true;
  }
  return e;
}

static void put_simple(const R *r, Buf *o, const EStr *e)
{
  if (e->null)
    col(r, o, "[dark_gray]null[reset]");
  else
    go_quote(o, e->s, e->n);
}

typedef struct Line {
  const char *s;
  size_t n;
} Line;

static Line *split_lines(const R *r, const char *s, size_t n, uint32_t *cnt)
{
  uint32_t k = 1;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '\n')
      k++;
  Line *l = ARENA_NEW(r->a, Line, k);
  uint32_t j = 0;
  size_t st = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i == n || s[i] == '\n') {
      l[j].s = s + st;
      l[j].n = i - st;
      j++;
      st = i + 1;
    }
  }
  *cnt = k;
  return l;
}

static bool eq_lines(const R *r, const void *xs, uint32_t i, const void *ys,
                     uint32_t j)
{
  (void)r;
  const Line *a = (const Line *)xs + i, *b = (const Line *)ys + j;
  return a->n == b->n && !memcmp(a->s, b->s, a->n);
}

typedef struct HereCtx {
  Buf *o;
  const Line *bl, *al;
  uint32_t nb, na;
  int ind;
  ROpts op;
  bool first;
} HereCtx;

static void here_line(const R *r, HereCtx *h, PlAction a, const Line *l)
{
  if (!h->first)
    buf_putc(h->o, '\n');
  h->first = false;
  indent_to(h->o, h->ind + 1);
  sym(r, h->o, a, h->op);
  buf_put(h->o, l->s, l->n);
}

static void here_cb(const R *r, void *vctx, int64_t bi, int64_t ai)
{
  HereCtx *h = vctx;
  if (bi < 0 || bi >= (int64_t)h->nb) {
    here_line(r, h, PL_CREATE, &h->al[ai]);
    return;
  }
  if (ai < 0 || ai >= (int64_t)h->na) {
    here_line(r, h, PL_DELETE, &h->bl[bi]);
    return;
  }
  if (!eq_lines(r, h->bl, (uint32_t)bi, h->al, (uint32_t)ai)) {
    here_line(r, h, PL_DELETE, &h->bl[bi]);
    here_line(r, h, PL_CREATE, &h->al[ai]);
    return;
  }
  here_line(r, h, PL_NOOP, &h->bl[bi]);
}

static void rd_json_string(const R *r, Buf *o, const Diff *d, int ind,
                           ROpts op, const EStr *b, const EStr *a)
{
  Chg c;
  memset(&c, 0, sizeof c);
  if (b)
    c.b = b->jv;
  if (a)
    c.a = a->jv;
  c.bexp = d->action != PL_CREATE;
  c.aexp = d->action != PL_DELETE;
  Diff *jd = cd_json(r, c);
  PlAction act = d->action;
  ROpts jo = clone_opts(op);
  jo.no_null_suffix = true;
  const char *ws = "";
  bool rep = false;
  if (jd->action == PL_NOOP && d->action == PL_UPDATE) {
    ws = d->replace ? " # whitespace changes force replacement"
                    : " # whitespace changes";
    jo.show_unchanged = true;
    act = PL_NOOP;
  } else {
    rep = true;
  }
  Buf t;
  buf_init(&t, r->a);
  rd(r, &t, jd, ind + 1, jo);
  if (d->action == PL_CREATE || d->action == PL_DELETE)
    act = PL_NOOP;
  if (memchr(buf_str(&t), '\n', t.len)) {
    buf_printf(o, "jsonencode(%s\n", ws);
    indent_to(o, ind + 1);
    sym(r, o, act, op);
    buf_puts(o, buf_str(&t));
    if (rep)
      forces(r, o, d->replace, op);
    buf_putc(o, '\n');
    indent_to(o, ind);
    sym(r, o, PL_NOOP, op);
    buf_putc(o, ')');
    null_suffix(r, o, d->action, op);
    return;
  }
  buf_puts(o, "jsonencode(");
  buf_puts(o, buf_str(&t));
  buf_printf(o, ")%s", ws);
  if (rep)
    forces(r, o, d->replace, op);
}

static void rd_string(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  HereCtx h;
  memset(&h, 0, sizeof h);
  h.o = NULL;
  Buf lines;
  buf_init(&lines, r->a);
  h.o = &lines;
  h.ind = ind;
  h.op = op;
  h.first = true;
  switch (d->action) {
  case PL_CREATE:
  case PL_NOOP: {
    EStr s = eval_str(r, d->a);
    if (s.json) {
      rd_json_string(r, o, d, ind, op, d->action == PL_NOOP ? &s : NULL, &s);
      return;
    }
    if (!s.multiline) {
      put_simple(r, o, &s);
      forces(r, o, d->replace, op);
      return;
    }
    uint32_t n;
    Line *l = split_lines(r, s.s, s.n, &n);
    for (uint32_t i = 0; i < n; i++)
      here_line(r, &h, PL_NOOP, &l[i]);
    break;
  }
  case PL_DELETE: {
    EStr s = eval_str(r, d->b);
    if (s.null) {
      put_simple(r, o, &s);
      forces(r, o, d->replace, op);
      return;
    }
    if (s.json) {
      rd_json_string(r, o, d, ind, op, &s, NULL);
      return;
    }
    if (!s.multiline) {
      put_simple(r, o, &s);
      null_suffix(r, o, d->action, op);
      forces(r, o, d->replace, op);
      return;
    }
    uint32_t n;
    Line *l = split_lines(r, s.s, s.n, &n);
    for (uint32_t i = 0; i < n; i++)
      here_line(r, &h, PL_NOOP, &l[i]);
    break;
  }
  default: {
    EStr bs = eval_str(r, d->b), as = eval_str(r, d->a);
    if (bs.json && as.json) {
      rd_json_string(r, o, d, ind, op, &bs, &as);
      return;
    }
    if (bs.json || as.json) {
      /* TypeChange(delete before, create after) */
      Diff *x = d_new(r, DK_PRIM, PL_DELETE, false);
      x->b = d->b, x->ptype = TY_STRING;
      Diff *y = d_new(r, DK_PRIM, PL_CREATE, false);
      y->a = d->a, y->ptype = TY_STRING;
      Diff *t = d_new(r, DK_TYPECHG, d->action, d->replace);
      t->inner = x, t->other = y;
      rd(r, o, t, ind, op);
      return;
    }
    if (!bs.multiline && !as.multiline) {
      put_simple(r, o, &bs);
      buf_putc(o, ' ');
      col(r, o, "[yellow]->[reset]");
      buf_putc(o, ' ');
      put_simple(r, o, &as);
      forces(r, o, d->replace, op);
      return;
    }
    if (bs.null || as.null) {
      /* Go would split "null"; draw it as one line each. */
      static const char nul[] = "null";
      if (bs.null)
        bs.s = nul, bs.n = 4;
      if (as.null)
        as.s = nul, as.n = 4;
    }
    uint32_t nb, na;
    h.bl = split_lines(r, bs.s, bs.n, &nb);
    h.al = split_lines(r, as.s, as.n, &na);
    h.nb = nb, h.na = na;
    process_slice(r, h.bl, nb, h.al, na, eq_lines, NULL, NULL, here_cb, &h);
    break;
  }
  }
  buf_puts(o, "<<-EOT");
  forces(r, o, d->replace, op);
  buf_putc(o, '\n');
  buf_puts(o, buf_str(&lines));
  buf_putc(o, '\n');
  indent_to(o, ind);
  sym(r, o, PL_NOOP, op);
  buf_puts(o, "EOT");
  null_suffix(r, o, d->action, op);
}

static void rd_prim(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  if (d->ptype == TY_STRING) {
    rd_string(r, o, d, ind, op);
    return;
  }
  switch (d->action) {
  case PL_CREATE:
    put_prim_value(r, o, d->a, d->ptype);
    forces(r, o, d->replace, op);
    break;
  case PL_DELETE:
    put_prim_value(r, o, d->b, d->ptype);
    null_suffix(r, o, d->action, op);
    forces(r, o, d->replace, op);
    break;
  case PL_NOOP:
    put_prim_value(r, o, d->b, d->ptype);
    forces(r, o, d->replace, op);
    break;
  default:
    put_prim_value(r, o, d->b, d->ptype);
    buf_putc(o, ' ');
    col(r, o, "[yellow]->[reset]");
    buf_putc(o, ' ');
    put_prim_value(r, o, d->a, d->ptype);
    forces(r, o, d->replace, op);
    break;
  }
}

static bool important(const char *k)
{
  return !strcmp(k, "id") || !strcmp(k, "name") || !strcmp(k, "tags");
}

/* One "name = value" line of an object or block. */
static void attr_line(const R *r, Buf *o, const Diff *x, const char *shown,
                      size_t width, int ind, ROpts op)
{
  warnings(r, o, x, ind + 1);
  indent_to(o, ind + 1);
  sym(r, o, x->action, op);
  put_padded(o, shown, width);
  buf_puts(o, " = ");
  rd(r, o, x, ind + 1, op);
  buf_putc(o, '\n');
}

static void rd_object(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  if (d->n == 0) {
    buf_puts(o, "{}");
    null_suffix(r, o, d->action, op);
    forces(r, o, d->replace, op);
    return;
  }
  ROpts ao = clone_opts(op);
  ao.no_null_suffix = !d->nested;
  const char **shown = ARENA_NEW(r->a, const char *, d->n);
  size_t w = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    shown[i] = attr_name(r, d->keys[i]);
    if (strlen(shown[i]) > w)
      w = strlen(shown[i]);
  }
  buf_putc(o, '{');
  forces(r, o, d->replace, op);
  buf_putc(o, '\n');
  uint32_t hidden = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    const Diff *x = d->el[i];
    if (important(d->keys[i])) {
      ROpts io = clone_opts(ao);
      io.show_unchanged = true;
      attr_line(r, o, x, shown[i], w, ind, io);
      continue;
    }
    if (x->action == PL_NOOP && !op.show_unchanged) {
      hidden++;
      continue;
    }
    attr_line(r, o, x, shown[i], w, ind, ao);
  }
  unchanged(r, o, ind, op, "attribute", hidden);
  close_coll(r, o, d, ind, op, '}');
}

static void rd_map(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  bool self = d->replace && !d->nested;
  bool kids = d->replace && d->nested;
  if (d->n == 0) {
    buf_puts(o, "{}");
    null_suffix(r, o, d->action, op);
    forces(r, o, self, op);
    return;
  }
  const char **shown = ARENA_NEW(r->a, const char *, d->n);
  size_t w = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    shown[i] = quoted(r, d->keys[i], strlen(d->keys[i]));
    if (strlen(shown[i]) > w)
      w = strlen(shown[i]);
  }
  ROpts eo = clone_opts(op);
  eo.no_null_suffix = d->action == PL_DELETE || d->nested;
  eo.force_replace = kids;
  buf_putc(o, '{');
  forces(r, o, self, op);
  buf_putc(o, '\n');
  uint32_t hidden = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    const Diff *x = d->el[i];
    if (x->action == PL_NOOP && !op.show_unchanged) {
      hidden++;
      continue;
    }
    warnings(r, o, x, ind + 1);
    indent_to(o, ind + 1);
    sym(r, o, x->action, eo);
    if (!d->nested)
      put_padded(o, shown[i], w);
    else
      buf_puts(o, shown[i]);
    buf_puts(o, " = ");
    rd(r, o, x, ind + 1, eo);
    if (x->kind == DK_OBJECT)
      buf_putc(o, ',');
    buf_putc(o, '\n');
  }
  unchanged(r, o, ind, op, "element", hidden);
  close_coll(r, o, d, ind, op, '}');
}

static void elem_line(const R *r, Buf *o, const Diff *x, int ind, ROpts op)
{
  warnings(r, o, x, ind + 1);
  indent_to(o, ind + 1);
  sym(r, o, x->action, op);
  rd(r, o, x, ind + 1, op);
  buf_puts(o, ",\n");
}

static void rd_list(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  if (d->n == 0) {
    buf_puts(o, "[]");
    null_suffix(r, o, d->action, op);
    forces(r, o, d->replace, op);
    return;
  }
  ROpts eo = clone_opts(op);
  eo.no_null_suffix = true;
  ROpts uo = clone_opts(op);
  uo.show_unchanged = true;
  uint32_t un_start = 0, un_n = 0;  /* pending run of unchanged elements */
  bool render_next = false;
  buf_putc(o, '[');
  forces(r, o, d->replace, op);
  buf_putc(o, '\n');
  for (uint32_t i = 0; i < d->n; i++) {
    const Diff *x = d->el[i];
    if (x->action == PL_NOOP && !render_next && !op.show_unchanged) {
      if (un_n == 0)
        un_start = i;
      un_n++;
      continue;
    }
    render_next = false;
    ROpts use = eo;
    if (d->context) {
      if (un_n > 1)
        unchanged(r, o, ind, eo, "element", un_n - 1);
      if (un_n > 0) {
        const Diff *last = d->el[un_start + un_n - 1];
        indent_to(o, ind + 1);
        sym(r, o, last->action, uo);
        rd(r, o, last, ind + 1, uo);
        buf_puts(o, ",\n");
      }
      un_n = 0;
      if (x->action == PL_NOOP)
        use = uo;
      else
        render_next = true;
    }
    elem_line(r, o, x, ind, use);
  }
  unchanged(r, o, ind, op, "element", un_n);
  close_coll(r, o, d, ind, op, ']');
}

static void rd_set(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  bool self = d->replace && !d->nested;
  bool kids = d->replace && d->nested;
  if (d->n == 0) {
    buf_puts(o, "[]");
    null_suffix(r, o, d->action, op);
    forces(r, o, self, op);
    return;
  }
  ROpts eo = clone_opts(op);
  eo.no_null_suffix = true;
  eo.force_replace = kids;
  buf_putc(o, '[');
  forces(r, o, self, op);
  buf_putc(o, '\n');
  uint32_t hidden = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    const Diff *x = d->el[i];
    if (x->action == PL_NOOP && !op.show_unchanged) {
      hidden++;
      continue;
    }
    elem_line(r, o, x, ind, eo);
  }
  unchanged(r, o, ind, op, "element", hidden);
  close_coll(r, o, d, ind, op, ']');
}

static void rd_sensblock(const R *r, Buf *o, const Diff *d, int ind,
                         ROpts op)
{
  buf_putc(o, '{');
  forces(r, o, d->replace, op);
  buf_putc(o, '\n');
  for (int i = 0; i < 2; i++) {
    indent_to(o, ind);
    sym(r, o, PL_NOOP, op);
    buf_puts(o, i == 0 ? "  # At least one attribute in this block is (or "
                         "was) sensitive,\n"
                       : "  # so its contents will not be displayed.\n");
  }
  indent_to(o, ind);
  sym(r, o, PL_NOOP, op);
  buf_putc(o, '}');
}

static void rd_block(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  if (d->n == 0 && d->ngroups == 0) {
    buf_puts(o, "{}");
    forces(r, o, d->replace, op);
    return;
  }
  size_t w = 0;
  const char **shown = ARENA_NEW(r->a, const char *, d->n + 1);
  for (uint32_t i = 0; i < d->n; i++) {
    shown[i] = attr_name(r, d->keys[i]);
    if (strlen(shown[i]) > w)
      w = strlen(shown[i]);
  }
  ROpts io = clone_opts(op);
  io.show_unchanged = true;
  ROpts ao = clone_opts(op);
  buf_putc(o, '{');
  forces(r, o, d->replace, op);
  buf_putc(o, '\n');
  uint32_t hidden = 0, hidden_blocks = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    const Diff *x = d->el[i];
    if (important(d->keys[i])) {
      attr_line(r, o, x, d->keys[i], w, ind, io);
      continue;
    }
    if (x->action == PL_NOOP && !op.show_unchanged) {
      hidden++;
      continue;
    }
    attr_line(r, o, x, shown[i], w, ind, ao);
  }
  unchanged(r, o, ind, op, "attribute", hidden);
  for (uint32_t g = 0; g < d->ngroups; g++) {
    const BGroup *gr = &d->groups[g];
    bool found = false;
    uint32_t total = gr->n;
    bool unknown_first = gr->unknown && gr->nest != PROV_NEST_SINGLE &&
                         gr->nest != PROV_NEST_GROUP;
    for (uint32_t k = 0; k < total + (unknown_first ? 1 : 0); k++) {
      const Diff *x;
      const char *mkey = NULL;
      if (unknown_first && k == 0) {
        Diff *u = d_new(r, DK_UNKNOWN, d->action, false);
        x = u;
      } else {
        uint32_t idx = k - (unknown_first ? 1 : 0);
        x = gr->el[idx];
        if (gr->nest == PROV_NEST_MAP)
          mkey = gr->keys[idx];
      }
      bool cs = x->action == PL_CREATE && gr->asens;
      bool ds = x->action == PL_DELETE && gr->bsens;
      bool ms = (x->action == PL_UPDATE || x->action == PL_NOOP) &&
                (gr->asens || gr->bsens);
      if (cs || ds || ms) {
        PlAction act = x->action;
        if (act == PL_NOOP && gr->bsens != gr->asens)
          act = PL_UPDATE;
        Diff *s = d_new(r, DK_SENSBLOCK, act, x->replace);
        s->inner = (Diff *)x;
        s->bsens = gr->bsens;
        s->asens = gr->asens;
        x = s;
      }
      if (x->action == PL_NOOP && !op.show_unchanged) {
        hidden_blocks++;
        continue;
      }
      if (!found && d->n > 0) {
        buf_putc(o, '\n');
        found = true;
      }
      ROpts bo = clone_opts(op);
      bo.force_replace = gr->replace;
      warnings(r, o, x, ind + 1);
      indent_to(o, ind + 1);
      sym(r, o, x->action, bo);
      buf_puts(o, attr_name(r, gr->name));
      if (mkey) {
        buf_putc(o, ' ');
        go_quote(o, mkey, strlen(mkey));
      }
      buf_putc(o, ' ');
      rd(r, o, x, ind + 1, bo);
      buf_putc(o, '\n');
    }
  }
  if (hidden_blocks) {
    buf_putc(o, '\n');
    unchanged(r, o, ind, op, "block", hidden_blocks);
  }
  indent_to(o, ind);
  sym(r, o, PL_NOOP, op);
  buf_putc(o, '}');
}

static void rd(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  switch (d->kind) {
  case DK_PRIM:
    rd_prim(r, o, d, ind, op);
    return;
  case DK_UNKNOWN:
    if (d->action == PL_CREATE || !d->inner) {
      buf_puts(o, "(known after apply)");
      forces(r, o, d->replace, op);
      return;
    } else {
      ROpts bo = clone_opts(op);
      bo.no_null_suffix = true;
      if (d->replace)
        bo.forbid_replace = true;
      rd(r, o, d->inner, ind, bo);
      buf_puts(o, " -> (known after apply)");
      forces(r, o, d->replace, op);
    }
    return;
  case DK_SENS:
    buf_puts(o, "(sensitive value)");
    null_suffix(r, o, d->action, op);
    forces(r, o, d->replace, op);
    return;
  case DK_SENSBLOCK:
    rd_sensblock(r, o, d, ind, op);
    return;
  case DK_WO:
    buf_puts(o, d->bsens ? "(sensitive, write-only attribute)"
                         : "(write-only attribute)");
    null_suffix(r, o, d->action, op);
    forces(r, o, d->replace, op);
    return;
  case DK_TYPECHG: {
    ROpts t = op;
    t.no_null_suffix = true;
    rd(r, o, d->inner, ind, t);
    buf_putc(o, ' ');
    col(r, o, "[yellow]->[reset]");
    buf_putc(o, ' ');
    rd(r, o, d->other, ind, t);
    return;
  }
  case DK_LIST:
    rd_list(r, o, d, ind, op);
    return;
  case DK_SET:
    rd_set(r, o, d, ind, op);
    return;
  case DK_MAP:
    rd_map(r, o, d, ind, op);
    return;
  case DK_OBJECT:
    rd_object(r, o, d, ind, op);
    return;
  case DK_BLOCK:
    rd_block(r, o, d, ind, op);
    return;
  }
}

/* ---- Resource changes --------------------------------------------------- */

static void r_init(R *r, Arena *a, const RenderOpts *o)
{
  arena_init(a, 0);
  r->a = a;
  r->color = o && o->color;
  r->tool = o && o->tool ? o->tool : "cairn";
  r->width = o && o->width > 0 ? o->width : 78;
  r->automation = o && o->automation;
}

static bool ch_moved(const PlChange *c)
{
  return c->prev_addr && *c->prev_addr && strcmp(c->prev_addr, c->addr);
}

/* The diff of one resource change (precomputeDiffs). */
static Diff *change_diff(const R *r, const PlChange *c)
{
  const ProvBlockSchema *s = c->schema ? c->schema
                                       : generic_schema(r, c->before, c->after);
  Matcher m = {NULL, 0};
  if (c->nreplace_paths) {
    m.p = c->replace_paths;
    m.n = c->nreplace_paths;
  }
  Value b = c->before, a = c->after;
  Chg ch = chg_make(b, a, m);
  /* The top-level values are not "explicit" in the JSON plan. */
  ch.bexp = ch.aexp = false;
  if (c->action == PL_FORGET)
    ch = c_as_noop(ch);
  return cd_block(r, ch, s);
}

static PlAction show_action(PlAction a)
{
  return a;
}

static void change_comment(const R *r, Buf *o, const PlChange *c, bool drift)
{
  Buf t;
  buf_init(&t, r->a);
  const char *disp = c->addr;
  if (c->deposed)
    disp = arena_printf(r->a, "%s (deposed object %s)", c->addr, c->deposed);
  bool moved = ch_moved(c), pm = false, pi = false;
  switch (c->action) {
  case PL_CREATE:
    buf_printf(&t, "[bold]  # %s[reset] will be created", disp);
    break;
  case PL_READ:
    buf_printf(&t, "[bold]  # %s[reset] will be read during apply", disp);
    if (c->reason == PL_REASON_READ_CONFIG_UNKNOWN)
      buf_puts(&t, "\n  # (config refers to values not yet known)");
    else if (c->reason == PL_REASON_READ_DEPENDENCY_PENDING)
      buf_puts(&t, "\n  # (depends on a resource or a module with changes "
                   "pending)");
    else if (c->reason == PL_REASON_READ_CHECK_NESTED)
      buf_puts(&t, "\n  # (config will be reloaded to verify a check block)");
    break;
  case PL_UPDATE:
    buf_printf(&t, drift ? "[bold]  # %s[reset] has changed"
                         : "[bold]  # %s[reset] will be updated in-place",
               disp);
    break;
  case PL_CREATE_THEN_DELETE:
  case PL_DELETE_THEN_CREATE:
    if (c->reason == PL_REASON_REPLACE_BECAUSE_TAINTED)
      buf_printf(&t, "[bold]  # %s[reset] is tainted, so must be "
                     "[bold][red]replaced[reset]", disp);
    else if (c->reason == PL_REASON_REPLACE_BY_REQUEST)
      buf_printf(&t, "[bold]  # %s[reset] will be [bold][red]replaced[reset]"
                     ", as requested", disp);
    else if (c->reason == PL_REASON_REPLACE_BY_TRIGGERS)
      buf_printf(&t, "[bold]  # %s[reset] will be [bold][red]replaced[reset]"
                     " due to changes in replace_triggered_by", disp);
    else
      buf_printf(&t, "[bold]  # %s[reset] must be [bold][red]replaced[reset]",
                 disp);
    break;
  case PL_FORGET:
    if (c->deposed) {
      buf_printf(&t, "[bold] # %s[reset] will be removed from Terraform "
                     "state, but [bold][red]will not be destroyed[reset]",
                 disp);
      buf_puts(&t, "\n[bold] # (left over from a partially-failed "
                   "replacement of this instance)");
    } else {
      buf_printf(&t, "[bold] # %s[reset] will no longer be managed by "
                     "Terraform, but [bold][red]will not be destroyed[reset]",
                 disp);
    }
    buf_puts(&t, "\n # (destroy = false is set in the configuration)");
    break;
  case PL_DELETE:
    if (drift)
      buf_printf(&t, "[bold]  # %s[reset] has been deleted", disp);
    else
      buf_printf(&t, "[bold]  # %s[reset] will be [bold][red]destroyed[reset]",
                 disp);
    switch (c->reason) {
    case PL_REASON_DELETE_NO_RESOURCE_CONFIG:
      buf_printf(&t, "\n  # (because %s.%s is not in configuration)", c->type,
                 c->name);
      break;
    case PL_REASON_DELETE_NO_MOVE_TARGET:
      buf_printf(&t, "\n  # (because %s was moved to %s, which is not in "
                     "configuration)", c->prev_addr ? c->prev_addr : "",
                 c->addr);
      break;
    case PL_REASON_DELETE_NO_MODULE:
      buf_printf(&t, "\n  # (because %s is not in configuration)",
                 c->module ? c->module : "");
      break;
    case PL_REASON_DELETE_WRONG_REPETITION:
      if (c->key.kind == ST_NOKEY)
        buf_puts(&t, "\n  # (because resource uses count or for_each)");
      else if (c->key.kind == ST_INTKEY)
        buf_puts(&t, "\n  # (because resource does not use count)");
      else
        buf_puts(&t, "\n  # (because resource does not use for_each)");
      break;
    case PL_REASON_DELETE_COUNT_INDEX:
      buf_printf(&t, "\n  # (because index [%lld] is out of range for count)",
                 (long long)c->key.i);
      break;
    case PL_REASON_DELETE_EACH_KEY:
      buf_puts(&t, "\n  # (because key [");
      if (c->key.kind == ST_STRKEY)
        json_write_string(&t, c->key.s, c->key.slen);
      else
        buf_printf(&t, "%lld", (long long)c->key.i);
      buf_puts(&t, "] is not in for_each map)");
      break;
    default:
      break;
    }
    if (c->deposed)
      buf_puts(&t, "\n  # (left over from a partially-failed replacement of "
                   "this instance)");
    break;
  case PL_NOOP:
    if (moved) {
      buf_printf(&t, "[bold]  # %s[reset] has moved to [bold]%s[reset]",
                 c->prev_addr, disp);
      pm = true;
      break;
    }
    if (c->importing) {
      buf_printf(&t, "[bold]  # %s[reset] will be imported", disp);
      pi = true;
      break;
    }
    buf_printf(&t, "%s has an action the plan renderer doesn't support "
                   "(this is a bug)", disp);
    break;
  default:
    buf_printf(&t, "%s has an action the plan renderer doesn't support "
                   "(this is a bug)", disp);
    break;
  }
  buf_putc(&t, '\n');
  if (moved && !pm)
    buf_printf(&t, "  # [reset](moved from %s)\n", c->prev_addr);
  if (c->importing && !pi) {
    if (c->import_id && *c->import_id)
      buf_printf(&t, "  # [reset](imported from \"%s\")\n", c->import_id);
    else
      buf_puts(&t, "  # [reset](will be imported first)\n");
  }
  if (c->importing && (c->action == PL_CREATE_THEN_DELETE ||
                       c->action == PL_DELETE_THEN_CREATE))
    buf_puts(&t, "  # [reset][yellow]Warning: this will destroy the imported "
                 "resource[reset]\n");
  /* Only "Terraform" in the forget wording is product text. */
  colt(r, o, buf_str(&t));
}

/* renderHumanDiff: false when there is nothing to say. */
static bool draw_change(const R *r, Buf *o, const PlChange *c, const Diff *d,
                        bool drift)
{
  if (c->action == PL_NOOP && !ch_moved(c) && !c->importing)
    return false;
  change_comment(r, o, c, drift);
  ROpts op;
  memset(&op, 0, sizeof op);
  op.show_unchanged = c->importing;
  col(r, o, sym_markup(show_action(c->action)));
  buf_printf(o, " %s ", c->mode == ST_DATA ? "data" : "resource");
  go_quote(o, c->type ? c->type : "", c->type ? strlen(c->type) : 0);
  buf_putc(o, ' ');
  go_quote(o, c->name ? c->name : "", c->name ? strlen(c->name) : 0);
  buf_putc(o, ' ');
  rd(r, o, d, 0, op);
  return true;
}

static void render_one(Buf *out, const PlChange *c, const RenderOpts *o,
                       bool drift)
{
  Arena a;
  R r;
  r_init(&r, &a, o);
  Buf t;
  buf_init(&t, &a);
  Diff *d = change_diff(&r, c);
  if (draw_change(&r, &t, c, d, drift)) {
    buf_putc(&t, '\n');
    buf_put(out, t.p, t.len);
  }
  arena_release(&a);
}

void render_change(Buf *out, const PlChange *c, const RenderOpts *o)
{
  render_one(out, c, o, false);
}

void render_drift(Buf *out, const PlChange *c, const RenderOpts *o)
{
  render_one(out, c, o, true);
}

/* ---- Outputs ------------------------------------------------------------ */

static Diff *output_diff(const R *r, const PlOutput *po)
{
  Matcher m = {NULL, 0};
  Chg c = chg_make(po->before, po->after, m);
  c.bexp = c.aexp = false;
  if (po->sensitive)
    c.bsens = c.asens = true;
  return cd_json(r, c);
}

/* ---- The whole plan ----------------------------------------------------- */

void render_plan(Buf *out, const Plan *p, const RenderOpts *o)
{
  Arena ar;
  R r;
  r_init(&r, &ar, o);
  Buf t;
  buf_init(&t, &ar);
  Buf *w = &t;
  bool refresh_only = p->mode == PL_MODE_REFRESH_ONLY;

  Diff **cd = ARENA_NEW(&ar, Diff *, p->nchanges + 1);
  for (uint32_t i = 0; i < p->nchanges; i++)
    cd[i] = change_diff(&r, &p->changes[i]);
  Diff **od = ARENA_NEW(&ar, Diff *, p->noutputs + 1);
  for (uint32_t i = 0; i < p->noutputs; i++)
    od[i] = output_diff(&r, &p->outputs[i]);

  bool empty = true;
  for (uint32_t i = 0; i < p->nchanges; i++)
    if (cd[i]->action != PL_NOOP || ch_moved(&p->changes[i]))
      empty = false;
  for (uint32_t i = 0; i < p->noutputs; i++)
    if (od[i]->action != PL_NOOP)
      empty = false;

  /* Drift. */
  bool have_refresh = false;
  {
    uint32_t nd = 0;
    Diff **dd = ARENA_NEW(&ar, Diff *, p->ndrift + 1);
    const PlChange **dc = ARENA_NEW(&ar, const PlChange *, p->ndrift + 1);
    for (uint32_t i = 0; i < p->ndrift; i++) {
      Diff *x = change_diff(&r, &p->drift[i]);
      if (!refresh_only && x->action == PL_NOOP)
        continue;
      dd[nd] = x;
      dc[nd++] = &p->drift[i];
    }
    if (nd > 0 && (!empty || refresh_only)) {
      have_refresh = true;
      colt(&r, w, "\n[bold][cyan]Note:[reset][bold] Objects have changed "
                  "outside of Terraform\n");
      buf_putc(w, '\n');
      wrapt(&r, w, "Terraform detected the following changes made outside "
                   "of Terraform since the last \"terraform apply\" which "
                   "may have affected this plan:\n");
      for (uint32_t i = 0; i < nd; i++) {
        Buf one;
        buf_init(&one, &ar);
        if (draw_change(&r, &one, dc[i], dd[i], true)) {
          buf_putc(w, '\n');
          buf_puts(w, buf_str(&one));
          buf_putc(w, '\n');
        }
      }
      if (refresh_only)
        wrapt(&r, w, "\n\nThis is a refresh-only plan, so Terraform will not "
                     "take any actions to undo these. If you were expecting "
                     "these changes then you can apply this plan to record "
                     "the updated values in the Terraform state without "
                     "changing any remote objects.");
      else
        wrapt(&r, w, "\n\nUnless you have made equivalent changes to your "
                     "configuration, or ignored the relevant attributes "
                     "using ignore_changes, the following plan may include "
                     "actions to undo or respond to these changes.");
      buf_putc(w, '\n');
    }
  }

  /* Changes to draw and their counts. */
  uint32_t counts[PL_FORGET + 1] = {0};
  uint32_t ncounted = 0, importing = 0, nshow = 0;
  bool will_print = false;
  uint32_t *show = ARENA_NEW(&ar, uint32_t, p->nchanges + 1);
  for (uint32_t i = 0; i < p->nchanges; i++) {
    const PlChange *c = &p->changes[i];
    if (c->action == PL_NOOP && !ch_moved(c) && !c->importing)
      continue;
    if (c->action == PL_DELETE && c->mode != ST_MANAGED)
      continue;
    show[nshow++] = i;
    if (c->importing)
      importing++;
    if (c->action != PL_NOOP && c->action <= PL_FORGET) {
      will_print = true;
      if (counts[c->action]++ == 0)
        ncounted++;
    }
  }

  /* Outputs text. */
  Buf outs;
  buf_init(&outs, &ar);
  {
    size_t kw = 0;
    for (uint32_t i = 0; i < p->noutputs; i++) {
      size_t l = strlen(attr_name(&r, p->outputs[i].name));
      if (l > kw)
        kw = l;
    }
    bool first = true;
    for (uint32_t i = 0; i < p->noutputs; i++) {
      if (od[i]->action == PL_NOOP)
        continue;
      if (!first)
        buf_putc(&outs, '\n');
      first = false;
      col(&r, &outs, sym_markup(od[i]->action));
      buf_putc(&outs, ' ');
      put_padded(&outs, attr_name(&r, p->outputs[i].name), kw);
      buf_puts(&outs, " = ");
      ROpts op;
      memset(&op, 0, sizeof op);
      rd(&r, &outs, od[i], 0, op);
    }
  }

  if (nshow == 0 && outs.len == 0) {
    if (p->errored) {
      if (have_refresh) {
        hrule(&r, w);
        buf_putc(w, '\n');
      }
      colt(&r, w, "\n[reset][bold][red]Planning failed.[reset][bold] "
                  "Terraform encountered an error while generating this "
                  "plan.[reset]\n\n");
    } else if (refresh_only) {
      if (!have_refresh) {
        col(&r, w, "\n[reset][bold][green]No changes.[reset][bold] Your "
                   "infrastructure still matches the configuration.[reset]"
                   "\n\n");
        wrapt(&r, w, "Terraform has checked that the real remote objects "
                     "still match the result of your most recent changes, "
                     "and found no differences.");
        buf_putc(w, '\n');
      }
      goto done;
    } else if (p->mode == PL_MODE_DESTROY) {
      if (have_refresh) {
        hrule(&r, w);
        buf_putc(w, '\n');
      }
      col(&r, w, "\n[reset][bold][green]No changes.[reset][bold] No objects "
                 "need to be destroyed.[reset]\n\n");
      wrapt(&r, w, "Either you have not created any objects yet or the "
                   "existing objects were already deleted outside of "
                   "Terraform.");
      buf_putc(w, '\n');
    } else {
      if (have_refresh) {
        hrule(&r, w);
        buf_putc(w, '\n');
      }
      col(&r, w, "\n[reset][bold][green]No changes.[reset][bold] Your "
                 "infrastructure matches the configuration.[reset]\n\n");
      if (have_refresh) {
        if (p->applyable) {
          wrapt(&r, w, "Your configuration already matches the changes "
                       "detected above, so applying this plan will only "
                       "update the state to include the changes detected "
                       "above and won't change any real infrastructure.");
        } else if (r.automation) {
          wrapt(&r, w, "Your configuration already matches the changes "
                       "detected above. If you'd like to update the "
                       "Terraform state to match, create and apply a "
                       "refresh-only plan.");
        } else {
          wrapt(&r, w, "Your configuration already matches the changes "
                       "detected above. If you'd like to update the "
                       "Terraform state to match, create and apply a "
                       "refresh-only plan:\n  terraform apply -refresh-only");
        }
        buf_putc(w, '\n');
        goto done;
      }
      wrapt(&r, w, "Terraform has compared your real infrastructure against "
                   "your configuration and found no differences, so no "
                   "changes are needed.");
      buf_putc(w, '\n');
    }
  }

  if (have_refresh) {
    hrule(&r, w);
    buf_putc(w, '\n');
  }

  if (will_print) {
    wrapt(&r, w, "\nTerraform used the selected providers to generate the "
                 "following execution plan. Resource actions are indicated "
                 "with the following symbols:");
    buf_putc(w, '\n');
    static const struct {
      PlAction a;
      const char *text;
    } legend[] = {
      {PL_CREATE, "  [green]+[reset] create"},
      {PL_UPDATE, "  [yellow]~[reset] update in-place"},
      {PL_DELETE, "  [red]-[reset] destroy"},
      {PL_DELETE_THEN_CREATE,
       "[red]-[reset]/[green]+[reset] destroy and then create replacement"},
      {PL_CREATE_THEN_DELETE,
       "[green]+[reset]/[red]-[reset] create replacement and then destroy"},
      {PL_READ, " [cyan]<=[reset] read (data resources)"},
    };
    for (size_t i = 0; i < sizeof legend / sizeof legend[0]; i++) {
      if (counts[legend[i].a]) {
        col(&r, w, legend[i].text);
        buf_putc(w, '\n');
      }
    }
  }

  if (nshow > 0) {
    if (p->errored)
      colt(&r, w, "\nTerraform planned the following actions, but then "
                  "encountered a problem:\n");
    else
      colt(&r, w, "\nTerraform will perform the following actions:\n");
    for (uint32_t k = 0; k < nshow; k++) {
      uint32_t i = show[k];
      Buf one;
      buf_init(&one, &ar);
      if (draw_change(&r, &one, &p->changes[i], cd[i], false)) {
        buf_putc(w, '\n');
        buf_puts(w, buf_str(&one));
        buf_putc(w, '\n');
      }
    }
    col(&r, w, "\n[bold]Plan:[reset] ");
    if (importing)
      buf_printf(w, "%u to import, ", importing);
    buf_printf(w, "%u to add, %u to change, %u to destroy",
               counts[PL_CREATE] + counts[PL_DELETE_THEN_CREATE] +
                   counts[PL_CREATE_THEN_DELETE],
               counts[PL_UPDATE],
               counts[PL_DELETE] + counts[PL_DELETE_THEN_CREATE] +
                   counts[PL_CREATE_THEN_DELETE]);
    if (counts[PL_FORGET])
      buf_printf(w, ", %u to forget", counts[PL_FORGET]);
    buf_puts(w, ".\n");
  }

  if (outs.len > 0) {
    buf_puts(w, "\nChanges to Outputs:\n");
    buf_puts(w, buf_str(&outs));
    buf_putc(w, '\n');
    if (ncounted == 0) {
      wrapt(&r, w, "\nYou can apply this plan to save these new output "
                   "values to the Terraform state, without changing any "
                   "real infrastructure.");
      buf_putc(w, '\n');
    }
  }

done:
  buf_put(out, t.p ? t.p : "", t.len);
  arena_release(&ar);
}

/* ---- State objects and values ------------------------------------------- */

void render_object(Buf *out, const char *addr, StMode mode, const char *type,
                   const char *name, const char *deposed, bool tainted,
                   Value obj, const ProvBlockSchema *schema,
                   const RenderOpts *o)
{
  Arena ar;
  R r;
  r_init(&r, &ar, o);
  Buf t;
  buf_init(&t, &ar);
  if (deposed)
    buf_printf(&t, "# %s: (deposed object %s)\n", addr, deposed);
  else if (tainted)
    buf_printf(&t, "# %s: (tainted)\n", addr);
  else
    buf_printf(&t, "# %s:\n", addr);
  const ProvBlockSchema *s = schema ? schema : generic_schema(&r, obj, obj);
  Matcher m = {NULL, 0};
  Chg c = chg_make(obj, obj, m);
  c.bexp = c.aexp = false;
  c.unknown = false;
  Diff *d = cd_block(&r, c, s);
  ROpts op;
  memset(&op, 0, sizeof op);
  op.show_unchanged = true;
  op.hide_symbols = true;
  buf_printf(&t, "%s ", mode == ST_DATA ? "data" : "resource");
  go_quote(&t, type ? type : "", type ? strlen(type) : 0);
  buf_putc(&t, ' ');
  go_quote(&t, name ? name : "", name ? strlen(name) : 0);
  buf_putc(&t, ' ');
  rd(&r, &t, d, 0, op);
  buf_putc(&t, '\n');
  buf_put(out, t.p, t.len);
  arena_release(&ar);
}

void render_value(Buf *out, Value v, bool sensitive, int indent,
                  const RenderOpts *o)
{
  Arena ar;
  R r;
  r_init(&r, &ar, o);
  Buf t;
  buf_init(&t, &ar);
  Matcher m = {NULL, 0};
  Chg c = chg_make(v, v, m);
  c.unknown = false;
  if (sensitive)
    c.bsens = c.asens = true;
  Diff *d = v.type && v.type->kind != TY_DYNAMIC ? cd_type(&r, c, v.type)
                                                 : cd_json(&r, c);
  ROpts op;
  memset(&op, 0, sizeof op);
  op.show_unchanged = true;
  op.hide_symbols = true;
  rd(&r, &t, d, indent, op);
  buf_put(out, t.p ? t.p : "", t.len);
  arena_release(&ar);
}
