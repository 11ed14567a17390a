/*
** prov_null: the built-in hashicorp/null provider.
**
** null_resource (triggers map(string), computed id) and the deprecated
** data source null_data_source, with the upstream (plugin framework)
** provider's schema and plan behaviour: id is a random non-negative
** 63-bit decimal fixed at create, and triggers force replacement unless the
** only differences are null values (RequiresReplaceIfValuesNotNull, kept
** for state written by the old SDK provider).
*/
#include "provider.h"

#include <string.h>

static const Type map_string = {.kind = TY_MAP, .elem = &ty_string};

static const ProvAttrSchema res_attrs[] = {
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "This is set to a random value at create time."},
  {.name = "triggers", .type = &map_string, .flags = PROV_OPTIONAL,
   .description = "A map of arbitrary strings that, when changed, will "
                  "force the null resource to be replaced, re-running any "
                  "associated provisioners."},
};
static const ProvBlockSchema res_block = {
  .attrs = res_attrs, .nattrs = 2,
  .description = "The `null_resource` resource implements the standard "
                 "resource lifecycle but takes no further action."};

static const char ds_deprecated[] =
    "This attribute is only present for some legacy compatibility issues "
    "and should not be used. It will be removed in a future version.";

static const ProvAttrSchema ds_attrs[] = {
  {.name = "has_computed_default", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_COMPUTED},
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED | PROV_DEPRECATED,
   .description = ds_deprecated, .deprecation_message = ds_deprecated},
  {.name = "inputs", .type = &map_string, .flags = PROV_OPTIONAL},
  {.name = "outputs", .type = &map_string, .flags = PROV_COMPUTED},
  {.name = "random", .type = &ty_string, .flags = PROV_COMPUTED},
};
static const ProvBlockSchema ds_block = {
  .attrs = ds_attrs, .nattrs = 5, .deprecated = true,
  .description = "The null_data_source was historically used to construct "
                 "intermediate values to re-use elsewhere in configuration, "
                 "the same can now be achieved using locals or the "
                 "terraform_data resource type in Terraform 1.4 and later."};

static const ProvBlockSchema empty_block = {0};

static const ProvTypeSchema resources[] = {
  {"null_resource", {0, &res_block}},
};
static const ProvTypeSchema data_sources[] = {
  {"null_data_source", {0, &ds_block}},
};
static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .resources = resources, .nresources = 1,
  .data_sources = data_sources, .ndata_sources = 1,
  .plan_destroy = true,
};

static const ProvProviderSchema *sch(Prov *p) { return p->impl; }

static const ProvBlockSchema *res_schema(Prov *p)
{
  return sch(p)->resources[0].schema.block;
}

static void open_null(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = sch(p);
}

/* A decimal like Go's fmt.Sprintf("%d", rand.Int()). */
static Value random_decimal(Arena *a)
{
  uint64_t r;
  prov_random_bytes(&r, sizeof r);
  return val_cstr(a, arena_printf(a, "%llu",
                                  (unsigned long long)(r >> 1)));
}

static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  prov_decode_state(c, res_schema(p), req->raw_json, req->raw_len,
                    &resp->upgraded_state);
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  (void)p;
  (void)c;
  resp->new_state = req->current_state;
  resp->private_data = req->private_data;
}

/* RequiresReplaceIfValuesNotNull (see the file comment). */
static bool triggers_force(Value prior, Value config)
{
  return prov_map_replace_if_values_not_null(prov_get(prior, "triggers"),
                                             prov_get(config, "triggers"));
}

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  Value planned = req->proposed_new_state;
  if (val_is_null(planned)) {
    resp->planned_state = planned;
    return;
  }
  static const char *const keep[] = {"id", NULL};
  if (val_is_null(req->prior_state) ||
      !val_raw_equal(req->prior_state, planned, false))
    planned = prov_unknown_computed(c->arena, res_schema(p),
                                    req->prior_state, planned, req->config,
                                    keep);
  resp->planned_state = planned;
  resp->planned_private = req->prior_private;
  if (!val_is_null(req->prior_state) &&
      triggers_force(req->prior_state, req->config))
    prov_requires_replace(c, resp, "triggers");
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  (void)p;
  Value planned = req->planned_state;
  if (val_is_null(planned)) {
    resp->new_state = planned;
    return;
  }
  if (val_is_null(req->prior_state))
    planned = prov_set(c->arena, planned, "id", random_decimal(c->arena));
  resp->new_state = planned;
  resp->private_data = req->planned_private;
}

static void read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                      ProvReadDataResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  Value v = req->config;
  v = prov_set(a, v, "outputs", prov_get(v, "inputs"));
  v = prov_set(a, v, "random", random_decimal(a));
  if (val_is_null(prov_get(v, "has_computed_default")))
    v = prov_set(a, v, "has_computed_default", val_cstr(a, "default"));
  v = prov_set(a, v, "id", val_cstr(a, "static"));
  resp->state = v;
}

static const ProvOps ops = {
  .get_schema = get_schema,
  .validate_provider_config = prov_default_validate,
  .validate_resource_config = prov_default_validate_type,
  .validate_data_resource_config = prov_default_validate_type,
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

const ProvBuiltin prov_null_builtin = {
  .addr = "registry.terraform.io/hashicorp/null",
  .type = "null",
  .ops = &ops,
  .open = open_null,
};
