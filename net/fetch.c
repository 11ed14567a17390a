/*
** fetch: the http data source's requests (see fetch.h).
*/
#include "fetch.h"

#include "base/buf.h"
#include "http.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/pk.h>
#include <mbedtls/x509_crt.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Upper bound of a response body kept in memory (Go has none; a data
** source's body lands in the state, so anything near this is a mistake). */
#define MAX_BODY ((size_t)1 << 30)

/* ---- Go's Duration.String for whole milliseconds -------------------------- */

const char *fetch_duration_ms(Arena *a, long long ms)
{
  if (ms == 0)
    return "0s";
  bool neg = ms < 0;
  unsigned long long u = neg ? 0ull - (unsigned long long)ms
                             : (unsigned long long)ms;
  if (u < 1000)
    return arena_printf(a, "%s%llums", neg ? "-" : "", u);
  unsigned long long h = u / 3600000ull, m = u / 60000ull % 60ull;
  unsigned long long s = u / 1000ull % 60ull, frac = u % 1000ull;
  char fs[8] = "";
  if (frac) {
    snprintf(fs, sizeof fs, ".%03llu", frac);
    size_t k = strlen(fs);
    while (fs[k - 1] == '0')
      fs[--k] = 0;
  }
  if (h)
    return arena_printf(a, "%s%lluh%llum%llu%ss", neg ? "-" : "", h, m, s,
                        fs);
  if (m)
    return arena_printf(a, "%s%llum%llu%ss", neg ? "-" : "", m, s, fs);
  return arena_printf(a, "%s%llu%ss", neg ? "-" : "", s, fs);
}

/* ---- Header keys and the collector ---------------------------------------- */

static bool token_byte(unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

const char *fetch_canonical_key(Arena *a, const char *s, size_t n)
{
  char *k = arena_strndup(a, s, n);
  for (size_t i = 0; i < n; i++)
    if (!token_byte((unsigned char)k[i]))
      return k;   /* not a header key: Go leaves it as it is */
  bool upper = true;
  for (size_t i = 0; i < n; i++) {
    char c = k[i];
    if (upper && c >= 'a' && c <= 'z')
      c = (char)(c - 32);
    else if (!upper && c >= 'A' && c <= 'Z')
      c = (char)(c + 32);
    k[i] = c;
    upper = c == '-';
  }
  return k;
}

void fetch_hdrs_init(FetchHdrs *h, Arena *a)
{
  memset(h, 0, sizeof *h);
  h->a = a;
  h->reason = "";
}

static bool is_ws(char c) { return c == ' ' || c == '\t'; }

static void append_value(FetchHdrs *h, FetchHdr *f, const char *sep,
                         const char *v, size_t vn)
{
  size_t sn = strlen(sep);
  char *nv = ARENA_NEW(h->a, char, f->vlen + sn + vn + 1);
  memcpy(nv, f->value, f->vlen);
  memcpy(nv + f->vlen, sep, sn);
  memcpy(nv + f->vlen + sn, v, vn);
  f->vlen += sn + vn;
  nv[f->vlen] = 0;
  f->value = nv;
}

void fetch_hdrs_line(FetchHdrs *h, const char *line, size_t n)
{
  while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
    n--;
  /* A NUL cannot be kept in the C strings the values become; no valid
  ** field has one (Go's reader refuses such an answer), so the line is
  ** left out. */
  if (memchr(line, 0, n))
    return;
  if (n >= 5 && memcmp(line, "HTTP/", 5) == 0) {
    /* A new response: the previous one's headers were a redirect's, an
    ** interim 1xx's or the proxy's. */
    h->n = 0;
    h->status = 0;
    h->reason = "";
    size_t i = 5;
    while (i < n && line[i] != ' ')
      i++;
    while (i < n && line[i] == ' ')
      i++;
    long st = 0;
    size_t d = 0;
    while (i < n && d < 3 && line[i] >= '0' && line[i] <= '9') {
      st = st * 10 + (line[i] - '0');
      i++;
      d++;
    }
    h->status = d == 3 ? st : 0;
    while (i < n && line[i] == ' ')
      i++;
    h->reason = arena_strndup(h->a, line + i, n - i);
    return;
  }
  if (n == 0)
    return;
  if (is_ws(line[0])) {
    /* obs-fold: a continuation of the previous field's value. */
    if (h->n == 0)
      return;
    size_t i = 0;
    while (i < n && is_ws(line[i]))
      i++;
    size_t e = n;
    while (e > i && is_ws(line[e - 1]))
      e--;
    append_value(h, &h->v[h->n - 1], " ", line + i, e - i);
    return;
  }
  const char *colon = memchr(line, ':', n);
  if (!colon || colon == line)
    return;   /* Go refuses such a response; libcurl has accepted it */
  size_t kn = (size_t)(colon - line);
  const char *key = fetch_canonical_key(h->a, line, kn);
  size_t i = kn + 1, e = n;
  while (i < e && is_ws(line[i]))
    i++;
  while (e > i && is_ws(line[e - 1]))
    e--;
  for (size_t k = 0; k < h->n; k++)
    if (strcmp(h->v[k].name, key) == 0) {
      append_value(h, &h->v[k], ", ", line + i, e - i);
      return;
    }
  if (h->n == h->cap) {
    size_t nc = h->cap ? h->cap * 2 : 16;
    FetchHdr *nv = ARENA_NEW(h->a, FetchHdr, nc);
    if (h->n)
      memcpy(nv, h->v, sizeof(FetchHdr) * h->n);
    h->v = nv;
    h->cap = nc;
  }
  FetchHdr *f = &h->v[h->n++];
  f->name = key;
  f->value = arena_strndup(h->a, line + i, e - i);
  f->vlen = e - i;
}

const char *fetch_hdrs_get(const FetchHdrs *h, const char *name)
{
  for (size_t k = 0; k < h->n; k++)
    if (strcmp(h->v[k].name, name) == 0)
      return h->v[k].value;
  return NULL;
}

void fetch_hdrs_del(FetchHdrs *h, const char *name)
{
  for (size_t k = 0; k < h->n; k++)
    if (strcmp(h->v[k].name, name) == 0) {
      memmove(&h->v[k], &h->v[k + 1], sizeof(FetchHdr) * (h->n - k - 1));
      h->n--;
      return;
    }
}

/* ---- Proxies: golang.org/x/net/http/httpproxy ------------------------------ */

static const char *env_any(FetchGetenv g, const char *upper,
                           const char *lower)
{
  const char *v = g(upper);
  if (v && *v)
    return v;
  v = g(lower);
  return v && *v ? v : NULL;
}

static const char *parse_proxy(Arena *a, const char *v)
{
  if (!v)
    return NULL;
  /* url.Parse, then "http://" + v when the scheme is not one Go knows. */
  static const char *const known[] = {"http://", "https://", "socks5://"};
  for (int i = 0; i < 3; i++)
    if (strncasecmp(v, known[i], strlen(known[i])) == 0) {
      if (i == 2)   /* Go's SOCKS5 dialer resolves names at the proxy */
        return arena_printf(a, "socks5h://%s", v + strlen(known[i]));
      return v;
    }
  return arena_printf(a, "http://%s", v);
}

/* An IP address in 16 bytes (IPv4 mapped); false when s is none. */
static bool parse_ip(const char *s, unsigned char ip[16])
{
  struct in_addr v4;
  if (inet_pton(AF_INET, s, &v4) == 1) {
    memset(ip, 0, 10);
    ip[10] = ip[11] = 0xff;
    memcpy(ip + 12, &v4, 4);
    return true;
  }
  return inet_pton(AF_INET6, s, ip) == 1;
}

static bool is_v4(const unsigned char ip[16])
{
  static const unsigned char pfx[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                        0xff, 0xff};
  return memcmp(ip, pfx, 12) == 0;
}

static bool is_loopback(const unsigned char ip[16])
{
  static const unsigned char v6lo[16] = {0, 0, 0, 0, 0, 0, 0, 0,
                                         0, 0, 0, 0, 0, 0, 0, 1};
  return (is_v4(ip) && ip[12] == 127) || memcmp(ip, v6lo, 16) == 0;
}

/* net.ParseCIDR's match of ip against "addr/bits". */
static bool cidr_match(const char *p, const unsigned char ip[16],
                       bool *is_cidr)
{
  *is_cidr = false;
  const char *sl = strchr(p, '/');
  if (!sl)
    return false;
  char addr[64];
  size_t an = (size_t)(sl - p);
  if (an == 0 || an >= sizeof addr)
    return false;
  memcpy(addr, p, an);
  addr[an] = 0;
  unsigned char net[16];
  if (!parse_ip(addr, net))
    return false;
  char *end;
  errno = 0;
  long bits = strtol(sl + 1, &end, 10);
  if (errno || *end || end == sl + 1 || bits < 0)
    return false;
  bool v4 = strchr(addr, ':') == NULL;
  if (bits > (v4 ? 32 : 128))
    return false;
  *is_cidr = true;
  if (v4 != is_v4(ip))
    return false;
  long total = v4 ? bits + 96 : bits;
  for (long i = 0; i < total; i++) {
    int byte = (int)(i / 8), bit = 7 - (int)(i % 8);
    if (((net[byte] >> bit) & 1) != ((ip[byte] >> bit) & 1))
      return false;
  }
  return true;
}

/* net.SplitHostPort for a NO_PROXY entry: "host:port", "[v6]:port";
** false when there is no port part. */
static bool split_host_port(Arena *a, const char *p, const char **host,
                            const char **port)
{
  if (p[0] == '[') {
    const char *rb = strchr(p, ']');
    if (!rb || rb[1] != ':')
      return false;
    *host = arena_strndup(a, p + 1, (size_t)(rb - p - 1));
    *port = rb + 2;
    return true;
  }
  const char *c = strchr(p, ':');
  if (!c || strchr(c + 1, ':'))
    return false;
  *host = arena_strndup(a, p, (size_t)(c - p));
  *port = c + 1;
  return true;
}

static bool ends_with(const char *s, const char *suf)
{
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && memcmp(s + n - m, suf, m) == 0;
}

/* useProxy: false when NO_PROXY (or the loopback rule) exempts the
** address. */
static bool use_proxy(Arena *a, const char *no_proxy, const char *host,
                      const char *port)
{
  if (strcmp(host, "localhost") == 0)
    return false;
  unsigned char ip[16];
  bool has_ip = parse_ip(host, ip);
  if (has_ip && is_loopback(ip))
    return false;
  char *lhost = arena_strdup(a, host);
  for (char *q = lhost; *q; q++)
    if (*q >= 'A' && *q <= 'Z')
      *q = (char)(*q + 32);
  if (!no_proxy)
    return true;
  const char *s = no_proxy;
  while (*s) {
    const char *e = strchr(s, ',');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    char *p = arena_strndup(a, s, n);
    s += n + (e ? 1 : 0);
    /* strings.ToLower(strings.TrimSpace(p)) */
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
      p++;
    size_t pn = strlen(p);
    while (pn && (p[pn - 1] == ' ' || p[pn - 1] == '\t' ||
                  p[pn - 1] == '\n' || p[pn - 1] == '\r'))
      p[--pn] = 0;
    for (char *q = p; *q; q++)
      if (*q >= 'A' && *q <= 'Z')
        *q = (char)(*q + 32);
    if (!*p)
      continue;
    if (strcmp(p, "*") == 0)
      return false;
    bool is_cidr;
    bool m = has_ip && cidr_match(p, ip, &is_cidr);
    if (m)
      return false;
    if (strchr(p, '/')) {
      cidr_match(p, ip, &is_cidr);
      if (is_cidr)
        continue;
    }
    const char *phost = p, *pport = "";
    if (split_host_port(a, p, &phost, &pport)) {
      if (!*phost)
        continue;
    } else {
      phost = p;
      pport = "";
    }
    unsigned char pip[16];
    if (parse_ip(phost, pip)) {
      if (has_ip && memcmp(pip, ip, 16) == 0 &&
          (!*pport || strcmp(pport, port) == 0))
        return false;
      continue;
    }
    if (!*phost)
      continue;
    if (phost[0] == '*' && phost[1] == '.')
      phost++;
    bool match_host = phost[0] != '.';
    const char *dom = match_host ? arena_printf(a, ".%s", phost) : phost;
    if ((ends_with(lhost, dom) || (match_host && strcmp(lhost, dom + 1) == 0))
        && (!*pport || strcmp(pport, port) == 0))
      return false;
  }
  return true;
}

static const char *sys_getenv(const char *name) { return getenv(name); }

const char *fetch_proxy_for(Arena *a, FetchGetenv getenv_fn,
                            const char *scheme, const char *host, int port,
                            const char **err)
{
  FetchGetenv g = getenv_fn ? getenv_fn : sys_getenv;
  *err = NULL;
  const char *proxy = NULL;
  if (strcasecmp(scheme, "https") == 0) {
    proxy = parse_proxy(a, env_any(g, "HTTPS_PROXY", "https_proxy"));
  } else if (strcasecmp(scheme, "http") == 0) {
    proxy = parse_proxy(a, env_any(g, "HTTP_PROXY", "http_proxy"));
    const char *cgi = g("REQUEST_METHOD");
    if (proxy && cgi && *cgi) {
      *err = "refusing to use HTTP_PROXY value in CGI environment; see "
             "golang.org/s/cgihttpproxy";
      return NULL;
    }
  }
  if (!proxy)
    return NULL;
  if (port <= 0)
    port = strcasecmp(scheme, "https") == 0 ? 443 : 80;
  const char *ps = arena_printf(a, "%d", port);
  if (!use_proxy(a, env_any(g, "NO_PROXY", "no_proxy"), host, ps))
    return NULL;
  return proxy;
}

/* ---- TLS material checks (what Go refuses before any request) ------------- */

/* x509.CertPool.AppendCertsFromPEM: true when at least one certificate
** parses. */
static bool pem_has_cert(const char *pem)
{
  mbedtls_x509_crt crt;
  mbedtls_x509_crt_init(&crt);
  int rc = mbedtls_x509_crt_parse(&crt, (const unsigned char *)pem,
                                  strlen(pem) + 1);
  bool ok = rc >= 0 && crt.version != 0;
  mbedtls_x509_crt_free(&crt);
  return ok;
}

/* tls.X509KeyPair's checks, with its error texts; NULL when usable. */
static const char *keypair_error(const char *cert, const char *key)
{
  if (!strstr(cert, "-----BEGIN"))
    return "tls: failed to find any PEM data in certificate input";
  if (!strstr(key, "-----BEGIN"))
    return "tls: failed to find any PEM data in key input";
  mbedtls_x509_crt crt;
  mbedtls_pk_context pk;
  mbedtls_entropy_context ent;
  mbedtls_ctr_drbg_context drbg;
  mbedtls_x509_crt_init(&crt);
  mbedtls_pk_init(&pk);
  mbedtls_entropy_init(&ent);
  mbedtls_ctr_drbg_init(&drbg);
  const char *err = NULL;
  if (mbedtls_x509_crt_parse(&crt, (const unsigned char *)cert,
                             strlen(cert) + 1) < 0 || crt.version == 0)
    err = "x509: malformed certificate";
  else if (mbedtls_ctr_drbg_seed(&drbg, mbedtls_entropy_func, &ent, NULL,
                                 0) != 0)
    err = "tls: cannot seed the random generator";
  else if (mbedtls_pk_parse_key(&pk, (const unsigned char *)key,
                                strlen(key) + 1, NULL, 0,
                                mbedtls_ctr_drbg_random, &drbg) != 0)
    err = "tls: failed to parse private key";
  else if (mbedtls_pk_check_pair(&crt.pk, &pk, mbedtls_ctr_drbg_random,
                                 &drbg) != 0)
    err = "tls: private key does not match public key";
  mbedtls_ctr_drbg_free(&drbg);
  mbedtls_entropy_free(&ent);
  mbedtls_pk_free(&pk);
  mbedtls_x509_crt_free(&crt);
  return err;
}

/* ---- One attempt ------------------------------------------------------------ */

typedef struct Xfer {
  Arena *a;
  Buf body;
  bool too_large;
  FetchHdrs hdrs;
  atomic_bool *stopping;
} Xfer;

static size_t on_body(char *p, size_t sz, size_t n, void *ud)
{
  Xfer *x = ud;
  size_t len = sz * n;
  if (len > MAX_BODY - x->body.len) {
    x->too_large = true;
    return 0;
  }
  buf_put(&x->body, p, len);
  return len;
}

static size_t on_header(char *p, size_t sz, size_t n, void *ud)
{
  Xfer *x = ud;
  fetch_hdrs_line(&x->hdrs, p, sz * n);
  return sz * n;
}

static int on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut,
                       curl_off_t un)
{
  (void)dt, (void)dn, (void)ut, (void)un;
  Xfer *x = ud;
  return x->stopping && atomic_load(x->stopping) ? 1 : 0;
}

/* net/http's url.Error operation: "Get", "Post", "Head". */
static const char *url_op(Arena *a, const char *method)
{
  char *s = arena_strdup(a, method);
  for (char *q = s + (*s ? 1 : 0); *q; q++)
    if (*q >= 'A' && *q <= 'Z')
      *q = (char)(*q + 32);
  return s;
}

/* URL.Redacted: a password in the user information becomes "xxxxx". */
static const char *redacted(Arena *a, const char *url)
{
  const char *ss = strstr(url, "://");
  if (!ss)
    return url;
  const char *auth = ss + 3;
  size_t an = strcspn(auth, "/?#");
  const char *at = NULL;
  for (size_t i = 0; i < an; i++)
    if (auth[i] == '@')
      at = auth + i;
  if (!at)
    return url;
  const char *colon = memchr(auth, ':', (size_t)(at - auth));
  if (!colon)
    return url;
  return arena_printf(a, "%.*sxxxxx%s", (int)(colon + 1 - url), url, at);
}

typedef enum Outcome {
  OUT_ANSWER,          /* a response arrived */
  OUT_RETRY_ERR,       /* transport error go-retryablehttp retries */
  OUT_FINAL_ERR,       /* transport error it does not retry */
  OUT_TIMEOUT          /* Client.Timeout (retried as an error) */
} Outcome;

/* The cause of a failed transfer in Go's words where they are known. */
static const char *go_cause(Arena *a, CURLcode rc, CURL *h, const char *eb,
                            const char *host, int port, bool *retry)
{
  *retry = true;
  long os_errno = 0;
  curl_easy_getinfo(h, CURLINFO_OS_ERRNO, &os_errno);
  switch (rc) {
  case CURLE_COULDNT_RESOLVE_HOST:
    return arena_printf(a, "dial tcp: lookup %s: no such host", host);
  case CURLE_COULDNT_RESOLVE_PROXY:
    return arena_printf(a, "proxyconnect tcp: dial tcp: lookup: %s", eb);
  case CURLE_COULDNT_CONNECT: {
    char *ip = NULL;
    long pport = 0;
    curl_easy_getinfo(h, CURLINFO_PRIMARY_IP, &ip);
    curl_easy_getinfo(h, CURLINFO_PRIMARY_PORT, &pport);
    const char *addr = ip && *ip
        ? arena_printf(a, strchr(ip, ':') ? "[%s]:%ld" : "%s:%ld", ip,
                       pport ? pport : (long)port)
        : arena_printf(a, "%s:%d", host, port);
    if (os_errno == ECONNREFUSED)
      return arena_printf(a, "dial tcp %s: connect: connection refused",
                          addr);
    return arena_printf(a, "dial tcp %s: %s", addr, eb);
  }
  case CURLE_PEER_FAILED_VERIFICATION:
    *retry = false;
    if (strstr(eb, "EXPIRED") || strstr(eb, "FUTURE"))
      return "tls: failed to verify certificate: x509: certificate has "
             "expired or is not yet valid";
    if (strstr(eb, "CN_MISMATCH"))
      return arena_printf(a, "tls: failed to verify certificate: x509: "
                          "certificate is not valid for %s", host);
    return "tls: failed to verify certificate: x509: certificate signed "
           "by unknown authority";
  case CURLE_TOO_MANY_REDIRECTS:
    *retry = false;
    return "stopped after 10 redirects";
  case CURLE_ABORTED_BY_CALLBACK:
    *retry = false;
    return "context canceled";
  case CURLE_SSL_CONNECT_ERROR:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
    if (strstr(eb, "ALERT") || strstr(eb, "alert"))
      return arena_printf(a, "remote error: tls: certificate required or "
                          "refused (%s)", eb);
    return arena_printf(a, "tls or connection error: %s", eb);
  case CURLE_GOT_NOTHING:
    return "EOF";
  case CURLE_UNSUPPORTED_PROTOCOL:
    *retry = false;
    return eb;
  default:
    return eb;
  }
}

const char *fetch_go_cause(Arena *a, int rc, void *h, const char *eb,
                           const char *host, int port)
{
  bool retry;
  return go_cause(a, (CURLcode)rc, h, eb, host, port, &retry);
}

/* ---- The request ------------------------------------------------------------ */

static void sleep_ms(atomic_bool *stopping, long long ms)
{
  while (ms > 0 && !(stopping && atomic_load(stopping))) {
    long long step = ms > 50 ? 50 : ms;
    struct timespec ts = {(time_t)(step / 1000), (long)(step % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    ms -= step;
  }
}

/* The scheme of url (lower case), "" when it has none: what url.Parse
** takes for one. */
static const char *url_scheme(Arena *a, const char *url)
{
  size_t i = 0;
  if (!((url[0] >= 'a' && url[0] <= 'z') || (url[0] >= 'A' && url[0] <= 'Z')))
    return "";
  while (url[i] && url[i] != ':') {
    char c = url[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))
      return "";
    i++;
  }
  if (url[i] != ':')
    return "";
  char *s = arena_strndup(a, url, i);
  for (char *q = s; *q; q++)
    if (*q >= 'A' && *q <= 'Z')
      *q = (char)(*q + 32);
  return s;
}

static bool has_header(const ProvHttpReq *rq, const char *name)
{
  for (uint32_t i = 0; i < rq->nheaders; i++)
    if (strcasecmp(rq->header_names[i], name) == 0)
      return true;
  return false;
}

static void fail(ProvHttpResp *rs, ProvHttpFail f, const char *err)
{
  rs->fail = f;
  rs->err = err;
}

void fetch_do(Arena *a, const ProvHttpReq *rq, ProvHttpResp *rs)
{
  memset(rs, 0, sizeof *rs);
  const char *url = rq->url;
  const char *shown = redacted(a, url);
  const char *op = url_op(a, rq->method);
  const char *give_up = "giving up after";
  if (rq->ca_pem && !pem_has_cert(rq->ca_pem)) {
    fail(rs, PROV_HTTP_FAIL_CA, NULL);
    return;
  }
  if (rq->client_cert_pem && rq->client_key_pem) {
    const char *e = keypair_error(rq->client_cert_pem, rq->client_key_pem);
    if (e) {
      fail(rs, PROV_HTTP_FAIL_KEYPAIR, e);
      return;
    }
  }
  if (!http_global_ready()) {
    fail(rs, PROV_HTTP_FAIL_DO, "libcurl could not be initialised");
    return;
  }
  const char *scheme = url_scheme(a, url);
  if (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0) {
    fail(rs, PROV_HTTP_FAIL_DO,
         arena_printf(a, "%s %s %s 1 attempt(s): %s \"%s\": unsupported "
                      "protocol scheme \"%s\"", rq->method, shown, give_up,
                      op, shown, scheme));
    return;
  }
  CURLU *u = curl_url();
  char *host = NULL, *portstr = NULL;
  if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
      curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
    if (u)
      curl_url_cleanup(u);
    fail(rs, PROV_HTTP_FAIL_REQUEST,
         arena_printf(a, "parse \"%s\": invalid URL", shown));
    return;
  }
  int port = 0;
  if (curl_url_get(u, CURLUPART_PORT, &portstr, CURLU_DEFAULT_PORT) ==
      CURLUE_OK && portstr)
    port = (int)strtol(portstr, NULL, 10);
  /* curl keeps the brackets of an IPv6 host. */
  const char *h = host;
  if (h[0] == '[') {
    h = arena_strndup(a, h + 1, strlen(h) - 2);
  } else {
    h = arena_strdup(a, h);
  }
  curl_free(host);
  curl_free(portstr);
  curl_url_cleanup(u);

  const char *perr;
  const char *proxy = fetch_proxy_for(a, NULL, scheme, h, port, &perr);
  if (perr) {
    fail(rs, PROV_HTTP_FAIL_DO,
         arena_printf(a, "%s %s %s 1 attempt(s): %s \"%s\": %s", rq->method,
                      shown, give_up, op, shown, perr));
    return;
  }

  CURL *c = curl_easy_init();
  if (!c) {
    fail(rs, PROV_HTTP_FAIL_DO, "libcurl could not create a handle");
    return;
  }
  const char *ca_file = NULL, *ca_dir = NULL;
  if (strcmp(scheme, "https") == 0 && !rq->ca_pem && !rq->insecure &&
      !http_default_ca(&ca_file, &ca_dir)) {
    /* A static binary has no compiled-in trust store: say so rather
    ** than let every certificate look untrusted. */
    curl_easy_cleanup(c);
    fail(rs, PROV_HTTP_FAIL_DO,
         arena_printf(a, "%s %s %s 1 attempt(s): %s \"%s\": tls: failed "
                      "to verify certificate: x509: certificate signed by "
                      "unknown authority (this host has no CA bundle: set "
                      "SSL_CERT_FILE or SSL_CERT_DIR, or ca_cert_pem)",
                      rq->method, shown, give_up, op, shown));
    return;
  }
  bool gzip_ours = !has_header(rq, "Accept-Encoding") &&
                   !has_header(rq, "Range") &&
                   strcmp(rq->method, "HEAD") != 0;
  struct curl_slist *hdr = NULL;
  for (uint32_t i = 0; i < rq->nheaders; i++) {
    const char *k = fetch_canonical_key(a, rq->header_names[i],
                                        strlen(rq->header_names[i]));
    /* "Name;" sends an empty value; "Name:" would remove the header. */
    hdr = curl_slist_append(hdr, *rq->header_values[i]
        ? arena_printf(a, "%s: %s", k, rq->header_values[i])
        : arena_printf(a, "%s;", k));
  }
  /* Go sends no Accept and no Content-Type of its own, and never waits
  ** for 100-continue. */
  if (!has_header(rq, "Accept"))
    hdr = curl_slist_append(hdr, "Accept:");
  if (!has_header(rq, "Content-Type"))
    hdr = curl_slist_append(hdr, "Content-Type:");
  hdr = curl_slist_append(hdr, "Expect:");
  if (!has_header(rq, "User-Agent"))
    hdr = curl_slist_append(hdr, "User-Agent: Go-http-client/1.1");
  char errbuf[CURL_ERROR_SIZE];

  int64_t attempts = 0;
  for (int64_t i = 0;; i++) {
    Xfer x = {.a = a, .stopping = rq->stopping};
    buf_init(&x.body, a);
    fetch_hdrs_init(&x.hdrs, a);
    errbuf[0] = 0;
    curl_easy_reset(c);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    /* OBEYCODE: a redirect changes the method as Go's client does (301,
    ** 302 and 303 turn a POST into a GET), custom method or not. */
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, CURLFOLLOW_OBEYCODE);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_PROXY, proxy ? proxy : "");
    if (strcmp(rq->method, "HEAD") == 0)
      curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    bool post = strcmp(rq->method, "POST") == 0;
    if (rq->body || post) {
      /* Go sends "Content-Length: 0" for a POST without a body. */
      curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
                       (curl_off_t)(rq->body ? rq->body_len : 0));
      curl_easy_setopt(c, CURLOPT_POSTFIELDS, rq->body ? rq->body : "");
    }
    /* libcurl picks POST for a body and HEAD for NOBODY by itself; only a
    ** GET or HEAD with a body needs the method named. */
    if (rq->body && !post)
      curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, rq->method);
    if (gzip_ours)
      curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "gzip");
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &x);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &x);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &x);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    if (rq->timeout_ms > 0)
      curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)rq->timeout_ms);
    curl_easy_setopt(c, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, rq->insecure ? 0L : 1L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, rq->insecure ? 0L : 2L);
    if (rq->ca_pem) {
      struct curl_blob b = {(void *)rq->ca_pem, strlen(rq->ca_pem),
                            CURL_BLOB_COPY};
      curl_easy_setopt(c, CURLOPT_CAINFO_BLOB, &b);
      curl_easy_setopt(c, CURLOPT_CAINFO, NULL);
      curl_easy_setopt(c, CURLOPT_CAPATH, NULL);
    } else {
      curl_easy_setopt(c, CURLOPT_CAINFO, ca_file);
      curl_easy_setopt(c, CURLOPT_CAPATH, ca_dir);
    }
    if (rq->client_cert_pem && rq->client_key_pem) {
      struct curl_blob cb = {(void *)rq->client_cert_pem,
                             strlen(rq->client_cert_pem), CURL_BLOB_COPY};
      /* mbedTLS wants the key's terminating NUL inside the blob. */
      struct curl_blob kb = {(void *)rq->client_key_pem,
                             strlen(rq->client_key_pem) + 1, CURL_BLOB_COPY};
      curl_easy_setopt(c, CURLOPT_SSLCERT_BLOB, &cb);
      curl_easy_setopt(c, CURLOPT_SSLCERTTYPE, "PEM");
      curl_easy_setopt(c, CURLOPT_SSLKEY_BLOB, &kb);
      curl_easy_setopt(c, CURLOPT_SSLKEYTYPE, "PEM");
    }
    CURLcode rc = curl_easy_perform(c);
    attempts = i + 1;
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    bool retry = false;
    const char *cause = NULL;
    bool timeout = false;
    if (rc == CURLE_OK) {
      /* DefaultRetryPolicy on an answer: 429, and 5xx but 501 (and the
      ** impossible 0). */
      if (status == 429) {
        retry = true;
      } else if (status == 0 || (status >= 500 && status != 501)) {
        retry = true;
        cause = arena_printf(a, "unexpected HTTP status %ld%s%s", status,
                             *x.hdrs.reason ? " " : "", x.hdrs.reason);
      }
      if (!retry || i >= rq->retry_max) {
        if (retry) {
          const char *m = cause
              ? arena_printf(a, "%s %s %s %lld attempt(s): %s", rq->method,
                             shown, give_up, (long long)attempts, cause)
              : arena_printf(a, "%s %s %s %lld attempt(s)", rq->method,
                             shown, give_up, (long long)attempts);
          fail(rs, PROV_HTTP_FAIL_DO, m);
          break;
        }
        FetchHdrs *hs = &x.hdrs;
        fetch_hdrs_del(hs, "Transfer-Encoding");
        if (gzip_ours) {
          const char *ce = fetch_hdrs_get(hs, "Content-Encoding");
          if (ce && strcasecmp(ce, "gzip") == 0) {
            fetch_hdrs_del(hs, "Content-Encoding");
            fetch_hdrs_del(hs, "Content-Length");
          }
        }
        const char **names = ARENA_NEW(a, const char *, hs->n + 1);
        const char **vals = ARENA_NEW(a, const char *, hs->n + 1);
        for (size_t k = 0; k < hs->n; k++) {
          names[k] = hs->v[k].name;
          vals[k] = hs->v[k].value;
        }
        rs->header_names = names;
        rs->header_values = vals;
        rs->nheaders = (uint32_t)hs->n;
        rs->status = status;
        rs->body = buf_str(&x.body);
        rs->len = x.body.len;
        break;
      }
    } else {
      const char *eb = errbuf[0] ? errbuf : curl_easy_strerror(rc);
      if (x.too_large) {
        retry = false;
        cause = "the response body is larger than 1 GiB";
      } else if (rc == CURLE_OPERATION_TIMEDOUT) {
        timeout = true;
        retry = true;
        cause = "context deadline exceeded (Client.Timeout exceeded while "
                "awaiting headers)";
      } else {
        cause = go_cause(a, rc, c, eb, h, port, &retry);
      }
      cause = arena_printf(a, "%s \"%s\": %s", op, shown, cause);
      if (!retry || i >= rq->retry_max ||
          (rq->stopping && atomic_load(rq->stopping))) {
        const char *m = arena_printf(a, "%s %s %s %lld attempt(s): %s",
                                     rq->method, shown, give_up,
                                     (long long)attempts, cause);
        if (timeout)
          fail(rs, PROV_HTTP_FAIL_TIMEOUT,
               arena_printf(a, "request exceeded the specified timeout: "
                            "%s, err: %s",
                            fetch_duration_ms(a, rq->timeout_ms), m));
        else
          fail(rs, PROV_HTTP_FAIL_DO, m);
        break;
      }
    }
    /* DefaultBackoff: Retry-After (seconds) on 429/503, else
    ** min * 2^i capped at max. */
    long long wait = -1;
    if (rc == CURLE_OK && (status == 429 || status == 503)) {
      const char *ra = fetch_hdrs_get(&x.hdrs, "Retry-After");
      char *end;
      if (ra && *ra) {
        errno = 0;
        long long sec = strtoll(ra, &end, 10);
        if (!errno && !*end && sec >= 0 && sec < 86400LL * 365)
          wait = sec * 1000;
      }
    }
    if (wait < 0) {
      double mult = (double)rq->retry_min_ms;
      for (int64_t k = 0; k < i && mult <= (double)rq->retry_max_ms; k++)
        mult *= 2;
      wait = mult > (double)rq->retry_max_ms ? rq->retry_max_ms
                                             : (long long)mult;
    }
    sleep_ms(rq->stopping, wait);
  }
  curl_slist_free_all(hdr);
  curl_easy_cleanup(c);
}
