/*
** lockfile.c: reading and writing .terraform.lock.hcl.  Contracts in
** lockfile.h.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lockfile.h"
#include "providers/provider.h"

LockEnt *lockf_find(const Lock *l, const char *addr)
{
  for (uint32_t i = 0; i < l->n; i++)
    if (strcmp(l->e[i].addr, addr) == 0)
      return &l->e[i];
  return NULL;
}

LockEnt *lockf_add(Arena *a, Lock *l, const char *addr)
{
  LockEnt *e = lockf_find(l, addr);
  if (e)
    return e;
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 8;
    l->e = arena_grow(a, l->e, sizeof(LockEnt), _Alignof(LockEnt), l->cap,
                      nc);
    l->cap = nc;
  }
  e = &l->e[l->n++];
  memset(e, 0, sizeof *e);
  e->addr = addr;
  return e;
}

void lockf_add_hash(Arena *a, LockEnt *e, const char *hash)
{
  for (uint32_t i = 0; i < e->nhashes; i++)
    if (strcmp(e->hashes[i], hash) == 0)
      return;
  const char **v = ARENA_NEW(a, const char *, e->nhashes + 1);
  if (e->nhashes)
    memcpy(v, e->hashes, e->nhashes * sizeof *v);
  v[e->nhashes++] = hash;
  e->hashes = v;
}

/* A quoted HCL string literal starting at p (only \" and \\ escapes are
** written by cairn or Terraform here); the text after it, or NULL. */
static const char *read_quoted(Arena *a, const char *p, const char **out)
{
  if (*p != '"')
    return NULL;
  Buf b;
  buf_init(&b, a);
  for (p++; *p && *p != '"' && *p != '\n'; p++) {
    if (*p == '\\' && p[1])
      p++;
    buf_putc(&b, *p);
  }
  if (*p != '"')
    return NULL;
  *out = buf_str(&b);
  return p + 1;
}

/* One attribute line "name = value" of a provider block; false when the
** line is not one. */
static bool read_attr(Arena *a, LockEnt *cur, char *s, bool *in_hashes)
{
  char *eq = strchr(s, '=');
  if (!eq)
    return false;
  char *e = eq;
  while (e > s && e[-1] == ' ')
    e--;
  *e = 0;
  const char *name = s, *val = eq + 1, *v;
  while (*val == ' ')
    val++;
  if (strcmp(name, "builtin") == 0 && strcmp(val, "true") == 0) {
    cur->builtin = true;
    return true;
  }
  if (strcmp(name, "hashes") == 0) {
    if (strcmp(val, "[]") == 0)
      return true;
    *in_hashes = strcmp(val, "[") == 0;
    return *in_hashes;
  }
  const char *rest = read_quoted(a, val, &v);
  if (!rest || *rest)
    return false;
  if (strcmp(name, "endpoint") == 0)
    cur->endpoint = v;
  else if (strcmp(name, "identity") == 0)
    cur->identity = v;
  else if (strcmp(name, "schema") == 0)
    cur->schema = v;
  else if (strcmp(name, "version") == 0)
    cur->version = v;
  else if (strcmp(name, "constraints") == 0)
    cur->constraints = v;
  /* Unknown attributes are skipped: a newer cairn may add some. */
  return true;
}

bool lockf_read(Arena *a, const char *path, Lock *l, Diags *d)
{
  memset(l, 0, sizeof *l);
  const char *text;
  size_t len;
  if (!prov_read_file(a, path, &text, &len)) {
    if (errno == ENOENT)
      return true;
    diag_error(d, NULL, "Failed to read dependency lock file", "%s: %s",
               path, strerror(errno));
    return false;
  }
  LockEnt *cur = NULL;
  bool in_hashes = false;
  uint32_t line = 0;
  for (const char *p = text; *p;) {
    line++;
    const char *eol = strchr(p, '\n');
    size_t n = eol ? (size_t)(eol - p) : strlen(p);
    char *s = arena_strndup(a, p, n);
    p += n + (eol ? 1 : 0);
    while (*s == ' ' || *s == '\t')
      s++;
    size_t k = strlen(s);
    while (k && (s[k - 1] == ' ' || s[k - 1] == '\r' || s[k - 1] == '\t'))
      s[--k] = 0;
    if (!*s || *s == '#' || (s[0] == '/' && s[1] == '/'))
      continue;
    const char *v;
    if (in_hashes) {
      if (strcmp(s, "]") == 0) {
        in_hashes = false;
        continue;
      }
      const char *rest = read_quoted(a, s, &v);
      if (rest && (!*rest || strcmp(rest, ",") == 0)) {
        lockf_add_hash(a, cur, v);
        continue;
      }
    } else if (!cur && strncmp(s, "provider ", 9) == 0) {
      const char *rest = read_quoted(a, s + 9, &v);
      while (rest && *rest == ' ')
        rest++;
      if (rest && strcmp(rest, "{") == 0) {
        cur = lockf_add(a, l, v);
        continue;
      }
    } else if (cur && strcmp(s, "}") == 0) {
      cur = NULL;
      continue;
    } else if (cur && read_attr(a, cur, s, &in_hashes)) {
      continue;
    }
    SrcRange r = {path, {line, 1, 0}, {line, 1, 0}};
    diag_error(d, &r, "Invalid dependency lock file",
               "%s:%u cannot be read; fix or delete the file and run "
               "\"cairn init\" again.",
               path, line);
    return false;
  }
  return true;
}

static void hcl_str(Buf *b, const char *s)
{
  buf_putc(b, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      buf_putc(b, '\\');
    buf_putc(b, *s);
  }
  buf_putc(b, '"');
}

static int cmp_ent(const void *x, const void *y)
{
  return strcmp(((const LockEnt *)x)->addr, ((const LockEnt *)y)->addr);
}

static int cmp_str(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

bool lockf_write(Arena *a, const char *path, Lock *l, Diags *d)
{
  if (l->n)
    qsort(l->e, l->n, sizeof *l->e, cmp_ent);
  Buf b;
  buf_init(&b, a);
  buf_puts(&b, "# This file is maintained automatically by \"cairn init\".\n"
               "# Manual edits may be lost in future updates.\n");
  for (uint32_t i = 0; i < l->n; i++) {
    LockEnt *e = &l->e[i];
    buf_puts(&b, "\nprovider ");
    hcl_str(&b, e->addr);
    buf_puts(&b, " {\n");
    if (e->builtin) {
      buf_puts(&b, "  builtin = true\n");
    } else if (e->version) {
      /* hclwrite aligns the '=' of consecutive one-line attributes. */
      bool c = e->constraints && *e->constraints;
      buf_puts(&b, c ? "  version     = " : "  version = ");
      hcl_str(&b, e->version);
      buf_putc(&b, '\n');
      if (c) {
        buf_puts(&b, "  constraints = ");
        hcl_str(&b, e->constraints);
        buf_putc(&b, '\n');
      }
      if (e->nhashes)
        qsort(e->hashes, e->nhashes, sizeof *e->hashes, cmp_str);
      buf_puts(&b, "  hashes = [\n");
      for (uint32_t k = 0; k < e->nhashes; k++) {
        buf_puts(&b, "    ");
        hcl_str(&b, e->hashes[k]);
        buf_puts(&b, ",\n");
      }
      buf_puts(&b, "  ]\n");
    } else {
      buf_puts(&b, "  endpoint = ");
      hcl_str(&b, e->endpoint ? e->endpoint : "");
      buf_puts(&b, "\n  identity = ");
      hcl_str(&b, e->identity ? e->identity : "");
      buf_puts(&b, "\n  schema   = ");
      hcl_str(&b, e->schema ? e->schema : "");
      buf_puts(&b, "\n");
      if (e->nhashes) {   /* a `plugin = PATH` binary's h1: */
        qsort(e->hashes, e->nhashes, sizeof *e->hashes, cmp_str);
        buf_puts(&b, "  hashes = [\n");
        for (uint32_t k = 0; k < e->nhashes; k++) {
          buf_puts(&b, "    ");
          hcl_str(&b, e->hashes[k]);
          buf_puts(&b, ",\n");
        }
        buf_puts(&b, "  ]\n");
      }
    }
    buf_puts(&b, "}\n");
  }
  const char *tmp = arena_printf(a, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  bool ok = f && fwrite(b.p, 1, b.len, f) == b.len;
  if (f && fclose(f) != 0)
    ok = false;
  if (!ok || rename(tmp, path) != 0) {
    diag_error(d, NULL, "Failed to write dependency lock file", "%s: %s",
               path, strerror(errno));
    return false;
  }
  return true;
}
