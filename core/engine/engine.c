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
*/
#include "engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/convert.h"
#include "base/dag.h"
#include "base/json.h"
#include "base/pool.h"
#include "config/validate.h"
#include "lang/eval.h"
#include "lifecycle.h"
#include "objchange.h"
#include "planfile.h"
#include "providers/decode.h"
#include "provisioner.h"
#include "refactor.h"

#ifndef CAIRN_VERSION
#define CAIRN_VERSION "0.0.0"
#endif

#define CHUNK 64   /* instances per piece: amortises pool overhead */

typedef enum NodeKind {
  N_PROVIDER,
  N_LOCAL,
  N_OUTPUT,
  N_RESOURCE,
  N_ORPHAN,
  N_VAR,        /* an input variable of a child module */
  N_CALL,       /* a module call: expands the child module's instances */
  N_DESTROY,    /* apply: deletes of a configured resource's instances
                   (removed keys, the first half of -/+), run before the
                   resource node and after the deletes of its dependents */
  N_DEPOSED     /* apply: deletes of the objects a +/- replace deposed,
                   run after the dependents have moved to the new ones */
} NodeKind;

/* count/for_each data of one instance (resource or module). */
typedef struct Rep {
  bool has_count;
  int64_t count_index;
  bool has_each;
  Value each_key, each_value;
} Rep;

/* One instance of a module: the root, or one key of a module call in one
** instance of the calling module. */
typedef struct MInst {
  const char *addr;         /* "" (root), module.a["x"].module.b[0] */
  uint32_t parent;          /* index in the parent EMod's mi */
  StKey key;
  Rep rep;
} MInst;

/* A static module (a node of the configuration tree).  Its instances are
** known once its call node has been visited; every node of the module
** depends on that call node. */
typedef struct EMod {
  const CfgTree *t;
  struct EMod *parent;
  struct EMod **children;   /* per t->m->calls[i]; NULL if not loaded */
  const char *prefix;       /* "" or "module.a.module.b." for node names */
  uint32_t call_node;       /* UINT32_MAX for the root */
  MInst *mi;
  uint32_t nmi;
  uint32_t *child_start;    /* call node only: child instances of parent
                               instance p are [child_start[p],
                               child_start[p+1]) of the child's mi */
} EMod;

typedef struct ProvSlot {
  const char *mod_path;     /* static path of the module configuring it */
  const char *local_name;
  const char *alias;
  const char *fqn;
  const char *state_addr;   /* provider["fqn"] or provider["fqn"].alias */
  const CfgProvider *cfg;   /* NULL: empty configuration */
  Prov *prov;
  ProvProviderSchema *schema;
  bool builtin;
  uint32_t node;
} ProvSlot;

typedef struct Inst {
  StKey key;
  const char *addr;
  const char *module;       /* module instance address, "" for root */
  uint32_t mi;              /* module instance; UINT32_MAX: not expanded */
  const char *deposed;      /* a deposed object (planned for delete) */
  bool in_config;
  bool no_module;           /* its module instance is not declared */
  Rep rep;
  const StObject *prior;    /* the prior object (current or deposed) */
  PlChange *change;         /* planned change (plan) / the change to apply */
  PlChange *drift;
  Value value;              /* published instance value */
  bool refreshed;           /* plan: refreshed object below replaces prior */
  StObject *new_obj;        /* plan: refreshed or read object (NULL: gone) */
  EngEvent *ev_head, *ev_tail;
  uint32_t flight;          /* apply: its slot in Engine.fl while a
                               provider operation runs */
  Diags diags;
  bool diags_ready;
  bool failed;
} Inst;

typedef struct Node {
  NodeKind kind;
  const char *name;         /* for cycle messages */
  EMod *mod;                /* the module the node belongs to */
  const CfgResource *res;
  const CfgResource *lc_res;  /* destroy mode: the still-configured block
                                 whose prevent_destroy applies */
  const CfgLocal *local;
  const CfgOutput *out;
  const CfgVariable *var;   /* N_VAR */
  EMod *child;              /* N_CALL: the called module */
  ProvSlot *ps;             /* provider of a resource / the slot itself */
  StResource **srs;         /* prior state resources (one per module
                               instance), sorted by module address */
  uint32_t nsrs;
  const char *addr;         /* static resource address (with module path) */
  StMode mode;
  const char *type;
  const char *rname;
  const ProvTypeSchema *tschema;
  int repetition;           /* 0 none, 1 count, 2 for_each */
  Inst *inst;
  uint32_t ninst;
  uint32_t chunk;           /* instances per piece (fanout) */
  Value *vals;              /* per module instance: the local, variable or
                               output value, or the resource's aggregate */
  bool pending;             /* a planned change exists (data deferral) */
  bool disabled;            /* lifecycle { enabled = false } */
  bool untargeted;          /* -target in effect and not selected: read
                               only (state values, no change) */
  bool tfilter;             /* selected by instance or module-instance
                               targets: only matching instances plan */
  bool cbd;                 /* create_before_destroy, own or propagated
                               from a dependent (seed 002) */
  uint32_t target;          /* N_DESTROY/N_DEPOSED: the resource node */
  uint32_t pre, post;       /* N_RESOURCE in apply: its N_DESTROY /
                               N_DEPOSED node, or UINT32_MAX */
  const PlChange **work;    /* N_DESTROY/N_DEPOSED: the changes to do */
  uint32_t nwork;
  const char *const *deps;  /* static resource addresses it refers to */
  uint32_t ndeps;
  Diags diags;
  bool diags_ready;
  bool flushed;
  bool finished;            /* done() has seen it */
} Node;

typedef struct StrMap {
  const char **keys;
  uint32_t *vals;
  uint32_t cap;
} StrMap;

typedef enum Phase { PH_PLAN, PH_APPLY } Phase;

/* An apply operation in flight, for the "Still creating..." heartbeats:
** written by its worker under Engine.mu, read by the owner's tick. */
typedef struct Flight {
  bool used;
  Inst *in;
  PlAction act;
  const PlChange *change;
  double start;
  EngEvent *start_ev;       /* its APPLY_START event, once added */
  uint32_t beats;           /* heartbeats delivered */
} Flight;

struct Engine {
  Arena *a;
  const CfgTree *tree;
  const CfgModule *m;       /* the root module */
  EMod *root;
  SrcFiles *files;
  EngOpts o;
  ProvSlot *slots;
  uint32_t nslots;
  Node *nodes;
  uint32_t nnodes;
  uint32_t cap_nodes;
  StrMap by_name;           /* "local.x", "t.n", "data.t.n", "output.x" */
  Dag g;
  uint32_t *topo;           /* event/diag order */
  uint32_t topo_pos;
  Pool *pool;
  Arena *warena;            /* per worker: results */
  int nworkers;
  pthread_mutex_t mu;       /* prior_state / plan collections */
  Phase phase;
  State *state;             /* plan: refreshed copy; apply: working state */
  StMgr *mgr;
  Plan *plan;
  StrMap changes;           /* apply: address(+deposed) -> change index */
  RfMoves moves;            /* moved blocks applied to the state */
  StrMap imports;           /* plan: instance address -> import id index */
  const char **import_ids;
  const char **import_addrs;
  const SrcRange **import_ranges;
  uint8_t *import_used;     /* set by the (one) instance that imports it */
  uint32_t nimports;
  Value *varvals;
  const char **dkeys;       /* apply: deposed key a +/- change used, by
                               change index (for its N_DEPOSED node) */
  const char *cwd;
  Flight *fl;               /* apply: one slot per worker */
  uint32_t nfl;
  double beat;              /* heartbeat period, seconds */
  bool stop_sent;           /* StopProvider sent after an interrupt */
  struct Target *tg;        /* -target addresses (plan: the options';
                               apply: the plan's) */
  uint32_t ntg;
  bool closed;
};

/* ---- small utilities ---------------------------------------------------- */

static uint32_t str_hash(const char *s)
{
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

static void map_init(StrMap *m, Arena *a, uint32_t n)
{
  uint32_t cap = 16;
  while (cap < n * 2 + 2)
    cap *= 2;
  m->cap = cap;
  m->keys = ARENA_NEW(a, const char *, cap);
  m->vals = ARENA_NEW(a, uint32_t, cap);
}

static void map_put(StrMap *m, const char *k, uint32_t v)
{
  uint32_t i = str_hash(k) & (m->cap - 1);
  while (m->keys[i] && strcmp(m->keys[i], k) != 0)
    i = (i + 1) & (m->cap - 1);
  m->keys[i] = k;
  m->vals[i] = v;
}

static bool map_get(const StrMap *m, const char *k, uint32_t *v)
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

static double now_sec(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static Arena *worker_arena(Engine *e, PoolWorker *w)
{
  return &e->warena[w->id];
}

static Diags *inst_diags(Inst *in, Arena *a)
{
  if (!in->diags_ready) {
    diag_init(&in->diags, a);
    in->diags_ready = true;
  }
  return &in->diags;
}

static Diags *node_diags(Node *n, Arena *a)
{
  if (!n->diags_ready) {
    diag_init(&n->diags, a);
    n->diags_ready = true;
  }
  return &n->diags;
}

static void add_event(Arena *a, Inst *in, EngEventKind k, PlAction act,
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
static Diag *inst_error(Diags *d, const Node *n, const Inst *in,
                        const char *summary, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static Diag *inst_error(Diags *d, const Node *n, const Inst *in,
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
static void attribute_prov_diags(Diags *d, Diag *mark, const Node *n,
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

static const char *bug_suffix =
    "\n\nThis is a bug in the provider, which should be reported in the "
    "provider's own issue tracker.";

/* ---- values to and from the state ---------------------------------------- */

/* cty's TestConformance: have is want, with dynamic in want accepting
** anything. */
static bool conforms(const Type *have, const Type *want)
{
  if (want->kind == TY_DYNAMIC || have == want)
    return true;
  if (have->kind != want->kind)
    return false;
  switch (want->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    return conforms(have->elem, want->elem);
  case TY_OBJECT:
  case TY_TUPLE:
    if (have->n != want->n)
      return false;
    for (uint32_t i = 0; i < want->n; i++) {
      if (want->kind == TY_OBJECT && strcmp(have->names[i], want->names[i]))
        return false;
      if (!conforms(have->types[i], want->types[i]))
        return false;
    }
    return true;
  default:
    return true;
  }
}

static const Type *implied(Engine *e, const ProvBlockSchema *b)
{
  return prov_schema_implied_type(e->a, b);
}

/* Marks the values at the given paths sensitive. */
static Value mark_path(Arena *a, Value v, const PathStep *s, uint32_t n)
{
  if (n == 0)
    return val_sensitive(v);
  if (val_is_null(v) || val_is_unknown(v))
    return v;
  const Type *t = v.type;
  if ((s->kind == PS_ATTR || s->kind == PS_KEY) && t->kind == TY_OBJECT) {
    int i = ty_attr_index(t, s->name);
    if (i < 0)
      return v;
    Value *el = ARENA_NEW(a, Value, t->n);
    memcpy(el, v.u.elems, sizeof(Value) * t->n);
    el[i] = mark_path(a, el[i], s + 1, n - 1);
    Value r = v;
    r.u.elems = el;
    return r;
  }
  if (s->kind == PS_INDEX && (t->kind == TY_LIST || t->kind == TY_TUPLE) &&
      s->index >= 0 && (uint32_t)s->index < v.len) {
    Value *el = ARENA_NEW(a, Value, v.len);
    memcpy(el, v.u.elems, sizeof(Value) * v.len);
    el[s->index] = mark_path(a, el[s->index], s + 1, n - 1);
    Value r = v;
    r.u.elems = el;
    return r;
  }
  if (s->kind == PS_KEY && t->kind == TY_MAP) {
    MapEntry *en = ARENA_NEW(a, MapEntry, v.len ? v.len : 1);
    memcpy(en, v.u.entries, sizeof(MapEntry) * v.len);
    for (uint32_t i = 0; i < v.len; i++)
      if (strcmp(en[i].key, s->name) == 0)
        en[i].val = mark_path(a, en[i].val, s + 1, n - 1);
    Value r = v;
    r.u.entries = en;
    return r;
  }
  return v;
}

/* Collects the paths of sensitive marks in v (outermost only). */
typedef struct PathList {
  ValPath *items;
  uint32_t n, cap;
} PathList;

static void collect_marks(Arena *a, Value v, PathStep *stack, uint32_t depth,
                          PathList *out)
{
  if (val_is_sensitive(v)) {
    if (out->n == out->cap) {
      uint32_t nc = out->cap ? out->cap * 2 : 4;
      ValPath *ni = ARENA_NEW(a, ValPath, nc);
      if (out->n)
        memcpy(ni, out->items, sizeof(ValPath) * out->n);
      out->items = ni;
      out->cap = nc;
    }
    PathStep *cp = ARENA_NEW(a, PathStep, depth ? depth : 1);
    if (depth)
      memcpy(cp, stack, sizeof(PathStep) * depth);
    out->items[out->n++] = (ValPath){cp, depth};
    return;
  }
  if (val_is_null(v) || val_is_unknown(v) || depth >= 64)
    return;
  const Type *t = v.type;
  switch (t->kind) {
  case TY_OBJECT:
    for (uint32_t i = 0; i < t->n; i++) {
      stack[depth] = (PathStep){PS_ATTR, t->names[i], 0};
      collect_marks(a, v.u.elems[i], stack, depth + 1, out);
    }
    break;
  case TY_LIST:
  case TY_TUPLE:
  case TY_SET:
    for (uint32_t i = 0; i < v.len; i++) {
      stack[depth] = (PathStep){PS_INDEX, NULL, (int64_t)i};
      collect_marks(a, v.u.elems[i], stack, depth + 1, out);
    }
    break;
  case TY_MAP:
    for (uint32_t i = 0; i < v.len; i++) {
      stack[depth] = (PathStep){PS_KEY, v.u.entries[i].key, 0};
      collect_marks(a, v.u.entries[i].val, stack, depth + 1, out);
    }
    break;
  default:
    break;
  }
}

/* Copies the sensitive marks of `from` onto `to` where the shapes agree
** (config-derived marks onto the provider's planned value). */
static Value copy_marks(Arena *a, Value to, Value from)
{
  PathList pl = {0};
  PathStep stack[64];
  collect_marks(a, from, stack, 0, &pl);
  for (uint32_t i = 0; i < pl.n; i++)
    to = mark_path(a, to, pl.items[i].steps, pl.items[i].n);
  return to;
}

/* The typed, marked value of a state object.  False with a diagnostic on
** attributes that do not fit the schema. */
static bool decode_obj(Engine *e, Arena *a, const Node *n, const Inst *in,
                       const StObject *o, Value *out, Diags *d)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  const Type *t = implied(e, b);
  if (val_is_null(o->attrs)) {
    inst_error(d, n, in, "Unsupported state",
               "The state object of %s uses the legacy attributes_flat "
               "form, which cairn cannot read.", in ? in->addr : n->addr);
    return false;
  }
  Value v;
  if (o->schema_version == (uint64_t)n->tschema->schema.version) {
    Diags tmp;
    diag_init(&tmp, a);
    if (!json_value_typed(a, o->attrs, t, &v, &tmp, NULL)) {
      Diag *g = inst_error(d, n, in, "Invalid resource state",
                           "The state of %s does not match the schema of "
                           "%s: %s", in ? in->addr : n->addr, n->type,
                           tmp.head ? tmp.head->detail : "");
      (void)g;
      return false;
    }
  } else {
    /* UpgradeResourceState with the JSON text. */
    Buf js;
    buf_init(&js, a);
    if (!json_write_value(&js, o->attrs, NULL, 0, d))
      return false;
    ProvCall c = {a, d, NULL};
    ProvUpgradeReq rq = {n->type, (int64_t)o->schema_version, js.p,
                         js.len};
    ProvUpgradeResp rs = {{0}};
    n->ps->prov->ops->upgrade_resource_state(n->ps->prov, &c, &rq, &rs);
    if (diag_has_errors(d))
      return false;
    if (!rs.upgraded_state.type) {
      inst_error(d, n, in, "Invalid resource state upgrade",
                 "Provider \"%s\" returned no state for %s.", n->ps->fqn,
                 in ? in->addr : n->addr);
      return false;
    }
    v = rs.upgraded_state;
  }
  v = prov_mark_sensitive(a, b, v);
  for (uint32_t i = 0; i < o->nsensitive; i++)
    v = mark_path(a, v, o->sensitive[i].steps, o->sensitive[i].n);
  *out = v;
  return true;
}

/* A state object for value v (typed, marked): attributes as generic JSON
** written against the schema type; sensitive_attributes from the marks
** that are not the schema's own. */
static StObject *make_obj(Engine *e, Arena *a, const Node *n, Value v,
                          ProvBytes priv, Value config_marks, Diags *d)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  StObject *o = ARENA_NEW(a, StObject, 1);
  Buf js;
  buf_init(&js, a);
  Value plain = val_unmark_deep(a, v);
  if (!json_write_value(&js, plain, implied(e, b), JSON_W_UNKNOWN_NULL, d))
    return NULL;
  if (!json_parse(a, js.p, js.len, &o->attrs, d, NULL))
    return NULL;
  o->attrs_flat = val_dynamic_null;
  o->schema_version = (uint64_t)n->tschema->schema.version;
  o->priv = priv.p;
  o->priv_len = priv.n;
  PathList pl = {0};
  PathStep stack[64];
  if (config_marks.type)
    collect_marks(a, config_marks, stack, 0, &pl);
  o->sensitive = pl.items;
  o->nsensitive = pl.n;
  o->deps = n->deps;
  o->ndeps = n->ndeps;
  o->create_before_destroy = n->cbd;
  o->status = ST_READY;
  return o;
}

/* ---- scope: resolving references ------------------------------------------ */

typedef struct Scope {
  Engine *e;
  const Node *n;
  const EMod *mod;          /* the module the expression is in */
  uint32_t mi;              /* its instance */
  const Rep *rep;           /* count/each, or NULL */
} Scope;

/* The node named prefix+name, or false. */
static bool find_node(const Engine *e, const EMod *mod, const char *name,
                      uint32_t *idx)
{
  char key[1024];
  snprintf(key, sizeof key, "%s%s", mod->prefix, name);
  return map_get(&e->by_name, key, idx);
}

static Value node_val(const Node *n, uint32_t mi)
{
  if (!n->vals || mi == UINT32_MAX || !n->vals[mi].type)
    return val_dynamic_unknown;
  return n->vals[mi];
}

/* The object of a module instance's outputs. */
static Value module_object(Engine *e, Arena *a, const Node *call, uint32_t cmi)
{
  const CfgModule *cm = call->child->t->m;
  const char **names = ARENA_NEW(a, const char *, cm->noutputs + 1);
  Value *vals = ARENA_NEW(a, Value, cm->noutputs + 1);
  for (uint32_t i = 0; i < cm->noutputs; i++) {
    uint32_t u;
    names[i] = cm->outputs[i].name;
    vals[i] = find_node(e, call->child,
                        arena_printf(a, "output.%s", names[i]), &u)
                  ? node_val(&e->nodes[u], cmi)
                  : val_dynamic_unknown;
  }
  return val_object(a, cm->noutputs, names, vals);
}

/* module.NAME (whole, or one key), or module.NAME[KEY].OUT. */
static EvalResolveResult resolve_module(EvalCtx *ctx, Scope *s,
                                        const EvalRef *r, uint32_t *consumed,
                                        Value *out)
{
  Engine *e = s->e;
  uint32_t idx;
  if (!find_node(e, s->mod, arena_printf(ctx->arena, "module.%s", r->name),
                 &idx)) {
    diag_error(ctx->diags, &r->range, "Reference to undeclared module",
               "No module call named \"%s\" is declared in %s.", r->name,
               s->mod->t->path[0] ? s->mod->t->path : "the root module");
    return EVAL_RES_ERROR;
  }
  const Node *call = &e->nodes[idx];
  const EMod *ch = call->child;
  const CfgModuleCall *mc = ch->t->call;
  int rep = mc->count ? 1 : mc->for_each ? 2 : 0;
  if (!ch->child_start) {   /* expansion failed */
    *out = val_dynamic_unknown;
    *consumed = r->consumed;
    return EVAL_RES_OK;
  }
  uint32_t lo = ch->child_start[s->mi], hi = ch->child_start[s->mi + 1];
  if (r->has_key || rep == 0) {
    uint32_t cmi = UINT32_MAX;
    if (rep == 0) {
      if (r->has_key) {
        diag_error(ctx->diags, &r->range, "Invalid index",
                   "Module \"%s\" does not have count or for_each set, so "
                   "it cannot be indexed.", r->name);
        return EVAL_RES_ERROR;
      }
      if (lo < hi)
        cmi = lo;
    } else {
      for (uint32_t i = lo; i < hi && cmi == UINT32_MAX; i++) {
        StKey k = ch->mi[i].key;
        if (rep == 1 && r->key.type->kind == TY_NUMBER) {
          int64_t want;
          if (val_num_int(r->key, &want) && k.kind == ST_INTKEY &&
              k.i == want)
            cmi = i;
        } else if (rep == 2 && r->key.type->kind == TY_STRING &&
                   k.kind == ST_STRKEY && strcmp(k.s, r->key.u.s) == 0) {
          cmi = i;
        }
      }
      if (cmi == UINT32_MAX) {
        diag_error(ctx->diags, &r->range, "Invalid index",
                   "The given key does not identify an element in this "
                   "collection value.");
        return EVAL_RES_ERROR;
      }
    }
    if (cmi == UINT32_MAX) {
      *out = val_dynamic_unknown;
    } else if (r->kind == EVAL_REF_MODULE_OUT) {
      uint32_t u;
      if (!find_node(e, ch, arena_printf(ctx->arena, "output.%s", r->attr),
                     &u)) {
        diag_error(ctx->diags, &r->range, "Unsupported attribute",
                   "This object does not have an attribute named \"%s\".",
                   r->attr);
        return EVAL_RES_ERROR;
      }
      *out = node_val(&e->nodes[u], cmi);
    } else {
      *out = module_object(e, ctx->arena, call, cmi);
    }
    *consumed = r->consumed;
    return EVAL_RES_OK;
  }
  /* the whole call: a tuple (count) or an object by key (for_each) */
  uint32_t n = hi - lo;
  Value *vals = ARENA_NEW(ctx->arena, Value, n + 1);
  const char **names = ARENA_NEW(ctx->arena, const char *, n + 1);
  for (uint32_t i = 0; i < n; i++) {
    vals[i] = module_object(e, ctx->arena, call, lo + i);
    names[i] = ch->mi[lo + i].key.s;
  }
  *out = rep == 1 ? val_tuple(ctx->arena, vals, n)
                  : val_object(ctx->arena, n, names, vals);
  /* module.NAME.OUT on a repeated module: let the evaluator report the
  ** attribute access on a tuple/object of objects */
  *consumed = r->kind == EVAL_REF_MODULE_OUT ? r->consumed - 1 : r->consumed;
  return EVAL_RES_OK;
}

static EvalResolveResult resolve(EvalCtx *ctx, const HclTraversal *t,
                                 uint32_t *consumed, Value *out)
{
  Scope *s = ctx->resolve_data;
  Engine *e = s->e;
  EvalRef r;
  if (!eval_parse_ref(t, &r, ctx->diags))
    return EVAL_RES_ERROR;
  uint32_t idx;
  switch (r.kind) {
  case EVAL_REF_VAR:
    if (!s->mod->parent) {
      for (uint32_t i = 0; i < e->m->nvariables; i++)
        if (strcmp(e->m->variables[i].name, r.name) == 0) {
          *out = e->varvals[i];
          *consumed = 2;
          return EVAL_RES_OK;
        }
    } else if (find_node(e, s->mod, arena_printf(ctx->arena, "var.%s",
                                                 r.name), &idx)) {
      *out = node_val(&e->nodes[idx], s->mi);
      *consumed = 2;
      return EVAL_RES_OK;
    }
    diag_error(ctx->diags, &r.range, "Reference to undeclared input variable",
               "An input variable with the name \"%s\" has not been "
               "declared. This variable can be declared with a variable "
               "\"%s\" {} block.", r.name, r.name);
    return EVAL_RES_ERROR;
  case EVAL_REF_LOCAL:
    if (!find_node(e, s->mod, arena_printf(ctx->arena, "local.%s", r.name),
                   &idx)) {
      diag_error(ctx->diags, &r.range, "Reference to undeclared local value",
                 "A local value with the name \"%s\" has not been declared.",
                 r.name);
      return EVAL_RES_ERROR;
    }
    *out = node_val(&e->nodes[idx], s->mi);
    *consumed = 2;
    return EVAL_RES_OK;
  case EVAL_REF_MODULE:
  case EVAL_REF_MODULE_OUT:
    return resolve_module(ctx, s, &r, consumed, out);
  case EVAL_REF_RESOURCE:
  case EVAL_REF_DATA: {
    const char *nm = arena_printf(ctx->arena, "%s%s.%s",
                                  r.kind == EVAL_REF_DATA ? "data." : "",
                                  r.type, r.name);
    if (!find_node(e, s->mod, nm, &idx) || e->nodes[idx].kind != N_RESOURCE) {
      diag_error(ctx->diags, &r.range, "Reference to undeclared resource",
                 "A %sresource \"%s\" \"%s\" has not been declared in %s.",
                 r.kind == EVAL_REF_DATA ? "data " : "managed ", r.type,
                 r.name, s->mod->parent ? s->mod->t->path : "the root module");
      return EVAL_RES_ERROR;
    }
    *out = node_val(&e->nodes[idx], s->mi);
    *consumed = r.kind == EVAL_REF_DATA ? 3 : 2;
    return EVAL_RES_OK;
  }
  case EVAL_REF_COUNT:
    if (!s->rep || !s->rep->has_count) {
      diag_error(ctx->diags, &r.range,
                 "Reference to \"count\" in non-counted context",
                 "The \"count\" object can only be used in \"module\", "
                 "\"resource\", and \"data\" blocks, and only when the "
                 "\"count\" argument is set.");
      return EVAL_RES_ERROR;
    }
    *out = val_int(s->rep->count_index);
    *consumed = 2;
    return EVAL_RES_OK;
  case EVAL_REF_EACH:
    if (!s->rep || !s->rep->has_each) {
      diag_error(ctx->diags, &r.range,
                 "Reference to \"each\" in context without for_each",
                 "The \"each\" object can be used only in \"module\" or "
                 "\"resource\" blocks, and only when the \"for_each\" "
                 "argument is set.");
      return EVAL_RES_ERROR;
    }
    *out = strcmp(r.name, "key") == 0 ? s->rep->each_key
                                      : s->rep->each_value;
    *consumed = 2;
    return EVAL_RES_OK;
  case EVAL_REF_PATH:
    if (strcmp(r.name, "cwd") == 0)
      *out = val_cstr(ctx->arena, e->cwd);
    else if (strcmp(r.name, "module") == 0)
      *out = val_cstr(ctx->arena, s->mod->t->m->dir);
    else
      *out = val_cstr(ctx->arena, e->o.root_dir ? e->o.root_dir : ".");
    *consumed = 2;
    return EVAL_RES_OK;
  case EVAL_REF_TERRAFORM:
    *out = val_cstr(ctx->arena, e->o.workspace ? e->o.workspace : "default");
    *consumed = 2;
    return EVAL_RES_OK;
  default:
    diag_error(ctx->diags, &r.range, "Unsupported reference",
               "This kind of reference is not supported by cairn yet "
               "(self is available only in provisioners and "
               "postconditions).");
    return EVAL_RES_ERROR;
  }
}

static void scope_ctx(EvalCtx *ctx, Scope *s, Engine *e, const Node *n,
                      const EMod *mod, uint32_t mi, const Rep *rep, Arena *a,
                      Diags *d)
{
  eval_ctx_init(ctx, a, d);
  s->e = e;
  s->n = n;
  s->mod = mod;
  s->mi = mi;
  s->rep = rep;
  ctx->resolve = resolve;
  ctx->resolve_data = s;
  ctx->fn.base_dir = e->o.root_dir ? e->o.root_dir : ".";
  if (e->plan && e->plan->timestamp) {
    ctx->fn.has_plan_time = true;
    struct tm tm = {0};
    if (strptime(e->plan->timestamp, "%Y-%m-%dT%H:%M:%SZ", &tm))
      ctx->fn.plan_time_sec = (int64_t)timegm(&tm);
  }
}

/* The scope of a resource instance. */
static void inst_scope(EvalCtx *ctx, Scope *s, Engine *e, const Node *n,
                       const Inst *in, Arena *a, Diags *d)
{
  scope_ctx(ctx, s, e, n, n->mod, in->mi, &in->rep, a, d);
}

/* ---- graph construction ------------------------------------------------ */

static uint32_t add_node(Engine *e, NodeKind k, const char *name)
{
  if (e->nnodes == e->cap_nodes) {
    uint32_t nc = e->cap_nodes ? e->cap_nodes * 2 : 64;
    Node *nn = ARENA_NEW(e->a, Node, nc);
    if (e->nnodes)
      memcpy(nn, e->nodes, sizeof(Node) * e->nnodes);
    e->nodes = nn;
    e->cap_nodes = nc;
  }
  Node *n = &e->nodes[e->nnodes];
  memset(n, 0, sizeof *n);
  n->kind = k;
  n->name = name;
  n->pre = n->post = UINT32_MAX;
  return e->nnodes++;
}

static bool same_alias(const char *a, const char *b)
{
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static ProvSlot *find_slot(Engine *e, const char *mod_path, const char *fqn,
                           const char *alias)
{
  for (uint32_t i = 0; i < e->nslots; i++)
    if (strcmp(e->slots[i].fqn, fqn) == 0 &&
        strcmp(e->slots[i].mod_path, mod_path) == 0 &&
        same_alias(alias, e->slots[i].alias))
      return &e->slots[i];
  return NULL;
}

/* The provider block configuring local.alias in module m, or NULL. */
static const CfgProvider *provider_block(const CfgModule *m,
                                         const char *local, const char *alias)
{
  for (uint32_t i = 0; i < m->nproviders; i++)
    if (strcmp(m->providers[i].name, local) == 0 &&
        same_alias(alias, m->providers[i].alias))
      return &m->providers[i];
  return NULL;
}

static ProvSlot *ensure_slot(Engine *e, const char *mod_path,
                             const CfgProvider *cfg, const char *local,
                             const char *fqn, const char *alias, Diags *d)
{
  ProvSlot *ps = find_slot(e, mod_path, fqn, alias);
  if (ps)
    return ps;
  ProvSlot *ns = ARENA_NEW(e->a, ProvSlot, e->nslots + 1);
  if (e->nslots)
    memcpy(ns, e->slots, sizeof(ProvSlot) * e->nslots);
  /* nodes keep ProvSlot pointers only after all slots exist (see
  ** eng_new), so reallocating here is safe. */
  e->slots = ns;
  ps = &e->slots[e->nslots++];
  memset(ps, 0, sizeof *ps);
  ps->mod_path = mod_path;
  ps->local_name = local;
  ps->alias = alias;
  ps->fqn = fqn;
  ps->state_addr = arena_printf(e->a, "%s%sprovider[\"%s\"]%s%s", mod_path,
                                mod_path[0] ? "." : "", fqn,
                                alias ? "." : "", alias ? alias : "");
  ps->builtin = prov_lookup_builtin(fqn) != NULL;
  ps->cfg = cfg;
  ps->prov = e->o.open_provider(e->o.open_ctx, fqn, d);
  if (ps->prov) {
    ProvCall c = {ps->prov->arena ? ps->prov->arena : e->a, d, NULL};
    const ProvProviderSchema *sch = NULL;
    ps->prov->ops->get_schema(ps->prov, &c, &sch);
    if (sch) {
      ps->schema = prov_schema_clone(e->a, sch);
      prov_schema_prepare(e->a, ps->schema);
    }
  }
  return ps;
}

/* The slot a reference to provider local.alias from module t resolves to:
** the module's own provider block, else what its caller passes in the
** `providers` map, else (default configurations only) the caller's
** configuration of the same name, up to the root, where an absent block is
** an empty configuration.  fqn is fixed by the module that uses it. */
static ProvSlot *provider_for(Engine *e, const CfgTree *t, const char *local,
                              const char *alias, const char *fqn,
                              const SrcRange *rg, Diags *d)
{
  for (;;) {
    const CfgProvider *cp = provider_block(t->m, local, alias);
    if (cp || !t->parent)
      return ensure_slot(e, t->path, cp, local, fqn, alias, d);
    const CfgModuleCall *mc = t->call;
    bool passed = false;
    for (uint32_t i = 0; i < mc->nproviders && !passed; i++)
      if (strcmp(mc->providers[i].in_child.name, local) == 0 &&
          same_alias(alias, mc->providers[i].in_child.alias)) {
        local = mc->providers[i].in_parent.name;
        alias = mc->providers[i].in_parent.alias;
        passed = true;
      }
    if (!passed && alias) {
      diag_error(d, rg, "Provider configuration not present",
                 "The configuration for %s needs the provider configuration "
                 "%s.%s, which module \"%s\" does not receive: add it to the "
                 "call's providers argument, e.g. providers = { %s.%s = "
                 "%s.%s }.", t->path, local, alias, mc->name, local, alias,
                 local, alias);
      return NULL;
    }
    t = t->parent;
  }
}

/* The provider slot a configured resource of module t uses. */
static ProvSlot *resource_slot(Engine *e, const CfgTree *t,
                               const CfgResource *r, Diags *d)
{
  const char *local = cfg_resource_provider_name(r);
  const char *src = cfg_provider_source(t->m, local);
  if (!src)
    src = local;   /* not in required_providers: hashicorp/<local> */
  const char *fqn = prov_source_normalize(e->a, src, &r->range, d);
  if (!fqn)
    return NULL;
  return provider_for(e, t, local, r->provider.name ? r->provider.alias : NULL,
                      fqn, &r->range, d);
}

/* Parses [MODULE.]provider["fqn"][.alias] from the state. */
static ProvSlot *state_slot(Engine *e, const char *paddr, Diags *d)
{
  const char *p = strstr(paddr, "provider[\"");
  if (!p) {
    diag_error(d, NULL, "Invalid provider address in state",
               "The state names the provider \"%s\", which is not a valid "
               "provider configuration address.", paddr);
    return NULL;
  }
  const char *mod_path = "";
  if (p > paddr) {
    if (p - paddr < 2 || p[-1] != '.') {
      diag_error(d, NULL, "Invalid provider address in state",
                 "The state names the provider \"%s\".", paddr);
      return NULL;
    }
    mod_path = st_static_path(e->a, arena_strndup(e->a, paddr,
                                               (size_t)(p - paddr - 1)));
  }
  p += 10;
  const char *q = strchr(p, '"');
  if (!q) {
    diag_error(d, NULL, "Invalid provider address in state",
               "The state names the provider \"%s\".", paddr);
    return NULL;
  }
  const char *fqn = arena_strndup(e->a, p, (size_t)(q - p));
  const char *alias = NULL;
  if (q[1] == ']' && q[2] == '.')
    alias = arena_strdup(e->a, q + 3);
  const char *slash = strrchr(fqn, '/');
  const char *local = slash ? slash + 1 : fqn;
  const CfgTree *t = e->tree ? cfg_tree_find(e->tree, mod_path) : NULL;
  const CfgProvider *cp = NULL;
  if (t)
    for (uint32_t i = 0; i < t->m->nproviders && !cp; i++) {
      const char *src = cfg_provider_source(t->m, t->m->providers[i].name);
      Diags q2;
      diag_init(&q2, e->a);
      const char *f = prov_source_normalize(
          e->a, src ? src : t->m->providers[i].name, NULL, &q2);
      if (f && strcmp(f, fqn) == 0 &&
          same_alias(alias, t->m->providers[i].alias))
        cp = &t->m->providers[i];
    }
  if (cp)
    local = cp->name;
  return ensure_slot(e, mod_path, cp, local, fqn, alias, d);
}

static const ProvTypeSchema *type_schema(const ProvSlot *ps, StMode mode,
                                         const char *type)
{
  if (!ps || !ps->schema)
    return NULL;
  return mode == ST_DATA ? prov_schema_data_source(ps->schema, type)
                         : prov_schema_resource(ps->schema, type);
}

/* References to link, each with the module it is evaluated in. */
typedef struct RefList {
  HclTraversal *items;
  EMod **mods;
  uint32_t n, cap;
} RefList;

static void refs_add(Arena *a, RefList *l, EMod *mod, HclTraversal *t,
                     uint32_t n)
{
  if (n == 0)
    return;
  if (l->n + n > l->cap) {
    uint32_t nc = (l->n + n) * 2 + 8;
    HclTraversal *ni = ARENA_NEW(a, HclTraversal, nc);
    EMod **nm = ARENA_NEW(a, EMod *, nc);
    if (l->n) {
      memcpy(ni, l->items, sizeof(HclTraversal) * l->n);
      memcpy(nm, l->mods, sizeof(EMod *) * l->n);
    }
    l->items = ni;
    l->mods = nm;
    l->cap = nc;
  }
  memcpy(l->items + l->n, t, sizeof(HclTraversal) * n);
  for (uint32_t i = 0; i < n; i++)
    l->mods[l->n + i] = mod;
  l->n += n;
}

static void expr_refs(Arena *a, RefList *l, EMod *mod, const HclExpr *x)
{
  if (!x)
    return;
  HclTraversal *t;
  uint32_t n;
  hcl_expr_references(a, x, &t, &n);
  refs_add(a, l, mod, t, n);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void add_dep_edge(Engine *e, DagBuilder *b, uint32_t v, uint32_t u,
                         const char **deps, uint32_t *nd)
{
  if (u == UINT32_MAX || u == v)
    return;
  dag_add_edge(b, v, u);
  if (e->nodes[u].kind == N_RESOURCE && deps)
    deps[(*nd)++] = e->nodes[u].addr;
}

/* Adds edges from node v to every node its references name; records the
** static resource dependencies (state "dependencies") of resources.  A
** reference to module.NAME.OUT depends on that output (and the call); a
** reference to the whole call on every output of the called module. */
static void link_refs(Engine *e, DagBuilder *b, uint32_t v, RefList *l)
{
  Node *n = &e->nodes[v];
  const char **deps = ARENA_NEW(e->a, const char *, l->n + 1);
  uint32_t nd = 0;
  for (uint32_t i = 0; i < l->n; i++) {
    Diags d;
    diag_init(&d, e->a);
    EvalRef r;
    if (!eval_parse_ref(&l->items[i], &r, &d))
      continue;
    EMod *mod = l->mods[i];
    const char *nm = NULL;
    switch (r.kind) {
    case EVAL_REF_LOCAL:
      nm = arena_printf(e->a, "local.%s", r.name);
      break;
    case EVAL_REF_VAR:
      nm = mod->parent ? arena_printf(e->a, "var.%s", r.name) : NULL;
      break;
    case EVAL_REF_RESOURCE:
      nm = arena_printf(e->a, "%s.%s", r.type, r.name);
      break;
    case EVAL_REF_DATA:
      nm = arena_printf(e->a, "data.%s.%s", r.type, r.name);
      break;
    case EVAL_REF_MODULE:
    case EVAL_REF_MODULE_OUT: {
      uint32_t c;
      if (!find_node(e, mod, arena_printf(e->a, "module.%s", r.name), &c))
        break;
      add_dep_edge(e, b, v, c, NULL, NULL);
      EMod *ch = e->nodes[c].child;
      const CfgModuleCall *mc = ch->t->call;
      uint32_t u;
      if (r.kind == EVAL_REF_MODULE_OUT &&
          (r.has_key || (!mc->count && !mc->for_each))) {
        if (find_node(e, ch, arena_printf(e->a, "output.%s", r.attr), &u))
          add_dep_edge(e, b, v, u, NULL, NULL);
        break;
      }
      for (uint32_t k = 0; k < ch->t->m->noutputs; k++)
        if (find_node(e, ch, arena_printf(e->a, "output.%s",
                                          ch->t->m->outputs[k].name), &u))
          add_dep_edge(e, b, v, u, NULL, NULL);
      break;
    }
    default:
      break;
    }
    uint32_t u;
    if (nm && find_node(e, mod, nm, &u))
      add_dep_edge(e, b, v, u, deps, &nd);
  }
  if (n->kind == N_RESOURCE) {
    qsort(deps, nd, sizeof *deps, cmp_str);
    uint32_t k = 0;
    for (uint32_t i = 0; i < nd; i++)
      if (k == 0 || strcmp(deps[k - 1], deps[i]) != 0)
        deps[k++] = deps[i];
    n->deps = deps;
    n->ndeps = k;
  }
}

static const char *res_addr(Arena *a, const EMod *mod, StMode mode,
                            const char *type, const char *name)
{
  return arena_printf(a, "%s%s%s.%s", mod->prefix,
                      mode == ST_DATA ? "data." : "", type, name);
}

/* The static modules of tree t (children first built recursively). */
static EMod *build_mods(Engine *e, const CfgTree *t, EMod *parent)
{
  EMod *m = ARENA_NEW(e->a, EMod, 1);
  m->t = t;
  m->parent = parent;
  m->prefix = t->path[0] ? arena_printf(e->a, "%s.", t->path) : "";
  m->call_node = UINT32_MAX;
  m->children = ARENA_NEW(e->a, EMod *, t->m->ncalls + 1);
  for (uint32_t i = 0; i < t->m->ncalls; i++)
    if (t->children && t->children[i])
      m->children[i] = build_mods(e, t->children[i], m);
  return m;
}

static EMod *emod_find(EMod *m, const char *path)
{
  if (strcmp(m->t->path, path) == 0)
    return m;
  for (uint32_t i = 0; i < m->t->m->ncalls; i++)
    if (m->children[i]) {
      EMod *f = emod_find(m->children[i], path);
      if (f)
        return f;
    }
  return NULL;
}

/* Clears the instances of every module below the root (a new walk
** expands them again). */
static void reset_mods(EMod *m)
{
  if (m->parent) {
    m->mi = NULL;
    m->nmi = 0;
    m->child_start = NULL;
  }
  for (uint32_t i = 0; i < m->t->m->ncalls; i++)
    if (m->children[i])
      reset_mods(m->children[i]);
}

static uint32_t count_items(const EMod *m)
{
  const CfgModule *cm = m->t->m;
  uint32_t n = cm->nlocals + cm->noutputs + cm->nresources + cm->ncalls +
               cm->nvariables;
  for (uint32_t i = 0; i < cm->ncalls; i++)
    if (m->children[i])
      n += count_items(m->children[i]);
  return n;
}

/* Nodes of module m and, recursively, of the modules it calls. */
static void add_module_nodes(Engine *e, EMod *m, const State *s, Diags *d)
{
  const CfgModule *cm = m->t->m;
  bool destroy = e->o.mode == PL_MODE_DESTROY;
  for (uint32_t i = 0; i < cm->nlocals; i++) {
    const char *nm = arena_printf(e->a, "%slocal.%s", m->prefix,
                                  cm->locals[i].name);
    uint32_t v = add_node(e, N_LOCAL, nm);
    e->nodes[v].local = &cm->locals[i];
    e->nodes[v].mod = m;
    map_put(&e->by_name, nm, v);
  }
  if (m->parent)
    for (uint32_t i = 0; i < cm->nvariables; i++) {
      const char *nm = arena_printf(e->a, "%svar.%s", m->prefix,
                                    cm->variables[i].name);
      uint32_t v = add_node(e, N_VAR, nm);
      e->nodes[v].var = &cm->variables[i];
      e->nodes[v].mod = m;
      map_put(&e->by_name, nm, v);
    }
  if (!destroy)
    for (uint32_t i = 0; i < cm->noutputs; i++) {
      const char *nm = arena_printf(e->a, "%soutput.%s", m->prefix,
                                    cm->outputs[i].name);
      uint32_t v = add_node(e, N_OUTPUT, nm);
      e->nodes[v].out = &cm->outputs[i];
      e->nodes[v].mod = m;
      map_put(&e->by_name, nm, v);
    }
  for (uint32_t i = 0; i < cm->ncalls; i++) {
    if (!m->children[i])
      continue;
    const char *nm = arena_printf(e->a, "%smodule.%s", m->prefix,
                                  cm->calls[i].name);
    uint32_t v = add_node(e, N_CALL, nm);
    e->nodes[v].mod = m;
    e->nodes[v].child = m->children[i];
    m->children[i]->call_node = v;
    map_put(&e->by_name, nm, v);
  }
  if (!destroy)
    for (uint32_t i = 0; i < cm->nresources; i++) {
      const CfgResource *r = &cm->resources[i];
      StMode mode = r->mode == CFG_DATA ? ST_DATA : ST_MANAGED;
      const char *addr = res_addr(e->a, m, mode, r->type, r->name);
      uint32_t v = add_node(e, N_RESOURCE, addr);
      Node *n = &e->nodes[v];
      n->mod = m;
      n->res = r;
      n->addr = addr;
      n->mode = mode;
      n->type = r->type;
      n->rname = r->name;
      n->ps = resource_slot(e, m->t, r, d);
      n->tschema = type_schema(n->ps, mode, r->type);
      n->repetition = r->count ? 1 : r->for_each ? 2 : 0;
      n->cbd = r->create_before_destroy;
      map_put(&e->by_name, addr, v);
    }
  (void)s;
  for (uint32_t i = 0; i < cm->ncalls; i++)
    if (m->children[i])
      add_module_nodes(e, m->children[i], s, d);
}

static int cmp_sres_module(const void *a, const void *b)
{
  return strcmp((*(StResource *const *)a)->module,
                (*(StResource *const *)b)->module);
}

/* Resource nodes reachable from v through locals, variables, outputs,
** module calls and other resources (not through providers): the
** "dependencies" Terraform records in the state, also across modules. */
static void collect_deps(Engine *e, uint32_t v, uint32_t *seen,
                         uint32_t stamp, const char **out, uint32_t *n)
{
  for (uint32_t i = e->g.dep_start[v]; i < e->g.dep_start[v + 1]; i++) {
    uint32_t u = e->g.deps[i];
    if (seen[u] == stamp)
      continue;
    seen[u] = stamp;
    Node *d = &e->nodes[u];
    if (d->kind == N_RESOURCE)
      out[(*n)++] = d->addr;
    /* transitive, through resources too: Terraform records every
    ** resource ancestor (AttachDependenciesTransformer) */
    if (d->kind != N_PROVIDER && d->kind != N_ORPHAN)
      collect_deps(e, u, seen, stamp, out, n);
  }
}

static void compute_deps(Engine *e)
{
  uint32_t *seen = ARENA_NEW(e->a, uint32_t, e->nnodes + 1);
  const char **buf = ARENA_NEW(e->a, const char *, e->nnodes + 1);
  uint32_t stamp = 0;
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    if (n->kind != N_RESOURCE)
      continue;
    uint32_t k = 0;
    seen[v] = ++stamp;
    collect_deps(e, v, seen, stamp, buf, &k);
    if (k == n->ndeps)
      continue;   /* only direct references: link_refs' list is right */
    qsort(buf, k, sizeof *buf, cmp_str);
    const char **deps = ARENA_NEW(e->a, const char *, k + 1);
    uint32_t nd = 0;
    for (uint32_t i = 0; i < k; i++)
      if (nd == 0 || strcmp(deps[nd - 1], buf[i]) != 0)
        deps[nd++] = buf[i];
    n->deps = deps;
    n->ndeps = nd;
  }
}

/* create_before_destroy propagates from a resource to everything it
** depends on (seed 002): dependents first, so chains carry it down. */
static void propagate_cbd(Engine *e)
{
  for (uint32_t i = e->nnodes; i-- > 0;) {
    Node *n = &e->nodes[e->topo[i]];
    if (n->kind != N_RESOURCE || !n->cbd)
      continue;
    for (uint32_t k = 0; k < n->ndeps; k++) {
      uint32_t u;
      if (map_get(&e->by_name, n->deps[k], &u) &&
          e->nodes[u].kind == N_RESOURCE)
        e->nodes[u].cbd = true;
    }
  }
}

/* The static resource node of a change's resource, or UINT32_MAX. */
static uint32_t change_node(Engine *e, const PlChange *c)
{
  const char *ra = arena_printf(e->a, "%s%s%s%s.%s", c->module,
                                c->module[0] ? "." : "",
                                c->mode == ST_DATA ? "data." : "", c->type,
                                c->name);
  uint32_t v;
  if (!map_get(&e->by_name, st_static_path(e->a, ra), &v) ||
      e->nodes[v].kind != N_RESOURCE)
    return UINT32_MAX;
  return v;
}

static uint32_t new_work_node(Engine *e, DagBuilder *b, NodeKind k,
                              uint32_t target, uint32_t nwork)
{
  Node *t = &e->nodes[target];
  const char *nm = arena_printf(e->a, "%s (%s)", t->addr,
                                k == N_DESTROY ? "destroy" : "deposed");
  uint32_t v = add_node(e, k, nm);
  dag_add_node(b);
  Node *n = &e->nodes[v];
  t = &e->nodes[target];   /* add_node may have moved the array */
  n->target = target;
  n->mod = t->mod;
  n->res = t->res;
  n->ps = t->ps;
  n->tschema = t->tschema;
  n->mode = t->mode;
  n->type = t->type;
  n->rname = t->rname;
  n->addr = t->addr;
  n->work = ARENA_NEW(e->a, const PlChange *, nwork);
  return v;
}

/* Apply phase: the delete nodes Terraform's apply graph has.  Deletes of
** configured resources (removed keys, -/+ replaces) run before the
** resource's creates and after the deletes of the resources depending on
** it; the deposed objects of +/- replaces are deleted after everything
** depending on the resource has been updated.  True when nodes were
** added (the caller rebuilds the graph). */
static bool add_apply_nodes(Engine *e, DagBuilder *b)
{
  Plan *p = e->plan;
  uint32_t nn = e->nnodes;
  uint32_t *npre = ARENA_NEW(e->a, uint32_t, nn + 1);
  uint32_t *npost = ARENA_NEW(e->a, uint32_t, nn + 1);
  uint32_t *owner = ARENA_NEW(e->a, uint32_t, p->nchanges + 1);
  bool any = false;
  e->dkeys = ARENA_NEW(e->a, const char *, p->nchanges + 1);
  for (uint32_t i = 0; i < p->nchanges; i++) {
    const PlChange *c = &p->changes[i];
    owner[i] = UINT32_MAX;
    bool pre = (c->action == PL_DELETE && !c->deposed) ||
               c->action == PL_DELETE_THEN_CREATE;
    bool post = c->action == PL_CREATE_THEN_DELETE;
    if (c->mode != ST_MANAGED || (!pre && !post))
      continue;
    uint32_t v = change_node(e, c);
    if (v == UINT32_MAX)
      continue;   /* orphans keep their place in the forward walk */
    owner[i] = v;
    if (pre)
      npre[v]++;
    else
      npost[v]++;
    any = true;
  }
  if (!any)
    return false;
  for (uint32_t v = 0; v < nn; v++) {
    if (npre[v])
      e->nodes[v].pre = new_work_node(e, b, N_DESTROY, v, npre[v]);
    if (npost[v])
      e->nodes[v].post = new_work_node(e, b, N_DEPOSED, v, npost[v]);
  }
  for (uint32_t i = 0; i < p->nchanges; i++) {
    if (owner[i] == UINT32_MAX)
      continue;
    Node *t = &e->nodes[owner[i]];
    Node *w = &e->nodes[p->changes[i].action == PL_CREATE_THEN_DELETE
                            ? t->post : t->pre];
    w->work[w->nwork++] = &p->changes[i];
  }
  for (uint32_t v = 0; v < nn; v++) {
    Node *n = &e->nodes[v];
    if (n->pre != UINT32_MAX) {
      dag_add_edge(b, n->pre, n->ps->node);
      dag_add_edge(b, v, n->pre);
    }
    if (n->post != UINT32_MAX)
      dag_add_edge(b, n->post, v);
  }
  /* B depends on A: D(A) after D(B); X(A) after B and after X(B) */
  for (uint32_t bv = 0; bv < nn; bv++) {
    Node *bn = &e->nodes[bv];
    if (bn->kind != N_RESOURCE)
      continue;
    for (uint32_t k = 0; k < bn->ndeps; k++) {
      uint32_t av;
      if (!map_get(&e->by_name, bn->deps[k], &av) || av == bv)
        continue;
      Node *an = &e->nodes[av];
      if (an->pre != UINT32_MAX && bn->pre != UINT32_MAX)
        dag_add_edge(b, an->pre, bn->pre);
      if (an->post != UINT32_MAX) {
        dag_add_edge(b, an->post, bv);
        if (bn->post != UINT32_MAX)
          dag_add_edge(b, an->post, bn->post);
      }
    }
  }
  return true;
}

/* Resolves (and opens) the provider of every resource of m and below. */
static void open_slots(Engine *e, const EMod *m, Diags *d)
{
  for (uint32_t i = 0; i < m->t->m->nresources; i++)
    resource_slot(e, m->t, &m->t->m->resources[i], d);
  for (uint32_t i = 0; i < m->t->m->ncalls; i++)
    if (m->children[i])
      open_slots(e, m->children[i], d);
}

/* Builds nodes and edges for phase ph against state s. */
/* ---- resource targeting (-target) -------------------------------------- */

/* One -target address, parsed, with its static (keyless) forms. */
typedef struct Target {
  StAddr a;
  const char *smod;         /* static module path: "module.a.module.b" */
  const char *saddr;        /* resource targets: static resource address */
  bool whole;               /* selects every instance of what it matches */
} Target;

/* Parses the -target addresses into e->tg; false with Terraform's
** diagnostic (`Invalid target "ADDR"` with the parser's detail). */
static bool parse_targets(Engine *e, const char *const *tv, uint32_t n,
                          Diags *d)
{
  e->tg = ARENA_NEW(e->a, Target, n ? n : 1);
  e->ntg = 0;
  bool ok = true;
  for (uint32_t i = 0; i < n; i++) {
    Target *t = &e->tg[e->ntg];
    Diags q;
    diag_init(&q, e->a);
    if (!st_parse_addr(e->a, tv[i], &t->a, &q)) {
      const Diag *x = q.head;
      diag_error(d, NULL, arena_printf(e->a, "Invalid target \"%s\"", tv[i]),
                 "%s", x && x->detail && x->detail[0] ? x->detail
                 : x ? x->summary : "Not a resource or module address.");
      ok = false;
      continue;
    }
    t->smod = st_static_path(e->a, t->a.module);
    bool keyed = strchr(t->a.module, '[') != NULL;
    if (t->a.kind == ST_ADDR_MODULE) {
      t->whole = !keyed;
    } else {
      Buf b;
      buf_init(&b, e->a);
      st_format_resource(&b, t->smod, t->a.mode, t->a.type, t->a.name);
      t->saddr = buf_str(&b);
      t->whole = !keyed && t->a.kind == ST_ADDR_RESOURCE;
    }
    e->ntg++;
  }
  return ok;
}

/* One step of a module instance address: "module.NAME" and its "[KEY]"
** (key NULL when none). */
typedef struct MStep {
  const char *name, *key;
  size_t nlen, klen;
} MStep;

static bool next_step(const char **p, MStep *s)
{
  const char *q = *p;
  if (*q == '.')
    q++;
  if (strncmp(q, "module.", 7) != 0)
    return false;
  s->name = q += 7;
  while (*q && *q != '.' && *q != '[')
    q++;
  s->nlen = (size_t)(q - s->name);
  s->key = NULL;
  s->klen = 0;
  if (*q == '[') {
    s->key = q;
    bool quoted = false;
    for (q++; *q; q++) {
      if (quoted && *q == '\\' && q[1])
        q++;
      else if (*q == '"')
        quoted = !quoted;
      else if (*q == ']' && !quoted)
        break;
    }
    if (*q)
      q++;
    s->klen = (size_t)(q - s->key);
  }
  *p = q;
  return true;
}

/* True when target module address tm selects module instance im: tm's
** steps lead im's (all of them when whole), a target step without a key
** matching every key of that call. */
static bool module_selects(const char *tm, const char *im, bool whole)
{
  MStep a, b;
  for (;;) {
    if (!next_step(&tm, &a))
      return !whole || !next_step(&im, &b);
    if (!next_step(&im, &b) || a.nlen != b.nlen ||
        memcmp(a.name, b.name, a.nlen) != 0)
      return false;
    if (a.key && (a.klen != b.klen || memcmp(a.key, b.key, a.klen) != 0))
      return false;
  }
}

/* Does target t name (some instances of) resource node n? */
static bool target_node(const Target *t, const Node *n)
{
  if (t->a.kind != ST_ADDR_MODULE)
    return strcmp(t->saddr, n->addr) == 0;
  size_t k = strlen(t->smod);
  return k == 0 || (strncmp(n->addr, t->smod, k) == 0 && n->addr[k] == '.');
}

static bool target_inst(const Target *t, const Node *n, const Inst *in)
{
  if (!target_node(t, n))
    return false;
  if (t->whole)
    return true;
  if (t->a.kind == ST_ADDR_MODULE)
    return module_selects(t->a.module, in->module, false);
  return module_selects(t->a.module, in->module, true) &&
         (t->a.kind == ST_ADDR_RESOURCE || st_key_equal(t->a.key, in->key));
}

/* Is instance in of node n to be planned or applied? */
static bool inst_targeted(const Engine *e, const Node *n, const Inst *in)
{
  if (n->untargeted)
    return false;
  if (!n->tfilter)
    return true;
  for (uint32_t i = 0; i < e->ntg; i++)
    if (target_inst(&e->tg[i], n, in))
      return true;
  return false;
}

/* Does resource node n depend on a marked node, by its configuration or
** by the dependencies its state objects record? */
static bool depends_on_marked(const Engine *e, const Node *n,
                              const uint8_t *mark)
{
  uint32_t u;
  for (uint32_t k = 0; k < n->ndeps; k++)
    if (map_get(&e->by_name, n->deps[k], &u) && mark[u])
      return true;
  for (uint32_t r = 0; r < n->nsrs; r++)
    for (uint32_t i = 0; i < n->srs[r]->ninst; i++) {
      const StObject *o = n->srs[r]->inst[i]->current;
      for (uint32_t k = 0; o && k < o->ndeps; k++)
        if (map_get(&e->by_name, o->deps[k], &u) && mark[u])
          return true;
    }
  return false;
}

/* Marks the nodes -target leaves out.  Planning (and applying): the
** targets and everything they depend on, plus the outputs that refer
** directly to a selected node (Terraform: outputs are targeted
** downstream so their values stay current).  Destroying: the targets and
** every resource depending on them (by configuration or by the
** dependencies recorded in the state), which must go first. */
static void select_targets(Engine *e)
{
  if (!e->ntg)
    return;
  uint32_t nn = e->nnodes;
  uint8_t *mark = ARENA_NEW(e->a, uint8_t, nn + 1);   /* 1 seed, 2 all */
  uint32_t *stack = ARENA_NEW(e->a, uint32_t, 2 * nn + 1), sp = 0;
  for (uint32_t v = 0; v < nn; v++) {
    Node *n = &e->nodes[v];
    if (n->kind != N_RESOURCE && n->kind != N_ORPHAN)
      continue;
    for (uint32_t i = 0; i < e->ntg && mark[v] < 2; i++)
      if (target_node(&e->tg[i], n))
        mark[v] = e->tg[i].whole ? 2 : 1;
    if (mark[v])
      stack[sp++] = v;
  }
  bool destroy = e->o.mode == PL_MODE_DESTROY;
  if (destroy) {
    /* dependents, to a fixed point: a resource goes when one of its
    ** configured or recorded dependencies goes */
    for (bool grew = true; grew;) {
      grew = false;
      for (uint32_t v = 0; v < nn; v++) {
        Node *n = &e->nodes[v];
        if (mark[v] == 2 || (n->kind != N_RESOURCE && n->kind != N_ORPHAN))
          continue;
        if (depends_on_marked(e, n, mark)) {
          mark[v] = 2;
          grew = true;
        }
      }
    }
    /* providers, locals and calls are evaluated leniently when
    ** destroying: keep them all */
    for (uint32_t v = 0; v < nn; v++) {
      Node *n = &e->nodes[v];
      if (n->kind != N_RESOURCE && n->kind != N_ORPHAN &&
          n->kind != N_OUTPUT)
        mark[v] = 2;
    }
  } else {
    /* everything upstream; an orphan needs only its provider and module
    ** (its other edges order deletes, they are not references) */
    while (sp) {
      uint32_t u = stack[--sp];
      Node *n = &e->nodes[u];
      for (uint32_t i = e->g.dep_start[u]; i < e->g.dep_start[u + 1]; i++) {
        uint32_t w = e->g.deps[i];
        if (n->kind == N_ORPHAN && w != n->ps->node &&
            !(n->mod && w == n->mod->call_node))
          continue;
        if (mark[w] < 2) {
          mark[w] = 2;
          stack[sp++] = w;
        }
      }
    }
    for (uint32_t i = 0; i < nn; i++) {
      uint32_t v = e->topo[i];
      if (e->nodes[v].kind != N_OUTPUT || mark[v])
        continue;
      for (uint32_t k = e->g.dep_start[v]; k < e->g.dep_start[v + 1]; k++)
        if (mark[e->g.deps[k]] && e->nodes[e->g.deps[k]].kind != N_PROVIDER &&
            e->nodes[e->g.deps[k]].kind != N_CALL) {
          mark[v] = 2;
          break;
        }
    }
  }
  for (uint32_t v = 0; v < nn; v++) {
    e->nodes[v].untargeted = mark[v] == 0;
    e->nodes[v].tfilter = mark[v] == 1;
  }
}

static bool build_graph(Engine *e, const State *s, Diags *d)
{
  bool destroy = e->o.mode == PL_MODE_DESTROY;
  e->nnodes = 0;
  reset_mods(e->root);
  map_init(&e->by_name, e->a, count_items(e->root) + (s ? s->nres : 0));
  /* Every provider slot first (opening a provider may grow the slot
  ** array, so nodes take slot pointers only afterwards); eng_new has
  ** normally opened them all already.  Then one node per slot. */
  if (!destroy)
    open_slots(e, e->root, d);
  if (s)
    for (uint32_t i = 0; i < s->nres; i++)
      if (s->res[i]->mode == ST_MANAGED)
        state_slot(e, s->res[i]->provider, d);
  if (diag_has_errors(d))
    return false;
  for (uint32_t i = 0; i < e->nslots; i++) {
    uint32_t v = add_node(e, N_PROVIDER, e->slots[i].state_addr);
    e->nodes[v].ps = &e->slots[i];
    e->nodes[v].mod = emod_find(e->root, e->slots[i].mod_path);
    e->slots[i].node = v;
  }
  add_module_nodes(e, e->root, s, d);
  /* state resources by static address: the configured node gets them;
  ** the others become orphans (all of them when destroying) */
  if (s) {
    uint32_t *owner = ARENA_NEW(e->a, uint32_t, s->nres + 1);
    uint32_t *cnt = ARENA_NEW(e->a, uint32_t, e->nnodes + s->nres + 1);
    for (uint32_t i = 0; i < s->nres; i++) {
      StResource *sr = s->res[i];
      const char *sa = st_static_path(e->a, sr->addr);
      uint32_t v;
      if (!map_get(&e->by_name, sa, &v)) {
        if (sr->mode == ST_DATA) {
          owner[i] = UINT32_MAX;   /* data without config: dropped */
          continue;
        }
        v = add_node(e, N_ORPHAN, sa);
        Node *n = &e->nodes[v];
        n->addr = sa;
        n->mode = sr->mode;
        n->type = sr->type;
        n->rname = sr->name;
        n->mod = emod_find(e->root, st_static_path(e->a, sr->module));
        if (destroy && n->mod)
          n->lc_res = cfg_resource(n->mod->t->m,
                                   sr->mode == ST_DATA ? CFG_DATA
                                                       : CFG_MANAGED,
                                   sr->type, sr->name);
        n->ps = state_slot(e, sr->provider, d);
        n->tschema = type_schema(n->ps, sr->mode, sr->type);
        map_put(&e->by_name, sa, v);
      }
      owner[i] = v;
      cnt[v]++;
    }
    for (uint32_t i = 0; i < s->nres; i++) {
      if (owner[i] == UINT32_MAX)
        continue;
      Node *n = &e->nodes[owner[i]];
      if (!n->srs)
        n->srs = ARENA_NEW(e->a, StResource *, cnt[owner[i]]);
      n->srs[n->nsrs++] = s->res[i];
    }
    for (uint32_t v = 0; v < e->nnodes; v++)
      if (e->nodes[v].nsrs > 1)
        qsort(e->nodes[v].srs, e->nodes[v].nsrs, sizeof(StResource *),
              cmp_sres_module);
  }
  if (diag_has_errors(d))
    return false;
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    if ((n->kind == N_RESOURCE || n->kind == N_ORPHAN) && n->ps &&
        n->ps->prov && !n->tschema) {
      diag_error(d, n->res ? &n->res->type_range : NULL,
                 "Invalid resource type",
                 "The provider %s does not support %s \"%s\".", n->ps->fqn,
                 n->mode == ST_DATA ? "data source" : "resource type",
                 n->type);
    }
    if ((n->kind == N_RESOURCE || n->kind == N_ORPHAN) &&
        (!n->ps || !n->ps->prov))
      return false;   /* reported when the slot was resolved or opened */
  }
  if (diag_has_errors(d))
    return false;

  DagBuilder b;
  dag_builder_init(&b, e->a, e->nnodes);
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    RefList l = {0};
    EMod *mod = n->mod;
    /* every node of a child module waits for the module's expansion */
    if (mod && mod->parent && n->kind != N_CALL)
      dag_add_edge(&b, v, mod->call_node);
    switch (n->kind) {
    case N_PROVIDER:
      if (n->ps->cfg && n->ps->schema && mod) {
        HclTraversal *t;
        uint32_t k;
        dec_body_refs(e->a, n->ps->cfg->body, n->ps->schema->provider.block,
                      &t, &k);
        refs_add(e->a, &l, mod, t, k);
      }
      break;
    case N_LOCAL:
      expr_refs(e->a, &l, mod, n->local->expr);
      break;
    case N_VAR: {
      const HclAttribute *at =
          mod->t->call->body ? hcl_body_attr(mod->t->call->body,
                                             n->var->name)
                             : NULL;
      if (at)
        expr_refs(e->a, &l, mod->parent, at->expr);
      break;
    }
    case N_CALL: {
      const CfgModuleCall *mc = n->child->t->call;
      if (e->o.mode == PL_MODE_DESTROY) {
        /* destroying: every resource is an orphan ordered by its recorded
        ** dependencies; the call's references would only add cycles */
        if (mod->parent)
          dag_add_edge(&b, v, mod->call_node);
        break;
      }
      expr_refs(e->a, &l, mod, mc->count);
      expr_refs(e->a, &l, mod, mc->for_each);
      for (uint32_t i = 0; i < mc->depends_on.n; i++)
        refs_add(e->a, &l, mod, &mc->depends_on.items[i], 1);
      if (mod->parent)
        dag_add_edge(&b, v, mod->call_node);
      break;
    }
    case N_OUTPUT:
      expr_refs(e->a, &l, mod, n->out->expr);
      for (uint32_t i = 0; i < n->out->depends_on.n; i++)
        refs_add(e->a, &l, mod, &n->out->depends_on.items[i], 1);
      for (uint32_t i = 0; i < n->out->preconditions.n; i++) {
        expr_refs(e->a, &l, mod, n->out->preconditions.items[i].condition);
        expr_refs(e->a, &l, mod,
                  n->out->preconditions.items[i].error_message);
      }
      break;
    case N_RESOURCE: {
      const CfgResource *r = n->res;
      expr_refs(e->a, &l, mod, r->count);
      expr_refs(e->a, &l, mod, r->for_each);
      if (n->tschema) {
        HclTraversal *t;
        uint32_t k;
        dec_body_refs(e->a, r->body, n->tschema->schema.block, &t, &k);
        refs_add(e->a, &l, mod, t, k);
      }
      for (uint32_t i = 0; i < r->depends_on.n; i++)
        refs_add(e->a, &l, mod, &r->depends_on.items[i], 1);
      for (uint32_t i = 0; i < r->nreplace_triggered_by; i++)
        expr_refs(e->a, &l, mod, r->replace_triggered_by[i]);
      for (uint32_t i = 0; i < r->nprovisioners; i++) {
        HclTraversal *t;
        uint32_t k;
        dec_body_refs(e->a, r->provisioners[i].body, prv_local_exec_schema(),
                      &t, &k);
        refs_add(e->a, &l, mod, t, k);
      }
      for (uint32_t i = 0; i < r->preconditions.n; i++) {
        expr_refs(e->a, &l, mod, r->preconditions.items[i].condition);
        expr_refs(e->a, &l, mod, r->preconditions.items[i].error_message);
      }
      for (uint32_t i = 0; i < r->postconditions.n; i++) {
        expr_refs(e->a, &l, mod, r->postconditions.items[i].condition);
        expr_refs(e->a, &l, mod, r->postconditions.items[i].error_message);
      }
      /* depends_on of the calls that lead here applies to everything
      ** inside (Terraform: module depends_on) */
      for (EMod *am = mod; am->parent; am = am->parent) {
        const CfgModuleCall *mc = am->t->call;
        for (uint32_t i = 0; i < mc->depends_on.n; i++)
          refs_add(e->a, &l, am->parent, &mc->depends_on.items[i], 1);
      }
      dag_add_edge(&b, v, n->ps->node);
      break;
    }
    case N_ORPHAN:
      dag_add_edge(&b, v, n->ps->node);
      if (mod && mod->parent)
        dag_add_edge(&b, v, mod->call_node);
      break;
    case N_DESTROY:
    case N_DEPOSED:
      break;   /* added by add_apply_nodes, after this pass */
    }
    link_refs(e, &b, v, &l);
  }
  /* Destroy ordering: an orphan is deleted after everything that
  ** depends on it (by its recorded dependencies) is deleted or updated. */
  for (uint32_t v = 0; v < e->nnodes; v++) {
    Node *n = &e->nodes[v];
    if (n->kind != N_ORPHAN && n->kind != N_RESOURCE)
      continue;
    for (uint32_t r = 0; r < n->nsrs; r++)
      for (uint32_t i = 0; i < n->srs[r]->ninst; i++) {
        const StObject *o = n->srs[r]->inst[i]->current;
        if (!o)
          continue;
        for (uint32_t j = 0; j < o->ndeps; j++) {
          uint32_t u;
          if (map_get(&e->by_name, o->deps[j], &u) && u != v &&
              e->nodes[u].kind == N_ORPHAN)
            dag_add_edge(&b, u, v);
        }
      }
  }
  dag_build(&b, &e->g);
  uint32_t **cyc, *sz;
  uint32_t nc = dag_cycles(&e->g, e->a, &cyc, &sz);
  if (nc) {
    for (uint32_t c = 0; c < nc; c++) {
      Buf msg;
      buf_init(&msg, e->a);
      for (uint32_t k = 0; k < sz[c]; k++)
        buf_printf(&msg, "%s%s", k ? ", " : "", e->nodes[cyc[c][k]].name);
      diag_error(d, NULL, arena_printf(e->a, "Cycle: %s", buf_str(&msg)),
                 "%s", "");
    }
    return false;
  }
  e->topo = ARENA_NEW(e->a, uint32_t, e->nnodes ? e->nnodes : 1);
  dag_topo_order(&e->g, e->a, e->topo);
  compute_deps(e);
  propagate_cbd(e);
  select_targets(e);
  if (e->phase == PH_APPLY && add_apply_nodes(e, &b)) {
    dag_build(&b, &e->g);
    if (dag_cycles(&e->g, e->a, &cyc, &sz)) {
      diag_error(d, NULL, "Cycle in the apply graph",
                 "Ordering the deletes of this plan after their dependents "
                 "creates a cycle (a provider configuration probably "
                 "depends on a resource being replaced).");
      return false;
    }
    e->topo = ARENA_NEW(e->a, uint32_t, e->nnodes ? e->nnodes : 1);
    dag_topo_order(&e->g, e->a, e->topo);
  }
  return true;
}

/* ---- expansion -------------------------------------------------------- */

static Inst *new_insts(Arena *a, uint32_t n)
{
  return ARENA_NEW(a, Inst, n ? n : 1);
}

/* The instance keys count/for_each give (one NOKEY instance when both are
** NULL), in key order, with Terraform's errors. */
static bool expand_keys(EvalCtx *ctx, const HclExpr *count,
                        const HclExpr *for_each, Arena *a, Diags *d,
                        StKey **keys_out, Rep **reps_out, uint32_t *n_out)
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
    keys = ARENA_NEW(a, StKey, (size_t)cnt + 1);
    reps = ARENA_NEW(a, Rep, (size_t)cnt + 1);
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
      keys = ARENA_NEW(a, StKey, nin + 1);
      reps = ARENA_NEW(a, Rep, nin + 1);
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
      keys = ARENA_NEW(a, StKey, v.len + 1);
      reps = ARENA_NEW(a, Rep, v.len + 1);
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
    keys = ARENA_NEW(a, StKey, 1);
    reps = ARENA_NEW(a, Rep, 1);
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
  if (n->mode == ST_DATA)
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
static uint32_t mi_find(const EMod *m, const char *addr)
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

static Inst *inst_push(Arena *a, InstVec *iv)
{
  if (iv->n == iv->cap) {
    uint32_t nc = iv->cap ? iv->cap * 2 : 16;
    Inst *nv = new_insts(a, nc);
    if (iv->n)
      memcpy(nv, iv->v, sizeof(Inst) * iv->n);
    iv->v = nv;
    iv->cap = nc;
  }
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
static bool expand(Engine *e, Node *n, Arena *a, Diags *d)
{
  const CfgResource *r = n->res;
  const EMod *mod = n->mod;
  InstVec iv = {0};
  bool *used = ARENA_NEW(a, bool, n->nsrs + 1);
  for (uint32_t m = 0; m < mod->nmi; m++) {
    const MInst *mi = &mod->mi[m];
    Scope sc;
    EvalCtx ctx;
    scope_ctx(&ctx, &sc, e, n, mod, m, &mi->rep, a, d);
    StKey *keys;
    Rep *reps;
    uint32_t nin;
    if (!expand_keys(&ctx, r->count, r->for_each, a, d, &keys, &reps, &nin))
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
  for (uint32_t j = 0; j < n->nsrs; j++)
    if (!used[j])
      push_state_objects(a, &iv, n, n->srs[j], UINT32_MAX, 0, 0);
  n->inst = iv.v ? iv.v : new_insts(a, 0);
  n->ninst = iv.n;
  return true;
}

/* Orphans and destroy mode: every current and deposed object. */
static void expand_state(Node *n, Arena *a)
{
  InstVec iv = {0};
  for (uint32_t j = 0; j < n->nsrs; j++)
    push_state_objects(a, &iv, n, n->srs[j],
                       mi_find(n->mod, n->srs[j]->module), 0, 0);
  n->inst = iv.v ? iv.v : new_insts(a, 0);
  n->ninst = iv.n;
}

/* Expands a module call in every instance of the calling module into the
** called module's instances (its mi and child_start). */
static bool expand_call(Engine *e, Node *n, Arena *a, Diags *d)
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
    scope_ctx(&ctx, &sc, e, n, pm, p, &pm->mi[p].rep, a,
              lenient ? &quiet : d);
    StKey *keys;
    Rep *reps;
    uint32_t nk;
    if (!expand_keys(&ctx, mc->count, mc->for_each, a, lenient ? &quiet : d,
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

/* ---- planning one instance -------------------------------------------- */

static PlChange *new_change(Arena *a, Engine *e, const Node *n,
                            const Inst *in, PlAction act, PlReason why,
                            Value before, Value after)
{
  PlChange *c = ARENA_NEW(a, PlChange, 1);
  c->addr = in->addr;
  c->module = in->module ? in->module : "";
  c->mode = n->mode;
  c->type = n->type;
  c->name = n->rname;
  c->key = in->key;
  c->deposed = in->deposed;
  if (e->moves.n && !in->deposed)
    c->prev_addr = rf_prev_addr(&e->moves, in->addr);
  c->provider = n->ps->state_addr;
  c->provider_name = n->ps->fqn;
  c->action = act;
  c->reason = why;
  c->before = before;
  c->after = after;
  c->schema = n->tschema->schema.block;
  c->schema_version = (uint64_t)n->tschema->schema.version;
  c->tainted_before = in->prior && in->prior->status == ST_TAINTED &&
                      !in->deposed;
  c->cbd = n->cbd;
  return c;
}

static const char *fmt_path(Arena *a, ValPath p)
{
  return objc_path_string(a, p);
}

/* Reports objc problems as one diagnostic each. */
static void report_errs(Diags *d, const Node *n, const Inst *in,
                        const char *summary, const char *lead,
                        ObjcErrs *errs, Arena *a)
{
  for (uint32_t i = 0; i < errs->n; i++)
    inst_error(d, n, in, summary, "%s%s%s: %s.%s", lead, in->addr,
               fmt_path(a, errs->items[i].path), errs->items[i].reason,
               bug_suffix);
}

/* Refreshes a prior object (ReadResource).  *cur receives the refreshed
** value (null when gone).  Records drift. */
static bool refresh_obj(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                        Value prior, Value *cur)
{
  Prov *p = n->ps->prov;
  add_event(a, in, ENG_EV_REFRESH_START, PL_NOOP, NULL, prior, 0);
  ProvCall c = {a, d, NULL};
  ProvReadReq rq = {n->type, val_unmark_deep(a, prior),
                    {in->prior->priv, in->prior->priv_len}};
  ProvReadResp rs = {{0}, {0}};
  Diag *mark = d->tail;
  p->ops->read_resource(p, &c, &rq, &rs);
  attribute_prov_diags(d, mark, n, in);
  if (diag_has_errors(d))
    return false;
  const ProvBlockSchema *b = n->tschema->schema.block;
  Value nv = rs.new_state;
  if (!nv.type) {
    *cur = prior;
    add_event(a, in, ENG_EV_REFRESH_DONE, PL_NOOP, NULL, prior, 0);
    return true;
  }
  if (!conforms(nv.type, implied(e, b)) && !val_is_null(nv)) {
    Value conv;
    ConvError ce = {0};
    if (!conv_convert(a, nv, implied(e, b), true, &conv, &ce)) {
      inst_error(d, n, in, "Provider produced invalid object",
                 "Provider \"%s\" planned an invalid value for %s during "
                 "refresh: %s.%s", n->ps->fqn, in->addr,
                 ce.msg ? ce.msg : "wrong type", bug_suffix);
      return false;
    }
    nv = conv;
  }
  if (!val_is_wholly_known(nv)) {
    inst_error(d, n, in, "Provider produced invalid object",
               "Provider \"%s\" planned an invalid value for %s during "
               "refresh: The returned state contains unknown values.%s",
               n->ps->fqn, in->addr, bug_suffix);
    return false;
  }
  if (val_is_null(nv)) {
    *cur = nv;
  } else {
    nv = prov_mark_sensitive(a, b, nv);
    nv = copy_marks(a, nv, prior);
    *cur = nv;
  }
  add_event(a, in, ENG_EV_REFRESH_DONE, PL_NOOP, NULL,
            val_is_null(nv) ? (Value){0} : nv, 0);
  ProvBytes priv = rs.private_data.p ? rs.private_data
                                     : (ProvBytes){in->prior->priv,
                                                   in->prior->priv_len};
  if (!val_raw_equal(val_unmark_deep(a, nv), val_unmark_deep(a, prior),
                     false)) {
    in->drift = new_change(a, e, n, in, val_is_null(nv) ? PL_DELETE : PL_UPDATE,
                           PL_REASON_NONE, prior, nv);
  }
  if (!in->drift && !rs.private_data.p) {
    /* unchanged: the prior state object stays as it is (no copy) */
    return true;
  }
  in->refreshed = true;
  if (val_is_null(nv)) {
    in->new_obj = NULL;
  } else {
    Value cm = {0};
    if (in->prior->nsensitive)
      cm = copy_marks(a, val_unmark_deep(a, nv), prior);
    StObject *o = make_obj(e, a, n, nv, priv, cm, d);
    if (!o)
      return false;
    o->status = in->prior->status;
    o->deps = in->prior->deps;
    o->ndeps = in->prior->ndeps;
    o->create_before_destroy = in->prior->create_before_destroy;
    o->sensitive = in->prior->sensitive;
    o->nsensitive = in->prior->nsensitive;
    in->new_obj = o;
  }
  return true;
}

static bool replace_requested(Engine *e, const Inst *in)
{
  for (uint32_t i = 0; i < e->o.nreplace; i++)
    if (strcmp(e->o.replace[i], in->addr) == 0)
      return true;
  return false;
}

/* Evaluates the resource body for instance in. */
static bool eval_config(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                        Value *out)
{
  Scope sc;
  EvalCtx ctx;
  inst_scope(&ctx, &sc, e, n, in, a, d);
  return dec_body(&ctx, n->res->body, n->tschema->schema.block, out);
}

/* PlanResourceChange with the contract checks of seed 001.  prior may be
** null (create). */
static bool provider_plan(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                          Value prior, Value config, ProvBytes ppriv,
                          ProvPlanResp *out)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  Value uprior = val_unmark_deep(a, prior);
  Value uconfig = val_unmark_deep(a, config);
  Value proposed = objc_proposed_new(a, b, uprior, uconfig);
  Prov *p = n->ps->prov;
  ProvCall c = {a, d, NULL};
  ProvPlanReq rq = {n->type, uprior, proposed, uconfig, ppriv};
  memset(out, 0, sizeof *out);
  Diag *mark = d->tail;
  p->ops->plan_resource_change(p, &c, &rq, out);
  attribute_prov_diags(d, mark, n, in);
  if (diag_has_errors(d))
    return false;
  Value pl = out->planned_state;
  if (!pl.type) {
    inst_error(d, n, in, "Provider produced invalid plan",
               "Provider \"%s\" planned an invalid value for %s: planned "
               "value is absent.%s", n->ps->fqn, in->addr, bug_suffix);
    return false;
  }
  if (!conforms(pl.type, implied(e, b))) {
    Value conv;
    ConvError ce = {0};
    if (!conv_convert(a, pl, implied(e, b), true, &conv, &ce) ||
        !conforms(conv.type, implied(e, b))) {
      inst_error(d, n, in, "Provider produced invalid plan",
                 "Provider \"%s\" planned an invalid value for %s: %s.%s",
                 n->ps->fqn, in->addr,
                 ce.msg ? ce.msg : "wrong type", bug_suffix);
      return false;
    }
    pl = conv;
  }
  out->planned_state = pl;
  if (!out->legacy_type_system) {
    ObjcErrs errs = {0};
    if (!objc_assert_plan_valid(a, b, uprior, uconfig, pl, &errs)) {
      Buf lead;
      buf_init(&lead, a);
      buf_printf(&lead, "Provider \"%s\" planned an invalid value for ",
                 n->ps->fqn);
      report_errs(d, n, in, "Provider produced invalid plan", buf_str(&lead),
                  &errs, a);
      return false;
    }
  }
  for (uint32_t i = 0; i < out->nrequires_replace; i++) {
    bool exists;
    objc_path_changed(uprior, pl, out->requires_replace[i], &exists);
    if (!exists) {
      inst_error(d, n, in, "Provider produced invalid plan",
                 "Provider \"%s\" has indicated \"requires replacement\" on "
                 "%s for a non-existent attribute path %s.%s", n->ps->fqn,
                 in->addr, fmt_path(a, out->requires_replace[i]), bug_suffix);
      return false;
    }
  }
  return true;
}

/* Plans a delete of in's prior object. */
static bool plan_delete(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                        PlReason why)
{
  /* prevent_destroy holds while the block is in the configuration:
  ** removed keys of a configured resource, and everything in destroy
  ** mode (n->lc_res) */
  const CfgResource *cr = n->res ? n->res : n->lc_res;
  if (!in->deposed && lc_prevent_destroy_applies(cr, PL_DELETE)) {
    lc_prevent_destroy_error(d, cr, in->addr);
    return false;
  }
  Value prior;
  if (!decode_obj(e, a, n, in, in->prior, &prior, d))
    return false;
  if (e->o.refresh && !in->deposed) {
    Value cur;
    if (!refresh_obj(e, n, in, a, d, prior, &cur))
      return false;
    if (val_is_null(cur))
      return true;   /* already gone: drift only */
    prior = cur;
  }
  if (n->ps->schema->plan_destroy) {
    ProvCall c = {a, d, NULL};
    Value np = prov_null_object(a, n->tschema->schema.block);
    ProvPlanReq rq = {n->type, val_unmark_deep(a, prior), np, np,
                      {in->prior->priv, in->prior->priv_len}};
    ProvPlanResp rs;
    memset(&rs, 0, sizeof rs);
    Diag *mark = d->tail;
    n->ps->prov->ops->plan_resource_change(n->ps->prov, &c, &rq, &rs);
    attribute_prov_diags(d, mark, n, in);
    if (diag_has_errors(d))
      return false;
    if (rs.planned_state.type && !val_is_null(rs.planned_state)) {
      inst_error(d, n, in, "Provider produced invalid plan",
                 "Provider \"%s\" planned a non-null destroy value for %s.%s",
                 n->ps->fqn, in->addr, bug_suffix);
      return false;
    }
  }
  in->change = new_change(a, e, n, in, PL_DELETE, why, prior,
                          prov_null_object(a, n->tschema->schema.block));
  return true;
}

/* A removed block with lifecycle { destroy = false } covers it. */
static bool forgotten(Engine *e, const Node *n, const Inst *in)
{
  if (in->deposed)
    return false;
  const CfgRemoved *rm = rf_removed_for(e->tree, in->module, n->mode,
                                        n->type, n->rname);
  return rm && !rm->destroy;
}

/* "will no longer be managed": the object leaves the state, untouched. */
static bool plan_forget(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  Value prior;
  if (!decode_obj(e, a, n, in, in->prior, &prior, d))
    return false;
  in->change = new_change(a, e, n, in, PL_FORGET, PL_REASON_NONE, prior,
                          prov_null_object(a, n->tschema->schema.block));
  return true;
}

static PlReason gone_reason(const Node *n, const Inst *in)
{
  if (in->no_module)
    return PL_REASON_DELETE_NO_MODULE;
  if (!n->res || n->disabled)
    return PL_REASON_DELETE_NO_RESOURCE_CONFIG;
  StKeyKind want = n->repetition == 1 ? ST_INTKEY
                   : n->repetition == 2 ? ST_STRKEY : ST_NOKEY;
  if (in->key.kind != want)
    return PL_REASON_DELETE_WRONG_REPETITION;
  return n->repetition == 1 ? PL_REASON_DELETE_COUNT_INDEX
                            : PL_REASON_DELETE_EACH_KEY;
}

/* An import: ImportResourceState, then ReadResource of the result (which
** must exist); *out and in->prior become the imported object, which the
** plan carries as the change's "before" and apply records. */
static bool import_obj(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                       const char *id, Value *out)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  ProvCall c = {a, d, NULL};
  ProvImportReq rq = {n->type, id};
  ProvImportResp rs = {0};
  Diag *mark = d->tail;
  n->ps->prov->ops->import_resource_state(n->ps->prov, &c, &rq, &rs);
  attribute_prov_diags(d, mark, n, in);
  if (diag_has_errors(d))
    return false;
  const ProvImported *im = NULL;
  for (uint32_t i = 0; i < rs.nimported && !im; i++)
    if (!rs.imported[i].type_name ||
        strcmp(rs.imported[i].type_name, n->type) == 0)
      im = &rs.imported[i];
  if (!im || !im->state.type || val_is_null(im->state)) {
    inst_error(d, n, in, "Cannot import non-existent remote object",
               "While attempting to import an existing object to \"%s\", "
               "the provider detected that no object exists with the given "
               "id. Only pre-existing objects can be imported; check that "
               "the id is correct and that it is associated with the "
               "provider's configured region or endpoint, or use \"cairn "
               "apply\" to create a new remote object for this resource.",
               in->addr);
    return false;
  }
  Value v = im->state;
  if (!conforms(v.type, implied(e, b))) {
    Value conv;
    ConvError ce = {0};
    if (!conv_convert(a, v, implied(e, b), true, &conv, &ce)) {
      inst_error(d, n, in, "Provider produced invalid object",
                 "Provider \"%s\" returned an invalid imported object for "
                 "%s: %s.%s", n->ps->fqn, in->addr,
                 ce.msg ? ce.msg : "wrong type", bug_suffix);
      return false;
    }
    v = conv;
  }
  StObject *o = make_obj(e, a, n, prov_mark_sensitive(a, b, v),
                         im->private_data, (Value){0}, d);
  if (!o)
    return false;
  in->prior = o;
  Value cur;
  if (!refresh_obj(e, n, in, a, d, prov_mark_sensitive(a, b, v), &cur))
    return false;
  /* an import is not drift, and the refreshed prior state keeps no
  ** object for it (apply records the imported one) */
  in->drift = NULL;
  in->refreshed = false;
  if (val_is_null(cur)) {
    inst_error(d, n, in, "Cannot import non-existent remote object",
               "While attempting to import an existing object to \"%s\", "
               "the provider detected that no object exists with the given "
               "id.", in->addr);
    return false;
  }
  if (in->new_obj)
    in->prior = in->new_obj;
  in->new_obj = NULL;
  *out = cur;
  return true;
}

/* replace_triggered_by lookups (lifecycle.h): the planned change of an
** instance / every instance of a resource.  The referenced nodes have
** finished (the graph has edges to them), so their changes are final. */
typedef struct TrigCtx {
  Engine *e;
  Arena *a;   /* the worker's arena */
} TrigCtx;

static Node *trig_node(Engine *e, Arena *a, const char *addr, bool instance)
{
  const char *ra = addr;
  size_t n = strlen(addr);
  if (instance && n && addr[n - 1] == ']') {
    const char *lb = strrchr(addr, '[');
    /* the key of the resource, not of a module: "x.y[0]" */
    if (lb)
      ra = arena_strndup(a, addr, (size_t)(lb - addr));
  }
  uint32_t v;
  const char *sp = st_static_path(a, ra);
  if (!map_get(&e->by_name, sp, &v) || e->nodes[v].kind != N_RESOURCE)
    return NULL;
  return &e->nodes[v];
}

static const PlChange *trig_change_of(void *ctx, const char *addr)
{
  TrigCtx *tc = ctx;
  Node *t = trig_node(tc->e, tc->a, addr, true);
  if (!t)
    return NULL;
  for (uint32_t i = 0; i < t->ninst; i++)
    if (!t->inst[i].deposed && strcmp(t->inst[i].addr, addr) == 0)
      return t->inst[i].change;
  return NULL;
}

static uint32_t trig_changes_of(void *ctx, const char *raddr,
                                const PlChange *const **out)
{
  TrigCtx *tc = ctx;
  Node *t = trig_node(tc->e, tc->a, raddr, false);
  *out = NULL;
  if (!t)
    return 0;
  const PlChange **v = ARENA_NEW(tc->a, const PlChange *, t->ninst + 1);
  size_t pl = strlen(raddr);
  uint32_t k = 0;
  for (uint32_t i = 0; i < t->ninst; i++) {
    const Inst *in = &t->inst[i];
    if (in->deposed || !in->change || strncmp(in->addr, raddr, pl) != 0 ||
        (in->addr[pl] != '\0' && in->addr[pl] != '['))
      continue;
    v[k++] = in->change;
  }
  *out = v;
  return k;
}

/* Postconditions with self = the planned (or new) object. */
static bool check_post(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                       Value self, LcRuleKind kind)
{
  Scope sc;
  EvalCtx ctx;
  inst_scope(&ctx, &sc, e, n, in, a, d);
  EvalVar *sv = ARENA_NEW(a, EvalVar, 1);
  sv->name = "self";
  sv->val = self;
  ctx.vars = sv;
  ctx.nvars = 1;
  return lc_check_rules_ex(&ctx, &n->res->postconditions, kind, in->addr,
                           e->o.mode == PL_MODE_REFRESH_ONLY, d);
}

static bool plan_managed(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  if (in->deposed)
    return plan_delete(e, n, in, a, d, PL_REASON_NONE);
  if (!in->in_config)
    return plan_delete(e, n, in, a, d, gone_reason(n, in));
  const ProvBlockSchema *b = n->tschema->schema.block;
  Value prior = prov_null_object(a, b);
  bool tainted = false;
  ProvBytes ppriv = {0};
  const char *import_id = NULL;
  uint32_t ii = UINT32_MAX;
  if (e->nimports && map_get(&e->imports, in->addr, &ii))
    e->import_used[ii] = 1;   /* an existing object ignores its import */
  if (!in->prior && ii != UINT32_MAX) {
    import_id = e->import_ids[ii];
    if (!import_obj(e, n, in, a, d, import_id, &prior))
      return false;
    ppriv = (ProvBytes){in->prior->priv, in->prior->priv_len};
  } else if (in->prior) {
    if (!decode_obj(e, a, n, in, in->prior, &prior, d))
      return false;
    ppriv = (ProvBytes){in->prior->priv, in->prior->priv_len};
    tainted = in->prior->status == ST_TAINTED;
    if (e->o.refresh) {
      Value cur;
      if (!refresh_obj(e, n, in, a, d, prior, &cur))
        return false;
      prior = val_is_null(cur) ? prov_null_object(a, b) : cur;
      if (val_is_null(cur))
        tainted = false;
    }
  }
  const CfgResource *r = n->res;
  Scope sc;
  EvalCtx ctx;
  inst_scope(&ctx, &sc, e, n, in, a, d);
  bool refresh_only = e->o.mode == PL_MODE_REFRESH_ONLY;
  if (r->preconditions.n &&
      !lc_check_rules_ex(&ctx, &r->preconditions, LC_RESOURCE_PRECONDITION,
                         in->addr, refresh_only, d))
    return false;
  Value config;
  if (!eval_config(e, n, in, a, d, &config))
    return false;
  if (refresh_only) {
    in->value = val_is_null(prior) ? config : prior;
    return true;
  }
  if (!val_is_null(prior) && (r->ignore_all_changes || r->ignore_changes.n))
    config = lc_ignore_changes(a, config, prior, r, b);
  bool triggered = false;
  if (r->nreplace_triggered_by) {
    TrigCtx tc = {e, a};
    LcTriggerEnv env = {in->module, n->mod->t->m, trig_change_of,
                        trig_changes_of, &tc};
    if (!lc_replace_triggered(&ctx, r, &env, &triggered, d))
      return false;
  }
  {
    ProvCall c = {a, d, NULL};
    n->ps->prov->ops->validate_resource_config(n->ps->prov, &c, n->type,
                                               val_unmark_deep(a, config));
    if (diag_has_errors(d))
      return false;
  }
  ProvPlanResp rs;
  if (!provider_plan(e, n, in, a, d, prior, config, ppriv, &rs))
    return false;
  Value planned = rs.planned_state;
  PlAction act;
  PlReason why = PL_REASON_NONE;
  const ValPath *rp = NULL;
  uint32_t nrp = 0;
  if (val_is_null(prior)) {
    act = PL_CREATE;
  } else {
    bool repl = false;
    if (triggered) {
      repl = true;
      why = PL_REASON_REPLACE_BY_TRIGGERS;
    } else if (tainted) {
      repl = true;
      why = PL_REASON_REPLACE_BECAUSE_TAINTED;
    } else if (replace_requested(e, in)) {
      repl = true;
      why = PL_REASON_REPLACE_BY_REQUEST;
    } else {
      ValPath *kept = ARENA_NEW(a, ValPath, rs.nrequires_replace + 1);
      for (uint32_t i = 0; i < rs.nrequires_replace; i++) {
        bool ex;
        if (objc_path_changed(val_unmark_deep(a, prior), planned,
                              rs.requires_replace[i], &ex))
          kept[nrp++] = rs.requires_replace[i];
      }
      if (nrp) {
        repl = true;
        rp = kept;
        why = PL_REASON_REPLACE_CANNOT_UPDATE;
      }
    }
    if (repl) {
      /* plan again as a create to get the new object's planned value */
      ProvPlanResp rs2;
      if (!provider_plan(e, n, in, a, d, prov_null_object(a, b), config,
                         (ProvBytes){0}, &rs2))
        return false;
      planned = rs2.planned_state;
      rs.planned_private = rs2.planned_private;
      act = n->cbd ? PL_CREATE_THEN_DELETE : PL_DELETE_THEN_CREATE;
    } else if (val_is_wholly_known(planned) &&
               val_raw_equal(planned, val_unmark_deep(a, prior), false)) {
      act = PL_NOOP;
    } else {
      act = PL_UPDATE;
    }
  }
  if (lc_prevent_destroy_applies(r, act)) {
    lc_prevent_destroy_error(d, r, in->addr);
    return false;
  }
  Value after = prov_mark_sensitive(a, b, planned);
  after = copy_marks(a, after, config);
  if (r->postconditions.n &&
      !check_post(e, n, in, a, d, after, LC_RESOURCE_POSTCONDITION))
    return false;
  PlChange *c = new_change(a, e, n, in, act, why, prior, after);
  if (import_id) {
    c->importing = true;
    c->import_id = import_id;
  }
  c->replace_paths = rp;
  c->nreplace_paths = nrp;
  c->priv = rs.planned_private;
  in->change = c;
  in->value = after;
  return true;
}

static bool read_data(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                      Value config, Value *out)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  double t0 = now_sec();
  add_event(a, in, ENG_EV_READ_START, PL_READ, in->change, config, 0);
  ProvCall c = {a, d, NULL};
  n->ps->prov->ops->validate_data_resource_config(
      n->ps->prov, &c, n->type, val_unmark_deep(a, config));
  if (diag_has_errors(d))
    return false;
  ProvReadDataReq rq = {n->type, val_unmark_deep(a, config)};
  ProvReadDataResp rs = {{0}};
  Diag *mark = d->tail;
  n->ps->prov->ops->read_data_source(n->ps->prov, &c, &rq, &rs);
  attribute_prov_diags(d, mark, n, in);
  if (diag_has_errors(d))
    return false;
  Value v = rs.state;
  if (!v.type || val_is_null(v)) {
    inst_error(d, n, in, "Provider produced null object",
               "Provider \"%s\" produced a null value for %s.%s", n->ps->fqn,
               in->addr, bug_suffix);
    return false;
  }
  if (!conforms(v.type, implied(e, b))) {
    Value conv;
    ConvError ce = {0};
    if (!conv_convert(a, v, implied(e, b), true, &conv, &ce)) {
      inst_error(d, n, in, "Provider produced invalid object",
                 "Provider \"%s\" produced an invalid value for %s.%s",
                 n->ps->fqn, in->addr, bug_suffix);
      return false;
    }
    v = conv;
  }
  if (!val_is_wholly_known(v)) {
    inst_error(d, n, in, "Provider produced invalid object",
               "Provider \"%s\" produced a value for %s that is not wholly "
               "known.%s", n->ps->fqn, in->addr, bug_suffix);
    return false;
  }
  v = prov_mark_sensitive(a, b, v);
  v = copy_marks(a, v, config);
  add_event(a, in, ENG_EV_READ_DONE, PL_READ, in->change, v, now_sec() - t0);
  *out = v;
  return true;
}

static bool deps_pending(Engine *e, const Node *n)
{
  for (uint32_t i = 0; i < n->ndeps; i++) {
    uint32_t u;
    if (map_get(&e->by_name, n->deps[i], &u) && e->nodes[u].pending)
      return true;
  }
  return false;
}

static bool plan_data(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  if (!in->in_config) {
    in->refreshed = true;   /* dropped from the refreshed state */
    in->new_obj = NULL;
    return true;
  }
  if (n->res->preconditions.n) {
    Scope sc;
    EvalCtx ctx;
    inst_scope(&ctx, &sc, e, n, in, a, d);
    if (!lc_check_rules_ex(&ctx, &n->res->preconditions,
                           LC_RESOURCE_PRECONDITION, in->addr,
                           e->o.mode == PL_MODE_REFRESH_ONLY, d))
      return false;
  }
  Value config;
  if (!eval_config(e, n, in, a, d, &config))
    return false;
  const ProvBlockSchema *b = n->tschema->schema.block;
  bool unknown = !val_is_wholly_known(config);
  if (unknown || deps_pending(e, n)) {
    Value after = objc_planned_data(a, b, val_unmark_deep(a, config));
    after = prov_mark_sensitive(a, b, after);
    after = copy_marks(a, after, config);
    Value before = prov_null_object(a, b);
    in->change = new_change(a, e, n, in, PL_READ,
                            unknown ? PL_REASON_READ_CONFIG_UNKNOWN
                                    : PL_REASON_READ_DEPENDENCY_PENDING,
                            before, after);
    in->value = after;
    return true;
  }
  Value v;
  if (!read_data(e, n, in, a, d, config, &v))
    return false;
  if (n->res->postconditions.n &&
      !check_post(e, n, in, a, d, v, LC_RESOURCE_POSTCONDITION))
    return false;
  in->value = v;
  in->refreshed = true;
  in->new_obj = make_obj(e, a, n, v, (ProvBytes){0}, config, d);
  return in->new_obj != NULL;
}

/* ---- applying one instance -------------------------------------------- */

static const PlChange *find_change(Engine *e, const Inst *in)
{
  char key[1024];
  snprintf(key, sizeof key, "%s%s%s", in->addr, in->deposed ? " " : "",
           in->deposed ? in->deposed : "");
  uint32_t i;
  if (!map_get(&e->changes, key, &i))
    return NULL;
  return &e->plan->changes[i];
}

static StResource *state_res(Engine *e, Node *n, const Inst *in)
{
  pthread_mutex_lock(&e->mu);
  StResource *r = st_ensure_resource(e->state, in->module, n->mode, n->type,
                                     n->rname, n->ps->state_addr);
  pthread_mutex_unlock(&e->mu);
  return r;
}

/* Provisioner output as events (deterministic order, like the rest). */
typedef struct ProvOut {
  Arena *a;          /* events (the worker's arena) */
  Arena *scratch;    /* prv_run / prv_ui_lines rewind this one */
  Inst *in;
  const char *type;
} ProvOut;

static void prov_emit(void *ctx, const char *line)
{
  ProvOut *po = ctx;
  add_event(po->a, po->in, ENG_EV_PROVISION_OUTPUT, PL_NOOP, NULL,
            (Value){0}, 0);
  po->in->ev_tail->text = line ? arena_strdup(po->a, line) : NULL;
  po->in->ev_tail->prov = po->type;
}

static void prov_line(void *ctx, const char *text)
{
  ProvOut *po = ctx;
  prv_ui_lines(text, prov_emit, po, po->scratch);
}

/* Runs the create-time (when_destroy false) or destroy-time provisioners
** of the instance's resource with self = obj.  False when one failed with
** on_failure = fail (diagnostics in d); `continue` drops its errors, as
** Terraform does. */
static bool run_provisioners(Engine *e, Node *n, Inst *in, Arena *a,
                             Diags *d, Value self, bool when_destroy)
{
  const CfgResource *r = n->res ? n->res : n->lc_res;
  if (!r)
    return true;
  for (uint32_t i = 0; i < r->nprovisioners; i++) {
    const CfgProvisioner *p = &r->provisioners[i];
    if (p->when_destroy != when_destroy)
      continue;
    add_event(a, in, ENG_EV_PROVISION_START, PL_NOOP, NULL, (Value){0}, 0);
    in->ev_tail->text = in->ev_tail->prov = p->type;
    Diags pd;
    diag_init(&pd, a);
    Scope sc;
    EvalCtx ctx;
    scope_ctx(&ctx, &sc, e, n, n->mod, in->mi, &in->rep, a, &pd);
    EvalVar *sv = ARENA_NEW(a, EvalVar, 1);
    sv->name = "self";
    sv->val = self;
    ctx.vars = sv;
    ctx.nvars = 1;
    PrvLocalExec x;
    Arena scratch;
    arena_init(&scratch, 0);
    ProvOut po = {a, &scratch, in, p->type};
    bool ok = prv_decode(&ctx, p, false, &x) &&
              prv_run(&scratch, &x, in->addr, prov_line, &po, e->o.stop, &pd);
    arena_release(&scratch);
    add_event(a, in, ok ? ENG_EV_PROVISION_DONE : ENG_EV_PROVISION_ERRORED,
              PL_NOOP, NULL, (Value){0}, 0);
    in->ev_tail->prov = p->type;
    if (!ok && !p->on_failure_continue) {
      diag_move(d, &pd);
      return false;
    }
  }
  return true;
}

/* ApplyResourceChange and the checks on its answer.  Records the result.
** act is CREATE, UPDATE or DELETE. */
static bool provider_apply_op(Engine *e, Node *n, Inst *in, Arena *a,
                              Diags *d, PlAction act, Value prior,
                              Value planned, Value config, ProvBytes priv,
                              const char *dkey, const PlChange *pc)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  StResource *sr = state_res(e, n, in);
  char intent[17] = {0};
  /* An intent record (synced before the call) lets a crash between "create
  ** sent" and "result recorded" converge without duplicates.  Built-in
  ** providers keep their objects in the state alone (or rewrite the same
  ** file), so a repeated create cannot duplicate anything: they skip the
  ** extra sync. */
  if (act == PL_CREATE && !n->ps->builtin) {
    /* An intent left open by an interrupted run for this address: send
    ** its key again, so a provider that did create the object answers with
    ** it instead of making a second one; the result resolves the intent. */
    uint32_t nd;
    const StIntent *dang = stmgr_dangling(e->mgr, &nd);
    for (uint32_t i = 0; i < nd && !intent[0]; i++)
      if (strcmp(dang[i].addr, in->addr) == 0 &&
          strcmp(dang[i].action, "create") == 0 && strlen(dang[i].id) < 17)
        memcpy(intent, dang[i].id, strlen(dang[i].id) + 1);
    if (!intent[0] &&
        !stmgr_intent(e->mgr, e->state, in->addr, "create", intent, d))
      return false;
  }
  double t0 = now_sec();
  add_event(a, in, ENG_EV_APPLY_START, act, pc, prior, 0);
  if (in->flight != UINT32_MAX) {
    pthread_mutex_lock(&e->mu);
    e->fl[in->flight].start = t0;
    e->fl[in->flight].start_ev = in->ev_tail;
    pthread_mutex_unlock(&e->mu);
  }
  /* destroy-time provisioners run before the delete, but not for the
  ** deposed half of a create_before_destroy replace (seed 002) */
  if (act == PL_DELETE && !dkey &&
      !run_provisioners(e, n, in, a, d, prior, true)) {
    add_event(a, in, ENG_EV_APPLY_ERRORED, act, pc, prior, now_sec() - t0);
    return false;
  }
  ProvCall c = {a, d, NULL};
  ProvApplyReq rq = {n->type, val_unmark_deep(a, prior),
                     val_unmark_deep(a, planned), val_unmark_deep(a, config),
                     priv, intent[0] ? intent : NULL};
  ProvApplyResp rs;
  memset(&rs, 0, sizeof rs);
  Diag *mark = d->tail;
  n->ps->prov->ops->apply_resource_change(n->ps->prov, &c, &rq, &rs);
  attribute_prov_diags(d, mark, n, in);
  bool failed = diag_has_errors(d);
  Value nv = rs.new_state;
  if (!nv.type) {
    if (!failed)
      inst_error(d, n, in, "Provider produced invalid object",
                 "Provider \"%s\" produced an invalid nil value after apply "
                 "for %s.%s", n->ps->fqn, in->addr, bug_suffix);
    /* keep the prior object; a failed delete keeps it too */
    if (intent[0])
      stmgr_intent_resolve(e->mgr, e->state, intent, d);
    add_event(a, in, ENG_EV_APPLY_ERRORED, act, pc, prior,
              now_sec() - t0);
    return false;
  }
  if (!val_is_null(nv) && !conforms(nv.type, implied(e, b))) {
    Value conv;
    ConvError ce = {0};
    if (!conv_convert(a, nv, implied(e, b), true, &conv, &ce)) {
      inst_error(d, n, in, "Provider produced invalid object",
                 "Provider \"%s\" produced an invalid value after apply for "
                 "%s: %s. The result cannot not be saved in the cairn "
                 "state.%s", n->ps->fqn, in->addr,
                 ce.msg ? ce.msg : "wrong type", bug_suffix);
      if (intent[0])
        stmgr_intent_resolve(e->mgr, e->state, intent, d);
      return false;
    }
    nv = conv;
  }
  if (act == PL_DELETE) {
    if (!val_is_null(nv) && !failed) {
      inst_error(d, n, in, "Provider returned invalid result object after "
                 "apply", "After applying a Delete plan, the provider "
                 "returned a non-null object for %s. Destroying should always "
                 "produce a null value, so this is always a bug in the "
                 "provider and should be reported in the provider's own "
                 "repository. cairn will still save this errant object in the "
                 "state for debugging and recovery.", in->addr);
      failed = true;
    }
    if (val_is_null(nv)) {
      if (!stmgr_record_remove(e->mgr, e->state, sr, in->key, dkey, d))
        return false;
    } else {
      StObject *o = make_obj(e, a, n, nv, rs.private_data, (Value){0}, d);
      if (o)
        stmgr_record_set(e->mgr, e->state, sr, in->key, dkey, o, NULL, d);
    }
    add_event(a, in, failed ? ENG_EV_APPLY_ERRORED : ENG_EV_APPLY_DONE, act,
              pc, prior, now_sec() - t0);
    return !failed;
  }
  if (val_is_null(nv)) {
    if (!failed)
      inst_error(d, n, in,
                 "Provider returned invalid result object after apply",
                 "After applying a %s plan, the provider returned a null "
                 "object for %s. Only destroying should always produce a null "
                 "value, so this is always a bug in the provider and should "
                 "be reported in the provider's own repository.",
                 act == PL_CREATE ? "Create" : "Update", in->addr);
    if (intent[0])
      stmgr_intent_resolve(e->mgr, e->state, intent, d);
    add_event(a, in, ENG_EV_APPLY_ERRORED, act, pc, prior, now_sec() - t0);
    return false;
  }
  if (!val_is_wholly_known(nv)) {
    inst_error(d, n, in,
               "Provider returned invalid result object after apply",
               "After the apply operation, the provider still indicated an "
               "unknown value for %s. All values must be known after apply, "
               "so this is always a bug in the provider and should be "
               "reported in the provider's own repository. cairn will still "
               "save the other known object values in the state.", in->addr);
    failed = true;
  }
  if (!failed && !rs.legacy_type_system) {
    ObjcErrs errs = {0};
    if (!objc_assert_compatible(a, b, val_unmark_deep(a, planned), nv,
                                &errs)) {
      for (uint32_t i = 0; i < errs.n; i++)
        inst_error(d, n, in, "Provider produced inconsistent result after "
                   "apply", "When applying changes to %s, provider \"%s\" "
                   "produced an unexpected new value: %s%s%s.%s", in->addr,
                   n->ps->fqn, fmt_path(a, errs.items[i].path) + 0,
                   errs.items[i].path.n ? ": " : "", errs.items[i].reason,
                   bug_suffix);
      failed = true;
    }
  }
  Value marked = prov_mark_sensitive(a, b, nv);
  marked = copy_marks(a, marked, config);
  StObject *o = make_obj(e, a, n, marked, rs.private_data, config, d);
  if (!o)
    return false;
  if (failed && act == PL_CREATE)
    o->status = ST_TAINTED;   /* partially created: replace next time */
  if (!stmgr_record_set(e->mgr, e->state, sr, in->key, dkey, o,
                        intent[0] ? intent : NULL, d))
    return false;
  /* create-time provisioners, after the object is durable; a failure
  ** taints it so the next plan replaces it */
  if (act == PL_CREATE && !failed &&
      !run_provisioners(e, n, in, a, d, marked, false)) {
    failed = true;
    StObject *t = ARENA_NEW(a, StObject, 1);
    *t = *o;
    t->status = ST_TAINTED;
    if (!stmgr_record_set(e->mgr, e->state, sr, in->key, dkey, t, NULL, d))
      return false;
  }
  in->value = marked;
  add_event(a, in, failed ? ENG_EV_APPLY_ERRORED : ENG_EV_APPLY_DONE, act, pc,
            marked, now_sec() - t0);
  return !failed;
}

/* provider_apply_op, registered as in flight for the heartbeats (which
** cover the provisioners too, as Terraform's do). */
static bool provider_apply(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                           PlAction act, Value prior, Value planned,
                           Value config, ProvBytes priv, const char *dkey,
                           const PlChange *pc)
{
  in->flight = UINT32_MAX;
  pthread_mutex_lock(&e->mu);
  for (uint32_t i = 0; i < e->nfl; i++)
    if (!e->fl[i].used) {
      e->fl[i] = (Flight){true, in, act, pc, 0, NULL, 0};
      in->flight = i;
      break;
    }
  pthread_mutex_unlock(&e->mu);
  bool ok = provider_apply_op(e, n, in, a, d, act, prior, planned, config,
                              priv, dkey, pc);
  if (in->flight != UINT32_MAX) {
    pthread_mutex_lock(&e->mu);
    e->fl[in->flight].used = false;
    pthread_mutex_unlock(&e->mu);
  }
  return ok;
}

/* The owner's periodic work during apply: every e->beat seconds of an
** operation, "Still creating... [10s elapsed]".  Heartbeats go out at
** once, not in the deterministic order of the other events (they are the
** one output that depends on timing, and only operations that run longer
** than the period have them); the operation's "Creating..." line is
** delivered first if it is still held back. */
static void heartbeat(Engine *e)
{
  if (!e->o.event || !e->nfl)
    return;
  double now = now_sec();
  EngEvent *out = NULL;
  uint32_t nout = 0;
  /* e->a is shared with workers under e->mu, and the hook allocates from
  ** the caller's arena (possibly e->a): both under it */
  pthread_mutex_lock(&e->mu);
  for (uint32_t i = 0; i < e->nfl; i++) {
    Flight *f = &e->fl[i];
    if (!f->used || !f->start_ev ||
        now - f->start < (double)(f->beats + 1) * e->beat)
      continue;
    if (!out)
      out = ARENA_NEW(e->a, EngEvent, 2 * e->nfl);
    f->beats++;
    if (!f->start_ev->delivered) {
      /* a copy of the fields its worker never writes again (it may be
      ** linking the next event to it right now) */
      EngEvent *st = f->start_ev;
      st->delivered = true;
      out[nout++] = (EngEvent){.kind = st->kind, .addr = st->addr,
                               .deposed = st->deposed, .action = st->action,
                               .change = st->change, .id_key = st->id_key,
                               .id_value = st->id_value};
    }
    EngEvent *ev = &out[nout++];
    memset(ev, 0, sizeof *ev);
    ev->kind = ENG_EV_APPLY_PROGRESS;
    ev->addr = f->in->addr;
    ev->deposed = f->in->deposed;
    ev->action = f->act;
    ev->change = f->change;
    ev->elapsed = (double)(long)(now - f->start);   /* whole seconds */
  }
  for (uint32_t i = 0; i < nout; i++)
    e->o.event(e->o.event_ctx, &out[i]);
  pthread_mutex_unlock(&e->mu);
}

/* After an interrupt: StopProvider to every configured provider, once,
** so long operations can end early (Terraform does the same); what they
** answer is only advice, errors are ignored. */
static void stop_providers(Engine *e)
{
  e->stop_sent = true;
  Arena a;
  arena_init(&a, 0);
  for (uint32_t i = 0; i < e->nslots; i++) {
    Prov *p = e->slots[i].prov;
    if (!p || !p->ops->stop)
      continue;
    Diags d;
    diag_init(&d, &a);
    ProvCall c = {&a, &d, NULL};
    (void)p->ops->stop(p, &c);
  }
  arena_release(&a);
}

/* The owner thread's periodic work while the walk waits. */
static void tick(void *ctx)
{
  Engine *e = ctx;
  if (e->o.stop && *e->o.stop && !e->stop_sent)
    stop_providers(e);
  heartbeat(e);
}

/* Postconditions after apply, with self = the new object: a failure is
** an error for this instance (its dependents are skipped); the object is
** already recorded, as Terraform keeps it. */
static bool apply_post(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  if (!n->res || !n->res->postconditions.n)
    return true;
  return check_post(e, n, in, a, d, in->value, LC_RESOURCE_POSTCONDITION);
}

static bool apply_managed(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  const PlChange *pc = find_change(e, in);
  if (pc && pc->importing && !in->prior && !in->deposed) {
    /* the imported object (the plan's "before") enters the state first */
    StObject *o = make_obj(e, a, n, pc->before, pc->priv, pc->before, d);
    if (!o)
      return false;
    StResource *sr = state_res(e, n, in);
    if (!stmgr_record_set(e->mgr, e->state, sr, in->key, NULL, o, NULL, d))
      return false;
    in->prior = o;
    add_event(a, in, ENG_EV_IMPORT_DONE, PL_NOOP, pc, pc->before, 0);
  }
  Value prior = prov_null_object(a, b);
  if (in->prior && !decode_obj(e, a, n, in, in->prior, &prior, d))
    return false;
  if (!pc || pc->action == PL_NOOP) {
    if (in->in_config)
      in->value = prior;
    return true;
  }
  ProvBytes ppriv = in->prior ? (ProvBytes){in->prior->priv,
                                            in->prior->priv_len}
                              : (ProvBytes){0};
  if (pc->action == PL_FORGET) {
    StResource *sr = state_res(e, n, in);
    return stmgr_record_remove(e->mgr, e->state, sr, in->key, NULL, d);
  }
  if (pc->action == PL_DELETE) {
    return provider_apply(e, n, in, a, d, PL_DELETE, prior,
                          prov_null_object(a, b), prov_null_object(a, b),
                          ppriv, in->deposed, pc);
  }
  Value config;
  if (!eval_config(e, n, in, a, d, &config))
    return false;
  bool replace = pc->action == PL_DELETE_THEN_CREATE ||
                 pc->action == PL_CREATE_THEN_DELETE;
  if (!replace && in->prior && n->res &&
      (n->res->ignore_all_changes || n->res->ignore_changes.n))
    config = lc_ignore_changes(a, config, prior, n->res, b);
  Value plan_prior = replace ? prov_null_object(a, b) : prior;
  ProvPlanResp rs;
  if (!provider_plan(e, n, in, a, d, plan_prior, config,
                     replace ? (ProvBytes){0} : ppriv, &rs))
    return false;
  /* the final plan must agree with the saved one */
  PlAction fin = pc->action;
  if (pc->action == PL_UPDATE && val_is_wholly_known(rs.planned_state) &&
      val_raw_equal(rs.planned_state, val_unmark_deep(a, prior), false))
    fin = PL_NOOP;
  {
    ObjcErrs errs = {0};
    if (!objc_assert_compatible(a, b, val_unmark_deep(a, pc->after),
                                rs.planned_state, &errs)) {
      for (uint32_t i = 0; i < errs.n; i++)
        inst_error(d, n, in, "Provider produced inconsistent final plan",
                   "When expanding the plan for %s to include new values "
                   "learned so far during apply, provider \"%s\" produced an "
                   "invalid new value for %s%s%s.%s", in->addr, n->ps->fqn,
                   fmt_path(a, errs.items[i].path),
                   errs.items[i].path.n ? ": " : "", errs.items[i].reason,
                   bug_suffix);
      return false;
    }
  }
  if (fin == PL_NOOP) {
    in->value = prior;
    return true;
  }
  Value planned = copy_marks(a, prov_mark_sensitive(a, b, rs.planned_state),
                             config);
  switch (pc->action) {
  case PL_CREATE:
    return provider_apply(e, n, in, a, d, PL_CREATE, prov_null_object(a, b),
                          planned, config, rs.planned_private, NULL, pc) &&
           apply_post(e, n, in, a, d);
  case PL_UPDATE:
    return provider_apply(e, n, in, a, d, PL_UPDATE, prior, planned, config,
                          rs.planned_private, NULL, pc) &&
           apply_post(e, n, in, a, d);
  case PL_DELETE_THEN_CREATE:
    /* the delete half ran in the resource's N_DESTROY node */
    if (in->prior &&
        !provider_apply(e, n, in, a, d, PL_DELETE, prior,
                        prov_null_object(a, b), prov_null_object(a, b), ppriv,
                        NULL, pc))
      return false;
    return provider_apply(e, n, in, a, d, PL_CREATE, prov_null_object(a, b),
                          planned, config, rs.planned_private, NULL, pc) &&
           apply_post(e, n, in, a, d);
  case PL_CREATE_THEN_DELETE: {
    char dkey[9];
    StResource *sr = state_res(e, n, in);
    pthread_mutex_lock(&e->mu);
    StInstance *si = st_find_instance(e->state, sr, in->key);
    pthread_mutex_unlock(&e->mu);
    if (!si) {
      inst_error(d, n, in, "Missing prior object",
                 "The object to replace is no longer in the state.");
      return false;
    }
    st_new_deposed_key(si, dkey);
    /* depose durably: the old object under its deposed key, then the
    ** current slot cleared by the create below */
    if (!stmgr_record_set(e->mgr, e->state, sr, in->key, dkey, in->prior,
                          NULL, d) ||
        !stmgr_record_remove(e->mgr, e->state, sr, in->key, NULL, d))
      return false;
    /* the deposed object is deleted by the N_DEPOSED node, after the
    ** dependents have been updated to the new object */
    e->dkeys[pc - e->plan->changes] = arena_strdup(a, dkey);
    if (provider_apply(e, n, in, a, d, PL_CREATE, prov_null_object(a, b),
                       planned, config, rs.planned_private, NULL, pc))
      return apply_post(e, n, in, a, d);
    /* Terraform's maybeRestoreDeposedObject: a create that left no object
    ** gives the prior object its place back as the current one; a partial
    ** (tainted) new object keeps it deposed, for the next plan to delete */
    pthread_mutex_lock(&e->mu);
    si = st_find_instance(e->state, sr, in->key);
    bool has_current = si && si->current;
    pthread_mutex_unlock(&e->mu);
    if (!has_current) {
      e->dkeys[pc - e->plan->changes] = NULL;
      if (stmgr_record_set(e->mgr, e->state, sr, in->key, NULL, in->prior,
                           NULL, d))
        stmgr_record_remove(e->mgr, e->state, sr, in->key, dkey, d);
    }
    return false;
  }
  default:
    return true;
  }
}

/* N_DESTROY / N_DEPOSED: the instances to delete, from the plan and the
** working state. */
static void expand_work(Engine *e, Node *n, Arena *a)
{
  n->inst = new_insts(a, n->nwork);
  n->ninst = 0;
  for (uint32_t i = 0; i < n->nwork; i++) {
    const PlChange *c = n->work[i];
    const char *dkey = NULL;
    if (n->kind == N_DEPOSED) {
      dkey = e->dkeys[c - e->plan->changes];
      if (!dkey)
        continue;   /* the replacement was not created: nothing deposed */
    }
    pthread_mutex_lock(&e->mu);
    StResource *sr = st_find_resource(e->state, c->module, c->mode, c->type,
                                      c->name);
    StInstance *si = sr ? st_find_instance(e->state, sr, c->key) : NULL;
    const StObject *o = !si ? NULL : dkey ? st_get_deposed(si, dkey)
                                          : si->current;
    pthread_mutex_unlock(&e->mu);
    if (!o)
      continue;   /* already gone */
    Inst *in = &n->inst[n->ninst++];
    in->key = c->key;
    in->addr = c->addr;
    in->module = c->module;
    in->mi = UINT32_MAX;
    in->deposed = dkey;
    in->prior = o;
  }
}

static bool apply_work(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  const ProvBlockSchema *b = n->tschema->schema.block;
  const PlChange *pc = find_change(e, &(Inst){.addr = in->addr});
  Value prior;
  if (!decode_obj(e, a, n, in, in->prior, &prior, d))
    return false;
  return provider_apply(e, n, in, a, d, PL_DELETE, prior,
                        prov_null_object(a, b), prov_null_object(a, b),
                        (ProvBytes){in->prior->priv, in->prior->priv_len},
                        in->deposed, pc);
}

static bool apply_data(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  const PlChange *pc = find_change(e, in);
  if (!in->in_config)
    return true;
  if (pc && pc->action == PL_READ) {
    Value config;
    if (!eval_config(e, n, in, a, d, &config))
      return false;
    Value v;
    if (!read_data(e, n, in, a, d, config, &v))
      return false;
    if (n->res->postconditions.n &&
        !check_post(e, n, in, a, d, v, LC_RESOURCE_POSTCONDITION))
      return false;
    StObject *o = make_obj(e, a, n, v, (ProvBytes){0}, config, d);
    if (!o)
      return false;
    StResource *sr = state_res(e, n, in);
    if (!stmgr_record_set(e->mgr, e->state, sr, in->key, NULL, o, NULL, d))
      return false;
    in->value = v;
    return true;
  }
  if (!in->prior) {
    inst_error(d, n, in, "Missing data source result",
               "The plan has no result for %s.", in->addr);
    return false;
  }
  return decode_obj(e, a, n, in, in->prior, &in->value, d);
}

/* ---- node visits -------------------------------------------------------- */

static bool visit_provider(Engine *e, Node *n, Arena *a, Diags *d)
{
  ProvSlot *ps = n->ps;
  if (!ps->prov || !ps->schema)
    return false;
  const ProvBlockSchema *b = ps->schema->provider.block;
  /* An absent provider block is an empty configuration; a provider that
  ** requires arguments then says so itself in ValidateProviderConfig. */
  static const HclBody empty;
  Diags quiet;
  diag_init(&quiet, a);
  Scope sc;
  EvalCtx ctx;
  /* a provider configured in a child module is evaluated in its (single)
  ** instance; Terraform refuses provider blocks in repeated modules */
  const EMod *mod = n->mod ? n->mod : e->root;
  bool have_cfg = ps->cfg && mod->nmi > 0;
  scope_ctx(&ctx, &sc, e, n, mod, 0, mod->nmi ? &mod->mi[0].rep : NULL, a,
            have_cfg ? d : &quiet);
  Value config;
  if (!dec_body(&ctx, have_cfg ? ps->cfg->body : &empty, b, &config)) {
    if (ps->cfg)
      return false;
    config = prov_null_object(a, b);
  }
  ProvCall c = {a, d, NULL};
  Value uc = val_unmark_deep(a, config);
  ps->prov->ops->validate_provider_config(ps->prov, &c, uc);
  if (diag_has_errors(d))
    return false;
  ProvConfigureReq rq = {CAIRN_VERSION, uc};
  ps->prov->ops->configure(ps->prov, &c, &rq);
  return !diag_has_errors(d);
}

/* Workers allocate from their own arena (a), never from e->a, which the
** owner thread uses concurrently (aggregate). */
static Value *node_vals(Arena *a, Node *n)
{
  uint32_t k = n->mod->nmi;
  n->vals = ARENA_NEW(a, Value, k ? k : 1);
  return n->vals;
}

static bool visit_local(Engine *e, Node *n, Arena *a, Diags *d)
{
  Value *vals = node_vals(a, n);
  for (uint32_t m = 0; m < n->mod->nmi; m++) {
    Scope sc;
    EvalCtx ctx;
    scope_ctx(&ctx, &sc, e, n, n->mod, m, &n->mod->mi[m].rep, a, d);
    if (!eval_expr(&ctx, n->local->expr, &vals[m]))
      return false;
  }
  return true;
}

/* An input variable of a child module, in each of its instances: the
** call's argument evaluated in the calling module, converted to the
** declared type, or the default. */
static bool visit_var(Engine *e, Node *n, Arena *a, Diags *d)
{
  const EMod *mod = n->mod;
  const CfgVariable *cv = n->var;
  const CfgModuleCall *mc = mod->t->call;
  const HclAttribute *at = mc->body ? hcl_body_attr(mc->body, cv->name)
                                    : NULL;
  Value *vals = node_vals(a, n);
  for (uint32_t m = 0; m < mod->nmi; m++) {
    const MInst *mi = &mod->mi[m];
    Value v = cv->has_default ? cv->default_val : val_null(cv->type);
    if (at) {
      Scope sc;
      EvalCtx ctx;
      scope_ctx(&ctx, &sc, e, n, mod->parent, mi->parent, &mi->rep, a, d);
      if (!eval_expr(&ctx, at->expr, &v))
        return false;
      if (val_is_null(v) && !cv->nullable && cv->has_default)
        v = cv->default_val;
      Value cv2;
      ConvError ce = {0};
      /* Terraform converts module arguments the permissive way
      ** ("5" for a number) */
      if (!conv_convert(a, v, cv->type, true, &cv2, &ce)) {
        Buf tn;
        buf_init(&tn, a);
        ty_friendly(&tn, cv->type);
        diag_error(d, &at->expr->range, "Invalid value for input variable",
                   "The given value is not suitable for %s.var.%s declared "
                   "at %s:%u,%u-%u: %s.", mi->addr, cv->name,
                   cv->range.file ? cv->range.file : "?",
                   cv->range.start.line, cv->range.start.col,
                   cv->range.end.col, ce.msg ? ce.msg : buf_str(&tn));
        return false;
      }
      v = cv2;
      if (val_is_null(v) && !cv->nullable) {
        diag_error(d, &at->expr->range, "Invalid value for input variable",
                   "The given value is not suitable for %s.var.%s: required "
                   "variable may not be set to null.", mi->addr, cv->name);
        return false;
      }
    }
    if (cv->sensitive)
      v = val_sensitive(v);
    vals[m] = v;
  }
  return true;
}

static bool visit_output(Engine *e, Node *n, Arena *a, Diags *d)
{
  Value *vals = node_vals(a, n);
  for (uint32_t m = 0; m < n->mod->nmi; m++) {
    Scope sc;
    EvalCtx ctx;
    scope_ctx(&ctx, &sc, e, n, n->mod, m, &n->mod->mi[m].rep, a, d);
    if (n->out->preconditions.n &&
        !lc_check_rules_ex(&ctx, &n->out->preconditions,
                           LC_OUTPUT_PRECONDITION, n->name,
                           e->o.mode == PL_MODE_REFRESH_ONLY, d))
      return false;
    if (!eval_expr(&ctx, n->out->expr, &vals[m]))
      return false;
    if (val_has_sensitive(vals[m]) && !n->out->sensitive)
      break;
  }
  Value agg = n->mod->nmi ? vals[0] : val_dynamic_null;
  for (uint32_t m = 0; m < n->mod->nmi; m++)
    if (val_has_sensitive(vals[m]))
      agg = vals[m];
  if (val_has_sensitive(agg) && !n->out->sensitive) {
    diag_error(d, &n->out->range, "Output refers to sensitive values",
               "To reduce the risk of accidentally exporting sensitive data "
               "that was intended to be only internal, cairn requires that "
               "any root module output containing sensitive data be "
               "explicitly marked as sensitive, to confirm your intent.\n\n"
               "If you do intend to export this data, annotate the output "
               "value as sensitive by adding the following argument:\n"
               "    sensitive = true");
    return false;
  }
  return true;
}

static bool visit(void *ctx, uint32_t v, PoolWorker *w)
{
  Engine *e = ctx;
  Node *n = &e->nodes[v];
  Arena *a = worker_arena(e, w);
  Diags *d = node_diags(n, a);
  if (n->untargeted && (n->kind == N_RESOURCE || n->kind == N_ORPHAN)) {
    /* left out by -target: its state objects, as they are */
    expand_state(n, a);
    for (uint32_t i = 0; n->kind == N_RESOURCE && i < n->ninst; i++)
      n->inst[i].in_config = !n->inst[i].deposed &&
                             n->inst[i].mi != UINT32_MAX;
    return true;
  }
  if (n->untargeted && (n->kind == N_OUTPUT || n->kind == N_PROVIDER)) {
    /* not evaluated (outputs keep their recorded values), not configured */
    if (n->kind == N_OUTPUT) {
      Value *vals = node_vals(a, n);
      for (uint32_t m = 0; m < n->mod->nmi; m++)
        vals[m] = val_dynamic_unknown;
    }
    return true;
  }
  /* Destroying needs values only for provider configurations; what
  ** depends on resources (which destroy mode does not evaluate) is
  ** unknown rather than an error.  The same holds for what -target
  ** leaves out. */
  if ((e->o.mode == PL_MODE_DESTROY || n->untargeted) &&
      (n->kind == N_LOCAL || n->kind == N_VAR)) {
    Diags quiet;
    diag_init(&quiet, a);
    bool ok = n->kind == N_LOCAL ? visit_local(e, n, a, &quiet)
                                 : visit_var(e, n, a, &quiet);
    if (!ok)
      for (uint32_t m = 0; m < n->mod->nmi; m++)
        if (!n->vals[m].type)
          n->vals[m] = val_dynamic_unknown;
    return true;
  }
  switch (n->kind) {
  case N_PROVIDER:
    return visit_provider(e, n, a, d);
  case N_LOCAL:
    return visit_local(e, n, a, d);
  case N_OUTPUT:
    return visit_output(e, n, a, d);
  case N_VAR:
    return visit_var(e, n, a, d);
  case N_CALL:
    return expand_call(e, n, a, d);
  case N_RESOURCE:
    if (e->o.mode == PL_MODE_DESTROY) {
      expand_state(n, a);
      return true;
    }
    return expand(e, n, a, d);
  case N_ORPHAN:
    expand_state(n, a);
    return true;
  case N_DESTROY:
  case N_DEPOSED:
    expand_work(e, n, a);
    return true;
  }
  return false;
}

static uint32_t fanout(void *ctx, uint32_t v)
{
  Engine *e = ctx;
  Node *n = &e->nodes[v];
  if (n->kind != N_RESOURCE && n->kind != N_ORPHAN && n->kind != N_DESTROY &&
      n->kind != N_DEPOSED)
    return 0;
  /* pieces small enough to keep every worker busy on a few hundred
  ** instances (slow remote providers), at most CHUNK to amortise the pool
  ** on large counts */
  uint32_t c = n->ninst / ((uint32_t)e->nworkers * 16);
  n->chunk = c < 1 ? 1 : c > CHUNK ? CHUNK : c;
  return (n->ninst + n->chunk - 1) / n->chunk;
}

/* -target left instance in out: it keeps its state object, and its value
** (for the outputs that still refer to it) is the recorded one. */
static bool skip_inst(Engine *e, Node *n, Inst *in, Arena *a, Diags *d)
{
  if (in->prior && !in->deposed && in->in_config)
    return decode_obj(e, a, n, in, in->prior, &in->value, d);
  return true;
}

static bool run_inst(Engine *e, Node *n, Inst *in, Arena *a)
{
  Diags *d = inst_diags(in, a);
  bool ok;
  if (e->ntg && !inst_targeted(e, n, in)) {
    ok = skip_inst(e, n, in, a, d);
  } else if (e->phase == PH_PLAN) {
    if (e->o.mode == PL_MODE_DESTROY || n->kind == N_ORPHAN) {
      ok = n->mode == ST_DATA
               ? true
               : n->kind == N_ORPHAN && e->o.mode != PL_MODE_DESTROY &&
                         forgotten(e, n, in)
               ? plan_forget(e, n, in, a, d)
               : plan_delete(e, n, in, a, d,
                             n->kind == N_ORPHAN && e->o.mode !=
                                 PL_MODE_DESTROY
                                 ? gone_reason(n, in)
                                 : PL_REASON_NONE);
      if (n->mode == ST_DATA) {
        in->refreshed = true;
        in->new_obj = NULL;
      }
    } else {
      ok = n->mode == ST_DATA ? plan_data(e, n, in, a, d)
                              : plan_managed(e, n, in, a, d);
    }
  } else {
    if (n->kind == N_DESTROY || n->kind == N_DEPOSED) {
      ok = apply_work(e, n, in, a, d);
    } else if (n->mode == ST_DATA) {
      ok = apply_data(e, n, in, a, d);
    } else {
      ok = apply_managed(e, n, in, a, d);
    }
  }
  if (!ok || diag_has_errors(d))
    in->failed = true;
  return !in->failed;
}

static bool sub(void *ctx, uint32_t v, uint32_t i, PoolWorker *w)
{
  Engine *e = ctx;
  Node *n = &e->nodes[v];
  Arena *a = worker_arena(e, w);
  uint32_t from = i * n->chunk, to = from + n->chunk;
  if (to > n->ninst)
    to = n->ninst;
  bool ok = true;
  for (uint32_t k = from; k < to; k++) {
    if (e->o.stop && *e->o.stop)
      return false;
    ok &= run_inst(e, n, &n->inst[k], a);
  }
  return ok;
}

/* The values other nodes see for resource node n, per module instance:
** one object, a tuple (count) or an object keyed by instance key
** (for_each).  Configured instances of a module instance are contiguous
** and in key order (see expand). */
static void aggregate(Engine *e, Node *n)
{
  uint32_t nmi = n->mod ? n->mod->nmi : 0;
  n->vals = ARENA_NEW(e->a, Value, nmi ? nmi : 1);
  Value *vals = ARENA_NEW(e->a, Value, n->ninst ? n->ninst : 1);
  const char **names = ARENA_NEW(e->a, const char *, n->ninst ? n->ninst : 1);
  uint32_t i = 0;
  for (uint32_t m = 0; m < nmi; m++) {
    while (i < n->ninst && n->inst[i].mi != m)
      i++;
    uint32_t k = 0, first = i;
    for (; i < n->ninst && n->inst[i].mi == m; i++) {
      Inst *in = &n->inst[i];
      if (!in->in_config || in->deposed)
        continue;
      vals[first + k] = in->value.type ? in->value : val_dynamic_unknown;
      names[first + k] = in->key.s;
      k++;
    }
    if (n->repetition == 0)
      n->vals[m] = k ? vals[first]
                   : n->disabled ? val_dynamic_null   /* OpenTofu: null */
                                 : val_dynamic_unknown;
    else if (n->repetition == 1)
      n->vals[m] = val_tuple(e->a, vals + first, k);
    else
      n->vals[m] = val_object(e->a, k, names + first, vals + first);
  }
}

static void emit_node(Engine *e, Node *n)
{
  if (n->flushed)
    return;
  n->flushed = true;
  if (!e->o.event)
    return;
  /* under e->mu: the hook allocates from the caller's arena, which may be
  ** e->a (and the state's), which workers allocate from under e->mu */
  pthread_mutex_lock(&e->mu);
  for (uint32_t i = 0; i < n->ninst; i++)
    for (EngEvent *ev = n->inst[i].ev_head; ev; ev = ev->next)
      if (!ev->delivered)
        e->o.event(e->o.event_ctx, ev);
  pthread_mutex_unlock(&e->mu);
}

static void done(void *ctx, uint32_t v, DagStatus st)
{
  Engine *e = ctx;
  Node *n = &e->nodes[v];
  n->finished = true;
  if (st == DAG_OK && (n->kind == N_RESOURCE || n->kind == N_ORPHAN)) {
    if (n->kind == N_RESOURCE) {
      /* e->a may also be the state's arena, which workers allocate from
      ** under e->mu (state_res) */
      pthread_mutex_lock(&e->mu);
      aggregate(e, n);
      pthread_mutex_unlock(&e->mu);
    }
    for (uint32_t i = 0; i < n->ninst; i++)
      if (n->inst[i].change && n->inst[i].change->action != PL_NOOP)
        n->pending = true;
  }
  /* deliver events in topological order, as far as it has finished */
  while (e->topo_pos < e->nnodes && e->nodes[e->topo[e->topo_pos]].finished)
    emit_node(e, &e->nodes[e->topo[e->topo_pos++]]);
}

/* ---- walking ------------------------------------------------------------ */

static bool walk(Engine *e, Diags *d)
{
  e->topo_pos = 0;
  uint8_t *status = ARENA_NEW(e->a, uint8_t, e->nnodes ? e->nnodes : 1);
  DagWalk w = {&e->g, e->pool, e->nworkers, visit, done, e, NULL, e->o.stop,
               fanout, sub, tick, e->beat < 5 ? e->beat / 5 : 1.0};
  /* the walk's own memory: it allocates on the owner thread while workers
  ** allocate from e->a under e->mu */
  Arena wa;
  arena_init(&wa, 0);
  bool ok = dag_walk(&w, &wa, status);
  arena_release(&wa);
  /* a stopped walk leaves nodes unfinished: deliver what exists */
  for (uint32_t i = 0; i < e->nnodes; i++)
    emit_node(e, &e->nodes[e->topo[i]]);
  for (uint32_t i = 0; i < e->nnodes; i++) {
    Node *n = &e->nodes[e->topo[i]];
    if (n->diags_ready)
      diag_move(d, &n->diags);
    for (uint32_t k = 0; k < n->ninst; k++)
      if (n->inst[k].diags_ready)
        diag_move(d, &n->inst[k].diags);
  }
  if (!ok && !diag_has_errors(d) && e->o.stop && *e->o.stop)
    diag_error(d, NULL, "Operation cancelled",
               "The operation was interrupted; operations already started "
               "have finished and are recorded.");
  return ok && !diag_has_errors(d);
}

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

/* ---- public API ----------------------------------------------------------- */

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
  ProvSlot *ps = resource_slot(e, vc->t, r, &d);
  if (!ps || !ps->schema)
    return VLD_SCHEMA_SKIP;
  const ProvTypeSchema *t =
      type_schema(ps, mode == CFG_DATA ? ST_DATA : ST_MANAGED, r->type);
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
  ProvSlot *ps = resource_slot(e, vc->t, r, &d);
  if (!ps || !ps->schema)
    return;
  const ProvTypeSchema *ts = mode == CFG_DATA ? ps->schema->data_sources
                                              : ps->schema->resources;
  uint32_t cnt = mode == CFG_DATA ? ps->schema->ndata_sources
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
    resource_slot(e, t, &m->resources[i], d);
  for (uint32_t i = 0; i < m->nproviders; i++) {
    const CfgProvider *cp = &m->providers[i];
    const char *src = cfg_provider_source(m, cp->name);
    const char *fqn =
        prov_source_normalize(e->a, src ? src : cp->name, &cp->range, d);
    if (fqn)
      ensure_slot(e, t->path, cp, cp->name, fqn, cp->alias, d);
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
  VldCtx vc = {e, t};
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
  e->root = build_mods(e, t, NULL);
  e->root->nmi = 1;
  e->root->mi = ARENA_NEW(a, MInst, 1);
  e->root->mi[0].addr = "";
  prepare_module(e, t, d);
  /* providers of resources only the state knows */
  if (state && !diag_has_errors(d))
    for (uint32_t i = 0; i < state->nres; i++)
      state_slot(e, state->res[i]->provider, d);
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
      scope_ctx(&ctx, &sc, e, NULL, e->root, 0, NULL, e->a, d);
      if (!expand_keys(&ctx, NULL, im->for_each, e->a, d, &keys, &reps, &nk))
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
      scope_ctx(&ctx, &sc, e, NULL, e->root, 0, &reps[k], e->a, d);
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
  map_init(&e->imports, e->a, nt + 1);
  e->import_ids = ARENA_NEW(e->a, const char *, nt + 1);
  e->import_addrs = ARENA_NEW(e->a, const char *, nt + 1);
  e->import_ranges = ARENA_NEW(e->a, const SrcRange *, nt + 1);
  e->import_used = ARENA_NEW(e->a, uint8_t, nt + 1);
  e->nimports = 0;
  for (uint32_t i = 0; i < nt; i++) {
    uint32_t old;
    if (map_get(&e->imports, tv[i].addr, &old)) {
      diag_error(d, tv[i].range,
                 arena_printf(e->a, "Duplicate import configuration for "
                              "\"%s\"", tv[i].addr),
                 "An import block for the resource \"%s\" was already "
                 "declared. A resource can have only one import block.",
                 tv[i].addr);
      ok = false;
      continue;
    }
    map_put(&e->imports, tv[i].addr, e->nimports);
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
    if (!map_get(&e->by_name, buf_str(&sb), &v))
      continue;
    Inst in = {0};
    in.addr = to;
    in.module = sa.module;
    in.key = sa.kind == ST_ADDR_INSTANCE ? sa.key : st_nokey();
    if (inst_targeted(e, &e->nodes[v], &in))
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
  e->plan = p;
  e->phase = PH_PLAN;
  e->nfl = 0;   /* no heartbeats while planning */
  e->state = st_clone(a, prior);
  p->prior_state = e->state;
  memset(&e->moves, 0, sizeof e->moves);
  if (!parse_targets(e, e->o.targets, e->o.ntargets, d) ||
      !rf_check_removed(a, e->tree, d) ||
      !rf_apply_moves(a, e->tree, e->state, &e->moves, d) ||
      !collect_imports(e, d)) {
    p->errored = true;
    return false;
  }
  set_vars(e, e->o.vars, e->o.nvars);
  reset_nodes(e);
  if (!build_graph(e, e->state, d) || !moves_targeted(e, d)) {
    p->errored = true;
    return false;
  }
  bool ok = walk(e, d);
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
    if (n->kind != N_OUTPUT || n->mod != e->root || !n->finished ||
        n->untargeted || !n->vals || !n->vals[0].type)
      continue;
    Value agg = n->vals[0];
    const StOutput *so = st_find_output(ps, n->out->name);
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
  p->errored = !ok;
  p->complete = !e->ntg;
  if (e->ntg)
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
  e->plan = p;
  e->state = state;
  e->mgr = m;
  e->nfl = (uint32_t)e->nworkers;
  e->fl = ARENA_NEW(a, Flight, e->nfl);
  m->state_mu = &e->mu;   /* record applies and our state lookups exclude
                             each other (stmgr.h) */
  e->o.mode = p->mode;
  map_init(&e->changes, a, p->nchanges);
  for (uint32_t i = 0; i < p->nchanges; i++) {
    PlChange *c = &p->changes[i];
    const char *k = c->deposed ? arena_printf(a, "%s %s", c->addr, c->deposed)
                               : c->addr;
    map_put(&e->changes, k, i);
    if (!c->schema)
      c->schema = eng_schema(e, c->mode, c->provider_name, c->type);
  }
  set_vars(e, p->vars, p->nvars);
  if (!parse_targets(e, p->targets, p->ntargets, d))
    return false;
  /* the plan was made after moving; move the working state the same way
  ** and make that durable before any operation */
  memset(&e->moves, 0, sizeof e->moves);
  if (!rf_apply_moves(a, e->tree, state, &e->moves, d))
    return false;
  if (e->moves.n && !stmgr_commit(m, state, d))
    return false;
  reset_nodes(e);
  if (!build_graph(e, state, d))
    return false;
  bool ok = true;
  if (p->mode != PL_MODE_REFRESH_ONLY) {
    ok = walk(e, d);
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
        !map_get(&e->by_name, st_static_path(a, sr->addr), &u) ||
        mi_find(e->nodes[u].mod, sr->module) == UINT32_MAX)
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
  uint32_t v = change_node(e, c);
  if (v == UINT32_MAX || !c->importing) {
    diag_error(d, NULL, "Import failed",
               "The plan has no import for %s.", c->addr);
    return false;
  }
  Node *n = &e->nodes[v];
  StObject *o = make_obj(e, e->a, n, c->before, c->priv, c->before, d);
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
      const ProvTypeSchema *t = type_schema(&e->slots[i], mode, type);
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
  ProvSlot *ps = state_slot(e, r->provider, &d);
  if (!ps || !ps->prov)
    return false;
  Node n;
  memset(&n, 0, sizeof n);
  n.ps = ps;
  n.addr = r->addr;
  n.type = r->type;
  n.mode = r->mode;
  n.tschema = type_schema(ps, r->mode, r->type);
  if (!n.tschema)
    return false;
  if (!decode_obj(e, a, &n, NULL, o, out, &d))
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
  if (!build_graph(e, s, d))
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
