/*
** arena: chunked bump allocation, the only memory allocator in cairn.
**
** Every allocation belongs to an arena, and every arena belongs to a phase
** of the program (configuration, state, plan, one per pool worker, one per
** HTTP request).  Nothing is freed individually: the phase ends and the
** whole arena goes with arena_release(), or a scratch computation rewinds
** to a mark taken before it started.
**
** Contracts:
** - Memory returned by arena_alloc() is zeroed and aligned as asked.
** - Size computations are overflow-checked; an overflow is treated exactly
**   like an out-of-memory condition.
** - OUT-OF-MEMORY POLICY: cairn does not try to recover.  When the system
**   refuses memory, arena code prints "cairn: out of memory" to stderr and
**   exits with status 70 (EX_SOFTWARE-ish; see docs/STYLE.md).  State files
**   are only ever replaced by atomic rename, so dying here never tears one.
**   Callers therefore never check for NULL.
** - An arena is used by one thread at a time.  Values placed in an arena
**   may be read by other threads once published (they are immutable).
** - Under AddressSanitizer the unused tail of each chunk, and memory given
**   back by arena_rewind(), is poisoned so stray accesses are caught.
*/
#ifndef CAIRN_ARENA_H
#define CAIRN_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ArenaChunk ArenaChunk;

typedef struct Arena {
  ArenaChunk *chunk;   /* current chunk, newest first; NULL when empty */
  char *beg;           /* next free byte in the current chunk */
  char *end;           /* one past the last usable byte */
  size_t chunk_size;   /* default size of a new chunk */
  size_t used;         /* bytes handed out, for statistics and tests */
  void *last;          /* start of the most recent allocation (for grow) */
  ArenaChunk *spare;   /* one chunk kept by arena_rewind for reuse */
} Arena;

/* A position to rewind to; valid while the arena is not released. */
typedef struct ArenaMark {
  ArenaChunk *chunk;
  char *beg;
  char *end;
  size_t used;
} ArenaMark;

/* Prepares an empty arena; chunk_size 0 picks the default (64 KiB).  No
** memory is taken until the first allocation. */
void arena_init(Arena *a, size_t chunk_size);

/* Gives every chunk back: chunks of 64 KiB to 512 KiB to the process's
** free lists for other arenas (arena.c, "slabs"), the others to the
** system.  The arena is empty and reusable. */
void arena_release(Arena *a);

/* Returns count*size zeroed bytes aligned to align (a power of two, at
** most 64).  count*size == 0 returns a valid unique pointer. */
void *arena_alloc(Arena *a, size_t size, size_t align, size_t count);

/* Like arena_alloc but without zeroing, for buffers about to be filled. */
void *arena_alloc_raw(Arena *a, size_t size, size_t align, size_t count);

/* Resizes p (allocated from a with old_count elements of size bytes) to
** new_count elements.  Grows in place when p is the arena's most recent
** allocation and the chunk has room; otherwise copies.  New bytes are
** zeroed.  p may be NULL (old_count must then be 0). */
void *arena_grow(Arena *a, void *p, size_t size, size_t align,
                 size_t old_count, size_t new_count);

/* Like arena_grow but the new bytes are not zeroed: a buffer's unused
** capacity is then never touched, so its pages stay unmapped. */
void *arena_grow_raw(Arena *a, void *p, size_t size, size_t align,
                     size_t old_count, size_t new_count);

/* Copies n bytes of s and appends a NUL. */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);

/* printf into the arena; returns the NUL-terminated result. */
char *arena_printf(Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

ArenaMark arena_mark(Arena *a);
/* Frees everything allocated since m was taken.  Chunks allocated after m
** are released; the current chunk's tail is poisoned again. */
void arena_rewind(Arena *a, ArenaMark m);

/* True when p points into memory a handed out after m was taken (and
** that has not been rewound): what a scratch scope built, as opposed to
** what existed before it.  Cost: one step per chunk taken since m. */
bool arena_since(const Arena *a, ArenaMark m, const void *p);

/* The one allocation idiom: ARENA_NEW(a, Type, count). */
#define ARENA_NEW(a, T, n) ((T *)arena_alloc((a), sizeof(T), _Alignof(T), (n)))

/* Test hook: after this many more chunk allocations, behave as if the
** system were out of memory.  Negative disables.  Test builds only. */
void arena_test_fail_after(long n);

/* Test hook: how many released default-size chunks the calling thread
** keeps for its next arenas (see arena.c's chunk cache). */
int arena_test_cached(void);

/* Test hook: how many released chunks of units * 64 KiB (with header) the
** process's slab free lists hold; -1 when chunks come from malloc
** instead (AddressSanitizer, the valgrind build). */
int arena_test_slab_free(size_t units);

#endif
