/*
** planfile_priv: private to the planfile module (core/engine/planfile*.c):
** the envelope's fixed text and the tables the writer (planfile_write.c)
** and the reader (planfile_read.c) share.  Nothing outside planfile*.c
** includes this header.
**
** The format is specified in docs/planfile.md; the contracts are in
** planfile.h.
**
** Values are written against a type: a value whose type is the one its
** position implies (an object attribute's declared type, a list's element
** type) and that carries no flags is written bare, with compound values as
** JSON arrays (objects in attribute order, maps as key/value pairs).
** Everything else is a wrapper object {"t": type index, "m": marks, "v":
** value}: JSON objects are never bare values, so the two cannot be
** confused.  Types are interned into the body's "types" table, so ten
** thousand instances of one resource type share one Type when read back.
*/
#ifndef CAIRN_PLANFILE_PRIV_H
#define CAIRN_PLANFILE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "planfile.h"

/* The envelope: PREFIX, the format version, SHA_KEY, the body's hex
** sha256, BODY_KEY, the body. */
#define PREFIX "{\"cairn_plan\":"
#define PREFIX_LEN (sizeof PREFIX - 1)
#define SHA_KEY ",\"sha256\":\""
#define BODY_KEY "\",\"body\":"

/* Lower-case hex of d[0..n) into out (2n+1 bytes, NUL-terminated). */
void planfile_hex_put(char *out, const uint8_t *d, size_t n);

/* The names of PlAction values (by value) and of plan modes, as the body
** spells them. */
extern const char *const planfile_action_names[8];
#define NACTIONS \
  (sizeof planfile_action_names / sizeof planfile_action_names[0])
extern const char *const planfile_mode_names[3];

#endif
