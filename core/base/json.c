/*
** json.c: JSON reader, cty typed decoding, type syntax and writer (see
** json.h for the contracts and the Go/cty behaviour reproduced).
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
#include "json.h"

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

#define ONES ((uint64_t)0x0101010101010101ULL)
#define HIGHS ((uint64_t)0x8080808080808080ULL)

/* Nonzero when any byte of x is zero. */
static inline uint64_t has_zero(uint64_t x) { return (x - ONES) & ~x & HIGHS; }

/* Nonzero when any byte of the 8 at p needs a closer look in a string:
** '"', '\\', a control character or a non-ASCII byte. */
static inline uint64_t str_special8(const char *p)
{
  uint64_t x;
  memcpy(&x, p, 8);
  return has_zero(x ^ (ONES * '"')) | has_zero(x ^ (ONES * '\\')) |
         ((x - ONES * 0x20) & ~x & HIGHS) | (x & HIGHS);
}

static inline bool is_ws(unsigned char c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static inline const char *skip_ws(const char *p, const char *end)
{
  while (p < end && (unsigned char)*p <= ' ' && is_ws((unsigned char)*p)) {
    p++;
    /* Pretty-printed documents indent with long runs of spaces. */
    while (end - p >= 8) {
      uint64_t x;
      memcpy(&x, p, 8);
      if (x != ONES * ' ')
        break;
      p += 8;
    }
  }
  return p;
}

/* ---- Diagnostics --------------------------------------------------------- */

static SrcPos pos_at(const char *beg, size_t off)
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
  r.start = pos_at(ps->beg, off);
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
    if (k->hash == h && k->len == n && memcmp(k->s, s, n) == 0)
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

/* Builds the object or tuple value from the entries above the top frame. */
static Value close_container(Parser *ps, bool obj)
{
  uint32_t base = ps->frames[ps->nframes - 1].base;
  Entry *e = ps->stk + base;
  uint32_t n = ps->nstk - base;
  if (obj) {
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
  v.type = intern_type(ps, obj, e, n);
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
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
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

static size_t put_utf8(char *o, unsigned long r)
{
  if (r < 0x80) {
    o[0] = (char)r;
    return 1;
  }
  if (r < 0x800) {
    o[0] = (char)(0xC0 | (r >> 6));
    o[1] = (char)(0x80 | (r & 0x3F));
    return 2;
  }
  if (r < 0x10000) {
    o[0] = (char)(0xE0 | (r >> 12));
    o[1] = (char)(0x80 | ((r >> 6) & 0x3F));
    o[2] = (char)(0x80 | (r & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (r >> 18));
  o[1] = (char)(0x80 | ((r >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((r >> 6) & 0x3F));
  o[3] = (char)(0x80 | (r & 0x3F));
  return 4;
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
        o += put_utf8(o, r);
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
    size_t k = utf8_len((const unsigned char *)p, (const unsigned char *)q);
    if (k == 0) {
      o += put_utf8(o, 0xFFFD);
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
    while (end - p >= 8 && !str_special8(p))
      p += 8;
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
      size_t k = utf8_len((const unsigned char *)p, (const unsigned char *)end);
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

static const char *scan_key(Parser *ps, const char *p, const char **key)
{
  if (p >= ps->end || *p != '"')
    return perr_unexpected(ps, p, "a string (an object key)"), NULL;
  const char *s;
  size_t n;
  bool borrowed;
  const char *q = scan_string(ps, p, &s, &n, &borrowed);
  if (!q)
    return NULL;
  if (memchr(s, 0, n))
    return perr(ps, p, "Invalid object key",
                "object keys may not contain the NUL character."), NULL;
  *key = intern_key(ps, s, n);
  q = skip_ws(q, ps->end);
  if (q >= ps->end || *q != ':')
    return perr_unexpected(ps, q, "':' after an object key"), NULL;
  return q + 1;
}

static bool parse_doc(Parser *ps, Value *out)
{
  const char *p = ps->beg, *end = ps->end;
  Value v;
  memset(&v, 0, sizeof v);
  p = skip_ws(p, end);
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
      p = skip_ws(p + 1, end);
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
        p = skip_ws(p, end);
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
        p = skip_ws(p, end);
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
      p = skip_ws(p, end);
      if (p < end && *p == ',') {
        p = skip_ws(p + 1, end);
        if (f->obj) {
          const char *key = NULL;
          p = scan_key(ps, p, &key);
          if (!p)
            return false;
          push_entry(ps, key, val_dynamic_null);
          p = skip_ws(p, end);
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
  /* Without entropy the stack address (ASLR) still varies per run. */
  if (getrandom(&ps->seed, sizeof ps->seed, GRND_NONBLOCK) !=
      (ssize_t)sizeof ps->seed)
    ps->seed = (uint64_t)(uintptr_t)ps * 0x9E3779B97F4A7C15ULL;
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

/* ======================================================================
** Typed decoding (go-cty json.Unmarshal) and type syntax
** ====================================================================== */

typedef struct TCtx {
  Arena *a;
  const char *msg;      /* error message, set at the failure point */
  PathStep *steps;      /* path, innermost first, filled while unwinding */
  uint32_t nsteps, capsteps;
} TCtx;

static bool tfail(TCtx *c, const char *msg)
{
  c->msg = msg;
  return false;
}

static void tstep(TCtx *c, PathStepKind k, const char *name, int64_t index)
{
  if (c->nsteps == c->capsteps) {
    uint32_t nc = c->capsteps ? c->capsteps * 2 : 8;
    c->steps = arena_grow(c->a, c->steps, sizeof(PathStep),
                          _Alignof(PathStep), c->capsteps, nc);
    c->capsteps = nc;
  }
  PathStep *s = &c->steps[c->nsteps++];
  s->kind = k;
  s->name = name;
  s->index = index;
}

static void treport(TCtx *c, Diags *d, const SrcRange *where)
{
  /* Steps were collected innermost first. */
  for (uint32_t i = 0; i < c->nsteps / 2; i++) {
    PathStep t = c->steps[i];
    c->steps[i] = c->steps[c->nsteps - 1 - i];
    c->steps[c->nsteps - 1 - i] = t;
  }
  Buf b;
  buf_init(&b, c->a);
  ValPath vp = {c->steps, c->nsteps};
  val_path_format(&b, vp, true);
  diag_error(d, where, c->msg, "%s", buf_str(&b));
}

static bool type_from(TCtx *c, Value v, const Type **out);

static bool is_str(Value v, const char *s)
{
  size_t n = strlen(s);
  return v.type->kind == TY_STRING && !(v.flags & (VF_NULL | VF_UNKNOWN)) &&
         v.len == n && memcmp(v.u.s, s, n) == 0;
}

static bool known(Value v) { return !(v.flags & (VF_NULL | VF_UNKNOWN)); }

/* A number value's JSON text (literal or canonical). */
static const char *num_text(Arena *a, Value v, uint32_t *len)
{
  if (v.flags & VF_NUMLIT) {
    *len = v.len;
    return v.u.s;
  }
  Buf b;
  buf_init(&b, a);
  val_num_format(&b, v);
  *len = (uint32_t)b.len;
  return buf_str(&b);
}

static bool typed(TCtx *c, Value v, const Type *t, Value *out);

static bool typed_elems(TCtx *c, Value v, const Type *t, Value **vals)
{
  uint32_t n = v.len;
  Value *o = ARENA_NEW(c->a, Value, n);
  for (uint32_t i = 0; i < n; i++) {
    const Type *et = t->kind == TY_TUPLE ? t->types[i] : t->elem;
    if (!typed(c, v.u.elems[i], et, &o[i])) {
      tstep(c, PS_INDEX, NULL, (int64_t)i);
      return false;
    }
  }
  *vals = o;
  return true;
}

static bool typed(TCtx *c, Value v, const Type *t, Value *out)
{
  if (v.flags & VF_NULL) {
    *out = val_null(t);
    return true;
  }
  if (v.flags & VF_UNKNOWN)
    return tfail(c, "value is not known");
  TypeKind vk = v.type->kind;
  switch (t->kind) {
  case TY_DYNAMIC: {
    if (vk != TY_OBJECT)
      return tfail(c, "missing expected {");
    const Type *vt = v.type;
    int ti = -1, vi = -1;
    for (uint32_t i = 0; i < vt->n; i++) {
      if (strcmp(vt->names[i], "type") == 0)
        ti = (int)i;
      else if (strcmp(vt->names[i], "value") == 0)
        vi = (int)i;
      else
        return tfail(c, arena_printf(c->a, "invalid key \"%s\" in "
                                     "dynamically-typed value",
                                     vt->names[i]));
    }
    if (ti < 0)
      return tfail(c, "missing type in dynamically-typed value");
    if (vi < 0)
      return tfail(c, "missing value in dynamically-typed value");
    const Type *dt;
    if (!type_from(c, v.u.elems[ti], &dt)) {
      c->msg = arena_printf(c->a, "failed to decode type for dynamic "
                            "value: %s", c->msg);
      return false;
    }
    return typed(c, v.u.elems[vi], dt, out);
  }
  case TY_STRING:
    if (vk == TY_STRING) {
      *out = v;
      return true;
    }
    if (vk == TY_NUMBER) {
      uint32_t n;
      const char *s = num_text(c->a, v, &n);
      *out = val_str_ref(s, n);
      return true;
    }
    if (vk == TY_BOOL) {
      *out = val_str_ref(v.u.b ? "true" : "false", v.u.b ? 4 : 5);
      return true;
    }
    return tfail(c, "string is required");
  case TY_NUMBER:
    if (vk == TY_NUMBER) {
      *out = v;
      return true;
    }
    if (vk == TY_STRING) {
      if (memchr(v.u.s, 0, v.len) ||
          !val_parse_number(c->a, v.u.s, v.len, false, out))
        return tfail(c, "a number is required");
      return true;
    }
    return tfail(c, "number is required");
  case TY_BOOL:
    if (vk == TY_BOOL) {
      *out = v;
      return true;
    }
    if (vk == TY_STRING) {
      if (is_str(v, "true") || is_str(v, "1")) {
        *out = val_true;
        return true;
      }
      if (is_str(v, "false") || is_str(v, "0")) {
        *out = val_false;
        return true;
      }
      if (v.len == 4 && strncasecmp(v.u.s, "true", 4) == 0)
        return tfail(c, "a bool is required; to convert from string, use "
                        "lowercase \"true\"");
      if (v.len == 5 && strncasecmp(v.u.s, "false", 5) == 0)
        return tfail(c, "a bool is required; to convert from string, use "
                        "lowercase \"false\"");
      return tfail(c, "a bool is required");
    }
    return tfail(c, "bool is required");
  case TY_LIST:
  case TY_SET: {
    if (vk != TY_TUPLE)
      return tfail(c, "missing expected [");
    Value *vals;
    if (!typed_elems(c, v, t, &vals))
      return false;
    /* With a dynamic element type cty infers the type from the elements
    ** (cty.ListVal); value.c does that for a NULL element type. */
    const Type *et = ty_has_dynamic(t->elem) && v.len ? NULL : t->elem;
    *out = t->kind == TY_LIST ? val_list(c->a, et, vals, v.len)
                              : val_set(c->a, et, vals, v.len);
    return true;
  }
  case TY_TUPLE: {
    if (vk != TY_TUPLE)
      return tfail(c, "missing expected [");
    if (v.len > t->n)
      return tfail(c, arena_printf(c->a, "too many tuple elements (need %u)",
                                   (unsigned)t->n));
    if (v.len < t->n)
      return tfail(c, arena_printf(c->a, "not enough tuple elements (need "
                                   "%u)", (unsigned)t->n));
    Value *vals;
    if (!typed_elems(c, v, t, &vals))
      return false;
    if (ty_has_dynamic(t)) {
      *out = val_tuple(c->a, vals, v.len);
    } else {
      Value r = {.type = t, .len = t->n, .u = {.elems = vals}};
      *out = r;
    }
    return true;
  }
  case TY_MAP: {
    if (vk != TY_OBJECT)
      return tfail(c, "missing expected {");
    uint32_t n = v.len;
    MapEntry *me = ARENA_NEW(c->a, MapEntry, n);
    for (uint32_t i = 0; i < n; i++) {
      me[i].key = v.type->names[i];
      me[i].keylen = (uint32_t)strlen(me[i].key);
      if (!typed(c, v.u.elems[i], t->elem, &me[i].val)) {
        tstep(c, PS_KEY, me[i].key, 0);
        return false;
      }
    }
    const Type *et = t->elem;
    if (ty_has_dynamic(et))
      et = n ? NULL : et;
    *out = val_map(c->a, et, me, n);
    return true;
  }
  case TY_OBJECT: {
    if (vk != TY_OBJECT)
      return tfail(c, "missing expected {");
    const Type *vt = v.type;
    for (uint32_t i = 0; i < vt->n; i++)
      if (ty_attr_index(t, vt->names[i]) < 0)
        return tfail(c, arena_printf(c->a, "unsupported attribute \"%s\"",
                                     vt->names[i]));
    Value *vals = ARENA_NEW(c->a, Value, t->n);
    /* Both name lists are sorted: merge. */
    uint32_t j = 0;
    for (uint32_t i = 0; i < t->n; i++) {
      if (j < vt->n && strcmp(vt->names[j], t->names[i]) == 0) {
        if (!typed(c, v.u.elems[j], t->types[i], &vals[i])) {
          tstep(c, PS_ATTR, t->names[i], 0);
          return false;
        }
        j++;
      } else {
        vals[i] = val_null(t->types[i]);
      }
    }
    if (ty_has_dynamic(t))
      *out = val_object(c->a, t->n, t->names, vals);
    else
      *out = val_object_typed(t, vals);
    return true;
  }
  }
  return tfail(c, "unsupported type");
}

bool json_value_typed(Arena *a, Value v, const Type *t, Value *out,
                      Diags *d, const SrcRange *where)
{
  if (v.type && ty_equal(v.type, t)) {
    *out = v;
    return true;
  }
  TCtx c;
  memset(&c, 0, sizeof c);
  c.a = a;
  if (typed(&c, v, t, out))
    return true;
  *out = val_null(t);
  treport(&c, d, where);
  return false;
}

static SrcRange whole_doc(const char *buf, size_t len, const JsonOpts *o)
{
  SrcRange r;
  r.file = o && o->file ? o->file : "<json>";
  r.start.line = 1;
  r.start.col = 1;
  r.start.byte = 0;
  r.end = pos_at(buf, len);
  return r;
}

bool json_decode_typed(Arena *a, const char *buf, size_t len, const Type *t,
                       Value *out, Diags *d, const JsonOpts *opts)
{
  Value v;
  *out = val_null(t);
  if (!json_parse(a, buf, len, &v, d, opts))
    return false;
  SrcRange r = whole_doc(buf, len, opts);
  return json_value_typed(a, v, t, out, d, &r);
}

/* ---- Type syntax --------------------------------------------------------- */

static bool type_from(TCtx *c, Value v, const Type **out)
{
  if (!known(v))
    return tfail(c, "invalid type description");
  if (v.type->kind == TY_STRING) {
    if (is_str(v, "string"))
      *out = &ty_string;
    else if (is_str(v, "number"))
      *out = &ty_number;
    else if (is_str(v, "bool"))
      *out = &ty_bool;
    else if (is_str(v, "dynamic"))
      *out = &ty_dynamic;
    else
      return tfail(c, arena_printf(c->a, "invalid primitive type name "
                                   "\"%s\"", v.u.s));
    return true;
  }
  if (v.type->kind != TY_TUPLE || v.len == 0)
    return tfail(c, "invalid type description");
  Value k = v.u.elems[0];
  if (!known(k) || k.type->kind != TY_STRING)
    return tfail(c, "invalid complex type kind name");
  bool obj = is_str(k, "object");
  if (v.len < 2 || v.len > (obj ? 3u : 2u))
    return tfail(c, "unexpected extra data in type description");
  Value arg = v.u.elems[1];
  if (is_str(k, "list") || is_str(k, "set") || is_str(k, "map")) {
    const Type *et;
    if (!type_from(c, arg, &et))
      return false;
    *out = is_str(k, "list")  ? ty_list(c->a, et)
           : is_str(k, "set") ? ty_set(c->a, et)
                              : ty_map(c->a, et);
    return true;
  }
  if (is_str(k, "tuple")) {
    if (!known(arg) || arg.type->kind != TY_TUPLE)
      return tfail(c, "invalid tuple type description: an array of types "
                      "is required");
    const Type **tt = ARENA_NEW(c->a, const Type *, arg.len ? arg.len : 1);
    for (uint32_t i = 0; i < arg.len; i++)
      if (!type_from(c, arg.u.elems[i], &tt[i]))
        return false;
    *out = ty_tuple(c->a, arg.len, tt);
    return true;
  }
  if (obj) {
    if (!known(arg) || arg.type->kind != TY_OBJECT)
      return tfail(c, "invalid object type description: an object of "
                      "attribute types is required");
    uint32_t n = arg.len;
    const Type **tt = ARENA_NEW(c->a, const Type *, n ? n : 1);
    for (uint32_t i = 0; i < n; i++)
      if (!type_from(c, arg.u.elems[i], &tt[i]))
        return false;
    uint8_t *opt = NULL;
    if (v.len == 3) {
      Value ol = v.u.elems[2];
      if (!known(ol) || ol.type->kind != TY_TUPLE)
        return tfail(c, "invalid optional attribute list");
      opt = ARENA_NEW(c->a, uint8_t, n ? n : 1);
      for (uint32_t i = 0; i < ol.len; i++) {
        Value on = ol.u.elems[i];
        if (!known(on) || on.type->kind != TY_STRING)
          return tfail(c, "invalid optional attribute list");
        int idx = ty_attr_index(arg.type, on.u.s);
        /* cty ignores optional names that are not attributes. */
        if (idx >= 0)
          opt[idx] = 1;
      }
    }
    if (n == 0) {
      *out = &ty_empty_object;
      return true;
    }
    *out = ty_object_opt(c->a, n, arg.type->names, tt, opt, NULL);
    return true;
  }
  return tfail(c, "invalid complex type kind name");
}

bool json_type_from_value(Arena *a, Value v, const Type **out, Diags *d,
                          const SrcRange *where)
{
  TCtx c;
  memset(&c, 0, sizeof c);
  c.a = a;
  *out = &ty_dynamic;
  if (type_from(&c, v, out))
    return true;
  *out = &ty_dynamic;
  diag_error(d, where, c.msg, "Invalid type specification in JSON.");
  return false;
}

bool json_parse_type(Arena *a, const char *buf, size_t len, const Type **out,
                     Diags *d, const JsonOpts *opts)
{
  Value v;
  *out = &ty_dynamic;
  if (!json_parse(a, buf, len, &v, d, opts))
    return false;
  SrcRange r = whole_doc(buf, len, opts);
  return json_type_from_value(a, v, out, d, &r);
}

/* ======================================================================
** Writer
** ====================================================================== */

/* 0: copy as is; 1: short escape or \u00XX; 2: non-ASCII, check. */
static const uint8_t esc_class[256] = {
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* " & */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,   /* < > */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,   /* \ */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

void json_write_string(Buf *out, const char *s, size_t n)
{
  static const char hex[] = "0123456789abcdef";
  buf_reserve(out, n + 2);
  buf_putc(out, '"');
  size_t run = 0;   /* start of the pending plain run */
  size_t i = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    uint8_t k = esc_class[c];
    if (k == 0) {
      i++;
      continue;
    }
    size_t len = 1;
    if (k == 2) {
      len = utf8_len((const unsigned char *)s + i,
                     (const unsigned char *)s + n);
      bool ls = len == 3 && c == 0xE2 && (unsigned char)s[i + 1] == 0x80 &&
                ((unsigned char)s[i + 2] & 0xFE) == 0xA8;
      if (len && !ls) {
        i += len;
        continue;
      }
      buf_put(out, s + run, i - run);
      if (ls) {
        buf_puts(out, (unsigned char)s[i + 2] == 0xA8 ? "\\u2028"
                                                      : "\\u2029");
        i += 3;
      } else {
        buf_puts(out, "\\ufffd");
        i++;
      }
      run = i;
      continue;
    }
    buf_put(out, s + run, i - run);
    char e[6];
    size_t en = 2;
    e[0] = '\\';
    switch (c) {
    case '"': e[1] = '"'; break;
    case '\\': e[1] = '\\'; break;
    case '\n': e[1] = 'n'; break;
    case '\r': e[1] = 'r'; break;
    case '\t': e[1] = 't'; break;
    case '\b': e[1] = 'b'; break;
    case '\f': e[1] = 'f'; break;
    default:
      e[1] = 'u';
      e[2] = '0';
      e[3] = '0';
      e[4] = hex[c >> 4];
      e[5] = hex[c & 15];
      en = 6;
    }
    buf_put(out, e, en);
    i += len;
    run = i;
  }
  buf_put(out, s + run, n - run);
  buf_putc(out, '"');
}

void json_w_init(JsonW *w, Buf *out, unsigned flags)
{
  w->out = out;
  w->flags = flags;
  w->depth = 0;
  w->first = true;
  w->after_key = false;
}

static void w_newline(JsonW *w, uint32_t depth)
{
  Buf *b = w->out;
  size_t n = 1 + (size_t)depth * 2;
  buf_reserve(b, n);
  b->p[b->len] = '\n';
  memset(b->p + b->len + 1, ' ', n - 1);
  b->len += n;
  b->p[b->len] = 0;
}

/* Separator and layout before a value or key. */
static void w_pre(JsonW *w)
{
  if (w->after_key) {
    w->after_key = false;
    return;
  }
  if (w->depth == 0)
    return;
  if (!w->first)
    buf_putc(w->out, ',');
  if (w->flags & JSON_W_INDENT)
    w_newline(w, w->depth);
  w->first = false;
}

static void w_open(JsonW *w, char c)
{
  w_pre(w);
  buf_putc(w->out, c);
  w->depth++;
  w->first = true;
}

static void w_close(JsonW *w, char c)
{
  if (w->depth)
    w->depth--;
  if (!w->first && (w->flags & JSON_W_INDENT))
    w_newline(w, w->depth);
  buf_putc(w->out, c);
  w->first = false;
}

void json_w_begin_object(JsonW *w) { w_open(w, '{'); }
void json_w_end_object(JsonW *w) { w_close(w, '}'); }
void json_w_begin_array(JsonW *w) { w_open(w, '['); }
void json_w_end_array(JsonW *w) { w_close(w, ']'); }

void json_w_key(JsonW *w, const char *key, size_t n)
{
  w_pre(w);
  json_write_string(w->out, key, n);
  if (w->flags & JSON_W_INDENT)
    buf_put(w->out, ": ", 2);
  else
    buf_putc(w->out, ':');
  w->after_key = true;
}

void json_w_keyz(JsonW *w, const char *key) { json_w_key(w, key, strlen(key)); }

void json_w_string(JsonW *w, const char *s, size_t n)
{
  w_pre(w);
  json_write_string(w->out, s, n);
}

void json_w_stringz(JsonW *w, const char *s) { json_w_string(w, s, strlen(s)); }

void json_w_number_lit(JsonW *w, const char *s, size_t n)
{
  w_pre(w);
  buf_put(w->out, s, n);
}

void json_w_int(JsonW *w, int64_t i)
{
  w_pre(w);
  buf_printf(w->out, "%lld", (long long)i);
}

void json_w_uint(JsonW *w, uint64_t u)
{
  w_pre(w);
  buf_printf(w->out, "%llu", (unsigned long long)u);
}

void json_w_bool(JsonW *w, bool b)
{
  w_pre(w);
  buf_puts(w->out, b ? "true" : "false");
}

void json_w_null(JsonW *w)
{
  w_pre(w);
  buf_put(w->out, "null", 4);
}

void json_w_raw(JsonW *w, const char *s, size_t n)
{
  const char *p = s, *end = s + n;
  while (p < end) {
    char c = *p;
    switch (c) {
    case ' ': case '\t': case '\n': case '\r': case ',':
      p++;
      break;
    case '{':
    case '[': {
      char close = c == '{' ? '}' : ']';
      w_open(w, c);
      p = skip_ws(p + 1, end);
      if (p < end && *p == close) {
        w_close(w, close);
        p++;
      }
      break;
    }
    case '}':
    case ']':
      w_close(w, c);
      p++;
      break;
    case ':':
      if (w->flags & JSON_W_INDENT)
        buf_put(w->out, ": ", 2);
      else
        buf_putc(w->out, ':');
      w->after_key = true;
      p++;
      break;
    case '"': {
      /* Copied verbatim except for Go's HTML-safe escapes, which
      ** json.Marshal applies to raw messages too. */
      w_pre(w);
      const char *q = p + 1;
      buf_putc(w->out, '"');
      while (q < end && *q != '"') {
        unsigned char b = (unsigned char)*q;
        if (b == '\\' && q + 1 < end) {
          buf_put(w->out, q, 2);
          q += 2;
        } else if (b == '<' || b == '>' || b == '&') {
          buf_printf(w->out, "\\u00%02x", b);
          q++;
        } else if (b == 0xE2 && end - q >= 3 && (unsigned char)q[1] == 0x80 &&
                   ((unsigned char)q[2] & 0xFE) == 0xA8) {
          buf_puts(w->out, (unsigned char)q[2] == 0xA8 ? "\\u2028"
                                                       : "\\u2029");
          q += 3;
        } else {
          buf_putc(w->out, (char)b);
          q++;
        }
      }
      buf_putc(w->out, '"');
      p = q < end ? q + 1 : q;
      break;
    }
    default: {
      w_pre(w);
      const char *q = p;
      while (q < end && !is_ws((unsigned char)*q) && *q != ',' &&
             *q != '}' && *q != ']' && *q != ':')
        q++;
      buf_put(w->out, p, (size_t)(q - p));
      p = q;
      break;
    }
    }
  }
}

void json_w_type(JsonW *w, const Type *t)
{
  switch (t->kind) {
  case TY_DYNAMIC: json_w_string(w, "dynamic", 7); return;
  case TY_STRING: json_w_string(w, "string", 6); return;
  case TY_NUMBER: json_w_string(w, "number", 6); return;
  case TY_BOOL: json_w_string(w, "bool", 4); return;
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    json_w_begin_array(w);
    json_w_stringz(w, t->kind == TY_LIST ? "list"
                      : t->kind == TY_SET ? "set" : "map");
    json_w_type(w, t->elem);
    json_w_end_array(w);
    return;
  case TY_TUPLE:
    json_w_begin_array(w);
    json_w_string(w, "tuple", 5);
    json_w_begin_array(w);
    for (uint32_t i = 0; i < t->n; i++)
      json_w_type(w, t->types[i]);
    json_w_end_array(w);
    json_w_end_array(w);
    return;
  case TY_OBJECT: {
    json_w_begin_array(w);
    json_w_string(w, "object", 6);
    json_w_begin_object(w);
    bool any_opt = false;
    for (uint32_t i = 0; i < t->n; i++) {
      json_w_keyz(w, t->names[i]);
      json_w_type(w, t->types[i]);
      if (t->optional && t->optional[i])
        any_opt = true;
    }
    json_w_end_object(w);
    if (any_opt) {
      json_w_begin_array(w);
      for (uint32_t i = 0; i < t->n; i++)
        if (t->optional[i])
          json_w_stringz(w, t->names[i]);
      json_w_end_array(w);
    }
    json_w_end_array(w);
    return;
  }
  }
}

void json_write_type(Buf *out, const Type *t)
{
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_type(&w, t);
}

typedef struct WCtx {
  JsonW *w;
  TCtx t;     /* error message and path */
} WCtx;

static bool wvalue(WCtx *c, Value v, const Type *t)
{
  JsonW *w = c->w;
  if ((w->flags & JSON_W_REJECT_MARKS) && (v.flags & VF_SENSITIVE))
    return tfail(&c->t, "value has marks, so it cannot be serialized as "
                        "JSON");
  if (t->kind == TY_DYNAMIC && v.type->kind != TY_DYNAMIC) {
    json_w_begin_object(w);
    json_w_key(w, "value", 5);
    if (!wvalue(c, v, v.type))
      return false;
    json_w_key(w, "type", 4);
    json_w_type(w, v.type);
    json_w_end_object(w);
    return true;
  }
  if (v.flags & VF_NULL) {
    json_w_null(w);
    return true;
  }
  if (v.flags & VF_UNKNOWN) {
    if (w->flags & JSON_W_UNKNOWN_NULL) {
      json_w_null(w);
      return true;
    }
    return tfail(&c->t, "value is not known");
  }
  /* Encode against t when it has v's shape, else against v's own type. */
  if (t->kind != v.type->kind ||
      ((t->kind == TY_OBJECT || t->kind == TY_TUPLE) && t->n != v.type->n))
    t = v.type;
  switch (t->kind) {
  case TY_DYNAMIC:
    json_w_null(w);
    return true;
  case TY_STRING:
    json_w_string(w, v.u.s, v.len);
    return true;
  case TY_NUMBER:
    if (v.flags & VF_NUMLIT) {
      json_w_number_lit(w, v.u.s, v.len);
      return true;
    }
    if ((v.flags & VF_FLOAT) && !isfinite(v.u.d))
      return tfail(&c->t, "cannot serialize infinity as JSON");
    w_pre(w);
    val_num_format(w->out, v);
    return true;
  case TY_BOOL:
    json_w_bool(w, v.u.b);
    return true;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
    json_w_begin_array(w);
    for (uint32_t i = 0; i < v.len; i++) {
      const Type *et = t->kind == TY_TUPLE ? t->types[i] : t->elem;
      if (!wvalue(c, v.u.elems[i], et)) {
        tstep(&c->t, PS_INDEX, NULL, (int64_t)i);
        return false;
      }
    }
    json_w_end_array(w);
    return true;
  case TY_MAP:
    json_w_begin_object(w);
    for (uint32_t i = 0; i < v.len; i++) {
      const MapEntry *e = &v.u.entries[i];
      json_w_key(w, e->key, e->keylen);
      if (!wvalue(c, e->val, t->elem)) {
        tstep(&c->t, PS_KEY, e->key, 0);
        return false;
      }
    }
    json_w_end_object(w);
    return true;
  case TY_OBJECT:
    json_w_begin_object(w);
    for (uint32_t i = 0; i < v.type->n; i++) {
      json_w_keyz(w, v.type->names[i]);
      if (!wvalue(c, v.u.elems[i], t->types[i])) {
        tstep(&c->t, PS_ATTR, v.type->names[i], 0);
        return false;
      }
    }
    json_w_end_object(w);
    return true;
  }
  return tfail(&c->t, "unsupported type");
}

bool json_w_value(JsonW *w, Value v, const Type *t, Diags *d)
{
  WCtx c;
  memset(&c, 0, sizeof c);
  c.w = w;
  c.t.a = w->out->arena;
  if (wvalue(&c, v, t ? t : v.type))
    return true;
  treport(&c.t, d, NULL);
  return false;
}

bool json_write_value(Buf *out, Value v, const Type *t, unsigned flags,
                      Diags *d)
{
  JsonW w;
  json_w_init(&w, out, flags);
  return json_w_value(&w, v, t, d);
}
