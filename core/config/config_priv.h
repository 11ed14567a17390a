/*
** config_priv: private to the config module (core/config/config*.c).  The
** loader state shared by loading (config.c: files, lookups, the module
** tree) and decoding (config_decode.c: top-level blocks into Cfg*
** structures): the Loader, its array-growing macro and the name index
** that decoding feeds.  Nothing outside core/config/config*.c includes
** this header.
*/
#ifndef CAIRN_CONFIG_PRIV_H
#define CAIRN_CONFIG_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"

/* A required_version constraint and where it was written: checked once
** the module's files (and override files, which replace the list) are
** merged, as Terraform checks the merged module. */
typedef struct CfgVersionReq {
  const char *constraint;
  SrcRange range;
} CfgVersionReq;

typedef struct Loader {
  Arena *a;
  Diags *d;
  CfgModule *m;
  bool override;                 /* decoding an override file: arguments
                                    Terraform requires are optional */
  CfgVersionReq *rv;             /* required_version constraints */
  uint32_t nrv;
  uint32_t cap_vars, cap_locals, cap_outputs, cap_res, cap_calls, cap_prov,
      cap_req, cap_moved, cap_removed, cap_imports, cap_checks, cap_files,
      cap_rv, cap_actions;
} Loader;

/* Name index kinds (see the lookups section of config.c). */
enum { IX_VAR, IX_LOCAL, IX_OUTPUT, IX_RES, IX_CALL, IX_KINDS };

/* Records the newest entry of kind (just pushed) in the loader's module's
** name index (config.c). */
void cfg_ix_add(Loader *L, uint32_t kind);

/* Appends one element to arr (n elements, room for cap), doubling the
** array in L's arena when it is full; yields the new element. */
#define CFG_PUSH(L, arr, n, cap)                                             \
  (((n) == (cap) ? ((arr) = arena_grow((L)->a, (arr), sizeof *(arr),         \
                                       _Alignof(__typeof__(*(arr))), (cap),  \
                                       (cap) ? (cap) * 2 : 8),               \
                    (cap) = (cap) ? (cap) * 2 : 8)                           \
                 : 0),                                                       \
   &(arr)[(n)++])

/* "file:line,col-col" of r, for messages naming a declaration. */
const char *cfg_pos_string(Arena *a, SrcRange r);

/* Decodes the top-level blocks of f into L's module (config_decode.c);
** errors go to L->d. */
void cfg_decode_file(Loader *L, HclFile *f);

/* Checks the required_version constraints collected in L->rv against
** CFG_TERRAFORM_VERSION and records them in the module (config_decode.c). */
void cfg_check_versions(Loader *L);

/* True when name (a file name without .tf / .tf.json) names an override
** file: "override" or "*_override" (config_merge.c). */
bool cfg_is_override_name(const char *base);

/* Merges the module ov, decoded from one override file, into L's module
** as Terraform's Module.mergeFile does; ovl is the override file's loader
** (its required_version list).  Errors go to L->d (config_merge.c). */
void cfg_merge_override(Loader *L, Loader *ovl);

/* ---- shared by config_decode.c and config_action.c ---- */

/* A .tf.json string holding native syntax parsed as such (Terraform's
** unwrapJSONRefExpr); other expressions unchanged; NULL on a parse error
** (in d). */
const HclExpr *cfg_json_native(Loader *L, const HclExpr *e, Diags *d);
/* hcl.ExprList over a native tuple or JSON array; false otherwise. */
bool cfg_expr_list(Loader *L, const HclExpr *e, const HclExpr ***items,
                   uint32_t *n);
/* provider = NAME[.ALIAS] into *r (name NULL on error, diagnosed). */
void cfg_provider_ref(Loader *L, const HclExpr *x, const char *arg,
                      CfgProviderRef *r);
/* hclsyntax.ValidIdentifier. */
bool cfg_valid_identifier(const char *s);

/* Decodes a top-level action block into L's module (config_action.c). */
void cfg_decode_action(Loader *L, const HclBlock *b);
/* Decodes an action_trigger block of r's lifecycle (config_action.c). */
void cfg_decode_action_trigger(Loader *L, CfgResource *r, const HclBlock *b);
/* After the module's files are merged: every action_trigger reference
** names a declared action (config_action.c). */
void cfg_check_action_refs(Loader *L);

#endif
