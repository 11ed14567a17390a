/*
** funcs_yaml: yamldecode, for a YAML 1.2 subset (docs/functions.md).
**
** Supported: block mappings and sequences (including "- key: v" compact
** nesting and sequences at their key's indentation), flow [..] and {..}
** on one line, plain / single-quoted / double-quoted scalars, literal |
** and folded > block scalars (with - and + chomping), comments, one
** document with optional "---" / "..." markers.  Like go-cty-yaml,
** mappings become objects and sequences tuples; plain scalars resolve to
** null, bool, number or string by the YAML core schema.  Anchors,
** aliases, tags and multiple documents are errors.
*/
#include <string.h>

#include "funcs_impl.h"

typedef struct Line {
  int indent;
  const char *s;     /* content after the indentation, comments removed */
  size_t n;
  int no;            /* 1-based line number */
} Line;

typedef struct Y {
  FnCall *c;
  Line *lines;
  int nlines, cur;
  const char *err;
  int depth;
} Y;

static bool yfail(Y *y, int line, const char *msg)
{
  if (!y->err)
    y->err = arena_printf(y->c->arena, "on line %d: %s", line, msg);
  return false;
}

/* Removes a trailing comment (a '#' at the start or after a space,
** outside quotes) and trailing spaces. */
static size_t strip_comment(const char *s, size_t n)
{
  char q = 0;
  int depth = 0;
  for (size_t i = 0; i < n; i++) {
    char ch = s[i];
    if (q) {
      if (ch == q) {
        if (q == '\'' && i + 1 < n && s[i + 1] == '\'')
          i++;
        else
          q = 0;
      } else if (q == '"' && ch == '\\') {
        i++;
      }
      continue;
    }
    if ((ch == '"' || ch == '\'') &&
        (i == 0 || s[i - 1] == ' ' || s[i - 1] == '[' || s[i - 1] == '{' ||
         s[i - 1] == ',' || s[i - 1] == ':' || depth))
      q = ch;
    else if (ch == '[' || ch == '{')
      depth++;
    else if (ch == ']' || ch == '}')
      depth--;
    else if (ch == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
      n = i;
      break;
    }
  }
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    n--;
  return n;
}

/* ---- Scalars ----------------------------------------------------------------- */

static bool all_digits(const char *s, size_t n, const char *set)
{
  if (n == 0)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!strchr(set, s[i]))
      return false;
  return true;
}

static Value plain_scalar(Y *y, const char *s, size_t n)
{
  Arena *a = y->c->arena;
  if (n == 0 || (n == 1 && s[0] == '~') ||
      (n == 4 && (!memcmp(s, "null", 4) || !memcmp(s, "Null", 4) ||
                  !memcmp(s, "NULL", 4))))
    return val_dynamic_null;
  if ((n == 4 && (!memcmp(s, "true", 4) || !memcmp(s, "True", 4) ||
                  !memcmp(s, "TRUE", 4))))
    return val_true;
  if ((n == 5 && (!memcmp(s, "false", 5) || !memcmp(s, "False", 5) ||
                  !memcmp(s, "FALSE", 5))))
    return val_false;
  size_t k = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (n > k + 2 && s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'o') &&
      all_digits(s + k + 2, n - k - 2,
                 s[k + 1] == 'x' ? "0123456789abcdefABCDEF" : "01234567")) {
    uint64_t v = 0;
    unsigned base = s[k + 1] == 'x' ? 16 : 8;
    bool ovf = false;
    for (size_t i = k + 2; i < n; i++) {
      char ch = s[i];
      unsigned d = (unsigned)(ch <= '9' ? ch - '0' : (ch | 32) - 'a' + 10);
      if (v > (UINT64_MAX - d) / base)
        ovf = true;
      v = v * base + d;
    }
    if (!ovf && v <= (uint64_t)INT64_MAX)
      return val_int(s[0] == '-' ? -(int64_t)v : (int64_t)v);
  }
  /* Decimal numbers per the core schema. */
  size_t i = k;
  bool digits = false, ok = true;
  while (i < n && s[i] >= '0' && s[i] <= '9')
    i++, digits = true;
  if (i < n && s[i] == '.') {
    i++;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++, digits = true;
  }
  if (digits && i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-'))
      i++;
    size_t es = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++;
    ok = i > es;
  }
  Value num;
  if (digits && ok && i == n &&
      val_parse_number(a, s[0] == '+' ? s + 1 : s, s[0] == '+' ? n - 1 : n,
                       false, &num))
    return num;
  return val_str(a, s, n);
}

static bool quoted_scalar(Y *y, int line, const char *s, size_t n,
                          size_t *used, Value *out)
{
  Buf b;
  buf_init(&b, y->c->arena);
  char q = s[0];
  size_t i = 1;
  for (;;) {
    if (i >= n)
      return yfail(y, line, "found unexpected end of stream while scanning "
                            "a quoted scalar");
    char ch = s[i];
    if (ch == q) {
      if (q == '\'' && i + 1 < n && s[i + 1] == '\'') {
        buf_putc(&b, '\'');
        i += 2;
        continue;
      }
      i++;
      break;
    }
    if (q == '"' && ch == '\\') {
      if (i + 1 >= n)
        return yfail(y, line, "found unexpected end of stream");
      char e = s[i + 1];
      i += 2;
      switch (e) {
      case 'n': buf_putc(&b, '\n'); break;
      case 't': buf_putc(&b, '\t'); break;
      case 'r': buf_putc(&b, '\r'); break;
      case '0': buf_putc(&b, 0); break;
      case '"': buf_putc(&b, '"'); break;
      case '\\': buf_putc(&b, '\\'); break;
      case '/': buf_putc(&b, '/'); break;
      case ' ': buf_putc(&b, ' '); break;
      case 'N': buf_put_utf8(&b, 0x85); break;
      case '_': buf_put_utf8(&b, 0xA0); break;
      case 'L': buf_put_utf8(&b, 0x2028); break;
      case 'P': buf_put_utf8(&b, 0x2029); break;
      case 'x': case 'u': case 'U': {
        int w = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t v = 0;
        for (int k = 0; k < w; k++, i++) {
          char h = i < n ? s[i] : 0;
          int d = (h >= '0' && h <= '9') ? h - '0' :
                  (h >= 'a' && h <= 'f') ? h - 'a' + 10 :
                  (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
          if (d < 0)
            return yfail(y, line, "did not find expected hexdecimal number");
          v = v * 16 + (uint32_t)d;
        }
        buf_put_utf8(&b, v);
        break;
      }
      default:
        return yfail(y, line, "found unknown escape character while "
                              "parsing a quoted scalar");
      }
      continue;
    }
    buf_putc(&b, ch);
    i++;
  }
  *used = i;
  *out = fn_buf_val(&b);
  return true;
}

/* ---- Flow collections ----------------------------------------------------------- */

static bool flow_value(Y *y, int line, const char *s, size_t n, size_t *i,
                       Value *out);

static void skip_sp(const char *s, size_t n, size_t *i)
{
  while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
    (*i)++;
}

static bool flow_value(Y *y, int line, const char *s, size_t n, size_t *i,
                       Value *out)
{
  if (++y->depth > 200)
    return yfail(y, line, "exceeded max depth");
  skip_sp(s, n, i);
  if (*i >= n)
    return yfail(y, line, "did not find expected node content");
  char ch = s[*i];
  if (ch == '[' || ch == '{') {
    bool map = ch == '{';
    (*i)++;
    uint32_t cap = 8, cnt = 0;
    Value *vals = ARENA_NEW(y->c->arena, Value, cap);
    const char **names = ARENA_NEW(y->c->arena, const char *, cap);
    for (;;) {
      skip_sp(s, n, i);
      if (*i >= n)
        return yfail(y, line, map ? "did not find expected ',' or '}'"
                                  : "did not find expected ',' or ']'");
      if (s[*i] == (map ? '}' : ']')) {
        (*i)++;
        break;
      }
      if (cnt == cap) {
        vals = arena_grow(y->c->arena, vals, sizeof(Value), _Alignof(Value),
                          cap, cap * 2);
        names = arena_grow(y->c->arena, names, sizeof(char *),
                           _Alignof(char *), cap, cap * 2);
        cap *= 2;
      }
      if (map) {
        Value k;
        if (!flow_value(y, line, s, n, i, &k))
          return false;
        if (k.type->kind != TY_STRING) {
          Buf kb;
          buf_init(&kb, y->c->arena);
          if (val_is_null(k))
            buf_puts(&kb, "null");
          else if (k.type->kind == TY_BOOL)
            buf_puts(&kb, k.u.b ? "true" : "false");
          else if (k.type->kind == TY_NUMBER)
            val_num_format(&kb, k);
          else
            return yfail(y, line, "invalid map key");
          k = fn_buf_val(&kb);
        }
        skip_sp(s, n, i);
        if (*i >= n || s[*i] != ':')
          return yfail(y, line, "did not find expected ':'");
        (*i)++;
        names[cnt] = k.u.s;
        skip_sp(s, n, i);
        if (*i < n && (s[*i] == ',' || s[*i] == '}'))
          vals[cnt] = val_dynamic_null;
        else if (!flow_value(y, line, s, n, i, &vals[cnt]))
          return false;
      } else if (!flow_value(y, line, s, n, i, &vals[cnt])) {
        return false;
      }
      for (uint32_t k = 0; map && k < cnt; k++)
        if (!strcmp(names[k], names[cnt]))
          return yfail(y, line, "mapping key already defined");
      cnt++;
      skip_sp(s, n, i);
      if (*i < n && s[*i] == ',')
        (*i)++;
    }
    *out = map ? val_object(y->c->arena, cnt, names, vals)
               : val_tuple(y->c->arena, vals, cnt);
    y->depth--;
    return true;
  }
  if (ch == '"' || ch == '\'') {
    size_t used;
    if (!quoted_scalar(y, line, s + *i, n - *i, &used, out))
      return false;
    *i += used;
    y->depth--;
    return true;
  }
  if (ch == '&' || ch == '*' || ch == '!')
    return yfail(y, line, "anchors, aliases and tags are not supported");
  size_t st = *i;
  while (*i < n && s[*i] != ',' && s[*i] != ']' && s[*i] != '}' &&
         !(s[*i] == ':' && (*i + 1 >= n || s[*i + 1] == ' ')))
    (*i)++;
  size_t e = *i;
  while (e > st && s[e - 1] == ' ')
    e--;
  *out = plain_scalar(y, s + st, e - st);
  y->depth--;
  return true;
}

/* ---- Block structure -------------------------------------------------------------- */

/* Position of the ':' that makes s a "key: value" line, or -1. */
static long key_colon(const char *s, size_t n)
{
  size_t i = 0;
  if (n && (s[0] == '"' || s[0] == '\'')) {
    char q = s[0];
    for (i = 1; i < n; i++) {
      if (s[i] == '\\' && q == '"') {
        i++;
        continue;
      }
      if (s[i] == q) {
        if (q == '\'' && i + 1 < n && s[i + 1] == '\'') {
          i++;
          continue;
        }
        break;
      }
    }
    i++;
    while (i < n && s[i] == ' ')
      i++;
    if (i < n && s[i] == ':' && (i + 1 == n || s[i + 1] == ' '))
      return (long)i;
    return -1;
  }
  if (n && (s[0] == '[' || s[0] == '{'))
    return -1;
  for (i = 0; i < n; i++)
    if (s[i] == ':' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t'))
      return (long)i;
  return -1;
}

static bool is_seq_item(const Line *l)
{
  return l->n >= 1 && l->s[0] == '-' && (l->n == 1 || l->s[1] == ' ');
}

static bool node(Y *y, int indent, Value *out);

/* A scalar or flow value written after "key:" or "- " on line l,
** possibly a block scalar header. */
static bool inline_value(Y *y, const Line *l, const char *s, size_t n,
                         int parent_indent, Value *out)
{
  if (n > 0 && (s[0] == '|' || s[0] == '>')) {
    bool folded = s[0] == '>';
    char chomp = 0;
    for (size_t k = 1; k < n; k++)
      if (s[k] == '-' || s[k] == '+')
        chomp = s[k];
    Buf b;
    buf_init(&b, y->c->arena);
    int bi = -1;
    int blank = 0;
    bool first = true;
    while (y->cur < y->nlines) {
      Line *x = &y->lines[y->cur];
      if (x->n == 0 && x->indent >= 0) {
        blank++;
        y->cur++;
        continue;
      }
      if (x->indent <= parent_indent)
        break;
      if (bi < 0)
        bi = x->indent;
      if (x->indent < bi)
        break;
      if (!first) {
        if (folded && blank == 0 && x->indent == bi)
          buf_putc(&b, ' ');
        else
          buf_putc(&b, '\n');
      }
      for (int k = 0; k < blank; k++)
        buf_putc(&b, '\n');
      blank = 0;
      for (int k = bi; k < x->indent; k++)
        buf_putc(&b, ' ');
      /* Block scalars keep '#' text: use the raw line. */
      buf_put(&b, x->s, x->n);
      first = false;
      y->cur++;
    }
    if (!first && chomp != '-')
      buf_putc(&b, '\n');
    if (chomp == '+')
      for (int k = 0; k < blank; k++)
        buf_putc(&b, '\n');
    *out = fn_buf_val(&b);
    return true;
  }
  size_t i = 0;
  if (!flow_value(y, l->no, s, n, &i, out))
    return false;
  skip_sp(s, n, &i);
  if (i < n)
    return yfail(y, l->no, "did not find expected <document start>");
  return true;
}

static bool node(Y *y, int indent, Value *out)
{
  if (++y->depth > 200)
    return yfail(y, 0, "exceeded max depth");
  while (y->cur < y->nlines && y->lines[y->cur].n == 0)
    y->cur++;
  if (y->cur >= y->nlines) {
    *out = val_dynamic_null;
    y->depth--;
    return true;
  }
  Line *l = &y->lines[y->cur];
  int ind = l->indent;
  if (ind < indent) {
    *out = val_dynamic_null;
    y->depth--;
    return true;
  }
  if (is_seq_item(l)) {
    uint32_t cap = 8, cnt = 0;
    Value *vals = ARENA_NEW(y->c->arena, Value, cap);
    while (y->cur < y->nlines) {
      l = &y->lines[y->cur];
      if (l->n == 0) {
        y->cur++;
        continue;
      }
      if (l->indent != ind || !is_seq_item(l))
        break;
      if (cnt == cap) {
        vals = arena_grow(y->c->arena, vals, sizeof(Value), _Alignof(Value),
                          cap, cap * 2);
        cap *= 2;
      }
      /* "- x": the rest of the line is a node indented past the dash. */
      size_t k = 1;
      while (k < l->n && l->s[k] == ' ')
        k++;
      if (k >= l->n) {
        y->cur++;
        if (!node(y, ind + 1, &vals[cnt]))
          return false;
      } else {
        const char *rest = l->s + k;
        size_t rn = l->n - k;
        Line save = *l;
        l->indent = ind + (int)k;
        l->s = rest;
        l->n = rn;
        if (is_seq_item(l) || key_colon(rest, rn) >= 0) {
          if (!node(y, l->indent, &vals[cnt]))
            return false;
        } else {
          y->cur++;
          if (!inline_value(y, &save, rest, rn, ind, &vals[cnt]))
            return false;
        }
      }
      cnt++;
    }
    *out = val_tuple(y->c->arena, vals, cnt);
    y->depth--;
    return true;
  }
  long colon = key_colon(l->s, l->n);
  if (colon < 0) {
    /* A lone scalar, possibly continued on more-indented lines. */
    y->cur++;
    if (!inline_value(y, l, l->s, l->n, ind - 1, out))
      return false;
    y->depth--;
    return true;
  }
  uint32_t cap = 8, cnt = 0;
  Value *vals = ARENA_NEW(y->c->arena, Value, cap);
  const char **names = ARENA_NEW(y->c->arena, const char *, cap);
  while (y->cur < y->nlines) {
    l = &y->lines[y->cur];
    if (l->n == 0) {
      y->cur++;
      continue;
    }
    if (l->indent < ind)
      break;
    if (l->indent > ind)
      return yfail(y, l->no, "mapping values are not allowed in this "
                             "context");
    if (is_seq_item(l))
      return yfail(y, l->no, "did not find expected key");
    colon = key_colon(l->s, l->n);
    if (colon < 0)
      return yfail(y, l->no, "could not find expected ':'");
    if (cnt == cap) {
      vals = arena_grow(y->c->arena, vals, sizeof(Value), _Alignof(Value),
                        cap, cap * 2);
      names = arena_grow(y->c->arena, names, sizeof(char *),
                         _Alignof(char *), cap, cap * 2);
      cap *= 2;
    }
    Value k;
    size_t kn = (size_t)colon;
    while (kn > 0 && l->s[kn - 1] == ' ')
      kn--;
    if (kn && (l->s[0] == '"' || l->s[0] == '\'')) {
      size_t used;
      if (!quoted_scalar(y, l->no, l->s, kn, &used, &k))
        return false;
    } else {
      k = val_str(y->c->arena, l->s, kn);
    }
    names[cnt] = k.u.s;
    for (uint32_t q = 0; q < cnt; q++)
      if (!strcmp(names[q], names[cnt]))
        return yfail(y, l->no, arena_printf(y->c->arena, "mapping key \"%s\" "
                                            "already defined", names[cnt]));
    const char *rest = l->s + colon + 1;
    size_t rn = l->n - (size_t)colon - 1;
    while (rn && *rest == ' ') {
      rest++;
      rn--;
    }
    y->cur++;
    if (rn == 0) {
      /* Nested block: deeper lines, or a sequence at this indentation. */
      int j = y->cur;
      while (j < y->nlines && y->lines[j].n == 0)
        j++;
      if (j < y->nlines && (y->lines[j].indent > ind ||
                            (y->lines[j].indent == ind &&
                             is_seq_item(&y->lines[j])))) {
        if (!node(y, y->lines[j].indent, &vals[cnt]))
          return false;
      } else {
        vals[cnt] = val_dynamic_null;
      }
    } else if (!inline_value(y, l, rest, rn, ind, &vals[cnt])) {
      return false;
    }
    cnt++;
  }
  *out = val_object(y->c->arena, cnt, names, vals);
  y->depth--;
  return true;
}

bool fn_yamldecode(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *s = a[0].u.s;
  size_t len = a[0].len;
  Y y;
  memset(&y, 0, sizeof y);
  y.c = c;
  int cap = 64;
  y.lines = ARENA_NEW(c->arena, Line, (size_t)cap);
  size_t i = 0;
  int no = 0;
  bool started = false, ended = false;
  while (i < len) {
    size_t e = i;
    while (e < len && s[e] != '\n')
      e++;
    no++;
    const char *ls = s + i;
    size_t ln = e - i;
    i = e + 1;
    if (ln >= 3 && !memcmp(ls, "---", 3) && (ln == 3 || ls[3] == ' ')) {
      if (started || y.nlines > 0)
        return fn_error(c, "on line %d: unexpected extra document; "
                           "yamldecode accepts only one", no);
      started = true;
      continue;
    }
    if (ln >= 3 && !memcmp(ls, "...", 3) && (ln == 3 || ls[3] == ' ')) {
      ended = true;
      continue;
    }
    if (ended) {
      size_t t = strip_comment(ls, ln);
      if (t)
        return fn_error(c, "on line %d: unexpected content after the end of "
                           "the document", no);
      continue;
    }
    if (ln && ls[0] == '%')
      return fn_error(c, "on line %d: YAML directives are not supported", no);
    int ind = 0;
    while ((size_t)ind < ln && ls[ind] == ' ')
      ind++;
    if ((size_t)ind < ln && ls[ind] == '\t')
      return fn_error(c, "on line %d: found character that cannot start any "
                         "token", no);
    if (y.nlines == cap) {
      y.lines = arena_grow(c->arena, y.lines, sizeof(Line), _Alignof(Line),
                           (size_t)cap, (size_t)cap * 2);
      cap *= 2;
    }
    Line *l = &y.lines[y.nlines++];
    l->indent = ind;
    l->s = ls + ind;
    l->n = strip_comment(ls + ind, ln - (size_t)ind);
    l->no = no;
  }
  if (!fn_utf8_valid(s, len))
    return fn_error(c, "invalid UTF-8 in the YAML source");
  if (!node(&y, 0, out))
    return fn_error(c, "%s", y.err ? y.err : "invalid YAML");
  while (y.cur < y.nlines && y.lines[y.cur].n == 0)
    y.cur++;
  if (y.cur < y.nlines)
    return fn_error(c, "on line %d: did not find expected <document start>",
                    y.lines[y.cur].no);
  return true;
}
