/*
** hostcfg.c: the host configuration (cairn.ini): sections, keys, values,
** the search order and bearer tokens.  Contracts in hostcfg.h, user
** documentation in docs/host-config.md.
*/
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hostcfg.h"
#include "ini.h"
#include "providers/provider.h"

void hcfg_empty(HostCfg *c)
{
  memset(c, 0, sizeof *c);
  c->lock_timeout_ms = -1;
}

/* Sizes: a number of bytes with an optional k/K, M, G suffix (binary). */
static bool parse_size(const char *s, size_t *out)
{
  if (!s || !isdigit((unsigned char)*s))
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno)
    return false;
  unsigned long long mul = 1;
  if (*end == 'k' || *end == 'K')
    mul = 1ull << 10;
  else if (*end == 'M')
    mul = 1ull << 20;
  else if (*end == 'G')
    mul = 1ull << 30;
  if (mul != 1)
    end++;
  if ((*end == 'B' || *end == 'b') && mul != 1)
    end++;
  if (*end || v == 0 || v > (1ull << 40) / mul)
    return false;
  *out = (size_t)(v * mul);
  return true;
}

/* The base64 of a SHA-256 is 44 characters ending in '='. */
static bool valid_pin_one(const char *s, size_t n)
{
  if (n != 8 + 44 || strncmp(s, "sha256//", 8) != 0 || s[n - 1] != '=')
    return false;
  for (size_t i = 8; i < n - 1; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!isalnum(c) && c != '+' && c != '/')
      return false;
  }
  return true;
}

/* Accepts "sha256//B64", bare "B64", or several joined by ';' or ','. */
static const char *parse_pins(Arena *a, const char *v)
{
  Buf b;
  buf_init(&b, a);
  const char *p = v;
  while (*p) {
    while (*p == ' ' || *p == ';' || *p == ',')
      p++;
    if (!*p)
      break;
    const char *q = p;
    while (*q && *q != ';' && *q != ',' && *q != ' ')
      q++;
    char one[128];
    size_t n = (size_t)(q - p);
    if (n >= 8 && strncmp(p, "sha256//", 8) == 0) {
      if (n >= sizeof one)
        return NULL;
      memcpy(one, p, n);
    } else {
      if (n + 8 >= sizeof one)
        return NULL;
      memcpy(one, "sha256//", 8);
      memcpy(one + 8, p, n);
      n += 8;
    }
    one[n] = 0;
    if (!valid_pin_one(one, n))
      return NULL;
    if (b.len)
      buf_putc(&b, ';');
    buf_put(&b, one, n);
    p = q;
  }
  return b.len ? buf_str(&b) : NULL;
}

static const char *const provider_keys[] = {
    "endpoint",        "ca_file",      "ca_dir",       "client_cert",
    "client_key",      "pin_sha256",   "pinned_pubkey", "token_env",
    "token_file",      "connect_timeout", "timeout",   "retries",
    "rate_limit",      "max_response_bytes", "insecure_http", "resolve",
    "plugin",          "plugin_dir"};
static const char *const default_keys[] = {
    "parallelism", "lock_timeout", "plugin_dir",
    "backend_skip_cert_verification"};

static void bad_value(Diags *d, const IniEntry *e, const char *want)
{
  ini_bad_value(d, e, "Invalid host configuration value", want);
}

static void set_provider_key(Arena *a, HcfgProvider *p, const IniEntry *e,
                             Diags *d)
{
  const char *k = e->name, *v = e->value;
  long n;
  if (strchr(v, '\n') && strcmp(k, "pin_sha256") != 0 &&
      strcmp(k, "pinned_pubkey") != 0) {
    bad_value(d, e, "a single line");
    return;
  }
  if (strcmp(k, "endpoint") == 0) {
    if (strncmp(v, "https://", 8) != 0 && strncmp(v, "http://", 7) != 0)
      bad_value(d, e, "an https:// URL");
    else {
      size_t len = strlen(v);
      while (len > 0 && v[len - 1] == '/')
        len--;   /* the call path adds its own slash */
      p->endpoint = arena_strndup(a, v, len);
    }
  } else if (strcmp(k, "plugin") == 0) {
    /* A path, not searched in $PATH: the host names the binary it trusts. */
    if (v[0] != '/')
      bad_value(d, e, "an absolute path to a provider plugin binary");
    else
      p->plugin = v;
  } else if (strcmp(k, "plugin_dir") == 0) {
    if (v[0] != '/')
      bad_value(d, e, "an absolute path to a provider mirror directory");
    else
      p->plugin_dir = v;
  } else if (strcmp(k, "ca_file") == 0) {
    p->ca_file = *v ? v : NULL;
  } else if (strcmp(k, "ca_dir") == 0) {
    p->ca_dir = *v ? v : NULL;
  } else if (strcmp(k, "client_cert") == 0) {
    p->client_cert = *v ? v : NULL;
  } else if (strcmp(k, "client_key") == 0) {
    p->client_key = *v ? v : NULL;
  } else if (strcmp(k, "pin_sha256") == 0 ||
             strcmp(k, "pinned_pubkey") == 0) {
    char *flat = arena_strdup(a, v);
    for (char *c = flat; *c; c++)
      if (*c == '\n')
        *c = ';';
    const char *pins = parse_pins(a, flat);
    if (!pins)
      bad_value(d, e,
                "one or more \"sha256//BASE64\" public-key hashes (44 "
                "base64 characters each), separated by ';'");
    else
      p->pin_sha256 = pins;
  } else if (strcmp(k, "token_env") == 0) {
    bool ok = *v != 0;
    for (const char *c = v; *c; c++)
      if (!isalnum((unsigned char)*c) && *c != '_')
        ok = false;
    if (!ok)
      bad_value(d, e, "the name of an environment variable");
    else
      p->token_env = v;
  } else if (strcmp(k, "token_file") == 0) {
    p->token_file = *v ? v : NULL;
  } else if (strcmp(k, "resolve") == 0) {
    p->resolve = *v ? v : NULL;
  } else if (strcmp(k, "connect_timeout") == 0 ||
             strcmp(k, "timeout") == 0) {
    long ms;
    if (!ini_duration(v, &ms) || ms <= 0)
      bad_value(d, e, "a positive duration such as \"10s\" or \"500ms\"");
    else if (k[0] == 'c')
      p->connect_timeout_ms = ms;
    else
      p->timeout_ms = ms;
  } else if (strcmp(k, "retries") == 0) {
    if (!ini_int(v, 0, 20, &n))
      bad_value(d, e, "a whole number from 0 to 20");
    else
      p->retries = (int)n;
  } else if (strcmp(k, "rate_limit") == 0) {
    char *end;
    errno = 0;
    double r = strtod(v, &end);
    if (!*v || *end || errno || !(r > 0) || r > 1e6 ||
        !isdigit((unsigned char)*v))
      bad_value(d, e, "a positive number of requests per second");
    else
      p->rate_limit = r;
  } else if (strcmp(k, "max_response_bytes") == 0) {
    size_t sz;
    if (!parse_size(v, &sz))
      bad_value(d, e, "a positive size in bytes (suffix K, M or G allowed)");
    else
      p->max_response_bytes = sz;
  } else if (strcmp(k, "insecure_http") == 0) {
    if (!ini_bool(v, &p->insecure_http))
      bad_value(d, e, "true or false");
  }
}

static void set_default_key(HostCfg *c, const IniEntry *e, Diags *d)
{
  long n;
  if (strcmp(e->name, "parallelism") == 0) {
    if (!ini_int(e->value, 1, 256, &n))
      bad_value(d, e, "a whole number from 1 to 256");
    else
      c->parallelism = (int)n;
  } else if (strcmp(e->name, "plugin_dir") == 0) {
    if (e->value[0] != '/')
      bad_value(d, e, "an absolute path to a provider mirror directory");
    else
      c->plugin_dir = e->value;
  } else if (strcmp(e->name, "backend_skip_cert_verification") == 0) {
    if (!ini_bool(e->value, &c->allow_skip_cert_verification))
      bad_value(d, e, "true or false");
  } else {
    long ms;
    if (!ini_duration(e->value, &ms))
      bad_value(d, e, "a duration such as \"30s\" or \"0s\"");
    else
      c->lock_timeout_ms = ms;
  }
}

/* A set of (a, b) string pairs mapped to an index, sized once for at most
** n entries (open addressing, FNV-1a): a file with many sections or keys
** must not make the duplicate checks quadratic (the fuzz target's 50,000
** sections took minutes). */
typedef struct PairIndex {
  const char **a, **b;
  uint32_t *val;
  uint32_t mask;
} PairIndex;

static void pidx_init(Arena *ar, PairIndex *x, uint32_t n)
{
  uint32_t cap = 8;
  while (cap < 2 * (uint64_t)n)
    cap *= 2;
  x->a = ARENA_NEW(ar, const char *, cap);
  x->b = ARENA_NEW(ar, const char *, cap);
  x->val = ARENA_NEW(ar, uint32_t, cap);
  x->mask = cap - 1;
}

static uint32_t pidx_hash(const char *a, const char *b)
{
  uint32_t h = 2166136261u;
  for (; *a; a++)
    h = (h ^ (uint8_t)*a) * 16777619u;
  h = (h ^ 0xffu) * 16777619u;
  for (; *b; b++)
    h = (h ^ (uint8_t)*b) * 16777619u;
  return h;
}

/* The slot of (a, b): holding it, or empty (x->a[slot] == NULL). */
static uint32_t pidx_slot(const PairIndex *x, const char *a, const char *b)
{
  uint32_t i = pidx_hash(a, b) & x->mask;
  while (x->a[i] && (strcmp(x->a[i], a) != 0 || strcmp(x->b[i], b) != 0))
    i = (i + 1) & x->mask;
  return i;
}

/* The value of (a, b), or -1; adds it with value v when absent and v >= 0
** (the caller sized the index for every pair it adds). */
static int64_t pidx_get_add(PairIndex *x, const char *a, const char *b,
                            int64_t v)
{
  uint32_t i = pidx_slot(x, a, b);
  if (x->a[i])
    return x->val[i];
  if (v >= 0) {
    x->a[i] = a;
    x->b[i] = b;
    x->val[i] = (uint32_t)v;
  }
  return -1;
}

/* Finds or adds the provider entry for source (by in `idx`). */
static HcfgProvider *provider_slot(Arena *a, HostCfg *c, uint32_t *cap,
                                   PairIndex *idx, const char *source,
                                   const char *path, uint32_t line,
                                   bool *fresh)
{
  int64_t at = pidx_get_add(idx, source, "", c->nproviders);
  if (at >= 0) {
    *fresh = false;
    return &c->providers[at];
  }
  if (c->nproviders == *cap) {
    uint32_t ncap = *cap ? *cap * 2 : 4;
    c->providers = arena_grow(a, c->providers, sizeof(HcfgProvider),
                              _Alignof(HcfgProvider), *cap, ncap);
    *cap = ncap;
  }
  HcfgProvider *p = &c->providers[c->nproviders++];
  memset(p, 0, sizeof *p);
  p->source = source;
  p->file = path;
  p->line = line;
  p->connect_timeout_ms = -1;
  p->timeout_ms = -1;
  p->retries = -1;
  *fresh = true;
  return p;
}

bool hcfg_parse(Arena *a, const char *path, const char *text, size_t len,
                HostCfg *out, Diags *d)
{
  hcfg_empty(out);
  out->path = path;
  int errs0 = d->errors;
  IniFile f;
  ini_parse(a, path, text, len, &f, d);
  uint32_t cap = 0;
  PairIndex pidx, kidx;
  pidx_init(a, &pidx, f.nsections);
  pidx_init(a, &kidx, f.nentries);
  /* Map each section (by line order) to its meaning. */
  for (uint32_t s = 0; s < f.nsections; s++) {
    const IniSection *sec = &f.sections[s];
    if (strcmp(sec->name, "defaults") == 0)
      continue;
    const char *src = ini_section_name(a, sec->name, "provider");
    if (!src) {
      diag_error(d, &sec->range, "Invalid host configuration section",
                 "%s:%u: unknown section [%s]; expected [defaults] or "
                 "[provider \"SOURCE\"].",
                 path, sec->line, sec->name);
      continue;
    }
    Diags tmp;
    diag_init(&tmp, a);
    const char *norm = prov_source_normalize(a, src, &sec->range, &tmp);
    if (!norm) {
      diag_error(d, &sec->range, "Invalid host configuration section",
                 "%s:%u: \"%s\" is not a valid provider source address "
                 "([hostname/][namespace/]name).",
                 path, sec->line, src);
      continue;
    }
    bool fresh;
    provider_slot(a, out, &cap, &pidx, norm, path, sec->line, &fresh);
    if (!fresh)
      diag_error(d, &sec->range, "Duplicate host configuration section",
                 "%s:%u: provider \"%s\" is already configured above.", path,
                 sec->line, src);
  }
  /* Keys, with duplicates detected per section. */
  for (uint32_t i = 0; i < f.nentries; i++) {
    const IniEntry *e = &f.entries[i];
    int64_t j = pidx_get_add(&kidx, e->section, e->name, i);
    if (j >= 0) {
      diag_error(d, &e->name_range, "Duplicate host configuration key",
                 "%s:%u: \"%s\" is already set on line %u.", path, e->line,
                 e->name, f.entries[j].line);
      goto next;
    }
    if (e->section[0] == 0) {
      diag_error(d, &e->name_range, "Invalid host configuration key",
                 "%s:%u: \"%s\" is outside any section; put it under "
                 "[defaults] or [provider \"SOURCE\"].",
                 path, e->line, e->name);
    } else if (strcmp(e->section, "defaults") == 0) {
      if (!ini_key_known(e->name, default_keys,
                     sizeof default_keys / sizeof *default_keys))
        diag_error(d, &e->name_range, "Unknown host configuration key",
                   "%s:%u: [defaults] has no key \"%s\" (known: "
                   "parallelism, lock_timeout, plugin_dir, "
                   "backend_skip_cert_verification).",
                   path, e->line, e->name);
      else
        set_default_key(out, e, d);
    } else {
      const char *src = ini_section_name(a, e->section, "provider");
      const char *norm =
          src ? prov_source_normalize(a, src, NULL, NULL) : NULL;
      if (!norm)
        goto next;   /* the section was reported */
      int64_t k = pidx_get_add(&pidx, norm, "", -1);
      if (k < 0)
        goto next;
      HcfgProvider *p = &out->providers[k];
      if (!ini_key_known(e->name, provider_keys,
                     sizeof provider_keys / sizeof *provider_keys))
        diag_error(d, &e->name_range, "Unknown host configuration key",
                   "%s:%u: a provider section has no key \"%s\".", path,
                   e->line, e->name);
      else
        set_provider_key(a, p, e, d);
    }
  next:;
  }
  for (uint32_t k = 0; k < out->nproviders; k++) {
    const HcfgProvider *p = &out->providers[k];
    if (!p->endpoint && !p->plugin && !p->plugin_dir &&
        d->errors == errs0) {
      SrcRange r = {path, {p->line, 1, 0}, {p->line, 1, 0}};
      diag_error(d, &r, "Missing provider endpoint",
                 "%s:%u: the section for \"%s\" needs an endpoint = "
                 "https://... line (or plugin = /path/to/"
                 "terraform-provider-NAME, or plugin_dir = /path/to/"
                 "mirror).",
                 path, p->line, p->source);
    }
    if (!!p->endpoint + !!p->plugin + !!p->plugin_dir > 1) {
      SrcRange r = {path, {p->line, 1, 0}, {p->line, 1, 0}};
      diag_error(d, &r, "Conflicting provider settings",
                 "%s:%u: the section for \"%s\" names more than one of "
                 "endpoint, plugin and plugin_dir; keep one.",
                 path, p->line, p->source);
    }
    if ((p->client_cert != NULL) != (p->client_key != NULL)) {
      SrcRange r = {path, {p->line, 1, 0}, {p->line, 1, 0}};
      diag_error(d, &r, "Incomplete client certificate",
                 "%s:%u: client_cert and client_key go together.", path,
                 p->line);
    }
    if (p->token_env && p->token_file) {
      SrcRange r = {path, {p->line, 1, 0}, {p->line, 1, 0}};
      diag_error(d, &r, "Conflicting token sources",
                 "%s:%u: set token_env or token_file, not both.", path,
                 p->line);
    }
  }
  return d->errors == errs0;
}

static bool file_exists(const char *p)
{
  return access(p, F_OK) == 0;
}

const char *hcfg_locate(Arena *a, const char *flag, const char *env,
                        const char *home, bool *explicit_missing)
{
  *explicit_missing = false;
  const char *named = flag && *flag ? flag : env && *env ? env : NULL;
  if (named) {
    if (file_exists(named))
      return arena_strdup(a, named);
    *explicit_missing = true;
    return arena_strdup(a, named);
  }
  if (home && *home) {
    const char *p = arena_printf(a, "%s/.config/cairn/cairn.ini", home);
    if (file_exists(p))
      return p;
  }
  if (file_exists("/etc/cairn/cairn.ini"))
    return "/etc/cairn/cairn.ini";
  return NULL;
}

bool hcfg_load(Arena *a, const char *flag, HostCfg *out, Diags *d)
{
  hcfg_empty(out);
  bool missing;
  const char *path =
      hcfg_locate(a, flag, getenv("CAIRN_CONFIG"), getenv("HOME"), &missing);
  if (!path)
    return true;
  if (missing) {
    diag_error(d, NULL, "Host configuration file not found",
               "The host configuration %s (named by %s) does not exist.",
               path, flag && *flag ? "-config" : "CAIRN_CONFIG");
    return false;
  }
  const char *text;
  size_t len;
  if (!prov_read_file(a, path, &text, &len)) {
    diag_error(d, NULL, "Cannot read host configuration", "%s: %s", path,
               strerror(errno));
    return false;
  }
  return hcfg_parse(a, path, text, len, out, d);
}

const HcfgProvider *hcfg_provider(const HostCfg *c, Arena *scratch,
                                  const char *source)
{
  if (!c->nproviders)
    return NULL;
  ArenaMark m = arena_mark(scratch);
  const char *norm = prov_source_normalize(scratch, source, NULL, NULL);
  const HcfgProvider *hit = NULL;
  for (uint32_t i = 0; norm && i < c->nproviders; i++)
    if (strcmp(c->providers[i].source, norm) == 0)
      hit = &c->providers[i];
  arena_rewind(scratch, m);
  return hit;
}

bool hcfg_token(Arena *a, const HcfgProvider *p, const char **token,
                Diags *d)
{
  *token = NULL;
  const char *raw = NULL;
  size_t len = 0;
  if (p->token_env) {
    raw = getenv(p->token_env);
    if (!raw || !*raw) {
      diag_error(d, NULL, "Missing provider credentials",
                 "The host configuration (%s:%u) takes the token of \"%s\" "
                 "from the environment variable %s, which is not set.",
                 p->file, p->line, p->source, p->token_env);
      return false;
    }
    len = strlen(raw);
  } else if (p->token_file) {
    if (!prov_read_file(a, p->token_file, &raw, &len)) {
      diag_error(d, NULL, "Missing provider credentials",
                 "The host configuration (%s:%u) takes the token of \"%s\" "
                 "from %s, which cannot be read: %s.",
                 p->file, p->line, p->source, p->token_file,
                 strerror(errno));
      return false;
    }
  } else {
    return true;
  }
  while (len && isspace((unsigned char)*raw)) {
    raw++;
    len--;
  }
  while (len && isspace((unsigned char)raw[len - 1]))
    len--;
  if (!len || memchr(raw, '\n', len) || memchr(raw, '\r', len) ||
      memchr(raw, 0, len)) {
    diag_error(d, NULL, "Invalid provider credentials",
               "The token of \"%s\" (%s) is empty or spans several lines.",
               p->source, p->token_env ? p->token_env : p->token_file);
    return false;
  }
  *token = arena_strndup(a, raw, len);
  return true;
}
