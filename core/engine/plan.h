/*
** plan: the plan model shared by the engine (which builds it), the
** renderers (human text: core/views/render.h; JSON: core/views/jsonplan.h) and the
** saved-plan file (core/engine/planfile.h).
**
** A Plan is plain data: every change of every resource instance object
** (current or deposed), the output changes, the drift found by refresh,
** the root variable values the plan was made with, and the identity of
** the state it was made against.  Values follow core/base/value.h: unknown
** parts of a planned value are VF_UNKNOWN ("known after apply"), and
** sensitive parts carry VF_SENSITIVE (from the schema, from sensitive
** variables, or from the prior state's sensitive_attributes), so the
** renderers derive after_unknown / before_sensitive / after_sensitive and
** "(sensitive value)" from the values themselves.
**
** Ownership: everything a Plan points to lives in plan->arena or in a
** longer-lived arena (the configuration's, the state's, a provider's
** schema); the Plan is immutable once the engine returns it and may be
** read from several threads.
**
** Order: changes and drift are sorted as Terraform's JSON plan sorts
** resource_changes (and the human renderer prints them): by the instance
** address string, bytewise (so a[10] comes before a[2]), then by deposed
** key with the current object first.  Outputs and variables by name.
*/
#ifndef CAIRN_PLAN_H
#define CAIRN_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/value.h"
#include "providers/provider.h"
#include "state/state.h"

/* plans.Action. */
typedef enum PlAction {
  PL_NOOP = 0,
  PL_CREATE,
  PL_READ,
  PL_UPDATE,
  PL_DELETE_THEN_CREATE,   /* "-/+": replace, default order */
  PL_CREATE_THEN_DELETE,   /* "+/-": replace, create_before_destroy */
  PL_DELETE,
  PL_FORGET                /* removed { lifecycle { destroy = false } } */
} PlAction;

/* plans.ResourceInstanceChangeActionReason (JSON plan "action_reason"). */
typedef enum PlReason {
  PL_REASON_NONE = 0,
  PL_REASON_REPLACE_BECAUSE_TAINTED,      /* replace_because_tainted */
  PL_REASON_REPLACE_BY_REQUEST,           /* replace_by_request (-replace) */
  PL_REASON_REPLACE_BY_TRIGGERS,          /* replace_by_triggers */
  PL_REASON_REPLACE_CANNOT_UPDATE,        /* replace_because_cannot_update */
  PL_REASON_DELETE_NO_RESOURCE_CONFIG,    /* delete_because_no_resource_config */
  PL_REASON_DELETE_WRONG_REPETITION,      /* delete_because_wrong_repetition */
  PL_REASON_DELETE_COUNT_INDEX,           /* delete_because_count_index */
  PL_REASON_DELETE_EACH_KEY,              /* delete_because_each_key */
  PL_REASON_DELETE_NO_MODULE,             /* delete_because_no_module */
  PL_REASON_DELETE_NO_MOVE_TARGET,        /* delete_because_no_move_target */
  PL_REASON_READ_CONFIG_UNKNOWN,          /* read_because_config_unknown */
  PL_REASON_READ_DEPENDENCY_PENDING,      /* read_because_dependency_pending */
  PL_REASON_READ_CHECK_NESTED             /* read_because_check_nested */
} PlReason;

/* The JSON plan's spelling of a reason ("" for NONE). */
const char *plan_reason_name(PlReason r);
/* The JSON plan's "actions" array of an action: ["no-op"], ["create"],
** ["delete","create"], ... ; *n receives 1 or 2. */
const char *const *plan_action_names(PlAction a, int *n);

/* One planned change of one resource instance object. */
typedef struct PlChange {
  const char *addr;         /* instance address: module.m[0].t.n["k"] */
  const char *module;       /* module instance address, "" for root */
  StMode mode;
  const char *type;
  const char *name;
  StKey key;
  const char *deposed;      /* 8-hex deposed key, or NULL (current object) */
  const char *prev_addr;    /* moved from this address, or NULL */
  const char *provider;     /* provider configuration address as in state:
                               provider["registry.terraform.io/hashicorp/
                               null"] (alias suffix ".x") */
  const char *provider_name;/* fully-qualified source, e.g.
                               registry.terraform.io/hashicorp/null */
  PlAction action;
  PlReason reason;
  Value before;             /* prior object (null when creating); marks */
  Value after;              /* planned object (null when deleting);
                               unknowns and marks */
  const ValPath *replace_paths;  /* attributes forcing replacement */
  uint32_t nreplace_paths;
  ProvBytes priv;           /* planned private data for apply */
  uint64_t schema_version;
  const ProvBlockSchema *schema; /* the type's schema (rendering, JSON) */
  bool importing;           /* planned by an import block */
  const char *import_id;
  bool tainted_before;      /* prior object is tainted */
  bool cbd;                 /* create_before_destroy in effect */
  int64_t index;            /* position in Plan.changes (set by plan_sort) */
} PlChange;

/* One root output's change. */
typedef struct PlOutput {
  const char *name;
  PlAction action;          /* NOOP, CREATE, UPDATE or DELETE */
  Value before;             /* null when creating */
  Value after;              /* null when deleting; may contain unknowns */
  bool sensitive;           /* declared sensitive (either side) */
} PlOutput;

typedef enum PlMode {
  PL_MODE_NORMAL = 0,
  PL_MODE_DESTROY,
  PL_MODE_REFRESH_ONLY
} PlMode;

/* A root input variable as given to plan (the saved plan keeps these). */
/* Where a root variable's value came from (vars_collect), for applying a
** saved plan (Terraform's ValueSourceType). */
typedef enum PlVarSrc {
  PL_VAR_UNSET = 0,         /* the default, or not set at all */
  PL_VAR_ENV,               /* TF_VAR_name */
  PL_VAR_AUTO,              /* terraform.tfvars, *.auto.tfvars */
  PL_VAR_FILE,              /* -var-file */
  PL_VAR_CLI,               /* -var */
  PL_VAR_INPUT              /* an interactive answer */
} PlVarSrc;

typedef struct PlVariable {
  const char *name;
  Value value;              /* after conversion to the declared type; an
                               ephemeral one read from a plan file is null */
  bool sensitive;
  bool ephemeral;           /* declared `ephemeral = true` */
  bool apply_time;          /* ephemeral and set (not null) at plan: apply
                               must be given it again (the plan file keeps
                               only this flag, never the value) */
  PlVarSrc src;             /* vars_collect: where the value came from */
} PlVariable;

/* One planned action invocation (Terraform 1.14 actions,
** docs/actions.md): triggered by a resource instance's change, or asked
** for with -invoke. */
typedef struct PlInvoke {
  const char *addr;         /* action.TYPE.NAME[KEY], with module prefix */
  const char *module;       /* module instance address, "" for root */
  const char *type;
  const char *name;
  StKey key;
  const char *provider;     /* provider configuration address */
  const char *provider_name;/* fully-qualified source */
  Value config;             /* may hold unknowns (known at apply) */
  const ProvBlockSchema *schema;
  const char *trigger;      /* the triggering resource instance address;
                               NULL: -invoke */
  unsigned event;           /* one CFG_EV_* bit (config.h); 0: -invoke */
  uint32_t trigger_index;   /* which action_trigger block, which entry */
  uint32_t action_index;
} PlInvoke;

typedef struct Plan {
  Arena *arena;
  PlMode mode;
  PlChange *changes;        /* resource instance changes, sorted */
  uint32_t nchanges;
  PlChange *drift;          /* "resource_drift": changes found by refresh
                               (UPDATE or DELETE), sorted */
  uint32_t ndrift;
  PlOutput *outputs;        /* sorted by name */
  uint32_t noutputs;
  PlVariable *vars;         /* sorted by name */
  uint32_t nvars;
  State *prior_state;       /* refreshed state the plan was computed from
                               (shared; read-only) */
  State *prev_run_state;    /* state as loaded (before refresh) */
  const char *lineage;      /* of the state the plan was made against */
  uint64_t serial;
  bool state_existed;       /* a state snapshot existed at plan time */
  const char *config_hash;  /* hex SHA-256 over the configuration files */
  const char *timestamp;    /* plantimestamp(), RFC 3339 UTC */
  const char *const *targets;   /* -target addresses as given */
  uint32_t ntargets;
  const char *const *replace;   /* -replace addresses as given */
  uint32_t nreplace;
  PlInvoke *invokes;        /* action invocations: a resource's in
                               change order, then -invoke's */
  uint32_t ninvokes;
  bool errored;             /* planning stopped on an error */
  bool complete;            /* no deferred actions */
  bool applyable;           /* changes exist and no errors */
} Plan;

/* Terraform's order of resource instance changes (jsonplan and the human
** plan sort by addrs.AbsResourceInstance.Less, then the deposed key):
** shallower module paths first, module steps by name then instance key;
** data before managed resources; type; name; instance key (none, then
** integers by value so x[2] < x[10], then strings bytewise); the current
** object before deposed ones.  Negative, zero or positive as strcmp. */
int plan_change_cmp(const PlChange *a, const PlChange *b);

/* Sorts changes and drift with plan_change_cmp and sets PlChange.index;
** sorts outputs and vars by name. */
void plan_sort(Plan *p);

/* True when the plan would change anything (a non-NOOP resource change or
** a non-NOOP output change); what -detailed-exitcode reports as 2. */
bool plan_has_changes(const Plan *p);

/* Counts for "Plan: N to add, N to change, N to destroy." (a replace
** counts once in add and once in destroy; reads and forgets are
** excluded; NOOP ignored). */
typedef struct PlCounts {
  uint32_t add, change, destroy, import, forget, read;
} PlCounts;
PlCounts plan_counts(const Plan *p);

#endif
