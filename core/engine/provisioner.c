/*
** provisioner: local-exec.  See provisioner.h and docs/provisioners.md.
*/
#include "provisioner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "providers/decode.h"

#define SUPPRESSED "(output suppressed due to sensitive value in config)"
#define QUIET_ECHO "local-exec: Executing: Suppressed by quiet=true"
/* Terraform keeps the last 8 KiB of output for the error (circbuf). */
#define OUT_KEEP 8192
/* A line longer than this is delivered in pieces, so a process writing
** without newlines cannot grow memory without bound. */
#define MAX_LINE (1u << 20)
#define POLL_MS 100

/* ---- Schema ---------------------------------------------------------- */

static const Type list_of_string = {TY_LIST, 0, &ty_string, NULL, NULL, NULL,
                                    NULL};
static const Type map_of_string = {TY_MAP, 0, &ty_string, NULL, NULL, NULL,
                                   NULL};

static const ProvAttrSchema lx_attrs[] = {
    {"command", &ty_string, NULL, PROV_REQUIRED, NULL, NULL},
    {"environment", &map_of_string, NULL, PROV_OPTIONAL, NULL, NULL},
    {"interpreter", &list_of_string, NULL, PROV_OPTIONAL, NULL, NULL},
    {"quiet", &ty_bool, NULL, PROV_OPTIONAL, NULL, NULL},
    {"working_dir", &ty_string, NULL, PROV_OPTIONAL, NULL, NULL},
};
static const ProvBlockSchema lx_schema = {lx_attrs, 5, NULL, 0, NULL, false,
                                          NULL};

const ProvBlockSchema *prv_local_exec_schema(void)
{
  return &lx_schema;
}

/* ---- Validation ------------------------------------------------------ */

bool prv_check(const CfgProvisioner *p, Diags *d)
{
  if (strcmp(p->type, "local-exec") == 0)
    return true;
  if (strcmp(p->type, "file") == 0 || strcmp(p->type, "remote-exec") == 0) {
    diag_error(d, &p->range, "Unsupported provisioner",
               "cairn runs only the \"local-exec\" provisioner. The \"%s\" "
               "provisioner needs a connection to a remote host, which "
               "cairn does not make; run the step with \"local-exec\" or "
               "outside cairn.", p->type);
    return false;
  }
  /* Terraform's wording when no provisioner of that name exists. */
  diag_error(d, &p->range,
             arena_printf(d->arena, "failed to instantiate provisioner "
                          "\"%s\" to obtain schema: unavailable "
                          "provisioner \"%s\"", p->type, p->type),
             NULL);
  return false;
}

/* ---- Decoding -------------------------------------------------------- */

static const char *str_of(Arena *a, Value v, bool *nul)
{
  if (strlen(v.u.s) != v.len)
    *nul = true;
  return arena_strndup(a, v.u.s, v.len);
}

bool prv_decode(EvalCtx *ctx, const CfgProvisioner *p, bool allow_unknown,
                PrvLocalExec *out)
{
  memset(out, 0, sizeof *out);
  out->range = p->range;
  Value obj;
  if (!dec_body(ctx, p->body, &lx_schema, &obj))
    return false;
  Arena *a = ctx->arena;
  out->sensitive = val_has_sensitive(obj);
  obj = val_unmark_deep(a, obj);
  if (!allow_unknown && !val_is_wholly_known(obj)) {
    Buf names;
    buf_init(&names, a);
    for (uint32_t i = 0; i < obj.type->n; i++)
      if (!val_is_wholly_known(obj.u.elems[i]))
        buf_printf(&names, "%s%s", names.len ? ", " : "",
                   obj.type->names[i]);
    diag_error(ctx->diags, &p->range, "Configuration contains unknown value",
               "The local-exec provisioner configuration still contains "
               "unknown values during apply: %s. Provisioner arguments can "
               "only use values known once the resource exists.",
               buf_str(&names));
    return false;
  }
  bool found, nul = false;
  Value v = val_attr(obj, "command", &found);
  if (val_is_null(v)) {
    /* Required attributes set to null pass hcldec; Terraform's
    ** ValidateProvisionerConfig (CoerceValue) rejects them. */
    diag_error(ctx->diags, &p->range,
               "Invalid local-exec provisioner configuration",
               "attribute \"command\" is required");
    return false;
  }
  if (val_is_known(v))
    out->command = str_of(a, v, &nul);
  out->nul_arg = nul;

  v = val_attr(obj, "interpreter", &found);
  if (!val_is_null(v) && val_is_known(v) && v.len > 0) {
    out->interpreter_given = true;
    out->interpreter = ARENA_NEW(a, const char *, v.len);
    for (uint32_t i = 0; i < v.len; i++) {
      Value e = v.u.elems[i];
      if (val_is_null(e) || !val_is_known(e))
        continue;
      out->interpreter[out->ninterpreter++] = str_of(a, e, &nul);
    }
    out->nul_arg = nul;
  }

  v = val_attr(obj, "working_dir", &found);
  if (!val_is_null(v) && val_is_known(v))
    out->working_dir = str_of(a, v, &nul);
  out->nul_arg = nul;

  v = val_attr(obj, "environment", &found);
  if (!val_is_null(v) && val_is_known(v) && v.len > 0) {
    bool enul = false;
    out->env_names = ARENA_NEW(a, const char *, v.len);
    out->env_values = ARENA_NEW(a, const char *, v.len);
    for (uint32_t i = 0; i < v.len; i++) {
      const MapEntry *e = &v.u.entries[i];
      if (val_is_null(e->val) || !val_is_known(e->val))
        continue;
      if (strlen(e->key) != e->keylen)
        enul = true;
      out->env_names[out->nenv] = arena_strndup(a, e->key, e->keylen);
      out->env_values[out->nenv++] = str_of(a, e->val, &enul);
    }
    out->nul_env = enul;
  }

  v = val_attr(obj, "quiet", &found);
  out->quiet = !val_is_null(v) && val_is_known(v) && v.u.b;
  return true;
}

/* ---- Go's %q --------------------------------------------------------- */

/* Decodes one UTF-8 sequence at s[0..n); returns its length and the rune,
** or 0 for an invalid sequence. */
static size_t utf8_dec(const unsigned char *s, size_t n, uint32_t *r)
{
  if (s[0] < 0x80) {
    *r = s[0];
    return 1;
  }
  size_t len;
  uint32_t c, min;
  if ((s[0] & 0xE0) == 0xC0) {
    len = 2, c = s[0] & 0x1F, min = 0x80;
  } else if ((s[0] & 0xF0) == 0xE0) {
    len = 3, c = s[0] & 0x0F, min = 0x800;
  } else if ((s[0] & 0xF8) == 0xF0) {
    len = 4, c = s[0] & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (len > n)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    c = (c << 6) | (s[i] & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return 0;
  *r = c;
  return len;
}

/* strconv.IsPrint for the runes that show up in practice: controls, C1
** controls, the non-ASCII spaces and format characters are not. */
static bool go_printable(uint32_t r)
{
  if (r < 0x20 || r == 0x7F || (r >= 0x80 && r <= 0xA0) || r == 0xAD)
    return false;
  if ((r >= 0x2000 && r <= 0x200F) || (r >= 0x2028 && r <= 0x202F) ||
      (r >= 0x205F && r <= 0x206F) || r == 0x3000 || r == 0xFEFF ||
      r == 0x1680 || r == 0x180E)
    return false;
  if ((r >= 0xFFF9 && r <= 0xFFFB) || r == 0xFFFE || r == 0xFFFF)
    return false;
  return true;
}

/* strconv.Quote */
static void go_quote(Buf *b, const char *str)
{
  const unsigned char *s = (const unsigned char *)str;
  size_t n = strlen(str);
  buf_putc(b, '"');
  for (size_t i = 0; i < n;) {
    uint32_t r;
    size_t len = utf8_dec(s + i, n - i, &r);
    if (len == 0) {
      buf_printf(b, "\\x%02x", s[i]);
      i++;
      continue;
    }
    i += len;
    if (r == '"' || r == '\\') {
      buf_putc(b, '\\');
      buf_putc(b, (char)r);
    } else if (go_printable(r)) {
      buf_put(b, s + i - len, len);
    } else {
      switch (r) {
      case '\a': buf_puts(b, "\\a"); break;
      case '\b': buf_puts(b, "\\b"); break;
      case '\f': buf_puts(b, "\\f"); break;
      case '\n': buf_puts(b, "\\n"); break;
      case '\r': buf_puts(b, "\\r"); break;
      case '\t': buf_puts(b, "\\t"); break;
      case '\v': buf_puts(b, "\\v"); break;
      default:
        if (r < 0x80)
          buf_printf(b, "\\x%02x", (unsigned)r);
        else if (r < 0x10000)
          buf_printf(b, "\\u%04x", (unsigned)r);
        else
          buf_printf(b, "\\U%08x", (unsigned)r);
      }
    }
  }
  buf_putc(b, '"');
}

/* ---- Running --------------------------------------------------------- */

typedef struct Run {
  const PrvLocalExec *x;
  PrvLineFn line;
  void *line_ctx;
  Buf cur;                    /* the line being assembled */
  char keep[OUT_KEEP];        /* ring of the last output bytes */
  size_t kept;                /* total bytes seen */
} Run;

static void emit(Run *r, const char *msg)
{
  r->line(r->line_ctx, r->x->sensitive ? SUPPRESSED : msg);
}

static void flush_line(Run *r)
{
  size_t n = r->cur.len;
  char *p = r->cur.p;
  if (n && p[n - 1] == '\r')
    p[--n] = '\0';
  emit(r, n ? p : "");
  buf_clear(&r->cur);
}

static void feed(Run *r, const char *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    r->keep[(r->kept + i) % OUT_KEEP] = p[i];
  r->kept += n;
  while (n) {
    const char *nl = memchr(p, '\n', n);
    size_t seg = nl ? (size_t)(nl - p) : n;
    if (r->cur.len + seg > MAX_LINE) {
      size_t room = MAX_LINE - r->cur.len;
      buf_put(&r->cur, p, room);
      flush_line(r);
      p += room, n -= room;
      continue;
    }
    buf_put(&r->cur, p, seg);
    if (!nl)
      return;
    flush_line(r);
    p += seg + 1, n -= seg + 1;
  }
}

/* The kept output, oldest byte first. */
static const char *kept_output(Arena *a, const Run *r)
{
  size_t n = r->kept < OUT_KEEP ? r->kept : OUT_KEEP;
  char *s = arena_alloc_raw(a, 1, 1, n + 1);
  size_t start = r->kept < OUT_KEEP ? 0 : r->kept % OUT_KEEP;
  for (size_t i = 0; i < n; i++)
    s[i] = r->keep[(start + i) % OUT_KEEP];
  s[n] = '\0';
  return s;
}

/* Go's error text for an errno: its table is strerror's, lower-cased. */
static const char *errtext(Arena *a, int err)
{
  char *s = arena_strdup(a, strerror(err));
  if (s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = (char)(s[0] - 'A' + 'a');
  return s;
}

/* os.ProcessState.String() for a waitpid status. */
static const char *status_text(Arena *a, int st)
{
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

/* exec.LookPath against the caller's PATH, as Go's exec.Command does
** (the command's own `environment` does not change the search).  NULL
** when not found. */
static const char *look_path(Arena *a, const char *file)
{
  if (strchr(file, '/'))
    return file;
  const char *path = getenv("PATH");
  if (!path)
    path = "";
  for (const char *p = path;;) {
    const char *e = strchr(p, ':');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    const char *cand = n ? arena_printf(a, "%.*s/%s", (int)n, p, file)
                         : arena_printf(a, "./%s", file);
    struct stat sb;
    if (stat(cand, &sb) == 0 && !S_ISDIR(sb.st_mode) &&
        (sb.st_mode & 0111))
      return cand;
    if (!e)
      return NULL;
    p = e + 1;
  }
}

/* The process environment without the names `environment` overrides,
** then the overrides (Go's dedupEnv: later values win). */
static char **build_envp(Arena *a, const PrvLocalExec *x)
{
  size_t n = 0;
  for (char **e = environ; e && *e; e++)
    n++;
  char **out = ARENA_NEW(a, char *, n + x->nenv + 1);
  size_t k = 0;
  for (char **e = environ; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    size_t nl = eq ? (size_t)(eq - *e) : strlen(*e);
    bool over = false;
    for (uint32_t i = 0; i < x->nenv && !over; i++)
      over = strlen(x->env_names[i]) == nl &&
             memcmp(x->env_names[i], *e, nl) == 0;
    if (!over)
      out[k++] = *e;
  }
  for (uint32_t i = 0; i < x->nenv; i++)
    out[k++] = arena_printf(a, "%s=%s", x->env_names[i], x->env_values[i]);
  out[k] = NULL;
  return out;
}

static bool stopped(volatile sig_atomic_t *stop)
{
  return stop && *stop;
}

static Diag *fail(Diags *d, const PrvLocalExec *x, const char *addr,
                  const char *why, const char *output)
{
  Diag *g = diag_error(d, &x->range, "local-exec provisioner error",
                       "Error running command '%s': %s. Output: %s",
                       x->command, why, output);
  if (addr)
    diag_set_address(d, g, addr);
  return g;
}

/* Spawns argv with the pipe's write end as stdout and stderr.  Returns 0
** or an errno. */
static int spawn(pid_t *pid, const char *path, char **argv, char **envp,
                 const char *wd, int w)
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
  /* Whatever cairn ignores or catches must not leak into the command. */
  static const int sigs[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT,
                             SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
    sigaddset(&dfl, sigs[i]);
  if (!rc)
    rc = posix_spawnattr_setsigmask(&at, &none);
  if (!rc)
    rc = posix_spawnattr_setsigdefault(&at, &dfl);
  if (!rc)
    rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK |
                                           POSIX_SPAWN_SETSIGDEF);
  if (!rc)
    rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (!rc)
    rc = posix_spawn_file_actions_adddup2(&fa, w, 1);
  if (!rc)
    rc = posix_spawn_file_actions_adddup2(&fa, w, 2);
  if (!rc && wd && *wd)
    rc = posix_spawn_file_actions_addchdir_np(&fa, wd);
  if (!rc)
    rc = posix_spawn(pid, path, &fa, &at, argv, envp);
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  return rc;
}

static void wait_ms(int ms)
{
  (void)poll(NULL, 0, ms);
}

bool prv_run(Arena *scratch, const PrvLocalExec *x, const char *addr,
             PrvLineFn line, void *line_ctx, volatile sig_atomic_t *stop,
             Diags *d)
{
  Arena *a = scratch;
  if (!x->command || !x->command[0]) {
    Diag *g = diag_error(d, &x->range, "Invalid local-exec provisioner "
                         "command", "The command must be a non-empty "
                         "string.");
    if (addr)
      diag_set_address(d, g, addr);
    return false;
  }
  /* argv: the interpreter (or /bin/sh -c), then the command. */
  uint32_t nargs = x->interpreter_given ? x->ninterpreter : 2;
  char **argv = ARENA_NEW(a, char *, nargs + 2);
  if (x->interpreter_given) {
    for (uint32_t i = 0; i < x->ninterpreter; i++)
      argv[i] = arena_strdup(a, x->interpreter[i]);
  } else {
    argv[0] = arena_strdup(a, "/bin/sh");
    argv[1] = arena_strdup(a, "-c");
  }
  argv[nargs] = arena_strdup(a, x->command);
  argv[nargs + 1] = NULL;

  Run *r = ARENA_NEW(a, Run, 1);
  r->x = x;
  r->line = line;
  r->line_ctx = line_ctx;
  buf_init(&r->cur, a);

  /* The echo goes out before the process starts, as Terraform's does. */
  if (x->quiet) {
    emit(r, QUIET_ECHO);
  } else {
    Buf echo;
    buf_init(&echo, a);
    buf_puts(&echo, "Executing: [");
    for (uint32_t i = 0; argv[i]; i++) {
      if (i)
        buf_putc(&echo, ' ');
      go_quote(&echo, argv[i]);
    }
    buf_putc(&echo, ']');
    emit(r, buf_str(&echo));
  }

  if (x->nul_env) {
    fail(d, x, addr, "exec: environment variable contains NUL", "");
    return false;
  }
  const char *path = look_path(a, argv[0]);
  if (!path) {
    Buf why;
    buf_init(&why, a);
    buf_puts(&why, "exec: ");
    go_quote(&why, argv[0]);
    buf_puts(&why, ": executable file not found in $PATH");
    fail(d, x, addr, buf_str(&why), "");
    return false;
  }
  if (stopped(stop)) {
    fail(d, x, addr, "context canceled", "");
    return false;
  }
  if (x->nul_arg) {
    fail(d, x, addr, arena_printf(a, "fork/exec %s: invalid argument", path),
         "");
    return false;
  }
  /* Checked here as well as by the spawn, because a spawn implemented
  ** with fork (valgrind, old libcs) reports a failed exec only as exit
  ** status 127. */
  if (access(path, X_OK) != 0) {
    fail(d, x, addr, arena_printf(a, "fork/exec %s: %s", path,
                                  errtext(a, errno)), "");
    return false;
  }
  if (x->working_dir && x->working_dir[0]) {
    /* Go checks the directory first for a clearer error. */
    struct stat sb;
    if (stat(x->working_dir, &sb) != 0) {
      fail(d, x, addr, arena_printf(a, "chdir %s: %s", x->working_dir,
                                    errtext(a, errno)), "");
      return false;
    }
  }
  char **envp = build_envp(a, x);

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    Diag *g = diag_error(d, &x->range, "local-exec provisioner error",
                         "Failed to initialize pipe for output: %s",
                         errtext(a, errno));
    if (addr)
      diag_set_address(d, g, addr);
    return false;
  }
  pid_t pid;
  int rc = spawn(&pid, path, argv, envp, x->working_dir, fds[1]);
  close(fds[1]);
  if (rc) {
    close(fds[0]);
    fail(d, x, addr, arena_printf(a, "fork/exec %s: %s", path,
                                  errtext(a, rc)), "");
    return false;
  }

  /* Read until every writer has closed the pipe (a command that leaves a
  ** background process holding it keeps us here, as it keeps Terraform),
  ** or until stopped. */
  bool killed = false;
  char chunk[4096];
  for (;;) {
    if (stopped(stop)) {
      kill(pid, SIGKILL);
      killed = true;
      break;
    }
    struct pollfd pf = {fds[0], POLLIN, 0};
    int pr = poll(&pf, 1, POLL_MS);
    if (pr < 0 && errno != EINTR)
      break;
    if (pr <= 0)
      continue;
    ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (n <= 0)
      break;
    feed(r, chunk, (size_t)n);
  }
  int st = 0, werr = 0;
  for (;;) {
    pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid)
      break;
    if (w < 0 && errno != EINTR) {
      werr = errno;   /* SIGCHLD ignored by someone: no status to read */
      break;
    }
    if (w == 0) {
      if (stopped(stop) && !killed) {
        kill(pid, SIGKILL);
        killed = true;
      }
      wait_ms(killed ? 1 : 10);
    }
  }
  if (killed) {
    /* Deliver what the pipe still holds, without waiting for writers a
    ** killed shell may have left behind. */
    int fl = fcntl(fds[0], F_GETFL);
    if (fl >= 0)
      (void)fcntl(fds[0], F_SETFL, fl | O_NONBLOCK);
    for (;;) {
      ssize_t n = read(fds[0], chunk, sizeof chunk);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      feed(r, chunk, (size_t)n);
    }
  }
  close(fds[0]);
  if (r->cur.len)
    flush_line(r);
  if (!werr && WIFEXITED(st) && WEXITSTATUS(st) == 0 && !killed)
    return true;
  fail(d, x, addr,
       werr ? arena_printf(a, "wait: %s", errtext(a, werr))
            : status_text(a, st),
       kept_output(a, r));
  return false;
}

/* ---- UI rendering ---------------------------------------------------- */

static bool trailing_space(const char *s, size_t n, size_t *cut)
{
  unsigned char c = (unsigned char)s[n - 1];
  if (c == ' ' || (c >= '\t' && c <= '\r')) {
    *cut = 1;
    return true;
  }
  /* U+0085 and U+00A0 (unicode.IsSpace beyond ASCII, the common ones) */
  if (n >= 2 && (unsigned char)s[n - 2] == 0xC2 && (c == 0x85 || c == 0xA0)) {
    *cut = 2;
    return true;
  }
  return false;
}

void prv_ui_lines(const char *msg, void (*emit_fn)(void *ctx, const char *line),
                  void *ctx, Arena *scratch)
{
  size_t n = strlen(msg);
  size_t i = 0;
  bool any = false;
  while (i < n) {
    /* Terraform's scanLines: "\n" (dropping a "\r" before it) ends a line;
    ** with no "\n" left, a lone "\r" does. */
    const char *p = msg + i;
    const char *nl = memchr(p, '\n', n - i);
    size_t len, adv;
    if (nl) {
      len = (size_t)(nl - p);
      adv = len + 1;
      if (len && p[len - 1] == '\r')
        len--;
    } else {
      const char *cr = memchr(p, '\r', n - i);
      len = cr ? (size_t)(cr - p) : n - i;
      adv = cr ? len + 1 : len;
    }
    i += adv;
    size_t cut;
    while (len && trailing_space(p, len, &cut))
      len -= cut;
    if (!len)
      continue;
    ArenaMark m = arena_mark(scratch);
    emit_fn(ctx, arena_strndup(scratch, p, len));
    arena_rewind(scratch, m);
    any = true;
  }
  if (!any)
    emit_fn(ctx, NULL);
}
