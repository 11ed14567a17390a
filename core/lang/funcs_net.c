/*
** funcs_net: IP network functions (Terraform's cidr.go with go-cidr):
** cidrhost, cidrnetmask, cidrsubnet, cidrsubnets, and OpenTofu's
** cidrcontains.  Addresses are 128-bit (IPv4 uses the low 32 bits) and
** are printed as Go's net package does (RFC 5952 for IPv6).
*/
#include <stdio.h>
#include <string.h>

#include "funcs_impl.h"

typedef struct Addr {
  uint64_t hi, lo;
  int bits;          /* 32 or 128 */
} Addr;

typedef struct Net {
  Addr ip;           /* masked network address */
  int plen;          /* prefix length */
} Net;

static bool parse_v4(const char *s, size_t n, uint32_t *out)
{
  uint32_t v = 0;
  int parts = 0;
  size_t i = 0;
  while (parts < 4) {
    if (i >= n || s[i] < '0' || s[i] > '9')
      return false;
    unsigned x = 0;
    size_t st = i;
    while (i < n && s[i] >= '0' && s[i] <= '9' && i - st < 4)
      x = x * 10 + (unsigned)(s[i++] - '0');
    if (x > 255 || i - st > 3)
      return false;
    v = v << 8 | x;
    parts++;
    if (parts < 4) {
      if (i >= n || s[i] != '.')
        return false;
      i++;
    }
  }
  if (i != n)
    return false;
  *out = v;
  return true;
}

static int hexd(char c)
{
  return (c >= '0' && c <= '9') ? c - '0' :
         (c >= 'a' && c <= 'f') ? c - 'a' + 10 :
         (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
}

static bool parse_v6(const char *s, size_t n, Addr *out)
{
  uint16_t g[8];
  int ng = 0, ellipsis = -1;
  size_t i = 0;
  if (n >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    i = 2;
    if (i == n)
      goto done;
  }
  while (i < n) {
    /* An embedded IPv4 tail. */
    size_t k = i;
    while (k < n && hexd(s[k]) >= 0)
      k++;
    if (k < n && s[k] == '.') {
      uint32_t v4;
      if (ng > 6 || !parse_v4(s + i, n - i, &v4))
        return false;
      g[ng++] = (uint16_t)(v4 >> 16);
      g[ng++] = (uint16_t)(v4 & 0xFFFF);
      i = n;
      break;
    }
    if (k == i || k - i > 4 || ng >= 8)
      return false;
    unsigned x = 0;
    for (size_t q = i; q < k; q++)
      x = x * 16 + (unsigned)hexd(s[q]);
    g[ng++] = (uint16_t)x;
    i = k;
    if (i == n)
      break;
    if (s[i] != ':')
      return false;
    i++;
    if (i < n && s[i] == ':') {
      if (ellipsis >= 0)
        return false;
      ellipsis = ng;
      i++;
      if (i == n)
        break;
    } else if (i == n) {
      return false;
    }
  }
done:
  if (ellipsis < 0 && ng != 8)
    return false;
  if (ellipsis >= 0) {
    if (ng >= 8)
      return false;
    int shift = 8 - ng;
    for (int q = ng - 1; q >= ellipsis; q--)
      g[q + shift] = g[q];
    for (int q = ellipsis; q < ellipsis + shift; q++)
      g[q] = 0;
  }
  out->hi = out->lo = 0;
  for (int q = 0; q < 4; q++) {
    out->hi = out->hi << 16 | g[q];
    out->lo = out->lo << 16 | g[q + 4];
  }
  out->bits = 128;
  return true;
}

static bool parse_ip(const char *s, size_t n, Addr *a)
{
  uint32_t v4;
  if (memchr(s, ':', n))
    return parse_v6(s, n, a);
  if (!parse_v4(s, n, &v4))
    return false;
  a->hi = 0;
  a->lo = v4;
  a->bits = 32;
  return true;
}

/* Mask of the top plen bits of a bits-wide address. */
static Addr mask_of(int plen, int bits)
{
  Addr m = {0, 0, bits};
  if (bits == 32) {
    m.lo = plen == 0 ? 0 : (0xFFFFFFFFull << (32 - plen)) & 0xFFFFFFFFull;
    return m;
  }
  if (plen >= 64) {
    m.hi = ~0ull;
    m.lo = plen == 64 ? 0 : ~0ull << (128 - plen);
  } else {
    m.hi = plen == 0 ? 0 : ~0ull << (64 - plen);
  }
  return m;
}

static Addr and_(Addr a, Addr m)
{
  a.hi &= m.hi;
  a.lo &= m.lo;
  return a;
}

static bool parse_cidr(FnCall *c, Value v, Net *out, const char **msg)
{
  const char *s = v.u.s;
  const char *slash = memchr(s, '/', v.len);
  *msg = arena_printf(c->arena, "invalid CIDR address: %s", s);
  if (!slash)
    return false;
  Addr a;
  if (!parse_ip(s, (size_t)(slash - s), &a))
    return false;
  const char *p = slash + 1;
  size_t pn = v.len - (size_t)(p - s);
  if (pn == 0 || pn > 3)
    return false;
  int plen = 0;
  for (size_t i = 0; i < pn; i++) {
    if (p[i] < '0' || p[i] > '9')
      return false;
    plen = plen * 10 + (p[i] - '0');
  }
  if (plen > a.bits)
    return false;
  out->plen = plen;
  out->ip = and_(a, mask_of(plen, a.bits));
  return true;
}

static void put_addr(Buf *b, Addr a)
{
  if (a.bits == 32) {
    uint32_t v = (uint32_t)a.lo;
    buf_printf(b, "%u.%u.%u.%u", v >> 24, (v >> 16) & 255, (v >> 8) & 255,
               v & 255);
    return;
  }
  uint16_t g[8];
  for (int q = 0; q < 4; q++) {
    g[q] = (uint16_t)(a.hi >> (48 - 16 * q));
    g[q + 4] = (uint16_t)(a.lo >> (48 - 16 * q));
  }
  /* IPv4-mapped addresses print as IPv4, like Go. */
  if (!g[0] && !g[1] && !g[2] && !g[3] && !g[4] && g[5] == 0xFFFF) {
    buf_printf(b, "%u.%u.%u.%u", g[6] >> 8, g[6] & 255, g[7] >> 8,
               g[7] & 255);
    return;
  }
  int best = -1, bestlen = 1;
  for (int q = 0; q < 8;) {
    if (g[q]) {
      q++;
      continue;
    }
    int st = q;
    while (q < 8 && !g[q])
      q++;
    if (q - st > bestlen) {
      best = st;
      bestlen = q - st;
    }
  }
  for (int q = 0; q < 8; q++) {
    if (q == best) {
      buf_puts(b, "::");
      q += bestlen - 1;
      continue;
    }
    if (q > 0 && q != best + bestlen)
      buf_putc(b, ':');
    buf_printf(b, "%x", g[q]);
  }
}

static void put_net(Buf *b, Net n)
{
  put_addr(b, n.ip);
  buf_printf(b, "/%d", n.plen);
}

/* a + x (x may be negative), wrapping within the address width. */
static Addr add(Addr a, int64_t x)
{
  uint64_t lo = a.lo + (uint64_t)x;
  uint64_t carry = x >= 0 ? (lo < a.lo) : 0;
  uint64_t borrow = x < 0 ? (lo > a.lo) : 0;
  a.hi = a.hi + carry - borrow;
  a.lo = lo;
  if (a.bits == 32) {
    a.hi = 0;
    a.lo &= 0xFFFFFFFFull;
  }
  return a;
}

/* num << shift into an address (shift < 128). */
static Addr shl(uint64_t num, int shift, int bits)
{
  Addr r = {0, 0, bits};
  if (shift >= 64) {
    r.hi = shift >= 128 ? 0 : num << (shift - 64);
  } else if (shift == 0) {
    r.lo = num;
  } else {
    r.lo = num << shift;
    r.hi = num >> (64 - shift);
  }
  return r;
}

static Addr or_(Addr a, Addr b)
{
  a.hi |= b.hi;
  a.lo |= b.lo;
  return a;
}

static bool want_int(FnCall *c, int arg, Value v, int64_t *out)
{
  if (!val_num_int(v, out))
    return fn_arg_error(c, arg, "value must be a whole number, between "
                                "-9223372036854775808 and "
                                "9223372036854775807");
  return true;
}

bool fn_cidrhost(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Net net;
  const char *msg;
  if (!parse_cidr(c, a[0], &net, &msg))
    return fn_error(c, "invalid CIDR expression: %s", msg);
  int64_t num;
  if (!want_int(c, 1, a[1], &num))
    return false;
  int hostlen = net.ip.bits - net.plen;
  /* maxHostNum = 2^hostlen - 1, saturated to what int64 can compare. */
  bool huge = hostlen >= 63;
  int64_t maxh = huge ? INT64_MAX : ((int64_t)1 << hostlen) - 1;
  int64_t eff = num;
  if (num < 0) {
    if (!huge && -(num + 1) > maxh)
      return fn_error(c, "prefix of %d does not accommodate a host numbered "
                         "%lld", net.plen, (long long)(maxh + num + 1));
    if (huge) {
      /* Count back from the end of a huge host space. */
      Addr last = or_(net.ip, (Addr){~mask_of(net.plen, net.ip.bits).hi,
                                     ~mask_of(net.plen, net.ip.bits).lo &
                                         (net.ip.bits == 32 ? 0xFFFFFFFFull
                                                            : ~0ull),
                                     net.ip.bits});
      Buf b;
      buf_init(&b, c->arena);
      put_addr(&b, add(last, num + 1));
      *out = fn_buf_val(&b);
      return true;
    }
    eff = maxh + num + 1;
  } else if (num > maxh) {
    return fn_error(c, "prefix of %d does not accommodate a host numbered %lld",
                    net.plen, (long long)num);
  }
  Buf b;
  buf_init(&b, c->arena);
  put_addr(&b, add(net.ip, eff));
  *out = fn_buf_val(&b);
  return true;
}

bool fn_cidrnetmask(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Net net;
  const char *msg;
  if (!parse_cidr(c, a[0], &net, &msg))
    return fn_error(c, "invalid CIDR expression: %s", msg);
  if (net.ip.bits != 32)
    return fn_error(c, "IPv6 addresses cannot have a netmask: %s", a[0].u.s);
  Buf b;
  buf_init(&b, c->arena);
  put_addr(&b, mask_of(net.plen, 32));
  *out = fn_buf_val(&b);
  return true;
}

bool fn_cidrsubnet(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Net net;
  const char *msg;
  if (!parse_cidr(c, a[0], &net, &msg))
    return fn_error(c, "invalid CIDR expression: %s", msg);
  int64_t nb, num;
  if (!want_int(c, 1, a[1], &nb) || !want_int(c, 2, a[2], &num))
    return false;
  if (nb > 32)
    return fn_error(c, "may not extend prefix by more than 32 bits");
  int64_t newlen = net.plen + nb;
  if (newlen > net.ip.bits)
    return fn_error(c, "insufficient address space to extend prefix of %d by "
                       "%lld", net.plen, (long long)nb);
  if (nb < 0 || num < 0 || (uint64_t)num > ((uint64_t)1 << nb) - 1)
    return fn_error(c, "prefix extension of %lld does not accommodate a "
                       "subnet numbered %lld", (long long)nb, (long long)num);
  Net r;
  r.plen = (int)newlen;
  r.ip = or_(net.ip, shl((uint64_t)num, net.ip.bits - (int)newlen,
                         net.ip.bits));
  Buf b;
  buf_init(&b, c->arena);
  put_net(&b, r);
  *out = fn_buf_val(&b);
  return true;
}

static bool contains(Net n, Addr a)
{
  Addr m = mask_of(n.plen, n.ip.bits);
  Addr x = and_(a, m);
  return a.bits == n.ip.bits && x.hi == n.ip.hi && x.lo == n.ip.lo;
}

bool fn_cidrsubnets(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  Net net;
  const char *msg;
  if (!parse_cidr(c, a[0], &net, &msg))
    return fn_arg_error(c, 0, "invalid CIDR expression: %s", msg);
  if (n == 1) {
    *out = val_list(c->arena, &ty_string, NULL, 0);
    return true;
  }
  int64_t first;
  if (!want_int(c, 1, a[1], &first))
    return false;
  /* PreviousSubnet(network, start+first): the block just before. */
  int64_t fl = net.plen + first;
  if (fl < 0)
    fl = 0;
  if (fl > net.ip.bits)
    fl = net.ip.bits;
  Net cur;
  cur.plen = (int)fl;
  cur.ip = and_(add(net.ip, -1), mask_of((int)fl, net.ip.bits));
  Value *res = ARENA_NEW(c->arena, Value, n - 1);
  for (uint32_t i = 1; i < n; i++) {
    int64_t len;
    if (!want_int(c, (int)i, a[i], &len))
      return false;
    if (len < 1)
      return fn_arg_error(c, (int)i, "must extend prefix by at least one "
                                     "bit");
    if (len > 32)
      return fn_arg_error(c, (int)i, "may not extend prefix by more than 32 "
                                     "bits");
    len += net.plen;
    if (len > net.ip.bits)
      return fn_arg_error(c, (int)i, "would extend prefix to %lld bits, which "
                                     "is too long for an %s address",
                          (long long)len, net.ip.bits == 32 ? "IPv4" : "IPv6");
    /* NextSubnet(cur, len). */
    Addr m = mask_of((int)len, net.ip.bits);
    Addr hostm = mask_of(cur.plen, net.ip.bits);
    Addr last = or_(cur.ip, (Addr){~hostm.hi, ~hostm.lo &
                                   (net.ip.bits == 32 ? 0xFFFFFFFFull : ~0ull),
                                   net.ip.bits});
    Addr sub = and_(last, m);
    Addr submask = mask_of((int)len, net.ip.bits);
    Addr sublast = or_(sub, (Addr){~submask.hi, ~submask.lo &
                                   (net.ip.bits == 32 ? 0xFFFFFFFFull : ~0ull),
                                   net.ip.bits});
    Addr nx = add(sublast, 1);
    bool rollover = nx.hi == 0 && nx.lo == 0;
    Net next = {and_(nx, m), (int)len};
    if (rollover || !contains(net, next.ip)) {
      Buf cb;
      buf_init(&cb, c->arena);
      put_net(&cb, cur);
      return fn_arg_error(c, (int)i, "not enough remaining address space for "
                                     "a subnet with a prefix of %lld bits "
                                     "after %s", (long long)len, cb.p);
    }
    cur = next;
    Buf b;
    buf_init(&b, c->arena);
    put_net(&b, cur);
    res[i - 1] = fn_buf_val(&b);
  }
  *out = val_list(c->arena, &ty_string, res, n - 1);
  return true;
}

bool fn_cidrcontains(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)n;
  Net net;
  const char *msg;
  if (!parse_cidr(c, a[0], &net, &msg))
    return fn_arg_error(c, 0, "invalid CIDR expression: %s", msg);
  Addr ip;
  Net sub;
  if (memchr(a[1].u.s, '/', a[1].len)) {
    if (!parse_cidr(c, a[1], &sub, &msg))
      return fn_arg_error(c, 1, "invalid IP address or prefix: %s", a[1].u.s);
    ip = sub.ip;
    if (ip.bits == net.ip.bits && sub.plen < net.plen) {
      *out = val_false;
      return true;
    }
  } else if (!parse_ip(a[1].u.s, a[1].len, &ip)) {
    return fn_arg_error(c, 1, "invalid IP address or prefix: %s", a[1].u.s);
  }
  if (ip.bits != net.ip.bits)
    return fn_error(c, "address family mismatch: %s vs. %s", a[0].u.s,
                    a[1].u.s);
  *out = val_bool(contains(net, ip));
  return true;
}
