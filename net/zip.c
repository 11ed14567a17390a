/*
** zip.c: the central directory and stored/deflated entries of a .zip
** archive, every offset checked.  Contracts in zip.h.
*/
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "zip.h"

#define SIG_EOCD 0x06054b50u
#define SIG_CEN 0x02014b50u
#define SIG_LOC 0x04034b50u

static uint16_t rd16(const uint8_t *p)
{
  return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

/* A name that stays inside the directory it is extracted to. */
static bool safe_name(const char *s, size_t n)
{
  if (n == 0 || s[0] == '/' || memchr(s, 0, n) || memchr(s, '\\', n))
    return false;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && s[j] != '/')
      j++;
    if (j == i && j < n - 1)
      return false;   /* "a//b" */
    if ((j - i == 1 && s[i] == '.') ||
        (j - i == 2 && s[i] == '.' && s[i + 1] == '.'))
      return false;
    i = j + 1;
  }
  return true;
}

static int cmp_name(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool fail(const char **err, const char *msg)
{
  *err = msg;
  return false;
}

bool zip_open(Arena *a, const uint8_t *p, size_t n, Zip *z,
              const char **err)
{
  memset(z, 0, sizeof *z);
  z->p = p;
  z->n = n;
  if (n < 22)
    return fail(err, "not a zip archive (too short)");
  /* The end record is in the last 22 + 65535 bytes (its comment). */
  size_t lo = n - 22 > 65535 ? n - 22 - 65535 : 0, at = n - 22 + 1;
  const uint8_t *eocd = NULL;
  while (at-- > lo) {
    if (rd32(p + at) == SIG_EOCD && at + 22 + rd16(p + at + 20) == n) {
      eocd = p + at;
      break;
    }
  }
  if (!eocd)
    return fail(err, "not a zip archive (no end of central directory)");
  uint16_t disk = rd16(eocd + 4), cdisk = rd16(eocd + 6);
  uint16_t nthis = rd16(eocd + 8), ntotal = rd16(eocd + 10);
  uint32_t cdsize = rd32(eocd + 12), cdoff = rd32(eocd + 16);
  if (ntotal == 0xffff || cdsize == 0xffffffffu || cdoff == 0xffffffffu)
    return fail(err, "ZIP64 archives are not supported");
  if (disk || cdisk || nthis != ntotal)
    return fail(err, "multi-disk zip archives are not supported");
  if ((uint64_t)cdoff + cdsize > (uint64_t)(eocd - p))
    return fail(err, "the central directory is outside the archive");
  z->e = ARENA_NEW(a, ZipEntry, ntotal ? ntotal : 1);
  const uint8_t *c = p + cdoff, *cend = c + cdsize;
  for (uint32_t i = 0; i < ntotal; i++) {
    if (cend - c < 46 || rd32(c) != SIG_CEN)
      return fail(err, "corrupt central directory entry");
    uint16_t made = rd16(c + 4), flags = rd16(c + 8), method = rd16(c + 10);
    uint16_t nlen = rd16(c + 28), xlen = rd16(c + 30), clen = rd16(c + 32);
    uint32_t ext = rd32(c + 38), loff = rd32(c + 42);
    uint32_t csize = rd32(c + 20), usize = rd32(c + 24);
    if ((size_t)(cend - c) < 46u + nlen + xlen + clen)
      return fail(err, "corrupt central directory entry");
    if (csize == 0xffffffffu || usize == 0xffffffffu || loff == 0xffffffffu)
      return fail(err, "ZIP64 archives are not supported");
    if (flags & 1)
      return fail(err, "encrypted zip entries are not supported");
    if (method != 0 && method != 8)
      return fail(err, "a zip entry uses a compression method other than "
                       "stored or deflate");
    const char *name = (const char *)c + 46;
    if (!safe_name(name, nlen))
      return fail(err, "a zip entry's name is absolute or leaves the "
                       "package directory");
    ZipEntry *e = &z->e[i];
    e->name = arena_strndup(a, name, nlen);
    e->method = method;
    e->crc32 = rd32(c + 16);
    e->csize = csize;
    e->usize = usize;
    e->is_dir = name[nlen - 1] == '/';
    if (made >> 8 == 3) {   /* Unix: st_mode in the high half */
      uint32_t type = ext >> 16 & 0170000u;
      if (type && type != 0100000u && type != 0040000u)
        return fail(err, "a zip entry is a symbolic link or a special "
                         "file");
      e->mode = ext >> 16 & 0777u;
    }
    if (e->is_dir && usize)
      return fail(err, "corrupt central directory entry");
    /* The local header must agree: same name, sizes from here. */
    if ((uint64_t)loff + 30 > cdoff)
      return fail(err, "a zip entry's local header is outside the archive");
    const uint8_t *l = p + loff;
    if (rd32(l) != SIG_LOC)
      return fail(err, "corrupt local header");
    uint16_t lnlen = rd16(l + 26), lxlen = rd16(l + 28);
    uint64_t data = (uint64_t)loff + 30 + lnlen + lxlen;
    if (lnlen != nlen || data > cdoff || memcmp(l + 30, name, nlen) != 0 ||
        rd16(l + 8) != method)
      return fail(err, "a zip entry's local header does not match the "
                       "central directory");
    if (data + csize > cdoff)
      return fail(err, "a zip entry's data is outside the archive");
    if (method == 0 && csize != usize)
      return fail(err, "a stored zip entry's sizes differ");
    e->data_off = data;
    c += 46u + nlen + xlen + clen;
  }
  /* A name twice would make the package ambiguous; sorted, duplicates are
  ** neighbours (65,535 entries compared pairwise would take minutes). */
  const char **names = ARENA_NEW(a, const char *, ntotal ? ntotal : 1);
  for (uint32_t i = 0; i < ntotal; i++)
    names[i] = z->e[i].name;
  if (ntotal)
    qsort(names, ntotal, sizeof *names, cmp_name);
  for (uint32_t i = 1; i < ntotal; i++)
    if (strcmp(names[i - 1], names[i]) == 0)
      return fail(err, "a name appears twice in the zip archive");
  z->ne = ntotal;
  return true;
}

bool zip_extract(const Zip *z, const ZipEntry *e, ZipSink sink, void *ctx,
                 const char **err)
{
  const uint8_t *src = z->p + e->data_off;
  uLong crc = crc32(0L, Z_NULL, 0);
  if (e->method == 0) {
    for (uint64_t off = 0; off < e->csize;) {
      uint64_t chunk = e->csize - off > (1u << 20) ? 1u << 20 : e->csize - off;
      crc = crc32(crc, src + off, (uInt)chunk);
      if (!sink(ctx, src + off, (size_t)chunk))
        return fail(err, "write failed");
      off += chunk;
    }
    if (crc != e->crc32)
      return fail(err, "a zip entry's CRC-32 does not match its data");
    return true;
  }
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit2(&s, -MAX_WBITS) != Z_OK)
    return fail(err, "cannot start inflating");
  uint8_t out[65536];
  uint64_t in_left = e->csize, total = 0;
  int rc = Z_OK;
  bool ok = true;
  const char *why = NULL;
  s.next_in = (Bytef *)(uintptr_t)src;
  while (rc != Z_STREAM_END) {
    if (s.avail_in == 0 && in_left) {
      uInt take = in_left > (1u << 30) ? 1u << 30 : (uInt)in_left;
      s.avail_in = take;
      in_left -= take;
    }
    s.next_out = out;
    s.avail_out = sizeof out;
    rc = inflate(&s, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      ok = false;
      why = "a zip entry's compressed data is corrupt";
      break;
    }
    size_t got = sizeof out - s.avail_out;
    total += got;
    if (total > e->usize) {
      ok = false;
      why = "a zip entry inflates to more than its recorded size";
      break;
    }
    crc = crc32(crc, out, (uInt)got);
    if (got && !sink(ctx, out, got)) {
      ok = false;
      why = "write failed";
      break;
    }
    if (rc == Z_OK && got == 0 && s.avail_in == 0 && !in_left) {
      ok = false;
      why = "a zip entry's compressed data is truncated";
      break;
    }
  }
  inflateEnd(&s);
  if (!ok)
    return fail(err, why);
  if (total != e->usize)
    return fail(err, "a zip entry's size does not match its data");
  if (crc != e->crc32)
    return fail(err, "a zip entry's CRC-32 does not match its data");
  return true;
}
