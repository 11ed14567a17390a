/*
** gateway_calls.c: one protocol call (JSON, docs/provider-protocol.md)
** translated into the plugin client's Prov call and the answer back.  The
** request is decoded as strictly as prov_https.c decodes answers: a value
** that does not fit the schema is a 400, never a guess.
*/
#include <string.h>

#include "gateway_priv.h"
#include "prov_https.h"

static const char *const calls[] = {
    "GetProviderSchema",   "ValidateProviderConfig",
    "ValidateResourceConfig", "ValidateDataResourceConfig",
    "UpgradeResourceState", "ConfigureProvider",
    "ReadResource",        "PlanResourceChange",
    "ApplyResourceChange", "ImportResourceState",
    "ReadDataSource",      "StopProvider",
    "CallFunction",        "MoveResourceState",
    "ValidateEphemeralResourceConfig", "OpenEphemeralResource",
    "RenewEphemeralResource", "CloseEphemeralResource"};

bool gw_known_call(const char *call)
{
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
    if (strcmp(calls[i], call) == 0)
      return true;
  return false;
}

Value gw_jget(Value obj, const char *key)
{
  Value none = {0};
  if (!obj.type || obj.type->kind != TY_OBJECT || val_is_null(obj))
    return none;
  int i = ty_attr_index(obj.type, key);
  return i < 0 ? none : obj.u.elems[i];
}

/* ---- the schema answer ---------------------------------------------------- */

static const char *nesting_name(ProvNesting n)
{
  switch (n) {
  case PROV_NEST_SINGLE: return "single";
  case PROV_NEST_LIST: return "list";
  case PROV_NEST_SET: return "set";
  case PROV_NEST_MAP: return "map";
  case PROV_NEST_GROUP: return "group";
  default: return "single";
  }
}

static void w_block(JsonW *w, const ProvBlockSchema *b);

static void w_attrs(JsonW *w, const ProvAttrSchema *attrs, uint32_t n)
{
  static const struct {
    unsigned flag;
    const char *name;
  } flags[] = {{PROV_REQUIRED, "required"},   {PROV_OPTIONAL, "optional"},
               {PROV_COMPUTED, "computed"},   {PROV_SENSITIVE, "sensitive"},
               {PROV_DEPRECATED, "deprecated"},
               {PROV_WRITE_ONLY, "write_only"}};
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    const ProvAttrSchema *at = &attrs[i];
    json_w_keyz(w, at->name);
    json_w_begin_object(w);
    if (at->nested) {
      json_w_keyz(w, "nested_type");
      json_w_begin_object(w);
      json_w_keyz(w, "nesting_mode");
      json_w_stringz(w, nesting_name(at->nested->nesting));
      json_w_keyz(w, "attributes");
      w_attrs(w, at->nested->attrs, at->nested->nattrs);
      json_w_end_object(w);
    } else {
      json_w_keyz(w, "type");
      json_w_type(w, at->type);
    }
    for (size_t f = 0; f < sizeof flags / sizeof *flags; f++)
      if (at->flags & flags[f].flag) {
        json_w_keyz(w, flags[f].name);
        json_w_bool(w, true);
      }
    if (at->description) {
      json_w_keyz(w, "description");
      json_w_stringz(w, at->description);
    }
    if (at->deprecation_message) {
      json_w_keyz(w, "deprecation_message");
      json_w_stringz(w, at->deprecation_message);
    }
    json_w_end_object(w);
  }
  json_w_end_object(w);
}

static void w_block(JsonW *w, const ProvBlockSchema *b)
{
  json_w_begin_object(w);
  json_w_keyz(w, "attributes");
  w_attrs(w, b->attrs, b->nattrs);
  json_w_keyz(w, "block_types");
  json_w_begin_object(w);
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const ProvNestedBlock *nb = &b->blocks[i];
    json_w_keyz(w, nb->type_name);
    json_w_begin_object(w);
    json_w_keyz(w, "nesting_mode");
    json_w_stringz(w, nesting_name(nb->nesting));
    json_w_keyz(w, "min_items");
    json_w_uint(w, nb->min_items);
    json_w_keyz(w, "max_items");
    json_w_uint(w, nb->max_items);
    json_w_keyz(w, "block");
    w_block(w, nb->block);
    json_w_end_object(w);
  }
  json_w_end_object(w);
  if (b->description) {
    json_w_keyz(w, "description");
    json_w_stringz(w, b->description);
  }
  json_w_keyz(w, "deprecated");
  json_w_bool(w, b->deprecated);
  json_w_end_object(w);
}

static void w_schema(JsonW *w, const ProvSchema *s)
{
  json_w_begin_object(w);
  json_w_keyz(w, "version");
  json_w_int(w, s->version);
  json_w_keyz(w, "block");
  if (s->block) {
    w_block(w, s->block);
  } else {
    json_w_begin_object(w);
    json_w_end_object(w);
  }
  json_w_end_object(w);
}

static void w_types(JsonW *w, const ProvTypeSchema *t, uint32_t n)
{
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    json_w_keyz(w, t[i].type_name);
    w_schema(w, &t[i].schema);
  }
  json_w_end_object(w);
}

/* A function parameter as prov_https.c reads it: {"name", "type",
** "allow_null_value", "allow_unknown_values", "description"}. */
static void w_fn_param(JsonW *w, const ProvFuncParam *pp)
{
  json_w_begin_object(w);
  json_w_keyz(w, "name");
  json_w_stringz(w, pp->name ? pp->name : "");
  json_w_keyz(w, "type");
  json_w_type(w, pp->type);
  json_w_keyz(w, "allow_null_value");
  json_w_bool(w, pp->allow_null_value);
  json_w_keyz(w, "allow_unknown_values");
  json_w_bool(w, pp->allow_unknown_values);
  if (pp->description) {
    json_w_keyz(w, "description");
    json_w_stringz(w, pp->description);
  }
  json_w_end_object(w);
}

/* "functions": {"NAME": {"parameters", "variadic_parameter", "return":
** {"type"}, "summary", "description", "deprecation_message"}}: the
** plugin's provider-defined functions, which the client then calls with
** CallFunction (docs/provider-protocol.md). */
static void w_functions(JsonW *w, const ProvFunction *fs, uint32_t n)
{
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    const ProvFunction *f = &fs[i];
    json_w_keyz(w, f->name);
    json_w_begin_object(w);
    json_w_keyz(w, "parameters");
    json_w_begin_array(w);
    for (uint32_t k = 0; k < f->nparams; k++)
      w_fn_param(w, &f->params[k]);
    json_w_end_array(w);
    if (f->variadic) {
      json_w_keyz(w, "variadic_parameter");
      w_fn_param(w, f->variadic);
    }
    json_w_keyz(w, "return");
    json_w_begin_object(w);
    json_w_keyz(w, "type");
    json_w_type(w, f->return_type);
    json_w_end_object(w);
    static const char *const keys[] = {"summary", "description",
                                       "deprecation_message"};
    const char *vals[] = {f->summary, f->description,
                          f->deprecation_message};
    for (int k = 0; k < 3; k++)
      if (vals[k]) {
        json_w_keyz(w, keys[k]);
        json_w_stringz(w, vals[k]);
      }
    json_w_end_object(w);
  }
  json_w_end_object(w);
}

void gw_write_schema(Buf *out, const ProvProviderSchema *s)
{
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "protocol_version");
  json_w_int(&w, PHTTPS_PROTOCOL_VERSION);
  json_w_keyz(&w, "provider");
  w_schema(&w, &s->provider);
  json_w_keyz(&w, "resource_schemas");
  w_types(&w, s->resources, s->nresources);
  json_w_keyz(&w, "data_source_schemas");
  w_types(&w, s->data_sources, s->ndata_sources);
  if (s->nephemeral_resources) {
    json_w_keyz(&w, "ephemeral_resource_schemas");
    w_types(&w, s->ephemeral_resources, s->nephemeral_resources);
  }
  if (s->nfunctions) {
    json_w_keyz(&w, "functions");
    w_functions(&w, s->functions, s->nfunctions);
  }
  json_w_keyz(&w, "server_capabilities");
  json_w_begin_object(&w);
  json_w_keyz(&w, "plan_destroy");
  json_w_bool(&w, s->plan_destroy);
  json_w_end_object(&w);
  json_w_keyz(&w, "diagnostics");
  json_w_begin_array(&w);
  json_w_end_array(&w);
  json_w_end_object(&w);
}

/* ---- requests ------------------------------------------------------------- */

typedef struct Tx {
  GwCall *g;
  ProvCall c;
  Diags diags;
  Buf *out;
  JsonW w;
  bool failed;               /* a 400 was set */
} Tx;

static void reject(Tx *t, int status, const char *code, const char *msg)
{
  if (t->failed)
    return;
  t->failed = true;
  t->g->status = status;
  t->g->err_code = code;
  t->g->err_msg = msg;
}

static const char *req_string(Tx *t, const char *key)
{
  Value v = gw_jget(t->g->req, key);
  if (!v.type || v.type->kind != TY_STRING || val_is_null(v)) {
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "\"%s\" must be a string", key));
    return NULL;
  }
  return v.u.s;
}

static Value req_ev(Tx *t, const char *key, const Type *ty)
{
  Value out = {0};
  if (t->failed)
    return out;
  const char *why;
  if (!phttps_ev_decode(t->g->a, t->g->a, gw_jget(t->g->req, key), ty, &out,
                        &why))
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "\"%s\": %s", key, why));
  return out;
}

/* A decoded value where the protocol allows absence: null of ty. */
static Value or_null(Value v, const Type *ty)
{
  return v.type ? v : val_null(ty);
}

static ProvBytes req_bytes(Tx *t, const char *key)
{
  ProvBytes b = {0};
  Value v = gw_jget(t->g->req, key);
  if (t->failed || !v.type || val_is_null(v))
    return b;
  if (v.type->kind != TY_STRING) {
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "\"%s\" must be a base64 string", key));
    return b;
  }
  uint8_t *p;
  size_t n, bad_at;
  if (!prov_base64_decode(t->g->a, v.u.s, v.len, &p, &n, &bad_at)) {
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "\"%s\" is not valid base64", key));
    return b;
  }
  b.p = p;
  b.n = n;
  return b;
}

static const ProvBlockSchema *req_type(Tx *t, bool data, const char **name)
{
  const char *tn = req_string(t, "type_name");
  *name = tn;
  if (!tn)
    return NULL;
  const ProvTypeSchema *ts = data ? prov_schema_data_source(t->g->schema, tn)
                                  : prov_schema_resource(t->g->schema, tn);
  if (!ts) {
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "provider %s has no %s type \"%s\"",
                        t->g->prov->addr, data ? "data source" : "resource",
                        tn));
    return NULL;
  }
  return ts->schema.block;
}

static void w_ev(Tx *t, const char *key, Value v, const Type *ty)
{
  json_w_keyz(&t->w, key);
  Diags tmp;
  diag_init(&tmp, t->g->a);
  if (!phttps_ev_write(&t->w, v, ty, &tmp)) {
    /* A plugin answer cairn cannot encode: report it, keep the JSON
    ** well formed. */
    json_w_null(&t->w);
    diag_error(&t->diags, NULL, "Invalid provider response",
               "The gateway cannot encode the plugin's \"%s\": %s %s.", key,
               tmp.head ? tmp.head->summary : "",
               tmp.head ? tmp.head->detail : "");
  }
}

static void w_bytes(Tx *t, const char *key, ProvBytes b)
{
  json_w_keyz(&t->w, key);
  json_w_stringz(&t->w, b.n ? prov_base64_encode(t->g->a, b.p, b.n, false,
                                                 true)
                            : "");
}

static void w_path(JsonW *w, ValPath p)
{
  json_w_begin_array(w);
  for (uint32_t i = 0; i < p.n; i++) {
    json_w_begin_object(w);
    switch (p.steps[i].kind) {
    case PS_ATTR:
      json_w_keyz(w, "attr");
      json_w_stringz(w, p.steps[i].name);
      break;
    case PS_KEY:
      json_w_keyz(w, "key");
      json_w_stringz(w, p.steps[i].name);
      break;
    case PS_INDEX:
      json_w_keyz(w, "index");
      json_w_int(w, p.steps[i].index);
      break;
    }
    json_w_end_object(w);
  }
  json_w_end_array(w);
}

static void w_diags(Tx *t)
{
  json_w_keyz(&t->w, "diagnostics");
  json_w_begin_array(&t->w);
  for (const Diag *d = t->diags.head; d; d = d->next) {
    if (d->severity == DIAG_ERROR &&
        (strcmp(d->summary, "Plugin did not respond") == 0 ||
         strcmp(d->summary, "Failed to start provider plugin") == 0))
      t->g->plugin_error = true;
    json_w_begin_object(&t->w);
    json_w_keyz(&t->w, "severity");
    json_w_stringz(&t->w, d->severity == DIAG_ERROR ? "error" : "warning");
    json_w_keyz(&t->w, "summary");
    json_w_stringz(&t->w, d->summary);
    json_w_keyz(&t->w, "detail");
    json_w_stringz(&t->w, d->detail ? d->detail : "");
    const ValPath *p = prov_diag_path(&t->c, d);
    if (p && p->n) {
      json_w_keyz(&t->w, "attribute");
      w_path(&t->w, *p);
    }
    json_w_end_object(&t->w);
  }
  json_w_end_array(&t->w);
}

/* ---- the calls ------------------------------------------------------------ */

static void c_validate(Tx *t, int which)
{
  const ProvOps *ops = t->g->prov->ops;
  if (which == 0) {
    Value cfg = req_ev(t, "config", t->g->schema->provider.block->implied);
    if (!t->failed)
      ops->validate_provider_config(
          t->g->prov, &t->c,
          or_null(cfg, t->g->schema->provider.block->implied));
    return;
  }
  const char *tn;
  const ProvBlockSchema *b = req_type(t, which == 2, &tn);
  if (!b)
    return;
  Value cfg = or_null(req_ev(t, "config", b->implied), b->implied);
  if (t->failed)
    return;
  if (which == 1)
    ops->validate_resource_config(t->g->prov, &t->c, tn, cfg);
  else
    ops->validate_data_resource_config(t->g->prov, &t->c, tn, cfg);
}

/* An optional integer field (absent or null: 0). */
static bool req_int(Tx *t, const char *key, int64_t *out)
{
  Value v = gw_jget(t->g->req, key);
  *out = 0;
  if (v.type && !val_is_null(v) &&
      (v.type->kind != TY_NUMBER || !val_num_int(v, out))) {
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "\"%s\" must be an integer", key));
    return false;
  }
  return true;
}

/* A state's attributes object, re-encoded as JSON for the plugin (which
** takes it as raw JSON). */
static const char *req_raw_object(Tx *t, const char *key, size_t *len)
{
  Value raw = gw_jget(t->g->req, key);
  if (!raw.type || raw.type->kind != TY_OBJECT || val_is_null(raw)) {
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "\"%s\" must be a JSON object", key));
    return NULL;
  }
  Buf rj;
  buf_init(&rj, t->g->a);
  JsonW w;
  json_w_init(&w, &rj, 0);
  Diags tmp;
  diag_init(&tmp, t->g->a);
  if (!json_w_value(&w, raw, raw.type, &tmp)) {
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "\"%s\" cannot be re-encoded", key));
    return NULL;
  }
  *len = rj.len;
  return buf_str(&rj);
}

static void c_upgrade(Tx *t)
{
  const char *tn;
  const ProvBlockSchema *b = req_type(t, false, &tn);
  int64_t version;
  size_t len;
  const char *raw;
  if (!b || !req_int(t, "version", &version) ||
      !(raw = req_raw_object(t, "raw_state", &len)))
    return;
  ProvUpgradeReq q = {tn, version, raw, len};
  ProvUpgradeResp r;
  t->g->prov->ops->upgrade_resource_state(t->g->prov, &t->c, &q, &r);
  w_ev(t, "upgraded_state", r.upgraded_state, b->implied);
}

/* MoveResourceState: the target type is "type_name"; the source object
** goes on as raw JSON, as for UpgradeResourceState.  A plugin older than
** the call answers "Unsupported plugin method", forwarded as a
** diagnostic. */
static void c_move(Tx *t)
{
  const char *tn;
  const ProvBlockSchema *b = req_type(t, false, &tn);
  const char *sp = b ? req_string(t, "source_provider_address") : NULL;
  const char *st = sp ? req_string(t, "source_type_name") : NULL;
  int64_t version;
  size_t len;
  const char *raw;
  if (!st || !req_int(t, "source_schema_version", &version) ||
      !(raw = req_raw_object(t, "source_state", &len)))
    return;
  ProvBytes priv = req_bytes(t, "source_private");
  if (t->failed)
    return;
  ProvMoveReq q = {sp, st, version, raw, len, priv, tn};
  ProvMoveResp r = {{0}, {0}};
  prov_move_resource_state(t->g->prov, &t->c, &q, &r);
  if (r.target_state.type)
    w_ev(t, "target_state", r.target_state, b->implied);
  w_bytes(t, "target_private", r.target_private);
}

static void c_configure(Tx *t)
{
  const Type *pt = t->g->schema->provider.block->implied;
  Value cfg = or_null(req_ev(t, "config", pt), pt);
  if (t->failed)
    return;
  Value tv = gw_jget(t->g->req, "terraform_version");
  ProvConfigureReq q = {0};
  q.terraform_version = tv.type && tv.type->kind == TY_STRING &&
                                !val_is_null(tv)
                            ? tv.u.s
                            : t->g->terraform_version;
  q.config = cfg;
  t->g->prov->ops->configure(t->g->prov, &t->c, &q);
}

static void c_read(Tx *t)
{
  const char *tn;
  const ProvBlockSchema *b = req_type(t, false, &tn);
  if (!b)
    return;
  ProvReadReq q = {tn, or_null(req_ev(t, "current_state", b->implied),
                               b->implied),
                   req_bytes(t, "private")};
  if (t->failed)
    return;
  ProvReadResp r;
  t->g->prov->ops->read_resource(t->g->prov, &t->c, &q, &r);
  w_ev(t, "new_state", r.new_state, b->implied);
  w_bytes(t, "private", r.private_data);
}

static void c_plan(Tx *t)
{
  const char *tn;
  const ProvBlockSchema *b = req_type(t, false, &tn);
  if (!b)
    return;
  const Type *ty = b->implied;
  ProvPlanReq q = {tn, or_null(req_ev(t, "prior_state", ty), ty),
                   or_null(req_ev(t, "proposed_new_state", ty), ty),
                   or_null(req_ev(t, "config", ty), ty),
                   req_bytes(t, "prior_private")};
  if (t->failed)
    return;
  ProvPlanResp r;
  t->g->prov->ops->plan_resource_change(t->g->prov, &t->c, &q, &r);
  w_ev(t, "planned_state", r.planned_state, ty);
  json_w_keyz(&t->w, "requires_replace");
  json_w_begin_array(&t->w);
  for (uint32_t i = 0; i < r.nrequires_replace; i++)
    w_path(&t->w, r.requires_replace[i]);
  json_w_end_array(&t->w);
  w_bytes(t, "planned_private", r.planned_private);
  json_w_keyz(&t->w, "legacy_type_system");
  json_w_bool(&t->w, r.legacy_type_system);
}

static void c_apply(Tx *t, const char *key)
{
  const char *tn;
  const ProvBlockSchema *b = req_type(t, false, &tn);
  if (!b)
    return;
  const Type *ty = b->implied;
  ProvApplyReq q = {tn,
                    or_null(req_ev(t, "prior_state", ty), ty),
                    or_null(req_ev(t, "planned_state", ty), ty),
                    or_null(req_ev(t, "config", ty), ty),
                    req_bytes(t, "planned_private"),
                    key};
  if (t->failed)
    return;
  ProvApplyResp r;
  t->g->prov->ops->apply_resource_change(t->g->prov, &t->c, &q, &r);
  w_ev(t, "new_state", r.new_state, ty);
  w_bytes(t, "private", r.private_data);
  json_w_keyz(&t->w, "legacy_type_system");
  json_w_bool(&t->w, r.legacy_type_system);
}

static void c_import(Tx *t)
{
  const char *tn;
  const ProvBlockSchema *b = req_type(t, false, &tn);
  const char *id = b ? req_string(t, "id") : NULL;
  if (!b || !id)
    return;
  ProvImportReq q = {tn, id};
  ProvImportResp r;
  t->g->prov->ops->import_resource_state(t->g->prov, &t->c, &q, &r);
  json_w_keyz(&t->w, "imported_resources");
  json_w_begin_array(&t->w);
  for (uint32_t i = 0; i < r.nimported; i++) {
    const ProvImported *im = &r.imported[i];
    const ProvTypeSchema *ts = prov_schema_resource(t->g->schema,
                                                    im->type_name);
    if (!ts) {
      diag_error(&t->diags, NULL, "Invalid provider response",
                 "The plugin imported an object of unknown type \"%s\".",
                 im->type_name);
      continue;
    }
    json_w_begin_object(&t->w);
    json_w_keyz(&t->w, "type_name");
    json_w_stringz(&t->w, im->type_name);
    w_ev(t, "state", im->state, ts->schema.block->implied);
    w_bytes(t, "private", im->private_data);
    json_w_end_object(&t->w);
  }
  json_w_end_array(&t->w);
}

static void c_read_data(Tx *t)
{
  const char *tn;
  const ProvBlockSchema *b = req_type(t, true, &tn);
  if (!b)
    return;
  ProvReadDataReq q = {tn, or_null(req_ev(t, "config", b->implied),
                                   b->implied)};
  if (t->failed)
    return;
  ProvReadDataResp r;
  t->g->prov->ops->read_data_source(t->g->prov, &t->c, &q, &r);
  w_ev(t, "state", r.state, b->implied);
}

/* Ephemeral resources: Validate (which 0), Open (1), Renew (2) and Close
** (3), the plugin's answers as prov_https.c reads them.  Renew and Close
** need no schema: the private data is the plugin's, carried through. */
static void c_eph(Tx *t, int which)
{
  const char *tn = req_string(t, "type_name");
  if (!tn)
    return;
  const ProvTypeSchema *ts = prov_schema_ephemeral(t->g->schema, tn);
  if (!ts) {
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "provider %s has no ephemeral resource "
                        "type \"%s\"", t->g->prov->addr, tn));
    return;
  }
  const Type *ty = ts->schema.block->implied;
  Prov *p = t->g->prov;
  if (which <= 1) {
    Value cfg = or_null(req_ev(t, "config", ty), ty);
    if (t->failed)
      return;
    if (which == 0) {
      prov_validate_ephemeral(p, &t->c, tn, cfg);
      return;
    }
    ProvOpenEphReq q = {tn, cfg};
    ProvOpenEphResp r;
    memset(&r, 0, sizeof r);
    prov_open_ephemeral(p, &t->c, &q, &r);
    if (r.result.type)
      w_ev(t, "result", r.result, ty);
    w_bytes(t, "private", r.private_data);
    if (r.renew_at) {
      json_w_keyz(&t->w, "renew_at");
      json_w_int(&t->w, r.renew_at);
    }
    return;
  }
  ProvEphReq q = {tn, req_bytes(t, "private")};
  if (t->failed)
    return;
  if (which == 3) {
    prov_close_ephemeral(p, &t->c, &q);
    return;
  }
  ProvRenewEphResp r = {{0}, 0};
  prov_renew_ephemeral(p, &t->c, &q, &r);
  w_bytes(t, "private", r.private_data);
  if (r.renew_at) {
    json_w_keyz(&t->w, "renew_at");
    json_w_int(&t->w, r.renew_at);
  }
}

/* CallFunction: {"name", "arguments": [EV, ...]} -> {"result": EV} or
** {"error": {"text", "function_argument"}}.  The client sends no
** provider_config, so it runs on the unconfigured process (gateway.c),
** as Terraform calls functions on an unconfigured instance.  Arguments
** are decoded with their parameter types; the core's checks (arity,
** null, unknown) were made by the client and are made again by the
** plugin. */
static void c_call_function(Tx *t)
{
  const char *name = req_string(t, "name");
  if (!name)
    return;
  const ProvFunction *f = prov_schema_function(t->g->schema, name);
  if (!f) {
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "provider %s has no function \"%s\"",
                        t->g->prov->addr, name));
    return;
  }
  Value args = gw_jget(t->g->req, "arguments");
  if (!args.type || args.type->kind != TY_TUPLE || val_is_null(args) ||
      (args.len < f->nparams) || (!f->variadic && args.len > f->nparams)) {
    reject(t, 400, "bad_request",
           arena_printf(t->g->a, "\"arguments\" must be an array of %u%s "
                        "encoded values",
                        (unsigned)f->nparams, f->variadic ? " or more" : ""));
    return;
  }
  Value *av = ARENA_NEW(t->g->a, Value, args.len ? args.len : 1);
  for (uint32_t i = 0; i < args.len; i++) {
    const ProvFuncParam *pp = i < f->nparams ? &f->params[i] : f->variadic;
    const char *why;
    if (!phttps_ev_decode(t->g->a, t->g->a, args.u.elems[i], pp->type,
                          &av[i], &why)) {
      reject(t, 400, "bad_request",
             arena_printf(t->g->a, "\"arguments\"[%u]: %s", (unsigned)i,
                          why));
      return;
    }
    av[i] = or_null(av[i], pp->type);
  }
  ProvCallFuncReq q = {name, av, args.len};
  ProvCallFuncResp r;
  prov_call_function(t->g->prov, &t->c, &q, &r);
  if (r.error) {
    json_w_keyz(&t->w, "error");
    json_w_begin_object(&t->w);
    json_w_keyz(&t->w, "text");
    json_w_stringz(&t->w, r.error);
    if (r.error_arg >= 0) {
      json_w_keyz(&t->w, "function_argument");
      json_w_int(&t->w, r.error_arg);
    }
    json_w_end_object(&t->w);
  } else if (r.result.type) {
    w_ev(t, "result", r.result, f->return_type);
  }
}

void gw_translate(GwCall *g)
{
  Tx t = {0};
  t.g = g;
  diag_init(&t.diags, g->a);
  t.c.arena = g->a;
  t.c.diags = &t.diags;
  t.out = g->out;
  g->status = 200;
  json_w_init(&t.w, g->out, JSON_W_UNKNOWN_NULL);
  json_w_begin_object(&t.w);
  const char *c = g->call;
  if (strcmp(c, "GetProviderSchema") == 0) {
    /* gateway.c answers it from its cache. */
    reject(&t, 500, "internal", "GetProviderSchema is answered elsewhere");
  } else if (strcmp(c, "ValidateProviderConfig") == 0) {
    c_validate(&t, 0);
  } else if (strcmp(c, "ValidateResourceConfig") == 0) {
    c_validate(&t, 1);
  } else if (strcmp(c, "ValidateDataResourceConfig") == 0) {
    c_validate(&t, 2);
  } else if (strcmp(c, "UpgradeResourceState") == 0) {
    c_upgrade(&t);
  } else if (strcmp(c, "ConfigureProvider") == 0) {
    c_configure(&t);
  } else if (strcmp(c, "ReadResource") == 0) {
    c_read(&t);
  } else if (strcmp(c, "PlanResourceChange") == 0) {
    c_plan(&t);
  } else if (strcmp(c, "ApplyResourceChange") == 0) {
    c_apply(&t, NULL);
  } else if (strcmp(c, "ImportResourceState") == 0) {
    c_import(&t);
  } else if (strcmp(c, "ReadDataSource") == 0) {
    c_read_data(&t);
  } else if (strcmp(c, "CallFunction") == 0) {
    c_call_function(&t);
  } else if (strcmp(c, "MoveResourceState") == 0) {
    c_move(&t);
  } else if (strcmp(c, "ValidateEphemeralResourceConfig") == 0) {
    c_eph(&t, 0);
  } else if (strcmp(c, "OpenEphemeralResource") == 0) {
    c_eph(&t, 1);
  } else if (strcmp(c, "RenewEphemeralResource") == 0) {
    c_eph(&t, 2);
  } else if (strcmp(c, "CloseEphemeralResource") == 0) {
    c_eph(&t, 3);
  } else if (strcmp(c, "StopProvider") == 0) {
    const char *err = g->prov->ops->stop(g->prov, &t.c);
    json_w_keyz(&t.w, "error");
    if (err)
      json_w_stringz(&t.w, err);
    else
      json_w_null(&t.w);
  } else {
    reject(&t, 404, "not_found", "unknown call");
  }
  if (t.failed) {
    g->out->len = 0;
    return;
  }
  w_diags(&t);
  json_w_end_object(&t.w);
}

const char *gw_canonical_config(Arena *a, const ProvProviderSchema *s,
                                Value ev, const char **why)
{
  const Type *pt = s->provider.block->implied;
  Value v;
  if (!phttps_ev_decode(a, a, ev, pt, &v, why))
    return NULL;
  Buf b;
  buf_init(&b, a);
  JsonW w;
  json_w_init(&w, &b, JSON_W_UNKNOWN_NULL);
  Diags tmp;
  diag_init(&tmp, a);
  if (!phttps_ev_write(&w, v.type ? v : val_null(pt), pt, &tmp)) {
    *why = "it cannot be encoded again";
    return NULL;
  }
  return buf_str(&b);
}
