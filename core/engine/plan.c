/*
** plan.c: the helpers of the plan model (core/engine/plan.h): names of actions
** and reasons as Terraform's JSON plan spells them, Terraform's order,
** and the counts of the "Plan: ..." summary line.
*/
#include "plan.h"

#include <stdlib.h>
#include <string.h>

const char *plan_reason_name(PlReason r)
{
  switch (r) {
  case PL_REASON_NONE: return "";
  case PL_REASON_REPLACE_BECAUSE_TAINTED: return "replace_because_tainted";
  case PL_REASON_REPLACE_BY_REQUEST: return "replace_by_request";
  case PL_REASON_REPLACE_BY_TRIGGERS: return "replace_by_triggers";
  case PL_REASON_REPLACE_CANNOT_UPDATE:
    return "replace_because_cannot_update";
  case PL_REASON_DELETE_NO_RESOURCE_CONFIG:
    return "delete_because_no_resource_config";
  case PL_REASON_DELETE_WRONG_REPETITION:
    return "delete_because_wrong_repetition";
  case PL_REASON_DELETE_COUNT_INDEX: return "delete_because_count_index";
  case PL_REASON_DELETE_EACH_KEY: return "delete_because_each_key";
  case PL_REASON_DELETE_NO_MODULE: return "delete_because_no_module";
  case PL_REASON_DELETE_NO_MOVE_TARGET:
    return "delete_because_no_move_target";
  case PL_REASON_READ_CONFIG_UNKNOWN: return "read_because_config_unknown";
  case PL_REASON_READ_DEPENDENCY_PENDING:
    return "read_because_dependency_pending";
  case PL_REASON_READ_CHECK_NESTED: return "read_because_check_nested";
  }
  return "";
}

static const char *const act_noop[] = {"no-op"};
static const char *const act_create[] = {"create"};
static const char *const act_read[] = {"read"};
static const char *const act_update[] = {"update"};
static const char *const act_dc[] = {"delete", "create"};
static const char *const act_cd[] = {"create", "delete"};
static const char *const act_delete[] = {"delete"};
static const char *const act_forget[] = {"forget"};

const char *const *plan_action_names(PlAction a, int *n)
{
  *n = 1;
  switch (a) {
  case PL_NOOP: return act_noop;
  case PL_CREATE: return act_create;
  case PL_READ: return act_read;
  case PL_UPDATE: return act_update;
  case PL_DELETE_THEN_CREATE: *n = 2; return act_dc;
  case PL_CREATE_THEN_DELETE: *n = 2; return act_cd;
  case PL_DELETE: return act_delete;
  case PL_FORGET: return act_forget;
  }
  return act_noop;
}

/* Bytewise address order, then the current object before deposed ones,
** which sort by their key. */
static int change_cmp(const void *pa, const void *pb)
{
  const PlChange *a = pa, *b = pb;
  int c = strcmp(a->addr ? a->addr : "", b->addr ? b->addr : "");
  if (c)
    return c;
  if (!a->deposed || !b->deposed)
    return (a->deposed != NULL) - (b->deposed != NULL);
  return strcmp(a->deposed, b->deposed);
}

static int output_cmp(const void *pa, const void *pb)
{
  const PlOutput *a = pa, *b = pb;
  return strcmp(a->name, b->name);
}

static int var_cmp(const void *pa, const void *pb)
{
  const PlVariable *a = pa, *b = pb;
  return strcmp(a->name, b->name);
}

void plan_sort(Plan *p)
{
  if (p->nchanges > 1)
    qsort(p->changes, p->nchanges, sizeof *p->changes, change_cmp);
  for (uint32_t i = 0; i < p->nchanges; i++)
    p->changes[i].index = i;
  if (p->ndrift > 1)
    qsort(p->drift, p->ndrift, sizeof *p->drift, change_cmp);
  for (uint32_t i = 0; i < p->ndrift; i++)
    p->drift[i].index = i;
  if (p->noutputs > 1)
    qsort(p->outputs, p->noutputs, sizeof *p->outputs, output_cmp);
  if (p->nvars > 1)
    qsort(p->vars, p->nvars, sizeof *p->vars, var_cmp);
}

/* As Terraform's Changes.Empty: a move or an import is a change even when
** the action is no-op, since applying records it in the state. */
bool plan_has_changes(const Plan *p)
{
  for (uint32_t i = 0; i < p->nchanges; i++) {
    const PlChange *c = &p->changes[i];
    if (c->action != PL_NOOP || c->prev_addr || c->importing)
      return true;
  }
  for (uint32_t i = 0; i < p->noutputs; i++)
    if (p->outputs[i].action != PL_NOOP)
      return true;
  return false;
}

/* Terraform's summary counts managed resources only (a data source's
** delete is just dropping it from state); reads are counted separately. */
PlCounts plan_counts(const Plan *p)
{
  PlCounts n = {0, 0, 0, 0, 0, 0};
  for (uint32_t i = 0; i < p->nchanges; i++) {
    const PlChange *c = &p->changes[i];
    if (c->action == PL_READ) {
      n.read++;
      continue;
    }
    if (c->mode == ST_DATA)
      continue;
    if (c->importing)
      n.import++;
    switch (c->action) {
    case PL_CREATE: n.add++; break;
    case PL_UPDATE: n.change++; break;
    case PL_DELETE: n.destroy++; break;
    case PL_DELETE_THEN_CREATE:
    case PL_CREATE_THEN_DELETE:
      n.add++;
      n.destroy++;
      break;
    case PL_FORGET: n.forget++; break;
    case PL_NOOP:
    case PL_READ:
      break;
    }
  }
  return n;
}
