/*
** render_diff: the differ, the first of the renderer's two passes
** (render_priv.h): the replace-path matcher, the change view (jsonformat's
** structured.Change), JSON-ish equality, the diff tree's constructors,
** list matching by LCS (collections.ProcessSlice), and the cd_* functions
** that turn a before/after pair plus schema into a tree of Diff nodes, as
** jsonformat's differ does from the JSON plan.
*/
#include "render_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

/* ---- Replace-path matcher (attribute_path.PathMatcher, no propagate) -- */

static bool m_matches(Matcher m)
{
  for (uint32_t i = 0; i < m.n; i++)
    if (m.p[i].n == 0)
      return true;
  return false;
}

static Matcher m_key(const R *r, Matcher m, const char *key)
{
  Matcher c = {NULL, 0};
  if (!m.n)
    return c;
  ValPath *v = ARENA_NEW(r->a, ValPath, m.n);
  for (uint32_t i = 0; i < m.n; i++) {
    const ValPath *p = &m.p[i];
    if (p->n == 0)
      continue;
    const PathStep *s = &p->steps[0];
    if ((s->kind == PS_ATTR || s->kind == PS_KEY) && s->name &&
        !strcmp(s->name, key)) {
      v[c.n].steps = p->steps + 1;
      v[c.n].n = p->n - 1;
      c.n++;
    }
  }
  c.p = v;
  return c;
}

static Matcher m_index(const R *r, Matcher m, int64_t ix)
{
  Matcher c = {NULL, 0};
  if (!m.n)
    return c;
  ValPath *v = ARENA_NEW(r->a, ValPath, m.n);
  for (uint32_t i = 0; i < m.n; i++) {
    const ValPath *p = &m.p[i];
    if (p->n == 0)
      continue;
    const PathStep *s = &p->steps[0];
    bool hit = false;
    if (s->kind == PS_INDEX)
      hit = s->index == ix;
    else if (s->kind == PS_KEY && s->name) {
      char *end;
      long long k = strtoll(s->name, &end, 10);
      hit = *s->name && !*end && k == ix;
    }
    if (hit) {
      v[c.n].steps = p->steps + 1;
      v[c.n].n = p->n - 1;
      c.n++;
    }
  }
  c.p = v;
  return c;
}

/* ---- The change view (structured.Change) ------------------------------- */

static bool v_nil(Value v)
{
  return !v.type || val_is_null(v);
}
static bool c_bnil(const Chg *c) { return v_nil(c->b); }
static bool c_anil(const Chg *c)
{
  return v_nil(c->a) || val_is_unknown(c->a);
}
/* A known, non-null value usable for its contents. */
static bool v_live(Value v)
{
  return v.type && !val_is_null(v) && !val_is_unknown(v);
}

Chg render_chg_make(Value b, Value a, Matcher rp)
{
  Chg c;
  memset(&c, 0, sizeof c);
  c.b = b;
  c.a = a;
  c.bsens = b.type && val_is_sensitive(b);
  c.asens = a.type && val_is_sensitive(a);
  c.unknown = a.type && val_is_unknown(a);
  c.rp = rp;
  return c;
}

/* Member `key` of an object or map value; false when absent. */
static bool v_member(Value v, const char *key, Value *out)
{
  if (!v_live(v))
    return false;
  if (v.type->kind == TY_OBJECT) {
    int i = ty_attr_index(v.type, key);
    if (i < 0)
      return false;
    *out = v.u.elems[i];
    return true;
  }
  if (v.type->kind == TY_MAP) {
    bool f;
    Value x = val_map_get(v, key, strlen(key), &f);
    if (f)
      *out = x;
    return f;
  }
  return false;
}

static bool v_is_seq(Value v)
{
  return v_live(v) && (v.type->kind == TY_LIST || v.type->kind == TY_SET ||
                       v.type->kind == TY_TUPLE);
}
static bool v_is_map(Value v)
{
  return v_live(v) && (v.type->kind == TY_MAP || v.type->kind == TY_OBJECT);
}

/* ChangeMap.GetChild */
static Chg c_member(const R *r, const Chg *p, const char *key)
{
  Chg c;
  memset(&c, 0, sizeof c);
  Value x;
  if (v_member(p->b, key, &x)) {
    c.b = x;
    c.bexp = true;
    c.bsens = val_is_sensitive(x);
  }
  if (!p->unknown && v_member(p->a, key, &x)) {
    c.a = x;
    c.aexp = true;
    c.asens = val_is_sensitive(x);
    c.unknown = val_is_unknown(x);
    if (c.unknown) /* unknown members are absent from the JSON after */
      c.aexp = false;
  }
  if (p->child_unknown)
    c.unknown = true;
  c.rp = m_key(r, p->rp, key);
  c.nonlegacy = p->nonlegacy;
  return c;
}

static uint32_t v_len(Value v)
{
  return v_is_seq(v) ? v.len : 0;
}

/* ChangeSlice.GetChild (NonLegacySchema is not carried, as in Terraform) */
static Chg c_elem(const R *r, const Chg *p, int64_t bi, int64_t ai)
{
  Chg c;
  memset(&c, 0, sizeof c);
  bool bin = v_is_seq(p->b) && bi >= 0 && bi < (int64_t)p->b.len;
  bool ain = !p->unknown && v_is_seq(p->a) && ai >= 0 &&
             ai < (int64_t)p->a.len;
  if (bin) {
    c.b = p->b.u.elems[bi];
    c.bexp = true;
    c.bsens = val_is_sensitive(c.b);
  }
  if (ain) {
    c.a = p->a.u.elems[ai];
    c.aexp = true;
    c.asens = val_is_sensitive(c.a);
    c.unknown = val_is_unknown(c.a);
  }
  c.rp = m_index(r, p->rp, bin ? bi : ai);
  return c;
}

Chg render_chg_as_noop(Chg c)
{
  c.a = c.b;
  c.aexp = c.bexp;
  c.unknown = false;
  c.asens = c.bsens;
  c.child_unknown = false;
  return c;
}

static Chg c_as_delete(Chg c)
{
  c.a.type = NULL;
  c.aexp = false;
  c.unknown = false;
  c.asens = false;
  c.child_unknown = false;
  return c;
}

static Chg c_as_create(Chg c)
{
  c.b.type = NULL;
  c.bexp = false;
  c.bsens = false;
  return c;
}

/* ---- JSON-ish equality (reflect.DeepEqual of the JSON plan values) ---- */

static bool num_text_eq(const R *r, Value x, Value y)
{
  ArenaMark m = arena_mark(r->a);
  Buf a, b;
  buf_init(&a, r->a);
  buf_init(&b, r->a);
  val_num_format(&a, x);
  val_num_format(&b, y);
  bool eq = a.len == b.len && !memcmp(buf_str(&a), buf_str(&b), a.len);
  arena_rewind(r->a, m);
  return eq;
}

/* An unknown value is JSON null in arrays and absent in objects. */
static bool jeq(const R *r, Value x, Value y, int depth)
{
  bool xn = v_nil(x) || val_is_unknown(x);
  bool yn = v_nil(y) || val_is_unknown(y);
  if (xn || yn)
    return xn && yn;
  if (depth > 200)
    return false;
  TypeKind xk = x.type->kind, yk = y.type->kind;
  bool xo = xk == TY_OBJECT || xk == TY_MAP;
  bool yo = yk == TY_OBJECT || yk == TY_MAP;
  bool xa = xk == TY_LIST || xk == TY_SET || xk == TY_TUPLE;
  bool ya = yk == TY_LIST || yk == TY_SET || yk == TY_TUPLE;
  if (xa || ya) {
    if (!(xa && ya) || x.len != y.len)
      return false;
    for (uint32_t i = 0; i < x.len; i++)
      if (!jeq(r, x.u.elems[i], y.u.elems[i], depth + 1))
        return false;
    return true;
  }
  if (xo || yo) {
    if (!(xo && yo))
      return false;
    /* Compare present (non-unknown) members both ways. */
    for (int pass = 0; pass < 2; pass++) {
      Value s = pass ? y : x, t = pass ? x : y;
      uint32_t n = s.type->kind == TY_OBJECT ? s.type->n : s.len;
      for (uint32_t i = 0; i < n; i++) {
        const char *k;
        Value sv;
        if (s.type->kind == TY_OBJECT)
          k = s.type->names[i], sv = s.u.elems[i];
        else
          k = s.u.entries[i].key, sv = s.u.entries[i].val;
        if (val_is_unknown(sv))
          continue;
        Value tv;
        if (!v_member(t, k, &tv) || val_is_unknown(tv))
          return false;
        if (pass == 0 && !jeq(r, sv, tv, depth + 1))
          return false;
      }
    }
    return true;
  }
  if (xk != yk)
    return false;
  switch (xk) {
  case TY_STRING:
    return x.len == y.len && !memcmp(x.u.s, y.u.s, x.len);
  case TY_BOOL:
    return x.u.b == y.u.b;
  case TY_NUMBER:
    return num_text_eq(r, x, y);
  default:
    return false;
  }
}

/* ---- Diff tree ---------------------------------------------------------- */

Diff *render_diff_new(const R *r, DKind k, PlAction act, bool replace)
{
  Diff *d = ARENA_NEW(r->a, Diff, 1);
  d->kind = k;
  d->action = act;
  d->replace = replace;
  return d;
}

/* collections.CompareActions */
static PlAction cmp_act(PlAction cur, PlAction next)
{
  if (next == PL_NOOP)
    return cur;
  return cur != next ? PL_UPDATE : cur;
}

/* GetDefaultActionForIteration */
static PlAction def_act(const Chg *c)
{
  bool bn = c_bnil(c), an = c_anil(c);
  if (bn && an)
    return PL_NOOP;
  if (bn)
    return PL_CREATE;
  if (an)
    return PL_DELETE;
  return PL_NOOP;
}

/* CalculateAction */
static PlAction calc_act(const R *r, const Chg *c)
{
  bool bn = c_bnil(c), an = c_anil(c);
  if (bn && !c->bexp && (!an || c->aexp))
    return PL_CREATE;
  if (an && !c->aexp && (!bn || c->bexp))
    return PL_DELETE;
  Value a = c->a;
  if (val_is_unknown(a))
    a.type = NULL;
  if (jeq(r, c->b, a, 0) && c->aexp == c->bexp && c->asens == c->bsens)
    return PL_NOOP;
  return PL_UPDATE;
}

/* Dynamic array of diff pointers in the scratch arena. */
typedef struct DVec {
  Diff **v;
  const char **k;
  uint32_t n, cap;
} DVec;

static void dv_push(const R *r, DVec *d, Diff *x, const char *key)
{
  if (d->n == d->cap) {
    uint32_t nc = d->cap ? d->cap * 2 : 8;
    d->v = arena_grow(r->a, d->v, sizeof(Diff *), _Alignof(Diff *), d->cap, nc);
    d->k = arena_grow(r->a, d->k, sizeof(char *), _Alignof(char *), d->cap, nc);
    d->cap = nc;
  }
  d->v[d->n] = x;
  d->k[d->n] = key;
  d->n++;
}

typedef struct KD {
  const char *k;
  Diff *d;
} KD;

static int cmp_kd(const void *x, const void *y)
{
  return strcmp(((const KD *)x)->k, ((const KD *)y)->k);
}

/* Sorts a keyed vector by key (renderers print members in name order). */
static void dv_sort(const R *r, DVec *d)
{
  KD *t = ARENA_NEW(r->a, KD, d->n + 1);
  for (uint32_t i = 0; i < d->n; i++)
    t[i].k = d->k[i], t[i].d = d->v[i];
  qsort(t, d->n, sizeof *t, cmp_kd);
  for (uint32_t i = 0; i < d->n; i++)
    d->k[i] = t[i].k, d->v[i] = t[i].d;
}

/* ---- Slices: LCS and ProcessSlice -------------------------------------- */

/* The largest LCS table built; bigger lists match common prefix and suffix
** only, so the work stays linear. */
#define LCS_MAX_CELLS ((size_t)1 << 22)

/* Marks in inb/ina the positions of one longest common subsequence, with
** objchange.LongestCommonSubsequence's tie-breaking. */
static void lcs_mark(const R *r, const void *xs, uint32_t nx, const void *ys,
                     uint32_t ny, EqFn eq, uint8_t *inb, uint8_t *ina)
{
  uint32_t lo = 0, hx = nx, hy = ny;
  if (nx == 0 || ny == 0)
    return;
  if ((size_t)nx * ny > LCS_MAX_CELLS) {
    while (lo < nx && lo < ny && eq(r, xs, lo, ys, lo)) {
      inb[lo] = ina[lo] = 1;
      lo++;
    }
    while (hx > lo && hy > lo && eq(r, xs, hx - 1, ys, hy - 1)) {
      inb[hx - 1] = ina[hy - 1] = 1;
      hx--, hy--;
    }
    return;
  }
  size_t w = nx;
  uint32_t *c = ARENA_NEW(r->a, uint32_t, (size_t)nx * ny);
  uint8_t *e = ARENA_NEW(r->a, uint8_t, (size_t)nx * ny);
  for (uint32_t y = 0; y < ny; y++) {
    for (uint32_t x = 0; x < nx; x++) {
      bool q = eq(r, xs, x, ys, y);
      e[w * y + x] = q;
      if (q) {
        uint32_t prev = (x > 0 && y > 0) ? c[w * (y - 1) + (x - 1)] : 0;
        c[w * y + x] = prev + 1;
      } else {
        uint32_t px = x > 0 ? c[w * y + (x - 1)] : 0;
        uint32_t py = y > 0 ? c[w * (y - 1) + x] : 0;
        c[w * y + x] = px > py ? px : py;
      }
    }
  }
  int64_t x = nx - 1, y = ny - 1;
  while (x >= 0 && y >= 0) {
    if (e[w * (size_t)y + (size_t)x]) {
      inb[x] = ina[y] = 1;
      x--, y--;
      continue;
    }
    uint32_t xl = x > 0 ? c[w * (size_t)y + (size_t)(x - 1)] : 0;
    uint32_t yl = y > 0 ? c[w * (size_t)(y - 1) + (size_t)x] : 0;
    if (xl > yl)
      x--;
    else
      y--;
  }
}

/* collections.ProcessSlice, walking the LCS by position. */
void render_process_slice(const R *r, const void *xs, uint32_t nx,
                          const void *ys, uint32_t ny, EqFn eq,
                          const bool *xobj, const bool *yobj, SliceFn fn,
                          void *ctx)
{
  uint8_t *kb = ARENA_NEW(r->a, uint8_t, nx + 1);
  uint8_t *ka = ARENA_NEW(r->a, uint8_t, ny + 1);
  lcs_mark(r, xs, nx, ys, ny, eq, kb, ka);
  uint32_t bi = 0, ai = 0;
  while (bi < nx || ai < ny) {
    while (bi < nx && !kb[bi]) {
      bool objd = xobj && yobj && xobj[bi] && ai < ny && yobj[ai] && !ka[ai];
      if (objd) {
        fn(r, ctx, bi, ai);
        bi++, ai++;
        continue;
      }
      fn(r, ctx, bi, ny);
      bi++;
    }
    while (ai < ny && !ka[ai]) {
      fn(r, ctx, nx, ai);
      ai++;
    }
    if (bi < nx && ai < ny) {
      fn(r, ctx, bi, ai);
      bi++, ai++;
    }
  }
}

static bool eq_vals(const R *r, const void *xs, uint32_t i, const void *ys,
                    uint32_t j)
{
  return jeq(r, ((const Value *)xs)[i], ((const Value *)ys)[j], 0);
}

/* ---- Differ ------------------------------------------------------------- */

static Diff *cd_nested(const R *r, Chg c, const ProvObjectSchema *o,
                       ProvNesting nest);

typedef Diff *(*InnerFn)(const R *r, Chg c, const void *arg, int extra);

/* CheckForSensitive: NULL when c is not sensitive at this level. */
static Diff *chk_sens(const R *r, const Chg *c, InnerFn fn, const void *arg,
                      int extra, DKind kind)
{
  if (!c->bsens && !c->asens)
    return NULL;
  Chg v = *c;
  v.bsens = v.asens = false;
  Diff *in = fn(r, v, arg, extra);
  PlAction act = in->action;
  bool null_noop = c_bnil(c) && !c->bexp && c_anil(c) && !c->aexp;
  if (act == PL_NOOP && c->bsens != c->asens && !null_noop)
    act = PL_UPDATE;
  Diff *d = render_diff_new(r, kind, act, m_matches(c->rp));
  d->inner = in;
  d->bsens = c->bsens;
  d->asens = c->asens;
  return d;
}

/* CheckForUnknown with the typed differ's renderers. */
static Diff *chk_unknown(const R *r, const Chg *c, bool child_unknown,
                         InnerFn fn, const void *arg, int extra)
{
  if (!c->unknown)
    return NULL;
  Chg cur = *c;
  cur.aexp = true;
  Diff *d = render_diff_new(r, DK_UNKNOWN, PL_NOOP, m_matches(c->rp));
  if (!c_bnil(c)) {
    Chg before = c_as_delete(cur);
    before.child_unknown = child_unknown;
    d->inner = fn(r, before, arg, extra);
  }
  d->action = calc_act(r, &cur);
  return d;
}

static Diff *fn_type(const R *r, Chg c, const void *arg, int extra)
{
  (void)extra;
  return render_cd_type(r, c, arg);
}
static Diff *fn_block(const R *r, Chg c, const void *arg, int extra)
{
  (void)extra;
  return render_cd_block(r, c, arg);
}
static Diff *fn_nested(const R *r, Chg c, const void *arg, int extra)
{
  return cd_nested(r, c, arg, (ProvNesting)extra);
}
static Diff *fn_json(const R *r, Chg c, const void *arg, int extra)
{
  (void)arg, (void)extra;
  return render_cd_json(r, c);
}

/* processSet: pairs equal elements (sorted sets: binary search), then
** before elements in order, then the unmatched after elements. */
typedef Diff *(*ElemFn)(const R *r, Chg c, const void *arg, int extra);

static void process_set(const R *r, const Chg *c, ElemFn fn, const void *arg,
                        int extra, DVec *out, PlAction *cur)
{
  uint32_t nb = v_len(c->b), na = c->unknown ? 0 : v_len(c->a);
  const Value *bv = nb ? c->b.u.elems : NULL;
  const Value *av = na ? c->a.u.elems : NULL;
  int64_t *fb = ARENA_NEW(r->a, int64_t, nb + 1);
  uint8_t *fa = ARENA_NEW(r->a, uint8_t, na + 1);
  for (uint32_t i = 0; i < nb; i++) {
    fb[i] = -1;
    /* Sets are in val_compare order: find the equal element, if any. */
    uint32_t lo = 0, hi = na;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (val_compare(av[mid], bv[i]) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (uint32_t j = lo; j < na && val_compare(av[j], bv[i]) == 0; j++) {
      if (fa[j] || val_is_unknown(av[j]))
        continue;
      if (jeq(r, bv[i], av[j], 0) &&
          val_is_sensitive(bv[i]) == val_is_sensitive(av[j])) {
        fb[i] = j;
        fa[j] = 1;
        break;
      }
    }
  }
  for (uint32_t i = 0; i < nb; i++) {
    Chg ch = c_elem(r, c, i, fb[i] >= 0 ? fb[i] : (int64_t)na);
    Diff *d = fn(r, ch, arg, extra);
    dv_push(r, out, d, NULL);
    *cur = cmp_act(*cur, d->action);
  }
  for (uint32_t j = 0; j < na; j++) {
    if (fa[j])
      continue;
    Chg ch = c_elem(r, c, nb, j);
    Diff *d = fn(r, ch, arg, extra);
    dv_push(r, out, d, NULL);
    *cur = cmp_act(*cur, d->action);
  }
}

/* Sorted union of the member names of before and after (maps, objects).
** explicit_only drops keys present only as unknown after members. */
static const char **member_keys(const R *r, const Chg *c, bool explicit_only,
                                uint32_t *n)
{
  DVec d = {0};
  Value vs[2] = {c->b, c->unknown ? (Value){0} : c->a};
  uint32_t nb = 0;
  for (int s = 0; s < 2; s++) {
    Value v = vs[s];
    if (!v_is_map(v))
      continue;
    uint32_t cnt = v.type->kind == TY_OBJECT ? v.type->n : v.len;
    for (uint32_t i = 0; i < cnt; i++) {
      const char *k = v.type->kind == TY_OBJECT ? v.type->names[i]
                                                : v.u.entries[i].key;
      Value mv = v.type->kind == TY_OBJECT ? v.u.elems[i] : v.u.entries[i].val;
      if (s == 1) {
        Value tmp;
        if (v_member(vs[0], k, &tmp))
          continue;
        if (explicit_only && val_is_unknown(mv))
          continue;
      }
      dv_push(r, &d, NULL, k);
    }
    if (s == 0)
      nb = d.n;
  }
  /* Both halves are sorted; merge them. */
  const char **out = ARENA_NEW(r->a, const char *, d.n + 1);
  uint32_t i = 0, j = nb, k = 0;
  while (i < nb || j < d.n) {
    if (j >= d.n || (i < nb && strcmp(d.k[i], d.k[j]) <= 0))
      out[k++] = d.k[i++];
    else
      out[k++] = d.k[j++];
  }
  *n = k;
  return out;
}

/* TransformMap's starting action. */
static PlAction map_start(const Chg *c)
{
  bool bm = v_is_map(c->b), am = !c->unknown && v_is_map(c->a);
  if (bm && !am)
    return PL_DELETE;
  if (!bm && am)
    return PL_CREATE;
  return PL_NOOP;
}

static PlAction slice_start(const Chg *c)
{
  bool bs = v_is_seq(c->b), as = !c->unknown && v_is_seq(c->a);
  if (bs && !as)
    return PL_DELETE;
  if (!bs && as)
    return PL_CREATE;
  return PL_NOOP;
}

typedef struct ListCtx {
  const Chg *c;
  const Type *elem;      /* typed list; NULL: JSON array */
  DVec *out;
  PlAction cur;
} ListCtx;

static void list_cb(const R *r, void *vctx, int64_t bi, int64_t ai)
{
  ListCtx *x = vctx;
  Chg ch = c_elem(r, x->c, bi, ai);
  Diff *d = x->elem ? render_cd_type(r, ch, x->elem) : render_cd_json(r, ch);
  dv_push(r, x->out, d, NULL);
  x->cur = cmp_act(x->cur, d->action);
}

static bool v_is_jobject(Value v)
{
  return v_live(v) &&
         (v.type->kind == TY_OBJECT || v.type->kind == TY_MAP);
}

/* Typed list or JSON array, with LCS. */
static Diff *cd_list(const R *r, const Chg *c, const Type *elem)
{
  DVec out = {0};
  ListCtx x = {c, elem, &out, slice_start(c)};
  uint32_t nb = v_len(c->b), na = c->unknown ? 0 : v_len(c->a);
  const Value *bv = nb ? c->b.u.elems : NULL;
  const Value *av = na ? c->a.u.elems : NULL;
  bool *bo = NULL, *ao = NULL;
  bool objs = elem ? elem->kind == TY_OBJECT : true;
  if (objs) {
    bo = ARENA_NEW(r->a, bool, nb + 1);
    ao = ARENA_NEW(r->a, bool, na + 1);
    for (uint32_t i = 0; i < nb; i++)
      bo[i] = elem ? true : v_is_jobject(bv[i]);
    for (uint32_t i = 0; i < na; i++)
      ao[i] = elem ? true : v_is_jobject(av[i]);
  }
  render_process_slice(r, bv, nb, av, na, eq_vals, bo, ao, list_cb, &x);
  Diff *d = render_diff_new(r, DK_LIST, x.cur, elem ? m_matches(c->rp) : false);
  d->el = out.v;
  d->n = out.n;
  d->context = true;
  return d;
}

static Diff *cd_prim(const R *r, const Chg *c, TypeKind k, bool replace)
{
  Diff *d = render_diff_new(r, DK_PRIM, calc_act(r, c), replace);
  d->b = c_bnil(c) ? (Value){0} : c->b;
  d->a = c_anil(c) ? (Value){0} : c->a;
  d->ptype = k;
  return d;
}

/* ComputeDiffForType */
Diff *render_cd_type(const R *r, Chg c, const Type *t)
{
  if (!c.nonlegacy) {
    /* The legacy SDK cannot tell "" from null. */
    if (v_live(c.b) && c.b.type->kind == TY_STRING && c.b.len == 0)
      c.b = val_null(&ty_string);
    if (v_live(c.a) && c.a.type->kind == TY_STRING && c.a.len == 0)
      c.a = val_null(&ty_string);
  }
  Diff *d = chk_sens(r, &c, fn_type, t, 0, DK_SENS);
  if (d)
    return d;
  d = chk_unknown(r, &c, false, fn_type, t, 0);
  if (d)
    return d;
  /* Trust the values' own kinds when they disagree with the schema. */
  const Type *vt = v_live(c.b) ? c.b.type : v_live(c.a) ? c.a.type : NULL;
  if (!t || t->kind == TY_DYNAMIC || (vt && vt->kind != t->kind &&
                                      !(ty_is_collection(vt) &&
                                        ty_is_collection(t))))
    return render_cd_json(r, c);
  bool rep = m_matches(c.rp);
  switch (t->kind) {
  case TY_STRING:
  case TY_NUMBER:
  case TY_BOOL:
    return cd_prim(r, &c, t->kind, rep);
  case TY_OBJECT: {
    DVec out = {0};
    PlAction cur = def_act(&c);
    for (uint32_t i = 0; i < t->n; i++) {
      Chg ch = c_member(r, &c, t->names[i]);
      ch.bexp = ch.aexp = false;
      Diff *x = render_cd_type(r, ch, t->types[i]);
      if (x->action == PL_NOOP && c_bnil(&ch) && c_anil(&ch))
        continue;
      dv_push(r, &out, x, t->names[i]);
      cur = cmp_act(cur, x->action);
    }
    d = render_diff_new(r, DK_OBJECT, cur, rep);
    d->el = out.v, d->keys = out.k, d->n = out.n;
    return d;
  }
  case TY_MAP: {
    DVec out = {0};
    PlAction cur = map_start(&c);
    uint32_t nk;
    const char **keys = member_keys(r, &c, false, &nk);
    for (uint32_t i = 0; i < nk; i++) {
      Chg ch = c_member(r, &c, keys[i]);
      Diff *x = render_cd_type(r, ch, t->elem);
      dv_push(r, &out, x, keys[i]);
      cur = cmp_act(cur, x->action);
    }
    d = render_diff_new(r, DK_MAP, cur, rep);
    d->el = out.v, d->keys = out.k, d->n = out.n;
    return d;
  }
  case TY_LIST:
    if (vt && vt->kind != TY_LIST)
      return render_cd_json(r, c);
    return cd_list(r, &c, t->elem);
  case TY_TUPLE: {
    DVec out = {0};
    PlAction cur = def_act(&c);
    for (uint32_t i = 0; i < t->n; i++) {
      Chg ch = c_elem(r, &c, i, i);
      Diff *x = render_cd_type(r, ch, t->types[i]);
      dv_push(r, &out, x, NULL);
      cur = cmp_act(cur, x->action);
    }
    d = render_diff_new(r, DK_LIST, cur, rep);
    d->el = out.v, d->n = out.n, d->context = true;
    return d;
  }
  case TY_SET: {
    if (vt && vt->kind != TY_SET)
      return render_cd_json(r, c);
    DVec out = {0};
    PlAction cur = def_act(&c);
    process_set(r, &c, fn_type, t->elem, 0, &out, &cur);
    d = render_diff_new(r, DK_SET, cur, rep);
    d->el = out.v, d->n = out.n;
    return d;
  }
  default:
    return render_cd_json(r, c);
  }
}

/* jsondiff.Transform with RendererJsonOpts (outputs, dynamic values). */
typedef enum JT { JT_NULL, JT_BOOL, JT_NUM, JT_STR, JT_OBJ, JT_ARR } JT;

static JT jtype(Value v)
{
  if (!v_live(v))
    return JT_NULL;
  switch (v.type->kind) {
  case TY_BOOL: return JT_BOOL;
  case TY_NUMBER: return JT_NUM;
  case TY_STRING: return JT_STR;
  case TY_OBJECT:
  case TY_MAP: return JT_OBJ;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE: return JT_ARR;
  default: return JT_NULL;
  }
}

static Diff *json_update(const R *r, Chg c, JT t)
{
  switch (t) {
  case JT_NULL:
  case JT_BOOL:
  case JT_NUM:
  case JT_STR: {
    bool bm = c_bnil(&c) && !c.bexp, am = c_anil(&c) && !c.aexp;
    PlAction act;
    Value a = c.a;
    if (val_is_unknown(a))
      a.type = NULL;
    if (bm && !am)
      act = PL_CREATE;
    else if (!bm && am)
      act = PL_DELETE;
    else if (jeq(r, c.b, a, 0))
      act = PL_NOOP;
    else
      act = PL_UPDATE;
    Diff *d = render_diff_new(r, DK_PRIM, act, false);
    d->b = c_bnil(&c) ? (Value){0} : c.b;
    d->a = c_anil(&c) ? (Value){0} : c.a;
    d->ptype = t == JT_BOOL ? TY_BOOL : t == JT_NUM ? TY_NUMBER
               : t == JT_STR ? TY_STRING : TY_DYNAMIC;
    return d;
  }
  case JT_OBJ: {
    DVec out = {0};
    PlAction cur = map_start(&c);
    uint32_t nk;
    const char **keys = member_keys(r, &c, false, &nk);
    for (uint32_t i = 0; i < nk; i++) {
      Chg ch = c_member(r, &c, keys[i]);
      Diff *x = render_cd_json(r, ch);
      dv_push(r, &out, x, keys[i]);
      cur = cmp_act(cur, x->action);
    }
    Diff *d = render_diff_new(r, DK_OBJECT, cur, false);
    d->el = out.v, d->keys = out.k, d->n = out.n;
    return d;
  }
  case JT_ARR:
  default:
    return cd_list(r, &c, NULL);
  }
}

Diff *render_cd_json(const R *r, Chg c)
{
  Diff *d = chk_sens(r, &c, fn_json, NULL, 0, DK_SENS);
  if (d)
    return d;
  if (c.unknown) {
    d = render_diff_new(r, DK_UNKNOWN, PL_CREATE, false);
    if (!c_bnil(&c)) {
      Chg cur = c;
      cur.aexp = true;
      d->inner = render_cd_json(r, c_as_delete(cur));
      d->action = PL_UPDATE;
    }
    return d;
  }
  JT bt = jtype(c.b), at = jtype(c.a);
  bool deleted = at == JT_NULL && !c.aexp;
  bool created = bt == JT_NULL && !c.bexp;
  if (bt == at || created || deleted)
    return json_update(r, c, bt == JT_NULL ? at : bt);
  d = render_diff_new(r, DK_TYPECHG, PL_UPDATE, false);
  d->inner = json_update(r, c_as_delete(c), bt);
  d->other = json_update(r, c_as_create(c), at);
  return d;
}

/* ---- Schema helpers ----------------------------------------------------- */

static bool type_has_dynamic(const Type *t)
{
  return t && ty_has_dynamic(t);
}

static bool block_nonlegacy(const ProvBlockSchema *b)
{
  for (uint32_t i = 0; i < b->nblocks; i++)
    if (b->blocks[i].nesting == PROV_NEST_MAP ||
        b->blocks[i].nesting == PROV_NEST_GROUP)
      return true;
  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *a = &b->attrs[i];
    if (a->nested)
      return true;
    const Type *t = a->type;
    if (!t)
      continue;
    if (type_has_dynamic(t) || t->kind == TY_TUPLE || t->kind == TY_OBJECT)
      return true;
    if (ty_is_collection(t) && t->elem && ty_is_collection(t->elem) &&
        t->elem->elem && !ty_is_primitive(t->elem->elem))
      return true;
  }
  return false;
}

static bool attrs_sensitive(const ProvAttrSchema *a, uint32_t n, int depth);

static bool block_contains_sensitive(const ProvBlockSchema *b, int depth)
{
  if (!b || depth > 64)
    return false;
  if (attrs_sensitive(b->attrs, b->nattrs, depth))
    return true;
  for (uint32_t i = 0; i < b->nblocks; i++)
    if (block_contains_sensitive(b->blocks[i].block, depth + 1))
      return true;
  return false;
}

static bool attrs_sensitive(const ProvAttrSchema *a, uint32_t n, int depth)
{
  for (uint32_t i = 0; i < n; i++) {
    if (a[i].flags & PROV_SENSITIVE)
      return true;
    if (a[i].nested && depth < 64 &&
        attrs_sensitive(a[i].nested->attrs, a[i].nested->nattrs, depth + 1))
      return true;
  }
  return false;
}

/* cty sets cannot hold marks: a set containing anything sensitive (by mark
** or by schema) is sensitive as a whole. */
static void hoist_set(Chg *c, bool schema_sens)
{
  if (v_is_seq(c->b) && (val_has_sensitive(c->b) ||
                         (schema_sens && c->b.len > 0)))
    c->bsens = true;
  if (!c->unknown && v_is_seq(c->a) &&
      (val_has_sensitive(c->a) || (schema_sens && c->a.len > 0)))
    c->asens = true;
}

/* Schema sensitivity of a member slot: marked whenever the slot exists. */
static void mark_schema_sens(Chg *c, const Chg *parent)
{
  if (v_live(parent->b))
    c->bsens = true;
  if (!parent->unknown && v_live(parent->a))
    c->asens = true;
}

/* computeDiffForWriteOnlyAttribute */
static Diff *cd_wo(const R *r, const Chg *blk, PlAction cur)
{
  Diff *d = render_diff_new(r, DK_WO, cur == PL_UPDATE ? PL_NOOP : cur,
                            m_matches(blk->rp));
  d->bsens = blk->bsens || blk->asens;
  return d;
}

static Diff *cd_attr(const R *r, Chg c, const ProvAttrSchema *a)
{
  if (a->nested)
    return cd_nested(r, c, a->nested, a->nested->nesting);
  return render_cd_type(r, c, a->type);
}

/* processObject for nested attribute types (NestedObject renderer). */
static Diff *cd_nested_object(const R *r, const Chg *c,
                              const ProvObjectSchema *o)
{
  DVec out = {0};
  PlAction cur = def_act(c);
  for (uint32_t i = 0; i < o->nattrs; i++) {
    const ProvAttrSchema *at = &o->attrs[i];
    if (at->flags & PROV_WRITE_ONLY)
      continue;
    Chg ch = c_member(r, c, at->name);
    if (at->flags & PROV_SENSITIVE)
      mark_schema_sens(&ch, c);
    ch.bexp = ch.aexp = false;
    Diff *x = cd_attr(r, ch, at);
    if (x->action == PL_NOOP && c_bnil(&ch) && c_anil(&ch))
      continue;
    dv_push(r, &out, x, at->name);
    cur = cmp_act(cur, x->action);
  }
  for (uint32_t i = 0; i < o->nattrs; i++) {
    const ProvAttrSchema *at = &o->attrs[i];
    if (!(at->flags & PROV_WRITE_ONLY))
      continue;
    Chg ch = c_member(r, c, at->name);
    ch.bexp = ch.aexp = false;
    dv_push(r, &out, cd_wo(r, &ch, cur), at->name);
  }
  dv_sort(r, &out);
  Diff *d = render_diff_new(r, DK_OBJECT, cur, m_matches(c->rp));
  d->el = out.v, d->keys = out.k, d->n = out.n;
  d->nested = true;
  return d;
}

static Diff *cd_nested(const R *r, Chg c, const ProvObjectSchema *o,
                       ProvNesting nest)
{
  if (nest == PROV_NEST_SET)
    hoist_set(&c, attrs_sensitive(o->attrs, o->nattrs, 0));
  Diff *d = chk_sens(r, &c, fn_nested, o, (int)nest, DK_SENS);
  if (d)
    return d;
  d = chk_unknown(r, &c, true, fn_nested, o, (int)nest);
  if (d)
    return d;
  bool rep = m_matches(c.rp);
  switch (nest) {
  case PROV_NEST_MAP: {
    DVec out = {0};
    PlAction cur = map_start(&c);
    uint32_t nk;
    const char **keys = member_keys(r, &c, true, &nk);
    for (uint32_t i = 0; i < nk; i++) {
      Chg ch = c_member(r, &c, keys[i]);
      Diff *x = cd_nested(r, ch, o, PROV_NEST_SINGLE);
      dv_push(r, &out, x, keys[i]);
      cur = cmp_act(cur, x->action);
    }
    d = render_diff_new(r, DK_MAP, cur, rep);
    d->el = out.v, d->keys = out.k, d->n = out.n, d->nested = true;
    return d;
  }
  case PROV_NEST_LIST: {
    DVec out = {0};
    PlAction cur = def_act(&c);
    uint32_t nb = v_len(c.b), na = c.unknown ? 0 : v_len(c.a);
    for (uint32_t i = 0; i < nb || i < na; i++) {
      Diff *x = cd_nested(r, c_elem(r, &c, i, i), o, PROV_NEST_SINGLE);
      dv_push(r, &out, x, NULL);
      cur = cmp_act(cur, x->action);
    }
    d = render_diff_new(r, DK_LIST, cur, rep);
    d->el = out.v, d->n = out.n;
    return d;
  }
  case PROV_NEST_SET: {
    DVec out = {0};
    PlAction cur = def_act(&c);
    process_set(r, &c, fn_nested, o, PROV_NEST_SINGLE, &out, &cur);
    d = render_diff_new(r, DK_SET, cur, rep);
    d->el = out.v, d->n = out.n, d->nested = true;
    return d;
  }
  default:
    return cd_nested_object(r, &c, o);
  }
}

static int cmp_attr_name(const void *x, const void *y)
{
  const ProvAttrSchema *const *a = x, *const *b = y;
  return strcmp((*a)->name, (*b)->name);
}
static int cmp_block_name(const void *x, const void *y)
{
  const ProvNestedBlock *const *a = x, *const *b = y;
  return strcmp((*a)->type_name, (*b)->type_name);
}

Diff *render_cd_block(const R *r, Chg c, const ProvBlockSchema *b)
{
  Diff *d = chk_sens(r, &c, fn_block, b, 0, DK_SENSBLOCK);
  if (d)
    return d;
  d = chk_unknown(r, &c, true, fn_block, b, 0);
  if (d)
    return d;
  c.nonlegacy = c.nonlegacy || block_nonlegacy(b);
  PlAction cur = def_act(&c);

  const ProvAttrSchema **as = ARENA_NEW(r->a, const ProvAttrSchema *,
                                        b->nattrs + 1);
  for (uint32_t i = 0; i < b->nattrs; i++)
    as[i] = &b->attrs[i];
  qsort(as, b->nattrs, sizeof *as, cmp_attr_name);
  DVec out = {0};
  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *at = as[i];
    if (at->flags & PROV_WRITE_ONLY)
      continue;
    Chg ch = c_member(r, &c, at->name);
    if (at->flags & PROV_SENSITIVE)
      mark_schema_sens(&ch, &c);
    ch.bexp = ch.aexp = false;
    Diff *x = cd_attr(r, ch, at);
    if (x->action == PL_NOOP && c_bnil(&ch) && c_anil(&ch))
      continue;
    dv_push(r, &out, x, at->name);
    cur = cmp_act(cur, x->action);
  }

  const ProvNestedBlock **bs = ARENA_NEW(r->a, const ProvNestedBlock *,
                                         b->nblocks + 1);
  for (uint32_t i = 0; i < b->nblocks; i++)
    bs[i] = &b->blocks[i];
  qsort(bs, b->nblocks, sizeof *bs, cmp_block_name);
  BGroup *gs = ARENA_NEW(r->a, BGroup, b->nblocks + 1);
  uint32_t ng = 0;
  for (uint32_t i = 0; i < b->nblocks; i++) {
    const ProvNestedBlock *nb = bs[i];
    Chg ch = c_member(r, &c, nb->type_name);
    if (c.child_unknown) /* childUnknown names attributes only */
      ch.unknown = false;
    if (nb->nesting == PROV_NEST_SET)
      hoist_set(&ch, block_contains_sensitive(nb->block, 0));
    BGroup g;
    memset(&g, 0, sizeof g);
    g.name = nb->type_name;
    g.nest = nb->nesting;
    g.bsens = ch.bsens;
    g.asens = ch.asens;
    g.replace = m_matches(ch.rp);
    g.unknown = ch.unknown;
    DVec el = {0};
    PlAction act = def_act(&ch);
    switch (nb->nesting) {
    case PROV_NEST_SET:
      process_set(r, &ch, fn_block, nb->block, 0, &el, &act);
      break;
    case PROV_NEST_LIST: {
      uint32_t n1 = v_len(ch.b), n2 = ch.unknown ? 0 : v_len(ch.a);
      for (uint32_t k = 0; k < n1 || k < n2; k++) {
        Diff *x = render_cd_block(r, c_elem(r, &ch, k, k), nb->block);
        dv_push(r, &el, x, NULL);
        act = cmp_act(act, x->action);
      }
      break;
    }
    case PROV_NEST_MAP: {
      act = map_start(&ch);
      uint32_t nk;
      const char **keys = member_keys(r, &ch, true, &nk);
      for (uint32_t k = 0; k < nk; k++) {
        Diff *x = render_cd_block(r, c_member(r, &ch, keys[k]), nb->block);
        dv_push(r, &el, x, keys[k]);
        act = cmp_act(act, x->action);
      }
      break;
    }
    default: {
      Diff *x = render_cd_block(r, ch, nb->block);
      dv_push(r, &el, x, NULL);
      act = x->action;
      break;
    }
    }
    if (act == PL_NOOP && c_bnil(&ch) && c_anil(&ch) && !ch.unknown)
      continue;
    g.el = el.v, g.keys = el.k, g.n = el.n;
    gs[ng++] = g;
    cur = cmp_act(cur, act);
  }

  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *at = as[i];
    if (at->flags & PROV_WRITE_ONLY) {
      dv_push(r, &out, cd_wo(r, &c, cur), at->name);
    }
  }
  dv_sort(r, &out);
  d = render_diff_new(r, DK_BLOCK, cur, m_matches(c.rp));
  d->el = out.v, d->keys = out.k, d->n = out.n;
  d->groups = gs, d->ngroups = ng;
  return d;
}

/* A schema built from a value's type, for changes without a schema: every
** attribute typed as the value says (or dynamic when the sides differ). */
const ProvBlockSchema *render_generic_schema(const R *r, Value b, Value a)
{
  const Type *tb = v_live(b) ? b.type : NULL;
  const Type *ta = v_live(a) ? a.type : NULL;
  ProvBlockSchema *s = ARENA_NEW(r->a, ProvBlockSchema, 1);
  const Type *t = ta ? ta : tb;
  if (!t || t->kind != TY_OBJECT)
    return s;
  ProvAttrSchema *as = ARENA_NEW(r->a, ProvAttrSchema, t->n + 1);
  uint32_t n = 0;
  for (uint32_t i = 0; i < t->n; i++) {
    as[n].name = t->names[i];
    as[n].type = t->types[i];
    as[n].flags = PROV_OPTIONAL;
    if (ta && tb) {
      int k = ty_attr_index(tb, t->names[i]);
      if (k < 0 || !ty_equal(tb->types[k], t->types[i]))
        as[n].type = &ty_dynamic;
    }
    n++;
  }
  if (tb && ta && tb->kind == TY_OBJECT) {
    /* Attributes only in the before object. */
    ProvAttrSchema *more = ARENA_NEW(r->a, ProvAttrSchema, n + tb->n + 1);
    memcpy(more, as, n * sizeof *as);
    for (uint32_t i = 0; i < tb->n; i++) {
      if (ty_attr_index(ta, tb->names[i]) >= 0)
        continue;
      more[n].name = tb->names[i];
      more[n].type = &ty_dynamic;
      more[n].flags = PROV_OPTIONAL;
      n++;
    }
    as = more;
  }
  s->attrs = as;
  s->nattrs = n;
  return s;
}
