/*
** funcs_fs: filesystem functions (Terraform's filesystem.go): abspath,
** dirname, basename, pathexpand, file, fileexists, fileset (doublestar
** globs), filebase64 and templatefile.  Relative paths are resolved
** against FnCall.base_dir (path.module), then cleaned like Go's
** filepath.Clean.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/b64.h"
#include "base/json.h"
#include "funcs_impl.h"

/* Go's filepath.Clean, into the arena. */
static char *clean(Arena *a, const char *p)
{
  size_t n = strlen(p);
  if (n == 0)
    return arena_strdup(a, ".");
  bool rooted = p[0] == '/';
  char *out = arena_alloc_raw(a, 1, 1, n + 2);
  size_t w = 0, r = 0, dotdot = 0;
  if (rooted) {
    out[w++] = '/';
    r = 1;
    dotdot = 1;
  }
  while (r < n) {
    if (p[r] == '/') {
      r++;
    } else if (p[r] == '.' && (r + 1 == n || p[r + 1] == '/')) {
      r++;
    } else if (p[r] == '.' && p[r + 1] == '.' && (r + 2 == n || p[r + 2] == '/')) {
      r += 2;
      if (w > dotdot) {
        w--;
        while (w > dotdot && out[w] != '/')
          w--;
      } else if (!rooted) {
        if (w > 0)
          out[w++] = '/';
        out[w++] = '.';
        out[w++] = '.';
        dotdot = w;
      }
    } else {
      if ((rooted && w != 1) || (!rooted && w != 0))
        out[w++] = '/';
      while (r < n && p[r] != '/')
        out[w++] = p[r++];
    }
  }
  if (w == 0)
    out[w++] = '.';
  out[w] = 0;
  return out;
}

static char *join(Arena *a, const char *x, const char *y)
{
  if (!*x)
    return clean(a, y);
  if (!*y)
    return clean(a, x);
  return clean(a, arena_printf(a, "%s/%s", x, y));
}

static const char *go_quote(FnCall *c, const char *s)
{
  Buf b;
  buf_init(&b, c->arena);
  json_write_string(&b, s, strlen(s));
  return buf_str(&b);
}

/* homedir.Expand: "~" and "~/..." only. */
static bool expand_home(FnCall *c, const char *p, const char **out)
{
  if (p[0] != '~') {
    *out = p;
    return true;
  }
  if (p[1] != 0 && p[1] != '/' && p[1] != '\\')
    return fn_error(c, "failed to expand ~: cannot expand user-specific home "
                       "dir");
  const char *home = getenv("HOME");
  if (!home || !*home)
    return fn_error(c, "failed to expand ~: HOME is not set");
  *out = join(c->arena, home, p + 1);
  return true;
}

static bool resolve(FnCall *c, const char *path, const char **out)
{
  const char *p = NULL;
  if (!expand_home(c, path, &p))
    return false;
  if (p[0] != '/')
    p = join(c->arena, c->base_dir ? c->base_dir : ".", p);
  *out = clean(c->arena, p);
  return true;
}

bool fn_read_file(FnCall *c, Value path, const char **data, size_t *n)
{
  const char *p = NULL;
  if (!resolve(c, path.u.s, &p))
    return false;
  int fd = open(p, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR)
      return fn_error(c, "no file exists at %s; this function works only with "
                         "files that are distributed as part of the "
                         "configuration source code, so if this file will be "
                         "created by a resource in this configuration you "
                         "must instead obtain this result from an attribute "
                         "of that resource", go_quote(c, p));
    return fn_error(c, "failed to read file %s", go_quote(c, p));
  }
  /* A cap, so a device that never ends (/dev/zero) or a huge file stops
  ** with an error instead of growing until the kernel kills us. */
  size_t cap = FN_MAX_FILE_BYTES;
#ifdef CAIRN_TEST
  /* Test builds: a smaller cap, so a test of /dev/zero does not need
  ** gigabytes under ASan. */
  const char *tc = getenv("CAIRN_TEST_FILE_CAP");
  if (tc && *tc)
    cap = (size_t)strtoull(tc, NULL, 10);
#endif
  Buf b;
  buf_init(&b, c->arena);
  int err = buf_read_fd(&b, fd, cap);
  if (err == EFBIG) {
    close(fd);
    return fn_error(c, "file %s is larger than %zu bytes, the most a "
                       "function reads", go_quote(c, p), cap);
  }
  if (err) {
    close(fd);
    return fn_error(c, "failed to read file %s", go_quote(c, p));
  }
  close(fd);
  *data = b.p ? b.p : "";
  *n = b.len;
  return true;
}

bool fn_file(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *d;
  size_t len;
  if (!fn_read_file(c, a[0], &d, &len))
    return false;
  if (!fn_utf8_valid(d, len))
    return fn_error(c, "contents of %s are not valid UTF-8; use the "
                       "filebase64 function to obtain the Base64 encoded "
                       "contents or the other file functions (e.g. filemd5, "
                       "filesha256) to obtain file hashing results instead",
                    go_quote(c, a[0].u.s));
  *out = val_str_ref(d, len);
  return true;
}

bool fn_filebase64(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *d;
  size_t len;
  if (!fn_read_file(c, a[0], &d, &len))
    return false;
  Buf b;
  buf_init(&b, c->arena);
  b64_put(&b, d, len, false, true);
  *out = fn_buf_val(&b);
  return true;
}

bool fn_fileexists(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *p = NULL;
  if (!resolve(c, a[0].u.s, &p))
    return false;
  struct stat st;
  if (stat(p, &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      *out = val_false;
      return true;
    }
    return fn_error(c, "failed to stat %s", go_quote(c, p));
  }
  if (S_ISREG(st.st_mode)) {
    *out = val_true;
    return true;
  }
  if (S_ISDIR(st.st_mode))
    return fn_arg_error(c, 0, "%s is a directory, not a file",
                        go_quote(c, p));
  return fn_arg_error(c, 0, "%s is not a regular file", go_quote(c, p));
}

bool fn_abspath(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *p = a[0].u.s;
  if (p[0] != '/') {
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
      return fn_error(c, "failed to get the current directory");
    p = join(c->arena, cwd, p);
  }
  *out = val_cstr(c->arena, clean(c->arena, p));
  return true;
}

bool fn_dirname(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *p = a[0].u.s;
  const char *slash = strrchr(p, '/');
  char *dir;
  if (!slash)
    dir = arena_strdup(c->arena, "");
  else
    dir = arena_strndup(c->arena, p, (size_t)(slash - p + 1));
  *out = val_cstr(c->arena, clean(c->arena, dir));
  return true;
}

bool fn_basename(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *p = a[0].u.s;
  size_t len = a[0].len;
  if (len == 0) {
    *out = val_str_ref(".", 1);
    return true;
  }
  while (len > 0 && p[len - 1] == '/')
    len--;
  if (len == 0) {
    *out = val_str_ref("/", 1);
    return true;
  }
  size_t s = len;
  while (s > 0 && p[s - 1] != '/')
    s--;
  *out = val_str(c->arena, p + s, len - s);
  return true;
}

bool fn_pathexpand(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *p = NULL;
  if (!expand_home(c, a[0].u.s, &p))
    return false;
  *out = p == a[0].u.s ? a[0] : val_cstr(c->arena, p);
  return true;
}

/* ---- fileset ------------------------------------------------------------- */

/* One pattern element (?, [class], literal) at pat[*pi] against the rune
** at s[*si]; advances both on success. */
static bool match_one(const char *pat, size_t pn, size_t *pi, const char *s,
                      size_t sn, size_t *si)
{
  size_t l;
  uint32_t r = fn_utf8_dec(s + *si, sn - *si, &l);
  char pc = pat[*pi];
  if (pc == '?') {
    (*pi)++;
    *si += l;
    return true;
  }
  if (pc == '[') {
    size_t k = *pi + 1;
    bool neg = k < pn && (pat[k] == '!' || pat[k] == '^');
    if (neg)
      k++;
    bool hit = false;
    while (k < pn && pat[k] != ']') {
      size_t l1, l2;
      uint32_t lo = fn_utf8_dec(pat + k, pn - k, &l1), hi = lo;
      k += l1;
      if (k + 1 < pn && pat[k] == '-' && pat[k + 1] != ']') {
        hi = fn_utf8_dec(pat + k + 1, pn - k - 1, &l2);
        k += 1 + l2;
      }
      if (r >= lo && r <= hi)
        hit = true;
    }
    if (k >= pn || hit == neg)
      return false;
    *pi = k + 1;
    *si += l;
    return true;
  }
  size_t p = *pi;
  if (pc == '\\' && p + 1 < pn)
    p++;
  if (s[*si] != pat[p])
    return false;
  *pi = p + 1;
  *si += 1;
  return true;
}

/* Matches one path segment against a glob segment (* ? [class]) with the
** classic single-backtrack-point algorithm: O(len(pat) * len(s)). */
static bool seg_match(const char *pat, size_t pn, const char *s, size_t sn)
{
  size_t pi = 0, si = 0, star_p = (size_t)-1, star_s = 0;
  while (si < sn) {
    if (pi < pn && pat[pi] == '*') {
      star_p = ++pi;
      star_s = si;
      continue;
    }
    size_t npi = pi, nsi = si;
    if (pi < pn && match_one(pat, pn, &npi, s, sn, &nsi)) {
      pi = npi;
      si = nsi;
      continue;
    }
    if (star_p == (size_t)-1)
      return false;
    size_t l;
    fn_utf8_dec(s + star_s, sn - star_s, &l);
    star_s += l;
    si = star_s;
    pi = star_p;
  }
  while (pi < pn && pat[pi] == '*')
    pi++;
  return pi == pn;
}

typedef struct Seg {
  const char *p;
  size_t n;
} Seg;

/* Matches path segments against pattern segments, ** spanning any
** number (including zero) of directories. */
static bool path_match(const Seg *ps, size_t np, const Seg *ss, size_t ns)
{
  if (np == 0)
    return ns == 0;
  if (ps[0].n == 2 && ps[0].p[0] == '*' && ps[0].p[1] == '*') {
    for (size_t k = 0; k <= ns; k++)
      if (path_match(ps + 1, np - 1, ss + k, ns - k))
        return true;
    return false;
  }
  if (ns == 0)
    return false;
  return seg_match(ps[0].p, ps[0].n, ss[0].p, ss[0].n) &&
         path_match(ps + 1, np - 1, ss + 1, ns - 1);
}

static size_t split_segs(Arena *a, const char *p, Seg **out)
{
  size_t n = 0, cap = 8;
  Seg *s = ARENA_NEW(a, Seg, cap);
  while (*p) {
    while (*p == '/')
      p++;
    if (!*p)
      break;
    const char *e = strchr(p, '/');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (n == cap) {
      s = arena_grow(a, s, sizeof(Seg), _Alignof(Seg), cap, cap * 2);
      cap *= 2;
    }
    s[n].p = p;
    s[n].n = len;
    n++;
    p += len;
  }
  *out = s;
  return n;
}

/* Expands the first {a,b} group of pat recursively (doublestar's
** alternatives), appending whole patterns to list. */
static void expand_braces(Arena *a, const char *pat, const char ***list,
                          uint32_t *n, uint32_t *cap)
{
  const char *open = strchr(pat, '{');
  const char *close = NULL;
  if (open) {
    int lvl = 0;
    for (const char *q = open; *q; q++) {
      if (*q == '{')
        lvl++;
      else if (*q == '}' && --lvl == 0) {
        close = q;
        break;
      }
    }
  }
  if (!open || !close || *n >= 256) {
    if (*n == *cap) {
      *list = arena_grow(a, *list, sizeof(char *), _Alignof(char *), *cap,
                         *cap * 2);
      *cap *= 2;
    }
    (*list)[(*n)++] = pat;
    return;
  }
  const char *st = open + 1;
  int lvl = 0;
  for (const char *q = open + 1; q <= close; q++) {
    if (*q == '{')
      lvl++;
    else if (*q == '}' && q != close)
      lvl--;
    if (q == close || (*q == ',' && lvl == 0)) {
      char *alt = arena_printf(a, "%.*s%.*s%s", (int)(open - pat), pat,
                               (int)(q - st), st, close + 1);
      expand_braces(a, alt, list, n, cap);
      st = q + 1;
    }
  }
}

typedef struct Walk {
  FnCall *c;
  Seg **pss;
  size_t *nps;
  uint32_t npat;
  Value *res;
  uint32_t n, cap;
  size_t visited;
} Walk;

static bool walk(Walk *w, const char *dir, const char *rel, int depth)
{
  if (depth > 64 || w->visited > 1000000)
    return true;
  DIR *d = opendir(dir);
  if (!d)
    return true;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    w->visited++;
    char *full = arena_printf(w->c->arena, "%s/%s", dir, e->d_name);
    char *r = *rel ? arena_printf(w->c->arena, "%s/%s", rel, e->d_name)
                   : arena_strdup(w->c->arena, e->d_name);
    struct stat st;
    if (stat(full, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      walk(w, full, r, depth + 1);
      continue;
    }
    if (!S_ISREG(st.st_mode))
      continue;
    Seg *ss;
    size_t ns = split_segs(w->c->arena, r, &ss);
    bool hit = false;
    for (uint32_t k = 0; k < w->npat && !hit; k++)
      hit = path_match(w->pss[k], w->nps[k], ss, ns);
    if (!hit)
      continue;
    if (w->n == w->cap) {
      uint32_t nc = w->cap ? w->cap * 2 : 16;
      w->res = arena_grow(w->c->arena, w->res, sizeof(Value), _Alignof(Value),
                          w->cap, nc);
      w->cap = nc;
    }
    w->res[w->n++] = val_cstr(w->c->arena, r);
  }
  closedir(d);
  return true;
}

bool fn_fileset(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *base = a[0].u.s;
  if (base[0] != '/')
    base = join(c->arena, c->base_dir ? c->base_dir : ".", base);
  base = clean(c->arena, base);
  /* The pattern is relative to path; Go joins and cleans it. */
  const char *pat = a[1].u.s;
  if (pat[0] == '/')
    pat++;
  pat = clean(c->arena, pat);
  if (!strcmp(pat, "."))
    pat = "";
  for (const char *q = pat; *q; q++)
    if (*q == '[') {
      const char *e = strchr(q, ']');
      if (!e)
        return fn_error(c, "failed to glob pattern %s: syntax error in "
                           "pattern", go_quote(c, join(c->arena, base,
                                                       a[1].u.s)));
    }
  Walk w;
  memset(&w, 0, sizeof w);
  w.c = c;
  uint32_t cap = 4;
  const char **pats = ARENA_NEW(c->arena, const char *, cap);
  expand_braces(c->arena, pat, &pats, &w.npat, &cap);
  w.pss = ARENA_NEW(c->arena, Seg *, w.npat);
  w.nps = ARENA_NEW(c->arena, size_t, w.npat);
  for (uint32_t k = 0; k < w.npat; k++)
    w.nps[k] = split_segs(c->arena, pats[k], &w.pss[k]);
  walk(&w, base, "", 0);
  *out = val_set(c->arena, &ty_string, w.res, w.n);
  return true;
}

/* ---- templatefile ---------------------------------------------------------- */

bool fn_templatefile(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value vars = a[1];
  if (!val_is_null(vars) && !fn_is_mapish(vars.type))
    return fn_arg_error(c, 1, "invalid vars value: must be a map");
  const char *d;
  size_t len;
  if (!fn_read_file(c, a[0], &d, &len))
    return false;
  if (!fn_utf8_valid(d, len))
    return fn_error(c, "contents of %s are not valid UTF-8",
                    go_quote(c, a[0].u.s));
  if (!c->render_template)
    return fn_error(c, "templates are not available in this context");
  bool saved = c->in_template;
  c->in_template = true;
  bool ok = c->render_template(c, a[0].u.s, d, len, vars, out);
  c->in_template = saved;
  return ok;
}
