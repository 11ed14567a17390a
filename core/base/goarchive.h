/*
** goarchive: zip and tar.gz archives with the bytes Go's archive/zip,
** archive/tar and compress/gzip write, as the hashicorp/archive provider
** drives them, plus Go's os.FileMode bits and doublestar's PathMatch (the
** provider's `excludes`).  docs/goflate.md and docs/providers.md say what
** is covered.
**
** zip: each entry deflated at Go's level 5 (archive/zip's Deflate, via
** goflate), a data descriptor, version 2.0 made/needed, the UTF-8 flag
** when Go sets it.  goar_zip_add with attrs=false is zip.Writer.Create;
** with attrs=true it is CreateHeader of zip.FileInfoHeader with
** SetModTime(time.Time{}) and SetMode(gomode).
** tar.gz: tar.Header{Name, Size, Mode, ModTime: time.Time{}} in USTAR,
** through gzip.NewWriter (default level); data written whole or in
** io.Copy's 32 KiB pieces, which Go's compressor can tell apart.
**
** Limits, reported through goar_error (the archive is then unusable):
** entries or archives that need zip64, tar names or modes that need a PAX
** or GNU header.  Memory: everything in the arena given to goar_new.
*/
#ifndef CAIRN_GOARCHIVE_H
#define CAIRN_GOARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* Go's os.FileMode type and flag bits (the permission bits are 0777) */
#define GOAR_DIR (1u << 31)
#define GOAR_SYMLINK (1u << 27)
#define GOAR_DEVICE (1u << 26)
#define GOAR_PIPE (1u << 25)
#define GOAR_SOCKET (1u << 24)
#define GOAR_SETUID (1u << 23)
#define GOAR_SETGID (1u << 22)
#define GOAR_CHARDEV (1u << 21)
#define GOAR_STICKY (1u << 20)
#define GOAR_IRREGULAR (1u << 19)

/* The os.FileMode Go's os.Stat gives for a stat(2) st_mode. */
uint32_t goar_file_mode(unsigned st_mode);

typedef struct GoArchive GoArchive;

/* An empty zip (tgz false) or tar.gz archive. */
GoArchive *goar_new(Arena *a, bool tgz);
void goar_zip_add(GoArchive *g, const char *name, const unsigned char *data,
                  size_t n, bool attrs, uint32_t gomode);
/* mode: tar.Header.Mode (an os.FileMode as int64, or output_file_mode);
** pieces: the data came through io.Copy rather than one Write. */
void goar_tar_add(GoArchive *g, const char *name, const unsigned char *data,
                  size_t n, int64_t mode, bool pieces);
/* The first error (in the arena), or NULL. */
const char *goar_error(const GoArchive *g);
/* Closes the archive; false (see goar_error) or the bytes in *out. */
bool goar_finish(GoArchive *g, const unsigned char **out, size_t *n);

/* doublestar (v4) PathMatch of name against pattern ('/' separated; `*`,
** `?`, `[...]`, `{a,b}`, `\` escapes, `**` as a whole component): 1 a
** match, 0 none, -1 a malformed pattern (doublestar's ErrBadPattern). */
int goar_match(Arena *a, const char *pattern, const char *name);

/* strconv.ParseInt (signed_ok) or ParseUint with base 0, as upstream reads
** output_file_mode: 0x, 0o, 0b, a leading 0 for octal, underscores
** between digits.  false on a syntax error or a value outside [min, max].
*/
bool goar_parse_int(const char *s, bool signed_ok, int64_t min, int64_t max,
                    int64_t *out);

#endif
