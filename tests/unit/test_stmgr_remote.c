/* Unit tests for core/state/stmgr_remote.c: a remote backend behind the
** local working copy (docs/backends.md, "Durability"), against a fake
** remote in memory: pull at load, push after commit, a failed push kept
** pending with the lock held and pushed by the next locked load, the lock
** of a failed push adopted, a conflict naming the holder, a journal left
** by a crash pushed at the next locked load, and the lock info parser. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state/stmgr.h"
#include "t.h"

static Arena A;
static char root[256];
static int dirno;

/* The fake server: one state, one lock, and a switch to fail puts. */
typedef struct Fake {
  Buf state;
  bool has_state;
  bool locked;
  StLockInfo holder;
  bool fail_put;
  int gets, puts, locks, unlocks;
  char last_put_id[64];
} Fake;

static bool f_get(void *ctx, Arena *a, Buf *out, bool *found, Diags *d)
{
  (void)a;
  (void)d;
  Fake *f = ctx;
  f->gets++;
  *found = f->has_state;
  if (f->has_state)
    buf_put(out, f->state.p, f->state.len);
  return true;
}

static bool f_put(void *ctx, const char *data, size_t n, const char *lock_id,
                  Diags *d)
{
  Fake *f = ctx;
  f->puts++;
  snprintf(f->last_put_id, sizeof f->last_put_id, "%s",
           lock_id ? lock_id : "");
  if (f->fail_put) {
    diag_error(d, NULL, "Failed to upload state", "HTTP error: 500");
    return false;
  }
  buf_clear(&f->state);
  buf_put(&f->state, data, n);
  f->has_state = true;
  return true;
}

static StRemoteRes f_lock(void *ctx, Arena *a, const StLockInfo *li,
                          StLockInfo *holder, const char **why, Diags *d)
{
  (void)d;
  Fake *f = ctx;
  f->locks++;
  if (f->locked) {
    *holder = f->holder;
    *why = arena_printf(a, "HTTP remote state already locked: ID=%s",
                        f->holder.id);
    return ST_REMOTE_LOCKED;
  }
  f->locked = true;
  f->holder.id = arena_strdup(&A, li->id);
  f->holder.who = arena_strdup(&A, li->who);
  f->holder.operation = arena_strdup(&A, li->operation);
  f->holder.info = f->holder.version = f->holder.created = "";
  f->holder.path = "";
  return ST_REMOTE_OK;
}

static bool f_unlock(void *ctx, const StLockInfo *li, Diags *d)
{
  Fake *f = ctx;
  f->unlocks++;
  if (f->locked && strcmp(f->holder.id, li->id) != 0) {
    diag_error(d, NULL, "Failed to unlock state", "wrong ID");
    return false;
  }
  f->locked = false;
  return true;
}

static Fake fake;
static StRemote remote = {"fake", &fake, true, f_get, f_put, f_lock,
                          f_unlock};

static const char *setup(void)
{
  const char *d = arena_printf(&A, "%s/d%d", root, dirno++);
  mkdir(d, 0755);
  memset(&fake, 0, sizeof fake);
  buf_init(&fake.state, &A);
  const char *p = arena_printf(&A, "%s/terraform.tfstate", d);
  stmgr_bind_remote(p, &remote);
  return p;
}

static void mgr(StMgr *m, const char *path)
{
  StMgrOpts o = {path, NULL, NULL};
  stmgr_init(m, &A, &o);
}

static bool exists(const char *p)
{
  struct stat st;
  return stat(p, &st) == 0;
}

static void add(State *s, const char *name)
{
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "t", name, "p");
  StObject *o = st_object_new(s);
  const char *names[] = {"id"};
  Value v[] = {val_cstr(&A, name)};
  o->attrs = val_object(&A, 1, names, v);
  st_set_current(s, r, st_nokey(), o);
}

/* One locked command: lock, load, add a resource, commit, unlock. */
static bool apply_one(const char *path, const char *name, Diags *d)
{
  StMgr m;
  mgr(&m, path);
  State *s;
  bool ok = stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, d) &&
            stmgr_load(&m, &s, d);
  if (ok) {
    add(s, name);
    ok = stmgr_commit(&m, s, d);
  }
  stmgr_unlock(&m, d);
  stmgr_close(&m);
  return ok;
}

static int nres_remote(void)
{
  Diags d;
  diag_init(&d, &A);
  State *s = NULL;
  if (!fake.has_state ||
      !st_read(&A, "remote", fake.state.p, fake.state.len, &s, &d))
    return -1;
  return (int)s->nres;
}

static void test_pull_push(void)
{
  const char *p = setup();
  Diags d;
  diag_init(&d, &A);
  T_CHECK(apply_one(p, "a", &d));
  T_EQ_INT(fake.locks, 1);
  T_EQ_INT(fake.gets, 1);
  T_EQ_INT(fake.puts, 1);
  T_EQ_INT(fake.unlocks, 1);
  T_CHECK(!fake.locked);
  T_EQ_INT(nres_remote(), 1);
  T_CHECK(strlen(fake.last_put_id) == 36);   /* the lock ID */
  T_CHECK(!exists(arena_printf(&A, "%s.pending", p)));

  /* Someone else writes on the server: the next load pulls it. */
  StMgr m;
  mgr(&m, "/dev/null/unbound");   /* a manager not bound stays local */
  T_CHECK(m.remote == NULL);
  stmgr_close(&m);
  Buf theirs;
  buf_init(&theirs, &A);
  buf_put(&theirs, fake.state.p, fake.state.len);
  State *s;
  T_CHECK(st_read(&A, "x", theirs.p, theirs.len, &s, &d));
  add(s, "b");
  s->serial++;
  buf_clear(&fake.state);
  st_write(&fake.state, s, NULL);
  mgr(&m, p);
  State *got;
  T_CHECK(stmgr_load(&m, &got, &d));   /* unlocked read: no LOCK */
  T_EQ_INT(got->nres, 2);
  T_EQ_INT(fake.locks, 1);
  stmgr_close(&m);
  T_CHECK(!diag_has_errors(&d));
}

static void test_failed_push_kept(void)
{
  const char *p = setup();
  Diags d;
  diag_init(&d, &A);
  fake.fail_put = true;
  T_CHECK(!apply_one(p, "a", &d));
  T_CHECK(diag_has_errors(&d));
  /* Never reported as saved; kept locally; the lock stays. */
  T_CHECK(!fake.has_state);
  T_CHECK(exists(arena_printf(&A, "%s.pending", p)));
  T_CHECK(fake.locked);
  T_EQ_INT(fake.unlocks, 0);
  const char *kept = fake.holder.id;

  /* An unlocked reader sees the newer local copy, without pushing. */
  StMgr m;
  mgr(&m, p);
  State *s;
  Diags d2;
  diag_init(&d2, &A);
  T_CHECK(stmgr_load(&m, &s, &d2));
  T_EQ_INT(s->nres, 1);
  T_EQ_INT(fake.puts, 1);   /* still the one failed attempt */
  stmgr_close(&m);

  /* The server is back: the next locked command adopts its own lock,
  ** pushes, and releases the lock at its end. */
  fake.fail_put = false;
  T_CHECK(apply_one(p, "b", &d2));
  T_CHECK(!diag_has_errors(&d2));
  T_EQ_INT(nres_remote(), 2);
  T_CHECK(!fake.locked);
  T_CHECK(!exists(arena_printf(&A, "%s.pending", p)));
  T_EQ_INT(fake.puts, 3);   /* the failed one, the pending, the new */
  T_EQ_STR(fake.last_put_id, kept);
}

static void test_conflict_names_holder(void)
{
  const char *p = setup();
  fake.locked = true;
  fake.holder = (StLockInfo){"11111111-2222-3333-4444-555555555555",
                             "OperationTypeApply", "", "alice@ci", "1.9.0",
                             "2026-01-02T03:04:05Z", ""};
  StMgr m;
  mgr(&m, p);
  Diags d;
  diag_init(&d, &A);
  T_CHECK(!stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, &d));
  T_CHECK(d.head && strcmp(d.head->summary,
                           "Error acquiring the state lock") == 0);
  T_CHECK(d.head && strstr(d.head->detail, "alice@ci") != NULL);
  T_CHECK(d.head && strstr(d.head->detail, "ID=11111111-2222") != NULL);
  T_CHECK(!m.locked);
  T_EQ_INT(fake.gets, 0);   /* nothing read under someone else's lock */
  /* force-unlock with the holder's ID */
  Diags d2;
  diag_init(&d2, &A);
  T_CHECK(stmgr_force_unlock(&m, "11111111-2222-3333-4444-555555555555",
                             &d2));
  T_CHECK(!fake.locked);
  stmgr_close(&m);
}

static void test_journal_pushed(void)
{
  const char *p = setup();
  Diags d;
  diag_init(&d, &A);
  T_CHECK(apply_one(p, "a", &d));
  /* A command records a change in the journal and dies before its commit
  ** (its process lock goes; the remote lock is removed by force-unlock). */
  StMgr m;
  mgr(&m, p);
  State *s;
  T_CHECK(stmgr_lock(&m, "OperationTypeApply", 0, NULL, NULL, &d));
  T_CHECK(stmgr_load(&m, &s, &d));
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "t", "j", "p");
  StObject *o = st_object_new(s);
  const char *names[] = {"id"};
  Value v[] = {val_cstr(&A, "j")};
  o->attrs = val_object(&A, 1, names, v);
  T_CHECK(stmgr_record_set(&m, s, r, st_nokey(), NULL, o, NULL, &d));
  T_CHECK(exists(m.journal_path));
  m.remote_locked = false;   /* "dies": no unlock reaches the server */
  fake.locked = false;
  stmgr_close(&m);
  T_EQ_INT(nres_remote(), 1);
  /* The next locked load replays the journal and pushes it. */
  StMgr m2;
  mgr(&m2, p);
  T_CHECK(stmgr_lock(&m2, "OperationTypeApply", 0, NULL, NULL, &d));
  T_CHECK(stmgr_load(&m2, &s, &d));
  T_EQ_INT(s->nres, 2);
  T_EQ_INT(nres_remote(), 2);
  T_CHECK(!exists(m2.journal_path));
  stmgr_unlock(&m2, &d);
  stmgr_close(&m2);
  T_CHECK(!diag_has_errors(&d));
}

static void test_parse_lock_info(void)
{
  StLockInfo li;
  const char *j = "{\"ID\":\"x\",\"Who\":\"w\",\"Created\":7,\"Extra\":1}";
  T_CHECK(stmgr_parse_lock_info(&A, j, strlen(j), &li));
  T_EQ_STR(li.id, "x");
  T_EQ_STR(li.who, "w");
  T_EQ_STR(li.created, "");   /* not a string */
  T_EQ_STR(li.path, "");
  T_CHECK(!stmgr_parse_lock_info(&A, "X", 1, &li));
  T_CHECK(!stmgr_parse_lock_info(&A, "[]", 2, &li));
  T_CHECK(!stmgr_parse_lock_info(&A, "", 0, &li));
}

int main(void)
{
  arena_init(&A, 0);
  snprintf(root, sizeof root, "/tmp/cairn-test-stmgr-remote.%ld",
           (long)getpid());
  mkdir(root, 0755);
  T_RUN(test_pull_push);
  T_RUN(test_failed_push_kept);
  T_RUN(test_conflict_names_holder);
  T_RUN(test_journal_pushed);
  T_RUN(test_parse_lock_info);
  stmgr_bind_remote(NULL, NULL);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", root);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", root);
  arena_release(&A);
  return t_done("stmgr_remote");
}
