/*
** stmgr.c: durable state storage (see stmgr.h and docs/state.md).
*/
#include "stmgr.h"
#include "stmgr_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/json.h"

#ifndef CAIRN_VERSION
#define CAIRN_VERSION "0.0.0"
#endif

#define LOCK_NOTICE_MS 400
#define LOCK_DELAY_MS 1000
#define LOCK_MAX_DELAY_MS 16000

/* ---- Crash points -------------------------------------------------------- */

static long crash_count;

#ifdef CAIRN_TEST
static long crash_at = -1;       /* -1: not read yet; 0: off */
static const char *crash_log;

static void crash_init(void)
{
  const char *s = getenv("CAIRN_TEST_CRASH_AT");
  long v = 0;
  if (s && *s) {
    char *e;
    v = strtol(s, &e, 10);
    if (*e || v < 0)
      v = 0;
  }
  crash_log = getenv("CAIRN_TEST_CRASH_LOG");
  if (crash_log && !*crash_log)
    crash_log = NULL;
  __atomic_store_n(&crash_at, v, __ATOMIC_SEQ_CST);
}
#endif

void stmgr_crash_point(const char *label)
{
  long n = __atomic_add_fetch(&crash_count, 1, __ATOMIC_SEQ_CST);
#ifdef CAIRN_TEST
  if (__atomic_load_n(&crash_at, __ATOMIC_SEQ_CST) < 0)
    crash_init();
  if (crash_log) {
    int fd = open(crash_log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
      char line[256];
      int k = snprintf(line, sizeof line, "%ld %s\n", n, label);
      if (k > 0 && write(fd, line, (size_t)k) < 0) {
        /* best effort: the log is a test aid */
      }
      close(fd);
    }
  }
  if (n == crash_at)
    _exit(99);
#else
  (void)label;
  (void)n;
#endif
}

void stmgr_crash_reset(void)
{
  __atomic_store_n(&crash_count, 0, __ATOMIC_SEQ_CST);
#ifdef CAIRN_TEST
  crash_init();
#endif
}

long stmgr_crash_points(void)
{
  return __atomic_load_n(&crash_count, __ATOMIC_SEQ_CST);
}

/* ---- Small helpers ------------------------------------------------------- */

static long real_now_ms(void *ctx)
{
  (void)ctx;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void real_sleep_ms(void *ctx, long ms)
{
  (void)ctx;
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
  }
}

void stmgr_fill_random(void *p, size_t n)
{
  size_t got = 0;
  while (got < n) {
    ssize_t k = getrandom((char *)p + got, n - got, 0);
    if (k < 0) {
      if (errno == EINTR)
        continue;
      fprintf(stderr, "cairn: getrandom failed\n");
      abort();
    }
    got += (size_t)k;
  }
}

/* Go's RFC3339Nano of the current UTC time (trailing zeros trimmed). */
static const char *now_rfc3339(Arena *a)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  gmtime_r(&ts.tv_sec, &tm);
  char frac[16] = "";
  if (ts.tv_nsec) {
    snprintf(frac, sizeof frac, ".%09ld", ts.tv_nsec);
    size_t l = strlen(frac);
    while (l > 1 && frac[l - 1] == '0')
      frac[--l] = 0;
  }
  return arena_printf(a, "%04d-%02d-%02dT%02d:%02d:%02d%sZ",
                      tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                      tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
}

static const char *dir_of(Arena *a, const char *path)
{
  const char *sl = strrchr(path, '/');
  if (!sl)
    return ".";
  if (sl == path)
    return "/";
  return arena_strndup(a, path, (size_t)(sl - path));
}

static const char *base_of(const char *path)
{
  const char *sl = strrchr(path, '/');
  return sl ? sl + 1 : path;
}

/* dir/.NAME<suffix> with NAME's leading dot removed, as Terraform names
** its lock info file. */
static const char *hidden_beside(Arena *a, const char *path,
                                 const char *suffix)
{
  const char *b = base_of(path);
  if (*b == '.')
    b++;
  const char *sl = strrchr(path, '/');
  if (!sl)
    return arena_printf(a, ".%s%s", b, suffix);
  return arena_printf(a, "%.*s/.%s%s", (int)(sl - path), path, b, suffix);
}

static void fsync_dir(const char *dir)
{
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    fsync(fd);
    close(fd);
  }
}

static bool write_all(int fd, const char *p, size_t n)
{
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    p += k;
    n -= (size_t)k;
  }
  return true;
}

/* Reads a whole file into a; *exists false when it does not exist. */
static bool read_fd(Arena *a, int fd, const char *path, char **out,
                    size_t *n, Diags *d)
{
  struct stat st;
  if (fstat(fd, &st) < 0) {
    diag_error(d, NULL, "Failed to read state file",
               "The state file %s could not be read: %s", path,
               strerror(errno));
    return false;
  }
  if ((uint64_t)st.st_size > ST_MAX_FILE_BYTES) {
    diag_error(d, NULL, "State file too large",
               "The state file %s is %lld bytes; cairn reads state files of "
               "up to %zu bytes.",
               path, (long long)st.st_size, ST_MAX_FILE_BYTES);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    /* A pipe (-state=/dev/stdin) cannot pread and has no size: read it
    ** to end of file. */
    Buf b;
    buf_init(&b, a);
    int err = buf_read_fd(&b, fd, ST_MAX_FILE_BYTES);
    if (err) {
      diag_error(d, NULL, err == EFBIG ? "State file too large"
                                       : "Failed to read state file",
                 "The state file %s could not be read: %s", path,
                 err == EFBIG ? "it is larger than 1 GiB" : strerror(err));
      return false;
    }
    *out = b.p ? b.p : arena_strndup(a, "", 0);
    *n = b.len;
    return true;
  }
  size_t cap = (size_t)st.st_size + 1, len = 0;
  char *buf = arena_alloc_raw(a, 1, 1, cap + 1);
  for (;;) {
    if (len == cap) {
      if (cap >= ST_MAX_FILE_BYTES) {
        diag_error(d, NULL, "State file too large",
                   "The state file %s is larger than %zu bytes.", path,
                   ST_MAX_FILE_BYTES);
        return false;
      }
      buf = arena_grow(a, buf, 1, 1, cap + 1, cap * 2 + 1);
      cap *= 2;
    }
    ssize_t k = pread(fd, buf + len, cap - len, (off_t)len);
    if (k < 0) {
      if (errno == EINTR)
        continue;
      diag_error(d, NULL, "Failed to read state file",
                 "The state file %s could not be read: %s", path,
                 strerror(errno));
      return false;
    }
    if (k == 0)
      break;
    len += (size_t)k;
  }
  buf[len] = 0;
  *out = buf;
  *n = len;
  return true;
}

static bool read_path(Arena *a, const char *path, char **out, size_t *n,
                      bool *exists, Diags *d)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      *exists = false;
      return true;
    }
    diag_error(d, NULL, "Failed to read state file",
               "The state file %s could not be opened: %s", path,
               strerror(errno));
    return false;
  }
  *exists = true;
  bool ok = read_fd(a, fd, path, out, n, d);
  close(fd);
  return ok;
}

static int setlk(int fd, short type)
{
  struct flock fl;
  memset(&fl, 0, sizeof fl);
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  return fcntl(fd, F_SETLK, &fl);
}

/* ---- Init ---------------------------------------------------------------- */

void stmgr_init(StMgr *m, Arena *a, const StMgrOpts *o)
{
  memset(m, 0, sizeof *m);
  m->arena = a;
  const char *rp = o && o->state_path ? o->state_path : "terraform.tfstate";
  m->read_path = arena_strdup(a, rp);
  m->out_path = arena_strdup(a, o && o->out_path ? o->out_path : rp);
  if (o && o->backup_path && strcmp(o->backup_path, "-") == 0)
    m->backup_path = NULL;
  else if (o && o->backup_path)
    m->backup_path = arena_strdup(a, o->backup_path);
  else
    m->backup_path = arena_printf(a, "%s.backup", m->out_path);
  m->journal_path = arena_printf(a, "%s.journal", m->out_path);
  m->lock_path = hidden_beside(a, m->out_path, ".lock");
  m->info_path = hidden_beside(a, m->out_path, ".lock.info");
  m->dir = dir_of(a, m->out_path);
  m->lock_fd = -1;
  m->state_fd = -1;
  m->journal_fd = -1;
  pthread_mutex_init(&m->mu, NULL);
  pthread_cond_init(&m->synced_cv, NULL);
  arena_init(&m->jarena, 0);
  arena_init(&m->rarena, 0);
  arena_init(&m->sarena, 0);
  stmgr_remote_attach(m);
}

void stmgr_close(StMgr *m)
{
  stmgr_unlock(m, NULL);
  if (m->journal_fd >= 0) {
    close(m->journal_fd);
    m->journal_fd = -1;
  }
  arena_release(&m->jarena);
  arena_release(&m->rarena);
  arena_release(&m->sarena);
  m->intents = NULL;
  m->nintents = m->cap_intents = 0;
}

/* ---- Atomic writes ------------------------------------------------------- */

/* What a durable write puts in its file: writes it all to fd and returns
** true, or false with errno set by the failed write. */
typedef bool (*Emit)(void *ctx, int fd);

typedef struct Bytes {
  const void *p;
  size_t n;
} Bytes;

static bool emit_bytes(void *ctx, int fd)
{
  const Bytes *b = ctx;
  return write_all(fd, b->p, b->n);
}

/* Writes what emit gives to path through a temporary file; when
** keep_lock_fd is set the temporary file is fcntl-locked before the rename
** and its descriptor returned there (the lock moves with the inode).  The
** file is opened for reading too, so that descriptor can read the
** snapshot back (stmgr_read_back). */
static bool write_atomic_fn(StMgr *m, const char *path, Emit emit,
                            void *ctx, bool durable, int *keep_lock_fd,
                            Diags *d)
{
  Arena *a = &m->jarena;
  ArenaMark mk = arena_mark(a);
  const char *tmp = hidden_beside(a, path, "");
  tmp = arena_printf(a, "%s.tmp.%ld", tmp, (long)getpid());
  const char *dir = dir_of(a, path);
  int fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const char *step = "create";
  if (fd < 0)
    goto fail;
  step = "write";
  if (!emit(ctx, fd))
    goto fail_fd;
  if (durable) {
    stmgr_crash_point("atomic:written");
    step = "sync";
    if (fsync(fd) < 0)
      goto fail_fd;
    stmgr_crash_point("atomic:synced");
  }
  if (keep_lock_fd && setlk(fd, F_WRLCK) < 0) {
    step = "lock";
    goto fail_fd;
  }
  step = "rename";
  if (rename(tmp, path) < 0)
    goto fail_fd;
  if (durable) {
    stmgr_crash_point("atomic:renamed");
    fsync_dir(dir);
    stmgr_crash_point("atomic:dirsynced");
  }
  if (keep_lock_fd)
    *keep_lock_fd = fd;
  else
    close(fd);
  arena_rewind(a, mk);
  return true;
fail_fd : {
  int e = errno;
  close(fd);
  unlink(tmp);
  errno = e;
}
fail:
  if (d)
    diag_error(d, NULL, "Failed to write state",
               "An error occurred while writing %s (%s step): %s.", path,
               step, strerror(errno));
  arena_rewind(a, mk);
  return false;
}

static bool write_atomic(StMgr *m, const char *path, const void *data,
                         size_t len, bool durable, int *keep_lock_fd,
                         Diags *d)
{
  Bytes b = {data, len};
  return write_atomic_fn(m, path, emit_bytes, &b, durable, keep_lock_fd, d);
}

/* stmgr_write_file with the contents given by emit. */
static bool write_file_fn(StMgr *m, const char *path, Emit emit, void *ctx,
                          Diags *d)
{
  bool is_state = strcmp(path, m->out_path) == 0 && m->locked;
  int nfd = -1;
  if (!write_atomic_fn(m, path, emit, ctx, true, is_state ? &nfd : NULL, d))
    return false;
  if (is_state) {
    if (m->state_fd >= 0)
      close(m->state_fd); /* drops only the old inode's lock */
    m->state_fd = nfd;
  }
  return true;
}

bool stmgr_write_file(StMgr *m, const char *path, const void *data,
                      size_t len, Diags *d)
{
  Bytes b = {data, len};
  return write_file_fn(m, path, emit_bytes, &b, d);
}

/* ---- Lock info ----------------------------------------------------------- */

void stmgr_new_lock_info(Arena *a, StLockInfo *li, const char *operation,
                         const char *path)
{
  unsigned char b[16];
  stmgr_fill_random(b, sizeof b);
  li->id = arena_printf(a,
                        "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                        "%02x%02x%02x%02x%02x%02x",
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8],
                        b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  li->operation = arena_strdup(a, operation ? operation : "");
  li->info = "";
  const char *user = NULL;
  struct passwd *pw = getpwuid(getuid());
  if (pw && pw->pw_name)
    user = pw->pw_name;
  if (!user)
    user = getenv("USER");
  char host[256] = "";
  if (gethostname(host, sizeof host - 1) < 0)
    host[0] = 0;
  li->who = arena_printf(a, "%s@%s", user ? user : "", host);
  li->version = CAIRN_VERSION;
  li->created = now_rfc3339(a);
  li->path = arena_strdup(a, path ? path : "");
}

bool stmgr_read_lock_info(StMgr *m, StLockInfo *out)
{
  memset(out, 0, sizeof *out);
  Diags d;
  diag_init(&d, m->arena);
  char *buf;
  size_t n;
  bool exists;
  if (!read_path(m->arena, m->info_path, &buf, &n, &exists, &d) || !exists)
    return false;
  return stmgr_parse_lock_info(m->arena, buf, n, out);
}

/* ---- Locking ------------------------------------------------------------- */

typedef enum { TRY_OK, TRY_BUSY, TRY_ERR } TryRes;

static TryRes try_lock(StMgr *m, int *err)
{
  int lfd = open(m->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lfd < 0 && errno == ENOENT) {
    /* Create missing parent directories as Terraform does (0755). */
    char *p = arena_strdup(m->arena, m->dir);
    for (char *q = p + 1; *q; q++) {
      if (*q == '/') {
        *q = 0;
        mkdir(p, 0755);
        *q = '/';
      }
    }
    mkdir(p, 0755);
    lfd = open(m->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  }
  if (lfd < 0) {
    *err = errno;
    return TRY_ERR;
  }
  if (setlk(lfd, F_WRLCK) < 0) {
    *err = errno;
    close(lfd);
    return (*err == EAGAIN || *err == EACCES) ? TRY_BUSY : TRY_ERR;
  }
  /* The state file itself, so a Terraform process on it is detected. */
  int sfd = open(m->out_path, O_RDWR | O_CLOEXEC);
  if (sfd >= 0 && setlk(sfd, F_WRLCK) < 0) {
    *err = errno;
    close(sfd);
    setlk(lfd, F_UNLCK);
    close(lfd);
    return (*err == EAGAIN || *err == EACCES) ? TRY_BUSY : TRY_ERR;
  }
  m->lock_fd = lfd;
  m->state_fd = sfd;
  return TRY_OK;
}

static const char *errno_text(int e)
{
  /* Go's syscall.Errno strings, which Terraform prints. */
  if (e == EAGAIN)
    return "resource temporarily unavailable";
  if (e == EACCES)
    return "permission denied";
  return strerror(e);
}

static void lock_error(StMgr *m, Diags *d, const char *msg)
{
  diag_error(d, NULL, "Error acquiring the state lock",
             "Error message: %s\n\nTerraform acquires a state lock to protect "
             "the state from being written\nby multiple users at the same "
             "time. Please resolve the issue above and try\nagain. For most "
             "commands, you can disable locking with the \"-lock=false\"\n"
             "flag, but this is not recommended.",
             msg);
  (void)m;
}

static void busy_error(StMgr *m, int e, Diags *d)
{
  Buf b;
  buf_init(&b, m->arena);
  buf_puts(&b, errno_text(e));
  StLockInfo li;
  if (stmgr_read_lock_info(m, &li)) {
    buf_putc(&b, '\n');
    stmgr_format_lock_info(&b, &li);
  }
  lock_error(m, d, buf_str(&b));
}

bool stmgr_lock(StMgr *m, const char *operation, long timeout_ms,
                StmgrNotify notice, void *ctx, Diags *d)
{
  if (m->locked) {
    Buf b;
    buf_init(&b, m->arena);
    buf_printf(&b, "state \"%s\" already locked", m->out_path);
    lock_error(m, d, buf_str(&b));
    return false;
  }
  long (*now)(void *) = m->now_ms ? m->now_ms : real_now_ms;
  void (*sleep_fn)(void *, long) = m->sleep_ms ? m->sleep_ms : real_sleep_ms;
  long start = now(m->hook_ctx);
  long delay = LOCK_DELAY_MS, max_delay = LOCK_MAX_DELAY_MS;
#ifdef CAIRN_TEST
  /* Test builds: CAIRN_TEST_LOCK_DELAY_MS=N scales the backoff (N, 2N,
  ** ... 16N ms), so a test of many contending processes stays short. */
  const char *ts = getenv("CAIRN_TEST_LOCK_DELAY_MS");
  if (ts && *ts) {
    char *e;
    long v = strtol(ts, &e, 10);
    if (!*e && v > 0 && v <= LOCK_DELAY_MS) {
      delay = v;
      max_delay = v * (LOCK_MAX_DELAY_MS / LOCK_DELAY_MS);
    }
  }
#endif
  bool noticed = false;
  const char *remote_why = NULL;
  for (;;) {
    int e = 0;
    TryRes r = try_lock(m, &e);
    if (r == TRY_OK && m->remote) {
      /* The remote lock is taken under the local one, so two commands in
      ** one working directory never race for the working copy. */
      bool busy = false;
      if (!stmgr_remote_lock(m, operation, &busy, &remote_why, d)) {
        if (m->state_fd >= 0)
          close(m->state_fd);
        setlk(m->lock_fd, F_UNLCK);
        close(m->lock_fd);
        m->lock_fd = m->state_fd = -1;
        if (!busy)
          return false;
        r = TRY_BUSY;
      }
    }
    if (r == TRY_OK)
      break;
    if (r == TRY_ERR) {
      lock_error(m, d, strerror(e));
      return false;
    }
    long elapsed = now(m->hook_ctx) - start;
    if (elapsed >= timeout_ms) {
      if (remote_why)
        lock_error(m, d, remote_why);
      else
        busy_error(m, e, d);
      return false;
    }
    long wait = delay < timeout_ms - elapsed ? delay : timeout_ms - elapsed;
    if (!noticed && notice && elapsed + wait >= LOCK_NOTICE_MS) {
      long first = LOCK_NOTICE_MS - elapsed;
      if (first > 0)
        sleep_fn(m->hook_ctx, first);
      notice(ctx);
      noticed = true;
      if (wait - (first > 0 ? first : 0) > 0)
        sleep_fn(m->hook_ctx, wait - (first > 0 ? first : 0));
    } else {
      sleep_fn(m->hook_ctx, wait);
    }
    if (delay < max_delay)
      delay *= 2;
    if (delay > max_delay)
      delay = max_delay;
  }
  if (!m->remote)
    stmgr_new_lock_info(m->arena, &m->lock, operation, m->read_path);
  ArenaMark mk = arena_mark(&m->jarena);
  Buf b;
  buf_init(&b, &m->jarena);
  stmgr_lock_info_json(&b, &m->lock);
  /* Informational only: a torn info file cannot break the lock. */
  bool ok = write_atomic(m, m->info_path, b.p, b.len, false, NULL, d);
  arena_rewind(&m->jarena, mk);
  if (!ok) {
    if (m->state_fd >= 0)
      close(m->state_fd);
    setlk(m->lock_fd, F_UNLCK);
    close(m->lock_fd);
    m->lock_fd = m->state_fd = -1;
    if (m->remote)
      stmgr_remote_unlock(m, d);
    return false;
  }
  m->locked = true;
  return true;
}

bool stmgr_unlock(StMgr *m, Diags *d)
{
  (void)d;
  if (!m->locked)
    return true;
  unlink(m->info_path);
  if (m->state_fd >= 0) {
    setlk(m->state_fd, F_UNLCK);
    close(m->state_fd);
    m->state_fd = -1;
  }
  setlk(m->lock_fd, F_UNLCK);
  close(m->lock_fd);
  m->lock_fd = -1;
  m->locked = false;
  return m->remote ? stmgr_remote_unlock(m, d) : true;
}

bool stmgr_force_unlock(StMgr *m, const char *id, Diags *d)
{
  if (m->locked) {
    if (strcmp(id, m->lock.id) != 0) {
      diag_error(d, NULL, "Failed to unlock state",
                 "invalid lock id: \"%s\". current id: \"%s\"", id,
                 m->lock.id);
      return false;
    }
    return stmgr_unlock(m, d);
  }
  if (m->remote)
    return stmgr_remote_force_unlock(m, id, d);
  int e = 0;
  TryRes r = try_lock(m, &e);
  if (r == TRY_BUSY) {
    diag_error(d, NULL, "Failed to unlock state",
               "Local state cannot be unlocked by another process");
    return false;
  }
  if (r == TRY_ERR) {
    diag_error(d, NULL, "Failed to unlock state", "%s", strerror(e));
    return false;
  }
  StLockInfo li;
  bool ok = true;
  if (!stmgr_read_lock_info(m, &li)) {
    diag_error(d, NULL, "Failed to unlock state", "LocalState not locked");
    ok = false;
  } else if (strcmp(li.id, id) != 0) {
    diag_error(d, NULL, "Failed to unlock state",
               "invalid lock id: \"%s\". current id: \"%s\"", id, li.id);
    ok = false;
  } else {
    unlink(m->info_path);
  }
  if (m->state_fd >= 0) {
    setlk(m->state_fd, F_UNLCK);
    close(m->state_fd);
    m->state_fd = -1;
  }
  setlk(m->lock_fd, F_UNLCK);
  close(m->lock_fd);
  m->lock_fd = -1;
  return ok;
}

/* ---- Intents ------------------------------------------------------------- */

static void intent_add(StMgr *m, const StIntent *in)
{
  if (m->nintents == m->cap_intents) {
    uint32_t nc = m->cap_intents ? m->cap_intents * 2 : 8;
    m->intents = arena_grow(&m->rarena, m->intents, sizeof *m->intents,
                            _Alignof(StIntent), m->cap_intents, nc);
    m->cap_intents = nc;
  }
  StIntent *t = &m->intents[m->nintents++];
  t->id = arena_strdup(&m->rarena, in->id);
  t->addr = arena_strdup(&m->rarena, in->addr ? in->addr : "");
  t->action = arena_strdup(&m->rarena, in->action ? in->action : "create");
  t->time = arena_strdup(&m->rarena, in->time ? in->time : "");
}

static void intent_drop(StMgr *m, const char *id)
{
  for (uint32_t i = 0; i < m->nintents; i++) {
    if (strcmp(m->intents[i].id, id) == 0) {
      memmove(m->intents + i, m->intents + i + 1,
              (m->nintents - i - 1) * sizeof *m->intents);
      m->nintents--;
      return;
    }
  }
}

const StIntent *stmgr_dangling(const StMgr *m, uint32_t *n)
{
  *n = m->ndangling;
  return m->dangling;
}

/* ---- Loading and replay -------------------------------------------------- */

typedef struct Replay {
  StMgr *m;
  State *s;           /* NULL: collect intents only */
  bool apply;
  bool header_seen;
  bool stop;
  const char *lineage;
  uint64_t serial;
  Diags *d;
  bool bad;
} Replay;

static bool replay_one(void *ctx, const char *payload, size_t len)
{
  Replay *r = ctx;
  StRecInfo info;
  Diags td;
  diag_init(&td, r->m->arena);
  State *target = r->header_seen && r->apply ? r->s : NULL;
  if (!st_rec_apply(r->s ? r->s->arena : r->m->arena, target, payload, len,
                    &info, &td)) {
    r->bad = true;
    diag_move(r->d, &td);
    return false;
  }
  if (!r->header_seen) {
    if (info.kind != ST_REC_HEADER) {
      r->bad = true;
      return false;
    }
    r->header_seen = true;
    r->lineage = info.lineage;
    r->serial = info.serial;
    return !r->stop;
  }
  switch (info.kind) {
  case ST_REC_INTENT: {
    StIntent in = {info.intent_id, info.addr, info.action, info.time};
    intent_add(r->m, &in);
    break;
  }
  case ST_REC_RESOLVE:
    intent_drop(r->m, info.intent_id);
    break;
  case ST_REC_SET:
    if (info.intent_id)
      intent_drop(r->m, info.intent_id);
    break;
  default:
    break;
  }
  r->m->journal_records++;
  return true;
}

static bool load_journal(StMgr *m, State *s, Diags *d)
{
  char *buf;
  size_t n;
  bool exists;
  if (!read_path(m->arena, m->journal_path, &buf, &n, &exists, d))
    return false;
  if (!exists)
    return true;
  /* First pass: the header only, to decide what the journal is. */
  Replay r = {m, s, false, false, true, NULL, 0, d, false};
  stmgr_scan(buf, n, replay_one, &r);
  if (!r.header_seen) {
    diag_warning(d, NULL, "Ignoring a damaged state journal",
                 "The state journal %s does not start with a valid header, "
                 "so cairn ignores it. It will be replaced by the next "
                 "command that changes the state.",
                 m->journal_path);
    return true;
  }
  bool same_lineage = strcmp(r.lineage, s->lineage) == 0 ||
                      (!m->had_file && m->base_serial == 0);
  Replay full = {m, s, false, false, false, NULL, 0, d, false};
  if (same_lineage && r.serial == m->base_serial) {
    full.apply = true;
    if (!*s->lineage)
      s->lineage = arena_strdup(s->arena, r.lineage);
  } else if (!(strcmp(r.lineage, s->lineage) == 0 &&
               r.serial < m->base_serial)) {
    diag_warning(d, NULL, "Ignoring an unrelated state journal",
                 "The state journal %s belongs to lineage \"%s\" serial %llu, "
                 "but the state file has lineage \"%s\" serial %llu, so "
                 "cairn ignores it. It will be replaced by the next command "
                 "that changes the state.",
                 m->journal_path, r.lineage, (unsigned long long)r.serial,
                 s->lineage, (unsigned long long)m->base_serial);
    return true;
  }
  /* A stale journal (already compacted into a newer snapshot) still
  ** carries the intents that were open when it was compacted. */
  m->journal_good_len = stmgr_scan(buf, n, replay_one, &full);
  if (full.bad) {
    diag_error(d, NULL, "Invalid state journal",
               "The state journal %s holds a record that cairn cannot "
               "apply (after %llu valid records). Move the journal aside to "
               "use the state file without it.",
               m->journal_path, (unsigned long long)m->journal_records);
    return false;
  }
  m->journal_valid = full.apply;
  m->journal_stale = !full.apply;
  /* Kept apart so the list a plan reports does not change under it. */
  m->ndangling = m->nintents;
  m->dangling = ARENA_NEW(m->arena, StIntent, m->nintents ? m->nintents : 1);
  for (uint32_t i = 0; i < m->nintents; i++) {
    const StIntent *in = &m->intents[i];
    m->dangling[i] = (StIntent){arena_strdup(m->arena, in->id),
                                arena_strdup(m->arena, in->addr),
                                arena_strdup(m->arena, in->action),
                                arena_strdup(m->arena, in->time)};
  }
  return true;
}

bool stmgr_load(StMgr *m, State **out, Diags *d)
{
  *out = NULL;
  if (m->remote && !stmgr_remote_pull(m, d))
    return false;
  struct stat jst;
  bool had_journal = m->remote && m->locked &&
                     lstat(m->journal_path, &jst) == 0;
  char *buf = NULL;
  size_t n = 0;
  bool exists = false;
  bool via_lock = m->locked && m->state_fd >= 0 &&
                  strcmp(m->read_path, m->out_path) == 0;
  if (via_lock) {
    exists = true;
    if (!read_fd(&m->sarena, m->state_fd, m->read_path, &buf, &n, d))
      return false;
  } else if (!read_path(&m->sarena, m->read_path, &buf, &n, &exists, d)) {
    return false;
  }
  State *s = NULL;
  if (exists && n > 0 && !st_read(m->arena, m->read_path, buf, n, &s, d))
    return false;
  m->had_file = s != NULL;
  if (!s)
    s = st_new(m->arena);
  m->base_serial = s->serial;
  m->base_lineage = s->lineage;
  m->last_serial = s->serial;
  /* The bytes read stay for the command (orig_src): the snapshot on disk
  ** refers to them instead of keeping a second copy. */
  bool same_file = exists && n && strcmp(m->read_path, m->out_path) == 0;
  m->disk_p = same_file ? buf : NULL;
  m->disk_len = same_file ? n : 0;
  m->orig_src = buf;
  m->orig_len = n;
  m->loaded = true;
  if (!load_journal(m, s, d))
    return false;
  /* What an interrupted command journaled has not reached the remote:
  ** compact it and push it now (docs/backends.md, "Durability"). */
  if (had_journal && !stmgr_commit(m, s, d))
    return false;
  *out = s;
  return true;
}

/* ---- Journal appends ----------------------------------------------------- */

static bool journal_open(StMgr *m, State *s, Diags *d)
{
  if (m->journal_valid) {
    int fd = open(m->journal_path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd >= 0) {
      struct stat st;
      if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > m->journal_good_len) {
        /* Drop the torn tail of the interrupted command. */
        if (ftruncate(fd, (off_t)m->journal_good_len) < 0 || fsync(fd) < 0) {
          close(fd);
          goto fail;
        }
      }
      m->journal_fd = fd;
      return true;
    }
  }
  if (!*s->lineage) {
    if (m->state_mu)
      pthread_mutex_lock(m->state_mu);
    s->lineage = st_new_lineage(&m->rarena);
    if (m->state_mu)
      pthread_mutex_unlock(m->state_mu);
  }
  {
    ArenaMark mk = arena_mark(&m->jarena);
    Buf b, p;
    buf_init(&b, &m->jarena);
    buf_init(&p, &m->jarena);
    JsonW w;
    json_w_init(&w, &p, 0);
    json_w_begin_object(&w);
    json_w_keyz(&w, "journal");
    json_w_int(&w, 1);
    json_w_keyz(&w, "lineage");
    json_w_stringz(&w, s->lineage);
    json_w_keyz(&w, "serial");
    json_w_uint(&w, m->base_serial);
    json_w_end_object(&w);
    stmgr_frame(&b, p.p, p.len);
    for (uint32_t i = 0; i < m->nintents; i++) {
      const StIntent *in = &m->intents[i];
      buf_clear(&p);
      json_w_init(&w, &p, 0);
      json_w_begin_object(&w);
      json_w_keyz(&w, "op");
      json_w_stringz(&w, "intent");
      json_w_keyz(&w, "id");
      json_w_stringz(&w, in->id);
      json_w_keyz(&w, "addr");
      json_w_stringz(&w, in->addr);
      json_w_keyz(&w, "action");
      json_w_stringz(&w, in->action);
      json_w_keyz(&w, "time");
      json_w_stringz(&w, in->time);
      json_w_end_object(&w);
      stmgr_frame(&b, p.p, p.len);
    }
    bool ok = write_atomic(m, m->journal_path, b.p, b.len, true, NULL, d);
    m->journal_good_len = b.len;
    arena_rewind(&m->jarena, mk);
    if (!ok)
      return false;
  }
  m->journal_fd = open(m->journal_path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (m->journal_fd < 0)
    goto fail;
  m->journal_valid = true;
  m->journal_stale = false;
  return true;
fail:
  diag_error(d, NULL, "Failed to record state change",
             "The state journal %s could not be opened: %s",
             m->journal_path, strerror(errno));
  return false;
}

/* Writes one framed record (built by the caller) to the journal and gives
** it the next sequence number.  Caller holds m->mu.  Not yet durable:
** journal_wait() makes it so. */
static bool journal_write(StMgr *m, State *s, const Buf *framed,
                          uint64_t *seq, Diags *d)
{
  if (m->sync_errno) {
    diag_error(d, NULL, "Failed to record state change",
               "An earlier sync of the state journal %s failed (%s), so "
               "cairn records no further changes in it.",
               m->journal_path, strerror(m->sync_errno));
    return false;
  }
  if (m->journal_fd < 0 && !journal_open(m, s, d))
    return false;
  bool ok;
#ifdef CAIRN_TEST
  /* Two writes, so a crash between them leaves a torn tail to detect. */
  size_t half = framed->len / 2;
  ok = write_all(m->journal_fd, framed->p, half);
  if (ok) {
    stmgr_crash_point("journal:partial");
    ok = write_all(m->journal_fd, framed->p + half, framed->len - half);
  }
#else
  ok = write_all(m->journal_fd, framed->p, framed->len);
#endif
  if (!ok) {
    diag_error(d, NULL, "Failed to record state change",
               "Writing to the state journal %s failed: %s",
               m->journal_path, strerror(errno));
    return false;
  }
  stmgr_crash_point("journal:written");
  m->journal_good_len += framed->len;
  m->journal_records++;
  *seq = ++m->seq_written;
  return true;
}

static int real_datasync(void *ctx, int fd)
{
  (void)ctx;
  int rc;
  do
    rc = fdatasync(fd);
  while (rc < 0 && errno == EINTR);
  return rc;
}

/* Group commit: returns once record seq is durable.  Caller holds m->mu.
** When no sync is running this thread becomes the leader: it syncs every
** record written so far with the mutex released, so other recorders keep
** appending meanwhile and then share the next sync.  Otherwise it waits
** for the running sync; if that one started before seq was written, the
** loop goes round and a later sync covers it. */
static bool journal_wait(StMgr *m, uint64_t seq, Diags *d)
{
  int (*sync_fn)(void *, int) = m->datasync ? m->datasync : real_datasync;
  while (m->seq_synced < seq && !m->sync_errno) {
    if (m->syncing) {
      pthread_cond_wait(&m->synced_cv, &m->mu);
      continue;
    }
    m->syncing = true;
    uint64_t upto = m->seq_written;
    int fd = m->journal_fd;
    pthread_mutex_unlock(&m->mu);
    int rc = sync_fn(m->hook_ctx, fd);
    int e = errno;
    pthread_mutex_lock(&m->mu);
    m->syncing = false;
    m->nsyncs++;
    if (rc == 0) {
      if (upto > m->seq_synced)
        m->seq_synced = upto;
      stmgr_crash_point("journal:synced");
    } else {
      m->sync_errno = e ? e : EIO;
    }
    pthread_cond_broadcast(&m->synced_cv);
  }
  if (m->seq_synced >= seq)
    return true;
  diag_error(d, NULL, "Failed to record state change",
             "Syncing the state journal %s failed: %s", m->journal_path,
             strerror(m->sync_errno));
  return false;
}

/* The shared path of the record functions: payload was encoded by the
** caller in its own scratch arena (outside the mutex, so recorders only
** queue for the write, the in-memory apply and the sync).  Writes the
** record, applies it to s, drops the intent it resolves, then waits for
** the group sync. */
static bool record(StMgr *m, State *s, Buf *payload, const char *resolves,
                   Diags *d)
{
  Buf framed;
  buf_init(&framed, payload->arena);
  stmgr_frame(&framed, payload->p, payload->len);
  pthread_mutex_lock(&m->mu);
  uint64_t seq;
  bool ok = journal_write(m, s, &framed, &seq, d);
  /* Applied even when the journal failed: the operation happened, and
  ** the final snapshot (a separate durable write) can still save it. */
  StRecInfo info;
  /* The State's own arena belongs to the caller's main thread: what the
  ** record adds goes to m->rarena, which only holders of mu use.  The
  ** record is decoded before state_mu is taken, so the caller's threads
  ** wait for the State only while it changes. */
  bool applied = st_rec_apply_mu(&m->rarena, s, payload->p, payload->len,
                                 &info, m->state_mu, d);
  if (resolves)
    intent_drop(m, resolves);
  /* Deferred (m->defer_sync): written and applied now, made durable by
  ** the caller's stmgr_sync or by the next intent's sync, which covers
  ** every record written before it. */
  ok = ok && (m->defer_sync || journal_wait(m, seq, d)) && applied;
  pthread_mutex_unlock(&m->mu);
  return ok;
}

bool stmgr_sync(StMgr *m, Diags *d)
{
  pthread_mutex_lock(&m->mu);
  bool ok = journal_wait(m, m->seq_written, d);
  pthread_mutex_unlock(&m->mu);
  return ok;
}

bool stmgr_record_set(StMgr *m, State *s, const StResource *r, StKey key,
                      const char *dkey, const StObject *obj,
                      const char *intent_id, Diags *d)
{
  Arena a;
  arena_init(&a, 0);
  Buf p;
  buf_init(&p, &a);
  st_rec_set(&p, r, key, dkey, obj, intent_id);
  bool ok = record(m, s, &p, intent_id, d);
  arena_release(&a);
  return ok;
}

bool stmgr_record_remove(StMgr *m, State *s, const StResource *r,
                         StKey key, const char *dkey, Diags *d)
{
  Arena a;
  arena_init(&a, 0);
  Buf p;
  buf_init(&p, &a);
  st_rec_remove(&p, r, key, dkey);
  bool ok = record(m, s, &p, NULL, d);
  arena_release(&a);
  return ok;
}

bool stmgr_record_output(StMgr *m, State *s, const char *name, Value value,
                         const Type *type, bool sensitive, Diags *d)
{
  Arena a;
  arena_init(&a, 0);
  Buf p;
  buf_init(&p, &a);
  StOutput o = {name, value, type, sensitive};
  st_rec_output(&p, &o);
  bool ok = record(m, s, &p, NULL, d);
  arena_release(&a);
  return ok;
}

bool stmgr_record_output_remove(StMgr *m, State *s, const char *name,
                                Diags *d)
{
  Arena a;
  arena_init(&a, 0);
  Buf p;
  buf_init(&p, &a);
  st_rec_output_remove(&p, name);
  bool ok = record(m, s, &p, NULL, d);
  arena_release(&a);
  return ok;
}

/* Intent and resolve records change only the intent list, which the
** journal's replay rebuilds; add_intent is the open intent to remember. */
static bool record_intent(StMgr *m, State *s, Buf *payload,
                          const StIntent *add, const char *drop, Diags *d)
{
  Buf framed;
  buf_init(&framed, payload->arena);
  stmgr_frame(&framed, payload->p, payload->len);
  pthread_mutex_lock(&m->mu);
  uint64_t seq;
  bool ok = journal_write(m, s, &framed, &seq, d);
  if (ok) {
    if (add)
      intent_add(m, add);
    if (drop)
      intent_drop(m, drop);
    ok = journal_wait(m, seq, d);
    /* The caller will not call the provider: nothing can dangle. */
    if (!ok && add)
      intent_drop(m, add->id);
  }
  pthread_mutex_unlock(&m->mu);
  return ok;
}

bool stmgr_intent(StMgr *m, State *s, const char *addr, const char *action,
                  char id_out[17], Diags *d)
{
  stmgr_new_intent_id(id_out);
  Arena a;
  arena_init(&a, 0);
  Buf p;
  buf_init(&p, &a);
  StIntent in = {id_out, addr, action ? action : "create",
                 now_rfc3339(&a)};
  JsonW w;
  json_w_init(&w, &p, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "op");
  json_w_stringz(&w, "intent");
  json_w_keyz(&w, "id");
  json_w_stringz(&w, in.id);
  json_w_keyz(&w, "addr");
  json_w_stringz(&w, in.addr);
  json_w_keyz(&w, "action");
  json_w_stringz(&w, in.action);
  json_w_keyz(&w, "time");
  json_w_stringz(&w, in.time);
  json_w_end_object(&w);
  bool ok = record_intent(m, s, &p, &in, NULL, d);
  arena_release(&a);
  return ok;
}

bool stmgr_intent_resolve(StMgr *m, State *s, const char *id, Diags *d)
{
  Arena a;
  arena_init(&a, 0);
  Buf p;
  buf_init(&p, &a);
  JsonW w;
  json_w_init(&w, &p, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "op");
  json_w_stringz(&w, "resolve");
  json_w_keyz(&w, "id");
  json_w_stringz(&w, id);
  json_w_end_object(&w);
  bool ok = record_intent(m, s, &p, NULL, id, d);
  arena_release(&a);
  return ok;
}

/* ---- Commit -------------------------------------------------------------
** The snapshot's text is never built whole: a 100,000-instance state is
** 68 MB of text and 40 MB of content, and the commit used to hold both
** (plus the previous snapshot's) at the peak of an apply.  It is streamed
** (st_write_stream) in 64 KiB pieces: compared with the bytes on disk,
** written to the temporary file, or compared with the last snapshot's
** content.  Only the last snapshot's bytes are needed, and only when a
** snapshot exists: at the first commit they are the bytes read at load
** (orig_src), later the file this command wrote, read back. */

/* A sink comparing the streamed text with p[0..n). */
typedef struct Cmp {
  const char *p;
  size_t n;
  size_t off;
} Cmp;

static bool cmp_sink(void *ctx, const char *p, size_t n)
{
  Cmp *c = ctx;
  if (n > c->n - c->off || memcmp(c->p + c->off, p, n) != 0)
    return false;
  c->off += n;
  return true;
}

/* True when s's text (st_write) or content is exactly p[0..n). */
static bool same_as(State *s, bool content, const char *p, size_t n)
{
  Cmp c = {p, n, 0};
  return st_write_stream(s, NULL, content, cmp_sink, &c) && c.off == n;
}

/* A sink writing to a file; err keeps the failed write's errno. */
typedef struct FdSink {
  int fd;
  int err;
  size_t len;
} FdSink;

static bool fd_sink(void *ctx, const char *p, size_t n)
{
  FdSink *f = ctx;
  if (!write_all(f->fd, p, n)) {
    f->err = errno;
    return false;
  }
  f->len += n;
  return true;
}

typedef struct StateEmit {
  State *s;
  size_t len;   /* bytes written */
} StateEmit;

static bool emit_state(void *ctx, int fd)
{
  StateEmit *e = ctx;
  FdSink f = {fd, 0, 0};
  if (!st_write_stream(e->s, NULL, false, fd_sink, &f)) {
    errno = f.err ? f.err : EIO;
    return false;
  }
  e->len = f.len;
  return true;
}

bool stmgr_read_back(StMgr *m, Arena *a, char **p, size_t *n, Diags *d)
{
  if (m->disk_p) {
    *p = (char *)m->disk_p;
    *n = m->disk_len;
    return true;
  }
  /* Through the locked descriptor when there is one: opening and closing
  ** another descriptor of the file would drop the process's lock. */
  if (m->locked && m->state_fd >= 0)
    return read_fd(a, m->state_fd, m->out_path, p, n, d);
  bool exists;
  if (!read_path(a, m->out_path, p, n, &exists, d))
    return false;
  if (!exists) {
    diag_error(d, NULL, "Failed to read state file",
               "The state file %s, written by this command, is gone.",
               m->out_path);
    return false;
  }
  return true;
}

bool stmgr_commit(StMgr *m, State *s, Diags *d)
{
  if (m->src_dropped)   /* stmgr_drop_source: never commits */
    return stmgr_refuse_commit(m, d);
  pthread_mutex_lock(&m->mu);
  /* A leader still in fdatasync uses the journal's descriptor. */
  while (m->syncing)
    pthread_cond_wait(&m->synced_cv, &m->mu);
  bool ok = false;
  Arena scratch;
  arena_init(&scratch, 0);
  if (!*s->lineage)
    s->lineage = st_new_lineage(s->arena);
  /* The last snapshot: what the file on disk holds (NULL: unknown, so it
  ** is written) and what the content is compared with. */
  char *disk = NULL, *last = NULL;
  size_t disk_n = 0, last_n = 0;
  if (m->written) {
    if (!stmgr_read_back(m, &scratch, &disk, &disk_n, d))
      goto out;
    last = disk;
    last_n = disk_n;
  } else if (m->had_file) {
    disk = (char *)m->disk_p;
    disk_n = m->disk_len;
    last = (char *)m->orig_src;
    last_n = m->orig_len;
  }
  bool changed = true, same_text = false;
  State *orig = NULL;   /* the snapshot read at load, for the backup */
  if (last) {
    /* Unchanged and written the same way: nothing to write.  Identical
    ** text means identical content (a state reads back to what it
    ** writes, test_state). */
    s->serial = m->last_serial;
    same_text = disk && same_as(s, false, disk, disk_n);
    if (same_text) {
      changed = false;
    } else {
      State *ls = NULL;
      Diags td;
      diag_init(&td, &scratch);
      st_read(&scratch, m->written ? m->out_path : m->read_path, last,
              last_n, &ls, &td);
      if (ls) {
        /* Its content in memory, the new one streamed against it. */
        Buf lc;
        buf_init(&lc, &scratch);
        buf_reserve(&lc, last_n);
        st_write_content(&lc, ls);
        changed = !same_as(s, true, lc.p, lc.len);
      }
      if (!m->written)
        orig = ls;
    }
  }
  s->serial = changed ? m->last_serial + 1 : m->last_serial;
  if (changed && m->had_file && m->backup_path && !m->backup_done) {
    if (!orig) {
      Diags td;
      diag_init(&td, &scratch);
      st_read(&scratch, m->read_path, m->orig_src, m->orig_len, &orig, &td);
    }
    if (orig) {
      StateEmit e = {orig, 0};
      if (!write_file_fn(m, m->backup_path, emit_state, &e, d))
        goto out;
      m->backup_done = true;
    }
  }
  if (!same_text) {
    StateEmit e = {s, 0};
    if (!write_file_fn(m, m->out_path, emit_state, &e, d))
      goto out;
    m->remote_dirty = true;
    m->disk_p = NULL;   /* read back when needed */
    m->disk_len = e.len;
  }
  m->written = true;
  m->last_serial = s->serial;
  m->base_serial = s->serial;
  m->base_lineage = s->lineage;
  /* Compaction: the snapshot now holds every record. */
  if (m->journal_fd >= 0) {
    close(m->journal_fd);
    m->journal_fd = -1;
  }
  m->journal_valid = false;
  m->journal_good_len = 0;
  /* The snapshot holds everything: a fresh journal starts clean. */
  m->sync_errno = 0;
  m->seq_synced = m->seq_written;
  struct stat st;
  if (m->nintents > 0) {
    if (!journal_open(m, s, d))
      goto out;
  } else if (lstat(m->journal_path, &st) == 0) {
    if (unlink(m->journal_path) < 0) {
      diag_error(d, NULL, "Failed to remove the state journal",
                 "The state was saved, but the journal %s could not be "
                 "removed: %s",
                 m->journal_path, strerror(errno));
      goto out;
    }
    stmgr_crash_point("journal:unlinked");
    fsync_dir(m->dir);
    stmgr_crash_point("journal:dirsynced");
  }
  m->journal_records = 0;
  ok = true;
out:
  /* The snapshot did not land: the journal is still the record, so
  ** records written without waiting (defer_sync) are made durable now. */
  if (!ok && m->journal_fd >= 0 && m->seq_synced < m->seq_written)
    (void)journal_wait(m, m->seq_written, d);
  arena_release(&scratch);
  pthread_mutex_unlock(&m->mu);
  if (ok && m->remote)
    ok = stmgr_remote_push(m, d);
  return ok;
}

bool stmgr_commit_import(StMgr *m, State *s, Diags *d)
{
  /* stmgr_commit bumps from last_serial when the content differs from the
  ** snapshot read at load (or when none existed). */
  pthread_mutex_lock(&m->mu);
  m->last_serial = s->serial;
  pthread_mutex_unlock(&m->mu);
  return stmgr_commit(m, s, d);
}
