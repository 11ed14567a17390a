/*
** hcl_body: schema decoding of bodies for both syntaxes (hcl.Body.Content,
** PartialContent, JustAttributes as hclsyntax and hcl/json implement
** them), static analysis of expressions (references, keywords, static
** traversals) and the S-expression dump used by tests.
*/
#include "hcl.h"

#include <string.h>

/* ---- Helpers ---------------------------------------------------------------- */

static const char *range_str(Arena *a, SrcRange r)
{
  if (r.start.line == r.end.line)
    return arena_printf(a, "%s:%u,%u-%u", r.file ? r.file : "", r.start.line,
                        r.start.col, r.end.col);
  return arena_printf(a, "%s:%u,%u-%u,%u", r.file ? r.file : "",
                      r.start.line, r.start.col, r.end.line, r.end.col);
}

static SrcRange between(SrcRange a, SrcRange b)
{
  SrcRange r = a;
  r.end = b.end;
  return r;
}

static size_t levenshtein(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  size_t row[257];
  if (lb > 256 || la > 256)
    return (size_t)-1;
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t cur = row[j];
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t best = prev + cost;
      if (row[j] + 1 < best)
        best = row[j] + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      prev = cur;
    }
  }
  return row[lb];
}

const char *hcl_name_suggestion(const char *given, const char *const *names,
                                uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    if (names[i] && levenshtein(given, names[i]) < 3)
      return names[i];
  return NULL;
}

/* Name equality with the first byte compared inline: body and schema
** lookups compare a name against every entry, and most differ at once. */
static inline bool same_name(const char *x, const char *y)
{
  return x[0] == y[0] && strcmp(x, y) == 0;
}

static bool in_list(const char *const *l, uint32_t n, const char *name)
{
  for (uint32_t i = 0; i < n; i++)
    if (same_name(l[i], name))
      return true;
  return false;
}

typedef struct PVec {
  void **p;
  uint32_t n, cap;
} PVec;

static void ppush(Arena *a, PVec *v, void *x)
{
  if (v->n == v->cap) {
    uint32_t nc = v->cap ? v->cap * 2 : 8;
    v->p = arena_grow(a, v->p, sizeof(void *), _Alignof(void *), v->cap, nc);
    v->cap = nc;
  }
  v->p[v->n++] = x;
}

HclAttribute *hcl_body_attr(const HclBody *b, const char *name)
{
  for (uint32_t i = 0; i < b->nattrs; i++)
    if (same_name(b->attrs[i]->name, name))
      return b->attrs[i];
  return NULL;
}

HclAttribute *hcl_content_attr(const HclBodyContent *c, const char *name)
{
  for (uint32_t i = 0; i < c->nattrs; i++)
    if (same_name(c->attrs[i]->name, name))
      return c->attrs[i];
  return NULL;
}

SrcRange hcl_body_missing_item_range(const HclBody *b)
{
  SrcRange r = b->range;
  if (b->json && b->jv) {
    r = b->jv->range;
    if (b->jv->kind == HCL_J_OBJECT) {
      /* the closing brace */
      r.start = r.end;
      if (r.start.col > 1)
        r.start.col--;
      if (r.start.byte > 0)
        r.start.byte--;
      return r;
    }
    if (b->jv->kind == HCL_J_ARRAY)
      return b->jv->open_range;
    return r;
  }
  r.end = r.start;
  return r;
}

/* ---- Native bodies ---------------------------------------------------------- */

static HclBody *remain_body(Arena *a, const HclBody *b, PVec *ha, PVec *hb)
{
  HclBody *r = ARENA_NEW(a, HclBody, 1);
  *r = *b;
  r->hidden_attrs = (const char **)ha->p;
  r->nhidden_attrs = ha->n;
  r->hidden_blocks = (const char **)hb->p;
  r->nhidden_blocks = hb->n;
  return r;
}

/* A vector that never grows: cap is known up front.  Decoding every
** resource of a large configuration goes through here; growing four
** interleaved vectors copied each of them several times. */
static void pfixed(Arena *a, PVec *v, uint32_t cap)
{
  v->p = arena_alloc_raw(a, sizeof(void *), _Alignof(void *), cap);
  v->n = 0;
  v->cap = cap;
}

static void hidden_init(Arena *a, const HclBody *b, const HclBodySchema *s,
                        PVec *ha, PVec *hb)
{
  pfixed(a, ha, b->nhidden_attrs + s->nattrs);
  pfixed(a, hb, b->nhidden_blocks + s->nblocks);
  for (uint32_t i = 0; i < b->nhidden_attrs; i++)
    ha->p[ha->n++] = (void *)b->hidden_attrs[i];
  for (uint32_t i = 0; i < b->nhidden_blocks; i++)
    hb->p[hb->n++] = (void *)b->hidden_blocks[i];
}

static bool native_partial(Arena *a, const HclBody *b, const HclBodySchema *s,
                           HclBodyContent *out, HclBody **remain, Diags *d)
{
  int e0 = d->errors;
  PVec ha, hb, attrs, blocks;
  hidden_init(a, b, s, &ha, &hb);
  pfixed(a, &attrs, s->nattrs);
  pfixed(a, &blocks, b->nblocks);
  uint32_t nha0 = ha.n, nhb0 = hb.n;
  SrcRange missing = hcl_body_missing_item_range(b);
  for (uint32_t i = 0; i < s->nattrs; i++) {
    const char *name = s->attrs[i].name;
    HclAttribute *at = hcl_body_attr(b, name);
    bool hidden = in_list((const char *const *)ha.p, nha0, name);
    if (hidden || !at) {
      if (s->attrs[i].required)
        diag_error(d, &missing, "Missing required argument",
                   "The argument \"%s\" is required, but no definition was "
                   "found.", name);
      continue;
    }
    ppush(a, &ha, (void *)name);
    ppush(a, &attrs, at);
  }
  for (uint32_t i = 0; i < b->nblocks; i++) {
    HclBlock *blk = b->blocks[i];
    if (in_list((const char *const *)hb.p, nhb0, blk->type))
      continue;
    const HclBlockSchema *bs = NULL;
    for (uint32_t j = 0; j < s->nblocks; j++)
      if (same_name(s->blocks[j].type, blk->type)) {
        bs = &s->blocks[j];
        break;
      }
    if (!bs)
      continue;
    SrcRange ctx = between(blk->type_range, blk->open_brace);
    if (blk->nlabels > bs->nlabels) {
      Diag *g;
      if (bs->nlabels == 0) {
        g = diag_error(d, &blk->label_ranges[0], "",
                       "No labels are expected for %s blocks.", blk->type);
      } else {
        Buf names;
        buf_init(&names, a);
        for (uint32_t j = 0; j < bs->nlabels; j++)
          buf_printf(&names, "%s%s", j ? ", " : "", bs->label_names[j]);
        g = diag_error(d, &blk->label_ranges[bs->nlabels], "",
                       "Only %u labels (%s) are expected for %s blocks.",
                       bs->nlabels, buf_str(&names), blk->type);
      }
      g->summary =
          arena_printf(d->arena, "Extraneous label for %s", blk->type);
      diag_set_context(d, g, &ctx);
      continue;
    }
    if (blk->nlabels < bs->nlabels) {
      Buf names;
      buf_init(&names, a);
      for (uint32_t j = 0; j < bs->nlabels; j++)
        buf_printf(&names, "%s%s", j ? ", " : "", bs->label_names[j]);
      Diag *g = diag_error(d, &blk->open_brace, "",
                           "All %s blocks must have %u labels (%s).",
                           blk->type, bs->nlabels, buf_str(&names));
      g->summary = arena_printf(d->arena, "Missing %s for %s",
                                bs->label_names[blk->nlabels], blk->type);
      diag_set_context(d, g, &ctx);
      continue;
    }
    ppush(a, &blocks, blk);
  }
  for (uint32_t j = 0; j < s->nblocks; j++)
    ppush(a, &hb, (void *)s->blocks[j].type);
  out->attrs = (HclAttribute **)attrs.p;
  out->nattrs = attrs.n;
  out->blocks = (HclBlock **)blocks.p;
  out->nblocks = blocks.n;
  out->missing_item_range = missing;
  if (remain)
    *remain = remain_body(a, b, &ha, &hb);
  return d->errors == e0;
}

static bool native_content(Arena *a, const HclBody *b, const HclBodySchema *s,
                           HclBodyContent *out, Diags *d)
{
  HclBody *rem;
  int e0 = d->errors;
  native_partial(a, b, s, out, &rem, d);
  const char **sug = ARENA_NEW(a, const char *, s->nattrs + s->nblocks + 1);
  uint32_t nsug = 0;
  for (uint32_t j = 0; j < s->nattrs; j++)
    if (!hcl_content_attr(out, s->attrs[j].name))
      sug[nsug++] = s->attrs[j].name;
  for (uint32_t i = 0; i < b->nitems; i++) {
    HclAttribute *at = b->items[i].attr;
    HclBlock *blk = b->items[i].block;
    if (at) {
      if (in_list(rem->hidden_attrs, rem->nhidden_attrs, at->name))
        continue;
      const char *sg = hcl_name_suggestion(at->name, sug, nsug);
      const char *extra = "";
      if (sg) {
        extra = arena_printf(a, " Did you mean \"%s\"?", sg);
      } else {
        for (uint32_t j = 0; j < s->nblocks; j++)
          if (same_name(s->blocks[j].type, at->name)) {
            extra = arena_printf(a, " Did you mean to define a block of type "
                                 "\"%s\"?", at->name);
            break;
          }
      }
      diag_error(d, &at->name_range, "Unsupported argument",
                 "An argument named \"%s\" is not expected here.%s",
                 at->name, extra);
    } else if (blk) {
      if (in_list(rem->hidden_blocks, rem->nhidden_blocks, blk->type))
        continue;
      const char **bt = ARENA_NEW(a, const char *, s->nblocks + 1);
      for (uint32_t j = 0; j < s->nblocks; j++)
        bt[j] = s->blocks[j].type;
      const char *sg = hcl_name_suggestion(blk->type, bt, s->nblocks);
      const char *extra = "";
      if (sg) {
        extra = arena_printf(a, " Did you mean \"%s\"?", sg);
      } else {
        for (uint32_t j = 0; j < s->nattrs; j++)
          if (same_name(s->attrs[j].name, blk->type)) {
            extra = arena_printf(a, " Did you mean to define argument "
                                 "\"%s\"? If so, use the equals sign to "
                                 "assign it a value.", blk->type);
            break;
          }
      }
      diag_error(d, &blk->type_range, "Unsupported block type",
                 "Blocks of type \"%s\" are not expected here.%s", blk->type,
                 extra);
    }
  }
  return d->errors == e0;
}

/* ---- JSON bodies --------------------------------------------------------------- */

static SrcRange jstart(const HclJsonValue *v)
{
  if (v->kind == HCL_J_OBJECT || v->kind == HCL_J_ARRAY)
    return v->open_range;
  return v->range;
}

/* collectDeepAttrs */
static void collect_deep(Arena *a, const HclJsonValue *v, const char *label,
                         PVec *out, Diags *d)
{
  if (v->kind == HCL_J_NULL)
    return;
  if (v->kind == HCL_J_OBJECT) {
    for (uint32_t i = 0; i < v->u.obj.n; i++)
      ppush(a, out, &((HclJsonProp *)v->u.obj.props)[i]);
    return;
  }
  if (v->kind == HCL_J_ARRAY) {
    for (uint32_t k = 0; k < v->u.arr.n; k++) {
      const HclJsonValue *ev = v->u.arr.items[k];
      if (ev->kind == HCL_J_OBJECT) {
        for (uint32_t i = 0; i < ev->u.obj.n; i++)
          ppush(a, out, &((HclJsonProp *)ev->u.obj.props)[i]);
        continue;
      }
      SrcRange r = jstart(ev);
      if (label)
        diag_error(d, &r, "Incorrect JSON value type",
                   "A JSON object is required here, to specify %s labels "
                   "for this block.", label);
      else
        diag_error(d, &r, "Incorrect JSON value type",
                   "A JSON object is required here, to define arguments and "
                   "child blocks.");
    }
    return;
  }
  SrcRange r = jstart(v);
  if (label)
    diag_error(d, &r, "Incorrect JSON value type",
               "Either a JSON object or JSON array of objects is required "
               "here, to specify %s labels for this block.", label);
  else
    diag_error(d, &r, "Incorrect JSON value type",
               "Either a JSON object or JSON array of objects is required "
               "here, to define arguments and child blocks.");
}

static HclBody *json_body(Arena *a, const HclJsonValue *v)
{
  HclBody *b = ARENA_NEW(a, HclBody, 1);
  b->json = true;
  b->jv = v;
  b->range = v->range;
  return b;
}

static HclBlock *json_block(Arena *a, const char *type, SrcRange type_range,
                            const char **labels, SrcRange *lranges,
                            uint32_t nl, const HclJsonValue *bodyv,
                            SrcRange def)
{
  HclBlock *blk = ARENA_NEW(a, HclBlock, 1);
  blk->type = type;
  blk->type_range = type_range;
  blk->nlabels = nl;
  blk->labels = ARENA_NEW(a, const char *, nl + 1);
  blk->label_ranges = ARENA_NEW(a, SrcRange, nl + 1);
  blk->label_quoted = ARENA_NEW(a, uint8_t, nl + 1);
  for (uint32_t i = 0; i < nl; i++) {
    blk->labels[i] = labels[i];
    blk->label_ranges[i] = lranges[i];
    blk->label_quoted[i] = 1;
  }
  blk->body = json_body(a, bodyv);
  blk->open_brace = def;
  blk->close_brace = def;
  if (bodyv->kind == HCL_J_OBJECT) {
    blk->close_brace = bodyv->range;
    blk->close_brace.start = bodyv->range.end;
    if (blk->close_brace.start.col > 1)
      blk->close_brace.start.col--;
    if (blk->close_brace.start.byte > 0)
      blk->close_brace.start.byte--;
  }
  return blk;
}

static void unpack_block(Arena *a, const HclJsonValue *v, const char *type,
                         SrcRange type_range, const HclBlockSchema *bs,
                         uint32_t used, const char **labels,
                         SrcRange *lranges, PVec *blocks, Diags *d)
{
  if (used < bs->nlabels) {
    const char *lname = bs->label_names[used];
    PVec props = {0};
    collect_deep(a, v, lname, &props, d);
    if (props.n == 0) {
      SrcRange r = jstart(v);
      diag_error(d, &r, "Missing block label",
                 "At least one object property is required, whose name "
                 "represents the %s block's %s.", type, lname);
      return;
    }
    for (uint32_t i = 0; i < props.n; i++) {
      HclJsonProp *pp = props.p[i];
      labels[used] = pp->name;
      lranges[used] = pp->name_range;
      unpack_block(a, pp->value, type, type_range, bs, used + 1, labels,
                   lranges, blocks, d);
    }
    return;
  }
  switch (v->kind) {
  case HCL_J_NULL:
    return;
  case HCL_J_OBJECT:
    ppush(a, blocks, json_block(a, type, type_range, labels, lranges, used,
                                v, v->open_range));
    return;
  case HCL_J_ARRAY:
    for (uint32_t i = 0; i < v->u.arr.n; i++)
      ppush(a, blocks, json_block(a, type, type_range, labels, lranges, used,
                                  v->u.arr.items[i], v->open_range));
    return;
  default: {
    SrcRange r = jstart(v);
    diag_error(d, &r, "Incorrect JSON value type",
               "Either a JSON object or a JSON array is required, "
               "representing the contents of one or more \"%s\" blocks.",
               type);
    return;
  }
  }
}

static HclAttribute *json_attr(Arena *a, const HclJsonProp *pp)
{
  HclAttribute *at = ARENA_NEW(a, HclAttribute, 1);
  at->name = pp->name;
  HclExpr *e = ARENA_NEW(a, HclExpr, 1);
  e->kind = HCL_E_JSON;
  e->range = pp->value->range;
  e->u.json = pp->value;
  at->expr = e;
  at->range = between(pp->name_range, pp->value->range);
  at->name_range = pp->name_range;
  return at;
}

static bool json_partial(Arena *a, const HclBody *b, const HclBodySchema *s,
                         HclBodyContent *out, HclBody **remain, Diags *d)
{
  int e0 = d->errors;
  PVec props = {0}, attrs = {0}, blocks = {0}, ha, hb;
  hidden_init(a, b, s, &ha, &hb);
  uint32_t nha0 = ha.n;
  collect_deep(a, b->jv, NULL, &props, d);
  uint32_t maxl = 0;
  for (uint32_t j = 0; j < s->nblocks; j++)
    if (s->blocks[j].nlabels > maxl)
      maxl = s->blocks[j].nlabels;
  const char **labels = ARENA_NEW(a, const char *, maxl + 1);
  SrcRange *lranges = ARENA_NEW(a, SrcRange, maxl + 1);
  for (uint32_t i = 0; i < props.n; i++) {
    HclJsonProp *pp = props.p[i];
    if (in_list((const char *const *)ha.p, nha0, pp->name))
      continue;
    const HclAttrSchema *as = NULL;
    const HclBlockSchema *bs = NULL;
    for (uint32_t j = 0; j < s->nattrs && !as; j++)
      if (strcmp(s->attrs[j].name, pp->name) == 0)
        as = &s->attrs[j];
    for (uint32_t j = 0; j < s->nblocks && !as && !bs; j++)
      if (strcmp(s->blocks[j].type, pp->name) == 0)
        bs = &s->blocks[j];
    if (as) {
      HclAttribute *ex = NULL;
      for (uint32_t k = 0; k < attrs.n; k++)
        if (strcmp(((HclAttribute *)attrs.p[k])->name, pp->name) == 0)
          ex = attrs.p[k];
      if (ex) {
        SrcRange ctx = between(pp->name_range, pp->value->range);
        Diag *g = diag_error(d, &pp->name_range, "Duplicate argument",
                             "The argument \"%s\" was already set at %s.",
                             pp->name, range_str(a, ex->range));
        diag_set_context(d, g, &ctx);
        continue;
      }
      ppush(a, &attrs, json_attr(a, pp));
      ppush(a, &ha, (void *)pp->name);
    } else if (bs) {
      unpack_block(a, pp->value, bs->type, pp->name_range, bs, 0, labels,
                   lranges, &blocks, d);
      ppush(a, &ha, (void *)pp->name);
    }
  }
  out->attrs = (HclAttribute **)attrs.p;
  out->nattrs = attrs.n;
  out->blocks = (HclBlock **)blocks.p;
  out->nblocks = blocks.n;
  out->missing_item_range = hcl_body_missing_item_range(b);
  for (uint32_t j = 0; j < s->nattrs; j++)
    if (s->attrs[j].required && !hcl_content_attr(out, s->attrs[j].name))
      diag_error(d, &out->missing_item_range, "Missing required argument",
                 "The argument \"%s\" is required, but no definition was "
                 "found.", s->attrs[j].name);
  if (remain)
    *remain = remain_body(a, b, &ha, &hb);
  return d->errors == e0;
}

static bool json_content(Arena *a, const HclBody *b, const HclBodySchema *s,
                         HclBodyContent *out, Diags *d)
{
  int e0 = d->errors;
  HclBody *rem;
  json_partial(a, b, s, out, &rem, d);
  const char **sug = ARENA_NEW(a, const char *, s->nattrs + s->nblocks + 1);
  uint32_t nsug = 0;
  for (uint32_t j = 0; j < s->nattrs; j++)
    if (!in_list(rem->hidden_attrs, rem->nhidden_attrs, s->attrs[j].name))
      sug[nsug++] = s->attrs[j].name;
  for (uint32_t j = 0; j < s->nblocks; j++)
    sug[nsug++] = s->blocks[j].type;
  PVec props = {0};
  Diags scratch;
  diag_init(&scratch, a);
  collect_deep(a, b->jv, NULL, &props, &scratch);
  for (uint32_t i = 0; i < props.n; i++) {
    HclJsonProp *pp = props.p[i];
    if (strcmp(pp->name, "//") == 0)
      continue;
    if (in_list(rem->hidden_attrs, rem->nhidden_attrs, pp->name))
      continue;
    const char *sg = hcl_name_suggestion(pp->name, sug, nsug);
    SrcRange ctx = between(pp->name_range, pp->value->range);
    Diag *g = diag_error(d, &pp->name_range, "Extraneous JSON object property",
                         "No argument or block type is named \"%s\".%s%s%s",
                         pp->name, sg ? " Did you mean \"" : "", sg ? sg : "",
                         sg ? "\"?" : "");
    diag_set_context(d, g, &ctx);
  }
  return d->errors == e0;
}

/* ---- Public content API ------------------------------------------------------ */

bool hcl_body_content(Arena *a, const HclBody *b, const HclBodySchema *s,
                      HclBodyContent *out, Diags *d)
{
  memset(out, 0, sizeof *out);
  if (b->json)
    return json_content(a, b, s, out, d);
  return native_content(a, b, s, out, d);
}

bool hcl_body_partial_content(Arena *a, const HclBody *b,
                              const HclBodySchema *s, HclBodyContent *out,
                              HclBody **remain, Diags *d)
{
  memset(out, 0, sizeof *out);
  if (b->json)
    return json_partial(a, b, s, out, remain, d);
  return native_partial(a, b, s, out, remain, d);
}

/* Attributes by name, sized once for at most n (open addressing,
** FNV-1a): a JSON object with many properties must not make the duplicate
** check quadratic (fuzzing: 100,000 locals took minutes). */
typedef struct AttrSet {
  HclAttribute **slot;
  uint32_t mask;
} AttrSet;

static void aset_init(Arena *a, AttrSet *s, uint32_t n)
{
  uint32_t cap = 8;
  while (cap < 2 * (uint64_t)n)
    cap *= 2;
  s->slot = ARENA_NEW(a, HclAttribute *, cap);
  s->mask = cap - 1;
}

/* The attribute named like at, or NULL after adding at. */
static HclAttribute *aset_add(AttrSet *s, HclAttribute *at)
{
  uint32_t h = 2166136261u;
  for (const char *c = at->name; *c; c++)
    h = (h ^ (uint8_t)*c) * 16777619u;
  uint32_t i = h & s->mask;
  while (s->slot[i]) {
    if (strcmp(s->slot[i]->name, at->name) == 0)
      return s->slot[i];
    i = (i + 1) & s->mask;
  }
  s->slot[i] = at;
  return NULL;
}

bool hcl_body_just_attributes(Arena *a, const HclBody *b,
                              HclAttribute ***out, uint32_t *n, Diags *d)
{
  int e0 = d->errors;
  PVec attrs = {0};
  if (b->json) {
    const HclJsonValue *v = b->jv;
    if (!v || v->kind != HCL_J_OBJECT) {
      SrcRange r = v ? jstart(v) : b->range;
      diag_error(d, &r, "Incorrect JSON value type",
                 "A JSON object is required here, setting the arguments for "
                 "this block.");
    } else {
      AttrSet seen;
      aset_init(a, &seen, v->u.obj.n);
      for (uint32_t i = 0; i < v->u.obj.n; i++) {
        const HclJsonProp *pp = &v->u.obj.props[i];
        if (strcmp(pp->name, "//") == 0)
          continue;
        if (in_list(b->hidden_attrs, b->nhidden_attrs, pp->name))
          continue;
        HclAttribute *at = json_attr(a, pp);
        HclAttribute *ex = aset_add(&seen, at);
        if (ex) {
          diag_error(d, &pp->name_range, "Duplicate attribute definition",
                     "The argument \"%s\" was already set at %s.", pp->name,
                     range_str(a, ex->range));
          continue;
        }
        ppush(a, &attrs, at);
      }
    }
  } else {
    if (b->nblocks > 0) {
      HclBlock *ex = b->blocks[0];
      Diag *g = diag_error(d, &ex->type_range, "", "Blocks are not allowed "
                           "here.");
      g->summary = arena_printf(d->arena, "Unexpected \"%s\" block", ex->type);
    }
    for (uint32_t i = 0; i < b->nattrs; i++)
      if (!in_list(b->hidden_attrs, b->nhidden_attrs, b->attrs[i]->name))
        ppush(a, &attrs, b->attrs[i]);
  }
  *out = (HclAttribute **)attrs.p;
  *n = attrs.n;
  return d->errors == e0;
}

/* ---- Static analysis ------------------------------------------------------------ */

const HclExpr *hcl_expr_unwrap(const HclExpr *e)
{
  while (e && e->kind == HCL_E_PAREN)
    e = e->u.wrap;
  return e;
}

typedef struct Scope {
  const struct Scope *up;
  const char *k, *v;
} Scope;

typedef struct Refs {
  Arena *a;
  HclTraversal *p;
  uint32_t n, cap;
} Refs;

static bool scoped(const Scope *s, const char *name)
{
  for (; s; s = s->up)
    if ((s->k && strcmp(s->k, name) == 0) || (s->v && strcmp(s->v, name) == 0))
      return true;
  return false;
}

static void walk(Refs *r, const HclExpr *e, const Scope *sc)
{
  if (!e)
    return;
  switch (e->kind) {
  case HCL_E_LITERAL:
  case HCL_E_ANON:
    return;
  case HCL_E_TEMPLATE:
    for (uint32_t i = 0; i < e->u.tmpl.n; i++)
      walk(r, e->u.tmpl.parts[i], sc);
    return;
  case HCL_E_TEMPLATE_WRAP:
  case HCL_E_TEMPLATE_JOIN:
  case HCL_E_PAREN:
    walk(r, e->u.wrap, sc);
    return;
  case HCL_E_SCOPE_TRAV:
    if (scoped(sc, e->u.trav.steps[0].name))
      return;
    if (r->n == r->cap) {
      uint32_t nc = r->cap ? r->cap * 2 : 8;
      r->p = arena_grow(r->a, r->p, sizeof(HclTraversal),
                        _Alignof(HclTraversal), r->cap, nc);
      r->cap = nc;
    }
    r->p[r->n++] = e->u.trav;
    return;
  case HCL_E_REL_TRAV:
    walk(r, e->u.rel.src, sc);
    return;
  case HCL_E_INDEX:
    walk(r, e->u.index.coll, sc);
    walk(r, e->u.index.key, sc);
    return;
  case HCL_E_CALL:
    for (uint32_t i = 0; i < e->u.call.nargs; i++)
      walk(r, e->u.call.args[i], sc);
    return;
  case HCL_E_COND:
    walk(r, e->u.cond.c, sc);
    walk(r, e->u.cond.t, sc);
    walk(r, e->u.cond.f, sc);
    return;
  case HCL_E_BINARY:
    walk(r, e->u.binary.lhs, sc);
    walk(r, e->u.binary.rhs, sc);
    return;
  case HCL_E_UNARY:
    walk(r, e->u.unary.operand, sc);
    return;
  case HCL_E_TUPLE:
    for (uint32_t i = 0; i < e->u.tuple.n; i++)
      walk(r, e->u.tuple.items[i], sc);
    return;
  case HCL_E_OBJECT:
    for (uint32_t i = 0; i < e->u.object.n; i++) {
      const HclObjectItem *it = &e->u.object.items[i];
      if (!it->key_name)
        walk(r, it->key, sc);
      walk(r, it->value, sc);
    }
    return;
  case HCL_E_FOR: {
    walk(r, e->u.forx.coll, sc);
    Scope child = {sc, e->u.forx.key_var, e->u.forx.val_var};
    walk(r, e->u.forx.key, &child);
    walk(r, e->u.forx.val, &child);
    walk(r, e->u.forx.cond, &child);
    return;
  }
  case HCL_E_SPLAT:
    walk(r, e->u.splat.src, sc);
    walk(r, e->u.splat.each, sc);
    return;
  case HCL_E_JSON: {
    Diags scratch;
    diag_init(&scratch, r->a);
    HclExpr *n = hcl_json_to_expr(r->a, e, false, &scratch);
    if (n && n->kind != HCL_E_JSON)
      walk(r, n, sc);
    return;
  }
  }
}

void hcl_expr_references(Arena *a, const HclExpr *e, HclTraversal **out,
                         uint32_t *n)
{
  Refs r = {a, NULL, 0, 0};
  walk(&r, e, NULL);
  *out = r.p;
  *n = r.n;
}

static bool keyword_trav(Arena *a, const HclExpr *e, HclTraversal *out)
{
  if (e->kind == HCL_E_SCOPE_TRAV) {
    *out = e->u.trav;
    return true;
  }
  if (e->kind == HCL_E_LITERAL && !val_is_unknown(e->u.lit)) {
    const char *name = NULL;
    if (val_is_null(e->u.lit))
      name = "null";
    else if (e->u.lit.type == &ty_bool)
      name = e->u.lit.u.b ? "true" : "false";
    if (!name)
      return false;
    HclStep *s = ARENA_NEW(a, HclStep, 1);
    s->kind = HCL_STEP_ROOT;
    s->name = name;
    s->range = e->range;
    out->steps = s;
    out->n = 1;
    return true;
  }
  return false;
}

bool hcl_expr_as_traversal(Arena *a, const HclExpr *e, HclTraversal *out,
                           Diags *d)
{
  memset(out, 0, sizeof *out);
  e = hcl_expr_unwrap(e);
  if (e->kind == HCL_E_JSON && e->u.json->kind == HCL_J_STRING) {
    const HclJsonValue *v = e->u.json;
    return hcl_parse_traversal(a, v->range.file, v->u.str.s, v->u.str.len,
                               out, d) ||
           false;
  }
  if (keyword_trav(a, e, out))
    return true;
  diag_error(d, &e->range, "Invalid expression",
             "A single static variable reference is required: only attribute "
             "access and indexing with constant keys. No calculations, "
             "function calls, template expressions, etc are allowed here.");
  return false;
}

const char *hcl_expr_as_keyword(Arena *a, const HclExpr *e)
{
  HclTraversal t;
  e = hcl_expr_unwrap(e);
  if (e->kind == HCL_E_JSON) {
    if (e->u.json->kind != HCL_J_STRING)
      return NULL;
    Diags scratch;
    diag_init(&scratch, a);
    if (!hcl_expr_as_traversal(a, e, &t, &scratch) || t.n != 1)
      return NULL;
    return t.steps[0].name;
  }
  if (keyword_trav(a, e, &t) && t.n == 1)
    return t.steps[0].name;
  return NULL;
}

bool hcl_parse_traversal(Arena *a, const char *file, const char *src,
                         size_t len, HclTraversal *out, Diags *d)
{
  Diags local;
  diag_init(&local, a);
  HclExpr *e = hcl_parse_expr(a, file, src, len, &local);
  bool ok = !diag_has_errors(&local);
  diag_move(d, &local);
  if (!ok) {
    memset(out, 0, sizeof *out);
    return false;
  }
  /* parentheses are not traversal syntax */
  if (e->kind == HCL_E_PAREN || !keyword_trav(a, e, out)) {
    diag_error(d, &e->range, "Invalid expression",
               "A single static variable reference is required: only "
               "attribute access and indexing with constant keys. No "
               "calculations, function calls, template expressions, etc are "
               "allowed here.");
    memset(out, 0, sizeof *out);
    return false;
  }
  return true;
}

/* ---- Dump --------------------------------------------------------------------- */

static void dump_str(Buf *o, const char *s, size_t n)
{
  buf_putc(o, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      buf_putc(o, '\\');
      buf_putc(o, (char)c);
    } else if (c == '\n') {
      buf_puts(o, "\\n");
    } else if (c == '\t') {
      buf_puts(o, "\\t");
    } else if (c == '\r') {
      buf_puts(o, "\\r");
    } else if (c < 0x20) {
      buf_printf(o, "\\x%02x", c);
    } else {
      buf_putc(o, (char)c);
    }
  }
  buf_putc(o, '"');
}

static void dump_value(Buf *o, Value v)
{
  if (val_is_unknown(v)) {
    buf_putc(o, '?');
  } else if (val_is_null(v)) {
    buf_puts(o, "null");
  } else if (v.type == &ty_bool) {
    buf_puts(o, v.u.b ? "true" : "false");
  } else if (v.type == &ty_number) {
    val_num_format(o, v);
  } else if (v.type == &ty_string) {
    dump_str(o, v.u.s, v.len);
  } else {
    buf_puts(o, "<value>");
  }
}

static void dump_steps(Buf *o, const HclStep *s, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    buf_putc(o, ' ');
    switch (s[i].kind) {
    case HCL_STEP_ROOT: buf_puts(o, s[i].name); break;
    case HCL_STEP_ATTR: buf_printf(o, ".%s", s[i].name); break;
    case HCL_STEP_INDEX:
      if (s[i].legacy) {
        buf_putc(o, '.');
        dump_value(o, *s[i].key);
      } else {
        buf_putc(o, '[');
        dump_value(o, *s[i].key);
        buf_putc(o, ']');
      }
      break;
    }
  }
}

static void dump_json(Buf *o, const HclJsonValue *v)
{
  switch (v->kind) {
  case HCL_J_NULL: buf_puts(o, "null"); break;
  case HCL_J_BOOL: buf_puts(o, v->u.b ? "true" : "false"); break;
  case HCL_J_NUMBER: dump_value(o, v->u.num); break;
  case HCL_J_STRING: dump_str(o, v->u.str.s, v->u.str.len); break;
  case HCL_J_OBJECT:
    buf_putc(o, '{');
    for (uint32_t i = 0; i < v->u.obj.n; i++) {
      if (i)
        buf_putc(o, ' ');
      dump_str(o, v->u.obj.props[i].name, v->u.obj.props[i].name_len);
      buf_putc(o, ':');
      dump_json(o, v->u.obj.props[i].value);
    }
    buf_putc(o, '}');
    break;
  case HCL_J_ARRAY:
    buf_putc(o, '[');
    for (uint32_t i = 0; i < v->u.arr.n; i++) {
      if (i)
        buf_putc(o, ' ');
      dump_json(o, v->u.arr.items[i]);
    }
    buf_putc(o, ']');
    break;
  }
}

static const char *const binop_names[] = {
    "||", "&&", "==", "!=", ">", ">=", "<", "<=", "+", "-", "*", "/", "%"};

void hcl_dump_expr(Buf *o, const HclExpr *e)
{
  if (!e) {
    buf_putc(o, '_');
    return;
  }
  switch (e->kind) {
  case HCL_E_LITERAL:
    dump_value(o, e->u.lit);
    return;
  case HCL_E_TEMPLATE:
    buf_puts(o, "(tmpl");
    for (uint32_t i = 0; i < e->u.tmpl.n; i++) {
      buf_putc(o, ' ');
      hcl_dump_expr(o, e->u.tmpl.parts[i]);
    }
    buf_putc(o, ')');
    return;
  case HCL_E_TEMPLATE_WRAP:
  case HCL_E_TEMPLATE_JOIN:
  case HCL_E_PAREN:
    buf_puts(o, e->kind == HCL_E_TEMPLATE_WRAP   ? "(wrap "
                : e->kind == HCL_E_TEMPLATE_JOIN ? "(join "
                                                 : "(paren ");
    hcl_dump_expr(o, e->u.wrap);
    buf_putc(o, ')');
    return;
  case HCL_E_SCOPE_TRAV:
    buf_puts(o, "(trav");
    dump_steps(o, e->u.trav.steps, e->u.trav.n);
    buf_putc(o, ')');
    return;
  case HCL_E_REL_TRAV:
    buf_puts(o, "(rel ");
    hcl_dump_expr(o, e->u.rel.src);
    dump_steps(o, e->u.rel.steps, e->u.rel.n);
    buf_putc(o, ')');
    return;
  case HCL_E_INDEX:
    buf_puts(o, "(index ");
    hcl_dump_expr(o, e->u.index.coll);
    buf_putc(o, ' ');
    hcl_dump_expr(o, e->u.index.key);
    buf_putc(o, ')');
    return;
  case HCL_E_CALL:
    buf_printf(o, "(call %s", e->u.call.name);
    for (uint32_t i = 0; i < e->u.call.nargs; i++) {
      buf_putc(o, ' ');
      hcl_dump_expr(o, e->u.call.args[i]);
    }
    if (e->u.call.expand_final)
      buf_puts(o, " ...");
    buf_putc(o, ')');
    return;
  case HCL_E_COND:
    buf_puts(o, "(? ");
    hcl_dump_expr(o, e->u.cond.c);
    buf_putc(o, ' ');
    hcl_dump_expr(o, e->u.cond.t);
    buf_putc(o, ' ');
    hcl_dump_expr(o, e->u.cond.f);
    buf_putc(o, ')');
    return;
  case HCL_E_BINARY:
    buf_printf(o, "(%s ", binop_names[e->u.binary.op]);
    hcl_dump_expr(o, e->u.binary.lhs);
    buf_putc(o, ' ');
    hcl_dump_expr(o, e->u.binary.rhs);
    buf_putc(o, ')');
    return;
  case HCL_E_UNARY:
    buf_puts(o, e->u.unary.op == HCL_OP_NOT ? "(! " : "(neg ");
    hcl_dump_expr(o, e->u.unary.operand);
    buf_putc(o, ')');
    return;
  case HCL_E_TUPLE:
    buf_puts(o, "(tuple");
    for (uint32_t i = 0; i < e->u.tuple.n; i++) {
      buf_putc(o, ' ');
      hcl_dump_expr(o, e->u.tuple.items[i]);
    }
    buf_putc(o, ')');
    return;
  case HCL_E_OBJECT:
    buf_puts(o, "(object");
    for (uint32_t i = 0; i < e->u.object.n; i++) {
      const HclObjectItem *it = &e->u.object.items[i];
      buf_puts(o, " (");
      if (it->key_name)
        buf_puts(o, it->key_name);
      else
        hcl_dump_expr(o, it->key);
      buf_putc(o, ' ');
      hcl_dump_expr(o, it->value);
      buf_putc(o, ')');
    }
    buf_putc(o, ')');
    return;
  case HCL_E_FOR:
    buf_printf(o, "(for%s %s %s ", e->u.forx.object ? "{" : "[",
               e->u.forx.key_var ? e->u.forx.key_var : "_",
               e->u.forx.val_var);
    hcl_dump_expr(o, e->u.forx.coll);
    if (e->u.forx.object) {
      buf_putc(o, ' ');
      hcl_dump_expr(o, e->u.forx.key);
    }
    buf_putc(o, ' ');
    hcl_dump_expr(o, e->u.forx.val);
    if (e->u.forx.cond) {
      buf_puts(o, " if ");
      hcl_dump_expr(o, e->u.forx.cond);
    }
    if (e->u.forx.group)
      buf_puts(o, " ...");
    buf_putc(o, ')');
    return;
  case HCL_E_SPLAT:
    buf_puts(o, e->u.splat.attr_only ? "(splat. " : "(splat ");
    hcl_dump_expr(o, e->u.splat.src);
    buf_putc(o, ' ');
    hcl_dump_expr(o, e->u.splat.each);
    buf_putc(o, ')');
    return;
  case HCL_E_ANON:
    buf_putc(o, '@');
    return;
  case HCL_E_JSON:
    buf_puts(o, "(json ");
    dump_json(o, e->u.json);
    buf_putc(o, ')');
    return;
  }
}

void hcl_dump_body(Buf *o, const HclBody *b)
{
  if (b->json) {
    buf_puts(o, "(jsonbody ");
    dump_json(o, b->jv);
    buf_putc(o, ')');
    return;
  }
  buf_puts(o, "(body");
  for (uint32_t i = 0; i < b->nitems; i++) {
    const HclBodyItem *it = &b->items[i];
    if (it->attr) {
      buf_printf(o, " (%s = ", it->attr->name);
      hcl_dump_expr(o, it->attr->expr);
      buf_putc(o, ')');
    } else {
      const HclBlock *blk = it->block;
      buf_printf(o, " (%s", blk->type);
      for (uint32_t j = 0; j < blk->nlabels; j++) {
        buf_putc(o, ' ');
        if (blk->label_quoted[j])
          dump_str(o, blk->labels[j], strlen(blk->labels[j]));
        else
          buf_puts(o, blk->labels[j]);
      }
      buf_putc(o, ' ');
      hcl_dump_body(o, blk->body);
      buf_putc(o, ')');
    }
  }
  buf_putc(o, ')');
}
