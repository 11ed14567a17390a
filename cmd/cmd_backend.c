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
#include "net/be_pg.h"
#include "providers/provider.h"
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
/* Terraform's internal/backend/remote-state/pg schema. */
static const char *const pg_attrs[] = {
    "conn_str", "schema_name", "skip_index_creation",
    "skip_schema_creation", "skip_table_creation"};
enum { P_CONN_STR, P_SCHEMA, P_SKIP_INDEX, P_SKIP_SCHEMA, P_SKIP_TABLE, P_N };
static const BeSchema schemas[] = {
    {"local", local_attrs, 2, "ss"},
    {"http", http_attrs, H_N, "sssssssnnnbssss"},
    {"pg", pg_attrs, P_N, "ssbbb"}};

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

static bool make_pg(Cli *cli, const char **vals, Backend *b, Diags *d);

static bool make_backend(Cli *cli, const BeSchema *s, const char **vals,
                         Backend *b, Diags *d, const CfgBackend *cb)
{
  if (s && strcmp(s->type, "http") == 0)
    return make_http(cli, vals, b, d, cb);
  if (s && strcmp(s->type, "pg") == 0)
    return make_pg(cli, vals, b, d);
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
static BeHttp *open_http[4];   /* a migration opens two */
static Cli *reader_cli;        /* for remote_state_reader */
static int nopen_http;
static BePg *open_pg[4];       /* the same for pg sessions */
static int nopen_pg;

void cmd_backend_close(Cli *cli)
{
  (void)cli;
  stmgr_bind_remote(NULL, NULL);
  prov_terraform_set_remote_reader(NULL);
  reader_cli = NULL;
  for (int i = 0; i < nopen_http; i++)
    behttp_close(open_http[i]);
  nopen_http = 0;
  for (int i = 0; i < nopen_pg; i++)
    bepg_close(open_pg[i]);
  nopen_pg = 0;
}

/* The http backend: Terraform's arguments and TF_HTTP_* variables, the
** host configuration's opt-in for skip_cert_verification, and the working
** copy under the data directory, bound to the remote for every StMgr. */
static StRemote *http_remote(Cli *cli, const char **v, Diags *d,
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
    return NULL;
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
      return NULL;
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
      return NULL;
    }
  }
  StRemote *r = ARENA_NEW(cli->arena, StRemote, 1);
  BeHttp *h = behttp_open(cli->arena, &c, r, d);
  if (!h)
    return NULL;
  if (nopen_http == 4) {
    behttp_close(h);
    diag_error(d, NULL, "Too many backends", "internal: more than four http "
               "backends in one command.");
    return NULL;
  }
  open_http[nopen_http++] = h;
  return r;
}

static bool make_http(Cli *cli, const char **v, Backend *b, Diags *d,
                      const CfgBackend *cb)
{
  StRemote *r = http_remote(cli, v, d, cb);
  if (!r)
    return false;
  const char *path = arena_printf(cli->arena, "%s/http/terraform.tfstate",
                                  ws_data_dir(cli->arena, NULL));
  be_remote(b, "http", r, path);
  b->configured = true;
  stmgr_bind_remote(path, r);
  return true;
}

/* Go's strconv.ParseBool, which Terraform's bool variables go through. */
static bool parse_bool(const char *t, bool *out)
{
  static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
  static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False"};
  for (int i = 0; i < 6; i++) {
    if (strcmp(t, yes[i]) == 0 || strcmp(t, no[i]) == 0) {
      *out = strcmp(t, yes[i]) == 0;
      return true;
    }
  }
  return false;
}

/* The pg backend: Terraform's arguments and PG_* variables (the argument,
** else the variable, else the default), a session opened at the first
** request, in a.  *out is the backend, which the caller closes (the
** configured one: cmd_backend_close). */
static BeWorkspaces *pg_workspaces(Arena *a, const char **v, BePg **out,
                                   Diags *d)
{
  BePgConfig c;
  memset(&c, 0, sizeof c);
  c.conn_str = env_arg(v[P_CONN_STR], "PG_CONN_STR", "");
  c.schema_name = env_arg(v[P_SCHEMA], "PG_SCHEMA_NAME",
                          "terraform_remote_state");
  struct {
    int i;
    const char *env, *name;
    bool *out;
  } bools[] = {
      {P_SKIP_SCHEMA, "PG_SKIP_SCHEMA_CREATION", "skip_schema_creation",
       &c.skip_schema_creation},
      {P_SKIP_TABLE, "PG_SKIP_TABLE_CREATION", "skip_table_creation",
       &c.skip_table_creation},
      {P_SKIP_INDEX, "PG_SKIP_INDEX_CREATION", "skip_index_creation",
       &c.skip_index_creation}};
  for (int k = 0; k < 3; k++) {
    const char *t = env_arg(v[bools[k].i], bools[k].env, "false");
    if (!parse_bool(t, bools[k].out)) {
      diag_error(d, NULL, "Invalid pg backend configuration",
                 "invalid %s: \"%s\" is not a bool (%s)", bools[k].name, t,
                 bools[k].env);
      return NULL;
    }
  }
  BeWorkspaces *ws = ARENA_NEW(a, BeWorkspaces, 1);
  *out = bepg_open(a, &c, ws, d);
  return *out ? ws : NULL;
}

static bool make_pg(Cli *cli, const char **v, Backend *b, Diags *d)
{
  if (nopen_pg == 4) {
    diag_error(d, NULL, "Too many backends", "internal: more than four pg "
               "backends in one command.");
    return false;
  }
  BePg *p;
  BeWorkspaces *ws = pg_workspaces(cli->arena, v, &p, d);
  if (!ws)
    return false;
  open_pg[nopen_pg++] = p;
  Diags wd;
  diag_init(&wd, cli->arena);
  const char *cur = ws_current(cli->arena, NULL, &wd);
  be_remote_ws(b, cli->arena, "pg", ws,
               arena_printf(cli->arena, "%s/pg",
                            ws_data_dir(cli->arena, NULL)),
               cur ? cur : WS_DEFAULT);
  b->configured = true;
  return true;
}

/* data "terraform_remote_state" with backend = "http": its config decoded
** as a backend block's arguments (Terraform's schema, types converted),
** read with one GET (no lock, as Terraform's remote state data source). */
static bool remote_state_reader(Arena *a, const char *backend, Value cfg,
                                const char *ws, const char **data,
                                size_t *len, bool *found, Diags *d)
{
  Cli *cli = reader_cli;
  const BeSchema *s = schema_of(backend);
  if (!s || strcmp(backend, "local") == 0) {
    diag_error(d, NULL, "Invalid backend configuration",
               "The backend type \"%s\" is not available in cairn's "
               "built-in terraform provider; only \"local\", \"http\" and "
               "\"pg\" are.", backend);
    return false;
  }
  bool pg = strcmp(backend, "pg") == 0;
  if (!pg && strcmp(ws, WS_DEFAULT) != 0) {
    diag_error(d, NULL, "Error loading state error",
               "workspaces not supported: the http backend keeps only the "
               "\"default\" workspace (\"%s\" was asked for).", ws);
    return false;
  }
  const char **v = ARENA_NEW(a, const char *, (size_t)s->nattrs);
  bool obj = !val_is_null(cfg) && cfg.type->kind == TY_OBJECT;
  bool map = !val_is_null(cfg) && cfg.type->kind == TY_MAP;
  uint32_t n = obj || map ? cfg.len : 0;
  for (uint32_t i = 0; i < n; i++) {
    const char *name = obj ? cfg.type->names[i] : cfg.u.entries[i].key;
    Value x = obj ? cfg.u.elems[i] : cfg.u.entries[i].val;
    int k = attr_index(s, name);
    if (k < 0) {
      diag_error(d, NULL, "Invalid backend configuration",
                 "The given configuration is not valid for backend "
                 "\"%s\": unsupported attribute \"%s\".", backend, name);
      return false;
    }
    if (val_is_null(x))
      continue;
    const char *t = NULL;
    if (val_is_known(x) && x.type->kind == TY_STRING)
      t = s->kinds[k] == 's' ? x.u.s : typed_text(cli, s->kinds[k], x.u.s);
    else if (val_is_known(x) && x.type->kind == TY_BOOL && s->kinds[k] == 'b')
      t = x.u.b ? "true" : "false";
    else if (val_is_known(x) && x.type->kind == TY_NUMBER &&
             s->kinds[k] == 'n') {
      Buf b;
      buf_init(&b, cli->arena);
      val_num_format(&b, x);
      t = typed_text(cli, 'n', buf_str(&b));
    }
    if (!t)
      return type_error(d, NULL, name, s->kinds[k]);
    v[k] = t;
  }
  if (pg) {
    /* Read only: a workspace without a row has no state (Terraform's
    ** StateMgr would create the row).  Its own session, in the call's
    ** arena, closed here: data sources are read on the pool's threads. */
    BePg *p;
    BeWorkspaces *w = pg_workspaces(a, v, &p, d);
    if (!w)
      return false;
    const StRemote *r = w->remote(w->ctx, ws);
    Buf b;
    buf_init(&b, a);
    bool ok = r->get(r->ctx, a, &b, found, d);
    bepg_close(p);
    *data = b.p ? b.p : "";
    *len = b.len;
    return ok;
  }
  const StRemote *r = http_remote(cli, v, d, NULL);
  if (!r)
    return false;
  Buf b;
  buf_init(&b, a);
  if (!r->get(r->ctx, a, &b, found, d))
    return false;
  *data = b.p ? b.p : "";
  *len = b.len;
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
  reader_cli = cli;
  prov_terraform_set_remote_reader(remote_state_reader);
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

/* ---- -migrate-state (Terraform's meta_backend_migrate.go) -------------- */

/* Prints prompt and reads one line of stdin (NULL at its end).  Not
** cmd_ask: cmd_state.c includes this module. */
static const char *read_answer(Cli *cli, const char *prompt)
{
  cli_out(cli, "%s", prompt);
  fflush(stdout);
  Buf b;
  buf_init(&b, cli->arena);
  bool any = false;
  char c;
  for (;;) {
    ssize_t k = read(0, &c, 1);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    any = true;
    if (c == '\n')
      break;
    if (b.len < 4096)
      buf_putc(&b, c);
  }
  if (!any)
    return NULL;
  if (b.len && b.p[b.len - 1] == '\r')
    b.p[--b.len] = 0;
  return buf_str(&b);
}

/* Terraform's UIInput prompt: the query in bold, the description indented
** by two spaces, "Enter a value:". */
static bool confirm(Cli *cli, const CmdBackendInit *o, const char *query,
                    const char *desc, Diags *d)
{
  if (o->force_copy)
    return true;
  if (!o->input) {
    diag_error(d, NULL, "Error asking for state migration action",
               "Can't ask approval for state migration when interactive "
               "input is disabled.\n\nPlease remove the \"-input=false\" "
               "option and try again.");
    return false;
  }
  Buf b;
  buf_init(&b, cli->arena);
  buf_printf(&b, "%s%s%s\n", cli->color ? "\x1b[1m" : "", query,
             cli->color ? "\x1b[0m" : "");
  for (const char *p = desc; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    buf_printf(&b, "  %.*s\n", (int)n, p);
    p += n + (nl ? 1 : 0);
  }
  buf_puts(&b, "\n  Enter a value: ");
  const char *ans = read_answer(cli, buf_str(&b));
  cli_out(cli, "\n");
  if (!ans) {
    /* No answer is not a "no": nothing is copied or recorded. */
    diag_error(d, NULL, "Error asking for state migration action",
               "No answer: the standard input ended.");
    return false;
  }
  return strcmp(ans, "yes") == 0;
}

/* A workspace's state as bytes (through stmgr: a journal is replayed, a
** remote is pulled); *st NULL when there is none or it is empty. */
static bool load_ws(Cli *cli, const Backend *b, const char *ws, Buf *out,
                    State **st, Diags *d)
{
  StMgr m;
  StMgrOpts so = {be_state_path(b, cli->arena, ws), NULL, "-"};
  stmgr_init(&m, cli->arena, &so);
  State *s = NULL;
  bool ok = stmgr_load(&m, &s, d);
  stmgr_close(&m);
  *st = NULL;
  if (!ok)
    return false;
  if (s && (s->nres > 0 || s->noutputs > 0)) {   /* State.Empty */
    st_write(out, s, NULL);
    *st = s;
  }
  return true;
}

static bool save_ws(Cli *cli, const Backend *b, const char *ws,
                    const char *data, size_t n, Diags *d)
{
  const StRemote *rem = be_remote_of(b, ws);
  if (rem) {
    StLockInfo li, holder;
    stmgr_new_lock_info(cli->arena, &li, "migration destination state", "");
    const char *why = NULL;
    if (rem->can_lock) {
      StRemoteRes r = rem->lock(rem->ctx, cli->arena, &li,
                                      &holder, &why, d);
      if (r == ST_REMOTE_ERR)
        return false;
      if (r == ST_REMOTE_LOCKED) {
        Buf t;
        buf_init(&t, cli->arena);
        buf_puts(&t, why);
        if ((holder.id && *holder.id) || (holder.who && *holder.who)) {
          buf_putc(&t, '\n');
          stmgr_format_lock_info(&t, &holder);
        }
        diag_error(d, NULL, "Error acquiring the state lock",
                   "Error message: %s", buf_str(&t));
        return false;
      }
    }
    bool ok = rem->put(rem->ctx, data, n,
                             rem->can_lock ? li.id : NULL, d);
    if (rem->can_lock)
      ok = rem->unlock(rem->ctx, &li, d) && ok;
    return ok;
  }
  StMgr m;
  StMgrOpts so = {be_state_path(b, cli->arena, ws), NULL, "-"};
  stmgr_init(&m, cli->arena, &so);
  bool ok = stmgr_lock(&m, "migration destination state", 0, NULL, NULL, d) &&
            stmgr_write_file(&m, m.out_path, data, n, d);
  stmgr_unlock(&m, d);
  stmgr_close(&m);
  return ok;
}

static const char *tmp_state(Cli *cli, const char *dir, const char *name,
                             const char *data, size_t n)
{
  const char *p = arena_printf(cli->arena, "%s/%s", dir, name);
  FILE *f = fopen(p, "wb");
  if (f) {
    fwrite(data, 1, n, f);
    fclose(f);
  }
  return p;
}

/* backendMigrateState_s_s: one workspace from src to dst.  *copied tells
** whether the state was written. */
static bool copy_ws(Cli *cli, const Backend *src, const char *sws,
                    const Backend *dst, const char *dws,
                    const CmdBackendInit *o, bool *copied, Diags *d)
{
  *copied = false;
  Buf sb, db;
  buf_init(&sb, cli->arena);
  buf_init(&db, cli->arena);
  State *ss, *ds;
  if (!load_ws(cli, src, sws, &sb, &ss, d))
    return false;
  if (!ss)
    return true;   /* Terraform does not migrate an empty state */
  if (!load_ws(cli, dst, dws, &db, &ds, d))
    return false;
  if (ds && ds->serial == ss->serial && strcmp(ds->lineage, ss->lineage) == 0)
    return true;   /* already there */
  bool yes;
  if (!ds) {
    yes = confirm(cli, o, "Do you want to copy existing state to the new "
                  "backend?", arena_printf(cli->arena,
                  "Pre-existing state was found while migrating the previous "
                  "\"%s\" backend to the\nnewly configured \"%s\" backend. "
                  "No existing state was found in the newly\nconfigured \"%s\" "
                  "backend. Do you want to copy this state to the new \"%s\"\n"
                  "backend? Enter \"yes\" to copy and \"no\" to start with an "
                  "empty state.", src->type, dst->type, dst->type, dst->type),
                  d);
  } else {
    char tmpl[] = "/tmp/cairn-migrate-XXXXXX";
    const char *td = mkdtemp(tmpl);
    const char *p1 = "", *p2 = "";
    if (td) {
      p1 = tmp_state(cli, td, arena_printf(cli->arena, "1-%s.tfstate",
                                           src->type), sb.p, sb.len);
      p2 = tmp_state(cli, td, arena_printf(cli->arena, "2-%s.tfstate",
                                           dst->type), db.p, db.len);
    }
    yes = confirm(cli, o, "Do you want to copy existing state to the new "
                  "backend?", arena_printf(cli->arena,
                  "Pre-existing state was found while migrating the previous "
                  "\"%s\" backend to the\nnewly configured \"%s\" backend. An "
                  "existing non-empty state already exists in\nthe new backend. "
                  "The two states have been saved to temporary files that will "
                  "be\nremoved after responding to this query.\n\n"
                  "Previous (type \"%s\"): %s\nNew      (type \"%s\"): %s\n\n"
                  "Do you want to overwrite the state in the new backend with "
                  "the previous state?\nEnter \"yes\" to copy and \"no\" to "
                  "start with the existing state in the newly\nconfigured "
                  "\"%s\" backend.", src->type, dst->type, src->type, p1,
                  dst->type, p2, dst->type), d);
    if (td) {
      unlink(p1);
      unlink(p2);
      rmdir(td);
    }
  }
  if (diag_has_errors(d))
    return false;
  if (!yes)
    return true;
  Diags cd;
  diag_init(&cd, cli->arena);
  if (!save_ws(cli, dst, dws, sb.p, sb.len, &cd)) {
    diag_error(d, NULL, "Failed to migrate state",
               "Error copying state from the previous \"%s\" backend to the "
               "newly configured\n\"%s\" backend:\n    %s\n\nThe state in "
               "the previous backend remains intact and unmodified. Please "
               "resolve\nthe error above and try again.", src->type,
               dst->type, cd.head ? (cd.head->detail && *cd.head->detail
                                         ? cd.head->detail
                                         : cd.head->summary)
                                  : "unknown error");
    return false;
  }
  *copied = true;
  return true;
}

/* Copies the states of the previously recorded backend (r; none: the
** implicit local one) into dst, as Terraform's backendMigrateState. */
static bool migrate_state(Cli *cli, const Record *r, const Backend *dst,
                          const CmdBackendInit *o, Diags *d)
{
  Backend *src = ARENA_NEW(cli->arena, Backend, 1);
  const BeSchema *ss = r->type ? schema_of(r->type) : NULL;
  if (r->type && !ss) {
    diag_error(d, NULL, "Invalid backend type",
               "There is no backend type named \"%s\" (the previous "
               "backend recorded in %s).", r->type, record_path(cli));
    return false;
  }
  if (ss) {
    if (!make_backend(cli, ss, recorded_vals(cli, ss, r), src, d, NULL))
      return false;
  } else {
    be_local(src, NULL, NULL);
  }
  bool ok = true;
  const char *cur = ws_current(cli->arena, NULL, d);
  if (!cur)
    return false;
  if ((!src->remote || src->ws) && (!dst->remote || dst->ws)) {
    if (!src->remote && !dst->remote && strcmp(src->path, dst->path) == 0 &&
        strcmp(src->workspace_dir, dst->workspace_dir) == 0)
      return true;
    const char **names;
    int n;
    if (!be_list(src, cli->arena, &names, &n, d))
      return false;
    if (n > 1 && !confirm(cli, o, arena_printf(cli->arena,
                              "Do you want to migrate all workspaces to "
                              "\"%s\"?", dst->type),
                          arena_printf(cli->arena,
        "Both the existing \"%s\" backend and the newly configured \"%s\" "
        "backend\nsupport workspaces. When migrating between backends, "
        "Terraform will copy\nall workspaces (with the same names). THIS "
        "WILL OVERWRITE any conflicting\nstates in the destination.\n\n"
        "Terraform initialization doesn't currently migrate only select "
        "workspaces.\nIf you want to migrate a select number of workspaces, "
        "you must manually\npull and push those states.\n\nIf you answer "
        "\"yes\", Terraform will migrate all states. If you answer\n\"no\", "
        "Terraform will abort.", src->type, dst->type), d)) {
      if (!diag_has_errors(d))
        diag_error(d, NULL, "Migration aborted", "Migration aborted by "
                   "user.");
      return false;
    }
    CmdBackendInit forced = *o;
    forced.force_copy = forced.force_copy || n > 1;
    for (int i = 0; ok && i < n; i++) {
      bool copied;
      ok = copy_ws(cli, src, names[i], dst, names[i], &forced, &copied, d);
    }
    return ok;
  }
  const char *sws = WS_DEFAULT;
  if (!src->remote) {
    const char **names;
    int n;
    if (!be_list(src, cli->arena, &names, &n, d))
      return false;
    if (n > 1 || strcmp(cur, WS_DEFAULT) != 0) {
      if (!confirm(cli, o, arena_printf(cli->arena,
                       "Destination state \"%s\" doesn't support workspaces.\n"
                       "Do you want to copy only your current workspace?",
                       dst->type), arena_printf(cli->arena,
          "The existing \"%s\" backend supports workspaces and you currently "
          "are\nusing more than one. The newly configured \"%s\" backend "
          "doesn't support\nworkspaces. If you continue, Terraform will copy "
          "your current workspace \"%s\"\nto the default workspace in the "
          "new backend. Your existing workspaces in the\nsource backend won't "
          "be modified. If you want to switch workspaces, back them\nup, or "
          "cancel altogether, answer \"no\" and Terraform will abort.",
          src->type, dst->type, cur), d)) {
        if (!diag_has_errors(d))
          diag_error(d, NULL, "Migration aborted", "Migration aborted by "
                     "user.");
        return false;
      }
      sws = cur;
      if (!ws_select(cli->arena, NULL, WS_DEFAULT, d))
        return false;
    }
  }
  bool copied = false;
  ok = copy_ws(cli, src, sws, dst, WS_DEFAULT, o, &copied, d);
  /* Terraform empties the implicit local state it moved into a backend
  ** (keeping a backup), so it is not mistaken for the current state. */
  if (ok && copied && !r->type && strcmp(sws, WS_DEFAULT) == 0) {
    StMgr m;
    StMgrOpts so = {src->path, NULL, NULL};
    stmgr_init(&m, cli->arena, &so);
    Buf b;
    buf_init(&b, cli->arena);
    State *st;
    ok = load_ws(cli, src, WS_DEFAULT, &b, &st, d) &&
         stmgr_lock(&m, "migration source state", 0, NULL, NULL, d) &&
         stmgr_write_file(&m, m.backup_path, b.p, b.len, d) &&
         stmgr_write_file(&m, m.out_path, "", 0, d);
    stmgr_unlock(&m, d);
    stmgr_close(&m);
  }
  return ok;
}

const Backend *cmd_backend_init(Cli *cli, const CfgModule *m,
                                const CmdBackendInit *o, bool *configured,
                                const char **unset, Diags *d)
{
  *configured = false;
  *unset = NULL;
  const CfgBackend *cb = m->backend;
  const BeSchema *s = cb ? check_type(cb, CMD_BACKEND_INIT, d) : NULL;
  if (cb && !s)
    return NULL;
  Record r;
  if (!read_record(cli, &r, d))
    return NULL;
  Backend *b = ARENA_NEW(cli->arena, Backend, 1);
  if (o->migrate && o->reconfigure) {
    diag_error(d, NULL, "Invalid command-line option",
               "The -migrate-state and -reconfigure options are "
               "mutually-exclusive.");
    return NULL;
  }
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
    if (r.type && !o->reconfigure && !o->migrate) {
      diag_error(d, NULL, "Backend configuration changed", migrate_detail);
      return NULL;
    }
    be_local(b, NULL, NULL);
    bool unsetting = r.type && o->migrate && strcmp(r.type, "local") != 0;
    if (unsetting)   /* Terraform's LogMigrateBackendUnsetStart, before the
                     ** migration's prompts */
      cli_out(cli, "Terraform has detected you're unconfiguring your "
              "previously set \"%s\" backend.\n", r.type);
    if (r.type && o->migrate && !migrate_state(cli, &r, b, o, d))
      return NULL;
    if (r.type && !write_record(cli, &r, NULL, NULL, 0, d))
      return NULL;
    if (unsetting)
      *unset = r.type;   /* in cli->arena, as long as the command */
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
      if (!migrate_state(cli, &r, b, o, d))
        return NULL;
    } else if (strcmp(be_state_path(b, cli->arena, WS_DEFAULT),
                      "terraform.tfstate") != 0 && default_state_exists()) {
      /* First configuration: Terraform offers to copy the local state
      ** into the new backend, with or without -migrate-state. */
      if (!migrate_state(cli, &r, b, o, d))
        return NULL;
    }
    if (b->remote)
      stmgr_bind_remote(b->path, b->remote);
  }
  if (!same) {
    if (!write_record(cli, &r, s, vals, hash, d))
      return NULL;
    *configured = true;
  }
  cli->backend = b;
  return b;
}
