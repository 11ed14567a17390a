/*
** peerhttps: the certificate chain behind an https:// URL, for the tls
** provider's data "tls_certificate" (the CLI registers
** peerhttps_fetch with prov_tls_set_https_fetcher; core/ has no
** network).
**
** Upstream asks Go's http.Client: a HEAD, and when that fails a GET,
** following redirects, through the provider's proxy, and reads the chain
** of the answer (resp.TLS.PeerCertificates, leaf first).  peerhttps_fetch
** does the same with libcurl: the proxy is px->url (with username and
** password) when configured, else the environment's, decided by Go's
** rules (fetch_proxy_for: HTTPS_PROXY / NO_PROXY, never for loopback)
** when px->from_env, else none; the chain is libcurl's CERTINFO of the
** last handshake; the body of a GET is not read (Go's client returns
** after the headers).  Any HTTP status counts, as in Go.  With verify,
** the chain must lead to a CA of the host's bundle (http_default_ca) and
** match the name; 30 s connect timeout.
**
** Memory: the DER certificates (leaf first) live in the arena given.
** Failure: false with *err (in the arena) in upstream's words ("failed to
** fetch certificates from URL 'https': Get \"URL\": cause").  Thread-safe:
** one easy handle per call.  Never prints.
*/
#ifndef CAIRN_PEERHTTPS_H
#define CAIRN_PEERHTTPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "providers/provider.h"

bool peerhttps_fetch(Arena *a, const char *url, bool verify,
                     const ProvTlsProxy *px, const uint8_t ***ders,
                     size_t **lens, size_t *n, const char **err);

#endif
