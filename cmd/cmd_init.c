/*
** cmd_init.c: `cairn init`: resolve the configuration's providers, fetch
** the schemas of remote ones, record them in the lock file and cache.
**
** Modules: the module tree is loaded from local paths (cfg_load_tree; a
** registry or VCS source is the loader's "Module source not supported"
** error, since cairn runs offline).  Each module is listed as Terraform's
** installer does ("- net.sub in modules/net/sub", depth first, calls by
** name) and recorded in .terraform/modules/modules.json (Terraform's
** manifest: Key, Source, Dir per module; the root has Key "" and Dir
** "."), so tools that read the manifest find local modules where they are.
**
** Providers: every required_providers entry, every provider block, and
** every provider a resource implies, in every module of the tree (each
** module maps local names through its own required_providers).  Each is opened
** through net/provreg (a built-in, or an HTTPS endpoint of the host
** configuration); remote ones answer GetProviderSchema, whose canonical
** JSON is hashed (sha256) and cached in .terraform/providers/ADDR/
** schema.json, so later commands (provreg) need not fetch it again.
**
** The lock file .terraform.lock.hcl (HCL, meant to be committed) records
** per provider either `builtin = true`, or the endpoint, the server's
** public-key hash (`identity`) and the schema hash.  On a later init:
** - a changed identity is an ERROR (it may be a different server, or a man
**   in the middle) unless -upgrade is given, which accepts it;
** - a changed schema is a WARNING and the lock is updated (the provider
**   was upgraded; plans will show what that means);
** - a changed endpoint with the same identity is accepted silently.
** The format is documented in docs/host-config.md ("Lock file").
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "cli.h"
#include "cmd_backend.h"
#include "config/config.h"
#include "lang/funcs.h"
#include "net/prov_https.h"
#include "net/provreg.h"

#define LOCK_FILE ".terraform.lock.hcl"

typedef struct LockEnt {
  const char *addr;
  bool builtin;
  const char *endpoint;
  const char *identity;
  const char *schema;
} LockEnt;

typedef struct Lock {
  LockEnt *e;
  uint32_t n, cap;
} Lock;

static LockEnt *lock_add(Arena *a, Lock *l, const char *addr)
{
  for (uint32_t i = 0; i < l->n; i++)
    if (strcmp(l->e[i].addr, addr) == 0)
      return &l->e[i];
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 8;
    l->e = arena_grow(a, l->e, sizeof(LockEnt), _Alignof(LockEnt), l->cap,
                      nc);
    l->cap = nc;
  }
  LockEnt *e = &l->e[l->n++];
  memset(e, 0, sizeof *e);
  e->addr = addr;
  return e;
}

static LockEnt *lock_find(Lock *l, const char *addr)
{
  for (uint32_t i = 0; i < l->n; i++)
    if (strcmp(l->e[i].addr, addr) == 0)
      return &l->e[i];
  return NULL;
}

/* A quoted HCL string literal starting at p (no escapes other than \" and
** \\ are written by us); returns the text after it or NULL. */
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

/* Reads the lock file we write (one block per provider, one attribute per
** line).  Anything else is an error naming the line. */
static bool lock_read(Arena *a, Lock *l, Diags *d)
{
  memset(l, 0, sizeof *l);
  const char *text;
  size_t len;
  if (!prov_read_file(a, LOCK_FILE, &text, &len))
    return errno == ENOENT;
  LockEnt *cur = NULL;
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
    if (!cur && strncmp(s, "provider ", 9) == 0) {
      const char *rest = read_quoted(a, s + 9, &v);
      while (rest && *rest == ' ')
        rest++;
      if (rest && strcmp(rest, "{") == 0) {
        cur = lock_add(a, l, v);
        continue;
      }
    } else if (cur && strcmp(s, "}") == 0) {
      cur = NULL;
      continue;
    } else if (cur) {
      char *eq = strchr(s, '=');
      if (eq) {
        char *name = s;
        char *e = eq;
        while (e > name && e[-1] == ' ')
          e--;
        *e = 0;
        const char *val = eq + 1;
        while (*val == ' ')
          val++;
        if (strcmp(name, "builtin") == 0 && strcmp(val, "true") == 0) {
          cur->builtin = true;
          continue;
        }
        const char *rest = read_quoted(a, val, &v);
        if (rest && !*rest) {
          if (strcmp(name, "endpoint") == 0)
            cur->endpoint = v;
          else if (strcmp(name, "identity") == 0)
            cur->identity = v;
          else if (strcmp(name, "schema") == 0)
            cur->schema = v;
          /* Unknown attributes are kept out: a newer cairn may add some. */
          continue;
        }
      }
    }
    SrcRange r = {LOCK_FILE, {line, 1, 0}, {line, 1, 0}};
    diag_error(d, &r, "Invalid dependency lock file",
               "%s:%u cannot be read; fix or delete the file and run "
               "\"cairn init\" again.",
               LOCK_FILE, line);
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

static bool lock_write(Arena *a, Lock *l, Diags *d)
{
  qsort(l->e, l->n, sizeof *l->e, cmp_ent);
  Buf b;
  buf_init(&b, a);
  buf_puts(&b, "# This file is maintained automatically by \"cairn init\".\n"
               "# Manual edits may be lost in future updates.\n");
  for (uint32_t i = 0; i < l->n; i++) {
    const LockEnt *e = &l->e[i];
    buf_puts(&b, "\nprovider ");
    hcl_str(&b, e->addr);
    buf_puts(&b, " {\n");
    if (e->builtin) {
      buf_puts(&b, "  builtin = true\n");
    } else {
      buf_puts(&b, "  endpoint = ");
      hcl_str(&b, e->endpoint ? e->endpoint : "");
      buf_puts(&b, "\n  identity = ");
      hcl_str(&b, e->identity ? e->identity : "");
      buf_puts(&b, "\n  schema   = ");
      hcl_str(&b, e->schema ? e->schema : "");
      buf_puts(&b, "\n");
    }
    buf_puts(&b, "}\n");
  }
  const char *tmp = LOCK_FILE ".tmp";
  FILE *f = fopen(tmp, "w");
  if (!f || fwrite(b.p, 1, b.len, f) != b.len || fclose(f) != 0 ||
      rename(tmp, LOCK_FILE) != 0) {
    diag_error(d, NULL, "Failed to write dependency lock file",
               "%s: %s", LOCK_FILE, strerror(errno));
    return false;
  }
  return true;
}

static bool mkdirs(Arena *a, const char *path)
{
  char *p = arena_strdup(a, path);
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(p, 0755) != 0 && errno != EEXIST)
        return false;
      *s = '/';
    }
  return mkdir(p, 0755) == 0 || errno == EEXIST;
}

/* sha256:HEX of the canonical JSON (sorted keys, compact) of doc. */
static const char *schema_hash(Arena *a, const char *json, size_t len,
                               const char **canon, size_t *clen)
{
  Diags d;
  diag_init(&d, a);
  Value v;
  if (!json_parse(a, json, len, &v, &d, NULL))
    return NULL;
  Buf b;
  buf_init(&b, a);
  if (!json_write_value(&b, v, NULL, 0, &d))
    return NULL;
  uint8_t sum[32];
  fn_dig_sha256(b.p, b.len, sum);
  Buf h;
  buf_init(&h, a);
  buf_puts(&h, "sha256:");
  for (int i = 0; i < 32; i++)
    buf_printf(&h, "%02x", sum[i]);
  *canon = b.p;
  *clen = b.len;
  return buf_str(&h);
}

typedef struct Need {
  const char *addr;        /* normalised */
  const char *written;     /* as written, for messages */
  SrcRange range;
} Need;

static void need_add(Arena *a, Need **v, uint32_t *n, uint32_t *cap,
                     const char *src, const SrcRange *rng, Diags *d)
{
  const char *norm = prov_source_normalize(a, src, rng, d);
  if (!norm)
    return;
  for (uint32_t i = 0; i < *n; i++)
    if (strcmp((*v)[i].addr, norm) == 0)
      return;
  if (*n == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 8;
    *v = arena_grow(a, *v, sizeof(Need), _Alignof(Need), *cap, nc);
    *cap = nc;
  }
  Need *x = &(*v)[(*n)++];
  x->addr = norm;
  x->written = src;
  if (rng)
    x->range = *rng;
}

/* The source a local provider name maps to: required_providers, else
** hashicorp/NAME (the name alone normalises to it). */
static const char *source_of(Arena *a, const CfgModule *m, const char *local)
{
  const char *s = cfg_provider_source(m, local);
  return s ? s : arena_strdup(a, local);
}

static int cmp_need(const void *x, const void *y)
{
  return strcmp(((const Need *)x)->addr, ((const Need *)y)->addr);
}

/* The display form: hashicorp/null for the default registry. */
static const char *short_addr(const char *addr)
{
  const char *reg = "registry.terraform.io/";
  if (strncmp(addr, reg, strlen(reg)) == 0)
    return addr + strlen(reg);
  return addr;
}

/* One module of the tree for the installer's lines and the manifest. */
typedef struct ModRec {
  const char *key;         /* "net.sub" ("" for the root) */
  const char *source;      /* as the call normalises it ("./modules/net") */
  const char *dir;         /* relative to the root ("modules/net/sub") */
} ModRec;

typedef struct ModRecs {
  ModRec *v;
  uint32_t n, cap;
} ModRecs;

/* Terraform's ModuleSourceLocal: path.Clean of the source with "./" kept
** in front of paths that do not start with "../". */
static const char *clean_local_source(Arena *a, const char *src)
{
  size_t n = strlen(src);
  const char **seg = ARENA_NEW(a, const char *, n + 1);
  size_t *len = ARENA_NEW(a, size_t, n + 1);
  uint32_t ns = 0, up = 0;
  for (const char *p = src; *p;) {
    while (*p == '/')
      p++;
    const char *q = p;
    while (*q && *q != '/')
      q++;
    size_t l = (size_t)(q - p);
    if (l == 2 && p[0] == '.' && p[1] == '.') {
      if (ns > up)
        ns--;
      else {
        seg[ns] = p;
        len[ns++] = l;
        up++;
      }
    } else if (l > 0 && !(l == 1 && p[0] == '.')) {
      seg[ns] = p;
      len[ns++] = l;
    }
    p = q;
  }
  Buf b;
  buf_init(&b, a);
  for (uint32_t i = 0; i < ns; i++) {
    if (i)
      buf_putc(&b, '/');
    buf_put(&b, seg[i], len[i]);
  }
  if (b.len == 0)
    buf_putc(&b, '.');
  const char *c = buf_str(&b);
  return strncmp(c, "../", 3) == 0 || strcmp(c, "..") == 0
             ? c
             : arena_printf(a, "./%s", strcmp(c, ".") == 0 ? "" : c);
}

static void modrec_add(Arena *a, ModRecs *r, const char *key,
                       const char *source, const char *dir)
{
  if (r->n == r->cap) {
    uint32_t nc = r->cap ? r->cap * 2 : 8;
    r->v = arena_grow(a, r->v, sizeof(ModRec), _Alignof(ModRec), r->cap, nc);
    r->cap = nc;
  }
  r->v[r->n++] = (ModRec){key, source, dir};
}

static int cmp_call_name(const void *x, const void *y)
{
  const CfgTree *a = *(const CfgTree *const *)x;
  const CfgTree *b = *(const CfgTree *const *)y;
  return strcmp(a->call->name, b->call->name);
}

/* Depth first, calls in name order (Terraform's BuildConfig walk). */
static void collect_mods(Arena *a, const CfgTree *t, const char *key,
                         ModRecs *r)
{
  uint32_t n = 0;
  const CfgTree **kids = ARENA_NEW(a, const CfgTree *, t->m->ncalls + 1);
  for (uint32_t i = 0; i < t->m->ncalls; i++)
    if (t->children && t->children[i] && t->children[i]->m)
      kids[n++] = t->children[i];
  qsort(kids, n, sizeof *kids, cmp_call_name);
  for (uint32_t i = 0; i < n; i++) {
    const CfgTree *ch = kids[i];
    const char *k = key[0] ? arena_printf(a, "%s.%s", key, ch->call->name)
                           : ch->call->name;
    modrec_add(a, r, k, clean_local_source(a, ch->call->source), ch->m->dir);
    collect_mods(a, ch, k, r);
  }
}

static int cmp_modrec(const void *x, const void *y)
{
  return strcmp(((const ModRec *)x)->key, ((const ModRec *)y)->key);
}

/* .terraform/modules/modules.json as Terraform's modsdir writes it: one
** line of compact JSON, records sorted by key, no trailing newline. */
static bool write_manifest(Arena *a, const ModRecs *mods, Diags *d)
{
  ModRec *v = ARENA_NEW(a, ModRec, mods->n + 1);
  v[0] = (ModRec){"", "", "."};
  for (uint32_t i = 0; i < mods->n; i++)
    v[i + 1] = mods->v[i];
  qsort(v, mods->n + 1, sizeof(ModRec), cmp_modrec);
  Buf b;
  buf_init(&b, a);
  JsonW w;
  json_w_init(&w, &b, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "Modules");
  json_w_begin_array(&w);
  for (uint32_t i = 0; i <= mods->n; i++) {
    json_w_begin_object(&w);
    json_w_keyz(&w, "Key");
    json_w_stringz(&w, v[i].key);
    json_w_keyz(&w, "Source");
    json_w_stringz(&w, v[i].source);
    json_w_keyz(&w, "Dir");
    json_w_stringz(&w, v[i].dir);
    json_w_end_object(&w);
  }
  json_w_end_array(&w);
  json_w_end_object(&w);
  const char *dir = ".terraform/modules";
  const char *file = ".terraform/modules/modules.json";
  const char *tmp = ".terraform/modules/modules.json.tmp";
  FILE *f = mkdirs(a, dir) ? fopen(tmp, "w") : NULL;
  if (!f || fwrite(b.p, 1, b.len, f) != b.len || fclose(f) != 0 ||
      rename(tmp, file) != 0) {
    diag_error(d, NULL, "Failed to update module manifest",
               "Unable to write the module manifest file %s: %s", file,
               strerror(errno));
    return false;
  }
  return true;
}

/* Every provider module m needs, mapped through m's own names. */
static void need_module(Arena *a, const CfgModule *m, Need **need,
                        uint32_t *nneed, uint32_t *capneed, Diags *d)
{
  for (uint32_t i = 0; i < m->nrequired_providers; i++)
    need_add(a, need, nneed, capneed, m->required_providers[i].source,
             &m->required_providers[i].range, d);
  for (uint32_t i = 0; i < m->nproviders; i++)
    need_add(a, need, nneed, capneed,
             source_of(a, m, m->providers[i].name),
             &m->providers[i].range, d);
  for (uint32_t i = 0; i < m->nresources; i++)
    need_add(a, need, nneed, capneed,
             source_of(a, m, cfg_resource_provider_name(&m->resources[i])),
             &m->resources[i].range, d);
}

static int run(Cli *cli, int argc, char **argv)
{
  Arena *a = cli->arena;
  const char *config = NULL, *lockfile = NULL, *chdir_to = NULL;
  bool upgrade = false, no_color = false, input = true, backend = true,
       get = true, reconfigure = false, migrate = false, force_copy = false;
  CliList backend_config = {0};
  CliFlag flags[] = {{"config", FLAG_STRING, &config},
                     {"upgrade", FLAG_BOOL, &upgrade},
                     {"no-color", FLAG_BOOL, &no_color},
                     {"input", FLAG_BOOL, &input},
                     {"backend", FLAG_BOOL, &backend},
                     {"get", FLAG_BOOL, &get},
                     {"reconfigure", FLAG_BOOL, &reconfigure},
                     {"migrate-state", FLAG_BOOL, &migrate},
                     {"backend-config", FLAG_LIST, &backend_config},
                     {"force-copy", FLAG_BOOL, &force_copy},
                     {"lockfile", FLAG_STRING, &lockfile},
                     {"from-module", FLAG_STRING, &chdir_to}};
  Diags d;
  diag_init(&d, a);
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags,
                       (int)(sizeof flags / sizeof *flags), &rest, &d)) {
    cli_diags(cli, &d);
    return 2;
  }
  if (no_color)
    cli->color = false;
  if (rest < argc) {
    diag_error(&d, NULL, "Too many command line arguments",
               "Did you mean to use -chdir?");
    cli_diags(cli, &d);
    return 1;
  }
  if (lockfile && strcmp(lockfile, "readonly") != 0) {
    diag_error(&d, NULL, "Invalid lockfile mode",
               "The only valid -lockfile mode is \"readonly\".");
    cli_diags(cli, &d);
    return 1;
  }
  bool readonly = lockfile != NULL;

  CfgTree *tree = cfg_load_tree(a, ".", &cli->files, &d);
  const CfgModule *m = tree->m;
  bool has_calls = m->ncalls > 0;
  if (diag_has_errors(&d) && !has_calls) {
    cli_diags(cli, &d);
    return 1;
  }
  cli_out(cli, "\nInitializing the backend...\n");
  if (backend) {
    CmdBackendInit bo = {&backend_config, reconfigure,
                         migrate || force_copy, force_copy, input};
    bool configured;
    const Backend *be = cmd_backend_init(cli, m, &bo, &configured, &d);
    if (!be) {
      cli_diags(cli, &d);
      return 1;
    }
    if (configured)
      cli_out(cli, "\n%sSuccessfully configured the backend \"%s\"! "
              "Terraform will automatically\nuse this backend unless the "
              "backend configuration changes.%s\n",
              cli->color ? "\x1b[0m\x1b[32m" : "", be->type,
              cli->color ? "\x1b[0m" : "");
  }
  if (has_calls && get) {
    /* Local modules are used where they are: "installing" one is listing
    ** it and recording it in the manifest. */
    cli_out(cli, "Initializing modules...\n");
    ModRecs mods = {0};
    collect_mods(a, tree, "", &mods);
    for (uint32_t i = 0; i < mods.n; i++)
      cli_out(cli, "- %s in %s\n", mods.v[i].key, mods.v[i].dir);
    write_manifest(a, &mods, &d);
  }
  if (diag_has_errors(&d)) {
    cli_diags(cli, &d);
    return 1;
  }
  Need *need = NULL;
  uint32_t nneed = 0, capneed = 0;
  const CfgModule **all;
  uint32_t nall;
  cfg_tree_modules(a, tree, &all, &nall);
  for (uint32_t i = 0; i < nall; i++)
    need_module(a, all[i], &need, &nneed, &capneed, &d);
  if (nneed)
    qsort(need, nneed, sizeof *need, cmp_need);
  if (diag_has_errors(&d)) {
    cli_diags(cli, &d);
    return 1;
  }
  ProvReg reg;
  bool reg_ok = preg_init(&reg, a, config, &d);
  reg.fetch = true;   /* check the live server, not the cache */
  if (!reg_ok) {
    cli_diags(cli, &d);
    preg_close(&reg);
    return 1;
  }
  Lock lock;
  if (!lock_read(a, &lock, &d)) {
    cli_diags(cli, &d);
    preg_close(&reg);
    return 1;
  }
  bool had_lock = access(LOCK_FILE, F_OK) == 0;
  bool changed = false;
  if (nneed)
    cli_out(cli, "\nInitializing provider plugins...\n");
  for (uint32_t i = 0; i < nneed; i++) {
    const Need *n = &need[i];
    Diags pd;
    diag_init(&pd, a);
    bool remote = preg_is_remote(&reg, n->addr);
    Prov *p = preg_open(&reg, n->addr, &pd);
    if (!p) {
      diag_move(&d, &pd);
      continue;
    }
    LockEnt *old = lock_find(&lock, n->addr);
    const char *plugin = preg_plugin(&reg, n->addr);
    if (plugin) {
      /* Start it once: a missing or broken binary fails init, not the
      ** next plan.  Lock-file package hashes (h1:) come with mirrors. */
      ProvCall c = {a, &pd, NULL};
      const ProvProviderSchema *s = NULL;
      p->ops->get_schema(p, &c, &s);
      if (!s && !diag_has_errors(&pd))
        diag_error(&pd, NULL, "Failed to query provider schema",
                   "Provider %s returned no schema.", n->addr);
      diag_move(&d, &pd);
      if (!s)
        continue;
      cli_out(cli, "- Using %s from plugin %s\n", n->addr, plugin);
      const char *ep = arena_printf(a, "plugin:%s", plugin);
      if (!old || old->builtin || !old->endpoint ||
          strcmp(old->endpoint, ep) != 0)
        changed = true;
      LockEnt *e = lock_add(a, &lock, n->addr);
      e->builtin = false;
      e->endpoint = ep;
      e->identity = "";
      e->schema = "";
      continue;
    }
    if (!remote) {
      cli_out(cli, "- Using built-in %s\n", short_addr(n->addr));
      if (!old || !old->builtin) {
        LockEnt *e = lock_add(a, &lock, n->addr);
        memset(e, 0, sizeof *e);
        e->addr = n->addr;
        e->builtin = true;
        changed = true;
      }
      continue;
    }
    cli_out(cli, "- Querying %s...\n", n->addr);
    ProvCall c = {a, &pd, NULL};
    const ProvProviderSchema *s = NULL;
    p->ops->get_schema(p, &c, &s);
    if (!s) {
      if (!diag_has_errors(&pd))
        diag_error(&pd, NULL, "Failed to query provider schema",
                   "Provider %s returned no schema.", n->addr);
      diag_move(&d, &pd);
      continue;
    }
    diag_move(&d, &pd);
    size_t jl;
    const char *json = phttps_schema_json(p, &jl);
    const char *canon;
    size_t clen;
    const char *hash = schema_hash(a, json, jl, &canon, &clen);
    const char *ident = phttps_identity(p);
    const HcfgProvider *hp = hcfg_provider(&reg.cfg, a, n->addr);
    const char *endpoint = hp ? hp->endpoint : "";
    if (!hash) {
      diag_error(&d, NULL, "Failed to query provider schema",
                 "The schema of %s cannot be hashed.", n->addr);
      continue;
    }
    if (old && !old->builtin && old->identity && *old->identity &&
        *ident && strcmp(old->identity, ident) != 0) {
      if (!upgrade) {
        diag_error(&d, NULL, "Provider endpoint identity changed",
                   "The server for %s at %s presents the public key %s, but "
                   "the dependency lock file records %s. This can mean "
                   "that the server's key was rotated, or that you are not "
                   "talking to the server you expect. If the change is "
                   "expected, run \"cairn init -upgrade\" to accept it.",
                   n->addr, endpoint, ident, old->identity);
        continue;
      }
      diag_warning(&d, NULL, "Provider endpoint identity changed",
                   "The new public key %s of %s was accepted (-upgrade).",
                   ident, n->addr);
    }
    if (old && !old->builtin && old->schema && strcmp(old->schema, hash) != 0)
      diag_warning(&d, NULL, "Provider schema changed",
                   "The schema of %s differs from the one recorded in the "
                   "dependency lock file; the lock file is updated. Review "
                   "the next plan carefully.",
                   n->addr);
    cli_out(cli, "- Using %s from %s\n", n->addr, endpoint);
    if (!old || old->builtin || !old->endpoint || !old->schema ||
        !old->identity || strcmp(old->endpoint, endpoint) != 0 ||
        strcmp(old->schema, hash) != 0 || strcmp(old->identity, ident) != 0)
      changed = true;
    LockEnt *e = lock_add(a, &lock, n->addr);
    e->builtin = false;
    e->endpoint = endpoint;
    e->identity = ident;
    e->schema = hash;
    /* Cache the canonical schema for later commands. */
    const char *cdir = arena_printf(a, ".terraform/providers/%s", n->addr);
    const char *cfile = arena_printf(a, "%s/schema.json", cdir);
    FILE *f = mkdirs(a, cdir) ? fopen(cfile, "w") : NULL;
    if (!f || fwrite(canon, 1, clen, f) != clen || fclose(f) != 0)
      diag_error(&d, NULL, "Failed to cache provider schema", "%s: %s",
                 cfile, strerror(errno));
    /* The key later commands pin (see net/provreg.h). */
    const char *ifile = arena_printf(a, "%s/identity", cdir);
    if (*ident) {
      f = fopen(ifile, "w");
      if (!f || fprintf(f, "%s\n", ident) < 0 || fclose(f) != 0)
        diag_error(&d, NULL, "Failed to cache provider identity", "%s: %s",
                   ifile, strerror(errno));
    } else {
      unlink(ifile);
    }
  }
  preg_close(&reg);
  if (diag_has_errors(&d)) {
    cli_diags(cli, &d);
    return 1;
  }
  if (changed && readonly) {
    diag_error(&d, NULL, "Provider dependency changes detected",
               "Changes to the required provider dependencies were "
               "detected, but the lock file is read-only. To use and "
               "record these requirements, run \"cairn init\" without the "
               "\"-lockfile=readonly\" flag.");
    cli_diags(cli, &d);
    return 1;
  }
  if (changed && nneed && !lock_write(a, &lock, &d)) {
    cli_diags(cli, &d);
    return 1;
  }
  cli_diags(cli, &d);
  if (changed && nneed && !had_lock)
    cli_out(cli,
            "\ncairn has created a lock file " LOCK_FILE " to record the "
            "provider\nselections it made above. Include this file in your "
            "version control repository\nso that cairn can guarantee to "
            "make the same selections by default when\nyou run \"cairn "
            "init\" in the future.\n");
  if (!nneed)
    cli_out(cli, "\ncairn has been successfully initialized!\n");
  else
    cli_out(cli, "\n%scairn has been successfully initialized!%s\n",
            cli->color ? "\x1b[1m\x1b[32m" : "",
            cli->color ? "\x1b[0m" : "");
  cli_out(cli,
          "\nYou may now begin working with cairn. Try running \"cairn "
          "plan\" to see\nany changes that are required for your "
          "infrastructure. All cairn commands\nshould now work.\n\n"
          "If you ever set or change modules or backend configuration for "
          "cairn,\nrerun this command to reinitialize your working "
          "directory. If you forget, other\ncommands will detect it and "
          "remind you to do so if necessary.\n");
  return 0;
}

const CmdEntry cmd_init = {
    "init",
    "Prepare your working directory for other commands",
    "Usage: cairn [global options] init [options]\n\n"
    "  Initialize a new or existing cairn working directory: list the local\n"
    "  modules the configuration calls (.terraform/modules/modules.json),\n"
    "  resolve every provider the configuration and its modules need to a\n"
    "  built-in provider or to an\n"
    "  HTTPS endpoint of the host configuration (cairn.ini), fetch the\n"
    "  schemas of remote providers, record them in .terraform.lock.hcl and\n"
    "  cache them under .terraform/providers/.\n\n"
    "Options:\n\n"
    "  -config=FILE        Host configuration file (default: $CAIRN_CONFIG,\n"
    "                      ~/.config/cairn/cairn.ini, /etc/cairn/cairn.ini).\n\n"
    "  -get=false          Do not list modules or write their manifest.\n\n"
    "  -upgrade            Accept a changed endpoint identity (server\n"
    "                      public key) recorded in the lock file.\n\n"
    "  -lockfile=readonly  Fail instead of changing the lock file.\n\n"
    "  -backend-config=KEY=VALUE or FILE\n"
    "                      Backend configuration, over the backend block.\n\n"
    "  -reconfigure        Record a changed backend, leaving the states\n"
    "                      where they are.\n\n"
    "  -migrate-state      Record a changed backend and copy the states\n"
    "                      from the previous one (with prompts).\n\n"
    "  -force-copy         -migrate-state answering \"yes\" to every "
    "prompt.\n\n"
    "  -input=false        Never prompt (a needed migration answer is then\n"
    "                      an error).\n\n"
    "  -no-color           If specified, output won't contain any color.\n",
    run,
    true};
