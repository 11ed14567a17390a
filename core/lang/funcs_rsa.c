/*
** funcs_rsa: rsadecrypt (Terraform's crypto.go): base64 ciphertext,
** PKCS #1 v1.5 padding, private key in PEM (PKCS #1 or PKCS #8), through
** mbedTLS's pk and rsa modules.  mbedTLS allocates its key structures
** with its own allocator; they are freed before returning.
*/
#include <string.h>
#include <sys/random.h>

#include <mbedtls/pk.h>
#include <mbedtls/rsa.h>

#include "base/json.h"
#include "funcs_impl.h"

/* Randomness for RSA blinding. */
static int rng(void *ctx, unsigned char *out, size_t n)
{
  (void)ctx;
  size_t got = 0;
  while (got < n) {
    ssize_t r = getrandom(out + got, n - got, 0);
    if (r > 0)
      got += (size_t)r;
  }
  return 0;
}

static const char *go_quote(FnCall *c, Value s)
{
  Buf b;
  buf_init(&b, c->arena);
  json_write_string(&b, s.u.s, s.len);
  return buf_str(&b);
}

bool fn_rsadecrypt(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  /* Decode the ciphertext with the shared base64 decoder via
  ** textdecodebase64's rules: strict standard alphabet. */
  Value dargs[2] = {a[0], val_str_ref("ISO-8859-1", 10)};
  Value raw;
  FnCall sub = *c;
  if (!fn_textdecodebase64(&sub, dargs, 2, &raw))
    return fn_arg_error(c, 0, "failed to decode input %s: cipher text must "
                              "be base64-encoded", go_quote(c, a[0]));
  /* raw holds the bytes as Latin-1 runes in UTF-8; fold them back. */
  uint8_t *ct = arena_alloc_raw(c->arena, 1, 1, raw.len + 1);
  size_t ctn = 0;
  for (size_t i = 0; i < raw.len;) {
    size_t l;
    ct[ctn++] = (uint8_t)fn_utf8_dec(raw.u.s + i, raw.len - i, &l);
    i += l;
  }
  mbedtls_pk_context pk;
  mbedtls_pk_init(&pk);
  /* PEM input must include its NUL terminator. */
  int rc = mbedtls_pk_parse_key(&pk, (const unsigned char *)a[1].u.s,
                                a[1].len + 1, NULL, 0, rng, NULL);
  if (rc != 0) {
    mbedtls_pk_free(&pk);
    return fn_arg_error(c, 1, "invalid private key: ssh: no key found");
  }
  if (mbedtls_pk_get_type(&pk) != MBEDTLS_PK_RSA) {
    mbedtls_pk_free(&pk);
    return fn_arg_error(c, 1, "invalid private key type");
  }
  mbedtls_rsa_context *rsa = mbedtls_pk_rsa(pk);
  size_t klen = mbedtls_rsa_get_len(rsa);
  unsigned char *buf = arena_alloc_raw(c->arena, 1, 1, klen + 1);
  size_t olen = 0;
  rc = ctn == klen ? mbedtls_rsa_pkcs1_decrypt(rsa, rng, NULL, &olen, ct,
                                               buf, klen)
                   : -1;
  mbedtls_pk_free(&pk);
  if (rc != 0)
    return fn_error(c, "failed to decrypt: crypto/rsa: decryption error");
  *out = val_str(c->arena, (const char *)buf, olen);
  return true;
}
