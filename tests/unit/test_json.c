/*
** test_json: core/base/json.h: generic parse (implied types, literals kept,
** duplicate keys, interning), malformed input (diagnostics with
** positions, truncation at every byte, deep nesting, UTF-8), typed decode
** with go-cty's rules, cty type syntax, and the Go-compatible writer.
*/
#include <stdint.h>
#include <string.h>

#include "base/diag.h"
#include "base/json.h"
#include "base/value.h"
#include "t.h"

static Arena A;

static Value parse_ok(const char *s)
{
  Diags d;
  diag_init(&d, &A);
  Value v;
  bool ok = json_parse(&A, s, strlen(s), &v, &d, NULL);
  T_CHECK(ok);
  T_EQ_INT(d.errors, 0);
  if (!ok && d.head)
    fprintf(stderr, "  parse of %s: %s: %s\n", s, d.head->summary,
            d.head->detail);
  return v;
}

/* Parses n bytes that must fail; returns the single diagnostic. */
static const Diag *parse_bad_n(const char *s, size_t n, unsigned flags)
{
  Diags d;
  diag_init(&d, &A);
  Value v;
  JsonOpts o = {0};
  o.flags = flags;
  o.file = "test.json";
  bool ok = json_parse(&A, s, n, &v, &d, &o);
  T_CHECK(!ok);
  T_EQ_INT(d.errors, 1);
  T_CHECK(val_is_null(v));
  if (ok)
    fprintf(stderr, "  unexpectedly parsed: %.*s\n", (int)n, s);
  static const Diag none = {0};
  return d.head ? d.head : &none;
}

static const Diag *parse_bad(const char *s)
{
  return parse_bad_n(s, strlen(s), 0);
}

static const char *write_v(Value v, unsigned flags)
{
  Buf b;
  buf_init(&b, &A);
  Diags d;
  diag_init(&d, &A);
  T_CHECK(json_write_value(&b, v, NULL, flags, &d));
  T_EQ_INT(d.errors, 0);
  return buf_str(&b);
}

static void roundtrip(const char *s, unsigned flags)
{
  Value v = parse_ok(s);
  T_EQ_STR(write_v(v, flags), s);
}

static const char *str_of(Value v)
{
  T_CHECK(v.type == &ty_string);
  return v.type == &ty_string ? v.u.s : "";
}

static const char *type_str(const Type *t)
{
  Buf b;
  buf_init(&b, &A);
  json_write_type(&b, t);
  return buf_str(&b);
}

/* ---- Generic parse ------------------------------------------------------- */

static void test_parse_scalars(void)
{
  Value v = parse_ok("  \"hi\"\n");
  T_EQ_STR(str_of(v), "hi");
  T_EQ_INT(v.len, 2);
  v = parse_ok("true");
  T_CHECK(v.type == &ty_bool && v.u.b);
  v = parse_ok("false");
  T_CHECK(v.type == &ty_bool && !v.u.b);
  v = parse_ok("null");
  T_CHECK(v.type == &ty_dynamic && val_is_null(v));
  v = parse_ok("42");
  int64_t i = 0;
  T_CHECK(v.type == &ty_number && !(v.flags & VF_NUMLIT));
  T_CHECK(val_num_int(v, &i) && i == 42);
  v = parse_ok("-9223372036854775808");
  T_CHECK(val_num_int(v, &i) && i == INT64_MIN);
  v = parse_ok("123456789012345678");
  T_CHECK(!(v.flags & VF_NUMLIT) && val_num_int(v, &i) &&
          i == 123456789012345678LL);
  v = parse_ok("1.50");
  T_CHECK(v.flags & VF_NUMLIT);
  T_CHECK(val_num_double(v) == 1.5);
  v = parse_ok("-0");
  T_CHECK(v.type == &ty_number);
}

static void test_parse_objects(void)
{
  Value v = parse_ok("{\"b\": 1, \"a\": [true, \"x\", null], \"c\": {}}");
  T_EQ_INT(v.type->kind, TY_OBJECT);
  T_EQ_INT(v.type->n, 3);
  T_EQ_INT(v.len, 3);
  T_EQ_STR(v.type->names[0], "a");
  T_EQ_STR(v.type->names[1], "b");
  T_EQ_STR(v.type->names[2], "c");
  Value a = v.u.elems[0];
  T_EQ_INT(a.type->kind, TY_TUPLE);
  T_EQ_INT(a.len, 3);
  T_CHECK(a.type->types[0] == &ty_bool);
  T_CHECK(a.type->types[2] == &ty_dynamic);
  T_CHECK(v.u.elems[2].type == &ty_empty_object);
  bool found = false;
  Value b = val_attr(v, "b", &found);
  T_CHECK(found && b.type == &ty_number);
  /* Same as value.c's own constructors would build. */
  const char *names[] = {"c", "a", "b"};
  Value vals[] = {v.u.elems[2], v.u.elems[0], v.u.elems[1]};
  Value w = val_object(&A, 3, names, vals);
  T_CHECK(ty_equal(w.type, v.type));
  T_CHECK(val_raw_equal(w, v, true));
  Value e = parse_ok("[]");
  T_CHECK(e.type == &ty_empty_tuple && e.len == 0);
}

static void test_duplicate_keys_last_wins(void)
{
  Value v = parse_ok("{\"a\":1,\"b\":2,\"a\":\"three\"}");
  T_EQ_INT(v.type->n, 2);
  T_EQ_STR(v.type->names[0], "a");
  T_EQ_STR(str_of(v.u.elems[0]), "three");
  T_CHECK(v.type->types[0] == &ty_string);
  /* Many keys out of order, with repeats: sorted, unique, last wins. */
  Buf b;
  buf_init(&b, &A);
  buf_putc(&b, '{');
  for (int i = 0; i < 100; i++)
    buf_printf(&b, "%s\"k%02d\":%d", i ? "," : "", (i * 37) % 50, i);
  buf_putc(&b, '}');
  v = parse_ok(buf_str(&b));
  T_EQ_INT(v.type->n, 50);
  for (uint32_t i = 1; i < v.type->n; i++)
    T_CHECK(strcmp(v.type->names[i - 1], v.type->names[i]) < 0);
  int64_t x = 0;
  T_EQ_STR(v.type->names[0], "k00");
  T_CHECK(val_num_int(v.u.elems[0], &x) && x == 50);
}

static void test_type_interning(void)
{
  Value v = parse_ok("[{\"a\":1,\"b\":[\"x\"]},{\"b\":[\"y\"],\"a\":2},"
                     "{\"a\":\"s\",\"b\":[]}]");
  T_EQ_INT(v.len, 3);
  T_CHECK(v.u.elems[0].type == v.u.elems[1].type);
  T_CHECK(v.u.elems[0].type != v.u.elems[2].type);
  T_CHECK(v.u.elems[0].type->types[1] == v.u.elems[1].type->types[1]);
}

static void test_large_documents(void)
{
  /* 20000 keys in descending order plus repeats: table growth, merge sort,
  ** last-wins deduplication. */
  Buf b;
  buf_init(&b, &A);
  buf_putc(&b, '{');
  for (int i = 19999; i >= 0; i--)
    buf_printf(&b, "\"key_%05d\":%d,", i, i);
  for (int i = 0; i < 100; i++)
    buf_printf(&b, "\"key_%05d\":\"dup\",", i * 7);
  b.p[b.len - 1] = '}';
  Value v = parse_ok(buf_str(&b));
  T_EQ_INT(v.type->n, 20000);
  bool sorted = true;
  for (uint32_t i = 1; i < v.type->n; i++)
    sorted = sorted && strcmp(v.type->names[i - 1], v.type->names[i]) < 0;
  T_CHECK(sorted);
  T_EQ_STR(str_of(v.u.elems[693]), "dup");
  int64_t x = 0;
  T_CHECK(val_num_int(v.u.elems[694], &x) && x == 694);
  /* An array of 10000 same-shaped objects shares one object type. */
  Buf c;
  buf_init(&c, &A);
  buf_putc(&c, '[');
  for (int i = 0; i < 10000; i++)
    buf_printf(&c, "%s{\"id\":\"%d\",\"n\":[%d,true]}", i ? "," : "", i, i);
  buf_putc(&c, ']');
  v = parse_ok(buf_str(&c));
  T_EQ_INT(v.len, 10000);
  bool shared = true;
  for (uint32_t i = 1; i < v.len; i++)
    shared = shared && v.u.elems[i].type == v.u.elems[0].type;
  T_CHECK(shared);
  T_EQ_STR(write_v(v, 0), buf_str(&c));
}

/* Documents over 4 KiB predict each object key from the key last read at
** the same depth and position, and each container's type from the last
** one closed at its depth (json.c): keys that only share a prefix with
** the prediction, escaped spellings of it, duplicates, a shape that
** changes, and objects deeper and longer than the tables. */
static void test_key_prediction(void)
{
  static const char *const objs[] = {
    "{\"id\":1,\"name\":\"a\"}",
    "{\"id\":2,\"nam\":\"b\"}",        /* prefix of the prediction */
    "{\"id\":3,\"names\":\"c\"}",      /* the prediction is a prefix */
    "{\"i\\u0064\":4,\"name\":\"d\"}", /* escaped "id" */
    "{\"id\":5,\"name\":6}",           /* same keys, other type */
    "{\"name\":\"f\",\"id\":7}",       /* other order */
    "{\"id\":8,\"id\":\"h\"}",         /* duplicate: last wins */
    "{\"id\":9,\"name\":\"i\"}",
  };
  Buf b;
  buf_init(&b, &A);
  buf_puts(&b, "{\"deep\":[[[[[[[[[[{\"x\":{\"k0\":0,\"k1\":1,\"k2\":2,"
              "\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,"
              "\"k9\":9,\"ka\":10,\"kb\":11,\"kc\":12,\"kd\":13,"
              "\"ke\":14,\"kf\":15,\"kg\":16,\"kh\":17}}]]]]]]]]]],"
              "\"list\":[");
  for (int i = 0; i < 400; i++)
    buf_printf(&b, "%s%s", i ? "," : "", objs[i % 8]);
  buf_puts(&b, "]}");
  T_CHECK(b.len > 4096);
  Value v = parse_ok(buf_str(&b));
  Value l = val_attr(v, "list", NULL);
  T_EQ_INT(l.len, 400);
  int64_t x = 0;
  for (uint32_t i = 0; i < l.len; i += 8) {
    const Value *o = &l.u.elems[i];
    T_EQ_INT(o[0].type->n, 2);
    T_EQ_STR(o[0].type->names[1], "name");
    T_EQ_STR(o[1].type->names[1], "nam");
    T_EQ_STR(o[2].type->names[1], "names");
    T_CHECK(o[3].type == o[0].type);   /* "i\u0064" is "id" */
    T_CHECK(o[3].type->names[0] == o[0].type->names[0]);
    T_CHECK(val_num_int(val_attr(o[3], "id", NULL), &x) && x == 4);
    T_CHECK(o[4].type != o[0].type);
    T_CHECK(o[4].type->types[1] == &ty_number);
    T_CHECK(o[5].type == o[0].type);
    T_CHECK(val_num_int(val_attr(o[5], "id", NULL), &x) && x == 7);
    T_EQ_INT(o[6].type->n, 1);
    T_EQ_STR(str_of(o[6].u.elems[0]), "h");
    T_CHECK(o[7].type == o[0].type);
    T_EQ_STR(str_of(val_attr(o[7], "name", NULL)), "i");
  }
  Value d = val_attr(v, "deep", NULL);
  for (int i = 0; i < 10; i++)
    d = d.u.elems[0];
  d = val_attr(d, "x", NULL);
  T_EQ_INT(d.type->n, 18);
  T_CHECK(val_num_int(val_attr(d, "kh", NULL), &x) && x == 17);
}

static void test_strings_and_escapes(void)
{
  Value v = parse_ok("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"");
  T_EQ_STR(str_of(v), "a\"b\\c/d\b\f\n\r\t");
  v = parse_ok("\"\\u00e9\\u20AC\"");
  T_EQ_STR(str_of(v), "\xc3\xa9\xe2\x82\xac");
  v = parse_ok("\"\\ud83d\\ude00\"");
  T_EQ_STR(str_of(v), "\xf0\x9f\x98\x80");
  /* Lone surrogates become U+FFFD (Go's encoding/json). */
  v = parse_ok("\"\\ud800\"");
  T_EQ_STR(str_of(v), "\xef\xbf\xbd");
  v = parse_ok("\"\\udc00x\"");
  T_EQ_STR(str_of(v), "\xef\xbf\xbdx");
  v = parse_ok("\"\\ud800\\u0041\"");
  T_EQ_STR(str_of(v), "\xef\xbf\xbd" "A");
  v = parse_ok("\"\\ud800\\ud800\\udc00\"");
  T_EQ_STR(str_of(v), "\xef\xbf\xbd\xf0\x90\x80\x80");
  /* NUL inside a string value is fine. */
  v = parse_ok("\"a\\u0000b\"");
  T_EQ_INT(v.len, 3);
  T_CHECK(memcmp(v.u.s, "a\0b", 4) == 0);
  /* Long strings cross the 8-byte scanning blocks. */
  v = parse_ok("\"0123456789abcdefghijklmnopqrstuvwxyz\\n0123456789\"");
  T_EQ_STR(str_of(v), "0123456789abcdefghijklmnopqrstuvwxyz\n0123456789");
  v = parse_ok("\"caf\xc3\xa9 na\xc3\xafve \xe2\x82\xac \xf0\x9f\x98\x80\"");
  T_EQ_STR(str_of(v), "caf\xc3\xa9 na\xc3\xafve \xe2\x82\xac \xf0\x9f\x98\x80");
}

static void test_invalid_utf8(void)
{
  /* Default: replaced byte by byte, like Go. */
  Value v = parse_ok("\"a\xff" "b\"");
  T_EQ_STR(str_of(v), "a\xef\xbf\xbd" "b");
  v = parse_ok("\"\xe2\x82\"");   /* truncated sequence: 2 bad bytes */
  T_EQ_STR(str_of(v), "\xef\xbf\xbd\xef\xbf\xbd");
  v = parse_ok("\"\xc0\xaf\"");   /* overlong */
  T_EQ_STR(str_of(v), "\xef\xbf\xbd\xef\xbf\xbd");
  v = parse_ok("\"\xed\xa0\x80\"");   /* encoded surrogate */
  T_EQ_STR(str_of(v), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  v = parse_ok("\"\xf4\x90\x80\x80\"");   /* above U+10FFFF */
  T_EQ_INT(v.len, 12);
  /* Strict mode: an error with the offending byte's position. */
  const char *s = "{\"k\": \"ab\xff\"}";
  const Diag *g = parse_bad_n(s, strlen(s), JSON_STRICT_UTF8);
  T_EQ_STR(g->summary, "Invalid UTF-8 in string");
  T_EQ_INT(g->subject.start.byte, 9);
  g = parse_bad_n("\"\xc3\"", 3, JSON_STRICT_UTF8);
  T_EQ_STR(g->summary, "Invalid UTF-8 in string");
}

/* ---- Malformed input ----------------------------------------------------- */

static void test_malformed(void)
{
  static const struct {
    const char *in;
    const char *summary;
  } cases[] = {
    {"", "Invalid JSON: unexpected end of input"},
    {"   ", "Invalid JSON: unexpected end of input"},
    {"x", "Invalid JSON: unexpected character 'x'"},
    {"{", "Invalid JSON: unexpected end of input"},
    {"[", "Invalid JSON: unexpected end of input"},
    {"}", "Invalid JSON: unexpected character '}'"},
    {"]", "Invalid JSON: unexpected character ']'"},
    {"[1,]", "Invalid JSON: unexpected character ']'"},
    {"[,1]", "Invalid JSON: unexpected character ','"},
    {"[1 2]", "Invalid JSON: unexpected character '2'"},
    {"{\"a\"}", "Invalid JSON: unexpected character '}'"},
    {"{\"a\" 1}", "Invalid JSON: unexpected character '1'"},
    {"{\"a\":}", "Invalid JSON: unexpected character '}'"},
    {"{\"a\":1,}", "Invalid JSON: unexpected character '}'"},
    {"{a:1}", "Invalid JSON: unexpected character 'a'"},
    {"{'a':1}", "Invalid JSON: unexpected character \"'\""},
    {"{1:1}", "Invalid JSON: unexpected character '1'"},
    {"{\"a\":1 \"b\":2}", "Invalid JSON: unexpected character '\"'"},
    {"[1}", "Invalid JSON: unexpected character '}'"},
    {"{\"a\":1]", "Invalid JSON: unexpected character ']'"},
    {"tru", "Invalid JSON: unexpected end of input"},
    {"trUe", "Invalid JSON: unexpected character 'U'"},
    {"nul", "Invalid JSON: unexpected end of input"},
    {"nulll", "Trailing data after JSON value"},
    {"falsy", "Invalid JSON: unexpected character 'y'"},
    {"True", "Invalid JSON: unexpected character 'T'"},
    {"NaN", "Invalid JSON: unexpected character 'N'"},
    {"Infinity", "Invalid JSON: unexpected character 'I'"},
    {"-", "Invalid number"},
    {"-x", "Invalid number"},
    {"1.", "Invalid number"},
    {"1.e5", "Invalid number"},
    {"1e", "Invalid number"},
    {"1e+", "Invalid number"},
    {".5", "Invalid JSON: unexpected character '.'"},
    {"+1", "Invalid JSON: unexpected character '+'"},
    {"01", "Trailing data after JSON value"},
    {"0x10", "Trailing data after JSON value"},
    {"1 2", "Trailing data after JSON value"},
    {"{} {}", "Trailing data after JSON value"},
    {"[1]x", "Trailing data after JSON value"},
    {"\"abc", "Unterminated string"},
    {"\"abc\\", "Unterminated string"},
    {"\"abc\\\"", "Unterminated string"},
    {"[\"a", "Unterminated string"},
    {"\"\\x\"", "Invalid escape sequence"},
    {"\"\\u12\"", "Invalid escape sequence"},
    {"\"\\u12g4\"", "Invalid escape sequence"},
    {"\"\\U0041\"", "Invalid escape sequence"},
    {"\"\\'\"", "Invalid escape sequence"},
    {"\"a\nb\"", "Invalid control character in string"},
    {"\"a\tb\"", "Invalid control character in string"},
    {"\"\x01\"", "Invalid control character in string"},
    {"{\"a\\u0000\":1}", "Invalid object key"},
    {"\xef\xbb\xbf{}", "Invalid JSON: unexpected byte 0xef"},
    {"/* c */ 1", "Invalid JSON: unexpected character '/'"},
    {"[1,2", "Invalid JSON: unexpected end of input"},
    {"{\"a\":1", "Invalid JSON: unexpected end of input"},
    {"{\"a\":", "Invalid JSON: unexpected end of input"},
    {"{\"a\"", "Invalid JSON: unexpected end of input"},
    {"[-]", "Invalid number"},
    {"[1e5.0]", "Invalid JSON: unexpected character '.'"},
    {"\x00", "Invalid JSON: unexpected byte 0x00"},
  };
  int n = (int)(sizeof cases / sizeof cases[0]);
  T_CHECK(n >= 50);
  for (int i = 0; i < n; i++) {
    size_t len = strlen(cases[i].in);
    if (i == n - 1)
      len = 1;   /* the NUL byte case */
    const Diag *g = parse_bad_n(cases[i].in, len, 0);
    T_EQ_STR(g->summary, cases[i].summary);
    T_EQ_STR(g->subject.file, "test.json");
    T_CHECK(g->detail && strncmp(g->detail, "At line ", 8) == 0);
  }
}

static void test_error_positions(void)
{
  const Diag *g = parse_bad("{\n  \"a\": x\n}");
  T_EQ_STR(g->summary, "Invalid JSON: unexpected character 'x'");
  T_EQ_INT(g->subject.start.line, 2);
  T_EQ_INT(g->subject.start.col, 8);
  T_EQ_INT(g->subject.start.byte, 9);
  T_EQ_INT(g->subject.end.byte, 10);
  T_EQ_STR(g->detail, "At line 2, column 8 (byte 9): expected a value.");
  /* Columns count characters, not bytes. */
  g = parse_bad("[\"\xc3\xa9\xc3\xa9\", ?]");
  T_EQ_INT(g->subject.start.col, 8);
  T_EQ_INT(g->subject.start.byte, 9);
  /* Unterminated strings point at the opening quote. */
  g = parse_bad("[\n\"abc");
  T_EQ_INT(g->subject.start.line, 2);
  T_EQ_INT(g->subject.start.col, 1);
  g = parse_bad("[1,\n2,\n3");
  T_EQ_STR(g->summary, "Invalid JSON: unexpected end of input");
  T_EQ_INT(g->subject.start.line, 3);
  T_EQ_INT(g->subject.start.col, 2);
}

static const char sample[] =
    "{\n"
    "  \"version\": 4,\n"
    "  \"lineage\": \"af5a607f-\\u00e9\",\n"
    "  \"outputs\": {},\n"
    "  \"resources\": [\n"
    "    {\"mode\": \"managed\", \"n\": -1.5e3, \"ok\": true, \"x\": null,\n"
    "     \"l\": [[], [1, 2], {\"k\": false}]}\n"
    "  ]\n"
    "}";

static void test_truncated_everywhere(void)
{
  size_t n = strlen(sample);
  (void)parse_ok(sample);
  for (size_t i = 0; i < n; i++) {
    Diags d;
    diag_init(&d, &A);
    Value v;
    ArenaMark m = arena_mark(&A);
    bool ok = json_parse(&A, sample, i, &v, &d, NULL);
    T_CHECK(!ok);
    T_EQ_INT(d.errors, 1);
    T_CHECK(d.head && d.head->subject.start.byte <= i);
    if (ok)
      fprintf(stderr, "  prefix of %zu bytes parsed\n", i);
    arena_rewind(&A, m);
  }
  /* Every single-byte corruption: a diagnostic or a value, never a crash. */
  char *buf = arena_strdup(&A, sample);
  static const char junk[] = "x\"\\{}[],:\x01\xff";
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < sizeof junk - 1; j++) {
      char save = buf[i];
      buf[i] = junk[j];
      Diags d;
      diag_init(&d, &A);
      Value v;
      ArenaMark m = arena_mark(&A);
      bool ok = json_parse(&A, buf, n, &v, &d, NULL);
      T_CHECK(ok ? d.errors == 0 : d.errors == 1);
      arena_rewind(&A, m);
      buf[i] = save;
    }
  }
}

static void test_deep_nesting(void)
{
  size_t n = 100000;
  char *s = arena_alloc_raw(&A, 1, 1, n + 1);
  memset(s, '[', n);
  s[n] = 0;
  const Diag *g = parse_bad_n(s, n, 0);
  T_EQ_STR(g->summary, "Nesting too deep");
  T_EQ_INT(g->subject.start.byte, JSON_MAX_DEPTH);
  memset(s, '{', n);
  g = parse_bad_n(s, n, 0);
  T_EQ_STR(g->summary, "Invalid JSON: unexpected character '{'");
  /* Exactly the limit is fine, one more is not. */
  Buf b;
  buf_init(&b, &A);
  for (int i = 0; i < JSON_MAX_DEPTH; i++)
    buf_putc(&b, '[');
  for (int i = 0; i < JSON_MAX_DEPTH; i++)
    buf_putc(&b, ']');
  Value v = parse_ok(buf_str(&b));
  T_EQ_INT(v.type->kind, TY_TUPLE);
  Buf c;
  buf_init(&c, &A);
  buf_putc(&c, '[');
  buf_put(&c, b.p, b.len);
  buf_putc(&c, ']');
  g = parse_bad(buf_str(&c));
  T_EQ_STR(g->summary, "Nesting too deep");
  /* A lower limit from the options. */
  Diags d;
  diag_init(&d, &A);
  JsonOpts o = {0};
  o.max_depth = 2;
  T_CHECK(json_parse(&A, "[[1]]", 5, &v, &d, &o));
  T_CHECK(!json_parse(&A, "[[[1]]]", 7, &v, &d, &o));
  T_EQ_INT(d.errors, 1);
}

static void test_size_limit(void)
{
  Diags d;
  diag_init(&d, &A);
  JsonOpts o = {0};
  o.max_size = 4;
  Value v;
  T_CHECK(json_parse(&A, "1234", 4, &v, &d, &o));
  T_CHECK(!json_parse(&A, "12345", 5, &v, &d, &o));
  T_EQ_INT(d.errors, 1);
  T_EQ_STR(d.head->summary, "JSON document too large");
}

/* ---- Round trips and the writer ------------------------------------------ */

static void test_roundtrip_compact(void)
{
  roundtrip("{\"a\":[1,\"x\",true,null,false],\"b\":{\"c\":1.50,\"d\":[]},"
            "\"e\":{}}", 0);
  roundtrip("[1.50,1e400,-0.0,12345678901234567890123,0,-5,1E5,0.1,"
            "3.0e-7,-1.5e+3,9007199254740993,1.0]", 0);
  roundtrip("\"\\u003cb\\u003e \\u0026 \\\"q\\\" \\\\ \\n\\r\\t\\b\\f"
            "\\u0001\\u001f\\u2028\\u2029 \xc3\xa9\"", 0);
  roundtrip("[]", 0);
  roundtrip("{}", 0);
  roundtrip("null", 0);
  roundtrip("-42", 0);
}

static void test_roundtrip_indent(void)
{
  const char *doc =
      "{\n"
      "  \"check_results\": null,\n"
      "  \"lineage\": \"af5a607f-9eae-15f8-afd8-9d32a8a9fc24\",\n"
      "  \"outputs\": {},\n"
      "  \"resources\": [\n"
      "    {\n"
      "      \"instances\": [\n"
      "        {\n"
      "          \"attributes\": {\n"
      "            \"id\": \"7302394874387\",\n"
      "            \"input\": null,\n"
      "            \"list\": [\n"
      "              \"a\",\n"
      "              1.25\n"
      "            ],\n"
      "            \"triggers_replace\": []\n"
      "          },\n"
      "          \"schema_version\": 0\n"
      "        }\n"
      "      ],\n"
      "      \"mode\": \"managed\"\n"
      "    }\n"
      "  ],\n"
      "  \"serial\": 1,\n"
      "  \"version\": 4\n"
      "}";
  roundtrip(doc, JSON_W_INDENT);
}

static void test_write_escaping(void)
{
  Buf b;
  buf_init(&b, &A);
  const char s[] = "<a href=\"x\">&</a>\x7f\x01\x1f\x08\x0c\n\r\t\\"
                   "\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa\xff\xc3\xa9\0z";
  json_write_string(&b, s, sizeof s - 1);
  T_EQ_STR(buf_str(&b),
           "\"\\u003ca href=\\\"x\\\"\\u003e\\u0026\\u003c/a\\u003e\x7f"
           "\\u0001\\u001f\\b\\f\\n\\r\\t\\\\\\u2028\\u2029\xe2\x80\xaa"
           "\\ufffd\xc3\xa9\\u0000z\"");
}

static void test_writer_stream(void)
{
  Buf b;
  buf_init(&b, &A);
  JsonW w;
  json_w_init(&w, &b, JSON_W_INDENT);
  json_w_begin_object(&w);
  json_w_keyz(&w, "version");
  json_w_int(&w, 4);
  json_w_keyz(&w, "serial");
  json_w_uint(&w, 18446744073709551615ULL);
  json_w_keyz(&w, "outputs");
  json_w_begin_object(&w);
  json_w_end_object(&w);
  json_w_keyz(&w, "resources");
  json_w_begin_array(&w);
  json_w_begin_object(&w);
  json_w_keyz(&w, "ok");
  json_w_bool(&w, true);
  json_w_keyz(&w, "n");
  json_w_null(&w);
  json_w_keyz(&w, "lit");
  json_w_number_lit(&w, "1.50", 4);
  json_w_end_object(&w);
  json_w_stringz(&w, "s");
  json_w_end_array(&w);
  json_w_keyz(&w, "raw");
  json_w_raw(&w, "{\"a\":[1, 2,{}],\"b\" : [ ],\"c\":\"<x>\"}", 35);
  json_w_end_object(&w);
  T_EQ_STR(buf_str(&b),
           "{\n"
           "  \"version\": 4,\n"
           "  \"serial\": 18446744073709551615,\n"
           "  \"outputs\": {},\n"
           "  \"resources\": [\n"
           "    {\n"
           "      \"ok\": true,\n"
           "      \"n\": null,\n"
           "      \"lit\": 1.50\n"
           "    },\n"
           "    \"s\"\n"
           "  ],\n"
           "  \"raw\": {\n"
           "    \"a\": [\n"
           "      1,\n"
           "      2,\n"
           "      {}\n"
           "    ],\n"
           "    \"b\": [],\n"
           "    \"c\": \"\\u003cx\\u003e\"\n"
           "  }\n"
           "}");
  /* Compact raw. */
  Buf c;
  buf_init(&c, &A);
  json_w_init(&w, &c, 0);
  json_w_begin_array(&w);
  json_w_raw(&w, " { \"a\" : [ 1 , true ] } ", 24);
  json_w_int(&w, -3);
  json_w_end_array(&w);
  T_EQ_STR(buf_str(&c), "[{\"a\":[1,true]},-3]");
}

static void test_write_values(void)
{
  /* Maps and sets in canonical order; dynamic wrapping; numbers. */
  MapEntry me[2];
  me[0].key = "z";
  me[0].keylen = 1;
  me[0].val = val_int(1);
  me[1].key = "a";
  me[1].keylen = 1;
  me[1].val = val_int(2);
  Value m = val_map(&A, &ty_number, me, 2);
  T_EQ_STR(write_v(m, 0), "{\"a\":2,\"z\":1}");
  Value *se = ARENA_NEW(&A, Value, 3);
  se[0] = val_cstr(&A, "b");
  se[1] = val_cstr(&A, "a");
  se[2] = val_cstr(&A, "b");
  Value set = val_set(&A, &ty_string, se, 3);
  T_EQ_STR(write_v(set, 0), "[\"a\",\"b\"]");
  T_EQ_STR(write_v(val_double(0.1), 0), "0.1");
  T_EQ_STR(write_v(val_int(-7), 0), "-7");
  T_EQ_STR(write_v(val_null(&ty_string), 0), "null");
  Buf b;
  buf_init(&b, &A);
  Diags d;
  diag_init(&d, &A);
  T_CHECK(json_write_value(&b, set, &ty_dynamic, 0, &d));
  T_EQ_STR(buf_str(&b),
           "{\"value\":[\"a\",\"b\"],\"type\":[\"set\",\"string\"]}");
  buf_clear(&b);
  T_CHECK(json_write_value(&b, val_null(&ty_string), &ty_dynamic, 0, &d));
  T_EQ_STR(buf_str(&b), "{\"value\":null,\"type\":\"string\"}");
  buf_clear(&b);
  T_CHECK(json_write_value(&b, val_dynamic_null, &ty_dynamic, 0, &d));
  T_EQ_STR(buf_str(&b), "null");
  /* An object attribute of dynamic schema type gets wrapped. */
  const char *an[] = {"d", "s"};
  const Type *at[] = {&ty_dynamic, &ty_string};
  const Type *ot = ty_object(&A, 2, an, at);
  Value ov[] = {val_int(5), val_cstr(&A, "x")};
  Value obj = val_object(&A, 2, an, ov);
  buf_clear(&b);
  T_CHECK(json_write_value(&b, obj, ot, JSON_W_INDENT, &d));
  T_EQ_STR(buf_str(&b), "{\n  \"d\": {\n    \"value\": 5,\n    \"type\": "
                        "\"number\"\n  },\n  \"s\": \"x\"\n}");
  T_EQ_INT(d.errors, 0);
  /* Sensitive values are written unless marks are rejected. */
  Value sv = val_sensitive(val_cstr(&A, "pw"));
  T_EQ_STR(write_v(sv, 0), "\"pw\"");
  buf_clear(&b);
  T_CHECK(!json_write_value(&b, sv, NULL, JSON_W_REJECT_MARKS, &d));
  T_EQ_INT(d.errors, 1);
  T_EQ_STR(d.tail->summary,
           "value has marks, so it cannot be serialized as JSON");
}

static void test_write_unknown(void)
{
  const char *an[] = {"a", "b"};
  Value *lv = ARENA_NEW(&A, Value, 2);
  lv[0] = val_int(1);
  lv[1] = val_unknown(&ty_number);
  Value l = val_list(&A, &ty_number, lv, 2);
  Value ov[] = {val_cstr(&A, "x"), l};
  Value obj = val_object(&A, 2, an, ov);
  Buf b;
  buf_init(&b, &A);
  Diags d;
  diag_init(&d, &A);
  T_CHECK(!json_write_value(&b, obj, NULL, 0, &d));
  T_EQ_INT(d.errors, 1);
  T_EQ_STR(d.head->summary, "value is not known");
  T_EQ_STR(d.head->detail, ".b[1]");
  buf_clear(&b);
  T_CHECK(json_write_value(&b, obj, NULL, JSON_W_UNKNOWN_NULL, &d));
  T_EQ_STR(buf_str(&b), "{\"a\":\"x\",\"b\":[1,null]}");
}

/* ---- Typed decode -------------------------------------------------------- */

static bool decode(const char *s, const Type *t, Value *out, Diags *d)
{
  diag_init(d, &A);
  return json_decode_typed(&A, s, strlen(s), t, out, d, NULL);
}

static const Type *parse_type(const char *s)
{
  Diags d;
  diag_init(&d, &A);
  const Type *t = NULL;
  T_CHECK(json_parse_type(&A, s, strlen(s), &t, &d, NULL));
  T_EQ_INT(d.errors, 0);
  if (d.head)
    fprintf(stderr, "  type %s: %s\n", s, d.head->summary);
  return t ? t : &ty_dynamic;
}

static void decode_err(const char *s, const char *type, const char *summary,
                       const char *path)
{
  Diags d;
  Value v;
  T_CHECK(!decode(s, parse_type(type), &v, &d));
  T_EQ_INT(d.errors, 1);
  if (d.head) {
    T_EQ_STR(d.head->summary, summary);
    T_EQ_STR(d.head->detail, path);
  }
}

static void test_typed_primitives(void)
{
  Diags d;
  Value v;
  T_CHECK(decode("12.50", &ty_string, &v, &d));
  T_EQ_STR(str_of(v), "12.50");
  T_CHECK(decode("7", &ty_string, &v, &d));
  T_EQ_STR(str_of(v), "7");
  T_CHECK(decode("true", &ty_string, &v, &d));
  T_EQ_STR(str_of(v), "true");
  T_CHECK(decode("\"42\"", &ty_number, &v, &d));
  int64_t i = 0;
  T_CHECK(v.type == &ty_number && val_num_int(v, &i) && i == 42);
  T_CHECK(decode("\"1.50\"", &ty_number, &v, &d));
  T_CHECK(!(v.flags & VF_NUMLIT) && val_num_double(v) == 1.5);
  T_CHECK(decode("1.50", &ty_number, &v, &d));
  T_CHECK(v.flags & VF_NUMLIT);
  T_CHECK(decode("\"1\"", &ty_bool, &v, &d) && v.u.b);
  T_CHECK(decode("\"false\"", &ty_bool, &v, &d) && !v.u.b);
  T_CHECK(decode("null", &ty_number, &v, &d));
  T_CHECK(val_is_null(v) && v.type == &ty_number);
  decode_err("\"abc\"", "\"number\"", "a number is required", "");
  decode_err("true", "\"number\"", "number is required", "");
  decode_err("[]", "\"string\"", "string is required", "");
  decode_err("1", "\"bool\"", "bool is required", "");
  decode_err("\"TRUE\"", "\"bool\"",
             "a bool is required; to convert from string, use lowercase "
             "\"true\"", "");
  decode_err("\"yes\"", "\"bool\"", "a bool is required", "");
}

static void test_typed_collections(void)
{
  Diags d;
  Value v;
  T_CHECK(decode("[\"a\",\"b\"]", parse_type("[\"list\",\"string\"]"), &v,
                 &d));
  T_EQ_INT(v.type->kind, TY_LIST);
  T_CHECK(v.type->elem == &ty_string);
  T_EQ_INT(v.len, 2);
  T_CHECK(decode("[3,1,3]", parse_type("[\"set\",\"number\"]"), &v, &d));
  T_EQ_INT(v.type->kind, TY_SET);
  T_EQ_INT(v.len, 2);
  T_EQ_STR(write_v(v, 0), "[1,3]");
  T_CHECK(decode("{\"b\":2,\"a\":\"1\"}", parse_type("[\"map\",\"number\"]"),
                 &v, &d));
  T_EQ_INT(v.type->kind, TY_MAP);
  T_EQ_INT(v.len, 2);
  T_EQ_STR(v.u.entries[0].key, "a");
  T_EQ_STR(write_v(v, 0), "{\"a\":1,\"b\":2}");
  T_CHECK(decode("[]", parse_type("[\"list\",\"string\"]"), &v, &d));
  T_EQ_INT(v.len, 0);
  T_CHECK(v.type->kind == TY_LIST);
  const Type *tt = parse_type("[\"tuple\",[\"string\",\"number\"]]");
  T_CHECK(decode("[\"a\",\"2\"]", tt, &v, &d));
  T_CHECK(ty_equal(v.type, tt));
  decode_err("[\"a\"]", "[\"tuple\",[\"string\",\"number\"]]",
             "not enough tuple elements (need 2)", "");
  decode_err("[\"a\",1,2]", "[\"tuple\",[\"string\",\"number\"]]",
             "too many tuple elements (need 2)", "");
  decode_err("{}", "[\"list\",\"string\"]", "missing expected [", "");
  decode_err("[]", "[\"map\",\"string\"]", "missing expected {", "");
  decode_err("{\"k\":[true]}", "[\"map\",[\"list\",\"number\"]]",
             "number is required", "[\"k\"][0]");
}

static void test_typed_objects(void)
{
  const Type *t = parse_type("[\"object\",{\"a\":\"string\",\"b\":\"number\","
                             "\"l\":[\"list\",\"number\"]}]");
  Diags d;
  Value v;
  T_CHECK(decode("{\"a\":\"x\"}", t, &v, &d));
  T_CHECK(v.type == t);
  T_EQ_STR(str_of(v.u.elems[0]), "x");
  T_CHECK(val_is_null(v.u.elems[1]) && v.u.elems[1].type == &ty_number);
  T_CHECK(val_is_null(v.u.elems[2]));
  T_CHECK(decode("{\"l\":[1,\"2\"],\"b\":3,\"a\":\"y\",\"a\":\"z\"}", t, &v,
                 &d));
  T_EQ_STR(str_of(v.u.elems[0]), "z");
  T_EQ_STR(write_v(v, 0), "{\"a\":\"z\",\"b\":3,\"l\":[1,2]}");
  decode_err("{\"a\":\"x\",\"c\":1}",
             "[\"object\",{\"a\":\"string\",\"b\":\"number\"}]",
             "unsupported attribute \"c\"", "");
  decode_err("{\"l\":[1,\"x\"]}",
             "[\"object\",{\"l\":[\"list\",\"number\"]}]",
             "a number is required", ".l[1]");
  decode_err("[]", "[\"object\",{}]", "missing expected {", "");
  /* Dynamic attributes: the {"value","type"} wrapper. */
  const Type *dt = parse_type("[\"object\",{\"d\":\"dynamic\"}]");
  T_CHECK(decode("{\"d\":{\"value\":[\"a\"],\"type\":[\"list\",\"string\"]}}",
                 dt, &v, &d));
  Value dv = v.u.elems[0];
  T_EQ_INT(dv.type->kind, TY_LIST);
  T_EQ_STR(str_of(dv.u.elems[0]), "a");
  T_CHECK(decode("{\"d\":null}", dt, &v, &d));
  T_CHECK(val_is_null(v.u.elems[0]));
  T_CHECK(decode("{\"type\":\"number\",\"value\":\"5\"}", &ty_dynamic, &v,
                 &d));
  int64_t i = 0;
  T_CHECK(val_num_int(v, &i) && i == 5);
  decode_err("{\"value\":1}", "\"dynamic\"",
             "missing type in dynamically-typed value", "");
  decode_err("{\"type\":\"string\"}", "\"dynamic\"",
             "missing value in dynamically-typed value", "");
  decode_err("{\"type\":\"string\",\"value\":\"x\",\"extra\":1}", "\"dynamic\"",
             "invalid key \"extra\" in dynamically-typed value", "");
  decode_err("\"x\"", "\"dynamic\"", "missing expected {", "");
  decode_err("{\"d\":{\"type\":\"strin\",\"value\":1}}",
             "[\"object\",{\"d\":\"dynamic\"}]",
             "failed to decode type for dynamic value: invalid primitive "
             "type name \"strin\"", ".d");
  /* Syntax errors come first. */
  Diags e;
  T_CHECK(!decode("{\"a\":", t, &v, &e));
  T_EQ_STR(e.head->summary, "Invalid JSON: unexpected end of input");
}

/* ---- Type syntax --------------------------------------------------------- */

static void test_type_syntax(void)
{
  static const char *const types[] = {
    "\"string\"", "\"number\"", "\"bool\"", "\"dynamic\"",
    "[\"list\",\"string\"]", "[\"set\",[\"map\",\"number\"]]",
    "[\"map\",\"dynamic\"]",
    "[\"object\",{\"a\":\"string\",\"b\":[\"list\",\"bool\"]}]",
    "[\"object\",{}]",
    "[\"tuple\",[\"string\",\"number\"]]", "[\"tuple\",[]]",
    "[\"object\",{\"a\":\"string\",\"b\":\"number\"},[\"b\"]]",
    "[\"list\",[\"object\",{\"x\":[\"tuple\",[[\"set\",\"string\"]]]}]]",
  };
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    T_EQ_STR(type_str(parse_type(types[i])), types[i]);
  T_CHECK(parse_type("\"string\"") == &ty_string);
  const Type *t =
      parse_type("[\"object\",{\"b\":\"number\",\"a\":\"string\"}]");
  T_EQ_STR(t->names[0], "a");
  /* Indented, as in a state file's outputs. */
  Buf b;
  buf_init(&b, &A);
  JsonW w;
  json_w_init(&w, &b, JSON_W_INDENT);
  json_w_type(&w, parse_type("[\"object\",{\"a\":[\"list\",\"string\"]}]"));
  T_EQ_STR(buf_str(&b), "[\n  \"object\",\n  {\n    \"a\": [\n      \"list\",\n"
                        "      \"string\"\n    ]\n  }\n]");
  static const struct {
    const char *in;
    const char *msg;
  } bad[] = {
    {"\"strin\"", "invalid primitive type name \"strin\""},
    {"5", "invalid type description"},
    {"[]", "invalid type description"},
    {"[5]", "invalid complex type kind name"},
    {"[\"lisst\",\"string\"]", "invalid complex type kind name"},
    {"[\"list\"]", "unexpected extra data in type description"},
    {"[\"list\",\"string\",\"x\"]",
     "unexpected extra data in type description"},
    {"[\"tuple\",\"string\"]",
     "invalid tuple type description: an array of types is required"},
    {"[\"object\",[]]", "invalid object type description: an object of "
                        "attribute types is required"},
    {"[\"object\",{},[],1]", "unexpected extra data in type description"},
    {"null", "invalid type description"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    Diags d;
    diag_init(&d, &A);
    const Type *o = NULL;
    T_CHECK(!json_parse_type(&A, bad[i].in, strlen(bad[i].in), &o, &d, NULL));
    T_EQ_INT(d.errors, 1);
    if (d.head)
      T_EQ_STR(d.head->summary, bad[i].msg);
  }
}

/* Empty containers, alone and nested, read and written back.  Under
** clang's UBSan (HOST_CC=clang) the reader used to compute NULL + 0 on
** its empty entry stack ("applying zero offset to null pointer"). */
static void test_empty_containers(void)
{
  const char *in[] = {"[]", "{}", "[[]]", "{\"a\":{}}", "[[],{}]", "[{}]"};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    Arena a;
    arena_init(&a, 0);
    Diags d;
    diag_init(&d, &a);
    Value v;
    T_CHECK(json_parse(&a, in[i], strlen(in[i]), &v, &d, NULL));
    Buf b;
    buf_init(&b, &a);
    T_CHECK(json_write_value(&b, v, NULL, 0, &d));
    T_EQ_STR(buf_str(&b), in[i]);
    arena_release(&a);
  }
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_parse_scalars);
  T_RUN(test_parse_objects);
  T_RUN(test_duplicate_keys_last_wins);
  T_RUN(test_type_interning);
  T_RUN(test_large_documents);
  T_RUN(test_key_prediction);
  T_RUN(test_strings_and_escapes);
  T_RUN(test_invalid_utf8);
  T_RUN(test_malformed);
  T_RUN(test_error_positions);
  T_RUN(test_truncated_everywhere);
  T_RUN(test_deep_nesting);
  T_RUN(test_size_limit);
  T_RUN(test_roundtrip_compact);
  T_RUN(test_roundtrip_indent);
  T_RUN(test_write_escaping);
  T_RUN(test_writer_stream);
  T_RUN(test_write_values);
  T_RUN(test_write_unknown);
  T_RUN(test_typed_primitives);
  T_RUN(test_typed_collections);
  T_RUN(test_typed_objects);
  T_RUN(test_type_syntax);
  T_RUN(test_empty_containers);
  arena_release(&A);
  return t_done("json");
}
