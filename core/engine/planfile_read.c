/*
** planfile_read: a saved plan decoded (planfile_decode), with a diagnostic
** for every malformed part, the envelope and checksum checked and other
** formats told apart (Terraform's zip plans, state files), and the file
** read (planfile_read) or recognised (planfile_is_plan).
*/
#include "planfile_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/b64.h"
#include "base/json.h"
#include "lang/funcs.h"
#include "state/state.h"

#define NREASONS ((int)PL_REASON_READ_CHECK_NESTED + 1)

/* The saved plan's base64 (cairn writes it with b64_put). */
static bool b64(Arena *a, const char *s, size_t n, uint8_t **out,
                size_t *outlen)
{
  size_t bad;
  return b64_decode(a, s, n, out, outlen, &bad);
}

/* ---- decoding ----------------------------------------------------------- */

typedef struct Dec {
  Arena *a;            /* the result's arena */
  Arena *tmp;          /* parse temporaries */
  const char *name;
  const Type **types;
  uint32_t ntypes;
  const char *sec;     /* where we are, for messages: section ... */
  int64_t idx;         /* ... element index (-1: none) ... */
  const char *field;   /* ... and field (NULL: none) */
  bool failed;
  char why[400];
} Dec;

static bool fail(Dec *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool fail(Dec *c, const char *fmt, ...)
{
  if (c->failed)
    return false;
  c->failed = true;
  char msg[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!c->sec)
    snprintf(c->why, sizeof c->why, "the plan file is malformed: %s", msg);
  else if (c->idx >= 0)
    snprintf(c->why, sizeof c->why,
             "the plan file is malformed: %s[%lld]%s%s: %s", c->sec,
             (long long)c->idx, c->field ? "." : "",
             c->field ? c->field : "", msg);
  else
    snprintf(c->why, sizeof c->why, "the plan file is malformed: %s: %s",
             c->sec, msg);
  return false;
}

static bool j_is_obj(Value j)
{
  return j.type && j.type->kind == TY_OBJECT && !val_is_null(j);
}

static bool j_is_arr(Value j)
{
  return j.type && j.type->kind == TY_TUPLE && !val_is_null(j);
}

static bool j_is_str(Value j)
{
  return j.type && j.type->kind == TY_STRING && !val_is_null(j);
}

/* A JSON integer the parser held exactly. */
static bool j_is_int(Value j)
{
  return j.type && j.type->kind == TY_NUMBER &&
         !(j.flags & (VF_NULL | VF_FLOAT | VF_NUMLIT));
}

static Value j_get(Dec *c, Value obj, const char *key, bool required)
{
  bool found = false;
  Value v = val_attr(obj, key, &found);
  if (!found && required)
    fail(c, "missing \"%s\"", key);
  if (!found)
    return val_dynamic_null;
  return v;
}

/* A string field (NULL for JSON null when nullable). */
static bool get_str(Dec *c, Value obj, const char *key, bool nullable,
                    const char **out)
{
  Value v = j_get(c, obj, key, true);
  if (c->failed)
    return false;
  if (val_is_null(v) && nullable) {
    *out = NULL;
    return true;
  }
  if (!j_is_str(v))
    return fail(c, "\"%s\" must be a string", key);
  *out = arena_strndup(c->a, v.u.s, v.len);
  return true;
}

static bool get_bool(Dec *c, Value obj, const char *key, bool *out)
{
  Value v = j_get(c, obj, key, true);
  if (c->failed)
    return false;
  if (!v.type || v.type->kind != TY_BOOL || val_is_null(v))
    return fail(c, "\"%s\" must be true or false", key);
  *out = v.u.b;
  return true;
}

static bool num_u64(Value v, uint64_t *out)
{
  if (j_is_int(v)) {
    if (v.u.i < 0)
      return false;
    *out = (uint64_t)v.u.i;
    return true;
  }
  /* Above INT64_MAX the parser keeps the literal. */
  if (!v.type || v.type->kind != TY_NUMBER || !(v.flags & VF_NUMLIT))
    return false;
  if (v.len == 0 || v.len > 20)
    return false;
  uint64_t r = 0;
  for (uint32_t i = 0; i < v.len; i++) {
    char ch = v.u.s[i];
    if (ch < '0' || ch > '9')
      return false;
    uint64_t dgt = (uint64_t)(ch - '0');
    if (r > (UINT64_MAX - dgt) / 10)
      return false;
    r = r * 10 + dgt;
  }
  *out = r;
  return true;
}

static bool get_u64(Dec *c, Value obj, const char *key, uint64_t *out)
{
  Value v = j_get(c, obj, key, true);
  if (c->failed)
    return false;
  if (!num_u64(v, out))
    return fail(c, "\"%s\" must be a non-negative integer", key);
  return true;
}

static bool get_arr(Dec *c, Value obj, const char *key, Value *out)
{
  Value v = j_get(c, obj, key, true);
  if (c->failed)
    return false;
  if (!j_is_arr(v))
    return fail(c, "\"%s\" must be an array", key);
  *out = v;
  return true;
}

static bool get_name(Dec *c, Value obj, const char *key,
                     const char *const *names, int n, int *out)
{
  const char *s;
  if (!get_str(c, obj, key, false, &s))
    return false;
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], s) == 0) {
      *out = i;
      return true;
    }
  return fail(c, "unknown %s \"%s\"", key, s);
}

/* A string or {"b": base64} (bytes that are not UTF-8). */
static bool dec_bytes(Dec *c, Value j, const char **s, uint32_t *n)
{
  if (j_is_str(j)) {
    *s = arena_strndup(c->a, j.u.s, j.len);
    *n = j.len;
    return true;
  }
  bool found = false;
  Value b = j_is_obj(j) ? val_attr(j, "b", &found) : j;
  if (!found || !j_is_str(b))
    return fail(c, "a string or {\"b\": base64} is required");
  uint8_t *p;
  size_t len;
  if (!b64(c->a, b.u.s, b.len, &p, &len) || len > UINT32_MAX)
    return fail(c, "invalid base64");
  p[len] = 0;
  *s = (const char *)p;
  *n = (uint32_t)len;
  return true;
}

static bool dec_val(Dec *c, Value j, const Type *expect, Value *out);

static bool dec_elems(Dec *c, Value j, const Type *t, Value **out)
{
  Value *el = ARENA_NEW(c->a, Value, j.len);
  for (uint32_t i = 0; i < j.len; i++) {
    const Type *et = t->kind == TY_LIST || t->kind == TY_SET ? t->elem
                                                             : t->types[i];
    if (!dec_val(c, j.u.elems[i], et, &el[i]))
      return false;
  }
  *out = el;
  return true;
}

static bool dec_bare(Dec *c, Value j, const Type *t, Value *out)
{
  Value v;
  switch (t->kind) {
  case TY_STRING:
    if (!j_is_str(j))
      return fail(c, "a string is required");
    *out = val_str(c->a, j.u.s, j.len);
    return true;
  case TY_NUMBER:
    if (!j_is_int(j))
      return fail(c, "an integer is required");
    *out = val_int(j.u.i);
    return true;
  case TY_BOOL:
    if (!j.type || j.type->kind != TY_BOOL || val_is_null(j))
      return fail(c, "true or false is required");
    *out = val_bool(j.u.b);
    return true;
  case TY_DYNAMIC:
    return fail(c, "a known value of dynamic type");
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
  case TY_OBJECT:
  case TY_MAP:
    break;
  }
  if (!j_is_arr(j))
    return fail(c, "an array is required");
  if ((t->kind == TY_TUPLE || t->kind == TY_OBJECT) && j.len != t->n)
    return fail(c, "%u elements where the type has %u", j.len, t->n);
  if (t->kind == TY_MAP) {
    if (j.len % 2)
      return fail(c, "a map needs key/value pairs");
    uint32_t n = j.len / 2;
    MapEntry *ents = ARENA_NEW(c->a, MapEntry, n);
    for (uint32_t i = 0; i < n; i++) {
      if (!dec_bytes(c, j.u.elems[2 * i], &ents[i].key, &ents[i].keylen) ||
          !dec_val(c, j.u.elems[2 * i + 1], t->elem, &ents[i].val))
        return false;
    }
    v = val_map(c->a, t->elem, ents, n);
    if (v.len != n)
      return fail(c, "duplicate map key");
  } else {
    Value *el;
    if (!dec_elems(c, j, t, &el))
      return false;
    if (t->kind == TY_SET)
      v = val_set(c->a, t->elem, el, j.len);
    else {
      v.flags = 0;
      v.len = j.len;
      v.u.elems = el;
    }
  }
  v.type = t;
  *out = v;
  return true;
}

static bool dec_val(Dec *c, Value j, const Type *expect, Value *out)
{
  if (!j_is_obj(j)) {
    if (!expect)
      return fail(c, "a value without a type");
    return dec_bare(c, j, expect, out);
  }
  const Type *t = expect;
  bool found = false;
  Value jt = val_attr(j, "t", &found);
  if (found) {
    if (!j_is_int(jt) || jt.u.i < 0 || (uint64_t)jt.u.i >= c->ntypes)
      return fail(c, "type index out of range");
    t = c->types[jt.u.i];
  }
  if (!t)
    return fail(c, "a value without a type");
  uint16_t flags = 0;
  char rep = 0;
  Value jm = val_attr(j, "m", &found);
  if (found) {
    if (!j_is_str(jm))
      return fail(c, "\"m\" must be a string");
    for (uint32_t i = 0; i < jm.len; i++) {
      char ch = jm.u.s[i];
      if (ch == 'u')
        flags |= VF_UNKNOWN;
      else if (ch == 'n')
        flags |= VF_NULL;
      else if (ch == 'N')
        flags |= VF_NOTNULL;
      else if (ch == 's')
        flags |= VF_SENSITIVE;
      else if ((ch == 'l' || ch == 'f' || ch == 'b') && !rep)
        rep = ch;
      else
        return fail(c, "unknown mark '%c'", ch);
    }
  }
  Value jv = val_attr(j, "v", &found);
  if (flags & (VF_UNKNOWN | VF_NULL)) {
    if (found || rep)
      return fail(c, "a null or unknown value with content");
    Value v = {.type = t, .flags = flags};
    *out = v;
    return true;
  }
  if (!found)
    return fail(c, "missing \"v\"");
  Value v;
  if (rep == 'l' || rep == 'f') {
    if (t->kind != TY_NUMBER || !j_is_str(jv))
      return fail(c, "a number's text is required");
    if (rep == 'l') {
      if (!val_parse_number(c->a, jv.u.s, jv.len, true, &v))
        return fail(c, "invalid number \"%s\"", jv.u.s);
    } else {
      char *end = NULL;
      double dv = strtod(jv.u.s, &end);
      if (jv.len == 0 || end != jv.u.s + jv.len || isnan(dv))
        return fail(c, "invalid number \"%s\"", jv.u.s);
      v = val_double(dv);
    }
  } else if (rep == 'b') {
    if (t->kind != TY_STRING || !j_is_str(jv))
      return fail(c, "base64 text is required");
    uint8_t *p;
    size_t len;
    if (!b64(c->a, jv.u.s, jv.len, &p, &len) || len > UINT32_MAX)
      return fail(c, "invalid base64");
    p[len] = 0;
    v = val_str_ref((const char *)p, len);
  } else if (!dec_bare(c, jv, t, &v)) {
    return false;
  }
  v.type = t;
  v.flags = (uint16_t)(v.flags | flags);
  *out = v;
  return true;
}

/* A Value field: null (never set), or a wrapper with a type. */
static bool dec_top(Dec *c, Value obj, const char *key, Value *out)
{
  c->field = key;
  Value j = j_get(c, obj, key, true);
  if (c->failed)
    return false;
  if (val_is_null(j)) {
    Value none;
    memset(&none, 0, sizeof none);
    *out = none;
    return true;
  }
  return dec_val(c, j, NULL, out);
}

static bool dec_path(Dec *c, Value j, ValPath *out)
{
  if (!j_is_arr(j))
    return fail(c, "a path must be an array");
  PathStep *st = ARENA_NEW(c->a, PathStep, j.len);
  for (uint32_t i = 0; i < j.len; i++) {
    Value s = j.u.elems[i];
    if (j_is_str(s)) {
      st[i].kind = PS_ATTR;
      st[i].name = arena_strndup(c->a, s.u.s, s.len);
    } else if (j_is_int(s)) {
      st[i].kind = PS_INDEX;
      st[i].index = s.u.i;
    } else if (j_is_arr(s) && s.len == 1 && j_is_str(s.u.elems[0])) {
      st[i].kind = PS_KEY;
      st[i].name = arena_strndup(c->a, s.u.elems[0].u.s, s.u.elems[0].len);
    } else {
      return fail(c, "invalid path step");
    }
  }
  out->steps = st;
  out->n = j.len;
  return true;
}

static bool dec_strs(Dec *c, Value obj, const char *key,
                     const char *const **out, uint32_t *n)
{
  Value arr;
  if (!get_arr(c, obj, key, &arr))
    return false;
  const char **s = ARENA_NEW(c->a, const char *, arr.len);
  for (uint32_t i = 0; i < arr.len; i++) {
    if (!j_is_str(arr.u.elems[i]))
      return fail(c, "\"%s\" must hold strings", key);
    s[i] = arena_strndup(c->a, arr.u.elems[i].u.s, arr.u.elems[i].len);
  }
  *out = s;
  *n = arr.len;
  return true;
}

static bool dec_change(Dec *c, Value j, PlChange *ch)
{
  if (!j_is_obj(j))
    return fail(c, "a change must be an object");
  const char *mode;
  int act = 0;
  if (!get_str(c, j, "addr", true, &ch->addr) ||
      !get_str(c, j, "module", true, &ch->module) ||
      !get_str(c, j, "mode", false, &mode) ||
      !get_str(c, j, "type", true, &ch->type) ||
      !get_str(c, j, "name", true, &ch->name) ||
      !get_str(c, j, "deposed", true, &ch->deposed) ||
      !get_str(c, j, "prev_addr", true, &ch->prev_addr) ||
      !get_str(c, j, "provider", true, &ch->provider) ||
      !get_str(c, j, "provider_name", true, &ch->provider_name) ||
      !get_name(c, j, "action", planfile_action_names, (int)NACTIONS, &act) ||
      !get_u64(c, j, "schema_version", &ch->schema_version) ||
      !get_bool(c, j, "importing", &ch->importing) ||
      !get_str(c, j, "import_id", true, &ch->import_id) ||
      !get_bool(c, j, "tainted_before", &ch->tainted_before) ||
      !get_bool(c, j, "cbd", &ch->cbd))
    return false;
  if (strcmp(mode, "managed") == 0)
    ch->mode = ST_MANAGED;
  else if (strcmp(mode, "data") == 0)
    ch->mode = ST_DATA;
  else
    return fail(c, "unknown mode \"%s\"", mode);
  ch->action = (PlAction)act;
  bool found = false;
  val_attr(j, "reason", &found);
  ch->reason = PL_REASON_NONE;
  if (found) {
    const char *names[NREASONS];
    for (int i = 0; i < NREASONS; i++)
      names[i] = plan_reason_name((PlReason)i);
    int r = 0;
    if (!get_name(c, j, "reason", names, NREASONS, &r))
      return false;
    if (r == 0)
      return fail(c, "empty reason");
    ch->reason = (PlReason)r;
  }
  Value key = j_get(c, j, "key", true);
  if (c->failed)
    return false;
  if (val_is_null(key)) {
    ch->key = st_nokey();
  } else if (j_is_int(key)) {
    ch->key = st_intkey(key.u.i);
  } else {
    ch->key.kind = ST_STRKEY;
    if (!dec_bytes(c, key, &ch->key.s, &ch->key.slen))
      return false;
  }
  if (!dec_top(c, j, "before", &ch->before) ||
      !dec_top(c, j, "after", &ch->after))
    return false;
  c->field = NULL;
  Value rp;
  if (!get_arr(c, j, "replace_paths", &rp))
    return false;
  ValPath *paths = ARENA_NEW(c->a, ValPath, rp.len);
  for (uint32_t i = 0; i < rp.len; i++)
    if (!dec_path(c, rp.u.elems[i], &paths[i]))
      return false;
  ch->replace_paths = paths;
  ch->nreplace_paths = rp.len;
  Value pv = j_get(c, j, "private", true);
  if (c->failed)
    return false;
  if (!val_is_null(pv)) {
    uint8_t *p;
    size_t n;
    if (!j_is_str(pv) || !b64(c->a, pv.u.s, pv.len, &p, &n))
      return fail(c, "\"private\" must be base64");
    ch->priv.p = p;
    ch->priv.n = n;
  }
  return true;
}

static bool dec_changes(Dec *c, Value body, const char *key,
                        PlChange **out, uint32_t *n)
{
  c->sec = NULL;
  Value arr;
  if (!get_arr(c, body, key, &arr))
    return false;
  PlChange *chs = ARENA_NEW(c->a, PlChange, arr.len);
  c->sec = key;
  for (uint32_t i = 0; i < arr.len; i++) {
    c->idx = i;
    c->field = NULL;
    if (!dec_change(c, arr.u.elems[i], &chs[i]))
      return false;
    chs[i].index = i;
  }
  c->sec = NULL;
  *out = chs;
  *n = arr.len;
  return true;
}

static bool dec_state(Dec *c, Value body, const char *key, State **out)
{
  *out = NULL;
  Value v = j_get(c, body, key, true);
  if (c->failed || val_is_null(v))
    return !c->failed;
  if (!j_is_str(v))
    return fail(c, "\"%s\" must be a string", key);
  Diags sd;
  diag_init(&sd, c->tmp);
  const char *nm = arena_printf(c->tmp, "%s (%s)", c->name, key);
  if (!st_read(c->a, nm, v.u.s, v.len, out, &sd) || !*out) {
    const Diag *g = sd.head;
    return fail(c, "the embedded %s is not a valid state: %s%s%s", key,
                g ? g->summary : "empty", g && *g->detail ? ": " : "",
                g ? g->detail : "");
  }
  return true;
}

static bool dec_body(Dec *c, Value body, Plan *p)
{
  if (!j_is_obj(body))
    return fail(c, "the body must be an object");
  Value tarr;
  if (!get_arr(c, body, "types", &tarr))
    return false;
  c->types = ARENA_NEW(c->tmp, const Type *, tarr.len);
  c->ntypes = tarr.len;
  for (uint32_t i = 0; i < tarr.len; i++) {
    Diags td;
    diag_init(&td, c->tmp);
    if (!json_type_from_value(c->a, tarr.u.elems[i], &c->types[i], &td,
                              NULL)) {
      c->sec = "types";
      c->idx = i;
      return fail(c, "%s", td.head ? td.head->summary : "invalid type");
    }
  }
  int mode = 0;
  if (!get_name(c, body, "mode", planfile_mode_names, 3, &mode) ||
      !get_str(c, body, "lineage", true, &p->lineage) ||
      !get_u64(c, body, "serial", &p->serial) ||
      !get_bool(c, body, "state_existed", &p->state_existed) ||
      !get_str(c, body, "config_hash", true, &p->config_hash) ||
      !get_str(c, body, "timestamp", true, &p->timestamp) ||
      !get_bool(c, body, "errored", &p->errored) ||
      !get_bool(c, body, "complete", &p->complete) ||
      !get_bool(c, body, "applyable", &p->applyable) ||
      !dec_strs(c, body, "targets", &p->targets, &p->ntargets) ||
      !dec_strs(c, body, "replace", &p->replace, &p->nreplace))
    return false;
  p->mode = (PlMode)mode;

  Value arr;
  if (!get_arr(c, body, "variables", &arr))
    return false;
  p->vars = ARENA_NEW(c->a, PlVariable, arr.len);
  p->nvars = arr.len;
  c->sec = "variables";
  for (uint32_t i = 0; i < arr.len; i++) {
    Value o = arr.u.elems[i];
    PlVariable *v = &p->vars[i];
    c->idx = i;
    c->field = NULL;
    if (!j_is_obj(o))
      return fail(c, "a variable must be an object");
    if (!get_str(c, o, "name", false, &v->name) ||
        !get_bool(c, o, "sensitive", &v->sensitive) ||
        !dec_top(c, o, "value", &v->value))
      return false;
    /* optional (plans from before apply-time variables lack them) */
    bool has_eph = false;
    val_attr(o, "ephemeral", &has_eph);
    if (has_eph && !get_bool(c, o, "ephemeral", &v->ephemeral))
      return false;
    if (v->ephemeral && !get_bool(c, o, "apply_time", &v->apply_time))
      return false;
    if (v->ephemeral)
      v->value = val_dynamic_null;   /* never stored: given again at apply */
  }
  c->sec = NULL;

  if (!dec_changes(c, body, "changes", &p->changes, &p->nchanges) ||
      !dec_changes(c, body, "drift", &p->drift, &p->ndrift))
    return false;

  if (!get_arr(c, body, "outputs", &arr))
    return false;
  p->outputs = ARENA_NEW(c->a, PlOutput, arr.len);
  p->noutputs = arr.len;
  c->sec = "outputs";
  for (uint32_t i = 0; i < arr.len; i++) {
    Value o = arr.u.elems[i];
    PlOutput *out = &p->outputs[i];
    int act = 0;
    c->idx = i;
    c->field = NULL;
    if (!j_is_obj(o))
      return fail(c, "an output must be an object");
    if (!get_str(c, o, "name", false, &out->name) ||
        !get_name(c, o, "action", planfile_action_names, (int)NACTIONS, &act) ||
        !get_bool(c, o, "sensitive", &out->sensitive) ||
        !dec_top(c, o, "before", &out->before) ||
        !dec_top(c, o, "after", &out->after))
      return false;
    out->action = (PlAction)act;
  }
  c->sec = NULL;

  return dec_state(c, body, "prior_state", &p->prior_state) &&
         dec_state(c, body, "prev_run_state", &p->prev_run_state);
}

static bool starts_with(const char *s, size_t n, const char *pre)
{
  size_t k = strlen(pre);
  return n >= k && memcmp(s, pre, k) == 0;
}

/* Why a file that does not start like a cairn plan is not one. */
static void classify(Dec *c, const char *src, size_t n)
{
  if (n == 0) {
    snprintf(c->why, sizeof c->why, "the file is empty");
  } else if (n < PREFIX_LEN && memcmp(src, PREFIX, n) == 0) {
    snprintf(c->why, sizeof c->why,
             "the plan file is truncated (only %zu bytes)", n);
  } else if (starts_with(src, n, "PK\x03\x04")) {
    snprintf(c->why, sizeof c->why,
             "the given file is a zip archive, probably a plan file made "
             "by Terraform; cairn can only apply plan files that cairn "
             "wrote");
  } else if (starts_with(src, n, "tfplan")) {
    snprintf(c->why, sizeof c->why,
             "the given plan file was created by an earlier version of "
             "Terraform; plan files cannot be shared between different "
             "Terraform versions");
  } else {
    size_t i = 0;
    while (i < n && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' ||
                     src[i] == '\n'))
      i++;
    size_t lim = n < 4096 ? n : 4096;
    bool state = i < n && src[i] == '{' &&
                 (memmem(src, lim, "\"lineage\"", 9) ||
                  memmem(src, lim, "\"terraform_version\"", 19));
    snprintf(c->why, sizeof c->why, "%s",
             state ? "the given file is a state file, not a plan file"
                   : "the given file is not a valid plan file");
  }
}

/* Checks the envelope; on success body and blen give the hashed bytes. */
static bool check_envelope(Dec *c, const char *src, size_t n,
                           const char **body, size_t *blen)
{
  if (!starts_with(src, n, PREFIX)) {
    classify(c, src, n);
    return false;
  }
  size_t i = PREFIX_LEN;
  uint64_t ver = 0;
  size_t d0 = i;
  while (i < n && src[i] >= '0' && src[i] <= '9' && i - d0 < 9)
    ver = ver * 10 + (uint64_t)(src[i++] - '0');
  if (i == n) {
    snprintf(c->why, sizeof c->why, "the plan file is truncated");
    return false;
  }
  if (i == d0) {
    snprintf(c->why, sizeof c->why,
             "the given file is not a valid plan file");
    return false;
  }
  if (ver != PLANFILE_VERSION) {
    snprintf(c->why, sizeof c->why,
             "unsupported plan file format version %llu; only version %d "
             "is supported", (unsigned long long)ver, PLANFILE_VERSION);
    return false;
  }
  size_t hdr = i + (sizeof SHA_KEY - 1) + 64 + (sizeof BODY_KEY - 1);
  if (n < hdr + 2) {
    snprintf(c->why, sizeof c->why,
             "the plan file is truncated (only %zu bytes)", n);
    return false;
  }
  const char *hex = src + i + (sizeof SHA_KEY - 1);
  if (memcmp(src + i, SHA_KEY, sizeof SHA_KEY - 1) != 0 ||
      memcmp(hex + 64, BODY_KEY, sizeof BODY_KEY - 1) != 0) {
    snprintf(c->why, sizeof c->why,
             "the plan file's header is damaged");
    return false;
  }
  *body = src + hdr;
  *blen = n - hdr - 2;
  uint8_t dig[32];
  char want[65];
  fn_dig_sha256(*body, *blen, dig);
  planfile_hex_put(want, dig, 32);
  if (memcmp(src + n - 2, "}\n", 2) != 0 || memcmp(want, hex, 64) != 0) {
    snprintf(c->why, sizeof c->why,
             "the plan file is corrupted: its contents do not match the "
             "SHA-256 checksum recorded in it (the file was truncated or "
             "modified after cairn wrote it)");
    return false;
  }
  return true;
}

static void load_failed(Diags *d, const char *name, const char *why)
{
  diag_error(d, NULL,
             arena_printf(d->arena, "Failed to load \"%s\" as a plan file",
                          name),
             "Error: %s", why);
}

bool planfile_decode(Arena *a, const char *name, const char *src,
                     size_t n, Plan **out, Diags *d)
{
  *out = NULL;
  Arena tmp;
  arena_init(&tmp, 0);
  Dec c;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.tmp = &tmp;
  c.name = name;
  c.idx = -1;
  const char *body;
  size_t blen;
  bool ok = check_envelope(&c, src, n, &body, &blen);
  if (ok) {
    Value jb;
    Diags jd;
    diag_init(&jd, &tmp);
    JsonOpts o = {name, PLANFILE_MAX_BYTES, 0, 0};
    if (!json_parse(&tmp, body, blen, &jb, &jd, &o)) {
      ok = fail(&c, "%s", jd.head ? jd.head->summary : "invalid JSON");
    } else {
      bool found = false;
      Value ver = j_is_obj(jb) ? val_attr(jb, "cairn_version", &found) : jb;
      if (!found || !j_is_str(ver)) {
        ok = fail(&c, "missing \"cairn_version\"");
      } else if (strcmp(ver.u.s, CAIRN_VERSION) != 0) {
        snprintf(c.why, sizeof c.why,
                 "plan file was created by cairn %s, but this is %s; plan "
                 "files cannot be transferred between different cairn "
                 "versions", ver.u.s, CAIRN_VERSION);
        ok = false;
      } else {
        Plan *p = ARENA_NEW(a, Plan, 1);
        p->arena = a;
        ok = dec_body(&c, jb, p);
        if (ok)
          *out = p;
      }
    }
  }
  if (!ok)
    load_failed(d, name, c.why);
  arena_release(&tmp);
  return ok;
}

/* ---- reading the file --------------------------------------------------- */

static void read_failed(Diags *d, const char *path, const char *op, int err)
{
  char why[300];
  const char *msg = strerror(err);
  /* Go's error strings start in lower case ("no such file or
  ** directory"); Terraform prints them verbatim. */
  snprintf(why, sizeof why, "%s %s: %c%s", op, path,
           msg[0] >= 'A' && msg[0] <= 'Z' ? msg[0] - 'A' + 'a' : msg[0],
           msg[0] ? msg + 1 : "");
  load_failed(d, path, why);
}

bool planfile_read(Arena *a, const char *path, Plan **out, Diags *d)
{
  *out = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    read_failed(d, path, "open", errno);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    read_failed(d, path, "stat", errno);
    close(fd);
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    read_failed(d, path, "read", EISDIR);
    return false;
  }
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    /* A device such as /dev/zero would feed us forever. */
    close(fd);
    char why[300];
    snprintf(why, sizeof why, "read %s: not a regular file", path);
    load_failed(d, path, why);
    return false;
  }
  if (S_ISREG(st.st_mode) && (size_t)st.st_size > PLANFILE_MAX_BYTES) {
    close(fd);
    char why[200];
    snprintf(why, sizeof why, "the file is larger than %zu bytes",
             PLANFILE_MAX_BYTES);
    load_failed(d, path, why);
    return false;
  }
  Arena tmp;
  arena_init(&tmp, 0);
  size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
  size_t len = 0;
  char *buf = arena_alloc_raw(&tmp, 1, 1, cap);
  for (;;) {
    if (len == cap) {
      if (cap > PLANFILE_MAX_BYTES) {
        close(fd);
        arena_release(&tmp);
        load_failed(d, path, "the file is too large");
        return false;
      }
      buf = arena_grow(&tmp, buf, 1, 1, cap, 2 * cap);
      cap *= 2;
    }
    ssize_t k = read(fd, buf + len, cap - len);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0) {
      int err = errno;
      close(fd);
      arena_release(&tmp);
      read_failed(d, path, "read", err);
      return false;
    }
    if (k == 0)
      break;
    len += (size_t)k;
  }
  close(fd);
  bool ok = planfile_decode(a, path, buf, len, out, d);
  arena_release(&tmp);
  return ok;
}

bool planfile_is_plan(const char *path)
{
  /* Non-blocking: opening a FIFO must not wait for a writer. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return false;
  struct stat st;
  char head[PREFIX_LEN];
  ssize_t k = -1;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
    k = read(fd, head, sizeof head);
  close(fd);
  if (k <= 0)
    return false;
  size_t n = (size_t)k;
  return starts_with(head, n, PREFIX) || starts_with(head, n, "PK\x03\x04") ||
         starts_with(head, n, "tfplan");
}
