/*
** state: the in-memory resource state and Terraform's state file format v4.
**
** A State holds what `terraform.tfstate` holds: terraform_version, serial,
** lineage, root outputs, resources (each with its module instance address,
** mode, type, name, provider configuration string and instances), and the
** check results (kept as parsed JSON and written back unchanged).  An
** instance has an optional current object and any number of deposed
** objects, each with an 8-hex-digit deposed key.
**
** Scale: the model is built for 100,000 instances.  Everything lives in
** the State's arena; lookups by resource address and by instance key go
** through hash tables (O(1) expected); adding and removing are O(1)
** (removal swaps with the last element and marks the order dirty);
** st_sort() restores Terraform's order in O(n log n) before iteration or
** writing.  Replacing an object allocates the new one in the arena: the
** old one stays until the arena is released, which is fine for the length
** of one command.
**
** Ownership: strings and values given to st_* functions are NOT copied
** unless the function says so; they must live at least as long as the
** State's arena (build them in that arena, or in a longer-lived one).
** st_read() builds everything in the arena it is given.  Functions that
** produce text (st_write, address formatting) append to a caller's Buf.
** Objects (StObject) and their values are never changed in place once
** they are in a state, because st_clone shares them between states:
** to change one (taint, drop dependencies), copy it and set the copy.
**
** Errors: st_read() never crashes on bad input: malformed JSON, wrong
** types, unsupported versions, duplicate instances and oversized input
** each produce a diagnostic naming the file, and *out is left NULL.  The
** caller's file is never touched by this module (see stmgr for I/O).
**
** Terraform facts followed here (statefile/version4.go): resources sorted
** by module, mode ("data" < "managed"), type, name as byte strings;
** instances with no key first, then int keys numerically, then string keys
** bytewise; within one key the current object before deposed objects,
** which sort by deposed key.
*/
#ifndef CAIRN_STATE_H
#define CAIRN_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/value.h"

/* Largest state file st_read() accepts; bigger input gets a diagnostic
** instead of an attempt to parse it. */
#define ST_MAX_FILE_BYTES ((size_t)1 << 30)

typedef enum StMode { ST_MANAGED = 0, ST_DATA = 1 } StMode;

typedef enum StKeyKind { ST_NOKEY = 0, ST_INTKEY = 1, ST_STRKEY = 2 } StKeyKind;

/* An instance key: none (no count/for_each), an int (count) or a string
** (for_each).  s is NUL-terminated and slen excludes the NUL. */
typedef struct StKey {
  StKeyKind kind;
  int64_t i;
  const char *s;
  uint32_t slen;
} StKey;

static inline StKey st_nokey(void)
{
  StKey k = {ST_NOKEY, 0, NULL, 0};
  return k;
}
static inline StKey st_intkey(int64_t i)
{
  StKey k = {ST_INTKEY, i, NULL, 0};
  return k;
}
StKey st_strkey(Arena *a, const char *s, size_t n); /* copies s */
bool st_key_equal(StKey a, StKey b);
/* Terraform's instance order: none < ints (numeric) < strings (bytes). */
int st_key_compare(StKey a, StKey b);

typedef enum StStatus { ST_READY = 0, ST_TAINTED = 1 } StStatus;

/* One object (current or deposed) of a resource instance. */
typedef struct StObject {
  uint64_t schema_version;
  Value attrs;            /* the "attributes" JSON object as parsed by
                             json.h (generic JSON value, number literals
                             kept); VF_NULL when the file had only
                             attributes_flat */
  Value attrs_flat;       /* legacy "attributes_flat" (string map) or
                             VF_NULL; written back when attrs is null */
  const ValPath *sensitive;   /* sensitive_attributes paths */
  uint32_t nsensitive;
  const uint8_t *priv;    /* "private" bytes (decoded from base64) */
  size_t priv_len;        /* 0 = none (key omitted on write) */
  const char *const *deps;    /* dependencies, static resource addresses,
                                 sorted and unique */
  uint32_t ndeps;
  bool create_before_destroy;
  StStatus status;
  bool has_identity;      /* identity present in the file */
  uint64_t identity_schema_version;
  Value identity;         /* identity JSON object (when has_identity) */
} StObject;

typedef struct StDeposed {
  char key[9];            /* 8 lowercase hex digits + NUL */
  StObject *obj;
} StDeposed;

typedef struct StResource StResource;

typedef struct StInstance {
  StKey key;
  StObject *current;      /* NULL when only deposed objects exist */
  StDeposed *deposed;     /* sorted by key */
  uint32_t ndeposed;
  uint32_t cap_deposed;
  StResource *res;        /* owner */
  uint32_t idx;           /* position in res->inst (internal) */
} StInstance;

struct StResource {
  const char *module;     /* module instance address, "" for root, e.g.
                             module.a["x"].module.b */
  StMode mode;
  const char *type;
  const char *name;
  const char *provider;   /* e.g. provider["registry.terraform.io/hashicorp/
                             null"] or with alias suffix .foo */
  const char *addr;       /* full resource address (module prefix, data.
                             prefix, type.name): the lookup key */
  StInstance **inst;      /* instances, in Terraform order after st_sort */
  uint32_t ninst;
  uint32_t cap_inst;
  bool inst_dirty;        /* order needs st_sort */
  uint32_t idx;           /* position in State.res (internal) */
};

typedef struct StOutput {
  const char *name;
  Value value;            /* conforms to type */
  const Type *type;       /* the output's cty type */
  bool sensitive;
} StOutput;

typedef struct StHash StHash;

typedef struct State {
  Arena *arena;
  const char *terraform_version;  /* as read ("" when absent) */
  uint64_t serial;
  const char *lineage;            /* "" until one is assigned */
  StOutput *outputs;              /* sorted by name */
  uint32_t noutputs;
  uint32_t cap_outputs;
  StResource **res;               /* Terraform order after st_sort */
  uint32_t nres;
  uint32_t cap_res;
  bool res_dirty;
  Value check_results;            /* raw JSON array, or VF_NULL */
  StHash *res_index;              /* addr -> resource */
  StHash *inst_index;             /* (resource, key) -> instance */
  uint64_t ninstances;            /* current + deposed objects */
} State;

/* ---- Model ------------------------------------------------------------ */

/* An empty state (serial 0, lineage ""), allocated in a. */
State *st_new(Arena *a);

/* Resource lookup by its parts; NULL when absent. */
StResource *st_find_resource(const State *s, const char *module, StMode mode,
                             const char *type, const char *name);
/* Lookup by the full resource address string ("module.m.null_resource.a",
** "data.x.y"), as st_format_resource produces. */
StResource *st_find_resource_addr(const State *s, const char *addr);
/* Finds or creates the resource; provider is set (replaced) when not NULL.
** Strings are copied into the state's arena. */
StResource *st_ensure_resource(State *s, const char *module, StMode mode,
                               const char *type, const char *name,
                               const char *provider);
/* Removes a resource and all its instances. */
void st_remove_resource(State *s, StResource *r);

StInstance *st_find_instance(const State *s, const StResource *r, StKey key);
StInstance *st_ensure_instance(State *s, StResource *r, StKey key);

/* Room for n more instances, so the tables do not grow (each outgrown
** table stays in the arena): in r's list, or in the instance index when r
** is NULL.  st_read sizes them from the file. */
void st_reserve(State *s, StResource *r, uint32_t n);

/* Sets (obj != NULL) or clears (obj == NULL) the current object.  obj is
** adopted (it must live in the state's arena or longer).  Clearing the last
** object of an instance removes the instance, and removing the last
** instance removes the resource, as Terraform does. */
void st_set_current(State *s, StResource *r, StKey key, StObject *obj);
/* Same for a deposed object with the given 8-hex key. */
void st_set_deposed(State *s, StResource *r, StKey key, const char *dkey,
                    StObject *obj);
StObject *st_get_deposed(const StInstance *i, const char *dkey);
/* Moves the current object to deposed under a fresh random key, which is
** written to dkey_out (9 bytes).  False when there is no current object. */
bool st_depose(State *s, StInstance *i, char dkey_out[9]);
/* v (o's attributes, typed or as stored) with every path of o's
** sensitive_attributes marked sensitive; copies along the paths into a, so
** v is not changed.  A path that does not apply is skipped. */
Value st_mark_sensitive(Arena *a, Value v, const StObject *o);
/* A fresh random deposed key not used by i. */
void st_new_deposed_key(const StInstance *i, char out[9]);

/* Outputs (root module only).  name, value, type are adopted. */
void st_set_output(State *s, const char *name, Value value,
                   const Type *type, bool sensitive);
void st_remove_output(State *s, const char *name);
const StOutput *st_find_output(const State *s, const char *name);

/* Restores Terraform's order of resources, instances and deposed
** objects; call before iterating s->res / r->inst in order. */
void st_sort(State *s);

/* A copy of s in a that can be changed without changing s: the tables
** (resources, instances, deposed lists, outputs, both indices) are new,
** in a; the StObjects, their values and the instance key strings are
** SHARED with s (objects are immutable once in a state: whoever changes
** one puts a changed copy in its place with st_set_current /
** st_set_deposed, never writes into it).  Lifetime: s's arena, and every
** arena an object of s was built in (engine worker arenas, for objects
** the engine adopted), must live at least as long as the clone.  s is
** sorted first (st_sort), as writing it would.  The result is what
** writing s and reading it back would give: instances without objects
** are left out, outputs are typed and unmarked as the file keeps them,
** and the few fields the file cannot hold are normalised (copying just
** that object).  Cost: O(resources + instances), no values copied. */
State *st_clone(Arena *a, const State *s);

/* A new empty object in s's arena (attrs = {}, no paths). */
StObject *st_object_new(State *s);

/* ---- Addresses -------------------------------------------------------- */

/* "[0]" or "[\"k\"]" with Terraform's (HCL) string quoting; nothing for
** no key. */
void st_format_key(Buf *out, StKey key);
/* Resource address: module prefix + optional "data." + type.name */
void st_format_resource(Buf *out, const char *module, StMode mode,
                        const char *type, const char *name);
/* Instance address: resource address + key. */
void st_format_instance(Buf *out, const StResource *r, StKey key);
/* Same, returned as an arena string. */
const char *st_instance_addr(Arena *a, const StResource *r, StKey key);

/* What st_parse_addr accepts. */
typedef enum StAddrKind {
  ST_ADDR_MODULE = 1,     /* module.a[0] (possibly the root: "") */
  ST_ADDR_RESOURCE,       /* resource without key: all its instances */
  ST_ADDR_INSTANCE        /* resource with a key */
} StAddrKind;

typedef struct StAddr {
  StAddrKind kind;
  const char *module;     /* normalised module instance address, "" root */
  StMode mode;
  const char *type;
  const char *name;
  StKey key;              /* ST_ADDR_INSTANCE only */
} StAddr;

/* Parses an address as given on the command line (Terraform's
** addrs.ParseTargetStr rules: "resource." prefix allowed, reserved words
** refused, module keys optional).  Diagnostics use Terraform's summaries
** ("Invalid address", "Invalid address operator", ...).  Strings are
** allocated in a. */
bool st_parse_addr(Arena *a, const char *text, StAddr *out, Diags *d);
/* Parses a module instance address as found in the state's "module" key;
** writes the normalised form to *norm.  False on malformed input. */
bool st_parse_module(Arena *a, const char *text, const char **norm);
/* An address without its instance keys (string keys may hold brackets,
** dots and escaped quotes): module.a["x"].module.b[0].t.n[1] ->
** module.a.module.b.t.n.  Returns addr itself when it has no key. */
const char *st_static_path(Arena *a, const char *addr);
/* True when instance (r, key) is selected by addr (module prefix match for
** ST_ADDR_MODULE, whole resource, or exact instance). */
bool st_addr_matches(const StAddr *addr, const StResource *r, StKey key);

/* ---- File format v4 --------------------------------------------------- */

/* Parses a state file.  name is used in diagnostics.  A 0-byte input
** yields *out == NULL and no diagnostic ("no state").  On any error *out
** is NULL and diagnostics explain.  Everything is built in a. */
bool st_read(Arena *a, const char *name, const char *src, size_t n,
             State **out, Diags *d);

/* Writes s in Terraform's exact layout (json.MarshalIndent, 2 spaces,
** trailing newline), with tf_version as terraform_version (NULL: use
** CAIRN_VERSION) and s->serial / s->lineage as they are.  Sorts s. */
void st_write(Buf *out, State *s, const char *tf_version);

/* The serialized content without version/serial/lineage, for "did the
** state change" comparisons (Terraform's StatesMarshalEqual). */
void st_write_content(Buf *out, State *s);

/* st_write (content false) or st_write_content (content true) without
** building the whole text: it is handed to sink(ctx, p, n) in pieces of
** about 64 KiB, in order (a 100,000-instance state is 68 MB of text).
** Stops as soon as sink returns false, and then returns false.  p is
** valid only during the call.  Sorts s. */
typedef bool (*StSink)(void *ctx, const char *p, size_t n);
bool st_write_stream(State *s, const char *tf_version, bool content,
                     StSink sink, void *ctx);

/* A random lineage in UUID shape (8-4-4-4-12 lowercase hex). */
const char *st_new_lineage(Arena *a);

/* ---- Journal records (used by stmgr) ------------------------------------
** A record is one line of compact JSON.  Encoders append to out; the
** decoder applies a record to s (copying everything into s's arena).
*/
void st_rec_set(Buf *out, const StResource *r, StKey key, const char *dkey,
                const StObject *obj, const char *intent_id);
void st_rec_remove(Buf *out, const StResource *r, StKey key,
                   const char *dkey);
void st_rec_output(Buf *out, const StOutput *o);
void st_rec_output_remove(Buf *out, const char *name);

/* Kinds of records st_rec_apply understands. */
typedef enum StRecKind {
  ST_REC_HEADER = 1,  /* {"journal":1,"lineage":..,"serial":..} */
  ST_REC_SET,
  ST_REC_REMOVE,
  ST_REC_OUTPUT,
  ST_REC_OUTPUT_REMOVE,
  ST_REC_INTENT,
  ST_REC_RESOLVE
} StRecKind;

typedef struct StRecInfo {
  StRecKind kind;
  const char *lineage;    /* header */
  uint64_t serial;        /* header */
  const char *intent_id;  /* intent, resolve, and set (when it resolves) */
  const char *addr;       /* intent: instance address */
  const char *time;       /* intent: RFC 3339 UTC */
  const char *action;     /* intent: "create" ... */
} StRecInfo;

/* Decodes one record; applies SET/REMOVE/OUTPUT records to s when s is
** not NULL.  info receives the kind and the metadata of header, intent and
** resolve records (strings in a).  False, with a diagnostic, when the
** payload is not a valid record. */
bool st_rec_apply(Arena *a, State *s, const char *payload, size_t n,
                  StRecInfo *info, Diags *d);
/* st_rec_apply for a State other threads use: the record is decoded and
** copied into a first, then s is changed while mu (when not NULL) is
** held, with s->arena set to a meanwhile (what the change allocates, such
** as a new resource or instance, goes into a too).  The caller guards a
** itself. */
bool st_rec_apply_mu(Arena *a, State *s, const char *payload, size_t n,
                     StRecInfo *info, pthread_mutex_t *mu, Diags *d);

#endif
