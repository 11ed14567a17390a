/*
** dag: the dependency graph of a plan or apply, and its parallel walk.
**
** Nodes are dense integers 0..n-1 owned by the caller (the engine keeps
** its own array of node payloads).  An edge (a, b) means "a depends on
** b": b must finish before a starts.  Edges are collected in a DagBuilder
** and frozen into a Dag in compressed (CSR) form, both directions,
** duplicates removed.  Everything is linear in nodes + edges.
**
** dag_cycles() finds every cycle (Tarjan's strongly connected components)
** so the engine can name the members in its diagnostic.
**
** dag_walk() runs a visit function for every node on a Pool, with at most
** `parallelism` visits in flight, starting each node as soon as all of its
** dependencies have succeeded.  A node whose dependency failed or was
** skipped is not visited: it is marked DAG_SKIPPED without a visit (no
** "upstream failed" noise, as in Terraform's dag.Walker).  A stop request
** (SIGINT) makes the walk start nothing new; running visits finish.
**
** Memory: the Dag lives in the arena given to dag_build.  Visits run on
** pool workers and must only touch their own node's data plus immutable
** shared data (see core/base/pool.h).
*/
#ifndef CAIRN_DAG_H
#define CAIRN_DAG_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "pool.h"

typedef struct DagBuilder {
  Arena *arena;
  uint32_t n;          /* nodes */
  uint32_t nedges;
  uint32_t cap;
  uint32_t *from;      /* edge i: from[i] depends on to[i] */
  uint32_t *to;
} DagBuilder;

typedef struct Dag {
  uint32_t n;
  uint32_t *dep_start;   /* deps of v: deps[dep_start[v] .. dep_start[v+1]) */
  uint32_t *deps;
  uint32_t *rdep_start;  /* dependents of v, same layout */
  uint32_t *rdeps;
} Dag;

void dag_builder_init(DagBuilder *b, Arena *a, uint32_t nnodes);
/* Adds a node and returns its id. */
uint32_t dag_add_node(DagBuilder *b);
/* a depends on b.  Self-edges are kept (a one-node cycle). */
void dag_add_edge(DagBuilder *b, uint32_t a, uint32_t b_node);
/* Freezes the builder into g (in the builder's arena). */
void dag_build(const DagBuilder *b, Dag *g);

/* Cycles: each is a list of node ids (an SCC of size > 1, or a node with a
** self-edge), members in ascending order, cycles ordered by their smallest
** member.  Returns the number of cycles; *out and *sizes live in arena a. */
uint32_t dag_cycles(const Dag *g, Arena *a, uint32_t ***out,
                    uint32_t **sizes);

/* A topological order (dependencies first, ties by node id) into order[n];
** returns false when the graph has a cycle. */
bool dag_topo_order(const Dag *g, Arena *a, uint32_t *order);

typedef enum DagStatus {
  DAG_PENDING = 0,
  DAG_OK,
  DAG_FAILED,
  DAG_SKIPPED,     /* a dependency failed or was skipped */
  DAG_CANCELLED    /* never started because of a stop request */
} DagStatus;

/* Runs on a worker; returns true on success. */
typedef bool (*DagVisit)(void *ctx, uint32_t node, PoolWorker *w);
/* Runs on the walking (owner) thread after each visit or skip, in
** completion order, e.g. to stream output or record state. */
typedef void (*DagDone)(void *ctx, uint32_t node, DagStatus st);

typedef struct DagWalk {
  const Dag *g;
  Pool *pool;
  int parallelism;       /* >= 1 */
  DagVisit visit;
  DagDone done;          /* may be NULL */
  void *ctx;
  /* Optional: nodes with noop[v] != 0 are treated as done-OK without a
  ** visit (nodes with nothing to do). */
  const uint8_t *noop;
  volatile sig_atomic_t *stop;   /* optional stop request flag */
  /* Optional fan-out, for nodes that expand into many independent pieces
  ** of work (the instances of a resource): after visit(v) succeeds,
  ** fanout(ctx, v) runs on the owner thread and returns k >= 0; then
  ** sub(ctx, v, i, worker) runs for i = 0..k-1 on the pool, in parallel
  ** with everything else (within `parallelism`).  v finishes when all its
  ** pieces are done: DAG_OK when every sub returned true, else
  ** DAG_FAILED; a stop request cancels pieces not yet started.  At most
  ** `parallelism` pool items (runners) run a node's pieces, each claiming
  ** the next unclaimed one until none is left, so one worker may run many
  ** of them in a row.  Either both or neither are set. */
  uint32_t (*fanout)(void *ctx, uint32_t node);
  bool (*sub)(void *ctx, uint32_t node, uint32_t i, PoolWorker *w);
  /* Optional: tick(ctx) runs on the owner thread about every tick_sec
  ** (> 0) while the walk waits for work, whether or not items complete
  ** meanwhile (progress heartbeats, forwarding an interrupt). */
  void (*tick)(void *ctx);
  double tick_sec;
} DagWalk;

/* Walks the whole graph; status[v] receives each node's outcome.  The
** graph must be acyclic (check with dag_cycles first).  Returns true when
** every node ended DAG_OK.  a holds the walk's bookkeeping and is used
** from the calling thread only, while the walk runs. */
bool dag_walk(const DagWalk *w, Arena *a, uint8_t *status);

#endif
