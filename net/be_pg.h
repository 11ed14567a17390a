/*
** be_pg: Terraform's "pg" state backend over net/pgwire.h
** (docs/backends.md), with Terraform's schema, so cairn and Terraform
** share one database and exclude each other:
**
** - table SCHEMA.states (id bigint from public.global_states_id_seq,
**   name text unique, data text) and the unique index states_by_name,
**   created unless skip_*_creation (the schema only when
**   information_schema does not list it);
** - a workspace is a row (name); "default" always exists; creating one
**   writes an empty state; deleting one deletes its row;
** - read: SELECT data; write: one INSERT ... ON CONFLICT DO UPDATE with
**   the whole state (atomic: the old or the new state, never a torn one);
** - lock: session-level advisory locks on the row's id and on -1 (the
**   workspace-creation lock), taken with pg_try_advisory_lock exactly as
**   Terraform's client does; they die with the session (kill -9 of the
**   holder frees them).  While it holds a lock, cairn's session carries
**   application_name "cairn <lock ID>", so a conflict names the holder
**   (from pg_locks and pg_stat_activity) and force-unlock can end that
**   session.
**
** One connection per process, opened at the first request (so commands
** that never touch the state never connect); the schema is prepared
** then, as Terraform's configure does.  A lost connection is an error:
** it is never re-opened behind the caller's back (its locks are gone).
**
** Ownership: everything in the arena given to bepg_open, which must
** outlive the backend; bepg_close ends the session.  Passwords never
** appear in diagnostics.
*/
#ifndef CAIRN_BE_PG_H
#define CAIRN_BE_PG_H

#include <stdbool.h>

#include "base/arena.h"
#include "base/diag.h"
#include "state/backend.h"

typedef struct BePgConfig {
  const char *conn_str;          /* required */
  const char *schema_name;       /* default terraform_remote_state */
  bool skip_schema_creation;
  bool skip_table_creation;
  bool skip_index_creation;
} BePgConfig;

typedef struct BePg BePg;

/* Checks c (conn_str present and parseable) and fills *ws with the
** backend's workspaces.  NULL with diagnostics. */
BePg *bepg_open(Arena *a, const BePgConfig *c, BeWorkspaces *ws, Diags *d);
void bepg_close(BePg *b);

#endif
