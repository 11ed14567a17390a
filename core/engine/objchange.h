/*
** objchange: Terraform's objchange package (internal/plans/objchange) for
** one resource instance object at a time.
**
** - objc_proposed_new: the proposed_new_state core sends with
**   PlanResourceChange (formats.md 7.5): configured values win, computed
**   attributes left null in config keep the prior value, nested blocks are
**   correlated by index (LIST), key (MAP) or "could have come from" (SET).
** - objc_planned_data: the same merge against a wholly unknown prior, so
**   computed attributes a data source's config leaves unset become unknown.
** - objc_assert_plan_valid: checks a provider's planned_state against
**   prior and config (formats.md 8.1, "Provider produced invalid plan").
** - objc_assert_compatible: checks that a later value (re-plan during
**   apply, or the apply result) keeps every known planned value (8.2, 8.3).
**
** Values: prior, config, planned and actual are objects of the block's
** implied type (or null / unknown objects where Terraform allows it).
** Values whose types do not fit the schema never crash these functions:
** mismatching parts are taken from config or skipped.  Sensitive marks
** (VF_SENSITIVE) are ignored by every comparison, as are unknown-value
** refinements (VF_NOTNULL) where Terraform strips them (unrefinedValue);
** a sensitive attribute or value turns reason texts into the vague
** "sensitive ..." wording so no secret reaches an error message.
**
** Memory: every result (values, paths, reason strings) is allocated in the
** arena given; inputs are only read and may be shared with the result
** (unchanged sub-values are not copied), so they must outlive it.
** Thread safety: pure functions with no global state; concurrent calls on
** different arenas are safe, and the schema and inputs are only read.
** Cost: linear in the size of the values, except SET correlation in
** ProposedNew and set checks in AssertObjectCompatible, which compare
** elements pairwise (O(n*m) for sets only).
*/
#ifndef CAIRN_OBJCHANGE_H
#define CAIRN_OBJCHANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/value.h"
#include "providers/provider.h"

/* Path steps into set elements have no index; they are PS_INDEX steps with
** one of these sentinel indexes, which objc_path_string renders the way
** Terraform does ("[...]" for a known element, "[(not yet known)]" for an
** unknown one).  val_path_get finds nothing at such a step. */
#define OBJC_STEP_SET_ELEM INT64_MIN
#define OBJC_STEP_SET_UNKNOWN (INT64_MIN + 1)

/* One problem found by an assertion: the attribute path (steps in the
** arena given to the assertion) and Terraform's reason text, with values
** rendered as cty's GoString does: cty.StringVal("x"), cty.NumberIntVal(1),
** cty.True, cty.NullVal(cty.String), cty.UnknownVal(cty.String) ... */
typedef struct ObjcErr {
  ValPath path;
  const char *reason;
} ObjcErr;
typedef struct ObjcErrs {
  ObjcErr *items;     /* grown in the assertion's arena; start zeroed */
  uint32_t n, cap;
} ObjcErrs;

/* objchange.ProposedNew(schema, prior, config).  prior may be null
** (create), config may be null (destroy: the result is prior). */
Value objc_proposed_new(Arena *a, const ProvBlockSchema *schema, Value prior,
                        Value config);

/* objchange.PlannedDataResourceObject(schema, config): computed attributes
** not set in config become unknown. */
Value objc_planned_data(Arena *a, const ProvBlockSchema *schema,
                        Value config);

/* objchange.AssertPlanValid(schema, prior, config, planned): appends one
** ObjcErr per problem to errs; returns true when there was none. */
bool objc_assert_plan_valid(Arena *a, const ProvBlockSchema *schema,
                            Value prior, Value config, Value planned,
                            ObjcErrs *errs);

/* objchange.AssertObjectCompatible(schema, planned, actual): every known
** planned value must be the same in actual; unknowns may become anything
** of the right type (respecting a not-null refinement); block counts are
** fixed.  Appends problems to errs; returns true when there was none. */
bool objc_assert_compatible(Arena *a, const ProvBlockSchema *schema,
                            Value planned, Value actual, ObjcErrs *errs);

/* A path as Terraform's error messages show it after the resource address
** (tfdiags.FormatCtyPath): ".a.b[0][\"k\"]"; "" for the empty path. */
const char *objc_path_string(Arena *a, ValPath p);

/* The requires_replace test: true when the values at path p in prior and
** planned differ (ignoring marks) or either is (or contains) an unknown.
** A side where the path does not exist counts as null; a path that exists
** in neither sets *exists = false and returns false (otherwise *exists =
** true). */
bool objc_path_changed(Value prior, Value planned, ValPath p, bool *exists);

#endif
