/*
** lifecycle: the rules of a resource's `lifecycle` block and of custom
** conditions, as pure functions the engine calls while planning (see
** docs/lifecycle.md for where each hook goes).
**
**   ignore_changes        lc_check_ignore_changes (validate), then
**                         lc_ignore_changes on every plan of an existing
**                         object (Terraform's processIgnoreChanges).
**   replace_triggered_by  lc_check_replace_triggers (validate), then
**                         lc_replace_triggered per instance, after the
**                         referenced resources were planned.
**   pre/postconditions,   lc_check_rules: evaluates conditions and reports
**   output preconditions, failures with Terraform's summaries.
**   check assertions
**   prevent_destroy       lc_prevent_destroy_error, when a plan would
**                         delete or replace a protected object.
**
** Contracts:
** - Nothing here prints or keeps state: results live in the arena given
**   (or the EvalCtx's arena), diagnostics are appended to the Diags given
**   with Terraform's summaries, details and subject ranges.
** - Values follow core/base/value.h: sensitive marks (VF_SENSITIVE) are carried
**   through exactly as cty carries them through Terraform's code.
** - Bad input (a traversal into nothing, an expression of the wrong shape)
**   yields a diagnostic or a no-op, never a crash; every walk is linear in
**   the size of the values and expressions involved.
*/
#ifndef CAIRN_LIFECYCLE_H
#define CAIRN_LIFECYCLE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/value.h"
#include "config/config.h"
#include "lang/eval.h"
#include "plan.h"
#include "providers/provider.h"

/* ---- ignore_changes ----------------------------------------------------- */

/* Static validation of r->ignore_changes against the resource type's
** schema (Terraform's StaticValidateTraversal in validateResource):
** "Unsupported attribute" (with a "Did you mean" suggestion) for names
** the schema lacks, which is what meta-arguments such as count, for_each,
** provider, depends_on and lifecycle get; "Invalid index operation" /
** "Invalid operation" / "Cannot index a set value" for steps that do not
** fit a nested block; HCL's traversal errors for steps into an
** attribute's value; a "Deprecated attribute" warning; and the "Redundant
** ignore_changes element" warning for computed-only attributes (subject:
** the resource type label).  Returns false when it added an error. */
bool lc_check_ignore_changes(Arena *a, const CfgResource *r,
                             const ProvBlockSchema *schema, Diags *d);

/* Terraform's processIgnoreChanges: the configuration value with the
** ignored parts taken from prior, to be used as the config AND for the
** proposed new state of PlanResourceChange.
** - prior null (a create): config unchanged.
** - ignore_changes = all: prior, with every computed-only attribute set
**   to null (schema NULL: prior as is).
** - otherwise each path (attributes, list/tuple indexes `list[0]`, map
**   keys `tags["Name"]`) whose prior and config values differ takes the
**   prior value; a map key absent from prior is removed from config, a
**   key absent from config is added back.  Paths that do not apply to
**   both values are skipped (as Terraform does).
** config and prior are the MARKED values (sensitive marks are taken with
** the prior parts).  The result shares unchanged parts with config and
** lives in a. */
Value lc_ignore_changes(Arena *a, Value config, Value prior,
                        const CfgResource *r, const ProvBlockSchema *schema);

/* ---- replace_triggered_by ----------------------------------------------- */

/* Static rules for r->replace_triggered_by (Terraform's
** decodeReplaceTriggeredBy): each expression refers to exactly one
** resource (or instance, or instance attribute) and otherwise only to
** count.index and each.key.  Errors: "Invalid replace_triggered_by
** expression" (missing / multiple resource references), "Invalid
** reference in replace_triggered_by expression", "Invalid each reference
** ...", "Invalid count reference ...", and reference syntax errors, each
** with the expression's range.  Returns false when it added an error. */
bool lc_check_replace_triggers(const CfgResource *r, Diags *d);

/* What lc_replace_triggered needs from the engine.  Both callbacks are
** called from the planning thread of the instance and must only read
** changes that are final (the engine orders a resource after the
** resources its replace_triggered_by expressions name). */
typedef struct LcTriggerEnv {
  /* The module instance the resource is in: "" for the root module,
  ** "module.a[0]" below it.  Prefixes the addresses passed below. */
  const char *module;
  /* The configuration of that module, for the "Reference to undeclared
  ** resource" error; NULL skips the check. */
  const CfgModule *config;
  /* The planned change of the current object of one instance
  ** ("module.a[0].aws_x.b[\"k\"]"), or NULL when none was planned. */
  const PlChange *(*change_of)(void *ctx, const char *instance_addr);
  /* The planned changes of the current objects of every instance of a
  ** resource ("module.a[0].aws_x.b"), in the engine's instance order:
  ** *out receives an array the caller only reads; returns the count. */
  uint32_t (*changes_of)(void *ctx, const char *resource_addr,
                         const PlChange *const **out);
  void *ctx;
} LcTriggerEnv;

/* Terraform's EvaluateReplaceTriggeredBy for one expression of
** r->replace_triggered_by.  count.index / each.key in index keys are
** evaluated in ctx (the instance's EvalCtx); the reference then selects:
** - a whole resource: triggers when any instance's planned action is
**   update or replace;
** - one instance: triggers when its planned action is update or replace;
** - an attribute of an instance (or of a single-instance resource): the
**   instance's planned action is update or replace AND the attribute's
**   value differs between before and after (unknown counts as different).
** *triggered is always set.  Returns false with Terraform's diagnostics
** ("Invalid replace_triggered_by expression", "Invalid index
** expression", "Reference to \"count\" in non-counted context", "Reference
** to undeclared resource", "no change found for ...") on error. */
bool lc_replace_trigger(EvalCtx *ctx, const CfgResource *r,
                        const HclExpr *expr, const LcTriggerEnv *env,
                        bool *triggered, Diags *d);

/* All expressions of r->replace_triggered_by: *triggered is set when any
** triggers (the engine then plans a replace with
** PL_REASON_REPLACE_BY_TRIGGERS).  Every expression is evaluated so that
** every error is reported.  Returns false when it added an error. */
bool lc_replace_triggered(EvalCtx *ctx, const CfgResource *r,
                          const LcTriggerEnv *env, bool *triggered,
                          Diags *d);

/* ---- Custom conditions -------------------------------------------------- */

/* addrs.CheckType: decides the failure summary and severity. */
typedef enum LcRuleKind {
  LC_RESOURCE_PRECONDITION,   /* "Resource precondition failed" */
  LC_RESOURCE_POSTCONDITION,  /* "Resource postcondition failed" */
  LC_OUTPUT_PRECONDITION,     /* "Module output value precondition failed" */
  LC_CHECK_ASSERTION          /* "Check block assertion failed" (warning) */
} LcRuleKind;

/* Terraform's evalCheckRules: evaluates every rule's condition and
** error_message in ctx (which the engine prepares like the block's own
** scope: count.index / each.*, and `self` as an EvalVar for
** postconditions).
** - an unknown condition is skipped (checked again at apply);
** - null: "Invalid condition result" ("Condition expression must return
**   either true or false, not null."); not convertible to bool: "Invalid
**   condition result" ("Invalid condition result value: ...");
** - false: "<kind> failed" with the error message (trimmed) as detail, the
**   condition expression as subject and the "x is ..." lines of the
**   references it uses; an error message that is not a string gives
**   "Invalid error message", a sensitive one "Error message refers to
**   sensitive values" and the detail "The error message included a
**   sensitive value, so it will not be displayed.", an unknown or failing
**   one "Failed to evaluate condition error message.".
** Severity is an error, except for check assertions (a warning), or a
** warning for every kind when as_warnings is set (refresh-only plans).
** addr is the checkable object's address ("aws_x.a[0]", "output.x",
** "check.c"), kept for check results; the diagnostics carry no address,
** as Terraform's do not (no "with ..." line).  Returns false when a
** condition failed or was invalid (at any severity) or evaluation added
** errors; with as_warnings, only when evaluation added errors: a
** refresh-only plan goes on past failed conditions, as Terraform's does
** (they are warnings there, and the plan is still made and saved). */
bool lc_check_rules(EvalCtx *ctx, const CfgRules *rules, LcRuleKind kind,
                    const char *addr, Diags *d);
bool lc_check_rules_ex(EvalCtx *ctx, const CfgRules *rules, LcRuleKind kind,
                       const char *addr, bool as_warnings, Diags *d);

/* ---- prevent_destroy ---------------------------------------------------- */

/* Terraform's checkPreventDestroy error for instance addr of r: "Instance
** cannot be destroyed", subject the resource block header (Terraform's
** DeclRange).  Call when r->prevent_destroy is set and the planned action
** is a delete or either replace (also under `destroy` and -replace). */
void lc_prevent_destroy_error(Diags *d, const CfgResource *r,
                              const char *addr);

/* True when a planned action of an instance of r must be refused for
** prevent_destroy (r NULL: the resource left the configuration, which
** lifts the protection). */
bool lc_prevent_destroy_applies(const CfgResource *r, PlAction action);

#endif
