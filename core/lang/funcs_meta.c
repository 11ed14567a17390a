/*
** funcs_meta: the function table as `terraform metadata functions -json`
** prints it (Terraform's command/jsonfunction, format_version "1.0").
**
** As Terraform: every built-in under its plain name and again under
** "core::"; "list" and "map" left out by their plain names only (the
** core:: copies stay, as in Terraform, whose filter matches whole names);
** no provider functions (Terraform's metadata scope has none, the
** built-in provider's provider::terraform:: ones included); try, can and
** templatestring with the fixed signatures Terraform writes for them.
** The return type is the one the function gives for arguments of its
** parameter types (cty's ReturnType over the parameter types).
** Descriptions are not written: Terraform's texts are its own.
*/
#include <string.h>

#include "base/json.h"
#include "funcs.h"

static void param(JsonW *w, const char *name, const Type *t, bool nullable)
{
  json_w_begin_object(w);
  json_w_keyz(w, "name");
  json_w_stringz(w, name);
  if (nullable) {
    json_w_keyz(w, "is_nullable");
    json_w_bool(w, true);
  }
  json_w_keyz(w, "type");
  json_w_type(w, t);
  json_w_end_object(w);
}

static const Type *ret_type(Arena *a, const FnDef *f)
{
  const Type *ret = f->ret ? f->ret : &ty_dynamic;
  if (!f->ret_fn)
    return ret;
  uint32_t n = f->nparams + (f->varparam ? 1u : 0u);
  Value *args = ARENA_NEW(a, Value, n ? n : 1);
  for (uint32_t i = 0; i < f->nparams; i++)
    args[i] = val_unknown(f->params[i].type);
  if (f->varparam)
    args[f->nparams] = val_unknown(f->varparam->type);
  FnCall c;
  fn_call_init(&c, a);
  c.def = f;
  const Type *t = f->ret_fn(&c, args, n);
  return t ? t : &ty_dynamic;
}

static void signature(JsonW *w, Arena *a, const FnDef *f, const char *plain)
{
  json_w_begin_object(w);
  json_w_keyz(w, "return_type");
  if (strcmp(plain, "can") == 0) {
    json_w_type(w, &ty_bool);
    json_w_keyz(w, "parameters");
    json_w_begin_array(w);
    param(w, "expression", &ty_dynamic, false);
    json_w_end_array(w);
  } else if (strcmp(plain, "try") == 0) {
    json_w_type(w, &ty_dynamic);
    json_w_keyz(w, "variadic_parameter");
    param(w, "expressions", &ty_dynamic, false);
  } else {
    json_w_type(w, strcmp(plain, "templatestring") == 0 ? &ty_string
                                                        : ret_type(a, f));
    if (f->nparams) {
      json_w_keyz(w, "parameters");
      json_w_begin_array(w);
      for (uint32_t i = 0; i < f->nparams; i++)
        param(w, f->params[i].name, f->params[i].type,
              (f->params[i].flags & FP_NULL) != 0);
      json_w_end_array(w);
    }
    if (f->varparam) {
      json_w_keyz(w, "variadic_parameter");
      param(w, f->varparam->name, f->varparam->type,
            (f->varparam->flags & FP_NULL) != 0);
    }
  }
  json_w_end_object(w);
}

/* A name and the definition behind it; sorted by name as Go's
** json.Marshal sorts map keys (the core:: copies fall among the c's). */
typedef struct Entry {
  const char *name;
  const FnDef *f;
  const char *plain;
} Entry;

void fn_metadata_json(Buf *out, Arena *a)
{
  uint32_t n = 0;
  const FnDef *tab = fn_table_get(&n);
  Entry *es = ARENA_NEW(a, Entry, 2 * (size_t)n + 1);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    const char *name = tab[i].name;
    if (strncmp(name, "provider::", 10) == 0)
      continue;
    if (strcmp(name, "list") != 0 && strcmp(name, "map") != 0)
      es[k++] = (Entry){name, &tab[i], name};
    es[k++] = (Entry){arena_printf(a, "core::%s", name), &tab[i], name};
  }
  for (uint32_t i = 1; i < k; i++)
    for (uint32_t j = i; j > 0 && strcmp(es[j - 1].name, es[j].name) > 0;
         j--) {
      Entry t = es[j];
      es[j] = es[j - 1];
      es[j - 1] = t;
    }
  JsonW w;
  json_w_init(&w, out, 0);
  json_w_begin_object(&w);
  json_w_keyz(&w, "format_version");
  json_w_stringz(&w, "1.0");
  json_w_keyz(&w, "function_signatures");
  json_w_begin_object(&w);
  for (uint32_t i = 0; i < k; i++) {
    json_w_keyz(&w, es[i].name);
    signature(&w, a, es[i].f, es[i].plain);
  }
  json_w_end_object(&w);
  json_w_end_object(&w);
}
