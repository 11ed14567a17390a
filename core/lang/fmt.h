/*
** fmt: Terraform's canonical formatting (`terraform fmt`) over the raw
** token stream of core/lang/hcl.h's lexer.
**
** The result is hclwrite's format() (indentation by bracket nesting,
** spacing by token pairs, alignment of `=` and trailing comments) applied
** after Terraform's rewrites: block labels quoted (comments between them
** dropped), interpolation-only values "${x}" unwrapped, and the type of a
** top-level `variable` block normalised ("string" -> string, "list" ->
** list(string), "map" -> map(string), list/map/set -> X(any)).
** Formatting only changes whitespace between tokens, never their text
** (except for the rewrites above).  See docs/fmt.md.
**
** Contracts:
** - fmt_source never fails on lexically valid input; lexical errors go to
**   d and the function returns false with *out left empty.  Syntax
**   errors beyond the lexer are the caller's to detect (Terraform refuses
**   to format a file that does not parse; cmd_fmt checks with the parser).
** - The output lives in arena a; src need not be NUL-terminated.
** - Linear in the input size (alignment groups are scanned twice).
*/
#ifndef CAIRN_FMT_H
#define CAIRN_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

/* Formats src into out (appended).  file names the source for
** diagnostics.  Returns false when the lexer reported errors. */
bool fmt_source(Arena *a, const char *file, const char *src, size_t len,
                Buf *out, Diags *d);

/* Appends to out the unified diff turning x into y, as `diff -u` with
** --label old_label --label new_label prints it (what `terraform fmt
** -diff` shows): "---"/"+++" headers, hunks with 3 lines of context,
** "\ No newline at end of file" markers.  Nothing when x equals y.
** The edit script is a shortest one (Myers) while it has at most 2,000
** changed lines and costs at most 40M steps; beyond that the changed
** middle is one replace hunk and the function returns false (the diff is
** still correct).  Scratch memory is the function's own (a is kept for
** callers' symmetry and unused); out may live in any arena. */
bool fmt_unified_diff(Arena *a, Buf *out, const char *old_label,
                      const char *new_label, const char *x, size_t xn,
                      const char *y, size_t yn);

#endif
