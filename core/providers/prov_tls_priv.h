/*
** prov_tls_priv.h: what prov_tls.c (the provider, its resources and data
** "tls_public_key") and prov_tls_certificate.c (data "tls_certificate"
** and the proxy block) share.  Private to the prov_tls module.
*/
#ifndef CAIRN_PROV_TLS_PRIV_H
#define CAIRN_PROV_TLS_PRIV_H

#include "provider.h"
#include "tlscert.h"
#include "tlskey.h"

/* Instance state: the schema, and the proxy block as configure read it
** (written once, before any other call). */
typedef struct TlsProv {
  const ProvProviderSchema *schema;
  ProvTlsProxy proxy;
} TlsProv;

static inline bool known(Value v)
{
  return !val_is_null(v) && val_is_known(v);
}

static inline const char *get_str(Value obj, const char *name)
{
  Value v = prov_get(obj, name);
  return known(v) ? v.u.s : NULL;
}

static inline Value str(Arena *a, const char *s) { return val_cstr(a, s); }

/* The path name[i]. */
static inline ValPath path_index(Arena *a, const char *name, int64_t i)
{
  PathStep *st = ARENA_NEW(a, PathStep, 2);
  st[0].kind = PS_ATTR;
  st[0].name = name;
  st[1].kind = PS_INDEX;
  st[1].index = i;
  return (ValPath){st, 2};
}

/* The object type of one element of data "tls_certificate".certificates
** (its schema is in prov_tls.c). */
extern const Type prov_tls_cert_obj;

/* data "tls_certificate"'s ReadDataSource (config holds verify_chain's
** default once read); the provider's ValidateProviderConfig and
** ConfigureProvider (the proxy block into TlsProv). */
void prov_tls_read_certificate(Prov *p, ProvCall *c,
                               const ProvReadDataReq *req,
                               ProvReadDataResp *resp);
void prov_tls_validate_provider(Prov *p, ProvCall *c, Value cfg);
void prov_tls_configure(Prov *p, ProvCall *c, const ProvConfigureReq *req);

#endif
