/*
** goflate: a DEFLATE (RFC 1951) compressor whose output is byte-identical
** to Go's compress/flate writer, and a gzip (RFC 1952) wrapper equal to
** Go's compress/gzip writer with a zero header.
**
** Why not zlib: the archive and cloudinit providers must produce the bytes
** the upstream (Go) providers produce, because users pin the hashes of
** those bytes (a Lambda's source_code_hash).  Any conforming compressor
** inflates to the same data, but only Go's algorithm (its level table,
** hash chains, lazy matching, block splitting at 16,384 tokens and its
** stored/fixed/dynamic choice) gives the same compressed bytes.
** docs/goflate.md describes what is implemented and how it was checked.
**
** Levels: 0 (stored), 2..9, -1 (Go's DefaultCompression, which is 6) and
** -2 (HuffmanOnly).  Level 1 (Go's separate BestSpeed encoder) is not
** implemented: goflate_new returns NULL for it and for any other level.
**
** Memory: the compressor's state (about 900 KB: hash heads, chains, the
** two-window buffer) and the output come from the caller's arena; nothing
** is freed, so use a scratch arena for large inputs.  No failure beyond
** the arena's out-of-memory exit.
*/
#ifndef CAIRN_GOFLATE_H
#define CAIRN_GOFLATE_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "buf.h"

typedef struct GoFlate GoFlate;

/* A compressor at Go level `level` appending to `out` (which must outlive
** it).  NULL for an unsupported level (see above). */
GoFlate *goflate_new(Arena *a, Buf *out, int level);

/* Feeds src[0..n), as one Write call of Go's flate.Writer.  Where Go's
** window slides (past 64 KiB) its output could in principle depend on how
** the input was split into writes; callers that mirror a Go program split
** their writes as it does (io.Copy: 32 KiB) and get its bytes either way.
*/
void goflate_write(GoFlate *z, const unsigned char *src, size_t n);

/* Flushes the remaining input and writes the final (empty, stored) block,
** as Go's Close.  The compressor must not be used afterwards. */
void goflate_close(GoFlate *z);

/* Compress src[0..n) at Go level `level` into a new arena buffer; *out_len
** set.  Output equals Go's flate.NewWriter(w, level) + Write + Close.
** NULL (and *out_len 0) for an unsupported level. */
unsigned char *goflate_compress(Arena *a, const unsigned char *src, size_t n,
                                int level, size_t *out_len);

/* The same as a gzip member, equal to Go's gzip.NewWriterLevel(w, level)
** with the zero Header (no name, comment or extra; MTIME 0; XFL 2 at
** level 9, 4 at level 1, else 0; OS 255) + Write + Close.  NULL for an
** unsupported level. */
unsigned char *goflate_gzip(Arena *a, const unsigned char *src, size_t n,
                            int level, size_t *out_len);

/* The same, streaming (cloudinit writes its MIME parts one by one): the
** header goes to out at once; each write is one Write call of Go's
** gzip.Writer; close appends the final block, CRC-32 and length.  NULL
** for an unsupported level. */
typedef struct GoGzip GoGzip;
GoGzip *goflate_gzip_new(Arena *a, Buf *out, int level);
void goflate_gzip_write(GoGzip *g, const unsigned char *src, size_t n);
void goflate_gzip_close(GoGzip *g);

#endif
