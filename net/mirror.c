/*
** mirror.c: listing, hashing and installing provider packages from a
** filesystem mirror.  Contracts in mirror.h.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <mbedtls/base64.h>
#include <mbedtls/sha256.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "config/provver.h"
#include "mirror.h"
#include "zip.h"

const char *mirror_platform(void)
{
#if defined(__x86_64__)
  return "linux_amd64";
#elif defined(__aarch64__)
  return "linux_arm64";
#elif defined(__arm__)
  return "linux_arm";
#elif defined(__i386__)
  return "linux_386";
#else
  return "linux_unknown";
#endif
}

static bool failf(Arena *a, const char **why, const char *what,
                  const char *path)
{
  *why = arena_printf(a, "%s %s: %s", what, path, strerror(errno));
  return false;
}

static bool is_dir(const char *p)
{
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static void add_pkg(Arena *a, MirrorPkg **v, uint32_t *n, uint32_t *cap,
                    const char *version, const char *path, bool zip)
{
  for (uint32_t i = 0; i < *n; i++)
    if (strcmp((*v)[i].version, version) == 0) {
      if ((*v)[i].zip && !zip)
        (*v)[i] = (MirrorPkg){version, path, zip};
      return;
    }
  if (*n == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 8;
    *v = arena_grow(a, *v, sizeof(MirrorPkg), _Alignof(MirrorPkg), *cap, nc);
    *cap = nc;
  }
  (*v)[(*n)++] = (MirrorPkg){version, path, zip};
}

static int cmp_pkg_newest(const void *x, const void *y)
{
  return -pver_cmp(((const MirrorPkg *)x)->version,
                   ((const MirrorPkg *)y)->version);
}

bool mirror_list(Arena *a, const char *dir, const char *addr,
                 const char *platform, MirrorPkg **out, uint32_t *n,
                 const char **why)
{
  *out = NULL;
  *n = 0;
  uint32_t cap = 0;
  const char *base = arena_printf(a, "%s/%s", dir, addr);
  const char *type = strrchr(addr, '/') ? strrchr(addr, '/') + 1 : addr;
  DIR *dp = opendir(base);
  if (!dp) {
    if (errno == ENOENT || errno == ENOTDIR)
      return is_dir(dir) ? true : failf(a, why, "cannot read", dir);
    return failf(a, why, "cannot read", base);
  }
  const char *zpre = arena_printf(a, "terraform-provider-%s_", type);
  const char *zsuf = arena_printf(a, "_%s.zip", platform);
  size_t lp = strlen(zpre), ls = strlen(zsuf);
  struct dirent *de;
  while ((de = readdir(dp))) {
    const char *nm = de->d_name;
    size_t l = strlen(nm);
    if (pver_valid(nm)) {
      const char *pd = arena_printf(a, "%s/%s/%s", base, nm, platform);
      if (is_dir(pd))
        add_pkg(a, out, n, &cap, arena_strdup(a, nm), pd, false);
    } else if (l > lp + ls && strncmp(nm, zpre, lp) == 0 &&
               strcmp(nm + l - ls, zsuf) == 0) {
      const char *ver = arena_strndup(a, nm + lp, l - lp - ls);
      const char *zp = arena_printf(a, "%s/%s", base, nm);
      if (pver_valid(ver) && is_file(zp))
        add_pkg(a, out, n, &cap, ver, zp, true);
    }
  }
  closedir(dp);
  if (*n)
    qsort(*out, *n, sizeof **out, cmp_pkg_newest);
  return true;
}

static int cmp_file(const void *x, const void *y)
{
  return strcmp(((const MirrorFile *)x)->name, ((const MirrorFile *)y)->name);
}

const char *mirror_h1(Arena *a, MirrorFile *f, uint32_t n)
{
  if (n)
    qsort(f, n, sizeof *f, cmp_file);
  mbedtls_sha256_context c;
  mbedtls_sha256_init(&c);
  mbedtls_sha256_starts(&c, 0);
  for (uint32_t i = 0; i < n; i++) {
    if (strchr(f[i].name, '\n')) {
      mbedtls_sha256_free(&c);
      return NULL;
    }
    char hex[65];
    for (int k = 0; k < 32; k++)
      snprintf(hex + 2 * k, 3, "%02x", f[i].sum[k]);
    mbedtls_sha256_update(&c, (const unsigned char *)hex, 64);
    mbedtls_sha256_update(&c, (const unsigned char *)"  ", 2);
    mbedtls_sha256_update(&c, (const unsigned char *)f[i].name,
                          strlen(f[i].name));
    mbedtls_sha256_update(&c, (const unsigned char *)"\n", 1);
  }
  uint8_t sum[32];
  mbedtls_sha256_finish(&c, sum);
  mbedtls_sha256_free(&c);
  unsigned char b64[64];
  size_t ol = 0;
  mbedtls_base64_encode(b64, sizeof b64, &ol, sum, 32);
  return arena_printf(a, "h1:%.*s", (int)ol, (const char *)b64);
}

/* SHA-256 of a file's content, read in chunks (packages can be large). */
static bool sha_file(const char *path, uint8_t out[32])
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  mbedtls_sha256_context c;
  mbedtls_sha256_init(&c);
  mbedtls_sha256_starts(&c, 0);
  unsigned char buf[65536];
  ssize_t r;
  while ((r = read(fd, buf, sizeof buf)) != 0) {
    if (r < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    mbedtls_sha256_update(&c, buf, (size_t)r);
  }
  int e = errno;
  close(fd);
  mbedtls_sha256_finish(&c, out);
  mbedtls_sha256_free(&c);
  errno = e;
  return r == 0;
}

typedef struct Files {
  MirrorFile *v;
  uint32_t n, cap;
} Files;

/* dirhash's DirFiles: every non-directory below root (directories are
** walked without following links, as filepath.Walk does). */
static bool walk(Arena *a, const char *root, const char *rel, Files *fs,
                 const char **why)
{
  const char *path = *rel ? arena_printf(a, "%s/%s", root, rel) : root;
  DIR *dp = opendir(path);
  if (!dp)
    return failf(a, why, "cannot read", path);
  struct dirent *de;
  bool ok = true;
  while (ok && (de = readdir(dp))) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
      continue;
    const char *r = *rel ? arena_printf(a, "%s/%s", rel, de->d_name)
                         : arena_strdup(a, de->d_name);
    const char *full = arena_printf(a, "%s/%s", root, r);
    struct stat st;
    if (lstat(full, &st) != 0) {
      ok = failf(a, why, "cannot read", full);
      break;
    }
    if (S_ISDIR(st.st_mode)) {
      ok = walk(a, root, r, fs, why);
      continue;
    }
    if (fs->n == fs->cap) {
      uint32_t nc = fs->cap ? fs->cap * 2 : 8;
      fs->v = arena_grow(a, fs->v, sizeof(MirrorFile), _Alignof(MirrorFile),
                         fs->cap, nc);
      fs->cap = nc;
    }
    MirrorFile *f = &fs->v[fs->n++];
    f->name = r;
    if (!sha_file(full, f->sum))
      ok = failf(a, why, "cannot read", full);
  }
  closedir(dp);
  return ok;
}

bool mirror_hash_dir(Arena *a, const char *dir, const char **h1,
                     const char **why)
{
  char real[PATH_MAX];
  if (!realpath(dir, real))
    return failf(a, why, "cannot read", dir);
  Files fs = {0};
  if (!walk(a, real, "", &fs, why))
    return false;
  *h1 = mirror_h1(a, fs.v, fs.n);
  if (!*h1) {
    *why = arena_printf(a, "%s holds a file name with a new line", dir);
    return false;
  }
  return true;
}

bool mirror_hash_file(Arena *a, const char *path, const char **h1,
                      const char **why)
{
  MirrorFile f;
  const char *slash = strrchr(path, '/');
  f.name = slash ? slash + 1 : path;
  if (!sha_file(path, f.sum))
    return failf(a, why, "cannot read", path);
  *h1 = mirror_h1(a, &f, 1);
  if (!*h1) {
    *why = arena_printf(a, "%s has a new line in its name", path);
    return false;
  }
  return true;
}

/* The archive's bytes, mapped read-only; *len 0 on failure. */
static const uint8_t *map_file(const char *path, size_t *len)
{
  *len = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  struct stat st;
  void *p = MAP_FAILED;
  errno = EINVAL;   /* not a regular file, or empty */
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  close(fd);
  errno = e;
  if (p == MAP_FAILED)
    return NULL;
  *len = (size_t)st.st_size;
  return p;
}

static bool sink_sha(void *ctx, const uint8_t *p, size_t n)
{
  mbedtls_sha256_update(ctx, p, n);
  return true;
}

bool mirror_hash_zip(Arena *a, const char *path, const char **h1,
                     const char **zh, const char **why)
{
  size_t len;
  const uint8_t *p = map_file(path, &len);
  if (!p)
    return failf(a, why, "cannot read", path);
  Zip z;
  const char *err = NULL;
  bool ok = zip_open(a, p, len, &z, &err);
  MirrorFile *fs = ok ? ARENA_NEW(a, MirrorFile, z.ne + 1) : NULL;
  for (uint32_t i = 0; ok && i < z.ne; i++) {
    mbedtls_sha256_context c;
    mbedtls_sha256_init(&c);
    mbedtls_sha256_starts(&c, 0);
    ok = zip_extract(&z, &z.e[i], sink_sha, &c, &err);
    mbedtls_sha256_finish(&c, fs[i].sum);
    mbedtls_sha256_free(&c);
    fs[i].name = z.e[i].name;
  }
  if (ok) {
    uint8_t sum[32];
    mbedtls_sha256(p, len, sum, 0);
    Buf b;
    buf_init(&b, a);
    buf_puts(&b, "zh:");
    for (int k = 0; k < 32; k++)
      buf_printf(&b, "%02x", sum[k]);
    *zh = buf_str(&b);
    *h1 = mirror_h1(a, fs, z.ne);
    if (!*h1) {
      ok = false;
      err = "an entry's name holds a new line";
    }
  }
  munmap((void *)(uintptr_t)p, len);
  if (!ok)
    *why = arena_printf(a, "%s: %s", path, err);
  return ok;
}

static int rm_one(const char *p, const struct stat *st, int flag,
                  struct FTW *f)
{
  (void)st;
  (void)f;
  return flag == FTW_DP ? rmdir(p) : unlink(p);
}

/* Removes path whatever it is (a link is removed, not followed). */
static bool remove_all(const char *path)
{
  struct stat st;
  if (lstat(path, &st) != 0)
    return errno == ENOENT;
  if (!S_ISDIR(st.st_mode))
    return unlink(path) == 0;
  return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0;
}

static bool mkdirs(Arena *a, const char *path)
{
  char *p = arena_strdup(a, path);
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      if (mkdir(p, 0755) != 0 && errno != EEXIST)
        return false;
      *s = '/';
    }
  return mkdir(p, 0755) == 0 || errno == EEXIST;
}

static bool sink_fd(void *ctx, const uint8_t *p, size_t n)
{
  int fd = *(int *)ctx;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    p += w;
    n -= (size_t)w;
  }
  return true;
}

static bool unpack(Arena *a, const char *zpath, const char *dest,
                   const char **why)
{
  size_t len;
  const uint8_t *p = map_file(zpath, &len);
  if (!p)
    return failf(a, why, "cannot read", zpath);
  Zip z;
  const char *err = NULL;
  bool ok = zip_open(a, p, len, &z, &err);
  for (uint32_t i = 0; ok && i < z.ne; i++) {
    const ZipEntry *e = &z.e[i];
    const char *out = arena_printf(a, "%s/%s", dest, e->name);
    if (e->is_dir) {
      if (!mkdirs(a, out)) {
        err = arena_printf(a, "cannot create %s: %s", out, strerror(errno));
        ok = false;
      }
      continue;
    }
    const char *slash = strrchr(out, '/');
    const char *parent = arena_strndup(a, out, (size_t)(slash - out));
    int fd = -1;
    if (mkdirs(a, parent))
      fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                e->mode ? e->mode : 0755);
    if (fd < 0) {
      err = arena_printf(a, "cannot create %s: %s", out, strerror(errno));
      ok = false;
      continue;
    }
    ok = zip_extract(&z, e, sink_fd, &fd, &err);
    if (close(fd) != 0 && ok) {
      err = arena_printf(a, "cannot write %s: %s", out, strerror(errno));
      ok = false;
    }
    /* The umask must not take away the package's own permissions. */
    if (ok && e->mode)
      chmod(out, e->mode);
  }
  munmap((void *)(uintptr_t)p, len);
  if (!ok)
    *why = arena_printf(a, "%s: %s", zpath, err);
  return ok;
}

bool mirror_install(Arena *a, const MirrorPkg *pkg, const char *target,
                    const char **why)
{
  const char *slash = strrchr(target, '/');
  const char *parent =
      slash ? arena_strndup(a, target, (size_t)(slash - target)) : ".";
  if (!mkdirs(a, parent))
    return failf(a, why, "cannot create", parent);
  if (!pkg->zip) {
    char real[PATH_MAX];
    if (!realpath(pkg->path, real))
      return failf(a, why, "cannot read", pkg->path);
    if (!remove_all(target))
      return failf(a, why, "cannot remove", target);
    if (symlink(real, target) != 0)
      return failf(a, why, "cannot link", target);
    return true;
  }
  const char *tmp = arena_printf(a, "%s.tmp%ld", target, (long)getpid());
  remove_all(tmp);
  if (!mkdirs(a, tmp))
    return failf(a, why, "cannot create", tmp);
  if (!unpack(a, pkg->path, tmp, why)) {
    remove_all(tmp);
    return false;
  }
  if (!remove_all(target) || rename(tmp, target) != 0) {
    int e = errno;
    remove_all(tmp);
    errno = e;
    return failf(a, why, "cannot install", target);
  }
  return true;
}

static int cmp_str(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

const char *mirror_executable(Arena *a, const char *pkgdir,
                              const char *type)
{
  DIR *dp = opendir(pkgdir);
  if (!dp)
    return NULL;
  const char *pre = arena_printf(a, "terraform-provider-%s", type);
  const char **names = NULL;
  uint32_t n = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(dp))) {
    if (strncmp(de->d_name, pre, strlen(pre)) != 0)
      continue;
    const char *full = arena_printf(a, "%s/%s", pkgdir, de->d_name);
    if (!is_file(full))
      continue;
    if (n == cap) {
      uint32_t nc = cap ? cap * 2 : 4;
      names = arena_grow(a, names, sizeof *names, _Alignof(const char *),
                         cap, nc);
      cap = nc;
    }
    names[n++] = full;
  }
  closedir(dp);
  if (!n)
    return NULL;
  qsort(names, n, sizeof *names, cmp_str);
  return names[0];
}
