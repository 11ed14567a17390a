/*
** objchange_plancheck.c: objchange.AssertPlanValid
** (objc_assert_plan_valid): the plan-time check that a provider's planned
** state keeps every configured value and changes only what the schema
** lets it (formats.md 8.1, "Provider produced invalid plan").
*/
#include "objchange_priv.h"

/* ---- AssertPlanValid ---------------------------------------------------- */

static void apv_block(ObjcCtx *c, const ProvBlockSchema *b, Value prior,
                      Value config, Value planned);
static void apv_attrs(ObjcCtx *c, const ProvAttrSchema *attrs, uint32_t n,
                      Value prior, Value config, Value planned);

static bool any_sensitive(Value a, Value b, Value c)
{
  return val_has_sensitive(a) || val_has_sensitive(b) || val_has_sensitive(c);
}

/* Length of a collection for the "count in plan" messages: UINT32_MAX
** stands for unknown. */
static unsigned len_or_unknown(Value v)
{
  return objc_unknown(v) ? UINT32_MAX : objc_coll_len(v);
}

/* assertPlannedObjectValid: a nested attribute type's value. */
static void apv_object(ObjcCtx *c, const ProvAttrSchema *at, Value prior,
                       Value config, Value planned)
{
  const ProvObjectSchema *o = at->nested;
  if (objc_null(planned) && !objc_null(config)) {
    objc_fail(c, "planned for absence but config wants existence");
    return;
  }
  if (objc_null(config) && !objc_null(planned)) {
    objc_fail(c, "planned for existence but config wants absence");
    return;
  }
  if (!objc_null(config) && objc_unknown(planned) && !objc_unknown(config)) {
    if (at->flags & PROV_COMPUTED)
      objc_fail(c, "planned unknown value for configured block");
    else
      objc_fail(c, "planned unknown value for non-computed block");
    return;
  }
  if (objc_null(planned))
    return;
  switch (o->nesting) {
  case PROV_NEST_SINGLE:
  case PROV_NEST_GROUP:
    apv_attrs(c, o->attrs, o->nattrs, prior, config, planned);
    return;
  case PROV_NEST_LIST: {
    unsigned pl = len_or_unknown(planned), cl = len_or_unknown(config);
    if (pl == UINT32_MAX && cl == UINT32_MAX)
      return;
    if (pl != cl || pl == UINT32_MAX) {
      objc_fail(c, "count in plan (%L) disagrees with count in config (%L)", pl,
                cl);
      return;
    }
    if (!objc_is_seq(planned) || !objc_is_seq(config))
      return;
    for (uint32_t i = 0; i < pl; i++) {
      Value pe = planned.u.elems[i], ce = config.u.elems[i];
      Value re = val_null(objc_elem_type(planned.type, i));
      if (!objc_null(prior) && !objc_unknown(prior) && objc_is_seq(prior) &&
          i < prior.len)
        re = prior.u.elems[i];
      objc_push(c, PS_INDEX, NULL, i);
      apv_attrs(c, o->attrs, o->nattrs, re, ce, pe);
      objc_pop(c);
    }
    return;
  }
  case PROV_NEST_MAP: {
    unsigned pl = len_or_unknown(planned), cl = len_or_unknown(config);
    if (pl == UINT32_MAX && cl == UINT32_MAX)
      return;
    if (pl != cl || pl == UINT32_MAX) {
      objc_fail(c, "count in plan (%L) disagrees with count in config (%L)", pl,
                cl);
      return;
    }
    if (!objc_is_keyed(planned) || !objc_is_keyed(config))
      return;
    for (uint32_t i = 0; i < pl; i++) {
      const char *k = objc_key_at(planned, i);
      Value ce, re;
      if (!objc_keyed_get(config, k, &ce)) {
        objc_fail(c, "map key %q from plan is not present in config", k);
        continue;
      }
      if (objc_unknown(prior) || !objc_keyed_get(prior, k, &re))
        re = val_null(objc_elem_type(planned.type, i));
      /* Terraform steps into map elements with GetAttrStep here. */
      objc_push(c, PS_ATTR, k, 0);
      apv_attrs(c, o->attrs, o->nattrs, re, ce, objc_keyed_at(planned, i));
      objc_pop(c);
    }
    for (uint32_t i = 0; i < cl; i++) {
      Value pe;
      if (!objc_keyed_get(planned, objc_key_at(config, i), &pe))
        objc_fail(c, "map key %q from config is not present in plan",
                  objc_key_at(config, i));
    }
    return;
  }
  case PROV_NEST_SET: {
    /* Set elements cannot be correlated; only a known length change is
    ** detectable. */
    unsigned pl = len_or_unknown(planned), cl = len_or_unknown(config);
    if (pl != UINT32_MAX && cl != UINT32_MAX && pl != cl)
      objc_fail(c, "count in plan (%L) disagrees with count in config (%L)", pl,
                cl);
    return;
  }
  default:
    return;
  }
}

/* assertPlannedValueValid */
static void apv_value(ObjcCtx *c, const ProvAttrSchema *at, Value prior,
                      Value config, Value planned)
{
  if (objc_ueq(planned, config))
    return;
  if (!objc_null(prior) && !objc_null(config) && objc_ueq(planned, prior))
    return;
  if (at->flags & PROV_WRITE_ONLY) {
    if (!objc_null(planned))
      objc_fail(c, "planned value for write-only attribute is not null");
    return;
  }
  bool computed = (at->flags & PROV_COMPUTED) != 0;
  if (computed && !(at->flags & PROV_OPTIONAL))
    return;
  if (objc_null(config) && computed)
    return;
  bool sens = (at->flags & PROV_SENSITIVE) ||
              any_sensitive(prior, config, planned);
  if (objc_null(config) && !objc_null(planned)) {
    if (sens)
      objc_fail(c, "sensitive planned value for a non-computed attribute");
    else
      objc_fail(c, "planned value %V for a non-computed attribute", planned);
    return;
  }
  if (at->nested) {
    apv_object(c, at, prior, config, planned);
    return;
  }
  if (objc_null(prior)) {
    if (sens)
      objc_fail(c, "sensitive planned value does not match config value");
    else
      objc_fail(c, "planned value %V does not match config value %V", planned,
                config);
    return;
  }
  if (sens)
    objc_fail(c, "sensitive planned value does not match config value nor "
                 "prior value");
  else
    objc_fail(c, "planned value %V does not match config value %V nor prior "
                 "value %V", planned, config, prior);
}

static void apv_attrs(ObjcCtx *c, const ProvAttrSchema *attrs, uint32_t n,
                      Value prior, Value config, Value planned)
{
  for (uint32_t i = 0; i < n; i++) {
    const ProvAttrSchema *at = &attrs[i];
    Value pv = objc_attr_of(planned, at->name, &ty_dynamic);
    Value cv = objc_attr_of(config, at->name, pv.type);
    Value rv = objc_attr_of(prior, at->name, pv.type);
    if (objc_unknown(prior))
      rv = val_null(rv.type);
    objc_push(c, PS_ATTR, at->name, 0);
    apv_value(c, at, rv, cv, pv);
    objc_pop(c);
  }
}

static const char *const unknown_elem_msg =
    "element representing nested block must not be unknown itself; set "
    "nested attribute values to unknown instead";

static void apv_nested_block(ObjcCtx *c, const ProvNestedBlock *nb, Value prior,
                             Value config, Value planned)
{
  if (objc_ueq(planned, config))
    return;
  if (objc_unknown(config)) {
    objc_fail(c, "planned value %V for unknown dynamic block", planned);
    return;
  }
  if (objc_unknown(planned)) {
    objc_fail(c, "planned unknown value for non-computed block");
    return;
  }
  if (objc_unknown(prior))
    prior = val_null(prior.type);
  switch (nb->nesting) {
  case PROV_NEST_SINGLE:
  case PROV_NEST_GROUP:
    apv_block(c, nb->block, prior, config, planned);
    return;
  case PROV_NEST_LIST: {
    if (objc_null(planned)) {
      objc_fail(c, "attribute representing a list of nested blocks must be "
              "empty to indicate no blocks, not null");
      return;
    }
    uint32_t pl = objc_coll_len(planned), cl = objc_coll_len(config);
    if (pl != cl) {
      objc_fail(c,
                "block count in plan (%u) disagrees with count in config (%u)",
                pl, cl);
      return;
    }
    if (!objc_is_seq(planned) || !objc_is_seq(config))
      return;
    for (uint32_t i = 0; i < pl; i++) {
      Value pe = planned.u.elems[i];
      objc_push(c, PS_INDEX, NULL, i);
      if (objc_unknown(pe)) {
        objc_fail(c, "%s", unknown_elem_msg);
      } else {
        Value re = val_null(objc_elem_type(planned.type, i));
        if (!objc_null(prior) && objc_is_seq(prior) && i < prior.len)
          re = prior.u.elems[i];
        apv_block(c, nb->block, re, config.u.elems[i], pe);
      }
      objc_pop(c);
    }
    return;
  }
  case PROV_NEST_MAP: {
    if (objc_null(planned)) {
      objc_fail(c, "attribute representing a map of nested blocks must be "
              "empty to indicate no blocks, not null");
      return;
    }
    if (!objc_is_keyed(planned))
      return;
    bool obj = planned.type->kind == TY_OBJECT;
    uint32_t pl = objc_coll_len(planned), cl = objc_coll_len(config);
    if (!obj && pl != cl) {
      objc_fail(c,
                "block count in plan (%u) disagrees with count in config (%u)",
                pl, cl);
      return;
    }
    for (uint32_t i = 0; i < pl; i++) {
      const char *k = objc_key_at(planned, i);
      Value pe = objc_keyed_at(planned, i), ce, re;
      bool in_config = objc_keyed_get(config, k, &ce);
      if (obj && !in_config) {
        objc_fail(c, "block key %q from plan is not present in config", k);
        continue;
      }
      objc_push(c, obj ? PS_ATTR : PS_KEY, k, 0);
      if (objc_unknown(pe)) {
        objc_fail(c, "%s", unknown_elem_msg);
      } else if (!in_config) {
        objc_fail(c, "block key %q from plan is not present in config", k);
      } else {
        if (!objc_keyed_get(prior, k, &re))
          re = val_null(objc_elem_type(planned.type, i));
        apv_block(c, nb->block, re, ce, pe);
      }
      objc_pop(c);
    }
    for (uint32_t i = 0; i < cl; i++) {
      Value pe;
      if (!objc_keyed_get(planned, objc_key_at(config, i), &pe))
        objc_fail(c, "block key %q from config is not present in plan",
                  objc_key_at(config, i));
    }
    return;
  }
  case PROV_NEST_SET:
    if (objc_null(planned)) {
      objc_fail(c, "attribute representing a set of nested blocks must be "
              "empty to indicate no blocks, not null");
      return;
    }
    /* Set elements have no identity to correlate them with config, so
    ** the provider is trusted except for wholly unknown elements. */
    for (uint32_t i = 0; i < objc_coll_len(planned); i++) {
      if (!objc_unknown(planned.u.elems[i]))
        continue;
      objc_push(c, PS_INDEX, NULL, OBJC_STEP_SET_UNKNOWN);
      objc_fail(c, "%s", unknown_elem_msg);
      objc_pop(c);
    }
    return;
  default:
    return;
  }
}

static void apv_block(ObjcCtx *c, const ProvBlockSchema *b, Value prior,
                      Value config, Value planned)
{
  if (objc_null(planned) && !objc_null(config)) {
    objc_fail(c, "planned for absence but config wants existence");
    return;
  }
  if (objc_null(config) && !objc_null(planned)) {
    objc_fail(c, "planned for existence but config wants absence");
    return;
  }
  if (objc_null(planned))
    return;
  apv_attrs(c, b->attrs, b->nattrs, prior, config, planned);
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const ProvNestedBlock *nb = &b->blocks[i];
    Value pv = objc_attr_of(planned, nb->type_name, &ty_dynamic);
    Value cv = objc_attr_of(config, nb->type_name, pv.type);
    Value rv = objc_attr_of(prior, nb->type_name, pv.type);
    objc_push(c, PS_ATTR, nb->type_name, 0);
    apv_nested_block(c, nb, rv, cv, pv);
    objc_pop(c);
  }
}

bool objc_assert_plan_valid(Arena *a, const ProvBlockSchema *schema,
                            Value prior, Value config, Value planned,
                            ObjcErrs *errs)
{
  ObjcCtx c = {.a = a, .errs = errs};
  uint32_t before = errs->n;
  apv_block(&c, schema, prior, config, planned);
  return errs->n == before;
}
