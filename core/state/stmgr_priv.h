/*
** stmgr_priv.h: what stmgr.c and stmgr_remote.c share (the remote working
** copy protocol, docs/backends.md "Durability").  All for the main thread.
*/
#ifndef CAIRN_STMGR_PRIV_H
#define CAIRN_STMGR_PRIV_H

#include "stmgr.h"

/* stmgr_init: binds m to the remote registered for its output path. */
void stmgr_remote_attach(StMgr *m);

/* Takes the remote lock for operation into m->lock (a fresh lock info, or
** the one a failed push kept when the server still holds it).  False:
** *busy tells a conflict (its description, naming the holder, in *why),
** else an error diagnostic was added. */
bool stmgr_remote_lock(StMgr *m, const char *operation, bool *busy,
                       const char **why, Diags *d);
/* Releases the remote lock unless a snapshot waits to be pushed (then the
** lock stays, so no one else writes over the newer local state). */
bool stmgr_remote_unlock(StMgr *m, Diags *d);
bool stmgr_remote_force_unlock(StMgr *m, const char *id, Diags *d);

/* Before stmgr_load reads the working copy: pulls the remote state into
** it, unless the working copy holds what the remote has not confirmed (a
** pending push or a journal), which is then authoritative; a pending
** push is retried when we hold the lock. */
bool stmgr_remote_pull(StMgr *m, Diags *d);
/* After a commit: pushes the snapshot (m->disk_p) when it changed or
** an earlier push is pending.  A push the server did not confirm leaves
** the pending marker and is an error. */
bool stmgr_remote_push(StMgr *m, Diags *d);

/* stmgr_commit after stmgr_drop_source (stmgr_source.c): an internal
** error, reported; returns false. */
bool stmgr_refuse_commit(StMgr *m, Diags *d);
/* The exact bytes of the last snapshot (the one read at load, or the
** last one this command wrote or found identical): *p is m->disk_p when
** that is known, else the file read back into a (through the locked
** descriptor when locked).  False with a diagnostic when unreadable. */
bool stmgr_read_back(StMgr *m, Arena *a, char **p, size_t *n, Diags *d);

/* n random bytes from getrandom; aborts when the system has none. */
void stmgr_fill_random(void *p, size_t n);

#endif
