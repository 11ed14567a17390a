/*
** procpool.c: keyed provider instances with a cap and an idle timeout
** (contracts in procpool.h).
*/
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "procpool.h"

/* RETIRED: out of service, still referenced; CLOSING: being closed by
** one thread (nobody else may touch it). */
typedef enum { E_FREE, E_STARTING, E_READY, E_RETIRED, E_CLOSING } EState;

struct ProcpoolEntry {
  EState state;
  const char *key;             /* in the entry's arena */
  Arena arena;
  Prov *prov;
  int refs;
  long last_used;
};

struct Procpool {
  pthread_mutex_t mu;
  pthread_cond_t cv;           /* entry state changes, references */
  ProcpoolEntry *e;
  int max;
  long idle_ms;
  ProcpoolOpen open;
  ProcpoolLog log;
  void *ctx;
  pthread_t reaper;
  bool reaper_on;
  bool stop;
};

long procpool_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

Procpool *procpool_new(Arena *a, int max, long idle_ms, ProcpoolOpen open,
                       ProcpoolLog log, void *ctx)
{
  Procpool *pp = ARENA_NEW(a, Procpool, 1);
  pthread_mutex_init(&pp->mu, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&pp->cv, &ca);
  pthread_condattr_destroy(&ca);
  pp->max = max > 0 ? max : 1;
  pp->e = ARENA_NEW(a, ProcpoolEntry, (size_t)pp->max);
  pp->idle_ms = idle_ms > 0 ? idle_ms : 1;
  pp->open = open;
  pp->log = log;
  pp->ctx = ctx;
  return pp;
}

Prov *procpool_prov(ProcpoolEntry *e)
{
  return e->prov;
}

/* Closes an entry taken out of service (state set by the caller to
** E_CLOSING with no references, so nobody else touches it), then frees
** its slot.  Called without the lock. */
static void close_entry(Procpool *pp, ProcpoolEntry *e, const char *why)
{
  if (e->prov)
    prov_close(e->prov);
  if (pp->log)
    pp->log(pp->ctx, e->key, why);
  arena_release(&e->arena);
  pthread_mutex_lock(&pp->mu);
  e->prov = NULL;
  e->key = NULL;
  e->state = E_FREE;
  pthread_cond_broadcast(&pp->cv);
  pthread_mutex_unlock(&pp->mu);
}

ProcpoolEntry *procpool_get(Procpool *pp, const char *key, void *arg,
                            bool *fresh, bool *full)
{
  *fresh = false;
  *full = false;
  pthread_mutex_lock(&pp->mu);
  for (;;) {
    ProcpoolEntry *hit = NULL, *free_slot = NULL, *lru = NULL;
    for (int i = 0; i < pp->max; i++) {
      ProcpoolEntry *e = &pp->e[i];
      if (e->state == E_FREE) {
        if (!free_slot)
          free_slot = e;
        continue;
      }
      if ((e->state == E_STARTING || e->state == E_READY) &&
          strcmp(e->key, key) == 0)
        hit = e;
      else if (e->state == E_READY && e->refs == 0 &&
               (!lru || e->last_used < lru->last_used))
        lru = e;
    }
    if (hit && hit->state == E_STARTING) {
      /* Someone configures it: wait, then look again (it may have
      ** failed and gone). */
      pthread_cond_wait(&pp->cv, &pp->mu);
      continue;
    }
    if (hit) {
      hit->refs++;
      hit->last_used = procpool_now();
      pthread_mutex_unlock(&pp->mu);
      return hit;
    }
    if (!free_slot && lru) {
      lru->state = E_CLOSING;
      pthread_mutex_unlock(&pp->mu);
      close_entry(pp, lru, "stopped (evicted)");
      pthread_mutex_lock(&pp->mu);
      continue;
    }
    if (!free_slot) {
      *full = true;
      pthread_mutex_unlock(&pp->mu);
      return NULL;
    }
    free_slot->state = E_STARTING;
    free_slot->refs = 1;
    free_slot->last_used = procpool_now();
    pthread_mutex_unlock(&pp->mu);
    arena_init(&free_slot->arena, 0);
    free_slot->key = arena_strdup(&free_slot->arena, key);
    free_slot->prov = pp->open(pp->ctx, &free_slot->arena, key, arg);
    if (!free_slot->prov) {
      pthread_mutex_lock(&pp->mu);
      free_slot->refs = 0;
      free_slot->state = E_CLOSING;
      pthread_mutex_unlock(&pp->mu);
      close_entry(pp, free_slot, "failed to open");
      return NULL;
    }
    if (pp->log)
      pp->log(pp->ctx, key, "started");
    *fresh = true;
    return free_slot;
  }
}

void procpool_ready(Procpool *pp, ProcpoolEntry *e, bool ok)
{
  pthread_mutex_lock(&pp->mu);
  if (ok) {
    e->state = E_READY;
    pthread_cond_broadcast(&pp->cv);
    pthread_mutex_unlock(&pp->mu);
    return;
  }
  e->state = E_RETIRED;
  e->refs--;
  bool last = e->refs == 0;
  if (last)
    e->state = E_CLOSING;
  pthread_cond_broadcast(&pp->cv);
  pthread_mutex_unlock(&pp->mu);
  if (last)
    close_entry(pp, e, "stopped (configuration failed)");
}

void procpool_put(Procpool *pp, ProcpoolEntry *e, bool broken)
{
  pthread_mutex_lock(&pp->mu);
  if (broken)
    e->state = E_RETIRED;
  e->refs--;
  e->last_used = procpool_now();
  bool close_now = e->state == E_RETIRED && e->refs == 0;
  if (close_now)
    e->state = E_CLOSING;
  pthread_cond_broadcast(&pp->cv);
  pthread_mutex_unlock(&pp->mu);
  if (close_now)
    close_entry(pp, e, "stopped (broken)");
}

int procpool_reap(Procpool *pp, long now_ms)
{
  int n = 0;
  for (;;) {
    ProcpoolEntry *victim = NULL;
    pthread_mutex_lock(&pp->mu);
    for (int i = 0; i < pp->max && !victim; i++) {
      ProcpoolEntry *e = &pp->e[i];
      if (e->state == E_READY && e->refs == 0 &&
          now_ms - e->last_used >= pp->idle_ms)
        victim = e;
    }
    if (victim)
      victim->state = E_CLOSING;
    pthread_mutex_unlock(&pp->mu);
    if (!victim)
      return n;
    close_entry(pp, victim, "stopped (idle)");
    n++;
  }
}

int procpool_count(Procpool *pp)
{
  pthread_mutex_lock(&pp->mu);
  int n = 0;
  for (int i = 0; i < pp->max; i++)
    n += pp->e[i].state != E_FREE;
  pthread_mutex_unlock(&pp->mu);
  return n;
}

void procpool_stats(Procpool *pp, int *open, int *busy)
{
  pthread_mutex_lock(&pp->mu);
  *open = *busy = 0;
  for (int i = 0; i < pp->max; i++) {
    *open += pp->e[i].state != E_FREE;
    *busy += pp->e[i].state != E_FREE && pp->e[i].refs > 0;
  }
  pthread_mutex_unlock(&pp->mu);
}

static void *reaper_main(void *arg)
{
  Procpool *pp = arg;
  long step = pp->idle_ms / 4;
  if (step < 10)
    step = 10;
  if (step > 1000)
    step = 1000;
  pthread_mutex_lock(&pp->mu);
  while (!pp->stop) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += (step % 1000) * 1000000L;
    ts.tv_sec += step / 1000 + ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    /* A timed wait on the pool's condition: woken early by any state
    ** change, which costs one extra scan. */
    pthread_cond_timedwait(&pp->cv, &pp->mu, &ts);
    if (pp->stop)
      break;
    pthread_mutex_unlock(&pp->mu);
    procpool_reap(pp, procpool_now());
    pthread_mutex_lock(&pp->mu);
  }
  pthread_mutex_unlock(&pp->mu);
  return NULL;
}

bool procpool_start_reaper(Procpool *pp)
{
  if (pthread_create(&pp->reaper, NULL, reaper_main, pp) != 0)
    return false;
  pp->reaper_on = true;
  return true;
}

void procpool_shutdown(Procpool *pp)
{
  pthread_mutex_lock(&pp->mu);
  pp->stop = true;
  pthread_cond_broadcast(&pp->cv);
  pthread_mutex_unlock(&pp->mu);
  if (pp->reaper_on)
    pthread_join(pp->reaper, NULL);
  pp->reaper_on = false;
  for (;;) {
    ProcpoolEntry *victim = NULL;
    pthread_mutex_lock(&pp->mu);
    bool busy = false;
    for (int i = 0; i < pp->max && !victim; i++) {
      ProcpoolEntry *e = &pp->e[i];
      if (e->state == E_FREE)
        continue;
      if (e->refs == 0 && e->state == E_READY)
        victim = e;
      else
        busy = true;
    }
    if (victim)
      victim->state = E_CLOSING;
    else if (busy)
      pthread_cond_wait(&pp->cv, &pp->mu);
    pthread_mutex_unlock(&pp->mu);
    if (victim)
      close_entry(pp, victim, "stopped (shutdown)");
    else if (!busy)
      return;
  }
}
