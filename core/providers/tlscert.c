/*
** tlscert: X.509 certificates and requests, written as Go's crypto/x509
** writes them and read back as far as the tls provider needs (see
** tlscert.h).  The structures are RFC 5280 (certificates) and RFC 2986
** (requests); comments name the Go behaviour each choice follows.
*/
#include "tlscert.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <mbedtls/bignum.h>
#include <mbedtls/ecp.h>
#include <mbedtls/md.h>
#include <mbedtls/sha1.h>

#include "ed25519.h"

#define DER_TLV tlskey_der_tlv
#define DER_WRAP tlskey_der_wrap

static TlsBytes bytes_of(Buf *b)
{
  return (TlsBytes){(const uint8_t *)b->p, b->len};
}

/* An OID's DER, tag and length included. */
typedef struct Oid {
  uint8_t n;
  uint8_t b[12];
} Oid;

static void put_oid(Buf *b, const Oid *o) { buf_put(b, o->b, o->n); }

/* ---- names ----------------------------------------------------------------- */

/* Go's asn1 marshals a string as PrintableString when every byte is in
** its alphabet (asterisk and ampersand allowed, as Go allows them), else
** as UTF8String. */
static uint8_t string_tag(const char *s)
{
  for (; *s; s++) {
    char c = *s;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || strchr(" '()+,-./:=?*&", c)))
      return 0x0c;
  }
  return 0x13;
}

static void put_rdn(Arena *a, Buf *name, uint8_t attr, const char *v)
{
  /* 2.5.4.attr */
  const uint8_t oid[5] = {0x06, 0x03, 0x55, 0x04, attr};
  Buf atv;
  buf_init(&atv, a);
  buf_put(&atv, oid, sizeof oid);
  DER_TLV(&atv, string_tag(v), v, strlen(v));
  DER_WRAP(a, &atv, 0x30);
  DER_WRAP(a, &atv, 0x31);
  buf_put(name, atv.p, atv.len);
}

TlsBytes tlscert_name(Arena *a, const TlsName *n)
{
  Buf b;
  buf_init(&b, a);
  /* pkix.Name.ToRDNSequence: C, ST, L, STREET, PC, O, OU, then CN and
  ** SERIALNUMBER only when non-empty. */
  if (n->country)
    put_rdn(a, &b, 6, n->country);
  if (n->province)
    put_rdn(a, &b, 8, n->province);
  if (n->locality)
    put_rdn(a, &b, 7, n->locality);
  for (uint32_t i = 0; i < n->nstreet; i++)
    put_rdn(a, &b, 9, n->street[i]);
  if (n->postal_code)
    put_rdn(a, &b, 17, n->postal_code);
  if (n->organization)
    put_rdn(a, &b, 10, n->organization);
  if (n->organizational_unit)
    put_rdn(a, &b, 11, n->organizational_unit);
  if (n->common_name && *n->common_name)
    put_rdn(a, &b, 3, n->common_name);
  if (n->serial_number && *n->serial_number)
    put_rdn(a, &b, 5, n->serial_number);
  if (n->email_address) {
    /* upstream (v4.1) appends it to ExtraNames as an asn1.RawValue
    ** tagged IA5String, so Go writes it last, whatever its bytes, even
    ** when empty. OID 1.2.840.113549.1.9.1. */
    static const uint8_t oid[11] = {0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
                                    0xf7, 0x0d, 0x01, 0x09, 0x01};
    Buf atv;
    buf_init(&atv, a);
    buf_put(&atv, oid, sizeof oid);
    DER_TLV(&atv, 0x16, n->email_address, strlen(n->email_address));
    DER_WRAP(a, &atv, 0x30);
    DER_WRAP(a, &atv, 0x31);
    buf_put(&b, atv.p, atv.len);
  }
  DER_WRAP(a, &b, 0x30);
  return bytes_of(&b);
}

bool tlscert_name_empty(TlsBytes name)
{
  return name.n == 2 && name.p[0] == 0x30 && name.p[1] == 0;
}

/* ---- key usages -------------------------------------------------------------- */

static const struct Usage {
  const char *name;
  unsigned bit;         /* x509.KeyUsage bit, 0 for extended usages */
  Oid oid;              /* extended usage OID */
} usages[] = {
  {"any_extended", 0, {6, {0x06, 0x04, 0x55, 0x1d, 0x25, 0x00}}},
  {"cert_signing", 1u << 5, {0, {0}}},
  {"client_auth", 0,
   {10, {0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02}}},
  {"code_signing", 0,
   {10, {0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x03}}},
  {"content_commitment", 1u << 1, {0, {0}}},
  {"crl_signing", 1u << 6, {0, {0}}},
  {"data_encipherment", 1u << 3, {0, {0}}},
  {"decipher_only", 1u << 8, {0, {0}}},
  {"digital_signature", 1u << 0, {0, {0}}},
  {"email_protection", 0,
   {10, {0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x04}}},
  {"encipher_only", 1u << 7, {0, {0}}},
  {"ipsec_end_system", 0,
   {10, {0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x05}}},
  {"ipsec_tunnel", 0,
   {10, {0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x06}}},
  {"ipsec_user", 0,
   {10, {0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x07}}},
  {"key_agreement", 1u << 4, {0, {0}}},
  {"key_encipherment", 1u << 2, {0, {0}}},
  {"microsoft_commercial_code_signing", 0,
   {12, {0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x01,
         0x16}}},
  {"microsoft_kernel_code_signing", 0,
   {12, {0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3d, 0x01,
         0x01}}},
  {"microsoft_server_gated_crypto", 0,
   {12, {0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x0a, 0x03,
         0x03}}},
  {"netscape_server_gated_crypto", 0,
   {11, {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x86, 0xf8, 0x42, 0x04,
         0x01}}},
  {"ocsp_signing", 0,
   {10, {0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x09}}},
  {"server_auth", 0,
   {10, {0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01}}},
  {"timestamping", 0,
   {10, {0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x08}}},
};
#define NUSAGES (sizeof usages / sizeof usages[0])

const char *const tlscert_usage_names[] = {
  "any_extended", "cert_signing", "client_auth", "code_signing",
  "content_commitment", "crl_signing", "data_encipherment",
  "decipher_only", "digital_signature", "email_protection",
  "encipher_only", "ipsec_end_system", "ipsec_tunnel", "ipsec_user",
  "key_agreement", "key_encipherment", "microsoft_commercial_code_signing",
  "microsoft_kernel_code_signing", "microsoft_server_gated_crypto",
  "netscape_server_gated_crypto", "ocsp_signing", "server_auth",
  "timestamping", NULL};

static const struct Usage *usage(const char *name)
{
  for (size_t i = 0; i < NUSAGES; i++)
    if (strcmp(usages[i].name, name) == 0)
      return &usages[i];
  return NULL;
}

unsigned tlscert_key_usage_bit(const char *name)
{
  const struct Usage *u = usage(name);
  return u ? u->bit : 0;
}

bool tlscert_is_usage(const char *name) { return usage(name) != NULL; }

/* ---- DER reading ----------------------------------------------------------- */

typedef struct Der {
  const uint8_t *p;
  size_t n;
} Der;

/* The next TLV of d: its tag, content and whole encoding; false on
** malformed input or at the end. */
static bool der_next(Der *d, uint8_t *tag, Der *content, Der *whole)
{
  if (d->n < 2)
    return false;
  const uint8_t *start = d->p;
  size_t len = d->p[1], h = 2;
  if (len & 0x80) {
    size_t k = len & 0x7f;
    if (k == 0 || k > 4 || d->n < 2 + k)
      return false;
    len = 0;
    for (size_t i = 0; i < k; i++)
      len = len << 8 | d->p[2 + i];
    h += k;
  }
  if (len > d->n - h)
    return false;
  *tag = d->p[0];
  content->p = d->p + h;
  content->n = len;
  if (whole) {
    whole->p = start;
    whole->n = h + len;
  }
  d->p += h + len;
  d->n -= h + len;
  return true;
}

/* The content of the next TLV, which must have tag want. */
static bool der_expect(Der *d, uint8_t want, Der *content, Der *whole)
{
  uint8_t tag;
  return der_next(d, &tag, content, whole) && tag == want;
}

static bool der_is(Der d, const uint8_t *p, size_t n)
{
  return d.n == n && memcmp(d.p, p, n) == 0;
}

/* ---- key identifiers, serials, times ------------------------------------- */

static const uint8_t oid_ed25519[] = {0x06, 0x03, 0x2b, 0x65, 0x70};

bool tlscert_key_id(Arena *a, TlsBytes spki, TlsBytes *out, const char **err)
{
  Der d = {spki.p, spki.n}, s, alg, bits, oid;
  Der ad;
  if (!der_expect(&d, 0x30, &s, NULL) ||
      !der_expect(&s, 0x30, &alg, NULL) ||
      !der_expect(&s, 0x03, &bits, NULL) || bits.n < 1) {
    *err = "failed to marshal public key: malformed public key info";
    return false;
  }
  ad = alg;
  uint8_t tag;
  (void)der_next(&ad, &tag, &oid, NULL);
  uint8_t *h = ARENA_NEW(a, uint8_t, 20);
  bool ed = oid.n == 3 && memcmp(oid.p, oid_ed25519 + 2, 3) == 0;
  if (ed) {
    /* asn1.Marshal(ed25519.PublicKey): an OCTET STRING */
    uint8_t buf[2 + 32];
    if (bits.n != 33) {
      *err = "failed to marshal public key: bad Ed25519 key";
      return false;
    }
    buf[0] = 0x04;
    buf[1] = 32;
    memcpy(buf + 2, bits.p + 1, 32);
    mbedtls_sha1(buf, sizeof buf, h);
  } else {
    mbedtls_sha1(bits.p + 1, bits.n - 1, h);
  }
  out->p = h;
  out->n = 20;
  return true;
}

void tlscert_serial(Arena *a, TlsBytes *serial, const char **dec)
{
  uint8_t r[17];
  r[0] = 0;
  tlskey_rng(NULL, r + 1, 16);
  /* minimal DER INTEGER content of a non-negative number */
  size_t i = 0;
  while (i < 16 && r[i] == 0 && !(r[i + 1] & 0x80))
    i++;
  uint8_t *p = ARENA_NEW(a, uint8_t, 17 - i);
  memcpy(p, r + i, 17 - i);
  serial->p = p;
  serial->n = 17 - i;
  mbedtls_mpi m;
  mbedtls_mpi_init(&m);
  (void)mbedtls_mpi_read_binary(&m, r + 1, 16);
  char txt[160]; /* mbedTLS asks for bits/2 + 3 bytes in base 10 */
  size_t olen = 0;
  (void)mbedtls_mpi_write_string(&m, 10, txt, sizeof txt, &olen);
  mbedtls_mpi_free(&m);
  *dec = arena_strdup(a, txt);
}

static void civil(int64_t t, struct tm *out)
{
  time_t tt = (time_t)t;
  gmtime_r(&tt, out);
}

const char *tlscert_time_text(Arena *a, int64_t t, long ns, long offset)
{
  struct tm tm;
  civil(t + offset, &tm);
  char frac[32] = "";
  if (ns > 0) {
    snprintf(frac, sizeof frac, ".%09ld", ns);
    size_t l = strlen(frac);
    while (frac[l - 1] == '0')
      frac[--l] = 0;
  }
  char zone[48] = "Z"; /* room for what -Wformat-truncation cannot rule out */
  if (offset != 0) {
    long m = (offset < 0 ? -offset : offset) / 60;
    snprintf(zone, sizeof zone, "%c%02ld:%02ld", offset < 0 ? '-' : '+',
             m / 60 % 100, m % 60);
  }
  return arena_printf(a, "%04d-%02d-%02dT%02d:%02d:%02d%s%s",
                      tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                      tm.tm_hour, tm.tm_min, tm.tm_sec, frac, zone);
}

/* Go: UTCTime from 1950 to 2049, GeneralizedTime otherwise. */
static bool put_time(Buf *b, int64_t t, const char **err)
{
  struct tm tm;
  civil(t, &tm);
  int y = tm.tm_year + 1900;
  /* 13 or 15 bytes are written; the size is what the compiler cannot rule
  ** out for six ints (-Wformat-truncation at -O1). */
  char s[80];
  if (y < 0 || y > 9999) {
    *err = "x509: certificate validity outside the years 0000-9999";
    return false;
  }
  if (y >= 1950 && y < 2050) {
    snprintf(s, sizeof s, "%02d%02d%02d%02d%02d%02dZ", y % 100,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    DER_TLV(b, 0x17, s, 13);
  } else {
    snprintf(s, sizeof s, "%04d%02d%02d%02d%02d%02dZ", y, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    DER_TLV(b, 0x18, s, 15);
  }
  return true;
}

/* ---- signing ------------------------------------------------------------------- */

/* The AlgorithmIdentifier Go's signingParamsForKey picks for key, and the
** digest (MBEDTLS_MD_NONE for Ed25519). */
static bool sig_alg(const TlsKey *k, Buf *alg, mbedtls_md_type_t *md,
                    const char **err)
{
  static const uint8_t sha256_rsa[] = {0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86,
                                       0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01,
                                       0x0b, 0x05, 0x00};
  static const uint8_t ecdsa_sha[] = {0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86,
                                      0x48, 0xce, 0x3d, 0x04, 0x03, 0x02};
  static const uint8_t ed[] = {0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70};
  switch (k->alg) {
  case TLS_ALG_RSA:
    buf_put(alg, sha256_rsa, sizeof sha256_rsa);
    *md = MBEDTLS_MD_SHA256;
    return true;
  case TLS_ALG_ECDSA: {
    mbedtls_ecp_group_id g =
        mbedtls_ecp_keypair_get_group_id(mbedtls_pk_ec(k->pk));
    uint8_t o[sizeof ecdsa_sha];
    memcpy(o, ecdsa_sha, sizeof o);
    if (g == MBEDTLS_ECP_DP_SECP384R1) {
      o[11] = 0x03;
      *md = MBEDTLS_MD_SHA384;
    } else if (g == MBEDTLS_ECP_DP_SECP521R1) {
      o[11] = 0x04;
      *md = MBEDTLS_MD_SHA512;
    } else {
      *md = MBEDTLS_MD_SHA256;
    }
    buf_put(alg, o, sizeof o);
    return true;
  }
  case TLS_ALG_ED25519:
    buf_put(alg, ed, sizeof ed);
    *md = MBEDTLS_MD_NONE;
    return true;
  default:
    *err = "x509: unsupported private key type";
    return false;
  }
}

/* SEQUENCE { tbs, algorithm, BIT STRING signature } of tbs (a DER
** SEQUENCE) signed by k. */
static bool sign(Arena *a, const TlsKey *k, Buf *tbs, const Buf *alg,
                 mbedtls_md_type_t md, TlsBytes *out, const char **err)
{
  uint8_t *sig = ARENA_NEW(a, uint8_t, MBEDTLS_PK_SIGNATURE_MAX_SIZE + 64);
  size_t sigl = 0;
  if (k->alg == TLS_ALG_ED25519) {
    ed25519_sign(sig, (const uint8_t *)tbs->p, tbs->len, k->seed, k->pub);
    sigl = 64;
  } else {
    uint8_t hash[MBEDTLS_MD_MAX_SIZE];
    const mbedtls_md_info_t *mi = mbedtls_md_info_from_type(md);
    int rc = mbedtls_md(mi, (const unsigned char *)tbs->p, tbs->len, hash);
    if (rc == 0)
      rc = mbedtls_pk_sign((mbedtls_pk_context *)&k->pk, md, hash,
                           mbedtls_md_get_size(mi), sig,
                           MBEDTLS_PK_SIGNATURE_MAX_SIZE, &sigl, tlskey_rng,
                           NULL);
    if (rc != 0) {
      *err = arena_printf(a, "x509: signing failed (mbedTLS error -0x%04x)",
                          (unsigned)-rc);
      return false;
    }
  }
  Buf bits, all;
  buf_init(&bits, a);
  buf_putc(&bits, 0);
  buf_put(&bits, sig, sigl);
  buf_init(&all, a);
  buf_put(&all, tbs->p, tbs->len);
  buf_put(&all, alg->p, alg->len);
  DER_TLV(&all, 0x03, bits.p, bits.len);
  DER_WRAP(a, &all, 0x30);
  *out = bytes_of(&all);
  return true;
}

/* ---- extensions ---------------------------------------------------------------- */

static void put_ext(Arena *a, Buf *exts, uint8_t id, bool critical,
                    const Buf *value)
{
  const uint8_t oid[5] = {0x06, 0x03, 0x55, 0x1d, id}; /* 2.5.29.id */
  Buf e;
  buf_init(&e, a);
  buf_put(&e, oid, sizeof oid);
  if (critical)
    buf_put(&e, "\x01\x01\xff", 3);
  DER_TLV(&e, 0x04, value->p, value->len);
  DER_WRAP(a, &e, 0x30);
  buf_put(exts, e.p, e.len);
}

static bool has_sans(const TlsSans *s)
{
  return s->ndns + s->nips + s->nuris > 0;
}

/* GeneralNames: dNSName [2], iPAddress [7], uniformResourceIdentifier
** [6], in Go's marshalSANs order. */
static void san_value(Arena *a, const TlsSans *s, Buf *out)
{
  buf_init(out, a);
  for (uint32_t i = 0; i < s->ndns; i++)
    DER_TLV(out, 0x82, s->dns[i], strlen(s->dns[i]));
  for (uint32_t i = 0; i < s->nips; i++)
    DER_TLV(out, 0x87, s->ips[i].p, s->ips[i].n);
  for (uint32_t i = 0; i < s->nuris; i++)
    DER_TLV(out, 0x86, s->uris[i], strlen(s->uris[i]));
  DER_WRAP(a, out, 0x30);
}

/* The KeyUsage BIT STRING as Go writes it: bits reversed into one or two
** bytes, trailing zero bits counted as unused. */
static void key_usage_value(Arena *a, unsigned ku, Buf *out)
{
  uint8_t by[2] = {0, 0};
  for (int i = 0; i < 9; i++)
    if (ku & (1u << i))
      by[i / 8] |= (uint8_t)(0x80 >> (i % 8));
  size_t l = by[1] ? 2 : 1;
  int unused = 0;
  uint8_t last = by[l - 1];
  while (unused < 8 && last && !(last & (1u << unused)))
    unused++;
  buf_init(out, a);
  buf_putc(out, (char)(last ? unused : 0));
  buf_put(out, by, l);
  DER_WRAP(a, out, 0x03);
}

static bool extensions(Arena *a, const TlsCertTemplate *t, Buf *exts)
{
  Buf v;
  buf_init(exts, a);
  if (t->key_usage) {
    key_usage_value(a, t->key_usage, &v);
    put_ext(a, exts, 15, true, &v);
  }
  buf_init(&v, a);
  for (uint32_t i = 0; i < t->next_usages; i++) {
    const struct Usage *u = usage(t->ext_usages[i]);
    if (u && u->oid.n)
      put_oid(&v, &u->oid);
  }
  if (v.len) {
    DER_WRAP(a, &v, 0x30);
    put_ext(a, exts, 37, false, &v);
  }
  /* BasicConstraintsValid is always set upstream */
  buf_init(&v, a);
  if (t->is_ca) {
    buf_put(&v, "\x01\x01\xff", 3);
    if (t->max_path_len >= 1) {
      uint8_t n[9];
      size_t k = 0;
      int64_t x = t->max_path_len;
      uint8_t tmp[8];
      size_t m = 0;
      while (x > 0) {
        tmp[m++] = (uint8_t)(x & 0xff);
        x >>= 8;
      }
      if (tmp[m - 1] & 0x80)
        n[k++] = 0;
      while (m > 0)
        n[k++] = tmp[--m];
      DER_TLV(&v, 0x02, n, k);
    }
  }
  DER_WRAP(a, &v, 0x30);
  put_ext(a, exts, 19, true, &v);
  if (t->ski.n) {
    buf_init(&v, a);
    DER_TLV(&v, 0x04, t->ski.p, t->ski.n);
    put_ext(a, exts, 14, false, &v);
  }
  if (t->aki.n) {
    buf_init(&v, a);
    DER_TLV(&v, 0x80, t->aki.p, t->aki.n);
    DER_WRAP(a, &v, 0x30);
    put_ext(a, exts, 35, false, &v);
  }
  if (has_sans(&t->sans)) {
    san_value(a, &t->sans, &v);
    put_ext(a, exts, 17, tlscert_name_empty(t->subject), &v);
  }
  DER_WRAP(a, exts, 0x30);
  DER_WRAP(a, exts, 0xa3);
  return true;
}

/* ---- certificates and requests -------------------------------------------- */

bool tlscert_create(Arena *a, const TlsCertTemplate *t, TlsBytes serial,
                    const TlsKey *signer, TlsBytes *der, const char **err)
{
  Buf tbs, alg, validity, exts;
  mbedtls_md_type_t md;
  buf_init(&alg, a);
  if (!sig_alg(signer, &alg, &md, err))
    return false;
  buf_init(&tbs, a);
  buf_put(&tbs, "\xa0\x03\x02\x01\x02", 5); /* [0] version v3 */
  DER_TLV(&tbs, 0x02, serial.p, serial.n);
  buf_put(&tbs, alg.p, alg.len);
  buf_put(&tbs, t->issuer.p, t->issuer.n);
  buf_init(&validity, a);
  if (!put_time(&validity, t->not_before, err) ||
      !put_time(&validity, t->not_after, err))
    return false;
  DER_WRAP(a, &validity, 0x30);
  buf_put(&tbs, validity.p, validity.len);
  buf_put(&tbs, t->subject.p, t->subject.n);
  buf_put(&tbs, t->spki.p, t->spki.n);
  extensions(a, t, &exts);
  buf_put(&tbs, exts.p, exts.len);
  DER_WRAP(a, &tbs, 0x30);
  return sign(a, signer, &tbs, &alg, md, der, err);
}

bool tlscert_request(Arena *a, TlsBytes subject, const TlsSans *sans,
                     const TlsKey *key, TlsBytes *der, const char **err)
{
  Buf info, alg, attrs;
  mbedtls_md_type_t md;
  const uint8_t *spki;
  size_t spkin;
  buf_init(&alg, a);
  if (!sig_alg(key, &alg, &md, err) ||
      !tlskey_public_der(a, key, &spki, &spkin, err))
    return false;
  buf_init(&info, a);
  buf_put(&info, "\x02\x01\x00", 3);
  buf_put(&info, subject.p, subject.n);
  buf_put(&info, spki, spkin);
  buf_init(&attrs, a);
  if (has_sans(sans)) {
    /* Go: one extensionRequest attribute holding the SAN extension,
    ** critical when the subject is empty */
    static const uint8_t ext_req[] = {0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
                                      0xf7, 0x0d, 0x01, 0x09, 0x0e};
    Buf v, exts;
    san_value(a, sans, &v);
    buf_init(&exts, a);
    put_ext(a, &exts, 17, tlscert_name_empty(subject), &v);
    DER_WRAP(a, &exts, 0x30);
    DER_WRAP(a, &exts, 0x31);
    buf_put(&attrs, ext_req, sizeof ext_req);
    buf_put(&attrs, exts.p, exts.len);
    DER_WRAP(a, &attrs, 0x30);
  }
  DER_WRAP(a, &attrs, 0xa0);
  buf_put(&info, attrs.p, attrs.len);
  DER_WRAP(a, &info, 0x30);
  return sign(a, key, &info, &alg, md, der, err);
}

/* GeneralNames into s: DNS, IP and URI names (others are skipped, as
** upstream copies only these three). */
static bool read_sans(Arena *a, Der gn, TlsSans *s)
{
  Der names, c;
  uint8_t tag;
  if (!der_expect(&gn, 0x30, &names, NULL))
    return false;
  Der scan = names;
  uint32_t n = 0;
  while (der_next(&scan, &tag, &c, NULL))
    n++;
  const char **dns = ARENA_NEW(a, const char *, n + 1);
  const char **uris = ARENA_NEW(a, const char *, n + 1);
  TlsBytes *ips = ARENA_NEW(a, TlsBytes, n + 1);
  while (der_next(&names, &tag, &c, NULL)) {
    if (tag == 0x82)
      dns[s->ndns++] = arena_strndup(a, (const char *)c.p, c.n);
    else if (tag == 0x86)
      uris[s->nuris++] = arena_strndup(a, (const char *)c.p, c.n);
    else if (tag == 0x87 && (c.n == 4 || c.n == 16))
      ips[s->nips++] = (TlsBytes){c.p, c.n};
  }
  s->dns = dns;
  s->uris = uris;
  s->ips = ips;
  return true;
}

static const uint8_t oid_san[] = {0x55, 0x1d, 0x11};
static const uint8_t oid_ski[] = {0x55, 0x1d, 0x0e};

bool tlscert_parse_request(Arena *a, TlsBytes der, TlsBytes *subject,
                           TlsBytes *spki, TlsSans *sans, const char **err)
{
  Der d = {der.p, der.n}, req, info, ver, subj, key, attrs;
  Der whole_subj, whole_key;
  uint8_t tag;
  memset(sans, 0, sizeof *sans);
  *err = "asn1: structure error: malformed certificate request";
  if (!der_expect(&d, 0x30, &req, NULL) ||
      !der_expect(&req, 0x30, &info, NULL) ||
      !der_expect(&info, 0x02, &ver, NULL) ||
      !der_expect(&info, 0x30, &subj, &whole_subj) ||
      !der_expect(&info, 0x30, &key, &whole_key))
    return false;
  *subject = (TlsBytes){whole_subj.p, whole_subj.n};
  *spki = (TlsBytes){whole_key.p, whole_key.n};
  if (!der_next(&info, &tag, &attrs, NULL) || tag != 0xa0)
    return true;
  Der attr;
  while (der_expect(&attrs, 0x30, &attr, NULL)) {
    Der oid, vals, exts, ext;
    if (!der_expect(&attr, 0x06, &oid, NULL) ||
        !der_expect(&attr, 0x31, &vals, NULL))
      return false;
    static const uint8_t ext_req[] = {0x2a, 0x86, 0x48, 0x86, 0xf7,
                                      0x0d, 0x01, 0x09, 0x0e};
    if (!der_is(oid, ext_req, sizeof ext_req))
      continue;
    if (!der_expect(&vals, 0x30, &exts, NULL))
      return false;
    while (der_expect(&exts, 0x30, &ext, NULL)) {
      Der eid, val;
      if (!der_expect(&ext, 0x06, &eid, NULL))
        return false;
      if (!der_next(&ext, &tag, &val, NULL))
        return false;
      if (tag == 0x01 && !der_next(&ext, &tag, &val, NULL))
        return false;
      if (tag != 0x04)
        return false;
      if (der_is(eid, oid_san, sizeof oid_san) && !read_sans(a, val, sans))
        return false;
    }
  }
  return true;
}

bool tlscert_parse_cert(Arena *a, TlsBytes der, TlsBytes *subject,
                        TlsBytes *spki, TlsBytes *ski, const char **err)
{
  (void)a;
  Der d = {der.p, der.n}, cert, tbs, c, w, subj, key;
  uint8_t tag;
  *err = "x509: malformed certificate";
  ski->n = 0;
  if (!der_expect(&d, 0x30, &cert, NULL) ||
      !der_expect(&cert, 0x30, &tbs, NULL))
    return false;
  if (!der_next(&tbs, &tag, &c, NULL))
    return false;
  if (tag == 0xa0 && !der_next(&tbs, &tag, &c, NULL)) /* serial */
    return false;
  if (!der_expect(&tbs, 0x30, &c, NULL) ||   /* signature algorithm */
      !der_expect(&tbs, 0x30, &c, NULL) ||   /* issuer */
      !der_expect(&tbs, 0x30, &c, NULL) ||   /* validity */
      !der_expect(&tbs, 0x30, &subj, &w))
    return false;
  *subject = (TlsBytes){w.p, w.n};
  if (!der_expect(&tbs, 0x30, &key, &w))
    return false;
  *spki = (TlsBytes){w.p, w.n};
  while (der_next(&tbs, &tag, &c, NULL)) {
    if (tag != 0xa3)
      continue;
    Der exts, ext;
    if (!der_expect(&c, 0x30, &exts, NULL))
      return false;
    while (der_expect(&exts, 0x30, &ext, NULL)) {
      Der eid, val, inner;
      if (!der_expect(&ext, 0x06, &eid, NULL) ||
          !der_next(&ext, &tag, &val, NULL))
        return false;
      if (tag == 0x01 && !der_next(&ext, &tag, &val, NULL))
        return false;
      if (der_is(eid, oid_ski, sizeof oid_ski) &&
          der_expect(&val, 0x04, &inner, NULL)) {
        ski->p = inner.p;
        ski->n = inner.n;
      }
    }
  }
  return true;
}

bool tlscert_parse_ip(Arena *a, const char *s, TlsBytes *out)
{
  uint8_t *b = ARENA_NEW(a, uint8_t, 16);
  /* Go refuses leading zeros in IPv4 parts; inet_pton accepts none
  ** either (glibc and musl read only plain decimal). */
  if (inet_pton(AF_INET, s, b) == 1) {
    *out = (TlsBytes){b, 4};
    return true;
  }
  if (strchr(s, '%'))
    return false; /* a zone is not part of net.ParseIP's syntax */
  if (inet_pton(AF_INET6, s, b) == 1) {
    /* an IPv4-mapped IPv6 address is IPv4 to Go (To4 succeeds) */
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                       0xff, 0xff};
    if (memcmp(b, mapped, 12) == 0)
      *out = (TlsBytes){b + 12, 4};
    else
      *out = (TlsBytes){b, 16};
    return true;
  }
  return false;
}

/* ---- what a certificate says (data "tls_certificate") ---------------------- */

static bool oid_is(Der oid, const char *hexoid)
{
  size_t n = strlen(hexoid) / 2;
  if (oid.n != n)
    return false;
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(hexoid + 2 * i, "%2x", &v) != 1 || oid.p[i] != v)
      return false;
  }
  return true;
}

/* Dotted form of an OID's content. */
static const char *oid_text(Arena *a, Der oid)
{
  Buf b;
  buf_init(&b, a);
  uint64_t v = 0;
  bool first = true;
  for (size_t i = 0; i < oid.n; i++) {
    v = v << 7 | (oid.p[i] & 0x7f);
    if (oid.p[i] & 0x80)
      continue;
    if (first) {
      unsigned x = v < 40 ? 0 : v < 80 ? 1 : 2;
      buf_printf(&b, "%u.%llu", x, (unsigned long long)(v - 40 * x));
      first = false;
    } else {
      buf_printf(&b, ".%llu", (unsigned long long)v);
    }
    v = 0;
  }
  return buf_str(&b);
}

static const char *sig_name(Der alg)
{
  Der oid, params;
  uint8_t tag;
  if (!der_next(&alg, &tag, &oid, NULL) || tag != 0x06)
    return "0";
  static const struct {
    const char *oid, *name;
  } names[] = {
    {"2a864886f70d010102", "MD2-RSA"},    {"2a864886f70d010104", "MD5-RSA"},
    {"2a864886f70d010105", "SHA1-RSA"},   {"2b0e03021d", "SHA1-RSA"},
    {"2a864886f70d01010b", "SHA256-RSA"}, {"2a864886f70d01010c", "SHA384-RSA"},
    {"2a864886f70d01010d", "SHA512-RSA"}, {"2a8648ce380403", "DSA-SHA1"},
    {"608648016503040302", "DSA-SHA256"}, {"2a8648ce3d0401", "ECDSA-SHA1"},
    {"2a8648ce3d040302", "ECDSA-SHA256"}, {"2a8648ce3d040303", "ECDSA-SHA384"},
    {"2a8648ce3d040304", "ECDSA-SHA512"}, {"2b6570", "Ed25519"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (oid_is(oid, names[i].oid))
      return names[i].name;
  if (oid_is(oid, "2a864886f70d01010a")) {
    /* RSASSA-PSS: the hash of its parameters names it */
    Der seq, h, hseq, hoid;
    if (der_next(&alg, &tag, &params, NULL) && tag == 0x30) {
      seq = params;
      if (der_next(&seq, &tag, &h, NULL) && tag == 0xa0 &&
          der_expect(&h, 0x30, &hseq, NULL) &&
          der_expect(&hseq, 0x06, &hoid, NULL)) {
        if (oid_is(hoid, "608648016503040201"))
          return "SHA256-RSAPSS";
        if (oid_is(hoid, "608648016503040202"))
          return "SHA384-RSAPSS";
        if (oid_is(hoid, "608648016503040203"))
          return "SHA512-RSAPSS";
      }
    }
    return "0";
  }
  return "0";
}

/* Go's strings after asn1 unmarshalling: the string types it reads. */
static bool is_string_tag(uint8_t tag)
{
  return tag == 0x0c || tag == 0x13 || tag == 0x16 || tag == 0x14 ||
         tag == 0x12 || tag == 0x1e;
}

static const char *string_value(Arena *a, uint8_t tag, Der v)
{
  if (tag != 0x1e)
    return arena_strndup(a, (const char *)v.p, v.n);
  /* BMPString: UCS-2 big-endian to UTF-8 */
  Buf b;
  buf_init(&b, a);
  for (size_t i = 0; i + 1 < v.n; i += 2) {
    unsigned c = (unsigned)v.p[i] << 8 | v.p[i + 1];
    if (c < 0x80) {
      buf_putc(&b, (char)c);
    } else if (c < 0x800) {
      buf_putc(&b, (char)(0xc0 | c >> 6));
      buf_putc(&b, (char)(0x80 | (c & 0x3f)));
    } else {
      buf_putc(&b, (char)(0xe0 | c >> 12));
      buf_putc(&b, (char)(0x80 | ((c >> 6) & 0x3f)));
      buf_putc(&b, (char)(0x80 | (c & 0x3f)));
    }
  }
  return buf_str(&b);
}

/* RFC 2253 escaping as Go's RDNSequence.String does it. */
static void put_escaped(Buf *b, const char *s)
{
  size_t n = strlen(s);
  for (size_t k = 0; k < n; k++) {
    char c = s[k];
    bool esc = strchr(",+\"\\<>;", c) != NULL && c != 0;
    if (c == ' ')
      esc = k == 0 || k == n - 1;
    if (c == '#')
      esc = k == 0;
    if (esc)
      buf_putc(b, '\\');
    buf_putc(b, c);
  }
}

typedef struct Atv {
  int std;            /* index into std_attrs, or -1 */
  const char *oid;    /* dotted, for others */
  const char *value;  /* string value, or NULL */
  Der raw;            /* the value's TLV (others that are not strings) */
  uint8_t tag;
} Atv;

/* Go's pkix.Name field order (ToRDNSequence) and names (String). */
static const struct {
  uint8_t last;       /* 2.5.4.last */
  const char *name;
} std_attrs[] = {{6, "C"},  {8, "ST"}, {7, "L"},  {9, "STREET"},
                 {17, "POSTALCODE"}, {10, "O"}, {11, "OU"}, {3, "CN"},
                 {5, "SERIALNUMBER"}};
#define NSTD (sizeof std_attrs / sizeof std_attrs[0])

/* pkix.Name.String() of a Name DER: the fields Go fills (strings only;
** CN and SERIALNUMBER keep the last value), in ToRDNSequence order with
** several values of one type in one RDN, then the other attributes, all
** reversed and escaped. */
static const char *name_string(Arena *a, Der name)
{
  Der rdns, set, atv, oid, val, whole;
  uint8_t tag;
  if (!der_expect(&name, 0x30, &rdns, NULL))
    return "";
  size_t cap = 0;
  Der scan = rdns;
  while (der_expect(&scan, 0x31, &set, NULL))
    while (der_expect(&set, 0x30, &atv, NULL))
      cap++;
  Atv *all = ARENA_NEW(a, Atv, cap + 1);
  size_t n = 0;
  while (der_expect(&rdns, 0x31, &set, NULL))
    while (der_expect(&set, 0x30, &atv, NULL)) {
      if (!der_expect(&atv, 0x06, &oid, NULL) ||
          !der_next(&atv, &tag, &val, &whole))
        continue;
      Atv *x = &all[n++];
      x->std = -1;
      x->tag = tag;
      x->raw = whole;
      x->value = is_string_tag(tag) ? string_value(a, tag, val) : NULL;
      if (oid.n == 3 && oid.p[0] == 0x55 && oid.p[1] == 0x04)
        for (size_t i = 0; i < NSTD; i++)
          if (std_attrs[i].last == oid.p[2])
            x->std = (int)i;
      if (x->std < 0)
        x->oid = oid_text(a, oid);
    }
  /* RDNs in Go's order: each holds (start, count) into a list of Atvs */
  Atv **order = ARENA_NEW(a, Atv *, n + 1);
  size_t *rdn_start = ARENA_NEW(a, size_t, n + NSTD + 1);
  size_t *rdn_len = ARENA_NEW(a, size_t, n + NSTD + 1);
  size_t no = 0, nr = 0;
  /* Go's Name.String puts the other attributes first in the sequence, so
  ** that they come last in the reversed string (its issue 39924). */
  for (size_t i = 0; i < n; i++)
    if (all[i].std < 0) {
      rdn_start[nr] = no;
      rdn_len[nr++] = 1;
      order[no++] = &all[i];
    }
  for (size_t s = 0; s < NSTD; s++) {
    size_t first = no;
    bool single = std_attrs[s].last == 3 || std_attrs[s].last == 5;
    for (size_t i = 0; i < n; i++) {
      if (all[i].std != (int)s || !all[i].value)
        continue;
      if (single && no > first)
        order[first] = &all[i]; /* the last value wins */
      else
        order[no++] = &all[i];
    }
    if (single && no > first && !*order[first]->value)
      no = first; /* an empty CN or SERIALNUMBER is left out */
    if (no > first) {
      rdn_start[nr] = first;
      rdn_len[nr++] = no - first;
    }
  }
  Buf b;
  buf_init(&b, a);
  for (size_t r = nr; r-- > 0;) {
    if (r != nr - 1)
      buf_putc(&b, ',');
    for (size_t j = 0; j < rdn_len[r]; j++) {
      Atv *x = order[rdn_start[r] + j];
      if (j)
        buf_putc(&b, '+');
      if (x->std >= 0) {
        buf_printf(&b, "%s=", std_attrs[x->std].name);
        put_escaped(&b, x->value);
        continue;
      }
      buf_printf(&b, "%s=#", x->oid);
      /* Go re-marshals the value it read: strings as PrintableString or
      ** UTF8String, anything else as it was */
      Buf v;
      buf_init(&v, a);
      if (x->value)
        DER_TLV(&v, string_tag(x->value), x->value, strlen(x->value));
      else
        buf_put(&v, x->raw.p, x->raw.n);
      for (size_t i = 0; i < v.len; i++)
        buf_printf(&b, "%02x", (uint8_t)v.p[i]);
    }
  }
  return buf_str(&b);
}

static bool read_time(Arena *a, Der *d, const char **out)
{
  Der t;
  uint8_t tag;
  if (!der_next(d, &tag, &t, NULL))
    return false;
  char s[24];
  int y;
  const char *p = (const char *)t.p;
  if (tag == 0x17 && t.n == 13 && p[12] == 'Z') {
    y = (p[0] - '0') * 10 + (p[1] - '0');
    y += y < 50 ? 2000 : 1900;
    p += 2;
  } else if (tag == 0x18 && t.n == 15 && p[14] == 'Z') {
    y = ((p[0] - '0') * 10 + (p[1] - '0')) * 100 + (p[2] - '0') * 10 +
        (p[3] - '0');
    p += 4;
  } else {
    return false;
  }
  for (int i = 0; i < 10; i++)
    if (p[i] < '0' || p[i] > '9')
      return false;
  snprintf(s, sizeof s, "%04d-%.2s-%.2sT%.2s:%.2s:%.2sZ", y, p, p + 2, p + 4,
           p + 6, p + 8);
  *out = arena_strdup(a, s);
  return true;
}

bool tlscert_info(Arena *a, TlsBytes der, TlsCertInfo *out,
                  const char **err)
{
  Der d = {der.p, der.n}, cert, tbs, c, alg, issuer, subj, validity, key;
  Der kalg, koid, wi, ws;
  uint8_t tag;
  memset(out, 0, sizeof *out);
  *err = "x509: malformed certificate";
  if (!der_expect(&d, 0x30, &cert, NULL) ||
      !der_expect(&cert, 0x30, &tbs, NULL))
    return false;
  out->version = 1;
  if (!der_next(&tbs, &tag, &c, NULL))
    return false;
  if (tag == 0xa0) {
    Der v;
    if (!der_expect(&c, 0x02, &v, NULL) || v.n != 1 || v.p[0] > 2) {
      *err = "x509: invalid version";
      return false;
    }
    out->version = v.p[0] + 1;
    if (!der_next(&tbs, &tag, &c, NULL))
      return false;
  }
  if (tag != 0x02 || c.n == 0)
    return false;
  if (c.p[0] & 0x80) {
    *err = "x509: negative serial number";
    return false;
  }
  mbedtls_mpi m;
  mbedtls_mpi_init(&m);
  char txt[2600];
  size_t olen = 0;
  if (c.n > 1024 || mbedtls_mpi_read_binary(&m, c.p, c.n) != 0 ||
      mbedtls_mpi_write_string(&m, 10, txt, sizeof txt, &olen) != 0) {
    mbedtls_mpi_free(&m);
    return false;
  }
  mbedtls_mpi_free(&m);
  out->serial_number = arena_strdup(a, txt);
  if (!der_expect(&tbs, 0x30, &alg, NULL) ||
      !der_expect(&tbs, 0x30, &issuer, &wi) ||
      !der_expect(&tbs, 0x30, &validity, NULL) ||
      !der_expect(&tbs, 0x30, &subj, &ws) ||
      !der_expect(&tbs, 0x30, &key, NULL))
    return false;
  out->signature_algorithm = sig_name(alg);
  out->issuer = name_string(a, wi);
  out->subject = name_string(a, ws);
  if (!read_time(a, &validity, &out->not_before) ||
      !read_time(a, &validity, &out->not_after)) {
    *err = "x509: malformed validity";
    return false;
  }
  out->public_key_algorithm = "0";
  if (der_expect(&key, 0x30, &kalg, NULL) &&
      der_expect(&kalg, 0x06, &koid, NULL)) {
    if (oid_is(koid, "2a864886f70d010101"))
      out->public_key_algorithm = "RSA";
    else if (oid_is(koid, "2a8648ce380401"))
      out->public_key_algorithm = "DSA";
    else if (oid_is(koid, "2a8648ce3d0201"))
      out->public_key_algorithm = "ECDSA";
    else if (oid_is(koid, "2b6570"))
      out->public_key_algorithm = "Ed25519";
  }
  while (der_next(&tbs, &tag, &c, NULL)) {
    if (tag != 0xa3)
      continue;
    Der exts, ext;
    if (!der_expect(&c, 0x30, &exts, NULL))
      return false;
    while (der_expect(&exts, 0x30, &ext, NULL)) {
      Der eid, val, bc, x;
      if (!der_expect(&ext, 0x06, &eid, NULL) ||
          !der_next(&ext, &tag, &val, NULL))
        return false;
      if (tag == 0x01 && !der_next(&ext, &tag, &val, NULL))
        return false;
      if (!oid_is(eid, "551d13"))
        continue;
      out->max_path_length = -1;
      if (!der_expect(&val, 0x30, &bc, NULL))
        return false;
      if (bc.n && bc.p[0] == 0x01 && der_next(&bc, &tag, &x, NULL))
        out->is_ca = x.n == 1 && x.p[0] != 0;
      if (bc.n && bc.p[0] == 0x02 && der_next(&bc, &tag, &x, NULL)) {
        if (x.n == 0 || x.n > 4 || (x.p[0] & 0x80))
          return false;
        int64_t v = 0;
        for (size_t i = 0; i < x.n; i++)
          v = v << 8 | x.p[i];
        out->max_path_length = v;
      }
    }
  }
  uint8_t h[20];
  mbedtls_sha1(der.p, der.n, h);
  Buf fp;
  buf_init(&fp, a);
  for (int i = 0; i < 20; i++)
    buf_printf(&fp, "%02x", h[i]);
  out->sha1_fingerprint = buf_str(&fp);
  return true;
}
