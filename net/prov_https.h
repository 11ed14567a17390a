/*
** prov_https: a remote provider: a Prov (core/providers/provider.h) whose calls
** travel as JSON over HTTPS, following docs/provider-protocol.md.
**
** Each ProvOps entry builds the call's JSON body, POSTs it with
** http_post_json() to <endpoint>/<CallName>, and decodes the answer
** strictly into the response structs.  A malformed, truncated, oversized
** or wrongly typed answer never reaches the core: it becomes an "Invalid
** provider response" diagnostic naming the provider, the call and the
** resource type.  HTTP errors become "Provider call failed" with the
** server's error code and message.
**
** Concurrency: an instance keeps a mutex-protected free list of
** HttpClients; a call checks one out (making a new one only when all are
** busy) and checks it in afterwards, so the number of clients, and of TLS
** handshakes to the endpoint, is at most the number of calls running at
** once (the parallelism).  The schema is fetched once (GetProviderSchema,
** under its own mutex) and is immutable afterwards.
**
** Memory: per call, the request body and the raw answer live in a scratch
** arena released before returning; decoded values, paths, private bytes
** and diagnostics go to ProvCall's arena.  The schema and the provider
** configuration's encoding live in the instance arena (Prov.arena).
** HttpClients are libcurl handles: prov_close() gives them back.  The
** HttpEndpoint is borrowed (shared between instances of one source by
** net/provreg) and must outlive the instance.
*/
#ifndef CAIRN_PROV_HTTPS_H
#define CAIRN_PROV_HTTPS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/json.h"
#include "config/hostcfg.h"
#include "http.h"
#include "providers/provider.h"

/* The protocol version this client speaks (Cairn-Protocol header). */
#define PHTTPS_PROTOCOL_VERSION 1

/* Fills e (http_endpoint_init'ed in a) from a host configuration section,
** reading the bearer token.  Checks the settings without network traffic
** (http_endpoint_check).  Returns false with diagnostics. */
bool phttps_endpoint(Arena *a, const HcfgProvider *hp, HttpEndpoint *e,
                     Diags *d);

/* Opens an instance for the fully-qualified source addr talking to e.
** Instance memory comes from a.  Never fails: the first call connects. */
Prov *phttps_open(Arena *a, const char *addr, HttpEndpoint *e);

/* True when p was opened by phttps_open. */
bool phttps_is(const Prov *p);

/* "sha256//BASE64" of the server's public key seen in a handshake of one
** of p's clients, or "" before any (or over plain http). */
const char *phttps_identity(Prov *p);

/* The raw JSON of the GetProviderSchema answer once fetched (or preloaded),
** for the lock file's hash and the schema cache; NULL before. */
const char *phttps_schema_json(Prov *p, size_t *len);

/* Uses a cached GetProviderSchema answer instead of fetching it.  Returns
** false (and leaves p fetching) with diagnostics when it does not decode. */
bool phttps_preload_schema(Prov *p, const char *json, size_t len, Diags *d);

/* Decodes a GetProviderSchema answer into a prepared schema in a.  what
** names the source in diagnostics. */
bool phttps_decode_schema(Arena *a, const char *what, const char *json,
                          size_t len, ProvProviderSchema **out, Diags *d);

/* The answer half of a call without the network, for the fuzz targets
** (tests/fuzz/fuzz_prov_answer.c) and tests: decodes body as the HTTP 200
** answer to `call` ("GetProviderSchema", "UpgradeResourceState",
** "ReadResource", "PlanResourceChange", "ApplyResourceChange",
** "ImportResourceState", "MoveResourceState", "ReadDataSource",
** "OpenEphemeralResource", "RenewEphemeralResource" (typed by the
** ephemeral type's schema), "StopProvider", and
** "CallFunction" with type_name the function's name; the Validate*
** and ConfigureProvider calls take only the common part) exactly as the
** call does once the answer has arrived: JSON syntax, an object, its
** "diagnostics", then the call's own fields, typed by the schema s of
** type_name (s's provider block when s lacks it; the common part only
** when s is NULL).  The size limit is json's default, the endpoint's
** max_response being applied by the HTTP layer before.  Decoded values,
** the answer's diagnostics and "Invalid provider response" go to c (addr
** names the provider in them); the decoded fields are dropped.  Returns
** false when the answer was refused. */
bool phttps_decode_answer(ProvCall *c, const char *addr,
                          const ProvProviderSchema *s, const char *call,
                          const char *type_name, const char *body,
                          size_t len);

/* The encoded values of section 3 of docs/provider-protocol.md, for the
** server side (net/gateway): writes v of type t as {"value":..,
** "unknown":..} (JSON null when v is the zero Value, i.e. absent) into w,
** which must have JSON_W_UNKNOWN_NULL; false with d's error when v cannot
** be encoded. */
bool phttps_ev_write(JsonW *w, Value v, const Type *t, Diags *d);
/* Decodes ev (a json_parse value; the zero Value or null: absent, giving
** the zero Value) as type t into a (scratch for messages).  False with
** *why (in scratch) on a malformed value. */
bool phttps_ev_decode(Arena *a, Arena *scratch, Value ev, const Type *t,
                      Value *out, const char **why);

/* Test hook: the sleep function every client of p uses (backoff,
** Retry-After, rate limit). */
void phttps_set_sleep(Prov *p, HttpSleepFn fn, void *ctx);

/* Number of HttpClients p has made (<= the calls that ran at once). */
int phttps_clients(Prov *p);

#endif
