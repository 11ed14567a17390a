/*
** json: a fast JSON parser into cty values (core/base/value.h), cty's typed JSON
** decoding, cty's JSON type syntax, and a writer that reproduces Go's
** encoding/json byte for byte (compact, or MarshalIndent with "  ").
**
** Generic parse (json_parse), cty's ImpliedType + Unmarshal:
**   object -> object value (attribute names sorted bytewise), array ->
**   tuple, string -> string, number -> number, true/false -> bool,
**   null -> val_dynamic_null.
** - Numbers keep their literal: a canonical integer ("42") becomes the
**   exact integer form; any other text ("1.50", "1e400", "-0.0",
**   "12345678901234567890123") is kept as VF_NUMLIT so json_w_value
**   writes the same bytes back.
** - Duplicate object keys: the LAST one wins, silently, as in Go's
**   encoding/json and cty (ImpliedType and Unmarshal both assign into a
**   Go map).  Not an error.
** - Strings: escapes are decoded as Go does: a \u escape of a lone or
**   mismatched UTF-16 surrogate becomes U+FFFD; raw bytes that are not
**   valid UTF-8 become U+FFFD one byte at a time (JSON_STRICT_UTF8 makes
**   them an error instead).  Control characters below 0x20 must be
**   escaped.  \u0000 is allowed in string values; an object KEY holding
**   a NUL byte is rejected because Type attribute names are C strings.
** - Limits: nesting deeper than JSON_MAX_DEPTH (512) containers, or input
**   longer than the size limit (JsonOpts.max_size; default
**   JSON_DEFAULT_MAX_SIZE, never above 4 GiB - 2 because SrcPos offsets are
**   32-bit) give a diagnostic.  The parser is iterative: no recursion, so
**   hostile nesting cannot overflow the C stack.
** - Errors: one DIAG_ERROR whose subject range holds the byte offset,
**   line and column (1-based, columns count UTF-8 characters) of the
**   offending byte; the summary names the problem ("Invalid JSON:
**   unexpected character 'x'", "Unterminated string", "Invalid escape
**   sequence", "Nesting too deep", "Trailing data after JSON value", ...)
**   and the detail repeats the position and says what was expected.
**
** Memory: every value, string and Type of a result is allocated in the
** arena `a` given to the call; the input buffer is not referenced after
** the call returns (strings are copied), so it may be freed.  Object and
** tuple Types are interned per parse: the thousands of identically shaped
** objects of a state file share one Type.  Scratch space (the pending
** children of open containers, hash tables) lives in a private arena that
** is released before returning; container element arrays are allocated
** exactly once, at their final size.  On failure *out is set to
** val_dynamic_null and whatever was allocated in `a` stays there.
**
** Typed decode (json_decode_typed / json_value_typed) follows go-cty's
** json.Unmarshal(buf, type):
** - null -> null of the wanted type (at any depth, also for dynamic);
** - string: from a JSON string, a number (its literal text) or a bool
**   ("true"/"false");
** - number: from a number, or from a string in decimal notation (the
**   string's value, not its text, is kept);
** - bool: from a bool, or from the strings "true"/"1"/"false"/"0";
** - list, set, tuple: from an array (tuples need exactly their arity:
**   "too many tuple elements (need N)" / "not enough ...");
** - map, object: from a JSON object; a key that is not an attribute gives
**   "unsupported attribute \"x\""; missing attributes become null;
** - dynamic: from {"value": V, "type": T} (the cty dynamic wrapper), V
**   decoded with the type T.
** Type errors produce one diagnostic whose summary is cty's message
** ("string is required", "missing expected [", ...) and whose detail is
** the path to the offending value (".a.b[0]") or "" at the top level;
** the subject range is that of the whole document.
**
** Writer (JsonW): streams JSON into a Buf.  Compact output is Go's
** json.Marshal; JSON_W_INDENT gives json.MarshalIndent(v, "", "  "):
** a newline and two spaces per level before each element, "key": value
** with one space, and empty containers as {} and [].  Strings are escaped
** like Go's encoder with HTML escaping on (Terraform's state writer):
** \" \\ \n \r \t \b \f, other controls and < > & as \u00XX (lower-case
** hex), U+2028/U+2029 as \u2028/\u2029, invalid UTF-8 as \ufffd.
** json_w_value writes cty values as go-cty's json.Marshal: object
** attributes and map keys sorted, sets in canonical order, numbers as
** their literal (VF_NUMLIT) or canonical text, and values of dynamic
** type as {"value":V,"type":T}.  Unknown values cannot be written: by
** default that is an error ("value is not known"), JSON_W_UNKNOWN_NULL
** writes null instead.  Sensitive marks are ignored (the value is written
** in clear, as Terraform does after unmarking) unless JSON_W_REJECT_MARKS
** asks for cty's "value has marks, so it cannot be serialized as JSON".
** On error the buffer holds a partial document.
**
** Type syntax (cty's Type.MarshalJSON): "string", "number", "bool",
** "dynamic", ["list",T], ["set",T], ["map",T], ["tuple",[T...]],
** ["object",{"a":T...}] plus an optional third element listing the
** optional attributes, sorted.
*/
#ifndef CAIRN_JSON_H
#define CAIRN_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "buf.h"
#include "diag.h"
#include "value.h"

#define JSON_MAX_DEPTH 512
#define JSON_DEFAULT_MAX_SIZE ((size_t)1 << 30)   /* 1 GiB */

enum {
  JSON_STRICT_UTF8 = 1 << 0   /* invalid UTF-8 in strings is an error */
};

typedef struct JsonOpts {
  const char *file;     /* file name for diagnostics; NULL: "<json>" */
  size_t max_size;      /* input limit in bytes; 0: JSON_DEFAULT_MAX_SIZE */
  uint32_t max_depth;   /* 0 or above JSON_MAX_DEPTH: JSON_MAX_DEPTH */
  unsigned flags;       /* JSON_STRICT_UTF8 */
} JsonOpts;

/* ---- Reading ------------------------------------------------------------ */

/* Parses one JSON document (surrounding whitespace allowed) into a value
** of implied type.  opts may be NULL.  Returns false after adding one
** error diagnostic to d. */
bool json_parse(Arena *a, const char *buf, size_t len, Value *out, Diags *d,
                const JsonOpts *opts);

/* Parses buf and decodes it as type t with go-cty's json.Unmarshal rules
** (see above).  Returns false with one diagnostic on a syntax or type
** error.  The result shares t's attribute names as json_value_typed's
** does. */
bool json_decode_typed(Arena *a, const char *buf, size_t len, const Type *t,
                       Value *out, Diags *d, const JsonOpts *opts);

/* The typed half alone: converts v, a value produced by json_parse (or a
** part of one, e.g. the "attributes" of a state instance), to type t.
** Strings and literals of v are shared, not copied, so v's arena must
** live as long as the result's; so are t's attribute names (an object
** type with dynamic attributes gets a type of its values' types that
** shares t's names), so t must too.  `where` (may be NULL) is the subject
** range of type-error diagnostics.  A v that already has type t (the
** state reader types root outputs; an apply records typed ones) is
** returned as it is. */
bool json_value_typed(Arena *a, Value v, const Type *t, Value *out,
                      Diags *d, const SrcRange *where);

/* Parses cty's JSON type syntax. */
bool json_parse_type(Arena *a, const char *buf, size_t len, const Type **out,
                     Diags *d, const JsonOpts *opts);
/* The same, from an already parsed JSON value (e.g. outputs[x].type). */
bool json_type_from_value(Arena *a, Value v, const Type **out, Diags *d,
                          const SrcRange *where);

/* ---- Writing ------------------------------------------------------------ */

enum {
  JSON_W_INDENT = 1 << 0,        /* MarshalIndent(v, "", "  ") layout */
  JSON_W_UNKNOWN_NULL = 1 << 1,  /* write unknown values as null */
  JSON_W_REJECT_MARKS = 1 << 2   /* sensitive values are an error */
};

/* A streaming writer.  Calls must form one well-nested document: at
** object level every value is preceded by json_w_key.  The writer adds
** commas, and newlines and indentation in JSON_W_INDENT mode.  No
** trailing newline is written (Terraform adds one itself). */
typedef struct JsonW {
  Buf *out;
  unsigned flags;
  uint32_t depth;
  bool first;       /* nothing written yet in the innermost container */
  bool after_key;   /* a key was written; its value comes next */
} JsonW;

void json_w_init(JsonW *w, Buf *out, unsigned flags);
void json_w_begin_object(JsonW *w);
void json_w_end_object(JsonW *w);
void json_w_begin_array(JsonW *w);
void json_w_end_array(JsonW *w);
void json_w_key(JsonW *w, const char *key, size_t n);
void json_w_keyz(JsonW *w, const char *key);     /* NUL-terminated */
void json_w_string(JsonW *w, const char *s, size_t n);
void json_w_stringz(JsonW *w, const char *s);
/* A number literal, written as given (the caller vouches for its syntax). */
void json_w_number_lit(JsonW *w, const char *s, size_t n);
void json_w_int(JsonW *w, int64_t i);
void json_w_uint(JsonW *w, uint64_t u);
void json_w_bool(JsonW *w, bool b);
void json_w_null(JsonW *w);
/* A JSON fragment (e.g. a stored raw message), re-laid-out in the
** writer's mode as Go's MarshalIndent does with a json.RawMessage.  The
** fragment is trusted to be valid JSON. */
void json_w_raw(JsonW *w, const char *json, size_t n);
/* A cty value (see above); t is the type to encode against (NULL: v's own
** type); a dynamic t wraps a typed v as {"value":..,"type":..}.  Errors
** go to d with the value's path in the detail; returns false on error. */
bool json_w_value(JsonW *w, Value v, const Type *t, Diags *d);
/* A type in cty's JSON type syntax. */
void json_w_type(JsonW *w, const Type *t);

/* Whole documents into out (appended). */
bool json_write_value(Buf *out, Value v, const Type *t, unsigned flags,
                      Diags *d);
void json_write_type(Buf *out, const Type *t);
/* One JSON string literal with Go's escaping, quotes included. */
void json_write_string(Buf *out, const char *s, size_t n);

#endif
