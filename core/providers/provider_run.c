/*
** provider_run: running a local program for the built-in providers that
** do (data external, data local_command): core/base/proc.c with stdout
** and stderr collected apart and the provider's stop flag as the
** cancellation (exec.CommandContext after StopProvider cancels the
** request context).  See provider.h.
*/
#include "provider.h"

#include <string.h>

#include "base/proc.h"

const char *prov_look_path(Arena *a, const char *file, const char **err)
{
  return proc_look_path(a, file, err);
}

const char *prov_cmd_string(Arena *a, const ProvRun *r)
{
  Buf b;
  buf_init(&b, a);
  buf_puts(&b, r->path);
  for (int i = 1; r->argv[i]; i++) {
    buf_putc(&b, ' ');
    buf_puts(&b, r->argv[i]);
  }
  return buf_str(&b);
}

static void collect(void *ctx, int stream, const char *p, size_t n)
{
  Buf *bufs = ctx;
  buf_put(&bufs[stream - 1], p, n);
}

static bool stopping(void *ctx)
{
  Prov *p = ctx;
  return atomic_load(&p->stopping);
}

void prov_run(Arena *a, Prov *p, const ProvRun *r, ProvRunResult *res)
{
  memset(res, 0, sizeof *res);
  Buf bufs[2];
  buf_init(&bufs[0], a);
  buf_init(&bufs[1], a);
  ProcSpec s = {.path = r->path, .argv = r->argv, .envp = r->envp,
                .dir = r->dir, .in = r->in, .inlen = r->inlen,
                .sink = collect, .sink_ctx = bufs,
                .stop = stopping, .stop_ctx = p};
  ProcResult pr;
  proc_run(a, &s, &pr);
  res->out = buf_str(&bufs[0]);
  res->outlen = bufs[0].len;
  res->err = buf_str(&bufs[1]);
  res->errlen = bufs[1].len;
  res->started = pr.started;
  res->status = pr.status;
  if (pr.killed) {
    res->stopped = true;
    res->error = "context canceled";
  } else if (!pr.wait_errno) {
    /* No status to read (cairn's parent ignored SIGCHLD): taken as a
    ** success, since Go's runtime, which always handles SIGCHLD, would
    ** have read the status instead of failing. */
    res->error = pr.error;
  }
}
