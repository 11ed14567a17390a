/*
** test_grpc: net/grpc.h against the real test peers (terraform-provider-
** null, tfplugin5 and tfplugin6 builds; CAIRN_TESTPEER_NULL as for
** test_plugin): a unary call and its framing, an unknown method's
** grpc-status from a trailers-only answer, the message size limit,
** go-plugin's GRPCController/Shutdown making the plugin exit by itself,
** a call to a plugin that is gone, and AutoMTLS (net/mtls.h): TLS with the
** plugin's certificate pinned and cairn's presented, refused when another
** root is pinned or no client certificate is shown.
*/
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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
  return t_done("test_grpc");
}
