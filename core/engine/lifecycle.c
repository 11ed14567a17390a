/*
** lifecycle: ignore_changes, replace_triggered_by, custom conditions and
** prevent_destroy.  See lifecycle.h and docs/lifecycle.md.
*/
#include "lifecycle.h"

#include <stdlib.h>
#include <string.h>

#include "base/convert.h"
#include "vars.h"

/* ---- small helpers ------------------------------------------------------ */

static void go_quote(Buf *b, const char *s)
{
  buf_putc(b, '"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      buf_printf(b, "\\%c", c);
    else if (c == '\n')
      buf_puts(b, "\\n");
    else if (c == '\t')
      buf_puts(b, "\\t");
    else if (c < 0x20)
      buf_printf(b, "\\x%02x", c);
    else
      buf_putc(b, (char)c);
  }
  buf_putc(b, '"');
}

static const char *quoted(Arena *a, const char *s)
{
  Buf b;
  buf_init(&b, a);
  go_quote(&b, s);
  return buf_str(&b);
}

static bool valid_ident(const char *s)
{
  const unsigned char *p = (const unsigned char *)s;
  if (!*p || !(*p >= 0x80 || *p == '_' || (*p >= 'a' && *p <= 'z') ||
               (*p >= 'A' && *p <= 'Z')))
    return false;
  for (p++; *p; p++)
    if (!(*p >= 0x80 || *p == '_' || *p == '-' || (*p >= 'a' && *p <= 'z') ||
          (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
      return false;
  return true;
}

static int cmp_cstr(const void *x, const void *y)
{
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* ---- cty paths ---------------------------------------------------------- */

/* One step of a cty.Path: GetAttrStep (attr) or IndexStep (key). */
typedef struct CStep {
  bool attr;
  const char *name;         /* attr */
  Value key;                /* index: number or string */
} CStep;

typedef struct CPath {
  CStep *steps;
  uint32_t n;
} CPath;

/* traversalToPath: root and attribute steps become GetAttr, index steps
** Index with the constant key. */
static CPath trav_path(Arena *a, const HclTraversal *t)
{
  CPath p = {ARENA_NEW(a, CStep, t->n ? t->n : 1), t->n};
  for (uint32_t i = 0; i < t->n; i++) {
    const HclStep *s = &t->steps[i];
    if (s->kind == HCL_STEP_INDEX) {
      p.steps[i].key = *s->key;
    } else {
      p.steps[i].attr = true;
      p.steps[i].name = s->name;
    }
  }
  return p;
}

static bool key_is_str(Value k)
{
  return k.type && k.type->kind == TY_STRING && val_is_known(k) &&
         !val_is_null(k);
}

static bool key_is_num(Value k)
{
  return k.type && k.type->kind == TY_NUMBER && val_is_known(k) &&
         !val_is_null(k);
}

static bool step_equal(const CStep *x, const CStep *y)
{
  if (x->attr != y->attr)
    return false;
  if (x->attr)
    return strcmp(x->name, y->name) == 0;
  if (key_is_str(x->key) && key_is_str(y->key))
    return x->key.len == y->key.len &&
           memcmp(x->key.u.s, y->key.u.s, x->key.len) == 0;
  if (key_is_num(x->key) && key_is_num(y->key))
    return val_num_cmp(x->key, y->key) == 0;
  return false;
}

/* cty's GetAttrStep/IndexStep.Apply: false where cty returns an error.
** Marks of the container carry over to the result, as cty's operations
** on marked values do. */
static bool step_apply(Value v, const CStep *s, Value *out)
{
  uint16_t mk = (uint16_t)(v.flags & VF_MARKS);
  if (!v.type || val_is_null(v))
    return false;
  const Type *t = v.type;
  if (s->attr) {
    if (t->kind != TY_OBJECT)
      return false;
    int i = ty_attr_index(t, s->name);
    if (i < 0)
      return false;
    Value r = val_is_unknown(v) ? val_unknown(t->types[i]) : v.u.elems[i];
    *out = val_mark(r, mk);
    return true;
  }
  if (key_is_num(s->key)) {
    if (t->kind != TY_LIST && t->kind != TY_TUPLE)
      return false;
    int64_t i;
    if (!val_num_int(s->key, &i) || i < 0)
      return false;
    if (val_is_unknown(v)) {
      if (t->kind == TY_LIST) {
        *out = val_mark(val_unknown(t->elem), mk);
        return true;
      }
      if ((uint64_t)i >= t->n)
        return false;
      *out = val_mark(val_unknown(t->types[i]), mk);
      return true;
    }
    if ((uint64_t)i >= v.len)
      return false;
    *out = val_mark(v.u.elems[i], mk);
    return true;
  }
  if (key_is_str(s->key)) {
    if (t->kind != TY_MAP)
      return false;
    if (val_is_unknown(v)) {
      *out = val_mark(val_unknown(t->elem), mk);
      return true;
    }
    bool found;
    Value r = val_map_get(v, s->key.u.s, s->key.len, &found);
    if (!found)
      return false;
    *out = val_mark(r, mk);
    return true;
  }
  return false;
}

static bool path_apply(Value v, const CStep *steps, uint32_t n, Value *out)
{
  for (uint32_t i = 0; i < n; i++)
    if (!step_apply(v, &steps[i], &v))
      return false;
  *out = v;
  return true;
}

/* ---- ignore_changes: processIgnoreChangesIndividual --------------------- */

typedef struct Ignored {
  CPath path;               /* without a trailing string-keyed index */
  Value value;              /* prior value at path */
  Value key;                /* the trimmed map key, or a null string */
  bool has_key;
} Ignored;

typedef struct Xf {
  Arena *a;
  Ignored *ign;
  uint32_t nign;
  CStep *cur;               /* the path being visited */
  uint32_t depth;
} Xf;

static bool cur_equals(const Xf *x, const CPath *p)
{
  if (p->n != x->depth)
    return false;
  for (uint32_t i = 0; i < p->n; i++)
    if (!step_equal(&x->cur[i], &p->steps[i]))
      return false;
  return true;
}

/* True when some ignored path starts with the current path and is longer:
** only then can anything below the current node change. */
static bool cur_is_prefix(const Xf *x)
{
  for (uint32_t k = 0; k < x->nign; k++) {
    const CPath *p = &x->ign[k].path;
    if (p->n <= x->depth)
      continue;
    bool ok = true;
    for (uint32_t i = 0; i < x->depth && ok; i++)
      ok = step_equal(&x->cur[i], &p->steps[i]);
    if (ok)
      return true;
  }
  return false;
}

static Value xf_node(Xf *x, Value v);

/* Whether the walk changed a value: identical structs first, which is the
** common case and keeps the walk linear. */
static bool differs(Value c, Value old)
{
  if (c.type == old.type && c.flags == old.flags && c.len == old.len &&
      memcmp(&c.u, &old.u, sizeof c.u) == 0)
    return false;
  return !val_raw_equal(c, old, true);
}

/* Visits the children of v (post-order, as cty.Transform does) and
** rebuilds v when one of them changed.  Sets are not entered: no
** traversal step can address a set element. */
static Value xf_children(Xf *x, Value v)
{
  if (!v.type || val_is_null(v) || val_is_unknown(v) || !cur_is_prefix(x))
    return v;
  const Type *t = v.type;
  Arena *a = x->a;
  CStep *st = &x->cur[x->depth];
  memset(st, 0, sizeof *st);
  bool changed = false, retyped = false;
  Value out = v;
  if (t->kind == TY_OBJECT) {
    Value *nv = NULL;
    for (uint32_t i = 0; i < t->n; i++) {
      st->attr = true;
      st->name = t->names[i];
      x->depth++;
      Value c = xf_node(x, v.u.elems[i]);
      x->depth--;
      if (differs(c, v.u.elems[i])) {
        if (!nv) {
          nv = ARENA_NEW(a, Value, t->n);
          memcpy(nv, v.u.elems, sizeof(Value) * t->n);
        }
        nv[i] = c;
        changed = true;
        if (!ty_equal(c.type, t->types[i]))
          retyped = true;
      }
    }
    if (changed)
      out = retyped ? val_object(a, t->n, t->names, nv)
                    : val_object_typed(t, nv);
  } else if (t->kind == TY_LIST || t->kind == TY_TUPLE) {
    Value *nv = NULL;
    for (uint32_t i = 0; i < v.len; i++) {
      st->attr = false;
      st->key = val_int(i);
      x->depth++;
      Value c = xf_node(x, v.u.elems[i]);
      x->depth--;
      if (differs(c, v.u.elems[i])) {
        if (!nv) {
          nv = ARENA_NEW(a, Value, v.len);
          memcpy(nv, v.u.elems, sizeof(Value) * v.len);
        }
        nv[i] = c;
        changed = true;
      }
    }
    if (changed)
      out = t->kind == TY_LIST ? val_list(a, t->elem, nv, v.len)
                               : val_tuple(a, nv, v.len);
  } else if (t->kind == TY_MAP) {
    MapEntry *ne = NULL;
    for (uint32_t i = 0; i < v.len; i++) {
      st->attr = false;
      st->key = val_str_ref(v.u.entries[i].key, v.u.entries[i].keylen);
      x->depth++;
      Value c = xf_node(x, v.u.entries[i].val);
      x->depth--;
      if (differs(c, v.u.entries[i].val)) {
        if (!ne) {
          ne = ARENA_NEW(a, MapEntry, v.len);
          memcpy(ne, v.u.entries, sizeof(MapEntry) * v.len);
        }
        ne[i].val = c;
        changed = true;
      }
    }
    if (changed)
      out = val_map(a, t->elem, ne, v.len);
  }
  if (changed)
    out = val_mark(out, (uint16_t)(v.flags & VF_MARKS));
  return out;
}

/* The map case of the transform: keys ignored one by one. */
static Value xf_map(Xf *x, Value v)
{
  if (!val_is_null(v) && val_is_unknown(v))
    return v;
  Arena *a = x->a;
  uint16_t vmarks = (uint16_t)(v.flags & VF_MARKS);
  bool any = false;
  for (uint32_t k = 0; k < x->nign; k++)
    if (cur_equals(x, &x->ign[k].path))
      any = true;
  if (!any)
    return v;
  uint32_t n = val_is_null(v) ? 0 : v.len;
  uint32_t cap = n;
  for (uint32_t k = 0; k < x->nign; k++)
    cap++;
  MapEntry *ents = ARENA_NEW(a, MapEntry, cap ? cap : 1);
  if (n)
    memcpy(ents, v.u.entries, sizeof(MapEntry) * n);
  for (uint32_t k = 0; k < x->nign; k++) {
    const Ignored *ig = &x->ign[k];
    if (!cur_equals(x, &ig->path))
      continue;
    if (!ig->has_key)
      return ig->value;   /* the whole map */
    Value pm = ig->value;
    if (val_is_unknown(pm))
      continue;
    const char *key = ig->key.u.s;
    uint32_t klen = ig->key.len;
    bool pfound = false;
    Value pe = {0};
    if (!val_is_null(pm) && pm.type->kind == TY_MAP)
      pe = val_map_get(pm, key, klen, &pfound);
    uint32_t at = n;
    for (uint32_t i = 0; i < n; i++)
      if (ents[i].keylen == klen && memcmp(ents[i].key, key, klen) == 0)
        at = i;
    if (!pfound) {
      /* absent before: keep it absent */
      if (at < n) {
        memmove(&ents[at], &ents[at + 1], sizeof(MapEntry) * (n - at - 1));
        n--;
      }
    } else if (at < n) {
      ents[at].val = pe;
    } else {
      ents[n].key = key;
      ents[n].keylen = klen;
      ents[n].val = pe;
      n++;
    }
  }
  Value nv;
  const Type *elem = v.type->kind == TY_MAP ? v.type->elem : &ty_dynamic;
  if (n > 0)
    nv = val_map(a, elem, ents, n);
  else if (val_is_null(v))
    nv = val_unmark(v);
  else
    nv = val_map(a, elem, ents, 0);
  return val_mark(nv, vmarks);
}

static Value xf_node(Xf *x, Value v)
{
  v = xf_children(x, v);
  if (!v.type || v.type->kind != TY_MAP) {
    for (uint32_t k = 0; k < x->nign; k++)
      if (cur_equals(x, &x->ign[k].path))
        return x->ign[k].value;
    return v;
  }
  return xf_map(x, v);
}

static Value ignore_individual(Arena *a, Value prior, Value config,
                               const CfgTraversals *tr)
{
  Ignored *ign = ARENA_NEW(a, Ignored, tr->n ? tr->n : 1);
  uint32_t nign = 0, maxn = 1;
  for (uint32_t i = 0; i < tr->n; i++) {
    CPath p = trav_path(a, &tr->items[i]);
    if (p.n == 0)
      continue;
    Ignored ig = {p, {0}, val_null(&ty_string), false};
    CStep *last = &p.steps[p.n - 1];
    if (!last->attr && last->key.type &&
        last->key.type->kind == TY_STRING) {
      if (!key_is_str(last->key))
        continue;
      ig.key = last->key;
      ig.has_key = true;
      ig.path.n--;
    }
    Value pv, cv;
    if (!path_apply(prior, ig.path.steps, ig.path.n, &pv) ||
        !path_apply(config, ig.path.steps, ig.path.n, &cv))
      continue;
    if (val_raw_equal(pv, cv, true))
      continue;
    ig.value = pv;
    ign[nign++] = ig;
    if (ig.path.n + 1 > maxn)
      maxn = ig.path.n + 1;
  }
  if (!nign)
    return config;
  Xf x = {a, ign, nign, ARENA_NEW(a, CStep, maxn + 1), 0};
  return xf_node(&x, config);
}

/* ---- ignore_changes = all ------------------------------------------------ */

static Value strip_attrs(Arena *a, const ProvAttrSchema *attrs, uint32_t na,
                         const ProvNestedBlock *blocks, uint32_t nb, Value v);

static Value strip_nested(Arena *a, ProvNesting nest,
                          const ProvAttrSchema *attrs, uint32_t na,
                          const ProvNestedBlock *blocks, uint32_t nb, Value v)
{
  if (!v.type || val_is_null(v) || val_is_unknown(v))
    return v;
  const Type *t = v.type;
  if (nest == PROV_NEST_SINGLE || nest == PROV_NEST_GROUP ||
      t->kind == TY_OBJECT)
    return strip_attrs(a, attrs, na, blocks, nb, v);
  Value out = v;
  if (t->kind == TY_LIST || t->kind == TY_SET || t->kind == TY_TUPLE) {
    Value *nv = ARENA_NEW(a, Value, v.len ? v.len : 1);
    bool changed = false;
    for (uint32_t i = 0; i < v.len; i++) {
      nv[i] = strip_attrs(a, attrs, na, blocks, nb, v.u.elems[i]);
      if (!val_raw_equal(nv[i], v.u.elems[i], true))
        changed = true;
    }
    if (!changed)
      return v;
    if (t->kind == TY_LIST)
      out = val_list(a, t->elem, nv, v.len);
    else if (t->kind == TY_SET)
      out = val_set(a, t->elem, nv, v.len);
    else
      out = val_tuple(a, nv, v.len);
  } else if (t->kind == TY_MAP) {
    MapEntry *ne = ARENA_NEW(a, MapEntry, v.len ? v.len : 1);
    bool changed = false;
    for (uint32_t i = 0; i < v.len; i++) {
      ne[i] = v.u.entries[i];
      ne[i].val = strip_attrs(a, attrs, na, blocks, nb, v.u.entries[i].val);
      if (!val_raw_equal(ne[i].val, v.u.entries[i].val, true))
        changed = true;
    }
    if (!changed)
      return v;
    out = val_map(a, t->elem, ne, v.len);
  }
  return val_mark(out, (uint16_t)(v.flags & VF_MARKS));
}

/* Nulls every computed-only attribute of an object of this schema, at any
** depth (Terraform's Transform with AttributeByPath in the `all` case). */
static Value strip_attrs(Arena *a, const ProvAttrSchema *attrs, uint32_t na,
                         const ProvNestedBlock *blocks, uint32_t nb, Value v)
{
  if (!v.type || v.type->kind != TY_OBJECT || val_is_null(v) ||
      val_is_unknown(v))
    return v;
  const Type *t = v.type;
  Value *nv = NULL;
  for (uint32_t i = 0; i < na + nb; i++) {
    const char *name = i < na ? attrs[i].name : blocks[i - na].type_name;
    int idx = ty_attr_index(t, name);
    if (idx < 0)
      continue;
    Value old = v.u.elems[idx], c = old;
    if (i < na) {
      const ProvAttrSchema *at = &attrs[i];
      if ((at->flags & PROV_COMPUTED) && !(at->flags & PROV_OPTIONAL))
        c = val_null(old.type);
      else if (at->nested)
        c = strip_nested(a, at->nested->nesting, at->nested->attrs,
                         at->nested->nattrs, NULL, 0, old);
    } else {
      const ProvNestedBlock *b = &blocks[i - na];
      c = strip_nested(a, b->nesting, b->block->attrs, b->block->nattrs,
                       b->block->blocks, b->block->nblocks, old);
    }
    if (val_raw_equal(c, old, true))
      continue;
    if (!nv) {
      nv = ARENA_NEW(a, Value, t->n);
      memcpy(nv, v.u.elems, sizeof(Value) * t->n);
    }
    nv[idx] = c;
  }
  if (!nv)
    return v;
  Value out = val_object_typed(t, nv);
  return val_mark(out, (uint16_t)(v.flags & VF_MARKS));
}

Value lc_ignore_changes(Arena *a, Value config, Value prior,
                        const CfgResource *r, const ProvBlockSchema *schema)
{
  if (!prior.type || val_is_null(prior) || !r)
    return config;
  if (r->ignore_changes.n == 0 && !r->ignore_all_changes)
    return config;
  if (r->ignore_all_changes) {
    if (!schema)
      return prior;
    return strip_attrs(a, schema->attrs, schema->nattrs, schema->blocks,
                       schema->nblocks, prior);
  }
  if (!config.type || val_is_null(config))
    return config;
  return ignore_individual(a, prior, config, &r->ignore_changes);
}

/* ---- ignore_changes: static validation ---------------------------------- */

static bool validate_block(Arena *a, const ProvBlockSchema *b,
                           const HclStep *st, uint32_t n, Diags *d);

static bool validate_nested(Arena *a, const ProvNestedBlock *nb,
                            const HclStep *st, uint32_t n, Diags *d)
{
  if (nb->nesting == PROV_NEST_SINGLE || nb->nesting == PROV_NEST_GROUP)
    return validate_block(a, nb->block, st, n, d);
  if (n == 0)
    return true;
  const HclStep *next = &st[0];
  switch (nb->nesting) {
  case PROV_NEST_SET:
    diag_error(d, &next->range, "Cannot index a set value",
               "Block type %s is represented by a set of objects, and set "
               "elements do not have addressable keys. To find elements "
               "matching specific criteria, use a \"for\" expression with "
               "an \"if\" clause.", quoted(a, nb->type_name));
    return false;
  case PROV_NEST_LIST:
    if (next->kind == HCL_STEP_INDEX)
      return validate_block(a, nb->block, st + 1, n - 1, d);
    diag_error(d, &next->range, "Invalid operation",
               "Block type %s is represented by a list of objects, so it "
               "must be indexed using a numeric key, like .%s[0].",
               quoted(a, nb->type_name), nb->type_name);
    return false;
  case PROV_NEST_MAP:
    return validate_block(a, nb->block, st + 1, n - 1, d);
  default:
    return true;
  }
}

/* configschema's Block.StaticValidateTraversal on a relative traversal
** (the first step of an ignore_changes item is its ROOT name). */
static bool validate_block(Arena *a, const ProvBlockSchema *b,
                           const HclStep *st, uint32_t n, Diags *d)
{
  if (n == 0)
    return true;
  const HclStep *next = &st[0];
  if (next->kind == HCL_STEP_INDEX) {
    Value k = *next->key;
    if (key_is_str(k) && valid_ident(k.u.s)) {
      diag_error(d, &next->range, "Invalid index operation",
                 "Only attribute access is allowed here. Did you mean to "
                 "access attribute %s using the dot operator?",
                 quoted(a, k.u.s));
      return false;
    }
    diag_error(d, &next->range, "Invalid index operation",
               "Only attribute access is allowed here, using the dot "
               "operator.");
    return false;
  }
  const char *name = next->name;
  const ProvAttrSchema *at = prov_block_attr(b, name);
  if (at) {
    if (at->flags & PROV_DEPRECATED)
      diag_warning(d, &next->range, "Deprecated attribute",
                   "The attribute %s is deprecated. Refer to the provider "
                   "documentation for details.", quoted(a, name));
    /* the rest applies to an unknown value of the attribute's type, with
    ** HCL's own traversal errors */
    EvalCtx ctx;
    eval_ctx_init(&ctx, a, d);
    int before = d->errors;
    Value out;
    eval_traverse(&ctx, val_unknown(prov_attr_type(a, at)), st + 1, n - 1,
                  &out);
    return d->errors == before;
  }
  const ProvNestedBlock *nb = prov_block_nested(b, name);
  if (nb)
    return validate_nested(a, nb, st + 1, n - 1, d);
  const char **names = ARENA_NEW(a, const char *, b->nattrs + b->nblocks + 1);
  uint32_t nn = 0;
  for (uint32_t i = 0; i < b->nattrs; i++)
    names[nn++] = b->attrs[i].name;
  for (uint32_t i = 0; i < b->nblocks; i++)
    names[nn++] = b->blocks[i].type_name;
  if (nn > 1)
    qsort((void *)names, nn, sizeof *names, cmp_cstr);
  const char *sug = hcl_name_suggestion(name, names, nn);
  diag_error(d, &next->range, "Unsupported attribute",
             "This object has no argument, nested block, or exported "
             "attribute named %s.%s%s%s", quoted(a, name),
             sug ? " Did you mean " : "", sug ? quoted(a, sug) : "",
             sug ? "?" : "");
  return false;
}

/* configschema's Object.AttributeByPath (nested attribute types). */
static const ProvAttrSchema *object_attr_by_path(const ProvObjectSchema *o,
                                                 const CStep *s, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    if (!s[i].attr)
      continue;
    const ProvAttrSchema *at = NULL;
    for (uint32_t k = 0; k < o->nattrs; k++)
      if (strcmp(o->attrs[k].name, s[i].name) == 0)
        at = &o->attrs[k];
    if (!at)
      continue;
    if (at->nested && i < n - 1)
      return object_attr_by_path(at->nested, s + i + 1, n - i - 1);
    if (i < n - 1)
      return NULL;
    return at;
  }
  return NULL;
}

/* configschema's Block.AttributeByPath: index steps are passed over. */
static const ProvAttrSchema *attr_by_path(const ProvBlockSchema *b,
                                          const CStep *s, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    if (!s[i].attr)
      continue;
    const ProvAttrSchema *at = prov_block_attr(b, s[i].name);
    if (at) {
      if (at->nested && i < n - 1)
        return object_attr_by_path(at->nested, s + i + 1, n - i - 1);
      if (i < n - 1)
        return NULL;
      return at;
    }
    const ProvNestedBlock *nb = prov_block_nested(b, s[i].name);
    if (!nb)
      return NULL;
    b = nb->block;
  }
  return NULL;
}

static void format_cpath(Buf *out, Arena *a, const CPath *p)
{
  PathStep *ps = ARENA_NEW(a, PathStep, p->n ? p->n : 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < p->n; i++) {
    const CStep *s = &p->steps[i];
    int64_t idx;
    if (s->attr) {
      ps[k].kind = PS_ATTR;
      ps[k++].name = s->name;
    } else if (key_is_str(s->key)) {
      ps[k].kind = PS_KEY;
      ps[k++].name = s->key.u.s;
    } else if (key_is_num(s->key) && val_num_int(s->key, &idx)) {
      ps[k].kind = PS_INDEX;
      ps[k++].index = idx;
    }
  }
  val_path_format(out, (ValPath){ps, k}, false);
}

bool lc_check_ignore_changes(Arena *a, const CfgResource *r,
                             const ProvBlockSchema *schema, Diags *d)
{
  if (!r || !schema)
    return true;
  int start = d->errors;
  for (uint32_t i = 0; i < r->ignore_changes.n; i++) {
    const HclTraversal *t = &r->ignore_changes.items[i];
    validate_block(a, schema, t->steps, t->n, d);
    if (d->errors != start)
      continue;
    CPath p = trav_path(a, t);
    const ProvAttrSchema *at = attr_by_path(schema, p.steps, p.n);
    if (at && !(at->flags & PROV_OPTIONAL) && (at->flags & PROV_COMPUTED)) {
      Buf b;
      buf_init(&b, a);
      format_cpath(&b, a, &p);
      diag_warning(d, &r->type_range, "Redundant ignore_changes element",
                   "Adding an attribute name to ignore_changes tells "
                   "Terraform to ignore future changes to the argument in "
                   "configuration after the object has been created, "
                   "retaining the value originally configured.\n\nThe "
                   "attribute %s is decided by the provider alone and "
                   "therefore there can be no configured value to compare "
                   "with. Including this attribute in ignore_changes has no "
                   "effect. Remove the attribute from ignore_changes to "
                   "quiet this warning.", buf_str(&b));
    }
  }
  return d->errors == start;
}

/* ---- replace_triggered_by: static rules ---------------------------------- */

static void check_trigger_expr(Arena *a, const HclExpr *e, Diags *d)
{
  HclTraversal *refs = NULL;
  uint32_t nrefs = 0;
  hcl_expr_references(a, e, &refs, &nrefs);
  int resources = 0;
  bool ref_errors = false;
  EvalRef *parsed = ARENA_NEW(a, EvalRef, nrefs ? nrefs : 1);
  for (uint32_t i = 0; i < nrefs; i++) {
    Diags tmp;
    diag_init(&tmp, a);
    if (!eval_parse_ref(&refs[i], &parsed[i], &tmp))
      ref_errors = true;
    /* Terraform re-reports reference errors on the whole expression */
    for (const Diag *g = tmp.head; g; g = g->next)
      diag_add(d, g->severity, &e->range, g->summary, "%s", g->detail);
  }
  if (ref_errors)
    return;
  for (uint32_t i = 0; i < nrefs; i++) {
    const EvalRef *r = &parsed[i];
    switch (r->kind) {
    case EVAL_REF_RESOURCE:
    case EVAL_REF_DATA:
      resources++;
      break;
    case EVAL_REF_EACH:
      if (strcmp(r->name, "key") != 0)
        diag_error(d, &e->range,
                   "Invalid each reference in replace_triggered_by "
                   "expression",
                   "Only each.key may be used in replace_triggered_by.");
      break;
    case EVAL_REF_COUNT:
      if (strcmp(r->name, "index") != 0)
        diag_error(d, &e->range,
                   "Invalid count reference in replace_triggered_by "
                   "expression",
                   "Only count.index may be used in replace_triggered_by.");
      break;
    default:
      diag_error(d, &e->range,
                 "Invalid reference in replace_triggered_by expression",
                 "Only resources, count.index, and each.key may be used in "
                 "replace_triggered_by.");
    }
  }
  if (resources == 0)
    diag_error(d, &e->range, "Invalid replace_triggered_by expression",
               "Missing resource reference in replace_triggered_by "
               "expression.");
  else if (resources > 1)
    diag_error(d, &e->range, "Invalid replace_triggered_by expression",
               "Multiple resource references in replace_triggered_by "
               "expression.");
}

bool lc_check_replace_triggers(const CfgResource *r, Diags *d)
{
  if (!r)
    return true;
  int before = d->errors;
  for (uint32_t i = 0; i < r->nreplace_triggered_by; i++)
    if (r->replace_triggered_by[i])
      check_trigger_expr(d->arena, r->replace_triggered_by[i], d);
  return d->errors == before;
}

/* ---- replace_triggered_by: evaluation ------------------------------------ */

typedef struct TSteps {
  HclStep *steps;
  uint32_t n, cap;
} TSteps;

static void tsteps_push(Arena *a, TSteps *t, const HclStep *s)
{
  if (t->n == t->cap) {
    uint32_t nc = t->cap ? t->cap * 2 : 8;
    t->steps = arena_grow(a, t->steps, sizeof(HclStep), _Alignof(HclStep),
                          t->cap, nc);
    t->cap = nc;
  }
  t->steps[t->n++] = *s;
}

/* parseIndexKeyExpr: a key expression may only be count.index or
** each.key (constant keys were folded into the traversal by the parser). */
static bool index_key(EvalCtx *ctx, const CfgResource *r, const HclExpr *k,
                      HclStep *out, Diags *d)
{
  Arena *a = ctx->arena;
  memset(out, 0, sizeof *out);
  out->kind = HCL_STEP_INDEX;
  out->range = k->range;
  const HclExpr *u = k;
  if (u->kind != HCL_E_SCOPE_TRAV) {
    diag_error(d, &k->range, "Invalid expression",
               "A single static variable reference is required: only "
               "attribute access and indexing with constant keys. No "
               "calculations, function calls, template expressions, etc "
               "are allowed here.");
    return false;
  }
  const HclTraversal *t = &u->u.trav;
  Buf b;
  buf_init(&b, a);
  for (uint32_t i = 0; i < t->n; i++) {
    if (t->steps[i].kind == HCL_STEP_INDEX) {
      diag_error(d, &k->range, "Invalid index expression",
                 "Only constant values, count.index or each.key are allowed "
                 "in index expressions.");
      return false;
    }
    buf_printf(&b, "%s%s", i ? "." : "", t->steps[i].name);
  }
  const char *s = buf_str(&b);
  if (strcmp(s, "count.index") == 0) {
    if (!r->count) {
      diag_error(d, &k->range, "Reference to \"count\" in non-counted context",
                 "The \"count\" object can only be used in \"resource\" "
                 "blocks when the \"count\" argument is set.");
      return false;
    }
  } else if (strcmp(s, "each.key") == 0) {
    if (!r->for_each) {
      diag_error(d, &k->range,
                 "Reference to \"each\" in context without for_each",
                 "The \"each\" object can be used only in \"resource\" "
                 "blocks when the \"for_each\" argument is set.");
      return false;
    }
  } else {
    diag_error(d, &k->range, "Invalid index expression",
               "Only constant values, count.index or each.key are allowed "
               "in index expressions.");
    return false;
  }
  Diags *saved = ctx->diags;
  ctx->diags = d;
  Value v;
  int before = d->errors;
  eval_expr(ctx, k, &v);
  ctx->diags = saved;
  if (d->errors != before)
    return false;
  Value *key = ARENA_NEW(a, Value, 1);
  *key = val_unmark_deep(a, v);
  out->key = key;
  return true;
}

/* triggersExprToTraversal. */
static bool trigger_trav(EvalCtx *ctx, const CfgResource *r, const HclExpr *e,
                         TSteps *out, Diags *d)
{
  Arena *a = ctx->arena;
  switch (e->kind) {
  case HCL_E_SCOPE_TRAV:
    for (uint32_t i = 0; i < e->u.trav.n; i++)
      tsteps_push(a, out, &e->u.trav.steps[i]);
    return true;
  case HCL_E_REL_TRAV:
    if (!trigger_trav(ctx, r, e->u.rel.src, out, d))
      return false;
    for (uint32_t i = 0; i < e->u.rel.n; i++)
      tsteps_push(a, out, &e->u.rel.steps[i]);
    return true;
  case HCL_E_INDEX: {
    if (!trigger_trav(ctx, r, e->u.index.coll, out, d))
      return false;
    HclStep st;
    if (!index_key(ctx, r, e->u.index.key, &st, d))
      return false;
    tsteps_push(a, out, &st);
    return true;
  }
  default:
    diag_error(d, &e->range, "Invalid replace_triggered_by expression",
               "Unexpected expression found in replace_triggered_by.");
    return false;
  }
}

static bool action_triggers(PlAction act)
{
  return act == PL_UPDATE || act == PL_DELETE_THEN_CREATE ||
         act == PL_CREATE_THEN_DELETE;
}

static const char *module_display(const LcTriggerEnv *env)
{
  return env->module && *env->module ? env->module : "the root module";
}

bool lc_replace_trigger(EvalCtx *ctx, const CfgResource *r,
                        const HclExpr *expr, const LcTriggerEnv *env,
                        bool *triggered, Diags *d)
{
  *triggered = false;
  if (!expr || !r || !env)
    return true;
  Arena *a = ctx->arena;
  TSteps ts = {0};
  if (!trigger_trav(ctx, r, expr, &ts, d))
    return false;
  HclTraversal t = {ts.steps, ts.n};
  EvalRef ref;
  Diags tmp;
  diag_init(&tmp, a);
  if (!eval_parse_ref(&t, &ref, &tmp)) {
    diag_move(d, &tmp);
    return false;
  }
  diag_move(d, &tmp);
  if (ref.kind != EVAL_REF_RESOURCE && ref.kind != EVAL_REF_DATA) {
    diag_error(d, &expr->range, "Invalid replace_triggered_by expression",
               "Unexpected expression found in replace_triggered_by.");
    return false;
  }
  Buf sb;
  buf_init(&sb, a);
  eval_ref_string(&sb, &ref);
  const char *subject = arena_strdup(a, buf_str(&sb));
  CfgMode mode = ref.kind == EVAL_REF_DATA ? CFG_DATA : CFG_MANAGED;
  if (env->config && !cfg_resource(env->config, mode, ref.type, ref.name)) {
    diag_error(d, &expr->range, "Reference to undeclared resource",
               "A resource %s has not been declared in %s", subject,
               module_display(env));
    return false;
  }
  const char *pfx = env->module && *env->module ? env->module : "";
  const char *dot = *pfx ? "." : "";
  const PlChange *one = NULL;
  const PlChange *const *many = NULL;
  uint32_t nmany = 0;
  if (ref.has_key) {
    if (env->change_of)
      one = env->change_of(env->ctx,
                           arena_printf(a, "%s%s%s", pfx, dot, subject));
    if (one) {
      many = &one;
      nmany = 1;
    }
  } else if (env->changes_of) {
    nmany = env->changes_of(env->ctx,
                            arena_printf(a, "%s%s%s", pfx, dot, subject),
                            &many);
  }
  if (nmany == 0) {
    diag_error(d, NULL, arena_printf(a, "no change found for %s in %s",
                                     subject, module_display(env)), "%s", "");
    return false;
  }
  if (ref.nrest == 0) {
    for (uint32_t i = 0; i < nmany; i++)
      if (many[i] && action_triggers(many[i]->action))
        *triggered = true;
    return true;
  }
  /* an attribute: the first (for an instance, the only) change decides */
  const PlChange *c = many[0];
  if (!c || !action_triggers(c->action))
    return true;
  HclTraversal rest = {(HclStep *)ref.rest, ref.nrest};
  CPath p = trav_path(a, &rest);
  Value before, after;
  Value ub = val_unmark_deep(a, c->before), ua = val_unmark_deep(a, c->after);
  bool hb = path_apply(ub, p.steps, p.n, &before);
  bool ha = path_apply(ua, p.steps, p.n, &after);
  if (!hb || !ha)
    *triggered = hb != ha;
  else
    *triggered = !val_raw_equal(before, after, false);
  return true;
}

bool lc_replace_triggered(EvalCtx *ctx, const CfgResource *r,
                          const LcTriggerEnv *env, bool *triggered, Diags *d)
{
  *triggered = false;
  if (!r)
    return true;
  int before = d->errors;
  for (uint32_t i = 0; i < r->nreplace_triggered_by; i++) {
    bool t = false;
    if (lc_replace_trigger(ctx, r, r->replace_triggered_by[i], env, &t, d) &&
        t)
      *triggered = true;
  }
  return d->errors == before;
}

/* ---- custom conditions --------------------------------------------------- */

static const char *kind_summary(LcRuleKind k)
{
  switch (k) {
  case LC_RESOURCE_PRECONDITION: return "Resource precondition failed";
  case LC_RESOURCE_POSTCONDITION: return "Resource postcondition failed";
  case LC_OUTPUT_PRECONDITION:
    return "Module output value precondition failed";
  case LC_CHECK_ASSERTION: return "Check block assertion failed";
  }
  return "Condition failed";
}

/* The traversal text of the "x is ..." lines (Terraform's traversalStr). */
/* The first len steps of a condition's reference, evaluated in the
** condition's scope. */
static bool ref_prefix(EvalCtx *ctx, const HclTraversal *t, uint32_t len,
                       Value *out)
{
  HclExpr te;
  memset(&te, 0, sizeof te);
  te.kind = HCL_E_SCOPE_TRAV;
  te.range = hcl_trav_range(t);
  te.u.trav = (HclTraversal){t->steps, len};
  eval_expr(ctx, &te, out);
  return true;
}

static bool is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

/* evalCheckRule for one rule; false when it failed or was invalid. */
static bool check_rule(EvalCtx *ctx, const CfgCheckRule *rule, LcRuleKind kind,
                       DiagSeverity sev, Diags *d)
{
  Arena *a = ctx->arena;
  if (!rule->condition)
    return true;
  Diags *saved = ctx->diags;
  Value res = val_dynamic_unknown, msgv = val_dynamic_unknown;
  int before = d->errors;
  ctx->diags = d;
  eval_expr(ctx, rule->condition, &res);
  Diags md;
  diag_init(&md, a);
  ctx->diags = &md;
  if (rule->error_message)
    eval_expr(ctx, rule->error_message, &msgv);
  ctx->diags = saved;
  bool msg_failed = md.errors > 0 || !rule->error_message;
  diag_move(d, &md);
  bool eval_ok = d->errors == before;
  if (!val_is_known(res))
    return eval_ok;   /* decided later, with more known */
  const SrcRange *crng = &rule->condition->range;
  if (val_is_null(res)) {
    Diag *g = diag_add(d, sev, crng, "Invalid condition result", "%s",
                       "Condition expression must return either true or "
                       "false, not null.");
    vars_add_values(ctx, rule->condition, ref_prefix, g, d);
    return false;
  }
  Value b;
  ConvError ce;
  memset(&ce, 0, sizeof ce);
  if (!conv_convert(a, res, &ty_bool, true, &b, &ce)) {
    Buf eb;
    buf_init(&eb, a);
    conv_error_format(&eb, &ce);
    Diag *g = diag_add(d, sev, crng, "Invalid condition result",
                       "Invalid condition result value: %s.", buf_str(&eb));
    vars_add_values(ctx, rule->condition, ref_prefix, g, d);
    return false;
  }
  if (!val_is_known(b))
    return eval_ok;
  if (val_is_null(b)) {
    diag_add(d, sev, crng, "Invalid condition result", "%s",
             "Condition expression must return either true or false, not "
             "null.");
    return false;
  }
  if (b.u.b)
    return eval_ok;
  const char *message = "";
  if (!msg_failed && val_is_known(msgv) && !val_is_null(msgv)) {
    const SrcRange *mrng = &rule->error_message->range;
    Value sv;
    memset(&ce, 0, sizeof ce);
    if (!conv_convert(a, msgv, &ty_string, true, &sv, &ce)) {
      Buf eb;
      buf_init(&eb, a);
      conv_error_format(&eb, &ce);
      Diag *g = diag_add(d, sev, mrng, "Invalid error message",
                         "Unsuitable value for error message: %s.",
                         buf_str(&eb));
      vars_add_values(ctx, rule->error_message, ref_prefix, g, d);
    } else if (val_is_sensitive(sv)) {
      Diag *g = diag_add(
          d, sev, mrng, "Error message refers to sensitive values", "%s",
          "The error expression used to explain this condition refers to "
          "sensitive values. Terraform will not display the resulting "
          "message.\n\nYou can correct this by removing references to "
          "sensitive values, or by carefully using the nonsensitive() "
          "function if the expression will not reveal the sensitive data.");
      vars_add_values(ctx, rule->error_message, ref_prefix, g, d);
      message = "The error message included a sensitive value, so it will "
                "not be displayed.";
    } else if (val_is_known(sv) && !val_is_null(sv)) {
      /* strings.TrimSpace */
      const char *p = sv.u.s, *e = sv.u.s + sv.len;
      while (p < e && is_space(*p))
        p++;
      while (e > p && is_space(e[-1]))
        e--;
      message = arena_strndup(a, p, (size_t)(e - p));
    }
  }
  if (!*message)
    message = "Failed to evaluate condition error message.";
  Diag *g = diag_add(d, sev, crng, kind_summary(kind), "%s", message);
  vars_add_values(ctx, rule->condition, ref_prefix, g, d);
  return false;
}

bool lc_check_rules_ex(EvalCtx *ctx, const CfgRules *rules, LcRuleKind kind,
                       const char *addr, bool as_warnings, Diags *d)
{
  (void)addr;   /* Terraform attaches no address to these diagnostics */
  if (!rules)
    return true;
  DiagSeverity sev =
      as_warnings || kind == LC_CHECK_ASSERTION ? DIAG_WARNING : DIAG_ERROR;
  bool ok = true;
  int errors = d->errors;
  for (uint32_t i = 0; i < rules->n; i++)
    if (!check_rule(ctx, &rules->items[i], kind, sev, d))
      ok = false;
  return as_warnings ? d->errors == errors : ok;
}

bool lc_check_rules(EvalCtx *ctx, const CfgRules *rules, LcRuleKind kind,
                    const char *addr, Diags *d)
{
  return lc_check_rules_ex(ctx, rules, kind, addr, false, d);
}

/* ---- prevent_destroy ---------------------------------------------------- */

bool lc_prevent_destroy_applies(const CfgResource *r, PlAction action)
{
  if (!r || r->mode != CFG_MANAGED || !r->prevent_destroy)
    return false;
  return action == PL_DELETE || action == PL_DELETE_THEN_CREATE ||
         action == PL_CREATE_THEN_DELETE;
}

void lc_prevent_destroy_error(Diags *d, const CfgResource *r,
                              const char *addr)
{
  const SrcRange *rng = r && r->range.file ? &r->range : NULL;
  diag_error(
      d, rng, "Instance cannot be destroyed",
      "Resource %s has lifecycle.prevent_destroy set, but the plan calls for "
      "this resource to be destroyed. To avoid this error and continue with "
      "the plan, either disable lifecycle.prevent_destroy or reduce the scope "
      "of the plan using the -target option.", addr ? addr : "");
}
