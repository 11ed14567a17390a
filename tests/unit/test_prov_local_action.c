/*
** Unit tests for the built-in local provider's local_command action
** (core/providers/prov_local.c, docs/actions.md).
*/
#include <string.h>

#include "providers/provider.h"
#include "t.h"

static Arena A;

static Value S(const char *s) { return val_cstr(&A, s); }

static Value smap1(const char *k, const char *v)
{
  MapEntry *e = ARENA_NEW(&A, MapEntry, 1);
  e[0].key = arena_strdup(&A, k);
  e[0].keylen = (uint32_t)strlen(k);
  e[0].val = S(v);
  return val_map(&A, &ty_string, e, 1);
}

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

static const char *last_progress;

static void on_progress(void *ctx, const char *msg)
{
  (void)ctx;
  last_progress = msg;
}

/* command, arguments, stdin, environment as the action's config object. */
static Value action_cfg(const char *cmd, const char *const *args, int nargs,
                        const char *in, Value env)
{
  static const Type list_s = {.kind = TY_LIST, .elem = &ty_string};
  static const Type map_s = {.kind = TY_MAP, .elem = &ty_string};
  Value *el = ARENA_NEW(&A, Value, nargs + 1);
  for (int i = 0; i < nargs; i++)
    el[i] = S(args[i]);
  const char *names[5] = {"arguments", "command", "environment", "stdin",
                          "working_directory"};
  Value vals[5] = {nargs ? val_list(&A, &ty_string, el, (uint32_t)nargs)
                         : val_null(&list_s),
                   S(cmd), env.type ? env : val_null(&map_s),
                   in ? S(in) : val_null(&ty_string),
                   val_null(&ty_string)};
  return val_object(&A, 5, names, vals);
}

static void test_local_command_action(void)
{
  Prov *p = open_b("hashicorp/local");
  const ProvBuiltin *b = prov_lookup_builtin("hashicorp/local");
  T_CHECK(p && b && b->invoke_action);
  if (!p || !b || !b->invoke_action)
    return;
  Ctx x;
  const ProvProviderSchema *s = NULL;
  p->ops->get_schema(p, call(&x), &s);
  const ProvTypeSchema *t = s ? prov_schema_action(s, "local_command") : NULL;
  T_CHECK(t != NULL);
  T_EQ_INT(t ? t->schema.block->nattrs : 0, 5);
  T_CHECK(t && prov_block_attr(t->schema.block, "command") &&
          (prov_block_attr(t->schema.block, "command")->flags &
           PROV_REQUIRED));
  /* stdout as one progress message; environment added to cairn's */
  static const char *const a1[] = {"-c", "printf '%s|%s' \"$ACT_X\" "
                                   "\"${PATH:+path}\"; cat"};
  Value cfg = action_cfg("sh", a1, 2, "in", smap1("ACT_X", "v"));
  last_progress = NULL;
  ProvInvokeReq rq = {"local_command", cfg, false, on_progress, NULL};
  b->invoke_action(p, call(&x), &rq);
  T_EQ_INT(x.d.errors, 0);
  T_EQ_STR(last_progress ? last_progress : "", "\n\nv|pathin\n");
  /* plan: only the lookup, with upstream's summary */
  cfg = action_cfg("no-such-command-here", NULL, 0, NULL, (Value){0});
  last_progress = NULL;
  rq = (ProvInvokeReq){"local_command", cfg, true, on_progress, NULL};
  b->invoke_action(p, call(&x), &rq);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head ? x.d.head->summary : "", "Command Lookup Failed");
  T_CHECK(last_progress == NULL);
  /* a non-zero exit with stderr: upstream's texts */
  static const char *const a2[] = {"-c", "echo bad >&2; exit 2"};
  cfg = action_cfg("sh", a2, 2, NULL, (Value){0});
  rq = (ProvInvokeReq){"local_command", cfg, false, on_progress, NULL};
  b->invoke_action(p, call(&x), &rq);
  T_EQ_INT(x.d.errors, 1);
  T_EQ_STR(x.d.head ? x.d.head->summary : "", "Command Execution Failed");
  T_CHECK(x.d.head && strstr(x.d.head->detail, "Command Error: bad\n") &&
          strstr(x.d.head->detail, "State: exit status 2"));
  /* without stderr: the generic form, the command's path */
  static const char *const a3[] = {"-c", "exit 4"};
  cfg = action_cfg("sh", a3, 2, NULL, (Value){0});
  rq = (ProvInvokeReq){"local_command", cfg, false, on_progress, NULL};
  b->invoke_action(p, call(&x), &rq);
  T_EQ_INT(x.d.errors, 1);
  T_CHECK(x.d.head && strstr(x.d.head->detail, "Error: exit status 4") &&
          strstr(x.d.head->detail, "Commmand: /"));
}

int main(void)
{
  arena_init(&A, 0);
  T_RUN(test_local_command_action);
  arena_release(&A);
  return t_done("test_prov_local_action");
}
