/*
** render_draw: the drawers, the second of the renderer's two passes
** (render_priv.h): a Diff tree walked into text by rd_* as jsonformat's
** renderers do: action symbols, "-> null" suffixes, "# forces
** replacement", "# (N unchanged ... hidden)" lines, heredocs for
** multi-line strings, jsonencode(...) diffs, lists with context, sets,
** maps, objects and nested blocks.
*/
#include "render_priv.h"

#include <stdint.h>
#include <string.h>

#include "base/diag.h"
#include "base/json.h"

/* ---- Drawing ------------------------------------------------------------ */

static ROpts clone_opts(ROpts o)
{
  o.force_replace = o.forbid_replace = false;
  return o;
}

const char *render_sym_markup(PlAction a)
{
  switch (a) {
  case PL_DELETE_THEN_CREATE: return "[red]-[reset]/[green]+[reset]";
  case PL_CREATE_THEN_DELETE: return "[green]+[reset]/[red]-[reset]";
  case PL_CREATE: return "  [green]+[reset]";
  case PL_DELETE: return "  [red]-[reset]";
  case PL_FORGET: return " [red].[reset]";
  case PL_READ: return " [cyan]<=[reset]";
  case PL_UPDATE: return "  [yellow]~[reset]";
  case PL_NOOP: return "   ";
  default: return "  ?";
  }
}

/* writeDiffActionSymbol */
static void sym(const R *r, Buf *o, PlAction a, ROpts op)
{
  if (op.hide_symbols)
    return;
  render_col(r, o, render_sym_markup(a));
  buf_putc(o, ' ');
}

static void null_suffix(const R *r, Buf *o, PlAction a, ROpts op)
{
  if (!op.no_null_suffix && a == PL_DELETE)
    render_col(r, o, " [dark_gray]-> null[reset]");
}

static void forces(const R *r, Buf *o, bool replace, ROpts op)
{
  if ((replace || op.force_replace) && !op.forbid_replace)
    render_col(r, o, " [red]# forces replacement[reset]");
}

/* The line `# (N unchanged KWs hidden)` inside a collection or block at
** indent ind; nothing when n is 0. */
static void unchanged(const R *r, Buf *o, int ind, ROpts op, const char *kw,
                      uint32_t n)
{
  if (n == 0)
    return;
  render_indent_to(o, ind + 1);
  sym(r, o, PL_NOOP, op);
  Buf t;
  buf_init(&t, r->a);
  buf_printf(&t, "[dark_gray]# (%u unchanged %s%s hidden)[reset]", n, kw,
             n == 1 ? "" : "s");
  render_col(r, o, buf_str(&t));
  buf_putc(o, '\n');
}

/* The closing bracket of a collection at indent ind, with its null
** suffix. */
static void close_coll(const R *r, Buf *o, const Diff *d, int ind, ROpts op,
                       char bracket)
{
  render_indent_to(o, ind);
  sym(r, o, PL_NOOP, op);
  buf_putc(o, bracket);
  null_suffix(r, o, d->action, op);
}

/* WarningsHuman, each written as formatIndent(ind) + warning + "\n". */
static void warnings(const R *r, Buf *o, const Diff *d, int ind)
{
  if ((d->kind != DK_SENS && d->kind != DK_SENSBLOCK) ||
      d->bsens == d->asens || !d->inner ||
      d->inner->action == PL_CREATE || d->inner->action == PL_DELETE)
    return;
  const char *what = d->kind == DK_SENS ? "attribute value" : "block";
  Buf t;
  buf_init(&t, r->a);
  if (d->bsens) {
    buf_printf(&t, "  # [yellow]Warning[reset]: this %s will no longer be "
               "marked as sensitive\n", what);
    render_indent_to(&t, ind);
    buf_puts(&t, "  # after applying this change.");
  } else {
    buf_printf(&t, "  # [yellow]Warning[reset]: this %s will be marked as "
               "sensitive and will not\n", what);
    render_indent_to(&t, ind);
    buf_puts(&t, "  # display in UI output after applying this change.");
  }
  render_indent_to(o, ind);
  render_col(r, o, buf_str(&t));
  if (d->kind == DK_SENS && d->inner->action == PL_NOOP)
    buf_puts(o, " The value is unchanged.");
  buf_putc(o, '\n');
}

static void put_number(Buf *o, Value v)
{
  val_num_format(o, v);
}

static void put_prim_value(const R *r, Buf *o, Value v, TypeKind k)
{
  if (!v.type) {
    render_col(r, o, "[dark_gray]null[reset]");
    return;
  }
  if (k == TY_BOOL)
    buf_puts(o, v.u.b ? "true" : "false");
  else if (k == TY_NUMBER)
    put_number(o, v);
  else if (k == TY_STRING)
    buf_strconv_quote(o, v.u.s, v.len);
  else
    render_col(r, o, "[dark_gray]null[reset]");
}

/* evaluatePrimitiveString */
typedef struct EStr {
  const char *s;
  size_t n;
  bool null, multiline, json;
  Value jv;
} EStr;

static EStr eval_str(const R *r, Value v)
{
  EStr e;
  memset(&e, 0, sizeof e);
  if (!v.type || val_is_null(v) || v.type->kind != TY_STRING) {
    e.null = true;
    return e;
  }
  e.s = v.u.s;
  e.n = v.len;
  if (e.n && (e.s[0] == '{' || e.s[0] == '[')) {
    Arena tmp;
    arena_init(&tmp, 0);
    Diags dg;
    diag_init(&dg, &tmp);
    Value jv;
    bool ok = json_parse(r->a, e.s, e.n, &jv, &dg, NULL);
    arena_release(&tmp);
    if (ok) {
      e.json = true;
      e.jv = jv;
      return e;
    }
  }
  if (memchr(e.s, '\n', e.n)) {
    /* strings.TrimSpace */
    while (e.n && (e.s[0] == ' ' || e.s[0] == '\t' || e.s[0] == '\n' ||
                   e.s[0] == '\r' || e.s[0] == '\v' || e.s[0] == '\f'))
      e.s++, e.n--;
    while (e.n && (e.s[e.n - 1] == ' ' || e.s[e.n - 1] == '\t' ||
                   e.s[e.n - 1] == '\n' || e.s[e.n - 1] == '\r' ||
                   e.s[e.n - 1] == '\v' || e.s[e.n - 1] == '\f'))
      e.n--;
    e.multiline = true;
  }
  return e;
}

static void put_simple(const R *r, Buf *o, const EStr *e)
{
  if (e->null)
    render_col(r, o, "[dark_gray]null[reset]");
  else
    buf_strconv_quote(o, e->s, e->n);
}

typedef struct Line {
  const char *s;
  size_t n;
} Line;

static Line *split_lines(const R *r, const char *s, size_t n, uint32_t *cnt)
{
  uint32_t k = 1;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '\n')
      k++;
  Line *l = ARENA_NEW(r->a, Line, k);
  uint32_t j = 0;
  size_t st = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i == n || s[i] == '\n') {
      l[j].s = s + st;
      l[j].n = i - st;
      j++;
      st = i + 1;
    }
  }
  *cnt = k;
  return l;
}

static bool eq_lines(const R *r, const void *xs, uint32_t i, const void *ys,
                     uint32_t j)
{
  (void)r;
  const Line *a = (const Line *)xs + i, *b = (const Line *)ys + j;
  return a->n == b->n && !memcmp(a->s, b->s, a->n);
}

typedef struct HereCtx {
  Buf *o;
  const Line *bl, *al;
  uint32_t nb, na;
  int ind;
  ROpts op;
  bool first;
} HereCtx;

static void here_line(const R *r, HereCtx *h, PlAction a, const Line *l)
{
  if (!h->first)
    buf_putc(h->o, '\n');
  h->first = false;
  render_indent_to(h->o, h->ind + 1);
  sym(r, h->o, a, h->op);
  buf_put(h->o, l->s, l->n);
}

static void here_cb(const R *r, void *vctx, int64_t bi, int64_t ai)
{
  HereCtx *h = vctx;
  if (bi < 0 || bi >= (int64_t)h->nb) {
    here_line(r, h, PL_CREATE, &h->al[ai]);
    return;
  }
  if (ai < 0 || ai >= (int64_t)h->na) {
    here_line(r, h, PL_DELETE, &h->bl[bi]);
    return;
  }
  if (!eq_lines(r, h->bl, (uint32_t)bi, h->al, (uint32_t)ai)) {
    here_line(r, h, PL_DELETE, &h->bl[bi]);
    here_line(r, h, PL_CREATE, &h->al[ai]);
    return;
  }
  here_line(r, h, PL_NOOP, &h->bl[bi]);
}

static void rd_json_string(const R *r, Buf *o, const Diff *d, int ind,
                           ROpts op, const EStr *b, const EStr *a)
{
  Chg c;
  memset(&c, 0, sizeof c);
  if (b)
    c.b = b->jv;
  if (a)
    c.a = a->jv;
  c.bexp = d->action != PL_CREATE;
  c.aexp = d->action != PL_DELETE;
  Diff *jd = render_cd_json(r, c);
  PlAction act = d->action;
  ROpts jo = clone_opts(op);
  jo.no_null_suffix = true;
  const char *ws = "";
  bool rep = false;
  if (jd->action == PL_NOOP && d->action == PL_UPDATE) {
    ws = d->replace ? " # whitespace changes force replacement"
                    : " # whitespace changes";
    jo.show_unchanged = true;
    act = PL_NOOP;
  } else {
    rep = true;
  }
  Buf t;
  buf_init(&t, r->a);
  render_rd(r, &t, jd, ind + 1, jo);
  if (d->action == PL_CREATE || d->action == PL_DELETE)
    act = PL_NOOP;
  if (memchr(buf_str(&t), '\n', t.len)) {
    buf_printf(o, "jsonencode(%s\n", ws);
    render_indent_to(o, ind + 1);
    sym(r, o, act, op);
    buf_puts(o, buf_str(&t));
    if (rep)
      forces(r, o, d->replace, op);
    buf_putc(o, '\n');
    render_indent_to(o, ind);
    sym(r, o, PL_NOOP, op);
    buf_putc(o, ')');
    null_suffix(r, o, d->action, op);
    return;
  }
  buf_puts(o, "jsonencode(");
  buf_puts(o, buf_str(&t));
  buf_printf(o, ")%s", ws);
  if (rep)
    forces(r, o, d->replace, op);
}

static void rd_string(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  HereCtx h;
  memset(&h, 0, sizeof h);
  h.o = NULL;
  Buf lines;
  buf_init(&lines, r->a);
  h.o = &lines;
  h.ind = ind;
  h.op = op;
  h.first = true;
  switch (d->action) {
  case PL_CREATE:
  case PL_NOOP: {
    EStr s = eval_str(r, d->a);
    if (s.json) {
      rd_json_string(r, o, d, ind, op, d->action == PL_NOOP ? &s : NULL, &s);
      return;
    }
    if (!s.multiline) {
      put_simple(r, o, &s);
      forces(r, o, d->replace, op);
      return;
    }
    uint32_t n;
    Line *l = split_lines(r, s.s, s.n, &n);
    for (uint32_t i = 0; i < n; i++)
      here_line(r, &h, PL_NOOP, &l[i]);
    break;
  }
  case PL_DELETE: {
    EStr s = eval_str(r, d->b);
    if (s.null) {
      put_simple(r, o, &s);
      forces(r, o, d->replace, op);
      return;
    }
    if (s.json) {
      rd_json_string(r, o, d, ind, op, &s, NULL);
      return;
    }
    if (!s.multiline) {
      put_simple(r, o, &s);
      null_suffix(r, o, d->action, op);
      forces(r, o, d->replace, op);
      return;
    }
    uint32_t n;
    Line *l = split_lines(r, s.s, s.n, &n);
    for (uint32_t i = 0; i < n; i++)
      here_line(r, &h, PL_NOOP, &l[i]);
    break;
  }
  default: {
    EStr bs = eval_str(r, d->b), as = eval_str(r, d->a);
    if (bs.json && as.json) {
      rd_json_string(r, o, d, ind, op, &bs, &as);
      return;
    }
    if (bs.json || as.json) {
      /* TypeChange(delete before, create after) */
      Diff *x = render_diff_new(r, DK_PRIM, PL_DELETE, false);
      x->b = d->b, x->ptype = TY_STRING;
      Diff *y = render_diff_new(r, DK_PRIM, PL_CREATE, false);
      y->a = d->a, y->ptype = TY_STRING;
      Diff *t = render_diff_new(r, DK_TYPECHG, d->action, d->replace);
      t->inner = x, t->other = y;
      render_rd(r, o, t, ind, op);
      return;
    }
    if (!bs.multiline && !as.multiline) {
      put_simple(r, o, &bs);
      buf_putc(o, ' ');
      render_col(r, o, "[yellow]->[reset]");
      buf_putc(o, ' ');
      put_simple(r, o, &as);
      forces(r, o, d->replace, op);
      return;
    }
    if (bs.null || as.null) {
      /* Go would split "null"; draw it as one line each. */
      static const char nul[] = "null";
      if (bs.null)
        bs.s = nul, bs.n = 4;
      if (as.null)
        as.s = nul, as.n = 4;
    }
    uint32_t nb, na;
    h.bl = split_lines(r, bs.s, bs.n, &nb);
    h.al = split_lines(r, as.s, as.n, &na);
    h.nb = nb, h.na = na;
    render_process_slice(r, h.bl, nb, h.al, na, eq_lines, NULL, NULL,
                         here_cb, &h);
    break;
  }
  }
  buf_puts(o, "<<-EOT");
  forces(r, o, d->replace, op);
  buf_putc(o, '\n');
  buf_puts(o, buf_str(&lines));
  buf_putc(o, '\n');
  render_indent_to(o, ind);
  sym(r, o, PL_NOOP, op);
  buf_puts(o, "EOT");
  null_suffix(r, o, d->action, op);
}

static void rd_prim(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  if (d->ptype == TY_STRING) {
    rd_string(r, o, d, ind, op);
    return;
  }
  switch (d->action) {
  case PL_CREATE:
    put_prim_value(r, o, d->a, d->ptype);
    forces(r, o, d->replace, op);
    break;
  case PL_DELETE:
    put_prim_value(r, o, d->b, d->ptype);
    null_suffix(r, o, d->action, op);
    forces(r, o, d->replace, op);
    break;
  case PL_NOOP:
    put_prim_value(r, o, d->b, d->ptype);
    forces(r, o, d->replace, op);
    break;
  default:
    put_prim_value(r, o, d->b, d->ptype);
    buf_putc(o, ' ');
    render_col(r, o, "[yellow]->[reset]");
    buf_putc(o, ' ');
    put_prim_value(r, o, d->a, d->ptype);
    forces(r, o, d->replace, op);
    break;
  }
}

static bool important(const char *k)
{
  return !strcmp(k, "id") || !strcmp(k, "name") || !strcmp(k, "tags");
}

/* One "name = value" line of an object or block. */
static void attr_line(const R *r, Buf *o, const Diff *x, const char *shown,
                      size_t width, int ind, ROpts op)
{
  warnings(r, o, x, ind + 1);
  render_indent_to(o, ind + 1);
  sym(r, o, x->action, op);
  render_put_padded(o, shown, width);
  buf_puts(o, " = ");
  render_rd(r, o, x, ind + 1, op);
  buf_putc(o, '\n');
}

static void rd_object(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  if (d->n == 0) {
    buf_puts(o, "{}");
    null_suffix(r, o, d->action, op);
    forces(r, o, d->replace, op);
    return;
  }
  ROpts ao = clone_opts(op);
  ao.no_null_suffix = !d->nested;
  const char **shown = ARENA_NEW(r->a, const char *, d->n);
  size_t w = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    shown[i] = render_attr_name(r, d->keys[i]);
    if (strlen(shown[i]) > w)
      w = strlen(shown[i]);
  }
  buf_putc(o, '{');
  forces(r, o, d->replace, op);
  buf_putc(o, '\n');
  uint32_t hidden = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    const Diff *x = d->el[i];
    if (important(d->keys[i])) {
      ROpts io = clone_opts(ao);
      io.show_unchanged = true;
      attr_line(r, o, x, shown[i], w, ind, io);
      continue;
    }
    if (x->action == PL_NOOP && !op.show_unchanged) {
      hidden++;
      continue;
    }
    attr_line(r, o, x, shown[i], w, ind, ao);
  }
  unchanged(r, o, ind, op, "attribute", hidden);
  close_coll(r, o, d, ind, op, '}');
}

static void rd_map(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  bool self = d->replace && !d->nested;
  bool kids = d->replace && d->nested;
  if (d->n == 0) {
    buf_puts(o, "{}");
    null_suffix(r, o, d->action, op);
    forces(r, o, self, op);
    return;
  }
  const char **shown = ARENA_NEW(r->a, const char *, d->n);
  size_t w = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    shown[i] = render_quoted(r, d->keys[i], strlen(d->keys[i]));
    if (strlen(shown[i]) > w)
      w = strlen(shown[i]);
  }
  ROpts eo = clone_opts(op);
  eo.no_null_suffix = d->action == PL_DELETE || d->nested;
  eo.force_replace = kids;
  buf_putc(o, '{');
  forces(r, o, self, op);
  buf_putc(o, '\n');
  uint32_t hidden = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    const Diff *x = d->el[i];
    if (x->action == PL_NOOP && !op.show_unchanged) {
      hidden++;
      continue;
    }
    warnings(r, o, x, ind + 1);
    render_indent_to(o, ind + 1);
    sym(r, o, x->action, eo);
    if (!d->nested)
      render_put_padded(o, shown[i], w);
    else
      buf_puts(o, shown[i]);
    buf_puts(o, " = ");
    render_rd(r, o, x, ind + 1, eo);
    if (x->kind == DK_OBJECT)
      buf_putc(o, ',');
    buf_putc(o, '\n');
  }
  unchanged(r, o, ind, op, "element", hidden);
  close_coll(r, o, d, ind, op, '}');
}

static void elem_line(const R *r, Buf *o, const Diff *x, int ind, ROpts op)
{
  warnings(r, o, x, ind + 1);
  render_indent_to(o, ind + 1);
  sym(r, o, x->action, op);
  render_rd(r, o, x, ind + 1, op);
  buf_puts(o, ",\n");
}

static void rd_list(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  if (d->n == 0) {
    buf_puts(o, "[]");
    null_suffix(r, o, d->action, op);
    forces(r, o, d->replace, op);
    return;
  }
  ROpts eo = clone_opts(op);
  eo.no_null_suffix = true;
  ROpts uo = clone_opts(op);
  uo.show_unchanged = true;
  uint32_t un_start = 0, un_n = 0;  /* pending run of unchanged elements */
  bool render_next = false;
  buf_putc(o, '[');
  forces(r, o, d->replace, op);
  buf_putc(o, '\n');
  for (uint32_t i = 0; i < d->n; i++) {
    const Diff *x = d->el[i];
    if (x->action == PL_NOOP && !render_next && !op.show_unchanged) {
      if (un_n == 0)
        un_start = i;
      un_n++;
      continue;
    }
    render_next = false;
    ROpts use = eo;
    if (d->context) {
      if (un_n > 1)
        unchanged(r, o, ind, eo, "element", un_n - 1);
      if (un_n > 0) {
        const Diff *last = d->el[un_start + un_n - 1];
        render_indent_to(o, ind + 1);
        sym(r, o, last->action, uo);
        render_rd(r, o, last, ind + 1, uo);
        buf_puts(o, ",\n");
      }
      un_n = 0;
      if (x->action == PL_NOOP)
        use = uo;
      else
        render_next = true;
    }
    elem_line(r, o, x, ind, use);
  }
  unchanged(r, o, ind, op, "element", un_n);
  close_coll(r, o, d, ind, op, ']');
}

static void rd_set(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  bool self = d->replace && !d->nested;
  bool kids = d->replace && d->nested;
  if (d->n == 0) {
    buf_puts(o, "[]");
    null_suffix(r, o, d->action, op);
    forces(r, o, self, op);
    return;
  }
  ROpts eo = clone_opts(op);
  eo.no_null_suffix = true;
  eo.force_replace = kids;
  buf_putc(o, '[');
  forces(r, o, self, op);
  buf_putc(o, '\n');
  uint32_t hidden = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    const Diff *x = d->el[i];
    if (x->action == PL_NOOP && !op.show_unchanged) {
      hidden++;
      continue;
    }
    elem_line(r, o, x, ind, eo);
  }
  unchanged(r, o, ind, op, "element", hidden);
  close_coll(r, o, d, ind, op, ']');
}

static void rd_sensblock(const R *r, Buf *o, const Diff *d, int ind,
                         ROpts op)
{
  buf_putc(o, '{');
  forces(r, o, d->replace, op);
  buf_putc(o, '\n');
  for (int i = 0; i < 2; i++) {
    render_indent_to(o, ind);
    sym(r, o, PL_NOOP, op);
    buf_puts(o, i == 0 ? "  # At least one attribute in this block is (or "
                         "was) sensitive,\n"
                       : "  # so its contents will not be displayed.\n");
  }
  render_indent_to(o, ind);
  sym(r, o, PL_NOOP, op);
  buf_putc(o, '}');
}

static void rd_block(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  if (d->n == 0 && d->ngroups == 0) {
    buf_puts(o, "{}");
    forces(r, o, d->replace, op);
    return;
  }
  size_t w = 0;
  const char **shown = ARENA_NEW(r->a, const char *, d->n + 1);
  for (uint32_t i = 0; i < d->n; i++) {
    shown[i] = render_attr_name(r, d->keys[i]);
    if (strlen(shown[i]) > w)
      w = strlen(shown[i]);
  }
  ROpts io = clone_opts(op);
  io.show_unchanged = true;
  ROpts ao = clone_opts(op);
  buf_putc(o, '{');
  forces(r, o, d->replace, op);
  buf_putc(o, '\n');
  uint32_t hidden = 0, hidden_blocks = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    const Diff *x = d->el[i];
    if (important(d->keys[i])) {
      attr_line(r, o, x, d->keys[i], w, ind, io);
      continue;
    }
    if (x->action == PL_NOOP && !op.show_unchanged) {
      hidden++;
      continue;
    }
    attr_line(r, o, x, shown[i], w, ind, ao);
  }
  unchanged(r, o, ind, op, "attribute", hidden);
  for (uint32_t g = 0; g < d->ngroups; g++) {
    const BGroup *gr = &d->groups[g];
    bool found = false;
    uint32_t total = gr->n;
    bool unknown_first = gr->unknown && gr->nest != PROV_NEST_SINGLE &&
                         gr->nest != PROV_NEST_GROUP;
    for (uint32_t k = 0; k < total + (unknown_first ? 1 : 0); k++) {
      const Diff *x;
      const char *mkey = NULL;
      if (unknown_first && k == 0) {
        Diff *u = render_diff_new(r, DK_UNKNOWN, d->action, false);
        x = u;
      } else {
        uint32_t idx = k - (unknown_first ? 1 : 0);
        x = gr->el[idx];
        if (gr->nest == PROV_NEST_MAP)
          mkey = gr->keys[idx];
      }
      bool cs = x->action == PL_CREATE && gr->asens;
      bool ds = x->action == PL_DELETE && gr->bsens;
      bool ms = (x->action == PL_UPDATE || x->action == PL_NOOP) &&
                (gr->asens || gr->bsens);
      if (cs || ds || ms) {
        PlAction act = x->action;
        if (act == PL_NOOP && gr->bsens != gr->asens)
          act = PL_UPDATE;
        Diff *s = render_diff_new(r, DK_SENSBLOCK, act, x->replace);
        s->inner = (Diff *)x;
        s->bsens = gr->bsens;
        s->asens = gr->asens;
        x = s;
      }
      if (x->action == PL_NOOP && !op.show_unchanged) {
        hidden_blocks++;
        continue;
      }
      if (!found && d->n > 0) {
        buf_putc(o, '\n');
        found = true;
      }
      ROpts bo = clone_opts(op);
      bo.force_replace = gr->replace;
      warnings(r, o, x, ind + 1);
      render_indent_to(o, ind + 1);
      sym(r, o, x->action, bo);
      buf_puts(o, render_attr_name(r, gr->name));
      if (mkey) {
        buf_putc(o, ' ');
        buf_strconv_quote(o, mkey, strlen(mkey));
      }
      buf_putc(o, ' ');
      render_rd(r, o, x, ind + 1, bo);
      buf_putc(o, '\n');
    }
  }
  if (hidden_blocks) {
    buf_putc(o, '\n');
    unchanged(r, o, ind, op, "block", hidden_blocks);
  }
  render_indent_to(o, ind);
  sym(r, o, PL_NOOP, op);
  buf_putc(o, '}');
}

void render_rd(const R *r, Buf *o, const Diff *d, int ind, ROpts op)
{
  switch (d->kind) {
  case DK_PRIM:
    rd_prim(r, o, d, ind, op);
    return;
  case DK_UNKNOWN:
    if (d->action == PL_CREATE || !d->inner) {
      buf_puts(o, "(known after apply)");
      forces(r, o, d->replace, op);
      return;
    } else {
      ROpts bo = clone_opts(op);
      bo.no_null_suffix = true;
      if (d->replace)
        bo.forbid_replace = true;
      render_rd(r, o, d->inner, ind, bo);
      buf_puts(o, " -> (known after apply)");
      forces(r, o, d->replace, op);
    }
    return;
  case DK_SENS:
    buf_puts(o, "(sensitive value)");
    null_suffix(r, o, d->action, op);
    forces(r, o, d->replace, op);
    return;
  case DK_SENSBLOCK:
    rd_sensblock(r, o, d, ind, op);
    return;
  case DK_WO:
    buf_puts(o, d->bsens ? "(sensitive, write-only attribute)"
                         : "(write-only attribute)");
    null_suffix(r, o, d->action, op);
    forces(r, o, d->replace, op);
    return;
  case DK_TYPECHG: {
    ROpts t = op;
    t.no_null_suffix = true;
    render_rd(r, o, d->inner, ind, t);
    buf_putc(o, ' ');
    render_col(r, o, "[yellow]->[reset]");
    buf_putc(o, ' ');
    render_rd(r, o, d->other, ind, t);
    return;
  }
  case DK_LIST:
    rd_list(r, o, d, ind, op);
    return;
  case DK_SET:
    rd_set(r, o, d, ind, op);
    return;
  case DK_MAP:
    rd_map(r, o, d, ind, op);
    return;
  case DK_OBJECT:
    rd_object(r, o, d, ind, op);
    return;
  case DK_BLOCK:
    rd_block(r, o, d, ind, op);
    return;
  }
}
