/*
** test_plugin: net/plugin.h against the real test peers (HashiCorp's
** terraform-provider-null, tfplugin5 and tfplugin6 builds, from
** scripts/testpeers; run-tests passes their directory in
** CAIRN_TESTPEER_NULL) and small shell scripts standing in for broken
** plugins: the handshake and version choice, a wrong magic cookie, a
** missing or non-executable binary, a garbage line, a handshake timeout.
*/
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/diag.h"
#include "net/plugin.h"
#include "t.h"

static Arena A;
static const char *peers;
static char tmpdir[] = "/tmp/cairn-test-plugin-XXXXXX";

static const char *peer(const char *name)
{
  return arena_printf(&A, "%s/%s", peers, name);
}

static const char *script(const char *name, const char *body, int mode)
{
  const char *path = arena_printf(&A, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "w");
  T_CHECK(f != NULL);
  if (f) {
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
  }
  chmod(path, (mode_t)mode);
  return path;
}

static PluginProc *start(const char *path, const int *vs, int nvs,
                         const char *cookie, int timeout_ms, Diags *d)
{
  PluginLaunch l = {0};
  l.path = path;
  l.name = "test";
  l.versions = vs;
  l.nversions = nvs;
  l.magic_cookie = cookie;
  l.timeout_ms = timeout_ms;
  diag_init(d, &A);
  return plugin_start(&A, &l, d);
}

static const char *fails(const char *path, const int *vs, int nvs,
                         const char *cookie, int timeout_ms)
{
  Diags d;
  PluginProc *p = start(path, vs, nvs, cookie, timeout_ms, &d);
  T_CHECK(p == NULL);
  T_EQ_INT(d.errors, 1);
  if (p)
    plugin_stop(p, 0);
  if (!d.head)
    return "";
  T_EQ_STR(d.head->summary, "Failed to start provider plugin");
  return d.head->detail;
}

static void test_handshake_v5(void)
{
  static const int vs[] = {5, 6};
  Diags d;
  PluginProc *p = start(peer("terraform-provider-null"), vs, 2, NULL, 0, &d);
  T_CHECK(p != NULL);
  if (!p)
    return;
  T_EQ_INT(p->version, 5);
  T_CHECK(p->unix_socket);
  struct stat st;
  T_CHECK(stat(p->address, &st) == 0 && S_ISSOCK(st.st_mode));
  T_CHECK(p->server_cert == NULL);
  T_CHECK(!plugin_exited(p, NULL));
  int status = plugin_stop(p, 0);
  T_CHECK(WIFSIGNALED(status));
  /* The plugin's own log line went to stderr and into the tail. */
  Buf t;
  buf_init(&t, &A);
  plugin_tail(p, &t);
  T_CHECK(strstr(buf_str(&t), "plugin address") != NULL);
}

/* Sensitive values never reach the log or the kept stderr tail.  Runs
** last: what it registers stays registered for the process. */
static void test_redact(void)
{
  char out[64];
  plugin_redact_add("hunter2", 7);
  plugin_redact_add("hunter2x", 8);   /* the longer match wins */
  plugin_redact_add("hunter2", 7);    /* once is enough */
  plugin_redact_add("", 0);           /* ignored */
  const char *in = "pw=hunter2x; again hunter2.";
  size_t n = plugin_redact(in, strlen(in), out, sizeof out);
  T_EQ_STR(out, "pw=(sensitive value); again (sensitive value).");
  T_EQ_INT(n, strlen(out));
  T_EQ_INT(plugin_redact("hunter2", 7, out, 10), 9);
  T_EQ_STR(out, "(sensitiv");
  T_EQ_INT(plugin_redact("plain", 5, out, sizeof out), 5);
  T_EQ_STR(out, "plain");
  /* Through a real plugin: its "plugin address" log line. */
  plugin_redact_add("plugin address", 14);
  static const int vs[] = {5, 6};
  Diags d;
  PluginProc *p = start(peer("terraform-provider-null"), vs, 2, NULL, 0, &d);
  T_CHECK(p != NULL);
  if (!p)
    return;
  plugin_stop(p, 0);
  Buf t;
  buf_init(&t, &A);
  plugin_tail(p, &t);
  T_CHECK(strstr(buf_str(&t), "plugin address") == NULL);
  T_CHECK(strstr(buf_str(&t), "(sensitive value)") != NULL);
}

static void test_handshake_v6(void)
{
  static const int vs[] = {5, 6};
  Diags d;
  PluginProc *p = start(peer("terraform-provider-null-v6"), vs, 2, NULL, 0,
                        &d);
  T_CHECK(p != NULL);
  if (!p)
    return;
  T_EQ_INT(p->version, 6);
  plugin_stop(p, 0);
  /* A v5-only plugin asked for 6 alone answers 5: not what was offered. */
  static const int only6[] = {6};
  const char *det = fails(peer("terraform-provider-null"), only6, 1, NULL, 0);
  T_CHECK(strstr(det, "protocol version \"5\", which is not one of those "
                      "offered (6)") != NULL);
}

static void test_wrong_cookie(void)
{
  static const int vs[] = {5, 6};
  const char *det = fails(peer("terraform-provider-null"), vs, 2, "wrong", 0);
  T_CHECK(strstr(det, "exited before completing the handshake (exit "
                      "status 1)") != NULL);
  T_CHECK(strstr(det, "This binary is a plugin.") != NULL);
}

static void test_missing_and_not_executable(void)
{
  static const int vs[] = {5};
  const char *det = fails(arena_printf(&A, "%s/nope", tmpdir), vs, 1, NULL,
                          0);
  T_CHECK(strstr(det, "cannot be run: No such file or directory") != NULL);
  det = fails(script("noexec", "echo hi", 0644), vs, 1, NULL, 0);
  T_CHECK(strstr(det, "not an executable file") != NULL);
  det = fails(tmpdir, vs, 1, NULL, 0);
  T_CHECK(strstr(det, "not an executable file") != NULL);
}

static void test_bad_handshakes(void)
{
  static const int vs[] = {5, 6};
  const char *det = fails(script("garbage", "echo garbage; exec sleep 30",
                                 0755), vs, 2, NULL, 0);
  T_CHECK(strstr(det, "not a go-plugin handshake") != NULL);
  T_CHECK(strstr(det, "\"garbage\"") != NULL);
  det = fails(script("core2", "echo '2|5|unix|/x|grpc|'; exec sleep 30", 0755),
              vs, 2, NULL, 0);
  T_CHECK(strstr(det, "incompatible core API version") != NULL);
  det = fails(script("netrpc", "echo '1|5|unix|/x|netrpc|'; exec sleep 30",
                     0755), vs, 2, NULL, 0);
  T_CHECK(strstr(det, "unsupported plugin protocol \"netrpc\"") != NULL);
  det = fails(script("udp", "echo '1|5|udp|/x|grpc|'; exec sleep 30", 0755), vs,
              2, NULL, 0);
  T_CHECK(strstr(det, "unsupported network \"udp\"") != NULL);
  det = fails(script("exit3", "echo oops >&2; exit 3", 0755), vs, 2, NULL,
              0);
  T_CHECK(strstr(det, "(exit status 3). Its last output:\noops") != NULL);
  /* A plugin that never answers: the timeout, then it is killed. */
  det = fails(script("hang", "exec sleep 30", 0755), vs, 2, NULL, 300);
  T_CHECK(strstr(det, "did not complete the handshake in time") != NULL);
  /* TCP handshakes and a sixth field are accepted. */
  Diags d;
  PluginProc *p = start(script("tcp", "echo '1|6|tcp|127.0.0.1:1234|grpc|"
                               "QUJD'; exec sleep 30", 0755), vs, 2, NULL, 0,
                        &d);
  T_CHECK(p != NULL);
  if (p) {
    T_CHECK(!p->unix_socket);
    T_EQ_STR(p->address, "127.0.0.1:1234");
    T_EQ_STR(p->server_cert, "QUJD");
    plugin_stop(p, 0);
  }
}

int main(void)
{
  arena_init(&A, 0);
  peers = getenv("CAIRN_TESTPEER_NULL");
  if (!peers || !*peers) {
    fprintf(stderr, "test_plugin: CAIRN_TESTPEER_NULL is not set (run "
                    "scripts/run-tests, or set it to the directory "
                    "scripts/testpeers prints)\n");
    return 1;
  }
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  T_RUN(test_handshake_v5);
  T_RUN(test_handshake_v6);
  T_RUN(test_wrong_cookie);
  T_RUN(test_missing_and_not_executable);
  T_RUN(test_bad_handshakes);
  T_RUN(test_redact);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  T_CHECK(system(cmd) == 0);
  return t_done("test_plugin");
}
