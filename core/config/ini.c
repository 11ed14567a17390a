/*
** ini.c: the inih-dialect reader (see ini.h for the accepted syntax).
**
** Method: one pass over the lines; a line is classified by its first
** non-blank byte.  Continuation lines are recognised only directly after
** a name/value line, as inih's INI_ALLOW_MULTILINE does.
*/
#include "ini.h"

#include <stdbool.h>
#include <string.h>

#include "base/buf.h"

static bool is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static SrcRange range(const char *path, uint32_t line, uint32_t off0,
                      uint32_t b, uint32_t e)
{
  SrcRange r = {path, {line, b - off0 + 1, b}, {line, e - off0 + 1, e}};
  return r;
}

/* Strips an inline comment: ';' preceded by whitespace. */
static size_t strip_inline(const char *s, size_t n)
{
  for (size_t i = 1; i < n; i++)
    if (s[i] == ';' && is_space(s[i - 1]))
      return i;
  return n;
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

bool ini_parse(Arena *a, const char *path, const char *text, size_t len,
               IniFile *out, Diags *d)
{
  memset(out, 0, sizeof *out);
  out->path = arena_strdup(a, path);
  uint32_t cap = 0, scap = 0;
  const char *section = "";
  bool ok = true, last_was_value = false;
  size_t pos = 0;
  uint32_t line = 0;
  if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
    pos = 3;
  while (pos < len) {
    line++;
    size_t ls = pos;
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t le = nl ? (size_t)(nl - text) : len;
    pos = nl ? le + 1 : len;
    const char *s = text + ls;
    size_t n = le - ls;
    uint32_t off0 = (uint32_t)ls;
    size_t b, e;
    trim(s, n, &b, &e);
    if (b == e)             /* blank lines do not end a value (inih) */
      continue;
    char c = s[b];
    if (c == ';' || c == '#') {
      continue;
    }
    if (b > 0 && last_was_value && out->nentries > 0) {
      /* Continuation of the previous value. */
      size_t ce = b + strip_inline(s + b, e - b);
      size_t cb2, ce2;
      trim(s + b, ce - b, &cb2, &ce2);
      IniEntry *prev = &out->entries[out->nentries - 1];
      prev->value = arena_printf(a, "%s\n%.*s", prev->value,
                                 (int)(ce2 - cb2), s + b + cb2);
      prev->value_range.end.line = line;
      prev->value_range.end.byte = (uint32_t)(ls + b + ce2);
      prev->value_range.end.col = (uint32_t)(b + ce2 + 1);
      continue;
    }
    if (c == '[') {
      last_was_value = false;
      const char *close = memchr(s + b, ']', e - b);
      SrcRange r = range(path, line, off0, (uint32_t)(ls + b), (uint32_t)(ls + e));
      if (!close) {
        diag_error(d, &r, "Invalid host configuration section",
                   "%s line %u: a section header must end with \"]\".",
                   path, line);
        ok = false;
        continue;
      }
      size_t nb, ne;
      size_t inner = (size_t)(close - (s + b)) - 1;
      trim(s + b + 1, inner, &nb, &ne);
      size_t after = (size_t)(close - s) + 1;
      size_t ab, ae;
      trim(s + after, e - after, &ab, &ae);
      if (ab != ae && s[after + ab] != ';' && s[after + ab] != '#') {
        diag_error(d, &r, "Invalid host configuration section",
                   "%s line %u: unexpected text after the section header.",
                   path, line);
        ok = false;
      }
      section = arena_strndup(a, s + b + 1 + nb, ne - nb);
      if (out->nsections == scap) {
        uint32_t nc = scap ? scap * 2 : 8;
        out->sections = arena_grow(a, out->sections, sizeof(IniSection),
                                   _Alignof(IniSection), scap, nc);
        scap = nc;
      }
      IniSection *sec = &out->sections[out->nsections++];
      sec->name = section;
      sec->line = line;
      sec->range = r;
      continue;
    }
    /* name = value or name: value; the first of the two separators wins */
    size_t sep = b;
    while (sep < e && s[sep] != '=' && s[sep] != ':')
      sep++;
    SrcRange r = range(path, line, off0, (uint32_t)(ls + b), (uint32_t)(ls + e));
    if (sep == e) {
      diag_error(d, &r, "Invalid host configuration line",
                 "%s line %u: expected \"name = value\", \"name: value\", a "
                 "[section] header or a comment.", path, line);
      ok = false;
      continue;
    }
    size_t nb, ne;
    trim(s + b, sep - b, &nb, &ne);
    if (nb == ne) {
      diag_error(d, &r, "Invalid host configuration line",
                 "%s line %u: the setting has no name before \"%c\".", path,
                 line, s[sep]);
      ok = false;
      continue;
    }
    size_t vs = sep + 1;
    size_t ve = vs + strip_inline(s + vs, e - vs);
    size_t vb2, ve2;
    trim(s + vs, ve - vs, &vb2, &ve2);
    if (out->nentries == cap) {
      uint32_t nc = cap ? cap * 2 : 16;
      out->entries = arena_grow(a, out->entries, sizeof(IniEntry),
                                _Alignof(IniEntry), cap, nc);
      cap = nc;
    }
    IniEntry *en = &out->entries[out->nentries++];
    en->section = section;
    en->name = arena_strndup(a, s + b + nb, ne - nb);
    en->value = arena_strndup(a, s + vs + vb2, ve2 - vb2);
    en->line = line;
    en->name_range = range(path, line, off0, (uint32_t)(ls + b + nb),
                           (uint32_t)(ls + b + ne));
    en->value_range = range(path, line, off0, (uint32_t)(ls + vs + vb2),
                            (uint32_t)(ls + vs + ve2));
    last_was_value = true;
  }
  return ok;
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
