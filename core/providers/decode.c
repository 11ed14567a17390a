/*
** decode: bodies against provider schemas.  See decode.h.
**
** The walk mirrors what Terraform does with one resource body: HCL's
** dynblock.Expand wrapped around hcldec.Decode of configschema's decoder
** spec.  Both are folded into one recursive pass here: each body is split
** with hcl_body_content (schema attributes, schema block types and the
** extra "dynamic" block type), dynamic blocks are expanded into generated
** blocks carrying their own evaluation context (the iterator symbol), and
** the values are assembled per nesting mode.
*/
#include "decode.h"

#include <string.h>

#include "base/convert.h"

static const char *const key_label[] = {"key"};
static const char *const type_label[] = {"type"};

/* A block after dynamic expansion. */
typedef struct XBlock {
  const char *type;
  const char *const *labels;
  uint32_t nlabels;
  SrcRange def_range;          /* header: type and labels */
  const HclBody *body;
  EvalCtx *ctx;                /* evaluation context of body */
  bool unknown;                /* dynblock's unknownBody: for_each unknown */
} XBlock;

typedef struct XVec {
  XBlock *p;
  uint32_t n, cap;
} XVec;

static void xpush(Arena *a, XVec *v, XBlock b)
{
  if (v->n == v->cap) {
    uint32_t nc = v->cap ? v->cap * 2 : 8;
    v->p = arena_grow(a, v->p, sizeof(XBlock), _Alignof(XBlock), v->cap, nc);
    v->cap = nc;
  }
  v->p[v->n++] = b;
}

/* hcl.Range.String(). */
static const char *range_str(Arena *a, SrcRange r)
{
  if (r.start.line == r.end.line)
    return arena_printf(a, "%s:%u,%u-%u", r.file ? r.file : "", r.start.line,
                        r.start.col, r.end.col);
  return arena_printf(a, "%s:%u,%u-%u,%u", r.file ? r.file : "", r.start.line,
                      r.start.col, r.end.line, r.end.col);
}

/* Go's %q for the label strings of duplicate-block messages. */
static void quote(Buf *b, const char *s)
{
  buf_putc(b, '"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      buf_putc(b, '\\');
      buf_putc(b, (char)c);
    } else if (c == '\n') {
      buf_puts(b, "\\n");
    } else if (c == '\t') {
      buf_puts(b, "\\t");
    } else if (c < 0x20 || c == 0x7f) {
      buf_printf(b, "\\x%02x", c);
    } else {
      buf_putc(b, (char)c);
    }
  }
  buf_putc(b, '"');
}

static SrcRange block_def_range(const HclBlock *b)
{
  SrcRange last = b->nlabels ? b->label_ranges[b->nlabels - 1] : b->type_range;
  return diag_range_join(b->type_range, last);
}

/* The hcl.BodySchema for a provider block: its attributes, its block types
** (MAP blocks take one "key" label) and dynblock's "dynamic" block. */
static void body_schema(Arena *a, const ProvBlockSchema *s, HclBodySchema *hs)
{
  HclAttrSchema *as = ARENA_NEW(a, HclAttrSchema, s->nattrs + 1);
  HclBlockSchema *bs = ARENA_NEW(a, HclBlockSchema, s->nblocks + 1);
  for (uint32_t i = 0; i < s->nattrs; i++) {
    as[i].name = s->attrs[i].name;
    as[i].required = (s->attrs[i].flags & PROV_REQUIRED) != 0;
  }
  for (uint32_t i = 0; i < s->nblocks; i++) {
    bs[i].type = s->blocks[i].type_name;
    if (s->blocks[i].nesting == PROV_NEST_MAP) {
      bs[i].label_names = key_label;
      bs[i].nlabels = 1;
    }
  }
  bs[s->nblocks].type = "dynamic";
  bs[s->nblocks].label_names = type_label;
  bs[s->nblocks].nlabels = 1;
  hs->attrs = as;
  hs->nattrs = s->nattrs;
  hs->blocks = bs;
  hs->nblocks = s->nblocks + 1;
}

static const ProvNestedBlock *nested_block(const ProvBlockSchema *s,
                                           const char *type)
{
  if (strcmp(type, "dynamic") == 0)
    return NULL;
  return prov_block_nested(s, type);
}

/* A child evaluation context with the iterator symbol `name` bound to
** {key, value}; it shadows outer iterators and root names. */
static EvalCtx *iter_ctx(EvalCtx *parent, const char *name, Value key,
                         Value val)
{
  Arena *a = parent->arena;
  EvalCtx *c = ARENA_NEW(a, EvalCtx, 1);
  *c = *parent;
  EvalVar *vars = ARENA_NEW(a, EvalVar, parent->nvars + 1);
  static const char *const kv[] = {"key", "value"};
  Value kvv[2] = {key, val};
  vars[0].name = name;
  vars[0].val = val_object(a, 2, kv, kvv);
  for (uint32_t i = 0; i < parent->nvars; i++)
    vars[i + 1] = parent->vars[i];
  c->vars = vars;
  c->nvars = parent->nvars + 1;
  return c;
}

/* Key and value of element i of a known, non-null iterable collection, as
** cty's ElementIterator gives them. */
static void element(Arena *a, Value coll, uint32_t i, Value *key, Value *val)
{
  switch (coll.type->kind) {
  case TY_LIST:
  case TY_TUPLE:
    *key = val_int(i);
    *val = coll.u.elems[i];
    return;
  case TY_SET:
    *key = coll.u.elems[i];
    *val = coll.u.elems[i];
    return;
  case TY_MAP:
    *key = val_str(a, coll.u.entries[i].key, coll.u.entries[i].keylen);
    *val = coll.u.entries[i].val;
    return;
  case TY_OBJECT:
    *key = val_cstr(a, coll.type->names[i]);
    *val = coll.u.elems[i];
    return;
  default:
    *key = val_dynamic_null;
    *val = val_dynamic_null;
    return;
  }
}

static bool iterable(const Type *t)
{
  return t->kind == TY_LIST || t->kind == TY_SET || t->kind == TY_MAP ||
         t->kind == TY_OBJECT || t->kind == TY_TUPLE;
}

/* Labels of one generated block (dynblock's expandSpec.newBlock); false
** after reporting an error. */
static bool gen_labels(EvalCtx *ictx, HclExpr *const *exprs, uint32_t n,
                       XBlock *xb)
{
  Arena *a = ictx->arena;
  const char **labels = ARENA_NEW(a, const char *, n + 1);
  for (uint32_t i = 0; i < n; i++) {
    Value v;
    int e0 = ictx->diags->errors;
    eval_expr(ictx, exprs[i], &v);
    if (ictx->diags->errors > e0)
      return false;
    Value sv;
    ConvError err;
    if (!conv_convert(a, v, &ty_string, true, &sv, &err)) {
      diag_error(ictx->diags, &exprs[i]->range, "Invalid dynamic block label",
                 "Cannot use this value as a dynamic block label: %s.",
                 err.msg);
      return false;
    }
    if (val_is_null(sv)) {
      diag_error(ictx->diags, &exprs[i]->range, "Invalid dynamic block label",
                 "Cannot use a null value as a dynamic block label.");
      return false;
    }
    if (val_is_unknown(sv)) {
      diag_error(ictx->diags, &exprs[i]->range, "Invalid dynamic block label",
                 "This value is not yet known. Dynamic block labels must be "
                 "immediately-known values.");
      return false;
    }
    labels[i] = sv.u.s;
  }
  xb->labels = labels;
  xb->nlabels = n;
  return true;
}

/* Expands one `dynamic "type" { ... }` block into out. */
static void expand_dynamic(EvalCtx *ctx, const HclBlock *raw,
                           const ProvBlockSchema *s, bool unknown, XVec *out)
{
  Arena *a = ctx->arena;
  Diags *d = ctx->diags;
  const char *type = raw->labels[0];
  const ProvNestedBlock *nb = nested_block(s, type);
  if (!nb) {
    diag_error(d, &raw->label_ranges[0], "Unsupported block type",
               "Blocks of type \"%s\" are not expected here.", type);
    return;
  }
  uint32_t want_labels = nb->nesting == PROV_NEST_MAP ? 1 : 0;
  static const HclAttrSchema dyn_attrs[] = {
      {"for_each", true}, {"iterator", false}, {"labels", true}};
  static const HclBlockSchema dyn_blocks[] = {{"content", NULL, 0}};
  HclBodySchema hs = {dyn_attrs, want_labels ? 3 : 2, dyn_blocks, 1};
  HclBodyContent c;
  if (!hcl_body_content(a, raw->body, &hs, &c, d))
    return;

  /* for_each */
  HclAttribute *fe = hcl_content_attr(&c, "for_each");
  Value each;
  int e0 = d->errors;
  eval_expr(ctx, fe->expr, &each);
  if (d->errors > e0)
    return;
  uint16_t marks = (uint16_t)(each.flags & VF_MARKS);
  if (!iterable(each.type) && each.type->kind != TY_DYNAMIC) {
    Buf fn;
    buf_init(&fn, a);
    ty_friendly(&fn, each.type);
    diag_error(d, &fe->expr->range, "Invalid dynamic for_each value",
               "Cannot use a %s value in for_each. An iterable collection "
               "is required.", buf_str(&fn));
    return;
  }
  if (val_is_null(each)) {
    diag_error(d, &fe->expr->range, "Invalid dynamic for_each value",
               "Cannot use a null value in for_each.");
    return;
  }

  /* iterator */
  const char *iter = type;
  HclAttribute *it = hcl_content_attr(&c, "iterator");
  if (it) {
    HclTraversal tr;
    if (!hcl_expr_as_traversal(a, it->expr, &tr, d))
      return;
    if (tr.n != 1) {
      SrcRange tr_range = hcl_trav_range(&tr);
      diag_error(d, &tr_range, "Invalid dynamic iterator name",
                 "Dynamic iterator must be a single variable name.");
      return;
    }
    iter = tr.steps[0].name;
  }

  /* labels */
  HclExpr *const *lexprs = NULL;
  uint32_t nl = 0;
  HclAttribute *la = want_labels ? hcl_content_attr(&c, "labels") : NULL;
  if (la) {
    const HclExpr *le = hcl_json_to_expr(a, la->expr, false, d);
    le = hcl_expr_unwrap(le);
    if (le->kind != HCL_E_TUPLE) {
      diag_error(d, &le->range, "Invalid expression",
                 "A static list expression is required.");
      return;
    }
    lexprs = le->u.tuple.items;
    nl = le->u.tuple.n;
    if (nl > want_labels) {
      diag_error(d, &lexprs[want_labels]->range,
                 "Extraneous dynamic block label",
                 "Blocks of type \"%s\" require %u label(s).", type,
                 want_labels);
      return;
    }
    if (nl < want_labels) {
      diag_error(d, &la->expr->range, "Insufficient dynamic block labels",
                 "Blocks of type \"%s\" require %u label(s).", type,
                 want_labels);
      return;
    }
  }

  /* content */
  if (c.nblocks == 0) {
    diag_error(d, &c.missing_item_range, "Missing dynamic content block",
               "A dynamic block must have a nested block of type \"content\" "
               "to describe the body of each generated block.");
    return;
  }
  if (c.nblocks > 1) {
    SrcRange r = block_def_range(c.blocks[1]);
    diag_error(d, &r, "Extraneous dynamic content block",
               "Only one nested content block is allowed for each dynamic "
               "block.");
    return;
  }

  XBlock proto = {0};
  proto.type = nb->type_name;
  proto.def_range = block_def_range(raw);
  proto.body = c.blocks[0]->body;
  proto.unknown = unknown;
  if (!val_is_known(each)) {
    XBlock xb = proto;
    xb.ctx = iter_ctx(ctx, iter, val_dynamic_unknown, val_dynamic_unknown);
    xb.unknown = true;
    if (gen_labels(xb.ctx, lexprs, nl, &xb))
      xpush(a, out, xb);
    return;
  }
  Value coll = val_unmark(each);
  for (uint32_t i = 0; i < coll.len; i++) {
    Value k, v;
    element(a, coll, i, &k, &v);
    if (marks) {
      k = val_mark(k, marks);
      v = val_mark(v, marks);
    }
    XBlock xb = proto;
    xb.ctx = iter_ctx(ctx, iter, k, v);
    if (gen_labels(xb.ctx, lexprs, nl, &xb))
      xpush(a, out, xb);
  }
}

static Value decode_body(EvalCtx *ctx, const HclBody *body,
                         const ProvBlockSchema *s, const Type *t,
                         bool unknown);

/* configschema's EmptyValue for a GROUP block that is absent: null
** attributes, empty collections, null SINGLE and empty GROUP blocks. */
static Value empty_value(Arena *a, const ProvBlockSchema *s, const Type *t)
{
  if (t->kind != TY_OBJECT)
    return val_null(t);
  Value *vals = ARENA_NEW(a, Value, t->n + 1);
  for (uint32_t i = 0; i < t->n; i++)
    vals[i] = val_null(t->types[i]);
  for (uint32_t i = 0; i < s->nblocks; i++) {
    const ProvNestedBlock *nb = &s->blocks[i];
    int idx = ty_attr_index(t, nb->type_name);
    if (idx < 0)
      continue;
    const Type *bt = t->types[idx];
    switch (nb->nesting) {
    case PROV_NEST_LIST:
      vals[idx] = bt->kind == TY_LIST ? val_list(a, bt->elem, NULL, 0)
                                      : val_tuple(a, NULL, 0);
      break;
    case PROV_NEST_SET:
      vals[idx] = val_set(a, bt->elem, NULL, 0);
      break;
    case PROV_NEST_MAP:
      vals[idx] = bt->kind == TY_MAP ? val_map(a, bt->elem, NULL, 0)
                                     : val_object(a, 0, NULL, NULL);
      break;
    case PROV_NEST_GROUP:
      vals[idx] = empty_value(a, nb->block, bt);
      break;
    default:
      break;
    }
  }
  return val_object_typed(t, vals);
}

/* The conversion target of an attribute: its type, or for a nested
** attribute type the object type whose optional and computed attributes
** are optional (configschema's Object.specType). */
static const Type *attr_spec_type(Arena *a, const ProvAttrSchema *at);

static const Type *object_spec_type(Arena *a, const ProvObjectSchema *o)
{
  if (o->nattrs == 0)
    return &ty_empty_object;
  const char **names = ARENA_NEW(a, const char *, o->nattrs);
  const Type **types = ARENA_NEW(a, const Type *, o->nattrs);
  uint8_t *opt = ARENA_NEW(a, uint8_t, o->nattrs);
  for (uint32_t i = 0; i < o->nattrs; i++) {
    names[i] = o->attrs[i].name;
    types[i] = attr_spec_type(a, &o->attrs[i]);
    opt[i] = (o->attrs[i].flags & (PROV_OPTIONAL | PROV_COMPUTED)) != 0;
  }
  return ty_object_opt(a, o->nattrs, names, types, opt, NULL);
}

static const Type *attr_spec_type(Arena *a, const ProvAttrSchema *at)
{
  if (!at->nested)
    return at->type ? at->type : &ty_dynamic;
  const Type *et = object_spec_type(a, at->nested);
  switch (at->nested->nesting) {
  case PROV_NEST_LIST:
    return ty_has_dynamic(et) ? &ty_dynamic : ty_list(a, et);
  case PROV_NEST_SET:
    return ty_set(a, et);
  case PROV_NEST_MAP:
    return ty_has_dynamic(et) ? &ty_dynamic : ty_map(a, et);
  default:
    return et;
  }
}

/* hcldec's AttrSpec.decode. */
static Value decode_attr(EvalCtx *ctx, const HclAttribute *at,
                         const ProvAttrSchema *as, const Type *t, bool unknown)
{
  if (unknown)
    return val_unknown(t);
  Value v;
  eval_expr(ctx, at->expr, &v);
  const Type *want = as->nested ? attr_spec_type(ctx->arena, as) : t;
  Value cv;
  ConvError err;
  if (!conv_convert(ctx->arena, v, want, true, &cv, &err)) {
    SrcRange cx = diag_range_join(at->name_range, at->expr->range);
    Diag *g = diag_error(ctx->diags, &at->expr->range,
                         "Incorrect attribute value type",
                         "Inappropriate value for attribute \"%s\": %s.",
                         as->name, err.msg);
    diag_set_context(ctx->diags, g, &cx);
    return val_unknown(t);
  }
  if (!ty_equal(cv.type, t)) {
    /* A nested attribute type converts through the spec type with its
    ** optional flags; the result must carry the implied type exactly. */
    Value cv2;
    if (conv_convert(ctx->arena, cv, t, true, &cv2, NULL))
      cv = cv2;
    else if (val_is_null(cv) || val_is_unknown(cv))
      cv.type = t;
  }
  return cv;
}

static Value decode_single(EvalCtx *ctx, const ProvNestedBlock *nb,
                           const XBlock *xs, uint32_t n, const Type *bt,
                           const HclBodyContent *c)
{
  Arena *a = ctx->arena;
  const XBlock *first = NULL;
  for (uint32_t i = 0; i < n; i++) {
    if (first) {
      diag_error(ctx->diags, &xs[i].def_range,
                 arena_printf(a, "Duplicate %s block", nb->type_name),
                 "Only one block of type \"%s\" is allowed. Previous "
                 "definition was at %s.", nb->type_name,
                 range_str(a, first->def_range));
      break;
    }
    first = &xs[i];
  }
  if (!first) {
    if (nb->min_items == 1)
      diag_error(ctx->diags, &c->missing_item_range,
                 arena_printf(a, "Missing %s block", nb->type_name),
                 "A block of type \"%s\" is required here.", nb->type_name);
    if (nb->nesting == PROV_NEST_GROUP)
      return empty_value(a, nb->block, bt);
    return val_null(bt);
  }
  return decode_body(first->ctx, first->body, nb->block, bt, first->unknown);
}

static void check_counts(EvalCtx *ctx, const ProvNestedBlock *nb,
                         const XBlock *xs, uint32_t n,
                         const HclBodyContent *c)
{
  Arena *a = ctx->arena;
  if (n < nb->min_items) {
    diag_error(ctx->diags, &c->missing_item_range,
               arena_printf(a, "Insufficient %s blocks", nb->type_name),
               "At least %u \"%s\" blocks are required.", nb->min_items,
               nb->type_name);
  } else if (nb->max_items > 0 && n > nb->max_items) {
    SrcRange r = hcl_body_missing_item_range(xs[nb->max_items].body);
    diag_error(ctx->diags, &r,
               arena_printf(a, "Too many %s blocks", nb->type_name),
               "No more than %u \"%s\" blocks are allowed", nb->max_items,
               nb->type_name);
  }
}

static Value decode_list(EvalCtx *ctx, const ProvNestedBlock *nb,
                         const XBlock *xs, uint32_t n, const Type *bt,
                         const HclBodyContent *c)
{
  Arena *a = ctx->arena;
  bool tuple = bt->kind != TY_LIST && bt->kind != TY_SET;
  const Type *et = tuple ? prov_schema_implied_type(a, nb->block) : bt->elem;
  Value *elems = ARENA_NEW(a, Value, n + 1);
  for (uint32_t i = 0; i < n; i++) {
    elems[i] = decode_body(xs[i].ctx, xs[i].body, nb->block, et,
                           xs[i].unknown);
    if (xs[i].unknown)
      return val_unknown(bt);
  }
  check_counts(ctx, nb, xs, n, c);
  if (tuple)
    return val_tuple(a, elems, n);
  if (bt->kind == TY_SET)
    return val_set(a, et, elems, n);
  return val_list(a, et, elems, n);
}

static Value decode_map(EvalCtx *ctx, const ProvNestedBlock *nb,
                        const XBlock *xs, uint32_t n, const Type *bt)
{
  Arena *a = ctx->arena;
  bool object = bt->kind != TY_MAP;
  const Type *et = object ? prov_schema_implied_type(a, nb->block) : bt->elem;
  MapEntry *ents = ARENA_NEW(a, MapEntry, n + 1);
  const char **names = ARENA_NEW(a, const char *, n + 1);
  Value *vals = ARENA_NEW(a, Value, n + 1);
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    const XBlock *x = &xs[i];
    if (x->unknown)
      return val_unknown(bt);
    Value v = decode_body(x->ctx, x->body, nb->block, et, false);
    const char *key = x->nlabels ? x->labels[0] : "";
    bool dup = false;
    for (uint32_t j = 0; j < m && !dup; j++)
      dup = strcmp(names[j], key) == 0;
    if (dup) {
      Buf lb;
      buf_init(&lb, a);
      for (uint32_t j = 0; j < x->nlabels; j++) {
        buf_putc(&lb, ' ');
        quote(&lb, x->labels[j]);
      }
      diag_error(ctx->diags, &x->def_range,
                 arena_printf(a, "Duplicate %s block", nb->type_name),
                 "A block for %s%s was already defined. The %s labels must "
                 "be unique.", nb->type_name, buf_str(&lb), nb->type_name);
      continue;
    }
    names[m] = key;
    vals[m] = v;
    ents[m].key = key;
    ents[m].keylen = (uint32_t)strlen(key);
    ents[m].val = v;
    m++;
  }
  if (object)
    return val_object(a, m, names, vals);
  return val_map(a, et, ents, m);
}

static Value decode_body(EvalCtx *ctx, const HclBody *body,
                         const ProvBlockSchema *s, const Type *t, bool unknown)
{
  Arena *a = ctx->arena;
  HclBodySchema hs;
  body_schema(a, s, &hs);
  HclBodyContent c;
  hcl_body_content(a, body, &hs, &c, ctx->diags);

  XVec xs = {0};
  for (uint32_t i = 0; i < c.nblocks; i++) {
    const HclBlock *b = c.blocks[i];
    if (strcmp(b->type, "dynamic") == 0) {
      expand_dynamic(ctx, b, s, unknown, &xs);
      continue;
    }
    XBlock xb = {0};
    xb.type = b->type;
    xb.labels = b->labels;
    xb.nlabels = b->nlabels;
    xb.def_range = block_def_range(b);
    xb.body = b->body;
    xb.ctx = ctx;
    xb.unknown = unknown;
    xpush(a, &xs, xb);
  }

  if (t->kind != TY_OBJECT)
    return val_unknown(t);
  Value *vals = ARENA_NEW(a, Value, t->n + 1);
  for (uint32_t i = 0; i < t->n; i++)
    vals[i] = val_null(t->types[i]);
  /* Attributes in the order the body gives them, so diagnostics follow
  ** the source. */
  for (uint32_t i = 0; i < c.nattrs; i++) {
    const HclAttribute *at = c.attrs[i];
    const ProvAttrSchema *as = prov_block_attr(s, at->name);
    int idx = ty_attr_index(t, at->name);
    if (!as || idx < 0)
      continue;
    vals[idx] = decode_attr(ctx, at, as, t->types[idx], unknown);
    /* A computed-only attribute is the provider's to decide: Terraform
    ** refuses any value for it, known or not, before asking the
    ** provider (an explicit null is the same as leaving it out). */
    if ((as->flags & PROV_COMPUTED) &&
        !(as->flags & (PROV_OPTIONAL | PROV_REQUIRED)) &&
        !val_is_null(vals[idx]))
      diag_error(ctx->diags, &at->range, "Value for unconfigurable attribute",
                 "Can't configure a value for \"%s\": its value will be "
                 "decided automatically based on the result of applying "
                 "this configuration.", as->name);
  }
  XBlock *sel = ARENA_NEW(a, XBlock, xs.n + 1);
  for (uint32_t i = 0; i < s->nblocks; i++) {
    const ProvNestedBlock *nb = &s->blocks[i];
    int idx = ty_attr_index(t, nb->type_name);
    if (idx < 0 || prov_block_attr(s, nb->type_name))
      continue;
    const Type *bt = t->types[idx];
    uint32_t n = 0;
    for (uint32_t j = 0; j < xs.n; j++)
      if (strcmp(xs.p[j].type, nb->type_name) == 0)
        sel[n++] = xs.p[j];
    switch (nb->nesting) {
    case PROV_NEST_SINGLE:
    case PROV_NEST_GROUP:
      vals[idx] = decode_single(ctx, nb, sel, n, bt, &c);
      break;
    case PROV_NEST_LIST:
    case PROV_NEST_SET:
      vals[idx] = decode_list(ctx, nb, sel, n, bt, &c);
      break;
    case PROV_NEST_MAP:
      vals[idx] = decode_map(ctx, nb, sel, n, bt);
      break;
    default:
      break;
    }
  }
  return val_object_typed(t, vals);
}

bool dec_body(EvalCtx *ctx, const HclBody *body, const ProvBlockSchema *schema,
              Value *out)
{
  const Type *t = prov_schema_implied_type(ctx->arena, schema);
  int e0 = ctx->diags->errors;
  Value v = decode_body(ctx, body, schema, t, false);
  if (ctx->diags->errors > e0) {
    *out = val_unknown(t);
    return false;
  }
  *out = v;
  return true;
}

/* ---- References ------------------------------------------------------ */

typedef struct RefVec {
  HclTraversal *p;
  uint32_t n, cap;
} RefVec;

/* Iterator names in scope (a linked stack on the C stack). */
typedef struct Iters {
  const char *name;
  const struct Iters *up;
} Iters;

static bool is_iter(const Iters *it, const char *name)
{
  for (; it; it = it->up)
    if (strcmp(it->name, name) == 0)
      return true;
  return false;
}

static void add_expr_refs(Arena *a, RefVec *v, const HclExpr *e,
                          const Iters *it)
{
  HclTraversal *ts;
  uint32_t n;
  hcl_expr_references(a, e, &ts, &n);
  for (uint32_t i = 0; i < n; i++) {
    if (ts[i].n == 0 || is_iter(it, ts[i].steps[0].name))
      continue;
    if (v->n == v->cap) {
      uint32_t nc = v->cap ? v->cap * 2 : 16;
      v->p = arena_grow(a, v->p, sizeof(HclTraversal), _Alignof(HclTraversal),
                        v->cap, nc);
      v->cap = nc;
    }
    v->p[v->n++] = ts[i];
  }
}

static void body_refs(Arena *a, Diags *scratch, const HclBody *body,
                      const ProvBlockSchema *s, const Iters *it, RefVec *v,
                      uint32_t depth)
{
  if (depth > HCL_MAX_DEPTH)
    return;
  HclBodySchema hs;
  body_schema(a, s, &hs);
  HclBodyContent c;
  hcl_body_partial_content(a, body, &hs, &c, NULL, scratch);
  for (uint32_t i = 0; i < c.nattrs; i++)
    add_expr_refs(a, v, c.attrs[i]->expr, it);
  for (uint32_t i = 0; i < c.nblocks; i++) {
    const HclBlock *b = c.blocks[i];
    if (strcmp(b->type, "dynamic") != 0) {
      const ProvNestedBlock *nb = nested_block(s, b->type);
      if (nb)
        body_refs(a, scratch, b->body, nb->block, it, v, depth + 1);
      continue;
    }
    const ProvNestedBlock *nb = nested_block(s, b->labels[0]);
    if (!nb)
      continue;
    static const HclAttrSchema dyn_attrs[] = {
        {"for_each", false}, {"iterator", false}, {"labels", false}};
    static const HclBlockSchema dyn_blocks[] = {{"content", NULL, 0}};
    HclBodySchema ds = {dyn_attrs, 3, dyn_blocks, 1};
    HclBodyContent dc;
    hcl_body_partial_content(a, b->body, &ds, &dc, NULL, scratch);
    HclAttribute *fe = hcl_content_attr(&dc, "for_each");
    if (fe)
      add_expr_refs(a, v, fe->expr, it);
    Iters inner = {b->labels[0], it};
    HclAttribute *ia = hcl_content_attr(&dc, "iterator");
    if (ia) {
      const char *kw = hcl_expr_as_keyword(a, ia->expr);
      if (kw)
        inner.name = kw;
    }
    HclAttribute *la = hcl_content_attr(&dc, "labels");
    if (la)
      add_expr_refs(a, v, la->expr, &inner);
    for (uint32_t j = 0; j < dc.nblocks; j++)
      body_refs(a, scratch, dc.blocks[j]->body, nb->block, &inner, v,
                depth + 1);
  }
}

void dec_body_refs(Arena *a, const HclBody *body,
                   const ProvBlockSchema *schema, HclTraversal **out,
                   uint32_t *n)
{
  RefVec v = {0};
  Diags scratch;
  diag_init(&scratch, a);
  body_refs(a, &scratch, body, schema, NULL, &v, 0);
  *out = v.p;
  *n = v.n;
}
