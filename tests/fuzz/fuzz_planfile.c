/*
** fuzz_planfile: the saved-plan reader (planfile_decode, the bytes
** planfile_read takes from `apply FILE` / `show FILE`).  An input that
** starts like a plan file ({"cairn_plan":) is decoded as it is; any other
** input is taken as the body and wrapped in a header with its correct
** SHA-256, since mutations would otherwise never get past the checksum.
** Then a round trip:
** a plan planfile_decode accepted must be encoded by planfile_encode and
** decoded again (cairn's plans are written by the same code); a failure
** there aborts (a real bug).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "engine/planfile.h"
#include "lang/funcs.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  const char *src = (const char *)data;
  static const char magic[] = "{\"cairn_plan\":";
  if (size < sizeof magic - 1 || memcmp(data, magic, sizeof magic - 1)) {
    uint8_t dig[32];
    fn_dig_sha256(data, size, dig);
    Buf w;
    buf_init(&w, &a);
    buf_printf(&w, "{\"cairn_plan\":1,\"sha256\":\"");
    for (int i = 0; i < 32; i++)
      buf_printf(&w, "%02x", dig[i]);
    buf_printf(&w, "\",\"body\":");
    buf_put(&w, src, size);
    buf_printf(&w, "}\n");
    src = w.p;
    size = w.len;
  }
  Plan *p = NULL;
  if (planfile_decode(&a, "fuzz.plan", src, size, &p, &d) &&
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
