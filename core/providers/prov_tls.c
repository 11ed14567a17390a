/*
** prov_tls: the built-in hashicorp/tls provider.
**
** tls_private_key and data tls_public_key with the upstream (plugin
** framework) provider's schemas, schema versions, defaults, plan
** modifiers, state upgrade and messages; the keys and their encodings
** come from tlskey (byte-compatible with what upstream writes for the
** same key), the randomness from a getrandom-seeded CTR-DRBG.  Private
** keys are sensitive by schema, so the core masks them in plans and
** output; no message here ever quotes key material.
**
** Where cairn differs from upstream (docs/providers.md, "### tls"):
** - RSA keys must have an even number of bits, 1024 to 8192 (mbedTLS's
**   limits; Go accepts odd sizes and has no upper bound);
** - PEM input is read as Go's pem.Decode reads it for the forms real
**   files use; unusual header layouts may be refused differently.
*/
#include "provider.h"
#include "tlskey.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NATTRS(x) ((uint32_t)(sizeof(x) / sizeof((x)[0])))
#define OPT PROV_OPTIONAL
#define OC (PROV_OPTIONAL | PROV_COMPUTED)
#define COMP PROV_COMPUTED
#define REQ PROV_REQUIRED
#define SENS PROV_SENSITIVE

#define PEM_NOTE                                                           \
  "**NOTE**: the [underlying](https://pkg.go.dev/encoding/pem#Encode) "    \
  "[libraries](https://pkg.go.dev/golang.org/x/crypto/ssh#MarshalAuthori"  \
  "zedKey) that generate this value append a `\\n` at the end of the PEM. " \
  "In case this disrupts your use case, we recommend using "               \
  "[`trimspace()`](https://www.terraform.io/language/functions/trimspace)."
#define RFC1421 "[PEM (RFC 1421)](https://datatracker.ietf.org/doc/html/rfc1421)"
#define RFC4716                                                            \
  "[OpenSSH PEM (RFC 4716)](https://datatracker.ietf.org/doc/html/rfc4716)"

static const ProvAttrSchema private_key_attrs[] = {
  {.name = "algorithm", .type = &ty_string, .flags = REQ,
   .description = "Name of the algorithm to use when generating the "
                  "private key. Currently-supported values are: `RSA`, "
                  "`ECDSA`, `ED25519`. "},
  {.name = "ecdsa_curve", .type = &ty_string, .flags = OC,
   .description = "When `algorithm` is `ECDSA`, the name of the elliptic "
                  "curve to use. Currently-supported values are: `P224`, "
                  "`P256`, `P384`, `P521`. (default: `P224`)."},
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "Unique identifier for this resource: hexadecimal "
                  "representation of the SHA1 checksum of the resource."},
  {.name = "private_key_openssh", .type = &ty_string, .flags = COMP | SENS,
   .description = "Private key data in " RFC4716 " format."},
  {.name = "private_key_pem", .type = &ty_string, .flags = COMP | SENS,
   .description = "Private key data in " RFC1421 " format."},
  {.name = "private_key_pem_pkcs8", .type = &ty_string,
   .flags = COMP | SENS,
   .description = "Private key data in [PKCS#8 PEM (RFC 5208)](https://"
                  "datatracker.ietf.org/doc/html/rfc5208) format."},
  {.name = "public_key_fingerprint_md5", .type = &ty_string, .flags = COMP,
   .description = "The fingerprint of the public key data in OpenSSH MD5 "
                  "hash format, e.g. `aa:bb:cc:...`. Only available if the "
                  "selected private key format is compatible, similarly to "
                  "`public_key_openssh` and the [ECDSA P224 limitations]"
                  "(../../docs#limitations)."},
  {.name = "public_key_fingerprint_sha256", .type = &ty_string,
   .flags = COMP,
   .description = "The fingerprint of the public key data in OpenSSH "
                  "SHA256 hash format, e.g. `SHA256:...`. Only available if "
                  "the selected private key format is compatible, similarly "
                  "to `public_key_openssh` and the [ECDSA P224 limitations]"
                  "(../../docs#limitations)."},
  {.name = "public_key_openssh", .type = &ty_string, .flags = COMP,
   .description = " The public key data in [\"Authorized Keys\"](https://"
                  "www.ssh.com/academy/ssh/authorized_keys/openssh#format-"
                  "of-the-authorized-keys-file) format. This is not "
                  "populated for `ECDSA` with curve `P224`, as it is [not "
                  "supported](../../docs#limitations). " PEM_NOTE},
  {.name = "public_key_pem", .type = &ty_string, .flags = COMP,
   .description = "Public key data in " RFC1421 " format. " PEM_NOTE},
  {.name = "rsa_bits", .type = &ty_number, .flags = OC,
   .description = "When `algorithm` is `RSA`, the size of the generated "
                  "RSA key, in bits (default: `2048`)."},
};

static const ProvAttrSchema public_key_attrs[] = {
  {.name = "algorithm", .type = &ty_string, .flags = COMP,
   .description = "The name of the algorithm used by the given private "
                  "key. Possible values are: `RSA`, `ECDSA`, `ED25519`. "},
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "Unique identifier for this data source: hexadecimal "
                  "representation of the SHA1 checksum of the data "
                  "source."},
  {.name = "private_key_openssh", .type = &ty_string, .flags = OPT | SENS,
   .description = "The private key (in  " RFC4716 " format) to extract the "
                  "public key from. This is _mutually exclusive_ with "
                  "`private_key_pem`. Currently-supported algorithms for "
                  "keys are: `RSA`, `ECDSA`, `ED25519`. "},
  {.name = "private_key_pem", .type = &ty_string, .flags = OPT | SENS,
   .description = "The private key (in  " RFC1421 " format) to extract the "
                  "public key from. This is _mutually exclusive_ with "
                  "`private_key_openssh`. Currently-supported algorithms "
                  "for keys are: `RSA`, `ECDSA`, `ED25519`. "},
  {.name = "public_key_fingerprint_md5", .type = &ty_string, .flags = COMP,
   .description = "The fingerprint of the public key data in OpenSSH MD5 "
                  "hash format, e.g. `aa:bb:cc:...`. Only available if the "
                  "selected private key format is compatible, as per the "
                  "rules outlined in `public_key_openssh`."},
  {.name = "public_key_fingerprint_sha256", .type = &ty_string,
   .flags = COMP,
   .description = "The fingerprint of the public key data in OpenSSH "
                  "SHA256 hash format, e.g. `SHA256:...`. Only available if "
                  "the selected private key format is compatible, as per "
                  "the rules outlined in `public_key_openssh`."},
  {.name = "public_key_openssh", .type = &ty_string, .flags = COMP,
   .description = "The public key, in  [OpenSSH PEM (RFC 4716)](https://"
                  "datatracker.ietf.org/doc/html/rfc4716) format. This is "
                  "also known as ['Authorized Keys'](https://www.ssh.com/"
                  "academy/ssh/authorized_keys/openssh#format-of-the-"
                  "authorized-keys-file) format. This is not populated for "
                  "`ECDSA` with curve `P224`, as it is [not supported]"
                  "(../../docs#limitations). " PEM_NOTE},
  {.name = "public_key_pem", .type = &ty_string, .flags = COMP,
   .description = "The public key, in  " RFC1421 " format. " PEM_NOTE},
};

static const ProvBlockSchema private_key_block = {
  .attrs = private_key_attrs, .nattrs = NATTRS(private_key_attrs),
  .description = "Creates a PEM (and OpenSSH) formatted private key."};
static const ProvBlockSchema public_key_block = {
  .attrs = public_key_attrs, .nattrs = NATTRS(public_key_attrs),
  .description = "Get a public key from a PEM-encoded private key."};
static const ProvBlockSchema empty_block = {0};

enum { R_PRIVATE_KEY };
enum { D_PUBLIC_KEY };

static const ProvTypeSchema resources[] = {
  [R_PRIVATE_KEY] = {"tls_private_key", {1, &private_key_block}},
};
static const ProvTypeSchema data_sources[] = {
  [D_PUBLIC_KEY] = {"tls_public_key", {0, &public_key_block}},
};
static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .resources = resources, .nresources = NATTRS(resources),
  .data_sources = data_sources, .ndata_sources = NATTRS(data_sources),
};

static const ProvProviderSchema *sch(Prov *p) { return p->impl; }

static void open_tls(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = sch(p);
}

static int type_index(const char *type_name)
{
  for (int i = 0; i < (int)NATTRS(resources); i++)
    if (strcmp(resources[i].type_name, type_name) == 0)
      return i;
  return -1;
}

static const ProvBlockSchema *block_of(Prov *p, const char *type_name)
{
  return prov_schema_resource(sch(p), type_name)->schema.block;
}

static bool known(Value v) { return !val_is_null(v) && val_is_known(v); }

static const char *get_str(Value obj, const char *name)
{
  Value v = prov_get(obj, name);
  return known(v) ? v.u.s : NULL;
}

static Value str(Arena *a, const char *s) { return val_cstr(a, s); }

/* ---- Validation -------------------------------------------------------- */

/* Go's %q of a []string: ["A" "B"]. */
static const char *quoted_list(Arena *a, const char *const *vals)
{
  Buf b;
  buf_init(&b, a);
  buf_putc(&b, '[');
  for (int i = 0; vals[i]; i++)
    buf_printf(&b, "%s\"%s\"", i ? " " : "", vals[i]);
  buf_putc(&b, ']');
  return buf_str(&b);
}

/* stringvalidator.OneOf. */
static void one_of(ProvCall *c, Value cfg, const char *name,
                   const char *const *vals)
{
  Value v = prov_get(cfg, name);
  if (!known(v))
    return;
  for (int i = 0; vals[i]; i++)
    if (strcmp(v.u.s, vals[i]) == 0)
      return;
  prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, name),
                 "Invalid Attribute Value Match",
                 "Attribute %s value must be one of: %s, got: \"%s\"", name,
                 quoted_list(c->arena, vals), v.u.s);
}

static const char *const algorithms[] = {"RSA", "ECDSA", "ED25519", NULL};
static const char *const curves[] = {"P224", "P256", "P384", "P521", NULL};

static void validate_resource(Prov *p, ProvCall *c, const char *type_name,
                              Value cfg)
{
  (void)p;
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  if (type_index(type_name) == R_PRIVATE_KEY) {
    one_of(c, cfg, "algorithm", algorithms);
    one_of(c, cfg, "ecdsa_curve", curves);
  }
}

/* ExactlyOneOf on both key arguments, reported per attribute as the
** framework's validators do. */
static void validate_data(Prov *p, ProvCall *c, const char *type_name,
                          Value cfg)
{
  (void)p;
  (void)type_name;
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  static const char *const names[] = {"private_key_pem",
                                      "private_key_openssh"};
  int count = 0;
  for (int i = 0; i < 2; i++) {
    Value v = prov_get(cfg, names[i]);
    if (!val_is_known(v))
      return;
    count += !val_is_null(v);
  }
  if (count == 1)
    return;
  for (int i = 0; i < 2; i++) {
    ValPath path = prov_path_attr(c->arena, names[i]);
    const char *set = arena_printf(c->arena, "[%s,%s]", names[i],
                                   names[1 - i]);
    if (count == 0)
      prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Combination",
                     "No attribute specified when one (and only one) of %s "
                     "is required", set);
    else
      prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Combination",
                     "2 attributes specified when one (and only one) of %s "
                     "is required", set);
  }
}

/* ---- Keys into state ------------------------------------------------------ */

static uint32_t random_check(void)
{
  uint32_t v;
  tlskey_rng(NULL, (unsigned char *)&v, sizeof v);
  return v;
}

/* The public attributes shared by tls_private_key and tls_public_key
** (upstream's setPublicKeyAttributes). */
static Value set_public(Arena *a, Value v, const TlsKeyText *t)
{
  v = prov_set(a, v, "id", str(a, t->id));
  v = prov_set(a, v, "public_key_pem", str(a, t->public_pem));
  v = prov_set(a, v, "public_key_openssh", str(a, t->authorized_key));
  v = prov_set(a, v, "public_key_fingerprint_md5",
               str(a, t->fingerprint_md5));
  return prov_set(a, v, "public_key_fingerprint_sha256",
                  str(a, t->fingerprint_sha256));
}

/* ---- Plan ------------------------------------------------------------------ */

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  Arena *a = c->arena;
  Value planned = req->proposed_new_state, prior = req->prior_state;
  Value cfg = req->config;
  if (val_is_null(planned)) {
    resp->planned_state = planned;
    return;
  }
  const ProvBlockSchema *b = block_of(p, req->type_name);
  /* int64default.StaticInt64(2048), stringdefault.StaticString("P224") */
  if (val_is_null(prov_get(cfg, "rsa_bits"))) {
    planned = prov_set(a, planned, "rsa_bits", val_int(2048));
    cfg = prov_set(a, cfg, "rsa_bits", val_int(2048));
  }
  if (val_is_null(prov_get(cfg, "ecdsa_curve"))) {
    planned = prov_set(a, planned, "ecdsa_curve", str(a, "P224"));
    cfg = prov_set(a, cfg, "ecdsa_curve", str(a, "P224"));
  }
  if (val_is_null(prior) || !val_raw_equal(prior, planned, false))
    planned = prov_unknown_computed(a, b, prior, planned, cfg, NULL);
  resp->planned_state = planned;
  if (val_is_null(prior))
    return;
  static const char *const rr[] = {"algorithm", "rsa_bits", "ecdsa_curve"};
  for (int i = 0; i < 3; i++)
    if (prov_attr_changed(prior, planned, rr[i]))
      prov_requires_replace(c, resp, rr[i]);
}

/* ---- Apply --------------------------------------------------------------- */

static bool key_state(ProvCall *c, const TlsKey *k, Value *v)
{
  Arena *a = c->arena;
  TlsKeyText t;
  const char *err;
  if (!tlskey_encode(a, k, random_check(), &t, &err)) {
    diag_error(c->diags, NULL, "Unable to encode key to PEM", "%s", err);
    return false;
  }
  *v = prov_set(a, *v, "private_key_pem", str(a, t.private_pem));
  *v = prov_set(a, *v, "private_key_pem_pkcs8", str(a, t.pkcs8_pem));
  *v = prov_set(a, *v, "private_key_openssh", str(a, t.openssh_private));
  *v = set_public(a, *v, &t);
  return true;
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  Value pl = req->planned_state;
  if (val_is_null(pl) || !val_is_null(req->prior_state)) {
    /* Delete, or an update (only ever of nothing: every argument forces
    ** replacement). */
    resp->new_state = pl;
    return;
  }
  const char *alg = get_str(pl, "algorithm");
  TlsAlg ta = !alg                          ? TLS_ALG_NONE
              : strcmp(alg, "RSA") == 0     ? TLS_ALG_RSA
              : strcmp(alg, "ECDSA") == 0   ? TLS_ALG_ECDSA
              : strcmp(alg, "ED25519") == 0 ? TLS_ALG_ED25519
                                            : TLS_ALG_NONE;
  if (ta == TLS_ALG_NONE) {
    diag_error(c->diags, NULL, "Invalid Key Algorithm",
               "Key Algorithm \"%s\" is not supported", alg ? alg : "");
    return;
  }
  int64_t bits = 0;
  (void)val_num_int(prov_get(pl, "rsa_bits"), &bits);
  TlsKey k;
  const char *err;
  tlskey_init(&k);
  bool ok = tlskey_generate(a, &k, ta,
                            bits > 1 << 20 ? 1 << 20 : (int)bits,
                            get_str(pl, "ecdsa_curve"), &err);
  if (!ok)
    diag_error(c->diags, NULL, "Unable to generate Key from configuration",
               "%s", err);
  else if (key_state(c, &k, &pl))
    resp->new_state = pl;
  tlskey_free(&k);
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  (void)p;
  (void)c;
  resp->new_state = req->current_state;
  resp->private_data = req->private_data;
}

/* Schema version 0 (provider 3.x) lacked private_key_openssh,
** public_key_fingerprint_sha256 and private_key_pem_pkcs8: they are
** computed from private_key_pem, as upstream's UpgradeState does. */
static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  Value v;
  if (!prov_decode_state(c, block_of(p, req->type_name), req->raw_json,
                         req->raw_len, &v))
    return;
  if (req->version >= 1) {
    resp->upgraded_state = v;
    return;
  }
  Arena *a = c->arena;
  const char *pem = get_str(v, "private_key_pem");
  TlsKey k;
  TlsKeyText t;
  const char *err;
  tlskey_init(&k);
  if (!tlskey_parse_pem(a, &k, pem ? pem : "", pem ? strlen(pem) : 0,
                        &err)) {
    diag_error(c->diags, NULL, "Unable to parse key from PEM", "%s", err);
  } else if (!tlskey_encode(a, &k, random_check(), &t, &err)) {
    diag_error(c->diags, NULL, "Unable to encode private key to PKCS#8 PEM",
               "%s", err);
  } else {
    const char *ossh = get_str(v, "private_key_openssh");
    if (!ossh || !*ossh)
      v = prov_set(a, v, "private_key_openssh", str(a, t.openssh_private));
    v = prov_set(a, v, "private_key_pem_pkcs8", str(a, t.pkcs8_pem));
    resp->upgraded_state = set_public(a, v, &t);
  }
  tlskey_free(&k);
}

/* ---- Data sources ---------------------------------------------------------- */

static void read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                      ProvReadDataResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  Value v = req->config;
  const char *pem = get_str(v, "private_key_pem");
  const char *ossh = get_str(v, "private_key_openssh");
  TlsKey k;
  TlsKeyText t;
  const char *err;
  tlskey_init(&k);
  bool ok;
  if (pem)
    ok = tlskey_parse_pem(a, &k, pem, strlen(pem), &err);
  else if (ossh)
    ok = tlskey_parse_openssh(a, &k, ossh, strlen(ossh), &err);
  else {
    ok = false;
    err = "no valid private key was provided via `private_key_pem` nor "
          "`private_key_openssh`";
  }
  if (!ok) {
    diag_error(c->diags, NULL, "Unable to parse private key", "%s", err);
  } else if (!tlskey_encode(a, &k, 0, &t, &err)) {
    diag_error(c->diags, NULL, "Failed to marshal public key", "%s", err);
  } else {
    v = prov_set(a, v, "algorithm", str(a, tlskey_alg_name(k.alg)));
    resp->state = set_public(a, v, &t);
  }
  tlskey_free(&k);
}

static const ProvOps ops = {
  .get_schema = get_schema,
  .validate_provider_config = prov_default_validate,
  .validate_resource_config = validate_resource,
  .validate_data_resource_config = validate_data,
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

const ProvBuiltin prov_tls_builtin = {
  .addr = "registry.terraform.io/hashicorp/tls",
  .type = "tls",
  .ops = &ops,
  .open = open_tls,
};
