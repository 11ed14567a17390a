/*
** vars: the values of the root module's input variables, collected from
** every place Terraform takes them from, parsed, converted to the declared
** types and validated (Terraform's command/meta_vars.go,
** backend/backendrun/unparsed_value.go and terraform/eval_variable.go).
**
** Sources, lowest precedence first (a later source replaces an earlier
** value of the same name):
**   1. TF_VAR_name environment variables;
**   2. terraform.tfvars, then terraform.tfvars.json, in the root module
**      directory;
**   3. *.auto.tfvars and *.auto.tfvars.json there, in lexical order;
**   4. -var name=value and -var-file=FILE, in command-line order;
**   5. with -input, an interactive answer for each required variable still
**      without a value (asked in name order).
** Text values (environment, -var, prompt) are taken verbatim as strings
** when the variable has no type or a primitive one, and parsed as an HCL
** expression (pseudo-file "<value for var.NAME>") otherwise.  Values in
** files are constant expressions (no variables, no function calls); .json
** files take their strings literally.
**
** Errors follow Terraform's staging: problems reading the sources stop
** first; then parse errors, values for undeclared variables (an error for
** -var, a warning for files: two named, then one summary; ignored for the
** environment) and missing required variables; then type conversion and
** null checks; then the validation blocks, whose conditions see var.*
** (every root variable, sensitive ones marked) and all functions.  Other
** references in a condition are unknown here, which skips that rule
** (the engine may check it again when it knows more).
**
** Ownership: results, copies of the file texts (registered in `files` for
** snippets) and diagnostics' strings live in `a` / d's arena.  Nothing
** prints.
*/
#ifndef CAIRN_VARS_H
#define CAIRN_VARS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"
#include "lang/eval.h"
#include "plan.h"

typedef enum VarsSrcKind { VARS_CLI_VAR, VARS_CLI_FILE } VarsSrcKind;

/* One -var (text "name=value") or -var-file (text: the path, relative to
** the working directory) argument. */
typedef struct VarsArg {
  VarsSrcKind kind;
  const char *text;
} VarsArg;

typedef struct VarsInput {
  const VarsArg *args;           /* -var and -var-file in command-line order */
  uint32_t nargs;
  const char *dir;               /* root module directory: terraform.tfvars
                                    and *.auto.tfvars[.json] are read here;
                                    NULL means "." */
  char *const *environ;          /* NAME=VALUE strings for TF_VAR_name;
                                    NULL: none */
  bool input;                    /* may prompt for missing required ones */
  /* Asks for a value of v (the command layer prints "var.NAME", the
  ** description and "Enter a value: " and reads one line without its
  ** newline).  Returns NULL at end of input: the variable stays unset.
  ** The string must live as long as `a`. */
  const char *(*prompt)(void *ctx, const CfgVariable *v);
  void *prompt_ctx;
  /* `console`: a required variable without a value is an unknown of its
  ** type instead of an error, and nobody is asked (AllowUnsetVariables). */
  bool allow_unset;
  /* When not NULL, set to true when every error came from conversion,
  ** null checks or validation rules: Terraform reports those from the
  ** graph walk, so `console` still starts after showing them. */
  bool *late_errors;
} VarsInput;

/* Collects, parses, converts and validates the value of every variable
** of root (see above).  *out receives one PlVariable per declared
** variable, sorted by name: the converted value (unmarked: `sensitive`
** says whether to mark it), the default when unset.  On failure (false,
** errors in d) *out still lists every variable, with an unknown value of
** the declared type where no valid value was found.  Warnings may be
** added on success. */
bool vars_collect(Arena *a, const CfgModule *root, const VarsInput *in,
                  SrcFiles *files, PlVariable **out, uint32_t *n, Diags *d);

/* Terraform's compact rendering of a value for the "var.x is ..." lines
** under a diagnostic snippet (format.compactValueStr): "\"text\"", "5",
** "list of string with 2 elements", "object with 1 attribute \"a\"",
** "null".  Shared so that every condition diagnostic reads the same. */
void vars_compact_value(Buf *out, Value v);

/* Evaluates the first len steps of reference t in ctx; false (or errors
** in ctx->diags) when that prefix has no value here. */
typedef bool (*VarsRefEval)(EvalCtx *ctx, const HclTraversal *t,
                            uint32_t len, Value *out);

/* Terraform's expression values under a failed condition's snippet: for
** each reference of e, the longest prefix (two steps or more) that eval
** answers, as "REF is VALUE" (vars_compact_value), leaving out repeats,
** sensitive and unknown values; sorted, added to g.  Scratch memory and
** the lines come from ctx->arena; eval's diagnostics are discarded. */
void vars_add_values(EvalCtx *ctx, const HclExpr *e, VarsRefEval eval,
                     Diag *g, Diags *d);

#endif
