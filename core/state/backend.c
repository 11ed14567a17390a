/*
** backend.c: the local backend's layout (see backend.h).
*/
#include "backend.h"

#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
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

/* A workspace's working copy.  Names come from the database too (any
** client can insert a row), and ".", ".." or a '/' must never lead out
** of dir: such names become '%' and their bytes in hex ('%' is in no
** valid name, so no two names share a directory). */
static const char *ws_path(Arena *a, const char *dir, const char *name)
{
  if (name[0] != '.' && ws_valid_name(name))
    return arena_printf(a, "%s/%s/" DEFAULT_PATH, dir, name);
  Buf b;
  buf_init(&b, a);
  buf_printf(&b, "%s/%%", dir);
  for (const unsigned char *p = (const unsigned char *)name; *p; p++)
    buf_printf(&b, "%02x", *p);
  buf_puts(&b, "/" DEFAULT_PATH);
  return buf_str(&b);
}

void be_remote_ws(Backend *b, Arena *a, const char *type,
                  const BeWorkspaces *ws, const char *ws_dir,
                  const char *current)
{
  memset(b, 0, sizeof *b);
  b->type = type;
  b->ws = ws;
  b->ws_dir = ws_dir;
  b->ws_arena = a;
  b->remote = ws->remote(ws->ctx, current);
  b->path = ws_path(a, ws_dir, current);
  stmgr_bind_remote(b->path, b->remote);
}

const StRemote *be_remote_of(const Backend *b, const char *name)
{
  if (b->ws)
    return b->ws->remote(b->ws->ctx, name ? name : WS_DEFAULT);
  return b->remote;
}

bool be_check_workspace(const Backend *b, const char *name, Diags *d)
{
  if (b->ws)
    return true;
  if (!b->remote || !name || strcmp(name, WS_DEFAULT) == 0)
    return true;
  diag_error(d, NULL, "Failed to select workspace",
             "workspaces not supported (the %s backend has only the "
             "\"default\" workspace; \"%s\" is selected)", b->type, name);
  return false;
}

const char *be_state_path(const Backend *b, Arena *a, const char *name)
{
  if (b->ws) {
    if (!name)
      name = WS_DEFAULT;
    /* The path is bound for the rest of the process, so it lives in the
    ** backend's arena. */
    const char *p = ws_path(b->ws_arena, b->ws_dir, name);
    stmgr_bind_remote(p, b->ws->remote(b->ws->ctx, name));
    return arena_strdup(a, p);
  }
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
  if (b->ws)
    return b->ws->list(b->ws->ctx, a, names, n, d);
  if (b->remote)
    return unsupported(b, d);
  return ws_root_list(a, b->workspace_dir, names, n, d);
}

bool be_exists(const Backend *b, Arena *a, const char *name)
{
  if (b->ws) {
    const char **names;
    int n;
    Diags d;
    diag_init(&d, a);
    if (!b->ws->list(b->ws->ctx, a, &names, &n, &d))
      return false;
    for (int i = 0; i < n; i++)
      if (strcmp(names[i], name) == 0)
        return true;
    return false;
  }
  if (b->remote)
    return strcmp(name, WS_DEFAULT) == 0;
  return ws_root_exists(a, b->workspace_dir, name);
}

bool be_create(const Backend *b, Arena *a, const char *name, Diags *d)
{
  if (b->ws)
    return b->ws->create(b->ws->ctx, name, d);
  if (b->remote)
    return unsupported(b, d);
  return ws_root_create(a, b->workspace_dir, name, d);
}

/* Removes a deleted workspace's working copy and the files beside it
** (backup, journal, marker, lock files): a stale journal must never be
** replayed into a new workspace of the same name. */
static void remove_working_copy(const Backend *b, Arena *a, const char *name)
{
  char *dir = arena_strdup(a, ws_path(a, b->ws_dir, name));
  *strrchr(dir, '/') = 0;
  DIR *dh = opendir(dir);
  if (!dh)
    return;
  struct dirent *e;
  while ((e = readdir(dh)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      unlink(arena_printf(a, "%s/%s", dir, e->d_name));
  closedir(dh);
  rmdir(dir);
}

bool be_delete(const Backend *b, Arena *a, const char *name, Diags *d)
{
  if (b->ws) {
    if (!b->ws->remove(b->ws->ctx, name, d))
      return false;
    remove_working_copy(b, a, name);
    return true;
  }
  if (b->remote)
    return unsupported(b, d);
  return ws_root_delete(a, b->workspace_dir, name, d);
}
