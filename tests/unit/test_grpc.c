/*
** test_grpc: net/grpc.h against the real test peers (terraform-provider-
** null, tfplugin5 and tfplugin6 builds; CAIRN_TESTPEER_NULL as for
** test_plugin): a unary call and its framing, an unknown method's
** grpc-status from a trailers-only answer, the message size limit,
** go-plugin's GRPCController/Shutdown making the plugin exit by itself,
** a call to a plugin that is gone, and AutoMTLS (net/mtls.h): TLS with the
** plugin's certificate pinned and cairn's presented, refused when another
** root is pinned or no client certificate is shown.  With a GrpcPool
** (issue 16): sequential calls share one connection and concurrent ones
** at most one per caller, counted as the plugin's open sockets in
** /proc/PID/fd; a kept connection to a plugin that is gone is dropped and
** the call fails as without a pool; grpc_pool_close leaves no socket open
** in cairn.
*/
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "net/grpc.h"
#include "net/mtls.h"
#include "net/plugin.h"
#include "t.h"

static Arena A;
static const char *peers;

static PluginProc *start_cert(const char *name, const char *client_cert)
{
  static const int vs[] = {5, 6};
  PluginLaunch l = {0};
  l.client_cert = client_cert;
  l.path = arena_printf(&A, "%s/%s", peers, name);
  l.name = name;
  l.versions = vs;
  l.nversions = 2;
  Diags d;
  diag_init(&d, &A);
  PluginProc *p = plugin_start(&A, &l, &d);
  T_CHECK(p != NULL);
  return p;
}

static PluginProc *start(const char *name)
{
  return start_cert(name, NULL);
}

static GrpcTarget target(PluginProc *p, size_t max)
{
  GrpcTarget t = {0};
  if (p->unix_socket)
    t.unix_path = p->address;
  else
    t.tcp_address = p->address;
  t.max_msg = max;
  return t;
}

static void test_schema_call(const char *name, const char *path)
{
  PluginProc *p = start(name);
  if (!p)
    return;
  GrpcTarget t = target(p, 0);
  GrpcResult r;
  /* GetProviderSchema.Request is empty: a zero-length message. */
  T_CHECK(grpc_call(&t, path, NULL, 0, 30000, &A, &r));
  T_EQ_INT(r.outcome, GRPC_OK);
  T_EQ_INT(r.status, 0);
  T_CHECK(r.len > 100);
  T_CHECK(r.body && memmem(r.body, r.len, "null_resource", 13) != NULL);
  T_CHECK(r.body && memmem(r.body, r.len, "null_data_source", 16) != NULL);

  /* An unknown method: UNIMPLEMENTED in a trailers-only answer. */
  T_CHECK(!grpc_call(&t, "/tfplugin5.Provider/NoSuchCall", NULL, 0, 30000,
                     &A, &r));
  T_EQ_INT(r.outcome, GRPC_STATUS);
  T_EQ_INT(r.status, 12);
  T_CHECK(strncmp(r.message, "UNIMPLEMENTED: ", 15) == 0);

  /* The schema is larger than a 16-byte limit. */
  GrpcTarget small = target(p, 16);
  T_CHECK(!grpc_call(&small, path, NULL, 0, 30000, &A, &r));
  T_EQ_INT(r.outcome, GRPC_BAD_RESPONSE);
  T_CHECK(strstr(r.message, "16-byte message limit") != NULL);

  /* Shutdown: go-plugin stops its server inside the call, so the answer
  ** is lost (a transport failure, or OK when the reply wins the race); the
  ** plugin then exits by itself (no kill needed). */
  grpc_call(&t, "/plugin.GRPCController/Shutdown", NULL, 0, 30000, &A, &r);
  T_CHECK(r.outcome == GRPC_OK || r.outcome == GRPC_TRANSPORT);
  int st = plugin_stop(p, 10000);
  T_CHECK(WIFEXITED(st));

  /* Gone: a transport failure, not a status. */
  T_CHECK(!grpc_call(&t, path, NULL, 0, 30000, &A, &r));
  T_EQ_INT(r.outcome, GRPC_TRANSPORT);
  T_CHECK(r.message && *r.message);
}

/* ---- kept connections ------------------------------------------------- */

#define MAX_SOCKS 256

/* The inodes of the sockets process pid ("self" when 0) has open, into
** ino[]; returns how many. */
static int sockets(pid_t pid, unsigned long *ino)
{
  char dir[64];
  if (pid)
    snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
  else
    snprintf(dir, sizeof dir, "/proc/self/fd");
  DIR *d = opendir(dir);
  T_CHECK(d != NULL);
  if (!d)
    return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && n < MAX_SOCKS) {
    char path[320], link[64];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    ssize_t k = readlink(path, link, sizeof link - 1);
    if (k <= 0)
      continue;
    link[k] = 0;
    unsigned long v;
    if (sscanf(link, "socket:[%lu]", &v) == 1)
      ino[n++] = v;
  }
  closedir(d);
  return n;
}

/* The sockets of pid not in base[0..nbase): its connections accepted
** since base was taken.  Returns how many, the first in *first. */
static int new_sockets(pid_t pid, const unsigned long *base, int nbase,
                       unsigned long *first)
{
  unsigned long now[MAX_SOCKS];
  int n = sockets(pid, now), k = 0;
  for (int i = 0; i < n; i++) {
    bool old = false;
    for (int j = 0; j < nbase; j++)
      old = old || now[i] == base[j];
    if (!old && k++ == 0)
      *first = now[i];
  }
  return k;
}

typedef struct Worker {
  const GrpcTarget *t;
  const char *path;
  int ok;
} Worker;

static void *worker_main(void *ud)
{
  Worker *w = ud;
  Arena a;
  arena_init(&a, 0);
  for (int i = 0; i < 5; i++) {
    GrpcResult r;
    if (grpc_call(w->t, w->path, NULL, 0, 30000, &a, &r))
      w->ok++;
  }
  arena_release(&a);
  return NULL;
}

static void test_pool(const char *name, const char *path, bool tls)
{
  MtlsCert mc;
  const char *why = NULL;
  T_CHECK(!tls || mtls_generate(&A, &mc, &why));
  PluginProc *p = start_cert(name, tls ? mc.cert_pem : NULL);
  if (!p)
    return;
  GrpcTarget t = target(p, 0);
  if (tls) {
    const char *pem = NULL;
    T_CHECK(p->server_cert &&
            mtls_server_pem(&A, p->server_cert, &pem, &why));
    t.ca_pem = pem;
    t.cert_pem = mc.cert_pem;
    t.key_pem = mc.key_pem;
  }
  unsigned long mine[MAX_SOCKS], base[MAX_SOCKS];
  int nmine = sockets(0, mine);
  int nbase = sockets(p->pid, base);   /* the listener */
  t.pool = grpc_pool_new(&A);
  T_CHECK(t.pool != NULL);

  /* Ten calls in a row: one connection, the same after every call (the
  ** plugin's side of it stays open between calls). */
  unsigned long conn = 0;
  for (int i = 0; i < 10; i++) {
    GrpcResult r;
    T_CHECK(grpc_call(&t, path, NULL, 0, 30000, &A, &r));
    unsigned long c = 0;
    T_EQ_INT(new_sockets(p->pid, base, nbase, &c), 1);
    if (i == 0)
      conn = c;
    T_CHECK(c == conn);
  }
  T_EQ_INT(grpc_pool_idle(t.pool), 1);

  /* A gRPC error answer leaves the connection usable: still one. */
  GrpcResult r;
  T_CHECK(!grpc_call(&t, "/tfplugin5.Provider/NoSuchCall", NULL, 0, 30000,
                     &A, &r));
  T_EQ_INT(r.outcome, GRPC_STATUS);
  T_EQ_INT(grpc_pool_idle(t.pool), 1);

  /* Four callers at once, five calls each: at most four connections,
  ** each one a handle the pool keeps. */
  Worker w[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    w[i] = (Worker){&t, path, 0};
    T_CHECK(pthread_create(&th[i], NULL, worker_main, &w[i]) == 0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    T_EQ_INT(w[i].ok, 5);
  }
  unsigned long c;
  int conns = new_sockets(p->pid, base, nbase, &c);
  T_CHECK(conns >= 1 && conns <= 4);
  T_EQ_INT(grpc_pool_idle(t.pool), conns);

  /* The plugin exits; the kept connections are dead.  The next call
  ** drops the one it took and fails as it does without a pool. */
  grpc_call(&t, "/plugin.GRPCController/Shutdown", NULL, 0, 30000, &A, &r);
  T_CHECK(r.outcome == GRPC_OK || r.outcome == GRPC_TRANSPORT);
  int st = plugin_stop(p, 10000);
  T_CHECK(WIFEXITED(st));
  int idle = grpc_pool_idle(t.pool);
  T_CHECK(!grpc_call(&t, path, NULL, 0, 30000, &A, &r));
  T_EQ_INT(r.outcome, GRPC_TRANSPORT);
  T_CHECK(r.message && *r.message);
  T_EQ_INT(grpc_pool_idle(t.pool), idle - 1);

  /* Closing the pool closes every socket it kept. */
  grpc_pool_close(t.pool);
  T_EQ_INT(grpc_pool_idle(t.pool), 0);
  unsigned long after[MAX_SOCKS];
  T_EQ_INT(sockets(0, after), nmine);
  grpc_pool_close(t.pool);   /* idempotent */
}

static void test_pool_h2c(void)
{
  test_pool("terraform-provider-null", "/tfplugin5.Provider/GetSchema",
            false);
}

static void test_pool_mtls(void)
{
  test_pool("terraform-provider-null-v6",
            "/tfplugin6.Provider/GetProviderSchema", true);
}

static void test_v5(void)
{
  test_schema_call("terraform-provider-null", "/tfplugin5.Provider/GetSchema");
}

static void test_v6(void)
{
  test_schema_call("terraform-provider-null-v6",
                   "/tfplugin6.Provider/GetProviderSchema");
}

/* go-plugin serves TLS when given PLUGIN_CLIENT_CERT, and answers its own
** certificate in the sixth field of the handshake. */
static void test_mtls(const char *name, const char *path)
{
  MtlsCert mc, other;
  const char *why = NULL;
  T_CHECK(mtls_generate(&A, &mc, &why));
  T_CHECK(mtls_generate(&A, &other, &why));
  PluginProc *p = start_cert(name, mc.cert_pem);
  if (!p)
    return;
  T_CHECK(p->server_cert != NULL);
  const char *pem = NULL;
  T_CHECK(p->server_cert && mtls_server_pem(&A, p->server_cert, &pem, &why));
  GrpcTarget t = target(p, 0);
  t.ca_pem = pem;
  t.cert_pem = mc.cert_pem;
  t.key_pem = mc.key_pem;
  GrpcResult r;
  T_CHECK(pem && grpc_call(&t, path, NULL, 0, 30000, &A, &r));
  T_EQ_INT(r.outcome, GRPC_OK);
  T_CHECK(r.body && memmem(r.body, r.len, "null_resource", 13) != NULL);

  /* Plain h2c to a TLS server: no answer. */
  GrpcTarget plain = target(p, 0);
  T_CHECK(!grpc_call(&plain, path, NULL, 0, 30000, &A, &r));
  T_EQ_INT(r.outcome, GRPC_TRANSPORT);

  /* Another root pinned: cairn refuses the plugin's certificate. */
  GrpcTarget wrong = t;
  wrong.ca_pem = other.cert_pem;
  T_CHECK(!grpc_call(&wrong, path, NULL, 0, 30000, &A, &r));
  T_EQ_INT(r.outcome, GRPC_TRANSPORT);

  /* A client certificate the plugin was not given: it refuses us. */
  GrpcTarget stranger = t;
  stranger.cert_pem = other.cert_pem;
  stranger.key_pem = other.key_pem;
  T_CHECK(!grpc_call(&stranger, path, NULL, 0, 30000, &A, &r));
  T_CHECK(r.outcome == GRPC_TRANSPORT || r.outcome == GRPC_BAD_RESPONSE);

  grpc_call(&t, "/plugin.GRPCController/Shutdown", NULL, 0, 30000, &A, &r);
  T_CHECK(r.outcome == GRPC_OK || r.outcome == GRPC_TRANSPORT);
  int st = plugin_stop(p, 10000);
  T_CHECK(WIFEXITED(st));
}

static void test_mtls_v5(void)
{
  test_mtls("terraform-provider-null", "/tfplugin5.Provider/GetSchema");
}

static void test_mtls_v6(void)
{
  test_mtls("terraform-provider-null-v6",
            "/tfplugin6.Provider/GetProviderSchema");
}

static void test_status_names(void)
{
  T_EQ_STR(grpc_status_name(0), "OK");
  T_EQ_STR(grpc_status_name(14), "UNAVAILABLE");
  T_EQ_STR(grpc_status_name(16), "UNAUTHENTICATED");
  T_EQ_STR(grpc_status_name(17), "UNKNOWN");
  T_EQ_STR(grpc_status_name(-1), "UNKNOWN");
}

int main(void)
{
  arena_init(&A, 0);
  peers = getenv("CAIRN_TESTPEER_NULL");
  if (!peers || !*peers) {
    fprintf(stderr, "test_grpc: CAIRN_TESTPEER_NULL is not set (run "
                    "scripts/run-tests, or set it to the directory "
                    "scripts/testpeers prints)\n");
    return 1;
  }
  T_RUN(test_v5);
  T_RUN(test_v6);
  T_RUN(test_mtls_v5);
  T_RUN(test_mtls_v6);
  T_RUN(test_status_names);
  T_RUN(test_pool_h2c);
  T_RUN(test_pool_mtls);
  return t_done("test_grpc");
}
