/*
** zip: a small reader for the .zip packages of Terraform provider
** mirrors (`terraform providers mirror` writes
** terraform-provider-TYPE_VERSION_OS_ARCH.zip): the central directory,
** and each entry's bytes, stored or deflated (zlib's inflate, raw).
**
** The archive is untrusted input (a mirror on a shared disk): every
** offset and size is checked against the buffer, the local header must
** agree with the central directory, the inflated size and CRC-32 must be
** the recorded ones, and names that could escape the target directory
** (absolute, "..", backslashes, NUL) refuse the whole archive.  Not
** supported, each with an error: ZIP64, encryption, multi-disk archives,
** compression methods other than stored (0) and deflate (8).
**
** Memory: zip_open's entries and names live in the arena given; the
** archive bytes stay the caller's and must outlive the Zip.  Errors come
** back as a static English string (the caller wraps it in a diagnostic
** that names the file).
*/
#ifndef CAIRN_ZIP_H
#define CAIRN_ZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

typedef struct ZipEntry {
  const char *name;          /* as stored, '/'-separated, NUL-terminated */
  uint16_t method;           /* 0 stored, 8 deflate */
  uint32_t crc32;
  uint64_t csize, usize;     /* compressed, uncompressed sizes */
  uint64_t data_off;         /* where the compressed bytes start */
  uint32_t mode;             /* Unix permission bits, 0 when not recorded */
  bool is_dir;               /* name ends in '/' */
} ZipEntry;

typedef struct Zip {
  const uint8_t *p;
  size_t n;
  ZipEntry *e;
  uint32_t ne;
} Zip;

/* Reads the central directory of the archive p[0..n).  Returns false and
** sets *err on a malformed or unsupported archive. */
bool zip_open(Arena *a, const uint8_t *p, size_t n, Zip *z,
              const char **err);

/* Receives an entry's bytes in order; false stops the extraction. */
typedef bool (*ZipSink)(void *ctx, const uint8_t *p, size_t n);

/* Feeds the uncompressed bytes of e to sink.  Returns false with *err on
** corrupt data, a size or CRC-32 mismatch, or when sink returns false
** (*err is then "write failed"). */
bool zip_extract(const Zip *z, const ZipEntry *e, ZipSink sink, void *ctx,
                 const char **err);

#endif
