/*
** Unit tests for provider-defined functions: the interface in
** core/providers/provider.h and the built-in providers' functions.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "providers/provider.h"
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

static Prov *open_b(const char *src)
{
  const ProvBuiltin *b = prov_lookup_builtin(src);
  return b ? prov_open_builtin(&A, b) : NULL;
}

/* A provider without functions answers CallFunction with a function
** error, not a crash, whether its vtable names the entry or not. */
static void test_default_call_function(void)
{
  Prov *p = open_b("null");
  T_CHECK(p != NULL);
  Ctx x;
  const ProvProviderSchema *s = NULL;
  p->ops->get_schema(p, call(&x), &s);
  T_CHECK(s != NULL);
  T_EQ_INT(s->nfunctions, 0);
  T_CHECK(prov_schema_function(s, "anything") == NULL);

  ProvCallFuncReq req = {.name = "anything", .args = NULL, .nargs = 0};
  ProvCallFuncResp resp;
  prov_call_function(p, call(&x), &req, &resp);
  T_EQ_STR(resp.error, "provider has no functions");
  T_EQ_INT(resp.error_arg, -1);
  T_CHECK(resp.result.type == NULL);
  T_EQ_INT(x.d.errors, 0);
}

/* Lookup by name in a schema's function list. */
static void test_schema_function_lookup(void)
{
  static const ProvFuncParam prm[] = {{.name = "path", .type = &ty_string}};
  static const ProvFunction fns[] = {
      {.name = "a", .return_type = &ty_bool},
      {.name = "b", .params = prm, .nparams = 1, .return_type = &ty_bool},
  };
  ProvProviderSchema s = {.functions = fns, .nfunctions = 2};
  const ProvFunction *f = prov_schema_function(&s, "b");
  T_CHECK(f == &fns[1]);
  T_EQ_STR(f->params[0].name, "path");
  T_CHECK(prov_schema_function(&s, "c") == NULL);
}

static ProvCallFuncResp call_local(const char *fn, Value arg)
{
  Prov *p = open_b("local");
  Ctx x;
  ProvCallFuncReq req = {.name = fn, .args = &arg, .nargs = 1};
  ProvCallFuncResp resp;
  prov_call_function(p, call(&x), &req, &resp);
  return resp;
}

/* provider::local::direxists: upstream's results and error texts. */
static void test_local_direxists(void)
{
  char dir[] = "/tmp/cairn-pfn-XXXXXX";
  T_CHECK(mkdtemp(dir) != NULL);
  const char *file = arena_printf(&A, "%s/f", dir);
  FILE *fp = fopen(file, "w");
  T_CHECK(fp != NULL);
  if (fp)
    fclose(fp);

  Prov *p = open_b("local");
  Ctx x;
  const ProvProviderSchema *s = NULL;
  p->ops->get_schema(p, call(&x), &s);
  const ProvFunction *f = prov_schema_function(s, "direxists");
  T_CHECK(f != NULL);
  T_EQ_INT(f->nparams, 1);
  T_CHECK(f->return_type == &ty_bool);
  T_CHECK(!f->params[0].allow_null_value);

  ProvCallFuncResp r = call_local("direxists", val_cstr(&A, dir));
  T_CHECK(r.error == NULL);
  T_CHECK(r.result.type == &ty_bool && r.result.u.b);
  /* "." and ".." are cleaned as filepath.Clean does */
  r = call_local("direxists", val_cstr(&A, arena_printf(&A, "%s/./x/..",
                                                         dir)));
  T_CHECK(r.result.type == &ty_bool && r.result.u.b);
  r = call_local("direxists", val_cstr(&A, arena_printf(&A, "%s/none",
                                                         dir)));
  T_CHECK(r.error == NULL);
  T_CHECK(r.result.type == &ty_bool && !r.result.u.b);
  r = call_local("direxists", val_cstr(&A, file));
  T_EQ_STR(r.error, arena_printf(&A, "Invalid file mode detected: \"%s\" "
                                 "was found, but is not a directory", file));
  T_EQ_INT(r.error_arg, 0);
  /* a path through a file: stat's ENOTDIR, not "missing" */
  r = call_local("direxists", val_cstr(&A, arena_printf(&A, "%s/f/g", dir)));
  T_EQ_STR(r.error, arena_printf(&A, "Error checking for directory: stat "
                                 "%s/f/g: not a directory", dir));
  unlink(file);
  rmdir(dir);
}

/* Counts calls, answers per argument: "fail" gives an argument error,
** "boom" a call error, anything else echoes its argument. */
static int calls;
static void fake_call(Prov *p, ProvCall *c, const ProvCallFuncReq *req,
                      ProvCallFuncResp *resp)
{
  (void)p;
  (void)c;
  calls++;
  Value a = req->args[0];
  if (val_is_sensitive(a))
    resp->error = "saw a mark";
  else if (a.type->kind == TY_STRING && a.len == 4 &&
           memcmp(a.u.s, "fail", 4) == 0) {
    resp->error = "bad value";
    resp->error_arg = 0;
  } else if (a.type->kind == TY_STRING && a.len == 4 &&
             memcmp(a.u.s, "boom", 4) == 0) {
    resp->error = "it broke";
  } else {
    resp->result = a;
  }
}

static const ProvOps fake_ops = {.call_function = fake_call};

/* prov_fn_def through fn_call: Terraform's BuildFunction behaviour. */
static void test_fn_def(void)
{
  static const ProvFuncParam prm[] = {
      {.name = "v", .type = &ty_dynamic}};
  static const ProvFunction f = {.name = "echo", .params = prm,
                                 .nparams = 1, .return_type = &ty_dynamic};
  Prov p = {.ops = &fake_ops};
  const FnDef *d = prov_fn_def(&A, "provider::x::echo", &f, &p);
  T_EQ_STR(d->name, "provider::x::echo");
  FnCall fc;
  fn_call_init(&fc, &A);
  Value out;
  calls = 0;
  Value arg = val_cstr(&A, "hi");
  T_CHECK(fn_call(d, &fc, &arg, 1, &out));
  T_CHECK(out.type == &ty_string && out.len == 2);
  T_EQ_INT(calls, 1);

  /* an unknown nested in a list: unknown result, no call */
  Value el = val_unknown(&ty_string);
  arg = val_list(&A, &ty_string, &el, 1);
  T_CHECK(fn_call(d, &fc, &arg, 1, &out));
  T_CHECK(val_is_unknown(out));
  T_EQ_INT(calls, 1);

  /* null refused before the call */
  arg = val_null(&ty_string);
  T_CHECK(!fn_call(d, &fc, &arg, 1, &out));
  T_EQ_STR(fc.err.detail, "Invalid value for \"v\" parameter: argument "
                          "must not be null.");
  T_EQ_INT(calls, 1);

  /* the provider's errors, with and without an argument */
  arg = val_cstr(&A, "fail");
  T_CHECK(!fn_call(d, &fc, &arg, 1, &out));
  T_EQ_STR(fc.err.summary, "Invalid function argument");
  T_EQ_STR(fc.err.detail, "Invalid value for \"v\" parameter: bad value.");
  T_EQ_INT(fc.err.arg, 0);
  arg = val_cstr(&A, "boom");
  T_CHECK(!fn_call(d, &fc, &arg, 1, &out));
  T_EQ_STR(fc.err.summary, "Error in function call");
  T_EQ_STR(fc.err.detail, "Call to function \"provider::x::echo\" failed: "
                          "it broke.");

  /* marks: the provider sees none, the result carries them */
  arg = val_sensitive(val_cstr(&A, "s"));
  T_CHECK(fn_call(d, &fc, &arg, 1, &out));
  T_CHECK(val_is_sensitive(out));
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_local_direxists);
  T_RUN(test_fn_def);
  T_RUN(test_default_call_function);
  T_RUN(test_schema_function_lookup);
  int rc = t_done("provfunc");
  arena_release(&A);
  return rc;
}
