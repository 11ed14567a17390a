/*
** tlscert: X.509 certificates and PKCS#10 certificate requests for the
** tls provider, written as Go's crypto/x509 (CreateCertificate,
** CreateCertificateRequest) writes them for upstream, and the parts of
** certificates and requests the provider reads back.
**
** Own DER rather than mbedTLS's x509write: Ed25519 keys (subject or
** signer), Go's extension order and encodings (UTCTime until 2049,
** PrintableString where it fits, KeyUsage as a minimal BIT STRING, a
** critical SAN when the subject is empty) and one code path for the
** three resources.  Signatures: SHA-256 with RSA (PKCS#1 v1.5), ECDSA
** with SHA-256 (P-224, P-256), SHA-384 (P-384), SHA-512 (P-521), pure
** Ed25519, as Go picks them.
**
** Memory: every output lives in the arena given; inputs are borrowed.
** Failures return false with *err, a message in the arena (Go's text
** where upstream shows Go's error).  Thread-safe.
*/
#ifndef CAIRN_TLSCERT_H
#define CAIRN_TLSCERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "tlskey.h"

/* A byte string (DER fragment). */
typedef struct TlsBytes {
  const uint8_t *p;
  size_t n;
} TlsBytes;

/* The subject block (pkix.Name); NULL fields are absent. */
typedef struct TlsName {
  const char *country, *province, *locality, *postal_code, *organization;
  const char *organizational_unit, *common_name, *serial_number;
  const char *email_address; /* PKCS#9 emailAddress, after the others */
  const char *const *street;
  uint32_t nstreet;
} TlsName;

/* Subject alternative names, in Go's order when encoded: DNS, IP, URI.
** ips hold 4 (IPv4) or 16 bytes each. */
typedef struct TlsSans {
  const char *const *dns;
  uint32_t ndns;
  const TlsBytes *ips;
  uint32_t nips;
  const char *const *uris;
  uint32_t nuris;
} TlsSans;

/* What x509.CreateCertificate is given. */
typedef struct TlsCertTemplate {
  TlsBytes subject;        /* Name DER (tlscert_name or a request's) */
  TlsBytes issuer;         /* Name DER of the signer (= subject when
                              self-signed) */
  TlsBytes spki;           /* the subject's SubjectPublicKeyInfo DER */
  TlsSans sans;
  int64_t not_before, not_after; /* Unix seconds */
  unsigned key_usage;      /* Go's x509.KeyUsage bits */
  const char *const *ext_usages; /* upstream's names ("server_auth") */
  uint32_t next_usages;
  bool is_ca;
  int64_t max_path_len;    /* written when is_ca and >= 1 */
  TlsBytes ski, aki;       /* key identifiers; n == 0: none */
} TlsCertTemplate;

/* The Name DER of n (Go's pkix.Name.ToRDNSequence order). */
TlsBytes tlscert_name(Arena *a, const TlsName *n);
/* True when the Name DER is an empty sequence. */
bool tlscert_name_empty(TlsBytes name);

/* Go's x509.KeyUsage bit of an upstream key usage name, 0 when it is an
** extended usage or unknown; tlscert_is_usage: any known name. */
unsigned tlscert_key_usage_bit(const char *name);
bool tlscert_is_usage(const char *name);
/* The upstream names, sorted (for "value must be one of" messages). */
extern const char *const tlscert_usage_names[];

/* upstream's generateSubjectKeyID: SHA-1 of the public key (RSA: the
** PKCS#1 RSAPublicKey, ECDSA: the point, Ed25519: an OCTET STRING of it). */
bool tlscert_key_id(Arena *a, TlsBytes spki, TlsBytes *out,
                    const char **err);

/* A random serial number below 2^128 (as upstream draws it): its DER
** INTEGER content in *serial, its decimal form in *dec. */
void tlscert_serial(Arena *a, TlsBytes *serial, const char **dec);

/* The DER certificate of t with serial, signed by signer. */
bool tlscert_create(Arena *a, const TlsCertTemplate *t, TlsBytes serial,
                    const TlsKey *signer, TlsBytes *der, const char **err);
/* The DER certificate request for subject and sans, signed by key. */
bool tlscert_request(Arena *a, TlsBytes subject, const TlsSans *sans,
                     const TlsKey *key, TlsBytes *der, const char **err);

/* Reads a certificate request: its subject Name DER, public key info and
** the DNS, IP and URI names of its extension request. */
bool tlscert_parse_request(Arena *a, TlsBytes der, TlsBytes *subject,
                           TlsBytes *spki, TlsSans *sans, const char **err);
/* Reads a certificate: its subject Name DER, public key info and subject
** key identifier (n == 0 when it has none). */
bool tlscert_parse_cert(Arena *a, TlsBytes der, TlsBytes *subject,
                        TlsBytes *spki, TlsBytes *ski, const char **err);

/* What data "tls_certificate" shows of one certificate, in Go's words
** (x509.Certificate fields and their String forms). */
typedef struct TlsCertInfo {
  const char *signature_algorithm;  /* "SHA256-RSA", "ECDSA-SHA384", ... */
  const char *public_key_algorithm; /* "RSA", "ECDSA", "Ed25519", "DSA" */
  const char *serial_number;        /* decimal */
  bool is_ca;
  int64_t max_path_length;          /* Go's MaxPathLen: 0 without basic
                                       constraints, -1 without a limit */
  int64_t version;                  /* 1..3 */
  const char *issuer, *subject;     /* pkix.Name.String() */
  const char *not_before, *not_after; /* RFC 3339, UTC */
  const char *sha1_fingerprint;     /* hex */
} TlsCertInfo;
bool tlscert_info(Arena *a, TlsBytes der, TlsCertInfo *out,
                  const char **err);

/* Go's net.ParseIP, as 4 bytes for IPv4 and 16 for IPv6; false when s is
** not an address. */
bool tlscert_parse_ip(Arena *a, const char *s, TlsBytes *out);

/* t (Unix seconds, ns nanoseconds) as Go's time.MarshalText writes it in
** a zone offset seconds east of UTC: RFC 3339 with the fraction's
** trailing zeros dropped, "Z" for offset 0, else +hh:mm. */
const char *tlscert_time_text(Arena *a, int64_t t, long ns, long offset);

#endif
