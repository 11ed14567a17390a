/*
** objchange_priv: private to the objchange module
** (core/engine/objchange*.c).  What its pieces share: the small value
** helpers every check and merge uses (objchange.c), the path stack and
** error collection of the two assertions (objchange.c), and the rendering
** of values as cty's GoString for reason texts (objchange_gostring.c).
** Nothing outside core/engine/objchange*.c includes this header.
*/
#ifndef CAIRN_OBJCHANGE_PRIV_H
#define CAIRN_OBJCHANGE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "objchange.h"

/* ---- Small value helpers (inline here, the rest in objchange.c) ------- */

static inline bool objc_null(Value v) { return (v.flags & VF_NULL) != 0; }
static inline bool objc_unknown(Value v) { return (v.flags & VF_UNKNOWN) != 0; }
static inline bool objc_kind(Value v, TypeKind k)
{
  return v.type && v.type->kind == k;
}
static inline bool objc_is_seq(Value v)
{
  return objc_kind(v, TY_LIST) || objc_kind(v, TY_TUPLE);
}
static inline bool objc_is_keyed(Value v)
{
  return objc_kind(v, TY_MAP) || objc_kind(v, TY_OBJECT);
}

/* cty RawEquals of unrefinedValue(a) and unrefinedValue(b), ignoring
** marks: same types, same null/unknown state, same content. */
bool objc_ueq(Value a, Value b);

/* Attribute `name` of obj; a null or unknown object gives a null or
** unknown attribute; a missing attribute (or a non-object) gives a null
** (or, for an unknown value, unknown) value of type `fallback`. */
Value objc_attr_of(Value obj, const char *name, const Type *fallback);
bool objc_has_attr(Value obj, const char *name);

/* Element type of a list/set/map, of tuple element i, or dynamic. */
const Type *objc_elem_type(const Type *t, uint32_t i);

/* Number of elements of a known, non-null collection / structural value. */
uint32_t objc_coll_len(Value v);

/* Key i, and value i, of a known map or object. */
const char *objc_key_at(Value v, uint32_t i);
Value objc_keyed_at(Value v, uint32_t i);

/* Looks key up in a known, non-null map or object. */
bool objc_keyed_get(Value v, const char *key, Value *out);

/* ---- Paths and errors (objchange.c) ------------------------------------ */

/* The path being checked, as a stack; copied into an ObjcErr on error. */
typedef struct ObjcCtx {
  Arena *a;
  ObjcErrs *errs;
  PathStep *steps;
  uint32_t n, cap;
  bool quiet;         /* only count problems (set correlation, secrets) */
  uint32_t nquiet;
} ObjcCtx;

/* Pushes a step onto, and pops the last step off, the path being checked. */
void objc_push(ObjcCtx *c, PathStepKind k, const char *name, int64_t index);
void objc_pop(ObjcCtx *c);

/* Appends an error at the current path (counts it only when c->quiet).
** fmt understands %V (a Value, rendered as cty's GoString), %q (a C
** string, Go-quoted), %u (unsigned), %s (a C string) and %L (a length:
** unsigned, or UINT32_MAX for unknown). */
void objc_fail(ObjcCtx *c, const char *fmt, ...);

/* ---- Go-syntax rendering (objchange_gostring.c) ------------------------ */

/* s[0..n) quoted as Go's strconv.Quote does. */
void objc_go_quote(Buf *b, const char *s, size_t n);

/* v as cty's GoString: cty.StringVal("x"), cty.NumberIntVal(1), cty.True,
** cty.NullVal(cty.String), cty.UnknownVal(cty.String) ... */
void objc_go_value(Buf *b, Value v);

#endif
