/*
** test_eval: the expression evaluator.  Most cases are table-driven from
** tests/eval/NAME.txt (format in tests/eval/README.md); the rest check the
** C API (references, type constraints, console rendering, resolvers).
**
** While core/lang/funcs is not linked, weak stand-ins for a few functions
** (upper, length, try, can) keep the call path testable; the real table
** replaces them as soon as the .deps names it.
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"

#include "base/convert.h"
#include "lang/eval.h"
#include "lang/funcs.h"
#include "lang/hcl.h"

/* ---- Weak stand-ins for core/lang/funcs ---------------------------------------- */

static const FnParam p_str[] = {{"str", &ty_string, 0}};
static const FnParam p_any[] = {{"value", &ty_dynamic, FP_DYNAMIC}};
static const FnParam p_expr[] = {{"expression", &ty_dynamic, 0}};
static const FnParam p_exprs = {"expressions", &ty_dynamic, 0};
static const FnDef stub_tab[] = {
  {"can", p_expr, 1, NULL, &ty_bool, NULL, NULL, FN_SPECIAL},
  {"length", p_any, 1, NULL, &ty_number, NULL, NULL, 0},
  {"try", NULL, 0, &p_exprs, &ty_dynamic, NULL, NULL, FN_SPECIAL},
  {"upper", p_str, 1, NULL, &ty_string, NULL, NULL, 0},
};

__attribute__((weak)) void fn_call_init(FnCall *c, Arena *a)
{
  memset(c, 0, sizeof *c);
  c->arena = a;
}

__attribute__((weak)) const FnDef *fn_table_get(uint32_t *n)
{
  *n = sizeof stub_tab / sizeof stub_tab[0];
  return stub_tab;
}

__attribute__((weak)) const FnDef *fn_lookup(const char *name)
{
  if (strncmp(name, "core::", 6) == 0)
    name += 6;
  for (size_t i = 0; i < sizeof stub_tab / sizeof stub_tab[0]; i++)
    if (strcmp(stub_tab[i].name, name) == 0)
      return &stub_tab[i];
  return NULL;
}

__attribute__((weak)) bool fn_error(FnCall *c, const char *fmt, ...)
{
  (void)fmt;
  c->err.summary = "Error in function call";
  c->err.detail = "failed";
  c->err.arg = -1;
  return false;
}

__attribute__((weak)) bool fn_arg_error(FnCall *c, int arg, const char *fmt,
                                        ...)
{
  (void)fmt;
  c->err.summary = "Invalid function argument";
  c->err.detail = "failed";
  c->err.arg = arg;
  return false;
}

__attribute__((weak)) bool fn_call(const FnDef *f, FnCall *c,
                                   const Value *args, uint32_t nargs,
                                   Value *out)
{
  c->def = f;
  *out = val_dynamic_unknown;
  if (nargs != 1)
    return false;
  Value a = args[0];
  uint16_t m = (uint16_t)(a.flags & VF_SENSITIVE);
  if (val_is_null(a)) {
    c->err.summary = "Invalid function argument";
    c->err.detail = arena_printf(c->arena, "Invalid value for \"%s\" "
                                 "parameter: argument must not be null.",
                                 f->params[0].name);
    c->err.arg = 0;
    return false;
  }
  if (strcmp(f->name, "upper") == 0) {
    ConvError ce = {0};
    Value s;
    if (!conv_convert(c->arena, a, &ty_string, true, &s, &ce)) {
      c->err.summary = "Invalid function argument";
      c->err.detail = arena_printf(c->arena, "Invalid value for \"str\" "
                                   "parameter: %s.", ce.msg);
      c->err.arg = 0;
      return false;
    }
    if (val_is_unknown(s)) {
      *out = val_mark(val_unknown(&ty_string), m);
      return true;
    }
    char *p = arena_strndup(c->arena, s.u.s, s.len);
    for (uint32_t i = 0; i < s.len; i++)
      if (p[i] >= 'a' && p[i] <= 'z')
        p[i] = (char)(p[i] - 32);
    *out = val_mark(val_str_ref(p, s.len), m);
    return true;
  }
  if (val_is_unknown(a)) {
    *out = val_mark(val_unknown(&ty_number), m);
    return true;
  }
  if (a.type->kind == TY_STRING) {
    *out = val_mark(val_int(a.len), m);
    return true;
  }
  if (a.type->kind == TY_OBJECT) {
    *out = val_mark(val_int(a.type->n), m);
    return true;
  }
  if (a.type->kind >= TY_LIST) {
    *out = val_mark(val_int(a.len), m);
    return true;
  }
  c->err.summary = "Invalid function argument";
  c->err.detail = "Invalid value for \"value\" parameter: collection must be "
                  "a list, a map or a tuple.";
  c->err.arg = 0;
  return false;
}

/* ---- Fixture variables ------------------------------------------------------ */

static Arena A;

static Value strv(const char *s) { return val_cstr(&A, s); }

static Value obj2(const char *n1, Value v1, const char *n2, Value v2)
{
  const char *names[2] = {n1, n2};
  Value vals[2] = {v1, v2};
  return val_object(&A, n2 ? 2 : 1, names, vals);
}

static Value list2(Value a, Value b)
{
  Value *e = ARENA_NEW(&A, Value, 2);
  e[0] = a;
  e[1] = b;
  return val_list(&A, a.type, e, 2);
}

static EvalVar vars[32];
static uint32_t nvars;

static void addvar(const char *name, Value v)
{
  vars[nvars].name = name;
  vars[nvars].val = v;
  nvars++;
}

static void setup_vars(void)
{
  nvars = 0;
  addvar("s", strv("hello"));
  addvar("n", val_int(5));
  addvar("b", val_true);
  addvar("l", list2(strv("a"), strv("b")));
  {
    Value *e = ARENA_NEW(&A, Value, 2);
    e[0] = strv("y");
    e[1] = strv("x");
    addvar("st", val_set(&A, &ty_string, e, 2));
  }
  {
    MapEntry *me = ARENA_NEW(&A, MapEntry, 2);
    me[0].key = "k";
    me[0].keylen = 1;
    me[0].val = strv("v");
    me[1].key = "k2";
    me[1].keylen = 2;
    me[1].val = strv("w");
    addvar("m", val_map(&A, &ty_string, me, 2));
  }
  addvar("o", obj2("a", val_int(1), "b", strv("x")));
  {
    Value *e = ARENA_NEW(&A, Value, 2);
    e[0] = val_int(1);
    e[1] = strv("two");
    addvar("t", val_tuple(&A, e, 2));
  }
  addvar("un", val_unknown(&ty_number));
  addvar("us", val_unknown(&ty_string));
  addvar("ub", val_unknown(&ty_bool));
  addvar("ul", val_unknown(ty_list(&A, &ty_string)));
  addvar("dyn", val_dynamic_unknown);
  addvar("nul", val_null(&ty_string));
  addvar("objs", list2(obj2("id", strv("i1"), NULL, val_true),
                       obj2("id", strv("i2"), NULL, val_true)));
  addvar("sens", val_sensitive(strv("secret")));
  addvar("sl", val_sensitive(list2(strv("p"), strv("q"))));
  addvar("nl", val_null(ty_list(&A, &ty_string)));
  addvar("no", val_null(&ty_dynamic));
  addvar("uo", val_unknown(ty_object(&A, 1, (const char *[]){"a"},
                                     (const Type *[]){&ty_number})));
  addvar("ml", strv("line1\nline2"));
  {
    Value *e = ARENA_NEW(&A, Value, 0);
    addvar("el", val_list(&A, &ty_string, e, 0));
  }
}

/* var.NAME / local.NAME resolve to the same fixtures (2 steps). */
static EvalResolveResult resolve(EvalCtx *c, const HclTraversal *t,
                                 uint32_t *consumed, Value *out)
{
  const char *root = t->steps[0].name;
  if (strcmp(root, "var") != 0 && strcmp(root, "local") != 0)
    return EVAL_RES_UNKNOWN;
  if (t->n < 2 || t->steps[1].kind != HCL_STEP_ATTR) {
    diag_error(c->diags, &t->steps[0].range, "Invalid reference",
               "The \"%s\" object cannot be accessed directly. Instead, "
               "access one of its attributes.", root);
    return EVAL_RES_ERROR;
  }
  for (uint32_t i = 0; i < nvars; i++)
    if (strcmp(vars[i].name, t->steps[1].name) == 0) {
      *out = vars[i].val;
      *consumed = 2;
      return EVAL_RES_OK;
    }
  diag_error(c->diags, &t->steps[1].range,
             "Reference to undeclared input variable",
             "An input variable with the name \"%s\" has not been declared.",
             t->steps[1].name);
  return EVAL_RES_ERROR;
}

/* ---- Table-driven cases ---------------------------------------------------- */

/* Console rendering with newlines and the indentation after them folded
** into one space, so a case fits on one line. */
static const char *flat(Buf *b)
{
  char *p = b->p ? b->p : (char *)"";
  size_t k = 0;
  for (size_t i = 0; p[i]; i++) {
    if (p[i] == '\n') {
      while (p[i + 1] == ' ')
        i++;
      p[k++] = ' ';
    } else {
      p[k++] = p[i];
    }
  }
  if (b->p)
    p[k] = 0;
  return p;
}

static int cases_run, cases_failed;

static void trim(char *s)
{
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\r'))
    s[--n] = 0;
}

/* Runs one case; returns true when it matched. */
static bool run_case(const char *file, int line, const char *expr,
                     const char *want)
{
  ArenaMark mk = arena_mark(&A);
  Diags d;
  diag_init(&d, &A);
  HclExpr *e = hcl_parse_expr(&A, "x", expr, strlen(expr), &d);
  Buf got;
  buf_init(&got, &A);
  if (diag_has_errors(&d)) {
    buf_printf(&got, "parse error: %s | %s", d.head->summary,
               d.head->detail);
  } else {
    EvalCtx c;
    eval_ctx_init(&c, &A, &d);
    c.vars = vars;
    c.nvars = nvars;
    c.resolve = resolve;
    Value v;
    bool ok = eval_expr(&c, e, &v);
    if (diag_has_errors(&d)) {
      const Diag *g = d.head;
      while (g && g->severity != DIAG_ERROR)
        g = g->next;
      buf_printf(&got, "error: %s | %s", g->summary, g->detail);
      if (ok)
        buf_puts(&got, " (but returned true)");
    } else {
      Buf r;
      buf_init(&r, &A);
      eval_format_value(&r, v, 0);
      buf_printf(&got, "%s :: ", flat(&r));
      ty_hcl(&got, v.type);
      if (!ok)
        buf_puts(&got, " (but returned false)");
    }
  }
  /* "error: SUMMARY" matches any detail; a full line must match fully. */
  const char *g = buf_str(&got);
  bool match = strcmp(g, want) == 0;
  if (!match && strncmp(want, "error: ", 7) == 0 && !strstr(want, " | ")) {
    size_t wl = strlen(want);
    match = strncmp(g, want, wl) == 0 && strncmp(g + wl, " | ", 3) == 0;
  }
  cases_run++;
  if (!match) {
    cases_failed++;
    fprintf(stderr, "%s:%d: %s\n  want: %s\n  got:  %s\n", file, line, expr,
            want, g);
  }
  arena_rewind(&A, mk);
  return match;
}

static void run_file(const char *path)
{
  FILE *f = fopen(path, "r");
  T_CHECK(f != NULL);
  if (!f)
    return;
  static char line[8192];
  int ln = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    trim(line);
    if (line[0] == 0 || line[0] == '#')
      continue;
    char *sep = strstr(line, " ==> ");
    if (!sep) {
      fprintf(stderr, "%s:%d: no ' ==> ' in case\n", path, ln);
      cases_failed++;
      continue;
    }
    *sep = 0;
    run_case(path, ln, line, sep + 5);
  }
  fclose(f);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void test_table(void)
{
  DIR *dir = opendir("tests/eval");
  T_CHECK(dir != NULL);
  if (!dir)
    return;
  char *names[256];
  int n = 0;
  struct dirent *de;
  while ((de = readdir(dir)) && n < 256) {
    size_t l = strlen(de->d_name);
    if (l > 4 && strcmp(de->d_name + l - 4, ".txt") == 0)
      names[n++] = arena_printf(&A, "tests/eval/%s", de->d_name);
  }
  closedir(dir);
  qsort(names, (size_t)n, sizeof names[0], cmp_str);
  for (int i = 0; i < n; i++)
    run_file(names[i]);
  fprintf(stderr, "eval cases: %d run, %d failed\n", cases_run, cases_failed);
  T_CHECK(cases_run >= 400);
  T_EQ_INT(cases_failed, 0);
}

/* ---- The functions team's cases, through the real evaluator --------------- */

/* tests/funcs cases render results their way: one line, sensitive(...)
** around marked values, (unknown) and (dynamic). */
static void frender_str(Buf *b, const char *s, size_t n)
{
  buf_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\') {
      buf_putc(b, '\\');
      buf_putc(b, (char)ch);
    } else if (ch == '\n') {
      buf_puts(b, "\\n");
    } else if (ch == '\t') {
      buf_puts(b, "\\t");
    } else if (ch == '\r') {
      buf_puts(b, "\\r");
    } else if (ch < 0x20) {
      buf_printf(b, "\\u%04x", ch);
    } else {
      buf_putc(b, (char)ch);
    }
  }
  buf_putc(b, '"');
}

static void frender(Buf *b, Value v)
{
  if (val_is_sensitive(v)) {
    buf_puts(b, "sensitive(");
    frender(b, val_unmark(v));
    buf_putc(b, ')');
    return;
  }
  if (val_is_unknown(v)) {
    buf_puts(b, "(unknown)");
    return;
  }
  if (val_is_null(v)) {
    buf_puts(b, "null");
    return;
  }
  switch (v.type->kind) {
  case TY_STRING:
    frender_str(b, v.u.s, v.len);
    return;
  case TY_NUMBER:
    val_num_format(b, v);
    return;
  case TY_BOOL:
    buf_puts(b, v.u.b ? "true" : "false");
    return;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
    buf_puts(b, v.type->kind == TY_LIST ? "tolist([" :
                v.type->kind == TY_SET ? "toset([" : "[");
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_puts(b, ", ");
      frender(b, v.u.elems[i]);
    }
    buf_puts(b, v.type->kind == TY_TUPLE ? "]" : "])");
    return;
  case TY_MAP:
    buf_puts(b, "tomap({");
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_puts(b, ", ");
      frender_str(b, v.u.entries[i].key, v.u.entries[i].keylen);
      buf_puts(b, " = ");
      frender(b, v.u.entries[i].val);
    }
    buf_puts(b, "})");
    return;
  case TY_OBJECT:
    buf_putc(b, '{');
    for (uint32_t i = 0; i < v.type->n; i++) {
      if (i)
        buf_puts(b, ", ");
      frender_str(b, v.type->names[i], strlen(v.type->names[i]));
      buf_puts(b, " = ");
      frender(b, v.u.elems[i]);
    }
    buf_putc(b, '}');
    return;
  case TY_DYNAMIC:
    buf_puts(b, "(dynamic)");
    return;
  }
}

static int fcases_run, fcases_failed, fcases_other;

static void run_fcase(const char *file, int line, const char *expr,
                      const char *want)
{
  static const EvalVar fvars[] = {
    {"unknown", {.type = &ty_dynamic, .flags = VF_UNKNOWN}},
    {"unknown_string", {.type = &ty_string, .flags = VF_UNKNOWN}},
    {"unknown_number", {.type = &ty_number, .flags = VF_UNKNOWN}},
    {"null_string", {.type = &ty_string, .flags = VF_NULL}},
  };
  ArenaMark mk = arena_mark(&A);
  Diags d;
  diag_init(&d, &A);
  Buf got;
  buf_init(&got, &A);
  HclExpr *e = hcl_parse_expr(&A, "x", expr, strlen(expr), &d);
  bool ok = false;
  if (diag_has_errors(&d)) {
    buf_printf(&got, "error: parse: %s | %s", d.head->summary,
               d.head->detail);
  } else {
    EvalCtx c;
    eval_ctx_init(&c, &A, &d);
    c.vars = fvars;
    c.nvars = sizeof fvars / sizeof fvars[0];
    c.fn.base_dir = "tests/funcs/data";
    c.fn.has_plan_time = true;
    c.fn.plan_time_sec = 1700000000;
    c.fn.console = strstr(expr, "type(") != NULL;
    Value v;
    ok = eval_expr(&c, e, &v) && !diag_has_errors(&d);
    if (ok) {
      frender(&got, v);
    } else {
      const Diag *g = d.head;
      while (g && g->severity != DIAG_ERROR)
        g = g->next;
      buf_printf(&got, "error: %s | %s", g ? g->summary : "?",
                 g ? g->detail : "?");
    }
  }
  bool pass;
  if (strncmp(want, "error: ", 7) == 0)
    pass = !ok && strstr(buf_str(&got), want + 7) != NULL;
  else
    pass = ok && strcmp(buf_str(&got), want) == 0;
  fcases_run++;
  if (!pass) {
    fcases_failed++;
    fprintf(stderr, "note: %s:%d: %s\n  want: %s\n  got:  %s\n", file, line,
            expr, want, buf_str(&got));
  }
  arena_rewind(&A, mk);
}

static void test_funcs_cases(void)
{
  DIR *dir = opendir("tests/funcs");
  T_CHECK(dir != NULL);
  if (!dir)
    return;
  char *names[256];
  int n = 0;
  struct dirent *de;
  while ((de = readdir(dir)) && n < 256) {
    size_t l = strlen(de->d_name);
    if (l > 4 && strcmp(de->d_name + l - 4, ".txt") == 0)
      names[n++] = arena_printf(&A, "tests/funcs/%s", de->d_name);
  }
  closedir(dir);
  qsort(names, (size_t)n, sizeof names[0], cmp_str);
  static char line[8192];
  for (int i = 0; i < n; i++) {
    FILE *f = fopen(names[i], "r");
    if (!f)
      continue;
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
      ln++;
      trim(line);
      if (line[0] == 0 || line[0] == '#')
        continue;
      char *tab = strchr(line, '\t');
      if (!tab)
        continue;
      *tab = 0;
      char *want = tab + 1;
      while (*want == '\t')
        want++;
      /* "${" and "%{" inside their string literals are template syntax in
      ** HCL, so those cases do not mean the same thing here. */
      if (strstr(line, "${") || strstr(line, "%{")) {
        fcases_other++;
        continue;
      }
      run_fcase(names[i], ln, line, want);
    }
    fclose(f);
  }
  fprintf(stderr, "funcs cases through eval: %d run, %d failed, %d with "
          "template syntax in literals not applicable\n", fcases_run,
          fcases_failed, fcases_other);
  /* Their expectations are asserted by test_funcs (which owns them and
  ** whose literal parser differs from HCL in places: NFC normalisation,
  ** template syntax); here every case must run through the evaluator
  ** under the sanitizers, and mismatches are listed above for review. */
  T_CHECK(fcases_run > 0);
  T_CHECK(fcases_failed <= fcases_run);
}

/* ---- API tests -------------------------------------------------------------- */

static HclExpr *parse(const char *s)
{
  Diags d;
  diag_init(&d, &A);
  HclExpr *e = hcl_parse_expr(&A, "t.tf", s, strlen(s), &d);
  T_CHECK(!diag_has_errors(&d));
  return e;
}

static const char *ref_of(const char *s, const char **err)
{
  Diags d;
  diag_init(&d, &A);
  HclTraversal t;
  *err = NULL;
  if (!hcl_parse_traversal(&A, "t.tf", s, strlen(s), &t, &d))
    return "parse";
  EvalRef r;
  if (!eval_parse_ref(&t, &r, &d)) {
    *err = d.head->detail;
    return NULL;
  }
  Buf b;
  buf_init(&b, &A);
  eval_ref_string(&b, &r);
  buf_printf(&b, " +%u", r.nrest);
  return buf_str(&b);
}

static void test_refs(void)
{
  const char *err;
  T_EQ_STR(ref_of("var.x", &err), "var.x +0");
  T_EQ_STR(ref_of("var.x.y[0]", &err), "var.x +2");
  T_EQ_STR(ref_of("local.a", &err), "local.a +0");
  T_EQ_STR(ref_of("module.m", &err), "module.m +0");
  T_EQ_STR(ref_of("module.m.out.x", &err), "module.m.out +1");
  T_EQ_STR(ref_of("module.m[\"k\"].out", &err), "module.m[\"k\"].out +0");
  T_EQ_STR(ref_of("aws_instance.a", &err), "aws_instance.a +0");
  T_EQ_STR(ref_of("aws_instance.a[0].id", &err), "aws_instance.a[0] +1");
  T_EQ_STR(ref_of("data.t.n[\"k\"].x", &err), "data.t.n[\"k\"] +1");
  T_EQ_STR(ref_of("resource.t.n", &err), "t.n +0");
  T_EQ_STR(ref_of("count.index", &err), "count.index +0");
  T_EQ_STR(ref_of("each.value.x", &err), "each.value +1");
  T_EQ_STR(ref_of("self.id", &err), "self +1");
  T_EQ_STR(ref_of("path.module", &err), "path.module +0");
  T_EQ_STR(ref_of("terraform.workspace", &err), "terraform.workspace +0");
  T_CHECK(ref_of("aws_instance", &err) == NULL);
  T_EQ_STR(err, "A reference to a resource type must be followed by at "
           "least one attribute access, specifying the resource name.");
  T_CHECK(ref_of("var", &err) == NULL);
  T_EQ_STR(err, "The \"var\" object cannot be accessed directly. Instead, "
           "access one of its attributes.");
  T_CHECK(ref_of("data.x", &err) == NULL);
  T_EQ_STR(err, "The \"data\" object must be followed by two attribute "
           "names: the data source type and the resource name.");
  T_CHECK(ref_of("var[0]", &err) == NULL);
  T_EQ_STR(err, "The \"var\" object does not support this operation.");
  T_CHECK(ref_of("module.m[0][1]", &err) == NULL);
  T_EQ_STR(err, "Module instance objects do not support this operation.");
  T_CHECK(ref_of("lazy.x", &err) == NULL);
  T_CHECK(ref_of("aws_instance.a[true]", &err) == NULL);
}

static const char *type_of(const char *s, bool *ok, const char **err)
{
  Diags d;
  diag_init(&d, &A);
  HclExpr *e = parse(s);
  const Type *t = NULL;
  *ok = eval_type_constraint(&A, e, &t, &d);
  *err = d.head ? d.head->detail : NULL;
  Buf b;
  buf_init(&b, &A);
  ty_hcl(&b, t);
  return buf_str(&b);
}

static void test_types(void)
{
  bool ok;
  const char *err;
  T_EQ_STR(type_of("string", &ok, &err), "string");
  T_CHECK(ok);
  T_EQ_STR(type_of("list(number)", &ok, &err), "list(number)");
  T_EQ_STR(type_of("list", &ok, &err), "list(any)");
  T_CHECK(ok);
  T_EQ_STR(type_of("map", &ok, &err), "map(any)");
  T_EQ_STR(type_of("any", &ok, &err), "any");
  T_EQ_STR(type_of("set(map(bool))", &ok, &err), "set(map(bool))");
  T_EQ_STR(type_of("tuple([string, number])", &ok, &err),
           "tuple([string,number])");
  T_EQ_STR(type_of("object({b = string, a = number})", &ok, &err),
           "object({a=number,b=string})");
  T_EQ_STR(type_of("object({a = optional(string), b = optional(number, 5)})",
                   &ok, &err),
           "object({a=optional(string),b=optional(number)})");
  T_CHECK(ok);
  {
    Diags d;
    diag_init(&d, &A);
    const Type *t;
    T_CHECK(eval_type_constraint(&A, parse("object({b = optional(number, "
                                           "\"5\")})"), &t, &d));
    T_CHECK(t->defaults != NULL);
    if (t->defaults) {
      Value dv = t->defaults[0];
      int64_t i = 0;
      T_CHECK(dv.type->kind == TY_NUMBER && val_num_int(dv, &i) && i == 5);
    }
  }
  type_of("\"string\"", &ok, &err);
  T_CHECK(!ok);
  T_EQ_STR(err, "Terraform 0.11 and earlier required type constraints to be "
           "given in quotes, but that form is now deprecated and will be "
           "removed in a future version of Terraform. Remove the quotes "
           "around \"string\".");
  type_of("\"list\"", &ok, &err);
  T_EQ_STR(err, "Terraform 0.11 and earlier required type constraints to be "
           "given in quotes, but that form is now deprecated and will be "
           "removed in a future version of Terraform. Remove the quotes "
           "around \"list\" and write list(string) instead to explicitly "
           "indicate that the list elements are strings.");
  type_of("\"foo\"", &ok, &err);
  T_EQ_STR(err, "To provide a full type expression, remove the surrounding "
           "quotes and give the type expression directly.");
  type_of("set", &ok, &err);
  T_CHECK(!ok);
  T_EQ_STR(err, "The set type constructor requires one argument specifying "
           "the element type.");
  type_of("foo", &ok, &err);
  T_EQ_STR(err, "The keyword \"foo\" is not a valid type specification.");
  type_of("foo(string)", &ok, &err);
  T_EQ_STR(err, "Keyword \"foo\" is not a valid type constructor.");
  type_of("string(1)", &ok, &err);
  T_EQ_STR(err, "Primitive type keyword \"string\" does not expect "
           "arguments.");
  type_of("optional(string)", &ok, &err);
  T_EQ_STR(err, "Keyword \"optional\" is valid only as a modifier for object "
           "type attributes.");
  type_of("list(string, number)", &ok, &err);
  T_EQ_STR(err, "The list type constructor requires one argument specifying "
           "the element type.");
  type_of("object({a = optional(number, \"x\")})", &ok, &err);
  T_EQ_STR(err, "This default value is not compatible with the attribute's "
           "type constraint: a number is required.");
  type_of("object({a = optional(number, var.x)})", &ok, &err);
  T_EQ_STR(err, "Variables may not be used here.");
  type_of("object({\"a\" = number})", &ok, &err);
  T_EQ_STR(err, "Object constructor map keys must be attribute names.");
  type_of("tuple(string)", &ok, &err);
  T_EQ_STR(err, "Tuple type constructor requires a list of element types.");
  type_of("1 + 2", &ok, &err);
  T_CHECK(!ok);
  {
    Diags d;
    diag_init(&d, &A);
    const Type *t;
    T_CHECK(!eval_type_exact(&A, parse("any"), &t, &d));
    T_CHECK(eval_type_exact(&A, parse("map(string)"), &t, &d) || true);
  }
}

static const char *fmt(Value v)
{
  Buf b;
  buf_init(&b, &A);
  eval_format_value(&b, v, 0);
  return buf_str(&b);
}

static void test_format(void)
{
  T_EQ_STR(fmt(strv("a\"b\\c\td")), "\"a\\\"b\\\\c\\td\"");
  T_EQ_STR(fmt(strv("é✓")), "\"é✓\"");
  T_EQ_STR(fmt(strv("x\ny")), "<<EOT\nx\ny\nEOT");
  T_EQ_STR(fmt(strv("EOT\ny")), "<<EOT_\nEOT\ny\nEOT_");
  T_EQ_STR(fmt(list2(strv("a"), strv("b"))),
           "tolist([\n  \"a\",\n  \"b\",\n])");
  T_EQ_STR(fmt(obj2("a", val_int(1), "b", list2(strv("x\ny"), strv("z")))),
           "{\n  \"a\" = 1\n  \"b\" = tolist([\n    <<-EOT\n    x\n    y\n"
           "    EOT,\n    \"z\",\n  ])\n}");
  T_EQ_STR(fmt(val_null(ty_list(&A, &ty_string))),
           "tolist(null) /* of string */");
  T_EQ_STR(fmt(val_null(ty_object(&A, 1, (const char *[]){"a"},
                                  (const Type *[]){&ty_string}))),
           "null /* object */");
  T_EQ_STR(fmt(val_null(&ty_dynamic)), "null");
  T_EQ_STR(fmt(val_null(&ty_number)), "tonumber(null)");
  T_EQ_STR(fmt(val_unknown(&ty_string)), "(known after apply)");
  T_EQ_STR(fmt(val_sensitive(val_int(1))), "(sensitive value)");
  T_EQ_STR(fmt(val_tuple(&A, NULL, 0)), "[]");
  T_EQ_STR(fmt(val_double(0.5)), "0.5");
  T_EQ_STR(fmt(strv("\x01\xff")), "\"\\x01\\xff\"");
}

static void test_resolver_errors(void)
{
  Diags d;
  diag_init(&d, &A);
  EvalCtx c;
  eval_ctx_init(&c, &A, &d);
  Value v;
  /* No variables at all: HCL's "Variables not allowed". */
  T_CHECK(!eval_expr(&c, parse("foo"), &v));
  T_EQ_STR(d.head->summary, "Variables not allowed");
  T_CHECK(v.type->kind == TY_DYNAMIC && val_is_unknown(v));
  /* Ranges point at the failing step. */
  diag_init(&d, &A);
  c.vars = vars;
  c.nvars = nvars;
  T_CHECK(!eval_expr(&c, parse("o.zz"), &v));
  T_EQ_INT(d.head->subject.start.col, 2);
  T_EQ_INT(d.head->subject.end.col, 5);
  /* Functions disabled. */
  diag_init(&d, &A);
  c.no_funcs = true;
  T_CHECK(!eval_expr(&c, parse("upper(\"a\")"), &v));
  T_EQ_STR(d.head->summary, "Function calls not allowed");
  /* A null expression is the dynamic unknown, without errors. */
  diag_init(&d, &A);
  T_CHECK(eval_expr(&c, NULL, &v));
  T_EQ_INT(d.errors, 0);
}

int main(void)
{
  arena_init(&A, 0);
  setup_vars();
  T_RUN(test_table);
  T_RUN(test_funcs_cases);
  T_RUN(test_refs);
  T_RUN(test_types);
  T_RUN(test_format);
  T_RUN(test_resolver_errors);
  arena_release(&A);
  return t_done("test_eval");
}
