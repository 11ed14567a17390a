/*
** jsonplan_config: the plan's "configuration" section (Terraform's
** jsonconfig): expressions with their references, resources, module calls
** and the provider configuration map keyed as Terraform does.
*/
#include "jsonplan_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "lang/eval.h"

/* ---- Configuration ----------------------------------------------------- */

/* jsonconfig's traversalStr of the remaining steps. */
static void steps_str(Buf *b, const HclStep *s, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    if (s[i].kind == HCL_STEP_ATTR || s[i].kind == HCL_STEP_ROOT) {
      if (s[i].kind == HCL_STEP_ATTR)
        buf_putc(b, '.');
      buf_puts(b, s[i].name ? s[i].name : "");
      continue;
    }
    Value k = *s[i].key;
    buf_putc(b, '[');
    if (k.type && val_is_known(k) && !val_is_null(k)) {
      if (k.type->kind == TY_STRING) {
        buf_go_quote_n(b, k.u.s, k.len);
      } else if (k.type->kind == TY_NUMBER) {
        int64_t iv;
        if (val_num_int(k, &iv))
          buf_printf(b, "%lld", (long long)iv);
        else
          buf_printf(b, "%.10g", val_num_double(k));
      }
    }
    buf_putc(b, ']');
  }
}

/* The "references" list of an expression: each traversal with every
** shorter prefix down to its subject, then the un-keyed resource / module
** call where Terraform adds it. */
static uint32_t expr_refs(Ctx *c, const HclExpr *e, const char ***out)
{
  HclTraversal *tr = NULL;
  uint32_t nt = 0;
  hcl_expr_references(c->a, e, &tr, &nt);
  uint32_t cap = 8, n = 0;
  const char **list = ARENA_NEW(c->a, const char *, cap);
  for (uint32_t i = 0; i < nt; i++) {
    EvalRef r;
    if (!eval_parse_ref(&tr[i], &r, &c->d))
      continue;
    Buf subj;
    buf_init(&subj, c->a);
    eval_ref_string(&subj, &r);
    const char *s = buf_str(&subj);
    uint32_t need = r.nrest + 3;
    if (n + need > cap) {
      uint32_t nc = (n + need) * 2;
      list = arena_grow(c->a, list, sizeof(const char *),
                        _Alignof(const char *), cap, nc);
      cap = nc;
    }
    for (uint32_t k = r.nrest; k > 0; k--) {
      Buf b;
      buf_init(&b, c->a);
      buf_puts(&b, s);
      steps_str(&b, r.rest, k);
      list[n++] = buf_str(&b);
    }
    list[n++] = s;
    if ((r.kind == EVAL_REF_RESOURCE || r.kind == EVAL_REF_DATA ||
         r.kind == EVAL_REF_EPHEMERAL) && r.has_key) {
      Buf b;
      buf_init(&b, c->a);
      EvalRef nk = r;
      nk.has_key = false;
      eval_ref_string(&b, &nk);
      list[n++] = buf_str(&b);
    } else if (r.kind == EVAL_REF_MODULE && r.has_key) {
      list[n++] = arena_printf(c->a, "module.%s", r.name);
    } else if (r.kind == EVAL_REF_MODULE_OUT) {
      size_t cut = strlen(s) - strlen(r.attr ? r.attr : "") - 1;
      list[n++] = arena_strndup(c->a, s, cut);
    }
  }
  *out = list;
  return n;
}

/* {"constant_value":..} or {"references":[..]} (or {}): Terraform
** evaluates the expression without any context (no variables, no
** functions) and keeps the result when it is wholly known. */
static void write_expr(Ctx *c, const HclExpr *e)
{
  JsonW *w = c->w;
  json_w_begin_object(w);
  if (e) {
    const HclExpr *x = e;
    if (x->kind == HCL_E_JSON)
      x = hcl_json_to_expr(c->a, x, false, &c->d);
    EvalCtx ec;
    eval_ctx_init(&ec, c->a, &c->d);
    ec.no_vars = true;
    ec.no_funcs = true;
    Value v;
    eval_expr(&ec, x, &v);
    if (v.type && val_is_wholly_known(v)) {
      json_w_keyz(w, "constant_value");
      jplan_w_known(c, v);
    }
    const char **refs;
    uint32_t n = expr_refs(c, x, &refs);
    if (n > 0) {
      json_w_keyz(w, "references");
      json_w_begin_array(w);
      for (uint32_t i = 0; i < n; i++)
        json_w_stringz(w, refs[i]);
      json_w_end_array(w);
    }
  }
  json_w_end_object(w);
}

/* Renders write_expr aside; false when it is {} (Go's Empty()). */
static bool expr_aside(Ctx *c, const HclExpr *e, Buf *tmp)
{
  buf_init(tmp, c->a);
  JsonW tw;
  json_w_init(&tw, tmp, JSON_W_UNKNOWN_NULL);
  JsonW *saved = c->w;
  c->w = &tw;
  write_expr(c, e);
  c->w = saved;
  return strcmp(buf_str(tmp), "{}") != 0;
}

/* count_expression, or else for_each_expression, each only when it says
** something (a constant or references). */
static void w_repetition(Ctx *c, const HclExpr *count,
                         const HclExpr *for_each)
{
  Buf tmp;
  if (count && expr_aside(c, count, &tmp)) {
    json_w_keyz(c->w, "count_expression");
    json_w_raw(c->w, tmp.p, tmp.len);
  } else if (for_each && expr_aside(c, for_each, &tmp)) {
    json_w_keyz(c->w, "for_each_expression");
    json_w_raw(c->w, tmp.p, tmp.len);
  }
}

/* One entry of an "expressions" object before sorting. */
typedef struct XEnt {
  const char *name;
  const HclAttribute *attr;     /* an argument, or */
  const HclBlock **blocks;      /* the blocks of one type */
  uint32_t nblocks;
  const ProvNestedBlock *nb;    /* its schema, or NULL */
  uint32_t order;               /* source position: first one wins */
} XEnt;

static int cmp_xent(const void *x, const void *y)
{
  const XEnt *a = x, *b = y;
  int r = strcmp(a->name, b->name);
  return r ? r : (a->order > b->order) - (a->order < b->order);
}

/* A block and its source position, for a stable sort by type. */
typedef struct BPos {
  const HclBlock *b;
  uint32_t pos;
} BPos;

static int cmp_bpos(const void *x, const void *y)
{
  const BPos *a = x, *b = y;
  int r = strcmp(a->b->type, b->b->type);
  return r ? r : (a->pos > b->pos) - (a->pos < b->pos);
}

static int cmp_block_label(const void *x, const void *y)
{
  const HclBlock *a = *(const HclBlock *const *)x;
  const HclBlock *b = *(const HclBlock *const *)y;
  return strcmp(a->nlabels ? a->labels[0] : "", b->nlabels ? b->labels[0] : "");
}

static void write_exprs(Ctx *c, const HclBody *body,
                        const ProvBlockSchema *s, const char *const *skip);

static void write_block_group(Ctx *c, const XEnt *x)
{
  JsonW *w = c->w;
  const ProvBlockSchema *bs = x->nb ? x->nb->block : NULL;
  ProvNesting nest = x->nb ? x->nb->nesting : PROV_NEST_LIST;
  if (nest == PROV_NEST_SINGLE || nest == PROV_NEST_GROUP) {
    write_exprs(c, x->blocks[0]->body, bs, NULL);
  } else if (nest == PROV_NEST_MAP) {
    const HclBlock **sorted = ARENA_NEW(c->a, const HclBlock *, x->nblocks);
    memcpy(sorted, x->blocks, sizeof(HclBlock *) * x->nblocks);
    qsort(sorted, x->nblocks, sizeof(HclBlock *), cmp_block_label);
    json_w_begin_object(w);
    for (uint32_t i = 0; i < x->nblocks; i++) {
      /* Go map: a repeated key keeps the last block. */
      if (i + 1 < x->nblocks &&
          cmp_block_label(&sorted[i], &sorted[i + 1]) == 0)
        continue;
      json_w_keyz(w, sorted[i]->nlabels ? sorted[i]->labels[0] : "");
      write_exprs(c, sorted[i]->body, bs, NULL);
    }
    json_w_end_object(w);
  } else {
    json_w_begin_array(w);
    for (uint32_t i = 0; i < x->nblocks; i++)
      write_exprs(c, x->blocks[i]->body, bs, NULL);
    json_w_end_array(w);
  }
}

/* The "expressions" object of a body: arguments as expressions, nested
** blocks by their nesting mode.  With a schema only its names count
** (dynamic blocks and unknown names are ignored, as in Terraform). */
static bool skipped(const char *name, const char *const *skip)
{
  for (; skip && *skip; skip++)
    if (strcmp(*skip, name) == 0)
      return true;
  return false;
}

/* skip: NULL-terminated names that are not arguments (meta-arguments the
** decoder leaves in the body), or NULL. */
static void write_exprs(Ctx *c, const HclBody *body,
                        const ProvBlockSchema *s, const char *const *skip)
{
  JsonW *w = c->w;
  HclAttribute **attrs = NULL;
  uint32_t nattrs = 0;
  HclBlock **blocks = NULL;
  uint32_t nblocks = 0;
  if (body && s) {
    HclAttrSchema *as = ARENA_NEW(c->a, HclAttrSchema, s->nattrs);
    for (uint32_t i = 0; i < s->nattrs; i++)
      as[i].name = s->attrs[i].name;
    HclBlockSchema *bs = ARENA_NEW(c->a, HclBlockSchema, s->nblocks);
    static const char *const key_label[] = {"key"};
    for (uint32_t i = 0; i < s->nblocks; i++) {
      bs[i].type = s->blocks[i].type_name;
      if (s->blocks[i].nesting == PROV_NEST_MAP) {
        bs[i].label_names = key_label;
        bs[i].nlabels = 1;
      }
    }
    HclBodySchema hs = {as, s->nattrs, bs, s->nblocks};
    HclBodyContent content;
    memset(&content, 0, sizeof content);
    hcl_body_partial_content(c->a, body, &hs, &content, NULL, &c->d);
    attrs = content.attrs;
    nattrs = content.nattrs;
    blocks = content.blocks;
    nblocks = content.nblocks;
  } else if (body && !body->json) {
    attrs = body->attrs;
    nattrs = body->nattrs;
    blocks = body->blocks;
    nblocks = body->nblocks;
  } else if (body) {
    hcl_body_just_attributes(c->a, body, &attrs, &nattrs, &c->d);
  }
  /* Blocks grouped by type in source order: sort (type, position) and
  ** take the runs, so many blocks cost n log n, not n^2. */
  BPos *bp = ARENA_NEW(c->a, BPos, nblocks + 1);
  uint32_t nb = 0;
  for (uint32_t i = 0; i < nblocks; i++)
    if (blocks[i] && !skipped(blocks[i]->type, skip) &&
        (!s || prov_block_nested(s, blocks[i]->type)))
      bp[nb++] = (BPos){blocks[i], i};
  qsort(bp, nb, sizeof(BPos), cmp_bpos);
  const HclBlock **sorted = ARENA_NEW(c->a, const HclBlock *, nb + 1);
  for (uint32_t i = 0; i < nb; i++)
    sorted[i] = bp[i].b;
  XEnt *ents = ARENA_NEW(c->a, XEnt, nattrs + nb + 1);
  uint32_t n = 0;
  for (uint32_t i = 0; i < nattrs; i++)
    if (attrs[i] && !skipped(attrs[i]->name, skip))
      ents[n++] = (XEnt){attrs[i]->name, attrs[i], NULL, 0, NULL, i};
  for (uint32_t i = 0; i < nb;) {
    uint32_t k = i + 1;
    while (k < nb && strcmp(sorted[k]->type, sorted[i]->type) == 0)
      k++;
    ents[n++] = (XEnt){sorted[i]->type, NULL, &sorted[i], k - i,
                       s ? prov_block_nested(s, sorted[i]->type) : NULL,
                       nattrs + i};
    i = k;
  }
  qsort(ents, n, sizeof(XEnt), cmp_xent);
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    if (i > 0 && strcmp(ents[i].name, ents[i - 1].name) == 0)
      continue;
    json_w_keyz(w, ents[i].name);
    if (ents[i].attr)
      write_expr(c, ents[i].attr->expr);
    else
      write_block_group(c, &ents[i]);
  }
  json_w_end_object(w);
}

/* True when the body would give a non-empty "expressions" object. */
static bool body_has_items(const HclBody *b)
{
  if (!b)
    return false;
  if (b->json)
    return b->jv != NULL;
  return b->nattrs > 0 || b->nblocks > 0;
}

static void w_depends_on(Ctx *c, const CfgTraversals *t)
{
  if (t->n == 0)
    return;
  JsonW *w = c->w;
  json_w_keyz(w, "depends_on");
  json_w_begin_array(w);
  for (uint32_t i = 0; i < t->n; i++) {
    EvalRef r;
    Buf b;
    buf_init(&b, c->a);
    if (eval_parse_ref(&t->items[i], &r, &c->d))
      eval_ref_string(&b, &r);
    json_w_stringz(w, buf_str(&b));
  }
  json_w_end_array(w);
}

/* "expressions": write_exprs rendered aside and kept only when it is not
** {} (Go omits an empty map). */
static void exprs_nonempty(Ctx *c, const HclBody *body,
                           const ProvBlockSchema *s, const char *const *skip)
{
  Buf tmp;
  buf_init(&tmp, c->a);
  JsonW tw;
  json_w_init(&tw, &tmp, JSON_W_UNKNOWN_NULL);
  JsonW *saved = c->w;
  c->w = &tw;
  write_exprs(c, body, s, skip);
  c->w = saved;
  if (strcmp(buf_str(&tmp), "{}") != 0) {
    json_w_keyz(c->w, "expressions");
    json_w_raw(c->w, tmp.p, tmp.len);
  }
}

/* ---- The configuration's provider map ---------------------------------- */

/* One provider_config entry as Terraform's jsonconfig builds it: keyed by
** "NAME[.ALIAS]" prefixed with "MODULE:" below the root.  An entry with a
** parent key stands for a configuration its module inherits or is passed;
** such entries are dropped from the output and resources that use them
** point at the parent's key instead. */
typedef struct PCfg {
  const char *key;
  const char *name;
  const char *full_name;
  const char *alias;
  const char *version;
  const char *module_address;   /* "" at the root */
  const HclBody *body;          /* provider block, or NULL */
  const char *parent_key;       /* "" when none */
} PCfg;

typedef struct PCfgs {
  PCfg *v;
  uint32_t n, cap;
} PCfgs;

static const char *fqn_of(Ctx *c, const CfgModule *m, const char *local)
{
  const char *src = cfg_provider_source(m, local);
  Diags scratch;
  diag_init(&scratch, c->a);
  const char *f = prov_source_normalize(c->a, src ? src : local, NULL,
                                        &scratch);
  return f ? f : (src ? src : local);
}

/* The type of a fully-qualified source: its last segment. */
static const char *fqn_type(const char *fqn)
{
  const char *s = strrchr(fqn, '/');
  return s ? s + 1 : fqn;
}

static const char *opaque_key(Ctx *c, const char *provider, const char *mod)
{
  return mod[0] ? arena_printf(c->a, "%s:%s", mod, provider) : provider;
}

static const char *ref_str(Ctx *c, const CfgProviderRef *r)
{
  return r->alias ? arena_printf(c->a, "%s.%s", r->name, r->alias) : r->name;
}

static PCfg *pcs_find(PCfgs *p, const char *key)
{
  for (uint32_t i = 0; i < p->n; i++)
    if (strcmp(p->v[i].key, key) == 0)
      return &p->v[i];
  return NULL;
}

/* Go's m[key] = e: replaces an existing entry. */
static void pcs_set(Ctx *c, PCfgs *p, const PCfg *e)
{
  PCfg *old = pcs_find(p, e->key);
  if (old) {
    *old = *e;
    return;
  }
  if (p->n == p->cap) {
    uint32_t nc = p->cap ? p->cap * 2 : 8;
    p->v = arena_grow(c->a, p->v, sizeof(PCfg), _Alignof(PCfg), p->cap, nc);
    p->cap = nc;
  }
  p->v[p->n++] = *e;
}

/* findSourceProviderKey: follow parent keys up while the full name
** matches; the last key reached is the configuration actually used. */
static const char *find_source_key(PCfgs *p, const char *start,
                                   const char *full_name)
{
  const char *found = "";
  const char *key = start;
  for (uint32_t guard = 0; key[0] && guard <= p->n; guard++) {
    PCfg *e = pcs_find(p, key);
    if (!e || strcmp(e->full_name, full_name) != 0)
      break;
    found = key;
    key = e->parent_key;
  }
  return found;
}

/* ProviderRequirementsShallow's constraints for one provider of module m,
** joined as Terraform prints them: every required_providers entry and
** every provider block (with its `version` argument) naming the same
** fully-qualified provider, in that order.  NULL when there are none. */
static const char *module_version(Ctx *c, const CfgModule *m,
                                  const char *fqn)
{
  Buf b;
  buf_init(&b, c->a);
  for (uint32_t i = 0; i < m->nrequired_providers; i++) {
    const CfgRequiredProvider *rp = &m->required_providers[i];
    if (!rp->version || !rp->version[0] ||
        strcmp(fqn_of(c, m, rp->local_name), fqn) != 0)
      continue;
    buf_printf(&b, "%s%s", b.len ? ", " : "", rp->version);
  }
  for (uint32_t i = 0; i < m->nproviders; i++) {
    const CfgProvider *pr = &m->providers[i];
    const char *v = pr->version;
    if (!v || !v[0] || strcmp(fqn_of(c, m, pr->name), fqn) != 0)
      continue;
    buf_printf(&b, "%s%s", b.len ? ", " : "", v);
  }
  return b.len ? buf_str(&b) : NULL;
}

/* The providers a module needs by itself (ProviderRequirementsShallow):
** required_providers, resources and provider blocks, deduplicated. */
static uint32_t module_reqs(Ctx *c, const CfgModule *m, const char ***out)
{
  uint32_t cap = m->nrequired_providers + m->nresources + m->nproviders;
  const char **v = ARENA_NEW(c->a, const char *, cap + 1);
  uint32_t n = 0;
  for (uint32_t i = 0; i < cap; i++) {
    const char *local;
    if (i < m->nrequired_providers)
      local = m->required_providers[i].local_name;
    else if (i < m->nrequired_providers + m->nresources)
      local = cfg_resource_provider_name(
          &m->resources[i - m->nrequired_providers]);
    else
      local = m->providers[i - m->nrequired_providers - m->nresources].name;
    const char *f = fqn_of(c, m, local);
    bool dup = false;
    for (uint32_t k = 0; k < n && !dup; k++)
      dup = strcmp(v[k], f) == 0;
    if (!dup)
      v[n++] = f;
  }
  *out = v;
  return n;
}

typedef struct NameIx {
  const char *name;
  uint32_t i;
} NameIx;

static int cmp_name_ix(const void *x, const void *y)
{
  return strcmp(((const NameIx *)x)->name, ((const NameIx *)y)->name);
}

/* Indexes of m's calls in name order (Go ranges over a map; only the
** output order depends on it, and that is sorted by name). */
static uint32_t *calls_sorted(Ctx *c, const CfgModule *m)
{
  NameIx *ni = ARENA_NEW(c->a, NameIx, m->ncalls + 1);
  for (uint32_t i = 0; i < m->ncalls; i++)
    ni[i] = (NameIx){m->calls[i].name, i};
  qsort(ni, m->ncalls, sizeof(NameIx), cmp_name_ix);
  uint32_t *ix = ARENA_NEW(c->a, uint32_t, m->ncalls + 1);
  for (uint32_t i = 0; i < m->ncalls; i++)
    ix[i] = ni[i].i;
  return ix;
}

/* marshalProviderConfigs: t and, recursively, every module it calls. */
static void collect_pcs(Ctx *c, const CfgTree *t, PCfgs *p, uint32_t depth)
{
  const CfgModule *m = t->m;
  if (!m || depth > 256)
    return;
  const char *path = t->path ? t->path : "";
  const char *ppath = t->parent && t->parent->path ? t->parent->path : "";
  for (uint32_t i = 0; i < m->nproviders; i++) {
    const CfgProvider *pr = &m->providers[i];
    PCfg e = {opaque_key(c, pr->alias ? arena_printf(c->a, "%s.%s", pr->name,
                                                     pr->alias)
                                      : pr->name,
                         path),
              pr->name, fqn_of(c, m, pr->name), pr->alias, NULL, path,
              pr->body, ""};
    e.version = module_version(c, m, e.full_name);
    pcs_set(c, p, &e);
  }
  for (uint32_t i = 0; i < m->nrequired_providers; i++) {
    const CfgRequiredProvider *rp = &m->required_providers[i];
    const char *key = opaque_key(c, rp->local_name, path);
    if (pcs_find(p, key))
      continue;
    PCfg e = {key, rp->local_name, fqn_of(c, m, rp->local_name), NULL,
              NULL, path, NULL, ""};
    e.version = module_version(c, m, e.full_name);
    if (t->parent)
      e.parent_key = find_source_key(
          p, opaque_key(c, rp->local_name, ppath), e.full_name);
    pcs_set(c, p, &e);
  }
  {
    /* Default configurations implied by the module's requirements alone
    ** (a resource with no provider block nor required_providers entry):
    ** Terraform lists them at the root too, with name and full_name; in
    ** a child module they may be inherited from the parent. */
    const char **reqs;
    uint32_t nreqs = module_reqs(c, m, &reqs);
    for (uint32_t i = 0; i < nreqs; i++) {
      const char *type = fqn_type(reqs[i]);
      const char *key = opaque_key(c, type, path);
      if (pcs_find(p, key))
        continue;
      PCfg e = {key, type, reqs[i], NULL, NULL, path, NULL, ""};
      if (t->parent)
        e.parent_key =
            find_source_key(p, opaque_key(c, type, ppath), reqs[i]);
      pcs_set(c, p, &e);
    }
  }
  uint32_t *ix = calls_sorted(c, m);
  for (uint32_t k = 0; k < m->ncalls; k++) {
    uint32_t i = ix[k];
    const CfgTree *ch = t->children ? t->children[i] : NULL;
    if (!ch || !ch->m)
      continue;
    const CfgModuleCall *mc = &m->calls[i];
    for (uint32_t j = 0; j < mc->nproviders; j++) {
      const char *in_child = ref_str(c, &mc->providers[j].in_child);
      const char *in_parent = ref_str(c, &mc->providers[j].in_parent);
      PCfg e = {opaque_key(c, in_child, ch->path), in_child,
                fqn_of(c, ch->m, mc->providers[j].in_child.name), NULL, NULL,
                ch->path, NULL, ""};
      e.parent_key = find_source_key(p, opaque_key(c, in_parent, path),
                                     e.full_name);
      pcs_set(c, p, &e);
    }
    collect_pcs(c, ch, p, depth + 1);
  }
}

static int cmp_pcfg(const void *x, const void *y)
{
  return strcmp(((const PCfg *)x)->key, ((const PCfg *)y)->key);
}

static void write_provider_configs(Ctx *c, PCfgs *p)
{
  JsonW *w = c->w;
  PCfg *v = ARENA_NEW(c->a, PCfg, p->n + 1);
  uint32_t n = 0;
  for (uint32_t i = 0; i < p->n; i++)
    if (!p->v[i].parent_key[0])
      v[n++] = p->v[i];
  if (n == 0)
    return;
  qsort(v, n, sizeof(PCfg), cmp_pcfg);
  json_w_keyz(w, "provider_config");
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    json_w_keyz(w, v[i].key);
    json_w_begin_object(w);
    jplan_w_str_field(w, "name", v[i].name);
    jplan_w_str_field(w, "full_name", v[i].full_name);
    if (v[i].alias && v[i].alias[0])
      jplan_w_str_field(w, "alias", v[i].alias);
    if (v[i].version && v[i].version[0])
      jplan_w_str_field(w, "version_constraint", v[i].version);
    if (v[i].module_address[0])
      jplan_w_str_field(w, "module_address", v[i].module_address);
    if (body_has_items(v[i].body)) {
      static const char *const meta[] = {"alias", "version", NULL};
      exprs_nonempty(c, v[i].body, NULL, meta);
    }
    json_w_end_object(w);
  }
  json_w_end_object(w);
}

/* ---- The configuration's modules --------------------------------------- */

int jplan_cmp_cfgres(const void *x, const void *y)
{
  return strcmp(((const char *const *)x)[0], ((const char *const *)y)[0]);
}

/* Schema versions of the planned changes, by resource: (static module
** path, mode, type, name). */
typedef struct SVer {
  const char *path;
  const char *type;
  const char *name;
  int mode;
  uint64_t version;
} SVer;

static int cmp_sver(const void *x, const void *y)
{
  const SVer *a = x, *b = y;
  int r = strcmp(a->path, b->path);
  if (!r)
    r = strcmp(a->type, b->type);
  if (!r)
    r = strcmp(a->name, b->name);
  if (!r && a->mode != b->mode)
    r = a->mode < b->mode ? -1 : 1;
  return r;
}

typedef struct CfgCtx {
  PCfgs pcs;
  SVer *sv;
  uint32_t nsv;
} CfgCtx;


static void sver_build(Ctx *c, CfgCtx *cc, const Plan *p)
{
  cc->sv = ARENA_NEW(c->a, SVer, (p ? p->nchanges : 0) + 1);
  cc->nsv = 0;
  for (uint32_t i = 0; p && i < p->nchanges; i++) {
    const PlChange *ch = &p->changes[i];
    if (!ch->type || !ch->name)
      continue;
    cc->sv[cc->nsv++] = (SVer){st_static_path(c->a, ch->module ? ch->module : ""),
                               ch->type, ch->name, (int)ch->mode,
                               ch->schema_version};
  }
  qsort(cc->sv, cc->nsv, sizeof(SVer), cmp_sver);
}

/* schema_version of a configured resource: from a planned change of it
** (the plan knows the provider's schema version), else 0. */
static uint64_t cfg_schema_version(const CfgCtx *cc, const char *path,
                                   StMode mode, const CfgResource *r)
{
  SVer key = {path, r->type, r->name, (int)mode, 0};
  const SVer *f = bsearch(&key, cc->sv, cc->nsv, sizeof(SVer), cmp_sver);
  return f ? f->version : 0;
}

static void write_cfg_resource(Ctx *c, CfgCtx *cc, const CfgModule *m,
                               const char *path, const CfgResource *r,
                               const char *addr)
{
  JsonW *w = c->w;
  StMode mode = r->mode == CFG_DATA ? ST_DATA : ST_MANAGED;
  const char *local = cfg_resource_provider_name(r);
  json_w_begin_object(w);
  jplan_w_str_field(w, "address", addr);
  jplan_w_str_field(w, "mode", jplan_mode_name(mode));
  jplan_w_str_field(w, "type", r->type);
  jplan_w_str_field(w, "name", r->name);
  const char *key = opaque_key(
      c, r->provider.alias ? arena_printf(c->a, "%s.%s", local,
                                          r->provider.alias)
                           : local,
      path);
  /* normalizeModuleProviderKeys */
  const PCfg *pc = pcs_find(&cc->pcs, key);
  if (pc && pc->parent_key[0] && pcs_find(&cc->pcs, pc->parent_key))
    key = pc->parent_key;
  jplan_w_str_field(w, "provider_config_key", key);
  if (r->nprovisioners > 0) {
    json_w_keyz(w, "provisioners");
    json_w_begin_array(w);
    for (uint32_t i = 0; i < r->nprovisioners; i++) {
      json_w_begin_object(w);
      jplan_w_str_field(w, "type", r->provisioners[i].type);
      if (body_has_items(r->provisioners[i].body)) {
        json_w_keyz(w, "expressions");
        write_exprs(c, r->provisioners[i].body, NULL, NULL);
      }
      json_w_end_object(w);
    }
    json_w_end_array(w);
  }
  const char *fqn = fqn_of(c, m, local);
  const ProvBlockSchema *s = jplan_schema_for(c, mode, fqn, r->type);
  if (body_has_items(r->body)) {
    static const char *const meta[] = {"count", "for_each", "provider",
                                       "depends_on", "lifecycle",
                                       "provisioner", "connection", NULL};
    exprs_nonempty(c, r->body, s, meta);
  }
  json_w_keyz(w, "schema_version");
  json_w_uint(w, cfg_schema_version(cc, path, mode, r));
  w_repetition(c, r->count, r->for_each);
  w_depends_on(c, &r->depends_on);
  json_w_end_object(w);
}

static int cmp_name(const void *x, const void *y)
{
  return strcmp(**(const char *const *const *)x,
                **(const char *const *const *)y);
}

static void write_cfg_module(Ctx *c, CfgCtx *cc, const CfgTree *t,
                             uint32_t depth);

/* One module_calls entry (marshalModuleCall). */
static void write_module_call(Ctx *c, CfgCtx *cc, const CfgModuleCall *mc,
                              const CfgTree *ch, uint32_t depth)
{
  JsonW *w = c->w;
  json_w_begin_object(w);
  if (!ch || !ch->m) {
    /* Terraform writes an empty call for a module it could not load. */
    json_w_keyz(w, "module");
    json_w_begin_object(w);
    json_w_end_object(w);
    json_w_end_object(w);
    return;
  }
  if (mc->source && mc->source[0])
    jplan_w_str_field(w, "source", mc->source);
  if (body_has_items(mc->body)) {
    /* Only the child's declared variables count, as with a schema. */
    const CfgModule *cm = ch->m;
    ProvAttrSchema *as = ARENA_NEW(c->a, ProvAttrSchema, cm->nvariables + 1);
    for (uint32_t i = 0; i < cm->nvariables; i++)
      as[i].name = cm->variables[i].name;
    ProvBlockSchema s = {as, cm->nvariables, NULL, 0, NULL, false, NULL};
    exprs_nonempty(c, mc->body, &s, NULL);
  }
  w_repetition(c, mc->count, mc->for_each);
  json_w_keyz(w, "module");
  write_cfg_module(c, cc, ch, depth + 1);
  if (mc->version && mc->version[0])
    jplan_w_str_field(w, "version_constraint", mc->version);
  w_depends_on(c, &mc->depends_on);
  json_w_end_object(w);
}

static void write_cfg_module(Ctx *c, CfgCtx *cc, const CfgTree *t,
                             uint32_t depth)
{
  JsonW *w = c->w;
  const CfgModule *m = t->m;
  const char *path = t->path ? t->path : "";
  json_w_begin_object(w);
  if (!m || depth > 256) {
    json_w_end_object(w);
    return;
  }
  if (m->noutputs > 0) {
    const CfgOutput **o = ARENA_NEW(c->a, const CfgOutput *, m->noutputs);
    for (uint32_t i = 0; i < m->noutputs; i++)
      o[i] = &m->outputs[i];
    qsort(o, m->noutputs, sizeof *o, cmp_name);
    json_w_keyz(w, "outputs");
    json_w_begin_object(w);
    for (uint32_t i = 0; i < m->noutputs; i++) {
      json_w_keyz(w, o[i]->name);
      json_w_begin_object(w);
      if (o[i]->sensitive) {
        json_w_keyz(w, "sensitive");
        json_w_bool(w, true);
      }
      json_w_keyz(w, "expression");
      write_expr(c, o[i]->expr);
      w_depends_on(c, &o[i]->depends_on);
      if (o[i]->description && o[i]->description[0])
        jplan_w_str_field(w, "description", o[i]->description);
      json_w_end_object(w);
    }
    json_w_end_object(w);
  }
  if (m->nresources > 0) {
    /* (address, resource) pairs sorted by address. */
    typedef struct { const char *addr; const CfgResource *r; } RA;
    RA *ra = ARENA_NEW(c->a, RA, m->nresources);
    uint32_t nra = 0;
    for (uint32_t i = 0; i < m->nresources; i++) {
      const CfgResource *r = &m->resources[i];
      if (r->mode == CFG_EPHEMERAL)
        continue;   /* not part of the JSON configuration (docs/ephemeral.md) */
      ra[nra].addr = arena_printf(c->a, "%s%s.%s",
                                  r->mode == CFG_DATA ? "data." : "", r->type,
                                  r->name);
      ra[nra++].r = r;
    }
    qsort(ra, nra, sizeof(RA), jplan_cmp_cfgres);
    if (nra) {
      json_w_keyz(w, "resources");
      json_w_begin_array(w);
      for (uint32_t i = 0; i < nra; i++)
        write_cfg_resource(c, cc, m, path, ra[i].r, ra[i].addr);
      json_w_end_array(w);
    }
  }
  if (m->ncalls > 0) {
    uint32_t *ix = calls_sorted(c, m);
    json_w_keyz(w, "module_calls");
    json_w_begin_object(w);
    for (uint32_t k = 0; k < m->ncalls; k++) {
      uint32_t i = ix[k];
      json_w_keyz(w, m->calls[i].name);
      write_module_call(c, cc, &m->calls[i],
                        t->children ? t->children[i] : NULL, depth);
    }
    json_w_end_object(w);
  }
  if (m->nvariables > 0) {
    const CfgVariable **v = ARENA_NEW(c->a, const CfgVariable *,
                                      m->nvariables);
    for (uint32_t i = 0; i < m->nvariables; i++)
      v[i] = &m->variables[i];
    qsort(v, m->nvariables, sizeof *v, cmp_name);
    json_w_keyz(w, "variables");
    json_w_begin_object(w);
    for (uint32_t i = 0; i < m->nvariables; i++) {
      json_w_keyz(w, v[i]->name);
      json_w_begin_object(w);
      if (v[i]->has_default) {
        json_w_keyz(w, "default");
        jplan_w_known(c, v[i]->default_val);
      }
      if (v[i]->description && v[i]->description[0])
        jplan_w_str_field(w, "description", v[i]->description);
      if (v[i]->sensitive) {
        json_w_keyz(w, "sensitive");
        json_w_bool(w, true);
      }
      json_w_end_object(w);
    }
    json_w_end_object(w);
  }
  json_w_end_object(w);
}

void jplan_write_configuration(Ctx *c, const CfgTree *t, const Plan *p)
{
  JsonW *w = c->w;
  json_w_keyz(w, "configuration");
  json_w_begin_object(w);
  if (t && t->m) {
    CfgCtx cc;
    memset(&cc, 0, sizeof cc);
    collect_pcs(c, t, &cc.pcs, 0);
    sver_build(c, &cc, p);
    write_provider_configs(c, &cc.pcs);
    json_w_keyz(w, "root_module");
    write_cfg_module(c, &cc, t, 0);
  } else {
    json_w_keyz(w, "root_module");
    json_w_begin_object(w);
    json_w_end_object(w);
  }
  json_w_end_object(w);
}
