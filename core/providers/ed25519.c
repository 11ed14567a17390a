/*
** ed25519: RFC 8032 Ed25519 key derivation and signing (see ed25519.h).
**
** Field elements of GF(2^255 - 19) are 16 signed 64-bit limbs of 16 bits
** each (limb i weighs 2^(16 i)); sums and differences are left unreduced
** and products fold the upper half back with 2^256 = 38 (mod p).  Points
** are in extended twisted Edwards coordinates (X : Y : Z : T), x = X/Z,
** y = Y/Z, x y = T/Z, added with the unified formula of RFC 8032 section
** 5.1.4, which also doubles.  The scalar multiplication walks all 256
** bits with conditional swaps, so the secret scalar steers no branch.
** Scalars modulo the group order L use mbedTLS's bignum: they are reduced
** twice per signature, locally, where timing is not observable.
*/
#include "ed25519.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbedtls/bignum.h>
#include <mbedtls/platform_util.h>
#include <mbedtls/sha512.h>

typedef int64_t Fe[16];

typedef struct Point {
  Fe x, y, z, t;
} Point;

static void fe_copy(Fe o, const Fe a) { memcpy(o, a, sizeof(Fe)); }

static void fe_set(Fe o, int64_t v)
{
  memset(o, 0, sizeof(Fe));
  o[0] = v;
}

/* Brings every limb back to 16 bits, the carry out of the top limb
** re-entering at the bottom times 38. */
static void fe_carry(Fe o)
{
  for (int i = 0; i < 16; i++) {
    int64_t c = o[i] >> 16;
    o[i] -= c * 65536;
    if (i < 15)
      o[i + 1] += c;
    else
      o[0] += 38 * c;
  }
}

static void fe_add(Fe o, const Fe a, const Fe b)
{
  for (int i = 0; i < 16; i++)
    o[i] = a[i] + b[i];
}

static void fe_sub(Fe o, const Fe a, const Fe b)
{
  for (int i = 0; i < 16; i++)
    o[i] = a[i] - b[i];
}

static void fe_mul(Fe o, const Fe a, const Fe b)
{
  int64_t t[31] = {0};
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++)
      t[i + j] += a[i] * b[j];
  for (int i = 0; i < 15; i++)
    t[i] += 38 * t[i + 16];
  for (int i = 0; i < 16; i++)
    o[i] = t[i];
  fe_carry(o);
  fe_carry(o);
}

static void fe_sq(Fe o, const Fe a) { fe_mul(o, a, a); }

/* Swaps a and b when bit is 1, without branching on it. */
static void fe_cswap(Fe a, Fe b, int64_t bit)
{
  int64_t mask = -bit;
  for (int i = 0; i < 16; i++) {
    int64_t t = mask & (a[i] ^ b[i]);
    a[i] ^= t;
    b[i] ^= t;
  }
}

/* The canonical little-endian encoding (value reduced below p). */
static void fe_pack(uint8_t out[32], const Fe a)
{
  Fe t, m;
  fe_copy(t, a);
  fe_carry(t);
  fe_carry(t);
  fe_carry(t);
  /* t < 2^255 + small: subtracting p at most twice makes it canonical */
  for (int pass = 0; pass < 2; pass++) {
    m[0] = t[0] - 0xffed;
    for (int i = 1; i < 15; i++) {
      m[i] = t[i] - 0xffff - ((m[i - 1] >> 16) & 1);
      m[i - 1] &= 0xffff;
    }
    m[15] = t[15] - 0x7fff - ((m[14] >> 16) & 1);
    int64_t borrow = (m[15] >> 16) & 1;
    m[14] &= 0xffff;
    fe_cswap(t, m, 1 - borrow);
  }
  for (int i = 0; i < 16; i++) {
    out[2 * i] = (uint8_t)(t[i] & 0xff);
    out[2 * i + 1] = (uint8_t)((t[i] >> 8) & 0xff);
  }
}

/* a^(p-2) = 1/a; p - 2 = 2^255 - 21 has every bit set but bits 2 and 4. */
static void fe_inv(Fe o, const Fe a)
{
  Fe c;
  fe_copy(c, a);
  for (int bit = 253; bit >= 0; bit--) {
    fe_sq(c, c);
    if (bit != 2 && bit != 4)
      fe_mul(c, c, a);
  }
  fe_copy(o, c);
}

/* A constant written as 64 big-endian hex digits. */
static void fe_hex(Fe o, const char *hex)
{
  fe_set(o, 0);
  for (int i = 0; i < 64; i++) {
    char ch = hex[i];
    int v = ch <= '9' ? ch - '0' : ch - 'a' + 10;
    int bit = (63 - i) * 4; /* weight of this digit */
    o[bit / 16] += (int64_t)v << (bit % 16);
  }
}

/* RFC 8032 section 5.1: d = -121665/121666 and the base point B. */
static const char d_hex[] =
    "52036cee2b6ffe738cc740797779e89800700a4d4141d8ab75eb4dca135978a3";
static const char bx_hex[] =
    "216936d3cd6e53fec0a4e231fdd6dc5c692cc7609525a7b2c9562d608f25d51a";
static const char by_hex[] =
    "6666666666666666666666666666666666666666666666666666666666666658";

static void pt_add(Point *p, const Point *q, const Fe d2)
{
  Fe a, b, c, d, e, f, g, h, t;
  fe_sub(a, p->y, p->x);
  fe_sub(t, q->y, q->x);
  fe_mul(a, a, t);
  fe_add(b, p->x, p->y);
  fe_add(t, q->x, q->y);
  fe_mul(b, b, t);
  fe_mul(c, p->t, q->t);
  fe_mul(c, c, d2);
  fe_mul(d, p->z, q->z);
  fe_add(d, d, d);
  fe_sub(e, b, a);
  fe_sub(f, d, c);
  fe_add(g, d, c);
  fe_add(h, b, a);
  fe_mul(p->x, e, f);
  fe_mul(p->y, h, g);
  fe_mul(p->z, g, f);
  fe_mul(p->t, e, h);
}

static void pt_cswap(Point *p, Point *q, int64_t bit)
{
  fe_cswap(p->x, q->x, bit);
  fe_cswap(p->y, q->y, bit);
  fe_cswap(p->z, q->z, bit);
  fe_cswap(p->t, q->t, bit);
}

/* The encoding of section 5.1.2: y, with the sign of x in the top bit. */
static void pt_pack(uint8_t out[32], const Point *p)
{
  Fe zi, x, y;
  uint8_t xb[32];
  fe_inv(zi, p->z);
  fe_mul(x, p->x, zi);
  fe_mul(y, p->y, zi);
  fe_pack(out, y);
  fe_pack(xb, x);
  out[31] ^= (uint8_t)((xb[0] & 1) << 7);
}

/* out = s B for the 256-bit little-endian scalar s. */
static void base_mult(uint8_t out[32], const uint8_t s[32])
{
  Fe d2;
  Point acc, b;
  fe_hex(d2, d_hex);
  fe_add(d2, d2, d2);
  fe_set(acc.x, 0);
  fe_set(acc.y, 1);
  fe_set(acc.z, 1);
  fe_set(acc.t, 0);
  fe_hex(b.x, bx_hex);
  fe_hex(b.y, by_hex);
  fe_set(b.z, 1);
  fe_mul(b.t, b.x, b.y);
  for (int i = 255; i >= 0; i--) {
    int64_t bit = (s[i / 8] >> (i % 8)) & 1;
    pt_cswap(&acc, &b, bit);
    pt_add(&b, &acc, d2);
    pt_add(&acc, &acc, d2);
    pt_cswap(&acc, &b, bit);
  }
  pt_pack(out, &acc);
}

/* SHA-512 of seed, its first half clamped into the secret scalar. */
static void expand(uint8_t h[64], const uint8_t seed[32])
{
  mbedtls_sha512(seed, 32, h, 0);
  h[0] &= 248;
  h[31] &= 127;
  h[31] |= 64;
}

void ed25519_public(uint8_t pub[32], const uint8_t seed[32])
{
  uint8_t h[64];
  expand(h, seed);
  base_mult(pub, h);
  mbedtls_platform_zeroize(h, sizeof h);
}

/* The group order L = 2^252 + 27742317777372353535851937790883648493. */
static const char l_hex[] =
    "1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed";

/* out (32 bytes, little-endian) = (x * y + z) mod L, each input little-
** endian of the given lengths; y NULL means 1, z NULL means 0. */
static void sc_muladd(uint8_t out[32], const uint8_t *x, size_t xn,
                      const uint8_t *y, size_t yn, const uint8_t *z,
                      size_t zn)
{
  mbedtls_mpi l, a, b, c;
  mbedtls_mpi_init(&l);
  mbedtls_mpi_init(&a);
  mbedtls_mpi_init(&b);
  mbedtls_mpi_init(&c);
  /* Allocation failures inside mbedTLS are the only possible errors:
  ** treated as the arena treats running out of memory. */
  int rc = mbedtls_mpi_read_string(&l, 16, l_hex);
  rc |= mbedtls_mpi_read_binary_le(&a, x, xn);
  if (y) {
    rc |= mbedtls_mpi_read_binary_le(&b, y, yn);
    rc |= mbedtls_mpi_mul_mpi(&c, &a, &b);
  } else {
    rc |= mbedtls_mpi_copy(&c, &a);
  }
  if (z) {
    rc |= mbedtls_mpi_read_binary_le(&b, z, zn);
    rc |= mbedtls_mpi_add_mpi(&c, &c, &b);
  }
  rc |= mbedtls_mpi_mod_mpi(&a, &c, &l);
  rc |= mbedtls_mpi_write_binary_le(&a, out, 32);
  mbedtls_mpi_free(&l);
  mbedtls_mpi_free(&a);
  mbedtls_mpi_free(&b);
  mbedtls_mpi_free(&c);
  if (rc != 0) {
    fputs("cairn: out of memory\n", stderr);
    exit(70);
  }
}

void ed25519_sign(uint8_t sig[64], const uint8_t *msg, size_t n,
                  const uint8_t seed[32], const uint8_t pub[32])
{
  uint8_t h[64], r[64], k[64], rs[32];
  mbedtls_sha512_context ctx;
  expand(h, seed);
  /* r = SHA-512(prefix || M) mod L; R = r B */
  mbedtls_sha512_init(&ctx);
  mbedtls_sha512_starts(&ctx, 0);
  mbedtls_sha512_update(&ctx, h + 32, 32);
  mbedtls_sha512_update(&ctx, msg, n);
  mbedtls_sha512_finish(&ctx, r);
  sc_muladd(rs, r, 64, NULL, 0, NULL, 0);
  base_mult(sig, rs);
  /* k = SHA-512(R || A || M); S = (r + k s) mod L */
  mbedtls_sha512_starts(&ctx, 0);
  mbedtls_sha512_update(&ctx, sig, 32);
  mbedtls_sha512_update(&ctx, pub, 32);
  mbedtls_sha512_update(&ctx, msg, n);
  mbedtls_sha512_finish(&ctx, k);
  mbedtls_sha512_free(&ctx);
  sc_muladd(sig + 32, k, 64, h, 32, rs, 32);
  mbedtls_platform_zeroize(h, sizeof h);
  mbedtls_platform_zeroize(r, sizeof r);
  mbedtls_platform_zeroize(rs, sizeof rs);
}
