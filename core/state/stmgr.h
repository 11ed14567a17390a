/*
** stmgr: durable state storage: atomic snapshot writes, the apply journal
** with intent records, fcntl locking with .terraform.tfstate.lock.info,
** backups, and the crash-point test hook.  Design: docs/state.md.
**
** Files beside the state output path P (default terraform.tfstate):
**   P                      the snapshot, only ever replaced by rename
**   P.backup               the snapshot as it was before this command's
**                          first change (once per command; -backup)
**   P.journal              append-only journal (present only between the
**                          first recorded change and the final commit,
**                          or after a crash)
**   .P.lock                the lock file, fcntl-locked, never renamed and
**                          never removed (removing it would let two
**                          processes lock two different inodes)
**   .P.lock.info           Terraform's lock metadata (JSON, 0600)
**   .P.tmp.<pid>           temporary files of atomic writes
**
** Every write is atomic: temp file in the same directory, write, fsync,
** rename, fsync the directory.  A reader never sees a torn or empty file.
**
** Journal: each completed resource operation appends one self-validating
** record ("J" + 8-hex length + " " + 8-hex CRC-32 + " " + JSON + "\n");
** when the stmgr_record_* call returns, its record is durable (unless the
** caller deferred that: defer_sync, stmgr_sync).  Cost is
** proportional to the change.  Concurrent recorders share fdatasyncs
** (group commit): a recorder appends its record under the mutex, then
** either becomes the leader and fdatasyncs everything appended so far
** (the mutex released meanwhile, so others keep appending) or waits until
** a sync that covers its record has completed.  One failed fdatasync
** makes the journal unusable for the rest of the command (after a failed
** fsync the kernel may drop the dirty pages and report success later).
** Intent records are appended (and synced) before a provider create;
** results resolve them.  stmgr_commit() compacts: writes the full snapshot
** and removes the journal (keeping unresolved intents in a fresh one).
** stmgr_load() replays a journal left by a crash; intents without a
** result are listed by stmgr_dangling().
**
** Threads: stmgr_record_* and stmgr_intent_* may be called from several
** threads at once (a mutex serialises them and their changes to the
** State).  Everything else is for the main thread.  What a record adds to
** the State (objects, instances, resources) is allocated in an arena of
** m's, not in s->arena (the caller's arena, which its main thread keeps
** using meanwhile; an arena is for one thread at a time), so it stays
** valid until stmgr_close(m): use a State changed by records only before
** closing its StMgr.  A caller whose other
** threads also touch the State (lookups, st_ensure_resource) sets
** StMgr.state_mu to the mutex it guards the State with: the record
** functions then hold it while a record changes the State (decoding it
** comes before, under m->mu alone), so both sides exclude each other.  Lock order: m->mu, then *state_mu; so a thread
** holding *state_mu must not call stmgr_record_* or stmgr_intent_*.
**
** Locking: the fcntl lock belongs to the process; closing any descriptor
** of a locked file drops the lock, so every access to the lock file and to
** the state file goes through this module's descriptors.
**
** Crash points (test builds, CAIRN_TEST): every "durability point" (a step
** of a durable write: after writing a temp file, after its fsync, after
** the rename, after the directory fsync; for a journal append: after half
** the record, after the whole record; after each group fdatasync, which
** a lone recorder passes once per record; after removing the journal) calls a hook that counts it; with CAIRN_TEST_CRASH_AT=N the
** process calls _exit(99) at the N-th point; with CAIRN_TEST_CRASH_LOG=F
** each point appends "N label\n" to F.  A test runs once without a crash
** to count the points, then once per point.
*/
#ifndef CAIRN_STMGR_H
#define CAIRN_STMGR_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "state.h"

/* Terraform's lock metadata (statemgr.LockInfo), field for field. */
typedef struct StLockInfo {
  const char *id;
  const char *operation;
  const char *info;
  const char *who;
  const char *version;
  const char *created;    /* RFC 3339 with nanoseconds, UTC ("...Z") */
  const char *path;
} StLockInfo;

/* A remote store of one workspace's state (the http backend, net/be_http),
** behind the local working copy this module manages (docs/backends.md,
** "Durability").  stmgr calls it; it never prints and reports failures as
** diagnostics.  Each call is one whole request: get returns the whole
** state, put stores the whole state (lock_id: the held lock, or NULL).
** lock answers ST_REMOTE_LOCKED when another holder has it, with the
** holder's lock info in *holder (strings in a; fields empty when the
** server's answer did not say) and the server's words in *why. */
typedef enum StRemoteRes {
  ST_REMOTE_OK,
  ST_REMOTE_LOCKED,
  ST_REMOTE_ERR
} StRemoteRes;

typedef struct StRemote {
  const char *type;           /* "http", for messages */
  void *ctx;
  bool can_lock;              /* the backend has a lock protocol */
  bool (*get)(void *ctx, Arena *a, Buf *out, bool *found, Diags *d);
  bool (*put)(void *ctx, const char *data, size_t n, const char *lock_id,
              Diags *d);
  StRemoteRes (*lock)(void *ctx, Arena *a, const StLockInfo *li,
                      StLockInfo *holder, const char **why, Diags *d);
  bool (*unlock)(void *ctx, const StLockInfo *li, Diags *d);
} StRemote;

/* Binds the working copy `path` to r for the rest of the process: every
** StMgr whose output path is exactly path pulls from r at load, pushes to
** r after each commit, and takes r's lock with its own (binding a path
** again replaces its remote; a NULL r unbinds every path).  Both are
** borrowed.  The CLI binds the configured backend (each workspace a
** backend with workspaces opens), so no command can read or write a
** working copy without its remote. */
void stmgr_bind_remote(const char *path, const StRemote *r);

/* An intent recorded but never resolved (possibly created, unrecorded). */
typedef struct StIntent {
  const char *id;         /* idempotency key, 16 hex digits */
  const char *addr;       /* instance address */
  const char *action;     /* "create" */
  const char *time;       /* when the intent was recorded (RFC 3339 UTC) */
} StIntent;

typedef void (*StmgrNotify)(void *ctx);

typedef struct StMgr {
  Arena *arena;
  const char *read_path;      /* -state */
  const char *out_path;       /* -state-out (default: read_path) */
  const char *backup_path;    /* NULL: no backup */
  const char *journal_path;
  const char *lock_path;
  const char *info_path;
  const char *dir;            /* directory of out_path, for fsync */

  /* locking */
  int lock_fd;                /* -1 when not locked */
  int state_fd;               /* fd on the locked state inode, or -1 */
  bool locked;
  StLockInfo lock;            /* ours while locked */

  /* snapshot bookkeeping */
  bool loaded;
  bool had_file;              /* a non-empty state existed at load */
  bool written;               /* this command wrote a snapshot */
  uint64_t base_serial;       /* serial of the snapshot on disk */
  uint64_t last_serial;       /* serial last read or written */
  const char *base_lineage;
  const char *orig_src;       /* bytes of the snapshot read at load */
  size_t orig_len;
  const char *disk_p;         /* exact bytes of the snapshot on disk:
                                 orig_src at load (not copied); NULL once
                                 a commit wrote it (the text is streamed
                                 to the file, not kept: stmgr_commit
                                 reads it back when it needs it) */
  size_t disk_len;
  Arena sarena;               /* orig_src: the bytes read at load */
  bool src_dropped;           /* stmgr_drop_source: no commit any more */
  bool backup_done;

  /* journal */
  pthread_mutex_t mu;
  int journal_fd;             /* open for append, or -1 */
  bool journal_valid;         /* the journal on disk applies to the
                                 snapshot on disk */
  bool journal_stale;         /* an already compacted journal was found */
  uint64_t journal_good_len;  /* bytes of valid records */
  uint64_t journal_records;
  StIntent *intents;          /* unresolved intents (open) */
  uint32_t nintents;
  uint32_t cap_intents;
  StIntent *dangling;         /* intents open at load time */
  uint32_t ndangling;
  Arena jarena;               /* scratch for record encoding */

  pthread_mutex_t *state_mu;  /* the caller's lock on the State, or NULL */
  bool defer_sync;            /* set by the caller: stmgr_record_* do not
                                 wait for durability (see stmgr_sync) */

  /* remote (stmgr_bind_remote): NULL for a plain local state */
  const StRemote *remote;
  const char *pending_path;   /* out_path + ".pending": a snapshot the
                                 remote has not confirmed (holds the
                                 remote lock info kept for it, or "") */
  bool remote_locked;         /* we hold the remote lock (m->lock) */
  bool remote_dirty;          /* this commit changed the snapshot */
  Arena rarena;               /* what records add to the State, and open
                                 intents: used under mu only */

  /* group commit (all under mu) */
  pthread_cond_t synced_cv;   /* broadcast when a group fdatasync ends */
  uint64_t seq_written;       /* records written to the journal so far */
  uint64_t seq_synced;        /* records known durable */
  bool syncing;               /* a leader is in fdatasync (mu released) */
  int sync_errno;             /* a failed fdatasync: journal unusable */
  uint64_t nsyncs;            /* group fdatasyncs done (figures, tests) */

  /* test hooks: sleep and clock for lock retries, the journal's
  ** fdatasync (returns 0 or -1 with errno) (NULL: real ones) */
  void (*sleep_ms)(void *ctx, long ms);
  long (*now_ms)(void *ctx);
  int (*datasync)(void *ctx, int fd);
  void *hook_ctx;
} StMgr;

typedef struct StMgrOpts {
  const char *state_path;     /* read path; default "terraform.tfstate" */
  const char *out_path;       /* NULL: state_path */
  const char *backup_path;    /* NULL: out_path + ".backup"; "-": none */
} StMgrOpts;

/* Prepares m; nothing is opened yet.  Paths are copied into a. */
void stmgr_init(StMgr *m, Arena *a, const StMgrOpts *o);
/* Closes descriptors and unlocks (idempotent).  Does not commit. */
void stmgr_close(StMgr *m);

/* ---- Locking ------------------------------------------------------------ */

/* Takes the lock for `operation` (OperationTypeApply, state-mv, ...).
** timeout_ms 0 means one attempt; otherwise retries with delays of 1 s
** doubling up to 16 s until timeout_ms has passed.  notice(ctx) is called
** once if the lock is still not held after 400 ms (the CLI prints
** "Acquiring state lock. This may take a few moments...").  On contention
** adds Terraform's "Error acquiring the state lock" diagnostic. */
bool stmgr_lock(StMgr *m, const char *operation, long timeout_ms,
                StmgrNotify notice, void *ctx, Diags *d);
/* Releases the lock and removes the lock info; a no-op when not locked.
** Safe to call on every exit path. */
bool stmgr_unlock(StMgr *m, Diags *d);
/* Removes a stale lock info whose ID is id.  Fails (with Terraform's
** messages) when a live process holds the lock or the ID differs. */
bool stmgr_force_unlock(StMgr *m, const char *id, Diags *d);
/* Reads the current lock info file; false when absent or unreadable. */
bool stmgr_read_lock_info(StMgr *m, StLockInfo *out);
/* Parses lock info JSON (a lock info file, or a server's answer to a lock
** request): an object whose string members ID, Operation, Info, Who,
** Version, Created, Path fill out (absent or not strings: "").  False when
** buf is not a JSON object.  Strings in a; buf is untrusted. */
bool stmgr_parse_lock_info(Arena *a, const char *buf, size_t n,
                           StLockInfo *out);
/* Terraform's "Lock Info:" block (LockInfo.String()). */
void stmgr_format_lock_info(Buf *out, const StLockInfo *li);
/* Lock info JSON as Terraform writes it (compact, Go field names). */
void stmgr_lock_info_json(Buf *out, const StLockInfo *li);

/* ---- Snapshots -------------------------------------------------------- */

/* Loads the state: reads the snapshot (through the locked descriptor when
** locked), then replays a journal left by an interrupted command.  *out is
** an empty state (lineage "") when there is no file or a 0-byte file.
** Never modifies any file.  False with diagnostics on unreadable or
** invalid state. */
bool stmgr_load(StMgr *m, State **out, Diags *d);

/* For a command that will not change the state after stmgr_load (plan):
** gives back the bytes read at load, which only a commit needs (what was
** on disk, for "did it change", the backup and remote pushes), about
** 680 bytes an instance for the whole command.  A later stmgr_commit or
** stmgr_commit_import fails with an internal-error diagnostic. */
void stmgr_drop_source(StMgr *m);

/* Writes s as the new snapshot: serial bumped by one when its content
** differs from the snapshot loaded (or last written), a lineage assigned
** when s has none, the backup written first (once per command) when the
** content changes, then the journal removed (unresolved intents are kept
** in a fresh journal).  Atomic and durable. */
bool stmgr_commit(StMgr *m, State *s, Diags *d);

/* `state push`: writes s, a state from elsewhere, as the new snapshot,
** keeping its lineage (a new one when it has none) and basing the serial
** on its own: the file gets s->serial + 1 when s's content differs from
** the snapshot on disk at stmgr_load (or there was none), else s->serial
** (Terraform's WriteStateForMigration with the pushed serial, then
** WriteState, which bumps it when the content changed).  So a forced push
** can lower the serial.  The lineage and serial checks are the caller's
** (Terraform's CheckValidImport; skipped by -force).  Backup, atomic write
** and journal as stmgr_commit; s->serial is updated. */
bool stmgr_commit_import(StMgr *m, State *s, Diags *d);

/* Writes data to path atomically and durably (mode 0600), with crash
** points.  Used for snapshots, backups, lock info, and by `state push`. */
bool stmgr_write_file(StMgr *m, const char *path, const void *data,
                      size_t len, Diags *d);

/* ---- Journal -------------------------------------------------------------
** Each function appends one record and applies it to s (both under m's
** mutex, so the in-memory order is the journal's order), then waits for
** the group fdatasync that covers it; on return the change is both in
** memory and durable.  When the journal write or sync fails the function
** returns false with a diagnostic, but the change is applied in memory
** all the same (the operation did happen, and stmgr_commit's snapshot can
** still save it); after a failed sync every later record fails too, until
** stmgr_commit starts a fresh journal.  The object is copied into s's
** arena (via the encoded record), so callers may build it in scratch
** memory.
*/
bool stmgr_record_set(StMgr *m, State *s, const StResource *r, StKey key,
                      const char *dkey, const StObject *obj,
                      const char *intent_id, Diags *d);
bool stmgr_record_remove(StMgr *m, State *s, const StResource *r,
                         StKey key, const char *dkey, Diags *d);
bool stmgr_record_output(StMgr *m, State *s, const char *name, Value value,
                         const Type *type, bool sensitive, Diags *d);
bool stmgr_record_output_remove(StMgr *m, State *s, const char *name,
                                Diags *d);

/* Deferred durability (apply's walk, docs/state.md "Deferred sync").
** While m->defer_sync is true, the four functions above return once their
** record is written and applied, without waiting for an fdatasync: the
** record survives the process being killed (it is in the kernel's page
** cache), and only a machine crash can lose it before it is synced.  It
** becomes durable at the next group sync: stmgr_sync, an intent (which
** always waits, and whose sync covers every record written before it),
** or a recorder that does wait.  The caller sets the flag while no record
** is in progress and calls stmgr_sync before it reports an operation as
** done, before anything outside the state depends on a record
** (provisioners), and before it clears the flag.  A commit that fails
** syncs what is pending, since the journal then stays the record.
**
** stmgr_sync: returns once every record written so far is durable (at
** once when nothing is pending: no system call); false with a diagnostic
** when the sync failed, or an earlier one did and records are pending.
** Any thread. */
bool stmgr_sync(StMgr *m, Diags *d);

/* Records "about to create addr" with a fresh idempotency key, written to
** id_out (17 bytes), durably, before the provider is called. */
bool stmgr_intent(StMgr *m, State *s, const char *addr, const char *action,
                  char id_out[17], Diags *d);
/* A fresh intent id (16 lowercase hex digits + NUL), as stmgr_intent
** uses: never repeated within a thread, random across threads and runs.
** One getrandom per thread, not per id. */
void stmgr_new_intent_id(char out[17]);
/* Marks an intent as settled without a result (the create failed and the
** provider reported no object). */
bool stmgr_intent_resolve(StMgr *m, State *s, const char *id, Diags *d);

/* Intents recorded by an earlier, interrupted command and never resolved:
** "possibly created but unrecorded" instances.  Valid after stmgr_load. */
const StIntent *stmgr_dangling(const StMgr *m, uint32_t *n);

/* ---- Low level, exposed for tests and tools ---------------------------- */

uint32_t stmgr_crc32(const void *data, size_t n);
/* Appends one framed record for payload to out. */
void stmgr_frame(Buf *out, const char *payload, size_t n);
/* Scans framed records in buf[0..n): calls fn for each valid one, stops at
** the first invalid (torn) one.  Returns the length of the valid prefix. */
size_t stmgr_scan(const char *buf, size_t n,
                  bool (*fn)(void *ctx, const char *payload, size_t len),
                  void *ctx);

/* Number of durability points passed so far in this process. */
long stmgr_crash_points(void);
/* Called at each durability point (test builds: counts, logs, crashes). */
void stmgr_crash_point(const char *label);
/* Test builds: resets the counter and re-reads CAIRN_TEST_CRASH_AT and
** CAIRN_TEST_CRASH_LOG (for a forked child).  No-op otherwise. */
void stmgr_crash_reset(void);

/* Fills li with a fresh ID, Who, Version (CAIRN_VERSION), Created. */
void stmgr_new_lock_info(Arena *a, StLockInfo *li, const char *operation,
                         const char *path);

#endif
