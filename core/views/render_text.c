/*
** render_text: the text primitives every part of the renderer draws with:
** the render context (render_init), colorstring's [tag] markup with the
** tool name put for "Terraform", Terraform's word wrapping and horizontal
** rule, Go's %q quoting, attribute names as HCL shows them, and padding
** by characters.
*/
#include "render_priv.h"

#include <stdint.h>
#include <string.h>

/* ---- The render context ------------------------------------------------ */

void render_init(R *r, Arena *a, const RenderOpts *o)
{
  arena_init(a, 0);
  r->a = a;
  r->color = o && o->color;
  r->tool = o && o->tool ? o->tool : "cairn";
  r->width = o && o->width > 0 ? o->width : 78;
  r->automation = o && o->automation;
}

/* ---- Colour markup ---------------------------------------------------- */

static const struct {
  const char *name;
  const char *code;
} colors[] = {
  {"reset", "0"}, {"bold", "1"}, {"red", "31"}, {"green", "32"},
  {"yellow", "33"}, {"cyan", "36"}, {"dark_gray", "90"},
  {"light_gray", "37"},
};

/* colorstring.Colorize.Color with Reset: known [tags] become escape codes
** (or vanish without colour); a reset is appended when any tag was seen. */
void render_col(const R *r, Buf *o, const char *s)
{
  bool any = false;
  while (*s) {
    if (*s == '[') {
      const char *e = s + 1;
      while ((*e >= 'a' && *e <= 'z') || *e == '_' || (*e >= '0' && *e <= '9'))
        e++;
      if (*e == ']' && e > s + 1) {
        size_t n = (size_t)(e - s - 1);
        size_t i;
        for (i = 0; i < sizeof colors / sizeof colors[0]; i++)
          if (strlen(colors[i].name) == n && !memcmp(colors[i].name, s + 1, n))
            break;
        if (i < sizeof colors / sizeof colors[0]) {
          any = true;
          if (r->color)
            buf_printf(o, "\x1b[%sm", colors[i].code);
          s = e + 1;
          continue;
        }
      }
    }
    buf_putc(o, *s++);
  }
  if (any && r->color)
    buf_puts(o, "\x1b[0m");
}

/* Terraform's sentences with "Terraform"/"terraform" replaced by the tool
** name, then coloured. */
void render_colt(const R *r, Buf *o, const char *s)
{
  Buf t;
  buf_init(&t, r->a);
  const char *start = s;
  while (*s) {
    if (!strncmp(s, "Terraform", 9)) {
      buf_puts(&t, r->tool);
      s += 9;
    } else if (!strncmp(s, "terraform", 9) && (s[9] == ' ' || s[9] == '"') &&
               (s == start || s[-1] == ' ' || s[-1] == '"')) {
      /* Command lines ("terraform apply"), not addresses such as
      ** terraform_data.a: the lower-case program name. */
      for (const char *q = r->tool; *q; q++)
        buf_putc(&t, (char)(*q >= 'A' && *q <= 'Z' ? *q + 32 : *q));
      s += 9;
    } else {
      buf_putc(&t, *s++);
    }
  }
  render_col(r, o, buf_str(&t));
}

void render_indent_to(Buf *o, int n)
{
  for (int i = 0; i < n; i++)
    buf_puts(o, "    ");
}

/* ---- Word wrapping (mitchellh/go-wordwrap as format.WordWrap uses it) -- */

static size_t utf8_count(const char *s, size_t n)
{
  size_t c = 0;
  for (size_t i = 0; i < n; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80)
      c++;
  return c;
}

static void wrap_line(Buf *o, const char *s, size_t n, size_t lim)
{
  size_t cur = 0;
  size_t i = 0;
  const char *sp = NULL, *wd = NULL; /* pending spaces and word */
  size_t spn = 0, wdn = 0, splen = 0, wdlen = 0;
  while (i < n) {
    size_t cl = 1;
    unsigned char ch = (unsigned char)s[i];
    while (i + cl < n && ((unsigned char)s[i + cl] & 0xC0) == 0x80)
      cl++;
    if (ch == ' ' || ch == '\t') {
      if (spn == 0 || wdn > 0) {
        cur += splen + wdlen;
        if (spn)
          buf_put(o, sp, spn);
        if (wdn)
          buf_put(o, wd, wdn);
        sp = NULL, spn = 0, splen = 0, wd = NULL, wdn = 0, wdlen = 0;
      }
      if (!sp)
        sp = s + i;
      spn += cl;
      splen++;
    } else {
      if (!wd)
        wd = s + i;
      wdn += cl;
      wdlen++;
      if (cur + splen + wdlen > lim && wdlen < lim) {
        buf_putc(o, '\n');
        cur = 0;
        sp = NULL, spn = 0, splen = 0;
      }
    }
    i += cl;
  }
  if (wdn == 0) {
    if (cur + splen <= lim && spn)
      buf_put(o, sp, spn);
  } else {
    if (spn)
      buf_put(o, sp, spn);
    buf_put(o, wd, wdn);
  }
}

void render_wrap(Buf *out, const char *text, int width)
{
  if (width <= 0)
    width = 78;
  if (width <= 1) {
    buf_puts(out, text);
    return;
  }
  const char *p = text;
  bool first = true;
  for (;;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (!first)
      buf_putc(out, '\n');
    first = false;
    if (n > 0 && p[0] == ' ')
      buf_put(out, p, n);
    else
      wrap_line(out, p, n, (size_t)width - 1);
    if (!nl)
      break;
    p = nl + 1;
  }
}

/* Tool substitution, then wrapping (colour-free sentences). */
void render_wrapt(const R *r, Buf *o, const char *s)
{
  Buf t, u;
  buf_init(&t, r->a);
  render_colt(r, &t, s);
  buf_init(&u, r->a);
  render_wrap(&u, buf_str(&t), r->width);
  buf_puts(o, buf_str(&u));
}

void render_hrule(const R *r, Buf *o)
{
  Buf t;
  buf_init(&t, r->a);
  buf_puts(&t, "[dark_gray]\n");
  for (int i = 0; i < r->width - 1; i++)
    buf_puts(&t, "\xe2\x94\x80");
  render_col(r, o, buf_str(&t));
}

/* hclsyntax.ValidIdentifier (ASCII letters, digits, _ and -; non-ASCII
** letters are accepted as letters). */
static bool valid_ident(const char *s)
{
  if (!*s)
    return false;
  unsigned char c = (unsigned char)s[0];
  if (!(c >= 0x80 || c == '_' || (c >= 'a' && c <= 'z') ||
        (c >= 'A' && c <= 'Z')))
    return false;
  for (s++; *s; s++) {
    c = (unsigned char)*s;
    if (!(c >= 0x80 || c == '_' || c == '-' || (c >= 'a' && c <= 'z') ||
          (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  }
  return true;
}

const char *render_attr_name(const R *r, const char *name)
{
  if (valid_ident(name))
    return name;
  Buf b;
  buf_init(&b, r->a);
  buf_strconv_quote(&b, name, strlen(name));
  return buf_str(&b);
}

const char *render_quoted(const R *r, const char *s, size_t n)
{
  Buf b;
  buf_init(&b, r->a);
  buf_strconv_quote(&b, s, n);
  return buf_str(&b);
}

/* %-*s: pads by characters to width (a byte length, as Go's callers
** measure it). */
void render_put_padded(Buf *o, const char *s, size_t width)
{
  size_t n = strlen(s);
  buf_put(o, s, n);
  for (size_t c = utf8_count(s, n); c < width; c++)
    buf_putc(o, ' ');
}
