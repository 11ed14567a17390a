/*
** funcs_str: string functions (cty stdlib string.go, format.go and
** Terraform's strings.go), except regex matching (funcs_re.c).
**
** Case mapping covers ASCII, Latin-1, Latin Extended-A, Greek, Cyrillic,
** Armenian and the fullwidth Latin letters (Go maps all of Unicode);
** other characters are left unchanged.  Character counts (substr,
** strrev, format widths) use the approximate grapheme clusters of
** fn_grapheme_len().
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "funcs_impl.h"

static Value str_val(FnCall *c, const char *s, size_t n)
{
  return val_str(c->arena, s, n);
}

/* ---- Case mapping -------------------------------------------------------- */

uint32_t fn_case_lower(uint32_t r)
{
  if (r < 0x80)
    return (r >= 'A' && r <= 'Z') ? r + 32 : r;
  if ((r >= 0xC0 && r <= 0xDE && r != 0xD7) || (r >= 0x391 && r <= 0x3AB &&
                                                r != 0x3A2))
    return r + 32;
  if (r >= 0x410 && r <= 0x42F)
    return r + 32;
  if (r >= 0x400 && r <= 0x40F)
    return r + 80;
  if (r >= 0x531 && r <= 0x556)
    return r + 48;
  if (r >= 0xFF21 && r <= 0xFF3A)
    return r + 32;
  if (r == 0x178)
    return 0xFF;
  if (r == 0x130)
    return 'i';
  if ((r >= 0x100 && r <= 0x12F) || (r >= 0x132 && r <= 0x137) ||
      (r >= 0x14A && r <= 0x177) || (r >= 0x460 && r <= 0x481) ||
      (r >= 0x48A && r <= 0x4BF))
    return (r & 1) ? r : r + 1;
  if ((r >= 0x139 && r <= 0x148) || (r >= 0x179 && r <= 0x17E))
    return (r & 1) ? r + 1 : r;
  if (r >= 0x386 && r <= 0x38F) {
    static const uint16_t m[] = {0x3AC, 0, 0x3AD, 0x3AE, 0x3AF, 0,
                                 0x3CC, 0, 0x3CD, 0x3CE};
    return m[r - 0x386] ? m[r - 0x386] : r;
  }
  return r;
}

uint32_t fn_case_upper(uint32_t r)
{
  if (r < 0x80)
    return (r >= 'a' && r <= 'z') ? r - 32 : r;
  if ((r >= 0xE0 && r <= 0xFE && r != 0xF7) ||
      (r >= 0x3B1 && r <= 0x3CB && r != 0x3C2))
    return r - 32;
  if (r == 0xB5)
    return 0x39C;
  if (r == 0xFF)
    return 0x178;
  if (r == 0x3C2)
    return 0x3A3;
  if (r >= 0x430 && r <= 0x44F)
    return r - 32;
  if (r >= 0x450 && r <= 0x45F)
    return r - 80;
  if (r >= 0x561 && r <= 0x586)
    return r - 48;
  if (r >= 0xFF41 && r <= 0xFF5A)
    return r - 32;
  if (r == 0x131)
    return 'I';
  if (r == 0x17F)
    return 'S';
  if ((r >= 0x100 && r <= 0x12F) || (r >= 0x132 && r <= 0x137) ||
      (r >= 0x14A && r <= 0x177) || (r >= 0x460 && r <= 0x481) ||
      (r >= 0x48A && r <= 0x4BF))
    return (r & 1) ? r - 1 : r;
  if ((r >= 0x139 && r <= 0x148) || (r >= 0x179 && r <= 0x17E))
    return (r & 1) ? r : r - 1;
  switch (r) {
  case 0x3AC: return 0x386;
  case 0x3AD: return 0x388;
  case 0x3AE: return 0x389;
  case 0x3AF: return 0x38A;
  case 0x3CC: return 0x38C;
  case 0x3CD: return 0x38E;
  case 0x3CE: return 0x38F;
  default: return r;
  }
}

static bool is_space(uint32_t r)
{
  return r == ' ' || (r >= '\t' && r <= '\r') || r == 0x85 || r == 0xA0 ||
         r == 0x1680 || (r >= 0x2000 && r <= 0x200A) || r == 0x2028 ||
         r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000;
}

static bool is_letter_or_digit(uint32_t r)
{
  if (r < 0x80)
    return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') ||
           (r >= '0' && r <= '9');
  return fn_case_lower(r) != r || fn_case_upper(r) != r || r == 0xAA || r == 0xBA ||
         r == 0xDF || r >= 0x4E00;
}

static Value map_runes(FnCall *c, Value s, uint32_t (*f)(uint32_t))
{
  Buf b;
  buf_init(&b, c->arena);
  buf_reserve(&b, s.len);
  size_t i = 0;
  while (i < s.len) {
    size_t l;
    uint32_t r = fn_utf8_dec(s.u.s + i, s.len - i, &l);
    if (r == 0xFFFD && l == 1)
      buf_put(&b, s.u.s + i, 1);   /* keep invalid bytes as they are */
    else
      buf_put_utf8(&b, f(r));
    i += l;
  }
  return fn_buf_val(&b);
}

bool fn_upper(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  *out = map_runes(c, a[0], fn_case_upper);
  return true;
}

bool fn_lower(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  *out = map_runes(c, a[0], fn_case_lower);
  return true;
}

/* Go's strings.Title: upper-case the first letter of each word. */
bool fn_title(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Buf b;
  buf_init(&b, c->arena);
  uint32_t prev = ' ';
  size_t i = 0;
  while (i < a[0].len) {
    size_t l;
    uint32_t r = fn_utf8_dec(a[0].u.s + i, a[0].len - i, &l);
    bool sep;
    if (prev < 0x80)
      sep = !(is_letter_or_digit(prev) || prev == '_');
    else
      sep = !is_letter_or_digit(prev) && is_space(prev);
    if (r == 0xFFFD && l == 1)
      buf_put(&b, a[0].u.s + i, 1);
    else
      buf_put_utf8(&b, sep ? fn_case_upper(r) : r);
    prev = r;
    i += l;
  }
  *out = fn_buf_val(&b);
  return true;
}

/* ---- Simple string functions ------------------------------------------------ */

bool fn_chomp(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  size_t len = a[0].len;
  while (len > 0 && (a[0].u.s[len - 1] == '\n' || a[0].u.s[len - 1] == '\r'))
    len--;
  *out = str_val(c, a[0].u.s, len);
  return true;
}

static bool has_prefix(Value s, Value p)
{
  return p.len <= s.len && memcmp(s.u.s, p.u.s, p.len) == 0;
}

static bool has_suffix(Value s, Value p)
{
  return p.len <= s.len && memcmp(s.u.s + s.len - p.len, p.u.s, p.len) == 0;
}

static const char *find(const char *h, size_t hn, const char *nd, size_t nn)
{
  if (nn == 0)
    return h;
  if (nn > hn)
    return NULL;
  for (size_t i = 0; i + nn <= hn; i++)
    if (h[i] == nd[0] && memcmp(h + i, nd, nn) == 0)
      return h + i;
  return NULL;
}

bool fn_startswith(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  *out = val_bool(has_prefix(a[0], a[1]));
  return true;
}

bool fn_endswith(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  *out = val_bool(has_suffix(a[0], a[1]));
  return true;
}

bool fn_strcontains(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)c;
  (void)n;
  *out = val_bool(find(a[0].u.s, a[0].len, a[1].u.s, a[1].len) != NULL);
  return true;
}

bool fn_trimprefix(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  if (has_prefix(a[0], a[1]))
    *out = str_val(c, a[0].u.s + a[1].len, a[0].len - a[1].len);
  else
    *out = a[0];
  return true;
}

bool fn_trimsuffix(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  if (has_suffix(a[0], a[1]))
    *out = str_val(c, a[0].u.s, a[0].len - a[1].len);
  else
    *out = a[0];
  return true;
}

/* Byte length of the rune ending at s[end-1]. */
static size_t last_rune(const char *s, size_t end, uint32_t *r)
{
  size_t st = end - 1;
  while (st > 0 && end - st < 4 && ((unsigned char)s[st] & 0xC0) == 0x80)
    st--;
  size_t l;
  *r = fn_utf8_dec(s + st, end - st, &l);
  if (st + l != end) {
    *r = 0xFFFD;
    return 1;
  }
  return l;
}

bool fn_trimspace(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *s = a[0].u.s;
  size_t b = 0, e = a[0].len;
  while (b < e) {
    size_t l;
    uint32_t r = fn_utf8_dec(s + b, e - b, &l);
    if (!is_space(r))
      break;
    b += l;
  }
  while (e > b) {
    uint32_t r;
    size_t l = last_rune(s, e, &r);
    if (!is_space(r))
      break;
    e -= l;
  }
  *out = str_val(c, s + b, e - b);
  return true;
}

static bool in_cutset(Value cut, uint32_t r)
{
  size_t i = 0;
  while (i < cut.len) {
    size_t l;
    if (fn_utf8_dec(cut.u.s + i, cut.len - i, &l) == r)
      return true;
    i += l;
  }
  return false;
}

bool fn_trim(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  const char *s = a[0].u.s;
  size_t b = 0, e = a[0].len;
  while (b < e) {
    size_t l;
    uint32_t r = fn_utf8_dec(s + b, e - b, &l);
    if (!in_cutset(a[1], r))
      break;
    b += l;
  }
  while (e > b) {
    uint32_t r;
    size_t l = last_rune(s, e, &r);
    if (!in_cutset(a[1], r))
      break;
    e -= l;
  }
  *out = str_val(c, s + b, e - b);
  return true;
}

/* cty converts numbers with gocty into a Go int. */
static bool want_int(FnCall *c, int arg, Value v, int64_t *out)
{
  if (!val_num_int(v, out))
    return fn_arg_error(c, arg, "value must be a whole number, between "
                               "-9223372036854775808 and "
                               "9223372036854775807");
  return true;
}

bool fn_indent(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  int64_t sp;
  if (!want_int(c, 0, a[0], &sp))
    return false;
  if (sp < 0)
    sp = 0;
  if (sp > 1 << 20)
    return fn_arg_error(c, 0, "too many spaces");
  Buf b;
  buf_init(&b, c->arena);
  for (size_t i = 0; i < a[1].len; i++) {
    buf_putc(&b, a[1].u.s[i]);
    if (a[1].u.s[i] == '\n')
      for (int64_t k = 0; k < sp; k++)
        buf_putc(&b, ' ');
  }
  *out = fn_buf_val(&b);
  return true;
}

bool fn_join(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  if (n < 2)
    return fn_error(c, "at least one list is required");
  Buf b;
  buf_init(&b, c->arena);
  bool first = true;
  for (uint32_t li = 1; li < n; li++) {
    for (uint32_t ei = 0; ei < a[li].len; ei++) {
      Value e = a[li].u.elems[ei];
      if (val_is_null(e)) {
        if (n > 2)
          return fn_arg_error(c, (int)li, "element %u of list %u is null; "
                              "cannot concatenate null values",
                              (unsigned)ei, (unsigned)li);
        return fn_arg_error(c, (int)li, "element %u is null; cannot "
                            "concatenate null values", (unsigned)ei);
      }
      if (!first)
        buf_put(&b, a[0].u.s, a[0].len);
      buf_put(&b, e.u.s, e.len);
      first = false;
    }
  }
  *out = fn_buf_val(&b);
  return true;
}

bool fn_split(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value sep = a[0], s = a[1];
  uint32_t cap = 8, cnt = 0;
  Value *parts = ARENA_NEW(c->arena, Value, cap);
  size_t i = 0;
  for (;;) {
    size_t len;
    if (sep.len == 0) {
      if (i >= s.len)
        break;
      fn_utf8_dec(s.u.s + i, s.len - i, &len);
    } else {
      const char *f = find(s.u.s + i, s.len - i, sep.u.s, sep.len);
      len = f ? (size_t)(f - (s.u.s + i)) : s.len - i;
    }
    if (cnt == cap) {
      parts = arena_grow(c->arena, parts, sizeof(Value), _Alignof(Value), cap,
                         cap * 2);
      cap *= 2;
    }
    parts[cnt++] = str_val(c, s.u.s + i, len);
    i += len;
    if (sep.len == 0)
      continue;
    if (i >= s.len)
      break;
    i += sep.len;
    if (i == s.len) {   /* trailing separator: one more empty part */
      if (cnt == cap) {
        parts = arena_grow(c->arena, parts, sizeof(Value), _Alignof(Value),
                           cap, cap * 2);
        cap *= 2;
      }
      parts[cnt++] = val_str_ref("", 0);
      break;
    }
  }
  if (cnt == 0 && sep.len != 0)
    parts[cnt++] = val_str_ref("", 0);
  *out = val_list(c->arena, &ty_string, parts, cnt);
  return true;
}

bool fn_strrev(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  char *r = arena_alloc_raw(c->arena, 1, 1, a[0].len + 1);
  size_t i = 0, len = a[0].len;
  while (i < len) {
    size_t g = fn_grapheme_len(a[0].u.s + i, len - i);
    memcpy(r + len - i - g, a[0].u.s + i, g);
    i += g;
  }
  r[len] = 0;
  *out = val_str_ref(r, len);
  return true;
}

bool fn_substr(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  int64_t off, len;
  if (!want_int(c, 1, a[1], &off) || !want_int(c, 2, a[2], &len))
    return false;
  const char *s = a[0].u.s;
  size_t sl = a[0].len;
  if (off < 0) {
    off += (int64_t)fn_graphemes(s, sl);
  } else if (len == 0) {
    *out = val_str_ref("", 0);
    return true;
  }
  size_t i = 0;
  for (int64_t k = 0; k < off && i < sl; k++)
    i += fn_grapheme_len(s + i, sl - i);
  if (off > 0 && i >= sl) {
    *out = val_str_ref("", 0);
    return true;
  }
  size_t j = i;
  if (len < 0) {
    j = sl;
  } else {
    for (int64_t k = 0; k < len && j < sl; k++)
      j += fn_grapheme_len(s + j, sl - j);
  }
  *out = str_val(c, s + i, j - i);
  return true;
}

/* ---- replace ------------------------------------------------------------------ */

/* Go's Regexp.Expand template: $1, ${1}, $name, ${name}, $$. */
static void expand(Buf *b, const FnRe *re, Value tmpl, const char *s,
                   const long *caps)
{
  const char *t = tmpl.u.s;
  size_t n = tmpl.len, i = 0;
  uint32_t ncap = fn_re_ncap(re);
  while (i < n) {
    if (t[i] != '$') {
      buf_putc(b, t[i++]);
      continue;
    }
    i++;
    if (i < n && t[i] == '$') {
      buf_putc(b, '$');
      i++;
      continue;
    }
    size_t ns, ne;
    bool brace = i < n && t[i] == '{';
    ns = brace ? i + 1 : i;
    ne = ns;
    while (ne < n && (t[ne] == '_' || (t[ne] >= '0' && t[ne] <= '9') ||
                      (t[ne] >= 'a' && t[ne] <= 'z') ||
                      (t[ne] >= 'A' && t[ne] <= 'Z')))
      ne++;
    if (ne == ns || (brace && (ne >= n || t[ne] != '}'))) {
      buf_putc(b, '$');   /* malformed: keep the dollar literally */
      continue;
    }
    i = brace ? ne + 1 : ne;
    /* A number names a group by index, anything else by name. */
    long gi = -1;
    bool num = true;
    for (size_t k = ns; k < ne; k++)
      if (t[k] < '0' || t[k] > '9')
        num = false;
    if (num) {
      gi = 0;
      for (size_t k = ns; k < ne && gi <= (long)ncap; k++)
        gi = gi * 10 + (t[k] - '0');
    } else {
      for (uint32_t g = 1; g <= ncap; g++) {
        const char *nm = fn_re_capname(re, g);
        if (nm && strlen(nm) == ne - ns && !memcmp(nm, t + ns, ne - ns))
          gi = (long)g;
      }
    }
    if (gi >= 0 && gi <= (long)ncap && caps[2 * gi] >= 0)
      buf_put(b, s + caps[2 * gi], (size_t)(caps[2 * gi + 1] - caps[2 * gi]));
  }
}

bool fn_replace(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Value s = a[0], sub = a[1], rep = a[2];
  Buf b;
  buf_init(&b, c->arena);
  if (sub.len >= 2 && sub.u.s[0] == '/' && sub.u.s[sub.len - 1] == '/') {
    const char *err;
    FnRe *re = fn_re_compile(c->arena, sub.u.s + 1, sub.len - 2, &err);
    if (!re) {
      const char *sep = strchr(err, '\x1f');
      return fn_error(c, "error parsing regexp: %.*s: `%s`",
                      (int)(sep - err), err, sep + 1);
    }
    long *caps = ARENA_NEW(c->arena, long, 2 * (fn_re_ncap(re) + 1));
    size_t pos = 0, last = 0;
    bool prev_empty_at = false;
    size_t prev_end = (size_t)-1;
    while (pos <= s.len) {
      if (!fn_re_match(re, c->arena, s.u.s, s.len, pos, caps))
        break;
      size_t ms = (size_t)caps[0], me = (size_t)caps[1];
      /* Go skips an empty match right after the previous match. */
      if (me == ms && ms == prev_end) {
        prev_empty_at = true;
      } else {
        buf_put(&b, s.u.s + last, ms - last);
        expand(&b, re, rep, s.u.s, caps);
        last = me;
        prev_end = me;
        prev_empty_at = false;
      }
      if (me > ms) {
        pos = me;
      } else {
        if (ms >= s.len)
          break;
        size_t l;
        fn_utf8_dec(s.u.s + ms, s.len - ms, &l);
        pos = ms + l;
      }
    }
    (void)prev_empty_at;
    buf_put(&b, s.u.s + last, s.len - last);
    *out = fn_buf_val(&b);
    return true;
  }
  if (sub.len == 0) {
    /* Go's strings.Replace with an empty old string inserts rep before
    ** every rune and at the end. */
    size_t i = 0;
    buf_put(&b, rep.u.s, rep.len);
    while (i < s.len) {
      size_t l;
      fn_utf8_dec(s.u.s + i, s.len - i, &l);
      buf_put(&b, s.u.s + i, l);
      buf_put(&b, rep.u.s, rep.len);
      i += l;
    }
    *out = fn_buf_val(&b);
    return true;
  }
  size_t i = 0;
  while (i < s.len) {
    const char *f = find(s.u.s + i, s.len - i, sub.u.s, sub.len);
    if (!f)
      break;
    size_t at = (size_t)(f - s.u.s);
    buf_put(&b, s.u.s + i, at - i);
    buf_put(&b, rep.u.s, rep.len);
    i = at + sub.len;
  }
  buf_put(&b, s.u.s + i, s.len - i);
  *out = fn_buf_val(&b);
  return true;
}

/* ---- regex / regexall ---------------------------------------------------------- */

/* The value for one match: a string without captures, a list of strings
** with unnamed captures, an object with named ones. */
static bool re_result(FnCall *c, const FnRe *re, const char *s,
                      const long *caps, Value *out)
{
  uint32_t nc = fn_re_ncap(re);
  if (nc == 0) {
    *out = val_str(c->arena, s + caps[0], (size_t)(caps[1] - caps[0]));
    return true;
  }
  bool named = fn_re_capname(re, 1) != NULL;
  Value *v = ARENA_NEW(c->arena, Value, nc);
  for (uint32_t i = 1; i <= nc; i++) {
    if (caps[2 * i] < 0)
      v[i - 1] = val_null(&ty_string);   /* group did not participate */
    else
      v[i - 1] = val_str(c->arena, s + caps[2 * i],
                         (size_t)(caps[2 * i + 1] - caps[2 * i]));
  }
  if (!named) {
    *out = val_tuple(c->arena, v, nc);
    return true;
  }
  const char **names = ARENA_NEW(c->arena, const char *, nc);
  for (uint32_t i = 1; i <= nc; i++)
    names[i - 1] = fn_re_capname(re, i);
  *out = val_object(c->arena, nc, names, v);
  return true;
}

static FnRe *re_for(FnCall *c, Value pat)
{
  const char *err;
  FnRe *re = fn_re_compile(c->arena, pat.u.s, pat.len, &err);
  if (!re) {
    const char *sep = strchr(err, '\x1f');
    fn_error(c, "invalid regexp pattern: %.*s in %s", (int)(sep - err), err,
             sep + 1);
    return NULL;
  }
  uint32_t nc = fn_re_ncap(re), named = 0;
  for (uint32_t i = 1; i <= nc; i++)
    if (fn_re_capname(re, i))
      named++;
  if (named && named != nc) {
    fn_error(c, "invalid regexp pattern: cannot mix both named and "
                "unnamed capture groups");
    return NULL;
  }
  return re;
}

bool fn_regex(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  FnRe *re = re_for(c, a[0]);
  if (!re)
    return false;
  long *caps = ARENA_NEW(c->arena, long, 2 * (fn_re_ncap(re) + 1));
  if (!fn_re_match(re, c->arena, a[1].u.s, a[1].len, 0, caps))
    return fn_error(c, "pattern did not match any part of the given string");
  return re_result(c, re, a[1].u.s, caps, out);
}

bool fn_regexall(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  FnRe *re = re_for(c, a[0]);
  if (!re)
    return false;
  uint32_t nc = fn_re_ncap(re);
  long *caps = ARENA_NEW(c->arena, long, 2 * (nc + 1));
  const char *s = a[1].u.s;
  size_t len = a[1].len, pos = 0, prev_end = (size_t)-1;
  uint32_t cnt = 0, cap = 8;
  Value *res = ARENA_NEW(c->arena, Value, cap);
  while (pos <= len) {
    if (!fn_re_match(re, c->arena, s, len, pos, caps))
      break;
    size_t ms = (size_t)caps[0], me = (size_t)caps[1];
    if (!(me == ms && ms == prev_end)) {
      if (cnt == cap) {
        res = arena_grow(c->arena, res, sizeof(Value), _Alignof(Value), cap,
                         cap * 2);
        cap *= 2;
      }
      re_result(c, re, s, caps, &res[cnt++]);
      prev_end = me;
    }
    if (me > ms) {
      pos = me;
    } else {
      if (ms >= len)
        break;
      size_t l;
      fn_utf8_dec(s + ms, len - ms, &l);
      pos = ms + l;
    }
  }
  if (cnt == 0) {
    const Type *et = &ty_string;
    if (nc) {
      if (fn_re_capname(re, 1)) {
        const char **names = ARENA_NEW(c->arena, const char *, nc);
        const Type **ts = ARENA_NEW(c->arena, const Type *, nc);
        for (uint32_t i = 1; i <= nc; i++) {
          names[i - 1] = fn_re_capname(re, i);
          ts[i - 1] = &ty_string;
        }
        et = ty_object(c->arena, nc, names, ts);
      } else {
        const Type **ts = ARENA_NEW(c->arena, const Type *, nc);
        for (uint32_t i = 0; i < nc; i++)
          ts[i] = &ty_string;
        et = ty_tuple(c->arena, nc, ts);
      }
    }
    *out = val_list(c->arena, et, NULL, 0);
    return true;
  }
  *out = val_list(c->arena, res[0].type, res, cnt);
  return true;
}

/* ---- format / formatlist -------------------------------------------------------- */

typedef struct Verb {
  const char *raw;
  size_t rawlen;
  size_t offset;
  int argnum;
  char mode;
  bool zero, sharp, plus, minus, space;
  long width;   /* -1: none */
  long prec;    /* -1: none */
} Verb;

/* A known number as decimal digits and a decimal point position:
** value = 0.d1d2d3... * 10^dp, digits without trailing zeros. */
typedef struct Dec {
  bool neg;
  char d[400];
  int nd;
  int dp;
} Dec;

static void dec_from_value(Arena *a, Value v, Dec *x)
{
  Buf b;
  buf_init(&b, a);
  val_num_format(&b, v);
  const char *s = buf_str(&b);
  memset(x, 0, sizeof *x);
  if (*s == '-') {
    x->neg = true;
    s++;
  }
  int intlen = 0, nd = 0;
  bool frac = false;
  for (; *s; s++) {
    if (*s == '.') {
      frac = true;
      continue;
    }
    if (*s < '0' || *s > '9')
      break;
    if (!frac)
      intlen++;
    if (nd == 0 && *s == '0') {   /* leading zero */
      intlen -= !frac;
      if (frac)
        intlen--;
      continue;
    }
    if (nd < (int)sizeof x->d - 1)
      x->d[nd++] = *s;
  }
  while (nd > 0 && x->d[nd - 1] == '0')
    nd--;
  x->nd = nd;
  x->dp = nd ? intlen : 0;
}

/* Rounds x to nd digits, half to even (Go's big.Float decimal rounding). */
static void dec_round(Dec *x, int nd)
{
  if (nd < 0) {
    x->nd = 0;
    return;
  }
  if (nd >= x->nd)
    return;
  bool up;
  if (x->d[nd] > '5')
    up = true;
  else if (x->d[nd] < '5')
    up = false;
  else if (nd + 1 < x->nd)
    up = true;
  else
    up = nd > 0 && ((x->d[nd - 1] - '0') & 1);
  x->nd = nd;
  if (up) {
    int i = nd - 1;
    while (i >= 0 && x->d[i] == '9')
      i--;
    if (i < 0) {
      x->d[0] = '1';
      x->nd = 1;
      x->dp++;
    } else {
      x->d[i]++;
      x->nd = i + 1;
    }
  }
  while (x->nd > 0 && x->d[x->nd - 1] == '0')
    x->nd--;
}

static char dig(const Dec *x, int i) { return i < x->nd && i >= 0 ? x->d[i] : '0'; }

static void put_f(Buf *b, const Dec *x0, long prec)
{
  Dec x = *x0;
  dec_round(&x, x.dp + (int)prec);
  if (x.nd == 0)
    x.dp = 0;
  if (x.dp <= 0)
    buf_putc(b, '0');
  for (int i = 0; i < x.dp; i++)
    buf_putc(b, dig(&x, i));
  if (prec > 0) {
    buf_putc(b, '.');
    for (long i = 0; i < prec; i++)
      buf_putc(b, dig(&x, x.dp + (int)i));
  }
}

static void put_e(Buf *b, const Dec *x0, long prec, char e, bool shortest)
{
  Dec x = *x0;
  if (!shortest)
    dec_round(&x, (int)prec + 1);
  else
    prec = x.nd > 0 ? x.nd - 1 : 0;
  buf_putc(b, x.nd ? x.d[0] : '0');
  if (prec > 0) {
    buf_putc(b, '.');
    for (long i = 1; i <= prec; i++)
      buf_putc(b, dig(&x, (int)i));
  }
  int exp = x.nd ? x.dp - 1 : 0;
  buf_putc(b, e);
  buf_putc(b, exp < 0 ? '-' : '+');
  if (exp < 0)
    exp = -exp;
  if (exp < 10)
    buf_putc(b, '0');
  buf_printf(b, "%d", exp);
}

/* Go's %g for big.Float (shortest when prec < 0). */
static void put_g(Buf *b, const Dec *x0, long prec, char e)
{
  Dec x = *x0;
  bool shortest = prec < 0;
  if (!shortest) {
    if (prec == 0)
      prec = 1;
    dec_round(&x, (int)prec);
  }
  long eprec = prec;
  if (eprec > x.nd && x.nd >= x.dp)
    eprec = x.nd;
  if (shortest)
    eprec = 6;
  int exp = x.dp - 1;
  if (x.nd == 0)
    exp = 0;
  if (exp < -4 || exp >= eprec) {
    if (prec > x.nd)
      prec = x.nd;
    put_e(b, &x, shortest ? -1 : prec - 1, e, shortest);
    return;
  }
  if (prec > x.dp)
    prec = x.nd;
  long fp = x.nd - x.dp;
  if (fp < 0)
    fp = 0;
  put_f(b, &x, fp);
}

static void pad(Buf *out, const Verb *v, const char *s, size_t n, bool zero_ok)
{
  size_t have = fn_graphemes(s, n);
  if (v->width < 0 || have >= (size_t)v->width) {
    buf_put(out, s, n);
    return;
  }
  size_t padn = (size_t)v->width - have;
  if (v->minus) {
    buf_put(out, s, n);
    for (size_t i = 0; i < padn; i++)
      buf_putc(out, ' ');
    return;
  }
  if (v->zero && zero_ok) {
    /* Zeros go after the sign. */
    size_t k = 0;
    if (n > 0 && (s[0] == '-' || s[0] == '+' || s[0] == ' '))
      buf_putc(out, s[k++]);
    for (size_t i = 0; i < padn; i++)
      buf_putc(out, '0');
    buf_put(out, s + k, n - k);
    return;
  }
  for (size_t i = 0; i < padn; i++)
    buf_putc(out, v->zero ? '0' : ' ');
  buf_put(out, s, n);
}

static bool fmt_number(FnCall *c, Buf *out, const Verb *v, Value arg,
                       const char **err)
{
  Dec x;
  dec_from_value(c->arena, arg, &x);
  Buf t;
  buf_init(&t, c->arena);
  if (x.neg)
    buf_putc(&t, '-');
  else if (v->plus)
    buf_putc(&t, '+');
  else if (v->space)
    buf_putc(&t, ' ');
  switch (v->mode) {
  case 'b':
  case 'd':
  case 'o':
  case 'x':
  case 'X': {
    int64_t i;
    if (!val_num_int(arg, &i)) {
      *err = "an integer is required";
      return false;
    }
    uint64_t u = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
    char digits[80];
    int nd = 0;
    unsigned base = v->mode == 'b' ? 2 : v->mode == 'o' ? 8 :
                    v->mode == 'd' ? 10 : 16;
    const char *alpha = v->mode == 'X' ? "0123456789ABCDEF"
                                       : "0123456789abcdef";
    do {
      digits[nd++] = alpha[u % base];
      u /= base;
    } while (u);
    if (v->sharp) {
      if (v->mode == 'b')
        buf_puts(&t, "0b");
      else if (v->mode == 'o' && digits[nd - 1] != '0')
        buf_putc(&t, '0');
      else if (v->mode == 'x')
        buf_puts(&t, "0x");
      else if (v->mode == 'X')
        buf_puts(&t, "0X");
    }
    for (long k = nd; k < v->prec; k++)
      buf_putc(&t, '0');
    if (v->prec == 0 && i == 0)
      nd = 0;
    while (nd > 0)
      buf_putc(&t, digits[--nd]);
    pad(out, v, t.p, t.len, v->prec < 0);
    return true;
  }
  case 'e':
  case 'E':
    put_e(&t, &x, v->prec < 0 ? 6 : v->prec, v->mode, false);
    break;
  case 'f':
    put_f(&t, &x, v->prec < 0 ? 6 : v->prec);
    break;
  case 'g':
  case 'G':
    put_g(&t, &x, v->prec, v->mode == 'g' ? 'e' : 'E');
    break;
  }
  pad(out, v, t.p, t.len, true);
  return true;
}

static bool fmt_one(FnCall *c, Buf *out, const Verb *v, const Value *args,
                    uint32_t nargs, const char **err)
{
  Arena *a = c->arena;
  if (v->argnum > (int)nargs) {
    *err = arena_printf(a, "not enough arguments for \"%.*s\" at %zu: need "
                           "index %d but have %u total",
                        (int)v->rawlen, v->raw, v->offset, v->argnum,
                        (unsigned)nargs);
    return false;
  }
  Value arg = args[v->argnum - 1];
  if (v->mode != 'v' && val_is_null(arg)) {
    *err = arena_printf(a, "unsupported value for \"%.*s\" at %zu: null value "
                           "cannot be formatted",
                        (int)v->rawlen, v->raw, v->offset);
    return false;
  }
  const char *cerr = NULL;
  Value cv;
  switch (v->mode) {
  case 'v':
    if (!v->sharp && !val_is_null(arg) && arg.type->kind == TY_STRING) {
      pad(out, v, arg.u.s, arg.len, false);
      return true;
    }
    if (!v->sharp && !val_is_null(arg) && arg.type->kind == TY_NUMBER) {
      Dec x;
      dec_from_value(a, arg, &x);
      Buf t;
      buf_init(&t, a);
      if (x.neg)
        buf_putc(&t, '-');
      put_g(&t, &x, -1, 'e');
      pad(out, v, t.p, t.len, false);
      return true;
    }
    {
      Buf t;
      buf_init(&t, a);
      Diags d;
      diag_init(&d, a);
      if (!json_write_value(&t, arg, arg.type, 0, &d)) {
        *err = arena_printf(a, "unsupported value for \"%.*s\" at %zu: %s",
                            (int)v->rawlen, v->raw, v->offset,
                            d.head ? d.head->summary : "cannot encode");
        return false;
      }
      pad(out, v, t.p ? t.p : "", t.len, false);
      return true;
    }
  case 't':
    if (!fn_convert(a, arg, &ty_bool, &cv, &cerr))
      break;
    buf_puts(out, cv.u.b ? "true" : "false");
    return true;
  case 'b': case 'd': case 'o': case 'x': case 'X':
  case 'e': case 'E': case 'f': case 'g': case 'G':
    if (!fn_convert(a, arg, &ty_number, &cv, &cerr))
      break;
    if (!fmt_number(c, out, v, cv, &cerr))
      break;
    return true;
  case 's':
  case 'q': {
    if (!fn_convert(a, arg, &ty_string, &cv, &cerr))
      break;
    size_t len = cv.len;
    if (v->prec > 0) {
      size_t pos = 0;
      for (long i = 0; i < v->prec && pos < len; i++)
        pos += fn_grapheme_len(cv.u.s + pos, len - pos);
      len = pos;
    }
    if (v->mode == 's') {
      pad(out, v, cv.u.s, len, false);
    } else {
      Buf t;
      buf_init(&t, a);
      json_write_string(&t, cv.u.s, len);
      pad(out, v, t.p, t.len, false);
    }
    return true;
  }
  default:
    *err = arena_printf(a, "unsupported format verb '%c' in \"%.*s\" at "
                           "offset %zu",
                        v->mode, (int)v->rawlen, v->raw, v->offset);
    return false;
  }
  *err = arena_printf(a, "unsupported value for \"%.*s\" at %zu: %s",
                      (int)v->rawlen, v->raw, v->offset, cerr);
  return false;
}

/* Parses the format string and formats args; on failure *err is the
** message and *errarg the argument index it concerns (-1: none). */
static bool format_str(FnCall *c, Value fmt, const Value *args,
                       uint32_t nargs, Buf *out, const char **err,
                       int *errarg)
{
  const char *s = fmt.u.s;
  size_t n = fmt.len, i = 0;
  int next_arg = 1, highest = 0;
  *errarg = -1;
  while (i < n) {
    if (s[i] != '%') {
      buf_putc(out, s[i++]);
      continue;
    }
    if (i + 1 < n && s[i + 1] == '%') {
      buf_putc(out, '%');
      i += 2;
      continue;
    }
    Verb v;
    memset(&v, 0, sizeof v);
    v.raw = s + i;
    v.offset = i;
    v.width = -1;
    v.prec = -1;
    size_t p = i + 1;
    for (; p < n; p++) {
      if (s[p] == ' ') v.space = true;
      else if (s[p] == '#') v.sharp = true;
      else if (s[p] == '+') v.plus = true;
      else if (s[p] == '-') v.minus = true;
      else if (s[p] == '0') v.zero = true;
      else break;
    }
    v.argnum = next_arg;
    if (p < n && s[p] == '[') {
      size_t q = p + 1;
      long idx = 0;
      while (q < n && s[q] >= '0' && s[q] <= '9' && idx < 100000)
        idx = idx * 10 + (s[q++] - '0');
      if (q == p + 1 || q >= n || s[q] != ']' || idx < 1) {
        *err = arena_printf(c->arena, "invalid format string starting at "
                                      "offset %zu", i);
        return false;
      }
      v.argnum = (int)idx;
      p = q + 1;
    }
    if (p < n && s[p] >= '1' && s[p] <= '9') {
      v.width = 0;
      while (p < n && s[p] >= '0' && s[p] <= '9' && v.width < 100000)
        v.width = v.width * 10 + (s[p++] - '0');
    }
    if (p < n && s[p] == '.') {
      p++;
      v.prec = 0;
      while (p < n && s[p] >= '0' && s[p] <= '9' && v.prec < 100000)
        v.prec = v.prec * 10 + (s[p++] - '0');
    }
    if (p >= n) {
      *err = arena_printf(c->arena, "invalid format string starting at "
                                    "offset %zu", i);
      return false;
    }
    size_t rl;
    uint32_t r = fn_utf8_dec(s + p, n - p, &rl);
    if (!((r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))) {
      Buf t;
      buf_init(&t, c->arena);
      buf_put_utf8(&t, r);
      *err = arena_printf(c->arena, "unrecognized format character '%s' at "
                                    "offset %zu", t.p, p);
      return false;
    }
    v.mode = (char)r;
    v.rawlen = p + 1 - i;
    if (!fmt_one(c, out, &v, args, nargs, err))
      return false;
    if (v.argnum > highest)
      highest = v.argnum;
    next_arg = v.argnum + 1;
    i = p + 1;
  }
  if (highest < (int)nargs) {
    *errarg = highest + 1;
    if (highest == 0)
      *err = "too many arguments; no verbs in format string";
    else
      *err = arena_printf(c->arena, "too many arguments; only %d used by "
                                    "format string", highest);
    return false;
  }
  return true;
}

bool fn_format(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  for (uint32_t i = 1; i < n; i++)
    if (!val_is_wholly_known(a[i])) {
      *out = val_unknown(&ty_string);
      return true;
    }
  Buf b;
  buf_init(&b, c->arena);
  const char *err;
  int ea;
  if (!format_str(c, a[0], a + 1, n - 1, &b, &err, &ea)) {
    if (ea >= 0)
      return fn_arg_error(c, ea, "%s", err);
    return fn_error(c, "%s", err);
  }
  *out = fn_buf_val(&b);
  return true;
}

bool fn_formatlist(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  uint32_t na = n - 1;
  const Value *args = a + 1;
  long iter = -1;
  uint32_t chooser = 0;
  bool unknown = false;
  for (uint32_t i = 0; i < na; i++) {
    Value v = args[i];
    if (fn_is_seq(v.type) && !val_is_null(v)) {
      if (val_is_unknown(v) && v.type->kind != TY_TUPLE) {
        unknown = true;
        continue;
      }
      long len = v.type->kind == TY_TUPLE ? (long)v.type->n : (long)v.len;
      if (iter < 0) {
        iter = len;
        chooser = i;
      } else if (len != iter) {
        return fn_arg_error(c, (int)i + 1, "argument %u has length %ld, which "
                            "is inconsistent with argument %u of length %ld",
                            (unsigned)i + 1, len, (unsigned)chooser + 1, iter);
      }
      if (val_is_unknown(v))
        unknown = true;
    } else if (v.type->kind == TY_DYNAMIC && val_is_unknown(v)) {
      unknown = true;
    }
  }
  if (unknown) {
    *out = val_unknown(&fn_ty_list_string);
    return true;
  }
  if (iter == 0) {
    *out = val_list(c->arena, &ty_string, NULL, 0);
    return true;
  }
  if (iter < 0)
    iter = 1;
  Value *res = ARENA_NEW(c->arena, Value, (size_t)iter);
  Value *fa = ARENA_NEW(c->arena, Value, na ? na : 1);
  for (long k = 0; k < iter; k++) {
    bool unk = false;
    for (uint32_t i = 0; i < na; i++) {
      Value v = args[i];
      if (fn_is_seq(v.type) && !val_is_null(v))
        fa[i] = v.u.elems[k];
      else
        fa[i] = v;
      if (!val_is_wholly_known(fa[i]))
        unk = true;
    }
    if (unk) {
      res[k] = val_unknown(&ty_string);
      continue;
    }
    Buf b;
    buf_init(&b, c->arena);
    const char *err;
    int ea;
    if (!format_str(c, a[0], fa, na, &b, &err, &ea)) {
      if (ea >= 0 && n > 1 && false)
        return fn_arg_error(c, ea, "%s", err);
      return fn_error(c, "error on format iteration %ld: %s", k, err);
    }
    res[k] = fn_buf_val(&b);
  }
  *out = val_list(c->arena, &ty_string, res, (uint32_t)iter);
  return true;
}

/* ---- templatestring --------------------------------------------------------------- */

bool fn_templatestring(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  if (!c->render_template)
    return fn_error(c, "templates are not available in this context");
  Value vars = a[1];
  if (!val_is_null(vars) && !fn_is_mapish(vars.type))
    return fn_arg_error(c, 1, "invalid vars value: must be a map");
  bool saved = c->in_template;
  c->in_template = true;
  bool ok = c->render_template(c, "<templatestring>", a[0].u.s, a[0].len,
                               vars, out);
  c->in_template = saved;
  return ok;
}
