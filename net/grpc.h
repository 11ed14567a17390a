/*
** grpc: unary gRPC calls over HTTP/2, as a provider plugin serves them
** (net/plugin.h starts the plugin and gives its address).
**
** libcurl (with nghttp2) speaks HTTP/2 in TLS when the target carries
** AutoMTLS certificates (go-plugin serves TLS when it was given a client
** certificate), else with prior knowledge (h2c: plain HTTP/2), on the
** plugin's unix socket or loopback TCP address.  One call is one POST of
** /SERVICE/METHOD with content-type application/grpc and te: trailers;
** the message travels in gRPC's 5-byte length-prefixed frame (flag byte 0:
** uncompressed; a compressed answer is refused), and the outcome is the
** grpc-status / grpc-message pair, from the trailers or, for a
** trailers-only answer, from the headers.
**
** Limits: a response message above max_msg bytes aborts the call
** (GRPC_BAD_RESPONSE); every call has a deadline (timeout_ms), sent as
** grpc-timeout and enforced locally by libcurl.
**
** Connections: without a pool every call opens (and closes) its own
** connection, with a TLS handshake under AutoMTLS.  With a GrpcPool the
** connections are kept: a call takes an idle curl handle from the pool
** (its HTTP/2 connection and TLS session still open) or makes one, and
** gives it back after the call, so N calls from W concurrent callers use
** at most W connections (one per caller, not Terraform's one multiplexed
** connection: a curl easy handle is driven by one thread; docs/plugins.md).
** A call that did not end in a gRPC answer (transport error, deadline,
** malformed answer) discards its handle and connection instead: the next
** call connects afresh, and a plugin that died is reported as without a
** pool.
**
** Threads and memory: grpc_call may run concurrently from many threads on
** one GrpcTarget (each call holds its own curl handle while it runs; the
** target is read-only, the pool locked).  The response bytes and messages are allocated in
** the arena given to the call.  No diagnostics here: the caller (the
** plugin provider) words failures with what it knows about the plugin.
*/
#ifndef CAIRN_GRPC_H
#define CAIRN_GRPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

#define GRPC_DEFAULT_MAX_MSG ((size_t)256 << 20) /* Terraform's limit */

/* Kept connections to one server (opaque; in the arena given to
** grpc_pool_new, its curl handles in libcurl's memory until
** grpc_pool_close). */
typedef struct GrpcPool GrpcPool;

typedef struct GrpcTarget {
  const char *unix_path;     /* socket path, or NULL */
  const char *tcp_address;   /* "host:port" when unix_path is NULL */
  size_t max_msg;            /* 0: GRPC_DEFAULT_MAX_MSG */
  /* AutoMTLS (net/mtls.h): with ca_pem set, every call is TLS 1.2+ with
  ** ALPN h2 to the name "localhost" (go-plugin's), ca_pem the only trusted
  ** root (the plugin's own certificate: pinned), and cert_pem/key_pem the
  ** client certificate presented.  NULL: plain h2c. */
  const char *ca_pem;
  const char *cert_pem;
  const char *key_pem;
  GrpcPool *pool;            /* kept connections, or NULL: one per call */
} GrpcTarget;

typedef enum GrpcOutcome {
  GRPC_OK = 0,               /* grpc-status 0 and one message */
  GRPC_TRANSPORT,            /* no answer: connection refused, reset, ... */
  GRPC_TIMEOUT,              /* the deadline passed */
  GRPC_STATUS,               /* the server answered a non-zero grpc-status */
  GRPC_BAD_RESPONSE          /* framing, size, HTTP status, no grpc-status */
} GrpcOutcome;

typedef struct GrpcResult {
  GrpcOutcome outcome;
  int status;                /* grpc-status (GRPC_STATUS), else -1 */
  const char *message;       /* what went wrong (percent-decoded
                                grpc-message, or the transport's words) */
  const uint8_t *body;       /* the response message (GRPC_OK) */
  size_t len;
} GrpcResult;

/* Calls path ("/tfplugin5.Provider/GetSchema") with the serialised request
** req[0..len).  Fills *r (memory in a); returns r->outcome == GRPC_OK. */
bool grpc_call(const GrpcTarget *t, const char *path, const uint8_t *req,
               size_t len, long timeout_ms, Arena *a, GrpcResult *r);

/* A pool that keeps up to GRPC_POOL_IDLE idle connections (more may be
** in use at once; beyond that number they are closed when their call
** ends).  NULL when out of memory. */
#define GRPC_POOL_IDLE 64
GrpcPool *grpc_pool_new(Arena *a);

/* Closes the idle connections and marks the pool closed: a call still
** running closes its connection when it ends instead of keeping it, and
** later calls with this pool open one connection each.  Call it before the
** server (the plugin) is stopped, so that no connection outlives it; once
** no call can run, grpc_pool_close leaves nothing open.  Idempotent;
** NULL is ignored. */
void grpc_pool_close(GrpcPool *p);

/* The number of connections the pool keeps idle (tests). */
int grpc_pool_idle(GrpcPool *p);

/* gRPC's name of a status code ("UNAVAILABLE"), or "UNKNOWN". */
const char *grpc_status_name(int status);

#endif
