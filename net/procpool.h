/*
** procpool: the gateway's pool of provider instances (plugin processes),
** one per key (the gateway's key is client + provider + a keyed hash of
** the provider configuration), started on first use, shared by concurrent
** calls, stopped when idle too long, and capped in number.
**
** Life of an entry: procpool_get finds the entry for a key or opens one
** with the open callback (no process starts there: a plugin starts on its
** first call).  The caller that opened it gets fresh = true and must
** configure it, then call procpool_ready (ok or not); other callers of
** the same key wait for that.  An entry whose configuration failed is
** closed, and a waiter then tries again as if the key were new (so each
** caller sees its own diagnostics).  Each successful get holds a
** reference, given back by procpool_put; an entry with no reference is
** idle.  A put with broken = true (the plugin died) retires the entry:
** no new call gets it, and it closes when the last reference goes.
**
** The cap: when max entries exist, procpool_get closes the least
** recently used idle entry to make room, or, when none is idle, returns
** NULL with *full set (the gateway answers 503).
**
** Idle entries (no reference for idle_ms) are closed by procpool_reap,
** which the reaper thread (procpool_start_reaper) calls about every
** quarter of idle_ms, at most every second.
**
** Threads: every function may be called from any thread.  Closing an
** instance (the plugin's Shutdown, up to 2 s) happens outside the lock.
** The log callback (may be NULL) is called outside the lock too, with
** "started", "stopped (idle)", "stopped (evicted)", "stopped (broken)",
** "stopped (shutdown)".
**
** Memory: the pool lives in the arena given to procpool_new; each entry
** has its own arena (instance memory), released when it closes.
*/
#ifndef CAIRN_PROCPOOL_H
#define CAIRN_PROCPOOL_H

#include <stdbool.h>

#include "base/arena.h"
#include "providers/provider.h"

typedef struct Procpool Procpool;
typedef struct ProcpoolEntry ProcpoolEntry;

/* Opens the instance for key in a (the entry's arena); arg is what the
** caller passed to procpool_get.  NULL: cannot open (the get fails). */
typedef Prov *(*ProcpoolOpen)(void *ctx, Arena *a, const char *key,
                              void *arg);
typedef void (*ProcpoolLog)(void *ctx, const char *key, const char *event);

/* max >= 1; idle_ms > 0. */
Procpool *procpool_new(Arena *a, int max, long idle_ms, ProcpoolOpen open,
                       ProcpoolLog log, void *ctx);

/* The entry for key with a reference held, or NULL (*full set when the
** cap was the reason, otherwise the open callback failed). */
ProcpoolEntry *procpool_get(Procpool *pp, const char *key, void *arg,
                            bool *fresh, bool *full);
Prov *procpool_prov(ProcpoolEntry *e);
/* After a fresh get: the configuration's outcome. */
void procpool_ready(Procpool *pp, ProcpoolEntry *e, bool ok);
void procpool_put(Procpool *pp, ProcpoolEntry *e, bool broken);

/* Closes the entries idle since before now_ms - idle_ms (now_ms on the
** CLOCK_MONOTONIC scale in milliseconds, procpool_now()); returns how
** many. */
int procpool_reap(Procpool *pp, long now_ms);
long procpool_now(void);

/* Entries open (any state). */
int procpool_count(Procpool *pp);
/* Entries open, and of those the ones serving a call (a reference held),
** under one lock so the two agree. */
void procpool_stats(Procpool *pp, int *open, int *busy);

/* Starts the reaper thread; false when it cannot. */
bool procpool_start_reaper(Procpool *pp);
/* Stops the reaper, waits for references to go, closes every entry. */
void procpool_shutdown(Procpool *pp);

#endif
