/*
** mirror: provider packages in a Terraform filesystem mirror or plugin
** cache directory (docs/plugins.md, "Mirrors"), their hashes as the
** dependency lock file records them, and installing one into
** .terraform/providers/.
**
** Layouts, under the directory the host configuration names (ADDR is the
** normalised source HOST/NAMESPACE/TYPE, PLATFORM the host's OS_ARCH):
**   unpacked  ADDR/VERSION/PLATFORM/terraform-provider-TYPE_vVERSION...
**   packed    ADDR/terraform-provider-TYPE_VERSION_PLATFORM.zip
** as `terraform providers mirror` and TF_PLUGIN_CACHE_DIR write them.
**
** Hashes (Terraform's internal/getproviders/hash.go):
** - h1: golang.org/x/mod/sumdb/dirhash's Hash1 of the package's files:
**   for each file, sorted by its '/'-separated path relative to the
**   package, the line "SHA256HEX  PATH\n"; "h1:" + base64 of the SHA-256
**   of those lines.  For a .zip, the paths are the archive's entry names.
** - zh: "zh:" + hex SHA-256 of the .zip file itself.
**
** Installing (as Terraform's provider cache does): an unpacked package is
** linked (a symbolic link to the mirror's directory); a .zip is unpacked
** into a fresh directory renamed into place.  No network, ever.
**
** Failures come back as false with *why, an English sentence in the
** arena; callers wrap it in Terraform's wording.  Memory: results live in
** the arena given; nothing else is kept.
*/
#ifndef CAIRN_MIRROR_H
#define CAIRN_MIRROR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"

typedef struct MirrorPkg {
  const char *version;       /* "3.2.0" */
  const char *path;          /* the package directory, or the .zip file */
  bool zip;
} MirrorPkg;

/* One file of a package, for mirror_h1. */
typedef struct MirrorFile {
  const char *name;          /* '/'-separated, relative to the package */
  uint8_t sum[32];           /* SHA-256 of its content */
} MirrorFile;

/* The host's platform as Terraform names it: "linux_amd64", "linux_arm64",
** "linux_arm" (the architecture cairn was built for). */
const char *mirror_platform(void);

/* Every package of addr for platform in the mirror directory dir, newest
** version first; when a version is there both unpacked and packed, the
** unpacked one.  Directory names that are not versions are skipped.  A
** missing addr directory is an empty list; an unreadable dir is false. */
bool mirror_list(Arena *a, const char *dir, const char *addr,
                 const char *platform, MirrorPkg **out, uint32_t *n,
                 const char **why);

/* Hash1 of the files (sorted here; f is reordered).  NULL when a name
** holds a newline (dirhash refuses those). */
const char *mirror_h1(Arena *a, MirrorFile *f, uint32_t n);

/* The h1: hash of the package directory dir (symbolic links followed for
** dir itself and for files, as Terraform does). */
bool mirror_hash_dir(Arena *a, const char *dir, const char **h1,
                     const char **why);

/* The h1: hash of one file (a `plugin = PATH` binary) as the package it
** would be alone in a directory: dirhash over that one file under its base
** name, so it equals the h1: of an unpacked mirror package holding only
** that binary.  Symbolic links are followed. */
bool mirror_hash_file(Arena *a, const char *path, const char **h1,
                      const char **why);

/* The h1: hash of the .zip's contents and the zh: hash of the file. */
bool mirror_hash_zip(Arena *a, const char *path, const char **h1,
                     const char **zh, const char **why);

/* Installs pkg at target (a path under .terraform/providers/), replacing
** whatever is there: a link to an unpacked package, or the .zip
** unpacked. */
bool mirror_install(Arena *a, const MirrorPkg *pkg, const char *target,
                    const char **why);

/* The plugin executable in an installed package directory: the first
** regular file, by name, starting with "terraform-provider-TYPE"; NULL
** when there is none. */
const char *mirror_executable(Arena *a, const char *pkgdir,
                              const char *type);

#endif
