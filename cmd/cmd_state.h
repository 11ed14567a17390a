/*
** cmd_state.h: helpers shared by the state-touching commands (`state *`,
** `workspace *`, `force-unlock`), defined in cmd_state.c.
**
** They keep the rules of docs/state-commands.md in one place: which file a
** command works on (-state, else the current workspace's state), Go's
** duration syntax for -lock-timeout, locking with the "Acquiring state
** lock" notice, and Terraform's yes/no prompts on stdin.  Strings returned
** live in cli->arena.  Nothing here exits; errors become diagnostics.
*/
#ifndef CAIRN_CMD_STATE_H
#define CAIRN_CMD_STATE_H

#include <stdbool.h>

#include "cli.h"
#include "state/stmgr.h"

/* Parses a Go time.Duration ("0", "300ms", "1m30s", "1.5h"; units ns us
** µs ms s m h) into milliseconds (rounded down).  False on bad syntax,
** a negative or an absurdly large value. */
bool cmd_parse_duration(const char *s, long *ms);

/* Checks a -lock-timeout value; on error adds Go's flag error
** ("invalid value ... for flag -lock-timeout: parse error") under
** "Failed to parse command-line flags". */
bool cmd_lock_timeout(const char *text, long *ms, Diags *d);

/* The state file a command works on: explicit (from -state) when not NULL
** or "", else the current workspace's state path.  NULL with a diagnostic
** when TF_WORKSPACE holds an invalid name. */
const char *cmd_state_path(Cli *cli, const char *explicit_path, Diags *d);

/* Takes m's lock for operation unless lock is false; prints Terraform's
** "Acquiring state lock" notice when it takes a while. */
bool cmd_state_lock(Cli *cli, StMgr *m, bool lock, const char *operation,
                    long timeout_ms, Diags *d);

/* Releases the lock (if held) and closes m, rendering any error. */
void cmd_state_close(Cli *cli, StMgr *m);

/* Prints prompt (no newline is added) and reads one line from stdin,
** without its line ending.  NULL at end of input before any byte. */
const char *cmd_ask(Cli *cli, const char *prompt);

/* The backup path the state-changing `state` subcommands use by default:
** "<out>.<unix time>.backup" (Terraform's StateMeta).  "-" or "" given
** explicitly also mean this default; backups cannot be turned off. */
const char *cmd_state_backup(Cli *cli, const char *out, const char *given);

/* strerror(err) the way Go prints system errors ("no such file or
** directory"): Terraform's messages embed those. */
const char *cmd_errstr(Cli *cli, int err);

/* True when the state holds no resources and no outputs (Terraform's
** State.Empty). */
bool cmd_state_empty(const State *s);

#endif
