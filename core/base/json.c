/*
** json.c: the JSON reader, json_parse (see json.h for the contracts and
** the Go/cty behaviour reproduced).  Typed decoding and the type syntax
** are in json_typed.c, the writer in json_write.c.
**
** Reader method: one iterative pass over the bytes.  Open containers are
** frames on an explicit stack; the children of every open container sit
** on one shared entry stack (key + value) in a private scratch arena, and
** when the container closes they are copied once into an exactly sized
** array in the caller's arena.  Object keys are interned per parse (one
** copy of "id" for the whole document), so names compare by pointer;
** object and tuple Types are interned on (names, element type pointers),
** which makes identical shapes share one Type and lets parent shapes hash
** their children's types by address.  Strings without escapes are copied
** with one memcpy after a word-at-a-time scan; escapes and invalid UTF-8
** take a slower decoding path.
*/
#include "json_priv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/types.h>

/* ======================================================================
** Reader
** ====================================================================== */

typedef struct Entry {
  const char *key;    /* interned name; NULL inside arrays */
  Value v;
} Entry;

typedef struct Frame {
  uint32_t base;      /* first child on the entry stack */
  uint32_t open;      /* byte offset of the bracket, for diagnostics */
  bool obj;
} Frame;

typedef struct KeySlot {
  const char *s;      /* interned, NUL-terminated; NULL: empty slot */
  uint32_t len;
  uint32_t hash;
} KeySlot;

/* A key predicted at one (depth, position) of an object: the interned
** copy of a key that was read there without escapes. */
typedef struct KeyHint {
  const char *s;      /* NULL: none yet */
  uint32_t len;
} KeyHint;

/* Prediction tables cover this many container depths and object
** positions; deeper or later keys take the hashed path only. */
#define HINT_DEPTHS 8
#define HINT_POS 16
/* Documents shorter than this do not set up key hints (a record or a
** plugin answer: too few repeated objects to pay for the table). */
#define HINT_MIN_DOC 4096

typedef struct TypeSlot {
  const Type *t;      /* NULL: empty slot */
  uint64_t hash;
} TypeSlot;

typedef struct Parser {
  Arena *a;           /* results */
  Arena scratch;      /* stacks, tables, decode buffer */
  const char *beg;
  const char *end;
  Diags *d;
  const char *file;
  unsigned flags;
  uint32_t max_depth;
  Entry *stk;
  uint32_t nstk, capstk;
  Frame *frames;
  uint32_t nframes, capframes;
  KeySlot *keys;
  uint32_t nkeys, capkeys;     /* capkeys: power of two */
  TypeSlot *types;
  uint32_t ntypes, captypes;   /* captypes: power of two */
  char *tmp;                   /* decode buffer for escaped strings */
  size_t captmp;
  uint64_t seed;               /* key hash seed */
  Entry *sortbuf;              /* merge sort buffer for unsorted objects */
  uint32_t capsort;
  KeyHint *hints;              /* [HINT_DEPTHS][HINT_POS] or NULL */
  const Type *last_type[HINT_DEPTHS];  /* last container type per depth */
} Parser;

/* Byte classes for string scanning: 0 = plain, 1 = '"', 2 = '\\',
** 3 = control, 4 = non-ASCII. */
static const uint8_t str_class[256] = {
  3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
  3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
  0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
};

/* Nonzero when any byte of x is zero. */
static inline uint64_t has_zero(uint64_t x)
{
  return (x - JSON_ONES) & ~x & JSON_HIGHS;
}

/* Index of the first byte (in memory order) whose high bit is set in a
** nonzero mask of the above. */
static inline size_t first_flagged(uint64_t m)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return (size_t)__builtin_clzll(m) >> 3;
#else
  return (size_t)__builtin_ctzll(m) >> 3;
#endif
}

/* Nonzero when any byte of the 8 at p needs a closer look in a string:
** '"', '\\', a control character or a non-ASCII byte. */
static inline uint64_t str_special8(const char *p)
{
  uint64_t x;
  memcpy(&x, p, 8);
  return has_zero(x ^ (JSON_ONES * '"')) | has_zero(x ^ (JSON_ONES * '\\')) |
         ((x - JSON_ONES * 0x20) & ~x & JSON_HIGHS) | (x & JSON_HIGHS);
}

/* ---- Diagnostics --------------------------------------------------------- */

SrcPos json_pos_at(const char *beg, size_t off)
{
  SrcPos pos = {1, 1, (uint32_t)off};
  for (size_t i = 0; i < off; i++) {
    unsigned char c = (unsigned char)beg[i];
    if (c == '\n') {
      pos.line++;
      pos.col = 1;
    } else if ((c & 0xC0) != 0x80) {
      pos.col++;
    }
  }
  return pos;
}

static void describe_byte(char *out, size_t n, const char *at, const char *end)
{
  if (at >= end) {
    snprintf(out, n, "end of input");
    return;
  }
  unsigned char c = (unsigned char)*at;
  if (c >= 0x20 && c < 0x7f && c != '\'')
    snprintf(out, n, "character '%c'", c);
  else if (c == '\'')
    snprintf(out, n, "character \"'\"");
  else
    snprintf(out, n, "byte 0x%02x", c);
}

/* Reports an error at byte `at`.  summary and detail are copied by
** diag_error. */
static bool perr(Parser *ps, const char *at, const char *summary,
                 const char *what)
{
  size_t off = (size_t)(at - ps->beg);
  SrcRange r;
  r.file = ps->file;
  r.start = json_pos_at(ps->beg, off);
  r.end = r.start;
  if (at < ps->end) {
    r.end.byte++;
    r.end.col++;
  }
  diag_error(ps->d, &r, summary, "At line %u, column %u (byte %u): %s",
             (unsigned)r.start.line, (unsigned)r.start.col,
             (unsigned)r.start.byte, what);
  return false;
}

/* "Invalid JSON: unexpected X" where X describes the byte at `at`. */
static bool perr_unexpected(Parser *ps, const char *at, const char *expected)
{
  char what[48], summary[96], detail[160];
  describe_byte(what, sizeof what, at, ps->end);
  snprintf(summary, sizeof summary, "Invalid JSON: unexpected %s", what);
  snprintf(detail, sizeof detail, "expected %s.", expected);
  return perr(ps, at, summary, detail);
}

/* ---- Scratch storage ----------------------------------------------------- */

static void push_entry(Parser *ps, const char *key, Value v)
{
  if (ps->nstk == ps->capstk) {
    uint32_t nc = ps->capstk ? ps->capstk * 2 : 256;
    Entry *n = arena_alloc_raw(&ps->scratch, sizeof(Entry), _Alignof(Entry),
                               nc);
    if (ps->nstk)
      memcpy(n, ps->stk, ps->nstk * sizeof(Entry));
    ps->stk = n;
    ps->capstk = nc;
  }
  ps->stk[ps->nstk].key = key;
  ps->stk[ps->nstk].v = v;
  ps->nstk++;
}

static void push_frame(Parser *ps, bool obj, uint32_t open)
{
  if (ps->nframes == ps->capframes) {
    uint32_t nc = ps->capframes ? ps->capframes * 2 : 32;
    Frame *n = arena_alloc_raw(&ps->scratch, sizeof(Frame), _Alignof(Frame),
                               nc);
    if (ps->nframes)
      memcpy(n, ps->frames, ps->nframes * sizeof(Frame));
    ps->frames = n;
    ps->capframes = nc;
  }
  Frame *f = &ps->frames[ps->nframes++];
  f->base = ps->nstk;
  f->open = open;
  f->obj = obj;
}

static char *tmp_reserve(Parser *ps, size_t n)
{
  if (n > ps->captmp) {
    size_t c = ps->captmp ? ps->captmp : 256;
    while (c < n)
      c *= 2;
    ps->tmp = arena_alloc_raw(&ps->scratch, 1, 1, c);
    ps->captmp = c;
  }
  return ps->tmp;
}

/* ---- Interning ----------------------------------------------------------- */

/* Key hash: word at a time, keyed by a per-parse random seed so that a
** hostile document cannot be built to collide and make interning
** quadratic. */
static inline uint32_t hash_bytes(uint64_t seed, const char *s, size_t n)
{
  uint64_t h = seed ^ ((uint64_t)n * 0x9E3779B97F4A7C15ULL);
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
    s += 8;
    n -= 8;
  }
  uint64_t w = 0;
  if (n)
    memcpy(&w, s, n);
  h = (h ^ w) * 0x94D049BB133111EBULL;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  return (uint32_t)(h >> 32);
}

static inline uint64_t mix(uint64_t h, uint64_t x)
{
  h ^= x + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
  return h * 0xFF51AFD7ED558CCDULL;
}

static void keys_grow(Parser *ps)
{
  uint32_t nc = ps->capkeys ? ps->capkeys * 2 : 256;
  KeySlot *n = ARENA_NEW(&ps->scratch, KeySlot, nc);
  for (uint32_t i = 0; i < ps->capkeys; i++) {
    KeySlot *k = &ps->keys[i];
    if (!k->s)
      continue;
    uint32_t j = k->hash & (nc - 1);
    while (n[j].s)
      j = (j + 1) & (nc - 1);
    n[j] = *k;
  }
  ps->keys = n;
  ps->capkeys = nc;
}

/* memcmp(a, b, n) == 0 a word at a time: keys are short, and a call to
** the C library's byte loop cost more than the hash (one per key). */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
  while (n >= 8) {
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    if (x != y)
      return false;
    a += 8;
    b += 8;
    n -= 8;
  }
  while (n) {
    if (*a++ != *b++)
      return false;
    n--;
  }
  return true;
}

/* The interned copy (in the result arena) of key s[0..n). */
static const char *intern_key(Parser *ps, const char *s, size_t n)
{
  if ((ps->nkeys + 1) * 2 > ps->capkeys)
    keys_grow(ps);
  uint32_t h = hash_bytes(ps->seed, s, n);
  uint32_t j = h & (ps->capkeys - 1);
  for (;;) {
    KeySlot *k = &ps->keys[j];
    if (!k->s) {
      k->s = arena_strndup(ps->a, s, n);
      k->len = (uint32_t)n;
      k->hash = h;
      ps->nkeys++;
      return k->s;
    }
    if (k->hash == h && k->len == n && same_bytes(k->s, s, n))
      return k->s;
    j = (j + 1) & (ps->capkeys - 1);
  }
}

static void types_grow(Parser *ps)
{
  uint32_t nc = ps->captypes ? ps->captypes * 2 : 256;
  TypeSlot *n = ARENA_NEW(&ps->scratch, TypeSlot, nc);
  for (uint32_t i = 0; i < ps->captypes; i++) {
    TypeSlot *t = &ps->types[i];
    if (!t->t)
      continue;
    uint32_t j = (uint32_t)t->hash & (nc - 1);
    while (n[j].t)
      j = (j + 1) & (nc - 1);
    n[j] = *t;
  }
  ps->types = n;
  ps->captypes = nc;
}

/* The interned object (obj) or tuple type of the entries e[0..n), whose
** keys (objects) are sorted and unique. */
static const Type *intern_type(Parser *ps, bool obj, const Entry *e,
                               uint32_t n)
{
  uint64_t h = mix(obj ? 0x0B1EC7 : 0x7E9E, n);
  for (uint32_t i = 0; i < n; i++) {
    if (obj)
      h = mix(h, (uint64_t)(uintptr_t)e[i].key);
    h = mix(h, (uint64_t)(uintptr_t)e[i].v.type);
  }
  if ((ps->ntypes + 1) * 2 > ps->captypes)
    types_grow(ps);
  TypeKind kind = obj ? TY_OBJECT : TY_TUPLE;
  uint32_t j = (uint32_t)h & (ps->captypes - 1);
  for (;;) {
    TypeSlot *s = &ps->types[j];
    if (!s->t)
      break;
    const Type *t = s->t;
    if (s->hash == h && t->kind == kind && t->n == n) {
      uint32_t i = 0;
      for (; i < n; i++)
        if (t->types[i] != e[i].v.type || (obj && t->names[i] != e[i].key))
          break;
      if (i == n)
        return t;
    }
    j = (j + 1) & (ps->captypes - 1);
  }
  Type *t = ARENA_NEW(ps->a, Type, 1);
  t->kind = kind;
  t->n = n;
  const Type **tt = arena_alloc_raw(ps->a, sizeof(Type *), _Alignof(Type *),
                                    n);
  for (uint32_t i = 0; i < n; i++)
    tt[i] = e[i].v.type;
  t->types = tt;
  if (obj) {
    const char **nn = arena_alloc_raw(ps->a, sizeof(char *),
                                      _Alignof(char *), n);
    for (uint32_t i = 0; i < n; i++)
      nn[i] = e[i].key;
    t->names = nn;
  }
  ps->types[j].t = t;
  ps->types[j].hash = h;
  ps->ntypes++;
  return t;
}

/* ---- Containers ---------------------------------------------------------- */

/* Stable merge sort of entries by key bytes (keys are NUL-free C strings,
** so strcmp is byte order). */
static void sort_entries(Entry *e, Entry *tmp, uint32_t n)
{
  if (n < 16) {
    for (uint32_t i = 1; i < n; i++) {
      Entry x = e[i];
      uint32_t j = i;
      while (j > 0 && strcmp(e[j - 1].key, x.key) > 0) {
        e[j] = e[j - 1];
        j--;
      }
      e[j] = x;
    }
    return;
  }
  uint32_t h = n / 2;
  sort_entries(e, tmp, h);
  sort_entries(e + h, tmp, n - h);
  if (strcmp(e[h - 1].key, e[h].key) <= 0)
    return;
  memcpy(tmp, e, h * sizeof(Entry));
  uint32_t i = 0, j = h, k = 0;
  while (i < h && j < n) {
    if (strcmp(e[j].key, tmp[i].key) < 0)
      e[k++] = e[j++];
    else
      e[k++] = tmp[i++];
  }
  while (i < h)
    e[k++] = tmp[i++];
}

/* True when the entries e[0..n) have exactly t's shape: kind, count,
** keys (interned: compared by pointer) in t's order, element types. */
static bool same_shape(const Type *t, bool obj, const Entry *e, uint32_t n)
{
  if (t->kind != (obj ? TY_OBJECT : TY_TUPLE) || t->n != n)
    return false;
  for (uint32_t i = 0; i < n; i++)
    if (t->types[i] != e[i].v.type || (obj && t->names[i] != e[i].key))
      return false;
  return true;
}

/* Builds the object or tuple value from the entries above the top frame. */
static Value close_container(Parser *ps, bool obj)
{
  uint32_t base = ps->frames[ps->nframes - 1].base;
  /* The entry stack is NULL until the first element anywhere: NULL + 0
  ** is undefined in C. */
  Entry *e = ps->stk ? ps->stk + base : NULL;
  uint32_t n = ps->nstk - base;
  uint32_t depth = ps->nframes - 1;
  const Type *last = depth < HINT_DEPTHS ? ps->last_type[depth] : NULL;
  const Type *t = NULL;
  if (last && same_shape(last, obj, e, n)) {
    /* The shape of the last container closed at this depth (the
    ** thousands of instances of a state file): the keys are then sorted
    ** and unique, and this is the type intern_type would return. */
    t = last;
  } else if (obj) {
    bool sorted = true;
    for (uint32_t i = 1; i < n; i++)
      if (strcmp(e[i - 1].key, e[i].key) >= 0) {
        sorted = false;
        break;
      }
    if (!sorted) {
      /* A persistent buffer: a mark and rewind here would make the
      ** scratch arena take and free a chunk per object once its current
      ** chunk is full. */
      if (n / 2 + 1 > ps->capsort) {
        ps->capsort = n / 2 + 1 > 64 ? n / 2 + 1 : 64;
        ps->sortbuf = arena_alloc_raw(&ps->scratch, sizeof(Entry),
                                      _Alignof(Entry), ps->capsort);
      }
      sort_entries(e, ps->sortbuf, n);
      /* Duplicate keys: the stable sort keeps document order within a
      ** run, and the last one wins. */
      uint32_t k = 0;
      for (uint32_t i = 0; i < n; i++) {
        if (k > 0 && e[k - 1].key == e[i].key)
          e[k - 1] = e[i];
        else
          e[k++] = e[i];
      }
      n = k;
    }
  }
  ps->nstk = base;
  ps->nframes--;
  Value v;
  memset(&v, 0, sizeof v);
  if (n == 0) {
    v.type = obj ? &ty_empty_object : &ty_empty_tuple;
    return v;
  }
  if (!t) {
    t = intern_type(ps, obj, e, n);
    if (depth < HINT_DEPTHS)
      ps->last_type[depth] = t;
  }
  v.type = t;
  v.len = n;
  Value *vals = arena_alloc_raw(ps->a, sizeof(Value), _Alignof(Value), n);
  for (uint32_t i = 0; i < n; i++)
    vals[i] = e[i].v;
  v.u.elems = vals;
  return v;
}

/* ---- Strings ------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p (RFC 3629, as Go's
** utf8.DecodeRune: no overlongs, no surrogates, at most U+10FFFF), or 0. */
size_t json_utf8_len(const unsigned char *p, const unsigned char *end)
{
  unsigned c = p[0];
  if (c < 0x80)
    return 1;
  size_t avail = (size_t)(end - p);
  if (c >= 0xC2 && c <= 0xDF)
    return avail >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (avail < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
      return 0;
    if (c == 0xE0 && p[1] < 0xA0)
      return 0;
    if (c == 0xED && p[1] > 0x9F)
      return 0;
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (avail < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 ||
        (p[3] & 0xC0) != 0x80)
      return 0;
    if (c == 0xF0 && p[1] < 0x90)
      return 0;
    if (c == 0xF4 && p[1] > 0x8F)
      return 0;
    return 4;
  }
  return 0;
}

static int hexval(unsigned char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* The 4 hex digits at p (p+4 <= end checked by the caller), or -1. */
static long hex4(const char *p)
{
  long r = 0;
  for (int i = 0; i < 4; i++) {
    int h = hexval((unsigned char)p[i]);
    if (h < 0)
      return -1;
    r = r * 16 + h;
  }
  return r;
}

/* Decodes the string body [p, q) (escapes already known to be
** well-formed) into o, which has room for 3 bytes per input byte.
** Returns the decoded length. */
static size_t decode_string(const char *p, const char *q, char *o)
{
  char *o0 = o;
  while (p < q) {
    unsigned char c = (unsigned char)*p;
    if (c == '\\') {
      char e = p[1];
      p += 2;
      switch (e) {
      case '"': *o++ = '"'; break;
      case '\\': *o++ = '\\'; break;
      case '/': *o++ = '/'; break;
      case 'b': *o++ = '\b'; break;
      case 'f': *o++ = '\f'; break;
      case 'n': *o++ = '\n'; break;
      case 'r': *o++ = '\r'; break;
      case 't': *o++ = '\t'; break;
      default: {   /* 'u' */
        unsigned long r = (unsigned long)hex4(p);
        p += 4;
        if (r >= 0xD800 && r < 0xE000) {
          /* Go: a high surrogate followed by a \u low surrogate makes one
          ** rune; anything else is U+FFFD and the next escape stands on
          ** its own. */
          long r2 = -1;
          if (r < 0xDC00 && q - p >= 6 && p[0] == '\\' && p[1] == 'u')
            r2 = hex4(p + 2);
          if (r2 >= 0xDC00 && r2 < 0xE000) {
            r = 0x10000 + ((r - 0xD800) << 10) + ((unsigned long)r2 - 0xDC00);
            p += 6;
          } else {
            r = 0xFFFD;
          }
        }
        o += buf_utf8_encode(o, (uint32_t)r);
        break;
      }
      }
      continue;
    }
    if (c < 0x80) {
      *o++ = (char)c;
      p++;
      continue;
    }
    size_t k = json_utf8_len((const unsigned char *)p,
                             (const unsigned char *)q);
    if (k == 0) {
      o += buf_utf8_encode(o, 0xFFFD);
      p++;
    } else {
      memcpy(o, p, k);
      o += k;
      p += k;
    }
  }
  return (size_t)(o - o0);
}

/* Parses the string whose opening quote is at q0.  On success sets *s and *n
** to the decoded bytes: either a pointer into the input (no escapes, valid
** UTF-8; *borrowed = true) or into ps->tmp, and returns the position after
** the closing quote.  Returns NULL after reporting an error. */
static const char *scan_string(Parser *ps, const char *q0, const char **s,
                               size_t *n, bool *borrowed)
{
  const char *p = q0 + 1, *end = ps->end;
  bool slow = false;
  for (;;) {
    while (end - p >= 8) {
      uint64_t m = str_special8(p);
      if (m) {
        /* The lowest flagged byte is exact (a borrow only flags bytes
        ** above a true one): go straight to the first special byte
        ** rather than one byte and eight again at a time. */
        p += first_flagged(m);
        break;
      }
      p += 8;
    }
    if (p >= end)
      return perr(ps, q0, "Unterminated string",
                  "the string has no closing quote."), NULL;
    unsigned char c = (unsigned char)*p;
    switch (str_class[c]) {
    case 0:
      p++;
      continue;
    case 1:
      goto done;
    case 2:
      slow = true;
      if (end - p < 2)
        return perr(ps, q0, "Unterminated string",
                    "the string has no closing quote."), NULL;
      switch (p[1]) {
      case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
      case 't':
        p += 2;
        continue;
      case 'u':
        if (end - p < 6 || hex4(p + 2) < 0)
          return perr(ps, p, "Invalid escape sequence",
                      "\\u must be followed by four hexadecimal digits."),
                 NULL;
        p += 6;
        continue;
      default: {
        char what[64];
        unsigned char e = (unsigned char)p[1];
        if (e >= 0x20 && e < 0x7f)
          snprintf(what, sizeof what, "\\%c is not a JSON escape.", e);
        else
          snprintf(what, sizeof what, "byte 0x%02x after a backslash.", e);
        return perr(ps, p, "Invalid escape sequence", what), NULL;
      }
      }
    case 3:
      return perr(ps, p, "Invalid control character in string",
                  "control characters (below 0x20) must be escaped in "
                  "JSON strings."), NULL;
    default: {
      size_t k = json_utf8_len((const unsigned char *)p,
                               (const unsigned char *)end);
      if (k == 0) {
        if (ps->flags & JSON_STRICT_UTF8)
          return perr(ps, p, "Invalid UTF-8 in string",
                      "the string contains a byte sequence that is not "
                      "valid UTF-8."), NULL;
        slow = true;
        k = 1;
      }
      p += k;
      continue;
    }
    }
  }
done:
  if (!slow) {
    *s = q0 + 1;
    *n = (size_t)(p - q0 - 1);
    *borrowed = true;
    return p + 1;
  }
  size_t raw = (size_t)(p - q0 - 1);
  char *o = tmp_reserve(ps, raw * 3 + 1);
  *n = decode_string(q0 + 1, p, o);
  *s = o;
  *borrowed = false;
  return p + 1;
}

static Value make_string(Parser *ps, const char *s, size_t n)
{
  char *c = arena_alloc_raw(ps->a, 1, 1, n + 1);
  memcpy(c, s, n);
  c[n] = 0;
  return val_str_ref(c, n);
}

/* ---- Numbers ------------------------------------------------------------- */

static const char *scan_number(Parser *ps, const char *p0, Value *out)
{
  const char *p = p0, *end = ps->end;
  bool neg = false;
  if (*p == '-') {
    neg = true;
    p++;
  }
  if (p >= end || *p < '0' || *p > '9')
    return perr(ps, p0, "Invalid number",
                "a minus sign must be followed by digits."), NULL;
  const char *d0 = p;
  if (*p == '0')
    p++;
  else
    while (p < end && *p >= '0' && *p <= '9')
      p++;
  size_t nd = (size_t)(p - d0);
  bool simple = true;
  if (p < end && *p == '.') {
    simple = false;
    p++;
    if (p >= end || *p < '0' || *p > '9')
      return perr(ps, p0, "Invalid number",
                  "a decimal point must be followed by digits."), NULL;
    while (p < end && *p >= '0' && *p <= '9')
      p++;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    simple = false;
    p++;
    if (p < end && (*p == '+' || *p == '-'))
      p++;
    if (p >= end || *p < '0' || *p > '9')
      return perr(ps, p0, "Invalid number",
                  "an exponent must have digits."), NULL;
    while (p < end && *p >= '0' && *p <= '9')
      p++;
  }
  /* Canonical integers (no "-0", at most 18 digits so int64 cannot
  ** overflow) are by far the most common: convert them here. */
  if (simple && nd <= 18 && !(neg && *d0 == '0')) {
    int64_t i = 0;
    for (const char *q = d0; q < p; q++)
      i = i * 10 + (*q - '0');
    *out = val_int(neg ? -i : i);
    return p;
  }
  if (!val_parse_number(ps->a, p0, (size_t)(p - p0), true, out))
    return perr(ps, p0, "Invalid number", "malformed number."), NULL;
  return p;
}

/* ---- The document -------------------------------------------------------- */

static const char *scan_literal(Parser *ps, const char *p, const char *lit,
                                size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (p + i >= ps->end || p[i] != lit[i]) {
      char exp[32];
      snprintf(exp, sizeof exp, "the literal %s", lit);
      return perr_unexpected(ps, p + i, exp), NULL;
    }
  return p + n;
}

/* The hint slot of the key about to be read in the innermost (object)
** frame, or NULL when it is out of the table's range or the document is
** small. */
static KeyHint *key_hint(Parser *ps)
{
  uint32_t depth = ps->nframes - 1;
  uint32_t pos = ps->nstk - ps->frames[depth].base;
  if (depth >= HINT_DEPTHS || pos >= HINT_POS)
    return NULL;
  if (!ps->hints) {
    if (ps->end - ps->beg < HINT_MIN_DOC)
      return NULL;
    ps->hints = ARENA_NEW(&ps->scratch, KeyHint, HINT_DEPTHS * HINT_POS);
  }
  return &ps->hints[depth * HINT_POS + pos];
}

static const char *scan_key(Parser *ps, const char *p, const char **key)
{
  if (p >= ps->end || *p != '"')
    return perr_unexpected(ps, p, "a string (an object key)"), NULL;
  const char *q;
  KeyHint *h = key_hint(ps);
  if (h && h->s && (size_t)(ps->end - p) > (size_t)h->len + 1 &&
      p[h->len + 1] == '"' && same_bytes(p + 1, h->s, h->len)) {
    /* The key read at this depth and position last time.  A hint is
    ** only set from a key without escapes, so these bytes hold no quote,
    ** backslash or control byte and are valid UTF-8 (the same bytes
    ** passed scan_string): scanning and interning them would give h->s. */
    *key = h->s;
    q = p + h->len + 2;
  } else {
    const char *s;
    size_t n;
    bool borrowed;
    q = scan_string(ps, p, &s, &n, &borrowed);
    if (!q)
      return NULL;
    /* A borrowed key has no escapes, and a raw NUL is a control character
    ** scan_string refused: only a decoded key (\u0000) can hold one. */
    if (!borrowed && memchr(s, 0, n))
      return perr(ps, p, "Invalid object key",
                  "object keys may not contain the NUL character."), NULL;
    *key = intern_key(ps, s, n);
    if (h && borrowed) {
      h->s = *key;
      h->len = (uint32_t)n;
    }
  }
  q = json_skip_ws(q, ps->end);
  if (q >= ps->end || *q != ':')
    return perr_unexpected(ps, q, "':' after an object key"), NULL;
  return q + 1;
}

static bool parse_doc(Parser *ps, Value *out)
{
  const char *p = ps->beg, *end = ps->end;
  Value v;
  memset(&v, 0, sizeof v);
  p = json_skip_ws(p, end);
  for (;;) {
    /* p: at a value, whitespace skipped */
    if (p >= end)
      return perr_unexpected(ps, p, "a value");
    switch (*p) {
    case '{':
    case '[': {
      bool obj = *p == '{';
      if (ps->nframes >= ps->max_depth) {
        char what[96];
        snprintf(what, sizeof what,
                 "containers may be nested at most %u levels deep.",
                 (unsigned)ps->max_depth);
        return perr(ps, p, "Nesting too deep", what);
      }
      push_frame(ps, obj, (uint32_t)(p - ps->beg));
      p = json_skip_ws(p + 1, end);
      if (p < end && *p == (obj ? '}' : ']')) {
        p++;
        v = close_container(ps, obj);
        break;
      }
      if (obj) {
        const char *key = NULL;
        p = scan_key(ps, p, &key);
        if (!p)
          return false;
        push_entry(ps, key, val_dynamic_null);
        p = json_skip_ws(p, end);
      }
      continue;
    }
    case '"': {
      const char *s;
      size_t n;
      bool borrowed;
      p = scan_string(ps, p, &s, &n, &borrowed);
      if (!p)
        return false;
      v = make_string(ps, s, n);
      break;
    }
    case '-': case '0': case '1': case '2': case '3': case '4': case '5':
    case '6': case '7': case '8': case '9':
      p = scan_number(ps, p, &v);
      if (!p)
        return false;
      break;
    case 't':
      if (!(p = scan_literal(ps, p, "true", 4)))
        return false;
      v = val_true;
      break;
    case 'f':
      if (!(p = scan_literal(ps, p, "false", 5)))
        return false;
      v = val_false;
      break;
    case 'n':
      if (!(p = scan_literal(ps, p, "null", 4)))
        return false;
      v = val_dynamic_null;
      break;
    default:
      return perr_unexpected(ps, p, "a value");
    }
    /* A complete value v; p is just after it. */
    for (;;) {
      if (ps->nframes == 0) {
        p = json_skip_ws(p, end);
        if (p < end)
          return perr(ps, p, "Trailing data after JSON value",
                      "the document must hold exactly one JSON value.");
        *out = v;
        return true;
      }
      Frame *f = &ps->frames[ps->nframes - 1];
      if (f->obj)
        ps->stk[ps->nstk - 1].v = v;
      else
        push_entry(ps, NULL, v);
      p = json_skip_ws(p, end);
      if (p < end && *p == ',') {
        p = json_skip_ws(p + 1, end);
        if (f->obj) {
          const char *key = NULL;
          p = scan_key(ps, p, &key);
          if (!p)
            return false;
          push_entry(ps, key, val_dynamic_null);
          p = json_skip_ws(p, end);
        }
        break;   /* parse the next value */
      }
      if (p < end && *p == (f->obj ? '}' : ']')) {
        p++;
        v = close_container(ps, f->obj);
        continue;
      }
      return perr_unexpected(ps, p, f->obj ? "',' or '}' in an object"
                                           : "',' or ']' in an array");
    }
  }
}

/* Key hash seeds: a per-thread splitmix64 sequence seeded once from
** getrandom, so every parse still gets an unpredictable seed of its own
** without a system call per parse (issue 20: eng_make_obj parses every
** object an apply records).  Without entropy the addresses (ASLR) still
** vary per run. */
typedef struct SeedGen {
  bool seeded;
  uint64_t state;
} SeedGen;

static _Thread_local SeedGen seedgen;

static uint64_t next_seed(const void *salt)
{
  if (!seedgen.seeded) {
    if (getrandom(&seedgen.state, sizeof seedgen.state, GRND_NONBLOCK) !=
        (ssize_t)sizeof seedgen.state)
      seedgen.state = (uint64_t)(uintptr_t)salt * 0x9E3779B97F4A7C15ULL ^
                      (uint64_t)(uintptr_t)&seedgen;
    seedgen.seeded = true;
  }
  uint64_t z = (seedgen.state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static void parser_init(Parser *ps, Arena *a, const char *buf, size_t len,
                        Diags *d, const JsonOpts *o)
{
  memset(ps, 0, sizeof *ps);
  ps->a = a;
  arena_init(&ps->scratch, 0);
  ps->beg = buf;
  ps->end = buf + len;
  ps->d = d;
  ps->file = o && o->file ? o->file : "<json>";
  ps->flags = o ? o->flags : 0;
  ps->seed = next_seed(ps);
  ps->max_depth = o && o->max_depth && o->max_depth < JSON_MAX_DEPTH
                      ? o->max_depth
                      : JSON_MAX_DEPTH;
}

bool json_parse(Arena *a, const char *buf, size_t len, Value *out, Diags *d,
                const JsonOpts *opts)
{
  *out = val_dynamic_null;
  size_t max = opts && opts->max_size ? opts->max_size : JSON_DEFAULT_MAX_SIZE;
  if (max > (size_t)UINT32_MAX - 1)
    max = (size_t)UINT32_MAX - 1;
  if (len > max) {
    SrcRange r = {opts && opts->file ? opts->file : "<json>",
                  {1, 1, 0}, {1, 1, 0}};
    diag_error(d, &r, "JSON document too large",
               "The document is %zu bytes long; the limit is %zu bytes.",
               len, max);
    return false;
  }
  Parser ps;
  parser_init(&ps, a, buf ? buf : "", buf ? len : 0, d, opts);
  Value v;
  bool ok = parse_doc(&ps, &v);
  arena_release(&ps.scratch);
  if (ok)
    *out = v;
  return ok;
}
