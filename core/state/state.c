/*
** state.c: the state model, addresses, and the v4 file format (state.h).
**
** Lookups use two open-addressing hash tables in the state's arena (one
** for resources by address string, one for instances by resource and
** key).  Tables grow by doubling; the old arrays stay in the arena.
** Deletion leaves tombstones, which a growth pass drops.
*/
#include "state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base/json.h"

#ifndef CAIRN_VERSION
#define CAIRN_VERSION "0.0.0"
#endif

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

static const char *mode_str(StMode m)
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

State *st_clone(Arena *a, const State *s)
{
  Arena scratch;
  arena_init(&scratch, 0);
  Buf b;
  buf_init(&b, &scratch);
  st_write(&b, (State *)s, s->terraform_version);
  Diags d;
  diag_init(&d, &scratch);
  State *out = NULL;
  st_read(a, "(clone)", b.p, b.len, &out, &d);
  if (!out) {
    fprintf(stderr, "cairn: internal error: state clone failed\n");
    abort();
  }
  out->terraform_version = arena_strdup(a, s->terraform_version);
  arena_release(&scratch);
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

/* ---- Addresses ----------------------------------------------------------- */

/* Terraform's toHCLQuotedString: HCL string escapes, template
** introducers doubled, non-printable runes as \uXXXX. */
static void hcl_quote(Buf *out, const char *s, size_t n)
{
  buf_putc(out, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '\n':
      buf_puts(out, "\\n");
      break;
    case '\r':
      buf_puts(out, "\\r");
      break;
    case '\t':
      buf_puts(out, "\\t");
      break;
    case '"':
      buf_puts(out, "\\\"");
      break;
    case '\\':
      buf_puts(out, "\\\\");
      break;
    case '$':
    case '%':
      buf_putc(out, (char)c);
      if (i + 1 < n && s[i + 1] == '{')
        buf_putc(out, (char)c);
      break;
    default:
      if (c < 0x20 || c == 0x7f)
        buf_printf(out, "\\u%04x", c);
      else
        buf_putc(out, (char)c);
    }
  }
  buf_putc(out, '"');
}

void st_format_key(Buf *out, StKey key)
{
  if (key.kind == ST_INTKEY) {
    buf_printf(out, "[%lld]", (long long)key.i);
  } else if (key.kind == ST_STRKEY) {
    buf_putc(out, '[');
    hcl_quote(out, key.s, key.slen);
    buf_putc(out, ']');
  }
}

void st_format_instance(Buf *out, const StResource *r, StKey key)
{
  buf_puts(out, r->addr);
  st_format_key(out, key);
}

const char *st_instance_addr(Arena *a, const StResource *r, StKey key)
{
  Buf b;
  buf_init(&b, a);
  st_format_instance(&b, r, key);
  return buf_str(&b);
}

/* A traversal step of a parsed address. */
typedef enum TkKind { TK_NAME, TK_NUM, TK_STR, TK_SPLAT } TkKind;

typedef struct Tk {
  TkKind kind;
  const char *s;       /* name or string key (NUL-terminated) */
  uint32_t slen;
  int64_t i;
  bool whole;          /* TK_NUM: integral and in range */
} Tk;

static bool is_id_start(unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c >= 0x80;
}

static bool is_id_cont(unsigned char c)
{
  return is_id_start(c) || (c >= '0' && c <= '9') || c == '-';
}

typedef struct Lex {
  Arena *a;
  const char *p;
  const char *end;
  Diags *d;
} Lex;

static bool lex_err(Lex *l, const char *summary, const char *detail)
{
  if (l->d)
    diag_error(l->d, NULL, summary, "%s", detail);
  return false;
}

static bool lex_string(Lex *l, Tk *t)
{
  Buf b;
  buf_init(&b, l->a);
  l->p++; /* opening quote */
  while (l->p < l->end && *l->p != '"') {
    char c = *l->p;
    if (c == '\n')
      break;
    if ((c == '$' || c == '%') && l->p + 2 < l->end && l->p[1] == c &&
        l->p[2] == '{') {
      buf_putc(&b, c);
      buf_putc(&b, '{');
      l->p += 3;
      continue;
    }
    if ((c == '$' || c == '%') && l->p + 1 < l->end && l->p[1] == '{')
      return lex_err(l, "Invalid index key",
                     "Index brackets must contain either a literal number "
                     "or a literal string.");
    if (c != '\\') {
      buf_putc(&b, c);
      l->p++;
      continue;
    }
    if (l->p + 1 >= l->end)
      break;
    char e = l->p[1];
    l->p += 2;
    switch (e) {
    case 'n': buf_putc(&b, '\n'); break;
    case 'r': buf_putc(&b, '\r'); break;
    case 't': buf_putc(&b, '\t'); break;
    case '"': buf_putc(&b, '"'); break;
    case '\\': buf_putc(&b, '\\'); break;
    case 'u':
    case 'U': {
      int nd = e == 'u' ? 4 : 8;
      uint32_t cp = 0;
      for (int k = 0; k < nd; k++) {
        if (l->p >= l->end)
          return lex_err(l, "Invalid escape sequence",
                         "The \\u escape sequence must be followed by hex "
                         "digits.");
        char h = *l->p++;
        uint32_t v;
        if (h >= '0' && h <= '9')
          v = (uint32_t)(h - '0');
        else if (h >= 'a' && h <= 'f')
          v = (uint32_t)(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F')
          v = (uint32_t)(h - 'A' + 10);
        else
          return lex_err(l, "Invalid escape sequence",
                         "The \\u escape sequence must be followed by hex "
                         "digits.");
        cp = cp * 16 + v;
      }
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return lex_err(l, "Invalid escape sequence",
                       "The escape sequence does not name a valid Unicode "
                       "character.");
      char u[4];
      int un;
      if (cp < 0x80) {
        u[0] = (char)cp;
        un = 1;
      } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        un = 2;
      } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        un = 3;
      } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        un = 4;
      }
      buf_put(&b, u, (size_t)un);
      break;
    }
    default:
      return lex_err(l, "Invalid escape sequence",
                     "The symbol after the backslash is not a valid escape "
                     "sequence.");
    }
  }
  if (l->p >= l->end || *l->p != '"')
    return lex_err(l, "Unterminated template string",
                   "No closing marker was found for the string.");
  l->p++;
  t->kind = TK_STR;
  t->s = buf_str(&b);
  t->slen = (uint32_t)b.len;
  return true;
}

static bool lex_number(Lex *l, Tk *t)
{
  const char *s = l->p;
  while (l->p < l->end && *l->p >= '0' && *l->p <= '9')
    l->p++;
  bool frac = false;
  if (l->p + 1 < l->end && *l->p == '.' && l->p[1] >= '0' && l->p[1] <= '9') {
    frac = true;
    l->p++;
    while (l->p < l->end && *l->p >= '0' && *l->p <= '9')
      l->p++;
  }
  if (l->p < l->end && (*l->p == 'e' || *l->p == 'E')) {
    const char *q = l->p + 1;
    if (q < l->end && (*q == '+' || *q == '-'))
      q++;
    if (q < l->end && *q >= '0' && *q <= '9') {
      frac = true;
      l->p = q;
      while (l->p < l->end && *l->p >= '0' && *l->p <= '9')
        l->p++;
    }
  }
  t->kind = TK_NUM;
  t->whole = false;
  if (!frac && l->p - s <= 18) {
    int64_t v = 0;
    for (const char *q = s; q < l->p; q++)
      v = v * 10 + (*q - '0');
    t->i = v;
    t->whole = true;
  } else if (!frac) {
    errno = 0;
    char tmp[64];
    size_t n = (size_t)(l->p - s);
    if (n < sizeof tmp) {
      memcpy(tmp, s, n);
      tmp[n] = 0;
      long long v = strtoll(tmp, NULL, 10);
      if (errno == 0) {
        t->i = v;
        t->whole = true;
      }
    }
  }
  t->s = arena_strndup(l->a, s, (size_t)(l->p - s));
  return true;
}

/* Splits text into traversal steps like hclsyntax.ParseTraversalAbs. */
static bool lex_traversal(Lex *l, Tk **out, uint32_t *nout)
{
  uint32_t cap = 8, n = 0;
  Tk *v = ARENA_NEW(l->a, Tk, cap);
  bool first = true;
  while (l->p < l->end) {
    if (n == cap) {
      v = arena_grow(l->a, v, sizeof *v, _Alignof(Tk), cap, cap * 2);
      cap *= 2;
    }
    Tk *t = &v[n];
    memset(t, 0, sizeof *t);
    if (first) {
      if (!is_id_start((unsigned char)*l->p))
        return lex_err(l, "Variable name required",
                       "Must begin with a variable name.");
    }
    if (first || *l->p == '.') {
      if (!first)
        l->p++;
      if (!first && l->p < l->end && *l->p >= '0' && *l->p <= '9') {
        lex_number(l, t); /* legacy index syntax: a.0 */
      } else if (!first && l->p < l->end && *l->p == '*') {
        l->p++;
        t->kind = TK_SPLAT;
      } else {
        if (l->p >= l->end || !is_id_start((unsigned char)*l->p))
          return lex_err(l, "Invalid attribute name",
                         "An attribute name is required after a dot.");
        const char *s = l->p;
        while (l->p < l->end && is_id_cont((unsigned char)*l->p))
          l->p++;
        t->kind = TK_NAME;
        t->s = arena_strndup(l->a, s, (size_t)(l->p - s));
        t->slen = (uint32_t)(l->p - s);
      }
    } else if (*l->p == '[') {
      l->p++;
      if (l->p < l->end && *l->p == '"') {
        if (!lex_string(l, t))
          return false;
      } else if (l->p < l->end && *l->p >= '0' && *l->p <= '9') {
        lex_number(l, t);
      } else if (l->p < l->end && *l->p == '*') {
        l->p++;
        t->kind = TK_SPLAT;
      } else {
        return lex_err(l, "Invalid index key",
                       "Index brackets must contain either a literal "
                       "number or a literal string.");
      }
      if (l->p >= l->end || *l->p != ']')
        return lex_err(l, "Missing close bracket on index",
                       "The index operator must end with a closing bracket "
                       "(\"]\").");
      l->p++;
    } else {
      return lex_err(l, "Invalid character",
                     "Expected an attribute access or index operator.");
    }
    first = false;
    n++;
  }
  if (first)
    return lex_err(l, "Variable name required",
                   "Must begin with a variable name.");
  *out = v;
  *nout = n;
  return true;
}

static bool tk_key(Lex *l, const Tk *t, const char *kind, StKey *k)
{
  if (t->kind == TK_SPLAT) {
    if (l->d)
      diag_error(l->d, NULL, "Invalid address",
                 "The %s instance key cannot be a wildcard in this address.",
                 kind);
    return false;
  }
  if (t->kind == TK_STR) {
    k->kind = ST_STRKEY;
    k->s = t->s;
    k->slen = t->slen;
    k->i = 0;
    return true;
  }
  if (!t->whole) {
    if (l->d)
      diag_error(l->d, NULL, "Invalid address",
                 "Invalid %s instance key: value must be a whole number, "
                 "between -9223372036854775808 and 9223372036854775807.",
                 kind);
    return false;
  }
  *k = st_intkey(t->i);
  return true;
}

/* Parses a module path prefix; returns the number of steps consumed or
** -1 on error, writing the normalised module address to *norm. */
static long parse_module_prefix(Lex *l, const Tk *t, uint32_t n,
                                const char **norm)
{
  Buf b;
  buf_init(&b, l->a);
  buf_puts(&b, "");
  uint32_t i = 0;
  while (i < n && t[i].kind == TK_NAME && strcmp(t[i].s, "module") == 0) {
    i++;
    if (i >= n || t[i].kind != TK_NAME) {
      if (l->d)
        diag_error(l->d, NULL, "Invalid address operator",
                   "Prefix \"module.\" must be followed by a module name.");
      return -1;
    }
    if (b.len)
      buf_putc(&b, '.');
    buf_puts(&b, "module.");
    buf_puts(&b, t[i].s);
    i++;
    if (i < n && t[i].kind != TK_NAME) {
      StKey k;
      if (!tk_key(l, &t[i], "module", &k))
        return -1;
      st_format_key(&b, k);
      i++;
    }
  }
  *norm = buf_str(&b);
  return (long)i;
}

static const char *const reserved[] = {"count", "each", "local", "module",
                                       "path", "self", "terraform", "var",
                                       "template", "lazy", "arg"};

bool st_parse_addr(Arena *a, const char *text, StAddr *out, Diags *d)
{
  Lex l = {a, text, text + strlen(text), d};
  Tk *t;
  uint32_t n;
  memset(out, 0, sizeof *out);
  if (!lex_traversal(&l, &t, &n))
    return false;
  const char *mod;
  long used = parse_module_prefix(&l, t, n, &mod);
  if (used < 0)
    return false;
  out->module = mod;
  uint32_t i = (uint32_t)used;
  if (i == n) {
    out->kind = ST_ADDR_MODULE;
    return true;
  }
  out->mode = ST_MANAGED;
  const char *root = t[i].kind == TK_NAME ? t[i].s : "";
  if (strcmp(root, "data") == 0) {
    out->mode = ST_DATA;
    i++;
  } else if (strcmp(root, "resource") == 0) {
    i++;
  } else if (strcmp(root, "ephemeral") == 0 || strcmp(root, "list") == 0) {
    diag_error(d, NULL, "Invalid address",
               "%s resources are never stored in state.",
               root[0] == 'e' ? "Ephemeral" : "List");
    return false;
  } else {
    for (size_t k = 0; k < sizeof reserved / sizeof *reserved; k++) {
      if (strcmp(root, reserved[k]) == 0) {
        diag_error(d, NULL, "Invalid address",
                   "The keyword \"%s\" is reserved and cannot be used to "
                   "target a resource address. If you are targeting a "
                   "resource type that uses a reserved keyword, please "
                   "prefix your address with \"resource.\".",
                   root);
        return false;
      }
    }
  }
  if (n - i < 2) {
    diag_error(d, NULL, "Invalid address",
               "Resource specification must include a resource type and "
               "name.");
    return false;
  }
  if (t[i].kind != TK_NAME) {
    diag_error(d, NULL, "Invalid address", "%s",
               out->mode == ST_DATA ? "A data source name is required."
                                    : "A resource type name is required.");
    return false;
  }
  if (t[i + 1].kind != TK_NAME) {
    diag_error(d, NULL, "Invalid address", "A resource name is required.");
    return false;
  }
  out->type = t[i].s;
  out->name = t[i + 1].s;
  i += 2;
  out->kind = ST_ADDR_RESOURCE;
  out->key = st_nokey();
  if (i < n && t[i].kind != TK_NAME) {
    if (!tk_key(&l, &t[i], "resource", &out->key))
      return false;
    out->kind = ST_ADDR_INSTANCE;
    i++;
  } else if (i < n) {
    diag_error(d, NULL, "Invalid address", "%s",
               n - i == 1
                   ? "Resource instance key must be given in square "
                     "brackets."
                   : "Unexpected extra operators after address.");
    return false;
  }
  if (i < n) {
    diag_error(d, NULL, "Invalid address",
               "Unexpected extra operators after address.");
    return false;
  }
  return true;
}

bool st_parse_module(Arena *a, const char *text, const char **norm)
{
  if (!*text) {
    *norm = "";
    return true;
  }
  Lex l = {a, text, text + strlen(text), NULL};
  Tk *t;
  uint32_t n;
  if (!lex_traversal(&l, &t, &n))
    return false;
  long used = parse_module_prefix(&l, t, n, norm);
  return used >= 0 && (uint32_t)used == n;
}

const char *st_static_path(Arena *a, const char *addr)
{
  if (!strchr(addr, '['))
    return addr;
  Buf b;
  buf_init(&b, a);
  int depth = 0;
  bool in_str = false;
  for (const char *p = addr; *p; p++) {
    if (in_str) {
      if (*p == '\\' && p[1])
        p++;
      else if (*p == '"')
        in_str = false;
    } else if (*p == '"' && depth > 0) {
      in_str = true;
    } else if (*p == '[') {
      depth++;
    } else if (*p == ']') {
      if (depth > 0)
        depth--;
    } else if (depth == 0) {
      buf_putc(&b, *p);
    }
  }
  return buf_str(&b);
}

bool st_addr_matches(const StAddr *addr, const StResource *r, StKey key)
{
  size_t ml = strlen(addr->module);
  if (addr->kind == ST_ADDR_MODULE) {
    if (ml == 0)
      return true;
    return strncmp(r->module, addr->module, ml) == 0 &&
           (r->module[ml] == 0 || r->module[ml] == '.');
  }
  if (strcmp(r->module, addr->module) != 0 || r->mode != addr->mode ||
      strcmp(r->type, addr->type) != 0 || strcmp(r->name, addr->name) != 0)
    return false;
  return addr->kind == ST_ADDR_RESOURCE || st_key_equal(addr->key, key);
}

/* ---- Base64 -------------------------------------------------------------- */

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64_encode(Buf *out, const uint8_t *p, size_t n)
{
  buf_reserve(out, (n + 2) / 3 * 4 + 1);
  size_t i = 0;
  for (; i + 2 < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
    char q[4] = {b64[v >> 18], b64[(v >> 12) & 63], b64[(v >> 6) & 63],
                 b64[v & 63]};
    buf_put(out, q, 4);
  }
  if (i < n) {
    uint32_t v = (uint32_t)p[i] << 16;
    if (i + 1 < n)
      v |= (uint32_t)p[i + 1] << 8;
    char q[4] = {b64[v >> 18], b64[(v >> 12) & 63],
                 i + 1 < n ? b64[(v >> 6) & 63] : '=', '='};
    buf_put(out, q, 4);
  }
}

static int b64_val(unsigned char c)
{
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

/* Go's base64.StdEncoding.DecodeString (newlines are skipped as Go does).
** Returns false and the offending offset on corrupt input. */
static bool b64_decode(Arena *a, const char *s, size_t n, uint8_t **out,
                       size_t *outn, size_t *bad)
{
  uint8_t *o = ARENA_NEW(a, uint8_t, n / 4 * 3 + 3);
  size_t on = 0, q = 0;
  uint32_t acc = 0;
  size_t pad = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n' || c == '\r')
      continue;
    if (c == '=') {
      if (q < 2) {
        *bad = i;
        return false;
      }
      pad++;
      q++;
      acc <<= 6;
      if (q == 4)
        break;
      continue;
    }
    int v = b64_val(c);
    if (v < 0 || pad) {
      *bad = i;
      return false;
    }
    acc = acc << 6 | (uint32_t)v;
    if (++q == 4) {
      o[on++] = (uint8_t)(acc >> 16);
      o[on++] = (uint8_t)(acc >> 8);
      o[on++] = (uint8_t)acc;
      acc = 0;
      q = 0;
    }
  }
  if (pad) {
    o[on++] = (uint8_t)(acc >> 16);
    if (pad == 1)
      o[on++] = (uint8_t)(acc >> 8);
    q = 0;
  }
  if (q != 0) {
    *bad = n;
    return false;
  }
  *out = o;
  *outn = on;
  return true;
}

/* ---- Reading ------------------------------------------------------------- */

typedef struct Rd {
  Arena *a;
  const char *name;
  Diags *d;
  bool failed;
} Rd;

static void rd_err(Rd *r, const char *summary, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void rd_err(Rd *r, const char *summary, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->failed = true;
  diag_error(r->d, NULL, summary, "%s\n\nState file: %s", msg, r->name);
}

static bool is_obj(Value v)
{
  return !val_is_null(v) && v.type->kind == TY_OBJECT;
}

static bool is_arr(Value v)
{
  return !val_is_null(v) && v.type->kind == TY_TUPLE;
}

static bool is_str(Value v)
{
  return !val_is_null(v) && v.type->kind == TY_STRING;
}

/* Go's name for a JSON value in UnmarshalTypeError.Value. */
static const char *json_kind(Arena *a, Value v)
{
  if (val_is_null(v))
    return "null";
  switch (v.type->kind) {
  case TY_STRING:
    return "string";
  case TY_BOOL:
    return "bool";
  case TY_TUPLE:
    return "array";
  case TY_OBJECT:
    return "object";
  case TY_NUMBER: {
    Buf b;
    buf_init(&b, a);
    buf_puts(&b, "number ");
    val_num_format(&b, v);
    return buf_str(&b);
  }
  default:
    return "value";
  }
}

static void field_err(Rd *r, const char *field, Value v)
{
  rd_err(r, "Invalid state file format",
         "The state file field \"%s\" has invalid value %s", field,
         json_kind(r->a, v));
}

static Value get(Value obj, const char *name, bool *found)
{
  bool f = false;
  Value v = val_attr(obj, name, &f);
  if (found)
    *found = f;
  if (!f)
    return val_dynamic_null;
  return v;
}

/* A uint64 field; absent or null leaves *out at 0. */
static bool get_u64(Rd *r, Value obj, const char *name, const char *field,
                    uint64_t *out)
{
  Value v = get(obj, name, NULL);
  *out = 0;
  if (val_is_null(v))
    return true;
  int64_t i;
  if (v.type->kind != TY_NUMBER || !val_num_int(v, &i) || i < 0) {
    if (v.type->kind == TY_NUMBER && !(v.flags & VF_FLOAT)) {
      /* A big literal that still fits in uint64. */
      Buf b;
      buf_init(&b, r->a);
      val_num_format(&b, v);
      const char *s = buf_str(&b);
      if (*s >= '0' && *s <= '9' && !strchr(s, '.')) {
        errno = 0;
        char *e;
        unsigned long long u = strtoull(s, &e, 10);
        if (!*e && errno == 0) {
          *out = u;
          return true;
        }
      }
    }
    field_err(r, field, v);
    return false;
  }
  *out = (uint64_t)i;
  return true;
}

static const char *get_str(Rd *r, Value obj, const char *name,
                           const char *field, bool *ok)
{
  Value v = get(obj, name, NULL);
  if (val_is_null(v))
    return "";
  if (v.type->kind != TY_STRING) {
    field_err(r, field, v);
    *ok = false;
    return "";
  }
  return v.u.s;
}

static bool get_bool(Rd *r, Value obj, const char *name, const char *field,
                     bool *out)
{
  Value v = get(obj, name, NULL);
  *out = false;
  if (val_is_null(v))
    return true;
  if (v.type->kind != TY_BOOL) {
    field_err(r, field, v);
    return false;
  }
  *out = v.u.b;
  return true;
}

static bool semver_ok(const char *s)
{
  /* go-version: optional "v", 1-3+ dot-separated numbers, optional
  ** -prerelease and +metadata. */
  if (*s == 'v')
    s++;
  int parts = 0;
  for (;;) {
    if (!(*s >= '0' && *s <= '9'))
      return false;
    while (*s >= '0' && *s <= '9')
      s++;
    parts++;
    if (*s != '.')
      break;
    s++;
  }
  if (*s == '-' || *s == '+') {
    s++;
    if (!*s)
      return false;
    for (; *s; s++)
      if (!is_id_cont((unsigned char)*s) && *s != '.' && *s != '+')
        return false;
  }
  return *s == 0 && parts >= 1;
}

static bool read_paths(Rd *r, Value v, StObject *o)
{
  if (val_is_null(v))
    return true;
  if (!is_arr(v)) {
    rd_err(r, "Error unmarshaling path steps",
           "json: cannot unmarshal %s into Go value of type "
           "[][]statefile.pathStep",
           json_kind(r->a, v));
    return false;
  }
  ValPath *paths = ARENA_NEW(r->a, ValPath, v.len);
  uint32_t np = 0;
  for (uint32_t i = 0; i < v.len; i++) {
    Value p = v.u.elems[i];
    if (val_is_null(p)) {
      paths[np].steps = NULL;
      paths[np++].n = 0;
      continue;
    }
    if (!is_arr(p)) {
      rd_err(r, "Error unmarshaling path steps",
             "json: cannot unmarshal %s into Go value of type "
             "[]statefile.pathStep",
             json_kind(r->a, p));
      return false;
    }
    PathStep *steps = ARENA_NEW(r->a, PathStep, p.len);
    for (uint32_t k = 0; k < p.len; k++) {
      Value st = p.u.elems[k];
      if (!is_obj(st)) {
        rd_err(r, "Error unmarshaling path steps",
               "json: cannot unmarshal %s into Go value of type "
               "statefile.pathStep",
               json_kind(r->a, st));
        return false;
      }
      Value ty = get(st, "type", NULL), val = get(st, "value", NULL);
      const char *tn = is_str(ty) ? ty.u.s : "";
      if (strcmp(tn, "get_attr") == 0) {
        if (!is_str(val)) {
          rd_err(r, "Error unmarshaling path step",
                 "Failed to unmarshal get attr step name: json: cannot "
                 "unmarshal %s into Go value of type string",
                 json_kind(r->a, val));
          return false;
        }
        steps[k].kind = PS_ATTR;
        steps[k].name = val.u.s;
      } else if (strcmp(tn, "index") == 0) {
        Value kv = is_obj(val) ? get(val, "value", NULL) : val_dynamic_null;
        Value kt = is_obj(val) ? get(val, "type", NULL) : val_dynamic_null;
        const char *ktn = is_str(kt) ? kt.u.s : "";
        int64_t idx;
        if (strcmp(ktn, "string") == 0 && is_str(kv)) {
          steps[k].kind = PS_KEY;
          steps[k].name = kv.u.s;
        } else if (strcmp(ktn, "number") == 0 && !val_is_null(kv) &&
                   kv.type->kind == TY_NUMBER && val_num_int(kv, &idx)) {
          steps[k].kind = PS_INDEX;
          steps[k].index = idx;
        } else {
          rd_err(r, "Error unmarshaling path step",
                 "Failed to unmarshal index step key: cairn supports only "
                 "string and whole-number index keys in "
                 "sensitive_attributes");
          return false;
        }
      } else {
        rd_err(r, "Unsupported path step", "Unsupported path step type \"%s\"",
               tn);
        return false;
      }
    }
    paths[np].steps = steps;
    paths[np++].n = p.len;
  }
  o->sensitive = paths;
  o->nsensitive = np;
  return true;
}

/* Decodes the object fields of an instance entry (or of a journal
** record's "object").  inst names the instance for messages. */
static bool read_object(Rd *r, Value iv, StObject *o, const char *inst)
{
  bool ok = true;
  memset(o, 0, sizeof *o);
  o->attrs_flat = val_dynamic_null;
  o->identity = val_dynamic_null;
  if (!get_u64(r, iv, "schema_version", "resources.instances.schema_version",
               &o->schema_version))
    return false;
  bool fa, ff;
  Value attrs = get(iv, "attributes", &fa);
  Value flat = get(iv, "attributes_flat", &ff);
  if (fa && !val_is_null(attrs)) {
    o->attrs = attrs;
  } else if (ff && !val_is_null(flat)) {
    if (!is_obj(flat)) {
      field_err(r, "resources.instances.attributes_flat", flat);
      return false;
    }
    for (uint32_t i = 0; i < flat.type->n; i++) {
      if (!is_str(flat.u.elems[i])) {
        field_err(r, "resources.instances.attributes_flat",
                  flat.u.elems[i]);
        return false;
      }
    }
    o->attrs = val_dynamic_null;
    o->attrs_flat = flat;
  } else if (fa) {
    o->attrs = attrs; /* explicit null, kept */
  } else {
    o->attrs.type = &ty_empty_object;
    o->attrs.flags = 0;
  }
  if (!read_paths(r, get(iv, "sensitive_attributes", NULL), o))
    return false;
  const char *status = get_str(r, iv, "status", "resources.instances.status",
                               &ok);
  if (!ok)
    return false;
  if (strcmp(status, "tainted") == 0) {
    o->status = ST_TAINTED;
  } else if (*status) {
    rd_err(r, "Invalid resource instance metadata in state",
           "Instance %s has invalid status \"%s\".", inst, status);
    return false;
  }
  Value priv = get(iv, "private", NULL);
  if (!val_is_null(priv)) {
    if (!is_str(priv)) {
      field_err(r, "resources.instances.private", priv);
      return false;
    }
    uint8_t *p;
    size_t pn, bad;
    if (!b64_decode(r->a, priv.u.s, priv.len, &p, &pn, &bad)) {
      rd_err(r, "Invalid state file format",
             "The state file does not conform to the expected JSON data "
             "structure: illegal base64 data at input byte %zu.",
             bad);
      return false;
    }
    o->priv = p;
    o->priv_len = pn;
  }
  Value deps = get(iv, "dependencies", NULL);
  if (!val_is_null(deps)) {
    if (!is_arr(deps)) {
      field_err(r, "resources.instances.dependencies", deps);
      return false;
    }
    const char **dv = ARENA_NEW(r->a, const char *, deps.len);
    for (uint32_t i = 0; i < deps.len; i++) {
      if (!is_str(deps.u.elems[i])) {
        field_err(r, "resources.instances.dependencies", deps.u.elems[i]);
        return false;
      }
      dv[i] = deps.u.elems[i].u.s;
    }
    o->deps = dv;
    o->ndeps = deps.len;
  }
  if (!get_bool(r, iv, "create_before_destroy",
                "resources.instances.create_before_destroy",
                &o->create_before_destroy))
    return false;
  if (!get_u64(r, iv, "identity_schema_version",
               "resources.instances.identity_schema_version",
               &o->identity_schema_version))
    return false;
  bool fi;
  Value ident = get(iv, "identity", &fi);
  if (fi && !val_is_null(ident)) {
    o->has_identity = true;
    o->identity = ident;
  }
  return true;
}

/* Legacy provider strings (0.12: provider.aws, module.x.provider.aws.b)
** become the legacy namespace "-", as Terraform does. */
static const char *normalize_provider(Arena *a, const char *p)
{
  if (strstr(p, "provider[") || !*p)
    return p;
  const char *q = strstr(p, "provider.");
  if (!q || (q != p && q[-1] != '.'))
    return p;
  const char *name = q + 9;
  const char *dot = strchr(name, '.');
  Buf b;
  buf_init(&b, a);
  buf_puts(&b, "provider[\"registry.terraform.io/-/");
  buf_put(&b, name, dot ? (size_t)(dot - name) : strlen(name));
  buf_puts(&b, "\"]");
  if (dot)
    buf_puts(&b, dot);
  return buf_str(&b);
}

static bool read_key(Rd *r, Value kv, StKey *k, const char *raddr)
{
  if (val_is_null(kv)) {
    *k = st_nokey();
    return true;
  }
  if (kv.type->kind == TY_STRING) {
    k->kind = ST_STRKEY;
    k->s = kv.u.s;
    k->slen = kv.len;
    k->i = 0;
    return true;
  }
  if (kv.type->kind == TY_NUMBER) {
    /* Go decodes into float64 and truncates toward zero. */
    double dv = val_num_double(kv);
    if (dv >= -9.2e18 && dv <= 9.2e18) {
      *k = st_intkey((int64_t)dv);
      return true;
    }
  }
  Buf b;
  buf_init(&b, r->a);
  json_write_value(&b, kv, NULL, 0, r->d);
  rd_err(r, "Invalid resource instance metadata in state",
         "Resource %s has an instance with the invalid instance key %s.",
         raddr, buf_str(&b));
  return false;
}

static bool read_outputs(Rd *r, State *s, Value outs)
{
  if (val_is_null(outs))
    return true;
  if (!is_obj(outs)) {
    field_err(r, "outputs", outs);
    return false;
  }
  for (uint32_t i = 0; i < outs.type->n; i++) {
    const char *name = outs.type->names[i];
    Value o = outs.u.elems[i];
    if (!is_obj(o)) {
      field_err(r, "outputs", o);
      continue;
    }
    bool sens;
    if (!get_bool(r, o, "sensitive", "outputs.sensitive", &sens))
      continue;
    Diags td;
    diag_init(&td, r->a);
    const Type *ty;
    if (!json_type_from_value(r->a, get(o, "type", NULL), &ty, &td, NULL)) {
      rd_err(r, "Invalid output value type in state",
             "The state file has an invalid type specification for output "
             "\"%s\": %s.",
             name, td.head ? td.head->summary : "invalid type");
      continue;
    }
    Value v;
    if (!json_value_typed(r->a, get(o, "value", NULL), ty, &v, &td, NULL)) {
      rd_err(r, "Invalid output value saved in state",
             "The state file has an invalid value for output \"%s\": %s.",
             name, td.head ? td.head->summary : "invalid value");
      continue;
    }
    st_set_output(s, name, v, ty, sens);
  }
  return !r->failed;
}

static bool read_v4(Rd *r, Value root, State *s)
{
  bool ok = true;
  const char *tfv = get_str(r, root, "terraform_version",
                            "terraform_version", &ok);
  if (!ok)
    return false;
  if (*tfv && !semver_ok(tfv))
    rd_err(r, "Invalid Terraform version string",
           "State file claims to have been written by Terraform version "
           "\"%s\", which is not a valid version string.",
           tfv);
  s->terraform_version = tfv;
  if (!get_u64(r, root, "serial", "serial", &s->serial))
    return false;
  s->lineage = get_str(r, root, "lineage", "lineage", &ok);
  if (!ok)
    return false;
  read_outputs(r, s, get(root, "outputs", NULL));
  Value cr = get(root, "check_results", NULL);
  if (!val_is_null(cr) && !is_arr(cr)) {
    field_err(r, "check_results", cr);
    return false;
  }
  s->check_results = cr;
  Value res = get(root, "resources", NULL);
  if (val_is_null(res))
    return !r->failed;
  if (!is_arr(res)) {
    field_err(r, "resources", res);
    return false;
  }
  Buf ab;
  buf_init(&ab, r->a);
  for (uint32_t i = 0; i < res.len; i++) {
    Value rv = res.u.elems[i];
    if (!is_obj(rv)) {
      field_err(r, "resources", rv);
      return false;
    }
    const char *module = get_str(r, rv, "module", "resources.module", &ok);
    const char *mode = get_str(r, rv, "mode", "resources.mode", &ok);
    const char *type = get_str(r, rv, "type", "resources.type", &ok);
    const char *name = get_str(r, rv, "name", "resources.name", &ok);
    const char *prov = get_str(r, rv, "provider", "resources.provider", &ok);
    get_str(r, rv, "each", "resources.each", &ok);
    if (!ok)
      return false;
    StMode m;
    if (strcmp(mode, "managed") == 0) {
      m = ST_MANAGED;
    } else if (strcmp(mode, "data") == 0) {
      m = ST_DATA;
    } else {
      rd_err(r, "Invalid resource mode in state",
             "State contains a resource with mode \"%s\" (\"%s\" \"%s\") "
             "which is not supported.",
             mode, type, name);
      continue;
    }
    const char *nmod = "";
    if (*module && !st_parse_module(r->a, module, &nmod)) {
      rd_err(r, "Invalid module instance address",
             "The state file has a resource in module \"%s\", which is not "
             "a valid module instance address.",
             module);
      continue;
    }
    StResource *sr = st_ensure_resource(s, nmod, m, type, name,
                                        normalize_provider(r->a, prov));
    Value insts = get(rv, "instances", NULL);
    if (val_is_null(insts))
      continue;
    if (!is_arr(insts)) {
      field_err(r, "resources.instances", insts);
      return false;
    }
    for (uint32_t k = 0; k < insts.len; k++) {
      Value iv = insts.u.elems[k];
      if (!is_obj(iv)) {
        field_err(r, "resources.instances", iv);
        return false;
      }
      StKey key;
      if (!read_key(r, get(iv, "index_key", NULL), &key, sr->addr))
        continue;
      buf_clear(&ab);
      st_format_instance(&ab, sr, key);
      const char *iaddr = arena_strndup(r->a, ab.p, ab.len);
      StObject *o = ARENA_NEW(s->arena, StObject, 1);
      if (!read_object(r, iv, o, iaddr))
        continue;
      const char *dk = get_str(r, iv, "deposed", "resources.instances.deposed",
                               &ok);
      if (!ok)
        return false;
      StInstance *in = st_find_instance(s, sr, key);
      if (*dk) {
        if (strlen(dk) != 8) {
          rd_err(r, "Invalid resource instance metadata in state",
                 "Instance %s has an object with deposed key \"%s\", which "
                 "is not correctly formatted.",
                 iaddr, dk);
          continue;
        }
        if (in && st_get_deposed(in, dk)) {
          rd_err(r, "Duplicate resource instance in state",
                 "Instance %s deposed object \"%s\" appears multiple times "
                 "in the state file.",
                 iaddr, dk);
          continue;
        }
        st_set_deposed(s, sr, key, dk, o);
      } else {
        if (in && in->current) {
          rd_err(r, "Duplicate resource instance in state",
                 "Instance %s appears multiple times in the state file.",
                 iaddr);
          continue;
        }
        st_set_current(s, sr, key, o);
      }
    }
  }
  return !r->failed;
}

bool st_read(Arena *a, const char *name, const char *src, size_t n,
             State **out, Diags *d)
{
  *out = NULL;
  if (n == 0)
    return true;
  Rd r = {a, name, d, false};
  if (n > ST_MAX_FILE_BYTES) {
    rd_err(&r, "State file too large",
           "The state file is %zu bytes; cairn reads state files of up to "
           "%zu bytes.",
           n, ST_MAX_FILE_BYTES);
    return false;
  }
  if (n >= 7 && memcmp(src, "tfstate", 7) == 0) {
    rd_err(&r, "Unsupported state file format",
           "The state is stored in a legacy binary format that is not "
           "supported since Terraform v0.7. To continue, first upgrade the "
           "state using Terraform 0.6.16 or earlier.");
    return false;
  }
  Diags jd;
  diag_init(&jd, a);
  Value root;
  JsonOpts jo = {name, ST_MAX_FILE_BYTES, 0, 0};
  if (!json_parse(a, src, n, &root, &jd, &jo)) {
    const Diag *g = jd.head;
    SrcRange at = g ? g->subject : (SrcRange){0};
    Diag *e = diag_error(d, at.file ? &at : NULL,
                         "Unsupported state file format",
                         "The state file could not be parsed as JSON: "
                         "syntax error at byte offset %u.\n\n%s: %s",
                         at.start.byte, name, g ? g->summary : "");
    (void)e;
    return false;
  }
  if (!is_obj(root)) {
    rd_err(&r, "Unsupported state file format",
           "The version in the state file is %s. A positive whole number is "
           "required.",
           json_kind(a, root));
    return false;
  }
  bool has_version;
  Value ver = get(root, "version", &has_version);
  if (!has_version || val_is_null(ver)) {
    rd_err(&r, "Unsupported state file format",
           "The state file does not have a \"version\" attribute, which is "
           "required to identify the format version.");
    return false;
  }
  int64_t v;
  if (ver.type->kind != TY_NUMBER || !val_num_int(ver, &v) || v < 0) {
    rd_err(&r, "Unsupported state file format",
           "The version in the state file is %s. A positive whole number is "
           "required.",
           json_kind(a, ver));
    return false;
  }
  if (v == 0) {
    rd_err(&r, "Unsupported state file format",
           "The state file uses JSON syntax but has a version number of "
           "zero. There was never a JSON-based state format zero, so this "
           "state file is invalid and cannot be processed.");
    return false;
  }
  if (v < 4) {
    rd_err(&r, "Unsupported state file format",
           "The state file uses format version %lld, which was written by "
           "Terraform v0.11 or earlier. cairn reads format version 4 "
           "(Terraform v0.12 and later) only. To upgrade the file, run any "
           "state-writing command on it (for example \"terraform apply "
           "-refresh-only\") with Terraform v0.12 through v1.x, then try "
           "again.",
           (long long)v);
    return false;
  }
  if (v > 4) {
    Value tv = get(root, "terraform_version", NULL);
    if (is_str(tv) && semver_ok(tv.u.s))
      rd_err(&r, "Unsupported state file format",
             "The state file uses format version %lld, which is not "
             "supported by cairn %s. This state file was created by "
             "Terraform %s.",
             (long long)v, CAIRN_VERSION, tv.u.s);
    else
      rd_err(&r, "Unsupported state file format",
             "The state file uses format version %lld, which is not "
             "supported by cairn %s. This state file may have been created "
             "by a newer version of Terraform.",
             (long long)v, CAIRN_VERSION);
    return false;
  }
  State *s = st_new(a);
  if (!read_v4(&r, root, s))
    return false;
  *out = s;
  return true;
}

/* ---- Writing ------------------------------------------------------------- */

static const Type *output_type(const StOutput *o)
{
  return o->type ? o->type : o->value.type;
}

static void write_paths(JsonW *w, const StObject *o)
{
  json_w_begin_array(w);
  for (uint32_t i = 0; i < o->nsensitive; i++) {
    const ValPath *p = &o->sensitive[i];
    json_w_begin_array(w);
    for (uint32_t k = 0; k < p->n; k++) {
      const PathStep *st = &p->steps[k];
      json_w_begin_object(w);
      json_w_keyz(w, "type");
      if (st->kind == PS_ATTR) {
        json_w_stringz(w, "get_attr");
        json_w_keyz(w, "value");
        json_w_stringz(w, st->name);
      } else {
        json_w_stringz(w, "index");
        json_w_keyz(w, "value");
        json_w_begin_object(w);
        json_w_keyz(w, "value");
        if (st->kind == PS_KEY)
          json_w_stringz(w, st->name);
        else
          json_w_int(w, st->index);
        json_w_keyz(w, "type");
        json_w_stringz(w, st->kind == PS_KEY ? "string" : "number");
        json_w_end_object(w);
      }
      json_w_end_object(w);
    }
    json_w_end_array(w);
  }
  json_w_end_array(w);
}

static void write_generic(JsonW *w, Value v)
{
  Diags d;
  Arena scratch;
  arena_init(&scratch, 4096);
  diag_init(&d, &scratch);
  if (!json_w_value(w, v, NULL, &d))
    json_w_null(w);
  arena_release(&scratch);
}

/* check_results in Terraform's struct field order (checkResultsV4);
** unknown keys are dropped, as Terraform's decoder drops them. */
static void write_check_results(JsonW *w, Value cr)
{
  if (!is_arr(cr) || cr.len == 0) {
    json_w_null(w);
    return;
  }
  static const char *const agg[] = {"object_kind", "config_addr", "status"};
  json_w_begin_array(w);
  for (uint32_t i = 0; i < cr.len; i++) {
    Value e = cr.u.elems[i];
    if (!is_obj(e)) {
      write_generic(w, e);
      continue;
    }
    json_w_begin_object(w);
    for (int k = 0; k < 3; k++) {
      json_w_keyz(w, agg[k]);
      Value f = get(e, agg[k], NULL);
      if (is_str(f))
        json_w_string(w, f.u.s, f.len);
      else
        json_w_stringz(w, "");
    }
    json_w_keyz(w, "objects");
    Value objs = get(e, "objects", NULL);
    if (!is_arr(objs) || objs.len == 0) {
      json_w_null(w);
    } else {
      json_w_begin_array(w);
      for (uint32_t j = 0; j < objs.len; j++) {
        Value o = objs.u.elems[j];
        json_w_begin_object(w);
        Value oa = is_obj(o) ? get(o, "object_addr", NULL) : val_dynamic_null;
        Value os = is_obj(o) ? get(o, "status", NULL) : val_dynamic_null;
        Value fm = is_obj(o) ? get(o, "failure_messages", NULL)
                             : val_dynamic_null;
        json_w_keyz(w, "object_addr");
        if (is_str(oa))
          json_w_string(w, oa.u.s, oa.len);
        else
          json_w_stringz(w, "");
        json_w_keyz(w, "status");
        if (is_str(os))
          json_w_string(w, os.u.s, os.len);
        else
          json_w_stringz(w, "unknown");
        if (is_arr(fm) && fm.len) {
          json_w_keyz(w, "failure_messages");
          write_generic(w, fm);
        }
        json_w_end_object(w);
      }
      json_w_end_array(w);
    }
    json_w_end_object(w);
  }
  json_w_end_array(w);
}

static void write_key(JsonW *w, StKey k)
{
  if (k.kind == ST_INTKEY)
    json_w_int(w, k.i);
  else if (k.kind == ST_STRKEY)
    json_w_string(w, k.s, k.slen);
}

/* The fields of one instance object in Terraform's order; key and dkey
** are written when given (file layout), omitted for journal records. */
static void write_object(JsonW *w, const StObject *o, const StKey *key,
                         const char *dkey, Buf *tmp)
{
  json_w_begin_object(w);
  if (key && key->kind != ST_NOKEY) {
    json_w_keyz(w, "index_key");
    write_key(w, *key);
  }
  if (o->status == ST_TAINTED) {
    json_w_keyz(w, "status");
    json_w_stringz(w, "tainted");
  }
  if (dkey && *dkey) {
    json_w_keyz(w, "deposed");
    json_w_stringz(w, dkey);
  }
  json_w_keyz(w, "schema_version");
  json_w_uint(w, o->schema_version);
  if (!val_is_null(o->attrs) || val_is_null(o->attrs_flat)) {
    json_w_keyz(w, "attributes");
    write_generic(w, o->attrs);
  }
  if (val_is_null(o->attrs) && !val_is_null(o->attrs_flat)) {
    json_w_keyz(w, "attributes_flat");
    write_generic(w, o->attrs_flat);
  }
  json_w_keyz(w, "sensitive_attributes");
  write_paths(w, o);
  json_w_keyz(w, "identity_schema_version");
  json_w_uint(w, o->identity_schema_version);
  if (o->has_identity) {
    json_w_keyz(w, "identity");
    write_generic(w, o->identity);
  }
  if (o->priv_len) {
    json_w_keyz(w, "private");
    buf_clear(tmp);
    b64_encode(tmp, o->priv, o->priv_len);
    json_w_string(w, tmp->p, tmp->len);
  }
  if (o->ndeps) {
    json_w_keyz(w, "dependencies");
    json_w_begin_array(w);
    for (uint32_t i = 0; i < o->ndeps; i++)
      json_w_stringz(w, o->deps[i]);
    json_w_end_array(w);
  }
  if (o->create_before_destroy) {
    json_w_keyz(w, "create_before_destroy");
    json_w_bool(w, true);
  }
  json_w_end_object(w);
}

static void write_body(JsonW *w, State *s)
{
  Arena scratch;
  arena_init(&scratch, 0);
  Buf tmp;
  buf_init(&tmp, &scratch);
  st_sort(s);
  json_w_keyz(w, "outputs");
  json_w_begin_object(w);
  for (uint32_t i = 0; i < s->noutputs; i++) {
    const StOutput *o = &s->outputs[i];
    json_w_keyz(w, o->name);
    json_w_begin_object(w);
    json_w_keyz(w, "value");
    Diags d;
    diag_init(&d, &scratch);
    if (!json_w_value(w, o->value, output_type(o), &d))
      json_w_null(w);
    json_w_keyz(w, "type");
    json_w_type(w, output_type(o));
    if (o->sensitive) {
      json_w_keyz(w, "sensitive");
      json_w_bool(w, true);
    }
    json_w_end_object(w);
  }
  json_w_end_object(w);
  json_w_keyz(w, "resources");
  json_w_begin_array(w);
  for (uint32_t i = 0; i < s->nres; i++) {
    const StResource *r = s->res[i];
    json_w_begin_object(w);
    if (*r->module) {
      json_w_keyz(w, "module");
      json_w_stringz(w, r->module);
    }
    json_w_keyz(w, "mode");
    json_w_stringz(w, mode_str(r->mode));
    json_w_keyz(w, "type");
    json_w_stringz(w, r->type);
    json_w_keyz(w, "name");
    json_w_stringz(w, r->name);
    json_w_keyz(w, "provider");
    json_w_stringz(w, r->provider);
    json_w_keyz(w, "instances");
    json_w_begin_array(w);
    for (uint32_t k = 0; k < r->ninst; k++) {
      const StInstance *in = r->inst[k];
      if (in->current)
        write_object(w, in->current, &in->key, NULL, &tmp);
      for (uint32_t j = 0; j < in->ndeposed; j++)
        write_object(w, in->deposed[j].obj, &in->key, in->deposed[j].key,
                     &tmp);
    }
    json_w_end_array(w);
    json_w_end_object(w);
  }
  json_w_end_array(w);
  json_w_keyz(w, "check_results");
  write_check_results(w, s->check_results);
  arena_release(&scratch);
}

void st_write(Buf *out, State *s, const char *tf_version)
{
  JsonW w;
  json_w_init(&w, out, JSON_W_INDENT);
  json_w_begin_object(&w);
  json_w_keyz(&w, "version");
  json_w_int(&w, 4);
  json_w_keyz(&w, "terraform_version");
  json_w_stringz(&w, tf_version ? tf_version : CAIRN_VERSION);
  json_w_keyz(&w, "serial");
  json_w_uint(&w, s->serial);
  json_w_keyz(&w, "lineage");
  json_w_stringz(&w, s->lineage);
  write_body(&w, s);
  json_w_end_object(&w);
  buf_putc(out, '\n');
}

void st_write_content(Buf *out, State *s)
{
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  write_body(&w, s);
  json_w_end_object(&w);
}

/* ---- Journal records ----------------------------------------------------- */

static void rec_resource(JsonW *w, const char *op, const StResource *r,
                         StKey key, const char *dkey)
{
  json_w_keyz(w, "op");
  json_w_stringz(w, op);
  json_w_keyz(w, "module");
  json_w_stringz(w, r->module);
  json_w_keyz(w, "mode");
  json_w_stringz(w, mode_str(r->mode));
  json_w_keyz(w, "type");
  json_w_stringz(w, r->type);
  json_w_keyz(w, "name");
  json_w_stringz(w, r->name);
  json_w_keyz(w, "provider");
  json_w_stringz(w, r->provider);
  if (key.kind != ST_NOKEY) {
    json_w_keyz(w, "index_key");
    write_key(w, key);
  }
  if (dkey && *dkey) {
    json_w_keyz(w, "deposed");
    json_w_stringz(w, dkey);
  }
}

void st_rec_set(Buf *out, const StResource *r, StKey key, const char *dkey,
                const StObject *obj, const char *intent_id)
{
  Arena scratch;
  arena_init(&scratch, 4096);
  Buf tmp;
  buf_init(&tmp, &scratch);
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  rec_resource(&w, "set", r, key, dkey);
  if (intent_id && *intent_id) {
    json_w_keyz(&w, "intent");
    json_w_stringz(&w, intent_id);
  }
  json_w_keyz(&w, "object");
  write_object(&w, obj, NULL, NULL, &tmp);
  json_w_end_object(&w);
  arena_release(&scratch);
}

void st_rec_remove(Buf *out, const StResource *r, StKey key,
                   const char *dkey)
{
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  rec_resource(&w, "remove", r, key, dkey);
  json_w_end_object(&w);
}

void st_rec_output(Buf *out, const StOutput *o)
{
  JsonW w;
  Arena scratch;
  arena_init(&scratch, 4096);
  Diags d;
  diag_init(&d, &scratch);
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "op");
  json_w_stringz(&w, "output");
  json_w_keyz(&w, "name");
  json_w_stringz(&w, o->name);
  json_w_keyz(&w, "value");
  if (!json_w_value(&w, o->value, output_type(o), &d))
    json_w_null(&w);
  json_w_keyz(&w, "type");
  json_w_type(&w, output_type(o));
  json_w_keyz(&w, "sensitive");
  json_w_bool(&w, o->sensitive);
  json_w_end_object(&w);
  arena_release(&scratch);
}

void st_rec_output_remove(Buf *out, const char *name)
{
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "op");
  json_w_stringz(&w, "output_remove");
  json_w_keyz(&w, "name");
  json_w_stringz(&w, name);
  json_w_end_object(&w);
}

static bool rec_err(Diags *d, const char *what)
{
  diag_error(d, NULL, "Invalid state journal record", "%s", what);
  return false;
}

bool st_rec_apply(Arena *a, State *s, const char *payload, size_t n,
                  StRecInfo *info, Diags *d)
{
  memset(info, 0, sizeof *info);
  Value v;
  Diags jd;
  diag_init(&jd, a);
  JsonOpts jo = {"journal record", 0, 0, 0};
  if (!json_parse(a, payload, n, &v, &jd, &jo) || !is_obj(v))
    return rec_err(d, "The record is not a JSON object.");
  bool found;
  Value j = get(v, "journal", &found);
  if (found) {
    Value lin = get(v, "lineage", NULL);
    Value ser = get(v, "serial", NULL);
    int64_t sv;
    if (!is_str(lin) || val_is_null(ser) || ser.type->kind != TY_NUMBER ||
        !val_num_int(ser, &sv) || sv < 0 || val_is_null(j))
      return rec_err(d, "The journal header is malformed.");
    info->kind = ST_REC_HEADER;
    info->lineage = lin.u.s;
    info->serial = (uint64_t)sv;
    return true;
  }
  Value opv = get(v, "op", NULL);
  const char *op = is_str(opv) ? opv.u.s : "";
  if (strcmp(op, "intent") == 0 || strcmp(op, "resolve") == 0) {
    Value id = get(v, "id", NULL);
    if (!is_str(id))
      return rec_err(d, "An intent record has no id.");
    info->kind = op[0] == 'i' ? ST_REC_INTENT : ST_REC_RESOLVE;
    info->intent_id = id.u.s;
    Value addr = get(v, "addr", NULL), t = get(v, "time", NULL),
          act = get(v, "action", NULL);
    info->addr = is_str(addr) ? addr.u.s : "";
    info->time = is_str(t) ? t.u.s : "";
    info->action = is_str(act) ? act.u.s : "create";
    return true;
  }
  if (strcmp(op, "output") == 0 || strcmp(op, "output_remove") == 0) {
    Value name = get(v, "name", NULL);
    if (!is_str(name))
      return rec_err(d, "An output record has no name.");
    if (op[6] == '_') {
      info->kind = ST_REC_OUTPUT_REMOVE;
      if (s)
        st_remove_output(s, name.u.s);
      return true;
    }
    info->kind = ST_REC_OUTPUT;
    const Type *ty;
    Value val;
    bool sens = false;
    Value sv = get(v, "sensitive", NULL);
    if (!val_is_null(sv) && sv.type->kind == TY_BOOL)
      sens = sv.u.b;
    if (!json_type_from_value(a, get(v, "type", NULL), &ty, &jd, NULL) ||
        !json_value_typed(a, get(v, "value", NULL), ty, &val, &jd, NULL))
      return rec_err(d, "An output record has an invalid value or type.");
    if (s)
      st_set_output(s, name.u.s, val, ty, sens);
    return true;
  }
  if (strcmp(op, "set") != 0 && strcmp(op, "remove") != 0)
    return rec_err(d, "The record has an unknown operation.");
  info->kind = op[0] == 's' ? ST_REC_SET : ST_REC_REMOVE;
  Rd r = {a, "journal", d, false};
  bool ok = true;
  const char *module = get_str(&r, v, "module", "module", &ok);
  const char *mode = get_str(&r, v, "mode", "mode", &ok);
  const char *type = get_str(&r, v, "type", "type", &ok);
  const char *name = get_str(&r, v, "name", "name", &ok);
  const char *prov = get_str(&r, v, "provider", "provider", &ok);
  const char *dk = get_str(&r, v, "deposed", "deposed", &ok);
  Value iid = get(v, "intent", NULL);
  if (is_str(iid))
    info->intent_id = iid.u.s;
  if (!ok || !*type || !*name)
    return rec_err(d, "A resource record is incomplete.");
  StMode m = strcmp(mode, "data") == 0 ? ST_DATA : ST_MANAGED;
  StKey key;
  if (!read_key(&r, get(v, "index_key", NULL), &key, type))
    return false;
  if (!s)
    return true;
  if (info->kind == ST_REC_REMOVE) {
    StResource *sr = st_find_resource(s, module, m, type, name);
    if (!sr)
      return true;
    if (*dk)
      st_set_deposed(s, sr, key, dk, NULL);
    else
      st_set_current(s, sr, key, NULL);
    return true;
  }
  Value ov = get(v, "object", NULL);
  if (!is_obj(ov))
    return rec_err(d, "A set record has no object.");
  StObject *o = ARENA_NEW(s->arena, StObject, 1);
  if (!read_object(&r, ov, o, type))
    return false;
  StResource *sr = st_ensure_resource(s, module, m, type, name, prov);
  if (*dk)
    st_set_deposed(s, sr, key, dk, o);
  else
    st_set_current(s, sr, key, o);
  return true;
}
