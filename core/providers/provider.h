/*
** provider: the one interface between the engine and every provider.
**
** Shaped after the provider protocol v6 (tfplugin6) calls: GetProviderSchema,
** ValidateProviderConfig, ValidateResourceConfig, ValidateDataResourceConfig,
** UpgradeResourceState, ConfigureProvider, ReadResource, PlanResourceChange,
** ApplyResourceChange, ImportResourceState, ReadDataSource, StopProvider,
** and CallFunction (provider-defined functions, protocol 5.5 / 6.5).
** The built-in providers (terraform, null, local, random) implement ProvOps
** in-process; the HTTPS providers (net/) implement the same vtable over the
** network.  Requests and responses are plain data (Values from value.h,
** byte strings, paths) so they can be serialised without engine changes.
**
** Calls and memory (read this before calling or implementing a provider):
** - Every call takes a ProvCall: the caller's arena, which receives every
**   byte of the response (Values, strings, paths, private bytes), and the
**   Diags list the call appends to.  The engine passes the pool worker's
**   arena and diagnostics; the response lives as long as that arena.
** - Request data (Values, strings) belongs to the caller and is only
**   borrowed for the duration of the call; a provider that wants to keep
**   something past the call copies it into memory of its own.  A response
**   may share structure with the request (e.g. return proposed_new_state
**   as planned_state): the caller must keep request memory alive as long as
**   it keeps the response.
** - Diagnostics that concern one attribute also record an attribute path
**   (protocol Diagnostic.attribute) in ProvCall.paths, keyed by the Diag
**   node, so the core can point at the configuration expression.
** - Thread safety: once ConfigureProvider returned, every call on one Prov
**   may run concurrently from many pool workers; implementations keep no
**   unsynchronised mutable state.  GetProviderSchema, validation calls and
**   ConfigureProvider are made from one thread before the walk.
**   StopProvider may be called from any thread at any time (interrupt); it
**   asks in-flight calls to finish early and returns at once.
** - Schemas returned by GetProviderSchema are owned by the provider
**   instance, immutable, and valid until prov_close().
** - Values passed to providers carry no sensitive marks (the core removes
**   them and puts them back by schema, see prov_mark_sensitive); providers
**   return unmarked values.
** - Response Values start out as the zero Value (type == NULL), which
**   means "absent" (the protocol's missing DynamicValue); the core reports
**   an absent new_state after apply as "Provider produced invalid object".
**   A null object (val_null of the schema type) is a real answer: the
**   object is gone (read) or destroyed (apply).
** - Failure: a call that fails appends an error to c->diags; it still
**   fills whatever part of the response it could (a partial new_state after
**   a failed create, for instance).
**
** Source addresses: "null", "hashicorp/null" and
** "registry.terraform.io/hashicorp/null" name the same provider; the
** normaliser gives Terraform's fully-qualified form.  "terraform" is the
** special built-in "terraform.io/builtin/terraform".
*/
#ifndef CAIRN_PROVIDER_H
#define CAIRN_PROVIDER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/value.h"
#include "lang/funcs.h"

/* ---- Schemas ---------------------------------------------------------- */

/* Attribute flags (protocol Attribute booleans). */
enum {
  PROV_REQUIRED = 1 << 0,
  PROV_OPTIONAL = 1 << 1,
  PROV_COMPUTED = 1 << 2,
  PROV_SENSITIVE = 1 << 3,
  PROV_DEPRECATED = 1 << 4,
  PROV_WRITE_ONLY = 1 << 5
};

typedef enum ProvNesting {
  PROV_NEST_INVALID = 0,
  PROV_NEST_SINGLE = 1,
  PROV_NEST_LIST = 2,
  PROV_NEST_SET = 3,
  PROV_NEST_MAP = 4,
  PROV_NEST_GROUP = 5    /* blocks only: like SINGLE but never null */
} ProvNesting;

typedef struct ProvAttrSchema ProvAttrSchema;
typedef struct ProvBlockSchema ProvBlockSchema;

/* Nested attribute type (protocol Schema.Object): attributes whose value is
** an object, or a list/set/map of objects, written with `=` syntax. */
typedef struct ProvObjectSchema {
  ProvNesting nesting;             /* SINGLE, LIST, SET or MAP */
  const ProvAttrSchema *attrs;
  uint32_t nattrs;
} ProvObjectSchema;

struct ProvAttrSchema {
  const char *name;
  const Type *type;                /* NULL when nested is set */
  const ProvObjectSchema *nested;  /* nested attribute type, or NULL */
  unsigned flags;                  /* PROV_REQUIRED ... */
  const char *description;         /* may be NULL */
  const char *deprecation_message; /* may be NULL */
};

typedef struct ProvNestedBlock {
  const char *type_name;
  ProvNesting nesting;
  const ProvBlockSchema *block;
  uint32_t min_items;
  uint32_t max_items;              /* 0 = no limit */
} ProvNestedBlock;

struct ProvBlockSchema {
  const ProvAttrSchema *attrs;     /* any order; lookups are by name */
  uint32_t nattrs;
  const ProvNestedBlock *blocks;
  uint32_t nblocks;
  const char *description;         /* may be NULL */
  bool deprecated;
  /* Filled by prov_schema_prepare(): the implied object type, so the
  ** engine does not rebuild it per instance.  NULL until prepared. */
  const Type *implied;
};

typedef struct ProvSchema {
  int64_t version;                 /* schema version (UpgradeResourceState) */
  const ProvBlockSchema *block;
} ProvSchema;

typedef struct ProvTypeSchema {
  const char *type_name;           /* "null_resource" */
  ProvSchema schema;
} ProvTypeSchema;

/* ---- Provider-defined functions ------------------------------------------ */

/* One parameter of a provider function (protocol Function.Parameter). */
typedef struct ProvFuncParam {
  const char *name;                /* display name, for messages */
  const Type *type;                /* type constraint; &ty_dynamic: any */
  bool allow_null_value;           /* false: the core refuses a null */
  bool allow_unknown_values;       /* false: the core does not call the
                                      provider with an unknown argument
                                      and the result is unknown */
  const char *description;         /* may be NULL */
} ProvFuncParam;

/* A function signature (protocol Function, the values of GetFunctions and
** of GetProviderSchema's `functions` map).  Called in configuration as
** provider::LOCAL::NAME(args). */
typedef struct ProvFunction {
  const char *name;
  const ProvFuncParam *params;     /* positional, in order */
  uint32_t nparams;
  const ProvFuncParam *variadic;   /* zero or more trailing args; NULL */
  const Type *return_type;         /* &ty_dynamic: decided per call */
  const char *summary;             /* may be NULL */
  const char *description;         /* may be NULL */
  const char *deprecation_message; /* may be NULL: not deprecated */
} ProvFunction;

typedef struct ProvProviderSchema {
  ProvSchema provider;             /* the provider configuration block */
  const ProvTypeSchema *resources;
  uint32_t nresources;
  const ProvTypeSchema *data_sources;
  uint32_t ndata_sources;
  const ProvFunction *functions;   /* sorted by name; may be NULL */
  uint32_t nfunctions;
  /* Ephemeral resource types (protocol 5.7/6.7, Terraform 1.10); NULL and
  ** 0 for providers without any.  Last, so positional initialisers of
  ** the fields above stay valid. */
  const ProvTypeSchema *ephemeral_resources;
  uint32_t nephemeral_resources;
  /* Server capabilities. */
  bool plan_destroy;               /* wants PlanResourceChange for deletes */
  /* Action types (Terraform 1.14, docs/actions.md); NULL and 0 for
  ** providers without any.  Invoked through ProvOps.invoke_action. */
  const ProvTypeSchema *actions;
  uint32_t nactions;
} ProvProviderSchema;

/* The schema of a resource / data source type, or NULL. */
const ProvTypeSchema *prov_schema_resource(const ProvProviderSchema *s,
                                           const char *type_name);
const ProvTypeSchema *prov_schema_data_source(const ProvProviderSchema *s,
                                              const char *type_name);
const ProvTypeSchema *prov_schema_ephemeral(const ProvProviderSchema *s,
                                            const char *type_name);
/* The schema of an action type, or NULL. */
const ProvTypeSchema *prov_schema_action(const ProvProviderSchema *s,
                                         const char *type_name);

/* The signature of provider function name, or NULL. */
const ProvFunction *prov_schema_function(const ProvProviderSchema *s,
                                         const char *name);

/* Lookups by name within a block; NULL when absent. */
const ProvAttrSchema *prov_block_attr(const ProvBlockSchema *b,
                                      const char *name);
const ProvNestedBlock *prov_block_nested(const ProvBlockSchema *b,
                                         const char *name);

/* cty's ImpliedType: an object type with one attribute per attribute and
** per nested block type.  Blocks: SINGLE/GROUP -> object, LIST -> list of
** object, SET -> set of object, MAP -> map of object; a LIST or MAP whose
** element type contains dynamic is dynamic (each value then picks a tuple
** or object type), as configschema does.
** Nested attribute types likewise.  Returns b->implied when prepared;
** otherwise builds it in a. */
const Type *prov_schema_implied_type(Arena *a, const ProvBlockSchema *b);
/* The implied type of one attribute (its Type, or the type of its nested
** attribute object). */
const Type *prov_attr_type(Arena *a, const ProvAttrSchema *at);

/* Computes and stores `implied` for every block of s (provider config,
** resources, data sources, nested blocks), allocating in a.  Call once,
** from one thread, before the schema is shared; it writes into the block
** structs, which must therefore be writable.  Idempotent. */
void prov_schema_prepare(Arena *a, ProvProviderSchema *s);
/* A prepared copy of s whose block structs live in a (attribute arrays,
** names and types are shared).  Built-ins keep const static schemas and
** clone them per instance. */
ProvProviderSchema *prov_schema_clone(Arena *a, const ProvProviderSchema *s);

/* True when the value at path p inside an object of block b is sensitive
** by schema: some attribute on the way is marked sensitive.  Steps into
** nested blocks and nested attribute types follow their nesting (an index
** or key step after a LIST/SET/MAP block).  Paths that leave the schema
** return false. */
bool prov_path_sensitive(const ProvBlockSchema *b, ValPath p);

/* Returns v (an object conforming to b's implied type) with VF_SENSITIVE
** on every attribute value the schema marks sensitive, at any depth.
** Copies only what changes; null/unknown objects are returned as is. */
Value prov_mark_sensitive(Arena *a, const ProvBlockSchema *b, Value v);

/* A null value of block b's implied type.  b must be prepared or a given. */
Value prov_null_object(Arena *a, const ProvBlockSchema *b);

/* ---- Calls ------------------------------------------------------------ */

/* Opaque provider-private bytes (protocol `private`), carried in state and
** plans between calls.  NULL/0 means none. */
typedef struct ProvBytes {
  const uint8_t *p;
  size_t n;
} ProvBytes;

/* A diagnostic's attribute path (protocol Diagnostic.attribute). */
typedef struct ProvDiagPath {
  struct ProvDiagPath *next;
  const Diag *diag;
  ValPath path;
} ProvDiagPath;

/* Common to every call: where results and diagnostics go.  The caller
** sets arena and diags and zeroes paths; the provider appends. */
typedef struct ProvCall {
  Arena *arena;          /* response memory (the worker's arena) */
  Diags *diags;          /* append-only; shared with nobody during the call */
  ProvDiagPath *paths;   /* out: attribute paths of some of the diags */
} ProvCall;

typedef struct ProvUpgradeReq {
  const char *type_name;
  int64_t version;       /* schema_version recorded in the state */
  const char *raw_json;  /* the state's "attributes" object, JSON text */
  size_t raw_len;
} ProvUpgradeReq;
typedef struct ProvUpgradeResp {
  Value upgraded_state;  /* conforms to the current schema, wholly known */
} ProvUpgradeResp;

typedef struct ProvConfigureReq {
  const char *terraform_version;
  Value config;          /* may contain unknowns during plan */
} ProvConfigureReq;

typedef struct ProvReadReq {
  const char *type_name;
  Value current_state;
  ProvBytes private_data;
} ProvReadReq;
typedef struct ProvReadResp {
  Value new_state;       /* null object: the object is gone */
  ProvBytes private_data;
} ProvReadResp;

typedef struct ProvPlanReq {
  const char *type_name;
  Value prior_state;         /* null object on create */
  Value proposed_new_state;  /* null object on destroy (plan_destroy) */
  Value config;              /* null object on destroy */
  ProvBytes prior_private;
} ProvPlanReq;
typedef struct ProvPlanResp {
  Value planned_state;
  const ValPath *requires_replace;
  uint32_t nrequires_replace;
  ProvBytes planned_private;
  bool legacy_type_system;
} ProvPlanResp;

typedef struct ProvApplyReq {
  const char *type_name;
  Value prior_state;         /* null object on create */
  Value planned_state;       /* null object on delete */
  Value config;              /* null object on delete */
  ProvBytes planned_private;
  /* Derived by the engine from the state lineage, the instance address and
  ** the planned change (stmgr intents); remote providers send it as the
  ** Idempotency-Key header.  NULL: none (the provider makes one per call). */
  const char *idempotency_key;
} ProvApplyReq;
typedef struct ProvApplyResp {
  Value new_state;           /* null object after delete */
  ProvBytes private_data;
  bool legacy_type_system;
  bool answer_lost;          /* no answer arrived though the call may have
                                acted (every attempt dropped, timed out or
                                answered 502/503/504): a create may exist,
                                so the engine keeps its intent open */
} ProvApplyResp;

typedef struct ProvImported {
  const char *type_name;
  Value state;
  ProvBytes private_data;
} ProvImported;

typedef struct ProvImportReq {
  const char *type_name;
  const char *id;            /* the user's import ID string */
} ProvImportReq;
typedef struct ProvImportResp {
  const ProvImported *imported;
  uint32_t nimported;
} ProvImportResp;

/* MoveResourceState (Terraform 1.8+): a `moved` block across resource
** types asks the target resource's provider to turn the source object
** into an object of the target type. */
typedef struct ProvMoveReq {
  const char *source_provider;   /* fully-qualified source provider address
                                    ("registry.terraform.io/hashicorp/null") */
  const char *source_type;       /* "null_resource" */
  int64_t source_schema_version;
  const char *source_json;       /* the source object's attributes JSON */
  size_t source_len;
  ProvBytes source_private;
  const char *target_type;       /* a resource type of this provider */
} ProvMoveReq;
typedef struct ProvMoveResp {
  Value target_state;            /* of the target type's implied type */
  ProvBytes target_private;
} ProvMoveResp;

typedef struct ProvReadDataReq {
  const char *type_name;
  Value config;
} ProvReadDataReq;
typedef struct ProvReadDataResp {
  Value state;               /* non-null and wholly known on success */
} ProvReadDataResp;

/* CallFunction.  args holds one value per argument in call order: the
** positional parameters, then each variadic argument on its own (as
** Terraform sends them), already converted to the parameter types and
** checked against allow_null_value / allow_unknown_values by the core. */
typedef struct ProvCallFuncReq {
  const char *name;
  const Value *args;
  uint32_t nargs;
} ProvCallFuncReq;
/* The answer: result (of the declared return type) or, on failure, error
** (protocol FunctionError.text) with error_arg the index into args of the
** argument at fault, or -1 when the error is about no one argument.
** Transport failures (the provider could not be asked) go to c->diags and
** leave error NULL and result absent (type == NULL). */
typedef struct ProvCallFuncResp {
  Value result;
  const char *error;         /* NULL on success; in c->arena */
  int64_t error_arg;         /* -1: none */
} ProvCallFuncResp;

/* OpenEphemeralResource: config is wholly known (the core does not open
** a resource whose configuration is unknown: its result is then unknown,
** as Terraform defers it).  result is an object of the type's implied
** type; private_data goes back to the provider in Renew and Close. */
typedef struct ProvOpenEphReq {
  const char *type_name;
  Value config;
} ProvOpenEphReq;
typedef struct ProvOpenEphResp {
  Value result;
  ProvBytes private_data;
  int64_t renew_at;          /* unix seconds to renew by; 0: never */
} ProvOpenEphResp;
/* RenewEphemeralResource and CloseEphemeralResource. */
typedef struct ProvEphReq {
  const char *type_name;
  ProvBytes private_data;
} ProvEphReq;
typedef struct ProvRenewEphResp {
  ProvBytes private_data;
  int64_t renew_at;
} ProvRenewEphResp;

/* The ephemeral-resource entries of a provider's vtable (ProvOps.eph):
** NULL for a provider without ephemeral resources; the prov_*_ephemeral
** wrappers below then refuse with a clear error.  renew and close may be
** NULL (nothing to do). */
typedef struct Prov Prov;
typedef struct ProvEphOps {
  void (*validate)(Prov *p, ProvCall *c, const char *type_name, Value config);
  void (*open)(Prov *p, ProvCall *c, const ProvOpenEphReq *req,
               ProvOpenEphResp *resp);
  void (*renew)(Prov *p, ProvCall *c, const ProvEphReq *req,
                ProvRenewEphResp *resp);
  void (*close)(Prov *p, ProvCall *c, const ProvEphReq *req);
} ProvEphOps;

/* InvokeAction (protocol 5.10/6.10; ProvBuiltin.invoke_action): config
** conforms to the action's
** schema and is wholly known.  The provider reports progress messages
** through progress (on the calling thread, in order) and failures as
** error diagnostics in c->diags. */
typedef struct ProvInvokeReq {
  const char *type_name;
  Value config;                /* plan: may hold unknowns */
  bool plan;                   /* PlanAction: the provider's plan-time
                                  checks only, nothing is run */
  void (*progress)(void *ctx, const char *message);
  void *progress_ctx;
} ProvInvokeReq;

/* The vtable.  Every entry but call_function and move_resource_state is mandatory (use the
** prov_default_* helpers below where a provider has nothing to do).  `type_name` arguments are
** known to the schema: the engine never asks for a type the provider did
** not list. */
typedef struct ProvOps {
  void (*get_schema)(Prov *p, ProvCall *c, const ProvProviderSchema **out);
  void (*validate_provider_config)(Prov *p, ProvCall *c, Value config);
  void (*validate_resource_config)(Prov *p, ProvCall *c,
                                   const char *type_name, Value config);
  void (*validate_data_resource_config)(Prov *p, ProvCall *c,
                                        const char *type_name, Value config);
  void (*upgrade_resource_state)(Prov *p, ProvCall *c,
                                 const ProvUpgradeReq *req,
                                 ProvUpgradeResp *resp);
  void (*configure)(Prov *p, ProvCall *c, const ProvConfigureReq *req);
  void (*read_resource)(Prov *p, ProvCall *c, const ProvReadReq *req,
                        ProvReadResp *resp);
  void (*plan_resource_change)(Prov *p, ProvCall *c, const ProvPlanReq *req,
                               ProvPlanResp *resp);
  void (*apply_resource_change)(Prov *p, ProvCall *c,
                                const ProvApplyReq *req,
                                ProvApplyResp *resp);
  void (*import_resource_state)(Prov *p, ProvCall *c,
                                const ProvImportReq *req,
                                ProvImportResp *resp);
  void (*read_data_source)(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                           ProvReadDataResp *resp);
  /* StopProvider: returns an error text, or NULL (allocated in c->arena). */
  const char *(*stop)(Prov *p, ProvCall *c);
  /* Releases the instance's resources (not a protocol call). */
  void (*close)(Prov *p);
  /* CallFunction of a function listed in the schema.  The one optional
  ** entry (last, so positional initialisers stay valid): NULL means
  ** prov_default_call_function, so providers without functions need not
  ** name it; callers go through prov_call_function().
  ** Called during validate and plan, possibly before configure (Terraform
  ** calls functions on unconfigured providers), from any thread. */
  void (*call_function)(Prov *p, ProvCall *c, const ProvCallFuncReq *req,
                        ProvCallFuncResp *resp);
  /* MoveResourceState; the one optional entry: NULL means the provider
  ** supports no cross-type moves (prov_move_resource_state then gives
  ** the default refusal).  HTTPS providers leave it NULL; plugins answer
  ** it themselves (or "Unsupported plugin method" when they are older). */
  void (*move_resource_state)(Prov *p, ProvCall *c, const ProvMoveReq *req,
                              ProvMoveResp *resp);
  /* Ephemeral resources (optional, NULL: none; see ProvEphOps). */
  const ProvEphOps *eph;
} ProvOps;

/* One provider instance (one `provider` configuration, alias included). */
struct Prov {
  const ProvOps *ops;
  const char *addr;       /* fully-qualified source address */
  void *impl;             /* implementation state */
  Arena *arena;           /* instance-lifetime memory (impl, schema) */
  atomic_bool stopping;   /* set by StopProvider; long calls poll it */
};

/* ---- Provider functions for the evaluator (provider_fn.c) -------------- */

/* A provider function as an FnDef (lang/funcs.h) that fn_call runs like
** a built-in, calling p through prov_call_function.  def comes first:
** fn_call hands the FnDef back to the implementation as FnCall.def. */
typedef struct ProvFnDef {
  FnDef def;
  const ProvFunction *f;
  Prov *p;               /* the instance called (Terraform: unconfigured) */
} ProvFnDef;

/* Builds the definition of f of p, named full_name
** ("provider::local::direxists", the name messages show), in a.  Errors of
** a call come back as Terraform shows them: a FunctionError with an
** argument as "Invalid value for \"path\" parameter: TEXT.", others as
** "Call to function \"NAME\" failed: TEXT."; an argument with a nested
** unknown for a parameter without allow_unknown_values gives an unknown
** result without calling.  f and p must outlive the definition. */
const FnDef *prov_fn_def(Arena *a, const char *full_name,
                         const ProvFunction *f, Prov *p);

/* ---- Built-in providers ------------------------------------------------ */

typedef struct ProvBuiltin {
  const char *addr;       /* fully-qualified source address */
  const char *type;       /* provider type ("null") */
  const ProvOps *ops;
  /* Prepares p->impl; NULL when the provider keeps no state. */
  void (*open)(Prov *p);
  /* Actions (docs/actions.md): only built-in providers invoke them, so
  ** the entry lives here rather than in ProvOps; NULL: none. */
  void (*invoke_action)(Prov *p, ProvCall *c, const ProvInvokeReq *req);
} ProvBuiltin;

/* Each built-in's registration (core/prov_<name>.c). */
extern const ProvBuiltin prov_terraform_builtin;

/* data "terraform_remote_state" with a backend other than "local" asks
** this reader (the CLI registers one: core/ knows no network): the state
** of workspace ws of the backend type with configuration cfg (an object
** or map, as written).  *found false when the backend has no state.
** false with diagnostics on a configuration error or a failed read.
** NULL (the default): only "local" is available. */
typedef bool (*ProvRemoteStateFn)(Arena *a, const char *backend, Value cfg,
                                  const char *ws, const char **data,
                                  size_t *len, bool *found, Diags *d);
void prov_terraform_set_remote_reader(ProvRemoteStateFn fn);

/* data "http" (prov_http.c) makes its request through this fetcher, which
** the CLI registers (net/fetch.c: core/ knows no network).  NULL (the
** default): the data source fails with a diagnostic.  The request is the
** upstream provider's model, checked; the fetcher follows upstream's
** transport rules (docs/providers.md, ### http) and fills the response:
** everything in a; fail says what went wrong, err is the Go-like error
** text the diagnostic shows ("GET URL giving up after 1 attempt(s): ..."). */
typedef struct ProvHttpReq {
  const char *url;
  const char *method;                /* GET, HEAD or POST */
  const char *const *header_names;   /* request_headers, sorted by name */
  const char *const *header_values;
  uint32_t nheaders;
  const char *body;                  /* request_body; NULL: none */
  size_t body_len;
  int64_t timeout_ms;                /* 0: none */
  int64_t retry_max;                 /* retry.attempts (0: no retry) */
  int64_t retry_min_ms, retry_max_ms;  /* go-retryablehttp's waits */
  const char *ca_pem;                /* NULL: the host's trust anchors */
  const char *client_cert_pem, *client_key_pem;  /* NULL: none */
  bool insecure;
  atomic_bool *stopping;             /* the provider's stop flag */
} ProvHttpReq;
typedef enum ProvHttpFail {
  PROV_HTTP_OK = 0,
  PROV_HTTP_FAIL_CA,                 /* ca_cert_pem holds no certificate */
  PROV_HTTP_FAIL_KEYPAIR,            /* client cert/key unusable */
  PROV_HTTP_FAIL_REQUEST,            /* the request cannot be made */
  PROV_HTTP_FAIL_TIMEOUT,            /* request_timeout_ms exceeded */
  PROV_HTTP_FAIL_DO                  /* any other failure */
} ProvHttpFail;
typedef struct ProvHttpResp {
  ProvHttpFail fail;
  const char *err;                   /* when fail != OK */
  long status;
  const char *body;                  /* NUL-terminated */
  size_t len;
  const char *const *header_names;   /* canonical keys, values joined by
                                        ", " as Go's Header map */
  const char *const *header_values;
  uint32_t nheaders;
} ProvHttpResp;
typedef void (*ProvHttpFetchFn)(Arena *a, const ProvHttpReq *rq,
                                ProvHttpResp *rs);
void prov_http_set_fetcher(ProvHttpFetchFn fn);
extern const ProvBuiltin prov_null_builtin;
extern const ProvBuiltin prov_local_builtin;
extern const ProvBuiltin prov_random_builtin;
extern const ProvBuiltin prov_time_builtin;
extern const ProvBuiltin prov_tls_builtin;
/* data "tls_certificate" with `url` asks this fetcher (the CLI registers
** net/tlspeer's: core/ knows no network) for the certificate chain, leaf
** first, that host:port presents in a TLS handshake, verified against
** the host's CAs when verify is set.  false with *err on failure.  NULL
** (the default): url is refused with a diagnostic. */
typedef bool (*ProvTlsFetchFn)(Arena *a, const char *host, const char *port,
                               bool verify, const uint8_t ***ders,
                               size_t **lens, size_t *n, const char **err);
void prov_tls_set_fetcher(ProvTlsFetchFn fn);
/* With an https:// url the chain comes from an HTTP HEAD (then GET) made
** as upstream's http.Client makes it (redirects followed, the chain of
** the final answer), through the provider's proxy block: px->url (with
** username/password) when set, else the environment's HTTPS_PROXY /
** NO_PROXY when px->from_env.  Leaf first, as ProvTlsFetchFn. */
typedef struct ProvTlsProxy {
  const char *url;                  /* NULL: none configured */
  const char *username, *password;  /* NULL: none */
  bool from_env;
} ProvTlsProxy;
typedef bool (*ProvTlsHttpsFn)(Arena *a, const char *url, bool verify,
                               const ProvTlsProxy *px, const uint8_t ***ders,
                               size_t **lens, size_t *n, const char **err);
void prov_tls_set_https_fetcher(ProvTlsHttpsFn fn);
extern const ProvBuiltin prov_external_builtin;
extern const ProvBuiltin prov_cloudinit_builtin;
extern const ProvBuiltin prov_http_builtin;
extern const ProvBuiltin prov_archive_builtin;
#ifdef CAIRN_TEST
extern const ProvBuiltin prov_test_builtin;
#endif

/* The built-in named by a source address in any accepted form ("null",
** "hashicorp/null", "registry.terraform.io/hashicorp/null", any case, also
** registry.opentofu.org), or NULL. */
const ProvBuiltin *prov_lookup_builtin(const char *source);
/* The built-ins, in a stable order; *n receives the count. */
const ProvBuiltin *const *prov_builtins(size_t *n);

/* Opens an instance of built-in b; memory from a (instance lifetime). */
Prov *prov_open_builtin(Arena *a, const ProvBuiltin *b);
/* Calls ops->close. */
void prov_close(Prov *p);

/* ---- Source addresses --------------------------------------------------- */

/* Normalises a provider source address to Terraform's fully-qualified form
** ("registry.terraform.io/hashicorp/null"): one part is a type in the
** hashicorp namespace (except "terraform", the built-in), two parts
** namespace/type, three host/namespace/type; lower-cased.  On a malformed
** address appends "Invalid provider source string" to d (subject rng may
** be NULL) and returns NULL.  Result in a. */
const char *prov_source_normalize(Arena *a, const char *source,
                                  const SrcRange *rng, Diags *d);
/* The provider type a resource type implies: the part before the first
** underscore ("null_resource" -> "null"), in a. */
const char *prov_implied_type(Arena *a, const char *resource_type);

/* ---- Helpers for implementations ------------------------------------- */

/* Appends a diagnostic about the attribute at path (may have n == 0) and
** records the path in c->paths. */
Diag *prov_diag_attr(ProvCall *c, DiagSeverity sev, ValPath path,
                     const char *summary, const char *detail_fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The recorded attribute path of g, or NULL. */
const ValPath *prov_diag_path(const ProvCall *c, const Diag *g);
/* A one-step path .name (name must outlive the path). */
ValPath prov_path_attr(Arena *a, const char *name);

/* The plugin framework's deprecation warning, as its ValidateResourceConfig
** gives it: "Attribute Deprecated" with the attribute's
** deprecation_message, on its path, for every top-level attribute of b
** marked PROV_DEPRECATED whose value in config is known and not null. */
void prov_warn_deprecated(ProvCall *c, const ProvBlockSchema *b, Value config);

/* Defaults for vtable entries with nothing to do. */
void prov_default_validate(Prov *p, ProvCall *c, Value config);
void prov_default_validate_type(Prov *p, ProvCall *c, const char *type_name,
                                Value config);
void prov_default_configure(Prov *p, ProvCall *c,
                            const ProvConfigureReq *req);
/* Calls p's move_resource_state, or when it has none refuses the move
** with the plugin framework's "Unable to Move Resource State" (what a
** provider without state moves answers). */
void prov_move_resource_state(Prov *p, ProvCall *c, const ProvMoveReq *req,
                              ProvMoveResp *resp);

/* The ephemeral-resource calls through p->ops->eph.  Without them (a
** provider that lists no ephemeral types, or a protocol that cannot carry
** them) open gives "Ephemeral resources not supported": "The provider
** ADDR does not support ephemeral resource type "T"."; validate, renew
** and close then do nothing. */
void prov_validate_ephemeral(Prov *p, ProvCall *c, const char *type_name,
                             Value config);
void prov_open_ephemeral(Prov *p, ProvCall *c, const ProvOpenEphReq *req,
                         ProvOpenEphResp *resp);
void prov_renew_ephemeral(Prov *p, ProvCall *c, const ProvEphReq *req,
                          ProvRenewEphResp *resp);
void prov_close_ephemeral(Prov *p, ProvCall *c, const ProvEphReq *req);
/* ProvEphOps.open of an ephemeral type that is its data source twin
** (same name and schema): ReadDataSource's state is the result. */
void prov_open_ephemeral_as_data(Prov *p, ProvCall *c,
                                 const ProvOpenEphReq *req,
                                 ProvOpenEphResp *resp);

/* ImportResourceState for types without import: Terraform's
** "Resource Import Not Implemented" error. */
void prov_default_import(Prov *p, ProvCall *c, const ProvImportReq *req,
                         ProvImportResp *resp);
/* ReadDataSource for providers without data sources (the engine never
** asks: validation refuses unknown types first). */
void prov_default_read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                            ProvReadDataResp *resp);
/* CallFunction for providers without functions: the function error
** "provider has no functions" (the engine refuses unknown names before it
** asks, so only a misbehaving caller sees it). */
void prov_default_call_function(Prov *p, ProvCall *c,
                                const ProvCallFuncReq *req,
                                ProvCallFuncResp *resp);
/* Calls p->ops->call_function, or the default when it is NULL.  resp is
** reset first (result absent, error NULL, error_arg -1). */
void prov_call_function(Prov *p, ProvCall *c, const ProvCallFuncReq *req,
                        ProvCallFuncResp *resp);
/* Sets the stopping flag; returns NULL. */
const char *prov_default_stop(Prov *p, ProvCall *c);
void prov_default_close(Prov *p);

/* Decodes a state's attributes JSON against block b's implied type (cty
** JSON: dynamic attributes as {"value":..,"type":..}); attributes the
** schema does not have are dropped, missing ones are null.  For
** UpgradeResourceState of in-process providers.  Errors go to c->diags
** as "Invalid resource state upgrade"; returns false then. */
bool prov_decode_state(ProvCall *c, const ProvBlockSchema *b,
                       const char *json, size_t len, Value *out);

/* ---- Planning helpers (the plugin framework's behaviour) --------------- */

/* planned with every top-level computed attribute whose planned and
** config values are both null set to unknown (the framework's
** MarkComputedNilsAsUnknown, used when a resource is created or changes;
** on update the proposed state already carries the prior values).  Pass
** config with schema defaults applied.  Attributes named in keep (a
** NULL-terminated list, may be NULL) keep the prior value instead
** (UseStateForUnknown) when prior is not null. */
Value prov_unknown_computed(Arena *a, const ProvBlockSchema *b, Value prior,
                            Value planned, Value config,
                            const char *const *keep);
/* True when prior is a non-null object whose attribute name differs from
** planned's (RequiresReplace: unknown counts as different). */
bool prov_attr_changed(Value prior, Value planned, const char *name);
/* The null and random providers' RequiresReplaceIfValuesNotNull for a
** map(string) argument: true when config differs from the prior value
** other than by keys whose value is null (state written by the old SDK
** dropped those). */
bool prov_map_replace_if_values_not_null(Value prior, Value config);
/* Appends .name to resp->requires_replace (memory from c->arena). */
void prov_requires_replace(ProvCall *c, ProvPlanResp *resp,
                           const char *name);

/* Fills buf with n bytes from the OS (getrandom(2); up to 64 bytes from a
** per-thread buffer of them, each byte used once); never fails (aborts if
** the kernel cannot supply entropy, which cannot happen after boot). */
void prov_random_bytes(void *buf, size_t n);
/* A random UUID as hashicorp/go-uuid's GenerateUUID formats it:
** 8-4-4-4-12 lower-case hex of 16 random bytes (no version bits). */
const char *prov_random_uuid(Arena *a);

/* UUID encodings (prov_random.c): the canonical lower-case 8-4-4-4-12
** form of u; google/uuid's Parse (36 characters, {...}, urn:uuid:..., or
** 32 hex digits) returning NULL or its error text ("invalid UUID length:
** 7"); and RFC 9562's version 7 layout: the 48-bit big-endian Unix time
** in milliseconds, version 7 and variant 10 written over u. */
const char *prov_uuid_string(Arena *a, const uint8_t u[16]);
const char *prov_uuid_parse(Arena *a, const char *s, uint8_t u[16]);
void prov_uuid7_stamp(uint8_t u[16], int64_t unix_ms);

/* Reads a whole file into a (NUL added).  Returns false with errno set
** (ENOENT when missing, EFBIG above 1 GiB). */
bool prov_read_file(Arena *a, const char *path, const char **data,
                    size_t *len);

/* Base64 (RFC 4648): the standard alphabet, or the URL-safe one; with or
** without '=' padding.  Result NUL-terminated, in a. */
const char *prov_base64_encode(Arena *a, const void *data, size_t n,
                               bool url, bool pad);
/* Decodes like Go's base64.StdEncoding.DecodeString: padding required,
** CR and LF ignored.  Returns false and sets *bad_at to the offending input
** byte's offset on malformed input. */
bool prov_base64_decode(Arena *a, const char *s, size_t n, uint8_t **out,
                        size_t *outlen, size_t *bad_at);

/* ---- Go's time package, as the time provider needs it (prov_time.c) ---- */

/* An instant and the fixed zone offset it was written with (Go keeps the
** offset of a parsed RFC 3339 time and formats and splits in it). */
typedef struct ProvTime {
  int64_t unix;          /* seconds since the epoch (sub-seconds dropped) */
  int32_t offset;        /* seconds east of UTC */
} ProvTime;
typedef struct ProvTimeFields {
  int64_t year;
  int month, day, hour, minute, second;
} ProvTimeFields;

/* time.Parse(time.RFC3339, s).  On failure *err is Go's error text (in a)
** and false is returned. */
bool prov_time_parse(Arena *a, const char *s, ProvTime *out,
                     const char **err);
/* t.Format(time.RFC3339), in a. */
const char *prov_time_format(Arena *a, ProvTime t);
/* The calendar fields of t in its own offset. */
void prov_time_fields(ProvTime t, ProvTimeFields *f);
/* t.AddDate(years, months, days): normalised as time.Date does. */
ProvTime prov_time_add_date(ProvTime t, int64_t years, int64_t months,
                            int64_t days);
/* time.ParseDuration: nanoseconds; false with Go's error text in *err. */
bool prov_go_duration(Arena *a, const char *s, int64_t *ns,
                      const char **err);

/* ---- Running a program (external, local_command) --------------------- */

/* exec.LookPath: a name with a '/' is used as given once it is an
** executable file; otherwise the first executable PATH entry.  NULL with
** Go's error text in *err ("exec: \"x\": executable file not found in
** $PATH").  Result in a. */
const char *prov_look_path(Arena *a, const char *file, const char **err);

typedef struct ProvRun {
  const char *path;           /* executable, as prov_look_path returned */
  const char *const *argv;    /* NULL-terminated; argv[0] the name given */
  const char *dir;            /* working directory; NULL or "": current */
  const char *in;             /* stdin bytes; NULL: /dev/null */
  size_t inlen;
  char *const *envp;          /* NULL: the process environment */
} ProvRun;
typedef struct ProvRunResult {
  const char *out, *err;      /* stdout and stderr, NUL-terminated, in a */
  size_t outlen, errlen;
  bool started;               /* false: the spawn failed (see error) */
  bool stopped;               /* killed because the provider was stopped */
  int status;                 /* waitpid status when started */
  const char *error;          /* Go's text for the failure: "exit status 1",
                              ** "chdir x: no such file or directory",
                              ** "context canceled"; NULL on success */
} ProvRunResult;
/* Runs r to completion, feeding stdin and collecting both outputs; kills
** the process (SIGKILL, as exec.CommandContext) when p->stopping is set.
** The child gets the process environment.  Memory from a. */
void prov_run(Arena *a, Prov *p, const ProvRun *r, ProvRunResult *res);
/* Go's exec.Cmd.String(): path and arguments joined by spaces, in a. */
const char *prov_cmd_string(Arena *a, const ProvRun *r);

/* Object attribute helpers: value of attribute name of an object (null
** of dynamic when absent), and a copy of obj with attribute name set. */
Value prov_get(Value obj, const char *name);
Value prov_set(Arena *a, Value obj, const char *name, Value v);
/* An object of block b's top-level attributes taken from src by name
** (absent ones null), in a: an ephemeral resource's result built from
** the object its managed or data twin produced. */
Value prov_object_of(Arena *a, const ProvBlockSchema *b, Value src);

#endif
