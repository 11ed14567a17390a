/*
** proc: one child-process runner with Go's os/exec behaviour and error
** texts.  See proc.h.
*/
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"

/* How often a running child's stop() is asked (ms). */
#define POLL_MS 20

const char *proc_errtext(Arena *a, int err)
{
  char *s = arena_strdup(a, strerror(err));
  if (s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = (char)(s[0] - 'A' + 'a');
  return s;
}

const char *proc_status_text(Arena *a, int st)
{
  /* Go's signal names (syscall's signal table) for 1..15. */
  static const char *const sigs[] = {
      NULL, "hangup", "interrupt", "quit", "illegal instruction",
      "trace/breakpoint trap", "aborted", "bus error",
      "floating point exception", "killed", "user defined signal 1",
      "segmentation fault", "user defined signal 2", "broken pipe",
      "alarm clock", "terminated"};
  if (WIFEXITED(st))
    return arena_printf(a, "exit status %d", WEXITSTATUS(st));
  if (WIFSIGNALED(st)) {
    int sig = WTERMSIG(st);
    const char *core = WCOREDUMP(st) ? " (core dumped)" : "";
    if (sig > 0 && sig < (int)(sizeof sigs / sizeof *sigs))
      return arena_printf(a, "signal: %s%s", sigs[sig], core);
    return arena_printf(a, "signal: signal %d%s", sig, core);
  }
  return arena_printf(a, "exit status %d", st);
}

/* findExecutable: 0 or an errno. */
static int executable(const char *f)
{
  struct stat sb;
  if (stat(f, &sb) != 0)
    return errno;
  if (S_ISDIR(sb.st_mode) || !(sb.st_mode & 0111))
    return EACCES;
  return 0;
}

static const char *quote(Arena *a, const char *s)
{
  Buf b;
  buf_init(&b, a);
  buf_strconv_quote(&b, s, strlen(s));
  return buf_str(&b);
}

const char *proc_look_path(Arena *a, const char *file, const char **err)
{
  if (strchr(file, '/')) {
    int e = executable(file);
    if (!e)
      return file;
    *err = arena_printf(a, "exec: %s: %s%s", quote(a, file),
                        e == ENOENT ? "stat " : "",
                        e == ENOENT ? arena_printf(a, "%s: %s", file,
                                                   proc_errtext(a, e))
                                    : proc_errtext(a, e));
    return NULL;
  }
  const char *path = getenv("PATH");
  if (!path)
    path = "";
  for (const char *p = path;;) {
    const char *e = strchr(p, ':');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    const char *cand = n ? arena_printf(a, "%.*s/%s", (int)n, p, file)
                         : arena_printf(a, "./%s", file);
    if (executable(cand) == 0)
      return cand;
    if (!e)
      break;
    p = e + 1;
  }
  *err = arena_printf(a, "exec: %s: executable file not found in $PATH",
                      quote(a, file));
  return NULL;
}

/* posix_spawn with in/out/err as the child's fds 0-2 (in < 0: /dev/null).
** Returns 0 or an errno. */
static int spawn(pid_t *pid, const ProcSpec *s, int in, int out, int err)
{
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  int rc = posix_spawn_file_actions_init(&fa);
  if (rc)
    return rc;
  rc = posix_spawnattr_init(&at);
  if (rc) {
    posix_spawn_file_actions_destroy(&fa);
    return rc;
  }
  sigset_t none, dfl;
  sigemptyset(&none);
  sigemptyset(&dfl);
  /* What cairn ignores or catches must not leak into the program. */
  static const int sigs[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT,
                             SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
    sigaddset(&dfl, sigs[i]);
  rc = posix_spawnattr_setsigmask(&at, &none);
  if (!rc)
    rc = posix_spawnattr_setsigdefault(&at, &dfl);
  if (!rc)
    rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK |
                                           POSIX_SPAWN_SETSIGDEF);
  if (!rc)
    rc = in >= 0 ? posix_spawn_file_actions_adddup2(&fa, in, 0)
                 : posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
                                                    O_RDONLY, 0);
  if (!rc)
    rc = posix_spawn_file_actions_adddup2(&fa, out, 1);
  if (!rc)
    rc = posix_spawn_file_actions_adddup2(&fa, err, 2);
  if (!rc && s->dir && *s->dir)
    rc = posix_spawn_file_actions_addchdir_np(&fa, s->dir);
  if (!rc)
    rc = posix_spawn(pid, s->path, &fa, &at, (char *const *)s->argv,
                     s->envp ? s->envp : environ);
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  return rc;
}

static void close_fd(int *fd)
{
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

static bool stopped(const ProcSpec *s)
{
  return s->stop && s->stop(s->stop_ctx);
}

static void deliver(const ProcSpec *s, int stream, const char *p, size_t n)
{
  if (s->sink)
    s->sink(s->sink_ctx, stream, p, n);
}

/* Feeds stdin and reads both outputs until every writer has closed the
** pipes, or until stopped (then the child is killed).  Returns whether it
** was killed. */
static bool pump(const ProcSpec *s, pid_t pid, int win, int fds[2])
{
  size_t sent = 0;
  if (win >= 0) {
    fcntl(win, F_SETFL, fcntl(win, F_GETFL) | O_NONBLOCK);
    if (s->inlen == 0)
      close_fd(&win);
  }
  bool killed = false;
  while (fds[0] >= 0 || fds[1] >= 0) {
    if (stopped(s)) {
      kill(pid, SIGKILL);
      killed = true;
      break;
    }
    struct pollfd pf[3];
    int np = 0, idx[3];
    for (int i = 0; i < 2; i++)
      if (fds[i] >= 0) {
        pf[np] = (struct pollfd){.fd = fds[i], .events = POLLIN};
        idx[np++] = i;
      }
    if (win >= 0) {
      pf[np] = (struct pollfd){.fd = win, .events = POLLOUT};
      idx[np++] = 2;
    }
    if (poll(pf, (nfds_t)np, POLL_MS) < 0 && errno != EINTR)
      break;
    for (int k = 0; k < np; k++) {
      if (!pf[k].revents)
        continue;
      if (idx[k] == 2) {
        ssize_t w = write(win, s->in + sent, s->inlen - sent);
        if (w > 0)
          sent += (size_t)w;
        if ((w < 0 && errno != EAGAIN && errno != EINTR) ||
            sent == s->inlen) {
          /* done, or the program closed its stdin (EPIPE): Go ignores
          ** that for a program that exits successfully. */
          close_fd(&win);
        }
        continue;
      }
      char tmp[4096];
      ssize_t n = read(fds[idx[k]], tmp, sizeof tmp);
      if (n > 0)
        deliver(s, idx[k] + 1, tmp, (size_t)n);
      else if (n == 0 || (errno != EINTR && errno != EAGAIN))
        close_fd(&fds[idx[k]]);
    }
  }
  close_fd(&win);
  return killed;
}

bool proc_run(Arena *a, const ProcSpec *s, ProcResult *r)
{
  memset(r, 0, sizeof *r);
  if (s->dir && *s->dir) {
    /* Go reports a bad directory before it starts anything. */
    struct stat sb;
    if (stat(s->dir, &sb) != 0) {
      r->error = arena_printf(a, "chdir %s: %s", s->dir,
                              proc_errtext(a, errno));
      return false;
    }
  }
  if (access(s->path, X_OK) != 0) {
    r->error = arena_printf(a, "fork/exec %s: %s", s->path,
                            proc_errtext(a, errno));
    return false;
  }
  int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1};
  if ((s->in && pipe2(pin, O_CLOEXEC) != 0) ||
      pipe2(pout, O_CLOEXEC) != 0 ||
      (!s->merge && pipe2(perr, O_CLOEXEC) != 0)) {
    r->pipe_errno = errno;
    r->error = arena_printf(a, "pipe: %s", proc_errtext(a, errno));
    for (int i = 0; i < 2; i++) {
      close_fd(&pin[i]);
      close_fd(&pout[i]);
      close_fd(&perr[i]);
    }
    return false;
  }
  pid_t pid;
  int rc = spawn(&pid, s, pin[0], pout[1], s->merge ? pout[1] : perr[1]);
  close_fd(&pin[0]);
  close_fd(&pout[1]);
  close_fd(&perr[1]);
  if (rc) {
    close_fd(&pin[1]);
    close_fd(&pout[0]);
    close_fd(&perr[0]);
    r->error = arena_printf(a, "fork/exec %s: %s", s->path,
                            proc_errtext(a, rc));
    return false;
  }
  r->started = true;
  int fds[2] = {pout[0], perr[0]};
  bool killed = pump(s, pid, pin[1], fds);
  int st = 0;
  for (;;) {
    pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid)
      break;
    if (w < 0 && errno != EINTR) {
      r->wait_errno = errno;
      st = 0;
      break;
    }
    if (!killed && stopped(s)) {
      kill(pid, SIGKILL);
      killed = true;
    }
    (void)poll(NULL, 0, killed ? 1 : 10);
  }
  for (int i = 0; i < 2; i++) {
    if (killed && fds[i] >= 0) {
      /* Deliver what the pipe still holds, without waiting for writers
      ** the killed program may have left behind. */
      int fl = fcntl(fds[i], F_GETFL);
      if (fl >= 0)
        (void)fcntl(fds[i], F_SETFL, fl | O_NONBLOCK);
      char tmp[4096];
      for (;;) {
        ssize_t n = read(fds[i], tmp, sizeof tmp);
        if (n < 0 && errno == EINTR)
          continue;
        if (n <= 0)
          break;
        deliver(s, i + 1, tmp, (size_t)n);
      }
    }
    close_fd(&fds[i]);
  }
  r->killed = killed;
  r->status = st;
  if (r->wait_errno)
    r->error = arena_printf(a, "wait: %s", proc_errtext(a, r->wait_errno));
  else if (killed || !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
    r->error = proc_status_text(a, st);
  return r->error == NULL;
}
