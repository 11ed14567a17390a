/*
** Unit tests for the built-in random and local providers' upstream
** details (issue 15 points 8 and 9): validators and deprecation warnings
** at validate time, UTF-8 characters in override_special, result_count =
** 0, keepers after a random_id import.  Kept apart from test_provider.c,
** which is at its size limit.
*/
#include <string.h>

#include "providers/provider.h"
#include "t.h"

static Arena A;

static Value S(const char *s) { return val_cstr(&A, s); }

static int64_t get_int_attr(Value obj, const char *name)
{
  int64_t i = -999999;
  Value v = prov_get(obj, name);
  if (!val_is_null(v) && val_is_known(v) && v.type->kind == TY_NUMBER)
    val_num_int(v, &i);
  return i;
}

typedef struct Ctx {
  Diags d;
  ProvCall c;
} Ctx;

static ProvCall *call(Ctx *x)
{
  diag_init(&x->d, &A);
  x->c.arena = &A;
  x->c.diags = &x->d;
  x->c.paths = NULL;
  return &x->c;
}

static Prov *open_b(const char *src)
{
  const ProvBuiltin *b = prov_lookup_builtin(src);
  return b ? prov_open_builtin(&A, b) : NULL;
}

static const ProvBlockSchema *res_schema(Prov *p, const char *type)
{
  Ctx x;
  const ProvProviderSchema *s = NULL;
  p->ops->get_schema(p, call(&x), &s);
  const ProvTypeSchema *t = prov_schema_resource(s, type);
  return t ? t->schema.block : NULL;
}

/* A value of block b's implied type from name/value pairs; others null. */
static Value mk(const ProvBlockSchema *b, int n, const char **names,
                const Value *vals)
{
  const Type *t = prov_schema_implied_type(&A, b);
  const char **nn = ARENA_NEW(&A, const char *, t->n);
  Value *vv = ARENA_NEW(&A, Value, t->n);
  for (uint32_t i = 0; i < t->n; i++) {
    nn[i] = t->names[i];
    vv[i] = val_null(t->types[i]);
    for (int k = 0; k < n; k++)
      if (strcmp(names[k], t->names[i]) == 0)
        vv[i] = vals[k];
  }
  return val_object(&A, t->n, nn, vv);
}

/* Plans and applies a create of type with config cfg; returns the state. */
static Value create_res(Prov *p, const char *type, Value cfg, Ctx *x,
                        ProvPlanResp *ps)
{
  const ProvBlockSchema *b = res_schema(p, type);
  Value prior0 = prov_null_object(&A, b);
  ProvPlanReq pr = {type, prior0, cfg, cfg, {0}};
  *ps = (ProvPlanResp){0};
  p->ops->plan_resource_change(p, call(x), &pr, ps);
  if (x->d.errors)
    return prior0;
  ProvApplyReq ar = {type, prior0, ps->planned_state, cfg, {0}, NULL};
  ProvApplyResp as = {0};
  p->ops->apply_resource_change(p, call(x), &ar, &as);
  return as.new_state;
}

/* Issue 15 points 8 and 9: the random provider's validators and
** deprecation warnings at validate time, characters (not bytes) in
** override_special, result_count = 0, and keepers after a random_id
** import, as upstream hashicorp/random does. */
static void test_random_upstream_details(void)
{
  Prov *p = open_b("random");
  const ProvBlockSchema *b = res_schema(p, "random_string");
  Ctx x;
  ProvPlanResp ps;
  /* "\u00b0" is two bytes: 10 characters of it, never a half one. */
  const char *n1[] = {"length", "upper", "lower", "numeric",
                      "override_special"};
  Value v1[] = {val_int(10), val_false, val_false, val_false, S("\xc2\xb0")};
  Value st = create_res(p, "random_string", mk(b, 5, n1, v1), &x, &ps);
  T_EQ_INT(x.d.errors, 0);
  Value r = prov_get(st, "result");
  T_EQ_INT(r.len, 20);
  for (uint32_t i = 0; i + 1 < r.len; i += 2)
    T_CHECK((unsigned char)r.u.s[i] == 0xc2 &&
            (unsigned char)r.u.s[i + 1] == 0xb0);
  /* min_special draws whole characters of the override too. */
  const char *n1b[] = {"length", "min_special", "override_special"};
  Value v1b[] = {val_int(6), val_int(6), S("\xc3\xa4\xe2\x82\xac")};
  Value st1b = create_res(p, "random_string", mk(b, 3, n1b, v1b), &x, &ps);
  Value r1b = prov_get(st1b, "result");
  int chars = 0;
  for (uint32_t i = 0; i < r1b.len; i++)
    chars += ((unsigned char)r1b.u.s[i] & 0xc0) != 0x80;
  T_EQ_INT(chars, 6);
  T_CHECK(r1b.len >= 12 && r1b.len <= 18);

  /* AtLeastOneOfTrue on numeric: all four configured false. */
  const char *n2[] = {"length", "upper", "lower", "numeric", "special"};
  Value v2[] = {val_int(3), val_false, val_false, val_false, val_false};
  p->ops->validate_resource_config(p, call(&x), "random_password",
                                   mk(res_schema(p, "random_password"), 5, n2,
                                      v2));
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head->summary, "Invalid Attribute Combination");
  T_EQ_STR(x.d.head->detail, "At least one attribute out of "
                             "[special,upper,lower,numeric] must be "
                             "specified as true");
  T_CHECK(prov_diag_path(&x.c, x.d.head) != NULL);
  /* numeric left unset: the validator does not run (upstream). */
  p->ops->validate_resource_config(p, call(&x), "random_string",
                                   mk(b, 4, n2, v2));
  T_EQ_INT(x.d.errors, 0);

  /* The deprecated `number`: the framework's warning, only when set. */
  const char *n3[] = {"length", "number"};
  Value v3[] = {val_int(3), val_true};
  p->ops->validate_resource_config(p, call(&x), "random_string",
                                   mk(b, 2, n3, v3));
  T_EQ_INT(x.d.errors, 0);
  T_EQ_INT(x.d.warnings, 1);
  T_EQ_STR(x.d.head->summary, "Attribute Deprecated");
  T_EQ_STR(x.d.head->detail,
           "**NOTE**: This is deprecated, use `numeric` instead.");
  Value v3n[] = {val_int(3), val_null(&ty_bool)};
  p->ops->validate_resource_config(p, call(&x), "random_string",
                                   mk(b, 2, n3, v3n));
  T_EQ_INT(x.d.warnings, 0);

  /* random_shuffle: result_count = 0 is an empty list, and stays 0. */
  const ProvBlockSchema *sb = res_schema(p, "random_shuffle");
  Value in[2] = {S("a"), S("b")};
  const char *n4[] = {"input", "result_count"};
  Value v4[] = {val_list(&A, &ty_string, in, 2), val_int(0)};
  Value s4 = create_res(p, "random_shuffle", mk(sb, 2, n4, v4), &x, &ps);
  T_EQ_INT(x.d.errors, 0);
  T_CHECK(!val_is_null(prov_get(s4, "result")));
  T_EQ_INT(prov_get(s4, "result").len, 0);
  T_EQ_INT(get_int_attr(s4, "result_count"), 0);
  Value v4n[] = {v4[0], val_int(-1)};
  p->ops->validate_resource_config(p, call(&x), "random_shuffle",
                                   mk(sb, 2, n4, v4n));
  T_EQ_INT(x.d.errors, 1);

  /* random_id import: keepers null, as a configuration without keepers. */
  ProvImportReq ir = {"random_id", "AAEC_w"};
  ProvImportResp is = {0};
  p->ops->import_resource_state(p, call(&x), &ir, &is);
  T_EQ_INT(x.d.errors, 0);
  T_CHECK(val_is_null(prov_get(is.imported[0].state, "keepers")));
}

/* The ephemeral twins: their schemas (no id, keepers or number), the
** validators of their managed or data twins, and Open producing an object
** of the ephemeral type. */
static Value open_eph(Prov *p, const char *type, int n, const char **names,
                      const Value *vals, Ctx *x)
{
  const ProvProviderSchema *s = NULL;
  p->ops->get_schema(p, call(x), &s);
  const ProvTypeSchema *t = prov_schema_ephemeral(s, type);
  T_CHECK(t != NULL);
  if (!t)
    return val_dynamic_null;
  Value cfg = mk(t->schema.block, n, names, vals);
  prov_validate_ephemeral(p, call(x), type, cfg);
  if (x->d.errors)
    return val_dynamic_null;
  ProvOpenEphReq rq = {type, cfg};
  ProvOpenEphResp rs = {0};
  prov_open_ephemeral(p, call(x), &rq, &rs);
  T_CHECK(!rs.result.type ||
          ty_equal(rs.result.type,
                   prov_schema_implied_type(&A, t->schema.block)));
  return rs.result;
}

static void test_ephemeral_types(void)
{
  Ctx x;
  Prov *rp = open_b("random");
  const char *pn[] = {"length", "special", "min_numeric"};
  Value pv[] = {val_int(20), val_false, val_int(4)};
  Value pw = open_eph(rp, "random_password", 3, pn, pv, &x);
  T_EQ_INT(x.d.errors, 0);
  Value res = prov_get(pw, "result");
  T_EQ_INT(res.len, 20);
  T_CHECK(strpbrk(res.u.s, "!@#$%&*()-_=+[]{}<>:?") == NULL);
  int digits = 0;
  for (uint32_t i = 0; i < res.len; i++)
    digits += res.u.s[i] >= '0' && res.u.s[i] <= '9';
  T_CHECK(digits >= 4);
  T_CHECK(strncmp(prov_get(pw, "bcrypt_hash").u.s, "$2a$10$", 7) == 0);
  T_CHECK(prov_get(pw, "upper").u.b && !prov_get(pw, "special").u.b);
  T_CHECK(val_is_null(prov_get(pw, "id")));
  /* the managed resource's validators */
  Value bad[] = {val_int(2), val_false, val_int(4)};
  open_eph(rp, "random_password", 3, pn, bad, &x);
  T_EQ_INT(x.d.errors, 1);
  T_CHECK(strstr(x.d.head->detail, "at least sum of") != NULL);
  const char *bn[] = {"length"};
  Value bv[] = {val_int(8)};
  Value by = open_eph(rp, "random_bytes", 1, bn, bv, &x);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_INT(prov_get(by, "hex").len, 16);
  T_EQ_INT(prov_get(by, "base64").len, 12);
  Value zero[] = {val_int(0)};
  open_eph(rp, "random_bytes", 1, bn, zero, &x);
  T_EQ_STR(x.d.head->detail,
           "Attribute length value must be at least 1, got: 0");

  Prov *tp = open_b("tls");
  const char *kn[] = {"algorithm"};
  Value kv[] = {S("ED25519")};
  Value key = open_eph(tp, "tls_private_key", 1, kn, kv, &x);
  T_EQ_INT(x.d.errors, 0);
  T_CHECK(strstr(prov_get(key, "private_key_pem").u.s,
                 "BEGIN PRIVATE KEY") != NULL);
  T_EQ_STR(prov_get(key, "ecdsa_curve").u.s, "P224");
  const char *un[] = {"private_key_pem"};
  Value uv[] = {prov_get(key, "private_key_pem")};
  Value pub = open_eph(tp, "tls_public_key", 1, un, uv, &x);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_STR(prov_get(pub, "algorithm").u.s, "ED25519");
  T_EQ_STR(prov_get(pub, "public_key_openssh").u.s,
           prov_get(key, "public_key_openssh").u.s);
  Value badalg[] = {S("DSA")};
  open_eph(tp, "tls_private_key", 1, kn, badalg, &x);
  T_EQ_INT(x.d.errors, 1);

  Prov *lp = open_b("local");
  const char *cn[] = {"command", "arguments"};
  Value args[] = {S("-c"), S("echo out; exit 3")};
  Value cv[] = {S("sh"), val_list(&A, &ty_string, args, 2)};
  open_eph(lp, "local_command", 2, cn, cv, &x);
  T_EQ_INT(x.d.errors, 1);
  T_CHECK(strncmp(x.d.head->detail, "The ephemeral resource executed the "
                  "command", 40) == 0);

  /* a provider without ephemeral types refuses clearly */
  Prov *np = open_b("null");
  ProvOpenEphReq rq = {"null_thing", val_dynamic_null};
  ProvOpenEphResp rs = {0};
  prov_open_ephemeral(np, call(&x), &rq, &rs);
  T_EQ_STR(x.d.head->summary, "Ephemeral resources not supported");
  T_EQ_STR(x.d.head->detail, "The provider registry.terraform.io/hashicorp/"
                             "null does not support ephemeral resource "
                             "type \"null_thing\".");
}

static void test_local_deprecated(void)
{
  Prov *p = open_b("registry.terraform.io/hashicorp/local");
  const ProvBlockSchema *b = res_schema(p, "local_file");
  const char *n1[] = {"filename", "sensitive_content"};
  Value v1[] = {S("x.txt"), S("s")};
  Ctx x;
  p->ops->validate_resource_config(p, call(&x), "local_file",
                                   mk(b, 2, n1, v1));
  T_EQ_INT(x.d.errors, 0);
  T_EQ_INT(x.d.warnings, 1);
  T_EQ_STR(x.d.head->summary, "Attribute Deprecated");
  T_EQ_STR(x.d.head->detail, "Use the `local_sensitive_file` resource "
                             "instead");
}

/* Small draws come from a per-thread buffer refilled from the kernel:
** across many refills no two 16-byte draws are equal, every size up to
** and past the buffer's limit is filled, and no draw is all zero bytes
** (what a handed-out byte is cleared to). */
static void test_random_bytes_buffered(void)
{
  enum { N = 200 };
  static unsigned char seen[N][16];
  for (int i = 0; i < N; i++) {
    prov_random_bytes(seen[i], 16);
    static const unsigned char zero[16];
    T_CHECK(memcmp(seen[i], zero, 16) != 0);
    for (int j = 0; j < i; j++)
      T_CHECK(memcmp(seen[i], seen[j], 16) != 0);
  }
  for (size_t n = 1; n <= 300; n += 37) {
    unsigned char a[300], b[300];
    prov_random_bytes(a, n);
    prov_random_bytes(b, n);
    T_CHECK(n < 4 || memcmp(a, b, n) != 0);
  }
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_random_bytes_buffered);
  T_RUN(test_random_upstream_details);
  T_RUN(test_local_deprecated);
  T_RUN(test_ephemeral_types);
  int rc = t_done("prov_random");
  arena_release(&A);
  return rc;
}
