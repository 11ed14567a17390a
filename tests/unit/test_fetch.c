/*
** test_fetch: the http data source client's pure parts (net/fetch.c):
** Go's proxy decisions, textproto's canonical header keys, the response
** header collector and Go's Duration formatting.  The expected proxy
** answers were produced by Go 1.19's http.ProxyFromEnvironment (which
** vendors golang.org/x/net/http/httpproxy) for the same environment and
** URL; the network half is covered by tests/e2e/cases/provider_http.
*/
#include "t.h"

#include "base/arena.h"
#include "net/fetch.h"

static Arena arena;
static const char *const *cur_env;

static const char *fake_getenv(const char *name)
{
  size_t n = strlen(name);
  for (int i = 0; cur_env[i]; i++)
    if (strncmp(cur_env[i], name, n) == 0 && cur_env[i][n] == '=')
      return cur_env[i] + n + 1;
  return NULL;
}

/* The proxy for scheme://host:port under env, "DIRECT", or "ERR". */
static const char *proxy(const char *const *env, const char *scheme,
                         const char *host, int port)
{
  cur_env = env;
  const char *err;
  const char *p = fetch_proxy_for(&arena, fake_getenv, scheme, host, port,
                                  &err);
  if (err)
    return "ERR";
  return p ? p : "DIRECT";
}

#define ENV(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_proxy_env(void)
{
  T_EQ_STR(proxy(ENV("HTTP_PROXY=proxy:3128"), "http", "example.com", 0),
           "http://proxy:3128");
  T_EQ_STR(proxy(ENV("http_proxy=http://lower:1"), "http", "example.com", 0),
           "http://lower:1");
  T_EQ_STR(proxy(ENV("HTTP_PROXY=http://upper:1", "http_proxy=http://lower:1"),
                 "http", "example.com", 0), "http://upper:1");
  T_EQ_STR(proxy(ENV("HTTPS_PROXY=https://sec:443"), "https", "example.com",
                 0), "https://sec:443");
  T_EQ_STR(proxy(ENV("HTTP_PROXY=http://p:1"), "https", "example.com", 0),
           "DIRECT");
  T_EQ_STR(proxy(ENV("HTTP_PROXY=http://p:1", "REQUEST_METHOD=GET"), "http",
                 "example.com", 0), "ERR");
  /* Go's SOCKS5 dialer resolves at the proxy: curl's socks5h. */
  T_EQ_STR(proxy(ENV("HTTPS_PROXY=socks5://s:1080"), "https", "example.com",
                 0), "socks5h://s:1080");
}

static void test_proxy_loopback(void)
{
  T_EQ_STR(proxy(ENV("HTTP_PROXY=http://p:1"), "http", "localhost", 0),
           "DIRECT");
  T_EQ_STR(proxy(ENV("HTTP_PROXY=http://p:1"), "http", "127.0.0.2", 8080),
           "DIRECT");
  T_EQ_STR(proxy(ENV("HTTP_PROXY=http://p:1"), "http", "::1", 0), "DIRECT");
}

static void test_no_proxy(void)
{
#define P1 "HTTP_PROXY=http://p:1"
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=example.com"), "http", "example.com", 0),
           "DIRECT");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=example.com"), "http", "www.example.com",
                 0), "DIRECT");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=.example.com"), "http", "example.com", 0),
           "http://p:1");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=*.example.com"), "http", "a.example.com",
                 0), "DIRECT");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=example.com:8080"), "http", "example.com",
                 0), "http://p:1");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=example.com:8080"), "http", "example.com",
                 8080), "DIRECT");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=10.0.0.0/8"), "http", "10.1.2.3", 0),
           "DIRECT");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=10.0.0.0/8"), "http", "11.1.2.3", 0),
           "http://p:1");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=192.168.1.1"), "http", "192.168.1.1", 0),
           "DIRECT");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=192.168.1.1:80"), "http", "192.168.1.1",
                 0), "DIRECT");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=*"), "http", "anything", 0), "DIRECT");
  T_EQ_STR(proxy(ENV(P1, "no_proxy=EXAMPLE.com"), "http", "Example.COM", 0),
           "DIRECT");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=foo.org,bar.org"), "http", "x.bar.org",
                 0), "DIRECT");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=foo.org,bar.org"), "http", "xbar.org", 0),
           "http://p:1");
  T_EQ_STR(proxy(ENV(P1, "NO_PROXY=2001:db8::/32"), "http", "2001:db8::1",
                 0), "DIRECT");
#undef P1
}

static void test_canonical_key(void)
{
  T_EQ_STR(fetch_canonical_key(&arena, "content-type", 12), "Content-Type");
  T_EQ_STR(fetch_canonical_key(&arena, "X-DOUBLE", 8), "X-Double");
  T_EQ_STR(fetch_canonical_key(&arena, "www-authenticate", 16),
           "Www-Authenticate");
  /* Not a token: Go leaves it alone. */
  T_EQ_STR(fetch_canonical_key(&arena, "bad key", 7), "bad key");
}

static void feed(FetchHdrs *h, const char *line)
{
  fetch_hdrs_line(h, line, strlen(line));
}

static void test_headers(void)
{
  FetchHdrs h;
  fetch_hdrs_init(&h, &arena);
  feed(&h, "HTTP/1.1 301 Moved Permanently\r\n");
  feed(&h, "Location: /x\r\n");
  feed(&h, "\r\n");
  feed(&h, "HTTP/1.1 200 OK\r\n");
  feed(&h, "x-double: 1\r\n");
  feed(&h, "X-Double:   2  \r\n");
  feed(&h, "X-Folded: a\r\n");
  feed(&h, "\t b\r\n");
  feed(&h, "Transfer-Encoding: chunked\r\n");
  feed(&h, "\r\n");
  T_EQ_INT(h.status, 200);
  T_EQ_STR(h.reason, "OK");
  T_CHECK(fetch_hdrs_get(&h, "Location") == NULL);
  T_EQ_STR(fetch_hdrs_get(&h, "X-Double"), "1, 2");
  T_EQ_STR(fetch_hdrs_get(&h, "X-Folded"), "a b");
  fetch_hdrs_del(&h, "Transfer-Encoding");
  T_CHECK(fetch_hdrs_get(&h, "Transfer-Encoding") == NULL);
  T_EQ_INT(h.n, 2);
  /* HTTP/2 status lines have no reason phrase. */
  feed(&h, "HTTP/2 503 \r\n");
  T_EQ_INT(h.status, 503);
  T_EQ_STR(h.reason, "");
  T_EQ_INT(h.n, 0);
}

static void test_duration(void)
{
  T_EQ_STR(fetch_duration_ms(&arena, 5), "5ms");
  T_EQ_STR(fetch_duration_ms(&arena, 1000), "1s");
  T_EQ_STR(fetch_duration_ms(&arena, 1500), "1.5s");
  T_EQ_STR(fetch_duration_ms(&arena, 60000), "1m0s");
  T_EQ_STR(fetch_duration_ms(&arena, 90250), "1m30.25s");
  T_EQ_STR(fetch_duration_ms(&arena, 3600000), "1h0m0s");
}

int main(void)
{
  arena_init(&arena, 0);
  T_RUN(test_proxy_env);
  T_RUN(test_proxy_loopback);
  T_RUN(test_no_proxy);
  T_RUN(test_canonical_key);
  T_RUN(test_headers);
  T_RUN(test_duration);
  arena_release(&arena);
  return t_done("fetch");
}
