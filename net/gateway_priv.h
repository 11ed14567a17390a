/*
** gateway_priv.h: what gateway.c and gateway_calls.c share.
*/
#ifndef CAIRN_GATEWAY_PRIV_H
#define CAIRN_GATEWAY_PRIV_H

#include "base/buf.h"
#include "base/json.h"
#include "gateway.h"
#include "providers/provider.h"

/* One protocol call to translate.  The caller (gateway.c) has
** authenticated the client, picked the plugin instance and parsed the
** body; gw_translate makes the Prov call and writes the answer. */
typedef struct GwCall {
  Arena *a;                  /* request memory */
  Prov *prov;
  const ProvProviderSchema *schema;   /* prepared; decodes the values */
  const char *call;          /* "PlanResourceChange" */
  Value req;                 /* the parsed JSON body (an object) */
  const char *terraform_version;      /* for ConfigureProvider */
  /* Out: */
  Buf *out;                  /* the JSON answer (status 200) */
  int status;                /* 200, or 400/404 with err_code/err_msg */
  const char *err_code, *err_msg;
  bool plugin_error;         /* the call reached the plugin and it failed
                                to answer ("Plugin did not respond") */
} GwCall;

/* True for the names of the protocol's calls. */
bool gw_known_call(const char *call);

/* Translates g->call; sets status (200 with the answer in g->out, or an
** HTTP error). */
void gw_translate(GwCall *g);

/* The GetProviderSchema answer for s (protocol version 1), into out. */
void gw_write_schema(Buf *out, const ProvProviderSchema *s);

/* Member key of a parsed JSON object; the zero Value when missing. */
Value gw_jget(Value obj, const char *key);

/* The canonical encoding of a provider configuration (decoded with the
** provider block's type and written again), for the process key; NULL
** with *why when it does not decode. */
const char *gw_canonical_config(Arena *a, const ProvProviderSchema *s,
                                Value ev, const char **why);

#endif
