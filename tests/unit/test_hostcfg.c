/*
** test_hostcfg: the host configuration: sections, keys, values, errors
** with file and line, the search order and tokens.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/hostcfg.h"
#include "t.h"

static Arena arena;
static char dir[] = "/tmp/cairn-hcfg-XXXXXX";

static bool parse(const char *text, HostCfg *c, Diags *d)
{
  diag_init(d, &arena);
  return hcfg_parse(&arena, "host.ini", text, strlen(text), c, d);
}

static const char *diags_text(const Diags *d)
{
  Buf b;
  buf_init(&b, &arena);
  for (const Diag *g = d->head; g; g = g->next)
    buf_printf(&b, "[%s] %s\n", g->summary, g->detail ? g->detail : "");
  return buf_str(&b);
}

static bool has(const char *s, const char *w)
{
  if (!strstr(s, w)) {
    fprintf(stderr, "  (\"%s\" not in \"%s\")\n", w, s);
    return false;
  }
  return true;
}

static void test_full(void)
{
  HostCfg c;
  Diags d;
  bool ok = parse("; comment\n"
                  "[defaults]\n"
                  "parallelism = 12\n"
                  "lock_timeout: 1m\n"
                  "\n"
                  "[provider \"Acme.Example/Fleet/Edge\"]\n"
                  "endpoint = https://edge.lan:8443/cairn/v1/\n"
                  "ca_file = /etc/ca.pem\n"
                  "ca_dir = /etc/cas\n"
                  "client_cert = c.pem\n"
                  "client_key = k.pem\n"
                  "pin_sha256 = RB/RHr7hA4fPA8t5zreDO29GwGLN9I5BT3CZJIQexE0=\n"
                  "  sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
                  "token_env = EDGE_TOKEN\n"
                  "connect_timeout = 500ms\n"
                  "timeout = 2.5\n"
                  "retries = 0\n"
                  "rate_limit = 20\n"
                  "max_response_bytes = 1M\n"
                  "insecure_http = false # not a comment in inih\n",
                  &c, &d);
  /* inih keeps '#' after a value: insecure_http is then malformed. */
  T_CHECK(!ok);
  T_CHECK(has(diags_text(&d), "host.ini:20"));
  ok = parse("[defaults]\n"
             "parallelism = 12\n"
             "lock_timeout: 1m\n"
             "[provider \"Acme.Example/Fleet/Edge\"]\n"
             "endpoint = https://edge.lan:8443/cairn/v1/\n"
             "pin_sha256 = RB/RHr7hA4fPA8t5zreDO29GwGLN9I5BT3CZJIQexE0=\n"
             "  sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
             "token_env = EDGE_TOKEN\n"
             "connect_timeout = 500ms\n"
             "timeout = 2.5\n"
             "retries = 0\n"
             "rate_limit = 20\n"
             "max_response_bytes = 1M\n"
             "insecure_http = yes ; inline comment\n"
             "[provider \"null2\"]\n"
             "endpoint = http://127.0.0.1:1/x\n",
             &c, &d);
  T_CHECK(ok);
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(c.parallelism, 12);
  T_EQ_INT(c.lock_timeout_ms, 60000);
  T_EQ_INT(c.nproviders, 2);
  const HcfgProvider *p = hcfg_provider(&c, &arena, "acme.example/fleet/edge");
  T_CHECK(p != NULL);
  if (!p)
    return;
  T_EQ_STR(p->source, "acme.example/fleet/edge");
  T_EQ_STR(p->endpoint, "https://edge.lan:8443/cairn/v1");
  T_EQ_STR(p->pin_sha256,
           "sha256//RB/RHr7hA4fPA8t5zreDO29GwGLN9I5BT3CZJIQexE0=;"
           "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
  T_EQ_STR(p->token_env, "EDGE_TOKEN");
  T_EQ_INT(p->connect_timeout_ms, 500);
  T_EQ_INT(p->timeout_ms, 2500);
  T_EQ_INT(p->retries, 0);
  T_CHECK(p->rate_limit > 19.9 && p->rate_limit < 20.1);
  T_EQ_INT(p->max_response_bytes, 1 << 20);
  T_CHECK(p->insecure_http);
  T_EQ_INT(p->line, 4);
  /* Unset values keep the "use the default" markers. */
  const HcfgProvider *q = hcfg_provider(&c, &arena, "null2");
  T_CHECK(q && q->retries == -1 && q->timeout_ms == -1 && !q->ca_file);
  T_CHECK(hcfg_provider(&c, &arena, "acme.example/fleet/other") == NULL);
}

static void test_errors(void)
{
  HostCfg c;
  Diags d;
  T_CHECK(!parse("[server]\nx = 1\n", &c, &d));
  T_CHECK(has(diags_text(&d), "host.ini:1: unknown section [server]"));
  T_CHECK(!parse("[provider \"a/b\"]\nendpoint = https://x\nendpont = 1\n",
                 &c, &d));
  T_CHECK(has(diags_text(&d), "host.ini:3: a provider section has no key "
                              "\"endpont\""));
  T_CHECK(!parse("[defaults]\nparallelism = many\nlock_timeout = 5 s\n", &c,
                 &d));
  T_EQ_INT(d.errors, 2);
  T_CHECK(has(diags_text(&d), "host.ini:2"));
  T_CHECK(has(diags_text(&d), "host.ini:3"));
  T_CHECK(!parse("[provider \"a/b\"]\nca_file = x\n", &c, &d));
  T_CHECK(has(diags_text(&d), "needs an endpoint"));
  T_CHECK(!parse("[provider \"a/b\"]\nendpoint = ftp://x\n", &c, &d));
  T_CHECK(has(diags_text(&d), "https:// URL"));
  T_CHECK(!parse("[provider \"a/b\"]\nendpoint = https://x\nretries = 99\n"
                 "rate_limit = -1\nmax_response_bytes = 0\n"
                 "pin_sha256 = abc\ntoken_env = A-B\n",
                 &c, &d));
  T_EQ_INT(d.errors, 5);
  T_CHECK(!parse("[provider \"a/b\"]\nendpoint = https://x\n"
                 "endpoint = https://y\n[provider \"A/B\"]\n",
                 &c, &d));
  T_CHECK(has(diags_text(&d), "already set on line 2"));
  T_CHECK(has(diags_text(&d), "already configured"));
  T_CHECK(!parse("[provider \"a/b\"]\nendpoint = https://x\n"
                 "client_cert = c\ntoken_env = X\ntoken_file = f\n",
                 &c, &d));
  T_CHECK(has(diags_text(&d), "client_cert and client_key go together"));
  T_CHECK(has(diags_text(&d), "not both"));
  T_CHECK(!parse("x = 1\n", &c, &d));
  T_CHECK(has(diags_text(&d), "outside any section"));
  T_CHECK(!parse("[provider a/b]\n", &c, &d));
  T_CHECK(!parse("[provider \"a/b/c/d\"]\n", &c, &d));
  T_CHECK(has(diags_text(&d), "not a valid provider source"));
  T_CHECK(!parse("garbage line\n", &c, &d));
  T_CHECK(d.head && d.head->subject.start.line == 1);
}

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void test_locate(void)
{
  bool missing;
  const char *flag = arena_printf(&arena, "%s/flag.ini", dir);
  const char *env = arena_printf(&arena, "%s/env.ini", dir);
  write_file(flag, "");
  write_file(env, "");
  T_EQ_STR(hcfg_locate(&arena, flag, env, dir, &missing), flag);
  T_CHECK(!missing);
  T_EQ_STR(hcfg_locate(&arena, NULL, env, dir, &missing), env);
  T_EQ_STR(hcfg_locate(&arena, "", env, dir, &missing), env);
  const char *gone = arena_printf(&arena, "%s/gone.ini", dir);
  hcfg_locate(&arena, gone, env, dir, &missing);
  T_CHECK(missing);
  hcfg_locate(&arena, NULL, gone, dir, &missing);
  T_CHECK(missing);
  /* $HOME/.config/cairn/cairn.ini */
  const char *home = arena_printf(&arena, "%s/home", dir);
  mkdir(home, 0700);
  mkdir(arena_printf(&arena, "%s/.config", home), 0700);
  mkdir(arena_printf(&arena, "%s/.config/cairn", home), 0700);
  const char *hf = arena_printf(&arena, "%s/.config/cairn/cairn.ini", home);
  write_file(hf, "");
  T_EQ_STR(hcfg_locate(&arena, NULL, NULL, home, &missing), hf);
  T_CHECK(!missing);
  /* hcfg_load with an explicit missing file is an error. */
  HostCfg c;
  Diags d;
  diag_init(&d, &arena);
  T_CHECK(!hcfg_load(&arena, gone, &c, &d));
  T_CHECK(has(diags_text(&d), "does not exist"));
  diag_init(&d, &arena);
  T_CHECK(hcfg_load(&arena, flag, &c, &d));
  T_EQ_STR(c.path, flag);
}

static void test_tokens(void)
{
  HcfgProvider p;
  memset(&p, 0, sizeof p);
  p.source = "a/b";
  p.file = "host.ini";
  p.line = 3;
  const char *tok;
  Diags d;
  diag_init(&d, &arena);
  T_CHECK(hcfg_token(&arena, &p, &tok, &d) && tok == NULL);
  p.token_env = "CAIRN_TEST_TOKEN_X";
  setenv("CAIRN_TEST_TOKEN_X", "  abc  ", 1);
  T_CHECK(hcfg_token(&arena, &p, &tok, &d));
  T_EQ_STR(tok, "abc");
  unsetenv("CAIRN_TEST_TOKEN_X");
  T_CHECK(!hcfg_token(&arena, &p, &tok, &d));
  T_CHECK(has(diags_text(&d), "CAIRN_TEST_TOKEN_X, which is not set"));
  p.token_env = NULL;
  const char *tf = arena_printf(&arena, "%s/token", dir);
  write_file(tf, "s3cret\n");
  p.token_file = tf;
  T_CHECK(hcfg_token(&arena, &p, &tok, &d));
  T_EQ_STR(tok, "s3cret");
  write_file(tf, "a\nb\n");
  diag_init(&d, &arena);
  T_CHECK(!hcfg_token(&arena, &p, &tok, &d));
  T_CHECK(!strstr(diags_text(&d), "a\nb"));
  p.token_file = arena_printf(&arena, "%s/none", dir);
  T_CHECK(!hcfg_token(&arena, &p, &tok, &d));
}

/* Many sections and keys (found by fuzzing: the duplicate checks were
** quadratic): every provider is found, and duplicates are still caught
** among thousands, in the section and line where they are. */
static void test_many_sections(void)
{
  Buf b;
  buf_init(&b, &arena);
  enum { N = 20000 };
  for (int i = 0; i < N; i++)
    buf_printf(&b, "[provider \"h%d.example/a/b\"]\nendpoint = https://h%d/\n"
                   "retries = %d\n", i, i, i % 7);
  buf_printf(&b, "[provider \"h7.example/a/b\"]\n");   /* line 3N+1 */
  buf_printf(&b, "[provider \"h9.example/a/b\"]\nretries = 1\n");
  HostCfg c;
  Diags d;
  T_CHECK(!parse(buf_str(&b), &c, &d));
  T_EQ_INT(c.nproviders, N);
  T_EQ_INT(d.errors, 3);
  const char *t = diags_text(&d);
  T_CHECK(has(t, "host.ini:60001: provider \"h7.example/a/b\" is already "
                 "configured above."));
  T_CHECK(has(t, "host.ini:60002: provider \"h9.example/a/b\" is already"));
  T_CHECK(has(t, "host.ini:60003: \"retries\" is already set on line 30."));
  const HcfgProvider *p = hcfg_provider(&c, &arena, "h19999.example/a/b");
  T_CHECK(p && p->retries == 19999 % 7 && p->line == 59998);
}

/* plugin = PATH instead of endpoint (net/prov_plugin.h). */
static void test_plugin_key(void)
{
  HostCfg c;
  Diags d;
  T_CHECK(parse("[provider \"hashicorp/null\"]\n"
                "plugin = /opt/p/terraform-provider-null\ntimeout = 5m\n",
                &c, &d));
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(c.nproviders, 1);
  if (c.nproviders == 1) {
    T_EQ_STR(c.providers[0].plugin, "/opt/p/terraform-provider-null");
    T_CHECK(c.providers[0].endpoint == NULL);
    T_EQ_INT(c.providers[0].timeout_ms, 300000);
  }
  T_CHECK(!parse("[provider \"a/b\"]\nplugin = terraform-provider-b\n", &c,
                 &d));
  T_CHECK(has(diags_text(&d), "host.ini:2: the value of \"plugin\" must be "
                              "an absolute path"));
  T_CHECK(!parse("[provider \"a/b\"]\nplugin = /x\nendpoint = https://x\n",
                 &c, &d));
  T_CHECK(has(diags_text(&d),
              "names more than one of endpoint, plugin and plugin_dir"));
}

static void test_plugin_dir_key(void)
{
  HostCfg c;
  Diags d;
  T_CHECK(parse("[defaults]\nplugin_dir = /srv/mirror\n"
                "[provider \"hashicorp/null\"]\nplugin_dir = /srv/other\n",
                &c, &d));
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(c.plugin_dir, "/srv/mirror");
  T_EQ_INT(c.nproviders, 1);
  if (c.nproviders == 1) {
    T_EQ_STR(c.providers[0].plugin_dir, "/srv/other");
    T_CHECK(c.providers[0].plugin == NULL);
  }
  T_CHECK(!parse("[defaults]\nplugin_dir = mirror\n", &c, &d));
  T_CHECK(has(diags_text(&d), "host.ini:2: the value of \"plugin_dir\" "
                              "must be an absolute path"));
  T_CHECK(!parse("[provider \"a/b\"]\nplugin_dir = x\n", &c, &d));
  T_CHECK(has(diags_text(&d), "must be an absolute path to a provider "
                              "mirror directory"));
  T_CHECK(!parse("[provider \"a/b\"]\nplugin_dir = /m\nplugin = /p\n", &c,
                 &d));
  T_CHECK(has(diags_text(&d),
              "names more than one of endpoint, plugin and plugin_dir"));
}

int main(void)
{
  arena_init(&arena, 0);
  if (!mkdtemp(dir))
    return 1;
  T_RUN(test_full);
  T_RUN(test_errors);
  T_RUN(test_plugin_key);
  T_RUN(test_plugin_dir_key);
  T_RUN(test_locate);
  T_RUN(test_tokens);
  T_RUN(test_many_sections);
  system(arena_printf(&arena, "rm -rf %s", dir));
  arena_release(&arena);
  return t_done("test_hostcfg");
}
