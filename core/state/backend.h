/*
** backend: where a configuration's state lives (Terraform's backends).
**
** cairn implements the "local" backend: the default workspace's state is
** the file `path` (default terraform.tfstate), every other workspace's
** state is `workspace_dir`/NAME/terraform.tfstate (default
** terraform.tfstate.d), both relative to the working directory unless
** absolute, as Terraform's local backend keeps them.  The state files
** themselves are read, written, journaled and locked by stmgr; this
** module only says which file belongs to which workspace and manages the
** workspace directories (through workspace.h).
**
** A remote backend (the "http" type, net/be_http.h) has a StRemote: its
** one workspace, "default" (as Terraform's http backend), is kept in a
** local working copy under the data directory (path), which stmgr
** journals and locks as any state and pulls from / pushes to the remote
** (stmgr_bind_remote, docs/backends.md "Durability").  Other workspace
** names are Terraform's "workspaces not supported".
**
** A remote backend with workspaces of its own (the "pg" type,
** net/be_pg.h) has BeWorkspaces: every workspace NAME has its StRemote
** and its working copy ws_dir/NAME/terraform.tfstate, bound to it when
** be_state_path names it; remote and path are the selected workspace's.
**
** A configuration that names a backend type cairn does not implement is
** an error at every command that touches state (cmd/cmd_backend.c); there
** is no fallback to local state.
**
** Ownership: a Backend's strings are owned by the caller's arena; results
** are allocated in the arena passed in.  Errors are diagnostics.
*/
#ifndef CAIRN_BACKEND_H
#define CAIRN_BACKEND_H

#include <stdbool.h>

#include "base/arena.h"
#include "base/diag.h"
#include "stmgr.h"

/* A remote backend's workspaces (pg: rows of its table).  Each function
** reports failures as diagnostics; list gives "default" first, then the
** others sorted bytewise, in a. */
typedef struct BeWorkspaces {
  void *ctx;
  /* The store of workspace name (the same one each time for a name). */
  const StRemote *(*remote)(void *ctx, const char *name);
  bool (*list)(void *ctx, Arena *a, const char ***names, int *n, Diags *d);
  bool (*create)(void *ctx, const char *name, Diags *d);
  bool (*remove)(void *ctx, const char *name, Diags *d);
} BeWorkspaces;

typedef struct Backend {
  const char *type;           /* "local" */
  bool configured;            /* a backend block names it */
  const char *path;           /* local: the default workspace's state */
  const char *workspace_dir;  /* local: the other workspaces' directory */
  const StRemote *remote;     /* remote types: the store; path is the
                                 working copy */
  const BeWorkspaces *ws;     /* a remote type with workspaces, or NULL */
  const char *ws_dir;         /* ws: the working copies' directory */
  Arena *ws_arena;            /* ws: the process's, for bound paths */
} Backend;

/* A remote backend whose working copy is path (bound with
** stmgr_bind_remote by the caller). */
void be_remote(Backend *b, const char *type, const StRemote *r,
               const char *path);

/* A remote backend with workspaces, working copies under ws_dir, the
** selected workspace current.  a must live as long as the process's
** bindings (stmgr_bind_remote). */
void be_remote_ws(Backend *b, Arena *a, const char *type,
                  const BeWorkspaces *ws, const char *ws_dir,
                  const char *current);

/* The store of workspace name: the remote, or ws's (NULL for local). */
const StRemote *be_remote_of(const Backend *b, const char *name);

/* Terraform's "workspaces not supported" for a remote backend and a
** workspace other than "default"; true otherwise. */
bool be_check_workspace(const Backend *b, const char *name, Diags *d);

/* The local backend; NULL or "" path/workspace_dir mean the defaults. */
void be_local(Backend *b, const char *path, const char *workspace_dir);

/* The state file of workspace name (no check that it exists); with ws,
** its working copy, bound to its store. */
const char *be_state_path(const Backend *b, Arena *a, const char *name);

/* Every workspace: "default" first, then the others sorted bytewise. */
bool be_list(const Backend *b, Arena *a, const char ***names, int *n,
             Diags *d);
bool be_exists(const Backend *b, Arena *a, const char *name);
bool be_create(const Backend *b, Arena *a, const char *name, Diags *d);
/* Removes a workspace and its state (refuses "default"). */
bool be_delete(const Backend *b, Arena *a, const char *name, Diags *d);

#endif
