/*
** provreg.c: source address -> open provider instance (built-in or
** HTTPS).  Contracts in provreg.h.
*/
#include <string.h>
#include <sys/stat.h>

#include "config/provver.h"
#include "mirror.h"
#include "prov_https.h"
#include "prov_plugin.h"
#include "provreg.h"

struct PregEndpoint {
  PregEndpoint *next;
  const char *source;        /* normalised */
  HttpEndpoint ep;
  bool usable;               /* settings checked, token read */
};

struct PregInst {
  PregInst *next;
  Prov *prov;
};

struct PregPkg {
  PregPkg *next;
  const char *addr;          /* normalised */
  const char *exe;           /* verified plugin executable */
};

bool preg_init(ProvReg *r, Arena *a, const char *config_flag, Diags *d)
{
  memset(r, 0, sizeof *r);
  r->arena = a;
  hcfg_empty(&r->cfg);
  if (!hcfg_load(a, config_flag, &r->cfg, d))
    return false;
  for (uint32_t i = 0; i < r->cfg.nproviders; i++) {
    const HcfgProvider *p = &r->cfg.providers[i];
    if (!p->plugin && !p->plugin_dir && !p->endpoint &&
        prov_lookup_builtin(p->source)) {
      SrcRange rng = {p->file, {p->line, 1, 0}, {p->line, 1, 0}};
      diag_warning(d, &rng, "Host configuration maps a built-in provider",
                   "%s:%u: \"%s\" is built into cairn; the section is "
                   "ignored.",
                   p->file, p->line, p->source);
    }
  }
  return true;
}

static const char *cache_path(ProvReg *r, const char *addr, const char *f)
{
  return arena_printf(r->arena, ".terraform/providers/%s/%s", addr, f);
}

static void remember(ProvReg *r, Prov *p)
{
  PregInst *in = ARENA_NEW(r->arena, PregInst, 1);
  in->prov = p;
  in->next = r->insts;
  r->insts = in;
}

const char *preg_plugin(ProvReg *r, const char *source)
{
  const HcfgProvider *hp = hcfg_provider(&r->cfg, r->arena, source);
  return hp ? hp->plugin : NULL;
}

bool preg_is_remote(ProvReg *r, const char *source)
{
  const HcfgProvider *hp = hcfg_provider(&r->cfg, r->arena, source);
  /* An endpoint wins over a built-in as a plugin does (a gateway serving
  ** the upstream provider, docs/gateway.md). */
  return hp && !hp->plugin && !hp->plugin_dir &&
         (hp->endpoint || !prov_lookup_builtin(source));
}

const char *preg_plugin_dir(ProvReg *r, const char *source)
{
  const HcfgProvider *hp = hcfg_provider(&r->cfg, r->arena, source);
  if (hp)
    return hp->plugin ? NULL : hp->plugin_dir;
  return prov_lookup_builtin(source) ? NULL : r->cfg.plugin_dir;
}

Prov *preg_open_plugin(ProvReg *r, const char *norm, const char *exe)
{
  const HcfgProvider *hp = hcfg_provider(&r->cfg, r->arena, norm);
  Prov *p = pplugin_open(r->arena, norm, exe,
                         hp && hp->timeout_ms > 0 ? hp->timeout_ms : 0);
  remember(r, p);
  return p;
}

static bool has_dir(const char *p)
{
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The executable of the package `cairn init` installed for norm, checked
** against the lock file as Terraform's providerFactories does; NULL with
** Terraform's diagnostics otherwise. */
static const char *installed_plugin(ProvReg *r, const char *norm, Diags *d)
{
  for (PregPkg *k = r->pkgs; k; k = k->next)
    if (strcmp(k->addr, norm) == 0)
      return k->exe;
  if (!r->lock_read) {
    if (!lockf_read(r->arena, LOCKF_NAME, &r->lock, d))
      return NULL;
    r->lock_read = true;
  }
  const LockEnt *e = lockf_find(&r->lock, norm);
  if (!e || !e->version) {
    diag_error(d, NULL, "Inconsistent dependency lock file",
               "The following dependency selections recorded in the lock "
               "file are inconsistent with the current configuration:\n"
               "  - provider %s: required by this configuration but no "
               "version is selected\n\nTo make the initial dependency "
               "selections that will initialize the dependency lock file, "
               "run:\n  cairn init",
               norm);
    return NULL;
  }
  const char *want =
      r->constraints ? r->constraints(r->constraints_ctx, norm) : NULL;
  if (want && *want && pver_match(want, e->version) != 1) {
    diag_error(d, NULL, "Inconsistent dependency lock file",
               "The following dependency selections recorded in the lock "
               "file are inconsistent with the current configuration:\n"
               "  - provider %s: locked version selection %s doesn't match "
               "the updated version constraints \"%s\"\n\nTo update the "
               "locked dependency selections to match a changed "
               "configuration, run:\n  cairn init -upgrade",
               norm, e->version, want);
    return NULL;
  }
  const char *dir =
      arena_printf(r->arena, ".terraform/providers/%s/%s/%s", norm,
                   e->version, mirror_platform());
  const char *type = strrchr(norm, '/') + 1;
  const char *problem = NULL, *exe = NULL;
  if (!has_dir(dir)) {
    problem = arena_printf(r->arena,
                           "there is no package for %s %s cached in "
                           ".terraform/providers",
                           norm, e->version);
  } else {
    /* Terraform's PreferredHashes: the h1: ones when there are any. */
    bool any_h1 = false, match = false;
    for (uint32_t i = 0; i < e->nhashes; i++)
      any_h1 |= strncmp(e->hashes[i], "h1:", 3) == 0;
    const char *h1 = NULL, *why = NULL;
    if (e->nhashes && !mirror_hash_dir(r->arena, dir, &h1, &why))
      problem = arena_printf(r->arena,
                             "failed to verify checksum of %s %s package "
                             "cached in in .terraform/providers: %s",
                             norm, e->version, why);
    for (uint32_t i = 0; h1 && i < e->nhashes; i++)
      if ((!any_h1 || strncmp(e->hashes[i], "h1:", 3) == 0) &&
          strcmp(e->hashes[i], h1) == 0)
        match = true;
    if (!problem && e->nhashes && !match)
      problem = arena_printf(r->arena,
                             "the cached package for %s %s (in "
                             ".terraform/providers) does not match any of "
                             "the checksums recorded in the dependency lock "
                             "file",
                             norm, e->version);
    if (!problem && !(exe = mirror_executable(r->arena, dir, type)))
      problem = arena_printf(r->arena,
                             "could not find executable file starting with "
                             "terraform-provider-%s",
                             type);
  }
  if (problem) {
    diag_error(d, NULL, "Required plugins are not installed",
               "The installed provider plugins are not consistent with the "
               "packages selected in the dependency lock file:\n  - %s: "
               "%s\n\ncairn uses external plugins to integrate with a "
               "variety of different infrastructure services. To download "
               "the plugins required for this configuration, run:\n"
               "  cairn init",
               norm, problem);
    return NULL;
  }
  PregPkg *k = ARENA_NEW(r->arena, PregPkg, 1);
  k->addr = norm;
  k->exe = exe;
  k->next = r->pkgs;
  r->pkgs = k;
  return exe;
}

/* A `plugin = PATH` binary, checked against what `cairn init` recorded
** (docs/plugins.md "Lock file"): an entry for norm naming the same path
** (`endpoint = "plugin:PATH"`) whose hashes hold the binary's h1:.  Hashed
** once per registry.  False with Terraform's diagnostics otherwise. */
static bool plugin_locked(ProvReg *r, const char *norm, const char *path,
                          Diags *d)
{
  for (PregPkg *k = r->pkgs; k; k = k->next)
    if (strcmp(k->addr, norm) == 0)
      return true;
  if (!r->lock_read) {
    if (!lockf_read(r->arena, LOCKF_NAME, &r->lock, d))
      return false;
    r->lock_read = true;
  }
  const LockEnt *e = lockf_find(&r->lock, norm);
  const char *ep = arena_printf(r->arena, "plugin:%s", path);
  if (!e || !e->endpoint || strcmp(e->endpoint, ep) != 0 || !e->nhashes) {
    const char *why =
        !e || e->builtin || !e->endpoint
            ? "required by this configuration but no version is selected"
        : strcmp(e->endpoint, ep) != 0
            ? arena_printf(r->arena,
                           "the lock file records %s, but the host "
                           "configuration names the plugin %s",
                           e->endpoint, path)
            : arena_printf(r->arena,
                           "the lock file records no checksum for the "
                           "plugin %s",
                           path);
    diag_error(d, NULL, "Inconsistent dependency lock file",
               "The following dependency selections recorded in the lock "
               "file are inconsistent with the current configuration:\n"
               "  - provider %s: %s\n\nTo make the initial dependency "
               "selections that will initialize the dependency lock file, "
               "run:\n  cairn init",
               norm, why);
    return false;
  }
  const char *h1 = NULL, *why = NULL, *problem = NULL;
  if (!mirror_hash_file(r->arena, path, &h1, &why)) {
    problem = arena_printf(r->arena,
                           "failed to verify checksum of the plugin %s: %s",
                           path, why);
  } else {
    bool match = false;
    for (uint32_t i = 0; i < e->nhashes; i++)
      match |= strcmp(e->hashes[i], h1) == 0;
    if (!match)
      problem = arena_printf(r->arena,
                             "the plugin %s does not match any of the "
                             "checksums recorded in the dependency lock "
                             "file (it is %s)",
                             path, h1);
  }
  if (problem) {
    diag_error(d, NULL, "Required plugins are not installed",
               "The installed provider plugins are not consistent with the "
               "packages selected in the dependency lock file:\n  - %s: "
               "%s\n\nIf the plugin was replaced on purpose, run:\n"
               "  cairn init -upgrade",
               norm, problem);
    return false;
  }
  PregPkg *k = ARENA_NEW(r->arena, PregPkg, 1);
  k->addr = norm;
  k->exe = path;
  k->next = r->pkgs;
  r->pkgs = k;
  return true;
}

Prov *preg_open(ProvReg *r, const char *source, Diags *d)
{
  /* The host's choice of a plugin wins, even over a built-in. */
  const char *plugin = preg_plugin(r, source);
  if (plugin) {
    const char *norm = prov_source_normalize(r->arena, source, NULL, d);
    if (!norm)
      return NULL;
    if (!r->fetch && !plugin_locked(r, norm, plugin, d))
      return NULL;
    const HcfgProvider *hp = hcfg_provider(&r->cfg, r->arena, norm);
    Prov *p = pplugin_open(r->arena, norm, plugin,
                           hp->timeout_ms > 0 ? hp->timeout_ms : 0);
    remember(r, p);
    return p;
  }
  if (preg_plugin_dir(r, source)) {
    const char *norm = prov_source_normalize(r->arena, source, NULL, d);
    const char *exe = norm ? installed_plugin(r, norm, d) : NULL;
    return exe ? preg_open_plugin(r, norm, exe) : NULL;
  }
  const ProvBuiltin *b = prov_lookup_builtin(source);
  const HcfgProvider *hep = hcfg_provider(&r->cfg, r->arena, source);
  if (b && !(hep && hep->endpoint)) {
    Prov *p = prov_open_builtin(r->arena, b);
    remember(r, p);
    return p;
  }
  const char *norm = prov_source_normalize(r->arena, source, NULL, d);
  if (!norm)
    return NULL;
  const HcfgProvider *hp = hcfg_provider(&r->cfg, r->arena, norm);
  if (hp) {
    PregEndpoint *e = r->endpoints;
    while (e && strcmp(e->source, norm) != 0)
      e = e->next;
    if (!e) {
      e = ARENA_NEW(r->arena, PregEndpoint, 1);
      e->source = norm;
      e->usable = phttps_endpoint(r->arena, hp, &e->ep, d);
      const char *id;
      size_t n;
      if (e->usable && !r->fetch && !e->ep.pinned_pubkey &&
          prov_read_file(r->arena, cache_path(r, norm, "identity"), &id,
                         &n) &&
          n > 8 && strncmp(id, "sha256//", 8) == 0) {
        while (n && (id[n - 1] == '\n' || id[n - 1] == ' '))
          n--;
        e->ep.pinned_pubkey = arena_strndup(r->arena, id, n);
      }
      e->next = r->endpoints;
      r->endpoints = e;
    }
    if (!e->usable) {
      diag_error(d, NULL, "Invalid provider endpoint",
                 "The host configuration for \"%s\" (%s:%u) cannot be used; "
                 "see the previous errors.",
                 norm, hp->file, hp->line);
      return NULL;
    }
    Prov *p = phttps_open(r->arena, norm, &e->ep);
    const char *js;
    size_t n;
    if (!r->fetch &&
        prov_read_file(r->arena, cache_path(r, norm, "schema.json"), &js,
                       &n)) {
      /* A cache that does not decode is ignored: the schema is fetched. */
      Diags tmp;
      diag_init(&tmp, r->arena);
      phttps_preload_schema(p, js, n, &tmp);
    }
    remember(r, p);
    return p;
  }
  diag_error(d, NULL, "Failed to query available provider packages",
             "Could not retrieve the list of available versions for "
             "provider %s: cairn does not download providers, and this one "
             "is neither built in nor mapped to an endpoint by %s. To use a "
             "remote provider, add a section like this to %s:\n\n"
             "[provider \"%s\"]\n"
             "endpoint = https://HOST:PORT/PATH",
             norm,
             r->cfg.path ? r->cfg.path : "a host configuration (none found)",
             r->cfg.path ? r->cfg.path : "~/.config/cairn/cairn.ini", norm);
  return NULL;
}

void preg_close(ProvReg *r)
{
  for (PregInst *in = r->insts; in; in = in->next)
    prov_close(in->prov);
  r->insts = NULL;
  for (PregEndpoint *e = r->endpoints; e; e = e->next)
    http_endpoint_destroy(&e->ep);
  r->endpoints = NULL;
}
