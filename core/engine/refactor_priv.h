/*
** refactor_priv: private to the refactor module (core/engine/refactor*.c).
** What the pieces of `moved` handling share: the small containers and the
** string-keyed hash map, move endpoints, the collected statements and
** their context (refactor.c), the dependency graph between statements
** (refactor_graph.c) and the moves applied to the State
** (refactor_state.c); removed blocks (refactor_removed.c) reuse a few of
** the address helpers.  Nothing outside core/engine/refactor*.c includes
** this header.
*/
#ifndef CAIRN_REFACTOR_PRIV_H
#define CAIRN_REFACTOR_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "refactor.h"

/* ---- Containers (refactor.c) -------------------------------------------- */

typedef struct PList {
  void **p;
  uint32_t n, cap;
} PList;

void rf_pl_push(Arena *a, PList *l, void *v);

typedef struct U32List {
  uint32_t *p;
  uint32_t n, cap;
} U32List;

void rf_u32_push(Arena *a, U32List *l, uint32_t v);

/* String-keyed hash map (open addressing); keys are not copied. */
typedef struct HEnt {
  const char *key;
  uint64_t h;
  void *val;
} HEnt;

typedef struct HMap {
  Arena *a;
  HEnt *e;
  uint32_t cap, n;
} HMap;

/* hint: expected number of keys (sizes the table once). */
void rf_hm_init(HMap *m, Arena *a, uint32_t hint);
/* The value slot for key; created (NULL value) when create is set,
** otherwise NULL when absent. */
void **rf_hm_slot(HMap *m, const char *key, bool create);
void *rf_hm_get(HMap *m, const char *key);

/* "file:line,col" of r's start, for messages naming a block. */
const char *rf_start_string(Arena *a, SrcRange r);

/* ---- Endpoints (refactor.c) --------------------------------------------- */

typedef enum EpKind { EP_MODCALL, EP_MODINST, EP_RES, EP_RESINST } EpKind;

typedef struct MStep {
  const char *name;
  StKey key;
} MStep;

/* A move endpoint relative to its module: module steps, then (for
** resource kinds) the resource and its key. */
typedef struct Ep {
  EpKind kind;
  MStep *mods;
  uint32_t nmods;
  StMode mode;
  const char *type, *name;
  StKey key;
} Ep;

static inline bool rf_ep_is_res(const Ep *e) { return e->kind >= EP_RES; }

/* Whether traversal step s is the attribute (not an index) `name`. */
bool rf_step_is_name(const HclStep *s, const char *name);

/* Appends the module steps m[0..n) ("module.a[0].module.b"), with the
** last step's key when last_key is set, and the resource part of e. */
void rf_put_mods(Buf *b, const MStep *m, uint32_t n, bool last_key);
void rf_put_res(Buf *b, const Ep *e);

/* ---- Statements (refactor.c) -------------------------------------------- */

/* A step of a statement's synthesised module path: the declaring module's
** steps are wildcards (the statement applies to all its instances). */
typedef struct SStep {
  const char *name;
  bool wild;
  StKey key;
} SStep;

typedef struct Stmt {
  const CfgTree *decl;
  const CfgMoved *blk;
  Ep from, to;
  SStep *syn[2];          /* from, to */
  uint32_t nsyn[2];
  const char **decl_names;
  uint32_t depth;
  const char *key[2];     /* own bucket keys (graph) */
} Stmt;

typedef struct Ctx {
  Arena *a;
  Diags *d;
  const CfgTree *root;
  Stmt *st;
  uint32_t n, cap;
} Ctx;

/* Fills st->syn[which] (0 from, 1 to): the declaring module's steps as
** wildcards, then the endpoint's own module steps. */
void rf_synth(Arena *a, Stmt *st, int which);

/* Appends Terraform's implied statements (count added: no key -> [0];
** count removed: [0] -> no key) for the resources of s that c's explicit
** statements do not name (refactor_implied.c). */
void rf_add_implied(Ctx *c, const State *s);

/* The child tree and the module call named `name` of t (NULL if none). */
const CfgTree *rf_child_named(const CfgTree *t, const char *name);
const CfgModuleCall *rf_call_named(const CfgTree *t, const char *name);

/* ---- Dependency graph (refactor_graph.c) -------------------------------- */

typedef struct Graph {
  uint32_t n;
  U32List edges;          /* pairs: dependent, dependency */
  uint32_t *off, *adj;    /* CSR: dependency -> dependents */
  uint32_t *ndeps;        /* unmet dependencies per statement */
} Graph;

/* Builds the graph of dependencies between c's statements: chains (A->B
** before B->C) and moves nested in other moves. */
void rf_build_graph(Ctx *c, Graph *g);
/* Kahn's order: dependencies first, declaration order among equals.
** Returns the number of statements ordered (< n when there is a cycle). */
uint32_t rf_topo_order(Ctx *c, Graph *g, uint32_t *order);
/* Reports every strongly connected component with more than one
** statement. */
void rf_report_cycles(Ctx *c, Graph *g);

/* ---- Moves in the State (refactor_state.c) ----------------------------- */

/* One "module.NAME[KEY]" step of a module instance address at p: returns
** the position after it (and after a following '.'), or NULL at the end
** or on malformed text. */
const char *rf_mi_step(const char *p, const char **name, size_t *nlen,
                       const char **key, size_t *klen);

/* Applies c's statements to s in `order`, recording the net moves in
** out (allocated in outa). */
void rf_apply_all(Ctx *c, State *s, const uint32_t *order, Arena *outa,
                  RfMoves *out);

#endif
