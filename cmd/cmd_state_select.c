/*
** cmd_state_select: resource instance addresses in state as the `state`
** subcommands select them (module, resource or instance; a module covers
** its descendants) and Terraform's order of instances
** (AbsResourceInstance.Less).
*/
#include "cmd_state_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "state/state.h"

/* ---- instance order and selection ----------------------------------- */

/* Reads one "module.NAME[KEY]" step at p; returns the position after it
** (at "." or the end) or NULL at the end of the path. */
const char *cmd_state_next_step(const char *p, MStep *st)
{
  if (!*p)
    return NULL;
  if (*p == '.')
    p++;
  if (strncmp(p, "module.", 7) == 0)
    p += 7;
  st->name = p;
  while (*p && *p != '.' && *p != '[')
    p++;
  st->nlen = (size_t)(p - st->name);
  st->kind = ST_NOKEY;
  if (*p == '[') {
    p++;
    if (*p == '"') {
      p++;
      st->kind = ST_STRKEY;
      st->s = p;
      while (*p && *p != '"') {
        if (*p == '\\' && p[1])
          p++;
        p++;
      }
      st->slen = (size_t)(p - st->s);
      if (*p)
        p++;
    } else {
      st->kind = ST_INTKEY;
      st->i = strtoll(p, NULL, 10);
      while (*p && *p != ']')
        p++;
    }
    if (*p == ']')
      p++;
  }
  return p;
}

static int module_depth(const char *m)
{
  int n = 0;
  MStep st;
  for (const char *p = cmd_state_next_step(m, &st); p;
       p = cmd_state_next_step(p, &st))
    n++;
  return n;
}

static int cmp_bytes(const char *a, size_t an, const char *b, size_t bn)
{
  int c = memcmp(a, b, an < bn ? an : bn);
  if (c)
    return c;
  return an < bn ? -1 : an > bn;
}

static int cmp_modules(const char *a, const char *b)
{
  int da = module_depth(a), db = module_depth(b);
  if (da != db)
    return da < db ? -1 : 1;
  MStep sa, sb;
  const char *pa = cmd_state_next_step(a, &sa);
  const char *pb = cmd_state_next_step(b, &sb);
  while (pa && pb) {
    int c = cmp_bytes(sa.name, sa.nlen, sb.name, sb.nlen);
    if (c)
      return c;
    if (sa.kind != sb.kind)
      return sa.kind < sb.kind ? -1 : 1;
    if (sa.kind == ST_INTKEY && sa.i != sb.i)
      return sa.i < sb.i ? -1 : 1;
    if (sa.kind == ST_STRKEY) {
      c = cmp_bytes(sa.s, sa.slen, sb.s, sb.slen);
      if (c)
        return c;
    }
    pa = cmd_state_next_step(pa, &sa);
    pb = cmd_state_next_step(pb, &sb);
  }
  return 0;
}

static void sel_add(Arena *a, SelList *l, StResource *r, StKey key)
{
  if (l->n == l->cap) {
    size_t nc = l->cap ? l->cap * 2 : 16;
    l->v = arena_grow(a, l->v, sizeof *l->v, _Alignof(Sel), l->cap, nc);
    l->cap = nc;
  }
  l->v[l->n].r = r;
  l->v[l->n].key = key;
  l->n++;
}

/* Terraform's AbsResourceInstance.Less: module depth, module steps, data
** before managed, type, name, key. */
int cmd_state_sel_cmp(const void *x, const void *y)
{
  const Sel *a = x, *b = y;
  int c = 0;
  if (a->r != b->r) {
    if (strcmp(a->r->module, b->r->module) != 0)
      c = cmp_modules(a->r->module, b->r->module);
    if (!c && a->r->mode != b->r->mode)
      c = a->r->mode == ST_DATA ? -1 : 1;
    if (!c)
      c = strcmp(a->r->type, b->r->type);
    if (!c)
      c = strcmp(a->r->name, b->r->name);
  }
  if (!c)
    c = st_key_compare(a->key, b->key);
  return c;
}

/* Module selection as Terraform's list/rm do it: the module itself and
** its descendants; a last step without a key covers every instance of
** that module. */
static bool module_selects(const char *sel, const char *mod)
{
  size_t n = strlen(sel);
  if (n == 0)
    return true;
  if (strncmp(mod, sel, n) != 0)
    return false;
  if (mod[n] == 0 || mod[n] == '.')
    return true;
  return mod[n] == '[' && sel[n - 1] != ']';
}

void cmd_state_add_resource_instances(Arena *a, SelList *l, StResource *r)
{
  for (uint32_t k = 0; k < r->ninst; k++)
    sel_add(a, l, r, r->inst[k]->key);
}

/* Instances selected by one parsed address, sorted.  With allow_missing
** false an address matching nothing is an error (Terraform's "Unknown
** module/resource/resource instance"). */
void cmd_state_lookup(Arena *a, State *s, const StAddr *ad, const char *text,
                      bool allow_missing, SelList *out, Diags *d)
{
  SelList l = {0};
  if (ad->kind == ST_ADDR_MODULE) {
    bool found = false;
    for (uint32_t i = 0; i < s->nres; i++) {
      StResource *r = s->res[i];
      if (module_selects(ad->module, r->module)) {
        found = true;
        cmd_state_add_resource_instances(a, &l, r);
      }
    }
    if (!found && !allow_missing)
      diag_error(d, NULL, "Unknown module",
                 "The current state contains no module at %s. If you've "
                 "just added this module to the configuration, you must run "
                 "\"terraform apply\" first to create the module's entry in "
                 "the state.",
                 text);
  } else {
    StResource *r =
        st_find_resource(s, ad->module, ad->mode, ad->type, ad->name);
    if (ad->kind == ST_ADDR_RESOURCE) {
      if (r)
        cmd_state_add_resource_instances(a, &l, r);
      else if (!allow_missing)
        diag_error(d, NULL, "Unknown resource",
                   "The current state contains no resource %s. If you've "
                   "just added this resource to the configuration, you must "
                   "run \"terraform apply\" first to create the resource's "
                   "entry in the state.",
                   text);
    } else if (r && st_find_instance(s, r, ad->key)) {
      sel_add(a, &l, r, ad->key);
    } else if (!allow_missing) {
      diag_error(d, NULL, "Unknown resource instance",
                 "The current state contains no resource instance %s. If "
                 "you've just added its resource to the configuration or "
                 "have changed the count or for_each arguments, you must "
                 "run \"terraform apply\" first to update the resource's "
                 "entry in the state.",
                 text);
    }
  }
  if (l.n > 1)
    qsort(l.v, l.n, sizeof *l.v, cmd_state_sel_cmp);
  for (size_t i = 0; i < l.n; i++)
    sel_add(a, out, l.v[i].r, l.v[i].key);
}

/* The canonical text of a parsed address (for messages). */
const char *cmd_state_addr_text(Arena *a, const StAddr *ad)
{
  Buf b;
  buf_init(&b, a);
  if (ad->kind == ST_ADDR_MODULE) {
    buf_puts(&b, ad->module);
    return buf_str(&b);
  }
  st_format_resource(&b, ad->module, ad->mode, ad->type, ad->name);
  if (ad->kind == ST_ADDR_INSTANCE)
    st_format_key(&b, ad->key);
  return buf_str(&b);
}
