/*
** refactor: Terraform's `moved` and `removed` blocks as pure functions over
** the configuration tree (core/config/config.h) and a State (core/state/state.h), for
** the engine to call before planning (internal/refactoring in Terraform).
**
** moved: every `moved` block of every module is an endpoint pair relative
** to the module that declares it, and applies to every instance of that
** module (a block in module.net moves objects of module.net[0] and of
** module.net[1]).  Endpoints are unified as Terraform does: a whole
** resource or module call when both sides agree, the instance form when
** either side has a key (so `x.y` -> `x.y[0]` is a count <-> no-count
** move).  rf_apply_moves validates the whole set, then moves objects in
** the State in dependency order (chains A->B, B->C and moves nested in
** other moves) followed by Terraform's implied count <-> no-count moves
** for resources no block names, records the net effect per instance
** (A->C), and skips a
** move whose destination is already taken, reporting it with Terraform's
** "Unresolved resource instance address changes" warning.
**
** removed: rf_check_removed validates the blocks (no instance keys, no
** data sources, target no longer declared); rf_removed_for answers which
** block covers a state resource that has no configuration.
**
** Configuration facts are static: cairn calls this before count/for_each
** are evaluated, so "Moved object still exists" is reported only when the
** configuration alone proves the `from` is declared (see
** docs/refactoring.md for the exact rule).
**
** Ownership: results, strings and diagnostics live in the arena given (or
** the Diags' arena).  The State is modified in place with st_* functions;
** objects keep their identity (no copies).  Nothing here prints.
**
** Scale: statements and state instances are indexed by hashed addresses,
** so 10,000 moves of one resource's instances cost O(n log n).
*/
#ifndef CAIRN_REFACTOR_H
#define CAIRN_REFACTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"
#include "state/state.h"

/* One resource instance that moved: absolute instance addresses as
** st_instance_addr formats them ("module.a[0].x.y[\"k\"]").  A chain of
** moves is summarised as its first and last address. */
typedef struct RfMove {
  const char *from;
  const char *to;
} RfMove;

/* The moves done, sorted by `to` (for rf_prev_addr). */
typedef struct RfMoves {
  RfMove *items;
  uint32_t n;
} RfMoves;

/* Validates every moved block of the tree with Terraform's diagnostics
** ("Invalid address", "Invalid \"moved\" addresses", "Redundant move
** statement", "Moved object still exists", "Ambiguous move statements",
** "Resource type mismatch", "Cyclic dependency in move statements"),
** subjects on the block's `moved` keyword.  When there is no error and s
** is not NULL, applies the moves to s and fills *out (in a); blocked moves
** add one warning listing them.  Returns false (s untouched, out->n == 0)
** when there were errors. */
bool rf_apply_moves(Arena *a, const CfgTree *t, State *s, RfMoves *out,
                    Diags *d);

/* The address new_instance_addr had before the moves (the plan's
** previous_address / "# (moved from ...)"), or NULL when it did not move.
** O(log n). */
const char *rf_prev_addr(const RfMoves *m, const char *new_instance_addr);

/* Validates every removed block: "Module instance keys not allowed",
** "Resource instance keys not allowed", "Data source address not allowed"
** on the address, "Removed resource still exists" / "Removed module still
** exists" on the declaration that is still there.  Returns false when
** there were errors. */
bool rf_check_removed(Arena *a, const CfgTree *t, Diags *d);

/* The removed block that covers a state resource (its module instance
** address as in StResource.module, mode, type, name), or NULL.  A block
** naming the resource wins over one naming an enclosing module, a deeper
** module over a shallower one, and for the same target a block in a
** parent module over one in a child (as Terraform).  Invalid blocks (the
** ones rf_check_removed rejects for their address) cover nothing.
** Allocation-free; linear in the number of removed blocks. */
const CfgRemoved *rf_removed_for(const CfgTree *t,
                                 const char *module_instance, StMode mode,
                                 const char *type, const char *name);

#endif
