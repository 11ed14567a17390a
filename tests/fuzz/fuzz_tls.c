/*
** fuzz_tls: what the tls provider reads from configuration (keys,
** certificate requests and CA certificates the user hands it: untrusted
** text).  The first byte picks the reader: tlskey_parse_pem (private_key_pem),
** tlskey_parse_openssh (private_key_openssh), or the DER of the first PEM
** block through tlscert_parse_request (cert_request_pem) and
** tlscert_parse_cert (ca_cert_pem).  A key that parses must encode, and
** its PEM must parse back to the same public key.
*/
#include <string.h>

#include "base/arena.h"
#include "providers/tlscert.h"
#include "providers/tlskey.h"

#include "fuzz.h"

static void key_round_trip(Arena *a, TlsKey *k)
{
  TlsKeyText t, t2;
  const char *err;
  if (!tlskey_encode(a, k, 1, &t, &err))
    return;
  TlsKey back;
  tlskey_init(&back);
  if (!tlskey_parse_pem(a, &back, t.private_pem, strlen(t.private_pem),
                        &err) ||
      !tlskey_encode(a, &back, 1, &t2, &err) ||
      strcmp(t.public_pem, t2.public_pem) != 0)
    __builtin_trap();
  tlskey_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  Arena a;
  arena_init(&a, 0);
  char *s = arena_alloc_raw(&a, 1, 1, size);
  memcpy(s, data + 1, size - 1);
  s[size - 1] = 0;
  const char *err;
  TlsKey k;
  tlskey_init(&k);
  switch (data[0] % 3) {
  case 0:
    if (tlskey_parse_pem(&a, &k, s, size - 1, &err))
      key_round_trip(&a, &k);
    break;
  case 1:
    if (tlskey_parse_openssh(&a, &k, s, size - 1, &err))
      key_round_trip(&a, &k);
    break;
  default: {
    const char *type;
    uint8_t *der;
    size_t n, rest;
    TlsBytes subj, spki, ski;
    TlsSans sans;
    if (tlskey_pem_decode(&a, s, size - 1, &type, &der, &n, &rest)) {
      if (rest > size - 1)
        __builtin_trap();
      (void)tlscert_parse_request(&a, (TlsBytes){der, n}, &subj, &spki,
                                  &sans, &err);
      (void)tlscert_parse_cert(&a, (TlsBytes){der, n}, &subj, &spki, &ski,
                               &err);
    }
    break;
  }
  }
  tlskey_free(&k);
  arena_release(&a);
  return 0;
}
