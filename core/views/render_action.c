/*
** render_action: the action invocations of a plan in the human plan
** (Terraform 1.14, docs/actions.md): under each triggering change the
** actions to be invoked before and after it, and for -invoke the section
** "Terraform will invoke the following action(s):".
*/
#include <string.h>

#include "config/config.h"
#include "render_priv.h"

/*   action "TYPE" "NAME" {
**       config {
**           attr = value
**       }
**   }
** at 4 spaces; the configuration is the value as a block with nothing
** changing, every attribute shown. */
static void draw_invoke(const R *r, Buf *o, const PlInvoke *iv)
{
  buf_puts(o, "    action ");
  buf_strconv_quote(o, iv->type, strlen(iv->type));
  buf_putc(o, ' ');
  buf_strconv_quote(o, iv->name, strlen(iv->name));
  buf_puts(o, " {\n");
  if (iv->schema) {
    Matcher m = {NULL, 0};
    /* drawn as a create (no symbols): unknown parts show as
    ** (known after apply) */
    Value none;
    memset(&none, 0, sizeof none);
    Chg ch = render_chg_make(none, iv->config, m);
    ch.bexp = ch.aexp = false;
    Diff *d = render_cd_block(r, ch, iv->schema);
    ROpts op;
    memset(&op, 0, sizeof op);
    op.show_unchanged = true;
    op.hide_symbols = true;
    Buf t;
    buf_init(&t, r->a);
    render_rd(r, &t, d, 0, op);
    buf_puts(o, "        config ");
    for (size_t i = 0; i < t.len; i++) {
      buf_putc(o, t.p[i]);
      if (t.p[i] == '\n')
        buf_puts(o, "        ");
    }
    buf_putc(o, '\n');
  }
  buf_puts(o, "    }\n");
}

void render_invokes_of(const R *r, Buf *o, const Plan *p, const PlChange *c)
{
  const unsigned aft = CFG_EV_AFTER_CREATE | CFG_EV_AFTER_UPDATE;
  for (int after = 0; after < 2; after++) {
    bool head = false;
    for (uint32_t i = 0; i < p->ninvokes; i++) {
      const PlInvoke *iv = &p->invokes[i];
      if (!iv->trigger || ((iv->event & aft) != 0) != (after != 0) ||
          strcmp(iv->trigger, c->addr) != 0 || c->deposed)
        continue;
      if (!head) {
        buf_puts(o, "\n\n    ");
        render_col(r, o, after ? "[bold]# Actions to be invoked after this "
                                 "change in order:[reset]"
                               : "[bold]# Actions to be invoked before this "
                                 "change in order:[reset]");
        buf_putc(o, '\n');
        head = true;
      }
      draw_invoke(r, o, iv);
    }
  }
}

void render_invokes_cli(const R *r, Buf *o, const Plan *p)
{
  bool head = false;
  for (uint32_t i = 0; i < p->ninvokes; i++) {
    const PlInvoke *iv = &p->invokes[i];
    if (iv->trigger)
      continue;
    if (!head)
      render_colt(r, o, "\nTerraform will invoke the following "
                        "action(s):\n");
    buf_putc(o, '\n');
    head = true;
    buf_puts(o, "  ");
    render_col(r, o, "[bold]# ");
    buf_puts(o, iv->addr);
    render_col(r, o, "[reset] will be invoked\n");
    draw_invoke(r, o, iv);
  }
}
