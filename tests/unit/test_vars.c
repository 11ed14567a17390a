/* Unit tests for core/engine/vars: root input variable collection. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"
#include "engine/vars.h"
#include "t.h"

/* One scenario: a temporary root module directory with files. */
typedef struct Fx {
  Arena a;
  Diags d;
  SrcFiles fs;
  char dir[64];
  CfgModule *m;
  PlVariable *vars;
  uint32_t n;
  bool ok;
} Fx;

static void fx_write(Fx *f, const char *name, const char *text)
{
  char path[256];
  snprintf(path, sizeof path, "%s/%s", f->dir, name);
  FILE *fp = fopen(path, "w");
  if (!fp)
    return;
  fputs(text, fp);
  fclose(fp);
}

static void fx_init(Fx *f, const char *tf)
{
  memset(f, 0, sizeof *f);
  arena_init(&f->a, 0);
  diag_init(&f->d, &f->a);
  diag_files_init(&f->fs, &f->a);
  snprintf(f->dir, sizeof f->dir, "/tmp/cairn-vars-XXXXXX");
  if (!mkdtemp(f->dir))
    f->dir[0] = 0;
  fx_write(f, "main.tf", tf);
}

static void fx_load(Fx *f)
{
  f->m = cfg_load_dir(&f->a, f->dir, &f->fs, &f->d);
  for (const Diag *g = f->d.head; g; g = g->next)
    fprintf(stderr, "config diag: %s: %s\n", g->summary, g->detail);
}

static void fx_run_in(Fx *f, VarsInput *in)
{
  fx_load(f);
  int cfg_errors = f->d.errors;
  in->dir = f->dir;
  f->ok = vars_collect(&f->a, f->m, in, &f->fs, &f->vars, &f->n, &f->d);
  T_EQ_INT(cfg_errors, 0);
}

static void fx_run(Fx *f, const VarsArg *args, uint32_t nargs,
                   char *const *env)
{
  VarsInput in;
  memset(&in, 0, sizeof in);
  in.args = args;
  in.nargs = nargs;
  in.environ = env;
  fx_run_in(f, &in);
}

static void fx_done(Fx *f)
{
  /* Best effort clean-up of the few files the tests create. */
  static const char *const names[] = {
    "main.tf", "terraform.tfvars", "terraform.tfvars.json", "a.auto.tfvars",
    "b.auto.tfvars.json", "named.tfvars", "named.tfvars.json", "bad.tfvars"
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", f->dir, names[i]);
    unlink(path);
  }
  rmdir(f->dir);
  arena_release(&f->a);
}

/* environ-style copy of string literals (which are const). */
static char **mkenv(Fx *f, const char *const *src)
{
  size_t n = 0;
  while (src[n])
    n++;
  char **env = ARENA_NEW(&f->a, char *, n + 1);
  for (size_t i = 0; i < n; i++)
    env[i] = arena_strdup(&f->a, src[i]);
  return env;
}

static const PlVariable *var(const Fx *f, const char *name)
{
  for (uint32_t i = 0; i < f->n; i++)
    if (strcmp(f->vars[i].name, name) == 0)
      return &f->vars[i];
  return NULL;
}

static const char *str_of(const Fx *f, const char *name)
{
  const PlVariable *v = var(f, name);
  if (!v || !v->value.type || v->value.type->kind != TY_STRING ||
      !val_is_known(v->value) || val_is_null(v->value))
    return "(not a string)";
  return v->value.u.s;
}

static long long num_of(const Fx *f, const char *name)
{
  const PlVariable *v = var(f, name);
  int64_t i = -999;
  if (!v || !v->value.type || v->value.type->kind != TY_NUMBER ||
      !val_is_known(v->value) || val_is_null(v->value) ||
      !val_num_int(v->value, &i))
    return -999;
  return (long long)i;
}

static const Diag *find(const Fx *f, const char *summary)
{
  for (const Diag *g = f->d.head; g; g = g->next)
    if (strcmp(g->summary, summary) == 0)
      return g;
  return NULL;
}

static int count(const Fx *f, const char *summary)
{
  int n = 0;
  for (const Diag *g = f->d.head; g; g = g->next)
    n += strcmp(g->summary, summary) == 0;
  return n;
}

static const Diag *nth(const Fx *f, const char *summary, int k)
{
  for (const Diag *g = f->d.head; g; g = g->next)
    if (strcmp(g->summary, summary) == 0 && k-- == 0)
      return g;
  return NULL;
}

static const char *detail(const Fx *f, const char *summary)
{
  const Diag *g = find(f, summary);
  return g ? g->detail : "(no such diagnostic)";
}

static void dump(const Fx *f)
{
  for (const Diag *g = f->d.head; g; g = g->next)
    fprintf(stderr, "  diag: %s: %s\n", g->summary, g->detail);
}

/* ---- precedence -------------------------------------------------------- */

static void test_precedence(void)
{
  Fx f;
  fx_init(&f,
           "variable \"a\" {}\nvariable \"b\" {}\nvariable \"c\" {}\n"
           "variable \"d\" {}\nvariable \"e\" {}\nvariable \"f\" {}\n"
           "variable \"g\" {}\nvariable \"h\" { default = \"dflt\" }\n");
  fx_write(&f, "terraform.tfvars", "b = \"tfvars\"\nc = \"tfvars\"\n"
           "d = \"tfvars\"\ne = \"tfvars\"\nf = \"tfvars\"\ng = \"tfvars\"\n");
  fx_write(&f, "terraform.tfvars.json", "{\"c\": \"json\", \"d\": \"json\","
           " \"e\": \"json\", \"f\": \"json\", \"g\": \"json\"}");
  fx_write(&f, "a.auto.tfvars", "d = \"auto-a\"\ne = \"auto-a\"\n"
           "f = \"auto-a\"\ng = \"auto-a\"\n");
  fx_write(&f, "b.auto.tfvars.json", "{\"e\": \"auto-b\", \"f\": \"auto-b\","
           " \"g\": \"auto-b\"}");
  char named[128];
  snprintf(named, sizeof named, "%s/named.tfvars", f.dir);
  fx_write(&f, "named.tfvars", "f = \"named\"\ng = \"named\"\n");
  VarsArg args[] = {
    { VARS_CLI_VAR, "g=cli-first" },
    { VARS_CLI_FILE, named },        /* a later -var-file wins over -var */
  };
  static const char *const env[] = { "TF_VAR_a=env", "TF_VAR_b=env",
                                     "PATH=/bin", "TF_VAR_x", NULL };
  fx_run(&f, args, 2, mkenv(&f, env));
  dump(&f);
  T_CHECK(f.ok);
  T_EQ_INT(f.d.errors, 0);
  T_EQ_STR(str_of(&f, "a"), "env");
  T_EQ_STR(str_of(&f, "b"), "tfvars");
  T_EQ_STR(str_of(&f, "c"), "json");
  T_EQ_STR(str_of(&f, "d"), "auto-a");
  T_EQ_STR(str_of(&f, "e"), "auto-b");
  T_EQ_STR(str_of(&f, "f"), "named");
  T_EQ_STR(str_of(&f, "g"), "named");
  T_EQ_STR(str_of(&f, "h"), "dflt");
  /* Sorted by name. */
  T_EQ_INT(f.n, 8);
  for (uint32_t i = 1; i < f.n; i++)
    T_CHECK(strcmp(f.vars[i - 1].name, f.vars[i].name) < 0);
  fx_done(&f);

  fx_init(&f, "variable \"g\" {}\n");
  fx_write(&f, "named.tfvars", "g = \"named\"\n");
  snprintf(named, sizeof named, "%s/named.tfvars", f.dir);
  VarsArg args2[] = {
    { VARS_CLI_FILE, named },
    { VARS_CLI_VAR, "g=cli-last" },
  };
  fx_run(&f, args2, 2, NULL);
  T_EQ_STR(str_of(&f, "g"), "cli-last");
  fx_done(&f);
}

/* ---- parsing modes ----------------------------------------------------- */

static void test_parsing_modes(void)
{
  Fx f;
  fx_init(&f,
           "variable \"untyped\" {}\n"
           "variable \"s\" { type = string }\n"
           "variable \"n\" { type = number }\n"
           "variable \"b\" { type = bool }\n"
           "variable \"l\" { type = list(number) }\n"
           "variable \"any\" { type = any }\n"
           "variable \"m\" { type = map(string) }\n"
           "variable \"o\" {\n"
           "  type = object({a = string, b = optional(number, 7)})\n}\n");
  VarsArg args[] = {
    { VARS_CLI_VAR, "untyped=[1, 2]" },
    { VARS_CLI_VAR, "s=hello = world" },
    { VARS_CLI_VAR, "n=42" },
    { VARS_CLI_VAR, "b=true" },
    { VARS_CLI_VAR, "l=[1, 2, 3]" },
    { VARS_CLI_VAR, "any={x = 1}" },
    { VARS_CLI_VAR, "m={k = \"v\"}" },
    { VARS_CLI_VAR, "o={a = \"x\"}" },
  };
  fx_run(&f, args, 8, NULL);
  dump(&f);
  T_CHECK(f.ok);
  T_EQ_STR(str_of(&f, "untyped"), "[1, 2]");
  T_EQ_STR(str_of(&f, "s"), "hello = world");
  T_EQ_INT(num_of(&f, "n"), 42);
  const PlVariable *b = var(&f, "b");
  T_CHECK(b && b->value.type->kind == TY_BOOL && b->value.u.b);
  const PlVariable *l = var(&f, "l");
  T_CHECK(l && l->value.type->kind == TY_LIST && l->value.len == 3);
  const PlVariable *a = var(&f, "any");
  T_CHECK(a && a->value.type->kind == TY_OBJECT);
  const PlVariable *m = var(&f, "m");
  T_CHECK(m && m->value.type->kind == TY_MAP && m->value.len == 1);
  const PlVariable *o = var(&f, "o");
  T_CHECK(o && o->value.type->kind == TY_OBJECT);
  if (o && o->value.type->kind == TY_OBJECT) {
    bool found = false;
    Value bv = val_attr(o->value, "b", &found);
    int64_t i = 0;
    T_CHECK(found && val_num_int(bv, &i) && i == 7);
  }
  fx_done(&f);
}

static void test_number_from_text_is_literal(void)
{
  /* Primitive types take the text verbatim: "1+1" is not an expression. */
  Fx f;
  fx_init(&f, "variable \"n\" { type = number }\n");
  VarsArg args[] = { { VARS_CLI_VAR, "n=1+1" } };
  fx_run(&f, args, 1, NULL);
  T_CHECK(!f.ok);
  T_EQ_STR(detail(&f, "Invalid value for input variable"),
           "Unsuitable value for var.n set using -var=\"n=...\": a number "
           "is required.");
  const Diag *g = find(&f, "Invalid value for input variable");
  T_CHECK(g && g->subject.file && strstr(g->subject.file, "main.tf"));
  T_EQ_INT(g ? g->subject.start.line : 0, 1);
  fx_done(&f);
}

static void test_hcl_parse_error_pseudo_file(void)
{
  Fx f;
  fx_init(&f, "variable \"l\" { type = list(string) }\n");
  VarsArg args[] = { { VARS_CLI_VAR, "l=[\"a\"," } };
  fx_run(&f, args, 1, NULL);
  T_CHECK(!f.ok);
  T_CHECK(f.d.errors >= 1);
  T_CHECK(f.d.head && f.d.head->subject.file &&
          strcmp(f.d.head->subject.file, "<value for var.l>") == 0);
  fx_done(&f);

  /* References and calls are not allowed in -var values either. */
  fx_init(&f, "variable \"l\" { type = list(string) }\n");
  VarsArg args2[] = { { VARS_CLI_VAR, "l=[upper(\"a\")]" } };
  fx_run(&f, args2, 1, NULL);
  T_CHECK(!f.ok);
  T_CHECK(find(&f, "Function calls not allowed") != NULL);
  fx_done(&f);
}

static void test_env_parsing(void)
{
  Fx f;
  fx_init(&f, "variable \"l\" { type = list(number) }\n"
              "variable \"n\" { type = number }\n");
  static const char *const env[] = { "TF_VAR_l=[4, 5]", "TF_VAR_n=x", NULL };
  fx_run(&f, NULL, 0, mkenv(&f, env));
  T_CHECK(!f.ok);
  T_EQ_STR(detail(&f, "Invalid value for input variable"),
           "Unsuitable value for var.n set using the TF_VAR_n environment "
           "variable: a number is required.");
  const PlVariable *l = var(&f, "l");
  T_CHECK(l && l->value.type->kind == TY_LIST && l->value.len == 2);
  fx_done(&f);
}

/* ---- files ------------------------------------------------------------- */

static void test_file_conversion_error(void)
{
  Fx f;
  fx_init(&f, "variable \"n\" {\n  type = number\n}\n"
              "variable \"secret\" {\n  type = number\n"
              "  sensitive = true\n}\n");
  fx_write(&f, "terraform.tfvars", "n = \"abc\"\nsecret = \"xyz\"\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(!f.ok);
  T_EQ_INT(count(&f, "Invalid value for input variable"), 2);
  const Diag *g = find(&f, "Invalid value for input variable");
  char want[512];
  snprintf(want, sizeof want, "The given value is not suitable for var.n "
           "declared at %s/main.tf:1,1-13: a number is required.", f.dir);
  T_EQ_STR(g ? g->detail : "", want);
  T_CHECK(g && g->subject.file && strstr(g->subject.file, "terraform.tfvars"));
  T_EQ_INT(g ? g->subject.start.line : 0, 1);
  T_EQ_INT(g ? g->subject.start.col : 0, 5);
  g = g ? g->next : NULL;
  snprintf(want, sizeof want, "The given value is not suitable for "
           "var.secret, which is sensitive: a number is required. Invalid "
           "value defined at %s/terraform.tfvars:2,10-15.", f.dir);
  T_EQ_STR(g ? g->detail : "", want);
  T_CHECK(g && g->subject.file && strstr(g->subject.file, "main.tf"));
  /* The file text is registered for snippets. */
  char path[256];
  snprintf(path, sizeof path, "%s/terraform.tfvars", f.dir);
  T_CHECK(diag_files_find(&f.fs, path) != NULL);
  fx_done(&f);
}

static void test_file_errors(void)
{
  Fx f;
  fx_init(&f, "variable \"x\" {}\n");
  fx_write(&f, "terraform.tfvars", "variable \"x\" {\n  default = 1\n}\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(!f.ok);
  char want[1024];
  snprintf(want, sizeof want, "A .tfvars file is used to assign values to "
           "variables that have already been declared in .tf files, not to "
           "declare new variables. To declare variable \"x\", place this "
           "block in one of your .tf files, such as variables.tf.\n\nTo set "
           "a value for this variable in %s/terraform.tfvars, use the "
           "definition syntax instead:\n    x = <value>", f.dir);
  T_EQ_STR(detail(&f, "Variable declaration in .tfvars file"), want);
  /* Collection errors stop before "No value for required variable". */
  T_CHECK(find(&f, "No value for required variable") == NULL);
  fx_done(&f);

  fx_init(&f, "variable \"x\" {}\n");
  fx_write(&f, "terraform.tfvars", "x = upper(\"a\")\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(!f.ok);
  T_EQ_STR(detail(&f, "Function calls not allowed"),
           "Functions may not be called here.");
  fx_done(&f);

  fx_init(&f, "variable \"x\" {}\n");
  fx_write(&f, "terraform.tfvars", "x = var.y\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(!f.ok);
  T_EQ_STR(detail(&f, "Variables not allowed"),
           "Variables may not be used here.");
  fx_done(&f);

  fx_init(&f, "variable \"x\" {}\n");
  fx_write(&f, "terraform.tfvars", "x = \n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(!f.ok);
  T_CHECK(f.d.errors >= 1);
  fx_done(&f);

  fx_init(&f, "variable \"x\" {}\n");
  fx_write(&f, "terraform.tfvars", "block {\n}\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(!f.ok);
  T_CHECK(f.d.errors >= 1);
  fx_done(&f);

  fx_init(&f, "variable \"x\" { default = 1 }\n");
  VarsArg args[] = { { VARS_CLI_FILE, "/nonexistent/cairn/x.tfvars" } };
  fx_run(&f, args, 1, NULL);
  T_CHECK(!f.ok);
  T_EQ_STR(detail(&f, "Failed to read variables file"),
           "Given variables file /nonexistent/cairn/x.tfvars does not "
           "exist.");
  fx_done(&f);
}

static void test_json_strings_literal(void)
{
  Fx f;
  fx_init(&f, "variable \"t\" {}\nvariable \"l\" { type = list(string) }\n");
  fx_write(&f, "terraform.tfvars.json",
           "{\"t\": \"${upper(x)}\", \"l\": [\"a\", \"${b}\"]}");
  fx_run(&f, NULL, 0, NULL);
  dump(&f);
  T_CHECK(f.ok);
  T_EQ_STR(str_of(&f, "t"), "${upper(x)}");
  const PlVariable *l = var(&f, "l");
  T_CHECK(l && l->value.len == 2);
  if (l && l->value.len == 2)
    T_EQ_STR(l->value.u.elems[1].u.s, "${b}");
  fx_done(&f);
}

/* ---- -var syntax ------------------------------------------------------- */

static void test_invalid_var_option(void)
{
  Fx f;
  fx_init(&f, "variable \"x\" { default = 1 }\n");
  VarsArg args[] = {
    { VARS_CLI_VAR, "novalue" },
    { VARS_CLI_VAR, "x = 2" },
  };
  fx_run(&f, args, 2, NULL);
  T_CHECK(!f.ok);
  T_EQ_INT(count(&f, "Invalid -var option"), 2);
  const Diag *g = find(&f, "Invalid -var option");
  T_EQ_STR(g ? g->detail : "", "The given -var option \"novalue\" is not "
           "correctly specified. Must be a variable name and value separated "
           "by an equals sign, like -var=\"key=value\".");
  T_EQ_STR(g && g->next ? g->next->detail : "", "Variable name \"x \" is "
           "invalid due to trailing space. Did you mean -var=\"x=2\"?");
  fx_done(&f);
}

/* ---- undeclared / required --------------------------------------------- */

static void test_undeclared(void)
{
  Fx f;
  fx_init(&f, "variable \"x\" { default = 1 }\n");
  VarsArg args[] = { { VARS_CLI_VAR, "nope=1" } };
  static const char *const env[] = { "TF_VAR_ignored=1", NULL };
  fx_run(&f, args, 1, mkenv(&f, env));
  T_CHECK(!f.ok);
  T_EQ_INT(f.d.errors, 1);
  T_EQ_STR(detail(&f, "Value for undeclared variable"),
           "A variable named \"nope\" was assigned on the command line, but "
           "the root module does not declare a variable of that name. To "
           "use this value, add a \"variable\" block to the configuration.");
  fx_done(&f);

  fx_init(&f, "variable \"x\" { default = 1 }\n");
  fx_write(&f, "terraform.tfvars", "u1 = 1\nu2 = 2\nu3 = 3\nu4 = 4\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(f.ok);
  T_EQ_INT(f.d.errors, 0);
  T_EQ_INT(count(&f, "Value for undeclared variable"), 2);
  char want[1024];
  snprintf(want, sizeof want, "The root module does not declare a variable "
           "named \"u1\" but a value was found in file \"%s/terraform."
           "tfvars\". If you meant to use this value, add a \"variable\" "
           "block to the configuration.\n\nTo silence these warnings, use "
           "TF_VAR_... environment variables to provide certain \"global\" "
           "settings to all configurations in your organization. To reduce "
           "the verbosity of these warnings, use the -compact-warnings "
           "option.", f.dir);
  T_EQ_STR(detail(&f, "Value for undeclared variable"), want);
  T_EQ_STR(detail(&f, "Values for undeclared variables"),
           "In addition to the other similar warnings shown, 2 other "
           "variable(s) defined without being declared.");
  fx_done(&f);
}

static void test_required(void)
{
  Fx f;
  fx_init(&f, "variable \"req\" {\n  type = string\n}\n"
              "variable \"opt\" {\n  default = \"d\"\n}\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(!f.ok);
  T_EQ_STR(detail(&f, "No value for required variable"),
           "The root module input variable \"req\" is not set, and has no "
           "default value. Use a -var or -var-file command line argument to "
           "provide a value for this variable.");
  const Diag *g = find(&f, "No value for required variable");
  T_EQ_INT(g ? g->subject.start.line : 0, 1);
  T_EQ_INT(g ? g->subject.end.col : 0, 15);
  /* Still one entry per variable, placeholder unknown for the failed. */
  T_EQ_INT(f.n, 2);
  T_CHECK(var(&f, "req") && !val_is_known(var(&f, "req")->value));
  fx_done(&f);
}

typedef struct PromptLog {
  const char *answers[4];
  int next;
  char asked[128];
} PromptLog;

static const char *prompt_cb(void *ctx, const CfgVariable *v)
{
  PromptLog *p = ctx;
  size_t l = strlen(p->asked);
  snprintf(p->asked + l, sizeof p->asked - l, "%s;", v->name);
  return p->answers[p->next++];
}

static void test_prompt(void)
{
  Fx f;
  fx_init(&f, "variable \"b\" { type = list(number) }\n"
              "variable \"a\" { description = \"first\" }\n"
              "variable \"c\" { default = 1 }\n"
              "variable \"d\" {}\n");
  PromptLog log = { { "hello", "[1, 2]", NULL }, 0, "" };
  VarsInput in;
  memset(&in, 0, sizeof in);
  VarsArg args[] = { { VARS_CLI_VAR, "d=given" } };
  in.args = args;
  in.nargs = 1;
  in.input = true;
  in.prompt = prompt_cb;
  in.prompt_ctx = &log;
  fx_run_in(&f, &in);
  dump(&f);
  T_CHECK(f.ok);
  T_EQ_STR(log.asked, "a;b;");
  T_EQ_STR(str_of(&f, "a"), "hello");
  const PlVariable *b = var(&f, "b");
  T_CHECK(b && b->value.type->kind == TY_LIST && b->value.len == 2);
  T_EQ_STR(str_of(&f, "d"), "given");
  fx_done(&f);

  /* End of input: the variable stays unset. */
  fx_init(&f, "variable \"n\" { type = number }\n");
  PromptLog eof = { { NULL }, 0, "" };
  memset(&in, 0, sizeof in);
  in.input = true;
  in.prompt = prompt_cb;
  in.prompt_ctx = &eof;
  fx_run_in(&f, &in);
  T_CHECK(!f.ok);
  T_CHECK(find(&f, "No value for required variable") != NULL);
  fx_done(&f);

  /* A bad answer is reported as set using an interactive prompt. */
  fx_init(&f, "variable \"n\" { type = number }\n");
  PromptLog bad = { { "abc" }, 0, "" };
  memset(&in, 0, sizeof in);
  in.input = true;
  in.prompt = prompt_cb;
  in.prompt_ctx = &bad;
  fx_run_in(&f, &in);
  T_CHECK(!f.ok);
  T_EQ_STR(detail(&f, "Invalid value for input variable"),
           "Unsuitable value for var.n set using an interactive prompt: a "
           "number is required.");
  fx_done(&f);

  /* Without -input nobody is asked. */
  fx_init(&f, "variable \"n\" { type = number }\n");
  PromptLog none = { { "1" }, 0, "" };
  memset(&in, 0, sizeof in);
  in.prompt = prompt_cb;
  in.prompt_ctx = &none;
  fx_run_in(&f, &in);
  T_CHECK(!f.ok);
  T_EQ_STR(none.asked, "");
  fx_done(&f);
}

static void test_allow_unset(void)
{
  /* console: unset required variables are unknown, nobody is asked. */
  Fx f;
  fx_init(&f, "variable \"req\" { type = list(string) }\n"
              "variable \"n\" { type = number }\n");
  PromptLog log = { { "x" }, 0, "" };
  bool late = false;
  VarsInput in;
  memset(&in, 0, sizeof in);
  in.input = true;
  in.prompt = prompt_cb;
  in.prompt_ctx = &log;
  in.allow_unset = true;
  in.late_errors = &late;
  VarsArg args[] = { { VARS_CLI_VAR, "n=abc" } };
  in.args = args;
  in.nargs = 1;
  fx_run_in(&f, &in);
  T_CHECK(!f.ok);
  T_CHECK(late);
  T_EQ_STR(log.asked, "");
  T_CHECK(find(&f, "No value for required variable") == NULL);
  const PlVariable *r = var(&f, "req");
  T_CHECK(r && !val_is_known(r->value) && r->value.type->kind == TY_LIST);
  fx_done(&f);

  /* An undeclared -var is an early error. */
  fx_init(&f, "variable \"n\" { default = 1 }\n");
  late = false;
  memset(&in, 0, sizeof in);
  in.allow_unset = true;
  in.late_errors = &late;
  VarsArg a2[] = { { VARS_CLI_VAR, "zzz=1" } };
  in.args = a2;
  in.nargs = 1;
  fx_run_in(&f, &in);
  T_CHECK(!f.ok);
  T_CHECK(!late);
  fx_done(&f);
}

/* ---- nullability, defaults, sensitivity -------------------------------- */

static void test_nullable(void)
{
  Fx f;
  fx_init(&f, "variable \"nn\" {\n  type = string\n  nullable = false\n"
              "  default = \"fallback\"\n}\n"
              "variable \"req\" {\n  type = string\n  nullable = false\n}\n"
              "variable \"null_ok\" {\n  type = string\n"
              "  default = \"x\"\n}\n");
  fx_write(&f, "terraform.tfvars", "nn = null\nnull_ok = null\n");
  VarsArg args[] = { { VARS_CLI_VAR, "req=v" } };
  fx_run(&f, args, 1, NULL);
  dump(&f);
  T_CHECK(f.ok);
  T_EQ_STR(str_of(&f, "nn"), "fallback");
  const PlVariable *v = var(&f, "null_ok");
  T_CHECK(v && val_is_null(v->value) && v->value.type == &ty_string);
  fx_done(&f);

  fx_init(&f, "variable \"req\" {\n  type = string\n  nullable = false\n}\n");
  fx_write(&f, "terraform.tfvars", "req = null\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(!f.ok);
  char want[512];
  snprintf(want, sizeof want, "The given value is not suitable for var.req "
           "defined at %s/main.tf:1,1-15: required variable may not be set "
           "to null.", f.dir);
  T_EQ_STR(detail(&f, "Required variable not set"), want);
  fx_done(&f);

  fx_init(&f, "variable \"req\" {\n  type = list(string)\n"
              "  nullable = false\n}\n");
  VarsArg a2[] = { { VARS_CLI_VAR, "req=null" } };
  fx_run(&f, a2, 1, NULL);
  T_CHECK(!f.ok);
  T_EQ_STR(detail(&f, "Required variable not set"),
           "Unsuitable value for var.req set using -var=\"req=...\": "
           "required variable may not be set to null.");
  fx_done(&f);
}

static void test_sensitive_and_defaults(void)
{
  Fx f;
  fx_init(&f, "variable \"pw\" {\n  sensitive = true\n  default = \"s3\"\n}\n"
              "variable \"l\" {\n  type = list(string)\n  default = []\n}\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(f.ok);
  const PlVariable *pw = var(&f, "pw");
  T_CHECK(pw && pw->sensitive && !val_is_sensitive(pw->value));
  const PlVariable *l = var(&f, "l");
  T_CHECK(l && l->value.type->kind == TY_LIST && l->value.len == 0 &&
          !l->sensitive);
  fx_done(&f);
}

/* ---- validation -------------------------------------------------------- */

static void test_validation(void)
{
  Fx f;
  fx_init(&f,
           "variable \"name\" {\n"
           "  type = string\n"
           "  validation {\n"
           "    condition     = length(var.name) > 3\n"
           "    error_message = \"  Name too short: ${var.name}.  \"\n"
           "  }\n"
           "}\n");
  VarsArg args[] = { { VARS_CLI_VAR, "name=ab" } };
  fx_run(&f, args, 1, NULL);
  T_CHECK(!f.ok);
  const Diag *g = find(&f, "Invalid value for variable");
  char want[512];
  snprintf(want, sizeof want, "Name too short: ab.\n\nThis was checked by "
           "the validation rule at %s/main.tf:3,3-13.", f.dir);
  T_EQ_STR(g ? g->detail : "", want);
  T_EQ_INT(g ? g->nvalues : 0, 1);
  T_EQ_STR(g && g->nvalues ? g->values[0] : "", "var.name is \"ab\"");
  T_EQ_INT(g ? g->subject.start.line : 0, 1);   /* the declaration */
  fx_done(&f);

  /* Passing rule; a rule seeing another variable. */
  fx_init(&f,
           "variable \"lo\" { default = 1 }\n"
           "variable \"hi\" {\n"
           "  default = 5\n"
           "  validation {\n"
           "    condition     = var.hi > var.lo\n"
           "    error_message = \"hi must exceed lo.\"\n"
           "  }\n"
           "}\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(f.ok);
  T_EQ_INT(f.d.errors, 0);
  fx_done(&f);

  /* Value from a file: the subject is the value expression. */
  fx_init(&f,
           "variable \"n\" {\n"
           "  type = number\n"
           "  validation {\n"
           "    condition     = var.n < 10\n"
           "    error_message = \"Too big.\"\n"
           "  }\n"
           "}\n");
  fx_write(&f, "terraform.tfvars", "n = 12\n");
  fx_run(&f, NULL, 0, NULL);
  T_CHECK(!f.ok);
  g = find(&f, "Invalid value for variable");
  T_CHECK(g && g->subject.file && strstr(g->subject.file, "terraform.tfvars"));
  T_EQ_INT(g ? g->subject.start.col : 0, 5);
  T_EQ_STR(g && g->nvalues ? g->values[0] : "", "var.n is 12");
  fx_done(&f);
}

static void test_validation_errors(void)
{
  Fx f;
  fx_init(&f,
           "variable \"s\" {\n"
           "  sensitive = true\n"
           "  default = \"x\"\n"
           "  validation {\n"
           "    condition     = var.s == \"y\"\n"
           "    error_message = \"Bad ${var.s}.\"\n"
           "  }\n"
           "}\n"
           "variable \"nul\" {\n"
           "  default = 1\n"
           "  validation {\n"
           "    condition     = null\n"
           "    error_message = \"x\"\n"
           "  }\n"
           "}\n"
           "variable \"str\" {\n"
           "  default = 1\n"
           "  validation {\n"
           "    condition     = \"maybe\"\n"
           "    error_message = \"x\"\n"
           "  }\n"
           "}\n"
           "variable \"unk\" {\n"
           "  default = 1\n"
           "  validation {\n"
           "    condition     = local.foo == 1\n"
           "    error_message = \"x\"\n"
           "  }\n"
           "}\n");
  fx_run(&f, NULL, 0, NULL);
  dump(&f);
  T_CHECK(!f.ok);
  T_CHECK(find(&f, "Error message refers to sensitive values") != NULL);
  const Diag *g = find(&f, "Invalid value for variable");
  T_CHECK(g && strncmp(g->detail, "The error message included a sensitive "
                       "value, so it will not be displayed.", 71) == 0);
  T_EQ_INT(g ? g->nvalues : -1, 0);     /* sensitive values are not shown */
  T_EQ_INT(count(&f, "Invalid value for variable"), 1);
  T_EQ_INT(count(&f, "Invalid variable validation result"), 2);
  g = find(&f, "Invalid variable validation result");
  T_EQ_STR(g ? g->detail : "", "Validation condition expression must "
           "return either true or false, not null.");
  g = nth(&f, "Invalid variable validation result", 1);
  T_EQ_STR(g ? g->detail : "", "Invalid validation "
           "condition result value: a bool is required.");
  fx_done(&f);
}

static void test_compact_value(void)
{
  Arena a;
  arena_init(&a, 0);
  Buf b;
  buf_init(&b, &a);
  vars_compact_value(&b, val_cstr(&a, "a\"b"));
  T_EQ_STR(buf_str(&b), "\"a\\\"b\"");
  buf_clear(&b);
  vars_compact_value(&b, val_double(1.5));
  T_EQ_STR(buf_str(&b), "1.5");
  buf_clear(&b);
  Value el[2] = { val_cstr(&a, "x"), val_cstr(&a, "y") };
  vars_compact_value(&b, val_list(&a, &ty_string, el, 2));
  T_EQ_STR(buf_str(&b), "list of string with 2 elements");
  buf_clear(&b);
  vars_compact_value(&b, val_list(&a, &ty_string, NULL, 0));
  T_EQ_STR(buf_str(&b), "empty list of string");
  buf_clear(&b);
  const char *nm[] = { "k" };
  Value vv[] = { val_true };
  vars_compact_value(&b, val_object(&a, 1, nm, vv));
  T_EQ_STR(buf_str(&b), "object with 1 attribute \"k\"");
  buf_clear(&b);
  vars_compact_value(&b, val_null(&ty_string));
  T_EQ_STR(buf_str(&b), "null");
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_precedence);
  T_RUN(test_parsing_modes);
  T_RUN(test_number_from_text_is_literal);
  T_RUN(test_hcl_parse_error_pseudo_file);
  T_RUN(test_env_parsing);
  T_RUN(test_file_conversion_error);
  T_RUN(test_file_errors);
  T_RUN(test_json_strings_literal);
  T_RUN(test_invalid_var_option);
  T_RUN(test_undeclared);
  T_RUN(test_required);
  T_RUN(test_prompt);
  T_RUN(test_allow_unset);
  T_RUN(test_nullable);
  T_RUN(test_sensitive_and_defaults);
  T_RUN(test_validation);
  T_RUN(test_validation_errors);
  T_RUN(test_compact_value);
  return t_done("vars");
}
