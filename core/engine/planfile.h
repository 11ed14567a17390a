/*
** planfile: saved plans (`cairn plan -out=FILE`, `cairn apply FILE`,
** `cairn show FILE`).
**
** A plan file is cairn's own format, documented in docs/planfile.md so
** another tool can read it: one JSON document
**   {"cairn_plan":1,"sha256":"<64 hex>","body":{...}}\n
** whose "body" holds the complete Plan (core/engine/plan.h): mode, the identity
** of the state it was made against, configuration hash, variables,
** changes, drift, outputs, targets, and the prior and previous-run states
** as state v4 text.  Every Value round-trips exactly: type, null/unknown
** (with the not-null refinement), sensitive marks at any depth, number
** representation (exact integer, double, kept literal).  The SHA-256
** covers the exact bytes of the body as they appear in the file, so a
** truncated or edited file is refused before anything is decoded.
**
** Writing is atomic and private: a temporary file (mode 0600) in the
** target's directory is written, fsynced and renamed over the target, and
** the directory is fsynced.  A failed write leaves the old file (if any)
** as it was.
**
** Reading never crashes on bad input: a missing file, a directory, a
** Terraform (zip) plan, a state file or .tf file given by mistake, a
** wrong format version, a plan written by another cairn version, a
** checksum mismatch, or a structurally malformed body each give one error
** diagnostic whose summary is `Failed to load "<path>" as a plan file`
** and whose detail starts with "Error: " and says why.
**
** Ownership: planfile_read builds the Plan and everything it points to in
** the arena given (Plan.arena is set to it); the input bytes and parse
** temporaries live in a private arena released before returning.
** PlChange.schema is left NULL: the engine attaches schemas.
*/
#ifndef CAIRN_PLANFILE_H
#define CAIRN_PLANFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"
#include "plan.h"

/* The format version this build writes and reads ("cairn_plan"). */
#define PLANFILE_VERSION 1

/* Largest plan file planfile_read accepts (the JSON parser's limit). */
#define PLANFILE_MAX_BYTES ((size_t)1 << 30)

/* Writes p to path (see above).  scratch holds the encoded text and is
** not rewound (the caller may rewind it).  The prior and previous-run
** states are serialised with st_write, which sorts them.  False with a
** diagnostic on I/O errors (path named in it). */
bool planfile_write(Arena *scratch, const char *path, const Plan *p,
                    Diags *d);

/* Encodes p into out (appended): exactly the bytes planfile_write puts in
** the file.  For tests and for callers that store plans elsewhere.
** Returns false (with a diagnostic) only when a value cannot be encoded
** (a known value of dynamic type, which cty does not allow). */
bool planfile_encode(Buf *out, const Plan *p, Diags *d);

/* Reads a plan file into a new Plan in a.  False with one diagnostic
** naming the file on any failure; *out is then NULL. */
bool planfile_read(Arena *a, const char *path, Plan **out, Diags *d);

/* Decodes the bytes of a plan file (as planfile_encode made them); name is
** used in diagnostics. */
bool planfile_decode(Arena *a, const char *name, const char *src,
                     size_t n, Plan **out, Diags *d);

/* True when path is a regular file whose first bytes are a cairn plan's
** ({"cairn_plan":) or a Terraform plan's (a zip archive, or a pre-0.12
** "tfplan" file): what `show FILE` uses to choose between plan and state.
** Terraform's `apply ARG` treats any existing non-directory as a plan
** path; commands that follow that should call planfile_read directly,
** which explains what is wrong with a non-plan file. */
bool planfile_is_plan(const char *path);

/* Hex SHA-256 (64 chars, in a) over the configuration: for each module in
** the order given, its position, then each loaded file's base name and
** bytes, sorted by name (length-prefixed so no two configurations hash the
** same input).  mods may hold NULLs (skipped).  Used to refuse applying a
** plan to a changed configuration. */
const char *planfile_config_hash(Arena *a, const CfgModule *const *mods,
                                 uint32_t nmods);

#endif
