/*
** decode: resource, data source and provider bodies decoded against a
** provider schema (Terraform's configschema.Block.DecoderSpec evaluated by
** hcldec, after dynblock.Expand).
**
** The result of dec_body is an object Value of the schema's implied type
** (prov_schema_implied_type):
** - attributes are evaluated with the caller's EvalCtx and converted to
**   their schema type (cty's unsafe conversion, as hcldec's AttrSpec does);
**   failures give "Incorrect attribute value type".  Absent attributes are
**   null.  Nested attribute types (`x = { ... }`) convert to the nested
**   object type whose optional and computed attributes are optional.
** - nested blocks follow their nesting: SINGLE gives the object or null,
**   GROUP the object or an empty object (never null), LIST/SET a list/set
**   of objects (a tuple when the block holds dynamic attributes), MAP a map
**   keyed by the block's one label (an object when dynamic).  min/max
**   items give "Insufficient X blocks" / "Too many X blocks"; SINGLE with
**   min 1 gives "Missing X block".
** - `dynamic "x" { for_each, iterator, labels, content {} }` blocks expand
**   as HCL's dynblock does; an unknown for_each makes the whole value of
**   block type x unknown (LIST/SET/MAP) or its attributes unknown (SINGLE).
** - Terraform's meta-arguments are not in the body (config.c removed them).
** - Unknown values and sensitive marks propagate from the evaluator.
**
** Contracts: no global state; safe to call concurrently with distinct
** EvalCtx values (the body and schema are only read).  Results and scratch
** memory come from ctx->arena, diagnostics go to ctx->diags.  On error the
** function returns false and *out is an unknown of the implied type.
*/
#ifndef CAIRN_DECODE_H
#define CAIRN_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/value.h"
#include "lang/eval.h"
#include "lang/hcl.h"
#include "provider.h"

/* Evaluates body against schema into an object conforming to
** prov_schema_implied_type(schema).  See above. */
bool dec_body(EvalCtx *ctx, const HclBody *body, const ProvBlockSchema *schema,
              Value *out);

/* Every absolute traversal the body refers to (attributes of the schema,
** nested and dynamic blocks; references to a dynamic block's iterator
** symbol are excluded), in source order within each body, for the
** dependency graph.  Never reports errors (the body is decoded, with its
** diagnostics, by dec_body).  Results in a. */
void dec_body_refs(Arena *a, const HclBody *body,
                   const ProvBlockSchema *schema, HclTraversal **out,
                   uint32_t *n);

#endif
