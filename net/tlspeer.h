/*
** tlspeer: the certificate chain a TLS server presents, for the tls
** provider's data "tls_certificate" with `url` (core/ has no network; the
** CLI registers tlspeer_fetch with prov_tls_set_fetcher).
**
** One TCP connection to host:port (IPv4 or IPv6, 30 s connect and
** handshake timeout), a TLS 1.2/1.3 handshake with SNI, then nothing more:
** no HTTP request is sent.  With verify, the chain must lead to a CA of
** the host's bundle (SSL_CERT_FILE, SSL_CERT_DIR, else the usual
** system paths, as net/http.c finds them) and match the host name.
**
** Memory: the DER certificates (leaf first) live in the arena given.
** Failure: false with *err (in the arena), saying what failed.  Thread-
** safe: each call has its own contexts.
*/
#ifndef CAIRN_TLSPEER_H
#define CAIRN_TLSPEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

bool tlspeer_fetch(Arena *a, const char *host, const char *port, bool verify,
                   const uint8_t ***ders, size_t **lens, size_t *n,
                   const char **err);

#endif
