/*
** fuzz_time_fn: the time provider's functions (provider::time::*) on
** configuration strings: the first byte picks rfc3339_parse,
** duration_parse or unix_timestamp_parse; the rest is the argument (for
** unix_timestamp_parse, up to 8 bytes read as an int64, so the calendar
** arithmetic sees both ends of the range).  Each input gets a fresh arena;
** the answer must be a result of the declared type or an argument error.
*/
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "providers/provider.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static const char *const names[3] = {"rfc3339_parse", "duration_parse",
                                        "unix_timestamp_parse"};
  if (size < 1)
    return 0;
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  ProvCall c = {.arena = &a, .diags = &d};
  Prov *p = prov_open_builtin(&a, prov_lookup_builtin("time"));
  int which = data[0] % 3;
  Value arg;
  if (which == 2) {
    int64_t ts = 0;
    memcpy(&ts, data + 1, size - 1 < 8 ? size - 1 : 8);
    arg = val_int(ts);
  } else {
    arg = val_str(&a, (const char *)data + 1, size - 1);
  }
  ProvCallFuncReq req = {.name = names[which], .args = &arg, .nargs = 1};
  ProvCallFuncResp resp;
  prov_call_function(p, &c, &req, &resp);
  const ProvProviderSchema *s = NULL;
  p->ops->get_schema(p, &c, &s);
  const ProvFunction *f = prov_schema_function(s, names[which]);
  if (resp.error ? resp.error_arg != 0
                 : !resp.result.type ||
                       !ty_equal(resp.result.type, f->return_type))
    abort();
  arena_release(&a);
  return 0;
}
