/*
** refactor_removed.c: removed blocks (rf_check_removed, rf_removed_for).
** The rules follow Terraform's internal/refactoring remove_statement.go
** and internal/addrs remove_target.go.
*/
#include "refactor_priv.h"

#include <string.h>

/* ---- Removed blocks ------------------------------------------------------------ */

/* A removed block's target: module steps (names), then maybe a resource.
** Filled without allocation (pointers into the traversal).  Returns false
** with `bad` set to the offending step when the address is invalid. */
typedef struct RmTarget {
  uint32_t nmods;         /* module steps: steps[1 + 2*i] are the names */
  bool is_res;
  bool is_data;
  const char *type, *name;
  const HclStep *bad;     /* the step that makes it invalid */
  const char *summary, *detail;
} RmTarget;

static bool rm_parse(const HclTraversal *t, RmTarget *r)
{
  memset(r, 0, sizeof *r);
  uint32_t i = 0, n = t->n;
  while (i < n && rf_step_is_name(&t->steps[i], "module")) {
    if (i + 1 >= n || t->steps[i + 1].kind != HCL_STEP_ATTR) {
      r->bad = &t->steps[i + 1 < n ? i + 1 : i];
      r->summary = "Invalid address operator";
      r->detail = "Prefix \"module.\" must be followed by a module name.";
      return false;
    }
    i += 2;
    r->nmods++;
    if (i < n && t->steps[i].kind == HCL_STEP_INDEX) {
      r->bad = &t->steps[i];
      r->summary = "Module instance keys not allowed";
      r->detail = "Module address must be a module (e.g. \"module.foo\"), "
                  "not a module instance (e.g. \"module.foo[1]\").";
      return false;
    }
  }
  if (i == n)
    return r->nmods > 0;
  r->is_res = true;
  if (rf_step_is_name(&t->steps[i], "data")) {
    r->is_data = true;
    i++;
  } else if (rf_step_is_name(&t->steps[i], "resource")) {
    i++;
  }
  if (n - i < 2 || t->steps[i].kind == HCL_STEP_INDEX ||
      t->steps[i + 1].kind != HCL_STEP_ATTR) {
    r->bad = &t->steps[i < n ? i : n - 1];
    r->summary = "Invalid address";
    r->detail = n - i < 2 ? "Resource specification must include a "
                            "resource type and name."
                : t->steps[i].kind == HCL_STEP_INDEX
                    ? "A resource type name is required."
                    : "A resource name is required.";
    return false;
  }
  r->type = t->steps[i].name;
  r->name = t->steps[i + 1].name;
  i += 2;
  if (i < n) {
    r->bad = &t->steps[i];
    r->summary = "Resource instance keys not allowed";
    r->detail = "Resource address must be a resource (e.g. "
                "\"test_instance.foo\"), not a resource instance (e.g. "
                "\"test_instance.foo[1]\").";
    return false;
  }
  if (r->is_data) {
    r->summary = "Data source address not allowed";
    r->detail = "Data sources are never destroyed, so they are not valid "
                "targets of removed blocks. To remove the data source from "
                "state, remove the data source block from configuration.";
    return false;
  }
  return true;
}

static void check_removed_in(Arena *a, const CfgTree *t, Diags *d)
{
  const CfgModule *m = t->m;
  for (uint32_t i = 0; m && i < m->nremoved; i++) {
    const CfgRemoved *rm = &m->removed[i];
    RmTarget r;
    if (!rm_parse(&rm->from, &r)) {
      SrcRange rng = r.bad ? r.bad->range : hcl_trav_range(&rm->from);
      if (r.summary)
        diag_error(d, &rng, r.summary, "%s", r.detail);
      continue;
    }
    /* Walk down the still-declared calls. */
    const CfgTree *cur = t;
    Buf abs;
    buf_init(&abs, a);
    buf_puts(&abs, t->path);
    const CfgModuleCall *last_call = NULL;
    uint32_t k = 0;
    for (; k < r.nmods && cur; k++) {
      const char *nm = rm->from.steps[1 + 2 * k].name;
      last_call = rf_call_named(cur, nm);
      cur = last_call ? rf_child_named(cur, nm) : NULL;
      buf_printf(&abs, "%smodule.%s", abs.len ? "." : "", nm);
    }
    if (k < r.nmods || !cur || !cur->m)
      continue; /* the path is gone (or did not load) */
    if (!r.is_res) {
      diag_error(d, &last_call->range, "Removed module still exists",
                 "This statement declares that %s was removed, but it is "
                 "still declared in configuration.",
                 buf_str(&abs));
      continue;
    }
    const CfgResource *res =
        cfg_resource(cur->m, CFG_MANAGED, r.type, r.name);
    if (res) {
      if (abs.len)
        buf_putc(&abs, '.');
      buf_printf(&abs, "%s.%s", r.type, r.name);
      diag_error(d, &res->range, "Removed resource still exists",
                 "This statement declares that %s was removed, but it is "
                 "still declared in configuration.",
                 buf_str(&abs));
    }
  }
  for (uint32_t i = 0; m && i < m->ncalls; i++)
    if (t->children && t->children[i])
      check_removed_in(a, t->children[i], d);
}

bool rf_check_removed(Arena *a, const CfgTree *t, Diags *d)
{
  int before = d->errors;
  if (t)
    check_removed_in(a, t, d);
  return d->errors == before;
}

/* Consumes the module steps of tree node t (its static path) from module
** instance address p; NULL when they do not match. */
static const char *match_tree(const CfgTree *t, const char *p)
{
  if (!t->parent)
    return p;
  p = match_tree(t->parent, p);
  if (!p)
    return NULL;
  const char *name, *key;
  size_t nl, kl;
  const char *q = rf_mi_step(p, &name, &nl, &key, &kl);
  if (!q || nl != strlen(t->call->name) ||
      memcmp(name, t->call->name, nl) != 0)
    return NULL;
  return q;
}

typedef struct RmBest {
  const CfgRemoved *rm;
  uint32_t score;         /* module depth + 1, or UINT32_MAX for a resource */
} RmBest;

static void removed_walk(const CfgTree *t, const char *mi, StMode mode,
                         const char *type, const char *name, RmBest *best)
{
  const CfgModule *m = t->m;
  const char *p = match_tree(t, mi);
  for (uint32_t i = 0; p && m && i < m->nremoved; i++) {
    const CfgRemoved *rm = &m->removed[i];
    RmTarget r;
    if (!rm_parse(&rm->from, &r))
      continue;
    const char *q = p;
    bool ok = true;
    for (uint32_t k = 0; k < r.nmods && ok; k++) {
      const char *sn, *key;
      size_t nl, kl;
      const char *want = rm->from.steps[1 + 2 * k].name;
      const char *nq = rf_mi_step(q, &sn, &nl, &key, &kl);
      ok = nq && nl == strlen(want) && memcmp(sn, want, nl) == 0;
      q = nq;
    }
    if (!ok)
      continue;
    uint32_t score;
    if (r.is_res) {
      if (*q || mode != ST_MANAGED || strcmp(r.type, type) != 0 ||
          strcmp(r.name, name) != 0)
        continue;
      score = UINT32_MAX;
    } else {
      score = t->depth + r.nmods + 1;
    }
    if (score > best->score) {
      best->score = score;
      best->rm = rm;
    }
  }
  for (uint32_t i = 0; p && m && i < m->ncalls; i++)
    if (t->children && t->children[i])
      removed_walk(t->children[i], mi, mode, type, name, best);
}

const CfgRemoved *rf_removed_for(const CfgTree *t,
                                 const char *module_instance, StMode mode,
                                 const char *type, const char *name)
{
  RmBest best = {NULL, 0};
  if (t)
    removed_walk(t, module_instance ? module_instance : "", mode, type, name,
                 &best);
  return best.rm;
}
