/*
** validate: the static checks of one module that `cairn validate` and the
** engine (before every plan) run, as Terraform's validate walk does.
**
** vld_module checks, appending Terraform's diagnostics to d:
** - every reference in resources, data sources, locals, outputs, module
**   calls, provider blocks, check blocks, count/for_each, depends_on and
**   conditions names something declared ("Reference to undeclared input
**   variable" / "local value" / "resource" / "module"); count.index,
**   each.* and self only where they are available; path.* and
**   terraform.* attribute names; resource instance keys against
**   count/for_each ("Missing/Unexpected resource instance key"); resource
**   attributes against the referenced resource's schema ("Unsupported
**   attribute");
** - depends_on entries refer to whole objects ("Invalid depends_on
**   reference");
** - resource and data bodies decoded with dec_body while every variable,
**   resource, module and local is unknown, so unsupported and missing
**   arguments, bad blocks and wrong constant types are reported;
** - a resource type its provider does not have: "Invalid resource type" /
**   "Invalid data source" with Terraform's suggestions.
** - dependency cycles between locals, outputs, resources and module calls
**   ("Cycle: local.a, local.b", members named and ordered as the engine
**   does; self-references are not cycles; when there is a cycle it is the
**   only error reported, as in Terraform).  Cycles through a child module
**   (a call's inputs flowing to its outputs) are not followed.
** The mutually exclusive count/for_each pair is reported by the
** configuration loader (core/config/config_decode.c), not here.
**
** Schemas come from the caller: schema_of returns the block schema of a
** resource's type, NULL when its provider does not have the type, or
** VLD_SCHEMA_SKIP when the provider is not available (its resources are
** then only checked for references).  The optional types_of gives the
** provider's type names for "Did you mean" suggestions.
**
** Memory: a scratch arena of vld's own (rewound after every construct;
** a is unused) and diagnostics in d's arena.  Nothing global;
** the module is only read.  Returns true when no error was added.
*/
#ifndef CAIRN_VALIDATE_H
#define CAIRN_VALIDATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "config.h"
#include "lang/eval.h"
#include "providers/provider.h"

typedef const ProvBlockSchema *(*VldSchemaFn)(void *ctx, CfgMode mode,
                                              const CfgResource *r);
/* Type names the provider of r offers in mode (resource types or data
** sources), for suggestions; *n = 0 when unknown. */
typedef void (*VldTypesFn)(void *ctx, CfgMode mode, const CfgResource *r,
                           const char *const **names, uint32_t *n);

/* The "provider not available: skip schema checks" answer of schema_of. */
extern const ProvBlockSchema vld_schema_skip;
#define VLD_SCHEMA_SKIP (&vld_schema_skip)

bool vld_module(Arena *a, const CfgModule *m, VldSchemaFn schema_of,
                void *ctx, Diags *d);
bool vld_module_ex(Arena *a, const CfgModule *m, VldSchemaFn schema_of,
                   VldTypesFn types_of, void *ctx, Diags *d);

/* Called before the checks of each module of a tree, so the caller's
** schema_of/types_of can resolve provider names in that module. */
typedef void (*VldEnterFn)(void *ctx, const CfgTree *t);

/* Every module of the tree t (depth-first, root first), each checked as
** vld_module_ex does, in its own scope (diagnostics name "module.x"
** where Terraform does), plus what needs the called module: a call's
** arguments against the child's variables ("Unsupported argument",
** "Missing required argument") and module.NAME.OUTPUT against the
** child's outputs ("Unsupported attribute").  Children that failed to
** load (NULL) are skipped.  Dependency cycles are looked for in every
** module first; when there is one, only the cycles are reported (as
** Terraform, which finds them while building its graph).  enter may be
** NULL.  Returns true when no error was added. */
bool vld_tree(Arena *a, const CfgTree *t, VldSchemaFn schema_of,
              VldTypesFn types_of, VldEnterFn enter, void *ctx, Diags *d);

/* Called by vld_tree_ex for each resource of module t whose body decoded
** against its schema s without error: cfg is the configuration object as
** validation sees it (every reference unknown), for the provider's
** ValidateResourceConfig at `validate` time.  cfg lives in vld's scratch
** arena, which is rewound after the call: copy what must outlive it. */
typedef void (*VldConfigFn)(void *ctx, const CfgTree *t, const CfgResource *r,
                            const ProvBlockSchema *s, Value cfg);

/* vld_tree, handing each decoded resource configuration to on_config (may
** be NULL), so a caller validates it without decoding the body again. */
bool vld_tree_ex(Arena *a, const CfgTree *t, VldSchemaFn schema_of,
                 VldTypesFn types_of, VldEnterFn enter, VldConfigFn on_config,
                 void *ctx, Diags *d);

/* Sets ctx up to evaluate in module m as validation does: every
** reference unknown (variables of their declared type, count.index a
** number, each.key a string, anything else of any type), count and each
** available as the flags say, impure functions unknown, and the
** functions of m's declared providers as placeholders accepting any
** arguments (a caller that has the providers replaces provider_fn).
** State in a; diagnostics to d. */
void vld_unknown_ctx(EvalCtx *ctx, Arena *a, Diags *d, const CfgModule *m,
                     bool count, bool each);

/* A module call's arguments against the called module's variables:
** "Unsupported argument" and "Missing required argument" (Terraform's
** hcl body content check), appended to d; scratch in a. */
void vld_call_args(Arena *a, const CfgModuleCall *c, const CfgModule *ch,
                   Diags *d);

/* Orders d as Terraform's tfdiags Sort does before showing diagnostics:
** warnings first, then sourceless ones, then by file (fewer path
** segments first, then name) and position; stable otherwise. */
void vld_sort_diags(Diags *d);

/* Terraform's `validate -json` document (views/json validate output,
** MarshalIndent layout) for the diagnostics of d, without trailing
** newline. */
void vld_render_json(Buf *out, const Diags *d, const SrcFiles *fs);

#endif
