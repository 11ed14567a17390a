/*
** workspace.c: local-backend workspaces (see workspace.h).
*/
#include "workspace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"

#define STATE_FILE "terraform.tfstate"
#define WS_DIR "terraform.tfstate.d"
#define ENV_FILE "environment"
/* Deeper trees than this inside a workspace directory are not Terraform's
** and are refused rather than recursed into without bound. */
#define MAX_DEPTH 32

bool ws_valid_name(const char *name)
{
  /* Characters Go's url.PathEscape leaves alone in a path segment. */
  if (!name || !*name)
    return false;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    unsigned char c = *p;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9'))
      continue;
    if (!strchr("-_.~$&+:=@", c))
      return false;
  }
  return true;
}

/* A name the local backend can keep as a directory under its
** workspace_dir.  Terraform's local backend also takes "." and "..",
** which name workspace_dir itself and its parent: workspace ".."'s state
** file would be the default workspace's (terraform.tfstate.d/../
** terraform.tfstate), and deleting ".." would delete the directory
** holding it.  cairn refuses both there (other backends keep them: a pg
** row named ".." is harmless). */
bool ws_dir_name_ok(const char *name)
{
  return ws_valid_name(name) && strcmp(name, ".") != 0 &&
         strcmp(name, "..") != 0;
}

const char *ws_override(void)
{
  const char *v = getenv("TF_WORKSPACE");
  return v && *v ? v : NULL;
}

static const char *join(Arena *a, const char *dir, const char *rel)
{
  if (!dir || !*dir || strcmp(dir, ".") == 0)
    return arena_strdup(a, rel);
  size_t n = strlen(dir);
  if (dir[n - 1] == '/')
    return arena_printf(a, "%s%s", dir, rel);
  return arena_printf(a, "%s/%s", dir, rel);
}

const char *ws_data_dir(Arena *a, const char *dir)
{
  const char *dd = getenv("TF_DATA_DIR");
  if (!dd || !*dd)
    dd = ".terraform";
  if (dd[0] == '/')
    return arena_strdup(a, dd);
  return join(a, dir, dd);
}

const char *ws_state_path(Arena *a, const char *dir, const char *name)
{
  if (!name || strcmp(name, WS_DEFAULT) == 0)
    return join(a, dir, STATE_FILE);
  return join(a, dir, arena_printf(a, WS_DIR "/%s/" STATE_FILE, name));
}

const char *ws_dir_path(Arena *a, const char *dir, const char *name)
{
  return join(a, dir, arena_printf(a, WS_DIR "/%s", name));
}

const char *ws_root(Arena *a, const char *dir)
{
  return join(a, dir, WS_DIR);
}

const char *ws_root_path(Arena *a, const char *root, const char *name)
{
  return join(a, root, name);
}

static bool is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

const char *ws_current(Arena *a, const char *dir, Diags *d)
{
  const char *ov = ws_override();
  if (ov) {
    if (!ws_valid_name(ov)) {
      diag_error(d, NULL, "Invalid workspace name set using TF_WORKSPACE",
                 "The workspace name \"%s\" is not allowed. The name must "
                 "contain only URL safe characters, and no path separators.",
                 ov);
      return NULL;
    }
    return arena_strdup(a, ov);
  }
  const char *path =
      join(a, ws_data_dir(a, dir), ENV_FILE);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return WS_DEFAULT;
  /* A workspace name is short; anything longer than this is not a name
  ** Terraform would have written, and reading it all would be pointless. */
  char tmp[4096];
  size_t len = 0;
  for (;;) {
    ssize_t k = read(fd, tmp + len, sizeof tmp - 1 - len);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    len += (size_t)k;
    if (len == sizeof tmp - 1)
      break;
  }
  close(fd);
  size_t b = 0, e = len;
  while (b < e && is_space(tmp[b]))
    b++;
  while (e > b && is_space(tmp[e - 1]))
    e--;
  if (b == e)
    return WS_DEFAULT;
  return arena_strndup(a, tmp + b, e - b);
}

static int cmp_str(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

bool ws_list(Arena *a, const char *dir, const char ***names, int *n,
             Diags *d)
{
  return ws_root_list(a, ws_root(a, dir), names, n, d);
}

bool ws_root_list(Arena *a, const char *root, const char ***names, int *n,
                  Diags *d)
{
  int cap = 8, cnt = 0;
  const char **v = ARENA_NEW(a, const char *, (size_t)cap);
  v[cnt++] = WS_DEFAULT;
  DIR *dp = opendir(root);
  if (!dp) {
    if (errno != ENOENT && errno != ENOTDIR) {
      diag_error(d, NULL, "Failed to list workspaces",
                 "open %s: %s", root, strerror(errno));
      return false;
    }
  } else {
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
      if (!ws_valid_name(de->d_name) || strcmp(de->d_name, ".") == 0 ||
          strcmp(de->d_name, "..") == 0)
        continue;
      struct stat st;
      if (fstatat(dirfd(dp), de->d_name, &st, 0) != 0 ||
          !S_ISDIR(st.st_mode))
        continue;
      if (cnt == cap) {
        v = arena_grow(a, v, sizeof *v, _Alignof(const char *), (size_t)cap,
                       (size_t)cap * 2);
        cap *= 2;
      }
      v[cnt++] = arena_strdup(a, de->d_name);
    }
    closedir(dp);
    qsort(v + 1, (size_t)(cnt - 1), sizeof *v, cmp_str);
  }
  *names = v;
  *n = cnt;
  return true;
}

bool ws_exists(Arena *a, const char *dir, const char *name)
{
  ArenaMark m = arena_mark(a);
  bool ok = ws_root_exists(a, ws_root(a, dir), name);
  arena_rewind(a, m);
  return ok;
}

bool ws_root_exists(Arena *a, const char *root, const char *name)
{
  if (strcmp(name, WS_DEFAULT) == 0)
    return true;
  if (!ws_dir_name_ok(name))
    return false;
  ArenaMark m = arena_mark(a);
  struct stat st;
  bool ok = stat(ws_root_path(a, root, name), &st) == 0 &&
            S_ISDIR(st.st_mode);
  arena_rewind(a, m);
  return ok;
}

/* mkdir -p for a relative or absolute path. */
static bool mkdir_all(Arena *a, const char *path, Diags *d)
{
  char *p = arena_strdup(a, path);
  for (char *s = p + 1; ; s++) {
    if (*s == '/' || *s == 0) {
      char save = *s;
      *s = 0;
      if (mkdir(p, 0755) != 0 && errno != EEXIST) {
        diag_error(d, NULL, "Failed to create directory",
                   "mkdir %s: %s", p, strerror(errno));
        return false;
      }
      *s = save;
      if (!save)
        break;
    }
  }
  struct stat st;
  if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
    diag_error(d, NULL, "Failed to create directory",
               "mkdir %s: not a directory", p);
    return false;
  }
  return true;
}

bool ws_create(Arena *a, const char *dir, const char *name, Diags *d)
{
  return ws_root_create(a, ws_root(a, dir), name, d);
}

bool ws_root_create(Arena *a, const char *root, const char *name, Diags *d)
{
  if (strcmp(name, WS_DEFAULT) == 0)
    return true;
  if (!ws_dir_name_ok(name)) {
    diag_error(d, NULL, "Invalid workspace name",
               "The workspace name \"%s\" is not allowed. The name must "
               "contain only URL safe characters, and no path separators.",
               name);
    return false;
  }
  return mkdir_all(a, ws_root_path(a, root, name), d);
}

/* Empties directory fd (which the caller closes) and its subdirectories. */
static bool remove_tree(int fd, const char *path, int depth, Diags *d)
{
  if (depth > MAX_DEPTH) {
    diag_error(d, NULL, "Failed to delete workspace",
               "%s: directory tree too deep", path);
    return false;
  }
  int dfd = dup(fd);
  if (dfd < 0) {
    diag_error(d, NULL, "Failed to delete workspace", "%s: %s", path,
               strerror(errno));
    return false;
  }
  DIR *dp = fdopendir(dfd);
  if (!dp) {
    close(dfd);
    diag_error(d, NULL, "Failed to delete workspace", "%s: %s", path,
               strerror(errno));
    return false;
  }
  bool ok = true;
  struct dirent *de;
  while (ok && (de = readdir(dp)) != NULL) {
    const char *nm = de->d_name;
    if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0)
      continue;
    struct stat st;
    if (fstatat(fd, nm, &st, AT_SYMLINK_NOFOLLOW) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      int sub = openat(fd, nm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                   O_CLOEXEC);
      if (sub < 0) {
        diag_error(d, NULL, "Failed to delete workspace", "%s/%s: %s", path,
                   nm, strerror(errno));
        ok = false;
        break;
      }
      ok = remove_tree(sub, path, depth + 1, d);
      close(sub);
      if (ok && unlinkat(fd, nm, AT_REMOVEDIR) != 0) {
        diag_error(d, NULL, "Failed to delete workspace", "%s/%s: %s", path,
                   nm, strerror(errno));
        ok = false;
      }
    } else if (unlinkat(fd, nm, 0) != 0) {
      diag_error(d, NULL, "Failed to delete workspace", "%s/%s: %s", path,
                 nm, strerror(errno));
      ok = false;
    }
  }
  closedir(dp);
  return ok;
}

bool ws_delete(Arena *a, const char *dir, const char *name, Diags *d)
{
  return ws_root_delete(a, ws_root(a, dir), name, d);
}

bool ws_root_delete(Arena *a, const char *root, const char *name, Diags *d)
{
  if (strcmp(name, WS_DEFAULT) == 0) {
    diag_error(d, NULL, "Failed to delete workspace",
               "cannot delete default state");
    return false;
  }
  if (!ws_dir_name_ok(name)) {
    diag_error(d, NULL, "Invalid workspace name",
               "The workspace name \"%s\" is not allowed. The name must "
               "contain only URL safe characters, and no path separators.",
               name);
    return false;
  }
  const char *path = ws_root_path(a, root, name);
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return true;
    diag_error(d, NULL, "Failed to delete workspace", "%s: %s", path,
               strerror(errno));
    return false;
  }
  bool ok = remove_tree(fd, path, 0, d);
  close(fd);
  if (ok && rmdir(path) != 0 && errno != ENOENT) {
    diag_error(d, NULL, "Failed to delete workspace", "%s: %s", path,
               strerror(errno));
    ok = false;
  }
  return ok;
}

bool ws_select(Arena *a, const char *dir, const char *name, Diags *d)
{
  const char *dd = ws_data_dir(a, dir);
  if (!mkdir_all(a, dd, d))
    return false;
  const char *path = join(a, dd, ENV_FILE);
  const char *tmp = arena_printf(a, "%s.tmp.%ld", path, (long)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    diag_error(d, NULL, "Failed to select workspace", "open %s: %s", tmp,
               strerror(errno));
    return false;
  }
  size_t len = strlen(name), off = 0;
  bool ok = true;
  while (off < len) {
    ssize_t k = write(fd, name + off, len - off);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0) {
      ok = false;
      break;
    }
    off += (size_t)k;
  }
  int err = errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && rename(tmp, path) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    unlink(tmp);
    diag_error(d, NULL, "Failed to select workspace", "write %s: %s", path,
               strerror(err));
  }
  return ok;
}
