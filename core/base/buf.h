/*
** buf: a growable byte buffer whose storage comes from an arena.
**
** Used by every writer (JSON, state, plan rendering, diagnostics).  The
** contents are always NUL-terminated after the last byte so buf.p can be
** used as a C string.  Growth doubles; the old storage stays in the arena
** until the arena is released (give long-lived buffers a scratch arena of
** their own when that matters).
*/
#ifndef CAIRN_BUF_H
#define CAIRN_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef struct Buf {
  Arena *arena;
  char *p;        /* contents, NUL-terminated; NULL until first write */
  size_t len;     /* bytes written, not counting the NUL */
  size_t cap;     /* bytes available in p, counting the NUL */
} Buf;

void buf_init(Buf *b, Arena *a);
void buf_reserve(Buf *b, size_t extra);
void buf_put(Buf *b, const void *data, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, char c);
void buf_printf(Buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
/* The contents as a C string ("" for an empty buffer). */
const char *buf_str(Buf *b);

/* Appends s as Go's %q (strconv.Quote) writes text: in double quotes, with
** '"', '\\', \n, \r and \t escaped and other control bytes as \xNN; other
** bytes (UTF-8 included) as they are.  Go's messages quote names, paths and
** values this way, and providers repeat those messages. */
void buf_go_quote(Buf *b, const char *s);
/* The same for s[0..n), which may hold NUL bytes (written as \x00). */
void buf_go_quote_n(Buf *b, const char *s, size_t n);
/* Appends s[0..n) as strconv.Quote does, rune by rune: invalid UTF-8 bytes
** as \xNN, '"' and '\\' escaped, \a \b \f \n \r \t \v by name, other runes
** strconv.IsPrint rejects (controls, C1, the non-ASCII spaces, format
** characters, noncharacters, private use) as \xNN, \uNNNN or \UNNNNNNNN,
** the rest as they are.  For texts Go prints with %q that may hold
** anything: argv echoes, paths, plan values. */
void buf_strconv_quote(Buf *b, const char *s, size_t n);
/* The UTF-8 encoding of code point r in o[0..4); returns its length.  A
** surrogate or a value over U+10FFFF is written as U+FFFD (Go's
** utf8.EncodeRune); the readers of escapes that reject them check first. */
size_t buf_utf8_encode(char *o, uint32_t r);
/* Appends buf_utf8_encode's bytes for r. */
void buf_put_utf8(Buf *b, uint32_t r);
/* Empties the buffer, keeping its storage. */
void buf_clear(Buf *b);
/* Appends what fd yields until end of file, whatever fstat says: pipes,
** /dev/stdin and process substitutions report a size of 0, and a device
** such as /dev/zero never ends.  Returns 0, or an errno value: EFBIG as soon
** as more than max bytes arrive (the buffer then holds a prefix), or read's
** error.  EINTR is retried.  Does not close fd.  Reads fill the capacity the
** buffer already has before growing it, so a caller that reserved a file's
** size first gets a buffer of that size. */
int buf_read_fd(Buf *b, int fd, size_t max);

#endif
