/*
** prov_cloudinit: the built-in hashicorp/cloudinit provider.
**
** data "cloudinit_config" and the (deprecated upstream) resource
** "cloudinit_config", schema-identical to the upstream provider's current
** release.  Both render the `part` blocks into a MIME multi-part document
** byte-identical to what upstream writes with Go's mime/multipart and
** net/textproto: the two preamble lines upstream writes itself, then per
** part the boundary line and the header lines in textproto's canonical
** key order, the content, and the closing boundary.  gzip (the default)
** compresses with goflate, Go's compress/flate algorithm, fed with the
** same Write calls Go's writers make, and wraps it as compress/gzip does;
** base64_encode (the default) then encodes with the standard alphabet.
** `id` is the CRC-32 (IEEE) of `rendered` in decimal, as upstream's
** hashcode.String on a 64-bit host.
**
** The resource renders on create and again on every read (upstream does
** the same, so a changed default shows as drift); every argument forces
** replacement, so update never happens.
*/
#include "base/goflate.h"
#include "provider.h"

#include <string.h>

#define NATTRS(x) ((uint32_t)(sizeof(x) / sizeof((x)[0])))

/* ---- Schemas ------------------------------------------------------------ */

static const ProvAttrSchema ds_part_attrs[] = {
  {.name = "content_type", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "A MIME-style content type to report in the header for "
                  "the part. Defaults to `text/plain`"},
  {.name = "content", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "Body content for the part."},
  {.name = "filename", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "A filename to report in the header for the part."},
  {.name = "merge_type", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "A value for the `X-Merge-Type` header of the part, to "
                  "control cloud-init merging behavior."},
};
static const ProvBlockSchema ds_part_block = {
  .attrs = ds_part_attrs, .nattrs = NATTRS(ds_part_attrs)};
static const ProvNestedBlock ds_blocks[] = {
  {"part", PROV_NEST_LIST, &ds_part_block, 0, 0},
};
static const ProvAttrSchema ds_attrs[] = {
  {.name = "gzip", .type = &ty_bool, .flags = PROV_OPTIONAL,
   .description = "Specify whether or not to gzip the `rendered` output. "
                  "Defaults to `true`."},
  {.name = "base64_encode", .type = &ty_bool, .flags = PROV_OPTIONAL,
   .description = "Specify whether or not to base64 encode the `rendered` "
                  "output. Defaults to `true`, and cannot be disabled if "
                  "gzip is `true`."},
  {.name = "boundary", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Specify the Writer's default boundary separator. "
                  "Defaults to `MIMEBOUNDARY`."},
  {.name = "rendered", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "The final rendered multi-part cloud-init config."},
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "CRC-32 checksum of `rendered` cloud-init config."},
};
static const ProvBlockSchema ds_block = {
  .attrs = ds_attrs, .nattrs = NATTRS(ds_attrs),
  .blocks = ds_blocks, .nblocks = NATTRS(ds_blocks)};

/* The resource: the same names, with the defaults as Optional+Computed
** attributes (upstream's DefaultValue plan modifiers). */
static const ProvAttrSchema rs_part_attrs[] = {
  {.name = "content_type", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_COMPUTED,
   .description = "A MIME-style content type to report in the header for "
                  "the part. Defaults to `text/plain`"},
  {.name = "content", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "Body content for the part."},
  {.name = "filename", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "A filename to report in the header for the part."},
  {.name = "merge_type", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "A value for the `X-Merge-Type` header of the part, to "
                  "control cloud-init merging behavior."},
};
static const ProvBlockSchema rs_part_block = {
  .attrs = rs_part_attrs, .nattrs = NATTRS(rs_part_attrs)};
static const ProvNestedBlock rs_blocks[] = {
  {"part", PROV_NEST_LIST, &rs_part_block, 0, 0},
};
static const ProvAttrSchema rs_attrs[] = {
  {.name = "gzip", .type = &ty_bool, .flags = PROV_OPTIONAL | PROV_COMPUTED,
   .description = "Specify whether or not to gzip the `rendered` output. "
                  "Defaults to `true`."},
  {.name = "base64_encode", .type = &ty_bool,
   .flags = PROV_OPTIONAL | PROV_COMPUTED,
   .description = "Specify whether or not to base64 encode the `rendered` "
                  "output. Defaults to `true`, and cannot be disabled if "
                  "gzip is `true`."},
  {.name = "boundary", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_COMPUTED,
   .description = "Specify the Writer's default boundary separator. "
                  "Defaults to `MIMEBOUNDARY`."},
  {.name = "rendered", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "The final rendered multi-part cloud-init config."},
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "CRC-32 checksum of `rendered` cloud-init config."},
};
static const ProvBlockSchema rs_block = {
  .attrs = rs_attrs, .nattrs = NATTRS(rs_attrs),
  .blocks = rs_blocks, .nblocks = NATTRS(rs_blocks),
  .description = "**NOTE**: This resource is deprecated, use data source "
                 "instead.",
  .deprecated = true};

static const ProvBlockSchema empty_block = {0};
static const ProvTypeSchema resources[] = {
  {"cloudinit_config", {0, &rs_block}},
};
static const ProvTypeSchema data_sources[] = {
  {"cloudinit_config", {0, &ds_block}},
};
static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .resources = resources, .nresources = NATTRS(resources),
  .data_sources = data_sources, .ndata_sources = NATTRS(data_sources),
  /* ephemeral cloudinit_config: the data source's schema and read */
  .ephemeral_resources = data_sources,
  .nephemeral_resources = NATTRS(data_sources),
  .plan_destroy = true,
};

static void open_cloudinit(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = p->impl;
}

/* ---- Paths -------------------------------------------------------------- */

static ValPath part_path(Arena *a, uint32_t i, const char *attr)
{
  PathStep *s = ARENA_NEW(a, PathStep, attr ? 3 : 2);
  s[0] = (PathStep){.kind = PS_ATTR, .name = "part"};
  s[1] = (PathStep){.kind = PS_INDEX, .index = i};
  if (attr)
    s[2] = (PathStep){.kind = PS_ATTR, .name = attr};
  return (ValPath){s, attr ? 3u : 2u};
}

static bool known_str(Value v)
{
  return v.type && !val_is_null(v) && val_is_known(v);
}

/* ---- Validation (both types: upstream's ValidateConfig) ----------------- */

static void length_at_least_1(ProvCall *c, Value v, ValPath path,
                              const char *shown)
{
  if (known_str(v) && v.len < 1)
    prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Value Length",
                   "Attribute %s string length must be at least 1, got: 0",
                   shown);
}

static void validate(Prov *p, ProvCall *c, const char *type_name, Value cfg)
{
  (void)p;
  (void)type_name;
  Arena *a = c->arena;
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  Value parts = prov_get(cfg, "part");
  if (val_is_known(parts) && (val_is_null(parts) || parts.len == 0))
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "part"),
                   "Invalid Block",
                   "Block part must have a configuration value as the "
                   "provider has marked it as required");
  for (uint32_t i = 0; val_is_known(parts) && !val_is_null(parts) &&
                       i < parts.len; i++) {
    Value pt = parts.u.elems[i];
    if (val_is_null(pt) || !val_is_known(pt))
      continue;
    length_at_least_1(c, prov_get(pt, "content_type"),
                      part_path(a, i, "content_type"),
                      arena_printf(a, "part[%u].content_type", i));
  }
  length_at_least_1(c, prov_get(cfg, "boundary"),
                    prov_path_attr(a, "boundary"), "boundary");
  Value gz = prov_get(cfg, "gzip"), b64 = prov_get(cfg, "base64_encode");
  if (!val_is_known(gz) || !val_is_known(b64))
    return;
  bool g = val_is_null(gz) || gz.u.b;
  bool b = val_is_null(b64) || b64.u.b;
  if (g && !b)
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "base64_encode"),
                   "Invalid Attribute Configuration",
                   "Expected base64_encode to be set to true when gzip is "
                   "true.");
}

/* ---- Rendering ---------------------------------------------------------- */

/* mime/multipart's SetBoundary (RFC 2046 section 5.1.1): 1 to 70 bytes of
** letters, digits and '()+_,-./:=? and spaces, not ending in a space.
** NULL when valid, else Go's error text. */
static const char *check_boundary(const char *s, size_t n)
{
  if (n < 1 || n > 70)
    return "mime: invalid boundary length";
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
        (ch >= '0' && ch <= '9') || (ch && strchr("'()+_,-./:=?", ch)))
      continue;
    if (ch == ' ' && i != n - 1)
      continue;
    return "mime: invalid boundary character";
  }
  return NULL;
}

/* The document as the sequence of Write calls Go's writers make (the
** gzip output depends on where the writes split only at window
** boundaries, but keeping them makes it exact). */
typedef struct Seg {
  const char *p;
  size_t n;
} Seg;

typedef struct Doc {
  Arena *a;
  Seg *segs;
  uint32_t n, cap;
  size_t total;
} Doc;

static void doc_put(Doc *d, const char *p, size_t n)
{
  if (d->n == d->cap) {
    uint32_t nc = d->cap ? d->cap * 2 : 16;
    Seg *ns = ARENA_NEW(d->a, Seg, nc);
    if (d->n)
      memcpy(ns, d->segs, sizeof(Seg) * d->n);
    d->segs = ns;
    d->cap = nc;
  }
  d->segs[d->n++] = (Seg){p, n};
  d->total += n;
}

static const char *str_or(Value v, const char *dflt)
{
  return known_str(v) ? v.u.s : dflt;
}

/* Renders cfg (known, defaults not yet applied) into d.  NULL on success,
** else the error text. */
static const char *render_parts(Arena *a, Value cfg, Doc *d)
{
  Value bv = prov_get(cfg, "boundary");
  const char *bnd = str_or(bv, "MIMEBOUNDARY");
  const char *err = check_boundary(bnd, strlen(bnd));
  if (err)
    return err;
  const char *l1 = arena_printf(a, "Content-Type: multipart/mixed; "
                                "boundary=\"%s\"\n", bnd);
  doc_put(d, l1, strlen(l1));
  static const char l2[] = "MIME-Version: 1.0\r\n\r\n";
  doc_put(d, l2, sizeof l2 - 1);
  Value parts = prov_get(cfg, "part");
  uint32_t np = val_is_null(parts) ? 0 : parts.len;
  for (uint32_t i = 0; i < np; i++) {
    Value pt = parts.u.elems[i];
    Value ct = prov_get(pt, "content_type");
    const char *ctype = known_str(ct) && ct.len > 0 ? ct.u.s : "text/plain";
    const char *fname = str_or(prov_get(pt, "filename"), "");
    const char *merge = str_or(prov_get(pt, "merge_type"), "");
    /* textproto canonicalises MIME-Version to Mime-Version; CreatePart
    ** writes the keys sorted. */
    Buf h;
    buf_init(&h, a);
    buf_printf(&h, i ? "\r\n--%s\r\n" : "--%s\r\n", bnd);
    if (*fname)
      buf_printf(&h, "Content-Disposition: attachment; filename=\"%s\"\r\n",
                 fname);
    buf_printf(&h, "Content-Transfer-Encoding: 7bit\r\n");
    buf_printf(&h, "Content-Type: %s\r\n", ctype);
    buf_printf(&h, "Mime-Version: 1.0\r\n");
    if (*merge)
      buf_printf(&h, "X-Merge-Type: %s\r\n", merge);
    buf_printf(&h, "\r\n");
    doc_put(d, buf_str(&h), h.len);
    Value cv = prov_get(pt, "content");
    if (known_str(cv) && cv.len > 0)
      doc_put(d, cv.u.s, cv.len);
  }
  const char *end = arena_printf(a, np ? "\r\n--%s--\r\n" : "--%s--\r\n",
                                 bnd);
  doc_put(d, end, strlen(end));
  return NULL;
}

static uint32_t crc32_ieee(uint32_t crc, const void *data, size_t n)
{
  const unsigned char *p = data;
  crc = ~crc;
  for (size_t i = 0; i < n; i++) {
    crc ^= p[i];
    for (int k = 0; k < 8; k++)
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

/* The gzip member of d's writes, as Go's gzip.NewWriter (DefaultCompression,
** the zero header): goflate's streaming gzip gets the same Write calls
** Go's would (Go's output can depend on where writes split). */
static const char *gzip_doc(Arena *a, const Doc *d, size_t *len)
{
  Buf out;
  buf_init(&out, a);
  GoGzip *z = goflate_gzip_new(a, &out, -1);
  for (uint32_t i = 0; i < d->n; i++)
    goflate_gzip_write(z, (const unsigned char *)d->segs[i].p, d->segs[i].n);
  goflate_gzip_close(z);
  *len = out.len;
  return buf_str(&out);
}

/* Renders cfg; on failure appends upstream's diagnostic and returns
** false.  *rendered and *id receive the results (in c->arena). */
static bool render(ProvCall *c, Value cfg, Value *rendered, Value *id)
{
  Arena *a = c->arena;
  Doc d = {.a = a};
  const char *err = render_parts(a, cfg, &d);
  if (err) {
    diag_error(c->diags, NULL, "Unable to render cloudinit config",
               "error writing part block to MIME multi-part file: %s", err);
    return false;
  }
  Value gz = prov_get(cfg, "gzip"), b64 = prov_get(cfg, "base64_encode");
  bool g = val_is_null(gz) || gz.u.b;
  bool b = val_is_null(b64) || b64.u.b;
  const char *bytes;
  size_t n;
  if (g) {
    bytes = gzip_doc(a, &d, &n);
  } else {
    char *o = ARENA_NEW(a, char, d.total + 1);
    size_t k = 0;
    for (uint32_t i = 0; i < d.n; i++) {
      memcpy(o + k, d.segs[i].p, d.segs[i].n);
      k += d.segs[i].n;
    }
    bytes = o;
    n = k;
  }
  const char *out = b ? prov_base64_encode(a, bytes, n, false, true) : bytes;
  size_t on = b ? strlen(out) : n;
  *rendered = val_str(a, out, on);
  *id = val_cstr(a, arena_printf(a, "%lu",
                                 (unsigned long)crc32_ieee(0, out, on)));
  return true;
}

/* cfg with upstream's defaults written in (setDefaultValues). */
static Value with_defaults(Arena *a, Value v)
{
  if (val_is_null(prov_get(v, "gzip")))
    v = prov_set(a, v, "gzip", val_bool(true));
  if (val_is_null(prov_get(v, "base64_encode")))
    v = prov_set(a, v, "base64_encode", val_bool(true));
  if (val_is_null(prov_get(v, "boundary")))
    v = prov_set(a, v, "boundary", val_cstr(a, "MIMEBOUNDARY"));
  Value parts = prov_get(v, "part");
  if (val_is_null(parts) || !val_is_known(parts) || parts.len == 0)
    return v;
  Value *e = ARENA_NEW(a, Value, parts.len);
  for (uint32_t i = 0; i < parts.len; i++) {
    e[i] = parts.u.elems[i];
    if (!val_is_null(e[i]) && val_is_known(e[i]) &&
        val_is_null(prov_get(e[i], "content_type")))
      e[i] = prov_set(a, e[i], "content_type", val_cstr(a, "text/plain"));
  }
  return prov_set(a, v, "part",
                  val_list(a, parts.type->elem, e, parts.len));
}

/* ---- Data source -------------------------------------------------------- */

static void read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                      ProvReadDataResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  Value cfg = req->config, rendered, id;
  if (!render(c, cfg, &rendered, &id))
    return;
  Value st = with_defaults(a, cfg);
  st = prov_set(a, st, "rendered", rendered);
  resp->state = prov_set(a, st, "id", id);
}

/* ---- Resource ----------------------------------------------------------- */

static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  (void)p;
  (void)req;
  prov_decode_state(c, &rs_block, req->raw_json, req->raw_len,
                    &resp->upgraded_state);
}

static void add_replace(ProvCall *c, ProvPlanResp *resp, ValPath path)
{
  ValPath *np = ARENA_NEW(c->arena, ValPath, resp->nrequires_replace + 1);
  for (uint32_t i = 0; i < resp->nrequires_replace; i++)
    np[i] = resp->requires_replace[i];
  np[resp->nrequires_replace++] = path;
  resp->requires_replace = np;
}

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  Arena *a = c->arena;
  Value planned = req->proposed_new_state, prior = req->prior_state;
  if (val_is_null(planned)) {
    resp->planned_state = planned;
    return;
  }
  const ProvBlockSchema *b = prov_schema_resource(p->impl,
                                                  req->type_name)->schema.block;
  /* DefaultValue plan modifiers: where the configuration is null. */
  Value cfg = req->config;
  static const char *const tops[] = {"gzip", "base64_encode", "boundary"};
  Value dflt = with_defaults(a, cfg);
  for (int i = 0; i < 3; i++)
    if (val_is_null(prov_get(cfg, tops[i])))
      planned = prov_set(a, planned, tops[i], prov_get(dflt, tops[i]));
  Value cparts = prov_get(cfg, "part"), pparts = prov_get(planned, "part");
  if (val_is_known(cparts) && !val_is_null(cparts) &&
      val_is_known(pparts) && !val_is_null(pparts) &&
      cparts.len == pparts.len && pparts.len > 0) {
    Value *e = ARENA_NEW(a, Value, pparts.len);
    for (uint32_t i = 0; i < pparts.len; i++) {
      e[i] = pparts.u.elems[i];
      Value ce = cparts.u.elems[i];
      if (val_is_known(ce) && !val_is_null(ce) &&
          val_is_null(prov_get(ce, "content_type")))
        e[i] = prov_set(a, e[i], "content_type", val_cstr(a, "text/plain"));
    }
    planned = prov_set(a, planned, "part",
                       val_list(a, pparts.type->elem, e, pparts.len));
  }
  if (val_is_null(prior) || !val_raw_equal(prior, planned, false))
    planned = prov_unknown_computed(a, b, prior, planned, dflt, NULL);
  if (!val_is_null(prior)) {
    for (int i = 0; i < 3; i++)
      if (prov_attr_changed(prior, planned, tops[i]))
        prov_requires_replace(c, resp, tops[i]);
    Value op = prov_get(prior, "part"), np = prov_get(planned, "part");
    uint32_t on = val_is_null(op) ? 0 : op.len;
    uint32_t nn = !val_is_known(np) || val_is_null(np) ? 0 : np.len;
    if (!val_is_known(np) || on != nn) {
      prov_requires_replace(c, resp, "part");
    } else {
      static const char *const pa[] = {"content_type", "content",
                                       "filename", "merge_type"};
      for (uint32_t i = 0; i < nn; i++)
        for (int k = 0; k < 4; k++)
          if (prov_attr_changed(op.u.elems[i], np.u.elems[i], pa[k]))
            add_replace(c, resp, part_path(a, i, pa[k]));
    }
    if (resp->nrequires_replace > 0) {
      planned = prov_set(a, planned, "rendered", val_unknown(&ty_string));
      planned = prov_set(a, planned, "id", val_unknown(&ty_string));
    }
  }
  resp->planned_state = planned;
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  Value plan = req->planned_state;
  if (val_is_null(plan) || !val_is_null(req->prior_state)) {
    /* Delete, or an update (none: every argument forces replacement). */
    resp->new_state = plan;
    return;
  }
  Value rendered, id;
  if (!render(c, plan, &rendered, &id))
    return;
  Value st = prov_set(a, plan, "rendered", rendered);
  resp->new_state = prov_set(a, st, "id", id);
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  Value st = req->current_state;
  resp->new_state = st;
  resp->private_data = req->private_data;
  if (val_is_null(st))
    return;
  /* Upstream re-renders from the state, defaults filled in (state written
  ** by v2.2.0 lacks them). */
  st = with_defaults(a, st);
  Value rendered, id;
  if (!render(c, st, &rendered, &id))
    return;
  st = prov_set(a, st, "rendered", rendered);
  resp->new_state = prov_set(a, st, "id", id);
}

/* The resource carries the framework's schema-level DeprecationMessage:
** the framework warns "Resource Deprecated" (no attribute path, so
** Terraform points at the block) whenever it validates the resource's
** configuration, then validates as for the data source. */
static void validate_resource(Prov *p, ProvCall *c, const char *type_name,
                              Value cfg)
{
  diag_warning(c->diags, NULL, "Resource Deprecated", "%s",
               rs_block.description);
  validate(p, c, type_name, cfg);
}

static const ProvEphOps eph_ops = {validate, prov_open_ephemeral_as_data,
                                   NULL, NULL};

static const ProvOps ops = {
  .eph = &eph_ops,
  .get_schema = get_schema,
  .validate_provider_config = prov_default_validate,
  .validate_resource_config = validate_resource,
  .validate_data_resource_config = validate,
  .upgrade_resource_state = upgrade,
  .configure = prov_default_configure,
  .read_resource = read_resource,
  .plan_resource_change = plan,
  .apply_resource_change = apply,
  .import_resource_state = prov_default_import,
  .read_data_source = read_data,
  .stop = prov_default_stop,
  .close = prov_default_close,
};

const ProvBuiltin prov_cloudinit_builtin = {
  .addr = "registry.terraform.io/hashicorp/cloudinit",
  .type = "cloudinit",
  .ops = &ops,
  .open = open_cloudinit,
};
