/*
** state_addr.c: resource and instance addresses (state.h): formatting
** keys and addresses as Terraform prints them, and parsing address and
** module strings ("module.a[\"x\"].aws_instance.b[0]") with Terraform's
** diagnostics.
*/
#include "state_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Addresses ----------------------------------------------------------- */

/* Terraform's toHCLQuotedString: HCL string escapes, template
** introducers doubled, non-printable runes as \uXXXX. */
static void hcl_quote(Buf *out, const char *s, size_t n)
{
  buf_putc(out, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '\n':
      buf_puts(out, "\\n");
      break;
    case '\r':
      buf_puts(out, "\\r");
      break;
    case '\t':
      buf_puts(out, "\\t");
      break;
    case '"':
      buf_puts(out, "\\\"");
      break;
    case '\\':
      buf_puts(out, "\\\\");
      break;
    case '$':
    case '%':
      buf_putc(out, (char)c);
      if (i + 1 < n && s[i + 1] == '{')
        buf_putc(out, (char)c);
      break;
    default:
      if (c < 0x20 || c == 0x7f)
        buf_printf(out, "\\u%04x", c);
      else
        buf_putc(out, (char)c);
    }
  }
  buf_putc(out, '"');
}

/* "[i]" in decimal: what "[%lld]" prints, without printf (two keys are
** formatted per planned instance, at about 1,100 instructions each with
** printf). */
static void put_int_key(Buf *out, int64_t i)
{
  char t[24];
  size_t n = sizeof t;
  uint64_t u = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
  t[--n] = ']';
  do {
    t[--n] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (i < 0)
    t[--n] = '-';
  t[--n] = '[';
  buf_put(out, t + n, sizeof t - n);
}

void st_format_key(Buf *out, StKey key)
{
  if (key.kind == ST_INTKEY) {
    put_int_key(out, key.i);
  } else if (key.kind == ST_STRKEY) {
    buf_putc(out, '[');
    hcl_quote(out, key.s, key.slen);
    buf_putc(out, ']');
  }
}

void st_format_instance(Buf *out, const StResource *r, StKey key)
{
  buf_puts(out, r->addr);
  st_format_key(out, key);
}

const char *st_instance_addr(Arena *a, const StResource *r, StKey key)
{
  Buf b;
  buf_init(&b, a);
  st_format_instance(&b, r, key);
  return buf_str(&b);
}

/* A traversal step of a parsed address. */
typedef enum TkKind { TK_NAME, TK_NUM, TK_STR, TK_SPLAT } TkKind;

typedef struct Tk {
  TkKind kind;
  const char *s;       /* name or string key (NUL-terminated) */
  uint32_t slen;
  int64_t i;
  bool whole;          /* TK_NUM: integral and in range */
} Tk;

static bool is_id_start(unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c >= 0x80;
}

bool st_is_id_cont(unsigned char c)
{
  return is_id_start(c) || (c >= '0' && c <= '9') || c == '-';
}

typedef struct Lex {
  Arena *a;
  const char *p;
  const char *end;
  Diags *d;
} Lex;

static bool lex_err(Lex *l, const char *summary, const char *detail)
{
  if (l->d)
    diag_error(l->d, NULL, summary, "%s", detail);
  return false;
}

static bool lex_string(Lex *l, Tk *t)
{
  Buf b;
  buf_init(&b, l->a);
  l->p++; /* opening quote */
  while (l->p < l->end && *l->p != '"') {
    char c = *l->p;
    if (c == '\n')
      break;
    if ((c == '$' || c == '%') && l->p + 2 < l->end && l->p[1] == c &&
        l->p[2] == '{') {
      buf_putc(&b, c);
      buf_putc(&b, '{');
      l->p += 3;
      continue;
    }
    if ((c == '$' || c == '%') && l->p + 1 < l->end && l->p[1] == '{')
      return lex_err(l, "Invalid index key",
                     "Index brackets must contain either a literal number "
                     "or a literal string.");
    if (c != '\\') {
      buf_putc(&b, c);
      l->p++;
      continue;
    }
    if (l->p + 1 >= l->end)
      break;
    char e = l->p[1];
    l->p += 2;
    switch (e) {
    case 'n': buf_putc(&b, '\n'); break;
    case 'r': buf_putc(&b, '\r'); break;
    case 't': buf_putc(&b, '\t'); break;
    case '"': buf_putc(&b, '"'); break;
    case '\\': buf_putc(&b, '\\'); break;
    case 'u':
    case 'U': {
      int nd = e == 'u' ? 4 : 8;
      uint32_t cp = 0;
      for (int k = 0; k < nd; k++) {
        if (l->p >= l->end)
          return lex_err(l, "Invalid escape sequence",
                         "The \\u escape sequence must be followed by hex "
                         "digits.");
        char h = *l->p++;
        uint32_t v;
        if (h >= '0' && h <= '9')
          v = (uint32_t)(h - '0');
        else if (h >= 'a' && h <= 'f')
          v = (uint32_t)(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F')
          v = (uint32_t)(h - 'A' + 10);
        else
          return lex_err(l, "Invalid escape sequence",
                         "The \\u escape sequence must be followed by hex "
                         "digits.");
        cp = cp * 16 + v;
      }
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return lex_err(l, "Invalid escape sequence",
                       "The escape sequence does not name a valid Unicode "
                       "character.");
      buf_put_utf8(&b, cp);
      break;
    }
    default:
      return lex_err(l, "Invalid escape sequence",
                     "The symbol after the backslash is not a valid escape "
                     "sequence.");
    }
  }
  if (l->p >= l->end || *l->p != '"')
    return lex_err(l, "Unterminated template string",
                   "No closing marker was found for the string.");
  l->p++;
  t->kind = TK_STR;
  t->s = buf_str(&b);
  t->slen = (uint32_t)b.len;
  return true;
}

static bool lex_number(Lex *l, Tk *t)
{
  const char *s = l->p;
  while (l->p < l->end && *l->p >= '0' && *l->p <= '9')
    l->p++;
  bool frac = false;
  if (l->p + 1 < l->end && *l->p == '.' && l->p[1] >= '0' && l->p[1] <= '9') {
    frac = true;
    l->p++;
    while (l->p < l->end && *l->p >= '0' && *l->p <= '9')
      l->p++;
  }
  if (l->p < l->end && (*l->p == 'e' || *l->p == 'E')) {
    const char *q = l->p + 1;
    if (q < l->end && (*q == '+' || *q == '-'))
      q++;
    if (q < l->end && *q >= '0' && *q <= '9') {
      frac = true;
      l->p = q;
      while (l->p < l->end && *l->p >= '0' && *l->p <= '9')
        l->p++;
    }
  }
  t->kind = TK_NUM;
  t->whole = false;
  if (!frac && l->p - s <= 18) {
    int64_t v = 0;
    for (const char *q = s; q < l->p; q++)
      v = v * 10 + (*q - '0');
    t->i = v;
    t->whole = true;
  } else if (!frac) {
    errno = 0;
    char tmp[64];
    size_t n = (size_t)(l->p - s);
    if (n < sizeof tmp) {
      memcpy(tmp, s, n);
      tmp[n] = 0;
      long long v = strtoll(tmp, NULL, 10);
      if (errno == 0) {
        t->i = v;
        t->whole = true;
      }
    }
  }
  t->s = arena_strndup(l->a, s, (size_t)(l->p - s));
  return true;
}

/* Splits text into traversal steps like hclsyntax.ParseTraversalAbs. */
static bool lex_traversal(Lex *l, Tk **out, uint32_t *nout)
{
  uint32_t cap = 8, n = 0;
  Tk *v = ARENA_NEW(l->a, Tk, cap);
  bool first = true;
  while (l->p < l->end) {
    if (n == cap) {
      v = arena_grow(l->a, v, sizeof *v, _Alignof(Tk), cap, cap * 2);
      cap *= 2;
    }
    Tk *t = &v[n];
    memset(t, 0, sizeof *t);
    if (first) {
      if (!is_id_start((unsigned char)*l->p))
        return lex_err(l, "Variable name required",
                       "Must begin with a variable name.");
    }
    if (first || *l->p == '.') {
      if (!first)
        l->p++;
      if (!first && l->p < l->end && *l->p >= '0' && *l->p <= '9') {
        lex_number(l, t); /* legacy index syntax: a.0 */
      } else if (!first && l->p < l->end && *l->p == '*') {
        l->p++;
        t->kind = TK_SPLAT;
      } else {
        if (l->p >= l->end || !is_id_start((unsigned char)*l->p))
          return lex_err(l, "Invalid attribute name",
                         "An attribute name is required after a dot.");
        const char *s = l->p;
        while (l->p < l->end && st_is_id_cont((unsigned char)*l->p))
          l->p++;
        t->kind = TK_NAME;
        t->s = arena_strndup(l->a, s, (size_t)(l->p - s));
        t->slen = (uint32_t)(l->p - s);
      }
    } else if (*l->p == '[') {
      l->p++;
      if (l->p < l->end && *l->p == '"') {
        if (!lex_string(l, t))
          return false;
      } else if (l->p < l->end && *l->p >= '0' && *l->p <= '9') {
        lex_number(l, t);
      } else if (l->p < l->end && *l->p == '*') {
        l->p++;
        t->kind = TK_SPLAT;
      } else {
        return lex_err(l, "Invalid index key",
                       "Index brackets must contain either a literal "
                       "number or a literal string.");
      }
      if (l->p >= l->end || *l->p != ']')
        return lex_err(l, "Missing close bracket on index",
                       "The index operator must end with a closing bracket "
                       "(\"]\").");
      l->p++;
    } else {
      return lex_err(l, "Invalid character",
                     "Expected an attribute access or index operator.");
    }
    first = false;
    n++;
  }
  if (first)
    return lex_err(l, "Variable name required",
                   "Must begin with a variable name.");
  *out = v;
  *nout = n;
  return true;
}

static bool tk_key(Lex *l, const Tk *t, const char *kind, StKey *k)
{
  if (t->kind == TK_SPLAT) {
    if (l->d)
      diag_error(l->d, NULL, "Invalid address",
                 "The %s instance key cannot be a wildcard in this address.",
                 kind);
    return false;
  }
  if (t->kind == TK_STR) {
    k->kind = ST_STRKEY;
    k->s = t->s;
    k->slen = t->slen;
    k->i = 0;
    return true;
  }
  if (!t->whole) {
    if (l->d)
      diag_error(l->d, NULL, "Invalid address",
                 "Invalid %s instance key: value must be a whole number, "
                 "between -9223372036854775808 and 9223372036854775807.",
                 kind);
    return false;
  }
  *k = st_intkey(t->i);
  return true;
}

/* Parses a module path prefix; returns the number of steps consumed or
** -1 on error, writing the normalised module address to *norm. */
static long parse_module_prefix(Lex *l, const Tk *t, uint32_t n,
                                const char **norm)
{
  Buf b;
  buf_init(&b, l->a);
  buf_puts(&b, "");
  uint32_t i = 0;
  while (i < n && t[i].kind == TK_NAME && strcmp(t[i].s, "module") == 0) {
    i++;
    if (i >= n || t[i].kind != TK_NAME) {
      if (l->d)
        diag_error(l->d, NULL, "Invalid address operator",
                   "Prefix \"module.\" must be followed by a module name.");
      return -1;
    }
    if (b.len)
      buf_putc(&b, '.');
    buf_puts(&b, "module.");
    buf_puts(&b, t[i].s);
    i++;
    if (i < n && t[i].kind != TK_NAME) {
      StKey k;
      if (!tk_key(l, &t[i], "module", &k))
        return -1;
      st_format_key(&b, k);
      i++;
    }
  }
  *norm = buf_str(&b);
  return (long)i;
}

static const char *const reserved[] = {"count", "each", "local", "module",
                                       "path", "self", "terraform", "var",
                                       "template", "lazy", "arg"};

bool st_parse_addr(Arena *a, const char *text, StAddr *out, Diags *d)
{
  Lex l = {a, text, text + strlen(text), d};
  Tk *t;
  uint32_t n;
  memset(out, 0, sizeof *out);
  if (!lex_traversal(&l, &t, &n))
    return false;
  const char *mod;
  long used = parse_module_prefix(&l, t, n, &mod);
  if (used < 0)
    return false;
  out->module = mod;
  uint32_t i = (uint32_t)used;
  if (i == n) {
    out->kind = ST_ADDR_MODULE;
    return true;
  }
  out->mode = ST_MANAGED;
  const char *root = t[i].kind == TK_NAME ? t[i].s : "";
  if (strcmp(root, "data") == 0) {
    out->mode = ST_DATA;
    i++;
  } else if (strcmp(root, "resource") == 0) {
    i++;
  } else if (strcmp(root, "ephemeral") == 0 || strcmp(root, "list") == 0) {
    diag_error(d, NULL, "Invalid address",
               "%s resources are never stored in state.",
               root[0] == 'e' ? "Ephemeral" : "List");
    return false;
  } else {
    for (size_t k = 0; k < sizeof reserved / sizeof *reserved; k++) {
      if (strcmp(root, reserved[k]) == 0) {
        diag_error(d, NULL, "Invalid address",
                   "The keyword \"%s\" is reserved and cannot be used to "
                   "target a resource address. If you are targeting a "
                   "resource type that uses a reserved keyword, please "
                   "prefix your address with \"resource.\".",
                   root);
        return false;
      }
    }
  }
  if (n - i < 2) {
    diag_error(d, NULL, "Invalid address",
               "Resource specification must include a resource type and "
               "name.");
    return false;
  }
  if (t[i].kind != TK_NAME) {
    diag_error(d, NULL, "Invalid address", "%s",
               out->mode == ST_DATA ? "A data source name is required."
                                    : "A resource type name is required.");
    return false;
  }
  if (t[i + 1].kind != TK_NAME) {
    diag_error(d, NULL, "Invalid address", "A resource name is required.");
    return false;
  }
  out->type = t[i].s;
  out->name = t[i + 1].s;
  i += 2;
  out->kind = ST_ADDR_RESOURCE;
  out->key = st_nokey();
  if (i < n && t[i].kind != TK_NAME) {
    if (!tk_key(&l, &t[i], "resource", &out->key))
      return false;
    out->kind = ST_ADDR_INSTANCE;
    i++;
  } else if (i < n) {
    diag_error(d, NULL, "Invalid address", "%s",
               n - i == 1
                   ? "Resource instance key must be given in square "
                     "brackets."
                   : "Unexpected extra operators after address.");
    return false;
  }
  if (i < n) {
    diag_error(d, NULL, "Invalid address",
               "Unexpected extra operators after address.");
    return false;
  }
  return true;
}

bool st_parse_module(Arena *a, const char *text, const char **norm)
{
  if (!*text) {
    *norm = "";
    return true;
  }
  Lex l = {a, text, text + strlen(text), NULL};
  Tk *t;
  uint32_t n;
  if (!lex_traversal(&l, &t, &n))
    return false;
  long used = parse_module_prefix(&l, t, n, norm);
  return used >= 0 && (uint32_t)used == n;
}

const char *st_static_path(Arena *a, const char *addr)
{
  if (!strchr(addr, '['))
    return addr;
  Buf b;
  buf_init(&b, a);
  int depth = 0;
  bool in_str = false;
  for (const char *p = addr; *p; p++) {
    if (in_str) {
      if (*p == '\\' && p[1])
        p++;
      else if (*p == '"')
        in_str = false;
    } else if (*p == '"' && depth > 0) {
      in_str = true;
    } else if (*p == '[') {
      depth++;
    } else if (*p == ']') {
      if (depth > 0)
        depth--;
    } else if (depth == 0) {
      buf_putc(&b, *p);
    }
  }
  return buf_str(&b);
}

bool st_addr_matches(const StAddr *addr, const StResource *r, StKey key)
{
  size_t ml = strlen(addr->module);
  if (addr->kind == ST_ADDR_MODULE) {
    if (ml == 0)
      return true;
    return strncmp(r->module, addr->module, ml) == 0 &&
           (r->module[ml] == 0 || r->module[ml] == '.');
  }
  if (strcmp(r->module, addr->module) != 0 || r->mode != addr->mode ||
      strcmp(r->type, addr->type) != 0 || strcmp(r->name, addr->name) != 0)
    return false;
  return addr->kind == ST_ADDR_RESOURCE || st_key_equal(addr->key, key);
}
