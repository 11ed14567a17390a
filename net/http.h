/*
** http: the HTTPS client used to reach remote providers (issue 7).
**
** libcurl on mbedTLS.  Three objects:
** - HttpEndpoint: the settings of one provider endpoint (from the host
**   configuration) plus a small shared state (rate limiter, counters)
**   made by http_endpoint_init().  Settings are read-only once requests
**   start; the shared state is thread-safe, so every pool worker talks to
**   the same HttpEndpoint.
** - HttpClient: one per pool worker, holding one reusable curl easy handle
**   so connections and TLS sessions are kept alive between calls (TLS
**   handshakes per endpoint <= number of workers).  A client is used by
**   one thread at a time.
** - HttpResponse: status, body (in the caller's arena) and Retry-After.
**
** Security contracts:
** - TLS peer and host-name verification are always on, TLS >= 1.2.
**   CA: the endpoint's ca_file/ca_dir, else SSL_CERT_FILE / SSL_CERT_DIR,
**   else the first existing system bundle; none found is a diagnostic
**   (a static binary has no compiled-in CA path).
** - Plain http:// is allowed only for loopback hosts (127.0.0.0/8, ::1,
**   localhost) or with insecure_http; otherwise a diagnostic, and no
**   network traffic happens.
** - The bearer token, user:password in URLs and request/response bodies
**   never appear in diagnostics or in the log hook.
**
** Failure: http_post_json() returns false and appends one error
** diagnostic naming the endpoint URL (without credentials), the call
** path and the cause (certificate not trusted / expired / host name
** mismatch, connection refused, timeout, TLS handshake failure, public key
** pin mismatch, response too large, truncated response, ...).  An HTTP
** status >= 400 is NOT a transport failure: the call returns true with the
** status set, and the caller interprets the error body.
**
** Memory: the endpoint's shared state and HttpClient structs live in the
** arenas given at creation; libcurl allocates internally (vendored code),
** which http_client_close() and http_endpoint_destroy() give back.
*/
#ifndef CAIRN_HTTP_H
#define CAIRN_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

typedef struct HttpShared HttpShared;

typedef struct HttpEndpoint {
  const char *url;           /* base URL, e.g. https://10.0.0.5:8443/cairn/v1 */
  const char *ca_file;       /* PEM bundle; NULL = default search */
  const char *ca_dir;        /* directory of PEM files; NULL = default */
  const char *client_cert;   /* PEM, for mutual TLS; NULL = none */
  const char *client_key;    /* PEM key of client_cert */
  const char *pinned_pubkey; /* "sha256//BASE64[;sha256//...]" or NULL */
  const char *resolve;       /* optional "host:port:addr" (CURLOPT_RESOLVE) */
  const char *bearer_token;  /* resolved by the caller; never logged */
  long connect_timeout_ms;   /* default 10 s */
  long timeout_ms;           /* whole transfer; default 60 s */
  int max_retries;           /* extra attempts for safe calls; default 4 */
  long backoff_base_ms;      /* first backoff; default 200 ms */
  long backoff_max_ms;       /* cap of one backoff; default 10 s */
  long retry_after_cap_ms;   /* cap on honoured Retry-After; default 60 s */
  double rate_limit;         /* requests/s over all workers; 0 = none */
  size_t max_response;       /* body size limit; default 64 MiB */
  bool insecure_http;        /* allow http:// to non-loopback hosts */
  const char *ca_hint;       /* the settings an untrusted certificate's
                                error points at, as the user names them;
                                NULL: "ca_file / ca_dir" (host config) */
  /* The http state backend's settings (docs/backends.md); NULL/false for
  ** provider endpoints. */
  const char *username;      /* basic auth (with password); never logged */
  const char *password;
  const char *ca_pem;        /* PEM text of the trust anchors (in memory) */
  const char *client_cert_pem;  /* PEM text, mutual TLS */
  const char *client_key_pem;
  bool skip_verify;          /* no peer/host check: only when the caller
                                has the host configuration's opt-in */
  bool retry_5xx;            /* go-retryablehttp's policy: also retry 500
                                and the other 5xx but 501 */
  bool no_jitter;            /* backoff exactly base * 2^n (Terraform's) */
  HttpShared *shared;        /* set by http_endpoint_init */
} HttpEndpoint;

typedef struct HttpResponse {
  long status;               /* HTTP status; 0 when no answer */
  const char *body;          /* NUL-terminated, in the caller's arena */
  size_t len;
  long retry_after_s;        /* Retry-After in seconds, -1 when absent */
  int attempts;              /* 1 + retries made */
} HttpResponse;

typedef struct HttpClient HttpClient;

/* Retry policy of one call (flags of http_post_json). */
enum {
  HTTP_SAFE_TO_RETRY = 1     /* idempotent: retry on connection errors and
                                429/502/503/504 */
};

/* Log hook: the CLI sets one for CAIRN_LOG.  Messages carry method, URL
** path, status, timings and retry decisions only -- never tokens or
** bodies.  Called from worker threads; the hook must be thread-safe. */
typedef enum HttpLogLevel { HTTP_LOG_DEBUG = 1, HTTP_LOG_TRACE = 2 } HttpLogLevel;
typedef void (*HttpLogFn)(void *ctx, HttpLogLevel level, const char *msg);
void http_set_log(HttpLogFn fn, void *ctx);

/* Sleep hook (backoff, Retry-After, rate limit), so tests need not sleep.
** NULL restores the real nanosleep. */
typedef void (*HttpSleepFn)(void *ctx, long ms);

/* Fills e with defaults (all strings NULL) and creates the shared state in
** a (which must outlive every client using e).  Call once per endpoint. */
void http_endpoint_init(HttpEndpoint *e, Arena *a);
/* Releases the shared state's mutex.  No request may be running. */
void http_endpoint_destroy(HttpEndpoint *e);

/* Counters since http_endpoint_init: requests sent (attempts, including
** retries) and new connections (each a TLS handshake for https). */
void http_endpoint_stats(const HttpEndpoint *e, long *requests,
                         long *connections);

/* Makes a client (struct in a).  Returns NULL with a diagnostic if libcurl
** cannot be initialised. */
HttpClient *http_client_new(Arena *a, Diags *d);
void http_client_set_sleep(HttpClient *c, HttpSleepFn fn, void *ctx);
/* Clock hook of the rate limit (seconds on a monotonic scale), so a test
** that fakes sleeping also fakes the time its sleeps pass, and the waits
** do not depend on how fast the machine is.  NULL restores
** CLOCK_MONOTONIC. */
typedef double (*HttpClockFn)(void *ctx);
void http_client_set_clock(HttpClient *c, HttpClockFn fn, void *ctx);
void http_client_close(HttpClient *c);

/* Extra request header lines ("Name: value"), NULL-terminated, sent with
** every following call of this client until replaced (NULL: none).  The
** array and strings are borrowed: keep them alive while calls run.  Used
** for Cairn-Protocol and Idempotency-Key (docs/provider-protocol.md). */
void http_client_set_headers(HttpClient *c, const char *const *lines);

/* "sha256//BASE64" of the SubjectPublicKeyInfo of the leaf certificate
** seen in this client's most recent TLS handshake (the form pin_sha256
** takes), or "" when there was none (plain http, or only reused
** connections so far).  Recorded whatever the verification verdict. */
const char *http_client_peer_key(const HttpClient *c);

/* POSTs body (len bytes of JSON) to e->url + path.  path starts with '/'
** and names the call in diagnostics.  On success out is filled (body in a)
** and true is returned, whatever the HTTP status.  Retries follow flags.
** On failure: false, one diagnostic in d, out->status may be set. */
bool http_post_json(HttpClient *c, const HttpEndpoint *e, const char *path,
                    const char *body, size_t len, unsigned flags,
                    HttpResponse *out, Arena *a, Diags *d);

/* One request of any method (the http state backend's GET, POST, LOCK,
** UNLOCK, DELETE, ...) to e->url exactly.  body may be NULL (no body);
** with a body, Content-Type is application/json unless headers say
** otherwise.  headers: extra lines, NULL-terminated, or NULL.  what names
** the call in the diagnostic ("Failed to <what>").  Same contract as
** http_post_json otherwise: true whenever an answer arrived (any status),
** retries by flags and the endpoint's policy. */
typedef struct HttpRequest {
  const char *method;
  const char *body;
  size_t len;
  const char *const *headers;
  const char *what;
  unsigned flags;
} HttpRequest;
bool http_request(HttpClient *c, const HttpEndpoint *e, const HttpRequest *rq,
                  HttpResponse *out, Arena *a, Diags *d);

/* Checks an endpoint's URL and TLS settings without any network traffic
** (scheme, loopback rule, CA availability).  Diagnostic on failure. */
bool http_endpoint_check(const HttpEndpoint *e, Diags *d);

/* For other libcurl users in net/ (net/fetch.c): initialises libcurl and
** PSA crypto once per process, as http_client_new does; false when that
** failed.  And the trust anchors an endpoint without ca_file / ca_dir
** uses (SSL_CERT_FILE / SSL_CERT_DIR, else the first system bundle);
** false when there is none. */
bool http_global_ready(void);
bool http_default_ca(const char **file, const char **dir);

#endif
