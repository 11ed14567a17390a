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

const char *be_state_path(const Backend *b, Arena *a, const char *name)
{
  if (!name || strcmp(name, WS_DEFAULT) == 0)
    return arena_strdup(a, b->path);
  return arena_printf(a, "%s/" DEFAULT_PATH,
                      ws_root_path(a, b->workspace_dir, name));
}

bool be_list(const Backend *b, Arena *a, const char ***names, int *n,
             Diags *d)
{
  return ws_root_list(a, b->workspace_dir, names, n, d);
}

bool be_exists(const Backend *b, Arena *a, const char *name)
{
  return ws_root_exists(a, b->workspace_dir, name);
}

bool be_create(const Backend *b, Arena *a, const char *name, Diags *d)
{
  return ws_root_create(a, b->workspace_dir, name, d);
}

bool be_delete(const Backend *b, Arena *a, const char *name, Diags *d)
{
  return ws_root_delete(a, b->workspace_dir, name, d);
}
