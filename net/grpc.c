/*
** grpc.c: unary gRPC calls on libcurl's HTTP/2.  Contracts in grpc.h.
*/
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "base/buf.h"
#include "grpc.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static CURLcode global_rc = CURLE_FAILED_INIT;

/* Reference-counted by libcurl: harmless next to http.c's own call. */
static void global_init(void)
{
  global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

struct GrpcPool {
  pthread_mutex_t mu;
  bool closed;
  int nidle;
  CURL *idle[GRPC_POOL_IDLE];
};

GrpcPool *grpc_pool_new(Arena *a)
{
  GrpcPool *p = ARENA_NEW(a, GrpcPool, 1);
  /* Never destroyed: a call may still hold the pool after grpc_pool_close,
  ** and a pthread mutex holds no resource that outlives the arena. */
  if (pthread_mutex_init(&p->mu, NULL) != 0)
    return NULL;
  return p;
}

void grpc_pool_close(GrpcPool *p)
{
  if (!p)
    return;
  pthread_mutex_lock(&p->mu);
  p->closed = true;
  int n = p->nidle;
  CURL *h[GRPC_POOL_IDLE];
  memcpy(h, p->idle, (size_t)n * sizeof h[0]);
  p->nidle = 0;
  pthread_mutex_unlock(&p->mu);
  /* Outside the lock: cleanup closes sockets (and may send TLS alerts). */
  for (int i = 0; i < n; i++)
    curl_easy_cleanup(h[i]);
}

int grpc_pool_idle(GrpcPool *p)
{
  pthread_mutex_lock(&p->mu);
  int n = p->nidle;
  pthread_mutex_unlock(&p->mu);
  return n;
}

/* An idle handle (with default options, its connection and TLS session
** kept) or a new one; NULL when out of memory. */
static CURL *take(GrpcPool *p)
{
  CURL *h = NULL;
  if (p) {
    pthread_mutex_lock(&p->mu);
    if (!p->closed && p->nidle > 0)
      h = p->idle[--p->nidle];
    pthread_mutex_unlock(&p->mu);
  }
  return h ? h : curl_easy_init();
}

/* Keeps h for the next call when its connection is known good (keep) and
** there is room, else closes it. */
static void give_back(GrpcPool *p, CURL *h, bool keep)
{
  if (p && keep) {
    /* Back to default options: the idle handle must hold no pointer into
    ** the finished call (headers, error buffer, callbacks' data), since
    ** closing it later may still report into them.  curl_easy_reset keeps
    ** the connection and the TLS session cache. */
    curl_easy_reset(h);
    pthread_mutex_lock(&p->mu);
    bool kept = !p->closed && p->nidle < GRPC_POOL_IDLE;
    if (kept)
      p->idle[p->nidle++] = h;
    pthread_mutex_unlock(&p->mu);
    if (kept)
      return;
  }
  curl_easy_cleanup(h);
}

typedef struct Call {
  Arena *a;
  const uint8_t *req;        /* the framed request, sent by on_read */
  size_t req_len, req_off;
  Buf body;
  size_t max;                /* frame header + max_msg */
  bool too_large;
  long http_status;
  int grpc_status;           /* -1 until seen */
  const char *grpc_message;
  const char *encoding;      /* grpc-encoding, when not identity */
} Call;

static const char *const status_names[] = {
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
    "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
    "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};

const char *grpc_status_name(int status)
{
  if (status >= 0 &&
      (size_t)status < sizeof status_names / sizeof status_names[0])
    return status_names[status];
  return "UNKNOWN";
}

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
  Call *c = ud;
  size_t len = size * n;
  if (c->body.len + len > c->max) {
    c->too_large = true;
    return 0;               /* aborts the transfer */
  }
  buf_put(&c->body, p, len);
  return len;
}

static size_t on_read(char *p, size_t size, size_t n, void *ud)
{
  Call *c = ud;
  size_t k = c->req_len - c->req_off;
  if (k > size * n)
    k = size * n;
  memcpy(p, c->req + c->req_off, k);
  c->req_off += k;
  return k;
}

/* libcurl resends a request whose reused connection died before any
** answer came ("retrying a fresh connect"), rewinding the body through
** this callback.  The plugin may have acted on it already (an apply that
** created an object): a call is never sent twice, so the rewind is
** refused and the call fails (CURLE_SEND_FAIL_REWIND), as it would have
** on a connection of its own.  A request curl had not yet read is still
** sent on a fresh connection (it needs no rewind). */
static int on_seek(void *ud, curl_off_t off, int origin)
{
  (void)ud;
  (void)off;
  (void)origin;
  return CURL_SEEKFUNC_CANTSEEK;
}

static int hexval(int ch)
{
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  ch = tolower(ch);
  if (ch >= 'a' && ch <= 'f')
    return ch - 'a' + 10;
  return -1;
}

/* grpc-message is percent-encoded (gRPC's HTTP/2 mapping). */
static const char *pct_decode(Arena *a, const char *s, size_t n)
{
  char *o = arena_alloc_raw(a, 1, 1, n + 1);
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    int h, l;
    if (s[i] == '%' && i + 2 < n &&
        (h = hexval((unsigned char)s[i + 1])) >= 0 &&
        (l = hexval((unsigned char)s[i + 2])) >= 0) {
      o[j++] = (char)(h * 16 + l);
      i += 2;
    } else {
      o[j++] = s[i];
    }
  }
  o[j] = 0;
  return o;
}

/* Headers and, after the body, trailers (libcurl hands both here). */
static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
  Call *c = ud;
  size_t len = size * n;
  size_t e = len;
  while (e && (p[e - 1] == '\r' || p[e - 1] == '\n'))
    e--;
  if (e >= 5 && strncmp(p, "HTTP/", 5) == 0) {
    const char *sp = memchr(p, ' ', e);
    if (sp)
      c->http_status = strtol(sp + 1, NULL, 10);
    return len;
  }
  const char *colon = memchr(p, ':', e);
  if (!colon)
    return len;
  size_t kn = (size_t)(colon - p);
  const char *v = colon + 1;
  while (v < p + e && (*v == ' ' || *v == '\t'))
    v++;
  size_t vn = (size_t)(p + e - v);
  if (kn == 11 && strncasecmp(p, "grpc-status", kn) == 0) {
    char tmp[16];
    size_t k = vn < sizeof tmp - 1 ? vn : sizeof tmp - 1;
    memcpy(tmp, v, k);
    tmp[k] = 0;
    char *end;
    long s = strtol(tmp, &end, 10);
    c->grpc_status = (end != tmp && *end == 0 && s >= 0 && s < 1000)
                         ? (int)s : 2;
  } else if (kn == 12 && strncasecmp(p, "grpc-message", kn) == 0) {
    c->grpc_message = pct_decode(c->a, v, vn);
  } else if (kn == 13 && strncasecmp(p, "grpc-encoding", kn) == 0 &&
             !(vn == 8 && strncmp(v, "identity", 8) == 0)) {
    c->encoding = arena_strndup(c->a, v, vn);
  }
  return len;
}

static bool fail(GrpcResult *r, GrpcOutcome o, const char *msg)
{
  r->outcome = o;
  r->message = msg;
  return false;
}

bool grpc_call(const GrpcTarget *t, const char *path, const uint8_t *req,
               size_t len, long timeout_ms, Arena *a, GrpcResult *r)
{
  memset(r, 0, sizeof *r);
  r->status = -1;
  pthread_once(&once, global_init);
  if (global_rc != CURLE_OK)
    return fail(r, GRPC_TRANSPORT, "libcurl could not be initialised");
  if (len > 0xffffffffu)
    return fail(r, GRPC_TRANSPORT, "request message too large");
  size_t max_msg = t->max_msg ? t->max_msg : GRPC_DEFAULT_MAX_MSG;

  uint8_t *frame = arena_alloc_raw(a, 1, 1, len + 5);
  frame[0] = 0;
  frame[1] = (uint8_t)(len >> 24);
  frame[2] = (uint8_t)(len >> 16);
  frame[3] = (uint8_t)(len >> 8);
  frame[4] = (uint8_t)len;
  if (len)
    memcpy(frame + 5, req, len);

  Call c;
  memset(&c, 0, sizeof c);
  c.a = a;
  buf_init(&c.body, a);
  c.max = max_msg + 5;
  c.grpc_status = -1;
  c.req = frame;
  c.req_len = len + 5;

  CURL *h = take(t->pool);
  if (!h)
    return fail(r, GRPC_TRANSPORT, "libcurl could not make a handle");
  bool tls = t->ca_pem != NULL;
  /* With TLS the name checked is always go-plugin's "localhost"; a TCP
  ** address is reached through CONNECT_TO. */
  const char *url =
      t->unix_path || tls
          ? arena_printf(a, "%s://localhost%s", tls ? "https" : "http", path)
          : arena_printf(a, "http://%s%s", t->tcp_address, path);
  char tmo[48];
  snprintf(tmo, sizeof tmo, "grpc-timeout: %ldm", timeout_ms);
  struct curl_slist *hdr = NULL, *n;
  const char *lines[] = {"Content-Type: application/grpc", "TE: trailers",
                         "Expect:", "Accept:", "User-Agent: cairn-grpc",
                         tmo};
  for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
    n = curl_slist_append(hdr, lines[i]);
    if (!n) {
      curl_slist_free_all(hdr);
      give_back(t->pool, h, true);
      return fail(r, GRPC_TRANSPORT, "out of memory");
    }
    hdr = n;
  }
  struct curl_slist *connect_to = NULL;
  if (t->unix_path) {
    curl_easy_setopt(h, CURLOPT_UNIX_SOCKET_PATH, t->unix_path);
  } else if (tls) {
    connect_to = curl_slist_append(
        NULL, arena_printf(a, "::%s", t->tcp_address));
    curl_easy_setopt(h, CURLOPT_CONNECT_TO, connect_to);
  }
  curl_easy_setopt(h, CURLOPT_URL, url);
  if (tls) {
    /* With the terminating NUL: mbedTLS takes a buffer for PEM only when
    ** its last byte is NUL, and libcurl passes the blob's length on. */
    struct curl_blob ca = {(void *)t->ca_pem, strlen(t->ca_pem) + 1,
                           CURL_BLOB_NOCOPY};
    struct curl_blob crt = {(void *)t->cert_pem, strlen(t->cert_pem) + 1,
                            CURL_BLOB_NOCOPY};
    struct curl_blob key = {(void *)t->key_pem, strlen(t->key_pem) + 1,
                            CURL_BLOB_NOCOPY};
    curl_easy_setopt(h, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "https");
    curl_easy_setopt(h, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
    /* The plugin's certificate is the only root: no system CA store. */
    curl_easy_setopt(h, CURLOPT_CAINFO, NULL);
    curl_easy_setopt(h, CURLOPT_CAPATH, NULL);
    curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &ca);
    curl_easy_setopt(h, CURLOPT_SSLCERTTYPE, "PEM");
    curl_easy_setopt(h, CURLOPT_SSLCERT_BLOB, &crt);
    curl_easy_setopt(h, CURLOPT_SSLKEYTYPE, "PEM");
    curl_easy_setopt(h, CURLOPT_SSLKEY_BLOB, &key);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
  } else {
    curl_easy_setopt(h, CURLOPT_HTTP_VERSION,
                     (long)CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http");
  }
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
  curl_easy_setopt(h, CURLOPT_READDATA, &c);
  curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, on_seek);
  curl_easy_setopt(h, CURLOPT_SEEKDATA, &c);
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(len + 5));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &c);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &c);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                   timeout_ms < 10000 ? timeout_ms : 10000L);
  curl_easy_setopt(h, CURLOPT_PROXY, "");
  char errbuf[CURL_ERROR_SIZE];
  errbuf[0] = 0;
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
  CURLcode rc = curl_easy_perform(h);
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &c.http_status);
  long httpv = 0;
  curl_easy_getinfo(h, CURLINFO_HTTP_VERSION, &httpv);
  /* Only a complete HTTP/2 exchange leaves the connection reusable; any
  ** other end (transport error, deadline, an aborted body) drops it, so a
  ** broken connection is never offered to the next call. */
  give_back(t->pool, h,
            rc == CURLE_OK && httpv == CURL_HTTP_VERSION_2_0 &&
                c.http_status == 200 && !c.too_large);
  curl_slist_free_all(hdr);
  curl_slist_free_all(connect_to);
  /* ALPN may settle on HTTP/1.1, on which gRPC does not exist. */
  if (rc == CURLE_OK && tls && httpv != CURL_HTTP_VERSION_2_0)
    return fail(r, GRPC_BAD_RESPONSE,
                "the plugin's TLS server did not agree to HTTP/2 (ALPN h2)");

  if (c.too_large)
    return fail(r, GRPC_BAD_RESPONSE,
                arena_printf(a, "the response is larger than the %zu-byte "
                                "message limit", max_msg));
  if (rc == CURLE_OPERATION_TIMEDOUT)
    return fail(r, GRPC_TIMEOUT,
                arena_printf(a, "no answer within %ld ms", timeout_ms));
  /* A kept connection that broke after the request went out (see
  ** on_seek): in the words of a connection that broke mid-call. */
  if (rc == CURLE_SEND_FAIL_REWIND)
    return fail(r, GRPC_TRANSPORT, curl_easy_strerror(CURLE_RECV_ERROR));
  /* On a unix socket curl's detailed text names "localhost port 80",
  ** which would mislead: its short text says what happened. */
  if (rc != CURLE_OK)
    return fail(r, GRPC_TRANSPORT,
                arena_strdup(a, *errbuf && !t->unix_path
                                    ? errbuf : curl_easy_strerror(rc)));
  if (c.http_status != 200)
    return fail(r, GRPC_BAD_RESPONSE,
                arena_printf(a, "HTTP status %ld instead of 200",
                             c.http_status));
  if (c.grpc_status < 0)
    return fail(r, GRPC_BAD_RESPONSE, "the answer has no grpc-status");
  if (c.grpc_status != 0) {
    r->status = c.grpc_status;
    return fail(r, GRPC_STATUS,
                arena_printf(a, "%s: %s", grpc_status_name(c.grpc_status),
                             c.grpc_message && *c.grpc_message
                                 ? c.grpc_message : "(no message)"));
  }
  r->status = 0;
  const uint8_t *b = (const uint8_t *)c.body.p;
  if (c.body.len < 5)
    return fail(r, GRPC_BAD_RESPONSE, "the answer holds no message");
  if (b[0] != 0)
    return fail(r, GRPC_BAD_RESPONSE,
                arena_printf(a, "the message is compressed (%s), which "
                                "cairn did not offer",
                             c.encoding ? c.encoding : "flag set"));
  size_t ml = (size_t)b[1] << 24 | (size_t)b[2] << 16 | (size_t)b[3] << 8 |
              (size_t)b[4];
  if (ml != c.body.len - 5)
    return fail(r, GRPC_BAD_RESPONSE,
                arena_printf(a, "the frame says %zu bytes but %zu came", ml,
                             c.body.len - 5));
  r->outcome = GRPC_OK;
  r->body = b + 5;
  r->len = ml;
  return true;
}
