/* Unit tests for core/state/stmgr: framing, atomic writes, locking between
** processes (fork + pipes, no sleeps), snapshots, journal replay, intents
** and, in test builds, a walk over every crash point. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/json.h"
#include "state/stmgr.h"
#include "t.h"

static Arena A;
static char root[256];
static int dirno;

static const char *newdir(void)
{
  const char *d = arena_printf(&A, "%s/d%d", root, dirno++);
  mkdir(d, 0755);
  return d;
}

static const char *slurp(const char *path, size_t *n)
{
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return NULL;
  Buf b;
  buf_init(&b, &A);
  buf_puts(&b, "");
  char tmp[65536];
  ssize_t k;
  while ((k = read(fd, tmp, sizeof tmp)) > 0)
    buf_put(&b, tmp, (size_t)k);
  close(fd);
  if (n)
    *n = b.len;
  return b.p;
}

static bool exists(const char *p)
{
  struct stat st;
  return stat(p, &st) == 0;
}

static void mgr(StMgr *m, const char *dir)
{
  StMgrOpts o = {arena_printf(&A, "%s/terraform.tfstate", dir), NULL, NULL};
  stmgr_init(m, &A, &o);
}

static StObject *obj(State *s, const char *id)
{
  StObject *o = st_object_new(s);
  const char *names[] = {"id"};
  Value v[] = {val_cstr(&A, id)};
  o->attrs = val_object(&A, 1, names, v);
  return o;
}

static void test_framing(void)
{
  T_EQ_INT(stmgr_crc32("123456789", 9), 0xCBF43926u);
  Buf b;
  buf_init(&b, &A);
  stmgr_frame(&b, "{\"a\":1}", 7);
  stmgr_frame(&b, "{\"b\":2}", 7);
  size_t one = 19 + 7 + 1;
  T_EQ_INT(b.len, 2 * one);
  T_EQ_INT(stmgr_scan(b.p, b.len, NULL, NULL), 2 * one);
  /* every torn length keeps exactly the complete records */
  int bad = 0;
  for (size_t n = 0; n < b.len; n++) {
    size_t want = n < one ? 0 : n < 2 * one ? one : 2 * one;
    if (stmgr_scan(b.p, n, NULL, NULL) != want)
      bad++;
  }
  T_EQ_INT(bad, 0);
  char *c = arena_strndup(&A, b.p, b.len);
  c[one + 20] ^= 1; /* flip a payload bit of record 2 */
  T_EQ_INT(stmgr_scan(c, b.len, NULL, NULL), one);
}

static void test_atomic_write(void)
{
  const char *d = newdir();
  StMgr m;
  mgr(&m, d);
  const char *p = arena_printf(&A, "%s/f", d);
  Diags dg;
  diag_init(&dg, &A);
  /* Two large, different contents; a concurrent reader must only ever
  ** see one or the other, never a torn or empty file. */
  size_t big = 1 << 18;
  char *va = ARENA_NEW(&A, char, big), *vb = ARENA_NEW(&A, char, big);
  memset(va, 'a', big);
  memset(vb, 'b', big);
  T_CHECK(stmgr_write_file(&m, p, va, big, &dg));
  int go[2], res[2];
  T_CHECK(pipe(go) == 0 && pipe(res) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    close(go[1]);
    fcntl(go[0], F_SETFL, O_NONBLOCK);
    long reads = 0, torn = 0;
    static char rb[1 << 18];
    for (;;) {
      char c;
      ssize_t k = read(go[0], &c, 1);
      if (k == 0)
        break;
      int fd = open(p, O_RDONLY);
      if (fd < 0) {
        torn++;
        continue;
      }
      size_t got = 0;
      ssize_t r;
      while ((r = read(fd, rb + got, sizeof rb - got)) > 0)
        got += (size_t)r;
      close(fd);
      reads++;
      if (got != big || (rb[0] != 'a' && rb[0] != 'b') ||
          memchr(rb, rb[0] == 'a' ? 'b' : 'a', got))
        torn++;
    }
    long out[2] = {reads, torn};
    if (write(res[1], out, sizeof out) < 0)
      _exit(2);
    _exit(0);
  }
  close(go[0]);
  close(res[1]);
  for (int i = 0; i < 40; i++)
    stmgr_write_file(&m, p, i % 2 ? va : vb, big, &dg);
  close(go[1]);
  long out[2] = {0, 0};
  T_CHECK(read(res[0], out, sizeof out) == sizeof out);
  close(res[0]);
  int st;
  waitpid(pid, &st, 0);
  T_CHECK(out[0] > 0);
  T_EQ_INT(out[1], 0);
  T_EQ_INT(dg.errors, 0);
  struct stat sb;
  T_CHECK(stat(p, &sb) == 0 && (sb.st_mode & 0777) == 0600);
  /* no temporary file is left behind */
  DIR *dir = opendir(d);
  int tmps = 0;
  struct dirent *e;
  while (dir && (e = readdir(dir)))
    tmps += strstr(e->d_name, ".tmp.") != NULL;
  if (dir)
    closedir(dir);
  T_EQ_INT(tmps, 0);
  stmgr_close(&m);
}

/* ---- Locking ------------------------------------------------------------ */

typedef struct Hold {
  pid_t pid;
  int to_child;    /* write: any byte = release and exit */
  int from_child;  /* read: lock ID (36 bytes) once locked */
  char id[37];
} Hold;

/* A child that takes the lock through stmgr (or, raw, an fcntl lock on
** the state file as Terraform does), reports, and waits for release. */
static void hold_lock(Hold *h, const char *dir, bool raw, bool die_locked)
{
  int a[2], b[2];
  if (pipe(a) || pipe(b))
    abort();
  h->pid = fork();
  if (h->pid == 0) {
    close(a[1]);
    close(b[0]);
    Arena ca;
    arena_init(&ca, 0);
    char id[37] = "raw-lock-000000000000000000000000000";
    StMgr m;
    if (raw) {
      int fd = open(arena_printf(&ca, "%s/terraform.tfstate", dir), O_RDWR);
      struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
      if (fd < 0 || fcntl(fd, F_SETLK, &fl) < 0)
        _exit(3);
    } else {
      StMgrOpts o = {arena_printf(&ca, "%s/terraform.tfstate", dir), NULL,
                     NULL};
      stmgr_init(&m, &ca, &o);
      Diags d;
      diag_init(&d, &ca);
      if (!stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, &d))
        _exit(3);
      memcpy(id, m.lock.id, 36);
    }
    if (write(b[1], id, 36) != 36)
      _exit(4);
    if (die_locked)
      _exit(0); /* the kernel drops the lock; lock info stays */
    char c;
    if (read(a[0], &c, 1) < 0)
      _exit(5);
    if (!raw)
      stmgr_unlock(&m, NULL);
    if (write(b[1], "u", 1) != 1)
      _exit(6);
    _exit(0);
  }
  close(a[0]);
  close(b[1]);
  h->to_child = a[1];
  h->from_child = b[0];
  memset(h->id, 0, sizeof h->id);
  if (read(h->from_child, h->id, 36) != 36)
    h->id[0] = 0;
}

static void release(Hold *h)
{
  char c = 'r';
  if (write(h->to_child, &c, 1) == 1 && read(h->from_child, &c, 1) == 1) {
  }
}

static int reap(Hold *h)
{
  int st = 0;
  close(h->to_child);
  waitpid(h->pid, &st, 0);
  close(h->from_child);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Fake clock and sleep: sleeping advances the clock; after `release_after`
** sleeps the holder is told to release (synchronously, via the pipes). */
typedef struct Fake {
  long now;
  long sleeps[32];
  int nsleeps;
  int release_after;
  Hold *h;
  int notices;
  long notice_at;
} Fake;

static long fake_now(void *ctx) { return ((Fake *)ctx)->now; }

static void fake_sleep(void *ctx, long ms)
{
  Fake *f = ctx;
  if (f->nsleeps < 32)
    f->sleeps[f->nsleeps] = ms;
  f->nsleeps++;
  f->now += ms;
  if (f->h && f->nsleeps == f->release_after)
    release(f->h);
}

static void fake_notice(void *ctx)
{
  Fake *f = ctx;
  f->notices++;
  f->notice_at = f->now;
}

static void test_lock_contention(void)
{
  const char *d = newdir();
  Hold h;
  hold_lock(&h, d, false, false);
  T_EQ_INT(strlen(h.id), 36);
  StMgr m;
  mgr(&m, d);
  Diags dg;
  diag_init(&dg, &A);
  T_CHECK(!stmgr_lock(&m, "OperationTypePlan", 0, NULL, NULL, &dg));
  T_EQ_STR(dg.head ? dg.head->summary : "", "Error acquiring the state lock");
  const char *det = dg.head ? dg.head->detail : "";
  const char *pre = "Error message: resource temporarily unavailable\n"
                    "Lock Info:\n  ID:        ";
  T_CHECK(strncmp(det, pre, strlen(pre)) == 0);
  T_CHECK(strstr(det, h.id) != NULL);
  T_CHECK(strstr(det, "  Operation: OperationTypeApply\n") != NULL);
  T_CHECK(strstr(det, "  Version:   " CAIRN_VERSION "\n") != NULL);
  T_CHECK(strstr(det, " +0000 UTC\n  Info:      \n\n\nTerraform acquires") !=
          NULL);
  T_CHECK(strstr(det, "\"-lock=false\"\nflag, but this is not "
                      "recommended.") != NULL);
  /* lock info file: Terraform's field order, mode 0600 */
  size_t n;
  const char *info = slurp(arena_printf(&A, "%s/.terraform.tfstate.lock.info",
                                        d), &n);
  T_CHECK(info != NULL);
  if (info) {
    T_CHECK(strncmp(info, "{\"ID\":\"", 7) == 0);
    const char *k[] = {"\"ID\"", "\"Operation\"", "\"Info\"", "\"Who\"",
                       "\"Version\"", "\"Created\"", "\"Path\""};
    const char *prev = info;
    for (int i = 0; i < 7; i++) {
      const char *q = strstr(info, k[i]);
      T_CHECK(q && q >= prev);
      prev = q ? q : prev;
    }
    T_CHECK(strstr(info, arena_printf(&A, "\"Path\":\"%s/terraform.tfstate\"",
                                      d)) != NULL);
    T_CHECK(info[n - 1] == '}');
  }
  struct stat sb;
  T_CHECK(stat(arena_printf(&A, "%s/.terraform.tfstate.lock.info", d), &sb) ==
              0 && (sb.st_mode & 0777) == 0600);
  /* -lock-timeout: backoff 1 s doubling, notice at 400 ms, then success
  ** once the holder releases (after the 4th sleep). */
  Fake f = {0};
  f.h = &h;
  f.release_after = 4;
  m.now_ms = fake_now;
  m.sleep_ms = fake_sleep;
  m.hook_ctx = &f;
  Diags d2;
  diag_init(&d2, &A);
  T_CHECK(stmgr_lock(&m, "OperationTypeApply", 60000, fake_notice, &f, &d2));
  T_EQ_INT(d2.errors, 0);
  T_EQ_INT(f.nsleeps, 4);
  T_EQ_INT(f.sleeps[0], 400);
  T_EQ_INT(f.sleeps[1], 600);
  T_EQ_INT(f.sleeps[2], 2000);
  T_EQ_INT(f.sleeps[3], 4000);
  T_EQ_INT(f.notices, 1);
  T_EQ_INT(f.notice_at, 400);
  T_CHECK(m.locked);
  T_EQ_INT(reap(&h), 0);
  /* same process: already locked */
  Diags d3;
  diag_init(&d3, &A);
  T_CHECK(!stmgr_lock(&m, "x", 0, NULL, NULL, &d3));
  T_CHECK(d3.head && strstr(d3.head->detail, "already locked"));
  T_CHECK(stmgr_unlock(&m, NULL));
  T_CHECK(stmgr_unlock(&m, NULL)); /* idempotent */
  T_CHECK(!exists(arena_printf(&A, "%s/.terraform.tfstate.lock.info", d)));
  T_CHECK(exists(arena_printf(&A, "%s/.terraform.tfstate.lock", d)));
  stmgr_close(&m);
}

static void test_lock_timeout(void)
{
  const char *d = newdir();
  Hold h;
  hold_lock(&h, d, false, false);
  StMgr m;
  mgr(&m, d);
  Fake f = {0};
  m.now_ms = fake_now;
  m.sleep_ms = fake_sleep;
  m.hook_ctx = &f;
  Diags dg;
  diag_init(&dg, &A);
  T_CHECK(!stmgr_lock(&m, "OperationTypeApply", 3500, fake_notice, &f, &dg));
  T_EQ_INT(f.nsleeps, 4);
  T_EQ_INT(f.sleeps[0] + f.sleeps[1], 1000);
  T_EQ_INT(f.sleeps[2], 2000);
  T_EQ_INT(f.sleeps[3], 500);
  T_EQ_STR(dg.head ? dg.head->summary : "", "Error acquiring the state lock");
  T_CHECK(!m.locked);
  /* 16 s cap */
  Fake g = {0};
  m.hook_ctx = &g;
  Diags d2;
  diag_init(&d2, &A);
  T_CHECK(!stmgr_lock(&m, "x", 100000, NULL, NULL, &d2));
  T_EQ_INT(g.sleeps[0], 1000);
  T_EQ_INT(g.sleeps[4], 16000);
  T_EQ_INT(g.sleeps[5], 16000);
  release(&h);
  T_EQ_INT(reap(&h), 0);
  stmgr_close(&m);
}

static void test_lock_terraform_and_stale(void)
{
  const char *d = newdir();
  StMgr m0;
  mgr(&m0, d);
  Diags dg;
  diag_init(&dg, &A);
  State *s;
  T_CHECK(stmgr_load(&m0, &s, &dg));
  T_CHECK(stmgr_commit(&m0, s, &dg));
  stmgr_close(&m0);
  /* A Terraform process holding an fcntl lock on the state file. */
  Hold h;
  hold_lock(&h, d, true, false);
  StMgr m;
  mgr(&m, d);
  T_CHECK(!stmgr_lock(&m, "x", 0, NULL, NULL, &dg));
  T_EQ_INT(dg.errors, 1);
  release(&h);
  T_EQ_INT(reap(&h), 0);
  /* A holder that died: its lock is gone, its info file stays. */
  Hold dead;
  hold_lock(&dead, d, false, true);
  T_EQ_INT(reap(&dead), 0);
  T_CHECK(exists(arena_printf(&A, "%s/.terraform.tfstate.lock.info", d)));
  Diags d2;
  diag_init(&d2, &A);
  T_CHECK(!stmgr_force_unlock(&m, "wrong", &d2));
  T_CHECK(d2.head && strstr(d2.head->detail, "invalid lock id: \"wrong\". "
                                             "current id: \""));
  T_CHECK(stmgr_force_unlock(&m, dead.id, &d2));
  T_CHECK(!exists(arena_printf(&A, "%s/.terraform.tfstate.lock.info", d)));
  Diags d3;
  diag_init(&d3, &A);
  T_CHECK(!stmgr_force_unlock(&m, dead.id, &d3));
  T_EQ_STR(d3.head ? d3.head->detail : "", "LocalState not locked");
  /* a live holder cannot be force-unlocked */
  Hold live;
  hold_lock(&live, d, false, false);
  Diags d4;
  diag_init(&d4, &A);
  T_CHECK(!stmgr_force_unlock(&m, live.id, &d4));
  T_EQ_STR(d4.head ? d4.head->detail : "",
           "Local state cannot be unlocked by another process");
  release(&live);
  T_EQ_INT(reap(&live), 0);
  T_CHECK(stmgr_lock(&m, "x", 0, NULL, NULL, &dg));
  stmgr_close(&m);
}

static void test_format_lock_info(void)
{
  StLockInfo li = {"id", "op", "", "me@h", "1.2.3",
                   "2025-03-01T10:11:12.123450000Z", "p"};
  Buf b;
  buf_init(&b, &A);
  stmgr_format_lock_info(&b, &li);
  T_EQ_STR(b.p, "Lock Info:\n  ID:        id\n  Path:      p\n"
                "  Operation: op\n  Who:       me@h\n  Version:   1.2.3\n"
                "  Created:   2025-03-01 10:11:12.12345 +0000 UTC\n"
                "  Info:      \n");
  buf_clear(&b);
  stmgr_lock_info_json(&b, &li);
  T_EQ_STR(b.p, "{\"ID\":\"id\",\"Operation\":\"op\",\"Info\":\"\",\"Who\":"
                "\"me@h\",\"Version\":\"1.2.3\",\"Created\":"
                "\"2025-03-01T10:11:12.123450000Z\",\"Path\":\"p\"}");
  StLockInfo fresh;
  stmgr_new_lock_info(&A, &fresh, "OperationTypeApply", "terraform.tfstate");
  T_EQ_INT(strlen(fresh.id), 36);
  T_CHECK(strchr(fresh.who, '@') != NULL);
  T_CHECK(fresh.created[strlen(fresh.created) - 1] == 'Z');
}

/* ---- Snapshots and journal ------------------------------------------------ */

static uint64_t serial_of(const char *dir)
{
  size_t n;
  const char *src = slurp(arena_printf(&A, "%s/terraform.tfstate", dir), &n);
  Diags d;
  diag_init(&d, &A);
  State *s = NULL;
  if (!src || !st_read(&A, "x", src, n, &s, &d) || !s)
    return (uint64_t)-1;
  return s->serial;
}

static void test_snapshots(void)
{
  const char *d = newdir();
  StMgr m;
  mgr(&m, d);
  Diags dg;
  diag_init(&dg, &A);
  State *s;
  T_CHECK(stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, &dg));
  T_CHECK(stmgr_load(&m, &s, &dg));
  T_EQ_INT(s->nres, 0);
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "t", "a", "p");
  st_set_current(s, r, st_nokey(), obj(s, "1"));
  T_CHECK(stmgr_commit(&m, s, &dg));
  T_EQ_INT(s->serial, 1);
  T_EQ_INT(strlen(s->lineage), 36);
  const char *lineage = s->lineage;
  T_CHECK(!exists(arena_printf(&A, "%s/terraform.tfstate.backup", d)));
  struct stat sb;
  T_CHECK(stat(arena_printf(&A, "%s/terraform.tfstate", d), &sb) == 0 &&
          (sb.st_mode & 0777) == 0600);
  T_CHECK(stmgr_commit(&m, s, &dg)); /* unchanged: same serial */
  T_EQ_INT(s->serial, 1);
  stmgr_close(&m);

  StMgr m2;
  mgr(&m2, d);
  T_CHECK(stmgr_lock(&m2, "OperationTypeApply", 0, NULL, NULL, &dg));
  T_CHECK(stmgr_load(&m2, &s, &dg));
  T_EQ_STR(s->lineage, lineage);
  T_CHECK(stmgr_commit(&m2, s, &dg));
  T_EQ_INT(serial_of(d), 1);
  T_CHECK(!exists(arena_printf(&A, "%s/terraform.tfstate.backup", d)));
  r = st_find_resource_addr(s, "t.a");
  st_set_current(s, r, st_intkey(1), obj(s, "2"));
  T_CHECK(stmgr_commit(&m2, s, &dg));
  T_EQ_INT(serial_of(d), 2);
  size_t bn;
  const char *bk = slurp(arena_printf(&A, "%s/terraform.tfstate.backup", d),
                         &bn);
  T_CHECK(bk && strstr(bk, "\"serial\": 1,") && !strstr(bk, "\"index_key\""));
  st_set_current(s, r, st_intkey(2), obj(s, "3"));
  T_CHECK(stmgr_commit(&m2, s, &dg));
  T_EQ_INT(serial_of(d), 3);
  bk = slurp(arena_printf(&A, "%s/terraform.tfstate.backup", d), &bn);
  T_CHECK(bk && strstr(bk, "\"serial\": 1,")); /* once per command */
  T_EQ_INT(dg.errors, 0);
  stmgr_close(&m2);
  /* -state-out and -backup=- */
  StMgrOpts o = {arena_printf(&A, "%s/terraform.tfstate", d),
                 arena_printf(&A, "%s/out.tfstate", d), "-"};
  StMgr m3;
  stmgr_init(&m3, &A, &o);
  T_CHECK(stmgr_load(&m3, &s, &dg));
  st_set_current(s, r = st_find_resource_addr(s, "t.a"), st_intkey(3),
                 obj(s, "4"));
  T_CHECK(stmgr_commit(&m3, s, &dg));
  T_CHECK(exists(arena_printf(&A, "%s/out.tfstate", d)));
  T_CHECK(!exists(arena_printf(&A, "%s/out.tfstate.backup", d)));
  T_EQ_INT(s->serial, 4);
  stmgr_close(&m3);
  /* a bad state file is reported and left untouched */
  const char *bad = arena_printf(&A, "%s/bad.tfstate", newdir());
  int fd = open(bad, O_WRONLY | O_CREAT, 0644);
  T_CHECK(write(fd, "{\"version\":4,", 13) == 13);
  close(fd);
  StMgrOpts bo = {bad, NULL, NULL};
  StMgr mb;
  stmgr_init(&mb, &A, &bo);
  Diags db;
  diag_init(&db, &A);
  T_CHECK(!stmgr_lock(&mb, "x", 0, NULL, NULL, &db) || true);
  T_CHECK(!stmgr_load(&mb, &s, &db));
  T_CHECK(db.errors >= 1);
  size_t bl;
  const char *after = slurp(bad, &bl);
  T_CHECK(bl == 13 && after && memcmp(after, "{\"version\":4,", 13) == 0);
  stmgr_close(&mb);
}

/* stmgr_drop_source (plan): the state read stays whole without the file's
** bytes (ASan would see a pointer into them), and a commit after it is
** refused with a diagnostic, leaving the file as it was. */
static void test_drop_source(void)
{
  const char *d = newdir();
  StMgr m;
  mgr(&m, d);
  Diags dg;
  diag_init(&dg, &A);
  State *s;
  T_CHECK(stmgr_load(&m, &s, &dg));
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "t", "a",
                                     "provider[\"registry.terraform.io/x/t\"]");
  st_set_current(s, r, st_strkey(s->arena, "k", 1), obj(s, "1"));
  T_CHECK(stmgr_commit(&m, s, &dg));
  stmgr_close(&m);
  const char *path = arena_printf(&A, "%s/terraform.tfstate", d);
  size_t n0;
  const char *before = slurp(path, &n0);

  StMgr m2;
  mgr(&m2, d);
  T_CHECK(stmgr_lock(&m2, "OperationTypeApply", 0, NULL, NULL, &dg));
  T_CHECK(stmgr_load(&m2, &s, &dg));
  stmgr_drop_source(&m2);
  T_CHECK(m2.orig_src == NULL && m2.disk_p == NULL);
  Buf b;
  buf_init(&b, &A);
  st_write(&b, s, NULL);
  T_CHECK(before && b.len == n0 && memcmp(b.p, before, n0) == 0);
  T_EQ_INT(dg.errors, 0);
  st_set_current(s, st_find_resource_addr(s, "t.a"), st_intkey(2),
                 obj(s, "2"));
  T_CHECK(!stmgr_commit(&m2, s, &dg));
  T_EQ_INT(dg.errors, 1);
  size_t n1;
  const char *after = slurp(path, &n1);
  T_CHECK(after && n1 == n0 && memcmp(after, before, n0) == 0);
  stmgr_close(&m2);
}

static ino_t inode_of(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 ? st.st_ino : 0;
}

/* The commit streams the snapshot and keeps no text: a snapshot written
** another way (compact, another terraform_version) with the same content
** keeps its serial and is rewritten once; an identical one is left alone;
** later commits of the same command compare with the file read back,
** locked or not. */
static void test_commit_streamed(void)
{
  for (int locked = 1; locked >= 0; locked--) {
    const char *d = newdir();
    const char *path = arena_printf(&A, "%s/terraform.tfstate", d);
    const char *text =
        "{\"version\":4,\"terraform_version\":\"1.5.7\",\"serial\":5,"
        "\"lineage\":\"5d1c2a44-0000-4000-8000-000000000001\",\"outputs\":{},"
        "\"resources\":[{\"mode\":\"managed\",\"type\":\"t\",\"name\":\"a\","
        "\"provider\":\"p\",\"instances\":[{\"schema_version\":0,"
        "\"attributes\":{\"id\":\"1\"},\"sensitive_attributes\":[]}]}],"
        "\"check_results\":null}\n";
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    T_CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    StMgr m;
    mgr(&m, d);
    Diags dg;
    diag_init(&dg, &A);
    State *s;
    if (locked)
      T_CHECK(stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, &dg));
    T_CHECK(stmgr_load(&m, &s, &dg));
    T_CHECK(stmgr_commit(&m, s, &dg));   /* same content, other text */
    T_EQ_INT(serial_of(d), 5);
    size_t n;
    const char *now = slurp(path, &n);
    T_CHECK(now && strstr(now, "\n  \"serial\": 5,\n") != NULL);
    T_CHECK(!exists(arena_printf(&A, "%s.backup", path)));
    ino_t ino = inode_of(path);
    T_CHECK(stmgr_commit(&m, s, &dg));   /* identical: not rewritten */
    T_EQ_INT(inode_of(path), ino);
    T_EQ_INT(serial_of(d), 5);
    StResource *r = st_find_resource_addr(s, "t.a");
    st_set_current(s, r, st_intkey(1), obj(s, "2"));
    T_CHECK(stmgr_commit(&m, s, &dg));
    T_EQ_INT(serial_of(d), 6);
    size_t bn;
    const char *bk = slurp(arena_printf(&A, "%s.backup", path), &bn);
    T_CHECK(bk && strstr(bk, "\"serial\": 5,") &&
            strstr(bk, "\"terraform_version\": \"1.5.7\"") == NULL);
    st_set_current(s, r, st_intkey(2), obj(s, "3"));
    T_CHECK(stmgr_commit(&m, s, &dg));   /* compared with the file */
    T_CHECK(stmgr_commit(&m, s, &dg));   /* identical to the file */
    if (locked) {
      /* reading the file back kept its lock: another process cannot lock
      ** it (checked before this process opens the file any other way:
      ** closing any descriptor of it would drop the process's lock) */
      pid_t pid = fork();
      if (pid == 0) {
        int cfd = open(path, O_RDWR);
        struct flock fl;
        memset(&fl, 0, sizeof fl);
        fl.l_type = F_WRLCK;
        fl.l_whence = SEEK_SET;
        _exit(cfd >= 0 && fcntl(cfd, F_SETLK, &fl) < 0 ? 0 : 1);
      }
      int st = -1;
      T_CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
      T_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    T_EQ_INT(serial_of(d), 7);
    /* what is on disk is what the state writes */
    Buf want;
    buf_init(&want, &A);
    st_write(&want, s, NULL);
    now = slurp(path, &n);
    T_CHECK(now && n == want.len && memcmp(now, want.p, n) == 0);
    T_EQ_INT(dg.errors, 0);
    stmgr_close(&m);
  }
}

/* state push: the pushed lineage and serial, bumped once when the content
** differs from the snapshot on disk, so a forced push may lower it. */
static void test_commit_import(void)
{
  const char *d = newdir();
  StMgr m;
  mgr(&m, d);
  Diags dg;
  diag_init(&dg, &A);
  State *s;
  T_CHECK(stmgr_load(&m, &s, &dg));
  s->serial = 5;
  T_CHECK(stmgr_commit_import(&m, s, &dg)); /* no file before: bumped */
  T_EQ_INT(serial_of(d), 6);
  stmgr_close(&m);
  const char *lin = arena_strdup(&A, s->lineage);

  StMgr m2;
  mgr(&m2, d);
  State *cur, *src = st_new(&A);
  T_CHECK(stmgr_load(&m2, &cur, &dg));
  src->lineage = lin;
  src->serial = 2;                          /* same (empty) content */
  T_CHECK(stmgr_commit_import(&m2, src, &dg));
  T_EQ_INT(serial_of(d), 2);
  stmgr_close(&m2);

  StMgr m3;
  mgr(&m3, d);
  T_CHECK(stmgr_load(&m3, &cur, &dg));
  State *src2 = st_new(&A);
  src2->lineage = "other";
  src2->serial = 2;
  StResource *r = st_ensure_resource(src2, "", ST_MANAGED, "null_resource",
                                     "n", "provider[\"registry.terraform."
                                     "io/hashicorp/null\"]");
  st_set_current(src2, r, st_intkey(0), obj(src2, "x"));
  T_CHECK(stmgr_commit_import(&m3, src2, &dg)); /* content differs */
  T_EQ_INT(serial_of(d), 3);
  T_EQ_INT(src2->serial, 3);
  T_EQ_INT(dg.errors, 0);
  stmgr_close(&m3);
}

/* One "apply" step: intent, then the result. */
static bool apply_one(StMgr *m, State *s, int i, Diags *d)
{
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "null_resource", "n",
                                     "provider[\"registry.terraform.io/"
                                     "hashicorp/null\"]");
  char id[17];
  const char *addr = st_instance_addr(&A, r, st_intkey(i));
  if (!stmgr_intent(m, s, addr, "create", id, d))
    return false;
  return stmgr_record_set(m, s, r, st_intkey(i), NULL,
                          obj(s, arena_printf(&A, "id-%d", i)), id, d);
}

static void test_journal_replay(void)
{
  const char *d = newdir();
  StMgr m;
  mgr(&m, d);
  Diags dg;
  diag_init(&dg, &A);
  State *s;
  T_CHECK(stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, &dg));
  T_CHECK(stmgr_load(&m, &s, &dg));
  for (int i = 0; i < 3; i++)
    T_CHECK(apply_one(&m, s, i, &dg));
  char lost[17];
  T_CHECK(stmgr_intent(&m, s, "null_resource.n[3]", "create", lost, &dg));
  const char *jp = arena_printf(&A, "%s/terraform.tfstate.journal", d);
  T_CHECK(exists(jp));
  T_CHECK(!exists(arena_printf(&A, "%s/terraform.tfstate", d)));
  /* simulate a crash: no commit; append a torn record */
  int fd = open(jp, O_WRONLY | O_APPEND);
  T_CHECK(write(fd, "J00000040 deadbeef {\"op\":", 25) == 25);
  close(fd);
  stmgr_close(&m);

  StMgr m2;
  mgr(&m2, d);
  T_CHECK(stmgr_lock(&m2, "OperationTypeApply", 0, NULL, NULL, &dg));
  T_CHECK(stmgr_load(&m2, &s, &dg));
  T_EQ_INT(dg.errors + dg.warnings, 0);
  T_EQ_INT(s->ninstances, 3);
  T_EQ_INT(strlen(s->lineage), 36);
  uint32_t nd;
  const StIntent *dang = stmgr_dangling(&m2, &nd);
  T_EQ_INT(nd, 1);
  if (nd == 1) {
    T_EQ_STR(dang[0].addr, "null_resource.n[3]");
    T_EQ_STR(dang[0].id, lost);
    T_CHECK(strlen(dang[0].time) >= 20);
  }
  /* appending after a torn tail truncates it first */
  T_CHECK(apply_one(&m2, s, 4, &dg));
  size_t jn;
  const char *jb = slurp(jp, &jn);
  T_EQ_INT(stmgr_scan(jb, jn, NULL, NULL), jn);
  T_CHECK(stmgr_commit(&m2, s, &dg));
  T_EQ_INT(s->serial, 1);
  /* the dangling intent is kept until resolved */
  T_CHECK(exists(jp));
  stmgr_close(&m2);

  StMgr m3;
  mgr(&m3, d);
  T_CHECK(stmgr_lock(&m3, "OperationTypeApply", 0, NULL, NULL, &dg));
  T_CHECK(stmgr_load(&m3, &s, &dg));
  T_EQ_INT(s->ninstances, 4);
  dang = stmgr_dangling(&m3, &nd);
  T_EQ_INT(nd, 1);
  T_CHECK(stmgr_intent_resolve(&m3, s, lost, &dg));
  T_CHECK(stmgr_commit(&m3, s, &dg));
  T_CHECK(!exists(jp));
  T_EQ_INT(s->serial, 1); /* content unchanged by resolving */
  T_EQ_INT(dg.errors, 0);
  stmgr_close(&m3);
}

/* ---- group commit -------------------------------------------------------
** Deterministic: the fdatasync hook holds the first sync until the other
** two recorders have written their records, so exactly one more sync
** covers both of them. */

typedef struct Group {
  StMgr *m;
  State *s;
  StResource *r;
  StObject *o[3];
  int calls;            /* under m->mu */
  uint64_t seen[4];     /* seq_written when each sync started */
  int in_first;         /* set once the first sync is running */
  int fail;             /* make every sync fail with EIO */
  bool ok[3];
} Group;

typedef struct GroupArg {
  Group *g;
  int i;
} GroupArg;

static uint64_t written_now(StMgr *m)
{
  pthread_mutex_lock(&m->mu);
  uint64_t v = m->seq_written;
  pthread_mutex_unlock(&m->mu);
  return v;
}

static int group_sync(void *ctx, int fd)
{
  Group *g = ctx;
  pthread_mutex_lock(&g->m->mu);
  int k = g->calls++;
  if (k < 4)
    g->seen[k] = g->m->seq_written;
  pthread_mutex_unlock(&g->m->mu);
  if (k == 0 && !g->fail) {
    __atomic_store_n(&g->in_first, 1, __ATOMIC_SEQ_CST);
    /* Waits for a condition (both other records written), not a time. */
    while (written_now(g->m) < 3)
      sched_yield();
  }
  if (g->fail) {
    errno = EIO;
    return -1;
  }
  return fdatasync(fd);
}

static void *group_rec(void *p)
{
  GroupArg *ga = p;
  Group *g = ga->g;
  Diags d;
  Arena a;
  arena_init(&a, 0);
  diag_init(&d, &a);
  g->ok[ga->i] = stmgr_record_set(g->m, g->s, g->r, st_intkey(ga->i), NULL,
                                  g->o[ga->i], NULL, &d);
  /* On return the record is durable: a sync covering it has ended. */
  pthread_mutex_lock(&g->m->mu);
  if (g->m->seq_synced < 1)
    g->ok[ga->i] = false;
  pthread_mutex_unlock(&g->m->mu);
  arena_release(&a);
  return NULL;
}

static void test_group_commit(void)
{
  const char *d = newdir();
  StMgr m;
  mgr(&m, d);
  Diags dg;
  diag_init(&dg, &A);
  State *s;
  T_CHECK(stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, &dg));
  T_CHECK(stmgr_load(&m, &s, &dg));
  Group g;
  memset(&g, 0, sizeof g);
  g.m = &m;
  g.s = s;
  g.r = st_ensure_resource(s, "", ST_MANAGED, "null_resource", "n",
                           "provider[\"registry.terraform.io/hashicorp/"
                           "null\"]");
  for (int i = 0; i < 3; i++)
    g.o[i] = obj(s, arena_printf(&A, "id-%d", i));
  m.datasync = group_sync;
  m.hook_ctx = &g;
  pthread_t t[3];
  GroupArg ga[3] = {{&g, 0}, {&g, 1}, {&g, 2}};
  pthread_create(&t[0], NULL, group_rec, &ga[0]);
  while (!__atomic_load_n(&g.in_first, __ATOMIC_SEQ_CST))
    sched_yield();
  pthread_create(&t[1], NULL, group_rec, &ga[1]);
  pthread_create(&t[2], NULL, group_rec, &ga[2]);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  T_CHECK(g.ok[0] && g.ok[1] && g.ok[2]);
  /* three records, two syncs: the second covered records 2 and 3 */
  T_EQ_INT(g.calls, 2);
  T_EQ_INT(m.nsyncs, 2);
  T_EQ_INT(g.seen[0], 1);
  T_EQ_INT(g.seen[1], 3);
  T_EQ_INT(m.seq_synced, 3);
  T_EQ_INT(s->ninstances, 3);
  stmgr_close(&m);

  /* the journal holds all three: a crash here loses nothing */
  StMgr m2;
  mgr(&m2, d);
  T_CHECK(stmgr_load(&m2, &s, &dg));
  T_EQ_INT(s->ninstances, 3);
  T_EQ_INT(dg.errors + dg.warnings, 0);
  stmgr_close(&m2);
}

/* A failed fdatasync fails its recorder and every later one; the change
** stays in memory, and the final snapshot (its own durable write) saves
** it and starts a clean journal. */
static void test_sync_failure(void)
{
  const char *d = newdir();
  StMgr m;
  mgr(&m, d);
  Diags dg;
  diag_init(&dg, &A);
  State *s;
  T_CHECK(stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, &dg));
  T_CHECK(stmgr_load(&m, &s, &dg));
  Group g;
  memset(&g, 0, sizeof g);
  g.m = &m;
  g.fail = 1;
  m.datasync = group_sync;
  m.hook_ctx = &g;
  T_CHECK(!apply_one(&m, s, 0, &dg));
  T_EQ_INT(dg.errors, 1);
  T_CHECK(dg.head && strstr(dg.head->detail, strerror(EIO)));
  T_EQ_INT(s->ninstances, 0); /* the intent failed: no create */
  g.fail = 0;
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "null_resource",
                                     "n", "provider[\"registry.terraform.io/"
                                     "hashicorp/null\"]");
  Diags d2;
  diag_init(&d2, &A);
  T_CHECK(!stmgr_record_set(&m, s, r, st_intkey(1), NULL, obj(s, "id-1"),
                            NULL, &d2));
  T_CHECK(d2.head && strstr(d2.head->detail, "earlier sync"));
  T_EQ_INT(g.calls, 1);          /* no second sync on a failed journal */
  T_EQ_INT(s->ninstances, 1);    /* applied in memory all the same */
  Diags d3;
  diag_init(&d3, &A);
  T_CHECK(stmgr_commit(&m, s, &d3));
  T_EQ_INT(d3.errors, 0);
  T_CHECK(apply_one(&m, s, 2, &d3));
  T_EQ_INT(d3.errors, 0);
  T_CHECK(stmgr_commit(&m, s, &d3));
  stmgr_close(&m);
  StMgr m2;
  mgr(&m2, d);
  T_CHECK(stmgr_load(&m2, &s, &d3));
  T_EQ_INT(s->ninstances, 2);
  T_EQ_INT(s->serial, 2);
  stmgr_close(&m2);
}

/* ---- deferred sync (defer_sync, stmgr_sync) ----------------------------
** A machine crash keeps of the journal what the last fdatasync made
** durable.  The hook notes that length before each sync, and the test
** cuts the journal there, which is what a power loss leaves. */

typedef struct Durable {
  off_t len;            /* journal bytes the last sync made durable */
  int calls;
  int fail;
} Durable;

static int durable_sync(void *ctx, int fd)
{
  Durable *du = ctx;
  du->calls++;
  if (du->fail) {
    errno = EIO;
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) == 0)   /* one thread: nothing appends meanwhile */
    du->len = st.st_size;
  return fdatasync(fd);
}

/* The journal of dir cut to n bytes (a power loss), loaded by a fresh
** StMgr: returns the state and the number of dangling intents. */
static State *load_cut(const char *dir, const char *jfull, size_t n,
                       uint32_t *ndang)
{
  const char *jp = arena_printf(&A, "%s/terraform.tfstate.journal", dir);
  int fd = open(jp, O_WRONLY | O_TRUNC | O_CREAT, 0600);
  T_CHECK(fd >= 0 && write(fd, jfull, n) == (ssize_t)n);
  close(fd);
  StMgr m;
  mgr(&m, dir);
  Diags dg;
  diag_init(&dg, &A);
  State *s = NULL;
  T_CHECK(stmgr_load(&m, &s, &dg));
  T_EQ_INT(dg.errors + dg.warnings, 0);
  stmgr_dangling(&m, ndang);
  stmgr_close(&m);
  return s;
}

static bool has_inst(State *s, int i)
{
  StResource *r = st_find_resource(s, "", ST_MANAGED, "null_resource", "n");
  return r && st_find_instance(s, r, st_intkey(i)) &&
         st_find_instance(s, r, st_intkey(i))->current;
}

static void test_deferred_power_loss(void)
{
  const char *d = newdir();
  StMgr m;
  mgr(&m, d);
  Diags dg;
  diag_init(&dg, &A);
  State *s;
  Durable du = {0, 0, 0};
  m.datasync = durable_sync;
  m.hook_ctx = &du;
  T_CHECK(stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, &dg));
  T_CHECK(stmgr_load(&m, &s, &dg));
  m.defer_sync = true;
  /* remote creates: each intent waits, each result does not */
  for (int i = 0; i < 4; i++)
    T_CHECK(apply_one(&m, s, i, &dg));
  T_EQ_INT(du.calls, 4);            /* one sync per create, not two */
  T_EQ_INT(m.seq_written, 8);
  T_EQ_INT(m.seq_synced, 7);        /* the last result is pending */
  off_t after_remote = du.len;
  /* built-in creates: no intent, nothing synced */
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "null_resource", "n",
                                     "provider[\"registry.terraform.io/"
                                     "hashicorp/null\"]");
  for (int i = 4; i < 6; i++)
    T_CHECK(stmgr_record_set(&m, s, r, st_intkey(i), NULL,
                             obj(s, arena_printf(&A, "id-%d", i)), NULL,
                             &dg));
  T_EQ_INT(du.calls, 4);
  T_EQ_INT(s->ninstances, 6);       /* applied in memory at once */
  const char *jp = arena_printf(&A, "%s/terraform.tfstate.journal", d);
  size_t jn;
  const char *before_sync = slurp(jp, &jn);
  T_CHECK(du.len == after_remote && (size_t)du.len < jn);

  /* a power loss now: results 0-2 survive (each later intent's sync
  ** covered them), create 3's intent dangles, the built-in creates 4 and
  ** 5 are gone as if never made */
  const char *d2 = newdir();
  uint32_t nd;
  State *cut = load_cut(d2, before_sync, (size_t)du.len, &nd);
  T_EQ_INT(cut->ninstances, 3);
  T_CHECK(has_inst(cut, 0) && has_inst(cut, 1) && has_inst(cut, 2));
  T_EQ_INT(nd, 1);
  /* a process crash (no power loss) loses nothing written */
  State *full = load_cut(d2, before_sync, jn, &nd);
  T_EQ_INT(full->ninstances, 6);
  T_EQ_INT(nd, 0);

  /* stmgr_sync makes everything written durable, once */
  T_CHECK(stmgr_sync(&m, &dg));
  T_EQ_INT(du.calls, 5);
  T_EQ_INT((size_t)du.len, jn);
  T_CHECK(stmgr_sync(&m, &dg));     /* nothing pending: no sync */
  T_EQ_INT(du.calls, 5);
  cut = load_cut(d2, before_sync, (size_t)du.len, &nd);
  T_EQ_INT(cut->ninstances, 6);
  T_EQ_INT(nd, 0);

  /* a failed sync: stmgr_sync says so, and so does every later record */
  T_CHECK(stmgr_record_set(&m, s, r, st_intkey(6), NULL, obj(s, "id-6"),
                           NULL, &dg));
  du.fail = 1;
  Diags d3;
  diag_init(&d3, &A);
  T_CHECK(!stmgr_sync(&m, &d3));
  T_CHECK(d3.head && strstr(d3.head->detail, strerror(EIO)));
  T_CHECK(!stmgr_record_set(&m, s, r, st_intkey(7), NULL, obj(s, "id-7"),
                            NULL, &d3));
  T_EQ_INT(dg.errors, 0);
  /* the snapshot saves all of it and starts clean */
  du.fail = 0;
  m.defer_sync = false;
  Diags d4;
  diag_init(&d4, &A);
  T_CHECK(stmgr_commit(&m, s, &d4));
  T_EQ_INT(d4.errors, 0);
  T_CHECK(!exists(jp));
  stmgr_close(&m);
  StMgr m2;
  mgr(&m2, d);
  T_CHECK(stmgr_load(&m2, &s, &d4));
  T_EQ_INT(s->ninstances, 8);
  stmgr_close(&m2);
}

static void test_journal_stale_and_unrelated(void)
{
  const char *d = newdir();
  StMgr m;
  mgr(&m, d);
  Diags dg;
  diag_init(&dg, &A);
  State *s;
  T_CHECK(stmgr_load(&m, &s, &dg));
  T_CHECK(apply_one(&m, s, 0, &dg));
  char lost[17];
  T_CHECK(stmgr_intent(&m, s, "null_resource.n[1]", "create", lost, &dg));
  const char *jp = arena_printf(&A, "%s/terraform.tfstate.journal", d);
  size_t jn;
  const char *saved = slurp(jp, &jn);
  T_CHECK(stmgr_commit(&m, s, &dg));
  stmgr_close(&m);
  /* a crash between the snapshot rename and the journal rewrite leaves
  ** the old journal: its records must not be applied twice, its open
  ** intents must survive */
  int fd = open(jp, O_WRONLY | O_TRUNC | O_CREAT, 0600);
  T_CHECK(write(fd, saved, jn) == (ssize_t)jn);
  close(fd);
  StMgr m2;
  mgr(&m2, d);
  T_CHECK(stmgr_load(&m2, &s, &dg));
  T_EQ_INT(s->ninstances, 1);
  uint32_t nd;
  stmgr_dangling(&m2, &nd);
  T_EQ_INT(nd, 1);
  T_EQ_INT(dg.errors + dg.warnings, 0);
  stmgr_close(&m2);
  /* a journal of another lineage is ignored with a warning */
  Buf b;
  buf_init(&b, &A);
  const char *hdr = "{\"journal\":1,\"lineage\":\"other\",\"serial\":1}";
  stmgr_frame(&b, hdr, strlen(hdr));
  fd = open(jp, O_WRONLY | O_TRUNC | O_CREAT, 0600);
  T_CHECK(write(fd, b.p, b.len) == (ssize_t)b.len);
  close(fd);
  StMgr m3;
  mgr(&m3, d);
  Diags d3;
  diag_init(&d3, &A);
  T_CHECK(stmgr_load(&m3, &s, &d3));
  T_EQ_INT(d3.warnings, 1);
  T_EQ_STR(d3.head ? d3.head->summary : "",
           "Ignoring an unrelated state journal");
  stmgr_close(&m3);
}

#ifdef CAIRN_TEST
#define WALK_N 50

/* The scenario a child runs: load, WALK_N creates, one output, commit. */
static void walk_child(const char *dir, long crash_at)
{
  char v[32];
  snprintf(v, sizeof v, "%ld", crash_at);
  setenv("CAIRN_TEST_CRASH_AT", v, 1);
  stmgr_crash_reset();
  Arena ca;
  arena_init(&ca, 0);
  StMgr m;
  StMgrOpts o = {arena_printf(&ca, "%s/terraform.tfstate", dir), NULL, NULL};
  stmgr_init(&m, &ca, &o);
  Diags d;
  diag_init(&d, &ca);
  State *s;
  if (!stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, &d) ||
      !stmgr_load(&m, &s, &d))
    _exit(3);
  for (int i = 0; i < WALK_N; i++) {
    StResource *r = st_find_resource_addr(s, "null_resource.n");
    if (r && st_find_instance(s, r, st_intkey(i)))
      continue; /* converge: already recorded */
    if (!apply_one(&m, s, i, &d))
      _exit(4);
  }
  if (!stmgr_record_output(&m, s, "n", val_int(WALK_N), &ty_number, false,
                           &d) ||
      !stmgr_commit(&m, s, &d))
    _exit(5);
  stmgr_unlock(&m, NULL);
  if (!crash_at) {
    FILE *f = fopen(arena_printf(&ca, "%s/points", dir), "w");
    if (!f)
      _exit(6);
    fprintf(f, "%ld\n", stmgr_crash_points());
    fclose(f);
  }
  _exit(crash_at ? 98 : 0);
}

static int run_child(const char *dir, long crash_at)
{
  pid_t pid = fork();
  if (pid == 0)
    walk_child(dir, crash_at);
  int st;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_crash_walk(void)
{
  /* Base: a committed state with one unrelated resource. */
  const char *base = newdir();
  StMgr m;
  mgr(&m, base);
  Diags dg;
  diag_init(&dg, &A);
  State *s;
  T_CHECK(stmgr_load(&m, &s, &dg));
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "t", "keep", "p");
  st_set_current(s, r, st_nokey(), obj(s, "keep"));
  T_CHECK(stmgr_commit(&m, s, &dg));
  stmgr_close(&m);
  size_t bn;
  const char *basesrc = slurp(arena_printf(&A, "%s/terraform.tfstate", base),
                              &bn);
  const char *pd = newdir();
  T_EQ_INT(run_child(pd, 0), 0);
  const char *ps = slurp(arena_printf(&A, "%s/points", pd), NULL);
  long points = ps ? strtol(ps, NULL, 10) : 0;
  T_CHECK(points > WALK_N * 6);
  int bad = 0;
  for (long n = 1; n <= points; n++) {
    const char *d = newdir();
    int fd = open(arena_printf(&A, "%s/terraform.tfstate", d),
                  O_WRONLY | O_CREAT, 0600);
    if (write(fd, basesrc, bn) != (ssize_t)bn)
      bad++;
    close(fd);
    if (run_child(d, n) != 99) {
      bad++;
      fprintf(stderr, "crash point %ld: child did not crash\n", n);
      continue;
    }
    /* After the crash: the state loads, recorded creates form a prefix,
    ** at most one create is dangling and it is the next one. */
    StMgr c;
    mgr(&c, d);
    Diags cd;
    diag_init(&cd, &A);
    State *cs;
    if (!stmgr_load(&c, &cs, &cd) || cd.errors) {
      bad++;
      fprintf(stderr, "crash point %ld: state does not load\n", n);
      continue;
    }
    StResource *nr = st_find_resource_addr(cs, "null_resource.n");
    int have = 0;
    while (nr && have < WALK_N && st_find_instance(cs, nr, st_intkey(have)))
      have++;
    uint32_t ninst = nr ? nr->ninst : 0;
    uint32_t nd;
    const StIntent *dang = stmgr_dangling(&c, &nd);
    if ((int)ninst != have || !st_find_resource_addr(cs, "t.keep") ||
        nd > 1 ||
        (nd == 1 && strcmp(dang[0].addr, arena_printf(&A, "null_resource.n[%d]",
                                                      have)) != 0)) {
      bad++;
      fprintf(stderr, "crash point %ld: inconsistent (have %d, n %u, "
              "dangling %u)\n", n, have, ninst, nd);
    }
    stmgr_close(&c);
    /* the next apply converges: nothing lost, nothing twice */
    if (run_child(d, 0) != 0) {
      bad++;
      continue;
    }
    StMgr f;
    mgr(&f, d);
    State *fs;
    Diags fd2;
    diag_init(&fd2, &A);
    if (!stmgr_load(&f, &fs, &fd2)) {
      bad++;
      continue;
    }
    StResource *fr = st_find_resource_addr(fs, "null_resource.n");
    if (!fr || fr->ninst != WALK_N || fs->noutputs != 1 ||
        exists(arena_printf(&A, "%s/terraform.tfstate.journal", d)) !=
            (nd == 1)) {
      bad++;
      fprintf(stderr, "crash point %ld: did not converge\n", n);
    }
    stmgr_close(&f);
  }
  T_EQ_INT(bad, 0);
}
#endif

/* Intent ids: 16 lowercase hex digits, unique within and across threads
** although only the first id of each thread costs a getrandom. */
#define IDS_PER_THREAD 20000
typedef char IntentId[17];

static void *make_ids(void *p)
{
  IntentId *ids = p;
  for (int i = 0; i < IDS_PER_THREAD; i++)
    stmgr_new_intent_id(ids[i]);
  return NULL;
}

static int id_cmp(const void *a, const void *b)
{
  return memcmp(a, b, sizeof(IntentId));
}

static void test_intent_ids(void)
{
  IntentId *ids = ARENA_NEW(&A, IntentId, 3 * IDS_PER_THREAD);
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    T_CHECK(pthread_create(&t[i], NULL, make_ids,
                           ids + (i + 1) * IDS_PER_THREAD) == 0);
  make_ids(ids);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  int bad = 0;
  for (int i = 0; i < 3 * IDS_PER_THREAD; i++) {
    bad += strlen(ids[i]) != 16;
    for (int k = 0; k < 16; k++)
      bad += !strchr("0123456789abcdef", ids[i][k]) || !ids[i][k];
  }
  T_EQ_INT(bad, 0);
  qsort(ids, 3 * IDS_PER_THREAD, sizeof(IntentId), id_cmp);
  int dups = 0;
  for (int i = 1; i < 3 * IDS_PER_THREAD; i++)
    dups += memcmp(ids[i - 1], ids[i], sizeof(IntentId)) == 0;
  T_EQ_INT(dups, 0);
}

int main(void)
{
  arena_init(&A, 0);
  snprintf(root, sizeof root, "/tmp/cairn-test-stmgr.%ld", (long)getpid());
  mkdir(root, 0755);
  T_RUN(test_framing);
  T_RUN(test_atomic_write);
  T_RUN(test_lock_contention);
  T_RUN(test_lock_timeout);
  T_RUN(test_lock_terraform_and_stale);
  T_RUN(test_format_lock_info);
  T_RUN(test_snapshots);
  T_RUN(test_commit_import);
  T_RUN(test_drop_source);
  T_RUN(test_journal_replay);
  T_RUN(test_journal_stale_and_unrelated);
  T_RUN(test_group_commit);
  T_RUN(test_sync_failure);
  T_RUN(test_deferred_power_loss);
  T_RUN(test_intent_ids);
  T_RUN(test_commit_streamed);
#ifdef CAIRN_TEST
  T_RUN(test_crash_walk);
#endif
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", root);
  if (system(cmd) != 0)
    fprintf(stderr, "cleanup failed\n");
  arena_release(&A);
  return t_done("stmgr");
}
