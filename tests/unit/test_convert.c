/*
** test_convert: cty conversion and unification (core/base/convert.h).
**
** Cases are written in a small notation parsed below, so the tables read
** like the cty behaviour they pin down (each checked against go-cty):
**   types   string number bool any list(T) set(T) map(T)
**           object({a=T,b=optional(T),c=optional(T,V)}) tuple([T,T])
**   values  "s" 1.5 true null(T) unk(T) !V (sensitive) [V,V] (tuple)
**           L(T)[V] S(T)[V] M(T){k=V} {a=V} (object)
** A result renders as "VALUE : TYPE" (ty_hcl), an error as "ERR:" followed
** by Terraform's FormatError text (path, then cty's message).
*/
#include <stdlib.h>

#include "base/convert.h"
#include "t.h"

static Arena A;
static const char *P;
static int parse_err;

static void ws(void)
{
  while (*P == ' ')
    P++;
}

static bool eat(const char *s)
{
  ws();
  size_t n = strlen(s);
  if (strncmp(P, s, n) == 0) {
    P += n;
    return true;
  }
  return false;
}

static void expect(const char *s)
{
  if (!eat(s)) {
    fprintf(stderr, "parse: expected '%s' at '%s'\n", s, P);
    parse_err = 1;
  }
}

static const char *ident(void)
{
  ws();
  const char *b = P;
  while ((*P >= 'a' && *P <= 'z') || (*P >= '0' && *P <= '9') || *P == '_')
    P++;
  return arena_strndup(&A, b, (size_t)(P - b));
}

static Value pval(void);

static const Type *ptype(void)
{
  if (eat("string"))
    return &ty_string;
  if (eat("number"))
    return &ty_number;
  if (eat("bool"))
    return &ty_bool;
  if (eat("any"))
    return &ty_dynamic;
  int k = eat("list(") ? 1 : eat("set(") ? 2 : eat("map(") ? 3 : 0;
  if (k) {
    const Type *e = ptype();
    expect(")");
    return k == 1 ? ty_list(&A, e) : k == 2 ? ty_set(&A, e) : ty_map(&A, e);
  }
  if (eat("object({")) {
    const char *names[16];
    const Type *types[16];
    uint8_t opt[16] = {0};
    Value defs[16];
    bool any_def = false;
    uint32_t n = 0;
    while (!eat("})") && n < 16 && !parse_err) {
      if (n)
        expect(",");
      names[n] = ident();
      expect("=");
      defs[n] = val_null(&ty_dynamic);
      defs[n].flags |= VF_NODEFAULT;
      if (eat("optional(")) {
        opt[n] = 1;
        types[n] = ptype();
        if (eat(",")) {
          defs[n] = pval();
          any_def = true;
        }
        expect(")");
      } else {
        types[n] = ptype();
      }
      n++;
    }
    Value *dd = NULL;
    if (any_def) {
      dd = ARENA_NEW(&A, Value, n);
      memcpy(dd, defs, n * sizeof *dd);
    }
    return ty_object_opt(&A, n, names, types, opt, dd);
  }
  if (eat("tuple([")) {
    const Type *types[16];
    uint32_t n = 0;
    while (!eat("])") && n < 16 && !parse_err) {
      if (n)
        expect(",");
      types[n++] = ptype();
    }
    return ty_tuple(&A, n, types);
  }
  fprintf(stderr, "parse: bad type at '%s'\n", P);
  parse_err = 1;
  return &ty_dynamic;
}

static uint32_t pelems(Value **out, const char *close)
{
  Value tmp[32];
  uint32_t n = 0;
  while (!eat(close) && n < 32 && !parse_err) {
    if (n)
      expect(",");
    tmp[n++] = pval();
  }
  *out = ARENA_NEW(&A, Value, n);
  memcpy(*out, tmp, n * sizeof tmp[0]);
  return n;
}

static Value pval(void)
{
  ws();
  if (eat("!"))
    return val_sensitive(pval());
  if (*P == '"') {
    const char *b = ++P;
    while (*P && *P != '"')
      P++;
    Value v = val_str(&A, b, (size_t)(P - b));
    if (*P)
      P++;
    return v;
  }
  if ((*P >= '0' && *P <= '9') || *P == '-') {
    const char *b = P;
    while ((*P >= '0' && *P <= '9') || *P == '-' || *P == '.' || *P == 'e')
      P++;
    Value v = val_dynamic_null;
    if (!val_parse_number(&A, b, (size_t)(P - b), false, &v))
      parse_err = 1;
    return v;
  }
  if (eat("true"))
    return val_true;
  if (eat("false"))
    return val_false;
  if (eat("null(") || eat("unk(")) {
    bool null = P[-2] == 'l';
    const Type *t = ptype();
    expect(")");
    return null ? val_null(t) : val_unknown(t);
  }
  if (eat("[")) {
    Value *e;
    uint32_t n = pelems(&e, "]");
    return val_tuple(&A, e, n);
  }
  if (eat("L(") || eat("S(")) {
    bool set = P[-2] == 'S';
    const Type *t = ptype();
    expect(")");
    expect("[");
    Value *e;
    uint32_t n = pelems(&e, "]");
    return set ? val_set(&A, t, e, n) : val_list(&A, t, e, n);
  }
  if (eat("M(")) {
    const Type *t = ptype();
    expect(")");
    expect("{");
    MapEntry *me = ARENA_NEW(&A, MapEntry, 32);
    uint32_t n = 0;
    while (!eat("}") && n < 32 && !parse_err) {
      if (n)
        expect(",");
      me[n].key = ident();
      me[n].keylen = (uint32_t)strlen(me[n].key);
      expect("=");
      me[n].val = pval();
      n++;
    }
    return val_map(&A, t, me, n);
  }
  if (eat("{")) {
    const char *names[32];
    Value vals[32];
    uint32_t n = 0;
    while (!eat("}") && n < 32 && !parse_err) {
      if (n)
        expect(",");
      names[n] = ident();
      expect("=");
      vals[n++] = pval();
    }
    return val_object(&A, n, names, vals);
  }
  fprintf(stderr, "parse: bad value at '%s'\n", P);
  parse_err = 1;
  P += strlen(P);
  return val_dynamic_null;
}

static void render(Buf *b, Value v)
{
  if (val_is_sensitive(v))
    buf_putc(b, '!');
  if (val_is_null(v)) {
    buf_puts(b, "null");
    return;
  }
  if (val_is_unknown(v)) {
    buf_putc(b, '?');
    return;
  }
  switch (v.type->kind) {
  case TY_STRING:
    buf_printf(b, "\"%s\"", v.u.s);
    return;
  case TY_NUMBER:
    val_num_format(b, v);
    return;
  case TY_BOOL:
    buf_puts(b, v.u.b ? "true" : "false");
    return;
  case TY_LIST:
  case TY_SET:
  case TY_TUPLE:
    buf_puts(b, v.type->kind == TY_LIST ? "L[" :
                v.type->kind == TY_SET ? "S[" : "[");
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_putc(b, ',');
      render(b, v.u.elems[i]);
    }
    buf_putc(b, ']');
    return;
  case TY_MAP:
    buf_puts(b, "M{");
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_putc(b, ',');
      buf_printf(b, "%s=", v.u.entries[i].key);
      render(b, v.u.entries[i].val);
    }
    buf_putc(b, '}');
    return;
  case TY_OBJECT:
    buf_putc(b, '{');
    for (uint32_t i = 0; i < v.len; i++) {
      if (i)
        buf_putc(b, ',');
      buf_printf(b, "%s=", v.type->names[i]);
      render(b, v.u.elems[i]);
    }
    buf_putc(b, '}');
    return;
  case TY_DYNAMIC:
    buf_puts(b, "dyn");
    return;
  }
}

static Value parse_value(const char *s)
{
  P = s;
  parse_err = 0;
  Value v = pval();
  ws();
  if (*P)
    parse_err = 1;
  return v;
}

static const Type *parse_type(const char *s)
{
  P = s;
  parse_err = 0;
  const Type *t = ptype();
  ws();
  if (*P)
    parse_err = 1;
  return t;
}

static const char *run_convert(const char *in, const char *ty, bool unsafe)
{
  Value v = parse_value(in);
  T_CHECK(!parse_err);
  const Type *t = parse_type(ty);
  T_CHECK(!parse_err);
  Buf b;
  buf_init(&b, &A);
  Value out;
  ConvError err = {NULL, {NULL, 0}};
  if (conv_convert(&A, v, t, unsafe, &out, &err)) {
    render(&b, out);
    buf_puts(&b, " : ");
    ty_hcl(&b, out.type);
  } else {
    buf_puts(&b, "ERR:");
    conv_error_format(&b, &err);
  }
  return buf_str(&b);
}

/* mode: 'B' both, 'S' safe only, 'U' unsafe only */
typedef struct ConvCase {
  char mode;
  const char *in;
  const char *type;
  const char *want;
} ConvCase;

static const ConvCase conv_cases[] = {
  /* primitives */
  {'B', "1", "string", "\"1\" : string"},
  {'B', "1.5", "string", "\"1.5\" : string"},
  {'B', "-0.25", "string", "\"-0.25\" : string"},
  {'B', "1e21", "string", "\"1000000000000000000000\" : string"},
  {'B', "true", "string", "\"true\" : string"},
  {'B', "false", "string", "\"false\" : string"},
  {'B', "\"x\"", "string", "\"x\" : string"},
  {'S', "\"12\"", "number", "ERR:number required"},
  {'U', "\"12\"", "number", "12 : number"},
  {'U', "\"1e3\"", "number", "1000 : number"},
  {'U', "\"-1.5\"", "number", "-1.5 : number"},
  {'U', "\"+5\"", "number", "5 : number"},
  {'U', "\".5\"", "number", "0.5 : number"},
  {'U', "\"123456789012345678901234567890\"", "number",
   "123456789012345678901234567890 : number"},
  {'U', "\"inf\"", "number", "+Inf : number"},
  {'U', "\"-Inf\"", "number", "-Inf : number"},
  {'U', "\"abc\"", "number", "ERR:a number is required"},
  {'U', "\" 1\"", "number", "ERR:a number is required"},
  {'U', "\"1_000\"", "number", "ERR:a number is required"},
  {'U', "\"\"", "number", "ERR:a number is required"},
  {'S', "\"true\"", "bool", "ERR:bool required"},
  {'U', "\"true\"", "bool", "true : bool"},
  {'U', "\"false\"", "bool", "false : bool"},
  {'U', "\"1\"", "bool", "true : bool"},
  {'U', "\"0\"", "bool", "false : bool"},
  {'U', "\"True\"", "bool",
   "ERR:a bool is required; to convert from string, use lowercase \"true\""},
  {'U', "\"FALSE\"", "bool",
   "ERR:a bool is required; to convert from string, use lowercase \"false\""},
  {'U', "\"yes\"", "bool", "ERR:a bool is required"},
  {'B', "1", "bool", "ERR:bool required"},
  {'B', "true", "number", "ERR:number required"},
  {'U', "!\"5\"", "number", "!5 : number"},
  /* null, unknown, dynamic */
  {'S', "null(string)", "number", "ERR:number required"},
  {'U', "null(string)", "number", "null : number"},
  {'U', "unk(string)", "number", "? : number"},
  {'S', "unk(any)", "string", "ERR:string required"},
  {'U', "unk(any)", "string", "? : string"},
  {'U', "null(any)", "list(string)", "null : list(string)"},
  {'B', "\"a\"", "any", "\"a\" : string"},
  {'B', "[1,\"a\"]", "any", "[1,\"a\"] : tuple([number,string])"},
  {'B', "unk(tuple([string,number]))", "list(any)", "? : list(string)"},
  {'B', "unk(object({a=string}))", "map(any)", "? : map(string)"},
  {'B', "unk(list(string))", "list(any)", "? : list(string)"},
  {'B', "null(set(number))", "list(string)", "null : list(string)"},
  {'B', "!unk(number)", "string", "!? : string"},
  /* lists, sets, tuples */
  {'S', "L(string)[\"a\",\"b\"]", "set(string)",
   "ERR:incorrect set element type: string required"},
  {'U', "L(string)[\"b\",\"a\",\"b\"]", "set(string)",
   "S[\"a\",\"b\"] : set(string)"},
  {'B', "S(string)[\"b\",\"a\"]", "list(string)",
   "L[\"a\",\"b\"] : list(string)"},
  {'B', "S(number)[1,2]", "set(string)", "S[\"1\",\"2\"] : set(string)"},
  {'B', "L(number)[1,2]", "list(string)", "L[\"1\",\"2\"] : list(string)"},
  {'U', "L(string)[\"1\",\"x\"]", "list(number)",
   "ERR:[1]: a number is required"},
  {'B', "L(string)[\"a\"]", "tuple([string])", "ERR:tuple required"},
  {'B', "[\"a\",1]", "list(string)", "L[\"a\",\"1\"] : list(string)"},
  {'B', "[\"a\",1]", "list(any)", "L[\"a\",\"1\"] : list(string)"},
  {'U', "[\"1\",\"x\"]", "list(number)", "ERR:[1]: a number is required"},
  {'S', "[\"1\",\"x\"]", "list(number)", "ERR:all elements must be number"},
  {'B', "[\"a\",true]", "list(number)", "ERR:element 1: number required"},
  {'B', "[{a=1},\"x\"]", "list(string)",
   "ERR:element 0: string required"},
  {'B', "[1,{a=true}]", "list(any)",
   "ERR:all list elements must have the same type"},
  {'B', "[1,{a=true}]", "set(any)",
   "ERR:all set elements must have the same type"},
  {'B', "[]", "list(string)", "L[] : list(string)"},
  {'B', "[]", "list(any)", "L[] : list(any)"},
  {'B', "[1,2]", "set(number)", "S[1,2] : set(number)"},
  {'B', "[2,1,2]", "set(any)", "S[1,2] : set(number)"},
  {'B', "[[1],[\"a\"]]", "list(list(string))",
   "L[L[\"1\"],L[\"a\"]] : list(list(string))"},
  {'B', "[[1],[\"a\"]]", "list(any)",
   "L[[\"1\"],[\"a\"]] : list(tuple([string]))"},
  {'B', "[[1],[\"a\",\"b\"]]", "list(any)",
   "L[L[\"1\"],L[\"a\",\"b\"]] : list(list(string))"},
  {'B', "[1,\"a\"]", "tuple([string,string])",
   "[\"1\",\"a\"] : tuple([string,string])"},
  {'B', "[1]", "tuple([string,string])", "ERR:tuple required"},
  {'U', "[unk(any),\"a\"]", "list(string)", "L[?,\"a\"] : list(string)"},
  {'S', "[unk(any),\"a\"]", "list(string)",
   "ERR:all elements must be string"},
  {'B', "[unk(number),\"a\"]", "list(string)", "L[?,\"a\"] : list(string)"},
  {'B', "[!1,2]", "list(string)", "L[!\"1\",\"2\"] : list(string)"},
  {'B', "\"a\"", "list(any)", "ERR:list of any single type required"},
  {'B', "\"x\"", "list(string)", "ERR:list of string required"},
  {'B', "{a=1}", "list(string)", "ERR:list of string required"},
  {'B', "[1]", "map(string)", "ERR:map of string required"},
  {'B', "M(number){a=1}", "list(number)", "ERR:list of number required"},
  {'B', "L(number)[1]", "map(number)", "ERR:map of number required"},
  {'B', "L(object({a=number}))[]", "list(string)",
   "ERR:incorrect list element type: string required"},
  /* maps and objects */
  {'B', "{a=1,b=\"x\"}", "map(string)",
   "M{a=\"1\",b=\"x\"} : map(string)"},
  {'B', "{a=1,b=\"x\"}", "map(any)", "M{a=\"1\",b=\"x\"} : map(string)"},
  {'B', "{a=true,b=1}", "map(any)",
   "ERR:all map elements must have the same type"},
  {'B', "{}", "map(string)", "M{} : map(string)"},
  {'B', "{a={x=true},b=\"s\"}", "map(string)",
   "ERR:element \"a\": string required"},
  {'U', "{a=\"1\",b=\"x\"}", "map(number)",
   "ERR:[\"b\"]: a number is required"},
  {'B', "M(number){a=1}", "map(string)", "M{a=\"1\"} : map(string)"},
  {'B', "M(list(string)){}", "map(string)",
   "ERR:incorrect map element type: string required"},
  {'S', "M(string){a=\"1\",b=\"2\"}", "object({a=number,b=number})",
   "ERR:object required"},
  {'U', "M(string){a=\"1\",b=\"2\"}", "object({a=number,b=number})",
   "{a=1,b=2} : object({a=number,b=number})"},
  {'U', "M(string){a=\"1\"}", "object({a=string,b=string})",
   "ERR:map has no element for required attribute \"b\""},
  {'U', "M(string){a=\"1\",c=\"3\"}", "object({a=string})",
   "{a=\"1\"} : object({a=string})"},
  {'U', "M(string){a=\"x\"}", "object({a=number})",
   "ERR:[\"a\"]: a number is required"},
  {'U', "M(string){a=\"x\"}", "object({a=string,b=optional(number,7)})",
   "{a=\"x\",b=7} : object({a=string,b=number})"},
  {'B', "{a=1,b=2}", "object({a=number})", "{a=1} : object({a=number})"},
  {'B', "{a=1}", "object({a=number,b=string})",
   "ERR:attribute \"b\" is required"},
  {'B', "{}", "object({a=number,b=string})",
   "ERR:attributes \"a\" and \"b\" are required"},
  {'B', "{}", "object({a=number,b=string,c=bool})",
   "ERR:attributes \"a\", \"b\", and \"c\" are required"},
  {'U', "{a=\"x\"}", "object({a=number})", "ERR:.a: a number is required"},
  {'S', "{a=\"x\"}", "object({a=number})",
   "ERR:attribute \"a\": number required"},
  {'U', "{a={b=\"x\"}}", "object({a=object({b=bool})})",
   "ERR:.a.b: a bool is required"},
  {'S', "{a={b=\"x\"}}", "object({a=object({b=bool})})",
   "ERR:attribute \"a\": attribute \"b\": bool required"},
  {'B', "{a=1}", "object({a=list(string)})",
   "ERR:attribute \"a\": list of string required"},
  {'B', "1", "object({})", "ERR:object required"},
  {'B', "1", "tuple([])", "ERR:tuple required"},
  /* optional attributes and defaults */
  {'B', "{a=1}", "object({a=number,b=optional(string)})",
   "{a=1,b=null} : object({a=number,b=string})"},
  {'B', "{a=1}", "object({a=number,b=optional(string,\"d\")})",
   "{a=1,b=\"d\"} : object({a=number,b=string})"},
  {'B', "{a=1,b=null(string)}",
   "object({a=number,b=optional(string,\"d\")})",
   "{a=1,b=\"d\"} : object({a=number,b=string})"},
  {'B', "{a=1,b=unk(string)}",
   "object({a=number,b=optional(string,\"d\")})",
   "{a=1,b=?} : object({a=number,b=string})"},
  {'B', "{a=1,b=\"z\"}", "object({a=number,b=optional(string,\"d\")})",
   "{a=1,b=\"z\"} : object({a=number,b=string})"},
  {'B', "{}", "object({o=optional(object({x=optional(number,5)}),{})})",
   "{o={x=5}} : object({o=object({x=number})})"},
  {'B', "{}", "object({o=optional(object({x=optional(number,5)}))})",
   "{o=null} : object({o=object({x=number})})"},
  {'B', "[{a=1},{a=2,b=\"z\"}]",
   "list(object({a=number,b=optional(string,\"d\")}))",
   "L[{a=1,b=\"d\"},{a=2,b=\"z\"}] : list(object({a=number,b=string}))"},
  {'B', "null(object({a=number}))",
   "object({a=number,b=optional(string,\"d\")})",
   "null : object({a=number,b=string})"},
  {'B', "M(object({a=number})){k={a=1}}",
   "map(object({a=number,b=optional(bool,true)}))",
   "M{k={a=1,b=true}} : map(object({a=number,b=bool}))"},
  {'B', "L(object({a=string}))[{a=\"x\"}]",
   "list(object({a=string,b=optional(number)}))",
   "L[{a=\"x\",b=null}] : list(object({a=string,b=number}))"},
  {'B', "{a=1}", "object({a=number,b=optional(list(string),[\"x\",1])})",
   "{a=1,b=L[\"x\",\"1\"]} : object({a=number,b=list(string)})"},
  /* marks */
  {'B', "!{a=1}", "map(string)", "!M{a=\"1\"} : map(string)"},
  {'B', "{a=!1,b=2}", "object({a=string})",
   "{a=!\"1\"} : object({a=string})"},
  {'U', "!L(string)[\"x\"]", "set(string)", "!S[\"x\"] : set(string)"},
};

static void test_convert_table(void)
{
  size_t n = sizeof conv_cases / sizeof conv_cases[0];
  T_CHECK(n >= 60);
  for (size_t i = 0; i < n; i++) {
    const ConvCase *c = &conv_cases[i];
    if (c->mode == 'B' || c->mode == 'S') {
      const char *got = run_convert(c->in, c->type, false);
      if (strcmp(got, c->want) != 0)
        fprintf(stderr, "  safe   %s -> %s\n", c->in, c->type);
      T_EQ_STR(got, c->want);
    }
    if (c->mode == 'B' || c->mode == 'U') {
      const char *got = run_convert(c->in, c->type, true);
      if (strcmp(got, c->want) != 0)
        fprintf(stderr, "  unsafe %s -> %s\n", c->in, c->type);
      T_EQ_STR(got, c->want);
    }
  }
}

typedef struct UnifyCase {
  const char *types;   /* ';'-separated */
  const char *safe;    /* result type or "NONE" */
  const char *unsafe;
} UnifyCase;

static const UnifyCase unify_cases[] = {
  {"string;string", "string", "string"},
  {"string;number", "string", "string"},
  {"number;string", "string", "string"},
  {"number;bool", "NONE", "NONE"},
  {"string;bool", "string", "string"},
  {"string;number;bool", "string", "string"},
  {"string;any", "any", "string"},
  {"number;any", "any", "number"},
  {"any;any", "any", "any"},
  {"number", "number", "number"},
  {"list(string);list(number)", "list(string)", "list(string)"},
  {"list(string);any", "any", "any"},
  {"list(string);set(string)", "list(string)", "list(string)"},
  {"set(string);list(number)", "NONE", "list(number)"},
  {"set(number);set(bool)", "NONE", "NONE"},
  {"map(string);map(number)", "map(string)", "map(string)"},
  {"map(string);object({a=number})", "map(string)", "map(string)"},
  {"map(string);object({})", "map(string)", "map(string)"},
  {"object({a=string});object({a=number})", "object({a=string})",
   "object({a=string})"},
  {"object({a=string,b=number});object({a=number,b=number})",
   "object({a=string,b=number})", "object({a=string,b=number})"},
  {"object({a=number});object({b=number})", "map(number)", "map(number)"},
  {"object({a=string});object({b=number})", "map(string)", "map(string)"},
  {"object({a=number});object({b=bool})", "NONE", "NONE"},
  {"object({a=string});any", "any", "any"},
  {"object({});object({})", "object({})", "object({})"},
  {"object({a=string});tuple([string])", "NONE", "NONE"},
  {"tuple([string]);tuple([number])", "tuple([string])", "tuple([string])"},
  {"tuple([string]);tuple([string,string])", "list(string)",
   "list(string)"},
  {"tuple([]);tuple([string])", "list(string)", "list(string)"},
  {"list(string);tuple([string,number])", "list(string)", "list(string)"},
  {"list(string);tuple([number,bool])", "list(string)", "list(string)"},
  {"list(list(string));list(tuple([number]))", "list(list(string))",
   "list(list(string))"},
  {"tuple([number,bool]);tuple([string])", "list(string)", "list(string)"},
  {"tuple([number,bool]);tuple([number])", "NONE", "NONE"},
  {"map(list(string));map(list(number))", "map(list(string))",
   "map(list(string))"},
};

static void test_unify_table(void)
{
  size_t n = sizeof unify_cases / sizeof unify_cases[0];
  T_CHECK(n >= 25);
  for (size_t i = 0; i < n; i++) {
    const UnifyCase *c = &unify_cases[i];
    const Type *tys[8];
    uint32_t nt = 0;
    P = c->types;
    parse_err = 0;
    while (*P && nt < 8) {
      tys[nt++] = ptype();
      eat(";");
    }
    T_CHECK(!parse_err);
    for (int u = 0; u < 2; u++) {
      const Type *r = conv_unify(&A, tys, nt, u == 1);
      Buf b;
      buf_init(&b, &A);
      if (r)
        ty_hcl(&b, r);
      else
        buf_puts(&b, "NONE");
      const char *want = u ? c->unsafe : c->safe;
      if (strcmp(buf_str(&b), want) != 0)
        fprintf(stderr, "  unify %s (%s)\n", c->types, u ? "unsafe" : "safe");
      T_EQ_STR(buf_str(&b), want);
    }
  }
  T_CHECK(conv_unify(&A, NULL, 0, true) == NULL);
}

static void test_friendly_and_helpers(void)
{
  Buf b;
  buf_init(&b, &A);
  conv_friendly_constraint(&b, &ty_dynamic);
  T_EQ_STR(buf_str(&b), "any type");
  buf_clear(&b);
  conv_friendly_constraint(&b, ty_list(&A, ty_list(&A, &ty_dynamic)));
  T_EQ_STR(buf_str(&b), "list of list of any single type");
  buf_clear(&b);
  conv_friendly_constraint(&b, ty_map(&A, &ty_string));
  T_EQ_STR(buf_str(&b), "map of string");

  const Type *opt = parse_type("object({a=optional(string,\"x\"),"
                               "b=list(object({c=optional(bool)}))})");
  T_CHECK(!parse_err);
  const Type *st = conv_strip_optional(&A, opt);
  buf_clear(&b);
  ty_hcl(&b, st);
  T_EQ_STR(buf_str(&b), "object({a=string,b=list(object({c=bool}))})");
  T_CHECK(st->defaults == NULL && st->optional == NULL);
  T_CHECK(conv_strip_optional(&A, &ty_string) == &ty_string);

  T_CHECK(conv_possible(&A, &ty_number, &ty_string, false));
  T_CHECK(!conv_possible(&A, &ty_string, &ty_number, false));
  T_CHECK(conv_possible(&A, &ty_string, &ty_number, true));
  T_CHECK(conv_possible(&A, &ty_string, &ty_dynamic, false));

  buf_clear(&b);
  conv_mismatch_message(&b, &A, parse_type("tuple([string,object({})])"),
                        ty_set(&A, &ty_string));
  T_EQ_STR(buf_str(&b), "element 1: string required");

  /* A failed conversion leaves *out alone; err may be NULL. */
  Value out = val_true;
  T_CHECK(!conv_convert(&A, val_int(1), &ty_bool, true, &out, NULL));
  T_CHECK(out.u.b);
  Value in = parse_value("L(string)[\"1\",\"x\"]");
  T_CHECK(!conv_convert(&A, in, ty_list(&A, &ty_number), true, &out, NULL));

  /* Error paths render like Terraform's FormatCtyPath. */
  ConvError e = {NULL, {NULL, 0}};
  in = parse_value("{a=[{b=M(string){k=\"x\"}}]}");
  T_CHECK(!conv_convert(&A, in,
                        parse_type("object({a=list(object({b=map(number)}))})"),
                        true, &out, &e));
  buf_clear(&b);
  conv_error_format(&b, &e);
  T_EQ_STR(buf_str(&b), ".a[0].b[\"k\"]: a number is required");
  T_EQ_INT(e.path.n, 4);
}

static void test_unknown_refinement(void)
{
  Value u = val_unknown(&ty_string);
  u.flags |= VF_NOTNULL;
  Value out;
  T_CHECK(conv_convert(&A, u, &ty_number, true, &out, NULL));
  T_CHECK(val_is_unknown(out) && (out.flags & VF_NOTNULL));
  T_CHECK(out.type == &ty_number);
}

/* A long tuple converts in linear time: element types are deduplicated
** before the (quadratic) preference sort. */
static void test_large_tuple(void)
{
  enum { N = 20000 };
  Value *e = ARENA_NEW(&A, Value, N);
  for (uint32_t i = 0; i < N; i++)
    e[i] = (i % 2) ? val_int(i) : val_cstr(&A, "s");
  Value t = val_tuple(&A, e, N);
  Value out;
  T_CHECK(conv_convert(&A, t, ty_list(&A, &ty_dynamic), false, &out, NULL));
  T_EQ_INT(out.len, N);
  T_CHECK(out.type->elem == &ty_string);
  T_CHECK(conv_convert(&A, t, ty_set(&A, &ty_string), false, &out, NULL));
  T_EQ_INT(out.len, N / 2 + 1);
}


/* Every sample value against every sample type, both modes: no crash, and
** a success without "any" in the target has exactly the target type (less
** optional attributes); a failure always has a message. */
static void test_sweep(void)
{
  static const char *vals[] = {
    "\"1\"", "\"x\"", "1.5", "true", "null(string)", "unk(number)",
    "unk(any)", "null(any)", "[]", "[1,\"a\"]", "[[1],[\"a\",\"b\"]]",
    "{}", "{a=1}", "{a=\"1\",b=!true}", "{a={x=1}}",
    "L(string)[\"1\",\"1\"]", "S(number)[1,2]", "M(string){a=\"1\"}",
    "M(list(string)){a=L(string)[\"x\"]}", "[unk(any),null(number)]",
    "L(object({a=number}))[{a=1}]", "!{a=unk(string)}",
  };
  static const char *types[] = {
    "string", "number", "bool", "any", "list(string)", "list(any)",
    "set(number)", "set(any)", "map(string)", "map(any)",
    "object({a=number})", "object({a=string,b=optional(bool,false)})",
    "object({a=optional(object({x=optional(number,3)}),{})})",
    "tuple([string,string])", "tuple([])", "list(list(string))",
    "map(list(any))", "object({})",
  };
  int ok = 0, bad = 0;
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    for (size_t j = 0; j < sizeof types / sizeof types[0]; j++) {
      for (int u = 0; u < 2; u++) {
        Value v = parse_value(vals[i]);
        T_CHECK(!parse_err);
        const Type *t = parse_type(types[j]);
        T_CHECK(!parse_err);
        Value out;
        ConvError e = {NULL, {NULL, 0}};
        if (conv_convert(&A, v, t, u == 1, &out, &e)) {
          ok++;
          if (!ty_has_dynamic(t) &&
              !ty_equal(out.type, conv_strip_optional(&A, t))) {
            fprintf(stderr, "  %s -> %s: wrong type\n", vals[i], types[j]);
            T_CHECK(0);
          }
          T_EQ_INT(val_is_sensitive(out), val_is_sensitive(v));
        } else {
          bad++;
          T_CHECK(e.msg && e.msg[0]);
          /* Unsafe conversion never fails where safe succeeds. */
          if (u == 0)
            continue;
          Value o2;
          T_CHECK(!conv_convert(&A, v, t, false, &o2, NULL));
        }
      }
    }
  }
  T_CHECK(ok > 100 && bad > 100);
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_convert_table);
  T_RUN(test_unify_table);
  T_RUN(test_friendly_and_helpers);
  T_RUN(test_unknown_refinement);
  T_RUN(test_large_tuple);
  T_RUN(test_sweep);
  arena_release(&A);
  return t_done("convert");
}
