/*
** ini: a reader for the host configuration file (cairn.ini), following
** the dialect of the inih library (github.com/benhoyt/inih) with its
** default options:
**
**   - sections "[name]"; text after the closing bracket is ignored unless
**     it is a comment; a section line without "]" is an error;
**   - "name = value" and "name: value"; whitespace around name and value is
**     trimmed; a value may be empty; quotes are NOT removed;
**   - full-line comments start with ';' or '#'; an inline comment starts
**     with ';' preceded by whitespace;
**   - a line that starts with whitespace, after a name/value line in the
**     same section, continues that value (joined with "\n"); blank and
**     comment lines in between do not end it (as in inih);
**   - no line-length limit (inih's default is 200 bytes).
**   - a UTF-8 byte-order mark at the start is skipped;
**   - any other line is an error.
**
** Unlike inih, every error is reported (with file and line) rather than
** only the first, and entries are returned as data instead of through a
** callback.  Which sections and keys are valid is the caller's business.
**
** Ownership: all strings live in the arena passed to ini_parse.
**
** Below ini_parse, the helpers the files read with it share (cairn.ini in
** hostcfg.c, the gateway's file in net/gateway_conf.c): the "file:line:
** the value of ... must be ..." diagnostic, whole numbers, booleans,
** durations, `KIND "NAME"` section names and key lists.
*/
#ifndef CAIRN_INI_H
#define CAIRN_INI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

typedef struct IniEntry {
  const char *section;   /* "" before the first section header */
  const char *name;
  const char *value;     /* continuation lines joined with '\n' */
  uint32_t line;         /* line of the name */
  SrcRange name_range;   /* for diagnostics about this key */
  SrcRange value_range;
} IniEntry;

typedef struct IniSection {
  const char *name;
  uint32_t line;
  SrcRange range;
} IniSection;

typedef struct IniFile {
  const char *path;
  IniEntry *entries;
  uint32_t nentries;
  IniSection *sections;  /* in file order, including empty sections */
  uint32_t nsections;
} IniFile;

/* Parses text[0..len).  Appends one diagnostic per malformed line (summary
** "Invalid host configuration line" and friends) and returns false when
** there was any; the entries that did parse are still returned. */
bool ini_parse(Arena *a, const char *path, const char *text, size_t len,
               IniFile *out, Diags *d);

/* The value of the last entry named `name` in `section`, or NULL. */
const char *ini_get(const IniFile *f, const char *section, const char *name);

/* Adds the error `summary` at e's value, detail "FILE:LINE: the value of
** "NAME" must be WANT." */
void ini_bad_value(Diags *d, const IniEntry *e, const char *summary,
                   const char *want);

/* A whole number from lo to hi: an optional '-' and decimal digits,
** nothing else (no '+', no space, no hex). */
bool ini_int(const char *s, long lo, long hi, long *out);

/* true/yes/on/1 or false/no/off/0, in lower case. */
bool ini_bool(const char *s, bool *out);

/* A duration: "250ms", "10s", "2m", "1h" or a bare number of seconds
** ("1.5"), in milliseconds (rounded).  False on anything else (negative,
** exponent or hex forms, spaces, other units). */
bool ini_duration(const char *s, long *ms);

/* The NAME of a section named `KIND "NAME"` (white space between them,
** NAME without quotes or white space), in a; NULL for another shape. */
const char *ini_section_name(Arena *a, const char *sec, const char *kind);

/* Whether k is one of keys[0..n). */
bool ini_key_known(const char *k, const char *const *keys, size_t n);

#endif
