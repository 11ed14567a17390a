/*
** plugin: starting a Terraform provider plugin process and its go-plugin
** handshake, as Terraform does it.
**
** plugin_start runs the binary with Terraform's environment (the magic
** cookie, PLUGIN_PROTOCOL_VERSIONS, PLUGIN_MIN_PORT/PLUGIN_MAX_PORT, and
** PLUGIN_CLIENT_CERT when a client certificate is given, for AutoMTLS) on
** top of cairn's own, and reads the handshake line
** CORE|APP|NETWORK|ADDRESS|PROTOCOL[|CERT] from its stdout within a
** timeout.  The line is checked: core version 1, APP one of the versions
** offered (a plugin that speaks only 5 answers 5 even when 5,6 were
** offered), NETWORK unix or tcp, PROTOCOL grpc; CERT, when present, is the
** server's certificate (base64 DER) to pin.
**
** After the handshake a reader thread drains the plugin's stdout and
** stderr: each line, with the sensitive values cairn sent redacted
** (plugin_redact_add), goes to the log hook (CAIRN_LOG, trace level,
** prefixed with the plugin's name), and the last PLUGIN_TAIL_LINES lines
** of stderr are kept for error reports (a plugin that crashes mid-call).
**
** Failures are diagnostics, never prints: a missing or non-executable
** binary, a plugin that exits before the handshake (a wrong magic cookie
** makes it print "This binary is a plugin..." and exit: its output is in
** the detail), a timeout, a line that is not a handshake.  The process is
** then killed and reaped.
**
** Memory and threads: a PluginProc lives in the arena given to
** plugin_start until plugin_stop, which must be called exactly once for a
** started plugin (it joins the reader thread and reaps the process).
** plugin_tail may be called from any thread.
*/
#ifndef CAIRN_PLUGIN_H
#define CAIRN_PLUGIN_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

#define PLUGIN_MAGIC_COOKIE_KEY "TF_PLUGIN_MAGIC_COOKIE"
#define PLUGIN_MAGIC_COOKIE \
  "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"
#define PLUGIN_TAIL_LINES 20
#define PLUGIN_LINE_MAX 4096

typedef struct PluginLaunch {
  const char *path;          /* the plugin binary */
  const char *name;          /* for logs and messages ("hashicorp/null") */
  const int *versions;       /* protocol versions offered, e.g. {5, 6} */
  int nversions;
  const char *client_cert;   /* PEM for PLUGIN_CLIENT_CERT, or NULL */
  int timeout_ms;            /* handshake timeout; 0: 60 s (go-plugin's) */
  const char *magic_cookie;  /* NULL: Terraform's (tests pass a wrong one) */
  /* The sandbox (the gateway's; all zero for cairn's own plugins):
  ** env, when set, replaces cairn's environment ("NAME=VALUE", NULL-ended;
  ** the go-plugin variables are added); dir is the working directory;
  ** with set_ids the child drops its supplementary groups and switches to
  ** gid/uid before exec.  Any of them makes the launch fork+exec instead
  ** of posix_spawn (which cannot change ids). */
  const char *const *env;
  const char *dir;
  bool set_ids;
  uid_t uid;
  gid_t gid;
} PluginLaunch;

typedef struct PluginProc {
  pid_t pid;
  const char *name;
  int version;               /* the protocol version the plugin chose */
  bool unix_socket;          /* network "unix" (else "tcp") */
  const char *address;       /* socket path, or host:port */
  const char *server_cert;   /* base64 DER from the sixth field, or NULL */
  /* Private to plugin.c: */
  int out_fd, err_fd;
  pthread_t reader;
  pthread_mutex_t mu;
  char tail[PLUGIN_TAIL_LINES][256];
  int ntail, tail_next;
  bool exited;
  int status;
  char line[2][PLUGIN_LINE_MAX];   /* partial lines: stdout, stderr */
  size_t linelen[2];
} PluginProc;

/* Log hook for the plugin's output (set once by the CLI for CAIRN_LOG;
** called from reader threads, must be thread-safe). */
typedef void (*PluginLogFn)(void *ctx, const char *line);
void plugin_set_log(PluginLogFn fn, void *ctx);

/* Redaction of the plugins' output: every string registered here (the
** sensitive values cairn sends to a plugin, net/prov_plugin.c) is replaced
** by "(sensitive value)" in each stdout/stderr line before the line
** reaches the log hook or the kept stderr tail (which error reports
** show).  Process-wide, thread-safe; strings are copied; empty ones and
** ones longer than a line are ignored. */
void plugin_redact_add(const char *s, size_t n);

/* in[0..n) with every registered string replaced, NUL-terminated in out
** (cut to cap - 1 bytes).  Returns the length written. */
size_t plugin_redact(const char *in, size_t n, char *out, size_t cap);

/* Starts the plugin and completes the handshake.  On failure appends an
** error ("Failed to start provider plugin") to d and returns NULL with
** nothing left running. */
PluginProc *plugin_start(Arena *a, const PluginLaunch *l, Diags *d);

/* The last lines of the plugin's stderr, oldest first, one per line. */
void plugin_tail(PluginProc *p, Buf *out);

/* True (and *status set, as waitpid gives it) once the process exited. */
bool plugin_exited(PluginProc *p, int *status);

/* Waits up to grace_ms for the process to exit (after the caller asked it
** to, e.g. with GRPCController/Shutdown), then kills it; reaps it and
** joins the reader.  Returns the wait status. */
int plugin_stop(PluginProc *p, int grace_ms);

#endif
