/*
** convert.c: cty conversion and unification (see convert.h).
**
** The structure mirrors go-cty's convert package so its behaviour can be
** checked rule by rule: possible() is getConversion's "is there a
** conversion", cv() is the conversion closure it would return, unify() is
** unify(), mismatch() is MismatchMessage().  Where cty iterates a Go map
** (random order) we iterate attributes in sorted order, so messages are
** deterministic.
*/
#include "convert.h"

#include <string.h>

/* ---- Type helpers ------------------------------------------------------ */

static bool is_coll(const Type *t) { return ty_is_collection(t); }

static bool has_optional(const Type *t)
{
  switch (t->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    return has_optional(t->elem);
  case TY_OBJECT:
    for (uint32_t i = 0; i < t->n; i++)
      if ((t->optional && t->optional[i]) || t->defaults ||
          has_optional(t->types[i]))
        return true;
    return false;
  case TY_TUPLE:
    for (uint32_t i = 0; i < t->n; i++)
      if (has_optional(t->types[i]))
        return true;
    return false;
  default:
    return false;
  }
}

const Type *conv_strip_optional(Arena *a, const Type *t)
{
  if (!has_optional(t))
    return t;
  switch (t->kind) {
  case TY_LIST:
    return ty_list(a, conv_strip_optional(a, t->elem));
  case TY_SET:
    return ty_set(a, conv_strip_optional(a, t->elem));
  case TY_MAP:
    return ty_map(a, conv_strip_optional(a, t->elem));
  case TY_OBJECT:
  case TY_TUPLE: {
    const Type **tt = ARENA_NEW(a, const Type *, t->n);
    for (uint32_t i = 0; i < t->n; i++)
      tt[i] = conv_strip_optional(a, t->types[i]);
    if (t->kind == TY_TUPLE)
      return ty_tuple(a, t->n, tt);
    return ty_object(a, t->n, t->names, tt);
  }
  default:
    return t;
  }
}

static bool attr_opt(const Type *t, uint32_t i)
{
  return t->optional && t->optional[i];
}

static bool attr_default(const Type *t, uint32_t i, Value *d)
{
  if (!t->defaults)
    return false;
  Value v = t->defaults[i];
  if ((v.flags & VF_NODEFAULT) || !v.type)
    return false;
  *d = v;
  return true;
}

/* ---- Unification ----------------------------------------------------- */

static bool possible(Arena *a, const Type *in, const Type *out, bool unsafe);
static const Type *unify(Arena *a, const Type *const *types, uint32_t n,
                         bool unsafe);

/* compareTypes: -1 when a is the preferred target of the two. */
static int compare_types(const Type *a, const Type *b)
{
  if (a->kind == TY_DYNAMIC || b->kind == TY_DYNAMIC) {
    if (a->kind != TY_DYNAMIC)
      return -1;
    if (b->kind != TY_DYNAMIC)
      return 1;
    return 0;
  }
  if (ty_is_primitive(a) && ty_is_primitive(b)) {
    if (a->kind == TY_STRING || b->kind == TY_STRING) {
      if (a->kind != TY_STRING)
        return 1;
      if (b->kind != TY_STRING)
        return -1;
      return 0;
    }
  }
  if (a->kind == b->kind &&
      (a->kind == TY_LIST || a->kind == TY_SET || a->kind == TY_MAP))
    return compare_types(a->elem, b->elem);
  int swap = 1;
  if ((a->kind == TY_TUPLE && b->kind == TY_LIST) ||
      (a->kind == TY_OBJECT && b->kind == TY_MAP) ||
      (a->kind == TY_SET && b->kind == TY_TUPLE) ||
      (a->kind == TY_SET && b->kind == TY_LIST)) {
    const Type *t = a;
    a = b;
    b = t;
    swap = -1;
  }
  if (b->kind == TY_SET && (a->kind == TY_TUPLE || a->kind == TY_LIST))
    return -swap;
  if (a->kind == TY_LIST && b->kind == TY_TUPLE)
    return -swap;
  if (a->kind == TY_MAP && b->kind == TY_OBJECT)
    return -swap;
  if ((a->kind == TY_OBJECT && b->kind == TY_OBJECT) ||
      (a->kind == TY_TUPLE && b->kind == TY_TUPLE)) {
    if (a->n != b->n)
      return 0;
    bool asup = false, bsup = false;
    for (uint32_t i = 0; i < a->n; i++) {
      const Type *bt;
      if (a->kind == TY_OBJECT) {
        int j = ty_attr_index(b, a->names[i]);
        if (j < 0)
          return 0;
        bt = b->types[j];
      } else {
        bt = b->types[i];
      }
      int c = compare_types(a->types[i], bt);
      if (c < 0)
        asup = true;
      else if (c > 0)
        bsup = true;
    }
    if (asup && bsup)
      return 0;
    if (asup)
      return -swap;
    if (bsup)
      return swap;
    return 0;
  }
  return 0;
}

/* sortTypes: Kahn's algorithm over the "preferred over" edges.  Like cty,
** nodes caught in a preference cycle never get a slot, and the unused
** slots keep index 0. */
static void sort_types(Arena *a, const Type *const *tys, uint32_t l,
                       uint32_t *result)
{
  uint8_t *edge = ARENA_NEW(a, uint8_t, (size_t)l * l);
  uint32_t *indeg = ARENA_NEW(a, uint32_t, l);
  for (uint32_t i = 0; i + 1 < l; i++) {
    for (uint32_t j = i + 1; j < l; j++) {
      int c = compare_types(tys[i], tys[j]);
      if (c < 0) {
        edge[(size_t)i * l + j] = 1;
        indeg[j]++;
      } else if (c > 0) {
        edge[(size_t)j * l + i] = 1;
        indeg[i]++;
      }
    }
  }
  memset(result, 0, l * sizeof *result);
  uint32_t head = 0, tail = 0;
  for (uint32_t i = 0; i < l; i++)
    if (indeg[i] == 0)
      result[tail++] = i;
  while (head < tail) {
    uint32_t i = result[head++];
    for (uint32_t j = 0; j < l; j++) {
      if (edge[(size_t)i * l + j] && --indeg[j] == 0)
        result[tail++] = j;
    }
  }
}

static bool convertible(Arena *a, const Type *from, const Type *to,
                        bool unsafe)
{
  return ty_equal(from, to) || possible(a, from, to, unsafe);
}

static bool all_convert(Arena *a, const Type *const *types, uint32_t n,
                        const Type *to, bool unsafe)
{
  for (uint32_t i = 0; i < n; i++)
    if (!convertible(a, types[i], to, unsafe))
      return false;
  return true;
}

static const Type *unify_collections(Arena *a, TypeKind k,
                                     const Type *const *types, uint32_t n,
                                     bool unsafe)
{
  const Type **el = ARENA_NEW(a, const Type *, n);
  for (uint32_t i = 0; i < n; i++)
    el[i] = types[i]->elem;
  const Type *e = unify(a, el, n, unsafe);
  if (!e)
    return NULL;
  const Type *r = k == TY_LIST ? ty_list(a, e) :
                  k == TY_SET ? ty_set(a, e) : ty_map(a, e);
  return all_convert(a, types, n, r, unsafe) ? r : NULL;
}

/* All attribute (or tuple element) types of all types, as one list. */
static const Type **flatten_members(Arena *a, const Type *const *types,
                                    uint32_t n, uint32_t *count)
{
  uint32_t total = 0;
  for (uint32_t i = 0; i < n; i++)
    total += types[i]->n;
  const Type **m = ARENA_NEW(a, const Type *, total);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < types[i]->n; j++)
      m[k++] = types[i]->types[j];
  *count = k;
  return m;
}

static const Type *unify_objects_to_map(Arena *a, const Type *const *types,
                                        uint32_t n, bool unsafe)
{
  uint32_t cnt;
  const Type **m = flatten_members(a, types, n, &cnt);
  const Type *e = unify(a, m, cnt, unsafe);
  if (!e)
    return NULL;
  const Type *r = ty_map(a, e);
  return all_convert(a, types, n, r, unsafe) ? r : NULL;
}

static const Type *unify_tuples_to_list(Arena *a, const Type *const *types,
                                        uint32_t n, bool unsafe)
{
  uint32_t cnt;
  const Type **m = flatten_members(a, types, n, &cnt);
  const Type *e = unify(a, m, cnt, unsafe);
  if (!e)
    return NULL;
  const Type *r = ty_list(a, e);
  return all_convert(a, types, n, r, unsafe) ? r : NULL;
}

static const Type *unify_objects(Arena *a, const Type *const *types,
                                 uint32_t n, bool unsafe)
{
  const Type *first = types[0];
  for (uint32_t i = 1; i < n; i++) {
    if (types[i]->n != first->n)
      return unify_objects_to_map(a, types, n, unsafe);
    for (uint32_t j = 0; j < types[i]->n; j++)
      if (ty_attr_index(first, types[i]->names[j]) < 0)
        return unify_objects_to_map(a, types, n, unsafe);
  }
  const Type **at = ARENA_NEW(a, const Type *, first->n);
  const Type **across = ARENA_NEW(a, const Type *, n);
  for (uint32_t j = 0; j < first->n; j++) {
    for (uint32_t i = 0; i < n; i++)
      across[i] = types[i]->types[ty_attr_index(types[i], first->names[j])];
    at[j] = unify(a, across, n, unsafe);
    if (!at[j])
      return NULL;
  }
  const Type *r = ty_object(a, first->n, first->names, at);
  if (!all_convert(a, types, n, r, unsafe))
    return unify_objects_to_map(a, types, n, unsafe);
  return r;
}

static const Type *unify_tuples(Arena *a, const Type *const *types,
                                uint32_t n, bool unsafe)
{
  const Type *first = types[0];
  for (uint32_t i = 1; i < n; i++)
    if (types[i]->n != first->n)
      return unify_tuples_to_list(a, types, n, unsafe);
  const Type **et = ARENA_NEW(a, const Type *, first->n);
  const Type **across = ARENA_NEW(a, const Type *, n);
  for (uint32_t j = 0; j < first->n; j++) {
    for (uint32_t i = 0; i < n; i++)
      across[i] = types[i]->types[j];
    et[j] = unify(a, across, n, unsafe);
    if (!et[j])
      return NULL;
  }
  const Type *r = ty_tuple(a, first->n, et);
  if (!all_convert(a, types, n, r, unsafe))
    return unify_tuples_to_list(a, types, n, unsafe);
  return r;
}

/* unifyTuplesAsList / unifyObjectsAsMaps: turn the structural members into
** the collection kind first, then unify the whole lot. */
static const Type *unify_structs_as(Arena *a, const Type *const *types,
                                    uint32_t n, bool unsafe, TypeKind sk,
                                    TypeKind ck)
{
  uint32_t ns = 0;
  for (uint32_t i = 0; i < n; i++)
    ns += types[i]->kind == sk;
  const Type **st = ARENA_NEW(a, const Type *, ns);
  ns = 0;
  for (uint32_t i = 0; i < n; i++)
    if (types[i]->kind == sk)
      st[ns++] = types[i];
  const Type *c = sk == TY_TUPLE ? unify_tuples_to_list(a, st, ns, unsafe) :
                                   unify_objects_to_map(a, st, ns, unsafe);
  if (!c || c->kind != ck)
    return NULL;
  const Type **all = ARENA_NEW(a, const Type *, n);
  for (uint32_t i = 0; i < n; i++)
    all[i] = types[i]->kind == sk ? c : types[i];
  const Type *r = unify(a, all, n, unsafe);
  if (!r || r->kind != ck)
    return NULL;
  return r;
}

static const Type *unify(Arena *a, const Type *const *in_types, uint32_t nin,
                         bool unsafe)
{
  if (nin == 0)
    return NULL;
  /* Duplicates change nothing in cty's algorithm but cost quadratic time
  ** in the preference sort; drop them first. */
  const Type **types = ARENA_NEW(a, const Type *, nin);
  uint32_t n = 0;
  for (uint32_t i = 0; i < nin; i++) {
    uint32_t j = 0;
    while (j < n && !ty_equal(types[j], in_types[i]))
      j++;
    if (j == n)
      types[n++] = in_types[i];
  }
  if (n == 1)
    return types[0];

  uint32_t mapc = 0, listc = 0, setc = 0, objc = 0, tupc = 0, dync = 0;
  for (uint32_t i = 0; i < n; i++) {
    switch (types[i]->kind) {
    case TY_MAP: mapc++; break;
    case TY_LIST: listc++; break;
    case TY_SET: setc++; break;
    case TY_OBJECT: objc++; break;
    case TY_TUPLE: tupc++; break;
    case TY_DYNAMIC: dync++; break;
    default: break;
    }
  }
  if (mapc > 0 && mapc + dync == n)
    return dync ? &ty_dynamic : unify_collections(a, TY_MAP, types, n, unsafe);
  if (mapc > 0 && mapc + objc + dync == n) {
    const Type *r = unify_structs_as(a, types, n, unsafe, TY_OBJECT, TY_MAP);
    if (r)
      return r;
  } else if (listc > 0 && listc + dync == n) {
    return dync ? &ty_dynamic :
                  unify_collections(a, TY_LIST, types, n, unsafe);
  } else if (listc > 0 && listc + tupc + dync == n) {
    const Type *r = unify_structs_as(a, types, n, unsafe, TY_TUPLE, TY_LIST);
    if (r)
      return r;
  } else if (setc > 0 && setc + dync == n) {
    return dync ? &ty_dynamic : unify_collections(a, TY_SET, types, n, unsafe);
  } else if (objc > 0 && objc + dync == n) {
    return dync ? &ty_dynamic : unify_objects(a, types, n, unsafe);
  } else if (tupc > 0 && tupc + dync == n) {
    return dync ? &ty_dynamic : unify_tuples(a, types, n, unsafe);
  } else if (objc > 0 && tupc > 0) {
    return NULL;
  }

  uint32_t *order = ARENA_NEW(a, uint32_t, n);
  sort_types(a, types, n, order);
  for (uint32_t k = 0; k < n; k++) {
    const Type *want = types[order[k]];
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++)
      if (i != order[k])
        ok = convertible(a, types[i], want, unsafe);
    if (ok)
      return want;
  }
  return NULL;
}

const Type *conv_unify(Arena *a, const Type *const *types, uint32_t n,
                       bool unsafe)
{
  return unify(a, types, n, unsafe);
}

/* ---- Static conversion check ------------------------------------------ */

/* The element type a tuple converts to for list(ety)/set(ety): ety, or
** with ety dynamic the unified element type; NULL when impossible. */
static const Type *tuple_coll_ety(Arena *a, const Type *tup, const Type *ety,
                                  bool unsafe)
{
  if (ety->kind != TY_DYNAMIC)
    return ety;
  const Type *u = unify(a, tup->types, tup->n, unsafe);
  if (!u)
    return NULL;
  if (u->kind == TY_DYNAMIC)
    for (uint32_t i = 0; i < tup->n; i++)
      if (tup->types[i]->kind != TY_DYNAMIC)
        return NULL;
  return u;
}

static const Type *object_map_ety(Arena *a, const Type *obj,
                                  const Type *ety, bool unsafe)
{
  if (ety->kind != TY_DYNAMIC)
    return ety;
  return unify(a, obj->types, obj->n, unsafe);
}

static bool possible(Arena *a, const Type *in, const Type *out, bool unsafe)
{
  if (out->kind == TY_DYNAMIC)
    return true;
  if (ty_equal(in, out))
    return true;
  if (in->kind == TY_DYNAMIC)
    return unsafe;
  if (ty_is_primitive(in) && ty_is_primitive(out)) {
    if (out->kind == TY_STRING)
      return true;  /* number and bool to string are safe */
    return unsafe && in->kind == TY_STRING;
  }
  switch (out->kind) {
  case TY_OBJECT:
    if (in->kind == TY_OBJECT) {
      for (uint32_t i = 0; i < out->n; i++) {
        int j = ty_attr_index(in, out->names[i]);
        if (j < 0) {
          if (!attr_opt(out, i))
            return false;
          continue;
        }
        if (!convertible(a, in->types[j], out->types[i], unsafe))
          return false;
      }
      return true;
    }
    if (in->kind == TY_MAP) {
      if (!unsafe)
        return false;
      for (uint32_t i = 0; i < out->n; i++)
        if (!convertible(a, in->elem, out->types[i], unsafe) &&
            !attr_opt(out, i))
          return false;
      return true;
    }
    return false;
  case TY_TUPLE:
    if (in->kind != TY_TUPLE || in->n != out->n)
      return false;
    for (uint32_t i = 0; i < in->n; i++)
      if (!convertible(a, in->types[i], out->types[i], unsafe))
        return false;
    return true;
  case TY_LIST:
  case TY_SET:
    if (in->kind == TY_LIST || in->kind == TY_SET) {
      if (out->kind == TY_SET && in->kind == TY_LIST && !unsafe)
        return false;
      return convertible(a, in->elem, out->elem, unsafe);
    }
    if (in->kind == TY_TUPLE) {
      if (in->n == 0)
        return true;
      const Type *e = tuple_coll_ety(a, in, out->elem, unsafe);
      return e && all_convert(a, in->types, in->n, e, unsafe);
    }
    return false;
  case TY_MAP:
    if (in->kind == TY_MAP)
      return convertible(a, in->elem, out->elem, unsafe);
    if (in->kind == TY_OBJECT) {
      if (in->n == 0)
        return true;
      const Type *e = object_map_ety(a, in, out->elem, unsafe);
      return e && all_convert(a, in->types, in->n, e, unsafe);
    }
    return false;
  default:
    return false;
  }
}

bool conv_possible(Arena *a, const Type *in, const Type *want, bool unsafe)
{
  return possible(a, in, want, unsafe);
}

/* ---- Messages -------------------------------------------------------- */

static void friendly_mode(Buf *out, const Type *t, bool constraint)
{
  switch (t->kind) {
  case TY_DYNAMIC:
    buf_puts(out, constraint ? "any type" : "dynamic");
    return;
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    buf_puts(out, t->kind == TY_LIST ? "list of " :
                  t->kind == TY_SET ? "set of " : "map of ");
    if (constraint && t->elem->kind == TY_DYNAMIC)
      buf_puts(out, "any single type");
    else
      friendly_mode(out, t->elem, constraint);
    return;
  default:
    ty_friendly(out, t);
    return;
  }
}

void conv_friendly_constraint(Buf *out, const Type *t)
{
  friendly_mode(out, t, true);
}

static void required(Buf *out, const Type *want)
{
  conv_friendly_constraint(out, want);
  buf_puts(out, " required");
}

static void put_goquote(Buf *out, const char *s)
{
  buf_putc(out, '"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      buf_putc(out, '\\');
      buf_putc(out, (char)c);
    } else if (c == '\n') {
      buf_puts(out, "\\n");
    } else if (c == '\t') {
      buf_puts(out, "\\t");
    } else if (c == '\r') {
      buf_puts(out, "\\r");
    } else if (c < 0x20 || c == 0x7f) {
      buf_printf(out, "\\x%02x", c);
    } else {
      buf_putc(out, (char)c);
    }
  }
  buf_putc(out, '"');
}

static void mismatch(Buf *out, Arena *a, const Type *got, const Type *want);

static void mismatch_objects(Buf *out, Arena *a, const Type *got,
                             const Type *want)
{
  uint32_t nmissing = 0;
  const char **missing = ARENA_NEW(a, const char *, want->n);
  Buf unsafe_attr, safe_attr;
  buf_init(&unsafe_attr, a);
  buf_init(&safe_attr, a);
  for (uint32_t i = 0; i < want->n; i++) {
    int j = ty_attr_index(got, want->names[i]);
    if (j < 0) {
      if (!attr_opt(want, i))
        missing[nmissing++] = want->names[i];
      continue;
    }
    const Type *gt = got->types[j], *wt = want->types[i];
    if (ty_equal(gt, wt))
      continue;
    if (unsafe_attr.len)
      continue;
    if (!possible(a, gt, wt, true)) {
      buf_puts(&unsafe_attr, "attribute ");
      put_goquote(&unsafe_attr, want->names[i]);
      buf_puts(&unsafe_attr, ": ");
      mismatch(&unsafe_attr, a, gt, wt);
    }
    if (safe_attr.len)
      continue;
    if (!possible(a, gt, wt, false)) {
      buf_puts(&safe_attr, "attribute ");
      put_goquote(&safe_attr, want->names[i]);
      buf_puts(&safe_attr, ": ");
      mismatch(&safe_attr, a, gt, wt);
    }
  }
  if (nmissing == 1) {
    buf_puts(out, "attribute ");
    put_goquote(out, missing[0]);
    buf_puts(out, " is required");
  } else if (nmissing == 2) {
    buf_puts(out, "attributes ");
    put_goquote(out, missing[0]);
    buf_puts(out, " and ");
    put_goquote(out, missing[1]);
    buf_puts(out, " are required");
  } else if (nmissing > 2) {
    buf_puts(out, "attributes ");
    for (uint32_t i = 0; i + 1 < nmissing; i++) {
      put_goquote(out, missing[i]);
      buf_puts(out, ", ");
    }
    buf_puts(out, "and ");
    put_goquote(out, missing[nmissing - 1]);
    buf_puts(out, " are required");
  } else if (unsafe_attr.len) {
    buf_put(out, unsafe_attr.p, unsafe_attr.len);
  } else if (safe_attr.len) {
    buf_put(out, safe_attr.p, safe_attr.len);
  } else {
    buf_puts(out, "incorrect object attributes");
  }
}

static void mismatch_from_structural(Buf *out, Arena *a, const Type *got,
                                     const Type *want)
{
  if ((want->kind == TY_LIST || want->kind == TY_SET) &&
      got->kind != TY_TUPLE) {
    required(out, want);
    return;
  }
  if (want->kind == TY_MAP && got->kind != TY_OBJECT) {
    required(out, want);
    return;
  }
  const Type *wet = want->elem;
  for (uint32_t i = 0; i < got->n; i++) {
    const Type *gt = got->types[i];
    if (ty_equal(gt, wet) || possible(a, gt, wet, true))
      continue;
    if (got->kind == TY_TUPLE) {
      buf_printf(out, "element %u: ", i);
    } else {
      buf_puts(out, "element ");
      put_goquote(out, got->names[i]);
      buf_puts(out, ": ");
    }
    mismatch(out, a, gt, wet);
    return;
  }
  buf_puts(out, "all elements must be ");
  conv_friendly_constraint(out, wet);
}

static void mismatch(Buf *out, Arena *a, const Type *got, const Type *want)
{
  if (got->kind == TY_OBJECT && want->kind == TY_OBJECT) {
    mismatch_objects(out, a, got, want);
  } else if (got->kind == TY_TUPLE && want->kind == TY_LIST &&
             want->elem->kind == TY_DYNAMIC) {
    buf_puts(out, "all list elements must have the same type");
  } else if (got->kind == TY_TUPLE && want->kind == TY_SET &&
             want->elem->kind == TY_DYNAMIC) {
    buf_puts(out, "all set elements must have the same type");
  } else if (got->kind == TY_OBJECT && want->kind == TY_MAP &&
             want->elem->kind == TY_DYNAMIC) {
    buf_puts(out, "all map elements must have the same type");
  } else if ((got->kind == TY_TUPLE || got->kind == TY_OBJECT) &&
             is_coll(want)) {
    mismatch_from_structural(out, a, got, want);
  } else if (is_coll(got) && is_coll(want)) {
    bool list_like = got->kind == TY_LIST || got->kind == TY_SET;
    if ((want->kind != TY_MAP && !list_like) ||
        (want->kind == TY_MAP && got->kind != TY_MAP)) {
      required(out, want);
      return;
    }
    buf_puts(out, want->kind == TY_LIST ? "incorrect list element type: " :
                  want->kind == TY_SET ? "incorrect set element type: " :
                                         "incorrect map element type: ");
    mismatch(out, a, got->elem, want->elem);
  } else {
    required(out, want);
  }
}

void conv_mismatch_message(Buf *out, Arena *a, const Type *got,
                           const Type *want)
{
  mismatch(out, a, got, want);
}

void conv_error_format(Buf *out, const ConvError *e)
{
  if (e->path.n) {
    val_path_format(out, e->path, true);
    buf_puts(out, ": ");
  }
  buf_puts(out, e->msg ? e->msg : "");
}

/* ---- dynamicReplace: the type of an unknown/null result --------------- */

static const Type *dyn_replace(Arena *a, const Type *in, const Type *out)
{
  if (in->kind == TY_DYNAMIC)
    return out;
  switch (out->kind) {
  case TY_DYNAMIC:
    return in;
  case TY_STRING:
  case TY_NUMBER:
  case TY_BOOL:
    return out;
  case TY_MAP: {
    const Type *e = &ty_dynamic;
    if (in->kind == TY_MAP) {
      e = dyn_replace(a, in->elem, out->elem);
    } else if (in->kind == TY_OBJECT) {
      const Type *u = unify(a, in->types, in->n, true);
      e = dyn_replace(a, u ? u : &ty_dynamic, out->elem);
    }
    return ty_map(a, e);
  }
  case TY_OBJECT: {
    const Type **tt = ARENA_NEW(a, const Type *, out->n);
    for (uint32_t i = 0; i < out->n; i++) {
      tt[i] = out->types[i];
      if (in->kind == TY_MAP) {
        tt[i] = dyn_replace(a, in->elem, out->types[i]);
      } else if (in->kind == TY_OBJECT) {
        int j = ty_attr_index(in, out->names[i]);
        if (j >= 0)
          tt[i] = dyn_replace(a, in->types[j], out->types[i]);
      }
    }
    if (in->kind != TY_MAP && in->kind != TY_OBJECT)
      return &ty_empty_object;
    return ty_object(a, out->n, out->names, tt);
  }
  case TY_LIST:
  case TY_SET: {
    const Type *e = &ty_dynamic;
    if (in->kind == TY_LIST || in->kind == TY_SET) {
      e = dyn_replace(a, in->elem, out->elem);
    } else if (in->kind == TY_TUPLE) {
      const Type *u = unify(a, in->types, in->n, true);
      e = dyn_replace(a, u ? u : &ty_dynamic, out->elem);
    }
    return out->kind == TY_LIST ? ty_list(a, e) : ty_set(a, e);
  }
  case TY_TUPLE: {
    const Type **tt = ARENA_NEW(a, const Type *, out->n);
    for (uint32_t i = 0; i < out->n; i++) {
      const Type *it = in->kind == TY_TUPLE && i < in->n ? in->types[i] :
                                                          &ty_dynamic;
      tt[i] = dyn_replace(a, it, out->types[i]);
    }
    return ty_tuple(a, out->n, tt);
  }
  }
  return out;
}

/* ---- The conversion walk ---------------------------------------------- */

typedef struct Cx {
  Arena *a;
  bool unsafe;
  PathStep *path;
  uint32_t np, cap;
  ConvError *err;
} Cx;

static void push(Cx *c, PathStep st)
{
  if (c->np == c->cap) {
    uint32_t nc = c->cap ? c->cap * 2 : 8;
    c->path = arena_grow(c->a, c->path, sizeof *c->path, _Alignof(PathStep),
                         c->cap, nc);
    c->cap = nc;
  }
  c->path[c->np++] = st;
}

static void push_index(Cx *c, uint32_t i)
{
  PathStep st = {PS_INDEX, NULL, (int64_t)i};
  push(c, st);
}

static void push_name(Cx *c, PathStepKind k, const char *name)
{
  PathStep st = {k, name, 0};
  push(c, st);
}

static bool fail(Cx *c, const char *msg)
{
  if (c->err) {
    PathStep *p = ARENA_NEW(c->a, PathStep, c->np);
    for (uint32_t i = 0; i < c->np; i++) {
      p[i] = c->path[i];
      if (p[i].name)
        p[i].name = arena_strdup(c->a, p[i].name);
    }
    c->err->msg = arena_strdup(c->a, msg);
    c->err->path.steps = p;
    c->err->path.n = c->np;
  }
  return false;
}

static bool cv(Cx *c, Value in, const Type *out, Value *res);

static bool all_same_type(const Value *v, uint32_t n)
{
  for (uint32_t i = 1; i < n; i++)
    if (!ty_equal(v[0].type, v[i].type))
      return false;
  return true;
}

static Value strip_null(Cx *c, Value v)
{
  if (val_is_null(v)) {
    Value r = val_null(conv_strip_optional(c->a, v.type));
    return val_mark(r, v.flags & VF_MARKS);
  }
  return v;
}

static bool prim_convert(Cx *c, Value in, const Type *out, Value *res)
{
  if (out->kind == TY_STRING) {
    if (in.type->kind == TY_BOOL) {
      *res = val_str_ref(in.u.b ? "true" : "false", in.u.b ? 4 : 5);
      return true;
    }
    Buf b;
    buf_init(&b, c->a);
    val_num_format(&b, in);
    *res = val_str_ref(b.p, b.len);
    return true;
  }
  const char *s = in.u.s;
  size_t n = in.len;
  if (out->kind == TY_NUMBER) {
    /* big.ParseFloat in base 10: sign, digits, point, exponent, and
    ** "inf"/"Inf". */
    size_t k = (n && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    if (n - k == 3 && (memcmp(s + k, "inf", 3) == 0 ||
                       memcmp(s + k, "Inf", 3) == 0)) {
      *res = val_double(s[0] == '-' ? -__builtin_inf() : __builtin_inf());
      return true;
    }
    Value v;
    if (memchr(s, 0, n) || !val_parse_number(c->a, s, n, false, &v))
      return fail(c, "a number is required");
    if (v.flags & VF_FLOAT) {
      /* Keep the exact decimal (as cty's big floats would) when the
      ** double cannot render it: a literal in canonical positional form. */
      Value lit, nv;
      Buf exact, plain;
      val_parse_number(c->a, s, n, true, &lit);
      buf_init(&exact, c->a);
      buf_init(&plain, c->a);
      val_num_format(&exact, lit);
      val_num_format(&plain, v);
      if (strcmp(buf_str(&exact), buf_str(&plain)) != 0 &&
          val_parse_number(c->a, exact.p, exact.len, true, &nv))
        v = nv;
    }
    *res = v;
    return true;
  }
  /* string -> bool */
  if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 1 && s[0] == '1')) {
    *res = val_true;
    return true;
  }
  if ((n == 5 && memcmp(s, "false", 5) == 0) || (n == 1 && s[0] == '0')) {
    *res = val_false;
    return true;
  }
  if (n == 4 && strncasecmp(s, "true", 4) == 0)
    return fail(c, "a bool is required; to convert from string, use "
                   "lowercase \"true\"");
  if (n == 5 && strncasecmp(s, "false", 5) == 0)
    return fail(c, "a bool is required; to convert from string, use "
                   "lowercase \"false\"");
  return fail(c, "a bool is required");
}

/* Converts each element of elems (types given by `from`, NULL meaning
** "look at the value") to ety, in place; steps are indexes. */
static bool conv_elems(Cx *c, Value *elems, uint32_t n, const Type *from,
                       const Type *ety)
{
  for (uint32_t i = 0; i < n; i++) {
    const Type *ft = from ? from : elems[i].type;
    if (ty_equal(ft, ety))
      continue;
    push_index(c, i);
    bool ok = cv(c, elems[i], ety, &elems[i]);
    c->np--;
    if (!ok)
      return false;
  }
  return true;
}

static Value *copy_elems(Cx *c, Value in)
{
  Value *e = ARENA_NEW(c->a, Value, in.len);
  if (in.len)
    memcpy(e, in.u.elems, in.len * sizeof *e);
  return e;
}

static bool coll_to_list_or_set(Cx *c, Value in, const Type *out, Value *res)
{
  const Type *ety = out->elem;
  uint32_t n = in.len;
  Value *e = copy_elems(c, in);
  const Type *from = in.type->kind == TY_TUPLE ? NULL : in.type->elem;
  bool is_set = out->kind == TY_SET;
  if (in.type->kind == TY_TUPLE) {
    if (n == 0) {
      const Type *t = conv_strip_optional(c->a, ety);
      *res = is_set ? val_set(c->a, t, e, 0) : val_list(c->a, t, e, 0);
      return true;
    }
    ety = tuple_coll_ety(c->a, in.type, ety, c->unsafe);
    if (!ety)
      return fail(c, "all elements must have the same type");
  }
  if (!conv_elems(c, e, n, from, ety))
    return false;
  if (is_set || in.type->kind != TY_TUPLE)
    for (uint32_t i = 0; i < n; i++)
      e[i] = strip_null(c, e[i]);
  if (n == 0) {
    const Type *t = ety->kind == TY_DYNAMIC ? in.type->elem :
                                              conv_strip_optional(c->a, ety);
    *res = is_set ? val_set(c->a, t, e, 0) : val_list(c->a, t, e, 0);
    return true;
  }
  if (!is_set && in.type->kind == TY_TUPLE) {
    /* conversionUnifyListElements */
    const Type **tys = ARENA_NEW(c->a, const Type *, n);
    for (uint32_t i = 0; i < n; i++)
      tys[i] = e[i].type;
    const Type *u = unify(c->a, tys, n, c->unsafe);
    if (!u)
      return fail(c, "cannot find a common base type for all elements");
    if (!conv_elems(c, e, n, NULL, u))
      return false;
  }
  if (!all_same_type(e, n))
    return fail(c, is_set ?
                "element types must all match for conversion to set" :
                "element types must all match for conversion to list");
  *res = is_set ? val_set(c->a, e[0].type, e, n) :
                  val_list(c->a, e[0].type, e, n);
  return true;
}

/* conversionUnifyCollectionElements over map entries. */
static bool unify_entries(Cx *c, MapEntry *e, uint32_t n, bool unsafe)
{
  const Type **tys = ARENA_NEW(c->a, const Type *, n);
  for (uint32_t i = 0; i < n; i++)
    tys[i] = e[i].val.type;
  const Type *u = unify(c->a, tys, n, unsafe);
  if (!u)
    return fail(c, "cannot find a common base type for all elements");
  for (uint32_t i = 0; i < n; i++) {
    if (ty_equal(e[i].val.type, u))
      continue;
    push_name(c, PS_KEY, e[i].key);
    bool ok = cv(c, e[i].val, u, &e[i].val);
    c->np--;
    if (!ok)
      return false;
  }
  return true;
}

static bool to_map(Cx *c, Value in, const Type *out, Value *res)
{
  const Type *ety = out->elem;
  uint32_t n = in.len;
  MapEntry *e = ARENA_NEW(c->a, MapEntry, n);
  bool from_obj = in.type->kind == TY_OBJECT;
  if (from_obj) {
    if (n == 0) {
      *res = val_map(c->a, conv_strip_optional(c->a, ety), e, 0);
      return true;
    }
    ety = object_map_ety(c->a, in.type, ety, c->unsafe);
    if (!ety)
      return fail(c, "all map elements must have the same type");
  }
  for (uint32_t i = 0; i < n; i++) {
    Value v;
    const Type *ft;
    if (from_obj) {
      e[i].key = in.type->names[i];
      e[i].keylen = (uint32_t)strlen(e[i].key);
      v = in.u.elems[i];
      ft = in.type->types[i];
    } else {
      e[i] = in.u.entries[i];
      v = e[i].val;
      ft = in.type->elem;
    }
    if (!ty_equal(ft, ety)) {
      push_name(c, PS_KEY, e[i].key);
      bool ok = cv(c, v, ety, &v);
      c->np--;
      if (!ok)
        return false;
    }
    e[i].val = v;
  }
  if (n == 0) {
    const Type *t = ety->kind == TY_DYNAMIC ? in.type->elem :
                                              conv_strip_optional(c->a, ety);
    *res = val_map(c->a, t, e, 0);
    return true;
  }
  if (is_coll(ety) || ety->kind == TY_OBJECT)
    if (!unify_entries(c, e, n, from_obj ? c->unsafe : false))
      return false;
  for (uint32_t i = 1; i < n; i++)
    if (!ty_equal(e[0].val.type, e[i].val.type))
      return fail(c, from_obj ?
                  "attribute types must all match for conversion to map" :
                  "element types must all match for conversion to map");
  *res = val_map(c->a, e[0].val.type, e, n);
  return true;
}

/* The value of a missing or null optional attribute: its default converted
** to the attribute type (which applies nested defaults), or null. */
static bool opt_value(Cx *c, const Type *out, uint32_t i, Value *res)
{
  Value d;
  if (attr_default(out, i, &d) && !val_is_null(d)) {
    push_name(c, PS_ATTR, out->names[i]);
    bool ok = cv(c, d, out->types[i], res);
    c->np--;
    return ok;
  }
  *res = val_null(conv_strip_optional(c->a, out->types[i]));
  return true;
}

static bool obj_result(Cx *c, const Type *out, Value *vals, Value *res)
{
  const Type **tt = ARENA_NEW(c->a, const Type *, out->n);
  for (uint32_t i = 0; i < out->n; i++)
    tt[i] = vals[i].type;
  *res = val_object_typed(ty_object(c->a, out->n, out->names, tt), vals);
  return true;
}

static bool obj_to_obj(Cx *c, Value in, const Type *out, Value *res)
{
  Value *vals = ARENA_NEW(c->a, Value, out->n);
  for (uint32_t i = 0; i < out->n; i++) {
    int j = ty_attr_index(in.type, out->names[i]);
    if (j < 0) {
      if (!opt_value(c, out, i, &vals[i]))
        return false;
      continue;
    }
    Value v = in.u.elems[j];
    if (!ty_equal(in.type->types[j], out->types[i])) {
      push_name(c, PS_ATTR, out->names[i]);
      bool ok = cv(c, v, out->types[i], &v);
      c->np--;
      if (!ok)
        return false;
    }
    v = strip_null(c, v);
    Value d;
    if (val_is_null(v) && attr_default(out, i, &d) && !val_is_null(d)) {
      if (!opt_value(c, out, i, &v))
        return false;
    }
    vals[i] = v;
  }
  return obj_result(c, out, vals, res);
}

static bool map_to_obj(Cx *c, Value in, const Type *out, Value *res)
{
  Value *vals = ARENA_NEW(c->a, Value, out->n);
  const Type *mety = in.type->elem;
  for (uint32_t i = 0; i < out->n; i++) {
    const char *name = out->names[i];
    bool found;
    Value v = val_map_get(in, name, strlen(name), &found);
    if (!found) {
      if (!attr_opt(out, i)) {
        Buf b;
        buf_init(&b, c->a);
        buf_puts(&b, "map has no element for required attribute ");
        put_goquote(&b, name);
        return fail(c, b.p);
      }
      if (!opt_value(c, out, i, &vals[i]))
        return false;
      continue;
    }
    const Type *at = out->types[i];
    if (!ty_equal(mety, at)) {
      if (!possible(c->a, mety, at, c->unsafe)) {
        Buf b;
        buf_init(&b, c->a);
        buf_puts(&b, "map element type is incompatible with attribute ");
        put_goquote(&b, name);
        buf_puts(&b, ": ");
        mismatch(&b, c->a, v.type, at);
        return fail(c, b.p);
      }
      push_name(c, PS_KEY, name);
      bool ok = cv(c, v, at, &v);
      c->np--;
      if (!ok)
        return false;
    }
    v = strip_null(c, v);
    Value d;
    if (val_is_null(v) && attr_default(out, i, &d) && !val_is_null(d)) {
      if (!opt_value(c, out, i, &v))
        return false;
    }
    vals[i] = v;
  }
  return obj_result(c, out, vals, res);
}

static bool tuple_to_tuple(Cx *c, Value in, const Type *out, Value *res)
{
  Value *e = copy_elems(c, in);
  for (uint32_t i = 0; i < in.len; i++) {
    if (ty_equal(in.type->types[i], out->types[i]))
      continue;
    push_index(c, i);
    bool ok = cv(c, e[i], out->types[i], &e[i]);
    c->np--;
    if (!ok)
      return false;
  }
  *res = val_tuple(c->a, e, in.len);
  return true;
}

static bool cv_known(Cx *c, Value in, const Type *out, Value *res)
{
  const Type *it = in.type;
  if (ty_equal(it, out)) {
    *res = in;
    return true;
  }
  if (ty_is_primitive(it) && ty_is_primitive(out) &&
      possible(c->a, it, out, c->unsafe))
    return prim_convert(c, in, out, res);
  if (out->kind == TY_OBJECT && it->kind == TY_OBJECT)
    return obj_to_obj(c, in, out, res);
  if (out->kind == TY_TUPLE && it->kind == TY_TUPLE && it->n == out->n)
    return tuple_to_tuple(c, in, out, res);
  if ((out->kind == TY_LIST || out->kind == TY_SET) &&
      (it->kind == TY_LIST || it->kind == TY_SET || it->kind == TY_TUPLE))
    return coll_to_list_or_set(c, in, out, res);
  if (out->kind == TY_MAP && (it->kind == TY_MAP || it->kind == TY_OBJECT))
    return to_map(c, in, out, res);
  if (out->kind == TY_OBJECT && it->kind == TY_MAP)
    return map_to_obj(c, in, out, res);
  /* Unreachable after the static check, except for malformed values. */
  Buf b;
  buf_init(&b, c->a);
  mismatch(&b, c->a, it, out);
  return fail(c, b.p);
}

static bool cv(Cx *c, Value in, const Type *out, Value *res)
{
  uint16_t marks = in.flags & VF_MARKS;
  in = val_unmark(in);
  if (out->kind == TY_DYNAMIC) {
    *res = val_mark(in, marks);
    return true;
  }
  if (val_is_unknown(in) || val_is_null(in)) {
    const Type *t = dyn_replace(c->a, in.type, conv_strip_optional(c->a, out));
    Value r = val_is_unknown(in) ? val_unknown(t) : val_null(t);
    if (val_is_unknown(in))
      r = val_mark(r, in.flags & VF_NOTNULL);  /* refinement survives */
    *res = val_mark(r, marks);
    return true;
  }
  if (in.type->kind == TY_DYNAMIC)
    return fail(c, "a known value of the dynamic type");
  if (!cv_known(c, in, out, res))
    return false;
  *res = val_mark(*res, marks);
  return true;
}

bool conv_convert(Arena *a, Value in, const Type *want, bool unsafe,
                  Value *out, ConvError *err)
{
  if (ty_equal(in.type, want)) {
    *out = in;
    return true;
  }
  if (!possible(a, in.type, want, unsafe)) {
    if (err) {
      Buf b;
      buf_init(&b, a);
      mismatch(&b, a, in.type, want);
      err->msg = buf_str(&b);
      err->path.steps = NULL;
      err->path.n = 0;
    }
    return false;
  }
  Cx c = {a, unsafe, NULL, 0, 0, err};
  return cv(&c, in, want, out);
}
