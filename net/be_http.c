/*
** be_http: Terraform's http state backend (see be_http.h).
*/
#include "be_http.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <mbedtls/base64.h>
#include <mbedtls/md5.h>

#include "base/buf.h"
#include "http.h"

struct BeHttp {
  Arena *a;
  BeHttpConfig c;
  HttpClient *client;
  HttpEndpoint state_ep, lock_ep, unlock_ep;
};

static bool http_url(const char *u)
{
  return u && (strncasecmp(u, "http://", 7) == 0 ||
               strncasecmp(u, "https://", 8) == 0);
}

static void endpoint(BeHttp *b, HttpEndpoint *e, const char *url)
{
  const BeHttpConfig *c = &b->c;
  http_endpoint_init(e, b->a);
  e->url = url;
  e->username = c->username;
  e->password = c->password;
  e->ca_pem = c->client_ca_certificate_pem;
  e->client_cert_pem = c->client_certificate_pem;
  e->client_key_pem = c->client_private_key_pem;
  e->skip_verify = c->skip_cert_verification;
  e->ca_hint = "client_ca_certificate_pem, or SSL_CERT_FILE / SSL_CERT_DIR";
  e->max_retries = c->retry_max > 0 ? (int)c->retry_max : 0;
  e->backoff_base_ms = c->retry_wait_min * 1000;
  e->backoff_max_ms = c->retry_wait_max * 1000;
  e->retry_5xx = true;
  e->no_jitter = true;
  /* Terraform's http backend talks to any host the user names; the
  ** loopback-only rule of provider endpoints does not apply. */
  e->insecure_http = true;
}

static bool send(BeHttp *b, const HttpEndpoint *e, const char *method,
                 const char *body, size_t len, const char *what,
                 HttpResponse *out, Arena *a, Diags *d)
{
  char md5h[64] = "";
  const char *hdrs[2] = {NULL, NULL};
  if (body) {
    unsigned char sum[16];
    (void)mbedtls_md5((const unsigned char *)body, len, sum);
    size_t ol = 0;
    memcpy(md5h, "Content-MD5: ", 13);
    mbedtls_base64_encode((unsigned char *)md5h + 13, sizeof md5h - 13, &ol,
                          sum, sizeof sum);
    hdrs[0] = md5h;
  }
  HttpRequest rq = {method, body, len, hdrs, what, HTTP_SAFE_TO_RETRY};
  return http_request(b->client, e, &rq, out, a, d);
}

static const char *auth_text(long st)
{
  if (st == 401)
    return "HTTP remote state endpoint requires auth";
  if (st == 403)
    return "HTTP remote state endpoint invalid auth";
  return NULL;
}

static bool op_get(void *ctx, Arena *a, Buf *out, bool *found, Diags *d)
{
  BeHttp *b = ctx;
  *found = false;
  HttpResponse r;
  if (!send(b, &b->state_ep, "GET", NULL, 0, "get state", &r, a, d))
    return false;
  if (r.status == 204 || r.status == 404)
    return true;
  if (r.status != 200) {
    const char *t = auth_text(r.status);
    if (r.status == 500)
      t = "HTTP remote state internal server error";
    diag_error(d, NULL, "Failed to get state", "%s",
               t ? t : arena_printf(a, "Unexpected HTTP response code %ld",
                                    r.status));
    return false;
  }
  if (r.len == 0)
    return true;
  buf_put(out, r.body, r.len);
  *found = true;
  return true;
}

static bool op_put(void *ctx, const char *data, size_t n,
                   const char *lock_id, Diags *d)
{
  BeHttp *b = ctx;
  HttpEndpoint e = b->state_ep;
  if (lock_id && *lock_id) {
    /* Terraform adds the lock ID as the query parameter ID. */
    e.url = arena_printf(b->a, "%s%cID=%s", b->c.address,
                         strchr(b->c.address, '?') ? '&' : '?', lock_id);
  }
  HttpResponse r;
  ArenaMark mk = arena_mark(b->a);
  bool ok = send(b, &e, b->c.update_method, data, n, "upload state", &r,
                 b->a, d);
  if (ok && r.status != 200 && r.status != 201 && r.status != 204) {
    diag_error(d, NULL, "Failed to upload state", "HTTP error: %ld",
               r.status);
    ok = false;
  }
  if (ok)
    arena_rewind(b->a, mk);
  return ok;
}

void behttp_parse_conflict(Arena *a, const char *body, size_t len,
                           StLockInfo *holder, const char **why)
{
  if (!stmgr_parse_lock_info(a, body, len, holder)) {
    memset(holder, 0, sizeof *holder);
    *why = "HTTP remote state already locked, failed to unmarshal body";
    return;
  }
  *why = arena_printf(a, "HTTP remote state already locked: ID=%s",
                      holder->id);
}

static StRemoteRes op_lock(void *ctx, Arena *a, const StLockInfo *li,
                           StLockInfo *holder, const char **why, Diags *d)
{
  BeHttp *b = ctx;
  memset(holder, 0, sizeof *holder);
  *why = NULL;
  Buf j;
  buf_init(&j, a);
  stmgr_lock_info_json(&j, li);
  HttpResponse r;
  if (!send(b, &b->lock_ep, b->c.lock_method, j.p, j.len, "lock", &r, a, d))
    return ST_REMOTE_ERR;
  if (r.status == 200)
    return ST_REMOTE_OK;
  if (r.status == 409 || r.status == 423) {
    behttp_parse_conflict(a, r.body, r.len, holder, why);
    /* Our own earlier attempt, whose answer was lost and retried. */
    if (holder->id && strcmp(holder->id, li->id) == 0)
      return ST_REMOTE_OK;
    return ST_REMOTE_LOCKED;
  }
  const char *t = auth_text(r.status);
  diag_error(d, NULL, "Error acquiring the state lock",
             "Error message: %s",
             t ? t : arena_printf(a, "Unexpected HTTP response code %ld",
                                  r.status));
  return ST_REMOTE_ERR;
}

static bool op_unlock(void *ctx, const StLockInfo *li, Diags *d)
{
  BeHttp *b = ctx;
  if (!b->c.unlock_address)
    return true;
  Buf j;
  buf_init(&j, b->a);
  stmgr_lock_info_json(&j, li);
  HttpResponse r;
  if (!send(b, &b->unlock_ep, b->c.unlock_method, j.p, j.len, "unlock", &r,
            b->a, d))
    return false;
  if (r.status != 200) {
    diag_error(d, NULL, "Failed to unlock state",
               "Unexpected HTTP response code %ld", r.status);
    return false;
  }
  return true;
}

bool behttp_delete(BeHttp *b, Diags *d)
{
  HttpResponse r;
  if (!send(b, &b->state_ep, "DELETE", NULL, 0, "delete state", &r, b->a,
            d))
    return false;
  if (r.status != 200) {
    diag_error(d, NULL, "Failed to delete state", "HTTP error: %ld",
               r.status);
    return false;
  }
  return true;
}

static bool bad(Diags *d, const char *msg)
{
  diag_error(d, NULL, "Invalid http backend configuration", "%s", msg);
  return false;
}

static bool check(const BeHttpConfig *c, Diags *d)
{
  if (!c->address || !*c->address)
    return bad(d, "address argument is required");
  if (!http_url(c->address))
    return bad(d, "address must be HTTP or HTTPS");
  if (c->lock_address && !http_url(c->lock_address))
    return bad(d, "lock_address must be HTTP or HTTPS");
  if (c->unlock_address && !http_url(c->unlock_address))
    return bad(d, "unlock_address must be HTTP or HTTPS");
  const char *methods[] = {c->update_method, c->lock_method,
                           c->unlock_method};
  for (int i = 0; i < 3; i++) {
    const char *m = methods[i];
    if (!*m)
      return bad(d, "an HTTP method must not be empty");
    for (const char *p = m; *p; p++)
      if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
            *p == '-' || *p == '_'))
        return bad(d, "an HTTP method may hold only letters, '-' and '_'");
  }
  if (c->retry_max < 0 || c->retry_wait_min < 0 || c->retry_wait_max < 0)
    return bad(d, "retry_max, retry_wait_min and retry_wait_max must not "
                  "be negative");
  bool cert = c->client_certificate_pem && *c->client_certificate_pem;
  bool key = c->client_private_key_pem && *c->client_private_key_pem;
  if (cert && !key)
    return bad(d, "client_certificate_pem is set but client_private_key_pem "
                  "is not");
  if (key && !cert)
    return bad(d, "client_private_key_pem is set but client_certificate_pem "
                  "is not");
  return true;
}

BeHttp *behttp_open(Arena *a, const BeHttpConfig *c, StRemote *r, Diags *d)
{
  if (!check(c, d))
    return NULL;
  BeHttp *b = ARENA_NEW(a, BeHttp, 1);
  b->a = a;
  b->c = *c;
  if (b->c.client_ca_certificate_pem && !*b->c.client_ca_certificate_pem)
    b->c.client_ca_certificate_pem = NULL;
  if (b->c.client_certificate_pem && !*b->c.client_certificate_pem)
    b->c.client_certificate_pem = b->c.client_private_key_pem = NULL;
  b->client = http_client_new(a, d);
  if (!b->client)
    return NULL;
  endpoint(b, &b->state_ep, c->address);
  endpoint(b, &b->lock_ep, c->lock_address ? c->lock_address : c->address);
  endpoint(b, &b->unlock_ep,
           c->unlock_address ? c->unlock_address : c->address);
  memset(r, 0, sizeof *r);
  r->type = "http";
  r->ctx = b;
  r->can_lock = c->lock_address != NULL;
  r->get = op_get;
  r->put = op_put;
  r->lock = op_lock;
  r->unlock = op_unlock;
  return b;
}

void behttp_close(BeHttp *b)
{
  if (!b)
    return;
  http_client_close(b->client);
  http_endpoint_destroy(&b->state_ep);
  http_endpoint_destroy(&b->lock_ep);
  http_endpoint_destroy(&b->unlock_ep);
}
