/*
** goarchive.c: Go's archive/zip, archive/tar and compress/gzip writers as
** the archive provider uses them, byte for byte, and doublestar's
** PathMatch.  Written from the formats as Go's sources describe them
** (zip's local header, data descriptor and central directory; tar's
** USTAR header with Go's octal formatting and checksum); checked against
** Go (tests/tools/archive_oracle.go, tests/e2e/cases/provider_archive).
*/
#include "goarchive.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "buf.h"
#include "goflate.h"

/* ---- Go's file modes -------------------------------------------------------- */

#define GO_TYPE                                                            \
  (GOAR_DIR | GOAR_SYMLINK | GOAR_PIPE | GOAR_SOCKET | GOAR_DEVICE | GOAR_CHARDEV |    \
   GOAR_IRREGULAR)

uint32_t goar_file_mode(unsigned m)
{
  uint32_t g = (uint32_t)(m & 0777);
  switch (m & S_IFMT) {
  case S_IFDIR: g |= GOAR_DIR; break;
  case S_IFLNK: g |= GOAR_SYMLINK; break;
  case S_IFIFO: g |= GOAR_PIPE; break;
  case S_IFSOCK: g |= GOAR_SOCKET; break;
  case S_IFBLK: g |= GOAR_DEVICE; break;
  case S_IFCHR: g |= GOAR_DEVICE | GOAR_CHARDEV; break;
  default: break;
  }
  if (m & S_ISUID)
    g |= GOAR_SETUID;
  if (m & S_ISGID)
    g |= GOAR_SETGID;
  if (m & S_ISVTX)
    g |= GOAR_STICKY;
  return g;
}

/* archive/zip's fileModeToUnixMode */
static uint32_t unix_mode(uint32_t g)
{
  uint32_t m;
  switch (g & GO_TYPE) {
  case GOAR_DIR: m = 0040000; break;
  case GOAR_SYMLINK: m = 0120000; break;
  case GOAR_PIPE: m = 0010000; break;
  case GOAR_SOCKET: m = 0140000; break;
  case GOAR_DEVICE: m = 0060000; break;
  case GOAR_DEVICE | GOAR_CHARDEV: m = 0020000; break;
  default: m = 0100000; break;
  }
  if (g & GOAR_SETUID)
    m |= 04000;
  if (g & GOAR_SETGID)
    m |= 02000;
  if (g & GOAR_STICKY)
    m |= 01000;
  return m | (g & 0777);
}

/* ---- the archive writers -------------------------------------------------- */

struct GoArchive {
  Arena *a;
  bool tgz;
  Buf out;
  const char *err;     /* first error, Go's wording; NULL: fine */
  /* zip */
  Buf dir;             /* central directory records */
  uint32_t count;
  /* tar.gz */
  GoFlate *z;
  uLong crc;
  uint64_t raw;        /* bytes fed to gzip */
  size_t pad;          /* zero bytes owed after the last file's data */
};

static void le16(Buf *b, uint32_t v)
{
  char t[2] = {(char)(v & 0xFF), (char)((v >> 8) & 0xFF)};
  buf_put(b, t, 2);
}

static void le32(Buf *b, uint32_t v)
{
  char t[4] = {(char)(v & 0xFF), (char)((v >> 8) & 0xFF),
               (char)((v >> 16) & 0xFF), (char)(v >> 24)};
  buf_put(b, t, 4);
}

static uLong crc_of(const unsigned char *p, size_t n, uLong crc)
{
  while (n > 0) {
    uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
    crc = crc32(crc, p, k);
    p += k;
    n -= k;
  }
  return crc;
}

GoArchive *goar_new(Arena *a, bool tgz)
{
  GoArchive *ar = ARENA_NEW(a, GoArchive, 1);
  ar->a = a;
  ar->tgz = tgz;
  buf_init(&ar->out, a);
  buf_init(&ar->dir, a);
  if (tgz) {
    /* gzip.NewWriter: the zero header at the default level */
    static const char hdr[10] = {0x1f, (char)0x8b, 8, 0, 0, 0, 0, 0, 0,
                                 (char)0xff};
    buf_put(&ar->out, hdr, sizeof hdr);
    ar->z = goflate_new(a, &ar->out, -1);
    ar->crc = crc32(0L, Z_NULL, 0);
  }
  return ar;
}

/* archive/zip's detectUTF8: (valid, needs the UTF-8 flag) */
static void detect_utf8(const char *s, bool *valid, bool *require)
{
  *valid = true;
  *require = false;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned c = *p;
    if (c >= 0x20 && c <= 0x7d && c != 0x5c) {
      p++;
      continue;
    }
    /* one rune: invalid UTF-8 makes the name not valid */
    size_t need = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1
                : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 9;
    uint32_t cp = need == 0 ? c : need == 1 ? (c & 0x1Fu)
                : need == 2 ? (c & 0x0Fu) : (c & 0x07u);
    bool ok = need != 9;
    for (size_t k = 1; ok && k <= need; k++) {
      if ((p[k] & 0xC0) != 0x80)
        ok = false;
      else
        cp = cp << 6 | (p[k] & 0x3Fu);
    }
    static const uint32_t min[4] = {0, 0x80, 0x800, 0x10000};
    if (ok && need > 0 && need < 4 &&
        (cp < min[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
      ok = false;
    if (!ok) {
      *valid = false;
      *require = false;
      return;
    }
    *require = true;
    p += need + 1;
  }
}

/* One zip entry, as zip.Writer.Create (attrs false) or CreateHeader of a
** zip.FileInfoHeader with SetModTime(time.Time{}) (attrs true, gomode the
** file's or output_file_mode's os.FileMode). */
void goar_zip_add(GoArchive *ar, const char *name, const unsigned char *data,
                  size_t n, bool attrs, uint32_t gomode)
{
  if (ar->err)
    return;
  size_t clen;
  unsigned char *comp = goflate_compress(ar->a, data, n, 5, &clen);
  size_t offset = ar->out.len;
  size_t nlen = strlen(name);
  if (clen >= 0xFFFFFFFFu || n >= 0xFFFFFFFFu || offset >= 0xFFFFFFFFu ||
      ar->count >= 0xFFFE || nlen > 0xFFFF) {
    ar->err = "the archive needs zip64 (an entry or the archive over "
              "4 GiB, or 65,535 entries): not supported by cairn";
    return;
  }
  bool valid, require;
  detect_utf8(name, &valid, &require);
  uint32_t flags = 0x8 | (valid && require ? 0x800 : 0);
  /* Go's zero time as an MS-DOS date: day 1 + month 1 << 5 + (1 - 1980)
  ** << 9, truncated to 16 bits */
  uint32_t mdate = attrs ? 0x8A21 : 0, mtime = 0;
  uint32_t creator = attrs ? (3u << 8 | 20) : 20;
  uint32_t ext = 0;
  if (attrs) {
    ext = unix_mode(gomode) << 16;
    if (gomode & GOAR_DIR)
      ext |= 0x10;
    if (!(gomode & 0200))
      ext |= 0x01;
  }
  uLong crc = crc_of(data, n, crc32(0L, Z_NULL, 0));
  Buf *o = &ar->out;
  le32(o, 0x04034b50);
  le16(o, 20);
  le16(o, flags);
  le16(o, 8);
  le16(o, mtime);
  le16(o, mdate);
  le32(o, 0);
  le32(o, 0);
  le32(o, 0);
  le16(o, (uint32_t)nlen);
  le16(o, 0);
  buf_put(o, name, nlen);
  buf_put(o, comp, clen);
  le32(o, 0x08074b50);
  le32(o, (uint32_t)crc);
  le32(o, (uint32_t)clen);
  le32(o, (uint32_t)n);
  Buf *d = &ar->dir;
  le32(d, 0x02014b50);
  le16(d, creator);
  le16(d, 20);
  le16(d, flags);
  le16(d, 8);
  le16(d, mtime);
  le16(d, mdate);
  le32(d, (uint32_t)crc);
  le32(d, (uint32_t)clen);
  le32(d, (uint32_t)n);
  le16(d, (uint32_t)nlen);
  le16(d, 0);
  le16(d, 0);
  le16(d, 0);
  le16(d, 0);
  le32(d, ext);
  le32(d, (uint32_t)offset);
  buf_put(d, name, nlen);
  ar->count++;
}

static void tgz_write(GoArchive *ar, const void *p, size_t n)
{
  if (n == 0)
    return;
  ar->crc = crc_of(p, n, ar->crc);
  ar->raw += n;
  goflate_write(ar->z, p, n);
}

/* tar padding and the end-of-archive blocks */
static const unsigned char ZERO_BLOCK[512];

static void tgz_flush_pad(GoArchive *ar)
{
  tgz_write(ar, ZERO_BLOCK, ar->pad);
  ar->pad = 0;
}

/* archive/tar's formatOctal: zero-padded, NUL-terminated when room */
static void tar_octal(unsigned char *f, size_t len, uint64_t v)
{
  char tmp[32];
  int k = snprintf(tmp, sizeof tmp, "%llo", (unsigned long long)v);
  size_t l = (size_t)k, zeros = len > l + 1 ? len - l - 1 : 0;
  memset(f, '0', zeros);
  memcpy(f + zeros, tmp, l < len ? l : len);
  if (zeros + l < len)
    f[zeros + l] = 0;
}

static bool is_ascii(const char *s)
{
  for (; *s; s++)
    if ((unsigned char)*s >= 0x80)
      return false;
  return true;
}

/* archive/tar's splitUSTARPath: a name over 100 bytes as prefix/suffix */
static bool ustar_split(const char *name, size_t *split)
{
  size_t len = strlen(name), l = len;
  if (len <= 100 || !is_ascii(name))
    return false;
  if (l > 156)
    l = 156;
  else if (name[l - 1] == '/')
    l--;
  size_t i = l;
  while (i > 0 && name[i - 1] != '/')
    i--;
  if (i == 0)
    return false;
  i--; /* index of the slash */
  size_t nlen = len - i - 1;
  if (i == 0 || nlen > 100 || nlen == 0 || i > 155)
    return false;
  *split = i;
  return true;
}

/* One tar entry: tar.Header{Name, Size, Mode, ModTime: time.Time{}}
** (USTAR, typeflag '0'), then its data: whole (one Write) or in 32 KiB
** pieces (io.Copy from a file). */
void goar_tar_add(GoArchive *ar, const char *name, const unsigned char *data,
                  size_t n, int64_t mode, bool pieces)
{
  if (ar->err)
    return;
  size_t split = 0;
  bool has_nul = false;
  size_t nlen = strlen(name);
  if ((nlen > 100 || !is_ascii(name)) && !ustar_split(name, &split))
    has_nul = true;
  if (has_nul || mode < 0 || mode > 07777777) {
    ar->err = arena_printf(ar->a, "%s: the tar entry needs a PAX or GNU "
                           "header (a non-ASCII or long name, or a mode "
                           "beyond 7 octal digits): not supported by cairn",
                           name);
    return;
  }
  tgz_flush_pad(ar);
  unsigned char h[512];
  memset(h, 0, sizeof h);
  const char *nm = split ? name + split + 1 : name;
  memcpy(h, nm, strlen(nm));
  tar_octal(h + 100, 8, (uint64_t)mode);
  tar_octal(h + 108, 8, 0);
  tar_octal(h + 116, 8, 0);
  tar_octal(h + 124, 12, n);
  tar_octal(h + 136, 12, 0); /* Go writes the Unix epoch for a zero time */
  h[156] = '0';
  memcpy(h + 257, "ustar\0" "00", 8);
  tar_octal(h + 329, 8, 0);
  tar_octal(h + 337, 8, 0);
  if (split)
    memcpy(h + 345, name, split);
  unsigned sum = 0;
  for (size_t i = 0; i < 512; i++)
    sum += (i >= 148 && i < 156) ? ' ' : h[i];
  tar_octal(h + 148, 7, sum);
  h[155] = ' ';
  tgz_write(ar, h, sizeof h);
  if (pieces)
    for (size_t off = 0; off < n; off += 32768)
      tgz_write(ar, data + off, n - off < 32768 ? n - off : 32768);
  else
    tgz_write(ar, data, n);
  ar->pad = (512 - n % 512) % 512;
}

const char *goar_error(const GoArchive *g) { return g->err; }

bool goar_finish(GoArchive *ar, const unsigned char **out, size_t *n)
{
  *out = NULL;
  *n = 0;
  if (ar->err)
    return false;
  if (ar->tgz) {
    tgz_flush_pad(ar);
    tgz_write(ar, ZERO_BLOCK, 512);
    tgz_write(ar, ZERO_BLOCK, 512);
    goflate_close(ar->z);
    le32(&ar->out, (uint32_t)ar->crc);
    le32(&ar->out, (uint32_t)ar->raw);
    *out = (const unsigned char *)ar->out.p;
    *n = ar->out.len;
    return true;
  }
  size_t start = ar->out.len;
  buf_put(&ar->out, ar->dir.p, ar->dir.len);
  size_t size = ar->out.len - start;
  if (start >= 0xFFFFFFFFu || size >= 0xFFFFFFFFu) {
    ar->err = "the archive needs zip64 (over 4 GiB): not supported by "
              "cairn";
    return false;
  }
  le32(&ar->out, 0x06054b50);
  le16(&ar->out, 0);
  le16(&ar->out, 0);
  le16(&ar->out, ar->count);
  le16(&ar->out, ar->count);
  le32(&ar->out, (uint32_t)size);
  le32(&ar->out, (uint32_t)start);
  le16(&ar->out, 0);
  *out = (const unsigned char *)ar->out.p;
  *n = ar->out.len;
  return true;
}

/* ---- excludes: doublestar patterns -------------------------------------- */

static size_t rune_len(const char *s)
{
  unsigned char c = (unsigned char)*s;
  size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
           : (c & 0xF8) == 0xF0 ? 4 : 1;
  for (size_t k = 1; k < n; k++)
    if (!s[k])
      return k;
  return n;
}

static uint32_t rune_at(const char *s, size_t *len)
{
  *len = rune_len(s);
  const unsigned char *p = (const unsigned char *)s;
  if (*len == 1)
    return p[0];
  uint32_t cp = p[0] & (0x7Fu >> *len);
  for (size_t k = 1; k < *len; k++)
    cp = cp << 6 | (p[k] & 0x3Fu);
  return cp;
}

/* [class] at p (after the '['); *end set past the ']'. -1 malformed. */
static int class_match(const char *p, const char **end, uint32_t ch)
{
  bool neg = false, hit = false;
  if (*p == '^' || *p == '!') {
    neg = true;
    p++;
  }
  bool first = true;
  while (*p != ']' || first) {
    if (!*p)
      return -1;
    first = false;
    size_t l;
    if (*p == '\\') {
      p++;
      if (!*p)
        return -1;
    }
    uint32_t lo = rune_at(p, &l), hi = lo;
    p += l;
    if (*p == '-' && p[1] != ']' && p[1]) {
      p++;
      if (*p == '\\')
        p++;
      if (!*p)
        return -1;
      hi = rune_at(p, &l);
      p += l;
    }
    if (ch >= lo && ch <= hi)
      hit = true;
  }
  *end = p + 1;
  return hit != neg;
}

/* pattern p (braces expanded) against s; -1 malformed */
static int glob(const char *pat, const char *p, const char *s)
{
  while (*p) {
    bool comp_start = p == pat || p[-1] == '/';
    if (p[0] == '*' && p[1] == '*' && comp_start &&
        (p[2] == 0 || p[2] == '/')) {
      if (p[2] == 0)
        return 1;
      const char *rest = p + 3;
      int r = glob(pat, rest, s);
      if (r != 0)
        return r;
      for (const char *q = s; *q; q++)
        if (*q == '/') {
          r = glob(pat, rest, q + 1);
          if (r != 0)
            return r;
        }
      return 0;
    }
    if (*p == '*') {
      const char *q = s;
      for (;;) {
        int r = glob(pat, p + 1, q);
        if (r != 0)
          return r;
        if (!*q || *q == '/')
          return 0;
        q += rune_len(q);
      }
    }
    if (*p == '/' && !*s && p[1] == '*' && p[2] == '*' && !p[3])
      return 1; /* "dir/" + "**" also matches "dir" */
    if (!*s)
      return 0;
    if (*p == '?') {
      if (*s == '/')
        return 0;
      p++;
      s += rune_len(s);
      continue;
    }
    if (*p == '[') {
      if (*s == '/')
        return 0;
      size_t l;
      uint32_t ch = rune_at(s, &l);
      const char *end;
      int r = class_match(p + 1, &end, ch);
      if (r <= 0)
        return r;
      p = end;
      s += l;
      continue;
    }
    if (*p == '\\') {
      p++;
      if (!*p)
        return -1;
    }
    if (*p != *s)
      return 0;
    p++;
    s++;
  }
  return !*s;
}

/* Expands the first {a,b} group of pat and matches each alternative. */
static int brace_match(Arena *a, const char *pat, const char *s)
{
  const char *open = NULL;
  bool in_class = false;
  for (const char *q = pat; *q; q++) {
    if (*q == '\\' && q[1]) {
      q++;
      continue;
    }
    if (*q == '[')
      in_class = true;
    else if (*q == ']')
      in_class = false;
    else if (*q == '{' && !in_class) {
      open = q;
      break;
    }
  }
  if (!open)
    return glob(pat, pat, s);
  int depth = 0;
  const char *close = NULL;
  for (const char *q = open; *q; q++) {
    if (*q == '\\' && q[1]) {
      q++;
      continue;
    }
    if (*q == '{')
      depth++;
    else if (*q == '}' && --depth == 0) {
      close = q;
      break;
    }
  }
  if (!close)
    return -1;
  const char *alt = open + 1;
  depth = 0;
  for (const char *q = open + 1; q <= close; q++) {
    if (*q == '\\' && q < close) {
      q++;
      continue;
    }
    if (*q == '{')
      depth++;
    else if (*q == '}' && depth > 0)
      depth--;
    else if ((*q == ',' && depth == 0) || q == close) {
      char *e = arena_printf(a, "%.*s%.*s%s", (int)(open - pat), pat,
                             (int)(q - alt), alt, close + 1);
      int r = brace_match(a, e, s);
      if (r != 0)
        return r;
      alt = q + 1;
    }
  }
  return 0;
}

/* doublestar's ErrBadPattern: an unclosed [ or {, a trailing \\ */
static bool pattern_ok(const char *p)
{
  int braces = 0;
  for (; *p; p++) {
    if (*p == '\\') {
      if (!*++p)
        return false;
    } else if (*p == '[') {
      p++;
      if (*p == '^' || *p == '!')
        p++;
      bool first = true;
      while (*p != ']' || first) {
        if (!*p)
          return false;
        if (*p == '\\' && !*++p)
          return false;
        first = false;
        p++;
      }
    } else if (*p == '{') {
      braces++;
    } else if (*p == '}' && braces > 0) {
      braces--;
    }
  }
  return braces == 0;
}

int goar_match(Arena *a, const char *pattern, const char *name)
{
  if (!pattern_ok(pattern))
    return -1;
  return brace_match(a, pattern, name) > 0;
}

/* ---- strconv with base 0 ------------------------------------------------- */

/* strconv's underscoreOK: underscores only between digits (a base
** prefix counts as a digit) */
static bool underscore_ok(const char *s)
{
  char saw = '^';
  bool hexa = false;
  if (*s == '+' || *s == '-')
    s++;
  if (s[0] == '0' && s[1] && strchr("bBoOxX", s[1])) {
    hexa = s[1] == 'x' || s[1] == 'X';
    s += 2;
    saw = '0';
  }
  for (; *s; s++) {
    bool digit = (*s >= '0' && *s <= '9') ||
                 (hexa && strchr("abcdefABCDEF", *s) != NULL);
    if (digit) {
      saw = '0';
    } else if (*s == '_') {
      if (saw != '0')
        return false;
      saw = '_';
    } else {
      if (saw == '_')
        return false;
      saw = '!';
    }
  }
  return saw != '_';
}

bool goar_parse_int(const char *s, bool signed_ok, int64_t min, int64_t max,
                    int64_t *out)
{
  if (!*s || !underscore_ok(s))
    return false;
  bool neg = false;
  if (*s == '+' || *s == '-') {
    if (!signed_ok)
      return false;
    neg = *s == '-';
    s++;
  }
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  } else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
    base = 8;
    s += 2;
  } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s += 2;
  } else if (s[0] == '0') {
    base = 8;
  }
  uint64_t v = 0;
  int ndig = 0;
  for (; *s; s++) {
    if (*s == '_')
      continue;
    int d;
    if (*s >= '0' && *s <= '9')
      d = *s - '0';
    else if (*s >= 'a' && *s <= 'z')
      d = *s - 'a' + 10;
    else if (*s >= 'A' && *s <= 'Z')
      d = *s - 'A' + 10;
    else
      return false;
    if (d >= base)
      return false;
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
      return false;
    v = v * (uint64_t)base + (uint64_t)d;
    ndig++;
  }
  if (ndig == 0)
    return false;
  if (neg) {
    if (v > (uint64_t)(-(min + 1)) + 1)
      return false;
    *out = v == 0 ? 0 : -(int64_t)(v - 1) - 1;
    return true;
  }
  if (v > (uint64_t)max)
    return false;
  *out = (int64_t)v;
  return true;
}
