/*
** prov_test: a deliberately misbehaving provider for the engine's tests,
** compiled only into test builds (CAIRN_TEST).  Source address
** "cairn.test/test/misbehave"; configurations name it in
** required_providers.  Every resource type shares one schema:
**
**   id        string, computed       value     string, optional
**   computed  string, computed       fail      bool, optional
**   delay_ms  number, optional       secret    string, optional, sensitive
**   item      list block of { name = string, optional }
**
** misbehave_ok behaves; every other type breaks one rule of the provider
** contract (seed 001), named after it:
**   _plan_changes_config   planned `value` differs from the configuration
**   _plan_wrong_type       planned `value` is a number
**   _plan_unstable         `computed` is a new known value on every plan,
**                          so the final plan at apply disagrees
**   _plan_bad_replace      requires_replace names a missing attribute
**   _plan_destroy_nonnull  plans a non-null object for a destroy
**   _plan_block_count      plans one more `item` block than configured
**   _apply_changes_known   apply returns another `value` than planned
**   _apply_unknown         apply leaves `computed` unknown
**   _apply_nil             apply returns no object at all
**   _apply_null            apply returns a null object for a create
**   _apply_partial         apply fails after creating: id set, error
**   _delete_nonnull        delete returns a non-null object
**   _read_deletes          ReadResource reports the object gone
**   _read_changes          ReadResource changes `value` ("drifted")
**   _read_unknown          ReadResource returns an unknown `computed`
** and one that behaves but blocks, for interrupt tests:
**   _gate                  apply (create or update) first creates the file
**                          named `value` + ".started", then waits until
**                          the file named `value` exists (polling every
**                          5 ms, ignoring StopProvider, so the operation
**                          is really in flight; at most 60 s, then fails)
** Any type: fail = true makes apply fail (create: no object); delay_ms
** makes apply wait (polling StopProvider) so progress lines show.
** Data sources misbehave_ok, misbehave_null (null result) and
** misbehave_unknown (unknown `computed`) share the same schema.
*/
#ifdef CAIRN_TEST
#include "provider.h"

#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const ProvAttrSchema item_attrs[] = {
  {.name = "name", .type = &ty_string, .flags = PROV_OPTIONAL},
};
static const ProvBlockSchema item_block = {.attrs = item_attrs,
                                           .nattrs = 1};
static const ProvNestedBlock blocks[] = {
  {.type_name = "item", .nesting = PROV_NEST_LIST, .block = &item_block},
};
static const ProvAttrSchema attrs[] = {
  {.name = "computed", .type = &ty_string, .flags = PROV_COMPUTED},
  {.name = "delay_ms", .type = &ty_number, .flags = PROV_OPTIONAL},
  {.name = "fail", .type = &ty_bool, .flags = PROV_OPTIONAL},
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED},
  {.name = "secret", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_SENSITIVE},
  {.name = "value", .type = &ty_string, .flags = PROV_OPTIONAL},
};
static const ProvBlockSchema block = {.attrs = attrs, .nattrs = 6,
                                      .blocks = blocks, .nblocks = 1};
static const ProvBlockSchema empty_block = {0};

#define T(name) {"misbehave_" name, {0, &block}}
static const ProvTypeSchema resources[] = {
  T("ok"),
  T("plan_changes_config"),
  T("plan_wrong_type"),
  T("plan_unstable"),
  T("plan_bad_replace"),
  T("plan_destroy_nonnull"),
  T("plan_block_count"),
  T("apply_changes_known"),
  T("apply_unknown"),
  T("apply_nil"),
  T("apply_null"),
  T("apply_partial"),
  T("delete_nonnull"),
  T("read_deletes"),
  T("read_changes"),
  T("read_unknown"),
  T("gate"),
};
static const ProvTypeSchema data_sources[] = {
  T("ok"),
  T("null"),
  T("unknown"),
};
#undef T

static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .resources = resources,
  .nresources = sizeof resources / sizeof resources[0],
  .data_sources = data_sources,
  .ndata_sources = sizeof data_sources / sizeof data_sources[0],
  .plan_destroy = true,
};

static const ProvProviderSchema *sch(Prov *p) { return p->impl; }

static const ProvBlockSchema *blk(Prov *p)
{
  return sch(p)->resources[0].schema.block;
}

static bool is(const char *type_name, const char *rule)
{
  return strcmp(type_name + 10, rule) == 0;  /* after "misbehave_" */
}

static void open_p(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = sch(p);
}

static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  prov_decode_state(c, blk(p), req->raw_json, req->raw_len,
                    &resp->upgraded_state);
}

static Value str(Arena *a, const char *s) { return val_cstr(a, s); }

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  Arena *a = c->arena;
  const char *t = req->type_name;
  Value v = req->proposed_new_state;
  if (val_is_null(v)) {
    resp->planned_state = v;
    if (is(t, "plan_destroy_nonnull"))
      resp->planned_state = req->prior_state;
    return;
  }
  if (val_is_null(req->prior_state)) {
    v = prov_unknown_computed(a, blk(p), req->prior_state, v, req->config,
                              NULL);
  } else if (!val_raw_equal(prov_get(req->prior_state, "value"),
                            prov_get(v, "value"), false)) {
    v = prov_set(a, v, "computed", val_unknown(&ty_string));
  }
  if (is(t, "plan_changes_config")) {
    Value cv = prov_get(req->config, "value");
    if (!val_is_null(cv) && val_is_known(cv))
      v = prov_set(a, v, "value",
                   str(a, arena_printf(a, "%s-changed", cv.u.s)));
  } else if (is(t, "plan_wrong_type")) {
    v = prov_set(a, v, "value", val_int(42));
  } else if (is(t, "plan_unstable")) {
    v = prov_set(a, v, "computed", str(a, prov_random_uuid(a)));
  } else if (is(t, "plan_bad_replace")) {
    prov_requires_replace(c, resp, "no_such_attribute");
  } else if (is(t, "plan_block_count")) {
    Value items = prov_get(v, "item");
    if (val_is_known(items) && !val_is_null(items)) {
      Value *e = ARENA_NEW(a, Value, items.len + 1);
      const Type *et = items.type->elem;
      for (uint32_t i = 0; i < items.len; i++)
        e[i] = items.u.elems[i];
      static const char *const nm[] = {"name"};
      Value extra = str(a, "extra");
      e[items.len] = et->kind == TY_OBJECT
                         ? val_object(a, 1, nm, &extra)
                         : val_null(et);
      v = prov_set(a, v, "item", val_list(a, et, e, items.len + 1));
    }
  }
  resp->planned_state = v;
}

/* Waits delay_ms, in slices, giving up early when the provider is asked
** to stop.  Returns false when stopped. */
static bool delay(Prov *p, Value plan)
{
  Value d = prov_get(plan, "delay_ms");
  int64_t ms = 0;
  if (val_is_null(d) || !val_is_known(d) || !val_num_int(d, &ms) || ms <= 0)
    return true;
  while (ms > 0) {
    if (atomic_load(&p->stopping))
      return false;
    int64_t step = ms < 20 ? ms : 20;
    struct timespec ts = {0, (long)step * 1000000L};
    nanosleep(&ts, NULL);
    ms -= step;
  }
  return true;
}

/* misbehave_gate: announces the operation, then blocks until the test
** opens the gate.  Waiting for a file (a condition), not for a time. */
static bool gate(ProvCall *c, Value plan)
{
  Value path = prov_get(plan, "value");
  if (val_is_null(path) || !val_is_known(path) || !*path.u.s)
    return true;
  const char *started = arena_printf(c->arena, "%s.started", path.u.s);
  int fd = open(started, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0)
    close(fd);
  for (int i = 0; i < 12000; i++) {
    if (access(path.u.s, F_OK) == 0)
      return true;
    struct timespec ts = {0, 5000000L};
    nanosleep(&ts, NULL);
  }
  diag_error(c->diags, NULL, "Gate never opened",
             "misbehave: the file %s did not appear within 60 s.", path.u.s);
  return false;
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  Arena *a = c->arena;
  const char *t = req->type_name;
  Value v = req->planned_state;
  if (val_is_null(v)) {
    resp->new_state = v;
    if (is(t, "delete_nonnull"))
      resp->new_state = req->prior_state;
    return;
  }
  if (is(t, "gate") && !gate(c, v)) {
    if (!val_is_null(req->prior_state))
      resp->new_state = req->prior_state;
    return;
  }
  if (!delay(p, v)) {
    diag_error(c->diags, NULL, "Operation interrupted",
               "The provider was asked to stop.");
    return;
  }
  Value fail = prov_get(v, "fail");
  if (!val_is_null(fail) && val_is_known(fail) && fail.u.b) {
    diag_error(c->diags, NULL, "Failed to apply",
               "misbehave: apply failed as requested (fail = true).");
    if (!val_is_null(req->prior_state))
      resp->new_state = req->prior_state;
    return;
  }
  bool creating = val_is_null(req->prior_state);
  if (!val_is_known(prov_get(v, "id")))
    v = prov_set(a, v, "id", str(a, prov_random_uuid(a)));
  if (!val_is_known(prov_get(v, "computed")) && !is(t, "apply_unknown"))
    v = prov_set(a, v, "computed", str(a, "computed-value"));
  if (is(t, "apply_changes_known")) {
    v = prov_set(a, v, "value", str(a, "changed-by-apply"));
  } else if (is(t, "apply_nil")) {
    return;
  } else if (is(t, "apply_null") && creating) {
    v = prov_null_object(a, blk(p));
  } else if (is(t, "apply_partial")) {
    v = prov_set(a, v, "value", val_null(&ty_string));
    diag_error(c->diags, NULL, "Partial failure",
               "misbehave: the object was created but configuring it "
               "failed.");
  }
  resp->new_state = v;
  resp->private_data = req->planned_private;
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  Arena *a = c->arena;
  const char *t = req->type_name;
  Value v = req->current_state;
  resp->private_data = req->private_data;
  if (!val_is_null(v)) {
    if (is(t, "read_deletes"))
      v = prov_null_object(a, blk(p));
    else if (is(t, "read_changes"))
      v = prov_set(a, v, "value", str(a, "drifted"));
    else if (is(t, "read_unknown"))
      v = prov_set(a, v, "computed", val_unknown(&ty_string));
  }
  resp->new_state = v;
}

static void import(Prov *p, ProvCall *c, const ProvImportReq *req,
                   ProvImportResp *resp)
{
  Arena *a = c->arena;
  const Type *ty = prov_schema_implied_type(a, blk(p));
  Value *vals = ARENA_NEW(a, Value, ty->n);
  for (uint32_t i = 0; i < ty->n; i++)
    vals[i] = strcmp(ty->names[i], "id") == 0 ? str(a, req->id)
              : strcmp(ty->names[i], "item") == 0
                  ? val_list(a, ty->types[i]->elem, NULL, 0)
                  : val_null(ty->types[i]);
  Value v = val_object_typed(ty, vals);
  ProvImported *im = ARENA_NEW(a, ProvImported, 1);
  im->type_name = arena_strdup(a, req->type_name);
  im->state = v;
  resp->imported = im;
  resp->nimported = 1;
}

static void read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                      ProvReadDataResp *resp)
{
  Arena *a = c->arena;
  const char *t = req->type_name;
  Value v = req->config;
  if (is(t, "null")) {
    resp->state = prov_null_object(a, blk(p));
    return;
  }
  v = prov_set(a, v, "id", str(a, "data"));
  v = prov_set(a, v, "computed",
               is(t, "unknown") ? val_unknown(&ty_string)
                                : str(a, "computed-value"));
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
  .import_resource_state = import,
  .read_data_source = read_data,
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
