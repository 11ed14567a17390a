/*
** cmd_op: the machinery plan, apply, destroy and show share.  See
** cmd_op.h.
*/
#include "cmd_op.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_backend.h"
#include "base/json.h"
#include "base/pool.h"
#include "config/provver.h"
#include "lang/eval.h"
#include "state/workspace.h"


volatile sig_atomic_t op_interrupted;

/* SIGINT, as Terraform: the first one sets op_interrupted (the engine
** starts nothing new, running operations finish and are recorded) and
** prints Terraform's notice; the second exits at once (the state stays
** whole: snapshots are renamed into place and the journal replays).  The
** notice goes through stdio, which a handler must not touch, so the
** handler wakes a watcher thread through a pipe; the thread flushes what
** is buffered first, keeping the output in order. */
static const char msg_interrupted[] =
    "\nInterrupt received.\nPlease wait for cairn to exit or data loss "
    "may occur.\nGracefully shutting down...\n";
static const char msg_fatal[] =
    "\nTwo interrupts received. Exiting immediately. Note that data loss "
    "may have occurred.\n\n";
static int sig_pipe[2] = {-1, -1};
static pthread_t sig_thread;
static bool sig_watching;

static void on_sigint(int sig)
{
  (void)sig;
  if (op_interrupted) {
    if (write(STDERR_FILENO, msg_fatal, sizeof msg_fatal - 1) < 0) {
      /* exiting anyway */
    }
    _exit(1);
  }
  op_interrupted = 1;
  char c = 1;
  if (sig_pipe[1] >= 0 && write(sig_pipe[1], &c, 1) < 0) {
    /* the watcher is gone: the flag alone still stops the engine */
  }
}

static void *sig_watch(void *arg)
{
  Op *op = arg;
  char c;
  ssize_t k;
  do
    k = read(sig_pipe[0], &c, 1);
  while (k < 0 && errno == EINTR);
  if (k != 1)
    return NULL;    /* op_finish closed the pipe */
  if (op->json) {
    Arena a;
    arena_init(&a, 0);
    Buf b;
    buf_init(&b, &a);
    JUi u = {&b, op->ui.now, op->ui.now_ctx};
    jui_log(&u, "info", msg_interrupted);
    jui_log(&u, "info", "Stopping operation...");
    fwrite(b.p, 1, b.len, stdout);
    arena_release(&a);
  } else {
    fprintf(stdout, "%s\nStopping operation...\n", msg_interrupted);
  }
  fflush(stdout);
  return NULL;
}

static void sigint_install(Op *op)
{
  if (!sig_watching && pipe2(sig_pipe, O_CLOEXEC) == 0) {
    if (pthread_create(&sig_thread, NULL, sig_watch, op) == 0) {
      sig_watching = true;
    } else {
      close(sig_pipe[0]);
      close(sig_pipe[1]);
      sig_pipe[0] = sig_pipe[1] = -1;
    }
  }
  signal(SIGINT, on_sigint);
}

static void sigint_remove(void)
{
  signal(SIGINT, SIG_DFL);
  if (!sig_watching)
    return;
  int w = sig_pipe[1];
  sig_pipe[1] = -1;
  close(w);         /* wakes the watcher if no signal came */
  pthread_join(sig_thread, NULL);
  close(sig_pipe[0]);
  sig_pipe[0] = -1;
  sig_watching = false;
}

void op_init(Op *op, Cli *cli)
{
  memset(op, 0, sizeof *op);
  op->cli = cli;
  op->a = cli->arena;
  diag_init(&op->d, op->a);
  op->lock = true;
  op->refresh = true;
  op->input = true;
  op->parallelism = -1;   /* unset: host configuration, else 10 */
  op->lock_timeout = "0s";
}

const CliFlag *op_flags(Op *op, char kind, int *n)
{
  CliFlag *f = ARENA_NEW(op->a, CliFlag, 32);
  int k = 0;
  f[k++] = (CliFlag){"var", FLAG_LIST, &op->var_items};
  f[k++] = (CliFlag){"var-file", FLAG_LIST, &op->var_items};
  f[k++] = (CliFlag){"state", FLAG_STRING, &op->state_path};
  f[k++] = (CliFlag){"state-out", FLAG_STRING, &op->state_out};
  f[k++] = (CliFlag){"backup", FLAG_STRING, &op->backup};
  f[k++] = (CliFlag){"lock", FLAG_BOOL, &op->lock};
  f[k++] = (CliFlag){"lock-timeout", FLAG_STRING, &op->lock_timeout};
  f[k++] = (CliFlag){"parallelism", FLAG_INT, &op->parallelism};
  f[k++] = (CliFlag){"refresh", FLAG_BOOL, &op->refresh};
  f[k++] = (CliFlag){"input", FLAG_BOOL, &op->input};
  f[k++] = (CliFlag){"json", FLAG_BOOL, &op->json};
  f[k++] = (CliFlag){"no-color", FLAG_BOOL, &op->no_color};
  f[k++] = (CliFlag){"compact-warnings", FLAG_BOOL, &op->compact_warnings};
  f[k++] = (CliFlag){"replace", FLAG_LIST, &op->replace};
  f[k++] = (CliFlag){"target", FLAG_LIST, &op->target};
  f[k++] = (CliFlag){"refresh-only", FLAG_BOOL, &op->refresh_only};
  f[k++] = (CliFlag){"config", FLAG_STRING, &op->config};
  if (kind == 'p') {
    f[k++] = (CliFlag){"out", FLAG_STRING, &op->out_path};
    f[k++] = (CliFlag){"detailed-exitcode", FLAG_BOOL, &op->detailed};
    f[k++] = (CliFlag){"destroy", FLAG_BOOL, &op->destroy};
  }
  if (kind == 'p' || kind == 'a')
    f[k++] = (CliFlag){"invoke", FLAG_LIST, &op->invoke};
  if (kind == 'a') {
    f[k++] = (CliFlag){"auto-approve", FLAG_BOOL, &op->auto_approve};
    f[k++] = (CliFlag){"destroy", FLAG_BOOL, &op->destroy};
  }
  *n = k;
  return f;
}

bool op_parse(Op *op, char kind, int argc, char **argv, int *rest)
{
  int nf;
  const CliFlag *f = op_flags(op, kind, &nf);
  if (!cli_parse_flags(op->cli, argc, argv, f, nf, rest, &op->d)) {
    cli_diags(op->cli, &op->d);
    return false;
  }
  op->nvargs = cli_var_args(op->a, &op->var_items, &op->vargs);
  if (op->no_color)
    op->cli->color = false;
  if (op->parallelism != -1 &&
      (op->parallelism < 1 || op->parallelism > POOL_MAX_THREADS)) {
    diag_error(&op->d, NULL, "Invalid parallelism",
               "The -parallelism value must be between 1 and %d.",
               POOL_MAX_THREADS);
    cli_diags(op->cli, &op->d);
    return false;
  }
  if (op->json) {
    buf_init(&op->uibuf, op->a);
    op->ui.out = &op->uibuf;
    jui_version(&op->ui);
    cli_out_buf(op->cli, &op->uibuf);
    buf_clear(&op->uibuf);
  }
  return true;
}

void op_flush_diags(Op *op)
{
  if (!op->d.head)
    return;
  if (op->json) {
    jui_diagnostics(&op->ui, &op->d, &op->cli->files);
    cli_out_buf(op->cli, &op->uibuf);
    buf_clear(&op->uibuf);
  } else if (op->compact_warnings) {
    cli_diags_compact(op->cli, &op->d);
  } else {
    cli_diags(op->cli, &op->d);
  }
  diag_init(&op->d, op->a);
}

static const char *read_line(Arena *a)
{
  Buf b;
  buf_init(&b, a);
  int c;
  bool any = false;
  while ((c = fgetc(stdin)) != EOF) {
    any = true;
    if (c == '\n')
      break;
    buf_putc(&b, (char)c);
  }
  if (!any)
    return NULL;
  if (b.len && b.p[b.len - 1] == '\r')
    b.p[--b.len] = 0;
  return buf_str(&b);
}

static const char *prompt_var(void *ctx, const CfgVariable *v)
{
  Op *op = ctx;
  cli_out(op->cli, "var.%s\n", v->name);
  if (v->description && v->description[0])
    cli_out(op->cli, "  %s\n", v->description);
  cli_out(op->cli, "\n  Enter a value: ");
  fflush(stdout);
  const char *s = read_line(op->a);
  cli_out(op->cli, "\n");
  return s;
}

/* Go duration subset: 0, 10s, 1m30s, 500ms. -1 on a malformed one. */
static long parse_duration_ms(const char *s)
{
  if (strcmp(s, "0") == 0)
    return 0;
  long total = 0;
  const char *p = s;
  if (!*p)
    return -1;
  while (*p) {
    char *end;
    errno = 0;
    double v = strtod(p, &end);
    if (end == p || errno)
      return -1;
    p = end;
    double mul;
    if (!strncmp(p, "ms", 2)) {
      mul = 1;
      p += 2;
    } else if (*p == 's') {
      mul = 1000;
      p++;
    } else if (*p == 'm') {
      mul = 60000;
      p++;
    } else if (*p == 'h') {
      mul = 3600000;
      p++;
    } else {
      return -1;
    }
    total += (long)(v * mul);
  }
  return total;
}

/* The canonical version constraints of every module of the configuration
** for the provider norm (net/provreg.h `constraints`): required_providers
** and the deprecated `version` of provider blocks, as cairn init reads
** them. */
static const char *tree_constraints(void *ctx, const char *norm)
{
  Op *op = ctx;
  const CfgModule **mods;
  uint32_t nm;
  if (!op->tree)
    return NULL;
  cfg_tree_modules(op->a, op->tree, &mods, &nm);
  const char **cons = ARENA_NEW(op->a, const char *, 1);
  uint32_t n = 0;
  for (uint32_t i = 0; i < nm; i++) {
    const CfgModule *m = mods[i];
    for (uint32_t k = 0; k < m->nrequired_providers + m->nproviders; k++) {
      const char *src, *ver;
      if (k < m->nrequired_providers) {
        src = m->required_providers[k].source;
        ver = m->required_providers[k].version;
      } else {
        const CfgProvider *pb = &m->providers[k - m->nrequired_providers];
        src = cfg_provider_source(m, pb->name);
        src = src ? src : pb->name;
        ver = pb->version;
      }
      const char *sn =
          ver ? prov_source_normalize(op->a, src, NULL, NULL) : NULL;
      if (!sn || strcmp(sn, norm) != 0)
        continue;
      const char **v = ARENA_NEW(op->a, const char *, n + 1);
      memcpy(v, cons, n * sizeof *v);
      v[n++] = ver;
      cons = v;
    }
  }
  const char *bad;
  return pver_canon(op->a, cons, n, &bad);
}

static void lock_notice(void *ctx)
{
  Op *op = ctx;
  if (!op->json) {
    cli_out(op->cli, "Acquiring state lock. This may take a few moments...\n");
    /* Now, not when the command ends: a log read meanwhile (CI, a
    ** colleague's terminal) shows why it waits. */
    fflush(stdout);
  }
}

bool op_load(Op *op, bool need_vars)
{
  Cli *cli = op->cli;
  op->tree = cfg_load_tree(op->a, ".", &cli->files, &op->d);
  op->m = op->tree->m;
  if (diag_has_errors(&op->d)) {
    op_flush_diags(op);
    return false;
  }
  const Backend *be = cmd_backend(cli, op->m, CMD_BACKEND_USE, &op->d);
  if (!be) {
    op_flush_diags(op);
    return false;
  }
  if (need_vars) {
    VarsInput in;
    memset(&in, 0, sizeof in);
    in.args = op->vargs;
    in.nargs = op->nvargs;
    in.dir = ".";
    in.environ = environ;
    in.input = op->input && isatty(0);
    in.prompt = prompt_var;
    in.prompt_ctx = op;
    if (!vars_collect(op->a, op->m, &in, &cli->files, &op->vars, &op->nvars,
                      &op->d)) {
      op_flush_diags(op);
      return false;
    }
  }
  if (!preg_init(&op->reg, op->a, op->config, &op->d)) {
    op_flush_diags(op);
    return false;
  }
  op->reg_ready = true;
  op->reg.constraints = tree_constraints;   /* mirror plugins vs lock */
  op->reg.constraints_ctx = op;
  if (op->parallelism == -1)
    op->parallelism = op->reg.cfg.parallelism > 0 ? op->reg.cfg.parallelism
                                                  : 10;
  if (op->reg.cfg.lock_timeout_ms >= 0 && strcmp(op->lock_timeout, "0s") == 0)
    op->lock_timeout_ms = op->reg.cfg.lock_timeout_ms;
  op->workspace = ws_current(op->a, ".", &op->d);
  if (be->remote && (op->state_path || op->state_out)) {
    /* The state lives in the backend: a local file named here would be
    ** written instead of it, silently. */
    diag_error(&op->d, NULL, "Invalid state file option",
               "-state and -state-out apply to the local backend only; this "
               "configuration keeps its state in the \"%s\" backend.",
               be->type);
    op_flush_diags(op);
    return false;
  }
  const char *path = op->state_path ? op->state_path
                                    : be_state_path(be, op->a, op->workspace);
  StMgrOpts so = {path, op->state_out, op->backup};
  stmgr_init(&op->mgr, op->a, &so);
  op->mgr_ready = true;
  long to = op->lock_timeout_ms > 0 ? op->lock_timeout_ms
                                    : parse_duration_ms(op->lock_timeout);
  if (to < 0) {
    diag_error(&op->d, NULL, "Invalid lock timeout",
               "The -lock-timeout value \"%s\" is not a duration like 10s "
               "or 1m.", op->lock_timeout);
    op_flush_diags(op);
    return false;
  }
  if (op->lock &&
      !stmgr_lock(&op->mgr, "OperationTypeApply", to, lock_notice, op,
                  &op->d)) {
    op_flush_diags(op);
    return false;
  }
  if (!stmgr_load(&op->mgr, &op->state, &op->d)) {
    op_flush_diags(op);
    return false;
  }
  uint32_t ndang;
  const StIntent *dang = stmgr_dangling(&op->mgr, &ndang);
  for (uint32_t i = 0; i < ndang; i++)
    diag_warning(&op->d, NULL, "Possibly created but unrecorded object",
                 "An earlier run started creating %s at %s and did not "
                 "record the result (idempotency key %s). The next apply "
                 "that creates it sends the same key, so a provider that "
                 "made the object answers with it. If the object exists and "
                 "the provider does not remember keys, import it with "
                 "\"cairn import\" before applying.",
                 dang[i].addr, dang[i].time, dang[i].id);
  sigint_install(op);
  return true;
}

/* ---- progress ------------------------------------------------------------ */

static void go_duration(Buf *b, double secs)
{
  long s = (long)(secs + 0.5);
  if (s >= 3600)
    buf_printf(b, "%ldh%ldm%lds", s / 3600, (s / 60) % 60, s % 60);
  else if (s >= 60)
    buf_printf(b, "%ldm%lds", s / 60, s % 60);
  else
    buf_printf(b, "%lds", s);
}

/* refresh_start / refresh_complete for the instance ev names (the event carries its address
** only: no planned change exists yet while refreshing). */
static void json_refresh(Op *op, const EngEvent *ev)
{
  Arena a;
  arena_init(&a, 4096);
  Diags d;
  diag_init(&d, &a);
  StAddr sa;
  if (st_parse_addr(&a, ev->addr, &sa, &d) && sa.kind != ST_ADDR_MODULE) {
    StResource r;
    memset(&r, 0, sizeof r);
    r.module = sa.module;
    r.mode = sa.mode;
    r.type = sa.type;
    r.name = sa.name;
    Buf ra;
    buf_init(&ra, &a);
    st_format_resource(&ra, sa.module, sa.mode, sa.type, sa.name);
    r.addr = buf_str(&ra);
    StKey key = sa.kind == ST_ADDR_INSTANCE ? sa.key : st_nokey();
    if (ev->kind == ENG_EV_REFRESH_DONE)
      jui_refresh_complete(&op->ui, &r, key, ev->id_key, ev->id_value);
    else
      jui_refresh_start(&op->ui, &r, key, ev->id_key, ev->id_value);
  }
  arena_release(&a);
}

/* The resource address of a provisioner event (the event carries no
** planned change). */
static bool prov_change(Arena *a, const char *addr, PlChange *c)
{
  Diags d;
  diag_init(&d, a);
  StAddr sa;
  if (!st_parse_addr(a, addr, &sa, &d) || sa.kind == ST_ADDR_MODULE)
    return false;
  memset(c, 0, sizeof *c);
  c->addr = addr;
  c->module = sa.module ? sa.module : "";
  c->mode = sa.mode;
  c->type = sa.type;
  c->name = sa.name;
  c->key = sa.kind == ST_ADDR_INSTANCE ? sa.key : st_nokey();
  return true;
}

/* The -json stream's provision_* hooks: provision_start, provision_progress
** for each output line that is not blank (trailing white space trimmed, as
** Terraform's jsonHook does), provision_complete / provision_errored. */
static void json_provision(Op *op, const EngEvent *ev)
{
  Arena a;
  arena_init(&a, 0);
  PlChange c;
  if (prov_change(&a, ev->addr, &c)) {
    switch (ev->kind) {
    case ENG_EV_PROVISION_START:
      jui_provision_start(&op->ui, &c, ev->prov);
      break;
    case ENG_EV_PROVISION_OUTPUT: {
      size_t n = ev->text ? strlen(ev->text) : 0;
      while (n && strchr(" \t\r\n\v\f", ev->text[n - 1]))
        n--;
      if (n)
        jui_provision_progress(&op->ui, &c, ev->prov,
                               arena_strndup(&a, ev->text, n));
      break;
    }
    case ENG_EV_PROVISION_DONE:
      jui_provision_complete(&op->ui, &c, ev->prov);
      break;
    default:
      jui_provision_errored(&op->ui, &c, ev->prov);
      break;
    }
  }
  arena_release(&a);
  cli_out_buf(op->cli, &op->uibuf);
  buf_clear(&op->uibuf);
}

/* Terraform's UiHook action lines and JSON action hooks
** (docs/actions.md). */
static void show_action(Op *op, const EngEvent *ev, Buf *b)
{
  if (ev->kind == ENG_EV_ACTION_DONE || ev->kind == ENG_EV_ACTION_ERRORED)
    op->invoked++;
  if (ev->kind == ENG_EV_ACTION_ERRORED)
    op->invoke_failed++;
  if (op->json) {
    static const char *const types[] = {"action_start", "action_progress",
                                        "action_complete", "action_errored"};
    jui_action(&op->ui, types[ev->kind - ENG_EV_ACTION_START], ev->invoke,
               ev->change, ev->text);
    cli_out_buf(op->cli, &op->uibuf);
    buf_clear(&op->uibuf);
    return;
  }
  if (ev->kind == ENG_EV_ACTION_ERRORED)
    return;   /* the error shows as a diagnostic at the end */
  bool c = op->cli->color;
  const char *by = ev->trigger ? ev->trigger : "CLI";
  if (ev->kind == ENG_EV_ACTION_START)
    buf_printf(b, "%sAction started: %s (triggered by %s)%s\n",
               c ? "\x1b[0m\x1b[1m" : "", ev->addr, by, c ? "\x1b[0m" : "");
  else if (ev->kind == ENG_EV_ACTION_PROGRESS)
    buf_printf(b, "%sAction %s (triggered by %s):%s %s%s\n",
               c ? "\x1b[0m\x1b[1m" : "", ev->addr, by, c ? "\x1b[0m" : "",
               ev->text ? ev->text : "", c ? "\x1b[0m" : "");
  else
    buf_printf(b, "%sAction complete: %s (triggered by %s)%s\n",
               c ? "\x1b[0m\x1b[1m\x1b[32m" : "", ev->addr, by,
               c ? "\x1b[0m" : "");
  cli_out_buf(op->cli, b);
}

static void show_event(Op *op, const EngEvent *ev, Arena *ta)
{
  Buf b;
  buf_init(&b, ta);
  if (ev->kind >= ENG_EV_ACTION_START) {
    show_action(op, ev, &b);
    return;
  }
  if (ev->kind == ENG_EV_APPLY_DONE) {
    if (ev->action == PL_CREATE)
      op->added++;
    else if (ev->action == PL_UPDATE)
      op->changed++;
    else if (ev->action == PL_DELETE)
      op->destroyed++;
  }
  if (ev->kind == ENG_EV_IMPORT_DONE) {
    op->imported++;
    if (op->json)
      return;
    const char *id = ev->change && ev->change->import_id
                         ? ev->change->import_id : "";
    buf_printf(&b, "%s: Importing... [id=%s]\n%s: Import complete [id=%s]\n",
               ev->addr, id, ev->addr, id);
    cli_out_buf(op->cli, &b);
    return;
  }
  if (ev->kind == ENG_EV_PROVISION_START ||
      ev->kind == ENG_EV_PROVISION_OUTPUT ||
      ev->kind == ENG_EV_PROVISION_DONE ||
      ev->kind == ENG_EV_PROVISION_ERRORED) {
    if (op->json) {
      json_provision(op, ev);
      return;
    }
    if (ev->kind == ENG_EV_PROVISION_DONE ||
        ev->kind == ENG_EV_PROVISION_ERRORED)
      return;   /* the human form shows no step ends */
    if (ev->kind == ENG_EV_PROVISION_START)
      buf_printf(&b, "%s: Provisioning with '%s'...\n", ev->addr, ev->text);
    else if (ev->text)
      buf_printf(&b, "%s (local-exec): %s\n", ev->addr, ev->text);
    else
      buf_putc(&b, '\n');
    if (op->cli->color && ev->kind == ENG_EV_PROVISION_START)
      cli_out(op->cli, "\x1b[0m\x1b[1m%s\x1b[0m", buf_str(&b));
    else
      cli_out_buf(op->cli, &b);
    return;
  }
  if (op->json) {
    if (ev->kind == ENG_EV_REFRESH_START || ev->kind == ENG_EV_REFRESH_DONE) {
      json_refresh(op, ev);
      cli_out_buf(op->cli, &op->uibuf);
      buf_clear(&op->uibuf);
      return;
    }
    if (ev->kind >= ENG_EV_EPHEMERAL_OPEN_START &&
        ev->kind <= ENG_EV_EPHEMERAL_CLOSE_DONE) {
      jui_ephemeral_op(&op->ui, ev->addr, ev->module, ev->type, ev->name,
                       ev->key, ev->kind >= ENG_EV_EPHEMERAL_CLOSE_START,
                       ev->kind == ENG_EV_EPHEMERAL_OPEN_DONE ||
                           ev->kind == ENG_EV_EPHEMERAL_CLOSE_DONE,
                       (int)(ev->elapsed + 0.5));
      cli_out_buf(op->cli, &op->uibuf);
      buf_clear(&op->uibuf);
      return;
    }
    if (!ev->change) {
      cli_out_buf(op->cli, &op->uibuf);
      buf_clear(&op->uibuf);
      return;
    }
    PlChange c = *ev->change;
    c.action = ev->action;
    c.deposed = ev->deposed;
    int el = (int)(ev->elapsed + 0.5);
    switch (ev->kind) {
    case ENG_EV_APPLY_START:
      jui_apply_start(&op->ui, &c, ev->id_key, ev->id_value);
      break;
    case ENG_EV_APPLY_DONE:
      jui_apply_complete(&op->ui, &c, ev->id_key, ev->id_value, el);
      break;
    case ENG_EV_APPLY_ERRORED:
      jui_apply_errored(&op->ui, &c, el);
      break;
    case ENG_EV_APPLY_PROGRESS:
      jui_apply_progress(&op->ui, &c, (int)ev->elapsed);
      break;
    default:
      break;
    }
    cli_out_buf(op->cli, &op->uibuf);
    buf_clear(&op->uibuf);
    return;
  }
  buf_puts(&b, ev->addr);
  if (ev->deposed)
    buf_printf(&b, " (deposed object %s)", ev->deposed);
  buf_puts(&b, ": ");
  const char *idk = ev->id_key, *idv = ev->id_value;
  switch (ev->kind) {
  case ENG_EV_REFRESH_START:
    buf_puts(&b, "Refreshing state...");
    break;
  case ENG_EV_READ_START:
    buf_puts(&b, "Reading...");
    idk = NULL;
    break;
  case ENG_EV_READ_DONE:
    buf_puts(&b, "Read complete after ");
    go_duration(&b, ev->elapsed);
    break;
  case ENG_EV_APPLY_START:
    buf_puts(&b, ev->action == PL_CREATE   ? "Creating..."
                 : ev->action == PL_DELETE ? "Destroying..."
                                           : "Modifying...");
    if (ev->action == PL_CREATE)
      idk = NULL;
    break;
  case ENG_EV_APPLY_DONE:
    buf_puts(&b, ev->action == PL_CREATE   ? "Creation complete after "
                 : ev->action == PL_DELETE ? "Destruction complete after "
                                           : "Modifications complete after ");
    go_duration(&b, ev->elapsed);
    if (ev->action == PL_DELETE)
      idk = NULL;
    break;
  case ENG_EV_APPLY_PROGRESS:
    buf_puts(&b, ev->action == PL_CREATE   ? "Still creating... ["
                 : ev->action == PL_DELETE ? "Still destroying... ["
                                           : "Still modifying... [");
    go_duration(&b, ev->elapsed);
    buf_puts(&b, " elapsed]");
    idk = NULL;
    break;
  case ENG_EV_EPHEMERAL_OPEN_START:
    buf_puts(&b, "Opening...");
    break;
  case ENG_EV_EPHEMERAL_CLOSE_START:
    buf_puts(&b, "Closing...");
    break;
  case ENG_EV_EPHEMERAL_OPEN_DONE:
  case ENG_EV_EPHEMERAL_CLOSE_DONE:
    buf_puts(&b, ev->kind == ENG_EV_EPHEMERAL_OPEN_DONE
                     ? "Opening complete after "
                     : "Closing complete after ");
    go_duration(&b, ev->elapsed);
    break;
  case ENG_EV_APPLY_ERRORED:
  case ENG_EV_REFRESH_DONE:
  case ENG_EV_IMPORT_DONE:
  case ENG_EV_PROVISION_START:
  case ENG_EV_PROVISION_OUTPUT:
  case ENG_EV_PROVISION_DONE:
  case ENG_EV_PROVISION_ERRORED:
  case ENG_EV_ACTION_START:
  case ENG_EV_ACTION_PROGRESS:
  case ENG_EV_ACTION_DONE:
  case ENG_EV_ACTION_ERRORED:
    return;   /* errors show as diagnostics at the end */
  }
  if (idk && idv) {   /* " [%s=%s]", without printf: one per instance */
    buf_puts(&b, " [");
    buf_puts(&b, idk);
    buf_putc(&b, '=');
    buf_puts(&b, idv);
    buf_putc(&b, ']');
  }
  buf_putc(&b, '\n');
  if (op->cli->color)
    cli_out(op->cli, "\x1b[0m\x1b[1m%s\x1b[0m", buf_str(&b));
  else
    cli_out_buf(op->cli, &b);
}

/* Each event's line is built in scratch: built in the command's arena,
** every line of the run stayed to its end (about 230 bytes an instance
** for a plan's "Refreshing state..." alone, docs/performance.md change
** 13).  The chunk comes from the thread's cache (core/base/arena.c). */
static void on_event(void *ctx, const EngEvent *ev)
{
  Arena ta;
  arena_init(&ta, 0);
  show_event(ctx, ev, &ta);
  arena_release(&ta);
}

static Prov *open_provider(void *ctx, const char *fqn, Diags *d)
{
  Op *op = ctx;
  return preg_open(&op->reg, fqn, d);
}

bool op_engine(Op *op, PlMode mode)
{
  EngOpts eo;
  memset(&eo, 0, sizeof eo);
  eo.parallelism = op->parallelism;
  eo.refresh = op->refresh;
  eo.mode = mode;
  eo.vars = op->vars;
  eo.nvars = op->nvars;
  eo.workspace = op->workspace;
  eo.replace = op->replace.items;
  eo.nreplace = (uint32_t)op->replace.n;
  eo.targets = op->target.items;
  eo.ntargets = (uint32_t)op->target.n;
  eo.invoke = op->invoke.items;
  eo.ninvoke = (uint32_t)op->invoke.n;
  if (op->invoke.n && (mode != PL_MODE_NORMAL || op->target.n ||
                       op->replace.n)) {
    /* an -invoke plan changes no resource: nothing to select or replace */
    diag_error(&op->d, NULL, "Invalid combination of options",
               "The -invoke option cannot be used with -destroy, "
               "-refresh-only, -target or -replace.");
    op_flush_diags(op);
    return false;
  }
  eo.open_provider = open_provider;
  eo.open_ctx = op;
  eo.event = on_event;
  eo.event_ctx = op;
  eo.stop = &op_interrupted;
  eo.root_dir = ".";
  op->e = eng_new(op->a, op->tree, &op->cli->files, op->state, &eo, &op->d);
  if (!op->e) {
    op_flush_diags(op);
    return false;
  }
  return true;
}

bool op_approve(Op *op, const char *question, const char *detail)
{
  cli_out(op->cli, "\n%s%s%s\n%s\n  Only 'yes' will be accepted to %s.\n\n"
          "  Enter a value: ", op->cli->color ? "\x1b[1m" : "", question,
          op->cli->color ? "\x1b[0m" : "", detail,
          strstr(question, "destroy") ? "confirm" : "approve");
  fflush(stdout);
  const char *s = read_line(op->a);
  cli_out(op->cli, "\n");
  return s && strcmp(s, "yes") == 0;
}

int op_finish(Op *op, int status)
{
  op_flush_diags(op);
  if (op->e)
    eng_close(op->e);
  op->e = NULL;
  if (op->mgr_ready) {
    Diags d;
    diag_init(&d, op->a);
    stmgr_unlock(&op->mgr, &d);
    stmgr_close(&op->mgr);
    op->mgr_ready = false;
    if (d.head) {
      cli_diags(op->cli, &d);
      if (diag_has_errors(&d) && status == 0)
        status = 1;
    }
  }
  if (op->reg_ready)
    preg_close(&op->reg);
  op->reg_ready = false;
  sigint_remove();
  return status;
}

void op_print_outputs(Op *op, const State *s)
{
  if (op->json) {
    jui_outputs_state(&op->ui, s);
    cli_out_buf(op->cli, &op->uibuf);
    buf_clear(&op->uibuf);
    return;
  }
  if (!s->noutputs)
    return;
  Buf b;
  buf_init(&b, op->a);
  buf_printf(&b, "\n%sOutputs:%s\n\n", op->cli->color ? "\x1b[0m\x1b[1m\x1b[32m" : "",
             op->cli->color ? "\x1b[0m" : "");
  for (uint32_t i = 0; i < s->noutputs; i++) {
    const StOutput *o = &s->outputs[i];
    buf_printf(&b, "%s = ", o->name);
    if (o->sensitive) {
      buf_puts(&b, "<sensitive>\n");
      continue;
    }
    Value v;
    Diags d;
    diag_init(&d, op->a);
    if (json_value_typed(op->a, o->value, o->type, &v, &d, NULL))
      eval_format_value(&b, v, 0);
    else
      buf_puts(&b, "(unreadable)");
    buf_putc(&b, '\n');
  }
  cli_out_buf(op->cli, &b);
}
