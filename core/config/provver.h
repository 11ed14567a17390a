/*
** provver: versions and version constraints, with one parser for the two
** sets of rules Terraform applies to the same syntax:
** - provider versions as Terraform's provider installer reads them
**   (apparentlymart/go-versions' "Ruby-style" constraints, which
**   `required_providers { x = { version = "..." } }` and the dependency
**   lock file use): pver_cmp, pver_valid, pver_match, pver_canon;
** - `required_version` (hashicorp/go-version): pver_tf_match, below.
** Under the first, a prerelease is selected only by an exact constraint
** naming it, and `~> 2` means `~> 2.0`.
**
** Versions: MAJOR[.MINOR[.PATCH]][-PRERELEASE][+METADATA]; missing parts
** are zero.  Constraints: comma-separated, each an optional operator (=,
** !=, >, >=, <, <=, ~>) and a version.  `~> 1.2.3` is >= 1.2.3, < 1.3.0;
** `~> 1.2` and `~> 1` are >= 1.2.0 (1.0.0), < 2.0.0.  A prerelease version
** matches only `= V` (or bare `V`) with exactly that prerelease.  Several
** constraint strings (one per module) are all applied.
**
** Pure functions, no I/O; strings returned live in the arena given.
*/
#ifndef CAIRN_PROVVER_H
#define CAIRN_PROVVER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"

/* Precedence of two versions (semver: a prerelease is lower than its
** release; metadata ignored): <0, 0, >0.  An unparsable version sorts
** below every valid one (two invalid ones compare by strcmp). */
int pver_cmp(const char *a, const char *b);

/* True when s is a full version MAJOR.MINOR.PATCH[-pre][+meta], the form a
** mirror's directory and file names use. */
bool pver_valid(const char *s);

/* 1 when version satisfies every constraint of the constraint string,
** 0 when not, -1 when either does not parse.  NULL or "" constraints
** accept every release (not prereleases). */
int pver_match(const char *constraints, const char *version);

/* Terraform's canonical form of the constraints of the n strings (the
** lock file's `constraints` and its messages): each term with the
** version written in full ("~> 1.2" keeps two parts), duplicates
** removed, sorted by version then operator.  "" when there is none, NULL
** when one does not parse (*bad then names it). */
const char *pver_canon(Arena *a, const char *const *cons, uint32_t n,
                       const char **bad);

/* required_version's rules (hashicorp/go-version's Constraints, as
** Terraform checks them against its own version): a leading "v" is
** accepted, metadata is ignored, two prereleases compare as strings;
** `~> 1.2` allows >= 1.2 and < 2.0, `~> 1.2.3` >= 1.2.3 and < 1.3.0,
** `~> 1` anything >= 1.  A constraint with a prerelease matches only
** versions of that release (prereleases included); a prerelease version
** satisfies only constraints naming a prerelease of the same release.
** 1 when version satisfies every constraint, 0 when not, -1 when either
** does not parse ("" does not). */
int pver_tf_match(const char *constraints, const char *version);

#endif
