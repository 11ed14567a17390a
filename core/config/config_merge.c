/*
** config_merge.c: override files (override.tf, *_override.tf and their
** .tf.json forms) merged into the module decoded from the primary files,
** as Terraform's Module.mergeFile (module.go) and the merge methods of
** module_merge.go and module_merge_body.go do.  docs/override-files.md
** has the rules and the one gap (bodies in JSON syntax on both sides).
**
** Each override file is decoded on its own (config.c gives it a loader
** whose module is empty, with every required argument optional) and then
** folded into the primary module here: what the override sets replaces
** the base, what it leaves out stays; an override of something the
** primary files do not declare is an error.  Merged bodies are new
** native bodies in the loader's arena; nothing the primary module shares
** is written through a const pointer.
*/
#include "config_priv.h"

#include <string.h>

#include "base/convert.h"

bool cfg_is_override_name(const char *base)
{
  size_t n = strlen(base), k = strlen("_override");
  return strcmp(base, "override") == 0 ||
         (n >= k && strcmp(base + n - k, "_override") == 0);
}

/* ---- bodies (module_merge_body.go) ------------------------------------- */

static bool listed(const char *const *names, uint32_t n, const char *name)
{
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0)
      return true;
  return false;
}

/* True when the remaining body b has nothing left to give: every
** attribute and block was taken by the meta-argument schema. */
static bool json_obj_empty(const HclBody *b, const HclJsonValue *v)
{
  if (!v)
    return true;
  if (v->kind == HCL_J_ARRAY) {
    for (uint32_t i = 0; i < v->u.arr.n; i++)
      if (!json_obj_empty(b, v->u.arr.items[i]))
        return false;
    return true;
  }
  if (v->kind != HCL_J_OBJECT)
    return false;
  for (uint32_t i = 0; i < v->u.obj.n; i++) {
    const char *nm = v->u.obj.props[i].name;
    if (strcmp(nm, "//") != 0 &&
        !listed(b->hidden_attrs, b->nhidden_attrs, nm) &&
        !listed(b->hidden_blocks, b->nhidden_blocks, nm))
      return false;
  }
  return true;
}

static bool item_visible(const HclBody *b, const HclBodyItem *it)
{
  if (it->attr)
    return !listed(b->hidden_attrs, b->nhidden_attrs, it->attr->name);
  return !listed(b->hidden_blocks, b->nhidden_blocks, it->block->type);
}

static bool body_empty(const HclBody *b)
{
  if (!b)
    return true;
  if (b->json)
    return json_obj_empty(b, b->jv);
  for (uint32_t i = 0; i < b->nitems; i++)
    if (item_visible(b, &b->items[i]))
      return false;
  return true;
}

/* The block type a block stands for: its own, or a dynamic block's
** label. */
static const char *block_kind(const HclBlock *blk)
{
  if (strcmp(blk->type, "dynamic") == 0 && blk->nlabels >= 1)
    return blk->labels[0];
  return blk->type;
}

/* MergeBodies: attributes of ov replace those of base with the same name;
** blocks of a type that ov has (directly or as `dynamic`) replace every
** block of that type in base (dynamic ones included).  Both bodies are
** the remains of the same meta-argument schema, so their hidden names
** agree: the merged body keeps base's hidden names and items and adds
** only ov's visible ones.  Returns NULL after an error when both bodies
** have content and one of them is JSON syntax (whose attributes and
** blocks only a provider schema can tell apart). */
static const HclBody *merge_bodies(Loader *L, const HclBody *base,
                                   const HclBody *ov, const SrcRange *where)
{
  if (body_empty(ov))
    return base;
  if (body_empty(base))
    return ov;
  if (base->json || ov->json) {
    diag_error(L->d, where, "Unsupported override",
               "cairn cannot merge this override: the overridden block and "
               "its override both set arguments, and one of them is written "
               "in JSON syntax, whose attributes and nested blocks cairn "
               "tells apart only with the provider's schema. Write both in "
               "the native syntax, or move the arguments into one of "
               "them.");
    return NULL;
  }
  Arena *a = L->a;
  uint32_t cap = base->nitems + ov->nitems + 1;
  HclBodyItem *items = ARENA_NEW(a, HclBodyItem, cap);
  HclAttribute **attrs = ARENA_NEW(a, HclAttribute *, cap);
  HclBlock **blocks = ARENA_NEW(a, HclBlock *, cap);
  uint32_t ni = 0, na = 0, nb = 0;
  for (uint32_t i = 0; i < base->nitems; i++) {
    const HclBodyItem *it = &base->items[i];
    bool replaced = false;
    for (uint32_t j = 0; j < ov->nitems && !replaced; j++) {
      const HclBodyItem *o = &ov->items[j];
      if (!item_visible(ov, o))
        continue;
      if (it->attr && o->attr)
        replaced = strcmp(it->attr->name, o->attr->name) == 0;
      else if (it->block && o->block)
        replaced = strcmp(block_kind(it->block), block_kind(o->block)) == 0;
    }
    if (replaced)
      continue;
    items[ni++] = *it;
    if (it->attr)
      attrs[na++] = it->attr;
    else
      blocks[nb++] = it->block;
  }
  for (uint32_t j = 0; j < ov->nitems; j++) {
    const HclBodyItem *o = &ov->items[j];
    if (!item_visible(ov, o))
      continue;
    items[ni++] = *o;
    if (o->attr)
      attrs[na++] = o->attr;
    else
      blocks[nb++] = o->block;
  }
  HclBody *m = ARENA_NEW(a, HclBody, 1);
  *m = *base;
  m->items = items;
  m->nitems = ni;
  m->attrs = attrs;
  m->nattrs = na;
  m->blocks = blocks;
  m->nblocks = nb;
  return m;
}

/* ---- per-block rules (module_merge.go) --------------------------------- */

static void unsupported_depends_on(Loader *L, const CfgTraversals *t)
{
  SrcRange r = hcl_trav_range(&t->items[0]);
  diag_error(L->d, r.file ? &r : NULL, "Unsupported override",
             "The depends_on argument may not be overridden.");
}

static void merge_provider(Loader *L, CfgProvider *p, const CfgProvider *op)
{
  if (op->version)
    p->version = op->version;
  const HclBody *b = merge_bodies(L, p->body, op->body, &op->range);
  if (b)
    p->body = b;
}

static void merge_variable(Loader *L, CfgVariable *v, const CfgVariable *ov)
{
  if (ov->description)
    v->description = ov->description;
  if (ov->sensitive_set) {
    v->sensitive = ov->sensitive;
    v->sensitive_set = true;
  }
  if (ov->has_default) {
    v->has_default = true;
    v->default_expr = ov->default_expr;
    v->default_val = ov->default_val;
  }
  if (ov->type_given) {
    v->type = ov->type;
    v->type_given = true;
  }
  if (ov->nullable_set) {
    v->nullable = ov->nullable;
    v->nullable_set = true;
  }
  if (ov->ephemeral)
    v->ephemeral = true;
  /* An overridden type or default may no longer fit the other: convert
  ** again, with Terraform's three wordings. */
  if (v->has_default && (ov->type_given || ov->has_default)) {
    if (v->type_given && !val_is_null(v->default_val)) {
      ConvError ce;
      Value conv;
      if (conv_convert(L->a, v->default_val, v->type, true, &conv, &ce)) {
        v->default_val = conv;
      } else {
        Buf eb;
        buf_init(&eb, L->a);
        conv_error_format(&eb, &ce);
        const char *why =
            ov->type_given && !ov->has_default
                ? "Overriding this variable's type constraint has made its "
                  "default value invalid"
            : !ov->type_given && ov->has_default
                ? "The overridden default value for this variable is not "
                  "compatible with the variable's type constraint"
                : "This variable's default value is not compatible with its "
                  "type constraint";
        diag_error(L->d, &ov->range, "Invalid default value for variable",
                   "%s: %s.", why, buf_str(&eb));
      }
    }
    if (!v->nullable && val_is_null(v->default_val))
      diag_error(L->d, &ov->range, "Invalid default value for variable",
                 "A null default value is not valid when nullable=false.");
  }
}

static void merge_output(Loader *L, CfgOutput *o, const CfgOutput *oo)
{
  if (oo->description && *oo->description)
    o->description = oo->description;
  if (oo->expr)
    o->expr = oo->expr;
  if (oo->sensitive_set) {
    o->sensitive = oo->sensitive;
    o->sensitive_set = true;
  }
  if (oo->ephemeral)
    o->ephemeral = true;
  if (oo->depends_on.n)
    unsupported_depends_on(L, &oo->depends_on);
}

static void merge_call(Loader *L, CfgModuleCall *mc, const CfgModuleCall *om)
{
  if (om->source) {
    mc->source = om->source;
    mc->source_range = om->source_range;
  }
  if (om->count)
    mc->count = om->count;
  if (om->for_each)
    mc->for_each = om->for_each;
  if (om->version)
    mc->version = om->version;
  const HclBody *b = merge_bodies(L, mc->body, om->body, &om->range);
  if (b)
    mc->body = b;
  if (om->nproviders) {
    mc->providers = om->providers;
    mc->nproviders = om->nproviders;
  }
  /* Terraform tests the base's depends_on here (module_merge.go), which
  ** refuses overriding any call that has one; cairn refuses the
  ** override's, as for resources and outputs (docs/override-files.md). */
  if (om->depends_on.n)
    unsupported_depends_on(L, &om->depends_on);
}

static void merge_resource(Loader *L, CfgResource *r, const CfgResource *o)
{
  if (o->count)
    r->count = o->count;
  if (o->for_each)
    r->for_each = o->for_each;
  if (o->enabled)
    r->enabled = o->enabled;
  if (o->provider.name)
    r->provider = o->provider;
  if (r->mode == CFG_MANAGED) {
    if (o->connection)
      r->connection = o->connection;
    if (o->create_before_destroy_set) {
      r->create_before_destroy = o->create_before_destroy;
      r->create_before_destroy_set = true;
    }
    if (o->ignore_changes.n)
      r->ignore_changes = o->ignore_changes;
    if (o->ignore_all_changes)
      r->ignore_all_changes = true;
    if (o->prevent_destroy_set) {
      r->prevent_destroy = o->prevent_destroy;
      r->prevent_destroy_set = true;
    }
    if (o->nprovisioners) {
      r->provisioners = o->provisioners;
      r->nprovisioners = o->nprovisioners;
    }
  }
  const HclBody *b = merge_bodies(L, r->body, o->body, &o->range);
  if (b)
    r->body = b;
  if (o->depends_on.n)
    unsupported_depends_on(L, &o->depends_on);
}

/* ---- Module.mergeFile --------------------------------------------------- */

static bool same_alias(const char *x, const char *y)
{
  return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

static void merge_providers(Loader *L, const CfgModule *ov)
{
  CfgModule *m = L->m;
  for (uint32_t i = 0; i < ov->nproviders; i++) {
    const CfgProvider *op = &ov->providers[i];
    CfgProvider *base = NULL;
    for (uint32_t k = 0; k < m->nproviders && !base; k++)
      if (strcmp(m->providers[k].name, op->name) == 0 &&
          same_alias(m->providers[k].alias, op->alias))
        base = &m->providers[k];
    if (base) {
      merge_provider(L, base, op);
    } else if (!op->alias) {
      /* An absent default configuration is an empty one: overriding it
      ** adds it. */
      *CFG_PUSH(L, m->providers, m->nproviders, L->cap_prov) = *op;
    } else {
      diag_error(L->d, &op->range,
                 "Missing base provider configuration for override",
                 "There is no %s provider configuration with the alias "
                 "\"%s\". An override file can only override an aliased "
                 "provider configuration that was already defined in a "
                 "primary configuration file.", op->name, op->alias);
    }
  }
}

static void merge_required_providers(Loader *L, const CfgModule *ov)
{
  CfgModule *m = L->m;
  /* Each provider an override names replaces that provider's whole
  ** requirement (Terraform's NewModule). */
  for (uint32_t i = 0; i < ov->nrequired_providers; i++) {
    const CfgRequiredProvider *rp = &ov->required_providers[i];
    CfgRequiredProvider *base = NULL;
    for (uint32_t k = 0; k < m->nrequired_providers && !base; k++)
      if (strcmp(m->required_providers[k].local_name, rp->local_name) == 0)
        base = &m->required_providers[k];
    if (base)
      *base = *rp;
    else
      *CFG_PUSH(L, m->required_providers, m->nrequired_providers,
                L->cap_req) = *rp;
  }
}

void cfg_merge_override(Loader *L, Loader *ovl)
{
  CfgModule *m = L->m;
  const CfgModule *ov = ovl->m;
  if (ovl->nrv) {
    /* Each override file's required_version list replaces the list. */
    L->rv = ovl->rv;
    L->nrv = ovl->nrv;
    L->cap_rv = ovl->cap_rv;
  }
  if (ov->backend)
    m->backend = ov->backend;
  merge_required_providers(L, ov);
  merge_providers(L, ov);
  for (uint32_t i = 0; i < ov->nvariables; i++) {
    const CfgVariable *v = &ov->variables[i];
    const CfgVariable *old = cfg_variable(m, v->name);
    if (!old) {
      diag_error(L->d, &v->range,
                 "Missing base variable declaration to override",
                 "There is no variable named \"%s\". An override file can "
                 "only override a variable that was already declared in a "
                 "primary configuration file.", v->name);
      continue;
    }
    merge_variable(L, &m->variables[old - m->variables], v);
  }
  for (uint32_t i = 0; i < ov->nlocals; i++) {
    const CfgLocal *l = &ov->locals[i];
    const CfgLocal *old = cfg_local(m, l->name);
    if (!old) {
      diag_error(L->d, &l->range,
                 "Missing base local value definition to override",
                 "There is no local value named \"%s\". An override file "
                 "can only override a local value that was already defined "
                 "in a primary configuration file.", l->name);
      continue;
    }
    /* A local is one expression: the override replaces it, range and
    ** all, so errors point at the override. */
    CfgLocal *bl = &m->locals[old - m->locals];
    bl->expr = l->expr;
    bl->range = l->range;
  }
  for (uint32_t i = 0; i < ov->noutputs; i++) {
    const CfgOutput *o = &ov->outputs[i];
    const CfgOutput *old = cfg_output(m, o->name);
    if (!old) {
      diag_error(L->d, &o->range, "Missing base output definition to "
                 "override", "There is no output named \"%s\". An override "
                 "file can only override an output that was already defined "
                 "in a primary configuration file.", o->name);
      continue;
    }
    merge_output(L, &m->outputs[old - m->outputs], o);
  }
  for (uint32_t i = 0; i < ov->ncalls; i++) {
    const CfgModuleCall *mc = &ov->calls[i];
    const CfgModuleCall *old = cfg_call(m, mc->name);
    if (!old) {
      diag_error(L->d, &mc->range, "Missing module call to override",
                 "There is no module call named \"%s\". An override file "
                 "can only override a module call that was defined in a "
                 "primary configuration file.", mc->name);
      continue;
    }
    merge_call(L, &m->calls[old - m->calls], mc);
  }
  for (uint32_t i = 0; i < ov->nresources; i++) {
    const CfgResource *r = &ov->resources[i];
    const CfgResource *old = cfg_resource(m, r->mode, r->type, r->name);
    if (!old) {
      if (r->mode == CFG_MANAGED)
        diag_error(L->d, &r->range, "Missing resource to override",
                   "There is no %s resource named \"%s\". An override file "
                   "can only override a resource block defined in a primary "
                   "configuration file.", r->type, r->name);
      else
        diag_error(L->d, &r->range, "Missing data resource to override",
                   "There is no %s data resource named \"%s\". An override "
                   "file can only override a data block defined in a "
                   "primary configuration file.", r->type, r->name);
      continue;
    }
    merge_resource(L, &m->resources[old - m->resources], r);
  }
  for (uint32_t i = 0; i < ov->nmoved; i++)
    diag_error(L->d, &ov->moved[i].range, "Cannot override 'moved' blocks",
               "Records of moved objects can appear only in normal files, "
               "not in override files.");
  for (uint32_t i = 0; i < ov->nimports; i++)
    diag_error(L->d, &ov->imports[i].range, "Cannot override 'import' "
               "blocks", "Import blocks can appear only in normal files, not "
               "in override files.");
  /* Terraform's mergeFile passes over these without a word; say so. */
  for (uint32_t i = 0; i < ov->nremoved; i++)
    diag_warning(L->d, &ov->removed[i].range, "Ignored 'removed' block",
                 "Override files cannot override 'removed' blocks; this one "
                 "is ignored, as Terraform ignores it. Move it to a normal "
                 "file.");
  for (uint32_t i = 0; i < ov->nchecks; i++)
    diag_warning(L->d, &ov->checks[i].range, "Ignored 'check' block",
                 "Override files cannot override 'check' blocks; this one "
                 "is ignored, as Terraform ignores it. Move it to a normal "
                 "file.");
}
