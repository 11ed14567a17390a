/*
** funcs_time: date and time functions (cty datetime.go, Terraform's
** datetime.go): timestamp, plantimestamp, formatdate, timeadd, timecmp.
**
** Timestamps are RFC 3339 as Go's time.Parse(time.RFC3339) reads them;
** results are written like Go's time.RFC3339 layout (no fractional
** seconds, "Z" for a zero offset).
*/
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "funcs_impl.h"

typedef struct Tm {
  int64_t sec;      /* Unix seconds (UTC) */
  int32_t nsec;
  int32_t off;      /* UTC offset in seconds */
} Tm;

/* Days since 1970-01-01 for a proleptic Gregorian date. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
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

static int days_in_month(int64_t y, int m)
{
  static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
    return 29;
  return dm[m - 1];
}

static const char *rest_q(FnCall *c, const char *s, size_t n, size_t i)
{
  return arena_printf(c->arena, "\"%.*s\"", (int)(n - i), s + i);
}

/* Parses digits s[i..i+w); false when they are not all digits. */
static bool digits(const char *s, size_t n, size_t i, int w, int *out)
{
  if (i + (size_t)w > n)
    return false;
  int v = 0;
  for (int k = 0; k < w; k++) {
    char ch = s[i + (size_t)k];
    if (ch < '0' || ch > '9')
      return false;
    v = v * 10 + (ch - '0');
  }
  *out = v;
  return true;
}

/* Go's time.Parse(time.RFC3339) with cty's error texts; *msg is the
** message on failure. */
static bool parse_ts(FnCall *c, Value v, Tm *t, const char **msg)
{
  const char *s = v.u.s;
  size_t n = v.len, i = 0;
  int year, mon, day, hh, mm, ss;
  static const struct {
    int w;
    char sep;
    const char *what;
  } f[] = {{4, '-', "year"},  {2, '-', "month"},  {2, 'T', "day of month"},
           {2, ':', "hour"},  {2, ':', "minute"}, {2, 0, "second"}};
  int *dst[] = {&year, &mon, &day, &hh, &mm, &ss};
  for (int k = 0; k < 6; k++) {
    if (!digits(s, n, i, f[k].w, dst[k])) {
      if (i >= n)
        *msg = arena_printf(c->arena, "not a valid RFC3339 timestamp: end of "
                                      "string before %s", f[k].what);
      else
        *msg = arena_printf(c->arena, "not a valid RFC3339 timestamp: cannot "
                                      "use %s as %s", rest_q(c, s, n, i),
                            f[k].what);
      return false;
    }
    i += (size_t)f[k].w;
    if (!f[k].sep)
      break;
    if (i >= n || s[i] != f[k].sep) {
      if (f[k].sep == 'T')
        *msg = "not a valid RFC3339 timestamp: missing required time "
               "introducer 'T'";
      else if (i >= n)
        *msg = arena_printf(c->arena, "not a valid RFC3339 timestamp: end of "
                                      "string where \"%c\" is expected",
                            f[k].sep);
      else
        *msg = arena_printf(c->arena, "not a valid RFC3339 timestamp: found "
                                      "%s where \"%c\" is expected",
                            rest_q(c, s, n, i), f[k].sep);
      return false;
    }
    i++;
  }
  int32_t nsec = 0;
  if (i < n && s[i] == '.') {
    size_t st = ++i;
    int32_t scale = 100000000;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      nsec += (s[i] - '0') * scale;
      scale /= 10;
      i++;
    }
    if (i == st) {
      *msg = arena_printf(c->arena, "not a valid RFC3339 timestamp: cannot "
                                    "use %s as UTC offset",
                          rest_q(c, s, n, st - 1));
      return false;
    }
  }
  int off = 0;
  if (i < n && (s[i] == 'Z')) {
    i++;
  } else if (i < n && (s[i] == '+' || s[i] == '-')) {
    int oh, om;
    if (!digits(s, n, i + 1, 2, &oh) || i + 3 >= n || s[i + 3] != ':' ||
        !digits(s, n, i + 4, 2, &om)) {
      *msg = arena_printf(c->arena, "not a valid RFC3339 timestamp: cannot "
                                    "use %s as UTC offset",
                          rest_q(c, s, n, i));
      return false;
    }
    off = (oh * 60 + om) * 60 * (s[i] == '-' ? -1 : 1);
    i += 6;
  } else {
    if (i >= n)
      *msg = "not a valid RFC3339 timestamp: end of string before UTC "
             "offset";
    else
      *msg = arena_printf(c->arena, "not a valid RFC3339 timestamp: cannot "
                                    "use %s as UTC offset",
                          rest_q(c, s, n, i));
    return false;
  }
  if (i < n) {
    *msg = arena_printf(c->arena, "not a valid RFC3339 timestamp: extra "
                                  "text: %s", rest_q(c, s, n, i));
    return false;
  }
  const char *range = NULL;
  if (mon < 1 || mon > 12)
    range = "month";
  else if (day < 1 || day > days_in_month(year, mon))
    range = "day";
  else if (hh > 23)
    range = "hour";
  else if (mm > 59)
    range = "minute";
  else if (ss > 59)
    range = "second";
  if (range) {
    *msg = arena_printf(c->arena, "not a valid RFC3339 timestamp: %s out of "
                                  "range", range);
    return false;
  }
  t->sec = days_from_civil(year, mon, day) * 86400 + hh * 3600 + mm * 60 +
           ss - off;
  t->nsec = nsec;
  t->off = off;
  return true;
}

typedef struct Civil {
  int64_t year;
  int mon, day, hour, min, sec, wday;
} Civil;

static Civil civil(Tm t)
{
  Civil cv;
  int64_t local = t.sec + t.off;
  int64_t days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400);
  int64_t rem = local - days * 86400;
  civil_from_days(days, &cv.year, &cv.mon, &cv.day);
  cv.hour = (int)(rem / 3600);
  cv.min = (int)(rem % 3600 / 60);
  cv.sec = (int)(rem % 60);
  cv.wday = (int)(((days % 7) + 11) % 7);   /* 1970-01-01 was a Thursday */
  return cv;
}

static void put_offset(Buf *b, int off, bool colon, bool z)
{
  if (off == 0 && z) {
    buf_putc(b, 'Z');
    return;
  }
  char sign = off < 0 ? '-' : '+';
  if (off < 0)
    off = -off;
  buf_printf(b, colon ? "%c%02d:%02d" : "%c%02d%02d", sign, off / 3600,
             off % 3600 / 60);
}

static void put_rfc3339(Buf *b, Tm t)
{
  Civil cv = civil(t);
  buf_printf(b, "%04lld-%02d-%02dT%02d:%02d:%02d", (long long)cv.year,
             cv.mon, cv.day, cv.hour, cv.min, cv.sec);
  put_offset(b, t.off, true, true);
}

bool fn_timestamp(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)a;
  (void)n;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  Tm t = {ts.tv_sec, 0, 0};
  Buf b;
  buf_init(&b, c->arena);
  put_rfc3339(&b, t);
  *out = fn_buf_val(&b);
  return true;
}

bool fn_plantimestamp(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)a;
  (void)n;
  if (c->console)
    return fn_error(c, "plantimestamp is not available in the console");
  if (!c->has_plan_time) {
    *out = val_unknown(&ty_string);
    return true;
  }
  Tm t = {c->plan_time_sec, c->plan_time_nsec, 0};
  Buf b;
  buf_init(&b, c->arena);
  put_rfc3339(&b, t);
  *out = fn_buf_val(&b);
  return true;
}

static const char *const months[] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};
static const char *const wdays[] = {"Sunday",   "Monday", "Tuesday",
                                    "Wednesday", "Thursday", "Friday",
                                    "Saturday"};

static bool is_verb(char ch)
{
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

bool fn_formatdate(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Tm t;
  const char *msg;
  if (!parse_ts(c, a[1], &t, &msg))
    return fn_arg_error(c, 1, "%s", msg);
  Civil cv = civil(t);
  const char *f = a[0].u.s;
  size_t fl = a[0].len, i = 0;
  Buf b;
  buf_init(&b, c->arena);
  while (i < fl) {
    if (f[i] == '\'') {
      if (i + 1 < fl && f[i + 1] == '\'') {
        buf_putc(&b, '\'');
        i += 2;
        continue;
      }
      size_t k = i + 1;
      bool closed = false;
      Buf lit;
      buf_init(&lit, c->arena);
      while (k < fl) {
        if (f[k] == '\'') {
          if (k + 1 < fl && f[k + 1] == '\'') {
            buf_putc(&lit, '\'');
            k += 2;
            continue;
          }
          closed = true;
          break;
        }
        buf_putc(&lit, f[k++]);
      }
      if (!closed)
        return fn_arg_error(c, 0, "unterminated literal '");
      buf_put(&b, lit.p ? lit.p : "", lit.len);
      i = k + 1;
      continue;
    }
    if (!is_verb(f[i])) {
      buf_putc(&b, f[i++]);
      continue;
    }
    char v = f[i];
    size_t k = i;
    while (k < fl && f[k] == v)
      k++;
    size_t len = k - i;
    const char *tok = arena_strndup(c->arena, f + i, len);
    i = k;
    int h12 = cv.hour % 12 ? cv.hour % 12 : 12;
    switch (v) {
    case 'Y':
      if (len == 2)
        buf_printf(&b, "%02d", (int)(cv.year % 100));
      else if (len == 4)
        buf_printf(&b, "%04lld", (long long)cv.year);
      else
        return fn_arg_error(c, 0, "invalid date format verb \"%s\": year must "
                                  "either be \"YY\" or \"YYYY\"", tok);
      break;
    case 'M':
      if (len == 1)
        buf_printf(&b, "%d", cv.mon);
      else if (len == 2)
        buf_printf(&b, "%02d", cv.mon);
      else if (len == 3)
        buf_put(&b, months[cv.mon - 1], 3);
      else if (len == 4)
        buf_puts(&b, months[cv.mon - 1]);
      else
        return fn_arg_error(c, 0, "invalid date format verb \"%s\": month "
                                  "must be \"M\", \"MM\", \"MMM\", or "
                                  "\"MMMM\"", tok);
      break;
    case 'D':
      if (len == 1)
        buf_printf(&b, "%d", cv.day);
      else if (len == 2)
        buf_printf(&b, "%02d", cv.day);
      else
        return fn_arg_error(c, 0, "invalid date format verb \"%s\": day of "
                                  "month must either be \"D\" or \"DD\"", tok);
      break;
    case 'E':
      if (len == 3)
        buf_put(&b, wdays[cv.wday], 3);
      else if (len == 4)
        buf_puts(&b, wdays[cv.wday]);
      else
        return fn_arg_error(c, 0, "invalid date format verb \"%s\": day of "
                                  "week must either be \"EEE\" or \"EEEE\"",
                            tok);
      break;
    case 'h':
      if (len == 1)
        buf_printf(&b, "%d", cv.hour);
      else if (len == 2)
        buf_printf(&b, "%02d", cv.hour);
      else
        return fn_arg_error(c, 0, "invalid date format verb \"%s\": 24-hour "
                                  "must either be \"h\" or \"hh\"", tok);
      break;
    case 'H':
      if (len == 1)
        buf_printf(&b, "%d", h12);
      else if (len == 2)
        buf_printf(&b, "%02d", h12);
      else
        return fn_arg_error(c, 0, "invalid date format verb \"%s\": 12-hour "
                                  "must either be \"H\" or \"HH\"", tok);
      break;
    case 'A':
    case 'a':
      if (len != 2)
        return fn_arg_error(c, 0, "invalid date format verb \"%s\": must be "
                                  "\"%c%c\"", tok, v, v);
      if (v == 'A')
        buf_puts(&b, cv.hour < 12 ? "AM" : "PM");
      else
        buf_puts(&b, cv.hour < 12 ? "am" : "pm");
      break;
    case 'm':
      if (len == 1)
        buf_printf(&b, "%d", cv.min);
      else if (len == 2)
        buf_printf(&b, "%02d", cv.min);
      else
        return fn_arg_error(c, 0, "invalid date format verb \"%s\": minute "
                                  "must either be \"m\" or \"mm\"", tok);
      break;
    case 's':
      if (len == 1)
        buf_printf(&b, "%d", cv.sec);
      else if (len == 2)
        buf_printf(&b, "%02d", cv.sec);
      else
        return fn_arg_error(c, 0, "invalid date format verb \"%s\": second "
                                  "must either be \"s\" or \"ss\"", tok);
      break;
    case 'Z':
      if (len == 1)
        put_offset(&b, t.off, true, true);
      else if (len == 3 && t.off == 0)
        buf_puts(&b, "UTC");
      else if (len == 3 || len == 4)
        put_offset(&b, t.off, false, false);
      else if (len == 5)
        put_offset(&b, t.off, true, false);
      else
        return fn_arg_error(c, 0, "invalid date format verb \"%s\": timezone "
                                  "must be Z, ZZZZ, or ZZZZZ", tok);
      break;
    default:
      return fn_arg_error(c, 0, "invalid date format verb \"%s\"", tok);
    }
  }
  *out = fn_buf_val(&b);
  return true;
}

/* Go's time.ParseDuration, in nanoseconds (as a double to survive long
** spans; Go itself overflows at about 290 years). */
static bool parse_duration(FnCall *c, Value v, double *out, const char **msg)
{
  const char *s = v.u.s;
  size_t n = v.len, i = 0;
  const char *q = arena_printf(c->arena, "\"%s\"", s);
  double total = 0;
  bool neg = false;
  if (i < n && (s[i] == '-' || s[i] == '+'))
    neg = s[i++] == '-';
  if (n - i == 1 && s[i] == '0') {
    *out = 0;
    return true;
  }
  if (i == n) {
    *msg = arena_printf(c->arena, "time: invalid duration %s", q);
    return false;
  }
  while (i < n) {
    double val = 0, frac = 0, scale = 1;
    size_t st = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      val = val * 10 + (s[i++] - '0');
    bool pre = i > st, post = false;
    if (i < n && s[i] == '.') {
      i++;
      size_t fs = i;
      while (i < n && s[i] >= '0' && s[i] <= '9') {
        frac = frac * 10 + (s[i++] - '0');
        scale *= 10;
      }
      post = i > fs;
    }
    if (!pre && !post) {
      *msg = arena_printf(c->arena, "time: invalid duration %s", q);
      return false;
    }
    size_t us = i;
    while (i < n && s[i] != '.' && (s[i] < '0' || s[i] > '9'))
      i++;
    if (us == i) {
      *msg = arena_printf(c->arena, "time: missing unit in duration %s", q);
      return false;
    }
    size_t ul = i - us;
    const char *u = s + us;
    double mult;
    if (ul == 2 && !memcmp(u, "ns", 2)) mult = 1;
    else if (ul == 2 && !memcmp(u, "us", 2)) mult = 1e3;
    else if (ul == 3 && !memcmp(u, "\xc2\xb5s", 3)) mult = 1e3;
    else if (ul == 3 && !memcmp(u, "\xce\xbcs", 3)) mult = 1e3;
    else if (ul == 2 && !memcmp(u, "ms", 2)) mult = 1e6;
    else if (ul == 1 && u[0] == 's') mult = 1e9;
    else if (ul == 1 && u[0] == 'm') mult = 60e9;
    else if (ul == 1 && u[0] == 'h') mult = 3600e9;
    else {
      *msg = arena_printf(c->arena, "time: unknown unit \"%.*s\" in duration "
                                    "%s", (int)ul, u, q);
      return false;
    }
    total += (val + frac / scale) * mult;
  }
  if (total > 9.223372036854775807e18) {
    *msg = arena_printf(c->arena, "time: invalid duration %s", q);
    return false;
  }
  *out = neg ? -total : total;
  return true;
}

bool fn_timeadd(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Tm t;
  const char *msg;
  if (!parse_ts(c, a[0], &t, &msg))
    return fn_error(c, "%s", msg);
  double ns;
  if (!parse_duration(c, a[1], &ns, &msg))
    return fn_error(c, "%s", msg);
  int64_t dsec = (int64_t)(ns / 1e9);
  int64_t dns = (int64_t)(ns - (double)dsec * 1e9);
  int64_t nsec = t.nsec + dns;
  t.sec += dsec + (nsec >= 0 ? nsec / 1000000000 : -1 - (-nsec - 1) / 1000000000);
  nsec = ((nsec % 1000000000) + 1000000000) % 1000000000;
  t.nsec = (int32_t)nsec;
  Buf b;
  buf_init(&b, c->arena);
  put_rfc3339(&b, t);
  *out = fn_buf_val(&b);
  return true;
}

bool fn_timecmp(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Tm x, y;
  const char *msg;
  if (!parse_ts(c, a[0], &x, &msg))
    return fn_arg_error(c, 0, "%s", msg);
  if (!parse_ts(c, a[1], &y, &msg))
    return fn_arg_error(c, 1, "%s", msg);
  int r = x.sec < y.sec ? -1 : x.sec > y.sec ? 1 :
          x.nsec < y.nsec ? -1 : x.nsec > y.nsec;
  *out = val_int(r);
  return true;
}
