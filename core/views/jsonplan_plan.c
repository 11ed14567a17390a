/*
** jsonplan_plan: the plan document (jplan_plan, Terraform's jsonplan):
** resource changes with their before/after/unknown/sensitive values,
** planned values, output changes, variables, and the plan's top-level
** fields around the prior state and configuration sections.
*/
#include "jsonplan_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

/* ---- Resource changes -------------------------------------------------- */

static const ProvBlockSchema *change_schema(Ctx *c, const PlChange *ch)
{
  if (ch->schema)
    return ch->schema;
  return jplan_schema_for(c, ch->mode, ch->provider_name, ch->type);
}

static Value marked(Ctx *c, const ProvBlockSchema *b, Value v)
{
  if (!b || !v.type || val_is_null(v) || val_is_unknown(v))
    return v;
  return prov_mark_sensitive(c->a, b, v);
}

static void w_path(JsonW *w, ValPath p)
{
  json_w_begin_array(w);
  for (uint32_t i = 0; i < p.n; i++) {
    const PathStep *s = &p.steps[i];
    if (s->kind == PS_INDEX)
      json_w_int(w, s->index);
    else
      json_w_stringz(w, s->name ? s->name : "");
  }
  json_w_end_array(w);
}

static void write_change(Ctx *c, const PlChange *ch)
{
  JsonW *w = c->w;
  const ProvBlockSchema *b = change_schema(c, ch);
  json_w_begin_object(w);
  jplan_w_str_field(w, "address", ch->addr);
  if (ch->prev_addr && ch->addr && strcmp(ch->prev_addr, ch->addr) != 0)
    jplan_w_str_field(w, "previous_address", ch->prev_addr);
  if (ch->module && ch->module[0])
    jplan_w_str_field(w, "module_address", ch->module);
  jplan_w_str_field(w, "mode", jplan_mode_name(ch->mode));
  jplan_w_str_field(w, "type", ch->type);
  jplan_w_str_field(w, "name", ch->name);
  jplan_w_key_index(w, ch->key);
  if (ch->provider_name && ch->provider_name[0])
    jplan_w_str_field(w, "provider_name", ch->provider_name);
  if (ch->deposed && ch->deposed[0])
    jplan_w_str_field(w, "deposed", ch->deposed);

  json_w_keyz(w, "change");
  json_w_begin_object(w);
  jplan_w_actions(w, ch->action);
  Value before = marked(c, b, ch->before);
  Value after = marked(c, b, ch->after);
  json_w_keyz(w, "before");
  jplan_w_known(c, before);
  bool known = !after.type || val_is_wholly_known(after);
  if (known || !val_is_unknown(after)) {
    json_w_keyz(w, "after");
    jplan_w_known(c, after);
  }
  json_w_keyz(w, "after_unknown");
  if (known) {
    json_w_begin_object(w);
    json_w_end_object(w);
  } else {
    jplan_w_unknown(c, after);
  }
  json_w_keyz(w, "before_sensitive");
  jplan_w_sens(c, before);
  json_w_keyz(w, "after_sensitive");
  jplan_w_sens(c, after);
  if (ch->nreplace_paths > 0) {
    json_w_keyz(w, "replace_paths");
    json_w_begin_array(w);
    for (uint32_t i = 0; i < ch->nreplace_paths; i++)
      w_path(w, ch->replace_paths[i]);
    json_w_end_array(w);
  }
  if (ch->importing) {
    json_w_keyz(w, "importing");
    json_w_begin_object(w);
    if (ch->import_id && ch->import_id[0])
      jplan_w_str_field(w, "id", ch->import_id);
    json_w_end_object(w);
  }
  json_w_end_object(w);
  const char *reason = plan_reason_name(ch->reason);
  if (reason[0])
    jplan_w_str_field(w, "action_reason", reason);
  json_w_end_object(w);
}

/* Writes "key":[changes...] unless none qualify. */
static void write_changes(Ctx *c, const char *key, const PlChange *chs,
                          uint32_t n, bool skip_noop)
{
  bool any = false;
  for (uint32_t i = 0; i < n; i++) {
    const PlChange *ch = &chs[i];
    /* Data source deletes only clean up state: not shown. */
    if (ch->mode == ST_DATA && ch->action == PL_DELETE)
      continue;
    if (skip_noop && ch->action == PL_NOOP)
      continue;
    if (!any) {
      json_w_keyz(c->w, key);
      json_w_begin_array(c->w);
      any = true;
    }
    write_change(c, ch);
  }
  if (any)
    json_w_end_array(c->w);
}

/* Go omits an empty attribute map: does omitUnknowns(v) keep anything? */
static bool has_known_member(Value v)
{
  if (v.type->kind == TY_OBJECT) {
    for (uint32_t i = 0; i < v.type->n; i++)
      if (!val_is_unknown(v.u.elems[i]))
        return true;
  } else if (v.type->kind == TY_MAP) {
    for (uint32_t i = 0; i < v.len; i++)
      if (!val_is_unknown(v.u.entries[i].val))
        return true;
  }
  return false;
}

static void write_planned_item(Ctx *c, const TItem *it)
{
  JsonW *w = c->w;
  const PlChange *ch = it->p;
  Value after = marked(c, change_schema(c, ch), ch->after);
  json_w_begin_object(w);
  jplan_w_str_field(w, "address", ch->addr);
  jplan_w_str_field(w, "mode", jplan_mode_name(ch->mode));
  jplan_w_str_field(w, "type", ch->type);
  jplan_w_str_field(w, "name", ch->name);
  jplan_w_key_index(w, ch->key);
  if (ch->provider_name && ch->provider_name[0])
    jplan_w_str_field(w, "provider_name", ch->provider_name);
  json_w_keyz(w, "schema_version");
  json_w_uint(w, ch->schema_version);
  if (after.type && !val_is_null(after) && !val_is_unknown(after)) {
    if (has_known_member(after)) {
      json_w_keyz(w, "values");
      jplan_w_known(c, after);
    }
  }
  json_w_keyz(w, "sensitive_values");
  jplan_w_sens(c, after);
  json_w_end_object(w);
}

static void write_planned_values(Ctx *c, const Plan *p)
{
  JsonW *w = c->w;
  json_w_keyz(w, "planned_values");
  json_w_begin_object(w);
  bool any_out = false;
  for (uint32_t i = 0; i < p->noutputs; i++) {
    const PlOutput *o = &p->outputs[i];
    if (o->action == PL_DELETE)
      continue;
    if (!any_out) {
      json_w_keyz(w, "outputs");
      json_w_begin_object(w);
      any_out = true;
    }
    json_w_keyz(w, o->name);
    json_w_begin_object(w);
    json_w_keyz(w, "sensitive");
    json_w_bool(w, o->sensitive);
    if (o->after.type && val_is_wholly_known(o->after)) {
      json_w_keyz(w, "type");
      json_w_type(w, o->after.type);
      json_w_keyz(w, "value");
      jplan_w_known(c, o->after);
    }
    json_w_end_object(w);
  }
  if (any_out)
    json_w_end_object(w);

  Tree t = {0};
  t.items = ARENA_NEW(c->a, TItem, p->nchanges);
  t.write_item = write_planned_item;
  for (uint32_t i = 0; i < p->nchanges; i++) {
    const PlChange *ch = &p->changes[i];
    if (ch->action == PL_DELETE || ch->action == PL_FORGET ||
        (ch->deposed && ch->deposed[0]))
      continue;
    t.items[t.nitems++] = (TItem){ch->module ? ch->module : "",
                                  ch->addr ? ch->addr : "", NULL, ch, NULL,
                                  NULL};
  }
  jplan_tree_build(c, &t);
  json_w_keyz(w, "root_module");
  jplan_tree_write(c, &t, "");
  json_w_end_object(w);
}

static void write_output_changes(Ctx *c, const Plan *p)
{
  JsonW *w = c->w;
  if (p->noutputs == 0)
    return;
  json_w_keyz(w, "output_changes");
  json_w_begin_object(w);
  for (uint32_t i = 0; i < p->noutputs; i++) {
    const PlOutput *o = &p->outputs[i];
    json_w_keyz(w, o->name);
    json_w_begin_object(w);
    jplan_w_actions(w, o->action);
    json_w_keyz(w, "before");
    jplan_w_known(c, o->before);
    bool known = !o->after.type || val_is_wholly_known(o->after);
    if (known || !val_is_unknown(o->after)) {
      json_w_keyz(w, "after");
      jplan_w_known(c, o->after);
    }
    json_w_keyz(w, "after_unknown");
    if (known)
      json_w_bool(w, false);
    else
      jplan_w_unknown(c, o->after);
    json_w_keyz(w, "before_sensitive");
    json_w_bool(w, o->sensitive);
    json_w_keyz(w, "after_sensitive");
    json_w_bool(w, o->sensitive);
    json_w_end_object(w);
  }
  json_w_end_object(w);
}

/* ---- The plan ---------------------------------------------------------- */

/* Root variables given to the plan, plus declared defaults of the unset
** ones (Terraform keeps those for backward compatibility); not the
** ephemeral ones. */
static void write_variables(Ctx *c, const Plan *p, const CfgModule *m)
{
  JsonW *w = c->w;
  uint32_t cap = p->nvars + (m ? m->nvariables : 0);
  typedef struct { const char *name; Value v; } NV;
  NV *nv = ARENA_NEW(c->a, NV, cap + 1);
  uint32_t n = 0;
  /* Ephemeral variables are left out: a plan never holds their values
  ** (docs/ephemeral.md). */
  for (uint32_t i = 0; i < p->nvars; i++)
    if (!p->vars[i].ephemeral)
      nv[n++] = (NV){p->vars[i].name, p->vars[i].value};
  for (uint32_t i = 0; m && i < m->nvariables; i++) {
    const CfgVariable *v = &m->variables[i];
    if (v->ephemeral)
      continue;
    bool set = false;
    for (uint32_t k = 0; k < p->nvars && !set; k++)
      set = strcmp(p->vars[k].name, v->name) == 0;
    if (!set && v->has_default)
      nv[n++] = (NV){v->name, v->default_val};
  }
  if (n == 0)
    return;
  qsort(nv, n, sizeof(NV), jplan_cmp_cfgres);
  json_w_keyz(w, "variables");
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    if (i > 0 && strcmp(nv[i].name, nv[i - 1].name) == 0)
      continue;
    json_w_keyz(w, nv[i].name);
    json_w_begin_object(w);
    json_w_keyz(w, "value");
    jplan_w_known(c, nv[i].v);
    json_w_end_object(w);
  }
  json_w_end_object(w);
}

void jplan_plan(Buf *out, const Plan *p, const CfgTree *cfg,
                JplanSchemaFn schema_of, void *sctx)
{
  Arena a;
  JsonW w;
  Ctx c;
  jplan_ctx_init(&c, &a, &w, out, schema_of, sctx);
  json_w_begin_object(&w);
  jplan_w_str_field(&w, "format_version", JPLAN_FORMAT_VERSION);
  jplan_w_str_field(&w, "terraform_version", CAIRN_VERSION);
  write_variables(&c, p, cfg ? cfg->m : NULL);
  write_planned_values(&c, p);
  /* Outside refresh-only mode, move-only drift shows in the changes. */
  write_changes(&c, "resource_drift", p->drift, p->ndrift,
                p->mode != PL_MODE_REFRESH_ONLY);
  write_changes(&c, "resource_changes", p->changes, p->nchanges, false);
  write_output_changes(&c, p);
  if (!jplan_state_empty(p->prior_state)) {
    json_w_keyz(&w, "prior_state");
    jplan_write_state(&c, p->prior_state, CAIRN_VERSION);
  }
  jplan_write_configuration(&c, cfg, p);
  if (p->timestamp && p->timestamp[0])
    jplan_w_str_field(&w, "timestamp", p->timestamp);
  json_w_keyz(&w, "applyable");
  json_w_bool(&w, p->applyable);
  json_w_keyz(&w, "complete");
  json_w_bool(&w, p->complete);
  json_w_keyz(&w, "errored");
  json_w_bool(&w, p->errored);
  json_w_end_object(&w);
  buf_putc(out, '\n');
  arena_release(&a);
}
