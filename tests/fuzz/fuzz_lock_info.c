/*
** fuzz_lock_info: what a state backend's server says about a lock: the
** body of a 423/409 answer to the http backend's LOCK request
** (behttp_parse_conflict, which names the holder in the error), and the
** lock info JSON stmgr reads back (stmgr_parse_lock_info), then the
** holder rendered as Terraform's "Lock Info:" block and re-encoded as
** lock info JSON, which must parse again to the same ID.
*/
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "net/be_http.h"
#include "state/stmgr.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Arena a;
  arena_init(&a, 0);
  StLockInfo holder;
  const char *why = NULL;
  behttp_parse_conflict(&a, (const char *)data, size, &holder, &why);
  if (!why)
    abort();
  StLockInfo li;
  if (stmgr_parse_lock_info(&a, (const char *)data, size, &li)) {
    Buf b;
    buf_init(&b, &a);
    stmgr_format_lock_info(&b, &li);
    buf_clear(&b);
    stmgr_lock_info_json(&b, &li);
    StLockInfo again;
    if (!stmgr_parse_lock_info(&a, b.p, b.len, &again) ||
        strcmp(again.id, li.id) != 0)
      abort();
  }
  arena_release(&a);
  return 0;
}
