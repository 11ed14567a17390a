/*
** value: the cty type system and values, as small tagged structs.
**
** Types: string, number, bool, list(T), set(T), map(T), object({...}),
** tuple([...]) and the dynamic pseudo-type ("any").  Primitive types are
** static constants; compound types are built in an arena and compared
** structurally (ty_equal), with a pointer-equality fast path.
**
** Values are 24-byte structs passed by value.  A value of any type may be
** known, unknown (VF_UNKNOWN) or null (VF_NULL), and carries two marks
** that operations propagate: sensitive (VF_SENSITIVE) and ephemeral
** (VF_EPHEMERAL: derived from an ephemeral resource or variable, never
** to be stored in a plan or state; docs/ephemeral.md).  Values never change once
** built: every "modifying" operation returns a new value, and nothing is
** reference-counted: a value and everything it points to belong to the
** arena it was built in (or to a longer-lived one), and may be shared
** between threads once published.
**
** Canonical order: object attributes are sorted by name (byte order), map
** entries by key, set elements by val_compare() with duplicates removed.
** So iterating any collection is deterministic.
**
** Numbers (see docs/values.md): an integer that fits in int64 is held
** exactly (the canonical form of every integral value in range); any other
** number is a double, rendered with at most 15 significant digits in plain
** positional notation (never an exponent), so 0.1 + 0.2 renders as "0.3"
** and 9007199254740993 stays exact.  A number read from JSON whose text is
** not already canonical keeps its literal (VF_NUMLIT) so writing it back
** reproduces the input byte for byte.  Where Terraform's 512-bit floats
** give more digits (1/3), cairn gives 15.
*/
#ifndef CAIRN_VALUE_H
#define CAIRN_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "buf.h"

/* ---- Types ------------------------------------------------------------ */

typedef enum TypeKind {
  TY_DYNAMIC = 0,   /* cty.DynamicPseudoType: "any" */
  TY_STRING,
  TY_NUMBER,
  TY_BOOL,
  TY_LIST,
  TY_SET,
  TY_MAP,
  TY_OBJECT,
  TY_TUPLE
} TypeKind;

typedef struct Value Value;
typedef struct Type Type;

struct Type {
  TypeKind kind;
  uint32_t n;                  /* object attributes / tuple elements */
  const Type *elem;            /* list, set, map: element type */
  const char *const *names;    /* object: attribute names, sorted */
  const Type *const *types;    /* object attribute / tuple element types */
  const uint8_t *optional;     /* object type constraints: optional(T)
                                  flag per attribute, or NULL for none */
  const Value *defaults;       /* object: default per attribute for
                                  optional(T, default); entries with
                                  VF_NULL|VF_NODEFAULT mean none; or NULL */
};

extern const Type ty_dynamic, ty_string, ty_number, ty_bool;

/* Compound type constructors; results live in a. */
const Type *ty_list(Arena *a, const Type *elem);
const Type *ty_set(Arena *a, const Type *elem);
const Type *ty_map(Arena *a, const Type *elem);
/* names need not be sorted (a sorted copy is made); they must be unique.
** optional and defaults may be NULL; when given they follow `names`. */
const Type *ty_object(Arena *a, uint32_t n, const char *const *names,
                      const Type *const *types);
const Type *ty_object_opt(Arena *a, uint32_t n, const char *const *names,
                          const Type *const *types, const uint8_t *optional,
                          const Value *defaults);
/* ty_object without copying the names: the type points at the caller's
** strings, which must live at least as long as the type.  A provider
** schema's implied type uses it so that look-ups by the schema's own
** attribute names find them by pointer (ty_attr_index). */
const Type *ty_object_shared_names(Arena *a, uint32_t n,
                                   const char *const *names,
                                   const Type *const *types);
const Type *ty_tuple(Arena *a, uint32_t n, const Type *const *types);
extern const Type ty_empty_object, ty_empty_tuple;

bool ty_equal(const Type *a, const Type *b);
/* Index of attribute `name` in an object type, or -1. */
int ty_attr_index(const Type *t, const char *name);
static inline bool ty_is_primitive(const Type *t)
{
  return t->kind == TY_STRING || t->kind == TY_NUMBER || t->kind == TY_BOOL;
}
static inline bool ty_is_collection(const Type *t)
{
  return t->kind == TY_LIST || t->kind == TY_SET || t->kind == TY_MAP;
}
/* True when t is or contains the dynamic pseudo-type. */
bool ty_has_dynamic(const Type *t);

/* cty's FriendlyName: "string", "list of string", "object",
** "tuple", "map of number", "dynamic". */
void ty_friendly(Buf *out, const Type *t);
/* HCL type expression: list(string), object({a=number}) ... */
void ty_hcl(Buf *out, const Type *t);

/* ---- Values ----------------------------------------------------------- */

enum {
  VF_NULL = 1 << 0,
  VF_UNKNOWN = 1 << 1,
  VF_SENSITIVE = 1 << 2,
  VF_NOTNULL = 1 << 3,    /* unknown refined as "definitely not null" */
  VF_FLOAT = 1 << 4,      /* number held as a double in u.d */
  VF_NUMLIT = 1 << 5,     /* number held as its literal text in u.s/len */
  VF_NODEFAULT = 1 << 6,  /* in Type.defaults: no default given */
  VF_EPHEMERAL = 1 << 7,
  VF_MARKS = VF_SENSITIVE | VF_EPHEMERAL   /* the marks operations carry */
};

typedef struct MapEntry MapEntry;

struct Value {
  const Type *type;
  uint16_t flags;
  uint32_t len;          /* string bytes, element count, literal length */
  union {
    bool b;
    int64_t i;           /* number, exact integer form */
    double d;            /* number, VF_FLOAT */
    const char *s;       /* string bytes (NUL-terminated; may contain
                            NUL), or number literal text (VF_NUMLIT) */
    const Value *elems;  /* list, set, tuple elements; object attribute
                            values in the type's (sorted) order */
    const MapEntry *entries;  /* map entries, sorted by key */
  } u;
};

struct MapEntry {
  const char *key;       /* NUL-terminated */
  uint32_t keylen;
  Value val;
};

/* Flags */
static inline bool val_is_null(Value v) { return (v.flags & VF_NULL) != 0; }
static inline bool val_is_unknown(Value v)
{
  return (v.flags & VF_UNKNOWN) != 0;
}
static inline bool val_is_known(Value v) { return !(v.flags & VF_UNKNOWN); }
static inline bool val_is_sensitive(Value v)
{
  return (v.flags & VF_SENSITIVE) != 0;
}
static inline Value val_mark(Value v, uint16_t marks)
{
  v.flags = (uint16_t)(v.flags | marks);
  return v;
}
static inline Value val_sensitive(Value v) { return val_mark(v, VF_SENSITIVE); }
static inline Value val_ephemeral(Value v) { return val_mark(v, VF_EPHEMERAL); }
/* Removes both marks from v itself (not from nested values). */
static inline Value val_unmark(Value v)
{
  v.flags = (uint16_t)(v.flags & ~VF_MARKS);
  return v;
}
/* Removes both marks at every depth (copies only when needed). */
Value val_unmark_deep(Arena *a, Value v);
/* True when v or any nested value is sensitive. */
bool val_has_sensitive(Value v);
/* The marks of v and every nested value, or-ed (VF_MARKS bits). */
uint16_t val_marks_deep(Value v);
static inline bool val_has_ephemeral(Value v)
{
  return (val_marks_deep(v) & VF_EPHEMERAL) != 0;
}
/* v with VF_EPHEMERAL on every value at every depth (so an attribute taken
** out of an ephemeral object stays ephemeral). */
Value val_ephemeral_deep(Arena *a, Value v);
/* True when neither v nor any nested value is unknown. */
bool val_is_wholly_known(Value v);

/* Constructors */
Value val_null(const Type *t);
Value val_unknown(const Type *t);
Value val_bool(bool b);
extern const Value val_true, val_false, val_dynamic_unknown, val_dynamic_null;
/* Copies n bytes (and adds a NUL). */
Value val_str(Arena *a, const char *s, size_t n);
Value val_cstr(Arena *a, const char *s);
/* No copy: s[n] must be NUL and s must outlive the value. */
Value val_str_ref(const char *s, size_t n);
Value val_int(int64_t i);
/* A double; integral values in int64 range become the exact integer form.
** NaN is not a value; callers must not pass it. */
Value val_double(double d);
/* Parses a decimal number (sign, digits, fraction, exponent).  With
** keep_literal the text is kept when it is not canonical (JSON round
** trip).  Returns false on a malformed number. */
bool val_parse_number(Arena *a, const char *s, size_t n, bool keep_literal,
                      Value *out);

/* The element arrays below are adopted, not copied: allocate them in an
** arena that outlives the value.  Element values must conform to the
** element type (convert first: conv_unify + conv_convert); a NULL elem
** type takes the first element's type that is not dynamic (no
** unification happens here), or dynamic for an empty list. */
Value val_list(Arena *a, const Type *elem, Value *elems, uint32_t n);
/* Sorts and deduplicates elems in place. */
Value val_set(Arena *a, const Type *elem, Value *elems, uint32_t n);
Value val_tuple(Arena *a, Value *elems, uint32_t n);
/* Sorts entries by key in place; keys must be unique. */
Value val_map(Arena *a, const Type *elem, MapEntry *entries, uint32_t n);
/* names/vals are parallel arrays, any order, unique names. */
Value val_object(Arena *a, uint32_t n, const char *const *names,
                 const Value *vals);
/* Builds an object of an existing object type from values in the type's
** attribute order (adopted). */
Value val_object_typed(const Type *t, Value *vals);
/* An object of like's attribute names (like: an object type, n > 0) with
** vals (like's order) and a new type made of their types: no sort, no
** copy of the names, which the new type shares with like (so like must
** live as long as the result).  Optional flags and defaults are not
** kept (a value's type has none). */
Value val_object_like(Arena *a, const Type *like, Value *vals);

/* Accessors.  All assume a known, non-null value of the right kind. */
double val_num_double(Value v);
/* True and *out set when v is an integer in int64 range. */
bool val_num_int(Value v, int64_t *out);
/* Object attribute by name; *found false (and a dynamic null returned)
** when the type has no such attribute. */
Value val_attr(Value obj, const char *name, bool *found);
/* Map entry by key. */
Value val_map_get(Value m, const char *key, size_t keylen, bool *found);

/* Canonical rendering of a known number: "-12", "0.3", "1000000". */
void val_num_format(Buf *out, Value v);

/* A total order used for set elements and map keys: null < known <
** unknown; then by kind; strings bytewise, numbers numerically, false <
** true, collections element by element then by length. */
int val_compare(Value a, Value b);
/* cty RawEquals: same type, same null/unknown state, same content.
** Marks are compared only when cmp_marks is set. */
bool val_raw_equal(Value a, Value b, bool cmp_marks);

/* ---- Paths ------------------------------------------------------------ */

typedef enum PathStepKind { PS_ATTR, PS_KEY, PS_INDEX } PathStepKind;

typedef struct PathStep {
  PathStepKind kind;
  const char *name;      /* PS_ATTR: attribute name; PS_KEY: map key */
  int64_t index;         /* PS_INDEX */
} PathStep;

typedef struct ValPath {
  const PathStep *steps;
  uint32_t n;
} ValPath;

/* Follows path from v; returns false when a step does not apply. */
bool val_path_get(Value v, ValPath p, Value *out);
/* Renders like Terraform: .a.b["k"][0] (leading dot omitted when
** leading_dot is false). */
void val_path_format(Buf *out, ValPath p, bool leading_dot);

/* ---- added by values ---- */

/* Arithmetic on numbers.  An unknown operand gives an unknown number, a
** null operand a null number (callers report nulls themselves); the result
** is sensitive when either operand is.  Integer results stay exact while
** they fit in int64 and fall back to double on overflow. */
Value val_num_add(Value a, Value b);
Value val_num_sub(Value a, Value b);
Value val_num_mul(Value a, Value b);
Value val_num_neg(Value a);
/* False (and *out untouched) when b is zero. */
bool val_num_div(Value a, Value b, Value *out);
/* Remainder with the dividend's sign (-5 % 3 == -2); false when b is
** zero. */
bool val_num_mod(Value a, Value b, Value *out);
/* Numeric order of two known numbers of any representation: -1, 0, 1. */
int val_num_cmp(Value a, Value b);

#endif
