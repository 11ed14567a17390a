/*
** pgwire: a PostgreSQL client speaking the frontend/backend protocol v3
** itself, over a unix socket or TCP, with TLS from mbedTLS (libpq would
** need OpenSSL, which cairn does not carry: docs/backends.md).
**
** - Connection strings in libpq's two forms: URI (postgres[ql]://user:pw@
**   host:port/db?param=value...) and keywords (host=... user='x y' ...),
**   completed from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE,
**   PGSSLMODE, PGSSLROOTCERT, PGSSLCERT, PGSSLKEY, PGAPPNAME,
**   PGCONNECT_TIMEOUT, as lib/pq (Terraform's driver) does.
** - A host that starts with '/' is the directory of a unix socket
**   (DIR/.s.PGSQL.PORT); TLS is never used there (as libpq).
** - sslmode: disable, allow, prefer (TLS if the server offers it),
**   require (TLS, the default on TCP as in lib/pq; the server's
**   certificate checked against sslrootcert when one is given, as libpq),
**   verify-ca (the chain checked), verify-full (chain and host name).
**   sslcert/sslkey: a client certificate.
** - Authentication: trust, cleartext password, md5, SCRAM-SHA-256
**   (RFC 5802/7677, the server's signature verified).  Anything else is
**   refused with a clear error.
** - Queries: the extended protocol (Parse/Bind/Execute/Sync) with text
**   parameters, results as text; ErrorResponse gives SQLSTATE, message,
**   detail and hint.
**
** Memory: a PgConn and everything it returns lives in the arena given to
** pgw_connect (results in the arena passed to pgw_query); the socket and
** the TLS context are released by pgw_close.  Errors are in PgError (no
** diagnostics here: the caller words them); passwords never appear in
** an error.  Not thread-safe: one connection, one thread.
*/
#ifndef CAIRN_PGWIRE_H
#define CAIRN_PGWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

#define PGW_MAX_EXTRA 16

typedef struct PgConnInfo {
  const char *host;          /* name, address, or a unix socket directory */
  const char *port;          /* "5432" */
  const char *user;
  const char *password;      /* NULL: none */
  const char *dbname;        /* default: user */
  const char *sslmode;       /* default "require" (lib/pq) */
  const char *sslrootcert;
  const char *sslcert;
  const char *sslkey;
  const char *application_name;
  long connect_timeout;      /* seconds, 0: 30 */
  /* other keywords (options, search_path...): startup parameters, sent
  ** to the server as lib/pq does */
  const char *extra_keys[PGW_MAX_EXTRA], *extra_vals[PGW_MAX_EXTRA];
  int nextra;
} PgConnInfo;

/* What went wrong: a server's ErrorResponse (sqlstate set) or a client
** side failure (sqlstate ""; message says what). */
typedef struct PgError {
  const char *severity;
  const char *sqlstate;
  const char *message;
  const char *detail;        /* may be NULL */
  const char *hint;          /* may be NULL */
} PgError;

typedef struct PgResult {
  int ncols;
  const char **cols;         /* column names */
  int nrows;
  const char ***rows;        /* rows[r][c], NUL-terminated; NULL is SQL NULL */
  size_t **lens;             /* lens[r][c] */
  const char *tag;           /* CommandComplete, e.g. "INSERT 0 1" */
} PgResult;

typedef struct PgConn PgConn;

/* Parses s (URI or keyword form) over the environment's defaults into
** *ci (strings in a).  false with *why (never quoting a password). */
bool pgw_parse_conninfo(Arena *a, const char *s, PgConnInfo *ci,
                        const char **why);

/* Connects, negotiates TLS and authenticates.  NULL with *err. */
PgConn *pgw_connect(Arena *a, const PgConnInfo *ci, PgError *err);
void pgw_close(PgConn *c);

/* One statement with nparams text parameters ($1...; NULL is SQL NULL).
** false with *err: a server error (the connection stays usable) or a
** broken connection (pgw_broken then says so). */
bool pgw_query(PgConn *c, Arena *a, const char *sql, int nparams,
               const char *const *params, PgResult *res, PgError *err);
bool pgw_broken(const PgConn *c);

/* ---- pieces exposed for tests and the fuzz target ------------------- */

/* One backend message at the start of buf[0..n): its type and payload.
** Returns the bytes it takes, 0 when more bytes are needed, -1 when the
** header is invalid (length < 4 or > PGW_MAX_MSG). */
#define PGW_MAX_MSG (256u << 20)
typedef struct PgMsg {
  char type;
  const uint8_t *body;
  size_t len;
} PgMsg;
long pgw_msg_next(const uint8_t *buf, size_t n, PgMsg *m);

/* Decodes the replies to one query (RowDescription, DataRow,
** CommandComplete, ErrorResponse, notices...) into res/err.  Returns
** 1 at ReadyForQuery, 0 to go on, -1 on a malformed message (err says
** so).  *failed is set by an ErrorResponse. */
int pgw_result_feed(Arena *a, const PgMsg *m, PgResult *res, PgError *err,
                    bool *failed);

/* ErrorResponse/NoticeResponse fields into *err. */
bool pgw_parse_error(Arena *a, const uint8_t *p, size_t n, PgError *err);

/* SCRAM-SHA-256, client side (RFC 5802, 7677). */
typedef struct PgScram {
  const char *client_first_bare;  /* "n=user,r=nonce" */
  const char *nonce;
  uint8_t server_signature[32];
} PgScram;
/* The client-first-message ("n,,n=user,r=nonce"). */
const char *pgw_scram_first(Arena *a, PgScram *s, const char *user,
                            const char *nonce);
/* The client-final-message for the server-first-message sf, or NULL
** with *why (a nonce that does not extend ours, a bad salt or count). */
const char *pgw_scram_final(Arena *a, PgScram *s, const char *sf, size_t n,
                            const char *password, const char **why);
/* Checks the server-final-message ("v=..."). */
bool pgw_scram_verify(const PgScram *s, const char *sf, size_t n,
                      const char **why);

/* libpq's md5 password: "md5" + md5hex(md5hex(password + user) + salt). */
const char *pgw_md5_password(Arena *a, const char *user,
                             const char *password, const uint8_t salt[4]);

#endif
