/*
** state_priv: private to the state module (core/state/state*.c); nothing
** else includes it.  Shared between the model (state.c), addresses
** (state_addr.c), reading (state_read.c) and writing (state_write.c):
** the mode names, the identifier rule of addresses (also used to check a
** terraform_version), and the accessors for parsed JSON values that both
** the reader and the check-results writer use.
*/
#ifndef CAIRN_STATE_PRIV_H
#define CAIRN_STATE_PRIV_H

#include <stdbool.h>

#include "state.h"

#ifndef CAIRN_VERSION
#define CAIRN_VERSION "0.0.0"
/* Copies of parsed values in another arena (state_copy.c).  st_read
** parses a file in scratch and copies into the state's arena only what
** the state keeps.  Types and attribute names are copied once each and
** shared by every copied value that had them (mapped by address: the
** parser interns them); primitive types become the static ones.  The
** copier's maps live in `scratch`, the copies in `dst`; the source
** values are not referenced by the results. */
typedef struct StCopier StCopier;
StCopier *st_copier_new(Arena *scratch, Arena *dst);
Value st_copy_value(StCopier *c, Value v);
const Type *st_copy_type(StCopier *c, const Type *t);
/* n bytes of s plus a NUL, in dst. */
char *st_copy_str(StCopier *c, const char *s, size_t n);
/* A dependency address: one copy per distinct string per copier. */
const char *st_copy_dep(StCopier *c, const char *s);

#endif

/* "data" or "managed", as the v4 file and the journal spell a mode. */
const char *st_mode_str(StMode m);

/* A byte that may continue an HCL identifier (letters, digits, '_', '-',
** any non-ASCII byte). */
bool st_is_id_cont(unsigned char c);

/* Parsed JSON: non-null object (JSON object), tuple (array), string. */
static inline bool st_is_obj(Value v)
{
  return !val_is_null(v) && v.type->kind == TY_OBJECT;
}

static inline bool st_is_arr(Value v)
{
  return !val_is_null(v) && v.type->kind == TY_TUPLE;
}

static inline bool st_is_str(Value v)
{
  return !val_is_null(v) && v.type->kind == TY_STRING;
}

/* Attribute name of obj, or a dynamic null when absent (*found, if not
** NULL, says which). */
static inline Value st_get(Value obj, const char *name, bool *found)
{
  bool f = false;
  Value v = val_attr(obj, name, &f);
  if (found)
    *found = f;
  if (!f)
    return val_dynamic_null;
  return v;
}

/* Copies of parsed values in another arena (state_copy.c).  st_read
** parses a file in scratch and copies into the state's arena only what
** the state keeps.  Types and attribute names are copied once each and
** shared by every copied value that had them (mapped by address: the
** parser interns them); primitive types become the static ones.  The
** copier's maps live in `scratch`, the copies in `dst`; the source
** values are not referenced by the results. */
typedef struct StCopier StCopier;
StCopier *st_copier_new(Arena *scratch, Arena *dst);
Value st_copy_value(StCopier *c, Value v);
const Type *st_copy_type(StCopier *c, const Type *t);
/* n bytes of s plus a NUL, in dst. */
char *st_copy_str(StCopier *c, const char *s, size_t n);
/* A dependency address: one copy per distinct string per copier. */
const char *st_copy_dep(StCopier *c, const char *s);

#endif
