/*
** http: libcurl (mbedTLS) client for remote providers.  See http.h.
*/
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <mbedtls/base64.h>
#include <mbedtls/pk.h>
#include <mbedtls/sha256.h>
#include <mbedtls/ssl.h>
#include <mbedtls/x509_crt.h>
#include <psa/crypto.h>

#include "base/buf.h"

struct HttpShared {
  pthread_mutex_t mu;
  double tokens;            /* token bucket (may go negative: reservations) */
  double last;              /* monotonic seconds of the last refill */
  long requests;
  long connections;
};

struct HttpClient {
  CURL *h;
  HttpSleepFn sleep_fn;
  void *sleep_ctx;
  HttpClockFn clock_fn;
  void *clock_ctx;
  const char *const *extra_headers;  /* borrowed, NULL-terminated */
  char peer_key[64];                 /* "sha256//B64" of the last handshake */
  uint32_t verify_flags;             /* MBEDTLS_X509_BADCERT_* of the chain,
                                     ** for this transfer's handshake */
  bool skip_verify;                  /* this transfer's endpoint opted out */
};

static HttpLogFn log_fn;
static void *log_ctx;
static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_rc;

void http_set_log(HttpLogFn fn, void *ctx)
{
  log_fn = fn;
  log_ctx = ctx;
}

static void logf_(HttpLogLevel lvl, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void logf_(HttpLogLevel lvl, const char *fmt, ...)
{
  if (!log_fn)
    return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  log_fn(log_ctx, lvl, msg);
}

/* curl's mbedTLS backend calls psa_crypto_init() in curl_global_init
** (TLS 1.3 in mbedTLS 3.6 needs PSA crypto); calling it here too makes the
** requirement explicit and does not depend on that. */
static void global_init(void)
{
  global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (global_rc == CURLE_OK && psa_crypto_init() != PSA_SUCCESS)
    global_rc = CURLE_FAILED_INIT;
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void real_sleep(void *ctx, long ms)
{
  (void)ctx;
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

static void do_sleep(HttpClient *c, long ms)
{
  if (ms <= 0)
    return;
  if (c->sleep_fn)
    c->sleep_fn(c->sleep_ctx, ms);
  else
    real_sleep(NULL, ms);
}

/* ---- endpoint ---------------------------------------------------------- */

void http_endpoint_init(HttpEndpoint *e, Arena *a)
{
  memset(e, 0, sizeof *e);
  e->connect_timeout_ms = 10000;
  e->timeout_ms = 60000;
  e->max_retries = 4;
  e->backoff_base_ms = 200;
  e->backoff_max_ms = 10000;
  e->retry_after_cap_ms = 60000;
  e->max_response = (size_t)64 << 20;
  e->shared = ARENA_NEW(a, HttpShared, 1);
  pthread_mutex_init(&e->shared->mu, NULL);
  e->shared->tokens = 1;
  e->shared->last = -1;   /* set by the first request, on its client's clock */
}

void http_endpoint_destroy(HttpEndpoint *e)
{
  if (e->shared)
    pthread_mutex_destroy(&e->shared->mu);
  e->shared = NULL;
}

void http_endpoint_stats(const HttpEndpoint *e, long *requests,
                         long *connections)
{
  HttpShared *s = e->shared;
  pthread_mutex_lock(&s->mu);
  if (requests)
    *requests = s->requests;
  if (connections)
    *connections = s->connections;
  pthread_mutex_unlock(&s->mu);
}

/* Token bucket of capacity 1 with reservations: each caller takes a token
** (the balance may go negative) and waits until its token would have been
** refilled.  So N workers together never exceed rate_limit requests/s,
** and the lock is held only for arithmetic, never while sleeping. */
static long rate_wait_ms(const HttpClient *c, const HttpEndpoint *e)
{
  if (!(e->rate_limit > 0))
    return 0;
  HttpShared *s = e->shared;
  pthread_mutex_lock(&s->mu);
  double t = c->clock_fn ? c->clock_fn(c->clock_ctx) : now_s();
  if (s->last < 0)
    s->last = t;
  s->tokens += (t - s->last) * e->rate_limit;
  if (s->tokens > 1)
    s->tokens = 1;
  s->last = t;
  s->tokens -= 1;
  double wait = s->tokens < 0 ? -s->tokens / e->rate_limit : 0;
  pthread_mutex_unlock(&s->mu);
  return (long)(wait * 1000.0 + 0.5);
}

/* ---- URL checks -------------------------------------------------------- */

static bool host_is_loopback(const char *h)
{
  if (strcasecmp(h, "localhost") == 0 || strcasecmp(h, "localhost.") == 0)
    return true;
  if (strcmp(h, "[::1]") == 0 || strcmp(h, "::1") == 0)
    return true;
  struct in_addr a4;
  if (inet_pton(AF_INET, h, &a4) == 1)
    return (ntohl(a4.s_addr) >> 24) == 127;
  return false;
}

/* The URL without user:password, for messages; "(invalid URL)" if curl
** cannot parse it.  Writes into out. */
static void display_url(const char *url, const char *path, char *out,
                        size_t n)
{
  CURLU *u = curl_url();
  char *s = NULL;
  if (u && url && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK) {
    curl_url_set(u, CURLUPART_USER, NULL, 0);
    curl_url_set(u, CURLUPART_PASSWORD, NULL, 0);
    curl_url_set(u, CURLUPART_QUERY, NULL, 0);
    curl_url_get(u, CURLUPART_URL, &s, 0);
  }
  size_t sl = s ? strlen(s) : 0;
  /* Avoid a double slash between base and call path. */
  if (s && sl && s[sl - 1] == '/' && path && path[0] == '/')
    s[sl - 1] = 0;
  snprintf(out, n, "%s%s", s ? s : "(invalid URL)", path ? path : "");
  if (s)
    curl_free(s);
  if (u)
    curl_url_cleanup(u);
}

static const char *const ca_bundles[] = {
  "/etc/ssl/certs/ca-certificates.crt",      /* Debian, Ubuntu, Alpine */
  "/etc/pki/tls/certs/ca-bundle.crt",        /* Fedora, RHEL */
  "/etc/ssl/ca-bundle.pem",                  /* openSUSE */
  "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
  "/etc/ssl/cert.pem",                       /* Alpine, macOS, BSD */
  "/usr/local/share/certs/ca-root-nss.crt",  /* FreeBSD */
};

/* Chooses the CA file/dir for an https endpoint.  Returns false when
** nothing is available. */
static bool pick_ca(const HttpEndpoint *e, const char **file,
                    const char **dir)
{
  *file = e->ca_file;
  *dir = e->ca_dir;
  if (*file || *dir)
    return true;
  const char *ef = getenv("SSL_CERT_FILE");
  const char *ed = getenv("SSL_CERT_DIR");
  if (ef && *ef)
    *file = ef;
  if (ed && *ed)
    *dir = ed;
  if (*file || *dir)
    return true;
  for (size_t i = 0; i < sizeof ca_bundles / sizeof ca_bundles[0]; i++)
    if (access(ca_bundles[i], R_OK) == 0) {
      *file = ca_bundles[i];
      return true;
    }
  return false;
}

typedef struct Target {
  bool https;
  const char *ca_file;
  const char *ca_dir;
} Target;

static bool check_endpoint(const HttpEndpoint *e, const char *path,
                           Target *t, Diags *d)
{
  char shown[1024];
  display_url(e->url, path, shown, sizeof shown);
  memset(t, 0, sizeof *t);
  CURLU *u = curl_url();
  char *scheme = NULL, *host = NULL;
  bool ok = false;
  if (!u || !e->url ||
      curl_url_set(u, CURLUPART_URL, e->url, 0) != CURLUE_OK ||
      curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
      curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
    diag_error(d, NULL, "Invalid provider endpoint URL",
               "The endpoint URL %s is not a valid URL.", shown);
    goto out;
  }
  if (e->bearer_token &&
      (strlen(e->bearer_token) > 4000 || strpbrk(e->bearer_token, "\r\n"))) {
    /* A line break would smuggle headers; the text itself is never shown. */
    diag_error(d, NULL, "Invalid bearer token",
               "The bearer token for %s is longer than 4000 bytes or "
               "contains a line break.", shown);
    goto out;
  }
  if (strcasecmp(scheme, "https") == 0) {
    t->https = true;
    if (!e->ca_pem && !e->skip_verify &&
        !pick_ca(e, &t->ca_file, &t->ca_dir)) {
      diag_error(d, NULL, "No CA certificates",
                 "Cannot verify %s: no CA certificates were found. Set "
                 "ca_file or ca_dir for the endpoint, or SSL_CERT_FILE / "
                 "SSL_CERT_DIR.", shown);
      goto out;
    }
  } else if (strcasecmp(scheme, "http") == 0) {
    if (!host_is_loopback(host) && !e->insecure_http) {
      diag_error(d, NULL, "Plain HTTP refused",
                 "The endpoint %s uses http:// to a host that is not a "
                 "loopback address. Use https://, or set insecure_http = "
                 "true for this endpoint if the network is trusted.", shown);
      goto out;
    }
  } else {
    diag_error(d, NULL, "Unsupported endpoint URL scheme",
               "The endpoint %s must use https:// (or http:// on loopback).",
               shown);
    goto out;
  }
  ok = true;
out:
  if (scheme)
    curl_free(scheme);
  if (host)
    curl_free(host);
  if (u)
    curl_url_cleanup(u);
  return ok;
}

bool http_endpoint_check(const HttpEndpoint *e, Diags *d)
{
  Target t;
  return check_endpoint(e, "", &t, d);
}

/* ---- client ------------------------------------------------------------ */

bool http_global_ready(void)
{
  pthread_once(&global_once, global_init);
  return global_rc == CURLE_OK;
}

bool http_default_ca(const char **file, const char **dir)
{
  HttpEndpoint none = {0};
  return pick_ca(&none, file, dir);
}


HttpClient *http_client_new(Arena *a, Diags *d)
{
  pthread_once(&global_once, global_init);
  if (global_rc != CURLE_OK) {
    diag_error(d, NULL, "HTTP client initialisation failed", "libcurl: %s",
               curl_easy_strerror(global_rc));
    return NULL;
  }
  HttpClient *c = ARENA_NEW(a, HttpClient, 1);
  c->h = curl_easy_init();
  if (!c->h) {
    diag_error(d, NULL, "HTTP client initialisation failed",
               "libcurl could not create a handle.");
    return NULL;
  }
  return c;
}

void http_client_set_sleep(HttpClient *c, HttpSleepFn fn, void *ctx)
{
  c->sleep_fn = fn;
  c->sleep_ctx = ctx;
}

void http_client_set_clock(HttpClient *c, HttpClockFn fn, void *ctx)
{
  c->clock_fn = fn;
  c->clock_ctx = ctx;
}

void http_client_set_headers(HttpClient *c, const char *const *lines)
{
  c->extra_headers = lines;
}

const char *http_client_peer_key(const HttpClient *c)
{
  return c->peer_key;
}

/* mbedTLS verify callback, installed through CURLOPT_SSL_CTX_FUNCTION (it
** replaces curl's own, which only relaxes checks that cairn never turns
** off): it records the leaf certificate's public-key hash (the endpoint
** identity `cairn init` locks) and the failed checks of the whole chain
** (for the error message: curl's mbedTLS backend reports neither
** CURLINFO_SSL_VERIFYRESULT nor the reasons), and never changes the
** verdict. */
static int on_verify(void *ud, mbedtls_x509_crt *crt, int depth,
                     uint32_t *flags)
{
  HttpClient *c = ud;
  if (c->skip_verify)
    *flags = 0;
  c->verify_flags |= *flags;
  if (depth != 0)
    return 0;
  unsigned char der[4096], sum[32];
  int n = mbedtls_pk_write_pubkey_der(&crt->pk, der, sizeof der);
  if (n <= 0)
    return 0;
  if (mbedtls_sha256(der + sizeof der - (size_t)n, (size_t)n, sum, 0))
    return 0;
  size_t olen = 0;
  memcpy(c->peer_key, "sha256//", 8);
  if (mbedtls_base64_encode((unsigned char *)c->peer_key + 8,
                            sizeof c->peer_key - 8, &olen, sum, sizeof sum))
    c->peer_key[0] = 0;
  return 0;
}

static CURLcode on_sslctx(CURL *h, void *sslctx, void *ud)
{
  (void)h;
  mbedtls_ssl_conf_verify((mbedtls_ssl_config *)sslctx, on_verify, ud);
  return CURLE_OK;
}

void http_client_close(HttpClient *c)
{
  if (c && c->h) {
    curl_easy_cleanup(c->h);
    c->h = NULL;
  }
}

/* ---- one transfer ------------------------------------------------------ */

typedef struct Sink {
  Buf b;
  size_t max;
  bool too_large;
} Sink;

static size_t on_body(char *p, size_t sz, size_t n, void *ud)
{
  Sink *s = ud;
  size_t len = sz * n;
  if (len > s->max - s->b.len || s->b.len > s->max) {
    s->too_large = true;
    return 0;  /* aborts the transfer with CURLE_WRITE_ERROR */
  }
  buf_put(&s->b, p, len);
  return len;
}

static bool has_word(const char *s, const char *w)
{
  return s && strstr(s, w) != NULL;
}

/* The cause of a failed transfer, in words. */
static void describe(CURLcode rc, CURL *h, uint32_t vflags, const char *errbuf,
                     const HttpEndpoint *e, const Sink *sink, char *out,
                     size_t n)
{
  long os_errno = 0, vr = 0;
  curl_easy_getinfo(h, CURLINFO_OS_ERRNO, &os_errno);
  curl_easy_getinfo(h, CURLINFO_SSL_VERIFYRESULT, &vr);
  vr |= (long)vflags;
  const char *eb = errbuf[0] ? errbuf : curl_easy_strerror(rc);
  if (sink->too_large) {
    snprintf(out, n, "the response is larger than the limit of %zu bytes",
             e->max_response);
    return;
  }
  curl_off_t clen = -1;
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &clen);
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  if ((rc == CURLE_PARTIAL_FILE || rc == CURLE_RECV_ERROR) && status > 0 &&
      clen >= 0 && (curl_off_t)sink->b.len < clen) {
    /* A peer that drops the connection mid-body without a TLS
    ** close_notify shows up as a receive error, not PARTIAL_FILE. */
    snprintf(out, n, "truncated response: the connection closed after %zu "
             "of %lld bytes", sink->b.len, (long long)clen);
    return;
  }
  switch (rc) {
  case CURLE_PEER_FAILED_VERIFICATION: {
    /* curl's mbedTLS backend names the first failed check in errbuf;
    ** CURLINFO_SSL_VERIFYRESULT is a fallback for backends that set it. */
    if (has_word(eb, "BADCERT_EXPIRED") ||
        (vr & MBEDTLS_X509_BADCERT_EXPIRED))
      snprintf(out, n, "the server's certificate has expired");
    else if (has_word(eb, "BADCERT_FUTURE") ||
             (vr & MBEDTLS_X509_BADCERT_FUTURE))
      snprintf(out, n, "the server's certificate is not yet valid");
    else if (has_word(eb, "BADCERT_CN_MISMATCH") ||
             (vr & MBEDTLS_X509_BADCERT_CN_MISMATCH))
      snprintf(out, n, "host name mismatch: the server's certificate is not "
               "valid for this host name");
    else if (has_word(eb, "BADCERT_NOT_TRUSTED") ||
             (vr & MBEDTLS_X509_BADCERT_NOT_TRUSTED))
      snprintf(out, n, "the server's certificate is not trusted (unknown CA "
               "or self-signed); check %s",
               e->ca_hint ? e->ca_hint : "ca_file / ca_dir");
    else if (has_word(eb, "BADCERT_REVOKED"))
      snprintf(out, n, "the server's certificate has been revoked");
    else if (vr) {
      char info[256];
      mbedtls_x509_crt_verify_info(info, sizeof info, "", (uint32_t)vr);
      snprintf(out, n, "the server's certificate failed verification: %s",
               info);
    } else
      snprintf(out, n, "the server's certificate failed verification (%s)",
               eb);
    return;
  }
  case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    snprintf(out, n, "the server's public key does not match the pinned "
             "key (pinned_pubkey)");
    return;
  case CURLE_SSL_CONNECT_ERROR:
    snprintf(out, n, "the TLS handshake failed (the server may offer only "
             "TLS below 1.2%s): %s",
             e->client_cert ? "" : ", or require a client certificate", eb);
    return;
  case CURLE_SSL_CERTPROBLEM:
    snprintf(out, n, "the client certificate or key cannot be used: %s", eb);
    return;
  case CURLE_SSL_CACERT_BADFILE:
    snprintf(out, n, "the CA certificates cannot be loaded: %s", eb);
    return;
  case CURLE_COULDNT_CONNECT:
    if (os_errno == ECONNREFUSED)
      snprintf(out, n, "connection refused");
    else
      snprintf(out, n, "cannot connect: %s", eb);
    return;
  case CURLE_COULDNT_RESOLVE_HOST:
    snprintf(out, n, "cannot resolve the host name: %s", eb);
    return;
  case CURLE_OPERATION_TIMEDOUT:
    snprintf(out, n, "timeout: %s", eb);
    return;
  case CURLE_PARTIAL_FILE:
    snprintf(out, n, "truncated response: the connection closed before the "
             "whole body arrived");
    return;
  case CURLE_GOT_NOTHING:
    snprintf(out, n, "the server closed the connection without answering");
    return;
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR: {
    /* With TLS 1.3 the client finishes its handshake before the server
    ** checks the client certificate, so a server that requires one and got
    ** none closes the connection after the handshake: the client sees a
    ** dropped connection, not a handshake failure. */
    long nconn = 0;
    char *scheme = NULL;
    curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &nconn);
    curl_easy_getinfo(h, CURLINFO_SCHEME, &scheme);
    /* A plain end of file (mbedTLS's read returned 0: curl writes
    ** "(-0x0000)") is a server that dropped the connection after reading
    ** the request (a lost answer), not a refused certificate, which comes
    ** as an alert. */
    if (status == 0 && nconn > 0 && !e->client_cert && scheme &&
        strcasecmp(scheme, "https") == 0 && !strstr(eb, "(-0x0000)"))
      snprintf(out, n, "the connection was dropped right after the TLS "
               "handshake (the server may require a client certificate: "
               "client_cert, client_key): %s", eb);
    else if (strstr(eb, "(-0x0000)"))
      snprintf(out, n, "the connection was dropped: the server closed it "
               "before answering");
    else
      snprintf(out, n, "the connection was dropped: %s", eb);
    return;
  }
  case CURLE_FILESIZE_EXCEEDED:
    snprintf(out, n, "the response is larger than the limit of %zu bytes",
             e->max_response);
    return;
  default:
    snprintf(out, n, "%s", eb);
    return;
  }
}

static bool retryable_rc(CURLcode rc)
{
  switch (rc) {
  case CURLE_COULDNT_CONNECT:
  case CURLE_OPERATION_TIMEDOUT:
  case CURLE_GOT_NOTHING:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
  case CURLE_PARTIAL_FILE:
    return true;
  default:
    return false;
  }
}

static bool retryable_status(const HttpEndpoint *e, long st)
{
  if (e->retry_5xx && st >= 500 && st != 501)
    return true;
  return st == 429 || st == 502 || st == 503 || st == 504;
}

static long backoff_ms(const HttpEndpoint *e, int attempt)
{
  long d = e->backoff_base_ms > 0 ? e->backoff_base_ms : 1;
  for (int i = 0; i < attempt && d < e->backoff_max_ms; i++)
    d *= 2;
  if (e->backoff_max_ms > 0 && d > e->backoff_max_ms)
    d = e->backoff_max_ms;
  if (e->no_jitter)
    return d;
  /* Jitter: somewhere in [d/2, d], so workers hit by the same outage do
  ** not come back in lockstep. */
  uint32_t r = 0;
  if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r)
    r = (uint32_t)(now_s() * 1e6);
  long half = d / 2;
  return half + (half > 0 ? (long)(r % (uint32_t)(half + 1)) : 0);
}

typedef struct Attempt {
  CURLcode rc;
  long status;
  long retry_after;
  char why[512];
} Attempt;

/* What one call sends, whatever its method. */
typedef struct Call {
  const char *method;        /* "POST" for provider calls */
  const char *body;          /* NULL: no body */
  size_t len;
  const char *const *headers;
} Call;

/* pem as a blob; with_nul counts the terminating NUL: curl's mbedTLS
** backend hands a key blob to mbedtls_pk_parse_key as is, which takes
** PEM only NUL-terminated (certificate blobs it terminates itself). */
static void set_blob(CURL *h, CURLoption opt, const char *pem, bool with_nul)
{
  struct curl_blob b = {(void *)pem, pem ? strlen(pem) + with_nul : 0,
                        CURL_BLOB_COPY};
  curl_easy_setopt(h, opt, pem ? &b : NULL);
}

static void attempt(HttpClient *c, const HttpEndpoint *e, const Target *t,
                    const char *url, const Call *call, Sink *sink,
                    Attempt *at)
{
  CURL *h = c->h;
  char errbuf[CURL_ERROR_SIZE];
  errbuf[0] = 0;
  struct curl_slist *hdr = NULL, *res = NULL;
  bool ctype = false;
  for (const char *const *x = call->headers; x && *x; x++)
    ctype = ctype || strncasecmp(*x, "Content-Type:", 13) == 0;
  if (call->body && !ctype)
    hdr = curl_slist_append(hdr, "Content-Type: application/json");
  hdr = curl_slist_append(hdr, "Accept: application/json");
  hdr = curl_slist_append(hdr, "Expect:");
  for (const char *const *x = call->headers; x && *x; x++)
    hdr = curl_slist_append(hdr, *x);
  char auth[4096];
  if (e->bearer_token && *e->bearer_token) {
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", e->bearer_token);
    hdr = curl_slist_append(hdr, auth);
  }
  if (e->resolve)
    res = curl_slist_append(res, e->resolve);
  for (const char *const *x = c->extra_headers; x && *x; x++)
    hdr = curl_slist_append(hdr, *x);

  /* Reset only the options we set every time; curl_easy_reset would drop
  ** the connection cache's association nothing else, but keeping the
  ** handle intact is simplest for keep-alive. */
  curl_easy_setopt(h, CURLOPT_URL, url);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  /* A custom method keeps curl's POST body machinery (LOCK, UNLOCK and PUT
  ** carry the same JSON); GET and DELETE send no body. */
  if (call->body) {
    curl_easy_setopt(h, CURLOPT_HTTPGET, 0L);
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, call->body);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)call->len);
  } else {
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, NULL);
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
  }
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST,
                   strcmp(call->method, call->body ? "POST" : "GET") == 0
                       ? NULL : call->method);
  curl_easy_setopt(h, CURLOPT_NOBODY, 0L);
  if (e->username && *e->username) {
    curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
    curl_easy_setopt(h, CURLOPT_USERNAME, e->username);
    curl_easy_setopt(h, CURLOPT_PASSWORD, e->password ? e->password : "");
  }
  set_blob(h, CURLOPT_CAINFO_BLOB, e->ca_pem, false);
  set_blob(h, CURLOPT_SSLCERT_BLOB, e->client_cert_pem, false);
  set_blob(h, CURLOPT_SSLKEY_BLOB, e->client_key_pem, true);
  c->skip_verify = e->skip_verify;
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
  curl_easy_setopt(h, CURLOPT_RESOLVE, res);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, sink);
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
                   (curl_off_t)e->max_response);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, e->connect_timeout_ms);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, e->timeout_ms);
  curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
  /* TLS 1.2 or newer: 1.3 where the server offers it. */
  curl_easy_setopt(h, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
  /* Provider calls stay on HTTP/1.1 (curl would negotiate h2 through ALPN
  ** now that it is built with nghttp2); keep-alive and the truncation
  ** checks above are written for it. */
  curl_easy_setopt(h, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
  curl_easy_setopt(h, CURLOPT_CAINFO, e->ca_pem ? NULL : t->ca_file);
  curl_easy_setopt(h, CURLOPT_CAPATH, e->ca_pem ? NULL : t->ca_dir);
  curl_easy_setopt(h, CURLOPT_SSLCERT, e->client_cert);
  curl_easy_setopt(h, CURLOPT_SSLKEY, e->client_key);
  curl_easy_setopt(h, CURLOPT_PINNEDPUBLICKEY, e->pinned_pubkey);
  curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, on_sslctx);
  curl_easy_setopt(h, CURLOPT_SSL_CTX_DATA, c);

  c->verify_flags = 0;
  at->rc = curl_easy_perform(h);
  at->status = 0;
  at->retry_after = -1;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &at->status);
  curl_off_t ra = -1;
  if (curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0)
    at->retry_after = (long)ra;
  long nconn = 0;
  curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &nconn);
  if (nconn > 0) {
    double tc = 0, th = 0;
    curl_easy_getinfo(h, CURLINFO_CONNECT_TIME, &tc);
    curl_easy_getinfo(h, CURLINFO_APPCONNECT_TIME, &th);
    logf_(HTTP_LOG_TRACE, "client %p: new connection (connect %.1f ms, "
          "TLS handshake done at %.1f ms)", (void *)c, tc * 1000.0,
          th * 1000.0);
  }
  pthread_mutex_lock(&e->shared->mu);
  e->shared->requests++;
  e->shared->connections += nconn;
  pthread_mutex_unlock(&e->shared->mu);

  at->why[0] = 0;
  if (at->rc != CURLE_OK)
    describe(at->rc, h, c->verify_flags, errbuf, e, sink, at->why,
             sizeof at->why);

  /* The handle must not keep pointers to our stack or freed lists; the
  ** token's copy inside curl goes with the list. */
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
  curl_easy_setopt(h, CURLOPT_RESOLVE, NULL);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, NULL);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, NULL);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, NULL);
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, NULL);
  curl_easy_setopt(h, CURLOPT_USERNAME, NULL);
  curl_easy_setopt(h, CURLOPT_PASSWORD, NULL);
  curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_NONE);
  memset(auth, 0, sizeof auth);
  curl_slist_free_all(hdr);
  curl_slist_free_all(res);
}

static bool perform(HttpClient *c, const HttpEndpoint *e, const char *path,
                    const Call *call, const char *summary, const char *what,
                    unsigned flags, HttpResponse *out, Arena *a, Diags *d)
{
  memset(out, 0, sizeof *out);
  out->retry_after_s = -1;
  out->body = "";
  if (!path)
    path = "";
  char shown[1024];
  display_url(e->url, path, shown, sizeof shown);
  Target t;
  if (!check_endpoint(e, path, &t, d))
    return false;

  /* Full URL: base + path, without doubling the slash. */
  size_t bl = strlen(e->url);
  const char *p = path;
  if (bl && e->url[bl - 1] == '/' && p[0] == '/')
    p++;
  char *url = arena_printf(a, "%s%s", e->url, p);
  const char *upath = path[0] ? path : "/";

  int max_attempts = 1 + ((flags & HTTP_SAFE_TO_RETRY) && e->max_retries > 0
                              ? e->max_retries : 0);
  Attempt at;
  Sink sink;
  for (int i = 0;; i++) {
    ArenaMark m = arena_mark(a);
    memset(&sink, 0, sizeof sink);
    buf_init(&sink.b, a);
    sink.max = e->max_response;
    long wait = rate_wait_ms(c, e);
    if (wait > 0) {
      logf_(HTTP_LOG_TRACE, "%s %s: rate limit, waiting %ld ms",
            call->method, upath, wait);
      do_sleep(c, wait);
    }
    double t0 = now_s();
    attempt(c, e, &t, url, call, &sink, &at);
    long ms = (long)((now_s() - t0) * 1000.0);
    out->attempts = i + 1;
    if (at.rc == CURLE_OK)
      logf_(HTTP_LOG_DEBUG, "%s %s -> %ld (%ld ms)", call->method, upath,
            at.status, ms);
    else
      logf_(HTTP_LOG_DEBUG, "%s %s failed after %ld ms: %s", call->method,
            upath, ms, at.why);

    bool again = false;
    long delay = 0;
    if (i + 1 < max_attempts) {
      if (at.rc != CURLE_OK && retryable_rc(at.rc) && !sink.too_large) {
        again = true;
        delay = backoff_ms(e, i);
      } else if (at.rc == CURLE_OK && retryable_status(e, at.status)) {
        again = true;
        delay = backoff_ms(e, i);
        if (at.retry_after >= 0) {
          long ra = at.retry_after * 1000;
          if (ra > e->retry_after_cap_ms)
            ra = e->retry_after_cap_ms;
          if (ra > delay)
            delay = ra;
        }
      }
    }
    if (!again)
      break;
    logf_(HTTP_LOG_TRACE, "%s %s: retrying in %ld ms (attempt %d of %d)",
          call->method, upath, delay, i + 2, max_attempts);
    arena_rewind(a, m);
    do_sleep(c, delay);
  }

  out->status = at.status;
  out->retry_after_s = at.retry_after;
  if (at.rc != CURLE_OK) {
    if (what)
      diag_error(d, NULL, summary, "The request %s %s failed%s: %s.",
                 call->method, shown,
                 out->attempts > 1 ? " after retries" : "", at.why);
    else
      diag_error(d, NULL, summary, "The call %s to %s failed%s: %s.", path,
                 shown, out->attempts > 1 ? " after retries" : "", at.why);
    return false;
  }
  out->body = sink.b.p ? sink.b.p : "";
  out->len = sink.b.len;
  return true;
}

bool http_post_json(HttpClient *c, const HttpEndpoint *e, const char *path,
                    const char *body, size_t len, unsigned flags,
                    HttpResponse *out, Arena *a, Diags *d)
{
  Call call = {"POST", body ? body : "", len, NULL};
  return perform(c, e, path, &call, "Provider request failed", NULL, flags,
                 out, a, d);
}

bool http_request(HttpClient *c, const HttpEndpoint *e, const HttpRequest *rq,
                  HttpResponse *out, Arena *a, Diags *d)
{
  Call call = {rq->method, rq->body, rq->len, rq->headers};
  const char *what = rq->what ? rq->what : "send the request";
  char summary[128];
  snprintf(summary, sizeof summary, "Failed to %s", what);
  return perform(c, e, "", &call, arena_strdup(a, summary), what,
                 rq->flags, out, a, d);
}
