/*
** state.c: the state model (state.h): keys, resources, instances, deposed
** objects, outputs, ordering, cloning and lineages.  Addresses are in
** state_addr.c, reading the v4 file and applying journal records in
** state_read.c, writing the file and journal records in state_write.c.
**
** Lookups use two open-addressing hash tables in the state's arena (one
** for resources by address string, one for instances by resource and
** key).  Tables grow by doubling; the old arrays stay in the arena.
** Deletion leaves tombstones, which a growth pass drops.
*/
#include "state_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base/json.h"

/* ---- Hashing ------------------------------------------------------------- */

struct StHash {
  uint64_t *h;     /* 0: empty slot */
  void **v;        /* entry, or &tomb for a deleted slot */
  uint32_t cap;    /* power of two */
  uint32_t used;   /* live + tombstones */
  uint32_t live;
};

static char tomb;
#define TOMB ((void *)&tomb)

static uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++) {
    h ^= s[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static uint64_t hash_fin(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h | 1;
}

static uint64_t hash_str(const char *s)
{
  return hash_fin(hash_bytes(s, strlen(s), 0xcbf29ce484222325ULL));
}

static uint64_t hash_inst(const StResource *r, StKey k)
{
  uint64_t h = 0xcbf29ce484222325ULL;
  uintptr_t p = (uintptr_t)r;
  h = hash_bytes(&p, sizeof p, h);
  h = hash_bytes(&k.kind, sizeof k.kind, h);
  if (k.kind == ST_INTKEY)
    h = hash_bytes(&k.i, sizeof k.i, h);
  else if (k.kind == ST_STRKEY)
    h = hash_bytes(k.s, k.slen, h);
  return hash_fin(h);
}

static StHash *hash_new(Arena *a)
{
  StHash *t = ARENA_NEW(a, StHash, 1);
  t->cap = 64;
  t->h = ARENA_NEW(a, uint64_t, t->cap);
  t->v = ARENA_NEW(a, void *, t->cap);
  return t;
}

static void hash_put_raw(StHash *t, uint64_t h, void *v)
{
  uint32_t m = t->cap - 1;
  for (uint32_t i = (uint32_t)h & m;; i = (i + 1) & m) {
    if (t->h[i] == 0) {
      t->h[i] = h;
      t->v[i] = v;
      t->used++;
      t->live++;
      return;
    }
  }
}

static void hash_grow(Arena *a, StHash *t)
{
  uint64_t *oh = t->h;
  void **ov = t->v;
  uint32_t ocap = t->cap;
  if ((uint64_t)t->live * 2 >= t->cap)
    t->cap *= 2;
  t->h = ARENA_NEW(a, uint64_t, t->cap);
  t->v = ARENA_NEW(a, void *, t->cap);
  t->used = t->live = 0;
  for (uint32_t i = 0; i < ocap; i++)
    if (oh[i] && ov[i] != TOMB)
      hash_put_raw(t, oh[i], ov[i]);
}

static void hash_put(Arena *a, StHash *t, uint64_t h, void *v)
{
  if ((uint64_t)(t->used + 1) * 4 >= (uint64_t)t->cap * 3)
    hash_grow(a, t);
  hash_put_raw(t, h, v);
}

/* Returns the slot index holding an entry for which eq() holds, or -1. */
static long hash_find(const StHash *t, uint64_t h,
                      bool (*eq)(const void *v, const void *ctx),
                      const void *ctx)
{
  uint32_t m = t->cap - 1;
  for (uint32_t i = (uint32_t)h & m;; i = (i + 1) & m) {
    if (t->h[i] == 0)
      return -1;
    if (t->h[i] == h && t->v[i] != TOMB && eq(t->v[i], ctx))
      return (long)i;
  }
}

static void hash_del(StHash *t, long slot)
{
  t->v[slot] = TOMB;
  t->live--;
}

static bool res_eq(const void *v, const void *ctx)
{
  return strcmp(((const StResource *)v)->addr, (const char *)ctx) == 0;
}

typedef struct InstQ {
  const StResource *r;
  StKey k;
} InstQ;

static bool inst_eq(const void *v, const void *ctx)
{
  const StInstance *i = v;
  const InstQ *q = ctx;
  return i->res == q->r && st_key_equal(i->key, q->k);
}

/* ---- Keys ---------------------------------------------------------------- */

StKey st_strkey(Arena *a, const char *s, size_t n)
{
  StKey k = {ST_STRKEY, 0, arena_strndup(a, s, n), (uint32_t)n};
  return k;
}

bool st_key_equal(StKey a, StKey b)
{
  if (a.kind != b.kind)
    return false;
  if (a.kind == ST_INTKEY)
    return a.i == b.i;
  if (a.kind == ST_STRKEY)
    return a.slen == b.slen && memcmp(a.s, b.s, a.slen) == 0;
  return true;
}

static int bytes_cmp(const char *a, size_t an, const char *b, size_t bn)
{
  int c = memcmp(a, b, an < bn ? an : bn);
  if (c)
    return c;
  return an < bn ? -1 : an > bn;
}

int st_key_compare(StKey a, StKey b)
{
  if (a.kind != b.kind)
    return a.kind < b.kind ? -1 : 1;
  if (a.kind == ST_INTKEY)
    return a.i < b.i ? -1 : a.i > b.i;
  if (a.kind == ST_STRKEY)
    return bytes_cmp(a.s, a.slen, b.s, b.slen);
  return 0;
}

/* ---- Model --------------------------------------------------------------- */

State *st_new(Arena *a)
{
  State *s = ARENA_NEW(a, State, 1);
  s->arena = a;
  s->terraform_version = "";
  s->lineage = "";
  s->check_results = val_dynamic_null;
  s->res_index = hash_new(a);
  s->inst_index = hash_new(a);
  return s;
}

const char *st_mode_str(StMode m)
{
  return m == ST_DATA ? "data" : "managed";
}

void st_format_resource(Buf *out, const char *module, StMode mode,
                        const char *type, const char *name)
{
  if (module && *module) {
    buf_puts(out, module);
    buf_putc(out, '.');
  }
  if (mode == ST_DATA)
    buf_puts(out, "data.");
  buf_puts(out, type);
  buf_putc(out, '.');
  buf_puts(out, name);
}

static int res_cmp(const StResource *a, const StResource *b)
{
  int c = strcmp(a->module, b->module);
  if (c)
    return c;
  if (a->mode != b->mode)
    return a->mode == ST_DATA ? -1 : 1; /* "data" < "managed" */
  c = strcmp(a->type, b->type);
  if (c)
    return c;
  return strcmp(a->name, b->name);
}

StResource *st_find_resource_addr(const State *s, const char *addr)
{
  long i = hash_find(s->res_index, hash_str(addr), res_eq, addr);
  return i < 0 ? NULL : s->res_index->v[i];
}

StResource *st_find_resource(const State *s, const char *module, StMode mode,
                             const char *type, const char *name)
{
  char tmp[512];
  Arena scratch;
  Buf b;
  size_t need = strlen(module) + strlen(type) + strlen(name) + 8;
  if (need < sizeof tmp) {
    size_t ml = strlen(module);
    int n = snprintf(tmp, sizeof tmp, "%s%s%s%s.%s", module, ml ? "." : "",
                     mode == ST_DATA ? "data." : "", type, name);
    (void)n;
    return st_find_resource_addr(s, tmp);
  }
  arena_init(&scratch, 0);
  buf_init(&b, &scratch);
  st_format_resource(&b, module, mode, type, name);
  StResource *r = st_find_resource_addr(s, buf_str(&b));
  arena_release(&scratch);
  return r;
}

StResource *st_ensure_resource(State *s, const char *module, StMode mode,
                               const char *type, const char *name,
                               const char *provider)
{
  StResource *r = st_find_resource(s, module, mode, type, name);
  if (r) {
    if (provider && strcmp(provider, r->provider) != 0)
      r->provider = arena_strdup(s->arena, provider);
    return r;
  }
  r = ARENA_NEW(s->arena, StResource, 1);
  r->module = arena_strdup(s->arena, module);
  r->mode = mode;
  r->type = arena_strdup(s->arena, type);
  r->name = arena_strdup(s->arena, name);
  r->provider = arena_strdup(s->arena, provider ? provider : "");
  Buf b;
  buf_init(&b, s->arena);
  st_format_resource(&b, module, mode, type, name);
  r->addr = buf_str(&b);
  if (s->nres == s->cap_res) {
    uint32_t nc = s->cap_res ? s->cap_res * 2 : 16;
    s->res = arena_grow(s->arena, s->res, sizeof *s->res, _Alignof(void *),
                        s->cap_res, nc);
    s->cap_res = nc;
  }
  if (s->nres && res_cmp(s->res[s->nres - 1], r) >= 0)
    s->res_dirty = true;
  r->idx = s->nres;
  s->res[s->nres++] = r;
  hash_put(s->arena, s->res_index, hash_str(r->addr), r);
  return r;
}

static void inst_unindex(State *s, StInstance *in)
{
  InstQ q = {in->res, in->key};
  long slot = hash_find(s->inst_index, hash_inst(in->res, in->key), inst_eq,
                        &q);
  if (slot >= 0)
    hash_del(s->inst_index, slot);
}

void st_remove_resource(State *s, StResource *r)
{
  for (uint32_t i = 0; i < r->ninst; i++) {
    StInstance *in = r->inst[i];
    s->ninstances -= (in->current ? 1u : 0u) + in->ndeposed;
    inst_unindex(s, in);
  }
  r->ninst = 0;
  long slot = hash_find(s->res_index, hash_str(r->addr), res_eq, r->addr);
  if (slot >= 0)
    hash_del(s->res_index, slot);
  uint32_t last = s->nres - 1;
  if (r->idx != last) {
    s->res[r->idx] = s->res[last];
    s->res[r->idx]->idx = r->idx;
    s->res_dirty = true;
  }
  s->nres--;
}

StInstance *st_find_instance(const State *s, const StResource *r, StKey key)
{
  InstQ q = {r, key};
  long i = hash_find(s->inst_index, hash_inst(r, key), inst_eq, &q);
  return i < 0 ? NULL : s->inst_index->v[i];
}

StInstance *st_ensure_instance(State *s, StResource *r, StKey key)
{
  StInstance *in = st_find_instance(s, r, key);
  if (in)
    return in;
  in = ARENA_NEW(s->arena, StInstance, 1);
  in->key = key;
  if (key.kind == ST_STRKEY)
    in->key = st_strkey(s->arena, key.s, key.slen);
  in->res = r;
  if (r->ninst == r->cap_inst) {
    uint32_t nc = r->cap_inst ? r->cap_inst * 2 : 4;
    r->inst = arena_grow(s->arena, r->inst, sizeof *r->inst,
                         _Alignof(void *), r->cap_inst, nc);
    r->cap_inst = nc;
  }
  if (r->ninst && st_key_compare(r->inst[r->ninst - 1]->key, in->key) >= 0)
    r->inst_dirty = true;
  in->idx = r->ninst;
  r->inst[r->ninst++] = in;
  hash_put(s->arena, s->inst_index, hash_inst(r, in->key), in);
  return in;
}

static void maybe_prune(State *s, StInstance *in)
{
  if (in->current || in->ndeposed)
    return;
  StResource *r = in->res;
  inst_unindex(s, in);
  uint32_t last = r->ninst - 1;
  if (in->idx != last) {
    r->inst[in->idx] = r->inst[last];
    r->inst[in->idx]->idx = in->idx;
    r->inst_dirty = true;
  }
  r->ninst--;
  if (r->ninst == 0)
    st_remove_resource(s, r);
}

void st_set_current(State *s, StResource *r, StKey key, StObject *obj)
{
  StInstance *in = obj ? st_ensure_instance(s, r, key)
                       : st_find_instance(s, r, key);
  if (!in)
    return;
  if (in->current)
    s->ninstances--;
  in->current = obj;
  if (obj)
    s->ninstances++;
  else
    maybe_prune(s, in);
}

StObject *st_get_deposed(const StInstance *i, const char *dkey)
{
  for (uint32_t k = 0; k < i->ndeposed; k++)
    if (strcmp(i->deposed[k].key, dkey) == 0)
      return i->deposed[k].obj;
  return NULL;
}

void st_set_deposed(State *s, StResource *r, StKey key, const char *dkey,
                    StObject *obj)
{
  StInstance *in = obj ? st_ensure_instance(s, r, key)
                       : st_find_instance(s, r, key);
  if (!in)
    return;
  uint32_t k = 0;
  while (k < in->ndeposed && strcmp(in->deposed[k].key, dkey) < 0)
    k++;
  bool exists = k < in->ndeposed && strcmp(in->deposed[k].key, dkey) == 0;
  if (obj) {
    if (exists) {
      in->deposed[k].obj = obj;
      return;
    }
    if (in->ndeposed == in->cap_deposed) {
      uint32_t nc = in->cap_deposed ? in->cap_deposed * 2 : 2;
      in->deposed = arena_grow(s->arena, in->deposed, sizeof *in->deposed,
                               _Alignof(StDeposed), in->cap_deposed, nc);
      in->cap_deposed = nc;
    }
    memmove(in->deposed + k + 1, in->deposed + k,
            (in->ndeposed - k) * sizeof *in->deposed);
    snprintf(in->deposed[k].key, sizeof in->deposed[k].key, "%.8s", dkey);
    in->deposed[k].obj = obj;
    in->ndeposed++;
    s->ninstances++;
  } else if (exists) {
    memmove(in->deposed + k, in->deposed + k + 1,
            (in->ndeposed - k - 1) * sizeof *in->deposed);
    in->ndeposed--;
    s->ninstances--;
    maybe_prune(s, in);
  }
}

static uint32_t random_u32(void)
{
  uint32_t v = 0;
  ssize_t n;
  do {
    n = getrandom(&v, sizeof v, 0);
  } while (n < 0 && errno == EINTR);
  return v;
}

void st_new_deposed_key(const StInstance *i, char out[9])
{
  for (;;) {
    snprintf(out, 9, "%08x", random_u32());
    if (!i || !st_get_deposed(i, out))
      return;
  }
}

bool st_depose(State *s, StInstance *i, char dkey_out[9])
{
  if (!i->current)
    return false;
  StObject *o = i->current;
  st_new_deposed_key(i, dkey_out);
  StResource *r = i->res;
  StKey k = i->key;
  st_set_deposed(s, r, k, dkey_out, o);
  i->current = NULL;
  s->ninstances--;
  return true;
}

static long output_pos(const State *s, const char *name, bool *found)
{
  uint32_t lo = 0, hi = s->noutputs;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    int c = strcmp(s->outputs[mid].name, name);
    if (c == 0) {
      *found = true;
      return mid;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = false;
  return lo;
}

void st_set_output(State *s, const char *name, Value value,
                   const Type *type, bool sensitive)
{
  bool found;
  long p = output_pos(s, name, &found);
  if (!found) {
    if (s->noutputs == s->cap_outputs) {
      uint32_t nc = s->cap_outputs ? s->cap_outputs * 2 : 8;
      s->outputs = arena_grow(s->arena, s->outputs, sizeof *s->outputs,
                              _Alignof(StOutput), s->cap_outputs, nc);
      s->cap_outputs = nc;
    }
    memmove(s->outputs + p + 1, s->outputs + p,
            (s->noutputs - (uint32_t)p) * sizeof *s->outputs);
    s->noutputs++;
  }
  StOutput *o = &s->outputs[p];
  o->name = name;
  o->value = value;
  o->type = type;
  o->sensitive = sensitive;
}

void st_remove_output(State *s, const char *name)
{
  bool found;
  long p = output_pos(s, name, &found);
  if (!found)
    return;
  memmove(s->outputs + p, s->outputs + p + 1,
          (s->noutputs - (uint32_t)p - 1) * sizeof *s->outputs);
  s->noutputs--;
}

const StOutput *st_find_output(const State *s, const char *name)
{
  bool found;
  long p = output_pos(s, name, &found);
  return found ? &s->outputs[p] : NULL;
}

static int res_qcmp(const void *a, const void *b)
{
  return res_cmp(*(StResource *const *)a, *(StResource *const *)b);
}

static int inst_qcmp(const void *a, const void *b)
{
  return st_key_compare((*(StInstance *const *)a)->key,
                        (*(StInstance *const *)b)->key);
}

void st_sort(State *s)
{
  if (s->res_dirty) {
    qsort(s->res, s->nres, sizeof *s->res, res_qcmp);
    for (uint32_t i = 0; i < s->nres; i++)
      s->res[i]->idx = i;
    s->res_dirty = false;
  }
  for (uint32_t i = 0; i < s->nres; i++) {
    StResource *r = s->res[i];
    if (!r->inst_dirty)
      continue;
    qsort(r->inst, r->ninst, sizeof *r->inst, inst_qcmp);
    for (uint32_t k = 0; k < r->ninst; k++)
      r->inst[k]->idx = k;
    r->inst_dirty = false;
  }
}

StObject *st_object_new(State *s)
{
  StObject *o = ARENA_NEW(s->arena, StObject, 1);
  o->attrs.type = &ty_empty_object;
  o->attrs_flat = val_dynamic_null;
  o->identity = val_dynamic_null;
  return o;
}

/* A table of at least n entries that takes them without growing. */
static StHash *hash_new_cap(Arena *a, uint32_t n)
{
  StHash *t = ARENA_NEW(a, StHash, 1);
  uint32_t cap = 64;
  while (cap < 0x80000000u && (uint64_t)(n + 1) * 4 >= (uint64_t)cap * 3)
    cap *= 2;
  t->cap = cap;
  t->h = ARENA_NEW(a, uint64_t, t->cap);
  t->v = ARENA_NEW(a, void *, t->cap);
  return t;
}

void st_reserve(State *s, StResource *r, uint32_t n)
{
  if (r) {
    if (r->cap_inst - r->ninst < n) {
      uint32_t nc = n > UINT32_MAX - r->ninst ? UINT32_MAX : r->ninst + n;
      r->inst = arena_grow(s->arena, r->inst, sizeof *r->inst,
                           _Alignof(void *), r->cap_inst, nc);
      r->cap_inst = nc;
    }
    return;
  }
  StHash *t = s->inst_index;
  uint64_t want = (uint64_t)t->live + n;
  if ((want + 1) * 4 < (uint64_t)t->cap * 3)
    return;
  StHash *nt = hash_new_cap(s->arena, want > UINT32_MAX / 2 ? UINT32_MAX / 2
                                                            : (uint32_t)want);
  for (uint32_t i = 0; i < t->cap; i++)
    if (t->h[i] && t->v[i] != TOMB)
      hash_put_raw(nt, t->h[i], t->v[i]);
  *t = *nt;
}

/* The object the JSON round trip of the old clone would have read back:
** o itself (shared) unless writing and reading would change it. */
static StObject *clone_object(Arena *a, StObject *o)
{
  bool flat_dropped = !val_is_null(o->attrs) && !val_is_null(o->attrs_flat);
  bool ident_dropped = o->has_identity && val_is_null(o->identity);
  bool priv_dropped = !o->priv_len && o->priv;
  if (!flat_dropped && !ident_dropped && !priv_dropped)
    return o;
  StObject *c = ARENA_NEW(a, StObject, 1);
  *c = *o;
  if (flat_dropped)
    c->attrs_flat = val_dynamic_null;
  if (ident_dropped) {
    c->has_identity = false;
    c->identity = val_dynamic_null;
  }
  if (priv_dropped)
    c->priv = NULL;
  return c;
}

/* An output's value as the file would give it back: written as JSON with
** its type and decoded again (marks go, as they do in the file). */
static Value clone_output_value(Arena *a, const StOutput *o, const Type *t)
{
  Arena scratch;
  arena_init(&scratch, 4096);
  Buf b;
  buf_init(&b, &scratch);
  JsonW w;
  json_w_init(&w, &b, 0);
  Diags d;
  diag_init(&d, &scratch);
  if (!json_w_value(&w, o->value, t, &d)) {
    buf_clear(&b);
    json_w_init(&w, &b, 0);
    json_w_null(&w);
  }
  Value v;
  if (!json_decode_typed(a, b.p, b.len, t, &v, &d, NULL)) {
    fprintf(stderr, "cairn: internal error: state clone failed\n");
    abort();
  }
  arena_release(&scratch);
  return v;
}

State *st_clone(Arena *a, const State *src)
{
  /* The source is sorted first, as writing it (the old clone) did, so
  ** both iterate in the same order afterwards. */
  State *s = (State *)src;
  st_sort(s);
  State *out = ARENA_NEW(a, State, 1);
  out->arena = a;
  out->terraform_version = arena_strdup(a, s->terraform_version);
  out->serial = s->serial;
  out->lineage = arena_strdup(a, s->lineage);
  out->check_results = s->check_results;
  out->cap_outputs = s->noutputs ? s->noutputs : 1;
  out->outputs = ARENA_NEW(a, StOutput, out->cap_outputs);
  for (uint32_t i = 0; i < s->noutputs; i++) {
    const StOutput *o = &s->outputs[i];
    StOutput *c = &out->outputs[out->noutputs++];
    const Type *t = o->type ? o->type : o->value.type;
    c->name = arena_strdup(a, o->name);
    c->type = t;
    c->value = clone_output_value(a, o, t);
    c->sensitive = o->sensitive;
  }
  uint64_t ninst = 0;
  for (uint32_t i = 0; i < s->nres; i++)
    ninst += s->res[i]->ninst;
  out->res_index = hash_new_cap(a, s->nres);
  out->inst_index = hash_new_cap(a, ninst > UINT32_MAX / 2
                                        ? UINT32_MAX / 2 : (uint32_t)ninst);
  out->cap_res = s->nres ? s->nres : 1;
  out->res = ARENA_NEW(a, StResource *, out->cap_res);
  for (uint32_t i = 0; i < s->nres; i++) {
    const StResource *r = s->res[i];
    StResource *cr = ARENA_NEW(a, StResource, 1);
    cr->module = arena_strdup(a, r->module);
    cr->mode = r->mode;
    cr->type = arena_strdup(a, r->type);
    cr->name = arena_strdup(a, r->name);
    cr->provider = arena_strdup(a, r->provider);
    cr->addr = arena_strdup(a, r->addr);
    cr->idx = out->nres;
    out->res[out->nres++] = cr;
    hash_put(a, out->res_index, hash_str(cr->addr), cr);
    cr->cap_inst = r->ninst ? r->ninst : 1;
    cr->inst = ARENA_NEW(a, StInstance *, cr->cap_inst);
    StInstance *ins = ARENA_NEW(a, StInstance, cr->cap_inst);
    for (uint32_t k = 0; k < r->ninst; k++) {
      const StInstance *in = r->inst[k];
      if (!in->current && !in->ndeposed)
        continue;   /* not in the file: the round trip dropped it */
      StInstance *ci = &ins[cr->ninst];
      ci->key = in->key;   /* key strings are shared (immutable) */
      ci->res = cr;
      ci->idx = cr->ninst;
      if (in->current) {
        ci->current = clone_object(a, in->current);
        out->ninstances++;
      }
      if (in->ndeposed) {
        ci->cap_deposed = in->ndeposed;
        ci->deposed = ARENA_NEW(a, StDeposed, in->ndeposed);
        for (uint32_t j = 0; j < in->ndeposed; j++) {
          memcpy(ci->deposed[j].key, in->deposed[j].key,
                 sizeof ci->deposed[j].key);
          ci->deposed[j].obj = clone_object(a, in->deposed[j].obj);
        }
        ci->ndeposed = in->ndeposed;
        out->ninstances += in->ndeposed;
      }
      cr->inst[cr->ninst++] = ci;
      hash_put(a, out->inst_index, hash_inst(cr, ci->key), ci);
    }
  }
  return out;
}

const char *st_new_lineage(Arena *a)
{
  unsigned char b[16];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t n = getrandom(b + got, sizeof b - got, 0);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      fprintf(stderr, "cairn: getrandom failed\n");
      abort();
    }
    got += (size_t)n;
  }
  return arena_printf(a,
                      "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                      "%02x%02x%02x%02x%02x%02x",
                      b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8],
                      b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* v with the value at steps[0..n) marked sensitive (copied along the path;
** a path that does not apply leaves v as it is). */
static Value mark_path(Arena *a, Value v, const PathStep *steps, uint32_t n)
{
  if (n == 0)
    return val_sensitive(v);
  if (val_is_null(v) || val_is_unknown(v) || !v.type)
    return v;
  const PathStep *st = &steps[0];
  switch (v.type->kind) {
  case TY_OBJECT: {
    if (st->kind == PS_INDEX)
      return v;
    int k = ty_attr_index(v.type, st->name);
    if (k < 0)
      return v;
    Value *el = ARENA_NEW(a, Value, v.type->n + 1);
    memcpy(el, v.u.elems, v.type->n * sizeof *el);
    el[k] = mark_path(a, el[k], steps + 1, n - 1);
    v.u.elems = el;
    return v;
  }
  case TY_MAP: {
    if (st->kind == PS_INDEX)
      return v;
    MapEntry *en = ARENA_NEW(a, MapEntry, v.len + 1);
    if (v.len)
      memcpy(en, v.u.entries, v.len * sizeof *en);
    for (uint32_t k = 0; k < v.len; k++)
      if (strcmp(en[k].key, st->name) == 0)
        en[k].val = mark_path(a, en[k].val, steps + 1, n - 1);
    v.u.entries = en;
    return v;
  }
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE: {
    if (st->kind != PS_INDEX || st->index < 0 || st->index >= v.len)
      return v;
    Value *el = ARENA_NEW(a, Value, v.len + 1);
    memcpy(el, v.u.elems, v.len * sizeof *el);
    el[st->index] = mark_path(a, el[st->index], steps + 1, n - 1);
    v.u.elems = el;
    return v;
  }
  default:
    return v;
  }
}

Value st_mark_sensitive(Arena *a, Value v, const StObject *o)
{
  for (uint32_t k = 0; k < o->nsensitive; k++)
    v = mark_path(a, v, o->sensitive[k].steps, o->sensitive[k].n);
  return v;
}
