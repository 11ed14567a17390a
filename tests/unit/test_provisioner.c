/*
** test_provisioner: local-exec decoding, the command echo, output lines,
** failures and their messages, sensitive suppression, interrupts.  Runs
** real /bin/sh commands.
*/
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/value.h"
#include "engine/provisioner.h"
#include "lang/eval.h"
#include "lang/hcl.h"
#include "t.h"

typedef struct Fx {
  Arena a;
  Diags d;
  EvalCtx ctx;
  EvalVar vars[1];
  CfgProvisioner p;
  /* collected messages */
  const char *lines[64];
  int nlines;
  volatile sig_atomic_t stop;
  const char *stop_on;        /* set stop when this message arrives */
} Fx;

static void fx_init(Fx *f)
{
  memset(f, 0, sizeof *f);
  arena_init(&f->a, 0);
  diag_init(&f->d, &f->a);
  eval_ctx_init(&f->ctx, &f->a, &f->d);
  /* var = {secret = (sensitive "hunter2"), unk = (unknown string)} */
  static const char *const names[] = {"secret", "unk"};
  Value vals[2];
  vals[0] = val_sensitive(val_cstr(&f->a, "hunter2"));
  vals[1] = val_unknown(&ty_string);
  f->vars[0].name = "var";
  f->vars[0].val = val_object(&f->a, 2, names, vals);
  f->ctx.vars = f->vars;
  f->ctx.nvars = 1;
}

static void fx_done(Fx *f) { arena_release(&f->a); }

static void collect(void *ctx, const char *text)
{
  Fx *f = ctx;
  if (f->nlines < 64)
    f->lines[f->nlines++] = arena_strdup(&f->a, text);
  if (f->stop_on && strcmp(text, f->stop_on) == 0)
    f->stop = 1;
}

/* Decodes a provisioner body written as HCL; returns prv_decode's result. */
static bool decode(Fx *f, const char *body, bool allow_unknown,
                   PrvLocalExec *x)
{
  HclFile *file = hcl_parse_file(&f->a, "main.tf", body, strlen(body), &f->d);
  T_EQ_INT(f->d.errors, 0);
  f->p.type = "local-exec";
  f->p.body = file->body;
  return prv_decode(&f->ctx, &f->p, allow_unknown, x);
}

/* Decodes and runs; returns prv_run's result. */
static bool run(Fx *f, const char *body)
{
  PrvLocalExec x;
  if (!decode(f, body, false, &x))
    return false;
  return prv_run(&f->a, &x, "null_resource.a", collect, f, &f->stop, &f->d);
}

static const char *detail(Fx *f)
{
  return f->d.head ? f->d.head->detail : "(no diagnostic)";
}

static const char *summary(Fx *f)
{
  return f->d.head ? f->d.head->summary : "(no diagnostic)";
}

/* ---- Running ---------------------------------------------------------- */

static void test_echo(void)
{
  Fx f;
  fx_init(&f);
  T_CHECK(run(&f, "command = \"echo hello\"\n"));
  T_EQ_INT(f.nlines, 2);
  T_EQ_STR(f.lines[0], "Executing: [\"/bin/sh\" \"-c\" \"echo hello\"]");
  T_EQ_STR(f.lines[1], "hello");
  T_EQ_INT(f.d.errors, 0);
  fx_done(&f);
}

static void test_multi_line(void)
{
  Fx f;
  fx_init(&f);
  T_CHECK(run(&f, "command = \"printf 'a\\\\nb\\\\r\\\\n\\\\nc\\\\n' ; "
                  "echo err >&2\"\n"));
  T_EQ_INT(f.nlines, 6);
  T_EQ_STR(f.lines[1], "a");
  T_EQ_STR(f.lines[2], "b");   /* "\r\n" ends a line too */
  T_EQ_STR(f.lines[3], "");
  T_EQ_STR(f.lines[4], "c");
  T_EQ_STR(f.lines[5], "err"); /* stderr shares the pipe */
  fx_done(&f);
}

static void test_no_trailing_newline(void)
{
  Fx f;
  fx_init(&f);
  T_CHECK(run(&f, "command = \"printf 'one\\\\ntwo'\"\n"));
  T_EQ_INT(f.nlines, 3);
  T_EQ_STR(f.lines[1], "one");
  T_EQ_STR(f.lines[2], "two");
  fx_done(&f);
}

static void test_exit_code(void)
{
  Fx f;
  fx_init(&f);
  T_CHECK(!run(&f, "command = \"echo oops; exit 3\"\n"));
  T_EQ_INT(f.d.errors, 1);
  T_EQ_STR(summary(&f), "local-exec provisioner error");
  T_EQ_STR(detail(&f), "Error running command 'echo oops; exit 3': exit "
                       "status 3. Output: oops\n");
  T_EQ_STR(f.d.head->address, "null_resource.a");
  T_EQ_INT(f.nlines, 2);
  fx_done(&f);
}

static void test_output_kept_is_last_8k(void)
{
  Fx f;
  fx_init(&f);
  /* 10000 bytes without a newline, then "END", then failure. */
  T_CHECK(!run(&f, "command = \"head -c 10000 /dev/zero | tr '\\\\0' x; "
                   "printf END; exit 1\"\n"));
  const char *dt = detail(&f);
  const char *out = strstr(dt, "Output: ");
  T_CHECK(out != NULL);
  if (out) {
    T_EQ_INT(strlen(out + 8), 8192);
    T_CHECK(strcmp(out + 8 + 8189, "END") == 0);
  }
  fx_done(&f);
}

static void test_interpreter(void)
{
  Fx f;
  fx_init(&f);
  T_CHECK(run(&f, "command = \"not really an interpreter\"\n"
                  "interpreter = [\"echo\", \"is\"]\n"));
  T_EQ_INT(f.nlines, 2);
  T_EQ_STR(f.lines[0],
           "Executing: [\"echo\" \"is\" \"not really an interpreter\"]");
  T_EQ_STR(f.lines[1], "is not really an interpreter");
  fx_done(&f);
}

static void test_interpreter_missing(void)
{
  Fx f;
  fx_init(&f);
  T_CHECK(!run(&f, "command = \"x\"\n"
                   "interpreter = [\"no-such-interp-cairn\"]\n"));
  T_EQ_STR(detail(&f), "Error running command 'x': exec: "
                       "\"no-such-interp-cairn\": executable file not found "
                       "in $PATH. Output: ");
  fx_done(&f);
  fx_init(&f);
  T_CHECK(!run(&f, "command = \"x\"\n"
                   "interpreter = [\"/no/such/sh\"]\n"));
  T_EQ_STR(detail(&f), "Error running command 'x': fork/exec /no/such/sh: "
                       "no such file or directory. Output: ");
  fx_done(&f);
}

static void test_environment(void)
{
  Fx f;
  fx_init(&f);
  setenv("CAIRN_PRV_TEST", "outer", 1);
  T_CHECK(run(&f, "command = \"echo $FOO $BAR $BAZ $CAIRN_PRV_TEST\"\n"
                  "environment = {\n"
                  "  FOO = \"BAR\"\n  BAR = 1\n  BAZ = true\n"
                  "  GONE = null\n}\n"));
  T_EQ_STR(f.lines[1], "BAR 1 true outer");
  fx_done(&f);
  fx_init(&f);
  T_CHECK(run(&f, "command = \"echo $CAIRN_PRV_TEST\"\n"
                  "environment = { CAIRN_PRV_TEST = \"inner\" }\n"));
  T_EQ_STR(f.lines[1], "inner");
  fx_done(&f);
  unsetenv("CAIRN_PRV_TEST");
}

static void test_working_dir(void)
{
  Fx f;
  fx_init(&f);
  char tmpl[] = "/tmp/cairn-prv-XXXXXX";
  char *dir = mkdtemp(tmpl);
  T_CHECK(dir != NULL);
  if (!dir)
    return;
  char body[256];
  snprintf(body, sizeof body,
           "command = \"pwd -P\"\nworking_dir = \"%s\"\n", dir);
  T_CHECK(run(&f, body));
  char real[4096];
  T_CHECK(realpath(dir, real) != NULL);
  T_EQ_STR(f.lines[1], real);
  rmdir(dir);
  fx_done(&f);

  fx_init(&f);
  T_CHECK(!run(&f, "command = \"pwd\"\nworking_dir = \"/no/such/dir\"\n"));
  T_EQ_STR(detail(&f), "Error running command 'pwd': chdir /no/such/dir: "
                       "no such file or directory. Output: ");
  fx_done(&f);
}

static void test_sensitive_suppression(void)
{
  Fx f;
  fx_init(&f);
  T_CHECK(run(&f, "command = \"echo ${var.secret}; echo two\"\n"));
  T_EQ_INT(f.nlines, 3);
  for (int i = 0; i < f.nlines; i++)
    T_EQ_STR(f.lines[i], "(output suppressed due to sensitive value in "
                         "config)");
  fx_done(&f);
  /* A sensitive environment value suppresses everything too. */
  fx_init(&f);
  T_CHECK(run(&f, "command = \"echo hi\"\n"
                  "environment = { S = var.secret }\n"));
  T_EQ_INT(f.nlines, 2);
  T_EQ_STR(f.lines[0], "(output suppressed due to sensitive value in "
                       "config)");
  fx_done(&f);
}

static void test_quiet(void)
{
  Fx f;
  fx_init(&f);
  T_CHECK(run(&f, "command = \"echo shh\"\nquiet = true\n"));
  T_EQ_INT(f.nlines, 2);
  T_EQ_STR(f.lines[0], "local-exec: Executing: Suppressed by quiet=true");
  T_EQ_STR(f.lines[1], "shh");
  fx_done(&f);
}

static void test_echo_quoting(void)
{
  Fx f;
  fx_init(&f);
  T_CHECK(run(&f, "command = \"true \\\"q\\\"\\tx\\\\ é\"\n"));
  T_EQ_STR(f.lines[0],
           "Executing: [\"/bin/sh\" \"-c\" \"true \\\"q\\\"\\tx\\\\ é\"]");
  fx_done(&f);
}

static void test_stop(void)
{
  Fx f;
  fx_init(&f);
  f.stop_on = "started";
  T_CHECK(!run(&f, "command = \"echo started; exec sleep 30\"\n"));
  T_EQ_STR(detail(&f), "Error running command 'echo started; exec sleep 30': "
                       "signal: killed. Output: started\n");
  fx_done(&f);
  fx_init(&f);
  f.stop = 1;
  T_CHECK(!run(&f, "command = \"echo never\"\n"));
  T_EQ_STR(detail(&f), "Error running command 'echo never': context "
                       "canceled. Output: ");
  T_EQ_INT(f.nlines, 1);
  fx_done(&f);
}

/* ---- Decoding errors --------------------------------------------------- */

static void test_missing_command(void)
{
  Fx f;
  fx_init(&f);
  PrvLocalExec x;
  T_CHECK(!decode(&f, "working_dir = \"/tmp\"\n", false, &x));
  T_EQ_STR(summary(&f), "Missing required argument");
  T_EQ_STR(detail(&f), "The argument \"command\" is required, but no "
                       "definition was found.");
  fx_done(&f);
  fx_init(&f);
  T_CHECK(!decode(&f, "command = null\n", false, &x));
  T_EQ_STR(summary(&f), "Invalid local-exec provisioner configuration");
  fx_done(&f);
  fx_init(&f);
  T_CHECK(!run(&f, "command = \"\"\n"));
  T_EQ_STR(summary(&f), "Invalid local-exec provisioner command");
  T_EQ_STR(detail(&f), "The command must be a non-empty string.");
  T_EQ_INT(f.nlines, 0);
  fx_done(&f);
}

static void test_bad_arguments(void)
{
  Fx f;
  fx_init(&f);
  PrvLocalExec x;
  T_CHECK(!decode(&f, "command = \"x\"\nfoo = 1\n", false, &x));
  T_EQ_STR(summary(&f), "Unsupported argument");
  fx_done(&f);
  fx_init(&f);
  T_CHECK(!decode(&f, "command = \"x\"\ninterpreter = \"sh\"\n", false, &x));
  T_EQ_STR(summary(&f), "Incorrect attribute value type");
  fx_done(&f);
  fx_init(&f);
  T_CHECK(!decode(&f, "command = [\"x\"]\n", false, &x));
  T_EQ_STR(summary(&f), "Incorrect attribute value type");
  fx_done(&f);
}

static void test_unknown(void)
{
  Fx f;
  fx_init(&f);
  PrvLocalExec x;
  T_CHECK(decode(&f, "command = \"echo ${var.unk}\"\n", true, &x));
  T_EQ_INT(f.d.errors, 0);
  fx_done(&f);
  fx_init(&f);
  T_CHECK(!decode(&f, "command = \"echo ${var.unk}\"\n", false, &x));
  T_EQ_STR(summary(&f), "Configuration contains unknown value");
  fx_done(&f);
}

static void test_check_types(void)
{
  Fx f;
  fx_init(&f);
  CfgProvisioner p;
  memset(&p, 0, sizeof p);
  p.type = "local-exec";
  T_CHECK(prv_check(&p, &f.d));
  p.type = "remote-exec";
  T_CHECK(!prv_check(&p, &f.d));
  T_EQ_STR(summary(&f), "Unsupported provisioner");
  p.type = "chef";
  T_CHECK(!prv_check(&p, &f.d));
  T_EQ_STR(f.d.tail->summary, "failed to instantiate provisioner \"chef\" "
                              "to obtain schema: unavailable provisioner "
                              "\"chef\"");
  T_EQ_INT(f.d.errors, 2);
  fx_done(&f);
}

/* ---- UI rendering ------------------------------------------------------ */

typedef struct UiOut {
  char text[256];
  int n;
  int nulls;
} UiOut;

static void ui_emit(void *ctx, const char *line)
{
  UiOut *o = ctx;
  if (!line) {
    o->nulls++;
    return;
  }
  size_t len = strlen(o->text);
  snprintf(o->text + len, sizeof o->text - len, "[%s]", line);
  o->n++;
}

static void test_ui_lines(void)
{
  Arena a;
  arena_init(&a, 0);
  UiOut o;
  memset(&o, 0, sizeof o);
  prv_ui_lines("10%\r20%\r100%  ", ui_emit, &o, &a);
  T_EQ_STR(o.text, "[10%][20%][100%]");
  memset(&o, 0, sizeof o);
  prv_ui_lines("   \t", ui_emit, &o, &a);
  T_EQ_INT(o.n, 0);
  T_EQ_INT(o.nulls, 1);
  memset(&o, 0, sizeof o);
  prv_ui_lines("  indented  ", ui_emit, &o, &a);
  T_EQ_STR(o.text, "[  indented]");
  arena_release(&a);
}

int main(void)
{
  signal(SIGPIPE, SIG_IGN);
  T_RUN(test_echo);
  T_RUN(test_multi_line);
  T_RUN(test_no_trailing_newline);
  T_RUN(test_exit_code);
  T_RUN(test_output_kept_is_last_8k);
  T_RUN(test_interpreter);
  T_RUN(test_interpreter_missing);
  T_RUN(test_environment);
  T_RUN(test_working_dir);
  T_RUN(test_sensitive_suppression);
  T_RUN(test_quiet);
  T_RUN(test_echo_quoting);
  T_RUN(test_stop);
  T_RUN(test_missing_command);
  T_RUN(test_bad_arguments);
  T_RUN(test_unknown);
  T_RUN(test_check_types);
  T_RUN(test_ui_lines);
  return t_done("test_provisioner");
}
