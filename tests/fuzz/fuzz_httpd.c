/*
** fuzz_httpd: the gateway's HTTP/1.1 request-head parser (net/httpd.c,
** httpd_parse): any bytes, as a client could send them.  What it accepts
** must be self-consistent: the head length within the input, the body
** length as declared, every header findable by its name.
*/
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "net/httpd.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Arena a;
  arena_init(&a, 0);
  HttpdRequest r;
  const char *why;
  HttpdParse pr = httpd_parse(&a, (const char *)data, size, &r, &why);
  if (pr == HTTPD_OK) {
    if (r.head_len > size || r.head_len > HTTPD_MAX_HEAD || !r.method ||
        !r.target || r.target[0] != '/')
      abort();
    for (int i = 0; i < r.nheaders; i++)
      if (!httpd_header(&r, r.headers[i].name))
        abort();
  } else if ((pr == HTTPD_BAD || pr == HTTPD_UNSUPPORTED) && !why) {
    abort();
  }
  arena_release(&a);
  return 0;
}
