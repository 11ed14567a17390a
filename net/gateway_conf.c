/*
** gateway_conf.c: the gateway's INI configuration (keys in
** docs/gateway.md; contracts in gateway.h).
*/
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "config/ini.h"
#include "config/provver.h"
#include "gateway.h"
#include "mirror.h"
#include "providers/provider.h"

static void bad(Diags *d, const IniEntry *e, const char *want)
{
  ini_bad_value(d, e, "Invalid gateway configuration", want);
}

/* "16777216", "64KiB", "16MiB", "1GiB". */
static bool parse_size(const char *s, size_t *out)
{
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *s == '-')
    return false;
  unsigned long long m = 1;
  if (strcmp(end, "KiB") == 0)
    m = 1024ULL;
  else if (strcmp(end, "MiB") == 0)
    m = 1024ULL * 1024;
  else if (strcmp(end, "GiB") == 0)
    m = 1024ULL * 1024 * 1024;
  else if (*end)
    return false;
  if (v == 0 || v > (unsigned long long)SIZE_MAX / m)
    return false;
  *out = (size_t)(v * m);
  return true;
}

/* Splits "a, b ,c" into trimmed items. */
static int split_list(Arena *a, const char *v, const char ***out)
{
  int cap = 1;
  for (const char *p = v; *p; p++)
    cap += *p == ',' || *p == '\n';
  const char **items = ARENA_NEW(a, const char *, (size_t)cap);
  int n = 0;
  const char *p = v;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\n')
      p++;
    const char *s = p;
    while (*p && *p != ',' && *p != '\n')
      p++;
    const char *e = p;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
      e--;
    if (e > s)
      items[n++] = arena_strndup(a, s, (size_t)(e - s));
  }
  *out = items;
  return n;
}

/* Reads a secret file: the whole content, surrounding whitespace
** removed; a file others may read is refused (a token is a password). */
static const char *read_token(Arena *a, const IniEntry *e, Diags *d)
{
  int fd = open(e->value, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    diag_error(d, &e->value_range, "Invalid gateway configuration",
               "%s:%u: cannot read the token file %s: %s.",
               e->value_range.file, e->line, e->value, strerror(errno));
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  if (st.st_mode & 077) {
    close(fd);
    diag_error(d, &e->value_range, "Invalid gateway configuration",
               "%s:%u: the token file %s may be read by others (mode %03o): "
               "make it private (chmod 600).",
               e->value_range.file, e->line, e->value,
               (unsigned)(st.st_mode & 0777));
    return NULL;
  }
  Buf b;
  buf_init(&b, a);
  int rc = buf_read_fd(&b, fd, 65536);
  close(fd);
  const char *s = rc == 0 ? buf_str(&b) : "";
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  if (rc != 0 || n < 16) {
    diag_error(d, &e->value_range, "Invalid gateway configuration",
               "%s:%u: the token in %s must be at least 16 characters.",
               e->value_range.file, e->line, e->value);
    return NULL;
  }
  return arena_strndup(a, s, n);
}

static const char *const gateway_keys[] = {
    "listen", "cert_file", "key_file", "client_ca_file", "threads",
    "max_connections", "max_processes", "idle_timeout", "max_request",
    "work_dir", "plugin_user", "pass_env", "idempotency_entries",
    "idempotency_bytes"};

static void gateway_key(Arena *a, GwConfig *c, const IniEntry *e, Diags *d)
{
  const char *k = e->name, *v = e->value;
  long n;
  if (!ini_key_known(k, gateway_keys,
                     sizeof gateway_keys / sizeof *gateway_keys)) {
    diag_error(d, &e->name_range, "Invalid gateway configuration",
               "%s:%u: unknown key \"%s\" in section [gateway].",
               e->name_range.file, e->line, k);
    return;
  }
  if (strcmp(k, "listen") == 0) {
    if (!strrchr(v, ':') || !ini_int(strrchr(v, ':') + 1, 0, 65535, &n))
      bad(d, e, "HOST:PORT");
    else
      c->listen = v;
  } else if (strcmp(k, "cert_file") == 0) {
    c->cert_file = v;
  } else if (strcmp(k, "key_file") == 0) {
    c->key_file = v;
  } else if (strcmp(k, "client_ca_file") == 0) {
    c->client_ca_file = *v ? v : NULL;
  } else if (strcmp(k, "threads") == 0) {
    if (!ini_int(v, 1, 256, &n))
      bad(d, e, "a number from 1 to 256");
    else
      c->threads = (int)n;
  } else if (strcmp(k, "max_connections") == 0) {
    if (!ini_int(v, 1, 65536, &n))
      bad(d, e, "a number from 1 to 65536");
    else
      c->max_connections = (int)n;
  } else if (strcmp(k, "max_processes") == 0) {
    if (!ini_int(v, 1, 4096, &n))
      bad(d, e, "a number from 1 to 4096");
    else
      c->max_processes = (int)n;
  } else if (strcmp(k, "idle_timeout") == 0) {
    long ms;
    if (!ini_duration(v, &ms) || ms <= 0)
      bad(d, e, "a positive duration such as \"10m\" or \"30s\"");
    else
      c->idle_timeout_ms = ms;
  } else if (strcmp(k, "max_request") == 0) {
    if (!parse_size(v, &c->max_request))
      bad(d, e, "a size in bytes such as \"16MiB\" or \"65536\"");
  } else if (strcmp(k, "work_dir") == 0) {
    if (v[0] != '/')
      bad(d, e, "an absolute path");
    else
      c->work_dir = v;
  } else if (strcmp(k, "plugin_user") == 0) {
    c->plugin_user = *v ? v : NULL;
  } else if (strcmp(k, "pass_env") == 0) {
    c->npass_env = split_list(a, v, &c->pass_env);
    for (int i = 0; i < c->npass_env; i++)
      for (const char *p = c->pass_env[i]; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_') {
          bad(d, e, "a list of environment variable names");
          return;
        }
  } else if (strcmp(k, "idempotency_entries") == 0) {
    if (!ini_int(v, 1, 10000000, &n))
      bad(d, e, "a number from 1 to 10000000");
    else
      c->idempotency_entries = (int)n;
  } else if (strcmp(k, "idempotency_bytes") == 0) {
    if (!parse_size(v, &c->idempotency_bytes))
      bad(d, e, "a size in bytes such as \"256MiB\"");
  }
}

/* Picks p's package from its mirror (see gw_load in gateway.h): the
** newest version for this host's platform that p->constraint allows (a
** prerelease only when the constraint names it); an unpacked package's
** executable becomes p->plugin, a .zip waits for gw_prepare. */
static void choose_package(Arena *a, const char *path, GwProvider *p,
                           Diags *d)
{
  const char *platform = mirror_platform(), *why;
  const char *cons = p->constraint ? p->constraint : "";
  MirrorPkg *pkgs;
  uint32_t n;
  if (!mirror_list(a, p->plugin_dir, p->addr, platform, &pkgs, &n, &why)) {
    diag_error(d, NULL, "Invalid gateway configuration",
               "%s:%u: provider \"%s\": cannot read the mirror %s: %s",
               path, p->line, p->addr, p->plugin_dir, why);
    return;
  }
  const MirrorPkg *pick = NULL;
  for (uint32_t i = 0; i < n && !pick; i++)
    if (pver_match(cons, pkgs[i].version) == 1)
      pick = &pkgs[i];
  if (!pick) {
    Buf have;
    buf_init(&have, a);
    for (uint32_t i = 0; i < n; i++)
      buf_printf(&have, "%s%s", i ? ", " : "", pkgs[i].version);
    if (!n)
      diag_error(d, NULL, "Invalid gateway configuration",
                 "%s:%u: provider \"%s\": the mirror %s holds no package "
                 "of it for %s.",
                 path, p->line, p->addr, p->plugin_dir, platform);
    else
      diag_error(d, NULL, "Invalid gateway configuration",
                 "%s:%u: provider \"%s\": the mirror %s holds no version "
                 "matching \"%s\" for %s (it holds %s).",
                 path, p->line, p->addr, p->plugin_dir,
                 *cons ? cons : "(the newest release)", platform,
                 buf_str(&have));
    return;
  }
  p->version = pick->version;
  if (pick->zip) {
    p->zip = pick->path;
    return;
  }
  p->pkg_dir = pick->path;
  const char *type = strrchr(p->addr, '/') + 1;
  const char *exe = mirror_executable(a, pick->path, type);
  if (!exe || access(exe, X_OK) != 0)
    diag_error(d, NULL, "Invalid gateway configuration",
               "%s:%u: provider \"%s\": the package %s holds no "
               "executable terraform-provider-%s.",
               path, p->line, p->addr, pick->path, type);
  else
    p->plugin = exe;
}

static bool hash_listed(const GwProvider *p, const char *h)
{
  for (int i = 0; h && i < p->nhashes; i++)
    if (strcmp(p->hashes[i], h) == 0)
      return true;
  return false;
}

const char *gw_check_hashes(Arena *a, const GwProvider *p)
{
  if (!p->nhashes)
    return NULL;
  /* What runs: the .zip before gw_prepare unpacks it, then the unpacked
  ** directory (its h1: is the .zip's contents'), or the binary alone. */
  const char *what = p->pkg_dir ? p->pkg_dir : p->zip ? p->zip : p->plugin;
  const char *h1 = NULL, *zh = NULL, *why = NULL;
  bool ok = p->pkg_dir ? mirror_hash_dir(a, p->pkg_dir, &h1, &why)
            : p->zip   ? mirror_hash_zip(a, p->zip, &h1, &zh, &why)
                       : mirror_hash_file(a, p->plugin, &h1, &why);
  if (!ok)
    return arena_printf(a, "provider \"%s\": cannot hash the package %s "
                        "to check it against \"hashes\": %s.", p->addr,
                        what, why);
  if (hash_listed(p, h1) || hash_listed(p, zh))
    return NULL;
  return arena_printf(a, "provider \"%s\": the package %s doesn't match "
                      "any of the hashes in \"hashes\" (it has %s%s%s). "
                      "Put its hash there only if the package is trusted.",
                      p->addr, what, h1, zh ? ", " : "", zh ? zh : "");
}

GwConfig *gw_load(Arena *a, const char *path, Diags *d)
{
  Buf text;
  buf_init(&text, a);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || buf_read_fd(&text, fd, 1 << 20) != 0) {
    diag_error(d, NULL, "Cannot read the gateway configuration",
               "%s: %s.", path, fd < 0 ? strerror(errno)
                                       : "cannot read it (over 1 MiB?)");
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  close(fd);
  IniFile f;
  int before = d->errors;
  ini_parse(a, path, buf_str(&text), text.len, &f, d);

  GwConfig *c = ARENA_NEW(a, GwConfig, 1);
  c->path = path;
  c->threads = 16;
  c->max_connections = 256;
  c->max_processes = 16;
  c->idle_timeout_ms = 10 * 60 * 1000;
  c->max_request = 16u << 20;
  c->idempotency_entries = 10000;
  c->idempotency_bytes = 256u << 20;
  c->providers = ARENA_NEW(a, GwProvider, f.nsections + 1);
  c->clients = ARENA_NEW(a, GwClient, f.nsections + 1);

  /* Sections first, so keys know where they belong. */
  uint32_t gateway_line = 0;
  for (uint32_t i = 0; i < f.nsections; i++) {
    const IniSection *s = &f.sections[i];
    const char *name;
    if (strcmp(s->name, "gateway") == 0) {
      gateway_line = s->line;
    } else if ((name = ini_section_name(a, s->name, "provider"))) {
      Diags tmp;
      diag_init(&tmp, a);
      const char *addr = prov_source_normalize(a, name, NULL, &tmp);
      if (!addr) {
        diag_error(d, &s->range, "Invalid gateway configuration",
                   "%s:%u: \"%s\" is not a provider source address.", path,
                   s->line, name);
        continue;
      }
      for (int j = 0; j < c->nproviders; j++)
        if (strcmp(c->providers[j].addr, addr) == 0)
          diag_error(d, &s->range, "Invalid gateway configuration",
                     "%s:%u: provider \"%s\" is configured twice.", path,
                     s->line, addr);
      c->providers[c->nproviders].line = s->line;
      c->providers[c->nproviders++].addr = addr;
    } else if ((name = ini_section_name(a, s->name, "client"))) {
      /* The name becomes a directory under work_dir. */
      bool ok = name[0] != '.';
      for (const char *q = name; *q; q++)
        ok &= isalnum((unsigned char)*q) || *q == '-' || *q == '_' ||
              *q == '.';
      if (!ok)
        diag_error(d, &s->range, "Invalid gateway configuration",
                   "%s:%u: a client name may hold letters, digits, '-', '_' "
                   "and '.' (not first), not \"%s\".",
                   path, s->line, name);
      for (int j = 0; j < c->nclients; j++)
        if (strcmp(c->clients[j].name, name) == 0)
          diag_error(d, &s->range, "Invalid gateway configuration",
                     "%s:%u: client \"%s\" is configured twice.", path,
                     s->line, name);
      c->clients[c->nclients].line = s->line;
      c->clients[c->nclients++].name = name;
    } else {
      diag_error(d, &s->range, "Invalid gateway configuration",
                 "%s:%u: unknown section [%s]: the gateway configuration "
                 "has [gateway], [provider \"SOURCE\"] and "
                 "[client \"NAME\"] sections.",
                 path, s->line, s->name);
    }
  }

  for (uint32_t i = 0; i < f.nentries; i++) {
    const IniEntry *e = &f.entries[i];
    const char *name;
    if (strcmp(e->section, "gateway") == 0) {
      gateway_key(a, c, e, d);
    } else if ((name = ini_section_name(a, e->section, "provider"))) {
      Diags tmp;
      diag_init(&tmp, a);
      const char *addr = prov_source_normalize(a, name, NULL, &tmp);
      GwProvider *p = NULL;
      for (int j = 0; addr && j < c->nproviders; j++)
        if (strcmp(c->providers[j].addr, addr) == 0)
          p = &c->providers[j];
      if (!p)
        continue;
      if (strcmp(e->name, "plugin_dir") == 0) {
        struct stat st;
        int rc = e->value[0] == '/' ? stat(e->value, &st) : 0;
        if (e->value[0] != '/')
          bad(d, e, "an absolute path to a provider mirror directory");
        else if (rc != 0 || !S_ISDIR(st.st_mode))
          diag_error(d, &e->value_range, "Invalid gateway configuration",
                     "%s:%u: the plugin_dir %s is not a directory%s%s.",
                     path, e->line, e->value, rc ? ": " : "",
                     rc ? strerror(errno) : "");
        else
          p->plugin_dir = e->value;
      } else if (strcmp(e->name, "version") == 0) {
        const char *one[] = {e->value}, *why;
        const char *canon = pver_canon(a, one, 1, &why);
        if (!canon || !*canon)
          bad(d, e, "a version constraint such as \"~> 3.2\" or "
                    "\">= 1.0, < 2.0\"");
        else
          p->constraint = canon;
      } else if (strcmp(e->name, "plugin") == 0) {
        if (e->value[0] != '/')
          bad(d, e, "an absolute path to a provider plugin binary");
        else if (access(e->value, X_OK) != 0)
          diag_error(d, &e->value_range, "Invalid gateway configuration",
                     "%s:%u: the plugin %s cannot be run: %s.", path,
                     e->line, e->value, strerror(errno));
        else
          p->plugin = e->value;
      } else if (strcmp(e->name, "hashes") == 0) {
        p->nhashes = split_list(a, e->value, &p->hashes);
        for (int j = 0; j < p->nhashes; j++)
          if (strncmp(p->hashes[j], "h1:", 3) != 0 &&
              strncmp(p->hashes[j], "zh:", 3) != 0) {
            bad(d, e, "a list of package hashes such as \"h1:BASE64, "
                      "zh:HEX\", as a dependency lock file holds them");
            break;
          }
        if (!p->nhashes)
          bad(d, e, "a list of package hashes such as \"h1:BASE64, "
                    "zh:HEX\", as a dependency lock file holds them");
      } else if (strcmp(e->name, "timeout") == 0) {
        long ms;
        if (!ini_duration(e->value, &ms) || ms <= 0)
          bad(d, e, "a positive duration such as \"30m\"");
        else
          p->timeout_ms = ms;
      } else {
        diag_error(d, &e->name_range, "Invalid gateway configuration",
                   "%s:%u: unknown key \"%s\" in a provider section (plugin, "
                   "plugin_dir, version, hashes, timeout).",
                   path, e->line, e->name);
      }
    } else if ((name = ini_section_name(a, e->section, "client"))) {
      GwClient *cl = NULL;
      for (int j = 0; j < c->nclients; j++)
        if (strcmp(c->clients[j].name, name) == 0)
          cl = &c->clients[j];
      if (!cl)
        continue;
      if (strcmp(e->name, "token_file") == 0) {
        cl->token = read_token(a, e, d);
      } else if (strcmp(e->name, "certificate_cn") == 0) {
        cl->cn = *e->value ? e->value : NULL;
      } else if (strcmp(e->name, "providers") == 0) {
        const char **items;
        int n = split_list(a, e->value, &items);
        cl->providers = ARENA_NEW(a, const char *, (size_t)n + 1);
        for (int j = 0; j < n; j++) {
          if (strcmp(items[j], "*") == 0) {
            cl->all_providers = true;
            continue;
          }
          Diags tmp;
          diag_init(&tmp, a);
          const char *addr = prov_source_normalize(a, items[j], NULL, &tmp);
          if (!addr) {
            bad(d, e, "a list of provider source addresses (or *)");
            break;
          }
          cl->providers[cl->nproviders++] = addr;
        }
      } else {
        diag_error(d, &e->name_range, "Invalid gateway configuration",
                   "%s:%u: unknown key \"%s\" in a client section "
                   "(token_file, certificate_cn, providers).",
                   path, e->line, e->name);
      }
    } else if (!*e->section) {
      diag_error(d, &e->name_range, "Invalid gateway configuration",
                 "%s:%u: \"%s\" is outside any section.", path, e->line,
                 e->name);
    }
  }

  /* What must be there. */
  struct {
    const char *v, *key;
  } req[] = {{c->listen, "listen"}, {c->cert_file, "cert_file"},
             {c->key_file, "key_file"}, {c->work_dir, "work_dir"}};
  for (size_t i = 0; i < sizeof req / sizeof *req; i++)
    if (!req[i].v && !ini_get(&f, "gateway", req[i].key))
      diag_error(d, NULL, "Invalid gateway configuration",
                 "%s:%u: [gateway] needs \"%s\".", path, gateway_line,
                 req[i].key);
  for (int i = 0; i < c->nproviders; i++) {
    GwProvider *p = &c->providers[i];
    if (p->plugin && p->plugin_dir)
      diag_error(d, NULL, "Invalid gateway configuration",
                 "%s:%u: provider \"%s\" names both \"plugin\" and "
                 "\"plugin_dir\": keep one.",
                 path, p->line, p->addr);
    else if (p->constraint && p->plugin)
      diag_error(d, NULL, "Invalid gateway configuration",
                 "%s:%u: provider \"%s\": \"version\" selects a package "
                 "from \"plugin_dir\"; a \"plugin\" is one binary.",
                 path, p->line, p->addr);
    else if (p->plugin_dir)
      choose_package(a, path, p, d);
    else if (!p->plugin)
      diag_error(d, NULL, "Invalid gateway configuration",
                 "%s:%u: provider \"%s\" needs \"plugin\" (the binary "
                 "that serves it) or \"plugin_dir\" (a filesystem mirror "
                 "holding it).",
                 path, p->line, p->addr);
    const char *why;
    if ((p->plugin || p->zip) && !diag_has_errors(d) &&
        (why = gw_check_hashes(a, p)))
      diag_error(d, NULL, "Invalid gateway configuration", "%s:%u: %s",
                 path, p->line, why);
  }
  for (int i = 0; i < c->nclients; i++) {
    GwClient *cl = &c->clients[i];
    if (!cl->token && !cl->cn)
      diag_error(d, NULL, "Invalid gateway configuration",
                 "%s:%u: client \"%s\" needs token_file or certificate_cn "
                 "(how it proves who it is).",
                 path, cl->line, cl->name);
    if (cl->cn && !cl->token && !c->client_ca_file)
      diag_error(d, NULL, "Invalid gateway configuration",
                 "%s:%u: client \"%s\" is identified by its certificate, "
                 "but [gateway] names no client_ca_file to verify it.",
                 path, cl->line, cl->name);
    for (int j = 0; j < cl->nproviders; j++)
      if (!gw_provider(c, cl->providers[j]))
        diag_error(d, NULL, "Invalid gateway configuration",
                   "%s:%u: client \"%s\" may use \"%s\", which no "
                   "[provider] section serves.",
                   path, cl->line, cl->name, cl->providers[j]);
  }
  if (c->nproviders == 0)
    diag_error(d, NULL, "Invalid gateway configuration",
               "%s: no [provider \"SOURCE\"] section: the gateway would "
               "serve nothing.", path);
  if (c->nclients == 0)
    diag_error(d, NULL, "Invalid gateway configuration",
               "%s: no [client \"NAME\"] section: nobody could use the "
               "gateway.", path);
  if (geteuid() == 0) {
    if (!c->plugin_user) {
      diag_error(d, NULL, "Invalid gateway configuration",
                 "%s:%u: the gateway runs as root, so [gateway] needs "
                 "plugin_user (an unprivileged user to run plugins as).",
                 path, gateway_line);
    } else {
      struct passwd *pw = getpwnam(c->plugin_user);
      if (!pw)
        diag_error(d, NULL, "Invalid gateway configuration",
                   "%s:%u: plugin_user \"%s\" does not exist.", path,
                   gateway_line, c->plugin_user);
      else if (pw->pw_uid == 0)
        diag_error(d, NULL, "Invalid gateway configuration",
                   "%s:%u: plugin_user \"%s\" is root: plugins must run "
                   "unprivileged.", path, gateway_line, c->plugin_user);
      else {
        c->set_ids = true;
        c->uid = pw->pw_uid;
        c->gid = pw->pw_gid;
      }
    }
  }
  return d->errors > before ? NULL : c;
}

const GwProvider *gw_provider(const GwConfig *c, const char *addr)
{
  for (int i = 0; i < c->nproviders; i++)
    if (strcmp(c->providers[i].addr, addr) == 0)
      return &c->providers[i];
  return NULL;
}
