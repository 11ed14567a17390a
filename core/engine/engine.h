/*
** engine: plan and apply.  Builds the dependency graph of a root module
** (providers, locals, outputs, resources and data sources, plus the
** resources only the state still knows), walks it on the fixed-size pool
** with dag_walk (a resource node fans out into its instances), and talks
** to providers only through core/providers/provider.h.  Design: docs/engine.md.
**
** Phases and memory:
** - eng_new() loads every provider the configuration and state need (via
**   the caller's open_provider hook), fetches and prepares their schemas,
**   and runs the static checks (core/config/validate.h).  Everything lives in
**   the arena given to eng_new, which must outlive the Engine, every Plan
**   it returns and every value published into a State.
** - eng_plan() plans against a loaded state, which it does not modify: the
**   refreshed state is a copy, Plan.prior_state.
** - eng_apply() applies a plan (made by eng_plan in this process, or read
**   from a saved plan file) to `state`, which must be a copy of the plan's
**   prior state under the caller's lock; every completed operation is
**   recorded through stmgr (journal, durable) as it completes, so an
**   interrupted or failing apply keeps everything that was done.
** - Results of pool workers go to per-worker arenas owned by the Engine;
**   values are immutable once published to another node.
**
** Determinism: progress events (refresh, apply) are delivered to the
** event hook on the calling thread, in a fixed order (the graph's
** topological order, instances in key order), each once the instance and
** everything before it in that order has finished.  So the output is the
** same for -parallelism=1 and =64; a slow instance delays the lines of
** later ones.  Diagnostics are collected per instance and merged in the
** same order.
**
** Interrupts: *opts->stop set (by a SIGINT handler) stops starting new
** operations; running ones finish and are recorded.
*/
#ifndef CAIRN_ENGINE_H
#define CAIRN_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "config/config.h"
#include "plan.h"
#include "providers/provider.h"
#include "state/state.h"
#include "state/stmgr.h"

typedef enum EngEventKind {
  ENG_EV_REFRESH_START = 1,  /* "A: Refreshing state... [id=x]" */
  ENG_EV_REFRESH_DONE,       /* (JSON stream only: refresh_complete) */
  ENG_EV_READ_START,         /* data source: "A: Reading..." */
  ENG_EV_READ_DONE,          /* "A: Read complete after 0s [id=x]" */
  ENG_EV_APPLY_START,        /* "A: Creating..." / Modifying / Destroying */
  ENG_EV_APPLY_DONE,         /* "A: Creation complete after 1s [id=x]" */
  ENG_EV_APPLY_PROGRESS,     /* "A: Still creating... [10s elapsed]": every
                                10 s of an operation, delivered at once
                                (the one timing-dependent event) */
  ENG_EV_APPLY_ERRORED,      /* (JSON stream only) */
  ENG_EV_IMPORT_DONE,        /* "A: Import complete [id=x]" */
  ENG_EV_PROVISION_START,    /* "A: Provisioning with 'local-exec'..." */
  ENG_EV_PROVISION_OUTPUT,   /* "A (local-exec): TEXT" (text NULL: an
                                empty line) */
  ENG_EV_PROVISION_DONE,     /* (JSON stream only) the step succeeded */
  ENG_EV_PROVISION_ERRORED,  /* (JSON stream only) the step failed, also
                                under on_failure = continue */
  ENG_EV_EPHEMERAL_OPEN_START,   /* "A: Opening..." */
  ENG_EV_EPHEMERAL_OPEN_DONE,    /* "A: Opening complete after 0s" */
  ENG_EV_EPHEMERAL_CLOSE_START,  /* "A: Closing..." */
  ENG_EV_EPHEMERAL_CLOSE_DONE,   /* "A: Closing complete after 0s" */
  /* actions (docs/actions.md): addr is the action instance, trigger the
  ** triggering instance (NULL: -invoke, "CLI") */
  ENG_EV_ACTION_START,       /* "Action started: X (triggered by A)" */
  ENG_EV_ACTION_PROGRESS,    /* "Action X (triggered by A): TEXT" */
  ENG_EV_ACTION_DONE,        /* "Action complete: X (triggered by A)" */
  ENG_EV_ACTION_ERRORED      /* (JSON stream only); text: the error */
} EngEventKind;

typedef struct EngEvent {
  EngEventKind kind;
  const char *addr;          /* instance address */
  const char *deposed;       /* deposed key or NULL */
  PlAction action;           /* the operation (DELETE for the destroy half
                                of a replace, CREATE for the create half) */
  const PlChange *change;    /* the planned change, when there is one */
  const char *id_key;        /* "id" / "name" or NULL: the [k=v] suffix */
  const char *id_value;
  double elapsed;            /* seconds, for *_DONE and ERRORED */
  const char *text;          /* PROVISION_START: the provisioner type;
                                PROVISION_OUTPUT: the output line */
  const char *prov;          /* PROVISION_*: the provisioner type */
  /* EPHEMERAL_*: the instance (there is no change to take it from) */
  const char *module;        /* module instance address, "" for root */
  const char *type, *name;
  StKey key;
  const char *trigger;       /* ACTION_*: see above */
  const PlInvoke *invoke;    /* ACTION_*: the invocation (change: the
                                triggering change, NULL for -invoke) */
  bool delivered;            /* engine-private: sent ahead of its turn */
  struct EngEvent *next;
} EngEvent;

typedef struct EngOpts {
  int parallelism;           /* >= 1; the pool has this many workers */
  bool refresh;              /* plan: ReadResource on prior objects */
  PlMode mode;
  const PlVariable *vars;    /* root variable values (vars_collect) */
  uint32_t nvars;
  const char *workspace;     /* terraform.workspace */
  const char *const *replace;  /* -replace=ADDR, as given */
  uint32_t nreplace;
  const char *const *targets;  /* -target=ADDR, as given: the plan covers
                                  them and what they depend on */
  uint32_t ntargets;
  /* Opens the provider with a fully-qualified source address; NULL with
  ** a diagnostic when it cannot. */
  Prov *(*open_provider)(void *ctx, const char *fqn, Diags *d);
  void *open_ctx;
  /* Progress events, on the calling thread, deterministic order.  Called
  ** with the engine's lock held (the one workers take to allocate from
  ** the engine's arena), so the hook may allocate from that arena; it
  ** must not call back into the engine. */
  void (*event)(void *ctx, const EngEvent *ev);
  void *event_ctx;
  volatile sig_atomic_t *stop;
  const char *root_dir;      /* path.root / path.module ("." usually) */
  /* `cairn import ADDR ID`: one more import target besides the import
  ** blocks (NULL when none). */
  const char *import_addr;
  const char *import_id;
  /* -invoke=ADDR: plan only these actions, no resource changes
  ** (docs/actions.md). */
  const char *const *invoke;
  uint32_t ninvoke;
  /* The caller has run vld_tree on the whole tree with every resource's
  ** schema (`cairn validate`, when every provider is built in): eng_new
  ** does not run the same static checks again. */
  bool static_checked;
} EngOpts;

typedef struct Engine Engine;

/* Prepares an engine for root module m (module calls are not supported
** yet and give an error).  state (may be NULL) names the providers of
** resources that only the state knows.  NULL with diagnostics on error;
** providers opened so far are closed then. */
Engine *eng_new(Arena *a, const CfgTree *t, SrcFiles *files,
                const State *state, const EngOpts *o, Diags *d);

/* Terraform's validate walk over e's configuration (engine_validate.c;
** every input unknown): known count/for_each, provider
** ValidateResourceConfig, locals, outputs, module arguments.  eng_plan
** runs it first; `cairn validate` runs it alone.  False with its
** diagnostics (errors and warnings, sorted) appended to d; on success d
** is left unchanged. */
bool eng_validate(Engine *e, Diags *d);

/* Plans.  *out is set even when the graph walk failed part way
** (Plan.errored: `plan -out` still saves it, as Terraform does), and NULL
** when planning could not start (bad -target, moved, import or graph
** errors), where Terraform's Plan returns no plan either.  Returns false
** when there were errors. */
bool eng_plan(Engine *e, State *prior, Plan **out, Diags *d);

/* Applies p (whose PlChange.schema may be NULL: the engine fills them)
** to state, recording through m.  Returns false when any operation
** failed; the state then holds everything that completed. */
bool eng_apply(Engine *e, Plan *p, State *state, StMgr *m, Diags *d);

/* `cairn import ADDR ID`: adds ADDR (a root managed resource instance
** address) with ID to the imports of the next eng_plan. */
void eng_set_import(Engine *e, const char *addr, const char *id);

/* `cairn import`: records the imported object a plan's importing change
** carries (c->before) in state through m, without applying anything. */
bool eng_record_import(Engine *e, const PlChange *c, State *state, StMgr *m,
                       Diags *d);

/* The block schema of a resource type of a loaded provider, or NULL. */
const ProvBlockSchema *eng_schema(const Engine *e, StMode mode,
                                  const char *provider_fqn,
                                  const char *type);

/* Decodes a state object's attributes for rendering (show): the typed
** value with sensitive marks, and its schema.  False when the provider or
** type is not known (the caller renders the raw JSON then). */
bool eng_decode_object(Engine *e, Arena *a, const StResource *r,
                       const StObject *o, Value *out,
                       const ProvBlockSchema **schema);

/* `cairn graph`: the resources of the configuration (and state orphans)
** and their dependencies in DOT, as Terraform 1.7+ prints by default:
** resource nodes only, edges through locals and outputs collapsed.
** False with diagnostics when the graph cannot be built. */
bool eng_graph_dot(Engine *e, State *s, Buf *out, Diags *d);

/* Stops and closes every provider and the pool.  Idempotent. */
void eng_close(Engine *e);

#endif
