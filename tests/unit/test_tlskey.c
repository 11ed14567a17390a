/* Unit tests for tlskey: each encoding of keys made by OpenSSL and
** ssh-keygen (tlskey_fixtures.h) is byte-for-byte what those tools (and
** Go, whose encodings they share) write; generated keys survive a round
** trip through their PEM and OpenSSH forms; bad input is refused. */
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "providers/tlskey.h"
#include "t.h"
#include "tlskey_fixtures.h"

static Arena arena;

/* The DER inside the first PEM block of s (for comparing OpenSSH files
** whose line widths differ). */
static const char *der_hex(const char *s)
{
  const char *type;
  uint8_t *der;
  size_t n, rest;
  if (!tlskey_pem_decode(&arena, s, strlen(s), &type, &der, &n, &rest))
    return "(no PEM)";
  char *h = ARENA_NEW(&arena, char, 2 * n + 1);
  for (size_t i = 0; i < n; i++)
    snprintf(h + 2 * i, 3, "%02x", der[i]);
  return h;
}

static bool lines_at_most_64(const char *s)
{
  for (const char *l = s; *l;) {
    const char *e = strchr(l, '\n');
    if (!e)
      return false;
    if (strncmp(l, "-----", 5) != 0 && e - l > 64)
      return false;
    l = e + 1;
  }
  return true;
}

static void test_fixture_encodings(void)
{
  for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
    const KeyFixture *f = &fixtures[i];
    TlsKey k;
    TlsKeyText t;
    const char *err = NULL;
    tlskey_init(&k);
    t_cur_name = f->name;
    T_CHECK(tlskey_parse_pem(&arena, &k, f->pem, strlen(f->pem), &err));
    T_CHECK(tlskey_encode(&arena, &k, (uint32_t)f->check, &t, &err));
    T_EQ_STR(t.private_pem, f->pem);
    T_EQ_STR(t.pkcs8_pem, f->pkcs8);
    T_EQ_STR(t.public_pem, f->pub);
    T_EQ_STR(t.id, f->id);
    T_EQ_STR(t.authorized_key, f->authk);
    T_EQ_STR(t.fingerprint_md5, f->md5);
    T_EQ_STR(t.fingerprint_sha256, f->sha256);
    if (*f->ssh) {
      T_EQ_STR(der_hex(t.openssh_private), der_hex(f->ssh));
      T_CHECK(lines_at_most_64(t.openssh_private));
      T_CHECK(strstr(t.openssh_private, "-----BEGIN OPENSSH PRIVATE KEY"
                     "-----\n") == t.openssh_private);
    } else {
      T_EQ_STR(t.openssh_private, "");
    }
    tlskey_free(&k);
    /* the PKCS#8 form reads back to the same key */
    tlskey_init(&k);
    T_CHECK(tlskey_parse_pem(&arena, &k, f->pkcs8, strlen(f->pkcs8), &err));
    TlsKeyText t2;
    T_CHECK(tlskey_encode(&arena, &k, (uint32_t)f->check, &t2, &err));
    T_EQ_STR(t2.private_pem, f->pem);
    tlskey_free(&k);
    /* and so does the OpenSSH file */
    if (*f->ssh) {
      tlskey_init(&k);
      T_CHECK(tlskey_parse_openssh(&arena, &k, f->ssh, strlen(f->ssh),
                                   &err));
      T_CHECK(tlskey_encode(&arena, &k, (uint32_t)f->check, &t2, &err));
      T_EQ_STR(t2.private_pem, f->pem);
      tlskey_free(&k);
    }
  }
}

static void test_generate_round_trip(void)
{
  static const struct {
    TlsAlg alg;
    int bits;
    const char *curve, *head, *ssh;
  } cases[] = {
    {TLS_ALG_RSA, 1024, NULL, "-----BEGIN RSA PRIVATE KEY-----\n",
     "ssh-rsa "},
    {TLS_ALG_ECDSA, 0, "P224", "-----BEGIN EC PRIVATE KEY-----\n", ""},
    {TLS_ALG_ECDSA, 0, "P256", "-----BEGIN EC PRIVATE KEY-----\n",
     "ecdsa-sha2-nistp256 "},
    {TLS_ALG_ECDSA, 0, "P521", "-----BEGIN EC PRIVATE KEY-----\n",
     "ecdsa-sha2-nistp521 "},
    {TLS_ALG_ED25519, 0, NULL, "-----BEGIN PRIVATE KEY-----\n",
     "ssh-ed25519 "},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    TlsKey k, back;
    TlsKeyText t, t2;
    const char *err = NULL;
    tlskey_init(&k);
    tlskey_init(&back);
    T_CHECK(tlskey_generate(&arena, &k, cases[i].alg, cases[i].bits,
                            cases[i].curve, &err));
    T_CHECK(tlskey_encode(&arena, &k, 7, &t, &err));
    T_CHECK(strncmp(t.private_pem, cases[i].head,
                    strlen(cases[i].head)) == 0);
    T_CHECK(strncmp(t.authorized_key, cases[i].ssh,
                    strlen(cases[i].ssh)) == 0);
    T_CHECK(tlskey_parse_pem(&arena, &back, t.private_pem,
                             strlen(t.private_pem), &err));
    T_CHECK(tlskey_encode(&arena, &back, 7, &t2, &err));
    T_EQ_STR(t2.pkcs8_pem, t.pkcs8_pem);
    T_EQ_STR(t2.id, t.id);
    if (*t.openssh_private) {
      tlskey_free(&back);
      tlskey_init(&back);
      T_CHECK(tlskey_parse_openssh(&arena, &back, t.openssh_private,
                                   strlen(t.openssh_private), &err));
      T_CHECK(tlskey_encode(&arena, &back, 7, &t2, &err));
      T_EQ_STR(t2.openssh_private, t.openssh_private);
    }
    tlskey_free(&k);
    tlskey_free(&back);
  }
}

static void test_bad_input(void)
{
  TlsKey k;
  const char *err = NULL;
  tlskey_init(&k);
  T_CHECK(!tlskey_parse_pem(&arena, &k, "nope", 4, &err));
  T_EQ_STR(err, "failed to decode PEM block: decoded bytes 0, undecoded 4");
  T_CHECK(!tlskey_parse_pem(&arena, &k, fixtures[0].pub,
                            strlen(fixtures[0].pub), &err));
  T_EQ_STR(err, "unable to determine parser for PEM preamble: PUBLIC KEY");
  static const char junk[] = "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n"
                             "-----END RSA PRIVATE KEY-----\n";
  T_CHECK(!tlskey_parse_pem(&arena, &k, junk, strlen(junk), &err));
  T_CHECK(strncmp(err, "failed to parse private key given PEM preamble "
                  "'RSA PRIVATE KEY'", 63) == 0);
  T_CHECK(!tlskey_parse_openssh(&arena, &k, "x", 1, &err));
  T_EQ_STR(err, "ssh: no key found");
  T_CHECK(!tlskey_generate(&arena, &k, TLS_ALG_RSA, 512, NULL, &err));
  T_CHECK(strncmp(err, "crypto/rsa: 512-bit keys are insecure", 37) == 0);
  T_CHECK(!tlskey_generate(&arena, &k, TLS_ALG_ECDSA, 0, "P999", &err));
  tlskey_free(&k);
}

/* upstream's hashForState trims Go's white space (ASCII and Unicode
** spaces as UTF-8) at both ends before hashing. */
static void test_hash_for_state(void)
{
  const char *plain = tlskey_hash_for_state(&arena, (const uint8_t *)"ab", 2);
  /* printf ab | sha1sum */
  T_EQ_STR(plain, "da23614e02469a0d7c7bd1bdab5c9c474b1904dc");
  T_EQ_STR(tlskey_hash_for_state(&arena, (const uint8_t *)" \tab\n\r", 6),
           plain);
  T_EQ_STR(tlskey_hash_for_state(&arena,
                                 (const uint8_t *)"\xc2\xa0" "ab\xe2\x80\x89",
                                 7),
           plain);
  /* a byte that is not a space in UTF-8 stays */
  T_CHECK(strcmp(tlskey_hash_for_state(&arena, (const uint8_t *)"ab\xa0", 3),
                 plain) != 0);
}

int main(void)
{
  arena_init(&arena, 1 << 16);
  T_RUN(test_fixture_encodings);
  T_RUN(test_generate_round_trip);
  T_RUN(test_bad_input);
  T_RUN(test_hash_for_state);
  arena_release(&arena);
  return t_done("test_tlskey");
}
