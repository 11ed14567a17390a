/*
** tlspeer: a TLS handshake to fetch a server's certificate chain (see
** tlspeer.h).  mbedTLS keeps the peer's chain after the handshake
** (MBEDTLS_SSL_KEEP_PEER_CERTIFICATE); verification uses its X.509 code
** with the host's CA bundle.
*/
#include "tlspeer.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/error.h>
#include <mbedtls/net_sockets.h>
#include <mbedtls/ssl.h>
#include <mbedtls/x509_crt.h>
#include <psa/crypto.h>

#define TIMEOUT_MS 30000

static const char *const ca_bundles[] = {
  "/etc/ssl/certs/ca-certificates.crt",
  "/etc/pki/tls/certs/ca-bundle.crt",
  "/etc/ssl/ca-bundle.pem",
  "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
  "/etc/ssl/cert.pem",
  "/usr/local/share/certs/ca-root-nss.crt",
};

static int dial(const char *host, const char *port, const char **why)
{
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int rc = getaddrinfo(host, port, &hints, &res);
  if (rc != 0) {
    *why = gai_strerror(rc);
    return -1;
  }
  int fd = -1;
  *why = "connection refused";
  for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
                ai->ai_protocol);
    if (fd < 0)
      continue;
    int fl = fcntl(fd, F_GETFL);
    (void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
      break;
    if (errno == EINPROGRESS) {
      struct pollfd p = {fd, POLLOUT, 0};
      int e = 0;
      socklen_t el = sizeof e;
      if (poll(&p, 1, TIMEOUT_MS) == 1 &&
          getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) == 0 && e == 0)
        break;
      *why = e ? strerror(e) : "connection timed out";
    } else {
      *why = strerror(errno);
    }
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  return fd;
}

static int bio_send(void *ctx, const unsigned char *b, size_t n)
{
  int fd = *(int *)ctx;
  ssize_t r = send(fd, b, n, MSG_NOSIGNAL);
  if (r >= 0)
    return (int)r;
  return errno == EAGAIN || errno == EINTR ? MBEDTLS_ERR_SSL_WANT_WRITE
                                            : MBEDTLS_ERR_NET_SEND_FAILED;
}

static int bio_recv(void *ctx, unsigned char *b, size_t n)
{
  int fd = *(int *)ctx;
  ssize_t r = recv(fd, b, n, 0);
  if (r > 0)
    return (int)r;
  if (r == 0)
    return MBEDTLS_ERR_NET_CONN_RESET;
  return errno == EAGAIN || errno == EINTR ? MBEDTLS_ERR_SSL_WANT_READ
                                            : MBEDTLS_ERR_NET_RECV_FAILED;
}

bool tlspeer_fetch(Arena *a, const char *host, const char *port, bool verify,
                   const uint8_t ***ders, size_t **lens, size_t *n,
                   const char **err)
{
  mbedtls_ssl_context ssl;
  mbedtls_ssl_config conf;
  mbedtls_x509_crt ca;
  mbedtls_entropy_context ent;
  mbedtls_ctr_drbg_context drbg;
  bool ok = false;
  int fd = -1, rc;
  const char *why = NULL;
  char ebuf[160];
  psa_crypto_init();
  mbedtls_ssl_init(&ssl);
  mbedtls_ssl_config_init(&conf);
  mbedtls_x509_crt_init(&ca);
  mbedtls_entropy_init(&ent);
  mbedtls_ctr_drbg_init(&drbg);
  rc = mbedtls_ctr_drbg_seed(&drbg, mbedtls_entropy_func, &ent,
                             (const unsigned char *)"cairn-tlspeer", 13);
  if (verify && rc == 0) {
    const char *f = getenv("SSL_CERT_FILE"), *d = getenv("SSL_CERT_DIR");
    int loaded = -1;
    if (f && *f)
      loaded = mbedtls_x509_crt_parse_file(&ca, f);
    if (d && *d && mbedtls_x509_crt_parse_path(&ca, d) >= 0 && loaded < 0)
      loaded = 0;
    for (size_t i = 0; loaded < 0 && !(f && *f) && !(d && *d) &&
                       i < sizeof ca_bundles / sizeof ca_bundles[0];
         i++)
      if (access(ca_bundles[i], R_OK) == 0)
        loaded = mbedtls_x509_crt_parse_file(&ca, ca_bundles[i]);
    if (loaded < 0) {
      *err = "no CA certificates could be read to verify the chain (set "
             "SSL_CERT_FILE or SSL_CERT_DIR, or verify_chain = false)";
      goto out;
    }
  }
  if (rc == 0)
    rc = mbedtls_ssl_config_defaults(&conf, MBEDTLS_SSL_IS_CLIENT,
                                     MBEDTLS_SSL_TRANSPORT_STREAM,
                                     MBEDTLS_SSL_PRESET_DEFAULT);
  if (rc != 0) {
    mbedtls_strerror(rc, ebuf, sizeof ebuf);
    *err = arena_printf(a, "TLS setup failed: %s", ebuf);
    goto out;
  }
  mbedtls_ssl_conf_rng(&conf, mbedtls_ctr_drbg_random, &drbg);
  mbedtls_ssl_conf_min_tls_version(&conf, MBEDTLS_SSL_VERSION_TLS1_2);
  mbedtls_ssl_conf_authmode(&conf, verify ? MBEDTLS_SSL_VERIFY_REQUIRED
                                          : MBEDTLS_SSL_VERIFY_NONE);
  if (verify)
    mbedtls_ssl_conf_ca_chain(&conf, &ca, NULL);
  rc = mbedtls_ssl_setup(&ssl, &conf);
  if (rc == 0)
    rc = mbedtls_ssl_set_hostname(&ssl, host);
  if (rc != 0) {
    mbedtls_strerror(rc, ebuf, sizeof ebuf);
    *err = arena_printf(a, "TLS setup failed: %s", ebuf);
    goto out;
  }
  fd = dial(host, port, &why);
  if (fd < 0) {
    *err = arena_printf(a, "unable to connect to %s:%s: %s", host, port,
                        why);
    goto out;
  }
  mbedtls_ssl_set_bio(&ssl, &fd, bio_send, bio_recv, NULL);
  while ((rc = mbedtls_ssl_handshake(&ssl)) != 0) {
    if (rc == MBEDTLS_ERR_SSL_WANT_READ || rc == MBEDTLS_ERR_SSL_WANT_WRITE) {
      struct pollfd p = {fd, rc == MBEDTLS_ERR_SSL_WANT_READ ? POLLIN
                                                             : POLLOUT, 0};
      if (poll(&p, 1, TIMEOUT_MS) != 1) {
        *err = arena_printf(a, "TLS handshake with %s:%s timed out", host,
                            port);
        goto out;
      }
      continue;
    }
    uint32_t f = mbedtls_ssl_get_verify_result(&ssl);
    if (rc == MBEDTLS_ERR_X509_CERT_VERIFY_FAILED && f != (uint32_t)-1) {
      why = f & MBEDTLS_X509_BADCERT_CN_MISMATCH
                ? "the certificate is not valid for this host name"
            : f & MBEDTLS_X509_BADCERT_EXPIRED
                ? "the certificate has expired"
            : f & MBEDTLS_X509_BADCERT_FUTURE
                ? "the certificate is not valid yet"
            : f & MBEDTLS_X509_BADCERT_NOT_TRUSTED
                ? "the certificate is signed by an unknown authority"
                : "the certificate was refused";
      *err = arena_printf(a, "tls: failed to verify certificate of %s:%s: "
                          "%s", host, port, why);
    } else {
      mbedtls_strerror(rc, ebuf, sizeof ebuf);
      *err = arena_printf(a, "TLS handshake with %s:%s failed: %s", host,
                          port, ebuf);
    }
    goto out;
  }
  const mbedtls_x509_crt *peer = mbedtls_ssl_get_peer_cert(&ssl);
  size_t k = 0;
  for (const mbedtls_x509_crt *c = peer; c && c->raw.len; c = c->next)
    k++;
  if (k == 0) {
    *err = arena_printf(a, "%s:%s presented no certificate", host, port);
    goto out;
  }
  const uint8_t **dv = ARENA_NEW(a, const uint8_t *, k);
  size_t *lv = ARENA_NEW(a, size_t, k);
  k = 0;
  for (const mbedtls_x509_crt *c = peer; c && c->raw.len; c = c->next) {
    uint8_t *copy = ARENA_NEW(a, uint8_t, c->raw.len);
    memcpy(copy, c->raw.p, c->raw.len);
    dv[k] = copy;
    lv[k++] = c->raw.len;
  }
  *ders = dv;
  *lens = lv;
  *n = k;
  (void)mbedtls_ssl_close_notify(&ssl);
  ok = true;
out:
  if (fd >= 0)
    close(fd);
  mbedtls_ssl_free(&ssl);
  mbedtls_ssl_config_free(&conf);
  mbedtls_x509_crt_free(&ca);
  mbedtls_ctr_drbg_free(&drbg);
  mbedtls_entropy_free(&ent);
  return ok;
}
