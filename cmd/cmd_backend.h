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
** `workspace_dir` arguments are honoured (docs/backends.md).  init records
** the backend in DATA/terraform.tfstate as Terraform does.
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
** with diagnostics in d.  CMD_BACKEND_USE also checks the block against
** the record `init` wrote (DATA/terraform.tfstate): a block never
** initialised, changed since, or removed while a record names a backend
** is Terraform's "Backend initialization required" error, and the
** recorded configuration (which holds -backend-config values) is used.
** CMD_BACKEND_INIT (validate) checks the configuration alone. */
const Backend *cmd_backend(Cli *cli, const CfgModule *m,
                           CmdBackendPhase phase, Diags *d);

/* init's flags for the backend. */
typedef struct CmdBackendInit {
  const CliList *backend_config;  /* -backend-config items, in order */
  bool reconfigure;
  bool migrate;                   /* -migrate-state */
  bool force_copy;                /* -force-copy: "yes" to every prompt */
  bool input;                     /* -input (false: never prompt) */
} CmdBackendInit;

/* `init`: resolves the root module m's backend with -backend-config
** (KEY=VALUE, or a file of arguments, later items winning over earlier
** ones and over the block), compares it with the record in
** DATA/terraform.tfstate and, when it is new or changed and -reconfigure
** allows, records it (Terraform's BackendState: version 3, serial,
** lineage, backend {type, config, hash}).  A changed backend without
** -reconfigure or -migrate-state is Terraform's "Backend configuration
** changed".  -migrate-state (and a first configuration while a local state
** exists) copies the state from the previous backend to the new one with
** Terraform's prompts (docs/backends.md, "Migration").
** *configured tells whether the record was (re)written, so the caller
** prints Terraform's "Successfully configured the backend" text; *unset
** names the recorded backend type when -migrate-state has just moved the
** state back to the local backend (the configuration has no backend block
** any more), for Terraform's "Successfully unset the backend" text, else
** NULL (the "unconfiguring" line before the copy is printed here).  NULL with diagnostics. */
const Backend *cmd_backend_init(Cli *cli, const CfgModule *m,
                                const CmdBackendInit *o, bool *configured,
                                const char **unset, Diags *d);

/* Releases what the backend holds (the http backend's connection); main
** calls it once, after the command, before the arena goes. */
void cmd_backend_close(Cli *cli);

#endif
