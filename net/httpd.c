/*
** httpd.c: the HTTP/1.1 request-head parser (contracts in httpd.h).
** Strict on purpose: the only clients are cairn's provider clients, and
** anything a proxy could read two ways (two lengths, folded lines,
** chunked bodies) is refused rather than guessed at.
*/
#include <string.h>
#include <strings.h>

#include "httpd.h"

/* RFC 9110 tchar: the characters of a method or a header name. */
static bool is_tchar(unsigned char c)
{
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
      (c >= 'A' && c <= 'Z'))
    return true;
  return c && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static HttpdParse bad(const char **why, const char *msg)
{
  *why = msg;
  return HTTPD_BAD;
}

/* The end of the head: the offset just past "\r\n\r\n", or 0. */
static size_t head_end(const char *buf, size_t len)
{
  for (size_t i = 3; i < len; i++)
    if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' &&
        buf[i - 3] == '\r')
      return i + 1;
  return 0;
}

static HttpdParse parse_length(const char *v, size_t *out, const char **why)
{
  if (!*v)
    return bad(why, "an empty Content-Length");
  size_t n = 0;
  for (const char *p = v; *p; p++) {
    if (*p < '0' || *p > '9')
      return bad(why, "a Content-Length that is not a number");
    if (n > ((size_t)-1 - 9) / 10)
      return bad(why, "a Content-Length out of range");
    n = n * 10 + (size_t)(*p - '0');
  }
  *out = n;
  return HTTPD_OK;
}

/* Whether the comma-separated list v holds token tok. */
static bool has_token(const char *v, const char *tok)
{
  size_t n = strlen(tok);
  const char *p = v;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == ',')
      p++;
    const char *s = p;
    while (*p && *p != ',')
      p++;
    const char *e = p;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
      e--;
    if ((size_t)(e - s) == n && strncasecmp(s, tok, n) == 0)
      return true;
  }
  return false;
}

HttpdParse httpd_parse(Arena *a, const char *buf, size_t len,
                       HttpdRequest *r, const char **why)
{
  memset(r, 0, sizeof *r);
  *why = NULL;
  size_t lim = len < HTTPD_MAX_HEAD ? len : HTTPD_MAX_HEAD;
  size_t end = head_end(buf, lim);
  if (!end) {
    if (len >= HTTPD_MAX_HEAD) {
      *why = "the request head is too large";
      return HTTPD_HEAD_TOO_LARGE;
    }
    return HTTPD_INCOMPLETE;
  }
  r->head_len = end;
  /* Lines end in CRLF; a bare CR or LF elsewhere is refused. */
  size_t pos = 0;
  int line_no = 0;
  bool have_len = false;
  for (;;) {
    size_t s = pos;
    while (pos < end && buf[pos] != '\r' && buf[pos] != '\n')
      pos++;
    if (pos + 1 >= end || buf[pos] != '\r' || buf[pos + 1] != '\n')
      return bad(why, "a line that does not end in CRLF");
    size_t n = pos - s;
    const char *line = buf + s;
    pos += 2;
    for (size_t i = 0; i < n; i++) {
      unsigned char c = (unsigned char)line[i];
      if ((c < 0x20 && c != '\t') || c == 0x7f)
        return bad(why, "a control character in the head");
    }
    if (line_no++ == 0) {
      /* METHOD SP TARGET SP HTTP/1.x */
      const char *sp1 = memchr(line, ' ', n);
      if (!sp1 || sp1 == line)
        return bad(why, "a malformed request line");
      for (const char *p = line; p < sp1; p++)
        if (!is_tchar((unsigned char)*p))
          return bad(why, "a malformed method");
      const char *t = sp1 + 1;
      const char *sp2 = memchr(t, ' ', n - (size_t)(t - line));
      if (!sp2 || sp2 == t || *t != '/')
        return bad(why, "a malformed request target");
      const char *v = sp2 + 1;
      size_t vn = n - (size_t)(v - line);
      if (vn != 8 || strncmp(v, "HTTP/1.", 7) != 0) {
        if (vn >= 5 && strncmp(v, "HTTP/", 5) == 0 && !memchr(v, ' ', vn)) {
          *why = "only HTTP/1.0 and HTTP/1.1 are served";
          return HTTPD_UNSUPPORTED;
        }
        return bad(why, "a malformed HTTP version");
      }
      if (v[7] != '0' && v[7] != '1')
        return bad(why, "a malformed HTTP version");
      for (const char *p = t; p < sp2; p++)
        if (*p == ' ')
          return bad(why, "a malformed request target");
      r->method = arena_strndup(a, line, (size_t)(sp1 - line));
      r->target = arena_strndup(a, t, (size_t)(sp2 - t));
      r->minor = v[7] - '0';
      r->keep_alive = r->minor == 1;
      continue;
    }
    if (n == 0)
      break;
    if (line[0] == ' ' || line[0] == '\t')
      return bad(why, "a folded header line");
    const char *colon = memchr(line, ':', n);
    if (!colon || colon == line)
      return bad(why, "a header line without a name");
    for (const char *p = line; p < colon; p++)
      if (!is_tchar((unsigned char)*p))
        return bad(why, "a malformed header name");
    const char *v = colon + 1, *ve = line + n;
    while (v < ve && (*v == ' ' || *v == '\t'))
      v++;
    while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
      ve--;
    if (r->nheaders == HTTPD_MAX_HEADERS) {
      *why = "too many header fields";
      return HTTPD_HEAD_TOO_LARGE;
    }
    HttpdHeader *h = &r->headers[r->nheaders++];
    h->name = arena_strndup(a, line, (size_t)(colon - line));
    h->value = arena_strndup(a, v, (size_t)(ve - v));
    if (strcasecmp(h->name, "Content-Length") == 0) {
      size_t cl;
      HttpdParse pr = parse_length(h->value, &cl, why);
      if (pr != HTTPD_OK)
        return pr;
      if (have_len && cl != r->content_length)
        return bad(why, "two different Content-Length values");
      have_len = true;
      r->content_length = cl;
    } else if (strcasecmp(h->name, "Transfer-Encoding") == 0) {
      *why = "Transfer-Encoding is not supported: send a Content-Length";
      return HTTPD_UNSUPPORTED;
    } else if (strcasecmp(h->name, "Connection") == 0) {
      if (has_token(h->value, "close"))
        r->keep_alive = false;
      else if (has_token(h->value, "keep-alive"))
        r->keep_alive = true;
    }
  }
  return HTTPD_OK;
}

const char *httpd_header(const HttpdRequest *r, const char *name)
{
  for (int i = 0; i < r->nheaders; i++)
    if (strcasecmp(r->headers[i].name, name) == 0)
      return r->headers[i].value;
  return NULL;
}

const char *httpd_reason(int status)
{
  switch (status) {
  case 200: return "OK";
  case 400: return "Bad Request";
  case 401: return "Unauthorized";
  case 403: return "Forbidden";
  case 404: return "Not Found";
  case 405: return "Method Not Allowed";
  case 408: return "Request Timeout";
  case 411: return "Length Required";
  case 413: return "Content Too Large";
  case 431: return "Request Header Fields Too Large";
  case 500: return "Internal Server Error";
  case 501: return "Not Implemented";
  case 503: return "Service Unavailable";
  default: return "Unknown";
  }
}
