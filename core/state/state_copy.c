/*
** state_copy.c: copying parsed values out of a scratch arena into a
** state's arena (StCopier, see state_priv.h).
**
** Why: st_read parses the whole file into a tree of JSON values, but a
** state keeps only part of each instance entry (the attributes, the
** identity, the paths, the dependency strings); the rest (the entry
** object itself, its keys' values, the index key, the version numbers)
** was kept for the whole command, about a third of the bytes of the read
** at 10,000 instances (docs/performance.md, change 5).  Parsing into
** scratch and copying what is kept lets the reader release the tree.
**
** Sharing is preserved: the parser interns object and tuple Types and
** attribute names, so the thousands of identically shaped instances of a
** state share one Type; the copier maps every Type and name it copied
** (by address) to its copy, so the copies share one Type too.
** Dependency strings repeat across the instances of a resource
** ("aws_vpc.main" in each), so st_copy_dep interns them by content.
*/
#include "state_priv.h"

#include <string.h>

/* An open-addressing map from an address (or a string's content, for
** st_copy_dep) to its copy.  Capacity is a power of two, at most 3/4
** full. */
typedef struct CpSlot {
  const void *key;   /* NULL: empty */
  uint32_t len;      /* content maps: string length */
  uint64_t hash;
  const void *val;
} CpSlot;

typedef struct CpMap {
  CpSlot *s;
  uint32_t n, cap;
} CpMap;

struct StCopier {
  Arena *scratch;    /* the maps */
  Arena *dst;        /* the copies */
  CpMap ptrs;        /* Type / names array / name string -> copy */
  CpMap strs;        /* dependency string content -> copy */
};

static uint64_t mix(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

static uint64_t hash_content(const char *s, size_t n)
{
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
  return mix(h);
}

static void map_grow(Arena *a, CpMap *m)
{
  CpSlot *old = m->s;
  uint32_t ocap = m->cap;
  m->cap = ocap ? ocap * 2 : 64;
  m->s = ARENA_NEW(a, CpSlot, m->cap);
  for (uint32_t i = 0; i < ocap; i++) {
    if (!old[i].key)
      continue;
    uint32_t j = (uint32_t)old[i].hash & (m->cap - 1);
    while (m->s[j].key)
      j = (j + 1) & (m->cap - 1);
    m->s[j] = old[i];
  }
}

/* The slot of key (by address when !by_content), or the empty slot where
** it goes. */
static CpSlot *map_slot(Arena *a, CpMap *m, const void *key, uint32_t len,
                        bool by_content, uint64_t h)
{
  if ((uint64_t)(m->n + 1) * 4 > (uint64_t)m->cap * 3)
    map_grow(a, m);
  uint32_t j = (uint32_t)h & (m->cap - 1);
  for (;; j = (j + 1) & (m->cap - 1)) {
    CpSlot *s = &m->s[j];
    if (!s->key)
      return s;
    if (s->hash != h)
      continue;
    if (by_content ? s->len == len && memcmp(s->key, key, len) == 0
                   : s->key == key)
      return s;
  }
}

static CpSlot *ptr_slot(StCopier *c, const void *p)
{
  return map_slot(c->scratch, &c->ptrs, p, 0, false, mix((uintptr_t)p));
}

StCopier *st_copier_new(Arena *scratch, Arena *dst)
{
  StCopier *c = ARENA_NEW(scratch, StCopier, 1);
  c->scratch = scratch;
  c->dst = dst;
  return c;
}

char *st_copy_str(StCopier *c, const char *s, size_t n)
{
  char *p = arena_alloc_raw(c->dst, 1, 1, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

const char *st_copy_dep(StCopier *c, const char *s)
{
  size_t n = strlen(s);
  uint64_t h = hash_content(s, n);
  CpSlot *sl = map_slot(c->scratch, &c->strs, s, (uint32_t)n, true, h);
  if (!sl->key) {
    const char *cp = st_copy_str(c, s, n);
    sl->key = cp;   /* the copy outlives the map; the source may not */
    sl->len = (uint32_t)n;
    sl->hash = h;
    sl->val = cp;
    c->strs.n++;
  }
  return sl->val;
}

/* An attribute name: interned by the parser, so mapped by address. */
static const char *copy_name(StCopier *c, const char *s)
{
  CpSlot *sl = ptr_slot(c, s);
  if (!sl->key) {
    sl->key = s;
    sl->hash = mix((uintptr_t)s);
    sl->val = st_copy_str(c, s, strlen(s));
    c->ptrs.n++;
  }
  return sl->val;
}

const Type *st_copy_type(StCopier *c, const Type *t)
{
  switch (t->kind) {
  case TY_STRING:
    return &ty_string;
  case TY_NUMBER:
    return &ty_number;
  case TY_BOOL:
    return &ty_bool;
  case TY_DYNAMIC:
    return &ty_dynamic;
  default:
    break;
  }
  if (t == &ty_empty_object || t == &ty_empty_tuple)
    return t;
  CpSlot *sl = ptr_slot(c, t);
  if (sl->key)
    return sl->val;
  Type *nt = ARENA_NEW(c->dst, Type, 1);
  *nt = *t;
  /* Recursion below may grow the map and move the slot: fill it first. */
  sl->key = t;
  sl->hash = mix((uintptr_t)t);
  sl->val = nt;
  c->ptrs.n++;
  if (t->elem)
    nt->elem = st_copy_type(c, t->elem);
  if (t->n && t->names) {
    const char **names = ARENA_NEW(c->dst, const char *, t->n);
    for (uint32_t i = 0; i < t->n; i++)
      names[i] = copy_name(c, t->names[i]);
    nt->names = names;
  }
  if (t->n && t->types) {
    const Type **types = ARENA_NEW(c->dst, const Type *, t->n);
    for (uint32_t i = 0; i < t->n; i++)
      types[i] = st_copy_type(c, t->types[i]);
    nt->types = types;
  }
  if (t->n && t->optional) {
    uint8_t *o = ARENA_NEW(c->dst, uint8_t, t->n);
    memcpy(o, t->optional, t->n);
    nt->optional = o;
  }
  if (t->n && t->defaults) {
    Value *dv = ARENA_NEW(c->dst, Value, t->n);
    for (uint32_t i = 0; i < t->n; i++)
      dv[i] = st_copy_value(c, t->defaults[i]);
    nt->defaults = dv;
  }
  return nt;
}

static const Value no_elems[1];

Value st_copy_value(StCopier *c, Value v)
{
  Value o = v;
  o.type = st_copy_type(c, v.type);
  if (v.flags & (VF_NULL | VF_UNKNOWN))
    return o;
  switch (v.type->kind) {
  case TY_STRING:
    o.u.s = st_copy_str(c, v.u.s, v.len);
    break;
  case TY_NUMBER:
    if (v.flags & VF_NUMLIT)
      o.u.s = st_copy_str(c, v.u.s, v.len);
    break;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
  case TY_OBJECT: {
    if (!v.len) {
      o.u.elems = no_elems;   /* not the scratch's pointer */
      break;
    }
    Value *e = ARENA_NEW(c->dst, Value, v.len);
    for (uint32_t i = 0; i < v.len; i++)
      e[i] = st_copy_value(c, v.u.elems[i]);
    o.u.elems = e;
    break;
  }
  case TY_MAP: {
    if (!v.len) {
      o.u.entries = NULL;
      break;
    }
    MapEntry *e = ARENA_NEW(c->dst, MapEntry, v.len);
    for (uint32_t i = 0; i < v.len; i++) {
      e[i].key = st_copy_str(c, v.u.entries[i].key, v.u.entries[i].keylen);
      e[i].keylen = v.u.entries[i].keylen;
      e[i].val = st_copy_value(c, v.u.entries[i].val);
    }
    o.u.entries = e;
    break;
  }
  default:
    break;
  }
  return o;
}
