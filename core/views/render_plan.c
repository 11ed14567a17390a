/*
** render_plan: the plan text (render.h): one resource change with its
** "# addr will be ..." comment lines (render_change, render_drift), the
** output changes, and the whole plan after the refresh lines
** (render_plan): drift section, legend, actions, the "Plan:" line,
** "Changes to Outputs:" and the "No changes." texts of each plan mode.
*/
#include "render_priv.h"

#include <stdint.h>
#include <string.h>

#include "base/json.h"

/* ---- Resource changes --------------------------------------------------- */

static bool ch_moved(const PlChange *c)
{
  return c->prev_addr && *c->prev_addr && strcmp(c->prev_addr, c->addr);
}

/* The diff of one resource change (precomputeDiffs). */
static Diff *change_diff(const R *r, const PlChange *c)
{
  const ProvBlockSchema *s =
      c->schema ? c->schema
                : render_generic_schema(r, c->before, c->after);
  Matcher m = {NULL, 0};
  if (c->nreplace_paths) {
    m.p = c->replace_paths;
    m.n = c->nreplace_paths;
  }
  Value b = c->before, a = c->after;
  Chg ch = render_chg_make(b, a, m);
  /* The top-level values are not "explicit" in the JSON plan. */
  ch.bexp = ch.aexp = false;
  if (c->action == PL_FORGET)
    ch = render_chg_as_noop(ch);
  return render_cd_block(r, ch, s);
}

static PlAction show_action(PlAction a)
{
  return a;
}

static void change_comment(const R *r, Buf *o, const PlChange *c, bool drift)
{
  Buf t;
  buf_init(&t, r->a);
  const char *disp = c->addr;
  if (c->deposed)
    disp = arena_printf(r->a, "%s (deposed object %s)", c->addr, c->deposed);
  bool moved = ch_moved(c), pm = false, pi = false;
  switch (c->action) {
  case PL_CREATE:
    buf_printf(&t, "[bold]  # %s[reset] will be created", disp);
    break;
  case PL_READ:
    buf_printf(&t, "[bold]  # %s[reset] will be read during apply", disp);
    if (c->reason == PL_REASON_READ_CONFIG_UNKNOWN)
      buf_puts(&t, "\n  # (config refers to values not yet known)");
    else if (c->reason == PL_REASON_READ_DEPENDENCY_PENDING)
      buf_puts(&t, "\n  # (depends on a resource or a module with changes "
                   "pending)");
    else if (c->reason == PL_REASON_READ_CHECK_NESTED)
      buf_puts(&t, "\n  # (config will be reloaded to verify a check block)");
    break;
  case PL_UPDATE:
    buf_printf(&t, drift ? "[bold]  # %s[reset] has changed"
                         : "[bold]  # %s[reset] will be updated in-place",
               disp);
    break;
  case PL_CREATE_THEN_DELETE:
  case PL_DELETE_THEN_CREATE:
    if (c->reason == PL_REASON_REPLACE_BECAUSE_TAINTED)
      buf_printf(&t, "[bold]  # %s[reset] is tainted, so must be "
                     "[bold][red]replaced[reset]", disp);
    else if (c->reason == PL_REASON_REPLACE_BY_REQUEST)
      buf_printf(&t, "[bold]  # %s[reset] will be [bold][red]replaced[reset]"
                     ", as requested", disp);
    else if (c->reason == PL_REASON_REPLACE_BY_TRIGGERS)
      buf_printf(&t, "[bold]  # %s[reset] will be [bold][red]replaced[reset]"
                     " due to changes in replace_triggered_by", disp);
    else
      buf_printf(&t, "[bold]  # %s[reset] must be [bold][red]replaced[reset]",
                 disp);
    break;
  case PL_FORGET:
    if (c->deposed) {
      buf_printf(&t, "[bold] # %s[reset] will be removed from Terraform "
                     "state, but [bold][red]will not be destroyed[reset]",
                 disp);
      buf_puts(&t, "\n[bold] # (left over from a partially-failed "
                   "replacement of this instance)");
    } else {
      buf_printf(&t, "[bold] # %s[reset] will no longer be managed by "
                     "Terraform, but [bold][red]will not be destroyed[reset]",
                 disp);
    }
    buf_puts(&t, "\n # (destroy = false is set in the configuration)");
    break;
  case PL_DELETE:
    if (drift)
      buf_printf(&t, "[bold]  # %s[reset] has been deleted", disp);
    else
      buf_printf(&t, "[bold]  # %s[reset] will be [bold][red]destroyed[reset]",
                 disp);
    switch (c->reason) {
    case PL_REASON_DELETE_NO_RESOURCE_CONFIG:
      buf_printf(&t, "\n  # (because %s.%s is not in configuration)", c->type,
                 c->name);
      break;
    case PL_REASON_DELETE_NO_MOVE_TARGET:
      buf_printf(&t, "\n  # (because %s was moved to %s, which is not in "
                     "configuration)", c->prev_addr ? c->prev_addr : "",
                 c->addr);
      break;
    case PL_REASON_DELETE_NO_MODULE:
      buf_printf(&t, "\n  # (because %s is not in configuration)",
                 c->module ? c->module : "");
      break;
    case PL_REASON_DELETE_WRONG_REPETITION:
      if (c->key.kind == ST_NOKEY)
        buf_puts(&t, "\n  # (because resource uses count or for_each)");
      else if (c->key.kind == ST_INTKEY)
        buf_puts(&t, "\n  # (because resource does not use count)");
      else
        buf_puts(&t, "\n  # (because resource does not use for_each)");
      break;
    case PL_REASON_DELETE_COUNT_INDEX:
      buf_printf(&t, "\n  # (because index [%lld] is out of range for count)",
                 (long long)c->key.i);
      break;
    case PL_REASON_DELETE_EACH_KEY:
      buf_puts(&t, "\n  # (because key [");
      if (c->key.kind == ST_STRKEY)
        json_write_string(&t, c->key.s, c->key.slen);
      else
        buf_printf(&t, "%lld", (long long)c->key.i);
      buf_puts(&t, "] is not in for_each map)");
      break;
    default:
      break;
    }
    if (c->deposed)
      buf_puts(&t, "\n  # (left over from a partially-failed replacement of "
                   "this instance)");
    break;
  case PL_NOOP:
    if (moved) {
      buf_printf(&t, "[bold]  # %s[reset] has moved to [bold]%s[reset]",
                 c->prev_addr, disp);
      pm = true;
      break;
    }
    if (c->importing) {
      buf_printf(&t, "[bold]  # %s[reset] will be imported", disp);
      pi = true;
      break;
    }
    buf_printf(&t, "%s has an action the plan renderer doesn't support "
                   "(this is a bug)", disp);
    break;
  default:
    buf_printf(&t, "%s has an action the plan renderer doesn't support "
                   "(this is a bug)", disp);
    break;
  }
  buf_putc(&t, '\n');
  if (moved && !pm)
    buf_printf(&t, "  # [reset](moved from %s)\n", c->prev_addr);
  if (c->importing && !pi) {
    if (c->import_id && *c->import_id)
      buf_printf(&t, "  # [reset](imported from \"%s\")\n", c->import_id);
    else
      buf_puts(&t, "  # [reset](will be imported first)\n");
  }
  if (c->importing && (c->action == PL_CREATE_THEN_DELETE ||
                       c->action == PL_DELETE_THEN_CREATE))
    buf_puts(&t, "  # [reset][yellow]Warning: this will destroy the imported "
                 "resource[reset]\n");
  /* Only "Terraform" in the forget wording is product text. */
  render_colt(r, o, buf_str(&t));
}

/* renderHumanDiff: false when there is nothing to say. */
static bool draw_change(const R *r, Buf *o, const PlChange *c, const Diff *d,
                        bool drift)
{
  if (c->action == PL_NOOP && !ch_moved(c) && !c->importing)
    return false;
  change_comment(r, o, c, drift);
  ROpts op;
  memset(&op, 0, sizeof op);
  op.show_unchanged = c->importing;
  render_col(r, o, render_sym_markup(show_action(c->action)));
  buf_printf(o, " %s ", c->mode == ST_DATA ? "data" : "resource");
  buf_strconv_quote(o, c->type ? c->type : "", c->type ? strlen(c->type) : 0);
  buf_putc(o, ' ');
  buf_strconv_quote(o, c->name ? c->name : "", c->name ? strlen(c->name) : 0);
  buf_putc(o, ' ');
  render_rd(r, o, d, 0, op);
  return true;
}

static void render_one(Buf *out, const PlChange *c, const RenderOpts *o,
                       bool drift)
{
  Arena a;
  R r;
  render_init(&r, &a, o);
  Buf t;
  buf_init(&t, &a);
  Diff *d = change_diff(&r, c);
  if (draw_change(&r, &t, c, d, drift)) {
    buf_putc(&t, '\n');
    buf_put(out, t.p, t.len);
  }
  arena_release(&a);
}

void render_change(Buf *out, const PlChange *c, const RenderOpts *o)
{
  render_one(out, c, o, false);
}

void render_drift(Buf *out, const PlChange *c, const RenderOpts *o)
{
  render_one(out, c, o, true);
}

/* ---- Outputs ------------------------------------------------------------ */

static Diff *output_diff(const R *r, const PlOutput *po)
{
  Matcher m = {NULL, 0};
  Chg c = render_chg_make(po->before, po->after, m);
  c.bexp = c.aexp = false;
  if (po->sensitive)
    c.bsens = c.asens = true;
  return render_cd_json(r, c);
}

/* ---- The whole plan ----------------------------------------------------- */

/* True when neither a change's diff nor an output's has an action: the
** diff of each change is built and dropped in turn (a plan of 100,000
** instances would otherwise hold 100,000 diff trees). */
static bool plan_empty(const R *r, const Plan *p, Diff *const *od)
{
  if (p->ninvokes)
    return false;
  for (uint32_t i = 0; i < p->noutputs; i++)
    if (od[i]->action != PL_NOOP)
      return false;
  for (uint32_t i = 0; i < p->nchanges; i++) {
    if (ch_moved(&p->changes[i]))
      return false;
    ArenaMark m = arena_mark(r->a);
    PlAction act = change_diff(r, &p->changes[i])->action;
    arena_rewind(r->a, m);
    if (act != PL_NOOP)
      return false;
  }
  return true;
}

/* Written straight to out; the diff of each change exists only while
** that change is drawn, and a change with nothing to show gets none
** (a no-change plan of 10,000 instances built all 10,000 and kept them
** to the end: 9.7 MB, docs/performance.md). */
void render_plan(Buf *out, const Plan *p, const RenderOpts *o)
{
  Arena ar;
  R r;
  render_init(&r, &ar, o);
  Buf *w = out;
  bool refresh_only = p->mode == PL_MODE_REFRESH_ONLY;

  Diff **od = ARENA_NEW(&ar, Diff *, p->noutputs + 1);
  for (uint32_t i = 0; i < p->noutputs; i++)
    od[i] = output_diff(&r, &p->outputs[i]);

  /* Drift. */
  bool have_refresh = false;
  {
    uint32_t nd = 0;
    Diff **dd = ARENA_NEW(&ar, Diff *, p->ndrift + 1);
    const PlChange **dc = ARENA_NEW(&ar, const PlChange *, p->ndrift + 1);
    for (uint32_t i = 0; i < p->ndrift; i++) {
      ArenaMark m = arena_mark(&ar);
      Diff *x = change_diff(&r, &p->drift[i]);
      if (!refresh_only && x->action == PL_NOOP) {
        arena_rewind(&ar, m);
        continue;
      }
      dd[nd] = x;
      dc[nd++] = &p->drift[i];
    }
    /* Whether the plan is empty matters only here. */
    if (nd > 0 && (refresh_only || !plan_empty(&r, p, od))) {
      have_refresh = true;
      render_colt(&r, w,
                  "\n[bold][cyan]Note:[reset][bold] Objects have changed "
                  "outside of Terraform\n");
      buf_putc(w, '\n');
      render_wrapt(&r, w,
                   "Terraform detected the following changes made outside "
                   "of Terraform since the last \"terraform apply\" which "
                   "may have affected this plan:\n");
      for (uint32_t i = 0; i < nd; i++) {
        Buf one;
        buf_init(&one, &ar);
        if (draw_change(&r, &one, dc[i], dd[i], true)) {
          buf_putc(w, '\n');
          buf_puts(w, buf_str(&one));
          buf_putc(w, '\n');
        }
      }
      if (refresh_only)
        render_wrapt(&r, w,
                     "\n\nThis is a refresh-only plan, so Terraform will not "
                     "take any actions to undo these. If you were expecting "
                     "these changes then you can apply this plan to record "
                     "the updated values in the Terraform state without "
                     "changing any remote objects.");
      else
        render_wrapt(&r, w,
                     "\n\nUnless you have made equivalent changes to your "
                     "configuration, or ignored the relevant attributes "
                     "using ignore_changes, the following plan may include "
                     "actions to undo or respond to these changes.");
      buf_putc(w, '\n');
    }
  }

  /* Changes to draw and their counts. */
  uint32_t counts[PL_FORGET + 1] = {0};
  uint32_t ncounted = 0, importing = 0, nshow = 0;
  bool will_print = false;
  uint32_t *show = ARENA_NEW(&ar, uint32_t, p->nchanges + 1);
  for (uint32_t i = 0; i < p->nchanges; i++) {
    const PlChange *c = &p->changes[i];
    if (c->action == PL_NOOP && !ch_moved(c) && !c->importing)
      continue;
    if (c->action == PL_DELETE && c->mode != ST_MANAGED)
      continue;
    show[nshow++] = i;
    if (c->importing)
      importing++;
    if (c->action != PL_NOOP && c->action <= PL_FORGET) {
      will_print = true;
      if (counts[c->action]++ == 0)
        ncounted++;
    }
  }

  /* Outputs text. */
  Buf outs;
  buf_init(&outs, &ar);
  {
    size_t kw = 0;
    for (uint32_t i = 0; i < p->noutputs; i++) {
      size_t l = strlen(render_attr_name(&r, p->outputs[i].name));
      if (l > kw)
        kw = l;
    }
    bool first = true;
    for (uint32_t i = 0; i < p->noutputs; i++) {
      if (od[i]->action == PL_NOOP)
        continue;
      if (!first)
        buf_putc(&outs, '\n');
      first = false;
      render_col(&r, &outs, render_sym_markup(od[i]->action));
      buf_putc(&outs, ' ');
      render_put_padded(&outs, render_attr_name(&r, p->outputs[i].name), kw);
      buf_puts(&outs, " = ");
      ROpts op;
      memset(&op, 0, sizeof op);
      render_rd(&r, &outs, od[i], 0, op);
    }
  }

  if (nshow == 0 && outs.len == 0 && !p->ninvokes) {
    if (p->errored) {
      if (have_refresh) {
        render_hrule(&r, w);
        buf_putc(w, '\n');
      }
      render_colt(&r, w, "\n[reset][bold][red]Planning failed.[reset][bold] "
                         "Terraform encountered an error while generating this "
                         "plan.[reset]\n\n");
    } else if (refresh_only) {
      if (!have_refresh) {
        render_col(&r, w,
                   "\n[reset][bold][green]No changes.[reset][bold] Your "
                   "infrastructure still matches the configuration.[reset]"
                   "\n\n");
        render_wrapt(&r, w,
                     "Terraform has checked that the real remote objects "
                     "still match the result of your most recent changes, "
                     "and found no differences.");
        buf_putc(w, '\n');
      }
      goto done;
    } else if (p->mode == PL_MODE_DESTROY) {
      if (have_refresh) {
        render_hrule(&r, w);
        buf_putc(w, '\n');
      }
      render_col(&r, w,
                 "\n[reset][bold][green]No changes.[reset][bold] No objects "
                 "need to be destroyed.[reset]\n\n");
      render_wrapt(&r, w, "Either you have not created any objects yet or the "
                          "existing objects were already deleted outside of "
                          "Terraform.");
      buf_putc(w, '\n');
    } else {
      if (have_refresh) {
        render_hrule(&r, w);
        buf_putc(w, '\n');
      }
      render_col(&r, w, "\n[reset][bold][green]No changes.[reset][bold] Your "
                        "infrastructure matches the configuration.[reset]\n\n");
      if (have_refresh) {
        if (p->applyable) {
          render_wrapt(&r, w,
                       "Your configuration already matches the changes "
                       "detected above, so applying this plan will only "
                       "update the state to include the changes detected "
                       "above and won't change any real infrastructure.");
        } else if (r.automation) {
          render_wrapt(&r, w, "Your configuration already matches the changes "
                              "detected above. If you'd like to update the "
                              "Terraform state to match, create and apply a "
                              "refresh-only plan.");
        } else {
          render_wrapt(&r, w,
                       "Your configuration already matches the changes "
                       "detected above. If you'd like to update the "
                       "Terraform state to match, create and apply a "
                       "refresh-only plan:\n  terraform apply -refresh-only");
        }
        buf_putc(w, '\n');
        goto done;
      }
      render_wrapt(&r, w,
                   "Terraform has compared your real infrastructure against "
                   "your configuration and found no differences, so no "
                   "changes are needed.");
      buf_putc(w, '\n');
    }
  }

  if (have_refresh) {
    render_hrule(&r, w);
    buf_putc(w, '\n');
  }

  if (will_print) {
    render_wrapt(&r, w,
                 "\nTerraform used the selected providers to generate the "
                 "following execution plan. Resource actions are indicated "
                 "with the following symbols:");
    buf_putc(w, '\n');
    static const struct {
      PlAction a;
      const char *text;
    } legend[] = {
      {PL_CREATE, "  [green]+[reset] create"},
      {PL_UPDATE, "  [yellow]~[reset] update in-place"},
      {PL_DELETE, "  [red]-[reset] destroy"},
      {PL_DELETE_THEN_CREATE,
       "[red]-[reset]/[green]+[reset] destroy and then create replacement"},
      {PL_CREATE_THEN_DELETE,
       "[green]+[reset]/[red]-[reset] create replacement and then destroy"},
      {PL_READ, " [cyan]<=[reset] read (data resources)"},
    };
    for (size_t i = 0; i < sizeof legend / sizeof legend[0]; i++) {
      if (counts[legend[i].a]) {
        render_col(&r, w, legend[i].text);
        buf_putc(w, '\n');
      }
    }
  }

  if (nshow > 0) {
    if (p->errored)
      render_colt(&r, w, "\nTerraform planned the following actions, but then "
                         "encountered a problem:\n");
    else
      render_colt(&r, w, "\nTerraform will perform the following actions:\n");
    for (uint32_t k = 0; k < nshow; k++) {
      uint32_t i = show[k];
      ArenaMark m = arena_mark(&ar);
      Buf one;
      buf_init(&one, &ar);
      Diff *d = change_diff(&r, &p->changes[i]);
      if (draw_change(&r, &one, &p->changes[i], d, false)) {
        if (p->ninvokes)
          render_invokes_of(&r, &one, p, &p->changes[i]);
        buf_putc(w, '\n');
        buf_puts(w, buf_str(&one));
        buf_putc(w, '\n');
      }
      arena_rewind(&ar, m);
    }
  }
  if (p->ninvokes)
    render_invokes_cli(&r, w, p);
  if (nshow > 0 || p->ninvokes) {
    render_col(&r, w, "\n[bold]Plan:[reset] ");
    if (importing)
      buf_printf(w, "%u to import, ", importing);
    buf_printf(w, "%u to add, %u to change, %u to destroy",
               counts[PL_CREATE] + counts[PL_DELETE_THEN_CREATE] +
                   counts[PL_CREATE_THEN_DELETE],
               counts[PL_UPDATE],
               counts[PL_DELETE] + counts[PL_DELETE_THEN_CREATE] +
                   counts[PL_CREATE_THEN_DELETE]);
    if (counts[PL_FORGET])
      buf_printf(w, ", %u to forget", counts[PL_FORGET]);
    buf_putc(w, '.');
    if (p->ninvokes)
      buf_printf(w, " Actions: %u to invoke.", p->ninvokes);
    buf_putc(w, '\n');
  }

  if (outs.len > 0) {
    buf_puts(w, "\nChanges to Outputs:\n");
    buf_puts(w, buf_str(&outs));
    buf_putc(w, '\n');
    if (ncounted == 0) {
      render_wrapt(&r, w, "\nYou can apply this plan to save these new output "
                          "values to the Terraform state, without changing any "
                          "real infrastructure.");
      buf_putc(w, '\n');
    }
  }

done:
  arena_release(&ar);
}
