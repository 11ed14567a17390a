/*
** hostcfg: the host configuration (cairn.ini), which says where remote
** providers live and how to reach them (docs/host-config.md).
**
** A provider's source address ("acme.example/fleet/edge") stays in the
** portable .tf files; this file, a property of the host, maps it to an
** HTTPS endpoint with its TLS settings, credentials, timeouts and limits:
**
**   [defaults]
**   parallelism = 10
**   lock_timeout = 30s
**
**   [provider "acme.example/fleet/edge"]
**   endpoint = https://edge.lan:8443/cairn/v1
**   ca_file = /etc/cairn/edge-ca.pem
**   token_env = EDGE_TOKEN
**
** The file is read with core/config/ini.h (inih's dialect).  Unknown sections,
** unknown keys, repeated keys, malformed values and a provider section
** without an endpoint (or a plugin) are errors with file and line; all are reported,
** not only the first.
**
** Search order (hcfg_load): the -config=FILE flag, $CAIRN_CONFIG,
** $HOME/.config/cairn/cairn.ini, /etc/cairn/cairn.ini.  The first that
** exists wins; an explicitly named file (flag or variable) that does not
** exist is an error; no file at all is fine (only built-in providers).
**
** Credentials: the file names where a token comes from (token_env,
** token_file), never the token itself; hcfg_token() reads it on demand so
** it lives only in the caller's memory.
**
** Ownership: every string and array lives in the arena given to
** hcfg_load/hcfg_parse.  A loaded HostCfg is immutable and may be read by
** any thread.
*/
#ifndef CAIRN_HOSTCFG_H
#define CAIRN_HOSTCFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

/* One [provider "SOURCE"] section.  Unset numbers are -1 (0 for
** rate_limit and max_response_bytes), unset strings NULL: the HTTP layer
** then applies its defaults (docs/http.md). */
typedef struct HcfgProvider {
  const char *source;        /* normalised source address */
  const char *file;          /* where the section is, for diagnostics */
  uint32_t line;
  const char *endpoint;      /* base URL, https://host:port/path */
  const char *plugin;        /* instead of endpoint: a local provider
                                plugin binary (absolute path, net/
                                prov_plugin.h); the other keys but timeout
                                do not apply to it */
  const char *plugin_dir;    /* instead of endpoint: a Terraform filesystem
                                mirror or plugin cache (absolute path,
                                net/mirror.h) that `cairn init` picks a
                                version from */
  const char *ca_file;
  const char *ca_dir;
  const char *client_cert;   /* PEM, mutual TLS */
  const char *client_key;
  const char *pin_sha256;    /* curl form "sha256//B64[;sha256//B64]" */
  const char *token_env;     /* name of an environment variable */
  const char *token_file;    /* file holding the bearer token */
  const char *resolve;       /* "host:port:addr", to pin an address */
  long connect_timeout_ms;
  long timeout_ms;
  int retries;
  double rate_limit;         /* requests per second; 0 = none */
  size_t max_response_bytes; /* 0 = default (64 MiB) */
  bool insecure_http;
} HcfgProvider;

typedef struct HostCfg {
  const char *path;          /* the file loaded, or NULL when none */
  HcfgProvider *providers;
  uint32_t nproviders;
  int parallelism;           /* [defaults]; 0 = not set */
  long lock_timeout_ms;      /* [defaults]; -1 = not set */
  const char *plugin_dir;    /* [defaults]: the mirror for providers that
                                are neither built in nor in a section */
  bool allow_skip_cert_verification;  /* [defaults]
                                backend_skip_cert_verification = true: a
                                backend block may turn TLS verification
                                off (docs/backends.md) */
} HostCfg;

/* An empty configuration (no file). */
void hcfg_empty(HostCfg *c);

/* Parses text[0..len) read from path.  Returns false with one diagnostic
** per problem (each with file:line); *out still holds what was valid. */
bool hcfg_parse(Arena *a, const char *path, const char *text, size_t len,
                HostCfg *out, Diags *d);

/* Which file the search order picks, given the flag value, $CAIRN_CONFIG
** and $HOME (each may be NULL or "").  Returns the path (in a) or NULL
** when none exists; *explicit_missing is set when the flag or variable
** names a file that does not exist (an error for the caller). */
const char *hcfg_locate(Arena *a, const char *flag, const char *env,
                        const char *home, bool *explicit_missing);

/* Locates (with the process environment) and parses the host
** configuration.  No file is not an error: *out is then empty. */
bool hcfg_load(Arena *a, const char *flag, HostCfg *out, Diags *d);

/* The section for a source address in any accepted form, or NULL. */
const HcfgProvider *hcfg_provider(const HostCfg *c, Arena *scratch,
                                  const char *source);

/* Reads the bearer token of p into a (NULL when p names none).  A missing
** variable, unreadable or empty file is a diagnostic and returns false.
** Surrounding whitespace (the trailing newline of a file) is removed. */
bool hcfg_token(Arena *a, const HcfgProvider *p, const char **token,
                Diags *d);

#endif
