/*
** funcs: the function table and cty's generic call machinery.
** See funcs.h for the contract; the implementations live in funcs_*.c.
*/
#include "funcs.h"

#include <stdarg.h>
#include <string.h>

#include "funcs_impl.h"

/* ---- Static types used as parameter constraints ------------------------ */

const Type fn_ty_list_string = {.kind = TY_LIST, .elem = &ty_string};
const Type fn_ty_list_dynamic = {.kind = TY_LIST, .elem = &ty_dynamic};
const Type fn_ty_list_number = {.kind = TY_LIST, .elem = &ty_number};
const Type fn_ty_list_bool = {.kind = TY_LIST, .elem = &ty_bool};
const Type fn_ty_set_string = {.kind = TY_SET, .elem = &ty_string};
const Type fn_ty_set_dynamic = {.kind = TY_SET, .elem = &ty_dynamic};
const Type fn_ty_map_string = {.kind = TY_MAP, .elem = &ty_string};
const Type fn_ty_map_dynamic = {.kind = TY_MAP, .elem = &ty_dynamic};
static const Type ty_map_list_string = {.kind = TY_MAP,
                                        .elem = &fn_ty_list_string};

#define S (&ty_string)
#define N (&ty_number)
#define B (&ty_bool)
#define D (&ty_dynamic)
#define LS (&fn_ty_list_string)
#define LD (&fn_ty_list_dynamic)
#define LB (&fn_ty_list_bool)
#define SD (&fn_ty_set_dynamic)
#define MS (&fn_ty_map_string)

/* Return-type helpers for the unknown short-circuit. */
static const Type *ret_arg0(FnCall *c, const Value *args, uint32_t nargs)
{
  (void)c;
  return nargs > 0 ? args[0].type : &ty_dynamic;
}

static const Type *ret_tolist(FnCall *c, const Value *args, uint32_t nargs)
{
  const Type *e = nargs ? fn_elem_type(c->arena, args[0]) : NULL;
  if (!e || args[0].type->kind == TY_DYNAMIC)
    return &ty_dynamic;
  return ty_list(c->arena, e);
}

static const Type *ret_toset(FnCall *c, const Value *args, uint32_t nargs)
{
  const Type *e = nargs ? fn_elem_type(c->arena, args[0]) : NULL;
  if (!e || args[0].type->kind == TY_DYNAMIC)
    return &ty_dynamic;
  return ty_set(c->arena, e);
}

static const Type *ret_tomap(FnCall *c, const Value *args, uint32_t nargs)
{
  const Type *e = nargs ? fn_elem_type(c->arena, args[0]) : NULL;
  if (!e || args[0].type->kind == TY_DYNAMIC)
    return &ty_dynamic;
  return ty_map(c->arena, e);
}

/* ---- Parameter lists ---------------------------------------------------- */

#define P(n, t) {n, t, 0}
#define PF(n, t, f) {n, t, f}

static const FnParam p_num[] = {P("num", N)};
static const FnParam p_num_base[] = {P("num", N), P("base", N)};
static const FnParam p_num_power[] = {P("num", N), P("power", N)};
static const FnParam p_numbers[] = {P("numbers", N)};
static const FnParam p_parseint[] = {P("number", D), P("base", N)};
static const FnParam p_str[] = {P("str", S)};
static const FnParam p_str_suffix[] = {P("str", S), P("suffix", S)};
static const FnParam p_str_prefix[] = {P("str", S), P("prefix", S)};
static const FnParam p_str_substr[] = {P("str", S), P("substr", S)};
static const FnParam p_str_cutset[] = {P("str", S), P("cutset", S)};
static const FnParam p_format[] = {P("format", S)};
static const FnParam p_args[] = {PF("args", D, FP_NULL | FP_UNKNOWN)};
static const FnParam p_indent[] = {P("spaces", N), P("str", S)};
static const FnParam p_separator[] = {P("separator", S)};
static const FnParam p_lists[] = {P("lists", LS)};
static const FnParam p_regex[] = {P("pattern", S), P("string", S)};
static const FnParam p_replace[] = {P("str", S), P("substr", S),
                                    P("replace", S)};
static const FnParam p_split[] = {P("separator", S), P("str", S)};
static const FnParam p_substr[] = {P("str", S), P("offset", N),
                                   P("length", N)};
static const FnParam p_templatestring[] = {P("template", S),
                                           P("vars", D)};
static const FnParam p_list_bool[] = {P("list", LB)};
static const FnParam p_chunklist[] = {P("list", LD), P("size", N)};
static const FnParam p_vals[] = {PF("vals", D, FP_NULL | FP_UNKNOWN)};
static const FnParam p_list_string[] = {P("list", LS)};
static const FnParam p_seqs[] = {P("seqs", D)};
static const FnParam p_list_value[] = {P("list", D), P("value", D)};
static const FnParam p_list_ld[] = {P("list", LD)};
static const FnParam p_element[] = {P("list", D), P("index", N)};
static const FnParam p_list_d[] = {P("list", D)};
static const FnParam p_input_map[] = {P("inputMap", D)};
static const FnParam p_length[] = {
    PF("value", D, FP_UNKNOWN | FP_DYNAMIC | FP_MARKED)};
static const FnParam p_removed[] = {PF("vals", D, FP_NULL | FP_UNKNOWN)};
static const FnParam p_lookup[] = {P("inputMap", D), P("key", S)};
static const FnParam p_default[] = {P("default", D)};
static const FnParam p_matchkeys[] = {P("values", LD), P("keys", LD),
                                      P("searchset", LD)};
static const FnParam p_maps[] = {PF("maps", D, FP_NULL | FP_DYNAMIC)};
static const FnParam p_params[] = {P("params", N)};
static const FnParam p_first_set[] = {P("first_set", SD)};
static const FnParam p_other_sets[] = {P("other_sets", SD)};
static const FnParam p_sets[] = {P("sets", D)};
static const FnParam p_setsubtract[] = {P("a", SD), P("b", SD)};
static const FnParam p_slice[] = {P("list", D), P("start_index", N),
                                  P("end_index", N)};
static const FnParam p_transpose[] = {P("values", &ty_map_list_string)};
static const FnParam p_values[] = {P("mapping", D)};
static const FnParam p_zipmap[] = {P("keys", LS), P("values", D)};
static const FnParam p_textdecode[] = {P("source", S), P("encoding", S)};
static const FnParam p_textencode[] = {P("string", S), P("encoding", S)};
static const FnParam p_jsonencode[] = {PF("val", D, FP_NULL | FP_DYNAMIC)};
static const FnParam p_src[] = {P("src", S)};
static const FnParam p_yamlencode[] = {PF("value", D, FP_NULL)};
static const FnParam p_path[] = {P("path", S)};
static const FnParam p_fileset[] = {P("path", S), P("pattern", S)};
static const FnParam p_templatefile[] = {P("path", S), P("vars", D)};
static const FnParam p_formatdate[] = {P("format", S), P("time", S)};
static const FnParam p_timeadd[] = {P("timestamp", S), P("duration", S)};
static const FnParam p_timecmp[] = {P("timestamp_a", S),
                                    P("timestamp_b", S)};
static const FnParam p_cost[] = {P("cost", N)};
static const FnParam p_rsadecrypt[] = {P("ciphertext", S),
                                       P("privatekey", S)};
static const FnParam p_uuidv5[] = {P("namespace", S), P("name", S)};
static const FnParam p_cidr_contains[] = {P("containing_prefix", S),
                                          P("contained_ip_or_prefix", S)};
static const FnParam p_cidrhost[] = {P("prefix", S), P("hostnum", N)};
static const FnParam p_prefix[] = {P("prefix", S)};
static const FnParam p_cidrsubnet[] = {P("prefix", S), P("newbits", N),
                                       P("netnum", N)};
static const FnParam p_newbits[] = {P("newbits", N)};
static const FnParam p_value_marked[] = {
    PF("value", D, FP_NULL | FP_UNKNOWN | FP_DYNAMIC | FP_MARKED)};
static const FnParam p_to[] = {
    PF("v", D, FP_NULL | FP_UNKNOWN | FP_DYNAMIC | FP_MARKED)};
static const FnParam p_value_any[] = {PF("value", D, FP_NULL)};
static const FnParam p_expr_value[] = {
    PF("value", D, FP_NULL | FP_UNKNOWN | FP_DYNAMIC)};
static const FnParam p_try[] = {
    PF("expressions", D, FP_NULL | FP_UNKNOWN | FP_DYNAMIC | FP_MARKED)};
static const FnParam p_can[] = {
    PF("expression", D, FP_NULL | FP_UNKNOWN | FP_DYNAMIC | FP_MARKED)};

#define ARR(p) p, (uint8_t)(sizeof(p) / sizeof(p[0]))
#define NOP NULL, 0

/* The table, sorted by name (strcmp order; checked by the unit test). */
static const FnDef fn_table[] = {
    {"abs", ARR(p_num), NULL, N, NULL, fn_abs, 0},
    {"abspath", ARR(p_path), NULL, S, NULL, fn_abspath, 0},
    {"alltrue", ARR(p_list_bool), NULL, B, NULL, fn_alltrue, 0},
    {"anytrue", ARR(p_list_bool), NULL, B, NULL, fn_anytrue, 0},
    {"base64decode", ARR(p_str), NULL, S, NULL, fn_base64decode, 0},
    {"base64encode", ARR(p_str), NULL, S, NULL, fn_base64encode, 0},
    {"base64gzip", ARR(p_str), NULL, S, NULL, fn_base64gzip, 0},
    {"base64sha256", ARR(p_str), NULL, S, NULL, fn_base64sha256, 0},
    {"base64sha512", ARR(p_str), NULL, S, NULL, fn_base64sha512, 0},
    {"basename", ARR(p_path), NULL, S, NULL, fn_basename, 0},
    {"bcrypt", ARR(p_str), p_cost, S, NULL, fn_bcrypt, FN_IMPURE},
    {"can", NOP, p_can, B, NULL, NULL, FN_SPECIAL},
    {"ceil", ARR(p_num), NULL, N, NULL, fn_ceil, 0},
    {"chomp", ARR(p_str), NULL, S, NULL, fn_chomp, 0},
    {"chunklist", ARR(p_chunklist), NULL, D, NULL, fn_chunklist, 0},
    {"cidrcontains", ARR(p_cidr_contains), NULL, B, NULL, fn_cidrcontains, 0},
    {"cidrhost", ARR(p_cidrhost), NULL, S, NULL, fn_cidrhost, 0},
    {"cidrnetmask", ARR(p_prefix), NULL, S, NULL, fn_cidrnetmask, 0},
    {"cidrsubnet", ARR(p_cidrsubnet), NULL, S, NULL, fn_cidrsubnet, 0},
    {"cidrsubnets", ARR(p_prefix), p_newbits, LS, NULL, fn_cidrsubnets, 0},
    {"coalesce", NOP, p_vals, D, NULL, fn_coalesce, 0},
    {"coalescelist", NOP, p_vals, D, NULL, fn_coalescelist, 0},
    {"compact", ARR(p_list_string), NULL, LS, NULL, fn_compact,
     FN_WHOLLY_KNOWN},
    {"concat", NOP, p_seqs, D, NULL, fn_concat, 0},
    {"contains", ARR(p_list_value), NULL, B, NULL, fn_contains, 0},
    {"csvdecode", ARR(p_str), NULL, D, NULL, fn_csvdecode, 0},
    {"dirname", ARR(p_path), NULL, S, NULL, fn_dirname, 0},
    {"distinct", ARR(p_list_ld), NULL, D, ret_arg0, fn_distinct,
     FN_WHOLLY_KNOWN},
    {"element", ARR(p_element), NULL, D, NULL, fn_element, 0},
    {"endswith", ARR(p_str_suffix), NULL, B, NULL, fn_endswith, 0},
    {"ephemeralasnull", ARR(p_value_marked), NULL, D, ret_arg0,
     fn_ephemeralasnull, 0},
    {"file", ARR(p_path), NULL, S, NULL, fn_file, FN_FS},
    {"filebase64", ARR(p_path), NULL, S, NULL, fn_filebase64, FN_FS},
    {"filebase64sha256", ARR(p_path), NULL, S, NULL, fn_filebase64sha256,
     FN_FS},
    {"filebase64sha512", ARR(p_path), NULL, S, NULL, fn_filebase64sha512,
     FN_FS},
    {"fileexists", ARR(p_path), NULL, B, NULL, fn_fileexists, FN_FS},
    {"filemd5", ARR(p_path), NULL, S, NULL, fn_filemd5, FN_FS},
    {"fileset", ARR(p_fileset), NULL, &fn_ty_set_string, NULL, fn_fileset,
     FN_FS},
    {"filesha1", ARR(p_path), NULL, S, NULL, fn_filesha1, FN_FS},
    {"filesha256", ARR(p_path), NULL, S, NULL, fn_filesha256, FN_FS},
    {"filesha512", ARR(p_path), NULL, S, NULL, fn_filesha512, FN_FS},
    {"flatten", ARR(p_list_d), NULL, D, NULL, fn_flatten, 0},
    {"floor", ARR(p_num), NULL, N, NULL, fn_floor, 0},
    {"format", ARR(p_format), p_args, S, NULL, fn_format, 0},
    {"formatdate", ARR(p_formatdate), NULL, S, NULL, fn_formatdate, 0},
    {"formatlist", ARR(p_format), p_args, LS, NULL, fn_formatlist, 0},
    {"indent", ARR(p_indent), NULL, S, NULL, fn_indent, 0},
    {"index", ARR(p_list_value), NULL, N, NULL, fn_index, 0},
    {"issensitive", ARR(p_value_marked), NULL, B, NULL, fn_issensitive, 0},
    {"join", ARR(p_separator), p_lists, S, NULL, fn_join, FN_WHOLLY_KNOWN},
    {"jsondecode", ARR(p_str), NULL, D, NULL, fn_jsondecode, 0},
    {"jsonencode", ARR(p_jsonencode), NULL, S, NULL, fn_jsonencode,
     FN_WHOLLY_KNOWN},
    {"keys", ARR(p_input_map), NULL, D, NULL, fn_keys, 0},
    {"length", ARR(p_length), NULL, N, NULL, fn_length, 0},
    {"list", NOP, p_removed, D, NULL, fn_list, FN_REMOVED},
    {"log", ARR(p_num_base), NULL, N, NULL, fn_log, 0},
    {"lookup", ARR(p_lookup), p_default, D, NULL, fn_lookup_fn, 0},
    {"lower", ARR(p_str), NULL, S, NULL, fn_lower, 0},
    {"map", NOP, p_removed, D, NULL, fn_map, FN_REMOVED},
    {"matchkeys", ARR(p_matchkeys), NULL, D, ret_arg0, fn_matchkeys,
     FN_WHOLLY_KNOWN},
    {"max", NOP, p_numbers, N, NULL, fn_max, 0},
    {"md5", ARR(p_str), NULL, S, NULL, fn_md5, 0},
    {"merge", NOP, p_maps, D, NULL, fn_merge, 0},
    {"min", NOP, p_numbers, N, NULL, fn_min, 0},
    {"nonsensitive", ARR(p_value_marked), NULL, D, ret_arg0,
     fn_nonsensitive, 0},
    {"one", ARR(p_list_d), NULL, D, NULL, fn_one, 0},
    {"parseint", ARR(p_parseint), NULL, N, NULL, fn_parseint, 0},
    {"pathexpand", ARR(p_path), NULL, S, NULL, fn_pathexpand, 0},
    {"plantimestamp", NOP, NULL, S, NULL, fn_plantimestamp, FN_PLAN},
    {"pow", ARR(p_num_power), NULL, N, NULL, fn_pow, 0},
    {"provider::terraform::decode_tfvars", ARR(p_src), NULL, D, NULL,
     fn_decode_tfvars, 0},
    {"provider::terraform::encode_expr", ARR(p_expr_value), NULL, S, NULL,
     fn_encode_expr, FN_WHOLLY_KNOWN},
    {"provider::terraform::encode_tfvars", ARR(p_value_any), NULL, S, NULL,
     fn_encode_tfvars, FN_WHOLLY_KNOWN},
    {"range", NOP, p_params, &fn_ty_list_number, NULL, fn_range, 0},
    {"regex", ARR(p_regex), NULL, D, NULL, fn_regex, 0},
    {"regexall", ARR(p_regex), NULL, D, NULL, fn_regexall, 0},
    {"replace", ARR(p_replace), NULL, S, NULL, fn_replace, 0},
    {"reverse", ARR(p_list_d), NULL, D, NULL, fn_reverse, 0},
    {"rsadecrypt", ARR(p_rsadecrypt), NULL, S, NULL, fn_rsadecrypt, 0},
    {"sensitive", ARR(p_value_marked), NULL, D, ret_arg0, fn_sensitive, 0},
    {"setintersection", ARR(p_first_set), p_other_sets, D, NULL,
     fn_setintersection, FN_WHOLLY_KNOWN},
    {"setproduct", NOP, p_sets, D, NULL, fn_setproduct, 0},
    {"setsubtract", ARR(p_setsubtract), NULL, D, NULL, fn_setsubtract,
     FN_WHOLLY_KNOWN},
    {"setunion", ARR(p_first_set), p_other_sets, D, NULL, fn_setunion,
     FN_WHOLLY_KNOWN},
    {"sha1", ARR(p_str), NULL, S, NULL, fn_sha1, 0},
    {"sha256", ARR(p_str), NULL, S, NULL, fn_sha256, 0},
    {"sha512", ARR(p_str), NULL, S, NULL, fn_sha512, 0},
    {"signum", ARR(p_num), NULL, N, NULL, fn_signum, 0},
    {"slice", ARR(p_slice), NULL, D, NULL, fn_slice, 0},
    {"sort", ARR(p_list_string), NULL, LS, NULL, fn_sort, FN_WHOLLY_KNOWN},
    {"split", ARR(p_split), NULL, LS, NULL, fn_split, 0},
    {"startswith", ARR(p_str_prefix), NULL, B, NULL, fn_startswith, 0},
    {"strcontains", ARR(p_str_substr), NULL, B, NULL, fn_strcontains, 0},
    {"strrev", ARR(p_str), NULL, S, NULL, fn_strrev, 0},
    {"substr", ARR(p_substr), NULL, S, NULL, fn_substr, 0},
    {"sum", ARR(p_list_d), NULL, N, NULL, fn_sum, FN_WHOLLY_KNOWN},
    {"templatefile", ARR(p_templatefile), NULL, D, NULL, fn_templatefile,
     FN_FS | FN_NOTEMPLATE},
    {"templatestring", ARR(p_templatestring), NULL, D, NULL,
     fn_templatestring, FN_NOTEMPLATE},
    {"textdecodebase64", ARR(p_textdecode), NULL, S, NULL,
     fn_textdecodebase64, 0},
    {"textencodebase64", ARR(p_textencode), NULL, S, NULL,
     fn_textencodebase64, 0},
    {"timeadd", ARR(p_timeadd), NULL, S, NULL, fn_timeadd, 0},
    {"timecmp", ARR(p_timecmp), NULL, N, NULL, fn_timecmp, 0},
    {"timestamp", NOP, NULL, S, NULL, fn_timestamp, FN_IMPURE},
    {"title", ARR(p_str), NULL, S, NULL, fn_title, 0},
    {"tobool", ARR(p_to), NULL, B, NULL, fn_tobool, FN_NULLABLE},
    {"tolist", ARR(p_to), NULL, D, ret_tolist, fn_tolist, 0},
    {"tomap", ARR(p_to), NULL, D, ret_tomap, fn_tomap, 0},
    {"tonumber", ARR(p_to), NULL, N, NULL, fn_tonumber, FN_NULLABLE},
    {"toset", ARR(p_to), NULL, D, ret_toset, fn_toset, 0},
    {"tostring", ARR(p_to), NULL, S, NULL, fn_tostring, FN_NULLABLE},
    {"transpose", ARR(p_transpose), NULL, &ty_map_list_string, NULL,
     fn_transpose, FN_WHOLLY_KNOWN},
    {"trim", ARR(p_str_cutset), NULL, S, NULL, fn_trim, 0},
    {"trimprefix", ARR(p_str_prefix), NULL, S, NULL, fn_trimprefix, 0},
    {"trimspace", ARR(p_str), NULL, S, NULL, fn_trimspace, 0},
    {"trimsuffix", ARR(p_str_suffix), NULL, S, NULL, fn_trimsuffix, 0},
    {"try", NOP, p_try, D, NULL, NULL, FN_SPECIAL},
    {"type", ARR(p_value_marked), NULL, D, NULL, fn_type, FN_CONSOLE},
    {"upper", ARR(p_str), NULL, S, NULL, fn_upper, 0},
    {"urldecode", ARR(p_str), NULL, S, NULL, fn_urldecode, 0},
    {"urlencode", ARR(p_str), NULL, S, NULL, fn_urlencode, 0},
    {"uuid", NOP, NULL, S, NULL, fn_uuid, FN_IMPURE},
    {"uuidv5", ARR(p_uuidv5), NULL, S, NULL, fn_uuidv5, 0},
    {"values", ARR(p_values), NULL, D, NULL, fn_values, 0},
    {"yamldecode", ARR(p_src), NULL, D, NULL, fn_yamldecode, 0},
    {"yamlencode", ARR(p_yamlencode), NULL, S, NULL, fn_yamlencode,
     FN_WHOLLY_KNOWN},
    {"zipmap", ARR(p_zipmap), NULL, D, NULL, fn_zipmap, 0},
};

#define NFUNCS ((uint32_t)(sizeof(fn_table) / sizeof(fn_table[0])))

const FnDef *fn_table_get(uint32_t *n)
{
  *n = NFUNCS;
  return fn_table;
}

const FnDef *fn_lookup(const char *name)
{
  if (strncmp(name, "core::", 6) == 0)
    name += 6;
  uint32_t lo = 0, hi = NFUNCS;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    int r = strcmp(name, fn_table[mid].name);
    if (r == 0)
      return &fn_table[mid];
    if (r < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return NULL;
}

void fn_call_init(FnCall *c, Arena *a)
{
  memset(c, 0, sizeof *c);
  c->arena = a;
  c->err.arg = -1;
}

/* ---- Errors -------------------------------------------------------------- */

static const FnParam *param_at(const FnDef *f, uint32_t i)
{
  if (i < f->nparams)
    return &f->params[i];
  return f->varparam;
}

static void set_error(FnCall *c, const char *summary, const char *detail,
                      const char *msg, int arg)
{
  c->err.summary = summary;
  c->err.detail = detail;
  c->err.msg = msg;
  c->err.arg = arg;
}

static bool vfail(FnCall *c, int arg, const char *fmt, va_list ap)
{
  Buf b;
  buf_init(&b, c->arena);
  buf_vprintf(&b, fmt, ap);
  const char *msg = buf_str(&b);
  const char *fname = c->def ? c->def->name : "?";
  const FnParam *p = (arg >= 0 && c->def) ? param_at(c->def, (uint32_t)arg)
                                          : NULL;
  if (p)
    set_error(c, "Invalid function argument",
              arena_printf(c->arena, "Invalid value for \"%s\" parameter: %s.",
                           p->name, msg),
              msg, arg);
  else
    set_error(c, "Error in function call",
              arena_printf(c->arena, "Call to function \"%s\" failed: %s.",
                           fname, msg),
              msg, -1);
  return false;
}

bool fn_error(FnCall *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vfail(c, -1, fmt, ap);
  va_end(ap);
  return false;
}

bool fn_arg_error(FnCall *c, int arg, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vfail(c, arg, fmt, ap);
  va_end(ap);
  return false;
}

/* ---- The call machinery --------------------------------------------------- */

bool fn_call(const FnDef *f, FnCall *c, const Value *args, uint32_t nargs,
             Value *out)
{
  Arena *a = c->arena;
  c->def = f;
  memset(&c->err, 0, sizeof c->err);
  c->err.arg = -1;
  *out = val_dynamic_unknown;

  if (f->flags & FN_SPECIAL) {
    set_error(c, "Error in function call",
              arena_printf(a, "Call to function \"%s\" failed: this function "
                              "must be evaluated by the expression evaluator.",
                           f->name),
              "special form", -1);
    return false;
  }
  if (nargs < f->nparams) {
    set_error(c, "Not enough function arguments",
              arena_printf(a,
                           "Function \"%s\" expects%s %u argument(s). Missing "
                           "value for \"%s\".",
                           f->name, f->varparam ? " at least" : "",
                           (unsigned)f->nparams, f->params[nargs].name),
              "not enough arguments", -1);
    return false;
  }
  if (!f->varparam && nargs > f->nparams) {
    set_error(c, "Too many function arguments",
              arena_printf(a, "Function \"%s\" expects only %u argument(s).",
                           f->name, (unsigned)f->nparams),
              "too many arguments", (int)f->nparams);
    return false;
  }
  if ((f->flags & FN_CONSOLE) && !c->console)
    return fn_error(c, "the \"%s\" function is only available in the "
                       "Terraform console", f->name);
  if ((f->flags & FN_NOTEMPLATE) && c->in_template)
    return fn_error(c, "cannot recursively call %s from inside another "
                       "template function", f->name);

  /* Conversion to the parameter types (HCL's call expression). */
  Value *cv = ARENA_NEW(a, Value, nargs ? nargs : 1);
  for (uint32_t i = 0; i < nargs; i++) {
    const FnParam *p = param_at(f, i);
    const char *msg = NULL;
    if (!fn_convert(a, args[i], p->type, &cv[i], &msg)) {
      set_error(c, "Invalid function argument",
                arena_printf(a, "Invalid value for \"%s\" parameter: %s.",
                             p->name, msg),
                msg, (int)i);
      return false;
    }
  }
  /* Nulls, then dynamic-typed arguments (cty's type check). */
  bool dyn = false;
  for (uint32_t i = 0; i < nargs; i++) {
    const FnParam *p = param_at(f, i);
    if (val_is_null(cv[i]) && !(p->flags & FP_NULL))
      return fn_arg_error(c, (int)i, "argument must not be null");
    if (cv[i].type->kind == TY_DYNAMIC && !(p->flags & FP_DYNAMIC))
      dyn = true;
  }
  const Type *ret = f->ret ? f->ret : &ty_dynamic;
  if (!dyn && f->ret_fn)
    ret = f->ret_fn(c, cv, nargs);
  if (dyn)
    ret = &ty_dynamic;

  /* Marks: the impl sees unmarked values unless it handles them. */
  uint16_t marks = 0;
  for (uint32_t i = 0; i < nargs; i++) {
    const FnParam *p = param_at(f, i);
    uint16_t m = (p->flags & FP_MARKED) ? 0 : val_marks_deep(cv[i]);
    if (m) {
      marks = (uint16_t)(marks | m);
      cv[i] = val_unmark_deep(a, cv[i]);
    }
  }
  /* Unknowns. */
  bool unk = false;
  for (uint32_t i = 0; i < nargs; i++) {
    const FnParam *p = param_at(f, i);
    if (val_is_unknown(cv[i]) && !(p->flags & FP_UNKNOWN))
      unk = true;
    if ((f->flags & FN_WHOLLY_KNOWN) && !val_is_wholly_known(cv[i]))
      unk = true;
  }
  /* cty's RefineResult: the functions with a fixed primitive result
  ** (upper, md5, timestamp, length...) refine an unknown result as never
  ** null, so `f(x) != null` is known.  Collection results and the other
  ** refinements (string prefixes, number and length ranges) are not
  ** modelled. */
  bool refine = ty_is_primitive(ret) && !(f->flags & FN_NULLABLE);
  if (unk || ((f->flags & FN_IMPURE) && c->pure_only)) {
    *out = val_unknown(ret);
    if (refine)
      *out = val_mark(*out, VF_NOTNULL);
    *out = val_mark(*out, marks);
    return true;
  }
  if (!f->impl(c, cv, nargs, out)) {
    *out = val_dynamic_unknown;
    return false;
  }
  if (refine && val_is_unknown(*out))
    *out = val_mark(*out, VF_NOTNULL);
  *out = val_mark(*out, marks);
  return true;
}

/* ---- Shared helpers -------------------------------------------------------- */

uint32_t fn_utf8_dec(const char *s, size_t n, size_t *len)
{
  const unsigned char *u = (const unsigned char *)s;
  uint32_t r;
  size_t l;
  if (u[0] < 0x80) {
    *len = 1;
    return u[0];
  } else if ((u[0] & 0xE0) == 0xC0) {
    r = u[0] & 0x1F;
    l = 2;
  } else if ((u[0] & 0xF0) == 0xE0) {
    r = u[0] & 0x0F;
    l = 3;
  } else if ((u[0] & 0xF8) == 0xF0) {
    r = u[0] & 0x07;
    l = 4;
  } else {
    *len = 1;
    return 0xFFFD;
  }
  if (l > n) {
    *len = 1;
    return 0xFFFD;
  }
  for (size_t i = 1; i < l; i++) {
    if ((u[i] & 0xC0) != 0x80) {
      *len = 1;
      return 0xFFFD;
    }
    r = (r << 6) | (u[i] & 0x3F);
  }
  /* Overlong forms, surrogates and out-of-range values are invalid. */
  if ((l == 2 && r < 0x80) || (l == 3 && r < 0x800) ||
      (l == 4 && r < 0x10000) || r > 0x10FFFF ||
      (r >= 0xD800 && r <= 0xDFFF)) {
    *len = 1;
    return 0xFFFD;
  }
  *len = l;
  return r;
}

bool fn_utf8_valid(const char *s, size_t n)
{
  size_t i = 0;
  while (i < n) {
    size_t l;
    uint32_t r = fn_utf8_dec(s + i, n - i, &l);
    if (r == 0xFFFD && l == 1 && (unsigned char)s[i] >= 0x80)
      return false;
    i += l;
  }
  return true;
}

/* Combining marks and joiners that extend the previous character: a
** small approximation of Unicode grapheme cluster rules (UAX #29) that
** covers the common cases (accents, variation selectors, ZWJ emoji
** sequences, skin-tone modifiers, regional-indicator pairs handled by
** the caller). */
static bool is_extend(uint32_t r)
{
  return (r >= 0x0300 && r <= 0x036F) || (r >= 0x1AB0 && r <= 0x1AFF) ||
         (r >= 0x1DC0 && r <= 0x1DFF) || (r >= 0x20D0 && r <= 0x20FF) ||
         (r >= 0xFE20 && r <= 0xFE2F) || (r >= 0xFE00 && r <= 0xFE0F) ||
         (r >= 0x1F3FB && r <= 0x1F3FF) || r == 0x200D ||
         (r >= 0xE0100 && r <= 0xE01EF) || (r >= 0x0483 && r <= 0x0489) ||
         (r >= 0x0591 && r <= 0x05BD) || (r >= 0x0610 && r <= 0x061A) ||
         (r >= 0x064B && r <= 0x065F) || (r >= 0x0900 && r <= 0x0903) ||
         (r >= 0x093A && r <= 0x094F) || (r >= 0xE0020 && r <= 0xE007F);
}

size_t fn_grapheme_len(const char *s, size_t n)
{
  size_t l;
  uint32_t r = fn_utf8_dec(s, n, &l);
  size_t i = l;
  bool ri = r >= 0x1F1E6 && r <= 0x1F1FF;
  if (r == '\r' && i < n && s[i] == '\n')
    return 2;
  bool zwj = false;
  while (i < n) {
    size_t l2;
    uint32_t r2 = fn_utf8_dec(s + i, n - i, &l2);
    if (is_extend(r2)) {
      zwj = r2 == 0x200D;
      i += l2;
      continue;
    }
    if (zwj && r2 >= 0x2000) {  /* emoji ZWJ sequence continues */
      zwj = false;
      i += l2;
      continue;
    }
    if (ri && r2 >= 0x1F1E6 && r2 <= 0x1F1FF) {
      ri = false;
      i += l2;
      continue;
    }
    break;
  }
  return i;
}

size_t fn_graphemes(const char *s, size_t n)
{
  size_t count = 0, i = 0;
  while (i < n) {
    i += fn_grapheme_len(s + i, n - i);
    count++;
  }
  return count;
}

Value fn_buf_val(Buf *b)
{
  if (!b->p)
    return val_str_ref("", 0);
  return val_str_ref(b->p, b->len);
}

const Value *fn_elems(Value v, uint32_t *n)
{
  *n = 0;
  if (val_is_null(v) || val_is_unknown(v))
    return NULL;
  switch (v.type->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
  case TY_OBJECT:
    *n = v.len;
    return v.u.elems;
  default:
    return NULL;
  }
}

bool fn_is_seq(const Type *t)
{
  return t->kind == TY_LIST || t->kind == TY_SET || t->kind == TY_TUPLE;
}

bool fn_is_mapish(const Type *t)
{
  return t->kind == TY_MAP || t->kind == TY_OBJECT;
}

const Type *fn_elem_type(Arena *a, Value v)
{
  const Type *t = v.type;
  switch (t->kind) {
  case TY_LIST:
  case TY_SET:
  case TY_MAP:
    return t->elem;
  case TY_TUPLE:
  case TY_OBJECT:
    if (t->n == 0)
      return &ty_dynamic;
    return fn_unify(a, t->types, t->n, false);
  default:
    return NULL;
  }
}

bool fn_num_i64(Value v, int64_t *out) { return val_num_int(v, out); }
