/*
** fuzz_fetch: what the http data source parses itself (net/fetch.c): the
** response header lines libcurl hands over (fetch_hdrs_line: status lines,
** fields, obs-fold continuations), and the proxy environment
** (fetch_proxy_for: NO_PROXY entries of domains, IPs, CIDRs and ports,
** proxy URLs).  The first byte picks the part.  Headers: the input split
** at LF; every collected key must be canonical (a fixed point of
** fetch_canonical_key) and findable, and deleting it must remove it.
** Proxy: the input is "HTTP_PROXY\nNO_PROXY\nhost[\nport]".
*/
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "net/fetch.h"

#include "fuzz.h"

static const char *env_proxy, *env_no_proxy;

static const char *fake_getenv(const char *name)
{
  if (strcmp(name, "HTTP_PROXY") == 0 || strcmp(name, "HTTPS_PROXY") == 0)
    return env_proxy;
  if (strcmp(name, "NO_PROXY") == 0)
    return env_no_proxy;
  return NULL;
}

static void fuzz_headers(Arena *a, const char *s, size_t n)
{
  FetchHdrs h;
  fetch_hdrs_init(&h, a);
  size_t i = 0;
  while (i < n) {
    const char *nl = memchr(s + i, '\n', n - i);
    size_t len = nl ? (size_t)(nl - (s + i)) + 1 : n - i;
    fetch_hdrs_line(&h, s + i, len);
    i += len;
  }
  if (h.status < 0 || h.status > 999 || !h.reason)
    abort();
  for (size_t k = 0; k < h.n; k++) {
    const char *name = h.v[k].name;
    const char *c = fetch_canonical_key(a, name, strlen(name));
    if (strcmp(c, name) != 0 || !fetch_hdrs_get(&h, name) ||
        strlen(h.v[k].value) != h.v[k].vlen)
      abort();
  }
  if (h.n > 0) {
    const char *name = h.v[0].name;
    size_t before = h.n;
    fetch_hdrs_del(&h, name);
    if (h.n != before - 1 || fetch_hdrs_get(&h, name))
      abort();
  }
}

static void fuzz_proxy(Arena *a, const char *s, size_t n)
{
  char *buf = arena_strndup(a, s, n);
  const char *parts[4] = {buf, "", "", ""};
  int k = 1;
  for (char *q = buf; *q && k < 4; q++)
    if (*q == '\n') {
      *q = 0;
      parts[k++] = q + 1;
    }
  env_proxy = *parts[0] ? parts[0] : NULL;
  env_no_proxy = parts[1];
  int port = (int)strtol(parts[3], NULL, 10);
  const char *err;
  const char *p = fetch_proxy_for(a, fake_getenv, "http", parts[2], port,
                                  &err);
  if (p && !env_proxy)
    abort();
  p = fetch_proxy_for(a, fake_getenv, "https", parts[2], port, &err);
  if (p && !env_proxy)
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  Arena a;
  arena_init(&a, 0);
  const char *s = (const char *)data + 1;
  if (data[0] & 1)
    fuzz_proxy(&a, s, size - 1);
  else
    fuzz_headers(&a, s, size - 1);
  arena_release(&a);
  return 0;
}
