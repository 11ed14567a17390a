/*
** render_show: one state object and one value as `show`, `state show` and
** `output` print them (render_object, render_value): drawn as a diff of
** the value against itself, unchanged children shown, action symbols
** hidden.
*/
#include "render_priv.h"

#include <string.h>

/* ---- State objects and values ------------------------------------------- */

void render_object(Buf *out, const char *addr, StMode mode, const char *type,
                   const char *name, const char *deposed, bool tainted,
                   Value obj, const ProvBlockSchema *schema,
                   const RenderOpts *o)
{
  Arena ar;
  R r;
  render_init(&r, &ar, o);
  Buf t;
  buf_init(&t, &ar);
  if (deposed)
    buf_printf(&t, "# %s: (deposed object %s)\n", addr, deposed);
  else if (tainted)
    buf_printf(&t, "# %s: (tainted)\n", addr);
  else
    buf_printf(&t, "# %s:\n", addr);
  const ProvBlockSchema *s =
      schema ? schema : render_generic_schema(&r, obj, obj);
  Matcher m = {NULL, 0};
  Chg c = render_chg_make(obj, obj, m);
  c.bexp = c.aexp = false;
  c.unknown = false;
  Diff *d = render_cd_block(&r, c, s);
  ROpts op;
  memset(&op, 0, sizeof op);
  op.show_unchanged = true;
  op.hide_symbols = true;
  buf_printf(&t, "%s ", mode == ST_DATA ? "data" : "resource");
  buf_strconv_quote(&t, type ? type : "", type ? strlen(type) : 0);
  buf_putc(&t, ' ');
  buf_strconv_quote(&t, name ? name : "", name ? strlen(name) : 0);
  buf_putc(&t, ' ');
  render_rd(&r, &t, d, 0, op);
  buf_putc(&t, '\n');
  buf_put(out, t.p, t.len);
  arena_release(&ar);
}

void render_value(Buf *out, Value v, bool sensitive, int indent,
                  const RenderOpts *o)
{
  Arena ar;
  R r;
  render_init(&r, &ar, o);
  Buf t;
  buf_init(&t, &ar);
  Matcher m = {NULL, 0};
  Chg c = render_chg_make(v, v, m);
  c.unknown = false;
  if (sensitive)
    c.bsens = c.asens = true;
  Diff *d = v.type && v.type->kind != TY_DYNAMIC ? render_cd_type(&r, c, v.type)
                                                 : render_cd_json(&r, c);
  ROpts op;
  memset(&op, 0, sizeof op);
  op.show_unchanged = true;
  op.hide_symbols = true;
  render_rd(&r, &t, d, indent, op);
  buf_put(out, t.p ? t.p : "", t.len);
  arena_release(&ar);
}
