/*
** json_priv: private to the json module (core/base/json*.c); nothing else
** includes it.  Shared between the reader (json.c), typed decoding and
** type syntax (json_typed.c) and the writer (json_write.c): whitespace
** skipping, UTF-8 validation, source positions, and the error context
** that typed decoding and json_w_value fill while unwinding.
*/
#ifndef CAIRN_JSON_PRIV_H
#define CAIRN_JSON_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "json.h"

#define JSON_ONES ((uint64_t)0x0101010101010101ULL)
#define JSON_HIGHS ((uint64_t)0x8080808080808080ULL)

/* Inline here, not in json.c: the reader's inner loops call these per
** byte, and the writer's json_w_raw needs the same whitespace rules. */
static inline bool json_is_ws(unsigned char c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static inline const char *json_skip_ws(const char *p, const char *end)
{
  while (p < end && (unsigned char)*p <= ' ' &&
         json_is_ws((unsigned char)*p)) {
    p++;
    /* Pretty-printed documents indent with long runs of spaces. */
    while (end - p >= 8) {
      uint64_t x;
      memcpy(&x, p, 8);
      if (x != JSON_ONES * ' ')
        break;
      p += 8;
    }
  }
  return p;
}

/* Line, column (UTF-8 characters) and offset of byte off of beg. */
SrcPos json_pos_at(const char *beg, size_t off);

/* Length of the valid UTF-8 sequence at p (RFC 3629, as Go's
** utf8.DecodeRune: no overlongs, no surrogates, at most U+10FFFF), or 0. */
size_t json_utf8_len(const unsigned char *p, const unsigned char *end);

/* A type error in progress: the message set where it failed and the path
** collected on the way out.  Steps are allocated in a. */
typedef struct JsonTCtx {
  Arena *a;
  const char *msg;      /* error message, set at the failure point */
  PathStep *steps;      /* path, innermost first, filled while unwinding */
  uint32_t nsteps, capsteps;
} JsonTCtx;

/* Records msg as the failure and returns false. */
bool json_tfail(JsonTCtx *c, const char *msg);
/* Adds a path step (innermost first) while unwinding from a failure. */
void json_tstep(JsonTCtx *c, PathStepKind k, const char *name,
                int64_t index);
/* Appends the error: summary c->msg, detail the path (".a.b[0]"). */
void json_treport(JsonTCtx *c, Diags *d, const SrcRange *where);

#endif
