/*
** objchange_proposed.c: objchange.ProposedNew and
** PlannedDataResourceObject (objc_proposed_new, objc_planned_data): the
** proposed new object merged from prior and config, with nested blocks
** correlated by index, key or, for sets, "could this prior element have
** come from this config element".
*/
#include "objchange_priv.h"

/* Rebuilds an object of type t from vals (t's attribute order), keeping
** t when every value still has its attribute type (the common case) and
** otherwise making a new type from the values (dynamic attributes), which
** shares t's names: t is the config value's type, which outlives the
** proposed value built from it. */
static Value build_obj(Arena *a, const Type *t, Value *vals, uint16_t marks)
{
  for (uint32_t i = 0; i < t->n; i++) {
    if (!ty_equal(vals[i].type, t->types[i]))
      return val_mark(val_object_like(a, t, vals), marks);
  }
  return val_mark(val_object_typed(t, vals), marks);
}

/* Nested content of a collection: a nested block or a nested attribute
** type's object. */
typedef struct Nest {
  const ProvBlockSchema *block;
  const ProvObjectSchema *obj;
} Nest;

/* ---- "Could this prior set element have come from this config?" -------- */

/* validPriorFromConfig: prior may differ from config only in computed
** leaf attributes whose config value is null; nested sets must be equal.
** Each function here handles one level of Terraform's cty.Walk over the
** prior value, with the schema attribute that AttributeByPath would find
** there. */
static bool vp_object(const ProvAttrSchema *attrs, uint32_t nattrs,
                      const ProvNestedBlock *blocks, uint32_t nblocks,
                      Value prior, Value config);
static bool vp_attr(const ProvAttrSchema *at, Value prior, Value config);

static bool vp_elem(Nest ns, Value prior, Value config)
{
  if (ns.block)
    return vp_object(ns.block->attrs, ns.block->nattrs, ns.block->blocks,
                     ns.block->nblocks, prior, config);
  return vp_object(ns.obj->attrs, ns.obj->nattrs, NULL, 0, prior, config);
}

/* A LIST / MAP / SET collection level (no schema attribute here). */
static bool vp_coll(Nest ns, Value prior, Value config)
{
  if (objc_ueq(prior, config))
    return true;
  if (objc_kind(config, TY_SET))
    return false;
  if (objc_null(prior) || objc_unknown(prior))
    return true;
  uint32_t n = objc_coll_len(prior);
  if (n && objc_null(config))
    return false;
  if (objc_is_seq(prior)) {
    if (!objc_unknown(config) && (!objc_is_seq(config) || config.len < n))
      return false;
    for (uint32_t i = 0; i < n; i++) {
      Value ce = objc_unknown(config)
                     ? val_unknown(objc_elem_type(config.type, i))
                     : config.u.elems[i];
      if (!vp_elem(ns, prior.u.elems[i], ce))
        return false;
    }
    return true;
  }
  if (objc_is_keyed(prior)) {
    for (uint32_t i = 0; i < n; i++) {
      const char *k = objc_key_at(prior, i);
      Value ce;
      if (objc_unknown(config))
        ce = val_unknown(objc_kind(config, TY_MAP) ? config.type->elem
                                                : &ty_dynamic);
      else if (!objc_keyed_get(config, k, &ce))
        return false;
      if (!vp_elem(ns, objc_keyed_at(prior, i), ce))
        return false;
    }
    return true;
  }
  return false;
}

static bool vp_nested_block(const ProvNestedBlock *nb, Value prior,
                            Value config)
{
  Nest ns = {.block = nb->block};
  if (nb->nesting == PROV_NEST_SINGLE || nb->nesting == PROV_NEST_GROUP)
    return vp_elem(ns, prior, config);
  return vp_coll(ns, prior, config);
}

static bool vp_attr(const ProvAttrSchema *at, Value prior, Value config)
{
  if (objc_ueq(prior, config))
    return true;
  if (objc_kind(config, TY_SET))
    return false;
  if (at->nested) {
    Nest ns = {.obj = at->nested};
    if (at->nested->nesting == PROV_NEST_SINGLE)
      return vp_elem(ns, prior, config);
    return vp_coll(ns, prior, config);
  }
  /* A leaf: it may only differ when computed and unset in config. */
  return (at->flags & PROV_COMPUTED) && objc_null(config);
}

static bool vp_object(const ProvAttrSchema *attrs, uint32_t nattrs,
                      const ProvNestedBlock *blocks, uint32_t nblocks,
                      Value prior, Value config)
{
  if (objc_ueq(prior, config))
    return true;
  if (objc_kind(config, TY_SET))
    return false;
  if (objc_null(prior) || objc_unknown(prior))
    return true;
  if (!objc_kind(prior, TY_OBJECT))
    return false;
  if (prior.type->n == 0)
    return true;
  if (objc_null(config) || !objc_kind(config, TY_OBJECT))
    return false;
  for (uint32_t i = 0; i < nattrs; i++) {
    const ProvAttrSchema *at = &attrs[i];
    int pi = ty_attr_index(prior.type, at->name);
    if (pi < 0)
      continue;
    if (!objc_has_attr(config, at->name))
      return false;
    Value cv = objc_attr_of(config, at->name, &ty_dynamic);
    if (!vp_attr(at, prior.u.elems[pi], cv))
      return false;
  }
  for (uint32_t i = 0; i < nblocks; i++) {
    const ProvNestedBlock *nb = &blocks[i];
    int pi = ty_attr_index(prior.type, nb->type_name);
    if (pi < 0)
      continue;
    if (!objc_has_attr(config, nb->type_name))
      return false;
    Value cv = objc_attr_of(config, nb->type_name, &ty_dynamic);
    if (!vp_nested_block(nb, prior.u.elems[pi], cv))
      return false;
  }
  return true;
}

/* optionalValueNotComputable: an optional+computed nested attribute whose
** prior value holds a non-null non-computed attribute must have come from
** configuration, so a null config now means "remove it". */
static bool onc_value(const ProvObjectSchema *o, Value v);

static bool onc_object(const ProvObjectSchema *o, Value v)
{
  if (objc_null(v) || objc_unknown(v) || !objc_kind(v, TY_OBJECT))
    return false;
  for (uint32_t i = 0; i < o->nattrs; i++) {
    const ProvAttrSchema *at = &o->attrs[i];
    int k = ty_attr_index(v.type, at->name);
    if (k < 0)
      continue;
    Value av = v.u.elems[k];
    if (objc_null(av))
      continue;
    if (!(at->flags & PROV_COMPUTED))
      return true;
    if (at->nested && onc_value(at->nested, av))
      return true;
  }
  return false;
}

static bool onc_value(const ProvObjectSchema *o, Value v)
{
  if (objc_null(v) || objc_unknown(v))
    return false;
  if (o->nesting == PROV_NEST_SINGLE || o->nesting == PROV_NEST_GROUP)
    return onc_object(o, v);
  uint32_t n = objc_coll_len(v);
  for (uint32_t i = 0; i < n; i++) {
    Value e = objc_kind(v, TY_MAP) ? v.u.entries[i].val : v.u.elems[i];
    if (onc_object(o, e))
      return true;
  }
  return false;
}

static bool optional_not_computable(const ProvAttrSchema *at, Value prior)
{
  if (!(at->flags & PROV_OPTIONAL) || !at->nested)
    return false;
  return onc_value(at->nested, prior);
}

/* ---- ProposedNew ------------------------------------------------------- */

static Value pn_block(Arena *a, const ProvBlockSchema *b, Value prior,
                      Value config);
static Value pn_nested_type(Arena *a, const ProvObjectSchema *o, Value prior,
                            Value config);

/* configschema Block.EmptyValue: null attributes, null SINGLE blocks,
** empty GROUP objects and empty LIST/SET/MAP collections. */
static Value empty_value(Arena *a, const ProvBlockSchema *b)
{
  const Type *t = prov_schema_implied_type(a, b);
  if (t->kind != TY_OBJECT)
    return val_null(t);
  Value *vals = ARENA_NEW(a, Value, t->n);
  for (uint32_t i = 0; i < t->n; i++)
    vals[i] = val_null(t->types[i]);
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const ProvNestedBlock *nb = &b->blocks[i];
    int k = ty_attr_index(t, nb->type_name);
    if (k < 0)
      continue;
    const Type *bt = t->types[k];
    Value e = {.type = bt};
    switch (nb->nesting) {
    case PROV_NEST_GROUP:
      vals[k] = empty_value(a, nb->block);
      break;
    case PROV_NEST_LIST:
      if (bt->kind == TY_DYNAMIC)
        e.type = &ty_empty_tuple;
      vals[k] = e;
      break;
    case PROV_NEST_MAP:
      if (bt->kind == TY_DYNAMIC)
        e.type = &ty_empty_object;
      vals[k] = e;
      break;
    case PROV_NEST_SET:
      vals[k] = e;
      break;
    default:
      break;
    }
  }
  return val_object_typed(t, vals);
}

/* proposedNewBlockOrObject */
static Value pn_elem(Arena *a, Nest ns, Value prior, Value config);

static Value pn_list(Arena *a, Nest ns, Value prior, Value config)
{
  if (objc_null(config) || objc_unknown(config) || !objc_is_seq(config) ||
      config.len == 0)
    return config;
  uint32_t n = config.len;
  Value *vals = ARENA_NEW(a, Value, n);
  for (uint32_t i = 0; i < n; i++) {
    Value ce = config.u.elems[i], pe;
    if (objc_unknown(prior)) {
      pe = val_unknown(objc_elem_type(prior.type, i));
    } else if (objc_null(prior) || !objc_is_seq(prior) || i >= prior.len) {
      vals[i] = ce;
      continue;
    } else {
      pe = prior.u.elems[i];
    }
    vals[i] = pn_elem(a, ns, pe, ce);
  }
  uint16_t marks = config.flags & VF_SENSITIVE;
  if (config.type->kind == TY_TUPLE)
    return val_mark(val_tuple(a, vals, n), marks);
  Value r = {.type = config.type, .flags = marks, .len = n,
             .u = {.elems = vals}};
  return r;
}

static Value pn_map(Arena *a, Nest ns, Value prior, Value config)
{
  if (objc_null(config) || objc_unknown(config) || !objc_is_keyed(config) ||
      config.len == 0)
    return config;
  uint32_t n = config.len;
  uint16_t marks = config.flags & VF_SENSITIVE;
  if (config.type->kind == TY_MAP) {
    MapEntry *ents = ARENA_NEW(a, MapEntry, n);
    for (uint32_t i = 0; i < n; i++) {
      ents[i] = config.u.entries[i];
      Value pe;
      if (objc_keyed_get(prior, ents[i].key, &pe))
        ents[i].val = pn_elem(a, ns, pe, ents[i].val);
    }
    Value r = {.type = config.type, .flags = marks, .len = n,
               .u = {.entries = ents}};
    return r;
  }
  Value *vals = ARENA_NEW(a, Value, n);
  for (uint32_t i = 0; i < n; i++) {
    vals[i] = config.u.elems[i];
    Value pe;
    if (objc_keyed_get(prior, config.type->names[i], &pe))
      vals[i] = pn_elem(a, ns, pe, vals[i]);
  }
  return build_obj(a, config.type, vals, marks);
}

static Value pn_set(Arena *a, Nest ns, Value prior, Value config)
{
  if (objc_null(config) || objc_unknown(config) || !objc_kind(config, TY_SET) ||
      config.len == 0)
    return config;
  uint32_t n = config.len, np = 0;
  const Value *pv = NULL;
  if (!objc_null(prior) && !objc_unknown(prior) && objc_kind(prior, TY_SET)) {
    np = prior.len;
    pv = prior.u.elems;
  }
  bool *used = np ? ARENA_NEW(a, bool, np) : NULL;
  Value *vals = ARENA_NEW(a, Value, n);
  for (uint32_t i = 0; i < n; i++) {
    Value ce = config.u.elems[i];
    Value pe = val_null(config.type->elem);
    for (uint32_t j = 0; j < np; j++) {
      if (!used[j] && vp_elem(ns, pv[j], ce)) {
        pe = pv[j];
        used[j] = true;
        break;
      }
    }
    vals[i] = pn_elem(a, ns, pe, ce);
  }
  return val_mark(val_set(a, config.type->elem, vals, n),
                  config.flags & VF_SENSITIVE);
}

static Value pn_attr(Arena *a, const ProvAttrSchema *at, Value prior,
                     Value config)
{
  if ((at->flags & PROV_COMPUTED) && objc_null(config)) {
    if (optional_not_computable(at, prior))
      return config;
    return prior;
  }
  if (at->nested)
    return pn_nested_type(a, at->nested, prior, config);
  return config;
}

static Value pn_nested_block(Arena *a, const ProvNestedBlock *nb, Value prior,
                             Value config)
{
  if (objc_unknown(config))
    return config;
  Nest ns = {.block = nb->block};
  switch (nb->nesting) {
  case PROV_NEST_SINGLE:
    if (objc_null(config))
      return config;
    return pn_block(a, nb->block, prior, config);
  case PROV_NEST_GROUP:
    return pn_block(a, nb->block, prior, config);
  case PROV_NEST_LIST:
    return pn_list(a, ns, prior, config);
  case PROV_NEST_MAP:
    return pn_map(a, ns, prior, config);
  case PROV_NEST_SET:
    return pn_set(a, ns, prior, config);
  default:
    return config;
  }
}

/* proposedNewAttributes (+ nested blocks when blocks != NULL) over the
** known-or-unknown, non-null object config; the result has config's
** type unless a dynamic attribute changed type. */
static Value pn_object(Arena *a, const ProvAttrSchema *attrs, uint32_t nattrs,
                       const ProvNestedBlock *blocks, uint32_t nblocks,
                       Value prior, Value config)
{
  const Type *t = config.type;
  if (!objc_kind(config, TY_OBJECT))
    return config;
  Value *vals = ARENA_NEW(a, Value, t->n);
  for (uint32_t i = 0; i < t->n; i++)
    vals[i] = objc_unknown(config) ? val_unknown(t->types[i])
                                   : config.u.elems[i];
  for (uint32_t i = 0; i < nattrs; i++) {
    int k = ty_attr_index(t, attrs[i].name);
    if (k < 0)
      continue;
    Value pv = objc_attr_of(prior, attrs[i].name, t->types[k]);
    vals[k] = pn_attr(a, &attrs[i], pv, vals[k]);
  }
  for (uint32_t i = 0; i < nblocks; i++) {
    int k = ty_attr_index(t, blocks[i].type_name);
    if (k < 0)
      continue;
    Value pv = objc_attr_of(prior, blocks[i].type_name, t->types[k]);
    vals[k] = pn_nested_block(a, &blocks[i], pv, vals[k]);
  }
  return build_obj(a, t, vals, config.flags & VF_SENSITIVE);
}

static Value pn_nested_type(Arena *a, const ProvObjectSchema *o, Value prior,
                            Value config)
{
  if (objc_unknown(config))
    return config;
  Nest ns = {.obj = o};
  switch (o->nesting) {
  case PROV_NEST_SINGLE:
  case PROV_NEST_GROUP:
    if (objc_null(config))
      return config;
    return pn_object(a, o->attrs, o->nattrs, NULL, 0, prior, config);
  case PROV_NEST_LIST:
    return pn_list(a, ns, prior, config);
  case PROV_NEST_MAP:
    return pn_map(a, ns, prior, config);
  case PROV_NEST_SET:
    return pn_set(a, ns, prior, config);
  default:
    return config;
  }
}

/* Terraform's lower-case proposedNew: prior is non-null (maybe unknown). */
static Value pn_inner(Arena *a, const ProvBlockSchema *b, Value prior,
                      Value config)
{
  if (objc_null(config) || objc_unknown(config))
    return prior;
  if (!objc_kind(config, TY_OBJECT))
    return config;
  return pn_object(a, b->attrs, b->nattrs, b->blocks, b->nblocks, prior,
                   config);
}

/* Terraform's ProposedNew. */
static Value pn_block(Arena *a, const ProvBlockSchema *b, Value prior,
                      Value config)
{
  if (objc_null(config) && objc_null(prior))
    return prior;
  if (objc_null(prior))
    prior = empty_value(a, b);
  return pn_inner(a, b, prior, config);
}

static Value pn_elem(Arena *a, Nest ns, Value prior, Value config)
{
  if (ns.block)
    return pn_block(a, ns.block, prior, config);
  if (objc_null(config))
    return config;
  return pn_object(a, ns.obj->attrs, ns.obj->nattrs, NULL, 0, prior, config);
}

Value objc_proposed_new(Arena *a, const ProvBlockSchema *schema, Value prior,
                        Value config)
{
  return pn_block(a, schema, prior, config);
}

Value objc_planned_data(Arena *a, const ProvBlockSchema *schema, Value config)
{
  Value prior = val_unknown(prov_schema_implied_type(a, schema));
  return pn_inner(a, schema, prior, config);
}
