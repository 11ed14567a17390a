/*
** peerhttps: an https:// URL's certificate chain through libcurl (see
** peerhttps.h).  libcurl's CERTINFO keeps the chain the server sent in
** the handshake; the proxy is decided here, as for the http data source,
** so libcurl's own environment lookup stays off.
*/
#include "peerhttps.h"

#include "fetch.h"
#include "http.h"
#include "providers/tlskey.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

/* Go's client.Get returns once the headers are in: the body is not read
** (the first byte ends the transfer, which then counts as answered). */
static size_t no_body(char *p, size_t sz, size_t n, void *ud)
{
  (void)p;
  (void)sz;
  (void)n;
  *(bool *)ud = true;
  return 0;
}

/* The DER certificates of libcurl's CERTINFO ("Cert:" PEM), leaf first;
** false when there is none. */
static bool chain_of(Arena *a, CURL *c, const uint8_t ***ders, size_t **lens,
                     size_t *n)
{
  struct curl_certinfo *ci = NULL;
  if (curl_easy_getinfo(c, CURLINFO_CERTINFO, &ci) != CURLE_OK || !ci ||
      ci->num_of_certs <= 0)
    return false;
  *ders = ARENA_NEW(a, const uint8_t *, (size_t)ci->num_of_certs);
  *lens = ARENA_NEW(a, size_t, (size_t)ci->num_of_certs);
  *n = 0;
  for (int i = 0; i < ci->num_of_certs; i++)
    for (struct curl_slist *l = ci->certinfo[i]; l; l = l->next) {
      const char *type;
      uint8_t *der;
      size_t dern, rest;
      if (strncmp(l->data, "Cert:", 5) != 0 ||
          !tlskey_pem_decode(a, l->data + 5, strlen(l->data + 5), &type,
                             &der, &dern, &rest))
        continue;
      (*ders)[*n] = der;
      (*lens)[(*n)++] = dern;
      break;
    }
  return *n > 0;
}

bool peerhttps_fetch(Arena *a, const char *url, bool verify,
                     const ProvTlsProxy *px, const uint8_t ***ders,
                     size_t **lens, size_t *n, const char **err)
{
  *n = 0;
  if (!http_global_ready()) {
    *err = "libcurl could not be initialised";
    return false;
  }
  CURLU *u = curl_url();
  char *host = NULL, *portstr = NULL;
  if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
      curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
    if (u)
      curl_url_cleanup(u);
    *err = arena_printf(a, "parse \"%s\": invalid URL", url);
    return false;
  }
  int port = 443;
  if (curl_url_get(u, CURLUPART_PORT, &portstr, CURLU_DEFAULT_PORT) ==
          CURLUE_OK && portstr)
    port = (int)strtol(portstr, NULL, 10);
  const char *h = host[0] == '[' ? arena_strndup(a, host + 1,
                                                 strlen(host) - 2)
                                 : arena_strdup(a, host);
  curl_free(host);
  curl_free(portstr);
  curl_url_cleanup(u);

  /* upstream's proxyForRequestFunc: the configured URL for every
  ** request, else http.ProxyFromEnvironment when from_env */
  const char *proxy = NULL, *perr = NULL;
  if (px && px->url)
    proxy = strncmp(px->url, "socks5://", 9) == 0
                ? arena_printf(a, "socks5h://%s", px->url + 9)
                : px->url;
  else if (!px || px->from_env)
    proxy = fetch_proxy_for(a, NULL, "https", h, port, &perr);
  const char *ca_file = NULL, *ca_dir = NULL;
  if (perr) {
    *err = arena_printf(a, "failed to fetch certificates from URL 'https': "
                        "Get \"%s\": %s", url, perr);
    return false;
  }
  if (verify && !http_default_ca(&ca_file, &ca_dir)) {
    *err = "no CA certificates could be read to verify the chain (set "
           "SSL_CERT_FILE or SSL_CERT_DIR, or verify_chain = false)";
    return false;
  }
  CURL *c = curl_easy_init();
  if (!c) {
    *err = "libcurl could not create a handle";
    return false;
  }
  char errbuf[CURL_ERROR_SIZE];
  bool ok = false;
  /* a HEAD first; when it fails, a GET, whose error is the one reported */
  for (int get = 0; get < 2 && !ok; get++) {
    bool cut = false;
    errbuf[0] = 0;
    curl_easy_reset(c);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, CURLFOLLOW_OBEYCODE);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 30000L);
    curl_easy_setopt(c, CURLOPT_PROXY, proxy ? proxy : "");
    if (proxy && px && px->url && px->username) {
      curl_easy_setopt(c, CURLOPT_PROXYUSERNAME, px->username);
      curl_easy_setopt(c, CURLOPT_PROXYPASSWORD,
                       px->password ? px->password : "");
    }
    curl_easy_setopt(c, CURLOPT_NOBODY, get ? 0L : 1L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, no_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &cut);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "Go-http-client/1.1");
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_CERTINFO, 1L);
    curl_easy_setopt(c, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, verify ? 1L : 0L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, verify ? 2L : 0L);
    if (verify) {
      curl_easy_setopt(c, CURLOPT_CAINFO, ca_file);
      curl_easy_setopt(c, CURLOPT_CAPATH, ca_dir);
    }
    CURLcode rc = curl_easy_perform(c);
    if (rc == CURLE_OK || (rc == CURLE_WRITE_ERROR && cut)) {
      ok = chain_of(a, c, ders, lens, n);
      if (!ok && get) {
        long status = 0;
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
        *err = arena_printf(a, "got back response (status: %ld) with no "
                            "certificates from URL 'https'", status);
      }
    } else if (get) {
      *err = arena_printf(a, "failed to fetch certificates from URL "
                          "'https': Get \"%s\": %s", url,
                          fetch_go_cause(a, rc, c, errbuf[0]
                                                       ? errbuf
                                                       : curl_easy_strerror(
                                                             rc),
                                         h, port));
    }
  }
  curl_easy_cleanup(c);
  return ok;
}
