/*
** test_goarchive: the zip and tar.gz writers against Go's archive/zip,
** archive/tar and compress/gzip (SHA-256 of the same archives written by
** Go 1.19: tests/tools/goarchive_vectors.go), doublestar matching, Go's
** FileMode of a stat mode, and strconv's base-0 integers.
*/
#include <mbedtls/sha256.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/goarchive.h"
#include "t.h"

/* "line N of the archive test\n" repeated, cut to n bytes */
static const unsigned char *text(Arena *a, size_t n)
{
  Buf b;
  buf_init(&b, a);
  for (int i = 0; b.len < n; i++)
    buf_printf(&b, "line %d of the archive test\n", i);
  return (const unsigned char *)b.p;
}

static void sha_hex(const unsigned char *p, size_t n, char out[65])
{
  unsigned char sum[32];
  (void)mbedtls_sha256(p, n, sum, 0);
  for (int i = 0; i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", sum[i]);
}

static void test_zip(void)
{
  Arena a;
  arena_init(&a, 1 << 20);
  GoArchive *g = goar_new(&a, false);
  goar_zip_add(g, "a.txt", (const unsigned char *)"x", 1, false, 0);
  goar_zip_add(g, "dir/\xc3\xbcn\xc3\xaf.txt", text(&a, 2000), 2000, false,
               0);
  goar_zip_add(g, "tab\there~", NULL, 0, false, 0);
  /* SetMode(0755), (0444), (0755|ModeSetuid), (FileMode(666)) */
  static const uint32_t modes[] = {0755, 0444, 0755 | GOAR_SETUID, 666};
  for (int i = 0; i < 4; i++) {
    char name[32];
    snprintf(name, sizeof name, "m%o", modes[i]);
    goar_zip_add(g, name, text(&a, 100000), 100000, true, modes[i]);
  }
  const unsigned char *out;
  size_t n;
  T_CHECK(goar_finish(g, &out, &n));
  char hex[65];
  sha_hex(out, n, hex);
  T_EQ_INT(n, 34888);
  T_EQ_STR(hex,
           "5adb21007140922981825f6c31665ab9afccd6336e75a547aa1045ba093aa7ba");
  arena_release(&a);
}

static void test_tgz(void)
{
  Arena a;
  arena_init(&a, 1 << 20);
  GoArchive *g = goar_new(&a, true);
  char longname[256];
  memset(longname, 'd', 60);
  longname[60] = '/';
  memset(longname + 61, 'e', 50);
  longname[111] = '/';
  memset(longname + 112, 'f', 90);
  longname[202] = 0;
  goar_tar_add(g, "empty", NULL, 0, 0600, false);
  goar_tar_add(g, longname, text(&a, 700), 700, 0644, false);
  goar_tar_add(g, "big-pieces", text(&a, 200000), 200000, 0755, true);
  goar_tar_add(g, "big-whole", text(&a, 200000), 200000, 0755, false);
  const unsigned char *out;
  size_t n;
  T_CHECK(goar_finish(g, &out, &n));
  char hex[65];
  sha_hex(out, n, hex);
  T_EQ_INT(n, 34707);
  T_EQ_STR(hex,
           "53ba8c2a5a24426029246a37be9450a8dbb2aeda343a2318498187d6bb765b30");
  /* names and modes USTAR cannot hold are refused, not written wrong */
  g = goar_new(&a, true);
  goar_tar_add(g, "\xc3\xbc.txt", NULL, 0, 0644, false);
  T_CHECK(goar_error(g) != NULL);
  T_CHECK(!goar_finish(g, &out, &n));
  g = goar_new(&a, true);
  goar_tar_add(g, "x", NULL, 0, 0755 | GOAR_SETUID, false);
  T_CHECK(goar_error(g) != NULL);
  arena_release(&a);
}

static void test_match(void)
{
  Arena a;
  arena_init(&a, 1 << 16);
  static const struct {
    const char *pat, *name;
    int want;
  } cases[] = {
    {"*.log", "skip.log", 1},
    {"*.log", "a/skip.log", 0},
    {"**/*.log", "skip.log", 1},
    {"**/*.log", "a/b/skip.log", 1},
    {"b/**", "b/x", 1},
    {"b/**", "b/x/y", 1},
    {"b/**", "b", 1},
    {"b/**", "bc", 0},
    {"a/**/c", "a/c", 1},
    {"a/**/c", "a/b/d/c", 1},
    {"a/**/c", "a/bc", 0},
    {"{a,b}.txt", "b.txt", 1},
    {"{a,b}.txt", "c.txt", 0},
    {"x{a,{b,c}}y", "xcy", 1},
    {"[a-c]?.go", "bx.go", 1},
    {"[!a-c]x", "dx", 1},
    {"[!a-c]x", "ax", 0},
    {"[^a]", "b", 1},
    {"\\*", "*", 1},
    {"\\*", "a", 0},
    {"a**b", "axxb", 1},
    {"a**b", "ax/b", 0},
    {"?", "/", 0},
    {"?.txt", "\xc3\xbc.txt", 1},
    {"src/a.txt", "src/a.txt", 1},
    {"[a-", "a", -1},
    {"{a,b", "a", -1},
    {"a\\", "a", -1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int got = goar_match(&a, cases[i].pat, cases[i].name);
    if (got != cases[i].want)
      fprintf(stderr, "goar_match(%s, %s) = %d, want %d\n", cases[i].pat,
              cases[i].name, got, cases[i].want);
    T_EQ_INT(got, cases[i].want);
  }
  arena_release(&a);
}

static void test_modes(void)
{
  T_EQ_INT(goar_file_mode(S_IFREG | 0644), 0644);
  T_EQ_INT(goar_file_mode(S_IFDIR | 0755), GOAR_DIR | 0755);
  T_EQ_INT(goar_file_mode(S_IFLNK | 0777), GOAR_SYMLINK | 0777);
  T_EQ_INT(goar_file_mode(S_IFREG | S_ISUID | 0755), GOAR_SETUID | 0755);
  T_EQ_INT(goar_file_mode(S_IFCHR | 0600),
           GOAR_DEVICE | GOAR_CHARDEV | 0600);
}

static void test_parse_int(void)
{
  static const struct {
    const char *s;
    bool ok;
    int64_t v;
  } u[] = {
    {"0666", true, 0666}, {"666", true, 666}, {"0o755", true, 0755},
    {"0x1ff", true, 0x1ff}, {"0b101", true, 5}, {"0_644", true, 0644},
    {"0x_1f", true, 0x1f}, {"1__0", false, 0}, {"_1", false, 0},
    {"1_", false, 0}, {"08", false, 0}, {"0x", false, 0}, {"", false, 0},
    {"+1", false, 0}, {"rw-r--r--", false, 0}, {"4294967295", true,
    4294967295LL}, {"4294967296", false, 0},
  };
  for (size_t i = 0; i < sizeof u / sizeof *u; i++) {
    int64_t v = -1;
    bool ok = goar_parse_int(u[i].s, false, 0, 4294967295LL, &v);
    if (ok != u[i].ok || (ok && v != u[i].v))
      fprintf(stderr, "ParseUint(%s): %d %lld\n", u[i].s, ok, (long long)v);
    T_CHECK(ok == u[i].ok && (!ok || v == u[i].v));
  }
  int64_t v;
  T_CHECK(goar_parse_int("-0x10", true, INT32_MIN, INT32_MAX, &v));
  T_EQ_INT(v, -16);
  T_CHECK(goar_parse_int("+0644", true, INT32_MIN, INT32_MAX, &v));
  T_EQ_INT(v, 0644);
  T_CHECK(goar_parse_int("-2147483648", true, INT32_MIN, INT32_MAX, &v));
  T_EQ_INT(v, INT32_MIN);
  T_CHECK(!goar_parse_int("-2147483649", true, INT32_MIN, INT32_MAX, &v));
  T_CHECK(!goar_parse_int("2147483648", true, INT32_MIN, INT32_MAX, &v));
}

int main(void)
{
  T_RUN(test_zip);
  T_RUN(test_tgz);
  T_RUN(test_match);
  T_RUN(test_modes);
  T_RUN(test_parse_int);
  return t_done("goarchive");
}
