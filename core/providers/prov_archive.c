/*
** prov_archive: the built-in hashicorp/archive provider (upstream v2.7).
**
** data and resource archive_file with upstream's schema, validators and
** messages.  The archive bytes are upstream's for the same input, since
** users pin its hashes (a Lambda's source_code_hash):
** - zip as upstream writes it through Go's archive/zip: every entry
**   deflated at Go's level 5 (goflate, Go's own compressor), a data
**   descriptor, version 2.0, the UTF-8 flag when a name needs it; entries
**   from files get Unix attributes from the file mode (or
**   output_file_mode) and the MS-DOS date of Go's zero time; entries from
**   content get neither.  No directory entries.
** - tar.gz as upstream's tar_archiver.go writes it: USTAR headers (mtime
**   0, uid/gid 0, mode from the file or output_file_mode), file data in
**   io.Copy's 32 KiB pieces, through Go's gzip at the default level.
** - source_dir is walked as Go's filepath.Walk does (names sorted
**   bytewise per directory, depth first), excludes are doublestar
**   patterns on the archive path, symbolic links are followed (linked
**   directories walked under the link's name unless
**   exclude_symlink_directories; as upstream, skipping one also skips the
**   rest of its directory), an archive with no file is an error.
** - data sources build the archive when read; the resource builds it on
**   create and on every refresh (upstream's Read re-archives), never
**   deletes it, and every argument but exclude_symlink_directories forces
**   replacement.
** Where cairn differs (docs/providers.md): update (a changed
** exclude_symlink_directories) rebuilds the archive; the archive being
** written is never archived into itself; zip64 (4 GiB, 65,535 entries),
** tar names that need a PAX header, and special files are refused with an
** error; the archive is built in memory.
*/
#include "base/goarchive.h"
#include "lang/funcs.h"
#include "provider.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NATTRS(x) ((uint32_t)(sizeof(x) / sizeof((x)[0])))

/* ---- schema --------------------------------------------------------------- */

#define ONE_OF                                                             \
  "One and only one of `source`, `source_content_filename` (with "         \
  "`source_content`), `source_file`, or `source_dir` must be specified."

static const Type set_string = {.kind = TY_SET, .elem = &ty_string};

static const ProvAttrSchema source_attrs[] = {
  {.name = "content", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "Add this content to the archive with `filename` as the "
                  "filename."},
  {.name = "filename", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "Set this as the filename when declaring a `source`."},
};
static const ProvBlockSchema source_block = {
  .attrs = source_attrs, .nattrs = NATTRS(source_attrs)};
static const ProvNestedBlock file_blocks[] = {
  {.type_name = "source", .nesting = PROV_NEST_SET, .block = &source_block},
};

static const ProvAttrSchema file_attrs[] = {
  {.name = "exclude_symlink_directories", .type = &ty_bool,
   .flags = PROV_OPTIONAL,
   .description = "Boolean flag indicating whether symbolically linked "
                  "directories should be excluded during the creation of "
                  "the archive. Defaults to `false`."},
  {.name = "excludes", .type = &set_string, .flags = PROV_OPTIONAL,
   .description = "Specify files/directories to ignore when reading the "
                  "`source_dir`. Supports glob file matching patterns "
                  "including doublestar/globstar (`**`) patterns."},
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "The sha1 checksum hash of the output."},
  {.name = "output_base64sha256", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "Base64 Encoded SHA256 checksum of output file"},
  {.name = "output_base64sha512", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "Base64 Encoded SHA512 checksum of output file"},
  {.name = "output_file_mode", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "String that specifies the octal file mode for all "
                  "archived files. For example: `\"0666\"`. Setting this "
                  "will ensure that cross platform usage of this module "
                  "will not vary the modes of archived files (and "
                  "ultimately checksums) resulting in more deterministic "
                  "behavior."},
  {.name = "output_md5", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "MD5 of output file"},
  {.name = "output_path", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "The output of the archive file."},
  {.name = "output_sha", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "SHA1 checksum of output file"},
  {.name = "output_sha256", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "SHA256 checksum of output file"},
  {.name = "output_sha512", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "SHA512 checksum of output file"},
  {.name = "output_size", .type = &ty_number, .flags = PROV_COMPUTED,
   .description = "The byte size of the output archive file."},
  {.name = "source_content", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Add only this content to the archive with "
                  "`source_content_filename` as the filename. " ONE_OF},
  {.name = "source_content_filename", .type = &ty_string,
   .flags = PROV_OPTIONAL,
   .description = "Set this as the filename when using `source_content`. "
                  ONE_OF},
  {.name = "source_dir", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Package entire contents of this directory into the "
                  "archive. " ONE_OF},
  {.name = "source_file", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Package this file into the archive. " ONE_OF},
  {.name = "type", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "The type of archive to generate. NOTE: `zip` and "
                  "`tar.gz` is supported."},
};

static const ProvBlockSchema data_block = {
  .attrs = file_attrs, .nattrs = NATTRS(file_attrs),
  .blocks = file_blocks, .nblocks = 1,
  .description = "Generates an archive from content, a file, or directory "
                 "of files. The archive is built during the terraform "
                 "plan, so you must persist the archive through to the "
                 "terraform apply. See the `archive_file` resource for an "
                 "alternative if you cannot persist the file, such as in a "
                 "multi-phase CI or build server context."};
static const ProvBlockSchema res_block = {
  .attrs = file_attrs, .nattrs = NATTRS(file_attrs),
  .blocks = file_blocks, .nblocks = 1,
  .description = "Generates an archive from content, a file, or directory "
                 "of files."};

static const ProvTypeSchema resources[] = {{"archive_file", {0, &res_block}}};
static const ProvTypeSchema data_sources[] = {
  {"archive_file", {0, &data_block}}};
static const ProvBlockSchema empty_block = {0};

static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .resources = resources, .nresources = 1,
  .data_sources = data_sources, .ndata_sources = 1,
  /* ephemeral archive_file: the data source's schema and read */
  .ephemeral_resources = data_sources, .nephemeral_resources = 1,
};

static const ProvProviderSchema *sch(Prov *p) { return p->impl; }

static void open_archive(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = sch(p);
}

static bool known_str(Value v)
{
  return v.type && !val_is_null(v) && val_is_known(v);
}

/* The set of `source` blocks counts as configured when it has a block:
** Terraform sends an empty set for none. */
static bool is_set(Value cfg, const char *name)
{
  Value v = prov_get(cfg, name);
  if (val_is_null(v))
    return false;
  if (strcmp(name, "source") == 0 && val_is_known(v))
    return v.len > 0;
  return true;
}

/* ---- validation (upstream's config and attribute validators) ------------- */

static void validate(Prov *p, ProvCall *c, const char *type_name, Value cfg)
{
  (void)p;
  (void)type_name;
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  static const char *const one[] = {"source", "source_content_filename",
                                    "source_file", "source_dir"};
  bool any = false, unknown = false;
  for (int i = 0; i < 4; i++) {
    Value v = prov_get(cfg, one[i]);
    if (!val_is_known(v))
      unknown = true;
    else if (is_set(cfg, one[i]))
      any = true;
  }
  if (!any && !unknown)
    diag_error(c->diags, NULL, "Missing Attribute Configuration",
               "At least one of these attributes must be configured: "
               "[source,source_content_filename,source_file,source_dir]");
  /* ConflictsWith, per attribute in schema order (blocks first) */
  static const struct {
    const char *name;
    const char *others[4];
  } conflicts[] = {
    {"source", {"source_file", "source_dir", "source_content",
                "source_content_filename"}},
    {"source_content", {"source_file", "source_dir", NULL, NULL}},
    {"source_content_filename", {"source_file", "source_dir", NULL, NULL}},
    {"source_file", {"source_dir", "source_content",
                     "source_content_filename", NULL}},
    {"source_dir", {"source_file", "source_content",
                    "source_content_filename", NULL}},
    {"excludes", {"source_file", "source_content", "source_content_filename",
                  NULL}},
  };
  for (size_t i = 0; i < sizeof conflicts / sizeof *conflicts; i++) {
    if (!val_is_known(prov_get(cfg, conflicts[i].name)) ||
        !is_set(cfg, conflicts[i].name))
      continue;
    for (int k = 0; k < 4 && conflicts[i].others[k]; k++) {
      const char *o = conflicts[i].others[k];
      Value ov = prov_get(cfg, o);
      if (!val_is_known(ov))
        break;
      if (!is_set(cfg, o))
        continue;
      prov_diag_attr(c, DIAG_ERROR,
                     prov_path_attr(c->arena, conflicts[i].name),
                     "Invalid Attribute Combination",
                     "Attribute \"%s\" cannot be specified when \"%s\" is "
                     "specified",
                     o, conflicts[i].name);
    }
  }
}

/* ---- errors as Go words them ---------------------------------------------- */

static const char *go_errno(int e)
{
  switch (e) {
  case ENOENT: return "no such file or directory";
  case ENOTDIR: return "not a directory";
  case EACCES: return "permission denied";
  case EISDIR: return "is a directory";
  case ENAMETOOLONG: return "file name too long";
  case ELOOP: return "too many levels of symbolic links";
  case EEXIST: return "file exists";
  case EROFS: return "read-only file system";
  case ENOSPC: return "no space left on device";
  default: return strerror(e);
  }
}

/* ---- source_dir: filepath.Walk as upstream's walk function drives it ----- */

typedef struct Ent {
  const char *path;    /* file to read */
  const char *arc;     /* name in the archive */
  uint32_t gomode;
} Ent;

typedef struct Walk {
  Arena *a;
  Value excludes;      /* set of string, or null */
  bool no_sym_dirs;
  bool have_out;       /* the output file exists: never archive it */
  dev_t out_dev;
  ino_t out_ino;
  int depth;           /* linked directories being walked */
  Ent *v;
  size_t n, cap;
  const char *err;
} Walk;

enum { WALK_OK, WALK_SKIP, WALK_ERR };

static int excluded(Walk *w, const char *arc)
{
  if (val_is_null(w->excludes))
    return 0;
  for (uint32_t i = 0; i < w->excludes.len; i++) {
    Value e = w->excludes.u.elems[i];
    if (!known_str(e) || e.len == 0)
      continue;
    int r = goar_match(w->a, e.u.s, arc);
    if (r < 0) {
      w->err = "error checking excludes matches: syntax error in pattern";
      return -1;
    }
    if (r)
      return 1;
  }
  return 0;
}

static const char *join(Arena *a, const char *base, const char *rel)
{
  if (!*base)
    return rel;
  if (strcmp(rel, ".") == 0)
    return base;
  return arena_printf(a, "%s/%s", base, rel);
}

static int walk_root(Walk *w, const char *base, const char *root);

/* upstream's walk function for one path (st from lstat) */
static int visit(Walk *w, const char *base, const char *path,
                 const char *rel, const struct stat *st)
{
  const char *arc = join(w->a, base, rel);
  int m = excluded(w, arc);
  if (m < 0)
    return WALK_ERR;
  if (S_ISDIR(st->st_mode))
    return m ? WALK_SKIP : WALK_OK;
  if (m)
    return WALK_OK;
  struct stat info = *st;
  const char *real = path;
  if (S_ISLNK(st->st_mode)) {
    char *r = ARENA_NEW(w->a, char, PATH_MAX);
    if (!realpath(path, r)) {
      w->err = arena_printf(w->a, "lstat %s: %s", path, go_errno(errno));
      return WALK_ERR;
    }
    real = r;
    if (stat(real, &info) != 0) {
      w->err = arena_printf(w->a, "stat %s: %s", real, go_errno(errno));
      return WALK_ERR;
    }
    if (S_ISDIR(info.st_mode)) {
      if (w->no_sym_dirs)
        return WALK_SKIP;
      if (w->depth >= 40) {
        w->err = arena_printf(w->a, "%s: too many levels of symbolic "
                              "links", path);
        return WALK_ERR;
      }
      w->depth++;
      int wr = walk_root(w, arc, real);
      w->depth--;
      return wr;
    }
  }
  if (!S_ISREG(info.st_mode)) {
    w->err = arena_printf(w->a, "%s: not a regular file (cairn archives "
                          "only files, directories and links to them)",
                          path);
    return WALK_ERR;
  }
  if (w->have_out && info.st_dev == w->out_dev && info.st_ino == w->out_ino)
    return WALK_OK;
  if (w->n == w->cap) {
    size_t nc = w->cap ? 2 * w->cap : 16;
    Ent *nv = ARENA_NEW(w->a, Ent, nc);
    if (w->n)
      memcpy(nv, w->v, w->n * sizeof *nv);
    w->v = nv;
    w->cap = nc;
  }
  w->v[w->n++] = (Ent){real, arc, goar_file_mode(info.st_mode)};
  return WALK_OK;
}

static int by_name(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int walk(Walk *w, const char *base, const char *path, const char *rel,
                const struct stat *st)
{
  if (!S_ISDIR(st->st_mode))
    return visit(w, base, path, rel, st);
  DIR *d = opendir(path);
  int open_err = d ? 0 : errno;
  const char **names = NULL;
  size_t n = 0, cap = 0;
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
        continue;
      if (n == cap) {
        size_t nc = cap ? 2 * cap : 16;
        const char **nn = ARENA_NEW(w->a, const char *, nc);
        if (n)
          memcpy(nn, names, n * sizeof *nn);
        names = nn;
        cap = nc;
      }
      names[n++] = arena_strdup(w->a, e->d_name);
    }
    closedir(d);
  }
  if (open_err) {
    w->err = arena_printf(w->a, "error encountered during file walk: open "
                          "%s: %s", path, go_errno(open_err));
    return WALK_ERR;
  }
  int r = visit(w, base, path, rel, st);
  if (r != WALK_OK)
    return r;
  if (n)
    qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n; i++) {
    const char *child = arena_printf(w->a, "%s/%s", path, names[i]);
    const char *crel = strcmp(rel, ".") == 0
                           ? names[i]
                           : arena_printf(w->a, "%s/%s", rel, names[i]);
    struct stat cst;
    if (lstat(child, &cst) != 0) {
      w->err = arena_printf(w->a, "error encountered during file walk: "
                            "lstat %s: %s", child, go_errno(errno));
      return WALK_ERR;
    }
    r = walk(w, base, child, crel, &cst);
    if (r != WALK_OK && (!S_ISDIR(cst.st_mode) || r != WALK_SKIP))
      return r;
  }
  return WALK_OK;
}

static int walk_root(Walk *w, const char *base, const char *root)
{
  struct stat st;
  if (lstat(root, &st) != 0) {
    w->err = arena_printf(w->a, "error encountered during file walk: lstat "
                          "%s: %s", root, go_errno(errno));
    return WALK_ERR;
  }
  int r = walk(w, base, root, ".", &st);
  return r == WALK_SKIP ? WALK_OK : r;
}

/* ---- building the archive --------------------------------------------- */

typedef struct Built {
  const unsigned char *p;
  size_t n;
} Built;

static int by_filename(const void *x, const void *y)
{
  const Value *a = x, *b = y;
  Value fa = prov_get(*a, "filename"), fb = prov_get(*b, "filename");
  size_t n = fa.len < fb.len ? fa.len : fb.len;
  int c = memcmp(fa.u.s, fb.u.s, n);
  return c ? c : (fa.len > fb.len) - (fa.len < fb.len);
}

static const char *str_of(Value v) { return known_str(v) ? v.u.s : ""; }

/* Builds the archive the configuration m asks for.  NULL with *err (Go's
** words, without upstream's "error creating archive: " prefix) on
** failure. */
static bool build(Arena *a, Value m, const char *out_path, Built *res,
                  const char **err, const char **what_out)
{
  const char *type = str_of(prov_get(m, "type"));
  bool tgz = strcmp(type, "tar.gz") == 0;
  if (!tgz && strcmp(type, "zip") != 0) {
    *err = arena_printf(a, "archive type not supported: %s", type);
    return false;
  }
  Value fm = prov_get(m, "output_file_mode");
  const char *mode_s = known_str(fm) && fm.len ? fm.u.s : NULL;
  int64_t mode = 0;
  bool mode_ok = !mode_s || (tgz ? goar_parse_int(mode_s, true, INT32_MIN,
                                                INT32_MAX, &mode)
                                 : goar_parse_int(mode_s, false, 0,
                                                UINT32_MAX, &mode));
  const char *mode_err =
      mode_s ? arena_printf(a, "error parsing output_file_mode value: %s",
                            mode_s)
             : NULL;
  GoArchive *ar = goar_new(a, tgz);
  const char *fail = NULL;
  Value dir = prov_get(m, "source_dir"), file = prov_get(m, "source_file");
  Value cfn = prov_get(m, "source_content_filename");
  Value src = prov_get(m, "source");
  const char *what;
  if (known_str(dir)) {
    what = "error archiving directory";
    struct stat st;
    if (tgz) {
      /* tar_archiver.go checks the directory first (assertValidDir) */
      const char *why = NULL;
      if (stat(dir.u.s, &st) != 0)
        why = errno == ENOENT
                  ? arena_printf(a, "could not archive missing directory: "
                                 "%s", dir.u.s)
                  : arena_printf(a, "stat %s: %s", dir.u.s, go_errno(errno));
      else if (!S_ISDIR(st.st_mode))
        why = arena_printf(a, "could not archive directory that is a "
                           "file: %s", dir.u.s);
      if (why) {
        *err = arena_printf(a, "%s: %s", what, why);
        return false;
      }
    }
    Walk w = {.a = a, .excludes = prov_get(m, "excludes")};
    Value nsd = prov_get(m, "exclude_symlink_directories");
    w.no_sym_dirs = !val_is_null(nsd) && val_is_known(nsd) && nsd.u.b;
    struct stat ost;
    if (stat(out_path, &ost) == 0) {
      w.have_out = true;
      w.out_dev = ost.st_dev;
      w.out_ino = ost.st_ino;
    }
    if (walk_root(&w, "", dir.u.s) != WALK_OK) {
      *err = arena_printf(a, "%s: %s", what, w.err);
      return false;
    }
    if (w.n == 0) {
      *err = arena_printf(a, "%s: archive has not been created as it would "
                          "be empty", what);
      return false;
    }
    for (size_t i = 0; i < w.n && !fail && !goar_error(ar); i++) {
      if (!mode_ok) {
        fail = mode_err;
        break;
      }
      const char *data;
      size_t len;
      if (!prov_read_file(a, w.v[i].path, &data, &len)) {
        fail = arena_printf(a, "error reading file for archival: open "
                              "%s: %s", w.v[i].path, go_errno(errno));
        break;
      }
      if (tgz)
        goar_tar_add(ar, w.v[i].arc, (const unsigned char *)data, len,
                mode_s ? mode : (int64_t)w.v[i].gomode, true);
      else
        goar_zip_add(ar, w.v[i].arc, (const unsigned char *)data, len, true,
                mode_s ? (uint32_t)mode : w.v[i].gomode);
    }
  } else if (known_str(file)) {
    what = "error archiving file";
    struct stat st;
    const char *data;
    size_t len;
    if (stat(file.u.s, &st) != 0) {
      *err = errno == ENOENT
                 ? arena_printf(a, "%s: could not archive missing file: %s",
                                what, file.u.s)
                 : arena_printf(a, "%s: stat %s: %s", what, file.u.s,
                                go_errno(errno));
      return false;
    }
    if (!prov_read_file(a, file.u.s, &data, &len)) {
      *err = arena_printf(a, "%s: read %s: %s", what, file.u.s,
                          go_errno(errno));
      return false;
    }
    const char *base = strrchr(file.u.s, '/');
    base = base && base[1] ? base + 1 : file.u.s;
    if (!mode_ok)
      fail = mode_err;
    else if (tgz)
      goar_tar_add(ar, base, (const unsigned char *)data, len,
              mode_s ? mode : (int64_t)goar_file_mode(st.st_mode), true);
    else
      goar_zip_add(ar, base, (const unsigned char *)data, len, true,
              mode_s ? (uint32_t)mode : goar_file_mode(st.st_mode));
  } else if (known_str(cfn)) {
    what = "error archiving content";
    Value c = prov_get(m, "source_content");
    const char *data = str_of(c);
    size_t len = known_str(c) ? c.len : 0;
    if (tgz && !mode_ok)
      fail = mode_err;
    else if (tgz)
      goar_tar_add(ar, cfn.u.s, (const unsigned char *)data, len, mode, false);
    else
      goar_zip_add(ar, cfn.u.s, (const unsigned char *)data, len, false, 0);
  } else if (!val_is_null(src) && val_is_known(src) && src.len > 0) {
    what = "error archiving content";
    /* a map filename -> content: the last block of a name wins; sorted */
    Value *v = ARENA_NEW(a, Value, src.len + 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < src.len; i++) {
      Value e = src.u.elems[i];
      uint32_t k;
      for (k = 0; k < n; k++)
        if (by_filename(&v[k], &e) == 0)
          break;
      v[k] = e;
      if (k == n)
        n++;
    }
    qsort(v, n, sizeof *v, by_filename);
    for (uint32_t i = 0; i < n && !fail && !goar_error(ar); i++) {
      Value fnv = prov_get(v[i], "filename"), cv = prov_get(v[i], "content");
      const unsigned char *data = (const unsigned char *)str_of(cv);
      size_t len = known_str(cv) ? cv.len : 0;
      if (tgz && !mode_ok)
        fail = mode_err;
      else if (tgz)
        goar_tar_add(ar, str_of(fnv), data, len, mode, false);
      else
        goar_zip_add(ar, str_of(fnv), data, len, false, 0);
    }
  } else {
    /* upstream writes nothing and then fails to stat the output */
    *err = NULL;
    res->p = NULL;
    res->n = 0;
    return true;
  }
  *what_out = what;
  if (fail || !goar_finish(ar, &res->p, &res->n)) {
    *err = arena_printf(a, "%s: %s", what, fail ? fail : goar_error(ar));
    return false;
  }
  return true;
}

/* os.MkdirAll */
static bool mkdir_all(Arena *a, const char *dir, mode_t mode)
{
  struct stat st;
  if (stat(dir, &st) == 0)
    return S_ISDIR(st.st_mode) ? true : (errno = ENOTDIR, false);
  char *d = arena_strdup(a, dir);
  size_t n = strlen(d);
  while (n > 1 && d[n - 1] == '/')
    d[--n] = 0;
  char *slash = strrchr(d, '/');
  if (slash && slash != d) {
    *slash = 0;
    if (!mkdir_all(a, d, mode))
      return false;
    *slash = '/';
  }
  if (mkdir(d, mode) != 0 && errno != EEXIST)
    return false;
  return true;
}

static bool write_file(const char *path, const unsigned char *p, size_t n)
{
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    return false;
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k < 0) {
      if (errno == EINTR)
        continue;
      int e = errno;
      close(fd);
      errno = e;
      return false;
    }
    p += k;
    n -= (size_t)k;
  }
  return close(fd) == 0;
}

static const char *hex(Arena *a, const unsigned char *p, size_t n)
{
  static const char digits[] = "0123456789abcdef";
  char *s = ARENA_NEW(a, char, 2 * n + 1);
  for (size_t i = 0; i < n; i++) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

/* upstream's updateModel / data source Read: the archive written to
** output_path and every output_* attribute set; false with diagnostics. */
static bool make_archive(ProvCall *c, Value m, Value *out)
{
  Arena *a = c->arena;
  const char *out_path = str_of(prov_get(m, "output_path"));
  /* path.Dir */
  const char *slash = strrchr(out_path, '/');
  const char *dir = !slash ? "."
                  : slash == out_path ? "/"
                  : arena_strndup(a, out_path, (size_t)(slash - out_path));
  struct stat st;
  if (stat(dir, &st) != 0 && !mkdir_all(a, dir, 0755)) {
    diag_error(c->diags, NULL, "Output path error",
               "error creating output path: mkdir %s: %s", dir,
               go_errno(errno));
    return false;
  }
  Built b;
  const char *err = NULL, *what = "";
  if (!build(a, m, out_path, &b, &err, &what)) {
    diag_error(c->diags, NULL, "Archive creation error",
               "error creating archive: %s", err);
    return false;
  }
  if (b.p && !write_file(out_path, b.p, b.n)) {
    diag_error(c->diags, NULL, "Archive creation error",
               "error creating archive: %s: open %s: %s", what, out_path,
               go_errno(errno));
    return false;
  }
  const char *data;
  size_t len;
  if (stat(out_path, &st) != 0 || !prov_read_file(a, out_path, &data, &len)) {
    diag_error(c->diags, NULL, "Archive output error",
               "error reading output: stat %s: %s", out_path,
               go_errno(errno));
    return false;
  }
  unsigned char md5[16], s1[20], s256[32], s512[64];
  fn_dig_md5(data, len, md5);
  fn_dig_sha1(data, len, s1);
  fn_dig_sha256(data, len, s256);
  fn_dig_sha512(data, len, s512);
  m = prov_set(a, m, "output_size", val_int((int64_t)len));
  m = prov_set(a, m, "output_md5", val_cstr(a, hex(a, md5, 16)));
  m = prov_set(a, m, "output_sha", val_cstr(a, hex(a, s1, 20)));
  m = prov_set(a, m, "output_sha256", val_cstr(a, hex(a, s256, 32)));
  m = prov_set(a, m, "output_base64sha256",
               val_cstr(a, prov_base64_encode(a, s256, 32, false, true)));
  m = prov_set(a, m, "output_sha512", val_cstr(a, hex(a, s512, 64)));
  m = prov_set(a, m, "output_base64sha512",
               val_cstr(a, prov_base64_encode(a, s512, 64, false, true)));
  m = prov_set(a, m, "id", val_cstr(a, hex(a, s1, 20)));
  *out = m;
  return true;
}

/* ---- data source and resource ------------------------------------------- */

static void read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                      ProvReadDataResp *resp)
{
  (void)p;
  Value v;
  if (make_archive(c, req->config, &v))
    resp->state = v;
}

static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  prov_decode_state(c, prov_schema_resource(sch(p), req->type_name)
                           ->schema.block,
                    req->raw_json, req->raw_len, &resp->upgraded_state);
}

static const char *const replace_attrs[] = {
  "type", "source_content", "source_content_filename", "source_file",
  "source_dir", "excludes", "output_path", "output_file_mode", "source",
  NULL};

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  Arena *a = c->arena;
  Value planned = req->proposed_new_state, prior = req->prior_state;
  if (val_is_null(planned)) {
    resp->planned_state = planned;
    return;
  }
  const ProvBlockSchema *b =
      prov_schema_resource(sch(p), req->type_name)->schema.block;
  if (val_is_null(prior)) {
    planned = prov_unknown_computed(a, b, prior, planned, req->config, NULL);
  } else if (!val_raw_equal(prior, planned, false)) {
    /* the framework marks every computed attribute unknown on update */
    for (uint32_t i = 0; i < b->nattrs; i++)
      if (b->attrs[i].flags & PROV_COMPUTED)
        planned = prov_set(a, planned, b->attrs[i].name,
                           val_unknown(b->attrs[i].type));
  }
  for (int i = 0; replace_attrs[i]; i++)
    if (prov_attr_changed(prior, planned, replace_attrs[i]))
      prov_requires_replace(c, resp, replace_attrs[i]);
  resp->planned_state = planned;
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  (void)p;
  Value plan = req->planned_state;
  if (val_is_null(plan)) {
    /* upstream's Delete leaves the file */
    resp->new_state = plan;
    return;
  }
  Value v;
  if (make_archive(c, plan, &v))
    resp->new_state = v;
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  (void)p;
  Value st = req->current_state;
  resp->new_state = st;
  resp->private_data = req->private_data;
  if (val_is_null(st))
    return;
  Value v;
  if (make_archive(c, st, &v))
    resp->new_state = v;
}

static const ProvEphOps eph_ops = {validate, prov_open_ephemeral_as_data,
                                   NULL, NULL};

static const ProvOps ops = {
  .eph = &eph_ops,
  .get_schema = get_schema,
  .validate_provider_config = prov_default_validate,
  .validate_resource_config = validate,
  .validate_data_resource_config = validate,
  .upgrade_resource_state = upgrade,
  .configure = prov_default_configure,
  .read_resource = read_resource,
  .plan_resource_change = plan,
  .apply_resource_change = apply,
  .import_resource_state = prov_default_import,
  .read_data_source = read_data,
  .stop = prov_default_stop,
  .close = prov_default_close,
};

const ProvBuiltin prov_archive_builtin = {
  .addr = "registry.terraform.io/hashicorp/archive",
  .type = "archive",
  .ops = &ops,
  .open = open_archive,
};
