/*
** provider: schema helpers, the built-in registry, source addresses and
** the small conveniences provider implementations share.  See provider.h.
*/
#include "provider.h"

#include "base/b64.h"
#include "base/json.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- Schema lookups ------------------------------------------------- */

static const ProvTypeSchema *find_type(const ProvTypeSchema *v, uint32_t n,
                                       const char *name)
{
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(v[i].type_name, name) == 0)
      return &v[i];
  return NULL;
}

const ProvTypeSchema *prov_schema_resource(const ProvProviderSchema *s,
                                           const char *type_name)
{
  return find_type(s->resources, s->nresources, type_name);
}

const ProvTypeSchema *prov_schema_data_source(const ProvProviderSchema *s,
                                              const char *type_name)
{
  return find_type(s->data_sources, s->ndata_sources, type_name);
}

const ProvTypeSchema *prov_schema_ephemeral(const ProvProviderSchema *s,
                                            const char *type_name)
{
  return find_type(s->ephemeral_resources, s->nephemeral_resources,
                   type_name);
}

const ProvTypeSchema *prov_schema_action(const ProvProviderSchema *s,
                                         const char *type_name)
{
  return find_type(s->actions, s->nactions, type_name);
}

const ProvFunction *prov_schema_function(const ProvProviderSchema *s,
                                         const char *name)
{
  for (uint32_t i = 0; i < s->nfunctions; i++)
    if (strcmp(s->functions[i].name, name) == 0)
      return &s->functions[i];
  return NULL;
}

const ProvAttrSchema *prov_block_attr(const ProvBlockSchema *b,
                                      const char *name)
{
  for (uint32_t i = 0; i < b->nattrs; i++)
    if (strcmp(b->attrs[i].name, name) == 0)
      return &b->attrs[i];
  return NULL;
}

const ProvNestedBlock *prov_block_nested(const ProvBlockSchema *b,
                                         const char *name)
{
  for (uint32_t i = 0; i < b->nblocks; i++)
    if (strcmp(b->blocks[i].type_name, name) == 0)
      return &b->blocks[i];
  return NULL;
}

/* ---- Implied types -------------------------------------------------- */

static const Type *object_of_attrs(Arena *a, const ProvAttrSchema *attrs,
                                   uint32_t n);

/* Wraps an element object type per nesting mode, as configschema does:
** a list or map whose element contains dynamic types becomes dynamic,
** since each value then decides its own (tuple / object) type. */
static const Type *nest_type(Arena *a, ProvNesting nesting, const Type *et)
{
  switch (nesting) {
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

const Type *prov_attr_type(Arena *a, const ProvAttrSchema *at)
{
  if (!at->nested)
    return at->type ? at->type : &ty_dynamic;
  const Type *et = object_of_attrs(a, at->nested->attrs, at->nested->nattrs);
  return nest_type(a, at->nested->nesting, et);
}

static const Type *object_of_attrs(Arena *a, const ProvAttrSchema *attrs,
                                   uint32_t n)
{
  if (n == 0)
    return &ty_empty_object;
  const char **names = ARENA_NEW(a, const char *, n);
  const Type **types = ARENA_NEW(a, const Type *, n);
  for (uint32_t i = 0; i < n; i++) {
    names[i] = attrs[i].name;
    types[i] = prov_attr_type(a, &attrs[i]);
  }
  return ty_object(a, n, names, types);
}

/* keep_names: the type points at the schema's attribute names instead of
** copies (prepare_block: the prepared type lives in the schema's block
** struct, and the names, shared by clones, outlive it), so look-ups with
** those names (the objchange walks, the decoders) match by pointer. */
static const Type *implied_type(Arena *a, const ProvBlockSchema *b,
                                bool keep_names)
{
  if (b->implied)
    return b->implied;
  uint32_t n = b->nattrs + b->nblocks;
  if (n == 0)
    return &ty_empty_object;
  const char **names = ARENA_NEW(a, const char *, n);
  const Type **types = ARENA_NEW(a, const Type *, n);
  uint32_t k = 0;
  for (uint32_t i = 0; i < b->nattrs; i++, k++) {
    names[k] = b->attrs[i].name;
    types[k] = prov_attr_type(a, &b->attrs[i]);
  }
  for (uint32_t i = 0; i < b->nblocks; i++, k++) {
    const ProvNestedBlock *nb = &b->blocks[i];
    names[k] = nb->type_name;
    types[k] = nest_type(a, nb->nesting,
                         prov_schema_implied_type(a, nb->block));
  }
  if (keep_names)
    return ty_object_shared_names(a, n, names, types);
  return ty_object(a, n, names, types);
}

const Type *prov_schema_implied_type(Arena *a, const ProvBlockSchema *b)
{
  return implied_type(a, b, false);
}

static void prepare_block(Arena *a, ProvBlockSchema *b)
{
  if (!b || b->implied)
    return;
  for (uint32_t i = 0; i < b->nblocks; i++)
    prepare_block(a, (ProvBlockSchema *)b->blocks[i].block);
  b->implied = implied_type(a, b, true);
}

void prov_schema_prepare(Arena *a, ProvProviderSchema *s)
{
  prepare_block(a, (ProvBlockSchema *)s->provider.block);
  for (uint32_t i = 0; i < s->nresources; i++)
    prepare_block(a, (ProvBlockSchema *)s->resources[i].schema.block);
  for (uint32_t i = 0; i < s->ndata_sources; i++)
    prepare_block(a, (ProvBlockSchema *)s->data_sources[i].schema.block);
  for (uint32_t i = 0; i < s->nephemeral_resources; i++)
    prepare_block(a,
                  (ProvBlockSchema *)s->ephemeral_resources[i].schema.block);
  for (uint32_t i = 0; i < s->nactions; i++)
    prepare_block(a, (ProvBlockSchema *)s->actions[i].schema.block);
}

/* Deep copy of the block structures (names, types and strings are
** shared: they are static or instance-lifetime). */
static const ProvBlockSchema *clone_block(Arena *a, const ProvBlockSchema *b)
{
  if (!b)
    return NULL;
  ProvBlockSchema *nb = ARENA_NEW(a, ProvBlockSchema, 1);
  *nb = *b;
  nb->implied = NULL;
  if (b->nblocks) {
    ProvNestedBlock *blocks = ARENA_NEW(a, ProvNestedBlock, b->nblocks);
    for (uint32_t i = 0; i < b->nblocks; i++) {
      blocks[i] = b->blocks[i];
      blocks[i].block = clone_block(a, b->blocks[i].block);
    }
    nb->blocks = blocks;
  }
  return nb;
}

static const ProvTypeSchema *clone_types(Arena *a, const ProvTypeSchema *v,
                                         uint32_t n)
{
  ProvTypeSchema *out = ARENA_NEW(a, ProvTypeSchema, n);
  for (uint32_t i = 0; i < n; i++) {
    out[i] = v[i];
    out[i].schema.block = clone_block(a, v[i].schema.block);
  }
  return out;
}

ProvProviderSchema *prov_schema_clone(Arena *a, const ProvProviderSchema *s)
{
  ProvProviderSchema *c = ARENA_NEW(a, ProvProviderSchema, 1);
  *c = *s;
  c->provider.block = clone_block(a, s->provider.block);
  c->resources = clone_types(a, s->resources, s->nresources);
  c->data_sources = clone_types(a, s->data_sources, s->ndata_sources);
  c->ephemeral_resources = clone_types(a, s->ephemeral_resources,
                                       s->nephemeral_resources);
  c->actions = clone_types(a, s->actions, s->nactions);
  prov_schema_prepare(a, c);
  return c;
}

/* ---- Sensitivity ---------------------------------------------------- */

static bool attrs_path_sensitive(const ProvAttrSchema *attrs, uint32_t n,
                                 const ProvBlockSchema *b, const PathStep *s,
                                 uint32_t ns);

/* After entering a nested collection (block or nested attribute), skip the
** element step its nesting implies. */
static uint32_t skip_elem(ProvNesting nesting, uint32_t ns)
{
  if (nesting == PROV_NEST_LIST || nesting == PROV_NEST_SET ||
      nesting == PROV_NEST_MAP)
    return ns > 0 ? 1 : 0;
  return 0;
}

static bool attrs_path_sensitive(const ProvAttrSchema *attrs, uint32_t n,
                                 const ProvBlockSchema *b, const PathStep *s,
                                 uint32_t ns)
{
  if (ns == 0 || s[0].kind != PS_ATTR)
    return false;
  for (uint32_t i = 0; i < n; i++) {
    const ProvAttrSchema *at = &attrs[i];
    if (strcmp(at->name, s[0].name) != 0)
      continue;
    if (at->flags & PROV_SENSITIVE)
      return true;
    if (!at->nested)
      return false;
    uint32_t k = 1 + skip_elem(at->nested->nesting, ns - 1);
    if (k > ns)
      return false;
    return attrs_path_sensitive(at->nested->attrs, at->nested->nattrs, NULL,
                                s + k, ns - k);
  }
  if (!b)
    return false;
  const ProvNestedBlock *nb = prov_block_nested(b, s[0].name);
  if (!nb)
    return false;
  uint32_t k = 1 + skip_elem(nb->nesting, ns - 1);
  if (k > ns)
    return false;
  return attrs_path_sensitive(nb->block->attrs, nb->block->nattrs, nb->block,
                              s + k, ns - k);
}

bool prov_path_sensitive(const ProvBlockSchema *b, ValPath p)
{
  return attrs_path_sensitive(b->attrs, b->nattrs, b, p.steps, p.n);
}

static Value mark_attrs(Arena *a, const ProvAttrSchema *attrs, uint32_t n,
                        const ProvBlockSchema *b, Value v);

/* Marks each element of a nested collection value. */
static Value mark_nested(Arena *a, const ProvAttrSchema *attrs, uint32_t n,
                         const ProvBlockSchema *b, ProvNesting nesting,
                         Value v)
{
  if (val_is_null(v) || val_is_unknown(v))
    return v;
  if (nesting == PROV_NEST_SINGLE || nesting == PROV_NEST_GROUP)
    return mark_attrs(a, attrs, n, b, v);
  TypeKind k = v.type->kind;
  if (k == TY_MAP) {
    MapEntry *e = ARENA_NEW(a, MapEntry, v.len);
    for (uint32_t i = 0; i < v.len; i++) {
      e[i] = v.u.entries[i];
      e[i].val = mark_attrs(a, attrs, n, b, e[i].val);
    }
    Value r = v;
    r.u.entries = e;
    return r;
  }
  if (k == TY_LIST || k == TY_SET || k == TY_TUPLE) {
    Value *e = ARENA_NEW(a, Value, v.len);
    for (uint32_t i = 0; i < v.len; i++)
      e[i] = mark_attrs(a, attrs, n, b, v.u.elems[i]);
    Value r = v;
    r.u.elems = e;
    return r;
  }
  if (k == TY_OBJECT) {  /* a dynamic-typed map of blocks */
    Value *e = ARENA_NEW(a, Value, v.len);
    for (uint32_t i = 0; i < v.len; i++)
      e[i] = mark_attrs(a, attrs, n, b, v.u.elems[i]);
    Value r = v;
    r.u.elems = e;
    return r;
  }
  return v;
}

static Value mark_attrs(Arena *a, const ProvAttrSchema *attrs, uint32_t n,
                        const ProvBlockSchema *b, Value v)
{
  if (!v.type || v.type->kind != TY_OBJECT || val_is_null(v) ||
      val_is_unknown(v))
    return v;
  /* A schema with nothing to mark (no sensitive or nested attribute, no
  ** nested block) leaves every value as it is: skip the name lookups,
  ** three per planned instance of such a resource. */
  if (!b || b->nblocks == 0) {
    uint32_t j = 0;
    while (j < n && !(attrs[j].flags & PROV_SENSITIVE) && !attrs[j].nested)
      j++;
    if (j == n)
      return v;
  }
  Value *e = NULL;
  for (uint32_t i = 0; i < v.type->n; i++) {
    const char *name = v.type->names[i];
    Value cur = v.u.elems[i];
    Value nv = cur;
    const ProvAttrSchema *at = NULL;
    for (uint32_t j = 0; j < n; j++)
      if (strcmp(attrs[j].name, name) == 0)
        at = &attrs[j];
    if (at) {
      if (at->flags & PROV_SENSITIVE)
        nv = val_sensitive(cur);
      else if (at->nested)
        nv = mark_nested(a, at->nested->attrs, at->nested->nattrs, NULL,
                         at->nested->nesting, cur);
    } else if (b) {
      const ProvNestedBlock *nb = prov_block_nested(b, name);
      if (nb)
        nv = mark_nested(a, nb->block->attrs, nb->block->nattrs, nb->block,
                         nb->nesting, cur);
    }
    if (nv.flags != cur.flags || nv.u.elems != cur.u.elems) {
      if (!e) {
        e = ARENA_NEW(a, Value, v.len);
        memcpy(e, v.u.elems, sizeof(Value) * v.len);
      }
      e[i] = nv;
    }
  }
  if (!e)
    return v;
  Value r = v;
  r.u.elems = e;
  return r;
}

Value prov_mark_sensitive(Arena *a, const ProvBlockSchema *b, Value v)
{
  return mark_attrs(a, b->attrs, b->nattrs, b, v);
}

Value prov_null_object(Arena *a, const ProvBlockSchema *b)
{
  return val_null(prov_schema_implied_type(a, b));
}

/* ---- Built-in registry ---------------------------------------------- */

static const ProvBuiltin *const builtins[] = {
  &prov_terraform_builtin,
  &prov_null_builtin,
  &prov_local_builtin,
  &prov_random_builtin,
  &prov_time_builtin,
  &prov_tls_builtin,
  &prov_external_builtin,
  &prov_cloudinit_builtin,
  &prov_http_builtin,
  &prov_archive_builtin,
#ifdef CAIRN_TEST
  &prov_test_builtin,
#endif
};

const ProvBuiltin *const *prov_builtins(size_t *n)
{
  *n = sizeof builtins / sizeof builtins[0];
  return builtins;
}

/* Parses source into host/namespace/type (lower-cased, in a static-size
** buffer the caller provides); false when malformed. */
typedef struct SrcParts {
  char host[256];
  char ns[128];
  char type[128];
  const char *err;       /* detail of the failure */
} SrcParts;

/* A namespace or type: letters, digits, dashes (and underscores, which
** Terraform accepts in legacy addresses); no leading or trailing dash. */
static bool valid_part(const char *p, size_t n)
{
  if (n == 0 || p[0] == '-' || p[n - 1] == '-')
    return false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (!isalnum(c) && c != '-' && c != '_')
      return false;
  }
  return true;
}

static bool valid_host(const char *p, size_t n)
{
  if (n == 0)
    return false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (!isalnum(c) && c != '-' && c != '.' && c != ':')
      return false;
  }
  return p[0] != '.' && p[n - 1] != '.';
}

static void lower_copy(char *dst, size_t cap, const char *s, size_t n)
{
  if (n >= cap)
    n = cap - 1;
  for (size_t i = 0; i < n; i++)
    dst[i] = (char)tolower((unsigned char)s[i]);
  dst[n] = 0;
}

static bool split_source(const char *src, SrcParts *sp)
{
  const char *part[4];
  size_t len[4];
  int np = 0;
  const char *p = src;
  sp->err = NULL;
  for (;;) {
    const char *slash = strchr(p, '/');
    size_t n = slash ? (size_t)(slash - p) : strlen(p);
    if (np == 3) {
      sp->err = "too many parts";
      return false;
    }
    part[np] = p;
    len[np] = n;
    np++;
    if (!slash)
      break;
    p = slash + 1;
  }
  for (int i = 0; i < np; i++) {
    bool is_host = np == 3 && i == 0;
    if (len[i] == 0 || len[i] >= 120 ||
        (is_host ? !valid_host(part[i], len[i])
                 : !valid_part(part[i], len[i]))) {
      sp->err = is_host ? "invalid hostname" : "invalid name part";
      return false;
    }
  }
  const char *host = "registry.terraform.io";
  const char *ns = "hashicorp";
  if (np == 3) {
    lower_copy(sp->host, sizeof sp->host, part[0], len[0]);
  } else {
    lower_copy(sp->host, sizeof sp->host, host, strlen(host));
  }
  if (np >= 2)
    lower_copy(sp->ns, sizeof sp->ns, part[np - 2], len[np - 2]);
  else
    lower_copy(sp->ns, sizeof sp->ns, ns, strlen(ns));
  lower_copy(sp->type, sizeof sp->type, part[np - 1], len[np - 1]);
  if (np == 1 && strcmp(sp->type, "terraform") == 0) {
    lower_copy(sp->host, sizeof sp->host, "terraform.io", 12);
    lower_copy(sp->ns, sizeof sp->ns, "builtin", 7);
  }
  if (strncmp(sp->type, "terraform-provider-", 19) == 0) {
    sp->err = "the provider type must not have the terraform-provider- "
              "prefix";
    return false;
  }
  return true;
}

const char *prov_source_normalize(Arena *a, const char *source,
                                  const SrcRange *rng, Diags *d)
{
  SrcParts sp;
  if (!source || !split_source(source, &sp)) {
    if (d) {
      if (sp.err && strstr(sp.err, "terraform-provider-"))
        diag_error(d, rng, "Invalid provider type",
                   "Provider source %s has a type with the prefix "
                   "\"terraform-provider-\", which isn't valid. Although "
                   "that prefix is often used in the names of version "
                   "control repositories for Terraform providers, provider "
                   "source strings should not include it.",
                   source);
      else
        diag_error(d, rng, "Invalid provider source string",
                   "The \"source\" attribute must be in the format "
                   "\"[hostname/][namespace/]name\"");
    }
    return NULL;
  }
  /* Joined by hand: once per resource in eng_new and again in the
  ** validate walk, through printf it was 3% of bench-parse's
  ** instructions. */
  size_t nh = strlen(sp.host), nn = strlen(sp.ns), nt = strlen(sp.type);
  char *out = arena_alloc_raw(a, 1, 1, nh + nn + nt + 3);
  memcpy(out, sp.host, nh);
  out[nh] = '/';
  memcpy(out + nh + 1, sp.ns, nn);
  out[nh + 1 + nn] = '/';
  memcpy(out + nh + nn + 2, sp.type, nt + 1);
  return out;
}

const char *prov_implied_type(Arena *a, const char *resource_type)
{
  const char *us = strchr(resource_type, '_');
  size_t n = us ? (size_t)(us - resource_type) : strlen(resource_type);
  return arena_strndup(a, resource_type, n);
}

const ProvBuiltin *prov_lookup_builtin(const char *source)
{
  SrcParts sp;
  if (!source || !split_source(source, &sp))
    return NULL;
  /* OpenTofu's registry names the same hashicorp providers. */
  if (strcmp(sp.host, "registry.opentofu.org") == 0)
    lower_copy(sp.host, sizeof sp.host, "registry.terraform.io", 21);
  char full[520];
  snprintf(full, sizeof full, "%s/%s/%s", sp.host, sp.ns, sp.type);
  for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
    if (strcmp(builtins[i]->addr, full) == 0)
      return builtins[i];
  return NULL;
}

Prov *prov_open_builtin(Arena *a, const ProvBuiltin *b)
{
  Prov *p = ARENA_NEW(a, Prov, 1);
  p->ops = b->ops;
  p->addr = b->addr;
  p->arena = a;
  atomic_init(&p->stopping, false);
  if (b->open)
    b->open(p);
  return p;
}

void prov_close(Prov *p)
{
  if (p && p->ops && p->ops->close)
    p->ops->close(p);
}

/* ---- Helpers -------------------------------------------------------- */

Diag *prov_diag_attr(ProvCall *c, DiagSeverity sev, ValPath path,
                     const char *summary, const char *detail_fmt, ...)
{
  Diag *g = diag_add(c->diags, sev, NULL, summary, NULL);
  if (detail_fmt) {
    Buf b;
    buf_init(&b, c->diags->arena);
    va_list ap;
    va_start(ap, detail_fmt);
    buf_vprintf(&b, detail_fmt, ap);
    va_end(ap);
    g->detail = buf_str(&b);
  }
  if (path.n > 0) {
    ProvDiagPath *dp = ARENA_NEW(c->arena, ProvDiagPath, 1);
    PathStep *steps = ARENA_NEW(c->arena, PathStep, path.n);
    for (uint32_t i = 0; i < path.n; i++) {
      steps[i] = path.steps[i];
      if (steps[i].name)
        steps[i].name = arena_strdup(c->arena, steps[i].name);
    }
    dp->diag = g;
    dp->path.steps = steps;
    dp->path.n = path.n;
    dp->next = c->paths;
    c->paths = dp;
  }
  return g;
}

void prov_move_resource_state(Prov *p, ProvCall *c, const ProvMoveReq *req,
                              ProvMoveResp *resp)
{
  if (p->ops->move_resource_state) {
    p->ops->move_resource_state(p, c, req, resp);
    return;
  }
  diag_error(c->diags, NULL, "Unable to Move Resource State",
             "The target resource implementation does not include move "
             "resource state support. The resource implementation can be "
             "updated by the provider developers to include this support "
             "with the ResourceWithMoveState interface.\n\n"
             "Source Provider Address: %s\nSource Resource Type: %s\n"
             "Source Resource Schema Version: %lld\nTarget Resource Type: %s",
             req->source_provider, req->source_type,
             (long long)req->source_schema_version, req->target_type);
}

void prov_validate_ephemeral(Prov *p, ProvCall *c, const char *type_name,
                             Value config)
{
  if (p->ops->eph && p->ops->eph->validate)
    p->ops->eph->validate(p, c, type_name, config);
}

void prov_open_ephemeral(Prov *p, ProvCall *c, const ProvOpenEphReq *req,
                         ProvOpenEphResp *resp)
{
  if (p->ops->eph && p->ops->eph->open) {
    p->ops->eph->open(p, c, req, resp);
    return;
  }
  diag_error(c->diags, NULL, "Ephemeral resources not supported",
             "The provider %s does not support ephemeral resource type "
             "\"%s\".", p->addr ? p->addr : "(unknown)", req->type_name);
}

void prov_open_ephemeral_as_data(Prov *p, ProvCall *c,
                                 const ProvOpenEphReq *req,
                                 ProvOpenEphResp *resp)
{
  ProvReadDataReq rq = {req->type_name, req->config};
  ProvReadDataResp rr;
  memset(&rr, 0, sizeof rr);
  p->ops->read_data_source(p, c, &rq, &rr);
  resp->result = rr.state;
}

void prov_renew_ephemeral(Prov *p, ProvCall *c, const ProvEphReq *req,
                          ProvRenewEphResp *resp)
{
  if (p->ops->eph && p->ops->eph->renew)
    p->ops->eph->renew(p, c, req, resp);
}

void prov_close_ephemeral(Prov *p, ProvCall *c, const ProvEphReq *req)
{
  if (p->ops->eph && p->ops->eph->close)
    p->ops->eph->close(p, c, req);
}

void prov_warn_deprecated(ProvCall *c, const ProvBlockSchema *b, Value config)
{
  if (val_is_null(config) || !val_is_known(config))
    return;
  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *at = &b->attrs[i];
    if (!(at->flags & PROV_DEPRECATED) || !at->deprecation_message)
      continue;
    Value v = prov_get(config, at->name);
    if (val_is_null(v) || !val_is_known(v))
      continue;   /* the framework warns only about known values */
    prov_diag_attr(c, DIAG_WARNING, prov_path_attr(c->arena, at->name),
                   "Attribute Deprecated", "%s", at->deprecation_message);
  }
}

const ValPath *prov_diag_path(const ProvCall *c, const Diag *g)
{
  for (const ProvDiagPath *p = c->paths; p; p = p->next)
    if (p->diag == g)
      return &p->path;
  return NULL;
}

ValPath prov_path_attr(Arena *a, const char *name)
{
  PathStep *s = ARENA_NEW(a, PathStep, 1);
  s->kind = PS_ATTR;
  s->name = name;
  ValPath p = {s, 1};
  return p;
}

void prov_default_validate(Prov *p, ProvCall *c, Value config)
{
  (void)p;
  (void)c;
  (void)config;
}

void prov_default_validate_type(Prov *p, ProvCall *c, const char *type_name,
                                Value config)
{
  (void)p;
  (void)c;
  (void)type_name;
  (void)config;
}

void prov_default_configure(Prov *p, ProvCall *c,
                            const ProvConfigureReq *req)
{
  (void)p;
  (void)c;
  (void)req;
}

void prov_default_import(Prov *p, ProvCall *c, const ProvImportReq *req,
                         ProvImportResp *resp)
{
  (void)p;
  (void)resp;
  diag_error(c->diags, NULL, "Resource Import Not Implemented",
             "This resource does not support import. Please contact the "
             "provider developer for additional information.");
  (void)req;
}

void prov_default_read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                            ProvReadDataResp *resp)
{
  (void)p;
  (void)resp;
  diag_error(c->diags, NULL, "Unsupported data source",
             "The provider has no data source \"%s\".", req->type_name);
}

void prov_default_call_function(Prov *p, ProvCall *c,
                                const ProvCallFuncReq *req,
                                ProvCallFuncResp *resp)
{
  (void)p;
  (void)req;
  resp->error = arena_strdup(c->arena, "provider has no functions");
  resp->error_arg = -1;
}

void prov_call_function(Prov *p, ProvCall *c, const ProvCallFuncReq *req,
                        ProvCallFuncResp *resp)
{
  resp->result = (Value){0};
  resp->error = NULL;
  resp->error_arg = -1;
  if (p->ops->call_function)
    p->ops->call_function(p, c, req, resp);
  else
    prov_default_call_function(p, c, req, resp);
}

const char *prov_default_stop(Prov *p, ProvCall *c)
{
  (void)c;
  atomic_store(&p->stopping, true);
  return NULL;
}

void prov_default_close(Prov *p) { (void)p; }

Value prov_get(Value obj, const char *name)
{
  if (!obj.type || obj.type->kind != TY_OBJECT)
    return val_dynamic_null;
  return val_attr(obj, name, NULL);
}

Value prov_object_of(Arena *a, const ProvBlockSchema *b, Value src)
{
  const char **names = ARENA_NEW(a, const char *, b->nattrs + 1);
  Value *vals = ARENA_NEW(a, Value, b->nattrs + 1);
  for (uint32_t i = 0; i < b->nattrs; i++) {
    names[i] = b->attrs[i].name;
    bool f = false;
    vals[i] = val_attr(src, names[i], &f);
    if (!f || !vals[i].type)
      vals[i] = val_null(prov_attr_type(a, &b->attrs[i]));
  }
  return val_object(a, b->nattrs, names, vals);
}

Value prov_set(Arena *a, Value obj, const char *name, Value v)
{
  int idx = ty_attr_index(obj.type, name);
  uint32_t n = obj.type->n;
  if (idx >= 0 && ty_equal(obj.type->types[idx], v.type) &&
      !val_is_null(obj) && !val_is_unknown(obj)) {
    Value *e = ARENA_NEW(a, Value, n);
    memcpy(e, obj.u.elems, sizeof(Value) * n);
    e[idx] = v;
    Value r = val_object_typed(obj.type, e);
    r.flags = obj.flags;
    return r;
  }
  /* The attribute's type changes (dynamic attributes) or is new: rebuild
  ** the object type from the values, as cty.ObjectVal does. */
  uint32_t m = n + (idx < 0 ? 1 : 0);
  const char **names = ARENA_NEW(a, const char *, m);
  Value *vals = ARENA_NEW(a, Value, m);
  for (uint32_t i = 0; i < n; i++) {
    names[i] = obj.type->names[i];
    vals[i] = val_attr(obj, names[i], NULL);
  }
  if (idx < 0) {
    names[n] = name;
    vals[n] = v;
  } else {
    vals[idx] = v;
  }
  Value r = val_object(a, m, names, vals);
  r.flags = (uint16_t)(r.flags | (obj.flags & VF_MARKS));
  return r;
}

/* ---- State decoding ------------------------------------------------- */

static Value strip_removed(Arena *a, const ProvBlockSchema *b, Value v);

static Value strip_nested(Arena *a, const ProvNestedBlock *nb, Value v)
{
  if (val_is_null(v) || !v.type)
    return v;
  if (nb->nesting == PROV_NEST_SINGLE || nb->nesting == PROV_NEST_GROUP)
    return strip_removed(a, nb->block, v);
  if (v.type->kind == TY_TUPLE || v.type->kind == TY_OBJECT) {
    Value *e = ARENA_NEW(a, Value, v.len);
    for (uint32_t i = 0; i < v.len; i++)
      e[i] = strip_removed(a, nb->block, v.u.elems[i]);
    if (v.type->kind == TY_TUPLE)
      return val_tuple(a, e, v.len);
    return val_object(a, v.len, v.type->names, e);
  }
  return v;
}

/* Drops attributes the schema no longer has (Terraform strips them before
** UpgradeResourceState when the versions match), at every block level. */
static Value strip_removed(Arena *a, const ProvBlockSchema *b, Value v)
{
  if (!v.type || v.type->kind != TY_OBJECT || val_is_null(v))
    return v;
  const char **names = ARENA_NEW(a, const char *, v.len + 1);
  Value *vals = ARENA_NEW(a, Value, v.len + 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < v.len; i++) {
    const char *name = v.type->names[i];
    const ProvNestedBlock *nb;
    if (prov_block_attr(b, name)) {
      names[k] = name;
      vals[k++] = v.u.elems[i];
    } else if ((nb = prov_block_nested(b, name)) != NULL) {
      names[k] = name;
      vals[k++] = strip_nested(a, nb, v.u.elems[i]);
    }
  }
  return val_object(a, k, names, vals);
}

bool prov_decode_state(ProvCall *c, const ProvBlockSchema *b,
                       const char *json, size_t len, Value *out)
{
  Diags tmp;
  diag_init(&tmp, c->arena);
  Value raw;
  const Type *t = prov_schema_implied_type(c->arena, b);
  *out = val_null(t);
  if (!json_parse(c->arena, json, len, &raw, &tmp, NULL) ||
      !json_value_typed(c->arena, strip_removed(c->arena, b, raw), t, out,
                        &tmp, NULL)) {
    const Diag *g = tmp.head;
    diag_error(c->diags, NULL, "Invalid resource state upgrade",
               "The stored state could not be decoded: %s%s%s.",
               g ? g->summary : "invalid JSON",
               g && g->detail && *g->detail ? " at " : "",
               g && g->detail ? g->detail : "");
    *out = val_null(t);
    return false;
  }
  return true;
}

/* ---- Planning helpers ----------------------------------------------- */

static bool in_list(const char *const *list, const char *name)
{
  for (; list && *list; list++)
    if (strcmp(*list, name) == 0)
      return true;
  return false;
}

Value prov_unknown_computed(Arena *a, const ProvBlockSchema *b, Value prior,
                            Value planned, Value config,
                            const char *const *keep)
{
  if (val_is_null(planned) || val_is_unknown(planned))
    return planned;
  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *at = &b->attrs[i];
    if (!(at->flags & PROV_COMPUTED))
      continue;
    if (!val_is_null(prov_get(config, at->name)) ||
        !val_is_null(prov_get(planned, at->name)))
      continue;
    Value nv;
    if (!val_is_null(prior) && in_list(keep, at->name))
      nv = prov_get(prior, at->name);
    else
      nv = val_unknown(prov_get(planned, at->name).type);
    planned = prov_set(a, planned, at->name, nv);
  }
  return planned;
}

bool prov_attr_changed(Value prior, Value planned, const char *name)
{
  if (!prior.type || val_is_null(prior) || val_is_null(planned))
    return false;
  Value x = prov_get(prior, name), y = prov_get(planned, name);
  if (!val_is_wholly_known(y))
    return true;
  return !val_raw_equal(x, y, false);
}

bool prov_map_replace_if_values_not_null(Value st, Value cf)
{
  if (val_raw_equal(cf, st, false))
    return false;
  if (!val_is_known(cf) || !val_is_known(st))
    return true;
  if (val_is_null(cf))
    return !(val_is_null(st) || st.len == 0);
  if (val_is_null(st)) {
    for (uint32_t i = 0; i < cf.len; i++)
      if (!val_is_null(cf.u.entries[i].val))
        return true;
    return false;
  }
  for (uint32_t i = 0; i < cf.len; i++) {
    const MapEntry *e = &cf.u.entries[i];
    bool found;
    Value sv = val_map_get(st, e->key, e->keylen, &found);
    if (!found && val_is_null(e->val))
      continue;
    if (found && val_raw_equal(e->val, sv, false))
      continue;
    return true;
  }
  for (uint32_t i = 0; i < st.len; i++) {
    bool found;
    val_map_get(cf, st.u.entries[i].key, st.u.entries[i].keylen, &found);
    if (!found)
      return true;
  }
  return false;
}

void prov_requires_replace(ProvCall *c, ProvPlanResp *resp,
                           const char *name)
{
  ValPath *np = ARENA_NEW(c->arena, ValPath, resp->nrequires_replace + 1);
  for (uint32_t i = 0; i < resp->nrequires_replace; i++)
    np[i] = resp->requires_replace[i];
  np[resp->nrequires_replace] =
      prov_path_attr(c->arena, arena_strdup(c->arena, name));
  resp->requires_replace = np;
  resp->nrequires_replace++;
}

static void os_random(unsigned char *p, size_t n)
{
  while (n > 0) {
    ssize_t r = getrandom(p, n, 0);
    if (r < 0) {
      if (errno == EINTR)
        continue;
      fputs("cairn: getrandom failed\n", stderr);
      abort();
    }
    p += r;
    n -= (size_t)r;
  }
}

/* Small requests (a terraform_data id, a random_id) are served from a
** per-thread buffer of the kernel's bytes, filled 256 at a time: an apply
** of 10,000 made 10,000 getrandom calls, one per id.  The bytes are the
** kernel's, used once each; a forked child (local-exec, data external)
** execs without drawing any. */
#define RANDOM_POOL 256

void prov_random_bytes(void *buf, size_t n)
{
  static _Thread_local unsigned char pool[RANDOM_POOL];
  static _Thread_local size_t left;
  if (n > RANDOM_POOL / 4) {
    os_random(buf, n);
    return;
  }
  if (left < n) {
    os_random(pool, RANDOM_POOL);
    left = RANDOM_POOL;
  }
  unsigned char *src = pool + RANDOM_POOL - left;
  memcpy(buf, src, n);
  memset(src, 0, n);   /* a byte handed out is not kept */
  left -= n;
}

const char *prov_random_uuid(Arena *a)
{
  unsigned char b[16];
  prov_random_bytes(b, sizeof b);
  return arena_printf(a,
                      "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                      "%02x%02x%02x%02x%02x%02x",
                      b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8],
                      b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

bool prov_read_file(Arena *a, const char *path, const char **data,
                    size_t *len)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    errno = e;
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    errno = EISDIR;
    return false;
  }
  size_t cap = st.st_size > 0 ? (size_t)st.st_size : 4096;
  if (cap > ((size_t)1 << 30)) {
    close(fd);
    errno = EFBIG;
    return false;
  }
  char *buf = arena_alloc_raw(a, 1, 1, cap + 1);
  size_t n = 0;
  for (;;) {
    if (n == cap) {
      /* The file grew (or is a pipe): keep reading, bounded. */
      if (cap >= ((size_t)1 << 30)) {
        close(fd);
        errno = EFBIG;
        return false;
      }
      buf = arena_grow(a, buf, 1, 1, cap + 1, cap * 2 + 1);
      cap *= 2;
    }
    ssize_t r = read(fd, buf + n, cap - n);
    if (r < 0) {
      if (errno == EINTR)
        continue;
      int e = errno;
      close(fd);
      errno = e;
      return false;
    }
    if (r == 0)
      break;
    n += (size_t)r;
  }
  close(fd);
  buf[n] = 0;
  *data = buf;
  *len = n;
  return true;
}

/* ---- Base64 ---------------------------------------------------------- */

const char *prov_base64_encode(Arena *a, const void *data, size_t n,
                               bool url, bool pad)
{
  Buf b;
  buf_init(&b, a);
  b64_put(&b, data, n, url, pad);
  return buf_str(&b);
}

bool prov_base64_decode(Arena *a, const char *s, size_t n, uint8_t **out,
                        size_t *outlen, size_t *bad_at)
{
  return b64_decode(a, s, n, out, outlen, bad_at);
}
