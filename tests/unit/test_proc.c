/*
** test_proc: the child-process runner: output capture apart and merged,
** stdin, exit and signal texts, the checks before starting, PATH lookup
** and cancellation.  Runs real /bin/sh commands.
*/
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/proc.h"
#include "t.h"

typedef struct Out {
  Buf s[2];
  bool stop;
} Out;

static void sink(void *ctx, int stream, const char *p, size_t n)
{
  Out *o = ctx;
  buf_put(&o->s[stream - 1], p, n);
  /* Ask to stop once the first line arrived. */
  if (memchr(p, '\n', n))
    o->stop = true;
}

static bool want_stop(void *ctx)
{
  Out *o = ctx;
  return o->stop;
}

/* Runs /bin/sh -c script; returns proc_run's result. */
static bool sh(Arena *a, Out *o, const char *script, const char *in,
               bool merge, ProcResult *r)
{
  const char *argv[] = {"sh", "-c", script, NULL};
  buf_init(&o->s[0], a);
  buf_init(&o->s[1], a);
  o->stop = false;
  ProcSpec s = {.path = "/bin/sh", .argv = argv, .in = in,
                .inlen = in ? strlen(in) : 0, .merge = merge,
                .sink = sink, .sink_ctx = o};
  return proc_run(a, &s, r);
}

static void test_capture_apart(void)
{
  Arena a;
  arena_init(&a, 0);
  Out o;
  ProcResult r;
  T_CHECK(sh(&a, &o, "printf out; printf err >&2", NULL, false, &r));
  T_EQ_STR(buf_str(&o.s[0]), "out");
  T_EQ_STR(buf_str(&o.s[1]), "err");
  T_CHECK(r.started);
  T_CHECK(r.error == NULL);
  T_EQ_INT(WEXITSTATUS(r.status), 0);
  arena_release(&a);
}

static void test_merged_in_order(void)
{
  Arena a;
  arena_init(&a, 0);
  Out o;
  ProcResult r;
  T_CHECK(sh(&a, &o, "echo 1; echo 2 >&2; echo 3", NULL, true, &r));
  T_EQ_STR(buf_str(&o.s[0]), "1\n2\n3\n");
  T_EQ_INT(o.s[1].len, 0);
  arena_release(&a);
}

static void test_stdin(void)
{
  Arena a;
  arena_init(&a, 0);
  Out o;
  ProcResult r;
  /* Larger than a pipe's buffer, so writing and reading interleave. */
  Buf big;
  buf_init(&big, &a);
  for (int i = 0; i < 20000; i++)
    buf_puts(&big, "0123456789");
  T_CHECK(sh(&a, &o, "cat", buf_str(&big), false, &r));
  T_EQ_INT(o.s[0].len, 200000);
  T_CHECK(memcmp(o.s[0].p, big.p, big.len) == 0);
  /* No stdin: /dev/null. */
  T_CHECK(sh(&a, &o, "cat", NULL, false, &r));
  T_EQ_INT(o.s[0].len, 0);
  /* A program that does not read its stdin still succeeds. */
  T_CHECK(sh(&a, &o, "exit 0", buf_str(&big), false, &r));
  arena_release(&a);
}

static void test_exit_texts(void)
{
  Arena a;
  arena_init(&a, 0);
  Out o;
  ProcResult r;
  T_CHECK(!sh(&a, &o, "exit 3", NULL, false, &r));
  T_EQ_STR(r.error, "exit status 3");
  T_CHECK(!sh(&a, &o, "kill -TERM $$", NULL, false, &r));
  T_EQ_STR(r.error, "signal: terminated");
  T_CHECK(!sh(&a, &o, "kill -USR1 $$", NULL, false, &r));
  T_EQ_STR(r.error, "signal: user defined signal 1");
  T_EQ_STR(proc_status_text(&a, 0), "exit status 0");
  arena_release(&a);
}

static void test_before_start(void)
{
  Arena a;
  arena_init(&a, 0);
  const char *argv[] = {"x", NULL};
  ProcResult r;
  ProcSpec s = {.path = "/nonexistent/x", .argv = argv};
  T_CHECK(!proc_run(&a, &s, &r));
  T_CHECK(!r.started);
  T_EQ_STR(r.error, "fork/exec /nonexistent/x: no such file or directory");
  /* The directory is checked first, as Go does. */
  s.dir = "/nonexistent-dir";
  T_CHECK(!proc_run(&a, &s, &r));
  T_EQ_STR(r.error, "chdir /nonexistent-dir: no such file or directory");
  s.path = "/etc/passwd";
  s.dir = NULL;
  T_CHECK(!proc_run(&a, &s, &r));
  T_EQ_STR(r.error, "fork/exec /etc/passwd: permission denied");
  arena_release(&a);
}

static void test_dir(void)
{
  Arena a;
  arena_init(&a, 0);
  Out o;
  buf_init(&o.s[0], &a);
  buf_init(&o.s[1], &a);
  const char *argv[] = {"pwd", NULL};
  ProcResult r;
  ProcSpec s = {.path = "/bin/pwd", .argv = argv, .dir = "/",
                .sink = sink, .sink_ctx = &o};
  T_CHECK(proc_run(&a, &s, &r));
  T_EQ_STR(buf_str(&o.s[0]), "/\n");
  arena_release(&a);
}

static void test_look_path(void)
{
  Arena a;
  arena_init(&a, 0);
  const char *err = NULL;
  const char *p = proc_look_path(&a, "sh", &err);
  T_CHECK(p && p[0] && strcmp(p + strlen(p) - 3, "/sh") == 0);
  T_CHECK(proc_look_path(&a, "no-such-program-cairn", &err) == NULL);
  T_EQ_STR(err, "exec: \"no-such-program-cairn\": executable file not "
                "found in $PATH");
  T_CHECK(proc_look_path(&a, "./no-such\tprog", &err) == NULL);
  T_EQ_STR(err, "exec: \"./no-such\\tprog\": stat ./no-such\tprog: no such "
                "file or directory");
  T_CHECK(proc_look_path(&a, "/etc/passwd", &err) == NULL);
  T_EQ_STR(err, "exec: \"/etc/passwd\": permission denied");
  T_EQ_STR(proc_look_path(&a, "/bin/sh", &err), "/bin/sh");
  arena_release(&a);
}

static void test_stop(void)
{
  Arena a;
  arena_init(&a, 0);
  Out o;
  buf_init(&o.s[0], &a);
  buf_init(&o.s[1], &a);
  o.stop = false;
  /* The background sleep holds the pipe: the run must not wait for it. */
  const char *argv[] = {"sh", "-c", "echo started; sleep 10 & sleep 10", NULL};
  ProcResult r;
  ProcSpec s = {.path = "/bin/sh", .argv = argv, .merge = true,
                .sink = sink, .sink_ctx = &o,
                .stop = want_stop, .stop_ctx = &o};
  T_CHECK(!proc_run(&a, &s, &r));
  T_CHECK(r.killed);
  T_EQ_STR(r.error, "signal: killed");
  T_EQ_STR(buf_str(&o.s[0]), "started\n");
  arena_release(&a);
}

int main(void)
{
  signal(SIGPIPE, SIG_IGN);
  T_RUN(test_capture_apart);
  T_RUN(test_merged_in_order);
  T_RUN(test_stdin);
  T_RUN(test_exit_texts);
  T_RUN(test_before_start);
  T_RUN(test_dir);
  T_RUN(test_look_path);
  T_RUN(test_stop);
  return t_done("proc");
}
