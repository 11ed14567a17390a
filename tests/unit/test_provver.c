/*
** test_provver: provider version constraints as Terraform's installer
** reads them (core/config/provver.c): matching, precedence, and the
** canonical form the lock file records; required_version's rules on the
** same parser.
*/
#include "base/arena.h"
#include "config/provver.h"
#include "t.h"

static void test_match(void)
{
  static const struct {
    const char *c, *v;
    int want;
  } cases[] = {
      {"~> 3.2", "3.2.0", 1},          {"~> 3.2", "3.9.9", 1},
      {"~> 3.2", "4.0.0", 0},          {"~> 3.2", "3.1.9", 0},
      {"~> 3.2.1", "3.2.5", 1},        {"~> 3.2.1", "3.3.0", 0},
      {"~> 3.2.1", "3.2.0", 0},        {"~> 3", "3.0.0", 1},
      {"~> 3", "3.5.0", 1},            {"~> 3", "4.0.0", 0},
      {">= 1.0, < 2.0", "1.5.0", 1},   {">= 1.0, < 2.0", "2.0.0", 0},
      {">1.0.0", "1.0.1", 1},          {"<= 1.0.0", "1.0.0", 1},
      {"!= 1.2.0", "1.2.0", 0},        {"!= 1.2.0", "1.2.1", 1},
      {"1.2.0", "1.2.0", 1},           {"1.2.0", "1.2.1", 0},
      {"= 1.2", "1.2.0", 1},           {" >= 1 ,  < 3 ", "2.1.0", 1},
      /* Prereleases only when named exactly. */
      {">= 1.0.0", "2.0.0-beta1", 0},  {"2.0.0-beta1", "2.0.0-beta1", 1},
      {"= 2.0.0-beta1", "2.0.0-beta2", 0},
      {"", "2.0.0-beta", 0},           {"", "1.0.0", 1},
      /* Metadata does not count. */
      {"1.0.0", "1.0.0+linux", 1},
      /* Unparsable. */
      {"~> x", "1.0.0", -1},           {">= 1.0.0", "abc", -1},
      {">= 1.0.0.0", "1.0.0", -1},     {"=> 1.0", "1.0.0", -1},
      {"1.0,", "1.0.0", -1},           {"v1.0.0", "1.0.0", -1},
      {"1.0.0-a..b", "1.0.0-a..b", -1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int got = pver_match(cases[i].c, cases[i].v);
    if (got != cases[i].want)
      fprintf(stderr, "  \"%s\" vs %s: %d\n", cases[i].c, cases[i].v, got);
    T_EQ_INT(got, cases[i].want);
  }
  T_EQ_INT(pver_match(NULL, "0.1.0"), 1);
}

/* required_version's rules (hashicorp/go-version), the same syntax. */
static void test_tf_match(void)
{
  static const struct {
    const char *c, *v;
    int want;
  } cases[] = {
      {">= 1.0", "1.9.8", 1},          {"< 1.0.0", "1.9.8", 0},
      {"~> 1.9", "1.9.8", 1},          {"~> 1.9", "1.10.0", 1},
      {"~> 1.9.0", "1.10.0", 0},       {"~> 1.9.0", "1.9.8", 1},
      {"~> 1.2", "2.0.0", 0},          {"~> 1", "3.1.0", 1},
      {">= 1.3, < 2", "1.9.8", 1},     {">= 1.3, != 1.9.8", "1.9.8", 0},
      {"1.9.8", "1.9.8", 1},           {"= 1.9", "1.9.0", 1},
      {"v1.9.8", "1.9.8", 1},          {">=0.12", "1.9.8", 1},
      {">= 1.10.0-beta1", "1.9.8", 0}, {"> 1.9.8-rc1", "1.9.8", 1},
      {">= 1.0", "1.10.0-beta1", 0},   {">= 1.10.0-alpha", "1.10.0-beta", 1},
      {"> = 1", "1.9.8", -1},          {"~> x", "1.9.8", -1},
      {"", "1.9.8", -1},               {">= 1.0,", "1.9.8", -1},
      {"~> 1.9.3", "1.9.8", 1},        {"~> 1.8.3", "1.9.8", 0},
      /* Prereleases compare as strings; metadata is ignored. */
      {">= 1.10.0-beta10", "1.10.0-beta9", 1},
      {"1.9.8+anything.at-all_", "1.9.8", 1},
      {"1.9.8-", "1.9.8", -1},         {"1.9.8+", "1.9.8", -1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int got = pver_tf_match(cases[i].c, cases[i].v);
    if (got != cases[i].want)
      fprintf(stderr, "\"%s\" vs %s: got %d want %d\n", cases[i].c,
              cases[i].v, got, cases[i].want);
    T_EQ_INT(got, cases[i].want);
  }
}

static void test_cmp(void)
{
  T_CHECK(pver_cmp("1.10.0", "1.9.0") > 0);
  T_CHECK(pver_cmp("1.0.0-alpha", "1.0.0") < 0);
  T_CHECK(pver_cmp("1.0.0-alpha.1", "1.0.0-alpha.beta") < 0);
  T_CHECK(pver_cmp("1.0.0-beta.2", "1.0.0-beta.11") < 0);
  T_CHECK(pver_cmp("1.0.0-rc.1", "1.0.0-rc.1.1") < 0);
  T_EQ_INT(pver_cmp("1.0.0+x", "1.0.0"), 0);
  T_CHECK(pver_cmp("junk", "0.0.1") < 0);
  T_CHECK(pver_valid("3.2.0"));
  T_CHECK(pver_valid("3.2.0-rc1+abc"));
  T_CHECK(!pver_valid("3.2"));
  T_CHECK(!pver_valid("v3.2.0"));
  T_CHECK(!pver_valid("latest"));
}

static const char *canon(Arena *a, const char *x, const char *y)
{
  const char *v[2] = {x, y};
  const char *bad;
  const char *r = pver_canon(a, v, y ? 2 : x ? 1 : 0, &bad);
  return r ? r : arena_printf(a, "BAD %s", bad);
}

static void test_canon(void)
{
  Arena a;
  arena_init(&a, 0);
  T_EQ_STR(canon(&a, "~> 3.2", ">= 3.0"), ">= 3.0.0, ~> 3.2");
  T_EQ_STR(canon(&a, "< 4.0.0, >= 3.0", ">= 3.0.0"), ">= 3.0.0, < 4.0.0");
  T_EQ_STR(canon(&a, "~> 3", NULL), "~> 3.0");
  T_EQ_STR(canon(&a, "~> 3.2.1", NULL), "~> 3.2.1");
  T_EQ_STR(canon(&a, "3.2", "!= 3.1.0"), "!= 3.1.0, 3.2.0");
  T_EQ_STR(canon(&a, ">=2.0.0-rc1", NULL), ">= 2.0.0-rc1");
  T_EQ_STR(canon(&a, NULL, NULL), "");
  T_EQ_STR(canon(&a, "", NULL), "");
  T_EQ_STR(canon(&a, "~> 1.0", "bad"), "BAD bad");
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_match);
  T_RUN(test_tf_match);
  T_RUN(test_cmp);
  T_RUN(test_canon);
  return t_done("test_provver");
}
