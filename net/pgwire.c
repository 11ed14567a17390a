/*
** pgwire: PostgreSQL's frontend/backend protocol v3 (see pgwire.h).
**
** Why not libpq: it needs OpenSSL for TLS, and cairn carries mbedTLS
** only; the part of the protocol a state backend needs (startup, TLS,
** four authentication methods, the extended query with text values) is
** small, and a parser of untrusted bytes we own is fuzzed
** (tests/fuzz/fuzz_pgwire.c).
*/
#include "pgwire.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <mbedtls/base64.h>
#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/error.h>
#include <mbedtls/md.h>
#include <mbedtls/md5.h>
#include <mbedtls/net_sockets.h>
#include <mbedtls/pkcs5.h>
#include <mbedtls/sha256.h>
#include <mbedtls/ssl.h>
#include <mbedtls/x509_crt.h>
#include <psa/crypto.h>

#include "base/buf.h"

#define PROTO_3 196608
#define SSL_REQUEST_CODE 80877103
/* A SCRAM iteration count above this is refused: PostgreSQL's default is
** 4096, and a hostile server must not make the client spin for hours. */
#define SCRAM_MAX_ITER (1L << 20)

struct PgConn {
  Arena *a;
  int fd;
  bool broken;
  bool tls;
  bool tls_init;
  mbedtls_ssl_context ssl;
  mbedtls_ssl_config conf;
  mbedtls_x509_crt ca, cert;
  mbedtls_pk_context key;
  mbedtls_entropy_context ent;
  mbedtls_ctr_drbg_context drbg;
  int timeout_ms;             /* poll timeout while connecting; -1 after */
  Buf in;                     /* received, not yet consumed from pos */
  size_t pos;
  const char *who;            /* "host:port" or the socket path */
};

/* ---- connection strings ---------------------------------------------- */

static const char *env(const char *name)
{
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

static bool set_key(Arena *a, PgConnInfo *ci, const char *k, const char *v,
                    const char **why)
{
  if (strcmp(k, "host") == 0 || strcmp(k, "hostaddr") == 0)
    ci->host = v;
  else if (strcmp(k, "port") == 0)
    ci->port = v;
  else if (strcmp(k, "user") == 0)
    ci->user = v;
  else if (strcmp(k, "password") == 0)
    ci->password = v;
  else if (strcmp(k, "dbname") == 0)
    ci->dbname = v;
  else if (strcmp(k, "sslmode") == 0)
    ci->sslmode = v;
  else if (strcmp(k, "sslrootcert") == 0)
    ci->sslrootcert = v;
  else if (strcmp(k, "sslcert") == 0)
    ci->sslcert = v;
  else if (strcmp(k, "sslkey") == 0)
    ci->sslkey = v;
  else if (strcmp(k, "application_name") == 0)
    ci->application_name = v;
  else if (strcmp(k, "fallback_application_name") == 0) {
    if (!ci->application_name)
      ci->application_name = v;
  } else if (strcmp(k, "connect_timeout") == 0) {
    char *end;
    errno = 0;
    long t = strtol(v, &end, 10);
    if (!*v || *end || errno || t < 0 || t > 86400) {
      *why = arena_printf(a, "invalid connect_timeout \"%s\"", v);
      return false;
    }
    ci->connect_timeout = t;
  } else if (strcmp(k, "sslsni") == 0 || strcmp(k, "sslpassword") == 0 ||
             strcmp(k, "target_session_attrs") == 0 ||
             strcmp(k, "keepalives") == 0 || strcmp(k, "binary_parameters")
             == 0 || strcmp(k, "disable_prepared_binary_result") == 0) {
    /* client options of libpq/lib/pq that change nothing here */
  } else {
    if (ci->nextra == PGW_MAX_EXTRA) {
      *why = "too many connection parameters";
      return false;
    }
    ci->extra_keys[ci->nextra] = k;
    ci->extra_vals[ci->nextra++] = v;
  }
  return true;
}

static int hexval(int c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Percent-decodes s[0..n) (a '+' stays a '+', as libpq). */
static const char *pct(Arena *a, const char *s, size_t n, const char **why)
{
  char *o = ARENA_NEW(a, char, n + 1);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '%') {
      int x = i + 1 < n ? hexval((unsigned char)s[i + 1]) : -1;
      int y = i + 2 < n ? hexval((unsigned char)s[i + 2]) : -1;
      int h = x >= 0 && y >= 0 ? x * 16 + y : -1;
      if (h <= 0) {
        *why = "invalid percent-encoded token in the connection URI";
        return NULL;
      }
      o[k++] = (char)h;
      i += 2;
    } else {
      o[k++] = s[i];
    }
  }
  o[k] = 0;
  return o;
}

static bool parse_uri(Arena *a, const char *s, PgConnInfo *ci,
                      const char **why)
{
  const char *p = strstr(s, "://") + 3;
  size_t alen = strcspn(p, "/?");
  const char *auth = p, *end = p + alen;
  const char *at = NULL;
  for (const char *q = auth; q < end; q++)
    if (*q == '@')
      at = q;
  if (at) {
    const char *colon = memchr(auth, ':', (size_t)(at - auth));
    const char *ue = colon ? colon : at;
    if (ue > auth && !(ci->user = pct(a, auth, (size_t)(ue - auth), why)))
      return false;
    if (colon && !(ci->password = pct(a, colon + 1,
                                      (size_t)(at - colon - 1), why)))
      return false;
    auth = at + 1;
  }
  if (memchr(auth, ',', (size_t)(end - auth))) {
    *why = "several hosts in one connection string are not supported";
    return false;
  }
  const char *hs = auth, *he = end, *port = NULL;
  if (*hs == '[') {
    const char *rb = memchr(hs, ']', (size_t)(end - hs));
    if (!rb) {
      *why = "missing \"]\" in an IPv6 host address in the connection URI";
      return false;
    }
    hs++;
    he = rb;
    if (rb + 1 < end && rb[1] == ':')
      port = rb + 2;
  } else {
    const char *colon = memchr(hs, ':', (size_t)(end - hs));
    if (colon) {
      he = colon;
      port = colon + 1;
    }
  }
  if (he > hs && !(ci->host = pct(a, hs, (size_t)(he - hs), why)))
    return false;
  if (port && end > port && !(ci->port = pct(a, port, (size_t)(end - port),
                                             why)))
    return false;
  p = end;
  if (*p == '/') {
    size_t n = strcspn(p + 1, "?");
    if (n && !(ci->dbname = pct(a, p + 1, n, why)))
      return false;
    p += 1 + n;
  }
  if (*p == '?') {
    p++;
    while (*p) {
      size_t n = strcspn(p, "&");
      const char *eq = memchr(p, '=', n);
      if (!eq) {
        *why = "missing \"=\" after a parameter in the connection URI";
        return false;
      }
      const char *k = pct(a, p, (size_t)(eq - p), why);
      const char *v = k ? pct(a, eq + 1, n - (size_t)(eq - p) - 1, why)
                        : NULL;
      if (!v || !set_key(a, ci, k, v, why))
        return false;
      p += n;
      if (*p == '&')
        p++;
    }
  }
  return true;
}

static bool parse_keywords(Arena *a, const char *s, PgConnInfo *ci,
                           const char **why)
{
  const char *p = s;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
      p++;
    if (!*p)
      return true;
    const char *ks = p;
    while (*p && *p != '=' && *p != ' ' && *p != '\t')
      p++;
    const char *k = arena_strndup(a, ks, (size_t)(p - ks));
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p != '=') {
      *why = arena_printf(a, "missing \"=\" after \"%s\" in the connection "
                          "string", k);
      return false;
    }
    p++;
    while (*p == ' ' || *p == '\t')
      p++;
    Buf v;
    buf_init(&v, a);
    if (*p == '\'') {
      p++;
      while (*p && *p != '\'') {
        if (*p == '\\' && p[1])
          p++;
        buf_putc(&v, *p++);
      }
      if (*p != '\'') {
        *why = "unterminated quoted string in the connection string";
        return false;
      }
      p++;
    } else {
      while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
        if (*p == '\\' && p[1])
          p++;
        buf_putc(&v, *p++);
      }
    }
    if (!set_key(a, ci, k, buf_str(&v), why))
      return false;
  }
}

bool pgw_parse_conninfo(Arena *a, const char *s, PgConnInfo *ci,
                        const char **why)
{
  memset(ci, 0, sizeof *ci);
  *why = NULL;
  ci->host = env("PGHOST");
  ci->port = env("PGPORT");
  ci->user = env("PGUSER");
  ci->password = getenv("PGPASSWORD");
  ci->dbname = env("PGDATABASE");
  ci->sslmode = env("PGSSLMODE");
  ci->sslrootcert = env("PGSSLROOTCERT");
  ci->sslcert = env("PGSSLCERT");
  ci->sslkey = env("PGSSLKEY");
  ci->application_name = env("PGAPPNAME");
  if (env("PGCONNECT_TIMEOUT") &&
      !set_key(a, ci, "connect_timeout", env("PGCONNECT_TIMEOUT"), why))
    return false;
  bool ok = strncmp(s, "postgres://", 11) == 0 ||
                    strncmp(s, "postgresql://", 13) == 0
                ? parse_uri(a, s, ci, why)
                : parse_keywords(a, s, ci, why);
  if (!ok)
    return false;
  if (!ci->host || !*ci->host)
    ci->host = "localhost";
  if (!ci->port || !*ci->port)
    ci->port = "5432";
  char *end;
  errno = 0;
  long port = strtol(ci->port, &end, 10);
  if (*end || errno || port < 1 || port > 65535) {
    *why = arena_printf(a, "invalid port number \"%s\"", ci->port);
    return false;
  }
  if (!ci->user || !*ci->user) {
    const char *u = env("USER");
    if (!u) {
      struct passwd *pw = getpwuid(getuid());
      u = pw ? pw->pw_name : NULL;
    }
    if (!u) {
      *why = "no user name: set user in the connection string or PGUSER";
      return false;
    }
    ci->user = arena_strdup(a, u);
  }
  if (!ci->dbname || !*ci->dbname)
    ci->dbname = ci->user;
  if (!ci->sslmode || !*ci->sslmode)
    ci->sslmode = "require";
  static const char *const modes[] = {"disable", "allow", "prefer",
                                      "require", "verify-ca", "verify-full"};
  bool known = false;
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
    known = known || strcmp(ci->sslmode, modes[i]) == 0;
  if (!known) {
    *why = arena_printf(a, "invalid sslmode value: \"%s\"", ci->sslmode);
    return false;
  }
  return true;
}

/* ---- errors ------------------------------------------------------------ */

static void client_error(PgError *e, Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void client_error(PgError *e, Arena *a, const char *fmt, ...)
{
  memset(e, 0, sizeof *e);
  e->severity = "FATAL";
  e->sqlstate = "";
  va_list ap;
  va_start(ap, fmt);
  Buf b;
  buf_init(&b, a);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  e->message = buf_str(&b);
}

static const char *tls_err(Arena *a, int rc)
{
  char t[160];
  mbedtls_strerror(rc, t, sizeof t);
  return arena_strdup(a, t);
}

bool pgw_parse_error(Arena *a, const uint8_t *p, size_t n, PgError *err)
{
  memset(err, 0, sizeof *err);
  err->severity = "ERROR";
  err->sqlstate = "";
  err->message = "";
  size_t i = 0;
  while (i < n && p[i]) {
    char code = (char)p[i++];
    const uint8_t *z = memchr(p + i, 0, n - i);
    if (!z)
      return false;
    const char *v = arena_strndup(a, (const char *)p + i,
                                  (size_t)(z - (p + i)));
    switch (code) {
    case 'V': err->severity = v; break;
    case 'S': if (!err->severity || strcmp(err->severity, "ERROR") == 0)
                err->severity = v;
              break;
    case 'C': err->sqlstate = v; break;
    case 'M': err->message = v; break;
    case 'D': err->detail = v; break;
    case 'H': err->hint = v; break;
    default: break;
    }
    i = (size_t)(z - p) + 1;
  }
  return i < n;
}

/* ---- message framing ---------------------------------------------------- */

static uint32_t get32(const uint8_t *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         p[3];
}

static uint16_t get16(const uint8_t *p)
{
  return (uint16_t)(p[0] << 8 | p[1]);
}

long pgw_msg_next(const uint8_t *buf, size_t n, PgMsg *m)
{
  if (n < 5)
    return 0;
  uint32_t len = get32(buf + 1);
  if (len < 4 || len > PGW_MAX_MSG)
    return -1;
  if (n < (size_t)len + 1)
    return 0;
  m->type = (char)buf[0];
  m->body = buf + 5;
  m->len = len - 4;
  return (long)len + 1;
}

static void put32(Buf *b, uint32_t v)
{
  char t[4] = {(char)(v >> 24), (char)(v >> 16), (char)(v >> 8), (char)v};
  buf_put(b, t, 4);
}

static void put16(Buf *b, uint16_t v)
{
  char t[2] = {(char)(v >> 8), (char)v};
  buf_put(b, t, 2);
}

/* Starts a message of type t (0: the untyped startup packet); finish()
** fills in its length. */
static size_t begin(Buf *b, char t)
{
  if (t)
    buf_putc(b, t);
  size_t at = b->len;
  put32(b, 0);
  return at;
}

static void finish(Buf *b, size_t at)
{
  uint32_t len = (uint32_t)(b->len - at);
  b->p[at] = (char)(len >> 24);
  b->p[at + 1] = (char)(len >> 16);
  b->p[at + 2] = (char)(len >> 8);
  b->p[at + 3] = (char)len;
}

static void put_str(Buf *b, const char *s)
{
  buf_put(b, s, strlen(s) + 1);
}

/* ---- transport ------------------------------------------------------------ */

static int wait_fd(PgConn *c, short ev)
{
  struct pollfd pf = {c->fd, ev, 0};
  for (;;) {
    int r = poll(&pf, 1, c->timeout_ms);
    if (r < 0 && errno == EINTR)
      continue;
    if (r == 0)
      errno = ETIMEDOUT;
    return r > 0 ? 0 : -1;
  }
}

static int raw_send(PgConn *c, const uint8_t *p, size_t n)
{
  if (wait_fd(c, POLLOUT) < 0)
    return -1;
  ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
  return k < 0 && errno == EINTR ? 0 : (int)k;
}

static int raw_recv(PgConn *c, uint8_t *p, size_t n)
{
  if (wait_fd(c, POLLIN) < 0)
    return -1;
  ssize_t k = recv(c->fd, p, n, 0);
  return (int)k;   /* -1 with EINTR: the caller tries again */
}

static int bio_send(void *ctx, const unsigned char *p, size_t n)
{
  int k = raw_send(ctx, p, n);
  if (k == 0)
    return MBEDTLS_ERR_SSL_WANT_WRITE;
  return k < 0 ? MBEDTLS_ERR_NET_SEND_FAILED : k;
}

static int bio_recv(void *ctx, unsigned char *p, size_t n)
{
  int k = raw_recv(ctx, p, n);
  if (k < 0 && errno == EINTR)
    return MBEDTLS_ERR_SSL_WANT_READ;
  if (k == 0)
    return MBEDTLS_ERR_SSL_PEER_CLOSE_NOTIFY;   /* EOF */
  return k < 0 ? MBEDTLS_ERR_NET_RECV_FAILED : k;
}

static bool send_all(PgConn *c, const char *p, size_t n, PgError *err)
{
  while (n) {
    int k;
    if (c->tls) {
      k = mbedtls_ssl_write(&c->ssl, (const unsigned char *)p, n);
      if (k == MBEDTLS_ERR_SSL_WANT_READ || k == MBEDTLS_ERR_SSL_WANT_WRITE)
        continue;
    } else {
      k = raw_send(c, (const uint8_t *)p, n);
      if (k == 0)
        continue;
    }
    if (k <= 0) {
      c->broken = true;
      if (!c->tls && (errno == EPIPE || errno == ECONNRESET))
        client_error(err, c->a, "server closed the connection unexpectedly "
                     "(%s): the server may have stopped or restarted",
                     c->who);
      else
        client_error(err, c->a, "could not send data to the server %s: %s",
                     c->who, c->tls ? tls_err(c->a, k) : strerror(errno));
      return false;
    }
    p += k;
    n -= (size_t)k;
  }
  return true;
}

/* Reads more bytes into c->in; false at EOF or an error. */
static bool fill(PgConn *c, PgError *err)
{
  if (c->pos && c->pos == c->in.len) {
    c->in.len = 0;
    c->pos = 0;
  } else if (c->pos > (1u << 20)) {
    memmove(c->in.p, c->in.p + c->pos, c->in.len - c->pos);
    c->in.len -= c->pos;
    c->pos = 0;
  }
  buf_reserve(&c->in, 16384);
  for (;;) {
    int k;
    if (c->tls) {
      k = mbedtls_ssl_read(&c->ssl, (unsigned char *)c->in.p + c->in.len,
                           16384);
      if (k == MBEDTLS_ERR_SSL_WANT_READ || k == MBEDTLS_ERR_SSL_WANT_WRITE ||
          k == MBEDTLS_ERR_SSL_RECEIVED_NEW_SESSION_TICKET)
        continue;
      if (k == MBEDTLS_ERR_SSL_PEER_CLOSE_NOTIFY)
        k = 0;
    } else {
      k = raw_recv(c, (uint8_t *)c->in.p + c->in.len, 16384);
      if (k < 0 && errno == EINTR)
        continue;
    }
    if (k > 0) {
      c->in.len += (size_t)k;
      return true;
    }
    c->broken = true;
    if (k == 0)
      client_error(err, c->a, "server closed the connection unexpectedly "
                   "(%s): the server may have stopped or restarted",
                   c->who);
    else
      client_error(err, c->a, "could not receive data from the server %s: "
                   "%s", c->who, c->tls ? tls_err(c->a, k)
                                        : strerror(errno));
    return false;
  }
}

static bool next_msg(PgConn *c, PgMsg *m, PgError *err)
{
  for (;;) {
    long k = pgw_msg_next((const uint8_t *)c->in.p + c->pos,
                          c->in.len - c->pos, m);
    if (k > 0) {
      c->pos += (size_t)k;
      return true;
    }
    if (k < 0) {
      c->broken = true;
      client_error(err, c->a, "invalid message from the server %s (not "
                   "PostgreSQL?)", c->who);
      return false;
    }
    if (!fill(c, err))
      return false;
  }
}

/* ---- TLS ----------------------------------------------------------------- */

static bool file_exists(const char *p)
{
  struct stat st;
  return p && stat(p, &st) == 0;
}

static const char *home_file(Arena *a, const char *name)
{
  const char *h = getenv("HOME");
  return h ? arena_printf(a, "%s/.postgresql/%s", h, name) : NULL;
}

static bool start_tls(PgConn *c, const PgConnInfo *ci, PgError *err)
{
  Arena *a = c->a;
  bool verify_full = strcmp(ci->sslmode, "verify-full") == 0;
  bool verify = verify_full || strcmp(ci->sslmode, "verify-ca") == 0;
  psa_crypto_init();
  c->tls_init = true;
  mbedtls_ssl_init(&c->ssl);
  mbedtls_ssl_config_init(&c->conf);
  mbedtls_x509_crt_init(&c->ca);
  mbedtls_x509_crt_init(&c->cert);
  mbedtls_pk_init(&c->key);
  mbedtls_entropy_init(&c->ent);
  mbedtls_ctr_drbg_init(&c->drbg);
  int rc = mbedtls_ctr_drbg_seed(&c->drbg, mbedtls_entropy_func, &c->ent,
                                 (const unsigned char *)"cairn-pg", 8);
  if (rc) {
    client_error(err, a, "cannot seed the random generator: %s",
                 tls_err(a, rc));
    return false;
  }
  /* The root: sslrootcert, else ~/.postgresql/root.crt (libpq's), else
  ** the system's CAs (lib/pq's); with require, a root given by the user
  ** is checked (libpq's rule), otherwise the certificate is not. */
  const char *root = ci->sslrootcert;
  if (root && strcmp(root, "system") == 0)
    root = NULL;
  else if (!root && file_exists(home_file(a, "root.crt")))
    root = home_file(a, "root.crt");
  if (ci->sslrootcert && strcmp(ci->sslrootcert, "system") != 0 &&
      strcmp(ci->sslmode, "require") == 0)
    verify = true;
  if (verify) {
    if (!root) {
      root = getenv("SSL_CERT_FILE");
      if (!root || !*root)
        root = "/etc/ssl/certs/ca-certificates.crt";
    }
    rc = mbedtls_x509_crt_parse_file(&c->ca, root);
    if (rc < 0) {
      client_error(err, a, "could not read the root certificate file "
                   "\"%s\": %s", root, tls_err(a, rc));
      return false;
    }
  }
  const char *cert = ci->sslcert, *key = ci->sslkey;
  if (!cert && file_exists(home_file(a, "postgresql.crt"))) {
    cert = home_file(a, "postgresql.crt");
    if (!key)
      key = home_file(a, "postgresql.key");
  }
  if (cert && *cert) {
    if (!key || !*key) {
      client_error(err, a, "sslcert is set but sslkey is not");
      return false;
    }
    rc = mbedtls_x509_crt_parse_file(&c->cert, cert);
    if (rc) {
      client_error(err, a, "could not read the certificate file \"%s\": %s",
                   cert, tls_err(a, rc));
      return false;
    }
    rc = mbedtls_pk_parse_keyfile(&c->key, key, NULL, mbedtls_ctr_drbg_random,
                                  &c->drbg);
    if (rc) {
      client_error(err, a, "could not read the private key file \"%s\": %s",
                   key, tls_err(a, rc));
      return false;
    }
  }
  rc = mbedtls_ssl_config_defaults(&c->conf, MBEDTLS_SSL_IS_CLIENT,
                                   MBEDTLS_SSL_TRANSPORT_STREAM,
                                   MBEDTLS_SSL_PRESET_DEFAULT);
  if (!rc && cert && *cert)
    rc = mbedtls_ssl_conf_own_cert(&c->conf, &c->cert, &c->key);
  if (rc) {
    client_error(err, a, "TLS setup failed: %s", tls_err(a, rc));
    return false;
  }
  mbedtls_ssl_conf_rng(&c->conf, mbedtls_ctr_drbg_random, &c->drbg);
  mbedtls_ssl_conf_min_tls_version(&c->conf, MBEDTLS_SSL_VERSION_TLS1_2);
  mbedtls_ssl_conf_authmode(&c->conf, verify ? MBEDTLS_SSL_VERIFY_REQUIRED
                                             : MBEDTLS_SSL_VERIFY_NONE);
  if (verify)
    mbedtls_ssl_conf_ca_chain(&c->conf, &c->ca, NULL);
  rc = mbedtls_ssl_setup(&c->ssl, &c->conf);
  if (!rc)
    rc = mbedtls_ssl_set_hostname(&c->ssl, verify_full ? ci->host : NULL);
  if (rc) {
    client_error(err, a, "TLS setup failed: %s", tls_err(a, rc));
    return false;
  }
  mbedtls_ssl_set_bio(&c->ssl, c, bio_send, bio_recv, NULL);
  while ((rc = mbedtls_ssl_handshake(&c->ssl)) != 0) {
    if (rc == MBEDTLS_ERR_SSL_WANT_READ || rc == MBEDTLS_ERR_SSL_WANT_WRITE)
      continue;
    uint32_t f = mbedtls_ssl_get_verify_result(&c->ssl);
    if (rc == MBEDTLS_ERR_X509_CERT_VERIFY_FAILED && f != (uint32_t)-1) {
      const char *why =
          f & MBEDTLS_X509_BADCERT_CN_MISMATCH
              ? arena_printf(a, "the server's certificate does not match "
                             "the host name \"%s\"", ci->host)
          : f & MBEDTLS_X509_BADCERT_EXPIRED
              ? "the server's certificate has expired"
          : f & MBEDTLS_X509_BADCERT_FUTURE
              ? "the server's certificate is not valid yet"
          : f & MBEDTLS_X509_BADCERT_NOT_TRUSTED
              ? arena_printf(a, "the server's certificate is not signed by "
                             "a trusted CA (%s)", root)
              : "the server's certificate was refused";
      client_error(err, a, "TLS connection to %s refused (sslmode=%s): %s",
                   c->who, ci->sslmode, why);
    } else {
      client_error(err, a, "TLS handshake with %s failed: %s", c->who,
                   tls_err(a, rc));
    }
    return false;
  }
  c->tls = true;
  return true;
}

/* ---- connecting --------------------------------------------------------- */

static int dial(PgConn *c, const PgConnInfo *ci, PgError *err)
{
  Arena *a = c->a;
  if (ci->host[0] == '/') {
    struct sockaddr_un su;
    memset(&su, 0, sizeof su);
    su.sun_family = AF_UNIX;
    c->who = arena_printf(a, "%s/.s.PGSQL.%s", ci->host, ci->port);
    if (strlen(c->who) >= sizeof su.sun_path) {
      client_error(err, a, "unix socket path \"%s\" is too long", c->who);
      return -1;
    }
    memcpy(su.sun_path, c->who, strlen(c->who));
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&su, sizeof su) < 0) {
      client_error(err, a, "connection to server on socket \"%s\" failed: "
                   "%s (is the server running locally and accepting "
                   "connections on that socket?)", c->who, strerror(errno));
      if (fd >= 0)
        close(fd);
      return -1;
    }
    return fd;
  }
  c->who = strchr(ci->host, ':') ? arena_printf(a, "[%s]:%s", ci->host,
                                                ci->port)
                                 : arena_printf(a, "%s:%s", ci->host,
                                                ci->port);
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int gr = getaddrinfo(ci->host, ci->port, &hints, &res);
  if (gr) {
    client_error(err, a, "could not translate host name \"%s\" to an "
                 "address: %s", ci->host, gai_strerror(gr));
    return -1;
  }
  int fd = -1, last = 0;
  for (struct addrinfo *r = res; r && fd < 0; r = r->ai_next) {
    fd = socket(r->ai_family, r->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
                r->ai_protocol);
    if (fd < 0) {
      last = errno;
      continue;
    }
    int rc = connect(fd, r->ai_addr, r->ai_addrlen);
    if (rc < 0 && errno == EINPROGRESS) {
      c->fd = fd;
      if (wait_fd(c, POLLOUT) == 0) {
        int e = 0;
        socklen_t el = sizeof e;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el);
        rc = e ? -1 : 0;
        errno = e;
      }
      c->fd = -1;
    }
    if (rc < 0) {
      last = errno;
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd < 0) {
    client_error(err, a, "connection to server at %s failed: %s (is the "
                 "server running on that host and accepting TCP/IP "
                 "connections?)", c->who, strerror(last));
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

static bool negotiate_tls(PgConn *c, const PgConnInfo *ci, PgError *err)
{
  if (ci->host[0] == '/' || strcmp(ci->sslmode, "disable") == 0 ||
      strcmp(ci->sslmode, "allow") == 0)
    return true;
  Buf b;
  buf_init(&b, c->a);
  put32(&b, 8);
  put32(&b, SSL_REQUEST_CODE);
  if (!send_all(c, b.p, b.len, err))
    return false;
  uint8_t ans;
  int k;
  do
    k = raw_recv(c, &ans, 1);
  while (k < 0 && errno == EINTR);
  if (k != 1) {
    client_error(err, c->a, "the server %s closed the connection during "
                 "the TLS request%s%s", c->who, k < 0 ? ": " : "",
                 k < 0 ? strerror(errno) : "");
    return false;
  }
  if (ans == 'S')
    return start_tls(c, ci, err);
  if (ans == 'N') {
    if (strcmp(ci->sslmode, "prefer") == 0)
      return true;
    client_error(err, c->a, "the server %s does not support TLS, but "
                 "sslmode=%s requires it (sslmode=disable allows a plain "
                 "connection)", c->who, ci->sslmode);
    return false;
  }
  client_error(err, c->a, "unexpected answer to the TLS request from %s "
               "(not PostgreSQL?)", c->who);
  return false;
}

static bool send_password(PgConn *c, const char *pw, PgError *err)
{
  Buf b;
  buf_init(&b, c->a);
  size_t at = begin(&b, 'p');
  put_str(&b, pw);
  finish(&b, at);
  return send_all(c, b.p, b.len, err);
}

static bool need_password(PgConn *c, const PgConnInfo *ci, PgError *err)
{
  if (ci->password)
    return true;
  client_error(err, c->a, "the server %s asks for a password and none was "
               "given (the connection string's password, or PGPASSWORD)",
               c->who);
  return false;
}

static const char *sasl_choose(const PgMsg *m)
{
  size_t i = 4;
  while (i < m->len && m->body[i]) {
    const uint8_t *z = memchr(m->body + i, 0, m->len - i);
    if (!z)
      return NULL;
    if (strcmp((const char *)m->body + i, "SCRAM-SHA-256") == 0)
      return "SCRAM-SHA-256";
    i = (size_t)(z - m->body) + 1;
  }
  return NULL;
}

static bool authenticate(PgConn *c, const PgConnInfo *ci, PgError *err)
{
  Arena *a = c->a;
  PgScram sc;
  memset(&sc, 0, sizeof sc);
  bool scram = false, scram_done = false;
  for (;;) {
    PgMsg m;
    if (!next_msg(c, &m, err))
      return false;
    if (m.type == 'E') {
      pgw_parse_error(a, m.body, m.len, err);
      return false;
    }
    if (m.type == 'Z')
      return true;
    if (m.type != 'R')
      continue;   /* ParameterStatus, BackendKeyData, notices */
    if (m.len < 4) {
      client_error(err, a, "invalid authentication request from %s", c->who);
      return false;
    }
    uint32_t code = get32(m.body);
    if (code == 0) {
      if (scram && !scram_done) {
        client_error(err, a, "the server %s ended SCRAM authentication "
                     "without proving it knows the password", c->who);
        return false;
      }
      continue;
    }
    if (code == 3) {
      if (!need_password(c, ci, err) || !send_password(c, ci->password, err))
        return false;
    } else if (code == 5) {
      if (m.len < 8) {
        client_error(err, a, "invalid md5 request from %s", c->who);
        return false;
      }
      if (!need_password(c, ci, err) ||
          !send_password(c, pgw_md5_password(a, ci->user, ci->password,
                                             m.body + 4), err))
        return false;
    } else if (code == 10) {
      const char *mech = sasl_choose(&m);
      if (!mech) {
        client_error(err, a, "the server %s offers no SASL mechanism this "
                     "client supports (SCRAM-SHA-256)", c->who);
        return false;
      }
      if (!need_password(c, ci, err))
        return false;
      uint8_t rnd[18];
      if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        client_error(err, a, "no randomness for the SCRAM nonce");
        return false;
      }
      unsigned char nonce[32];
      size_t nl = 0;
      mbedtls_base64_encode(nonce, sizeof nonce, &nl, rnd, sizeof rnd);
      /* PostgreSQL takes the user from the startup packet, not here. */
      const char *first = pgw_scram_first(a, &sc, "",
                                          arena_strndup(a, (char *)nonce, nl));
      Buf b;
      buf_init(&b, a);
      size_t at = begin(&b, 'p');
      put_str(&b, mech);
      put32(&b, (uint32_t)strlen(first));
      buf_puts(&b, first);
      finish(&b, at);
      if (!send_all(c, b.p, b.len, err))
        return false;
      scram = true;
    } else if (code == 11) {
      const char *why = NULL;
      const char *fin = scram ? pgw_scram_final(a, &sc,
                                                (const char *)m.body + 4,
                                                m.len - 4, ci->password, &why)
                              : NULL;
      if (!fin) {
        client_error(err, a, "SCRAM authentication with %s failed: %s",
                     c->who, why ? why : "unexpected SASL message");
        return false;
      }
      Buf b;
      buf_init(&b, a);
      size_t at = begin(&b, 'p');
      buf_puts(&b, fin);
      finish(&b, at);
      if (!send_all(c, b.p, b.len, err))
        return false;
    } else if (code == 12) {
      const char *why = NULL;
      if (!scram || !pgw_scram_verify(&sc, (const char *)m.body + 4,
                                      m.len - 4, &why)) {
        client_error(err, a, "SCRAM authentication with %s failed: %s",
                     c->who, why ? why : "unexpected SASL message");
        return false;
      }
      scram_done = true;
    } else {
      client_error(err, a, "the server %s asks for authentication method "
                   "%u, which this client does not support (trust, "
                   "password, md5 and scram-sha-256 are)", c->who, code);
      return false;
    }
  }
}

PgConn *pgw_connect(Arena *a, const PgConnInfo *ci, PgError *err)
{
  PgConn *c = ARENA_NEW(a, PgConn, 1);
  c->a = a;
  c->fd = -1;
  c->timeout_ms = (int)(ci->connect_timeout > 0 ? ci->connect_timeout : 30)
                  * 1000;
  buf_init(&c->in, a);
  c->fd = dial(c, ci, err);
  if (c->fd < 0)
    return NULL;
  Buf b;
  buf_init(&b, a);
  if (!negotiate_tls(c, ci, err))
    goto fail;
  size_t at = begin(&b, 0);
  put32(&b, PROTO_3);
  put_str(&b, "user");
  put_str(&b, ci->user);
  put_str(&b, "database");
  put_str(&b, ci->dbname);
  put_str(&b, "client_encoding");
  put_str(&b, "UTF8");
  if (ci->application_name) {
    put_str(&b, "application_name");
    put_str(&b, ci->application_name);
  }
  for (int i = 0; i < ci->nextra; i++) {
    put_str(&b, ci->extra_keys[i]);
    put_str(&b, ci->extra_vals[i]);
  }
  buf_putc(&b, 0);
  finish(&b, at);
  if (!send_all(c, b.p, b.len, err) || !authenticate(c, ci, err))
    goto fail;
  c->timeout_ms = -1;
  return c;
fail:
  pgw_close(c);
  return NULL;
}

void pgw_close(PgConn *c)
{
  if (!c)
    return;
  if (c->fd >= 0 && !c->broken) {
    /* Terminate, so the server ends the session (and its advisory locks)
    ** at once rather than when it notices the closed socket. */
    static const char term[5] = {'X', 0, 0, 0, 4};
    PgError e;
    c->timeout_ms = 1000;
    (void)send_all(c, term, sizeof term, &e);
  }
  if (c->tls_init) {
    if (c->tls)
      mbedtls_ssl_close_notify(&c->ssl);
    mbedtls_ssl_free(&c->ssl);
    mbedtls_ssl_config_free(&c->conf);
    mbedtls_x509_crt_free(&c->ca);
    mbedtls_x509_crt_free(&c->cert);
    mbedtls_pk_free(&c->key);
    mbedtls_ctr_drbg_free(&c->drbg);
    mbedtls_entropy_free(&c->ent);
    c->tls_init = c->tls = false;
  }
  if (c->fd >= 0)
    close(c->fd);
  c->fd = -1;
  c->broken = true;
}

bool pgw_broken(const PgConn *c)
{
  return !c || c->broken;
}

/* ---- queries ------------------------------------------------------------- */

int pgw_result_feed(Arena *a, const PgMsg *m, PgResult *res, PgError *err,
                    bool *failed)
{
  const uint8_t *p = m->body;
  size_t n = m->len;
  switch (m->type) {
  case 'T': {
    /* one description per statement, before its rows */
    if (n < 2 || res->nrows)
      goto bad;
    int nc = get16(p);
    size_t i = 2;
    res->ncols = nc;
    res->cols = ARENA_NEW(a, const char *, (size_t)nc + 1);
    for (int k = 0; k < nc; k++) {
      const uint8_t *z = i < n ? memchr(p + i, 0, n - i) : NULL;
      if (!z || (size_t)(z - p) + 1 + 18 > n)
        goto bad;
      res->cols[k] = arena_strndup(a, (const char *)p + i,
                                   (size_t)(z - (p + i)));
      i = (size_t)(z - p) + 1 + 18;
    }
    return 0;
  }
  case 'D': {
    if (n < 2)
      goto bad;
    int nc = get16(p);
    if (nc != res->ncols)
      goto bad;
    if ((res->nrows & (res->nrows - 1)) == 0) {
      size_t cap = res->nrows ? (size_t)res->nrows * 2 : 1;
      const char ***r = ARENA_NEW(a, const char **, cap);
      size_t **l = ARENA_NEW(a, size_t *, cap);
      if (res->nrows) {
        memcpy(r, res->rows, sizeof *r * (size_t)res->nrows);
        memcpy(l, res->lens, sizeof *l * (size_t)res->nrows);
      }
      res->rows = r;
      res->lens = l;
    }
    const char **row = ARENA_NEW(a, const char *, (size_t)nc + 1);
    size_t *len = ARENA_NEW(a, size_t, (size_t)nc + 1);
    size_t i = 2;
    for (int k = 0; k < nc; k++) {
      if (n - i < 4)
        goto bad;
      uint32_t l = get32(p + i);
      i += 4;
      if (l == 0xffffffffu)
        continue;
      if (l > n - i)
        goto bad;
      row[k] = arena_strndup(a, (const char *)p + i, l);
      len[k] = l;
      i += l;
    }
    res->rows[res->nrows] = row;
    res->lens[res->nrows++] = len;
    return 0;
  }
  case 'C':
    res->tag = arena_strndup(a, (const char *)p, strnlen((const char *)p, n));
    return 0;
  case 'E':
    if (!*failed) {
      pgw_parse_error(a, p, n, err);
      *failed = true;
    }
    return 0;
  case 'Z':
    return 1;
  case '1': case '2': case '3': case 'n': case 'I': case 's': case 'N':
  case 'S': case 'A': case 't': case 'K':
    return 0;
  default:
    goto bad;
  }
bad:
  if (!*failed) {
    memset(err, 0, sizeof *err);
    err->severity = "FATAL";
    err->sqlstate = "";
    err->message = arena_printf(a, "malformed \"%c\" message from the "
                                "server", m->type > 32 && m->type < 127
                                              ? m->type : '?');
  }
  *failed = true;
  return -1;
}

bool pgw_query(PgConn *c, Arena *a, const char *sql, int nparams,
               const char *const *params, PgResult *res, PgError *err)
{
  memset(res, 0, sizeof *res);
  if (pgw_broken(c)) {
    client_error(err, a, "the connection to the server is closed");
    return false;
  }
  Buf b;
  buf_init(&b, a);
  size_t at = begin(&b, 'P');
  put_str(&b, "");
  put_str(&b, sql);
  put16(&b, 0);
  finish(&b, at);
  at = begin(&b, 'B');
  put_str(&b, "");
  put_str(&b, "");
  put16(&b, 0);
  put16(&b, (uint16_t)nparams);
  for (int i = 0; i < nparams; i++) {
    if (!params[i]) {
      put32(&b, 0xffffffffu);
      continue;
    }
    size_t l = strlen(params[i]);
    put32(&b, (uint32_t)l);
    buf_put(&b, params[i], l);
  }
  put16(&b, 0);
  finish(&b, at);
  at = begin(&b, 'D');
  buf_putc(&b, 'P');
  put_str(&b, "");
  finish(&b, at);
  at = begin(&b, 'E');
  put_str(&b, "");
  put32(&b, 0);
  finish(&b, at);
  at = begin(&b, 'S');
  finish(&b, at);
  if (!send_all(c, b.p, b.len, err))
    return false;
  bool failed = false;
  PgError perr;
  for (;;) {
    PgMsg m;
    if (!next_msg(c, &m, err))
      return false;
    int r = pgw_result_feed(a, &m, res, &perr, &failed);
    if (r < 0) {
      c->broken = true;
      *err = perr;
      return false;
    }
    if (r == 1)
      break;
  }
  if (failed)
    *err = perr;
  return !failed;
}

/* ---- authentication helpers ---------------------------------------------- */

static void hex(char *out, const uint8_t *p, size_t n)
{
  static const char d[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = d[p[i] >> 4];
    out[2 * i + 1] = d[p[i] & 15];
  }
  out[2 * n] = 0;
}

const char *pgw_md5_password(Arena *a, const char *user,
                             const char *password, const uint8_t salt[4])
{
  Buf b;
  buf_init(&b, a);
  buf_puts(&b, password);
  buf_puts(&b, user);
  uint8_t sum[16];
  char h[33];
  mbedtls_md5((const unsigned char *)b.p, b.len, sum);
  hex(h, sum, 16);
  buf_clear(&b);
  buf_put(&b, h, 32);
  buf_put(&b, salt, 4);
  mbedtls_md5((const unsigned char *)b.p, b.len, sum);
  hex(h, sum, 16);
  return arena_printf(a, "md5%s", h);
}

static void hmac(const uint8_t *key, size_t kl, const void *in, size_t n,
                 uint8_t out[32])
{
  mbedtls_md_hmac(mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), key, kl,
                  in, n, out);
}

const char *pgw_scram_first(Arena *a, PgScram *s, const char *user,
                            const char *nonce)
{
  s->nonce = nonce;
  s->client_first_bare = arena_printf(a, "n=%s,r=%s", user, nonce);
  return arena_printf(a, "n,,%s", s->client_first_bare);
}

/* The value of attribute k ("k=...") in the comma-separated message. */
static const char *attr(Arena *a, const char *m, size_t n, char k)
{
  size_t i = 0;
  while (i < n) {
    size_t e = i;
    while (e < n && m[e] != ',')
      e++;
    if (e - i >= 2 && m[i] == k && m[i + 1] == '=')
      return arena_strndup(a, m + i + 2, e - i - 2);
    i = e + 1;
  }
  return NULL;
}

const char *pgw_scram_final(Arena *a, PgScram *s, const char *sf, size_t n,
                            const char *password, const char **why)
{
  if (memchr(sf, 0, n)) {
    *why = "a NUL byte in the server-first-message";
    return NULL;
  }
  if (n >= 2 && sf[0] == 'm' && sf[1] == '=') {
    *why = "the server asks for an extension this client does not know";
    return NULL;
  }
  const char *r = attr(a, sf, n, 'r');
  const char *salt64 = attr(a, sf, n, 's');
  const char *it = attr(a, sf, n, 'i');
  if (!r || !salt64 || !it) {
    *why = "the server-first-message lacks its nonce, salt or iteration "
           "count";
    return NULL;
  }
  size_t cl = strlen(s->nonce);
  if (strlen(r) <= cl || strncmp(r, s->nonce, cl) != 0) {
    *why = "the server's nonce does not extend the client's";
    return NULL;
  }
  char *end;
  errno = 0;
  long iter = strtol(it, &end, 10);
  if (!*it || *end || errno || iter < 1 || iter > SCRAM_MAX_ITER) {
    *why = "invalid iteration count";
    return NULL;
  }
  size_t sl = strlen(salt64), saltn = 0;
  uint8_t *salt = ARENA_NEW(a, uint8_t, sl + 1);
  if (mbedtls_base64_decode(salt, sl + 1, &saltn,
                            (const unsigned char *)salt64, sl) != 0 ||
      saltn == 0) {
    *why = "invalid salt";
    return NULL;
  }
  uint8_t salted[32], ckey[32], stored[32], csig[32], skey[32];
  if (mbedtls_pkcs5_pbkdf2_hmac_ext(MBEDTLS_MD_SHA256,
                                    (const unsigned char *)password,
                                    strlen(password), salt, saltn,
                                    (unsigned)iter, 32, salted) != 0) {
    *why = "PBKDF2 failed";
    return NULL;
  }
  hmac(salted, 32, "Client Key", 10, ckey);
  mbedtls_sha256(ckey, 32, stored, 0);
  const char *without = arena_printf(a, "c=biws,r=%s", r);
  Buf am;
  buf_init(&am, a);
  buf_puts(&am, s->client_first_bare);
  buf_putc(&am, ',');
  buf_put(&am, sf, n);
  buf_putc(&am, ',');
  buf_puts(&am, without);
  hmac(stored, 32, am.p, am.len, csig);
  uint8_t proof[32];
  for (int i = 0; i < 32; i++)
    proof[i] = ckey[i] ^ csig[i];
  hmac(salted, 32, "Server Key", 10, skey);
  hmac(skey, 32, am.p, am.len, s->server_signature);
  unsigned char p64[64];
  size_t pl = 0;
  mbedtls_base64_encode(p64, sizeof p64, &pl, proof, 32);
  return arena_printf(a, "%s,p=%.*s", without, (int)pl, (char *)p64);
}

bool pgw_scram_verify(const PgScram *s, const char *sf, size_t n,
                      const char **why)
{
  if (n >= 2 && sf[0] == 'e' && sf[1] == '=') {
    *why = "the server reports a SCRAM error";
    return false;
  }
  if (n < 2 || sf[0] != 'v' || sf[1] != '=') {
    *why = "invalid server-final-message";
    return false;
  }
  size_t e = 2;
  while (e < n && sf[e] != ',')
    e++;
  uint8_t sig[64];
  size_t sl = 0;
  if (mbedtls_base64_decode(sig, sizeof sig, &sl,
                            (const unsigned char *)sf + 2, e - 2) != 0 ||
      sl != 32 || memcmp(sig, s->server_signature, 32) != 0) {
    *why = "the server's signature is wrong (it does not know the "
           "password: a spoofed server?)";
    return false;
  }
  return true;
}
