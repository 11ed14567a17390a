/*
** config_tfver.c: Terraform version constraints (hashicorp/go-version's
** Constraints, as Terraform checks `required_version`) against the
** Terraform language version cairn implements (CFG_TERRAFORM_VERSION).
**
** Syntax: constraints separated by commas, each an optional operator (=,
** !=, >, <, >=, <=, ~>) and a version of one to three dot-separated
** numbers with an optional "-prerelease" and "+metadata" (a leading "v"
** is accepted).  Missing segments are zero.  `~> 1.2` allows >= 1.2 and
** < 2.0; `~> 1.2.3` allows >= 1.2.3 and < 1.3.0.  A constraint with a
** prerelease matches only that prerelease's version (or, without ~>,
** releases compared as usual); a prerelease version satisfies only
** constraints naming a prerelease of the same version.
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "config_priv.h"

typedef struct Ver {
  long seg[3];
  int nseg;            /* segments written in the text (1..3) */
  char pre[64];        /* prerelease, "" for none */
} Ver;

static bool parse_ver(const char *s, size_t n, Ver *v)
{
  memset(v, 0, sizeof *v);
  size_t i = 0;
  if (i < n && s[i] == 'v')
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
    if (i < n && s[i] == '.') {
      i++;
      continue;
    }
    break;
  }
  if (i < n && s[i] == '-') {
    size_t st = ++i;
    while (i < n && s[i] != '+')
      i++;
    if (i == st || i - st >= sizeof v->pre)
      return false;
    memcpy(v->pre, s + st, i - st);
  }
  if (i < n && s[i] == '+') {
    if (++i >= n)
      return false;
    i = n;   /* metadata is ignored in comparisons */
  }
  return i == n;
}

/* go-version's Compare: segments, then a prerelease is lower than the
** release; two prereleases compare as strings. */
static int cmp_ver(const Ver *a, const Ver *b)
{
  for (int i = 0; i < 3; i++)
    if (a->seg[i] != b->seg[i])
      return a->seg[i] < b->seg[i] ? -1 : 1;
  if (!a->pre[0] || !b->pre[0])
    return a->pre[0] ? -1 : b->pre[0] ? 1 : 0;
  int r = strcmp(a->pre, b->pre);
  return r < 0 ? -1 : r > 0;
}

static bool check_one(const char *op, const Ver *c, const Ver *v)
{
  bool cpre = c->pre[0] != 0, vpre = v->pre[0] != 0;
  if (vpre && !cpre)
    return false;
  if (vpre && cpre &&
      (c->seg[0] != v->seg[0] || c->seg[1] != v->seg[1] ||
       c->seg[2] != v->seg[2]))
    return false;
  int r = cmp_ver(v, c);
  if (!strcmp(op, "") || !strcmp(op, "="))
    return r == 0;
  if (!strcmp(op, "!="))
    return r != 0;
  if (!strcmp(op, ">"))
    return r > 0;
  if (!strcmp(op, "<"))
    return r < 0;
  if (!strcmp(op, ">="))
    return r >= 0;
  if (!strcmp(op, "<="))
    return r <= 0;
  /* ~> */
  if (cpre && !vpre)
    return false;
  if (r < 0)
    return false;
  for (int i = 0; i < c->nseg - 1; i++)
    if (v->seg[i] != c->seg[i])
      return false;
  return true;
}

int cfg_version_check(const char *constraints, const char *version)
{
  Ver v;
  if (!parse_ver(version, strlen(version), &v))
    return -1;
  bool ok = true;
  const char *p = constraints;
  for (;;) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    size_t i = 0;
    while (i < n && isspace((unsigned char)p[i]))
      i++;
    char op[3] = "";
    static const char *const ops[] = {"~>", ">=", "<=", "!=", ">", "<",
                                      "="};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
      size_t l = strlen(ops[k]);
      if (n - i >= l && !strncmp(p + i, ops[k], l)) {
        memcpy(op, ops[k], l);
        i += l;
        break;
      }
    }
    while (i < n && isspace((unsigned char)p[i]))
      i++;
    size_t e = n;
    while (e > i && isspace((unsigned char)p[e - 1]))
      e--;
    Ver c;
    if (!parse_ver(p + i, e - i, &c))
      return -1;
    if (!check_one(op, &c, &v))
      ok = false;
    if (!end)
      break;
    p = end + 1;
  }
  return ok ? 1 : 0;
}
