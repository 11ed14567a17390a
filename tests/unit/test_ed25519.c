/* Unit tests for ed25519: the test vectors of RFC 8032 section 7.1
** (TEST 1, 2, 3 and SHA(abc)), key derivation and signatures. */
#include <stdio.h>
#include <string.h>

#include "providers/ed25519.h"
#include "t.h"

static void unhex(uint8_t *out, const char *hex)
{
  for (size_t i = 0; hex[2 * i]; i++) {
    unsigned v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

static const char *tohex(char *buf, const uint8_t *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    snprintf(buf + 2 * i, 3, "%02x", p[i]);
  return buf;
}

static const struct {
  const char *seed, *pub, *msg, *sig;
} vectors[] = {
  {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
   "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
   "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
   "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
  {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
   "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
   "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
   "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
  {"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
   "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
   "af82",
   "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
   "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
  /* TEST SHA(abc): the message is SHA-512("abc") */
  {"833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
   "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
   "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
   "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
   "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589"
   "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"},
};

static void test_public_keys(void)
{
  for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
    uint8_t seed[32], pub[32];
    char h[65];
    unhex(seed, vectors[i].seed);
    ed25519_public(pub, seed);
    T_EQ_STR(tohex(h, pub, 32), vectors[i].pub);
  }
}

static void test_signatures(void)
{
  for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
    uint8_t seed[32], pub[32], msg[64], sig[64];
    char h[129];
    size_t n = strlen(vectors[i].msg) / 2;
    unhex(seed, vectors[i].seed);
    unhex(pub, vectors[i].pub);
    unhex(msg, vectors[i].msg);
    ed25519_sign(sig, msg, n, seed, pub);
    T_EQ_STR(tohex(h, sig, 64), vectors[i].sig);
  }
}

int main(void)
{
  T_RUN(test_public_keys);
  T_RUN(test_signatures);
  return t_done("test_ed25519");
}
