/*
** tlskey: private keys for the tls provider (prov_tls.c): generation,
** parsing and every encoding hashicorp/tls writes, byte for byte as Go's
** crypto/x509, encoding/pem and golang.org/x/crypto/ssh write them.
**
** - private_pem: RSA as PKCS#1 "RSA PRIVATE KEY", ECDSA as SEC1 "EC
**   PRIVATE KEY", ED25519 as PKCS#8 "PRIVATE KEY";
** - pkcs8_pem: PKCS#8 "PRIVATE KEY" (EC without the curve inside the
**   SEC1 structure, as Go and OpenSSL write it);
** - openssh_private: "OPENSSH PRIVATE KEY" (openssh-key-v1, cipher and
**   KDF "none", one key, the check integer given by the caller, padding
**   1, 2, 3...), "" for ECDSA P-224 which SSH does not know;
** - public_pem: PKIX "PUBLIC KEY"; authorized_key: "TYPE BASE64\n";
** - fingerprint_md5 "aa:bb:...", fingerprint_sha256 "SHA256:..." (base64
**   without padding), both "" for P-224 as the OpenSSH key;
** - id: hex SHA-1 of the PKIX DER with Go's strings.TrimSpace applied.
** PEM is Go's pem.EncodeToMemory: 64-column base64, "\n" line ends.
**
** Memory: a TlsKey holds mbedTLS contexts (mbedTLS allocates for them):
** release it with tlskey_free on every path.  Strings returned live in
** the arena given.  Failures return false with *err, a message in the
** arena worded as upstream's Go error where one exists.  Private key
** material never appears in an error.  Thread-safe per TlsKey.
*/
#ifndef CAIRN_TLSKEY_H
#define CAIRN_TLSKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mbedtls/pk.h>

#include "base/arena.h"
#include "base/buf.h"

typedef enum TlsAlg {
  TLS_ALG_NONE = 0,
  TLS_ALG_RSA,
  TLS_ALG_ECDSA,
  TLS_ALG_ED25519
} TlsAlg;

typedef struct TlsKey {
  TlsAlg alg;
  mbedtls_pk_context pk;  /* RSA and ECDSA keys */
  uint8_t seed[32];       /* ED25519: the private key (RFC 8032) */
  uint8_t pub[32];        /* ED25519: its public key */
} TlsKey;

/* The encodings of one key; every string non-NULL ("" where upstream
** leaves a value empty). */
typedef struct TlsKeyText {
  const char *private_pem, *pkcs8_pem, *openssh_private;
  const char *public_pem, *authorized_key;
  const char *fingerprint_md5, *fingerprint_sha256, *id;
} TlsKeyText;

void tlskey_init(TlsKey *k);
void tlskey_free(TlsKey *k);

/* "RSA", "ECDSA", "ED25519". */
const char *tlskey_alg_name(TlsAlg alg);

/* Fills buf with n bytes from a CTR-DRBG seeded by getrandom(2); the
** f_rng of mbedTLS calls (ctx unused, may be NULL).  Returns 0. */
int tlskey_rng(void *ctx, unsigned char *buf, size_t n);

/* A new key: bits for RSA, curve ("P224", "P256", "P384", "P521") for
** ECDSA; neither for ED25519. */
bool tlskey_generate(Arena *a, TlsKey *k, TlsAlg alg, int bits,
                     const char *curve, const char **err);

/* Parses the first PEM block of text as upstream's parsePrivateKeyPEM
** does: "RSA PRIVATE KEY" (PKCS#1), "EC PRIVATE KEY" (SEC1) or "PRIVATE
** KEY" (PKCS#8 of RSA, ECDSA on P-224..P-521, or Ed25519). */
bool tlskey_parse_pem(Arena *a, TlsKey *k, const char *text, size_t n,
                      const char **err);
/* Parses an unencrypted "OPENSSH PRIVATE KEY" (RSA, ECDSA, Ed25519). */
bool tlskey_parse_openssh(Arena *a, TlsKey *k, const char *text, size_t n,
                          const char **err);

/* Every encoding of k; check is the openssh-key-v1 check integer (random
** upstream: pass a random one, tests pass a fixed one). */
bool tlskey_encode(Arena *a, const TlsKey *k, uint32_t check,
                   TlsKeyText *out, const char **err);

/* The PKIX SubjectPublicKeyInfo DER of k, in a. */
bool tlskey_public_der(Arena *a, const TlsKey *k, const uint8_t **der,
                       size_t *n, const char **err);

/* Go's pem.EncodeToMemory of one block of type `type`. */
const char *tlskey_pem(Arena *a, const char *type, const uint8_t *der,
                       size_t n);
/* Go's pem.Decode of the first block in text: false when there is none.
** *type and the DER bytes in a; *rest_off: offset of what follows. */
bool tlskey_pem_decode(Arena *a, const char *text, size_t n,
                       const char **type, uint8_t **der, size_t *dern,
                       size_t *rest_off);

/* upstream's hashForState: hex SHA-1 of the bytes after Go's
** strings.TrimSpace (the ids of keys, requests and tls_certificate). */
const char *tlskey_hash_for_state(Arena *a, const uint8_t *p, size_t n);

/* DER building blocks (also for tlscert): appends tag, length and the n
** bytes at p to b; replaces b's contents by one TLV holding them. */
void tlskey_der_tlv(Buf *b, uint8_t tag, const void *p, size_t n);
void tlskey_der_wrap(Arena *a, Buf *b, uint8_t tag);

#endif
