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
*/
#ifndef CAIRN_INI_H
#define CAIRN_INI_H

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

#endif
