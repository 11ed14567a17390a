/*
** stmgr_remote.c: a remote backend behind the local working copy (see
** stmgr_priv.h and docs/backends.md, "Durability").
**
** Why a working copy: the journal, the backup and the crash recovery of
** docs/state.md work on a local file; a remote backend only ever sees
** whole snapshots.  Each completed operation is journaled on local disk
** first; the snapshot is pushed after the commit.  A push the server did
** not confirm leaves OUT.pending, which makes the working copy
** authoritative until a later command (holding the lock) pushes it.
*/
#include "stmgr_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"

/* The process's bindings: the CLI configures one backend per run; a
** backend with workspaces (pg) binds one working copy per workspace it
** opens, a migration the source's and the destination's. */
#define MAX_BINDINGS 32
static struct {
  const char *path;
  const StRemote *r;
} bound[MAX_BINDINGS];
static int nbound;

void stmgr_bind_remote(const char *path, const StRemote *r)
{
  if (!r || !path) {
    nbound = 0;
    return;
  }
  for (int i = 0; i < nbound; i++)
    if (strcmp(bound[i].path, path) == 0) {
      bound[i].r = r;
      return;
    }
  if (nbound == MAX_BINDINGS) {
    fprintf(stderr, "cairn: internal error: more than %d remote state "
            "bindings\n", MAX_BINDINGS);
    abort();
  }
  bound[nbound].path = path;
  bound[nbound++].r = r;
}

void stmgr_remote_attach(StMgr *m)
{
  for (int i = 0; i < nbound; i++)
    if (strcmp(bound[i].path, m->out_path) == 0) {
      m->remote = bound[i].r;
      m->pending_path = arena_printf(m->arena, "%s.pending", m->out_path);
      return;
    }
}

bool stmgr_parse_lock_info(Arena *a, const char *buf, size_t n,
                           StLockInfo *out)
{
  memset(out, 0, sizeof *out);
  Diags d;
  diag_init(&d, a);
  Value v;
  if (!json_parse(a, buf, n, &v, &d, NULL) || val_is_null(v) ||
      v.type->kind != TY_OBJECT)
    return false;
  const char *names[] = {"ID", "Operation", "Info", "Who",
                         "Version", "Created", "Path"};
  const char **dst[] = {&out->id, &out->operation, &out->info, &out->who,
                        &out->version, &out->created, &out->path};
  for (int i = 0; i < 7; i++) {
    bool f;
    Value s = val_attr(v, names[i], &f);
    *dst[i] = f && !val_is_null(s) && s.type->kind == TY_STRING ? s.u.s : "";
  }
  return true;
}

/* The whole file, NUL-terminated, in a; NULL when it does not exist or
** cannot be read (*err set). */
static char *slurp(Arena *a, const char *path, size_t *n, int *err)
{
  *n = 0;
  *err = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    *err = errno;
    return NULL;
  }
  Buf b;
  buf_init(&b, a);
  char chunk[8192];
  size_t k;
  while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
    buf_put(&b, chunk, k);
  if (ferror(f))
    *err = EIO;
  fclose(f);
  if (*err)
    return NULL;
  *n = b.len;
  return (char *)buf_str(&b);
}

static bool exists(const char *path)
{
  struct stat st;
  return lstat(path, &st) == 0;
}

static void sync_dir(const char *dir)
{
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    fsync(fd);
    close(fd);
  }
}

/* The lock info a failed push kept on the server, if any. */
static bool pending_lock(StMgr *m, StLockInfo *li)
{
  size_t n;
  int err;
  char *p = slurp(m->arena, m->pending_path, &n, &err);
  return p && n && stmgr_parse_lock_info(m->arena, p, n, li) && *li->id;
}

static bool write_pending(StMgr *m, Diags *d)
{
  Buf b;
  buf_init(&b, m->arena);
  if (m->remote_locked)
    stmgr_lock_info_json(&b, &m->lock);
  return stmgr_write_file(m, m->pending_path, b.p ? b.p : "", b.len, d);
}

static bool clear_pending(StMgr *m, Diags *d)
{
  if (unlink(m->pending_path) < 0 && errno != ENOENT) {
    diag_error(d, NULL, "Failed to save state",
               "The state reached the %s backend, but the marker %s could "
               "not be removed: %s", m->remote->type, m->pending_path,
               strerror(errno));
    return false;
  }
  sync_dir(m->dir);
  return true;
}

bool stmgr_remote_lock(StMgr *m, const char *operation, bool *busy,
                       const char **why, Diags *d)
{
  *busy = false;
  *why = NULL;
  /* A remote state has no path (Terraform's remote.State leaves it ""). */
  stmgr_new_lock_info(m->arena, &m->lock, operation, "");
  m->remote_locked = false;
  if (!m->remote->can_lock)
    return true;
  StLockInfo holder;
  const char *text = NULL;
  StRemoteRes r = m->remote->lock(m->remote->ctx, m->arena, &m->lock,
                                  &holder, &text, d);
  if (r == ST_REMOTE_OK) {
    m->remote_locked = true;
    return true;
  }
  if (r == ST_REMOTE_ERR)
    return false;
  /* Held: by the lock a failed push of ours kept?  Then it is ours. */
  StLockInfo kept;
  if (pending_lock(m, &kept) && holder.id && strcmp(kept.id, holder.id) == 0) {
    m->lock = kept;
    m->remote_locked = true;
    return true;
  }
  Buf b;
  buf_init(&b, m->arena);
  buf_puts(&b, text ? text : "the state is locked");
  if ((holder.id && *holder.id) || (holder.who && *holder.who)) {
    buf_putc(&b, '\n');
    stmgr_format_lock_info(&b, &holder);
  }
  *why = buf_str(&b);
  *busy = true;
  return false;
}

bool stmgr_remote_unlock(StMgr *m, Diags *d)
{
  if (!m->remote_locked)
    return true;
  m->remote_locked = false;
  if (exists(m->pending_path))
    return true;   /* kept for the pending push: see stmgr_remote_pull */
  Diags tmp;
  diag_init(&tmp, m->arena);
  return m->remote->unlock(m->remote->ctx, &m->lock, d ? d : &tmp);
}

bool stmgr_remote_force_unlock(StMgr *m, const char *id, Diags *d)
{
  if (!m->remote->can_lock) {
    diag_error(d, NULL, "Failed to unlock state",
               "The %s backend has no lock_address configured: there is no "
               "lock to remove.", m->remote->type);
    return false;
  }
  StLockInfo li;
  memset(&li, 0, sizeof li);
  /* Terraform's http client unlocks with the lock info it holds; a
  ** force-unlock holds none, so it sends the ID alone (GitLab and
  ** cairn's test server go by the ID). */
  li.id = id;
  li.operation = li.info = li.who = li.version = li.created = li.path = "";
  StLockInfo kept;
  if (pending_lock(m, &kept) && strcmp(kept.id, id) == 0)
    li = kept;
  if (!m->remote->unlock(m->remote->ctx, &li, d))
    return false;
  /* The kept lock is gone: a pending push no longer owns one. */
  if (exists(m->pending_path) && pending_lock(m, &kept) &&
      strcmp(kept.id, id) == 0)
    return stmgr_write_file(m, m->pending_path, "", 0, d);
  return true;
}

static bool push_bytes(StMgr *m, const char *data, size_t n, Diags *d)
{
  if (!write_pending(m, d))
    return false;
  Diags pd;
  diag_init(&pd, m->arena);
  if (!m->remote->put(m->remote->ctx, data, n,
                      m->remote_locked ? m->lock.id : NULL, &pd)) {
    diag_error(d, NULL, "Failed to save state",
               "%s\n\nThe %s backend did not confirm the new state, so it "
               "is not saved there. Nothing is lost: it is saved in the "
               "local working copy %s, and the next command that locks the "
               "state pushes it%s.",
               pd.head ? pd.head->detail && *pd.head->detail
                             ? pd.head->detail : pd.head->summary
                       : "the request failed",
               m->remote->type, m->out_path,
               m->remote_locked ? " (the backend's lock is kept until then, "
                                  "so no one else writes over it)" : "");
    return false;
  }
  return clear_pending(m, d);
}

bool stmgr_remote_push(StMgr *m, Diags *d)
{
  if (!m->remote_dirty && !exists(m->pending_path))
    return true;
  m->remote_dirty = false;
  /* The snapshot's text is not kept after a commit (stmgr.c): read back
  ** in an arena of its own, gone after the push. */
  Arena a;
  arena_init(&a, 0);
  char *p = NULL;
  size_t n = 0;
  bool ok = m->written || m->disk_p
                ? stmgr_read_back(m, &a, &p, &n, d) &&
                      push_bytes(m, p, n, d)
                : push_bytes(m, "", 0, d);
  arena_release(&a);
  return ok;
}

bool stmgr_remote_pull(StMgr *m, Diags *d)
{
  if (strcmp(m->read_path, m->out_path) != 0)
    return true;
  bool pending = exists(m->pending_path);
  if (pending || exists(m->journal_path)) {
    /* The working copy is newer than the remote: keep it.  A journal is
    ** pushed by the commit after its replay (stmgr_load). */
    if (!pending || !m->locked)
      return true;
    size_t n;
    int err;
    char *data = slurp(m->arena, m->out_path, &n, &err);
    if (!data && err != ENOENT) {
      diag_error(d, NULL, "Failed to load state", "Error reading %s: %s",
                 m->out_path, strerror(err));
      return false;
    }
    return push_bytes(m, data ? data : "", n, d);
  }
  Buf b;
  buf_init(&b, m->arena);
  bool found = false;
  if (!m->remote->get(m->remote->ctx, m->arena, &b, &found, d))
    return false;
  size_t n;
  int err;
  char *cur = slurp(m->arena, m->out_path, &n, &err);
  size_t want = found ? b.len : 0;
  if (cur && n == want && (!want || memcmp(cur, b.p, want) == 0))
    return true;
  if (!cur && !want)
    return true;
  /* The directory may not exist yet (a fresh .terraform/). */
  char *dir = arena_strdup(m->arena, m->dir);
  for (char *q = dir + 1; *q; q++)
    if (*q == '/') {
      *q = 0;
      mkdir(dir, 0755);
      *q = '/';
    }
  mkdir(dir, 0755);
  if (!stmgr_write_file(m, m->out_path, want ? b.p : "", want, d))
    return false;
  if (m->locked && m->state_fd >= 0) {
    /* stmgr_write_file left the write-only descriptor of the new inode
    ** as state_fd; stmgr_load reads through state_fd, so reopen it for
    ** reading (closing the old one drops the process's fcntl lock on the
    ** inode, so lock again; the lock file stays locked throughout). */
    int fd = open(m->out_path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      diag_error(d, NULL, "Failed to load state", "Error reading %s: %s",
                 m->out_path, strerror(errno));
      return false;
    }
    close(m->state_fd);
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    (void)fcntl(fd, F_SETLK, &fl);
    m->state_fd = fd;
  }
  return true;
}
