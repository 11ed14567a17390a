/*
** cmd_state_priv: private to the `state` subcommands (cmd/cmd_state*.c):
** the plumbing they share (usage and flag errors, loading, locked opening,
** provider addresses in state) and the instance selection of
** cmd_state_select.c.  Nothing outside cmd_state*.c includes this header.
** Strings returned live in the arena passed (or cli->arena).
*/
#ifndef CAIRN_CMD_STATE_PRIV_H
#define CAIRN_CMD_STATE_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd_state.h"
#include "state/state.h"

/* ---- cmd_state.c: plumbing ---------------------------------------------- */

/* Terraform's "No state file was found!" text. */
extern const char cmd_state_msg_no_state[];

/* Prints msg and the subcommand's help to stderr; returns 2. */
int cmd_state_usage(Cli *cli, const char *msg, const char *help);
/* Prints the flag diagnostics in d; returns 2. */
int cmd_state_flag_error(Cli *cli, Diags *d);

/* Opens (without locking) and loads the state at path.  *out is NULL when
** there is no state (diagnostic-free); false on unreadable state. */
bool cmd_state_load(Cli *cli, StMgr *m, State **out, Diags *d);
/* Initialises m on path with the given backup path, takes the lock for op
** (unless lock is false) and loads the state as cmd_state_load does. */
bool cmd_state_open_locked(Cli *cli, StMgr *m, const char *path,
                           const char *backup, bool lock, long tmo,
                           const char *op, State **s, Diags *d);

/* s[0..n) lower-cased, in a. */
char *cmd_state_lower(Arena *a, const char *s, size_t n);
/* Splits a state provider string (module.x.provider["FQN"].alias) into
** the FQN (returned, lower-cased) and the text around it ([*beg, *end) is
** the FQN's place in cfg); NULL when there is no quoted FQN. */
const char *cmd_state_provider_fqn(Arena *a, const char *cfg, size_t *beg,
                                   size_t *end);

/* ---- cmd_state_select.c: instance order and selection ------------------- */

typedef struct MStep {
  const char *name;
  size_t nlen;
  StKeyKind kind;
  int64_t i;
  const char *s;        /* string key, still escaped */
  size_t slen;
} MStep;

/* Reads one "module.NAME[KEY]" step at p; returns the position after it
** (at "." or the end) or NULL at the end of the path. */
const char *cmd_state_next_step(const char *p, MStep *st);

typedef struct Sel {
  StResource *r;
  StKey key;
} Sel;

typedef struct SelList {
  Sel *v;
  size_t n, cap;
} SelList;

/* Terraform's AbsResourceInstance.Less on Sel (a qsort comparator):
** module depth, module steps, data before managed, type, name, key. */
int cmd_state_sel_cmp(const void *x, const void *y);
/* Appends every instance of r to l (in r's order). */
void cmd_state_add_resource_instances(Arena *a, SelList *l, StResource *r);
/* Appends the instances selected by one parsed address to out, sorted.
** With allow_missing false an address matching nothing is an error
** (Terraform's "Unknown module/resource/resource instance"). */
void cmd_state_lookup(Arena *a, State *s, const StAddr *ad, const char *text,
                      bool allow_missing, SelList *out, Diags *d);
/* The canonical text of a parsed address (for messages). */
const char *cmd_state_addr_text(Arena *a, const StAddr *ad);

#endif
