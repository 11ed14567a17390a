/*
** prov_tls: the built-in hashicorp/tls provider.
**
** tls_private_key, tls_self_signed_cert, tls_cert_request,
** tls_locally_signed_cert and data tls_public_key with the upstream
** (plugin framework) provider's schemas, schema versions, defaults, plan
** modifiers (ready_for_renewal's replacement included), state upgrade
** and messages; the keys and their encodings come from tlskey
** (byte-compatible with what upstream writes for the same key), the
** certificates from tlscert, the randomness from a getrandom-seeded
** CTR-DRBG.  Private keys are sensitive by schema, so the core masks them
** in plans and output; no message here ever quotes key material.
**
** Where cairn differs from upstream (docs/providers.md, "### tls"):
** - RSA keys must have an even number of bits, 1024 to 8192 (mbedTLS's
**   limits; Go accepts odd sizes and has no upper bound);
** - PEM input is read as Go's pem.Decode reads it for the forms real
**   files use; unusual header layouts may be refused differently;
** - data tls_certificate and the provider's proxy block live in
**   prov_tls_certificate.c (prov_tls_priv.h holds what both share).
*/
#include "prov_tls_priv.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static const Type list_string = {.kind = TY_LIST, .elem = &ty_string};

#define DN(n, what)                                                        \
  {.name = n, .type = &ty_string, .flags = OPT,                            \
   .description = "Distinguished name: `" what "`"}

static const ProvAttrSchema subject_attrs[] = {
  DN("common_name", "CN"),
  DN("country", "C"),
  {.name = "email_address", .type = &ty_string, .flags = OPT,
   .description = "ASN.1 Object Identifier (OID): `1.2.840.113549.1.9.1`"},
  DN("locality", "L"),
  DN("organization", "O"),
  DN("organizational_unit", "OU"),
  DN("postal_code", "PC"),
  DN("province", "ST"),
  DN("serial_number", "SERIALNUMBER"),
  {.name = "street_address", .type = &list_string, .flags = OPT,
   .description = "Distinguished name: `STREET`"},
};
static const ProvBlockSchema subject_block = {
  .attrs = subject_attrs, .nattrs = NATTRS(subject_attrs),
  .description = "The subject for which a certificate is being requested. "
                 "The acceptable arguments are all optional and their "
                 "naming is based upon [Issuer Distinguished Names "
                 "(RFC5280)](https://tools.ietf.org/html/rfc5280#section-"
                 "4.1.2.4) section."};
static const ProvNestedBlock subject_nested[] = {
  {"subject", PROV_NEST_LIST, &subject_block, 0, 0},
};

#define USES_DESC                                                          \
  "List of key usages allowed for the issued certificate. Values are "     \
  "defined in [RFC 5280](https://datatracker.ietf.org/doc/html/rfc5280) "  \
  "and combine flags defined by both [Key Usages](https://datatracker."    \
  "ietf.org/doc/html/rfc5280#section-4.2.1.3) and [Extended Key Usages]"   \
  "(https://datatracker.ietf.org/doc/html/rfc5280#section-4.2.1.12). "     \
  "Accepted values: `any_extended`, `cert_signing`, `client_auth`, "       \
  "`code_signing`, `content_commitment`, `crl_signing`, "                  \
  "`data_encipherment`, `decipher_only`, `digital_signature`, "            \
  "`email_protection`, `encipher_only`, `ipsec_end_system`, "              \
  "`ipsec_tunnel`, `ipsec_user`, `key_agreement`, `key_encipherment`, "    \
  "`microsoft_commercial_code_signing`, `microsoft_kernel_code_signing`, " \
  "`microsoft_server_gated_crypto`, `netscape_server_gated_crypto`, "      \
  "`ocsp_signing`, `server_auth`, `timestamping`."
#define A_USES                                                             \
  {.name = "allowed_uses", .type = &list_string, .flags = REQ,             \
   .description = USES_DESC}
#define A_CERT_PEM                                                         \
  {.name = "cert_pem", .type = &ty_string, .flags = COMP,                  \
   .description = "Certificate data in " RFC1421 " format. " PEM_NOTE}
#define A_EARLY                                                            \
  {.name = "early_renewal_hours", .type = &ty_number, .flags = OC,         \
   .description = "The resource will consider the certificate to have "    \
                  "expired the given number of hours before its actual "   \
                  "expiry time. This can be useful to deploy an updated "  \
                  "certificate in advance of the expiration of the "       \
                  "current certificate. However, the old certificate "     \
                  "remains valid until its true expiration time, since "   \
                  "this resource does not (and cannot) support "           \
                  "certificate revocation. Also, this advance update can " \
                  "only be performed should the Terraform configuration "  \
                  "be applied during the early renewal period. (default: " \
                  "`0`)"}
#define A_IS_CA                                                            \
  {.name = "is_ca_certificate", .type = &ty_bool, .flags = OC,             \
   .description = "Is the generated certificate representing a "           \
                  "Certificate Authority (CA) (default: `false`)."}
#define A_MAX_PATH                                                         \
  {.name = "max_path_length", .type = &ty_number, .flags = OC,             \
   .description = "Maximum number of intermediate certificates that may "  \
                  "follow this certificate in a valid certification path. " \
                  "If `is_ca_certificate` is `false`, this value is "      \
                  "ignored. (default: `-1`)"}
#define A_READY                                                            \
  {.name = "ready_for_renewal", .type = &ty_bool, .flags = COMP,           \
   .description = "Is the certificate either expired (i.e. beyond the "    \
                  "`validity_period_hours`) or ready for an early renewal " \
                  "(i.e. within the `early_renewal_hours`)?"}
#define A_SKID                                                             \
  {.name = "set_subject_key_id", .type = &ty_bool, .flags = OC,            \
   .description = "Should the generated certificate include a [subject "   \
                  "key identifier](https://datatracker.ietf.org/doc/html/" \
                  "rfc5280#section-4.2.1.2) (default: `false`)."}
#define A_END                                                              \
  {.name = "validity_end_time", .type = &ty_string, .flags = COMP,         \
   .description = "The time until which the certificate is invalid, "      \
                  "expressed as an [RFC3339](https://tools.ietf.org/html/" \
                  "rfc3339) timestamp."}
#define A_HOURS                                                            \
  {.name = "validity_period_hours", .type = &ty_number, .flags = REQ,      \
   .description = "Number of hours, after initial issuing, that the "      \
                  "certificate will remain valid for."}
#define A_START                                                            \
  {.name = "validity_start_time", .type = &ty_string, .flags = COMP,       \
   .description = "The time after which the certificate is valid, "        \
                  "expressed as an [RFC3339](https://tools.ietf.org/html/" \
                  "rfc3339) timestamp."}
#define A_DNS                                                              \
  {.name = "dns_names", .type = &list_string, .flags = OPT,                \
   .description = "List of DNS names for which a certificate is being "    \
                  "requested (i.e. certificate subjects)."}
#define A_IPS                                                              \
  {.name = "ip_addresses", .type = &list_string, .flags = OPT,             \
   .description = "List of IP addresses for which a certificate is being " \
                  "requested (i.e. certificate subjects)."}
#define A_URIS                                                             \
  {.name = "uris", .type = &list_string, .flags = OPT,                     \
   .description = "List of URIs for which a certificate is being "         \
                  "requested (i.e. certificate subjects)."}
/* v4.4: the key may come from a write-only argument instead, with a
** version whose change replaces the object (upstream's ExactlyOneOf and
** RequiredTogether, checked by wo_pair). */
#define A_KEY_PEM(desc)                                                    \
  {.name = "private_key_pem", .type = &ty_string, .flags = OPT | SENS,     \
   .description = desc "Exactly one of `private_key_pem` or "              \
                  "`private_key_pem_wo` must be set."},                    \
  {.name = "private_key_pem_wo", .type = &ty_string,                       \
   .flags = OPT | SENS | PROV_WRITE_ONLY,                                  \
   .description = "Write-only private key in " RFC1421 " format, that the " \
                  "certificate will belong to. Unlike `private_key_pem`, " \
                  "the value provided here is never persisted to "         \
                  "Terraform state. Requires `private_key_pem_wo_version` " \
                  "to be set, and exactly one of `private_key_pem` or "    \
                  "`private_key_pem_wo` must be set."},                    \
  {.name = "private_key_pem_wo_version", .type = &ty_number, .flags = OPT, \
   .description = "The version of the `private_key_pem_wo` write-only "    \
                  "private key. Because the write-only key is not stored " \
                  "in state, this version is the only signal the "         \
                  "provider has that the key changed: increment it to "    \
                  "force the certificate to be re-issued when rotating "   \
                  "the key."}
#define A_KEY_ALG                                                          \
  {.name = "key_algorithm", .type = &ty_string, .flags = COMP,             \
   .description = "Name of the algorithm used when generating the private " \
                  "key provided in `private_key_pem`. "}

static const ProvAttrSchema self_signed_attrs[] = {
  A_USES, A_CERT_PEM, A_DNS, A_EARLY,
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "Unique identifier for this resource: the certificate "
                  "serial number."},
  A_IPS, A_IS_CA, A_KEY_ALG, A_MAX_PATH,
  A_KEY_PEM("Private key in " RFC1421 " format, that the certificate will "
            "belong to. This can be read from a separate file using the "
            "[`file`](https://www.terraform.io/language/functions/file) "
            "interpolation function. "),
  A_READY,
  {.name = "set_authority_key_id", .type = &ty_bool, .flags = OC,
   .description = "Should the generated certificate include an [authority "
                  "key identifier](https://datatracker.ietf.org/doc/html/"
                  "rfc5280#section-4.2.1.1): for self-signed certificates "
                  "this is the same value as the [subject key identifier]"
                  "(https://datatracker.ietf.org/doc/html/rfc5280#section-"
                  "4.2.1.2) (default: `false`)."},
  A_SKID, A_URIS, A_END, A_HOURS, A_START,
};

static const ProvAttrSchema cert_request_attrs[] = {
  {.name = "cert_request_pem", .type = &ty_string, .flags = COMP,
   .description = "The certificate request data in " RFC1421 " format. "
                  PEM_NOTE},
  A_DNS,
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "Unique identifier for this resource: hexadecimal "
                  "representation of the SHA1 checksum of the resource."},
  A_IPS, A_KEY_ALG,
  A_KEY_PEM("Private key in " RFC1421 " format, that the certificate "
            "belongs to. This can be read from a separate file using the "
            "[`file`](https://www.terraform.io/language/functions/file) "
            "interpolation function. "),
  A_URIS,
};

static const ProvAttrSchema locally_signed_attrs[] = {
  A_USES,
  {.name = "ca_cert_pem", .type = &ty_string, .flags = REQ,
   .description = "Certificate data of the Certificate Authority (CA) in "
                  RFC1421 " format."},
  {.name = "ca_key_algorithm", .type = &ty_string, .flags = COMP,
   .description = "Name of the algorithm used when generating the private "
                  "key provided in `ca_private_key_pem`. "},
  {.name = "ca_private_key_pem", .type = &ty_string, .flags = OPT | SENS,
   .description = "Private key of the Certificate Authority (CA) used to "
                  "sign the certificate, in " RFC1421 " format. Exactly "
                  "one of `ca_private_key_pem` or `ca_private_key_pem_wo` "
                  "must be set."},
  {.name = "ca_private_key_pem_wo", .type = &ty_string,
   .flags = OPT | SENS | PROV_WRITE_ONLY,
   .description = "Write-only private key of the Certificate Authority "
                  "(CA) used to sign the certificate, in " RFC1421
                  " format. It is never persisted to Terraform state. "
                  "Requires `ca_private_key_pem_wo_version` to be set."},
  {.name = "ca_private_key_pem_wo_version", .type = &ty_number,
   .flags = OPT,
   .description = "The version of the `ca_private_key_pem_wo` write-only "
                  "CA private key: increment it to force the certificate "
                  "to be re-issued when rotating the key."},
  A_CERT_PEM,
  {.name = "cert_request_pem", .type = &ty_string, .flags = REQ,
   .description = "Certificate request data in " RFC1421 " format."},
  A_EARLY,
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "Unique identifier for this resource: the certificate "
                  "serial number."},
  A_IS_CA, A_MAX_PATH, A_READY, A_SKID, A_END, A_HOURS, A_START,
};

static const ProvBlockSchema self_signed_block = {
  .attrs = self_signed_attrs, .nattrs = NATTRS(self_signed_attrs),
  .blocks = subject_nested, .nblocks = 1,
  .description = "Creates a **self-signed** TLS certificate in " RFC1421
                 " format."};
static const ProvBlockSchema cert_request_block = {
  .attrs = cert_request_attrs, .nattrs = NATTRS(cert_request_attrs),
  .blocks = subject_nested, .nblocks = 1,
  .description = "Creates a Certificate Signing Request (CSR) in " RFC1421
                 " format."};
static const ProvBlockSchema locally_signed_block = {
  .attrs = locally_signed_attrs, .nattrs = NATTRS(locally_signed_attrs),
  .description = "Creates a TLS certificate in " RFC1421 " format using a "
                 "Certificate Signing Request (CSR) and signs it with a "
                 "provided (local) Certificate Authority (CA)."};

/* data "tls_certificate": certificates is a list of objects. */
static const char *const cert_obj_names[] = {
  "cert_pem", "is_ca", "issuer", "max_path_length", "not_after",
  "not_before", "public_key_algorithm", "serial_number", "sha1_fingerprint",
  "signature_algorithm", "subject", "version"};
static const Type *const cert_obj_types[] = {
  &ty_string, &ty_bool, &ty_string, &ty_number, &ty_string, &ty_string,
  &ty_string, &ty_string, &ty_string, &ty_string, &ty_string, &ty_number};
const Type prov_tls_cert_obj = {.kind = TY_OBJECT, .n = 12,
                              .names = cert_obj_names,
                              .types = cert_obj_types};
static const Type list_cert_obj = {.kind = TY_LIST, .elem = &prov_tls_cert_obj};

static const ProvAttrSchema certificate_attrs[] = {
  {.name = "certificates", .type = &list_cert_obj, .flags = COMP,
   .description = "The certificates protecting the site, with the root of "
                  "the chain first."},
  {.name = "content", .type = &ty_string, .flags = OPT,
   .description = "The content of the certificate in " RFC1421 " format."},
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "Unique identifier of this data source: hashing of the "
                  "certificates in the chain."},
  {.name = "url", .type = &ty_string, .flags = OPT,
   .description = "URL of the endpoint to get the certificates from. "
                  "Accepted schemes are: `https`, `tls`. For scheme "
                  "`https://` it will use the HTTP protocol and apply the "
                  "`proxy` configuration of the provider, if set. For "
                  "scheme `tls://` it will instead use a secure TCP socket."},
  {.name = "verify_chain", .type = &ty_bool, .flags = OPT,
   .description = "Whether to verify the certificate chain while parsing "
                  "it or not (default: `true`)."},
};
static const ProvBlockSchema certificate_block = {
  .attrs = certificate_attrs, .nattrs = NATTRS(certificate_attrs),
  .description = "Get information about the TLS certificates securing a "
                 "host.\n\nUse this data source to get information, such as "
                 "SHA1 fingerprint or serial number, about the TLS "
                 "certificates that protects a URL."};

/* The provider's proxy block (used by data "tls_certificate" with url). */
static const ProvAttrSchema proxy_attrs[] = {
  {.name = "from_env", .type = &ty_bool, .flags = OPT,
   .description = "When `true` the provider will discover the proxy "
                  "configuration from environment variables. This is based "
                  "upon [`http.ProxyFromEnvironment`](https://pkg.go.dev/"
                  "net/http#ProxyFromEnvironment) and it supports the same "
                  "environment variables (default: `true`)."},
  {.name = "password", .type = &ty_string, .flags = OPT | SENS,
   .description = "Password used for Basic authentication against the "
                  "Proxy."},
  {.name = "url", .type = &ty_string, .flags = OPT,
   .description = "URL used to connect to the Proxy. Accepted schemes are: "
                  "`http`, `https`, `socks5`. "},
  {.name = "username", .type = &ty_string, .flags = OPT,
   .description = "Username (or Token) used for Basic authentication "
                  "against the Proxy."},
};
static const ProvBlockSchema proxy_block = {
  .attrs = proxy_attrs, .nattrs = NATTRS(proxy_attrs),
  .description = "Proxy used by resources and data sources that connect to "
                 "external endpoints."};
static const ProvNestedBlock provider_nested[] = {
  {"proxy", PROV_NEST_LIST, &proxy_block, 0, 1},
};
static const ProvBlockSchema provider_block = {
  .blocks = provider_nested, .nblocks = 1};

enum { R_CERT_REQUEST, R_LOCALLY_SIGNED, R_PRIVATE_KEY, R_SELF_SIGNED };
enum { D_CERTIFICATE, D_PUBLIC_KEY };

static const ProvTypeSchema resources[] = {
  [R_CERT_REQUEST] = {"tls_cert_request", {0, &cert_request_block}},
  [R_LOCALLY_SIGNED] = {"tls_locally_signed_cert",
                        {0, &locally_signed_block}},
  [R_PRIVATE_KEY] = {"tls_private_key", {1, &private_key_block}},
  [R_SELF_SIGNED] = {"tls_self_signed_cert", {0, &self_signed_block}},
};
static const ProvTypeSchema data_sources[] = {
  [D_CERTIFICATE] = {"tls_certificate", {0, &certificate_block}},
  [D_PUBLIC_KEY] = {"tls_public_key", {0, &public_key_block}},
};
/* The ephemeral twins (tls v4.1.0): the managed key and the data source
** without `id`. */
#define PUBLIC_OUT                                                         \
  {.name = "public_key_fingerprint_md5", .type = &ty_string, .flags = COMP}, \
  {.name = "public_key_fingerprint_sha256", .type = &ty_string,            \
   .flags = COMP},                                                         \
  {.name = "public_key_openssh", .type = &ty_string, .flags = COMP},       \
  {.name = "public_key_pem", .type = &ty_string, .flags = COMP}
static const ProvAttrSchema eph_private_attrs[] = {
  {.name = "algorithm", .type = &ty_string, .flags = REQ},
  {.name = "ecdsa_curve", .type = &ty_string, .flags = OC},
  {.name = "private_key_openssh", .type = &ty_string, .flags = COMP | SENS},
  {.name = "private_key_pem", .type = &ty_string, .flags = COMP | SENS},
  {.name = "private_key_pem_pkcs8", .type = &ty_string, .flags = COMP | SENS},
  PUBLIC_OUT,
  {.name = "rsa_bits", .type = &ty_number, .flags = OC},
};
static const ProvAttrSchema eph_public_attrs[] = {
  {.name = "algorithm", .type = &ty_string, .flags = COMP},
  {.name = "private_key_openssh", .type = &ty_string, .flags = OPT | SENS},
  {.name = "private_key_pem", .type = &ty_string, .flags = OPT | SENS},
  PUBLIC_OUT,
};
static const ProvBlockSchema eph_private_block = {
  .attrs = eph_private_attrs, .nattrs = NATTRS(eph_private_attrs)};
static const ProvBlockSchema eph_public_block = {
  .attrs = eph_public_attrs, .nattrs = NATTRS(eph_public_attrs)};
static const ProvTypeSchema ephemerals[] = {
  {"tls_private_key", {0, &eph_private_block}},
  {"tls_public_key", {0, &eph_public_block}},
};

static const ProvProviderSchema schema = {
  .provider = {0, &provider_block},
  .resources = resources, .nresources = NATTRS(resources),
  .data_sources = data_sources, .ndata_sources = NATTRS(data_sources),
  .ephemeral_resources = ephemerals,
  .nephemeral_resources = NATTRS(ephemerals),
};

static const ProvProviderSchema *sch(Prov *p)
{
  return ((TlsProv *)p->impl)->schema;
}

static void open_tls(Prov *p)
{
  TlsProv *t = ARENA_NEW(p->arena, TlsProv, 1);
  t->schema = prov_schema_clone(p->arena, &schema);
  t->proxy.from_env = true;
  p->impl = t;
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


/* int64validator.AtLeast. */
static void at_least(ProvCall *c, Value cfg, const char *name, int64_t min)
{
  Value v = prov_get(cfg, name);
  int64_t i;
  if (known(v) && val_num_int(v, &i) && i < min)
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, name),
                   "Invalid Attribute Value",
                   "Attribute %s value must be at least %lld, got: %lld",
                   name, (long long)min, (long long)i);
}

/* listvalidator.ValueStringsAre(stringvalidator.OneOf(...)) on
** allowed_uses and ValueStringsAre(LengthAtLeast(1)) on the address
** lists. */
static void check_lists(ProvCall *c, Value cfg)
{
  Arena *a = c->arena;
  Value l = prov_get(cfg, "allowed_uses");
  for (uint32_t i = 0; known(l) && i < l.len; i++) {
    Value e = l.u.elems[i];
    if (known(e) && !tlscert_is_usage(e.u.s))
      prov_diag_attr(c, DIAG_ERROR, path_index(a, "allowed_uses", i),
                     "Invalid Attribute Value Match",
                     "Attribute allowed_uses[%u] value must be one of: %s, "
                     "got: \"%s\"", i,
                     quoted_list(a, tlscert_usage_names), e.u.s);
  }
  static const char *const addr[] = {"ip_addresses", "uris"};
  for (int k = 0; k < 2; k++) {
    l = prov_get(cfg, addr[k]);
    for (uint32_t i = 0; known(l) && i < l.len; i++)
      if (known(l.u.elems[i]) && l.u.elems[i].len == 0)
        prov_diag_attr(c, DIAG_ERROR, path_index(a, addr[k], i),
                       "Invalid Attribute Value Length",
                       "Attribute %s[%u] string length must be at least 1, "
                       "got: 0", addr[k], i);
  }
  l = prov_get(cfg, "subject");
  if (known(l) && l.len > 1)
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "subject"),
                   "Invalid Attribute Value",
                   "Attribute subject list must contain at least 0 elements "
                   "and at most 1 elements, got: %u", l.len);
}

/* The key arguments of v4.4: resourcevalidator.ExactlyOneOf(pem, pem_wo)
** and RequiredTogether(pem_wo, pem_wo_version), with the framework's
** texts; unknown values defer the check, as there. */
static void wo_pair(ProvCall *c, Value cfg, const char *pem)
{
  Arena *a = c->arena;
  const char *wo = arena_printf(a, "%s_wo", pem);
  const char *ver = arena_printf(a, "%s_wo_version", pem);
  Value vp = prov_get(cfg, pem), vw = prov_get(cfg, wo),
        vv = prov_get(cfg, ver);
  if (val_is_known(vp) && val_is_known(vw)) {
    if (val_is_null(vp) && val_is_null(vw))
      diag_error(c->diags, NULL, "Missing Attribute Configuration",
                 "Exactly one of these attributes must be configured: "
                 "[%s,%s]", pem, wo);
    else if (!val_is_null(vp) && !val_is_null(vw))
      prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, pem),
                     "Invalid Attribute Combination",
                     "Exactly one of these attributes must be configured: "
                     "[%s,%s]", pem, wo);
  }
  if (val_is_known(vw) && val_is_known(vv) &&
      val_is_null(vw) != val_is_null(vv))
    prov_diag_attr(c, DIAG_ERROR,
                   prov_path_attr(a, val_is_null(vw) ? ver : wo),
                   "Invalid Attribute Combination",
                   "These attributes must be configured together: [%s,%s]",
                   wo, ver);
}

static void validate_resource(Prov *p, ProvCall *c, const char *type_name,
                              Value cfg)
{
  (void)p;
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  int t = type_index(type_name);
  if (t == R_PRIVATE_KEY) {
    one_of(c, cfg, "algorithm", algorithms);
    one_of(c, cfg, "ecdsa_curve", curves);
    return;
  }
  if (t == R_SELF_SIGNED || t == R_LOCALLY_SIGNED) {
    at_least(c, cfg, "validity_period_hours", 0);
    at_least(c, cfg, "early_renewal_hours", 0);
    at_least(c, cfg, "max_path_length", -1);
  }
  wo_pair(c, cfg, t == R_LOCALLY_SIGNED ? "ca_private_key_pem"
                                        : "private_key_pem");
  check_lists(c, cfg);
}

/* ExactlyOneOf over two arguments, reported on both as the framework's
** per-attribute validators do; false when it failed. */
static bool exactly_one(ProvCall *c, Value cfg, const char *x, const char *y)
{
  const char *names[2] = {x, y};
  int count = 0;
  for (int i = 0; i < 2; i++) {
    Value v = prov_get(cfg, names[i]);
    if (!val_is_known(v))
      return true;
    count += !val_is_null(v);
  }
  if (count == 1)
    return true;
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
  return false;
}

/* upstream's UrlWithScheme("https", "tls") on url. */
static void check_url(ProvCall *c, Value cfg)
{
  const char *u = get_str(cfg, "url");
  if (!u)
    return;
  ValPath path = prov_path_attr(c->arena, "url");
  const char *sep = strstr(u, "://");
  const char *host = sep ? sep + 3 : "";
  size_t hl = strcspn(host, "/?#");
  const char *at = memchr(host, '@', hl);
  if (at) {
    hl -= (size_t)(at + 1 - host);
    host = at + 1;
  }
  if (!sep || hl == 0) {
    prov_diag_attr(c, DIAG_ERROR, path, "Invalid URL",
                   "URL \"%s\" contains no host", u);
    return;
  }
  size_t sl = (size_t)(sep - u);
  if (!((sl == 5 && strncmp(u, "https", 5) == 0) ||
        (sl == 3 && strncmp(u, "tls", 3) == 0)))
    prov_diag_attr(c, DIAG_ERROR, path, "Invalid URL scheme",
                   "URL \"%s\" expected to use scheme from [\"https\" "
                   "\"tls\"], got: \"%.*s\"", u, (int)sl, u);
}

static void validate_data(Prov *p, ProvCall *c, const char *type_name,
                          Value cfg)
{
  (void)p;
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  if (strcmp(type_name, "tls_public_key") == 0) {
    (void)exactly_one(c, cfg, "private_key_pem", "private_key_openssh");
    return;
  }
  check_url(c, cfg);
  (void)exactly_one(c, cfg, "content", "url");
  Value vc = prov_get(cfg, "verify_chain"), ct = prov_get(cfg, "content");
  if (!val_is_null(vc) && !val_is_null(ct) && val_is_known(vc))
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "verify_chain"),
                   "Invalid Attribute Combination",
                   "Attribute \"content\" cannot be specified when "
                   "\"verify_chain\" is specified");
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

typedef struct Default {
  const char *name;
  int kind;  /* 0 bool, 1 int, 2 string */
  int64_t i;
  const char *s;
} Default;

static const Default key_defaults[] = {
  {"rsa_bits", 1, 2048, NULL}, {"ecdsa_curve", 2, 0, "P224"}, {NULL, 0, 0, NULL}};
static const Default cert_defaults[] = {
  {"early_renewal_hours", 1, 0, NULL}, {"is_ca_certificate", 0, 0, NULL},
  {"max_path_length", 1, -1, NULL},    {"set_subject_key_id", 0, 0, NULL},
  {"set_authority_key_id", 0, 0, NULL}, {"ready_for_renewal", 0, 0, NULL},
  {NULL, 0, 0, NULL}};

/* Arguments whose change forces replacement, per resource type. */
static const char *const replace_key[] = {"algorithm", "rsa_bits",
                                          "ecdsa_curve", NULL};
static const char *const replace_self[] = {
  "validity_period_hours", "allowed_uses", "dns_names", "ip_addresses",
  "uris", "is_ca_certificate", "set_subject_key_id", "set_authority_key_id",
  "subject", "private_key_pem_wo_version", NULL};
static const char *const replace_request[] = {
  "dns_names", "ip_addresses", "uris", "subject",
  "private_key_pem_wo_version", NULL};
static const char *const replace_local[] = {
  "cert_request_pem", "validity_period_hours", "allowed_uses",
  "is_ca_certificate", "set_subject_key_id", "ca_private_key_pem_wo_version",
  NULL};

/* upstream's requireReplaceIfStateContainsPEMString: a changed key
** replaces the object unless the state holds provider 3.x's hash of it
** (then the new PEM is just recorded). */
static bool pem_replaces(Value prior, Value planned, const char *name)
{
  if (!prov_attr_changed(prior, planned, name))
    return false;
  const char *ps = get_str(prior, name);
  return ps && strncmp(ps, "-----BEGIN", 10) == 0;
}

static ProvTime now_utc(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (ProvTime){.unix = ts.tv_sec, .offset = 0};
}

/* validity_end_time minus early_renewal_hours has passed (upstream's
** modifyPlanIfCertificateReadyForRenewal / ...State...). */
static bool ready_for_renewal(Arena *a, Value v)
{
  const char *end = get_str(v, "validity_end_time");
  ProvTime t;
  const char *err;
  int64_t early = 0;
  if (!end || !prov_time_parse(a, end, &t, &err))
    return false;
  (void)val_num_int(prov_get(v, "early_renewal_hours"), &early);
  return t.unix - early * 3600 <= now_utc().unix;
}

static Value default_value(Arena *a, const Default *d)
{
  if (d->kind == 0)
    return val_bool(d->i != 0);
  if (d->kind == 1)
    return val_int(d->i);
  return str(a, d->s);
}

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
  int t = type_index(req->type_name);
  const ProvBlockSchema *b = block_of(p, req->type_name);
  const Default *defs = t == R_PRIVATE_KEY ? key_defaults
                        : t == R_CERT_REQUEST ? NULL
                                              : cert_defaults;
  for (; defs && defs->name; defs++) {
    if (!prov_block_attr(b, defs->name) ||
        !val_is_null(prov_get(cfg, defs->name)))
      continue;
    Value dv = default_value(a, defs);
    planned = prov_set(a, planned, defs->name, dv);
    if (strcmp(defs->name, "ready_for_renewal") != 0)
      cfg = prov_set(a, cfg, defs->name, dv);
  }
  /* write-only values reach apply through the configuration only */
  static const char *const wos[] = {"private_key_pem_wo",
                                    "ca_private_key_pem_wo"};
  for (int i = 0; i < 2; i++)
    if (prov_block_attr(b, wos[i]))
      planned = prov_set(a, planned, wos[i], val_null(&ty_string));
  if (val_is_null(prior) || !val_raw_equal(prior, planned, false))
    planned = prov_unknown_computed(a, b, prior, planned, cfg, NULL);
  resp->planned_state = planned;
  if (val_is_null(prior))
    return;
  const char *const *rr = t == R_PRIVATE_KEY    ? replace_key
                          : t == R_SELF_SIGNED  ? replace_self
                          : t == R_CERT_REQUEST ? replace_request
                                                : replace_local;
  for (int i = 0; rr[i]; i++)
    if (prov_attr_changed(prior, planned, rr[i]))
      prov_requires_replace(c, resp, rr[i]);
  static const char *const pems[] = {"private_key_pem", "ca_private_key_pem",
                                     "ca_cert_pem"};
  if (t != R_PRIVATE_KEY)
    for (int i = 0; i < 3; i++)
      if (prov_block_attr(b, pems[i]) && pem_replaces(prior, planned, pems[i]))
        prov_requires_replace(c, resp, pems[i]);
  if ((t == R_SELF_SIGNED || t == R_LOCALLY_SIGNED) &&
      ready_for_renewal(a, planned)) {
    resp->planned_state = prov_set(a, planned, "ready_for_renewal",
                                   val_unknown(&ty_bool));
    prov_requires_replace(c, resp, "ready_for_renewal");
  }
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

static void create_key(ProvCall *c, Value pl, ProvApplyResp *resp)
{
  Arena *a = c->arena;
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
                            bits > 1 << 20 ? 1 << 20 : bits < 0 ? 0 : (int)bits,
                            get_str(pl, "ecdsa_curve"), &err);
  if (!ok)
    diag_error(c->diags, NULL, "Unable to generate Key from configuration",
               "%s", err);
  else if (key_state(c, &k, &pl))
    resp->new_state = pl;
  tlskey_free(&k);
}

/* The strings of a list(string) attribute (nothing when null). */
static const char *const *strings_of(Arena *a, Value obj, const char *name,
                                     uint32_t *n)
{
  Value l = prov_get(obj, name);
  *n = 0;
  if (!known(l))
    return NULL;
  const char **out = ARENA_NEW(a, const char *, l.len + 1);
  for (uint32_t i = 0; i < l.len; i++)
    if (known(l.u.elems[i]))
      out[(*n)++] = l.u.elems[i].u.s;
  return out;
}

/* Go's %#v of a string. */
static const char *goq(Arena *a, const char *s)
{
  Buf b;
  buf_init(&b, a);
  buf_putc(&b, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      buf_putc(&b, '\\');
    buf_putc(&b, *s);
  }
  buf_putc(&b, '"');
  return buf_str(&b);
}

/* Subject, DNS names, IP addresses and URIs of a self-signed certificate
** or a request, with upstream's errors for bad addresses. */
static bool names_of(ProvCall *c, Value pl, TlsBytes *subject, TlsSans *sans)
{
  Arena *a = c->arena;
  TlsName n;
  memset(&n, 0, sizeof n);
  Value sl = prov_get(pl, "subject");
  if (known(sl) && sl.len > 0 && known(sl.u.elems[0])) {
    Value so = sl.u.elems[0];
    n.common_name = get_str(so, "common_name");
    n.country = get_str(so, "country");
    n.locality = get_str(so, "locality");
    n.organization = get_str(so, "organization");
    n.organizational_unit = get_str(so, "organizational_unit");
    n.postal_code = get_str(so, "postal_code");
    n.province = get_str(so, "province");
    n.serial_number = get_str(so, "serial_number");
    n.email_address = get_str(so, "email_address");
    n.street = strings_of(a, so, "street_address", &n.nstreet);
  }
  *subject = tlscert_name(a, &n);
  memset(sans, 0, sizeof *sans);
  sans->dns = strings_of(a, pl, "dns_names", &sans->ndns);
  uint32_t nip;
  const char *const *ips = strings_of(a, pl, "ip_addresses", &nip);
  TlsBytes *ipb = ARENA_NEW(a, TlsBytes, nip + 1);
  for (uint32_t i = 0; i < nip; i++)
    if (!tlscert_parse_ip(a, ips[i], &ipb[i])) {
      diag_error(c->diags, NULL, "Invalid IP address", "Failed to parse %s",
                 goq(a, ips[i]));
      return false;
    }
  sans->ips = ipb;
  sans->nips = nip;
  sans->uris = strings_of(a, pl, "uris", &sans->nuris);
  for (uint32_t i = 0; i < sans->nuris; i++)
    for (const char *q = sans->uris[i]; *q; q++)
      if ((unsigned char)*q < 0x20 || *q == 0x7f) {
        diag_error(c->diags, NULL, "Invalid URI",
                   "Failed to parse %s: parse %s: net/url: invalid control "
                   "character in URL", goq(a, sans->uris[i]),
                   goq(a, sans->uris[i]));
        return false;
      }
  return true;
}

/* A private key from a PEM attribute, or when it is null from its
** write-only twin NAME_wo in the configuration cfg; summary names
** which. */
static bool key_from(ProvCall *c, Value pl, Value cfg, const char *name,
                     const char *summary, TlsKey *k)
{
  const char *pem = get_str(pl, name);
  if (!pem)
    pem = get_str(cfg, arena_printf(c->arena, "%s_wo", name));
  const char *err;
  if (!tlskey_parse_pem(c->arena, k, pem ? pem : "", pem ? strlen(pem) : 0,
                        &err)) {
    diag_error(c->diags, NULL, summary, "%s", err);
    return false;
  }
  return true;
}

/* The DER of the first PEM block of attribute name, which must be of
** type want. */
static bool der_from(ProvCall *c, Value pl, const char *name,
                     const char *want, const char *summary, TlsBytes *out)
{
  const char *pem = get_str(pl, name), *type;
  uint8_t *der;
  size_t n = pem ? strlen(pem) : 0, dern, rest;
  if (!pem || !tlskey_pem_decode(c->arena, pem, n, &type, &der, &dern,
                                 &rest)) {
    diag_error(c->diags, NULL, summary, "failed to decode PEM block: "
               "decoded bytes 0, undecoded %zu", n);
    return false;
  }
  if (strcmp(type, want) != 0) {
    diag_error(c->diags, NULL, summary, "unexpected PEM preamble: %s "
               "(expected %s)", type, want);
    return false;
  }
  *out = (TlsBytes){der, dern};
  return true;
}

/* Does path hold a TZif file (what Go's time package can load)? */
static bool tzif_file(const char *path)
{
  char magic[4] = {0};
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  size_t n = fread(magic, 1, sizeof magic, f);
  fclose(f);
  return n == 4 && memcmp(magic, "TZif", 4) == 0;
}

/* The offset of Go's time.Local at t, for the validity times upstream
** formats with time.Now(): TZ unset is /etc/localtime, TZ empty or "UTC"
** is UTC, else (after a leading ':') a file path or a zone name looked
** up in Go's zoneinfo directories.  What Go cannot load (a POSIX rule
** such as "UTC-2", which libc would honour) falls back to UTC, as Go's
** initLocal does; what it can load, libc reads the same file for. */
static long go_local_offset(int64_t t)
{
  const char *tz = getenv("TZ");
  if (tz) {
    static const char *const dirs[] = {
      "/usr/share/zoneinfo/", "/usr/share/lib/zoneinfo/",
      "/usr/lib/locale/TZ/", "/etc/zoneinfo/"};
    char path[4096];
    bool found = false;
    tz += *tz == ':';
    if (!*tz || strcmp(tz, "UTC") == 0)
      return 0;
    if (*tz == '/')
      found = tzif_file(tz);
    for (size_t i = 0; !found && *tz != '/' && i < 4; i++)
      found = (size_t)snprintf(path, sizeof path, "%s%s", dirs[i], tz) <
                  sizeof path && tzif_file(path);
    if (!found)
      return 0;
  }
  time_t tt = (time_t)t;
  struct tm tm;
  if (!localtime_r(&tt, &tm))
    return 0;
  return tm.tm_gmtoff;
}

/* upstream's createCertificate: validity, serial, usages, CA flag, key
** identifiers, then the signed certificate and its computed attributes
** into *pl.  parent_ski: the issuer's subject key identifier (the
** template's own when self-signed), for set_authority_key_id. */
static bool issue(ProvCall *c, Value *pl, TlsCertTemplate *t,
                  const TlsKey *signer, bool self_signed)
{
  Arena *a = c->arena;
  const char *err;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  int64_t hours = 0;
  (void)val_num_int(prov_get(*pl, "validity_period_hours"), &hours);
  if (hours > 100000000)
    hours = 100000000; /* far past year 9999: refused by tlscert */
  t->not_before = now.tv_sec;
  t->not_after = now.tv_sec + hours * 3600;
  uint32_t nuses;
  const char *const *uses = strings_of(a, *pl, "allowed_uses", &nuses);
  for (uint32_t i = 0; i < nuses; i++)
    t->key_usage |= tlscert_key_usage_bit(uses[i]);
  t->ext_usages = uses;
  t->next_usages = nuses;
  Value isca = prov_get(*pl, "is_ca_certificate");
  if (known(isca) && isca.u.b) {
    if (tlscert_name_empty(t->subject)) {
      diag_error(c->diags, NULL, "Invalid Certificate Subject",
                 "Must contain at least one Distinguished Name when "
                 "creating Certificate Authority (CA)");
      return false;
    }
    t->is_ca = true;
    if (!tlscert_key_id(a, t->spki, &t->ski, &err)) {
      diag_error(c->diags, NULL, "Failed to generate subject key "
                 "identifier", "%s", err);
      return false;
    }
  }
  t->max_path_len = -1;
  (void)val_num_int(prov_get(*pl, "max_path_length"), &t->max_path_len);
  Value skid = prov_get(*pl, "set_subject_key_id");
  if (known(skid) && skid.u.b &&
      !tlscert_key_id(a, t->spki, &t->ski, &err)) {
    diag_error(c->diags, NULL, "Failed to generate subject key identifier",
               "%s", err);
    return false;
  }
  Value akid = prov_get(*pl, "set_authority_key_id");
  if (self_signed && known(akid) && akid.u.b) {
    if (t->ski.n == 0) {
      diag_error(c->diags, NULL, "Invalid Certificate Authority",
                 "Could not determine Authority Key Identifier");
      return false;
    }
    t->aki = t->ski;
  }
  if (self_signed)
    t->issuer = t->subject;
  TlsBytes serial, der;
  const char *dec;
  tlscert_serial(a, &serial, &dec);
  if (!tlscert_create(a, t, serial, signer, &der, &err)) {
    diag_error(c->diags, NULL, "Failed to create certificate", "%s", err);
    return false;
  }
  Value v = *pl;
  v = prov_set(a, v, "id", str(a, dec));
  v = prov_set(a, v, "cert_pem",
               str(a, tlskey_pem(a, "CERTIFICATE", der.p, der.n)));
  /* time.Now() is in time.Local, and MarshalText keeps its zone */
  v = prov_set(a, v, "validity_start_time",
               str(a, tlscert_time_text(a, t->not_before, now.tv_nsec,
                                        go_local_offset(t->not_before))));
  v = prov_set(a, v, "validity_end_time",
               str(a, tlscert_time_text(a, t->not_after, now.tv_nsec,
                                        go_local_offset(t->not_after))));
  *pl = prov_set(a, v, "ready_for_renewal", val_false);
  return true;
}

static void create_self_signed(ProvCall *c, Value pl, Value cfg,
                               ProvApplyResp *resp)
{
  Arena *a = c->arena;
  TlsKey k;
  TlsCertTemplate t;
  const uint8_t *spki;
  const char *err;
  memset(&t, 0, sizeof t);
  tlskey_init(&k);
  if (key_from(c, pl, cfg, "private_key_pem",
               "Failed to parse private key PEM", &k) &&
      names_of(c, pl, &t.subject, &t.sans)) {
    pl = prov_set(a, pl, "key_algorithm", str(a, tlskey_alg_name(k.alg)));
    if (!tlskey_public_der(a, &k, &spki, &t.spki.n, &err))
      diag_error(c->diags, NULL, "Failed to get public key from private key",
                 "%s", err);
    else {
      t.spki.p = spki;
      if (issue(c, &pl, &t, &k, true))
        resp->new_state = pl;
    }
  }
  tlskey_free(&k);
}

static void create_request(ProvCall *c, Value pl, Value cfg,
                           ProvApplyResp *resp)
{
  Arena *a = c->arena;
  TlsKey k;
  TlsBytes subject, der;
  TlsSans sans;
  const char *err;
  tlskey_init(&k);
  if (key_from(c, pl, cfg, "private_key_pem",
               "Failed to parse private key PEM", &k) &&
      names_of(c, pl, &subject, &sans)) {
    if (!tlscert_request(a, subject, &sans, &k, &der, &err)) {
      diag_error(c->diags, NULL, "Error creating certificate request", "%s",
                 err);
    } else {
      pl = prov_set(a, pl, "key_algorithm", str(a, tlskey_alg_name(k.alg)));
      pl = prov_set(a, pl, "cert_request_pem",
                    str(a, tlskey_pem(a, "CERTIFICATE REQUEST", der.p,
                                      der.n)));
      resp->new_state = prov_set(a, pl, "id",
                                 str(a, tlskey_hash_for_state(a, der.p,
                                                              der.n)));
    }
  }
  tlskey_free(&k);
}

static void create_locally_signed(ProvCall *c, Value pl, Value cfg,
                                  ProvApplyResp *resp)
{
  Arena *a = c->arena;
  TlsKey ca;
  TlsCertTemplate t;
  TlsBytes csr, cacert, ca_subject, ca_spki, ca_ski;
  const uint8_t *kspki;
  size_t kspkin;
  const char *err;
  memset(&t, 0, sizeof t);
  tlskey_init(&ca);
  if (!der_from(c, pl, "cert_request_pem", "CERTIFICATE REQUEST",
                "Failed to decode certificate request PEM", &csr) ||
      !der_from(c, pl, "ca_cert_pem", "CERTIFICATE",
                "Failed to decode CA certificate PEM", &cacert) ||
      !key_from(c, pl, cfg, "ca_private_key_pem",
                "Failed to parse CA private key PEM", &ca))
    goto out;
  if (!tlscert_parse_request(a, csr, &t.subject, &t.spki, &t.sans, &err)) {
    diag_error(c->diags, NULL, "Failed to parse certificate request", "%s",
               err);
    goto out;
  }
  if (!tlscert_parse_cert(a, cacert, &ca_subject, &ca_spki, &ca_ski,
                          &err)) {
    diag_error(c->diags, NULL, "Failed to parse CA certificate", "%s", err);
    goto out;
  }
  pl = prov_set(a, pl, "ca_key_algorithm", str(a, tlskey_alg_name(ca.alg)));
  if (!tlskey_public_der(a, &ca, &kspki, &kspkin, &err) ||
      kspkin != ca_spki.n || memcmp(kspki, ca_spki.p, kspkin) != 0) {
    diag_error(c->diags, NULL, "Failed to create certificate",
               "x509: provided PrivateKey doesn't match parent's PublicKey");
    goto out;
  }
  t.issuer = ca_subject;
  /* Go sets the authority key identifier from the issuer's subject key
  ** identifier whenever issuer and subject differ. */
  if (!(ca_subject.n == t.subject.n &&
        memcmp(ca_subject.p, t.subject.p, t.subject.n) == 0))
    t.aki = ca_ski;
  if (issue(c, &pl, &t, &ca, false))
    resp->new_state = pl;
out:
  tlskey_free(&ca);
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  (void)p;
  Value pl = req->planned_state;
  if (val_is_null(pl) || !val_is_null(req->prior_state)) {
    /* Delete, or an update in place (early_renewal_hours,
    ** max_path_length, a 3.x key hash replaced by its PEM): the plan
    ** already holds every value. */
    resp->new_state = pl;
    return;
  }
  switch (type_index(req->type_name)) {
  case R_PRIVATE_KEY:
    create_key(c, pl, resp);
    break;
  case R_SELF_SIGNED:
    create_self_signed(c, pl, req->config, resp);
    break;
  case R_CERT_REQUEST:
    create_request(c, pl, req->config, resp);
    break;
  default:
    create_locally_signed(c, pl, req->config, resp);
    break;
  }
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  (void)p;
  Value st = req->current_state;
  int t = type_index(req->type_name);
  if ((t == R_SELF_SIGNED || t == R_LOCALLY_SIGNED) && known(st) &&
      ready_for_renewal(c->arena, st))
    st = prov_set(c->arena, st, "ready_for_renewal", val_true);
  resp->new_state = st;
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
  if (strcmp(req->type_name, "tls_certificate") == 0) {
    prov_tls_read_certificate(p, c, req, resp);
    return;
  }
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

/* Ephemeral tls_private_key is the managed create, tls_public_key the
** data source read, as upstream's Open functions are. */
static bool eph_key(const char *type_name)
{
  return strcmp(type_name, "tls_private_key") == 0;
}

static void validate_eph(Prov *p, ProvCall *c, const char *type_name,
                         Value cfg)
{
  if (eph_key(type_name))
    validate_resource(p, c, type_name, cfg);
  else
    validate_data(p, c, type_name, cfg);
}

static void open_eph(Prov *p, ProvCall *c, const ProvOpenEphReq *req,
                     ProvOpenEphResp *resp)
{
  Arena *a = c->arena;
  Value cfg = req->config, out = {0};
  if (eph_key(req->type_name)) {
    for (const Default *d = key_defaults; d->name; d++)
      if (val_is_null(prov_get(cfg, d->name)))
        cfg = prov_set(a, cfg, d->name, default_value(a, d));
    ProvApplyResp ar;
    memset(&ar, 0, sizeof ar);
    create_key(c, cfg, &ar);
    out = ar.new_state;
  } else {
    ProvReadDataReq rq = {req->type_name, cfg};
    ProvReadDataResp rr;
    memset(&rr, 0, sizeof rr);
    read_data(p, c, &rq, &rr);
    out = rr.state;
  }
  if (out.type)
    resp->result = prov_object_of(
        a, prov_schema_ephemeral(sch(p), req->type_name)->schema.block, out);
}

static const ProvEphOps eph_ops = {validate_eph, open_eph, NULL, NULL};

static const ProvOps ops = {
  .eph = &eph_ops,
  .get_schema = get_schema,
  .validate_provider_config = prov_tls_validate_provider,
  .validate_resource_config = validate_resource,
  .validate_data_resource_config = validate_data,
  .upgrade_resource_state = upgrade,
  .configure = prov_tls_configure,
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
