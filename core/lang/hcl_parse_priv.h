/*
** hcl_parse_priv: private to the native-syntax parser (hcl_parse.c,
** hcl_parse_expr.c, hcl_parse_tmpl.c, hcl_parse_body.c); nothing else
** includes it.  The parser is one recursive descent split by grammar
** level: expressions contain templates and (through for expressions and
** objects) nothing else, templates contain expressions, bodies contain
** both.  It shares the parser state P, the peeker (inline: the grammar
** peeks several times per token), recovery, vectors, node construction
** and the entry point of each level.
*/
#ifndef CAIRN_HCL_PARSE_PRIV_H
#define CAIRN_HCL_PARSE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hcl.h"
#include "hcl_lex.h"

typedef struct Tok {
  HclTokenKind k;
  SrcRange r;
  const char *s;           /* text */
  uint32_t len;
} Tok;

typedef struct P {
  Arena *a;                /* the tree */
  Arena *s;                /* temporaries (vectors under construction),
                              rewound after each top-level body item */
  Arena top;               /* the file body's vectors while they grow (they
                              outlive items); released after the parse */
  const char *file;
  const char *src;         /* text of byte offset `base` */
  uint32_t base;
  /* Tokens come from the scanner in batches straight into a ring holding
  ** the previous token (for ranges) through the furthest one looked at. */
  HclLexer *lx;
  HclToken *ring;
  uint32_t rmask;          /* ring capacity - 1 (a power of two) */
  uint32_t hi;             /* tokens produced so far */
  bool eof;                /* the scanner has produced its EOF token */
  uint32_t next;           /* index of the next token to read */
  uint8_t *nl;             /* include-newlines stack */
  uint32_t nnl, nlcap;
  bool inc;                /* top of the include-newlines stack */
  bool recovery;
  int depth;
  bool too_deep;           /* reported "Nesting too deep" already */
  Diags *d;                /* parser diagnostics */
  Diags lexd;              /* scanner diagnostics (reported first) */
  /* The last peek, reused while neither position nor newline mode moved
  ** (the grammar peeks several times per token): pc_next is UINT32_MAX
  ** while nothing is cached. */
  bool pc_inc;
  uint32_t pc_next, pc_after;
  Tok pc_tok;
} P;

/* ---- Peeker (hcl_parse.c) ------------------------------------------------ */

/* Fills the peek cache with the next significant token and the index
** after it (peeker.nextToken): comments vanish, but a line comment stands
** for its newline when newlines matter. */
void hcl_peek_fill(P *p);

/* The next significant token, from the cache when it is still valid. */
static inline const Tok *hcl_peek_ref(P *p)
{
  if (p->pc_next != p->next || p->pc_inc != p->inc)
    hcl_peek_fill(p);
  return &p->pc_tok;
}

static inline Tok hcl_peek(P *p) { return *hcl_peek_ref(p); }

static inline HclTokenKind hcl_peek_k(P *p) { return hcl_peek_ref(p)->k; }

static inline Tok hcl_rd(P *p)
{
  const Tok *t = hcl_peek_ref(p);
  p->next = p->pc_after;
  return *t;
}

/* Consumes the next token without looking at it. */
static inline void hcl_skip(P *p)
{
  hcl_peek_ref(p);
  p->next = p->pc_after;
}


/* Newline mode: newlines are tokens (inc) or skipped; pushed around
** brackets, popped when they close. */
void hcl_push_nl(P *p, bool inc);
void hcl_pop_nl(P *p);

/* Range of the next token; of the token just read. */
SrcRange hcl_next_range(P *p);
SrcRange hcl_prev_range(P *p);
/* From the start of a to the end of b. */
SrcRange hcl_between(SrcRange a, SrcRange b);
/* r copied into the tree's arena. */
SrcRange *hcl_rp(P *p, SrcRange r);
/* Appends an error with subject and optional context (hcl.Diagnostic). */
Diag *hcl_err(P *p, SrcRange subj, const SrcRange *ctx, const char *sum,
              const char *detail);
/* hcl.Range.String() */
const char *hcl_range_str(P *p, SrcRange r);

/* ---- Recovery (hcl_parse.c) ---------------------------------------------- */

/* The closing bracket of an opening one, and back. */
HclTokenKind hcl_opposite(HclTokenKind k);
/* Skips to just after the `end` that closes the current construct. */
Tok hcl_recover_to(P *p, HclTokenKind end);
/* Skips to `start`, then over the construct it opens. */
void hcl_recover_over(P *p, HclTokenKind start);
/* Skips past the newline that ends the current body item (or to EOF),
** over any brackets opened on the way. */
void hcl_recover_after_body_item(P *p);

/* ---- Vectors and nodes (hcl_parse.c) ------------------------------------- */

/* Pointers under construction, in scratch memory. */
typedef struct Vec {
  void **p;
  uint32_t n, cap;
} Vec;

void hcl_vpush(Arena *a, Vec *v, void *x);
/* Copies a finished vector into the tree's arena, exactly sized. */
void *hcl_vcopy(Arena *a, const void *src, size_t size, size_t align,
                uint32_t n);
#define HCL_VFINAL(p, v, T) \
  ((T *)hcl_vcopy((p)->a, (v).p, sizeof(T), _Alignof(T), (v).n))

/* A node of kind k allocated without the unused tail of its union. */
HclExpr *hcl_new_expr(P *p, HclExprKind k, SrcRange r);
/* An unknown literal standing in for an expression that failed. */
HclExpr *hcl_placeholder(P *p, SrcRange r);
HclExpr *hcl_lit(P *p, Value v, SrcRange r);
/* The token's text copied into the tree's arena. */
const char *hcl_tok_str(P *p, Tok t);
/* An identifier token spelling kw. */
bool hcl_tok_is(Tok t, const char *kw);
/* Errors were added since the count e0 was taken. */
bool hcl_errs_since(const P *p, int e0);
/* An empty range at pos. */
SrcRange hcl_empty_at(SrcPos pos, const char *file);

/* ---- Grammar levels ------------------------------------------------------ */

/* hcl_parse_expr.c: parseExpression; and the nesting check every
** recursion passes through (false: too deep, already reported). */
HclExpr *hcl_p_expression(P *p);
bool hcl_p_enter(P *p);

/* hcl_parse_tmpl.c: parseQuotedStringLiteral (a string without template
** sequences, for labels); parseTemplateInner: the template (or wrap)
** expression over the tokens up to `end`. */
const char *hcl_p_quoted_string(P *p, SrcRange *range);
HclExpr *hcl_p_template_inner(P *p, HclTokenKind end, bool flush,
                              SrcRange outer, bool use_outer);

/* hcl_parse_body.c: a body up to `end` (EOF or a closing brace). */
HclBody *hcl_p_body(P *p, HclTokenKind end);

#endif
