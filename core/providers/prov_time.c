/*
** prov_time: the built-in hashicorp/time provider.
**
** time_offset, time_rotating, time_sleep and time_static with the
** upstream (plugin framework) provider's schemas, plan behaviour, import
** formats and messages.  Timestamps follow Go's time package: RFC 3339
** as time.Parse reads it (the offset is kept and used for the calendar
** fields and the formatted text; fractions are dropped on output),
** AddDate normalising like time.Date (Jan 31 + 1 month = Mar 2 or 3),
** durations as time.ParseDuration reads them.
**
** Where cairn differs (docs/providers.md):
** - time_offset recomputes the planned values when base_rfc3339 changes
**   as well as when an offset changes (upstream plans the old values and
**   then returns new ones, which Terraform reports as an inconsistent
**   result);
** - Go's parse errors are reproduced for the layout elements RFC 3339
**   uses; exotic inputs may word the error differently.
*/
#include "provider.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const Type map_string = {.kind = TY_MAP, .elem = &ty_string};

#define NATTRS(x) ((uint32_t)(sizeof(x) / sizeof((x)[0])))
#define OPT PROV_OPTIONAL
#define OC (PROV_OPTIONAL | PROV_COMPUTED)
#define COMP PROV_COMPUTED

#define INT_COMP(n, what)                                                  \
  {.name = n, .type = &ty_number, .flags = COMP,                           \
   .description = "Number " what " of timestamp."}
#define INT_COMP_OFF(n, what)                                              \
  {.name = n, .type = &ty_number, .flags = COMP,                           \
   .description = "Number " what " of offset timestamp."}
#define UNIX_ATTR                                                          \
  {.name = "unix", .type = &ty_number, .flags = COMP,                      \
   .description = "Number of seconds since epoch time, e.g. "              \
                  "`1581489373`."}
#define BASE_DESC                                                          \
  "Base timestamp in "                                                     \
  "[RFC3339](https://datatracker.ietf.org/doc/html/rfc3339#section-5.8) "  \
  "format (see [RFC3339 time string](https://tools.ietf.org/html/rfc3339"  \
  "#section-5.8) e.g., `YYYY-MM-DDTHH:MM:SSZ`). Defaults to the current "  \
  "time."
#define ROT_DESC(unit)                                                     \
  "Number of " unit " to add to the base timestamp to configure the "      \
  "rotation timestamp. When the current time has passed the rotation "     \
  "timestamp, the resource will trigger recreation. At least one of the " \
  "'rotation_' arguments must be configured."
#define OFF_DESC(unit)                                                     \
  "Number of " unit " to offset the base timestamp. At least one of the "  \
  "'offset_' arguments must be configured."

static const ProvAttrSchema static_attrs[] = {
  INT_COMP("day", "day"),
  INT_COMP("hour", "hour"),
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "RFC3339 format of the offset timestamp, e.g. "
                  "`2020-02-12T06:36:13Z`."},
  INT_COMP("minute", "minute"),
  INT_COMP("month", "month"),
  {.name = "rfc3339", .type = &ty_string, .flags = OC,
   .description = BASE_DESC},
  INT_COMP("second", "second"),
  {.name = "triggers", .type = &map_string, .flags = OPT,
   .description = "Arbitrary map of values that, when changed, will "
                  "trigger a new base timestamp value to be saved. See "
                  "[the main provider documentation](../index.md) for "
                  "more information."},
  UNIX_ATTR,
  INT_COMP("year", "year"),
};

static const ProvAttrSchema offset_attrs[] = {
  {.name = "base_rfc3339", .type = &ty_string, .flags = OC,
   .description = BASE_DESC},
  INT_COMP_OFF("day", "day"),
  INT_COMP_OFF("hour", "hour"),
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "RFC3339 format of the timestamp, e.g. "
                  "`2020-02-12T06:36:13Z`."},
  INT_COMP_OFF("minute", "minute"),
  INT_COMP_OFF("month", "month"),
  {.name = "offset_days", .type = &ty_number, .flags = OPT,
   .description = OFF_DESC("days")},
  {.name = "offset_hours", .type = &ty_number, .flags = OPT,
   .description = " " OFF_DESC("hours")},
  {.name = "offset_minutes", .type = &ty_number, .flags = OPT,
   .description = OFF_DESC("minutes")},
  {.name = "offset_months", .type = &ty_number, .flags = OPT,
   .description = OFF_DESC("months")},
  {.name = "offset_seconds", .type = &ty_number, .flags = OPT,
   .description = OFF_DESC("seconds")},
  {.name = "offset_years", .type = &ty_number, .flags = OPT,
   .description = OFF_DESC("years")},
  {.name = "rfc3339", .type = &ty_string, .flags = COMP,
   .description = "RFC3339 format of the offset timestamp, e.g. "
                  "`2020-02-12T06:36:13Z`."},
  INT_COMP_OFF("second", "second"),
  {.name = "triggers", .type = &map_string, .flags = OPT,
   .description = "Arbitrary map of values that, when changed, will "
                  "trigger a new base timestamp value to be saved. See "
                  "[the main provider documentation](../index.md) for "
                  "more information."},
  UNIX_ATTR,
  INT_COMP_OFF("year", "year"),
};

static const ProvAttrSchema rotating_attrs[] = {
  INT_COMP("day", "day"),
  INT_COMP("hour", "hour"),
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "RFC3339 format of the timestamp, e.g. "
                  "`2020-02-12T06:36:13Z`."},
  INT_COMP("minute", "minute"),
  INT_COMP("month", "month"),
  {.name = "rfc3339", .type = &ty_string, .flags = OC,
   .description = BASE_DESC},
  {.name = "rotation_days", .type = &ty_number, .flags = OPT,
   .description = ROT_DESC("days")},
  {.name = "rotation_hours", .type = &ty_number, .flags = OPT,
   .description = ROT_DESC("hours")},
  {.name = "rotation_minutes", .type = &ty_number, .flags = OPT,
   .description = ROT_DESC("minutes")},
  {.name = "rotation_months", .type = &ty_number, .flags = OPT,
   .description = ROT_DESC("months")},
  {.name = "rotation_rfc3339", .type = &ty_string, .flags = OC,
   .description = "Configure the rotation timestamp with an "
                  "[RFC3339](https://datatracker.ietf.org/doc/html/rfc3339"
                  "#section-5.8) format of the offset timestamp. When the "
                  "current time has passed the rotation timestamp, the "
                  "resource will trigger recreation. At least one of the "
                  "'rotation_' arguments must be configured."},
  {.name = "rotation_years", .type = &ty_number, .flags = OPT,
   .description = ROT_DESC("years")},
  INT_COMP("second", "second"),
  {.name = "triggers", .type = &map_string, .flags = OPT,
   .description = "Arbitrary map of values that, when changed, will "
                  "trigger a new base timestamp value to be saved. These "
                  "conditions recreate the resource in addition to other "
                  "rotation arguments. See [the main provider "
                  "documentation](../index.md) for more information."},
  UNIX_ATTR,
  INT_COMP("year", "year"),
};

#define DUR_DESC(what)                                                     \
  "[Time duration](https://golang.org/pkg/time/#ParseDuration) to delay "  \
  "resource " what ". For example, `30s` for 30 seconds or `5m` for 5 "    \
  "minutes. Updating this value by itself will not trigger a delay."

static const ProvAttrSchema sleep_attrs[] = {
  {.name = "create_duration", .type = &ty_string, .flags = OPT,
   .description = DUR_DESC("creation")},
  {.name = "destroy_duration", .type = &ty_string, .flags = OPT,
   .description = DUR_DESC("destroy") " This value or any updates to it "
                  "must be successfully applied into the Terraform state "
                  "before destroying this resource to take effect."},
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "RFC3339 format of the offset timestamp, e.g. "
                  "`2020-02-12T06:36:13Z`."},
  {.name = "triggers", .type = &map_string, .flags = OPT,
   .description = "(Optional) Arbitrary map of values that, when changed, "
                  "will run any creation or destroy delays again. See [the "
                  "main provider documentation](../index.md) for more "
                  "information."},
};

static const ProvBlockSchema static_block = {
  .attrs = static_attrs, .nattrs = NATTRS(static_attrs)};
static const ProvBlockSchema offset_block = {
  .attrs = offset_attrs, .nattrs = NATTRS(offset_attrs)};
static const ProvBlockSchema rotating_block = {
  .attrs = rotating_attrs, .nattrs = NATTRS(rotating_attrs)};
static const ProvBlockSchema sleep_block = {
  .attrs = sleep_attrs, .nattrs = NATTRS(sleep_attrs)};
static const ProvBlockSchema empty_block = {0};

enum { T_OFFSET, T_ROTATING, T_SLEEP, T_STATIC };

static const ProvTypeSchema resources[] = {
  [T_OFFSET] = {"time_offset", {0, &offset_block}},
  [T_ROTATING] = {"time_rotating", {0, &rotating_block}},
  [T_SLEEP] = {"time_sleep", {0, &sleep_block}},
  [T_STATIC] = {"time_static", {0, &static_block}},
};
/* ---- Functions (upstream's function_*_parse.go; texts as there) ------- */

/* The return types, attribute names sorted as Type requires: the calendar
** objects of rfc3339_parse [0] and unix_timestamp_parse [1] differ only in
** "unix" vs "rfc3339"; every int64/float64 attribute is a cty number. */
static const char *const cal_names[2][13] = {
  {"day", "hour", "iso_week", "iso_year", "minute", "month", "month_name",
   "second", "unix", "weekday", "weekday_name", "year", "year_day"},
  {"day", "hour", "iso_week", "iso_year", "minute", "month", "month_name",
   "rfc3339", "second", "weekday", "weekday_name", "year", "year_day"},
};
#define I &ty_number
#define S &ty_string
static const Type *const cal_types[2][13] = {
  {I, I, I, I, I, I, S, I, I, I, S, I, I},
  {I, I, I, I, I, I, S, S, I, I, S, I, I},
};
static const char *const dur_names[6] = {
  "hours", "microseconds", "milliseconds", "minutes", "nanoseconds",
  "seconds"};
static const Type *const dur_types[6] = {I, I, I, I, I, I};
#undef I
#undef S
static const Type cal_type[2] = {
  {.kind = TY_OBJECT, .n = 13, .names = cal_names[0], .types = cal_types[0]},
  {.kind = TY_OBJECT, .n = 13, .names = cal_names[1], .types = cal_types[1]},
};
static const Type dur_type = {.kind = TY_OBJECT, .n = 6, .names = dur_names,
                              .types = dur_types};

static const ProvFuncParam fn_params[3] = {
  {.name = "duration", .type = &ty_string,
   .description = "Go time package duration string to parse"},
  {.name = "timestamp", .type = &ty_string,
   .description = "RFC3339 timestamp string to parse"},
  {.name = "unix_timestamp", .type = &ty_number,
   .description = "Unix Timestamp integer to parse"},
};
#define GO_DURATION "[Go duration string](https://pkg.go.dev/time#ParseDuration)"
static const ProvFunction functions[] = {
  {.name = "duration_parse", .params = &fn_params[0], .nparams = 1,
   .return_type = &dur_type,
   .summary = "Parse a " GO_DURATION " into an object",
   .description = "Given a " GO_DURATION ", will parse and return an "
                  "object representation of that duration."},
  {.name = "rfc3339_parse", .params = &fn_params[1], .nparams = 1,
   .return_type = &cal_type[0],
   .summary = "Parse an RFC3339 timestamp string",
   .description = "Given an RFC3339 timestamp string, will parse and return "
                  "an object representation of that date and time."},
  {.name = "unix_timestamp_parse", .params = &fn_params[2], .nparams = 1,
   .return_type = &cal_type[1],
   .summary = "Parse a unix timestamp integer into an object",
   .description = "Given a unix timestamp integer, will parse and return an "
                  "object representation of that date and time. A unix "
                  "timestamp is the number of seconds elapsed since January "
                  "1, 1970 UTC."},
};

static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .resources = resources, .nresources = NATTRS(resources),
  .functions = functions, .nfunctions = NATTRS(functions),
  .plan_destroy = true,
};

/* ---- Go time ------------------------------------------------------------ */

static const char rfc3339_layout[] = "2006-01-02T15:04:05Z07:00";

/* Go's int arithmetic wraps where C's signed arithmetic is undefined: these
** wrap the same way (configuration can ask for offset_years = 2^62). */
static int64_t wadd(int64_t a, int64_t b)
{
  return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wmul(int64_t a, int64_t b)
{
  return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* Days since 1970-01-01 of a proleptic Gregorian date; linear in d, so
** out-of-range days and months normalise as time.Date does.  Wrapping
** arithmetic: past about 2^63 days the answer wraps, as Go's does. */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
  /* months outside 1..12 carry into the year first */
  m = wadd(m, -1);
  y = wadd(y, m / 12 - (m % 12 < 0));
  m = m % 12 + (m % 12 < 0 ? 12 : 0) + 1;
  y = wadd(y, -(m <= 2));
  int64_t era = y / 400 - (y % 400 < 0);  /* floor, without y - 399 */
  int64_t yoe = y % 400 + (y % 400 < 0 ? 400 : 0);
  int64_t doy = wadd((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 - 1, d);
  int64_t doe = wadd(yoe * 365 + yoe / 4 - yoe / 100, doy);
  return wadd(wadd(wmul(era, 146097), doe), -719468);
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

static int64_t floor_div(int64_t a, int64_t b)
{
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* t's day (since 1970-01-01) and second of that day in t's own offset,
** over the whole int64 range (unix + offset may not fit). */
static void day_split(ProvTime t, int64_t *days, int64_t *secs)
{
  int64_t d = t.unix / 86400, s = t.unix % 86400 + t.offset;
  int64_t carry = floor_div(s, 86400);
  *days = d + carry;
  *secs = s - carry * 86400;
}

void prov_time_fields(ProvTime t, ProvTimeFields *f)
{
  int64_t days, secs;
  day_split(t, &days, &secs);
  civil_from_days(days, &f->year, &f->month, &f->day);
  f->hour = (int)(secs / 3600);
  f->minute = (int)(secs / 60 % 60);
  f->second = (int)(secs % 60);
}

ProvTime prov_time_add_date(ProvTime t, int64_t years, int64_t months,
                            int64_t days)
{
  ProvTimeFields f;
  prov_time_fields(t, &f);
  int64_t dn = days_from_civil(wadd(f.year, years), wadd(f.month, months),
                               wadd(f.day, days));
  t.unix = wadd(wmul(dn, 86400),
                f.hour * 3600 + f.minute * 60 + f.second - t.offset);
  return t;
}

/* t.Add(time.Duration(n) * unit): Go's Duration is int64 nanoseconds, so
** the product wraps past about 292 years, and Add saturates Go's internal
** seconds (since year 1) instead of wrapping (time.addSec).  Sub-seconds
** of t are zero here. */
static ProvTime add_duration(ProvTime t, int64_t n, int64_t unit_ns)
{
  const int64_t unix_to_internal = 62135596800LL;
  int64_t d = wmul(n, unit_ns);
  int64_t dsec = floor_div(d, 1000000000);
  int64_t ext = wadd(t.unix, unix_to_internal), sum = wadd(ext, dsec);
  if ((sum > ext) == (dsec > 0))
    ext = sum;
  else
    ext = dsec > 0 ? INT64_MAX : -INT64_MAX;
  t.unix = wadd(ext, -unix_to_internal);
  return t;
}

const char *prov_time_format(Arena *a, ProvTime t)
{
  ProvTimeFields f;
  prov_time_fields(t, &f);
  char zone[8] = "Z";
  if (t.offset != 0) {
    int o = t.offset < 0 ? -t.offset : t.offset;
    snprintf(zone, sizeof zone, "%c%02d:%02d", t.offset < 0 ? '-' : '+',
             o / 3600 % 100, o / 60 % 60);
  }
  return arena_printf(a, "%04lld-%02d-%02dT%02d:%02d:%02d%s",
                      (long long)f.year, f.month, f.day, f.hour, f.minute,
                      f.second, zone);
}

/* Go's quote(): a double-quoted string (ASCII here; others pass). */
static const char *goq(Arena *a, const char *s)
{
  Buf b;
  buf_init(&b, a);
  buf_putc(&b, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      buf_putc(&b, '\\');
    buf_putc(&b, *s);
  }
  buf_putc(&b, '"');
  return buf_str(&b);
}

static const char *perr(Arena *a, const char *value, const char *velem,
                        const char *lelem)
{
  return arena_printf(a, "parsing time %s as %s: cannot parse %s as %s",
                      goq(a, value), goq(a, rfc3339_layout), goq(a, velem),
                      goq(a, lelem));
}

static bool digits(const char *s, int n)
{
  for (int i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return true;
}

static int num2(const char *s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

bool prov_time_parse(Arena *a, const char *s, ProvTime *out,
                     const char **err)
{
  const char *p = s;
  static const struct {
    char lit;          /* literal before the element, or 0 */
    const char *elem;  /* layout element */
    const char *range; /* range error name */
    int lo, hi;
  } el[] = {{0, "2006", NULL, 0, 9999},   {'-', "01", "month", 1, 12},
            {'-', "02", "day", 1, 31},     {'T', "15", "hour", 0, 23},
            {':', "04", "minute", 0, 59},  {':', "05", "second", 0, 59}};
  int v[6];
  for (int i = 0; i < 6; i++) {
    if (el[i].lit) {
      if (*p != el[i].lit) {
        char lit[2] = {el[i].lit, 0};
        *err = perr(a, s, p, lit);
        return false;
      }
      p++;
    }
    int w = i == 0 ? 4 : 2;
    if (strlen(p) < (size_t)w || !digits(p, w)) {
      *err = perr(a, s, p, el[i].elem);
      return false;
    }
    v[i] = i == 0 ? num2(p) * 100 + num2(p + 2) : num2(p);
    if (el[i].range && (v[i] < el[i].lo || v[i] > el[i].hi)) {
      *err = arena_printf(a, "parsing time %s: %s out of range", goq(a, s),
                          el[i].range);
      return false;
    }
    p += w;
  }
  /* fractional seconds: accepted, dropped on output */
  if (*p == '.' && p[1] >= '0' && p[1] <= '9') {
    p++;
    while (*p >= '0' && *p <= '9')
      p++;
  }
  int off = 0;
  if (*p == 'Z') {
    p++;
  } else if ((*p == '+' || *p == '-') && strlen(p) >= 6 && digits(p + 1, 2) &&
             p[3] == ':' && digits(p + 4, 2)) {
    int hh = num2(p + 1), mm = num2(p + 4);
    if (hh > 23 || mm > 59) {
      *err = arena_printf(a, "parsing time %s: time zone offset out of "
                          "range", goq(a, s));
      return false;
    }
    off = (hh * 3600 + mm * 60) * (*p == '-' ? -1 : 1);
    p += 6;
  } else {
    *err = perr(a, s, p, "Z07:00");
    return false;
  }
  if (*p) {
    *err = arena_printf(a, "parsing time %s: extra text: %s", goq(a, s),
                        goq(a, p));
    return false;
  }
  int64_t dn = days_from_civil(v[0], v[1], 1);
  int64_t dim = days_from_civil(v[0], v[1] + 1, 1) - dn;
  if (v[2] > dim) {
    *err = arena_printf(a, "parsing time %s: day out of range", goq(a, s));
    return false;
  }
  out->unix = (dn + v[2] - 1) * 86400 + v[3] * 3600 + v[4] * 60 + v[5] -
              off;
  out->offset = off;
  return true;
}

/* time.ParseDuration. */
bool prov_go_duration(Arena *a, const char *orig, int64_t *ns,
                      const char **err)
{
  static const struct {
    const char *unit;
    uint64_t mul;
  } units[] = {{"ns", 1},          {"us", 1000},       {"\xc2\xb5s", 1000},
               {"\xce\xbcs", 1000}, {"ms", 1000000},    {"s", 1000000000ull},
               {"m", 60000000000ull}, {"h", 3600000000000ull}};
  const char *s = orig;
  uint64_t d = 0;
  bool neg = false;
  const char *inval = arena_printf(a, "time: invalid duration %s",
                                   goq(a, orig));
  if (*s == '-' || *s == '+') {
    neg = *s == '-';
    s++;
  }
  if (strcmp(s, "0") == 0) {
    *ns = 0;
    return true;
  }
  if (!*s) {
    *err = inval;
    return false;
  }
  while (*s) {
    if (!(*s == '.' || (*s >= '0' && *s <= '9'))) {
      *err = inval;
      return false;
    }
    uint64_t v = 0, f = 0;
    double scale = 1;
    const char *st = s;
    bool over = false;
    while (*s >= '0' && *s <= '9') {
      if (v > (UINT64_MAX - 9) / 10)
        over = true;
      v = v * 10 + (uint64_t)(*s - '0');
      s++;
    }
    bool pre = s != st, post = false;
    if (*s == '.') {
      s++;
      const char *fs = s;
      while (*s >= '0' && *s <= '9') {
        if (f < UINT64_MAX / 100) {
          f = f * 10 + (uint64_t)(*s - '0');
          scale *= 10;
        }
        s++;
      }
      post = s != fs;
    }
    if (over || (!pre && !post)) {
      *err = inval;
      return false;
    }
    const char *us = s;
    while (*s && *s != '.' && !(*s >= '0' && *s <= '9'))
      s++;
    if (us == s) {
      *err = arena_printf(a, "time: missing unit in duration %s",
                          goq(a, orig));
      return false;
    }
    size_t ul = (size_t)(s - us);
    uint64_t mul = 0;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
      if (strlen(units[i].unit) == ul && memcmp(units[i].unit, us, ul) == 0)
        mul = units[i].mul;
    if (!mul) {
      *err = arena_printf(a, "time: unknown unit %s in duration %s",
                          goq(a, arena_strndup(a, us, ul)), goq(a, orig));
      return false;
    }
    if (v > (1ull << 63) / mul) {
      *err = inval;
      return false;
    }
    v *= mul;
    if (f)
      v += (uint64_t)((double)f * ((double)mul / scale));
    d += v;
    if (d > (1ull << 63)) {
      *err = inval;
      return false;
    }
  }
  if (d > (uint64_t)INT64_MAX && !neg) {
    *err = inval;
    return false;
  }
  *ns = neg ? -(int64_t)(d - 1) - 1 : (int64_t)d;
  return true;
}

/* ---- Helpers ----------------------------------------------------------- */

static const ProvProviderSchema *sch(Prov *p) { return p->impl; }

static int type_index(const char *type_name)
{
  for (int i = 0; i < (int)NATTRS(resources); i++)
    if (strcmp(resources[i].type_name, type_name) == 0)
      return i;
  return -1;
}

static const ProvBlockSchema *block_of(Prov *p, const char *type_name)
{
  return prov_schema_resource(sch(p), type_name)->schema.block;
}

static bool known(Value v) { return !val_is_null(v) && val_is_known(v); }

/* An int64 attribute, 0 when null/unknown (Go's ValueInt64). */
static int64_t geti(Value obj, const char *name)
{
  Value v = prov_get(obj, name);
  int64_t i;
  return known(v) && val_num_int(v, &i) ? i : 0;
}

static const char *get_str(Value obj, const char *name)
{
  Value v = prov_get(obj, name);
  return known(v) ? v.u.s : NULL;
}

static ProvTime now_utc(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (ProvTime){.unix = ts.tv_sec, .offset = 0};
}

/* Go's zero time.Time, which upstream formats when no offset applies. */
static const ProvTime zero_time = {.unix = -62135596800LL, .offset = 0};

/* year..second and unix of t into v. */
static Value set_fields(Arena *a, Value v, ProvTime t)
{
  ProvTimeFields f;
  prov_time_fields(t, &f);
  v = prov_set(a, v, "year", val_int(f.year));
  v = prov_set(a, v, "month", val_int(f.month));
  v = prov_set(a, v, "day", val_int(f.day));
  v = prov_set(a, v, "hour", val_int(f.hour));
  v = prov_set(a, v, "minute", val_int(f.minute));
  v = prov_set(a, v, "second", val_int(f.second));
  return prov_set(a, v, "unix", val_int(t.unix));
}

static Value str(Arena *a, const char *s) { return val_cstr(a, s); }

/* Which base+increment upstream's setOffsetValues/setRotationValues
** compute: each non-zero argument overwrites the result, in this order. */
static ProvTime shifted(Value v, const char *pfx, ProvTime base,
                        bool *rfc_used, ProvTime rfc)
{
  char n[32];
  ProvTime r = zero_time;
  int64_t x;
#define ARG(name) (snprintf(n, sizeof n, "%s_%s", pfx, name), geti(v, n))
  if ((x = ARG("days")))
    r = prov_time_add_date(base, 0, 0, x);
  if ((x = ARG("hours")))
    r = add_duration(base, x, 3600000000000LL);
  if ((x = ARG("minutes")))
    r = add_duration(base, x, 60000000000LL);
  if ((x = ARG("months")))
    r = prov_time_add_date(base, 0, x, 0);
  if (strcmp(pfx, "offset") == 0 && (x = ARG("seconds")))
    r = add_duration(base, x, 1000000000LL);
  if (rfc_used && *rfc_used)
    r = rfc;
  if ((x = ARG("years")))
    r = prov_time_add_date(base, x, 0, 0);
#undef ARG
  return r;
}

static Value offset_values(Arena *a, Value v, ProvTime base)
{
  ProvTime o = shifted(v, "offset", base, NULL, base);
  const char *bs = prov_time_format(a, base);
  v = prov_set(a, v, "base_rfc3339", str(a, bs));
  v = prov_set(a, v, "id", str(a, bs));
  v = prov_set(a, v, "rfc3339", str(a, prov_time_format(a, o)));
  return set_fields(a, v, o);
}

/* setRotationValues; false with *err on an unparsable rotation_rfc3339. */
static bool rotation_values(Arena *a, Value *v, ProvTime base,
                            const char **err)
{
  const char *rs = get_str(*v, "rotation_rfc3339");
  bool use = rs && *rs;
  ProvTime rt = {0};
  if (use && !prov_time_parse(a, rs, &rt, err))
    return false;
  ProvTime r = shifted(*v, "rotation", base, &use, rt);
  const char *bs = prov_time_format(a, base);
  *v = prov_set(a, *v, "rotation_rfc3339", str(a, prov_time_format(a, r)));
  *v = prov_set(a, *v, "rfc3339", str(a, bs));
  *v = prov_set(a, *v, "id", str(a, bs));
  *v = set_fields(a, *v, r);
  return true;
}

static void open_time(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = sch(p);
}

/* ---- Validation ------------------------------------------------------ */

static void check_rfc3339(ProvCall *c, Value cfg, const char *name)
{
  Value v = prov_get(cfg, name);
  ProvTime t;
  const char *err;
  if (known(v) && !prov_time_parse(c->arena, v.u.s, &t, &err))
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, name),
                   "Invalid RFC3339 String Value",
                   "A string value was provided that is not valid RFC3339 "
                   "string format.\n\nGiven Value: %s\nError: %s",
                   v.u.s, err);
}

/* resourcevalidator.AtLeastOneOf over names (NULL-terminated). */
static void at_least_one(ProvCall *c, Value cfg, const char *const *names)
{
  Buf b;
  buf_init(&b, c->arena);
  for (int i = 0; names[i]; i++) {
    Value v = prov_get(cfg, names[i]);
    if (!val_is_known(v) || !val_is_null(v))
      return;
    buf_puts(&b, i ? "," : "[");
    buf_puts(&b, names[i]);
  }
  buf_putc(&b, ']');
  diag_error(c->diags, NULL, "Missing Attribute Configuration",
             "At least one of these attributes must be configured: %s",
             buf_str(&b));
}

static void at_least_1(ProvCall *c, Value cfg, const char *name)
{
  Value v = prov_get(cfg, name);
  int64_t i;
  if (known(v) && val_num_int(v, &i) && i < 1)
    prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, name),
                   "Invalid Attribute Value",
                   "Attribute %s value must be at least 1, got: %lld", name,
                   (long long)i);
}

/* ^[0-9]+(\.[0-9]+)?(ms|s|m|h)$ */
static bool sleep_duration_ok(const char *s)
{
  const char *p = s;
  if (!(*p >= '0' && *p <= '9'))
    return false;
  while (*p >= '0' && *p <= '9')
    p++;
  if (*p == '.') {
    p++;
    if (!(*p >= '0' && *p <= '9'))
      return false;
    while (*p >= '0' && *p <= '9')
      p++;
  }
  return strcmp(p, "ms") == 0 || strcmp(p, "s") == 0 ||
         strcmp(p, "m") == 0 || strcmp(p, "h") == 0;
}

static void check_sleep(ProvCall *c, Value cfg, const char *name,
                        const char *other)
{
  Value v = prov_get(cfg, name), o = prov_get(cfg, other);
  ValPath path = prov_path_attr(c->arena, name);
  if (known(v) && !sleep_duration_ok(v.u.s))
    prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Value Match",
                   "Attribute %s must be a number immediately followed by "
                   "ms (milliseconds), s (seconds), m (minutes), or h "
                   "(hours). For example, \"30s\" for 30 seconds., got: %s",
                   name, v.u.s);
  if (val_is_null(v) && val_is_known(o) && val_is_null(o))
    prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Combination",
                   "At least one attribute out of [%s,%s] must be "
                   "specified", name, other);
}

static void validate_resource(Prov *p, ProvCall *c, const char *type_name,
                              Value cfg)
{
  (void)p;
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  switch (type_index(type_name)) {
  case T_STATIC:
    check_rfc3339(c, cfg, "rfc3339");
    break;
  case T_ROTATING: {
    static const char *const rot[] = {
        "rotation_minutes", "rotation_hours", "rotation_days",
        "rotation_months", "rotation_years", "rotation_rfc3339", NULL};
    for (int i = 0; i < 5; i++)
      at_least_1(c, cfg, rot[i]);
    check_rfc3339(c, cfg, "rfc3339");
    check_rfc3339(c, cfg, "rotation_rfc3339");
    at_least_one(c, cfg, rot);
    break;
  }
  case T_OFFSET: {
    static const char *const off[] = {
        "offset_seconds", "offset_minutes", "offset_hours", "offset_days",
        "offset_months", "offset_years", NULL};
    at_least_one(c, cfg, off);
    break;
  }
  case T_SLEEP:
    check_sleep(c, cfg, "create_duration", "destroy_duration");
    check_sleep(c, cfg, "destroy_duration", "create_duration");
    break;
  default:
    break;
  }
}

/* ---- Plan ------------------------------------------------------------ */

static bool same(Value x, Value y, const char *name)
{
  return val_raw_equal(prov_get(x, name), prov_get(y, name), false);
}

static bool args_changed(Value prior, Value planned, const char *const *n)
{
  for (int i = 0; n[i]; i++)
    if (!same(prior, planned, n[i]))
      return true;
  return false;
}

static const char *const offset_args[] = {
    "offset_years", "offset_months", "offset_days", "offset_hours",
    "offset_minutes", "offset_seconds", "base_rfc3339", NULL};
static const char *const rotation_args[] = {
    "rotation_years", "rotation_months", "rotation_days", "rotation_hours",
    "rotation_minutes", "rotation_rfc3339", NULL};

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  Arena *a = c->arena;
  Value planned = req->proposed_new_state, prior = req->prior_state;
  Value cfg = req->config;
  if (val_is_null(planned)) {
    resp->planned_state = planned;
    return;
  }
  int t = type_index(req->type_name);
  const ProvBlockSchema *b = block_of(p, req->type_name);
  static const char *const keep_id[] = {"id", NULL};
  bool create = val_is_null(prior);
  if (create || !val_raw_equal(prior, planned, false))
    planned = prov_unknown_computed(a, b, prior, planned, cfg,
                                    t == T_STATIC || t == T_SLEEP ? keep_id
                                                                  : NULL);
  const char *err;
  ProvTime ts;
  if (create && t == T_STATIC) {
    /* Known only when rfc3339 is configured (upstream's ModifyPlan). */
    const char *r = get_str(cfg, "rfc3339");
    if (r && prov_time_parse(a, r, &ts, &err)) {
      planned = set_fields(a, planned, ts);
      planned = prov_set(a, planned, "id", prov_get(planned, "rfc3339"));
    }
  }
  if (!create && t == T_OFFSET && args_changed(prior, planned, offset_args)) {
    const char *base = get_str(planned, "base_rfc3339");
    if (!base)
      base = get_str(prior, "base_rfc3339");
    if (!base || !prov_time_parse(a, base, &ts, &err)) {
      diag_error(c->diags, NULL, "Create time offset error",
                 "The base_rfc3339 timestamp could not be parsed as "
                 "RFC3339.\n\n+Original Error: %s", base ? err : "");
      return;
    }
    planned = offset_values(a, planned, ts);
  }
  if (!create && t == T_ROTATING &&
      args_changed(prior, planned, rotation_args)) {
    const char *base = get_str(planned, "rfc3339");
    if (!base)
      base = get_str(prior, "rfc3339");
    if (!base || !prov_time_parse(a, base, &ts, &err)) {
      diag_error(c->diags, NULL, "Update time rotating error",
                 "The rfc3339 timestamp that was supplied could not be "
                 "parsed as RFC3339.\n\n+Original Error: %s",
                 base ? err : "");
      return;
    }
    if (!rotation_values(a, &planned, ts, &err)) {
      diag_error(c->diags, NULL, "Update time rotating error",
                 "The rotation_rfc3339 timestamp that was supplied could "
                 "not be parsed as RFC3339.\n\n+Original Error: %s", err);
      return;
    }
  }
  resp->planned_state = planned;
  if (create)
    return;
  if (prov_attr_changed(prior, planned, "triggers"))
    prov_requires_replace(c, resp, "triggers");
  if ((t == T_STATIC || t == T_ROTATING) &&
      prov_attr_changed(prior, planned, "rfc3339"))
    prov_requires_replace(c, resp, "rfc3339");
  if (t == T_ROTATING) {
    /* ReplaceIfOutdated: the saved rotation time has passed (plans made
    ** with -refresh=false; a refresh already drops such an object). */
    const char *rs = get_str(prior, "rotation_rfc3339");
    if (rs && prov_time_parse(a, rs, &ts, &err) &&
        now_utc().unix > ts.unix)
      prov_requires_replace(c, resp, "rotation_rfc3339");
  }
}

/* ---- Apply ------------------------------------------------------------ */

/* Waits d nanoseconds in small steps, polling the stop flag; false when
** stopped. */
static bool sleep_ns(Prov *p, int64_t d)
{
  struct timespec end, now;
  clock_gettime(CLOCK_MONOTONIC, &end);
  end.tv_sec += d / 1000000000;
  end.tv_nsec += d % 1000000000;
  if (end.tv_nsec >= 1000000000) {
    end.tv_sec++;
    end.tv_nsec -= 1000000000;
  }
  for (;;) {
    if (atomic_load(&p->stopping))
      return false;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t left = (int64_t)(end.tv_sec - now.tv_sec) * 1000 +
                   (end.tv_nsec - now.tv_nsec) / 1000000;
    if (left <= 0)
      return true;
    (void)poll(NULL, 0, left < 20 ? (int)left : 20);
  }
}

static bool do_sleep(Prov *p, ProvCall *c, Value v, const char *attr,
                     const char *what)
{
  const char *ds = get_str(v, attr);
  int64_t ns;
  const char *err;
  if (!ds || !*ds)
    return true;
  if (!prov_go_duration(c->arena, ds, &ns, &err)) {
    diag_error(c->diags, NULL,
               arena_printf(c->arena, "%s time sleep error", what),
               "The create_duration cannot be parsed\n\n+Original Error: %s",
               err);
    return false;
  }
  if (ns > 0 && !sleep_ns(p, ns)) {
    diag_error(c->diags, NULL,
               arena_printf(c->arena, "%s time sleep error", what),
               "Original Error: context canceled");
    return false;
  }
  return true;
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  Arena *a = c->arena;
  int t = type_index(req->type_name);
  Value pl = req->planned_state;
  if (val_is_null(pl)) {
    if (t == T_SLEEP && !do_sleep(p, c, req->prior_state, "destroy_duration",
                                  "Delete"))
      return;
    resp->new_state = pl;
    return;
  }
  if (!val_is_null(req->prior_state)) {
    /* Update: the plan already holds every recomputed value. */
    resp->new_state = pl;
    return;
  }
  ProvTime ts = now_utc();
  const char *err;
  switch (t) {
  case T_STATIC: {
    const char *r = get_str(pl, "rfc3339");
    if (r && !prov_time_parse(a, r, &ts, &err)) {
      diag_error(c->diags, NULL, "RFC3339 ValueRFC3339Time Error", "%s",
                 err);
      return;
    }
    const char *f = prov_time_format(a, ts);
    pl = set_fields(a, pl, ts);
    pl = prov_set(a, pl, "rfc3339", str(a, f));
    pl = prov_set(a, pl, "id", str(a, f));
    break;
  }
  case T_OFFSET: {
    const char *r = get_str(pl, "base_rfc3339");
    if (r && *r && !prov_time_parse(a, r, &ts, &err)) {
      diag_error(c->diags, NULL, "Create time offset error",
                 "The base_rfc3339 timestamp that was supplied could not be "
                 "parsed as RFC3339.\n\n+Original Error: %s", err);
      return;
    }
    pl = offset_values(a, pl, ts);
    break;
  }
  case T_ROTATING: {
    const char *r = get_str(pl, "rfc3339");
    if (r && *r && !prov_time_parse(a, r, &ts, &err)) {
      diag_error(c->diags, NULL, "Create time rotating error",
                 "The rfc3339 timestamp that was supplied could not be "
                 "parsed as RFC3339.\n\n+Original Error: %s", err);
      return;
    }
    if (!rotation_values(a, &pl, ts, &err)) {
      diag_error(c->diags, NULL, "Create time rotating error",
                 "The rotation_rfc3339 timestamp that was supplied could "
                 "not be parsed as RFC3339.\n\n+Original Error: %s", err);
      return;
    }
    break;
  }
  case T_SLEEP:
    if (!do_sleep(p, c, pl, "create_duration", "Create"))
      return;
    pl = prov_set(a, pl, "id", str(a, prov_time_format(a, now_utc())));
    break;
  default:
    return;
  }
  resp->new_state = pl;
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  Value st = req->current_state;
  resp->private_data = req->private_data;
  if (type_index(req->type_name) == T_ROTATING && known(st)) {
    const char *rs = get_str(st, "rotation_rfc3339");
    ProvTime rt;
    const char *err;
    if (rs && *rs) {
      if (!prov_time_parse(c->arena, rs, &rt, &err)) {
        diag_error(c->diags, NULL, "Read time rotating error",
                   "The rotation_rfc3339 that was supplied could not be "
                   "parsed as RFC3339.\n\n+Original Error: %s", err);
        return;
      }
      if (now_utc().unix > rt.unix) {
        /* Rotation time passed: the object is gone, the plan creates a
        ** new one (upstream removes it from state here). */
        resp->new_state = prov_null_object(c->arena,
                                           block_of(p, req->type_name));
        return;
      }
    }
  }
  resp->new_state = st;
}

/* ---- Import ------------------------------------------------------------ */

static Value null_state(Prov *p, Arena *a, const char *type_name)
{
  const Type *t = prov_schema_implied_type(a, block_of(p, type_name));
  Value *vv = ARENA_NEW(a, Value, t->n);
  for (uint32_t i = 0; i < t->n; i++)
    vv[i] = val_null(t->types[i]);
  return val_object_typed(t, vv);
}

/* strings.Split(s, ","): *n parts in a. */
static char **split(Arena *a, const char *s, char sep, int *n)
{
  int k = 1;
  for (const char *q = s; *q; q++)
    k += *q == sep;
  char **out = ARENA_NEW(a, char *, (size_t)k);
  *n = 0;
  for (;;) {
    const char *e = strchr(s, sep);
    size_t l = e ? (size_t)(e - s) : strlen(s);
    out[(*n)++] = arena_strndup(a, s, l);
    if (!e)
      break;
    s = e + 1;
  }
  return out;
}

/* strconv.ParseInt(s, 10, 64) for one import field; "" is null. */
static bool import_int(Arena *a, const char *s, const char *what, Value *out,
                       const char **err)
{
  if (!*s) {
    *out = val_null(&ty_number);
    return true;
  }
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  bool ws = *s == ' ' || *s == '\t' || *s == '\n';
  if (*end || errno || ws) {
    *err = arena_printf(a, "could not parse %s (%s) as int: "
                        "strconv.ParseInt: parsing %s: %s",
                        what, goq(a, s), goq(a, s),
                        errno == ERANGE ? "value out of range"
                                        : "invalid syntax");
    return false;
  }
  *out = val_int(v);
  return true;
}

static void import(Prov *p, ProvCall *c, const ProvImportReq *req,
                   ProvImportResp *resp)
{
  Arena *a = c->arena;
  const char *id = req->id;
  int t = type_index(req->type_name);
  Value st = null_state(p, a, req->type_name);
  Value empty = val_map(a, &ty_string, NULL, 0);
  const char *err;
  ProvTime ts;
  int n;
  char **parts = split(a, id, ',', &n);
  switch (t) {
  case T_STATIC:
    if (!prov_time_parse(a, id, &ts, &err)) {
      diag_error(c->diags, NULL, "Import time static error",
                 "The id that was supplied could not be parsed as RFC3339."
                 "\n\n+Original Error: %s", err);
      return;
    }
    st = set_fields(a, st, ts);
    st = prov_set(a, st, "rfc3339", str(a, prov_time_format(a, ts)));
    st = prov_set(a, st, "id", str(a, prov_time_format(a, ts)));
    st = prov_set(a, st, "triggers", empty);
    break;
  case T_OFFSET: {
    static const char *const names[] = {"offset_years", "offset_months",
                                        "offset_days", "offset_hours",
                                        "offset_minutes", "offset_seconds"};
    bool all_empty = true;
    for (int i = 1; i < n && i < 7; i++)
      all_empty = all_empty && !*parts[i];
    if (n != 7 || !*parts[0] || all_empty) {
      diag_error(c->diags, NULL, "Unexpected Format of ID",
                 "Unexpected format of ID (%s), expected BASETIMESTAMP,"
                 "YEARS,MONTHS,DAYS,HOURS,MINUTES,SECONDS%s",
                 goq(a, id), n != 7 ? "" : " where at least one offset "
                 "value is non-empty");
      return;
    }
    for (int i = 0; i < 6; i++) {
      Value v;
      if (!import_int(a, parts[i + 1], "offset", &v, &err)) {
        diag_error(c->diags, NULL, "Import time offset error",
                   "The %s parameter that was supplied could not be parsed "
                   "as Int64.\n\n+Original Error: %s", names[i], err);
        return;
      }
      st = prov_set(a, st, names[i], v);
    }
    if (!prov_time_parse(a, parts[0], &ts, &err)) {
      diag_error(c->diags, NULL, "Create time offset error",
                 "The base_rfc3339 timestamp that was supplied could not be "
                 "parsed as RFC3339.\n\n+Original Error: %s", err);
      return;
    }
    st = offset_values(a, st, ts);
    st = prov_set(a, st, "triggers", empty);
    break;
  }
  case T_ROTATING: {
    if (n != 2 && n != 6) {
      diag_error(c->diags, NULL, "Unexpected Format of ID",
                 "Unexpected format of ID (%s), expected BASETIMESTAMP,YEARS,"
                 "MONTHS,DAYS,HOURS,MINUTES or BASETIMESTAMP,"
                 "ROTATIONTIMESTAMP", goq(a, id));
      return;
    }
    if (n == 2) {
      if (!*parts[0] || !*parts[1]) {
        diag_error(c->diags, NULL, "Unexpected Format of ID",
                   "Unexpected format of ID (%s), expected BASETIMESTAMP,"
                   "ROTATIONTIMESTAMP", goq(a, id));
        return;
      }
      ProvTime rt;
      if (!prov_time_parse(a, parts[0], &ts, &err) ||
          !prov_time_parse(a, parts[1], &rt, &err)) {
        diag_error(c->diags, NULL, "Import time rotating error",
                   "The timestamp that was supplied could not be parsed as "
                   "RFC3339.\n\n+Original Error: %s", err);
        return;
      }
      st = set_fields(a, st, rt);
      st = prov_set(a, st, "rotation_rfc3339",
                    str(a, prov_time_format(a, rt)));
      st = prov_set(a, st, "rfc3339", str(a, prov_time_format(a, ts)));
      st = prov_set(a, st, "id", str(a, prov_time_format(a, ts)));
    } else {
      bool all_empty = true;
      for (int i = 1; i < 6; i++)
        all_empty = all_empty && !*parts[i];
      if (!*parts[0] || all_empty) {
        diag_error(c->diags, NULL, "Unexpected Format of ID",
                   "Unexpected format of ID (%s), expected BASETIMESTAMP,"
                   "YEARS,MONTHS,DAYS,HOURS,MINUTES where at least one "
                   "rotation value is non-empty", goq(a, id));
        return;
      }
      static const char *const names[] = {
          "rotation_years", "rotation_months", "rotation_days",
          "rotation_hours", "rotation_minutes"};
      for (int i = 0; i < 5; i++) {
        Value v;
        if (!import_int(a, parts[i + 1], "rotation", &v, &err)) {
          diag_error(c->diags, NULL, "Import time rotating error",
                     "The parameter that was supplied could not be parsed."
                     "\n\n+Original Error: %s", err);
          return;
        }
        st = prov_set(a, st, names[i], v);
      }
      if (!prov_time_parse(a, parts[0], &ts, &err)) {
        diag_error(c->diags, NULL, "Import time rotating error",
                   "The parameter that was supplied could not be parsed."
                   "\n\n+Original Error: %s", err);
        return;
      }
      /* Upstream counts only positive values here. */
      Value pos = st;
      for (int i = 0; i < 5; i++)
        if (geti(st, names[i]) < 0)
          pos = prov_set(a, pos, names[i], val_null(&ty_number));
      ProvTime r = shifted(pos, "rotation", ts, NULL, ts);
      const char *bs = prov_time_format(a, ts);
      st = set_fields(a, st, r);
      st = prov_set(a, st, "rotation_rfc3339",
                    str(a, prov_time_format(a, r)));
      st = prov_set(a, st, "rfc3339", str(a, bs));
      st = prov_set(a, st, "id", str(a, bs));
    }
    st = prov_set(a, st, "triggers", empty);
    break;
  }
  case T_SLEEP: {
    if (n < 2 || (!*parts[0] && !*parts[1])) {
      diag_error(c->diags, NULL, "Unexpected Format of ID",
                 "Unexpected format of ID (%s), expected CREATEDURATION,"
                 "DESTROYDURATION,KEY=VALUE,KEY=VALUE... \",\n\t\t\t\twhere "
                 "at least one CREATIONDURATION or DESTROYDURATION value is "
                 "non-empty", goq(a, id));
      return;
    }
    static const char *const durs[] = {"create_duration",
                                       "destroy_duration"};
    for (int i = 0; i < 2; i++) {
      int64_t ns;
      if (!*parts[i])
        continue;
      if (!prov_go_duration(a, parts[i], &ns, &err)) {
        diag_error(c->diags, NULL, "Import time sleep error",
                   "The create_duration cannot be parsed\n\n+"
                   "Original Error: %s", err);
        return;
      }
      st = prov_set(a, st, durs[i], str(a, parts[i]));
    }
    MapEntry *me = ARENA_NEW(a, MapEntry, (size_t)n);
    uint32_t nm = 0;
    for (int i = 2; i < n; i++) {
      int k;
      char **kv = split(a, parts[i], '=', &k);
      if (k != 2) {
        diag_error(c->diags, NULL, "Trigger import error",
                   "Trigger import entries must be KEY=VALUE, got %s",
                   parts[i]);
        return;
      }
      /* a repeated key keeps its last value, as a Go map assignment */
      uint32_t j = 0;
      while (j < nm && strcmp(me[j].key, kv[0]) != 0)
        j++;
      me[j].key = kv[0];
      me[j].keylen = (uint32_t)strlen(kv[0]);
      me[j].val = str(a, kv[1]);
      if (j == nm)
        nm++;
    }
    st = prov_set(a, st, "triggers", val_map(a, &ty_string, me, nm));
    st = prov_set(a, st, "id", str(a, prov_time_format(a, now_utc())));
    break;
  }
  default:
    prov_default_import(p, c, req, resp);
    return;
  }
  ProvImported *im = ARENA_NEW(a, ProvImported, 1);
  im->type_name = arena_strdup(a, req->type_name);
  im->state = st;
  resp->imported = im;
  resp->nimported = 1;
}

static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  Value v;
  if (prov_decode_state(c, block_of(p, req->type_name), req->raw_json,
                        req->raw_len, &v))
    resp->upgraded_state = v;
}

/* ---- Function calls ------------------------------------------------------ */

static const char *const month_names[12] = {
  "January", "February", "March", "April", "May", "June", "July", "August",
  "September", "October", "November", "December"};
static const char *const day_names[7] = {
  "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
  "Saturday"};

/* The object of rfc3339_parse (which = 0) or unix_timestamp_parse (1): the
** fields Go's Time methods give in t's own offset; ISOWeek is the week
** (Monday first) holding that week's Thursday. */
static Value cal_object(Arena *a, ProvTime t, int which)
{
  ProvTimeFields f;
  prov_time_fields(t, &f);
  int64_t days, secs;
  day_split(t, &days, &secs);
  int wd = (int)((days - floor_div(days, 7) * 7 + 4) % 7); /* 1970-01-01: Thu */
  int64_t yday = days - days_from_civil(f.year, 1, 1) + 1;
  int64_t thu = days - (wd + 6) % 7 + 3, iy;
  int im, id;
  civil_from_days(thu, &iy, &im, &id);
  int64_t iweek = (thu - days_from_civil(iy, 1, 1)) / 7 + 1;
  Value *v = ARENA_NEW(a, Value, 13);
  int64_t ints[13] = {f.day, f.hour, iweek, iy, f.minute, f.month, 0,
                      0, 0, wd, 0, f.year, yday};
  for (int i = 0; i < 13; i++)
    v[i] = val_int(ints[i]);
  v[6] = val_cstr(a, month_names[f.month - 1]);
  v[10] = val_cstr(a, day_names[wd]);
  if (which == 0) {
    v[7] = val_int(f.second);
    v[8] = val_int(t.unix);
  } else {
    v[7] = val_cstr(a, prov_time_format(a, t));
    v[8] = val_int(f.second);
  }
  return val_object_typed(&cal_type[which], v);
}

/* Duration.Hours/Minutes/Seconds: whole units plus the remainder as a
** fraction, as Go computes them (exact for whole units). */
static Value dur_part(int64_t ns, int64_t unit)
{
  return val_double((double)(ns / unit) + (double)(ns % unit) / (double)unit);
}

static void call_function(Prov *p, ProvCall *c, const ProvCallFuncReq *req,
                          ProvCallFuncResp *resp)
{
  (void)p;
  Arena *a = c->arena;
  const ProvFunction *f = prov_schema_function(&schema, req->name);
  if (!f || req->nargs != 1 || !known(req->args[0]) ||
      !ty_equal(req->args[0].type, f->params[0].type)) {
    prov_default_call_function(p, c, req, resp);
    return;
  }
  Value arg = req->args[0];
  resp->error_arg = 0;
  if (f == &functions[0]) {
    int64_t ns;
    const char *err;
    if (!prov_go_duration(a, arg.u.s, &ns, &err)) {
      resp->error = arena_printf(a, "Error parsing duration string: %s is "
                                 "not a valid duration string",
                                 goq(a, arg.u.s));
      return;
    }
    Value *v = ARENA_NEW(a, Value, 6);
    v[0] = dur_part(ns, 3600000000000LL);
    v[1] = val_int(ns / 1000);
    v[2] = val_int(ns / 1000000);
    v[3] = dur_part(ns, 60000000000LL);
    v[4] = val_int(ns);
    v[5] = dur_part(ns, 1000000000LL);
    resp->result = val_object_typed(&dur_type, v);
  } else if (f == &functions[1]) {
    ProvTime t;
    const char *err;
    if (!prov_time_parse(a, arg.u.s, &t, &err)) {
      resp->error = arena_printf(a, "Error parsing RFC3339 timestamp: %s is "
                                 "not a valid RFC3339 timestamp",
                                 goq(a, arg.u.s));
      return;
    }
    resp->result = cal_object(a, t, 0);
  } else {
    int64_t ts;
    if (!val_num_int(arg, &ts)) {
      Buf b;
      buf_init(&b, a);
      val_num_format(&b, arg);
      /* the framework's Int64 conversion texts (sic "is cannot"); a
      ** number past int64's range is integral, any other was fractional */
      double d = val_num_double(arg);
      resp->error = arena_printf(a, d >= 9.2e18 || d <= -9.2e18
                                     ? "Value %s is cannot be represented "
                                       "as a 64-bit integer."
                                     : "Value %s is not an integer.",
                                 buf_str(&b));
      return;
    }
    resp->result = cal_object(a, (ProvTime){ts, 0}, 1);
  }
  resp->error_arg = -1;
}

static const ProvOps ops = {
  .get_schema = get_schema,
  .validate_provider_config = prov_default_validate,
  .validate_resource_config = validate_resource,
  .validate_data_resource_config = prov_default_validate_type,
  .upgrade_resource_state = upgrade,
  .configure = prov_default_configure,
  .read_resource = read_resource,
  .plan_resource_change = plan,
  .apply_resource_change = apply,
  .import_resource_state = import,
  .read_data_source = prov_default_read_data,
  .stop = prov_default_stop,
  .close = prov_default_close,
  .call_function = call_function,
};

const ProvBuiltin prov_time_builtin = {
  .addr = "registry.terraform.io/hashicorp/time",
  .type = "time",
  .ops = &ops,
  .open = open_time,
};
