/*
** diag: diagnostics, collected and never thrown.
**
** A diagnostic is Terraform's tfdiags.Diagnostic: a severity, a summary, a
** detail, an optional resource address, and optional source ranges for the
** subject (what is wrong) and its context (the enclosing construct).  Code
** deep inside cairn only ever appends to a Diags list; the command layer
** decides how to render (human or JSON) and which exit status follows.
**
** Ownership: every string and node lives in the arena given to diag_init();
** strings passed in are copied, so callers may pass scratch memory.
**
** Rendering needs the source text for the snippet; it is looked up in a
** SrcFiles registry that the configuration loader fills.
*/
#ifndef CAIRN_DIAG_H
#define CAIRN_DIAG_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "buf.h"

typedef enum DiagSeverity { DIAG_ERROR = 1, DIAG_WARNING = 2 } DiagSeverity;

/* A position in a source file.  line and col are 1-based (col counts
** Unicode characters, as HCL does), byte is the 0-based offset. */
typedef struct SrcPos {
  uint32_t line;
  uint32_t col;
  uint32_t byte;
} SrcPos;

/* A half-open range [start, end) in a file; file == NULL means "none". */
typedef struct SrcRange {
  const char *file;
  SrcPos start;
  SrcPos end;
} SrcRange;

typedef struct Diag {
  struct Diag *next;
  DiagSeverity severity;
  const char *summary;
  const char *detail;         /* may be "" */
  const char *address;        /* resource instance address or NULL */
  SrcRange subject;           /* file == NULL when absent */
  SrcRange context;           /* file == NULL when absent */
  const char **values;        /* "var.x is \"a\"" lines under the snippet */
  int nvalues;
} Diag;

typedef struct Diags {
  Arena *arena;
  Diag *head;
  Diag *tail;
  int errors;
  int warnings;
} Diags;

void diag_init(Diags *d, Arena *a);

/* Appends a diagnostic; subject may be NULL.  detail is a printf format
** (NULL for none).  Returns the new node so callers can add context,
** address or values. */
Diag *diag_add(Diags *d, DiagSeverity sev, const SrcRange *subject,
               const char *summary, const char *detail_fmt, ...)
    __attribute__((format(printf, 5, 6)));
Diag *diag_error(Diags *d, const SrcRange *subject, const char *summary,
                 const char *detail_fmt, ...)
    __attribute__((format(printf, 4, 5)));
Diag *diag_warning(Diags *d, const SrcRange *subject, const char *summary,
                   const char *detail_fmt, ...)
    __attribute__((format(printf, 4, 5)));

void diag_set_context(Diags *d, Diag *g, const SrcRange *context);
void diag_set_address(Diags *d, Diag *g, const char *address);
void diag_add_value(Diags *d, Diag *g, const char *line);

/* Moves every diagnostic of src to the end of dst (src is left empty).
** The nodes stay in src's arena, which must outlive dst. */
void diag_move(Diags *dst, Diags *src);

static inline bool diag_has_errors(const Diags *d) { return d->errors > 0; }

/* A range spanning from a's start to b's end (same file). */
SrcRange diag_range_join(SrcRange a, SrcRange b);

/* --- Rendering ------------------------------------------------------- */

/* Source text of one file, for snippets.  block_context, when set, returns
** the header of the innermost block that contains byte offset `byte`
** (e.g. `resource "null_resource" "a"`) or NULL. */
typedef struct SrcFile {
  const char *name;
  const char *text;
  uint32_t len;
  const char *(*block_context)(const struct SrcFile *f, uint32_t byte);
  const void *ctx;            /* for block_context */
} SrcFile;

typedef struct SrcFiles {
  SrcFile *files;
  int n;
  int cap;
  Arena *arena;
} SrcFiles;

void diag_files_init(SrcFiles *fs, Arena *a);
/* Registers a file's text (not copied; it must outlive rendering). */
SrcFile *diag_files_add(SrcFiles *fs, const char *name, const char *text,
                        uint32_t len);
const SrcFile *diag_files_find(const SrcFiles *fs, const char *name);

typedef struct DiagStyle {
  bool color;       /* ANSI colours and the box-drawing frame */
  int width;        /* wrap detail at this width; 0 = no wrapping */
} DiagStyle;

/* Renders one diagnostic the way Terraform's CLI does (format.Diagnostic
** when colour is on, format.DiagnosticPlain otherwise). */
void diag_render(Buf *out, const Diag *g, const SrcFiles *fs, DiagStyle st);
/* Renders all, in order. */
void diag_render_all(Buf *out, const Diags *d, const SrcFiles *fs,
                     DiagStyle st);
/* Terraform's JSON diagnostic object (views/json/diagnostic.go), without
** trailing newline. */
void diag_render_json(Buf *out, const Diag *g, const SrcFiles *fs);

#endif
