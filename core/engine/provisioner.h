/*
** provisioner: Terraform's built-in `local-exec` provisioner
** (internal/builtin/provisioners/local-exec) as functions the engine calls.
** The engine owns ordering (after create, before destroy), `when`,
** `on_failure`, tainting and the `null_resource.a (local-exec): ` prefix;
** this module owns the block's arguments, the child process and the
** messages.  See docs/provisioners.md.
**
** Three steps:
** - prv_check(): the provisioner type is one cairn runs (validation time,
**   no evaluation).
** - prv_decode(): the block body against local-exec's schema (command
**   required; interpreter, working_dir, environment, quiet optional) with
**   the engine's EvalCtx (which resolves self, var., count. ...), giving
**   HCL's "Unsupported argument" / "Missing required argument" /
**   "Incorrect attribute value type" diagnostics.  At validate time
**   (allow_unknown) unknown values are fine; at apply they are an error.
** - prv_run(): runs the command with posix_spawn (never a shell of our
**   own: the interpreter, default ["/bin/sh", "-c"], receives the command
**   as its last argument), stdin from /dev/null, stdout and stderr merged
**   through one pipe and delivered line by line to a callback.
**
** Output contract (what the callback receives, in order):
**   "Executing: [\"/bin/sh\" \"-c\" \"echo hello\"]"   (Go's %q of the argv)
**   or "local-exec: Executing: Suppressed by quiet=true" when quiet = true,
**   then every line of output without its "\n" (a last line without a
**   newline is delivered at EOF).  When the decoded configuration holds a
**   sensitive value anywhere, every one of these messages, the echo
**   included, is replaced by "(output suppressed due to sensitive value in
**   config)", as Terraform's applyProvisioners does.  Terraform's UI then
**   trims trailing white space and drops empty lines; that is the
**   caller's rendering (prv_ui_line helps).
**
** Failure: a non-zero exit, a signal, a missing interpreter or working
** directory give Terraform's "local-exec provisioner error" with "Error
** running command 'CMD': exit status 1. Output: LAST_8_KIB".  An empty
** command gives "Invalid local-exec provisioner command".
**
** Interrupts: *stop (may be NULL) is polled at least every 100 ms; when it
** becomes non-zero the child gets SIGKILL (Go's exec.CommandContext on a
** cancelled context), is reaped, output still buffered in the pipe is
** delivered, and the error says "signal: killed".  Processes the command
** started in the background keep running, as under Terraform.
**
** Threads: no global state; several provisioners may run at once from
** different threads (the pipe is close-on-exec, so one child never holds
** another's pipe open).  Memory: everything from the caller's arena, the
** child's argv and envp included; diagnostics are copied into d.
*/
#ifndef CAIRN_PROVISIONER_H
#define CAIRN_PROVISIONER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "config/config.h"
#include "lang/eval.h"
#include "providers/provider.h"

/* A decoded local-exec block, ready to run.  Strings are NUL-terminated
** copies in the decoding arena. */
typedef struct PrvLocalExec {
  const char *command;
  const char **interpreter;   /* non-null elements of `interpreter`; NULL
                                 when unset or empty (the default) */
  uint32_t ninterpreter;
  bool interpreter_given;     /* a non-empty list was given */
  const char *working_dir;    /* NULL: the current directory */
  const char **env_names;     /* `environment`, sorted by name, null */
  const char **env_values;    /*  values skipped */
  uint32_t nenv;
  bool quiet;
  bool sensitive;             /* some argument was marked sensitive */
  bool ephemeral;             /* some argument was marked ephemeral */
  bool nul_arg;               /* command/interpreter/working_dir hold a
                                 NUL byte: the spawn fails, as in Go */
  bool nul_env;               /* an environment entry holds a NUL byte */
  SrcRange range;             /* the provisioner block, for diagnostics */
} PrvLocalExec;

/* Receives one message; text is only valid during the call. */
typedef void (*PrvLineFn)(void *ctx, const char *text);

/* The schema of local-exec's body (for dec_body_refs and dec_body). */
const ProvBlockSchema *prv_local_exec_schema(void);

/* True when cairn can run provisioners of p's type; otherwise adds an
** error naming the type at the block ("local-exec" is the only one:
** "file" and "remote-exec" need connections cairn does not make). */
bool prv_check(const CfgProvisioner *p, Diags *d);

/* Decodes p's body with ctx (results and diagnostics go to ctx->arena and
** ctx->diags).  allow_unknown: validation, where unknown values are
** expected; otherwise an unknown argument is an error.  Returns false
** with diagnostics on error; *out is then unusable. */
bool prv_decode(EvalCtx *ctx, const CfgProvisioner *p, bool allow_unknown,
                PrvLocalExec *out);

/* Runs x, delivering messages to line(line_ctx, text) as described
** above.  addr (may be NULL) is put on the diagnostics ("with ADDR,").
** scratch holds argv, envp and line buffers; the caller may rewind it
** afterwards.  Returns true when the command exited with status 0. */
bool prv_run(Arena *scratch, const PrvLocalExec *x, const char *addr,
             PrvLineFn line, void *line_ctx, volatile sig_atomic_t *stop,
             Diags *d);

/* Terraform's UI rendering of one provisioner message (views.UiHook's
** ProvisionOutput): each line of msg with trailing white space removed,
** empty lines dropped; calls emit for each remaining line.  For callers
** that print "ADDR (local-exec): LINE". */
void prv_ui_lines(const char *msg, void (*emit)(void *ctx, const char *line),
                  void *ctx, Arena *scratch);

#endif
