/*
** test_fmt: golden files tests/fmt/NAME.in.tf -> NAME.out.tf (checked
** against hclwrite plus Terraform's rewrites), idempotence of every
** output, and a few direct cases.
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/arena.h"
#include "../../core/buf.h"
#include "../../core/diag.h"
#include "../../core/fmt.h"
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

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_direct);
  T_RUN(test_lex_error);
  T_RUN(test_deep_and_garbage);
  T_RUN(test_golden);
  arena_release(&A);
  return t_done("fmt");
}
