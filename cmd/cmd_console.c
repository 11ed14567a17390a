/*
** cmd_console.c: `cairn console [options]`, Terraform's expression console.
**
** Expressions are read from stdin one line at a time and evaluated against
** the root module: var.* (collected by vars_collect; unset required
** variables are unknown, as Terraform's console allows), local.* (each
** evaluated on first use and cached; cycles are reported), path.*,
** terraform.workspace, every function (console mode, so type() works), and
** resources from the current workspace's state file (instance "attributes"
** as generic JSON objects; count resources are tuples, for_each resources
** objects keyed like Terraform).  Child module outputs are not in the
** state: they are unknown.
**
** As in Terraform: on a terminal each result is printed after its line and
** errors do not end the session; when stdin is not a terminal ("piped
** mode") only the last result is printed, at end of input, and the first
** error ends the command with status 1.  `exit` ends either mode, `help`
** prints the console's help.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_backend.h"
#include "config/config.h"
#include "engine/vars.h"
#include "lang/eval.h"
#include "lang/hcl.h"
#include "state/state.h"
#include "state/stmgr.h"
#include "state/workspace.h"

/* Deepest chain of locals referring to locals evaluated on demand: keeps
** the C stack bounded whatever the configuration. */
#define MAX_LOCAL_DEPTH 200

enum { LS_NONE = 0, LS_BUSY, LS_DONE };

typedef struct Console {
  Cli *cli;
  Arena *a;                  /* lives for the whole session */
  CfgModule *m;
  State *st;                 /* NULL: no state */
  Value vars;                /* object: var.* (sensitive ones marked) */
  const PlVariable *pv;
  uint32_t npv;
  uint8_t *local_state;      /* LS_* per m->locals entry */
  Value *local_val;
  uint32_t local_depth;
  const char *cwd;
  const char *workspace;
  const char **res_key;      /* cached resource values by address */
  Value *res_val;
  uint32_t nres, cap_res;
} Console;

static EvalResolveResult resolve(EvalCtx *ctx, const HclTraversal *t,
                                 uint32_t *consumed, Value *out);

static void ctx_setup(Console *c, EvalCtx *ctx, Arena *a, Diags *d)
{
  eval_ctx_init(ctx, a, d);
  ctx->resolve = resolve;
  ctx->resolve_data = c;
  ctx->fn.console = true;
  ctx->fn.base_dir = ".";
}

/* ---- References --------------------------------------------------------- */

static EvalResolveResult ref_error(EvalCtx *ctx, const SrcRange *r,
                                   const char *summary, const char *detail)
{
  diag_error(ctx->diags, r, summary, "%s", detail);
  return EVAL_RES_ERROR;
}

static EvalResolveResult local_value(Console *c, EvalCtx *ctx,
                                     const EvalRef *ref, Value *out)
{
  const CfgModule *m = c->m;
  uint32_t i = 0;
  while (i < m->nlocals && strcmp(m->locals[i].name, ref->name) != 0)
    i++;
  if (i == m->nlocals) {
    const char **names = ARENA_NEW(ctx->arena, const char *,
                                   m->nlocals ? m->nlocals : 1);
    for (uint32_t k = 0; k < m->nlocals; k++)
      names[k] = m->locals[k].name;
    const char *sug = hcl_name_suggestion(ref->name, names, m->nlocals);
    const char *detail = sug ?
        arena_printf(ctx->arena, "A local value with the name \"%s\" has "
                     "not been declared. Did you mean \"%s\"?", ref->name,
                     sug) :
        arena_printf(ctx->arena, "A local value with the name \"%s\" has "
                     "not been declared.", ref->name);
    return ref_error(ctx, &ref->range, "Reference to undeclared local value",
                     detail);
  }
  if (c->local_state[i] == LS_DONE) {
    *out = c->local_val[i];
    return EVAL_RES_OK;
  }
  if (c->local_state[i] == LS_BUSY)
    return ref_error(ctx, &ref->range, "Cycle in local values",
                     arena_printf(ctx->arena, "The value of local.%s "
                                  "depends on itself through the local "
                                  "values it refers to.", ref->name));
  if (c->local_depth >= MAX_LOCAL_DEPTH)
    return ref_error(ctx, &ref->range, "Local values nested too deeply",
                     arena_printf(ctx->arena, "Evaluating local.%s needs "
                                  "a chain of more than %d local values.",
                                  ref->name, MAX_LOCAL_DEPTH));
  c->local_state[i] = LS_BUSY;
  c->local_depth++;
  EvalCtx lc;
  ctx_setup(c, &lc, c->a, ctx->diags);
  int before = ctx->diags->errors;
  Value v = val_dynamic_unknown;
  eval_expr(&lc, m->locals[i].expr, &v);
  c->local_depth--;
  if (ctx->diags->errors > before) {
    c->local_state[i] = LS_NONE;   /* report again when used again */
    return EVAL_RES_ERROR;
  }
  c->local_state[i] = LS_DONE;
  c->local_val[i] = v;
  *out = v;
  return EVAL_RES_OK;
}

/* v with the value at steps[0..n) marked sensitive (objects and tuples, as
** generic JSON gives them). */
static Value mark_path(Arena *a, Value v, const PathStep *s, uint32_t n)
{
  if (n == 0)
    return val_sensitive(v);
  if (val_is_null(v) || !val_is_known(v))
    return v;
  if (v.type->kind == TY_OBJECT && s->kind == PS_ATTR) {
    int k = ty_attr_index(v.type, s->name);
    if (k < 0)
      return v;
    Value *el = ARENA_NEW(a, Value, v.type->n ? v.type->n : 1);
    memcpy(el, v.u.elems, sizeof(Value) * v.type->n);
    el[k] = mark_path(a, el[k], s + 1, n - 1);
    Value r = val_object_typed(v.type, el);
    r.flags = v.flags;
    return r;
  }
  if ((v.type->kind == TY_TUPLE || v.type->kind == TY_LIST) &&
      s->kind == PS_INDEX && s->index >= 0 && s->index < (int64_t)v.len) {
    Value *el = ARENA_NEW(a, Value, v.len ? v.len : 1);
    memcpy(el, v.u.elems, sizeof(Value) * v.len);
    el[s->index] = mark_path(a, el[s->index], s + 1, n - 1);
    Value r = v.type->kind == TY_TUPLE ? val_tuple(a, el, v.len)
                                       : val_list(a, v.type->elem, el, v.len);
    r.flags = v.flags;
    return r;
  }
  return v;
}

static Value instance_value(Console *c, const StInstance *in)
{
  if (!in || !in->current)
    return val_dynamic_unknown;
  const StObject *o = in->current;
  Value v = o->attrs;
  if (val_is_null(v))
    return val_dynamic_unknown;
  for (uint32_t i = 0; i < o->nsensitive; i++)
    v = mark_path(c->a, v, o->sensitive[i].steps, o->sensitive[i].n);
  return v;
}

/* The whole resource as an expression sees it (no key applied). */
static Value resource_value(Console *c, const CfgResource *cr,
                            const char *addr)
{
  for (uint32_t i = 0; i < c->nres; i++)
    if (strcmp(c->res_key[i], addr) == 0)
      return c->res_val[i];
  Value v = val_dynamic_unknown;
  StResource *r = c->st ? st_find_resource_addr(c->st, addr) : NULL;
  if (r) {
    st_sort(c->st);
    if (cr->count) {
      Value *el = ARENA_NEW(c->a, Value, r->ninst ? r->ninst : 1);
      uint32_t n = 0;
      for (uint32_t i = 0; i < r->ninst; i++)
        if (r->inst[i]->key.kind == ST_INTKEY &&
            r->inst[i]->key.i == (int64_t)n)
          el[n++] = instance_value(c, r->inst[i]);
      v = val_tuple(c->a, el, n);
    } else if (cr->for_each) {
      const char **names = ARENA_NEW(c->a, const char *,
                                     r->ninst ? r->ninst : 1);
      Value *vals = ARENA_NEW(c->a, Value, r->ninst ? r->ninst : 1);
      uint32_t n = 0;
      for (uint32_t i = 0; i < r->ninst; i++) {
        if (r->inst[i]->key.kind != ST_STRKEY)
          continue;
        names[n] = r->inst[i]->key.s;
        vals[n++] = instance_value(c, r->inst[i]);
      }
      v = val_object(c->a, n, names, vals);
    } else {
      v = instance_value(c, st_find_instance(c->st, r, st_nokey()));
    }
  }
  if (c->nres == c->cap_res) {
    uint32_t nc = c->cap_res ? c->cap_res * 2 : 8;
    c->res_key = arena_grow(c->a, (void *)c->res_key, sizeof(char *),
                            _Alignof(char *), c->cap_res, nc);
    c->res_val = arena_grow(c->a, c->res_val, sizeof(Value), _Alignof(Value),
                            c->cap_res, nc);
    c->cap_res = nc;
  }
  c->res_key[c->nres] = arena_strdup(c->a, addr);
  c->res_val[c->nres++] = v;
  return v;
}

static EvalResolveResult resolve(EvalCtx *ctx, const HclTraversal *t,
                                 uint32_t *consumed, Value *out)
{
  Console *c = ctx->resolve_data;
  EvalRef ref;
  if (!eval_parse_ref(t, &ref, ctx->diags))
    return EVAL_RES_ERROR;
  *consumed = ref.consumed;
  Arena *a = ctx->arena;
  switch (ref.kind) {
  case EVAL_REF_VAR: {
    bool found = false;
    Value v = val_attr(c->vars, ref.name, &found);
    if (!found)
      return ref_error(ctx, &ref.range,
                       "Reference to undeclared input variable",
                       arena_printf(a, "An input variable with the name "
                                    "\"%s\" has not been declared. This "
                                    "variable can be declared with a "
                                    "variable \"%s\" {} block.", ref.name,
                                    ref.name));
    *out = v;
    return EVAL_RES_OK;
  }
  case EVAL_REF_LOCAL:
    return local_value(c, ctx, &ref, out);
  case EVAL_REF_PATH:
    if (!strcmp(ref.name, "module") || !strcmp(ref.name, "root")) {
      *out = val_cstr(a, ".");
      return EVAL_RES_OK;
    }
    if (!strcmp(ref.name, "cwd")) {
      *out = val_cstr(a, c->cwd);
      return EVAL_RES_OK;
    }
    return ref_error(ctx, &ref.range, "Invalid \"path\" attribute",
                     arena_printf(a, "The \"path\" object does not have an "
                                  "attribute named \"%s\". The supported "
                                  "attributes are path.cwd, path.module, "
                                  "and path.root.", ref.name));
  case EVAL_REF_TERRAFORM:
    if (!strcmp(ref.name, "workspace")) {
      *out = val_cstr(a, c->workspace);
      return EVAL_RES_OK;
    }
    return ref_error(ctx, &ref.range, "Invalid \"terraform\" attribute",
                     arena_printf(a, "The \"terraform\" object does not "
                                  "have an attribute named \"%s\". The only "
                                  "supported attribute is "
                                  "terraform.workspace, the name of the "
                                  "currently-selected workspace.",
                                  ref.name));
  case EVAL_REF_RESOURCE:
  case EVAL_REF_DATA: {
    CfgMode mode = ref.kind == EVAL_REF_DATA ? CFG_DATA : CFG_MANAGED;
    const CfgResource *cr = cfg_resource(c->m, mode, ref.type, ref.name);
    if (!cr)
      return ref_error(ctx, &ref.range, "Reference to undeclared resource",
                       arena_printf(a, "A %s resource \"%s\" \"%s\" has not "
                                    "been declared in the root module.",
                                    mode == CFG_DATA ? "data" : "managed",
                                    ref.type, ref.name));
    Buf b;
    buf_init(&b, a);
    st_format_resource(&b, "", mode == CFG_DATA ? ST_DATA : ST_MANAGED,
                       ref.type, ref.name);
    *out = resource_value(c, cr, buf_str(&b));
    if (ref.has_key)
      (*consumed)--;      /* the evaluator applies the key */
    return EVAL_RES_OK;
  }
  case EVAL_REF_MODULE:
  case EVAL_REF_MODULE_OUT:
    if (!cfg_call(c->m, ref.name))
      return ref_error(ctx, &ref.range, "Reference to undeclared module",
                       arena_printf(a, "No module call named \"%s\" is "
                                    "declared in the root module.",
                                    ref.name));
    *out = val_dynamic_unknown;   /* child outputs are not in the state */
    return EVAL_RES_OK;
  case EVAL_REF_EPHEMERAL:
    *out = val_dynamic_unknown;
    return EVAL_RES_OK;
  case EVAL_REF_COUNT:
    return ref_error(ctx, &ref.range,
                     "Reference to \"count\" in non-counted context",
                     "The \"count\" object can only be used in \"module\", "
                     "\"resource\", and \"data\" blocks, and only when the "
                     "\"count\" argument is set.");
  case EVAL_REF_EACH:
    return ref_error(ctx, &ref.range,
                     "Reference to \"each\" in context without for_each",
                     "The \"each\" object can be used only in \"module\" or "
                     "\"resource\" blocks, and only when the \"for_each\" "
                     "argument is set.");
  case EVAL_REF_SELF:
    return ref_error(ctx, &ref.range, "Invalid \"self\" reference",
                     "The \"self\" object is not available in this "
                     "context.");
  }
  return EVAL_RES_UNKNOWN;
}

/* ---- type() ------------------------------------------------------------- */

static void indent(Buf *b, int n)
{
  for (int i = 0; i < n; i++)
    buf_puts(b, "    ");
}

/* Terraform's repl typeString: structural types over several lines. */
static void type_string(Buf *b, const Type *t, int ind)
{
  switch (t->kind) {
  case TY_OBJECT:
    if (t->n == 0) {
      buf_puts(b, "object({})");
      return;
    }
    buf_puts(b, "object({\n");
    for (uint32_t i = 0; i < t->n; i++) {
      indent(b, ind + 1);
      buf_printf(b, "%s: ", t->names[i]);
      type_string(b, t->types[i], ind + 1);
      buf_puts(b, ",\n");
    }
    indent(b, ind);
    buf_puts(b, "})");
    return;
  case TY_TUPLE:
    if (t->n == 0) {
      buf_puts(b, "tuple([])");
      return;
    }
    buf_puts(b, "tuple([\n");
    for (uint32_t i = 0; i < t->n; i++) {
      indent(b, ind + 1);
      type_string(b, t->types[i], ind + 1);
      buf_puts(b, ",\n");
    }
    indent(b, ind);
    buf_puts(b, "])");
    return;
  case TY_LIST:
  case TY_SET:
  case TY_MAP: {
    buf_puts(b, t->kind == TY_LIST ? "list(" :
                t->kind == TY_SET ? "set(" : "map(");
    bool cplx = t->elem->kind == TY_OBJECT || t->elem->kind == TY_TUPLE;
    if (cplx) {
      buf_putc(b, '\n');
      indent(b, ind + 1);
    }
    type_string(b, t->elem, cplx ? ind + 1 : ind);
    if (cplx) {
      buf_puts(b, ",\n");
      indent(b, ind);
    }
    buf_putc(b, ')');
    return;
  }
  default:
    ty_friendly(b, t);
    return;
  }
}

/* ---- The session ------------------------------------------------------- */

static const char help_text[] =
    "The Terraform console allows you to experiment with Terraform "
    "interpolations.\n"
    "You may access resources in the state (if you have one) just as you "
    "would\n"
    "from a configuration. For example: \"aws_instance.foo.id\" would "
    "evaluate\n"
    "to the ID of \"aws_instance.foo\" if it exists in your state.\n"
    "\n"
    "Type in the interpolation to test and hit <enter> to see the result.\n"
    "\n"
    "To exit the console, type \"exit\" and hit <enter>, or use Control-C "
    "or\n"
    "Control-D.";

typedef enum LineResult { LR_VALUE, LR_EXIT, LR_ERROR } LineResult;

/* repl.Session.Handle: the result text goes to out (no newline). */
static LineResult handle(Console *c, Arena *a, const char *line, Buf *out,
                         Diags *d)
{
  size_t n = strlen(line);
  while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' ||
               line[n - 1] == '\r' || line[n - 1] == '\n'))
    n--;
  while (n && (*line == ' ' || *line == '\t')) {
    line++;
    n--;
  }
  if (n == 0)
    return LR_VALUE;
  if (n == 4 && memcmp(line, "exit", 4) == 0)
    return LR_EXIT;
  if (n == 4 && memcmp(line, "help", 4) == 0) {
    buf_puts(out, help_text);
    return LR_VALUE;
  }
  HclExpr *e = hcl_parse_expr(a, "<console-input>", line, n, d);
  if (diag_has_errors(d) || !e)
    return LR_ERROR;
  EvalCtx ctx;
  ctx_setup(c, &ctx, a, d);
  const HclExpr *u = hcl_expr_unwrap(e);
  Value v;
  if (u->kind == HCL_E_CALL && u->u.call.nargs == 1 &&
      !u->u.call.expand_final &&
      (!strcmp(u->u.call.name, "type") ||
       !strcmp(u->u.call.name, "core::type"))) {
    /* The console-only type() shows the type itself, unquoted. */
    if (!eval_expr(&ctx, u->u.call.args[0], &v) || diag_has_errors(d))
      return LR_ERROR;
    type_string(out, v.type, 0);
    return LR_VALUE;
  }
  if (!eval_expr(&ctx, e, &v) || diag_has_errors(d))
    return LR_ERROR;
  eval_format_value(out, v, 0);
  return LR_VALUE;
}

/* One line of stdin without its newline; false at end of input. */
static bool read_line(FILE *f, Buf *b)
{
  buf_clear(b);
  int ch;
  bool any = false;
  while ((ch = fgetc(f)) != EOF) {
    any = true;
    if (ch == '\n')
      return true;
    buf_putc(b, (char)ch);
  }
  return any;
}

static int mode_piped(Console *c)
{
  Arena la;
  arena_init(&la, 0);
  Buf line, last;
  buf_init(&line, c->a);
  buf_init(&last, c->a);
  int rc = 0;
  while (read_line(stdin, &line)) {
    ArenaMark mk = arena_mark(&la);
    Diags d;
    diag_init(&d, &la);
    Buf res;
    buf_init(&res, &la);
    LineResult r = handle(c, &la, buf_str(&line), &res, &d);
    if (r == LR_ERROR) {
      cli_diags(c->cli, &d);
      arena_release(&la);
      return 1;
    }
    if (r == LR_EXIT) {
      arena_release(&la);
      return 0;
    }
    cli_diags(c->cli, &d);     /* warnings */
    buf_clear(&last);
    buf_puts(&last, buf_str(&res));
    arena_rewind(&la, mk);
  }
  cli_out(c->cli, "%s\n", buf_str(&last));
  arena_release(&la);
  return rc;
}

static int mode_interactive(Console *c)
{
  Arena la;
  arena_init(&la, 0);
  Buf line;
  buf_init(&line, c->a);
  for (;;) {
    cli_out(c->cli, "> ");
    fflush(stdout);
    if (!read_line(stdin, &line)) {
      cli_out(c->cli, "\n");
      break;
    }
    ArenaMark mk = arena_mark(&la);
    Diags d;
    diag_init(&d, &la);
    Buf res;
    buf_init(&res, &la);
    LineResult r = handle(c, &la, buf_str(&line), &res, &d);
    cli_diags(c->cli, &d);
    if (r == LR_EXIT)
      break;
    if (r == LR_VALUE && res.len)
      cli_out(c->cli, "%s\n", buf_str(&res));
    arena_rewind(&la, mk);
  }
  arena_release(&la);
  return 0;
}

static bool read_state(Console *c, const char *path, Diags *d)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return true;     /* no state yet: resources are unknown */
    diag_error(d, NULL, "Failed to load state",
               "Error reading %s: %s.", path, strerror(errno));
    return false;
  }
  Buf b;
  buf_init(&b, c->a);
  char tmp[65536];
  for (;;) {
    ssize_t k = read(fd, tmp, sizeof tmp);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0) {
      diag_error(d, NULL, "Failed to load state", "Error reading %s: %s.",
                 path, strerror(errno));
      close(fd);
      return false;
    }
    if (k == 0)
      break;
    if (b.len + (size_t)k > ST_MAX_FILE_BYTES) {
      diag_error(d, NULL, "Failed to load state",
                 "The state file %s is larger than cairn reads (%zu bytes).",
                 path, ST_MAX_FILE_BYTES);
      close(fd);
      return false;
    }
    buf_put(&b, tmp, (size_t)k);
  }
  close(fd);
  if (b.len == 0)
    return true;
  return st_read(c->a, path, b.p, b.len, &c->st, d);
}

/* A remote backend's state: through stmgr, which pulls it into the
** working copy (docs/backends.md); no lock, as the file read above. */
static bool read_remote_state(Console *c, const char *path, Diags *d)
{
  StMgr m;
  StMgrOpts so = {path, NULL, "-"};
  stmgr_init(&m, c->a, &so);
  State *s = NULL;
  bool ok = stmgr_load(&m, &s, d);
  if (ok && m.had_file)
    c->st = s;
  stmgr_close(&m);
  return ok;
}

static int run(Cli *cli, int argc, char **argv)
{
  Diags d;
  diag_init(&d, cli->arena);
  const char *state_path = NULL, *lock_timeout = NULL;
  bool plan = false, input = true, compact = false, no_color = false;
  bool lock = true;
  CliList vars = {0};   /* -var and -var-file together */
  CliFlag flags[] = {{"state", FLAG_STRING, &state_path},
                     {"plan", FLAG_BOOL, &plan},
                     {"var", FLAG_LIST, &vars},
                     {"var-file", FLAG_LIST, &vars},
                     {"input", FLAG_BOOL, &input},
                     {"compact-warnings", FLAG_BOOL, &compact},
                     {"no-color", FLAG_BOOL, &no_color},
                     {"lock", FLAG_BOOL, &lock},
                     {"lock-timeout", FLAG_STRING, &lock_timeout}};
  int rest;
  if (!cli_parse_flags(cli, argc, argv, flags,
                       (int)(sizeof flags / sizeof flags[0]), &rest, &d)) {
    cli_diags(cli, &d);
    return 1;
  }
  if (no_color)
    cli->color = false;
  if (rest < argc) {
    diag_error(&d, NULL, "Too many command line arguments",
               "To specify a working directory for the console, use the "
               "global -chdir flag.");
    cli_diags(cli, &d);
    return 1;
  }
  if (plan) {
    diag_error(&d, NULL, "Unsupported option",
               "cairn console does not support -plan yet: it evaluates "
               "expressions against the current state only.");
    cli_diags(cli, &d);
    return 1;
  }

  Console c;
  memset(&c, 0, sizeof c);
  c.cli = cli;
  c.a = cli->arena;
  char cwd[4096];
  c.cwd = arena_strdup(c.a, getcwd(cwd, sizeof cwd) ? cwd : ".");
  c.m = cfg_load_dir(c.a, ".", &cli->files, &d);
  if (diag_has_errors(&d)) {
    cli_diags(cli, &d);
    return 1;
  }
  const Backend *be = cmd_backend(cli, c.m, CMD_BACKEND_USE, &d);
  if (!be) {
    cli_diags(cli, &d);
    return 1;
  }
  c.workspace = ws_current(c.a, NULL, &d);
  if (!c.workspace) {
    cli_diags(cli, &d);
    return 1;
  }
  if (!(be->remote && !state_path
            ? read_remote_state(&c, be_state_path(be, c.a, c.workspace), &d)
            : read_state(&c, state_path ? state_path
                                        : be_state_path(be, c.a,
                                                        c.workspace),
                         &d))) {
    cli_diags(cli, &d);
    return 1;
  }

  VarsArg *args = NULL;
  uint32_t nargs = cli_var_args(c.a, &vars, &args);
  bool late = false;
  VarsInput in;
  memset(&in, 0, sizeof in);
  in.args = args;
  in.nargs = nargs;
  in.dir = ".";
  in.environ = environ;
  in.allow_unset = true;
  in.late_errors = &late;
  PlVariable *pv = NULL;
  uint32_t npv = 0;
  if (!vars_collect(c.a, c.m, &in, &cli->files, &pv, &npv, &d) && !late) {
    cli_diags(cli, &d);
    return 1;
  }
  const char **names = ARENA_NEW(c.a, const char *, npv ? npv : 1);
  Value *vals = ARENA_NEW(c.a, Value, npv ? npv : 1);
  for (uint32_t i = 0; i < npv; i++) {
    names[i] = pv[i].name;
    vals[i] = pv[i].sensitive ? val_sensitive(pv[i].value) : pv[i].value;
  }
  c.vars = val_object(c.a, npv, names, vals);
  c.pv = pv;
  c.npv = npv;
  c.local_state = ARENA_NEW(c.a, uint8_t, c.m->nlocals ? c.m->nlocals : 1);
  c.local_val = ARENA_NEW(c.a, Value, c.m->nlocals ? c.m->nlocals : 1);

  if (diag_has_errors(&d)) {
    /* Shown first, then the one warning that must come last. */
    cli_diags(cli, &d);
    diag_init(&d, cli->arena);
    diag_warning(&d, NULL, "Due to the problems above, some expressions may "
                 "produce unexpected results.", NULL);
  }
  cli_diags(cli, &d);

  if (!isatty(STDIN_FILENO))
    return mode_piped(&c);
  return mode_interactive(&c);
}

const CmdEntry cmd_console = {
    "console",
    "Try Terraform expressions at an interactive command prompt",
    "Usage: cairn [global options] console [options]\n"
    "\n"
    "  Starts an interactive console for experimenting with Terraform\n"
    "  interpolations.\n"
    "\n"
    "  This will open an interactive console that you can use to type\n"
    "  interpolations into and inspect their values. This command loads the\n"
    "  current state. This lets you explore and test interpolations before\n"
    "  using them in future configurations.\n"
    "\n"
    "  This command will never modify your state.\n"
    "\n"
    "Options:\n"
    "\n"
    "  -state=path       Legacy option for the local backend only. See the "
    "local\n"
    "                    backend's documentation for more information.\n"
    "\n"
    "  -var 'foo=bar'    Set a variable in the Terraform configuration. "
    "This\n"
    "                    flag can be set multiple times.\n"
    "\n"
    "  -var-file=foo     Set variables in the Terraform configuration from\n"
    "                    a file. If \"terraform.tfvars\" or any "
    "\".auto.tfvars\"\n"
    "                    files are present, they will be automatically "
    "loaded.\n",
    run,
    false,
};
