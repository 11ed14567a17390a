/*
** engine: graph, instances, plan and apply.  See engine.h and
** docs/engine.md.
**
** The graph has one node per provider configuration, local, output,
** configured resource, and resource that only the state knows (an
** "orphan").  Edges come from references.  A resource node's visit
** evaluates count/for_each and correlates the instances with the state;
** dag_walk then fans the node out into pieces of CHUNK instances that run
** in parallel.  The node's aggregate value (an object, a tuple of objects
** for count, an object of objects for for_each) is built on the owner
** thread when every piece is done, before dependents start.
**
** This file holds the public API of engine.h and the small utilities
** every piece uses.  The pieces share engine_priv.h: engine_state.c
** (values to and from state objects), engine_scope.c (resolving
** references), engine_graph.c (building the graph), engine_target.c
** (-target), engine_expand.c (count/for_each of resources and module
** calls), engine_plan.c (planning one instance), engine_scratch.c (its
** scratch scope in the worker arena), engine_apply.c
** (applying one instance), engine_walk.c (node visits and the walk).
*/
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/validate.h"
#include "engine_priv.h"
#include "planfile.h"
#include "provisioner.h"

/* ---- small utilities ---------------------------------------------------- */

static uint32_t str_hash(const char *s)
{
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

void eng_map_init(StrMap *m, Arena *a, uint32_t n)
{
  uint32_t cap = 16;
  while (cap < n * 2 + 2)
    cap *= 2;
  m->cap = cap;
  m->keys = ARENA_NEW(a, const char *, cap);
  m->vals = ARENA_NEW(a, uint32_t, cap);
}

void eng_map_put(StrMap *m, const char *k, uint32_t v)
{
  uint32_t i = str_hash(k) & (m->cap - 1);
  while (m->keys[i] && strcmp(m->keys[i], k) != 0)
    i = (i + 1) & (m->cap - 1);
  m->keys[i] = k;
  m->vals[i] = v;
}

bool eng_map_get(const StrMap *m, const char *k, uint32_t *v)
{
  if (!m->cap)
    return false;
  uint32_t i = str_hash(k) & (m->cap - 1);
  while (m->keys[i]) {
    if (strcmp(m->keys[i], k) == 0) {
      *v = m->vals[i];
      return true;
    }
    i = (i + 1) & (m->cap - 1);
  }
  return false;
}

double eng_now_sec(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

Arena *eng_worker_arena(Engine *e, PoolWorker *w)
{
  return &e->warena[w->id];
}

Diags *eng_inst_diags(Inst *in, Arena *a)
{
  if (!in->diags_ready) {
    diag_init(&in->diags, a);
    in->diags_ready = true;
  }
  return &in->diags;
}

Diags *eng_node_diags(Node *n, Arena *a)
{
  if (!n->diags_ready) {
    diag_init(&n->diags, a);
    n->diags_ready = true;
  }
  return &n->diags;
}

void eng_add_event(Arena *a, Inst *in, EngEventKind k, PlAction act,
                   const PlChange *c, Value obj, double elapsed)
{
  EngEvent *ev = ARENA_NEW(a, EngEvent, 1);
  ev->kind = k;
  ev->addr = in->addr;
  ev->deposed = in->deposed;
  ev->action = act;
  ev->change = c;
  ev->elapsed = elapsed;
  /* [id=x]: the object's id, falling back to name (format/object_id.go) */
  static const char *const idk[] = {"id", "name"};
  if (obj.type && obj.type->kind == TY_OBJECT && val_is_known(obj) &&
      !val_is_null(obj)) {
    for (int i = 0; i < 2; i++) {
      bool f;
      Value v = val_attr(obj, idk[i], &f);
      if (f && v.type->kind == TY_STRING && val_is_known(v) &&
          !val_is_null(v) && !val_is_sensitive(v) && v.len) {
        ev->id_key = idk[i];
        ev->id_value = v.u.s;
        break;
      }
    }
  }
  if (in->ev_tail)
    in->ev_tail->next = ev;
  else
    in->ev_head = ev;
  in->ev_tail = ev;
}

/* A diagnostic about instance in, attributed to its resource block. */
Diag *eng_inst_error(Diags *d, const Node *n, const Inst *in,
                     const char *summary, const char *fmt, ...)
{
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  const SrcRange *r = n->res ? &n->res->range : NULL;
  Diag *g = diag_error(d, r, summary, "%s", buf);
  if (in)
    diag_set_address(d, g, in->addr);
  return g;
}

/* Terraform attaches every provider diagnostic that names no source to
** the resource block and instance it concerns ("with ADDR, on FILE line N"),
** so users see which instance failed.  Elaborates the diagnostics appended
** after mark (NULL: from the head). */
void eng_attribute_prov_diags(Diags *d, Diag *mark, const Node *n,
                              const Inst *in)
{
  for (Diag *g = mark ? mark->next : d->head; g; g = g->next) {
    if (g->subject.file || g->address)
      continue;
    if (n->res)
      g->subject = n->res->range;
    if (in)
      diag_set_address(d, g, in->addr);
  }
}

/* Where a provider's attribute path leads in a native-syntax body: the
** attribute's expression, or the nested block the path stops in (blocks
** of a list by index, of a map by label; a set's elements have no key, so
** a path into one stops at the first block of that type).  NULL when the
** path names nothing written in the body (a computed attribute, a JSON
** body). */
static const SrcRange *path_range(const HclBody *b, const ValPath *p)
{
  const SrcRange *at = NULL;
  uint32_t i = 0;
  while (b && !b->json && i < p->n && p->steps[i].kind == PS_ATTR) {
    const char *name = p->steps[i].name;
    for (uint32_t k = 0; k < b->nattrs; k++)
      if (strcmp(b->attrs[k]->name, name) == 0)
        return &b->attrs[k]->expr->range;
    const PathStep *next = i + 1 < p->n ? &p->steps[i + 1] : NULL;
    const HclBlock *found = NULL;
    int64_t seen = 0;
    for (uint32_t k = 0; k < b->nblocks && !found; k++) {
      const HclBlock *bl = b->blocks[k];
      if (strcmp(bl->type, name) != 0)
        continue;
      if (next && next->kind == PS_INDEX) {
        if (seen++ == next->index)
          found = bl;
      } else if (next && next->kind == PS_KEY) {
        if (bl->nlabels && strcmp(bl->labels[0], next->name) == 0)
          found = bl;
      } else {
        found = bl;
      }
    }
    if (!found)
      return at;
    at = &found->type_range;
    b = found->body;
    i += next && next->kind != PS_ATTR ? 2 : 1;
  }
  return at;
}

void eng_attribute_path_diags(Diags *d, Diag *mark, const ProvCall *c,
                              const Node *n, const Inst *in)
{
  for (Diag *g = mark ? mark->next : d->head; g; g = g->next) {
    const ValPath *vp = prov_diag_path(c, g);
    const SrcRange *r =
        vp && n->res && !g->subject.file ? path_range(n->res->body, vp)
                                         : NULL;
    if (r) {
      g->subject = *r;
      if (in)
        diag_set_address(d, g, in->addr);
    }
  }
  eng_attribute_prov_diags(d, mark, n, in);
}

void eng_provider_path_diags(Diags *d, Diag *mark, const ProvCall *c,
                             const ProvSlot *ps)
{
  for (Diag *g = mark ? mark->next : d->head; g; g = g->next) {
    const ValPath *vp = prov_diag_path(c, g);
    if (!vp)
      continue;   /* Terraform elaborates attribute-path diagnostics only */
    const SrcRange *r = ps->cfg && ps->cfg->body && !g->subject.file
                            ? path_range(ps->cfg->body, vp)
                            : NULL;
    if (r)
      g->subject = *r;
    diag_set_address(d, g, ps->state_addr);
  }
}

const char *const eng_bug_suffix =
    "\n\nThis is a bug in the provider, which should be reported in the "
    "provider's own issue tracker.";

static void set_vars(Engine *e, const PlVariable *vars, uint32_t nvars)
{
  const CfgModule *m = e->m;
  e->varvals = ARENA_NEW(e->a, Value, m->nvariables ? m->nvariables : 1);
  for (uint32_t i = 0; i < m->nvariables; i++) {
    const CfgVariable *cv = &m->variables[i];
    Value v = cv->has_default ? cv->default_val : val_null(cv->type);
    for (uint32_t k = 0; k < nvars; k++)
      if (strcmp(vars[k].name, cv->name) == 0)
        v = vars[k].value;
    if (cv->sensitive)
      v = val_sensitive(v);
    if (cv->ephemeral)
      v = val_ephemeral(v);
    e->varvals[i] = v;
  }
}

static const char *rfc3339_now(Arena *a)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  gmtime_r(&ts.tv_sec, &tm);
  char buf[64];
  strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return arena_strdup(a, buf);
}

/* ---- public API -------------------------------------------------------- */

typedef struct VldCtx {
  Engine *e;
  const CfgTree *t;
} VldCtx;

static const ProvBlockSchema *vld_schema(void *ctx, CfgMode mode,
                                         const CfgResource *r)
{
  VldCtx *vc = ctx;
  Engine *e = vc->e;
  Diags d;
  diag_init(&d, e->a);
  ProvSlot *ps = eng_resource_slot(e, vc->t, r, &d);
  if (!ps || !ps->schema)
    return VLD_SCHEMA_SKIP;
  const ProvTypeSchema *t =
      mode == CFG_EPHEMERAL
          ? prov_schema_ephemeral(ps->schema, r->type)
          : eng_type_schema(ps, mode == CFG_DATA ? ST_DATA : ST_MANAGED,
                            r->type);
  return t ? t->schema.block : NULL;
}

static void vld_types(void *ctx, CfgMode mode, const CfgResource *r,
                      const char *const **names, uint32_t *n)
{
  VldCtx *vc = ctx;
  Engine *e = vc->e;
  *n = 0;
  Diags d;
  diag_init(&d, e->a);
  ProvSlot *ps = eng_resource_slot(e, vc->t, r, &d);
  if (!ps || !ps->schema)
    return;
  const ProvTypeSchema *ts = mode == CFG_DATA ? ps->schema->data_sources
                             : mode == CFG_EPHEMERAL
                                 ? ps->schema->ephemeral_resources
                                 : ps->schema->resources;
  uint32_t cnt = mode == CFG_DATA        ? ps->schema->ndata_sources
                 : mode == CFG_EPHEMERAL ? ps->schema->nephemeral_resources
                                         : ps->schema->nresources;
  const char **out = ARENA_NEW(e->a, const char *, cnt ? cnt : 1);
  for (uint32_t i = 0; i < cnt; i++)
    out[i] = ts[i].type_name;
  *names = out;
  *n = cnt;
}

/* Opens every provider module t and its children configure or use, and
** runs the static checks on each module. */
static void prepare_module(Engine *e, const CfgTree *t, Diags *d)
{
  const CfgModule *m = t->m;
  for (uint32_t i = 0; i < m->nresources; i++)
    eng_resource_slot(e, t, &m->resources[i], d);
  for (uint32_t i = 0; i < m->nproviders; i++) {
    const CfgProvider *cp = &m->providers[i];
    const char *src = cfg_provider_source(m, cp->name);
    const char *fqn =
        prov_source_normalize(e->a, src ? src : cp->name, &cp->range, d);
    if (fqn)
      eng_ensure_slot(e, t->path, cp, cp->name, fqn, cp->alias, d);
    /* Terraform: a module with its own provider configurations cannot be
    ** repeated or depend on anything, since its providers would outlive
    ** the instances that configure them */
    for (const CfgTree *p = t; p->parent; p = p->parent) {
      const CfgModuleCall *mc = p->call;
      if (mc->count || mc->for_each || mc->depends_on.n) {
        diag_error(d, &mc->range, "Module is incompatible with count, "
                   "for_each, and depends_on",
                   "The module at %s is a legacy module which contains its "
                   "own local provider configurations, and so calls to it "
                   "may not use the count, for_each, or depends_on "
                   "arguments.\n\nIf you also control the module \"%s\", "
                   "consider updating this module to instead expect "
                   "provider configurations to be passed by its caller.",
                   t->path, mc->source ? mc->source : t->path);
        break;
      }
    }
  }
  if (diag_has_errors(d))
    return;
  eng_fns_prepare(e, t);
  VldCtx vc = {e, t};
  if (!e->o.static_checked)
    vld_module_ex(e->a, m, vld_schema, vld_types, &vc, d);
  for (uint32_t i = 0; i < m->nresources; i++) {
    const CfgResource *r = &m->resources[i];
    if (r->mode != CFG_MANAGED)
      continue;
    const ProvBlockSchema *b = vld_schema(&vc, r->mode, r);
    if (b && b != VLD_SCHEMA_SKIP)
      lc_check_ignore_changes(e->a, r, b, d);
    lc_check_replace_triggers(r, d);
    for (uint32_t k = 0; k < r->nprovisioners; k++)
      prv_check(&r->provisioners[k], d);
  }
  for (uint32_t i = 0; i < m->ncalls; i++)
    if (t->children[i])
      prepare_module(e, t->children[i], d);
}

Engine *eng_new(Arena *a, const CfgTree *t, SrcFiles *files,
                const State *state, const EngOpts *o, Diags *d)
{
  Engine *e = ARENA_NEW(a, Engine, 1);
  e->a = a;
  e->tree = t;
  e->m = t->m;
  e->files = files;
  e->o = *o;
  if (e->o.parallelism < 1)
    e->o.parallelism = 10;
  char cwd[4096];
  e->cwd = arena_strdup(a, getcwd(cwd, sizeof cwd) ? cwd : ".");
  pthread_mutex_init(&e->mu, NULL);
  e->root = eng_build_mods(e, t, NULL);
  e->root->nmi = 1;
  e->root->mi = ARENA_NEW(a, MInst, 1);
  e->root->mi[0].addr = "";
  prepare_module(e, t, d);
  /* providers of resources only the state knows */
  if (state && !diag_has_errors(d))
    for (uint32_t i = 0; i < state->nres; i++)
      eng_state_slot(e, state->res[i]->provider, d);
  if (diag_has_errors(d)) {
    eng_close(e);
    return NULL;
  }
  e->nworkers = e->o.parallelism;
  e->beat = 10;   /* Terraform's period */
#ifdef CAIRN_TEST
  /* tests see heartbeats without waiting 10 s */
  const char *hb = getenv("CAIRN_TEST_HEARTBEAT_MS");
  if (hb && *hb)
    e->beat = strtod(hb, NULL) / 1000;
#endif
  e->pool = pool_new(a, e->nworkers, NULL, NULL);
  if (!e->pool) {
    diag_error(d, NULL, "Cannot start worker threads",
               "Starting %d worker threads failed: %s.", e->nworkers,
               strerror(errno));
    eng_close(e);
    return NULL;
  }
  e->warena = ARENA_NEW(a, Arena, (size_t)e->nworkers);
  e->wtype = ARENA_NEW(a, const Type *, (size_t)e->nworkers);
  for (int i = 0; i < e->nworkers; i++)
    arena_init(&e->warena[i], 0);
  return e;
}

/* Appends instance key k (a known string or whole number) to b; false
** with a diagnostic at r otherwise. */
static bool import_key(Engine *e, Buf *b, Value k, const SrcRange *r,
                       Diags *d)
{
  int64_t i;
  if (val_is_wholly_known(k) && !val_is_null(k) &&
      k.type->kind == TY_NUMBER && val_num_int(k, &i)) {
    st_format_key(b, st_intkey(i));
    return true;
  }
  if (val_is_wholly_known(k) && !val_is_null(k) &&
      k.type->kind == TY_STRING) {
    st_format_key(b, st_strkey(e->a, k.u.s, k.len));
    return true;
  }
  diag_error(d, r, "Invalid import address",
             "The instance key in \"to\" must be a known string or whole "
             "number.");
  return false;
}

/* The instance address an import block's `to` names: module calls with
** their keys, then a managed resource with its key (the last key may be
** an expression such as each.key), or NULL with a diagnostic. */
static const char *import_to(Engine *e, EvalCtx *ctx, const HclExpr *to,
                             Diags *d)
{
  const HclExpr *x = hcl_expr_unwrap(to);
  const HclExpr *base = x->kind == HCL_E_INDEX ? x->u.index.coll : x;
  HclTraversal t;
  Diags q;
  diag_init(&q, e->a);
  Buf b;
  buf_init(&b, e->a);
  bool ok = hcl_expr_as_traversal(e->a, base, &t, &q);
  uint32_t i = 0;
  while (ok && i + 1 < t.n && strcmp(t.steps[i].name ? t.steps[i].name : "",
                                     "module") == 0 &&
         t.steps[i].kind != HCL_STEP_INDEX) {
    ok = t.steps[i + 1].kind == HCL_STEP_ATTR;
    if (!ok)
      break;
    buf_printf(&b, "module.%s", t.steps[i + 1].name);
    i += 2;
    if (i < t.n && t.steps[i].kind == HCL_STEP_INDEX) {
      if (!import_key(e, &b, *t.steps[i].key, &to->range, d))
        return NULL;
      i++;
    }
    buf_putc(&b, '.');
  }
  /* TYPE.NAME[KEY]: the key a constant step or the outer index */
  uint32_t left = ok ? t.n - i : 0;
  ok = ok && (left == 2 || (left == 3 && x->kind != HCL_E_INDEX &&
                            t.steps[i + 2].kind == HCL_STEP_INDEX)) &&
       t.steps[i].kind != HCL_STEP_INDEX &&
       t.steps[i + 1].kind == HCL_STEP_ATTR;
  static const char *const reserved[] = {"data", "module", "var", "local",
                                         "count", "each", "path", "self",
                                         "terraform"};
  for (size_t k = 0; ok && k < sizeof reserved / sizeof *reserved; k++)
    ok = strcmp(t.steps[i].name, reserved[k]) != 0;
  if (!ok) {
    diag_error(d, &to->range, "Invalid import address",
               "The \"to\" argument must be the address of a managed "
               "resource instance, such as aws_instance.a, "
               "aws_instance.a[\"key\"] or module.m.aws_instance.a.");
    return NULL;
  }
  buf_printf(&b, "%s.%s", t.steps[i].name, t.steps[i + 1].name);
  if (left == 3 && !import_key(e, &b, *t.steps[i + 2].key, &to->range, d))
    return NULL;
  if (x->kind == HCL_E_INDEX) {
    Value key;
    if (!eval_expr(ctx, x->u.index.key, &key) ||
        !import_key(e, &b, key, &to->range, d))
      return NULL;
  }
  return buf_str(&b);
}

typedef struct ImportTarget {
  const char *addr, *id;
  const SrcRange *range;
} ImportTarget;

/* Evaluates the root module's import blocks (and `cairn import`'s target)
** into e->imports: instance address -> import id. */
static bool collect_imports(Engine *e, Diags *d)
{
  const CfgModule *m = e->m;
  ImportTarget *tv = NULL;
  uint32_t nt = 0, cap = 0;
  bool ok = true;
  for (int32_t i = e->o.import_addr ? -1 : 0; i < (int32_t)m->nimports; i++) {
    const CfgImport *im = i >= 0 ? &m->imports[i] : NULL;
    Scope sc;
    EvalCtx ctx;
    StKey *keys;
    Rep *reps;
    uint32_t nk = 1;
    if (im) {
      eng_scope_ctx(&ctx, &sc, e, NULL, e->root, 0, NULL, e->a, d);
      if (!eng_expand_keys(&ctx, NULL, im->for_each, e->a, d, &keys, &reps,
                           &nk))
        return false;
    }
    if (nt + nk > cap) {
      cap = (nt + nk) * 2;
      ImportTarget *n2 = ARENA_NEW(e->a, ImportTarget, cap);
      if (nt)
        memcpy(n2, tv, sizeof *tv * nt);
      tv = n2;
    }
    if (!im) {   /* cairn import ADDR ID */
      tv[nt++] = (ImportTarget){e->o.import_addr, e->o.import_id, NULL};
      continue;
    }
    for (uint32_t k = 0; k < nk; k++) {
      eng_scope_ctx(&ctx, &sc, e, NULL, e->root, 0, &reps[k], e->a, d);
      const char *to = import_to(e, &ctx, im->to, d);
      Value idv;
      if (!to || !im->id || !eval_expr(&ctx, im->id, &idv)) {
        if (!im->id)
          diag_error(d, &im->range, "Missing required argument",
                     "The argument \"id\" is required, but no definition "
                     "was found.");
        ok = false;
        continue;
      }
      if (!val_is_wholly_known(idv) || val_is_null(idv) ||
          idv.type->kind != TY_STRING || idv.len == 0) {
        diag_error(d, &im->id->range, "Invalid import id argument",
                   "The import ID must be a known, non-empty string.");
        ok = false;
        continue;
      }
      tv[nt++] = (ImportTarget){to, idv.u.s, &im->range};
    }
  }
  eng_map_init(&e->imports, e->a, nt + 1);
  e->import_ids = ARENA_NEW(e->a, const char *, nt + 1);
  e->import_addrs = ARENA_NEW(e->a, const char *, nt + 1);
  e->import_ranges = ARENA_NEW(e->a, const SrcRange *, nt + 1);
  e->import_used = ARENA_NEW(e->a, uint8_t, nt + 1);
  e->nimports = 0;
  for (uint32_t i = 0; i < nt; i++) {
    uint32_t old;
    if (eng_map_get(&e->imports, tv[i].addr, &old)) {
      diag_error(d, tv[i].range,
                 arena_printf(e->a, "Duplicate import configuration for "
                              "\"%s\"", tv[i].addr),
                 "An import block for the resource \"%s\" was already "
                 "declared. A resource can have only one import block.",
                 tv[i].addr);
      ok = false;
      continue;
    }
    eng_map_put(&e->imports, tv[i].addr, e->nimports);
    e->import_addrs[e->nimports] = tv[i].addr;
    e->import_ranges[e->nimports] = tv[i].range;
    e->import_ids[e->nimports++] = tv[i].id;
  }
  return ok;
}

/* -target must cover every object a moved block moved (Terraform: the
** plan could not be right otherwise). */
static bool moves_targeted(Engine *e, Diags *d)
{
  if (!e->ntg)
    return true;
  Buf miss;
  buf_init(&miss, e->a);
  for (uint32_t i = 0; i < e->moves.n; i++) {
    const char *to = e->moves.items[i].to;
    StAddr sa;
    Diags q;
    diag_init(&q, e->a);
    uint32_t v;
    if (!st_parse_addr(e->a, to, &sa, &q) || sa.kind == ST_ADDR_MODULE)
      continue;   /* module moves: their resources' moves are listed too */
    Buf sb;
    buf_init(&sb, e->a);
    st_format_resource(&sb, st_static_path(e->a, sa.module), sa.mode, sa.type,
                       sa.name);
    if (!eng_map_get(&e->by_name, buf_str(&sb), &v))
      continue;
    Inst in = {0};
    in.addr = to;
    in.module = sa.module;
    in.key = sa.kind == ST_ADDR_INSTANCE ? sa.key : st_nokey();
    if (eng_inst_targeted(e, &e->nodes[v], &in))
      continue;
    buf_puts(&miss, "\n  -target=\"");   /* Go's %q: shell-ready */
    for (const char *c = to; *c; c++) {
      if (*c == '"' || *c == '\\')
        buf_putc(&miss, '\\');
      buf_putc(&miss, *c);
    }
    buf_putc(&miss, '"');
  }
  if (!miss.len)
    return true;
  diag_error(d, NULL, "Moved resource instances excluded by targeting",
             "Resource instances in your current state have moved to new "
             "addresses in the latest configuration. cairn must include "
             "those resource instances while planning in order to ensure a "
             "correct result, but your -target=... options do not fully "
             "cover all of those resource instances.\n\nTo create a valid "
             "plan, either remove your -target=... options altogether or "
             "add the following additional target options:%s\n\nNote that "
             "adding these options may include further additional resource "
             "instances in your plan, in order to respect object "
             "dependencies.", buf_str(&miss));
  return false;
}

static void reset_nodes(Engine *e)
{
  e->nnodes = 0;
  e->cap_nodes = 0;
  e->nodes = NULL;
  memset(&e->by_name, 0, sizeof e->by_name);
}

bool eng_plan(Engine *e, State *prior, Plan **out, Diags *d)
{
  Arena *a = e->a;
  /* Terraform's local backend validates before it plans; a configuration
  ** that does not validate gets no plan, so its errors show alone. */
  if (!eng_validate(e, d)) {
    *out = NULL;
    return false;
  }
  Plan *p = ARENA_NEW(a, Plan, 1);
  *out = p;
  p->arena = a;
  p->mode = e->o.mode;
  p->timestamp = rfc3339_now(a);
  p->prev_run_state = prior;
  p->lineage = prior->lineage;
  p->serial = prior->serial;
  p->state_existed = prior->lineage && prior->lineage[0];
  const CfgModule **mods;
  uint32_t nmods;
  cfg_tree_modules(a, e->tree, &mods, &nmods);
  p->config_hash = planfile_config_hash(a, mods, nmods);
  p->replace = e->o.replace;
  p->nreplace = e->o.nreplace;
  p->targets = e->o.targets;
  p->ntargets = e->o.ntargets;
  p->nvars = e->o.nvars;
  p->vars = ARENA_NEW(a, PlVariable, e->o.nvars ? e->o.nvars : 1);
  if (e->o.nvars)
    memcpy(p->vars, e->o.vars, sizeof(PlVariable) * e->o.nvars);
  eng_set_plan(e, p);
  e->phase = PH_PLAN;
  e->nfl = 0;   /* no heartbeats while planning */
  e->state = st_clone(a, prior);
  p->prior_state = e->state;
  memset(&e->moves, 0, sizeof e->moves);
  if (!eng_parse_targets(e, e->o.targets, e->o.ntargets, d) ||
      !rf_check_removed(a, e->tree, d) ||
      !rf_apply_moves(a, e->tree, e->state, &e->moves, d) ||
      !eng_move_types(e, e->state, d) || !collect_imports(e, d)) {
    *out = NULL;   /* Terraform's Plan returns no plan for these */
    return false;
  }
  if (e->o.ninvoke)
    eng_target_nothing(e);   /* -invoke: no resource changes */
  set_vars(e, e->o.vars, e->o.nvars);
  reset_nodes(e);
  if (!eng_build_graph(e, e->state, d) || !moves_targeted(e, d)) {
    *out = NULL;   /* Terraform's Plan returns no plan for these */
    return false;
  }
  bool ok = eng_walk(e, d);
  /* an import whose target is no configured instance */
  for (uint32_t i = 0; ok && !e->ntg && e->o.mode == PL_MODE_NORMAL &&
                      i < e->nimports; i++) {
    if (e->import_used[i])
      continue;
    diag_error(d, e->import_ranges[i],
               "Configuration for import target does not exist",
               "The configuration for the given import target %s does not "
               "exist. All target instances must have an associated "
               "configuration to be imported.", e->import_addrs[i]);
    ok = false;
  }
  /* collect changes and drift; update the refreshed state */
  uint32_t nch = 0, ndr = 0;
  for (uint32_t v = 0; v < e->nnodes; v++)
    for (uint32_t i = 0; i < e->nodes[v].ninst; i++) {
      nch += e->nodes[v].inst[i].change != NULL;
      ndr += e->nodes[v].inst[i].drift != NULL;
    }
  p->changes = ARENA_NEW(a, PlChange, nch ? nch : 1);
  p->drift = ARENA_NEW(a, PlChange, ndr ? ndr : 1);
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    for (uint32_t i = 0; i < n->ninst; i++) {
      Inst *in = &n->inst[i];
      if (in->change)
        p->changes[p->nchanges++] = *in->change;
      if (in->drift)
        p->drift[p->ndrift++] = *in->drift;
      if (in->refreshed) {
        StResource *sr = st_ensure_resource(e->state, in->module, n->mode,
                                            n->type, n->rname,
                                            n->ps->state_addr);
        if (in->deposed)
          st_set_deposed(e->state, sr, in->key, in->deposed, in->new_obj);
        else
          st_set_current(e->state, sr, in->key, in->new_obj);
      }
    }
  }
  /* outputs */
  const State *ps = prior;
  uint32_t nout = e->m->noutputs + ps->noutputs;
  p->outputs = ARENA_NEW(a, PlOutput, nout ? nout : 1);
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    /* Terraform records no change for an output whose evaluation
    ** failed, so an errored plan does not list it */
    if (n->kind != N_OUTPUT || n->mod != e->root || !n->finished ||
        n->errored || n->untargeted || !n->vals || !n->vals[0].type)
      continue;
    Value agg = n->vals[0];
    const StOutput *so = st_find_output(ps, n->out->name);
    /* As Terraform's output node: a value known while planning goes into
    ** the refreshed (prior) state as well, which is what the JSON plan's
    ** prior_state shows; unknown ones keep the previous value. */
    if (e->o.mode != PL_MODE_DESTROY && val_is_wholly_known(agg)) {
      Value plain = val_unmark_deep(a, agg);
      if (val_is_null(plain))
        st_remove_output(e->state, n->out->name);
      else
        st_set_output(e->state, n->out->name, plain, plain.type,
                      n->out->sensitive);
    }
    PlOutput *po = &p->outputs[p->noutputs++];
    po->name = n->out->name;
    po->sensitive = n->out->sensitive || (so && so->sensitive);
    po->after = agg;
    if (!so) {
      /* no value recorded is a null one (the state keeps no nulls) */
      po->action = val_is_null(val_unmark_deep(a, agg)) ? PL_NOOP
                                                        : PL_CREATE;
      po->before = val_dynamic_null;
    } else {
      po->before = so->value;
      po->action = val_is_wholly_known(agg) &&
                           val_raw_equal(val_unmark_deep(a, agg),
                                         so->value, false)
                       ? PL_NOOP
                       : PL_UPDATE;
    }
  }
  for (uint32_t i = 0; i < ps->noutputs; i++) {
    bool kept = e->ntg ||   /* -target: only selected outputs change */
                (e->o.mode != PL_MODE_DESTROY &&
                 cfg_output(e->m, ps->outputs[i].name) != NULL);
    if (kept)
      continue;
    PlOutput *po = &p->outputs[p->noutputs++];
    po->name = ps->outputs[i].name;
    po->action = PL_DELETE;
    po->before = ps->outputs[i].value;
    po->after = val_dynamic_null;
    po->sensitive = ps->outputs[i].sensitive;
  }
  plan_sort(p);
  /* removed { lifecycle { destroy = false } }: Terraform's warning */
  Buf fl;
  buf_init(&fl, a);
  for (uint32_t i = 0; i < p->nchanges; i++)
    if (p->changes[i].action == PL_FORGET)
      buf_printf(&fl, "\n - %s", p->changes[i].addr);
  if (fl.len)
    diag_warning(d, NULL, "Some objects will no longer be managed by cairn",
                 "If you apply this plan, cairn will discard its tracking "
                 "information for the following objects, but it will not "
                 "delete them:%s\n\nAfter applying this plan, cairn will no "
                 "longer manage these objects. You will need to import them "
                 "into cairn to manage them again.", buf_str(&fl));
  if (ok && !eng_plan_actions(e, p, d))
    ok = false;
  p->errored = !ok;
  p->complete = !e->ntg || e->o.ninvoke;
  if (e->ntg && !e->o.ninvoke)
    diag_warning(d, NULL, "Resource targeting is in effect",
                 "You are creating a plan with the -target option, which "
                 "means that the result of this plan may not represent all "
                 "of the changes requested by the current configuration.\n\n"
                 "The -target option is not for routine use, and is provided "
                 "only for exceptional situations such as recovering from "
                 "errors or mistakes, or when cairn specifically suggests to "
                 "use it as part of an error message.");
  if (e->o.mode == PL_MODE_REFRESH_ONLY) {
    bool outs = false;
    for (uint32_t i = 0; i < p->noutputs; i++)
      outs |= p->outputs[i].action != PL_NOOP;
    p->applyable = ok && (p->ndrift > 0 || outs);
  } else {
    p->applyable = ok && plan_has_changes(p);
  }
  return ok;
}

/* Records a root output's new value; a null one leaves the state, as in
** Terraform (the state holds no null outputs). */
static bool record_output(Arena *a, StMgr *m, State *state, const char *name,
                          Value val, bool sensitive, Diags *d)
{
  Value plain = val_unmark_deep(a, val);
  if (val_is_null(plain))
    return !st_find_output(state, name) ||
           stmgr_record_output_remove(m, state, name, d);
  return stmgr_record_output(m, state, name, plain, plain.type, sensitive,
                             d);
}

bool eng_apply(Engine *e, Plan *p, State *state, StMgr *m, Diags *d)
{
  Arena *a = e->a;
  e->phase = PH_APPLY;
  eng_set_plan(e, p);
  e->state = state;
  e->mgr = m;
  e->nfl = (uint32_t)e->nworkers;
  e->fl = ARENA_NEW(a, Flight, e->nfl);
  for (uint32_t i = 0; i < e->nfl; i++)
    pthread_mutex_init(&e->fl[i].mu, NULL);
  m->state_mu = &e->mu;   /* record applies and our state lookups exclude
                             each other (stmgr.h) */
  e->o.mode = p->mode;
  eng_map_init(&e->changes, a, p->nchanges);
  for (uint32_t i = 0; i < p->nchanges; i++) {
    PlChange *c = &p->changes[i];
    const char *k = c->deposed ? arena_printf(a, "%s %s", c->addr, c->deposed)
                               : c->addr;
    eng_map_put(&e->changes, k, i);
    if (!c->schema)
      c->schema = eng_schema(e, c->mode, c->provider_name, c->type);
  }
  set_vars(e, p->vars, p->nvars);
  if (!eng_parse_targets(e, p->targets, p->ntargets, d))
    return false;
  /* the plan was made after moving; move the working state the same way
  ** and make that durable before any operation */
  memset(&e->moves, 0, sizeof e->moves);
  if (!rf_apply_moves(a, e->tree, state, &e->moves, d) ||
      !eng_move_types(e, state, d))
    return false;
  if (e->moves.n && !stmgr_commit(m, state, d))
    return false;
  reset_nodes(e);
  if (!eng_build_graph(e, state, d))
    return false;
  bool ok = true;
  if (p->mode != PL_MODE_REFRESH_ONLY) {
    /* Workers record without waiting for each fdatasync: each resource
    ** node's records are made durable together when its last piece ends
    ** (sub, engine_walk.c), intents still wait, and what a stopped walk
    ** recorded is synced here (docs/state.md, "Deferred sync"). */
    m->defer_sync = true;
    ok = eng_walk(e, d);
    m->defer_sync = false;
    if (!stmgr_sync(m, d))
      ok = false;
    if (ok && p->ninvokes && !eng_run_cli_actions(e, p, d))
      ok = false;   /* -invoke: after the (change-free) walk */
  } else {
    /* nothing is walked: the refreshed state is the result, with the
    ** output values the plan showed (so plan and apply agree) */
    for (uint32_t i = 0; i < p->noutputs; i++) {
      const PlOutput *po = &p->outputs[i];
      if (po->action == PL_DELETE) {
        if (!stmgr_record_output_remove(m, state, po->name, d))
          return false;
      } else if (po->action != PL_NOOP && val_is_wholly_known(po->after)) {
        if (!record_output(a, m, state, po->name, po->after, po->sensitive,
                           d))
          return false;
      }
    }
  }
  /* data sources no longer configured (all of them when destroying):
  ** collected first, because removing the last instance of a resource
  ** removes the resource from state->res */
  StResource **gone = ARENA_NEW(a, StResource *, state->nres + 1);
  uint32_t ngone = 0;
  for (uint32_t i = 0; i < state->nres; i++) {
    StResource *sr = state->res[i];
    uint32_t u;
    if (sr->mode != ST_DATA || e->ntg)
      continue;
    if (p->mode == PL_MODE_DESTROY ||
        !eng_map_get(&e->by_name, st_static_path(a, sr->addr), &u) ||
        eng_mi_find(e->nodes[u].mod, sr->module) == UINT32_MAX)
      gone[ngone++] = sr;
  }
  for (uint32_t i = 0; i < ngone; i++) {
    StResource *sr = gone[i];
    uint32_t k = sr->ninst;
    StKey *keys = ARENA_NEW(a, StKey, k + 1);
    for (uint32_t j = 0; j < k; j++)
      keys[j] = sr->inst[j]->key;
    for (uint32_t j = 0; j < k; j++)
      if (!stmgr_record_remove(m, state, sr, keys[j], NULL, d))
        return false;
  }
  /* outputs */
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    if (n->kind != N_OUTPUT || n->mod != e->root || !n->finished ||
        n->untargeted || !n->vals || !n->vals[0].type)
      continue;
    Value val = n->vals[0];
    if (!val_is_wholly_known(val))
      continue;
    if (!record_output(a, m, state, n->out->name, val, n->out->sensitive, d))
      return false;
  }
  for (uint32_t i = 0; i < state->noutputs;) {
    const char *nm = state->outputs[i].name;
    if (!e->ntg && (p->mode == PL_MODE_DESTROY || !cfg_output(e->m, nm))) {
      if (!stmgr_record_output_remove(m, state, nm, d))
        return false;
      continue;
    }
    i++;
  }
  if (e->ntg)
    diag_warning(d, NULL, "Applied changes may be incomplete",
                 "The plan was created with the -target option in effect, "
                 "so some changes requested in the configuration may have "
                 "been ignored and the output values may not be fully "
                 "updated. Run the following command to verify that no "
                 "other changes are pending:\n    cairn plan\n\nNote that "
                 "the -target option is not suitable for routine use, and "
                 "is provided only for exceptional situations such as "
                 "recovering from errors or mistakes, or when cairn "
                 "specifically suggests to use it as part of an error "
                 "message.");
  return ok && !diag_has_errors(d);
}

void eng_set_import(Engine *e, const char *addr, const char *id)
{
  e->o.import_addr = addr;
  e->o.import_id = id;
}

bool eng_record_import(Engine *e, const PlChange *c, State *state, StMgr *m,
                       Diags *d)
{
  uint32_t v = eng_change_node(e, c);
  if (v == UINT32_MAX || !c->importing) {
    diag_error(d, NULL, "Import failed",
               "The plan has no import for %s.", c->addr);
    return false;
  }
  Node *n = &e->nodes[v];
  StObject *o = eng_make_obj(e, e->a, n, c->before, c->priv, c->before, d);
  if (!o)
    return false;
  StResource *sr = st_ensure_resource(state, c->module, n->mode, n->type,
                                      n->rname, n->ps->state_addr);
  return stmgr_record_set(m, state, sr, c->key, NULL, o, NULL, d);
}

const ProvBlockSchema *eng_schema(const Engine *e, StMode mode,
                                  const char *provider_fqn, const char *type)
{
  for (uint32_t i = 0; i < e->nslots; i++)
    if (strcmp(e->slots[i].fqn, provider_fqn) == 0) {
      const ProvTypeSchema *t = eng_type_schema(&e->slots[i], mode, type);
      if (t)
        return t->schema.block;
    }
  return NULL;
}

bool eng_decode_object(Engine *e, Arena *a, const StResource *r,
                       const StObject *o, Value *out,
                       const ProvBlockSchema **schema)
{
  Diags d;
  diag_init(&d, a);
  ProvSlot *ps = eng_state_slot(e, r->provider, &d);
  if (!ps || !ps->prov)
    return false;
  Node n;
  memset(&n, 0, sizeof n);
  n.ps = ps;
  n.addr = r->addr;
  n.type = r->type;
  n.mode = r->mode;
  n.tschema = eng_type_schema(ps, r->mode, r->type);
  if (!n.tschema)
    return false;
  if (!eng_decode_obj(e, a, &n, NULL, o, out, &d))
    return false;
  *schema = n.tschema->schema.block;
  return true;
}

void eng_close(Engine *e)
{
  if (!e || e->closed)
    return;
  e->closed = true;
  if (e->pool)
    pool_free(e->pool);
  for (uint32_t i = 0; i < e->nslots; i++)
    if (e->slots[i].prov)
      prov_close(e->slots[i].prov);
  eng_fns_close(e);
  if (e->warena)
    for (int i = 0; i < e->nworkers; i++)
      arena_release(&e->warena[i]);
  pthread_mutex_destroy(&e->mu);
}

/* Resource nodes reachable from v through non-resource nodes; seen[u] ==
** stamp marks nodes visited for the current source. */
static void dot_deps(Engine *e, uint32_t v, uint32_t *seen, uint32_t stamp,
                     Buf *out, const char *from)
{
  for (uint32_t i = e->g.dep_start[v]; i < e->g.dep_start[v + 1]; i++) {
    uint32_t u = e->g.deps[i];
    if (seen[u] == stamp)
      continue;
    seen[u] = stamp;
    Node *n = &e->nodes[u];
    if (n->kind == N_RESOURCE || n->kind == N_ORPHAN)
      buf_printf(out, "  \"%s\" -> \"%s\";\n", from, n->addr);
    else if (n->kind != N_PROVIDER)
      dot_deps(e, u, seen, stamp, out, from);
  }
}

static int cmp_node_addr(const void *a, const void *b)
{
  return strcmp((*(Node *const *)a)->addr, (*(Node *const *)b)->addr);
}

bool eng_graph_dot(Engine *e, State *s, Buf *out, Diags *d)
{
  e->phase = PH_PLAN;
  e->state = s;
  set_vars(e, e->o.vars, e->o.nvars);
  reset_nodes(e);
  if (!eng_build_graph(e, s, d))
    return false;
  buf_puts(out, "digraph G {\n  rankdir = \"RL\";\n  node [shape = rect, "
                "fontname = \"sans-serif\"];\n");
  /* resources sorted by address for a stable drawing */
  Node **ord = ARENA_NEW(e->a, Node *, e->nnodes ? e->nnodes : 1);
  uint32_t k = 0;
  for (uint32_t v = 0; v < e->nnodes; v++)
    if (e->nodes[v].kind == N_RESOURCE || e->nodes[v].kind == N_ORPHAN)
      ord[k++] = &e->nodes[v];
  qsort(ord, k, sizeof *ord, cmp_node_addr);
  for (uint32_t i = 0; i < k; i++)
    buf_printf(out, "  \"%s\" [label=\"%s\"];\n", ord[i]->addr,
               ord[i]->addr);
  uint32_t *seen = ARENA_NEW(e->a, uint32_t, e->nnodes ? e->nnodes : 1);
  for (uint32_t i = 0; i < k; i++)
    dot_deps(e, (uint32_t)(ord[i] - e->nodes), seen, i + 1, out,
             ord[i]->addr);
  buf_puts(out, "}\n");
  return true;
}
