/*
** b64: base64 (RFC 4648) as Go's encoding/base64 writes and reads it, for
** every user: the state's private data, saved plans, the base64 functions,
** the providers and the protocol clients.
**
** Encoding appends to a Buf: the standard or the URL-safe alphabet, with
** or without '=' padding.  Decoding is base64.StdEncoding.DecodeString:
** the standard alphabet, padding required, CR and LF skipped anywhere,
** nothing but CR and LF after a padded quantum; on malformed input it
** returns false with the offset Go's CorruptInputError reports.  Results
** in the arena given; nothing else is kept.
*/
#ifndef CAIRN_B64_H
#define CAIRN_B64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "buf.h"

/* Appends the base64 of data[0..n) to b. */
void b64_put(Buf *b, const void *data, size_t n, bool url, bool pad);

/* Decodes s[0..n) into *out (in a, *outlen bytes).  False with *bad_at set
** on malformed input. */
bool b64_decode(Arena *a, const char *s, size_t n, uint8_t **out,
                size_t *outlen, size_t *bad_at);

#endif
