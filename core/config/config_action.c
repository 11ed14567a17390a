/*
** config_action: Terraform 1.14's `action` blocks and the action_trigger
** blocks of a managed resource's lifecycle (docs/actions.md), decoded with
** the diagnostics of Terraform's configs/action.go.  The engine plans and
** invokes them (core/engine/engine_action.c).
*/
#include <string.h>

#include "config_priv.h"

#define BAD_IDENT                                                          \
  "A name must start with a letter or underscore and may contain only "    \
  "letters, digits, underscores, and dashes."

void cfg_decode_action(Loader *L, const HclBlock *b)
{
  static const HclAttrSchema as[] = {{"count", false},
                                     {"for_each", false},
                                     {"provider", false},
                                     {"linked_resource", false},
                                     {"linked_resources", false}};
  static const HclBlockSchema bs[] = {{"config", NULL, 0}};
  static const HclBodySchema s = {as, 5, bs, 1};
  CfgAction x = {0};
  x.type = b->labels[0];
  x.name = b->labels[1];
  x.range = b->type_range;
  x.range.end = b->label_ranges[1].end;
  x.type_range = b->label_ranges[0];
  bool ok = true;
  if (!cfg_valid_identifier(x.type)) {
    diag_error(L->d, &b->label_ranges[0], "Invalid action type name", "%s",
               BAD_IDENT);
    ok = false;
  }
  if (!cfg_valid_identifier(x.name)) {
    diag_error(L->d, &b->label_ranges[1], "Invalid action name", "%s",
               BAD_IDENT);
    ok = false;
  }
  HclBodyContent c;
  hcl_body_content(L->a, b->body, &s, &c, L->d);
  HclAttribute *at;
  if ((at = hcl_content_attr(&c, "count")))
    x.count = at->expr;
  if ((at = hcl_content_attr(&c, "for_each"))) {
    x.for_each = at->expr;
    if (x.count)
      diag_error(L->d, &at->name_range,
                 "Invalid combination of \"count\" and \"for_each\"",
                 "The \"count\" and \"for_each\" meta-arguments are "
                 "mutually-exclusive, only one should be used.");
  }
  static const char *const linked[] = {"linked_resource", "linked_resources"};
  for (int i = 0; i < 2; i++)
    if ((at = hcl_content_attr(&c, linked[i])))
      diag_error(L->d, &at->name_range, "Unsupported argument",
                 "cairn does not support \"%s\" yet: no built-in action "
                 "uses linked resources (docs/actions.md).", linked[i]);
  if ((at = hcl_content_attr(&c, "provider")))
    cfg_provider_ref(L, at->expr, "provider", &x.provider);
  for (uint32_t i = 0; i < c.nblocks; i++) {
    if (x.config) {
      diag_error(L->d, &c.blocks[i]->type_range, "Duplicate config block",
                 "An action must contain only one nested \"config\" "
                 "block.");
      return;
    }
    x.config = c.blocks[i]->body;
  }
  if (!ok)
    return;
  CfgModule *m = L->m;
  const CfgAction *old = cfg_action(m, x.type, x.name);
  if (old) {
    diag_error(L->d, &x.range,
               arena_printf(L->a, "Duplicate action \"%s\" configuration",
                            x.type),
               "An action named \"%s\" was already declared at %s. Action "
               "names must be unique per type in each module.", x.name,
               cfg_pos_string(L->a, old->range));
    return;
  }
  *CFG_PUSH(L, m->actions, m->nactions, L->cap_actions) = x;
}

const CfgAction *cfg_action(const CfgModule *m, const char *type,
                            const char *name)
{
  for (uint32_t i = 0; i < m->nactions; i++)
    if (strcmp(m->actions[i].type, type) == 0 &&
        strcmp(m->actions[i].name, name) == 0)
      return &m->actions[i];
  return NULL;
}

const char *cfg_action_provider_name(const CfgAction *x)
{
  CfgResource r = {0};
  r.type = x->type;
  r.provider = x->provider;
  return cfg_resource_provider_name(&r);
}

/* Roots addrs.ParseRef treats as something other than a managed
** resource. */
static bool non_resource_root(const char *s)
{
  static const char *const roots[] = {"var", "local", "each", "count",
                                      "path", "terraform", "self",
                                      "ephemeral", "action", "module",
                                      "data", "resource"};
  for (size_t i = 0; i < sizeof roots / sizeof *roots; i++)
    if (strcmp(s, roots[i]) == 0)
      return true;
  return false;
}

/* decodeActionTriggerRef for one list item: exactly one action reference;
** module and resource references are errors.  Fills *out; false when the
** item is unusable (diagnosed). */
static bool action_ref(Loader *L, const HclExpr *e, CfgActionRef *out)
{
  e = cfg_json_native(L, e, L->d);
  if (!e)
    return false;
  out->range = e->range;
  HclTraversal *t;
  uint32_t n;
  hcl_expr_references(L->a, e, &t, &n);
  uint32_t actions = 0;
  const HclTraversal *found = NULL;
  bool bad = false;
  for (uint32_t i = 0; i < n; i++) {
    const char *root = t[i].steps[0].name;
    if (strcmp(root, "action") == 0) {
      actions++;
      found = &t[i];
    } else if (strcmp(root, "module") == 0) {
      diag_error(L->d, &e->range,
                 "Invalid reference to action outside this module",
                 "Actions can only be referenced in the module they are "
                 "declared in.");
      bad = true;
    } else if (strcmp(root, "data") == 0 || !non_resource_root(root)) {
      diag_error(L->d, &e->range,
                 "Invalid action argument inside action_triggers",
                 "action_triggers.actions must only refer to actions in the "
                 "current module.");
      bad = true;
    }
  }
  if (bad)
    return false;
  if (actions == 0) {
    diag_error(L->d, &e->range, "No actions specified",
               "At least one action must be specified for an "
               "action_trigger.");
    return false;
  }
  if (actions > 1) {
    diag_error(L->d, &e->range, "Invalid action expression",
               "Multiple action references in actions expression.");
    return false;
  }
  if (found->n < 3 || found->steps[1].kind != HCL_STEP_ATTR ||
      found->steps[2].kind != HCL_STEP_ATTR) {
    diag_error(L->d, &e->range, "Invalid reference",
               "The \"action\" object must be followed by two attribute "
               "names: the action type and the action name.");
    return false;
  }
  out->type = found->steps[1].name;
  out->name = found->steps[2].name;
  /* action.T.N[KEY]: a constant key stays in the traversal; an
  ** expression key (each.key) makes the item an index expression */
  const HclExpr *u = hcl_expr_unwrap(e);
  if (found->n > 3 && found->steps[3].kind == HCL_STEP_INDEX)
    out->key_value = found->steps[3].key;
  else if (u->kind == HCL_E_INDEX)
    out->key = u->u.index.key;
  return true;
}

void cfg_decode_action_trigger(Loader *L, CfgResource *r, const HclBlock *b)
{
  static const HclAttrSchema as[] = {{"events", true},
                                     {"condition", false},
                                     {"actions", true}};
  static const HclBodySchema s = {as, 3, NULL, 0};
  HclBodyContent c;
  hcl_body_content(L->a, b->body, &s, &c, L->d);
  CfgActionTrigger t = {0};
  t.range = b->type_range;
  HclAttribute *at;
  if ((at = hcl_content_attr(&c, "condition")))
    t.condition = at->expr;
  const HclExpr **items;
  uint32_t n;
  if ((at = hcl_content_attr(&c, "events"))) {
    if (!cfg_expr_list(L, at->expr, &items, &n)) {
      diag_error(L->d, &at->expr->range, "Invalid expression",
                 "A static list expression is required.");
    } else {
      for (uint32_t i = 0; i < n; i++) {
        const char *kw = hcl_expr_as_keyword(L->a, items[i]);
        unsigned ev = 0;
        bool destroy = false;
        if (kw && strcmp(kw, "before_create") == 0)
          ev = CFG_EV_BEFORE_CREATE;
        else if (kw && strcmp(kw, "after_create") == 0)
          ev = CFG_EV_AFTER_CREATE;
        else if (kw && strcmp(kw, "before_update") == 0)
          ev = CFG_EV_BEFORE_UPDATE;
        else if (kw && strcmp(kw, "after_update") == 0)
          ev = CFG_EV_AFTER_UPDATE;
        else if (kw && (strcmp(kw, "before_destroy") == 0 ||
                        strcmp(kw, "after_destroy") == 0))
          destroy = true;
        if (destroy) {
          diag_error(L->d, &items[i]->range, "Invalid destroy event used",
                     "The destroy events (before_destroy, after_destroy) "
                     "are not supported as of right now. They will be "
                     "supported in a future release.");
          continue;
        }
        if (!ev) {
          diag_error(L->d, &items[i]->range,
                     arena_printf(L->a, "Invalid \"event\" value %s",
                                  kw ? kw : ""),
                     "The \"event\" argument supports the following values: "
                     "before_create, after_create, before_update, "
                     "after_update, before_destroy, after_destroy.");
          continue;
        }
        if (t.events & ev) {
          diag_error(L->d, &items[i]->range,
                     arena_printf(L->a, "Duplicate \"%s\" event", kw),
                     "The event is already defined in this action_trigger "
                     "block.");
          continue;
        }
        t.events |= ev;
      }
    }
  }
  if ((at = hcl_content_attr(&c, "actions"))) {
    if (!cfg_expr_list(L, at->expr, &items, &n)) {
      diag_error(L->d, &at->expr->range, "Invalid expression",
                 "A static list expression is required.");
    } else {
      t.actions = ARENA_NEW(L->a, CfgActionRef, n ? n : 1);
      for (uint32_t i = 0; i < n; i++)
        if (action_ref(L, items[i], &t.actions[t.nactions]))
          t.nactions++;
    }
  }
  if (t.nactions == 0)
    diag_error(L->d, &t.range, "No actions specified",
               "At least one action must be specified for an "
               "action_trigger.");
  if (t.events == 0)
    diag_error(L->d, &t.range, "No events specified",
               "At least one event must be specified for an "
               "action_trigger.");
  r->action_triggers = arena_grow(L->a, r->action_triggers,
                                  sizeof(CfgActionTrigger),
                                  _Alignof(CfgActionTrigger),
                                  r->naction_triggers,
                                  r->naction_triggers + 1);
  r->action_triggers[r->naction_triggers++] = t;
}

void cfg_check_action_refs(Loader *L)
{
  const CfgModule *m = L->m;
  for (uint32_t i = 0; i < m->nresources; i++) {
    const CfgResource *r = &m->resources[i];
    for (uint32_t k = 0; k < r->naction_triggers; k++) {
      const CfgActionTrigger *t = &r->action_triggers[k];
      for (uint32_t j = 0; j < t->nactions; j++) {
        const CfgActionRef *x = &t->actions[j];
        if (!cfg_action(m, x->type, x->name))
          diag_error(L->d, &x->range, "Reference to undeclared action",
                     "An action \"%s\" \"%s\" has not been declared in this "
                     "module.", x->type, x->name);
      }
    }
  }
}
