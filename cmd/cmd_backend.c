/*
** cmd_backend: the configured backend and its record in
** .terraform/terraform.tfstate (see cmd_backend.h).
*/
#include "cmd_backend.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "config/hostcfg.h"
#include "lang/eval.h"
#include "net/be_http.h"
#include "state/state.h"
#include "state/stmgr.h"
#include "state/workspace.h"

/* A backend type's arguments, sorted by name (the order cty's hash uses
** for object attributes), with their types: kinds[i] is 's' (string), 'b'
** (bool) or 'n' (number).  Values are kept as text: bools "true"/"false",
** numbers in their shortest decimal form. */
typedef struct BeSchema {
  const char *type;
  const char *const *attrs;
  int nattrs;
  const char *kinds;
} BeSchema;

static const char *const local_attrs[] = {"path", "workspace_dir"};
/* Terraform's internal/backend/remote-state/http schema. */
static const char *const http_attrs[] = {
    "address",        "client_ca_certificate_pem", "client_certificate_pem",
    "client_private_key_pem", "lock_address", "lock_method", "password",
    "retry_max",      "retry_wait_max", "retry_wait_min",
    "skip_cert_verification", "unlock_address", "unlock_method",
    "update_method",  "username"};
enum {
  H_ADDRESS, H_CA, H_CERT, H_KEY, H_LOCK_ADDRESS, H_LOCK_METHOD, H_PASSWORD,
  H_RETRY_MAX, H_RETRY_WAIT_MAX, H_RETRY_WAIT_MIN, H_SKIP, H_UNLOCK_ADDRESS,
  H_UNLOCK_METHOD, H_UPDATE_METHOD, H_USERNAME, H_N
};
static const BeSchema schemas[] = {
    {"local", local_attrs, 2, "ss"},
    {"http", http_attrs, H_N, "sssssssnnnbssss"}};

/* Terraform's reason texts (meta_backend.go errBackendInit). */
static const char init_detail[] =
    "Reason: %s\n\n"
    "The \"backend\" is the interface that Terraform uses to store state,\n"
    "perform operations, etc. If this message is showing up, it means that "
    "the\nTerraform configuration you're using is using a custom "
    "configuration for\nthe Terraform backend.\n\n"
    "Changes to backend configurations require reinitialization. This "
    "allows\nTerraform to set up the new configuration, copy existing state, "
    "etc. Please run\n\"terraform init\" with either the \"-reconfigure\" or "
    "\"-migrate-state\" flags to\nuse the current configuration.\n\n"
    "If the change reason above is incorrect, please verify your "
    "configuration\nhasn't changed and try again. At this point, no changes "
    "to your existing\nconfiguration or state have been made.";

static const BeSchema *schema_of(const char *type)
{
  for (size_t i = 0; i < sizeof schemas / sizeof *schemas; i++)
    if (strcmp(schemas[i].type, type) == 0)
      return &schemas[i];
  return NULL;
}

static int attr_index(const BeSchema *s, const char *name)
{
  for (int i = 0; i < s->nattrs; i++)
    if (strcmp(s->attrs[i], name) == 0)
      return i;
  return -1;
}

static bool string_arg(Cli *cli, const HclAttribute *at, const char **out,
                       Diags *d);

/* The canonical text of a bool or number argument given as text (from
** -backend-config or a string in the block: cty converts them), or NULL
** when it is not one. */
static const char *typed_text(Cli *cli, char kind, const char *t)
{
  if (kind == 'b')
    return strcmp(t, "true") == 0 ? "true"
           : strcmp(t, "false") == 0 ? "false" : NULL;
  char *end;
  errno = 0;
  long long v = strtoll(t, &end, 10);
  if (!*t || *end || errno)
    return NULL;
  return arena_printf(cli->arena, "%lld", v);
}

static bool type_error(Diags *d, const HclAttribute *at, const char *name,
                       char kind)
{
  diag_error(d, at ? &at->expr->range : NULL, "Incorrect attribute value type",
             "Inappropriate value for attribute \"%s\": %s required.", name,
             kind == 'b' ? "bool" : kind == 'n' ? "whole number" : "string");
  return false;
}

/* An argument: constants only, as Terraform decodes backend bodies
** without an evaluation context.  *out stays NULL when absent or null. */
static bool value_arg(Cli *cli, const HclAttribute *at, char kind,
                      const char **out, Diags *d)
{
  *out = NULL;
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
  if (!val_is_known(v))
    return type_error(d, at, at->name, kind);
  if (kind == 'b' && v.type->kind == TY_BOOL) {
    *out = v.u.b ? "true" : "false";
    return true;
  }
  if (kind == 'n' && v.type->kind == TY_NUMBER) {
    Buf b;
    buf_init(&b, cli->arena);
    val_num_format(&b, v);
    *out = typed_text(cli, 'n', buf_str(&b));
    return *out ? true : type_error(d, at, at->name, kind);
  }
  if (kind != 's' && v.type->kind == TY_STRING) {
    *out = typed_text(cli, kind, v.u.s);
    return *out ? true : type_error(d, at, at->name, kind);
  }
  if (kind != 's')
    return type_error(d, at, at->name, kind);
  return string_arg(cli, at, out, d);
}

static bool string_arg(Cli *cli, const HclAttribute *at, const char **out,
                       Diags *d)
{
  *out = NULL;
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
               at->name);
    return false;
  }
  *out = v.u.s;
  return true;
}

/* Decodes body against s into vals (parallel to s->attrs); values already
** set stay unless the body sets them. */
static bool decode_body(Cli *cli, const BeSchema *s, const HclBody *body,
                        const char **vals, Diags *d)
{
  HclAttrSchema *as = ARENA_NEW(cli->arena, HclAttrSchema,
                                (size_t)s->nattrs);
  for (int i = 0; i < s->nattrs; i++)
    as[i] = (HclAttrSchema){s->attrs[i], false};
  HclBodySchema bs = {as, (uint32_t)s->nattrs, NULL, 0};
  HclBodyContent c;
  if (!hcl_body_content(cli->arena, body, &bs, &c, d))
    return false;
  for (int i = 0; i < s->nattrs; i++) {
    HclAttribute *at = hcl_content_attr(&c, s->attrs[i]);
    const char *v;
    if (!value_arg(cli, at, s->kinds[i], &v, d))
      return false;
    if (at)
      vals[i] = v;
  }
  return true;
}

/* -backend-config items over vals: KEY=VALUE, or a file of arguments. */
static bool apply_overrides(Cli *cli, const BeSchema *s,
                            const CliList *items, const char **vals,
                            Diags *d)
{
  for (int k = 0; items && k < items->n; k++) {
    const char *it = items->items[k];
    const char *eq = strchr(it, '=');
    if (eq) {
      const char *name = arena_strndup(cli->arena, it, (size_t)(eq - it));
      int i = attr_index(s, name);
      if (i < 0) {
        diag_error(d, NULL, "Invalid backend configuration argument",
                   "The backend configuration argument \"%s\" given on the "
                   "command line is not expected for the selected backend "
                   "type.", name);
        return false;
      }
      vals[i] = s->kinds[i] == 's' ? arena_strdup(cli->arena, eq + 1)
                                    : typed_text(cli, s->kinds[i], eq + 1);
      if (!vals[i])
        return type_error(d, NULL, name, s->kinds[i]);
      continue;
    }
    FILE *f = fopen(it, "rb");
    if (!f) {
      diag_error(d, NULL, "Failed to read file",
                 "The file \"%s\" could not be read.", it);
      return false;
    }
    Buf b;
    buf_init(&b, cli->arena);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
      buf_put(&b, chunk, n);
    fclose(f);
    size_t len = b.len;
    const char *src = buf_str(&b);
    size_t nl = strlen(it);
    bool json = nl > 5 && strcmp(it + nl - 5, ".json") == 0;
    HclFile *hf = json ? hcl_parse_json_file(cli->arena, it, src, len, d)
                       : hcl_parse_file(cli->arena, it, src, len, d);
    cfg_register_source(&cli->files, hf);
    if (diag_has_errors(d) || !decode_body(cli, s, hf->body, vals, d))
      return false;
  }
  return true;
}

/* go-cty's Value.Hash of the tuple [type, config object]: CRC-32 of its
** set-hash bytes (strings %q-quoted, null "~", each element followed by
** ";", tuples and objects in "<...>"), as Terraform's Backend.Hash. */
static uint64_t config_hash(Arena *a, const BeSchema *s, const char **vals)
{
  Buf b;
  buf_init(&b, a);
  buf_putc(&b, '<');
  json_write_string(&b, s->type, strlen(s->type));
  buf_puts(&b, ";<");
  for (int i = 0; i < s->nattrs; i++) {
    /* go-cty: bools "T"/"F", numbers in decimal, strings quoted. */
    if (!vals[i])
      buf_putc(&b, '~');
    else if (s->kinds[i] == 'b')
      buf_putc(&b, strcmp(vals[i], "true") == 0 ? 'T' : 'F');
    else if (s->kinds[i] == 'n')
      buf_puts(&b, vals[i]);
    else
      json_write_string(&b, vals[i], strlen(vals[i]));
    buf_putc(&b, ';');
  }
  buf_puts(&b, ">;>");
  return stmgr_crc32(b.p, b.len);
}

/* ---- .terraform/terraform.tfstate ---------------------------------------- */

typedef struct Record {
  bool present;
  uint64_t serial;
  const char *lineage;
  const char *type;          /* NULL: no backend recorded */
  uint64_t hash;
  Value config;              /* object, or null */
} Record;

static const char *record_path(Cli *cli)
{
  return arena_printf(cli->arena, "%s/terraform.tfstate",
                      ws_data_dir(cli->arena, NULL));
}

static const char *str_attr(Value o, const char *name)
{
  bool found = false;
  if (val_is_null(o) || o.type->kind != TY_OBJECT)
    return NULL;
  Value v = val_attr(o, name, &found);
  if (!found || val_is_null(v) || v.type->kind != TY_STRING)
    return NULL;
  return v.u.s;
}

static uint64_t num_attr(Value o, const char *name)
{
  bool found = false;
  if (val_is_null(o) || o.type->kind != TY_OBJECT)
    return 0;
  Value v = val_attr(o, name, &found);
  if (!found || val_is_null(v) || v.type->kind != TY_NUMBER)
    return 0;
  Buf b;
  Arena tmp;
  arena_init(&tmp, 0);
  buf_init(&b, &tmp);
  val_num_format(&b, v);
  uint64_t r = 0;
  for (size_t i = 0; i < b.len && b.p[i] >= '0' && b.p[i] <= '9'; i++)
    r = r * 10 + (uint64_t)(b.p[i] - '0');
  arena_release(&tmp);
  return r;
}

static bool read_record(Cli *cli, Record *r, Diags *d)
{
  memset(r, 0, sizeof *r);
  r->config = val_dynamic_null;
  const char *path = record_path(cli);
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (errno == ENOENT)
      return true;
    diag_error(d, NULL, "Failed to load state",
               "Error reading %s: %s", path, strerror(errno));
    return false;
  }
  Buf b;
  buf_init(&b, cli->arena);
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    buf_put(&b, chunk, n);
  fclose(f);
  if (b.len == 0)
    return true;
  Value v;
  Diags pd;
  diag_init(&pd, cli->arena);
  if (!json_parse(cli->arena, b.p, b.len, &v, &pd, NULL) ||
      v.type->kind != TY_OBJECT) {
    diag_error(d, NULL, "Failed to load state",
               "The backend record %s is not valid JSON: %s", path,
               pd.head ? pd.head->summary : "not an object");
    return false;
  }
  r->present = true;
  r->serial = num_attr(v, "serial");
  r->lineage = str_attr(v, "lineage");
  bool found = false;
  Value be = val_attr(v, "backend", &found);
  if (found && !val_is_null(be) && be.type->kind == TY_OBJECT) {
    r->type = str_attr(be, "type");
    r->hash = num_attr(be, "hash");
    bool cf = false;
    Value c = val_attr(be, "config", &cf);
    if (cf)
      r->config = c;
  }
  return true;
}

/* Terraform's BackendState file, version 3 (4-space indent, as its
** legacy state writer), written atomically. */
static bool write_record(Cli *cli, const Record *old, const BeSchema *s,
                         const char **vals, uint64_t hash, Diags *d)
{
  Arena *a = cli->arena;
  Buf b;
  buf_init(&b, a);
  buf_printf(&b, "{\n    \"version\": 3,\n    \"serial\": %llu,\n"
                 "    \"lineage\": ",
             (unsigned long long)(old->present ? old->serial + 1 : 1));
  const char *lin = old->lineage ? old->lineage : st_new_lineage(a);
  json_write_string(&b, lin, strlen(lin));
  if (s) {
    buf_puts(&b, ",\n    \"backend\": {\n        \"type\": ");
    json_write_string(&b, s->type, strlen(s->type));
    buf_puts(&b, ",\n        \"config\": {");
    for (int i = 0; i < s->nattrs; i++) {
      buf_printf(&b, "%s\n            ", i ? "," : "");
      json_write_string(&b, s->attrs[i], strlen(s->attrs[i]));
      buf_puts(&b, ": ");
      if (!vals[i])
        buf_puts(&b, "null");
      else if (s->kinds[i] != 's')
        buf_puts(&b, vals[i]);
      else
        json_write_string(&b, vals[i], strlen(vals[i]));
    }
    buf_printf(&b, "\n        },\n        \"hash\": %llu\n    }",
               (unsigned long long)hash);
  }
  buf_puts(&b, "\n}\n");
  const char *dir = ws_data_dir(a, NULL);
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
    diag_error(d, NULL, "Failed to save backend configuration",
               "mkdir %s: %s", dir, strerror(errno));
    return false;
  }
  const char *path = record_path(cli);
  const char *tmp = arena_printf(a, "%s.tmp.%ld", path, (long)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  bool ok = fd >= 0;
  size_t off = 0;
  while (ok && off < b.len) {
    ssize_t k = write(fd, b.p + off, b.len - off);
    if (k < 0 && errno == EINTR)
      continue;
    ok = k > 0;
    off += ok ? (size_t)k : 0;
  }
  ok = ok && fsync(fd) == 0;
  if (fd >= 0 && close(fd) != 0)
    ok = false;
  ok = ok && rename(tmp, path) == 0;
  if (!ok) {
    diag_error(d, NULL, "Failed to save backend configuration",
               "Error saving the backend configuration to %s: %s", path,
               strerror(errno));
    unlink(tmp);
  }
  return ok;
}

/* The recorded config, as values parallel to s->attrs. */
static const char **recorded_vals(Cli *cli, const BeSchema *s,
                                  const Record *r)
{
  const char **v = ARENA_NEW(cli->arena, const char *, (size_t)s->nattrs);
  for (int i = 0; i < s->nattrs; i++) {
    v[i] = str_attr(r->config, s->attrs[i]);
    bool f = false;
    Value x = val_is_null(r->config) || r->config.type->kind != TY_OBJECT
                  ? val_dynamic_null
                  : val_attr(r->config, s->attrs[i], &f);
    if (!f || val_is_null(x))
      continue;
    if (s->kinds[i] == 'b' && x.type->kind == TY_BOOL)
      v[i] = x.u.b ? "true" : "false";
    else if (s->kinds[i] == 'n' && x.type->kind == TY_NUMBER) {
      Buf b;
      buf_init(&b, cli->arena);
      val_num_format(&b, x);
      v[i] = typed_text(cli, 'n', buf_str(&b));
    }
  }
  return v;
}

static bool same_vals(const BeSchema *s, const char **x, const char **y)
{
  for (int i = 0; i < s->nattrs; i++)
    if ((x[i] == NULL) != (y[i] == NULL) ||
        (x[i] && strcmp(x[i], y[i]) != 0))
      return false;
  return true;
}

static bool make_http(Cli *cli, const char **vals, Backend *b, Diags *d,
                      const CfgBackend *cb);

static bool make_backend(Cli *cli, const BeSchema *s, const char **vals,
                         Backend *b, Diags *d, const CfgBackend *cb)
{
  if (s && strcmp(s->type, "http") == 0)
    return make_http(cli, vals, b, d, cb);
  const SrcRange *at = cb ? &cb->range : NULL;
  if (vals[0] && !*vals[0]) {
    diag_error(d, at, "Invalid local state file path",
               "The \"path\" attribute value must not be empty.");
    return false;
  }
  if (vals[1] && !*vals[1]) {
    diag_error(d, at, "Invalid local workspace directory path",
               "The \"workspace_dir\" attribute value must not be empty.");
    return false;
  }
  be_local(b, vals[0], vals[1]);
  b->configured = cb != NULL;
  return true;
}

/* Terraform's GetAttrEnvDefaultFallback: the argument, else the
** environment variable (when set, even empty), else def. */
static const char *env_arg(const char *v, const char *env, const char *def)
{
  if (v)
    return v;
  const char *e = env ? getenv(env) : NULL;
  return e ? e : def;
}

static bool num_arg(Cli *cli, const char *v, const char *env, long def,
                    const char *name, long *out, Diags *d)
{
  const char *t = env_arg(v, env, NULL);
  *out = def;
  if (!t)
    return true;
  const char *c = typed_text(cli, 'n', t);
  if (!c) {
    diag_error(d, NULL, "Invalid http backend configuration",
               "invalid %s: \"%s\" is not a whole number", name, t);
    return false;
  }
  *out = strtol(c, NULL, 10);
  return true;
}

/* The process's http backend: its libcurl handle is released by
** cmd_backend_close (the Backend lives for the whole command, cached in
** cli->backend). */
static BeHttp *open_http;

void cmd_backend_close(Cli *cli)
{
  (void)cli;
  stmgr_bind_remote(NULL, NULL);
  behttp_close(open_http);
  open_http = NULL;
}

/* The http backend: Terraform's arguments and TF_HTTP_* variables, the
** host configuration's opt-in for skip_cert_verification, and the working
** copy under the data directory, bound to the remote for every StMgr. */
static bool make_http(Cli *cli, const char **v, Backend *b, Diags *d,
                      const CfgBackend *cb)
{
  BeHttpConfig c;
  memset(&c, 0, sizeof c);
  c.address = env_arg(v[H_ADDRESS], "TF_HTTP_ADDRESS", "");
  c.update_method = env_arg(v[H_UPDATE_METHOD], "TF_HTTP_UPDATE_METHOD",
                            "POST");
  c.lock_address = env_arg(v[H_LOCK_ADDRESS], "TF_HTTP_LOCK_ADDRESS", NULL);
  c.lock_method = env_arg(v[H_LOCK_METHOD], "TF_HTTP_LOCK_METHOD", "LOCK");
  c.unlock_address = env_arg(v[H_UNLOCK_ADDRESS], "TF_HTTP_UNLOCK_ADDRESS",
                             NULL);
  c.unlock_method = env_arg(v[H_UNLOCK_METHOD], "TF_HTTP_UNLOCK_METHOD",
                            "UNLOCK");
  c.username = env_arg(v[H_USERNAME], "TF_HTTP_USERNAME", "");
  c.password = env_arg(v[H_PASSWORD], "TF_HTTP_PASSWORD", "");
  c.client_ca_certificate_pem = env_arg(
      v[H_CA], "TF_HTTP_CLIENT_CA_CERTIFICATE_PEM", "");
  c.client_certificate_pem = env_arg(v[H_CERT],
                                     "TF_HTTP_CLIENT_CERTIFICATE_PEM", "");
  c.client_private_key_pem = env_arg(v[H_KEY],
                                     "TF_HTTP_CLIENT_PRIVATE_KEY_PEM", "");
  if (!num_arg(cli, v[H_RETRY_MAX], "TF_HTTP_RETRY_MAX", 2, "retry_max",
               &c.retry_max, d) ||
      !num_arg(cli, v[H_RETRY_WAIT_MIN], "TF_HTTP_RETRY_WAIT_MIN", 1,
               "retry_wait_min", &c.retry_wait_min, d) ||
      !num_arg(cli, v[H_RETRY_WAIT_MAX], "TF_HTTP_RETRY_WAIT_MAX", 30,
               "retry_wait_max", &c.retry_wait_max, d))
    return false;
  /* No environment variable for it, as in Terraform; and off unless the
  ** host's owner allows it: a working directory must not be able to turn
  ** TLS verification off on its own. */
  c.skip_cert_verification = v[H_SKIP] && strcmp(v[H_SKIP], "true") == 0;
  if (c.skip_cert_verification) {
    HostCfg hc;
    Diags hd;
    diag_init(&hd, cli->arena);
    bool ok = hcfg_load(cli->arena, NULL, &hc, &hd);
    if (!ok) {
      diag_move(d, &hd);
      return false;
    }
    if (!hc.allow_skip_cert_verification) {
      diag_error(d, cb ? &cb->range : NULL,
                 "TLS verification cannot be skipped",
                 "The http backend sets skip_cert_verification = true, but "
                 "the host configuration%s%s does not allow it. Trust the "
                 "server's CA instead (client_ca_certificate_pem), or set "
                 "backend_skip_cert_verification = true under [defaults] "
                 "in the host configuration (docs/backends.md).",
                 hc.path ? " " : "", hc.path ? hc.path : "");
      return false;
    }
  }
  StRemote *r = ARENA_NEW(cli->arena, StRemote, 1);
  BeHttp *h = behttp_open(cli->arena, &c, r, d);
  if (!h)
    return false;
  behttp_close(open_http);
  open_http = h;
  const char *path = arena_printf(cli->arena, "%s/http/terraform.tfstate",
                                  ws_data_dir(cli->arena, NULL));
  be_remote(b, "http", r, path);
  b->configured = true;
  stmgr_bind_remote(path, r);
  return true;
}

/* The block's type must be one cairn implements. */
static const BeSchema *check_type(const CfgBackend *cb,
                                  CmdBackendPhase phase, Diags *d)
{
  const BeSchema *s = schema_of(cb->type);
  if (!s)
    diag_error(d, &cb->type_range,
               phase == CMD_BACKEND_INIT ? "Unsupported backend type"
                                         : "Invalid backend type",
               "There is no backend type named \"%s\".", cb->type);
  return s;
}

static const CfgModule *root_module(Cli *cli, const CfgModule *m, Diags *d)
{
  if (m)
    return m;
  m = cfg_load_dir(cli->arena, ".", &cli->files, d);
  return diag_has_errors(d) ? NULL : m;
}

const Backend *cmd_backend(Cli *cli, const CfgModule *m,
                           CmdBackendPhase phase, Diags *d)
{
  if (cli->backend)
    return cli->backend;
  m = root_module(cli, m, d);
  if (!m)
    return NULL;
  const CfgBackend *cb = m->backend;
  Backend *b = ARENA_NEW(cli->arena, Backend, 1);
  const BeSchema *s = cb ? check_type(cb, phase, d) : NULL;
  if (cb && !s)
    return NULL;
  const char **vals = NULL;
  uint64_t hash = 0;
  if (s) {
    vals = ARENA_NEW(cli->arena, const char *, (size_t)s->nattrs);
    if (!decode_body(cli, s, cb->body, vals, d))
      return NULL;
    hash = config_hash(cli->arena, s, vals);
  }
  if (phase == CMD_BACKEND_INIT) {
    /* validate: the configuration alone (a remote type is not reached) */
    if (s && strcmp(s->type, "local") != 0) {
      b->type = s->type;
      b->configured = true;
      cli->backend = b;
      return b;
    }
    if (!make_backend(cli, s, s ? vals : (const char *[]){NULL, NULL}, b,
                      d, cb))
      return NULL;
    cli->backend = b;
    return b;
  }
  Record r;
  if (!read_record(cli, &r, d))
    return NULL;
  const char *reason = NULL;
  if (!cb && r.type)
    reason = arena_printf(cli->arena,
                          "Unsetting the previously set backend \"%s\"",
                          r.type);
  else if (cb && !r.type)
    reason = arena_printf(cli->arena,
                          "Initial configuration of the requested backend "
                          "\"%s\"", cb->type);
  else if (cb && (strcmp(r.type, cb->type) != 0 || r.hash != hash))
    reason = "Backend configuration block has changed";
  if (reason) {
    diag_error(d, NULL,
               "Backend initialization required: please run \"terraform "
               "init\"", init_detail, reason);
    return NULL;
  }
  if (!make_backend(cli, s, s ? recorded_vals(cli, s, &r)
                         : (const char *[]){NULL, NULL}, b, d, cb))
    return NULL;
  if (b->remote) {
    const char *ws = ws_current(cli->arena, NULL, d);
    if (!ws || !be_check_workspace(b, ws, d))
      return NULL;
  }
  cli->backend = b;
  return b;
}

/* Whether a local state exists at the default location that a newly
** configured backend would leave behind. */
static bool default_state_exists(void)
{
  struct stat st;
  if (stat("terraform.tfstate", &st) == 0 && st.st_size > 0)
    return true;
  return stat("terraform.tfstate.d", &st) == 0 && S_ISDIR(st.st_mode);
}

const Backend *cmd_backend_init(Cli *cli, const CfgModule *m,
                                const CmdBackendInit *o, bool *configured,
                                Diags *d)
{
  *configured = false;
  const CfgBackend *cb = m->backend;
  const BeSchema *s = cb ? check_type(cb, CMD_BACKEND_INIT, d) : NULL;
  if (cb && !s)
    return NULL;
  Record r;
  if (!read_record(cli, &r, d))
    return NULL;
  Backend *b = ARENA_NEW(cli->arena, Backend, 1);
  static const char migrate_detail[] =
      "A change in the backend configuration has been detected, which may "
      "require migrating existing state.\n\nIf you wish to attempt "
      "automatic migration of the state, use \"terraform init "
      "-migrate-state\".\nIf you wish to store the current configuration "
      "with no changes to the state, use \"terraform init -reconfigure\".";
  if (!cb) {
    if (o->backend_config && o->backend_config->n) {
      diag_error(d, NULL, "Invalid backend configuration argument",
                 "The -backend-config option applies to the backend block "
                 "of the configuration, and this configuration has none.");
      return NULL;
    }
    if (r.type && !o->reconfigure) {
      diag_error(d, NULL, "Backend configuration changed", migrate_detail);
      return NULL;
    }
    if (r.type && !write_record(cli, &r, NULL, NULL, 0, d))
      return NULL;
    be_local(b, NULL, NULL);
    cli->backend = b;
    return b;
  }
  const char **vals = ARENA_NEW(cli->arena, const char *,
                                (size_t)s->nattrs);
  if (!decode_body(cli, s, cb->body, vals, d))
    return NULL;
  uint64_t hash = config_hash(cli->arena, s, vals);
  if (!apply_overrides(cli, s, o->backend_config, vals, d))
    return NULL;
  if (!make_backend(cli, s, vals, b, d, cb))
    return NULL;
  bool same = r.type && strcmp(r.type, cb->type) == 0 && r.hash == hash &&
              same_vals(s, vals, recorded_vals(cli, s, &r));
  if (!same && !o->reconfigure) {
    if (r.type || o->migrate) {
      if (r.type && !o->migrate) {
        diag_error(d, NULL, "Backend configuration changed", migrate_detail);
        return NULL;
      }
      diag_error(d, NULL, "State migration is not implemented",
                 "cairn cannot copy states between backends yet "
                 "(-migrate-state). Move the state files yourself (or use "
                 "\"state pull\" and \"state push\"), then run \"cairn init "
                 "-reconfigure\".");
      return NULL;
    }
    /* First configuration: a local state at the default place would be
    ** left behind silently where Terraform asks to migrate it. */
    if (strcmp(be_state_path(b, cli->arena, WS_DEFAULT),
               "terraform.tfstate") != 0 && default_state_exists()) {
      diag_error(d, NULL, "State migration is not implemented",
                 "A local state exists in terraform.tfstate (or "
                 "terraform.tfstate.d) and the configured backend keeps its "
                 "state elsewhere. cairn cannot copy states between "
                 "backends yet (-migrate-state): move the state files "
                 "yourself, or run \"cairn init -reconfigure\" to use the "
                 "backend without them.");
      return NULL;
    }
  }
  if (!same) {
    if (!write_record(cli, &r, s, vals, hash, d))
      return NULL;
    *configured = true;
  }
  cli->backend = b;
  return b;
}
