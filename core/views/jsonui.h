/*
** jsonui: Terraform's machine-readable UI stream (`plan -json`,
** `apply -json`, `refresh -json`, `validate`-style diagnostics), UI
** version 1.2.  See docs/json-output.md.
**
** Every call appends exactly one line to u->out: a compact JSON object
** whose keys are sorted (hclog's JSON logger writes a Go map):
**   "@level" ("info", "warn", "error"), "@message" (the human text, e.g.
**   "null_resource.a: Creation complete after 0s [id=123]"), "@module"
**   ("terraform.ui", kept for consumers that filter on it), "@timestamp"
**   (RFC 3339 with microseconds and the local offset, e.g.
**   2024-05-01T10:11:12.123456+02:00), the payload ("change", "changes",
**   "diagnostic", "hook", "outputs", "terraform"/"ui"), and "type".
** Payload objects keep Terraform's struct field order.
**
** Contracts:
** - Strings use Go's encoding/json escaping (HTML characters escaped).
** - Nothing here fails or prints; the caller flushes u->out.  A JUi is not
**   thread-safe: callers serialise calls (the UI lock of the command).
** - Memory: each call works in a private scratch arena released before it
**   returns; only u->out grows.
** - now: a test hook returning the timestamp text; NULL uses the clock.
*/
#ifndef CAIRN_JSONUI_H
#define CAIRN_JSONUI_H

#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "engine/plan.h"
#include "state/state.h"

#define JUI_VERSION "1.2"

typedef struct JUi {
  Buf *out;
  const char *(*now)(void *ctx);  /* NULL: the real clock */
  void *now_ctx;
} JUi;

/* {"terraform":"0.1.0","ui":"1.2"}, @message "cairn 0.1.0". */
void jui_version(JUi *u);

/* {"type":"log"} with the given level ("info", "warn", "error"...). */
void jui_log(JUi *u, const char *level, const char *msg);

/* A diagnostic (views/json/diagnostic.go layout, from diag_render_json):
** @level "error" or "warn", @message "Error: <summary>" or
** "Warning: <summary>".  files may be NULL (no snippet). */
void jui_diagnostic(JUi *u, const Diag *d, const SrcFiles *files);
/* Every diagnostic of ds, in order. */
void jui_diagnostics(JUi *u, const Diags *ds, const SrcFiles *files);

/* "planned_change": "<addr>: Plan to <action>" with change {resource,
** previous_resource?, action, reason?, importing?}.  Actions: noop,
** create, read, update, replace, delete, remove (forget); a no-op that
** moved is "move", a no-op import "import".  The caller skips no-ops
** that neither move nor import, and data source deletes (as Terraform
** does); jui_planned_changes does that for a whole plan. */
void jui_planned_change(JUi *u, const PlChange *c);
void jui_planned_changes(JUi *u, const Plan *p);
/* "resource_drift": "<addr>: Drift detected (<action>)". */
void jui_resource_drift(JUi *u, const PlChange *c);

/* "change_summary" {add, change, import, remove, operation}; operation is
** "plan", "apply" or "destroy" and picks the message ("Plan: 1 to add, 0
** to change, 0 to destroy.", "Apply complete! Resources: 1 added, 0
** changed, 0 destroyed.", "Destroy complete! Resources: 1 destroyed."). */
void jui_change_summary(JUi *u, PlCounts counts, const char *operation);

/* Refresh hooks for a state instance: "<addr>: Refreshing state...
** [id=x]" and "<addr>: Refresh complete [id=x]".  id_key/id_value may be
** NULL or "" (no id shown). */
void jui_refresh_start(JUi *u, const StResource *r, StKey key,
                       const char *id_key, const char *id_value);
void jui_refresh_complete(JUi *u, const StResource *r, StKey key,
                          const char *id_key, const char *id_value);

/* Apply hooks.  The action is c->action; a replacement is reported as
** its two halves, so the engine passes a copy of the change with action
** PL_DELETE or PL_CREATE for each (Terraform's hooks see the same).
** Messages: "<addr>: Creating...", "<addr>: Still creating... [10s
** elapsed]", "<addr>: Creation complete after 1s [id=abc]",
** "<addr>: Creation errored after 1s". */
void jui_apply_start(JUi *u, const PlChange *c, const char *id_key,
                     const char *id_value);
void jui_apply_progress(JUi *u, const PlChange *c, int elapsed_seconds);
void jui_apply_complete(JUi *u, const PlChange *c, const char *id_key,
                        const char *id_value, int elapsed_seconds);
void jui_apply_errored(JUi *u, const PlChange *c, int elapsed_seconds);

/* Ephemeral resource hooks (Terraform's ephemeral_op_start and
** ephemeral_op_complete, action "open" or "close"): "<addr>: Opening...",
** "<addr>: Opening complete after 0s", "<addr>: Closing...",
** "<addr>: Closing complete after 0s". */
void jui_ephemeral_op(JUi *u, const char *addr, const char *module,
                      const char *type, const char *name, StKey key,
                      bool close, bool done, int elapsed_seconds);

/* Provisioner hooks: "<addr>: Provisioning with 'local-exec'...",
** "<addr>: (local-exec): <line>", "<addr>: (local-exec) Provisioning
** complete", "<addr>: (local-exec) Provisioning errored". */
void jui_provision_start(JUi *u, const PlChange *c, const char *prov);
void jui_provision_progress(JUi *u, const PlChange *c, const char *prov,
                            const char *output);
void jui_provision_complete(JUi *u, const PlChange *c, const char *prov);
void jui_provision_errored(JUi *u, const PlChange *c, const char *prov);

/* "outputs" after a plan: {name: {"sensitive", "action"}}; "Outputs: N". */
void jui_outputs(JUi *u, const PlOutput *o, uint32_t n);
/* "outputs" after an apply, from the state: {name: {"sensitive", "type",
** "value"}}, the value left out for sensitive outputs. */
void jui_outputs_state(JUi *u, const State *s);

/* Go's time.Duration text of whole seconds: "0s", "10s", "1m5s",
** "1h0m0s" (used in hook messages; exposed for tests). */
void jui_duration(Buf *out, int seconds);

/* Terraform 1.14's action hooks (docs/actions.md): type "action_start",
** "action_progress" (text: the message), "action_complete" or
** "action_errored" (text: the error) for invocation iv, triggered by the
** change trig (NULL: -invoke). */
void jui_action(JUi *u, const char *type, const PlInvoke *iv,
                const PlChange *trig, const char *text);

#endif
