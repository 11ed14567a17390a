/*
** Unit tests for provider-defined functions: the interface in
** core/providers/provider.h and the built-in providers' functions.
*/
#include <string.h>

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

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_default_call_function);
  T_RUN(test_schema_function_lookup);
  int rc = t_done("provfunc");
  arena_release(&A);
  return rc;
}
