/*
** test_b64: base64 as Go's encoding/base64 writes it and as
** StdEncoding.DecodeString reads it, with Go's error offsets.
*/
#include <string.h>

#include "base/arena.h"
#include "base/b64.h"
#include "base/buf.h"
#include "t.h"

static const char *enc(Arena *a, const char *s, bool url, bool pad)
{
  Buf b;
  buf_init(&b, a);
  b64_put(&b, s, strlen(s), url, pad);
  return buf_str(&b);
}

static void test_encode(void)
{
  Arena a;
  arena_init(&a, 0);
  T_EQ_STR(enc(&a, "", false, true), "");
  T_EQ_STR(enc(&a, "f", false, true), "Zg==");
  T_EQ_STR(enc(&a, "fo", false, true), "Zm8=");
  T_EQ_STR(enc(&a, "foo", false, true), "Zm9v");
  T_EQ_STR(enc(&a, "foob", false, false), "Zm9vYg");
  T_EQ_STR(enc(&a, "\xfb\xff", false, true), "+/8=");
  T_EQ_STR(enc(&a, "\xfb\xff", true, false), "-_8");
  arena_release(&a);
}

/* The decoded text, or "!N" for an error at offset N. */
static const char *dec(Arena *a, const char *s)
{
  uint8_t *p;
  size_t n, bad;
  if (!b64_decode(a, s, strlen(s), &p, &n, &bad))
    return arena_printf(a, "!%zu", bad);
  return arena_strndup(a, (const char *)p, n);
}

static void test_decode(void)
{
  Arena a;
  arena_init(&a, 0);
  T_EQ_STR(dec(&a, "Zm9vYg=="), "foob");
  T_EQ_STR(dec(&a, "Zm9v\r\nYmE="), "fooba");
  T_EQ_STR(dec(&a, ""), "");
  T_EQ_STR(dec(&a, "Zm9vYg"), "!4");       /* padding missing */
  T_EQ_STR(dec(&a, "Zm9vY==="), "!5");     /* "=" too early */
  T_EQ_STR(dec(&a, "Zg==Zg=="), "!4");     /* data after padding */
  T_EQ_STR(dec(&a, "Zg=\nA"), "!4");
  T_EQ_STR(dec(&a, "Zm9-"), "!3");         /* URL alphabet */
  T_EQ_STR(dec(&a, "Zg==\n"), "f");
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_encode);
  T_RUN(test_decode);
  return t_done("b64");
}
