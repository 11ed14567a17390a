/*
** mtls.c: AutoMTLS certificates with mbedTLS.  Contracts in mtls.h.
*/
#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <mbedtls/base64.h>
#include <mbedtls/error.h>
#include <mbedtls/ecp.h>
#include <mbedtls/oid.h>
#include <mbedtls/pem.h>
#include <mbedtls/pk.h>
#include <mbedtls/x509_crt.h>
#include <psa/crypto.h>

#include "mtls.h"

/* The kernel's randomness for mbedTLS's f_rng callbacks: enough for one
** key and one signature, without an entropy pool and DRBG to set up. */
static int rng(void *ud, unsigned char *out, size_t n)
{
  (void)ud;
  size_t got = 0;
  while (got < n) {
    ssize_t r = getrandom(out + got, n - got, 0);
    if (r < 0) {
      if (errno == EINTR)
        continue;
      return MBEDTLS_ERR_ERROR_GENERIC_ERROR;
    }
    got += (size_t)r;
  }
  return 0;
}

static void when(char out[15], time_t t)
{
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, 15, "%Y%m%d%H%M%S", &tm);
}

static const char *mbed_why(Arena *a, const char *what, int rc)
{
  return arena_printf(a, "%s failed (mbedTLS error -0x%04x)", what,
                      (unsigned)-rc);
}

bool mtls_generate(Arena *a, MtlsCert *out, const char **why)
{
  /* mbedTLS 3.6 signs through PSA when it is built with it; initialising
  ** twice is harmless (libcurl does it too). */
  if (psa_crypto_init() != PSA_SUCCESS) {
    *why = "the PSA crypto library could not be initialised";
    return false;
  }
  mbedtls_pk_context key;
  mbedtls_x509write_cert crt;
  mbedtls_pk_init(&key);
  mbedtls_x509write_crt_init(&crt);
  bool ok = false;
  unsigned char serial[16];
  unsigned char *pem = arena_alloc_raw(a, 1, 1, 4096);
  unsigned char kpem[1024];
  int rc = mbedtls_pk_setup(&key, mbedtls_pk_info_from_type(MBEDTLS_PK_ECKEY));
  if (rc) {
    *why = mbed_why(a, "setting up the key", rc);
    goto out;
  }
  rc = mbedtls_ecp_gen_key(MBEDTLS_ECP_DP_SECP256R1, mbedtls_pk_ec(key), rng,
                           NULL);
  if (rc) {
    *why = mbed_why(a, "generating the P-256 key", rc);
    goto out;
  }
  if (rng(NULL, serial, sizeof serial)) {
    *why = "no randomness for the serial number";
    goto out;
  }
  serial[0] &= 0x7f;         /* a positive INTEGER */
  serial[0] |= 0x01;         /* and not a shorter one */
  time_t now = time(NULL);
  char from[15], to[15];
  when(from, now - 30);
  when(to, now + (time_t)MTLS_VALID_DAYS * 86400);
  /* go-plugin's choices: a CA for "localhost", usable by both ends. */
  mbedtls_x509_san_list san = {
      .node = {.type = MBEDTLS_X509_SAN_DNS_NAME,
               .san.unstructured_name = {.tag = 0,
                                         .len = 9,
                                         .p = (unsigned char *)"localhost"}},
      .next = NULL};
  mbedtls_asn1_sequence eku_server = {
      .buf = {.tag = MBEDTLS_ASN1_OID,
              .len = MBEDTLS_OID_SIZE(MBEDTLS_OID_SERVER_AUTH),
              .p = (unsigned char *)MBEDTLS_OID_SERVER_AUTH},
      .next = NULL};
  mbedtls_asn1_sequence eku = {
      .buf = {.tag = MBEDTLS_ASN1_OID,
              .len = MBEDTLS_OID_SIZE(MBEDTLS_OID_CLIENT_AUTH),
              .p = (unsigned char *)MBEDTLS_OID_CLIENT_AUTH},
      .next = &eku_server};
  mbedtls_x509write_crt_set_version(&crt, MBEDTLS_X509_CRT_VERSION_3);
  mbedtls_x509write_crt_set_md_alg(&crt, MBEDTLS_MD_SHA256);
  mbedtls_x509write_crt_set_subject_key(&crt, &key);
  mbedtls_x509write_crt_set_issuer_key(&crt, &key);
  if ((rc = mbedtls_x509write_crt_set_subject_name(&crt,
                                                   "CN=localhost,O=cairn")) ||
      (rc = mbedtls_x509write_crt_set_issuer_name(&crt,
                                                  "CN=localhost,O=cairn")) ||
      (rc = mbedtls_x509write_crt_set_serial_raw(&crt, serial,
                                                 sizeof serial)) ||
      (rc = mbedtls_x509write_crt_set_validity(&crt, from, to)) ||
      (rc = mbedtls_x509write_crt_set_basic_constraints(&crt, 1, -1)) ||
      (rc = mbedtls_x509write_crt_set_key_usage(
           &crt, MBEDTLS_X509_KU_DIGITAL_SIGNATURE |
                     MBEDTLS_X509_KU_KEY_AGREEMENT |
                     MBEDTLS_X509_KU_KEY_CERT_SIGN)) ||
      (rc = mbedtls_x509write_crt_set_ext_key_usage(&crt, &eku)) ||
      (rc = mbedtls_x509write_crt_set_subject_alternative_name(&crt, &san))) {
    *why = mbed_why(a, "describing the certificate", rc);
    goto out;
  }
  rc = mbedtls_x509write_crt_pem(&crt, pem, 4096, rng, NULL);
  if (rc) {
    *why = mbed_why(a, "signing the certificate", rc);
    goto out;
  }
  rc = mbedtls_pk_write_key_pem(&key, kpem, sizeof kpem);
  if (rc) {
    *why = mbed_why(a, "writing the key", rc);
    goto out;
  }
  out->cert_pem = (const char *)pem;
  out->key_pem = arena_strdup(a, (const char *)kpem);
  ok = true;
out:
  /* The key's copy on this call's stack is wiped: it lives only in the
  ** arena until the run ends. */
  mbedtls_platform_zeroize(kpem, sizeof kpem);
  mbedtls_x509write_crt_free(&crt);
  mbedtls_pk_free(&key);
  return ok;
}

bool mtls_server_pem(Arena *a, const char *b64, const char **pem,
                     const char **why)
{
  size_t n = strlen(b64);
  /* RawStdEncoding drops the padding; mbedTLS wants it back. */
  char *padded = arena_alloc_raw(a, 1, 1, n + 4);
  memcpy(padded, b64, n);
  while (n % 4)
    padded[n++] = '=';
  padded[n] = 0;
  size_t dlen = 0;
  unsigned char *der = arena_alloc_raw(a, 1, 1, n / 4 * 3 + 1);
  int rc = mbedtls_base64_decode(der, n / 4 * 3 + 1, &dlen,
                                 (const unsigned char *)padded, n);
  if (rc) {
    *why = "the server certificate is not base64";
    return false;
  }
  mbedtls_x509_crt crt;
  mbedtls_x509_crt_init(&crt);
  rc = mbedtls_x509_crt_parse_der(&crt, der, dlen);
  mbedtls_x509_crt_free(&crt);
  if (rc) {
    *why = mbed_why(a, "parsing the server certificate", rc);
    return false;
  }
  size_t cap = dlen * 2 + 128, olen = 0;
  unsigned char *o = arena_alloc_raw(a, 1, 1, cap);
  rc = mbedtls_pem_write_buffer("-----BEGIN CERTIFICATE-----\n",
                                "-----END CERTIFICATE-----\n", der, dlen, o,
                                cap, &olen);
  if (rc) {
    *why = mbed_why(a, "writing the server certificate", rc);
    return false;
  }
  *pem = (const char *)o;
  return true;
}
