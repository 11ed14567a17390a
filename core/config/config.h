/*
** config: the configuration model of one module directory and the module
** tree, decoded from HCL bodies (native or JSON syntax).
**
** This is Terraform's configs package: top-level blocks are decoded into
** plain structs; everything that needs evaluation (argument expressions,
** resource bodies, provider bodies) stays as HCL AST (core/lang/hcl.h) for the
** engine to evaluate later.  Decoding reports Terraform's errors for
** duplicate definitions, unknown block types and misplaced arguments.
**
** Ownership: everything lives in the arena given to cfg_load_dir /
** cfg_load_tree, including the source texts (registered in the SrcFiles
** so diagnostics can show snippets).  The model is immutable after
** loading and may be shared between threads.
*/
#ifndef CAIRN_CONFIG_H
#define CAIRN_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/value.h"
#include "lang/hcl.h"

/* Ephemeral resources (Terraform 1.10 `ephemeral` blocks) sit in the
** same resources array; they are opened anew in every run and never
** reach a plan or a state (docs/ephemeral.md). */
typedef enum CfgMode {
  CFG_MANAGED = 0,
  CFG_DATA = 1,
  CFG_EPHEMERAL = 2
} CfgMode;

typedef struct CfgCheckRule {
  const HclExpr *condition;
  const HclExpr *error_message;
  SrcRange range;
} CfgCheckRule;

typedef struct CfgRules {
  CfgCheckRule *items;
  uint32_t n;
} CfgRules;

typedef struct CfgTraversals {
  HclTraversal *items;
  uint32_t n;
} CfgTraversals;

typedef struct CfgVariable {
  const char *name;
  const HclExpr *default_expr;   /* NULL when required */
  Value default_val;             /* evaluated constant default, converted */
  bool has_default;
  const Type *type;              /* &ty_dynamic when no constraint */
  bool type_given;
  const char *description;
  bool sensitive;
  bool nullable;                 /* default true */
  bool sensitive_set, nullable_set;   /* written (override files merge
                                         only what they set) */
  bool ephemeral;
  CfgRules validations;
  SrcRange range;                /* the block header */
} CfgVariable;

typedef struct CfgLocal {
  const char *name;
  const HclExpr *expr;
  SrcRange range;
} CfgLocal;

typedef struct CfgOutput {
  const char *name;
  const HclExpr *expr;
  const char *description;
  bool sensitive;
  bool sensitive_set;
  bool ephemeral;
  CfgTraversals depends_on;
  CfgRules preconditions;
  SrcRange range;
} CfgOutput;

typedef struct CfgRequiredProvider {
  const char *local_name;        /* "null" */
  const char *source;            /* as written, or implied "hashicorp/NAME" */
  const char *version;           /* constraint string or NULL */
  SrcRange range;
} CfgRequiredProvider;

typedef struct CfgProvider {
  const char *name;              /* local name */
  const char *alias;             /* NULL for the default configuration */
  const HclBody *body;           /* config arguments (remaining body) */
  SrcRange range;
  const char *version;           /* deprecated `version` argument (a
                                    constant string) or NULL; only the
                                    JSON plan's version_constraint uses it */
} CfgProvider;

typedef struct CfgProviderRef {  /* provider = null.foo */
  const char *name;
  const char *alias;
  SrcRange range;
} CfgProviderRef;

typedef struct CfgProvisioner {
  const char *type;              /* "local-exec" */
  const HclBody *body;           /* remaining arguments */
  const HclBody *connection;     /* NULL if none */
  bool when_destroy;
  bool on_failure_continue;
  SrcRange range;
} CfgProvisioner;

/* Terraform 1.14 actions (docs/actions.md): the lifecycle events an
** action_trigger names, as bits of CfgActionTrigger.events. */
enum {
  CFG_EV_BEFORE_CREATE = 1,
  CFG_EV_AFTER_CREATE = 2,
  CFG_EV_BEFORE_UPDATE = 4,
  CFG_EV_AFTER_UPDATE = 8
};

/* One entry of an action_trigger's actions list: action.TYPE.NAME,
** optionally indexed (a constant key or an expression like each.key,
** evaluated in the triggering resource instance's scope). */
typedef struct CfgActionRef {
  const char *type;
  const char *name;
  const Value *key_value;        /* action.T.N[0] / ["k"]: the key */
  const HclExpr *key;            /* action.T.N[expr]: evaluated per
                                    triggering instance; both NULL when
                                    not indexed */
  SrcRange range;
} CfgActionRef;

typedef struct CfgActionTrigger {
  unsigned events;               /* CFG_EV_* bits */
  const HclExpr *condition;      /* NULL: always */
  CfgActionRef *actions;
  uint32_t nactions;
  SrcRange range;
} CfgActionTrigger;

/* A top-level `action "TYPE" "NAME"` block. */
typedef struct CfgAction {
  const char *type;
  const char *name;
  const HclExpr *count;
  const HclExpr *for_each;
  CfgProviderRef provider;       /* name NULL when implied from the type */
  const HclBody *config;         /* the config block's body, NULL if none */
  SrcRange range;                /* block header */
  SrcRange type_range;
} CfgAction;

typedef struct CfgResource {
  CfgMode mode;
  const char *type;
  const char *name;
  const HclExpr *count;
  const HclExpr *for_each;
  const HclExpr *enabled;        /* OpenTofu lifecycle/enabled meta-argument */
  CfgProviderRef provider;       /* name NULL when implied from the type */
  CfgTraversals depends_on;
  const HclBody *body;           /* remaining (provider-defined) body */
  /* lifecycle */
  bool create_before_destroy;
  bool create_before_destroy_set;
  bool prevent_destroy;
  bool prevent_destroy_set;
  bool ignore_all_changes;
  CfgTraversals ignore_changes;  /* relative traversals (attr paths) */
  const HclExpr **replace_triggered_by;
  uint32_t nreplace_triggered_by;
  CfgRules preconditions;
  CfgRules postconditions;
  CfgProvisioner *provisioners;
  uint32_t nprovisioners;
  const HclBody *connection;
  CfgActionTrigger *action_triggers;   /* lifecycle { action_trigger } */
  uint32_t naction_triggers;
  SrcRange range;                /* block header */
  SrcRange type_range;
} CfgResource;

typedef struct CfgModuleCall {
  const char *name;
  const char *source;
  SrcRange source_range;
  const char *version;
  const HclExpr *count;
  const HclExpr *for_each;
  CfgTraversals depends_on;
  /* providers = { child_name = parent_name.alias } */
  struct { CfgProviderRef in_child, in_parent; } *providers;
  uint32_t nproviders;
  const HclBody *body;           /* input variable arguments */
  SrcRange range;
} CfgModuleCall;

typedef struct CfgMoved {
  HclTraversal from, to;
  SrcRange range;
} CfgMoved;

typedef struct CfgRemoved {
  HclTraversal from;
  bool destroy;                  /* lifecycle { destroy = ... }, default true */
  CfgProvisioner *provisioners;
  uint32_t nprovisioners;
  SrcRange range;
} CfgRemoved;

typedef struct CfgImport {
  const HclExpr *to;
  const HclExpr *id;
  const HclExpr *identity;
  const HclExpr *for_each;
  CfgProviderRef provider;
  SrcRange range;
} CfgImport;

typedef struct CfgCheck {
  const char *name;
  CfgResource *data;             /* scoped data block or NULL */
  CfgRules asserts;
  SrcRange range;
} CfgCheck;

typedef struct CfgBackend {
  const char *type;
  const HclBody *body;
  SrcRange range;
  SrcRange type_range;        /* the type label */
} CfgBackend;

/* One module directory. */
typedef struct CfgModule {
  const char *dir;
  const char **required_versions;
  uint32_t nrequired_versions;
  CfgRequiredProvider *required_providers;
  uint32_t nrequired_providers;
  CfgBackend *backend;
  CfgProvider *providers;   uint32_t nproviders;
  CfgVariable *variables;   uint32_t nvariables;
  CfgLocal *locals;         uint32_t nlocals;
  CfgOutput *outputs;       uint32_t noutputs;
  CfgResource *resources;   uint32_t nresources;   /* managed, data and
                                                     ephemeral */
  CfgModuleCall *calls;     uint32_t ncalls;
  CfgMoved *moved;          uint32_t nmoved;
  CfgRemoved *removed;      uint32_t nremoved;
  CfgImport *imports;       uint32_t nimports;
  CfgCheck *checks;         uint32_t nchecks;
  CfgAction *actions;       uint32_t nactions;
  HclFile **files;          uint32_t nfiles;
  /* Name index the loader keeps so cfg_variable/local/output/resource/call
  ** are O(1); NULL in modules built by hand (lookups then scan). */
  struct CfgIndex *index;
} CfgModule;

/* Loads and decodes every *.tf and *.tf.json file in dir (sorted by name;
** override.tf and *_override.tf files, and their .tf.json forms, merged
** into the result afterwards, in name order, as Terraform's mergeFile
** does: docs/override-files.md).  Source
** texts are registered in files for diagnostics.  Returns the module even
** when there were errors (check d). */
CfgModule *cfg_load_dir(Arena *a, const char *dir, SrcFiles *files,
                        Diags *d);

/* Lookups: constant time through the loader's name index; entries added
** to the arrays after loading (or modules without an index) are found by
** a linear scan of what the index does not cover. */
const CfgVariable *cfg_variable(const CfgModule *m, const char *name);
const CfgLocal *cfg_local(const CfgModule *m, const char *name);
const CfgOutput *cfg_output(const CfgModule *m, const char *name);
const CfgResource *cfg_resource(const CfgModule *m, CfgMode mode,
                                const char *type, const char *name);
const CfgModuleCall *cfg_call(const CfgModule *m, const char *name);

/* The action block TYPE.NAME of m, or NULL (config_action.c). */
const CfgAction *cfg_action(const CfgModule *m, const char *type,
                            const char *name);
/* The local provider name an action uses: its provider ref or the type's
** prefix, as for resources. */
const char *cfg_action_provider_name(const CfgAction *x);

/* The local provider name a resource uses: its provider ref, or the type's
** prefix before the first underscore ("null" for null_resource). */
const char *cfg_resource_provider_name(const CfgResource *r);
/* The source address a local provider name maps to in this module: the
** required_providers entry as written, "terraform.io/builtin/terraform"
** for "terraform", or NULL when the module does not declare the name (the
** caller then implies "hashicorp/NAME", as Terraform does). */
const char *cfg_provider_source(const CfgModule *m, const char *local_name);

/* The module tree: the root module and, for every module call, the module
** its local source path names, recursively.  children[i] belongs to
** m->calls[i] and is NULL when that call could not be loaded (with a
** diagnostic).  path is the static module path: "" for the root,
** "module.net.module.sub" below it. */
typedef struct CfgTree {
  CfgModule *m;
  const CfgModuleCall *call;     /* the call that loads it; NULL at the root */
  struct CfgTree *parent;
  struct CfgTree **children;
  const char *path;
  uint32_t depth;                /* 0 at the root */
} CfgTree;

/* Loads root_dir and every module it calls.  Sources must be local paths
** ("./x", "../x"): cairn runs offline, so registry, VCS and URL sources are
** errors naming the call, as is a module that (indirectly) calls itself.
** Returns the tree even when there were errors (check d). */
CfgTree *cfg_load_tree(Arena *a, const char *root_dir, SrcFiles *files,
                       Diags *d);

/* The module of tree t at static path ("module.a.module.b", "" for the
** root), or NULL. */
const CfgTree *cfg_tree_find(const CfgTree *t, const char *path);

/* Every module of the tree, root first, depth-first in call order (the
** saved plan hashes them all).  Results in a. */
void cfg_tree_modules(Arena *a, const CfgTree *t, const CfgModule ***out,
                      uint32_t *n);

/* True when source is a local path (starts with "./" or "../"). */
bool cfg_source_is_local(const char *source);

/* The Terraform language version cairn implements: what `required_version`
** constraints are checked against ("Unsupported Terraform Core version")
** and what `version -json` reports as terraform_version (docs/cli.md). */
#define CFG_TERRAFORM_VERSION "1.9.8"

/* Registers a file's text for snippets and returns a block_context
** callback that names the innermost enclosing block (used by diag). */
void cfg_register_source(SrcFiles *files, const HclFile *f);

#endif
