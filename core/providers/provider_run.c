/*
** provider_run: running a local program for the built-in providers that
** do (data external, data local_command), with Go's os/exec behaviour and
** error texts: LookPath, stdin from a buffer, stdout and stderr
** collected, SIGKILL when the provider is stopped (exec.CommandContext
** after StopProvider cancels the request context).  See provider.h.
*/
#include "provider.h"

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

/* Go's error text for an errno: strerror's, lower-cased first letter. */
static const char *errtext(Arena *a, int err)
{
  char *s = arena_strdup(a, strerror(err));
  if (s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = (char)(s[0] - 'A' + 'a');
  return s;
}

/* strconv.Quote for the ASCII names seen here. */
static const char *quote(Arena *a, const char *s)
{
  Buf b;
  buf_init(&b, a);
  buf_putc(&b, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      buf_putc(&b, '\\');
    buf_putc(&b, *s);
  }
  buf_putc(&b, '"');
  return buf_str(&b);
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

const char *prov_look_path(Arena *a, const char *file, const char **err)
{
  if (strchr(file, '/')) {
    int e = executable(file);
    if (!e)
      return file;
    *err = arena_printf(a, "exec: %s: %s%s", quote(a, file),
                        e == ENOENT ? "stat " : "",
                        e == ENOENT ? arena_printf(a, "%s: %s", file,
                                                   errtext(a, e))
                                    : errtext(a, e));
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

const char *prov_cmd_string(Arena *a, const ProvRun *r)
{
  Buf b;
  buf_init(&b, a);
  buf_puts(&b, r->path);
  for (int i = 1; r->argv[i]; i++) {
    buf_putc(&b, ' ');
    buf_puts(&b, r->argv[i]);
  }
  return buf_str(&b);
}

/* os.ProcessState.String(). */
static const char *status_text(Arena *a, int st)
{
  if (WIFEXITED(st))
    return arena_printf(a, "exit status %d", WEXITSTATUS(st));
  if (WIFSIGNALED(st)) {
    int sig = WTERMSIG(st);
    const char *name = sig == SIGKILL   ? "killed"
                       : sig == SIGTERM ? "terminated"
                       : sig == SIGSEGV ? "segmentation fault"
                       : sig == SIGABRT ? "aborted"
                       : sig == SIGINT  ? "interrupt"
                       : sig == SIGPIPE ? "broken pipe"
                       : sig == SIGHUP  ? "hangup"
                                        : NULL;
    return name ? arena_printf(a, "signal: %s", name)
                : arena_printf(a, "signal: signal %d", sig);
  }
  return arena_printf(a, "exit status %d", st);
}

static int spawn(pid_t *pid, const ProvRun *r, int in, int out, int err)
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
  if (!rc && r->dir && *r->dir)
    rc = posix_spawn_file_actions_addchdir_np(&fa, r->dir);
  if (!rc)
    rc = posix_spawn(pid, r->path, &fa, &at, (char *const *)r->argv,
                     environ);
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  return rc;
}

void prov_run(Arena *a, Prov *p, const ProvRun *r, ProvRunResult *res)
{
  memset(res, 0, sizeof *res);
  res->out = res->err = "";
  if (r->dir && *r->dir) {
    /* Go reports a bad directory before it starts anything. */
    struct stat sb;
    if (stat(r->dir, &sb) != 0) {
      res->error = arena_printf(a, "chdir %s: %s", r->dir,
                                errtext(a, errno));
      return;
    }
  }
  if (access(r->path, X_OK) != 0) {
    res->error = arena_printf(a, "fork/exec %s: %s", r->path,
                              errtext(a, errno));
    return;
  }
  int pin[2] = {-1, -1}, pout[2], perr[2];
  if ((r->in && pipe2(pin, O_CLOEXEC) != 0) || pipe2(pout, O_CLOEXEC) != 0 ||
      pipe2(perr, O_CLOEXEC) != 0) {
    res->error = arena_printf(a, "pipe: %s", errtext(a, errno));
    return;
  }
  pid_t pid;
  int rc = spawn(&pid, r, pin[0], pout[1], perr[1]);
  if (pin[0] >= 0)
    close(pin[0]);
  close(pout[1]);
  close(perr[1]);
  if (rc) {
    if (pin[1] >= 0)
      close(pin[1]);
    close(pout[0]);
    close(perr[0]);
    res->error = arena_printf(a, "fork/exec %s: %s", r->path,
                              errtext(a, rc));
    return;
  }
  res->started = true;
  Buf ob, eb;
  buf_init(&ob, a);
  buf_init(&eb, a);
  int win = pin[1];
  size_t sent = 0;
  if (win >= 0) {
    fcntl(win, F_SETFL, fcntl(win, F_GETFL) | O_NONBLOCK);
    if (r->inlen == 0) {
      close(win);
      win = -1;
    }
  }
  int fds[2] = {pout[0], perr[0]};
  Buf *bufs[2] = {&ob, &eb};
  bool killed = false;
  while (fds[0] >= 0 || fds[1] >= 0) {
    if (!killed && atomic_load(&p->stopping)) {
      kill(pid, SIGKILL);
      killed = true;
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
    if (poll(pf, (nfds_t)np, 20) < 0 && errno != EINTR)
      break;
    for (int k = 0; k < np; k++) {
      if (!pf[k].revents)
        continue;
      if (idx[k] == 2) {
        ssize_t w = write(win, r->in + sent, r->inlen - sent);
        if (w > 0)
          sent += (size_t)w;
        if ((w < 0 && errno != EAGAIN && errno != EINTR) ||
            sent == r->inlen) {
          /* done, or the program closed its stdin (EPIPE): Go ignores
          ** that for a program that exits successfully. */
          close(win);
          win = -1;
        }
        continue;
      }
      char tmp[4096];
      ssize_t n = read(fds[idx[k]], tmp, sizeof tmp);
      if (n > 0) {
        buf_put(bufs[idx[k]], tmp, (size_t)n);
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(fds[idx[k]]);
        fds[idx[k]] = -1;
      }
    }
  }
  if (win >= 0)
    close(win);
  int st = 0;
  for (;;) {
    pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR))
      break;
    if (!killed && atomic_load(&p->stopping)) {
      kill(pid, SIGKILL);
      killed = true;
    }
    (void)poll(NULL, 0, 10);
  }
  res->status = st;
  res->out = buf_str(&ob);
  res->outlen = ob.len;
  res->err = buf_str(&eb);
  res->errlen = eb.len;
  if (killed) {
    res->stopped = true;
    res->error = "context canceled";
  } else if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
    res->error = status_text(a, st);
  }
}
