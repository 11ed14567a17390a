/*
** fuzz_json: the JSON reader (core/base/json.h): json_parse with the
** default and the strict-UTF-8 options, json_parse_type (cty's type
** syntax, as variable types in plans and states are read), and a round
** trip: what json_parse accepted must be written by json_write_value and
** read back by json_parse; a failure there aborts (a real bug).
*/
#include <stdio.h>
#include <stdlib.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/json.h"
#include "base/value.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *src = (const char *)data;
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  Value v;
  if (json_parse(&a, src, size, &v, &d, NULL)) {
    Buf out;
    buf_init(&out, &a);
    Diags wd;
    diag_init(&wd, &a);
    if (json_write_value(&out, v, v.type, 0, &wd)) {
      Value w;
      Diags rd;
      diag_init(&rd, &a);
      if (!json_parse(&a, out.p, out.len, &w, &rd, NULL)) {
        fprintf(stderr, "fuzz_json: json_write_value wrote what json_parse "
                        "refuses: %.*s\n", (int)(out.len > 400 ? 400 : out.len),
                out.p);
        abort();
      }
    }
  }
  JsonOpts strict = {0};
  strict.flags = JSON_STRICT_UTF8;
  json_parse(&a, src, size, &v, &d, &strict);
  const Type *t;
  json_parse_type(&a, src, size, &t, &d, NULL);
  arena_release(&a);
  return 0;
}
