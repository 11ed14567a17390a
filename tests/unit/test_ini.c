/* Unit tests for core/config/ini: the inih dialect. */
#include "base/arena.h"
#include "base/diag.h"
#include "config/ini.h"
#include "t.h"

static IniFile parse(Arena *a, const char *text, Diags *d, bool *ok)
{
  IniFile f;
  diag_init(d, a);
  *ok = ini_parse(a, "cairn.ini", text, strlen(text), &f, d);
  return f;
}

static void test_sections_and_pairs(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  bool ok;
  IniFile f = parse(&a,
                    "\xef\xbb\xbf; leading comment\n"
                    "parallelism = 4\n"
                    "# another\n"
                    "[provider \"acme.example/fleet/edge\"]\n"
                    "endpoint = https://10.0.0.5:8443/cairn/v1\n"
                    "token_env:  EDGE_TOKEN   ; inline comment\n"
                    "  mtls = yes\n"
                    "ca_file=/etc/ssl/edge.pem;not a comment\n"
                    "empty =\n",
                    &d, &ok);
  T_CHECK(ok);
  T_EQ_INT(f.nentries, 5);
  T_EQ_INT(f.nsections, 1);
  T_EQ_STR(f.sections[0].name, "provider \"acme.example/fleet/edge\"");
  T_EQ_STR(ini_get(&f, "", "parallelism"), "4");
  T_EQ_STR(ini_get(&f, "provider \"acme.example/fleet/edge\"", "endpoint"),
           "https://10.0.0.5:8443/cairn/v1");
  /* An indented line after a value continues it, even when it looks
  ** like a setting (inih's multiline rule). */
  T_EQ_STR(ini_get(&f, "provider \"acme.example/fleet/edge\"", "token_env"),
           "EDGE_TOKEN\nmtls = yes");
  T_EQ_STR(ini_get(&f, "provider \"acme.example/fleet/edge\"", "ca_file"),
           "/etc/ssl/edge.pem;not a comment");
  T_EQ_STR(ini_get(&f, "provider \"acme.example/fleet/edge\"", "empty"), "");
  T_EQ_INT(f.entries[0].line, 2);
  T_CHECK(ini_get(&f, "", "missing") == NULL);
  arena_release(&a);
}

static void test_continuation(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  bool ok;
  IniFile f = parse(&a,
                    "[s]\n"
                    "list = a\n"
                    "  b\n"
                    "\n"
                    "; comment\n"
                    "\tc ; trailing\n"
                    "next: x\n",
                    &d, &ok);
  T_CHECK(ok);
  T_EQ_STR(ini_get(&f, "s", "list"), "a\nb\nc");
  T_EQ_STR(ini_get(&f, "s", "next"), "x");
  arena_release(&a);
}

static void test_name_colon_value(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  bool ok;
  /* The first separator wins: the URL keeps its colon. */
  IniFile f = parse(&a, "url: https://h:1/x\nk = a:b\n", &d, &ok);
  T_CHECK(ok);
  T_EQ_STR(ini_get(&f, "", "url"), "https://h:1/x");
  T_EQ_STR(ini_get(&f, "", "k"), "a:b");
  arena_release(&a);
}

static void test_errors_have_lines(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  bool ok;
  IniFile f = parse(&a,
                    "good = 1\n"
                    "just words\n"
                    "[unclosed\n"
                    "= novalue\n"
                    "[ok] trailing\n"
                    "after = 2\n",
                    &d, &ok);
  T_CHECK(!ok);
  T_EQ_INT(d.errors, 4);
  T_EQ_INT(d.head->subject.start.line, 2);
  T_CHECK(strstr(d.head->detail, "cairn.ini line 2") != NULL);
  T_EQ_INT(d.head->next->subject.start.line, 3);
  T_EQ_STR(d.head->next->summary, "Invalid host configuration section");
  /* entries around the errors are still returned */
  T_EQ_STR(ini_get(&f, "", "good"), "1");
  T_EQ_STR(ini_get(&f, "ok", "after"), "2");
  arena_release(&a);
}

static void test_crlf_and_no_final_newline(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  bool ok;
  IniFile f = parse(&a, "[a]\r\nx = 1\r\ny = 2", &d, &ok);
  T_CHECK(ok);
  T_EQ_STR(ini_get(&f, "a", "x"), "1");
  T_EQ_STR(ini_get(&f, "a", "y"), "2");
  T_EQ_INT(f.entries[1].value_range.start.col, 5);
  arena_release(&a);
}

/* inih's limits do not show: a line longer than its 200-byte default and
** than the recipe's INI_MAX_LINE, and a section name longer than its
** 50-byte buffer. */
static void test_long_lines(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  bool ok;
  size_t n = 100000;
  char *val = arena_alloc_raw(&a, 1, 1, n + 1);
  for (size_t i = 0; i < n; i++)
    val[i] = (char)('a' + i % 26);
  val[n] = 0;
  const char *sec = "provider \"registry.example.com/some-namespace/a-long-"
                    "provider-name\"";
  const char *text = arena_printf(&a, "[%s]\nk = %s\n  more\nnext = 1\n",
                                  sec, val);
  IniFile f = parse(&a, text, &d, &ok);
  T_CHECK(ok);
  T_EQ_INT(f.nentries, 2);
  T_EQ_STR(f.sections[0].name, sec);
  const char *k = ini_get(&f, sec, "k");
  T_CHECK(k != NULL && strlen(k) == n + 5);
  T_CHECK(k != NULL && strcmp(k + n, "\nmore") == 0);
  T_EQ_INT(f.entries[0].value_range.end.line, 3);
  T_EQ_STR(ini_get(&f, sec, "next"), "1");
  arena_release(&a);
}

/* A continuation line that looks like a pair stays a continuation, and a
** pair after a comment or blank line still continues nothing new. */
static void test_continuation_vs_pair(void)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  bool ok;
  IniFile f = parse(&a, "x = 1\n  x = 2 ; c\n[s]\n  y = 3\n", &d, &ok);
  T_CHECK(ok);
  T_EQ_STR(ini_get(&f, "", "x"), "1\nx = 2");
  /* after a section header an indented line is a new pair */
  T_EQ_STR(ini_get(&f, "s", "y"), "3");
  T_EQ_INT(f.entries[1].name_range.start.col, 3);
  arena_release(&a);
}

static void test_durations(void)
{
  long ms;
  T_CHECK(ini_duration("10s", &ms) && ms == 10000);
  T_CHECK(ini_duration("250ms", &ms) && ms == 250);
  T_CHECK(ini_duration("2m", &ms) && ms == 120000);
  T_CHECK(ini_duration("1h", &ms) && ms == 3600000);
  T_CHECK(ini_duration("0", &ms) && ms == 0);
  T_CHECK(ini_duration("1.5", &ms) && ms == 1500);
  T_CHECK(!ini_duration("", &ms));
  T_CHECK(!ini_duration("-1s", &ms));
  T_CHECK(!ini_duration("1e3", &ms));
  T_CHECK(!ini_duration("0x10", &ms));
  T_CHECK(!ini_duration("5 s", &ms));
  T_CHECK(!ini_duration("5d", &ms));
}

static void test_values(void)
{
  long n = 7;
  T_CHECK(ini_int("42", 0, 100, &n) && n == 42);
  T_CHECK(ini_int("-3", -5, 5, &n) && n == -3);
  T_CHECK(!ini_int("101", 0, 100, &n));
  T_CHECK(!ini_int("+4", 0, 100, &n));
  T_CHECK(!ini_int(" 4", 0, 100, &n));
  T_CHECK(!ini_int("4x", 0, 100, &n));
  T_CHECK(!ini_int("", 0, 100, &n));
  T_CHECK(!ini_int("99999999999999999999", 0, 100, &n));
  T_EQ_INT(n, -3);
  bool b = false;
  T_CHECK(ini_bool("yes", &b) && b);
  T_CHECK(ini_bool("off", &b) && !b);
  T_CHECK(ini_bool("1", &b) && b);
  T_CHECK(ini_bool("false", &b) && !b);
  T_CHECK(!ini_bool("TRUE", &b));
  T_CHECK(!ini_bool("", &b));
  static const char *const keys[] = {"a", "bc"};
  T_CHECK(ini_key_known("bc", keys, 2));
  T_CHECK(!ini_key_known("b", keys, 2));
}

static void test_section_names(void)
{
  Arena a;
  arena_init(&a, 0);
  T_EQ_STR(ini_section_name(&a, "provider \"acme/x\"", "provider"),
           "acme/x");
  T_EQ_STR(ini_section_name(&a, "client\t  \"ci\"", "client"), "ci");
  T_CHECK(!ini_section_name(&a, "provider\"acme/x\"", "provider"));
  T_CHECK(!ini_section_name(&a, "provider acme/x", "provider"));
  T_CHECK(!ini_section_name(&a, "provider \"a b\"", "provider"));
  T_CHECK(!ini_section_name(&a, "provider \"\"", "provider"));
  T_CHECK(!ini_section_name(&a, "client \"ci\"", "provider"));
  arena_release(&a);
}

static void test_bad_value(void)
{
  Arena a;
  Diags d;
  arena_init(&a, 0);
  diag_init(&d, &a);
  IniEntry e = {.name = "retries", .value = "x", .line = 7};
  e.value_range.file = "cairn.ini";
  ini_bad_value(&d, &e, "Invalid host configuration value",
                "a whole number");
  T_EQ_INT(d.errors, 1);
  T_EQ_STR(d.head->summary, "Invalid host configuration value");
  T_EQ_STR(d.head->detail,
           "cairn.ini:7: the value of \"retries\" must be a whole number.");
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_sections_and_pairs);
  T_RUN(test_continuation);
  T_RUN(test_name_colon_value);
  T_RUN(test_errors_have_lines);
  T_RUN(test_crlf_and_no_final_newline);
  T_RUN(test_long_lines);
  T_RUN(test_continuation_vs_pair);
  T_RUN(test_durations);
  T_RUN(test_values);
  T_RUN(test_section_names);
  T_RUN(test_bad_value);
  return t_done("test_ini");
}
