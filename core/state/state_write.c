/*
** state_write.c: writing Terraform's v4 state file (st_write,
** st_write_content) byte for byte as Terraform does, and encoding the
** apply journal's records (st_rec_*), which share the instance encoding.
*/
#include "state_priv.h"

#include <string.h>

#include "base/b64.h"
#include "base/json.h"

/* ---- Writing ------------------------------------------------------------- */

static const Type *output_type(const StOutput *o)
{
  return o->type ? o->type : o->value.type;
}

static void write_paths(JsonW *w, const StObject *o)
{
  json_w_begin_array(w);
  for (uint32_t i = 0; i < o->nsensitive; i++) {
    const ValPath *p = &o->sensitive[i];
    json_w_begin_array(w);
    for (uint32_t k = 0; k < p->n; k++) {
      const PathStep *st = &p->steps[k];
      json_w_begin_object(w);
      json_w_keyz(w, "type");
      if (st->kind == PS_ATTR) {
        json_w_stringz(w, "get_attr");
        json_w_keyz(w, "value");
        json_w_stringz(w, st->name);
      } else {
        json_w_stringz(w, "index");
        json_w_keyz(w, "value");
        json_w_begin_object(w);
        json_w_keyz(w, "value");
        if (st->kind == PS_KEY)
          json_w_stringz(w, st->name);
        else
          json_w_int(w, st->index);
        json_w_keyz(w, "type");
        json_w_stringz(w, st->kind == PS_KEY ? "string" : "number");
        json_w_end_object(w);
      }
      json_w_end_object(w);
    }
    json_w_end_array(w);
  }
  json_w_end_array(w);
}

static void write_generic(JsonW *w, Value v)
{
  Diags d;
  Arena scratch;
  arena_init(&scratch, 4096);
  diag_init(&d, &scratch);
  if (!json_w_value(w, v, NULL, &d))
    json_w_null(w);
  arena_release(&scratch);
}

/* check_results in Terraform's struct field order (checkResultsV4);
** unknown keys are dropped, as Terraform's decoder drops them. */
static void write_check_results(JsonW *w, Value cr)
{
  if (!st_is_arr(cr) || cr.len == 0) {
    json_w_null(w);
    return;
  }
  static const char *const agg[] = {"object_kind", "config_addr", "status"};
  json_w_begin_array(w);
  for (uint32_t i = 0; i < cr.len; i++) {
    Value e = cr.u.elems[i];
    if (!st_is_obj(e)) {
      write_generic(w, e);
      continue;
    }
    json_w_begin_object(w);
    for (int k = 0; k < 3; k++) {
      json_w_keyz(w, agg[k]);
      Value f = st_get(e, agg[k], NULL);
      if (st_is_str(f))
        json_w_string(w, f.u.s, f.len);
      else
        json_w_stringz(w, "");
    }
    json_w_keyz(w, "objects");
    Value objs = st_get(e, "objects", NULL);
    if (!st_is_arr(objs) || objs.len == 0) {
      json_w_null(w);
    } else {
      json_w_begin_array(w);
      for (uint32_t j = 0; j < objs.len; j++) {
        Value o = objs.u.elems[j];
        json_w_begin_object(w);
        Value oa = st_is_obj(o) ? st_get(o, "object_addr", NULL)
                                : val_dynamic_null;
        Value os = st_is_obj(o) ? st_get(o, "status", NULL)
                                : val_dynamic_null;
        Value fm = st_is_obj(o) ? st_get(o, "failure_messages", NULL)
                                : val_dynamic_null;
        json_w_keyz(w, "object_addr");
        if (st_is_str(oa))
          json_w_string(w, oa.u.s, oa.len);
        else
          json_w_stringz(w, "");
        json_w_keyz(w, "status");
        if (st_is_str(os))
          json_w_string(w, os.u.s, os.len);
        else
          json_w_stringz(w, "unknown");
        if (st_is_arr(fm) && fm.len) {
          json_w_keyz(w, "failure_messages");
          write_generic(w, fm);
        }
        json_w_end_object(w);
      }
      json_w_end_array(w);
    }
    json_w_end_object(w);
  }
  json_w_end_array(w);
}

static void write_key(JsonW *w, StKey k)
{
  if (k.kind == ST_INTKEY)
    json_w_int(w, k.i);
  else if (k.kind == ST_STRKEY)
    json_w_string(w, k.s, k.slen);
}

/* The fields of one instance object in Terraform's order; key and dkey
** are written when given (file layout), omitted for journal records. */
static void write_object(JsonW *w, const StObject *o, const StKey *key,
                         const char *dkey, Buf *tmp)
{
  json_w_begin_object(w);
  if (key && key->kind != ST_NOKEY) {
    json_w_keyz(w, "index_key");
    write_key(w, *key);
  }
  if (o->status == ST_TAINTED) {
    json_w_keyz(w, "status");
    json_w_stringz(w, "tainted");
  }
  if (dkey && *dkey) {
    json_w_keyz(w, "deposed");
    json_w_stringz(w, dkey);
  }
  json_w_keyz(w, "schema_version");
  json_w_uint(w, o->schema_version);
  if (!val_is_null(o->attrs) || val_is_null(o->attrs_flat)) {
    json_w_keyz(w, "attributes");
    write_generic(w, o->attrs);
  }
  if (val_is_null(o->attrs) && !val_is_null(o->attrs_flat)) {
    json_w_keyz(w, "attributes_flat");
    write_generic(w, o->attrs_flat);
  }
  json_w_keyz(w, "sensitive_attributes");
  write_paths(w, o);
  json_w_keyz(w, "identity_schema_version");
  json_w_uint(w, o->identity_schema_version);
  if (o->has_identity) {
    json_w_keyz(w, "identity");
    write_generic(w, o->identity);
  }
  if (o->priv_len) {
    json_w_keyz(w, "private");
    buf_clear(tmp);
    b64_put(tmp, o->priv, o->priv_len, false, true);
    json_w_string(w, tmp->p, tmp->len);
  }
  if (o->ndeps) {
    json_w_keyz(w, "dependencies");
    json_w_begin_array(w);
    for (uint32_t i = 0; i < o->ndeps; i++)
      json_w_stringz(w, o->deps[i]);
    json_w_end_array(w);
  }
  if (o->create_before_destroy) {
    json_w_keyz(w, "create_before_destroy");
    json_w_bool(w, true);
  }
  json_w_end_object(w);
}

/* Where st_write_stream sends its text: out is handed to sink and emptied
** whenever it holds FLUSH_AT bytes or more, between two outputs or two
** instances (the JSON writer keeps no position in out, so emptying it
** between two elements is safe).  stopped: sink said stop. */
#define FLUSH_AT ((size_t)64 * 1024)

typedef struct Flush {
  StSink sink;
  void *ctx;
  bool stopped;
} Flush;

/* false when the writing should stop (the sink said so). */
static bool flush(Buf *out, Flush *f, bool all)
{
  if (!f || f->stopped)
    return !f;
  if (out->len && (all || out->len >= FLUSH_AT)) {
    if (!f->sink(f->ctx, out->p, out->len))
      f->stopped = true;
    buf_clear(out);
  }
  return !f->stopped;
}

static void write_body(JsonW *w, State *s, Flush *f)
{
  Arena scratch;
  arena_init(&scratch, 0);
  Buf tmp;
  buf_init(&tmp, &scratch);
  st_sort(s);
  json_w_keyz(w, "outputs");
  json_w_begin_object(w);
  for (uint32_t i = 0; i < s->noutputs; i++) {
    const StOutput *o = &s->outputs[i];
    json_w_keyz(w, o->name);
    json_w_begin_object(w);
    json_w_keyz(w, "value");
    Diags d;
    diag_init(&d, &scratch);
    if (!json_w_value(w, o->value, output_type(o), &d))
      json_w_null(w);
    json_w_keyz(w, "type");
    json_w_type(w, output_type(o));
    if (o->sensitive) {
      json_w_keyz(w, "sensitive");
      json_w_bool(w, true);
    }
    json_w_end_object(w);
    if (!flush(w->out, f, false))
      goto out;
  }
  json_w_end_object(w);
  json_w_keyz(w, "resources");
  json_w_begin_array(w);
  for (uint32_t i = 0; i < s->nres; i++) {
    const StResource *r = s->res[i];
    json_w_begin_object(w);
    if (*r->module) {
      json_w_keyz(w, "module");
      json_w_stringz(w, r->module);
    }
    json_w_keyz(w, "mode");
    json_w_stringz(w, st_mode_str(r->mode));
    json_w_keyz(w, "type");
    json_w_stringz(w, r->type);
    json_w_keyz(w, "name");
    json_w_stringz(w, r->name);
    json_w_keyz(w, "provider");
    json_w_stringz(w, r->provider);
    json_w_keyz(w, "instances");
    json_w_begin_array(w);
    for (uint32_t k = 0; k < r->ninst; k++) {
      const StInstance *in = r->inst[k];
      if (in->current)
        write_object(w, in->current, &in->key, NULL, &tmp);
      for (uint32_t j = 0; j < in->ndeposed; j++)
        write_object(w, in->deposed[j].obj, &in->key, in->deposed[j].key,
                     &tmp);
      if (!flush(w->out, f, false))
        goto out;
    }
    json_w_end_array(w);
    json_w_end_object(w);
  }
  json_w_end_array(w);
  json_w_keyz(w, "check_results");
  write_check_results(w, s->check_results);
out:
  arena_release(&scratch);
}

static void write_file(Buf *out, State *s, const char *tf_version, Flush *f)
{
  JsonW w;
  json_w_init(&w, out, JSON_W_INDENT);
  json_w_begin_object(&w);
  json_w_keyz(&w, "version");
  json_w_int(&w, 4);
  json_w_keyz(&w, "terraform_version");
  json_w_stringz(&w, tf_version ? tf_version : CAIRN_VERSION);
  json_w_keyz(&w, "serial");
  json_w_uint(&w, s->serial);
  json_w_keyz(&w, "lineage");
  json_w_stringz(&w, s->lineage);
  write_body(&w, s, f);
  if (f && f->stopped)
    return;
  json_w_end_object(&w);
  buf_putc(out, '\n');
}

static void write_content(Buf *out, State *s, Flush *f)
{
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  write_body(&w, s, f);
  if (f && f->stopped)
    return;
  json_w_end_object(&w);
}

void st_write(Buf *out, State *s, const char *tf_version)
{
  write_file(out, s, tf_version, NULL);
}

void st_write_content(Buf *out, State *s)
{
  write_content(out, s, NULL);
}

bool st_write_stream(State *s, const char *tf_version, bool content,
                     StSink sink, void *ctx)
{
  Arena a;
  arena_init(&a, 0);
  Buf out;
  buf_init(&out, &a);
  buf_reserve(&out, 2 * FLUSH_AT);
  Flush f = {sink, ctx, false};
  if (content)
    write_content(&out, s, &f);
  else
    write_file(&out, s, tf_version, &f);
  flush(&out, &f, true);
  arena_release(&a);
  return !f.stopped;
}

/* ---- Journal records ----------------------------------------------------- */

static void rec_resource(JsonW *w, const char *op, const StResource *r,
                         StKey key, const char *dkey)
{
  json_w_keyz(w, "op");
  json_w_stringz(w, op);
  json_w_keyz(w, "module");
  json_w_stringz(w, r->module);
  json_w_keyz(w, "mode");
  json_w_stringz(w, st_mode_str(r->mode));
  json_w_keyz(w, "type");
  json_w_stringz(w, r->type);
  json_w_keyz(w, "name");
  json_w_stringz(w, r->name);
  json_w_keyz(w, "provider");
  json_w_stringz(w, r->provider);
  if (key.kind != ST_NOKEY) {
    json_w_keyz(w, "index_key");
    write_key(w, key);
  }
  if (dkey && *dkey) {
    json_w_keyz(w, "deposed");
    json_w_stringz(w, dkey);
  }
}

void st_rec_set(Buf *out, const StResource *r, StKey key, const char *dkey,
                const StObject *obj, const char *intent_id)
{
  Arena scratch;
  arena_init(&scratch, 4096);
  Buf tmp;
  buf_init(&tmp, &scratch);
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  rec_resource(&w, "set", r, key, dkey);
  if (intent_id && *intent_id) {
    json_w_keyz(&w, "intent");
    json_w_stringz(&w, intent_id);
  }
  json_w_keyz(&w, "object");
  write_object(&w, obj, NULL, NULL, &tmp);
  json_w_end_object(&w);
  arena_release(&scratch);
}

void st_rec_remove(Buf *out, const StResource *r, StKey key,
                   const char *dkey)
{
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  rec_resource(&w, "remove", r, key, dkey);
  json_w_end_object(&w);
}

void st_rec_output(Buf *out, const StOutput *o)
{
  JsonW w;
  Arena scratch;
  arena_init(&scratch, 4096);
  Diags d;
  diag_init(&d, &scratch);
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "op");
  json_w_stringz(&w, "output");
  json_w_keyz(&w, "name");
  json_w_stringz(&w, o->name);
  json_w_keyz(&w, "value");
  if (!json_w_value(&w, o->value, output_type(o), &d))
    json_w_null(&w);
  json_w_keyz(&w, "type");
  json_w_type(&w, output_type(o));
  json_w_keyz(&w, "sensitive");
  json_w_bool(&w, o->sensitive);
  json_w_end_object(&w);
  arena_release(&scratch);
}

void st_rec_output_remove(Buf *out, const char *name)
{
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "op");
  json_w_stringz(&w, "output_remove");
  json_w_keyz(&w, "name");
  json_w_stringz(&w, name);
  json_w_end_object(&w);
}
