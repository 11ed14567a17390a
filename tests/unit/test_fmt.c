/*
** test_fmt: golden files tests/fmt/NAME.in.tf -> NAME.out.tf (checked
** against hclwrite plus Terraform's rewrites), idempotence of every
** output, and a few direct cases.
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "lang/fmt.h"
#include "t.h"

static Arena A;

static char *slurp(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  Buf b;
  buf_init(&b, &A);
  char tmp[4096];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
    buf_put(&b, tmp, k);
  fclose(f);
  *n = b.len;
  return (char *)buf_str(&b);
}

static const char *fmt(const char *src, size_t n, bool *ok)
{
  Diags d;
  diag_init(&d, &A);
  Buf b;
  buf_init(&b, &A);
  *ok = fmt_source(&A, "t.tf", src, n, &b, &d);
  return buf_str(&b);
}

static int cmp_names(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void test_golden(void)
{
  DIR *dir = opendir("tests/fmt");
  T_CHECK(dir != NULL);
  if (!dir)
    return;
  const char *names[512];
  int n = 0;
  struct dirent *de;
  while ((de = readdir(dir)) != NULL && n < 512) {
    size_t l = strlen(de->d_name);
    if (l > 6 && strcmp(de->d_name + l - 6, ".in.tf") == 0)
      names[n++] = arena_strndup(&A, de->d_name, l - 6);
  }
  closedir(dir);
  qsort(names, (size_t)n, sizeof names[0], cmp_names);
  T_CHECK(n >= 60);
  for (int i = 0; i < n; i++) {
    size_t ni, no;
    char *in = slurp(arena_printf(&A, "tests/fmt/%s.in.tf", names[i]), &ni);
    char *exp = slurp(arena_printf(&A, "tests/fmt/%s.out.tf", names[i]), &no);
    T_CHECK(in && exp);
    if (!in || !exp)
      continue;
    bool ok;
    const char *got = fmt(in, ni, &ok);
    T_CHECK(ok);
    if (strcmp(got, exp) != 0) {
      fprintf(stderr, "golden %s differs:\n--- got\n%s--- expected\n%s",
              names[i], got, exp);
      T_CHECK(!"golden output matches");
    }
    const char *again = fmt(exp, no, &ok);
    if (strcmp(again, exp) != 0) {
      fprintf(stderr, "golden %s not idempotent:\n%s", names[i], again);
      T_CHECK(!"formatting is idempotent");
    }
  }
}

static void test_direct(void)
{
  bool ok;
  T_EQ_STR(fmt("a=1\n", 4, &ok), "a = 1\n");
  T_CHECK(ok);
  T_EQ_STR(fmt("", 0, &ok), "");
  T_EQ_STR(fmt("x = \"${ var.y }\"\n", 17, &ok), "x = var.y\n");
  T_EQ_STR(fmt("b { c=[1,-2] }\n", 15, &ok), "b { c = [1, -2] }\n");
}

static void test_lex_error(void)
{
  bool ok;
  const char *got = fmt("a = 1 & 2\n", 10, &ok);
  T_CHECK(!ok);
  T_EQ_STR(got, "");
}

static void test_deep_and_garbage(void)
{
  /* Unbalanced and deeply nested input must not crash or go quadratic. */
  Buf b;
  buf_init(&b, &A);
  for (int i = 0; i < 5000; i++)
    buf_puts(&b, "a = [\n");
  for (int i = 0; i < 7000; i++)
    buf_puts(&b, "]}\n)");
  bool ok;
  const char *got = fmt(b.p, b.len, &ok);
  T_CHECK(ok);
  T_CHECK(strlen(got) >= b.len);
}

/* ---- fmt_unified_diff (expectations from GNU diff -u --label) ------------- */

static const char *udiff(const char *x, const char *y, bool *exact)
{
  Buf b;
  buf_init(&b, &A);
  *exact = fmt_unified_diff(&A, &b, "old/t.tf", "new/t.tf", x, strlen(x), y,
                            strlen(y));
  return buf_str(&b);
}

static void test_diff(void)
{
  bool exact;
  T_EQ_STR(udiff("a\nb\n", "a\nb\n", &exact), "");
  T_CHECK(exact);
  /* two hunks (gap of 3 > 2 * context), missing final newline */
  T_EQ_STR(udiff("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n",
                 "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nm\nn", &exact),
           "--- old/t.tf\n+++ new/t.tf\n"
           "@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n"
           "@@ -9,5 +9,6 @@\n i\n j\n k\n-l\n+L\n m\n+n\n"
           "\\ No newline at end of file\n");
  T_CHECK(exact);
  /* hunks 6 lines apart merge into one */
  T_EQ_STR(udiff("a\nc\nd\ne\nf\ng\nX\nh\ni\n", "a\nb\nc\nd\ne\nf\ng\nh\ni\n",
                 &exact),
           "--- old/t.tf\n+++ new/t.tf\n"
           "@@ -1,9 +1,9 @@\n a\n+b\n c\n d\n e\n f\n g\n-X\n h\n i\n");
  /* empty sides: the range before the first line */
  T_EQ_STR(udiff("", "x\ny\n", &exact),
           "--- old/t.tf\n+++ new/t.tf\n@@ -0,0 +1,2 @@\n+x\n+y\n");
  T_EQ_STR(udiff("x\ny\n", "", &exact),
           "--- old/t.tf\n+++ new/t.tf\n@@ -1,2 +0,0 @@\n-x\n-y\n");
  /* one-line ranges print without a count */
  T_EQ_STR(udiff("a\n", "b\n", &exact),
           "--- old/t.tf\n+++ new/t.tf\n@@ -1 +1 @@\n-a\n+b\n");
  /* fmt's typical change: a realigned block */
  T_EQ_STR(udiff("x {\n  a=1\n  bb = 2\n}\n", "x {\n  a  = 1\n  bb = 2\n}\n",
                 &exact),
           "--- old/t.tf\n+++ new/t.tf\n@@ -1,4 +1,4 @@\n x {\n-  a=1\n"
           "+  a  = 1\n   bb = 2\n }\n");
  T_CHECK(exact);
}

/* Everything different and large: bounded work, one replace hunk. */
static void test_diff_bounded(void)
{
  Buf x, y;
  buf_init(&x, &A);
  buf_init(&y, &A);
  for (int i = 0; i < 5000; i++) {
    buf_printf(&x, "old %d\n", i);
    buf_printf(&y, "new %d\n", i);
  }
  Buf out;
  buf_init(&out, &A);
  bool exact = fmt_unified_diff(&A, &out, "o", "n", x.p, x.len, y.p, y.len);
  T_CHECK(!exact);
  T_CHECK(strncmp(buf_str(&out), "--- o\n+++ n\n@@ -1,5000 +1,5000 @@\n-old 0\n",
                  40) == 0);
  T_EQ_INT(out.len, 12 + 22 + x.len + y.len + 10000);
  /* a large file with a few changes stays exact and fast */
  buf_clear(&x);
  buf_clear(&y);
  for (int i = 0; i < 100000; i++) {
    buf_printf(&x, "line %d\n", i);
    buf_printf(&y, i % 10000 == 5 ? "LINE %d\n" : "line %d\n", i);
  }
  buf_clear(&out);
  exact = fmt_unified_diff(&A, &out, "o", "n", x.p, x.len, y.p, y.len);
  T_CHECK(exact);
  int hunks = 0;
  for (const char *p = buf_str(&out); (p = strstr(p, "\n@@ ")) != NULL; p++)
    hunks++;
  T_EQ_INT(hunks, 10);
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_direct);
  T_RUN(test_lex_error);
  T_RUN(test_deep_and_garbage);
  T_RUN(test_golden);
  T_RUN(test_diff);
  T_RUN(test_diff_bounded);
  arena_release(&A);
  return t_done("fmt");
}
