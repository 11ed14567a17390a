/* Unit tests for core/base/diag: collection and Terraform-style rendering. */
#include "base/arena.h"
#include "base/diag.h"
#include "t.h"

static const char src[] =
    "resource \"null_resource\" \"a\" {\n"
    "  foo = 1\n"
    "}\n";

static const char *ctx_fn(const SrcFile *f, uint32_t byte)
{
  (void)f;
  (void)byte;
  return "resource \"null_resource\" \"a\"";
}

static SrcRange foo_range(void)
{
  SrcRange r = {"main.tf", {2, 3, 33}, {2, 6, 36}};
  return r;
}

static void test_collect(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d, e;
  diag_init(&d, &a);
  diag_init(&e, &a);
  T_CHECK(!diag_has_errors(&d));
  diag_warning(&d, NULL, "W", NULL);
  T_CHECK(!diag_has_errors(&d));
  diag_error(&e, NULL, "E", "n=%d", 3);
  diag_move(&d, &e);
  T_CHECK(diag_has_errors(&d));
  T_EQ_INT(d.errors, 1);
  T_EQ_INT(d.warnings, 1);
  T_CHECK(e.head == NULL && e.errors == 0);
  T_EQ_STR(d.head->summary, "W");
  T_EQ_STR(d.tail->detail, "n=3");
  arena_release(&a);
}

static void test_render_plain(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  SrcFiles fs;
  diag_files_init(&fs, &a);
  SrcFile *f = diag_files_add(&fs, "main.tf", src, sizeof src - 1);
  f->block_context = ctx_fn;
  SrcRange r = foo_range();
  diag_error(&d, &r, "Unsupported argument",
             "An argument named \"foo\" is not expected here.");
  Buf b;
  buf_init(&b, &a);
  DiagStyle st = {false, 0};
  diag_render_all(&b, &d, &fs, st);
  T_EQ_STR(buf_str(&b),
           "\nError: Unsupported argument\n\n"
           "  on main.tf line 2, in resource \"null_resource\" \"a\":\n"
           "   2:   foo = 1\n\n"
           "An argument named \"foo\" is not expected here.\n");
  arena_release(&a);
}

static void test_render_no_source_and_values(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  SrcFiles fs;
  diag_files_init(&fs, &a);
  SrcRange r = foo_range();
  Diag *g = diag_warning(&d, &r, "Something", NULL);
  Buf b;
  buf_init(&b, &a);
  DiagStyle st = {false, 0};
  diag_render(&b, g, &fs, st);
  T_EQ_STR(buf_str(&b), "\nWarning: Something\n\n"
                        "  on main.tf line 2:\n"
                        "  (source code not available)\n\n");
  diag_files_add(&fs, "main.tf", src, sizeof src - 1);
  diag_add_value(&d, g, "var.x is \"a\"");
  buf_clear(&b);
  diag_render(&b, g, &fs, st);
  T_CHECK(strstr(buf_str(&b), "   2:   foo = 1\n    \xe2\x94\x9c") != NULL);
  T_CHECK(strstr(buf_str(&b), "    \xe2\x94\x82 var.x is \"a\"\n") != NULL);
  arena_release(&a);
}

static void test_wrap(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  Diag *g = diag_error(&d, NULL, "S", "aaa bbb ccc ddd");
  Buf b;
  buf_init(&b, &a);
  DiagStyle st = {false, 8};
  diag_render(&b, g, NULL, st);
  T_EQ_STR(buf_str(&b), "\nError: S\n\naaa bbb\nccc ddd\n");
  arena_release(&a);
}

/* Terraform's DiagnosticPlain wraps each detail line with go-wordwrap at
** width - 1 (77 of its default 78 columns off a terminal); Diagnostic
** (colour, framed) at width - 3.  The text is Terraform's init error,
** whose 1.x output breaks exactly here. */
static void test_wrap_terraform(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  Diag *g = diag_error(
      &d, NULL, "Invalid legacy provider address",
      "This configuration or its associated state refers to the unqualified "
      "provider \"null\".\n\nYou must complete the Terraform 0.13 upgrade "
      "process before upgrading to later versions.");
  Buf b;
  buf_init(&b, &a);
  DiagStyle st = {false, 78};
  diag_render(&b, g, NULL, st);
  T_EQ_STR(buf_str(&b),
           "\nError: Invalid legacy provider address\n\n"
           "This configuration or its associated state refers to the "
           "unqualified provider\n\"null\".\n\n"
           "You must complete the Terraform 0.13 upgrade process before "
           "upgrading to\nlater versions.\n");
  /* go-wordwrap details: a word as long as the limit stays on its line
  ** (after a break), preformatted lines (leading space) are kept, runs of
  ** spaces inside a line are kept, spaces at a break dropped, and
  ** characters (not bytes) are counted */
  buf_clear(&b);
  g = diag_error(&d, NULL, "S",
                 "ab cdefghijk l\n  keep   this line as it is\n"
                 "x  y \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 z");
  st.width = 9;   /* limit 8 */
  diag_render(&b, g, NULL, st);
  T_EQ_STR(buf_str(&b), "\nError: S\n\nab\ncdefghijk\nl\n"
                        "  keep   this line as it is\n"
                        "x  y\n\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 z\n");
  /* framed (colour) form: limit width - 3 */
  buf_clear(&b);
  g = diag_error(&d, NULL, "S", "aaa bbb ccc");
  st.color = true;
  st.width = 10;  /* limit 7 */
  diag_render(&b, g, NULL, st);
  T_CHECK(strstr(buf_str(&b), "aaa bbb\n") != NULL);
  T_CHECK(strstr(buf_str(&b), " ccc\n") != NULL);
  T_CHECK(strstr(buf_str(&b), "aaa bbb ccc") == NULL);
  arena_release(&a);
}

static void test_json(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  SrcFiles fs;
  diag_files_init(&fs, &a);
  diag_files_add(&fs, "main.tf", src, sizeof src - 1);
  SrcRange r = foo_range();
  Diag *g = diag_error(&d, &r, "Bad <thing>", "x\ny");
  Buf b;
  buf_init(&b, &a);
  diag_render_json(&b, g, &fs);
  T_EQ_STR(buf_str(&b),
           "{\"severity\":\"error\",\"summary\":\"Bad \\u003cthing\\u003e\","
           "\"detail\":\"x\\ny\",\"range\":{\"filename\":\"main.tf\","
           "\"start\":{\"line\":2,\"column\":3,\"byte\":33},"
           "\"end\":{\"line\":2,\"column\":6,\"byte\":36}},"
           "\"snippet\":{\"context\":null,\"code\":\"  foo = 1\","
           "\"start_line\":2,\"highlight_start_offset\":2,"
           "\"highlight_end_offset\":5,\"values\":[]}}");
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_collect);
  T_RUN(test_render_plain);
  T_RUN(test_render_no_source_and_values);
  T_RUN(test_wrap);
  T_RUN(test_wrap_terraform);
  T_RUN(test_json);
  return t_done("test_diag");
}
