/*
** lockfile: the dependency lock file .terraform.lock.hcl, read and
** written (docs/host-config.md "Lock file", docs/plugins.md "Mirrors").
**
** One `provider "ADDR" { ... }` block per provider, one attribute per
** line.  Plugins from a mirror are recorded exactly as Terraform records
** them, so the file stays compatible:
**
**   provider "registry.terraform.io/hashicorp/null" {
**     version     = "3.2.0"
**     constraints = "~> 3.2"
**     hashes = [
**       "h1:...",
**       "zh:...",
**     ]
**   }
**
** cairn's own kinds add `builtin = true`, or `endpoint`, `identity` and
** `schema` for remote providers over HTTPS; a `plugin = PATH` binary is
** `endpoint = "plugin:PATH"` with the binary's h1: in `hashes`.  Unknown
** attributes are skipped (a newer cairn or Terraform may add some);
** anything else that is not this shape is an "Invalid dependency lock
** file" error naming the line.  Blocks are written sorted by address,
** hashes sorted.
**
** Memory: everything lives in the arena given.
*/
#ifndef CAIRN_LOCKFILE_H
#define CAIRN_LOCKFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

#define LOCKF_NAME ".terraform.lock.hcl"

typedef struct LockEnt {
  const char *addr;          /* normalised source address */
  bool builtin;
  const char *endpoint;      /* remote: base URL, or "plugin:PATH" */
  const char *identity;      /* remote: sha256//B64 of the server key */
  const char *schema;        /* remote: sha256:HEX of the schema */
  const char *version;       /* mirror plugin: the selected version */
  const char *constraints;   /* mirror plugin: canonical, NULL for none */
  const char **hashes;       /* plugin: "h1:...", "zh:..." */
  uint32_t nhashes;
} LockEnt;

typedef struct Lock {
  LockEnt *e;
  uint32_t n, cap;
} Lock;

/* Reads path into *l (empty when the file does not exist).  False with a
** diagnostic when it cannot be read or parsed. */
bool lockf_read(Arena *a, const char *path, Lock *l, Diags *d);

/* Writes *l to path atomically (a temporary file renamed). */
bool lockf_write(Arena *a, const char *path, Lock *l, Diags *d);

/* The entry for addr, added empty when absent. */
LockEnt *lockf_add(Arena *a, Lock *l, const char *addr);

/* The entry for addr, or NULL. */
LockEnt *lockf_find(const Lock *l, const char *addr);

/* Adds hash to e's list unless it is there already. */
void lockf_add_hash(Arena *a, LockEnt *e, const char *hash);

#endif
