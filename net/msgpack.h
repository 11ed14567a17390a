/*
** msgpack: cty values in MessagePack, as go-cty's msgpack package writes
** and reads them (the DynamicValue.msgpack of the plugin protocol).
**
** Encoding (msgpack_encode) of a value against a type:
** - unknown (at any depth, any type): extension type 0 with one zero byte
**   (fixext1 d4 00 00); refinements (VF_NOTNULL) are not written;
** - null: nil;
** - string: str; bool: true/false;
** - number: an integer in int64 range as the smallest msgpack int; a
**   number that a float64 holds exactly as float64; anything else (0.1,
**   a literal beyond float64) as a str with its decimal text, as cty does
**   for numbers its big floats cannot hand over exactly;
** - list, set, tuple: array (sets in canonical order);
** - map: map with str keys (sorted); object: map of attribute names to
**   values, every attribute of the type, sorted by name;
** - where the type is dynamic, a known non-null value is a 2-element
**   array [cty JSON type as bin, value encoded against that type].
** Sensitive marks are dropped (providers get unmarked values).  A value
** that does not conform to the type (a string where an object is wanted)
** is an error, never a guess.
**
** Decoding (msgpack_decode) against a type follows go-cty's Unmarshal:
** nil is null of the wanted type; extension 0 or 12 (a refined unknown,
** whose refinements are ignored) is unknown; numbers come from any
** msgpack int, float32/64, or a str in decimal notation (kept exactly);
** strings from str or bin; objects from a map whose keys name attributes
** (missing ones are null, an unknown key is "unsupported attribute");
** dynamic from [type JSON, value]; duplicate map keys: the last wins.
** Malformed or truncated input, nesting deeper than MSGPACK_MAX_DEPTH,
** trailing bytes, NaN and type mismatches give one error diagnostic whose
** summary is the caller's and whose detail names the problem and the
** path (".a.b[0]"); never a crash.
**
** Memory: results (values, strings, types, encoded bytes) live in the
** arena given; the input is not referenced after the call.
*/
#ifndef CAIRN_MSGPACK_H
#define CAIRN_MSGPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/value.h"

#define MSGPACK_MAX_DEPTH 256

/* Appends v encoded against t to out.  On a non-conforming value appends
** an error to d (summary given) and returns false; out then holds a
** partial encoding. */
bool msgpack_encode(Buf *out, Value v, const Type *t, Diags *d,
                    const char *summary);

/* Decodes the msgpack document buf[0..len) as type t into *out (arena a).
** On error appends one diagnostic (summary given) to d, sets *out to a
** null of t and returns false. */
bool msgpack_decode(Arena *a, const uint8_t *buf, size_t len, const Type *t,
                    Value *out, Diags *d, const char *summary);

#endif
