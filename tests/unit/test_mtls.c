/*
** test_mtls: net/mtls.h, the AutoMTLS certificates: what the client
** certificate says (go-plugin's choices: "localhost", a CA usable for
** client and server authentication, P-256, valid now and not for long),
** that its key matches it, that two are never the same, and the plugin's
** certificate taken from base64 DER with or without padding, garbage
** refused.
*/
#include <string.h>
#include <time.h>

#include <mbedtls/base64.h>
#include <mbedtls/oid.h>
#include <mbedtls/pk.h>
#include <mbedtls/x509_crt.h>

#include "net/mtls.h"
#include "t.h"

static Arena A;

static int rng(void *ud, unsigned char *out, size_t n)
{
  (void)ud;
  memset(out, 0x5a, n);      /* only for the key check's blinding */
  return 0;
}

static void test_generate(void)
{
  MtlsCert c;
  const char *why = NULL;
  T_CHECK(mtls_generate(&A, &c, &why));
  T_CHECK(strncmp(c.cert_pem, "-----BEGIN CERTIFICATE-----", 27) == 0);
  T_CHECK(strstr(c.key_pem, "EC PRIVATE KEY") != NULL);
  mbedtls_x509_crt crt;
  mbedtls_x509_crt_init(&crt);
  T_EQ_INT(mbedtls_x509_crt_parse(&crt, (const unsigned char *)c.cert_pem,
                                  strlen(c.cert_pem) + 1), 0);
  T_EQ_INT(crt.version, 3);
  T_CHECK(mbedtls_x509_crt_check_key_usage(
              &crt, MBEDTLS_X509_KU_DIGITAL_SIGNATURE) == 0);
  T_CHECK(mbedtls_x509_crt_check_extended_key_usage(
              &crt, MBEDTLS_OID_CLIENT_AUTH,
              MBEDTLS_OID_SIZE(MBEDTLS_OID_CLIENT_AUTH)) == 0);
  T_CHECK(mbedtls_x509_crt_check_extended_key_usage(
              &crt, MBEDTLS_OID_SERVER_AUTH,
              MBEDTLS_OID_SIZE(MBEDTLS_OID_SERVER_AUTH)) == 0);
  T_CHECK(mbedtls_x509_time_is_past(&crt.valid_from));
  T_CHECK(!mbedtls_x509_time_is_past(&crt.valid_to));
  struct tm to = {.tm_year = crt.valid_to.year - 1900,
                  .tm_mon = crt.valid_to.mon - 1,
                  .tm_mday = crt.valid_to.day,
                  .tm_hour = crt.valid_to.hour,
                  .tm_min = crt.valid_to.min,
                  .tm_sec = crt.valid_to.sec};
  time_t left = timegm(&to) - time(NULL);
  T_CHECK(left > (MTLS_VALID_DAYS - 1) * 86400L);
  T_CHECK(left <= MTLS_VALID_DAYS * 86400L);
  /* Verifies against itself as the only root, for the name localhost. */
  uint32_t flags = 0;
  T_EQ_INT(mbedtls_x509_crt_verify(&crt, &crt, NULL, "localhost", &flags,
                                   NULL, NULL), 0);
  T_CHECK(mbedtls_x509_crt_verify(&crt, &crt, NULL, "example.com", &flags,
                                  NULL, NULL) != 0);
  T_EQ_INT(mbedtls_pk_get_type(&crt.pk), MBEDTLS_PK_ECKEY);
  T_EQ_INT(mbedtls_pk_get_bitlen(&crt.pk), 256);
  mbedtls_pk_context key;
  mbedtls_pk_init(&key);
  T_EQ_INT(mbedtls_pk_parse_key(&key, (const unsigned char *)c.key_pem,
                                strlen(c.key_pem) + 1, NULL, 0, rng, NULL),
           0);
  T_EQ_INT(mbedtls_pk_check_pair(&crt.pk, &key, rng, NULL), 0);
  mbedtls_pk_free(&key);
  mbedtls_x509_crt_free(&crt);

  MtlsCert d;
  T_CHECK(mtls_generate(&A, &d, &why));
  T_CHECK(strcmp(c.cert_pem, d.cert_pem) != 0);
  T_CHECK(strcmp(c.key_pem, d.key_pem) != 0);
}

/* The plugin's certificate as the handshake carries it. */
static void test_server_pem(void)
{
  MtlsCert c;
  const char *why = NULL;
  T_CHECK(mtls_generate(&A, &c, &why));
  mbedtls_x509_crt crt;
  mbedtls_x509_crt_init(&crt);
  T_EQ_INT(mbedtls_x509_crt_parse(&crt, (const unsigned char *)c.cert_pem,
                                  strlen(c.cert_pem) + 1), 0);
  unsigned char b64[4096];
  size_t n = 0;
  T_EQ_INT(mbedtls_base64_encode(b64, sizeof b64, &n, crt.raw.p,
                                 crt.raw.len), 0);
  b64[n] = 0;
  const char *pem = NULL;
  T_CHECK(mtls_server_pem(&A, (const char *)b64, &pem, &why));
  T_CHECK(pem && strcmp(pem, c.cert_pem) == 0);
  while (n && b64[n - 1] == '=')
    b64[--n] = 0;            /* go-plugin's RawStdEncoding */
  pem = NULL;
  T_CHECK(mtls_server_pem(&A, (const char *)b64, &pem, &why));
  T_CHECK(pem && strcmp(pem, c.cert_pem) == 0);
  mbedtls_x509_crt_free(&crt);

  why = NULL;
  T_CHECK(!mtls_server_pem(&A, "not base64!", &pem, &why));
  T_CHECK(why && strstr(why, "base64") != NULL);
  why = NULL;
  T_CHECK(!mtls_server_pem(&A, "aGVsbG8gd29ybGQ", &pem, &why));
  T_CHECK(why && strstr(why, "parsing the server certificate") != NULL);
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_generate);
  T_RUN(test_server_pem);
  return t_done("test_mtls");
}
