/*
** fetch: the HTTP client of the built-in http data source (libcurl).
**
** fetch_do is the ProvHttpFetchFn the CLI registers with
** prov_http_set_fetcher (core/ cannot include net/).  It makes one
** request as the upstream provider's Go client does (net/http's
** DefaultTransport clone driven by go-retryablehttp):
** - proxies from HTTP_PROXY / HTTPS_PROXY / NO_PROXY, upper case first,
**   then lower case, decided by Go's httpproxy rules (fetch_proxy_for):
**   never for localhost or loopback addresses; NO_PROXY entries are
**   domains (with subdomains), "*", IPs, CIDRs, optionally with a port.
**   libcurl's own environment lookup is switched off, because it ignores
**   upper-case HTTP_PROXY and matches NO_PROXY differently;
** - TLS: verification always on unless insecure; ca_pem replaces the
**   trust anchors, else the host's (SSL_CERT_FILE / SSL_CERT_DIR, then the
**   system bundle, as for remote providers: http_default_ca); TLS >= 1.2;
** - redirects followed (at most 10), "Accept-Encoding: gzip" and
**   transparent decoding as Go's transport, "User-Agent:
**   Go-http-client/1.1", and no Accept / Content-Type of curl's own;
** - retries and waits of go-retryablehttp's DefaultRetryPolicy and
**   DefaultBackoff; its error texts ("GET URL giving up after N
**   attempt(s): Get \"URL\": cause").
** Response headers are collected like Go's Header map: canonical keys
** (textproto.CanonicalMIMEHeaderKey), repeated fields joined with ", ",
** Transfer-Encoding dropped (and Content-Length / Content-Encoding where
** Go drops them); only the final response's headers count.
**
** Memory: everything in the caller's arena; libcurl's own allocations are
** released before fetch_do returns.  Thread-safe (one easy handle per
** call).  Never prints.
*/
#ifndef CAIRN_FETCH_H
#define CAIRN_FETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "providers/provider.h"

void fetch_do(Arena *a, const ProvHttpReq *rq, ProvHttpResp *rs);

/* Go's httpproxy.FromEnvironment().ProxyFunc() for a request to
** scheme://host:port (host without brackets; port 0: the scheme's
** default).  getenv_fn reads the environment (NULL: getenv).  Returns the
** proxy URL ("http://" added when the value has no known scheme) or NULL
** for a direct connection; *err is set (and NULL returned) for
** HTTP_PROXY in a CGI environment (REQUEST_METHOD set). */
typedef const char *(*FetchGetenv)(const char *name);
const char *fetch_proxy_for(Arena *a, FetchGetenv getenv_fn,
                            const char *scheme, const char *host, int port,
                            const char **err);

/* textproto.CanonicalMIMEHeaderKey of s[0..n), in a. */
const char *fetch_canonical_key(Arena *a, const char *s, size_t n);

/* The response header collector (the header callback's parser).  Feed
** every line libcurl delivers, CRLF included or not; a status line
** ("HTTP/...") starts over (redirects, 1xx, proxy CONNECT answers); a
** line holding a NUL byte is ignored. */
typedef struct FetchHdr {
  const char *name;      /* canonical */
  char *value;           /* joined with ", " */
  size_t vlen;
} FetchHdr;
typedef struct FetchHdrs {
  Arena *a;
  FetchHdr *v;
  size_t n, cap;
  long status;           /* from the last status line; 0 before */
  const char *reason;    /* its reason phrase ("" when none) */
} FetchHdrs;
void fetch_hdrs_init(FetchHdrs *h, Arena *a);
void fetch_hdrs_line(FetchHdrs *h, const char *line, size_t n);
/* The value of canonical key name, or NULL. */
const char *fetch_hdrs_get(const FetchHdrs *h, const char *name);
/* Removes canonical key name when present. */
void fetch_hdrs_del(FetchHdrs *h, const char *name);

/* The cause of a failed libcurl transfer (CURLcode rc on easy handle h,
** error buffer eb, to host:port) in Go's words where they are known
** ("dial tcp ...: connect: connection refused", "tls: failed to verify
** certificate: x509: ..."), else eb; in a. */
const char *fetch_go_cause(Arena *a, int rc, void *h, const char *eb,
                           const char *host, int port);
/* Go's time.Duration(ms * time.Millisecond).String(), in a. */
const char *fetch_duration_ms(Arena *a, long long ms);

#endif
