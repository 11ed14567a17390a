/*
** buf.c: growable arena-backed byte buffer (see buf.h).
*/
#include "buf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
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
    /* Into the capacity already there (a caller that knows the size
    ** reserved it), else 64 KiB more; never more than one byte past max. */
    if (!b->p || b->cap - b->len < 2)
      buf_reserve(b, 65536);
    size_t room = b->cap - b->len - 1, left = max - (b->len - start) + 1;
    ssize_t k = read(fd, b->p + b->len, room < left ? room : left);
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
  buf_go_quote_n(b, s, strlen(s));
}

void buf_go_quote_n(Buf *b, const char *s, size_t n)
{
  buf_putc(b, '"');
  for (const unsigned char *p = (const unsigned char *)s,
                           *e = p + n; p < e; p++) {
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

/* Decodes one UTF-8 sequence at s[0..n); returns its length and the rune,
** or 0 for an invalid sequence. */
static size_t utf8_dec(const unsigned char *s, size_t n, uint32_t *r)
{
  if (s[0] < 0x80) {
    *r = s[0];
    return 1;
  }
  size_t len;
  uint32_t c, min;
  if ((s[0] & 0xE0) == 0xC0) {
    len = 2, c = s[0] & 0x1F, min = 0x80;
  } else if ((s[0] & 0xF0) == 0xE0) {
    len = 3, c = s[0] & 0x0F, min = 0x800;
  } else if ((s[0] & 0xF8) == 0xF0) {
    len = 4, c = s[0] & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (len > n)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    c = (c << 6) | (s[i] & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return 0;
  *r = c;
  return len;
}

/* strconv.IsPrint for the runes that show up in practice: controls, C1
** controls, the non-ASCII spaces, format characters, noncharacters and the
** private use area are not. */
static bool go_printable(uint32_t r)
{
  if (r < 0x20 || r == 0x7F || (r >= 0x80 && r <= 0xA0) || r == 0xAD)
    return false;
  if ((r >= 0x2000 && r <= 0x200F) || (r >= 0x2028 && r <= 0x202F) ||
      (r >= 0x205F && r <= 0x206F) || r == 0x3000 || r == 0xFEFF ||
      r == 0x1680 || r == 0x180E)
    return false;
  if ((r >= 0xFFF9 && r <= 0xFFFB) || r == 0xFFFE || r == 0xFFFF ||
      (r >= 0xE000 && r <= 0xF8FF))
    return false;
  return true;
}

void buf_strconv_quote(Buf *b, const char *str, size_t n)
{
  const unsigned char *s = (const unsigned char *)str;
  buf_putc(b, '"');
  for (size_t i = 0; i < n;) {
    uint32_t r;
    size_t len = utf8_dec(s + i, n - i, &r);
    if (len == 0) {
      buf_printf(b, "\\x%02x", s[i]);
      i++;
      continue;
    }
    i += len;
    if (r == '"' || r == '\\') {
      buf_putc(b, '\\');
      buf_putc(b, (char)r);
    } else if (go_printable(r)) {
      buf_put(b, s + i - len, len);
    } else {
      switch (r) {
      case '\a': buf_puts(b, "\\a"); break;
      case '\b': buf_puts(b, "\\b"); break;
      case '\f': buf_puts(b, "\\f"); break;
      case '\n': buf_puts(b, "\\n"); break;
      case '\r': buf_puts(b, "\\r"); break;
      case '\t': buf_puts(b, "\\t"); break;
      case '\v': buf_puts(b, "\\v"); break;
      default:
        if (r < 0x80)
          buf_printf(b, "\\x%02x", (unsigned)r);
        else if (r < 0x10000)
          buf_printf(b, "\\u%04x", (unsigned)r);
        else
          buf_printf(b, "\\U%08x", (unsigned)r);
      }
    }
  }
  buf_putc(b, '"');
}

size_t buf_utf8_encode(char *o, uint32_t r)
{
  if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF))
    r = 0xFFFD;
  if (r < 0x80) {
    o[0] = (char)r;
    return 1;
  }
  if (r < 0x800) {
    o[0] = (char)(0xC0 | (r >> 6));
    o[1] = (char)(0x80 | (r & 0x3F));
    return 2;
  }
  if (r < 0x10000) {
    o[0] = (char)(0xE0 | (r >> 12));
    o[1] = (char)(0x80 | ((r >> 6) & 0x3F));
    o[2] = (char)(0x80 | (r & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (r >> 18));
  o[1] = (char)(0x80 | ((r >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((r >> 6) & 0x3F));
  o[3] = (char)(0x80 | (r & 0x3F));
  return 4;
}

void buf_put_utf8(Buf *b, uint32_t r)
{
  char o[4];
  buf_put(b, o, buf_utf8_encode(o, r));
}
