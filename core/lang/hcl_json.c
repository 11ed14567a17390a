/*
** hcl_json: the HCL JSON syntax (.tf.json).  A strict JSON parser that
** keeps property order, duplicate names, exact numbers and source ranges
** (hcl/json's parser, with its diagnostics), and the conversion of JSON
** values to native expressions: strings are templates parsed by the native
** parser at their position in the file, unless the caller asks for
** literal-only interpretation.  Like the Go parser it stops at the first
** syntax error.  Nesting is limited to HCL_MAX_DEPTH.
*/
#include "hcl.h"

#include <string.h>

typedef struct J {
  Arena *a;
  const char *file;
  const unsigned char *s;
  size_t len, pos;
  SrcPos cur;
  Diags *d;
  bool failed;
  int depth;
} J;

typedef enum JTok {
  JT_OBRACE, JT_CBRACE, JT_OBRACK, JT_CBRACK, JT_COMMA, JT_COLON,
  JT_STRING, JT_NUMBER, JT_KEYWORD, JT_EQUALS, JT_INVALID, JT_EOF
} JTok;

typedef struct JT {
  JTok k;
  size_t b, e;             /* byte offsets into s */
  SrcRange r;
} JT;

static void adv(J *j, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    unsigned char c = j->s[j->pos + i];
    if (c == '\n') {
      j->cur.line++;
      j->cur.col = 1;
    } else if ((c & 0xC0) != 0x80) {
      j->cur.col++;
    }
  }
  j->pos += n;
  j->cur.byte += (uint32_t)n;
}

static void skip_ws(J *j)
{
  while (j->pos < j->len) {
    unsigned char c = j->s[j->pos];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
      adv(j, 1);
    else
      break;
  }
}

/* Scans the next token without consuming it (returns its extent). */
static JT scan(J *j)
{
  skip_ws(j);
  JT t;
  t.b = j->pos;
  t.r.file = j->file;
  t.r.start = j->cur;
  size_t n = 1;
  if (j->pos >= j->len) {
    t.k = JT_EOF;
    n = 0;
  } else {
    unsigned char c = j->s[j->pos];
    switch (c) {
    case '{': t.k = JT_OBRACE; break;
    case '}': t.k = JT_CBRACE; break;
    case '[': t.k = JT_OBRACK; break;
    case ']': t.k = JT_CBRACK; break;
    case ',': t.k = JT_COMMA; break;
    case ':': t.k = JT_COLON; break;
    case '=': t.k = JT_EQUALS; break;
    case '"': {
      size_t i = j->pos + 1;
      while (i < j->len && j->s[i] != '"') {
        if (j->s[i] == '\\' && i + 1 < j->len)
          i++;
        i++;
      }
      n = (i < j->len ? i + 1 : j->len) - j->pos;
      t.k = JT_STRING;
      break;
    }
    default:
      if (c == '-' || (c >= '0' && c <= '9')) {
        size_t i = j->pos;
        while (i < j->len &&
               (strchr("0123456789+-.eE", j->s[i]) != NULL && j->s[i] != 0))
          i++;
        n = i - j->pos;
        t.k = JT_NUMBER;
      } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 c == '_') {
        size_t i = j->pos;
        while (i < j->len &&
               ((j->s[i] >= 'a' && j->s[i] <= 'z') ||
                (j->s[i] >= 'A' && j->s[i] <= 'Z') ||
                (j->s[i] >= '0' && j->s[i] <= '9') || j->s[i] == '_'))
          i++;
        n = i - j->pos;
        t.k = JT_KEYWORD;
      } else {
        t.k = JT_INVALID;
        while (j->pos + n < j->len && (j->s[j->pos + n] & 0xC0) == 0x80)
          n++;
      }
    }
  }
  /* compute the end position without moving */
  size_t save = j->pos;
  SrcPos sc = j->cur;
  adv(j, n);
  t.e = j->pos;
  t.r.end = j->cur;
  j->pos = save;
  j->cur = sc;
  return t;
}

static void take(J *j, const JT *t)
{
  j->pos = t->e;
  j->cur = t->r.end;
}

static void fail(J *j, SrcRange r, const SrcRange *ctx, const char *sum,
                 const char *detail)
{
  Diag *g = diag_error(j->d, &r, sum, "%s", detail);
  if (ctx)
    diag_set_context(j->d, g, ctx);
  j->failed = true;
}

/* The Go parser's recovery: skips to the bracket closing the current
** container (open/close are the bracket kinds), starting with t. */
static void recover_json(J *j, JT t, JTok open, JTok close)
{
  int depth = 1;
  for (;;) {
    if (t.k == open) {
      depth++;
    } else if (t.k == close) {
      depth--;
      if (depth <= 1)
        return;
    } else if (t.k == JT_EOF) {
      return;
    }
    t = scan(j);
    take(j, &t);
  }
}

static HclJsonValue *newv(J *j, HclJsonKind k, SrcRange r)
{
  HclJsonValue *v = ARENA_NEW(j->a, HclJsonValue, 1);
  v->kind = k;
  v->range = r;
  v->open_range = r;
  return v;
}

static int hex4(const unsigned char *s)
{
  int v = 0;
  for (int i = 0; i < 4; i++) {
    int c = s[i], h;
    if (c >= '0' && c <= '9')
      h = c - '0';
    else if (c >= 'a' && c <= 'f')
      h = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      h = c - 'A' + 10;
    else
      return -1;
    v = v * 16 + h;
  }
  return v;
}

/* Decodes a string token; false (with a diagnostic) when malformed. */
static bool decode_string(J *j, const JT *t, const char **out, uint32_t *olen)
{
  const unsigned char *s = j->s;
  size_t i = t->b + 1, end = t->e;
  Buf b;
  buf_init(&b, j->a);
  size_t bad = (size_t)-1;
  if (end - t->b < 2 || s[end - 1] != '"') {
    bad = end - t->b;
    goto error;
  }
  end--;
  while (i < end) {
    unsigned char c = s[i];
    if (c < 0x20) {
      bad = i + 1 - t->b;
      goto error;
    }
    if (c != '\\') {
      size_t k = i;
      while (k < end && s[k] != '\\' && s[k] >= 0x20)
        k++;
      buf_put(&b, s + i, k - i);
      i = k;
      continue;
    }
    if (i + 1 >= end) {
      bad = i - t->b;
      goto error;
    }
    unsigned char e = s[i + 1];
    switch (e) {
    case '"': buf_putc(&b, '"'); break;
    case '\\': buf_putc(&b, '\\'); break;
    case '/': buf_putc(&b, '/'); break;
    case 'b': buf_putc(&b, '\b'); break;
    case 'f': buf_putc(&b, '\f'); break;
    case 'n': buf_putc(&b, '\n'); break;
    case 'r': buf_putc(&b, '\r'); break;
    case 't': buf_putc(&b, '\t'); break;
    case 'u': {
      int cp = i + 6 <= end ? hex4(s + i + 2) : -1;
      if (cp < 0) {
        size_t k = i + 2;
        while (k < end && k < i + 6 &&
               strchr("0123456789abcdefABCDEF", s[k]) && s[k])
          k++;
        bad = k + 1 - t->b;
        goto error;
      }
      i += 6;
      if (cp >= 0xD800 && cp < 0xDC00 && i + 6 <= end && s[i] == '\\' &&
          s[i + 1] == 'u') {
        int lo = hex4(s + i + 2);
        if (lo >= 0xDC00 && lo < 0xE000) {
          buf_put_utf8(&b, 0x10000 + (((uint32_t)cp - 0xD800) << 10) +
                           ((uint32_t)lo - 0xDC00));
          i += 6;
          continue;
        }
      }
      if (cp >= 0xD800 && cp < 0xE000)
        cp = 0xFFFD;
      buf_put_utf8(&b, (uint32_t)cp);
      continue;
    }
    default:
      bad = i + 2 - t->b;
      goto error;
    }
    i += 2;
  }
  *out = b.len ? b.p : arena_strdup(j->a, "");
  *olen = (uint32_t)b.len;
  return true;
error: {
  SrcRange r = t->r;
  r.start.byte += (uint32_t)bad;
  r.start.col += (uint32_t)bad;
  r.end = r.start;
  r.end.byte++;
  r.end.col++;
  fail(j, r, &t->r, "Invalid JSON string",
       "There is a syntax error in the given JSON string.");
  return false;
}
}

static bool valid_number(const unsigned char *s, size_t n)
{
  size_t i = 0;
  if (i < n && s[i] == '-')
    i++;
  if (i >= n)
    return false;
  if (s[i] == '0') {
    i++;
  } else if (s[i] >= '1' && s[i] <= '9') {
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++;
  } else {
    return false;
  }
  if (i < n && s[i] == '.') {
    i++;
    if (i >= n || s[i] < '0' || s[i] > '9')
      return false;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-'))
      i++;
    if (i >= n || s[i] < '0' || s[i] > '9')
      return false;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++;
  }
  return i == n;
}

static HclJsonValue *parse_value(J *j);

static HclJsonValue *parse_object(J *j)
{
  JT open = scan(j);
  take(j, &open);
  HclJsonProp *props = NULL;
  uint32_t n = 0, cap = 0;
  JT close;
  for (;;) {
    JT t = scan(j);
    if (t.k == JT_CBRACE) {
      close = t;
      take(j, &t);
      break;
    }
    HclJsonValue *kv = parse_value(j);
    if (!kv || kv->kind != HCL_J_STRING) {
      fail(j, t.r, NULL, "Invalid object property name",
           "A JSON object property name must be a string");
      return NULL;
    }
    JT colon = scan(j);
    take(j, &colon);
    if (colon.k != JT_COLON) {
      recover_json(j, colon, JT_OBRACE, JT_CBRACE);
      if (colon.k == JT_COMMA || colon.k == JT_CBRACE)
        fail(j, colon.r, NULL, "Missing object value",
             "A JSON object attribute must have a value, introduced by a "
             "colon.");
      else if (colon.k == JT_EQUALS)
        fail(j, colon.r, NULL, "Missing property value colon",
             "JSON uses a colon as its name/value delimiter, not an equals "
             "sign.");
      else
        fail(j, colon.r, NULL, "Missing property value colon",
             "A colon must appear between an object property's name and its "
             "value.");
      return NULL;
    }
    HclJsonValue *v = parse_value(j);
    if (!v)
      v = newv(j, HCL_J_NULL, colon.r);
    if (n == cap) {
      uint32_t nc = cap ? cap * 2 : 8;
      props = arena_grow(j->a, props, sizeof(HclJsonProp),
                         _Alignof(HclJsonProp), cap, nc);
      cap = nc;
    }
    props[n].name = kv->u.str.s;
    props[n].name_len = kv->u.str.len;
    props[n].name_range = kv->range;
    props[n].value = v;
    n++;
    JT sep = scan(j);
    if (sep.k == JT_COMMA) {
      take(j, &sep);
      if (scan(j).k == JT_CBRACE) {
        fail(j, sep.r, NULL, "Trailing comma in object",
             "JSON does not permit a trailing comma after the final property "
             "in an object.");
        return NULL;
      }
      continue;
    }
    if (sep.k == JT_CBRACE)
      continue;
    if (sep.k == JT_EOF) {
      fail(j, open.r, NULL, "Unclosed object",
           "No closing brace was found for this JSON object.");
    } else if (sep.k == JT_CBRACK) {
      take(j, &sep);
      fail(j, scan(j).r, NULL, "Mismatched braces",
           "A JSON object must be closed with a brace, not a bracket.");
    } else {
      take(j, &sep);
      recover_json(j, sep, JT_OBRACE, JT_CBRACE);
      fail(j, scan(j).r, NULL, "Missing attribute seperator comma",
           "A comma must appear between each property definition in an "
           "object.");
    }
    return NULL;
  }
  SrcRange all = open.r;
  all.end = close.r.end;
  HclJsonValue *o = newv(j, HCL_J_OBJECT, all);
  o->open_range = open.r;
  o->u.obj.props = props;
  o->u.obj.n = n;
  return o;
}

static HclJsonValue *parse_array(J *j)
{
  JT open = scan(j);
  take(j, &open);
  const HclJsonValue **items = NULL;
  uint32_t n = 0, cap = 0;
  JT close;
  for (;;) {
    JT t = scan(j);
    if (t.k == JT_CBRACK) {
      close = t;
      take(j, &t);
      break;
    }
    HclJsonValue *v = parse_value(j);
    if (!v)
      v = newv(j, HCL_J_NULL, t.r);
    if (n == cap) {
      uint32_t nc = cap ? cap * 2 : 8;
      items = arena_grow(j->a, items, sizeof(HclJsonValue *),
                         _Alignof(HclJsonValue *), cap, nc);
      cap = nc;
    }
    items[n++] = v;
    JT sep = scan(j);
    if (sep.k == JT_COMMA) {
      take(j, &sep);
      if (scan(j).k == JT_CBRACK) {
        fail(j, sep.r, NULL, "Trailing comma in array",
             "JSON does not permit a trailing comma after the final value in "
             "an array.");
        return NULL;
      }
      continue;
    }
    if (sep.k == JT_CBRACK)
      continue;
    take(j, &sep);
    recover_json(j, sep, JT_OBRACK, JT_CBRACK);
    if (sep.k == JT_COLON)
      fail(j, scan(j).r, NULL, "Invalid array value",
           "A colon is not used to introduce values in a JSON array.");
    else if (sep.k == JT_EOF)
      fail(j, open.r, NULL, "Unclosed object",
           "No closing bracket was found for this JSON array.");
    else if (sep.k == JT_CBRACE)
      fail(j, scan(j).r, NULL, "Mismatched brackets",
           "A JSON array must be closed with a bracket, not a brace.");
    else
      fail(j, scan(j).r, NULL, "Missing attribute seperator comma",
           "A comma must appear between each value in an array.");
    return NULL;
  }
  SrcRange all = open.r;
  all.end = close.r.end;
  HclJsonValue *a = newv(j, HCL_J_ARRAY, all);
  a->open_range = open.r;
  a->u.arr.items = items;
  a->u.arr.n = n;
  return a;
}

static HclJsonValue *parse_value_inner(J *j)
{
  JT t = scan(j);
  switch (t.k) {
  case JT_OBRACE:
    return parse_object(j);
  case JT_OBRACK:
    return parse_array(j);
  case JT_NUMBER: {
    take(j, &t);
    Value v;
    if (!valid_number(j->s + t.b, t.e - t.b) ||
        !val_parse_number(j->a, (const char *)j->s + t.b, t.e - t.b, true,
                          &v)) {
      fail(j, t.r, NULL, "Invalid JSON number",
           "There is a syntax error in the given JSON number.");
      return NULL;
    }
    HclJsonValue *jv = newv(j, HCL_J_NUMBER, t.r);
    jv->u.num = v;
    return jv;
  }
  case JT_STRING: {
    take(j, &t);
    HclJsonValue *jv = newv(j, HCL_J_STRING, t.r);
    if (!decode_string(j, &t, &jv->u.str.s, &jv->u.str.len))
      return NULL;
    return jv;
  }
  case JT_KEYWORD: {
    take(j, &t);
    const char *s = (const char *)j->s + t.b;
    size_t n = t.e - t.b;
    if (n == 4 && memcmp(s, "true", 4) == 0) {
      HclJsonValue *jv = newv(j, HCL_J_BOOL, t.r);
      jv->u.b = true;
      return jv;
    }
    if (n == 5 && memcmp(s, "false", 5) == 0)
      return newv(j, HCL_J_BOOL, t.r);
    if (n == 4 && memcmp(s, "null", 4) == 0)
      return newv(j, HCL_J_NULL, t.r);
    const char *word = arena_strndup(j->a, s, n);
    j->failed = true;
    {
      if (strcmp(word, "undefined") == 0 || strcmp(word, "NaN") == 0 ||
          strcmp(word, "Infinity") == 0) {
        diag_error(j->d, &t.r, "Invalid JSON keyword",
                   "The JavaScript identifier \"%s\" cannot be used in JSON.",
                   word);
      } else {
        static const char *const kws[] = {"true", "false", "null"};
        const char *sg = hcl_name_suggestion(word, kws, 3);
        diag_error(j->d, &t.r, "Invalid JSON keyword",
                   "\"%s\" is not a valid JSON keyword.%s%s%s", word,
                   sg ? " Did you mean \"" : "", sg ? sg : "",
                   sg ? "\"?" : "");
      }
    }
    return NULL;
  }
  case JT_CBRACE:
    fail(j, t.r, NULL, "Missing JSON value",
         "A JSON value must start with a brace, a bracket, a number, a "
         "string, or a keyword.");
    return NULL;
  case JT_CBRACK:
    fail(j, t.r, NULL, "Missing array element value",
         "A JSON value must start with a brace, a bracket, a number, a "
         "string, or a keyword.");
    return NULL;
  case JT_EOF:
    fail(j, t.r, NULL, "Missing value", "The JSON data ends prematurely.");
    return NULL;
  default:
    fail(j, t.r, NULL, "Invalid start of value",
         "A JSON value must start with a brace, a bracket, a number, a "
         "string, or a keyword.");
    return NULL;
  }
}

static HclJsonValue *parse_value(J *j)
{
  if (j->depth >= HCL_MAX_DEPTH) {
    JT t = scan(j);
    fail(j, t.r, NULL, "Nesting too deep",
         "This JSON value is nested more deeply than the supported limit of "
         "500 levels.");
    return NULL;
  }
  j->depth++;
  HclJsonValue *v = parse_value_inner(j);
  j->depth--;
  return v;
}

HclFile *hcl_parse_json_file(Arena *a, const char *file, const char *src,
                             size_t len, Diags *d)
{
  J j;
  memset(&j, 0, sizeof j);
  j.a = a;
  j.file = arena_strdup(a, file ? file : "");
  j.s = (const unsigned char *)src;
  j.len = len;
  j.cur.line = 1;
  j.cur.col = 1;
  j.d = d;
  if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0) {
    j.pos = 3;
    j.cur.byte = 3;
  }
  SrcRange first = scan(&j).r;
  HclJsonValue *root = parse_value(&j);
  if (!j.failed) {
    JT t = scan(&j);
    if (t.k != JT_EOF)
      fail(&j, t.r, NULL, "Extraneous data after value",
           "Extra characters appear after the JSON value.");
  }
  if (!root || (root->kind != HCL_J_OBJECT && root->kind != HCL_J_ARRAY)) {
    SrcRange r = root ? root->range : first;
    if (root && (root->kind == HCL_J_OBJECT || root->kind == HCL_J_ARRAY))
      r = root->open_range;
    diag_error(d, &r, "Root value must be object",
               "The root value in a JSON-based configuration must be either "
               "a JSON object or a JSON array of objects.");
    root = NULL;
  }
  if (!root) {
    SrcPos z = {1, 1, 0};
    SrcRange r = {j.file, z, z};
    root = newv(&j, HCL_J_OBJECT, r);
  }
  HclFile *f = ARENA_NEW(a, HclFile, 1);
  f->name = j.file;
  f->src = src;
  f->len = (uint32_t)len;
  HclBody *b = ARENA_NEW(a, HclBody, 1);
  b->json = true;
  b->jv = root;
  b->range = root->range;
  f->body = b;
  return f;
}

/* ---- JSON value -> native expression -------------------------------------- */

static HclExpr *mk(Arena *a, HclExprKind k, SrcRange r)
{
  HclExpr *e = ARENA_NEW(a, HclExpr, 1);
  e->kind = k;
  e->range = r;
  return e;
}

static bool has_seq(const char *s, uint32_t n)
{
  for (uint32_t i = 0; i + 1 < n; i++)
    if ((s[i] == '$' || s[i] == '%') && s[i + 1] == '{')
      return true;
  return false;
}

static HclExpr *json_string(Arena *a, const char *s, uint32_t n,
                            SrcRange r, bool literal_only, Diags *d)
{
  if (literal_only || !has_seq(s, n)) {
    HclExpr *e = mk(a, HCL_E_LITERAL, r);
    e->u.lit = val_str_ref(s, n);
    return e;
  }
  SrcPos start = r.start;
  start.col++;
  start.byte++;
  Diags local;
  diag_init(&local, a);
  HclExpr *t = hcl_parse_template_at(a, r.file, s, n, start, &local);
  bool bad = diag_has_errors(&local);
  diag_move(d, &local);
  if (bad) {
    HclExpr *e = mk(a, HCL_E_LITERAL, r);
    e->u.lit = val_dynamic_unknown;
    return e;
  }
  return t;
}

static HclExpr *conv(Arena *a, const HclJsonValue *v, bool lit, Diags *d)
{
  HclExpr *e;
  switch (v->kind) {
  case HCL_J_NULL:
    e = mk(a, HCL_E_LITERAL, v->range);
    e->u.lit = val_dynamic_null;
    return e;
  case HCL_J_BOOL:
    e = mk(a, HCL_E_LITERAL, v->range);
    e->u.lit = val_bool(v->u.b);
    return e;
  case HCL_J_NUMBER:
    e = mk(a, HCL_E_LITERAL, v->range);
    e->u.lit = v->u.num;
    return e;
  case HCL_J_STRING:
    return json_string(a, v->u.str.s, v->u.str.len, v->range, lit, d);
  case HCL_J_ARRAY:
    e = mk(a, HCL_E_TUPLE, v->range);
    e->u.tuple.items = ARENA_NEW(a, HclExpr *, v->u.arr.n + 1);
    e->u.tuple.n = v->u.arr.n;
    e->u.tuple.open_range = v->open_range;
    for (uint32_t i = 0; i < v->u.arr.n; i++)
      e->u.tuple.items[i] = conv(a, v->u.arr.items[i], lit, d);
    return e;
  case HCL_J_OBJECT:
    e = mk(a, HCL_E_OBJECT, v->range);
    e->u.object.items = ARENA_NEW(a, HclObjectItem, v->u.obj.n + 1);
    e->u.object.n = v->u.obj.n;
    e->u.object.open_range = v->open_range;
    e->u.object.unique_keys = true;
    for (uint32_t i = 0; i < v->u.obj.n; i++) {
      const HclJsonProp *pp = &v->u.obj.props[i];
      HclObjectItem *it = &e->u.object.items[i];
      it->key = json_string(a, pp->name, pp->name_len, pp->name_range, lit, d);
      it->key->range = pp->name_range;
      it->value = conv(a, pp->value, lit, d);
      it->key_parens = true;
    }
    return e;
  }
  return NULL;
}

HclExpr *hcl_json_to_expr(Arena *a, const HclExpr *e, bool literal_only,
                          Diags *d)
{
  if (e->kind != HCL_E_JSON)
    return (HclExpr *)e;
  return conv(a, e->u.json, literal_only, d);
}
