/*
** test_mirror: provider mirrors (net/mirror.c) and their .zip reader
** (net/zip.c): the h1:/zh: hashes against values computed by Go's own
** golang.org/x/mod/sumdb/dirhash (Debian's Go 1.19 sources: HashDir and
** HashZip of the same three files), zip entries and their refusals, the
** two mirror layouts, installing and finding the executable.
*/
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "net/mirror.h"
#include "net/zip.h"
#include "t.h"

/* python3 zipfile (deflated) of terraform-provider-x_v1.0.0 = "hello\n",
** LICENSE = "MIT\n", sub/a.txt = "a". */
static const uint8_t pkg_zip[] = {
    0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0xa5, 0x06,
    0x7b, 0x5d, 0x20, 0x30, 0x3a, 0x36, 0x08, 0x00, 0x00, 0x00, 0x06, 0x00,
    0x00, 0x00, 0x1b, 0x00, 0x00, 0x00, 0x74, 0x65, 0x72, 0x72, 0x61, 0x66,
    0x6f, 0x72, 0x6d, 0x2d, 0x70, 0x72, 0x6f, 0x76, 0x69, 0x64, 0x65, 0x72,
    0x2d, 0x78, 0x5f, 0x76, 0x31, 0x2e, 0x30, 0x2e, 0x30, 0xcb, 0x48, 0xcd,
    0xc9, 0xc9, 0xe7, 0x02, 0x00, 0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00,
    0x00, 0x08, 0x00, 0xa5, 0x06, 0x7b, 0x5d, 0xfd, 0x98, 0x73, 0x09, 0x06,
    0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x4c,
    0x49, 0x43, 0x45, 0x4e, 0x53, 0x45, 0xf3, 0xf5, 0x0c, 0xe1, 0x02, 0x00,
    0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0xa5, 0x06,
    0x7b, 0x5d, 0x43, 0xbe, 0xb7, 0xe8, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00,
    0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x73, 0x75, 0x62, 0x2f, 0x61, 0x2e,
    0x74, 0x78, 0x74, 0x4b, 0x04, 0x00, 0x50, 0x4b, 0x01, 0x02, 0x14, 0x03,
    0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0xa5, 0x06, 0x7b, 0x5d, 0x20, 0x30,
    0x3a, 0x36, 0x08, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x1b, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa4, 0x81,
    0x00, 0x00, 0x00, 0x00, 0x74, 0x65, 0x72, 0x72, 0x61, 0x66, 0x6f, 0x72,
    0x6d, 0x2d, 0x70, 0x72, 0x6f, 0x76, 0x69, 0x64, 0x65, 0x72, 0x2d, 0x78,
    0x5f, 0x76, 0x31, 0x2e, 0x30, 0x2e, 0x30, 0x50, 0x4b, 0x01, 0x02, 0x14,
    0x03, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0xa5, 0x06, 0x7b, 0x5d, 0xfd,
    0x98, 0x73, 0x09, 0x06, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x07,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa4,
    0x81, 0x41, 0x00, 0x00, 0x00, 0x4c, 0x49, 0x43, 0x45, 0x4e, 0x53, 0x45,
    0x50, 0x4b, 0x01, 0x02, 0x14, 0x03, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00,
    0xa5, 0x06, 0x7b, 0x5d, 0x43, 0xbe, 0xb7, 0xe8, 0x03, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xa4, 0x81, 0x6c, 0x00, 0x00, 0x00, 0x73, 0x75,
    0x62, 0x2f, 0x61, 0x2e, 0x74, 0x78, 0x74, 0x50, 0x4b, 0x05, 0x06, 0x00,
    0x00, 0x00, 0x00, 0x03, 0x00, 0x03, 0x00, 0xb5, 0x00, 0x00, 0x00, 0x96,
    0x00, 0x00, 0x00, 0x00, 0x00,
};

/* dirhash.HashDir(pkg, "", Hash1) and HashZip(pkg.zip, Hash1). */
#define PKG_H1 "h1:ISwIOYldCrNByPg8iB2pc/iz58txhvkq8OUiJmVqgvw="
#define PKG_ZH \
  "zh:2e7cbb568342566ea044999a7e2bf081a3afc7290e51819da54d0da3100bda9b"

static char tmpdir[64];

static void write_file(const char *path, const void *p, size_t n, int mode)
{
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
  T_CHECK(fd >= 0);
  if (fd < 0)
    return;
  T_EQ_INT(write(fd, p, n), (long long)n);
  close(fd);
}

static bool sink_buf(void *ctx, const uint8_t *p, size_t n)
{
  Buf *b = ctx;
  buf_put(b, p, n);
  return true;
}

static const char *entry_text(Arena *a, const Zip *z, const char *name)
{
  for (uint32_t i = 0; i < z->ne; i++)
    if (strcmp(z->e[i].name, name) == 0) {
      Buf b;
      buf_init(&b, a);
      const char *err = NULL;
      if (!zip_extract(z, &z->e[i], sink_buf, &b, &err))
        return err;
      return buf_str(&b);
    }
  return NULL;
}

static void test_zip_read(void)
{
  Arena a;
  arena_init(&a, 0);
  Zip z;
  const char *err = NULL;
  T_CHECK(zip_open(&a, pkg_zip, sizeof pkg_zip, &z, &err));
  T_EQ_INT(z.ne, 3);
  T_EQ_INT(z.e[0].method, 8);
  T_EQ_STR(entry_text(&a, &z, "terraform-provider-x_v1.0.0"), "hello\n");
  T_EQ_STR(entry_text(&a, &z, "LICENSE"), "MIT\n");
  T_EQ_STR(entry_text(&a, &z, "sub/a.txt"), "a");
  arena_release(&a);
}

static bool refused(const uint8_t *p, size_t n, const char *want)
{
  Arena a;
  arena_init(&a, 0);
  Zip z;
  const char *err = NULL;
  bool ok = zip_open(&a, p, n, &z, &err);
  for (uint32_t i = 0; ok && i < z.ne; i++) {
    Buf b;
    buf_init(&b, &a);
    ok = zip_extract(&z, &z.e[i], sink_buf, &b, &err);
  }
  bool r = !ok && err && strstr(err, want);
  if (!r)
    fprintf(stderr, "  got: %s\n", err ? err : "(accepted)");
  arena_release(&a);
  return r;
}

static void test_zip_refused(void)
{
  uint8_t buf[sizeof pkg_zip];
  T_CHECK(refused(pkg_zip, 10, "too short"));
  T_CHECK(refused(pkg_zip, sizeof pkg_zip - 1, "no end of central"));
  /* A flipped byte in the first entry's deflated data. */
  memcpy(buf, pkg_zip, sizeof buf);
  buf[30 + 27 + 2] ^= 0x55;
  T_CHECK(refused(buf, sizeof buf, "zip entry"));
  /* The central directory's name of the first entry made "../..." */
  memcpy(buf, pkg_zip, sizeof buf);
  uint32_t cd = (uint32_t)buf[sizeof buf - 6] |
                (uint32_t)buf[sizeof buf - 5] << 8;
  memcpy(buf + cd + 46, "../", 3);
  T_CHECK(refused(buf, sizeof buf, "leaves the package"));
  /* ZIP64 markers in the end record. */
  memcpy(buf, pkg_zip, sizeof buf);
  memset(buf + sizeof buf - 6, 0xff, 4);
  T_CHECK(refused(buf, sizeof buf, "ZIP64"));
  /* An unknown compression method (central and local agree). */
  memcpy(buf, pkg_zip, sizeof buf);
  buf[cd + 10] = 12;
  buf[8] = 12;
  T_CHECK(refused(buf, sizeof buf, "compression method"));
  /* The central directory's offset points past the archive. */
  memcpy(buf, pkg_zip, sizeof buf);
  buf[sizeof buf - 4] = 0x7f;
  T_CHECK(refused(buf, sizeof buf, "outside the archive"));
}

static void test_h1(void)
{
  Arena a;
  arena_init(&a, 0);
  const char *d = arena_printf(&a, "%s/pkg", tmpdir);
  mkdir(d, 0755);
  mkdir(arena_printf(&a, "%s/sub", d), 0755);
  write_file(arena_printf(&a, "%s/terraform-provider-x_v1.0.0", d),
             "hello\n", 6, 0755);
  write_file(arena_printf(&a, "%s/LICENSE", d), "MIT\n", 4, 0644);
  write_file(arena_printf(&a, "%s/sub/a.txt", d), "a", 1, 0644);
  const char *h1 = NULL, *zh = NULL, *why = NULL;
  T_CHECK(mirror_hash_dir(&a, d, &h1, &why));
  T_EQ_STR(h1, PKG_H1);
  const char *zp = arena_printf(&a, "%s/pkg.zip", tmpdir);
  write_file(zp, pkg_zip, sizeof pkg_zip, 0644);
  h1 = NULL;
  T_CHECK(mirror_hash_zip(&a, zp, &h1, &zh, &why));
  T_EQ_STR(h1, PKG_H1);
  T_EQ_STR(zh, PKG_ZH);
  /* No files at all: the SHA-256 of nothing. */
  T_EQ_STR(mirror_h1(&a, NULL, 0),
           "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
  MirrorFile nl = {"a\nb", {0}};
  T_CHECK(mirror_h1(&a, &nl, 1) == NULL);
  /* A changed byte changes the hash. */
  write_file(arena_printf(&a, "%s/LICENSE", d), "MIT!", 4, 0644);
  T_CHECK(mirror_hash_dir(&a, d, &h1, &why));
  T_CHECK(strcmp(h1, PKG_H1) != 0);
  T_CHECK(!mirror_hash_dir(&a, arena_printf(&a, "%s/none", tmpdir), &h1,
                           &why));
  /* A `plugin = PATH` binary: the package of that one file under its base
  ** name (value from the dirhash recipe, computed by Python's hashlib). */
  T_CHECK(mirror_hash_file(
      &a, arena_printf(&a, "%s/terraform-provider-x_v1.0.0", d), &h1, &why));
  T_EQ_STR(h1, "h1:TH2UijXm21NIPW4/f5wiuw73s8o6ut6DIWdH/wElwqY=");
  T_CHECK(!mirror_hash_file(&a, arena_printf(&a, "%s/none", tmpdir), &h1,
                            &why));
  arena_release(&a);
}

static void test_layouts(void)
{
  Arena a;
  arena_init(&a, 0);
  const char *plat = mirror_platform();
  const char *m = arena_printf(&a, "%s/mirror", tmpdir);
  const char *base = arena_printf(&a, "%s/example.com/acme/x", m);
  /* 1.0.0 unpacked, 1.1.0 packed, 1.0.0 packed too (unpacked wins),
  ** 2.0.0 for another platform only, a directory that is no version. */
  const char *dirs[] = {"1.0.0", "2.0.0", "latest"};
  for (int i = 0; i < 3; i++) {
    const char *p = arena_printf(&a, "%s/%s/%s", base, dirs[i],
                                 i == 1 ? "windows_386" : plat);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", p);
    T_EQ_INT(system(cmd), 0);
    write_file(arena_printf(&a, "%s/terraform-provider-x_v%s", p, dirs[i]),
               "hello\n", 6, 0755);
  }
  write_file(arena_printf(&a, "%s/terraform-provider-x_1.1.0_%s.zip", base,
                          plat),
             pkg_zip, sizeof pkg_zip, 0644);
  write_file(arena_printf(&a, "%s/terraform-provider-x_1.0.0_%s.zip", base,
                          plat),
             pkg_zip, sizeof pkg_zip, 0644);
  MirrorPkg *pk;
  uint32_t n;
  const char *why = NULL;
  T_CHECK(mirror_list(&a, m, "example.com/acme/x", plat, &pk, &n, &why));
  T_EQ_INT(n, 2);
  if (n == 2) {
    T_EQ_STR(pk[0].version, "1.1.0");
    T_CHECK(pk[0].zip);
    T_EQ_STR(pk[1].version, "1.0.0");
    T_CHECK(!pk[1].zip);
  }
  T_CHECK(mirror_list(&a, m, "example.com/acme/none", plat, &pk, &n, &why));
  T_EQ_INT(n, 0);
  T_CHECK(!mirror_list(&a, arena_printf(&a, "%s/nowhere", tmpdir),
                       "example.com/acme/x", plat, &pk, &n, &why));
  /* Installing: the zip unpacked (mode kept), the directory linked. */
  T_CHECK(mirror_list(&a, m, "example.com/acme/x", plat, &pk, &n, &why));
  const char *t1 = arena_printf(&a, "%s/inst/1.1.0/%s", tmpdir, plat);
  T_CHECK(mirror_install(&a, &pk[0], t1, &why));
  const char *exe = mirror_executable(&a, t1, "x");
  T_CHECK(exe && strstr(exe, "/terraform-provider-x_v1.0.0"));
  /* The zip records 0644 for it (python's zipfile kept the file's
  ** mode): the mode comes from the archive, as with Terraform. */
  struct stat st;
  T_CHECK(exe && stat(exe, &st) == 0 && (st.st_mode & 0777) == 0644);
  const char *h1 = NULL;
  T_CHECK(mirror_hash_dir(&a, t1, &h1, &why));
  T_EQ_STR(h1, PKG_H1);
  T_CHECK(mirror_install(&a, &pk[0], t1, &why));   /* again: replaced */
  const char *t2 = arena_printf(&a, "%s/inst/1.0.0/%s", tmpdir, plat);
  T_CHECK(mirror_install(&a, &pk[1], t2, &why));
  T_CHECK(lstat(t2, &st) == 0 && S_ISLNK(st.st_mode));
  T_CHECK(mirror_executable(&a, t2, "x") != NULL);
  T_CHECK(mirror_executable(&a, t2, "y") == NULL);
  arena_release(&a);
}

int main(void)
{
  snprintf(tmpdir, sizeof tmpdir, "/tmp/test_mirror.XXXXXX");
  if (!mkdtemp(tmpdir))
    return 1;
  T_RUN(test_zip_read);
  T_RUN(test_zip_refused);
  T_RUN(test_h1);
  T_RUN(test_layouts);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0)
    return 1;
  return t_done("test_mirror");
}
