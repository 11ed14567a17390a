/*
** eval_type: type constraint expressions, as HCL's ext/typeexpr reads
** them (with optional attributes and defaults) and as Terraform's
** variable decoder wraps that (bare list/map, legacy quoted forms).
*/
#include <string.h>

#include "eval_priv.h"

static const char *its = "Invalid type specification";

static Diag *terr(Diags *d, const SrcRange *subject, const SrcRange *context,
                  const char *summary, const char *detail)
{
  Diag *g = diag_error(d, subject && subject->file ? subject : NULL, summary,
                       "%s", detail);
  if (context && context->file)
    diag_set_context(d, g, context);
  return g;
}

/* A JSON string holding a type expression is parsed as native syntax. */
static const HclExpr *native(Arena *a, const HclExpr *e, Diags *d)
{
  e = hcl_expr_unwrap(e);
  if (e->kind == HCL_E_JSON && e->u.json->kind == HCL_J_STRING) {
    const HclJsonValue *j = e->u.json;
    SrcPos p = j->range.start;
    p.byte++;
    p.col++;
    return hcl_parse_expr_at(a, j->range.file, j->u.str.s, j->u.str.len, p,
                             d);
  }
  if (e->kind == HCL_E_JSON) {
    const HclExpr *x = hcl_json_to_expr(a, e, false, d);
    return x ? hcl_expr_unwrap(x) : e;
  }
  return e;
}

static bool get_type(Arena *a, const HclExpr *e, bool constraint,
                     const Type **out, Diags *d);

static bool const_value(Arena *a, const HclExpr *e, Value *out, Diags *d)
{
  EvalCtx c;
  eval_ctx_init(&c, a, d);
  c.no_vars = true;
  c.no_funcs = true;
  return eval_expr(&c, e, out);
}

static bool object_type(Arena *a, const HclExpr *call, const HclExpr *arg,
                        bool constraint, const Type **out, Diags *d)
{
  if (arg->kind != HCL_E_OBJECT) {
    terr(d, &arg->range, &call->range, its,
         "Object type constructor requires a map whose keys are attribute "
         "names and whose values are the corresponding attribute types.");
    return false;
  }
  uint32_t n = arg->u.object.n, k = 0;
  const char **names = ARENA_NEW(a, const char *, n ? n : 1);
  const Type **types = ARENA_NEW(a, const Type *, n ? n : 1);
  uint8_t *opt = ARENA_NEW(a, uint8_t, n ? n : 1);
  Value *defs = ARENA_NEW(a, Value, n ? n : 1);
  bool any_opt = false, any_def = false, ok = true;
  for (uint32_t i = 0; i < n; i++) {
    const HclObjectItem *it = &arg->u.object.items[i];
    const char *an = it->key_parens ? NULL : hcl_expr_as_keyword(a, it->key);
    if (!an) {
      terr(d, &it->key->range, &call->range, its,
           "Object constructor map keys must be attribute names.");
      ok = false;
      continue;
    }
    const HclExpr *ate = hcl_expr_unwrap(it->value);
    bool is_opt = false;
    Value def = val_mark(val_null(&ty_dynamic), VF_NODEFAULT);
    const HclExpr *defe = NULL;
    if (ate->kind == HCL_E_CALL && strcmp(ate->u.call.name, "optional") == 0) {
      SrcRange args = diag_range_join(ate->u.call.open_range,
                                      ate->u.call.close_range);
      uint32_t na = ate->u.call.nargs;
      if (na < 1) {
        terr(d, &args, &ate->range, its,
             "Optional attribute modifier requires the attribute type as its "
             "argument.");
        ok = false;
        continue;
      }
      if (constraint) {
        if (na == 2) {
          defe = ate->u.call.args[1];
          Value dv;
          Diags dd;
          diag_init(&dd, d->arena);
          bool dok = const_value(a, defe, &dv, &dd);
          diag_move(d, &dd);
          if (dok) {
            is_opt = true;
            def = dv;
          } else {
            ok = false;
            defe = NULL;
          }
        } else if (na == 1) {
          is_opt = true;
        } else {
          terr(d, &args, &ate->range, its,
               "Optional attribute modifier expects at most two arguments: "
               "the attribute type, and a default value.");
          ok = false;
        }
      } else {
        terr(d, &ate->u.call.name_range, &ate->range, its,
             "Optional attribute modifier is only for type constraints, not "
             "for exact types.");
        ok = false;
      }
      ate = ate->u.call.args[0];
    }
    const Type *aty = &ty_dynamic;
    if (!get_type(a, ate, constraint, &aty, d))
      ok = false;
    if (defe) {
      Value cv;
      ConvError ce = {0};
      if (!conv_convert(a, def, aty, true, &cv, &ce)) {
        Buf b;
        buf_init(&b, d->arena);
        buf_printf(&b, "This default value is not compatible with the "
                   "attribute's type constraint: %s.",
                   ce.msg ? ce.msg : "unsuitable value");
        terr(d, &defe->range, NULL,
             "Invalid default value for optional attribute", buf_str(&b));
        ok = false;
        def = val_mark(val_null(&ty_dynamic), VF_NODEFAULT);
      } else {
        def = cv;
        any_def = true;
      }
    }
    uint32_t j;
    for (j = 0; j < k; j++)
      if (strcmp(names[j], an) == 0)
        break;
    if (j == k)
      k++;
    names[j] = an;
    types[j] = aty;
    opt[j] = is_opt;
    defs[j] = def;
    any_opt = any_opt || is_opt;
  }
  if (!any_opt && !any_def)
    *out = ty_object(a, k, names, types);
  else
    *out = ty_object_opt(a, k, names, types, opt, any_def ? defs : NULL);
  return ok;
}

static bool get_type(Arena *a, const HclExpr *e, bool constraint,
                     const Type **out, Diags *d)
{
  *out = &ty_dynamic;
  e = native(a, e, d);
  const char *kw = hcl_expr_as_keyword(a, e);
  const SrcRange *er = &e->range;
  Buf b;
  buf_init(&b, d->arena);
  if (kw) {
    if (strcmp(kw, "bool") == 0) {
      *out = &ty_bool;
      return true;
    }
    if (strcmp(kw, "string") == 0) {
      *out = &ty_string;
      return true;
    }
    if (strcmp(kw, "number") == 0) {
      *out = &ty_number;
      return true;
    }
    if (strcmp(kw, "any") == 0) {
      if (constraint)
        return true;
      buf_printf(&b, "The keyword \"%s\" cannot be used in this type "
                 "specification: an exact type is required.", kw);
    } else if (!strcmp(kw, "list") || !strcmp(kw, "map") ||
               !strcmp(kw, "set")) {
      buf_printf(&b, "The %s type constructor requires one argument "
                 "specifying the element type.", kw);
    } else if (strcmp(kw, "object") == 0) {
      buf_puts(&b, "The object type constructor requires one argument "
               "specifying the attribute types and values as a map.");
    } else if (strcmp(kw, "tuple") == 0) {
      buf_puts(&b, "The tuple type constructor requires one argument "
               "specifying the element types as a list.");
    } else {
      buf_printf(&b, "The keyword \"%s\" is not a valid type specification.",
                 kw);
    }
    terr(d, er, NULL, its, buf_str(&b));
    return false;
  }
  if (e->kind != HCL_E_CALL) {
    terr(d, er, NULL, its,
         "A type specification is either a primitive type keyword (bool, "
         "number, string) or a complex type constructor call, like "
         "list(string).");
    return false;
  }
  const char *name = e->u.call.name;
  SrcRange args = diag_range_join(e->u.call.open_range, e->u.call.close_range);
  uint32_t na = e->u.call.nargs;
  if (!strcmp(name, "bool") || !strcmp(name, "string") ||
      !strcmp(name, "number")) {
    buf_printf(&b, "Primitive type keyword \"%s\" does not expect "
               "arguments.", name);
    terr(d, &args, NULL, its, buf_str(&b));
    return false;
  }
  if (!strcmp(name, "any")) {
    buf_printf(&b, "Type constraint keyword \"%s\" does not expect "
               "arguments.", name);
    terr(d, &args, NULL, its, buf_str(&b));
    return false;
  }
  bool coll = !strcmp(name, "list") || !strcmp(name, "set") ||
              !strcmp(name, "map");
  bool obj = !strcmp(name, "object"), tup = !strcmp(name, "tuple");
  if (na != 1 && (coll || obj || tup)) {
    SrcRange sub = args;
    if (na > 1)
      sub = diag_range_join(e->u.call.args[1]->range,
                            e->u.call.args[na - 1]->range);
    if (coll)
      buf_printf(&b, "The %s type constructor requires one argument "
                 "specifying the element type.", name);
    else if (obj)
      buf_puts(&b, "The object type constructor requires one argument "
               "specifying the attribute types and values as a map.");
    else
      buf_puts(&b, "The tuple type constructor requires one argument "
               "specifying the element types as a list.");
    terr(d, &sub, &args, its, buf_str(&b));
    return false;
  }
  if (coll) {
    const Type *et = &ty_dynamic;
    bool ok = get_type(a, e->u.call.args[0], constraint, &et, d);
    if (name[0] == 'l')
      *out = ty_list(a, et);
    else if (name[0] == 's')
      *out = ty_set(a, et);
    else
      *out = ty_map(a, et);
    return ok;
  }
  if (obj)
    return object_type(a, e, hcl_expr_unwrap(native(a, e->u.call.args[0], d)),
                       constraint, out, d);
  if (tup) {
    const HclExpr *arg = hcl_expr_unwrap(native(a, e->u.call.args[0], d));
    if (arg->kind != HCL_E_TUPLE) {
      terr(d, &arg->range, &e->range, its,
           "Tuple type constructor requires a list of element types.");
      return false;
    }
    uint32_t n = arg->u.tuple.n;
    const Type **ts = ARENA_NEW(a, const Type *, n ? n : 1);
    bool ok = true;
    for (uint32_t i = 0; i < n; i++)
      if (!get_type(a, arg->u.tuple.items[i], constraint, &ts[i], d))
        ok = false;
    *out = ty_tuple(a, n, ts);
    return ok;
  }
  if (!strcmp(name, "optional")) {
    buf_printf(&b, "Keyword \"%s\" is valid only as a modifier for object "
               "type attributes.", name);
    terr(d, &e->u.call.name_range, NULL, its, buf_str(&b));
    return false;
  }
  buf_printf(&b, "Keyword \"%s\" is not a valid type constructor.", name);
  terr(d, er, NULL, its, buf_str(&b));
  return false;
}

bool eval_type_exact(Arena *a, const HclExpr *e, const Type **out, Diags *d)
{
  int before = d->errors;
  get_type(a, e, false, out, d);
  if (d->errors != before) {
    *out = &ty_dynamic;
    return false;
  }
  return true;
}

bool eval_type_constraint(Arena *a, const HclExpr *e, const Type **out,
                          Diags *d)
{
  *out = &ty_dynamic;
  const HclExpr *u = hcl_expr_unwrap(e);
  if (u->kind == HCL_E_TEMPLATE) {
    /* Terraform 0.11's quoted type constraints. */
    Value v;
    int before = d->errors;
    const_value(a, u, &v, d);
    if (d->errors != before)
      return false;
    const char *s = val_is_known(v) && !val_is_null(v) &&
                    v.type->kind == TY_STRING ? v.u.s : "";
    const char *pre = "Terraform 0.11 and earlier required type constraints "
                      "to be given in quotes, but that form is now "
                      "deprecated and will be removed in a future version "
                      "of Terraform.";
    if (strcmp(s, "string") == 0) {
      diag_error(d, &u->range, "Invalid quoted type constraints",
                 "%s Remove the quotes around \"string\".", pre);
    } else if (strcmp(s, "list") == 0 || strcmp(s, "map") == 0) {
      diag_error(d, &u->range, "Invalid quoted type constraints",
                 "%s Remove the quotes around \"%s\" and write %s(string) "
                 "instead to explicitly indicate that the %s elements are "
                 "strings.", pre, s, s, s);
    } else {
      diag_error(d, &u->range, "Invalid legacy variable type hint",
                 "To provide a full type expression, remove the surrounding "
                 "quotes and give the type expression directly.");
    }
    return false;
  }
  const char *kw = hcl_expr_as_keyword(a, e);
  if (kw && strcmp(kw, "list") == 0) {
    *out = ty_list(a, &ty_dynamic);
    return true;
  }
  if (kw && strcmp(kw, "map") == 0) {
    *out = ty_map(a, &ty_dynamic);
    return true;
  }
  int before = d->errors;
  get_type(a, e, true, out, d);
  if (d->errors != before) {
    *out = &ty_dynamic;
    return false;
  }
  return true;
}
