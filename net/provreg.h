/*
** provreg: the provider registry: turns a provider source address into an
** open Prov: a built-in (core/providers/provider.h), a remote provider over
** HTTPS (net/prov_https.h) or a local provider plugin process
** (net/prov_plugin.h), the last two mapped in the host configuration
** (core/config/hostcfg.h).
**
** Use (engine, cairn init):
**   ProvReg r;
**   if (!preg_init(&r, arena, config_flag, diags)) ...   host config bad
**   Prov *p = preg_open(&r, "hashicorp/null", diags);    NULL on error
**   ...
**   preg_close(&r);                                       closes every Prov
**
** Contracts:
** - Built-ins win over an endpoint: a source that names a built-in
**   provider is opened in-process even if the host configuration maps it
**   to an endpoint (such a mapping gets a warning from preg_init).  A
**   section that names a `plugin` binary wins over everything: that
**   plugin is started (net/prov_plugin.h), built-in or not.
** - Every preg_open returns a new instance (one per `provider` block,
**   aliases included).  HTTPS instances of one source share one
**   HttpEndpoint, so the rate limit and the handshake counters are per
**   endpoint, as documented.
** - An unknown source gives the error "Failed to query available provider
**   packages" naming the source and showing the cairn.ini section that
**   would map it.
** - What `cairn init` recorded is used: for a remote source ADDR,
**   .terraform/providers/ADDR/schema.json (relative to the working
**   directory) is loaded instead of calling GetProviderSchema, and
**   .terraform/providers/ADDR/identity (the server's public-key hash) pins
**   the server's key unless the host configuration pins one itself, so a
**   changed server key fails every command until `cairn init -upgrade`.
**   Setting `fetch` (cairn init does) ignores both.
** - A provider served from a mirror (`plugin_dir`) runs the package
**   `cairn init` installed: the version the lock file selects, from
**   .terraform/providers/ADDR/VERSION/PLATFORM/, whose h1: hash must be
**   one the lock file records ("Required plugins are not installed"
**   otherwise, in Terraform's words).  Each package is hashed once per
**   registry.  When `constraints` is set (plan, apply, ...), the locked version
**   must also satisfy the configuration's version constraints
**   ("Inconsistent dependency lock file" otherwise, as in Terraform).
** - A `plugin = PATH` binary must be the one `cairn init` recorded: the
**   lock file's entry names the path and the binary's h1: hash
**   ("Inconsistent dependency lock file" or "Required plugins are not
**   installed" otherwise).  `fetch` (cairn init) skips the check.
** - preg_init, preg_open and preg_close are called from one thread (the
**   owner); the returned Provs follow core/providers/provider.h's thread rules.
** - Memory: the registry, the host configuration and every instance live
**   in the arena given to preg_init, which must outlive preg_close.
**   preg_close releases what is not arena memory (libcurl handles,
**   mutexes) and must be called once, after the last call on any Prov.
*/
#ifndef CAIRN_PROVREG_H
#define CAIRN_PROVREG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/hostcfg.h"
#include "config/lockfile.h"
#include "providers/provider.h"

typedef struct PregEndpoint PregEndpoint;
typedef struct PregInst PregInst;
typedef struct PregPkg PregPkg;

typedef struct ProvReg {
  Arena *arena;
  HostCfg cfg;               /* the loaded host configuration */
  PregEndpoint *endpoints;   /* one per remote source opened so far */
  PregInst *insts;           /* every instance opened, for preg_close */
  bool fetch;                /* ignore .terraform/providers/ (cairn init) */
  Lock lock;                 /* .terraform.lock.hcl, read on first need */
  bool lock_read;
  PregPkg *pkgs;             /* mirror packages verified so far */
  /* Optional (set by commands that plan): the configuration's canonical
  ** version constraints for a provider ("" for none, NULL when they do not
  ** parse), which the locked version of a mirror plugin must satisfy. */
  const char *(*constraints)(void *ctx, const char *norm);
  void *constraints_ctx;
} ProvReg;

/* Loads the host configuration (config_flag: the -config=FILE value, or
** NULL) and prepares an empty registry.  Returns false with diagnostics
** when the host configuration is invalid; the registry is still usable
** for built-ins then. */
bool preg_init(ProvReg *r, Arena *a, const char *config_flag, Diags *d);

/* Opens an instance of the provider named by source (any accepted form).
** Returns NULL with a diagnostic when it is neither built in nor mapped,
** or when its endpoint settings are unusable (no network traffic
** happens here: the first call connects). */
Prov *preg_open(ProvReg *r, const char *source, Diags *d);

/* The plugin binary the host configuration names for source (any
** accepted form), or NULL. */
const char *preg_plugin(ProvReg *r, const char *source);

/* The mirror directory (`plugin_dir`) that serves source, or NULL: the
** provider section's, else for a source that is neither built in nor in a
** section, [defaults]'s.  A section's `plugin` wins over both. */
const char *preg_plugin_dir(ProvReg *r, const char *source);

/* Opens the plugin binary exe for the normalised source norm (cairn init,
** which has just installed it from a mirror); closed by preg_close. */
Prov *preg_open_plugin(ProvReg *r, const char *norm, const char *exe);

/* True when source is served over HTTPS by this registry's host
** configuration (and is not a built-in). */
bool preg_is_remote(ProvReg *r, const char *source);

/* Closes every instance opened and releases the endpoints. */
void preg_close(ProvReg *r);

#endif
