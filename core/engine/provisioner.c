/*
** provisioner: local-exec.  See provisioner.h and docs/provisioners.md.
*/
#include "provisioner.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/proc.h"
#include "providers/decode.h"

#define SUPPRESSED "(output suppressed due to sensitive value in config)"
#define SUPPRESSED_EPH "(output suppressed due to ephemeral value in config)"
#define QUIET_ECHO "local-exec: Executing: Suppressed by quiet=true"
/* Terraform keeps the last 8 KiB of output for the error (circbuf). */
#define OUT_KEEP 8192
/* A line longer than this is delivered in pieces, so a process writing
** without newlines cannot grow memory without bound. */
#define MAX_LINE (1u << 20)

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
  out->ephemeral = val_has_ephemeral(obj);
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
  r->line(r->line_ctx, r->x->sensitive   ? SUPPRESSED
                      : r->x->ephemeral ? SUPPRESSED_EPH
                                        : msg);
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

static void sink(void *ctx, int stream, const char *p, size_t n)
{
  (void)stream;
  feed(ctx, p, n);
}

static bool stop_set(void *ctx)
{
  volatile sig_atomic_t *const *stop = ctx;
  return *stop && **stop;
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
  const char **argv = ARENA_NEW(a, const char *, nargs + 2);
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
      buf_strconv_quote(&echo, argv[i], strlen(argv[i]));
    }
    buf_putc(&echo, ']');
    emit(r, buf_str(&echo));
  }

  if (x->nul_env) {
    fail(d, x, addr, "exec: environment variable contains NUL", "");
    return false;
  }
  /* exec.Command looks up only a bare name; a path is tried as given. */
  const char *path = argv[0], *why;
  if (!strchr(path, '/') && !(path = proc_look_path(a, argv[0], &why))) {
    fail(d, x, addr, why, "");
    return false;
  }
  if (stop && *stop) {
    fail(d, x, addr, "context canceled", "");
    return false;
  }
  if (x->nul_arg) {
    fail(d, x, addr, arena_printf(a, "fork/exec %s: invalid argument", path),
         "");
    return false;
  }
  /* The program before the directory (proc_run checks them the other way
  ** round), so that the message for both wrong stays what it was. */
  if (access(path, X_OK) != 0) {
    fail(d, x, addr, arena_printf(a, "fork/exec %s: %s", path,
                                  proc_errtext(a, errno)), "");
    return false;
  }
  ProcSpec s = {.path = path, .argv = argv, .envp = build_envp(a, x),
                .dir = x->working_dir, .merge = true,
                .sink = sink, .sink_ctx = r,
                .stop = stop_set, .stop_ctx = &stop};
  ProcResult pr;
  bool ok = proc_run(a, &s, &pr);
  if (r->cur.len)
    flush_line(r);
  if (ok)
    return true;
  if (pr.pipe_errno) {
    Diag *g = diag_error(d, &x->range, "local-exec provisioner error",
                         "Failed to initialize pipe for output: %s",
                         proc_errtext(a, pr.pipe_errno));
    if (addr)
      diag_set_address(d, g, addr);
    return false;
  }
  fail(d, x, addr, pr.error, pr.started ? kept_output(a, r) : "");
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
