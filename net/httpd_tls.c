/*
** httpd_tls.c: the TLS server and its connections (contracts in httpd.h).
**
** The owner thread (httpd_run) polls the listening socket, the idle
** keep-alive connections and a wake pipe.  A connection that becomes
** readable is handed to the pool; the worker shakes hands (first time),
** serves the requests already buffered, and gives the connection back by
** writing one byte to the wake pipe, after which the owner collects the
** item with pool_wait and polls the connection again.
*/
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/error.h>
#include <mbedtls/net_sockets.h>
#include <mbedtls/oid.h>
#include <mbedtls/pk.h>
#include <mbedtls/ssl.h>
#include <mbedtls/x509_crt.h>
#include <psa/crypto.h>

#include "base/pool.h"
#include "httpd.h"

typedef enum ConnState { C_FREE, C_IDLE, C_BUSY } ConnState;

typedef struct Conn {
  PoolItem item;
  struct Httpd *h;
  int fd;
  ConnState state;
  bool handshaken;
  bool closed;                  /* set by the worker: the owner frees it */
  long idle_since;
  char peer[NI_MAXHOST + NI_MAXSERV + 2];
  mbedtls_ssl_context ssl;
  Arena arena;                  /* per request, rewound to base */
  ArenaMark base;
  char *in;                     /* read buffer (HTTPD_MAX_HEAD + spare) */
  size_t inlen;
} Conn;

struct Httpd {
  const HttpdConfig *c;
  Arena *a;
  int lfd;
  int port;
  int wake[2];
  atomic_bool stop;
  mbedtls_ssl_config conf;
  mbedtls_x509_crt cert, ca;
  mbedtls_pk_context key;
  mbedtls_entropy_context entropy;
  mbedtls_ctr_drbg_context drbg;
  Conn *conns;
  int nconns;
};

#define IN_CAP (HTTPD_MAX_HEAD + 4096)

static long now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *tls_err(Arena *a, int rc)
{
  char b[160];
  mbedtls_strerror(rc, b, sizeof b);
  return arena_strdup(a, b);
}

/* ---- setup --------------------------------------------------------------- */

static bool listen_on(Httpd *h, Diags *d)
{
  const char *spec = h->c->listen;
  const char *colon = strrchr(spec, ':');
  if (!colon) {
    diag_error(d, NULL, "Invalid gateway listen address",
               "\"%s\" must be HOST:PORT.", spec);
    return false;
  }
  char host[256];
  size_t hn = (size_t)(colon - spec);
  if (hn >= sizeof host)
    hn = sizeof host - 1;
  memcpy(host, spec, hn);
  host[hn] = 0;
  char *hp = host;
  if (hp[0] == '[' && hn >= 2 && hp[hn - 1] == ']') {
    hp[hn - 1] = 0;
    hp++;
  }
  struct addrinfo hints = {0}, *res = NULL;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  int rc = getaddrinfo(*hp ? hp : NULL, colon + 1, &hints, &res);
  if (rc != 0) {
    diag_error(d, NULL, "Invalid gateway listen address",
               "Cannot resolve \"%s\": %s.", spec, gai_strerror(rc));
    return false;
  }
  int err = 0;
  for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      err = errno;
      continue;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 128) != 0) {
      err = errno;
      close(fd);
      continue;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &sl);
    h->port = ss.ss_family == AF_INET6
                  ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                  : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    h->lfd = fd;
    freeaddrinfo(res);
    return true;
  }
  freeaddrinfo(res);
  diag_error(d, NULL, "Cannot listen", "The gateway cannot listen on %s: %s.",
             spec, strerror(err));
  return false;
}

/* Gives mbedTLS's allocations back (after a failed start, or the end of
** httpd_run); NULL for the failure paths' convenience. */
static Httpd *free_tls(Httpd *h)
{
  mbedtls_ssl_config_free(&h->conf);
  mbedtls_x509_crt_free(&h->cert);
  mbedtls_x509_crt_free(&h->ca);
  mbedtls_pk_free(&h->key);
  mbedtls_ctr_drbg_free(&h->drbg);
  mbedtls_entropy_free(&h->entropy);
  if (h->lfd >= 0)
    close(h->lfd);
  h->lfd = -1;
  return NULL;
}

Httpd *httpd_new(Arena *a, const HttpdConfig *c, Diags *d)
{
  Httpd *h = ARENA_NEW(a, Httpd, 1);
  h->c = c;
  h->a = a;
  h->lfd = -1;
  atomic_init(&h->stop, false);
  psa_crypto_init();
  mbedtls_ssl_config_init(&h->conf);
  mbedtls_x509_crt_init(&h->cert);
  mbedtls_x509_crt_init(&h->ca);
  mbedtls_pk_init(&h->key);
  mbedtls_entropy_init(&h->entropy);
  mbedtls_ctr_drbg_init(&h->drbg);
  int rc = mbedtls_ctr_drbg_seed(&h->drbg, mbedtls_entropy_func, &h->entropy,
                                 (const unsigned char *)"cairn-gw", 8);
  if (rc != 0) {
    diag_error(d, NULL, "TLS setup failed", "Cannot seed the random "
               "generator: %s.", tls_err(a, rc));
    return free_tls(h);
  }
  rc = mbedtls_x509_crt_parse_file(&h->cert, c->cert_file);
  if (rc != 0) {
    diag_error(d, NULL, "Invalid gateway certificate",
               "Cannot read the certificate %s: %s.", c->cert_file,
               tls_err(a, rc));
    return free_tls(h);
  }
  rc = mbedtls_pk_parse_keyfile(&h->key, c->key_file, NULL,
                                mbedtls_ctr_drbg_random, &h->drbg);
  if (rc != 0) {
    diag_error(d, NULL, "Invalid gateway key",
               "Cannot read the private key %s: %s.", c->key_file,
               tls_err(a, rc));
    return free_tls(h);
  }
  if (c->client_ca_file) {
    rc = mbedtls_x509_crt_parse_file(&h->ca, c->client_ca_file);
    if (rc != 0) {
      diag_error(d, NULL, "Invalid client CA",
                 "Cannot read the client CA %s: %s.", c->client_ca_file,
                 tls_err(a, rc));
      return free_tls(h);
    }
  }
  rc = mbedtls_ssl_config_defaults(&h->conf, MBEDTLS_SSL_IS_SERVER,
                                   MBEDTLS_SSL_TRANSPORT_STREAM,
                                   MBEDTLS_SSL_PRESET_DEFAULT);
  if (rc == 0)
    rc = mbedtls_ssl_conf_own_cert(&h->conf, &h->cert, &h->key);
  if (rc != 0) {
    diag_error(d, NULL, "TLS setup failed", "%s (does the key match the "
               "certificate?).", tls_err(a, rc));
    return free_tls(h);
  }
  mbedtls_ssl_conf_rng(&h->conf, mbedtls_ctr_drbg_random, &h->drbg);
  mbedtls_ssl_conf_min_tls_version(&h->conf, MBEDTLS_SSL_VERSION_TLS1_2);
  if (c->client_ca_file) {
    mbedtls_ssl_conf_ca_chain(&h->conf, &h->ca, NULL);
    mbedtls_ssl_conf_authmode(&h->conf, MBEDTLS_SSL_VERIFY_REQUIRED);
  } else {
    mbedtls_ssl_conf_authmode(&h->conf, MBEDTLS_SSL_VERIFY_NONE);
  }
  if (pipe2(h->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    diag_error(d, NULL, "Cannot start the gateway", "pipe: %s.",
               strerror(errno));
    return free_tls(h);
  }
  if (!listen_on(h, d))
    return free_tls(h);
  h->nconns = c->max_connections > 0 ? c->max_connections : 256;
  h->conns = ARENA_NEW(a, Conn, (size_t)h->nconns);
  return h;
}

int httpd_port(const Httpd *h)
{
  return h->port;
}

void httpd_stop(Httpd *h)
{
  atomic_store(&h->stop, true);
  char b = 's';
  ssize_t r = write(h->wake[1], &b, 1);
  (void)r;
}

/* ---- one connection (worker side) ---------------------------------------- */

static int bio_send(void *ctx, const unsigned char *buf, size_t len)
{
  Conn *k = ctx;
  ssize_t n = send(k->fd, buf, len, MSG_NOSIGNAL);
  if (n < 0)
    return errno == EINTR ? MBEDTLS_ERR_SSL_WANT_WRITE
                          : MBEDTLS_ERR_NET_SEND_FAILED;
  return (int)n;
}

static int bio_recv(void *ctx, unsigned char *buf, size_t len)
{
  Conn *k = ctx;
  ssize_t n = recv(k->fd, buf, len, 0);
  if (n < 0)
    return errno == EINTR ? MBEDTLS_ERR_SSL_WANT_READ
                          : MBEDTLS_ERR_NET_RECV_FAILED;
  if (n == 0)
    return MBEDTLS_ERR_NET_CONN_RESET;
  return (int)n;
}

static bool write_all(Conn *k, const char *p, size_t n)
{
  while (n) {
    int rc = mbedtls_ssl_write(&k->ssl, (const unsigned char *)p, n);
    if (rc == MBEDTLS_ERR_SSL_WANT_WRITE || rc == MBEDTLS_ERR_SSL_WANT_READ)
      continue;
    if (rc <= 0)
      return false;
    p += rc;
    n -= (size_t)rc;
  }
  return true;
}

/* Reads more bytes into k->in; false at end of stream or error. */
static bool read_more(Conn *k, char *dst, size_t cap, size_t *got)
{
  for (;;) {
    int rc = mbedtls_ssl_read(&k->ssl, (unsigned char *)dst, cap);
    if (rc == MBEDTLS_ERR_SSL_WANT_READ || rc == MBEDTLS_ERR_SSL_WANT_WRITE)
      continue;
#ifdef MBEDTLS_SSL_PROTO_TLS1_3
    /* A TLS 1.3 ticket message is not application data. */
    if (rc == MBEDTLS_ERR_SSL_RECEIVED_NEW_SESSION_TICKET)
      continue;
#endif
    if (rc <= 0)
      return false;
    *got = (size_t)rc;
    return true;
  }
}

static void respond(Conn *k, int status, const char *ctype,
                    const char *retry_after, const char *body, size_t n,
                    bool keep)
{
  char head[512];
  int hl = snprintf(head, sizeof head,
                    "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
                    "Content-Length: %zu\r\n%s%s%s%s\r\n",
                    status, httpd_reason(status),
                    ctype ? ctype : "application/json", n,
                    keep ? "" : "Connection: close\r\n",
                    retry_after ? "Retry-After: " : "",
                    retry_after ? retry_after : "", retry_after ? "\r\n" : "");
  if (!write_all(k, head, (size_t)hl) || !write_all(k, body, n))
    k->closed = true;
}

static void respond_error(Conn *k, int status, const char *code,
                          const char *msg)
{
  char body[512];
  int n = snprintf(body, sizeof body,
                   "{\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}", code,
                   msg);
  respond(k, status, NULL, NULL, body, (size_t)n, false);
  k->closed = true;
}

/* The CN of the verified peer certificate, or NULL. */
static const char *peer_cn(Conn *k, Arena *a)
{
  const mbedtls_x509_crt *pc = mbedtls_ssl_get_peer_cert(&k->ssl);
  if (!pc || mbedtls_ssl_get_verify_result(&k->ssl) != 0)
    return NULL;
  for (const mbedtls_x509_name *n = &pc->subject; n; n = n->next)
    if (n->oid.p && MBEDTLS_OID_CMP(MBEDTLS_OID_AT_CN, &n->oid) == 0)
      return arena_strndup(a, (const char *)n->val.p, n->val.len);
  return NULL;
}

/* Serves one request from k->in (reading more as needed).  False when the
** connection is done. */
static bool serve_one(Conn *k)
{
  Httpd *h = k->h;
  arena_rewind(&k->arena, k->base);
  HttpdRequest req;
  const char *why;
  HttpdParse pr;
  for (;;) {
    pr = httpd_parse(&k->arena, k->in, k->inlen, &req, &why);
    if (pr != HTTPD_INCOMPLETE)
      break;
    size_t got;
    if (!read_more(k, k->in + k->inlen, IN_CAP - k->inlen, &got))
      return false;
    k->inlen += got;
  }
  switch (pr) {
  case HTTPD_BAD:
    respond_error(k, 400, "bad_request", why);
    return false;
  case HTTPD_HEAD_TOO_LARGE:
    respond_error(k, 431, "bad_request", why);
    return false;
  case HTTPD_UNSUPPORTED:
    respond_error(k, 501, "bad_request", why);
    return false;
  default:
    break;
  }
  if (req.content_length > h->c->max_body) {
    char msg[160];
    snprintf(msg, sizeof msg, "the request body (%zu bytes) is larger than "
             "the gateway's limit of %zu bytes", req.content_length,
             h->c->max_body);
    respond_error(k, 413, "too_large", msg);
    return false;
  }
  /* The body: what was read past the head, then the rest. */
  size_t have = k->inlen - req.head_len;
  size_t blen = req.content_length;
  char *body = arena_alloc_raw(&k->arena, blen + 1, 1, 1);
  size_t take = have < blen ? have : blen;
  memcpy(body, k->in + req.head_len, take);
  size_t pos = take;
  while (pos < blen) {
    size_t got;
    if (!read_more(k, body + pos, blen - pos, &got))
      return false;
    pos += got;
  }
  body[blen] = 0;
  /* Pipelined bytes stay in k->in for the next round. */
  size_t used = req.head_len + take;
  memmove(k->in, k->in + used, k->inlen - used);
  k->inlen -= used;

  HttpdExchange x = {0};
  x.req = &req;
  x.body = body;
  x.body_len = blen;
  x.peer = k->peer;
  x.client_cn = peer_cn(k, &k->arena);
  x.arena = &k->arena;
  buf_init(&x.body_out, &k->arena);
  h->c->handler(h->c->ctx, &x);
  bool keep = req.keep_alive && !atomic_load(&h->stop);
  respond(k, x.status ? x.status : 500, x.content_type, x.retry_after,
          x.body_out.p ? x.body_out.p : "", x.body_out.len, keep);
  return keep && !k->closed;
}

static void set_timeouts(int fd, long ms)
{
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static void conn_run(PoolItem *it, PoolWorker *w)
{
  (void)w;
  Conn *k = it->ctx;
  Httpd *h = k->h;
  if (!k->handshaken) {
    mbedtls_ssl_init(&k->ssl);
    if (mbedtls_ssl_setup(&k->ssl, &h->conf) != 0) {
      k->closed = true;
    } else {
      mbedtls_ssl_set_bio(&k->ssl, k, bio_send, bio_recv, NULL);
      int rc;
      do
        rc = mbedtls_ssl_handshake(&k->ssl);
      while (rc == MBEDTLS_ERR_SSL_WANT_READ ||
             rc == MBEDTLS_ERR_SSL_WANT_WRITE);
      if (rc != 0)
        k->closed = true;
      else
        k->handshaken = true;
    }
  }
  while (!k->closed) {
    if (!serve_one(k)) {
      k->closed = true;
      break;
    }
    /* Another request already buffered (pipelining, or TLS records read
    ** ahead)?  Serve it now: poll() would not see it. */
    if (!k->inlen && !mbedtls_ssl_get_bytes_avail(&k->ssl))
      break;
  }
  char b = 'c';
  ssize_t r = write(h->wake[1], &b, 1);
  (void)r;
}

/* ---- the owner loop ------------------------------------------------------ */

static void conn_close(Conn *k)
{
  if (k->handshaken && !k->closed)
    mbedtls_ssl_close_notify(&k->ssl);
  mbedtls_ssl_free(&k->ssl);
  close(k->fd);
  k->fd = -1;
  k->state = C_FREE;
  k->handshaken = false;
  k->closed = false;
  k->inlen = 0;
}

static void accept_some(Httpd *h, Pool *pool)
{
  for (;;) {
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    int fd = accept4(h->lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
    if (fd < 0)
      return;
    Conn *k = NULL;
    for (int i = 0; i < h->nconns && !k; i++)
      if (h->conns[i].state == C_FREE)
        k = &h->conns[i];
    if (!k) {
      /* Full: refuse at once rather than queue without bound. */
      close(fd);
      continue;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    set_timeouts(fd, h->c->io_timeout_ms > 0 ? h->c->io_timeout_ms : 30000);
    k->fd = fd;
    k->h = h;
    k->inlen = 0;
    k->closed = false;
    k->handshaken = false;
    char host[NI_MAXHOST], serv[NI_MAXSERV];
    if (getnameinfo((struct sockaddr *)&ss, sl, host, sizeof host, serv,
                    sizeof serv, NI_NUMERICHOST | NI_NUMERICSERV) == 0)
      snprintf(k->peer, sizeof k->peer, "%s:%s", host, serv);
    else
      snprintf(k->peer, sizeof k->peer, "?");
    if (!k->in) {
      arena_init(&k->arena, 0);
      k->base = arena_mark(&k->arena);
      k->in = ARENA_NEW(h->a, char, IN_CAP);
    }
    k->state = C_BUSY;
    k->item.run = conn_run;
    k->item.ctx = k;
    pool_submit(pool, &k->item);
  }
}

bool httpd_run(Httpd *h, Diags *d)
{
  int nthreads = h->c->threads > 0 ? h->c->threads : 16;
  Arena pa;
  arena_init(&pa, 0);
  Pool *pool = pool_new(&pa, nthreads, NULL, NULL);
  if (!pool) {
    diag_error(d, NULL, "Cannot start the gateway",
               "Cannot start %d threads: %s.", nthreads, strerror(errno));
    arena_release(&pa);
    return false;
  }
  int flags = fcntl(h->lfd, F_GETFL);
  fcntl(h->lfd, F_SETFL, flags | O_NONBLOCK);
  int busy = 0;
  struct pollfd *pf = ARENA_NEW(&pa, struct pollfd, (size_t)h->nconns + 2);
  int *map = ARENA_NEW(&pa, int, (size_t)h->nconns + 2);
  long keep = h->c->keepalive_ms > 0 ? h->c->keepalive_ms : 60000;
  bool stopping = false;
  for (;;) {
    if (!stopping && atomic_load(&h->stop)) {
      stopping = true;
      close(h->lfd);
      h->lfd = -1;
      for (int i = 0; i < h->nconns; i++)
        if (h->conns[i].state == C_IDLE)
          conn_close(&h->conns[i]);
    }
    if (stopping && busy == 0)
      break;
    int n = 0;
    pf[n] = (struct pollfd){.fd = h->wake[0], .events = POLLIN};
    map[n++] = -1;
    if (!stopping) {
      pf[n] = (struct pollfd){.fd = h->lfd, .events = POLLIN};
      map[n++] = -2;
    }
    long now = now_ms();
    for (int i = 0; i < h->nconns; i++) {
      Conn *k = &h->conns[i];
      if (k->state != C_IDLE)
        continue;
      if (now - k->idle_since > keep) {
        conn_close(k);
        continue;
      }
      pf[n] = (struct pollfd){.fd = k->fd, .events = POLLIN};
      map[n++] = i;
    }
    int pr = poll(pf, (nfds_t)n, 1000);
    if (pr < 0 && errno != EINTR)
      break;
    if (pr <= 0)
      continue;
    for (int j = 0; j < n; j++) {
      if (!pf[j].revents)
        continue;
      if (map[j] == -1) {
        char b[64];
        ssize_t r;
        while ((r = read(h->wake[0], b, sizeof b)) > 0)
          for (ssize_t q = 0; q < r; q++) {
            if (b[q] != 'c')
              continue;
            PoolItem *it = pool_wait(pool);
            if (!it)
              continue;
            Conn *k = it->ctx;
            busy--;
            if (k->closed || stopping) {
              conn_close(k);
            } else {
              k->state = C_IDLE;
              k->idle_since = now_ms();
            }
          }
      } else if (map[j] == -2) {
        int before = 0;
        for (int i = 0; i < h->nconns; i++)
          before += h->conns[i].state == C_BUSY;
        accept_some(h, pool);
        int after = 0;
        for (int i = 0; i < h->nconns; i++)
          after += h->conns[i].state == C_BUSY;
        busy += after - before;
      } else {
        Conn *k = &h->conns[map[j]];
        k->state = C_BUSY;
        busy++;
        pool_submit(pool, &k->item);
      }
    }
  }
  pool_free(pool);
  for (int i = 0; i < h->nconns; i++)
    if (h->conns[i].in)
      arena_release(&h->conns[i].arena);
  arena_release(&pa);
  /* The server is done: mbedTLS's own allocations go back. */
  free_tls(h);
  close(h->wake[0]);
  close(h->wake[1]);
  h->wake[0] = h->wake[1] = -1;
  return true;
}
