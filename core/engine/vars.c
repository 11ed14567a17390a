/*
** vars: root module input variable values (see vars.h for the contract).
**
** The work is staged like Terraform's: collect unparsed values (text or
** expression, with where they came from) into one list in precedence
** order; keep the last value per name; prompt for what is missing; parse;
** convert; validate.  Names are handled in sorted order everywhere, so
** diagnostics come out deterministically (Terraform walks Go maps).
*/
#include "vars.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/convert.h"
#include "lang/eval.h"
#include "lang/hcl.h"

/* A variables file larger than this is refused rather than read. */
#define MAX_VARS_FILE (64u << 20)

typedef enum RawSrc {
  RS_ENV,       /* TF_VAR_name */
  RS_AUTO,      /* terraform.tfvars[.json], *.auto.tfvars[.json] */
  RS_NAMED,     /* -var-file */
  RS_CLI,       /* -var */
  RS_INPUT      /* interactive prompt */
} RawSrc;

/* One unparsed value: text (env, -var, prompt) or a file expression. */
typedef struct Raw {
  const char *name;
  RawSrc src;
  const char *str;
  size_t len;
  const HclExpr *expr;
  const char *file;         /* files: the name shown in messages */
  uint32_t seq;             /* position in precedence order */
} Raw;

typedef struct Coll {
  Arena *a;
  Diags *d;
  SrcFiles *files;
  Raw *raws;
  uint32_t n, cap;
} Coll;

/* A declared variable and what became of it. */
typedef struct Slot {
  const CfgVariable *cfg;
  const Raw *raw;           /* NULL: not set anywhere */
  Value given;              /* parsed value */
  bool given_ok;
  Value val;                /* final value */
  bool ok;                  /* val is valid (converted, checked) */
} Slot;

static bool has_suffix(const char *s, const char *suf)
{
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && memcmp(s + n - m, suf, m) == 0;
}

static const char *quoted(Arena *a, const char *s)
{
  Buf b;
  buf_init(&b, a);
  buf_go_quote(&b, s);
  return buf_str(&b);
}

/* hcl.Range.String(). */
static const char *range_str(Arena *a, const SrcRange *r)
{
  const char *f = r->file ? r->file : "";
  if (r->start.line == r->end.line)
    return arena_printf(a, "%s:%u,%u-%u", f, r->start.line, r->start.col,
                        r->end.col);
  return arena_printf(a, "%s:%u,%u-%u,%u", f, r->start.line, r->start.col,
                      r->end.line, r->end.col);
}

static Raw *push_raw(Coll *c, const char *name, RawSrc src)
{
  if (c->n == c->cap) {
    uint32_t nc = c->cap ? c->cap * 2 : 16;
    c->raws = arena_grow(c->a, c->raws, sizeof(Raw), _Alignof(Raw), c->cap,
                         nc);
    c->cap = nc;
  }
  Raw *r = &c->raws[c->n];
  memset(r, 0, sizeof *r);
  r->name = name;
  r->src = src;
  r->seq = c->n++;
  return r;
}

/* ---- Collection -------------------------------------------------------- */

static void collect_env(Coll *c, char *const *env)
{
  if (!env)
    return;
  for (; *env; env++) {
    const char *s = *env;
    if (strncmp(s, "TF_VAR_", 7) != 0)
      continue;
    s += 7;
    const char *eq = strchr(s, '=');
    if (!eq)
      continue;   /* seems invalid: ignored, as Terraform does */
    Raw *r = push_raw(c, arena_strndup(c->a, s, (size_t)(eq - s)), RS_ENV);
    r->str = arena_strdup(c->a, eq + 1);
    r->len = strlen(r->str);
  }
}

/* Lower-cases the first letter of strerror() the way Go's errors read. */
static const char *go_errno(Arena *a, int e)
{
  char *s = arena_strdup(a, strerror(e));
  if (s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = (char)(s[0] - 'A' + 'a');
  return s;
}

static char *read_whole(Coll *c, const char *path, size_t *len)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0) {
    int e = errno;
    if (e == ENOENT)
      diag_error(c->d, NULL, "Failed to read variables file",
                 "Given variables file %s does not exist.", path);
    else
      diag_error(c->d, NULL, "Failed to read variables file",
                 "Error while reading %s: open %s: %s.", path, path,
                 go_errno(c->a, e));
    return NULL;
  }
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    int e = S_ISDIR(st.st_mode) ? EISDIR : errno;
    diag_error(c->d, NULL, "Failed to read variables file",
               "Error while reading %s: read %s: %s.", path, path,
               go_errno(c->a, e));
    close(fd);
    return NULL;
  }
  /* Read to end of file, not st_size bytes: -var-file=<(echo ...) and
  ** /dev/stdin are pipes whose size is 0. */
  Buf b;
  buf_init(&b, c->a);
  int err = buf_read_fd(&b, fd, MAX_VARS_FILE);
  close(fd);
  if (err == EFBIG) {
    diag_error(c->d, NULL, "Failed to read variables file",
               "Error while reading %s: the file is larger than %u bytes, "
               "the most cairn reads from a variables file.", path,
               MAX_VARS_FILE);
    return NULL;
  }
  if (err) {
    diag_error(c->d, NULL, "Failed to read variables file",
               "Error while reading %s: read %s: %s.", path, path,
               go_errno(c->a, err));
    return NULL;
  }
  *len = b.len;
  return b.p ? b.p : arena_strndup(c->a, "", 0);
}

/* addVarsFromFile: path is what is opened, shown what messages say. */
static void collect_file(Coll *c, const char *path, RawSrc src)
{
  size_t len = 0;
  char *text = read_whole(c, path, &len);
  if (!text)
    return;
  diag_files_add(c->files, path, text, (uint32_t)len);
  int errs_before = c->d->errors;
  bool json = has_suffix(path, ".json");
  HclFile *f = json ? hcl_parse_json_file(c->a, path, text, len, c->d)
                    : hcl_parse_file(c->a, path, text, len, c->d);
  if (!f || !f->body)
    return;
  /* A variable block here is a common beginner's mistake; say so rather
  ** than "Unexpected block".  The probe's own errors are not interesting. */
  static const char *const label[] = { "name" };
  static const HclBlockSchema bs[] = { { "variable", label, 1 } };
  static const HclBodySchema probe = { NULL, 0, bs, 1 };
  Diags scratch;
  diag_init(&scratch, c->a);
  HclBodyContent pc;
  memset(&pc, 0, sizeof pc);
  hcl_body_partial_content(c->a, f->body, &probe, &pc, NULL, &scratch);
  for (uint32_t i = 0; i < pc.nblocks; i++) {
    const HclBlock *b = pc.blocks[i];
    if (b->nlabels < 1)
      continue;
    const char *name = b->labels[0];
    diag_error(c->d, &b->type_range, "Variable declaration in .tfvars file",
               "A .tfvars file is used to assign values to variables that "
               "have already been declared in .tf files, not to declare new "
               "variables. To declare variable %s, place this block in one "
               "of your .tf files, such as variables.tf.\n\nTo set a value "
               "for this variable in %s, use the definition syntax instead:"
               "\n    %s = <value>", quoted(c->a, name), path, name);
  }
  if (c->d->errors > errs_before)
    return;
  HclAttribute **attrs = NULL;
  uint32_t nattrs = 0;
  hcl_body_just_attributes(c->a, f->body, &attrs, &nattrs, c->d);
  for (uint32_t i = 0; i < nattrs; i++) {
    Raw *r = push_raw(c, attrs[i]->name, src);
    /* nil EvalContext in Terraform: JSON strings are literal text. */
    r->expr = json ? hcl_json_to_expr(c->a, attrs[i]->expr, true, c->d)
                   : attrs[i]->expr;
    r->file = path;
  }
}

static int cmp_str(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool is_auto_file(const char *n)
{
  return has_suffix(n, ".auto.tfvars") || has_suffix(n, ".auto.tfvars.json");
}

static const char *join(Arena *a, const char *dir, const char *name)
{
  if (strcmp(dir, ".") == 0)
    return name;
  size_t n = strlen(dir);
  return arena_printf(a, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/",
                      name);
}

static void collect_dir(Coll *c, const char *dir)
{
  struct stat st;
  const char *p = join(c->a, dir, "terraform.tfvars");
  if (stat(p, &st) == 0)
    collect_file(c, p, RS_AUTO);
  p = join(c->a, dir, "terraform.tfvars.json");
  if (stat(p, &st) == 0)
    collect_file(c, p, RS_AUTO);
  DIR *dh = opendir(dir);
  if (!dh)
    return;
  const char **names = NULL;
  uint32_t n = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(dh))) {
    if (!is_auto_file(de->d_name))
      continue;
    if (n == cap) {
      uint32_t nc = cap ? cap * 2 : 8;
      names = arena_grow(c->a, (void *)names, sizeof(char *),
                         _Alignof(char *), cap, nc);
      cap = nc;
    }
    names[n++] = arena_strdup(c->a, de->d_name);
  }
  closedir(dh);
  if (n)
    qsort((void *)names, n, sizeof *names, cmp_str);
  for (uint32_t i = 0; i < n; i++)
    collect_file(c, join(c->a, dir, names[i]), RS_AUTO);
}

static void collect_args(Coll *c, const VarsArg *args, uint32_t nargs)
{
  for (uint32_t i = 0; i < nargs; i++) {
    const char *t = args[i].text ? args[i].text : "";
    if (args[i].kind == VARS_CLI_FILE) {
      collect_file(c, t, RS_NAMED);
      continue;
    }
    const char *eq = strchr(t, '=');
    if (!eq) {
      diag_error(c->d, NULL, "Invalid -var option",
                 "The given -var option %s is not correctly specified. Must "
                 "be a variable name and value separated by an equals sign, "
                 "like -var=\"key=value\".", quoted(c->a, t));
      continue;
    }
    const char *name = arena_strndup(c->a, t, (size_t)(eq - t));
    size_t nl = strlen(name);
    if (nl && name[nl - 1] == ' ') {
      const char *v = eq + 1;
      if (*v == ' ')
        v++;
      diag_error(c->d, NULL, "Invalid -var option",
                 "Variable name %s is invalid due to trailing space. Did you "
                 "mean -var=\"%.*s=%s\"?", quoted(c->a, name), (int)(nl - 1),
                 name, v);
      continue;
    }
    Raw *r = push_raw(c, name, RS_CLI);
    r->str = eq + 1;
    r->len = strlen(r->str);
  }
}

/* ---- Parsing ----------------------------------------------------------- */

static int cmp_raw(const void *x, const void *y)
{
  const Raw *a = x, *b = y;
  int c = strcmp(a->name, b->name);
  if (c)
    return c;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int cmp_slot(const void *x, const void *y)
{
  const Slot *a = x, *b = y;
  return strcmp(a->cfg->name, b->cfg->name);
}

static Slot *find_slot(Slot *s, uint32_t n, const char *name)
{
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    int c = strcmp(s[mid].cfg->name, name);
    if (c == 0)
      return &s[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* Terraform's VariableParsingMode: literal text unless the type is given
** and not primitive (`any` included). */
static bool parse_literal(const CfgVariable *v)
{
  return !v->type_given || ty_is_primitive(v->type);
}

/* Evaluates a constant expression (Terraform's expr.Value(nil)). */
static bool eval_const(Arena *a, const HclExpr *e, Value *out, Diags *d)
{
  EvalCtx ctx;
  eval_ctx_init(&ctx, a, d);
  ctx.no_vars = true;
  ctx.no_funcs = true;
  int before = d->errors;
  eval_expr(&ctx, e, out);
  return d->errors == before;
}

/* Raw value -> cty value; literal says how text is taken. */
static bool parse_raw(Arena *a, const Raw *r, bool literal, Value *out,
                      Diags *d)
{
  if (r->expr)
    return eval_const(a, r->expr, out, d);
  if (literal) {
    *out = val_str(a, r->str, r->len);
    return true;
  }
  const char *file = arena_printf(a, "<value for var.%s>", r->name);
  int before = d->errors;
  HclExpr *e = hcl_parse_expr(a, file, r->str, r->len, d);
  if (d->errors > before || !e) {
    *out = val_dynamic_unknown;
    return false;
  }
  return eval_const(a, e, out, d);
}

/* ParseUndeclaredVariableValues for one name. */
static void undeclared(Arena *a, const Raw *r, uint32_t *seen_in_file,
                       Diags *d)
{
  Diags scratch;
  diag_init(&scratch, a);
  Value v;
  if (!parse_raw(a, r, true, &v, &scratch))
    return;
  switch (r->src) {
  case RS_AUTO:
  case RS_NAMED:
    if (*seen_in_file < 2)
      diag_warning(d, NULL, "Value for undeclared variable",
                   "The root module does not declare a variable named %s "
                   "but a value was found in file %s. If you meant to use "
                   "this value, add a \"variable\" block to the "
                   "configuration.\n\nTo silence these warnings, use "
                   "TF_VAR_... environment variables to provide certain "
                   "\"global\" settings to all configurations in your "
                   "organization. To reduce the verbosity of these warnings, "
                   "use the -compact-warnings option.",
                   quoted(a, r->name), quoted(a, r->file));
    (*seen_in_file)++;
    break;
  case RS_ENV:
    break;    /* often set globally for many configurations: ignored */
  case RS_CLI:
    diag_error(d, NULL, "Value for undeclared variable",
               "A variable named %s was assigned on the command line, but "
               "the root module does not declare a variable of that name. "
               "To use this value, add a \"variable\" block to the "
               "configuration.", quoted(a, r->name));
    break;
  case RS_INPUT:
    diag_error(d, NULL, "Value for undeclared variable",
               "A variable named %s was assigned a value, but the root "
               "module does not declare a variable of that name. To use "
               "this value, add a \"variable\" block to the configuration.",
               quoted(a, r->name));
    break;
  }
}

/* ---- Final values ------------------------------------------------------ */

/* How a value without a source range was given (eval_variable.go). */
static const char *non_file_source(Arena *a, const Raw *r)
{
  if (!r)
    return NULL;
  switch (r->src) {
  case RS_CLI: return arena_printf(a, "set using -var=\"%s=...\"", r->name);
  case RS_ENV:
    return arena_printf(a, "set using the TF_VAR_%s environment variable",
                        r->name);
  case RS_INPUT: return "set using an interactive prompt";
  case RS_AUTO:
  case RS_NAMED: return NULL;
  }
  return NULL;
}

/* prepareFinalInputVariableValue. */
static void finalize(Arena *a, Slot *s, Diags *d)
{
  const CfgVariable *v = s->cfg;
  const char *addr = arena_printf(a, "var.%s", v->name);
  const char *nfs = non_file_source(a, s->raw);
  SrcRange src = s->raw && s->raw->expr ? s->raw->expr->range : v->range;
  const char *decl = range_str(a, &v->range);
  Value given = s->raw ? s->given : v->default_val;
  s->val = val_unknown(conv_strip_optional(a, v->type));
  s->ok = false;
  Value cv;
  ConvError ce;
  memset(&ce, 0, sizeof ce);
  if (!conv_convert(a, given, v->type, true, &cv, &ce)) {
    const char *msg = ce.msg ? ce.msg : "invalid value";
    if (nfs) {
      diag_error(d, &v->range, "Invalid value for input variable",
                 "Unsuitable value for %s %s: %s.", addr, nfs, msg);
    } else if (v->sensitive) {
      diag_error(d, &v->range, "Invalid value for input variable",
                 "The given value is not suitable for %s, which is "
                 "sensitive: %s. Invalid value defined at %s.", addr, msg,
                 range_str(a, &src));
    } else {
      diag_error(d, &src, "Invalid value for input variable",
                 "The given value is not suitable for %s declared at %s: "
                 "%s.", addr, decl, msg);
    }
    return;
  }
  if (val_is_null(cv) && !v->nullable) {
    if (v->has_default && !val_is_null(v->default_val)) {
      cv = v->default_val;
    } else if (nfs) {
      diag_error(d, &v->range, "Required variable not set",
                 "Unsuitable value for %s %s: required variable may not be "
                 "set to null.", addr, nfs);
      return;
    } else {
      diag_error(d, &src, "Required variable not set",
                 "The given value is not suitable for %s defined at %s: "
                 "required variable may not be set to null.", addr, decl);
      return;
    }
  }
  s->val = cv;
  s->ok = true;
}

/* ---- Validation -------------------------------------------------------- */

static void num_compact(Buf *out, Value v)
{
  int64_t i;
  if (!(v.flags & (VF_FLOAT | VF_NUMLIT)) && val_num_int(v, &i) &&
      i > -10000000000LL && i < 10000000000LL) {
    buf_printf(out, "%lld", (long long)i);
    return;
  }
  char tmp[64];
  snprintf(tmp, sizeof tmp, "%.10g", val_num_double(v));
  buf_puts(out, tmp);
}

void vars_compact_value(Buf *out, Value v)
{
  if (val_is_sensitive(v)) {
    buf_puts(out, "(sensitive value)");
    return;
  }
  const Type *t = v.type;
  if (val_is_null(v)) {
    buf_puts(out, "null");
    return;
  }
  if (!val_is_known(v)) {
    buf_puts(out, "(not yet known)");
    return;
  }
  switch (t->kind) {
  case TY_BOOL: buf_puts(out, v.u.b ? "true" : "false"); return;
  case TY_NUMBER: num_compact(out, v); return;
  case TY_STRING: {
    Buf q;
    buf_init(&q, out->arena);
    buf_go_quote(&q, v.u.s);
    buf_puts(out, buf_str(&q));
    return;
  }
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
  case TY_TUPLE:
    if (v.len == 0) {
      buf_puts(out, "empty ");
      ty_friendly(out, t);
    } else {
      ty_friendly(out, t);
      buf_printf(out, " with %u element%s", v.len, v.len == 1 ? "" : "s");
    }
    return;
  case TY_OBJECT:
    if (t->n == 0)
      buf_puts(out, "object with no attributes");
    else if (t->n == 1)
      buf_printf(out, "object with 1 attribute %s",
                 quoted(out->arena, t->names[0]));
    else
      buf_printf(out, "object with %u attributes", t->n);
    return;
  case TY_DYNAMIC:
    ty_friendly(out, t);
    return;
  }
}

/* References other than var.* are unknown while validating here. */
static EvalResolveResult resolve_unknown(EvalCtx *ctx,
                                         const HclTraversal *trav,
                                         uint32_t *consumed, Value *out)
{
  (void)ctx;
  *consumed = trav->n;
  *out = val_dynamic_unknown;
  return EVAL_RES_OK;
}

/* Terraform's traversalStr (format/diagnostic.go): index keys of a
** primitive type in compact form, others as "...". */
static void trav_string(Buf *b, const HclTraversal *t, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    const HclStep *s = &t->steps[i];
    if (s->kind == HCL_STEP_ROOT) {
      buf_puts(b, s->name);
    } else if (s->kind == HCL_STEP_ATTR) {
      buf_printf(b, ".%s", s->name);
    } else {
      buf_putc(b, '[');
      if (s->key->type && ty_is_primitive(s->key->type))
        vars_compact_value(b, *s->key);
      else
        buf_puts(b, "...");
      buf_putc(b, ']');
    }
  }
}

static int cmp_cstr(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

void vars_add_values(EvalCtx *ctx, const HclExpr *e, VarsRefEval eval,
                     Diag *g, Diags *d)
{
  Arena *a = ctx->arena;
  HclTraversal *refs = NULL;
  uint32_t nrefs = 0;
  hcl_expr_references(a, e, &refs, &nrefs);
  if (!nrefs)
    return;
  const char **lines = ARENA_NEW(a, const char *, nrefs);
  const char **keys = ARENA_NEW(a, const char *, nrefs);
  uint32_t nl = 0;
  Diags *saved = ctx->diags;
  for (uint32_t i = 0; i < nrefs; i++) {
    const HclTraversal *t = &refs[i];
    for (uint32_t len = t->n; len > 1; len--) {
      Diags scratch;
      diag_init(&scratch, a);
      ctx->diags = &scratch;
      Value v;
      bool ok = eval(ctx, t, len, &v);
      ctx->diags = saved;
      if (!ok || scratch.errors)
        continue;
      Buf k;
      buf_init(&k, a);
      trav_string(&k, t, len);
      const char *key = buf_str(&k);
      bool dup = false;
      for (uint32_t j = 0; j < nl; j++)
        if (strcmp(keys[j], key) == 0)
          dup = true;
      if (dup || val_is_sensitive(v) || !val_is_known(v))
        break;
      buf_puts(&k, " is ");
      vars_compact_value(&k, v);
      keys[nl] = key;
      lines[nl++] = buf_str(&k);
      break;
    }
  }
  if (nl > 1)
    qsort((void *)lines, nl, sizeof *lines, cmp_cstr);
  for (uint32_t i = 0; i < nl; i++)
    diag_add_value(d, g, lines[i]);
}

/* A variable validation's scope holds only var: the first len steps of a
** var.* reference, evaluated from the variable's value. */
static bool var_prefix(EvalCtx *ctx, const HclTraversal *t, uint32_t len,
                       Value *out)
{
  if (strcmp(t->steps[0].name, "var") != 0)
    return false;
  return eval_traverse(ctx, ctx->vars[0].val, t->steps + 1, len - 1, out);
}

/* evalVariableValidation for one rule. */
static bool check_rule(EvalCtx *ctx, const Slot *s, const CfgCheckRule *r,
                       const SrcRange *value_rng, Diags *d)
{
  Arena *a = ctx->arena;
  Value res = val_dynamic_unknown, msgv = val_dynamic_unknown;
  int before = d->errors;
  if (r->condition)
    eval_expr(ctx, r->condition, &res);
  Diags md;
  diag_init(&md, a);
  Diags *saved = ctx->diags;
  ctx->diags = &md;
  if (r->error_message)
    eval_expr(ctx, r->error_message, &msgv);
  ctx->diags = saved;
  bool msg_failed = md.errors > 0;
  diag_move(d, &md);
  if (!r->condition || !val_is_known(res))
    return d->errors == before;
  const SrcRange *crng = &r->condition->range;
  if (val_is_null(res)) {
    diag_error(d, crng, "Invalid variable validation result",
               "Validation condition expression must return either true or "
               "false, not null.");
    return false;
  }
  Value b;
  ConvError ce;
  memset(&ce, 0, sizeof ce);
  if (!conv_convert(a, res, &ty_bool, true, &b, &ce)) {
    Buf eb;
    buf_init(&eb, a);
    conv_error_format(&eb, &ce);
    diag_error(d, crng, "Invalid variable validation result",
               "Invalid validation condition result value: %s.",
               buf_str(&eb));
    return false;
  }
  if (!val_is_known(b) || val_is_null(b) || b.u.b)
    return d->errors == before;
  const SrcRange *mrng = r->error_message ? &r->error_message->range : crng;
  if (!val_is_known(msgv)) {
    diag_error(d, mrng, "Invalid error message",
               "Unsuitable value for error message: expression refers to "
               "values that won't be known until the apply phase.");
    return false;
  }
  const char *message = "";
  if (!msg_failed && !val_is_null(msgv)) {
    Value sv;
    memset(&ce, 0, sizeof ce);
    if (!conv_convert(a, msgv, &ty_string, true, &sv, &ce)) {
      Buf eb;
      buf_init(&eb, a);
      conv_error_format(&eb, &ce);
      diag_error(d, mrng, "Invalid error message",
                 "Unsuitable value for error message: %s.", buf_str(&eb));
    } else if (val_has_sensitive(sv)) {
      diag_error(d, mrng, "Error message refers to sensitive values",
                 "The error expression used to explain this condition refers "
                 "to sensitive values. Terraform will not display the "
                 "resulting message.\n\nYou can correct this by removing "
                 "references to sensitive values, or by carefully using the "
                 "nonsensitive() function if the expression will not reveal "
                 "the sensitive data.");
      message = "The error message included a sensitive value, so it will "
                "not be displayed.";
    } else if (!val_is_null(sv) && val_is_known(sv)) {
      /* strings.TrimSpace */
      const char *p = sv.u.s, *e = sv.u.s + sv.len;
      while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
                       *p == '\v' || *p == '\f'))
        p++;
      while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
                       e[-1] == '\r' || e[-1] == '\v' || e[-1] == '\f'))
        e--;
      message = arena_strndup(a, p, (size_t)(e - p));
    }
  }
  if (!*message)
    message = "Failed to evaluate condition error message.";
  Diag *g = diag_error(d, value_rng, "Invalid value for variable",
                       "%s\n\nThis was checked by the validation rule at %s.",
                       message, range_str(a, &r->range));
  vars_add_values(ctx, r->condition, var_prefix, g, d);
  (void)s;
  return false;
}

/* ---- Entry point ------------------------------------------------------- */

static PlVarSrc var_src(const Raw *r)
{
  if (!r)
    return PL_VAR_UNSET;
  switch (r->src) {
  case RS_ENV: return PL_VAR_ENV;
  case RS_AUTO: return PL_VAR_AUTO;
  case RS_NAMED: return PL_VAR_FILE;
  case RS_CLI: return PL_VAR_CLI;
  case RS_INPUT: return PL_VAR_INPUT;
  }
  return PL_VAR_UNSET;
}

bool vars_collect(Arena *a, const CfgModule *root, const VarsInput *in,
                  SrcFiles *files, PlVariable **out, uint32_t *n, Diags *d)
{
  uint32_t nv = root ? root->nvariables : 0;
  Slot *slots = ARENA_NEW(a, Slot, nv ? nv : 1);
  for (uint32_t i = 0; i < nv; i++) {
    slots[i].cfg = &root->variables[i];
    slots[i].val = val_unknown(conv_strip_optional(a, slots[i].cfg->type));
  }
  if (nv > 1)
    qsort(slots, nv, sizeof *slots, cmp_slot);
  *out = ARENA_NEW(a, PlVariable, nv ? nv : 1);
  *n = nv;

  Coll c;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.d = d;
  c.files = files;
  int errs0 = d->errors;
  bool ok = true;

  /* 1. Collect, in precedence order. */
  collect_env(&c, in ? in->environ : NULL);
  collect_dir(&c, in && in->dir ? in->dir : ".");
  if (in)
    collect_args(&c, in->args, in->nargs);
  if (d->errors > errs0) {
    ok = false;
    goto done;
  }

  /* The last value of each name wins. */
  if (c.n > 1)
    qsort(c.raws, c.n, sizeof *c.raws, cmp_raw);
  const Raw **fin = ARENA_NEW(a, const Raw *, c.n + nv + 1);
  uint32_t nfin = 0;
  for (uint32_t i = 0; i < c.n; i++) {
    if (i + 1 < c.n && strcmp(c.raws[i].name, c.raws[i + 1].name) == 0)
      continue;
    fin[nfin++] = &c.raws[i];
    Slot *s = find_slot(slots, nv, c.raws[i].name);
    if (s)
      s->raw = &c.raws[i];
  }

  /* 2. Ask for required variables still missing (interactiveCollect). */
  bool allow_unset = in && in->allow_unset;
  if (in && in->input && in->prompt && !allow_unset) {
    for (uint32_t i = 0; i < nv; i++) {
      Slot *s = &slots[i];
      if (s->raw || s->cfg->has_default)
        continue;
      const char *ans = in->prompt(in->prompt_ctx, s->cfg);
      if (!ans)
        continue;
      Raw *r = ARENA_NEW(a, Raw, 1);
      r->name = s->cfg->name;
      r->src = RS_INPUT;
      r->str = ans;
      r->len = strlen(ans);
      s->raw = r;
    }
  }

  /* 3. Parse declared values, then report undeclared and missing ones. */
  for (uint32_t i = 0; i < nv; i++) {
    Slot *s = &slots[i];
    if (s->raw)
      s->given_ok = parse_raw(a, s->raw, parse_literal(s->cfg), &s->given,
                              d);
  }
  uint32_t seen_in_file = 0;
  for (uint32_t i = 0; i < nfin; i++)
    if (!find_slot(slots, nv, fin[i]->name))
      undeclared(a, fin[i], &seen_in_file, d);
  if (seen_in_file > 2)
    diag_warning(d, NULL, "Values for undeclared variables",
                 "In addition to the other similar warnings shown, %u other "
                 "variable(s) defined without being declared.",
                 seen_in_file - 2);
  for (uint32_t i = 0; i < nv; i++) {
    const CfgVariable *v = slots[i].cfg;
    if (!slots[i].raw && !v->has_default && !allow_unset)
      diag_error(d, &v->range, "No value for required variable",
                 "The root module input variable %s is not set, and has no "
                 "default value. Use a -var or -var-file command line "
                 "argument to provide a value for this variable.",
                 quoted(a, v->name));
  }
  if (d->errors > errs0) {
    ok = false;
    goto done;
  }

  /* 4. Convert and check nulls. */
  int errs_early = d->errors;
  for (uint32_t i = 0; i < nv; i++) {
    if (!slots[i].raw && !slots[i].cfg->has_default)
      continue;     /* allowed unset: stays unknown */
    finalize(a, &slots[i], d);
  }

  /* 5. Validation rules see every variable (sensitive ones marked). */
  {
    const char **names = ARENA_NEW(a, const char *, nv ? nv : 1);
    Value *vals = ARENA_NEW(a, Value, nv ? nv : 1);
    for (uint32_t i = 0; i < nv; i++) {
      names[i] = slots[i].cfg->name;
      vals[i] = slots[i].cfg->sensitive ? val_sensitive(slots[i].val)
                                        : slots[i].val;
    }
    EvalVar var = { "var", val_object(a, nv, names, vals) };
    EvalCtx ctx;
    eval_ctx_init(&ctx, a, d);
    ctx.vars = &var;
    ctx.nvars = 1;
    ctx.resolve = resolve_unknown;
    ctx.fn.base_dir = in && in->dir ? in->dir : NULL;
    for (uint32_t i = 0; i < nv; i++) {
      Slot *s = &slots[i];
      if (!s->ok)
        continue;
      SrcRange vr = s->raw && s->raw->expr ? s->raw->expr->range
                                           : s->cfg->range;
      for (uint32_t k = 0; k < s->cfg->validations.n; k++)
        check_rule(&ctx, s, &s->cfg->validations.items[k], &vr, d);
    }
  }
  if (d->errors > errs0) {
    ok = false;
    if (in && in->late_errors && errs_early == errs0)
      *in->late_errors = true;
  }

done:
  for (uint32_t i = 0; i < nv; i++) {
    (*out)[i].name = slots[i].cfg->name;
    (*out)[i].value = slots[i].val;
    (*out)[i].sensitive = slots[i].cfg->sensitive;
    (*out)[i].ephemeral = slots[i].cfg->ephemeral;
    (*out)[i].src = var_src(slots[i].raw);
    (*out)[i].apply_time = slots[i].cfg->ephemeral && slots[i].raw &&
                           slots[i].val.type && !val_is_null(slots[i].val);
  }
  return ok;
}
