/*
** httpd: a small HTTP/1.1 server over TLS (mbedTLS), for `cairn gateway`.
**
** Two halves:
** - httpd_parse (httpd.c): the request-head parser, a pure function on
**   bytes (fuzzed by tests/fuzz/fuzz_httpd.c).  It accepts what the
**   provider protocol needs: a request line "METHOD SP TARGET SP
**   HTTP/1.x", header fields "name: value" (no obsolete line folding),
**   Content-Length (one value, digits only), Connection.  Transfer-Encoding
**   is refused (HTTPD_UNSUPPORTED: clients send a Content-Length), as is
**   anything ambiguous (two differing Content-Lengths, a space before the
**   colon, control characters).  HTTP/1.1 keeps the connection alive
**   unless "Connection: close"; HTTP/1.0 closes unless "keep-alive".
** - the server (httpd_tls.c): listens on one TCP address, shakes hands
**   with TLS 1.2 or 1.3 (optionally requiring a client certificate signed
**   by a CA: mutual TLS), and hands each complete request to the handler
**   on a worker of a fixed-size thread pool (core/base/pool.h).  Idle
**   keep-alive connections wait in the owner thread's poll(), not on a
**   worker, so a client's idle connections never hold a thread.  Heads
**   above HTTPD_MAX_HEAD and bodies above max_body are answered 431/413
**   and the connection closed; a malformed head gets 400.
**
** Memory: the Httpd lives in the arena given to httpd_new.  Each
** connection has an arena, rewound after every request: the handler's
** allocations (HttpdExchange.arena) live until its answer is sent.  TLS
** contexts are mbedTLS's own allocations, freed when the connection
** closes.
**
** Threads: httpd_run runs on the calling thread (the pool's owner) until
** httpd_stop; the handler runs on pool workers, concurrently.
** httpd_stop is async-signal-safe: it may be called from a signal
** handler.  On stop, the listener closes at once, idle connections are
** closed, running requests finish and their connections close, then
** httpd_run returns.
*/
#ifndef CAIRN_HTTPD_H
#define CAIRN_HTTPD_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

#define HTTPD_MAX_HEAD 16384      /* request line + headers */
#define HTTPD_MAX_HEADERS 64

typedef struct HttpdHeader {
  const char *name;               /* as sent (compare case-insensitively) */
  const char *value;              /* surrounding whitespace removed */
} HttpdHeader;

typedef struct HttpdRequest {
  const char *method;
  const char *target;             /* the request target, "/a/b?c" */
  int minor;                      /* HTTP/1.minor */
  HttpdHeader headers[HTTPD_MAX_HEADERS];
  int nheaders;
  size_t content_length;          /* 0 when absent */
  bool keep_alive;
  size_t head_len;                /* bytes of the head, final CRLFCRLF
                                     included: the body starts there */
} HttpdRequest;

typedef enum HttpdParse {
  HTTPD_OK,
  HTTPD_INCOMPLETE,               /* no end of head yet: read more */
  HTTPD_BAD,                      /* 400 */
  HTTPD_HEAD_TOO_LARGE,           /* 431 */
  HTTPD_UNSUPPORTED               /* 501 (Transfer-Encoding, HTTP/2...) */
} HttpdParse;

/* Parses the head at buf[0..len).  Strings go to a.  On HTTPD_BAD and
** HTTPD_UNSUPPORTED, *why (static text) says what was wrong.  A head not
** complete within HTTPD_MAX_HEAD bytes is HTTPD_HEAD_TOO_LARGE. */
HttpdParse httpd_parse(Arena *a, const char *buf, size_t len,
                       HttpdRequest *r, const char **why);

/* The value of header name (case-insensitive), or NULL. */
const char *httpd_header(const HttpdRequest *r, const char *name);

/* One request, as the handler sees it. */
typedef struct HttpdExchange {
  const HttpdRequest *req;
  const char *body;               /* NUL-terminated copy */
  size_t body_len;
  const char *peer;               /* "127.0.0.1:40312" */
  const char *client_cn;          /* CN of the verified client
                                     certificate, or NULL */
  Arena *arena;                   /* until the answer is sent */
  /* The answer, filled by the handler: */
  int status;                     /* 0: 500 */
  Buf body_out;                   /* initialised on the arena */
  const char *content_type;       /* NULL: application/json */
  const char *retry_after;        /* Retry-After value, or NULL */
} HttpdExchange;

typedef void (*HttpdHandler)(void *ctx, HttpdExchange *x);

typedef struct HttpdConfig {
  const char *listen;             /* "host:port" (port 0: any) */
  const char *cert_file;          /* PEM chain */
  const char *key_file;
  const char *client_ca_file;     /* NULL: no client certificates */
  int threads;                    /* pool workers: requests at once */
  int max_connections;            /* open connections (more are refused) */
  size_t max_body;                /* request body limit */
  long keepalive_ms;              /* idle keep-alive connections close */
  long io_timeout_ms;             /* a stalled read or write gives up */
  HttpdHandler handler;
  void *ctx;
} HttpdConfig;

typedef struct Httpd Httpd;

/* Loads the certificates and key, binds and listens.  NULL with
** diagnostics on failure.  c (and its strings) must outlive the server. */
Httpd *httpd_new(Arena *a, const HttpdConfig *c, Diags *d);

/* The port listened on (useful with port 0). */
int httpd_port(const Httpd *h);

/* Serves until httpd_stop, then drains (see above) and frees the TLS
** state: an Httpd serves once.  Returns false with diagnostics when the
** thread pool cannot start. */
bool httpd_run(Httpd *h, Diags *d);

/* Asks httpd_run to stop; async-signal-safe. */
void httpd_stop(Httpd *h);

/* The text of an HTTP status code ("Not Found"). */
const char *httpd_reason(int status);

#endif
