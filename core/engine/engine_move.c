/*
** engine_move.c: `moved` across resource types (Terraform 1.8+).  After
** rf_apply_moves has moved the objects in the state, every current object
** whose previous address (e->moves) has another resource type is handed
** to the target resource's provider (MoveResourceState), and the object
** it returns, of the target type, replaces the source object in the
** state: planning then sees an ordinary prior object of the target type,
** and the state written afterwards is the target's.
*/
#include "engine_priv.h"

#include <string.h>

#include "base/convert.h"
#include "base/json.h"

/* The resource type and mode of a resource instance address
** ("module.a[\"x.y\"].data.t.n[0]"): the part after the module steps; the
** type is copied into a.  NULL when malformed. */
static const char *addr_type(Arena *a, const char *addr, StMode *mode)
{
  const char *p = addr;
  while (strncmp(p, "module.", 7) == 0) {
    p += 7;
    while (*p && *p != '.' && *p != '[')
      p++;
    if (*p == '[') {
      bool q = false;
      for (p++; *p && (q || *p != ']'); p++) {
        if (*p == '\\' && q && p[1])
          p++;
        else if (*p == '"')
          q = !q;
      }
      if (*p == ']')
        p++;
    }
    if (*p != '.')
      return NULL;
    p++;
  }
  *mode = ST_MANAGED;
  if (strncmp(p, "data.", 5) == 0) {
    *mode = ST_DATA;
    p += 5;
  }
  const char *dot = strchr(p, '.');
  return dot ? arena_strndup(a, p, (size_t)(dot - p)) : NULL;
}

/* The fully-qualified provider of a state provider address
** (`provider["registry.terraform.io/hashicorp/null"]`), in a. */
static const char *state_fqn(Arena *a, const char *paddr)
{
  const char *p = paddr ? strstr(paddr, "provider[\"") : NULL;
  if (!p)
    return paddr ? paddr : "";
  p += 10;
  const char *q = strchr(p, '"');
  return q ? arena_strndup(a, p, (size_t)(q - p)) : p;
}

/* The static module path ("module.a.module.b") of a module instance
** address. */
static const char *static_path(Arena *a, const char *mi)
{
  Buf b;
  buf_init(&b, a);
  const char *p = mi;
  while (strncmp(p, "module.", 7) == 0) {
    const char *name = p + 7, *e = name;
    while (*e && *e != '.' && *e != '[')
      e++;
    buf_printf(&b, "%smodule.%.*s", b.len ? "." : "", (int)(e - name), name);
    p = e;
    if (*p == '[') {
      bool q = false;
      for (p++; *p && (q || *p != ']'); p++) {
        if (*p == '\\' && q && p[1])
          p++;
        else if (*p == '"')
          q = !q;
      }
      if (*p == ']')
        p++;
    }
    if (*p == '.')
      p++;
  }
  return buf_str(&b);
}

static bool move_one(Engine *e, State *s, StResource *r, StInstance *in,
                     const char *addr, const char *prev_type, Diags *d)
{
  Arena *a = e->a;
  const CfgTree *t = cfg_tree_find(e->tree, static_path(a, r->module));
  const CfgResource *cr =
      t ? cfg_resource(t->m, r->mode == ST_DATA ? CFG_DATA : CFG_MANAGED,
                       r->type, r->name)
        : NULL;
  if (!cr)
    return true;   /* not configured: nothing can take it over */
  ProvSlot *ps = eng_resource_slot(e, t, cr, d);
  const ProvTypeSchema *ts = ps ? eng_type_schema(ps, r->mode, r->type) : NULL;
  if (!ps || !ps->prov || !ts)
    return false;
  StObject *o = in->current;
  Buf js;
  buf_init(&js, a);
  if (!json_write_value(&js, o->attrs, NULL, 0, d))
    return false;
  ProvMoveReq rq = {state_fqn(a, r->provider), prev_type,
                    (int64_t)o->schema_version, js.p ? js.p : "{}",
                    js.p ? js.len : 2, {o->priv, o->priv_len}, r->type};
  ProvMoveResp rs = {{0}, {0}};
  ProvCall c = {a, d, NULL};
  Diag *mark = d->tail;
  prov_move_resource_state(ps->prov, &c, &rq, &rs);
  for (Diag *g = mark ? mark->next : d->head; g; g = g->next)
    if (!g->address) {
      if (!g->subject.file)
        g->subject = cr->range;
      diag_set_address(d, g, addr);
    }
  if (diag_has_errors(d))
    return false;
  const Type *want = eng_implied(e, ts->schema.block);
  Value v;
  if (!rs.target_state.type ||
      !conv_convert(a, rs.target_state, want, false, &v, NULL)) {
    diag_error(d, &cr->range, "Provider returned invalid result object "
               "after move", "The provider \"%s\" returned an object for %s "
               "that does not match the schema of %s.%s", ps->fqn, addr,
               r->type, eng_bug_suffix);
    return false;
  }
  StObject *no = ARENA_NEW(s->arena, StObject, 1);
  *no = *o;
  Buf out;
  buf_init(&out, a);
  if (!json_write_value(&out, v, want, JSON_W_UNKNOWN_NULL, d) ||
      !json_parse(s->arena, out.p, out.len, &no->attrs, d, NULL))
    return false;
  no->schema_version = (uint64_t)ts->schema.version;
  no->sensitive = NULL;
  no->nsensitive = 0;
  no->priv = rs.target_private.p;
  no->priv_len = rs.target_private.n;
  in->current = no;
  r->provider = ps->state_addr;
  return true;
}

bool eng_move_types(Engine *e, State *s, Diags *d)
{
  if (!e->moves.n)
    return true;
  Arena *a = e->a;
  bool ok = true;
  for (uint32_t i = 0; i < s->nres; i++) {
    StResource *r = s->res[i];
    for (uint32_t k = 0; k < r->ninst; k++) {
      StInstance *in = r->inst[k];
      if (!in->current)
        continue;
      const char *addr = st_instance_addr(a, r, in->key);
      const char *prev = rf_prev_addr(&e->moves, addr);
      StMode pm;
      const char *pt = prev ? addr_type(a, prev, &pm) : NULL;
      if (!pt || strcmp(pt, r->type) == 0)
        continue;
      ok = move_one(e, s, r, in, addr, pt, d) && ok;
    }
  }
  return ok;
}
