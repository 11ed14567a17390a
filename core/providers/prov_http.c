/*
** prov_http: the built-in hashicorp/http provider.
**
** data "http" with the upstream provider's current schema, validators and
** messages.  The request itself goes through the fetcher the CLI
** registers (prov_http_set_fetcher; net/fetch.c), because core/ may not
** include net/ (scripts/check-style); this file checks the configuration,
** builds the request, and turns the answer into the state and upstream's
** diagnostics.
**
** Upstream's rules kept: no status is an error by itself (users write
** postconditions), except what go-retryablehttp gives up on (429 and 5xx
** but 501, after the retries: "giving up after N attempt(s)"); a body
** that is not UTF-8 is a warning; `body` is the deprecated copy of
** `response_body`; `sensitive_response_body` is set only with
** response_is_sensitive.
*/
#include "provider.h"

#include <stdatomic.h>
#include <string.h>

#define NATTRS(x) ((uint32_t)(sizeof(x) / sizeof((x)[0])))

static const Type map_string = {.kind = TY_MAP, .elem = &ty_string};

static const ProvAttrSchema retry_attrs[] = {
  {.name = "attempts", .type = &ty_number, .flags = PROV_OPTIONAL,
   .description = "The number of times the request is to be retried. For "
                  "example, if 2 is specified, the request will be tried a "
                  "maximum of 3 times."},
  {.name = "min_delay_ms", .type = &ty_number, .flags = PROV_OPTIONAL,
   .description = "The minimum delay between retry requests in "
                  "milliseconds."},
  {.name = "max_delay_ms", .type = &ty_number, .flags = PROV_OPTIONAL,
   .description = "The maximum delay between retry requests in "
                  "milliseconds."},
};
static const ProvBlockSchema retry_block = {
  .attrs = retry_attrs, .nattrs = NATTRS(retry_attrs),
  .description = "Retry request configuration. By default there are no "
                 "retries."};
static const ProvNestedBlock http_blocks[] = {
  {"retry", PROV_NEST_SINGLE, &retry_block, 0, 1},
};

static const ProvAttrSchema http_attrs[] = {
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "The URL used for the request."},
  {.name = "url", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "The URL for the request. Supported schemes are `http` "
                  "and `https`."},
  {.name = "method", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "The HTTP Method for the request. Allowed methods are a "
                  "subset of methods defined in RFC7231 namely, `GET`, "
                  "`HEAD`, and `POST`. `POST` support is only intended for "
                  "read-only URLs, such as submitting a search."},
  {.name = "request_headers", .type = &map_string, .flags = PROV_OPTIONAL,
   .description = "A map of request header field names and values."},
  {.name = "request_body", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "The request body as a string."},
  {.name = "request_timeout_ms", .type = &ty_number, .flags = PROV_OPTIONAL,
   .description = "The request timeout in milliseconds."},
  {.name = "response_is_sensitive", .type = &ty_bool,
   .flags = PROV_OPTIONAL,
   .description = "Mark the response data as sensitive. When true, the "
                  "response body is also available in "
                  "`sensitive_response_body` which is marked as sensitive "
                  "in the Terraform state."},
  {.name = "sensitive_response_body", .type = &ty_string,
   .flags = PROV_COMPUTED | PROV_SENSITIVE,
   .description = "The response body returned as a sensitive string. "
                  "Populated when `response_is_sensitive` is set to "
                  "`true`."},
  {.name = "response_body", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "The response body returned as a string."},
  {.name = "body", .type = &ty_string,
   .flags = PROV_COMPUTED | PROV_DEPRECATED,
   .description = "The response body returned as a string. **NOTE**: This "
                  "is deprecated, use `response_body` instead.",
   .deprecation_message = "Use response_body instead"},
  {.name = "response_body_base64", .type = &ty_string,
   .flags = PROV_COMPUTED,
   .description = "The response body encoded as base64 (standard) as "
                  "defined in RFC 4648."},
  {.name = "ca_cert_pem", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Certificate Authority (CA) in PEM (RFC 1421) format."},
  {.name = "client_cert_pem", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Client certificate in PEM (RFC 1421) format."},
  {.name = "client_key_pem", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Client key in PEM (RFC 1421) format."},
  {.name = "insecure", .type = &ty_bool, .flags = PROV_OPTIONAL,
   .description = "Disables verification of the server's certificate "
                  "chain and hostname. Defaults to `false`"},
  {.name = "response_headers", .type = &map_string, .flags = PROV_COMPUTED,
   .description = "A map of response header field names and values. "
                  "Duplicate headers are concatenated according to "
                  "RFC2616."},
  {.name = "status_code", .type = &ty_number, .flags = PROV_COMPUTED,
   .description = "The HTTP response status code."},
};
static const ProvBlockSchema http_block = {
  .attrs = http_attrs, .nattrs = NATTRS(http_attrs),
  .blocks = http_blocks, .nblocks = NATTRS(http_blocks),
  .description = "The `http` data source makes an HTTP GET request to the "
                 "given URL and exports information about the response."};
static const ProvBlockSchema empty_block = {0};

static const ProvTypeSchema data_sources[] = {
  {"http", {0, &http_block}},
};
static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .data_sources = data_sources, .ndata_sources = NATTRS(data_sources),
  .plan_destroy = true,
};

static _Atomic(ProvHttpFetchFn) fetcher;

void prov_http_set_fetcher(ProvHttpFetchFn fn)
{
  atomic_store(&fetcher, fn);
}

static void open_http(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = p->impl;
}

/* ---- Validation ---------------------------------------------------------- */

static bool set_known(Value v)
{
  return v.type && !val_is_null(v) && val_is_known(v);
}

static ValPath retry_path(Arena *a, const char *name)
{
  PathStep *s = ARENA_NEW(a, PathStep, 2);
  s[0] = (PathStep){.kind = PS_ATTR, .name = "retry"};
  s[1] = (PathStep){.kind = PS_ATTR, .name = name};
  return (ValPath){s, 2};
}

/* int64validator.AtLeast(min). */
static void at_least(ProvCall *c, Value v, ValPath path, const char *shown,
                     int64_t min)
{
  int64_t n;
  if (!set_known(v) || !val_num_int(v, &n) || n >= min)
    return;
  prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Value",
                 "Attribute %s value must be at least %lld, got: %lld",
                 shown, (long long)min, (long long)n);
}

static void validate_data(Prov *p, ProvCall *c, const char *type_name,
                          Value cfg)
{
  (void)p;
  (void)type_name;
  Arena *a = c->arena;
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  Value m = prov_get(cfg, "method");
  if (set_known(m) && strcmp(m.u.s, "GET") != 0 &&
      strcmp(m.u.s, "POST") != 0 && strcmp(m.u.s, "HEAD") != 0) {
    Buf q;
    buf_init(&q, a);
    /* The validator prints the value with %q: Go-quoted. */
    for (uint32_t i = 0; i < m.len; i++) {
      unsigned char ch = (unsigned char)m.u.s[i];
      if (ch == '"' || ch == '\\')
        buf_printf(&q, "\\%c", ch);
      else if (ch < 0x20 || ch == 0x7f)
        buf_printf(&q, "\\x%02x", ch);
      else
        buf_put(&q, (const char *)&ch, 1);
    }
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "method"),
                   "Invalid Attribute Value Match",
                   "Attribute method value must be one of: [\"GET\" "
                   "\"POST\" \"HEAD\"], got: \"%s\"", buf_str(&q));
  }
  at_least(c, prov_get(cfg, "request_timeout_ms"),
           prov_path_attr(a, "request_timeout_ms"), "request_timeout_ms", 1);
  /* ConflictsWith / AlsoRequires look at null-ness only (a known false
  ** `insecure` still conflicts). */
  if (!val_is_null(prov_get(cfg, "ca_cert_pem")) &&
      !val_is_null(prov_get(cfg, "insecure")))
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "ca_cert_pem"),
                   "Invalid Attribute Combination",
                   "Attribute \"insecure\" cannot be specified when "
                   "\"ca_cert_pem\" is specified");
  bool cert = !val_is_null(prov_get(cfg, "client_cert_pem"));
  bool key = !val_is_null(prov_get(cfg, "client_key_pem"));
  if (cert && !key)
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "client_cert_pem"),
                   "Invalid Attribute Combination",
                   "Attribute \"client_key_pem\" must be specified when "
                   "\"client_cert_pem\" is specified");
  if (key && !cert)
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "client_key_pem"),
                   "Invalid Attribute Combination",
                   "Attribute \"client_cert_pem\" must be specified when "
                   "\"client_key_pem\" is specified");
  Value r = prov_get(cfg, "retry");
  if (!set_known(r))
    return;
  at_least(c, prov_get(r, "attempts"), retry_path(a, "attempts"),
           "retry.attempts", 0);
  at_least(c, prov_get(r, "min_delay_ms"), retry_path(a, "min_delay_ms"),
           "retry.min_delay_ms", 0);
  Value mx = prov_get(r, "max_delay_ms"), mn = prov_get(r, "min_delay_ms");
  at_least(c, mx, retry_path(a, "max_delay_ms"), "retry.max_delay_ms", 0);
  int64_t x, y;
  if (set_known(mx) && val_num_int(mx, &x) && set_known(mn) &&
      val_num_int(mn, &y) && x < y)
    prov_diag_attr(c, DIAG_ERROR, retry_path(a, "max_delay_ms"),
                   "Invalid Attribute Value",
                   "Attribute retry.max_delay_ms value must be at least sum "
                   "of <.min_delay_ms, got: %lld", (long long)x);
}

/* ---- Read ---------------------------------------------------------------- */

/* utf8.Valid. */
static bool utf8_valid(const unsigned char *s, size_t n)
{
  size_t i = 0;
  while (i < n) {
    unsigned char c0 = s[i];
    if (c0 < 0x80) {
      i++;
      continue;
    }
    size_t len;
    uint32_t cp, min;
    if (c0 >= 0xc2 && c0 <= 0xdf) {
      len = 2, cp = c0 & 0x1f, min = 0x80;
    } else if (c0 >= 0xe0 && c0 <= 0xef) {
      len = 3, cp = c0 & 0x0f, min = 0x800;
    } else if (c0 >= 0xf0 && c0 <= 0xf4) {
      len = 4, cp = c0 & 0x07, min = 0x10000;
    } else {
      return false;
    }
    if (n - i < len)
      return false;
    for (size_t k = 1; k < len; k++) {
      if ((s[i + k] & 0xc0) != 0x80)
        return false;
      cp = (cp << 6) | (s[i + k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return false;
    i += len;
  }
  return true;
}

static int64_t int_or(Value v, int64_t dflt)
{
  int64_t n;
  return set_known(v) && val_num_int(v, &n) ? n : dflt;
}

static void read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                      ProvReadDataResp *resp)
{
  Arena *a = c->arena;
  Value cfg = req->config;
  ProvHttpFetchFn fn = atomic_load(&fetcher);
  if (!fn) {
    diag_error(c->diags, NULL, "Error making request",
               "This build of cairn has no HTTP client for the http data "
               "source.");
    return;
  }
  ProvHttpReq rq = {0};
  Value url = prov_get(cfg, "url");
  rq.url = set_known(url) ? url.u.s : "";
  Value m = prov_get(cfg, "method");
  rq.method = set_known(m) && m.len > 0 ? m.u.s : "GET";
  Value hs = prov_get(cfg, "request_headers");
  if (set_known(hs) && hs.len > 0) {
    const char **names = ARENA_NEW(a, const char *, hs.len);
    const char **vals = ARENA_NEW(a, const char *, hs.len);
    for (uint32_t i = 0; i < hs.len; i++) {
      const MapEntry *e = &hs.u.entries[i];
      names[i] = arena_strndup(a, e->key, e->keylen);
      vals[i] = set_known(e->val) ? e->val.u.s : "";
    }
    rq.header_names = names;
    rq.header_values = vals;
    rq.nheaders = hs.len;
  }
  Value body = prov_get(cfg, "request_body");
  if (set_known(body)) {
    rq.body = body.u.s;
    rq.body_len = body.len;
  }
  rq.timeout_ms = int_or(prov_get(cfg, "request_timeout_ms"), 0);
  Value r = prov_get(cfg, "retry");
  /* go-retryablehttp's defaults: 1 s and 30 s. */
  rq.retry_min_ms = 1000;
  rq.retry_max_ms = 30000;
  if (set_known(r)) {
    rq.retry_max = int_or(prov_get(r, "attempts"), 0);
    rq.retry_min_ms = int_or(prov_get(r, "min_delay_ms"), 1000);
    rq.retry_max_ms = int_or(prov_get(r, "max_delay_ms"), 30000);
  }
  Value ca = prov_get(cfg, "ca_cert_pem");
  rq.ca_pem = set_known(ca) ? ca.u.s : NULL;
  Value cc = prov_get(cfg, "client_cert_pem");
  Value ck = prov_get(cfg, "client_key_pem");
  if (set_known(cc) && set_known(ck)) {
    rq.client_cert_pem = cc.u.s;
    rq.client_key_pem = ck.u.s;
  }
  Value ins = prov_get(cfg, "insecure");
  rq.insecure = set_known(ins) && ins.u.b;
  rq.stopping = &p->stopping;

  ProvHttpResp rs = {0};
  fn(a, &rq, &rs);
  switch (rs.fail) {
  case PROV_HTTP_OK:
    break;
  case PROV_HTTP_FAIL_CA:
    diag_error(c->diags, NULL, "Error configuring TLS client",
               "Error tls: Can't add the CA certificate to certificate "
               "pool. Only PEM encoded certificates are supported.");
    return;
  case PROV_HTTP_FAIL_KEYPAIR:
    diag_error(c->diags, NULL, "error creating x509 key pair",
               "error creating x509 key pair from provided pem blocks\n\n"
               "Error: %s", rs.err);
    return;
  case PROV_HTTP_FAIL_REQUEST:
    diag_error(c->diags, NULL, "Error creating request",
               "Error creating request: %s", rs.err);
    return;
  case PROV_HTTP_FAIL_TIMEOUT:
    diag_error(c->diags, NULL, "Error making request", "%s", rs.err);
    return;
  case PROV_HTTP_FAIL_DO:
  default:
    diag_error(c->diags, NULL, "Error making request",
               "Error making request: %s", rs.err);
    return;
  }
  if (!utf8_valid((const unsigned char *)rs.body, rs.len))
    diag_warning(c->diags, NULL, "Response body is not recognized as UTF-8",
                 "Terraform may not properly handle the response_body if "
                 "the contents are binary.");
  MapEntry *me = ARENA_NEW(a, MapEntry, rs.nheaders + 1);
  for (uint32_t i = 0; i < rs.nheaders; i++) {
    me[i].key = rs.header_names[i];
    me[i].keylen = (uint32_t)strlen(rs.header_names[i]);
    me[i].val = val_cstr(a, rs.header_values[i]);
  }
  Value st = cfg;
  Value bodyv = val_str(a, rs.body, rs.len);
  st = prov_set(a, st, "id", val_cstr(a, rq.url));
  st = prov_set(a, st, "response_headers",
                val_map(a, &ty_string, me, rs.nheaders));
  st = prov_set(a, st, "response_body", bodyv);
  st = prov_set(a, st, "body", bodyv);
  st = prov_set(a, st, "response_body_base64",
                val_cstr(a, prov_base64_encode(a, rs.body, rs.len, false,
                                               true)));
  st = prov_set(a, st, "status_code", val_int(rs.status));
  Value sens = prov_get(cfg, "response_is_sensitive");
  if (set_known(sens) && sens.u.b)
    st = prov_set(a, st, "sensitive_response_body", bodyv);
  resp->state = st;
}

/* ---- No resources ---------------------------------------------------------- */

static void no_resources(ProvCall *c, const char *type_name)
{
  diag_error(c->diags, NULL, "Unsupported resource type",
             "The provider has no resource type \"%s\".", type_name);
}

static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  (void)p;
  (void)resp;
  no_resources(c, req->type_name);
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  (void)p;
  (void)resp;
  no_resources(c, req->type_name);
}

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  (void)p;
  (void)resp;
  no_resources(c, req->type_name);
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  (void)p;
  (void)resp;
  no_resources(c, req->type_name);
}

static const ProvOps ops = {
  .get_schema = get_schema,
  .validate_provider_config = prov_default_validate,
  .validate_resource_config = prov_default_validate_type,
  .validate_data_resource_config = validate_data,
  .upgrade_resource_state = upgrade,
  .configure = prov_default_configure,
  .read_resource = read_resource,
  .plan_resource_change = plan,
  .apply_resource_change = apply,
  .import_resource_state = prov_default_import,
  .read_data_source = read_data,
  .stop = prov_default_stop,
  .close = prov_default_close,
};

const ProvBuiltin prov_http_builtin = {
  .addr = "registry.terraform.io/hashicorp/http",
  .type = "http",
  .ops = &ops,
  .open = open_http,
};
