/*
** config_decode.c: decoding a module's top-level blocks (terraform,
** provider, variable, locals, output, resource and data, module, moved,
** removed, import, check) into the Cfg* structures of config.h, with the
** constant and static-reference readers they use.  The schemas and
** messages follow Terraform's configs package (parser_config.go,
** named_values.go, resource.go, module_call.go, provider.go, moved.go,
** removed.go, import.go, checks.go).  Loading the files and the module
** tree is config.c.
*/
#include "config_priv.h"

#include <string.h>

#include "base/convert.h"
#include "lang/eval.h"
#include "provver.h"

static SrcRange block_header_range(const HclBlock *b)
{
  SrcRange r = b->type_range;
  if (b->nlabels)
    r = diag_range_join(r, b->label_ranges[b->nlabels - 1]);
  return r;
}

/* ---- constant evaluation helpers ------------------------------------- */

static bool const_value(Loader *L, const HclAttribute *at, Value *out)
{
  EvalCtx ctx;
  eval_ctx_init(&ctx, L->a, L->d);
  ctx.no_vars = true;
  int before = L->d->errors;
  if (!eval_expr(&ctx, at->expr, out) || L->d->errors > before)
    return false;
  if (!val_is_wholly_known(*out)) {
    diag_error(L->d, &at->expr->range, "Invalid expression",
               "The value of \"%s\" must be known here.", at->name);
    return false;
  }
  return true;
}

static bool const_bool(Loader *L, const HclAttribute *at, bool *out)
{
  Value v;
  if (!const_value(L, at, &v))
    return false;
  if (v.type->kind == TY_STRING && !val_is_null(v) &&
      (strcmp(v.u.s, "true") == 0 || strcmp(v.u.s, "false") == 0)) {
    *out = v.u.s[0] == 't';
    return true;
  }
  if (v.type->kind != TY_BOOL || val_is_null(v)) {
    diag_error(L->d, &at->expr->range, "Unsuitable value type",
               "Unsuitable value: a bool is required");
    return false;
  }
  *out = v.u.b;
  return true;
}

static bool const_string(Loader *L, const HclAttribute *at, const char **out)
{
  Value v;
  if (!const_value(L, at, &v))
    return false;
  if (v.type->kind == TY_NUMBER && !val_is_null(v)) {
    Buf b;
    buf_init(&b, L->a);
    val_num_format(&b, v);
    *out = buf_str(&b);
    return true;
  }
  if (v.type->kind == TY_BOOL && !val_is_null(v)) {
    *out = v.u.b ? "true" : "false";
    return true;
  }
  if (v.type->kind != TY_STRING || val_is_null(v)) {
    diag_error(L->d, &at->expr->range, "Unsuitable value type",
               "Unsuitable value: a string is required");
    return false;
  }
  *out = v.u.s;
  return true;
}

/* ---- static references ------------------------------------------------- */

static const char STATIC_REF_DETAIL[] =
    "A single static variable reference is required: only attribute access "
    "and indexing with constant keys. No calculations, function calls, "
    "template expressions, etc are allowed here.";

/* A .tf.json string where Terraform wants a reference or an expression
** (depends_on, ignore_changes, replace_triggered_by, provider, moved and
** import addresses): its text is native syntax (Terraform's
** unwrapJSONRefExpr / ConvertJSONExpressionToHCL), not a template.  Parsed
** at the string's position; any other expression is returned as it is.
** NULL, with the parser's errors in d, when the text does not parse. */
static const HclExpr *json_native(Loader *L, const HclExpr *e, Diags *d)
{
  const HclExpr *u = hcl_expr_unwrap(e);
  if (u->kind != HCL_E_JSON || u->u.json->kind != HCL_J_STRING)
    return e;
  const HclJsonValue *v = u->u.json;
  SrcPos start = v->range.start;
  start.col++;   /* past the opening quote */
  start.byte++;
  Diags local;
  diag_init(&local, L->a);
  HclExpr *x = hcl_parse_expr_at(L->a, v->range.file, v->u.str.s,
                                 v->u.str.len, start, &local);
  bool bad = diag_has_errors(&local);
  diag_move(d, &local);
  return bad ? NULL : x;
}

/* hcl.AbsTraversalForExpr.  hcl_expr_as_traversal misses two of its cases:
** a keyword root followed by steps (`null.alt`: the parser reads `null` as
** a literal, while traversal syntax has no keywords, so hcl undoes that)
** and, in JSON, the string's own position in the file.  False with an
** error in d otherwise. */
static bool abs_traversal(Loader *L, const HclExpr *e, HclTraversal *out,
                          Diags *d)
{
  memset(out, 0, sizeof *out);
  e = hcl_expr_unwrap(e);
  if (e->kind == HCL_E_JSON && e->u.json->kind == HCL_J_STRING) {
    const HclExpr *x = json_native(L, e, d);
    if (!x)
      return false;
    if (x->kind == HCL_E_PAREN) {   /* traversal syntax has no parentheses */
      diag_error(d, &x->range, "Invalid expression", "%s",
                 STATIC_REF_DETAIL);
      return false;
    }
    e = x;
  }
  if (e->kind == HCL_E_REL_TRAV) {
    HclTraversal head;
    Diags scratch;
    diag_init(&scratch, L->a);
    if (abs_traversal(L, e->u.rel.src, &head, &scratch)) {
      out->n = head.n + e->u.rel.n;
      out->steps = ARENA_NEW(L->a, HclStep, out->n);
      memcpy(out->steps, head.steps, head.n * sizeof *head.steps);
      memcpy(out->steps + head.n, e->u.rel.steps,
             e->u.rel.n * sizeof *e->u.rel.steps);
      return true;
    }
  }
  return hcl_expr_as_traversal(L->a, e, out, d);
}

/* An expression for one JSON value, so that the static readers above see
** it as Terraform's JSON expression (a string is a reference, not a
** template). */
static const HclExpr *json_expr(Loader *L, const HclJsonValue *v)
{
  HclExpr *x = ARENA_NEW(L->a, HclExpr, 1);
  x->kind = HCL_E_JSON;
  x->range = v->range;
  x->u.json = v;
  return x;
}

/* hcl.ExprList: the items of a static list, native tuple or JSON array
** (items kept as JSON expressions).  False when e is not a list. */
static bool expr_list(Loader *L, const HclExpr *e, const HclExpr ***items,
                      uint32_t *n)
{
  e = hcl_expr_unwrap(e);
  if (e->kind == HCL_E_TUPLE) {
    *items = (const HclExpr **)e->u.tuple.items;
    *n = e->u.tuple.n;
    return true;
  }
  if (e->kind != HCL_E_JSON || e->u.json->kind != HCL_J_ARRAY)
    return false;
  const HclJsonValue *v = e->u.json;
  const HclExpr **it = ARENA_NEW(L->a, const HclExpr *, v->u.arr.n + 1);
  for (uint32_t i = 0; i < v->u.arr.n; i++)
    it[i] = json_expr(L, v->u.arr.items[i]);
  *items = it;
  *n = v->u.arr.n;
  return true;
}

/* A list of static traversals (depends_on, ignore_changes). */
static void traversal_list(Loader *L, const HclAttribute *at,
                           CfgTraversals *out)
{
  const HclExpr **items;
  uint32_t n;
  if (!expr_list(L, at->expr, &items, &n)) {
    diag_error(L->d, &at->expr->range, "Invalid expression",
               "A static list expression is required.");
    return;
  }
  out->items = ARENA_NEW(L->a, HclTraversal, n ? n : 1);
  out->n = 0;
  for (uint32_t i = 0; i < n; i++) {
    HclTraversal t;
    Diags tmp;
    diag_init(&tmp, L->a);
    if (abs_traversal(L, items[i], &t, &tmp))
      out->items[out->n++] = t;
    else
      diag_error(L->d, &items[i]->range, "Invalid expression", "%s",
                 STATIC_REF_DETAIL);
  }
}

static bool valid_identifier(const char *s)
{
  if (!*s)
    return false;
  const unsigned char *p = (const unsigned char *)s;
  if (!(*p >= 0x80 || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
        *p == '_'))
    return false;
  for (p++; *p; p++)
    if (!(*p >= 0x80 || (*p >= 'a' && *p <= 'z') ||
          (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
          *p == '-'))
      return false;
  return true;
}

static bool check_name(Loader *L, const HclBlock *b, const char *kind)
{
  const char *name = b->labels[b->nlabels - 1];
  if (valid_identifier(name))
    return true;
  diag_error(L->d, &b->label_ranges[b->nlabels - 1],
             arena_printf(L->a, "Invalid %s name", kind),
             "A name must start with a letter or underscore and may contain "
             "only letters, digits, underscores, and dashes.");
  return false;
}

static void rules(Loader *L, HclBlock **blocks, uint32_t n, const char *type,
                  CfgRules *out)
{
  static const HclAttrSchema as[] = {{"condition", true},
                                     {"error_message", true}};
  static const HclBodySchema s = {as, 2, NULL, 0};
  for (uint32_t i = 0; i < n; i++) {
    if (strcmp(blocks[i]->type, type) != 0)
      continue;
    HclBodyContent c;
    hcl_body_content(L->a, blocks[i]->body, &s, &c, L->d);
    HclAttribute *cond = hcl_content_attr(&c, "condition");
    HclAttribute *msg = hcl_content_attr(&c, "error_message");
    if (!cond || !msg)
      continue;
    out->items = arena_grow(L->a, out->items, sizeof *out->items,
                            _Alignof(CfgCheckRule), out->n, out->n + 1);
    CfgCheckRule *r = &out->items[out->n++];
    r->condition = cond->expr;
    r->error_message = msg->expr;
    r->range = blocks[i]->type_range;
  }
}

/* A provider written as a quoted string, the pre-0.12 form (Terraform's
** exprIsNativeQuotedString). */
static bool native_quoted_string(const HclExpr *e)
{
  if (e->kind == HCL_E_TEMPLATE)
    return e->u.tmpl.n == 1 && e->u.tmpl.parts[0]->kind == HCL_E_LITERAL &&
           e->u.tmpl.parts[0]->u.lit.type == &ty_string;
  return e->kind == HCL_E_LITERAL && e->u.lit.type == &ty_string;
}

/* decodeProviderConfigRef: NAME or NAME.ALIAS; arg names the argument in
** the message ("provider", "providers").  r->name stays NULL on error. */
static void provider_ref(Loader *L, const HclExpr *x, const char *arg,
                         CfgProviderRef *r)
{
  HclTraversal t;
  Diags tmp;
  diag_init(&tmp, L->a);
  r->range = x->range;
  if (!abs_traversal(L, x, &t, &tmp) || t.n < 1 || t.n > 2) {
    if (native_quoted_string(x))
      diag_error(L->d, &x->range, "Invalid provider configuration reference",
                 "A provider configuration reference must not be given in "
                 "quotes.");
    else
      diag_error(L->d, &x->range, "Invalid provider configuration reference",
                 "The %s argument requires a provider type name, optionally "
                 "followed by a period and then a configuration alias.", arg);
    return;
  }
  if (t.n == 2 && t.steps[1].kind != HCL_STEP_ATTR) {
    diag_error(L->d, &t.steps[1].range,
               "Invalid provider configuration reference",
               "Provider name must either stand alone or be followed by a "
               "period and then a configuration alias.");
    return;
  }
  r->name = t.steps[0].name;
  r->alias = t.n == 2 ? t.steps[1].name : NULL;
}

/* ---- blocks ------------------------------------------------------------ */

/* Terraform's schemaForOverrides: in an override file every argument is
** optional (an override sets only what it changes). */
static const HclBodySchema *for_override(Loader *L, const HclBodySchema *s)
{
  if (!L->override)
    return s;
  HclAttrSchema *as = ARENA_NEW(L->a, HclAttrSchema, s->nattrs + 1);
  for (uint32_t i = 0; i < s->nattrs; i++)
    as[i] = (HclAttrSchema){s->attrs[i].name, false};
  HclBodySchema *o = ARENA_NEW(L->a, HclBodySchema, 1);
  *o = *s;
  o->attrs = as;
  return o;
}

static void decode_terraform(Loader *L, const HclBlock *b)
{
  static const HclAttrSchema as[] = {
      {"required_version", false}, {"experiments", false}, {"language", false}};
  static const char *const one[] = {"type"};
  static const char *const prov[] = {"provider"};
  static const HclBlockSchema bs[] = {{"backend", one, 1},
                                      {"cloud", NULL, 0},
                                      {"required_providers", NULL, 0},
                                      {"provider_meta", prov, 1},
                                      {"encryption", NULL, 0}};
  static const HclBodySchema s = {as, 3, bs, 5};
  HclBodyContent c;
  hcl_body_content(L->a, b->body, &s, &c, L->d);
  CfgModule *m = L->m;
  HclAttribute *rv = hcl_content_attr(&c, "required_version");
  const char *v;
  if (rv && const_string(L, rv, &v))
    *CFG_PUSH(L, L->rv, L->nrv, L->cap_rv) =
        (CfgVersionReq){v, rv->expr->range};
  for (uint32_t i = 0; i < c.nblocks; i++) {
    HclBlock *blk = c.blocks[i];
    if (strcmp(blk->type, "backend") == 0) {
      if (m->backend) {
        diag_error(L->d, &blk->type_range, "Duplicate backend configuration",
                   "A module may have only one backend configuration. The "
                   "backend was previously configured at %s.",
                   cfg_pos_string(L->a, m->backend->range));
        continue;
      }
      m->backend = ARENA_NEW(L->a, CfgBackend, 1);
      m->backend->type = blk->labels[0];
      m->backend->body = blk->body;
      m->backend->range = block_header_range(blk);
      m->backend->type_range = blk->label_ranges[0];
    } else if (strcmp(blk->type, "cloud") == 0) {
      diag_error(L->d, &blk->type_range, "Unsupported cloud block",
                 "cairn runs without network access to HCP Terraform; use a "
                 "local state or the http backend.");
    } else if (strcmp(blk->type, "required_providers") == 0) {
      HclAttribute **attrs;
      uint32_t n;
      hcl_body_just_attributes(L->a, blk->body, &attrs, &n, L->d);
      for (uint32_t k = 0; k < n; k++) {
        CfgRequiredProvider *rp = CFG_PUSH(L, m->required_providers,
                                       m->nrequired_providers, L->cap_req);
        rp->local_name = attrs[k]->name;
        rp->range = attrs[k]->range;
        const HclExpr *e = hcl_expr_unwrap(
            hcl_json_to_expr(L->a, attrs[k]->expr, false, L->d));
        if (e->kind == HCL_E_OBJECT) {
          for (uint32_t j = 0; j < e->u.object.n; j++) {
            const HclObjectItem *it = &e->u.object.items[j];
            const char *key = it->key_name;
            if (!key) {
              Value kv;
              EvalCtx ctx;
              eval_ctx_init(&ctx, L->a, L->d);
              ctx.no_vars = true;
              if (eval_expr(&ctx, it->key, &kv) &&
                  kv.type->kind == TY_STRING && val_is_known(kv) &&
                  !val_is_null(kv))
                key = kv.u.s;
            }
            if (!key)
              continue;
            if (strcmp(key, "configuration_aliases") == 0)
              continue;
            HclAttribute fake = {key, it->value, it->value->range,
                                 it->value->range};
            const char *sv;
            if (strcmp(key, "source") == 0 && const_string(L, &fake, &sv))
              rp->source = sv;
            else if (strcmp(key, "version") == 0 &&
                     const_string(L, &fake, &sv))
              rp->version = sv;
            else if (strcmp(key, "source") && strcmp(key, "version"))
              diag_error(L->d, &it->key->range, "Invalid required_providers "
                         "object", "required_providers objects can only "
                         "contain \"version\", \"source\" and "
                         "\"configuration_aliases\" attributes. To configure "
                         "a provider, use a \"provider\" block.");
          }
        } else {
          const char *sv;
          if (const_string(L, attrs[k], &sv))
            rp->version = sv;   /* legacy: just a version constraint */
        }
        if (!rp->source)
          rp->source = arena_printf(L->a, "hashicorp/%s", rp->local_name);
      }
    }
  }
}

static void decode_provider(Loader *L, const HclBlock *b)
{
  static const HclAttrSchema as[] = {{"alias", false}, {"version", false}};
  static const HclBodySchema s = {as, 2, NULL, 0};
  HclBodyContent c;
  HclBody *remain = NULL;
  hcl_body_partial_content(L->a, b->body, &s, &c, &remain, L->d);
  CfgModule *m = L->m;
  CfgProvider p = {b->labels[0], NULL, remain, block_header_range(b), NULL};
  HclAttribute *al = hcl_content_attr(&c, "alias");
  if (al) {
    const char *kw = hcl_expr_as_keyword(L->a, al->expr);
    const char *sv = kw;
    if (!sv && !const_string(L, al, &sv))
      sv = NULL;
    if (sv && !valid_identifier(sv)) {
      diag_error(L->d, &al->expr->range, "Invalid provider configuration "
                 "alias", "An alias must be a valid name.");
      sv = NULL;
    }
    p.alias = sv;
  }
  HclAttribute *ver = hcl_content_attr(&c, "version");
  if (ver && !const_string(L, ver, &p.version))
    p.version = NULL;
  if (ver)
    diag_warning(L->d, &ver->range,
                 "Version constraints inside provider configuration blocks "
                 "are deprecated",
                 "cairn ignores the version argument in provider blocks; use "
                 "required_providers in the terraform block instead.");
  for (uint32_t i = 0; i < m->nproviders; i++) {
    const CfgProvider *o = &m->providers[i];
    bool same_alias = (!o->alias && !p.alias) ||
                      (o->alias && p.alias && strcmp(o->alias, p.alias) == 0);
    if (strcmp(o->name, p.name) == 0 && same_alias) {
      if (p.alias)
        diag_error(L->d, &p.range, "Duplicate provider configuration",
                   "A provider configuration for \"%s\" with alias \"%s\" "
                   "was already given at %s. Each configuration for the same "
                   "provider must have a distinct alias.", p.name, p.alias,
                   cfg_pos_string(L->a, o->range));
      else
        diag_error(L->d, &p.range, "Duplicate provider configuration",
                   "A default (non-aliased) provider configuration for \"%s\" "
                   "was already given at %s. If multiple configurations are "
                   "required, set the \"alias\" argument for alternative "
                   "configurations.", p.name, cfg_pos_string(L->a, o->range));
      return;
    }
  }
  *CFG_PUSH(L, m->providers, m->nproviders, L->cap_prov) = p;
}

static const char *const reserved_var_names[] = {
    "count", "depends_on", "for_each", "lifecycle", "providers", "source",
    "version", "locals"};

static void decode_variable(Loader *L, const HclBlock *b)
{
  static const HclAttrSchema as[] = {
      {"description", false}, {"default", false}, {"type", false},
      {"sensitive", false},   {"nullable", false}, {"ephemeral", false}};
  static const HclBlockSchema bs[] = {{"validation", NULL, 0}};
  static const HclBodySchema s = {as, 6, bs, 1};
  HclBodyContent c;
  hcl_body_content(L->a, b->body, &s, &c, L->d);
  CfgModule *m = L->m;
  CfgVariable v = {0};
  v.name = b->labels[0];
  v.range = block_header_range(b);
  v.nullable = true;
  v.type = &ty_dynamic;
  if (!check_name(L, b, "variable"))
    return;
  for (size_t i = 0; i < sizeof reserved_var_names / sizeof *reserved_var_names;
       i++)
    if (strcmp(v.name, reserved_var_names[i]) == 0)
      diag_error(L->d, &b->label_ranges[0], "Invalid variable name",
                 "The variable name \"%s\" is reserved due to its special "
                 "meaning inside module blocks.", v.name);
  const CfgVariable *old = cfg_variable(m, v.name);
  if (old) {
    diag_error(L->d, &v.range, "Duplicate variable declaration",
               "A variable named \"%s\" was already declared at %s. Variable "
               "names must be unique within a module.", v.name,
               cfg_pos_string(L->a, old->range));
    return;
  }
  HclAttribute *at;
  if ((at = hcl_content_attr(&c, "description")))
    const_string(L, at, &v.description);
  if ((at = hcl_content_attr(&c, "sensitive")))
    v.sensitive_set = const_bool(L, at, &v.sensitive);
  if ((at = hcl_content_attr(&c, "nullable")))
    v.nullable_set = const_bool(L, at, &v.nullable);
  if ((at = hcl_content_attr(&c, "ephemeral")))
    const_bool(L, at, &v.ephemeral);
  if ((at = hcl_content_attr(&c, "type"))) {
    const HclExpr *te = hcl_json_to_expr(L->a, at->expr, false, L->d);
    if (eval_type_constraint(L->a, te, &v.type, L->d))
      v.type_given = true;
    else
      v.type = &ty_dynamic;
  }
  if ((at = hcl_content_attr(&c, "default"))) {
    v.default_expr = at->expr;
    Value dv;
    if (const_value(L, at, &dv)) {
      v.has_default = true;
      v.default_val = dv;
      if (v.type_given && !val_is_null(dv)) {
        ConvError ce;
        Value conv;
        /* Terraform converts a default as it converts -var, tfvars and
        ** module arguments (convert.Convert, with the type's optional
        ** attribute defaults): "1500" becomes a number, "true" a bool,
        ** and nulls inside collections stay. */
        if (conv_convert(L->a, dv, v.type, true, &conv, &ce)) {
          v.default_val = conv;
        } else {
          Buf eb;
          buf_init(&eb, L->a);
          conv_error_format(&eb, &ce);
          diag_error(L->d, &at->expr->range, "Invalid default value for "
                     "variable", "This default value is not compatible with "
                     "the variable's type constraint: %s.", buf_str(&eb));
        }
      }
      if (val_is_null(dv) && !v.nullable)
        diag_error(L->d, &at->expr->range, "Invalid default value for "
                   "variable", "A null default value is not valid when "
                   "nullable=false.");
    } else {
      v.has_default = true;   /* keep going: the error is already reported */
      v.default_val = val_null(v.type);
    }
  }
  rules(L, c.blocks, c.nblocks, "validation", &v.validations);
  *CFG_PUSH(L, m->variables, m->nvariables, L->cap_vars) = v;
  cfg_ix_add(L, IX_VAR);
}

static void decode_locals(Loader *L, const HclBlock *b)
{
  HclAttribute **attrs;
  uint32_t n;
  hcl_body_just_attributes(L->a, b->body, &attrs, &n, L->d);
  CfgModule *m = L->m;
  for (uint32_t i = 0; i < n; i++) {
    const CfgLocal *old = cfg_local(m, attrs[i]->name);
    if (old) {
      diag_error(L->d, &attrs[i]->name_range, "Duplicate local value "
                 "definition", "A local value named \"%s\" was already "
                 "defined at %s. Local value names must be unique within a "
                 "module.", attrs[i]->name, cfg_pos_string(L->a, old->range));
      continue;
    }
    if (!valid_identifier(attrs[i]->name)) {
      diag_error(L->d, &attrs[i]->name_range, "Invalid local value name",
                 "A name must start with a letter or underscore and may "
                 "contain only letters, digits, underscores, and dashes.");
      continue;
    }
    CfgLocal *l = CFG_PUSH(L, m->locals, m->nlocals, L->cap_locals);
    l->name = attrs[i]->name;
    l->expr = attrs[i]->expr;
    l->range = attrs[i]->name_range;
    cfg_ix_add(L, IX_LOCAL);
  }
}

static void decode_output(Loader *L, const HclBlock *b)
{
  static const HclAttrSchema as[] = {{"description", false},
                                     {"value", true},
                                     {"sensitive", false},
                                     {"depends_on", false},
                                     {"ephemeral", false}};
  static const HclBlockSchema bs[] = {{"precondition", NULL, 0}};
  static const HclBodySchema s = {as, 5, bs, 1};
  HclBodyContent c;
  hcl_body_content(L->a, b->body, for_override(L, &s), &c, L->d);
  CfgModule *m = L->m;
  CfgOutput o = {0};
  o.name = b->labels[0];
  o.range = block_header_range(b);
  if (!check_name(L, b, "output"))
    return;
  const CfgOutput *old = cfg_output(m, o.name);
  if (old) {
    diag_error(L->d, &o.range, "Duplicate output definition",
               "An output named \"%s\" was already defined at %s. Output "
               "names must be unique within a module.", o.name,
               cfg_pos_string(L->a, old->range));
    return;
  }
  HclAttribute *at;
  if ((at = hcl_content_attr(&c, "value")))
    o.expr = at->expr;
  if ((at = hcl_content_attr(&c, "description")))
    const_string(L, at, &o.description);
  if ((at = hcl_content_attr(&c, "sensitive")))
    o.sensitive_set = const_bool(L, at, &o.sensitive);
  if ((at = hcl_content_attr(&c, "ephemeral")))
    const_bool(L, at, &o.ephemeral);
  if ((at = hcl_content_attr(&c, "depends_on")))
    traversal_list(L, at, &o.depends_on);
  rules(L, c.blocks, c.nblocks, "precondition", &o.preconditions);
  *CFG_PUSH(L, m->outputs, m->noutputs, L->cap_outputs) = o;
  cfg_ix_add(L, IX_OUTPUT);
}

static void decode_provisioner(Loader *L, const HclBlock *b,
                               CfgProvisioner *out)
{
  static const HclAttrSchema as[] = {{"when", false}, {"on_failure", false}};
  static const HclBlockSchema bs[] = {{"connection", NULL, 0}};
  static const HclBodySchema s = {as, 2, bs, 1};
  HclBodyContent c;
  HclBody *remain = NULL;
  hcl_body_partial_content(L->a, b->body, &s, &c, &remain, L->d);
  memset(out, 0, sizeof *out);
  out->type = b->labels[0];
  out->body = remain;
  out->range = block_header_range(b);
  HclAttribute *at;
  if ((at = hcl_content_attr(&c, "when"))) {
    const char *kw = hcl_expr_as_keyword(L->a, at->expr);
    if (kw && strcmp(kw, "destroy") == 0)
      out->when_destroy = true;
    else if (!kw || strcmp(kw, "create") != 0)
      diag_error(L->d, &at->expr->range, "Invalid \"when\" keyword",
                 "The \"when\" argument requires one of the following "
                 "keywords: create or destroy.");
  }
  if ((at = hcl_content_attr(&c, "on_failure"))) {
    const char *kw = hcl_expr_as_keyword(L->a, at->expr);
    if (kw && strcmp(kw, "continue") == 0)
      out->on_failure_continue = true;
    else if (!kw || strcmp(kw, "fail") != 0)
      diag_error(L->d, &at->expr->range, "Invalid \"on_failure\" keyword",
                 "The \"on_failure\" argument requires one of the following "
                 "keywords: continue or fail.");
  }
  for (uint32_t i = 0; i < c.nblocks; i++)
    out->connection = c.blocks[i]->body;
}

static void decode_lifecycle(Loader *L, CfgResource *r, const HclBlock *b)
{
  static const HclAttrSchema mas[] = {{"create_before_destroy", false},
                                      {"prevent_destroy", false},
                                      {"ignore_changes", false},
                                      {"replace_triggered_by", false},
                                      {"enabled", false}};
  static const HclAttrSchema das[] = {{"enabled", false}};
  static const HclBlockSchema bs[] = {{"precondition", NULL, 0},
                                      {"postcondition", NULL, 0},
                                      {"action_trigger", NULL, 0}};
  static const HclBodySchema ms = {mas, 5, bs, 3};
  static const HclBodySchema ds = {das, 1, bs, 2};
  HclBodyContent c;
  hcl_body_content(L->a, b->body, r->mode == CFG_MANAGED ? &ms : &ds, &c,
                   L->d);
  HclAttribute *at;
  if ((at = hcl_content_attr(&c, "create_before_destroy"))) {
    if (const_bool(L, at, &r->create_before_destroy))
      r->create_before_destroy_set = true;
  }
  if ((at = hcl_content_attr(&c, "prevent_destroy")))
    r->prevent_destroy_set = const_bool(L, at, &r->prevent_destroy);
  if ((at = hcl_content_attr(&c, "enabled")))
    r->enabled = at->expr;
  if ((at = hcl_content_attr(&c, "ignore_changes"))) {
    const char *kw = hcl_expr_as_keyword(L->a, at->expr);
    const HclExpr **items;
    uint32_t n;
    if (kw && strcmp(kw, "all") == 0) {
      r->ignore_all_changes = true;
    } else if (!expr_list(L, at->expr, &items, &n)) {
      diag_error(L->d, &at->expr->range, "Invalid ignore_changes argument",
                 "The ignore_changes argument must be a list of attribute "
                 "references, or the keyword \"all\".");
    } else {
      traversal_list(L, at, &r->ignore_changes);
    }
  }
  if ((at = hcl_content_attr(&c, "replace_triggered_by"))) {
    const HclExpr **items;
    uint32_t n;
    if (!expr_list(L, at->expr, &items, &n)) {
      diag_error(L->d, &at->expr->range,
                 "Invalid replace_triggered_by expression",
                 "A static list expression is required.");
    } else {
      /* JSON items are native expressions in strings (decodeReplace-
      ** TriggeredBy converts each one). */
      const HclExpr **x = ARENA_NEW(L->a, const HclExpr *, n ? n : 1);
      uint32_t k = 0;
      for (uint32_t i = 0; i < n; i++)
        if ((x[k] = json_native(L, items[i], L->d)))
          k++;
      r->replace_triggered_by = x;
      r->nreplace_triggered_by = k;
    }
  }
  rules(L, c.blocks, c.nblocks, "precondition", &r->preconditions);
  rules(L, c.blocks, c.nblocks, "postcondition", &r->postconditions);
  for (uint32_t i = 0; i < c.nblocks; i++)
    if (strcmp(c.blocks[i]->type, "action_trigger") == 0)
      cfg_decode_action_trigger(L, r, c.blocks[i]);
}

static void decode_resource(Loader *L, const HclBlock *b, CfgMode mode)
{
  static const HclAttrSchema as[] = {{"count", false},
                                     {"for_each", false},
                                     {"provider", false},
                                     {"depends_on", false}};
  static const char *const type_label[] = {"type"};
  static const HclBlockSchema mbs[] = {{"lifecycle", NULL, 0},
                                       {"connection", NULL, 0},
                                       {"provisioner", type_label, 1},
                                       {"_", NULL, 0}};
  static const HclBodySchema ms = {as, 4, mbs, 4};
  static const HclBodySchema ds = {as, 4, mbs, 1};
  HclBodyContent c;
  HclBody *remain = NULL;
  hcl_body_partial_content(L->a, b->body, mode == CFG_MANAGED ? &ms : &ds, &c,
                           &remain, L->d);
  CfgModule *m = L->m;
  CfgResource r = {0};
  r.mode = mode;
  r.type = b->labels[0];
  r.name = b->labels[1];
  r.body = remain;
  r.range = block_header_range(b);
  r.type_range = b->label_ranges[0];
  if (!valid_identifier(r.type)) {
    diag_error(L->d, &b->label_ranges[0], "Invalid resource type name",
               "A name must start with a letter or underscore and may "
               "contain only letters, digits, underscores, and dashes.");
    return;
  }
  if (!check_name(L, b, "resource"))
    return;
  HclAttribute *at;
  HclAttribute *cnt = hcl_content_attr(&c, "count");
  HclAttribute *fe = hcl_content_attr(&c, "for_each");
  if (cnt)
    r.count = cnt->expr;
  if (fe)
    r.for_each = fe->expr;
  if (cnt && fe)
    diag_error(L->d, &fe->name_range, "Invalid combination of \"count\" and "
               "\"for_each\"", "The \"count\" and \"for_each\" meta-arguments "
               "are mutually-exclusive, only one should be used to be "
               "explicit about the number of resources to be created.");
  if ((at = hcl_content_attr(&c, "provider")))
    provider_ref(L, at->expr, "provider", &r.provider);
  if ((at = hcl_content_attr(&c, "depends_on")))
    traversal_list(L, at, &r.depends_on);
  bool seen_lifecycle = false, seen_connection = false;
  for (uint32_t i = 0; i < c.nblocks; i++) {
    HclBlock *blk = c.blocks[i];
    if (strcmp(blk->type, "lifecycle") == 0) {
      if (seen_lifecycle) {
        diag_error(L->d, &blk->type_range, "Duplicate lifecycle block",
                   "This resource already has a lifecycle block.");
        continue;
      }
      seen_lifecycle = true;
      decode_lifecycle(L, &r, blk);
    } else if (strcmp(blk->type, "connection") == 0) {
      if (seen_connection) {
        diag_error(L->d, &blk->type_range, "Duplicate connection block",
                   "This resource already has a connection block.");
        continue;
      }
      seen_connection = true;
      r.connection = blk->body;
    } else if (strcmp(blk->type, "provisioner") == 0) {
      r.provisioners = arena_grow(L->a, r.provisioners, sizeof(CfgProvisioner),
                                  _Alignof(CfgProvisioner), r.nprovisioners,
                                  r.nprovisioners + 1);
      decode_provisioner(L, blk, &r.provisioners[r.nprovisioners++]);
    } else if (strcmp(blk->type, "_") == 0) {
      diag_error(L->d, &blk->type_range, "Unsupported block type",
                 "cairn does not support the \"_\" escaping block yet.");
    }
  }
  const CfgResource *old = cfg_resource(m, mode, r.type, r.name);
  if (old) {
    const char *kind = mode == CFG_MANAGED ? "resource"
                       : mode == CFG_DATA  ? "data"
                                           : "ephemeral";
    diag_error(L->d, &r.range,
               arena_printf(L->a, "Duplicate %s \"%s\" configuration", kind,
                            r.type),
               "A %s %sresource named \"%s\" was already declared at %s. "
               "Resource names must be unique per type in each module.",
               r.type, mode == CFG_EPHEMERAL ? "ephemeral " : "", r.name,
               cfg_pos_string(L->a, old->range));
    return;
  }
  *CFG_PUSH(L, m->resources, m->nresources, L->cap_res) = r;
  cfg_ix_add(L, IX_RES);
}

/* hcl.ExprMap over `providers = { child = parent }`: both sides are
** provider references; in JSON both are strings holding them. */
static void providers_map(Loader *L, const HclExpr *x, CfgModuleCall *mc)
{
  const HclExpr *e = hcl_expr_unwrap(x);
  const HclJsonValue *jv = e->kind == HCL_E_JSON ? e->u.json : NULL;
  if (jv ? jv->kind != HCL_J_OBJECT : e->kind != HCL_E_OBJECT) {
    diag_error(L->d, &e->range, "Invalid providers argument",
               "The providers argument must be a map of provider "
               "references, like { aws = aws.west }.");
    return;
  }
  uint32_t n = jv ? jv->u.obj.n : e->u.object.n;
  mc->providers = arena_alloc(L->a, sizeof *mc->providers,
                              _Alignof(__typeof__(*mc->providers)),
                              n ? n : 1);
  for (uint32_t i = 0; i < n; i++) {
    const HclExpr *k, *v;
    if (jv) {
      const HclJsonProp *pp = &jv->u.obj.props[i];
      HclJsonValue *kv = ARENA_NEW(L->a, HclJsonValue, 1);
      kv->kind = HCL_J_STRING;
      kv->range = pp->name_range;
      kv->u.str.s = pp->name;
      kv->u.str.len = pp->name_len;
      k = json_expr(L, kv);
      v = json_expr(L, pp->value);
    } else {
      k = e->u.object.items[i].key;
      v = e->u.object.items[i].value;
    }
    CfgProviderRef in_child = {0}, in_parent = {0};
    provider_ref(L, k, "providers", &in_child);
    provider_ref(L, v, "providers", &in_parent);
    if (!in_child.name || !in_parent.name)
      continue;
    bool dup = false;
    for (uint32_t j = 0; j < mc->nproviders && !dup; j++) {
      const CfgProviderRef *o = &mc->providers[j].in_child;
      SrcRange prev =
          diag_range_join(o->range, mc->providers[j].in_parent.range);
      if (strcmp(o->name, in_child.name) == 0 &&
          !strcmp(o->alias ? o->alias : "", in_child.alias ? in_child.alias
                                                           : "")) {
        dup = true;
        diag_error(L->d, &v->range, "Duplicate provider address",
                   "A provider configuration was already passed to %s%s%s "
                   "at %s. Each child provider configuration can be "
                   "assigned only once.", in_child.name,
                   in_child.alias ? "." : "",
                   in_child.alias ? in_child.alias : "",
                   cfg_pos_string(L->a, prev));
      }
    }
    if (dup)
      continue;
    mc->providers[mc->nproviders].in_child = in_child;
    mc->providers[mc->nproviders].in_parent = in_parent;
    mc->nproviders++;
  }
}

static void decode_module(Loader *L, const HclBlock *b)
{
  static const HclAttrSchema as[] = {{"source", true},   {"version", false},
                                     {"count", false},   {"for_each", false},
                                     {"depends_on", false},
                                     {"providers", false}};
  static const HclBlockSchema bs[] = {{"lifecycle", NULL, 0},
                                      {"locals", NULL, 0},
                                      {"provider", NULL, 0}};
  static const HclBodySchema s = {as, 6, bs, 3};
  HclBodyContent c;
  HclBody *remain = NULL;
  hcl_body_partial_content(L->a, b->body, for_override(L, &s), &c, &remain,
                           L->d);
  CfgModule *m = L->m;
  CfgModuleCall mc = {0};
  mc.name = b->labels[0];
  mc.body = remain;
  mc.range = block_header_range(b);
  if (!check_name(L, b, "module"))
    return;
  for (uint32_t i = 0; i < c.nblocks; i++)
    diag_error(L->d, &c.blocks[i]->type_range, "Reserved block type name in "
               "module block", "The block type name \"%s\" is reserved for "
               "use by cairn in a future version.", c.blocks[i]->type);
  HclAttribute *at;
  if ((at = hcl_content_attr(&c, "source"))) {
    mc.source_range = at->expr->range;
    const_string(L, at, &mc.source);
  }
  if ((at = hcl_content_attr(&c, "version")))
    const_string(L, at, &mc.version);
  HclAttribute *cnt = hcl_content_attr(&c, "count");
  HclAttribute *fe = hcl_content_attr(&c, "for_each");
  if (cnt)
    mc.count = cnt->expr;
  if (fe)
    mc.for_each = fe->expr;
  if (cnt && fe)
    diag_error(L->d, &fe->name_range, "Invalid combination of \"count\" and "
               "\"for_each\"", "The \"count\" and \"for_each\" meta-arguments "
               "are mutually-exclusive, only one should be used to be "
               "explicit about the number of resources to be created.");
  if ((at = hcl_content_attr(&c, "depends_on")))
    traversal_list(L, at, &mc.depends_on);
  if ((at = hcl_content_attr(&c, "providers")))
    providers_map(L, at->expr, &mc);
  const CfgModuleCall *old = cfg_call(m, mc.name);
  if (old) {
    diag_error(L->d, &mc.range, "Duplicate module call",
               "A module call named \"%s\" was already defined at %s. Module "
               "calls must have unique names within a module.", mc.name,
               cfg_pos_string(L->a, old->range));
    return;
  }
  *CFG_PUSH(L, m->calls, m->ncalls, L->cap_calls) = mc;
  cfg_ix_add(L, IX_CALL);
}

static bool traversal_attr(Loader *L, const HclBodyContent *c,
                           const char *name, HclTraversal *out)
{
  HclAttribute *at = hcl_content_attr(c, name);
  if (!at)
    return false;
  Diags tmp;
  diag_init(&tmp, L->a);
  if (abs_traversal(L, at->expr, out, &tmp))
    return true;
  diag_error(L->d, &at->expr->range, "Invalid expression", "%s",
             STATIC_REF_DETAIL);
  return false;
}

static void decode_moved(Loader *L, const HclBlock *b)
{
  static const HclAttrSchema as[] = {{"from", true}, {"to", true}};
  static const HclBodySchema s = {as, 2, NULL, 0};
  HclBodyContent c;
  hcl_body_content(L->a, b->body, &s, &c, L->d);
  CfgMoved mv = {0};
  mv.range = b->type_range;
  if (traversal_attr(L, &c, "from", &mv.from) &&
      traversal_attr(L, &c, "to", &mv.to))
    *CFG_PUSH(L, L->m->moved, L->m->nmoved, L->cap_moved) = mv;
}

static void decode_removed(Loader *L, const HclBlock *b)
{
  static const HclAttrSchema as[] = {{"from", true}};
  static const char *const type_label[] = {"type"};
  static const HclBlockSchema bs[] = {{"lifecycle", NULL, 0},
                                      {"provisioner", type_label, 1},
                                      {"connection", NULL, 0}};
  static const HclBodySchema s = {as, 1, bs, 3};
  static const HclAttrSchema las[] = {{"destroy", false}};
  static const HclBodySchema ls = {las, 1, NULL, 0};
  HclBodyContent c;
  hcl_body_content(L->a, b->body, &s, &c, L->d);
  CfgRemoved rm = {0};
  rm.range = b->type_range;
  rm.destroy = true;
  if (!traversal_attr(L, &c, "from", &rm.from))
    return;
  for (uint32_t i = 0; i < c.nblocks; i++) {
    HclBlock *blk = c.blocks[i];
    if (strcmp(blk->type, "lifecycle") == 0) {
      HclBodyContent lc;
      hcl_body_content(L->a, blk->body, &ls, &lc, L->d);
      HclAttribute *at = hcl_content_attr(&lc, "destroy");
      if (at)
        const_bool(L, at, &rm.destroy);
    } else if (strcmp(blk->type, "provisioner") == 0) {
      rm.provisioners = arena_grow(L->a, rm.provisioners,
                                   sizeof(CfgProvisioner),
                                   _Alignof(CfgProvisioner), rm.nprovisioners,
                                   rm.nprovisioners + 1);
      decode_provisioner(L, blk, &rm.provisioners[rm.nprovisioners++]);
    }
  }
  *CFG_PUSH(L, L->m->removed, L->m->nremoved, L->cap_removed) = rm;
}

static void decode_import(Loader *L, const HclBlock *b)
{
  static const HclAttrSchema as[] = {{"to", true},       {"id", false},
                                     {"identity", false}, {"for_each", false},
                                     {"provider", false}};
  static const HclBodySchema s = {as, 5, NULL, 0};
  HclBodyContent c;
  hcl_body_content(L->a, b->body, &s, &c, L->d);
  CfgImport im = {0};
  im.range = b->type_range;
  HclAttribute *at;
  if ((at = hcl_content_attr(&c, "to")))
    im.to = json_native(L, at->expr, L->d);   /* may hold each.key */
  if ((at = hcl_content_attr(&c, "id")))
    im.id = at->expr;
  if ((at = hcl_content_attr(&c, "identity")))
    im.identity = at->expr;
  if ((at = hcl_content_attr(&c, "for_each")))
    im.for_each = at->expr;
  if ((at = hcl_content_attr(&c, "provider")))
    provider_ref(L, at->expr, "provider", &im.provider);
  if (!im.id && !im.identity && im.to)
    diag_error(L->d, &im.range, "Missing required argument",
               "The argument \"id\" or \"identity\" is required.");
  if (im.to)
    *CFG_PUSH(L, L->m->imports, L->m->nimports, L->cap_imports) = im;
}

static void decode_check(Loader *L, const HclBlock *b)
{
  static const char *const two[] = {"type", "name"};
  static const HclBlockSchema bs[] = {{"data", two, 2}, {"assert", NULL, 0}};
  static const HclBodySchema s = {NULL, 0, bs, 2};
  HclBodyContent c;
  hcl_body_content(L->a, b->body, &s, &c, L->d);
  CfgCheck ck = {0};
  ck.name = b->labels[0];
  ck.range = block_header_range(b);
  rules(L, c.blocks, c.nblocks, "assert", &ck.asserts);
  for (uint32_t i = 0; i < L->m->nchecks; i++)
    if (strcmp(L->m->checks[i].name, ck.name) == 0) {
      diag_error(L->d, &ck.range, "Duplicate check block",
                 "A check block named \"%s\" was already defined at %s.",
                 ck.name, cfg_pos_string(L->a, L->m->checks[i].range));
      return;
    }
  if (ck.asserts.n == 0)
    diag_error(L->d, &ck.range, "Missing required block",
               "A check block must contain at least one assert block.");
  *CFG_PUSH(L, L->m->checks, L->m->nchecks, L->cap_checks) = ck;
}

void cfg_check_versions(Loader *L)
{
  CfgModule *m = L->m;
  m->required_versions = ARENA_NEW(L->a, const char *, L->nrv ? L->nrv : 1);
  m->nrequired_versions = L->nrv;
  for (uint32_t i = 0; i < L->nrv; i++) {
    const CfgVersionReq *r = &L->rv[i];
    m->required_versions[i] = r->constraint;
    /* Terraform checks every module's required_version against its own
    ** version before anything else uses the configuration. */
    int ok = pver_tf_match(r->constraint, CFG_TERRAFORM_VERSION);
    if (ok < 0)
      diag_error(L->d, &r->range, "Invalid version constraint",
                 "This string does not use correct version constraint "
                 "syntax.");
    else if (ok == 0)
      diag_error(L->d, &r->range, "Unsupported Terraform Core version",
                 "This configuration does not support Terraform version %s. "
                 "To proceed, either choose another supported Terraform "
                 "version or update this version constraint. Version "
                 "constraints are normally set for good reason, so updating "
                 "the constraint may lead to other errors or unexpected "
                 "behavior.", CFG_TERRAFORM_VERSION);
  }
}

void cfg_decode_file(Loader *L, HclFile *f)
{
  static const char *const name[] = {"name"};
  static const char *const type_name[] = {"type", "name"};
  static const HclBlockSchema bs[] = {
      {"terraform", NULL, 0}, {"required_providers", NULL, 0},
      {"provider", name, 1},  {"variable", name, 1},
      {"locals", NULL, 0},    {"output", name, 1},
      {"module", name, 1},    {"resource", type_name, 2},
      {"data", type_name, 2}, {"ephemeral", type_name, 2},
      {"moved", NULL, 0},     {"import", NULL, 0},
      {"check", name, 1},     {"removed", NULL, 0},
      {"action", type_name, 2}};
  static const HclBodySchema s = {NULL, 0, bs, sizeof bs / sizeof *bs};
  HclBodyContent c;
  hcl_body_content(L->a, f->body, &s, &c, L->d);
  for (uint32_t i = 0; i < c.nblocks; i++) {
    HclBlock *b = c.blocks[i];
    const char *t = b->type;
    if (strcmp(t, "terraform") == 0)
      decode_terraform(L, b);
    else if (strcmp(t, "required_providers") == 0)
      diag_error(L->d, &b->type_range, "Invalid required_providers block",
                 "A \"required_providers\" block must be nested inside a "
                 "\"terraform\" block.");
    else if (strcmp(t, "provider") == 0)
      decode_provider(L, b);
    else if (strcmp(t, "variable") == 0)
      decode_variable(L, b);
    else if (strcmp(t, "locals") == 0)
      decode_locals(L, b);
    else if (strcmp(t, "output") == 0)
      decode_output(L, b);
    else if (strcmp(t, "module") == 0)
      decode_module(L, b);
    else if (strcmp(t, "resource") == 0)
      decode_resource(L, b, CFG_MANAGED);
    else if (strcmp(t, "data") == 0)
      decode_resource(L, b, CFG_DATA);
    else if (strcmp(t, "ephemeral") == 0)
      decode_resource(L, b, CFG_EPHEMERAL);
    else if (strcmp(t, "moved") == 0)
      decode_moved(L, b);
    else if (strcmp(t, "import") == 0)
      decode_import(L, b);
    else if (strcmp(t, "check") == 0)
      decode_check(L, b);
    else if (strcmp(t, "removed") == 0)
      decode_removed(L, b);
    else if (strcmp(t, "action") == 0)
      cfg_decode_action(L, b);
  }
}

/* The helpers config_action.c shares (config_priv.h). */
const HclExpr *cfg_json_native(Loader *L, const HclExpr *e, Diags *d)
{
  return json_native(L, e, d);
}

bool cfg_expr_list(Loader *L, const HclExpr *e, const HclExpr ***items,
                   uint32_t *n)
{
  return expr_list(L, e, items, n);
}

void cfg_provider_ref(Loader *L, const HclExpr *x, const char *arg,
                      CfgProviderRef *r)
{
  provider_ref(L, x, arg, r);
}

bool cfg_valid_identifier(const char *s)
{
  return valid_identifier(s);
}
