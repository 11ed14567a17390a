/*
** b64: Go's base64 encoder and StdEncoding decoder.  See b64.h.
*/
#include "b64.h"

static const char b64_std[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b64_url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

void b64_put(Buf *b, const void *data, size_t n, bool url, bool pad)
{
  const unsigned char *p = data;
  const char *al = url ? b64_url : b64_std;
  buf_reserve(b, (n + 2) / 3 * 4 + 1);
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
    char t[4] = {al[v >> 18 & 63], al[v >> 12 & 63], al[v >> 6 & 63],
                 al[v & 63]};
    buf_put(b, t, 4);
  }
  if (i == n)
    return;
  /* One or two bytes left: two or three characters, then the padding. */
  uint32_t v = (uint32_t)p[i] << 16;
  if (n - i == 2)
    v |= (uint32_t)p[i + 1] << 8;
  char t[4] = {al[v >> 18 & 63], al[v >> 12 & 63],
               n - i == 2 ? al[v >> 6 & 63] : '=', '='};
  size_t k = n - i == 2 ? 3 : 2;
  buf_put(b, t, pad ? 4 : k);
}

static int b64_val(char c)
{
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

bool b64_decode(Arena *a, const char *s, size_t n, uint8_t **out,
                size_t *outlen, size_t *bad_at)
{
  uint8_t *o = ARENA_NEW(a, uint8_t, n / 4 * 3 + 3);
  size_t k = 0;
  int quad[4];
  size_t qpos[4];
  int q = 0, npad = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '\r' || c == '\n')
      continue;
    if (npad > 0 && c != '=') {
      *bad_at = i;
      return false;
    }
    if (c == '=') {
      /* Padding only in the last two places of a quantum. */
      if (q < 2) {
        *bad_at = i;
        return false;
      }
      npad++;
      quad[q] = 0;
      qpos[q] = i;
      q++;
    } else {
      int v = b64_val(c);
      if (v < 0) {
        *bad_at = i;
        return false;
      }
      quad[q] = v;
      qpos[q] = i;
      q++;
    }
    if (q == 4) {
      uint32_t v = (uint32_t)quad[0] << 18 | (uint32_t)quad[1] << 12 |
                   (uint32_t)quad[2] << 6 | (uint32_t)quad[3];
      o[k++] = (uint8_t)(v >> 16);
      if (npad < 2)
        o[k++] = (uint8_t)(v >> 8);
      if (npad < 1)
        o[k++] = (uint8_t)v;
      q = 0;
      if (npad > 0) {
        /* Anything after the padded quantum (but newlines) is an error. */
        for (size_t j = i + 1; j < n; j++)
          if (s[j] != '\r' && s[j] != '\n') {
            *bad_at = j;
            return false;
          }
        break;
      }
    }
  }
  if (q != 0) {
    *bad_at = qpos[0];
    return false;
  }
  *out = o;
  *outlen = k;
  return true;
}
