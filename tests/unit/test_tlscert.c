/* Unit tests for tlscert: names, key usages and SANs as Go writes them,
** certificates and requests that mbedTLS's independent parser reads and
** whose signatures it verifies, key identifiers as upstream computes
** them (expected values computed with OpenSSL and Python at test-writing
** time for the fixture keys), addresses as net.ParseIP reads them. */
#include <stdio.h>
#include <string.h>

#include <mbedtls/oid.h>
#include <mbedtls/x509_crt.h>
#include <mbedtls/x509_csr.h>

#include "base/arena.h"
#include "providers/tlscert.h"
#include "providers/tlskey.h"
#include "t.h"
#include "tlskey_fixtures.h"

static Arena arena;

static const char *hexs(TlsBytes b)
{
  char *h = ARENA_NEW(&arena, char, 2 * b.n + 1);
  for (size_t i = 0; i < b.n; i++)
    snprintf(h + 2 * i, 3, "%02x", b.p[i]);
  return h;
}

static void load(TlsKey *k, const char *name)
{
  const char *err;
  for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++)
    if (strcmp(fixtures[i].name, name) == 0)
      T_CHECK(tlskey_parse_pem(&arena, k, fixtures[i].pem,
                               strlen(fixtures[i].pem), &err));
}

static void test_names(void)
{
  static const char *const street[] = {"1 Main St"};
  TlsName n = {.country = "DE", .organization = "ACME & Co",
               .common_name = "Z\xc3\xbcrich", .street = street,
               .nstreet = 1};
  /* C, STREET, O, CN in Go's order; PrintableString unless a byte falls
  ** outside its alphabet (then UTF8String) */
  T_EQ_STR(hexs(tlscert_name(&arena, &n)),
           "3047310b3009060355040613024445"
           "3112301006035504091309"
           "31204d61696e205374"
           "31123010060355040a1309"
           "41434d45202620436f"
           "3110300e06035504030c075ac3bc72696368");
  TlsName empty = {.common_name = ""};
  TlsBytes e = tlscert_name(&arena, &empty);
  T_EQ_STR(hexs(e), "3000");
  T_CHECK(tlscert_name_empty(e));
  T_CHECK(tlscert_key_usage_bit("cert_signing") == 1u << 5);
  T_CHECK(tlscert_key_usage_bit("server_auth") == 0);
  T_CHECK(tlscert_is_usage("server_auth"));
  T_CHECK(!tlscert_is_usage("serverAuth"));
}

static void test_key_ids(void)
{
  static const struct {
    const char *key, *id;
  } cases[] = {
    {"rsa", "60f5028f32bcbf927c8820c951f976e7efc20589"},
    {"p256", "9cdedf6b0ecf5adb480e5436adc2fdba39bdb2bf"},
    {"ed", "53bb88484b08aec4fdfcd9e8d996faca6724af94"},
  };
  for (size_t i = 0; i < 3; i++) {
    TlsKey k;
    TlsBytes spki, id;
    const char *err;
    tlskey_init(&k);
    load(&k, cases[i].key);
    T_CHECK(tlskey_public_der(&arena, &k, &spki.p, &spki.n, &err));
    T_CHECK(tlscert_key_id(&arena, spki, &id, &err));
    T_EQ_STR(hexs(id), cases[i].id);
    tlskey_free(&k);
  }
}

static void test_ips_and_times(void)
{
  TlsBytes b;
  T_CHECK(tlscert_parse_ip(&arena, "10.0.0.1", &b) && b.n == 4);
  T_EQ_STR(hexs(b), "0a000001");
  T_CHECK(tlscert_parse_ip(&arena, "::ffff:10.0.0.1", &b) && b.n == 4);
  T_CHECK(tlscert_parse_ip(&arena, "2001:db8::1", &b) && b.n == 16);
  T_CHECK(!tlscert_parse_ip(&arena, "1.2.3", &b));
  T_CHECK(!tlscert_parse_ip(&arena, "example.com", &b));
  T_CHECK(!tlscert_parse_ip(&arena, "fe80::1%eth0", &b));
  T_EQ_STR(tlscert_time_text(&arena, 1700000000, 0, 0), "2023-11-14T22:13:20Z");
  T_EQ_STR(tlscert_time_text(&arena, 1700000000, 500000000, 0),
           "2023-11-14T22:13:20.5Z");
  T_EQ_STR(tlscert_time_text(&arena, 1700000000, 123456789, 0),
           "2023-11-14T22:13:20.123456789Z");
  /* the zone of time.Local, as Go's RFC 3339 writes it */
  T_EQ_STR(tlscert_time_text(&arena, 1700000000, 0, 19800),
           "2023-11-15T03:43:20+05:30");
  T_EQ_STR(tlscert_time_text(&arena, 1700000000, 10, -10800),
           "2023-11-14T19:13:20.00000001-03:00");
}

/* A self-signed CA certificate per signer algorithm: mbedTLS parses it,
** finds the extensions, and verifies it against itself. */
static void test_self_signed(void)
{
  static const char *const keys[] = {"rsa", "p224", "p256", "p384", "p521",
                                     "ed"};
  static const char *const uses[] = {"cert_signing", "digital_signature",
                                     "server_auth", "client_auth"};
  static const char *const dns[] = {"a.example.com"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    TlsKey k;
    TlsCertTemplate t;
    TlsBytes serial, der;
    const char *dec, *err = NULL;
    memset(&t, 0, sizeof t);
    tlskey_init(&k);
    load(&k, keys[i]);
    TlsName n = {.common_name = "Test CA", .organization = "cairn"};
    t.subject = t.issuer = tlscert_name(&arena, &n);
    T_CHECK(tlskey_public_der(&arena, &k, &t.spki.p, &t.spki.n, &err));
    T_CHECK(tlscert_key_id(&arena, t.spki, &t.ski, &err));
    t.aki = t.ski;
    t.not_before = 1700000000;
    t.not_after = 1700000000 + 3600;
    t.key_usage = (1u << 5) | 1u;
    t.ext_usages = uses;
    t.next_usages = 4;
    t.is_ca = true;
    t.max_path_len = 2;
    t.sans.dns = dns;
    t.sans.ndns = 1;
    tlscert_serial(&arena, &serial, &dec);
    T_CHECK(serial.n >= 1 && serial.n <= 17 && strlen(dec) > 0);
    T_CHECK(tlscert_create(&arena, &t, serial, &k, &der, &err));
    TlsBytes subj, spki, ski;
    T_CHECK(tlscert_parse_cert(&arena, der, &subj, &spki, &ski, &err));
    T_EQ_STR(hexs(subj), hexs(t.subject));
    T_EQ_STR(hexs(ski), hexs(t.ski));
    T_EQ_STR(hexs(spki), hexs(t.spki));
    if (k.alg == TLS_ALG_ED25519) {
      tlskey_free(&k);
      continue; /* mbedTLS reads no Ed25519 certificate */
    }
    mbedtls_x509_crt crt;
    mbedtls_x509_crt_init(&crt);
    int rc = mbedtls_x509_crt_parse_der(&crt, der.p, der.n);
    T_EQ_INT(rc, 0);
    if (rc == 0) {
      T_CHECK(crt.MBEDTLS_PRIVATE(ca_istrue) == 1);
      /* mbedTLS stores the path length plus one */
      T_EQ_INT(crt.MBEDTLS_PRIVATE(max_pathlen), 3);
      T_CHECK(mbedtls_x509_crt_check_key_usage(
                  &crt, MBEDTLS_X509_KU_DIGITAL_SIGNATURE |
                            MBEDTLS_X509_KU_KEY_CERT_SIGN) == 0);
      T_CHECK(mbedtls_x509_crt_check_key_usage(
                  &crt, MBEDTLS_X509_KU_KEY_ENCIPHERMENT) != 0);
      T_CHECK(mbedtls_x509_crt_check_extended_key_usage(
                  &crt, MBEDTLS_OID_SERVER_AUTH,
                  MBEDTLS_OID_SIZE(MBEDTLS_OID_SERVER_AUTH)) == 0);
      T_CHECK(crt.subject_alt_names.buf.len == strlen(dns[0]));
      uint32_t flags = 0;
      /* any digest, key type and curve; the fixture RSA key is 1024
      ** bits, below mbedTLS's default profile */
      static const mbedtls_x509_crt_profile any = {0xffffff, 0xffffff,
                                                   0xffffff, 1024};
      rc = mbedtls_x509_crt_verify_with_profile(&crt, &crt, NULL, &any,
                                                NULL, &flags, NULL, NULL);
      /* the validity window lies in the past: only that may be wrong */
      T_CHECK(rc == 0 || flags == MBEDTLS_X509_BADCERT_EXPIRED);
    }
    mbedtls_x509_crt_free(&crt);
    tlskey_free(&k);
  }
}

/* A request mbedTLS reads and verifies, whose names come back. */
static void test_request(void)
{
  TlsKey k;
  TlsBytes der, subj, spki;
  TlsSans sans, back;
  const char *err = NULL;
  static const char *const dns[] = {"a.example.com", "b.example.com"};
  static const char *const uris[] = {"spiffe://example.com/x"};
  TlsBytes ips[1];
  T_CHECK(tlscert_parse_ip(&arena, "192.0.2.1", &ips[0]));
  memset(&sans, 0, sizeof sans);
  sans.dns = dns;
  sans.ndns = 2;
  sans.ips = ips;
  sans.nips = 1;
  sans.uris = uris;
  sans.nuris = 1;
  tlskey_init(&k);
  load(&k, "p256");
  TlsName n = {.common_name = "req"};
  TlsBytes name = tlscert_name(&arena, &n);
  T_CHECK(tlscert_request(&arena, name, &sans, &k, &der, &err));
  mbedtls_x509_csr csr;
  mbedtls_x509_csr_init(&csr);
  T_EQ_INT(mbedtls_x509_csr_parse_der(&csr, der.p, der.n), 0);
  T_CHECK(mbedtls_pk_get_type(&csr.pk) == MBEDTLS_PK_ECKEY);
  mbedtls_x509_csr_free(&csr);
  T_CHECK(tlscert_parse_request(&arena, der, &subj, &spki, &back, &err));
  T_EQ_STR(hexs(subj), hexs(name));
  T_CHECK(back.ndns == 2 && strcmp(back.dns[1], "b.example.com") == 0);
  T_CHECK(back.nips == 1 && back.ips[0].n == 4);
  T_CHECK(back.nuris == 1 && strcmp(back.uris[0], uris[0]) == 0);
  /* garbage is refused */
  static const uint8_t junk[] = {0x30, 0x03, 0x02, 0x01, 0x00};
  T_CHECK(!tlscert_parse_request(&arena, (TlsBytes){junk, sizeof junk},
                                 &subj, &spki, &back, &err));
  TlsBytes ski;
  T_CHECK(!tlscert_parse_cert(&arena, (TlsBytes){junk, sizeof junk}, &subj,
                              &spki, &ski, &err));
  tlskey_free(&k);
}

/* tlscert_info: Go's field texts, pkix.Name.String() with its order,
** multi-valued RDNs, escapes and other attributes as #hex. */
static void test_info(void)
{
  static const char *const street[] = {"a", "b"};
  TlsName n = {.country = "DE", .common_name = "#x, y+z ",
               .street = street, .nstreet = 2};
  TlsBytes base = tlscert_name(&arena, &n);
  /* append an emailAddress RDN (IA5String, as OpenSSL writes it) */
  static const uint8_t email[] = {
      0x31, 0x14, 0x30, 0x12, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7,
      0x0d, 0x01, 0x09, 0x01, 0x16, 0x05, 'a', '@', 'b', '.', 'c'};
  uint8_t *nm = ARENA_NEW(&arena, uint8_t, base.n + sizeof email);
  memcpy(nm, base.p, base.n);
  memcpy(nm + base.n, email, sizeof email);
  nm[1] = (uint8_t)(nm[1] + sizeof email); /* short form: still < 128 */
  /* the subject's email_address (tls v4.1) writes the same RDN last */
  n.email_address = "a@b.c";
  TlsBytes withmail = tlscert_name(&arena, &n);
  T_CHECK(withmail.n == base.n + sizeof email &&
          memcmp(withmail.p, nm, withmail.n) == 0);
  TlsKey k;
  TlsCertTemplate t;
  TlsBytes serial, der;
  const char *dec, *err = NULL;
  memset(&t, 0, sizeof t);
  tlskey_init(&k);
  load(&k, "p384");
  t.subject = t.issuer = (TlsBytes){nm, base.n + sizeof email};
  T_CHECK(tlskey_public_der(&arena, &k, &t.spki.p, &t.spki.n, &err));
  t.not_before = 1700000000;
  t.not_after = 1700003600;
  t.is_ca = true;
  t.max_path_len = 2;
  tlscert_serial(&arena, &serial, &dec);
  T_CHECK(tlscert_create(&arena, &t, serial, &k, &der, &err));
  TlsCertInfo ci;
  T_CHECK(tlscert_info(&arena, der, &ci, &err));
  /* Go's Name.String: attributes it has no name for come last */
  T_EQ_STR(ci.subject, "CN=\\#x\\, y\\+z\\ ,STREET=a+STREET=b,C=DE,"
                       "1.2.840.113549.1.9.1=#0c056140622e63");
  T_EQ_STR(ci.issuer, ci.subject);
  T_EQ_STR(ci.serial_number, dec);
  T_EQ_STR(ci.signature_algorithm, "ECDSA-SHA384");
  T_EQ_STR(ci.public_key_algorithm, "ECDSA");
  T_EQ_STR(ci.not_before, "2023-11-14T22:13:20Z");
  T_EQ_STR(ci.not_after, "2023-11-14T23:13:20Z");
  T_CHECK(ci.is_ca && ci.max_path_length == 2 && ci.version == 3);
  T_CHECK(strlen(ci.sha1_fingerprint) == 40);
  static const uint8_t junk[] = {0x30, 0x00};
  T_CHECK(!tlscert_info(&arena, (TlsBytes){junk, sizeof junk}, &ci, &err));
  tlskey_free(&k);
}

int main(void)
{
  arena_init(&arena, 1 << 16);
  T_RUN(test_names);
  T_RUN(test_key_ids);
  T_RUN(test_ips_and_times);
  T_RUN(test_self_signed);
  T_RUN(test_request);
  T_RUN(test_info);
  arena_release(&arena);
  return t_done("test_tlscert");
}
