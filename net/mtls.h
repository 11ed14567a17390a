/*
** mtls: the certificates of go-plugin's AutoMTLS, as Terraform uses it.
**
** Before starting a plugin, cairn makes an ephemeral client certificate:
** a fresh ECDSA P-256 key and a self-signed X.509 v3 certificate for the
** name "localhost" (CA, client and server authentication, as go-plugin's
** own generateCert makes them) valid from 30 s ago for MTLS_VALID_DAYS.
** The certificate goes to the plugin in PLUGIN_CLIENT_CERT (PEM); the key
** never leaves the process.  The plugin answers its own certificate in
** the handshake's sixth field (base64 DER, standard alphabet, no padding:
** go-plugin's RawStdEncoding): mtls_server_pem turns that into the PEM
** that the gRPC transport pins as the only trusted root.
**
** Memory: results live in the arena given.  Failures (no randomness, a
** certificate that does not parse) return false with an explanation in
** *why (arena memory); no diagnostics here, the caller words them.
*/
#ifndef CAIRN_MTLS_H
#define CAIRN_MTLS_H

#include <stdbool.h>

#include "base/arena.h"

#define MTLS_VALID_DAYS 31

typedef struct MtlsCert {
  const char *cert_pem;      /* the certificate, PEM */
  const char *key_pem;       /* its private key, PEM (SEC1 "EC PRIVATE KEY") */
} MtlsCert;

/* Makes a fresh key and self-signed certificate. */
bool mtls_generate(Arena *a, MtlsCert *out, const char **why);

/* The plugin's certificate from the handshake (base64 DER, padding
** optional) as PEM, after checking that it parses as X.509. */
bool mtls_server_pem(Arena *a, const char *b64, const char **pem,
                     const char **why);

#endif
