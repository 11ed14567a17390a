/*
** pool.c: fixed-size thread pool.  See pool.h for the contracts.
**
** Method: one mutex guards two intrusive FIFO lists, `queue` (submitted,
** not started) and `done` (run or cancelled, not yet returned).  Workers
** sleep on work_cv; the owner sleeps in pool_wait on done_cv.  Cancelling
** moves the whole queue onto `done` in one step under the mutex, so an
** item is either started by a worker or returned cancelled, never both.
** The asynchronous cancel request is a lock-free atomic flag that every
** path taking an item from the queue looks at first.
*/
#include "pool.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* musl's default thread stack is 128 KiB, too little for recursive
** expression evaluation; stacks are only reserved, not committed. */
#define MIN_STACK ((size_t)2 * 1024 * 1024)

typedef struct List {
  PoolItem *head, *tail;
} List;

typedef struct Slot {
  Pool *pool;
  PoolWorker w;
  pthread_t th;
} Slot;

struct Pool {
  pthread_mutex_t mu;
  pthread_cond_t work_cv;    /* queue became non-empty, or stopping */
  pthread_cond_t done_cv;    /* done became non-empty */
  List queue;                /* under mu */
  List done;                 /* under mu */
  int running;               /* under mu: items inside run() */
  bool cancelled;            /* under mu: the queue has been cancelled */
  bool stopping;             /* under mu: workers exit once queue is empty */
  atomic_int cancel_req;     /* lock-free: set by either cancel call */
  int pending;               /* owner thread only */
  int nthreads;
  Slot *slots;
};

static int fail_create_after = -1;

void pool_test_fail_create_after(int n) { fail_create_after = n; }

static void lock(Pool *p)
{
  int rc = pthread_mutex_lock(&p->mu);
  if (rc != 0) {
    fputs("cairn: pool: mutex lock failed\n", stderr);
    abort();
  }
}

static void unlock(Pool *p) { pthread_mutex_unlock(&p->mu); }

static void list_push(List *l, PoolItem *it)
{
  it->next = NULL;
  if (l->tail)
    l->tail->next = it;
  else
    l->head = it;
  l->tail = it;
}

static PoolItem *list_pop(List *l)
{
  PoolItem *it = l->head;
  if (it) {
    l->head = it->next;
    if (!l->head)
      l->tail = NULL;
    it->next = NULL;
  }
  return it;
}

/* Under mu.  Moves every queued item to `done`, marked cancelled. */
static void cancel_locked(Pool *p)
{
  PoolItem *it;
  bool any = false;
  p->cancelled = true;
  while ((it = list_pop(&p->queue))) {
    it->cancelled = true;
    list_push(&p->done, it);
    any = true;
  }
  if (any)
    pthread_cond_signal(&p->done_cv);
}

/* Under mu.  Turns a pending asynchronous request into a real cancel. */
static void check_request_locked(Pool *p)
{
  if (!p->cancelled && atomic_load(&p->cancel_req))
    cancel_locked(p);
}

static void *worker_main(void *arg)
{
  Slot *s = arg;
  Pool *p = s->pool;
  lock(p);
  for (;;) {
    check_request_locked(p);
    PoolItem *it = list_pop(&p->queue);
    if (!it) {
      if (p->stopping)
        break;
      pthread_cond_wait(&p->work_cv, &p->mu);
      continue;
    }
    p->running++;
    unlock(p);
    it->run(it, &s->w);
    lock(p);
    p->running--;
    list_push(&p->done, it);
    pthread_cond_signal(&p->done_cv);
  }
  unlock(p);
  return NULL;
}

/* Async signals go to the owner: workers start with them blocked.  The
** synchronous ones stay open so faults still reach their handlers (ASan's
** among them) instead of killing the process silently. */
static void worker_sigmask(sigset_t *set)
{
  static const int sync_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                                  SIGTRAP, SIGABRT, SIGSYS};
  sigfillset(set);
  for (size_t i = 0; i < sizeof sync_sigs / sizeof sync_sigs[0]; i++)
    sigdelset(set, sync_sigs[i]);
}

/* Stops and joins the first n workers; queue must be empty. */
static void stop_workers(Pool *p, int n)
{
  lock(p);
  p->stopping = true;
  pthread_cond_broadcast(&p->work_cv);
  unlock(p);
  for (int i = 0; i < n; i++)
    pthread_join(p->slots[i].th, NULL);
}

static void destroy(Pool *p)
{
  for (int i = 0; i < p->nthreads; i++)
    arena_release(&p->slots[i].w.arena);
  pthread_cond_destroy(&p->done_cv);
  pthread_cond_destroy(&p->work_cv);
  pthread_mutex_destroy(&p->mu);
}

static int start_threads(Pool *p, int *started)
{
  pthread_attr_t attr;
  sigset_t block, old;
  size_t stack = 0;
  int rc = pthread_attr_init(&attr);
  if (rc != 0)
    return rc;
  if (pthread_attr_getstacksize(&attr, &stack) != 0 || stack < MIN_STACK)
    pthread_attr_setstacksize(&attr, MIN_STACK);
  worker_sigmask(&block);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  for (*started = 0; *started < p->nthreads; (*started)++) {
    Slot *s = &p->slots[*started];
    if (fail_create_after >= 0 && fail_create_after-- == 0)
      rc = EAGAIN;
    else
      rc = pthread_create(&s->th, &attr, worker_main, s);
    if (rc != 0)
      break;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
  return rc;
}

Pool *pool_new(Arena *a, int nthreads,
               void (*worker_init)(PoolWorker *w, void *init_ctx),
               void *init_ctx)
{
  if (nthreads < 1 || nthreads > POOL_MAX_THREADS) {
    errno = EINVAL;
    return NULL;
  }
  Pool *p = ARENA_NEW(a, Pool, 1);
  p->nthreads = nthreads;
  p->slots = ARENA_NEW(a, Slot, (size_t)nthreads);
  atomic_init(&p->cancel_req, 0);
  for (int i = 0; i < nthreads; i++) {
    p->slots[i].pool = p;
    p->slots[i].w.id = i;
    arena_init(&p->slots[i].w.arena, 0);
  }
  int rc = pthread_mutex_init(&p->mu, NULL);
  if (rc != 0) {
    errno = rc;
    return NULL;
  }
  rc = pthread_cond_init(&p->work_cv, NULL);
  if (rc == 0) {
    /* pool_wait_for's deadlines: monotonic, immune to clock changes */
    pthread_condattr_t ca;
    rc = pthread_condattr_init(&ca);
    if (rc == 0) {
      rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
      if (rc == 0)
        rc = pthread_cond_init(&p->done_cv, &ca);
      pthread_condattr_destroy(&ca);
    }
    if (rc != 0)
      pthread_cond_destroy(&p->work_cv);
  }
  if (rc != 0) {
    pthread_mutex_destroy(&p->mu);
    errno = rc;
    return NULL;
  }
  int started = 0;
  rc = start_threads(p, &started);
  if (rc != 0) {
    stop_workers(p, started);
    destroy(p);
    errno = rc;
    return NULL;
  }
  /* Workers touch their PoolWorker only inside run(), and every item
  ** passes through the mutex, so these writes happen before any use. */
  if (worker_init)
    for (int i = 0; i < nthreads; i++)
      worker_init(&p->slots[i].w, init_ctx);
  return p;
}

int pool_nthreads(const Pool *p) { return p->nthreads; }

PoolWorker *pool_worker(Pool *p, int i)
{
  if (i < 0 || i >= p->nthreads)
    return NULL;
  return &p->slots[i].w;
}

void pool_submit(Pool *p, PoolItem *it)
{
  it->cancelled = false;
  p->pending++;
  lock(p);
  check_request_locked(p);
  if (p->cancelled) {
    it->cancelled = true;
    list_push(&p->done, it);
  } else {
    list_push(&p->queue, it);
    pthread_cond_signal(&p->work_cv);
  }
  unlock(p);
}

/* pool_wait with an optional deadline (NULL: none): NULL with *timed_out
** set when it passed with nothing completed. */
static PoolItem *wait_until(Pool *p, const struct timespec *until,
                            bool *timed_out)
{
  *timed_out = false;
  if (p->pending == 0)
    return NULL;
  lock(p);
  check_request_locked(p);
  while (!p->done.head && !*timed_out) {
    if (until)
      *timed_out = pthread_cond_timedwait(&p->done_cv, &p->mu, until) ==
                   ETIMEDOUT;
    else
      pthread_cond_wait(&p->done_cv, &p->mu);
    check_request_locked(p);
  }
  PoolItem *it = list_pop(&p->done);   /* NULL when empty */
  unlock(p);
  if (it) {
    *timed_out = false;
    p->pending--;
  }
  return it;
}

PoolItem *pool_wait(Pool *p)
{
  bool timed_out;
  return wait_until(p, NULL, &timed_out);
}

PoolItem *pool_wait_for(Pool *p, double secs, bool *timed_out)
{
  struct timespec until;
  clock_gettime(CLOCK_MONOTONIC, &until);
  long ns = until.tv_nsec + (long)((secs - (double)(long)secs) * 1e9);
  until.tv_sec += (time_t)secs + ns / 1000000000L;
  until.tv_nsec = ns % 1000000000L;
  return wait_until(p, &until, timed_out);
}

int pool_pending(const Pool *p) { return p->pending; }

void pool_cancel(Pool *p)
{
  atomic_store(&p->cancel_req, 1);
  lock(p);
  cancel_locked(p);
  unlock(p);
}

void pool_request_cancel(Pool *p) { atomic_store(&p->cancel_req, 1); }

bool pool_cancelled(const Pool *p)
{
  return atomic_load(&p->cancel_req) != 0;
}

PoolItem *pool_free(Pool *p)
{
  List left = {NULL, NULL};
  PoolItem *it;
  if (p->pending > 0) {
    pool_cancel(p);
    while ((it = pool_wait(p)))
      list_push(&left, it);
  }
  stop_workers(p, p->nthreads);
  destroy(p);
  return left.head;
}
