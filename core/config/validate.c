/*
** validate: static checks of a module (Terraform's validate walk and
** StaticValidateReferences).  See validate.h.
**
** References are read once, from the traversals each construct makes
** (hcl_expr_references / dec_body_refs) parsed with eval_parse_ref: the
** same walk checks them and records the dependency graph's edges.  The
** bodies are then decoded with a resolver that answers every reference
** with an unknown value and never errors, so a bad reference is reported
** exactly once (by the reference check) while argument names, blocks and
** constant types are still checked by dec_body.
*/
#include "validate.h"

#include <string.h>

#include "base/convert.h"
#include "base/dag.h"
#include "base/json.h"
#include "lang/eval.h"
#include "providers/decode.h"

const ProvBlockSchema vld_schema_skip = {NULL, 0, NULL, 0, NULL, false, NULL};

/* The module's reference graph, as the engine builds it: one node per
** local, output, resource and module call (in that order, so cycles list
** their members as the engine does), an edge for every reference.  A
** module call stands for its count, for_each and depends_on only: what
** its outputs depend on inside the child is not followed (cycles that
** cross a module boundary are not detected). */
typedef struct Graph {
  DagBuilder b;
  uint32_t cur;        /* the node whose references are being read */
  uint32_t out0, res0, call0, n;
} Graph;

typedef struct V {
  Arena *a;            /* scratch, rewound after every top-level construct */
  const CfgModule *m;
  VldSchemaFn schema_of;
  VldTypesFn types_of;
  void *ctx;
  Diags *d;            /* everything but cycles: dropped when there is one */
  Diags *cycles;       /* "Cycle: ..." */
  const CfgTree *t;    /* m's place in the module tree; NULL when unknown */
  const char *where;   /* "the root module" or "module.a.module.b" */
  Graph *graph;        /* the module's reference graph */
  Graph *g;            /* == graph while the references read are edges of
                          node graph->cur, else NULL */
  VldConfigFn on_config;   /* NULL but in vld_tree_ex */
} V;

/* What a construct may refer to besides declared objects. */
typedef struct Scope {
  bool count;     /* count.index: the block has count */
  bool each;      /* each.*: the block has for_each */
  bool self;      /* provisioners, connection, postconditions */
  bool resource_body;   /* the top level of a resource's own body */
} Scope;

static const Scope no_scope = {false, false, false, false};

/* ---- Reference checks ------------------------------------------------ */

/* count.index / each.key / each.value where the block has no count or
** for_each.  Terraform reports these when the reference is evaluated
** (GetCountAttr, GetForEachAttr), not statically: inside a resource body
** they are checked while decoding with unknowns, so the content of a
** dynamic block whose for_each is empty is never looked at. */
static void check_repetition(Diags *d, const EvalRef *ref, Scope sc)
{
  if (ref->kind == EVAL_REF_COUNT && !sc.count)
    diag_error(d, &ref->range,
               "Reference to \"count\" in non-counted context",
               "The \"count\" object can only be used in \"module\", "
               "\"resource\", and \"data\" blocks, and only when the "
               "\"count\" argument is set.");
  if (ref->kind == EVAL_REF_EACH && !sc.each)
    diag_error(d, &ref->range,
               "Reference to \"each\" in context without for_each",
               "The \"each\" object can be used only in \"module\" or "
               "\"resource\" blocks, and only when the \"for_each\" "
               "argument is set.");
}

static const char *suggest(Arena *a, const char *given, const char **names,
                           uint32_t n, bool sorted)
{
  if (sorted) {
    /* didyoumean takes the first close name: sort for Terraform's order */
    for (uint32_t i = 1; i < n; i++)
      for (uint32_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
        const char *t = names[j];
        names[j] = names[j - 1];
        names[j - 1] = t;
      }
  }
  (void)a;
  return hcl_name_suggestion(given, (const char *const *)names, n);
}

static const CfgResource *find_resource(const CfgModule *m, CfgMode mode,
                                        const char *type, const char *name)
{
  const CfgResource *r = cfg_resource(m, mode, type, name);
  if (r)
    return r;
  for (uint32_t i = 0; i < m->nchecks; i++) {
    const CfgResource *cr = m->checks[i].data;
    if (cr && cr->mode == mode && strcmp(cr->type, type) == 0 &&
        strcmp(cr->name, name) == 0)
      return cr;
  }
  return NULL;
}

static const ProvBlockSchema *schema_for(V *v, const CfgResource *r)
{
  if (!v->schema_of)
    return VLD_SCHEMA_SKIP;
  return v->schema_of(v->ctx, r->mode, r);
}

static bool ident_like(const char *s)
{
  if (!*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
               *s == '_' || (unsigned char)*s >= 0x80))
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
          (unsigned char)*s >= 0x80))
      return false;
  return true;
}

/* configschema.Block.StaticValidateTraversal. */
static void static_traversal(V *v, const ProvBlockSchema *b,
                             const HclStep *steps, uint32_t n)
{
  while (n > 0) {
    const HclStep *s = &steps[0];
    if (s->kind == HCL_STEP_INDEX) {
      Value k = *s->key;
      if (k.type && k.type->kind == TY_STRING && val_is_known(k) &&
          !val_is_null(k) && ident_like(k.u.s))
        diag_error(v->d, &s->range, "Invalid index operation",
                   "Only attribute access is allowed here. Did you mean to "
                   "access attribute \"%s\" using the dot operator?", k.u.s);
      else
        diag_error(v->d, &s->range, "Invalid index operation",
                   "Only attribute access is allowed here, using the dot "
                   "operator.");
      return;
    }
    const char *name = s->name;
    if (prov_block_attr(b, name))
      return;   /* the rest applies to an unknown of the attribute type */
    const ProvNestedBlock *nb = prov_block_nested(b, name);
    if (nb) {
      if (nb->nesting == PROV_NEST_SINGLE ||
          nb->nesting == PROV_NEST_GROUP) {
        b = nb->block;
        steps++;
        n--;
        continue;
      }
      if ((nb->nesting == PROV_NEST_LIST || nb->nesting == PROV_NEST_MAP) &&
          n > 1 && steps[1].kind == HCL_STEP_INDEX) {
        b = nb->block;
        steps += 2;
        n -= 2;
        continue;
      }
      return;
    }
    const char **names = ARENA_NEW(v->a, const char *, b->nattrs +
                                   b->nblocks + 1);
    uint32_t k = 0;
    for (uint32_t i = 0; i < b->nattrs; i++)
      names[k++] = b->attrs[i].name;
    for (uint32_t i = 0; i < b->nblocks; i++)
      names[k++] = b->blocks[i].type_name;
    const char *sg = suggest(v->a, name, names, k, true);
    diag_error(v->d, &s->range, "Unsupported attribute",
               "This object has no argument, nested block, or exported "
               "attribute named \"%s\".%s", name,
               sg ? arena_printf(v->a, " Did you mean \"%s\"?", sg) : "");
    return;
  }
}

/* Built only for a diagnostic: every resource reference passes here. */
static const char *resource_addr(Arena *a, CfgMode mode, const char *type,
                                 const char *name)
{
  return arena_printf(a, "%s%s.%s", mode == CFG_DATA        ? "data."
                                    : mode == CFG_EPHEMERAL ? "ephemeral."
                                                            : "",
                      type, name);
}

static void check_resource_ref(V *v, const EvalRef *ref)
{
  CfgMode mode = ref->kind == EVAL_REF_DATA        ? CFG_DATA
                 : ref->kind == EVAL_REF_EPHEMERAL ? CFG_EPHEMERAL
                                                   : CFG_MANAGED;
  const CfgResource *r = find_resource(v->m, mode, ref->type, ref->name);
  if (!r && mode == CFG_MANAGED && strcmp(ref->type, "action") == 0) {
    diag_error(v->d, &ref->range, "Invalid reference to an action",
               "An action can be referenced only in the actions argument "
               "of a resource's action_trigger block (docs/actions.md).");
    return;
  }
  if (!r) {
    const char *hint = "";
    if (mode == CFG_MANAGED &&
        find_resource(v->m, CFG_DATA, ref->type, ref->name))
      hint = arena_printf(v->a, "\n\nDid you mean the data resource "
                          "data.%s.%s?", ref->type, ref->name);
    diag_error(v->d, &ref->range, "Reference to undeclared resource",
               "%s resource \"%s\" \"%s\" has not been declared in "
               "%s.%s", mode == CFG_DATA        ? "A data"
                        : mode == CFG_EPHEMERAL ? "An ephemeral"
                                                : "A managed",
               ref->type, ref->name, v->where, hint);
    return;
  }
  if (ref->has_key) {
    if (!r->count && !r->for_each)
      diag_error(v->d, &ref->range, "Unexpected resource instance key",
                 "Because %s does not have \"count\" or \"for_each\" set, "
                 "references to it must not include an index key. Remove "
                 "the bracketed index to refer to the single instance of "
                 "this resource.",
                 resource_addr(v->a, mode, ref->type, ref->name));
  } else if (ref->nrest > 0) {
    if (r->count)
      diag_error(v->d, &ref->range, "Missing resource instance key",
                 "Because %s has \"count\" set, its attributes must be "
                 "accessed on specific instances.\n\nFor example, to "
                 "correlate with indices of a referring resource, use:\n"
                 "    %s[count.index]",
                 resource_addr(v->a, mode, ref->type, ref->name),
                 resource_addr(v->a, mode, ref->type, ref->name));
    if (r->for_each)
      diag_error(v->d, &ref->range, "Missing resource instance key",
                 "Because %s has \"for_each\" set, its attributes must be "
                 "accessed on specific instances.\n\nFor example, to "
                 "correlate with indices of a referring resource, use:\n"
                 "    %s[each.key]",
                 resource_addr(v->a, mode, ref->type, ref->name),
                 resource_addr(v->a, mode, ref->type, ref->name));
  }
  const ProvBlockSchema *s = schema_for(v, r);
  if (!s || s == VLD_SCHEMA_SKIP)
    return;
  if (ref->nrest > 0 && ref->rest[0].kind == HCL_STEP_ATTR &&
      strcmp(ref->rest[0].name, "count") == 0) {
    diag_error(v->d, &ref->range, "Invalid resource count attribute",
               "The special \"count\" attribute is no longer supported "
               "after Terraform v0.12. Instead, use length(%s) to count "
               "resource instances.",
               resource_addr(v->a, mode, ref->type, ref->name));
    return;
  }
  static_traversal(v, s, ref->rest, ref->nrest);
}

/* module.NAME.OUTPUT against the outputs the called module declares (when
** the tree is known and the call was loaded).  With count or for_each and
** no instance key the object is a collection and HCL reports its own
** error at evaluation; that case is left alone here. */
static void check_module_output(V *v, const CfgModuleCall *call,
                                const EvalRef *ref)
{
  if (!v->t || !v->t->children)
    return;
  const CfgTree *child = v->t->children[call - v->m->calls];
  if (!child || ((call->count || call->for_each) && !ref->has_key))
    return;
  if (cfg_output(child->m, ref->attr))
    return;
  const HclStep *st = &ref->rest[-1];
  Diag *g = diag_error(v->d, &st->range, "Unsupported attribute",
                       "This object does not have an attribute named "
                       "\"%s\".", ref->attr);
  diag_set_context(v->d, g, &ref->range);
  Buf line;
  buf_init(&line, v->a);
  buf_printf(&line, "module.%s", ref->name);
  if (ref->has_key)
    buf_puts(&line, "[...]");
  buf_puts(&line, " is a object");
  if (!ref->has_key)
    diag_add_value(v->d, g, buf_str(&line));
}

static void graph_ref(V *v, const EvalRef *ref);

static void check_ref(V *v, const EvalRef *ref, Scope sc)
{
  const CfgModule *m = v->m;
  Arena *a = v->a;
  switch (ref->kind) {
  case EVAL_REF_VAR:
    if (!cfg_variable(m, ref->name)) {
      const char **names = ARENA_NEW(a, const char *, m->nvariables + 1);
      for (uint32_t i = 0; i < m->nvariables; i++)
        names[i] = m->variables[i].name;
      const char *sg = suggest(a, ref->name, names, m->nvariables, true);
      diag_error(v->d, &ref->range, "Reference to undeclared input variable",
                 "An input variable with the name \"%s\" has not been "
                 "declared.%s", ref->name,
                 sg ? arena_printf(a, " Did you mean \"%s\"?", sg)
                    : arena_printf(a, " This variable can be declared with "
                                   "a variable \"%s\" {} block.", ref->name));
    }
    return;
  case EVAL_REF_LOCAL:
    if (!cfg_local(m, ref->name)) {
      const char **names = ARENA_NEW(a, const char *, m->nlocals + 1);
      for (uint32_t i = 0; i < m->nlocals; i++)
        names[i] = m->locals[i].name;
      const char *sg = suggest(a, ref->name, names, m->nlocals, true);
      diag_error(v->d, &ref->range, "Reference to undeclared local value",
                 "A local value with the name \"%s\" has not been "
                 "declared.%s", ref->name,
                 sg ? arena_printf(a, " Did you mean \"%s\"?", sg) : "");
    }
    return;
  case EVAL_REF_MODULE:
  case EVAL_REF_MODULE_OUT: {
    const CfgModuleCall *call = cfg_call(m, ref->name);
    if (call) {
      if (ref->kind == EVAL_REF_MODULE_OUT)
        check_module_output(v, call, ref);
      return;
    }
    {
      const char **names = ARENA_NEW(a, const char *, m->ncalls + 1);
      for (uint32_t i = 0; i < m->ncalls; i++)
        names[i] = m->calls[i].name;
      const char *sg = suggest(a, ref->name, names, m->ncalls, true);
      diag_error(v->d, &ref->range, "Reference to undeclared module",
                 "No module call named \"%s\" is declared in %s.%s",
                 ref->name, v->where,
                 sg ? arena_printf(a, " Did you mean \"%s\"?", sg) : "");
    }
    return;
  }
  case EVAL_REF_RESOURCE:
  case EVAL_REF_DATA:
  case EVAL_REF_EPHEMERAL:
    check_resource_ref(v, ref);
    return;
  case EVAL_REF_COUNT:
    if (strcmp(ref->name, "index") != 0)
      diag_error(v->d, &ref->range, "Invalid \"count\" attribute",
                 "The \"count\" object does not have an attribute named "
                 "\"%s\". The only supported attribute is count.index, "
                 "which is the index of each instance of a resource block "
                 "that has the \"count\" argument set.", ref->name);
    else
      check_repetition(v->d, ref, sc);
    return;
  case EVAL_REF_EACH:
    if (strcmp(ref->name, "key") != 0 && strcmp(ref->name, "value") != 0)
      diag_error(v->d, &ref->range, "Invalid \"each\" attribute",
                 "The \"each\" object does not have an attribute named "
                 "\"%s\". The supported attributes are each.key and "
                 "each.value, the current key and value pairs of the "
                 "\"for_each\" attribute set.", ref->name);
    else
      check_repetition(v->d, ref, sc);
    return;
  case EVAL_REF_SELF:
    if (!sc.self)
      diag_error(v->d, &ref->range, "Invalid \"self\" reference",
                 "The \"self\" object is not available in this context. "
                 "This object can be used only in resource provisioner, "
                 "connection, and postcondition blocks.");
    return;
  case EVAL_REF_PATH:
    if (strcmp(ref->name, "cwd") != 0 && strcmp(ref->name, "module") != 0 &&
        strcmp(ref->name, "root") != 0)
      diag_error(v->d, &ref->range, "Invalid \"path\" attribute",
                 "The \"path\" object does not have an attribute named "
                 "\"%s\". The supported attributes are path.cwd, "
                 "path.module, and path.root.", ref->name);
    return;
  case EVAL_REF_TERRAFORM:
    if (strcmp(ref->name, "workspace") != 0)
      diag_error(v->d, &ref->range, "Invalid \"terraform\" attribute",
                 "The \"terraform\" object does not have an attribute named "
                 "\"%s\". The only supported attribute is "
                 "terraform.workspace.", ref->name);
    return;
  default:
    return;
  }
}

static void check_travs(V *v, const HclTraversal *ts, uint32_t n, Scope sc)
{
  for (uint32_t i = 0; i < n; i++) {
    EvalRef ref;
    if (ts[i].n == 0 || !eval_parse_ref(&ts[i], &ref, v->d))
      continue;
    if (v->g)
      graph_ref(v, &ref);
    check_ref(v, &ref, sc);
  }
}

static void check_expr(V *v, const HclExpr *e, Scope sc)
{
  if (!e)
    return;
  HclTraversal *ts;
  uint32_t n;
  hcl_expr_references(v->a, e, &ts, &n);
  check_travs(v, ts, n, sc);
}

static void check_rules(V *v, const CfgRules *r, Scope sc)
{
  for (uint32_t i = 0; i < r->n; i++) {
    check_expr(v, r->items[i].condition, sc);
    check_expr(v, r->items[i].error_message, sc);
  }
}

/* A body without a schema (provider blocks, provisioners, resources of
** unavailable providers): every attribute at any depth; references to a
** dynamic block's iterator are local. */
typedef struct Iter {
  const char *name;
  const struct Iter *up;
} Iter;

static bool is_iter(const Iter *it, const char *name)
{
  for (; it; it = it->up)
    if (strcmp(it->name, name) == 0)
      return true;
  return false;
}

static void check_expr_iter(V *v, const HclExpr *e, Scope sc, const Iter *it)
{
  HclTraversal *ts;
  uint32_t n;
  hcl_expr_references(v->a, e, &ts, &n);
  for (uint32_t i = 0; i < n; i++)
    if (ts[i].n > 0 && !is_iter(it, ts[i].steps[0].name))
      check_travs(v, &ts[i], 1, sc);
}

/* Resource bodies keep their meta-argument blocks; those are checked on
** their own (lifecycle's ignore_changes holds attribute paths, not
** references), so the top level of a resource body skips them. */
static bool meta_block(const char *type)
{
  return strcmp(type, "lifecycle") == 0 || strcmp(type, "provisioner") == 0 ||
         strcmp(type, "connection") == 0;
}

/* A partial-content remainder hides what its parent decoded (a
** provisioner's when/on_failure, its connection block). */
static bool hidden(const char *const *names, uint32_t n, const char *name)
{
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0)
      return true;
  return false;
}

static void check_body_generic(V *v, const HclBody *b, Scope sc,
                               const Iter *it, uint32_t depth)
{
  if (!b || depth > HCL_MAX_DEPTH)
    return;
  if (b->json) {
    Diags scratch;
    diag_init(&scratch, v->a);
    HclAttribute **attrs;
    uint32_t n;
    hcl_body_just_attributes(v->a, b, &attrs, &n, &scratch);
    for (uint32_t i = 0; i < n; i++)
      check_expr_iter(v, attrs[i]->expr, sc, it);
    return;
  }
  for (uint32_t i = 0; i < b->nattrs; i++)
    if (!hidden(b->hidden_attrs, b->nhidden_attrs, b->attrs[i]->name))
      check_expr_iter(v, b->attrs[i]->expr, sc, it);
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const HclBlock *blk = b->blocks[i];
    if (depth == 0 && sc.resource_body && meta_block(blk->type))
      continue;
    if (hidden(b->hidden_blocks, b->nhidden_blocks, blk->type))
      continue;
    if (strcmp(blk->type, "dynamic") != 0 || blk->nlabels != 1) {
      check_body_generic(v, blk->body, sc, it, depth + 1);
      continue;
    }
    const HclBody *db = blk->body;
    HclAttribute *fe = hcl_body_attr(db, "for_each");
    if (fe)
      check_expr_iter(v, fe->expr, sc, it);
    Iter inner = {blk->labels[0], it};
    HclAttribute *ia = hcl_body_attr(db, "iterator");
    if (ia) {
      const char *kw = hcl_expr_as_keyword(v->a, ia->expr);
      if (kw)
        inner.name = kw;
    }
    HclAttribute *la = hcl_body_attr(db, "labels");
    if (la)
      check_expr_iter(v, la->expr, sc, &inner);
    for (uint32_t j = 0; j < db->nblocks; j++)
      if (strcmp(db->blocks[j]->type, "content") == 0)
        check_body_generic(v, db->blocks[j]->body, sc, &inner, depth + 1);
  }
}

static void check_depends_on(V *v, const CfgTraversals *t)
{
  for (uint32_t i = 0; i < t->n; i++) {
    EvalRef ref;
    if (t->items[i].n == 0 || !eval_parse_ref(&t->items[i], &ref, v->d))
      continue;
    if (v->g)
      graph_ref(v, &ref);   /* an attribute path still depends on it */
    if (ref.nrest > 0) {
      SrcRange r = diag_range_join(ref.rest[0].range,
                                   ref.rest[ref.nrest - 1].range);
      diag_error(v->d, &r, "Invalid depends_on reference",
                 "References in depends_on must be to a whole object "
                 "(resource, etc), not to an attribute of an object.");
      continue;
    }
    check_ref(v, &ref, no_scope);
  }
}

/* ---- Bodies decoded with unknowns --------------------------------------- */

typedef struct Res {
  const CfgModule *m;
  Arena *a;
  Scope sc;         /* count/each available in the body being decoded */
} Res;

/* Every reference is an unknown: variables of their declared type,
** count.index a number, each.key a string, anything else dynamic.  The
** only error is count/each used without count/for_each (check_repetition):
** the static reference checks reported every other bad reference. */
static EvalResolveResult resolve_unknown(EvalCtx *c, const HclTraversal *t,
                                         uint32_t *consumed, Value *out)
{
  Res *rs = c->resolve_data;
  const char *root = t->steps[0].name;
  *consumed = t->n;
  *out = val_dynamic_unknown;
  if (t->n >= 2 && t->steps[1].kind == HCL_STEP_ATTR &&
      (strcmp(root, "count") == 0 || strcmp(root, "each") == 0)) {
    Diags scratch;
    diag_init(&scratch, rs->a);
    EvalRef ref;
    if (eval_parse_ref(t, &ref, &scratch)) {
      int e0 = c->diags->errors;
      check_repetition(c->diags, &ref, rs->sc);
      if (c->diags->errors > e0)
        return EVAL_RES_ERROR;
    }
  }
  if (t->n >= 2 && t->steps[1].kind == HCL_STEP_ATTR) {
    const char *name = t->steps[1].name;
    if (strcmp(root, "var") == 0) {
      const CfgVariable *var = cfg_variable(rs->m, name);
      if (var && var->type) {
        *out = val_unknown(conv_strip_optional(rs->a, var->type));
        *consumed = 2;
      }
    } else if (strcmp(root, "count") == 0 && strcmp(name, "index") == 0) {
      *out = val_unknown(&ty_number);
      *consumed = 2;
    } else if (strcmp(root, "each") == 0 && strcmp(name, "key") == 0) {
      *out = val_unknown(&ty_string);
      *consumed = 2;
    }
  }
  return EVAL_RES_OK;
}

/* Provider functions while validating: a call to provider::LOCAL::F with
** LOCAL in required_providers is an unknown of any type (OpenTofu's
** "Validate Placeholder"; the engine checks the name and arguments against
** the provider's functions at plan); an undeclared LOCAL is Terraform's
** "Unknown provider function". */
static bool placeholder_impl(FnCall *c, const Value *args, uint32_t nargs,
                             Value *out)
{
  (void)c;
  (void)args;
  (void)nargs;
  *out = val_dynamic_unknown;
  return true;
}

static const FnParam placeholder_param = {
    "args", &ty_dynamic, FP_NULL | FP_UNKNOWN | FP_DYNAMIC | FP_MARKED};

static const FnDef *placeholder_fn(EvalCtx *ctx, const HclExpr *call,
                                   bool *has_funcs, bool *failed)
{
  (void)has_funcs;
  (void)failed;
  const CfgModule *m = ctx->provider_fn_data;
  const char *name = call->u.call.name;
  if (call->u.call.nparts != 3 || strncmp(name, "provider::", 10) != 0)
    return NULL;
  const char *local = name + 10;
  size_t ll = (size_t)(call->u.call.base - 2 - local);
  for (uint32_t i = 0; i < m->nrequired_providers; i++) {
    const char *ln = m->required_providers[i].local_name;
    if (strlen(ln) == ll && strncmp(ln, local, ll) == 0) {
      FnDef *d = ARENA_NEW(ctx->arena, FnDef, 1);
      d->name = name;
      d->varparam = &placeholder_param;
      d->ret = &ty_dynamic;
      d->impl = placeholder_impl;
      return d;
    }
  }
  return NULL;
}

void vld_unknown_ctx(EvalCtx *ctx, Arena *a, Diags *d, const CfgModule *m,
                     bool count, bool each)
{
  eval_ctx_init(ctx, a, d);
  Res *rs = ARENA_NEW(a, Res, 1);
  rs->m = m;
  rs->a = a;
  rs->sc = (Scope){count, each, false, false};
  ctx->resolve = resolve_unknown;
  ctx->resolve_data = rs;
  ctx->provider_fn = placeholder_fn;
  ctx->provider_fn_data = (void *)m;
  ctx->fn.base_dir = m->dir;
  ctx->fn.pure_only = true;
}

/* False when the body did not decode (the errors are in v->d). */
static bool decode_with_unknowns(V *v, const HclBody *body,
                                 const ProvBlockSchema *s, Scope sc,
                                 Value *out)
{
  EvalCtx ctx;
  eval_ctx_init(&ctx, v->a, v->d);
  Res rs = {v->m, v->a, sc};
  ctx.resolve = resolve_unknown;
  ctx.resolve_data = &rs;
  ctx.provider_fn = placeholder_fn;
  ctx.provider_fn_data = (void *)v->m;
  ctx.fn.base_dir = v->m->dir;
  ctx.fn.pure_only = true;
  int e0 = v->d->errors;
  return dec_body(&ctx, body, s, out) && v->d->errors == e0;
}

static const char *provider_display(V *v, const CfgResource *r)
{
  const char *name = cfg_resource_provider_name(r);
  const char *src = cfg_provider_source(v->m, name);
  if (!src)   /* implied: hashicorp/NAME */
    src = arena_printf(v->a, "hashicorp/%s", name);
  Diags scratch;
  diag_init(&scratch, v->a);
  const char *fq = prov_source_normalize(v->a, src, NULL, &scratch);
  if (!fq)
    return src;
  static const char reg[] = "registry.terraform.io/";
  if (strncmp(fq, reg, sizeof reg - 1) == 0)
    return fq + sizeof reg - 1;
  return fq;
}

static void invalid_type(V *v, const CfgResource *r)
{
  if (r->mode == CFG_EPHEMERAL) {
    diag_error(v->d, &r->type_range, "Invalid ephemeral resource type",
               "The provider %s does not support ephemeral resource type "
               "\"%s\".", provider_display(v, r), r->type);
    return;
  }
  CfgMode other = r->mode == CFG_DATA ? CFG_MANAGED : CFG_DATA;
  CfgResource alt = *r;
  alt.mode = other;
  const char *sg = "";
  const ProvBlockSchema *as = v->schema_of(v->ctx, other, &alt);
  if (as && as != VLD_SCHEMA_SKIP) {
    if (r->mode == CFG_MANAGED)
      sg = arena_printf(v->a, "\n\nDid you intend to use the data source "
                        "\"%s\"? If so, declare this using a \"data\" block "
                        "instead of a \"resource\" block.", r->type);
    else
      sg = arena_printf(v->a, "\n\nDid you intend to use the managed "
                        "resource type \"%s\"? If so, declare this using a "
                        "\"resource\" block instead of a \"data\" block.",
                        r->type);
  } else if (v->types_of) {
    const char *const *names = NULL;
    uint32_t n = 0;
    v->types_of(v->ctx, r->mode, r, &names, &n);
    const char **copy = ARENA_NEW(v->a, const char *, n + 1);
    for (uint32_t i = 0; i < n; i++)
      copy[i] = names[i];
    const char *s = suggest(v->a, r->type, copy, n, false);
    if (s)
      sg = arena_printf(v->a, " Did you mean \"%s\"?", s);
  }
  if (r->mode == CFG_MANAGED)
    diag_error(v->d, &r->type_range, "Invalid resource type",
               "The provider %s does not support resource type \"%s\".%s",
               provider_display(v, r), r->type, sg);
  else
    diag_error(v->d, &r->type_range, "Invalid data source",
               "The provider %s does not support data source \"%s\".%s",
               provider_display(v, r), r->type, sg);
}

/* The references read from now on are edges of graph node `node`
** (UINT32_MAX: none, they are only checked). */
static void edges_of(V *v, uint32_t node)
{
  v->g = node != UINT32_MAX && v->graph ? v->graph : NULL;
  if (v->g)
    v->g->cur = node;
}

/* node: the resource's graph node, UINT32_MAX for none (a check block's
** data source).  The engine's graph does not read enabled, provisioner
** and connection blocks: they are checked, not edges. */
static void check_resource(V *v, const CfgResource *r, uint32_t node)
{
  Scope sc = {r->count != NULL, r->for_each != NULL, false, false};
  Scope self_sc = sc;
  self_sc.self = true;
  edges_of(v, node);
  check_expr(v, r->count, no_scope);
  check_expr(v, r->for_each, no_scope);
  edges_of(v, UINT32_MAX);
  check_expr(v, r->enabled, no_scope);
  edges_of(v, node);
  check_depends_on(v, &r->depends_on);
  check_rules(v, &r->preconditions, sc);
  check_rules(v, &r->postconditions, self_sc);
  for (uint32_t i = 0; i < r->nreplace_triggered_by; i++)
    check_expr(v, r->replace_triggered_by[i], sc);
  edges_of(v, UINT32_MAX);
  for (uint32_t i = 0; i < r->nprovisioners; i++) {
    check_body_generic(v, r->provisioners[i].body, self_sc, NULL, 0);
    check_body_generic(v, r->provisioners[i].connection, self_sc, NULL, 0);
  }
  check_body_generic(v, r->connection, self_sc, NULL, 0);
  edges_of(v, node);

  const ProvBlockSchema *s = schema_for(v, r);
  Scope body_sc = sc;
  body_sc.resource_body = true;
  if (!s) {
    invalid_type(v, r);
    check_body_generic(v, r->body, body_sc, NULL, 0);
    return;
  }
  if (s == VLD_SCHEMA_SKIP || !r->body) {
    check_body_generic(v, r->body, body_sc, NULL, 0);
    return;
  }
  HclTraversal *ts;
  uint32_t n;
  dec_body_refs(v->a, r->body, s, &ts, &n);
  /* count/each are checked where they are evaluated (check_repetition). */
  Scope deferred = sc;
  deferred.count = deferred.each = true;
  check_travs(v, ts, n, deferred);
  edges_of(v, UINT32_MAX);
  Value cfg;
  if (decode_with_unknowns(v, r->body, s, sc, &cfg) && v->on_config)
    v->on_config(v->ctx, v->t, r, s, cfg);
}

/* ---- Dependency cycles ------------------------------------------------ */

static void graph_ref(V *v, const EvalRef *ref)
{
  Graph *g = v->g;
  const CfgModule *m = v->m;
  uint32_t to = UINT32_MAX;
  switch (ref->kind) {
  case EVAL_REF_LOCAL: {
    const CfgLocal *l = cfg_local(m, ref->name);
    if (l)
      to = (uint32_t)(l - m->locals);
    break;
  }
  case EVAL_REF_RESOURCE:
  case EVAL_REF_DATA:
  case EVAL_REF_EPHEMERAL: {
    const CfgResource *r = cfg_resource(
        m, ref->kind == EVAL_REF_DATA        ? CFG_DATA
           : ref->kind == EVAL_REF_EPHEMERAL ? CFG_EPHEMERAL
                                             : CFG_MANAGED,
        ref->type, ref->name);
    if (r)
      to = g->res0 + (uint32_t)(r - m->resources);
    break;
  }
  case EVAL_REF_MODULE:
  case EVAL_REF_MODULE_OUT: {
    const CfgModuleCall *c = cfg_call(m, ref->name);
    if (c)
      to = g->call0 + (uint32_t)(c - m->calls);
    break;
  }
  default:
    break;
  }
  /* self-references are not edges (the engine skips them too) */
  if (to != UINT32_MAX && to != g->cur)
    dag_add_edge(&g->b, g->cur, to);
}

static const char *node_name(Arena *a, const CfgModule *m, const Graph *g,
                             const char *prefix, uint32_t id)
{
  if (id < g->out0)
    return arena_printf(a, "%slocal.%s", prefix, m->locals[id].name);
  if (id < g->res0)
    return arena_printf(a, "%soutput.%s", prefix,
                        m->outputs[id - g->out0].name);
  if (id < g->call0) {
    const CfgResource *r = &m->resources[id - g->res0];
    return arena_printf(a, "%s%s%s.%s", prefix,
                        r->mode == CFG_DATA        ? "data."
                        : r->mode == CFG_EPHEMERAL ? "ephemeral."
                                                   : "",
                        r->type, r->name);
  }
  return arena_printf(a, "%smodule.%s", prefix, m->calls[id - g->call0].name);
}

static void graph_init(Graph *g, Arena *a, const CfgModule *m)
{
  g->out0 = m->nlocals;
  g->res0 = g->out0 + m->noutputs;
  g->call0 = g->res0 + m->nresources;
  g->n = g->call0 + m->ncalls;
  g->cur = 0;
  dag_builder_init(&g->b, a, g->n);
  for (uint32_t i = 0; i < g->n; i++)
    dag_add_node(&g->b);
}

/* Reports every dependency cycle of v's module graph ("Cycle: local.a,
** local.b") to v->cycles; returns true when there was one. */
static bool report_cycles(V *v)
{
  const CfgModule *m = v->m;
  Graph *g = v->graph;
  ArenaMark mk = arena_mark(v->a);
  Dag dag;
  dag_build(&g->b, &dag);
  uint32_t **cyc, *sz;
  uint32_t nc = dag_cycles(&dag, v->a, &cyc, &sz);
  const char *prefix =
      v->t && v->t->path[0] ? arena_printf(v->a, "%s.", v->t->path) : "";
  for (uint32_t c = 0; c < nc; c++) {
    Buf msg;
    buf_init(&msg, v->a);
    buf_puts(&msg, "Cycle: ");
    for (uint32_t k = 0; k < sz[c]; k++)
      buf_printf(&msg, "%s%s", k ? ", " : "",
                 node_name(v->a, m, g, prefix, cyc[c][k]));
    diag_error(v->cycles, NULL, buf_str(&msg), "%s", "");
  }
  arena_rewind(v->a, mk);
  return nc > 0;
}

/* ---- Module calls ------------------------------------------------------- */

/* The arguments of a module call against the called module's variables:
** hcl.Body.Content with a schema made of the child's variables gives
** Terraform's "Unsupported argument" (with its suggestion), "Missing
** required argument" and "Unsupported block type". */
static void check_call_args(V *v, const CfgModuleCall *c, const CfgModule *ch)
{
  vld_call_args(v->a, c, ch, v->d);
}

void vld_call_args(Arena *a, const CfgModuleCall *c, const CfgModule *ch,
                   Diags *d)
{
  if (!c->body)
    return;
  HclAttrSchema *as = ARENA_NEW(a, HclAttrSchema, ch->nvariables + 1);
  for (uint32_t i = 0; i < ch->nvariables; i++) {
    as[i].name = ch->variables[i].name;
    as[i].required = !ch->variables[i].has_default;
  }
  HclBodySchema s = {as, ch->nvariables, NULL, 0};
  HclBodyContent content;
  hcl_body_content(a, c->body, &s, &content, d);
}

/* ---- Entry points ------------------------------------------------------- */

/* One walk over the module: every construct's references are checked
** (diagnostics to v->d) and, for the graph's nodes, recorded as edges.
** Graph node ids: locals, outputs, resources, module calls. */
static void check_module(V *v)
{
  const CfgModule *m = v->m;
  const Graph *g = v->graph;
  ArenaMark mk = arena_mark(v->a);
  edges_of(v, UINT32_MAX);
  for (uint32_t i = 0; i < m->nvariables; i++)
    check_rules(v, &m->variables[i].validations, no_scope);
  arena_rewind(v->a, mk);
  for (uint32_t i = 0; i < m->nlocals; i++) {
    edges_of(v, i);
    check_expr(v, m->locals[i].expr, no_scope);
    arena_rewind(v->a, mk);
  }
  edges_of(v, UINT32_MAX);
  for (uint32_t i = 0; i < m->nproviders; i++) {
    check_body_generic(v, m->providers[i].body, no_scope, NULL, 0);
    arena_rewind(v->a, mk);
  }
  for (uint32_t i = 0; i < m->nresources; i++) {
    check_resource(v, &m->resources[i], g->res0 + i);
    arena_rewind(v->a, mk);
  }
  for (uint32_t i = 0; i < m->ncalls; i++) {
    const CfgModuleCall *c = &m->calls[i];
    Scope sc = {c->count != NULL, c->for_each != NULL, false, false};
    edges_of(v, g->call0 + i);
    check_expr(v, c->count, no_scope);
    check_expr(v, c->for_each, no_scope);
    check_depends_on(v, &c->depends_on);
    edges_of(v, UINT32_MAX);
    check_body_generic(v, c->body, sc, NULL, 0);
    const CfgTree *ch = v->t && v->t->children ? v->t->children[i] : NULL;
    if (ch)
      check_call_args(v, c, ch->m);
    arena_rewind(v->a, mk);
  }
  for (uint32_t i = 0; i < m->noutputs; i++) {
    const CfgOutput *o = &m->outputs[i];
    edges_of(v, g->out0 + i);
    check_expr(v, o->expr, no_scope);
    check_depends_on(v, &o->depends_on);
    check_rules(v, &o->preconditions, no_scope);
    arena_rewind(v->a, mk);
  }
  edges_of(v, UINT32_MAX);
  for (uint32_t i = 0; i < m->nchecks; i++) {
    const CfgCheck *c = &m->checks[i];
    if (c->data)
      check_resource(v, c->data, UINT32_MAX);
    edges_of(v, UINT32_MAX);
    check_rules(v, &c->asserts, no_scope);
    arena_rewind(v->a, mk);
  }
}

/* Checks one module and finds its cycles; ga holds the graph (rewound
** here, so the scratch arena can be rewound per construct).  Returns
** true when there was a cycle. */
static bool check_one(Arena *scratch, Arena *ga, const CfgModule *m,
                      const CfgTree *t, VldSchemaFn schema_of,
                      VldTypesFn types_of, VldConfigFn on_config, void *ctx,
                      Diags *d, Diags *cycles)
{
  V v;
  memset(&v, 0, sizeof v);
  v.a = scratch;
  v.m = m;
  v.schema_of = schema_of;
  v.types_of = types_of;
  v.on_config = on_config;
  v.ctx = ctx;
  v.d = d;
  v.cycles = cycles;
  v.t = t;
  v.where = t && t->path[0] ? t->path : "the root module";
  ArenaMark gm = arena_mark(ga);
  Graph g;
  graph_init(&g, ga, m);
  v.graph = &g;
  check_module(&v);
  bool found = report_cycles(&v);
  arena_rewind(ga, gm);
  return found;
}

/* Terraform finds cycles while building the graph, before the walk that
** reports anything else: when there is a cycle it is the only error
** shown.  The other diagnostics wait in `rest` until then. */
static bool finish(Diags *d, Diags *rest, bool cycle, int e0)
{
  if (!cycle)
    diag_move(d, rest);
  return d->errors == e0;
}

bool vld_module_ex(Arena *a, const CfgModule *m, VldSchemaFn schema_of,
                   VldTypesFn types_of, void *ctx, Diags *d)
{
  (void)a;   /* scratch of our own: rewound construct by construct */
  Arena scratch, ga;
  arena_init(&scratch, 0);
  arena_init(&ga, 0);
  Diags rest;
  diag_init(&rest, d->arena);
  int e0 = d->errors;
  bool cycle = check_one(&scratch, &ga, m, NULL, schema_of, types_of, NULL,
                         ctx, &rest, d);
  arena_release(&ga);
  arena_release(&scratch);
  return finish(d, &rest, cycle, e0);
}

bool vld_module(Arena *a, const CfgModule *m, VldSchemaFn schema_of,
                void *ctx, Diags *d)
{
  return vld_module_ex(a, m, schema_of, NULL, ctx, d);
}

static bool tree_check(Arena *scratch, Arena *ga, const CfgTree *t,
                       VldSchemaFn schema_of, VldTypesFn types_of,
                       VldEnterFn enter, VldConfigFn on_config, void *ctx,
                       Diags *rest, Diags *d)
{
  if (enter)
    enter(ctx, t);
  bool found = check_one(scratch, ga, t->m, t, schema_of, types_of,
                         on_config, ctx, rest, d);
  for (uint32_t i = 0; i < t->m->ncalls; i++)
    if (t->children && t->children[i])
      found |= tree_check(scratch, ga, t->children[i], schema_of, types_of,
                          enter, on_config, ctx, rest, d);
  return found;
}

bool vld_tree(Arena *a, const CfgTree *t, VldSchemaFn schema_of,
              VldTypesFn types_of, VldEnterFn enter, void *ctx, Diags *d)
{
  return vld_tree_ex(a, t, schema_of, types_of, enter, NULL, ctx, d);
}

bool vld_tree_ex(Arena *a, const CfgTree *t, VldSchemaFn schema_of,
                 VldTypesFn types_of, VldEnterFn enter, VldConfigFn on_config,
                 void *ctx, Diags *d)
{
  (void)a;
  Arena scratch, ga;
  arena_init(&scratch, 0);
  arena_init(&ga, 0);
  Diags rest;
  diag_init(&rest, d->arena);
  int e0 = d->errors;
  bool cycle = tree_check(&scratch, &ga, t, schema_of, types_of, enter,
                          on_config, ctx, &rest, d);
  arena_release(&ga);
  arena_release(&scratch);
  return finish(d, &rest, cycle, e0);
}

/* ---- Output ----------------------------------------------------------------- */

static int segments(const char *f)
{
  int n = 0;
  for (; *f; f++)
    n += *f == '/';
  return n;
}

/* sortDiagnostics.Less */
static bool diag_less(const Diag *x, const Diag *y)
{
  if (x->severity != y->severity)
    return x->severity == DIAG_WARNING;
  bool xs = x->subject.file != NULL, ys = y->subject.file != NULL;
  if (xs != ys)
    return !xs;
  if (!xs)
    return false;
  int c = strcmp(x->subject.file, y->subject.file);
  if (c != 0) {
    int sx = segments(x->subject.file), sy = segments(y->subject.file);
    if (sx != sy)
      return sx < sy;
    return c < 0;
  }
  if (x->subject.start.byte != y->subject.start.byte)
    return x->subject.start.byte < y->subject.start.byte;
  return x->subject.end.byte < y->subject.end.byte;
}

void vld_sort_diags(Diags *d)
{
  uint32_t n = 0;
  for (Diag *g = d->head; g; g = g->next)
    n++;
  if (n < 2)
    return;
  Diag **v = ARENA_NEW(d->arena, Diag *, n);
  Diag **tmp = ARENA_NEW(d->arena, Diag *, n);
  uint32_t i = 0;
  for (Diag *g = d->head; g; g = g->next)
    v[i++] = g;
  /* bottom-up merge sort: stable, O(n log n) */
  for (uint32_t w = 1; w < n; w *= 2) {
    for (uint32_t lo = 0; lo < n; lo += 2 * w) {
      uint32_t mid = lo + w < n ? lo + w : n;
      uint32_t hi = lo + 2 * w < n ? lo + 2 * w : n;
      uint32_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi)
        tmp[k++] = diag_less(v[b], v[a]) ? v[b++] : v[a++];
      while (a < mid)
        tmp[k++] = v[a++];
      while (b < hi)
        tmp[k++] = v[b++];
    }
    Diag **t = v;
    v = tmp;
    tmp = t;
  }
  for (i = 0; i + 1 < n; i++)
    v[i]->next = v[i + 1];
  v[n - 1]->next = NULL;
  d->head = v[0];
  d->tail = v[n - 1];
}

void vld_render_json(Buf *out, const Diags *d, const SrcFiles *fs)
{
  JsonW w;
  json_w_init(&w, out, JSON_W_INDENT);
  json_w_begin_object(&w);
  json_w_keyz(&w, "format_version");
  json_w_stringz(&w, "1.0");
  json_w_keyz(&w, "valid");
  json_w_bool(&w, d->errors == 0);
  json_w_keyz(&w, "error_count");
  json_w_int(&w, d->errors);
  json_w_keyz(&w, "warning_count");
  json_w_int(&w, d->warnings);
  json_w_keyz(&w, "diagnostics");
  json_w_begin_array(&w);
  Buf one;
  buf_init(&one, out->arena);
  for (const Diag *g = d->head; g; g = g->next) {
    buf_clear(&one);
    diag_render_json(&one, g, fs);
    json_w_raw(&w, one.p ? one.p : "{}", one.len ? one.len : 2);
  }
  json_w_end_array(&w);
  json_w_end_object(&w);
}
