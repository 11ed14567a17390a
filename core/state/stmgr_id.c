/*
** stmgr_id.c: intent ids (stmgr_new_intent_id, stmgr.h), apart from
** stmgr.c to keep that file under the size limit (docs/STYLE.md).
*/
#include "stmgr.h"
#include "stmgr_priv.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Intent ids come from a per-thread splitmix64 sequence seeded once from
** getrandom: one system call per thread instead of one per instance
** (issue 20).  The sequence is a bijection of a counter, so a thread never
** repeats an id; threads differ by their random seeds, as ids of separate
** runs do. */
typedef struct IdGen {
  bool seeded;
  uint64_t state;
} IdGen;

static _Thread_local IdGen idgen;

void stmgr_new_intent_id(char out[17])
{
  if (!idgen.seeded) {
    stmgr_fill_random(&idgen.state, sizeof idgen.state);
    idgen.seeded = true;
  }
  uint64_t z = (idgen.state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  snprintf(out, 17, "%016llx", (unsigned long long)z);
}
