/*
** workspace: Terraform's local-backend workspaces.
**
** Layout, as Terraform's local backend keeps it (relative to the working
** directory `dir`; NULL or "" means the current directory):
**   terraform.tfstate                       state of "default"
**   terraform.tfstate.d/NAME/terraform.tfstate   state of workspace NAME
**   DATA/environment                        the selected workspace name
** where DATA is $TF_DATA_DIR or ".terraform".  "default" always exists;
** another workspace exists when its directory exists (its state file may
** be absent: a new workspace is empty).  TF_WORKSPACE, when set and not
** empty, overrides the selected name for every command but `workspace new`
** and `workspace delete`.
**
** Ownership: returned strings and arrays are allocated in the caller's
** arena.  Names passed in are not kept.
**
** Errors: filesystem failures and invalid names add a diagnostic and
** return false/NULL; nothing here prints.  Deleting removes the
** workspace's directory tree without following symbolic links.
*/
#ifndef CAIRN_WORKSPACE_H
#define CAIRN_WORKSPACE_H

#include <stdbool.h>

#include "base/arena.h"
#include "base/diag.h"

#define WS_DEFAULT "default"

/* True when name is usable as a workspace name: non-empty and equal to
** its own URL path escaping (Terraform's validWorkspaceName), so it never
** contains a path separator.  "." and ".." pass (Terraform's rule); the
** local backend's ws_root_* functions refuse them (docs/backends.md). */
bool ws_valid_name(const char *name);

/* ws_valid_name, and neither "." nor "..": a name the local backend can
** keep as a directory under its workspace_dir. */
bool ws_dir_name_ok(const char *name);

/* The TF_WORKSPACE override, or NULL when the variable is unset or empty. */
const char *ws_override(void);

/* The current workspace: TF_WORKSPACE when set (validated: an invalid
** name gives "Invalid workspace name set using TF_WORKSPACE" and NULL),
** else the trimmed contents of DATA/environment, else "default".  An
** unreadable environment file also falls back to "default", as in
** Terraform. */
const char *ws_current(Arena *a, const char *dir, Diags *d);

/* The data directory path ($TF_DATA_DIR or ".terraform") under dir. */
const char *ws_data_dir(Arena *a, const char *dir);

/* The state file path of workspace name (no check that it exists):
** "terraform.tfstate" for default, else
** "terraform.tfstate.d/NAME/terraform.tfstate", prefixed by dir + "/"
** when dir is neither NULL nor "" nor ".". */
const char *ws_state_path(Arena *a, const char *dir, const char *name);

/* The directory holding a non-default workspace's state. */
const char *ws_dir_path(Arena *a, const char *dir, const char *name);

/* Every workspace: "default" first, then the directories under
** terraform.tfstate.d sorted bytewise (entries that are not valid names or
** not directories are skipped).  False with a diagnostic when the
** directory exists but cannot be read. */
bool ws_list(Arena *a, const char *dir, const char ***names, int *n,
             Diags *d);

/* True when the workspace exists ("default" always does). */
bool ws_exists(Arena *a, const char *dir, const char *name);

/* Creates the workspace's directory (mode 0755, parents as needed).
** Succeeds when it already exists.  "default" needs nothing. */
bool ws_create(Arena *a, const char *dir, const char *name, Diags *d);

/* Removes the workspace's directory and everything in it.  Refuses
** "default".  Symbolic links are removed, never followed. */
bool ws_delete(Arena *a, const char *dir, const char *name, Diags *d);

/* The same for a workspaces directory given by the caller (a local
** backend's workspace_dir: relative to the working directory or absolute)
** instead of dir + "/terraform.tfstate.d". */
const char *ws_root(Arena *a, const char *dir);   /* the default root */
const char *ws_root_path(Arena *a, const char *root, const char *name);
bool ws_root_list(Arena *a, const char *root, const char ***names, int *n,
                  Diags *d);
bool ws_root_exists(Arena *a, const char *root, const char *name);
bool ws_root_create(Arena *a, const char *root, const char *name, Diags *d);
bool ws_root_delete(Arena *a, const char *root, const char *name, Diags *d);

/* Records name as the selected workspace in DATA/environment (creating
** DATA when needed), written atomically. */
bool ws_select(Arena *a, const char *dir, const char *name, Diags *d);

#endif
