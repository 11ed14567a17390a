/*
** ini.c: cairn.ini through the inih library (Debian's libinih, vendored by
** vendor/fetch-build.sh with the options in the generated inih/ini.h).
**
** Method: inih parses the text and calls on_pair() for every name/value
** line and every continuation line (INI_HANDLER_LINENO gives the line);
** this wrapper turns those calls into IniEntry records and then walks the
** lines once more to collect what inih does not report through the
** handler: the section headers (inih keeps only the first 49 bytes of a
** section name and has no section callback in Debian's build, so names come
** from the text), the rejected lines (inih returns only the first one), and
** the source ranges.  On top of inih it rejects a setting with an empty
** name and text after a section header's "]", as cairn always has.
*/
#include "ini.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <inih/ini.h>

#include "base/buf.h"

#if !INI_HANDLER_LINENO || INI_USE_STACK || !INI_ALLOW_REALLOC
#error "vendor/fetch-build.sh must build inih with INI_HANDLER_LINENO, a heap line buffer and INI_ALLOW_REALLOC"
#endif

static bool is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' ||
         c == '\n';
}

static SrcRange range(const char *path, uint32_t line, uint32_t off0,
                      uint32_t b, uint32_t e)
{
  SrcRange r = {path, {line, b - off0 + 1, b}, {line, e - off0 + 1, e}};
  return r;
}

static void trim(const char *s, size_t n, size_t *b, size_t *e)
{
  size_t i = 0, j = n;
  while (i < j && is_space(s[i]))
    i++;
  while (j > i && is_space(s[j - 1]))
    j--;
  *b = i;
  *e = j;
}

/* Whether s[i..e) is empty or an inline comment (whitespace, then ';'). */
static bool only_comment(const char *s, size_t i, size_t e)
{
  if (i == e)
    return true;
  if (!is_space(s[i]))
    return false;
  while (i < e && is_space(s[i]))
    i++;
  return i == e || s[i] == ';';
}

enum { LINE_OTHER, LINE_PAIR, LINE_NO_NAME };

typedef struct Parse {
  Arena *a;
  const char *path;
  const char *text;
  size_t *starts;   /* byte offset of each line; starts[nlines] = end */
  uint32_t nlines;
  uint8_t *handled; /* LINE_* per line, from the handler */
  IniFile *out;
  uint32_t cap;
  Diags *d;
  bool ok;
} Parse;

/* Line `ln` (1-based) without its newline. */
static const char *line_at(const Parse *p, uint32_t ln, size_t *n)
{
  size_t b = p->starts[ln - 1], e = p->starts[ln];
  if (e > b && p->text[e - 1] == '\n')
    e--;
  *n = e - b;
  return p->text + b;
}

/* inih's handler: a name/value line, or a continuation line (indented,
** after a name/value line), which inih hands over with the previous name. */
static int on_pair(void *user, const char *section, const char *name,
                   const char *value, int lineno)
{
  (void)section;
  Parse *p = user;
  if (lineno < 1 || (uint32_t)lineno > p->nlines || !name || !value)
    return 0;
  uint32_t ln = (uint32_t)lineno;
  p->handled[ln - 1] = LINE_PAIR;
  size_t n;
  const char *s = line_at(p, ln, &n);
  uint32_t off0 = (uint32_t)p->starts[ln - 1];
  size_t b, e;
  trim(s, n, &b, &e);
  size_t vlen = strlen(value);
  /* inih hands over a continuation line as (previous name, the whole
  ** stripped line less an inline comment); a pair's value starts after its
  ** separator, so it is never the line's own beginning followed by nothing
  ** or by a comment. */
  if (b > 0 && p->out->nentries > 0 && vlen > 0 && vlen <= e - b &&
      memcmp(s + b, value, vlen) == 0) {
    if (only_comment(s, b + vlen, e)) {
      IniEntry *prev = &p->out->entries[p->out->nentries - 1];
      prev->value = arena_printf(p->a, "%s\n%s", prev->value, value);
      prev->value_range.end.line = ln;
      prev->value_range.end.byte = (uint32_t)(off0 + b + vlen);
      prev->value_range.end.col = (uint32_t)(b + vlen + 1);
      return 1;
    }
  }
  /* name = value or name: value; the first of the two separators wins. */
  size_t sep = b;
  while (sep < e && s[sep] != '=' && s[sep] != ':')
    sep++;
  if (name[0] == 0) {   /* reported in line order by ini_parse */
    p->handled[ln - 1] = LINE_NO_NAME;
    return 1;
  }
  size_t vs = sep < e ? sep + 1 : e;
  while (vs < e && is_space(s[vs]))
    vs++;
  if (p->out->nentries == p->cap) {
    uint32_t nc = p->cap ? p->cap * 2 : 16;
    p->out->entries = arena_grow(p->a, p->out->entries, sizeof(IniEntry),
                                 _Alignof(IniEntry), p->cap, nc);
    p->cap = nc;
  }
  IniEntry *en = &p->out->entries[p->out->nentries++];
  en->section = "";   /* set from the text by ini_parse */
  en->name = arena_strdup(p->a, name);
  en->value = arena_strdup(p->a, value);
  en->line = ln;
  size_t nl = strlen(name);
  en->name_range = range(p->path, ln, off0, (uint32_t)(off0 + b),
                         (uint32_t)(off0 + b + nl));
  en->value_range = range(p->path, ln, off0, (uint32_t)(off0 + vs),
                          (uint32_t)(off0 + vs + vlen));
  return 1;
}

/* A section header line (first non-blank byte '['), as inih reads it: the
** name ends at "]", and an inline comment (";" after whitespace) before
** any "]" swallows it. */
static void section_line(Parse *p, uint32_t ln, const char **section,
                         uint32_t *scap)
{
  size_t n;
  const char *s = line_at(p, ln, &n);
  uint32_t off0 = (uint32_t)p->starts[ln - 1];
  size_t b, e;
  trim(s, n, &b, &e);
  SrcRange r = range(p->path, ln, off0, (uint32_t)(off0 + b),
                     (uint32_t)(off0 + e));
  size_t close = b + 1;
  while (close < e && s[close] != ']' &&
         !(s[close] == ';' && is_space(s[close - 1])))
    close++;
  if (close >= e || s[close] != ']') {
    diag_error(p->d, &r, "Invalid host configuration section",
               "%s line %u: a section header must end with \"]\".", p->path,
               ln);
    p->ok = false;
    return;
  }
  size_t nb, ne;
  trim(s + b + 1, close - b - 1, &nb, &ne);
  size_t after = close + 1, ab, ae;
  trim(s + after, e - after, &ab, &ae);
  if (ab != ae && s[after + ab] != ';' && s[after + ab] != '#') {
    diag_error(p->d, &r, "Invalid host configuration section",
               "%s line %u: unexpected text after the section header.",
               p->path, ln);
    p->ok = false;
  }
  *section = arena_strndup(p->a, s + b + 1 + nb, ne - nb);
  IniFile *out = p->out;
  if (out->nsections == *scap) {
    uint32_t nc = *scap ? *scap * 2 : 8;
    out->sections = arena_grow(p->a, out->sections, sizeof(IniSection),
                               _Alignof(IniSection), *scap, nc);
    *scap = nc;
  }
  IniSection *sec = &out->sections[out->nsections++];
  sec->name = *section;
  sec->line = ln;
  sec->range = r;
}

bool ini_parse(Arena *a, const char *path, const char *text, size_t len,
               IniFile *out, Diags *d)
{
  memset(out, 0, sizeof *out);
  out->path = arena_strdup(a, path);
  Parse p = {a, path, NULL, NULL, 0, NULL, out, 0, d, true};
  /* inih reads a NUL-terminated string; a NUL byte inside would end the
  ** file early, so it is an error of its own. */
  const char *nul = memchr(text, 0, len);
  if (nul) {
    uint32_t ln = 1;
    for (const char *q = text; q < nul; q++)
      ln += *q == '\n';
    SrcRange r = {path, {ln, 1, 0}, {ln, 1, 0}};
    diag_error(d, &r, "Invalid host configuration line",
               "%s line %u: the file contains a NUL byte.", path, ln);
    len = (size_t)(nul - text);
    p.ok = false;
  }
  char *copy = arena_strndup(a, text, len);
  p.text = copy;
  /* Line table; a UTF-8 byte-order mark is part of line 1's prefix, which
  ** inih skips (INI_ALLOW_BOM). */
  size_t pos = len >= 3 && memcmp(copy, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
  uint32_t nl = 0;
  for (size_t i = pos; i < len; i++)
    nl += copy[i] == '\n';
  uint32_t nlines = nl + (len > pos && copy[len - 1] != '\n' ? 1 : 0);
  p.starts = arena_alloc_raw(a, sizeof(size_t), _Alignof(size_t),
                             sizeof(size_t) * (nlines + 1));
  p.handled = arena_alloc_raw(a, 1, 1, nlines + 1);   /* LINE_OTHER */
  memset(p.handled, 0, nlines + 1);
  p.nlines = nlines;
  for (uint32_t l = 0; l < nlines; l++) {
    p.starts[l] = pos;
    const char *q = memchr(copy + pos, '\n', len - pos);
    pos = q ? (size_t)(q - copy) + 1 : len;
  }
  p.starts[nlines] = len;

  /* No line-length limit: no line is longer than the text (inih grows its
  ** line buffer up to ini_max_line, a runtime option in Debian's build). */
  int saved_max = ini_max_line;
  if (len + 2 > (size_t)ini_max_line)
    ini_max_line = len + 2 < (size_t)INT_MAX ? (int)(len + 2) : INT_MAX;
  int rc = ini_parse_string(copy, on_pair, &p);
  ini_max_line = saved_max;
  if (rc == -2) {
    SrcRange r = {path, {1, 1, 0}, {1, 1, 0}};
    diag_error(d, &r, "Cannot read host configuration",
               "%s: out of memory while parsing.", path);
    return false;
  }

  /* Sections, rejected lines and each entry's section, in line order. */
  const char *section = "";
  uint32_t scap = 0, next = 0;
  for (uint32_t ln = 1; ln <= nlines; ln++) {
    if (p.handled[ln - 1] == LINE_NO_NAME) {
      size_t n, b, e;
      const char *s = line_at(&p, ln, &n);
      trim(s, n, &b, &e);
      size_t sep = b;
      while (sep < e && s[sep] != '=' && s[sep] != ':')
        sep++;
      uint32_t off0 = (uint32_t)p.starts[ln - 1];
      SrcRange r = range(path, ln, off0, (uint32_t)(off0 + b),
                         (uint32_t)(off0 + e));
      diag_error(d, &r, "Invalid host configuration line",
                 "%s line %u: the setting has no name before \"%c\".", path,
                 ln, sep < e ? s[sep] : '=');
      p.ok = false;
      continue;
    }
    if (p.handled[ln - 1] == LINE_OTHER) {
      size_t n, b, e;
      const char *s = line_at(&p, ln, &n);
      trim(s, n, &b, &e);
      if (b == e || s[b] == ';' || s[b] == '#')
        continue;
      if (s[b] == '[') {
        section_line(&p, ln, &section, &scap);
        continue;
      }
      uint32_t off0 = (uint32_t)p.starts[ln - 1];
      SrcRange r = range(path, ln, off0, (uint32_t)(off0 + b),
                         (uint32_t)(off0 + e));
      diag_error(d, &r, "Invalid host configuration line",
                 "%s line %u: expected \"name = value\", \"name: value\", a "
                 "[section] header or a comment.", path, ln);
      p.ok = false;
      continue;
    }
    while (next < out->nentries && out->entries[next].line == ln)
      out->entries[next++].section = section;
  }
  return p.ok;
}

const char *ini_get(const IniFile *f, const char *section, const char *name)
{
  const char *v = NULL;
  for (uint32_t i = 0; i < f->nentries; i++)
    if (strcmp(f->entries[i].section, section) == 0 &&
        strcmp(f->entries[i].name, name) == 0)
      v = f->entries[i].value;
  return v;
}

/* ---- Helpers for the readers of INI files ------------------------------ */

void ini_bad_value(Diags *d, const IniEntry *e, const char *summary,
                   const char *want)
{
  diag_error(d, &e->value_range, summary,
             "%s:%u: the value of \"%s\" must be %s.", e->value_range.file,
             e->line, e->name, want);
}

bool ini_int(const char *s, long lo, long hi, long *out)
{
  if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '-'))
    return false;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (*end || errno || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

bool ini_bool(const char *s, bool *out)
{
  static const char *const yes[] = {"true", "yes", "on", "1"},
                           *const no[] = {"false", "no", "off", "0"};
  for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
    if (strcmp(s, yes[i]) == 0 || strcmp(s, no[i]) == 0) {
      *out = strcmp(s, yes[i]) == 0;
      return true;
    }
  return false;
}

bool ini_duration(const char *s, long *ms)
{
  if (!s || !*s)
    return false;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno || !(v >= 0) || v > 1e9 || isspace((unsigned char)*s))
    return false;
  double mul;
  if (*end == 0 || strcmp(end, "s") == 0)
    mul = 1000;
  else if (strcmp(end, "ms") == 0)
    mul = 1;
  else if (strcmp(end, "m") == 0)
    mul = 60000;
  else if (strcmp(end, "h") == 0)
    mul = 3600000;
  else
    return false;
  /* No hex or exponent forms: strtod accepts them, users do not mean them. */
  for (const char *p = s; p < end; p++)
    if (!isdigit((unsigned char)*p) && *p != '.')
      return false;
  *ms = (long)(v * mul + 0.5);
  return true;
}

const char *ini_section_name(Arena *a, const char *sec, const char *kind)
{
  size_t k = strlen(kind);
  if (strncmp(sec, kind, k) != 0 || !isspace((unsigned char)sec[k]))
    return NULL;
  const char *p = sec + k;
  while (isspace((unsigned char)*p))
    p++;
  size_t n = strlen(p);
  if (n < 3 || p[0] != '"' || p[n - 1] != '"')
    return NULL;
  for (size_t i = 1; i < n - 1; i++)
    if (p[i] == '"' || isspace((unsigned char)p[i]))
      return NULL;
  return arena_strndup(a, p + 1, n - 2);
}

bool ini_key_known(const char *k, const char *const *keys, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp(keys[i], k) == 0)
      return true;
  return false;
}
