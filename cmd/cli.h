/*
** cli: the command-line layer's shared context, flag parsing and output.
**
** Every command is a CmdEntry in its own file cmd/cmd_<name>.c; the table
** of entries is in cmd/main.c.  A command's run function gets the Cli
** context and its own arguments (after the command name) and returns the
** process exit status: 0 success, 1 error, 2 usage error (bad flags,
** unknown command); plan's -detailed-exitcode adds 2 = changes present.
**
** Output: cli_out() writes to stdout, cli_err() to stderr; cli_err flushes
** stdout first so that the two streams interleave in program order when
** they go to the same file.  Diagnostics are rendered here, never deeper.
*/
#ifndef CAIRN_CLI_H
#define CAIRN_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "engine/vars.h"
#include "state/backend.h"

typedef struct Cli {
  Arena *arena;          /* lives for the whole command */
  const char *argv0;     /* "cairn" */
  bool color;            /* stdout is a terminal and -no-color not given */
  bool stderr_tty;
  int width;             /* terminal width for wrapping, 0 = none */
  SrcFiles files;        /* sources for diagnostic snippets */
  Backend *backend;      /* the configuration's backend, once resolved
                            (cmd_backend.h) */
} Cli;

typedef struct CmdEntry {
  const char *name;      /* "version", "state list" */
  const char *synopsis;  /* one line for the main help */
  const char *help;      /* full help text for `cairn help NAME` */
  int (*run)(Cli *cli, int argc, char **argv);
  bool main_command;     /* listed under "Main commands" */
} CmdEntry;

/* ---- flags ------------------------------------------------------------
** Go's flag package rules, as Terraform uses them: -name, --name,
** -name=value, -name value (non-bool flags); bool flags accept -name,
** -name=true|false; parsing stops at "--" or the first non-flag argument.
*/
typedef enum FlagKind { FLAG_BOOL, FLAG_STRING, FLAG_INT, FLAG_LIST } FlagKind;

typedef struct CliFlag {
  const char *name;
  FlagKind kind;
  void *target;          /* bool*, const char**, int*, CliList* */
} CliFlag;

/* A FLAG_LIST target.  Several flags may share one list (-var and
** -var-file do): flags[i] names the flag items[i] came from, so their
** relative command-line order, which decides precedence, is kept. */
typedef struct CliList {
  const char **items;
  const char **flags;    /* parallel to items; NULL entries from
                            cli_list_add */
  int n;
  int cap;
} CliList;

/* Parses flags from argv[0..argc); on success stores the index of the
** first positional argument in *rest and returns true.  On error appends
** a diagnostic ("Failed to parse command-line flags") and returns false. */
bool cli_parse_flags(Cli *cli, int argc, char **argv, const CliFlag *flags,
                     int nflags, int *rest, Diags *d);

void cli_list_add(Arena *a, CliList *l, const char *item);
/* The same, recording the flag the item came from. */
void cli_list_add_from(Arena *a, CliList *l, const char *flag,
                       const char *item);
/* The -var / -var-file values of l (a list both flags fill) as VarsArgs,
** in command-line order; returns their number, *out in a. */
uint32_t cli_var_args(Arena *a, const CliList *l, VarsArg **out);

/* ---- output ------------------------------------------------------------ */
void cli_out(Cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_err(Cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_out_buf(Cli *cli, const Buf *b);
/* Renders every diagnostic (human form): errors to stderr, warnings to
** stdout, as Terraform does. */
void cli_diags(Cli *cli, const Diags *d);
/* -compact-warnings: when d holds only warnings, renders them as
** Terraform's DiagnosticWarningsCompact does (a "Warnings:" list of
** summaries, each with its first source line; warnings with the same
** summary and a source range are folded into the first, "(and N more)"),
** then the hint to run without the flag.  With any error it renders
** everything in full, since a warning may explain the error. */
void cli_diags_compact(Cli *cli, const Diags *d);

/* Closest known name within edit distance 3 (for "Did you mean"), or NULL. */
const char *cli_suggest(const char *given, const char *const *names, int n);
int cli_levenshtein(const char *a, const char *b);

/* ---- the command table (cmd/main.c) ---------------------------------- */
const CmdEntry *cli_find_command(const char *name);
const CmdEntry *const *cli_commands(int *n);
void cli_print_main_help(Cli *cli, FILE *f);

#endif
