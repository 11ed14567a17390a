/*
** prov_local: the built-in hashicorp/local provider (being written; for now an
** empty schema so the registry links).
*/
#include "provider.h"

static const ProvBlockSchema empty_block = {0};
static const ProvProviderSchema schema = {.provider = {0, &empty_block}};

static void open_p(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = p->impl;
}

static const ProvOps ops = {
  .get_schema = get_schema,
  .validate_provider_config = prov_default_validate,
  .validate_resource_config = prov_default_validate_type,
  .validate_data_resource_config = prov_default_validate_type,
  .configure = prov_default_configure,
  .import_resource_state = prov_default_import,
  .stop = prov_default_stop,
  .close = prov_default_close,
};

const ProvBuiltin prov_local_builtin = {
  .addr = "registry.terraform.io/hashicorp/local",
  .type = "local",
  .ops = &ops,
  .open = open_p,
};
