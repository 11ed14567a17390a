/*
** prov_terraform: the built-in provider terraform.io/builtin/terraform.
**
** terraform_data (input / output / triggers_replace / id) behaves as
** Terraform's internal/builtin/providers/terraform: output follows input
** (unknown while input changes), id is a random UUID fixed at create, a
** change of triggers_replace forces replacement.  Data source
** terraform_remote_state reads the root outputs of a state file through
** the "local" backend (config.path, default terraform.tfstate; workspaces
** under workspace_dir, default terraform.tfstate.d), or through the reader
** the CLI registers (prov_terraform_set_remote_reader: the "http"
** backend); other backends are reported as unavailable.
*/
#include "provider.h"

#include <errno.h>
#include <string.h>

#include "base/json.h"

static const ProvAttrSchema data_attrs[] = {
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED},
  {.name = "input", .type = &ty_dynamic, .flags = PROV_OPTIONAL},
  {.name = "output", .type = &ty_dynamic, .flags = PROV_COMPUTED},
  {.name = "triggers_replace", .type = &ty_dynamic, .flags = PROV_OPTIONAL},
};
static const ProvBlockSchema data_block = {.attrs = data_attrs, .nattrs = 4};

static const ProvAttrSchema rs_attrs[] = {
  {.name = "backend", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "The remote backend to use, e.g. `remote` or `http`."},
  {.name = "config", .type = &ty_dynamic, .flags = PROV_OPTIONAL,
   .description = "The configuration of the remote backend. Although this "
                  "is optional, most backends require some configuration."},
  {.name = "defaults", .type = &ty_dynamic, .flags = PROV_OPTIONAL,
   .description = "Default values for outputs, in case the state file is "
                  "empty or lacks a required output."},
  {.name = "outputs", .type = &ty_dynamic, .flags = PROV_COMPUTED,
   .description = "An object containing every root-level output in the "
                  "remote state."},
  {.name = "workspace", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "The Terraform workspace to use, if the backend "
                  "supports workspaces."},
};
static const ProvBlockSchema rs_block = {.attrs = rs_attrs, .nattrs = 5};

static const ProvBlockSchema empty_block = {0};

static const ProvTypeSchema resources[] = {
  {"terraform_data", {0, &data_block}},
};
static const ProvTypeSchema data_sources[] = {
  {"terraform_remote_state", {0, &rs_block}},
};
static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .resources = resources, .nresources = 1,
  .data_sources = data_sources, .ndata_sources = 1,
};

static const ProvProviderSchema *sch(Prov *p) { return p->impl; }

static void open_tf(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = sch(p);
}

static void validate_resource(Prov *p, ProvCall *c, const char *type_name,
                              Value config)
{
  (void)p;
  (void)type_name;
  if (val_is_null(config) || val_is_unknown(config))
    return;
  /* Core does not reject computed attributes in configuration for this
  ** provider's benefit; the provider does, as Terraform's does. */
  static const char *const ro[] = {"id", "output"};
  for (int i = 0; i < 2; i++)
    if (!val_is_null(prov_get(config, ro[i])))
      diag_error(c->diags, NULL,
                 arena_printf(c->diags->arena,
                              "\"%s\" attribute is read-only", ro[i]),
                 NULL);
}

static bool is_object_like(const Type *t)
{
  return t->kind == TY_DYNAMIC || t->kind == TY_OBJECT || t->kind == TY_MAP;
}

static void validate_data(Prov *p, ProvCall *c, const char *type_name,
                          Value config)
{
  (void)p;
  (void)type_name;
  if (val_is_null(config) || val_is_unknown(config))
    return;
  Value cfg = prov_get(config, "config");
  if (!is_object_like(cfg.type))
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "config"),
                   "Invalid backend configuration",
                   "The configuration must be an object value.");
  Value def = prov_get(config, "defaults");
  if (!is_object_like(def.type))
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "defaults"),
                   "Invalid default values",
                   "Defaults must be given in an object value.");
}

static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  prov_decode_state(c, sch(p)->resources[0].schema.block, req->raw_json,
                    req->raw_len, &resp->upgraded_state);
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  (void)p;
  (void)c;
  resp->new_state = req->current_state;
  resp->private_data = req->private_data;
}

/* Output's type always follows input's, even when input is null. */
static Value output_for(Value input)
{
  return val_is_null(input) ? input : val_unknown(input.type);
}

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  Value planned = req->proposed_new_state;
  if (val_is_null(planned)) {
    resp->planned_state = planned;
    return;
  }
  Value input = prov_get(planned, "input");
  Value trig = prov_get(planned, "triggers_replace");
  Value prior = req->prior_state;
  if (val_is_null(prior)) {
    planned = prov_set(a, planned, "id", val_unknown(&ty_string));
    planned = prov_set(a, planned, "output", output_for(input));
  } else if (!val_raw_equal(prov_get(prior, "triggers_replace"), trig,
                            false)) {
    prov_requires_replace(c, resp, "triggers_replace");
    planned = prov_set(a, planned, "id", val_unknown(&ty_string));
    planned = prov_set(a, planned, "output", output_for(input));
  } else if (!val_raw_equal(prov_get(prior, "input"), input, false)) {
    planned = prov_set(a, planned, "output", val_unknown(input.type));
  }
  resp->planned_state = planned;
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  Value v = req->planned_state;
  if (val_is_null(v)) {
    resp->new_state = v;
    return;
  }
  if (!val_is_known(prov_get(v, "output")))
    v = prov_set(a, v, "output", prov_get(v, "input"));
  if (!val_is_known(prov_get(v, "id")))
    v = prov_set(a, v, "id", val_cstr(a, prov_random_uuid(a)));
  resp->new_state = v;
}

static void import(Prov *p, ProvCall *c, const ProvImportReq *req,
                   ProvImportResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  static const char *const names[] = {"id", "input", "output",
                                      "triggers_replace"};
  Value vals[4] = {val_cstr(a, req->id), val_dynamic_null, val_dynamic_null,
                   val_dynamic_null};
  ProvImported *im = ARENA_NEW(a, ProvImported, 1);
  im->type_name = arena_strdup(a, req->type_name);
  im->state = val_object(a, 4, names, vals);
  resp->imported = im;
  resp->nimported = 1;
}

/* MoveResourceState: terraform_data takes over null_resource objects of
** the official hashicorp/null provider (Terraform 1.9): the id is kept,
** triggers becomes triggers_replace (as an object, which is what a
** `triggers_replace = { ... }` configuration gives, so the next plan has
** nothing to change), input and output stay null.  Texts are Terraform's
** (internal/builtin/providers/terraform/resource_data.go). */
static const Type null_triggers = {.kind = TY_MAP, .elem = &ty_string};
static const ProvAttrSchema null_attrs[] = {
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED},
  {.name = "triggers", .type = &null_triggers, .flags = PROV_OPTIONAL},
};
static const ProvBlockSchema null_block = {.attrs = null_attrs, .nattrs = 2};

static void move_state(Prov *p, ProvCall *c, const ProvMoveReq *req,
                       ProvMoveResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  size_t n = strlen(req->source_provider), k = strlen("hashicorp/null");
  if (n < k || strcmp(req->source_provider + n - k, "hashicorp/null") != 0) {
    diag_error(c->diags, NULL, "Unsupported source provider for move "
               "operation", "Only moving from the official hashicorp/null "
               "provider to terraform_data is supported.");
    return;
  }
  if (strcmp(req->source_type, "null_resource") != 0) {
    diag_error(c->diags, NULL, "Unsupported source resource type for move "
               "operation", "Only moving from the null_resource managed "
               "resource to terraform_data is supported.");
    return;
  }
  Value src;
  if (!prov_decode_state(c, &null_block, req->source_json, req->source_len,
                         &src))
    return;
  Value trig = prov_get(src, "triggers");
  Value tr = val_dynamic_null;
  if (!val_is_null(trig)) {
    const char **names = ARENA_NEW(a, const char *, trig.len + 1);
    Value *vals = ARENA_NEW(a, Value, trig.len + 1);
    for (uint32_t i = 0; i < trig.len; i++) {
      names[i] = trig.u.entries[i].key;
      vals[i] = trig.u.entries[i].val;
    }
    tr = val_object(a, trig.len, names, vals);
  }
  static const char *const names[] = {"id", "input", "output",
                                      "triggers_replace"};
  Value vals[4] = {prov_get(src, "id"), val_dynamic_null, val_dynamic_null,
                   tr};
  resp->target_state = val_object(a, 4, names, vals);
}

/* ---- terraform_remote_state -------------------------------------------- */

/* A string attribute of the backend config (object or map), or NULL. */
static const char *cfg_string(Value cfg, const char *name, bool *bad)
{
  if (val_is_null(cfg) || !cfg.type)
    return NULL;
  Value v = val_dynamic_null;
  bool found = false;
  if (cfg.type->kind == TY_OBJECT)
    v = val_attr(cfg, name, &found);
  else if (cfg.type->kind == TY_MAP)
    v = val_map_get(cfg, name, strlen(name), &found);
  if (!found || val_is_null(v))
    return NULL;
  if (v.type->kind != TY_STRING || !val_is_known(v)) {
    *bad = true;
    return NULL;
  }
  return v.u.s;
}

/* Checks the local backend's configuration: only path and workspace_dir
** (strings) are accepted. */
static bool local_config(ProvCall *c, Value cfg, const char **path,
                         const char **wsdir)
{
  bool bad = false;
  *path = cfg_string(cfg, "path", &bad);
  *wsdir = cfg_string(cfg, "workspace_dir", &bad);
  const char *unexpected = NULL;
  if (!val_is_null(cfg) && cfg.type->kind == TY_OBJECT) {
    for (uint32_t i = 0; i < cfg.type->n; i++)
      if (strcmp(cfg.type->names[i], "path") != 0 &&
          strcmp(cfg.type->names[i], "workspace_dir") != 0)
        unexpected = cfg.type->names[i];
  } else if (!val_is_null(cfg) && cfg.type->kind == TY_MAP) {
    for (uint32_t i = 0; i < cfg.len; i++)
      if (strcmp(cfg.u.entries[i].key, "path") != 0 &&
          strcmp(cfg.u.entries[i].key, "workspace_dir") != 0)
        unexpected = cfg.u.entries[i].key;
  }
  if (unexpected) {
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "config"),
                   "Invalid backend configuration",
                   "The given configuration is not valid for backend "
                   "\"local\": unsupported attribute \"%s\".",
                   unexpected);
    return false;
  }
  if (bad) {
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "config"),
                   "Invalid backend configuration",
                   "The given configuration is not valid for backend "
                   "\"local\": string required.");
    return false;
  }
  return true;
}

static ProvRemoteStateFn remote_reader;

void prov_terraform_set_remote_reader(ProvRemoteStateFn fn)
{
  remote_reader = fn;
}

static bool parse_outputs(ProvCall *c, const char *file, const char *data,
                          size_t len, Value *out, bool *found);

/* Root outputs of a state file as an object, each decoded with its
** recorded type.  *found false when the file does not exist or is empty. */
static bool read_outputs(ProvCall *c, const char *file, Value *out,
                         bool *found)
{
  Arena *a = c->arena;
  const char *data;
  size_t len;
  *found = false;
  if (!prov_read_file(a, file, &data, &len)) {
    if (errno == ENOENT)
      return true;
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "backend"),
                   "Error loading state error",
                   "error loading the remote state: %s: %s", file,
                   strerror(errno));
    return false;
  }
  return parse_outputs(c, file, data, len, out, found);
}

/* The outputs of state bytes (file names them in messages). */
static bool parse_outputs(ProvCall *c, const char *file, const char *data,
                          size_t len, Value *out, bool *found)
{
  Arena *a = c->arena;
  *found = false;
  size_t i = 0;
  while (i < len && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' ||
                     data[i] == '\t'))
    i++;
  if (i == len)
    return true;  /* an empty file is "no state", as the local backend has */
  Diags tmp;
  diag_init(&tmp, a);
  JsonOpts jo = {.file = file};
  Value doc;
  if (!json_parse(a, data, len, &doc, &tmp, &jo) ||
      doc.type->kind != TY_OBJECT) {
    diag_error(c->diags, NULL, "Failed to load state",
               "error loading the remote state: %s: %s", file,
               tmp.head ? tmp.head->summary : "not a JSON object");
    return false;
  }
  *found = true;
  Value outs = val_attr(doc, "outputs", NULL);
  if (val_is_null(outs) || outs.type->kind != TY_OBJECT) {
    *out = val_object(a, 0, NULL, NULL);
    return true;
  }
  uint32_t n = outs.len;
  const char **names = ARENA_NEW(a, const char *, n + 1);
  Value *vals = ARENA_NEW(a, Value, n + 1);
  for (uint32_t k = 0; k < n; k++) {
    Value o = outs.u.elems[k];
    names[k] = outs.type->names[k];
    const Type *t = NULL;
    Value tv = o.type->kind == TY_OBJECT ? val_attr(o, "type", NULL)
                                         : val_dynamic_null;
    Value vv = o.type->kind == TY_OBJECT ? val_attr(o, "value", NULL)
                                         : val_dynamic_null;
    if (val_is_null(tv) || !json_type_from_value(a, tv, &t, &tmp, NULL) ||
        !json_value_typed(a, vv, t, &vals[k], &tmp, NULL)) {
      diag_error(c->diags, NULL, "Failed to load state",
                 "error loading the remote state: %s: invalid output "
                 "\"%s\".",
                 file, names[k]);
      return false;
    }
  }
  *out = val_object(a, n, names, vals);
  return true;
}

static void read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                      ProvReadDataResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  Value d = req->config;
  Value bv = prov_get(d, "backend");
  const char *backend = val_is_null(bv) ? "" : bv.u.s;
  if (strcmp(backend, "_local") == 0)
    backend = "local";
  Value outputs = val_dynamic_null;
  bool found = false;
  Value wsv0 = prov_get(d, "workspace");
  if (strcmp(backend, "local") != 0 && remote_reader) {
    const char *data = NULL;
    size_t len = 0;
    int before = c->diags->errors;
    if (!remote_reader(a, backend, prov_get(d, "config"),
                       val_is_null(wsv0) ? "default" : wsv0.u.s, &data,
                       &len, &found, c->diags)) {
      if (c->diags->errors == before)
        prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "backend"),
                       "Error loading state error",
                       "error loading the remote state of backend \"%s\".",
                       backend);
      return;
    }
    if (found && !parse_outputs(c, arena_printf(a, "the %s backend's state",
                                                backend),
                                data, len, &outputs, &found))
      return;
  } else if (strcmp(backend, "local") != 0) {
    static const char *const known[] = {
      "remote", "cloud", "azurerm", "consul", "cos", "gcs", "http", "inmem",
      "kubernetes", "oss", "pg", "s3", NULL};
    bool is_known = false;
    for (int i = 0; known[i]; i++)
      if (strcmp(known[i], backend) == 0)
        is_known = true;
    if (is_known)
      prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "backend"),
                     "Invalid backend configuration",
                     "The backend type \"%s\" is not available in cairn's "
                     "built-in terraform provider; only \"local\", "
                     "\"http\" and \"pg\" are.",
                     backend);
    else
      prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "backend"),
                     "Invalid backend configuration",
                     "There is no backend type named \"%s\".", backend);
    return;
  }
  if (strcmp(backend, "local") == 0) {
    const char *path, *wsdir;
    if (!local_config(c, prov_get(d, "config"), &path, &wsdir))
      return;
    Value wsv = prov_get(d, "workspace");
    const char *ws = val_is_null(wsv) ? "default" : wsv.u.s;
    /* As the local backend: path names the default workspace's state
    ** only; another workspace's state is always
    ** <workspace_dir>/<name>/terraform.tfstate. */
    const char *file;
    if (strcmp(ws, "default") == 0)
      file = path ? path : "terraform.tfstate";
    else
      file = arena_printf(a, "%s/%s/terraform.tfstate",
                          wsdir ? wsdir : "terraform.tfstate.d", ws);
    if (!read_outputs(c, file, &outputs, &found))
      return;
  }
  Value defaults = prov_get(d, "defaults");
  /* Defaults first, then the state's outputs over them. */
  uint32_t nd = 0;
  if (!val_is_null(defaults) && val_is_known(defaults) &&
      (defaults.type->kind == TY_OBJECT || defaults.type->kind == TY_MAP))
    nd = defaults.len;
  uint32_t no = found ? outputs.len : 0;
  const char **names = ARENA_NEW(a, const char *, nd + no + 1);
  Value *vals = ARENA_NEW(a, Value, nd + no + 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < nd; i++) {
    const char *key = defaults.type->kind == TY_OBJECT
                          ? defaults.type->names[i]
                          : defaults.u.entries[i].key;
    Value dv = defaults.type->kind == TY_OBJECT ? defaults.u.elems[i]
                                                : defaults.u.entries[i].val;
    bool overridden = found && ty_attr_index(outputs.type, key) >= 0;
    if (!overridden) {
      names[k] = key;
      vals[k++] = dv;
    }
  }
  for (uint32_t i = 0; i < no; i++) {
    names[k] = outputs.type->names[i];
    vals[k++] = outputs.u.elems[i];
  }
  Value st = d;
  if (val_is_null(defaults))
    st = prov_set(a, st, "defaults", val_dynamic_null);
  if (!found) {
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "workspace"),
                   "Unable to find remote state",
                   "No stored state was found for the given workspace in "
                   "the given backend.");
    resp->state = prov_set(a, st, "outputs", val_object(a, 0, NULL, NULL));
    return;
  }
  resp->state = prov_set(a, st, "outputs", val_object(a, k, names, vals));
}

static const ProvOps ops = {
  .get_schema = get_schema,
  .validate_provider_config = prov_default_validate,
  .validate_resource_config = validate_resource,
  .validate_data_resource_config = validate_data,
  .upgrade_resource_state = upgrade,
  .configure = prov_default_configure,
  .read_resource = read_resource,
  .plan_resource_change = plan,
  .apply_resource_change = apply,
  .import_resource_state = import,
  .read_data_source = read_data,
  .stop = prov_default_stop,
  .close = prov_default_close,
  .move_resource_state = move_state,
};

const ProvBuiltin prov_terraform_builtin = {
  .addr = "terraform.io/builtin/terraform",
  .type = "terraform",
  .ops = &ops,
  .open = open_tf,
};
