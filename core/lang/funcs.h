/*
** funcs: Terraform's built-in function library, as one table.
**
** Every function Terraform offers without a network (numeric, string,
** collection, encoding, filesystem, date/time, hash/crypto, IP network,
** type conversion, marks) is an FnDef in one sorted table; fn_lookup()
** finds a definition by name (a "core::" prefix is accepted), fn_call()
** runs it with cty's generic function machinery:
**
**   1. arity: too few / too many arguments;
**   2. each argument converted to its parameter's type constraint;
**   3. null rejected unless the parameter allows it;
**   4. an unknown argument makes the result an unknown of the return type
**      unless the parameter allows unknowns (FN_WHOLLY_KNOWN extends this
**      to unknowns nested anywhere in an argument);
**   5. sensitive marks are removed from the arguments and put on the
**      result, unless the parameter handles marks itself (FP_MARKED);
**   6. the implementation.
**
** Errors: fn_call() returns false and fills FnCall.err with Terraform's
** diagnostic summary and detail, fully formatted (for example "Error in
** function call" / "Call to function \"x\" failed: msg.") plus the index
** of the argument the error is about (-1 for the call as a whole, and
** for arity errors the index of the first extra argument or -1), so the
** evaluator only has to attach source ranges.
**
** Special forms: `try` and `can` need their arguments unevaluated, and
** `templatefile` / `templatestring` need the template engine.  The first
** two are in the table with FN_SPECIAL and no implementation: the
** evaluator must handle them before calling fn_call().  The template
** functions call FnCall.render_template, a hook the evaluator sets.
**
** Memory: results are built in FnCall.arena and may share storage with
** the arguments (which must therefore live at least as long).  Nothing is
** freed; scratch work happens in the same arena.
**
** Threads: the table is constant; FnCall is per call site and per thread.
*/
#ifndef CAIRN_FUNCS_H
#define CAIRN_FUNCS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/value.h"

typedef struct FnCall FnCall;

/* Parameter flags (cty function.Parameter). */
enum {
  FP_NULL = 1 << 0,      /* AllowNull */
  FP_UNKNOWN = 1 << 1,   /* AllowUnknown: the impl sees unknowns */
  FP_MARKED = 1 << 2,    /* AllowMarked: the impl sees (and handles) marks */
  FP_DYNAMIC = 1 << 3    /* AllowDynamicType */
};

/* Function flags. */
enum {
  FN_SPECIAL = 1 << 0,      /* try/can: evaluated by the evaluator itself */
  FN_IMPURE = 1 << 1,       /* bcrypt, timestamp, uuid: unknown when
                               FnCall.pure_only */
  FN_FS = 1 << 2,           /* reads files relative to FnCall.base_dir */
  FN_NOTEMPLATE = 1 << 3,   /* not callable from inside a template
                               rendered by templatefile/templatestring */
  FN_WHOLLY_KNOWN = 1 << 4, /* any unknown nested in an argument makes
                               the result unknown */
  FN_REMOVED = 1 << 5,      /* list(), map(): always an error */
  FN_CONSOLE = 1 << 6,      /* type(): only in `terraform console` */
  FN_PLAN = 1 << 7,         /* plantimestamp: not in console */
  FN_NULLABLE = 1 << 8      /* tobool/tonumber/tostring: null in, null
                               out, so an unknown result is not refined
                               as non-null */
};

typedef struct FnParam {
  const char *name;
  const Type *type;         /* type constraint; &ty_dynamic for any */
  uint8_t flags;            /* FP_* */
} FnParam;

/* Implementation: args are converted and checked as described above.
** Returns false after setting the error with fn_error()/fn_arg_error(). */
typedef bool (*FnImpl)(FnCall *c, const Value *args, uint32_t nargs,
                       Value *out);
/* Return type for the given (possibly unknown) arguments, used for the
** unknown short-circuit; NULL in FnDef means FnDef.ret. */
typedef const Type *(*FnRetType)(FnCall *c, const Value *args,
                                 uint32_t nargs);

typedef struct FnDef {
  const char *name;
  const FnParam *params;    /* positional parameters */
  uint8_t nparams;
  const FnParam *varparam;  /* variadic parameter or NULL */
  const Type *ret;          /* fixed return type (&ty_dynamic: varies) */
  FnRetType ret_fn;         /* or computed from the arguments */
  FnImpl impl;              /* NULL for FN_SPECIAL */
  uint32_t flags;           /* FN_* */
} FnDef;

/* Renders a template (source src[0..n), named `name` for diagnostics)
** with the variables in `vars` (an object or map value, or null) and
** every function except templatefile/templatestring.  On failure the
** hook sets c->err (summary/detail) and returns false. */
typedef bool (*FnTemplateHook)(FnCall *c, const char *name, const char *src,
                               size_t n, Value vars, Value *out);

typedef struct FnError {
  const char *summary;      /* "Error in function call", ... */
  const char *detail;       /* full sentence, ends with '.' */
  const char *msg;          /* the bare message from the function */
  int arg;                  /* argument index, -1 for the whole call */
} FnError;

struct FnCall {
  Arena *arena;             /* results and scratch */
  const char *base_dir;     /* path.module, for relative file names;
                               NULL means the current directory */
  FnTemplateHook render_template;  /* set by the evaluator */
  void *hook_ctx;           /* for render_template and decode_tfvars */
  /* provider::terraform::decode_tfvars: parses src as a .tfvars file
  ** into an object value; sets c->err and returns false on failure. */
  bool (*decode_tfvars)(FnCall *c, const char *src, size_t n, Value *out);
  bool in_template;         /* inside templatefile/templatestring */
  bool pure_only;           /* validate: impure functions give unknown */
  bool console;             /* terraform console: type() allowed,
                               plantimestamp not */
  bool has_plan_time;       /* plan_time below is set */
  int64_t plan_time_sec;    /* plantimestamp(): Unix seconds (UTC) */
  int32_t plan_time_nsec;
  FnError err;              /* filled when a call fails */
  const FnDef *def;         /* the function being called (set by fn_call) */
};

/* Sets the defaults: arena, everything else zero. */
void fn_call_init(FnCall *c, Arena *a);

/* The definition called `name` (optionally "core::name"), or NULL. */
const FnDef *fn_lookup(const char *name);

/* The whole table, sorted by name. */
const FnDef *fn_table_get(uint32_t *n);

/* Runs f with args (nargs values; already evaluated, unconverted).  On
** success *out is the result.  On failure returns false with c->err set
** and *out the dynamic unknown. */
bool fn_call(const FnDef *f, FnCall *c, const Value *args, uint32_t nargs,
             Value *out);

/* For implementations: record a failure ("Call to function ... failed")
** or an argument error ("Invalid value for ... parameter").  Always
** return false so an impl can `return fn_error(...)`. */
bool fn_error(FnCall *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
bool fn_arg_error(FnCall *c, int arg, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* `metadata functions -json`: Terraform's document of the built-in
** function signatures (format_version "1.0"; see funcs_meta.c for what is
** listed), appended to out without a newline.  Scratch in a. */
void fn_metadata_json(Buf *out, Arena *a);

/* bcrypt ("$2a$", Go's golang.org/x/crypto/bcrypt) of pass[0..n) with a
** 16-byte salt: the "$2a$CC$<salt><hash>" string appended to out.  Only
** the first 72 bytes of the password count (the bcrypt limit).  Shared
** with the random provider's bcrypt_hash attribute. */
void fn_bcrypt_hash(Buf *out, Arena *a, const char *pass, size_t n,
                    const uint8_t salt[16], int cost);

/* Digests (funcs_hash.c, through mbedTLS): out must hold 16/20/32/64
** bytes.  The one place cairn hashes; providers use these too. */
void fn_dig_md5(const void *p, size_t n, uint8_t out[16]);
void fn_dig_sha1(const void *p, size_t n, uint8_t out[20]);
void fn_dig_sha256(const void *p, size_t n, uint8_t out[32]);
void fn_dig_sha512(const void *p, size_t n, uint8_t out[64]);

#endif
