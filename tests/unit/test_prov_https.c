/*
** test_prov_https: the remote provider client against the reference
** provider (tests/provider/server.py) over real TLS on 127.0.0.1, with
** certificates made by tests/provider/mkcerts.sh in a temporary directory:
** every call, unknown round trips, idempotent retries, faults, TLS
** failures, concurrency, and the registry with a host configuration.
*/
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/json.h"
#include "net/prov_https.h"
#include "net/provreg.h"
#include "t.h"

static char dir[] = "/tmp/cairn-phttps-XXXXXX";
static Arena arena;

typedef struct Server {
  pid_t pid;
  int port;
} Server;

static Server srv_good, srv_exp, srv_other, srv_mtls, srv_token;

static void fake_sleep(void *ctx, long ms)
{
  (void)ctx;
  (void)ms;
}

static char *path_in(const char *name)
{
  return arena_printf(&arena, "%s/%s", dir, name);
}

static Server start_server(const char *extra)
{
  Server s = {-1, 0};
  int fd[2];
  if (pipe(fd) != 0)
    return s;
  char *cmd = arena_printf(&arena,
                           "exec python3 tests/provider/server.py --port 0 "
                           "--prefix /cairn/v1 %s",
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

static HttpEndpoint *endpoint(const Server *s, const char *base)
{
  HttpEndpoint *e = ARENA_NEW(&arena, HttpEndpoint, 1);
  http_endpoint_init(e, &arena);
  e->url = arena_printf(&arena, "https://localhost:%d%s", s->port, base);
  e->resolve = arena_printf(&arena, "localhost:%d:127.0.0.1", s->port);
  e->ca_file = path_in("ca.crt");
  e->connect_timeout_ms = 5000;
  e->timeout_ms = 10000;
  e->backoff_base_ms = 1;
  return e;
}

/* POSTs an admin call to s and returns the answer body. */
static const char *admin(const Server *s, const char *what, const char *body)
{
  HttpEndpoint *e = endpoint(s, "");
  Diags d;
  diag_init(&d, &arena);
  HttpClient *c = http_client_new(&arena, &d);
  HttpResponse r;
  const char *path = arena_printf(&arena, "/_admin/%s", what);
  bool ok = http_post_json(c, e, path, body, strlen(body), 0, &r, &arena, &d);
  http_client_close(c);
  http_endpoint_destroy(e);
  return ok ? r.body : "";
}

static void faults(const char *json)
{
  admin(&srv_good, "faults", json);
}

static Prov *open_prov(const Server *s, HttpEndpoint **ep)
{
  HttpEndpoint *e = endpoint(s, "/cairn/v1");
  Prov *p = phttps_open(&arena, "acme.test/ref/ref", e);
  phttps_set_sleep(p, fake_sleep, NULL);
  *ep = e;
  return p;
}

static void close_prov(Prov *p, HttpEndpoint *e)
{
  prov_close(p);
  http_endpoint_destroy(e);
}

static bool has(const char *s, const char *w)
{
  if (!s || !strstr(s, w)) {
    fprintf(stderr, "  (\"%s\" not in \"%s\")\n", w, s ? s : "(null)");
    return false;
  }
  return true;
}

/* All diagnostics' summaries and details in one string. */
static const char *all_diags(const Diags *d)
{
  Buf b;
  buf_init(&b, &arena);
  for (const Diag *g = d->head; g; g = g->next)
    buf_printf(&b, "[%s] %s | ", g->summary, g->detail ? g->detail : "");
  return buf_str(&b);
}

static const Type *device_type(Prov *p)
{
  ProvCall c = {&arena, NULL, NULL};
  Diags d;
  diag_init(&d, &arena);
  c.diags = &d;
  const ProvProviderSchema *s;
  p->ops->get_schema(p, &c, &s);
  if (!s)
    return NULL;
  return prov_schema_resource(s, "ref_device")->schema.block->implied;
}

static Value obj(const Type *t, const char *json)
{
  Diags d;
  diag_init(&d, &arena);
  Value v;
  if (!json_decode_typed(&arena, json, strlen(json), t, &v, &d, NULL))
    fprintf(stderr, "bad test JSON %s: %s\n", json, all_diags(&d));
  return v;
}

static const char *str_attr(Value o, const char *name)
{
  Value v = prov_get(o, name);
  if (!v.type || v.type->kind != TY_STRING || !val_is_known(v) ||
      val_is_null(v))
    return "(not a known string)";
  return v.u.s;
}

static ProvCall call(Diags *d)
{
  diag_init(d, &arena);
  ProvCall c = {&arena, d, NULL};
  return c;
}

/* ---- tests ---- */

static void test_schema(void)
{
  HttpEndpoint *e;
  Prov *p = open_prov(&srv_good, &e);
  Diags d;
  ProvCall c = call(&d);
  const ProvProviderSchema *s;
  p->ops->get_schema(p, &c, &s);
  T_CHECK(s != NULL);
  T_EQ_INT(d.errors, 0);
  if (!s) {
    close_prov(p, e);
    return;
  }
  T_EQ_INT(s->nresources, 2);
  T_EQ_INT(s->ndata_sources, 1);
  T_CHECK(!s->plan_destroy);
  const ProvTypeSchema *dev = prov_schema_resource(s, "ref_device");
  T_CHECK(dev != NULL);
  T_EQ_INT(dev->schema.version, 1);
  const ProvAttrSchema *id = prov_block_attr(dev->schema.block, "id");
  const ProvAttrSchema *sec = prov_block_attr(dev->schema.block, "secret");
  const ProvAttrSchema *tags = prov_block_attr(dev->schema.block, "tags");
  T_CHECK(id && id->flags == PROV_COMPUTED);
  T_CHECK(sec && (sec->flags & PROV_SENSITIVE) && (sec->flags & PROV_OPTIONAL));
  T_CHECK(tags && tags->type->kind == TY_MAP);
  const ProvNestedBlock *nb = prov_block_nested(dev->schema.block, "interface");
  T_CHECK(nb && nb->nesting == PROV_NEST_LIST && nb->max_items == 8);
  T_CHECK(dev->schema.block->implied != NULL);
  T_CHECK(prov_schema_data_source(s, "ref_device_info") != NULL);
  /* The identity is the server key's hash, as openssl computes it. */
  const char *pin = NULL;
  size_t n;
  T_CHECK(prov_read_file(&arena, path_in("server.pin"), &pin, &n));
  char want[64];
  snprintf(want, sizeof want, "%.*s", (int)(n ? n - 1 : 0), pin ? pin : "");
  T_EQ_STR(phttps_identity(p), want);
  size_t jl;
  T_CHECK(phttps_schema_json(p, &jl) != NULL && jl > 100);
  close_prov(p, e);
}

static void test_lifecycle(void)
{
  admin(&srv_good, "reset", "{}");
  HttpEndpoint *e;
  Prov *p = open_prov(&srv_good, &e);
  const Type *t = device_type(p);
  T_CHECK(t != NULL);
  if (!t) {
    close_prov(p, e);
    return;
  }
  Diags d;
  ProvCall c = call(&d);
  ProvConfigureReq cr = {"1.9.0", val_null(&ty_dynamic)};
  const ProvProviderSchema *s;
  p->ops->get_schema(p, &c, &s);
  cr.config = obj(s->provider.block->implied, "{\"region\":\"eu\"}");
  p->ops->configure(p, &c, &cr);
  T_EQ_INT(d.errors, 0);

  /* Validation error with an attribute path. */
  c = call(&d);
  p->ops->validate_resource_config(
      p, &c, "ref_device", obj(t, "{\"name\":\"a\",\"model\":\"bad\"}"));
  T_EQ_INT(d.errors, 1);
  T_CHECK(d.head && has(d.head->summary, "Unsupported model"));
  const ValPath *vp = d.head ? prov_diag_path(&c, d.head) : NULL;
  T_CHECK(vp && vp->n == 1 && strcmp(vp->steps[0].name, "model") == 0);

  /* Create. */
  Value cfg = obj(t, "{\"name\":\"gw\",\"model\":\"x1\",\"interface\":[]}");
  Value none = prov_null_object(&arena, prov_schema_resource(s, "ref_device")
                                            ->schema.block);
  ProvPlanReq pr = {"ref_device", none, cfg, cfg, {0}};
  ProvPlanResp pp;
  c = call(&d);
  p->ops->plan_resource_change(p, &c, &pr, &pp);
  T_EQ_INT(d.errors, 0);
  T_CHECK(val_is_unknown(prov_get(pp.planned_state, "id")));
  T_EQ_STR(str_attr(pp.planned_state, "name"), "gw");
  ProvApplyReq ar = {"ref_device", none, pp.planned_state, cfg, {0}, "k-1"};
  ProvApplyResp ap;
  c = call(&d);
  p->ops->apply_resource_change(p, &c, &ar, &ap);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(str_attr(ap.new_state, "id"), "dev-1");
  T_EQ_STR(str_attr(ap.new_state, "serial"), "SN00001");
  T_CHECK(val_is_wholly_known(ap.new_state));
  Value cur = ap.new_state;

  /* Read. */
  ProvReadReq rr = {"ref_device", cur, {0}};
  ProvReadResp rp;
  c = call(&d);
  p->ops->read_resource(p, &c, &rr, &rp);
  T_EQ_INT(d.errors, 0);
  T_CHECK(val_raw_equal(rp.new_state, cur, false));

  /* Update in place. */
  Value cfg2 = obj(t, "{\"name\":\"gw2\",\"model\":\"x1\",\"interface\":[]}");
  Value prop2 = prov_set(&arena, cur, "name", prov_get(cfg2, "name"));
  ProvPlanReq pr2 = {"ref_device", cur, prop2, cfg2, {0}};
  c = call(&d);
  p->ops->plan_resource_change(p, &c, &pr2, &pp);
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(pp.nrequires_replace, 0);
  T_EQ_STR(str_attr(pp.planned_state, "id"), "dev-1");

  /* A model change forces replacement. */
  Value prop3 = prov_set(&arena, cur, "model", val_cstr(&arena, "x2"));
  ProvPlanReq pr3 = {"ref_device", cur, prop3, prop3, {0}};
  c = call(&d);
  p->ops->plan_resource_change(p, &c, &pr3, &pp);
  T_EQ_INT(pp.nrequires_replace, 1);
  T_CHECK(pp.nrequires_replace == 1 &&
          pp.requires_replace[0].steps[0].kind == PS_ATTR &&
          strcmp(pp.requires_replace[0].steps[0].name, "model") == 0);

  /* Data source. */
  const ProvTypeSchema *ds = prov_schema_data_source(s, "ref_device_info");
  ProvReadDataReq dr = {"ref_device_info",
                        obj(ds->schema.block->implied, "{\"id\":\"dev-1\"}")};
  ProvReadDataResp dp;
  c = call(&d);
  p->ops->read_data_source(p, &c, &dr, &dp);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(str_attr(dp.state, "model"), "x1");

  /* Import. */
  ProvImportReq ir = {"ref_device", "dev-1"};
  ProvImportResp ip;
  c = call(&d);
  p->ops->import_resource_state(p, &c, &ir, &ip);
  T_EQ_INT(d.errors, 0);
  T_EQ_INT(ip.nimported, 1);
  T_CHECK(ip.nimported == 1 &&
          strcmp(str_attr(ip.imported[0].state, "name"), "gw") == 0);
  ProvImportReq ir2 = {"ref_device", "dev-404"};
  c = call(&d);
  p->ops->import_resource_state(p, &c, &ir2, &ip);
  T_EQ_INT(d.errors, 1);

  /* Upgrade passes the raw state and decodes the answer. */
  const char *raw = "{\"id\":\"dev-1\",\"name\":\"gw\",\"model\":\"x1\","
                    "\"old_field\":1}";
  ProvUpgradeReq ur = {"ref_device", 0, raw, strlen(raw)};
  ProvUpgradeResp up;
  c = call(&d);
  p->ops->upgrade_resource_state(p, &c, &ur, &up);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(str_attr(up.upgraded_state, "id"), "dev-1");

  /* Delete. */
  ProvApplyReq dr2 = {"ref_device", cur, none, none, {0}, "k-del"};
  c = call(&d);
  p->ops->apply_resource_change(p, &c, &dr2, &ap);
  T_EQ_INT(d.errors, 0);
  T_CHECK(ap.new_state.type && val_is_null(ap.new_state));
  T_CHECK(has(admin(&srv_good, "stats", "{}"), "\"devices\": 0"));

  /* StopProvider. */
  c = call(&d);
  T_CHECK(p->ops->stop(p, &c) == NULL);
  T_CHECK(atomic_load(&p->stopping));
  close_prov(p, e);
}

/* Unknowns in maps, lists of blocks and attributes survive the trip. */
/* MoveResourceState sends the source object (raw JSON, numbers of any
** size) with its private data, and decodes the target object; a refusal comes back as the server's
** diagnostic; a malformed source never leaves the client. */
static void test_move(void)
{
  admin(&srv_good, "reset", "{}");
  HttpEndpoint *e;
  Prov *p = open_prov(&srv_good, &e);
  Diags d;
  ProvCall c = call(&d);
  const char *src = "{\"id\":\"123456789012345678901\",\"triggers\":"
                    "{\"key\":\"k1\",\"value\":\"v1\"},\"n\":"
                    "123456789012345678901234567890}";
  uint8_t priv[] = {1, 2, 3};
  ProvMoveReq q = {"registry.terraform.io/hashicorp/null", "null_resource", 0,
                   src, strlen(src), {priv, sizeof priv}, "ref_entry"};
  ProvMoveResp r;
  prov_move_resource_state(p, &c, &q, &r);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(str_attr(r.target_state, "key"), "k1");
  T_EQ_STR(str_attr(r.target_state, "value"), "v1");
  T_CHECK(r.target_private.n == 3 && r.target_private.p[2] == 3);
  T_CHECK(has(admin(&srv_good, "stats", "{}"), "\"entries\": 1"));

  /* The server refuses another source type: its diagnostic. */
  c = call(&d);
  q.source_type = "null_thing";
  prov_move_resource_state(p, &c, &q, &r);
  T_EQ_INT(d.errors, 1);
  T_CHECK(d.head && has(d.head->summary, "Unable to Move Resource State") &&
          has(d.head->detail, "not a registry.terraform.io/hashicorp/null "
                              "null_thing"));

  /* A source that is not a JSON object is refused before sending. */
  c = call(&d);
  q.source_type = "null_resource";
  q.source_json = "[1]";
  q.source_len = 3;
  prov_move_resource_state(p, &c, &q, &r);
  T_EQ_INT(d.errors, 1);
  T_CHECK(d.head && has(d.head->detail, "is not a JSON object"));

  /* A target type the provider does not have. */
  c = call(&d);
  q.source_json = src;
  q.source_len = strlen(src);
  q.target_type = "ref_nothing";
  prov_move_resource_state(p, &c, &q, &r);
  T_EQ_INT(d.errors, 1);
  close_prov(p, e);
}

static void test_unknowns(void)
{
  HttpEndpoint *e;
  Prov *p = open_prov(&srv_good, &e);
  const Type *t = device_type(p);
  Value cfg = obj(t, "{\"name\":\"u\",\"model\":\"x1\",\"tags\":{\"a\":\"1\","
                     "\"b\":\"2\"},\"interface\":[{\"name\":\"eth0\","
                     "\"mtu\":1500},{\"name\":\"eth1\",\"mtu\":9000}]}");
  Value tags = prov_get(cfg, "tags");
  MapEntry *en = ARENA_NEW(&arena, MapEntry, 2);
  en[0] = tags.u.entries[0];
  en[1] = tags.u.entries[1];
  en[1].val = val_unknown(&ty_string);
  cfg = prov_set(&arena, cfg, "tags", val_map(&arena, &ty_string, en, 2));
  Value ifs = prov_get(cfg, "interface");
  Value *el = ARENA_NEW(&arena, Value, 2);
  el[0] = ifs.u.elems[0];
  el[1] = prov_set(&arena, ifs.u.elems[1], "mtu", val_unknown(&ty_number));
  cfg = prov_set(&arena, cfg, "interface",
                 val_list(&arena, ifs.type->elem, el, 2));
  cfg = prov_set(&arena, cfg, "secret", val_unknown(&ty_string));
  Diags d;
  ProvCall c = call(&d);
  const ProvProviderSchema *s;
  p->ops->get_schema(p, &c, &s);
  Value none = prov_null_object(&arena, prov_schema_resource(s, "ref_device")
                                            ->schema.block);
  ProvPlanReq pr = {"ref_device", none, cfg, cfg, {0}};
  ProvPlanResp pp;
  p->ops->plan_resource_change(p, &c, &pr, &pp);
  T_EQ_INT(d.errors, 0);
  Value pl = pp.planned_state;
  T_CHECK(val_is_unknown(prov_get(pl, "secret")));
  T_CHECK(val_is_unknown(prov_get(pl, "id")));
  Value pt = prov_get(pl, "tags");
  bool found;
  T_CHECK(val_is_known(val_map_get(pt, "a", 1, &found)) && found);
  T_CHECK(val_is_unknown(val_map_get(pt, "b", 1, &found)) && found);
  Value pif = prov_get(pl, "interface");
  T_EQ_INT(pif.len, 2);
  T_CHECK(pif.len == 2 && val_is_known(prov_get(pif.u.elems[0], "mtu")) &&
          val_is_unknown(prov_get(pif.u.elems[1], "mtu")));
  /* Everything else is equal to what was sent. */
  Value back = prov_set(&arena, pl, "id", val_null(&ty_string));
  back = prov_set(&arena, back, "serial", val_null(&ty_string));
  T_CHECK(val_raw_equal(back, cfg, false));
  close_prov(p, e);
}

/* A create whose answer is lost is retried with the same key and answered
** from the server's memory: one object, one duplicate detected. */
static void test_idempotent_retry(void)
{
  admin(&srv_good, "reset", "{}");
  HttpEndpoint *e;
  Prov *p = open_prov(&srv_good, &e);
  const Type *t = device_type(p);
  Value cfg = obj(t, "{\"name\":\"i\",\"model\":\"x1\",\"interface\":[]}");
  Value planned = prov_set(&arena, cfg, "id", val_unknown(&ty_string));
  planned = prov_set(&arena, planned, "serial", val_unknown(&ty_string));
  Value none = val_null(t);
  faults("{\"rules\":[{\"call\":\"ApplyResourceChange\","
         "\"kind\":\"drop_after_apply\",\"count\":1}]}");
  ProvApplyReq ar = {"ref_device", none, planned, cfg, {0}, "idem-42"};
  ProvApplyResp ap;
  Diags d;
  ProvCall c = call(&d);
  p->ops->apply_resource_change(p, &c, &ar, &ap);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(str_attr(ap.new_state, "id"), "dev-1");
  const char *st = admin(&srv_good, "stats", "{}");
  T_CHECK(has(st, "\"creates\": 1"));
  T_CHECK(has(st, "\"duplicates\": 1"));
  T_CHECK(has(st, "idem-42"));
  /* The same key in a later run (after a crash) gives the same object. */
  c = call(&d);
  p->ops->apply_resource_change(p, &c, &ar, &ap);
  T_EQ_STR(str_attr(ap.new_state, "id"), "dev-1");
  T_CHECK(has(admin(&srv_good, "stats", "{}"), "\"devices\": 1"));
  faults("{}");
  close_prov(p, e);
}

/* Runs one plan of a create against the current fault rules; returns the
** diagnostics. */
static const char *plan_with_fault(const char *rules, Diags *d,
                                   ProvPlanResp *pp)
{
  HttpEndpoint *e;
  Prov *p = open_prov(&srv_good, &e);
  const Type *t = device_type(p);
  faults(rules);
  Value cfg = obj(t, "{\"name\":\"f\",\"model\":\"x1\",\"interface\":[]}");
  ProvPlanReq pr = {"ref_device", val_null(t), cfg, cfg, {0}};
  ProvCall c = call(d);
  p->ops->plan_resource_change(p, &c, &pr, pp);
  faults("{}");
  close_prov(p, e);
  return all_diags(d);
}

static void test_faults(void)
{
  Diags d;
  ProvPlanResp pp;
  const char *m;
  /* Transient: retried until it works. */
  m = plan_with_fault("{\"rules\":[{\"call\":\"PlanResourceChange\","
                      "\"kind\":\"status\",\"status\":503,\"count\":2,"
                      "\"retry_after\":1}]}", &d, &pp);
  T_EQ_INT(d.errors, 0);
  T_CHECK(pp.planned_state.type != NULL);
  m = plan_with_fault("{\"rules\":[{\"call\":\"PlanResourceChange\","
                      "\"kind\":\"status\",\"status\":429,\"count\":1}]}",
                      &d, &pp);
  T_EQ_INT(d.errors, 0);
  m = plan_with_fault("{\"rules\":[{\"call\":\"PlanResourceChange\","
                      "\"kind\":\"drop\",\"count\":1}]}", &d, &pp);
  T_EQ_INT(d.errors, 0);
  /* Final: a 500 with an error body. */
  m = plan_with_fault("{\"rules\":[{\"call\":\"PlanResourceChange\","
                      "\"kind\":\"status\",\"status\":500,\"count\":1}]}",
                      &d, &pp);
  T_EQ_INT(d.errors, 1);
  T_CHECK(has(m, "Provider call failed"));
  T_CHECK(has(m, "HTTP status 500 (injected: injected fault)"));
  T_CHECK(has(m, "acme.test/ref/ref"));
  T_CHECK(has(m, "ref_device"));
  /* Persistent 503: gives up after the retries. */
  m = plan_with_fault("{\"rules\":[{\"call\":\"PlanResourceChange\","
                      "\"kind\":\"status\",\"status\":503,\"count\":50}]}",
                      &d, &pp);
  T_EQ_INT(d.errors, 1);
  T_CHECK(has(m, "HTTP status 503"));
  /* Broken answers. */
  m = plan_with_fault("{\"rules\":[{\"call\":\"PlanResourceChange\","
                      "\"kind\":\"garbage\",\"count\":1}]}", &d, &pp);
  T_EQ_INT(d.errors, 1);
  T_CHECK(has(m, "Invalid provider response"));
  T_CHECK(has(m, "PlanResourceChange for resource type \"ref_device\""));
  m = plan_with_fault("{\"rules\":[{\"call\":\"PlanResourceChange\","
                      "\"kind\":\"wrong_type\",\"count\":1}]}", &d, &pp);
  T_EQ_INT(d.errors, 1);
  T_CHECK(has(m, "planned_state: an object is required"));
  T_CHECK(pp.planned_state.type == NULL);
  m = plan_with_fault("{\"rules\":[{\"call\":\"PlanResourceChange\","
                      "\"kind\":\"truncate\",\"count\":50}]}", &d, &pp);
  T_EQ_INT(d.errors, 1);
  T_CHECK(has(m, "truncated"));
  m = plan_with_fault("{\"rules\":[{\"call\":\"PlanResourceChange\","
                      "\"kind\":\"drop\",\"count\":50}]}", &d, &pp);
  T_EQ_INT(d.errors, 1);
  T_CHECK(has(m, "Provider request failed"));
  /* The inconsistent plan is delivered as is: the core judges it. */
  m = plan_with_fault("{\"rules\":[{\"call\":\"PlanResourceChange\","
                      "\"kind\":\"inconsistent_plan\",\"count\":1}]}", &d,
                      &pp);
  T_EQ_INT(d.errors, 0);
  T_EQ_STR(str_attr(pp.planned_state, "name"), "f-changed");
}

static void test_oversized(void)
{
  HttpEndpoint *e;
  Prov *p = open_prov(&srv_good, &e);
  e->max_response = 200;
  Diags d;
  ProvCall c = call(&d);
  const ProvProviderSchema *s;
  p->ops->get_schema(p, &c, &s);
  T_CHECK(s == NULL);
  T_CHECK(has(all_diags(&d), "larger than the limit"));
  close_prov(p, e);
}

static const char *schema_failure(const Server *s, const char *ca,
                                  bool client_cert, const char *pin)
{
  HttpEndpoint *e;
  Prov *p = open_prov(s, &e);
  if (ca)
    e->ca_file = path_in(ca);
  if (client_cert) {
    e->client_cert = path_in("client.crt");
    e->client_key = path_in("client.key");
  }
  e->pinned_pubkey = pin;
  Diags d;
  ProvCall c = call(&d);
  const ProvProviderSchema *sc;
  p->ops->get_schema(p, &c, &sc);
  const char *m = sc ? "" : all_diags(&d);
  close_prov(p, e);
  return m;
}

static void test_tls_failures(void)
{
  T_CHECK(has(schema_failure(&srv_good, "ca2.crt", false, NULL),
              "not trusted"));
  T_CHECK(has(schema_failure(&srv_exp, NULL, false, NULL), "expired"));
  T_CHECK(has(schema_failure(&srv_other, NULL, false, NULL),
              "host name mismatch"));
  T_CHECK(*schema_failure(&srv_mtls, NULL, false, NULL) != 0);
  T_EQ_STR(schema_failure(&srv_mtls, NULL, true, NULL), "");
  T_CHECK(has(schema_failure(&srv_good, NULL, false,
                             "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="),
              "pinned"));
  const char *pin;
  size_t n;
  T_CHECK(prov_read_file(&arena, path_in("server.pin"), &pin, &n));
  T_EQ_STR(schema_failure(&srv_good, NULL, false,
                          arena_strndup(&arena, pin, n ? n - 1 : 0)),
           "");
}

typedef struct Worker {
  Prov *p;
  const Type *t;
  int ok;
} Worker;

static void *worker(void *arg)
{
  Worker *w = arg;
  Arena a;
  arena_init(&a, 0);
  for (int i = 0; i < 10; i++) {
    Diags d;
    diag_init(&d, &a);
    ProvCall c = {&a, &d, NULL};
    Diags jd;
    diag_init(&jd, &a);
    Value cfg;
    const char *js = "{\"name\":\"c\",\"model\":\"x1\",\"interface\":[]}";
    json_decode_typed(&a, js, strlen(js), w->t, &cfg, &jd, NULL);
    ProvPlanReq pr = {"ref_device", val_null(w->t), cfg, cfg, {0}};
    ProvPlanResp pp;
    w->p->ops->plan_resource_change(w->p, &c, &pr, &pp);
    if (!d.errors && pp.planned_state.type)
      w->ok++;
  }
  arena_release(&a);
  return NULL;
}

static void test_concurrency(void)
{
  HttpEndpoint *e;
  Prov *p = open_prov(&srv_good, &e);
  const Type *t = device_type(p);
  enum { N = 6 };
  Worker w[N];
  pthread_t th[N];
  for (int i = 0; i < N; i++) {
    w[i] = (Worker){p, t, 0};
    pthread_create(&th[i], NULL, worker, &w[i]);
  }
  int ok = 0;
  for (int i = 0; i < N; i++) {
    pthread_join(th[i], NULL);
    ok += w[i].ok;
  }
  T_EQ_INT(ok, N * 10);
  long req, conn;
  http_endpoint_stats(e, &req, &conn);
  T_EQ_INT(req, N * 10 + 1);
  T_CHECK(phttps_clients(p) <= N);
  T_CHECK(conn <= N);
  close_prov(p, e);
}

static void test_registry(void)
{
  const char *ini = path_in("cairn.ini");
  FILE *f = fopen(ini, "w");
  T_CHECK(f != NULL);
  if (!f)
    return;
  fprintf(f,
          "[provider \"acme.test/ref/ref\"]\n"
          "endpoint = https://localhost:%d/cairn/v1\n"
          "resolve = localhost:%d:127.0.0.1\n"
          "ca_file = %s\n"
          "token_env = CAIRN_TEST_REF_TOKEN\n"
          "[provider \"acme.test/ref/nokey\"]\n"
          "endpoint = https://localhost:%d/cairn/v1\n"
          "ca_file = %s\n"
          "token_env = CAIRN_TEST_NO_SUCH_VAR\n",
          srv_token.port, srv_token.port, path_in("ca.crt"), srv_token.port,
          path_in("ca.crt"));
  fclose(f);
  setenv("CAIRN_TEST_REF_TOKEN", "t0ken", 1);
  unsetenv("CAIRN_TEST_NO_SUCH_VAR");
  ProvReg r;
  Diags d;
  diag_init(&d, &arena);
  T_CHECK(preg_init(&r, &arena, ini, &d));
  T_EQ_INT(d.errors, 0);
  Prov *nul = preg_open(&r, "hashicorp/null", &d);
  T_CHECK(nul && !phttps_is(nul));
  T_CHECK(preg_is_remote(&r, "acme.test/ref/ref"));
  Prov *p = preg_open(&r, "Acme.Test/ref/ref", &d);
  T_CHECK(p && phttps_is(p));
  if (p) {
    Diags d2;
    ProvCall c = call(&d2);
    const ProvProviderSchema *s;
    p->ops->get_schema(p, &c, &s);
    T_CHECK(s != NULL);
    T_EQ_INT(d2.errors, 0);
  }
  Diags d3;
  diag_init(&d3, &arena);
  T_CHECK(preg_open(&r, "acme.test/ref/nokey", &d3) == NULL);
  T_CHECK(has(all_diags(&d3), "CAIRN_TEST_NO_SUCH_VAR"));
  Diags d4;
  diag_init(&d4, &arena);
  T_CHECK(preg_open(&r, "acme.test/other/thing", &d4) == NULL);
  T_CHECK(has(all_diags(&d4), "Failed to query available provider packages"));
  T_CHECK(has(all_diags(&d4), "[provider \"acme.test/other/thing\"]"));
  preg_close(&r);
  /* The wrong token is refused by the server. */
  setenv("CAIRN_TEST_REF_TOKEN", "wrong", 1);
  diag_init(&d, &arena);
  T_CHECK(preg_init(&r, &arena, ini, &d));
  p = preg_open(&r, "acme.test/ref/ref", &d);
  if (p) {
    Diags d2;
    ProvCall c = call(&d2);
    const ProvProviderSchema *s;
    p->ops->get_schema(p, &c, &s);
    T_CHECK(s == NULL);
    T_CHECK(has(all_diags(&d2), "HTTP status 401 (unauthorized"));
    T_CHECK(!strstr(all_diags(&d2), "wrong"));
  }
  T_CHECK(p != NULL);
  preg_close(&r);
  /* A missing named file is an error. */
  diag_init(&d, &arena);
  T_CHECK(!preg_init(&r, &arena, path_in("nope.ini"), &d));
  T_CHECK(has(all_diags(&d), "not found"));
}

int main(void)
{
  signal(SIGPIPE, SIG_IGN);
  arena_init(&arena, 0);
  if (!mkdtemp(dir) ||
      system(arena_printf(&arena, "tests/provider/mkcerts.sh %s", dir)) !=
          0) {
    fprintf(stderr, "test_prov_https: cannot make certificates\n");
    return 1;
  }
  const char *cert = arena_printf(&arena, "--cert %s/server.crt --key "
                                  "%s/server.key", dir, dir);
  srv_good = start_server(arena_printf(&arena, "%s --data %s/data.json", cert,
                                       dir));
  srv_exp = start_server(arena_printf(&arena, "--cert %s/expired.crt --key "
                                      "%s/expired.key", dir, dir));
  srv_other = start_server(arena_printf(&arena, "--cert %s/other.crt --key "
                                        "%s/other.key", dir, dir));
  srv_mtls = start_server(arena_printf(&arena, "%s --client-ca %s/ca.crt",
                                       cert, dir));
  srv_token = start_server(arena_printf(&arena, "%s --token t0ken", cert));
  if (!srv_good.port || !srv_exp.port || !srv_other.port || !srv_mtls.port ||
      !srv_token.port) {
    fprintf(stderr, "test_prov_https: a server did not start\n");
  } else {
    T_RUN(test_schema);
    T_RUN(test_lifecycle);
    T_RUN(test_move);
    T_RUN(test_unknowns);
    T_RUN(test_idempotent_retry);
    T_RUN(test_faults);
    T_RUN(test_oversized);
    T_RUN(test_tls_failures);
    T_RUN(test_concurrency);
    T_RUN(test_registry);
  }
  stop_server(&srv_good);
  stop_server(&srv_exp);
  stop_server(&srv_other);
  stop_server(&srv_mtls);
  stop_server(&srv_token);
  system(arena_printf(&arena, "rm -rf %s", dir));
  arena_release(&arena);
  if (!srv_good.port)
    return 1;
  return t_done("test_prov_https");
}
