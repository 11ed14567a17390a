/*
** ed25519: Ed25519 (RFC 8032, the pure variant) for the tls provider,
** which needs ED25519 keys and mbedTLS 3.6 has none.
**
** Only what the provider uses: the public key of a 32-byte private key
** (the "seed" of RFC 8032 section 5.1.5) and a signature (5.1.6).  No
** verification, no context or pre-hash variants.  The field and scalar
** arithmetic branches and indexes memory only on public data, so timing
** does not reveal the key.
**
** Memory: callers own every buffer; nothing is allocated.  The functions
** cannot fail.  Thread-safe (no state).
*/
#ifndef CAIRN_ED25519_H
#define CAIRN_ED25519_H

#include <stddef.h>
#include <stdint.h>

/* pub: the encoded public key A of the private key seed. */
void ed25519_public(uint8_t pub[32], const uint8_t seed[32]);

/* sig: the signature R || S of msg (n bytes) under seed, whose public
** key is pub (as ed25519_public returned; passed in to save the scalar
** multiplication). */
void ed25519_sign(uint8_t sig[64], const uint8_t *msg, size_t n,
                  const uint8_t seed[32], const uint8_t pub[32]);

#endif
