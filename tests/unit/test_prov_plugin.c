/*
** test_prov_plugin: the plugin client's provider-function encoding
** (net/prov_plugin.c) without a process: the functions of a
** GetProviderSchema.Response, a CallFunction.Request (one DynamicValue per
** argument, variadic ones included, msgpack with the parameter type) and
** the result or FunctionError of a CallFunction.Response, including the
** presence of function_argument (0 is the first argument, not "none").
** Messages are built with the generated protobuf-c code, as a plugin
** would send them.
*/
#include <string.h>

#include <protobuf-c/protobuf-c.h>
#include <proto/tfplugin6.pb-c.h>

#include "net/prov_plugin.h"
#include "t.h"

static Arena A;

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

/* protobuf-c memory from the test arena (freed with it). */
static void *pb_alloc(void *ud, size_t n)
{
  return arena_alloc_raw(ud, n ? n : 1, 16, 1);
}

static void pb_free(void *ud, void *ptr)
{
  (void)ud;
  (void)ptr;
}

static ProtobufCBinaryData bin(const char *s)
{
  ProtobufCBinaryData b = {strlen(s), (uint8_t *)s};
  return b;
}

static uint8_t *pack(const ProtobufCMessage *m, size_t *n)
{
  *n = protobuf_c_message_get_packed_size(m);
  uint8_t *p = arena_alloc_raw(&A, 1, 1, *n ? *n : 1);
  protobuf_c_message_pack(m, p);
  return p;
}

/* upper(s string, rest... string) string, as a plugin announces it. */
static const ProvProviderSchema *schema(void)
{
  Tfplugin6__Function__Parameter s = TFPLUGIN6__FUNCTION__PARAMETER__INIT;
  s.name = (char *)"s";
  s.type = bin("\"string\"");
  s.allow_unknown_values = true;
  s.description = (char *)"the text";
  Tfplugin6__Function__Parameter rest = TFPLUGIN6__FUNCTION__PARAMETER__INIT;
  rest.name = (char *)"rest";
  rest.type = bin("\"string\"");
  rest.allow_null_value = true;
  Tfplugin6__Function__Return ret = TFPLUGIN6__FUNCTION__RETURN__INIT;
  ret.type = bin("\"string\"");
  Tfplugin6__Function__Parameter *params[] = {&s};
  Tfplugin6__Function f = TFPLUGIN6__FUNCTION__INIT;
  f.n_parameters = 1;
  f.parameters = params;
  f.variadic_parameter = &rest;
  f.return_ = &ret;
  f.summary = (char *)"Upper-cases";
  f.deprecation_message = (char *)"use upper()";
  Tfplugin6__Function g = TFPLUGIN6__FUNCTION__INIT;
  Tfplugin6__Function__Return gret = TFPLUGIN6__FUNCTION__RETURN__INIT;
  gret.type = bin("[\"list\",\"number\"]");
  g.return_ = &gret;
  Tfplugin6__GetProviderSchema__Response__FunctionsEntry e1 =
      TFPLUGIN6__GET_PROVIDER_SCHEMA__RESPONSE__FUNCTIONS_ENTRY__INIT;
  e1.key = (char *)"upper";
  e1.value = &f;
  Tfplugin6__GetProviderSchema__Response__FunctionsEntry e2 =
      TFPLUGIN6__GET_PROVIDER_SCHEMA__RESPONSE__FUNCTIONS_ENTRY__INIT;
  e2.key = (char *)"counts";
  e2.value = &g;
  Tfplugin6__GetProviderSchema__Response__FunctionsEntry *es[] = {&e1, &e2};
  Tfplugin6__GetProviderSchema__Response r =
      TFPLUGIN6__GET_PROVIDER_SCHEMA__RESPONSE__INIT;
  r.n_functions = 2;
  r.functions = es;
  size_t n;
  uint8_t *msg = pack(&r.base, &n);
  Ctx x;
  const ProvProviderSchema *ps =
      pplugin_decode_schema(call(&x), "example.test/x/y", msg, n);
  T_EQ_INT(x.d.errors, 0);
  return ps;
}

static void test_schema_functions(void)
{
  const ProvProviderSchema *ps = schema();
  T_CHECK(ps != NULL);
  if (!ps)
    return;
  T_EQ_INT(ps->nfunctions, 2);
  /* sorted by name */
  T_EQ_STR(ps->functions[0].name, "counts");
  T_EQ_STR(ps->functions[1].name, "upper");
  const ProvFunction *f = prov_schema_function(ps, "upper");
  T_CHECK(f && f->nparams == 1 && f->variadic);
  T_EQ_STR(f->params[0].name, "s");
  T_CHECK(f->params[0].type == &ty_string || f->params[0].type->kind ==
          TY_STRING);
  T_CHECK(f->params[0].allow_unknown_values);
  T_CHECK(!f->params[0].allow_null_value);
  T_EQ_STR(f->params[0].description, "the text");
  T_CHECK(f->variadic->allow_null_value);
  T_EQ_STR(f->summary, "Upper-cases");
  T_EQ_STR(f->deprecation_message, "use upper()");
  T_CHECK(f->description == NULL);
  const ProvFunction *g = prov_schema_function(ps, "counts");
  T_CHECK(g && g->return_type->kind == TY_LIST &&
          g->return_type->elem->kind == TY_NUMBER);
}

static void test_call_request(void)
{
  const ProvProviderSchema *ps = schema();
  const ProvFunction *f = prov_schema_function(ps, "upper");
  Value args[3] = {val_cstr(&A, "a"), val_cstr(&A, "bc"),
                   val_null(&ty_string)};
  ProvCallFuncReq req = {"upper", args, 3};
  Ctx x;
  uint8_t *msg;
  size_t n;
  T_CHECK(pplugin_encode_call(call(&x), f, &req, &msg, &n));
  ProtobufCAllocator al = {pb_alloc, pb_free, &A};
  Tfplugin6__CallFunction__Request *q =
      (Tfplugin6__CallFunction__Request *)protobuf_c_message_unpack(
          &tfplugin6__call_function__request__descriptor, &al, n, msg);
  T_CHECK(q != NULL);
  if (!q)
    return;
  T_EQ_STR(q->name, "upper");
  T_EQ_INT(q->n_arguments, 3);
  /* msgpack: fixstr "a", fixstr "bc", nil */
  T_CHECK(q->arguments[0]->msgpack.len == 2 &&
          memcmp(q->arguments[0]->msgpack.data, "\xa1" "a", 2) == 0);
  T_CHECK(q->arguments[1]->msgpack.len == 3 &&
          memcmp(q->arguments[1]->msgpack.data, "\xa2" "bc", 3) == 0);
  T_CHECK(q->arguments[2]->msgpack.len == 1 &&
          q->arguments[2]->msgpack.data[0] == 0xc0);

  /* more arguments than a function without variadic takes */
  const ProvFunction *g = prov_schema_function(ps, "counts");
  ProvCallFuncReq bad = {"counts", args, 1};
  T_CHECK(!pplugin_encode_call(call(&x), g, &bad, &msg, &n));
  T_EQ_INT(x.d.errors, 1);
}

static void test_call_answer(void)
{
  const ProvProviderSchema *ps = schema();
  const ProvFunction *f = prov_schema_function(ps, "upper");
  Ctx x;
  ProvCallFuncResp resp;
  size_t n;
  uint8_t *msg;

  Tfplugin6__DynamicValue dv = TFPLUGIN6__DYNAMIC_VALUE__INIT;
  dv.msgpack = bin("\xa2" "AB");
  Tfplugin6__CallFunction__Response ok =
      TFPLUGIN6__CALL_FUNCTION__RESPONSE__INIT;
  ok.result = &dv;
  msg = pack(&ok.base, &n);
  T_CHECK(pplugin_decode_call(call(&x), f, msg, n, &resp));
  T_CHECK(resp.error == NULL);
  T_CHECK(resp.result.type && resp.result.type->kind == TY_STRING &&
          resp.result.len == 2 && memcmp(resp.result.u.s, "AB", 2) == 0);

  /* an error about argument 0: present although 0 */
  Tfplugin6__FunctionError fe = TFPLUGIN6__FUNCTION_ERROR__INIT;
  fe.text = (char *)"not upper-casable";
  fe._function_argument_case =
      TFPLUGIN6__FUNCTION_ERROR___FUNCTION_ARGUMENT_FUNCTION_ARGUMENT;
  fe.function_argument = 0;
  Tfplugin6__CallFunction__Response er =
      TFPLUGIN6__CALL_FUNCTION__RESPONSE__INIT;
  er.error = &fe;
  msg = pack(&er.base, &n);
  T_CHECK(pplugin_decode_call(call(&x), f, msg, n, &resp));
  T_EQ_STR(resp.error, "not upper-casable");
  T_EQ_INT(resp.error_arg, 0);

  /* and about no argument */
  fe._function_argument_case =
      TFPLUGIN6__FUNCTION_ERROR___FUNCTION_ARGUMENT__NOT_SET;
  msg = pack(&er.base, &n);
  T_CHECK(pplugin_decode_call(call(&x), f, msg, n, &resp));
  T_EQ_INT(resp.error_arg, -1);

  /* a result of the wrong type is refused by the decoder */
  dv.msgpack = bin("\x05");
  msg = pack(&ok.base, &n);
  T_CHECK(pplugin_decode_call(call(&x), f, msg, n, &resp));
  T_CHECK(x.d.errors > 0);

  /* garbage */
  T_CHECK(!pplugin_decode_call(call(&x), f, (const uint8_t *)"\xff\xff", 2,
                               &resp));
}

/* MoveResourceState: the request's field numbers, checked on the wire
** against the published protocol (not against cairn's own .proto), and
** the answer decoded with the target type. */
static void test_move(void)
{
  Ctx x;
  ProvMoveReq q = {"registry.terraform.io/hashicorp/null", "null_resource",
                   2, "{\"id\":\"1\"}", 10, {(const uint8_t *)"pv", 2},
                   "pytest_thing"};
  uint8_t *msg;
  size_t n;
  pplugin_encode_move(call(&x), &q, &msg, &n);
  /* field 1 string, 2 string, 3 varint, 4 RawState{1: json}, 5 string,
  ** 6 bytes, in that order (protobuf-c writes by field number). */
  size_t i = 0;
  T_EQ_INT(msg[i], 0x0a);
  i += 2 + msg[i + 1];
  T_EQ_INT(msg[i], 0x12);
  i += 2 + msg[i + 1];
  T_EQ_INT(msg[i], 0x18);
  T_EQ_INT(msg[i + 1], 2);
  i += 2;
  T_EQ_INT(msg[i], 0x22);
  T_EQ_INT(msg[i + 1], 12);
  T_EQ_INT(msg[i + 2], 0x0a);
  T_EQ_INT(msg[i + 3], 10);
  T_CHECK(memcmp(msg + i + 4, "{\"id\":\"1\"}", 10) == 0);
  i += 2 + msg[i + 1];
  T_EQ_INT(msg[i], 0x2a);
  i += 2 + msg[i + 1];
  T_EQ_INT(msg[i], 0x32);
  T_EQ_INT(msg[i + 1], 2);
  T_EQ_INT(i + 4, n);

  /* the answer: target_state 1 (msgpack {"id": "1"}), a warning 2,
  ** target_private 3 */
  static const char *const nm[] = {"id"};
  const Type *ts[] = {&ty_string};
  const Type *obj = ty_object(&A, 1, nm, ts);
  static const uint8_t ans[] = {
      0x0a, 0x08, 0x0a, 0x06, 0x81, 0xa2, 'i', 'd', 0xa1, '1',   /* 1 */
      0x12, 0x06, 0x08, 0x02, 0x12, 0x02, 'h', 'i',               /* 2 */
      0x1a, 0x02, 'p', 'v'};                                       /* 3 */
  ProvMoveResp r;
  T_CHECK(pplugin_decode_move(call(&x), obj, ans, sizeof ans, &r));
  T_EQ_INT(x.d.errors, 0);
  T_CHECK(x.d.head && x.d.head->severity == DIAG_WARNING &&
          strcmp(x.d.head->summary, "hi") == 0);
  T_CHECK(r.target_state.type && val_is_known(r.target_state));
  Value id = val_attr(r.target_state, "id", NULL);
  T_CHECK(id.type && id.len == 1 && id.u.s[0] == '1');
  T_CHECK(r.target_private.n == 2 &&
          memcmp(r.target_private.p, "pv", 2) == 0);
  /* a state of another type is the decoder's error */
  static const uint8_t bad[] = {0x0a, 0x03, 0x0a, 0x01, 0x05};
  T_CHECK(pplugin_decode_move(call(&x), obj, bad, sizeof bad, &r));
  T_CHECK(x.d.errors > 0);
  T_CHECK(!pplugin_decode_move(call(&x), obj, (const uint8_t *)"\xff\xff",
                               2, &r));
}

/* Protocol 5.7 / 6.7: ephemeral_resource_schemas (field 8) and an
** OpenEphemeralResource.Response (result, renew_at, private). */
static void test_ephemeral(void)
{
  Tfplugin6__Schema__Attribute at = TFPLUGIN6__SCHEMA__ATTRIBUTE__INIT;
  at.name = (char *)"token";
  at.type = bin("\"string\"");
  at.computed = true;
  at.sensitive = true;
  Tfplugin6__Schema__Attribute *ats[] = {&at};
  Tfplugin6__Schema__Block blk = TFPLUGIN6__SCHEMA__BLOCK__INIT;
  blk.n_attributes = 1;
  blk.attributes = ats;
  Tfplugin6__Schema sc = TFPLUGIN6__SCHEMA__INIT;
  sc.block = &blk;
  Tfplugin6__GetProviderSchema__Response__EphemeralResourceSchemasEntry e =
      TFPLUGIN6__GET_PROVIDER_SCHEMA__RESPONSE__EPHEMERAL_RESOURCE_SCHEMAS_ENTRY__INIT;
  e.key = (char *)"x_token";
  e.value = &sc;
  Tfplugin6__GetProviderSchema__Response__EphemeralResourceSchemasEntry
      *es[] = {&e};
  Tfplugin6__GetProviderSchema__Response r =
      TFPLUGIN6__GET_PROVIDER_SCHEMA__RESPONSE__INIT;
  r.n_ephemeral_resource_schemas = 1;
  r.ephemeral_resource_schemas = es;
  size_t n;
  uint8_t *msg = pack(&r.base, &n);
  Ctx x;
  const ProvProviderSchema *ps =
      pplugin_decode_schema(call(&x), "example.test/x/y", msg, n);
  T_EQ_INT(x.d.errors, 0);
  T_CHECK(ps && ps->nephemeral_resources == 1);
  const ProvTypeSchema *ts = ps ? prov_schema_ephemeral(ps, "x_token") : NULL;
  T_CHECK(ts != NULL);
  if (!ts)
    return;
  const Type *t = ts->schema.block->implied;

  /* result 3 (msgpack {"token": "s"}), renew_at 2 {seconds 7}, private 4 */
  static const uint8_t ans[] = {
      0x12, 0x02, 0x08, 0x07,                                      /* 2 */
      0x1a, 0x0b, 0x0a, 0x09, 0x81, 0xa5, 't', 'o', 'k', 'e', 'n',
      0xa1, 's',                                                   /* 3 */
      0x22, 0x02, 'p', 'v'};                                       /* 4 */
  ProvOpenEphResp o;
  T_CHECK(pplugin_decode_open(call(&x), t, ans, sizeof ans, &o));
  T_EQ_INT(x.d.errors, 0);
  T_EQ_INT(o.renew_at, 7);
  T_CHECK(o.private_data.n == 2 && memcmp(o.private_data.p, "pv", 2) == 0);
  Value tok = val_attr(o.result, "token", NULL);
  T_CHECK(tok.type && tok.len == 1 && tok.u.s[0] == 's');
  /* no renew_at: never; a renew_at at the epoch still means "renew" */
  static const uint8_t epoch[] = {0x12, 0x00};
  T_CHECK(pplugin_decode_open(call(&x), t, ans + 4, sizeof ans - 4, &o));
  T_EQ_INT(o.renew_at, 0);
  T_CHECK(pplugin_decode_open(call(&x), t, epoch, sizeof epoch, &o));
  T_EQ_INT(o.renew_at, 1);
  T_CHECK(!pplugin_decode_open(call(&x), t, (const uint8_t *)"\xff\xff",
                               2, &o));
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_schema_functions);
  T_RUN(test_call_request);
  T_RUN(test_call_answer);
  T_RUN(test_move);
  T_RUN(test_ephemeral);
  int rc = t_done("prov_plugin");
  arena_release(&A);
  return rc;
}
