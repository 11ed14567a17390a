/*
** prov_https.c: the remote provider client: ProvOps over JSON/HTTPS.
** Contracts in prov_https.h; the wire format in docs/provider-protocol.md.
** Why one file: the request encoding, the answer decoding (shared with
** phttps_decode_answer, the fuzz entry) and the calls use one private Req
** with its helpers; splitting it means a private header for all of them
** (to do when it grows further).
*/
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "prov_https.h"

/* ---- instance --------------------------------------------------------- */

typedef struct Slot {
  struct Slot *next;
  HttpClient *client;
} Slot;

typedef struct Phttps {
  HttpEndpoint *ep;
  pthread_mutex_t mu;         /* guards carena, free, all, nclients, identity */
  Arena carena;               /* Slots and HttpClients */
  Slot *free;
  Slot *all;
  int nclients;
  char identity[64];
  HttpSleepFn sleep_fn;
  void *sleep_ctx;
  pthread_mutex_t smu;        /* guards the schema fetch */
  ProvProviderSchema *schema;
  const char *schema_json;
  size_t schema_len;
  const char *config_ev;      /* provider_config, set by configure */
} Phttps;

static const ProvOps phttps_ops;

bool phttps_is(const Prov *p)
{
  return p && p->ops == &phttps_ops;
}

static Phttps *impl(Prov *p)
{
  return (Phttps *)p->impl;
}

Prov *phttps_open(Arena *a, const char *addr, HttpEndpoint *e)
{
  Prov *p = ARENA_NEW(a, Prov, 1);
  Phttps *h = ARENA_NEW(a, Phttps, 1);
  h->ep = e;
  pthread_mutex_init(&h->mu, NULL);
  pthread_mutex_init(&h->smu, NULL);
  arena_init(&h->carena, 4096);
  p->ops = &phttps_ops;
  p->addr = arena_strdup(a, addr);
  p->impl = h;
  p->arena = a;
  atomic_init(&p->stopping, false);
  return p;
}

void phttps_set_sleep(Prov *p, HttpSleepFn fn, void *ctx)
{
  Phttps *h = impl(p);
  pthread_mutex_lock(&h->mu);
  h->sleep_fn = fn;
  h->sleep_ctx = ctx;
  for (Slot *s = h->all; s; s = s->next)
    http_client_set_sleep(s->client, fn, ctx);
  pthread_mutex_unlock(&h->mu);
}

int phttps_clients(Prov *p)
{
  Phttps *h = impl(p);
  pthread_mutex_lock(&h->mu);
  int n = h->nclients;
  pthread_mutex_unlock(&h->mu);
  return n;
}

const char *phttps_identity(Prov *p)
{
  Phttps *h = impl(p);
  pthread_mutex_lock(&h->mu);
  const char *id = arena_strdup(p->arena, h->identity);
  pthread_mutex_unlock(&h->mu);
  return id;
}

const char *phttps_schema_json(Prov *p, size_t *len)
{
  Phttps *h = impl(p);
  if (len)
    *len = h->schema_len;
  return h->schema_json;
}

/* Checks a client out of the free list, or makes one. */
static Slot *checkout(Phttps *h, Diags *d)
{
  pthread_mutex_lock(&h->mu);
  Slot *s = h->free;
  if (s) {
    h->free = s->next;
  } else {
    HttpClient *c = http_client_new(&h->carena, d);
    if (c) {
      s = ARENA_NEW(&h->carena, Slot, 2);
      s->client = c;
      /* `all` chains through the second element, so `next` stays free
      ** for the free list. */
      s[1].client = c;
      s[1].next = h->all;
      h->all = &s[1];
      h->nclients++;
      if (h->sleep_fn)
        http_client_set_sleep(c, h->sleep_fn, h->sleep_ctx);
    }
  }
  pthread_mutex_unlock(&h->mu);
  return s;
}

static void checkin(Phttps *h, Slot *s)
{
  pthread_mutex_lock(&h->mu);
  const char *k = http_client_peer_key(s->client);
  if (k[0])
    snprintf(h->identity, sizeof h->identity, "%s", k);
  s->next = h->free;
  h->free = s;
  pthread_mutex_unlock(&h->mu);
}

/* ---- JSON helpers on json_parse results -------------------------------- */

static bool is_obj(Value v)
{
  return v.type && v.type->kind == TY_OBJECT && !val_is_null(v);
}

static bool is_arr(Value v)
{
  return v.type && v.type->kind == TY_TUPLE && !val_is_null(v);
}

static bool is_absent(Value v)
{
  return !v.type || val_is_null(v);
}

/* Member key of a parsed JSON object; the zero Value when missing. */
static Value jget(Value obj, const char *key)
{
  Value none = {0};
  if (!is_obj(obj))
    return none;
  int i = ty_attr_index(obj.type, key);
  return i < 0 ? none : obj.u.elems[i];
}

/* ---- one call ---------------------------------------------------------- */

typedef struct Req {
  Prov *p;
  Phttps *h;
  ProvCall *c;
  const char *call;           /* "PlanResourceChange" */
  const char *type_name;      /* or NULL */
  Arena scratch;
  Buf body;
  JsonW w;
  bool failed;                /* an answer was refused */
  bool lost;                  /* no answer: every attempt failed in transit
                                 or ended in 502/503/504, so the server may
                                 have acted without our knowing */
} Req;

static void req_begin(Req *r, Prov *p, ProvCall *c, const char *call,
                      const char *type_name)
{
  memset(r, 0, sizeof *r);
  r->p = p;
  r->h = impl(p);
  r->c = c;
  r->call = call;
  r->type_name = type_name;
  arena_init(&r->scratch, 0);
  buf_init(&r->body, &r->scratch);
  json_w_init(&r->w, &r->body, JSON_W_UNKNOWN_NULL);
  json_w_begin_object(&r->w);
  if (type_name) {
    json_w_keyz(&r->w, "type_name");
    json_w_stringz(&r->w, type_name);
  }
  if (r->h->config_ev) {
    json_w_keyz(&r->w, "provider_config");
    json_w_raw(&r->w, r->h->config_ev, strlen(r->h->config_ev));
  }
}

static void req_end(Req *r)
{
  arena_release(&r->scratch);
}

static const char *type_info(Req *r)
{
  if (!r->type_name)
    return "";
  return arena_printf(&r->scratch, " for resource type \"%s\"",
                      r->type_name);
}

static void bad_answer(Req *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void bad_answer(Req *r, const char *fmt, ...)
{
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->failed = true;
  diag_error(r->c->diags, NULL, "Invalid provider response",
             "Provider \"%s\" sent an invalid answer to %s%s: %s.",
             r->p->addr, r->call, type_info(r), msg);
}

/* ---- encoding values --------------------------------------------------- */

static void put_marker(JsonW *w, Value v)
{
  if (val_is_unknown(v)) {
    json_w_bool(w, true);
    return;
  }
  if (val_is_null(v) || val_is_wholly_known(v)) {
    json_w_bool(w, false);
    return;
  }
  switch (v.type->kind) {
  case TY_OBJECT:
    json_w_begin_object(w);
    for (uint32_t i = 0; i < v.type->n; i++)
      if (!val_is_wholly_known(v.u.elems[i])) {
        json_w_keyz(w, v.type->names[i]);
        put_marker(w, v.u.elems[i]);
      }
    json_w_end_object(w);
    break;
  case TY_MAP:
    json_w_begin_object(w);
    for (uint32_t i = 0; i < v.len; i++)
      if (!val_is_wholly_known(v.u.entries[i].val)) {
        json_w_key(w, v.u.entries[i].key, v.u.entries[i].keylen);
        put_marker(w, v.u.entries[i].val);
      }
    json_w_end_object(w);
    break;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
    json_w_begin_array(w);
    for (uint32_t i = 0; i < v.len; i++)
      put_marker(w, v.u.elems[i]);
    json_w_end_array(w);
    break;
  default:
    json_w_bool(w, false);
  }
}

/* Writes one encoded value {"value":..,"unknown":..} (JSON null when v is
** absent) into w. */
static bool write_ev(JsonW *w, Value v, const Type *t, Diags *d)
{
  if (!v.type) {
    json_w_null(w);
    return true;
  }
  json_w_begin_object(w);
  json_w_keyz(w, "value");
  if (!json_w_value(w, v, t, d))
    return false;
  if (!val_is_wholly_known(v)) {
    json_w_keyz(w, "unknown");
    put_marker(w, v);
  }
  json_w_end_object(w);
  return true;
}

static bool put_ev(Req *r, const char *key, Value v, const Type *t)
{
  json_w_keyz(&r->w, key);
  Diags tmp;
  diag_init(&tmp, &r->scratch);
  if (write_ev(&r->w, v, t, &tmp))
    return true;
  diag_error(r->c->diags, NULL, "Cannot encode provider request",
             "The value \"%s\" of %s%s to provider \"%s\" cannot be "
             "encoded: %s %s.",
             key, r->call, type_info(r), r->p->addr,
             tmp.head ? tmp.head->summary : "",
             tmp.head ? tmp.head->detail : "");
  r->failed = true;
  return false;
}

static void put_bytes(Req *r, const char *key, ProvBytes b)
{
  json_w_keyz(&r->w, key);
  json_w_stringz(&r->w, b.n ? prov_base64_encode(&r->scratch, b.p, b.n,
                                                 false, true)
                            : "");
}

/* ---- decoding values --------------------------------------------------- */

typedef struct Dec {
  Arena *a;                   /* result memory */
  Arena *scratch;
  Buf path;                   /* where we are, for messages */
  const char *err;
  int depth;
} Dec;

static bool dfail(Dec *D, const char *msg)
{
  if (!D->err)
    D->err = msg;
  return false;
}

static bool marker_is(Value m, bool b)
{
  return m.type && m.type->kind == TY_BOOL && !val_is_null(m) && m.u.b == b;
}

static bool dec(Dec *D, Value raw, Value mk, const Type *t, Value *out);

static bool dec_child(Dec *D, Value raw, Value mk, const Type *t,
                      Value *out, const char *attr, const char *key,
                      long idx)
{
  size_t save = D->path.len;
  if (attr)
    buf_printf(&D->path, ".%s", attr);
  else if (key)
    buf_printf(&D->path, "[\"%s\"]", key);
  else
    buf_printf(&D->path, "[%ld]", idx);
  bool ok = dec(D, raw, mk, t, out);
  if (ok) {
    D->path.len = save;
    D->path.p[save] = 0;
  }
  return ok;
}

static bool dec(Dec *D, Value raw, Value mk, const Type *t, Value *out)
{
  if (D->depth > 200)
    return dfail(D, "the value is nested too deeply");
  D->depth++;
  bool ok = true;
  if (marker_is(mk, true)) {
    const Type *ut = t;
    if (t->kind == TY_DYNAMIC && is_obj(raw)) {
      Value tv = jget(raw, "type");
      Diags tmp;
      diag_init(&tmp, D->scratch);
      if (tv.type && !json_type_from_value(D->a, tv, &ut, &tmp, NULL))
        ut = t;
    }
    *out = val_unknown(ut);
    D->depth--;
    return true;
  }
  if (mk.type && (val_is_null(mk) || mk.type->kind == TY_BOOL))
    mk = (Value){0};
  if (mk.type && mk.type->kind != TY_OBJECT && mk.type->kind != TY_TUPLE) {
    D->depth--;
    return dfail(D, "an \"unknown\" marker must be true, false, an object "
                    "or an array");
  }
  if (is_absent(raw)) {
    *out = val_null(t);
    D->depth--;
    return true;
  }
  switch (t->kind) {
  case TY_DYNAMIC: {
    Value tv = jget(raw, "type"), vv = jget(raw, "value");
    const Type *tt;
    Diags tmp;
    diag_init(&tmp, D->scratch);
    if (!is_obj(raw) || !tv.type || !vv.type)
      ok = dfail(D, "a value of dynamic type must be {\"value\": V, "
                    "\"type\": T}");
    else if (!json_type_from_value(D->a, tv, &tt, &tmp, NULL))
      ok = dfail(D, "invalid type in a dynamic value");
    else
      ok = dec(D, vv, mk, tt, out);
    break;
  }
  case TY_STRING:
    if (raw.type->kind != TY_STRING)
      ok = dfail(D, "a string is required");
    else
      *out = val_str(D->a, raw.u.s, raw.len);
    break;
  case TY_NUMBER:
    if (raw.type->kind != TY_NUMBER)
      ok = dfail(D, "a number is required");
    else if (raw.flags & VF_NUMLIT) {
      if (!val_parse_number(D->a, raw.u.s, raw.len, true, out))
        ok = dfail(D, "a number is required");
    } else {
      *out = raw;
    }
    break;
  case TY_BOOL:
    if (raw.type->kind != TY_BOOL)
      ok = dfail(D, "a bool is required");
    else
      *out = raw.u.b ? val_true : val_false;
    break;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE: {
    if (raw.type->kind != TY_TUPLE) {
      ok = dfail(D, "an array is required");
      break;
    }
    uint32_t n = raw.len;
    if (t->kind == TY_TUPLE && n != t->n) {
      ok = dfail(D, "wrong number of tuple elements");
      break;
    }
    if (mk.type && (mk.type->kind != TY_TUPLE || mk.len != n)) {
      ok = dfail(D, "the \"unknown\" marker of an array must be an array "
                    "of the same length");
      break;
    }
    Value *el = ARENA_NEW(D->a, Value, n);
    for (uint32_t i = 0; ok && i < n; i++) {
      const Type *et = t->kind == TY_TUPLE ? t->types[i] : t->elem;
      ok = dec_child(D, raw.u.elems[i], mk.type ? mk.u.elems[i] : mk, et,
                     &el[i], NULL, NULL, (long)i);
    }
    if (!ok)
      break;
    const Type *et = t->kind != TY_TUPLE && t->elem->kind == TY_DYNAMIC
                         ? NULL : t->elem;
    if (t->kind == TY_LIST)
      *out = val_list(D->a, et, el, n);
    else if (t->kind == TY_SET)
      *out = val_set(D->a, et, el, n);
    else
      *out = val_tuple(D->a, el, n);
    break;
  }
  case TY_MAP: {
    if (raw.type->kind != TY_OBJECT) {
      ok = dfail(D, "an object is required");
      break;
    }
    if (mk.type && mk.type->kind != TY_OBJECT) {
      ok = dfail(D, "the \"unknown\" marker of a map must be an object");
      break;
    }
    uint32_t n = raw.type->n;
    MapEntry *en = ARENA_NEW(D->a, MapEntry, n);
    for (uint32_t i = 0; ok && i < n; i++) {
      const char *k = raw.type->names[i];
      en[i].key = arena_strdup(D->a, k);
      en[i].keylen = (uint32_t)strlen(k);
      ok = dec_child(D, raw.u.elems[i], jget(mk, k), t->elem, &en[i].val,
                     NULL, k, 0);
    }
    if (ok)
      *out = val_map(D->a, t->elem->kind == TY_DYNAMIC ? NULL : t->elem, en,
                     n);
    break;
  }
  case TY_OBJECT: {
    if (raw.type->kind != TY_OBJECT) {
      ok = dfail(D, "an object is required");
      break;
    }
    if (mk.type && mk.type->kind != TY_OBJECT) {
      ok = dfail(D, "the \"unknown\" marker of an object must be an object");
      break;
    }
    for (uint32_t i = 0; i < raw.type->n; i++)
      if (ty_attr_index(t, raw.type->names[i]) < 0) {
        buf_printf(&D->path, ".%s", raw.type->names[i]);
        ok = dfail(D, "unsupported attribute");
        break;
      }
    for (uint32_t i = 0; ok && mk.type && i < mk.type->n; i++)
      if (ty_attr_index(t, mk.type->names[i]) < 0) {
        buf_printf(&D->path, ".%s", mk.type->names[i]);
        ok = dfail(D, "the \"unknown\" marker names an unsupported "
                      "attribute");
        break;
      }
    if (!ok)
      break;
    Value *vals = ARENA_NEW(D->a, Value, t->n ? t->n : 1);
    for (uint32_t i = 0; ok && i < t->n; i++)
      ok = dec_child(D, jget(raw, t->names[i]), jget(mk, t->names[i]),
                     t->types[i], &vals[i], t->names[i], NULL, 0);
    if (ok)
      *out = val_object_typed(t, vals);
    break;
  }
  }
  D->depth--;
  return ok;
}

/* Decodes the encoded value obj[key] with type t into c->arena.  Absent
** (missing or null) gives the zero Value.  false after bad_answer. */
static bool get_ev(Req *r, Value obj, const char *key, const Type *t,
                   Value *out)
{
  *out = (Value){0};
  Value ev = jget(obj, key);
  if (is_absent(ev))
    return true;
  if (!is_obj(ev) || !jget(ev, "value").type) {
    bad_answer(r, "\"%s\" must be an object {\"value\": ..., \"unknown\": "
                  "...}", key);
    return false;
  }
  Dec D = {r->c->arena, &r->scratch, {0}, NULL, 0};
  buf_init(&D.path, &r->scratch);
  if (!dec(&D, jget(ev, "value"), jget(ev, "unknown"), t, out)) {
    *out = (Value){0};
    bad_answer(r, "%s%s: %s", key, D.path.len ? buf_str(&D.path) : "",
               D.err);
    return false;
  }
  return true;
}

static bool get_bool(Req *r, Value obj, const char *key, bool *out)
{
  Value v = jget(obj, key);
  *out = false;
  if (is_absent(v))
    return true;
  if (v.type->kind != TY_BOOL) {
    bad_answer(r, "\"%s\" must be true or false", key);
    return false;
  }
  *out = v.u.b;
  return true;
}

static bool get_string(Req *r, Value obj, const char *key, const char **out)
{
  Value v = jget(obj, key);
  *out = NULL;
  if (is_absent(v))
    return true;
  if (v.type->kind != TY_STRING) {
    bad_answer(r, "\"%s\" must be a string", key);
    return false;
  }
  *out = arena_strndup(r->c->arena, v.u.s, v.len);
  return true;
}

static bool get_bytes(Req *r, Value obj, const char *key, ProvBytes *out)
{
  memset(out, 0, sizeof *out);
  Value v = jget(obj, key);
  if (is_absent(v))
    return true;
  if (v.type->kind != TY_STRING) {
    bad_answer(r, "\"%s\" must be a base64 string", key);
    return false;
  }
  if (!v.len)
    return true;
  uint8_t *p;
  size_t n, bad;
  if (!prov_base64_decode(r->c->arena, v.u.s, v.len, &p, &n, &bad)) {
    bad_answer(r, "\"%s\" is not valid base64 (at byte %zu)", key, bad);
    return false;
  }
  out->p = p;
  out->n = n;
  return true;
}

/* An attribute path [{"attr":..},{"key":..},{"index":..}] into c->arena. */
static bool dec_path(Req *r, Value arr, const char *what, ValPath *out)
{
  memset(out, 0, sizeof *out);
  if (!is_arr(arr)) {
    bad_answer(r, "%s must be an array of path steps", what);
    return false;
  }
  PathStep *st = ARENA_NEW(r->c->arena, PathStep, arr.len ? arr.len : 1);
  for (uint32_t i = 0; i < arr.len; i++) {
    Value s = arr.u.elems[i];
    Value a = jget(s, "attr"), k = jget(s, "key"), x = jget(s, "index");
    int64_t idx;
    if (!is_obj(s) || s.type->n != 1) {
      bad_answer(r, "%s: step %u must be an object with one of \"attr\", "
                    "\"key\" or \"index\"", what, i);
      return false;
    }
    if (a.type && a.type->kind == TY_STRING && !val_is_null(a)) {
      st[i].kind = PS_ATTR;
      st[i].name = arena_strndup(r->c->arena, a.u.s, a.len);
    } else if (k.type && k.type->kind == TY_STRING && !val_is_null(k)) {
      st[i].kind = PS_KEY;
      st[i].name = arena_strndup(r->c->arena, k.u.s, k.len);
    } else if (x.type && x.type->kind == TY_NUMBER && !val_is_null(x) &&
               val_num_int(x, &idx) && idx >= 0) {
      st[i].kind = PS_INDEX;
      st[i].index = idx;
    } else {
      bad_answer(r, "%s: step %u is not a valid path step", what, i);
      return false;
    }
  }
  out->steps = st;
  out->n = arr.len;
  return true;
}

static bool get_diags(Req *r, Value obj)
{
  Value ds = jget(obj, "diagnostics");
  if (is_absent(ds))
    return true;
  if (!is_arr(ds)) {
    bad_answer(r, "\"diagnostics\" must be an array");
    return false;
  }
  for (uint32_t i = 0; i < ds.len; i++) {
    Value g = ds.u.elems[i];
    Value sev = jget(g, "severity"), sum = jget(g, "summary"),
          det = jget(g, "detail"), at = jget(g, "attribute");
    DiagSeverity s;
    if (!is_obj(g) || !sev.type || sev.type->kind != TY_STRING ||
        val_is_null(sev)) {
      bad_answer(r, "diagnostic %u has no severity", i);
      return false;
    }
    if (strcmp(sev.u.s, "error") == 0)
      s = DIAG_ERROR;
    else if (strcmp(sev.u.s, "warning") == 0)
      s = DIAG_WARNING;
    else {
      bad_answer(r, "diagnostic %u: severity must be \"error\" or "
                    "\"warning\"", i);
      return false;
    }
    if (!sum.type || sum.type->kind != TY_STRING || val_is_null(sum)) {
      bad_answer(r, "diagnostic %u has no summary", i);
      return false;
    }
    if (!is_absent(det) && det.type->kind != TY_STRING) {
      bad_answer(r, "diagnostic %u: detail must be a string", i);
      return false;
    }
    ValPath path = {0};
    if (!is_absent(at) && !dec_path(r, at, "a diagnostic's attribute", &path))
      return false;
    Diag *d = diag_add(r->c->diags, s, NULL, sum.u.s, "%s",
                       is_absent(det) ? "" : det.u.s);
    if (path.n) {
      ProvDiagPath *dp = ARENA_NEW(r->c->arena, ProvDiagPath, 1);
      dp->diag = d;
      dp->path = path;
      dp->next = r->c->paths;
      r->c->paths = dp;
    }
  }
  return true;
}

static bool answer_parse(Req *r, const char *path, const char *body,
                         size_t len, size_t max, Arena *parse_arena,
                         Value *obj);

/* Sends the request and returns the parsed answer object (in parse_arena,
** or the scratch arena when NULL).  On any failure: false with a
** diagnostic.  The answer's diagnostics are added to c->diags. */
static bool req_send(Req *r, unsigned flags, const char *idem,
                     Arena *parse_arena, Value *obj, const char **raw,
                     size_t *rawlen)
{
  *obj = (Value){0};
  if (r->failed)
    return false;
  json_w_end_object(&r->w);
  Slot *s = checkout(r->h, r->c->diags);
  if (!s)
    return false;
  const char *hdrs[3] = {"Cairn-Protocol: 1", NULL, NULL};
  if (idem)
    hdrs[1] = arena_printf(&r->scratch, "Idempotency-Key: %s", idem);
  http_client_set_headers(s->client, hdrs);
  const char *path = arena_printf(&r->scratch, "/%s", r->call);
  Diags tmp;
  diag_init(&tmp, &r->scratch);
  HttpResponse resp;
  bool ok = http_post_json(s->client, r->h->ep, path, r->body.p, r->body.len,
                           flags, &resp, &r->scratch, &tmp);
  http_client_set_headers(s->client, NULL);
  checkin(r->h, s);
  if (!ok) {
    /* Conservative: a failure before the request was sent (refused
    ** connection) looks the same here as a reply lost after it acted. */
    r->lost = true;
    for (Diag *g = tmp.head; g; g = g->next)
      diag_error(r->c->diags, NULL, g->summary, "Provider \"%s\"%s: %s",
                 r->p->addr, type_info(r), g->detail ? g->detail : "");
    return false;
  }
  if (resp.status != 200) {
    /* The retryable statuses say "not handled now", which a server behind
    ** a gateway may say after it acted: no answer either. */
    r->lost = resp.status == 502 || resp.status == 503 || resp.status == 504;
    Value e = {0};
    Diags t2;
    diag_init(&t2, &r->scratch);
    const char *code = "", *msg = "";
    if (resp.len && json_parse(&r->scratch, resp.body, resp.len, &e, &t2,
                               NULL)) {
      Value err = jget(e, "error");
      Value c = jget(err, "code"), m = jget(err, "message");
      if (c.type && c.type->kind == TY_STRING && !val_is_null(c))
        code = c.u.s;
      if (m.type && m.type->kind == TY_STRING && !val_is_null(m))
        msg = m.u.s;
    }
    diag_error(r->c->diags, NULL, "Provider call failed",
               "Provider \"%s\" answered %s%s with HTTP status %ld%s%s%s%s%s.",
               r->p->addr, r->call, type_info(r), resp.status,
               *code || *msg ? " (" : "", code, *code && *msg ? ": " : "",
               msg, *code || *msg ? ")" : "");
    return false;
  }
  if (!answer_parse(r, path, resp.body, resp.len, r->h->ep->max_response,
                    parse_arena, obj))
    return false;
  if (raw) {
    *raw = resp.body;
    *rawlen = resp.len;
  }
  return true;
}

/* The part of req_send after an HTTP 200: the body must be a JSON object
** (at most max bytes; 0: json's default), whose "diagnostics" go to
** c->diags.  Parsed in parse_arena (the scratch arena when NULL). */
static bool answer_parse(Req *r, const char *path, const char *body,
                         size_t len, size_t max, Arena *parse_arena,
                         Value *obj)
{
  *obj = (Value){0};
  JsonOpts jo = {0};
  jo.file = path;
  jo.max_size = max;
  Diags t3;
  diag_init(&t3, &r->scratch);
  Value v;
  if (!json_parse(parse_arena ? parse_arena : &r->scratch, body, len, &v,
                  &t3, &jo)) {
    const Diag *g = t3.head;
    bad_answer(r, "%s (%s)", g ? g->summary : "malformed JSON",
               g && g->detail ? g->detail : "");
    return false;
  }
  if (!is_obj(v)) {
    bad_answer(r, "the answer must be a JSON object");
    return false;
  }
  if (!get_diags(r, v))
    return false;
  *obj = v;
  return true;
}

/* ---- schema ------------------------------------------------------------ */

typedef struct SD {
  Arena *a;
  Arena *scratch;
  const char *err;
  Buf path;
} SD;

static bool sfail(SD *s, const char *msg)
{
  if (!s->err)
    s->err = msg;
  return false;
}

static ProvNesting nesting_of(Value v, bool block)
{
  if (!v.type || v.type->kind != TY_STRING || val_is_null(v))
    return PROV_NEST_INVALID;
  const char *s = v.u.s;
  if (strcmp(s, "single") == 0)
    return PROV_NEST_SINGLE;
  if (strcmp(s, "list") == 0)
    return PROV_NEST_LIST;
  if (strcmp(s, "set") == 0)
    return PROV_NEST_SET;
  if (strcmp(s, "map") == 0)
    return PROV_NEST_MAP;
  if (block && strcmp(s, "group") == 0)
    return PROV_NEST_GROUP;
  return PROV_NEST_INVALID;
}

static bool sbool(SD *s, Value obj, const char *key, bool *out)
{
  Value v = jget(obj, key);
  *out = false;
  if (is_absent(v))
    return true;
  if (v.type->kind != TY_BOOL)
    return sfail(s, "flags must be true or false");
  *out = v.u.b;
  return true;
}

static const char *sstr(SD *s, Value obj, const char *key, bool *ok)
{
  Value v = jget(obj, key);
  if (is_absent(v))
    return NULL;
  if (v.type->kind != TY_STRING) {
    *ok = sfail(s, "descriptions must be strings");
    return NULL;
  }
  return v.u.s;   /* parsed into s->a already */
}

static bool sd_block(SD *s, Value b, ProvBlockSchema **out, int depth);

static bool sd_attrs(SD *s, Value attrs, const ProvAttrSchema **out,
                     uint32_t *n, int depth)
{
  *out = NULL;
  *n = 0;
  if (is_absent(attrs))
    return true;
  if (!is_obj(attrs))
    return sfail(s, "\"attributes\" must be an object");
  ProvAttrSchema *as = ARENA_NEW(s->a, ProvAttrSchema, attrs.type->n + 1);
  for (uint32_t i = 0; i < attrs.type->n; i++) {
    Value a = attrs.u.elems[i];
    ProvAttrSchema *at = &as[i];
    size_t save = s->path.len;
    buf_printf(&s->path, ".%s", attrs.type->names[i]);
    at->name = attrs.type->names[i];
    if (!is_obj(a))
      return sfail(s, "an attribute must be an object");
    Value tv = jget(a, "type"), nt = jget(a, "nested_type");
    if (!is_absent(tv) == !is_absent(nt))
      return sfail(s, "an attribute needs exactly one of \"type\" and "
                      "\"nested_type\"");
    if (!is_absent(tv)) {
      Diags tmp;
      diag_init(&tmp, s->scratch);
      if (!json_type_from_value(s->a, tv, &at->type, &tmp, NULL))
        return sfail(s, "invalid type");
    } else {
      if (depth > 32)
        return sfail(s, "nested too deeply");
      ProvObjectSchema *o = ARENA_NEW(s->a, ProvObjectSchema, 1);
      o->nesting = nesting_of(jget(nt, "nesting_mode"), false);
      if (!is_obj(nt) || o->nesting == PROV_NEST_INVALID)
        return sfail(s, "\"nested_type\" needs a nesting_mode of single, "
                        "list, set or map");
      if (!sd_attrs(s, jget(nt, "attributes"), &o->attrs, &o->nattrs,
                    depth + 1))
        return false;
      at->nested = o;
    }
    bool req, opt, comp, sens, dep, wo, ok = true;
    if (!sbool(s, a, "required", &req) || !sbool(s, a, "optional", &opt) ||
        !sbool(s, a, "computed", &comp) || !sbool(s, a, "sensitive", &sens) ||
        !sbool(s, a, "deprecated", &dep) || !sbool(s, a, "write_only", &wo))
      return false;
    if (!(req ^ (opt || comp)) || (req && (opt || comp)))
      return sfail(s, "an attribute must be required, optional, computed, "
                      "or optional and computed");
    at->flags = (req ? PROV_REQUIRED : 0) | (opt ? PROV_OPTIONAL : 0) |
                (comp ? PROV_COMPUTED : 0) | (sens ? PROV_SENSITIVE : 0) |
                (dep ? PROV_DEPRECATED : 0) | (wo ? PROV_WRITE_ONLY : 0);
    at->description = sstr(s, a, "description", &ok);
    at->deprecation_message = sstr(s, a, "deprecation_message", &ok);
    if (!ok)
      return false;
    s->path.len = save;
    s->path.p[save] = 0;
  }
  *out = as;
  *n = attrs.type->n;
  return true;
}

static bool sd_block(SD *s, Value b, ProvBlockSchema **out, int depth)
{
  if (!is_obj(b))
    return sfail(s, "a block must be an object");
  if (depth > 32)
    return sfail(s, "blocks nested too deeply");
  ProvBlockSchema *bs = ARENA_NEW(s->a, ProvBlockSchema, 1);
  if (!sd_attrs(s, jget(b, "attributes"), &bs->attrs, &bs->nattrs, depth))
    return false;
  Value bt = jget(b, "block_types");
  if (!is_absent(bt)) {
    if (!is_obj(bt))
      return sfail(s, "\"block_types\" must be an object");
    ProvNestedBlock *nb = ARENA_NEW(s->a, ProvNestedBlock, bt.type->n + 1);
    for (uint32_t i = 0; i < bt.type->n; i++) {
      Value x = bt.u.elems[i];
      size_t save = s->path.len;
      buf_printf(&s->path, ".%s", bt.type->names[i]);
      nb[i].type_name = bt.type->names[i];
      nb[i].nesting = nesting_of(jget(x, "nesting_mode"), true);
      if (!is_obj(x) || nb[i].nesting == PROV_NEST_INVALID)
        return sfail(s, "a block type needs a nesting_mode of single, "
                        "group, list, set or map");
      int64_t mn = 0, mx = 0;
      Value vmn = jget(x, "min_items"), vmx = jget(x, "max_items");
      if ((!is_absent(vmn) && (vmn.type->kind != TY_NUMBER ||
                               !val_num_int(vmn, &mn) || mn < 0 ||
                               mn > UINT32_MAX)) ||
          (!is_absent(vmx) && (vmx.type->kind != TY_NUMBER ||
                               !val_num_int(vmx, &mx) || mx < 0 ||
                               mx > UINT32_MAX)))
        return sfail(s, "min_items and max_items must be whole numbers");
      nb[i].min_items = (uint32_t)mn;
      nb[i].max_items = (uint32_t)mx;
      ProvBlockSchema *inner;
      if (!sd_block(s, jget(x, "block"), &inner, depth + 1))
        return false;
      nb[i].block = inner;
      s->path.len = save;
      s->path.p[save] = 0;
    }
    bs->blocks = nb;
    bs->nblocks = bt.type->n;
  }
  bool ok = true;
  bs->description = sstr(s, b, "description", &ok);
  if (!ok || !sbool(s, b, "deprecated", &bs->deprecated))
    return false;
  *out = bs;
  return true;
}

static bool sd_schema(SD *s, Value v, ProvSchema *out)
{
  if (!is_obj(v))
    return sfail(s, "a schema must be an object {\"version\", \"block\"}");
  Value ver = jget(v, "version");
  out->version = 0;
  if (!is_absent(ver) &&
      (ver.type->kind != TY_NUMBER || !val_num_int(ver, &out->version) ||
       out->version < 0))
    return sfail(s, "\"version\" must be a whole number");
  ProvBlockSchema *b;
  size_t save = s->path.len;
  buf_puts(&s->path, ".block");
  if (!sd_block(s, jget(v, "block"), &b, 0))
    return false;
  s->path.len = save;
  s->path.p[save] = 0;
  out->block = b;
  return true;
}

static bool sd_types(SD *s, Value m, const char *what,
                     const ProvTypeSchema **out, uint32_t *n)
{
  *out = NULL;
  *n = 0;
  if (is_absent(m))
    return true;
  if (!is_obj(m))
    return sfail(s, "resource_schemas and data_source_schemas must be "
                    "objects");
  ProvTypeSchema *ts = ARENA_NEW(s->a, ProvTypeSchema, m.type->n + 1);
  for (uint32_t i = 0; i < m.type->n; i++) {
    buf_clear(&s->path);
    buf_printf(&s->path, "%s.%s", what, m.type->names[i]);
    ts[i].type_name = m.type->names[i];
    if (!sd_schema(s, m.u.elems[i], &ts[i].schema))
      return false;
  }
  *out = ts;
  *n = m.type->n;
  return true;
}

/* One function parameter: {"name", "type", "allow_null_value",
** "allow_unknown_values", "description"}. */
static bool sd_param(SD *s, Value v, ProvFuncParam *out)
{
  if (!is_obj(v))
    return sfail(s, "a function parameter must be an object");
  bool ok = true;
  out->name = sstr(s, v, "name", &ok);
  out->description = sstr(s, v, "description", &ok);
  if (!ok)
    return false;
  if (!out->name)
    out->name = "";
  Value tv = jget(v, "type");
  Diags tmp;
  diag_init(&tmp, s->scratch);
  if (is_absent(tv) || !json_type_from_value(s->a, tv, &out->type, &tmp,
                                             NULL))
    return sfail(s, "a function parameter needs a valid \"type\"");
  return sbool(s, v, "allow_null_value", &out->allow_null_value) &&
         sbool(s, v, "allow_unknown_values", &out->allow_unknown_values);
}

/* "functions": {"NAME": {"parameters": [PARAM], "variadic_parameter":
** PARAM, "return": {"type": T}, "summary", "description",
** "deprecation_message"}}, sorted by name. */
static bool sd_functions(SD *s, Value m, const ProvFunction **out,
                         uint32_t *n)
{
  *out = NULL;
  *n = 0;
  if (is_absent(m))
    return true;
  if (!is_obj(m))
    return sfail(s, "\"functions\" must be an object");
  ProvFunction *fs = ARENA_NEW(s->a, ProvFunction, m.type->n + 1);
  for (uint32_t i = 0; i < m.type->n; i++) {
    Value f = m.u.elems[i];
    ProvFunction *pf = &fs[i];
    buf_clear(&s->path);
    buf_printf(&s->path, "functions.%s", m.type->names[i]);
    pf->name = m.type->names[i];
    if (!is_obj(f))
      return sfail(s, "a function must be an object");
    Value ps = jget(f, "parameters");
    if (!is_absent(ps)) {
      if (!is_arr(ps) || ps.len > 255)
        return sfail(s, "\"parameters\" must be an array (at most 255)");
      ProvFuncParam *pp = ARENA_NEW(s->a, ProvFuncParam, ps.len + 1);
      for (uint32_t k = 0; k < ps.len; k++)
        if (!sd_param(s, ps.u.elems[k], &pp[k]))
          return false;
      pf->params = pp;
      pf->nparams = ps.len;
    }
    Value vp = jget(f, "variadic_parameter");
    if (!is_absent(vp)) {
      ProvFuncParam *pp = ARENA_NEW(s->a, ProvFuncParam, 1);
      if (!sd_param(s, vp, pp))
        return false;
      pf->variadic = pp;
    }
    Value rt = jget(jget(f, "return"), "type");
    Diags tmp;
    diag_init(&tmp, s->scratch);
    if (is_absent(rt) || !json_type_from_value(s->a, rt, &pf->return_type,
                                               &tmp, NULL))
      return sfail(s, "a function needs \"return\": {\"type\": T}");
    bool ok = true;
    pf->summary = sstr(s, f, "summary", &ok);
    pf->description = sstr(s, f, "description", &ok);
    pf->deprecation_message = sstr(s, f, "deprecation_message", &ok);
    if (!ok)
      return false;
  }
  uint32_t cnt = m.type->n;
  for (uint32_t i = 1; i < cnt; i++)
    for (uint32_t j = i; j > 0 && strcmp(fs[j - 1].name, fs[j].name) > 0;
         j--) {
      ProvFunction t = fs[j];
      fs[j] = fs[j - 1];
      fs[j - 1] = t;
    }
  *out = fs;
  *n = cnt;
  return true;
}

/* Decodes a parsed answer; strings stay in the arena v was parsed into,
** which must be a (the result memory). */
static bool decode_schema_value(Arena *a, Value v, ProvProviderSchema **out,
                                const char **err, const char **where)
{
  SD s = {a, NULL, NULL, {0}};
  Arena scratch;
  arena_init(&scratch, 0);
  s.scratch = &scratch;
  buf_init(&s.path, a);
  ProvProviderSchema *ps = ARENA_NEW(a, ProvProviderSchema, 1);
  bool ok = true;
  Value pv = jget(v, "protocol_version");
  int64_t ver;
  if (!pv.type || pv.type->kind != TY_NUMBER || val_is_null(pv) ||
      !val_num_int(pv, &ver) || ver != PHTTPS_PROTOCOL_VERSION) {
    ok = sfail(&s, "incompatible provider protocol: the answer must carry "
                   "\"protocol_version\": 1");
  }
  if (ok) {
    buf_puts(&s.path, "provider");
    Value prov = jget(v, "provider");
    if (is_absent(prov)) {
      static const ProvBlockSchema empty = {0};
      ps->provider.block = ARENA_NEW(a, ProvBlockSchema, 1);
      *(ProvBlockSchema *)ps->provider.block = empty;
    } else {
      ok = sd_schema(&s, prov, &ps->provider);
    }
  }
  ok = ok && sd_types(&s, jget(v, "resource_schemas"), "resource_schemas",
                      &ps->resources, &ps->nresources);
  ok = ok && sd_types(&s, jget(v, "data_source_schemas"),
                      "data_source_schemas", &ps->data_sources,
                      &ps->ndata_sources);
  ok = ok && sd_types(&s, jget(v, "ephemeral_resource_schemas"),
                      "ephemeral_resource_schemas", &ps->ephemeral_resources,
                      &ps->nephemeral_resources);
  ok = ok && sd_functions(&s, jget(v, "functions"), &ps->functions,
                          &ps->nfunctions);
  if (ok) {
    buf_clear(&s.path);
    Value caps = jget(v, "server_capabilities");
    if (!is_absent(caps) && !is_obj(caps))
      ok = sfail(&s, "\"server_capabilities\" must be an object");
    else
      ok = sbool(&s, caps, "plan_destroy", &ps->plan_destroy);
  }
  arena_release(&scratch);
  if (!ok) {
    *err = s.err;
    *where = s.path.len ? buf_str(&s.path) : "";
    return false;
  }
  prov_schema_prepare(a, ps);
  *out = ps;
  return true;
}

bool phttps_decode_schema(Arena *a, const char *what, const char *json,
                          size_t len, ProvProviderSchema **out, Diags *d)
{
  Value v;
  if (!json_parse(a, json, len, &v, d, NULL))
    return false;
  const char *err, *where;
  if (!is_obj(v) || !decode_schema_value(a, v, out, &err, &where)) {
    diag_error(d, NULL, "Invalid provider schema",
               "The schema of %s cannot be used: %s%s%s.", what,
               is_obj(v) ? err : "not a JSON object",
               is_obj(v) && *where ? " at " : "", is_obj(v) ? where : "");
    return false;
  }
  return true;
}

bool phttps_preload_schema(Prov *p, const char *json, size_t len, Diags *d)
{
  Phttps *h = impl(p);
  ProvProviderSchema *ps;
  pthread_mutex_lock(&h->smu);
  bool ok = h->schema != NULL;
  if (!ok && phttps_decode_schema(p->arena, p->addr, json, len, &ps, d)) {
    h->schema = ps;
    h->schema_json = arena_strndup(p->arena, json, len);
    h->schema_len = len;
    ok = true;
  }
  pthread_mutex_unlock(&h->smu);
  return ok;
}

static const ProvProviderSchema *ensure_schema(Prov *p, ProvCall *c)
{
  Phttps *h = impl(p);
  pthread_mutex_lock(&h->smu);
  if (!h->schema) {
    Req r;
    req_begin(&r, p, c, "GetProviderSchema", NULL);
    json_w_keyz(&r.w, "protocol_versions");
    json_w_begin_array(&r.w);
    json_w_int(&r.w, PHTTPS_PROTOCOL_VERSION);
    json_w_end_array(&r.w);
    Value obj;
    const char *raw;
    size_t rawlen;
    if (req_send(&r, HTTP_SAFE_TO_RETRY, NULL, p->arena, &obj, &raw,
                 &rawlen)) {
      const char *err, *where;
      ProvProviderSchema *ps;
      if (!decode_schema_value(p->arena, obj, &ps, &err, &where)) {
        bad_answer(&r, "%s%s%s", err, *where ? " at " : "", where);
      } else {
        h->schema = ps;
        h->schema_json = arena_strndup(p->arena, raw, rawlen);
        h->schema_len = rawlen;
      }
    }
    req_end(&r);
  }
  pthread_mutex_unlock(&h->smu);
  return h->schema;
}

/* The implied type of a resource (data == false) or data source type;
** NULL with a diagnostic when the schema is missing or lacks the type. */
static const ProvBlockSchema *type_block(Prov *p, ProvCall *c,
                                         const char *type_name, bool data)
{
  const ProvProviderSchema *s = ensure_schema(p, c);
  if (!s)
    return NULL;
  const ProvTypeSchema *ts = data ? prov_schema_data_source(s, type_name)
                                  : prov_schema_resource(s, type_name);
  if (!ts) {
    diag_error(c->diags, NULL,
               data ? "Invalid data source type" : "Invalid resource type",
               "The provider %s does not support %s type \"%s\".", p->addr,
               data ? "data source" : "resource", type_name);
    return NULL;
  }
  return ts->schema.block;
}

/* ---- answers -------------------------------------------------------------
** What each call takes from its (parsed, 200) answer object; shared by the
** calls and phttps_decode_answer.  Each returns false after bad_answer. */

static bool ans_upgrade(Req *r, Value obj, const ProvBlockSchema *b,
                        ProvUpgradeResp *resp)
{
  if (!get_ev(r, obj, "upgraded_state", b->implied, &resp->upgraded_state))
    return false;
  if (!resp->upgraded_state.type && !diag_has_errors(r->c->diags)) {
    bad_answer(r, "\"upgraded_state\" is missing");
    return false;
  }
  return true;
}

static bool ans_read(Req *r, Value obj, const ProvBlockSchema *b,
                     ProvReadResp *resp)
{
  return get_ev(r, obj, "new_state", b->implied, &resp->new_state) &&
         get_bytes(r, obj, "private", &resp->private_data);
}

static bool ans_plan(Req *r, Value obj, const ProvBlockSchema *b,
                     ProvPlanResp *resp)
{
  if (!get_ev(r, obj, "planned_state", b->implied, &resp->planned_state) ||
      !get_bytes(r, obj, "planned_private", &resp->planned_private) ||
      !get_bool(r, obj, "legacy_type_system", &resp->legacy_type_system))
    return false;
  Value rr = jget(obj, "requires_replace");
  if (is_absent(rr))
    return true;
  if (!is_arr(rr)) {
    bad_answer(r, "\"requires_replace\" must be an array of paths");
    return false;
  }
  ValPath *ps = ARENA_NEW(r->c->arena, ValPath, rr.len ? rr.len : 1);
  for (uint32_t i = 0; i < rr.len; i++)
    if (!dec_path(r, rr.u.elems[i], "requires_replace", &ps[i]))
      return false;
  resp->requires_replace = ps;
  resp->nrequires_replace = rr.len;
  return true;
}

static bool ans_apply(Req *r, Value obj, const ProvBlockSchema *b,
                      ProvApplyResp *resp)
{
  return get_ev(r, obj, "new_state", b->implied, &resp->new_state) &&
         get_bytes(r, obj, "private", &resp->private_data) &&
         get_bool(r, obj, "legacy_type_system", &resp->legacy_type_system);
}

/* Each imported object names its resource type, looked up in s. */
static bool ans_import(Req *r, Value obj, const ProvProviderSchema *s,
                       ProvImportResp *resp)
{
  Value arr = jget(obj, "imported_resources");
  if (is_absent(arr))
    return true;
  if (!is_arr(arr)) {
    bad_answer(r, "\"imported_resources\" must be an array");
    return false;
  }
  ProvImported *im = ARENA_NEW(r->c->arena, ProvImported,
                               arr.len ? arr.len : 1);
  for (uint32_t i = 0; i < arr.len; i++) {
    Value e = arr.u.elems[i];
    const char *tn = NULL;
    if (!is_obj(e)) {
      bad_answer(r, "imported object %u must be an object", i);
      return false;
    }
    if (!get_string(r, e, "type_name", &tn))
      return false;
    const ProvTypeSchema *ts = tn ? prov_schema_resource(s, tn) : NULL;
    if (!ts) {
      bad_answer(r, "imported object %u has no known type_name", i);
      return false;
    }
    if (!get_ev(r, e, "state", ts->schema.block->implied, &im[i].state) ||
        !get_bytes(r, e, "private", &im[i].private_data))
      return false;
    im[i].type_name = tn;
  }
  resp->imported = im;
  resp->nimported = arr.len;
  return true;
}

static bool ans_read_data(Req *r, Value obj, const ProvBlockSchema *b,
                          ProvReadDataResp *resp)
{
  return get_ev(r, obj, "state", b->implied, &resp->state);
}

/* MoveResourceState: {"target_state": EV, "target_private"}. */
static bool ans_move(Req *r, Value obj, const ProvBlockSchema *b,
                     ProvMoveResp *resp)
{
  if (!get_ev(r, obj, "target_state", b->implied, &resp->target_state) ||
      !get_bytes(r, obj, "target_private", &resp->target_private))
    return false;
  if (!resp->target_state.type && !diag_has_errors(r->c->diags)) {
    bad_answer(r, "\"target_state\" is missing");
    return false;
  }
  return true;
}

/* "renew_at": Unix seconds, absent or null: never (0).  One at or before
** the epoch is 1, so that "at once" is not read as "never". */
static bool get_renew_at(Req *r, Value obj, int64_t *out)
{
  Value v = jget(obj, "renew_at");
  *out = 0;
  if (is_absent(v))
    return true;
  if (v.type->kind != TY_NUMBER || !val_num_int(v, out)) {
    bad_answer(r, "\"renew_at\" must be an integer (Unix seconds)");
    return false;
  }
  if (*out < 1)
    *out = 1;
  return true;
}

/* OpenEphemeralResource: {"result": EV, "private", "renew_at"}. */
static bool ans_open_eph(Req *r, Value obj, const ProvBlockSchema *b,
                         ProvOpenEphResp *resp)
{
  if (!get_ev(r, obj, "result", b->implied, &resp->result) ||
      !get_bytes(r, obj, "private", &resp->private_data) ||
      !get_renew_at(r, obj, &resp->renew_at))
    return false;
  if (!resp->result.type && !diag_has_errors(r->c->diags)) {
    bad_answer(r, "\"result\" is missing");
    return false;
  }
  return true;
}

/* RenewEphemeralResource: {"private", "renew_at"}. */
static bool ans_renew_eph(Req *r, Value obj, ProvRenewEphResp *resp)
{
  return get_bytes(r, obj, "private", &resp->private_data) &&
         get_renew_at(r, obj, &resp->renew_at);
}

/* CallFunction: {"result": EV} or {"error": {"text": STRING,
** "function_argument": INDEX}}. */
static bool ans_call_function(Req *r, Value obj, const ProvFunction *f,
                              ProvCallFuncResp *resp)
{
  resp->error = NULL;
  resp->error_arg = -1;
  Value err = jget(obj, "error");
  if (!is_absent(err)) {
    Value text = jget(err, "text"), fa = jget(err, "function_argument");
    int64_t ai = -1;
    if (!is_obj(err) || !text.type || text.type->kind != TY_STRING ||
        val_is_null(text) ||
        (!is_absent(fa) && (fa.type->kind != TY_NUMBER ||
                            !val_num_int(fa, &ai) || ai < 0))) {
      bad_answer(r, "\"error\" must be {\"text\": STRING, "
                    "\"function_argument\": INDEX}");
      return false;
    }
    resp->error = arena_strndup(r->c->arena, text.u.s, text.len);
    resp->error_arg = ai;
    return true;
  }
  if (!get_ev(r, obj, "result", f->return_type, &resp->result))
    return false;
  if (!resp->result.type) {
    bad_answer(r, "it has neither \"result\" nor \"error\"");
    return false;
  }
  return true;
}

/* ---- ProvOps ------------------------------------------------------------ */

static void h_get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  *out = ensure_schema(p, c);
}

static void validate_common(Prov *p, ProvCall *c, const char *call,
                            const char *type_name, const ProvBlockSchema *b,
                            Value config)
{
  Req r;
  req_begin(&r, p, c, call, type_name);
  Value obj;
  if (put_ev(&r, "config", config, b->implied))
    req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL);
  req_end(&r);
}

static void h_validate_provider(Prov *p, ProvCall *c, Value config)
{
  const ProvProviderSchema *s = ensure_schema(p, c);
  if (s)
    validate_common(p, c, "ValidateProviderConfig", NULL, s->provider.block,
                    config);
}

static void h_validate_resource(Prov *p, ProvCall *c, const char *type_name,
                                Value config)
{
  const ProvBlockSchema *b = type_block(p, c, type_name, false);
  if (b)
    validate_common(p, c, "ValidateResourceConfig", type_name, b, config);
}

static void h_validate_data(Prov *p, ProvCall *c, const char *type_name,
                            Value config)
{
  const ProvBlockSchema *b = type_block(p, c, type_name, true);
  if (b)
    validate_common(p, c, "ValidateDataResourceConfig", type_name, b,
                    config);
}

/* Writes key and the JSON object json[0..len) as it is (a state's
** attributes, which may hold numbers beyond a double's precision).  False,
** writing nothing, when it is not a JSON object: json_w_raw trusts its
** input. */
static bool put_raw_object(Req *r, const char *key, const char *json,
                           size_t len)
{
  Value chk;
  Diags tmp;
  diag_init(&tmp, &r->scratch);
  if (!json || !json_parse(&r->scratch, json, len, &chk, &tmp, NULL) ||
      !is_obj(chk))
    return false;
  json_w_keyz(&r->w, key);
  json_w_raw(&r->w, json, len);
  return true;
}

static void h_upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                      ProvUpgradeResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, false);
  if (!b)
    return;
  Req r;
  req_begin(&r, p, c, "UpgradeResourceState", req->type_name);
  json_w_keyz(&r.w, "version");
  json_w_int(&r.w, req->version);
  if (!put_raw_object(&r, "raw_state", req->raw_json, req->raw_len)) {
    diag_error(c->diags, NULL, "Invalid resource state upgrade",
               "The state of a %s resource is not a JSON object.",
               req->type_name);
    req_end(&r);
    return;
  }
  Value obj;
  if (req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL))
    ans_upgrade(&r, obj, b, resp);
  req_end(&r);
}

static void h_configure(Prov *p, ProvCall *c, const ProvConfigureReq *req)
{
  const ProvProviderSchema *s = ensure_schema(p, c);
  if (!s)
    return;
  Phttps *h = impl(p);
  /* Encode once: sent now, and kept as provider_config for later calls. */
  Buf ev;
  buf_init(&ev, p->arena);
  JsonW w;
  json_w_init(&w, &ev, JSON_W_UNKNOWN_NULL);
  Diags tmp;
  diag_init(&tmp, p->arena);
  if (!write_ev(&w, req->config, s->provider.block->implied, &tmp)) {
    diag_error(c->diags, NULL, "Cannot encode provider request",
               "The configuration of provider \"%s\" cannot be encoded: "
               "%s %s.",
               p->addr, tmp.head ? tmp.head->summary : "",
               tmp.head ? tmp.head->detail : "");
    return;
  }
  h->config_ev = NULL;
  Req r;
  req_begin(&r, p, c, "ConfigureProvider", NULL);
  json_w_keyz(&r.w, "terraform_version");
  json_w_stringz(&r.w, req->terraform_version ? req->terraform_version : "");
  json_w_keyz(&r.w, "config");
  json_w_raw(&r.w, ev.p, ev.len);
  Value obj;
  req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL);
  req_end(&r);
  h->config_ev = buf_str(&ev);
}

static void h_read(Prov *p, ProvCall *c, const ProvReadReq *req,
                   ProvReadResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, false);
  if (!b)
    return;
  Req r;
  req_begin(&r, p, c, "ReadResource", req->type_name);
  put_ev(&r, "current_state", req->current_state, b->implied);
  put_bytes(&r, "private", req->private_data);
  Value obj;
  if (req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL))
    ans_read(&r, obj, b, resp);
  req_end(&r);
}

static void h_plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                   ProvPlanResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, false);
  if (!b)
    return;
  Req r;
  req_begin(&r, p, c, "PlanResourceChange", req->type_name);
  put_ev(&r, "prior_state", req->prior_state, b->implied);
  put_ev(&r, "proposed_new_state", req->proposed_new_state, b->implied);
  put_ev(&r, "config", req->config, b->implied);
  put_bytes(&r, "prior_private", req->prior_private);
  Value obj;
  if (req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL))
    ans_plan(&r, obj, b, resp);
  req_end(&r);
}

static void h_apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                    ProvApplyResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, false);
  if (!b)
    return;
  Req r;
  req_begin(&r, p, c, "ApplyResourceChange", req->type_name);
  put_ev(&r, "prior_state", req->prior_state, b->implied);
  put_ev(&r, "planned_state", req->planned_state, b->implied);
  put_ev(&r, "config", req->config, b->implied);
  put_bytes(&r, "planned_private", req->planned_private);
  const char *key = req->idempotency_key;
  if (!key || !*key) {
    /* Without the engine's key, a random one still makes our own retries
    ** of this call safe. */
    uint8_t rnd[16];
    prov_random_bytes(rnd, sizeof rnd);
    char *k = ARENA_NEW(&r.scratch, char, 33);
    for (int i = 0; i < 16; i++)
      snprintf(k + 2 * i, 3, "%02x", rnd[i]);
    key = k;
  }
  Value obj;
  if (req_send(&r, HTTP_SAFE_TO_RETRY, key, NULL, &obj, NULL, NULL))
    ans_apply(&r, obj, b, resp);
  resp->answer_lost = r.lost;
  req_end(&r);
}

static void h_import(Prov *p, ProvCall *c, const ProvImportReq *req,
                     ProvImportResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, false);
  if (!b)
    return;
  Req r;
  req_begin(&r, p, c, "ImportResourceState", req->type_name);
  json_w_keyz(&r.w, "id");
  json_w_stringz(&r.w, req->id ? req->id : "");
  Value obj;
  if (req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL))
    ans_import(&r, obj, impl(p)->schema, resp);
  req_end(&r);
}

static void h_read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                        ProvReadDataResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->type_name, true);
  if (!b)
    return;
  Req r;
  req_begin(&r, p, c, "ReadDataSource", req->type_name);
  put_ev(&r, "config", req->config, b->implied);
  Value obj;
  if (req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL))
    ans_read_data(&r, obj, b, resp);
  req_end(&r);
}

/* MoveResourceState (a `moved` block across resource types):
** {"type_name": TARGET, "source_provider_address", "source_type_name",
** "source_schema_version", "source_state": the source object's attributes
** as they are in the state, "source_private"}.  A server without it
** answers 404 ("not_found"), which the user sees as a failed call. */
static void h_move(Prov *p, ProvCall *c, const ProvMoveReq *req,
                   ProvMoveResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = type_block(p, c, req->target_type, false);
  if (!b)
    return;
  Req r;
  req_begin(&r, p, c, "MoveResourceState", req->target_type);
  json_w_keyz(&r.w, "source_provider_address");
  json_w_stringz(&r.w, req->source_provider ? req->source_provider : "");
  json_w_keyz(&r.w, "source_type_name");
  json_w_stringz(&r.w, req->source_type ? req->source_type : "");
  json_w_keyz(&r.w, "source_schema_version");
  json_w_int(&r.w, req->source_schema_version);
  if (!put_raw_object(&r, "source_state", req->source_json,
                      req->source_len)) {
    diag_error(c->diags, NULL, "Unable to Move Resource State",
               "The state of the %s resource to move is not a JSON object.",
               req->source_type);
    req_end(&r);
    return;
  }
  put_bytes(&r, "source_private", req->source_private);
  Value obj;
  if (req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL))
    ans_move(&r, obj, b, resp);
  req_end(&r);
}

/* CallFunction: {"name", "arguments": [EV, ...]} (each argument encoded
** with its parameter's type) -> {"result": EV} or {"error": {"text",
** "function_argument"}}.  No provider_config: function instances are
** never configured. */
static void h_call_function(Prov *p, ProvCall *c, const ProvCallFuncReq *req,
                            ProvCallFuncResp *resp)
{
  const ProvProviderSchema *s = ensure_schema(p, c);
  if (!s)
    return;
  const ProvFunction *f = prov_schema_function(s, req->name);
  if (!f) {
    diag_error(c->diags, NULL, "Invalid function",
               "The provider %s has no function \"%s\".", p->addr,
               req->name);
    return;
  }
  Req r;
  req_begin(&r, p, c, "CallFunction", NULL);
  json_w_keyz(&r.w, "name");
  json_w_stringz(&r.w, req->name);
  json_w_keyz(&r.w, "arguments");
  json_w_begin_array(&r.w);
  Diags tmp;
  diag_init(&tmp, &r.scratch);
  for (uint32_t i = 0; i < req->nargs && !r.failed; i++) {
    const ProvFuncParam *pp = i < f->nparams ? &f->params[i] : f->variadic;
    if (!pp || !write_ev(&r.w, req->args[i], pp->type, &tmp)) {
      diag_error(c->diags, NULL, "Cannot encode provider request",
                 "Argument %u of function \"%s\" to provider \"%s\" cannot "
                 "be encoded%s%s.", (unsigned)i + 1, req->name, p->addr,
                 tmp.head ? ": " : "", tmp.head ? tmp.head->summary : "");
      r.failed = true;
    }
  }
  json_w_end_array(&r.w);
  Value obj;
  if (req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL))
    ans_call_function(&r, obj, f, resp);
  req_end(&r);
}

static const char *h_stop(Prov *p, ProvCall *c)
{
  atomic_store(&p->stopping, true);
  Req r;
  req_begin(&r, p, c, "StopProvider", NULL);
  Value obj;
  const char *err = NULL;
  Diags tmp;
  diag_init(&tmp, c->arena);
  ProvCall c2 = {c->arena, &tmp, NULL};
  r.c = &c2;
  if (!req_send(&r, 0, NULL, NULL, &obj, NULL, NULL))
    err = tmp.head ? arena_strdup(c->arena, tmp.head->detail)
                   : "StopProvider failed";
  else if (!get_string(&r, obj, "error", &err))
    err = tmp.head ? arena_strdup(c->arena, tmp.head->detail) : NULL;
  req_end(&r);
  return err;
}

static void h_close(Prov *p)
{
  Phttps *h = impl(p);
  for (Slot *s = h->all; s; s = s->next)
    http_client_close(s->client);
  h->all = h->free = NULL;
  arena_release(&h->carena);
  pthread_mutex_destroy(&h->mu);
  pthread_mutex_destroy(&h->smu);
}

/* ---- ephemeral resources --------------------------------------------------
** ValidateEphemeralResourceConfig {"type_name", "config"}, OpenEphemeral-
** Resource {"type_name", "config"} -> {"result", "private", "renew_at"},
** RenewEphemeralResource {"type_name", "private"} -> {"private",
** "renew_at"}, CloseEphemeralResource {"type_name", "private"}. */

static const ProvBlockSchema *eph_block(Prov *p, ProvCall *c,
                                        const char *type_name)
{
  const ProvProviderSchema *s = ensure_schema(p, c);
  if (!s)
    return NULL;
  const ProvTypeSchema *ts = prov_schema_ephemeral(s, type_name);
  if (!ts) {
    diag_error(c->diags, NULL, "Invalid ephemeral resource type",
               "The provider %s does not support ephemeral resource type "
               "\"%s\".", p->addr, type_name);
    return NULL;
  }
  return ts->schema.block;
}

static void h_validate_eph(Prov *p, ProvCall *c, const char *type_name,
                           Value config)
{
  const ProvBlockSchema *b = eph_block(p, c, type_name);
  if (b)
    validate_common(p, c, "ValidateEphemeralResourceConfig", type_name, b,
                    config);
}

static void h_open_eph(Prov *p, ProvCall *c, const ProvOpenEphReq *req,
                       ProvOpenEphResp *resp)
{
  memset(resp, 0, sizeof *resp);
  const ProvBlockSchema *b = eph_block(p, c, req->type_name);
  if (!b)
    return;
  Req r;
  req_begin(&r, p, c, "OpenEphemeralResource", req->type_name);
  Value obj;
  if (put_ev(&r, "config", req->config, b->implied) &&
      req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL))
    ans_open_eph(&r, obj, b, resp);
  req_end(&r);
}

/* Renew (resp != NULL) or Close. */
static void eph_call(Prov *p, ProvCall *c, const char *call,
                     const ProvEphReq *req, ProvRenewEphResp *resp)
{
  Req r;
  req_begin(&r, p, c, call, req->type_name);
  put_bytes(&r, "private", req->private_data);
  Value obj;
  if (req_send(&r, HTTP_SAFE_TO_RETRY, NULL, NULL, &obj, NULL, NULL) && resp)
    ans_renew_eph(&r, obj, resp);
  req_end(&r);
}

static void h_renew_eph(Prov *p, ProvCall *c, const ProvEphReq *req,
                        ProvRenewEphResp *resp)
{
  memset(resp, 0, sizeof *resp);
  eph_call(p, c, "RenewEphemeralResource", req, resp);
}

static void h_close_eph(Prov *p, ProvCall *c, const ProvEphReq *req)
{
  eph_call(p, c, "CloseEphemeralResource", req, NULL);
}

static const ProvEphOps phttps_eph = {h_validate_eph, h_open_eph, h_renew_eph,
                                      h_close_eph};

static const ProvOps phttps_ops = {
    h_get_schema,  h_validate_provider, h_validate_resource, h_validate_data,
    h_upgrade,     h_configure,         h_read,              h_plan,
    h_apply,       h_import,            h_read_data,         h_stop,
    h_close,       h_call_function,
    h_move,        &phttps_eph};

/* ---- endpoint from the host configuration ------------------------------ */

bool phttps_endpoint(Arena *a, const HcfgProvider *hp, HttpEndpoint *e,
                     Diags *d)
{
  http_endpoint_init(e, a);
  e->url = hp->endpoint;
  e->ca_file = hp->ca_file;
  e->ca_dir = hp->ca_dir;
  e->client_cert = hp->client_cert;
  e->client_key = hp->client_key;
  e->pinned_pubkey = hp->pin_sha256;
  e->resolve = hp->resolve;
  if (hp->connect_timeout_ms > 0)
    e->connect_timeout_ms = hp->connect_timeout_ms;
  if (hp->timeout_ms > 0)
    e->timeout_ms = hp->timeout_ms;
  if (hp->retries >= 0)
    e->max_retries = hp->retries;
  if (hp->rate_limit > 0)
    e->rate_limit = hp->rate_limit;
  if (hp->max_response_bytes)
    e->max_response = hp->max_response_bytes;
  e->insecure_http = hp->insecure_http;
  const char *tok;
  if (!hcfg_token(a, hp, &tok, d))
    return false;
  e->bearer_token = tok;
  if (!e->url) {
    diag_error(d, NULL, "Missing provider endpoint",
               "The host configuration has no endpoint for \"%s\".",
               hp->source);
    return false;
  }
  return http_endpoint_check(e, d);
}

/* ---- decoding without the network --------------------------------------- */

bool phttps_decode_answer(ProvCall *c, const char *addr,
                          const ProvProviderSchema *s, const char *call,
                          const char *type_name, const char *body,
                          size_t len)
{
  Phttps h = {0};
  Prov p = {0};
  p.ops = &phttps_ops;
  p.addr = addr;
  p.impl = &h;
  p.arena = c->arena;
  bool data = strcmp(call, "ReadDataSource") == 0;
  bool eph = strstr(call, "EphemeralResource") != NULL;
  const ProvTypeSchema *ts = NULL;
  if (s && type_name)
    ts = data ? prov_schema_data_source(s, type_name)
         : eph ? prov_schema_ephemeral(s, type_name)
               : prov_schema_resource(s, type_name);
  const ProvBlockSchema *b = ts ? ts->schema.block
                                : s ? s->provider.block : NULL;
  Req r;
  req_begin(&r, &p, c, call, ts ? type_name : NULL);
  const char *path = arena_printf(&r.scratch, "/%s", call);
  Value obj;
  bool ok = answer_parse(&r, path, body, len, 0, c->arena, &obj);
  if (ok && strcmp(call, "GetProviderSchema") == 0) {
    const char *err, *where;
    ProvProviderSchema *ps;
    if (!decode_schema_value(c->arena, obj, &ps, &err, &where))
      bad_answer(&r, "%s%s%s", err, *where ? " at " : "", where);
  } else if (ok && strcmp(call, "StopProvider") == 0) {
    const char *err;
    get_string(&r, obj, "error", &err);
  } else if (ok && b) {
    if (strcmp(call, "UpgradeResourceState") == 0) {
      ProvUpgradeResp resp = {0};
      ans_upgrade(&r, obj, b, &resp);
    } else if (strcmp(call, "ReadResource") == 0) {
      ProvReadResp resp = {0};
      ans_read(&r, obj, b, &resp);
    } else if (strcmp(call, "PlanResourceChange") == 0) {
      ProvPlanResp resp = {0};
      ans_plan(&r, obj, b, &resp);
    } else if (strcmp(call, "ApplyResourceChange") == 0) {
      ProvApplyResp resp = {0};
      ans_apply(&r, obj, b, &resp);
    } else if (strcmp(call, "ImportResourceState") == 0) {
      ProvImportResp resp = {0};
      ans_import(&r, obj, s, &resp);
    } else if (strcmp(call, "MoveResourceState") == 0) {
      ProvMoveResp resp = {{0}, {0}};
      ans_move(&r, obj, b, &resp);
    } else if (strcmp(call, "OpenEphemeralResource") == 0) {
      ProvOpenEphResp resp;
      memset(&resp, 0, sizeof resp);
      ans_open_eph(&r, obj, b, &resp);
    } else if (strcmp(call, "RenewEphemeralResource") == 0) {
      ProvRenewEphResp resp = {{0}, 0};
      ans_renew_eph(&r, obj, &resp);
    } else if (data) {
      ProvReadDataResp resp = {0};
      ans_read_data(&r, obj, b, &resp);
    }
  }
  if (ok && s && type_name && strcmp(call, "CallFunction") == 0) {
    const ProvFunction *f = prov_schema_function(s, type_name);
    ProvCallFuncResp resp = {0};
    if (f)
      ans_call_function(&r, obj, f, &resp);
  }
  ok = !r.failed;
  req_end(&r);
  return ok;
}

/* ---- the encoding, for the server side (net/gateway) -------------------- */

bool phttps_ev_write(JsonW *w, Value v, const Type *t, Diags *d)
{
  return write_ev(w, v, t, d);
}

bool phttps_ev_decode(Arena *a, Arena *scratch, Value ev, const Type *t,
                      Value *out, const char **why)
{
  *out = (Value){0};
  *why = NULL;
  if (is_absent(ev))
    return true;
  if (!is_obj(ev) || !jget(ev, "value").type) {
    *why = "an encoded value must be an object {\"value\": ..., "
           "\"unknown\": ...}";
    return false;
  }
  Dec D = {a, scratch, {0}, NULL, 0};
  buf_init(&D.path, scratch);
  if (!dec(&D, jget(ev, "value"), jget(ev, "unknown"), t, out)) {
    *out = (Value){0};
    *why = arena_printf(scratch, "%s%s", D.err,
                        D.path.len ? arena_printf(scratch, " (at %s)",
                                                  buf_str(&D.path))
                                   : "");
    return false;
  }
  return true;
}
