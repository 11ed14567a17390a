/*
** prov_external: the built-in hashicorp/external provider.
**
** data "external" with the upstream provider's schema and messages: the
** first non-empty element of `program` is looked up like exec.LookPath,
** the program runs without a shell in `working_dir` with `query` as a
** JSON object on stdin, and must print a JSON object of strings.  A
** non-zero exit is an error carrying the program's stderr.  StopProvider
** (an interrupt) kills a program that has not finished.
**
** Differs from upstream (docs/providers.md): the "Result Error" text for
** output that is not an object of strings is cairn's JSON parser's or a
** short Go-like message, not encoding/json's exact wording.
*/
#include "base/json.h"
#include "provider.h"

#include <string.h>

static const Type map_string = {.kind = TY_MAP, .elem = &ty_string};
static const Type list_string = {.kind = TY_LIST, .elem = &ty_string};

#define NATTRS(x) ((uint32_t)(sizeof(x) / sizeof((x)[0])))

static const ProvAttrSchema ext_attrs[] = {
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "The id of the data source. This will always be set to "
                  "`-`"},
  {.name = "program", .type = &list_string, .flags = PROV_REQUIRED,
   .description = "A list of strings, whose first element is the program "
                  "to run and whose subsequent elements are optional "
                  "command line arguments to the program. Terraform does "
                  "not execute the program through a shell, so it is not "
                  "necessary to escape shell metacharacters nor add quotes "
                  "around arguments containing spaces."},
  {.name = "query", .type = &map_string, .flags = PROV_OPTIONAL,
   .description = "A map of string values to pass to the external program "
                  "as the query arguments. If not supplied, the program "
                  "will receive an empty object as its input."},
  {.name = "result", .type = &map_string, .flags = PROV_COMPUTED,
   .description = "A map of string values returned from the external "
                  "program."},
  {.name = "working_dir", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Working directory of the program. If not supplied, the "
                  "program will run in the current directory."},
};

static const ProvBlockSchema ext_block = {
  .attrs = ext_attrs, .nattrs = NATTRS(ext_attrs)};
static const ProvBlockSchema empty_block = {0};

static const ProvTypeSchema data_sources[] = {
  {"external", {0, &ext_block}},
};
static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .data_sources = data_sources, .ndata_sources = NATTRS(data_sources),
  .plan_destroy = true,
};

static void open_external(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = p->impl;
}

static void validate_data(Prov *p, ProvCall *c, const char *type_name,
                          Value cfg)
{
  (void)p;
  (void)type_name;
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  Value pr = prov_get(cfg, "program");
  if (!val_is_null(pr) && val_is_known(pr) && pr.len < 1)
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "program"),
                   "Invalid Attribute Value",
                   "Attribute program list must contain at least 1 "
                   "elements, got: %u", pr.len);
}

static const char lookup_detail[] =
    "The data source received an unexpected error while attempting to "
    "parse the query. The data source received an unexpected error while "
    "attempting to find the program.\n\nThe program must be accessible "
    "according to the platform where Terraform is running.\n\nIf the "
    "expected program should be automatically found on the platform where "
    "Terraform is running, ensure that the program is in an expected "
    "directory. On Unix-based platforms, these directories are typically "
    "searched based on the '$PATH' environment variable. On Windows-based "
    "platforms, these directories are typically searched based on the "
    "'%PATH%' environment variable.\n\nIf the expected program is relative "
    "to the Terraform configuration, it is recommended that the program "
    "name includes the interpolated value of 'path.module' before the "
    "program name to ensure that it is compatible with varying module "
    "usage. For example: \"${path.module}/my-program\"\n\nThe program must "
    "also be executable according to the platform where Terraform is "
    "running. On Unix-based platforms, the file on the filesystem must "
    "have the executable bit set. On Windows-based platforms, no action is "
    "typically necessary.\n";

static const char result_detail[] =
    "The data source received unexpected results after executing the "
    "program.\n\nProgram output must be a JSON encoded map of string keys "
    "and string values.\n\nIf the error is unclear, the output can be "
    "viewed by enabling Terraform's logging at TRACE level. Terraform "
    "documentation on logging: https://www.terraform.io/internals/debugging"
    "\n";

/* The program's output as map(string); NULL error text on success. */
static const char *decode_result(Arena *a, const char *out, size_t n,
                                 Value *res)
{
  Diags d;
  diag_init(&d, a);
  Value v;
  if (!json_parse(a, out, n, &v, &d, NULL)) {
    const Diag *g = d.head;
    return g && g->detail ? g->detail : "invalid JSON";
  }
  const Type *t = v.type;
  if (val_is_null(v))
    return NULL;   /* json.Unmarshal of null leaves the empty map */
  if (t->kind != TY_OBJECT)
    return arena_printf(a, "json: cannot unmarshal %s into Go value of type "
                        "map[string]string",
                        t->kind == TY_TUPLE    ? "array"
                        : t->kind == TY_NUMBER ? "number"
                        : t->kind == TY_BOOL   ? "bool"
                                               : "string");
  MapEntry *me = ARENA_NEW(a, MapEntry, t->n + 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < t->n; i++) {
    Value e = v.u.elems[i];
    if (val_is_null(e))
      continue;   /* Go leaves a null member out of a string map */
    if (e.type->kind != TY_STRING)
      return arena_printf(a, "json: cannot unmarshal %s into Go value of "
                          "type string",
                          e.type->kind == TY_NUMBER ? "number"
                          : e.type->kind == TY_BOOL ? "bool"
                          : e.type->kind == TY_TUPLE ? "array"
                                                     : "object");
    me[k].key = t->names[i];
    me[k].keylen = (uint32_t)strlen(t->names[i]);
    me[k].val = e;
    k++;
  }
  *res = val_map(a, &ty_string, me, k);
  return NULL;
}

static void read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                      ProvReadDataResp *resp)
{
  Arena *a = c->arena;
  Value cfg = req->config;
  ValPath ppath = prov_path_attr(a, "program");
  Value prog = prov_get(cfg, "program");
  uint32_t n = val_is_null(prog) ? 0 : prog.len;
  const char **argv = ARENA_NEW(a, const char *, n + 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    Value e = prog.u.elems[i];
    if (!val_is_null(e) && e.len > 0)
      argv[k++] = e.u.s;
  }
  argv[k] = NULL;
  if (k == 0) {
    prov_diag_attr(c, DIAG_ERROR, ppath, "External Program Missing",
                   "The data source was configured without a program to "
                   "execute. Verify the configuration contains at least one "
                   "non-empty value.");
    return;
  }
  /* The query: json.Marshal of a Go map sorts the keys; null values
  ** become "". */
  Buf q;
  buf_init(&q, a);
  JsonW w;
  json_w_init(&w, &q, 0);
  json_w_begin_object(&w);
  Value qv = prov_get(cfg, "query");
  for (uint32_t i = 0; !val_is_null(qv) && i < qv.len; i++) {
    const MapEntry *e = &qv.u.entries[i];
    json_w_key(&w, e->key, e->keylen);
    if (val_is_null(e->val))
      json_w_string(&w, "", 0);
    else
      json_w_string(&w, e->val.u.s, e->val.len);
  }
  json_w_end_object(&w);

  const char *err;
  const char *path = prov_look_path(a, argv[0], &err);
  if (!path) {
    prov_diag_attr(c, DIAG_ERROR, ppath, "External Program Lookup Failed",
                   "%s\nPlatform: linux\nProgram: %s\nError: %s",
                   lookup_detail, argv[0], err);
    return;
  }
  Value wd = prov_get(cfg, "working_dir");
  ProvRun r = {.path = path, .argv = argv,
               .dir = val_is_null(wd) ? NULL : wd.u.s,
               .in = buf_str(&q), .inlen = q.len};
  ProvRunResult res;
  prov_run(a, p, &r, &res);
  if (res.error) {
    if (res.started && !res.stopped && res.errlen > 0)
      prov_diag_attr(c, DIAG_ERROR, ppath, "External Program Execution "
                     "Failed",
                     "The data source received an unexpected error while "
                     "attempting to execute the program.\n\nProgram: %s\n"
                     "Error Message: %s\nState: %s",
                     path, res.err, res.error);
    else if (res.started && !res.stopped)
      prov_diag_attr(c, DIAG_ERROR, ppath, "External Program Execution "
                     "Failed",
                     "The data source received an unexpected error while "
                     "attempting to execute the program.\n\nThe program was "
                     "executed, however it returned no additional error "
                     "messaging.\n\nProgram: %s\nState: %s",
                     path, res.error);
    else
      prov_diag_attr(c, DIAG_ERROR, ppath, "External Program Execution "
                     "Failed",
                     "The data source received an unexpected error while "
                     "attempting to execute the program.\n\nProgram: %s\n"
                     "Error: %s",
                     path, res.error);
    return;
  }
  Value result = val_map(a, &ty_string, NULL, 0);
  const char *rerr = decode_result(a, res.out, res.outlen, &result);
  if (rerr) {
    prov_diag_attr(c, DIAG_ERROR, ppath, "Unexpected External Program "
                   "Results", "%s\nProgram: %s\nResult Error: %s",
                   result_detail, path, rerr);
    return;
  }
  Value st = prov_set(a, cfg, "result", result);
  resp->state = prov_set(a, st, "id", val_cstr(a, "-"));
}

static void no_resources(Prov *p, ProvCall *c, const char *type_name,
                         Value cfg)
{
  (void)p;
  (void)cfg;
  diag_error(c->diags, NULL, "Unsupported resource type",
             "The provider has no resource type \"%s\".", type_name);
}

static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  (void)p;
  (void)resp;
  no_resources(p, c, req->type_name, (Value){0});
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  (void)resp;
  no_resources(p, c, req->type_name, (Value){0});
}

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  (void)resp;
  no_resources(p, c, req->type_name, (Value){0});
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  (void)resp;
  no_resources(p, c, req->type_name, (Value){0});
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

const ProvBuiltin prov_external_builtin = {
  .addr = "registry.terraform.io/hashicorp/external",
  .type = "external",
  .ops = &ops,
  .open = open_external,
};
