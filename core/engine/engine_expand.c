/*
** engine_expand: expansion.  Evaluates count/for_each of resources and
** module calls into instances and correlates them with the objects of
** the prior state (current and deposed), in key order.
*/
#include <string.h>

#include "base/convert.h"
#include "engine_priv.h"

Inst *eng_new_insts(Arena *a, uint32_t n)
{
  return ARENA_NEW(a, Inst, n ? n : 1);
}

/* The instance keys count/for_each give (one NOKEY instance when both are
** NULL), in key order, with Terraform's errors. */
bool eng_expand_keys(EvalCtx *ctx, const HclExpr *count,
                     const HclExpr *for_each, Arena *a, Diags *d,
                     StKey **keys_out, Rep **reps_out, uint32_t *n_out)
{
  return eng_expand_keys_in(ctx, count, for_each, a, a, d, keys_out,
                            reps_out, n_out);
}

bool eng_expand_keys_in(EvalCtx *ctx, const HclExpr *count,
                        const HclExpr *for_each, Arena *a, Arena *ta,
                        Diags *d, StKey **keys_out, Rep **reps_out,
                        uint32_t *n_out)
{
  StKey *keys = NULL;
  Rep *reps = NULL;
  uint32_t nin = 0;
  if (count) {
    Value v;
    if (!eval_expr(ctx, count, &v))
      return false;
    const SrcRange *rg = &count->range;
    if (val_is_unknown(v)) {
      diag_error(d, rg, "Invalid count argument",
                 "The \"count\" value depends on resource attributes that "
                 "cannot be determined until apply, so cairn cannot predict "
                 "how many instances will be created. To work around this, "
                 "use the -target argument to first apply only the resources "
                 "that the count depends on.");
      return false;
    }
    if (val_marks_deep(v) & VF_EPHEMERAL) {
      diag_error(d, rg, "Invalid count argument",
                 "The given \"count\" value is derived from an ephemeral "
                 "value, which means that cairn cannot persist it between "
                 "plan/apply rounds. Use only non-ephemeral values here.");
      return false;
    }
    if (val_is_sensitive(v)) {
      diag_error(d, rg, "Invalid count argument",
                 "Sensitive values, or values derived from sensitive values, "
                 "cannot be used as count arguments. If used, the sensitive "
                 "value could be exposed as a resource instance key.");
      return false;
    }
    if (val_is_null(v)) {
      diag_error(d, rg, "Invalid count argument",
                 "The given \"count\" argument value is null. An integer is "
                 "required.");
      return false;
    }
    Value nv;
    ConvError ce = {0};
    int64_t cnt;
    if (!conv_convert(a, v, &ty_number, true, &nv, &ce) || !val_num_int(nv, &cnt)) {
      diag_error(d, rg, "Invalid count argument",
                 "The given \"count\" argument value is unsuitable: %s.",
                 val_is_known(v) && v.type->kind == TY_NUMBER
                     ? "a whole number is required"
                     : "number required");
      return false;
    }
    if (cnt < 0) {
      diag_error(d, rg, "Invalid count argument",
                 "The given \"count\" argument value is unsuitable: must be "
                 "greater than or equal to zero.");
      return false;
    }
    keys = ARENA_NEW(ta, StKey, (size_t)cnt + 1);
    reps = ARENA_NEW(ta, Rep, (size_t)cnt + 1);
    for (int64_t i = 0; i < cnt; i++) {
      keys[nin] = st_intkey(i);
      reps[nin].has_count = true;
      reps[nin++].count_index = i;
    }
  } else if (for_each) {
    Value v;
    if (!eval_expr(ctx, for_each, &v))
      return false;
    const SrcRange *rg = &for_each->range;
    const Type *t = v.type;
    if (val_marks_deep(v) & VF_EPHEMERAL) {
      diag_error(d, rg, "Invalid for_each argument",
                 "The given \"for_each\" value is derived from an ephemeral "
                 "value, which means that cairn cannot persist it between "
                 "plan/apply rounds. Use only non-ephemeral values to "
                 "specify a resource's instance keys.");
      return false;
    }
    if (val_is_null(v)) {
      diag_error(d, rg, "Invalid for_each argument",
                 "The given \"for_each\" argument value is unsuitable: the "
                 "given \"for_each\" argument value is null. A map, or set "
                 "of strings is allowed.");
      return false;
    }
    if (val_is_unknown(v) || (!val_is_wholly_known(v) && t->kind == TY_SET)) {
      diag_error(d, rg, "Invalid for_each argument",
                 "The \"for_each\" %s includes keys derived from resource "
                 "attributes that cannot be determined until apply, and so "
                 "cairn cannot determine the full set of keys that will "
                 "identify the instances of this resource.\n\nWhen working "
                 "with unknown values in for_each, it's better to define the "
                 "map keys statically in your configuration and place "
                 "apply-time results only in the map values.",
                 t->kind == TY_SET ? "set" : "map");
      return false;
    }
    if (val_is_sensitive(v)) {
      diag_error(d, rg, "Invalid for_each argument",
                 "Sensitive values, or values derived from sensitive values, "
                 "cannot be used as for_each arguments. If used, the "
                 "sensitive value could be exposed as a resource instance "
                 "key.");
      return false;
    }
    if (t->kind == TY_MAP || t->kind == TY_OBJECT) {
      nin = v.len;
      if (t->kind == TY_OBJECT)
        nin = t->n;
      keys = ARENA_NEW(ta, StKey, nin + 1);
      reps = ARENA_NEW(ta, Rep, nin + 1);
      for (uint32_t i = 0; i < nin; i++) {
        const char *k = t->kind == TY_MAP ? v.u.entries[i].key : t->names[i];
        keys[i] = st_strkey(a, k, strlen(k));
        reps[i].has_each = true;
        reps[i].each_key = val_cstr(a, k);
        reps[i].each_value =
            t->kind == TY_MAP ? v.u.entries[i].val : v.u.elems[i];
      }
    } else if (t->kind == TY_SET) {
      if (t->elem->kind != TY_STRING && t->elem->kind != TY_DYNAMIC) {
        Buf tn;
        buf_init(&tn, a);
        ty_friendly(&tn, t->elem);
        diag_error(d, rg, "Invalid for_each set argument",
                   "The given \"for_each\" argument value is unsuitable: "
                   "\"for_each\" supports sets of strings, but you have "
                   "provided a set containing type %s.", buf_str(&tn));
        return false;
      }
      keys = ARENA_NEW(ta, StKey, v.len + 1);
      reps = ARENA_NEW(ta, Rep, v.len + 1);
      for (uint32_t i = 0; i < v.len; i++) {
        Value el = v.u.elems[i];
        if (val_is_null(el)) {
          diag_error(d, rg, "Invalid for_each set argument",
                     "The given \"for_each\" argument value is unsuitable: "
                     "\"for_each\" sets must not contain null values.");
          return false;
        }
        if (val_is_sensitive(el)) {
          diag_error(d, rg, "Invalid for_each argument",
                     "Sensitive values, or values derived from sensitive "
                     "values, cannot be used as for_each arguments.");
          return false;
        }
        keys[nin] = st_strkey(a, el.u.s, el.len);
        reps[nin].has_each = true;
        reps[nin].each_key = el;
        reps[nin++].each_value = el;
      }
    } else {
      Buf tn;
      buf_init(&tn, a);
      ty_friendly(&tn, t);
      diag_error(d, rg, "Invalid for_each argument",
                 "The given \"for_each\" argument value is unsuitable: the "
                 "\"for_each\" argument must be a map, or set of strings, and "
                 "you have provided a value of type %s.", buf_str(&tn));
      return false;
    }
  } else {
    keys = ARENA_NEW(ta, StKey, 1);
    reps = ARENA_NEW(ta, Rep, 1);
    keys[0] = st_nokey();
    nin = 1;
  }
  *keys_out = keys;
  *reps_out = reps;
  *n_out = nin;
  return true;
}

static const char *inst_addr(Arena *a, const char *module, const Node *n,
                             StKey k)
{
  Buf b;
  buf_init(&b, a);
  if (module[0]) {
    buf_puts(&b, module);
    buf_putc(&b, '.');
  }
  if (n->kind == N_EPHEMERAL)
    buf_puts(&b, "ephemeral.");
  else if (n->mode == ST_DATA)
    buf_puts(&b, "data.");
  buf_puts(&b, n->type);
  buf_putc(&b, '.');
  buf_puts(&b, n->rname);
  st_format_key(&b, k);
  return buf_str(&b);
}

/* The prior state resource of node n in module instance addr, or NULL. */
static StResource *sres_for(const Node *n, const char *module)
{
  uint32_t lo = 0, hi = n->nsrs;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    int c = strcmp(n->srs[mid]->module, module);
    if (c == 0)
      return n->srs[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* The index of module instance addr in m, or UINT32_MAX. */
uint32_t eng_mi_find(const EMod *m, const char *addr)
{
  if (!m)
    return UINT32_MAX;
  for (uint32_t i = 0; i < m->nmi; i++)
    if (strcmp(m->mi[i].addr, addr) == 0)
      return i;
  return UINT32_MAX;
}

typedef struct InstVec {
  Inst *v;
  uint32_t n, cap;
} InstVec;

/* Room for `more` instances after the n already in iv.  The vector is
** sized from what the expansion will push (reserve below) rather than
** grown by doubling: every outgrown array stayed in the worker arena, about
** twice the final array (three times at 10,000 instances a node, where an
** Inst is ~300 bytes), docs/performance.md change 12.  A second module
** instance still at least doubles, so growth stays amortised. */
static void inst_reserve(Arena *a, InstVec *iv, uint32_t more)
{
  if (more <= iv->cap - iv->n)
    return;
  uint64_t want = (uint64_t)iv->n + more;
  uint64_t nc = iv->cap ? (uint64_t)iv->cap * 2 : 0;
  if (nc < want)
    nc = want;
  if (nc > UINT32_MAX)
    nc = UINT32_MAX;
  Inst *nv = eng_new_insts(a, (uint32_t)nc);
  if (iv->n)
    memcpy(nv, iv->v, sizeof(Inst) * iv->n);
  iv->v = nv;
  iv->cap = (uint32_t)nc;
}

static Inst *inst_push(Arena *a, InstVec *iv)
{
  if (iv->n == iv->cap)
    inst_reserve(a, iv, iv->cap < 16 ? 16 : iv->cap);
  Inst *in = &iv->v[iv->n++];
  memset(in, 0, sizeof *in);
  return in;
}

static void push_obj(Arena *a, InstVec *iv, const Node *n,
                     const StResource *sr, StKey key, uint32_t mi,
                     const char *dkey, const StObject *obj)
{
  Inst *in = inst_push(a, iv);
  in->key = key;
  in->module = sr->module;
  in->mi = mi;
  in->no_module = mi == UINT32_MAX;
  in->addr = inst_addr(a, sr->module, n, key);
  in->deposed = dkey;
  in->prior = obj;
}

/* How many objects push_state_objects pushes for sr when the configured
** instances of its module instance have the keys keys[0..nkeys), in key
** order. */
static uint32_t count_state_objects(const StResource *sr, const StKey *keys,
                                    uint32_t nkeys)
{
  uint32_t c = 0;
  for (uint32_t i = 0; i < sr->ninst; i++) {
    const StInstance *si = sr->inst[i];
    bool configured = false;
    uint32_t lo = 0, hi = nkeys;
    while (lo < hi && !configured) {
      uint32_t mid = lo + (hi - lo) / 2;
      int r = st_key_compare(keys[mid], si->key);
      if (r == 0)
        configured = true;
      else if (r < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
    c += (si->current && !configured) + si->ndeposed;
  }
  return c;
}

/* Every deposed object of sr, and every current one whose key is not
** among the configured instances iv->v[cfg .. cfg+ncfg) (in key order:
** binary search), in module instance mi (UINT32_MAX when that instance is
** not declared). */
static void push_state_objects(Arena *a, InstVec *iv, const Node *n,
                               const StResource *sr, uint32_t mi,
                               uint32_t cfg, uint32_t ncfg)
{
  for (uint32_t i = 0; i < sr->ninst; i++) {
    StInstance *si = sr->inst[i];
    bool configured = false;
    uint32_t lo = cfg, hi = cfg + ncfg;
    while (lo < hi && !configured) {
      uint32_t mid = lo + (hi - lo) / 2;
      int c = st_key_compare(iv->v[mid].key, si->key);
      if (c == 0)
        configured = true;
      else if (c < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (si->current && !configured)
      push_obj(a, iv, n, sr, si->key, mi, NULL, si->current);
    for (uint32_t j = 0; j < si->ndeposed; j++)
      push_obj(a, iv, n, sr, si->key, mi, si->deposed[j].key,
               si->deposed[j].obj);
  }
}

/* Evaluates count / for_each of a configured resource in every instance
** of its module into n->inst: per module instance, the configured
** instances (in key order) followed by the prior instances the expansion
** no longer has and every deposed object; then the objects of module
** instances that are no longer declared. */
static bool expand(Engine *e, Node *n, Arena *a, Arena *ta, Diags *d);

bool eng_expand(Engine *e, Node *n, Arena *a, Diags *d)
{
  /* The keys and repetition data are copied into the instances: their
  ** arrays (about 100 bytes an instance) are scratch. */
  Arena ta;
  arena_init(&ta, 0);
  bool ok = expand(e, n, a, &ta, d);
  arena_release(&ta);
  return ok;
}

static bool expand(Engine *e, Node *n, Arena *a, Arena *ta, Diags *d)
{
  const CfgResource *r = n->res;
  const EMod *mod = n->mod;
  InstVec iv = {0};
  bool *used = ARENA_NEW(a, bool, n->nsrs + 1);
  for (uint32_t m = 0; m < mod->nmi; m++) {
    const MInst *mi = &mod->mi[m];
    Scope sc;
    EvalCtx ctx;
    eng_scope_ctx(&ctx, &sc, e, n, mod, m, &mi->rep, a, d);
    StKey *keys;
    Rep *reps;
    uint32_t nin;
    if (!eng_expand_keys_in(&ctx, r->count, r->for_each, a, ta, d, &keys,
                            &reps, &nin))
      return false;
    if (r->enabled) {
      /* OpenTofu's lifecycle { enabled = false }: as if the block were
      ** not in the configuration */
      Value en;
      if (!eval_expr(&ctx, r->enabled, &en))
        return false;
      Value bv;
      ConvError ce = {0};
      if (!val_is_wholly_known(en) || val_is_null(en) ||
          !conv_convert(a, en, &ty_bool, true, &bv, &ce)) {
        diag_error(d, &r->enabled->range, "Invalid enabled argument",
                   "The \"enabled\" argument must be a known boolean value "
                   "(true or false) during planning.");
        return false;
      }
      if (!bv.u.b) {
        nin = 0;
        n->disabled = true;
      }
    }
    StResource *sr = sres_for(n, mi->addr);
    uint32_t first = iv.n;
    inst_reserve(a, &iv, nin + (sr ? count_state_objects(sr, keys, nin) : 0));
    for (uint32_t i = 0; i < nin; i++) {
      Inst *in = inst_push(a, &iv);
      in->key = keys[i];
      in->rep = reps[i];
      in->in_config = true;
      in->module = mi->addr;
      in->mi = m;
      in->addr = inst_addr(a, mi->addr, n, keys[i]);
      if (sr) {
        StInstance *si = st_find_instance(e->state, sr, keys[i]);
        if (si)
          in->prior = si->current;
      }
    }
    if (!sr)
      continue;
    for (uint32_t j = 0; j < n->nsrs; j++)
      if (n->srs[j] == sr)
        used[j] = true;
    push_state_objects(a, &iv, n, sr, m, first, nin);
  }
  uint32_t rest = 0;
  for (uint32_t j = 0; j < n->nsrs; j++)
    if (!used[j])
      rest += count_state_objects(n->srs[j], NULL, 0);
  inst_reserve(a, &iv, rest);
  for (uint32_t j = 0; j < n->nsrs; j++)
    if (!used[j])
      push_state_objects(a, &iv, n, n->srs[j], UINT32_MAX, 0, 0);
  n->inst = iv.v ? iv.v : eng_new_insts(a, 0);
  n->ninst = iv.n;
  return true;
}

/* Orphans and destroy mode: every current and deposed object. */
void eng_expand_state(Node *n, Arena *a)
{
  InstVec iv = {0};
  uint32_t total = 0;
  for (uint32_t j = 0; j < n->nsrs; j++)
    total += count_state_objects(n->srs[j], NULL, 0);
  inst_reserve(a, &iv, total);
  for (uint32_t j = 0; j < n->nsrs; j++)
    push_state_objects(a, &iv, n, n->srs[j],
                       eng_mi_find(n->mod, n->srs[j]->module), 0, 0);
  n->inst = iv.v ? iv.v : eng_new_insts(a, 0);
  n->ninst = iv.n;
}

/* Expands a module call in every instance of the calling module into the
** called module's instances (its mi and child_start). */
bool eng_expand_call(Engine *e, Node *n, Arena *a, Diags *d)
{
  EMod *ch = n->child;
  const EMod *pm = n->mod;
  const CfgModuleCall *mc = ch->t->call;
  /* destroying or left out by -target: nothing in it needs configuring */
  bool lenient = e->o.mode == PL_MODE_DESTROY || n->untargeted;
  uint32_t *start = ARENA_NEW(a, uint32_t, pm->nmi + 1);
  MInst *all = NULL;
  uint32_t nall = 0, cap = 0;
  for (uint32_t p = 0; p < pm->nmi; p++) {
    start[p] = nall;
    Scope sc;
    EvalCtx ctx;
    Diags quiet;
    diag_init(&quiet, a);
    eng_scope_ctx(&ctx, &sc, e, n, pm, p, &pm->mi[p].rep, a,
                  lenient ? &quiet : d);
    StKey *keys;
    Rep *reps;
    uint32_t nk;
    if (!eng_expand_keys(&ctx, mc->count, mc->for_each, a, lenient ? &quiet : d,
                         &keys, &reps, &nk)) {
      if (!lenient)
        return false;
      nk = 0;
    }
    if (nall + nk > cap) {
      uint32_t nc = (nall + nk) * 2 + 4;
      MInst *na = ARENA_NEW(a, MInst, nc);
      if (nall)
        memcpy(na, all, sizeof(MInst) * nall);
      all = na;
      cap = nc;
    }
    for (uint32_t i = 0; i < nk; i++) {
      MInst *mi = &all[nall++];
      Buf b;
      buf_init(&b, a);
      if (pm->mi[p].addr[0])
        buf_printf(&b, "%s.", pm->mi[p].addr);
      buf_printf(&b, "module.%s", mc->name);
      st_format_key(&b, keys[i]);
      mi->addr = buf_str(&b);
      mi->parent = p;
      mi->key = keys[i];
      mi->rep = reps[i];
    }
  }
  start[pm->nmi] = nall;
  /* arguments must be variables the module declares; required ones set */
  const CfgModule *cm = ch->t->m;
  if (mc->body) {
    HclAttribute **attrs;
    uint32_t na;
    Diags tmp;
    diag_init(&tmp, a);
    if (hcl_body_just_attributes(a, mc->body, &attrs, &na, &tmp))
      for (uint32_t i = 0; i < na; i++)
        if (!cfg_variable(cm, attrs[i]->name))
          diag_error(d, &attrs[i]->name_range, "Unsupported argument",
                     "An argument named \"%s\" is not expected here.",
                     attrs[i]->name);
  }
  for (uint32_t i = 0; i < cm->nvariables; i++) {
    const CfgVariable *v = &cm->variables[i];
    if (!v->has_default &&
        !(mc->body && hcl_body_attr(mc->body, v->name)))
      diag_error(d, &mc->range, "Missing required argument",
                 "The argument \"%s\" is required, but no definition was "
                 "found.", v->name);
  }
  if (diag_has_errors(d))
    return false;
  ch->mi = all ? all : ARENA_NEW(a, MInst, 1);
  ch->nmi = nall;
  ch->child_start = start;
  return true;
}
