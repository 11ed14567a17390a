/*
** backend.c: the local backend's layout (see backend.h).
*/
#include "backend.h"

#include <string.h>

#include "workspace.h"

#define DEFAULT_PATH "terraform.tfstate"
#define DEFAULT_WSDIR "terraform.tfstate.d"

void be_local(Backend *b, const char *path, const char *workspace_dir)
{
  memset(b, 0, sizeof *b);
  b->type = "local";
  b->path = path && *path ? path : DEFAULT_PATH;
  b->workspace_dir = workspace_dir && *workspace_dir ? workspace_dir
                                                     : DEFAULT_WSDIR;
}

void be_remote(Backend *b, const char *type, const StRemote *r,
               const char *path)
{
  memset(b, 0, sizeof *b);
  b->type = type;
  b->remote = r;
  b->path = path;
  b->workspace_dir = NULL;
}

bool be_check_workspace(const Backend *b, const char *name, Diags *d)
{
  if (!b->remote || !name || strcmp(name, WS_DEFAULT) == 0)
    return true;
  diag_error(d, NULL, "Failed to select workspace",
             "workspaces not supported (the %s backend has only the "
             "\"default\" workspace; \"%s\" is selected)", b->type, name);
  return false;
}

const char *be_state_path(const Backend *b, Arena *a, const char *name)
{
  if (b->remote)
    return arena_strdup(a, b->path);
  if (!name || strcmp(name, WS_DEFAULT) == 0)
    return arena_strdup(a, b->path);
  return arena_printf(a, "%s/" DEFAULT_PATH,
                      ws_root_path(a, b->workspace_dir, name));
}

static bool unsupported(const Backend *b, Diags *d)
{
  diag_error(d, NULL, "Workspaces not supported",
             "workspaces not supported: the %s backend keeps only the "
             "\"default\" workspace.", b->type);
  return false;
}

bool be_list(const Backend *b, Arena *a, const char ***names, int *n,
             Diags *d)
{
  if (b->remote)
    return unsupported(b, d);
  return ws_root_list(a, b->workspace_dir, names, n, d);
}

bool be_exists(const Backend *b, Arena *a, const char *name)
{
  if (b->remote)
    return strcmp(name, WS_DEFAULT) == 0;
  return ws_root_exists(a, b->workspace_dir, name);
}

bool be_create(const Backend *b, Arena *a, const char *name, Diags *d)
{
  if (b->remote)
    return unsupported(b, d);
  return ws_root_create(a, b->workspace_dir, name, d);
}

bool be_delete(const Backend *b, Arena *a, const char *name, Diags *d)
{
  if (b->remote)
    return unsupported(b, d);
  return ws_root_delete(a, b->workspace_dir, name, d);
}
