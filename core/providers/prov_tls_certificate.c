/*
** prov_tls_certificate: data "tls_certificate" (from content, or from a
** url: tls:// through the ProvTlsFetchFn handshake, https:// through the
** ProvTlsHttpsFn HTTP client and the provider's proxy block) and that
** proxy block's validation and configuration, for prov_tls.c.
*/
#include "prov_tls_priv.h"

#include <stdatomic.h>
#include <string.h>

/* One element of certificates, and its part of upstream's id: Go's %v of
** the CertificateModel struct (fields in declaration order). */
static Value cert_object(Arena *a, const TlsCertInfo *ci, const char *pem,
                         Buf *id)
{
  Value *vv = ARENA_NEW(a, Value, 12);
  vv[0] = str(a, pem);
  vv[1] = val_bool(ci->is_ca);
  vv[2] = str(a, ci->issuer);
  vv[3] = val_int(ci->max_path_length);
  vv[4] = str(a, ci->not_after);
  vv[5] = str(a, ci->not_before);
  vv[6] = str(a, ci->public_key_algorithm);
  vv[7] = str(a, ci->serial_number);
  vv[8] = str(a, ci->sha1_fingerprint);
  vv[9] = str(a, ci->signature_algorithm);
  vv[10] = str(a, ci->subject);
  vv[11] = val_int(ci->version);
  buf_putc(id, '{');
  buf_go_quote(id, ci->signature_algorithm);
  buf_putc(id, ' ');
  buf_go_quote(id, ci->public_key_algorithm);
  buf_putc(id, ' ');
  buf_go_quote(id, ci->serial_number);
  buf_printf(id, " %s %lld %lld ", ci->is_ca ? "true" : "false",
             (long long)ci->max_path_length, (long long)ci->version);
  const char *rest[] = {ci->issuer, ci->subject, ci->not_before,
                        ci->not_after, ci->sha1_fingerprint, pem};
  for (int i = 0; i < 6; i++) {
    if (i)
      buf_putc(id, ' ');
    buf_go_quote(id, rest[i]);
  }
  buf_putc(id, '}');
  return val_object_typed(&prov_tls_cert_obj, vv);
}

static _Atomic(ProvTlsFetchFn) fetcher;
static _Atomic(ProvTlsHttpsFn) https_fetcher;

void prov_tls_set_https_fetcher(ProvTlsHttpsFn fn)
{
  atomic_store(&https_fetcher, fn);
}

void prov_tls_set_fetcher(ProvTlsFetchFn fn) { atomic_store(&fetcher, fn); }

/* scheme://[user@]host[:port][/...] of url into host and port (default
** for https 443; tls needs one).  false with a diagnostic. */
static bool split_url(ProvCall *c, const char *url, const char **host,
                      const char **port)
{
  Arena *a = c->arena;
  const char *sep = strstr(url, "://");
  bool https = sep && sep - url == 5;
  const char *h = sep ? sep + 3 : url;
  size_t hl = strcspn(h, "/?#");
  const char *at = memchr(h, '@', hl);
  if (at) {
    hl -= (size_t)(at + 1 - h);
    h = at + 1;
  }
  const char *hp = arena_strndup(a, h, hl), *colon;
  if (hp[0] == '[') {
    const char *close = strchr(hp, ']');
    if (!close) {
      prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "url"),
                     "Failed to parse URL", "parse \"%s\": missing ']' in "
                     "host", url);
      return false;
    }
    *host = arena_strndup(a, hp + 1, (size_t)(close - hp - 1));
    colon = close[1] == ':' ? close + 1 : NULL;
  } else {
    colon = strrchr(hp, ':');
    *host = colon ? arena_strndup(a, hp, (size_t)(colon - hp)) : hp;
  }
  *port = colon && colon[1] ? colon + 1 : NULL;
  if (!*port && https)
    *port = "443";
  if (!*port) {
    diag_error(c->diags, NULL, "URL malformed", "Port missing from URL: %s",
               url);
    return false;
  }
  return true;
}

void prov_tls_read_certificate(Prov *p, ProvCall *c,
                               const ProvReadDataReq *req,
                               ProvReadDataResp *resp)
{
  Arena *a = c->arena;
  Value v = req->config;
  const char *content = get_str(v, "content"), *url = get_str(v, "url");
  const char *type, *err;
  /* DER certificates, root of the chain first (upstream's order) */
  const uint8_t **ders;
  size_t *lens, n = 0;
  if (val_is_null(prov_get(v, "verify_chain")))
    v = prov_set(a, v, "verify_chain", val_true);
  if (content) {
    uint8_t *der;
    size_t dern, rest;
    if (!tlskey_pem_decode(a, content, strlen(content), &type, &der, &dern,
                           &rest)) {
      prov_diag_attr(c, DIAG_ERROR, prov_path_attr(a, "content"),
                     "Failed to decoded PEM",
                     "Value is not a valid PEM encoding of a certificate");
      return;
    }
    if (strcmp(type, "CERTIFICATE") != 0) {
      diag_error(c->diags, NULL, "Unexpected PEM preamble",
                 "Certificate PEM should be \"CERTIFICATE\", got \"%s\"",
                 type);
      return;
    }
    ders = ARENA_NEW(a, const uint8_t *, 1);
    lens = ARENA_NEW(a, size_t, 1);
    ders[0] = der;
    lens[0] = dern;
    n = 1;
  } else {
    const char *host, *port;
    ProvTlsFetchFn fn = atomic_load(&fetcher);
    if (!url || !split_url(c, url, &host, &port))
      return;
    if (!fn) {
      diag_error(c->diags, NULL, "Failed to identify fetch peer certificates",
                 "This build of cairn cannot connect to %s.", url);
      return;
    }
    const uint8_t **got;
    size_t *gl;
    Value vc = prov_get(v, "verify_chain");
    ProvTlsHttpsFn hf = atomic_load(&https_fetcher);
    bool https = strncmp(url, "https://", 8) == 0;
    if (https && hf ? !hf(a, url, known(vc) && vc.u.b,
                          &((TlsProv *)p->impl)->proxy, &got, &gl, &n, &err)
                    : !fn(a, host, port, known(vc) && vc.u.b, &got, &gl, &n,
                          &err)) {
      diag_error(c->diags, NULL, "Failed to identify fetch peer certificates",
                 "%s", err);
      return;
    }
    ders = ARENA_NEW(a, const uint8_t *, n);
    lens = ARENA_NEW(a, size_t, n);
    for (size_t i = 0; i < n; i++) {
      ders[i] = got[n - 1 - i];
      lens[i] = gl[n - 1 - i];
    }
  }
  Buf id;
  buf_init(&id, a);
  buf_putc(&id, '[');
  Value *certs = ARENA_NEW(a, Value, n);
  for (size_t i = 0; i < n; i++) {
    TlsCertInfo ci;
    if (!tlscert_info(a, (TlsBytes){ders[i], lens[i]}, &ci, &err)) {
      diag_error(c->diags, NULL, "Unable to parse certificate", "%s", err);
      return;
    }
    if (i)
      buf_putc(&id, ' ');
    certs[i] = cert_object(a, &ci, tlskey_pem(a, "CERTIFICATE", ders[i],
                                              lens[i]), &id);
  }
  buf_putc(&id, ']');
  v = prov_set(a, v, "certificates",
               val_list(a, &prov_tls_cert_obj, certs, (uint32_t)n));
  resp->state = prov_set(a, v, "id",
                         str(a, tlskey_hash_for_state(
                                    a, (const uint8_t *)id.p, id.len)));
}

/* upstream's proxy validators: url ConflictsWith from_env, username
** AlsoRequires url, password AlsoRequires username (the framework's
** texts), and url's UrlWithScheme(http, https, socks5). */
void prov_tls_validate_provider(Prov *p, ProvCall *c, Value cfg)
{
  (void)p;
  Value l = prov_get(cfg, "proxy");
  if (!known(l) || l.len == 0 || !known(l.u.elems[0]))
    return;
  Value o = l.u.elems[0];
  static const struct {
    const char *at, *other;
    bool conflict;
  } rules[] = {{"url", "from_env", true},   {"from_env", "url", true},
               {"username", "url", false},  {"password", "username", false}};
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    Value x = prov_get(o, rules[i].at), y = prov_get(o, rules[i].other);
    if (!known(x) || !val_is_known(y) || val_is_null(y) == rules[i].conflict)
      continue;
    ValPath path = path_index(c->arena, "proxy", 0);
    PathStep *st = ARENA_NEW(c->arena, PathStep, 3);
    memcpy(st, path.steps, 2 * sizeof *st);
    st[2] = (PathStep){.kind = PS_ATTR, .name = rules[i].at};
    path = (ValPath){st, 3};
    prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Combination",
                   rules[i].conflict
                       ? "Attribute \"proxy[0].%s\" cannot be specified when "
                         "\"proxy[0].%s\" is specified"
                       : "Attribute \"proxy[0].%s\" must be specified when "
                         "\"proxy[0].%s\" is specified",
                   rules[i].other, rules[i].at);
  }
  const char *u = get_str(o, "url");
  size_t sl = u ? strcspn(u, ":") : 0;
  if (u && !(u[sl] == ':' &&
             ((sl == 4 && strncmp(u, "http", 4) == 0) ||
              (sl == 5 && strncmp(u, "https", 5) == 0) ||
              (sl == 6 && strncmp(u, "socks5", 6) == 0))))
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "proxy"),
                   "Invalid URL scheme",
                   "URL \"%s\" expected to use scheme from [\"http\" "
                   "\"https\" \"socks5\"], got: \"%.*s\"", u, (int)sl, u);
}

/* The proxy block, kept for data "tls_certificate" (upstream's
** Configure: from_env defaults to true, also without a block). */
void prov_tls_configure(Prov *p, ProvCall *c, const ProvConfigureReq *req)
{
  (void)c;
  TlsProv *t = p->impl;
  Value l = prov_get(req->config, "proxy");
  if (!known(l) || l.len == 0 || !known(l.u.elems[0]))
    return;
  Value o = l.u.elems[0], fe = prov_get(o, "from_env");
  const char *s;
  if ((s = get_str(o, "url")))
    t->proxy.url = arena_strdup(p->arena, s);
  if ((s = get_str(o, "username")))
    t->proxy.username = arena_strdup(p->arena, s);
  if ((s = get_str(o, "password")))
    t->proxy.password = arena_strdup(p->arena, s);
  if (known(fe))
    t->proxy.from_env = fe.u.b;
}

