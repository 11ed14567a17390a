/*
** prov_plugin.c: ProvOps over a provider plugin process (tfplugin5/6 on
** gRPC).  Contracts in prov_plugin.h.
*/
#include <pthread.h>
#include <string.h>
#include <time.h>

#include <protobuf-c/protobuf-c.h>

#include "base/buf.h"
#include "base/json.h"
#include "grpc.h"
#include "msgpack.h"
#include "plugin.h"
#include "proto/tfplugin6.pb-c.h"
#include "prov_plugin.h"

enum {
  M_SCHEMA, M_VALIDATE_PROVIDER, M_VALIDATE_RESOURCE, M_VALIDATE_DATA,
  M_UPGRADE, M_CONFIGURE, M_READ, M_PLAN, M_APPLY, M_IMPORT, M_READ_DATA,
  M_STOP, M_COUNT
};

/* Method names on the wire, per protocol version. */
/* The plugin's last stderr lines worth showing: the SDKs' JSON log lines
** at trace and debug level (they log every call) are left out; panics,
** errors and plain text stay. */
static const char *tail_text(Arena *a, PluginProc *pp)
{
  Buf t, o;
  buf_init(&t, a);
  buf_init(&o, a);
  plugin_tail(pp, &t);
  const char *s = t.len ? buf_str(&t) : "";
  while (*s) {
    const char *e = strchr(s, '\n');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    const char *line = arena_strndup(a, s, n);
    bool chatter = line[0] == '{' && (strstr(line, "\"@level\":\"trace\"") ||
                                      strstr(line, "\"@level\":\"debug\""));
    if (!chatter && n) {
      buf_put(&o, line, n);
      buf_putc(&o, '\n');
    }
    s += n + (e ? 1 : 0);
  }
  return o.len ? buf_str(&o) : NULL;
}

static const char *const methods5[M_COUNT] = {
    "GetSchema", "PrepareProviderConfig", "ValidateResourceTypeConfig",
    "ValidateDataSourceConfig", "UpgradeResourceState", "Configure",
    "ReadResource", "PlanResourceChange", "ApplyResourceChange",
    "ImportResourceState", "ReadDataSource", "Stop"};
static const char *const methods6[M_COUNT] = {
    "GetProviderSchema", "ValidateProviderConfig", "ValidateResourceConfig",
    "ValidateDataResourceConfig", "UpgradeResourceState", "ConfigureProvider",
    "ReadResource", "PlanResourceChange", "ApplyResourceChange",
    "ImportResourceState", "ReadDataSource", "StopProvider"};
/* Terraform's own names of the calls, for its error messages. */
static const char *const tf_names[M_COUNT] = {
    "GetProviderSchema", "ValidateProviderConfig", "ValidateResourceConfig",
    "ValidateDataResourceConfig", "UpgradeResourceState", "ConfigureProvider",
    "ReadResource", "PlanResourceChange", "ApplyResourceChange",
    "ImportResourceState", "ReadDataSource", "Stop"};

/* Field numbers of `deferred` in the responses of protocol 5.6 / 6.6. */
#define DEFERRED_READ 4
#define DEFERRED_PLAN 6
#define DEFERRED_IMPORT 3
#define DEFERRED_READ_DATA 3

typedef struct Pplugin {
  const char *path;
  long timeout_ms;
  pthread_mutex_t mu;        /* start, proc */
  pthread_mutex_t smu;       /* fetching the schema (into the instance
                                arena, which only its holder touches) */
  PluginProc *proc;
  bool failed;               /* the start failed: not retried */
  GrpcTarget target;
  const ProvProviderSchema *schema;
} Pplugin;

static const ProvOps pplugin_ops;

bool pplugin_is(const Prov *p)
{
  return p && p->ops == &pplugin_ops;
}

static Pplugin *impl(Prov *p)
{
  return p->impl;
}

Prov *pplugin_open(Arena *a, const char *addr, const char *path,
                   long timeout_ms)
{
  Prov *p = ARENA_NEW(a, Prov, 1);
  Pplugin *h = ARENA_NEW(a, Pplugin, 1);
  h->path = arena_strdup(a, path);
  h->timeout_ms = timeout_ms;
  pthread_mutex_init(&h->mu, NULL);
  pthread_mutex_init(&h->smu, NULL);
  p->ops = &pplugin_ops;
  p->addr = addr;
  p->impl = h;
  p->arena = a;
  atomic_init(&p->stopping, false);
  return p;
}

int pplugin_version(Prov *p)
{
  Pplugin *h = impl(p);
  pthread_mutex_lock(&h->mu);
  int v = h->proc ? h->proc->version : 0;
  pthread_mutex_unlock(&h->mu);
  return v;
}

/* ---- protobuf-c memory from arenas -------------------------------------- */

static void *pb_alloc(void *ud, size_t n)
{
  return arena_alloc_raw(ud, n ? n : 1, 16, 1);
}

static void pb_free(void *ud, void *ptr)
{
  (void)ud;
  (void)ptr;   /* arena memory goes with the arena */
}

/* ---- starting the plugin ------------------------------------------------ */

static bool started(Prov *p, ProvCall *c)
{
  Pplugin *h = impl(p);
  pthread_mutex_lock(&h->mu);
  if (!h->proc && !h->failed) {
    static const int versions[] = {5, 6};
    PluginLaunch l = {0};
    l.path = h->path;
    l.name = p->addr;
    l.versions = versions;
    l.nversions = 2;
    h->proc = plugin_start(p->arena, &l, c->diags);
    if (!h->proc) {
      h->failed = true;
    } else if (h->proc->unix_socket) {
      h->target.unix_path = h->proc->address;
    } else {
      h->target.tcp_address = h->proc->address;
    }
    if (h->proc && h->proc->server_cert) {
      /* cairn passes no client certificate, so a plugin that answers with
      ** one wants TLS that this build does not speak yet. */
      diag_error(c->diags, NULL, "Failed to start provider plugin",
                 "The plugin %s (%s) answered with a TLS certificate, but "
                 "cairn talks to plugins over plain HTTP/2 only (AutoMTLS "
                 "is not supported yet).",
                 p->addr, h->path);
      plugin_stop(h->proc, 2000);
      h->proc = NULL;
      h->failed = true;
    }
  } else if (h->failed) {
    diag_error(c->diags, NULL, "Failed to start provider plugin",
               "The plugin %s (%s) could not be started; see the earlier "
               "error.",
               p->addr, h->path);
  }
  bool ok = h->proc != NULL;
  pthread_mutex_unlock(&h->mu);
  return ok;
}

/* Waits (bounded) for a plugin that broke a call to finish exiting, so its
** last stderr lines are in the report. */
static void settle(PluginProc *pp)
{
  for (int i = 0; i < 100 && !plugin_exited(pp, NULL); i++) {
    struct timespec ts = {0, 10 * 1000000L};
    nanosleep(&ts, NULL);
  }
}


/* One call: packs req, sends it, unpacks the answer of type rd (memory in
** a).  NULL with a diagnostic on failure. */
static void *rpc(Prov *p, ProvCall *c, int m, const ProtobufCMessage *req,
                 const ProtobufCMessageDescriptor *rd, Arena *a)
{
  if (!started(p, c))
    return NULL;
  Pplugin *h = impl(p);
  size_t n = protobuf_c_message_get_packed_size(req);
  uint8_t *buf = arena_alloc_raw(c->arena, 1, 1, n ? n : 1);
  protobuf_c_message_pack(req, buf);
  int v = h->proc->version;
  const char *path =
      arena_printf(c->arena, "/tfplugin%d.Provider/%s", v,
                   v == 5 ? methods5[m] : methods6[m]);
  long tmo = h->timeout_ms;
  if (tmo <= 0)
    tmo = (m == M_SCHEMA || m == M_VALIDATE_PROVIDER ||
           m == M_VALIDATE_RESOURCE || m == M_VALIDATE_DATA || m == M_STOP)
              ? 120000L : 3600000L;
  GrpcResult r;
  const char *pkg = v == 5 ? "plugin" : "plugin6";
  if (!grpc_call(&h->target, path, buf, n, tmo, c->arena, &r)) {
    if (r.outcome == GRPC_TRANSPORT || r.outcome == GRPC_TIMEOUT ||
        (r.outcome == GRPC_STATUS && r.status == 14)) {
      settle(h->proc);
      const char *tail = tail_text(c->arena, h->proc);
      diag_error(c->diags, NULL, "Plugin did not respond",
                 "The plugin encountered an error, and failed to respond to "
                 "the %s.(*GRPCProvider).%s call. The plugin logs may "
                 "contain more details.\n\n(%s: %s)%s%s",
                 pkg, tf_names[m], p->addr, r.message,
                 tail ? "\n\nThe plugin's last output:\n" : "",
                 tail ? tail : "");
    } else {
      diag_error(c->diags, NULL, "Plugin error",
                 "The plugin returned an unexpected error from "
                 "%s.(*GRPCProvider).%s: rpc error: %s",
                 pkg, tf_names[m], r.message);
    }
    return NULL;
  }
  ProtobufCAllocator al = {pb_alloc, pb_free, a};
  ProtobufCMessage *msg = protobuf_c_message_unpack(rd, &al, r.len, r.body);
  if (!msg) {
    diag_error(c->diags, NULL, "Plugin error",
               "The plugin's answer to %s.(*GRPCProvider).%s is not a valid "
               "%s message.",
               pkg, tf_names[m], rd->name);
    return NULL;
  }
  return msg;
}

/* A newer plugin's `deferred` field, which cairn never asks for. */
static bool deferred(Prov *p, ProvCall *c, const ProtobufCMessage *msg,
                     uint32_t field, int m)
{
  for (unsigned i = 0; i < msg->n_unknown_fields; i++)
    if (msg->unknown_fields[i].tag == field) {
      diag_error(c->diags, NULL, "Provider deferred the action",
                 "The provider %s answered %s with a deferred action. cairn "
                 "does not support deferred actions (it never offers "
                 "them), so the change cannot be planned.",
                 p->addr, tf_names[m]);
      return true;
    }
  return false;
}

/* ---- values and diagnostics -------------------------------------------- */

static Tfplugin6__DynamicValue *dv_out(ProvCall *c, Value v, const Type *t,
                                       bool *ok)
{
  Tfplugin6__DynamicValue *dv = ARENA_NEW(c->arena, Tfplugin6__DynamicValue,
                                          1);
  Tfplugin6__DynamicValue init = TFPLUGIN6__DYNAMIC_VALUE__INIT;
  *dv = init;
  Buf b;
  buf_init(&b, c->arena);
  if (!v.type)
    v = val_null(t);
  if (!msgpack_encode(&b, v, t, c->diags, "Invalid value for provider"))
    *ok = false;
  dv->msgpack.data = (uint8_t *)b.p;
  dv->msgpack.len = b.len;
  return dv;
}

/* Decodes dv against t; an absent dv leaves *out the zero Value. */
static bool dv_in(ProvCall *c, const Tfplugin6__DynamicValue *dv,
                  const Type *t, Value *out, const char *what)
{
  memset(out, 0, sizeof *out);
  if (!dv)
    return true;
  const char *summary = arena_printf(c->arena, "Invalid %s from provider",
                                     what);
  if (dv->msgpack.len)
    return msgpack_decode(c->arena, dv->msgpack.data, dv->msgpack.len, t,
                          out, c->diags, summary);
  if (dv->json.len)
    return json_decode_typed(c->arena, (const char *)dv->json.data,
                             dv->json.len, t, out, c->diags, NULL);
  return true;
}

static ValPath path_in(Arena *a, const Tfplugin6__AttributePath *ap)
{
  ValPath vp = {NULL, 0};
  if (!ap || !ap->n_steps)
    return vp;
  PathStep *st = ARENA_NEW(a, PathStep, ap->n_steps);
  uint32_t k = 0;
  for (size_t i = 0; i < ap->n_steps; i++) {
    const Tfplugin6__AttributePath__Step *s = ap->steps[i];
    switch (s->selector_case) {
    case TFPLUGIN6__ATTRIBUTE_PATH__STEP__SELECTOR_ATTRIBUTE_NAME:
      st[k].kind = PS_ATTR;
      st[k++].name = s->attribute_name;
      break;
    case TFPLUGIN6__ATTRIBUTE_PATH__STEP__SELECTOR_ELEMENT_KEY_STRING:
      st[k].kind = PS_KEY;
      st[k++].name = s->element_key_string;
      break;
    case TFPLUGIN6__ATTRIBUTE_PATH__STEP__SELECTOR_ELEMENT_KEY_INT:
      st[k].kind = PS_INDEX;
      st[k++].index = s->element_key_int;
      break;
    default:
      break;
    }
  }
  vp.steps = st;
  vp.n = k;
  return vp;
}

static void diags_in(ProvCall *c, size_t n, Tfplugin6__Diagnostic **ds)
{
  for (size_t i = 0; i < n; i++) {
    const Tfplugin6__Diagnostic *g = ds[i];
    DiagSeverity sev = g->severity == TFPLUGIN6__DIAGNOSTIC__SEVERITY__WARNING
                           ? DIAG_WARNING : DIAG_ERROR;
    const char *sum = arena_strdup(c->arena, g->summary);
    bool has_detail = g->detail && *g->detail;
    ValPath vp = path_in(c->arena, g->attribute);
    if (vp.n)
      prov_diag_attr(c, sev, vp, sum, "%s", has_detail ? g->detail : "");
    else if (has_detail)
      diag_add(c->diags, sev, NULL, sum, "%s", g->detail);
    else
      diag_add(c->diags, sev, NULL, sum, NULL);
  }
}

static ProvBytes bytes_in(ProtobufCBinaryData b)
{
  ProvBytes o = {b.len ? b.data : NULL, b.len};
  return o;
}

static ProtobufCBinaryData bytes_out(ProvBytes b)
{
  ProtobufCBinaryData o = {b.n, (uint8_t *)b.p};
  return o;
}

/* ---- schema ----------------------------------------------------------- */

typedef struct SD {
  Arena *a;
  Diags *d;
  const char *addr;
  bool ok;
} SD;

static const ProvBlockSchema *sd_block(SD *s, const Tfplugin6__Schema__Block
                                                  *b, int depth);

static void sd_attrs(SD *s, size_t n, Tfplugin6__Schema__Attribute **in,
                     const ProvAttrSchema **out, uint32_t *nout, int depth)
{
  ProvAttrSchema *as = ARENA_NEW(s->a, ProvAttrSchema, n + 1);
  for (size_t i = 0; i < n; i++) {
    const Tfplugin6__Schema__Attribute *a = in[i];
    ProvAttrSchema *at = &as[i];
    at->name = a->name;
    if (a->nested_type && depth < 32) {
      ProvObjectSchema *o = ARENA_NEW(s->a, ProvObjectSchema, 1);
      o->nesting = (ProvNesting)a->nested_type->nesting;
      if (o->nesting < PROV_NEST_SINGLE || o->nesting > PROV_NEST_MAP) {
        s->ok = false;
        diag_error(s->d, NULL, "Invalid provider schema",
                   "The provider %s gave the nested attribute \"%s\" an "
                   "invalid nesting mode.",
                   s->addr, a->name);
      }
      sd_attrs(s, a->nested_type->n_attributes, a->nested_type->attributes,
               &o->attrs, &o->nattrs, depth + 1);
      at->nested = o;
    } else if (!json_parse_type(s->a, (const char *)a->type.data, a->type.len,
                                &at->type, s->d, NULL)) {
      s->ok = false;
      diag_error(s->d, NULL, "Invalid provider schema",
                 "The provider %s gave the attribute \"%s\" a type that is "
                 "not valid cty type JSON.",
                 s->addr, a->name);
      at->type = &ty_dynamic;
    }
    at->flags = (a->required ? PROV_REQUIRED : 0) |
                (a->optional ? PROV_OPTIONAL : 0) |
                (a->computed ? PROV_COMPUTED : 0) |
                (a->sensitive ? PROV_SENSITIVE : 0) |
                (a->deprecated ? PROV_DEPRECATED : 0);
    at->description = *a->description ? a->description : NULL;
  }
  *out = as;
  *nout = (uint32_t)n;
}

static const ProvBlockSchema *sd_block(SD *s, const Tfplugin6__Schema__Block
                                                  *b, int depth)
{
  ProvBlockSchema *o = ARENA_NEW(s->a, ProvBlockSchema, 1);
  if (!b)
    return o;   /* an empty block */
  sd_attrs(s, b->n_attributes, b->attributes, &o->attrs, &o->nattrs, depth);
  ProvNestedBlock *nb = ARENA_NEW(s->a, ProvNestedBlock, b->n_block_types + 1);
  for (size_t i = 0; i < b->n_block_types && depth < 32; i++) {
    const Tfplugin6__Schema__NestedBlock *x = b->block_types[i];
    nb[i].type_name = x->type_name;
    nb[i].nesting = (ProvNesting)x->nesting;
    if (nb[i].nesting < PROV_NEST_SINGLE || nb[i].nesting > PROV_NEST_GROUP) {
      s->ok = false;
      diag_error(s->d, NULL, "Invalid provider schema",
                 "The provider %s gave the block \"%s\" an invalid nesting "
                 "mode.",
                 s->addr, x->type_name);
    }
    nb[i].block = sd_block(s, x->block, depth + 1);
    nb[i].min_items = x->min_items > 0 ? (uint32_t)x->min_items : 0;
    nb[i].max_items = x->max_items > 0 ? (uint32_t)x->max_items : 0;
  }
  o->blocks = nb;
  o->nblocks = (uint32_t)b->n_block_types;
  o->description = *b->description ? b->description : NULL;
  o->deprecated = b->deprecated;
  return o;
}

static void sd_schema(SD *s, const Tfplugin6__Schema *in, ProvSchema *out)
{
  out->version = in ? in->version : 0;
  out->block = sd_block(s, in ? in->block : NULL, 0);
}

static const ProvProviderSchema *fetch_schema(Prov *p, ProvCall *c)
{
  Tfplugin6__GetProviderSchema__Request req =
      TFPLUGIN6__GET_PROVIDER_SCHEMA__REQUEST__INIT;
  /* Unpacked into the instance arena: the schema keeps its strings. */
  Tfplugin6__GetProviderSchema__Response *r =
      rpc(p, c, M_SCHEMA, &req.base,
          &tfplugin6__get_provider_schema__response__descriptor, p->arena);
  if (!r)
    return NULL;
  size_t errs = 0;
  for (size_t i = 0; i < r->n_diagnostics; i++)
    if (r->diagnostics[i]->severity !=
        TFPLUGIN6__DIAGNOSTIC__SEVERITY__WARNING)
      errs++;
  diags_in(c, r->n_diagnostics, r->diagnostics);
  if (errs)
    return NULL;
  SD s = {p->arena, c->diags, p->addr, true};
  ProvProviderSchema *ps = ARENA_NEW(p->arena, ProvProviderSchema, 1);
  sd_schema(&s, r->provider, &ps->provider);
  ProvTypeSchema *rs = ARENA_NEW(p->arena, ProvTypeSchema,
                                 r->n_resource_schemas + 1);
  for (size_t i = 0; i < r->n_resource_schemas; i++) {
    rs[i].type_name = r->resource_schemas[i]->key;
    sd_schema(&s, r->resource_schemas[i]->value, &rs[i].schema);
  }
  ProvTypeSchema *ds = ARENA_NEW(p->arena, ProvTypeSchema,
                                 r->n_data_source_schemas + 1);
  for (size_t i = 0; i < r->n_data_source_schemas; i++) {
    ds[i].type_name = r->data_source_schemas[i]->key;
    sd_schema(&s, r->data_source_schemas[i]->value, &ds[i].schema);
  }
  ps->resources = rs;
  ps->nresources = (uint32_t)r->n_resource_schemas;
  ps->data_sources = ds;
  ps->ndata_sources = (uint32_t)r->n_data_source_schemas;
  ps->plan_destroy =
      r->server_capabilities && r->server_capabilities->plan_destroy;
  if (!s.ok)
    return NULL;
  prov_schema_prepare(p->arena, ps);
  return ps;
}

static const ProvProviderSchema *ensure_schema(Prov *p, ProvCall *c)
{
  Pplugin *h = impl(p);
  pthread_mutex_lock(&h->smu);
  if (!h->schema)
    h->schema = fetch_schema(p, c);
  const ProvProviderSchema *got = h->schema;
  pthread_mutex_unlock(&h->smu);
  return got;
}

static const ProvBlockSchema *type_block(Prov *p, ProvCall *c,
                                         const char *type_name, bool data)
{
  const ProvProviderSchema *s = ensure_schema(p, c);
  if (!s)
    return NULL;
  const ProvTypeSchema *ts = data ? prov_schema_data_source(s, type_name)
                                  : prov_schema_resource(s, type_name);
  if (!ts) {
    diag_error(c->diags, NULL,
               data ? "Invalid data source type" : "Invalid resource type",
               "The provider %s does not support %s type \"%s\".", p->addr,
               data ? "data source" : "resource", type_name);
    return NULL;
  }
  return ts->schema.block;
}

/* ---- ProvOps ------------------------------------------------------------ */

static void g_get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  *out = ensure_schema(p, c);
}

static void g_validate_provider(Prov *p, ProvCall *c, Value config)
{
  const ProvProviderSchema *s = ensure_schema(p, c);
  if (!s)
    return;
  bool ok = true;
  Tfplugin6__ValidateProviderConfig__Request req =
      TFPLUGIN6__VALIDATE_PROVIDER_CONFIG__REQUEST__INIT;
  req.config = dv_out(c, config, s->provider.block->implied, &ok);
  if (!ok)
    return;
  Tfplugin6__ValidateProviderConfig__Response *r =
      rpc(p, c, M_VALIDATE_PROVIDER, &req.base,
          &tfplugin6__validate_provider_config__response__descriptor,
          c->arena);
  if (r)
    diags_in(c, r->n_diagnostics, r->diagnostics);
}

static void g_validate_resource(Prov *p, ProvCall *c, const char *type_name,
                                Value config)
{
  const ProvBlockSchema *b = type_block(p, c, type_name, false);
  if (!b)
    return;
  bool ok = true;
  Tfplugin6__ValidateResourceConfig__Request req =
      TFPLUGIN6__VALIDATE_RESOURCE_CONFIG__REQUEST__INIT;
  req.type_name = (char *)type_name;
  req.config = dv_out(c, config, b->implied, &ok);
  if (!ok)
    return;
  Tfplugin6__ValidateResourceConfig__Response *r =
      rpc(p, c, M_VALIDATE_RESOURCE, &req.base,
          &tfplugin6__validate_resource_config__response__descriptor,
          c->arena);
  if (r)
    diags_in(c, r->n_diagnostics, r->diagnostics);
}

static void g_validate_data(Prov *p, ProvCall *c, const char *type_name,
                            Value config)
{
  const ProvBlockSchema *b = type_block(p, c, type_name, true);
  if (!b)
    return;
  bool ok = true;
  Tfplugin6__ValidateDataResourceConfig__Request req =
      TFPLUGIN6__VALIDATE_DATA_RESOURCE_CONFIG__REQUEST__INIT;
  req.type_name = (char *)type_name;
  req.config = dv_out(c, config, b->implied, &ok);
  if (!ok)
    return;
  Tfplugin6__ValidateDataResourceConfig__Response *r =
      rpc(p, c, M_VALIDATE_DATA, &req.base,
          &tfplugin6__validate_data_resource_config__response__descriptor,
          c->arena);
  if (r)
    diags_in(c, r->n_diagnostics, r->diagnostics);
}

static void g_upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                      ProvUpgradeResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, false);
  if (!b)
    return;
  Tfplugin6__RawState raw = TFPLUGIN6__RAW_STATE__INIT;
  raw.json.data = (uint8_t *)req->raw_json;
  raw.json.len = req->raw_json ? req->raw_len : 0;
  Tfplugin6__UpgradeResourceState__Request q =
      TFPLUGIN6__UPGRADE_RESOURCE_STATE__REQUEST__INIT;
  q.type_name = (char *)req->type_name;
  q.version = req->version;
  q.raw_state = &raw;
  Tfplugin6__UpgradeResourceState__Response *r =
      rpc(p, c, M_UPGRADE, &q.base,
          &tfplugin6__upgrade_resource_state__response__descriptor,
          c->arena);
  if (!r)
    return;
  diags_in(c, r->n_diagnostics, r->diagnostics);
  dv_in(c, r->upgraded_state, b->implied, &resp->upgraded_state,
        "upgraded state");
}

static void g_configure(Prov *p, ProvCall *c, const ProvConfigureReq *req)
{
  const ProvProviderSchema *s = ensure_schema(p, c);
  if (!s)
    return;
  bool ok = true;
  Tfplugin6__ConfigureProvider__Request q =
      TFPLUGIN6__CONFIGURE_PROVIDER__REQUEST__INIT;
  q.terraform_version =
      (char *)(req->terraform_version ? req->terraform_version : "");
  q.config = dv_out(c, req->config, s->provider.block->implied, &ok);
  if (!ok)
    return;
  Tfplugin6__ConfigureProvider__Response *r =
      rpc(p, c, M_CONFIGURE, &q.base,
          &tfplugin6__configure_provider__response__descriptor, c->arena);
  if (r)
    diags_in(c, r->n_diagnostics, r->diagnostics);
}

static void g_read(Prov *p, ProvCall *c, const ProvReadReq *req,
                   ProvReadResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, false);
  if (!b)
    return;
  bool ok = true;
  Tfplugin6__ReadResource__Request q =
      TFPLUGIN6__READ_RESOURCE__REQUEST__INIT;
  q.type_name = (char *)req->type_name;
  q.current_state = dv_out(c, req->current_state, b->implied, &ok);
  q.private_ = bytes_out(req->private_data);
  if (!ok)
    return;
  Tfplugin6__ReadResource__Response *r =
      rpc(p, c, M_READ, &q.base,
          &tfplugin6__read_resource__response__descriptor, c->arena);
  if (!r)
    return;
  diags_in(c, r->n_diagnostics, r->diagnostics);
  if (deferred(p, c, &r->base, DEFERRED_READ, M_READ))
    return;
  dv_in(c, r->new_state, b->implied, &resp->new_state, "new state");
  resp->private_data = bytes_in(r->private_);
}

static void g_plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                   ProvPlanResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, false);
  if (!b)
    return;
  bool ok = true;
  Tfplugin6__PlanResourceChange__Request q =
      TFPLUGIN6__PLAN_RESOURCE_CHANGE__REQUEST__INIT;
  q.type_name = (char *)req->type_name;
  q.prior_state = dv_out(c, req->prior_state, b->implied, &ok);
  q.proposed_new_state = dv_out(c, req->proposed_new_state, b->implied, &ok);
  q.config = dv_out(c, req->config, b->implied, &ok);
  q.prior_private = bytes_out(req->prior_private);
  if (!ok)
    return;
  Tfplugin6__PlanResourceChange__Response *r =
      rpc(p, c, M_PLAN, &q.base,
          &tfplugin6__plan_resource_change__response__descriptor, c->arena);
  if (!r)
    return;
  diags_in(c, r->n_diagnostics, r->diagnostics);
  if (deferred(p, c, &r->base, DEFERRED_PLAN, M_PLAN))
    return;
  dv_in(c, r->planned_state, b->implied, &resp->planned_state,
        "planned state");
  ValPath *rr = ARENA_NEW(c->arena, ValPath, r->n_requires_replace + 1);
  for (size_t i = 0; i < r->n_requires_replace; i++)
    rr[i] = path_in(c->arena, r->requires_replace[i]);
  resp->requires_replace = rr;
  resp->nrequires_replace = (uint32_t)r->n_requires_replace;
  resp->planned_private = bytes_in(r->planned_private);
  resp->legacy_type_system = r->legacy_type_system;
}

static void g_apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                    ProvApplyResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, false);
  if (!b)
    return;
  bool ok = true;
  Tfplugin6__ApplyResourceChange__Request q =
      TFPLUGIN6__APPLY_RESOURCE_CHANGE__REQUEST__INIT;
  q.type_name = (char *)req->type_name;
  q.prior_state = dv_out(c, req->prior_state, b->implied, &ok);
  q.planned_state = dv_out(c, req->planned_state, b->implied, &ok);
  q.config = dv_out(c, req->config, b->implied, &ok);
  q.planned_private = bytes_out(req->planned_private);
  if (!ok)
    return;
  Tfplugin6__ApplyResourceChange__Response *r =
      rpc(p, c, M_APPLY, &q.base,
          &tfplugin6__apply_resource_change__response__descriptor, c->arena);
  if (!r)
    return;
  diags_in(c, r->n_diagnostics, r->diagnostics);
  dv_in(c, r->new_state, b->implied, &resp->new_state, "new state");
  resp->private_data = bytes_in(r->private_);
  resp->legacy_type_system = r->legacy_type_system;
}

static void g_import(Prov *p, ProvCall *c, const ProvImportReq *req,
                     ProvImportResp *resp)
{
  memset(resp, 0, sizeof *resp);
  if (!type_block(p, c, req->type_name, false))
    return;
  Tfplugin6__ImportResourceState__Request q =
      TFPLUGIN6__IMPORT_RESOURCE_STATE__REQUEST__INIT;
  q.type_name = (char *)req->type_name;
  q.id = (char *)req->id;
  Tfplugin6__ImportResourceState__Response *r =
      rpc(p, c, M_IMPORT, &q.base,
          &tfplugin6__import_resource_state__response__descriptor, c->arena);
  if (!r)
    return;
  diags_in(c, r->n_diagnostics, r->diagnostics);
  if (deferred(p, c, &r->base, DEFERRED_IMPORT, M_IMPORT))
    return;
  ProvImported *im = ARENA_NEW(c->arena, ProvImported,
                               r->n_imported_resources + 1);
  uint32_t k = 0;
  for (size_t i = 0; i < r->n_imported_resources; i++) {
    const Tfplugin6__ImportResourceState__ImportedResource *x =
        r->imported_resources[i];
    const ProvBlockSchema *b = type_block(p, c, x->type_name, false);
    if (!b)
      continue;
    im[k].type_name = x->type_name;
    if (!dv_in(c, x->state, b->implied, &im[k].state, "imported state"))
      continue;
    im[k].private_data = bytes_in(x->private_);
    k++;
  }
  resp->imported = im;
  resp->nimported = k;
}

static void g_read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                        ProvReadDataResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, true);
  if (!b)
    return;
  bool ok = true;
  Tfplugin6__ReadDataSource__Request q =
      TFPLUGIN6__READ_DATA_SOURCE__REQUEST__INIT;
  q.type_name = (char *)req->type_name;
  q.config = dv_out(c, req->config, b->implied, &ok);
  if (!ok)
    return;
  Tfplugin6__ReadDataSource__Response *r =
      rpc(p, c, M_READ_DATA, &q.base,
          &tfplugin6__read_data_source__response__descriptor, c->arena);
  if (!r)
    return;
  diags_in(c, r->n_diagnostics, r->diagnostics);
  if (deferred(p, c, &r->base, DEFERRED_READ_DATA, M_READ_DATA))
    return;
  dv_in(c, r->state, b->implied, &resp->state, "data source state");
}

static const char *g_stop(Prov *p, ProvCall *c)
{
  atomic_store(&p->stopping, true);
  Pplugin *h = impl(p);
  pthread_mutex_lock(&h->mu);
  bool up = h->proc != NULL;
  pthread_mutex_unlock(&h->mu);
  if (!up)
    return NULL;
  Tfplugin6__StopProvider__Request q = TFPLUGIN6__STOP_PROVIDER__REQUEST__INIT;
  Diags tmp;
  diag_init(&tmp, c->arena);
  ProvCall c2 = {c->arena, &tmp, NULL};
  Tfplugin6__StopProvider__Response *r =
      rpc(p, &c2, M_STOP, &q.base,
          &tfplugin6__stop_provider__response__descriptor, c->arena);
  if (!r)
    return "the plugin did not answer the Stop call";
  return *r->error ? arena_strdup(c->arena, r->error) : NULL;
}

static void g_close(Prov *p)
{
  Pplugin *h = impl(p);
  pthread_mutex_lock(&h->mu);
  PluginProc *pp = h->proc;
  h->proc = NULL;
  pthread_mutex_unlock(&h->mu);
  if (pp) {
    /* go-plugin's controller: an empty message asks the plugin to exit. */
    Arena a;
    arena_init(&a, 4096);
    GrpcTarget t = h->target;
    GrpcResult r;
    grpc_call(&t, "/plugin.GRPCController/Shutdown", NULL, 0, 2000, &a, &r);
    plugin_stop(pp, 2000);
    arena_release(&a);
  }
  pthread_mutex_destroy(&h->mu);
  pthread_mutex_destroy(&h->smu);
}

static const ProvOps pplugin_ops = {
    g_get_schema, g_validate_provider, g_validate_resource, g_validate_data,
    g_upgrade,    g_configure,         g_read,              g_plan,
    g_apply,      g_import,            g_read_data,         g_stop,
    g_close};
