/*
** test_value: the value model (core/base/value.h): constructors, canonical
** ordering, set deduplication, the number rule, equality and paths.
*/
#include <math.h>
#include <stdint.h>

#include "base/value.h"
#include "t.h"

static Arena A;

static const char *fmt_num(Value v)
{
  Buf b;
  buf_init(&b, &A);
  val_num_format(&b, v);
  return buf_str(&b);
}

static const char *friendly(const Type *t)
{
  Buf b;
  buf_init(&b, &A);
  ty_friendly(&b, t);
  return buf_str(&b);
}

static const char *hcl(const Type *t)
{
  Buf b;
  buf_init(&b, &A);
  ty_hcl(&b, t);
  return buf_str(&b);
}

static Value S(const char *s) { return val_cstr(&A, s); }

static Value num(const char *s)
{
  Value v = val_dynamic_null;
  T_CHECK(val_parse_number(&A, s, strlen(s), true, &v));
  return v;
}

/* ---- numbers --------------------------------------------------------- */

typedef struct NumCase {
  const char *in;
  const char *plain;   /* canonical rendering without keep_literal */
  const char *lit;     /* rendering with keep_literal */
  int numlit;          /* 1 when keep_literal must keep the text */
} NumCase;

static const NumCase num_cases[] = {
  {"0", "0", "0", 0},
  {"-0", "0", "0", 1},
  {"1", "1", "1", 0},
  {"-1", "-1", "-1", 0},
  {"42", "42", "42", 0},
  {"1.5", "1.5", "1.5", 0},
  {"-2.5", "-2.5", "-2.5", 0},
  {"1.50", "1.5", "1.5", 1},
  {"1e3", "1000", "1000", 1},
  {"1E3", "1000", "1000", 1},
  {"1e+3", "1000", "1000", 1},
  {"1.5e-7", "0.00000015", "0.00000015", 1},
  {"0.00000015", "0.00000015", "0.00000015", 0},
  {"1e21", "1000000000000000000000", "1000000000000000000000", 1},
  {"1000000000000000000000", "1000000000000000000000",
   "1000000000000000000000", 0},
  {"123456789012345678901234567890", "123456789012346000000000000000",
   "123456789012345678901234567890", 1},
  {"9007199254740993", "9007199254740993", "9007199254740993", 0},
  {"9223372036854775807", "9223372036854775807", "9223372036854775807", 0},
  {"-9223372036854775808", "-9223372036854775808", "-9223372036854775808",
   0},
  {"9223372036854775808", "9223372036854780000", "9223372036854775808", 1},
  {"0.1", "0.1", "0.1", 0},
  {"0.30000000000000004", "0.3", "0.30000000000000004", 1},
  {"3.14159", "3.14159", "3.14159", 0},
  {"+5", "5", "5", 1},
  {".5", "0.5", "0.5", 1},
  {"5.", "5", "5", 1},
  {"007", "7", "7", 1},
  {"100", "100", "100", 0},
  {"1e0", "1", "1", 1},
  {"12.340e1", "123.4", "123.4", 1},
  {"-0.0001", "-0.0001", "-0.0001", 0},
  {"0.000", "0", "0", 1},
  {"2.0", "2", "2", 1},
  {"1e-30", "0.000000000000000000000000000001",
   "0.000000000000000000000000000001", 1},
  {"1e400", "+Inf", "+Inf", 1},
  {"123456789.123456789", "123456789.123457", "123456789.123456789", 1},
  {"0.1e1", "1", "1", 1},
};

static void test_number_table(void)
{
  for (size_t i = 0; i < sizeof num_cases / sizeof num_cases[0]; i++) {
    const NumCase *c = &num_cases[i];
    Value p, l;
    T_CHECK(val_parse_number(&A, c->in, strlen(c->in), false, &p));
    T_CHECK(val_parse_number(&A, c->in, strlen(c->in), true, &l));
    T_EQ_STR(fmt_num(p), c->plain);
    T_EQ_STR(fmt_num(l), c->lit);
    T_EQ_INT(!(p.flags & VF_NUMLIT), 1);
    T_EQ_INT((l.flags & VF_NUMLIT) != 0, c->numlit);
    if (l.flags & VF_NUMLIT) {
      T_EQ_INT(l.len, strlen(c->in));
      T_CHECK(memcmp(l.u.s, c->in, l.len) == 0);
    }
    T_CHECK(p.type == &ty_number && l.type == &ty_number);
    /* Both forms denote the same number: exactly for an integer, and a
    ** double to 15 significant digits (val_double's rounding). */
    if (!(p.flags & VF_FLOAT))
      T_CHECK(val_num_double(p) == val_num_double(l));
    else if (!isinf(val_num_double(p)))
      T_CHECK(val_num_double(p) ==
              val_num_double(val_double(val_num_double(l))));
  }
}

static void test_number_malformed(void)
{
  static const char *bad[] = {"", "-", "+", "abc", "1e", "1.2.3", "1e+",
                              "--1", " 1", "1 ", "0x10", "inf", "NaN",
                              "1_000", ".", "e5", "1e5.0", "1ee5"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    Value v = val_dynamic_null;
    T_CHECK(!val_parse_number(&A, bad[i], strlen(bad[i]), true, &v));
    T_CHECK(v.type == &ty_dynamic);
  }
  /* Tiny literals render exactly: "0." then 399 zeros then "1". */
  Value tiny;
  T_CHECK(val_parse_number(&A, "1e-400", 6, true, &tiny));
  const char *ts = fmt_num(tiny);
  T_EQ_INT(strlen(ts), 402);
  T_CHECK(ts[401] == '1' && ts[400] == '0' && ts[1] == '.');
  T_CHECK(val_parse_number(&A, "1e-400", 6, false, &tiny));
  T_EQ_STR(fmt_num(tiny), "0");
  /* Huge exponents do not blow up the rendering. */
  T_CHECK(val_parse_number(&A, "1e999999999999", 14, true, &tiny));
  T_EQ_STR(fmt_num(tiny), "+Inf");
  /* Not NUL-terminated input: only n bytes are read. */
  Value v;
  T_CHECK(val_parse_number(&A, "12345", 3, true, &v));
  T_EQ_STR(fmt_num(v), "123");
}

static void test_number_double(void)
{
  T_EQ_STR(fmt_num(val_double(0.1 + 0.2)), "0.3");
  T_EQ_STR(fmt_num(val_double(1.0 / 3)), "0.333333333333333");
  T_EQ_STR(fmt_num(val_double(2.0 / 3)), "0.666666666666667");
  T_EQ_STR(fmt_num(val_double(1e21)), "1000000000000000000000");
  T_EQ_STR(fmt_num(val_double(1.5e-7)), "0.00000015");
  T_EQ_STR(fmt_num(val_double(-1e-5)), "-0.00001");
  T_EQ_STR(fmt_num(val_double(123.456)), "123.456");
  T_EQ_STR(fmt_num(val_double(4.35)), "4.35");
  T_EQ_STR(fmt_num(val_double(-INFINITY)), "-Inf");
  Value z = val_double(-0.0);
  T_CHECK(!(z.flags & VF_FLOAT));
  T_EQ_STR(fmt_num(z), "0");
  Value h = val_double(100.0);
  T_CHECK(!(h.flags & VF_FLOAT));
  T_EQ_INT(h.u.i, 100);
  T_CHECK(val_double(0.5).flags & VF_FLOAT);
  T_EQ_STR(fmt_num(val_int(INT64_MIN)), "-9223372036854775808");
  T_EQ_STR(fmt_num(val_int(9007199254740993LL)), "9007199254740993");
  int64_t i = 0;
  T_CHECK(val_num_int(num("1e3"), &i));
  T_EQ_INT(i, 1000);
  T_CHECK(!val_num_int(num("1.5"), &i));
  T_CHECK(!val_num_int(num("123456789012345678901234567890"), &i));
  T_CHECK(val_num_double(num("1.50")) == 1.5);
  T_CHECK(val_num_double(val_int(-7)) == -7.0);
}

static void test_number_arith(void)
{
  Value r;
  T_CHECK(val_num_div(val_int(1), val_int(3), &r));
  T_EQ_STR(fmt_num(r), "0.333333333333333");
  T_CHECK(val_num_div(val_int(7), val_int(2), &r));
  T_EQ_STR(fmt_num(r), "3.5");
  T_CHECK(val_num_div(val_int(6), val_int(3), &r));
  T_CHECK(!(r.flags & VF_FLOAT) && r.u.i == 2);
  T_CHECK(!val_num_div(val_int(6), val_int(0), &r));
  T_CHECK(!val_num_div(val_int(6), val_double(0.0), &r));
  T_CHECK(val_num_mod(val_int(-5), val_int(3), &r));
  T_EQ_STR(fmt_num(r), "-2");
  T_CHECK(val_num_mod(val_int(5), val_int(-3), &r));
  T_EQ_STR(fmt_num(r), "2");
  T_CHECK(val_num_mod(val_int(INT64_MIN), val_int(-1), &r));
  T_EQ_STR(fmt_num(r), "0");
  T_CHECK(val_num_mod(val_double(5.5), val_int(2), &r));
  T_EQ_STR(fmt_num(r), "1.5");
  T_CHECK(!val_num_mod(val_int(1), val_int(0), &r));
  T_EQ_STR(fmt_num(val_num_add(val_double(0.1), val_double(0.2))), "0.3");
  T_EQ_STR(fmt_num(val_num_add(val_int(INT64_MAX), val_int(1))),
           "9223372036854780000");
  /* -2^63 - 1 rounds to -2^63 as a double, which is integral again. */
  T_EQ_STR(fmt_num(val_num_sub(val_int(INT64_MIN), val_int(1))),
           "-9223372036854775808");
  T_EQ_STR(fmt_num(val_num_mul(val_int(3037000500LL), val_int(3037000500LL))),
           "9223372037000250000");
  T_EQ_STR(fmt_num(val_num_mul(val_int(6), val_int(7))), "42");
  T_EQ_STR(fmt_num(val_num_neg(val_int(INT64_MIN))), "9223372036854780000");
  T_EQ_STR(fmt_num(val_num_neg(num("1.50"))), "-1.5");
  T_EQ_STR(fmt_num(val_num_add(num("1e3"), val_int(1))), "1001");
  T_EQ_STR(fmt_num(val_num_sub(val_double(INFINITY), val_double(INFINITY))),
           "0");
  Value s = val_num_add(val_sensitive(val_int(1)), val_int(2));
  T_CHECK(val_is_sensitive(s));
  T_CHECK(!val_is_sensitive(val_num_add(val_int(1), val_int(2))));
  Value u = val_num_mul(val_unknown(&ty_number), val_sensitive(val_int(2)));
  T_CHECK(val_is_unknown(u) && val_is_sensitive(u) && u.type == &ty_number);
  T_CHECK(val_num_div(val_unknown(&ty_number), val_int(0), &r));
  T_CHECK(val_is_unknown(r));
  T_CHECK(val_is_null(val_num_add(val_null(&ty_number), val_int(1))));
}

static void test_number_compare(void)
{
  T_EQ_INT(val_num_cmp(val_int(1), val_double(1.5)), -1);
  T_EQ_INT(val_num_cmp(val_double(1.5), val_int(1)), 1);
  T_EQ_INT(val_num_cmp(num("1.50"), val_double(1.5)), 0);
  T_EQ_INT(val_num_cmp(num("1e3"), val_int(1000)), 0);
  T_EQ_INT(val_num_cmp(num("123456789012345678901234567890"),
                       num("123456789012345678901234567891")), -1);
  T_EQ_INT(val_num_cmp(num("-123456789012345678901234567890"),
                       num("-123456789012345678901234567891")), 1);
  T_EQ_INT(val_num_cmp(val_int(INT64_MAX), val_double(9.3e18)), -1);
  T_EQ_INT(val_num_cmp(val_int(INT64_MIN), val_double(-9.3e18)), 1);
  T_EQ_INT(val_num_cmp(val_int(-2), val_double(-1.5)), -1);
  T_EQ_INT(val_num_cmp(val_int(-1), val_double(-1.5)), 1);
  T_EQ_INT(val_num_cmp(num("0.0"), val_int(0)), 0);
  T_EQ_INT(val_num_cmp(num("-0"), num("0")), 0);
  T_CHECK(val_raw_equal(num("1.50"), val_double(1.5), true));
  T_CHECK(!val_raw_equal(num("1.51"), val_double(1.5), true));
  /* A double survives the state's round trip (its 15 digits written, read
  ** back), so a computed number plans no change on the next run: 1/3 and
  ** the text the state holds for it, 0.1 + 0.2 and a Terraform state's
  ** 0.3.  A literal keeps every digit. */
  T_CHECK(val_raw_equal(val_double(1.0 / 3), num("0.333333333333333"), true));
  T_CHECK(val_raw_equal(val_double(0.1 + 0.2), num("0.3"), true));
  T_CHECK(val_raw_equal(val_double(2.0 / 3), num("0.666666666666667"), true));
  T_CHECK(val_raw_equal(num("1.2345678901234567"), num("1.2345678901234567"),
                        true));
  T_CHECK(!val_raw_equal(num("1.2345678901234567"), num("1.2345678901234568"),
                         true));
  T_CHECK(val_double(2.0000000000000018).u.i == 2);
  T_CHECK(val_raw_equal(val_double(1.0 / 3),
                        num("0.33333333333333333333333333333333333333"), true));
  T_CHECK(!val_raw_equal(num("0.3333333333333330"),
                         num("0.33333333333333333333333333333333333333"), true));
}

/* ---- types ------------------------------------------------------------ */

static void test_types(void)
{
  T_CHECK(ty_list(&A, &ty_string) == ty_list(&A, &ty_string));
  T_CHECK(ty_list(&A, &ty_string) != ty_set(&A, &ty_string));
  const Type *ll = ty_list(&A, ty_list(&A, &ty_number));
  const Type *ll2 = ty_list(&A, ty_list(&A, &ty_number));
  T_CHECK(ll != ll2 && ty_equal(ll, ll2));
  T_CHECK(!ty_equal(ll, ty_list(&A, ty_set(&A, &ty_number))));
  const char *n1[] = {"b", "a"};
  const Type *t1[] = {&ty_number, &ty_string};
  const Type *o = ty_object(&A, 2, n1, t1);
  T_EQ_STR(o->names[0], "a");
  T_CHECK(o->types[0] == &ty_string);
  T_EQ_INT(ty_attr_index(o, "b"), 1);
  T_EQ_INT(ty_attr_index(o, "c"), -1);
  T_EQ_INT(ty_attr_index(&ty_string, "a"), -1);
  const char *n2[] = {"a", "b"};
  const Type *t2[] = {&ty_string, &ty_number};
  T_CHECK(ty_equal(o, ty_object(&A, 2, n2, t2)));
  uint8_t opt[] = {0, 1};
  T_CHECK(!ty_equal(o, ty_object_opt(&A, 2, n2, t2, opt, NULL)));
  T_CHECK(ty_equal(&ty_empty_object, ty_object(&A, 0, NULL, NULL)));
  const Type *tu = ty_tuple(&A, 2, t2);
  T_CHECK(!ty_equal(tu, ty_tuple(&A, 2, t1)));
  T_CHECK(ty_equal(&ty_empty_tuple, ty_tuple(&A, 0, NULL)));
  T_CHECK(!ty_equal(&ty_empty_tuple, &ty_empty_object));
  T_CHECK(ty_has_dynamic(ty_map(&A, ty_tuple(&A, 2, (const Type *[]){
                                                 &ty_string, &ty_dynamic}))));
  T_CHECK(!ty_has_dynamic(o));

  T_EQ_STR(friendly(&ty_string), "string");
  T_EQ_STR(friendly(&ty_number), "number");
  T_EQ_STR(friendly(&ty_bool), "bool");
  T_EQ_STR(friendly(&ty_dynamic), "dynamic");
  T_EQ_STR(friendly(ty_list(&A, &ty_string)), "list of string");
  T_EQ_STR(friendly(ty_set(&A, &ty_number)), "set of number");
  T_EQ_STR(friendly(ty_map(&A, &ty_bool)), "map of bool");
  T_EQ_STR(friendly(ty_list(&A, ty_map(&A, &ty_string))),
           "list of map of string");
  T_EQ_STR(friendly(o), "object");
  T_EQ_STR(friendly(tu), "tuple");

  T_EQ_STR(hcl(&ty_dynamic), "any");
  T_EQ_STR(hcl(ty_list(&A, &ty_string)), "list(string)");
  T_EQ_STR(hcl(ty_map(&A, &ty_number)), "map(number)");
  T_EQ_STR(hcl(ty_set(&A, &ty_bool)), "set(bool)");
  T_EQ_STR(hcl(o), "object({a=string,b=number})");
  T_EQ_STR(hcl(ty_object_opt(&A, 2, n2, t2, opt, NULL)),
           "object({a=string,b=optional(number)})");
  T_EQ_STR(hcl(tu), "tuple([string,number])");
  T_EQ_STR(hcl(&ty_empty_object), "object({})");
  T_EQ_STR(hcl(&ty_empty_tuple), "tuple([])");
}

/* ---- values ----------------------------------------------------------- */

static void test_constructors(void)
{
  T_CHECK(val_is_null(val_null(&ty_string)));
  T_CHECK(!val_is_known(val_unknown(&ty_string)));
  T_CHECK(val_is_known(val_null(&ty_string)));
  T_CHECK(val_true.u.b && !val_false.u.b && val_bool(true).u.b);
  T_CHECK(val_is_unknown(val_dynamic_unknown) &&
          val_dynamic_unknown.type == &ty_dynamic);
  T_CHECK(val_is_null(val_dynamic_null));

  Value s = val_str(&A, "a\0b", 3);
  T_EQ_INT(s.len, 3);
  T_CHECK(s.u.s[1] == 0 && s.u.s[2] == 'b' && s.u.s[3] == 0);
  T_EQ_STR(val_cstr(&A, "hi").u.s, "hi");
  T_CHECK(val_str_ref("xy", 2).type == &ty_string);

  Value *el = ARENA_NEW(&A, Value, 2);
  el[0] = S("x");
  el[1] = S("y");
  Value l = val_list(&A, NULL, el, 2);
  T_CHECK(l.type->kind == TY_LIST && l.type->elem == &ty_string);
  T_EQ_INT(l.len, 2);
  Value le = val_list(&A, NULL, NULL, 0);
  T_CHECK(le.type->elem == &ty_dynamic && le.len == 0);

  Value *te = ARENA_NEW(&A, Value, 2);
  te[0] = S("x");
  te[1] = val_int(1);
  Value t = val_tuple(&A, te, 2);
  T_CHECK(t.type->kind == TY_TUPLE && t.type->n == 2);
  T_CHECK(t.type->types[1] == &ty_number);
  T_CHECK(val_tuple(&A, NULL, 0).type == &ty_empty_tuple);

  const char *names[] = {"zeta", "alpha", "mid"};
  Value vals[] = {val_int(3), val_int(1), val_int(2)};
  Value o = val_object(&A, 3, names, vals);
  T_EQ_STR(o.type->names[0], "alpha");
  T_EQ_STR(o.type->names[2], "zeta");
  T_EQ_INT(o.u.elems[0].u.i, 1);
  bool found = false;
  T_EQ_INT(val_attr(o, "zeta", &found).u.i, 3);
  T_CHECK(found);
  Value miss = val_attr(o, "nope", &found);
  T_CHECK(!found && val_is_null(miss));
  T_CHECK(val_object(&A, 0, NULL, NULL).type == &ty_empty_object);
  Value uo = val_unknown(o.type);
  T_CHECK(val_is_unknown(val_attr(uo, "mid", &found)) && found);

  Value *tv = ARENA_NEW(&A, Value, 3);
  tv[0] = val_int(10);
  tv[1] = val_int(20);
  tv[2] = val_int(30);
  Value ot = val_object_typed(o.type, tv);
  T_EQ_INT(val_attr(ot, "mid", NULL).u.i, 20);

  MapEntry *me = ARENA_NEW(&A, MapEntry, 3);
  me[0] = (MapEntry){"b", 1, val_int(2)};
  me[1] = (MapEntry){"a", 1, val_int(1)};
  me[2] = (MapEntry){"aa", 2, val_int(3)};
  Value m = val_map(&A, &ty_number, me, 3);
  T_EQ_STR(m.u.entries[0].key, "a");
  T_EQ_STR(m.u.entries[1].key, "aa");
  T_EQ_STR(m.u.entries[2].key, "b");
  T_EQ_INT(val_map_get(m, "aa", 2, &found).u.i, 3);
  T_CHECK(found);
  val_map_get(m, "c", 1, &found);
  T_CHECK(!found);
  T_CHECK(m.type == ty_map(&A, &ty_number));
}

static void test_set_order(void)
{
  Value *el = ARENA_NEW(&A, Value, 6);
  el[0] = S("b");
  el[1] = val_unknown(&ty_string);
  el[2] = S("a");
  el[3] = S("b");
  el[4] = val_unknown(&ty_string);
  el[5] = val_sensitive(S("a"));
  Value s = val_set(&A, &ty_string, el, 6);
  T_EQ_INT(s.len, 4);
  T_EQ_STR(s.u.elems[0].u.s, "a");
  T_CHECK(val_is_sensitive(s.u.elems[0]));
  T_EQ_STR(s.u.elems[1].u.s, "b");
  T_CHECK(val_is_unknown(s.u.elems[2]) && val_is_unknown(s.u.elems[3]));

  Value *nn = ARENA_NEW(&A, Value, 5);
  nn[0] = val_int(3);
  nn[1] = val_double(1.5);
  nn[2] = val_int(2);
  nn[3] = num("3.0");
  nn[4] = val_int(-1);
  Value ns = val_set(&A, &ty_number, nn, 5);
  T_EQ_INT(ns.len, 4);
  T_EQ_STR(fmt_num(ns.u.elems[0]), "-1");
  T_EQ_STR(fmt_num(ns.u.elems[1]), "1.5");
  T_EQ_STR(fmt_num(ns.u.elems[3]), "3");

  /* Strings order bytewise, shorter first. */
  Value *ss = ARENA_NEW(&A, Value, 4);
  ss[0] = S("ab");
  ss[1] = S("a");
  ss[2] = S("B");
  ss[3] = S("\xc3\xa9");
  Value st = val_set(&A, &ty_string, ss, 4);
  T_EQ_STR(st.u.elems[0].u.s, "B");
  T_EQ_STR(st.u.elems[1].u.s, "a");
  T_EQ_STR(st.u.elems[2].u.s, "ab");
  T_EQ_STR(st.u.elems[3].u.s, "\xc3\xa9");

  /* Sets of lists: element by element, then length. */
  Value *l1 = ARENA_NEW(&A, Value, 2), *l2 = ARENA_NEW(&A, Value, 1);
  l1[0] = S("a");
  l1[1] = S("b");
  l2[0] = S("a");
  Value *sl = ARENA_NEW(&A, Value, 3);
  sl[0] = val_list(&A, &ty_string, l1, 2);
  sl[1] = val_list(&A, &ty_string, l2, 1);
  sl[2] = val_list(&A, &ty_string, l1, 2);
  Value sll = val_set(&A, ty_list(&A, &ty_string), sl, 3);
  T_EQ_INT(sll.len, 2);
  T_EQ_INT(sll.u.elems[0].len, 1);

  /* A known list holding an unknown is never merged with its twin. */
  Value *lu = ARENA_NEW(&A, Value, 1);
  lu[0] = val_unknown(&ty_string);
  Value *su = ARENA_NEW(&A, Value, 2);
  su[0] = val_list(&A, &ty_string, lu, 1);
  su[1] = val_list(&A, &ty_string, lu, 1);
  T_EQ_INT(val_set(&A, ty_list(&A, &ty_string), su, 2).len, 2);
}

static void test_compare(void)
{
  T_EQ_INT(val_compare(val_null(&ty_string), S("a")), -1);
  T_EQ_INT(val_compare(val_unknown(&ty_string), S("a")), 1);
  T_EQ_INT(val_compare(S("a"), val_int(1)), -1);  /* by kind */
  T_EQ_INT(val_compare(val_false, val_true), -1);
  T_EQ_INT(val_compare(val_true, val_true), 0);
  T_EQ_INT(val_compare(S("a"), S("a")), 0);
  T_EQ_INT(val_compare(val_sensitive(S("a")), S("a")), 0);
  const char *n[] = {"a"};
  Value v1[] = {val_int(1)}, v2[] = {val_int(2)};
  T_EQ_INT(val_compare(val_object(&A, 1, n, v1), val_object(&A, 1, n, v2)),
           -1);
}

static void test_raw_equal(void)
{
  Value *e1 = ARENA_NEW(&A, Value, 2), *e2 = ARENA_NEW(&A, Value, 2);
  e1[0] = e2[0] = S("a");
  e1[1] = e2[1] = S("b");
  Value l = val_list(&A, &ty_string, e1, 2);
  Value t = val_tuple(&A, e2, 2);
  T_CHECK(!val_raw_equal(l, t, false));
  T_CHECK(val_raw_equal(l, val_list(&A, &ty_string, e2, 2), false));
  T_CHECK(!val_raw_equal(val_int(1), S("1"), false));
  T_CHECK(val_raw_equal(val_null(&ty_string), val_null(&ty_string), true));
  T_CHECK(!val_raw_equal(val_null(&ty_string), val_null(&ty_number), true));
  T_CHECK(!val_raw_equal(val_null(&ty_string), S(""), true));
  T_CHECK(val_raw_equal(val_unknown(&ty_bool), val_unknown(&ty_bool), true));
  T_CHECK(!val_raw_equal(val_unknown(&ty_bool), val_true, true));
  T_CHECK(val_raw_equal(val_sensitive(S("x")), S("x"), false));
  T_CHECK(!val_raw_equal(val_sensitive(S("x")), S("x"), true));
  T_CHECK(!val_raw_equal(S("ab"), S("a"), false));
  MapEntry *m1 = ARENA_NEW(&A, MapEntry, 1), *m2 = ARENA_NEW(&A, MapEntry, 1);
  m1[0] = (MapEntry){"k", 1, val_int(1)};
  m2[0] = (MapEntry){"k", 1, val_sensitive(val_int(1))};
  Value ma = val_map(&A, &ty_number, m1, 1);
  Value mb = val_map(&A, &ty_number, m2, 1);
  T_CHECK(val_raw_equal(ma, mb, false));
  T_CHECK(!val_raw_equal(ma, mb, true));
}

static void test_marks_deep(void)
{
  Value *el = ARENA_NEW(&A, Value, 2);
  el[0] = S("a");
  el[1] = val_sensitive(S("b"));
  Value l = val_list(&A, &ty_string, el, 2);
  T_CHECK(!val_is_sensitive(l));
  T_CHECK(val_has_sensitive(l));
  Value u = val_unmark_deep(&A, val_sensitive(l));
  T_CHECK(!val_has_sensitive(u));
  T_CHECK(val_has_sensitive(l));  /* the original is untouched */
  T_CHECK(val_is_wholly_known(l));
  el[0] = val_unknown(&ty_string);
  T_CHECK(!val_is_wholly_known(l));
  T_CHECK(val_is_wholly_known(val_null(ty_list(&A, &ty_string))));
}

/* The ephemeral mark: found at any depth, marked at every depth by
** val_ephemeral_deep, removed with the sensitive one by the unmark
** functions, carried by arithmetic and kept apart by raw equality. */
static void test_ephemeral_marks(void)
{
  Value *el = ARENA_NEW(&A, Value, 2);
  el[0] = S("a");
  el[1] = val_ephemeral(S("b"));
  Value l = val_list(&A, &ty_string, el, 2);
  T_EQ_INT(val_marks_deep(l), VF_EPHEMERAL);
  T_CHECK(val_has_ephemeral(l) && !val_has_sensitive(l));
  el[0] = val_sensitive(S("a"));
  T_EQ_INT(val_marks_deep(l), VF_MARKS);
  Value u = val_unmark_deep(&A, l);
  T_EQ_INT(val_marks_deep(u), 0);
  T_EQ_INT(val_marks_deep(l), VF_MARKS);   /* the original is untouched */
  Value d = val_ephemeral_deep(&A, u);
  T_CHECK((d.flags & VF_EPHEMERAL) && (d.u.elems[0].flags & VF_EPHEMERAL) &&
          (d.u.elems[1].flags & VF_EPHEMERAL));
  T_CHECK(!val_has_ephemeral(u));
  Value sum = val_num_add(val_ephemeral(val_int(1)), val_int(2));
  T_CHECK((sum.flags & VF_EPHEMERAL) && sum.u.i == 3);
  T_CHECK(val_raw_equal(val_int(1), val_ephemeral(val_int(1)), false));
  T_CHECK(!val_raw_equal(val_int(1), val_ephemeral(val_int(1)), true));
  T_CHECK(!(val_unmark(val_ephemeral(val_sensitive(S("x")))).flags &
            VF_MARKS));
}

static void test_paths(void)
{
  Value *li = ARENA_NEW(&A, Value, 2);
  li[0] = val_int(10);
  li[1] = val_int(20);
  MapEntry *me = ARENA_NEW(&A, MapEntry, 1);
  me[0] = (MapEntry){"k", 1, val_list(&A, &ty_number, li, 2)};
  const char *nb[] = {"b"};
  Value vb[] = {val_map(&A, NULL, me, 1)};
  const char *na[] = {"a"};
  Value va[] = {val_object(&A, 1, nb, vb)};
  Value root = val_object(&A, 1, na, va);

  PathStep st[] = {{PS_ATTR, "a", 0}, {PS_ATTR, "b", 0}, {PS_KEY, "k", 0},
                   {PS_INDEX, NULL, 1}};
  ValPath p = {st, 4};
  Value out = val_dynamic_null;
  T_CHECK(val_path_get(root, p, &out));
  T_EQ_INT(out.u.i, 20);
  Buf b;
  buf_init(&b, &A);
  val_path_format(&b, p, true);
  T_EQ_STR(buf_str(&b), ".a.b[\"k\"][1]");
  buf_clear(&b);
  val_path_format(&b, p, false);
  T_EQ_STR(buf_str(&b), "a.b[\"k\"][1]");

  PathStep bad1[] = {{PS_ATTR, "zz", 0}};
  T_CHECK(!val_path_get(root, (ValPath){bad1, 1}, &out));
  PathStep bad2[] = {{PS_ATTR, "a", 0}, {PS_ATTR, "b", 0}, {PS_KEY, "k", 0},
                     {PS_INDEX, NULL, 2}};
  T_CHECK(!val_path_get(root, (ValPath){bad2, 4}, &out));
  PathStep bad3[] = {{PS_INDEX, NULL, 0}};
  T_CHECK(!val_path_get(root, (ValPath){bad3, 1}, &out));
  T_CHECK(val_path_get(root, (ValPath){NULL, 0}, &out));
  T_CHECK(out.type == root.type);

  /* Through an unknown: the unknown of the step's type. */
  Value uroot = val_unknown(root.type);
  PathStep s1[] = {{PS_ATTR, "a", 0}};
  T_CHECK(val_path_get(uroot, (ValPath){s1, 1}, &out));
  T_CHECK(val_is_unknown(out) && out.type->kind == TY_OBJECT);

  PathStep q[] = {{PS_KEY, "a\"b\\", 0}};
  buf_clear(&b);
  val_path_format(&b, (ValPath){q, 1}, true);
  T_EQ_STR(buf_str(&b), "[\"a\\\"b\\\\\"]");
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_number_table);
  T_RUN(test_number_malformed);
  T_RUN(test_number_double);
  T_RUN(test_number_arith);
  T_RUN(test_number_compare);
  T_RUN(test_types);
  T_RUN(test_constructors);
  T_RUN(test_set_order);
  T_RUN(test_compare);
  T_RUN(test_raw_equal);
  T_RUN(test_marks_deep);
  T_RUN(test_ephemeral_marks);
  T_RUN(test_paths);
  arena_release(&A);
  return t_done("value");
}
