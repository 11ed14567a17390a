/*
** tlskey: key generation, parsing and Go-compatible encodings for the tls
** provider (see tlskey.h).  DER is built by hand from the key's numbers
** (mbedTLS's writers cover PKCS#1 and SEC1 only, not PKCS#8, and the
** SSH wire format is not theirs at all), so each structure below names
** the Go function whose bytes it reproduces.
*/
#include "tlskey.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <mbedtls/base64.h>
#include <mbedtls/bignum.h>
#include <mbedtls/ctr_drbg.h>
#include <mbedtls/ecp.h>
#include <mbedtls/md5.h>
#include <mbedtls/platform_util.h>
#include <mbedtls/rsa.h>
#include <mbedtls/sha1.h>
#include <mbedtls/sha256.h>

#include "base/buf.h"
#include "ed25519.h"

/* ---- randomness ---------------------------------------------------------- */

static mbedtls_ctr_drbg_context drbg;
static pthread_once_t drbg_once = PTHREAD_ONCE_INIT;

static int os_entropy(void *ctx, unsigned char *buf, size_t n)
{
  (void)ctx;
  size_t got = 0;
  while (got < n) {
    ssize_t r = getrandom(buf + got, n - got, 0);
    if (r > 0)
      got += (size_t)r;
    else if (r < 0 && errno == EINTR)
      continue;
    else
      return MBEDTLS_ERR_CTR_DRBG_ENTROPY_SOURCE_FAILED;
  }
  return 0;
}

static void drbg_init(void)
{
  static const unsigned char pers[] = "cairn tls provider";
  mbedtls_ctr_drbg_init(&drbg);
  if (mbedtls_ctr_drbg_seed(&drbg, os_entropy, NULL, pers,
                            sizeof pers - 1) != 0) {
    fputs("cairn: getrandom failed\n", stderr);
    abort();
  }
}

int tlskey_rng(void *ctx, unsigned char *buf, size_t n)
{
  (void)ctx;
  pthread_once(&drbg_once, drbg_init);
  /* The DRBG reseeds itself from getrandom; requests above its limit
  ** are split. */
  while (n > 0) {
    size_t k = n > MBEDTLS_CTR_DRBG_MAX_REQUEST ? MBEDTLS_CTR_DRBG_MAX_REQUEST
                                                : n;
    if (mbedtls_ctr_drbg_random(&drbg, buf, k) != 0) {
      fputs("cairn: getrandom failed\n", stderr);
      abort();
    }
    buf += k;
    n -= k;
  }
  return 0;
}

/* ---- DER ------------------------------------------------------------------ */

void tlskey_der_tlv(Buf *b, uint8_t tag, const void *p, size_t n)
{
  uint8_t hdr[6];
  size_t h = 0;
  hdr[h++] = tag;
  if (n < 0x80) {
    hdr[h++] = (uint8_t)n;
  } else {
    int k = n > 0xffffff ? 4 : n > 0xffff ? 3 : n > 0xff ? 2 : 1;
    hdr[h++] = (uint8_t)(0x80 | k);
    for (int i = k - 1; i >= 0; i--)
      hdr[h++] = (uint8_t)(n >> (8 * i));
  }
  buf_put(b, hdr, h);
  buf_put(b, p, n);
}

void tlskey_der_wrap(Arena *a, Buf *b, uint8_t tag)
{
  Buf o;
  buf_init(&o, a);
  tlskey_der_tlv(&o, tag, b->p, b->len);
  *b = o;
}

/* Big-endian magnitude of x with one leading zero byte when the top bit is
** set (DER INTEGER and SSH mpint share this form); zero is empty. */
static const uint8_t *mpi_bytes(Arena *a, const mbedtls_mpi *x, size_t *n)
{
  size_t len = mbedtls_mpi_size(x);
  uint8_t *p = ARENA_NEW(a, uint8_t, len + 1);
  if (len)
    (void)mbedtls_mpi_write_binary(x, p + 1, len);
  if (len && (p[1] & 0x80)) {
    *n = len + 1;
    return p;
  }
  *n = len;
  return p + 1;
}

static void der_int(Arena *a, Buf *b, const mbedtls_mpi *x)
{
  size_t n;
  const uint8_t *p = mpi_bytes(a, x, &n);
  if (n == 0)
    tlskey_der_tlv(b, 0x02, "\0", 1);
  else
    tlskey_der_tlv(b, 0x02, p, n);
}

static void der_small(Buf *b, uint8_t v) { tlskey_der_tlv(b, 0x02, &v, 1); }

static const uint8_t oid_rsa[] = {0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7,
                                  0x0d, 0x01, 0x01, 0x01};
static const uint8_t oid_ec[] = {0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
                                 0x02, 0x01};
static const uint8_t oid_ed25519[] = {0x06, 0x03, 0x2b, 0x65, 0x70};
static const uint8_t der_null[] = {0x05, 0x00};

/* The curves upstream offers, with their names in SSH and DER. */
static const struct Curve {
  const char *name;         /* "P256" (ecdsa_curve) */
  mbedtls_ecp_group_id id;
  const char *ssh;          /* "nistp256", NULL: no SSH encoding */
  uint8_t oid[10];          /* DER OID, tag and length included */
  size_t oidlen;
} curves[] = {
  {"P224", MBEDTLS_ECP_DP_SECP224R1, NULL,
   {0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x21}, 7},
  {"P256", MBEDTLS_ECP_DP_SECP256R1, "nistp256",
   {0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07}, 10},
  {"P384", MBEDTLS_ECP_DP_SECP384R1, "nistp384",
   {0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22}, 7},
  {"P521", MBEDTLS_ECP_DP_SECP521R1, "nistp521",
   {0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23}, 7},
};

static const struct Curve *curve_of(const TlsKey *k)
{
  if (k->alg != TLS_ALG_ECDSA)
    return NULL;
  mbedtls_ecp_group_id id =
      mbedtls_ecp_keypair_get_group_id(mbedtls_pk_ec(k->pk));
  for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
    if (curves[i].id == id)
      return &curves[i];
  return NULL;
}

/* ---- init, names, generation ------------------------------------------- */

void tlskey_init(TlsKey *k)
{
  memset(k, 0, sizeof *k);
  mbedtls_pk_init(&k->pk);
}

void tlskey_free(TlsKey *k)
{
  mbedtls_pk_free(&k->pk);
  mbedtls_platform_zeroize(k->seed, sizeof k->seed);
  k->alg = TLS_ALG_NONE;
}

const char *tlskey_alg_name(TlsAlg alg)
{
  switch (alg) {
  case TLS_ALG_RSA:
    return "RSA";
  case TLS_ALG_ECDSA:
    return "ECDSA";
  case TLS_ALG_ED25519:
    return "ED25519";
  default:
    return "";
  }
}

bool tlskey_generate(Arena *a, TlsKey *k, TlsAlg alg, int bits,
                     const char *curve, const char **err)
{
  int rc;
  k->alg = alg;
  switch (alg) {
  case TLS_ALG_RSA:
    /* Go 1.24's crypto/rsa refuses keys under 1024 bits; mbedTLS needs
    ** an even size and stops at MBEDTLS_MPI_MAX_BITS. */
    if (bits < 1024) {
      *err = arena_printf(a, "crypto/rsa: %d-bit keys are insecure (see "
                          "https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_"
                          "size)", bits);
      return false;
    }
    if (bits % 2 != 0 || bits > MBEDTLS_MPI_MAX_BITS) {
      *err = arena_printf(a, "unsupported RSA key size %d: cairn generates "
                          "even sizes from 1024 to %d bits", bits,
                          MBEDTLS_MPI_MAX_BITS);
      return false;
    }
    rc = mbedtls_pk_setup(&k->pk, mbedtls_pk_info_from_type(MBEDTLS_PK_RSA));
    if (rc == 0)
      rc = mbedtls_rsa_gen_key(mbedtls_pk_rsa(k->pk), tlskey_rng, NULL,
                               (unsigned)bits, 65537);
    break;
  case TLS_ALG_ECDSA: {
    const struct Curve *c = NULL;
    for (size_t i = 0; curve && i < sizeof curves / sizeof curves[0]; i++)
      if (strcmp(curves[i].name, curve) == 0)
        c = &curves[i];
    if (!c) {
      *err = "invalid ECDSA curve; supported values are: [P224 P256 P384 "
             "P521]";
      return false;
    }
    rc = mbedtls_pk_setup(&k->pk,
                          mbedtls_pk_info_from_type(MBEDTLS_PK_ECKEY));
    if (rc == 0)
      rc = mbedtls_ecp_gen_key(c->id, mbedtls_pk_ec(k->pk), tlskey_rng,
                               NULL);
    break;
  }
  case TLS_ALG_ED25519:
    tlskey_rng(NULL, k->seed, sizeof k->seed);
    ed25519_public(k->pub, k->seed);
    return true;
  default:
    *err = "unsupported key algorithm";
    return false;
  }
  if (rc != 0) {
    *err = arena_printf(a, "key generation failed (mbedTLS error -0x%04x)",
                        (unsigned)-rc);
    return false;
  }
  return true;
}

/* ---- PEM ------------------------------------------------------------------ */

const char *tlskey_pem(Arena *a, const char *type, const uint8_t *der,
                       size_t n)
{
  Buf b;
  buf_init(&b, a);
  size_t olen = 0;
  (void)mbedtls_base64_encode(NULL, 0, &olen, der, n);
  unsigned char *enc = ARENA_NEW(a, unsigned char, olen + 1);
  (void)mbedtls_base64_encode(enc, olen + 1, &olen, der, n);
  buf_printf(&b, "-----BEGIN %s-----\n", type);
  for (size_t i = 0; i < olen; i += 64) {
    buf_put(&b, enc + i, olen - i < 64 ? olen - i : 64);
    buf_putc(&b, '\n');
  }
  buf_printf(&b, "-----END %s-----\n", type);
  return buf_str(&b);
}

static const char *find(const char *s, size_t n, const char *pat)
{
  size_t m = strlen(pat);
  for (size_t i = 0; i + m <= n; i++)
    if (memcmp(s + i, pat, m) == 0)
      return s + i;
  return NULL;
}

bool tlskey_pem_decode(Arena *a, const char *text, size_t n,
                       const char **type, uint8_t **der, size_t *dern,
                       size_t *rest_off)
{
  const char *end = text + n, *p = text;
  for (;;) {
    const char *beg = find(p, (size_t)(end - p), "-----BEGIN ");
    if (!beg)
      return false;
    /* a block starts at the beginning of the input or of a line */
    if (beg != text && beg[-1] != '\n') {
      p = beg + 1;
      continue;
    }
    const char *t = beg + 11;
    const char *eol = memchr(t, '\n', (size_t)(end - t));
    const char *lend = eol ? eol : end;
    while (lend > t && (lend[-1] == '\r' || lend[-1] == ' ' ||
                        lend[-1] == '\t'))
      lend--;
    if (lend - t < 5 || memcmp(lend - 5, "-----", 5) != 0 || !eol) {
      p = beg + 1;
      continue;
    }
    const char *ty = arena_strndup(a, t, (size_t)(lend - 5 - t));
    const char *endline = arena_printf(a, "-----END %s-----", ty);
    const char *body = eol + 1;
    const char *fin = find(body, (size_t)(end - body), endline);
    if (!fin) {
      p = beg + 1;
      continue;
    }
    /* Skip RFC 1421 headers ("Key: value" lines before a blank line). */
    const char *q = body;
    const char *colon = memchr(q, ':', (size_t)(fin - q));
    if (colon) {
      const char *blank = find(q, (size_t)(fin - q), "\n\n");
      q = blank ? blank + 2 : fin;
    }
    Buf clean;
    buf_init(&clean, a);
    for (; q < fin; q++)
      if (*q != '\n' && *q != '\r' && *q != ' ' && *q != '\t')
        buf_putc(&clean, *q);
    size_t olen = 0;
    uint8_t *out = ARENA_NEW(a, uint8_t, clean.len + 1);
    if (mbedtls_base64_decode(out, clean.len + 1, &olen,
                              (const unsigned char *)(clean.p ? clean.p : ""),
                              clean.len) != 0) {
      p = beg + 1;
      continue;
    }
    const char *after = fin + strlen(endline);
    const char *nl = memchr(after, '\n', (size_t)(end - after));
    *type = ty;
    *der = out;
    *dern = olen;
    *rest_off = (size_t)((nl ? nl + 1 : end) - text);
    return true;
  }
}

/* ---- DER encodings ------------------------------------------------------ */

/* x509.MarshalPKCS1PrivateKey. */
static void pkcs1_private(Arena *a, const TlsKey *k, Buf *out)
{
  mbedtls_mpi n, e, d, p, q, dp, dq, qp;
  mbedtls_mpi *all[] = {&n, &e, &d, &p, &q, &dp, &dq, &qp};
  for (int i = 0; i < 8; i++)
    mbedtls_mpi_init(all[i]);
  const mbedtls_rsa_context *r = mbedtls_pk_rsa(k->pk);
  (void)mbedtls_rsa_export(r, &n, &p, &q, &d, &e);
  (void)mbedtls_rsa_export_crt(r, &dp, &dq, &qp);
  buf_init(out, a);
  der_small(out, 0);
  for (int i = 0; i < 8; i++)
    der_int(a, out, all[i]);
  tlskey_der_wrap(a, out, 0x30);
  for (int i = 0; i < 8; i++)
    mbedtls_mpi_free(all[i]);
}

/* The uncompressed point and the private scalar (curve-sized). */
static void ec_parts(Arena *a, const TlsKey *k, const uint8_t **pt,
                     size_t *ptn, const uint8_t **d, size_t *dn)
{
  const mbedtls_ecp_keypair *kp = mbedtls_pk_ec(k->pk);
  uint8_t *buf = ARENA_NEW(a, uint8_t, 2 * MBEDTLS_ECP_MAX_BYTES + 1);
  (void)mbedtls_ecp_write_public_key(kp, MBEDTLS_ECP_PF_UNCOMPRESSED, ptn,
                                     buf, 2 * MBEDTLS_ECP_MAX_BYTES + 1);
  *pt = buf;
  if (d) {
    uint8_t *sb = ARENA_NEW(a, uint8_t, MBEDTLS_ECP_MAX_BYTES);
    (void)mbedtls_ecp_write_key_ext(kp, dn, sb, MBEDTLS_ECP_MAX_BYTES);
    *d = sb;
  }
}

/* x509.MarshalECPrivateKey (with_oid) or the form PKCS#8 embeds. */
static void sec1_private(Arena *a, const TlsKey *k, bool with_oid, Buf *out)
{
  const uint8_t *pt, *d;
  size_t ptn, dn;
  ec_parts(a, k, &pt, &ptn, &d, &dn);
  const struct Curve *c = curve_of(k);
  buf_init(out, a);
  der_small(out, 1);
  tlskey_der_tlv(out, 0x04, d, dn);
  if (with_oid)
    tlskey_der_tlv(out, 0xa0, c->oid, c->oidlen);
  Buf bits;
  buf_init(&bits, a);
  buf_putc(&bits, 0);
  buf_put(&bits, pt, ptn);
  tlskey_der_wrap(a, &bits, 0x03);
  tlskey_der_tlv(out, 0xa1, bits.p, bits.len);
  tlskey_der_wrap(a, out, 0x30);
}

/* x509.MarshalPKCS8PrivateKey. */
static void pkcs8_private(Arena *a, const TlsKey *k, Buf *out)
{
  Buf alg, inner;
  buf_init(&alg, a);
  switch (k->alg) {
  case TLS_ALG_RSA:
    buf_put(&alg, oid_rsa, sizeof oid_rsa);
    buf_put(&alg, der_null, sizeof der_null);
    pkcs1_private(a, k, &inner);
    break;
  case TLS_ALG_ECDSA: {
    const struct Curve *c = curve_of(k);
    buf_put(&alg, oid_ec, sizeof oid_ec);
    buf_put(&alg, c->oid, c->oidlen);
    sec1_private(a, k, false, &inner);
    break;
  }
  default:
    buf_put(&alg, oid_ed25519, sizeof oid_ed25519);
    buf_init(&inner, a);
    tlskey_der_tlv(&inner, 0x04, k->seed, 32);
    break;
  }
  tlskey_der_wrap(a, &alg, 0x30);
  buf_init(out, a);
  der_small(out, 0);
  buf_put(out, alg.p, alg.len);
  tlskey_der_tlv(out, 0x04, inner.p, inner.len);
  tlskey_der_wrap(a, out, 0x30);
}

bool tlskey_public_der(Arena *a, const TlsKey *k, const uint8_t **der,
                       size_t *n, const char **err)
{
  Buf alg, key, out;
  buf_init(&alg, a);
  buf_init(&key, a);
  buf_putc(&key, 0); /* BIT STRING: no unused bits */
  switch (k->alg) {
  case TLS_ALG_RSA: {
    mbedtls_mpi nn, e;
    mbedtls_mpi_init(&nn);
    mbedtls_mpi_init(&e);
    (void)mbedtls_rsa_export(mbedtls_pk_rsa(k->pk), &nn, NULL, NULL, NULL,
                             &e);
    Buf seq;
    buf_init(&seq, a);
    der_int(a, &seq, &nn);
    der_int(a, &seq, &e);
    tlskey_der_wrap(a, &seq, 0x30);
    buf_put(&key, seq.p, seq.len);
    mbedtls_mpi_free(&nn);
    mbedtls_mpi_free(&e);
    buf_put(&alg, oid_rsa, sizeof oid_rsa);
    buf_put(&alg, der_null, sizeof der_null);
    break;
  }
  case TLS_ALG_ECDSA: {
    const uint8_t *pt;
    size_t ptn;
    ec_parts(a, k, &pt, &ptn, NULL, NULL);
    buf_put(&key, pt, ptn);
    const struct Curve *c = curve_of(k);
    buf_put(&alg, oid_ec, sizeof oid_ec);
    buf_put(&alg, c->oid, c->oidlen);
    break;
  }
  case TLS_ALG_ED25519:
    buf_put(&key, k->pub, 32);
    buf_put(&alg, oid_ed25519, sizeof oid_ed25519);
    break;
  default:
    *err = "unsupported key algorithm";
    return false;
  }
  tlskey_der_wrap(a, &alg, 0x30);
  tlskey_der_wrap(a, &key, 0x03);
  buf_init(&out, a);
  buf_put(&out, alg.p, alg.len);
  buf_put(&out, key.p, key.len);
  tlskey_der_wrap(a, &out, 0x30);
  *der = (const uint8_t *)out.p;
  *n = out.len;
  return true;
}

/* ---- SSH wire format ---------------------------------------------------- */

static void ssh_u32(Buf *b, uint32_t v)
{
  uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8),
                  (uint8_t)v};
  buf_put(b, x, 4);
}

static void ssh_str(Buf *b, const void *p, size_t n)
{
  ssh_u32(b, (uint32_t)n);
  buf_put(b, p, n);
}

static void ssh_cstr(Buf *b, const char *s) { ssh_str(b, s, strlen(s)); }

static void ssh_mpint(Arena *a, Buf *b, const mbedtls_mpi *x)
{
  size_t n;
  const uint8_t *p = mpi_bytes(a, x, &n);
  ssh_str(b, p, n);
}

/* The key type name ("ssh-rsa") or NULL when SSH has no encoding. */
static const char *ssh_type(Arena *a, const TlsKey *k)
{
  switch (k->alg) {
  case TLS_ALG_RSA:
    return "ssh-rsa";
  case TLS_ALG_ED25519:
    return "ssh-ed25519";
  case TLS_ALG_ECDSA: {
    const struct Curve *c = curve_of(k);
    return c && c->ssh ? arena_printf(a, "ecdsa-sha2-%s", c->ssh) : NULL;
  }
  default:
    return NULL;
  }
}

/* ssh.NewPublicKey(...).Marshal(); false when SSH has no encoding. */
static bool ssh_public_blob(Arena *a, const TlsKey *k, Buf *out)
{
  const char *type = ssh_type(a, k);
  if (!type)
    return false;
  buf_init(out, a);
  ssh_cstr(out, type);
  switch (k->alg) {
  case TLS_ALG_RSA: {
    mbedtls_mpi n, e;
    mbedtls_mpi_init(&n);
    mbedtls_mpi_init(&e);
    (void)mbedtls_rsa_export(mbedtls_pk_rsa(k->pk), &n, NULL, NULL, NULL,
                             &e);
    ssh_mpint(a, out, &e);
    ssh_mpint(a, out, &n);
    mbedtls_mpi_free(&n);
    mbedtls_mpi_free(&e);
    break;
  }
  case TLS_ALG_ECDSA: {
    const uint8_t *pt;
    size_t ptn;
    ec_parts(a, k, &pt, &ptn, NULL, NULL);
    ssh_cstr(out, curve_of(k)->ssh);
    ssh_str(out, pt, ptn);
    break;
  }
  default:
    ssh_str(out, k->pub, 32);
    break;
  }
  return true;
}

static const char *b64(Arena *a, const void *p, size_t n, bool pad)
{
  size_t olen = 0;
  (void)mbedtls_base64_encode(NULL, 0, &olen, p, n);
  unsigned char *enc = ARENA_NEW(a, unsigned char, olen + 1);
  (void)mbedtls_base64_encode(enc, olen + 1, &olen, p, n);
  enc[olen] = 0;
  while (!pad && olen > 0 && enc[olen - 1] == '=')
    enc[--olen] = 0;
  return (const char *)enc;
}

/* ssh.MarshalPrivateKey(key, "") without encryption. */
static const char *openssh_private(Arena *a, const TlsKey *k, uint32_t check,
                                   const Buf *pubblob)
{
  Buf priv;
  buf_init(&priv, a);
  ssh_u32(&priv, check);
  ssh_u32(&priv, check);
  ssh_cstr(&priv, ssh_type(a, k));
  switch (k->alg) {
  case TLS_ALG_RSA: {
    mbedtls_mpi n, e, d, p, q, dp, dq, qp;
    mbedtls_mpi *all[] = {&n, &e, &d, &p, &q, &dp, &dq, &qp};
    for (int i = 0; i < 8; i++)
      mbedtls_mpi_init(all[i]);
    const mbedtls_rsa_context *r = mbedtls_pk_rsa(k->pk);
    (void)mbedtls_rsa_export(r, &n, &p, &q, &d, &e);
    (void)mbedtls_rsa_export_crt(r, &dp, &dq, &qp);
    const mbedtls_mpi *order[] = {&n, &e, &d, &qp, &p, &q};
    for (int i = 0; i < 6; i++)
      ssh_mpint(a, &priv, order[i]);
    for (int i = 0; i < 8; i++)
      mbedtls_mpi_free(all[i]);
    break;
  }
  case TLS_ALG_ECDSA: {
    const uint8_t *pt, *d;
    size_t ptn, dn;
    ec_parts(a, k, &pt, &ptn, &d, &dn);
    ssh_cstr(&priv, curve_of(k)->ssh);
    ssh_str(&priv, pt, ptn);
    /* D as an mpint: minimal, with a zero byte before a set top bit */
    while (dn > 0 && d[0] == 0) {
      d++;
      dn--;
    }
    if (dn > 0 && (d[0] & 0x80)) {
      ssh_u32(&priv, (uint32_t)dn + 1);
      buf_putc(&priv, 0);
      buf_put(&priv, d, dn);
    } else {
      ssh_str(&priv, d, dn);
    }
    break;
  }
  default: {
    uint8_t both[64];
    memcpy(both, k->seed, 32);
    memcpy(both + 32, k->pub, 32);
    ssh_str(&priv, k->pub, 32);
    ssh_str(&priv, both, 64);
    mbedtls_platform_zeroize(both, sizeof both);
    break;
  }
  }
  ssh_cstr(&priv, ""); /* comment */
  for (uint8_t i = 1; priv.len % 8 != 0; i++)
    buf_putc(&priv, (char)i);
  Buf w;
  buf_init(&w, a);
  buf_put(&w, "openssh-key-v1", 15); /* with its NUL */
  ssh_cstr(&w, "none");
  ssh_cstr(&w, "none");
  ssh_cstr(&w, "");
  ssh_u32(&w, 1);
  ssh_str(&w, pubblob->p, pubblob->len);
  ssh_str(&w, priv.p, priv.len);
  return tlskey_pem(a, "OPENSSH PRIVATE KEY", (const uint8_t *)w.p, w.len);
}

/* Go's strings.TrimSpace on bytes: ASCII white space and the UTF-8
** encodings of Unicode's other space characters at either end. */
static size_t space_at_end(const uint8_t *p, size_t n)
{
  if (n >= 1 && (p[n - 1] == ' ' || (p[n - 1] >= '\t' && p[n - 1] <= '\r')))
    return 1;
  if (n >= 2 && p[n - 2] == 0xc2 && (p[n - 1] == 0x85 || p[n - 1] == 0xa0))
    return 2;
  if (n >= 3) {
    const uint8_t *q = p + n - 3;
    unsigned cp = (unsigned)(q[0] & 0x0f) << 12 | (unsigned)(q[1] & 0x3f) << 6 |
                  (q[2] & 0x3f);
    if ((q[0] & 0xf0) == 0xe0 && (q[1] & 0xc0) == 0x80 &&
        (q[2] & 0xc0) == 0x80 &&
        (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000))
      return 3;
  }
  return 0;
}

static size_t space_at_start(const uint8_t *p, size_t n)
{
  if (n >= 1 && (p[0] == ' ' || (p[0] >= '\t' && p[0] <= '\r')))
    return 1;
  if (n >= 2 && p[0] == 0xc2 && (p[1] == 0x85 || p[1] == 0xa0))
    return 2;
  if (n >= 3 && (p[0] & 0xf0) == 0xe0 && (p[1] & 0xc0) == 0x80 &&
      (p[2] & 0xc0) == 0x80) {
    unsigned cp = (unsigned)(p[0] & 0x0f) << 12 |
                  (unsigned)(p[1] & 0x3f) << 6 | (p[2] & 0x3f);
    if (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 ||
        cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000)
      return 3;
  }
  return 0;
}

static const char *hex(Arena *a, const uint8_t *p, size_t n, const char *sep)
{
  Buf b;
  buf_init(&b, a);
  for (size_t i = 0; i < n; i++)
    buf_printf(&b, "%s%02x", i && sep ? sep : "", p[i]);
  return buf_str(&b);
}

const char *tlskey_hash_for_state(Arena *a, const uint8_t *p, size_t n)
{
  size_t lo = 0, hi = n, s;
  while ((s = space_at_start(p + lo, hi - lo)) > 0)
    lo += s;
  while ((s = space_at_end(p + lo, hi - lo)) > 0)
    hi -= s;
  uint8_t sha1[20];
  mbedtls_sha1(p + lo, hi - lo, sha1);
  return hex(a, sha1, sizeof sha1, NULL);
}

bool tlskey_encode(Arena *a, const TlsKey *k, uint32_t check,
                   TlsKeyText *out, const char **err)
{
  Buf der;
  switch (k->alg) {
  case TLS_ALG_RSA:
    pkcs1_private(a, k, &der);
    out->private_pem = tlskey_pem(a, "RSA PRIVATE KEY",
                                  (const uint8_t *)der.p, der.len);
    break;
  case TLS_ALG_ECDSA:
    if (!curve_of(k)) {
      *err = "x509: unknown elliptic curve";
      return false;
    }
    sec1_private(a, k, true, &der);
    out->private_pem = tlskey_pem(a, "EC PRIVATE KEY",
                                  (const uint8_t *)der.p, der.len);
    break;
  case TLS_ALG_ED25519:
    pkcs8_private(a, k, &der);
    out->private_pem = tlskey_pem(a, "PRIVATE KEY", (const uint8_t *)der.p,
                                  der.len);
    break;
  default:
    *err = "unsupported key algorithm";
    return false;
  }
  pkcs8_private(a, k, &der);
  out->pkcs8_pem = tlskey_pem(a, "PRIVATE KEY", (const uint8_t *)der.p,
                              der.len);
  const uint8_t *pub;
  size_t pubn;
  if (!tlskey_public_der(a, k, &pub, &pubn, err))
    return false;
  out->public_pem = tlskey_pem(a, "PUBLIC KEY", pub, pubn);
  out->id = tlskey_hash_for_state(a, pub, pubn);
  Buf blob;
  if (!ssh_public_blob(a, k, &blob)) {
    out->openssh_private = out->authorized_key = "";
    out->fingerprint_md5 = out->fingerprint_sha256 = "";
    return true;
  }
  out->authorized_key = arena_printf(a, "%s %s\n", ssh_type(a, k),
                                     b64(a, blob.p, blob.len, true));
  uint8_t md5[16], sha256[32];
  mbedtls_md5((const unsigned char *)blob.p, blob.len, md5);
  mbedtls_sha256((const unsigned char *)blob.p, blob.len, sha256, 0);
  out->fingerprint_md5 = hex(a, md5, sizeof md5, ":");
  out->fingerprint_sha256 = arena_printf(
      a, "SHA256:%s", b64(a, sha256, sizeof sha256, false));
  out->openssh_private = openssh_private(a, k, check, &blob);
  return true;
}

/* ---- parsing -------------------------------------------------------------- */

/* The DER PKCS#8 of an Ed25519 key up to its 32-byte seed (RFC 8410). */
static const uint8_t ed25519_pkcs8_prefix[16] = {
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,
    0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20};

static bool set_ed25519(TlsKey *k, const uint8_t seed[32])
{
  k->alg = TLS_ALG_ED25519;
  memcpy(k->seed, seed, 32);
  ed25519_public(k->pub, k->seed);
  return true;
}

/* The key of a DER structure mbedTLS reads (PKCS#1, SEC1, PKCS#8). */
static bool parse_der(Arena *a, TlsKey *k, const uint8_t *der, size_t n,
                      const char *what, const char **err)
{
  if (n == 48 && memcmp(der, ed25519_pkcs8_prefix, 16) == 0)
    return set_ed25519(k, der + 16);
  int rc = mbedtls_pk_parse_key(&k->pk, der, n, NULL, 0, tlskey_rng, NULL);
  if (rc != 0) {
    *err = arena_printf(a, "failed to parse private key given PEM preamble "
                        "'%s': %s", what,
                        "x509: malformed or unsupported private key");
    return false;
  }
  mbedtls_pk_type_t t = mbedtls_pk_get_type(&k->pk);
  if (t == MBEDTLS_PK_RSA) {
    k->alg = TLS_ALG_RSA;
  } else if (t == MBEDTLS_PK_ECKEY) {
    k->alg = TLS_ALG_ECDSA;
    /* Go derives the public key from the scalar and ignores the one the
    ** file carries: so do we. */
    if (mbedtls_ecp_keypair_calc_public(mbedtls_pk_ec(k->pk), tlskey_rng,
                                        NULL) != 0) {
      *err = arena_printf(a, "failed to parse private key given PEM "
                          "preamble '%s': x509: invalid elliptic curve "
                          "private key value", what);
      return false;
    }
    if (!curve_of(k)) {
      *err = arena_printf(a, "failed to parse private key given PEM "
                          "preamble '%s': x509: unknown elliptic curve",
                          what);
      return false;
    }
  } else {
    *err = arena_printf(a, "failed to parse private key given PEM preamble "
                        "'%s': x509: unsupported private key type", what);
    return false;
  }
  return true;
}

bool tlskey_parse_pem(Arena *a, TlsKey *k, const char *text, size_t n,
                      const char **err)
{
  const char *type;
  uint8_t *der;
  size_t dern, rest;
  if (!tlskey_pem_decode(a, text, n, &type, &der, &dern, &rest)) {
    *err = arena_printf(a, "failed to decode PEM block: decoded bytes 0, "
                        "undecoded %zu", n);
    return false;
  }
  if (strcmp(type, "RSA PRIVATE KEY") != 0 &&
      strcmp(type, "EC PRIVATE KEY") != 0 &&
      strcmp(type, "PRIVATE KEY") != 0) {
    *err = arena_printf(a, "unable to determine parser for PEM preamble: "
                        "%s", type);
    return false;
  }
  bool ok = parse_der(a, k, der, dern, type, err);
  mbedtls_platform_zeroize(der, dern);
  return ok;
}

/* A reader over SSH wire data. */
typedef struct Rd {
  const uint8_t *p;
  size_t n;
  bool bad;
} Rd;

static uint32_t rd_u32(Rd *r)
{
  if (r->n < 4) {
    r->bad = true;
    return 0;
  }
  uint32_t v = (uint32_t)r->p[0] << 24 | (uint32_t)r->p[1] << 16 |
               (uint32_t)r->p[2] << 8 | r->p[3];
  r->p += 4;
  r->n -= 4;
  return v;
}

static const uint8_t *rd_str(Rd *r, size_t *len)
{
  uint32_t l = rd_u32(r);
  if (r->bad || l > r->n) {
    r->bad = true;
    *len = 0;
    return (const uint8_t *)"";
  }
  const uint8_t *p = r->p;
  r->p += l;
  r->n -= l;
  *len = l;
  return p;
}

static bool rd_is(Rd *r, const char *s)
{
  size_t l;
  const uint8_t *p = rd_str(r, &l);
  return !r->bad && l == strlen(s) && memcmp(p, s, l) == 0;
}

static int rd_mpi(Rd *r, mbedtls_mpi *x)
{
  size_t l;
  const uint8_t *p = rd_str(r, &l);
  return r->bad ? -1 : mbedtls_mpi_read_binary(x, p, l);
}

static bool openssh_body(Arena *a, TlsKey *k, const uint8_t *der, size_t n,
                         const char **err)
{
  Rd r = {der, n, false};
  static const char magic[] = "openssh-key-v1";
  if (n < sizeof magic || memcmp(der, magic, sizeof magic) != 0) {
    *err = "ssh: invalid openssh private key format";
    return false;
  }
  r.p += sizeof magic;
  r.n -= sizeof magic;
  size_t l;
  const uint8_t *cipher = rd_str(&r, &l);
  if (!r.bad && !(l == 4 && memcmp(cipher, "none", 4) == 0)) {
    *err = "ssh: this private key is passphrase protected";
    return false;
  }
  (void)rd_str(&r, &l); /* kdf */
  (void)rd_str(&r, &l); /* kdf options */
  uint32_t nkeys = rd_u32(&r);
  if (!r.bad && nkeys != 1) {
    *err = "ssh: multi-key files are not supported";
    return false;
  }
  (void)rd_str(&r, &l); /* public key */
  size_t pl;
  const uint8_t *pb = rd_str(&r, &pl);
  if (r.bad) {
    *err = "ssh: invalid openssh private key format";
    return false;
  }
  Rd p = {pb, pl, false};
  uint32_t c1 = rd_u32(&p), c2 = rd_u32(&p);
  if (!p.bad && c1 != c2) {
    *err = "ssh: checkint mismatch";
    return false;
  }
  size_t tl;
  const uint8_t *tp = rd_str(&p, &tl);
  const char *type = arena_strndup(a, (const char *)tp, tl);
  int rc = 0;
  if (strcmp(type, "ssh-rsa") == 0) {
    mbedtls_mpi nn, e, d, iqmp, pp, q;
    mbedtls_mpi *all[] = {&nn, &e, &d, &iqmp, &pp, &q};
    for (int i = 0; i < 6; i++)
      mbedtls_mpi_init(all[i]);
    for (int i = 0; i < 6 && rc == 0; i++)
      rc = rd_mpi(&p, all[i]);
    if (rc == 0)
      rc = mbedtls_pk_setup(&k->pk,
                            mbedtls_pk_info_from_type(MBEDTLS_PK_RSA));
    if (rc == 0) {
      mbedtls_rsa_context *rsa = mbedtls_pk_rsa(k->pk);
      rc = mbedtls_rsa_import(rsa, &nn, &pp, &q, &d, &e);
      if (rc == 0)
        rc = mbedtls_rsa_complete(rsa);
      if (rc == 0)
        rc = mbedtls_rsa_check_privkey(rsa);
    }
    for (int i = 0; i < 6; i++)
      mbedtls_mpi_free(all[i]);
    k->alg = TLS_ALG_RSA;
  } else if (strncmp(type, "ecdsa-sha2-", 11) == 0) {
    const struct Curve *c = NULL;
    for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
      if (curves[i].ssh && rd_is(&(Rd){p.p, p.n, false}, curves[i].ssh))
        c = &curves[i];
    if (!c) {
      *err = "ssh: unsupported curve";
      return false;
    }
    (void)rd_str(&p, &l); /* curve name */
    (void)rd_str(&p, &l); /* public point: recomputed from D */
    size_t dl;
    const uint8_t *d = rd_str(&p, &dl);
    while (dl > 0 && d[0] == 0) {
      d++;
      dl--;
    }
    rc = p.bad ? -1
               : mbedtls_pk_setup(&k->pk,
                                  mbedtls_pk_info_from_type(MBEDTLS_PK_ECKEY));
    if (rc == 0)
      rc = mbedtls_ecp_read_key(c->id, mbedtls_pk_ec(k->pk), d, dl);
    if (rc == 0)
      rc = mbedtls_ecp_keypair_calc_public(mbedtls_pk_ec(k->pk), tlskey_rng,
                                           NULL);
    k->alg = TLS_ALG_ECDSA;
  } else if (strcmp(type, "ssh-ed25519") == 0) {
    size_t publ, privl;
    (void)rd_str(&p, &publ);
    const uint8_t *priv = rd_str(&p, &privl);
    if (p.bad || privl != 64) {
      *err = "ssh: private key unexpected length";
      return false;
    }
    return set_ed25519(k, priv);
  } else {
    *err = arena_printf(a, "ssh: unhandled key type");
    return false;
  }
  if (rc != 0 || p.bad) {
    *err = "ssh: invalid openssh private key format";
    return false;
  }
  return true;
}

bool tlskey_parse_openssh(Arena *a, TlsKey *k, const char *text, size_t n,
                          const char **err)
{
  const char *type;
  uint8_t *der;
  size_t dern, rest;
  if (!tlskey_pem_decode(a, text, n, &type, &der, &dern, &rest)) {
    *err = "ssh: no key found";
    return false;
  }
  bool ok;
  if (strcmp(type, "OPENSSH PRIVATE KEY") == 0)
    ok = openssh_body(a, k, der, dern, err);
  else if (strcmp(type, "RSA PRIVATE KEY") == 0 ||
           strcmp(type, "EC PRIVATE KEY") == 0 ||
           strcmp(type, "PRIVATE KEY") == 0)
    ok = parse_der(a, k, der, dern, type, err);
  else {
    *err = arena_printf(a, "ssh: unsupported key type \"%s\"", type);
    ok = false;
  }
  mbedtls_platform_zeroize(der, dern);
  return ok;
}
