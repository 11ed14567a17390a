/*
** objchange_applycheck.c: objchange.AssertObjectCompatible
** (objc_assert_compatible): the apply-time check that a later value (the
** re-plan during apply, or the apply result) keeps every known planned
** value (formats.md 8.2 "inconsistent final plan", 8.3 "inconsistent
** result after apply").
*/
#include "objchange_priv.h"

#include <string.h>

#include "base/convert.h"

/* ---- AssertObjectCompatible -------------------------------------------- */

/* cty TestConformance: actual's type conforms to planned's when equal,
** with dynamic in planned matching anything. */
static bool conforms(const Type *actual, const Type *planned)
{
  if (planned->kind == TY_DYNAMIC)
    return true;
  if (actual == planned)
    return true;
  if (actual->kind != planned->kind)
    return false;
  switch (planned->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    return conforms(actual->elem, planned->elem);
  case TY_OBJECT:
    if (actual->n != planned->n)
      return false;
    for (uint32_t i = 0; i < planned->n; i++)
      if (strcmp(actual->names[i], planned->names[i]) != 0 ||
          !conforms(actual->types[i], planned->types[i]))
        return false;
    return true;
  case TY_TUPLE:
    if (actual->n != planned->n)
      return false;
    for (uint32_t i = 0; i < planned->n; i++)
      if (!conforms(actual->types[i], planned->types[i]))
        return false;
    return true;
  default:
    return true;
  }
}

static void avc_value(ObjcCtx *c, Value planned, Value actual);

/* assertSetValuesCompatible with assertValueCompatible (blk == NULL) or
** assertObjectCompatible (blk) as the correlation test. */
static void aoc_block(ObjcCtx *c, const ProvBlockSchema *b, Value planned,
                      Value actual);

static bool correlates(ObjcCtx *c, const ProvBlockSchema *blk, Value p, Value a)
{
  ObjcCtx q = *c;
  q.quiet = true;
  q.nquiet = 0;
  objc_push(&q, PS_INDEX, NULL, OBJC_STEP_SET_ELEM);
  if (blk)
    aoc_block(&q, blk, p, a);
  else
    avc_value(&q, p, a);
  /* The stack may have been reallocated; keep the larger one. */
  c->steps = q.steps;
  c->cap = q.cap;
  return q.nquiet == 0;
}

static void set_compatible(ObjcCtx *c, const ProvBlockSchema *blk,
                           Value planned, Value actual)
{
  uint32_t np = planned.len, na = actual.len;
  bool *peq = ARENA_NEW(c->a, bool, np ? np : 1);
  bool *aeq = ARENA_NEW(c->a, bool, na ? na : 1);
  for (uint32_t i = 0; i < np; i++)
    for (uint32_t j = 0; j < na; j++)
      if (correlates(c, blk, planned.u.elems[i], actual.u.elems[j])) {
        peq[i] = true;
        aeq[j] = true;
      }
  bool any = false;
  for (uint32_t i = 0; i < np; i++)
    if (!peq[i]) {
      objc_fail(c, "planned set element %V does not correlate with any element "
              "in actual", planned.u.elems[i]);
      any = true;
    }
  if (any)
    return;
  for (uint32_t j = 0; j < na; j++)
    if (!aeq[j])
      objc_fail(c, "actual set element %V does not correlate with any element "
              "in plan", actual.u.elems[j]);
}

/* assertValueCompatible, on unmarked values. */
static void avc_value(ObjcCtx *c, Value planned, Value actual)
{
  if (!planned.type || !actual.type || planned.type->kind == TY_DYNAMIC)
    return;
  if (!conforms(actual.type, planned.type)) {
    if (c->quiet) {
      c->nquiet++;
      return;
    }
    Buf m;
    buf_init(&m, c->a);
    conv_mismatch_message(&m, c->a, actual.type, planned.type);
    objc_fail(c, "wrong final value type: %s", buf_str(&m));
    return;
  }
  if (objc_unknown(planned)) {
    /* Only the not-null refinement can be violated. */
    if ((planned.flags & VF_NOTNULL) && objc_null(actual))
      objc_fail(c, "final value %V does not conform to planning placeholder %V",
                actual, planned);
    return;
  }
  if (objc_null(actual)) {
    if (!objc_null(planned))
      objc_fail(c, "was %V, but now null", planned);
    return;
  }
  if (objc_null(planned)) {
    objc_fail(c, "was null, but now %V", actual);
    return;
  }
  if (objc_unknown(actual)) {
    objc_fail(c, "was known, but now unknown");
    return;
  }
  switch (planned.type->kind) {
  case TY_STRING:
  case TY_NUMBER:
  case TY_BOOL:
    if (!val_raw_equal(val_unmark(planned), val_unmark(actual), false))
      objc_fail(c, "was %V, but now %V", planned, actual);
    return;
  case TY_LIST:
  case TY_TUPLE:
    for (uint32_t i = 0; i < planned.len; i++) {
      if (i >= actual.len) {
        objc_fail(c, "element %u has vanished", i);
        continue;
      }
      objc_push(c, PS_INDEX, NULL, i);
      avc_value(c, planned.u.elems[i], actual.u.elems[i]);
      objc_pop(c);
    }
    for (uint32_t i = planned.len; i < actual.len; i++)
      objc_fail(c, "new element %u has appeared", i);
    return;
  case TY_MAP:
    for (uint32_t i = 0; i < planned.len; i++) {
      const MapEntry *e = &planned.u.entries[i];
      Value av;
      if (!objc_keyed_get(actual, e->key, &av)) {
        objc_fail(c, "element %q has vanished", e->key);
        continue;
      }
      objc_push(c, PS_KEY, e->key, 0);
      avc_value(c, e->val, av);
      objc_pop(c);
    }
    for (uint32_t i = 0; i < actual.len; i++) {
      Value pv;
      if (!objc_keyed_get(planned, actual.u.entries[i].key, &pv))
        objc_fail(c, "new element %q has appeared", actual.u.entries[i].key);
    }
    return;
  case TY_OBJECT:
    for (uint32_t i = 0; i < planned.type->n; i++) {
      objc_push(c, PS_ATTR, planned.type->names[i], 0);
      avc_value(c, planned.u.elems[i], actual.u.elems[i]);
      objc_pop(c);
    }
    return;
  case TY_SET:
    set_compatible(c, NULL, planned, actual);
    if (planned.len < actual.len)
      objc_fail(c, "length changed from %u to %u", planned.len, actual.len);
    return;
  default:
    return;
  }
}

static void aoc_attr(ObjcCtx *c, const ProvAttrSchema *at, Value planned,
                     Value actual)
{
  bool sens = (at->flags & PROV_SENSITIVE) || val_has_sensitive(planned) ||
              val_has_sensitive(actual);
  if (!sens) {
    avc_value(c, planned, actual);
    return;
  }
  /* Check quietly so no sensitive value reaches a message. */
  ObjcCtx q = *c;
  q.quiet = true;
  q.nquiet = 0;
  avc_value(&q, planned, actual);
  c->steps = q.steps;
  c->cap = q.cap;
  if (q.nquiet)
    objc_fail(c, "inconsistent values for sensitive attribute");
}

static void aoc_nested_block(ObjcCtx *c, const ProvNestedBlock *nb,
                             Value planned, Value actual)
{
  switch (nb->nesting) {
  case PROV_NEST_SINGLE:
  case PROV_NEST_GROUP:
    /* An unknown placeholder may have expanded into no block at all. */
    if (objc_unknown(planned) && objc_null(actual))
      return;
    aoc_block(c, nb->block, planned, actual);
    return;
  case PROV_NEST_LIST:
    if (objc_unknown(planned) || objc_unknown(actual) || objc_null(planned))
      return;
    if (objc_null(actual)) {
      objc_fail(c, "null block value after apply");
      return;
    }
    if (!objc_is_seq(planned) || !objc_is_seq(actual))
      return;
    if (planned.len != actual.len) {
      objc_fail(c, "block count changed from %u to %u", planned.len,
                actual.len);
      return;
    }
    for (uint32_t i = 0; i < planned.len; i++) {
      objc_push(c, PS_INDEX, NULL, i);
      aoc_block(c, nb->block, planned.u.elems[i], actual.u.elems[i]);
      objc_pop(c);
    }
    return;
  case PROV_NEST_MAP:
    if (objc_kind(planned, TY_OBJECT)) {
      if (objc_unknown(planned) || objc_null(planned))
        return;
      if (objc_null(actual)) {
        objc_fail(c, "null block value after apply");
        return;
      }
      for (uint32_t i = 0; i < planned.type->n; i++) {
        const char *k = planned.type->names[i];
        Value av;
        if (!objc_has_attr(actual, k)) {
          objc_fail(c, "block key %q has vanished", k);
          continue;
        }
        av = objc_attr_of(actual, k, &ty_dynamic);
        objc_push(c, PS_ATTR, k, 0);
        aoc_block(c, nb->block, planned.u.elems[i], av);
        objc_pop(c);
      }
      if (objc_kind(actual, TY_OBJECT))
        for (uint32_t i = 0; i < actual.type->n; i++)
          if (!objc_has_attr(planned, actual.type->names[i]))
            objc_fail(c, "new block key %q has appeared",
                      actual.type->names[i]);
      return;
    }
    if (objc_unknown(planned) || objc_null(planned))
      return;
    if (objc_null(actual)) {
      objc_fail(c, "null block value after apply");
      return;
    }
    if (!objc_kind(planned, TY_MAP) || !objc_kind(actual, TY_MAP) ||
        objc_unknown(actual))
      return;
    if (planned.len != actual.len) {
      objc_fail(c, "block count changed from %u to %u", planned.len,
                actual.len);
      return;
    }
    for (uint32_t i = 0; i < planned.len; i++) {
      const MapEntry *e = &planned.u.entries[i];
      Value av;
      if (!objc_keyed_get(actual, e->key, &av))
        continue;
      objc_push(c, PS_KEY, e->key, 0);
      aoc_block(c, nb->block, e->val, av);
      objc_pop(c);
    }
    return;
  case PROV_NEST_SET:
    if (objc_unknown(planned) || objc_unknown(actual) || objc_null(planned))
      return;
    if (objc_null(actual)) {
      objc_fail(c, "null block value after apply");
      return;
    }
    if (!objc_kind(planned, TY_SET) || !objc_kind(actual, TY_SET))
      return;
    set_compatible(c, nb->block, planned, actual);
    if (planned.len < actual.len)
      objc_fail(c, "block set length changed from %u to %u", planned.len,
                actual.len);
    return;
  default:
    return;
  }
}

static void aoc_block(ObjcCtx *c, const ProvBlockSchema *b, Value planned,
                      Value actual)
{
  const char *root = c->n == 0 ? "Root object " : "";
  if (objc_null(planned) && !objc_null(actual)) {
    objc_fail(c, "%swas absent, but now present", root);
    return;
  }
  if (objc_null(actual) && !objc_null(planned)) {
    objc_fail(c, "%swas present, but now absent", root);
    return;
  }
  if (objc_null(planned))
    return;
  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *at = &b->attrs[i];
    Value pv = objc_attr_of(planned, at->name, &ty_dynamic);
    Value av = objc_attr_of(actual, at->name, pv.type);
    objc_push(c, PS_ATTR, at->name, 0);
    aoc_attr(c, at, pv, av);
    objc_pop(c);
  }
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const ProvNestedBlock *nb = &b->blocks[i];
    Value pv = val_unmark(objc_attr_of(planned, nb->type_name, &ty_dynamic));
    Value av = val_unmark(objc_attr_of(actual, nb->type_name, pv.type));
    objc_push(c, PS_ATTR, nb->type_name, 0);
    aoc_nested_block(c, nb, pv, av);
    objc_pop(c);
  }
}

bool objc_assert_compatible(Arena *a, const ProvBlockSchema *schema,
                            Value planned, Value actual, ObjcErrs *errs)
{
  ObjcCtx c = {.a = a, .errs = errs};
  uint32_t before = errs->n;
  aoc_block(&c, schema, planned, actual);
  return errs->n == before;
}
