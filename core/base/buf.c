/*
** buf.c: growable arena-backed byte buffer (see buf.h).
*/
#include "buf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void buf_init(Buf *b, Arena *a)
{
  b->arena = a;
  b->p = NULL;
  b->len = 0;
  b->cap = 0;
}

void buf_reserve(Buf *b, size_t extra)
{
  if (b->cap - (b->p ? b->len : 0) > extra && b->p)
    return;
  size_t need = b->len + extra + 1;
  /* At least double (amortised appends); a larger reservation gets what
  ** it asks for, not the next power of two.  The capacity is not zeroed:
  ** a large buffer's unused tail is never touched (nor resident). */
  size_t cap = b->cap ? b->cap * 2 : 64;
  if (cap < need || cap < b->cap)
    cap = need;
  b->p = arena_grow_raw(b->arena, b->p, 1, 1, b->cap, cap);
  b->cap = cap;
  b->p[b->len] = 0;   /* NUL-terminated even before the first write */
}

void buf_put(Buf *b, const void *data, size_t n)
{
  buf_reserve(b, n);
  if (n)
    memcpy(b->p + b->len, data, n);
  b->len += n;
  b->p[b->len] = 0;
}

void buf_puts(Buf *b, const char *s) { buf_put(b, s, strlen(s)); }

void buf_putc(Buf *b, char c)
{
  buf_reserve(b, 1);
  b->p[b->len++] = c;
  b->p[b->len] = 0;
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
  va_list ap2;
  va_copy(ap2, ap);
  buf_reserve(b, 64);
  size_t room = b->cap - b->len;
  int n = vsnprintf(b->p + b->len, room, fmt, ap);
  if (n < 0) {
    va_end(ap2);
    b->p[b->len] = 0;
    return;
  }
  if ((size_t)n >= room) {
    buf_reserve(b, (size_t)n);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap2);
  }
  va_end(ap2);
  b->len += (size_t)n;
}

void buf_printf(Buf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}

const char *buf_str(Buf *b) { return b->p ? b->p : ""; }

void buf_clear(Buf *b)
{
  b->len = 0;
  if (b->p)
    b->p[0] = 0;
}

int buf_read_fd(Buf *b, int fd, size_t max)
{
  size_t start = b->len;
  for (;;) {
    size_t chunk = 65536;
    buf_reserve(b, chunk);
    ssize_t k = read(fd, b->p + b->len, chunk);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0)
      return errno;
    if (k == 0)
      return 0;
    b->len += (size_t)k;
    b->p[b->len] = 0;
    if (b->len - start > max)
      return EFBIG;
  }
}

void buf_go_quote(Buf *b, const char *s)
{
  buf_putc(b, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"': buf_puts(b, "\\\""); break;
    case '\\': buf_puts(b, "\\\\"); break;
    case '\n': buf_puts(b, "\\n"); break;
    case '\r': buf_puts(b, "\\r"); break;
    case '\t': buf_puts(b, "\\t"); break;
    default:
      if (*p < 0x20 || *p == 0x7f)
        buf_printf(b, "\\x%02x", *p);
      else
        buf_putc(b, (char)*p);
    }
  }
  buf_putc(b, '"');
}
