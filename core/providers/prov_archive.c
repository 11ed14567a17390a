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
#include "base/goflate.h"
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
#include <zlib.h>

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

/* ---- Go's file modes ---------------------------------------------------- */

#define GO_DIR (1u << 31)
#define GO_SYMLINK (1u << 27)
#define GO_DEVICE (1u << 26)
#define GO_PIPE (1u << 25)
#define GO_SOCKET (1u << 24)
#define GO_SETUID (1u << 23)
#define GO_SETGID (1u << 22)
#define GO_CHARDEV (1u << 21)
#define GO_STICKY (1u << 20)
#define GO_IRREGULAR (1u << 19)
#define GO_TYPE                                                            \
  (GO_DIR | GO_SYMLINK | GO_PIPE | GO_SOCKET | GO_DEVICE | GO_CHARDEV |    \
   GO_IRREGULAR)

/* os.FileMode of a stat result */
static uint32_t go_mode(mode_t m)
{
  uint32_t g = (uint32_t)(m & 0777);
  switch (m & S_IFMT) {
  case S_IFDIR: g |= GO_DIR; break;
  case S_IFLNK: g |= GO_SYMLINK; break;
  case S_IFIFO: g |= GO_PIPE; break;
  case S_IFSOCK: g |= GO_SOCKET; break;
  case S_IFBLK: g |= GO_DEVICE; break;
  case S_IFCHR: g |= GO_DEVICE | GO_CHARDEV; break;
  default: break;
  }
  if (m & S_ISUID)
    g |= GO_SETUID;
  if (m & S_ISGID)
    g |= GO_SETGID;
  if (m & S_ISVTX)
    g |= GO_STICKY;
  return g;
}

/* archive/zip's fileModeToUnixMode */
static uint32_t unix_mode(uint32_t g)
{
  uint32_t m;
  switch (g & GO_TYPE) {
  case GO_DIR: m = 0040000; break;
  case GO_SYMLINK: m = 0120000; break;
  case GO_PIPE: m = 0010000; break;
  case GO_SOCKET: m = 0140000; break;
  case GO_DEVICE: m = 0060000; break;
  case GO_DEVICE | GO_CHARDEV: m = 0020000; break;
  default: m = 0100000; break;
  }
  if (g & GO_SETUID)
    m |= 04000;
  if (g & GO_SETGID)
    m |= 02000;
  if (g & GO_STICKY)
    m |= 01000;
  return m | (g & 0777);
}

/* strconv's underscoreOK: underscores only between digits (a base
** prefix counts as a digit) */
static bool underscore_ok(const char *s)
{
  char saw = '^';
  bool hexa = false;
  if (*s == '+' || *s == '-')
    s++;
  if (s[0] == '0' && s[1] && strchr("bBoOxX", s[1])) {
    hexa = s[1] == 'x' || s[1] == 'X';
    s += 2;
    saw = '0';
  }
  for (; *s; s++) {
    bool digit = (*s >= '0' && *s <= '9') ||
                 (hexa && strchr("abcdefABCDEF", *s) != NULL);
    if (digit) {
      saw = '0';
    } else if (*s == '_') {
      if (saw != '0')
        return false;
      saw = '_';
    } else {
      if (saw == '_')
        return false;
      saw = '!';
    }
  }
  return saw != '_';
}

/* strconv.ParseInt (sign allowed) or ParseUint (signed false) with base
** 0: 0x, 0o, 0b, a leading 0 for octal, underscores between digits.
** false on a syntax error or a value outside [min, max]. */
static bool go_parse_int(const char *s, bool signed_ok, int64_t min,
                         int64_t max, int64_t *out)
{
  if (!*s || !underscore_ok(s))
    return false;
  bool neg = false;
  if (*s == '+' || *s == '-') {
    if (!signed_ok)
      return false;
    neg = *s == '-';
    s++;
  }
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  } else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
    base = 8;
    s += 2;
  } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s += 2;
  } else if (s[0] == '0') {
    base = 8;
  }
  uint64_t v = 0;
  int ndig = 0;
  for (; *s; s++) {
    if (*s == '_')
      continue;
    int d;
    if (*s >= '0' && *s <= '9')
      d = *s - '0';
    else if (*s >= 'a' && *s <= 'z')
      d = *s - 'a' + 10;
    else if (*s >= 'A' && *s <= 'Z')
      d = *s - 'A' + 10;
    else
      return false;
    if (d >= base)
      return false;
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
      return false;
    v = v * (uint64_t)base + (uint64_t)d;
    ndig++;
  }
  if (ndig == 0)
    return false;
  if (neg) {
    if (v > (uint64_t)(-(min + 1)) + 1)
      return false;
    *out = v == 0 ? 0 : -(int64_t)(v - 1) - 1;
    return true;
  }
  if (v > (uint64_t)max)
    return false;
  *out = (int64_t)v;
  return true;
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

/* ---- the archive writers -------------------------------------------------- */

typedef struct Ar {
  Arena *a;
  bool tgz;
  Buf out;
  const char *err;     /* first error, Go's wording; NULL: fine */
  /* zip */
  Buf dir;             /* central directory records */
  uint32_t count;
  /* tar.gz */
  GoFlate *z;
  uLong crc;
  uint64_t raw;        /* bytes fed to gzip */
  size_t pad;          /* zero bytes owed after the last file's data */
} Ar;

static void le16(Buf *b, uint32_t v)
{
  char t[2] = {(char)(v & 0xFF), (char)((v >> 8) & 0xFF)};
  buf_put(b, t, 2);
}

static void le32(Buf *b, uint32_t v)
{
  char t[4] = {(char)(v & 0xFF), (char)((v >> 8) & 0xFF),
               (char)((v >> 16) & 0xFF), (char)(v >> 24)};
  buf_put(b, t, 4);
}

static uLong crc_of(const unsigned char *p, size_t n, uLong crc)
{
  while (n > 0) {
    uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
    crc = crc32(crc, p, k);
    p += k;
    n -= k;
  }
  return crc;
}

static void ar_init(Ar *ar, Arena *a, bool tgz)
{
  memset(ar, 0, sizeof *ar);
  ar->a = a;
  ar->tgz = tgz;
  buf_init(&ar->out, a);
  buf_init(&ar->dir, a);
  if (tgz) {
    /* gzip.NewWriter: the zero header at the default level */
    static const char hdr[10] = {0x1f, (char)0x8b, 8, 0, 0, 0, 0, 0, 0,
                                 (char)0xff};
    buf_put(&ar->out, hdr, sizeof hdr);
    ar->z = goflate_new(a, &ar->out, -1);
    ar->crc = crc32(0L, Z_NULL, 0);
  }
}

/* archive/zip's detectUTF8: (valid, needs the UTF-8 flag) */
static void detect_utf8(const char *s, bool *valid, bool *require)
{
  *valid = true;
  *require = false;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned c = *p;
    if (c >= 0x20 && c <= 0x7d && c != 0x5c) {
      p++;
      continue;
    }
    /* one rune: invalid UTF-8 makes the name not valid */
    size_t need = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1
                : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 9;
    uint32_t cp = need == 0 ? c : need == 1 ? (c & 0x1Fu)
                : need == 2 ? (c & 0x0Fu) : (c & 0x07u);
    bool ok = need != 9;
    for (size_t k = 1; ok && k <= need; k++) {
      if ((p[k] & 0xC0) != 0x80)
        ok = false;
      else
        cp = cp << 6 | (p[k] & 0x3Fu);
    }
    static const uint32_t min[4] = {0, 0x80, 0x800, 0x10000};
    if (ok && need > 0 && need < 4 &&
        (cp < min[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
      ok = false;
    if (!ok) {
      *valid = false;
      *require = false;
      return;
    }
    *require = true;
    p += need + 1;
  }
}

/* One zip entry, as zip.Writer.Create (attrs false) or CreateHeader of a
** zip.FileInfoHeader with SetModTime(time.Time{}) (attrs true, gomode the
** file's or output_file_mode's os.FileMode). */
static void zip_add(Ar *ar, const char *name, const unsigned char *data,
                    size_t n, bool attrs, uint32_t gomode)
{
  if (ar->err)
    return;
  size_t clen;
  unsigned char *comp = goflate_compress(ar->a, data, n, 5, &clen);
  size_t offset = ar->out.len;
  size_t nlen = strlen(name);
  if (clen >= 0xFFFFFFFFu || n >= 0xFFFFFFFFu || offset >= 0xFFFFFFFFu ||
      ar->count >= 0xFFFE || nlen > 0xFFFF) {
    ar->err = "the archive needs zip64 (an entry or the archive over "
              "4 GiB, or 65,535 entries): not supported by cairn";
    return;
  }
  bool valid, require;
  detect_utf8(name, &valid, &require);
  uint32_t flags = 0x8 | (valid && require ? 0x800 : 0);
  /* Go's zero time as an MS-DOS date: day 1 + month 1 << 5 + (1 - 1980)
  ** << 9, truncated to 16 bits */
  uint32_t mdate = attrs ? 0x8A21 : 0, mtime = 0;
  uint32_t creator = attrs ? (3u << 8 | 20) : 20;
  uint32_t ext = 0;
  if (attrs) {
    ext = unix_mode(gomode) << 16;
    if (gomode & GO_DIR)
      ext |= 0x10;
    if (!(gomode & 0200))
      ext |= 0x01;
  }
  uLong crc = crc_of(data, n, crc32(0L, Z_NULL, 0));
  Buf *o = &ar->out;
  le32(o, 0x04034b50);
  le16(o, 20);
  le16(o, flags);
  le16(o, 8);
  le16(o, mtime);
  le16(o, mdate);
  le32(o, 0);
  le32(o, 0);
  le32(o, 0);
  le16(o, (uint32_t)nlen);
  le16(o, 0);
  buf_put(o, name, nlen);
  buf_put(o, comp, clen);
  le32(o, 0x08074b50);
  le32(o, (uint32_t)crc);
  le32(o, (uint32_t)clen);
  le32(o, (uint32_t)n);
  Buf *d = &ar->dir;
  le32(d, 0x02014b50);
  le16(d, creator);
  le16(d, 20);
  le16(d, flags);
  le16(d, 8);
  le16(d, mtime);
  le16(d, mdate);
  le32(d, (uint32_t)crc);
  le32(d, (uint32_t)clen);
  le32(d, (uint32_t)n);
  le16(d, (uint32_t)nlen);
  le16(d, 0);
  le16(d, 0);
  le16(d, 0);
  le16(d, 0);
  le32(d, ext);
  le32(d, (uint32_t)offset);
  buf_put(d, name, nlen);
  ar->count++;
}

static void tgz_write(Ar *ar, const void *p, size_t n)
{
  if (n == 0)
    return;
  ar->crc = crc_of(p, n, ar->crc);
  ar->raw += n;
  goflate_write(ar->z, p, n);
}

static void tgz_flush_pad(Ar *ar)
{
  static const unsigned char zero[512];
  tgz_write(ar, zero, ar->pad);
  ar->pad = 0;
}

/* archive/tar's formatOctal: zero-padded, NUL-terminated when room */
static void tar_octal(unsigned char *f, size_t len, uint64_t v)
{
  char tmp[32];
  int k = snprintf(tmp, sizeof tmp, "%llo", (unsigned long long)v);
  size_t l = (size_t)k, zeros = len > l + 1 ? len - l - 1 : 0;
  memset(f, '0', zeros);
  memcpy(f + zeros, tmp, l < len ? l : len);
  if (zeros + l < len)
    f[zeros + l] = 0;
}

static bool is_ascii(const char *s)
{
  for (; *s; s++)
    if ((unsigned char)*s >= 0x80)
      return false;
  return true;
}

/* archive/tar's splitUSTARPath: a name over 100 bytes as prefix/suffix */
static bool ustar_split(const char *name, size_t *split)
{
  size_t len = strlen(name), l = len;
  if (len <= 100 || !is_ascii(name))
    return false;
  if (l > 156)
    l = 156;
  else if (name[l - 1] == '/')
    l--;
  size_t i = l;
  while (i > 0 && name[i - 1] != '/')
    i--;
  if (i == 0)
    return false;
  i--; /* index of the slash */
  size_t nlen = len - i - 1;
  if (i == 0 || nlen > 100 || nlen == 0 || i > 155)
    return false;
  *split = i;
  return true;
}

/* One tar entry: tar.Header{Name, Size, Mode, ModTime: time.Time{}}
** (USTAR, typeflag '0'), then its data: whole (one Write) or in 32 KiB
** pieces (io.Copy from a file). */
static void tgz_add(Ar *ar, const char *name, const unsigned char *data,
                    size_t n, int64_t mode, bool pieces)
{
  if (ar->err)
    return;
  size_t split = 0;
  bool has_nul = false;
  size_t nlen = strlen(name);
  if ((nlen > 100 || !is_ascii(name)) && !ustar_split(name, &split))
    has_nul = true;
  if (has_nul || mode < 0 || mode > 07777777) {
    ar->err = arena_printf(ar->a, "%s: the tar entry needs a PAX or GNU "
                           "header (a non-ASCII or long name, or a mode "
                           "beyond 7 octal digits): not supported by cairn",
                           name);
    return;
  }
  tgz_flush_pad(ar);
  unsigned char h[512];
  memset(h, 0, sizeof h);
  const char *nm = split ? name + split + 1 : name;
  memcpy(h, nm, strlen(nm));
  tar_octal(h + 100, 8, (uint64_t)mode);
  tar_octal(h + 108, 8, 0);
  tar_octal(h + 116, 8, 0);
  tar_octal(h + 124, 12, n);
  tar_octal(h + 136, 12, 0); /* Go writes the Unix epoch for a zero time */
  h[156] = '0';
  memcpy(h + 257, "ustar\0" "00", 8);
  tar_octal(h + 329, 8, 0);
  tar_octal(h + 337, 8, 0);
  if (split)
    memcpy(h + 345, name, split);
  unsigned sum = 0;
  for (size_t i = 0; i < 512; i++)
    sum += (i >= 148 && i < 156) ? ' ' : h[i];
  tar_octal(h + 148, 7, sum);
  h[155] = ' ';
  tgz_write(ar, h, sizeof h);
  if (pieces)
    for (size_t off = 0; off < n; off += 32768)
      tgz_write(ar, data + off, n - off < 32768 ? n - off : 32768);
  else
    tgz_write(ar, data, n);
  ar->pad = (512 - n % 512) % 512;
}

/* The finished archive in ar->out. */
static void ar_finish(Ar *ar)
{
  if (ar->err)
    return;
  if (ar->tgz) {
    static const unsigned char zero[512];
    tgz_flush_pad(ar);
    tgz_write(ar, zero, 512);
    tgz_write(ar, zero, 512);
    goflate_close(ar->z);
    le32(&ar->out, (uint32_t)ar->crc);
    le32(&ar->out, (uint32_t)ar->raw);
    return;
  }
  size_t start = ar->out.len;
  buf_put(&ar->out, ar->dir.p, ar->dir.len);
  size_t size = ar->out.len - start;
  if (start >= 0xFFFFFFFFu || size >= 0xFFFFFFFFu) {
    ar->err = "the archive needs zip64 (over 4 GiB): not supported by "
              "cairn";
    return;
  }
  le32(&ar->out, 0x06054b50);
  le16(&ar->out, 0);
  le16(&ar->out, 0);
  le16(&ar->out, ar->count);
  le16(&ar->out, ar->count);
  le32(&ar->out, (uint32_t)size);
  le32(&ar->out, (uint32_t)start);
  le16(&ar->out, 0);
}

/* ---- excludes: doublestar patterns -------------------------------------- */

static size_t rune_len(const char *s)
{
  unsigned char c = (unsigned char)*s;
  size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
           : (c & 0xF8) == 0xF0 ? 4 : 1;
  for (size_t k = 1; k < n; k++)
    if (!s[k])
      return k;
  return n;
}

static uint32_t rune_at(const char *s, size_t *len)
{
  *len = rune_len(s);
  const unsigned char *p = (const unsigned char *)s;
  if (*len == 1)
    return p[0];
  uint32_t cp = p[0] & (0x7Fu >> *len);
  for (size_t k = 1; k < *len; k++)
    cp = cp << 6 | (p[k] & 0x3Fu);
  return cp;
}

/* [class] at p (after the '['); *end set past the ']'. -1 malformed. */
static int class_match(const char *p, const char **end, uint32_t ch)
{
  bool neg = false, hit = false;
  if (*p == '^' || *p == '!') {
    neg = true;
    p++;
  }
  bool first = true;
  while (*p != ']' || first) {
    if (!*p)
      return -1;
    first = false;
    size_t l;
    if (*p == '\\') {
      p++;
      if (!*p)
        return -1;
    }
    uint32_t lo = rune_at(p, &l), hi = lo;
    p += l;
    if (*p == '-' && p[1] != ']' && p[1]) {
      p++;
      if (*p == '\\')
        p++;
      if (!*p)
        return -1;
      hi = rune_at(p, &l);
      p += l;
    }
    if (ch >= lo && ch <= hi)
      hit = true;
  }
  *end = p + 1;
  return hit != neg;
}

/* pattern p (braces expanded) against s; -1 malformed */
static int glob(const char *pat, const char *p, const char *s)
{
  while (*p) {
    bool comp_start = p == pat || p[-1] == '/';
    if (p[0] == '*' && p[1] == '*' && comp_start &&
        (p[2] == 0 || p[2] == '/')) {
      if (p[2] == 0)
        return 1;
      const char *rest = p + 3;
      int r = glob(pat, rest, s);
      if (r != 0)
        return r;
      for (const char *q = s; *q; q++)
        if (*q == '/') {
          r = glob(pat, rest, q + 1);
          if (r != 0)
            return r;
        }
      return 0;
    }
    if (*p == '*') {
      const char *q = s;
      for (;;) {
        int r = glob(pat, p + 1, q);
        if (r != 0)
          return r;
        if (!*q || *q == '/')
          return 0;
        q += rune_len(q);
      }
    }
    if (*p == '/' && !*s && p[1] == '*' && p[2] == '*' && !p[3])
      return 1; /* "dir/" + "**" also matches "dir" */
    if (!*s)
      return 0;
    if (*p == '?') {
      if (*s == '/')
        return 0;
      p++;
      s += rune_len(s);
      continue;
    }
    if (*p == '[') {
      if (*s == '/')
        return 0;
      size_t l;
      uint32_t ch = rune_at(s, &l);
      const char *end;
      int r = class_match(p + 1, &end, ch);
      if (r <= 0)
        return r;
      p = end;
      s += l;
      continue;
    }
    if (*p == '\\') {
      p++;
      if (!*p)
        return -1;
    }
    if (*p != *s)
      return 0;
    p++;
    s++;
  }
  return !*s;
}

/* Expands the first {a,b} group of pat and matches each alternative. */
static int brace_match(Arena *a, const char *pat, const char *s)
{
  const char *open = NULL;
  bool in_class = false;
  for (const char *q = pat; *q; q++) {
    if (*q == '\\' && q[1]) {
      q++;
      continue;
    }
    if (*q == '[')
      in_class = true;
    else if (*q == ']')
      in_class = false;
    else if (*q == '{' && !in_class) {
      open = q;
      break;
    }
  }
  if (!open)
    return glob(pat, pat, s);
  int depth = 0;
  const char *close = NULL;
  for (const char *q = open; *q; q++) {
    if (*q == '\\' && q[1]) {
      q++;
      continue;
    }
    if (*q == '{')
      depth++;
    else if (*q == '}' && --depth == 0) {
      close = q;
      break;
    }
  }
  if (!close)
    return -1;
  const char *alt = open + 1;
  depth = 0;
  for (const char *q = open + 1; q <= close; q++) {
    if (*q == '\\' && q < close) {
      q++;
      continue;
    }
    if (*q == '{')
      depth++;
    else if (*q == '}' && depth > 0)
      depth--;
    else if ((*q == ',' && depth == 0) || q == close) {
      char *e = arena_printf(a, "%.*s%.*s%s", (int)(open - pat), pat,
                             (int)(q - alt), alt, close + 1);
      int r = brace_match(a, e, s);
      if (r != 0)
        return r;
      alt = q + 1;
    }
  }
  return 0;
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

/* doublestar's ErrBadPattern: an unclosed [ or {, a trailing \\ */
static bool pattern_ok(const char *p)
{
  int braces = 0;
  for (; *p; p++) {
    if (*p == '\\') {
      if (!*++p)
        return false;
    } else if (*p == '[') {
      p++;
      if (*p == '^' || *p == '!')
        p++;
      bool first = true;
      while (*p != ']' || first) {
        if (!*p)
          return false;
        if (*p == '\\' && !*++p)
          return false;
        first = false;
        p++;
      }
    } else if (*p == '{') {
      braces++;
    } else if (*p == '}' && braces > 0) {
      braces--;
    }
  }
  return braces == 0;
}

static int excluded(Walk *w, const char *arc)
{
  if (val_is_null(w->excludes))
    return 0;
  for (uint32_t i = 0; i < w->excludes.len; i++) {
    Value e = w->excludes.u.elems[i];
    if (!known_str(e) || e.len == 0)
      continue;
    int r = pattern_ok(e.u.s) ? brace_match(w->a, e.u.s, arc) : -1;
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
    char *r = realpath(path, NULL);
    if (!r) {
      w->err = arena_printf(w->a, "lstat %s: %s", path, go_errno(errno));
      return WALK_ERR;
    }
    real = arena_strdup(w->a, r);
    free(r);
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
  w->v[w->n++] = (Ent){real, arc, go_mode(info.st_mode)};
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
  bool mode_ok = !mode_s || (tgz ? go_parse_int(mode_s, true, INT32_MIN,
                                                INT32_MAX, &mode)
                                 : go_parse_int(mode_s, false, 0,
                                                UINT32_MAX, &mode));
  const char *mode_err =
      mode_s ? arena_printf(a, "error parsing output_file_mode value: %s",
                            mode_s)
             : NULL;
  Ar ar;
  ar_init(&ar, a, tgz);
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
    for (size_t i = 0; i < w.n && !ar.err; i++) {
      if (!mode_ok) {
        ar.err = mode_err;
        break;
      }
      const char *data;
      size_t len;
      if (!prov_read_file(a, w.v[i].path, &data, &len)) {
        ar.err = arena_printf(a, "error reading file for archival: open "
                              "%s: %s", w.v[i].path, go_errno(errno));
        break;
      }
      if (tgz)
        tgz_add(&ar, w.v[i].arc, (const unsigned char *)data, len,
                mode_s ? mode : (int64_t)w.v[i].gomode, true);
      else
        zip_add(&ar, w.v[i].arc, (const unsigned char *)data, len, true,
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
      ar.err = mode_err;
    else if (tgz)
      tgz_add(&ar, base, (const unsigned char *)data, len,
              mode_s ? mode : (int64_t)go_mode(st.st_mode), true);
    else
      zip_add(&ar, base, (const unsigned char *)data, len, true,
              mode_s ? (uint32_t)mode : go_mode(st.st_mode));
  } else if (known_str(cfn)) {
    what = "error archiving content";
    Value c = prov_get(m, "source_content");
    const char *data = str_of(c);
    size_t len = known_str(c) ? c.len : 0;
    if (tgz && !mode_ok)
      ar.err = mode_err;
    else if (tgz)
      tgz_add(&ar, cfn.u.s, (const unsigned char *)data, len, mode, false);
    else
      zip_add(&ar, cfn.u.s, (const unsigned char *)data, len, false, 0);
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
    for (uint32_t i = 0; i < n && !ar.err; i++) {
      Value fnv = prov_get(v[i], "filename"), cv = prov_get(v[i], "content");
      const unsigned char *data = (const unsigned char *)str_of(cv);
      size_t len = known_str(cv) ? cv.len : 0;
      if (tgz && !mode_ok)
        ar.err = mode_err;
      else if (tgz)
        tgz_add(&ar, str_of(fnv), data, len, mode, false);
      else
        zip_add(&ar, str_of(fnv), data, len, false, 0);
    }
  } else {
    /* upstream writes nothing and then fails to stat the output */
    *err = NULL;
    res->p = NULL;
    res->n = 0;
    return true;
  }
  *what_out = what;
  ar_finish(&ar);
  if (ar.err) {
    *err = arena_printf(a, "%s: %s", what, ar.err);
    return false;
  }
  res->p = (const unsigned char *)ar.out.p;
  res->n = ar.out.len;
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

static const ProvOps ops = {
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
