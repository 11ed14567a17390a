/*
** test_http: the HTTPS client against tests/http/server.py over loopback,
** with certificates made by openssl at test time in a temporary directory.
*/
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <unistd.h>

#include "net/http.h"
#include "t.h"

static char dir[] = "/tmp/cairn-http-XXXXXX";
static Arena arena;

typedef struct Server {
  pid_t pid;
  int port;
} Server;

/* srv_good offers TLS 1.2 and 1.3 (so 1.3 is used), srv_tls12 at most 1.2,
** srv_old at most 1.1. */
static Server srv_good, srv_exp, srv_other, srv_mtls, srv_plain, srv_old,
    srv_tls12;

static long slept_ms;
static int sleeps;
static void fake_sleep(void *ctx, long ms)
{
  (void)ctx;
  slept_ms += ms;
  sleeps++;
}

/* The rate limit's clock: only fake sleeps pass time. */
static double fake_clock(void *ctx)
{
  (void)ctx;
  return (double)slept_ms / 1000.0;
}

static char *path_in(const char *name)
{
  return arena_printf(&arena, "%s/%s", dir, name);
}

static int sh(const char *cmd)
{
  char *full = arena_printf(&arena, "cd %s && (%s) >/dev/null 2>&1", dir,
                            cmd);
  return system(full);
}

#define EC "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"

/* CA1 signs server (localhost), expired (localhost), other (other.example)
** and client; CA2 is a stranger's CA. */
static int make_certs(void)
{
  int rc = 0;
  rc |= sh("openssl req -x509 " EC " -keyout ca.key -out ca.crt -subj /CN=ca1"
           " -days 2");
  rc |= sh("openssl req -x509 " EC " -keyout ca2.key -out ca2.crt "
           "-subj /CN=ca2 -days 2");
  rc |= sh("printf 'subjectAltName=DNS:localhost\\n' > san_local && "
           "printf 'subjectAltName=DNS:other.example\\n' > san_other");
  const char *names[] = {"server", "expired", "other", "client"};
  const char *days[] = {"2", "-1", "2", "2"};
  const char *ext[] = {"san_local", "san_local", "san_other", "san_local"};
  for (int i = 0; i < 4; i++) {
    rc |= sh(arena_printf(&arena,
        "openssl req -new " EC " -keyout %s.key -out %s.csr -subj /CN=%s && "
        "openssl x509 -req -in %s.csr -CA ca.crt -CAkey ca.key "
        "-CAcreateserial -days %s -extfile %s -out %s.crt",
        names[i], names[i], names[i], names[i], days[i], ext[i], names[i]));
  }
  return rc;
}

static Server start_server(const char *extra)
{
  Server s = {-1, 0};
  int fd[2];
  if (pipe(fd) != 0)
    return s;
  char *cmd = arena_printf(&arena,
                           "exec python3 tests/http/server.py --port 0 %s",
                           extra);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  char line[32];
  size_t n = 0;
  while (n + 1 < sizeof line) {
    ssize_t r = read(fd[0], line + n, 1);
    if (r <= 0 || line[n] == '\n')
      break;
    n++;
  }
  line[n] = 0;
  close(fd[0]);
  s.pid = pid;
  s.port = (int)strtol(line, NULL, 10);
  return s;
}

static void stop_server(Server *s)
{
  if (s->pid > 0) {
    kill(s->pid, SIGTERM);
    waitpid(s->pid, NULL, 0);
  }
  s->pid = -1;
}

/* An endpoint for https://localhost:PORT resolved to 127.0.0.1. */
static HttpEndpoint endpoint(const Server *s, const char *scheme)
{
  HttpEndpoint e;
  http_endpoint_init(&e, &arena);
  e.url = arena_printf(&arena, "%s://localhost:%d/base", scheme, s->port);
  e.resolve = arena_printf(&arena, "localhost:%d:127.0.0.1", s->port);
  e.ca_file = path_in("ca.crt");
  e.connect_timeout_ms = 5000;
  e.timeout_ms = 10000;
  e.backoff_base_ms = 5;
  return e;
}

static HttpClient *client(void)
{
  Diags d;
  diag_init(&d, &arena);
  HttpClient *c = http_client_new(&arena, &d);
  http_client_set_sleep(c, fake_sleep, NULL);
  http_client_set_clock(c, fake_clock, NULL);
  return c;
}

/* POSTs and returns the first diagnostic's detail ("" when none). */
static const char *post(const HttpEndpoint *e, const char *path,
                        unsigned flags, HttpResponse *r, bool *ok)
{
  HttpClient *c = client();
  Diags d;
  diag_init(&d, &arena);
  const char *body = "{\"x\":1}";
  *ok = http_post_json(c, e, path, body, strlen(body), flags, r, &arena, &d);
  http_client_close(c);
  return d.head ? d.head->detail : "";
}

static bool has(const char *s, const char *w)
{
  if (!strstr(s, w)) {
    fprintf(stderr, "  (\"%s\" not in \"%s\")\n", w, s);
    return false;
  }
  return true;
}

/* ---- tests ---- */

static void test_echo(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/echo", 0, &r, &ok);
  T_CHECK(ok);
  T_EQ_STR(msg, "");
  T_EQ_INT(r.status, 200);
  T_EQ_STR(r.body, "{\"x\":1}");
  T_EQ_INT(r.len, 7);
  T_EQ_INT(r.attempts, 1);
  T_EQ_INT(r.retry_after_s, -1);
  http_endpoint_destroy(&e);
}

static void test_keepalive(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  HttpClient *c = client();
  Diags d;
  diag_init(&d, &arena);
  int good = 0;
  for (int i = 0; i < 10; i++) {
    HttpResponse r;
    char body[32];
    snprintf(body, sizeof body, "[%d]", i);
    if (http_post_json(c, &e, "/echo", body, strlen(body), 0, &r, &arena,
                       &d) && r.status == 200 && strcmp(r.body, body) == 0)
      good++;
  }
  http_client_close(c);
  long req = 0, conn = 0;
  http_endpoint_stats(&e, &req, &conn);
  T_EQ_INT(good, 10);
  T_EQ_INT(req, 10);
  T_EQ_INT(conn, 1);
  http_endpoint_destroy(&e);
}

static void test_bearer_and_headers(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  HttpResponse r;
  bool ok;
  post(&e, "/auth", 0, &r, &ok);
  T_CHECK(ok);
  T_EQ_INT(r.status, 401);
  e.bearer_token = "s3cret";
  post(&e, "/auth", 0, &r, &ok);
  T_CHECK(ok);
  T_EQ_INT(r.status, 200);
  post(&e, "/headers", 0, &r, &ok);
  T_EQ_STR(r.body, "{\"accept\": \"application/json\", \"auth\": true, "
                   "\"content_type\": \"application/json\"}");
  http_endpoint_destroy(&e);
}

static void test_wrong_ca(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  e.ca_file = path_in("ca2.crt");
  e.bearer_token = "topsecret-token";
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/echo", HTTP_SAFE_TO_RETRY, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "not trusted"));
  T_CHECK(has(msg, "https://localhost:"));
  T_CHECK(has(msg, "/base/echo"));
  T_CHECK(!strstr(msg, "topsecret"));
  T_EQ_INT(r.attempts, 1);  /* verification failures are not retried */
  http_endpoint_destroy(&e);
}

static void test_expired(void)
{
  HttpEndpoint e = endpoint(&srv_exp, "https");
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/echo", 0, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "expired"));
  http_endpoint_destroy(&e);
}

static void test_host_mismatch(void)
{
  HttpEndpoint e = endpoint(&srv_other, "https");
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/echo", 0, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "host name mismatch"));
  http_endpoint_destroy(&e);
}

static void test_mutual_tls(void)
{
  HttpEndpoint e = endpoint(&srv_mtls, "https");
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/echo", 0, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "client certificate") || has(msg, "dropped"));
  e.client_cert = path_in("client.crt");
  e.client_key = path_in("client.key");
  msg = post(&e, "/echo", 0, &r, &ok);
  T_CHECK(ok);
  T_EQ_STR(msg, "");
  T_EQ_INT(r.status, 200);
  http_endpoint_destroy(&e);
}

static void test_pin(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  e.pinned_pubkey = "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/echo", 0, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "pinned"));
  /* The right pin passes. */
  T_EQ_INT(sh("openssl x509 -in server.crt -pubkey -noout | openssl pkey "
              "-pubin -outform der | openssl dgst -sha256 -binary | "
              "openssl base64 -A > pin"), 0);
  char pin[128] = "sha256//";
  FILE *f = fopen(path_in("pin"), "r");
  T_CHECK(f != NULL);
  if (f) {
    size_t n = fread(pin + 8, 1, sizeof pin - 9, f);
    pin[8 + n] = 0;
    fclose(f);
  }
  e.pinned_pubkey = pin;
  msg = post(&e, "/echo", 0, &r, &ok);
  T_CHECK(ok);
  T_EQ_STR(msg, "");
  http_endpoint_destroy(&e);
}

static void test_retry_503(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  HttpResponse r;
  bool ok;
  /* Not marked safe: the 503 is the answer. */
  post(&e, "/fail503/a", 0, &r, &ok);
  T_CHECK(ok);
  T_EQ_INT(r.status, 503);
  T_EQ_INT(r.attempts, 1);
  slept_ms = 0;
  sleeps = 0;
  post(&e, "/fail503/b", HTTP_SAFE_TO_RETRY, &r, &ok);
  T_CHECK(ok);
  T_EQ_INT(r.status, 200);
  T_EQ_STR(r.body, "ok");
  T_EQ_INT(r.attempts, 2);
  T_EQ_INT(sleeps, 1);
  T_CHECK(slept_ms >= 2 && slept_ms <= 5);  /* backoff 5 ms, jittered */
  http_endpoint_destroy(&e);
}

static void test_retry_after_429(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  HttpResponse r;
  bool ok;
  slept_ms = 0;
  post(&e, "/fail429/a", HTTP_SAFE_TO_RETRY, &r, &ok);
  T_CHECK(ok);
  T_EQ_INT(r.status, 200);
  T_EQ_INT(r.attempts, 2);
  T_EQ_INT(slept_ms, 2000);  /* Retry-After: 2 */
  /* Capped, and reported when the caller does not retry. */
  e.retry_after_cap_ms = 500;
  slept_ms = 0;
  post(&e, "/fail429/b", HTTP_SAFE_TO_RETRY, &r, &ok);
  T_EQ_INT(slept_ms, 500);
  post(&e, "/fail429/c", 0, &r, &ok);
  T_EQ_INT(r.status, 429);
  T_EQ_INT(r.retry_after_s, 2);
  http_endpoint_destroy(&e);
}

static void test_retry_bounded(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  e.max_retries = 3;
  HttpResponse r;
  bool ok;
  post(&e, "/status/502", HTTP_SAFE_TO_RETRY, &r, &ok);
  T_CHECK(ok);
  T_EQ_INT(r.status, 502);
  T_EQ_INT(r.attempts, 4);
  post(&e, "/status/500", HTTP_SAFE_TO_RETRY, &r, &ok);
  T_EQ_INT(r.attempts, 1);
  http_endpoint_destroy(&e);
}

static void test_size_limit(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  e.max_response = 1000;
  HttpResponse r;
  bool ok;
  post(&e, "/big/1000", 0, &r, &ok);
  T_CHECK(ok);
  T_EQ_INT(r.len, 1000);
  const char *msg = post(&e, "/big/1001", HTTP_SAFE_TO_RETRY, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "larger than the limit of 1000 bytes"));
  e.max_response = 100000;
  msg = post(&e, "/bigchunked/300000", HTTP_SAFE_TO_RETRY, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "larger than the limit of 100000 bytes"));
  T_EQ_INT(r.attempts, 1);
  http_endpoint_destroy(&e);
}

static void test_truncated(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/truncate", 0, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "truncated response"));
  T_CHECK(has(msg, "/base/truncate"));
  http_endpoint_destroy(&e);
}

static void test_refused(void)
{
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in sa;
  memset(&sa, 0, sizeof sa);
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t sl = sizeof sa;
  bind(s, (struct sockaddr *)&sa, sizeof sa);
  getsockname(s, (struct sockaddr *)&sa, &sl);
  Server dead = {-1, ntohs(sa.sin_port)};
  /* The socket stays bound but never listens until the test ends: a
  ** connection is refused all the same, and no other process (another
  ** test running at the same time) can take the port meanwhile. */
  HttpEndpoint e = endpoint(&dead, "https");
  e.max_retries = 2;
  HttpResponse r;
  bool ok;
  sleeps = 0;
  const char *msg = post(&e, "/echo", HTTP_SAFE_TO_RETRY, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "connection refused"));
  T_EQ_INT(r.attempts, 3);
  T_EQ_INT(sleeps, 2);
  http_endpoint_destroy(&e);
  close(s);
}

static void test_timeout(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  e.timeout_ms = 300;
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/sleep/2000", 0, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "timeout"));
  http_endpoint_destroy(&e);
}

static void test_plain_http(void)
{
  HttpEndpoint e = endpoint(&srv_plain, "http");
  e.url = arena_printf(&arena, "http://127.0.0.1:%d", srv_plain.port);
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/echo", 0, &r, &ok);
  T_CHECK(ok);
  T_EQ_STR(msg, "");
  T_EQ_STR(r.body, "{\"x\":1}");
  long req = 0;
  http_endpoint_stats(&e, &req, NULL);
  T_EQ_INT(req, 1);
  /* A non-loopback name is refused before any network call. */
  e.url = "http://user:pw@provider.example:8080/v1";
  msg = post(&e, "/echo", 0, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "not a loopback"));
  T_CHECK(has(msg, "http://provider.example:8080/v1/echo"));
  T_CHECK(!strstr(msg, "pw"));
  http_endpoint_stats(&e, &req, NULL);
  T_EQ_INT(req, 1);
  Diags d;
  diag_init(&d, &arena);
  T_CHECK(!http_endpoint_check(&e, &d));
  e.insecure_http = true;
  T_CHECK(http_endpoint_check(&e, &d));
  e.url = "http://[::1]:1/";
  e.insecure_http = false;
  T_CHECK(http_endpoint_check(&e, &d));
  e.bearer_token = "abc\r\nX-Evil: 1";
  T_CHECK(!http_endpoint_check(&e, &d));
  T_CHECK(!strstr(d.tail->detail, "Evil"));
  e.bearer_token = NULL;
  e.url = "ftp://localhost/";
  T_CHECK(!http_endpoint_check(&e, &d));
  e.url = "https://x y/";
  T_CHECK(!http_endpoint_check(&e, &d));
  http_endpoint_destroy(&e);
}

static void test_old_tls(void)
{
  HttpEndpoint e = endpoint(&srv_old, "https");
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/echo", 0, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "TLS handshake failed"));
  http_endpoint_destroy(&e);
}

/* Both ends offer TLS 1.3: it is used, and verification still applies. */
static void test_tls13(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/tls", 0, &r, &ok);
  T_CHECK(ok);
  T_EQ_STR(msg, "");
  T_EQ_INT(r.status, 200);
  T_EQ_STR(r.body, "TLSv1.3");
  e.ca_file = path_in("ca2.crt");
  msg = post(&e, "/tls", 0, &r, &ok);
  T_CHECK(!ok);
  T_CHECK(has(msg, "not trusted"));
  http_endpoint_destroy(&e);
}

/* A server that stops at TLS 1.2 is still served, with 1.2. */
static void test_tls12(void)
{
  HttpEndpoint e = endpoint(&srv_tls12, "https");
  HttpResponse r;
  bool ok;
  const char *msg = post(&e, "/tls", 0, &r, &ok);
  T_CHECK(ok);
  T_EQ_STR(msg, "");
  T_EQ_STR(r.body, "TLSv1.2");
  http_endpoint_destroy(&e);
}

static void test_rate_limit(void)
{
  HttpEndpoint e = endpoint(&srv_good, "https");
  e.rate_limit = 1;
  HttpClient *c = client();
  Diags d;
  diag_init(&d, &arena);
  slept_ms = 0;
  sleeps = 0;
  for (int i = 0; i < 4; i++) {
    HttpResponse r;
    http_post_json(c, &e, "/echo", "1", 1, 0, &r, &arena, &d);
  }
  http_client_close(c);
  /* Only the fake sleeps pass time on the fake clock: the second, third
  ** and fourth requests each wait 1000 ms, however slow the machine. */
  T_EQ_INT(slept_ms, 3000);
  T_EQ_INT(sleeps, 3);
  T_CHECK(!diag_has_errors(&d));
  http_endpoint_destroy(&e);
}

static const char *logged_last;
static int logged_secret;
static void log_hook(void *ctx, HttpLogLevel lvl, const char *msg)
{
  (void)ctx;
  (void)lvl;
  if (strstr(msg, "s3cret") || strstr(msg, "\"x\""))
    logged_secret = 1;
  logged_last = arena_strdup(&arena, msg);
}

static void test_log_redacted(void)
{
  http_set_log(log_hook, NULL);
  HttpEndpoint e = endpoint(&srv_good, "https");
  e.bearer_token = "s3cret";
  HttpResponse r;
  bool ok;
  post(&e, "/auth", 0, &r, &ok);
  http_set_log(NULL, NULL);
  T_CHECK(ok);
  T_CHECK(logged_last && has(logged_last, "POST /auth -> 200"));
  T_EQ_INT(logged_secret, 0);
  http_endpoint_destroy(&e);
}

int main(void)
{
  signal(SIGPIPE, SIG_IGN);
  arena_init(&arena, 0);
  if (!mkdtemp(dir) || make_certs() != 0) {
    fprintf(stderr, "test_http: cannot make certificates with openssl\n");
    return 1;
  }
  const char *cert = arena_printf(&arena, "--cert %s/server.crt --key "
                                  "%s/server.key", dir, dir);
  srv_good = start_server(cert);
  srv_exp = start_server(arena_printf(&arena, "--cert %s/expired.crt --key "
                                      "%s/expired.key", dir, dir));
  srv_other = start_server(arena_printf(&arena, "--cert %s/other.crt --key "
                                        "%s/other.key", dir, dir));
  srv_mtls = start_server(arena_printf(&arena, "%s --client-ca %s/ca.crt",
                                       cert, dir));
  srv_old = start_server(arena_printf(&arena, "%s --tls-max 1.1", cert));
  srv_tls12 = start_server(arena_printf(&arena, "%s --tls-max 1.2", cert));
  srv_plain = start_server("");
  if (!srv_good.port || !srv_exp.port || !srv_other.port || !srv_mtls.port ||
      !srv_old.port || !srv_plain.port || !srv_tls12.port) {
    fprintf(stderr, "test_http: a test server did not start\n");
    stop_server(&srv_good);
    stop_server(&srv_exp);
    stop_server(&srv_other);
    stop_server(&srv_mtls);
    stop_server(&srv_old);
    stop_server(&srv_plain);
    stop_server(&srv_tls12);
    return 1;
  }

  T_RUN(test_echo);
  T_RUN(test_keepalive);
  T_RUN(test_bearer_and_headers);
  T_RUN(test_wrong_ca);
  T_RUN(test_expired);
  T_RUN(test_host_mismatch);
  T_RUN(test_mutual_tls);
  T_RUN(test_pin);
  T_RUN(test_retry_503);
  T_RUN(test_retry_after_429);
  T_RUN(test_retry_bounded);
  T_RUN(test_size_limit);
  T_RUN(test_truncated);
  T_RUN(test_refused);
  T_RUN(test_timeout);
  T_RUN(test_plain_http);
  T_RUN(test_old_tls);
  T_RUN(test_tls13);
  T_RUN(test_tls12);
  T_RUN(test_rate_limit);
  T_RUN(test_log_redacted);

  stop_server(&srv_good);
  stop_server(&srv_exp);
  stop_server(&srv_other);
  stop_server(&srv_mtls);
  stop_server(&srv_old);
  stop_server(&srv_plain);
  stop_server(&srv_tls12);
  sh(arena_printf(&arena, "rm -rf %s", dir));
  arena_release(&arena);
  return t_done("test_http");
}
