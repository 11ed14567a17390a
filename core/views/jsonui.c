/*
** jsonui: the machine-readable UI stream (see jsonui.h).  Message texts
** and payload layouts follow Terraform's views/json package and
** JSONView; the envelope follows hclog's JSON logger.
*/
#include "jsonui.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/json.h"

/* One message being composed. */
typedef struct Msg {
  JUi *u;
  Arena a;               /* scratch for this message */
  Buf line;              /* the line, copied to u->out at the end */
  JsonW w;
} Msg;

/* hclog's "2006-01-02T15:04:05.000000Z07:00" of the current time. */
static void timestamp(Buf *b)
{
  struct timespec ts;
  struct tm tm;
  clock_gettime(CLOCK_REALTIME, &ts);
  time_t t = ts.tv_sec;
  localtime_r(&t, &tm);
  char s[64];
  strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%S", &tm);
  buf_printf(b, "%s.%06ld", s, (long)(ts.tv_nsec / 1000));
  long off = tm.tm_gmtoff;
  if (off == 0) {
    buf_putc(b, 'Z');
    return;
  }
  char sign = off < 0 ? '-' : '+';
  if (off < 0)
    off = -off;
  buf_printf(b, "%c%02ld:%02ld", sign, off / 3600, (off / 60) % 60);
}

/* Starts a message: the four "@" keys. */
static void msg_begin(Msg *m, JUi *u, const char *level, const char *text)
{
  m->u = u;
  arena_init(&m->a, 4096);
  buf_init(&m->line, &m->a);
  json_w_init(&m->w, &m->line, JSON_W_UNKNOWN_NULL);
  json_w_begin_object(&m->w);
  json_w_keyz(&m->w, "@level");
  json_w_stringz(&m->w, level);
  json_w_keyz(&m->w, "@message");
  json_w_stringz(&m->w, text ? text : "");
  json_w_keyz(&m->w, "@module");
  json_w_stringz(&m->w, "terraform.ui");
  json_w_keyz(&m->w, "@timestamp");
  if (u->now) {
    json_w_stringz(&m->w, u->now(u->now_ctx));
  } else {
    Buf t;
    buf_init(&t, &m->a);
    timestamp(&t);
    json_w_stringz(&m->w, buf_str(&t));
  }
}

/* Ends a message with its "type" (the last key in sorted order, except
** for "ui" which the version message writes itself). */
static void msg_end(Msg *m, const char *type, const char *ui)
{
  json_w_keyz(&m->w, "type");
  json_w_stringz(&m->w, type);
  if (ui) {
    json_w_keyz(&m->w, "ui");
    json_w_stringz(&m->w, ui);
  }
  json_w_end_object(&m->w);
  buf_putc(&m->line, '\n');
  buf_put(m->u->out, m->line.p, m->line.len);
  arena_release(&m->a);
}

/* ---- Resource addresses ---------------------------------------------- */

typedef struct RAddr {
  const char *addr;
  const char *module;
  StMode mode;
  const char *type;
  const char *name;
  StKey key;
} RAddr;

/* RAddr.mode of an ephemeral resource (no StMode: never in a state). */
enum { RADDR_EPH = 2 };

static RAddr raddr_change(const PlChange *c)
{
  RAddr r = {c->addr ? c->addr : "", c->module ? c->module : "", c->mode,
             c->type ? c->type : "", c->name ? c->name : "", c->key};
  return r;
}

/* views/json ResourceAddr: addr, module, resource, implied_provider,
** resource_type, resource_name, resource_key. */
static void w_raddr(Msg *m, const RAddr *r)
{
  JsonW *w = &m->w;
  json_w_begin_object(w);
  json_w_keyz(w, "addr");
  json_w_stringz(w, r->addr);
  json_w_keyz(w, "module");
  json_w_stringz(w, r->module);
  Buf res;
  buf_init(&res, &m->a);
  buf_printf(&res, "%s%s.%s",
             r->mode == ST_DATA           ? "data."
             : (int)r->mode == RADDR_EPH ? "ephemeral."
                                          : "",
             r->type, r->name);
  st_format_key(&res, r->key);
  json_w_keyz(w, "resource");
  json_w_stringz(w, buf_str(&res));
  const char *us = strchr(r->type, '_');
  size_t plen = us ? (size_t)(us - r->type) : strlen(r->type);
  json_w_keyz(w, "implied_provider");
  json_w_string(w, r->type, plen);
  json_w_keyz(w, "resource_type");
  json_w_stringz(w, r->type);
  json_w_keyz(w, "resource_name");
  json_w_stringz(w, r->name);
  json_w_keyz(w, "resource_key");
  if (r->key.kind == ST_INTKEY)
    json_w_int(w, r->key.i);
  else if (r->key.kind == ST_STRKEY)
    json_w_string(w, r->key.s, r->key.slen);
  else
    json_w_null(w);
  json_w_end_object(w);
}

/* ---- Simple messages --------------------------------------------------- */

void jui_version(JUi *u)
{
  Msg m;
  msg_begin(&m, u, "info", "cairn " CAIRN_VERSION);
  json_w_keyz(&m.w, "terraform");
  json_w_stringz(&m.w, CAIRN_VERSION);
  msg_end(&m, "version", JUI_VERSION);
}

void jui_log(JUi *u, const char *level, const char *msg)
{
  Msg m;
  msg_begin(&m, u, level && level[0] ? level : "info", msg);
  msg_end(&m, "log", NULL);
}

void jui_diagnostic(JUi *u, const Diag *d, const SrcFiles *files)
{
  Msg m;
  bool warn = d->severity == DIAG_WARNING;
  Arena a;
  arena_init(&a, 4096);
  const char *text = arena_printf(&a, "%s: %s", warn ? "Warning" : "Error",
                                  d->summary ? d->summary : "");
  msg_begin(&m, u, warn ? "warn" : "error", text);
  Buf dj;
  buf_init(&dj, &m.a);
  diag_render_json(&dj, d, files);
  json_w_keyz(&m.w, "diagnostic");
  json_w_raw(&m.w, buf_str(&dj), dj.len);
  msg_end(&m, "diagnostic", NULL);
  arena_release(&a);
}

void jui_diagnostics(JUi *u, const Diags *ds, const SrcFiles *files)
{
  for (const Diag *d = ds->head; d; d = d->next)
    jui_diagnostic(u, d, files);
}

/* ---- Changes ----------------------------------------------------------- */

static const char *change_action(PlAction a)
{
  switch (a) {
  case PL_NOOP: return "noop";
  case PL_CREATE: return "create";
  case PL_READ: return "read";
  case PL_UPDATE: return "update";
  case PL_DELETE_THEN_CREATE:
  case PL_CREATE_THEN_DELETE: return "replace";
  case PL_DELETE: return "delete";
  case PL_FORGET: return "remove";
  }
  return "noop";
}

/* views/json ChangeReason (differs from the JSON plan's action_reason for
** the replace reasons). */
static const char *change_reason(PlReason r)
{
  switch (r) {
  case PL_REASON_NONE: return "";
  case PL_REASON_REPLACE_BECAUSE_TAINTED: return "tainted";
  case PL_REASON_REPLACE_BY_REQUEST: return "requested";
  case PL_REASON_REPLACE_CANNOT_UPDATE: return "cannot_update";
  case PL_REASON_REPLACE_BY_TRIGGERS: return "replace_triggered_by";
  case PL_REASON_DELETE_NO_RESOURCE_CONFIG:
    return "delete_because_no_resource_config";
  case PL_REASON_DELETE_WRONG_REPETITION:
    return "delete_because_wrong_repetition";
  case PL_REASON_DELETE_COUNT_INDEX: return "delete_because_count_index";
  case PL_REASON_DELETE_EACH_KEY: return "delete_because_each_key";
  case PL_REASON_DELETE_NO_MODULE: return "delete_because_no_module";
  case PL_REASON_DELETE_NO_MOVE_TARGET:
    return "delete_because_no_move_target";
  case PL_REASON_READ_CONFIG_UNKNOWN: return "read_because_config_unknown";
  case PL_REASON_READ_DEPENDENCY_PENDING:
    return "read_because_dependency_pending";
  case PL_REASON_READ_CHECK_NESTED: return "read_because_check_nested";
  }
  return "unknown";
}

static bool moved(const PlChange *c)
{
  return c->prev_addr && c->addr && strcmp(c->prev_addr, c->addr) != 0;
}

static const char *ui_action(const PlChange *c)
{
  const char *a = change_action(c->action);
  if (c->action == PL_NOOP && moved(c))
    return "move";
  if (c->action == PL_NOOP && c->importing)
    return "import";
  return a;
}

/* NewResourceInstanceChange: resource, previous_resource, action, reason,
** importing. */
static void w_change(Msg *m, const PlChange *c)
{
  JsonW *w = &m->w;
  RAddr r = raddr_change(c);
  json_w_keyz(w, "change");
  json_w_begin_object(w);
  json_w_keyz(w, "resource");
  w_raddr(m, &r);
  if (moved(c)) {
    Diags d;
    diag_init(&d, &m->a);
    StAddr pa;
    if (st_parse_addr(&m->a, c->prev_addr, &pa, &d) &&
        pa.kind != ST_ADDR_MODULE) {
      RAddr p = {c->prev_addr, pa.module ? pa.module : "", pa.mode,
                 pa.type ? pa.type : "", pa.name ? pa.name : "",
                 pa.kind == ST_ADDR_INSTANCE ? pa.key : st_nokey()};
      json_w_keyz(w, "previous_resource");
      w_raddr(m, &p);
    }
  }
  json_w_keyz(w, "action");
  json_w_stringz(w, ui_action(c));
  const char *reason = change_reason(c->reason);
  if (reason[0]) {
    json_w_keyz(w, "reason");
    json_w_stringz(w, reason);
  }
  if (c->importing) {
    json_w_keyz(w, "importing");
    json_w_begin_object(w);
    if (c->import_id && c->import_id[0]) {
      json_w_keyz(w, "id");
      json_w_stringz(w, c->import_id);
    }
    json_w_end_object(w);
  }
  json_w_end_object(w);
}

void jui_planned_change(JUi *u, const PlChange *c)
{
  Msg m;
  Arena a;
  arena_init(&a, 4096);
  const char *text = arena_printf(&a, "%s: Plan to %s",
                                  c->addr ? c->addr : "", ui_action(c));
  msg_begin(&m, u, "info", text);
  w_change(&m, c);
  msg_end(&m, "planned_change", NULL);
  arena_release(&a);
}

void jui_planned_changes(JUi *u, const Plan *p)
{
  for (uint32_t i = 0; i < p->nchanges; i++) {
    const PlChange *c = &p->changes[i];
    if (c->mode == ST_DATA && c->action == PL_DELETE)
      continue;
    if (c->action == PL_NOOP && !moved(c) && !c->importing)
      continue;
    jui_planned_change(u, c);
  }
}

void jui_resource_drift(JUi *u, const PlChange *c)
{
  Msg m;
  Arena a;
  arena_init(&a, 4096);
  const char *text = arena_printf(&a, "%s: Drift detected (%s)",
                                  c->addr ? c->addr : "", ui_action(c));
  msg_begin(&m, u, "info", text);
  w_change(&m, c);
  msg_end(&m, "resource_drift", NULL);
  arena_release(&a);
}

void jui_change_summary(JUi *u, PlCounts n, const char *op)
{
  Arena a;
  arena_init(&a, 4096);
  Buf t;
  buf_init(&t, &a);
  if (!op)
    op = "plan";
  if (strcmp(op, "apply") == 0) {
    buf_puts(&t, "Apply complete! Resources: ");
    if (n.import > 0)
      buf_printf(&t, "%u imported, ", n.import);
    buf_printf(&t, "%u added, %u changed, %u destroyed.", n.add, n.change,
               n.destroy);
  } else if (strcmp(op, "destroy") == 0) {
    buf_printf(&t, "Destroy complete! Resources: %u destroyed.", n.destroy);
  } else if (strcmp(op, "plan") == 0) {
    buf_puts(&t, "Plan: ");
    if (n.import > 0)
      buf_printf(&t, "%u to import, ", n.import);
    buf_printf(&t, "%u to add, %u to change, %u to destroy.", n.add,
               n.change, n.destroy);
  } else {
    buf_printf(&t, "%s: %u add, %u change, %u destroy", op, n.add, n.change,
               n.destroy);
  }
  Msg m;
  msg_begin(&m, u, "info", buf_str(&t));
  JsonW *w = &m.w;
  json_w_keyz(w, "changes");
  json_w_begin_object(w);
  json_w_keyz(w, "add");
  json_w_uint(w, n.add);
  json_w_keyz(w, "change");
  json_w_uint(w, n.change);
  json_w_keyz(w, "import");
  json_w_uint(w, n.import);
  json_w_keyz(w, "remove");
  json_w_uint(w, n.destroy);
  json_w_keyz(w, "operation");
  json_w_stringz(w, op);
  json_w_end_object(w);
  msg_end(&m, "change_summary", NULL);
  arena_release(&a);
}

/* ---- Hooks ------------------------------------------------------------- */

void jui_duration(Buf *out, int s)
{
  if (s < 0)
    s = 0;
  if (s >= 3600)
    buf_printf(out, "%dh%dm%ds", s / 3600, (s / 60) % 60, s % 60);
  else if (s >= 60)
    buf_printf(out, "%dm%ds", s / 60, s % 60);
  else
    buf_printf(out, "%ds", s);
}

static bool has_id(const char *k, const char *v)
{
  return k && k[0] && v && v[0];
}

static void id_suffix(Buf *b, const char *k, const char *v)
{
  if (has_id(k, v))
    buf_printf(b, " [%s=%s]", k, v);
}

static void w_ids(JsonW *w, const char *k, const char *v)
{
  if (k && k[0]) {
    json_w_keyz(w, "id_key");
    json_w_stringz(w, k);
  }
  if (v && v[0]) {
    json_w_keyz(w, "id_value");
    json_w_stringz(w, v);
  }
}

static const char *start_verb(PlAction a)
{
  switch (a) {
  case PL_CREATE: return "Creating";
  case PL_UPDATE: return "Modifying";
  case PL_DELETE: return "Destroying";
  case PL_READ: return "Refreshing";
  case PL_DELETE_THEN_CREATE:
  case PL_CREATE_THEN_DELETE: return "Replacing";
  case PL_FORGET: return "Removing";
  case PL_NOOP: return "Applying";
  }
  return "Applying";
}

static const char *progress_verb(PlAction a)
{
  switch (a) {
  case PL_CREATE: return "creating";
  case PL_UPDATE: return "modifying";
  case PL_DELETE: return "destroying";
  case PL_READ: return "refreshing";
  case PL_DELETE_THEN_CREATE:
  case PL_CREATE_THEN_DELETE: return "replacing";
  case PL_FORGET:
  case PL_NOOP: return "applying";
  }
  return "applying";
}

static const char *noun(PlAction a)
{
  switch (a) {
  case PL_CREATE: return "Creation";
  case PL_UPDATE: return "Modifications";
  case PL_DELETE: return "Destruction";
  case PL_READ: return "Refresh";
  case PL_DELETE_THEN_CREATE:
  case PL_CREATE_THEN_DELETE: return "Replacement";
  case PL_FORGET: return "Removal";
  case PL_NOOP: return "Apply";
  }
  return "Apply";
}

/* Starts a "hook" payload with its resource (and action). */
static void hook_begin(Msg *m, const RAddr *r, const PlChange *c)
{
  json_w_keyz(&m->w, "hook");
  json_w_begin_object(&m->w);
  json_w_keyz(&m->w, "resource");
  w_raddr(m, r);
  if (c) {
    json_w_keyz(&m->w, "action");
    json_w_stringz(&m->w, change_action(c->action));
  }
}

static void hook_end(Msg *m, const char *type)
{
  json_w_end_object(&m->w);
  msg_end(m, type, NULL);
}

void jui_apply_start(JUi *u, const PlChange *c, const char *id_key,
                     const char *id_value)
{
  Arena a;
  arena_init(&a, 4096);
  Buf t;
  buf_init(&t, &a);
  buf_printf(&t, "%s: %s...", c->addr ? c->addr : "", start_verb(c->action));
  id_suffix(&t, id_key, id_value);
  Msg m;
  msg_begin(&m, u, "info", buf_str(&t));
  RAddr r = raddr_change(c);
  hook_begin(&m, &r, c);
  w_ids(&m.w, id_key, id_value);
  hook_end(&m, "apply_start");
  arena_release(&a);
}

void jui_ephemeral_op(JUi *u, const char *addr, const char *module,
                      const char *type, const char *name, StKey key,
                      bool close, bool done, int elapsed)
{
  Arena a;
  arena_init(&a, 4096);
  Buf t;
  buf_init(&t, &a);
  buf_printf(&t, "%s: %s", addr, close ? "Closing" : "Opening");
  if (done) {
    buf_puts(&t, " complete after ");
    jui_duration(&t, elapsed);
  } else {
    buf_puts(&t, "...");
  }
  Msg m;
  msg_begin(&m, u, "info", buf_str(&t));
  RAddr r = {addr, module, (StMode)RADDR_EPH, type, name, key};
  hook_begin(&m, &r, NULL);
  json_w_keyz(&m.w, "action");
  json_w_stringz(&m.w, close ? "close" : "open");
  if (done) {
    json_w_keyz(&m.w, "elapsed_seconds");
    json_w_int(&m.w, elapsed < 0 ? 0 : elapsed);
  }
  hook_end(&m, done ? "ephemeral_op_complete" : "ephemeral_op_start");
  arena_release(&a);
}

void jui_apply_progress(JUi *u, const PlChange *c, int elapsed)
{
  Arena a;
  arena_init(&a, 4096);
  Buf t;
  buf_init(&t, &a);
  buf_printf(&t, "%s: Still %s... [", c->addr ? c->addr : "",
             progress_verb(c->action));
  jui_duration(&t, elapsed);
  buf_puts(&t, " elapsed]");
  Msg m;
  msg_begin(&m, u, "info", buf_str(&t));
  RAddr r = raddr_change(c);
  hook_begin(&m, &r, c);
  json_w_keyz(&m.w, "elapsed_seconds");
  json_w_int(&m.w, elapsed < 0 ? 0 : elapsed);
  hook_end(&m, "apply_progress");
  arena_release(&a);
}

void jui_apply_complete(JUi *u, const PlChange *c, const char *id_key,
                        const char *id_value, int elapsed)
{
  Arena a;
  arena_init(&a, 4096);
  Buf t;
  buf_init(&t, &a);
  buf_printf(&t, "%s: %s complete after ", c->addr ? c->addr : "",
             noun(c->action));
  jui_duration(&t, elapsed);
  id_suffix(&t, id_key, id_value);
  Msg m;
  msg_begin(&m, u, "info", buf_str(&t));
  RAddr r = raddr_change(c);
  hook_begin(&m, &r, c);
  w_ids(&m.w, id_key, id_value);
  json_w_keyz(&m.w, "elapsed_seconds");
  json_w_int(&m.w, elapsed < 0 ? 0 : elapsed);
  hook_end(&m, "apply_complete");
  arena_release(&a);
}

void jui_apply_errored(JUi *u, const PlChange *c, int elapsed)
{
  Arena a;
  arena_init(&a, 4096);
  Buf t;
  buf_init(&t, &a);
  buf_printf(&t, "%s: %s errored after ", c->addr ? c->addr : "",
             noun(c->action));
  jui_duration(&t, elapsed);
  Msg m;
  msg_begin(&m, u, "info", buf_str(&t));
  RAddr r = raddr_change(c);
  hook_begin(&m, &r, c);
  json_w_keyz(&m.w, "elapsed_seconds");
  json_w_int(&m.w, elapsed < 0 ? 0 : elapsed);
  hook_end(&m, "apply_errored");
  arena_release(&a);
}

static void refresh_hook(JUi *u, const StResource *res, StKey key,
                         const char *id_key, const char *id_value,
                         bool done)
{
  Arena a;
  arena_init(&a, 4096);
  const char *addr = st_instance_addr(&a, res, key);
  Buf t;
  buf_init(&t, &a);
  buf_printf(&t, "%s: %s", addr,
             done ? "Refresh complete" : "Refreshing state...");
  id_suffix(&t, id_key, id_value);
  Msg m;
  msg_begin(&m, u, "info", buf_str(&t));
  RAddr r = {addr, res->module ? res->module : "", res->mode,
             res->type ? res->type : "", res->name ? res->name : "", key};
  hook_begin(&m, &r, NULL);
  w_ids(&m.w, id_key, id_value);
  hook_end(&m, done ? "refresh_complete" : "refresh_start");
  arena_release(&a);
}

void jui_refresh_start(JUi *u, const StResource *r, StKey key,
                       const char *id_key, const char *id_value)
{
  refresh_hook(u, r, key, id_key, id_value, false);
}

void jui_refresh_complete(JUi *u, const StResource *r, StKey key,
                          const char *id_key, const char *id_value)
{
  refresh_hook(u, r, key, id_key, id_value, true);
}

static void provision_hook(JUi *u, const PlChange *c, const char *prov,
                           const char *output, const char *type,
                           const char *text)
{
  Msg m;
  msg_begin(&m, u, "info", text);
  RAddr r = raddr_change(c);
  hook_begin(&m, &r, NULL);
  json_w_keyz(&m.w, "provisioner");
  json_w_stringz(&m.w, prov ? prov : "");
  if (output) {
    json_w_keyz(&m.w, "output");
    json_w_stringz(&m.w, output);
  }
  hook_end(&m, type);
}

void jui_provision_start(JUi *u, const PlChange *c, const char *prov)
{
  Arena a;
  arena_init(&a, 4096);
  provision_hook(u, c, prov, NULL, "provision_start",
                 arena_printf(&a, "%s: Provisioning with '%s'...",
                              c->addr ? c->addr : "", prov ? prov : ""));
  arena_release(&a);
}

void jui_provision_progress(JUi *u, const PlChange *c, const char *prov,
                            const char *output)
{
  Arena a;
  arena_init(&a, 4096);
  provision_hook(u, c, prov, output ? output : "", "provision_progress",
                 arena_printf(&a, "%s: (%s): %s", c->addr ? c->addr : "",
                              prov ? prov : "", output ? output : ""));
  arena_release(&a);
}

void jui_provision_complete(JUi *u, const PlChange *c, const char *prov)
{
  Arena a;
  arena_init(&a, 4096);
  provision_hook(u, c, prov, NULL, "provision_complete",
                 arena_printf(&a, "%s: (%s) Provisioning complete",
                              c->addr ? c->addr : "", prov ? prov : ""));
  arena_release(&a);
}

void jui_provision_errored(JUi *u, const PlChange *c, const char *prov)
{
  Arena a;
  arena_init(&a, 4096);
  provision_hook(u, c, prov, NULL, "provision_errored",
                 arena_printf(&a, "%s: (%s) Provisioning errored",
                              c->addr ? c->addr : "", prov ? prov : ""));
  arena_release(&a);
}

/* ---- Outputs ----------------------------------------------------------- */

void jui_outputs(JUi *u, const PlOutput *o, uint32_t n)
{
  Arena a;
  arena_init(&a, 4096);
  /* Go map: distinct names, sorted (the plan keeps outputs sorted). */
  uint32_t distinct = 0;
  for (uint32_t i = 0; i < n; i++)
    if (i == 0 || strcmp(o[i].name, o[i - 1].name) != 0)
      distinct++;
  Msg m;
  msg_begin(&m, u, "info", arena_printf(&a, "Outputs: %u", distinct));
  JsonW *w = &m.w;
  json_w_keyz(w, "outputs");
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    if (i > 0 && strcmp(o[i].name, o[i - 1].name) == 0)
      continue;
    json_w_keyz(w, o[i].name);
    json_w_begin_object(w);
    json_w_keyz(w, "sensitive");
    json_w_bool(w, o[i].sensitive);
    json_w_keyz(w, "action");
    json_w_stringz(w, change_action(o[i].action));
    json_w_end_object(w);
  }
  json_w_end_object(w);
  msg_end(&m, "outputs", NULL);
  arena_release(&a);
}

void jui_outputs_state(JUi *u, const State *s)
{
  Arena a;
  arena_init(&a, 4096);
  uint32_t n = s ? s->noutputs : 0;
  Msg m;
  msg_begin(&m, u, "info", arena_printf(&a, "Outputs: %u", n));
  JsonW *w = &m.w;
  Diags d;
  diag_init(&d, &m.a);
  json_w_keyz(w, "outputs");
  json_w_begin_object(w);
  for (uint32_t i = 0; i < n; i++) {
    const StOutput *o = &s->outputs[i];
    const Type *t = o->type ? o->type
                            : (o->value.type ? o->value.type : &ty_dynamic);
    json_w_keyz(w, o->name);
    json_w_begin_object(w);
    json_w_keyz(w, "sensitive");
    json_w_bool(w, o->sensitive);
    json_w_keyz(w, "type");
    json_w_type(w, t);
    if (!o->sensitive) {
      json_w_keyz(w, "value");
      /* Buffer the value so a failure cannot leave a broken line. */
      Buf vb;
      buf_init(&vb, &m.a);
      if (json_write_value(&vb, val_unmark_deep(&m.a, o->value), NULL,
                           JSON_W_UNKNOWN_NULL, &d))
        json_w_raw(w, buf_str(&vb), vb.len);
      else
        json_w_null(w);
    }
    json_w_end_object(w);
  }
  json_w_end_object(w);
  msg_end(&m, "outputs", NULL);
  arena_release(&a);
}

/* ---- Actions ------------------------------------------------------------ */

/* stringer's names of configs.ActionTriggerEvent. */
static const char *event_name(unsigned ev)
{
  return ev == 1 ? "BeforeCreate" : ev == 2 ? "AfterCreate"
       : ev == 4 ? "BeforeUpdate" : ev == 8 ? "AfterUpdate" : "Unknown";
}

void jui_action(JUi *u, const char *type, const PlInvoke *iv,
                const PlChange *trig, const char *text)
{
  Arena a;
  arena_init(&a, 4096);
  bool prog = strcmp(type, "action_progress") == 0;
  bool err = strcmp(type, "action_errored") == 0;
  const char *what = prog ? NULL : err ? "Action errored: "
                     : strcmp(type, "action_start") == 0 ? "Action started: "
                                                         : "Action complete: ";
  Buf t;
  buf_init(&t, &a);
  if (trig)
    buf_printf(&t, strcmp(type, "action_start") == 0 ? "%s.trigger[%u]: "
                                                     : "%s (%u): ",
               trig->addr, iv->trigger_index);
  if (what)
    buf_puts(&t, what);
  buf_puts(&t, iv->addr);
  if (prog || err)
    buf_printf(&t, " - %s", text ? text : "");
  Msg m;
  msg_begin(&m, u, err ? "error" : "info", buf_str(&t));
  JsonW *w = &m.w;
  json_w_keyz(w, "hook");
  json_w_begin_object(w);
  /* views/json ActionAddr */
  json_w_keyz(w, "action");
  json_w_begin_object(w);
  json_w_keyz(w, "addr");
  json_w_stringz(w, iv->addr);
  json_w_keyz(w, "module");
  json_w_stringz(w, iv->module ? iv->module : "");
  Buf act;
  buf_init(&act, &a);
  buf_printf(&act, "action.%s.%s", iv->type, iv->name);
  st_format_key(&act, iv->key);
  json_w_keyz(w, "action");
  json_w_stringz(w, buf_str(&act));
  const char *us = strchr(iv->type, '_');
  json_w_keyz(w, "implied_provider");
  json_w_string(w, iv->type,
                us ? (size_t)(us - iv->type) : strlen(iv->type));
  json_w_keyz(w, "action_type");
  json_w_stringz(w, iv->type);
  json_w_keyz(w, "action_name");
  json_w_stringz(w, iv->name);
  json_w_keyz(w, "action_key");
  if (iv->key.kind == ST_INTKEY)
    json_w_int(w, iv->key.i);
  else if (iv->key.kind == ST_STRKEY)
    json_w_string(w, iv->key.s, iv->key.slen);
  else
    json_w_null(w);
  json_w_end_object(w);
  if (prog || err) {
    json_w_keyz(w, prog ? "message" : "error");
    json_w_stringz(w, text ? text : "");
  }
  if (trig) {
    json_w_keyz(w, "lifecycle");
    json_w_begin_object(w);
    json_w_keyz(w, "resource");
    RAddr r = raddr_change(trig);
    w_raddr(&m, &r);
    json_w_keyz(w, "trigger_index");
    json_w_int(w, iv->trigger_index);
    json_w_keyz(w, "actions_index");
    json_w_int(w, iv->action_index);
    json_w_keyz(w, "trigger_event");
    json_w_stringz(w, event_name(iv->event));
    json_w_end_object(w);
  } else {
    json_w_keyz(w, "invoke");
    json_w_begin_object(w);
    json_w_end_object(w);
  }
  hook_end(&m, type);
  arena_release(&a);
}
