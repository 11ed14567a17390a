/*
** arena.c: chunked bump allocator.  See arena.h for the contracts.
**
** Method: chunks are singly linked, newest first.  An allocation bumps
** a->beg; when the current chunk is too small a new chunk of
** max(chunk size, request + alignment slack) is taken from a huge-page
** slab when it is 64 KiB to 512 KiB (see slab_get), mapped on its own when
** bigger (see map_chunk), and from malloc() otherwise.  This file is the
** only place in cairn that calls malloc()/free().
*/
#include "arena.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif

#ifdef ARENA_ASAN
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
#define POISON(p, n) __asan_poison_memory_region((p), (n))
#define UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define MAX_ALIGN ((size_t)64)

struct ArenaChunk {
  ArenaChunk *prev;   /* older chunk */
  size_t size;        /* usable bytes after the header */
  size_t mapped;      /* bytes of its own mapping (0: not mapped alone) */
  size_t units;       /* slab units it spans (0: not from a slab) */
  _Alignas(64) char data[];
};

/* A default chunk with its header is exactly one slab unit (64 KiB). */
#define SLAB_UNIT ((size_t)64 * 1024)
#define DEFAULT_CHUNK (SLAB_UNIT - sizeof(ArenaChunk))

static long fail_after = -1;

void arena_test_fail_after(long n) { fail_after = n; }

static _Noreturn void out_of_memory(void)
{
  static const char msg[] = "cairn: out of memory\n";
  fwrite(msg, 1, sizeof msg - 1, stderr);
  exit(70);
}

void arena_init(Arena *a, size_t chunk_size)
{
  memset(a, 0, sizeof *a);
  a->chunk_size = chunk_size ? chunk_size : DEFAULT_CHUNK;
}

/* Chunks grow with the arena: a quarter of what it holds, up to
** MAX_CHUNK.  A phase that builds a large tree (a 5 MB configuration makes
** ~60 MB of nodes) then takes a few dozen chunks instead of a thousand,
** so allocation, page mapping and the final release cost far fewer
** system calls, while small arenas keep their small chunks. */
#define MAX_CHUNK ((size_t)4 * 1024 * 1024)
#define HUGE_PAGE ((size_t)2 * 1024 * 1024)

/* An arena past 2 MiB (its next chunk would be 512 KiB or more) takes whole
** huge-page chunks (map_chunk) at once: on a virtual machine each 4 KiB
** page fault is a costly exit (about half the system time of a no-change
** plan of 10,000 was page faults), a huge page is one fault for 512 pages.
** Smaller arenas (a worker's, a request's) keep small chunks, and the
** extra resident memory is at most one partly used 2 MiB chunk per big
** arena. */
static size_t grown_size(const Arena *a)
{
  size_t size = a->chunk_size;
  size_t want = a->used / 4;
  if (want > MAX_CHUNK)
    want = MAX_CHUNK;
  if (want > size && want > DEFAULT_CHUNK)
    size = (want + DEFAULT_CHUNK - 1) / DEFAULT_CHUNK * DEFAULT_CHUNK;
  if (size >= HUGE_PAGE / 4 && size < HUGE_PAGE - sizeof(ArenaChunk))
    size = HUGE_PAGE - sizeof(ArenaChunk);
  return size;
}

/* Big chunks are mapped on their own, 2 MiB aligned and marked for
** transparent huge pages where the system offers them (THP "madvise"
** mode): filling a 60 MB syntax tree then costs a few dozen page faults
** instead of fifteen thousand.  *size is rounded up to use the mapping. */

#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
/* len bytes (a multiple of HUGE_PAGE) of fresh memory aligned to
** HUGE_PAGE and marked for huge pages, or NULL: one mapping HUGE_PAGE
** larger, trimmed at both ends. */
static char *map_huge(size_t len)
{
  char *p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  size_t lead = (size_t)(-(uintptr_t)p & (HUGE_PAGE - 1));
  if (lead)
    munmap(p, lead);
  if (HUGE_PAGE - lead)
    munmap(p + lead + len, HUGE_PAGE - lead);
  p += lead;
  madvise(p, len, MADV_HUGEPAGE);
  return p;
}
#endif

static ArenaChunk *map_chunk(size_t *size)
{
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
  if (*size < HUGE_PAGE - sizeof(ArenaChunk) ||
      *size > SIZE_MAX / 2 - 2 * HUGE_PAGE)
    return NULL;
  size_t len = (*size + sizeof(ArenaChunk) + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  char *p = map_huge(len);
  if (!p)
    return NULL;
  ArenaChunk *c = (ArenaChunk *)(void *)p;
  c->mapped = len;
  c->units = 0;
  *size = len - sizeof(ArenaChunk);
  return c;
#else
  (void)size;
  return NULL;
#endif
}

/* ---- slabs: the memory behind the 64 KiB to 512 KiB chunks -------------
** On a virtual machine first touching memory is what an apply's system
** time is made of: touching 100 MB in 4 KiB pages costs about 0.5 s of
** CPU there, in 2 MiB huge pages 0.05 s (docs/performance.md, "Where
** apply's system time goes").  From malloc, a chunk of 128 KiB or more is
** musl's own mapping, unmapped when freed (a TLB flush on every CPU) and
** faulted in page by page when mapped again.  So these chunks are carved
** from 2 MiB-aligned huge-page slabs, and a released one goes on a free
** list of its size (in 64 KiB units) for the next arena: the process
** touches its memory once and reuses it.  Slab memory is never given
** back before the process exits: a long-running `cairn gateway` keeps its
** peak.  Under AddressSanitizer and in the valgrind build (CAIRN_ARENA_MALLOC)
** chunks come from malloc, so leak and uninitialised-read checks see them. */
#define SLAB_CLASSES 8   /* units: 1..8, i.e. chunks up to 512 KiB */

#if !defined(ARENA_ASAN) && !defined(CAIRN_ARENA_MALLOC) && \
    defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
#define SLAB_BYTES HUGE_PAGE

static pthread_mutex_t slab_mu = PTHREAD_MUTEX_INITIALIZER;
static char *slab_beg, *slab_end;           /* uncarved part of the slab */
static ArenaChunk *slab_free[SLAB_CLASSES + 1];   /* by units; via prev */

/* Puts the units bytes at p on their free list.  Caller holds slab_mu. */
static void slab_push(char *p, size_t units)
{
  ArenaChunk *c = (ArenaChunk *)(void *)p;
  c->units = units;
  c->prev = slab_free[units];
  slab_free[units] = c;
}

/* A new 2 MiB-aligned slab, its old remainder on a free list.  Caller
** holds slab_mu. */
static bool slab_map(void)
{
  char *p = map_huge(SLAB_BYTES);
  if (!p)
    return false;
  size_t left = (size_t)(slab_end - slab_beg) / SLAB_UNIT;
  if (left)
    slab_push(slab_beg, left);
  slab_beg = p;
  slab_end = p + SLAB_BYTES;
  return true;
}

/* A chunk for *size usable bytes from the slabs, or NULL when it is
** smaller than a default chunk (an arena asked for small chunks), too
** big for them or no memory could be mapped; *size is rounded up to the
** whole units taken.  Reuses a released chunk of the same size, then
** splits the smallest bigger one, then carves the slab. */
static ArenaChunk *slab_get(size_t *size)
{
  if (*size < DEFAULT_CHUNK ||
      *size > SLAB_CLASSES * SLAB_UNIT - sizeof(ArenaChunk))
    return NULL;
  size_t units = (*size + sizeof(ArenaChunk) + SLAB_UNIT - 1) / SLAB_UNIT;
  char *p = NULL;
  pthread_mutex_lock(&slab_mu);
  for (size_t u = units; u <= SLAB_CLASSES && !p; u++) {
    ArenaChunk *c = slab_free[u];
    if (!c)
      continue;
    slab_free[u] = c->prev;
    p = (char *)c;
    if (u > units)
      slab_push(p + units * SLAB_UNIT, u - units);
  }
  if (!p && ((size_t)(slab_end - slab_beg) >= units * SLAB_UNIT ||
             slab_map())) {
    p = slab_beg;
    slab_beg += units * SLAB_UNIT;
  }
  pthread_mutex_unlock(&slab_mu);
  if (!p)
    return NULL;
  ArenaChunk *c = (ArenaChunk *)(void *)p;
  c->mapped = 0;
  c->units = units;
  *size = units * SLAB_UNIT - sizeof(ArenaChunk);
  return c;
}

static void slab_put(ArenaChunk *c)
{
  pthread_mutex_lock(&slab_mu);
  slab_push((char *)c, c->units);
  pthread_mutex_unlock(&slab_mu);
}

int arena_test_slab_free(size_t units)
{
  int n = 0;
  pthread_mutex_lock(&slab_mu);
  if (units >= 1 && units <= SLAB_CLASSES)
    for (ArenaChunk *c = slab_free[units]; c; c = c->prev)
      n++;
  pthread_mutex_unlock(&slab_mu);
  return n;
}
#else
int arena_test_slab_free(size_t units)
{
  (void)units;
  return -1;
}

static ArenaChunk *slab_get(size_t *size)
{
  (void)size;
  return NULL;
}

static void slab_put(ArenaChunk *c) { (void)c; }
#endif

/* Gives a chunk back to where it came from. */
static void chunk_return(ArenaChunk *c)
{
  UNPOISON(c->data, c->size);
  if (c->units)
    slab_put(c);
  else if (c->mapped)
    munmap(c, c->mapped);
  else
    free(c);
}

/* ---- the per-thread chunk cache ----------------------------------------
** Short-lived arenas (a journal record, an event, a state scratch buffer)
** take one default-size chunk and give it back a moment later, several
** times per instance.  Handed to malloc/free each time, musl's allocator
** returns the chunk's pages with madvise(MADV_FREE) on every free and
** faults them in again on the next malloc: three system calls and a
** cross-CPU TLB flush per instance in apply (docs/performance.md).  So each
** thread keeps up to CACHE_MAX default-size chunks it released and hands
** them to its next arenas.  Thread-local, so no lock; a thread's leftovers
** are freed when it exits (pthread key destructor), the main thread's stay
** reachable until the process ends.  Only the pages the earlier user
** touched stay resident: at most CACHE_MAX * 64 KiB per thread. */
#define CACHE_MAX 4

typedef struct ChunkCache {
  ArenaChunk *head;   /* linked through prev */
  int n;
} ChunkCache;

static _Thread_local ChunkCache cache;
static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static int cache_key_ok;

static void cache_drop(void *unused)
{
  (void)unused;
  while (cache.head) {
    ArenaChunk *c = cache.head;
    cache.head = c->prev;
    chunk_return(c);
  }
  cache.n = 0;
}

static void cache_key_init(void)
{
  cache_key_ok = pthread_key_create(&cache_key, cache_drop) == 0;
}

/* Keeps c for reuse when it is a default-size malloc'd chunk and there is
** room; returns false when the caller must free it. */
static bool cache_put(ArenaChunk *c)
{
  if (c->mapped || c->size != DEFAULT_CHUNK || cache.n >= CACHE_MAX)
    return false;
  if (cache.n == 0 && !cache.head) {
    /* the key's destructor runs only for a non-NULL value: set it once
    ** per thread so the thread's cache is freed when it exits */
    pthread_once(&cache_once, cache_key_init);
    if (cache_key_ok && !pthread_getspecific(cache_key))
      pthread_setspecific(cache_key, &cache);
  }
  POISON(c->data, c->size);
  c->prev = cache.head;
  cache.head = c;
  cache.n++;
  return true;
}

/* A cached chunk for a new chunk of size bytes, or NULL.  Only requests
** of exactly the default size are served: an arena asked for smaller
** chunks gets them as it asked. */
static ArenaChunk *cache_get(size_t size)
{
  ArenaChunk *c = cache.head;
  if (!c || size != DEFAULT_CHUNK)
    return NULL;
  cache.head = c->prev;
  cache.n--;
  return c;
}

int arena_test_cached(void) { return cache.n; }

static void free_chunk(ArenaChunk *c)
{
  if (!cache_put(c))
    chunk_return(c);
}

static void new_chunk(Arena *a, size_t need)
{
  size_t size = grown_size(a);
  if (need > SIZE_MAX - MAX_ALIGN - sizeof(ArenaChunk))
    out_of_memory();
  if (size < need + MAX_ALIGN)
    size = need + MAX_ALIGN;
  ArenaChunk *c = NULL;
  if (a->spare && a->spare->size >= size) {
    c = a->spare;   /* reuse what the last rewind gave back */
    a->spare = NULL;
    size = c->size;
  } else {
    if (fail_after >= 0 && fail_after-- == 0)
      out_of_memory();
    c = cache_get(size);
    if (c)
      size = c->size;
    else if (!(c = map_chunk(&size)))
      c = slab_get(&size);
    if (!c) {
      c = malloc(sizeof(ArenaChunk) + size);
      if (!c)
        out_of_memory();
      c->mapped = 0;
      c->units = 0;
    }
  }
  c->prev = a->chunk;
  c->size = size;
  a->chunk = c;
  a->beg = c->data;
  a->end = c->data + size;
  POISON(a->beg, size);
}

void arena_release(Arena *a)
{
  if (a->spare)
    free_chunk(a->spare);
  ArenaChunk *c = a->chunk;
  while (c) {
    ArenaChunk *prev = c->prev;
    free_chunk(c);
    c = prev;
  }
  size_t cs = a->chunk_size;
  memset(a, 0, sizeof *a);
  a->chunk_size = cs ? cs : DEFAULT_CHUNK;
}

/* n bytes aligned to align from the current chunk, or NULL. */
static inline void *carve(Arena *a, size_t n, size_t align)
{
  if (!a->beg)
    return NULL;
  uintptr_t p = (uintptr_t)a->beg;
  size_t pad = (size_t)(-p & (align - 1));
  size_t avail = (size_t)(a->end - a->beg);
  if (avail < pad || avail - pad < n)
    return NULL;
  char *r = a->beg + pad;
  a->beg = r + n;
  a->used += n;
  a->last = r;
  UNPOISON(r, n);
  return r;
}

/* Out of line, so that the common path (a parse allocates a few million
** times) saves no registers and stays a handful of instructions. */
static __attribute__((noinline)) void *alloc_slow(Arena *a, size_t n,
                                                  size_t align)
{
  new_chunk(a, n);
  return carve(a, n, align);   /* new_chunk leaves room for n + MAX_ALIGN */
}

void *arena_alloc_raw(Arena *a, size_t size, size_t align, size_t count)
{
  if (align == 0 || (align & (align - 1)) || align > MAX_ALIGN)
    align = MAX_ALIGN;
  size_t n;
  if (__builtin_mul_overflow(size, count, &n))
    out_of_memory();
  if (n == 0)
    n = 1;   /* unique pointer for empty arrays */
  void *r = carve(a, n, align);
  return r ? r : alloc_slow(a, n, align);
}

void *arena_alloc(Arena *a, size_t size, size_t align, size_t count)
{
  void *p = arena_alloc_raw(a, size, align, count);
  size_t n = size * count;
  if (n)
    memset(p, 0, n);
  return p;
}

static void *grow(Arena *a, void *p, size_t size, size_t align,
                  size_t old_count, size_t new_count, bool zero)
{
  if (new_count && size > SIZE_MAX / new_count)
    out_of_memory();
  size_t old_n = size * old_count, new_n = size * new_count;
  if (!p)
    return zero ? arena_alloc(a, size, align, new_count)
                : arena_alloc_raw(a, size, align, new_count);
  if (new_n <= old_n)
    return p;
  /* In place: p is the last allocation and the chunk has room. */
  if (p == a->last && (char *)p + old_n <= a->end &&
      (size_t)(a->end - (char *)p) >= new_n) {
    char *q = p;
    char *newend = q + new_n;
    UNPOISON(q + old_n, new_n - old_n);
    if (zero)
      memset(q + old_n, 0, new_n - old_n);
    if (newend > a->beg) {
      a->used += (size_t)(newend - a->beg);
      a->beg = newend;
    }
    return p;
  }
  void *r = zero ? arena_alloc(a, size, align, new_count)
                 : arena_alloc_raw(a, size, align, new_count);
  memcpy(r, p, old_n);
  return r;
}

void *arena_grow(Arena *a, void *p, size_t size, size_t align,
                 size_t old_count, size_t new_count)
{
  return grow(a, p, size, align, old_count, new_count, true);
}

void *arena_grow_raw(Arena *a, void *p, size_t size, size_t align,
                     size_t old_count, size_t new_count)
{
  return grow(a, p, size, align, old_count, new_count, false);
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
  if (n == SIZE_MAX)
    out_of_memory();
  char *r = arena_alloc_raw(a, 1, 1, n + 1);
  if (n)
    memcpy(r, s, n);
  r[n] = 0;
  return r;
}

char *arena_strdup(Arena *a, const char *s)
{
  return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char small[256];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0)
    return arena_strdup(a, "");
  char *r = arena_alloc_raw(a, 1, 1, (size_t)n + 1);
  if ((size_t)n < sizeof small) {
    memcpy(r, small, (size_t)n + 1);
  } else {
    va_start(ap, fmt);
    vsnprintf(r, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  return r;
}

ArenaMark arena_mark(Arena *a)
{
  ArenaMark m = {a->chunk, a->beg, a->end, a->used};
  return m;
}

bool arena_since(const Arena *a, ArenaMark m, const void *p)
{
  uintptr_t q = (uintptr_t)p;
  for (const ArenaChunk *c = a->chunk; c; c = c->prev) {
    uintptr_t lo = (uintptr_t)c->data, hi = lo + c->size;
    if (c == m.chunk)
      return m.beg && q >= (uintptr_t)m.beg && q < hi;
    if (q >= lo && q < hi)
      return true;
  }
  return false;
}

void arena_rewind(Arena *a, ArenaMark m)
{
  while (a->chunk && a->chunk != m.chunk) {
    ArenaChunk *prev = a->chunk->prev;
    if (!prev && !m.chunk) {
      /* Rewinding to an empty arena keeps the first chunk, so a worker
      ** that marks and rewinds per item does not malloc/free each time. */
      m.beg = a->chunk->data;
      m.end = a->chunk->data + a->chunk->size;
      break;
    }
    /* Keep one chunk for the next new_chunk(), so a loop that marks and
    ** rewinds across a chunk boundary does not malloc/free every time. */
    if (!a->spare || a->spare->size < a->chunk->size) {
      if (a->spare)
        free_chunk(a->spare);
      a->spare = a->chunk;
      POISON(a->spare->data, a->spare->size);
    } else {
      free_chunk(a->chunk);
    }
    a->chunk = prev;
  }
  a->beg = m.beg;
  a->end = m.end;
  a->used = m.used;
  a->last = NULL;
  if (a->beg)
    POISON(a->beg, (size_t)(a->end - a->beg));
}
