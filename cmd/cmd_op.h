/*
** cmd_op: what plan, apply, destroy, refresh and show share: the
** operation flags (-var, -var-file, -state, -lock, -parallelism, ...),
** loading configuration, variables and state under the lock, the engine,
** progress lines (human or -json), and the approval prompt.
**
** An Op lives for one command in the Cli arena.  op_finish() unlocks the
** state on every path; commands call it before returning.
*/
#ifndef CAIRN_CMD_OP_H
#define CAIRN_CMD_OP_H

#include <signal.h>
#include <stdbool.h>

#include "cli.h"
#include "config/config.h"
#include "engine/engine.h"
#include "engine/vars.h"
#include "net/provreg.h"
#include "state/stmgr.h"
#include "views/jsonui.h"

typedef struct Op {
  Cli *cli;
  Arena *a;
  Diags d;
  /* flags */
  CliList var_items;          /* -var and -var-file together, in order */
  CliList replace;
  CliList target;
  const char *state_path;
  const char *state_out;
  const char *backup;
  const char *lock_timeout;
  const char *out_path;
  const char *config;         /* -config: host configuration file */
  bool lock;
  bool refresh;
  bool input;
  bool json;
  bool no_color;
  bool compact_warnings;
  bool auto_approve;
  bool detailed;
  bool destroy;
  bool refresh_only;
  int parallelism;
  long lock_timeout_ms;        /* from the host configuration, or 0 */
  VarsArg *vargs;
  uint32_t nvargs;
  /* loaded */
  CfgTree *tree;             /* the module tree (root and calls) */
  CfgModule *m;              /* tree->m: the root module */
  const char *workspace;
  StMgr mgr;
  ProvReg reg;
  bool reg_ready;
  bool mgr_ready;
  State *state;
  Engine *e;
  PlVariable *vars;
  uint32_t nvars;
  /* output */
  JUi ui;
  Buf uibuf;
  uint32_t added, changed, destroyed, imported;
  uint32_t invoked, invoke_failed;   /* actions (docs/actions.md) */
  CliList invoke;                    /* -invoke=ADDR */
} Op;

/* The flags every operation takes, for cli_parse_flags; *n receives the
** count.  kind selects extras: 'p' plan, 'a' apply/destroy, 'r' refresh. */
const CliFlag *op_flags(Op *op, char kind, int *n);

/* Sets defaults; call before parsing flags. */
void op_init(Op *op, Cli *cli);

/* Parses argv with op_flags(kind) plus the -var/-var-file order.  On a
** usage error prints it and returns false (exit 2). */
bool op_parse(Op *op, char kind, int argc, char **argv, int *rest);

/* Loads the configuration in ".", collects variables (prompting when
** -input and a terminal), locks and loads the state.  False after
** printing diagnostics. */
bool op_load(Op *op, bool need_vars);

/* Creates the engine for op->m and op->state (opts from the flags). */
bool op_engine(Op *op, PlMode mode);

/* Prints and clears op->d (human or JSON). */
void op_flush_diags(Op *op);

/* Asks the approval question; true when the answer is exactly "yes". */
bool op_approve(Op *op, const char *question, const char *detail);

/* Unlocks the state and closes the engine.  Returns status unchanged. */
int op_finish(Op *op, int status);

/* Prints root outputs of s after apply ("Outputs:" block). */
void op_print_outputs(Op *op, const State *s);

/* The SIGINT flag the engine polls. */
extern volatile sig_atomic_t op_interrupted;

#endif
