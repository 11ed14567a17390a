/*
** proc: running a child program to completion the way Go's os/exec does,
** for everything in cairn that starts one and waits for it: the
** local-exec provisioner (core/engine/provisioner.c) and the built-in
** providers' `data external` and `data local_command`
** (core/providers/provider_run.c).  Plugins, which keep running after
** their start, have their own launcher (net/plugin.c).
**
** Contract of proc_run():
** - Before starting, Go's checks in Go's order: the working directory
**   must exist ("chdir DIR: no such file or directory"), the program
**   must be executable ("fork/exec PATH: permission denied").  A spawn
**   implemented with fork (valgrind, old libcs) would report a failed
**   exec only as exit status 127, hence the explicit check.
** - The child gets stdin from the given bytes (or /dev/null), stdout and
**   stderr through pipes (one pipe for both when merge is set, so their
**   order is kept, as a shell's 2>&1), envp (NULL: cairn's environment)
**   and the default disposition and an empty mask for the signals cairn
**   ignores or catches.  Pipes are close-on-exec, so several runs on
**   different threads never hold each other's pipes open.
** - Output goes to sink(ctx, stream, bytes, n) as it arrives (stream 1
**   or 2; 1 only when merged); reading ends when every writer has closed
**   the pipes (a background process holding them keeps the run waiting,
**   as it keeps Go's).
** - stop(stop_ctx) is polled at least every 20 ms; once it returns true
**   the child gets SIGKILL (exec.CommandContext on a cancelled context),
**   is reaped, what the pipes still hold is delivered without waiting for
**   writers it left behind, and killed is set.
** - Memory (texts) from a; nothing is kept after the call.
*/
#ifndef CAIRN_PROC_H
#define CAIRN_PROC_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

/* Receives n bytes of output from stream 1 (stdout) or 2 (stderr). */
typedef void (*ProcSinkFn)(void *ctx, int stream, const char *p, size_t n);
/* True once the run must be cancelled. */
typedef bool (*ProcStopFn)(void *ctx);

typedef struct ProcSpec {
  const char *path;           /* the program, already looked up */
  const char *const *argv;    /* NULL-terminated; argv[0] the name given */
  char *const *envp;          /* NULL: cairn's own environment */
  const char *dir;            /* working directory; NULL or "": current */
  const char *in;             /* stdin bytes; NULL: /dev/null */
  size_t inlen;
  bool merge;                 /* stderr into stdout's pipe */
  ProcSinkFn sink;            /* may be NULL: output discarded */
  void *sink_ctx;
  ProcStopFn stop;            /* may be NULL: never cancelled */
  void *stop_ctx;
} ProcSpec;

typedef struct ProcResult {
  bool started;               /* false: see error (and pipe_errno) */
  int pipe_errno;             /* not started because pipe() failed */
  bool killed;                /* stop() asked for it */
  int status;                 /* waitpid status once started */
  int wait_errno;             /* waitpid failed (SIGCHLD ignored by
                                 cairn's parent): status is 0 */
  const char *error;          /* Go's text: "chdir x: ...", "fork/exec x:
                                 ...", "pipe: ...", "exit status 1",
                                 "signal: killed", "wait: ..."; NULL when
                                 the program exited with status 0 */
} ProcResult;

/* Runs s as described above; the outcome is in *r.  Returns true when the
** program exited with status 0 and was not killed. */
bool proc_run(Arena *a, const ProcSpec *s, ProcResult *r);

/* exec.LookPath: a name with a '/' is used as given once it is an
** executable file; otherwise the first executable entry of $PATH (an empty
** entry is the current directory).  NULL with Go's error text in *err
** ("exec: \"x\": executable file not found in $PATH").  Result in a. */
const char *proc_look_path(Arena *a, const char *file, const char **err);

/* Go's text for an errno (strerror's, first letter lower-cased), in a. */
const char *proc_errtext(Arena *a, int err);

/* os.ProcessState.String() for a waitpid status ("exit status 2",
** "signal: killed", "signal: segmentation fault (core dumped)"), in a. */
const char *proc_status_text(Arena *a, int status);

#endif
