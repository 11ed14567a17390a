/*
** fuzz_planfile: the saved-plan reader (planfile_decode, the bytes
** planfile_read takes from `apply FILE` / `show FILE`), and a round trip:
** a plan planfile_decode accepted must be encoded by planfile_encode and
** decoded again (cairn's plans are written by the same code); a failure
** there aborts (a real bug).
*/
#include <stdio.h>
#include <stdlib.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "engine/planfile.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  Plan *p = NULL;
  if (planfile_decode(&a, "fuzz.plan", (const char *)data, size, &p, &d) &&
      p) {
    Buf out;
    buf_init(&out, &a);
    Diags ed;
    diag_init(&ed, &a);
    if (planfile_encode(&out, p, &ed)) {
      Plan *q = NULL;
      Diags d2;
      diag_init(&d2, &a);
      if (!planfile_decode(&a, "rewritten.plan", out.p, out.len, &q, &d2)) {
        fprintf(stderr, "fuzz_planfile: planfile_decode refuses what "
                        "planfile_encode wrote: %s: %s\n",
                d2.head ? d2.head->summary : "?",
                d2.head && d2.head->detail ? d2.head->detail : "");
        abort();
      }
    }
  }
  arena_release(&a);
  return 0;
}
