/*
** engine_priv: private to the engine module (core/engine/engine*.c).
** Shares the Engine struct, the types of the graph (modules, provider
** slots, nodes, instances), and the functions one piece of the engine
** calls in another, grouped by the file that defines them (see engine.c
** for the list of pieces).  Everything else stays static in its piece.
** Nothing outside core/engine/engine*.c includes this header.
**
** Threads: a pool worker writes the node or instances it visits and
** allocates their results from its own arena (eng_worker_arena); it
** allocates from e->a or the state's arena only under e->mu.  Functions
** taking an Arena *a allocate their results there.
*/
#ifndef CAIRN_ENGINE_PRIV_H
#define CAIRN_ENGINE_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/dag.h"
#include "base/pool.h"
#include "engine.h"
#include "lang/eval.h"
#include "lifecycle.h"
#include "refactor.h"

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
  N_DEPOSED,    /* apply: deletes of the objects a +/- replace deposed,
                   run after the dependents have moved to the new ones */
  N_EPHEMERAL   /* an ephemeral block: its instances are opened in every
                   walk and closed after it (engine_ephemeral.c) */
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
  Value decoded;            /* plan: prior decoded ahead of the instance's
                               scratch scope (engine_walk.c); type NULL
                               when not (yet) decoded */
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
  bool eph_open;            /* ephemeral: opened, not yet closed */
  ProvBytes eph_priv;       /* ephemeral: Open's private data (Close) */
  int64_t eph_renew_at;     /* ephemeral: Unix seconds to renew by, 0:
                               never (under Engine.mu) */
  ProvBytes eph_renew_priv; /* ephemeral: private data for the next Renew */
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
  atomic_uint pieces_left;  /* pieces not yet run: the worker that runs
                               the last one makes the node's journal
                               records durable (sub, engine_walk.c) */
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
  bool errored;             /* it (or what it needs) failed: an output
                               that failed has no planned change */
} Node;

typedef struct StrMap {
  const char **keys;
  uint32_t *vals;
  uint32_t cap;
} StrMap;

typedef enum Phase { PH_PLAN, PH_APPLY } Phase;

/* An apply operation in flight, for the "Still creating..." heartbeats:
** written by its worker under the slot's own mu, read by the owner's tick
** (eng_tick) under Engine.mu and then the slot's mu.  A worker claims a
** free slot with `taken` (no lock): slots are per operation, not per
** engine, so workers never wait for each other here. */
typedef struct Flight {
  atomic_bool taken;        /* claimed by a worker (lock-free) */
  pthread_mutex_t mu;       /* the fields below */
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
  const Type **wtype;       /* per worker: the last no-op prior's object
                               type, shared by the next (engine_scratch.c) */
  int nworkers;
  pthread_mutex_t mu;       /* prior_state / plan collections */
  Phase phase;
  State *state;             /* plan: refreshed copy; apply: working state */
  StMgr *mgr;
  Plan *plan;
  bool has_plan_time;       /* plan->timestamp parsed (eng_set_plan) */
  int64_t plan_time_sec;    /* plantimestamp() in Unix seconds */
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
  struct EngFns *fns;       /* provider functions per module (engine_fn) */
};

/* The scope an expression is evaluated in (EvalCtx.resolve_data). */
typedef struct Scope {
  Engine *e;
  const Node *n;
  const EMod *mod;          /* the module the expression is in */
  uint32_t mi;              /* its instance */
  const Rep *rep;           /* count/each, or NULL */
} Scope;

/* ---- engine_fn.c: provider-defined functions --------------------------- */

typedef struct EngFns EngFns;
/* Opens (owner thread, in eng_new) what module t's provider functions
** need and builds its table; errors opening a provider are kept and shown
** when one of its functions is called. */
void eng_fns_prepare(Engine *e, const CfgTree *t);
/* The EvalCtx.provider_fn hook; provider_fn_data is the Scope. */
const FnDef *eng_provider_fn(EvalCtx *ctx, const HclExpr *call,
                             bool *has_funcs, bool *failed);
/* The same hook where no instance is in scope (the validate walk):
** provider_fn_data is an EngFnModule. */
typedef struct EngFnModule {
  Engine *e;
  const CfgModule *m;
} EngFnModule;
const FnDef *eng_module_provider_fn(EvalCtx *ctx, const HclExpr *call,
                                    bool *has_funcs, bool *failed);
void eng_fns_close(Engine *e);

/* ---- engine.c: small utilities ----------------------------------------- */

/* Makes m an empty map with room for n keys, from a. */
void eng_map_init(StrMap *m, Arena *a, uint32_t n);
/* Sets k to v; k is not copied and must live as long as m. */
void eng_map_put(StrMap *m, const char *k, uint32_t v);
/* The value of k into *v; false when k is absent. */
bool eng_map_get(const StrMap *m, const char *k, uint32_t *v);
/* The monotonic clock in seconds (operation durations). */
double eng_now_sec(void);
/* The results arena of pool worker w. */
Arena *eng_worker_arena(Engine *e, PoolWorker *w);
/* in's diagnostics, the list made from a on first use. */
Diags *eng_inst_diags(Inst *in, Arena *a);
/* n's diagnostics, the list made from a on first use. */
Diags *eng_node_diags(Node *n, Arena *a);
/* Appends a progress event to in's list; obj gives its [id=x] suffix. */
void eng_add_event(Arena *a, Inst *in, EngEventKind k, PlAction act,
                   const PlChange *c, Value obj, double elapsed);
/* An error at n's resource block, with in's address (in may be NULL). */
Diag *eng_inst_error(Diags *d, const Node *n, const Inst *in,
                     const char *summary, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Attributes provider diagnostics after mark (NULL: all) to n and in. */
void eng_attribute_prov_diags(Diags *d, Diag *mark, const Node *n,
                              const Inst *in);
/* The same, but a diagnostic that carries an attribute path (c->paths)
** points at that attribute's expression in the resource's body. */
void eng_attribute_path_diags(Diags *d, Diag *mark, const ProvCall *c,
                              const Node *n, const Inst *in);
/* Provider diagnostics after mark (NULL: all) that carry an attribute
** path (c->paths) get, as Terraform's InConfigBody gives them, ps's
** address ("with provider[...]") and that attribute's expression in ps's
** configuration block. */
void eng_provider_path_diags(Diags *d, Diag *mark, const ProvCall *c,
                             const ProvSlot *ps);
/* The "This is a bug in the provider" ending of contract errors. */
extern const char *const eng_bug_suffix;

/* ---- engine_state.c: values to and from the state ---------------------- */

/* cty's TestConformance: have is want, dynamic in want taking anything. */
bool eng_conforms(const Type *have, const Type *want);
/* The object type block schema b implies, from e's arena. */
const Type *eng_implied(Engine *e, const ProvBlockSchema *b);
/* to with the sensitive marks of from where the shapes agree. */
Value eng_copy_marks(Arena *a, Value to, Value from);
/* The typed, marked value of state object o; false with a diagnostic. */
bool eng_decode_obj(Engine *e, Arena *a, const Node *n, const Inst *in,
                    const StObject *o, Value *out, Diags *d);
/* The state object of value v, from a; NULL with a diagnostic. */
StObject *eng_make_obj(Engine *e, Arena *a, const Node *n, Value v,
                       ProvBytes priv, Value config_marks, Diags *d);

/* ---- engine_scope.c: resolving references ------------------------------ */

/* The node named mod's prefix + name into *idx; false when none. */
bool eng_find_node(const Engine *e, const EMod *mod, const char *name,
                   uint32_t *idx);
/* Sets e->plan and parses its timestamp once for plantimestamp(): the
** scopes of every instance read it (a strptime per scope cost about 550
** instructions, twice per planned instance). Call before the walk. */
void eng_set_plan(Engine *e, Plan *p);
/* Sets up ctx to evaluate in instance mi of mod (rep: count/each). */
void eng_scope_ctx(EvalCtx *ctx, Scope *s, Engine *e, const Node *n,
                   const EMod *mod, uint32_t mi, const Rep *rep, Arena *a,
                   Diags *d);
/* eng_scope_ctx for instance in of resource node n. */
void eng_inst_scope(EvalCtx *ctx, Scope *s, Engine *e, const Node *n,
                    const Inst *in, Arena *a, Diags *d);

/* ---- engine_ephemeral.c: ephemeral resources ---------------------------- */

/* Opens ephemeral instance in (preconditions, OpenEphemeralResource,
** postconditions) and publishes its value; an unknown configuration gives
** an unknown value and opens nothing.  false with diagnostics. */
bool eng_open_ephemeral(Engine *e, Node *n, Inst *in, Arena *a, Diags *d);
/* Closes every instance the walk opened, in graph order, with the
** Closing events; owner thread, after the walk. */
void eng_close_ephemerals(Engine *e, Diags *d);
/* Before a reference reads ephemeral node n: renews (RenewEphemeralResource,
** under e->mu) each open instance whose renew time has passed, as
** Terraform's renewal timer would have by then; a failed renewal's
** diagnostics go to d. */
void eng_renew_ephemeral(Engine *e, Node *n, Diags *d);
/* Terraform's "Invalid use of ephemeral value" for every attribute of a
** managed or data resource configuration that holds an ephemeral value
** and is not write-only.  false with diagnostics. */
bool eng_check_ephemeral_config(const Node *n, const Inst *in, Value config,
                                Diags *d);

/* ---- engine_move.c: moves across resource types ------------------------ */

/* Hands every object of s that e->moves moved from another resource type
** to its new type's provider (MoveResourceState) and stores the object it
** returns; false with diagnostics (the provider's, on the resource) when
** a provider refuses. */
bool eng_move_types(Engine *e, State *s, Diags *d);

/* ---- engine_graph.c: graph construction -------------------------------- */

/* The slot (mod_path, fqn, alias), opened on first use; moves e->slots. */
ProvSlot *eng_ensure_slot(Engine *e, const char *mod_path,
                          const CfgProvider *cfg, const char *local,
                          const char *fqn, const char *alias, Diags *d);
/* The slot resource r of module t uses; NULL with a diagnostic. */
ProvSlot *eng_resource_slot(Engine *e, const CfgTree *t,
                            const CfgResource *r, Diags *d);
/* The slot a state provider address names; NULL with a diagnostic. */
ProvSlot *eng_state_slot(Engine *e, const char *paddr, Diags *d);
/* The schema of a resource or data source type of ps, or NULL. */
const ProvTypeSchema *eng_type_schema(const ProvSlot *ps, StMode mode,
                                      const char *type);
/* The static modules of tree t below parent, children built too. */
EMod *eng_build_mods(Engine *e, const CfgTree *t, EMod *parent);
/* The static resource node of a change's resource, or UINT32_MAX. */
uint32_t eng_change_node(Engine *e, const PlChange *c);
/* Builds e's nodes, edges and order for e->phase; false with diags. */
bool eng_build_graph(Engine *e, const State *s, Diags *d);

/* ---- engine_target.c: -target ------------------------------------------ */

/* Parses -target addresses into e->tg; false with Terraform's error. */
bool eng_parse_targets(Engine *e, const char *const *tv, uint32_t n,
                       Diags *d);
/* Is instance in of node n to be planned or applied? */
bool eng_inst_targeted(const Engine *e, const Node *n, const Inst *in);
/* Marks the nodes -target leaves out (untargeted, tfilter); needs e->topo. */
void eng_select_targets(Engine *e);

/* ---- engine_expand.c: expansion ---------------------------------------- */

/* n zeroed instances from a (room for one when n is 0). */
Inst *eng_new_insts(Arena *a, uint32_t n);
/* The keys count/for_each give, in key order; false with diagnostics. */
bool eng_expand_keys(EvalCtx *ctx, const HclExpr *count,
                     const HclExpr *for_each, Arena *a, Diags *d,
                     StKey **keys_out, Rep **reps_out, uint32_t *n_out);
/* The same with the key and repetition arrays in ta (what they point to,
** for_each keys and values, in a). */
bool eng_expand_keys_in(EvalCtx *ctx, const HclExpr *count,
                        const HclExpr *for_each, Arena *a, Arena *ta,
                        Diags *d, StKey **keys_out, Rep **reps_out,
                        uint32_t *n_out);
/* The index of module instance addr in m (may be NULL), or UINT32_MAX. */
uint32_t eng_mi_find(const EMod *m, const char *addr);
/* n->inst of configured resource n (count/for_each), with prior objects. */
bool eng_expand(Engine *e, Node *n, Arena *a, Diags *d);
/* n->inst of an orphan (or destroy mode): every object in the state. */
void eng_expand_state(Node *n, Arena *a);
/* A module call's child instances (the child's mi, child_start). */
bool eng_expand_call(Engine *e, Node *n, Arena *a, Diags *d);

/* ---- engine_plan.c: planning one instance ------------------------------ */

/* A value path as Terraform writes it in messages. */
const char *eng_fmt_path(Arena *a, ValPath p);
/* The value of the resource body for instance in into *out. */
bool eng_eval_config(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                     Value *out);
/* PlanResourceChange with the contract checks; prior may be null. */
bool eng_provider_plan(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                       Value prior, Value config, ProvBytes ppriv,
                       ProvPlanResp *out);
/* Plans a delete of in's prior object, for reason why. */
bool eng_plan_delete(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                     PlReason why);
/* Does a removed block with lifecycle { destroy = false } cover in? */
bool eng_forgotten(Engine *e, const Node *n, const Inst *in);
/* Plans in's object to leave the state untouched ("no longer managed"). */
bool eng_plan_forget(Engine *e, Node *n, Inst *in, Arena *a, Diags *d);
/* The reason instance in, no longer configured, is deleted. */
PlReason eng_gone_reason(const Node *n, const Inst *in);
/* Checks n's postconditions with self = the planned or new object. */
bool eng_check_post(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                    Value self, LcRuleKind kind);
/* Plans managed instance in: refresh or import, then change or delete. */
bool eng_plan_managed(Engine *e, Node *n, Inst *in, Arena *a, Diags *d);
/* Reads data source instance in with config (ReadDataSource). */
bool eng_read_data(Engine *e, Node *n, Inst *in, Arena *a, Diags *d,
                   Value config, Value *out);
/* Plans data source instance in: read now, or deferred to apply. */
bool eng_plan_data(Engine *e, Node *n, Inst *in, Arena *a, Diags *d);

/* ---- engine_scratch.c: planning an instance in a scratch scope -------- */

/* eng_plan_managed for a prior object in a scope of a that is given back
** when the plan is a no-op equal to the prior (see engine_scratch.c). */
bool eng_plan_managed_scoped(Engine *e, Node *n, Inst *in, Arena *a,
                             Diags *d);
/* eng_apply_managed in a scope of a: when the apply went cleanly (any
** action but an import) the instance's value and events are kept and the
** rest given back (see engine_scratch.c). */
bool eng_apply_managed_scoped(Engine *e, Node *n, Inst *in, Arena *a,
                              Diags *d);
/* eng_apply_work (a delete of N_DESTROY / N_DEPOSED) in such a scope. */
bool eng_apply_work_scoped(Engine *e, Node *n, Inst *in, Arena *a,
                           Diags *d);

/* ---- engine_apply.c: applying one instance ----------------------------- */

/* dag_walk's tick on the owner thread: interrupts and heartbeats. */
void eng_tick(void *ctx);
/* Applies managed instance in's planned change, recording the result. */
bool eng_apply_managed(Engine *e, Node *n, Inst *in, Arena *a, Diags *d);
/* The plan's change for instance in (by address and deposed key), or
** NULL. */
const PlChange *eng_find_change(Engine *e, const Inst *in);
/* n->inst of an N_DESTROY / N_DEPOSED node: its deletes. */
void eng_expand_work(Engine *e, Node *n, Arena *a);
/* Deletes the object of instance in of an N_DESTROY / N_DEPOSED node. */
bool eng_apply_work(Engine *e, Node *n, Inst *in, Arena *a, Diags *d);
/* Applies data source instance in: the read the plan deferred, if any. */
bool eng_apply_data(Engine *e, Node *n, Inst *in, Arena *a, Diags *d);

/* ---- engine_action.c: actions (docs/actions.md) ------------------------ */

/* The slot action x of module t uses; NULL with a diagnostic. */
ProvSlot *eng_action_slot(Engine *e, const CfgTree *t, const CfgAction *x,
                          Diags *d);
/* -invoke during plan: leaves every resource out (as -target would). */
void eng_target_nothing(Engine *e);
/* After the plan walk (owner thread): the invocations the planned
** changes trigger and those -invoke asks for, into p.  false with
** diagnostics. */
bool eng_plan_actions(Engine *e, Plan *p, Diags *d);
/* Apply: invokes the plan's actions triggered by in's change before
** (after = false) or after it.  false with diagnostics. */
bool eng_run_actions(Engine *e, Node *n, Inst *in, bool after, Arena *a,
                     Diags *d);
/* Apply, after the walk: the -invoke invocations of p. */
bool eng_run_cli_actions(Engine *e, Plan *p, Diags *d);

/* ---- engine_walk.c: node visits and the walk --------------------------- */

/* Walks e's graph on the pool; diagnostics into d in topological order. */
bool eng_walk(Engine *e, Diags *d);

#endif
