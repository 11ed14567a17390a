/*
** fuzz_pgwire: what a PostgreSQL server (or anything answering on its
** port) sends the pg backend's client (net/pgwire.c): the input is a
** stream of backend messages, framed by pgw_msg_next, each decoded as a
** query's reply (pgw_result_feed: RowDescription, DataRow, ErrorResponse,
** CommandComplete...) and, for an authentication request, its SCRAM
** server-first and server-final messages (pgw_scram_final,
** pgw_scram_verify) against a fixed client-first; ErrorResponse and
** NoticeResponse through pgw_parse_error.  Every row read must lie within
** the input.  A fuzzed iteration count above 4096 is lowered, so an input
** measures the parser rather than PBKDF2.
*/
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "net/pgwire.h"

#include "fuzz.h"

static void scram(Arena *a, const PgMsg *m)
{
  if (m->len < 4)
    return;
  uint32_t code = (uint32_t)m->body[0] << 24 | (uint32_t)m->body[1] << 16 |
                  (uint32_t)m->body[2] << 8 | m->body[3];
  const char *p = (const char *)m->body + 4;
  size_t n = m->len - 4;
  PgScram s;
  memset(&s, 0, sizeof s);
  const char *why = NULL;
  pgw_scram_first(a, &s, "", "fuzznonce");
  if (code == 11) {
    char *c = arena_strndup(a, p, n);
    char *i = strstr(c, "i=");
    if (i && strtol(i + 2, NULL, 10) > 4096)
      memcpy(i, "i=1", 3);
    if (!pgw_scram_final(a, &s, c, strlen(c), "pw", &why) && !why)
      abort();
  } else if (code == 12) {
    if (!pgw_scram_verify(&s, p, n, &why) && !why)
      abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Arena a;
  arena_init(&a, 0);
  PgResult r;
  memset(&r, 0, sizeof r);
  PgError e;
  bool failed = false;
  size_t at = 0;
  PgMsg m;
  long k;
  while ((k = pgw_msg_next(data + at, size - at, &m)) > 0) {
    if (m.body < data || m.body + m.len > data + size)
      abort();
    if (m.type == 'R')
      scram(&a, &m);
    else if (m.type == 'E' || m.type == 'N')
      (void)pgw_parse_error(&a, m.body, m.len, &e);
    else if (pgw_result_feed(&a, &m, &r, &e, &failed) != 0)
      break;
    at += (size_t)k;
  }
  for (int i = 0; i < r.nrows; i++)
    for (int c = 0; c < r.ncols; c++)
      if (r.rows[i][c] && strlen(r.rows[i][c]) > r.lens[i][c])
        abort();
  arena_release(&a);
  return 0;
}
