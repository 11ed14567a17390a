/* Unit tests for core/base/arena and core/base/buf. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "t.h"

static void test_zeroed_and_aligned(void)
{
  Arena a;
  arena_init(&a, 128);
  for (int i = 0; i < 1000; i++) {
    size_t align = (size_t)1 << (i % 7);
    unsigned char *p = arena_alloc(&a, 1 + (size_t)i % 37, align, 1);
    T_CHECK(((uintptr_t)p & (align - 1)) == 0);
    int zero = 1;
    for (size_t k = 0; k < 1 + (size_t)i % 37; k++)
      zero &= p[k] == 0;
    T_CHECK(zero);
    p[0] = 0xff;
  }
  arena_release(&a);
}

static void test_zero_size_unique(void)
{
  Arena a;
  arena_init(&a, 0);
  void *p = arena_alloc(&a, 0, 8, 0);
  void *q = arena_alloc(&a, 8, 8, 0);
  T_CHECK(p != NULL && q != NULL && p != q);
  arena_release(&a);
}

static void test_large_allocation(void)
{
  Arena a;
  arena_init(&a, 64);
  char *p = ARENA_NEW(&a, char, 1 << 20);
  p[(1 << 20) - 1] = 1;
  T_EQ_INT(p[0], 0);
  char *q = ARENA_NEW(&a, char, 10);
  T_CHECK(q != NULL);
  T_CHECK(a.used >= (1 << 20) + 10);
  arena_release(&a);
}

static void test_grow_in_place(void)
{
  Arena a;
  arena_init(&a, 4096);
  int *v = ARENA_NEW(&a, int, 4);
  for (int i = 0; i < 4; i++)
    v[i] = i;
  int *w = arena_grow(&a, v, sizeof(int), _Alignof(int), 4, 8);
  T_CHECK(w == v);
  T_EQ_INT(w[3], 3);
  T_EQ_INT(w[7], 0);
  (void)ARENA_NEW(&a, int, 1);   /* v is no longer the last allocation */
  int *x = arena_grow(&a, w, sizeof(int), _Alignof(int), 8, 16);
  T_CHECK(x != w);
  T_EQ_INT(x[3], 3);
  T_EQ_INT(x[15], 0);
  /* growing across the chunk end copies */
  int *y = arena_grow(&a, x, sizeof(int), _Alignof(int), 16, 10000);
  T_EQ_INT(y[3], 3);
  T_EQ_INT(y[9999], 0);
  arena_release(&a);
}

static void test_mark_rewind(void)
{
  Arena a;
  arena_init(&a, 256);
  char *keep = arena_strdup(&a, "keep me");
  ArenaMark m = arena_mark(&a);
  size_t used = a.used;
  for (int i = 0; i < 100; i++)
    (void)ARENA_NEW(&a, char, 200);   /* spills into new chunks */
  arena_rewind(&a, m);
  T_EQ_INT(a.used, used);
  T_EQ_STR(keep, "keep me");
  char *again = arena_strdup(&a, "again");
  T_EQ_STR(again, "again");
  arena_release(&a);
}

/* arena_since tells what a scope allocated from what existed before it,
** across chunks, and forgets what a rewind gave back. */
static void test_since(void)
{
  Arena a, other;
  arena_init(&a, 256);
  arena_init(&other, 256);
  ArenaMark m0 = arena_mark(&a);   /* empty arena */
  char *old = arena_strdup(&a, "before");
  ArenaMark m = arena_mark(&a);
  T_CHECK(arena_since(&a, m0, old));
  T_CHECK(!arena_since(&a, m, old));
  char *same_chunk = arena_strdup(&a, "x");
  T_CHECK(arena_since(&a, m, same_chunk));
  char *later[100];
  for (int i = 0; i < 100; i++)
    later[i] = ARENA_NEW(&a, char, 200);   /* spills into new chunks */
  for (int i = 0; i < 100; i++)
    T_CHECK(arena_since(&a, m, later[i]));
  T_CHECK(arena_since(&a, m, same_chunk));
  T_CHECK(!arena_since(&a, m, old));
  char *elsewhere = arena_strdup(&other, "other");
  T_CHECK(!arena_since(&a, m, elsewhere));
  T_CHECK(!arena_since(&a, m0, elsewhere));
  T_CHECK(!arena_since(&a, m, "static"));
  arena_rewind(&a, m);
  T_CHECK(!arena_since(&a, m, later[99]));
  T_CHECK(!arena_since(&a, m, old));
  char *again = arena_strdup(&a, "again");
  T_CHECK(arena_since(&a, m, again));
  arena_release(&a);
  arena_release(&other);
}

static void test_rewind_to_empty_keeps_a_chunk(void)
{
  Arena a;
  arena_init(&a, 1024);
  ArenaMark m = arena_mark(&a);
  char *p = ARENA_NEW(&a, char, 100);
  arena_rewind(&a, m);
  T_CHECK(a.chunk != NULL);       /* kept for reuse */
  T_EQ_INT(a.used, 0);
  char *q = ARENA_NEW(&a, char, 100);
  T_CHECK(p == q);                /* same memory handed out again */
  T_EQ_INT(q[0], 0);
  arena_release(&a);
  T_CHECK(a.chunk == NULL);
}

static void test_rewind_keeps_spare_chunk(void)
{
  Arena a;
  arena_init(&a, 256);
  (void)ARENA_NEW(&a, char, 200);
  ArenaMark m = arena_mark(&a);
  char *first = ARENA_NEW(&a, char, 200);   /* needs a second chunk */
  arena_rewind(&a, m);
  T_CHECK(a.spare != NULL);
  char *again = ARENA_NEW(&a, char, 200);   /* the spare is reused */
  T_CHECK(again == first);
  T_CHECK(a.spare == NULL);
  arena_release(&a);
  T_CHECK(a.chunk == NULL && a.spare == NULL);
}

static void test_printf_and_strndup(void)
{
  Arena a;
  arena_init(&a, 0);
  T_EQ_STR(arena_printf(&a, "%d-%s", 42, "x"), "42-x");
  char big[600];
  memset(big, 'y', sizeof big - 1);
  big[sizeof big - 1] = 0;
  T_EQ_INT(strlen(arena_printf(&a, "%s%s", big, big)), 2 * 599);
  T_EQ_STR(arena_strndup(&a, "abcdef", 3), "abc");
  arena_release(&a);
}

/* Runs fn in a child and returns its exit status (-1 if signalled). */
static int child_status(void (*fn)(void))
{
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stderr);
    fn();
    _exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void overflow_child(void)
{
  Arena a;
  arena_init(&a, 0);
  (void)arena_alloc(&a, SIZE_MAX / 2, 1, 3);
}

static void oom_child(void)
{
  Arena a;
  arena_init(&a, 64);
  arena_test_fail_after(2);
  for (int i = 0; i < 10; i++)
    (void)ARENA_NEW(&a, char, 1000);
}

static void test_overflow_and_oom_exit_70(void)
{
  T_EQ_INT(child_status(overflow_child), 70);
  T_EQ_INT(child_status(oom_child), 70);
}

/* A large arena takes bigger chunks as it grows (mapped on their own past
** 2 MiB): every byte stays usable and zeroed, a rewind across them and
** the release give everything back. */
static void test_growing_chunks(void)
{
  Arena a;
  arena_init(&a, 0);
  ArenaMark m0 = arena_mark(&a);
  char *first = NULL, *last = NULL;
  for (int i = 0; i < 4000; i++) {
    char *p = ARENA_NEW(&a, char, 4096);
    T_CHECK(p[0] == 0 && p[4095] == 0);
    memset(p, 0xAB, 4096);
    if (!first)
      first = p;
    last = p;
  }
  T_CHECK(a.used >= (size_t)4000 * 4096);
  T_CHECK(first[0] == (char)0xAB && last[4095] == (char)0xAB);
  /* the newest chunk is a big one: a 3 MiB request fits without error */
  char *big = ARENA_NEW(&a, char, (size_t)3 << 20);
  T_CHECK(big[0] == 0 && big[(3 << 20) - 1] == 0);
  T_CHECK(((uintptr_t)ARENA_NEW(&a, double, 1) & 7) == 0);
  arena_rewind(&a, m0);
  T_EQ_INT((long)a.used, 0);
  char *again = ARENA_NEW(&a, char, 100);
  T_CHECK(again[99] == 0);
  arena_release(&a);
  T_CHECK(a.chunk == NULL && a.spare == NULL);
}

/* Short-lived default arenas recycle their chunks through the thread's
** cache instead of the C allocator (issue 20's madvise storm): a
** released chunk is handed to the next arena, zeroed where it is handed
** out, and the cache keeps at most a few. */
static void test_chunk_cache(void)
{
  Arena a, b;
  arena_init(&a, 0);
  char *p = ARENA_NEW(&a, char, 100);
  memset(p, 0xCD, 100);
  int before = arena_test_cached();
  arena_release(&a);
  T_CHECK(arena_test_cached() == before + 1 || arena_test_cached() == 4);
  int held = arena_test_cached();
  arena_init(&b, 0);
  char *q = ARENA_NEW(&b, char, 100);
  T_EQ_INT(arena_test_cached(), held - 1);
  T_CHECK(q == p);                  /* the same chunk, first byte again */
  T_EQ_INT(q[0], 0);
  T_EQ_INT(q[99], 0);
  arena_release(&b);
  /* many arenas alive at once, then released: the cache stays bounded */
  Arena many[10];
  for (int i = 0; i < 10; i++) {
    arena_init(&many[i], 0);
    (void)ARENA_NEW(&many[i], char, 10);
  }
  for (int i = 0; i < 10; i++)
    arena_release(&many[i]);
  T_EQ_INT(arena_test_cached(), 4);
  /* an arena with its own small chunk size is not served from the cache */
  Arena s;
  arena_init(&s, 256);
  (void)ARENA_NEW(&s, char, 10);
  T_EQ_INT(arena_test_cached(), 4);
  arena_release(&s);
}

/* A thread's cached chunks are freed when it exits (LeakSanitizer, in the
** san build, reports them otherwise). */
static void *cache_thread(void *arg)
{
  Arena a;
  arena_init(&a, 0);
  (void)ARENA_NEW(&a, char, 10);
  arena_release(&a);
  *(int *)arg = arena_test_cached();
  return NULL;
}

static void test_chunk_cache_thread_exit(void)
{
  int n = -1;
  pthread_t th;
  T_CHECK(pthread_create(&th, NULL, cache_thread, &n) == 0);
  T_CHECK(pthread_join(th, NULL) == 0);
  T_EQ_INT(n, 1);
}

static void test_buf(void)
{
  Arena a;
  arena_init(&a, 64);
  Buf b;
  buf_init(&b, &a);
  T_EQ_STR(buf_str(&b), "");
  for (int i = 0; i < 1000; i++)
    buf_printf(&b, "%d,", i % 10);
  T_EQ_INT(b.len, 2000);
  T_CHECK(b.p[1999] == ',' && b.p[2000] == 0);
  buf_clear(&b);
  buf_puts(&b, "x");
  buf_putc(&b, 'y');
  buf_put(&b, "z\0w", 3);
  T_EQ_INT(b.len, 5);
  T_EQ_STR(buf_str(&b), "xyz");
  /* a reservation alone leaves an empty string, not garbage; a large one
  ** gets what it asks for (not the next power of two), keeps the text */
  Buf r;
  buf_init(&r, &a);
  buf_reserve(&r, 0);
  T_EQ_STR(buf_str(&r), "");
  buf_puts(&r, "abc");
  buf_reserve(&r, 100000);
  T_EQ_INT(r.cap, 100004);
  T_EQ_STR(buf_str(&r), "abc");
  buf_reserve(&r, 10);   /* fits: unchanged */
  T_EQ_INT(r.cap, 100004);
  for (int i = 0; i < 100000; i++)
    buf_putc(&r, 'x');
  T_EQ_INT(r.len, 100003);
  buf_putc(&r, 'y');     /* full: at least doubles */
  T_CHECK(r.cap >= 200008 && r.p[r.len - 1] == 'y' && r.p[r.len] == 0);
  /* arena_grow_raw keeps the old bytes (in place and when it moves) */
  char *g = arena_alloc_raw(&a, 1, 1, 4);
  memcpy(g, "abcd", 4);
  g = arena_grow_raw(&a, g, 1, 1, 4, 8);
  T_CHECK(memcmp(g, "abcd", 4) == 0);
  (void)arena_strdup(&a, "between");
  char *h = arena_grow_raw(&a, g, 1, 1, 8, 100);
  T_CHECK(h != g && memcmp(h, "abcd", 4) == 0);
  arena_release(&a);
}

/* buf_read_fd reads pipes (size 0) to end of file and stops at its cap on
** a device that never ends. */
static void test_buf_read_fd(void)
{
  Arena a;
  arena_init(&a, 0);
  int pfd[2];
  T_CHECK(pipe(pfd) == 0);
  T_CHECK(write(pfd[1], "n = 42\n", 7) == 7);
  close(pfd[1]);
  Buf b;
  buf_init(&b, &a);
  T_EQ_INT(buf_read_fd(&b, pfd[0], 100), 0);
  close(pfd[0]);
  T_EQ_STR(buf_str(&b), "n = 42\n");
  int z = open("/dev/zero", O_RDONLY);
  T_CHECK(z >= 0);
  buf_clear(&b);
  T_EQ_INT(buf_read_fd(&b, z, 1 << 20), EFBIG);
  T_CHECK(b.len > (1u << 20) && b.len <= (1u << 20) + 65536);
  close(z);
  arena_release(&a);
}

/* Chunks of 64 KiB to 512 KiB come from huge-page slabs: a released one
** is the next arena's chunk of its size, and a bigger free chunk is split
** for a smaller request.  Under ASan (and in the valgrind build) they come
** from malloc and the free lists do not exist. */
static void test_slab_reuse_and_split(void)
{
  const size_t unit = 64 * 1024, hdr = 64;
  if (arena_test_slab_free(1) < 0) {
    Arena a;
    arena_init(&a, 4 * unit - hdr);
    char *p = ARENA_NEW(&a, char, 100);
    arena_release(&a);
    T_EQ_INT(arena_test_slab_free(4), -1);   /* nothing kept */
    T_CHECK(p != NULL);
    return;
  }
  Arena a, b;
  arena_init(&a, 8 * unit - hdr);
  char *p8 = ARENA_NEW(&a, char, 100);
  int free8 = arena_test_slab_free(8);
  arena_release(&a);
  T_EQ_INT(arena_test_slab_free(8), free8 + 1);
  arena_init(&b, 8 * unit - hdr);
  char *q8 = ARENA_NEW(&b, char, 100);
  T_CHECK(q8 == p8);                          /* the same chunk again */
  T_EQ_INT(arena_test_slab_free(8), free8);
  T_EQ_INT(q8[0], 0);
  arena_release(&b);
  /* a 7-unit request with no 7-unit chunk free splits the 8-unit one */
  T_EQ_INT(arena_test_slab_free(7), 0);
  int free1 = arena_test_slab_free(1);
  arena_init(&a, 7 * unit - hdr);
  char *p7 = ARENA_NEW(&a, char, 100);
  T_CHECK(p7 == p8);
  T_EQ_INT(arena_test_slab_free(8), free8);
  T_EQ_INT(arena_test_slab_free(1), free1 + 1);
  memset(p7, 0xab, 7 * unit - 2 * hdr);        /* the whole chunk is usable */
  arena_release(&a);
  T_EQ_INT(arena_test_slab_free(7), 1);
}

int main(void)
{
  T_RUN(test_zeroed_and_aligned);
  T_RUN(test_zero_size_unique);
  T_RUN(test_large_allocation);
  T_RUN(test_grow_in_place);
  T_RUN(test_mark_rewind);
  T_RUN(test_since);
  T_RUN(test_rewind_to_empty_keeps_a_chunk);
  T_RUN(test_rewind_keeps_spare_chunk);
  T_RUN(test_printf_and_strndup);
  T_RUN(test_overflow_and_oom_exit_70);
  T_RUN(test_growing_chunks);
  T_RUN(test_chunk_cache);
  T_RUN(test_chunk_cache_thread_exit);
  T_RUN(test_slab_reuse_and_split);
  T_RUN(test_buf);
  T_RUN(test_buf_read_fd);
  return t_done("test_arena");
}
