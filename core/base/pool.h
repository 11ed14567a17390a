/*
** pool: a fixed number of worker threads fed from one FIFO queue.
**
** The engine walks a dependency graph with it: the owner thread submits
** the items that are ready, waits for any of them to complete, and submits
** the items that became ready.  The pool knows nothing about the graph, and
** at most nthreads items run at once (that is -parallelism).
**
** Contract (after curl's THRDPOOL-AND-QUEUE: see style-anchors.md §10.9):
** - OWNER THREAD.  pool_new, pool_submit, pool_wait, pool_pending,
**   pool_cancel, pool_worker and pool_free are called by one thread, the
**   owner, never from a work function: callbacks never re-enter the pool.
**   The one exception is pool_request_cancel, which any thread and any
**   signal handler may call.
** - ITEMS BELONG TO THE CALLER.  The caller allocates each PoolItem
**   (usually embedded in its own struct; recover it with the usual
**   container-of cast) and keeps it alive until the pool returns it.  An
**   item is submitted at most once at a time; after it has been returned it
**   may be submitted again.  While pending, `next` belongs to the pool.
** - THE POOL NEVER HANDLES ERRORS.  run() cannot fail as far as the pool is
**   concerned: it records its result and diagnostics inside its own item
**   (a Diags per item, say) and the owner looks at them when the item
**   comes back.
** - LOCKING.  The pool's mutex is held for everything except run(), which
**   runs on a worker thread without any pool lock.  worker_init runs on the
**   owner thread before the first item is submitted.
** - EVERY ITEM COMES BACK, ALSO AT SHUTDOWN.  Each submitted item is
**   returned exactly once: by pool_wait (in completion order, with
**   cancelled = 0 when run() has been called and returned, cancelled = 1
**   when it was never started), or, if the owner stops waiting early, in
**   the list returned by pool_free.  The owner gets a deterministic output
**   by sorting on its own; completion order is not deterministic.
** - CANCELLING (SIGINT: stop starting operations, let running ones finish).
**   Once cancelled, a pool stays cancelled: no queued item is started any
**   more, queued items and any item submitted later come back from
**   pool_wait with cancelled = 1, and items already running finish and
**   come back normally.
** - MEMORY.  The Pool and its worker table live in the arena given to
**   pool_new, which must outlive the pool.  Each worker has its own Arena,
**   used only by the work functions on that worker (and by worker_init
**   before); they may mark/rewind it as they wish.  pool_free releases the
**   worker arenas, so nothing a work function allocated there may be
**   referenced afterwards: results the owner keeps go into memory the
**   owner provides in the item.
** - SIGNALS.  Worker threads block the asynchronous signals (SIGINT,
**   SIGTERM, SIGHUP, SIGPIPE, ...), so those are delivered to the owner or
**   another thread of the caller's choice, never to a worker.
** - FAILURE.  pool_new returns NULL and sets errno when nthreads is outside
**   1..POOL_MAX_THREADS (EINVAL) or a thread cannot be created (the error
**   from pthread_create, usually EAGAIN); threads already started are then
**   stopped and joined, and worker_init has not been called for any worker.
**   The cmd layer turns that into a diagnostic.
*/
#ifndef CAIRN_POOL_H
#define CAIRN_POOL_H

#include <stdbool.h>

#include "arena.h"

#define POOL_MAX_THREADS 256

typedef struct Pool Pool;

/* One per worker thread; stable address for the life of the pool. */
typedef struct PoolWorker {
  int id;        /* 0 .. nthreads-1 */
  Arena arena;   /* scratch for work functions on this worker only */
  void *user;    /* set by worker_init (e.g. a per-worker HTTP handle) */
} PoolWorker;

typedef struct PoolItem PoolItem;
struct PoolItem {
  /* Runs on a worker thread without the pool lock.  Must not call into
  ** the pool.  w is the worker running it (its arena is free to use). */
  void (*run)(PoolItem *it, PoolWorker *w);
  void *ctx;        /* for the caller; the pool never looks at it */
  PoolItem *next;   /* pool-private link while pending; chain from pool_free */
  bool cancelled;   /* set by the pool when the item comes back unrun */
};

/* Starts nthreads workers (1..POOL_MAX_THREADS).  After every thread has
** started, worker_init (may be NULL) is called once per worker, in id
** order, on the calling thread, with init_ctx; it may allocate from
** w->arena and set w->user.  Anything worker_init acquires that is not
** arena memory is the caller's to give back before pool_free (walk the
** workers with pool_worker).  Returns NULL with errno set on failure (see
** FAILURE above). */
Pool *pool_new(Arena *a, int nthreads,
               void (*worker_init)(PoolWorker *w, void *init_ctx),
               void *init_ctx);

int pool_nthreads(const Pool *p);

/* Worker i (0 <= i < pool_nthreads(p)), for per-worker cleanup. */
PoolWorker *pool_worker(Pool *p, int i);

/* Queues it (FIFO) for the next free worker; never blocks for long.  Sets
** it->cancelled = false, or queues it straight for return with
** cancelled = true when the pool has been cancelled. */
void pool_submit(Pool *p, PoolItem *it);

/* Blocks until an item completes or is cancelled and returns it; returns
** NULL at once when no item is pending (so `while ((it = pool_wait(p)))`
** drains the pool).  Items come back in completion order. */
PoolItem *pool_wait(Pool *p);

/* pool_wait with a time limit of secs (> 0): NULL with *timed_out set
** when nothing completed in time (the owner's chance to do periodic work,
** such as progress heartbeats); NULL without it when nothing is pending. */
PoolItem *pool_wait_for(Pool *p, double secs, bool *timed_out);

/* Items submitted and not yet returned: queued + running + completed but
** not yet returned by pool_wait. */
int pool_pending(const Pool *p);

/* Cancels the pool now: queued items are not started and come back from
** pool_wait with cancelled = 1; running items finish.  Idempotent. */
void pool_cancel(Pool *p);

/* Async-signal-safe request for pool_cancel, callable from any thread or a
** signal handler.  It only sets a flag: the next worker that looks for work,
** or the owner's next pool_submit/pool_wait, performs the cancel, so no
** item is started after a worker has seen the flag.  A worker that finishes
** an item always looks, so an owner blocked in pool_wait is woken by the
** first completion after the request. */
void pool_request_cancel(Pool *p);

/* True once the pool has been cancelled (by either call). */
bool pool_cancelled(const Pool *p);

/* Stops and joins the workers and releases their arenas.  Normally called
** after pool_wait returned NULL.  If items are still pending, pool_free
** cancels the queued ones, waits for the running ones to finish, and
** returns every item not yet returned, linked through `next` (NULL-ended)
** in the order pool_wait would have returned them.  Returns NULL when
** nothing was pending.  p must not be used afterwards; its memory stays in
** the arena given to pool_new. */
PoolItem *pool_free(Pool *p);

/* Test hook: the n-th next thread creation (0 = the very next one) fails
** with EAGAIN, as if the system had run out of threads.  Negative
** disables.  Owner thread only. */
void pool_test_fail_create_after(int n);

#endif
