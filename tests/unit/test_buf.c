/*
** test_buf: the buffer's text helpers that several modules share: UTF-8
** encoding and Go's two quoting styles.
*/
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "t.h"

static const char *utf8(Arena *a, uint32_t r)
{
  Buf b;
  buf_init(&b, a);
  buf_put_utf8(&b, r);
  return buf_str(&b);
}

static void test_utf8(void)
{
  Arena a;
  arena_init(&a, 0);
  T_EQ_STR(utf8(&a, 'A'), "A");
  T_EQ_STR(utf8(&a, 0xE9), "\xc3\xa9");
  T_EQ_STR(utf8(&a, 0x20AC), "\xe2\x82\xac");
  T_EQ_STR(utf8(&a, 0x1F600), "\xf0\x9f\x98\x80");
  /* Not scalar values: U+FFFD, as Go's utf8.EncodeRune. */
  T_EQ_STR(utf8(&a, 0xD800), "\xef\xbf\xbd");
  T_EQ_STR(utf8(&a, 0x110000), "\xef\xbf\xbd");
  char o[4];
  T_EQ_INT(buf_utf8_encode(o, 0x7FF), 2);
  T_EQ_INT(buf_utf8_encode(o, 0x10FFFF), 4);
  arena_release(&a);
}

static const char *sq(Arena *a, const char *s, size_t n)
{
  Buf b;
  buf_init(&b, a);
  buf_strconv_quote(&b, s, n);
  return buf_str(&b);
}

static void test_strconv_quote(void)
{
  Arena a;
  arena_init(&a, 0);
  T_EQ_STR(sq(&a, "a\"b\\c", 5), "\"a\\\"b\\\\c\"");
  T_EQ_STR(sq(&a, "\a\b\f\n\r\t\v", 7), "\"\\a\\b\\f\\n\\r\\t\\v\"");
  T_EQ_STR(sq(&a, "\x01\x7f", 2), "\"\\x01\\x7f\"");
  T_EQ_STR(sq(&a, "\xff", 1), "\"\\xff\"");            /* invalid UTF-8 */
  T_EQ_STR(sq(&a, "\xc3\xa9", 2), "\"\xc3\xa9\"");     /* printable */
  T_EQ_STR(sq(&a, "\xc2\x85", 2), "\"\\u0085\"");      /* C1 control */
  T_EQ_STR(sq(&a, "\xe2\x80\xa8", 3), "\"\\u2028\"");
  T_EQ_STR(sq(&a, "\xe1\x9a\x80", 3), "\"\\u1680\"");  /* Ogham space */
  T_EQ_STR(sq(&a, "\xee\x80\x80", 3), "\"\\ue000\"");  /* private use */
  T_EQ_STR(sq(&a, "\xef\xbf\xbf", 3), "\"\\uffff\"");
  T_EQ_STR(sq(&a, "x\0y", 3), "\"x\\x00y\"");
  arena_release(&a);
}

static void test_go_quote(void)
{
  Arena a;
  arena_init(&a, 0);
  Buf b;
  buf_init(&b, &a);
  buf_go_quote(&b, "say \"hi\"\n\x01\xc3\xa9");
  T_EQ_STR(buf_str(&b), "\"say \\\"hi\\\"\\n\\x01\xc3\xa9\"");
  buf_clear(&b);
  buf_go_quote_n(&b, "k\0v", 3);
  T_EQ_STR(buf_str(&b), "\"k\\x00v\"");
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_utf8);
  T_RUN(test_strconv_quote);
  T_RUN(test_go_quote);
  return t_done("buf");
}
