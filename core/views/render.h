/*
** render: the human-readable plan and state text, as Terraform prints it
** (`plan`, `apply` before the prompt, `show`, `state show`).
**
** Facts followed: Terraform's command/jsonformat renderer.  A change is
** first turned into a diff tree (per attribute, element and nested block:
** an action, a "forces replacement" flag and how to draw it) exactly as
** jsonformat's differ does from the JSON plan, then drawn: attribute names
** padded to the longest name in their block, `+`/`-`/`~` per line,
** `(known after apply)`, `(sensitive value)`, `# forces replacement`,
** `# (N unchanged attributes hidden)`, heredocs for multi-line strings,
** jsonencode(...) diffs for JSON strings, list context lines, and so on.
** docs/render.md lists the places where cairn differs.
**
** Input contracts: values follow core/base/value.h and core/engine/plan.h: unknown
** parts carry VF_UNKNOWN, sensitive parts VF_SENSITIVE (the renderer also
** applies the schema's `sensitive` flags itself).  Values are only read.
** A change whose schema is NULL is drawn from its values' own types.
**
** Memory: every function appends to `out` (whose arena receives the text);
** working memory comes from a private arena released before returning.
** Rendering never fails and never prints; malformed or surprising values
** (a value whose shape does not match the schema, absurdly long lists) are
** drawn as well as they can be, in time linear or n log n in their size
** (list diffs fall back from LCS to prefix/suffix matching above a size
** limit).
*/
#ifndef CAIRN_RENDER_H
#define CAIRN_RENDER_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/value.h"
#include "engine/plan.h"
#include "providers/provider.h"
#include "state/state.h"

typedef struct RenderOpts {
  bool color;        /* ANSI colours as Terraform ([bold], green +, red -,
                        yellow ~, cyan <=) */
  const char *tool;  /* product name used in messages: "cairn"; NULL too */
  int width;         /* terminal columns for word wrapping and the
                        horizontal rule; 0 = Terraform's default 78 */
  bool automation;   /* TF_IN_AUTOMATION: no command-line suggestions */
} RenderOpts;

/* Everything `plan` prints after the refresh progress lines: the drift
** section ("Objects have changed outside of cairn", from p->drift, only
** when there are also changes or in refresh-only mode), the legend, "cairn
** will perform the following actions:", each change block, the "Plan: N to
** add, N to change, N to destroy." line (with "N to import, " and ", N to
** forget" variants), "Changes to Outputs:", or the "No changes." texts of
** each plan mode.  Changes are drawn in array order (plan_sort's). */
void render_plan(Buf *out, const Plan *p, const RenderOpts *o);

/* One change block: the "  # addr will be ..." comment lines, then the
** symbol, `resource "t" "n" {` ... `}` and a newline.  Drawn as a planned
** change; see render_drift for drift wording.  Prints nothing for a no-op
** change that neither moves nor imports. */
void render_change(Buf *out, const PlChange *c, const RenderOpts *o);
/* The same with drift wording ("has changed", "has been deleted"). */
void render_drift(Buf *out, const PlChange *c, const RenderOpts *o);

/* One resource instance object as `show` / `state show` print it:
**   # null_resource.a:
**   resource "null_resource" "a" {
**       id = "123"
**   }
** (data sources as `data "t" "n" {`; "# addr: (tainted)" and "# addr:
** (deposed object 1234abcd)" headers).  Ends with a newline; callers put
** the blank line between objects.  obj is the object's value (marks
** honoured); schema may be NULL (then the value's own type is used). */
void render_object(Buf *out, const char *addr, StMode mode, const char *type,
                   const char *name, const char *deposed, bool tainted,
                   Value obj, const ProvBlockSchema *schema,
                   const RenderOpts *o);

/* One value as `show` prints root outputs and `output` prints a value
** ("name = <this>"): `(sensitive value)` when sensitive, heredocs, maps
** and lists unfolded.  No trailing newline.  indent is in levels of four
** spaces for continuation lines. */
void render_value(Buf *out, Value v, bool sensitive, int indent,
                  const RenderOpts *o);

/* Terraform's format.WordWrap: wraps each line not starting with a space
** at width-1 columns (width 0 = 78).  Appends to out. */
void render_wrap(Buf *out, const char *text, int width);

#endif
