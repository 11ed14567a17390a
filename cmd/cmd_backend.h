/*
** cmd_backend: which backend the configuration in the working directory
** names, for every command that touches state.
**
** Terraform reads the root module's `terraform { backend "TYPE" {...} }`
** at every such command; so does cairn.  A type cairn does not implement
** is Terraform's error ("Unsupported backend type" at init and validate,
** "Invalid backend type" elsewhere, both with the detail `There is no
** backend type named "TYPE".` and the type label as subject), never a
** silent fallback to local state.  The local backend's `path` and
** `workspace_dir` arguments are honoured (docs/backends.md).
**
** The result is cached in cli->backend for the rest of the command.
*/
#ifndef CAIRN_CMD_BACKEND_H
#define CAIRN_CMD_BACKEND_H

#include <stdbool.h>

#include "cli.h"
#include "config/config.h"
#include "state/backend.h"

typedef enum CmdBackendPhase {
  CMD_BACKEND_INIT,      /* init and validate: "Unsupported backend type" */
  CMD_BACKEND_USE        /* every other command: "Invalid backend type" */
} CmdBackendPhase;

/* The backend of the root module m (the caller's loaded root module), or,
** when m is NULL, of the root module in "." read here (its configuration
** errors are returned too, as Terraform's commands report them).  NULL
** with diagnostics in d. */
const Backend *cmd_backend(Cli *cli, const CfgModule *m,
                           CmdBackendPhase phase, Diags *d);

#endif
