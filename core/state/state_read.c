/*
** state_read.c: reading Terraform's v4 state file (st_read) with its
** validation and messages, and applying one apply-journal record to a
** state (st_rec_apply), which decodes instances the same way.
*/
#include "state_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/json.h"

/* ---- Reading ------------------------------------------------------------- */

#define RD_MEMO 16

typedef struct Rd {
  Arena *a;           /* the parsed tree and scratch */
  const char *name;
  Diags *d;
  bool failed;
  Arena *sa;          /* what the state keeps */
  StCopier *cp;       /* copies from a into sa; NULL when a is sa */
  const char *const *last_deps;  /* the last dependency list kept */
  uint32_t last_ndeps;
  pthread_mutex_t *smu;  /* records: held only while the State changes */
  Arena *own;         /* records: the State's arena, while sa stands in */
  const Type *memo_type;     /* the object type memo[] indexes */
  struct {
    const char *name;        /* a field name literal of this file */
    int idx;                 /* its index in memo_type, or -1 */
  } memo[RD_MEMO];
  uint32_t nmemo;
} Rd;

/* Field look-ups by name, memoised by (object type, name pointer): the
** parser interns object types, so the thousands of instance objects of a
** state share one type, and each field's index is found once instead of
** by name for every instance.  An Rd reads one parsed tree, which lives
** as long as the Rd: a type's address cannot be reused meanwhile. */
static Value rd_get(Rd *r, Value obj, const char *name, bool *found)
{
  if (!obj.type || obj.type->kind != TY_OBJECT ||
      (obj.flags & (VF_NULL | VF_UNKNOWN)))
    return st_get(obj, name, found);
  if (obj.type != r->memo_type) {
    r->memo_type = obj.type;
    r->nmemo = 0;
  }
  int idx = -2;
  for (uint32_t i = 0; i < r->nmemo; i++)
    if (r->memo[i].name == name) {
      idx = r->memo[i].idx;
      break;
    }
  if (idx == -2) {
    idx = ty_attr_index(obj.type, name);
    if (r->nmemo < RD_MEMO) {
      r->memo[r->nmemo].name = name;
      r->memo[r->nmemo++].idx = idx;
    }
  }
  if (found)
    *found = idx >= 0;
  return idx >= 0 ? obj.u.elems[idx] : val_dynamic_null;
}

/* v as the state keeps it: a copy in the state's arena when the tree is
** scratch. */
static Value keep(Rd *r, Value v)
{
  return r->cp ? st_copy_value(r->cp, v) : v;
}

static const char *keep_str(Rd *r, const char *s, size_t n)
{
  return r->cp ? st_copy_str(r->cp, s, n) : s;
}

static void rd_err(Rd *r, const char *summary, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void rd_err(Rd *r, const char *summary, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->failed = true;
  diag_error(r->d, NULL, summary, "%s\n\nState file: %s", msg, r->name);
}

/* Go's name for a JSON value in UnmarshalTypeError.Value. */
static const char *json_kind(Arena *a, Value v)
{
  if (val_is_null(v))
    return "null";
  switch (v.type->kind) {
  case TY_STRING:
    return "string";
  case TY_BOOL:
    return "bool";
  case TY_TUPLE:
    return "array";
  case TY_OBJECT:
    return "object";
  case TY_NUMBER: {
    Buf b;
    buf_init(&b, a);
    buf_puts(&b, "number ");
    val_num_format(&b, v);
    return buf_str(&b);
  }
  default:
    return "value";
  }
}

static void field_err(Rd *r, const char *field, Value v)
{
  rd_err(r, "Invalid state file format",
         "The state file field \"%s\" has invalid value %s", field,
         json_kind(r->a, v));
}

/* A uint64 field; absent or null leaves *out at 0. */
static bool get_u64(Rd *r, Value obj, const char *name, const char *field,
                    uint64_t *out)
{
  Value v = rd_get(r, obj, name, NULL);
  *out = 0;
  if (val_is_null(v))
    return true;
  int64_t i;
  if (v.type->kind != TY_NUMBER || !val_num_int(v, &i) || i < 0) {
    if (v.type->kind == TY_NUMBER && !(v.flags & VF_FLOAT)) {
      /* A big literal that still fits in uint64. */
      Buf b;
      buf_init(&b, r->a);
      val_num_format(&b, v);
      const char *s = buf_str(&b);
      if (*s >= '0' && *s <= '9' && !strchr(s, '.')) {
        errno = 0;
        char *e;
        unsigned long long u = strtoull(s, &e, 10);
        if (!*e && errno == 0) {
          *out = u;
          return true;
        }
      }
    }
    field_err(r, field, v);
    return false;
  }
  *out = (uint64_t)i;
  return true;
}

static const char *get_str(Rd *r, Value obj, const char *name,
                           const char *field, bool *ok)
{
  Value v = rd_get(r, obj, name, NULL);
  if (val_is_null(v))
    return "";
  if (v.type->kind != TY_STRING) {
    field_err(r, field, v);
    *ok = false;
    return "";
  }
  return v.u.s;
}

static bool get_bool(Rd *r, Value obj, const char *name, const char *field,
                     bool *out)
{
  Value v = rd_get(r, obj, name, NULL);
  *out = false;
  if (val_is_null(v))
    return true;
  if (v.type->kind != TY_BOOL) {
    field_err(r, field, v);
    return false;
  }
  *out = v.u.b;
  return true;
}

static bool semver_ok(const char *s)
{
  /* go-version: optional "v", 1-3+ dot-separated numbers, optional
  ** -prerelease and +metadata. */
  if (*s == 'v')
    s++;
  int parts = 0;
  for (;;) {
    if (!(*s >= '0' && *s <= '9'))
      return false;
    while (*s >= '0' && *s <= '9')
      s++;
    parts++;
    if (*s != '.')
      break;
    s++;
  }
  if (*s == '-' || *s == '+') {
    s++;
    if (!*s)
      return false;
    for (; *s; s++)
      if (!st_is_id_cont((unsigned char)*s) && *s != '.' && *s != '+')
        return false;
  }
  return *s == 0 && parts >= 1;
}

static bool read_paths(Rd *r, Value v, StObject *o)
{
  if (val_is_null(v))
    return true;
  if (!st_is_arr(v)) {
    rd_err(r, "Error unmarshaling path steps",
           "json: cannot unmarshal %s into Go value of type "
           "[][]statefile.pathStep",
           json_kind(r->a, v));
    return false;
  }
  ValPath *paths = ARENA_NEW(r->sa, ValPath, v.len);
  uint32_t np = 0;
  for (uint32_t i = 0; i < v.len; i++) {
    Value p = v.u.elems[i];
    if (val_is_null(p)) {
      paths[np].steps = NULL;
      paths[np++].n = 0;
      continue;
    }
    if (!st_is_arr(p)) {
      rd_err(r, "Error unmarshaling path steps",
             "json: cannot unmarshal %s into Go value of type "
             "[]statefile.pathStep",
             json_kind(r->a, p));
      return false;
    }
    PathStep *steps = ARENA_NEW(r->sa, PathStep, p.len);
    for (uint32_t k = 0; k < p.len; k++) {
      Value st = p.u.elems[k];
      if (!st_is_obj(st)) {
        rd_err(r, "Error unmarshaling path steps",
               "json: cannot unmarshal %s into Go value of type "
               "statefile.pathStep",
               json_kind(r->a, st));
        return false;
      }
      Value ty = st_get(st, "type", NULL), val = st_get(st, "value", NULL);
      const char *tn = st_is_str(ty) ? ty.u.s : "";
      if (strcmp(tn, "get_attr") == 0) {
        if (!st_is_str(val)) {
          rd_err(r, "Error unmarshaling path step",
                 "Failed to unmarshal get attr step name: json: cannot "
                 "unmarshal %s into Go value of type string",
                 json_kind(r->a, val));
          return false;
        }
        steps[k].kind = PS_ATTR;
        steps[k].name = keep_str(r, val.u.s, val.len);
      } else if (strcmp(tn, "index") == 0) {
        Value kv = st_is_obj(val) ? st_get(val, "value", NULL)
                                  : val_dynamic_null;
        Value kt = st_is_obj(val) ? st_get(val, "type", NULL)
                                  : val_dynamic_null;
        const char *ktn = st_is_str(kt) ? kt.u.s : "";
        int64_t idx;
        if (strcmp(ktn, "string") == 0 && st_is_str(kv)) {
          steps[k].kind = PS_KEY;
          steps[k].name = keep_str(r, kv.u.s, kv.len);
        } else if (strcmp(ktn, "number") == 0 && !val_is_null(kv) &&
                   kv.type->kind == TY_NUMBER && val_num_int(kv, &idx)) {
          steps[k].kind = PS_INDEX;
          steps[k].index = idx;
        } else {
          rd_err(r, "Error unmarshaling path step",
                 "Failed to unmarshal index step key: cairn supports only "
                 "string and whole-number index keys in "
                 "sensitive_attributes");
          return false;
        }
      } else {
        rd_err(r, "Unsupported path step", "Unsupported path step type \"%s\"",
               tn);
        return false;
      }
    }
    paths[np].steps = steps;
    paths[np++].n = p.len;
  }
  o->sensitive = paths;
  o->nsensitive = np;
  return true;
}

/* Decodes the object fields of an instance entry (or of a journal
** record's "object").  inst names the instance for messages. */
static bool read_object(Rd *r, Value iv, StObject *o, const char *inst)
{
  bool ok = true;
  memset(o, 0, sizeof *o);
  o->attrs_flat = val_dynamic_null;
  o->identity = val_dynamic_null;
  if (!get_u64(r, iv, "schema_version", "resources.instances.schema_version",
               &o->schema_version))
    return false;
  bool fa, ff;
  Value attrs = rd_get(r, iv, "attributes", &fa);
  Value flat = rd_get(r, iv, "attributes_flat", &ff);
  if (fa && !val_is_null(attrs)) {
    o->attrs = keep(r, attrs);
  } else if (ff && !val_is_null(flat)) {
    if (!st_is_obj(flat)) {
      field_err(r, "resources.instances.attributes_flat", flat);
      return false;
    }
    for (uint32_t i = 0; i < flat.type->n; i++) {
      if (!st_is_str(flat.u.elems[i])) {
        field_err(r, "resources.instances.attributes_flat",
                  flat.u.elems[i]);
        return false;
      }
    }
    o->attrs = val_dynamic_null;
    o->attrs_flat = keep(r, flat);
  } else if (fa) {
    o->attrs = keep(r, attrs); /* explicit null, kept */
  } else {
    o->attrs.type = &ty_empty_object;
    o->attrs.flags = 0;
  }
  if (!read_paths(r, rd_get(r, iv, "sensitive_attributes", NULL), o))
    return false;
  const char *status = get_str(r, iv, "status", "resources.instances.status",
                               &ok);
  if (!ok)
    return false;
  if (strcmp(status, "tainted") == 0) {
    o->status = ST_TAINTED;
  } else if (*status) {
    rd_err(r, "Invalid resource instance metadata in state",
           "Instance %s has invalid status \"%s\".", inst, status);
    return false;
  }
  Value priv = rd_get(r, iv, "private", NULL);
  if (!val_is_null(priv)) {
    if (!st_is_str(priv)) {
      field_err(r, "resources.instances.private", priv);
      return false;
    }
    uint8_t *p;
    size_t pn, bad;
    if (!b64_decode(r->sa, priv.u.s, priv.len, &p, &pn, &bad)) {
      rd_err(r, "Invalid state file format",
             "The state file does not conform to the expected JSON data "
             "structure: illegal base64 data at input byte %zu.",
             bad);
      return false;
    }
    o->priv = p;
    o->priv_len = pn;
  }
  Value deps = rd_get(r, iv, "dependencies", NULL);
  if (!val_is_null(deps)) {
    if (!st_is_arr(deps)) {
      field_err(r, "resources.instances.dependencies", deps);
      return false;
    }
    for (uint32_t i = 0; i < deps.len; i++) {
      if (!st_is_str(deps.u.elems[i])) {
        field_err(r, "resources.instances.dependencies", deps.u.elems[i]);
        return false;
      }
    }
    /* The instances of a resource mostly have the same dependencies:
    ** they share one list (objects are immutable, state.h). */
    bool same = r->cp && r->last_deps && r->last_ndeps == deps.len;
    for (uint32_t i = 0; same && i < deps.len; i++)
      same = strcmp(r->last_deps[i], deps.u.elems[i].u.s) == 0;
    if (!same) {
      const char **dv = ARENA_NEW(r->sa, const char *, deps.len);
      for (uint32_t i = 0; i < deps.len; i++)
        dv[i] = r->cp ? st_copy_dep(r->cp, deps.u.elems[i].u.s)
                      : deps.u.elems[i].u.s;
      r->last_deps = dv;
      r->last_ndeps = deps.len;
    }
    o->deps = r->last_deps;
    o->ndeps = deps.len;
  }
  if (!get_bool(r, iv, "create_before_destroy",
                "resources.instances.create_before_destroy",
                &o->create_before_destroy))
    return false;
  if (!get_u64(r, iv, "identity_schema_version",
               "resources.instances.identity_schema_version",
               &o->identity_schema_version))
    return false;
  bool fi;
  Value ident = rd_get(r, iv, "identity", &fi);
  if (fi && !val_is_null(ident)) {
    o->has_identity = true;
    o->identity = keep(r, ident);
  }
  return true;
}

/* Legacy provider strings (0.12: provider.aws, module.x.provider.aws.b)
** become the legacy namespace "-", as Terraform does. */
static const char *normalize_provider(Arena *a, const char *p)
{
  if (strstr(p, "provider[") || !*p)
    return p;
  const char *q = strstr(p, "provider.");
  if (!q || (q != p && q[-1] != '.'))
    return p;
  const char *name = q + 9;
  const char *dot = strchr(name, '.');
  Buf b;
  buf_init(&b, a);
  buf_puts(&b, "provider[\"registry.terraform.io/-/");
  buf_put(&b, name, dot ? (size_t)(dot - name) : strlen(name));
  buf_puts(&b, "\"]");
  if (dot)
    buf_puts(&b, dot);
  return buf_str(&b);
}

static bool read_key(Rd *r, Value kv, StKey *k, const char *raddr)
{
  if (val_is_null(kv)) {
    *k = st_nokey();
    return true;
  }
  if (kv.type->kind == TY_STRING) {
    k->kind = ST_STRKEY;
    k->s = kv.u.s;   /* st_ensure_instance copies it */
    k->slen = kv.len;
    k->i = 0;
    return true;
  }
  if (kv.type->kind == TY_NUMBER) {
    /* Go decodes into float64 and truncates toward zero. */
    double dv = val_num_double(kv);
    if (dv >= -9.2e18 && dv <= 9.2e18) {
      *k = st_intkey((int64_t)dv);
      return true;
    }
  }
  Buf b;
  buf_init(&b, r->a);
  json_write_value(&b, kv, NULL, 0, r->d);
  rd_err(r, "Invalid resource instance metadata in state",
         "Resource %s has an instance with the invalid instance key %s.",
         raddr, buf_str(&b));
  return false;
}

static bool read_outputs(Rd *r, State *s, Value outs)
{
  if (val_is_null(outs))
    return true;
  if (!st_is_obj(outs)) {
    field_err(r, "outputs", outs);
    return false;
  }
  for (uint32_t i = 0; i < outs.type->n; i++) {
    const char *name = outs.type->names[i];
    Value o = outs.u.elems[i];
    if (!st_is_obj(o)) {
      field_err(r, "outputs", o);
      continue;
    }
    bool sens;
    if (!get_bool(r, o, "sensitive", "outputs.sensitive", &sens))
      continue;
    Diags td;
    diag_init(&td, r->a);
    const Type *ty;
    if (!json_type_from_value(r->a, st_get(o, "type", NULL), &ty, &td, NULL)) {
      rd_err(r, "Invalid output value type in state",
             "The state file has an invalid type specification for output "
             "\"%s\": %s.",
             name, td.head ? td.head->summary : "invalid type");
      continue;
    }
    Value v;
    if (!json_value_typed(r->a, st_get(o, "value", NULL), ty, &v, &td, NULL)) {
      rd_err(r, "Invalid output value saved in state",
             "The state file has an invalid value for output \"%s\": %s.",
             name, td.head ? td.head->summary : "invalid value");
      continue;
    }
    st_set_output(s, keep_str(r, name, strlen(name)), keep(r, v),
                  r->cp ? st_copy_type(r->cp, ty) : ty, sens);
  }
  return !r->failed;
}

static bool read_v4(Rd *r, Value root, State *s)
{
  bool ok = true;
  const char *tfv = get_str(r, root, "terraform_version",
                            "terraform_version", &ok);
  if (!ok)
    return false;
  if (*tfv && !semver_ok(tfv))
    rd_err(r, "Invalid Terraform version string",
           "State file claims to have been written by Terraform version "
           "\"%s\", which is not a valid version string.",
           tfv);
  s->terraform_version = keep_str(r, tfv, strlen(tfv));
  if (!get_u64(r, root, "serial", "serial", &s->serial))
    return false;
  const char *lin = get_str(r, root, "lineage", "lineage", &ok);
  if (!ok)
    return false;
  s->lineage = keep_str(r, lin, strlen(lin));
  read_outputs(r, s, st_get(root, "outputs", NULL));
  Value cr = st_get(root, "check_results", NULL);
  if (!val_is_null(cr) && !st_is_arr(cr)) {
    field_err(r, "check_results", cr);
    return false;
  }
  s->check_results = keep(r, cr);
  Value res = st_get(root, "resources", NULL);
  if (val_is_null(res))
    return !r->failed;
  if (!st_is_arr(res)) {
    field_err(r, "resources", res);
    return false;
  }
  /* The tables sized once from the file (tables that double leave each
  ** outgrown array in the state's arena). */
  uint64_t total = 0;
  for (uint32_t i = 0; i < res.len; i++) {
    Value iv = st_is_obj(res.u.elems[i])
                   ? st_get(res.u.elems[i], "instances", NULL)
                   : val_dynamic_null;
    total += st_is_arr(iv) ? iv.len : 0;
  }
  st_reserve(s, NULL, total > UINT32_MAX ? UINT32_MAX : (uint32_t)total);
  Buf ab;
  buf_init(&ab, r->a);
  for (uint32_t i = 0; i < res.len; i++) {
    Value rv = res.u.elems[i];
    if (!st_is_obj(rv)) {
      field_err(r, "resources", rv);
      return false;
    }
    const char *module = get_str(r, rv, "module", "resources.module", &ok);
    const char *mode = get_str(r, rv, "mode", "resources.mode", &ok);
    const char *type = get_str(r, rv, "type", "resources.type", &ok);
    const char *name = get_str(r, rv, "name", "resources.name", &ok);
    const char *prov = get_str(r, rv, "provider", "resources.provider", &ok);
    get_str(r, rv, "each", "resources.each", &ok);
    if (!ok)
      return false;
    StMode m;
    if (strcmp(mode, "managed") == 0) {
      m = ST_MANAGED;
    } else if (strcmp(mode, "data") == 0) {
      m = ST_DATA;
    } else {
      rd_err(r, "Invalid resource mode in state",
             "State contains a resource with mode \"%s\" (\"%s\" \"%s\") "
             "which is not supported.",
             mode, type, name);
      continue;
    }
    const char *nmod = "";
    if (*module && !st_parse_module(r->a, module, &nmod)) {
      rd_err(r, "Invalid module instance address",
             "The state file has a resource in module \"%s\", which is not "
             "a valid module instance address.",
             module);
      continue;
    }
    StResource *sr = st_ensure_resource(s, nmod, m, type, name,
                                        normalize_provider(r->a, prov));
    Value insts = st_get(rv, "instances", NULL);
    if (val_is_null(insts))
      continue;
    if (!st_is_arr(insts)) {
      field_err(r, "resources.instances", insts);
      return false;
    }
    st_reserve(s, sr, insts.len);
    for (uint32_t k = 0; k < insts.len; k++) {
      Value iv = insts.u.elems[k];
      if (!st_is_obj(iv)) {
        field_err(r, "resources.instances", iv);
        return false;
      }
      StKey key;
      if (!read_key(r, rd_get(r, iv, "index_key", NULL), &key, sr->addr))
        continue;
      buf_clear(&ab);
      st_format_instance(&ab, sr, key);
      const char *iaddr = arena_strndup(r->a, ab.p, ab.len);
      StObject *o = ARENA_NEW(s->arena, StObject, 1);
      if (!read_object(r, iv, o, iaddr))
        continue;
      const char *dk = get_str(r, iv, "deposed", "resources.instances.deposed",
                               &ok);
      if (!ok)
        return false;
      StInstance *in = st_find_instance(s, sr, key);
      if (*dk) {
        if (strlen(dk) != 8) {
          rd_err(r, "Invalid resource instance metadata in state",
                 "Instance %s has an object with deposed key \"%s\", which "
                 "is not correctly formatted.",
                 iaddr, dk);
          continue;
        }
        if (in && st_get_deposed(in, dk)) {
          rd_err(r, "Duplicate resource instance in state",
                 "Instance %s deposed object \"%s\" appears multiple times "
                 "in the state file.",
                 iaddr, dk);
          continue;
        }
        st_set_deposed(s, sr, key, dk, o);
      } else {
        if (in && in->current) {
          rd_err(r, "Duplicate resource instance in state",
                 "Instance %s appears multiple times in the state file.",
                 iaddr);
          continue;
        }
        st_set_current(s, sr, key, o);
      }
    }
  }
  return !r->failed;
}

/* st_read on a scratch arena a for the tree; the state goes in sa. */
static bool read_file(Arena *a, Arena *sa, const char *name, const char *src,
                      size_t n, State **out, Diags *d)
{
  Rd r = {a, name, d, false, sa, st_copier_new(a, sa), NULL, 0,
          NULL, NULL, NULL, {{NULL, 0}}, 0};
  if (n > ST_MAX_FILE_BYTES) {
    rd_err(&r, "State file too large",
           "The state file is %zu bytes; cairn reads state files of up to "
           "%zu bytes.",
           n, ST_MAX_FILE_BYTES);
    return false;
  }
  if (n >= 7 && memcmp(src, "tfstate", 7) == 0) {
    rd_err(&r, "Unsupported state file format",
           "The state is stored in a legacy binary format that is not "
           "supported since Terraform v0.7. To continue, first upgrade the "
           "state using Terraform 0.6.16 or earlier.");
    return false;
  }
  Diags jd;
  diag_init(&jd, a);
  Value root;
  JsonOpts jo = {name, ST_MAX_FILE_BYTES, 0, 0};
  if (!json_parse(a, src, n, &root, &jd, &jo)) {
    const Diag *g = jd.head;
    SrcRange at = g ? g->subject : (SrcRange){0};
    Diag *e = diag_error(d, at.file ? &at : NULL,
                         "Unsupported state file format",
                         "The state file could not be parsed as JSON: "
                         "syntax error at byte offset %u.\n\n%s: %s",
                         at.start.byte, name, g ? g->summary : "");
    (void)e;
    return false;
  }
  if (!st_is_obj(root)) {
    rd_err(&r, "Unsupported state file format",
           "The version in the state file is %s. A positive whole number is "
           "required.",
           json_kind(a, root));
    return false;
  }
  bool has_version;
  Value ver = st_get(root, "version", &has_version);
  if (!has_version || val_is_null(ver)) {
    rd_err(&r, "Unsupported state file format",
           "The state file does not have a \"version\" attribute, which is "
           "required to identify the format version.");
    return false;
  }
  int64_t v;
  if (ver.type->kind != TY_NUMBER || !val_num_int(ver, &v) || v < 0) {
    rd_err(&r, "Unsupported state file format",
           "The version in the state file is %s. A positive whole number is "
           "required.",
           json_kind(a, ver));
    return false;
  }
  if (v == 0) {
    rd_err(&r, "Unsupported state file format",
           "The state file uses JSON syntax but has a version number of "
           "zero. There was never a JSON-based state format zero, so this "
           "state file is invalid and cannot be processed.");
    return false;
  }
  if (v < 4) {
    rd_err(&r, "Unsupported state file format",
           "The state file uses format version %lld, which was written by "
           "Terraform v0.11 or earlier. cairn reads format version 4 "
           "(Terraform v0.12 and later) only. To upgrade the file, run any "
           "state-writing command on it (for example \"terraform apply "
           "-refresh-only\") with Terraform v0.12 through v1.x, then try "
           "again.",
           (long long)v);
    return false;
  }
  if (v > 4) {
    Value tv = st_get(root, "terraform_version", NULL);
    if (st_is_str(tv) && semver_ok(tv.u.s))
      rd_err(&r, "Unsupported state file format",
             "The state file uses format version %lld, which is not "
             "supported by cairn %s. This state file was created by "
             "Terraform %s.",
             (long long)v, CAIRN_VERSION, tv.u.s);
    else
      rd_err(&r, "Unsupported state file format",
             "The state file uses format version %lld, which is not "
             "supported by cairn %s. This state file may have been created "
             "by a newer version of Terraform.",
             (long long)v, CAIRN_VERSION);
    return false;
  }
  State *s = st_new(sa);
  if (!read_v4(&r, root, s))
    return false;
  *out = s;
  return true;
}

bool st_read(Arena *a, const char *name, const char *src, size_t n,
             State **out, Diags *d)
{
  *out = NULL;
  if (n == 0)
    return true;
  /* The parsed tree is scratch: the state keeps copies of the parts it
  ** holds (state_copy.c), and the tree's bytes go back at once. */
  Arena scratch;
  arena_init(&scratch, 0);
  bool ok = read_file(&scratch, a, name, src, n, out, d);
  arena_release(&scratch);
  return ok;
}

/* ---- Journal records ----------------------------------------------------- */

static bool rec_err(Diags *d, const char *what)
{
  diag_error(d, NULL, "Invalid state journal record", "%s", what);
  return false;
}

/* A record changes the State between these two: under r->smu (the
** caller's lock on the State), with s->arena standing for r->sa, so what
** the change allocates lives where the record's copies do.  Decoding and
** copying happen before, outside the lock. */
static void change_begin(Rd *r, State *s)
{
  if (r->smu)
    pthread_mutex_lock(r->smu);
  r->own = s->arena;
  s->arena = r->sa;
}

static void change_end(Rd *r, State *s)
{
  s->arena = r->own;
  if (r->smu)
    pthread_mutex_unlock(r->smu);
}

/* st_rec_apply with the record's tree in the scratch arena t: r copies
** into r->sa what the state and *info keep. */
static bool rec_apply(Rd *r, Arena *t, State *s,
                      const char *payload, size_t n, StRecInfo *info,
                      Diags *d)
{
  memset(info, 0, sizeof *info);
  Value v;
  Diags jd;
  diag_init(&jd, t);
  JsonOpts jo = {"journal record", 0, 0, 0};
  if (!json_parse(t, payload, n, &v, &jd, &jo) || !st_is_obj(v))
    return rec_err(d, "The record is not a JSON object.");
  bool found;
  Value j = st_get(v, "journal", &found);
  if (found) {
    Value lin = st_get(v, "lineage", NULL);
    Value ser = st_get(v, "serial", NULL);
    int64_t sv;
    if (!st_is_str(lin) || val_is_null(ser) || ser.type->kind != TY_NUMBER ||
        !val_num_int(ser, &sv) || sv < 0 || val_is_null(j))
      return rec_err(d, "The journal header is malformed.");
    info->kind = ST_REC_HEADER;
    info->lineage = keep_str(r, lin.u.s, lin.len);
    info->serial = (uint64_t)sv;
    return true;
  }
  Value opv = st_get(v, "op", NULL);
  const char *op = st_is_str(opv) ? opv.u.s : "";
  if (strcmp(op, "intent") == 0 || strcmp(op, "resolve") == 0) {
    Value id = st_get(v, "id", NULL);
    if (!st_is_str(id))
      return rec_err(d, "An intent record has no id.");
    info->kind = op[0] == 'i' ? ST_REC_INTENT : ST_REC_RESOLVE;
    info->intent_id = keep_str(r, id.u.s, id.len);
    Value addr = st_get(v, "addr", NULL), tm = st_get(v, "time", NULL),
          act = st_get(v, "action", NULL);
    info->addr = st_is_str(addr) ? keep_str(r, addr.u.s, addr.len) : "";
    info->time = st_is_str(tm) ? keep_str(r, tm.u.s, tm.len) : "";
    info->action = st_is_str(act) ? keep_str(r, act.u.s, act.len)
                                  : "create";
    return true;
  }
  if (strcmp(op, "output") == 0 || strcmp(op, "output_remove") == 0) {
    Value name = st_get(v, "name", NULL);
    if (!st_is_str(name))
      return rec_err(d, "An output record has no name.");
    if (op[6] == '_') {
      info->kind = ST_REC_OUTPUT_REMOVE;
      if (s) {
        change_begin(r, s);
        st_remove_output(s, name.u.s);
        change_end(r, s);
      }
      return true;
    }
    info->kind = ST_REC_OUTPUT;
    const Type *ty;
    Value val;
    bool sens = false;
    Value sv = st_get(v, "sensitive", NULL);
    if (!val_is_null(sv) && sv.type->kind == TY_BOOL)
      sens = sv.u.b;
    if (!json_type_from_value(t, st_get(v, "type", NULL), &ty, &jd, NULL) ||
        !json_value_typed(t, st_get(v, "value", NULL), ty, &val, &jd, NULL))
      return rec_err(d, "An output record has an invalid value or type.");
    if (s) {
      const char *kn = keep_str(r, name.u.s, name.len);
      Value kv = keep(r, val);
      const Type *kt = st_copy_type(r->cp, ty);
      change_begin(r, s);
      st_set_output(s, kn, kv, kt, sens);
      change_end(r, s);
    }
    return true;
  }
  if (strcmp(op, "set") != 0 && strcmp(op, "remove") != 0)
    return rec_err(d, "The record has an unknown operation.");
  info->kind = op[0] == 's' ? ST_REC_SET : ST_REC_REMOVE;
  bool ok = true;
  const char *module = get_str(r, v, "module", "module", &ok);
  const char *mode = get_str(r, v, "mode", "mode", &ok);
  const char *type = get_str(r, v, "type", "type", &ok);
  const char *name = get_str(r, v, "name", "name", &ok);
  const char *prov = get_str(r, v, "provider", "provider", &ok);
  const char *dk = get_str(r, v, "deposed", "deposed", &ok);
  Value iid = st_get(v, "intent", NULL);
  if (st_is_str(iid))
    info->intent_id = keep_str(r, iid.u.s, iid.len);
  if (!ok || !*type || !*name)
    return rec_err(d, "A resource record is incomplete.");
  StMode m = strcmp(mode, "data") == 0 ? ST_DATA : ST_MANAGED;
  StKey key;
  if (!read_key(r, st_get(v, "index_key", NULL), &key, type))
    return false;
  if (!s)
    return true;
  if (info->kind == ST_REC_REMOVE) {
    change_begin(r, s);
    StResource *sr = st_find_resource(s, module, m, type, name);
    if (sr && *dk)
      st_set_deposed(s, sr, key, dk, NULL);
    else if (sr)
      st_set_current(s, sr, key, NULL);
    change_end(r, s);
    return true;
  }
  Value ov = st_get(v, "object", NULL);
  if (!st_is_obj(ov))
    return rec_err(d, "A set record has no object.");
  StObject *o = ARENA_NEW(r->sa, StObject, 1);
  if (!read_object(r, ov, o, type))
    return false;
  change_begin(r, s);
  StResource *sr = st_ensure_resource(s, module, m, type, name, prov);
  if (*dk)
    st_set_deposed(s, sr, key, dk, o);
  else
    st_set_current(s, sr, key, o);
  change_end(r, s);
  return true;
}

bool st_rec_apply_mu(Arena *a, State *s, const char *payload, size_t n,
                     StRecInfo *info, pthread_mutex_t *mu, Diags *d)
{
  /* The record's tree is scratch, as in st_read: apply records one
  ** object per instance, and the state keeps only the object. */
  Arena t;
  arena_init(&t, 0);
  Rd r = {&t, "journal", d, false, a, st_copier_new(&t, a), NULL, 0, mu,
          NULL, NULL, {{NULL, 0}}, 0};
  bool ok = rec_apply(&r, &t, s, payload, n, info, d);
  arena_release(&t);
  return ok;
}

bool st_rec_apply(Arena *a, State *s, const char *payload, size_t n,
                  StRecInfo *info, Diags *d)
{
  return st_rec_apply_mu(a, s, payload, n, info, NULL, d);
}
