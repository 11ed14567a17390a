/*
** prov_test: a deliberately misbehaving provider for the engine's tests,
** compiled only into test builds (CAIRN_TEST).  Being written.
*/
#ifdef CAIRN_TEST
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

const ProvBuiltin prov_test_builtin = {
  .addr = "cairn.test/test/misbehave",
  .type = "misbehave",
  .ops = &ops,
  .open = open_p,
};
#else
/* ISO C forbids an empty translation unit. */
typedef int prov_test_unused;
#endif
