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
**
** Providers served from a plugin mirror (`plugin_dir`, net/mirror.h) get
** Terraform's own lock entry (version, constraints, h1:/zh: hashes): the
** version is selected by the modules' constraints (core/config/provver.h),
** the package checked against the recorded hashes, installed into
** .terraform/providers/ADDR/VERSION/PLATFORM and started once
** (init_from_mirror; docs/plugins.md "From a mirror").  A single
** `plugin = PATH` binary is recorded as `endpoint = "plugin:PATH"` with
** the binary's h1: hash, checked on every later init (a changed binary
** needs -upgrade) and by every command that starts it (net/provreg.h).
** The lock file is read and written by core/config/lockfile.h.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "config/lockfile.h"
#include "config/provver.h"
#include "net/mirror.h"
#include "cli.h"
#include "cmd_backend.h"
#include "config/config.h"
#include "lang/funcs.h"
#include "net/prov_https.h"
#include "net/provreg.h"
#include "state/stmgr.h"
#include "state/workspace.h"

#define LOCK_FILE LOCKF_NAME

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
  const char **cons;       /* version constraints, one per module */
  uint32_t ncons;
} Need;

static void need_cons(Arena *a, Need *x, const char *version)
{
  if (!version || !*version)
    return;
  const char **v = ARENA_NEW(a, const char *, x->ncons + 1);
  if (x->ncons)
    memcpy(v, x->cons, x->ncons * sizeof *v);
  v[x->ncons++] = version;
  x->cons = v;
}

/* The type of a provider address in the legacy namespace ("-/null",
** "registry.terraform.io/-/null": what 0.12's provider.null became, which
** Terraform's source parser accepts only with the default registry), or
** NULL. */
static const char *legacy_type(const char *src)
{
  const char *reg = "registry.terraform.io/";
  if (strncasecmp(src, reg, strlen(reg)) == 0)
    src += strlen(reg);
  if (strncmp(src, "-/", 2) != 0 || !src[2] || strchr(src + 2, '/'))
    return NULL;
  return src + 2;
}

/* Terraform's init refuses every provider requirement (configuration or
** state) in the legacy namespace, once per provider and without a source
** range, before it installs anything. */
static void legacy_error(Arena *a, const char *type, Diags *d)
{
  const char *summary = "Invalid legacy provider address";
  const char *detail = arena_printf(
      a,
      "This configuration or its associated state refers to the "
      "unqualified provider \"%s\".\n\nYou must complete the Terraform "
      "0.13 upgrade process before upgrading to later versions.",
      type);
  for (const Diag *g = d->head; g; g = g->next)
    if (strcmp(g->summary, summary) == 0 && g->detail &&
        strcmp(g->detail, detail) == 0)
      return;
  diag_error(d, NULL, summary, "%s", detail);
}

static void need_add(Arena *a, Need **v, uint32_t *n, uint32_t *cap,
                     const char *src, const char *version,
                     const SrcRange *rng, Diags *d)
{
  const char *lt = src ? legacy_type(src) : NULL;
  if (lt) {
    legacy_error(a, lt, d);
    return;
  }
  const char *norm = prov_source_normalize(a, src, rng, d);
  if (!norm)
    return;
  for (uint32_t i = 0; i < *n; i++)
    if (strcmp((*v)[i].addr, norm) == 0) {
      need_cons(a, &(*v)[i], version);
      return;
    }
  if (*n == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 8;
    *v = arena_grow(a, *v, sizeof(Need), _Alignof(Need), *cap, nc);
    *cap = nc;
  }
  Need *x = &(*v)[(*n)++];
  memset(x, 0, sizeof *x);
  x->addr = norm;
  x->written = src;
  if (rng)
    x->range = *rng;
  need_cons(a, x, version);
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

#define CHECKSUM_DOC                                                       \
  "for more information: "                                                 \
  "https://developer.hashicorp.com/terraform/language/files/"              \
  "dependency-lock#checksum-verification"

/* True when the lock entry old (for the same version) records no hash, or
** one of h1/zh (zh may be NULL). */
static bool hashes_agree(const LockEnt *old, const char *h1, const char *zh)
{
  if (!old->nhashes)
    return true;
  for (uint32_t i = 0; i < old->nhashes; i++)
    if (strcmp(old->hashes[i], h1) == 0 ||
        (zh && strcmp(old->hashes[i], zh) == 0))
      return true;
  return false;
}

static bool same_hashes(const LockEnt *x, const LockEnt *y)
{
  if (x->nhashes != y->nhashes)
    return false;
  for (uint32_t i = 0; i < x->nhashes; i++) {
    bool found = false;
    for (uint32_t k = 0; k < y->nhashes && !found; k++)
      found = strcmp(x->hashes[i], y->hashes[k]) == 0;
    if (!found)
      return false;
  }
  return true;
}

/* Installs version of n from the mirror's packages at target, after
** checking the package against the lock entry old's hashes when old
** selects the same version.  *installed: the h1: of what was installed;
** *zh: the zip's hash, NULL for an unpacked package. */
static bool install_pkg(Cli *cli, const Need *n, const char *dir,
                        const MirrorPkg *pkgs, uint32_t np,
                        const char *version, const LockEnt *old,
                        const char *target, const char **installed,
                        const char **zh, Diags *d)
{
  Arena *a = cli->arena;
  const char *shown = short_addr(n->addr), *why;
  const MirrorPkg *pkg = NULL;
  for (uint32_t i = 0; i < np && !pkg; i++)
    if (pver_cmp(pkgs[i].version, version) == 0)
      pkg = &pkgs[i];
  if (!pkg) {
    diag_error(d, NULL, "Failed to install provider",
               "Error while installing %s v%s: provider %s %s is not "
               "available for %s in %s",
               shown, version, n->addr, version, mirror_platform(), dir);
    return false;
  }
  const char *h1 = NULL;
  bool ok = pkg->zip ? mirror_hash_zip(a, pkg->path, &h1, zh, &why)
                     : mirror_hash_dir(a, pkg->path, &h1, &why);
  if (!ok) {
    diag_error(d, NULL, "Failed to install provider",
               "Error while installing %s v%s: failed to calculate "
               "checksum for %s %s package at %s: %s",
               shown, version, n->addr, version, pkg->path, why);
    return false;
  }
  bool same_version = old && old->version && !strcmp(old->version, version);
  if (same_version && !hashes_agree(old, h1, *zh)) {
    diag_error(d, NULL, "Failed to install provider",
               "Error while installing %s v%s: the %s package for %s %s "
               "doesn't match any of the checksums previously recorded in "
               "the dependency lock file%s; " CHECKSUM_DOC,
               shown, version, pkg->zip ? "current" : "local", n->addr,
               version,
               pkg->zip ? ""
                        : " (this might be because the available checksums "
                          "are for packages targeting different platforms)");
    return false;
  }
  cli_out(cli, "- Installing %s v%s...\n", shown, version);
  if (!mirror_install(a, pkg, target, &why) ||
      !mirror_hash_dir(a, target, installed, &why)) {
    diag_error(d, NULL, "Failed to install provider",
               "Error while installing %s v%s: %s", shown, version, why);
    return false;
  }
  cli_out(cli, "- Installed %s v%s (unauthenticated)\n", shown, version);
  return true;
}

/* Selects, installs and starts the plugin of n from its mirror
** (docs/plugins.md, "Mirrors"), as Terraform's installer does with a
** filesystem mirror: the locked version unless -upgrade, else the newest
** the constraints allow; the package's hashes checked against the lock
** file's for that version; the package linked or unpacked into
** .terraform/providers/ADDR/VERSION/PLATFORM; its schema asked once so a
** broken binary fails init.  The lock entry is updated in *lock. */
static bool init_from_mirror(Cli *cli, ProvReg *reg, const Need *n,
                             Lock *lock, bool upgrade, bool *changed,
                             Diags *d)
{
  Arena *a = cli->arena;
  const char *dir = preg_plugin_dir(reg, n->addr);
  const char *shown = short_addr(n->addr);
  const char *bad;
  const char *canon = pver_canon(a, n->cons, n->ncons, &bad);
  if (!canon) {
    diag_error(d, &n->range, "Invalid version constraint",
               "The version constraint \"%s\" for provider %s is not valid: "
               "expected comma-separated terms such as \"~> 3.2\", "
               "\">= 1.0.0\" or \"!= 2.1.0\".",
               bad, shown);
    return false;
  }
  const char *platform = mirror_platform();
  MirrorPkg *pkgs;
  uint32_t np;
  const char *why;
  if (!mirror_list(a, dir, n->addr, platform, &pkgs, &np, &why)) {
    diag_error(d, NULL, "Failed to query available provider packages",
               "Could not retrieve the list of available versions for "
               "provider %s: %s",
               shown, why);
    return false;
  }
  const LockEnt *old = lockf_find(lock, n->addr);
  const char *version = NULL;
  if (old && old->version && !upgrade) {
    if (pver_match(canon, old->version) != 1) {
      diag_error(d, NULL, "Failed to query available provider packages",
                 "Could not retrieve the list of available versions for "
                 "provider %s: locked provider %s %s does not match "
                 "configured version constraint %s; must use cairn init "
                 "-upgrade to allow selection of new versions",
                 shown, n->addr, old->version, canon);
      return false;
    }
    cli_out(cli, "- Reusing previous version of %s from the dependency "
            "lock file\n", shown);
    version = old->version;
  } else {
    if (*canon)
      cli_out(cli, "- Finding %s versions matching \"%s\"...\n", shown,
              canon);
    else
      cli_out(cli, "- Finding latest version of %s...\n", shown);
    for (uint32_t i = 0; i < np && !version; i++)
      if (pver_match(canon, pkgs[i].version) == 1)
        version = pkgs[i].version;
    if (!version) {
      if (!np)
        diag_error(d, NULL, "Failed to query available provider packages",
                   "Could not retrieve the list of available versions for "
                   "provider %s: provider %s was not found in any of the "
                   "search locations\n\n  - %s",
                   shown, n->addr, dir);
      else
        diag_error(d, NULL, "Failed to query available provider packages",
                   "Could not retrieve the list of available versions for "
                   "provider %s: no available releases match the given "
                   "constraints %s",
                   shown, canon);
      return false;
    }
  }
  bool same_version = old && old->version && !strcmp(old->version, version);
  const char *target = arena_printf(a, ".terraform/providers/%s/%s/%s",
                                    n->addr, version, platform);
  const char *installed = NULL, *zh = NULL;
  struct stat st;
  if (same_version && old->nhashes && stat(target, &st) == 0 &&
      S_ISDIR(st.st_mode) && mirror_hash_dir(a, target, &installed, &why) &&
      hashes_agree(old, installed, NULL)) {
    /* What an earlier init installed still matches the lock file. */
    cli_out(cli, "- Using previously-installed %s v%s\n", shown, version);
  } else if (!install_pkg(cli, n, dir, pkgs, np, version, old, target,
                          &installed, &zh, d)) {
    return false;
  }
  const char *type = strrchr(n->addr, '/') + 1;
  const char *exe = mirror_executable(a, target, type);
  if (!exe) {
    diag_error(d, NULL, "Failed to install provider",
               "Error while installing %s v%s: could not find executable "
               "file starting with terraform-provider-%s",
               shown, version, type);
    return false;
  }
  /* Start it once: a missing or broken binary fails init, not the next
  ** plan. */
  Prov *p = preg_open_plugin(reg, n->addr, exe);
  ProvCall c = {a, d, NULL};
  const ProvProviderSchema *sch = NULL;
  p->ops->get_schema(p, &c, &sch);
  if (!sch) {
    if (!diag_has_errors(d))
      diag_error(d, NULL, "Failed to query provider schema",
                 "Provider %s returned no schema.", n->addr);
    return false;
  }
  /* The hashes of the same version are kept and added to (other
  ** platforms'); a new version starts afresh, as in Terraform. */
  LockEnt ne = {0};
  ne.addr = n->addr;
  ne.version = version;
  ne.constraints = *canon ? canon : NULL;
  if (same_version)
    for (uint32_t i = 0; i < old->nhashes; i++)
      lockf_add_hash(a, &ne, old->hashes[i]);
  lockf_add_hash(a, &ne, installed);
  if (zh)
    lockf_add_hash(a, &ne, zh);
  if (!old || old->builtin || old->endpoint || !same_version ||
      !old->constraints != !ne.constraints ||
      (ne.constraints && strcmp(old->constraints, ne.constraints) != 0) ||
      !same_hashes(old, &ne))
    *changed = true;
  *lockf_add(a, lock, n->addr) = ne;
  return true;
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
             m->required_providers[i].version,
             &m->required_providers[i].range, d);
  for (uint32_t i = 0; i < m->nproviders; i++)
    need_add(a, need, nneed, capneed,
             source_of(a, m, m->providers[i].name), m->providers[i].version,
             &m->providers[i].range, d);
  for (uint32_t i = 0; i < m->nresources; i++)
    need_add(a, need, nneed, capneed,
             source_of(a, m, cfg_resource_provider_name(&m->resources[i])),
             NULL, &m->resources[i].range, d);
  for (uint32_t i = 0; i < m->nactions; i++)   /* Terraform 1.14 actions */
    need_add(a, need, nneed, capneed,
             source_of(a, m, cfg_action_provider_name(&m->actions[i])),
             NULL, &m->actions[i].range, d);
}

/* The providers the current workspace's state names (Terraform merges
** State.ProviderRequirements into what init installs); a state that does
** not exist yet needs none. */
static void need_state(Cli *cli, const CfgModule *m, Need **need,
                       uint32_t *nneed, uint32_t *capneed, Diags *d)
{
  Arena *a = cli->arena;
  const Backend *be = cmd_backend(cli, m, CMD_BACKEND_USE, d);
  const char *ws = be ? ws_current(a, ".", d) : NULL;
  if (!ws)
    return;
  StMgrOpts so = {be_state_path(be, a, ws), NULL, "-"};
  StMgr sm;
  stmgr_init(&sm, a, &so);
  State *st = NULL;
  Diags ld;
  diag_init(&ld, a);
  bool ok = stmgr_load(&sm, &st, &ld);
  stmgr_close(&sm);
  if (!ok) {
    /* Terraform's init: fmt.Errorf("Error refreshing state: %s", err),
    ** a summary-only diagnostic */
    for (const Diag *g = ld.head; g; g = g->next)
      if (g->severity == DIAG_ERROR)
        diag_add(d, DIAG_ERROR, NULL,
                 arena_printf(a, "Error refreshing state: %s",
                              g->detail && g->detail[0] ? g->detail
                                                        : g->summary),
                 NULL);
    return;
  }
  diag_move(d, &ld);
  if (!st)
    return;
  for (uint32_t i = 0; i < st->nres; i++) {
    const char *p = strstr(st->res[i]->provider, "provider[\"");
    const char *q = p ? strchr(p + 10, '"') : NULL;
    if (!q)
      continue;   /* the state reader refused malformed addresses */
    const char *fqn = arena_strndup(a, p + 10, (size_t)(q - p - 10));
    need_add(a, need, nneed, capneed, fqn, NULL, NULL, d);
  }
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
    const char *unset;
    const Backend *be = cmd_backend_init(cli, m, &bo, &configured, &unset,
                                         &d);
    if (!be) {
      cli_diags(cli, &d);
      return 1;
    }
    if (unset)   /* Terraform's LogMigrateBackendUnsetEnd */
      cli_out(cli, "%s\n\nSuccessfully unset the backend \"%s\". "
              "Terraform will now operate locally.%s\n",
              cli->color ? "\x1b[0m\x1b[32m" : "", unset,
              cli->color ? "\x1b[0m" : "");
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
  if (backend && !diag_has_errors(&d))
    need_state(cli, m, &need, &nneed, &capneed, &d);
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
  if (!lockf_read(a, LOCK_FILE, &lock, &d)) {
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
    if (preg_plugin_dir(&reg, n->addr)) {
      init_from_mirror(cli, &reg, n, &lock, upgrade, &changed, &pd);
      diag_move(&d, &pd);
      continue;
    }
    bool remote = preg_is_remote(&reg, n->addr);
    Prov *p = preg_open(&reg, n->addr, &pd);
    if (!p) {
      diag_move(&d, &pd);
      continue;
    }
    LockEnt *old = lockf_find(&lock, n->addr);
    const char *plugin = preg_plugin(&reg, n->addr);
    if (plugin) {
      /* The binary's h1: hash is checked against the lock file before it
      ** runs, as a mirror package's is (docs/plugins.md "Lock file");
      ** one that cannot be read is left to the start below, which says
      ** why.  Then it is started once: a missing or broken binary fails
      ** init, not the next plan. */
      const char *ep = arena_printf(a, "plugin:%s", plugin);
      const char *h1 = NULL, *why = NULL;
      if (!mirror_hash_file(a, plugin, &h1, &why))
        h1 = NULL;
      bool same = old && !old->builtin && old->endpoint &&
                  strcmp(old->endpoint, ep) == 0;
      bool known = false;
      for (uint32_t k = 0; same && h1 && k < old->nhashes; k++)
        known |= strcmp(old->hashes[k], h1) == 0;
      if (h1 && same && old->nhashes && !known && !upgrade) {
        diag_error(&d, NULL, "Failed to install provider",
                   "Error while installing %s from plugin %s: the plugin "
                   "doesn't match any of the checksums previously recorded "
                   "in the dependency lock file (it is %s). If the binary "
                   "was replaced on purpose, run \"cairn init -upgrade\" "
                   "to record the new one.",
                   n->addr, plugin, h1);
        continue;
      }
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
      if (!h1) {   /* it started, so it is readable: a race; say so */
        diag_error(&d, NULL, "Failed to install provider",
                   "Error while installing %s from plugin %s: %s", n->addr,
                   plugin, why);
        continue;
      }
      if (!same || !known)
        changed = true;
      LockEnt *e = lockf_add(a, &lock, n->addr);
      e->builtin = false;
      e->endpoint = ep;
      e->identity = "";
      e->schema = "";
      e->version = e->constraints = NULL;   /* no longer from a mirror */
      e->nhashes = 0;
      lockf_add_hash(a, e, h1);
      continue;
    }
    if (!remote) {
      cli_out(cli, "- Using built-in %s\n", short_addr(n->addr));
      if (!old || !old->builtin) {
        LockEnt *e = lockf_add(a, &lock, n->addr);
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
    LockEnt *e = lockf_add(a, &lock, n->addr);
    e->builtin = false;
    e->endpoint = endpoint;
    e->identity = ident;
    e->schema = hash;
    e->version = e->constraints = NULL;
    e->nhashes = 0;
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
  if (changed && nneed && !lockf_write(a, LOCK_FILE, &lock, &d)) {
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
    "  built-in provider, a plugin or plugin mirror, or an\n"
    "  HTTPS endpoint of the host configuration (cairn.ini), fetch the\n"
    "  schemas of remote providers, record them in .terraform.lock.hcl and\n"
    "  cache them under .terraform/providers/.\n\n"
    "Options:\n\n"
    "  -config=FILE        Host configuration file (default: $CAIRN_CONFIG,\n"
    "                      ~/.config/cairn/cairn.ini, /etc/cairn/cairn.ini).\n\n"
    "  -get=false          Do not list modules or write their manifest.\n\n"
    "  -upgrade            Accept a changed endpoint identity (server\n"
    "                      public key) recorded in the lock file, and\n"
    "                      select the newest version a plugin mirror\n"
    "                      (plugin_dir) holds within the constraints.\n\n"
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
