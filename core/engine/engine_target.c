/*
** engine_target: resource targeting (-target).  Parses the target
** addresses and marks the nodes and instances they leave out.
*/
#include <string.h>

#include "engine_priv.h"

/* One -target address, parsed, with its static (keyless) forms. */
typedef struct Target {
  StAddr a;
  const char *smod;         /* static module path: "module.a.module.b" */
  const char *saddr;        /* resource targets: static resource address */
  bool whole;               /* selects every instance of what it matches */
} Target;

/* Parses the -target addresses into e->tg; false with Terraform's
** diagnostic (`Invalid target "ADDR"` with the parser's detail). */
bool eng_parse_targets(Engine *e, const char *const *tv, uint32_t n,
                       Diags *d)
{
  e->tg = ARENA_NEW(e->a, Target, n ? n : 1);
  e->ntg = 0;
  bool ok = true;
  for (uint32_t i = 0; i < n; i++) {
    Target *t = &e->tg[e->ntg];
    Diags q;
    diag_init(&q, e->a);
    if (!st_parse_addr(e->a, tv[i], &t->a, &q)) {
      const Diag *x = q.head;
      diag_error(d, NULL, arena_printf(e->a, "Invalid target \"%s\"", tv[i]),
                 "%s", x && x->detail && x->detail[0] ? x->detail
                 : x ? x->summary : "Not a resource or module address.");
      ok = false;
      continue;
    }
    t->smod = st_static_path(e->a, t->a.module);
    bool keyed = strchr(t->a.module, '[') != NULL;
    if (t->a.kind == ST_ADDR_MODULE) {
      t->whole = !keyed;
    } else {
      Buf b;
      buf_init(&b, e->a);
      st_format_resource(&b, t->smod, t->a.mode, t->a.type, t->a.name);
      t->saddr = buf_str(&b);
      t->whole = !keyed && t->a.kind == ST_ADDR_RESOURCE;
    }
    e->ntg++;
  }
  return ok;
}

void eng_target_nothing(Engine *e)
{
  /* a resource target with an empty address names no node */
  e->tg = ARENA_NEW(e->a, Target, 1);
  e->tg->a.kind = ST_ADDR_RESOURCE;
  e->tg->smod = "";
  e->tg->saddr = "";
  e->ntg = 1;
}

/* One step of a module instance address: "module.NAME" and its "[KEY]"
** (key NULL when none). */
typedef struct MStep {
  const char *name, *key;
  size_t nlen, klen;
} MStep;

static bool next_step(const char **p, MStep *s)
{
  const char *q = *p;
  if (*q == '.')
    q++;
  if (strncmp(q, "module.", 7) != 0)
    return false;
  s->name = q += 7;
  while (*q && *q != '.' && *q != '[')
    q++;
  s->nlen = (size_t)(q - s->name);
  s->key = NULL;
  s->klen = 0;
  if (*q == '[') {
    s->key = q;
    bool quoted = false;
    for (q++; *q; q++) {
      if (quoted && *q == '\\' && q[1])
        q++;
      else if (*q == '"')
        quoted = !quoted;
      else if (*q == ']' && !quoted)
        break;
    }
    if (*q)
      q++;
    s->klen = (size_t)(q - s->key);
  }
  *p = q;
  return true;
}

/* True when target module address tm selects module instance im: tm's
** steps lead im's (all of them when whole), a target step without a key
** matching every key of that call. */
static bool module_selects(const char *tm, const char *im, bool whole)
{
  MStep a, b;
  for (;;) {
    if (!next_step(&tm, &a))
      return !whole || !next_step(&im, &b);
    if (!next_step(&im, &b) || a.nlen != b.nlen ||
        memcmp(a.name, b.name, a.nlen) != 0)
      return false;
    if (a.key && (a.klen != b.klen || memcmp(a.key, b.key, a.klen) != 0))
      return false;
  }
}

/* Does target t name (some instances of) resource node n? */
static bool target_node(const Target *t, const Node *n)
{
  if (t->a.kind != ST_ADDR_MODULE)
    return strcmp(t->saddr, n->addr) == 0;
  size_t k = strlen(t->smod);
  return k == 0 || (strncmp(n->addr, t->smod, k) == 0 && n->addr[k] == '.');
}

static bool target_inst(const Target *t, const Node *n, const Inst *in)
{
  if (!target_node(t, n))
    return false;
  if (t->whole)
    return true;
  if (t->a.kind == ST_ADDR_MODULE)
    return module_selects(t->a.module, in->module, false);
  return module_selects(t->a.module, in->module, true) &&
         (t->a.kind == ST_ADDR_RESOURCE || st_key_equal(t->a.key, in->key));
}

/* Is instance in of node n to be planned or applied? */
bool eng_inst_targeted(const Engine *e, const Node *n, const Inst *in)
{
  if (n->untargeted)
    return false;
  if (!n->tfilter)
    return true;
  for (uint32_t i = 0; i < e->ntg; i++)
    if (target_inst(&e->tg[i], n, in))
      return true;
  return false;
}

/* Does resource node n depend on a marked node, by its configuration or
** by the dependencies its state objects record? */
static bool depends_on_marked(const Engine *e, const Node *n,
                              const uint8_t *mark)
{
  uint32_t u;
  for (uint32_t k = 0; k < n->ndeps; k++)
    if (eng_map_get(&e->by_name, n->deps[k], &u) && mark[u])
      return true;
  for (uint32_t r = 0; r < n->nsrs; r++)
    for (uint32_t i = 0; i < n->srs[r]->ninst; i++) {
      const StObject *o = n->srs[r]->inst[i]->current;
      for (uint32_t k = 0; o && k < o->ndeps; k++)
        if (eng_map_get(&e->by_name, o->deps[k], &u) && mark[u])
          return true;
    }
  return false;
}

/* Marks the nodes -target leaves out.  Planning (and applying): the
** targets and everything they depend on, plus the outputs that refer
** directly to a selected node (Terraform: outputs are targeted
** downstream so their values stay current).  Destroying: the targets and
** every resource depending on them (by configuration or by the
** dependencies recorded in the state), which must go first. */
void eng_select_targets(Engine *e)
{
  if (!e->ntg)
    return;
  uint32_t nn = e->nnodes;
  uint8_t *mark = ARENA_NEW(e->a, uint8_t, nn + 1);   /* 1 seed, 2 all */
  uint32_t *stack = ARENA_NEW(e->a, uint32_t, 2 * nn + 1), sp = 0;
  for (uint32_t v = 0; v < nn; v++) {
    Node *n = &e->nodes[v];
    if (n->kind != N_RESOURCE && n->kind != N_ORPHAN)
      continue;
    for (uint32_t i = 0; i < e->ntg && mark[v] < 2; i++)
      if (target_node(&e->tg[i], n))
        mark[v] = e->tg[i].whole ? 2 : 1;
    if (mark[v])
      stack[sp++] = v;
  }
  bool destroy = e->o.mode == PL_MODE_DESTROY;
  if (destroy) {
    /* dependents, to a fixed point: a resource goes when one of its
    ** configured or recorded dependencies goes */
    for (bool grew = true; grew;) {
      grew = false;
      for (uint32_t v = 0; v < nn; v++) {
        Node *n = &e->nodes[v];
        if (mark[v] == 2 || (n->kind != N_RESOURCE && n->kind != N_ORPHAN))
          continue;
        if (depends_on_marked(e, n, mark)) {
          mark[v] = 2;
          grew = true;
        }
      }
    }
    /* providers, locals and calls are evaluated leniently when
    ** destroying: keep them all */
    for (uint32_t v = 0; v < nn; v++) {
      Node *n = &e->nodes[v];
      if (n->kind != N_RESOURCE && n->kind != N_ORPHAN &&
          n->kind != N_OUTPUT)
        mark[v] = 2;
    }
  } else {
    /* everything upstream; an orphan needs only its provider and module
    ** (its other edges order deletes, they are not references) */
    while (sp) {
      uint32_t u = stack[--sp];
      Node *n = &e->nodes[u];
      for (uint32_t i = e->g.dep_start[u]; i < e->g.dep_start[u + 1]; i++) {
        uint32_t w = e->g.deps[i];
        if (n->kind == N_ORPHAN && w != n->ps->node &&
            !(n->mod && w == n->mod->call_node))
          continue;
        if (mark[w] < 2) {
          mark[w] = 2;
          stack[sp++] = w;
        }
      }
    }
    for (uint32_t i = 0; i < nn; i++) {
      uint32_t v = e->topo[i];
      if (e->nodes[v].kind != N_OUTPUT || mark[v])
        continue;
      for (uint32_t k = e->g.dep_start[v]; k < e->g.dep_start[v + 1]; k++)
        if (mark[e->g.deps[k]] && e->nodes[e->g.deps[k]].kind != N_PROVIDER &&
            e->nodes[e->g.deps[k]].kind != N_CALL) {
          mark[v] = 2;
          break;
        }
    }
  }
  for (uint32_t v = 0; v < nn; v++) {
    e->nodes[v].untargeted = mark[v] == 0;
    e->nodes[v].tfilter = mark[v] == 1;
  }
}
