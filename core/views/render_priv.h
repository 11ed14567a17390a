/*
** render_priv: private to the render module (core/views/render*.c): the
** types and functions its pieces share.  Nothing outside render*.c
** includes this header.
**
** Two passes, as jsonformat does: the differ (render_diff.c, cd_*) turns
** a before/after pair plus schema into a tree of Diff nodes, each with an
** action that depends on its children; the drawers (render_draw.c, rd_*)
** walk that tree.  The Chg struct mirrors jsonformat's structured.Change:
** Terraform works on the JSON plan, where an unknown after value is absent
** (null) with a true in after_unknown, and a sensitive one has a true in
** before/after_sensitive; here those facts are read off the values' flags.
** render_text.c holds the text primitives, render_plan.c and
** render_show.c the entry points of render.h.
**
** Memory: everything lives in R's scratch arena (render_init), released
** by the entry point that created it.
*/
#ifndef CAIRN_RENDER_PRIV_H
#define CAIRN_RENDER_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render.h"

/* The render context. */
typedef struct R {
  Arena *a;          /* scratch: diff trees, temporary text */
  bool color;
  const char *tool;
  int width;
  bool automation;
} R;

/* ---- render_text.c ------------------------------------------------------ */

/* Sets up r from o (NULL: defaults) with a's scratch arena, which the
** caller initialises here and releases when done. */
void render_init(R *r, Arena *a, const RenderOpts *o);
/* colorstring.Colorize.Color with Reset: known [tags] become escape codes
** (or vanish without colour); a reset is appended when any tag was seen. */
void render_col(const R *r, Buf *o, const char *s);
/* Terraform's sentences with "Terraform"/"terraform" replaced by the tool
** name, then coloured. */
void render_colt(const R *r, Buf *o, const char *s);
/* n levels of four spaces. */
void render_indent_to(Buf *o, int n);
/* render_wrap at r's width, after render_colt. */
void render_wrapt(const R *r, Buf *o, const char *s);
/* The horizontal rule between the drift section and the plan. */
void render_hrule(const R *r, Buf *o);
/* name as an attribute name: bare when a valid identifier, else quoted;
** the result may live in r's arena. */
const char *render_attr_name(const R *r, const char *name);
/* Go's %q of s[0..n) in r's arena. */
const char *render_quoted(const R *r, const char *s, size_t n);
/* %-*s: pads by characters to width (a byte length, as Go's callers
** measure it). */
void render_put_padded(Buf *o, const char *s, size_t width);

/* ---- render_diff.c: the change view and the diff tree ------------------- */

/* ---- Replace-path matcher (attribute_path.PathMatcher, no propagate) -- */

typedef struct Matcher {
  const ValPath *p;      /* suffixes of the replace paths still in play */
  uint32_t n;
} Matcher;

/* ---- The change view (structured.Change) ------------------------------- */

typedef struct Chg {
  Value b, a;            /* type == NULL: slot absent */
  bool bexp, aexp;       /* explicit: the slot exists */
  bool bsens, asens;     /* sensitive at this level */
  bool unknown;          /* the after value is unknown */
  bool child_unknown;    /* CheckForUnknown's childUnknown: every child
                            attribute counts as unknown */
  bool nonlegacy;
  Matcher rp;
} Chg;

/* ---- Diff tree ---------------------------------------------------------- */

typedef enum DKind {
  DK_PRIM, DK_UNKNOWN, DK_SENS, DK_SENSBLOCK, DK_WO, DK_TYPECHG,
  DK_LIST, DK_SET, DK_MAP, DK_OBJECT, DK_BLOCK
} DKind;

typedef struct Diff Diff;

typedef struct BGroup {
  const char *name;
  ProvNesting nest;
  Diff **el;
  const char **keys;     /* MAP nesting */
  uint32_t n;
  bool replace, bsens, asens, unknown;
} BGroup;

struct Diff {
  DKind kind;
  PlAction action;       /* NOOP, CREATE, UPDATE, DELETE */
  bool replace;
  /* DK_PRIM: the values (absent/null = nil) and the type drawn */
  Value b, a;
  TypeKind ptype;        /* TY_DYNAMIC: JSON null */
  /* DK_UNKNOWN (inner may be NULL), DK_SENS, DK_SENSBLOCK; DK_TYPECHG
  ** uses inner (before) and other (after) */
  Diff *inner, *other;
  bool bsens, asens;
  /* collections and blocks */
  Diff **el;
  const char **keys;     /* map keys / object and block attribute names */
  uint32_t n;
  bool context;          /* list: show context (List, not NestedList) */
  bool nested;           /* NestedMap/NestedSet/NestedObject flavours */
  BGroup *groups;
  uint32_t ngroups;
};

/* A before/after pair with its marks read off the values' flags; rp the
** replace paths still in play.  Not explicit (bexp/aexp false). */
Chg render_chg_make(Value b, Value a, Matcher rp);
/* c with both sides taken as the before value (nothing changes). */
Chg render_chg_as_noop(Chg c);
/* A new node in r's arena. */
Diff *render_diff_new(const R *r, DKind k, PlAction act, bool replace);

/* Called per step of a slice walk: bi or ai is the other side's length
** when the element exists on one side only. */
typedef void (*SliceFn)(const R *r, void *ctx, int64_t bi, int64_t ai);
/* Whether xs[i] and ys[j] match. */
typedef bool (*EqFn)(const R *r, const void *xs, uint32_t i, const void *ys,
                     uint32_t j);
/* collections.ProcessSlice, walking the LCS by position: fn is called for
** each removed, added and matched element in order; xobj/yobj (may be
** NULL) mark elements that pair up as an update when both are objects. */
void render_process_slice(const R *r, const void *xs, uint32_t nx,
                          const void *ys, uint32_t ny, EqFn eq,
                          const bool *xobj, const bool *yobj, SliceFn fn,
                          void *ctx);

/* The diff of a change of a value of type t. */
Diff *render_cd_type(const R *r, Chg c, const Type *t);
/* The diff of a change of JSON-typed values (outputs, dynamic values). */
Diff *render_cd_json(const R *r, Chg c);
/* The diff of a change of a block with schema b. */
Diff *render_cd_block(const R *r, Chg c, const ProvBlockSchema *b);
/* A schema built from a value's type, for changes without a schema: every
** attribute typed as the value says (or dynamic when the sides differ). */
const ProvBlockSchema *render_generic_schema(const R *r, Value b, Value a);

/* ---- render_draw.c ------------------------------------------------------ */

typedef struct ROpts {
  bool no_null_suffix;   /* OverrideNullSuffix */
  bool force_replace;    /* ForceForcesReplacement (not inherited) */
  bool forbid_replace;   /* ForbidForcesReplacement (not inherited) */
  bool show_unchanged;   /* ShowUnchangedChildren */
  bool hide_symbols;     /* HideDiffActionSymbols */
} ROpts;

/* The action symbol's colour markup ("  [green]+[reset]", ...). */
const char *render_sym_markup(PlAction a);
/* Draws d at indent ind (in levels) with options op. */
void render_rd(const R *r, Buf *o, const Diff *d, int ind, ROpts op);

/* ---- render_action.c ---------------------------------------------------- */

/* The actions p invokes before and after change c (appended after its
** block). */
void render_invokes_of(const R *r, Buf *o, const Plan *p, const PlChange *c);
/* The -invoke section ("Terraform will invoke the following action(s):"),
** nothing when p has none. */
void render_invokes_cli(const R *r, Buf *o, const Plan *p);

#endif
