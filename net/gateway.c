/*
** gateway.c: serving the provider protocol from plugin processes
** (contracts in gateway.h; the security model in docs/gateway.md).
*/
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <mbedtls/md.h>

#include "config/config.h"
#include "gateway_priv.h"
#include "httpd.h"
#include "mirror.h"
#include "procpool.h"
#include "prov_https.h"
#include "prov_plugin.h"

/* ---- state -------------------------------------------------------------- */

typedef struct GwProvState {
  const GwProvider *p;
  pthread_mutex_t mu;          /* the schema fetch */
  const char *schema_json;     /* the GetProviderSchema answer */
  size_t schema_len;
  ProvProviderSchema *schema;  /* decoded from it, prepared */
} GwProvState;

typedef enum { I_FREE, I_PENDING, I_DONE } IState;

typedef struct Idem {
  IState state;
  Arena arena;
  const char *client, *key;
  const char *answer;
  size_t len;
  unsigned long seq;           /* insertion order, for eviction */
} Idem;

typedef struct Gw {
  const GwConfig *c;
  GwLogFn log;
  void *log_ctx;
  pthread_mutex_t log_mu;
  Arena arena;                 /* schemas (under each GwProvState's mu) */
  pthread_mutex_t arena_mu;
  GwProvState *ps;
  Procpool *pool;
  unsigned char secret[32];    /* HMAC key of configuration hashes */
  pthread_mutex_t idem_mu;
  Idem *idem;
  unsigned long idem_seq;
  size_t idem_bytes;
  pthread_mutex_t tv_mu;
  char terraform_version[32];
  long started_ms;             /* now_ms() at start, for GET /status */
  pthread_mutex_t stat_mu;     /* the counters below */
  long in_flight, served, failed;
} Gw;

static Httpd *volatile the_server;

void gw_stop(void)
{
  Httpd *h = the_server;
  if (h)
    httpd_stop(h);
}

static void logf_(Gw *gw, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void logf_(Gw *gw, const char *fmt, ...)
{
  if (!gw->log)
    return;
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&gw->log_mu);
  gw->log(gw->log_ctx, line);
  pthread_mutex_unlock(&gw->log_mu);
}

static long now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- plugin processes ------------------------------------------------------ */

typedef struct OpenArg {
  Gw *gw;
  const GwProvider *p;
  const char *client;
  const char *tag;             /* config hash, or "unconfigured" */
} OpenArg;

/* mkdir -p for the working directories, private to the plugin user. */
static bool make_dir(const GwConfig *c, const char *path)
{
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
    return false;
  for (char *s = tmp + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return false;
      *s = '/';
    }
  if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
    return false;
  if (c->set_ids && chown(tmp, c->uid, c->gid) != 0)
    return false;
  return true;
}

/* mkdir -p for work_dir itself: owned by the gateway's user and mode 711,
** so that plugins reach their own directories below it but can neither
** list it nor rename what is in it (the unpacked packages of
** .packages/, which every plugin runs).  gw_prepare also fixes an
** existing one when plugins run as another user. */
static bool make_work_dir(const char *path)
{
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
    return false;
  for (char *s = tmp + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        return false;
      *s = '/';
    }
  return mkdir(tmp, 0711) == 0 || errno == EEXIST;
}

bool gw_prepare(Arena *a, GwConfig *c, Diags *d)
{
  /* An earlier version gave work_dir to the plugin user. */
  if (!make_work_dir(c->work_dir) ||
      (c->set_ids && (chown(c->work_dir, geteuid(), getegid()) != 0 ||
                      chmod(c->work_dir, 0711) != 0))) {
    diag_error(d, NULL, "Cannot start the gateway",
               "Cannot create the working directory %s: %s.", c->work_dir,
               strerror(errno));
    return false;
  }
  for (int i = 0; i < c->nproviders; i++) {
    GwProvider *p = &c->providers[i];
    if (!p->zip)
      continue;
    /* Unpacked afresh at every start: the .zip is what the operator
    ** put in the mirror, and a copy left by an earlier start could have
    ** been changed since. */
    const char *target = arena_printf(a, "%s/.packages/%s/%s/%s",
                                      c->work_dir, p->addr, p->version,
                                      mirror_platform());
    MirrorPkg pkg = {p->version, p->zip, true};
    const char *why;
    const char *type = strrchr(p->addr, '/') + 1;
    const char *exe = NULL;
    if (mirror_install(a, &pkg, target, &why) &&
        !(exe = mirror_executable(a, target, type)))
      why = arena_printf(a, "it holds no executable terraform-provider-%s",
                         type);
    if (!exe) {
      diag_error(d, NULL, "Cannot start the gateway",
                 "Cannot unpack %s (provider %s %s) into %s: %s.", p->zip,
                 p->addr, p->version, target, why);
      return false;
    }
    p->plugin = exe;
    p->pkg_dir = target;
  }
  return true;
}

static Prov *open_plugin(void *ctx, Arena *a, const char *key, void *argp)
{
  (void)ctx;
  (void)key;
  OpenArg *o = argp;
  const GwConfig *c = o->gw->c;
  /* Short: go-plugin's unix socket lives in it, and a socket path has
  ** at most 107 bytes.  The provider's type names it; the tag (a hash
  ** of the address and the configuration) makes it unique. */
  const char *pdir = strrchr(o->p->addr, '/') + 1;
  const char *dir = arena_printf(a, "%s/%s/%s-%s", c->work_dir, o->client,
                                 pdir, o->tag);
  if (!make_dir(c, dir)) {
    logf_(o->gw, "gateway: cannot prepare the working directory %s: %s",
          dir, strerror(errno));
    return NULL;
  }
  /* The minimal environment: what a plugin needs to run, and what the
  ** configuration passes on by name. */
  const char **env = ARENA_NEW(a, const char *, (size_t)c->npass_env + 5);
  int n = 0;
  env[n++] = "PATH=/usr/local/bin:/usr/bin:/bin";
  env[n++] = arena_printf(a, "HOME=%s", dir);
  env[n++] = arena_printf(a, "TMPDIR=%s", dir);
  for (int i = 0; i < c->npass_env; i++) {
    const char *v = getenv(c->pass_env[i]);
    if (v)
      env[n++] = arena_printf(a, "%s=%s", c->pass_env[i], v);
  }
  env[n] = NULL;
  /* Checked again at every start: the package runs where it lies, and
  ** may have been replaced since the gateway started. */
  const char *bad = gw_check_hashes(a, o->p);
  if (bad) {
    logf_(o->gw, "gateway: refusing to start a plugin: %s", bad);
    return NULL;
  }
  Prov *p = pplugin_open(a, o->p->addr, o->p->plugin, o->p->timeout_ms);
  PluginLaunch *sb = ARENA_NEW(a, PluginLaunch, 1);
  sb->env = env;
  sb->dir = dir;
  sb->set_ids = c->set_ids;
  sb->uid = c->uid;
  sb->gid = c->gid;
  pplugin_set_sandbox(p, sb);
  return p;
}

static void pool_log(void *ctx, const char *key, const char *event)
{
  logf_(ctx, "gateway: plugin %s %s", key, event);
}

/* procpool_get, skipping instances whose process died while idle (killed,
** crashed): they are retired and a new one is started. */
static ProcpoolEntry *get_live(Gw *gw, const char *key, OpenArg *o,
                               bool *fresh, bool *full)
{
  for (;;) {
    ProcpoolEntry *e = procpool_get(gw->pool, key, o, fresh, full);
    if (!e || *fresh || pplugin_alive(procpool_prov(e)))
      return e;
    procpool_put(gw->pool, e, true);
  }
}

/* ---- schemas ----------------------------------------------------------------- */

/* The provider's schema, fetched once through an unconfigured instance
** of the client's.  NULL with g's error set on failure. */
static GwProvState *schema_of(Gw *gw, GwProvState *ps, const char *client,
                              Arena *a, Diags *d)
{
  pthread_mutex_lock(&ps->mu);
  if (ps->schema) {
    pthread_mutex_unlock(&ps->mu);
    return ps;
  }
  OpenArg o = {gw, ps->p, client, "unconfigured"};
  const char *key = arena_printf(a, "%s|%s|unconfigured", client, ps->p->addr);
  bool fresh, full;
  ProcpoolEntry *e = get_live(gw, key, &o, &fresh, &full);
  if (!e) {
    pthread_mutex_unlock(&ps->mu);
    diag_error(d, NULL, full ? "full" : "open", "%s",
               full ? "every plugin process slot is busy"
                    : "the plugin cannot be prepared; see the gateway's log");
    return NULL;
  }
  if (fresh)
    procpool_ready(gw->pool, e, true);
  Prov *p = procpool_prov(e);
  ProvCall c = {a, d, NULL};
  const ProvProviderSchema *s = NULL;
  p->ops->get_schema(p, &c, &s);
  bool broken = !pplugin_alive(p);
  procpool_put(gw->pool, e, broken);
  if (!s || diag_has_errors(d)) {
    pthread_mutex_unlock(&ps->mu);
    return NULL;
  }
  Buf b;
  pthread_mutex_lock(&gw->arena_mu);
  buf_init(&b, &gw->arena);
  gw_write_schema(&b, s);
  ProvProviderSchema *dec = NULL;
  bool ok = phttps_decode_schema(&gw->arena, ps->p->addr, b.p, b.len, &dec, d);
  pthread_mutex_unlock(&gw->arena_mu);
  if (ok) {
    ps->schema_json = b.p;
    ps->schema_len = b.len;
    ps->schema = dec;
  }
  pthread_mutex_unlock(&ps->mu);
  return ok ? ps : NULL;
}

/* ---- idempotency ---------------------------------------------------------- */

typedef enum { IK_NEW, IK_DONE, IK_BUSY } IdemLook;

static Idem *idem_find(Gw *gw, const char *client, const char *key)
{
  for (int i = 0; i < gw->c->idempotency_entries; i++) {
    Idem *e = &gw->idem[i];
    if (e->state != I_FREE && strcmp(e->key, key) == 0 &&
        strcmp(e->client, client) == 0)
      return e;
  }
  return NULL;
}

static void idem_drop(Gw *gw, Idem *e)
{
  gw->idem_bytes -= e->len;
  arena_release(&e->arena);
  memset(e, 0, sizeof *e);
}

/* Looks key up; IK_NEW reserves it (pending).  On IK_DONE, *answer is a
** copy in a. */
static IdemLook idem_begin(Gw *gw, const char *client, const char *key,
                           Arena *a, const char **answer, size_t *len)
{
  pthread_mutex_lock(&gw->idem_mu);
  Idem *e = idem_find(gw, client, key);
  if (e) {
    IdemLook r = IK_BUSY;
    if (e->state == I_DONE) {
      *answer = arena_strndup(a, e->answer, e->len);
      *len = e->len;
      r = IK_DONE;
    }
    pthread_mutex_unlock(&gw->idem_mu);
    return r;
  }
  /* A free slot, or the oldest finished answer makes room. */
  Idem *slot = NULL;
  for (int i = 0; i < gw->c->idempotency_entries && !slot; i++)
    if (gw->idem[i].state == I_FREE)
      slot = &gw->idem[i];
  for (int i = 0; i < gw->c->idempotency_entries && !slot; i++) {
    Idem *x = &gw->idem[i];
    if (x->state == I_DONE && (!slot || x->seq < slot->seq))
      slot = x;
  }
  if (!slot) {
    pthread_mutex_unlock(&gw->idem_mu);
    return IK_BUSY;
  }
  if (slot->state != I_FREE)
    idem_drop(gw, slot);
  arena_init(&slot->arena, 256);
  slot->client = arena_strdup(&slot->arena, client);
  slot->key = arena_strdup(&slot->arena, key);
  slot->state = I_PENDING;
  slot->seq = ++gw->idem_seq;
  pthread_mutex_unlock(&gw->idem_mu);
  return IK_NEW;
}

/* Records the answer (answer NULL: forget the key, the apply did not
** give a definite answer). */
static void idem_end(Gw *gw, const char *client, const char *key,
                     const char *answer, size_t len)
{
  pthread_mutex_lock(&gw->idem_mu);
  Idem *e = idem_find(gw, client, key);
  if (e && e->state == I_PENDING) {
    if (!answer) {
      idem_drop(gw, e);
    } else {
      e->answer = arena_strndup(&e->arena, answer, len);
      e->len = len;
      e->state = I_DONE;
      gw->idem_bytes += len;
      /* The byte bound: the oldest answers go first. */
      while (gw->idem_bytes > gw->c->idempotency_bytes) {
        Idem *old = NULL;
        for (int i = 0; i < gw->c->idempotency_entries; i++) {
          Idem *x = &gw->idem[i];
          if (x->state == I_DONE && x != e && (!old || x->seq < old->seq))
            old = x;
        }
        if (!old)
          break;
        idem_drop(gw, old);
      }
    }
  }
  pthread_mutex_unlock(&gw->idem_mu);
}

/* ---- authentication --------------------------------------------------------- */

/* Constant-time comparison (the time does not depend on where the
** strings differ; lengths are compared in the same pass). */
static bool same_secret(const char *a, const char *b)
{
  size_t na = strlen(a), nb = strlen(b);
  size_t n = na > nb ? na : nb;
  unsigned diff = (unsigned)(na ^ nb);
  for (size_t i = 0; i < n; i++) {
    unsigned char x = i < na ? (unsigned char)a[i] : 0;
    unsigned char y = i < nb ? (unsigned char)b[i] : 0;
    diff |= (unsigned)(x ^ y);
  }
  return diff == 0;
}

static const GwClient *authenticate(const GwConfig *c, HttpdExchange *x,
                                    const char **why)
{
  const char *auth = httpd_header(x->req, "Authorization");
  const GwClient *hit = NULL;
  if (auth) {
    if (strncasecmp(auth, "Bearer ", 7) != 0) {
      *why = "the Authorization header must be \"Bearer TOKEN\"";
      return NULL;
    }
    const char *tok = auth + 7;
    /* Compare against every client, so the time does not say which. */
    for (int i = 0; i < c->nclients; i++)
      if (c->clients[i].token && same_secret(c->clients[i].token, tok) &&
          !hit)
        hit = &c->clients[i];
    if (!hit) {
      *why = "invalid token";
      return NULL;
    }
    if (hit->cn && (!x->client_cn || strcmp(hit->cn, x->client_cn) != 0)) {
      *why = "the client certificate does not match the token's client";
      return NULL;
    }
    return hit;
  }
  if (x->client_cn)
    for (int i = 0; i < c->nclients; i++)
      if (!c->clients[i].token && c->clients[i].cn &&
          strcmp(c->clients[i].cn, x->client_cn) == 0)
        return &c->clients[i];
  *why = x->client_cn ? "no client is configured for this certificate"
                      : "a bearer token or a client certificate is required";
  return NULL;
}

static bool allowed(const GwClient *cl, const char *addr)
{
  if (cl->all_providers)
    return true;
  for (int i = 0; i < cl->nproviders; i++)
    if (strcmp(cl->providers[i], addr) == 0)
      return true;
  return false;
}

/* ---- one request --------------------------------------------------------- */

static void http_error(HttpdExchange *x, int status, const char *code,
                       const char *msg)
{
  x->status = status;
  x->body_out.len = 0;
  JsonW w;
  json_w_init(&w, &x->body_out, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "error");
  json_w_begin_object(&w);
  json_w_keyz(&w, "code");
  json_w_stringz(&w, code);
  json_w_keyz(&w, "message");
  json_w_stringz(&w, msg);
  json_w_end_object(&w);
  json_w_end_object(&w);
}

/* A keyed hash (HMAC-SHA256 with a secret made at start) of the provider
** and its configuration: it names the process in logs and directories
** without letting anyone test guesses of a configuration against it. */
static const char *config_key(Gw *gw, Arena *a, const char *addr,
                              const char *canon)
{
  unsigned char mac[32];
  const char *msg = arena_printf(a, "%s\n%s", addr, canon);
  mbedtls_md_hmac(mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), gw->secret,
                  sizeof gw->secret, (const unsigned char *)msg, strlen(msg),
                  mac);
  char *hex = ARENA_NEW(a, char, 17);
  for (int i = 0; i < 8; i++)
    snprintf(hex + 2 * i, 3, "%02x", mac[i]);
  return hex;
}

typedef struct Ctx {
  const GwClient *client;
  const char *addr;
  const char *call;
  const char *note;            /* for the log: why it failed */
} Ctx;

/* GET /status: for monitoring, to any authenticated client (it tells
** how busy the host is, nothing of configurations or other clients). */
static void serve_status(Gw *gw, HttpdExchange *x, Ctx *k)
{
  const char *why = NULL;
  k->client = authenticate(gw->c, x, &why);
  if (!k->client) {
    http_error(x, 401, "unauthorized", why);
    return;
  }
  int open, busy;
  procpool_stats(gw->pool, &open, &busy);
  pthread_mutex_lock(&gw->stat_mu);
  long in_flight = gw->in_flight - 1, served = gw->served,
       failed = gw->failed;   /* this request is in flight, not a call */
  pthread_mutex_unlock(&gw->stat_mu);
  JsonW w;
  json_w_init(&w, &x->body_out, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "status");
  json_w_stringz(&w, "ok");
  json_w_keyz(&w, "uptime_seconds");
  json_w_int(&w, (now_ms() - gw->started_ms) / 1000);
  json_w_keyz(&w, "providers");
  json_w_int(&w, gw->c->nproviders);
  json_w_keyz(&w, "clients");
  json_w_int(&w, gw->c->nclients);
  json_w_keyz(&w, "plugin_processes");
  json_w_begin_object(&w);
  json_w_keyz(&w, "open");
  json_w_int(&w, open);
  json_w_keyz(&w, "busy");
  json_w_int(&w, busy);
  json_w_keyz(&w, "max");
  json_w_int(&w, gw->c->max_processes);
  json_w_end_object(&w);
  json_w_keyz(&w, "calls");
  json_w_begin_object(&w);
  json_w_keyz(&w, "in_flight");
  json_w_int(&w, in_flight);
  json_w_keyz(&w, "served");
  json_w_int(&w, served);
  json_w_keyz(&w, "failed");
  json_w_int(&w, failed);
  json_w_end_object(&w);
  json_w_end_object(&w);
  x->status = 200;
}

static void serve_call(Gw *gw, HttpdExchange *x, Ctx *k)
{
  const GwConfig *c = gw->c;
  Arena *a = x->arena;
  const char *t = x->req->target;
  if (strcmp(t, "/status") == 0 && strcmp(x->req->method, "GET") == 0) {
    k->call = "status";
    serve_status(gw, x, k);
    return;
  }
  if (strcmp(x->req->method, "POST") != 0) {
    http_error(x, 405, "bad_request", "calls are POST requests");
    return;
  }
  static const char prefix[] = "/providers/";
  const char *slash = strrchr(t, '/');
  if (strncmp(t, prefix, sizeof prefix - 1) != 0 ||
      slash < t + sizeof prefix - 1) {
    http_error(x, 404, "not_found",
               "the gateway serves POST /providers/SOURCE/CALL");
    return;
  }
  k->call = arena_strdup(a, slash + 1);
  const char *source = arena_strndup(a, t + sizeof prefix - 1,
                                     (size_t)(slash - t) - (sizeof prefix - 1));
  const char *why = NULL;
  k->client = authenticate(c, x, &why);
  if (!k->client) {
    http_error(x, 401, "unauthorized", why);
    return;
  }
  Diags tmp;
  diag_init(&tmp, a);
  const char *addr = prov_source_normalize(a, source, NULL, &tmp);
  const GwProvider *gp = addr ? gw_provider(c, addr) : NULL;
  k->addr = addr ? addr : source;
  if (!gp) {
    http_error(x, 404, "not_found",
               arena_printf(a, "the gateway does not serve provider \"%s\"",
                            source));
    return;
  }
  if (!allowed(k->client, addr)) {
    http_error(x, 403, "forbidden",
               arena_printf(a, "client \"%s\" may not use provider \"%s\"",
                            k->client->name, addr));
    return;
  }
  if (!gw_known_call(k->call)) {
    http_error(x, 404, "not_found",
               arena_printf(a, "unknown call \"%s\"", k->call));
    return;
  }
  const char *proto = httpd_header(x->req, "Cairn-Protocol");
  if (proto && strcmp(proto, "1") != 0) {
    http_error(x, 400, "unsupported_protocol",
               "the gateway speaks protocol version 1");
    return;
  }
  Value req;
  JsonOpts jo = {"request", c->max_request, 0, 0};
  if (!json_parse(a, x->body, x->body_len, &req, &tmp, &jo) || !req.type ||
      req.type->kind != TY_OBJECT) {
    http_error(x, 400, "bad_request", "the body must be a JSON object");
    return;
  }
  GwProvState *ps = NULL;
  for (int i = 0; i < c->nproviders; i++)
    if (&c->providers[i] == gp)
      ps = &gw->ps[i];
  Diags sd;
  diag_init(&sd, a);
  if (!schema_of(gw, ps, k->client->name, a, &sd)) {
    if (sd.head && strcmp(sd.head->summary, "full") == 0) {
      x->retry_after = "5";
      http_error(x, 503, "unavailable",
                 "the gateway runs its maximum number of plugin processes, "
                 "all busy");
      return;
    }
    /* The plugin's own diagnostics, as a handled call's answer. */
    JsonW w;
    json_w_init(&w, &x->body_out, 0);
    json_w_begin_object(&w);
    json_w_keyz(&w, "diagnostics");
    json_w_begin_array(&w);
    for (const Diag *d = sd.head; d; d = d->next) {
      json_w_begin_object(&w);
      json_w_keyz(&w, "severity");
      json_w_stringz(&w, d->severity == DIAG_ERROR ? "error" : "warning");
      json_w_keyz(&w, "summary");
      json_w_stringz(&w, d->summary);
      json_w_keyz(&w, "detail");
      json_w_stringz(&w, d->detail);
      json_w_end_object(&w);
    }
    json_w_end_array(&w);
    json_w_end_object(&w);
    k->note = "the plugin failed to give its schema";
    if (strcmp(k->call, "GetProviderSchema") == 0) {
      /* The schema answer needs protocol_version: without a schema the
      ** call was not handled. */
      http_error(x, 500, "internal",
                 sd.head ? arena_printf(a, "%s: %s", sd.head->summary,
                                        sd.head->detail)
                         : "the plugin failed to give its schema");
      return;
    }
    x->status = 200;
    return;
  }
  if (strcmp(k->call, "GetProviderSchema") == 0) {
    Value pv = gw_jget(req, "protocol_versions");
    bool ok = false;
    for (uint32_t i = 0; pv.type && pv.type->kind == TY_TUPLE &&
                         !val_is_null(pv) && i < pv.len;
         i++) {
      Value e = pv.u.elems[i];
      int64_t v;
      ok |= e.type && e.type->kind == TY_NUMBER && val_num_int(e, &v) &&
            v == PHTTPS_PROTOCOL_VERSION;
    }
    if (!ok) {
      http_error(x, 400, "unsupported_protocol",
                 "the gateway speaks protocol version 1");
      return;
    }
    x->status = 200;
    buf_put(&x->body_out, ps->schema_json, ps->schema_len);
    return;
  }

  /* Which process: the configuration names it. */
  bool configure = strcmp(k->call, "ConfigureProvider") == 0;
  Value cfg_ev = gw_jget(req, configure ? "config" : "provider_config");
  const char *tag = "unconfigured";
  if (cfg_ev.type && !val_is_null(cfg_ev)) {
    const char *canon = gw_canonical_config(a, ps->schema, cfg_ev, &why);
    if (!canon) {
      http_error(x, 400, "bad_request",
                 arena_printf(a, "\"%s\": %s",
                              configure ? "config" : "provider_config", why));
      return;
    }
    tag = config_key(gw, a, addr, canon);
  }
  if (configure) {
    Value tv = gw_jget(req, "terraform_version");
    if (tv.type && tv.type->kind == TY_STRING && !val_is_null(tv) &&
        tv.len < sizeof gw->terraform_version) {
      pthread_mutex_lock(&gw->tv_mu);
      memcpy(gw->terraform_version, tv.u.s, tv.len + 1);
      pthread_mutex_unlock(&gw->tv_mu);
    }
  }

  /* Idempotency: a retried apply gets the first answer. */
  const char *idem = strcmp(k->call, "ApplyResourceChange") == 0
                         ? httpd_header(x->req, "Idempotency-Key")
                         : NULL;
  if (idem) {
    const char *ans;
    size_t len;
    switch (idem_begin(gw, k->client->name, idem, a, &ans, &len)) {
    case IK_DONE:
      x->status = 200;
      buf_put(&x->body_out, ans, len);
      k->note = "answered from the idempotency cache";
      return;
    case IK_BUSY:
      x->retry_after = "1";
      http_error(x, 503, "unavailable",
                 "an apply with this idempotency key is in progress");
      return;
    case IK_NEW:
      break;
    }
  }

  OpenArg o = {gw, gp, k->client->name, tag};
  const char *key = arena_printf(a, "%s|%s|%s", k->client->name, addr, tag);
  bool fresh, full;
  ProcpoolEntry *e = get_live(gw, key, &o, &fresh, &full);
  if (!e) {
    if (idem)
      idem_end(gw, k->client->name, idem, NULL, 0);
    if (full) {
      x->retry_after = "5";
      http_error(x, 503, "unavailable",
                 arena_printf(a, "the gateway runs its maximum of %d plugin "
                              "processes and none is idle",
                              c->max_processes));
    } else {
      http_error(x, 500, "internal",
                 "the plugin cannot be prepared; see the gateway's log");
    }
    return;
  }
  Prov *p = procpool_prov(e);
  char tv[32];
  pthread_mutex_lock(&gw->tv_mu);
  memcpy(tv, gw->terraform_version, sizeof tv);
  pthread_mutex_unlock(&gw->tv_mu);
  GwCall g = {0};
  g.a = a;
  g.prov = p;
  g.schema = ps->schema;
  g.terraform_version = tv;
  g.out = &x->body_out;
  bool ready_ok = true;
  if (fresh && strcmp(tag, "unconfigured") != 0 && !configure) {
    /* A new process for a configuration seen before (it was stopped when
    ** idle, or died): configure it as the client once did. */
    Buf cb;
    buf_init(&cb, a);
    GwCall cg = g;
    cg.call = "ConfigureProvider";
    cg.out = &cb;
    cg.req = req;
    /* ConfigureProvider reads "config": give it provider_config. */
    Buf rb;
    buf_init(&rb, a);
    JsonW w;
    json_w_init(&w, &rb, 0);
    json_w_begin_object(&w);
    json_w_keyz(&w, "config");
    Diags td;
    diag_init(&td, a);
    json_w_value(&w, cfg_ev, cfg_ev.type, &td);
    json_w_end_object(&w);
    json_parse(a, rb.p, rb.len, &cg.req, &td, NULL);
    gw_translate(&cg);
    Value ans;
    json_parse(a, cb.p ? cb.p : "{}", cb.len ? cb.len : 2, &ans, &td, NULL);
    Value ds = gw_jget(ans, "diagnostics");
    for (uint32_t i = 0; cg.status == 200 && ds.type &&
                         ds.type->kind == TY_TUPLE && i < ds.len;
         i++) {
      Value sev = gw_jget(ds.u.elems[i], "severity");
      if (sev.type && sev.type->kind == TY_STRING &&
          strcmp(sev.u.s, "error") == 0)
        ready_ok = false;
    }
    if (cg.status != 200 || !ready_ok) {
      procpool_ready(gw->pool, e, false);
      if (idem)
        idem_end(gw, k->client->name, idem, NULL, 0);
      x->status = cg.status == 200 ? 200 : cg.status;
      buf_put(&x->body_out, cb.p, cb.len);
      if (cg.status != 200)
        http_error(x, cg.status, cg.err_code, cg.err_msg);
      k->note = "configuring the new plugin process failed";
      return;
    }
  } else if (!fresh && configure) {
    /* Already configured with this very configuration. */
    procpool_put(gw->pool, e, false);
    x->status = 200;
    buf_puts(&x->body_out, "{\"diagnostics\":[]}");
    return;
  }
  g.call = k->call;
  g.req = req;
  gw_translate(&g);
  if (fresh) {
    bool ok = true;
    if (configure) {
      Value ans = {0};
      Diags td;
      diag_init(&td, a);
      if (g.status != 200 ||
          !json_parse(a, g.out->p, g.out->len, &ans, &td, NULL))
        ok = false;
      Value ds = gw_jget(ans, "diagnostics");
      for (uint32_t i = 0; ok && ds.type && ds.type->kind == TY_TUPLE &&
                           i < ds.len;
           i++) {
        Value sev = gw_jget(ds.u.elems[i], "severity");
        if (sev.type && sev.type->kind == TY_STRING &&
            strcmp(sev.u.s, "error") == 0)
          ok = false;
      }
    }
    procpool_ready(gw->pool, e, ok && !g.plugin_error);
    if (ok && !g.plugin_error)
      procpool_put(gw->pool, e, !pplugin_alive(p));
  } else {
    procpool_put(gw->pool, e, g.plugin_error || !pplugin_alive(p));
  }
  if (g.plugin_error)
    k->note = "the plugin failed (see its diagnostics)";
  if (g.status != 200) {
    if (idem)
      idem_end(gw, k->client->name, idem, NULL, 0);
    http_error(x, g.status, g.err_code, g.err_msg);
    return;
  }
  if (idem)
    idem_end(gw, k->client->name, idem, g.plugin_error ? NULL : g.out->p,
             g.out->len);
  x->status = 200;
}

static void handler(void *ctx, HttpdExchange *x)
{
  Gw *gw = ctx;
  long t0 = now_ms();
  Ctx k = {0};
  pthread_mutex_lock(&gw->stat_mu);
  gw->in_flight++;
  pthread_mutex_unlock(&gw->stat_mu);
  serve_call(gw, x, &k);
  long ms = now_ms() - t0;
  pthread_mutex_lock(&gw->stat_mu);
  gw->in_flight--;
  if (!k.call || strcmp(k.call, "status") != 0) {
    gw->served++;
    gw->failed += x->status != 200;
  }
  pthread_mutex_unlock(&gw->stat_mu);
  if (x->status != 200 && x->body_out.len && !k.note) {
    /* The error's message, from our own JSON. */
    Value v;
    Diags td;
    diag_init(&td, x->arena);
    if (json_parse(x->arena, x->body_out.p, x->body_out.len, &v, &td, NULL)) {
      Value m = gw_jget(gw_jget(v, "error"), "message");
      if (m.type && m.type->kind == TY_STRING && !val_is_null(m))
        k.note = m.u.s;
    }
  }
  logf_(gw, "gateway: client=%s peer=%s provider=%s call=%s status=%d "
        "duration=%ldms%s%s%s",
        k.client ? k.client->name : "-", x->peer, k.addr ? k.addr : "-",
        k.call ? k.call : "-", x->status, ms, k.note ? " (" : "",
        k.note ? k.note : "", k.note ? ")" : "");
}

bool gw_run(const GwConfig *c, GwLogFn log, void *log_ctx,
            void (*ready)(void *ctx, int port), Diags *d)
{
  Gw *gw;
  Arena ra;
  arena_init(&ra, 0);
  gw = ARENA_NEW(&ra, Gw, 1);
  gw->c = c;
  gw->log = log;
  gw->log_ctx = log_ctx;
  pthread_mutex_init(&gw->log_mu, NULL);
  pthread_mutex_init(&gw->arena_mu, NULL);
  pthread_mutex_init(&gw->idem_mu, NULL);
  pthread_mutex_init(&gw->tv_mu, NULL);
  pthread_mutex_init(&gw->stat_mu, NULL);
  gw->started_ms = now_ms();
  arena_init(&gw->arena, 0);
  snprintf(gw->terraform_version, sizeof gw->terraform_version, "%s",
           CFG_TERRAFORM_VERSION);
  prov_random_bytes(gw->secret, sizeof gw->secret);
  gw->ps = ARENA_NEW(&ra, GwProvState, (size_t)c->nproviders + 1);
  for (int i = 0; i < c->nproviders; i++) {
    gw->ps[i].p = &c->providers[i];
    pthread_mutex_init(&gw->ps[i].mu, NULL);
  }
  for (int i = 0; i < c->nproviders; i++)
    if (!c->providers[i].plugin) {
      /* A .zip from a mirror that gw_prepare did not unpack. */
      diag_error(d, NULL, "Cannot start the gateway",
                 "Provider %s has no plugin binary yet (gw_prepare).",
                 c->providers[i].addr);
      arena_release(&ra);
      return false;
    }
  gw->idem = ARENA_NEW(&ra, Idem, (size_t)c->idempotency_entries);
  if (!make_work_dir(c->work_dir)) {
    diag_error(d, NULL, "Cannot start the gateway",
               "Cannot create the working directory %s: %s.", c->work_dir,
               strerror(errno));
    arena_release(&ra);
    return false;
  }
  gw->pool = procpool_new(&ra, c->max_processes, c->idle_timeout_ms,
                          open_plugin, pool_log, gw);
  HttpdConfig *hc = ARENA_NEW(&ra, HttpdConfig, 1);
  hc->listen = c->listen;
  hc->cert_file = c->cert_file;
  hc->key_file = c->key_file;
  hc->client_ca_file = c->client_ca_file;
  hc->threads = c->threads;
  hc->max_connections = c->max_connections;
  hc->max_body = c->max_request;
  hc->keepalive_ms = 60000;
  hc->io_timeout_ms = 30000;
  hc->handler = handler;
  hc->ctx = gw;
  Httpd *h = httpd_new(&ra, hc, d);
  if (!h || !procpool_start_reaper(gw->pool)) {
    if (h)
      diag_error(d, NULL, "Cannot start the gateway",
                 "Cannot start the idle-process reaper.");
    arena_release(&ra);
    return false;
  }
  the_server = h;
  logf_(gw, "gateway: listening on port %d (%d providers, %d clients)",
        httpd_port(h), c->nproviders, c->nclients);
  if (ready)
    ready(log_ctx, httpd_port(h));
  bool ok = httpd_run(h, d);
  logf_(gw, "gateway: stopping: shutting the plugins down");
  procpool_shutdown(gw->pool);
  the_server = NULL;
  logf_(gw, "gateway: stopped");
  for (int i = 0; i < c->idempotency_entries; i++)
    if (gw->idem[i].state != I_FREE)
      arena_release(&gw->idem[i].arena);
  arena_release(&gw->arena);
  arena_release(&ra);
  return ok;
}
