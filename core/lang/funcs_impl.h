/*
** funcs_impl: private to the funcs module (core/funcs*.c).
**
** Shared helpers (UTF-8, string results, collection access, conversion
** and unification as cty does them) and the prototypes of every function
** implementation listed in the table in funcs.c.  Nothing outside core/
** funcs*.c includes this header.
*/
#ifndef CAIRN_FUNCS_IMPL_H
#define CAIRN_FUNCS_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/value.h"
#include "funcs.h"

/* ---- UTF-8 ------------------------------------------------------------ */

/* Decodes one rune at s (n > 0 bytes left); *len gets its byte length.
** Invalid sequences decode as U+FFFD with length 1. */
uint32_t fn_utf8_dec(const char *s, size_t n, size_t *len);
bool fn_utf8_valid(const char *s, size_t n);
/* Number of user-perceived characters (code points, with combining
** marks and joiners folded into the preceding one). */
size_t fn_graphemes(const char *s, size_t n);
/* Byte length of the grapheme cluster starting at s. */
size_t fn_grapheme_len(const char *s, size_t n);

/* Simple case mapping (funcs_str.c). */
uint32_t fn_case_lower(uint32_t r);
uint32_t fn_case_upper(uint32_t r);

/* ---- Values ----------------------------------------------------------- */

extern const Type fn_ty_list_string, fn_ty_list_dynamic, fn_ty_set_string,
    fn_ty_map_string, fn_ty_list_number, fn_ty_set_dynamic,
    fn_ty_map_dynamic, fn_ty_list_bool;

/* String value holding b's bytes (no copy: b's storage is in the arena). */
Value fn_buf_val(Buf *b);
/* Elements of a list, set or tuple; attribute values of an object; map
** values.  Count in *n. */
const Value *fn_elems(Value v, uint32_t *n);
/* Element type of a list/set/map, or the unification of a tuple's or
** object's element types (NULL when they do not unify). */
const Type *fn_elem_type(Arena *a, Value v);
bool fn_is_seq(const Type *t);   /* list, set, tuple */
bool fn_is_mapish(const Type *t); /* map, object */
/* Number helpers: exact int64 when v is integral. */
bool fn_num_i64(Value v, int64_t *out);

/* ---- Conversion (cty convert) ----------------------------------------- */

/* Converts v to the type constraint want (which may contain dynamic), as
** cty's unsafe conversion does.  On failure *msg (allocated in a) gets
** cty's message ("a number is required", "list of string required").
** Marks on v are kept (deep). */
bool fn_convert(Arena *a, Value v, const Type *want, Value *out,
                const char **msg);
/* cty's unification: the most general type all of ts convert to, or
** NULL.  unsafe allows string->number/bool. */
const Type *fn_unify(Arena *a, const Type *const *ts, uint32_t n,
                     bool unsafe);
/* Converts values to their unified type in place; false (with msg)
** when they do not unify. */
bool fn_unify_vals(Arena *a, Value *vals, uint32_t n, const Type **ty,
                   const char **msg);


/* ---- Implementations -------------------------------------------------- */

#define FN_IMPL(n) \
  bool fn_##n(FnCall *c, const Value *args, uint32_t nargs, Value *out);

/* numeric */
FN_IMPL(abs) FN_IMPL(ceil) FN_IMPL(floor) FN_IMPL(log) FN_IMPL(max)
FN_IMPL(min) FN_IMPL(parseint) FN_IMPL(pow) FN_IMPL(signum)
/* string */
FN_IMPL(chomp) FN_IMPL(endswith) FN_IMPL(format) FN_IMPL(formatlist)
FN_IMPL(indent) FN_IMPL(join) FN_IMPL(lower) FN_IMPL(regex)
FN_IMPL(regexall) FN_IMPL(replace) FN_IMPL(split) FN_IMPL(startswith)
FN_IMPL(strcontains) FN_IMPL(strrev) FN_IMPL(substr) FN_IMPL(title)
FN_IMPL(trim) FN_IMPL(trimprefix) FN_IMPL(trimsuffix) FN_IMPL(trimspace)
FN_IMPL(upper) FN_IMPL(templatestring)
/* collection */
FN_IMPL(alltrue) FN_IMPL(anytrue) FN_IMPL(chunklist) FN_IMPL(coalesce)
FN_IMPL(coalescelist) FN_IMPL(compact) FN_IMPL(concat) FN_IMPL(contains)
FN_IMPL(distinct) FN_IMPL(element) FN_IMPL(flatten) FN_IMPL(index)
FN_IMPL(keys) FN_IMPL(length) FN_IMPL(list) FN_IMPL(lookup_fn) FN_IMPL(map)
FN_IMPL(matchkeys) FN_IMPL(merge) FN_IMPL(one) FN_IMPL(range)
FN_IMPL(reverse) FN_IMPL(setintersection) FN_IMPL(setproduct)
FN_IMPL(setsubtract) FN_IMPL(setunion) FN_IMPL(slice) FN_IMPL(sort)
FN_IMPL(sum) FN_IMPL(transpose) FN_IMPL(values) FN_IMPL(zipmap)
/* encoding */
FN_IMPL(base64decode) FN_IMPL(base64encode) FN_IMPL(base64gzip)
FN_IMPL(csvdecode) FN_IMPL(jsondecode)
FN_IMPL(jsonencode) FN_IMPL(textdecodebase64) FN_IMPL(textencodebase64)
FN_IMPL(urlencode) FN_IMPL(urldecode) FN_IMPL(yamldecode)
FN_IMPL(yamlencode)
/* filesystem */
FN_IMPL(abspath) FN_IMPL(dirname) FN_IMPL(pathexpand) FN_IMPL(basename)
FN_IMPL(file) FN_IMPL(fileexists) FN_IMPL(fileset) FN_IMPL(filebase64)
FN_IMPL(templatefile)
/* date and time */
FN_IMPL(formatdate) FN_IMPL(plantimestamp) FN_IMPL(timeadd)
FN_IMPL(timecmp) FN_IMPL(timestamp)
/* hash and crypto */
FN_IMPL(base64sha256) FN_IMPL(base64sha512) FN_IMPL(bcrypt)
FN_IMPL(filebase64sha256) FN_IMPL(filebase64sha512) FN_IMPL(filemd5)
FN_IMPL(filesha1) FN_IMPL(filesha256) FN_IMPL(filesha512) FN_IMPL(md5)
FN_IMPL(rsadecrypt) FN_IMPL(sha1) FN_IMPL(sha256) FN_IMPL(sha512)
FN_IMPL(uuid) FN_IMPL(uuidv5)
/* IP network */
FN_IMPL(cidrcontains) FN_IMPL(cidrhost) FN_IMPL(cidrnetmask)
FN_IMPL(cidrsubnet) FN_IMPL(cidrsubnets)
/* type conversion and marks */
FN_IMPL(ephemeralasnull) FN_IMPL(issensitive) FN_IMPL(nonsensitive)
FN_IMPL(sensitive) FN_IMPL(tobool) FN_IMPL(tolist) FN_IMPL(tomap)
FN_IMPL(tonumber) FN_IMPL(toset) FN_IMPL(tostring) FN_IMPL(type)
/* provider::terraform:: */
FN_IMPL(encode_tfvars) FN_IMPL(decode_tfvars) FN_IMPL(encode_expr)

#undef FN_IMPL

/* The most one function call reads from a file (file, filebase64,
** templatefile, filemd5...): 1 GiB, docs/functions.md. */
#define FN_MAX_FILE_BYTES ((size_t)1 << 30)

/* Shared by the file* functions: reads base_dir-relative path into the
** arena, to end of file (pipes too) and at most FN_MAX_FILE_BYTES; false
** with the function error set. */
bool fn_read_file(FnCall *c, Value path, const char **data, size_t *n);

/* bcrypt with a given salt (for tests against known hashes). */
void fn_bcrypt_salted(Buf *out, Arena *a, const char *pass,
                      const uint8_t salt[16], int cost);

/* Regex (funcs_re.c): RE2 syntax on UTF-8. */
typedef struct FnRe FnRe;
/* Compiles pat; NULL on failure with *err set to Go's error code and
** the offending expression, separated by a 0x1F byte. */
FnRe *fn_re_compile(Arena *a, const char *pat, size_t n, const char **err);
/* Number of capture groups (not counting the whole match). */
uint32_t fn_re_ncap(const FnRe *re);
/* Name of group i (1-based), or NULL. */
const char *fn_re_capname(const FnRe *re, uint32_t i);
/* Searches s[start..n) (s is the whole subject for anchors and \b);
** caps gets 2*(ncap+1) byte offsets (-1 for groups that did not
** participate).  Leftmost-first (Perl) semantics like Go's regexp. */
bool fn_re_match(const FnRe *re, Arena *scratch, const char *s, size_t n,
                 size_t start, long *caps);

#endif
