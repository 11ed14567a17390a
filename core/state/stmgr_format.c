/*
** stmgr_format.c: the byte formats of stmgr that need no file or lock:
** journal record framing (CRC-32, frame, scan) and the lock info's JSON
** and Terraform's "Lock Info:" text.  See stmgr.h.
*/
#include "stmgr.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/json.h"

/* ---- CRC-32 (IEEE 802.3, as zlib) ---------------------------------------- */

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++)
      c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
}

uint32_t stmgr_crc32(const void *data, size_t n)
{
  pthread_once(&crc_once, crc_init);
  const unsigned char *p = data;
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++)
    c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

/* ---- Record framing ------------------------------------------------------ */

#define FRAME_HDR 19 /* "J" + 8 hex + " " + 8 hex + " " */

void stmgr_frame(Buf *out, const char *payload, size_t n)
{
  buf_printf(out, "J%08x %08x ", (unsigned)n, stmgr_crc32(payload, n));
  buf_put(out, payload, n);
  buf_putc(out, '\n');
}

static bool hex8(const char *p, uint32_t *out)
{
  uint32_t v = 0;
  for (int i = 0; i < 8; i++) {
    char c = p[i];
    uint32_t d;
    if (c >= '0' && c <= '9')
      d = (uint32_t)(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = (uint32_t)(c - 'a' + 10);
    else
      return false;
    v = v << 4 | d;
  }
  *out = v;
  return true;
}

size_t stmgr_scan(const char *buf, size_t n,
                  bool (*fn)(void *ctx, const char *payload, size_t len),
                  void *ctx)
{
  size_t off = 0;
  while (n - off >= FRAME_HDR + 1) {
    const char *p = buf + off;
    uint32_t len, crc;
    if (p[0] != 'J' || !hex8(p + 1, &len) || p[9] != ' ' ||
        !hex8(p + 10, &crc) || p[18] != ' ')
      break;
    if ((uint64_t)len + FRAME_HDR + 1 > n - off)
      break;
    if (p[FRAME_HDR + len] != '\n' || stmgr_crc32(p + FRAME_HDR, len) != crc)
      break;
    if (fn && !fn(ctx, p + FRAME_HDR, len))
      break;
    off += FRAME_HDR + len + 1;
  }
  return off;
}

/* ---- Lock info text ------------------------------------------------------ */

void stmgr_lock_info_json(Buf *out, const StLockInfo *li)
{
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  const char *names[] = {"ID", "Operation", "Info", "Who",
                         "Version", "Created", "Path"};
  const char *vals[] = {li->id, li->operation, li->info, li->who,
                        li->version, li->created, li->path};
  for (int i = 0; i < 7; i++) {
    json_w_keyz(&w, names[i]);
    json_w_stringz(&w, vals[i] ? vals[i] : "");
  }
  json_w_end_object(&w);
}

/* Go's time.Time.String() of an RFC 3339 time: "2006-01-02 15:04:05.999
** +0000 UTC".  Unparsable input is rendered as given. */
static void go_time_string(Buf *out, const char *s)
{
  int Y, M, D, h, mi, sec, n = 0;
  if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &Y, &M, &D, &h, &mi, &sec,
                   &n) != 6 || n != 19) {
    buf_puts(out, s ? s : "");
    return;
  }
  const char *p = s + 19;
  char frac[16] = "";
  if (*p == '.') {
    size_t k = 0;
    p++;
    while (*p >= '0' && *p <= '9' && k < 9)
      frac[k++ + 1] = *p++;
    while (*p >= '0' && *p <= '9')
      p++;
    frac[0] = '.';
    while (k > 0 && frac[k] == '0')
      k--;
    frac[k ? k + 1 : 0] = 0;
  }
  buf_printf(out, "%04d-%02d-%02d %02d:%02d:%02d%s ", Y, M, D, h, mi, sec,
             frac);
  if (*p == 'Z' || *p == 'z') {
    buf_puts(out, "+0000 UTC");
  } else if ((*p == '+' || *p == '-') && strlen(p) == 6 && p[3] == ':') {
    buf_printf(out, "%c%c%c%c%c %c%c%c%c%c", p[0], p[1], p[2], p[4], p[5],
               p[0], p[1], p[2], p[4], p[5]);
  } else {
    buf_puts(out, p);
  }
}

void stmgr_format_lock_info(Buf *out, const StLockInfo *li)
{
  buf_printf(out,
             "Lock Info:\n  ID:        %s\n  Path:      %s\n"
             "  Operation: %s\n  Who:       %s\n  Version:   %s\n"
             "  Created:   ",
             li->id, li->path, li->operation, li->who, li->version);
  go_time_string(out, li->created);
  buf_printf(out, "\n  Info:      %s\n", li->info);
}
