/* Unit tests for core/state/state: model, addresses, v4 read/write, records. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/json.h"
#include "state/state.h"
#include "t.h"

static Arena A;

static const char *slurp(const char *path, size_t *n)
{
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return NULL;
  Buf b;
  buf_init(&b, &A);
  char tmp[65536];
  ssize_t k;
  while ((k = read(fd, tmp, sizeof tmp)) > 0)
    buf_put(&b, tmp, (size_t)k);
  close(fd);
  *n = b.len;
  return b.p ? b.p : "";
}

static const char *fmt_inst(const StResource *r, StKey k)
{
  return st_instance_addr(&A, r, k);
}

static void test_keys_and_format(void)
{
  State *s = st_new(&A);
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "null_resource", "a",
                                     "provider[\"registry.terraform.io/"
                                     "hashicorp/null\"]");
  T_EQ_STR(r->addr, "null_resource.a");
  T_EQ_STR(fmt_inst(r, st_nokey()), "null_resource.a");
  T_EQ_STR(fmt_inst(r, st_intkey(0)), "null_resource.a[0]");
  T_EQ_STR(fmt_inst(r, st_strkey(&A, "k", 1)), "null_resource.a[\"k\"]");
  T_EQ_STR(fmt_inst(r, st_strkey(&A, "a\"b\\c\n${x}%{y}$z", 16)),
           "null_resource.a[\"a\\\"b\\\\c\\n$${x}%%{y}$z\"]");
  StResource *d = st_ensure_resource(s, "module.m[\"a\"].module.b", ST_DATA,
                                     "x", "y", "p");
  T_EQ_STR(d->addr, "module.m[\"a\"].module.b.data.x.y");
  T_CHECK(st_key_compare(st_nokey(), st_intkey(-5)) < 0);
  T_CHECK(st_key_compare(st_intkey(2), st_intkey(10)) < 0);
  T_CHECK(st_key_compare(st_intkey(99), st_strkey(&A, "a", 1)) < 0);
  T_CHECK(st_key_compare(st_strkey(&A, "B", 1), st_strkey(&A, "a", 1)) < 0);
  T_CHECK(st_key_compare(st_strkey(&A, "a", 1), st_strkey(&A, "ab", 2)) < 0);
  T_CHECK(st_key_equal(st_strkey(&A, "ab", 2), st_strkey(&A, "ab", 2)));
}

/* st_reserve: entries already indexed stay found (deleted ones gone), and
** the reserved room takes every later instance without the resource's
** list growing (it stays where it is). */
static void test_reserve(void)
{
  State *s = st_new(&A);
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "t", "a", "p");
  for (int64_t i = 0; i < 100; i++)
    st_set_current(s, r, st_intkey(i), st_object_new(s));
  st_set_current(s, r, st_intkey(7), NULL);   /* a tombstone */
  st_reserve(s, NULL, 5000);
  st_reserve(s, r, 5000);
  T_CHECK(r->cap_inst >= r->ninst + 5000);
  for (int64_t i = 0; i < 100; i++)
    T_CHECK((st_find_instance(s, r, st_intkey(i)) != NULL) == (i != 7));
  StInstance **arr = r->inst;
  uint32_t cap = r->cap_inst;
  for (int64_t i = 100; i < 5099; i++)
    st_set_current(s, r, st_intkey(i), st_object_new(s));
  T_CHECK(r->inst == arr && r->cap_inst == cap);
  T_EQ_INT(r->ninst, 5098);
  T_CHECK(st_find_instance(s, r, st_intkey(5098)) != NULL);
  T_CHECK(st_find_instance(s, r, st_intkey(7)) == NULL);
  st_reserve(s, r, 0);   /* room enough: nothing changes */
  T_CHECK(r->inst == arr);
}

static void test_parse_addr(void)
{
  Diags d;
  diag_init(&d, &A);
  StAddr a;
  T_CHECK(st_parse_addr(&A, "null_resource.a", &a, &d));
  T_EQ_INT(a.kind, ST_ADDR_RESOURCE);
  T_EQ_STR(a.type, "null_resource");
  T_EQ_STR(a.module, "");
  T_CHECK(st_parse_addr(&A, "module.m[\"a\"].module.b.data.x.y[3]", &a, &d));
  T_EQ_INT(a.kind, ST_ADDR_INSTANCE);
  T_EQ_INT(a.mode, ST_DATA);
  T_EQ_STR(a.module, "module.m[\"a\"].module.b");
  T_EQ_INT(a.key.kind, ST_INTKEY);
  T_EQ_INT(a.key.i, 3);
  T_CHECK(st_parse_addr(&A, "aws_instance.w[\"x\\\"y\"]", &a, &d));
  T_EQ_STR(a.key.s, "x\"y");
  T_CHECK(st_parse_addr(&A, "resource.module.x", &a, &d));
  T_EQ_STR(a.type, "module");
  T_CHECK(st_parse_addr(&A, "module.m", &a, &d));
  T_EQ_INT(a.kind, ST_ADDR_MODULE);
  T_CHECK(st_parse_addr(&A, "a.b.0", &a, &d)); /* legacy index form */
  T_EQ_INT(a.key.i, 0);
  T_EQ_INT(d.errors, 0);

  struct {
    const char *in, *summary, *detail_start;
  } bad[] = {
      {"", "Variable name required", "Must begin"},
      {"null_resource", "Invalid address", "Resource specification must"},
      {"var.x", "Invalid address", "The keyword \"var\" is reserved"},
      {"a.b.c", "Invalid address", "Resource instance key must be given"},
      {"a.b[0].c", "Invalid address", "Unexpected extra operators"},
      {"a.b.c.d", "Invalid address", "Unexpected extra operators"},
      {"a.b[1.5]", "Invalid address", "Invalid resource instance key"},
      {"a.b[*]", "Invalid address", "The resource instance key cannot be"},
      {"module", "Invalid address operator", "Prefix \"module.\""},
      {"module.m[\"x\"", "Missing close bracket on index", "The index"},
      {"a..b", "Invalid attribute name", "An attribute name"},
      {"a.b[x]", "Invalid index key", "Index brackets"},
      {"a.b c", "Invalid character", "Expected an attribute"},
      {"data.x", "Invalid address", "Resource specification must"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    Diags e;
    diag_init(&e, &A);
    T_CHECK(!st_parse_addr(&A, bad[i].in, &a, &e));
    T_EQ_INT(e.errors, 1);
    if (e.head) {
      T_EQ_STR(e.head->summary, bad[i].summary);
      T_CHECK(strncmp(e.head->detail, bad[i].detail_start,
                      strlen(bad[i].detail_start)) == 0);
    }
  }
  StResource r = {.module = "module.m[\"a\"].module.b", .mode = ST_MANAGED,
                  .type = "t", .name = "n"};
  StAddr ma;
  T_CHECK(st_parse_addr(&A, "module.m[\"a\"]", &ma, &d));
  T_CHECK(st_addr_matches(&ma, &r, st_nokey()));
  T_CHECK(st_parse_addr(&A, "module.m", &ma, &d));
  T_CHECK(!st_addr_matches(&ma, &r, st_nokey()));
  T_CHECK(st_parse_addr(&A, "module.m[\"a\"].module.b.t.n[2]", &ma, &d));
  T_CHECK(st_addr_matches(&ma, &r, st_intkey(2)));
  T_CHECK(!st_addr_matches(&ma, &r, st_intkey(3)));
}

static void test_model(void)
{
  State *s = st_new(&A);
  StResource *r = st_ensure_resource(s, "", ST_MANAGED, "t", "a", "p");
  StObject *o1 = st_object_new(s), *o2 = st_object_new(s);
  st_set_current(s, r, st_intkey(0), o1);
  st_set_current(s, r, st_intkey(1), o2);
  T_EQ_INT(s->ninstances, 2);
  StInstance *i1 = st_find_instance(s, r, st_intkey(1));
  T_CHECK(i1 && i1->current == o2);
  char dk[9];
  T_CHECK(st_depose(s, i1, dk));
  T_EQ_INT(strlen(dk), 8);
  T_CHECK(i1->current == NULL && st_get_deposed(i1, dk) == o2);
  T_EQ_INT(s->ninstances, 2);
  st_set_deposed(s, r, st_intkey(1), dk, NULL);
  T_CHECK(st_find_instance(s, r, st_intkey(1)) == NULL); /* pruned */
  st_set_current(s, r, st_intkey(0), NULL);
  T_CHECK(st_find_resource(s, "", ST_MANAGED, "t", "a") == NULL);
  T_EQ_INT(s->nres, 0);
  T_EQ_INT(s->ninstances, 0);
  /* re-adding after removal works (tombstones) */
  r = st_ensure_resource(s, "", ST_MANAGED, "t", "a", "p");
  st_set_current(s, r, st_intkey(0), o1);
  T_CHECK(st_find_instance(s, r, st_intkey(0)) != NULL);
  st_set_output(s, "b", val_int(1), &ty_number, false);
  st_set_output(s, "a", val_int(2), &ty_number, true);
  T_EQ_STR(s->outputs[0].name, "a");
  T_CHECK(st_find_output(s, "b") != NULL);
  st_remove_output(s, "a");
  T_EQ_INT(s->noutputs, 1);
}

static void test_ordering(void)
{
  State *s = st_new(&A);
  const char *mods[] = {"module.z", "", "module.a"};
  for (int m = 0; m < 3; m++) {
    StResource *r = st_ensure_resource(s, mods[m], ST_MANAGED, "t", "n", "p");
    st_set_current(s, r, st_strkey(&A, "b", 1), st_object_new(s));
    st_set_current(s, r, st_intkey(10), st_object_new(s));
    st_set_current(s, r, st_intkey(2), st_object_new(s));
    st_set_current(s, r, st_strkey(&A, "a", 1), st_object_new(s));
    StResource *d = st_ensure_resource(s, mods[m], ST_DATA, "t", "n", "p");
    st_set_current(s, d, st_nokey(), st_object_new(s));
  }
  st_set_deposed(s, s->res[0], st_intkey(2), "ffffffff", st_object_new(s));
  st_set_deposed(s, s->res[0], st_intkey(2), "00000001", st_object_new(s));
  st_sort(s);
  T_EQ_STR(s->res[0]->addr, "data.t.n");
  T_EQ_STR(s->res[1]->addr, "t.n");
  T_EQ_STR(s->res[2]->addr, "module.a.data.t.n");
  T_EQ_STR(s->res[5]->addr, "module.z.t.n");
  StResource *r = s->res[1];
  T_EQ_INT(r->inst[0]->key.i, 2);
  T_EQ_INT(r->inst[1]->key.i, 10);
  T_EQ_STR(r->inst[2]->key.s, "a");
  T_EQ_STR(r->inst[3]->key.s, "b");
  StInstance *i2 = st_find_instance(s, s->res[5], st_intkey(2));
  T_CHECK(i2 != NULL);
  if (i2) {
    T_EQ_INT(i2->ndeposed, 2);
    T_EQ_STR(i2->deposed[0].key, "00000001");
  }
}

static void test_scale_100k(void)
{
  Arena a;
  arena_init(&a, 1 << 20);
  State *s = st_new(&a);
  char name[32];
  for (int i = 0; i < 1000; i++) {
    snprintf(name, sizeof name, "r%d", i);
    StResource *r = st_ensure_resource(s, i % 2 ? "module.m" : "", ST_MANAGED,
                                       "null_resource", name, "p");
    for (int k = 0; k < 100; k++)
      st_set_current(s, r, st_intkey(99 - k), st_object_new(s));
  }
  T_EQ_INT(s->ninstances, 100000);
  int found = 0;
  for (int i = 0; i < 1000; i++) {
    snprintf(name, sizeof name, "r%d", i);
    StResource *r = st_find_resource(s, i % 2 ? "module.m" : "", ST_MANAGED,
                                     "null_resource", name);
    for (int k = 0; k < 100; k++)
      found += r && st_find_instance(s, r, st_intkey(k)) != NULL;
  }
  T_EQ_INT(found, 100000);
  st_sort(s);
  T_EQ_INT(s->res[0]->inst[0]->key.i, 0);
  /* remove every other instance: O(1) each */
  for (uint32_t i = 0; i < s->nres; i++) {
    StResource *r = s->res[i];
    for (int k = 0; k < 100; k += 2)
      st_set_current(s, r, st_intkey(k), NULL);
  }
  T_EQ_INT(s->ninstances, 50000);
  st_sort(s);
  T_EQ_INT(s->res[0]->inst[0]->key.i, 1);
  arena_release(&a);
}

static State *read_ok(const char *path, const char **src, size_t *n)
{
  *src = slurp(path, n);
  T_CHECK(*src != NULL);
  Diags d;
  diag_init(&d, &A);
  State *s = NULL;
  T_CHECK(st_read(&A, path, *src, *n, &s, &d));
  T_EQ_INT(d.errors, 0);
  for (Diag *g = d.head; g; g = g->next)
    fprintf(stderr, "%s: %s\n", g->summary, g->detail);
  return s;
}

static void test_read_basic_roundtrip(void)
{
  const char *src;
  size_t n;
  State *s = read_ok("tests/state/basic.tfstate", &src, &n);
  if (!s)
    return;
  T_EQ_STR(s->terraform_version, "1.9.5");
  T_EQ_INT(s->serial, 7);
  T_EQ_STR(s->lineage, "af5a607f-9eae-15f8-afd8-9d32a8a9fc24");
  T_EQ_INT(s->noutputs, 2);
  T_CHECK(s->outputs[1].sensitive);
  T_EQ_INT(s->nres, 3);
  StResource *r = st_find_resource_addr(s, "null_resource.a");
  T_CHECK(r != NULL);
  if (!r)
    return;
  StInstance *i0 = st_find_instance(s, r, st_intkey(0));
  T_CHECK(i0 && i0->current);
  if (i0 && i0->current) {
    StObject *o = i0->current;
    T_EQ_INT(o->priv_len, 4);
    T_CHECK(memcmp(o->priv, "null", 4) == 0);
    T_EQ_INT(o->ndeps, 1);
    T_EQ_INT(o->nsensitive, 1);
    T_EQ_INT(o->sensitive[0].n, 2);
    T_EQ_INT(o->sensitive[0].steps[1].kind, PS_KEY);
  }
  StInstance *i1 = st_find_instance(s, r, st_intkey(1));
  T_CHECK(i1 && i1->current && i1->current->status == ST_TAINTED &&
          i1->current->create_before_destroy && i1->ndeposed == 1);
  StResource *p = st_find_resource_addr(s, "module.m[\"k\"].random_pet.p");
  T_CHECK(p && p->ninst == 1 && p->inst[0]->current->has_identity);
  Buf out;
  buf_init(&out, &A);
  st_write(&out, s, "1.9.5");
  T_EQ_INT(out.len, n);
  T_CHECK(out.len == n && memcmp(out.p, src, n) == 0);
  if (out.len != n || memcmp(out.p, src, n) != 0)
    fprintf(stderr, "--- got:\n%s", out.p);
  /* cairn's own version is written by default */
  buf_clear(&out);
  st_write(&out, s, NULL);
  T_CHECK(strstr(out.p, "\"terraform_version\": \"" CAIRN_VERSION "\"") !=
          NULL);
  /* clone is deep and equal */
  State *c = st_clone(&A, s);
  Buf a1, a2;
  buf_init(&a1, &A);
  buf_init(&a2, &A);
  st_write_content(&a1, s);
  st_write_content(&a2, c);
  T_EQ_STR(a1.p, a2.p);
}

static void test_read_legacy(void)
{
  const char *src;
  size_t n;
  State *s = read_ok("tests/state/opentofu-legacy.tfstate", &src, &n);
  if (!s)
    return;
  T_EQ_INT(s->nres, 1);
  StResource *r = s->res[0];
  T_EQ_STR(r->provider,
           "provider[\"registry.terraform.io/-/aws\"].west");
  StObject *o = r->inst[0]->current;
  T_CHECK(val_is_null(o->attrs) && !val_is_null(o->attrs_flat));
  Buf out;
  buf_init(&out, &A);
  st_write(&out, s, NULL);
  T_CHECK(strstr(out.p, "\"attributes_flat\": {") != NULL);
  T_CHECK(strstr(out.p, "\"attributes\"") == NULL);
  T_CHECK(strstr(out.p, "each") == NULL);
  T_CHECK(strstr(out.p, "depends_on") == NULL);
  T_CHECK(strstr(out.p, "\"check_results\": null\n}\n") != NULL);
}

static void test_empty_and_new(void)
{
  Diags d;
  diag_init(&d, &A);
  State *s = (State *)1;
  T_CHECK(st_read(&A, "empty", "", 0, &s, &d));
  T_CHECK(s == NULL);
  T_EQ_INT(d.errors + d.warnings, 0);
  State *e = st_new(&A);
  e->serial = 1;
  e->lineage = "l";
  Buf out;
  buf_init(&out, &A);
  st_write(&out, e, "1.0.0");
  T_EQ_STR(out.p, "{\n  \"version\": 4,\n  \"terraform_version\": \"1.0.0\",\n"
                  "  \"serial\": 1,\n  \"lineage\": \"l\",\n"
                  "  \"outputs\": {},\n  \"resources\": [],\n"
                  "  \"check_results\": null\n}\n");
  const char *l = st_new_lineage(&A);
  T_EQ_INT(strlen(l), 36);
  T_CHECK(l[8] == '-' && l[13] == '-' && l[18] == '-' && l[23] == '-');
  T_CHECK(strcmp(l, st_new_lineage(&A)) != 0);
}

typedef struct Bad {
  const char *json;
  const char *summary;
  const char *detail_start;
} Bad;

#define V4(body)                                                           \
  "{\"version\":4,\"serial\":1,\"lineage\":\"x\",\"resources\":[" body "]}"
#define RES(inst)                                                          \
  "{\"mode\":\"managed\",\"type\":\"t\",\"name\":\"n\",\"provider\":\"p\","  \
  "\"instances\":[" inst "]}"

static void test_bad_inputs(void)
{
  Bad bad[] = {
      {"{\"version\": 4,", "Unsupported state file format",
       "The state file could not be parsed as JSON: syntax error at byte"},
      {"[1]", "Unsupported state file format",
       "The version in the state file is array."},
      {"{}", "Unsupported state file format",
       "The state file does not have a \"version\" attribute"},
      {"{\"version\":\"4\"}", "Unsupported state file format",
       "The version in the state file is string."},
      {"{\"version\":-1}", "Unsupported state file format",
       "The version in the state file is number -1."},
      {"{\"version\":0}", "Unsupported state file format",
       "The state file uses JSON syntax but has a version number of zero."},
      {"{\"version\":3}", "Unsupported state file format",
       "The state file uses format version 3, which was written"},
      {"{\"version\":5,\"terraform_version\":\"9.1.0\"}",
       "Unsupported state file format",
       "The state file uses format version 5, which is not supported by "
       "cairn " CAIRN_VERSION ". This state file was created by Terraform "
       "9.1.0."},
      {"{\"version\":5}", "Unsupported state file format",
       "The state file uses format version 5, which is not supported by "
       "cairn " CAIRN_VERSION ". This state file may have been created"},
      {"tfstate\x01\x02", "Unsupported state file format",
       "The state is stored in a legacy binary format"},
      {"{\"version\":4,\"serial\":\"1\"}", "Invalid state file format",
       "The state file field \"serial\" has invalid value string"},
      {"{\"version\":4,\"terraform_version\":\"banana\"}",
       "Invalid Terraform version string",
       "State file claims to have been written by Terraform version "
       "\"banana\""},
      {"{\"version\":4,\"resources\":{}}", "Invalid state file format",
       "The state file field \"resources\" has invalid value object"},
      {V4(RES("{\"schema_version\":\"0\"}")), "Invalid state file format",
       "The state file field \"resources.instances.schema_version\" has "
       "invalid value string"},
      {V4(RES("{\"status\":\"broken\"}")),
       "Invalid resource instance metadata in state",
       "Instance t.n has invalid status \"broken\"."},
      {V4(RES("{\"deposed\":\"abc\"}")),
       "Invalid resource instance metadata in state",
       "Instance t.n has an object with deposed key \"abc\", which is not "
       "correctly formatted."},
      {V4(RES("{\"index_key\":1},{\"index_key\":1}")),
       "Duplicate resource instance in state",
       "Instance t.n[1] appears multiple times in the state file."},
      {V4(RES("{\"deposed\":\"aaaaaaaa\"},{\"deposed\":\"aaaaaaaa\"}")),
       "Duplicate resource instance in state",
       "Instance t.n deposed object \"aaaaaaaa\" appears multiple times"},
      {V4(RES("{\"index_key\":true}")),
       "Invalid resource instance metadata in state",
       "Resource t.n has an instance with the invalid instance key true."},
      {V4(RES("{\"private\":\"@@@@\"}")), "Invalid state file format",
       "The state file does not conform to the expected JSON data "
       "structure: illegal base64 data at input byte 0."},
      {V4(RES("{\"sensitive_attributes\":[[{\"type\":\"splat\"}]]}")),
       "Unsupported path step", "Unsupported path step type \"splat\""},
      {V4("{\"mode\":\"ephemeral\",\"type\":\"t\",\"name\":\"n\"}"),
       "Invalid resource mode in state",
       "State contains a resource with mode \"ephemeral\" (\"t\" \"n\")"},
      {V4("{\"module\":\"modul.x\",\"mode\":\"managed\",\"type\":\"t\","
          "\"name\":\"n\"}"),
       "Invalid module instance address", "The state file has a resource"},
      {"{\"version\":4,\"outputs\":{\"o\":{\"value\":1,\"type\":\"blob\"}}}",
       "Invalid output value type in state",
       "The state file has an invalid type specification for output \"o\""},
      {"{\"version\":4,\"outputs\":{\"o\":{\"value\":\"x\",\"type\":"
       "\"number\"}}}",
       "Invalid output value saved in state",
       "The state file has an invalid value for output \"o\""},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    Diags d;
    diag_init(&d, &A);
    State *s = (State *)1;
    bool ok = st_read(&A, "bad.tfstate", bad[i].json, strlen(bad[i].json), &s,
                      &d);
    T_CHECK(!ok);
    T_CHECK(s == NULL);
    T_CHECK(d.errors >= 1);
    if (!d.head || strcmp(d.head->summary, bad[i].summary) != 0 ||
        strncmp(d.head->detail, bad[i].detail_start,
                strlen(bad[i].detail_start)) != 0) {
      t_cur_failed = 1;
      fprintf(stderr, "case %zu: got %s / %s\n", i,
              d.head ? d.head->summary : "(none)",
              d.head ? d.head->detail : "");
    }
    /* every diagnostic names the file */
    T_CHECK(d.head && (strstr(d.head->detail, "bad.tfstate") ||
                       (d.head->subject.file &&
                        strcmp(d.head->subject.file, "bad.tfstate") == 0)));
  }
  Diags d;
  diag_init(&d, &A);
  State *s;
  T_CHECK(!st_read(&A, "huge", "{", ST_MAX_FILE_BYTES + 1, &s, &d));
  T_EQ_STR(d.head ? d.head->summary : "", "State file too large");
}

static void test_records(void)
{
  State *s = st_new(&A);
  StResource *r = st_ensure_resource(s, "module.m", ST_MANAGED, "t", "n",
                                     "provider[\"x\"]");
  StObject *o = st_object_new(s);
  const char *names[] = {"id", "n"};
  Value vals[] = {val_cstr(&A, "abc"), val_int(3)};
  o->attrs = val_object(&A, 2, names, vals);
  o->schema_version = 2;
  uint8_t priv[] = {0, 1, 2};
  o->priv = priv;
  o->priv_len = 3;
  Buf rec;
  buf_init(&rec, &A);
  st_rec_set(&rec, r, st_strkey(&A, "k", 1), NULL, o, "0123456789abcdef");
  T_CHECK(strchr(rec.p, '\n') == NULL);
  State *t = st_new(&A);
  Diags d;
  diag_init(&d, &A);
  StRecInfo info;
  T_CHECK(st_rec_apply(&A, t, rec.p, rec.len, &info, &d));
  T_EQ_INT(info.kind, ST_REC_SET);
  T_EQ_STR(info.intent_id, "0123456789abcdef");
  StResource *tr = st_find_resource_addr(t, "module.m.t.n");
  T_CHECK(tr && tr->ninst == 1);
  if (tr) {
    StObject *to = tr->inst[0]->current;
    T_EQ_INT(to->schema_version, 2);
    T_EQ_INT(to->priv_len, 3);
    T_EQ_STR(tr->provider, "provider[\"x\"]");
  }
  buf_clear(&rec);
  st_rec_remove(&rec, r, st_strkey(&A, "k", 1), NULL);
  T_CHECK(st_rec_apply(&A, t, rec.p, rec.len, &info, &d));
  T_EQ_INT(t->nres, 0);
  buf_clear(&rec);
  StOutput out = {"o", val_cstr(&A, "v"), &ty_string, true};
  st_rec_output(&rec, &out);
  T_CHECK(st_rec_apply(&A, t, rec.p, rec.len, &info, &d));
  T_CHECK(st_find_output(t, "o") && st_find_output(t, "o")->sensitive);
  T_CHECK(!st_rec_apply(&A, t, "{\"op\":\"zap\"}", 12, &info, &d));
  T_CHECK(!st_rec_apply(&A, t, "nope", 4, &info, &d));
}

/* st_read keeps copies of what the state holds (the parsed tree is
** scratch, released before it returns: ASan catches a state that still
** points into it when it is written below), shared as the parse shared
** them: one attributes Type and one dependency list for instances that
** have the same. */
static void test_read_copies_shared(void)
{
  static const char src[] =
      "{\"version\":4,\"terraform_version\":\"1.9.5\",\"serial\":1,"
      "\"lineage\":\"l\",\"outputs\":{\"o\":{\"value\":[\"a\",1],"
      "\"type\":[\"tuple\",[\"string\",\"number\"]]}},"
      "\"resources\":[{\"mode\":\"managed\",\"type\":\"t\",\"name\":\"n\","
      "\"provider\":\"provider[\\\"x\\\"]\",\"instances\":["
      "{\"index_key\":\"a\",\"schema_version\":0,\"attributes\":{\"id\":\"1\","
      "\"m\":{\"k\":1.50}},\"sensitive_attributes\":[[{\"type\":\"get_attr\","
      "\"value\":\"m\"}]],\"dependencies\":[\"t.x\",\"t.y\"]},"
      "{\"index_key\":\"b\",\"schema_version\":0,\"attributes\":{\"id\":\"2\","
      "\"m\":{\"k\":2}},\"dependencies\":[\"t.x\",\"t.y\"],"
      "\"identity\":{\"id\":\"2\"}}]}],\"check_results\":[{\"object_kind\":"
      "\"resource\"}]}";
  Arena sa;
  arena_init(&sa, 0);
  Diags d;
  diag_init(&d, &A);
  State *s = NULL;
  T_CHECK(st_read(&sa, "shared.tfstate", src, sizeof src - 1, &s, &d));
  T_CHECK(s != NULL);
  if (!s) {
    arena_release(&sa);
    return;
  }
  StResource *r = st_find_resource_addr(s, "t.n");
  T_CHECK(r && r->ninst == 2);
  if (r && r->ninst == 2) {
    StObject *a = r->inst[0]->current, *b = r->inst[1]->current;
    T_CHECK(a->attrs.type == b->attrs.type);
    T_CHECK(a->deps == b->deps && a->ndeps == 2);
    T_EQ_STR(b->deps[1], "t.y");
    T_EQ_STR(a->sensitive[0].steps[0].name, "m");
    T_CHECK(b->has_identity && !a->has_identity);
    T_EQ_STR(r->inst[1]->key.s, "b");
  }
  T_EQ_STR(s->lineage, "l");
  Buf out;
  buf_init(&out, &A);
  st_write(&out, s, "1.9.5");
  T_CHECK(strstr(out.p, "\"k\": 1.50") != NULL);
  T_CHECK(strstr(out.p, "\"object_kind\": \"resource\"") != NULL);
  T_CHECK(strstr(out.p, "\"identity\": {") != NULL);
  /* reading what was written gives the same text again */
  State *s2 = NULL;
  T_CHECK(st_read(&sa, "again.tfstate", out.p, out.len, &s2, &d));
  Buf out2;
  buf_init(&out2, &A);
  if (s2)
    st_write(&out2, s2, "1.9.5");
  T_EQ_STR(out.p, out2.p ? out2.p : "");
  T_CHECK(!d.head);
  arena_release(&sa);
}

/* st_static_path drops instance keys, also string keys holding brackets,
** dots and escaped quotes. */
static void test_static_path(void)
{
  Arena a;
  arena_init(&a, 0);
  const char *plain = "module.a.t.n";
  T_CHECK(st_static_path(&a, plain) == plain);
  T_EQ_STR(st_static_path(&a, "module.a[0].module.b[\"x\"].t.n[2]"),
           "module.a.module.b.t.n");
  T_EQ_STR(st_static_path(&a, "t.n[\"a]b.\\\"c[\"]"), "t.n");
  T_EQ_STR(st_static_path(&a, "data.t.n[\"k\"]"), "data.t.n");
  arena_release(&a);
}

/* The state text of s (st_write with a fixed version), in A. */
static const char *state_text(State *s)
{
  Buf b;
  buf_init(&b, &A);
  st_write(&b, s, "1.9.5");
  return buf_str(&b);
}

/* Every resource and instance of s is where its index and its position
** say, and the lookups find s's own entries. */
static bool indices_ok(const State *s)
{
  uint64_t n = 0;
  for (uint32_t i = 0; i < s->nres; i++) {
    StResource *r = s->res[i];
    if (r->idx != i || st_find_resource_addr(s, r->addr) != r)
      return false;
    for (uint32_t k = 0; k < r->ninst; k++) {
      StInstance *in = r->inst[k];
      if (in->idx != k || in->res != r ||
          st_find_instance(s, r, in->key) != in)
        return false;
      n += (in->current ? 1u : 0u) + in->ndeposed;
    }
  }
  return n == s->ninstances;
}

/* st_clone shares objects but not tables: the clone writes what writing
** and reading the source gives, and changing it (set/clear current,
** depose, taint, outputs, moves, removals) leaves the source as it was. */
static void test_clone_independent(void)
{
  const char *src;
  size_t n;
  State *s = read_ok("tests/state/basic.tfstate", &src, &n);
  if (!s)
    return;
  /* an instance without objects (not in the file), a marked output and
  ** an out-of-order resource */
  StResource *z = st_ensure_resource(s, "", ST_MANAGED, "a_first", "z", "p");
  st_set_current(s, z, st_strkey(&A, "k", 1), st_object_new(s));
  st_ensure_instance(s, z, st_intkey(5));
  st_set_output(s, "marked", val_sensitive(val_str(&A, "x", 1)), &ty_string,
                true);
  /* the reference: what the old clone (write, read back) gave */
  Buf b;
  buf_init(&b, &A);
  st_write(&b, s, s->terraform_version);
  Diags d;
  diag_init(&d, &A);
  State *ref = NULL;
  T_CHECK(st_read(&A, "(ref)", b.p, b.len, &ref, &d));
  if (!ref)
    return;
  State *c = st_clone(&A, s);
  T_EQ_STR(state_text(c), state_text(ref));
  T_EQ_INT(c->ninstances, ref->ninstances);
  T_CHECK(indices_ok(c) && indices_ok(s));
  const StOutput *mo = st_find_output(c, "marked");
  T_CHECK(mo && !val_has_sensitive(mo->value) && mo->sensitive);
  T_CHECK(st_find_instance(c, st_find_resource_addr(c, "a_first.z"),
                           st_intkey(5)) == NULL);
  const char *before = state_text(s);
  uint64_t ninst = s->ninstances;
  /* change the clone in every way the engine and commands do */
  for (uint32_t i = 0; i < c->nres; i++) {
    StResource *r = c->res[i];
    for (uint32_t k = 0; k < r->ninst; k++) {
      StInstance *in = r->inst[k];
      if (!in->current)
        continue;
      StObject *t = ARENA_NEW(&A, StObject, 1);
      *t = *in->current;
      t->status = ST_TAINTED;
      char dk[9];
      T_CHECK(st_depose(c, in, dk));
      st_set_current(c, r, in->key, t);
    }
  }
  StResource *cz = st_find_resource_addr(c, "a_first.z");
  StResource *moved = st_ensure_resource(c, "", ST_MANAGED, "a_first", "y",
                                         "q");
  StInstance *zi = cz ? st_find_instance(c, cz, st_strkey(&A, "k", 1)) : NULL;
  T_CHECK(zi != NULL);
  if (zi) {
    StObject *cur = zi->current;
    st_set_current(c, moved, st_intkey(0), cur);
    for (uint32_t j = zi->ndeposed; j > 0; j--)
      st_set_deposed(c, cz, zi->key, zi->deposed[j - 1].key, NULL);
    st_set_current(c, cz, st_strkey(&A, "k", 1), NULL);
  }
  T_CHECK(st_find_resource_addr(c, "a_first.z") == NULL);
  st_ensure_resource(c, "", ST_DATA, "external", "x", "provider[\"other\"]");
  st_remove_resource(c, st_find_resource_addr(c, "null_resource.a"));
  st_set_output(c, "names", val_int(1), &ty_number, false);
  st_remove_output(c, "secret");
  st_set_output(c, "new", val_int(2), &ty_number, false);
  c->serial++;
  c->lineage = "changed";
  st_sort(c);
  T_CHECK(indices_ok(c));
  T_CHECK(strcmp(state_text(c), before) != 0);
  /* the source is unchanged, and its lookups find its own entries */
  T_EQ_STR(state_text(s), before);
  T_EQ_INT(s->ninstances, ninst);
  T_CHECK(indices_ok(s));
  T_CHECK(st_find_resource_addr(s, "null_resource.a") != NULL);
  T_CHECK(st_find_resource_addr(s, "a_first.y") == NULL);
  T_EQ_INT(s->noutputs, 3);
  /* the clone of an empty state */
  State *e = st_clone(&A, st_new(&A));
  T_CHECK(e->nres == 0 && e->noutputs == 0 && indices_ok(e));
  StResource *er = st_ensure_resource(e, "", ST_MANAGED, "t", "n", "p");
  st_set_current(e, er, st_nokey(), st_object_new(e));
  T_CHECK(indices_ok(e) && e->ninstances == 1);
}

/* st_write_stream hands out, piece by piece, exactly what st_write and
** st_write_content build whole, and stops when its sink says so. */
typedef struct Pieces {
  Buf all;
  int calls;
  int stop_after;   /* 0: never stop */
  size_t max;
} Pieces;

static bool pieces_sink(void *ctx, const char *p, size_t n)
{
  Pieces *c = ctx;
  buf_put(&c->all, p, n);
  c->calls++;
  if (n > c->max)
    c->max = n;
  return !(c->stop_after && c->calls >= c->stop_after);
}

static void test_write_stream(void)
{
  Arena a;
  arena_init(&a, 0);
  State *s = st_new(&a);
  s->lineage = "0f8e4c1a-1111-2222-3333-444455556666";
  s->serial = 7;
  char name[32];
  for (int i = 0; i < 3; i++) {
    snprintf(name, sizeof name, "r%d", i);
    StResource *r = st_ensure_resource(s, i == 1 ? "module.m" : "",
                                       ST_MANAGED, "terraform_data", name,
                                       "provider[\"terraform.io/builtin/"
                                       "terraform\"]");
    for (int k = 0; k < 1000; k++) {
      StObject *o = st_object_new(s);
      const char *names[] = {"id", "input"};
      Value v[] = {val_cstr(&a, arena_printf(&a, "id-%d-%d", i, k)),
                   val_cstr(&a, arena_printf(&a, "<v>\"%d\"", k))};
      o->attrs = val_object(&a, 2, names, v);
      st_set_current(s, r, st_intkey(k), o);
    }
  }
  for (int c = 0; c < 2; c++) {
    Buf whole;
    buf_init(&whole, &a);
    if (c)
      st_write_content(&whole, s);
    else
      st_write(&whole, s, NULL);
    T_CHECK(whole.len > 3 * 64 * 1024);   /* several pieces */
    Pieces pc = {{0}, 0, 0, 0};
    buf_init(&pc.all, &a);
    T_CHECK(st_write_stream(s, NULL, c == 1, pieces_sink, &pc));
    T_EQ_INT(pc.all.len, whole.len);
    T_CHECK(pc.all.len == whole.len &&
            memcmp(pc.all.p, whole.p, whole.len) == 0);
    T_CHECK(pc.calls >= 3);
    T_CHECK(pc.max < 2 * 64 * 1024);   /* never the whole text at once */
    /* a sink that stops: no more calls, and false */
    Pieces st = {{0}, 0, 2, 0};
    buf_init(&st.all, &a);
    T_CHECK(!st_write_stream(s, NULL, c == 1, pieces_sink, &st));
    T_EQ_INT(st.calls, 2);
    T_CHECK(st.all.len < whole.len &&
            memcmp(st.all.p, whole.p, st.all.len) == 0);
  }
  /* an empty state is one piece */
  State *e = st_new(&a);
  e->lineage = "x";
  Buf whole;
  buf_init(&whole, &a);
  st_write(&whole, e, NULL);
  Pieces pe = {{0}, 0, 0, 0};
  buf_init(&pe.all, &a);
  T_CHECK(st_write_stream(e, NULL, false, pieces_sink, &pe));
  T_EQ_INT(pe.calls, 1);
  T_EQ_STR(buf_str(&pe.all), buf_str(&whole));
  arena_release(&a);
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_keys_and_format);
  T_RUN(test_parse_addr);
  T_RUN(test_reserve);
  T_RUN(test_model);
  T_RUN(test_ordering);
  T_RUN(test_scale_100k);
  T_RUN(test_read_basic_roundtrip);
  T_RUN(test_clone_independent);
  T_RUN(test_read_legacy);
  T_RUN(test_empty_and_new);
  T_RUN(test_bad_inputs);
  T_RUN(test_records);
  T_RUN(test_read_copies_shared);
  T_RUN(test_static_path);
  T_RUN(test_write_stream);
  arena_release(&A);
  return t_done("state");
}
