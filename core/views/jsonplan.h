/*
** jsonplan: Terraform's machine-readable plan (format 1.2) and state
** values (format 1.0) representations, as `show -json` prints them.
** See docs/json-output.md for the fields produced and the differences.
**
** Contracts:
** - Output is one line of compact JSON followed by "\n", appended to out,
**   with Go's encoding/json escaping (HTML characters as \u003c ...) and
**   keys in Terraform's order: struct fields in declaration order, map keys
**   sorted bytewise.
** - Values are written from their own types (cty's json.Marshal): unknown
**   parts are left out of "after" (object members dropped, list elements
**   replaced by null) and described by "after_unknown"; sensitive parts
**   come from VF_SENSITIVE marks plus the schema's sensitive attributes
**   (schema_of, or PlChange.schema) plus, for state objects, their
**   sensitive_attributes paths.  Sensitive values are written in clear,
**   exactly as Terraform does: consumers use *_sensitive to hide them.
** - schema_of may be NULL or return NULL: values are then written as
**   they are and configuration expressions list every argument of the
**   body instead of the schema's.
** - Memory: a private scratch arena is used and released before return;
**   only out grows (in out->arena).  Inputs are only read, so a Plan may
**   be rendered while other threads read it.
** - Never fails: a value that cannot be represented (a non-finite number,
**   say) is written as null.  Bad input never crashes.
*/
#ifndef CAIRN_JSONPLAN_H
#define CAIRN_JSONPLAN_H

#include "base/buf.h"
#include "config/config.h"
#include "engine/plan.h"
#include "providers/provider.h"
#include "state/state.h"

#define JPLAN_FORMAT_VERSION "1.2"
#define JPLAN_STATE_FORMAT_VERSION "1.0"

/* The block schema of a resource type (mode, fully-qualified provider
** source such as "registry.terraform.io/hashicorp/null", type), or NULL
** when unknown. */
typedef const ProvBlockSchema *(*JplanSchemaFn)(void *ctx, StMode mode,
                                                const char *provider_fqn,
                                                const char *type);

/* `show -json PLANFILE`.  cfg is the module tree (cfg_load_tree; NULL: an
** empty configuration section): "configuration" holds every module call
** with its module, and "provider_config" every provider configuration of
** the tree keyed as Terraform does ("NAME[.ALIAS]", "module.a:NAME" below
** the root; configurations a module inherits or is passed are left out
** and its resources' provider_config_key names the one actually used). */
void jplan_plan(Buf *out, const Plan *p, const CfgTree *cfg,
                JplanSchemaFn schema_of, void *ctx);

/* `show -json` of a state: {"format_version":"1.0","terraform_version":..,
** "values":{"outputs":{..},"root_module":{..}}}; a NULL or empty state
** (no resources, no outputs) prints {"format_version":"1.0"}.  The
** terraform_version is the state's own (left out when empty). */
void jplan_state(Buf *out, const State *s, JplanSchemaFn schema_of,
                 void *ctx);

/* The fully-qualified source inside a provider configuration address as
** stored in state ('provider["registry.terraform.io/hashicorp/null"].x',
** possibly with a module prefix), in a; the input itself when it has no
** quoted part. */
const char *jplan_provider_fqn(Arena *a, const char *provider_config);

#endif
