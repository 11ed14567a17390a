/*
** fuzz_state: the state reader (st_read, what the state manager calls on
** a terraform.tfstate's bytes), and a round trip: a state st_read
** accepted must be written by st_write and read back by st_read (cairn
** rewrites every state it loads); a failure there aborts (a real bug).
*/
#include <stdio.h>
#include <stdlib.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "state/state.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  State *s = NULL;
  if (st_read(&a, "fuzz.tfstate", (const char *)data, size, &s, &d) && s) {
    Buf out;
    buf_init(&out, &a);
    st_write(&out, s, "1.9.0");
    State *s2 = NULL;
    Diags d2;
    diag_init(&d2, &a);
    if (!st_read(&a, "rewritten.tfstate", out.p, out.len, &s2, &d2) || !s2) {
      fprintf(stderr, "fuzz_state: st_read refuses what st_write wrote: "
                      "%s: %s\n%.*s\n",
              d2.head ? d2.head->summary : "?",
              d2.head && d2.head->detail ? d2.head->detail : "",
              (int)(out.len > 2000 ? 2000 : out.len), out.p);
      abort();
    }
  }
  arena_release(&a);
  return 0;
}
