/*
** cmd_backend: the configured backend (see cmd_backend.h).
*/
#include "cmd_backend.h"

#include <string.h>

#include "lang/eval.h"

/* A string argument of a backend block: constants only, as Terraform
** decodes backend bodies without an evaluation context.  *out stays NULL
** when the argument is absent. */
static bool string_arg(Cli *cli, const HclBodyContent *c, const char *name,
                       const char **out, Diags *d)
{
  *out = NULL;
  HclAttribute *at = hcl_content_attr(c, name);
  if (!at)
    return true;
  EvalCtx ctx;
  eval_ctx_init(&ctx, cli->arena, d);
  ctx.no_vars = true;
  Value v;
  if (!eval_expr(&ctx, at->expr, &v))
    return false;
  if (val_is_null(v))
    return true;
  if (v.type->kind != TY_STRING || !val_is_known(v)) {
    diag_error(d, &at->expr->range, "Incorrect attribute value type",
               "Inappropriate value for attribute \"%s\": string required.",
               name);
    return false;
  }
  *out = v.u.s;
  return true;
}

/* Terraform's local backend: path and workspace_dir, neither empty. */
static bool decode_local(Cli *cli, const CfgBackend *cb, Backend *b,
                         Diags *d)
{
  static const HclAttrSchema as[] = {{"path", false},
                                     {"workspace_dir", false}};
  static const HclBodySchema s = {as, 2, NULL, 0};
  HclBodyContent c;
  if (!hcl_body_content(cli->arena, cb->body, &s, &c, d))
    return false;
  const char *path, *wsdir;
  if (!string_arg(cli, &c, "path", &path, d) ||
      !string_arg(cli, &c, "workspace_dir", &wsdir, d))
    return false;
  if (path && !*path) {
    diag_error(d, &hcl_content_attr(&c, "path")->expr->range,
               "Invalid local state file path",
               "The \"path\" attribute value must not be empty.");
    return false;
  }
  if (wsdir && !*wsdir) {
    diag_error(d, &hcl_content_attr(&c, "workspace_dir")->expr->range,
               "Invalid local workspace directory path",
               "The \"workspace_dir\" attribute value must not be empty.");
    return false;
  }
  be_local(b, path, wsdir);
  b->configured = true;
  return true;
}

const Backend *cmd_backend(Cli *cli, const CfgModule *m,
                           CmdBackendPhase phase, Diags *d)
{
  if (cli->backend)
    return cli->backend;
  if (!m) {
    m = cfg_load_dir(cli->arena, ".", &cli->files, d);
    if (diag_has_errors(d))
      return NULL;
  }
  Backend *b = ARENA_NEW(cli->arena, Backend, 1);
  const CfgBackend *cb = m->backend;
  if (!cb) {
    be_local(b, NULL, NULL);
  } else if (strcmp(cb->type, "local") == 0) {
    if (!decode_local(cli, cb, b, d))
      return NULL;
  } else {
    diag_error(d, &cb->type_range,
               phase == CMD_BACKEND_INIT ? "Unsupported backend type"
                                         : "Invalid backend type",
               "There is no backend type named \"%s\".", cb->type);
    return NULL;
  }
  cli->backend = b;
  return b;
}
