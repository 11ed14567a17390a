/*
** be_pg: Terraform's pg state backend (see be_pg.h).
*/
#include "be_pg.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "pgwire.h"
#include "state/state.h"
#include "state/workspace.h"

#define APP_PREFIX "cairn "

typedef struct PgWs PgWs;

struct BePg {
  Arena *a;
  BePgConfig c;
  PgConnInfo ci;
  const char *schema;        /* quoted identifier */
  const char *app_name;      /* the session's own application_name */
  PgConn *conn;
  bool connect_failed;
  PgError connect_err;       /* why, repeated to later requests */
  BeWorkspaces *ws;
  PgWs *list;
};

struct PgWs {
  BePg *b;
  const char *name;
  StRemote r;
  const char *held;          /* the advisory lock key held, or NULL */
  const char *lock_id;       /* the lock info ID it was taken for */
  PgWs *next;
};

/* pq.QuoteIdentifier: double quotes, inner ones doubled. */
static const char *quote_ident(Arena *a, const char *s)
{
  Buf b;
  buf_init(&b, a);
  buf_putc(&b, '"');
  for (const char *p = s; *p; p++) {
    if (*p == '"')
      buf_putc(&b, '"');
    buf_putc(&b, *p);
  }
  buf_putc(&b, '"');
  return buf_str(&b);
}

static void pg_diag(Diags *d, const char *summary, const PgError *e)
{
  if (e->sqlstate && *e->sqlstate)
    diag_error(d, NULL, summary, "%s (SQLSTATE %s)%s%s%s%s", e->message,
               e->sqlstate, e->detail ? "\n" : "", e->detail ? e->detail : "",
               e->hint ? "\nHint: " : "", e->hint ? e->hint : "");
  else
    diag_error(d, NULL, summary, "%s", e->message);
}

static bool query(BePg *b, Arena *a, const char *summary, const char *sql,
                  int n, const char *const *params, PgResult *res, Diags *d)
{
  PgError e;
  if (pgw_query(b->conn, a, sql, n, params, res, &e))
    return true;
  pg_diag(d, summary, &e);
  return false;
}

static bool prepare_schema(BePg *b, Diags *d)
{
  Arena *a = b->a;
  PgResult r;
  const char *sum = "Error preparing the pg backend's schema";
  if (!b->c.skip_schema_creation) {
    const char *p[1] = {b->c.schema_name};
    if (!query(b, a, sum, "SELECT count(1) FROM information_schema.schemata "
               "WHERE schema_name = $1", 1, p, &r, d))
      return false;
    /* CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when
    ** the schema exists, so it is only tried when it does not. */
    if (r.nrows == 1 && r.rows[0][0] && strcmp(r.rows[0][0], "0") == 0 &&
        !query(b, a, sum, arena_printf(a, "CREATE SCHEMA IF NOT EXISTS %s", b->schema), 0,
               NULL, &r, d))
      return false;
  }
  if (!b->c.skip_table_creation &&
      (!query(b, a, sum, "CREATE SEQUENCE IF NOT EXISTS "
              "public.global_states_id_seq AS bigint", 0, NULL, &r, d) ||
       !query(b, a, sum, arena_printf(a, "CREATE TABLE IF NOT EXISTS %s.states ("
              "id bigint NOT NULL DEFAULT "
              "nextval('public.global_states_id_seq') PRIMARY KEY, "
              "name text UNIQUE, data text)", b->schema), 0, NULL, &r, d)))
    return false;
  if (!b->c.skip_index_creation &&
      !query(b, a, sum, arena_printf(a, "CREATE UNIQUE INDEX IF NOT EXISTS "
             "states_by_name ON %s.states (name)", b->schema), 0, NULL, &r, d))
    return false;
  return true;
}

/* The session, opened and prepared at the first request. */
static bool conn(BePg *b, Diags *d)
{
  if (b->conn && !pgw_broken(b->conn))
    return true;
  if (b->conn) {
    diag_error(d, NULL, "Lost the connection to the pg backend",
               "The connection to PostgreSQL broke earlier in this command "
               "(and with it any state lock it held); nothing more is sent "
               "to the database.");
    return false;
  }
  /* One attempt per command: a second would only wait as long again. */
  if (!b->connect_failed) {
    b->conn = pgw_connect(b->a, &b->ci, &b->connect_err);
    b->connect_failed = !b->conn;
  }
  if (!b->conn) {
    pg_diag(d, "Error connecting to the pg backend", &b->connect_err);
    return false;
  }
  /* Two first commands at once may race on CREATE ... IF NOT EXISTS
  ** (a unique violation in the catalog): once more settles it. */
  Diags tmp;
  diag_init(&tmp, b->a);
  if (!prepare_schema(b, &tmp) && !prepare_schema(b, d))
    return false;
  return true;
}

static bool op_get(void *ctx, Arena *a, Buf *out, bool *found, Diags *d)
{
  PgWs *w = ctx;
  BePg *b = w->b;
  *found = false;
  if (!conn(b, d))
    return false;
  PgResult r;
  const char *p[1] = {w->name};
  if (!query(b, a, "Error reading the state from the pg backend",
             arena_printf(a, "SELECT data FROM %s.states WHERE name = $1", b->schema), 1, p,
             &r, d))
    return false;
  if (r.nrows == 0 || !r.rows[0][0])
    return true;
  buf_put(out, r.rows[0][0], r.lens[0][0]);
  *found = true;
  return true;
}

static bool op_put(void *ctx, const char *data, size_t n, const char *lock_id,
                   Diags *d)
{
  PgWs *w = ctx;
  BePg *b = w->b;
  (void)lock_id;
  if (!conn(b, d))
    return false;
  if (memchr(data, 0, n)) {
    diag_error(d, NULL, "Error writing the state to the pg backend",
               "The state holds a NUL byte, which a text column cannot "
               "store.");
    return false;
  }
  ArenaMark mk = arena_mark(b->a);
  const char *p[2] = {w->name, arena_strndup(b->a, data, n)};
  PgResult r;
  /* One statement: the row holds the old state or the new one. */
  bool ok = query(b, b->a, "Error writing the state to the pg backend",
                  arena_printf(b->a, "INSERT INTO %s.states (name, data) "
                               "VALUES ($1, $2) ON CONFLICT (name) DO UPDATE "
                               "SET data = $2 WHERE states.name = $1",
                               b->schema), 2, p, &r, d);
  /* The copy goes (a state may be large); a diagnostic may live in the
  ** same arena, so only after a success. */
  if (ok)
    arena_rewind(b->a, mk);
  return ok;
}

static void set_app_name(BePg *b, const char *name)
{
  PgResult r;
  Diags tmp;
  diag_init(&tmp, b->a);
  const char *p[1] = {name};
  (void)query(b, b->a, "", "SELECT set_config('application_name', $1, "
              "false)", 1, p, &r, &tmp);
}

static bool advisory_unlock(BePg *b, const char *key, Diags *d)
{
  PgResult r;
  const char *p[1] = {key};
  return query(b, b->a, "Error unlocking the state in the pg backend",
               "SELECT pg_advisory_unlock($1::bigint)", 1, p, &r, d);
}

/* Who holds the advisory lock key (a bigint in text): pg_locks splits it
** into classid (high 32 bits) and objid (low 32 bits), objsubid 1. */
static void find_holder(BePg *b, Arena *a, const char *key,
                        StLockInfo *holder)
{
  long long k = strtoll(key, NULL, 10);
  unsigned long long u = (unsigned long long)k;
  const char *p[2] = {arena_printf(a, "%llu", u >> 32),
                      arena_printf(a, "%llu", u & 0xffffffffULL)};
  PgResult r;
  Diags tmp;
  diag_init(&tmp, a);
  memset(holder, 0, sizeof *holder);
  holder->id = holder->operation = holder->info = holder->who = "";
  holder->version = holder->created = "";
  holder->path = key;
  if (!query(b, a, "", "SELECT a.pid::text, coalesce(a.usename::text, ''), "
             "coalesce(host(a.client_addr), ''), "
             "coalesce(a.application_name, ''), "
             "coalesce(to_char(a.backend_start AT TIME ZONE 'UTC', "
             "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), '') "
             "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
             "WHERE l.locktype = 'advisory' AND l.granted "
             "AND l.database = (SELECT oid FROM pg_database "
             "WHERE datname = current_database()) "
             "AND l.classid::bigint = $1::bigint "
             "AND l.objid::bigint = $2::bigint AND l.objsubid = 1 "
             "ORDER BY a.pid LIMIT 1", 2, p, &r, &tmp) ||
      r.nrows == 0)
    return;
  const char **row = r.rows[0];
  const char *app = row[3] ? row[3] : "";
  if (strncmp(app, APP_PREFIX, strlen(APP_PREFIX)) == 0)
    holder->id = app + strlen(APP_PREFIX);
  holder->who = arena_printf(a, "%s@%s", row[1] ? row[1] : "",
                             row[2] && *row[2] ? row[2] : "local socket");
  holder->info = arena_printf(a, "PostgreSQL session pid %s%s%s%s, "
                              "connected at %s", row[0] ? row[0] : "?",
                              *app ? " (application_name \"" : "", app,
                              *app ? "\")" : "", row[4] ? row[4] : "?");
}

static StRemoteRes locked(BePg *b, Arena *a, const char *key,
                          StLockInfo *holder, const char **why,
                          const char *text)
{
  find_holder(b, a, key, holder);
  *why = text;
  return ST_REMOTE_LOCKED;
}

static StRemoteRes op_lock(void *ctx, Arena *a, const StLockInfo *li,
                           StLockInfo *holder, const char **why, Diags *d)
{
  PgWs *w = ctx;
  BePg *b = w->b;
  memset(holder, 0, sizeof *holder);
  *why = NULL;
  if (!conn(b, d))
    return ST_REMOTE_ERR;
  const char *sum = "Error acquiring the state lock";
  PgResult r;
  const char *p[1] = {w->name};
  /* Terraform's order: the row's lock and the creation lock (-1) in one
  ** statement; no row: the creation lock alone. */
  if (!query(b, a, sum, arena_printf(a, "SELECT states.id::text, "
             "pg_try_advisory_lock(states.id), pg_try_advisory_lock(-1) "
             "FROM %s.states WHERE states.name = $1", b->schema), 1, p, &r, d))
    return ST_REMOTE_ERR;
  const char *key;
  if (r.nrows == 0) {
    if (!query(b, a, sum, "SELECT pg_try_advisory_lock(-1)", 0, NULL, &r, d))
      return ST_REMOTE_ERR;
    if (r.nrows != 1 || !r.rows[0][0] || strcmp(r.rows[0][0], "t") != 0)
      return locked(b, a, "-1", holder, why, arena_printf(a,
                    "Already locked for workspace creation: %s", w->name));
    key = "-1";
  } else {
    const char **row = r.rows[0];
    bool got = row[1] && strcmp(row[1], "t") == 0;
    bool got_create = row[2] && strcmp(row[2], "t") == 0;
    const char *id = arena_strdup(a, row[0] ? row[0] : "0");
    if (!got) {
      if (got_create && !advisory_unlock(b, "-1", d))
        return ST_REMOTE_ERR;
      return locked(b, a, id, holder, why, arena_printf(a,
                    "Workspace is already locked: %s", w->name));
    }
    if (!got_create) {
      if (!advisory_unlock(b, id, d))
        return ST_REMOTE_ERR;
      return locked(b, a, "-1", holder, why, arena_printf(a,
                    "Cannot lock workspace; already locked for workspace "
                    "creation: %s", w->name));
    }
    if (!advisory_unlock(b, "-1", d))
      return ST_REMOTE_ERR;
    key = id;
  }
  w->held = arena_strdup(b->a, key);
  w->lock_id = arena_strdup(b->a, li->id ? li->id : "");
  set_app_name(b, arena_printf(a, APP_PREFIX "%s", w->lock_id));
  return ST_REMOTE_OK;
}

/* force-unlock ID from another process: the advisory lock belongs to the
** holder's session, which alone can release it, so the session that
** carries the lock ID (application_name "cairn ID") is terminated, and
** its locks go with it.  Terraform's client cannot release another
** session's lock at all. */
static bool force_unlock(BePg *b, PgWs *w, const char *id, Diags *d)
{
  Arena *a = b->a;
  const char *sum = "Failed to unlock state";
  const char *p[1] = {arena_printf(a, APP_PREFIX "%s", id)};
  PgResult r;
  if (!query(b, a, sum, "SELECT a.pid::text, pg_terminate_backend(a.pid) "
             "FROM pg_stat_activity a WHERE a.application_name = $1 "
             "AND a.datname = current_database() AND a.pid <> "
             "pg_backend_pid() AND EXISTS (SELECT 1 FROM pg_locks l WHERE "
             "l.pid = a.pid AND l.locktype = 'advisory' AND l.granted)", 1, p,
             &r, d))
    return false;
  if (r.nrows == 0) {
    diag_error(d, NULL, sum, "No PostgreSQL session holds a lock of the "
               "\"%s\" workspace with the ID %s. A pg lock lives as long "
               "as the session that took it: if that process has ended, "
               "its lock is already gone.", w->name, id);
    return false;
  }
  const char *pid = r.rows[0][0] ? r.rows[0][0] : "0";
  if (!r.rows[0][1] || strcmp(r.rows[0][1], "t") != 0) {
    diag_error(d, NULL, sum, "PostgreSQL did not terminate the session "
               "(pid %s) holding the lock %s.", pid, id);
    return false;
  }
  /* pg_terminate_backend only signals: wait (bounded) until the session
  ** and its locks are gone, so the next command finds the lock free. */
  const char *q[1] = {pid};
  for (int i = 0; i < 100; i++) {
    if (!query(b, a, sum, "SELECT count(1) FROM pg_locks WHERE pid = "
               "$1::int", 1, q, &r, d))
      return false;
    if (r.nrows == 1 && r.rows[0][0] && strcmp(r.rows[0][0], "0") == 0)
      return true;
    poll(NULL, 0, 50);
  }
  diag_error(d, NULL, sum, "The session (pid %s) holding the lock %s was "
             "told to end but still holds it after 5 seconds.", pid, id);
  return false;
}

static bool op_unlock(void *ctx, const StLockInfo *li, Diags *d)
{
  PgWs *w = ctx;
  BePg *b = w->b;
  if (w->held && li->id && strcmp(li->id, w->lock_id) == 0) {
    if (pgw_broken(b->conn))
      return true;   /* the session, and the lock with it, are gone */
    bool ok = advisory_unlock(b, w->held, d);
    w->held = NULL;
    set_app_name(b, b->app_name);
    return ok;
  }
  if (!conn(b, d))
    return false;
  return force_unlock(b, w, li->id ? li->id : "", d);
}

static PgWs *ws_of(BePg *b, const char *name)
{
  for (PgWs *w = b->list; w; w = w->next)
    if (strcmp(w->name, name) == 0)
      return w;
  PgWs *w = ARENA_NEW(b->a, PgWs, 1);
  w->b = b;
  w->name = arena_strdup(b->a, name);
  w->r.type = "pg";
  w->r.ctx = w;
  w->r.can_lock = true;
  w->r.get = op_get;
  w->r.put = op_put;
  w->r.lock = op_lock;
  w->r.unlock = op_unlock;
  w->next = b->list;
  b->list = w;
  return w;
}

static const StRemote *wsop_remote(void *ctx, const char *name)
{
  return &ws_of(ctx, name)->r;
}

static int cmp_str(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool wsop_list(void *ctx, Arena *a, const char ***names, int *n,
                    Diags *d)
{
  BePg *b = ctx;
  *names = NULL;
  *n = 0;
  if (!conn(b, d))
    return false;
  PgResult r;
  if (!query(b, a, "Error listing the pg backend's workspaces",
             arena_printf(a, "SELECT name FROM %s.states WHERE name != "
                  "'default'", b->schema), 0, NULL, &r, d))
    return false;
  const char **v = ARENA_NEW(a, const char *, (size_t)r.nrows + 1);
  int k = 0;
  v[k++] = WS_DEFAULT;
  for (int i = 0; i < r.nrows; i++)
    if (r.rows[i][0])
      v[k++] = r.rows[i][0];
  qsort(v + 1, (size_t)k - 1, sizeof *v, cmp_str);
  *names = v;
  *n = k;
  return true;
}

/* Terraform's StateMgr for a new name: under the lock, an empty state is
** written, so the row (the workspace) exists. */
static bool wsop_create(void *ctx, const char *name, Diags *d)
{
  BePg *b = ctx;
  PgWs *w = ws_of(b, name);
  StLockInfo li, holder;
  stmgr_new_lock_info(b->a, &li, "init", "");
  const char *why = NULL;
  StRemoteRes lr = op_lock(w, b->a, &li, &holder, &why, d);
  if (lr == ST_REMOTE_ERR)
    return false;
  if (lr == ST_REMOTE_LOCKED) {
    Buf t;
    buf_init(&t, b->a);
    buf_puts(&t, why);
    if (*holder.id || *holder.who) {
      buf_putc(&t, '\n');
      stmgr_format_lock_info(&t, &holder);
    }
    diag_error(d, NULL, "Error acquiring the state lock",
               "failed to lock state in Postgres: %s", buf_str(&t));
    return false;
  }
  Buf cur;
  buf_init(&cur, b->a);
  bool found = false;
  bool ok = op_get(w, b->a, &cur, &found, d);
  if (ok && !found) {
    State *s = st_new(b->a);
    s->lineage = st_new_lineage(b->a);
    s->serial = 1;
    Buf j;
    buf_init(&j, b->a);
    st_write(&j, s, NULL);
    ok = op_put(w, j.p, j.len, li.id, d);
  }
  ok = op_unlock(w, &li, d) && ok;
  return ok;
}

static bool wsop_remove(void *ctx, const char *name, Diags *d)
{
  BePg *b = ctx;
  if (!*name || strcmp(name, WS_DEFAULT) == 0) {
    diag_error(d, NULL, "Error deleting workspace",
               "can't delete default state");
    return false;
  }
  if (!conn(b, d))
    return false;
  PgResult r;
  const char *p[1] = {name};
  return query(b, b->a, "Error deleting workspace",
               arena_printf(b->a, "DELETE FROM %s.states WHERE name = $1", b->schema), 1, p,
               &r, d);
}

BePg *bepg_open(Arena *a, const BePgConfig *c, BeWorkspaces *ws, Diags *d)
{
  if (!c->conn_str || !*c->conn_str) {
    diag_error(d, NULL, "Missing required argument",
               "The argument \"conn_str\" is required, but no definition "
               "was found: set it in the backend block, with "
               "-backend-config, or in PG_CONN_STR.");
    return NULL;
  }
  BePg *b = ARENA_NEW(a, BePg, 1);
  b->a = a;
  b->c = *c;
  if (!b->c.schema_name || !*b->c.schema_name)
    b->c.schema_name = "terraform_remote_state";
  b->schema = quote_ident(a, b->c.schema_name);
  const char *why = NULL;
  if (!pgw_parse_conninfo(a, c->conn_str, &b->ci, &why)) {
    diag_error(d, NULL, "Invalid pg backend configuration",
               "conn_str: %s.", why);
    return NULL;
  }
  if (!b->ci.application_name)
    b->ci.application_name = "cairn";
  b->app_name = b->ci.application_name;
  b->ws = ws;
  memset(ws, 0, sizeof *ws);
  ws->ctx = b;
  ws->remote = wsop_remote;
  ws->list = wsop_list;
  ws->create = wsop_create;
  ws->remove = wsop_remove;
  return b;
}

void bepg_close(BePg *b)
{
  if (!b)
    return;
  if (b->conn)
    pgw_close(b->conn);
  b->conn = NULL;
}
