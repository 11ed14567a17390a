/*
** diag.c: collecting and rendering diagnostics (see diag.h).
**
** Rendering follows Terraform's command/format package: DiagnosticPlain
** when colour is off, and the framed, coloured form otherwise.  The
** snippet shows the lines of the context range (or the subject when there
** is no context) with the subject highlighted when colour is on.
*/
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void diag_init(Diags *d, Arena *a)
{
  memset(d, 0, sizeof *d);
  d->arena = a;
}

static Diag *vadd(Diags *d, DiagSeverity sev, const SrcRange *subject,
                  const char *summary, const char *fmt, va_list ap)
{
  Diag *g = ARENA_NEW(d->arena, Diag, 1);
  g->severity = sev;
  g->summary = arena_strdup(d->arena, summary);
  if (fmt) {
    Buf b;
    buf_init(&b, d->arena);
    buf_vprintf(&b, fmt, ap);
    g->detail = buf_str(&b);
  } else {
    g->detail = "";
  }
  if (subject && subject->file) {
    g->subject = *subject;
    g->subject.file = arena_strdup(d->arena, subject->file);
  }
  if (d->tail)
    d->tail->next = g;
  else
    d->head = g;
  d->tail = g;
  if (sev == DIAG_ERROR)
    d->errors++;
  else
    d->warnings++;
  return g;
}

Diag *diag_add(Diags *d, DiagSeverity sev, const SrcRange *subject,
               const char *summary, const char *detail_fmt, ...)
{
  va_list ap;
  va_start(ap, detail_fmt);
  Diag *g = vadd(d, sev, subject, summary, detail_fmt, ap);
  va_end(ap);
  return g;
}

Diag *diag_error(Diags *d, const SrcRange *subject, const char *summary,
                 const char *detail_fmt, ...)
{
  va_list ap;
  va_start(ap, detail_fmt);
  Diag *g = vadd(d, DIAG_ERROR, subject, summary, detail_fmt, ap);
  va_end(ap);
  return g;
}

Diag *diag_warning(Diags *d, const SrcRange *subject, const char *summary,
                   const char *detail_fmt, ...)
{
  va_list ap;
  va_start(ap, detail_fmt);
  Diag *g = vadd(d, DIAG_WARNING, subject, summary, detail_fmt, ap);
  va_end(ap);
  return g;
}

void diag_set_context(Diags *d, Diag *g, const SrcRange *context)
{
  if (!context || !context->file)
    return;
  g->context = *context;
  g->context.file = arena_strdup(d->arena, context->file);
}

void diag_set_address(Diags *d, Diag *g, const char *address)
{
  g->address = address ? arena_strdup(d->arena, address) : NULL;
}

void diag_add_value(Diags *d, Diag *g, const char *line)
{
  const char **v = arena_grow(d->arena, (void *)g->values, sizeof(char *),
                              _Alignof(char *), (size_t)g->nvalues,
                              (size_t)g->nvalues + 1);
  v[g->nvalues++] = arena_strdup(d->arena, line);
  g->values = v;
}

void diag_move(Diags *dst, Diags *src)
{
  if (!src->head)
    return;
  if (dst->tail)
    dst->tail->next = src->head;
  else
    dst->head = src->head;
  dst->tail = src->tail;
  dst->errors += src->errors;
  dst->warnings += src->warnings;
  src->head = src->tail = NULL;
  src->errors = src->warnings = 0;
}

SrcRange diag_range_join(SrcRange a, SrcRange b)
{
  SrcRange r = a;
  if (!a.file)
    return b;
  if (b.file && b.end.byte > a.end.byte)
    r.end = b.end;
  if (b.file && b.start.byte < a.start.byte)
    r.start = b.start;
  return r;
}

/* ---- source registry ---------------------------------------------- */

void diag_files_init(SrcFiles *fs, Arena *a)
{
  memset(fs, 0, sizeof *fs);
  fs->arena = a;
}

SrcFile *diag_files_add(SrcFiles *fs, const char *name, const char *text,
                        uint32_t len)
{
  if (fs->n == fs->cap) {
    int cap = fs->cap ? fs->cap * 2 : 8;
    fs->files = arena_grow(fs->arena, fs->files, sizeof(SrcFile),
                           _Alignof(SrcFile), (size_t)fs->cap, (size_t)cap);
    fs->cap = cap;
  }
  SrcFile *f = &fs->files[fs->n++];
  memset(f, 0, sizeof *f);
  f->name = arena_strdup(fs->arena, name);
  f->text = text;
  f->len = len;
  return f;
}

const SrcFile *diag_files_find(const SrcFiles *fs, const char *name)
{
  if (!fs || !name)
    return NULL;
  for (int i = fs->n - 1; i >= 0; i--)
    if (strcmp(fs->files[i].name, name) == 0)
      return &fs->files[i];
  return NULL;
}

/* ---- human rendering ------------------------------------------------ */

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_RED "\033[31m"
#define C_YELLOW "\033[33m"
#define C_UNDER "\033[4m"

/* Byte offset of the start of the 1-based line `line`, found by scanning
** back from a known byte position on that line. */
static uint32_t line_start(const SrcFile *f, uint32_t byte)
{
  if (byte > f->len)
    byte = f->len;
  while (byte > 0 && f->text[byte - 1] != '\n')
    byte--;
  return byte;
}

static uint32_t line_end(const SrcFile *f, uint32_t byte)
{
  while (byte < f->len && f->text[byte] != '\n')
    byte++;
  return byte;
}

/* The code point of the UTF-8 sequence at p (at most n bytes) and its
** length; a stray byte counts as one character of its own. */
static uint32_t utf8_at(const char *p, size_t n, size_t *len)
{
  const unsigned char *u = (const unsigned char *)p;
  size_t k = u[0] < 0x80 ? 1 : u[0] >= 0xf0 ? 4 : u[0] >= 0xe0 ? 3
                                 : u[0] >= 0xc0 ? 2 : 1;
  if (k > n)
    k = 1;
  for (size_t i = 1; i < k; i++)
    if ((u[i] & 0xc0) != 0x80)
      k = 1;
  *len = k;
  if (k == 1)
    return u[0];
  uint32_t c = u[0] & (0xff >> (k + 1));
  for (size_t i = 1; i < k; i++)
    c = c << 6 | (u[i] & 0x3f);
  return c;
}

/* unicode.IsSpace, less U+00A0 (go-wordwrap keeps no-break spaces). */
static bool wrap_space(uint32_t c)
{
  return c == ' ' || (c >= '\t' && c <= '\r') || c == 0x85 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
         c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

/* One line (no newline in it) wrapped as go-wordwrap's WrapString does
** with limit lim, which Terraform's diagnostic formatter uses: words go
** to the next line when they would pass the limit, a word of lim
** characters or more stays where it is, and the spaces at a break are
** dropped; characters are counted, not bytes.  Each line starts with
** prefix. */
static void wrap_line(Buf *out, const char *p, size_t n, size_t lim,
                      const char *prefix)
{
  size_t cur = 0;              /* characters on the output line */
  size_t ws = 0, wl = 0, wc = 0;   /* pending word: start, bytes, chars */
  size_t ss = 0, sl = 0, sc = 0;   /* pending spaces before it */
  buf_puts(out, prefix);
  for (size_t i = 0; i < n;) {
    size_t k;
    uint32_t c = utf8_at(p + i, n - i, &k);
    if (wrap_space(c)) {
      if (sl == 0 || wl > 0) {
        cur += sc + wc;
        buf_put(out, p + ss, sl);
        buf_put(out, p + ws, wl);
        sl = sc = wl = wc = 0;
        ss = i;
      }
      sl += k;
      sc++;
    } else {
      if (wl == 0)
        ws = i;
      wl += k;
      wc++;
      if (cur + sc + wc > lim && wc < lim) {
        buf_putc(out, '\n');
        buf_puts(out, prefix);
        cur = 0;
        sl = sc = 0;
      }
    }
    i += k;
  }
  if (wl == 0) {
    if (cur + sc <= lim)
      buf_put(out, p + ss, sl);
  } else {
    buf_put(out, p + ss, sl);
    buf_put(out, p + ws, wl);
  }
}

/* The detail, line by line as Terraform's formatter splits it: a line
** that starts with a space is preformatted and kept as is, any other is
** word-wrapped at lim characters (no wrapping when lim is 0). */
static void put_wrapped(Buf *out, const char *text, int lim,
                        const char *prefix)
{
  const char *p = text;
  for (;;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (lim <= 0 || p[0] == ' ') {
      buf_puts(out, prefix);
      buf_put(out, p, n);
    } else {
      wrap_line(out, p, n, (size_t)lim, prefix);
    }
    buf_putc(out, '\n');
    if (!nl)
      break;
    p = nl + 1;
  }
}

static void put_snippet(Buf *out, const Diag *g, const SrcFiles *fs,
                        DiagStyle st, const char *prefix)
{
  const SrcRange *subj = &g->subject;
  if (!subj->file)
    return;
  /* Terraform names the resource instance before the source location */
  if (g->address)
    buf_printf(out, "%s  with %s,\n", prefix, g->address);
  const SrcFile *f = diag_files_find(fs, subj->file);
  if (!f) {
    buf_printf(out, "%s  on %s line %u:\n%s  (source code not available)\n",
               prefix, subj->file, subj->start.line, prefix);
    buf_printf(out, "%s\n", prefix);
    return;
  }
  const char *ctx = f->block_context
                        ? f->block_context(f, subj->start.byte) : NULL;
  buf_printf(out, "%s  on %s line %u%s%s:\n", prefix, subj->file,
             subj->start.line, ctx ? ", in " : "", ctx ? ctx : "");
  const SrcRange *snip = g->context.file ? &g->context : subj;
  uint32_t b = line_start(f, snip->start.byte);
  uint32_t last = snip->end.byte > snip->start.byte ? snip->end.byte - 1
                                                    : snip->start.byte;
  if (last > f->len)
    last = f->len;
  uint32_t lineno = snip->start.line;
  for (;;) {
    uint32_t e = line_end(f, b);
    uint32_t sb = subj->start.byte, se = subj->end.byte;
    buf_printf(out, "%s%4u: ", prefix, lineno);
    if (st.color && se > sb && sb < e && se > b) {
      uint32_t hs = sb > b ? sb : b, he = se < e ? se : e;
      buf_put(out, f->text + b, hs - b);
      buf_puts(out, C_UNDER);
      buf_put(out, f->text + hs, he - hs);
      buf_puts(out, C_RESET);
      buf_put(out, f->text + he, e - he);
    } else {
      buf_put(out, f->text + b, e - b);
    }
    buf_putc(out, '\n');
    if (e >= last || e >= f->len)
      break;
    b = e + 1;
    lineno++;
  }
  if (g->nvalues > 0) {
    buf_printf(out, "%s    %s\n", prefix,
               "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
               "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
               "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80"
               "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80");
    for (int i = 0; i < g->nvalues; i++)
      buf_printf(out, "%s    \xe2\x94\x82 %s\n", prefix, g->values[i]);
  }
  buf_printf(out, "%s\n", prefix);
}

void diag_render(Buf *out, const Diag *g, const SrcFiles *fs, DiagStyle st)
{
  bool err = g->severity == DIAG_ERROR;
  if (!st.color) {
    buf_printf(out, "\n%s: %s\n\n", err ? "Error" : "Warning", g->summary);
    put_snippet(out, g, fs, st, "");
    if (g->detail && *g->detail)
      /* DiagnosticPlain wraps at width - 1 */
      put_wrapped(out, g->detail, st.width > 1 ? st.width - 1 : 0, "");
    return;
  }
  /* Framed form: "╷", "│ " prefix on every line, "╵". */
  const char *bar = err ? C_RED "\xe2\x94\x82" C_RESET " "
                        : C_YELLOW "\xe2\x94\x82" C_RESET " ";
  buf_puts(out, err ? C_RED "\xe2\x95\xb7" C_RESET "\n"
                    : C_YELLOW "\xe2\x95\xb7" C_RESET "\n");
  buf_printf(out, "%s%s%s%s: %s%s\n", bar, err ? C_BOLD C_RED : C_BOLD C_YELLOW,
             err ? "Error" : "Warning", C_RESET C_BOLD, g->summary, C_RESET);
  buf_printf(out, "%s\n", bar);
  put_snippet(out, g, fs, st, bar);
  if (g->detail && *g->detail)
    /* Diagnostic leaves room for the left rule ("│ ", 2 cells) and one
    ** more: width - 3 */
    put_wrapped(out, g->detail, st.width > 3 ? st.width - 3 : 0, bar);
  buf_puts(out, err ? C_RED "\xe2\x95\xb5" C_RESET "\n"
                    : C_YELLOW "\xe2\x95\xb5" C_RESET "\n");
}

void diag_render_all(Buf *out, const Diags *d, const SrcFiles *fs,
                     DiagStyle st)
{
  for (const Diag *g = d->head; g; g = g->next)
    diag_render(out, g, fs, st);
}

/* ---- JSON rendering ------------------------------------------------- */

static void json_str(Buf *out, const char *s)
{
  static const char hex[] = "0123456789abcdef";
  buf_putc(out, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    unsigned char c = *p;
    switch (c) {
    case '"': buf_puts(out, "\\\""); break;
    case '\\': buf_puts(out, "\\\\"); break;
    case '\n': buf_puts(out, "\\n"); break;
    case '\r': buf_puts(out, "\\r"); break;
    case '\t': buf_puts(out, "\\t"); break;
    case '<': buf_puts(out, "\\u003c"); break;
    case '>': buf_puts(out, "\\u003e"); break;
    case '&': buf_puts(out, "\\u0026"); break;
    default:
      if (c < 0x20) {
        buf_puts(out, "\\u00");
        buf_putc(out, hex[c >> 4]);
        buf_putc(out, hex[c & 15]);
      } else if (c == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
        buf_puts(out, p[2] == 0xa8 ? "\\u2028" : "\\u2029");
        p += 2;
      } else {
        buf_putc(out, (char)c);
      }
    }
  }
  buf_putc(out, '"');
}

static void json_pos(Buf *out, const char *key, SrcPos p)
{
  buf_printf(out, "\"%s\":{\"line\":%u,\"column\":%u,\"byte\":%u}", key,
             p.line, p.col, p.byte);
}

void diag_render_json(Buf *out, const Diag *g, const SrcFiles *fs)
{
  buf_puts(out, "{\"severity\":");
  buf_puts(out, g->severity == DIAG_ERROR ? "\"error\"" : "\"warning\"");
  buf_puts(out, ",\"summary\":");
  json_str(out, g->summary);
  buf_puts(out, ",\"detail\":");
  json_str(out, g->detail ? g->detail : "");
  if (g->address) {
    buf_puts(out, ",\"address\":");
    json_str(out, g->address);
  }
  if (g->subject.file) {
    const SrcRange *r = &g->subject;
    buf_puts(out, ",\"range\":{\"filename\":");
    json_str(out, r->file);
    buf_putc(out, ',');
    json_pos(out, "start", r->start);
    buf_putc(out, ',');
    json_pos(out, "end", r->end);
    buf_putc(out, '}');
    const SrcFile *f = diag_files_find(fs, r->file);
    if (f) {
      const SrcRange *snip = g->context.file ? &g->context : r;
      uint32_t b = line_start(f, snip->start.byte);
      uint32_t last = snip->end.byte > snip->start.byte ? snip->end.byte - 1
                                                        : snip->start.byte;
      uint32_t e = line_end(f, last < f->len ? last : f->len);
      const char *ctx = f->block_context
                            ? f->block_context(f, r->start.byte) : NULL;
      buf_puts(out, ",\"snippet\":{\"context\":");
      if (ctx)
        json_str(out, ctx);
      else
        buf_puts(out, "null");
      buf_puts(out, ",\"code\":");
      json_str(out, arena_strndup(out->arena, f->text + b, e - b));
      uint32_t hs = r->start.byte >= b ? r->start.byte - b : 0;
      uint32_t he = r->end.byte >= b ? r->end.byte - b : 0;
      buf_printf(out, ",\"start_line\":%u,\"highlight_start_offset\":%u,"
                      "\"highlight_end_offset\":%u,\"values\":[",
                 snip->start.line, hs, he);
      for (int i = 0; i < g->nvalues; i++) {
        /* values are rendered "traversal statement"; split at the
        ** first space so consumers get the two parts. */
        const char *v = g->values[i];
        const char *sp = strchr(v, ' ');
        buf_puts(out, i ? ",{\"traversal\":" : "{\"traversal\":");
        json_str(out, sp ? arena_strndup(out->arena, v, (size_t)(sp - v)) : v);
        buf_puts(out, ",\"statement\":");
        json_str(out, sp ? sp + 1 : "");
        buf_putc(out, '}');
      }
      buf_puts(out, "]}");
    }
  }
  buf_putc(out, '}');
}
