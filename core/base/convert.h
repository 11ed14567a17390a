/*
** convert: cty's type conversion and type unification (go-cty's convert
** package), plus Terraform's optional-attribute defaults.
**
** Conversion follows cty rule for rule (docs/values.md, language.md
** §3.11): a static check on the types first (a failure gives cty's
** MismatchMessage, e.g. "attribute \"name\" is required" or "incorrect
** list element type: string required", with an empty path), then a walk
** over the value, whose failures carry the message and the path where they
** happened (e.g. [1]: "a number is required").  Marks are kept at every
** depth; unknown and null values convert to unknown/null of the target
** type; converting to the dynamic pseudo-type is a no-op.
**
** "Safe" conversion never loses information (number -> string, set ->
** list ...); "unsafe" conversion also allows string -> number/bool,
** list -> set, map -> object and dynamic -> anything, and is what
** Terraform uses for variables, function arguments and conditionals.
**
** Optional attributes: an object type whose attribute is optional (Type
** .optional) accepts an input without it, and the result holds null or,
** when Type.defaults gives one, the default (converted to the attribute's
** type, so nested defaults apply too).  A null input attribute is replaced
** by the default as well; a null or unknown object is left alone.  This is
** Terraform 1.3's typeexpr.Defaults.Apply folded into the conversion.
**
** Memory: results, error texts and paths live in the arena given.  Nothing
** here prints; errors are returned in a ConvError for the caller to turn
** into a diagnostic.
*/
#ifndef CAIRN_CONVERT_H
#define CAIRN_CONVERT_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "buf.h"
#include "value.h"

typedef struct ConvError {
  const char *msg;   /* cty's text, no trailing period */
  ValPath path;      /* where the walk failed; n == 0 at the top or for a
                        static type mismatch */
} ConvError;

/* Converts in to want.  On success *out is set and true returned; on
** failure *err (may be NULL) describes why and *out is untouched. */
bool conv_convert(Arena *a, Value in, const Type *want, bool unsafe,
                  Value *out, ConvError *err);

/* The static check alone: would a value of type `in` convert to `want`
** (cty's GetConversion != nil; identical types always do)?  a holds
** scratch types. */
bool conv_possible(Arena *a, const Type *in, const Type *want, bool unsafe);

/* cty Unify / UnifyUnsafe: the type all of types[0..n) convert to, or NULL
** when there is none (or n == 0). */
const Type *conv_unify(Arena *a, const Type *const *types, uint32_t n,
                       bool unsafe);

/* cty MismatchMessage(got, want): why a `got` cannot become a `want`. */
void conv_mismatch_message(Buf *out, Arena *a, const Type *got,
                           const Type *want);

/* cty FriendlyNameForConstraint: like ty_friendly but "any type" for
** dynamic and "list of any single type" for list(any). */
void conv_friendly_constraint(Buf *out, const Type *t);

/* Terraform's tfdiags.FormatError: `.a[0]: msg`, or just msg at the top. */
void conv_error_format(Buf *out, const ConvError *e);

/* cty WithoutOptionalAttributesDeep: t with every optional flag and
** default removed (t itself when it has none). */
const Type *conv_strip_optional(Arena *a, const Type *t);

#endif
