/*
** t.h: the unit-test harness (in the spirit of Redis's testhelp.h).
**
** A test file defines `static void test_x(void)` functions that call the
** T_ checks, and a main() that runs them with T_RUN and ends with
** `return t_done("name");`.  A failed check prints file:line and the
** expression, marks the running test failed, and continues.  t_done()
** prints "NAME: N passed, M failed" (counting tests, not checks) and
** returns the exit status.  No allocation, no global constructors.
*/
#ifndef CAIRN_T_H
#define CAIRN_T_H

#include <stdio.h>
#include <string.h>

static int t_pass, t_fail, t_cur_failed, t_checks;
static const char *t_cur_name;

#define T_CHECK(cond)                                                      \
  do {                                                                     \
    t_checks++;                                                            \
    if (!(cond)) {                                                         \
      t_cur_failed = 1;                                                    \
      fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__, \
              t_cur_name, #cond);                                          \
    }                                                                      \
  } while (0)

#define T_EQ_INT(a, b)                                                     \
  do {                                                                     \
    long long t_a_ = (long long)(a), t_b_ = (long long)(b);                \
    t_checks++;                                                            \
    if (t_a_ != t_b_) {                                                    \
      t_cur_failed = 1;                                                    \
      fprintf(stderr, "%s:%d: %s: %s == %lld, expected %lld\n", __FILE__,  \
              __LINE__, t_cur_name, #a, t_a_, t_b_);                       \
    }                                                                      \
  } while (0)

#define T_EQ_STR(a, b)                                                     \
  do {                                                                     \
    const char *t_a_ = (a), *t_b_ = (b);                                   \
    t_checks++;                                                            \
    if (!t_a_ || !t_b_ || strcmp(t_a_, t_b_) != 0) {                       \
      t_cur_failed = 1;                                                    \
      fprintf(stderr, "%s:%d: %s: %s == \"%s\", expected \"%s\"\n",        \
              __FILE__, __LINE__, t_cur_name, #a, t_a_ ? t_a_ : "(null)",  \
              t_b_ ? t_b_ : "(null)");                                     \
    }                                                                      \
  } while (0)

#define T_RUN(fn)                                                          \
  do {                                                                     \
    t_cur_name = #fn;                                                      \
    t_cur_failed = 0;                                                      \
    int t_before_ = t_checks;                                              \
    fn();                                                                  \
    if (t_checks == t_before_) {                                           \
      t_cur_failed = 1;                                                    \
      fprintf(stderr, "%s: asserted nothing\n", #fn);                      \
    }                                                                      \
    if (t_cur_failed)                                                      \
      t_fail++;                                                            \
    else                                                                   \
      t_pass++;                                                            \
  } while (0)

static inline int t_done(const char *name)
{
  printf("%s: %d passed, %d failed\n", name, t_pass, t_fail);
  return t_fail ? 1 : 0;
}

#endif
