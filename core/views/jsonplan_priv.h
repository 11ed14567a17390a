/*
** jsonplan_priv: private to the jsonplan module (core/views/jsonplan*.c):
** the rendering context, the module tree and the writers the plan, state
** and configuration documents share.  Nothing outside jsonplan*.c
** includes this header.
**
** Field order and omission rules follow Terraform's jsonplan, jsonstate
** and jsonconfig packages (Go structs with omitempty, Go maps sorted):
** jsonplan_state.c holds the value writers, the module tree and the state
** document, jsonplan_plan.c the plan document, jsonplan_config.c its
** configuration section.
*/
#ifndef CAIRN_JSONPLAN_PRIV_H
#define CAIRN_JSONPLAN_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "base/json.h"
#include "jsonplan.h"

/* Everything one rendering needs. */
typedef struct Ctx {
  Arena *a;               /* scratch, released at the end */
  Diags d;                /* scratch diagnostics (never shown) */
  JsonW *w;
  JplanSchemaFn schema_of;
  void *sctx;
} Ctx;

/* ---- jsonplan_state.c: value writers and small helpers ------------------ */

/* cty's json.Marshal of omitUnknowns(v): unknown object members are left
** out, unknown sequence elements become null, marks are ignored. */
void jplan_w_known(Ctx *c, Value v);
/* Terraform's unknownAsBool: true at unknown leaves, known members of
** objects and maps omitted, sequences element by element. */
void jplan_w_unknown(Ctx *c, Value v);
/* jsonstate.SensitiveAsBool: true at sensitive values, non-sensitive
** members omitted, unknown collections as [] / {}. */
void jplan_w_sens(Ctx *c, Value v);
/* "data" or "managed". */
const char *jplan_mode_name(StMode m);
/* The "index" field of an instance key (nothing without a key). */
void jplan_w_key_index(JsonW *w, StKey k);
/* "key": s ("" for NULL). */
void jplan_w_str_field(JsonW *w, const char *key, const char *s);
/* The "actions" array of a planned action. */
void jplan_w_actions(JsonW *w, PlAction a);

/* ---- jsonplan_state.c: module trees ------------------------------------ */

/* One resource instance object placed in the module tree. */
typedef struct TItem {
  const char *module;
  const char *addr;
  const char *dkey;       /* deposed key or NULL */
  const void *p;          /* PlChange or StInstance */
  const void *q;          /* StObject (state) */
  const StResource *r;    /* state */
} TItem;

typedef struct TMod {
  const char *addr;
  const char *parent;
} TMod;

typedef struct Tree {
  TItem *items;
  uint32_t nitems;
  TMod *mods;             /* non-root modules sorted by (parent, addr) */
  uint32_t nmods;
  void (*write_item)(Ctx *c, const TItem *it);
} Tree;

/* Sorts t's items and collects their modules and all their ancestors. */
void jplan_tree_build(Ctx *c, Tree *t);
/* Module m of a built tree ("" = root): its resources (t->write_item),
** address and child_modules, recursively. */
void jplan_tree_write(Ctx *c, const Tree *t, const char *m);

/* ---- jsonplan_state.c: the state document ------------------------------ */

/* The schema of a resource type via c->schema_of; NULL when unknown. */
const ProvBlockSchema *jplan_schema_for(Ctx *c, StMode mode,
                                        const char *fqn, const char *type);
/* No state, or one with no resources and no outputs. */
bool jplan_state_empty(const State *s);
/* {"format_version":"1.0","terraform_version":..,"values":{..}} */
void jplan_write_state(Ctx *c, const State *s, const char *tfver);
/* Sets up c with a fresh scratch arena a (released by the caller) and a
** JSON writer w appending to out. */
void jplan_ctx_init(Ctx *c, Arena *a, JsonW *w, Buf *out,
                    JplanSchemaFn schema_of, void *sctx);

/* ---- jsonplan_config.c ------------------------------------------------- */

/* qsort comparator on records whose first field is a string. */
int jplan_cmp_cfgres(const void *x, const void *y);
/* The plan's "configuration" section (t may be NULL). */
void jplan_write_configuration(Ctx *c, const CfgTree *t, const Plan *p);

#endif
