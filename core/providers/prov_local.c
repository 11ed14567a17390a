/*
** prov_local: the built-in hashicorp/local provider.
**
** local_file and local_sensitive_file (resources and data sources) with
** the upstream provider's schemas, defaults, validation messages and
** behaviour:
** - content comes from exactly one of content / sensitive_content (deprecated,
**   local_file only) / content_base64 / source (a file path read at apply);
** - every argument forces replacement; the hashes and id (sha1 hex of the
**   content) are unknown until apply;
** - apply creates missing parent directories with directory_permission and
**   writes the file with file_permission (both before umask; an existing
**   file keeps its mode, as os.WriteFile does);
** - ReadResource reports the object gone when the file is missing or its
**   sha1 no longer matches id, so the next plan re-creates it;
** - delete removes the file (errors ignored, as upstream).
** Hashes come from mbedTLS.
** data local_command runs a program as upstream's does (provider_run.c).
** provider::local::direxists (upstream v2.5's function): true for a
** directory, false when nothing is there, an argument error for anything
** else (a file, an unreadable path), texts as upstream's.
*/
#include "lang/funcs.h"
#include "provider.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CONTENT_HELP "Exactly one of these four arguments must be specified."

/* Hash attributes shared by every schema here. */
#define HASH_ATTRS                                                         \
  {.name = "content_base64sha256", .type = &ty_string,                     \
   .flags = PROV_COMPUTED,                                                 \
   .description = "Base64 encoded SHA256 checksum of file content."},      \
  {.name = "content_base64sha512", .type = &ty_string,                     \
   .flags = PROV_COMPUTED,                                                 \
   .description = "Base64 encoded SHA512 checksum of file content."},      \
  {.name = "content_md5", .type = &ty_string, .flags = PROV_COMPUTED,      \
   .description = "MD5 checksum of file content."},                        \
  {.name = "content_sha1", .type = &ty_string, .flags = PROV_COMPUTED,     \
   .description = "SHA1 checksum of file content."},                       \
  {.name = "content_sha256", .type = &ty_string, .flags = PROV_COMPUTED,   \
   .description = "SHA256 checksum of file content."},                     \
  {.name = "content_sha512", .type = &ty_string, .flags = PROV_COMPUTED,   \
   .description = "SHA512 checksum of file content."},                     \
  {.name = "id", .type = &ty_string, .flags = PROV_COMPUTED,               \
   .description = "The hexadecimal encoding of the SHA1 checksum of the "  \
                  "file content."}

#define PERM_DESC(def)                                                     \
  "Permissions to set for the output file (before umask), expressed as "   \
  "string in numeric notation. Default value is `\"" def "\"`."

static const ProvAttrSchema file_attrs[] = {
  {.name = "content", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Content to store in the file, expected to be a UTF-8 "
                  "encoded string. " CONTENT_HELP},
  {.name = "content_base64", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Content to store in the file, expected to be binary "
                  "encoded as base64 string. " CONTENT_HELP},
  {.name = "directory_permission", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_COMPUTED,
   .description = "Permissions to set for directories created (before "
                  "umask). Default value is `\"0777\"`."},
  {.name = "file_permission", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_COMPUTED, .description = PERM_DESC("0777")},
  {.name = "filename", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "The path to the file that will be created. Missing "
                  "parent directories will be created. If the file already "
                  "exists, it will be overridden with the given content."},
  {.name = "sensitive_content", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_SENSITIVE | PROV_DEPRECATED,
   .description = "Sensitive content to store in the file, expected to be "
                  "an UTF-8 encoded string. " CONTENT_HELP,
   .deprecation_message = "Use the `local_sensitive_file` resource instead"},
  {.name = "source", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Path to file to use as source for the one we are "
                  "creating. " CONTENT_HELP},
  HASH_ATTRS,
};

static const ProvAttrSchema sfile_attrs[] = {
  {.name = "content", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_SENSITIVE,
   .description = "Sensitive Content to store in the file, expected to be "
                  "an UTF-8 encoded string."},
  {.name = "content_base64", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_SENSITIVE,
   .description = "Sensitive Content to store in the file, expected to be "
                  "binary encoded as base64 string."},
  {.name = "directory_permission", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_COMPUTED,
   .description = "Permissions to set for directories created (before "
                  "umask). Default value is `\"0700\"`."},
  {.name = "file_permission", .type = &ty_string,
   .flags = PROV_OPTIONAL | PROV_COMPUTED, .description = PERM_DESC("0700")},
  {.name = "filename", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "The path to the file that will be created. Missing "
                  "parent directories will be created. If the file already "
                  "exists, it will be overridden with the given content."},
  {.name = "source", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Path to file to use as source for the one we are "
                  "creating."},
  HASH_ATTRS,
};

static const ProvAttrSchema dfile_attrs[] = {
  {.name = "content", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "Raw content of the file that was read, as UTF-8 encoded "
                  "string."},
  {.name = "content_base64", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "Base64 encoded version of the file content (use this "
                  "when dealing with binary data)."},
  {.name = "filename", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "Path to the file that will be read. The data source "
                  "will return an error if the file does not exist."},
  HASH_ATTRS,
};

static const ProvAttrSchema dsfile_attrs[] = {
  {.name = "content", .type = &ty_string,
   .flags = PROV_COMPUTED | PROV_SENSITIVE,
   .description = "Raw content of the file that was read, as UTF-8 encoded "
                  "string."},
  {.name = "content_base64", .type = &ty_string,
   .flags = PROV_COMPUTED | PROV_SENSITIVE,
   .description = "Base64 encoded version of the file content (use this "
                  "when dealing with binary data)."},
  {.name = "filename", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "Path to the file that will be read. The data source "
                  "will return an error if the file does not exist."},
  HASH_ATTRS,
};

#define NATTRS(x) ((uint32_t)(sizeof(x) / sizeof((x)[0])))

static const ProvBlockSchema file_block = {
  .attrs = file_attrs, .nattrs = NATTRS(file_attrs),
  .description = "Generates a local file with the given content."};
static const ProvBlockSchema sfile_block = {
  .attrs = sfile_attrs, .nattrs = NATTRS(sfile_attrs),
  .description = "Generates a local file with the given sensitive content."};
static const ProvBlockSchema dfile_block = {
  .attrs = dfile_attrs, .nattrs = NATTRS(dfile_attrs),
  .description = "Reads a file from the local filesystem."};
static const ProvBlockSchema dsfile_block = {
  .attrs = dsfile_attrs, .nattrs = NATTRS(dsfile_attrs),
  .description = "Reads a file that contains sensitive data, from the "
                 "local filesystem."};

static const Type list_string = {.kind = TY_LIST, .elem = &ty_string};

static const ProvAttrSchema dcommand_attrs[] = {
  {.name = "allow_non_zero_exit_code", .type = &ty_bool,
   .flags = PROV_OPTIONAL,
   .description = "Indicates that the command returning a non-zero exit "
                  "code should be treated as a successful execution. "
                  "Further assertions can be made of the `exit_code` value "
                  "with the [`check` block](https://developer.hashicorp.com"
                  "/terraform/language/block/check). Defaults to false."},
  {.name = "arguments", .type = &list_string, .flags = PROV_OPTIONAL,
   .description = "Arguments to be passed to the given command. Any `null` "
                  "arguments will be removed from the list."},
  {.name = "command", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "Executable name to be discovered on the PATH or "
                  "absolute path to executable."},
  {.name = "exit_code", .type = &ty_number, .flags = PROV_COMPUTED,
   .description = "The exit code returned by the command. By default, if "
                  "the exit code is non-zero, the data source will return "
                  "a diagnostic to Terraform. If a non-zero exit code is "
                  "expected by the command, set `allow_non_zero_exit_code` "
                  "to `true`."},
  {.name = "stderr", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "Data returned from the command's standard error stream. "
                  "The data is returned directly from the command as a "
                  "UTF-8 string and will be populated regardless of the "
                  "exit code returned."},
  {.name = "stdin", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Data to be passed to the given command's standard input "
                  "as a UTF-8 string. [Terraform values](https://developer."
                  "hashicorp.com/terraform/language/expressions/types) can "
                  "be encoded by any Terraform encode function, for "
                  "example, [`jsonencode`](https://developer.hashicorp.com/"
                  "terraform/language/functions/jsonencode)."},
  {.name = "stdout", .type = &ty_string, .flags = PROV_COMPUTED,
   .description = "Data returned from the command's standard output "
                  "stream. The data is returned directly from the command "
                  "as a UTF-8 string, which can then be decoded by any "
                  "Terraform decode function, for example, [`jsondecode`]"
                  "(https://developer.hashicorp.com/terraform/language/"
                  "functions/jsondecode)."},
  {.name = "working_directory", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "The directory path where the command should be "
                  "executed, either an absolute path or relative to the "
                  "Terraform working directory. If not provided, defaults "
                  "to the Terraform working directory."},
};
static const ProvBlockSchema dcommand_block = {
  .attrs = dcommand_attrs,
  .nattrs = sizeof dcommand_attrs / sizeof dcommand_attrs[0]};

static const Type map_string = {.kind = TY_MAP, .elem = &ty_string};

/* The local_command action (upstream v2.6.0, environment since v2.8.0). */
static const ProvAttrSchema acommand_attrs[] = {
  {.name = "arguments", .type = &list_string, .flags = PROV_OPTIONAL,
   .description = "Arguments to be passed to the given command."},
  {.name = "command", .type = &ty_string, .flags = PROV_REQUIRED,
   .description = "Executable name to be discovered on the PATH or "
                  "absolute path to executable."},
  {.name = "environment", .type = &map_string, .flags = PROV_OPTIONAL,
   .description = "Variables added to the environment the command runs "
                  "with."},
  {.name = "stdin", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "Data to be passed to the given command's standard "
                  "input."},
  {.name = "working_directory", .type = &ty_string, .flags = PROV_OPTIONAL,
   .description = "The directory where the command should be executed. "
                  "Defaults to the current working directory."},
};
static const ProvBlockSchema acommand_block = {
  .attrs = acommand_attrs,
  .nattrs = sizeof acommand_attrs / sizeof acommand_attrs[0]};
static const ProvTypeSchema actions[] = {
  {"local_command", {0, &acommand_block}},
};

static const ProvBlockSchema empty_block = {0};

static const ProvTypeSchema resources[] = {
  {"local_file", {0, &file_block}},
  {"local_sensitive_file", {0, &sfile_block}},
};
static const ProvTypeSchema data_sources[] = {
  {"local_command", {0, &dcommand_block}},
  {"local_file", {0, &dfile_block}},
  {"local_sensitive_file", {0, &dsfile_block}},
};
/* Upstream's function definition (function_direxists.go), texts as
** there. */
static const ProvFuncParam direxists_params[] = {
  {.name = "path", .type = &ty_string,
   .description = "Relative or absolute path to check for the existence "
                  "of a directory"},
};
static const ProvFunction functions[] = {
  {.name = "direxists", .params = direxists_params, .nparams = 1,
   .return_type = &ty_bool,
   .summary = "Determines whether a directory exists at a given path.",
   .description =
       "Given a path string, will return true if the directory exists. "
       "This function works only with directories. If used with a file, "
       "the function will return an error.\n\n"
       "This function behaves similar to the built-in "
       "[`fileexists`](https://developer.hashicorp.com/terraform/language/"
       "functions/fileexists) function, however, `direxists` will not "
       "replace filesystem paths including `~` with the current user's "
       "home directory path. This functionality can be achieved by using "
       "the built-in [`pathexpand`](https://developer.hashicorp.com/"
       "terraform/language/functions/pathexpand) function with "
       "`direxists`, see example below."},
};

static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .resources = resources, .nresources = 2,
  .data_sources = data_sources, .ndata_sources = 3,
  .ephemeral_resources = data_sources, .nephemeral_resources = 1,
  .functions = functions, .nfunctions = 1,
  .plan_destroy = true,
  .actions = actions, .nactions = 1,
};

static const ProvProviderSchema *sch(Prov *p) { return p->impl; }

static bool is_sensitive_type(const char *type_name)
{
  return strcmp(type_name, "local_sensitive_file") == 0;
}

static const ProvBlockSchema *res_block(Prov *p, const char *type_name)
{
  return prov_schema_resource(sch(p), type_name)->schema.block;
}

static void open_local(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = sch(p);
}

/* ---- Hashes ------------------------------------------------------------- */

typedef struct Sums {
  const char *md5, *sha1, *sha256, *sha512, *b64sha256, *b64sha512;
} Sums;

static const char *hex(Arena *a, const unsigned char *p, size_t n)
{
  static const char digits[] = "0123456789abcdef";
  char *s = ARENA_NEW(a, char, 2 * n + 1);
  for (size_t i = 0; i < n; i++) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

static const char *sha1_hex(Arena *a, const void *data, size_t n)
{
  unsigned char h[20];
  fn_dig_sha1(data, n, h);
  return hex(a, h, 20);
}

static Sums sums(Arena *a, const void *data, size_t n)
{
  unsigned char m[16], s1[20], s256[32], s512[64];
  fn_dig_md5(data, n, m);
  fn_dig_sha1(data, n, s1);
  fn_dig_sha256(data, n, s256);
  fn_dig_sha512(data, n, s512);
  Sums r = {
    .md5 = hex(a, m, 16),
    .sha1 = hex(a, s1, 20),
    .sha256 = hex(a, s256, 32),
    .sha512 = hex(a, s512, 64),
    .b64sha256 = prov_base64_encode(a, s256, 32, false, true),
    .b64sha512 = prov_base64_encode(a, s512, 64, false, true),
  };
  return r;
}

static Value with_sums(Arena *a, Value v, const void *data, size_t n)
{
  Sums s = sums(a, data, n);
  v = prov_set(a, v, "content_md5", val_cstr(a, s.md5));
  v = prov_set(a, v, "content_sha1", val_cstr(a, s.sha1));
  v = prov_set(a, v, "content_sha256", val_cstr(a, s.sha256));
  v = prov_set(a, v, "content_base64sha256", val_cstr(a, s.b64sha256));
  v = prov_set(a, v, "content_sha512", val_cstr(a, s.sha512));
  v = prov_set(a, v, "content_base64sha512", val_cstr(a, s.b64sha512));
  v = prov_set(a, v, "id", val_cstr(a, s.sha1));
  return v;
}

/* Go's error texts are lower-case ("no such file or directory"). */
static const char *go_strerror(Arena *a, int e)
{
  char *s = arena_strdup(a, strerror(e));
  if (s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = (char)(s[0] - 'A' + 'a');
  return s;
}

/* ---- Validation -------------------------------------------------------- */

static void check_perm(ProvCall *c, Value cfg, const char *name)
{
  Value v = prov_get(cfg, name);
  if (val_is_null(v) || !val_is_known(v))
    return;
  const char *fp = v.u.s;
  ValPath path = prov_path_attr(c->arena, name);
  if (v.len < 3 || v.len > 4) {
    prov_diag_attr(c, DIAG_ERROR, path,
                   "Invalid File Permission String Value",
                   "bad mode permission: string length should be 3 or 4 "
                   "digits: %s",
                   fp);
    return;
  }
  for (uint32_t i = 0; i < v.len; i++)
    if (fp[i] < '0' || fp[i] > '7' || (v.len == 4 && i == 0 && fp[i] != '0')) {
      prov_diag_attr(c, DIAG_ERROR, path,
                     "Invalid File Permission String Value",
                     "bad mode permission: string must be expressed in "
                     "octal numeric notation: %s",
                     fp);
      return;
    }
}

/* ExactlyOneOf over the content arguments, reported once per argument as
** the framework's per-attribute validators do. */
static void check_exactly_one(ProvCall *c, Value cfg, const char *const *names,
                              int n)
{
  int count = 0;
  for (int i = 0; i < n; i++) {
    Value v = prov_get(cfg, names[i]);
    if (!val_is_known(v))
      return;
    if (!val_is_null(v))
      count++;
  }
  if (count == 1)
    return;
  for (int i = 0; i < n; i++) {
    Buf b;
    buf_init(&b, c->arena);
    buf_printf(&b, "[%s", names[i]);
    for (int j = 0; j < n; j++)
      if (j != i)
        buf_printf(&b, ",%s", names[j]);
    buf_putc(&b, ']');
    ValPath path = prov_path_attr(c->arena, names[i]);
    if (count == 0)
      prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Combination",
                     "No attribute specified when one (and only one) of %s "
                     "is required",
                     buf_str(&b));
    else
      prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Combination",
                     "%d attributes specified when one (and only one) of "
                     "%s is required",
                     count, buf_str(&b));
  }
}

static void validate_resource(Prov *p, ProvCall *c, const char *type_name,
                              Value cfg)
{
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  prov_warn_deprecated(c, res_block(p, type_name), cfg);
  static const char *const four[] = {"content", "content_base64",
                                     "sensitive_content", "source"};
  static const char *const three[] = {"content", "content_base64", "source"};
  if (is_sensitive_type(type_name))
    check_exactly_one(c, cfg, three, 3);
  else
    check_exactly_one(c, cfg, four, 4);
  check_perm(c, cfg, "file_permission");
  check_perm(c, cfg, "directory_permission");
}

/* ---- Resource lifecycle ----------------------------------------------- */

static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  prov_decode_state(c, res_block(p, req->type_name), req->raw_json,
                    req->raw_len, &resp->upgraded_state);
}

static const char *const replace_attrs[] = {
  "content", "content_base64", "directory_permission", "file_permission",
  "filename", "sensitive_content", "source", NULL};

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  Arena *a = c->arena;
  Value planned = req->proposed_new_state;
  if (val_is_null(planned)) {
    resp->planned_state = planned;
    return;
  }
  const ProvBlockSchema *b = res_block(p, req->type_name);
  const char *def = is_sensitive_type(req->type_name) ? "0700" : "0777";
  /* Schema defaults apply where the configuration is null. */
  Value cfg = req->config;
  static const char *const perms[] = {"file_permission",
                                      "directory_permission"};
  for (int i = 0; i < 2; i++)
    if (val_is_null(prov_get(cfg, perms[i]))) {
      planned = prov_set(a, planned, perms[i], val_cstr(a, def));
      cfg = prov_set(a, cfg, perms[i], val_cstr(a, def));
    }
  Value prior = req->prior_state;
  if (val_is_null(prior) || !val_raw_equal(prior, planned, false))
    planned = prov_unknown_computed(a, b, prior, planned, cfg, NULL);
  for (int i = 0; replace_attrs[i]; i++)
    if (prov_block_attr(b, replace_attrs[i]) &&
        prov_attr_changed(prior, planned, replace_attrs[i]))
      prov_requires_replace(c, resp, replace_attrs[i]);
  resp->planned_state = planned;
}

static bool known_str(Value v) { return !val_is_null(v) && val_is_known(v); }

/* The bytes to write, from whichever content argument is set. */
static bool file_content(ProvCall *c, Value plan, const char **data,
                         size_t *len)
{
  Arena *a = c->arena;
  Value v = prov_get(plan, "sensitive_content");
  if (known_str(v)) {
    *data = v.u.s;
    *len = v.len;
    return true;
  }
  v = prov_get(plan, "content_base64");
  if (known_str(v)) {
    uint8_t *out;
    size_t bad;
    if (!prov_base64_decode(a, v.u.s, v.len, &out, len, &bad)) {
      diag_error(c->diags, NULL, "Create local file error",
                 "An unexpected error occurred while parsing local file "
                 "content\n\n+Original Error: illegal base64 data at input "
                 "byte %zu",
                 bad);
      return false;
    }
    *data = (const char *)out;
    return true;
  }
  v = prov_get(plan, "source");
  if (known_str(v)) {
    if (!prov_read_file(a, v.u.s, data, len)) {
      diag_error(c->diags, NULL, "Create local file error",
                 "An unexpected error occurred while parsing local file "
                 "content\n\n+Original Error: open %s: %s",
                 v.u.s, go_strerror(a, errno));
      return false;
    }
    return true;
  }
  v = prov_get(plan, "content");
  *data = known_str(v) ? v.u.s : "";
  *len = known_str(v) ? v.len : 0;
  return true;
}

static mode_t parse_mode(Value v, mode_t def)
{
  if (!known_str(v))
    return def;
  mode_t m = 0;
  for (uint32_t i = 0; i < v.len; i++) {
    if (v.u.s[i] < '0' || v.u.s[i] > '7')
      return def;
    m = (mode_t)(m * 8 + (mode_t)(v.u.s[i] - '0'));
  }
  return m & 07777;
}

/* os.MkdirAll: creates dir and its missing parents with mode. */
static bool mkdir_all(Arena *a, const char *dir, mode_t mode)
{
  struct stat st;
  if (stat(dir, &st) == 0)
    return S_ISDIR(st.st_mode) ? true : (errno = ENOTDIR, false);
  char *d = arena_strdup(a, dir);
  size_t n = strlen(d);
  while (n > 1 && d[n - 1] == '/')
    d[--n] = 0;
  char *slash = strrchr(d, '/');
  if (slash && slash != d) {
    *slash = 0;
    if (!mkdir_all(a, d, mode))
      return false;
    *slash = '/';
  }
  if (mkdir(d, mode) != 0 && errno != EEXIST)
    return false;
  return true;
}

static bool write_all(int fd, const char *p, size_t n)
{
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    p += w;
    n -= (size_t)w;
  }
  return true;
}

static void create_file(ProvCall *c, const char *type_name, Value plan,
                        ProvApplyResp *resp)
{
  Arena *a = c->arena;
  const char *data;
  size_t len;
  if (!file_content(c, plan, &data, &len))
    return;
  mode_t def = is_sensitive_type(type_name) ? 0700 : 0777;
  const char *dest = prov_get(plan, "filename").u.s;
  char *dir = arena_strdup(a, dest);
  char *slash = strrchr(dir, '/');
  const char *dname = ".";
  if (slash == dir)
    dname = "/";
  else if (slash) {
    *slash = 0;
    dname = dir;
  }
  struct stat st;
  if (stat(dname, &st) != 0 &&
      !mkdir_all(a, dname,
                 parse_mode(prov_get(plan, "directory_permission"), def))) {
    diag_error(c->diags, NULL, "Create local file error",
               "An unexpected error occurred while creating file "
               "directory\n\n+Original Error: mkdir %s: %s",
               dname, go_strerror(a, errno));
    return;
  }
  mode_t fmode = parse_mode(prov_get(plan, "file_permission"), def);
  int fd = open(dest, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, fmode);
  if (fd < 0 || !write_all(fd, data, len)) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    diag_error(c->diags, NULL, "Create local file error",
               "An unexpected error occurred while writing the "
               "file\n\n+Original Error: open %s: %s",
               dest, go_strerror(a, e));
    return;
  }
  if (close(fd) != 0) {
    diag_error(c->diags, NULL, "Create local file error",
               "An unexpected error occurred while writing the "
               "file\n\n+Original Error: close %s: %s",
               dest, go_strerror(a, errno));
    return;
  }
  resp->new_state = with_sums(a, plan, data, len);
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  (void)p;
  Value plan = req->planned_state;
  if (val_is_null(plan)) {
    Value fn = prov_get(req->prior_state, "filename");
    if (known_str(fn))
      unlink(fn.u.s);
    resp->new_state = plan;
    return;
  }
  if (!val_is_null(req->prior_state)) {
    /* Update: only possible without a change of any argument. */
    resp->new_state = plan;
    return;
  }
  create_file(c, req->type_name, plan, resp);
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  Arena *a = c->arena;
  Value st = req->current_state;
  resp->new_state = st;
  resp->private_data = req->private_data;
  if (val_is_null(st))
    return;
  Value fn = prov_get(st, "filename");
  if (!known_str(fn))
    return;
  Value gone = prov_null_object(a, res_block(p, req->type_name));
  struct stat sb;
  if (stat(fn.u.s, &sb) != 0 && errno == ENOENT) {
    resp->new_state = gone;
    return;
  }
  const char *data;
  size_t len;
  if (!prov_read_file(a, fn.u.s, &data, &len)) {
    diag_error(c->diags, NULL, "Read local file error",
               "An unexpected error occurred while reading the "
               "file\n\n+Original Error: open %s: %s",
               fn.u.s, go_strerror(a, errno));
    return;
  }
  Value id = prov_get(st, "id");
  if (!known_str(id) || strcmp(sha1_hex(a, data, len), id.u.s) != 0)
    resp->new_state = gone;
}

/* ---- Data sources ------------------------------------------------------ */

/* Invalid UTF-8 becomes U+FFFD, as the upstream data source documents. */
static Value utf8_value(Arena *a, const char *s, size_t n)
{
  Buf b;
  buf_init(&b, a);
  buf_reserve(&b, n);
  size_t i = 0;
  while (i < n) {
    unsigned char c0 = (unsigned char)s[i];
    size_t need = c0 < 0x80 ? 0 : (c0 & 0xE0) == 0xC0 ? 1
                : (c0 & 0xF0) == 0xE0 ? 2 : (c0 & 0xF8) == 0xF0 ? 3 : 9;
    bool ok = need != 9 && i + need < n;
    uint32_t cp = need == 0 ? c0 : need == 1 ? (c0 & 0x1Fu)
                : need == 2 ? (c0 & 0x0Fu) : (c0 & 0x07u);
    for (size_t k = 1; ok && k <= need; k++) {
      unsigned char cx = (unsigned char)s[i + k];
      if ((cx & 0xC0) != 0x80)
        ok = false;
      else
        cp = cp << 6 | (cx & 0x3Fu);
    }
    if (ok && need > 0) {
      static const uint32_t min[4] = {0, 0x80, 0x800, 0x10000};
      if (cp < min[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        ok = false;
    }
    if (!ok) {
      buf_puts(&b, "\xEF\xBF\xBD");
      i++;
      continue;
    }
    buf_put(&b, s + i, need + 1);
    i += need + 1;
  }
  return val_str(a, buf_str(&b), b.len);
}

/* After "The WHO received an unexpected error while attempting to find
** the command." (WHO: "data source" or "ephemeral resource": upstream's
** two implementations differ only in that word). */
static const char lookup_detail[] =
    "\n\nThe command must be accessible according to the "
    "platform where Terraform is running.\n\nIf the expected command "
    "should be automatically found on the platform where Terraform is "
    "running, ensure that the command is in an expected directory. On "
    "Unix-based platforms, these directories are typically searched based "
    "on the '$PATH' environment variable. On Windows-based platforms, these "
    "directories are typically searched based on the '%PATH%' environment "
    "variable.\n\nIf the expected command is relative to the Terraform "
    "configuration, it is recommended that the command name includes the "
    "interpolated value of 'path.module' before the command name to ensure "
    "that it is compatible with varying module usage. For example: "
    "\"${path.module}/my-command\"\n\nThe command must also be executable "
    "according to the platform where Terraform is running. On Unix-based "
    "platforms, the file on the filesystem must have the executable bit "
    "set. On Windows-based platforms, no action is typically necessary."
    "\n\n";

/* Runs command (found at path) with the arguments (nulls dropped), stdin
** and working_directory of config v, and the environment envp (NULL: the
** inherited one): the data source's, the ephemeral resource's and the
** action's run.  *r is what was run (for messages), *res how it went. */
static void run_command(Prov *p, Arena *a, Value v, const char *command,
                        const char *path, char *const *envp, ProvRun *r,
                        ProvRunResult *res)
{
  Value args = prov_get(v, "arguments");
  uint32_t n = val_is_null(args) ? 0 : args.len;
  const char **argv = ARENA_NEW(a, const char *, n + 2);
  uint32_t k = 0;
  argv[k++] = command;
  for (uint32_t i = 0; i < n; i++)
    if (!val_is_null(args.u.elems[i]))
      argv[k++] = args.u.elems[i].u.s;
  argv[k] = NULL;
  Value in = prov_get(v, "stdin"), wd = prov_get(v, "working_directory");
  *r = (ProvRun){.path = path, .argv = argv,
                 .dir = val_is_null(wd) ? NULL : wd.u.s,
                 .in = val_is_null(in) ? NULL : in.u.s,
                 .inlen = val_is_null(in) ? 0 : in.len,
                 .envp = envp};
  prov_run(a, p, r, res);
}

/* data local_command: upstream's Read.  stdout/stderr stay null when the
** command printed nothing; exit_code is null when it never started. */
static void read_command(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                         ProvReadDataResp *resp, const char *who)
{
  Arena *a = c->arena;
  Value v = req->config;
  ValPath cpath = prov_path_attr(a, "command");
  const char *command = prov_get(v, "command").u.s;
  const char *err;
  const char *path = prov_look_path(a, command, &err);
  if (!path) {
    prov_diag_attr(c, DIAG_ERROR, cpath, "Command Lookup Failed",
                   "The %s received an unexpected error while attempting to "
                   "find the command.%sPlatform: linux\nCommand: %s\n"
                   "Error: %s", who, lookup_detail, command, err);
    return;
  }
  ProvRun r;
  ProvRunResult res;
  run_command(p, a, v, command, path, NULL, &r, &res);
  if (res.errlen)
    v = prov_set(a, v, "stderr", utf8_value(a, res.err, res.errlen));
  if (res.outlen)
    v = prov_set(a, v, "stdout", utf8_value(a, res.out, res.outlen));
  bool exited = res.started && !res.stopped && WIFEXITED(res.status);
  if (exited)
    v = prov_set(a, v, "exit_code", val_int(WEXITSTATUS(res.status)));
  else if (res.started && !res.stopped)
    v = prov_set(a, v, "exit_code", val_int(-1));  /* signalled, as Go */
  const char *cmdline = prov_cmd_string(a, &r);
  if (!res.error) {
    resp->state = v;
    return;
  }
  if (res.started && !res.stopped) {
    Value allow = prov_get(v, "allow_non_zero_exit_code");
    if (!val_is_null(allow) && allow.u.b) {
      resp->state = v;
      return;
    }
    prov_diag_attr(c, DIAG_ERROR, cpath, "Command Execution Failed",
                   "The %s executed the command but received a "
                   "non-zero exit code. If a non-zero exit code is expected "
                   "and can be handled in configuration, set "
                   "\"allow_non_zero_exit_code\" to true.\n\nCommand: %s\n"
                   "Command Error: %s\nState: %s",
                   who, cmdline, res.err, res.error);
    return;
  }
  prov_diag_attr(c, DIAG_ERROR, cpath, "Command Execution Failed",
                 "The %s received an unexpected error while "
                 "attempting to execute the command.\n\nCommand: %s\n"
                 "State: %s", who, cmdline, res.error);
}

static void read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                      ProvReadDataResp *resp)
{
  if (strcmp(req->type_name, "local_command") == 0) {
    read_command(p, c, req, resp, "data source");
    return;
  }
  Arena *a = c->arena;
  Value v = req->config;
  Value fn = prov_get(v, "filename");
  const char *data;
  size_t len;
  if (!known_str(fn) || !prov_read_file(a, fn.u.s, &data, &len)) {
    diag_error(c->diags, NULL, "Read local file data source error",
               "The file at given path cannot be read.\n\n+Original Error: "
               "open %s: %s",
               known_str(fn) ? fn.u.s : "", go_strerror(a, errno));
    return;
  }
  v = prov_set(a, v, "content", utf8_value(a, data, len));
  v = prov_set(a, v, "content_base64",
               val_cstr(a, prov_base64_encode(a, data, len, false, true)));
  resp->state = with_sums(a, v, data, len);
}

/* ---- provider::local::direxists ------------------------------------------ */

/* Go's syscall error texts for what stat(2) can say (musl words them
** differently). */
static const char *go_errno(int e)
{
  switch (e) {
  case ENOTDIR: return "not a directory";
  case EACCES: return "permission denied";
  case ENAMETOOLONG: return "file name too long";
  case ELOOP: return "too many levels of symbolic links";
  case EIO: return "input/output error";
  case EOVERFLOW: return "value too large for defined data type";
  default: return strerror(e);
  }
}

/* filepath.Clean of an absolute path: no ".", "..", repeated or trailing
** slashes. */
static const char *clean_abs(Arena *a, const char *path)
{
  size_t n = strlen(path);
  char *out = ARENA_NEW(a, char, n + 2);
  size_t o = 0;
  const char *p = path;
  while (*p) {
    while (*p == '/')
      p++;
    const char *q = p;
    while (*q && *q != '/')
      q++;
    size_t l = (size_t)(q - p);
    if (l == 0 || (l == 1 && p[0] == '.')) {
      /* nothing */
    } else if (l == 2 && p[0] == '.' && p[1] == '.') {
      while (o > 0 && out[o - 1] != '/')
        o--;
      if (o > 0)
        o--;
    } else {
      out[o++] = '/';
      memcpy(out + o, p, l);
      o += l;
    }
    p = q;
  }
  if (o == 0)
    out[o++] = '/';
  out[o] = 0;
  return out;
}

static void direxists(Prov *p, ProvCall *c, const Value *args, uint32_t n,
                      ProvCallFuncResp *resp)
{
  (void)p;
  if (n != 1 || !args[0].type || args[0].type->kind != TY_STRING ||
      val_is_null(args[0]) || !val_is_known(args[0])) {
    resp->error = "Invalid argument: direxists takes one known string";
    return;
  }
  const char *input = arena_strndup(c->arena, args[0].u.s, args[0].len);
  const char *path = input;
  if (path[0] != '/') {
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) {
      resp->error = arena_printf(c->arena, "Error expanding relative path "
                                 "to absolute path: %s", go_errno(errno));
      resp->error_arg = 0;
      return;
    }
    path = arena_printf(c->arena, "%s/%s", cwd, path);
  }
  path = clean_abs(c->arena, path);
  struct stat st;
  if (stat(path, &st) != 0) {
    if (errno == ENOENT) {
      resp->result = val_false;
      return;
    }
    resp->error = arena_printf(c->arena, "Error checking for directory: "
                               "stat %s: %s", path, go_errno(errno));
    resp->error_arg = 0;
    return;
  }
  if (S_ISDIR(st.st_mode)) {
    resp->result = val_true;
    return;
  }
  Buf b;
  buf_init(&b, c->arena);
  buf_puts(&b, "Invalid file mode detected: ");
  buf_go_quote(&b, input);
  buf_puts(&b, " was found, but is not a directory");
  resp->error = buf_str(&b);
  resp->error_arg = 0;
}

static void call_function(Prov *p, ProvCall *c, const ProvCallFuncReq *req,
                          ProvCallFuncResp *resp)
{
  if (strcmp(req->name, "direxists") == 0) {
    direxists(p, c, req->args, req->nargs, resp);
    return;
  }
  prov_default_call_function(p, c, req, resp);
}

/* Ephemeral local_command (local v2.7.0): the data source's schema and
** run. */
static void open_eph(Prov *p, ProvCall *c, const ProvOpenEphReq *req,
                     ProvOpenEphResp *resp)
{
  ProvReadDataReq rq = {req->type_name, req->config};
  ProvReadDataResp rr;
  memset(&rr, 0, sizeof rr);
  read_command(p, c, &rq, &rr, "ephemeral resource");
  resp->result = rr.state;
}

static const ProvEphOps eph_ops = {NULL, open_eph, NULL, NULL};

/* The process environment with `environment`'s variables added (Go's
** cmd.Env = append(os.Environ(), ...): a later duplicate wins), or NULL
** when there are none. */
static char *const *action_env(Arena *a, Value env)
{
  if (val_is_null(env) || env.len == 0)
    return NULL;
  size_t n = 0;
  while (environ[n])
    n++;
  char **out = ARENA_NEW(a, char *, n + env.len + 1);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const char *eq = strchr(environ[i], '=');
    size_t nl = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
    bool replaced = false;
    for (uint32_t j = 0; j < env.len && !replaced; j++)
      replaced = env.u.entries[j].keylen == nl &&
                 memcmp(env.u.entries[j].key, environ[i], nl) == 0;
    if (!replaced)
      out[k++] = environ[i];
  }
  for (uint32_t j = 0; j < env.len; j++) {
    Value v = env.u.entries[j].val;
    out[k++] = arena_printf(a, "%s=%s", env.u.entries[j].key,
                            val_is_null(v) ? "" : v.u.s);
  }
  out[k] = NULL;
  return out;
}

/* Upstream's localCommandAction: ModifyPlan looks the command up; Invoke
** runs it and reports its stdout as one progress message. */
static void invoke_action(Prov *p, ProvCall *c, const ProvInvokeReq *req)
{
  Arena *a = c->arena;
  Value v = req->config;
  ValPath cpath = prov_path_attr(a, "command");
  Value cmd = prov_get(v, "command");
  if (!val_is_known(cmd) || val_is_null(cmd))
    return;
  const char *command = cmd.u.s;
  const char *err;
  const char *path = prov_look_path(a, command, &err);
  if (!path) {
    prov_diag_attr(c, DIAG_ERROR, cpath, "Command Lookup Failed",
                   "The action received an unexpected error while "
                   "attempting to find the command.%sPlatform: linux\n"
                   "Command: %s\nError: %s", lookup_detail, command, err);
    return;
  }
  if (req->plan)
    return;
  ProvRun r;
  ProvRunResult res;
  run_command(p, a, v, command, path,
              action_env(a, prov_get(v, "environment")), &r, &res);
  if (!res.error) {
    if (req->progress)
      req->progress(req->progress_ctx,
                    arena_printf(a, "\n\n%s\n", res.out));
    return;
  }
  /* upstream's texts, "Commmand" as spelled there */
  if (res.errlen)
    prov_diag_attr(c, DIAG_ERROR, cpath, "Command Execution Failed",
                   "The action received an unexpected error while "
                   "attempting to execute the command.\n\nCommmand: %s\n"
                   "Command Error: %s\nState: %s",
                   prov_cmd_string(a, &r), res.err, res.error);
  else
    prov_diag_attr(c, DIAG_ERROR, cpath, "Command Execution Failed",
                   "The action received an unexpected error while "
                   "attempting to execute the command.\n\nCommmand: %s\n"
                   "Error: %s", path, res.error);
}

static const ProvOps ops = {
  .eph = &eph_ops,
  .get_schema = get_schema,
  .validate_provider_config = prov_default_validate,
  .validate_resource_config = validate_resource,
  .validate_data_resource_config = prov_default_validate_type,
  .upgrade_resource_state = upgrade,
  .configure = prov_default_configure,
  .read_resource = read_resource,
  .plan_resource_change = plan,
  .apply_resource_change = apply,
  .import_resource_state = prov_default_import,
  .read_data_source = read_data,
  .stop = prov_default_stop,
  .close = prov_default_close,
  .call_function = call_function,
};

const ProvBuiltin prov_local_builtin = {
  .addr = "registry.terraform.io/hashicorp/local",
  .type = "local",
  .ops = &ops,
  .open = open_local,
  .invoke_action = invoke_action,
};
