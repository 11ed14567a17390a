/*
** Unit tests for the time provider's functions (provider::time::*),
** values from upstream's acceptance tests (function_*_parse_test.go) and
** Go's time package for the edges they do not cover.
*/
#include <string.h>

#include "providers/provider.h"
#include "t.h"

static Arena A;

/* Calls provider::time::fn(arg); the answer's result rendered as
** "name=value ..." in attribute order, or "error[ARG]: text". */
static const char *run(const char *fn, Value arg)
{
  Prov *p = prov_open_builtin(&A, prov_lookup_builtin("time"));
  Diags d;
  diag_init(&d, &A);
  ProvCall c = {.arena = &A, .diags = &d};
  ProvCallFuncReq req = {.name = fn, .args = &arg, .nargs = 1};
  ProvCallFuncResp resp;
  prov_call_function(p, &c, &req, &resp);
  if (resp.error)
    return arena_printf(&A, "error[%lld]: %s", (long long)resp.error_arg,
                        resp.error);
  const ProvProviderSchema *s;
  p->ops->get_schema(p, &c, &s);
  const ProvFunction *f = prov_schema_function(s, fn);
  T_CHECK(f && ty_equal(resp.result.type, f->return_type));
  Buf b;
  buf_init(&b, &A);
  const Type *t = resp.result.type;
  for (uint32_t i = 0; i < t->n; i++) {
    Value v = val_attr(resp.result, t->names[i], NULL);
    buf_puts(&b, i ? " " : "");
    buf_puts(&b, t->names[i]);
    buf_puts(&b, "=");
    if (v.type->kind == TY_STRING)
      buf_puts(&b, v.u.s);
    else
      val_num_format(&b, v);
  }
  return buf_str(&b);
}

static const char *rfc(const char *s)
{
  return run("rfc3339_parse", val_cstr(&A, s));
}
static const char *dur(const char *s)
{
  return run("duration_parse", val_cstr(&A, s));
}
static const char *unx(int64_t ts)
{
  return run("unix_timestamp_parse", val_int(ts));
}

static void test_schema(void)
{
  Prov *p = prov_open_builtin(&A, prov_lookup_builtin("time"));
  Diags d;
  diag_init(&d, &A);
  ProvCall c = {.arena = &A, .diags = &d};
  const ProvProviderSchema *s;
  p->ops->get_schema(p, &c, &s);
  T_EQ_INT(s->nfunctions, 3);
  const ProvFunction *f = prov_schema_function(s, "unix_timestamp_parse");
  T_CHECK(f && f->nparams == 1 && f->params[0].type == &ty_number);
  T_EQ_STR(f->params[0].name, "unix_timestamp");
  T_CHECK(!f->params[0].allow_null_value &&
          !f->params[0].allow_unknown_values);
  f = prov_schema_function(s, "rfc3339_parse");
  T_CHECK(f && f->params[0].type == &ty_string);
  T_EQ_STR(f->params[0].name, "timestamp");
  f = prov_schema_function(s, "duration_parse");
  T_CHECK(f && f->params[0].type == &ty_string);
  T_EQ_STR(f->params[0].name, "duration");
}

static void test_rfc3339_parse(void)
{
  /* upstream's TestRFC3339Parse_UTC and _offset */
  const char *utc = "day=25 hour=23 iso_week=30 iso_year=2023 minute=43 "
                    "month=7 month_name=July second=16 unix=1690328596 "
                    "weekday=2 weekday_name=Tuesday year=2023 year_day=206";
  T_EQ_STR(rfc("2023-07-25T23:43:16Z"), utc);
  T_EQ_STR(rfc("2023-07-25T23:43:16-00:00"), utc);
  T_EQ_STR(rfc("2023-07-25T23:43:16+00:00"), utc);
  T_EQ_STR(rfc("1996-12-19T16:39:57-08:00"),
           "day=19 hour=16 iso_week=51 iso_year=1996 minute=39 month=12 "
           "month_name=December second=57 unix=851042397 weekday=4 "
           "weekday_name=Thursday year=1996 year_day=354");
  /* fields in the written offset; fractional seconds dropped from unix */
  T_EQ_STR(rfc("2024-01-01T01:30:00.999+05:30"),
           "day=1 hour=1 iso_week=1 iso_year=2024 minute=30 month=1 "
           "month_name=January second=0 unix=1704052800 weekday=1 "
           "weekday_name=Monday year=2024 year_day=1");
  /* leap day and the last day of a leap year */
  T_EQ_STR(rfc("2024-02-29T12:00:00Z"),
           "day=29 hour=12 iso_week=9 iso_year=2024 minute=0 month=2 "
           "month_name=February second=0 unix=1709208000 weekday=4 "
           "weekday_name=Thursday year=2024 year_day=60");
  T_EQ_STR(rfc("2020-12-31T23:59:59Z"),
           "day=31 hour=23 iso_week=53 iso_year=2020 minute=59 month=12 "
           "month_name=December second=59 unix=1609459199 weekday=4 "
           "weekday_name=Thursday year=2020 year_day=366");
  /* ISO weeks across new year: 2021-01-03 (Sunday) is in 2020's week 53,
  ** 2024-12-30 (Monday) in 2025's week 1, 2027-01-01 (Friday) in 2026's
  ** week 53 */
  T_EQ_STR(rfc("2021-01-03T00:00:00Z"),
           "day=3 hour=0 iso_week=53 iso_year=2020 minute=0 month=1 "
           "month_name=January second=0 unix=1609632000 weekday=0 "
           "weekday_name=Sunday year=2021 year_day=3");
  T_EQ_STR(rfc("2024-12-30T00:00:00Z"),
           "day=30 hour=0 iso_week=1 iso_year=2025 minute=0 month=12 "
           "month_name=December second=0 unix=1735516800 weekday=1 "
           "weekday_name=Monday year=2024 year_day=365");
  T_EQ_STR(rfc("2027-01-01T00:00:00Z"),
           "day=1 hour=0 iso_week=53 iso_year=2026 minute=0 month=1 "
           "month_name=January second=0 unix=1798761600 weekday=5 "
           "weekday_name=Friday year=2027 year_day=1");
  /* before the epoch */
  T_EQ_STR(rfc("1969-12-31T23:59:59Z"),
           "day=31 hour=23 iso_week=1 iso_year=1970 minute=59 month=12 "
           "month_name=December second=59 unix=-1 weekday=3 "
           "weekday_name=Wednesday year=1969 year_day=365");
  /* upstream's TestRFC3339Parse_invalid, and Go's parse failures */
  T_EQ_STR(rfc("abcdef"), "error[0]: Error parsing RFC3339 timestamp: "
                          "\"abcdef\" is not a valid RFC3339 timestamp");
  T_EQ_STR(rfc("2023-02-29T00:00:00Z"),
           "error[0]: Error parsing RFC3339 timestamp: "
           "\"2023-02-29T00:00:00Z\" is not a valid RFC3339 timestamp");
  T_EQ_STR(rfc("2023-07-25 23:43:16Z"),
           "error[0]: Error parsing RFC3339 timestamp: "
           "\"2023-07-25 23:43:16Z\" is not a valid RFC3339 timestamp");
}

static void test_duration_parse(void)
{
  /* upstream's TestDurationParse_valid: all the same hour */
  const char *hour = "hours=1 microseconds=3600000000 milliseconds=3600000 "
                     "minutes=60 nanoseconds=3600000000000 seconds=3600";
  T_EQ_STR(dur("1h"), hour);
  T_EQ_STR(dur("60m"), hour);
  T_EQ_STR(dur("3600s"), hour);
  T_EQ_STR(dur("3600000ms"), hour);
  T_EQ_STR(dur("3600000000us"), hour);
  T_EQ_STR(dur("3600000000000ns"), hour);
  T_EQ_STR(dur("1h2m3.5s"),
           "hours=1.03430555555556 microseconds=3723500000 "
           "milliseconds=3723500 minutes=62.0583333333333 "
           "nanoseconds=3723500000000 seconds=3723.5");
  T_EQ_STR(dur("-1.5h"),
           "hours=-1.5 microseconds=-5400000000 milliseconds=-5400000 "
           "minutes=-90 nanoseconds=-5400000000000 seconds=-5400");
  T_EQ_STR(dur("300ms"),
           "hours=0.0000833333333333333 microseconds=300000 "
           "milliseconds=300 minutes=0.005 nanoseconds=300000000 "
           "seconds=0.3");
  /* Go truncates milli/microseconds toward zero */
  const char *two_us = "hours=0.000000000555555555555556 microseconds=2 "
                       "milliseconds=0 minutes=0.0000000333333333333333 "
                       "nanoseconds=2000 seconds=0.000002";
  T_EQ_STR(dur("2us"), two_us);
  T_EQ_STR(dur("2\xc2\xb5s"), two_us);
  T_EQ_STR(dur("-1500ns"),
           "hours=-0.000000000416666666666667 microseconds=-1 "
           "milliseconds=0 minutes=-0.000000025 nanoseconds=-1500 "
           "seconds=-0.0000015");
  T_EQ_STR(dur("0"), "hours=0 microseconds=0 milliseconds=0 minutes=0 "
                     "nanoseconds=0 seconds=0");
  /* upstream's TestDurationParse_invalid, and Go's other refusals */
  T_EQ_STR(dur("abcdef"), "error[0]: Error parsing duration string: "
                          "\"abcdef\" is not a valid duration string");
  T_EQ_STR(dur("1d"), "error[0]: Error parsing duration string: "
                      "\"1d\" is not a valid duration string");
  T_EQ_STR(dur(""), "error[0]: Error parsing duration string: "
                    "\"\" is not a valid duration string");
  T_EQ_STR(dur("3000000h"), "error[0]: Error parsing duration string: "
                            "\"3000000h\" is not a valid duration string");
}

static void test_unix_timestamp_parse(void)
{
  /* upstream's TestUnixTimestampParseFunction_Valid */
  T_EQ_STR(unx(1690328596),
           "day=25 hour=23 iso_week=30 iso_year=2023 minute=43 month=7 "
           "month_name=July rfc3339=2023-07-25T23:43:16Z second=16 "
           "weekday=2 weekday_name=Tuesday year=2023 year_day=206");
  T_EQ_STR(unx(0),
           "day=1 hour=0 iso_week=1 iso_year=1970 minute=0 month=1 "
           "month_name=January rfc3339=1970-01-01T00:00:00Z second=0 "
           "weekday=4 weekday_name=Thursday year=1970 year_day=1");
  T_EQ_STR(unx(-86401),
           "day=30 hour=23 iso_week=1 iso_year=1970 minute=59 month=12 "
           "month_name=December rfc3339=1969-12-30T23:59:59Z second=59 "
           "weekday=2 weekday_name=Tuesday year=1969 year_day=364");
  T_EQ_STR(unx(951782400),
           "day=29 hour=0 iso_week=9 iso_year=2000 minute=0 month=2 "
           "month_name=February rfc3339=2000-02-29T00:00:00Z second=0 "
           "weekday=2 weekday_name=Tuesday year=2000 year_day=60");
  /* the ends of Go's range (go1.19's answers), and past it, where Go's
  ** own arithmetic wraps and cairn keeps the proleptic calendar */
  T_EQ_STR(unx(-9000000000000000000),
           "day=12 hour=8 iso_week=37 iso_year=-285198644592 minute=0 "
           "month=9 month_name=September "
           "rfc3339=-285198644592-09-12T08:00:00Z second=0 weekday=1 "
           "weekday_name=Monday year=-285198644592 year_day=256");
  T_EQ_STR(unx(9000000000000000000),
           "day=21 hour=16 iso_week=16 iso_year=285198648531 minute=0 "
           "month=4 month_name=April rfc3339=285198648531-04-21T16:00:00Z "
           "second=0 weekday=6 weekday_name=Saturday year=285198648531 "
           "year_day=111");
  T_EQ_STR(unx(INT64_MAX - 62135596800),
           "day=6 hour=15 iso_week=49 iso_year=292277024627 minute=30 "
           "month=12 month_name=December "
           "rfc3339=292277024627-12-06T15:30:07Z second=7 weekday=4 "
           "weekday_name=Thursday year=292277024627 year_day=340");
  T_CHECK(strstr(unx(INT64_MIN + 33), "year=-292277022657") != NULL);
  T_EQ_STR(run("unix_timestamp_parse", val_double(1.5)),
           "error[0]: Value 1.5 is not an integer.");
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_schema);
  T_RUN(test_rfc3339_parse);
  T_RUN(test_duration_parse);
  T_RUN(test_unix_timestamp_parse);
  int rc = t_done("prov_timefn");
  arena_release(&A);
  return rc;
}
