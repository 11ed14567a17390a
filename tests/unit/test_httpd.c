/*
** test_httpd: the HTTP/1.1 request-head parser of net/httpd.c.
*/
#include <string.h>

#include "net/httpd.h"
#include "t.h"

static HttpdParse parse(Arena *a, const char *s, HttpdRequest *r,
                        const char **why)
{
  return httpd_parse(a, s, strlen(s), r, why);
}

static void test_post(void)
{
  Arena a;
  arena_init(&a, 0);
  HttpdRequest r;
  const char *why;
  const char *s = "POST /providers/hashicorp/null/ReadResource HTTP/1.1\r\n"
                  "Host: gw\r\nContent-Length: 12\r\n"
                  "Authorization:  Bearer abc  \r\n\r\n{\"a\":1}";
  T_EQ_INT(parse(&a, s, &r, &why), HTTPD_OK);
  T_EQ_STR(r.method, "POST");
  T_EQ_STR(r.target, "/providers/hashicorp/null/ReadResource");
  T_EQ_INT(r.minor, 1);
  T_EQ_INT((int)r.content_length, 12);
  T_CHECK(r.keep_alive);
  T_EQ_STR(httpd_header(&r, "authorization"), "Bearer abc");
  T_CHECK(httpd_header(&r, "X-None") == NULL);
  T_EQ_INT((int)r.head_len, (int)(strstr(s, "{") - s));
  arena_release(&a);
}

static void test_incomplete_and_limits(void)
{
  Arena a;
  arena_init(&a, 0);
  HttpdRequest r;
  const char *why;
  T_EQ_INT(parse(&a, "POST / HTTP/1.1\r\nHost: x\r\n", &r, &why),
           HTTPD_INCOMPLETE);
  T_EQ_INT(parse(&a, "", &r, &why), HTTPD_INCOMPLETE);
  /* A head that never ends within the limit. */
  size_t n = HTTPD_MAX_HEAD + 10;
  char *big = ARENA_NEW(&a, char, n + 1);
  memcpy(big, "GET / HTTP/1.1\r\nX: ", 19);
  memset(big + 19, 'a', n - 19);
  T_EQ_INT(httpd_parse(&a, big, n, &r, &why), HTTPD_HEAD_TOO_LARGE);
  arena_release(&a);
}

static void test_connection(void)
{
  Arena a;
  arena_init(&a, 0);
  HttpdRequest r;
  const char *why;
  T_EQ_INT(parse(&a, "GET / HTTP/1.1\r\nConnection: Close\r\n\r\n", &r,
                 &why), HTTPD_OK);
  T_CHECK(!r.keep_alive);
  T_EQ_INT(parse(&a, "GET / HTTP/1.0\r\n\r\n", &r, &why), HTTPD_OK);
  T_CHECK(!r.keep_alive);
  T_EQ_INT(parse(&a, "GET / HTTP/1.0\r\nConnection: x, keep-alive\r\n\r\n",
                 &r, &why), HTTPD_OK);
  T_CHECK(r.keep_alive);
  arena_release(&a);
}

static void test_refused(void)
{
  Arena a;
  arena_init(&a, 0);
  HttpdRequest r;
  const char *why;
  static const char *const bad[] = {
      "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
      "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
      "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
      "POST / HTTP/1.1\r\nHost : x\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
      "POST / HTTP/1.1\nHost: x\r\n\r\n",
      "POST x HTTP/1.1\r\n\r\n",
      "POST / HTTP/1.1 extra\r\n\r\n",
      "POST / HTTP/1.2\r\n\r\n",
      "P(ST / HTTP/1.1\r\n\r\n",
      "POST / HTTP/1.1\r\nX: a\001b\r\n\r\n",
      "\r\n\r\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    why = NULL;
    T_EQ_INT(parse(&a, bad[i], &r, &why), HTTPD_BAD);
    T_CHECK(why != NULL);
  }
  T_EQ_INT(parse(&a, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
                 &r, &why), HTTPD_UNSUPPORTED);
  T_EQ_INT(parse(&a, "POST / HTTP/2.0\r\n\r\n", &r, &why),
           HTTPD_UNSUPPORTED);
  /* The same length twice is not ambiguous. */
  T_EQ_INT(parse(&a, "POST / HTTP/1.1\r\nContent-Length: 3\r\n"
                     "content-length: 3\r\n\r\n", &r, &why), HTTPD_OK);
  T_EQ_INT((int)r.content_length, 3);
  T_EQ_STR(httpd_reason(413), "Content Too Large");
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_post);
  T_RUN(test_incomplete_and_limits);
  T_RUN(test_connection);
  T_RUN(test_refused);
  return t_done("httpd");
}
