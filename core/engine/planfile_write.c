/*
** planfile_write: a plan encoded in the saved-plan format (planfile_encode)
** and written to its file atomically (planfile_write): the interned type
** table, bare and wrapped values, changes, states, base64 for strings
** that are not valid UTF-8, and the sha256 envelope around the body.
*/
#include "planfile_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/b64.h"
#include "base/json.h"
#include "lang/funcs.h"
#include "state/state.h"

/* Valid UTF-8 as Go's decoder sees it (no overlongs, no surrogates, at
** most U+10FFFF): the JSON writer replaces anything else with U+FFFD, so
** such strings travel as base64 instead. */
static bool utf8_valid(const char *str, size_t n)
{
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0;
  while (i < n) {
    unsigned c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
      len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0)
        lo = 0xA0;
      if (c == 0xED)
        hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0)
        lo = 0x90;
      if (c == 0xF4)
        hi = 0x8F;
    } else
      return false;
    if (n - i < len)
      return false;
    if (s[i + 1] < lo || s[i + 1] > hi)
      return false;
    for (size_t j = 2; j < len; j++)
      if (s[i + j] < 0x80 || s[i + j] > 0xBF)
        return false;
    i += len;
  }
  return true;
}

static uint64_t hash_bytes(const void *p, size_t n)
{
  const unsigned char *s = p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ s[i]) * 1099511628211ull;
  return h;
}

/* ---- encoding ----------------------------------------------------------- */

typedef struct PtrSlot {
  const Type *t;
  uint32_t idx;
} PtrSlot;

typedef struct StrSlot {
  const char *s;       /* the type's JSON text; NULL = empty slot */
  size_t len;
  uint64_t h;
  uint32_t idx;
} StrSlot;

typedef struct Enc {
  Arena *a;
  JsonW w;
  Diags *d;
  bool failed;
  const Type **types;  /* the "types" table, in index order */
  uint32_t ntypes, cap_types;
  PtrSlot *ptab;       /* Type pointer -> index (fast path) */
  uint32_t pcap, pn;
  StrSlot *stab;       /* type JSON -> index (structural equality) */
  uint32_t scap, sn;
  Buf tmp;
} Enc;

static uint64_t ptr_hash(const void *p)
{
  uint64_t h = (uint64_t)(uintptr_t)p;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

static void ptab_put(Enc *e, const Type *t, uint32_t idx)
{
  if (2 * (e->pn + 1) > e->pcap) {
    uint32_t ncap = e->pcap ? 2 * e->pcap : 64;
    PtrSlot *nt = ARENA_NEW(e->a, PtrSlot, ncap);
    for (uint32_t i = 0; i < e->pcap; i++) {
      if (!e->ptab[i].t)
        continue;
      uint32_t j = (uint32_t)ptr_hash(e->ptab[i].t) & (ncap - 1);
      while (nt[j].t)
        j = (j + 1) & (ncap - 1);
      nt[j] = e->ptab[i];
    }
    e->ptab = nt;
    e->pcap = ncap;
  }
  uint32_t j = (uint32_t)ptr_hash(t) & (e->pcap - 1);
  while (e->ptab[j].t)
    j = (j + 1) & (e->pcap - 1);
  e->ptab[j].t = t;
  e->ptab[j].idx = idx;
  e->pn++;
}

static bool ptab_get(const Enc *e, const Type *t, uint32_t *idx)
{
  if (!e->pcap)
    return false;
  uint32_t j = (uint32_t)ptr_hash(t) & (e->pcap - 1);
  while (e->ptab[j].t) {
    if (e->ptab[j].t == t) {
      *idx = e->ptab[j].idx;
      return true;
    }
    j = (j + 1) & (e->pcap - 1);
  }
  return false;
}

static uint32_t intern_type(Enc *e, const Type *t)
{
  uint32_t idx;
  if (ptab_get(e, t, &idx))
    return idx;
  buf_clear(&e->tmp);
  json_write_type(&e->tmp, t);
  uint64_t h = hash_bytes(e->tmp.p, e->tmp.len);
  if (2 * (e->sn + 1) > e->scap) {
    uint32_t ncap = e->scap ? 2 * e->scap : 64;
    StrSlot *nt = ARENA_NEW(e->a, StrSlot, ncap);
    for (uint32_t i = 0; i < e->scap; i++) {
      if (!e->stab[i].s)
        continue;
      uint32_t j = (uint32_t)e->stab[i].h & (ncap - 1);
      while (nt[j].s)
        j = (j + 1) & (ncap - 1);
      nt[j] = e->stab[i];
    }
    e->stab = nt;
    e->scap = ncap;
  }
  uint32_t j = (uint32_t)h & (e->scap - 1);
  while (e->stab[j].s) {
    StrSlot *s = &e->stab[j];
    if (s->h == h && s->len == e->tmp.len &&
        memcmp(s->s, e->tmp.p, s->len) == 0) {
      ptab_put(e, t, s->idx);
      return s->idx;
    }
    j = (j + 1) & (e->scap - 1);
  }
  if (e->ntypes == e->cap_types) {
    uint32_t ncap = e->cap_types ? 2 * e->cap_types : 16;
    e->types = arena_grow(e->a, e->types, sizeof *e->types,
                          _Alignof(const Type *), e->cap_types, ncap);
    e->cap_types = ncap;
  }
  idx = e->ntypes++;
  e->types[idx] = t;
  e->stab[j].s = arena_strndup(e->a, e->tmp.p, e->tmp.len);
  e->stab[j].len = e->tmp.len;
  e->stab[j].h = h;
  e->stab[j].idx = idx;
  e->sn++;
  ptab_put(e, t, idx);
  return idx;
}

static void enc_val(Enc *e, Value v, const Type *expect);

/* A string that JSON can carry exactly, or {"b": base64}. */
static void enc_bytes(Enc *e, const char *s, size_t n)
{
  if (utf8_valid(s, n)) {
    json_w_string(&e->w, s, n);
    return;
  }
  buf_clear(&e->tmp);
  b64_put(&e->tmp, s, n, false, true);
  json_w_begin_object(&e->w);
  json_w_keyz(&e->w, "b");
  json_w_string(&e->w, e->tmp.p, e->tmp.len);
  json_w_end_object(&e->w);
}

static void enc_bare(Enc *e, Value v)
{
  const Type *t = v.type;
  switch (t->kind) {
  case TY_STRING:
    json_w_string(&e->w, v.u.s, v.len);
    return;
  case TY_NUMBER:
    json_w_int(&e->w, v.u.i);
    return;
  case TY_BOOL:
    json_w_bool(&e->w, v.u.b);
    return;
  case TY_LIST:
  case TY_SET:
    json_w_begin_array(&e->w);
    for (uint32_t i = 0; i < v.len; i++)
      enc_val(e, v.u.elems[i], t->elem);
    json_w_end_array(&e->w);
    return;
  case TY_TUPLE:
  case TY_OBJECT:
    json_w_begin_array(&e->w);
    for (uint32_t i = 0; i < v.len; i++)
      enc_val(e, v.u.elems[i], i < t->n ? t->types[i] : NULL);
    json_w_end_array(&e->w);
    return;
  case TY_MAP:
    json_w_begin_array(&e->w);
    for (uint32_t i = 0; i < v.len; i++) {
      enc_bytes(e, v.u.entries[i].key, v.u.entries[i].keylen);
      enc_val(e, v.u.entries[i].val, t->elem);
    }
    json_w_end_array(&e->w);
    return;
  case TY_DYNAMIC:
    break;
  }
  if (!e->failed)
    diag_error(e->d, NULL, "Failed to encode plan",
               "A known value has the dynamic pseudo-type, which cty does "
               "not allow; this is a bug in cairn.");
  e->failed = true;
  json_w_null(&e->w);
}

/* expect: the type the position implies, NULL at the top of a value. */
static void enc_val(Enc *e, Value v, const Type *expect)
{
  const Type *t = v.type;
  if (!t) {
    /* A zeroed Value inside a collection: nothing a reader could rebuild. */
    if (!e->failed)
      diag_error(e->d, NULL, "Failed to encode plan",
                 "A nested value has no type; this is a bug in cairn.");
    e->failed = true;
    json_w_null(&e->w);
    return;
  }
  bool need_t = !expect || (t != expect && !ty_equal(t, expect));
  char m[8];
  size_t nm = 0;
  uint16_t f = v.flags;
  if (f & VF_UNKNOWN)
    m[nm++] = 'u';
  if (f & VF_NULL)
    m[nm++] = 'n';
  if (f & VF_NOTNULL)
    m[nm++] = 'N';
  if (f & VF_SENSITIVE)
    m[nm++] = 's';
  bool known = !(f & (VF_UNKNOWN | VF_NULL));
  char rep = 0;
  if (known && t->kind == TY_NUMBER) {
    if (f & VF_NUMLIT)
      rep = 'l';
    else if (f & VF_FLOAT)
      rep = 'f';
  } else if (known && t->kind == TY_STRING && !utf8_valid(v.u.s, v.len)) {
    rep = 'b';
  }
  if (rep)
    m[nm++] = rep;
  if (!nm && !need_t) {
    enc_bare(e, v);
    return;
  }
  json_w_begin_object(&e->w);
  if (need_t) {
    json_w_keyz(&e->w, "t");
    json_w_uint(&e->w, intern_type(e, t));
  }
  if (nm) {
    json_w_keyz(&e->w, "m");
    json_w_string(&e->w, m, nm);
  }
  if (known) {
    json_w_keyz(&e->w, "v");
    if (rep == 'l') {
      json_w_string(&e->w, v.u.s, v.len);
    } else if (rep == 'f') {
      /* 17 significant digits: strtod gives back the same double. */
      char num[40];
      int k = snprintf(num, sizeof num, "%.17g", v.u.d);
      json_w_string(&e->w, num, (size_t)k);
    } else if (rep == 'b') {
      buf_clear(&e->tmp);
      b64_put(&e->tmp, v.u.s, v.len, false, true);
      json_w_string(&e->w, e->tmp.p, e->tmp.len);
    } else {
      enc_bare(e, v);
    }
  }
  json_w_end_object(&e->w);
}

/* A Value field; a Value with no type at all (never set) is null. */
static void enc_top(Enc *e, const char *key, Value v)
{
  json_w_keyz(&e->w, key);
  if (!v.type)
    json_w_null(&e->w);
  else
    enc_val(e, v, NULL);
}

static void enc_str(Enc *e, const char *key, const char *s)
{
  json_w_keyz(&e->w, key);
  if (s)
    json_w_stringz(&e->w, s);
  else
    json_w_null(&e->w);
}

static void enc_bool(Enc *e, const char *key, bool b)
{
  json_w_keyz(&e->w, key);
  json_w_bool(&e->w, b);
}

static void enc_path(Enc *e, ValPath p)
{
  json_w_begin_array(&e->w);
  for (uint32_t i = 0; i < p.n; i++) {
    const PathStep *s = &p.steps[i];
    if (s->kind == PS_ATTR) {
      json_w_stringz(&e->w, s->name ? s->name : "");
    } else if (s->kind == PS_INDEX) {
      json_w_int(&e->w, s->index);
    } else {
      json_w_begin_array(&e->w);
      json_w_stringz(&e->w, s->name ? s->name : "");
      json_w_end_array(&e->w);
    }
  }
  json_w_end_array(&e->w);
}

static void enc_strs(Enc *e, const char *key, const char *const *s,
                     uint32_t n)
{
  json_w_keyz(&e->w, key);
  json_w_begin_array(&e->w);
  for (uint32_t i = 0; i < n; i++)
    json_w_stringz(&e->w, s[i] ? s[i] : "");
  json_w_end_array(&e->w);
}

static void enc_change(Enc *e, const PlChange *c)
{
  json_w_begin_object(&e->w);
  enc_str(e, "addr", c->addr);
  enc_str(e, "module", c->module);
  enc_str(e, "mode", c->mode == ST_DATA ? "data" : "managed");
  enc_str(e, "type", c->type);
  enc_str(e, "name", c->name);
  json_w_keyz(&e->w, "key");
  if (c->key.kind == ST_INTKEY)
    json_w_int(&e->w, c->key.i);
  else if (c->key.kind == ST_STRKEY)
    enc_bytes(e, c->key.s ? c->key.s : "", c->key.s ? c->key.slen : 0);
  else
    json_w_null(&e->w);
  enc_str(e, "deposed", c->deposed);
  enc_str(e, "prev_addr", c->prev_addr);
  enc_str(e, "provider", c->provider);
  enc_str(e, "provider_name", c->provider_name);
  enc_str(e, "action", (unsigned)c->action < NACTIONS
                           ? planfile_action_names[c->action] : "NoOp");
  if (c->reason != PL_REASON_NONE)
    enc_str(e, "reason", plan_reason_name(c->reason));
  enc_top(e, "before", c->before);
  enc_top(e, "after", c->after);
  json_w_keyz(&e->w, "replace_paths");
  json_w_begin_array(&e->w);
  for (uint32_t i = 0; i < c->nreplace_paths; i++)
    enc_path(e, c->replace_paths[i]);
  json_w_end_array(&e->w);
  json_w_keyz(&e->w, "private");
  if (c->priv.p) {
    buf_clear(&e->tmp);
    b64_put(&e->tmp, c->priv.p, c->priv.n, false, true);
    json_w_string(&e->w, e->tmp.p, e->tmp.len);
  } else {
    json_w_null(&e->w);
  }
  json_w_keyz(&e->w, "schema_version");
  json_w_uint(&e->w, c->schema_version);
  enc_bool(e, "importing", c->importing);
  enc_str(e, "import_id", c->import_id);
  enc_bool(e, "tainted_before", c->tainted_before);
  enc_bool(e, "cbd", c->cbd);
  json_w_end_object(&e->w);
}

static void enc_state(Enc *e, const char *key, State *s)
{
  json_w_keyz(&e->w, key);
  if (!s) {
    json_w_null(&e->w);
    return;
  }
  buf_clear(&e->tmp);
  st_write(&e->tmp, s, NULL);
  json_w_string(&e->w, e->tmp.p, e->tmp.len);
}

bool planfile_encode(Buf *out, const Plan *p, Diags *d)
{
  Enc e;
  memset(&e, 0, sizeof e);
  e.a = out->arena;
  e.d = d;
  buf_init(&e.tmp, e.a);
  Buf body;
  buf_init(&body, e.a);
  json_w_init(&e.w, &body, 0);
  JsonW *w = &e.w;

  json_w_begin_object(w);
  enc_str(&e, "cairn_version", CAIRN_VERSION);
  enc_str(&e, "mode", (unsigned)p->mode < 3 ? planfile_mode_names[p->mode]
                                            : "normal");
  enc_str(&e, "lineage", p->lineage);
  json_w_keyz(w, "serial");
  json_w_uint(w, p->serial);
  enc_bool(&e, "state_existed", p->state_existed);
  enc_str(&e, "config_hash", p->config_hash);
  enc_str(&e, "timestamp", p->timestamp);
  enc_bool(&e, "errored", p->errored);
  enc_bool(&e, "complete", p->complete);
  enc_bool(&e, "applyable", p->applyable);
  enc_strs(&e, "targets", p->targets, p->ntargets);
  enc_strs(&e, "replace", p->replace, p->nreplace);

  json_w_keyz(w, "variables");
  json_w_begin_array(w);
  for (uint32_t i = 0; i < p->nvars; i++) {
    json_w_begin_object(w);
    enc_str(&e, "name", p->vars[i].name);
    enc_bool(&e, "sensitive", p->vars[i].sensitive);
    if (p->vars[i].ephemeral) {
      /* Terraform's apply-time variables: the name and whether apply must
      ** be given it again, never the value. */
      enc_bool(&e, "ephemeral", true);
      enc_bool(&e, "apply_time", p->vars[i].apply_time);
      json_w_keyz(w, "value");
      json_w_null(w);
    } else {
      enc_top(&e, "value", p->vars[i].value);
    }
    json_w_end_object(w);
  }
  json_w_end_array(w);

  json_w_keyz(w, "changes");
  json_w_begin_array(w);
  for (uint32_t i = 0; i < p->nchanges; i++)
    enc_change(&e, &p->changes[i]);
  json_w_end_array(w);

  json_w_keyz(w, "drift");
  json_w_begin_array(w);
  for (uint32_t i = 0; i < p->ndrift; i++)
    enc_change(&e, &p->drift[i]);
  json_w_end_array(w);

  json_w_keyz(w, "outputs");
  json_w_begin_array(w);
  for (uint32_t i = 0; i < p->noutputs; i++) {
    const PlOutput *o = &p->outputs[i];
    json_w_begin_object(w);
    enc_str(&e, "name", o->name);
    enc_str(&e, "action", (unsigned)o->action < NACTIONS
                              ? planfile_action_names[o->action] : "NoOp");
    enc_bool(&e, "sensitive", o->sensitive);
    enc_top(&e, "before", o->before);
    enc_top(&e, "after", o->after);
    json_w_end_object(w);
  }
  json_w_end_array(w);

  enc_state(&e, "prior_state", p->prior_state);
  enc_state(&e, "prev_run_state", p->prev_run_state);

  /* Last, so that it holds every type the values above referenced. */
  json_w_keyz(w, "types");
  json_w_begin_array(w);
  for (uint32_t i = 0; i < e.ntypes; i++)
    json_w_type(w, e.types[i]);
  json_w_end_array(w);
  json_w_end_object(w);

  uint8_t dig[32];
  char hex[65];
  fn_dig_sha256(body.p, body.len, dig);
  planfile_hex_put(hex, dig, 32);
  buf_reserve(out, body.len + 128);
  buf_printf(out, PREFIX "%d" SHA_KEY "%s" BODY_KEY, PLANFILE_VERSION, hex);
  buf_put(out, body.p, body.len);
  buf_puts(out, "}\n");
  return !e.failed;
}

/* ---- writing the file --------------------------------------------------- */

static bool write_all(int fd, const char *p, size_t n)
{
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    p += k;
    n -= (size_t)k;
  }
  return true;
}

static void write_failed(Diags *d, const char *op, const char *path,
                         int err)
{
  diag_error(d, NULL, "Failed to write plan file",
             "The plan file could not be written: %s %s: %s.", op, path,
             strerror(err));
}

/* Temp file in the same directory (so rename is atomic), fsync, rename,
** fsync the directory: after a crash the path holds the old file or the
** complete new one. */
static bool write_atomic(Arena *a, const char *path, const char *data,
                         size_t n, Diags *d)
{
  const char *slash = strrchr(path, '/');
  const char *dir = !slash ? "." : slash == path
                                        ? "/"
                                        : arena_strndup(a, path,
                                                        (size_t)(slash - path));
  const char *tmp = NULL;
  int fd = -1;
  for (int i = 0; i < 100 && fd < 0; i++) {
    tmp = arena_printf(a, "%s.%ld.%d.tmp", path, (long)getpid(), i);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && errno != EEXIST) {
      write_failed(d, "open", tmp, errno);
      return false;
    }
  }
  if (fd < 0) {
    write_failed(d, "open", tmp, EEXIST);
    return false;
  }
  if (!write_all(fd, data, n) || fsync(fd) != 0) {
    int err = errno;
    close(fd);
    unlink(tmp);
    write_failed(d, "write", tmp, err);
    return false;
  }
  if (close(fd) != 0) {
    int err = errno;
    unlink(tmp);
    write_failed(d, "close", tmp, err);
    return false;
  }
  if (rename(tmp, path) != 0) {
    int err = errno;
    unlink(tmp);
    write_failed(d, "rename", path, err);
    return false;
  }
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    /* Some filesystems refuse fsync on directories; the data is safe. */
    (void)fsync(dfd);
    close(dfd);
  }
  return true;
}

bool planfile_write(Arena *scratch, const char *path, const Plan *p,
                    Diags *d)
{
  if (p->ninvokes) {
    /* the plan file format has no action invocations yet */
    diag_error(d, NULL, "Cannot save a plan that invokes actions",
               "This plan invokes %u action(s); cairn cannot write action "
               "invocations to a saved plan yet (docs/actions.md). Apply "
               "without a saved plan (cairn apply) instead.", p->ninvokes);
    return false;
  }
  Buf b;
  buf_init(&b, scratch);
  if (!planfile_encode(&b, p, d))
    return false;
  return write_atomic(scratch, path, b.p, b.len, d);
}
