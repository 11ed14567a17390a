/*
** gateway: `cairn gateway`, a server of cairn's HTTPS provider protocol
** (docs/provider-protocol.md) for the provider plugins its configuration
** lists, so that small hosts reach real Terraform providers through one
** endpoint (docs/gateway.md: configuration, security model, operations).
**
** - gateway_conf.c reads and checks the INI configuration (every error as
**   a diagnostic with file:line).
** - gateway.c serves: the HTTPS server (net/httpd.h), client
**   authentication (mutual TLS and/or bearer tokens, compared in constant
**   time) and the per-client allow-list, the plugin processes (one per
**   client, provider and configuration, net/procpool.h) run in a
**   sandbox (minimal environment, own working directory, an unprivileged
**   user when the gateway runs as root), the idempotency cache of
**   ApplyResourceChange, one log line per call.
** - gateway_calls.c translates one protocol call (JSON) into the plugin
**   client's Prov calls (net/prov_plugin.h) and the answer back.
**
** URL scheme: POST /providers/<source address>/<CallName>, the source
** address in any accepted form ("hashicorp/null",
** "registry.terraform.io/hashicorp/null").  A client's host configuration
** says endpoint = https://GATEWAY:PORT/providers/hashicorp/null.
**
** Logs go through the log function given to gw_run (one line per call:
** client, provider, call, duration, status; plugin starts and stops);
** provider configurations and values are never logged.
**
** Memory: the configuration lives in the arena given to gw_load; the
** server's own state in an arena of gw_run.
*/
#ifndef CAIRN_GATEWAY_H
#define CAIRN_GATEWAY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/arena.h"
#include "base/diag.h"

typedef struct GwProvider {
  const char *addr;          /* fully-qualified source address */
  const char *plugin;        /* absolute path of the plugin binary; for a
                                .zip from a mirror, set by gw_prepare */
  long timeout_ms;           /* per call; 0: the plugin client's default */
  unsigned line;             /* of its section, for messages */
  /* From a filesystem mirror (plugin_dir), chosen by gw_load: */
  const char *plugin_dir;    /* the mirror, or NULL (plugin named) */
  const char *constraint;    /* `version`, canonical; "" for the newest */
  const char *version;       /* the version chosen */
  const char *zip;           /* the chosen package when it is a .zip (to
                                unpack: gw_prepare), else NULL */
  const char *pkg_dir;       /* the unpacked package holding plugin (from
                                the mirror, or unpacked by gw_prepare),
                                hashed as a directory; NULL: plugin is
                                hashed alone */
  /* `hashes` (h1:/zh:, as in a dependency lock file): the package must
  ** match one of them, checked by gw_load and again before every plugin
  ** process starts; none given: the package is trusted as it is. */
  const char **hashes;
  int nhashes;
} GwProvider;

/* NULL when p has no `hashes` or its package matches one of them;
** otherwise why not, naming the package and its own hashes (in a). */
const char *gw_check_hashes(Arena *a, const GwProvider *p);

typedef struct GwClient {
  const char *name;
  const char *token;         /* from token_file, or NULL */
  const char *cn;            /* certificate CN (mutual TLS), or NULL */
  const char **providers;    /* allowed source addresses (normalised) */
  int nproviders;
  bool all_providers;        /* providers = * */
  unsigned line;             /* of its section, for messages */
} GwClient;

typedef struct GwConfig {
  const char *path;
  const char *listen;
  const char *cert_file, *key_file, *client_ca_file;
  int threads;
  int max_connections;
  int max_processes;
  long idle_timeout_ms;
  size_t max_request;
  const char *work_dir;
  const char *plugin_user;   /* NULL: not switching */
  bool set_ids;              /* running as root: switch to plugin_user */
  uid_t uid;
  gid_t gid;
  const char **pass_env;     /* names passed on to plugins */
  int npass_env;
  int idempotency_entries;   /* answers kept (oldest dropped first) */
  size_t idempotency_bytes;  /* and their total size */
  GwProvider *providers;
  int nproviders;
  GwClient *clients;
  int nclients;
} GwConfig;

/* Reads and checks the configuration file at path.  Every problem is a
** diagnostic whose detail starts with "FILE:LINE:"; returns NULL when
** there was any error.  A provider served from a mirror (plugin_dir) gets
** its package chosen here, once: the newest release the optional
** `version` constraint allows (net/mirror.h, core/config/provver.h); an
** unpacked package's executable becomes its plugin.  Nothing is written. */
GwConfig *gw_load(Arena *a, const char *path, Diags *d);

/* Before gw_run (not for -check): creates work_dir and unpacks the .zip
** packages chosen from mirrors into work_dir/.packages/ADDR/VERSION/
** PLATFORM, setting their providers' plugin.  False with a diagnostic
** when that fails. */
bool gw_prepare(Arena *a, GwConfig *c, Diags *d);

/* The provider section serving source address addr (fully qualified), or
** NULL when the gateway does not serve it. */
const GwProvider *gw_provider(const GwConfig *c, const char *addr);

typedef void (*GwLogFn)(void *ctx, const char *line);

/* Serves until gw_stop; then finishes the running calls and shuts the
** plugins down.  ready (may be NULL) is called once listening, with the
** port.  False with diagnostics when it cannot start. */
bool gw_run(const GwConfig *c, GwLogFn log, void *log_ctx,
            void (*ready)(void *ctx, int port), Diags *d);

/* Asks gw_run to stop; async-signal-safe. */
void gw_stop(void);

#endif
