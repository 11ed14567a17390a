/*
** plugin: plugin processes and the go-plugin handshake (see plugin.h).
*/
#include "net/plugin.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <grp.h>
#include <time.h>
#include <unistd.h>


static PluginLogFn log_fn;
static void *log_ctx;

/* The strings to redact: copies in their own arena, behind a lock (the
** reader threads of every plugin read them). */
static pthread_mutex_t red_mu = PTHREAD_MUTEX_INITIALIZER;
static Arena red_arena;
static bool red_ready;
static const char **red_s;
static size_t *red_n;
static uint32_t red_count, red_cap;

#define REDACTED "(sensitive value)"

void plugin_redact_add(const char *s, size_t n)
{
  if (!n || n > PLUGIN_LINE_MAX)
    return;
  pthread_mutex_lock(&red_mu);
  if (!red_ready) {
    arena_init(&red_arena, 0);
    red_ready = true;
  }
  bool have = false;
  for (uint32_t i = 0; i < red_count && !have; i++)
    have = red_n[i] == n && memcmp(red_s[i], s, n) == 0;
  if (!have) {
    if (red_count == red_cap) {
      uint32_t nc = red_cap ? red_cap * 2 : 16;
      red_s = arena_grow(&red_arena, red_s, sizeof *red_s,
                         _Alignof(const char *), red_cap, nc);
      red_n = arena_grow(&red_arena, red_n, sizeof *red_n, _Alignof(size_t),
                         red_cap, nc);
      red_cap = nc;
    }
    red_s[red_count] = arena_strndup(&red_arena, s, n);
    red_n[red_count++] = n;
  }
  pthread_mutex_unlock(&red_mu);
}

size_t plugin_redact(const char *in, size_t n, char *out, size_t cap)
{
  size_t o = 0;
  pthread_mutex_lock(&red_mu);
  for (size_t i = 0; i < n && o + 1 < cap;) {
    /* The longest registered string that starts here wins. */
    size_t best = 0;
    for (uint32_t k = 0; k < red_count; k++)
      if (red_n[k] > best && red_n[k] <= n - i &&
          memcmp(in + i, red_s[k], red_n[k]) == 0)
        best = red_n[k];
    if (best) {
      for (const char *r = REDACTED; *r && o + 1 < cap; r++)
        out[o++] = *r;
      i += best;
    } else {
      out[o++] = in[i++];
    }
  }
  pthread_mutex_unlock(&red_mu);
  if (cap)
    out[o] = 0;
  return o;
}

void plugin_set_log(PluginLogFn fn, void *ctx)
{
  log_fn = fn;
  log_ctx = ctx;
}

static long now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One complete line of the plugin's output (which: 0 stdout, 1 stderr). */
static void got_line(PluginProc *p, int which, const char *s, size_t n)
{
  if (n && s[n - 1] == '\r')
    n--;
  /* Sensitive values never reach the log or an error report. */
  char red[PLUGIN_LINE_MAX + 1];
  n = plugin_redact(s, n, red, sizeof red);
  s = red;
  if (log_fn) {
    char msg[PLUGIN_LINE_MAX + 128];
    snprintf(msg, sizeof msg, "plugin %s %s: %.*s", p->name,
             which ? "stderr" : "stdout", (int)n, s);
    log_fn(log_ctx, msg);
  }
  if (which != 1)
    return;
  pthread_mutex_lock(&p->mu);
  size_t m = n < sizeof p->tail[0] - 1 ? n : sizeof p->tail[0] - 1;
  memcpy(p->tail[p->tail_next], s, m);
  p->tail[p->tail_next][m] = 0;
  p->tail_next = (p->tail_next + 1) % PLUGIN_TAIL_LINES;
  if (p->ntail < PLUGIN_TAIL_LINES)
    p->ntail++;
  pthread_mutex_unlock(&p->mu);
}

/* Splits newly read bytes into lines; an over-long line is cut. */
static void got_bytes(PluginProc *p, int which, const char *s, size_t n)
{
  char *line = p->line[which];
  size_t *len = &p->linelen[which];
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\n' || *len == PLUGIN_LINE_MAX) {
      got_line(p, which, line, *len);
      *len = 0;
      if (s[i] == '\n')
        continue;
    }
    line[(*len)++] = s[i];
  }
}

/* Reads what fd has; false at EOF or error. */
static bool pump(PluginProc *p, int which, int fd)
{
  char buf[4096];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return true;
  if (n <= 0) {
    if (p->linelen[which]) {
      got_line(p, which, p->line[which], p->linelen[which]);
      p->linelen[which] = 0;
    }
    return false;
  }
  got_bytes(p, which, buf, (size_t)n);
  return true;
}

static void *reader_main(void *arg)
{
  PluginProc *p = arg;
  int fds[2] = {p->out_fd, p->err_fd};
  bool open_[2] = {fds[0] >= 0, fds[1] >= 0};
  while (open_[0] || open_[1]) {
    struct pollfd pf[2];
    int n = 0, map[2];
    for (int i = 0; i < 2; i++)
      if (open_[i]) {
        pf[n] = (struct pollfd){.fd = fds[i], .events = POLLIN};
        map[n++] = i;
      }
    if (poll(pf, (nfds_t)n, -1) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (int k = 0; k < n; k++)
      if (pf[k].revents && !pump(p, map[k], fds[map[k]]))
        open_[map[k]] = false;
  }
  return NULL;
}

void plugin_tail(PluginProc *p, Buf *out)
{
  pthread_mutex_lock(&p->mu);
  int first = (p->tail_next - p->ntail + PLUGIN_TAIL_LINES) %
              PLUGIN_TAIL_LINES;
  for (int i = 0; i < p->ntail; i++) {
    buf_puts(out, p->tail[(first + i) % PLUGIN_TAIL_LINES]);
    buf_putc(out, '\n');
  }
  pthread_mutex_unlock(&p->mu);
}

bool plugin_exited(PluginProc *p, int *status)
{
  pthread_mutex_lock(&p->mu);
  if (!p->exited) {
    int st;
    if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
      p->exited = true;
      p->status = st;
    }
  }
  bool e = p->exited;
  if (e && status)
    *status = p->status;
  pthread_mutex_unlock(&p->mu);
  return e;
}

/* Kills and reaps a process whose handshake failed, draining its output
** into the tail first so the report can show it. */
static void abandon(PluginProc *p, bool kill_it)
{
  if (kill_it && !plugin_exited(p, NULL))
    kill(p->pid, SIGKILL);
  /* The process is gone or going: read its output to EOF. */
  int fds[2] = {p->out_fd, p->err_fd};
  for (int i = 0; i < 2; i++)
    while (pump(p, i, fds[i])) {
    }
  close(p->out_fd);
  close(p->err_fd);
  if (!p->exited) {
    int st;
    while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR) {
    }
    p->exited = true;
    p->status = st;
  }
}

static void describe_exit(Buf *b, int st)
{
  if (WIFEXITED(st))
    buf_printf(b, "exit status %d", WEXITSTATUS(st));
  else if (WIFSIGNALED(st))
    buf_printf(b, "killed by signal %d", WTERMSIG(st));
  else
    buf_puts(b, "unknown status");
}

static PluginProc *fail(Arena *a, Diags *d, PluginProc *p, bool kill_it,
                        const char *what)
{
  Buf b;
  buf_init(&b, a);
  buf_puts(&b, what);
  if (p) {
    abandon(p, kill_it);
    if (!kill_it) {
      buf_puts(&b, " (");
      describe_exit(&b, p->status);
      buf_puts(&b, ")");
    }
    Buf t;
    buf_init(&t, a);
    plugin_tail(p, &t);
    if (t.len) {
      buf_puts(&b, ". Its last output:\n");
      buf_put(&b, t.p, t.len - 1);
    } else {
      buf_puts(&b, ".");
    }
  }
  diag_error(d, NULL, "Failed to start provider plugin", "%s", buf_str(&b));
  return NULL;
}

/* Checks the handshake line; fills p or appends the reason to why. */
static bool parse_handshake(Arena *a, const PluginLaunch *l, PluginProc *p,
                            char *line, Buf *why)
{
  char *f[7];
  int nf = 0;
  char *s = line;
  while (nf < 7) {
    f[nf++] = s;
    char *bar = strchr(s, '|');
    if (!bar)
      break;
    *bar = 0;
    s = bar + 1;
  }
  if (nf < 5 || nf > 6) {
    buf_puts(why, "its first line is not a go-plugin handshake "
                  "(CORE|APP|NETWORK|ADDRESS|PROTOCOL)");
    return false;
  }
  if (strcmp(f[0], "1") != 0) {
    buf_printf(why, "incompatible core API version with plugin: plugin "
                    "version %s, core version 1", f[0]);
    return false;
  }
  char *end;
  errno = 0;
  long v = strtol(f[1], &end, 10);
  bool offered = false;
  for (int i = 0; i < l->nversions; i++)
    offered |= l->versions[i] == v;
  if (errno || end == f[1] || *end || !offered) {
    buf_printf(why, "the plugin chose protocol version \"%s\", which is "
                    "not one of those offered (", f[1]);
    for (int i = 0; i < l->nversions; i++)
      buf_printf(why, "%s%d", i ? "," : "", l->versions[i]);
    buf_puts(why, ")");
    return false;
  }
  if (strcmp(f[2], "unix") != 0 && strcmp(f[2], "tcp") != 0) {
    buf_printf(why, "unsupported network \"%s\" in the handshake", f[2]);
    return false;
  }
  if (!*f[3]) {
    buf_puts(why, "the handshake names no address");
    return false;
  }
  if (strcmp(f[4], "grpc") != 0) {
    buf_printf(why, "unsupported plugin protocol \"%s\" (cairn speaks "
                    "grpc)", f[4]);
    return false;
  }
  p->version = (int)v;
  p->unix_socket = strcmp(f[2], "unix") == 0;
  p->address = arena_strdup(a, f[3]);
  p->server_cert = nf == 6 && *f[5] ? arena_strdup(a, f[5]) : NULL;
  return true;
}

/* Writes a message to fd 2 in a forked child (only async-signal-safe
** calls between fork and exec: the parent has other threads). */
static void child_die(const char *what)
{
  const char *e = strerror(errno);
  ssize_t r = write(2, what, strlen(what));
  r = write(2, ": ", 2);
  r = write(2, e, strlen(e));
  r = write(2, "\n", 1);
  (void)r;
  _exit(127);
}

/* fork+exec with the sandbox of l (working directory, ids): what
** posix_spawn cannot do.  Returns 0 or an errno value. */
static int spawn_sandboxed(const PluginLaunch *l, int out, int err,
                           char **argv, char **envp, pid_t *pid)
{
  pid_t c = fork();
  if (c < 0)
    return errno;
  if (c == 0) {
    int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (nul < 0 || dup2(nul, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
      child_die("cannot set up the plugin's standard files");
    if (l->dir && chdir(l->dir) != 0)
      child_die("cannot enter the plugin's working directory");
    if (l->set_ids) {
      if (setgroups(0, NULL) != 0 || setgid(l->gid) != 0 ||
          setuid(l->uid) != 0)
        child_die("cannot switch to the plugin user");
      /* Dropping root must be final. */
      if (l->uid != 0 && setuid(0) == 0)
        child_die("the plugin user could regain root");
    }
    execve(l->path, argv, envp);
    child_die("cannot run the plugin");
  }
  *pid = c;
  return 0;
}

PluginProc *plugin_start(Arena *a, const PluginLaunch *l, Diags *d)
{
  struct stat st;
  if (stat(l->path, &st) != 0)
    return fail(a, d, NULL, false,
                arena_printf(a, "The plugin %s cannot be run: %s", l->path,
                             strerror(errno)));
  if (!S_ISREG(st.st_mode) || access(l->path, X_OK) != 0)
    return fail(a, d, NULL, false,
                arena_printf(a, "The plugin %s cannot be run: it is not an "
                             "executable file", l->path));

  /* The environment: ours, minus the variables we set, plus them. */
  static const char *const ours[] = {
    PLUGIN_MAGIC_COOKIE_KEY "=", "PLUGIN_PROTOCOL_VERSIONS=",
    "PLUGIN_MIN_PORT=", "PLUGIN_MAX_PORT=", "PLUGIN_CLIENT_CERT="};
  char *const *base = l->env ? (char *const *)l->env : environ;
  size_t ne = 0;
  while (base[ne])
    ne++;
  char **envp = ARENA_NEW(a, char *, ne + 6);
  size_t k = 0;
  for (size_t i = 0; i < ne; i++) {
    bool skip = false;
    for (size_t j = 0; j < sizeof ours / sizeof *ours; j++)
      skip |= strncmp(base[i], ours[j], strlen(ours[j])) == 0;
    if (!skip)
      envp[k++] = base[i];
  }
  envp[k++] = arena_printf(a, PLUGIN_MAGIC_COOKIE_KEY "=%s",
                           l->magic_cookie ? l->magic_cookie
                                           : PLUGIN_MAGIC_COOKIE);
  Buf vs;
  buf_init(&vs, a);
  for (int i = 0; i < l->nversions; i++)
    buf_printf(&vs, "%s%d", i ? "," : "", l->versions[i]);
  envp[k++] = arena_printf(a, "PLUGIN_PROTOCOL_VERSIONS=%s", buf_str(&vs));
  envp[k++] = (char *)"PLUGIN_MIN_PORT=10000";
  envp[k++] = (char *)"PLUGIN_MAX_PORT=25000";
  if (l->client_cert)
    envp[k++] = arena_printf(a, "PLUGIN_CLIENT_CERT=%s", l->client_cert);
  envp[k] = NULL;

  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0)
    return fail(a, d, NULL, false, arena_printf(a, "pipe: %s",
                                                strerror(errno)));
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(out[0]);
    close(out[1]);
    return fail(a, d, NULL, false, arena_printf(a, "pipe: %s",
                                                strerror(errno)));
  }
  char *argv[2] = {(char *)l->path, NULL};
  pid_t pid;
  int rc;
  if (l->env || l->dir || l->set_ids) {
    rc = spawn_sandboxed(l, out[1], err[1], argv, envp, &pid);
  } else {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    rc = posix_spawn(&pid, l->path, &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
  }
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    close(out[0]);
    close(err[0]);
    return fail(a, d, NULL, false,
                arena_printf(a, "The plugin %s cannot be run: %s", l->path,
                             strerror(rc)));
  }
  PluginProc *p = ARENA_NEW(a, PluginProc, 1);
  p->pid = pid;
  p->name = l->name ? l->name : l->path;
  p->out_fd = out[0];
  p->err_fd = err[0];
  pthread_mutex_init(&p->mu, NULL);

  /* The handshake: the first stdout line, read while stderr is drained
  ** (the plugin logs there first and must not block on a full pipe). */
  long deadline = now_ms() + (l->timeout_ms > 0 ? l->timeout_ms : 60000);
  char hs[PLUGIN_LINE_MAX];
  size_t hn = 0;
  for (;;) {
    long left = deadline - now_ms();
    if (left <= 0)
      return fail(a, d, p, true,
                  arena_printf(a, "The plugin %s did not complete the "
                               "handshake in time (timeout while waiting "
                               "for plugin to start)", l->path));
    struct pollfd pf[2] = {{.fd = p->out_fd, .events = POLLIN},
                           {.fd = p->err_fd, .events = POLLIN}};
    int pr = poll(pf, 2, (int)left);
    if (pr < 0 && errno != EINTR)
      return fail(a, d, p, true, arena_printf(a, "poll: %s",
                                              strerror(errno)));
    if (pf[1].revents)
      pump(p, 1, p->err_fd);
    if (!pf[0].revents)
      continue;
    ssize_t n = read(p->out_fd, hs + hn, 1);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (n <= 0)
      return fail(a, d, p, false,
                  arena_printf(a, "The plugin %s exited before completing "
                               "the handshake", l->path));
    if (hs[hn] == '\n')
      break;
    if (++hn == sizeof hs - 1)
      break;
  }
  hs[hn] = 0;
  if (hn && hs[hn - 1] == '\r')
    hs[--hn] = 0;
  Buf why;
  buf_init(&why, a);
  if (!parse_handshake(a, l, p, hs, &why))
    return fail(a, d, p, true,
                arena_printf(a, "The plugin %s gave an invalid handshake: "
                             "%s; its line was \"%s\"", l->path,
                             buf_str(&why), hs));
  if (pthread_create(&p->reader, NULL, reader_main, p) != 0)
    return fail(a, d, p, true, "cannot start the plugin's output reader");
  return p;
}

int plugin_stop(PluginProc *p, int grace_ms)
{
  long deadline = now_ms() + grace_ms;
  while (!plugin_exited(p, NULL) && now_ms() < deadline) {
    /* A bounded wait for a process asked to exit: poll its status every
    ** 10 ms (there is no portable wait-with-timeout for a child). */
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  if (!plugin_exited(p, NULL)) {
    kill(p->pid, SIGKILL);
    pthread_mutex_lock(&p->mu);
    int st;
    while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR) {
    }
    p->exited = true;
    p->status = st;
    pthread_mutex_unlock(&p->mu);
  }
  pthread_join(p->reader, NULL);
  close(p->out_fd);
  close(p->err_fd);
  pthread_mutex_destroy(&p->mu);
  return p->status;
}
