/*
** plan.c: the helpers of the plan model (core/engine/plan.h): names of actions
** and reasons as Terraform's JSON plan spells them, Terraform's order,
** and the counts of the "Plan: ..." summary line.
*/
#include "plan.h"

#include <stdbool.h>
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

/* ---- Terraform's address order (addrs.AbsResourceInstance.Less) ------- */

/* One step of a module instance address: module.NAME with an optional
** [N] or ["str"] key (the string still escaped as HCL quotes it). */
typedef struct ModStep {
  const char *name;
  size_t nlen;
  StKeyKind kind;
  int64_t i;
  const char *s;          /* escaped contents between the quotes */
  size_t slen;
} ModStep;

/* Reads the step at *p ("module.a[0]" up to the next '.' outside
** brackets) and advances *p past it and its separator; false at the
** end. */
static bool next_step(const char **p, ModStep *st)
{
  const char *c = *p;
  if (!c || !*c)
    return false;
  memset(st, 0, sizeof *st);
  if (strncmp(c, "module.", 7) == 0)
    c += 7;
  st->name = c;
  while (*c && *c != '[' && *c != '.')
    c++;
  st->nlen = (size_t)(c - st->name);
  if (*c == '[') {
    c++;
    if (*c == '"') {
      st->kind = ST_STRKEY;
      st->s = ++c;
      while (*c && *c != '"') {
        if (*c == '\\' && c[1])
          c++;
        c++;
      }
      st->slen = (size_t)(c - st->s);
      if (*c == '"')
        c++;
    } else {
      st->kind = ST_INTKEY;
      char *end;
      st->i = strtoll(c, &end, 10);
      c = end;
    }
    while (*c && *c != ']')
      c++;
    if (*c == ']')
      c++;
  }
  if (*c == '.')
    c++;
  *p = c;
  return true;
}

/* Compares two HCL-quoted string contents by their unescaped bytes (Go
** compares the key strings themselves). */
static int cmp_escaped(const char *a, size_t an, const char *b, size_t bn)
{
  size_t i = 0, j = 0;
  while (i < an && j < bn) {
    unsigned char x = (unsigned char)a[i++], y = (unsigned char)b[j++];
    if (x == '\\' && i < an) {
      x = (unsigned char)a[i++];
      x = x == 'n' ? '\n' : x == 'r' ? '\r' : x == 't' ? '\t' : x;
    }
    if (y == '\\' && j < bn) {
      y = (unsigned char)b[j++];
      y = y == 'n' ? '\n' : y == 'r' ? '\r' : y == 't' ? '\t' : y;
    }
    if (x != y)
      return x < y ? -1 : 1;
  }
  return (i < an) - (j < bn);
}

/* InstanceKeyLess: no key, then integer keys by value, then string keys
** bytewise. */
static int cmp_key_parts(StKeyKind ak, int64_t ai, const char *as, size_t al,
                         StKeyKind bk, int64_t bi, const char *bs, size_t bl,
                         bool escaped)
{
  if (ak != bk)
    return ak < bk ? -1 : 1;
  if (ak == ST_INTKEY)
    return ai < bi ? -1 : ai > bi;
  if (ak == ST_STRKEY) {
    if (escaped)
      return cmp_escaped(as, al, bs, bl);
    size_t n = al < bl ? al : bl;
    int c = memcmp(as, bs, n);
    return c ? c : (al > bl) - (al < bl);
  }
  return 0;
}

static uint32_t module_depth(const char *m)
{
  uint32_t n = 0;
  ModStep st;
  while (next_step(&m, &st))
    n++;
  return n;
}

/* ModuleInstance.Less: shorter paths first, then step by step the call
** name and its instance key. */
static int module_cmp(const char *a, const char *b)
{
  a = a ? a : "";
  b = b ? b : "";
  uint32_t da = module_depth(a), db = module_depth(b);
  if (da != db)
    return da < db ? -1 : 1;
  ModStep x, y;
  while (next_step(&a, &x) && next_step(&b, &y)) {
    size_t n = x.nlen < y.nlen ? x.nlen : y.nlen;
    int c = memcmp(x.name, y.name, n);
    if (!c)
      c = (x.nlen > y.nlen) - (x.nlen < y.nlen);
    if (!c)
      c = cmp_key_parts(x.kind, x.i, x.s, x.slen, y.kind, y.i, y.s, y.slen,
                        true);
    if (c)
      return c;
  }
  return 0;
}

int plan_change_cmp(const PlChange *a, const PlChange *b)
{
  int c = module_cmp(a->module, b->module);
  if (c)
    return c;
  if (a->mode != b->mode)   /* data resources first */
    return a->mode == ST_DATA ? -1 : 1;
  c = strcmp(a->type ? a->type : "", b->type ? b->type : "");
  if (!c)
    c = strcmp(a->name ? a->name : "", b->name ? b->name : "");
  if (!c)
    c = cmp_key_parts(a->key.kind, a->key.i, a->key.s, a->key.slen,
                      b->key.kind, b->key.i, b->key.s, b->key.slen, false);
  if (c)
    return c;
  /* the current object ("" in Go) before deposed ones, by key */
  return strcmp(a->deposed ? a->deposed : "", b->deposed ? b->deposed : "");
}

static int change_cmp(const void *pa, const void *pb)
{
  return plan_change_cmp(pa, pb);
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
  return p->ninvokes > 0;
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
