/*
** be_http: Terraform's "http" state backend over net/http.h (libcurl on
** mbedTLS): the protocol GitLab's managed Terraform state speaks
** (docs/backends.md).
**
** - GET address: the state (200); 204, 404 or an empty body: no state.
** - update_method (POST) address[?ID=lock id], the whole state as JSON
**   with Content-MD5 (base64 of its MD5): 200, 201 or 204 confirm it;
**   anything else, or no answer, is an error: never reported as saved.
** - lock_method (LOCK) lock_address with the lock info JSON: 200 locked;
**   423 or 409 locked by another, whose lock info the body holds.
** - unlock_method (UNLOCK) unlock_address with the lock info JSON: 200.
** - DELETE address: removes the state (migration away).
** Retries as Terraform's go-retryablehttp: retry_max extra attempts on
** connection errors, 429 and 5xx but 501, waiting retry_wait_min * 2^n
** seconds up to retry_wait_max (Retry-After honoured).
**
** Ownership: everything in the arena given to behttp_open, which must
** outlive the StRemote; the libcurl handle is released by behttp_close.
** Credentials never appear in diagnostics.
*/
#ifndef CAIRN_BE_HTTP_H
#define CAIRN_BE_HTTP_H

#include <stdbool.h>

#include "base/arena.h"
#include "base/diag.h"
#include "state/stmgr.h"

typedef struct BeHttpConfig {
  const char *address;
  const char *update_method;     /* default POST */
  const char *lock_address;      /* NULL: no locking (as Terraform) */
  const char *lock_method;       /* default LOCK */
  const char *unlock_address;    /* NULL: unlock is a no-op */
  const char *unlock_method;     /* default UNLOCK */
  const char *username;
  const char *password;
  bool skip_cert_verification;   /* the caller checked the opt-in */
  long retry_max;                /* default 2 */
  long retry_wait_min;           /* seconds, default 1 */
  long retry_wait_max;           /* seconds, default 30 */
  const char *client_ca_certificate_pem;
  const char *client_certificate_pem;
  const char *client_private_key_pem;
} BeHttpConfig;

typedef struct BeHttp BeHttp;

/* Checks c (Terraform's checks: address required and http(s), the
** client certificate and key together, ...) and fills *r with the
** backend's operations.  NULL with diagnostics. */
BeHttp *behttp_open(Arena *a, const BeHttpConfig *c, StRemote *r, Diags *d);
void behttp_close(BeHttp *b);

/* DELETE address (after a migration away, if the user asks). */
bool behttp_delete(BeHttp *b, Diags *d);

/* Parses the body of a 423/409 answer to a lock request: the holder's
** lock info.  Terraform's words for the conflict go to *why ("HTTP remote
** state already locked: ID=..."), or "..., failed to unmarshal body" when
** the body is not lock info.  Strings in a; body is untrusted. */
void behttp_parse_conflict(Arena *a, const char *body, size_t len,
                           StLockInfo *holder, const char **why);

#endif
