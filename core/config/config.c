/*
** config.c: loading a module directory (reading and parsing its files,
** sizing the module's arrays), the name index behind the lookups, and the
** module tree (see config.h).  Decoding the top-level blocks is
** config_decode.c.  Follows Terraform's configs package (parser.go,
** module.go, config_build.go).
*/
#include "config_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"

#define MAX_CONFIG_FILE (64u << 20)   /* a .tf file larger than this is
                                         refused rather than read */

const char *cfg_pos_string(Arena *a, SrcRange r)
{
  return arena_printf(a, "%s:%u,%u-%u", r.file ? r.file : "?", r.start.line,
                      r.start.col, r.end.col);
}

/* ---- files ------------------------------------------------------------- */

static const char *top_block_context(const SrcFile *sf, uint32_t byte)
{
  const HclFile *f = sf->ctx;
  if (!f || !f->body || f->body->json)
    return NULL;
  const HclBody *b = f->body;
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const HclBlock *blk = b->blocks[i];
    if (byte < blk->type_range.start.byte || byte >= blk->close_brace.end.byte)
      continue;
    /* Render `type "l1" "l2"` once, into a small static-free buffer kept in
    ** the block: labels never need escaping beyond quotes here. */
    static _Thread_local char buf[512];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s", blk->type);
    for (uint32_t k = 0; k < blk->nlabels && n < sizeof buf; k++)
      n += (size_t)snprintf(buf + n, sizeof buf - n, " \"%s\"",
                            blk->labels[k]);
    return buf;
  }
  return NULL;
}

void cfg_register_source(SrcFiles *files, const HclFile *f)
{
  SrcFile *sf = diag_files_add(files, f->name, f->src, f->len);
  sf->block_context = top_block_context;
  sf->ctx = f;
}

static int cmp_names(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool has_suffix(const char *s, const char *suf)
{
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

/* Reads fd to its end into b.  A regular file's buffer is reserved at the
** size fstat reports plus one byte (the one that shows it grew): without
** it, buf_read_fd's 64 KiB steps double the buffer, a 230 KB file took a
** 512 KB buffer, and every outgrown copy stayed in the arena (bench-parse:
** 4.6 MB of .tf took about 20 MB).  Returns 0 or an errno value as
** buf_read_fd does. */
static int read_sized(Buf *b, int fd, const struct stat *st)
{
  if (S_ISREG(st->st_mode) && st->st_size > 0 &&
      (unsigned long long)st->st_size <= MAX_CONFIG_FILE)
    buf_reserve(b, (size_t)st->st_size + 1);
  return buf_read_fd(b, fd, MAX_CONFIG_FILE);
}

static char *read_file(Arena *a, const char *path, size_t *len, Diags *d)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    diag_error(d, NULL, "Failed to read file",
               "The configuration file \"%s\" could not be read: %s.", path,
               strerror(errno));
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  /* Read to end of file, not st_size bytes: a pipe or /dev/stdin says 0. */
  Buf b;
  buf_init(&b, a);
  int err = S_ISDIR(st.st_mode) ? EISDIR : read_sized(&b, fd, &st);
  close(fd);
  if (err == EFBIG) {
    diag_error(d, NULL, "Configuration file too large",
               "The configuration file \"%s\" is larger than %u bytes, "
               "the most cairn reads.", path, MAX_CONFIG_FILE);
    return NULL;
  }
  if (err) {
    diag_error(d, NULL, "Failed to read file",
               "The configuration file \"%s\" could not be read: %s.", path,
               strerror(err));
    return NULL;
  }
  *len = b.len;
  return b.p ? b.p : arena_strndup(a, "", 0);
}

/* Sizes the module's arrays for the top-level blocks of the parsed native
** files (JSON bodies are not counted: their arrays grow as needed).  The
** counts are upper bounds: a block that fails to decode is not pushed. */
static void reserve(Loader *L, HclFile *const *f, uint32_t n)
{
  uint32_t vars = 0, locals = 0, outputs = 0, res = 0, calls = 0, files = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!f[i])
      continue;
    files++;
    const HclBody *b = f[i]->body;
    if (!b || b->json)
      continue;
    for (uint32_t j = 0; j < b->nblocks; j++) {
      const HclBlock *k = b->blocks[j];
      const char *t = k->type;
      if (strcmp(t, "resource") == 0 || strcmp(t, "data") == 0)
        res++;
      else if (strcmp(t, "variable") == 0)
        vars++;
      else if (strcmp(t, "output") == 0)
        outputs++;
      else if (strcmp(t, "module") == 0)
        calls++;
      else if (strcmp(t, "locals") == 0 && k->body)
        locals += k->body->nattrs;
    }
  }
  CfgModule *m = L->m;
#define RESERVE(arr, cap, cnt)                                                \
  if ((cnt) > 0) {                                                            \
    (arr) = arena_alloc(L->a, sizeof *(arr), _Alignof(__typeof__(*(arr))),  \
                        (cnt));                                               \
    (cap) = (cnt);                                                            \
  }
  RESERVE(m->variables, L->cap_vars, vars)
  RESERVE(m->locals, L->cap_locals, locals)
  RESERVE(m->outputs, L->cap_outputs, outputs)
  RESERVE(m->resources, L->cap_res, res)
  RESERVE(m->calls, L->cap_calls, calls)
  RESERVE(m->files, L->cap_files, files)
#undef RESERVE
}

CfgModule *cfg_load_dir(Arena *a, const char *dir, SrcFiles *files, Diags *d)
{
  Loader L = {0};
  L.a = a;
  L.d = d;
  L.m = ARENA_NEW(a, CfgModule, 1);
  L.m->dir = arena_strdup(a, dir);
  DIR *dh = opendir(dir);
  if (!dh) {
    diag_error(d, NULL, "Failed to read module directory",
               "Module directory %s does not exist or cannot be read.", dir);
    return L.m;
  }
  const char **names = NULL;
  uint32_t n = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(dh))) {
    const char *nm = de->d_name;
    if (nm[0] == '.' || nm[0] == '#' || has_suffix(nm, "~"))
      continue;   /* editor and hidden files, as Terraform skips them */
    if (!has_suffix(nm, ".tf") && !has_suffix(nm, ".tf.json"))
      continue;
    *CFG_PUSH(&L, names, n, cap) = arena_strdup(a, nm);
  }
  closedir(dh);
  if (n)
    qsort(names, n, sizeof *names, cmp_names);
  /* Parse every file first and decode afterwards: the block counts then
  ** size the module's arrays exactly.  Grown by doubling while blocks were
  ** decoded in between, the resource array alone was copied a dozen times
  ** (twice its final size wasted in a 10,000-resource configuration).
  ** Each file's parse diagnostics are held back and emitted just before
  ** its decode diagnostics, so the order is the same as parsing and
  ** decoding one file at a time. */
  HclFile **parsed = ARENA_NEW(a, HclFile *, n ? n : 1);
  Diags *fd = ARENA_NEW(a, Diags, n ? n : 1);
  bool *is_override = ARENA_NEW(a, bool, n ? n : 1);
  for (uint32_t i = 0; i < n; i++) {
    const char *nm = names[i];
    bool json = has_suffix(nm, ".tf.json");
    const char *base = json ? arena_strndup(a, nm, strlen(nm) - 8)
                            : arena_strndup(a, nm, strlen(nm) - 3);
    diag_init(&fd[i], d->arena);
    is_override[i] = cfg_is_override_name(base);
    const char *path = strcmp(dir, ".") == 0
                           ? nm : arena_printf(a, "%s/%s", dir, nm);
    size_t len = 0;
    char *src = read_file(a, path, &len, &fd[i]);
    if (!src)
      continue;
    parsed[i] = json ? hcl_parse_json_file(a, path, src, len, &fd[i])
                     : hcl_parse_file(a, path, src, len, &fd[i]);
    cfg_register_source(files, parsed[i]);
  }
  reserve(&L, parsed, n);
  /* Terraform loads the primary files, then merges each override file in
  ** name order into the result (parser_config_dir.go, Module.mergeFile).
  ** Every file stays in m->files, in name order, for hashing and views. */
  for (uint32_t i = 0; i < n; i++)
    if (parsed[i])
      *CFG_PUSH(&L, L.m->files, L.m->nfiles, L.cap_files) = parsed[i];
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t i = 0; i < n; i++) {
      if (is_override[i] != (pass == 1))
        continue;
      diag_move(d, &fd[i]);
      if (!parsed[i])
        continue;
      if (!pass) {
        cfg_decode_file(&L, parsed[i]);
        continue;
      }
      Loader O = {0};
      O.a = a;
      O.d = d;
      O.override = true;
      O.m = ARENA_NEW(a, CfgModule, 1);
      O.m->dir = L.m->dir;
      cfg_decode_file(&O, parsed[i]);
      cfg_merge_override(&L, &O);
    }
  cfg_check_versions(&L);
  cfg_check_action_refs(&L);
  return L.m;
}

/* ---- lookups ------------------------------------------------------------ */

/* The name index: one open-addressing table of array positions for every
** kind, keyed by (kind, [mode, type,] name).  Slots hold position + 1 (0 =
** empty); a hit is confirmed by comparing the names, so hash collisions
** cost a strcmp and nothing else.  covered[k] counts the entries of kind k
** the index has seen: anything pushed later is scanned linearly. */
typedef struct CfgIndex {
  uint32_t *slot;
  uint32_t *hash;                /* of the slot's key: growing the table and
                                    probing past other keys read no names
                                    (scattered over the tree: cache misses) */
  uint8_t *kind;
  uint32_t cap;                  /* power of two */
  uint32_t used;
  uint32_t covered[IX_KINDS];
} CfgIndex;

static uint32_t ix_hash(uint32_t kind, uint32_t mode, const char *type,
                        const char *name)
{
  uint32_t h = 2166136261u ^ (kind * 16777619u) ^ mode;
  for (const char *p = type; p && *p; p++)
    h = (h ^ (unsigned char)*p) * 16777619u;
  h = (h ^ '.') * 16777619u;
  for (const char *p = name; *p; p++)
    h = (h ^ (unsigned char)*p) * 16777619u;
  return h ^ (h >> 15);
}

static const char *ix_name(const CfgModule *m, uint32_t kind, uint32_t i,
                           uint32_t *mode, const char **type)
{
  *mode = 0;
  *type = NULL;
  switch (kind) {
  case IX_VAR: return m->variables[i].name;
  case IX_LOCAL: return m->locals[i].name;
  case IX_OUTPUT: return m->outputs[i].name;
  case IX_RES:
    *mode = (uint32_t)m->resources[i].mode;
    *type = m->resources[i].type;
    return m->resources[i].name;
  default: return m->calls[i].name;
  }
}

static uint32_t ix_count(const CfgModule *m, uint32_t kind)
{
  switch (kind) {
  case IX_VAR: return m->nvariables;
  case IX_LOCAL: return m->nlocals;
  case IX_OUTPUT: return m->noutputs;
  case IX_RES: return m->nresources;
  default: return m->ncalls;
  }
}

static bool ix_match(const CfgModule *m, uint32_t kind, uint32_t i,
                     uint32_t mode, const char *type, const char *name)
{
  uint32_t em;
  const char *et;
  const char *en = ix_name(m, kind, i, &em, &et);
  return em == mode && strcmp(en, name) == 0 &&
         (!type || strcmp(et, type) == 0);
}

static void ix_put(CfgIndex *x, uint32_t h, uint32_t kind, uint32_t pos)
{
  uint32_t j = h & (x->cap - 1);
  while (x->slot[j])
    j = (j + 1) & (x->cap - 1);
  x->slot[j] = pos + 1;
  x->hash[j] = h;
  x->kind[j] = (uint8_t)kind;
  x->used++;
}

/* Records the newest entry of kind (just pushed) in m's index. */
void cfg_ix_add(Loader *L, uint32_t kind)
{
  CfgModule *m = L->m;
  CfgIndex *x = m->index;
  if (!x) {
    x = m->index = ARENA_NEW(L->a, CfgIndex, 1);
    x->cap = 64;
    x->slot = ARENA_NEW(L->a, uint32_t, x->cap);
    x->hash = ARENA_NEW(L->a, uint32_t, x->cap);
    x->kind = ARENA_NEW(L->a, uint8_t, x->cap);
  }
  if (x->covered[kind] + 1 != ix_count(m, kind))
    return;   /* out of step: leave the rest to the linear scan */
  if ((x->used + 1) * 2 > x->cap) {
    uint32_t oc = x->cap;
    uint32_t *os = x->slot, *oh = x->hash;
    uint8_t *ok = x->kind;
    x->cap *= 2;
    x->slot = ARENA_NEW(L->a, uint32_t, x->cap);
    x->hash = ARENA_NEW(L->a, uint32_t, x->cap);
    x->kind = ARENA_NEW(L->a, uint8_t, x->cap);
    x->used = 0;
    for (uint32_t j = 0; j < oc; j++)
      if (os[j])
        ix_put(x, oh[j], ok[j], os[j] - 1);
  }
  uint32_t pos = x->covered[kind]++;
  uint32_t md;
  const char *ty;
  const char *nm = ix_name(m, kind, pos, &md, &ty);
  ix_put(x, ix_hash(kind, md, ty, nm), kind, pos);
}

/* Position of the entry or UINT32_MAX. */
static uint32_t ix_find(const CfgModule *m, uint32_t kind, uint32_t mode,
                        const char *type, const char *name)
{
  uint32_t from = 0, n = ix_count(m, kind);
  const CfgIndex *x = m->index;
  if (x) {
    uint32_t h = ix_hash(kind, mode, type, name);
    uint32_t j = h & (x->cap - 1);
    for (; x->slot[j]; j = (j + 1) & (x->cap - 1))
      if (x->hash[j] == h && x->kind[j] == kind && x->slot[j] - 1 < n &&
          ix_match(m, kind, x->slot[j] - 1, mode, type, name))
        return x->slot[j] - 1;
    from = x->covered[kind] < n ? x->covered[kind] : n;
  }
  for (uint32_t i = from; i < n; i++)
    if (ix_match(m, kind, i, mode, type, name))
      return i;
  return UINT32_MAX;
}

const CfgVariable *cfg_variable(const CfgModule *m, const char *name)
{
  uint32_t i = ix_find(m, IX_VAR, 0, NULL, name);
  return i == UINT32_MAX ? NULL : &m->variables[i];
}

const CfgLocal *cfg_local(const CfgModule *m, const char *name)
{
  uint32_t i = ix_find(m, IX_LOCAL, 0, NULL, name);
  return i == UINT32_MAX ? NULL : &m->locals[i];
}

const CfgOutput *cfg_output(const CfgModule *m, const char *name)
{
  uint32_t i = ix_find(m, IX_OUTPUT, 0, NULL, name);
  return i == UINT32_MAX ? NULL : &m->outputs[i];
}

const CfgResource *cfg_resource(const CfgModule *m, CfgMode mode,
                                const char *type, const char *name)
{
  uint32_t i = ix_find(m, IX_RES, (uint32_t)mode, type, name);
  return i == UINT32_MAX ? NULL : &m->resources[i];
}

const CfgModuleCall *cfg_call(const CfgModule *m, const char *name)
{
  uint32_t i = ix_find(m, IX_CALL, 0, NULL, name);
  return i == UINT32_MAX ? NULL : &m->calls[i];
}

const char *cfg_resource_provider_name(const CfgResource *r)
{
  static _Thread_local char buf[128];
  if (r->provider.name)
    return r->provider.name;
  const char *us = strchr(r->type, '_');
  size_t n = us ? (size_t)(us - r->type) : strlen(r->type);
  if (n >= sizeof buf)
    n = sizeof buf - 1;
  memcpy(buf, r->type, n);
  buf[n] = 0;
  return buf;
}

const char *cfg_provider_source(const CfgModule *m, const char *local_name)
{
  for (uint32_t i = 0; i < m->nrequired_providers; i++)
    if (strcmp(m->required_providers[i].local_name, local_name) == 0)
      return m->required_providers[i].source;
  if (strcmp(local_name, "terraform") == 0)
    return "terraform.io/builtin/terraform";
  return NULL;
}

/* ---- the module tree ---------------------------------------------------- */

bool cfg_source_is_local(const char *source)
{
  return strncmp(source, "./", 2) == 0 || strncmp(source, "../", 3) == 0 ||
         strcmp(source, ".") == 0 || strcmp(source, "..") == 0;
}

/* dir joined with a relative source path, cleaned of "." and "x/.."
** segments as Go's filepath.Clean does, so path.module reads
** "modules/net" rather than "./modules/./net". */
static const char *join_clean(Arena *a, const char *dir, const char *rel)
{
  const char *joined = strcmp(dir, ".") == 0 ? rel
                                             : arena_printf(a, "%s/%s", dir, rel);
  size_t n = strlen(joined);
  const char **seg = ARENA_NEW(a, const char *, n + 1);
  size_t *len = ARENA_NEW(a, size_t, n + 1);
  uint32_t ns = 0;
  bool abs = joined[0] == '/';
  const char *p = joined;
  while (*p) {
    while (*p == '/')
      p++;
    const char *q = p;
    while (*q && *q != '/')
      q++;
    size_t l = (size_t)(q - p);
    if (l == 0 || (l == 1 && p[0] == '.')) {
      /* skip */
    } else if (l == 2 && p[0] == '.' && p[1] == '.' && ns > 0 &&
               !(len[ns - 1] == 2 && seg[ns - 1][0] == '.' &&
                 seg[ns - 1][1] == '.')) {
      ns--;
    } else if (!(l == 2 && p[0] == '.' && p[1] == '.' && abs && ns == 0)) {
      seg[ns] = p;
      len[ns++] = l;
    }
    p = q;
  }
  Buf b;
  buf_init(&b, a);
  if (abs)
    buf_putc(&b, '/');
  for (uint32_t i = 0; i < ns; i++) {
    if (i)
      buf_putc(&b, '/');
    buf_put(&b, seg[i], len[i]);
  }
  if (b.len == 0)
    buf_putc(&b, '.');
  return buf_str(&b);
}

static void load_children(Arena *a, CfgTree *t, SrcFiles *files, Diags *d)
{
  const CfgModule *m = t->m;
  t->children = ARENA_NEW(a, CfgTree *, m->ncalls ? m->ncalls : 1);
  for (uint32_t i = 0; i < m->ncalls; i++) {
    const CfgModuleCall *c = &m->calls[i];
    if (!c->source)
      continue;   /* decode_module reported the missing argument */
    if (!cfg_source_is_local(c->source)) {
      diag_error(d, &c->source_range, "Module source not supported",
                 "Module \"%s\" uses the source \"%s\". cairn runs offline "
                 "and loads modules only from local paths, which start "
                 "with \"./\" or \"../\"; copy the module beside the "
                 "configuration and refer to it by its path.", c->name,
                 c->source);
      continue;
    }
    if (c->version) {
      diag_error(d, &c->range, "Invalid registry module source address",
                 "Module \"%s\" (declared at %s) has a version argument, "
                 "which is only allowed for registry modules; \"%s\" is a "
                 "local path.", c->name, cfg_pos_string(a, c->range),
                 c->source);
      continue;
    }
    const char *dir = join_clean(a, m->dir, c->source);
    bool cycle = false;
    for (const CfgTree *p = t; p; p = p->parent)
      if (strcmp(p->m->dir, dir) == 0)
        cycle = true;
    if (cycle) {
      diag_error(d, &c->source_range, "Module cycle",
                 "Module \"%s\" loads %s, which is already one of its "
                 "callers; a module cannot call itself.", c->name, dir);
      continue;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
      diag_error(d, &c->source_range, "Unreadable module directory",
                 "Unable to evaluate directory symlink: lstat %s: no such "
                 "file or directory (module \"%s\").", dir, c->name);
      continue;
    }
    CfgTree *ch = ARENA_NEW(a, CfgTree, 1);
    ch->m = cfg_load_dir(a, dir, files, d);
    ch->call = c;
    ch->parent = t;
    ch->depth = t->depth + 1;
    ch->path = t->path[0] ? arena_printf(a, "%s.module.%s", t->path, c->name)
                          : arena_printf(a, "module.%s", c->name);
    t->children[i] = ch;
    load_children(a, ch, files, d);
  }
}

CfgTree *cfg_load_tree(Arena *a, const char *root_dir, SrcFiles *files,
                       Diags *d)
{
  CfgTree *t = ARENA_NEW(a, CfgTree, 1);
  t->m = cfg_load_dir(a, root_dir, files, d);
  t->path = "";
  load_children(a, t, files, d);
  return t;
}

static void collect_modules(const CfgTree *t, const CfgModule **out,
                            uint32_t *n)
{
  if (out)
    out[*n] = t->m;
  (*n)++;
  for (uint32_t i = 0; i < t->m->ncalls; i++)
    if (t->children && t->children[i])
      collect_modules(t->children[i], out, n);
}

const CfgTree *cfg_tree_find(const CfgTree *t, const char *path)
{
  if (strcmp(t->path, path) == 0)
    return t;
  size_t n = strlen(t->path);
  if (n && (strncmp(path, t->path, n) != 0 || path[n] != '.'))
    return NULL;
  for (uint32_t i = 0; i < t->m->ncalls; i++)
    if (t->children[i]) {
      const CfgTree *f = cfg_tree_find(t->children[i], path);
      if (f)
        return f;
    }
  return NULL;
}

void cfg_tree_modules(Arena *a, const CfgTree *t, const CfgModule ***out,
                      uint32_t *n)
{
  uint32_t cnt = 0;
  collect_modules(t, NULL, &cnt);
  const CfgModule **v = ARENA_NEW(a, const CfgModule *, cnt);
  *n = 0;
  collect_modules(t, v, n);
  *out = v;
}
