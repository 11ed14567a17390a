/*
** test_msgpack: net/msgpack.h: cty's msgpack encoding of every type
** (bytes checked against the MessagePack format as go-cty writes it),
** unknowns, dynamic values nested in objects, numbers (int64, float64,
** exact decimal strings), round trips, and malformed input (truncation at
** every byte, bad bytes, wrong kinds, deep nesting, random bytes): always
** a diagnostic, never a crash.
*/
#include <stdint.h>
#include <string.h>

#include "base/diag.h"
#include "base/json.h"
#include "base/value.h"
#include "net/msgpack.h"
#include "t.h"

static Arena A;

static const Type *ty(const char *json)
{
  Diags d;
  diag_init(&d, &A);
  const Type *t = NULL;
  T_CHECK(json_parse_type(&A, json, strlen(json), &t, &d, NULL));
  return t ? t : &ty_dynamic;
}

static Value num(const char *s)
{
  Value v = val_int(0);
  T_CHECK(val_parse_number(&A, s, strlen(s), true, &v));
  return v;
}

/* Encodes v against t and returns the bytes in hex. */
static const char *enc_hex(Value v, const Type *t)
{
  Diags d;
  diag_init(&d, &A);
  Buf b;
  buf_init(&b, &A);
  bool ok = msgpack_encode(&b, v, t, &d, "Encode");
  T_CHECK(ok);
  if (!ok && d.head)
    fprintf(stderr, "  encode: %s\n", d.head->detail);
  Buf h;
  buf_init(&h, &A);
  for (size_t i = 0; i < b.len; i++)
    buf_printf(&h, "%02x", (unsigned char)b.p[i]);
  return buf_str(&h);
}

static size_t unhex(const char *h, uint8_t *out)
{
  size_t n = 0;
  for (; h[0] && h[1]; h += 2) {
    unsigned x;
    sscanf(h, "%2x", &x);
    out[n++] = (uint8_t)x;
  }
  return n;
}

static Value dec_ok(const char *hex, const Type *t)
{
  uint8_t buf[512];
  size_t n = unhex(hex, buf);
  Diags d;
  diag_init(&d, &A);
  Value v;
  bool ok = msgpack_decode(&A, buf, n, t, &v, &d, "Decode");
  T_CHECK(ok);
  T_EQ_INT(d.errors, 0);
  if (!ok && d.head)
    fprintf(stderr, "  decode %s: %s\n", hex, d.head->detail);
  return v;
}

/* Decodes input that must fail; returns the detail of the one error. */
static const char *dec_bad(const uint8_t *buf, size_t n, const Type *t)
{
  Diags d;
  diag_init(&d, &A);
  Value v;
  bool ok = msgpack_decode(&A, buf, n, t, &v, &d, "Decode");
  T_CHECK(!ok);
  T_EQ_INT(d.errors, 1);
  T_CHECK(val_is_null(v));
  return d.head ? d.head->detail : "";
}

static const char *dec_bad_hex(const char *hex, const Type *t)
{
  uint8_t buf[512];
  size_t n = unhex(hex, buf);
  return dec_bad(buf, n, t);
}

static void roundtrip(Value v, const Type *t)
{
  Diags d;
  diag_init(&d, &A);
  Buf b;
  buf_init(&b, &A);
  T_CHECK(msgpack_encode(&b, v, t, &d, "Encode"));
  Value back;
  T_CHECK(msgpack_decode(&A, (const uint8_t *)b.p, b.len, t, &back, &d,
                         "Decode"));
  T_CHECK(val_raw_equal(v, back, false));
}

static Value obj2(const char *n1, Value v1, const char *n2, Value v2)
{
  const char *names[2] = {n1, n2};
  Value vals[2] = {v1, v2};
  return val_object(&A, 2, names, vals);
}

static void test_scalars(void)
{
  T_EQ_STR(enc_hex(val_cstr(&A, "hi"), &ty_string), "a26869");
  T_EQ_STR(enc_hex(val_true, &ty_bool), "c3");
  T_EQ_STR(enc_hex(val_false, &ty_bool), "c2");
  T_EQ_STR(enc_hex(val_null(&ty_string), &ty_string), "c0");
  T_EQ_STR(enc_hex(val_unknown(&ty_string), &ty_string), "d40000");
  /* Refinements are not written: still the plain unknown. */
  T_EQ_STR(enc_hex(val_mark(val_unknown(&ty_string), VF_NOTNULL),
                   &ty_string), "d40000");
  /* Marks are dropped. */
  T_EQ_STR(enc_hex(val_sensitive(val_cstr(&A, "s")), &ty_string), "a173");
  /* A 40-byte string needs str8. */
  Value s40 = val_cstr(&A, "0123456789012345678901234567890123456789");
  const char *h = enc_hex(s40, &ty_string);
  T_CHECK(strncmp(h, "d928", 4) == 0);
  T_EQ_INT(strlen(h), 4 + 80);
  T_CHECK(val_raw_equal(dec_ok(h, &ty_string), s40, false));
  /* Strings also come as bin. */
  T_CHECK(val_raw_equal(dec_ok("c4026869", &ty_string),
                        val_cstr(&A, "hi"), false));
  T_CHECK(val_raw_equal(dec_ok("c3", &ty_bool), val_true, false));
}

static void test_numbers(void)
{
  T_EQ_STR(enc_hex(val_int(1), &ty_number), "01");
  T_EQ_STR(enc_hex(val_int(-1), &ty_number), "ff");
  T_EQ_STR(enc_hex(val_int(-32), &ty_number), "e0");
  T_EQ_STR(enc_hex(val_int(-33), &ty_number), "d0df");
  T_EQ_STR(enc_hex(val_int(200), &ty_number), "ccc8");
  T_EQ_STR(enc_hex(val_int(300), &ty_number), "cd012c");
  T_EQ_STR(enc_hex(val_int(-200), &ty_number), "d1ff38");
  T_EQ_STR(enc_hex(val_int(70000), &ty_number), "ce00011170");
  T_EQ_STR(enc_hex(val_int(INT64_C(1) << 40), &ty_number),
           "cf0000010000000000");
  T_EQ_STR(enc_hex(val_int(INT64_MIN), &ty_number), "d38000000000000000");
  /* Exactly a float64: sent as one. */
  T_EQ_STR(enc_hex(val_double(0.5), &ty_number), "cb3fe0000000000000");
  T_EQ_STR(enc_hex(num("-2.25"), &ty_number), "cbc002000000000000");
  T_EQ_STR(enc_hex(num("1e20"), &ty_number), "cb4415af1d78b58c40");
  /* An integral literal is an integer, whatever its spelling. */
  T_EQ_STR(enc_hex(num("1.0"), &ty_number), "01");
  /* Not exactly a float64: the decimal text, as cty sends its big floats. */
  T_EQ_STR(enc_hex(num("0.1"), &ty_number), "a3302e31");
  T_EQ_STR(enc_hex(val_num_add(num("0.1"), num("0.2")), &ty_number),
           "a3302e33");
  const char *big = "123456789012345678901234567890";
  const char *bh = enc_hex(num(big), &ty_number);
  T_CHECK(strncmp(bh, "be", 2) == 0);   /* fixstr of 30 bytes */
  Value back = dec_ok(bh, &ty_number);
  Buf b;
  buf_init(&b, &A);
  val_num_format(&b, back);
  T_EQ_STR(buf_str(&b), big);
  /* A literal one past int64 that a double would round: kept exact. */
  T_EQ_STR(enc_hex(num("9223372036854775809"), &ty_number),
           "b339323233333732303336383534373735383039");

  /* Decoding: every int form, floats, strings. */
  int64_t i = 0;
  T_CHECK(val_num_int(dec_ok("d1ff38", &ty_number), &i) && i == -200);
  T_CHECK(val_num_int(dec_ok("d0df", &ty_number), &i) && i == -33);
  T_CHECK(val_num_int(dec_ok("d2fffffffe", &ty_number), &i) && i == -2);
  T_CHECK(val_num_int(dec_ok("cd012c", &ty_number), &i) && i == 300);
  T_CHECK(val_num_int(dec_ok("cb4000000000000000", &ty_number), &i) &&
          i == 2);
  T_CHECK(val_num_double(dec_ok("ca3fc00000", &ty_number)) == 1.5);
  T_CHECK(val_num_int(dec_ok("a23432", &ty_number), &i) && i == 42);
  buf_clear(&b);
  val_num_format(&b, dec_ok("cfffffffffffffffff", &ty_number));
  T_EQ_STR(buf_str(&b), "18446744073709551615");
  /* NaN is not a number. */
  T_CHECK(strstr(dec_bad_hex("cb7ff8000000000000", &ty_number), "NaN"));
  T_CHECK(strstr(dec_bad_hex("a178", &ty_number), "a number is required"));
}

static void test_collections(void)
{
  Value e[3] = {val_int(1), val_int(2), val_int(3)};
  Value l = val_list(&A, &ty_number, e, 3);
  T_EQ_STR(enc_hex(l, ty("[\"list\",\"number\"]")), "93010203");
  Value se[2] = {val_cstr(&A, "b"), val_cstr(&A, "a")};
  Value s = val_set(&A, &ty_string, se, 2);
  T_EQ_STR(enc_hex(s, ty("[\"set\",\"string\"]")), "92a161a162");
  MapEntry me[2] = {{"y", 1, val_true}, {"x", 1, val_false}};
  Value m = val_map(&A, &ty_bool, me, 2);
  T_EQ_STR(enc_hex(m, ty("[\"map\",\"bool\"]")), "82a178c2a179c3");
  Value te[2] = {val_cstr(&A, "a"), val_int(5)};
  Value t = val_tuple(&A, te, 2);
  T_EQ_STR(enc_hex(t, ty("[\"tuple\",[\"string\",\"number\"]]")),
           "92a16105");
  /* Empty list and a list with an unknown element. */
  T_EQ_STR(enc_hex(val_list(&A, &ty_number, NULL, 0),
                   ty("[\"list\",\"number\"]")), "90");
  Value ue[2] = {val_int(1), val_unknown(&ty_number)};
  T_EQ_STR(enc_hex(val_list(&A, &ty_number, ue, 2),
                   ty("[\"list\",\"number\"]")), "9201d40000");
  /* 20 elements need array16. */
  Value many[20];
  for (int k = 0; k < 20; k++)
    many[k] = val_int(k);
  const char *h = enc_hex(val_list(&A, &ty_number, many, 20),
                          ty("[\"list\",\"number\"]"));
  T_CHECK(strncmp(h, "dc0014", 6) == 0);
  roundtrip(l, ty("[\"list\",\"number\"]"));
  roundtrip(s, ty("[\"set\",\"string\"]"));
  roundtrip(m, ty("[\"map\",\"bool\"]"));
  roundtrip(t, ty("[\"tuple\",[\"string\",\"number\"]]"));
  roundtrip(val_list(&A, &ty_number, many, 20), ty("[\"list\",\"number\"]"));
  /* Sets decode to canonical order without duplicates. */
  Value ds = dec_ok("93a162a161a162", ty("[\"set\",\"string\"]"));
  T_EQ_INT(ds.len, 2);
  T_CHECK(val_raw_equal(ds, s, false));
  /* Duplicate map keys: the last one wins. */
  Value dm = dec_ok("82a178c2a178c3", ty("[\"map\",\"bool\"]"));
  T_EQ_INT(dm.len, 1);
  T_CHECK(dm.u.entries[0].val.u.b);
}

static void test_objects(void)
{
  const Type *ot = ty("[\"object\",{\"a\":\"string\",\"b\":\"number\","
                      "\"c\":\"bool\"}]");
  /* Every attribute of the type is written, sorted, missing ones nil. */
  Value o = obj2("b", val_null(&ty_number), "a", val_cstr(&A, "x"));
  T_EQ_STR(enc_hex(o, ot), "83a161a178a162c0a163c0");
  /* Decoding: missing attributes become null. */
  Value d = dec_ok("81a161a178", ot);
  T_CHECK(d.type->kind == TY_OBJECT && d.type->n == 3);
  bool found;
  T_CHECK(val_is_null(val_attr(d, "c", &found)) && found);
  T_EQ_STR(val_attr(d, "a", &found).u.s, "x");
  /* An unknown whole object, and unknown attributes. */
  T_CHECK(val_is_unknown(dec_ok("d40000", ot)));
  Value u = dec_ok("81a162d40000", ot);
  T_CHECK(val_is_unknown(val_attr(u, "b", &found)));
  /* A refined unknown (extension 12): unknown, refinements dropped. */
  Value r = dec_ok("81a161c7030c8101c2", ot);
  T_CHECK(val_is_unknown(val_attr(r, "a", &found)));
  /* Wrong kinds and unsupported attributes name the path. */
  T_EQ_STR(dec_bad_hex("81a16101", ot), ".a: string is required");
  T_EQ_STR(dec_bad_hex("81a17801", ot), "unsupported attribute \"x\"");
  T_EQ_STR(dec_bad_hex("a178", ot), "object is required");
  /* o lacks c: decoding gives the full type, so round-trip a full one. */
  Value full = val_object(&A, 3, (const char *[]){"a", "b", "c"},
                          (Value[]){val_cstr(&A, "x"), val_int(2),
                                    val_unknown(&ty_bool)});
  roundtrip(full, ot);
  roundtrip(val_unknown(ot), ot);
  roundtrip(val_null(ot), ot);
}

static void test_dynamic(void)
{
  /* A known value where the type is dynamic: [type JSON as bin, value]. */
  T_EQ_STR(enc_hex(val_cstr(&A, "x"), &ty_dynamic),
           "92c40822737472696e6722a178");
  /* Null and unknown dynamic values are not wrapped. */
  T_EQ_STR(enc_hex(val_dynamic_null, &ty_dynamic), "c0");
  T_EQ_STR(enc_hex(val_dynamic_unknown, &ty_dynamic), "d40000");
  /* Nested: an object attribute of dynamic type holding a list. */
  const Type *ot = ty("[\"object\",{\"d\":\"dynamic\",\"n\":\"number\"}]");
  Value e[2] = {val_int(1), val_int(2)};
  Value o = obj2("d", val_list(&A, &ty_number, e, 2), "n", val_int(7));
  const char *tj = "[\"list\",\"number\"]";
  Buf want;
  buf_init(&want, &A);
  buf_printf(&want, "82a16492c4%02x", (unsigned)strlen(tj));
  for (const char *p = tj; *p; p++)
    buf_printf(&want, "%02x", (unsigned char)*p);
  buf_puts(&want, "920102a16e07");
  T_EQ_STR(enc_hex(o, ot), buf_str(&want));
  Value back = dec_ok(buf_str(&want), ot);
  bool found;
  Value dl = val_attr(back, "d", &found);
  T_CHECK(found && dl.type->kind == TY_LIST && dl.len == 2);
  roundtrip(o, ot);
  /* The type may come as str too. */
  T_CHECK(val_raw_equal(dec_ok("92a822737472696e6722a178", &ty_dynamic),
                        val_cstr(&A, "x"), false));
  /* Dynamic inside a dynamic value. */
  const Type *od = ty("[\"object\",{\"x\":\"dynamic\"}]");
  Value inner = val_object(&A, 1, (const char *[]){"x"},
                           (Value[]){val_true});
  roundtrip(inner, od);
  /* Malformed dynamic values. */
  T_CHECK(strstr(dec_bad_hex("a178", &ty_dynamic), "[type, value]"));
  T_CHECK(strstr(dec_bad_hex("9201a178", &ty_dynamic), "JSON bytes"));
  T_CHECK(strstr(dec_bad_hex("92a3626164a178", &ty_dynamic),
                 "invalid type in dynamic value"));
}

static void test_encode_mismatch(void)
{
  Diags d;
  diag_init(&d, &A);
  Buf b;
  buf_init(&b, &A);
  const Type *ot = ty("[\"object\",{\"a\":\"number\"}]");
  Value o = val_object(&A, 1, (const char *[]){"a"},
                       (Value[]){val_cstr(&A, "no")});
  T_CHECK(!msgpack_encode(&b, o, ot, &d, "Encode"));
  T_EQ_INT(d.errors, 1);
  T_EQ_STR(d.head->summary, "Encode");
  T_EQ_STR(d.head->detail, ".a: number is required");
  Value extra = val_object(&A, 1, (const char *[]){"zz"},
                           (Value[]){val_int(1)});
  T_CHECK(!msgpack_encode(&b, extra, ot, &d, "Encode"));
  T_EQ_INT(d.errors, 2);
}

static void test_malformed(void)
{
  /* Truncation at every byte of a nested document. */
  const Type *ot = ty("[\"object\",{\"d\":\"dynamic\",\"m\":[\"map\","
                      "\"string\"],\"n\":\"number\"}]");
  uint8_t full[128];
  size_t n = unhex("83a16492c4115b226c697374222c226e756d626572225d"
                   "920102a16d81a16ba176a16ecb3fe0000000000000", full);
  dec_ok("83a16492c4115b226c697374222c226e756d626572225d"
         "920102a16d81a16ba176a16ecb3fe0000000000000", ot);
  for (size_t k = 0; k < n; k++)
    dec_bad(full, k, ot);
  /* Trailing bytes, the unused byte 0xc1, other extensions, non-string
  ** keys, counts larger than the input. */
  T_CHECK(strstr(dec_bad_hex("0101", &ty_number), "trailing"));
  T_CHECK(strstr(dec_bad_hex("c1", &ty_number), "0xc1"));
  T_CHECK(strstr(dec_bad_hex("d40500", &ty_number), "extension type 5"));
  T_CHECK(strstr(dec_bad_hex("810101", ty("[\"map\",\"number\"]")),
                 "keys must be strings"));
  T_CHECK(strstr(dec_bad_hex("ddffffffff", ty("[\"list\",\"number\"]")),
                 "unexpected end"));
  T_CHECK(strstr(dec_bad_hex("dbffffffff41", &ty_string), "unexpected end"));
  T_CHECK(strstr(dec_bad_hex("920102", ty("[\"tuple\",[\"number\"]]")),
                 "tuple needs 1 elements"));
  /* Nesting beyond the limit: a deep list type and input to match. */
  const Type *deep = &ty_number;
  for (int k = 0; k < MSGPACK_MAX_DEPTH + 10; k++)
    deep = ty_list(&A, deep);
  uint8_t dn[MSGPACK_MAX_DEPTH + 11];
  memset(dn, 0x91, sizeof dn - 1);
  dn[sizeof dn - 1] = 0x01;
  T_CHECK(strstr(dec_bad(dn, sizeof dn, deep), "nested too deeply"));
  /* Random bytes against a dynamic type and an object type: a result or
  ** one diagnostic, never a crash (xorshift, fixed seed). */
  uint64_t x = 88172645463325252u;
  uint8_t rb[64];
  for (int round = 0; round < 20000; round++) {
    size_t len = (size_t)(round % 64);
    for (size_t k = 0; k < len; k++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      rb[k] = (uint8_t)x;
    }
    Diags d;
    diag_init(&d, &A);
    Value v;
    ArenaMark m = arena_mark(&A);
    bool ok = msgpack_decode(&A, rb, len, round & 1 ? ot : &ty_dynamic, &v,
                             &d, "Decode");
    T_CHECK(ok ? d.errors == 0 : d.errors == 1);
    arena_rewind(&A, m);
  }
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_scalars);
  T_RUN(test_numbers);
  T_RUN(test_collections);
  T_RUN(test_objects);
  T_RUN(test_dynamic);
  T_RUN(test_encode_mismatch);
  T_RUN(test_malformed);
  return t_done("test_msgpack");
}
