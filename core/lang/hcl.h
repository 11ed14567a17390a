/*
** hcl: the HCL 2 native syntax (lexer, recursive-descent parser) and the
** HCL JSON syntax, producing ONE abstract syntax tree that the evaluator
** (eval_) and the configuration decoder (cfg_) consume.  See docs/hcl.md.
**
** The tree mirrors hashicorp/hcl's hclsyntax node types one for one, so
** that evaluation can follow HCL's semantics exactly:
**   File -> Body; Body = Attributes and Blocks in source order;
**   expressions as in hclsyntax (literal, template, template wrap,
**   template join, scope/relative traversal, index, call, conditional,
**   binary/unary op, tuple, object, for, splat with its anonymous symbol,
**   parentheses) plus HCL_E_JSON for a value of a .tf.json file.
**
** Contracts:
** - Every node, string and token lives in the arena passed to the parse
**   call; the source text must outlive the tokens (HclToken points into it
**   by offset) but NOT the tree (names and strings are copied).
** - Parsing never fails hard: the result is always a structurally sound
**   tree (placeholders stand in for broken parts) plus diagnostics with
**   HCL's summaries, details and subject ranges.  Bad input never crashes,
**   hangs or goes quadratic: nesting deeper than HCL_MAX_DEPTH gives
**   "Nesting too deep", recursion is bounded by that limit.
** - Ranges: every node has a SrcRange (core/base/diag.h) whose `file` is the
**   file name given to the parse call (copied once).  Columns count
**   Unicode characters (code points; combining marks, ZWJ sequences and
**   variation selectors do not advance, approximating HCL's grapheme
**   clusters).  A UTF-8 BOM is skipped (bytes advance, columns do not).
** - The tree is immutable after parsing and may be shared between threads.
** - An HclExpr is allocated with only the union member its kind uses (a
**   literal takes 64 bytes, not sizeof(HclExpr)): handle expressions by
**   pointer and never copy one by value (`HclExpr x = *e` reads past it).
** - The JSON syntax is interpreted lazily: a .tf.json body only knows
**   which properties are attributes and which are blocks when given a
**   schema (hcl_body_content), exactly like HCL's json.Body.
*/
#ifndef CAIRN_HCL_H
#define CAIRN_HCL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/value.h"

/* Deepest nesting of expressions / blocks / templates accepted: 500 keeps
** the recursive descent (and evaluators walking the tree) within a 2 MiB
** pool-thread stack even under AddressSanitizer. */
#define HCL_MAX_DEPTH 500

/* ---- Tokens (public for `fmt`) ----------------------------------------- */

typedef enum HclTokenKind {
  HCL_TOK_OBRACE,          /* { */
  HCL_TOK_CBRACE,          /* } */
  HCL_TOK_OBRACK,          /* [ */
  HCL_TOK_CBRACK,          /* ] */
  HCL_TOK_OPAREN,          /* ( */
  HCL_TOK_CPAREN,          /* ) */
  HCL_TOK_OQUOTE,          /* " opening a quoted template */
  HCL_TOK_CQUOTE,          /* " closing it */
  HCL_TOK_OHEREDOC,        /* <<EOT or <<-EOT, INCLUDING its newline */
  HCL_TOK_CHEREDOC,        /* the closing marker line, without newline */
  HCL_TOK_STAR,
  HCL_TOK_SLASH,
  HCL_TOK_PLUS,
  HCL_TOK_MINUS,
  HCL_TOK_PERCENT,
  HCL_TOK_EQUAL,           /* = */
  HCL_TOK_EQUAL_OP,        /* == */
  HCL_TOK_NOT_EQUAL,
  HCL_TOK_LESS_THAN,
  HCL_TOK_LESS_THAN_EQ,
  HCL_TOK_GREATER_THAN,
  HCL_TOK_GREATER_THAN_EQ,
  HCL_TOK_AND,             /* && */
  HCL_TOK_OR,              /* || */
  HCL_TOK_BANG,
  HCL_TOK_DOT,
  HCL_TOK_COMMA,
  HCL_TOK_DOUBLE_COLON,    /* :: (provider::x::f) */
  HCL_TOK_ELLIPSIS,
  HCL_TOK_FAT_ARROW,
  HCL_TOK_QUESTION,
  HCL_TOK_COLON,
  HCL_TOK_TEMPLATE_INTERP, /* ${ or ${~ */
  HCL_TOK_TEMPLATE_CONTROL,/* %{ or %{~ */
  HCL_TOK_TEMPLATE_SEQ_END,/* } or ~} closing ${ / %{ */
  HCL_TOK_QUOTED_LIT,      /* literal text in "..." (escapes undecoded) */
  HCL_TOK_STRING_LIT,      /* heredoc / bare template text: one per line,
                              newline included */
  HCL_TOK_NUMBER_LIT,
  HCL_TOK_IDENT,
  HCL_TOK_COMMENT,         /* # and // include their newline */
  HCL_TOK_NEWLINE,
  HCL_TOK_EOF,
  HCL_TOK_QUOTED_NEWLINE,  /* newline inside "...": an error */
  HCL_TOK_BITWISE_AND,     /* & | ^ ~ ; ' ` : lexed only to be reported */
  HCL_TOK_BITWISE_OR,
  HCL_TOK_BITWISE_XOR,
  HCL_TOK_BITWISE_NOT,
  HCL_TOK_SEMICOLON,
  HCL_TOK_APOSTROPHE,
  HCL_TOK_BACKTICK,
  HCL_TOK_INVALID,
  HCL_TOK_BAD_UTF8,
  HCL_TOK_TABS             /* never produced (tabs are whitespace) */
} HclTokenKind;

/* 28 bytes; the text is src[start.byte .. end.byte). */
typedef struct HclToken {
  uint32_t kind;           /* HclTokenKind */
  SrcPos start;
  SrcPos end;
} HclToken;

typedef enum HclLexMode {
  HCL_LEX_CONFIG,          /* a .tf file or an expression */
  HCL_LEX_TEMPLATE         /* a bare template (templatefile) */
} HclLexMode;

/* Lexes src (need not be NUL-terminated) into *out (n tokens, the last one
** HCL_TOK_EOF).  Lexical errors (invalid characters, bad UTF-8, newlines in
** quoted strings, bitwise operators) go to d with HCL's wording.  file is
** used only for diagnostics.  Linear time and memory. */
void hcl_lex(Arena *a, const char *file, const char *src, size_t len,
             HclToken **out, uint32_t *n, Diags *d);
/* Same, with a start position and mode (JSON templates start mid-file). */
void hcl_lex_ex(Arena *a, const char *file, const char *src, size_t len,
                SrcPos start, HclLexMode mode, HclToken **out, uint32_t *n,
                Diags *d);
/* "OBrace", "Ident", ... as in hclsyntax's TokenType names. */
const char *hcl_token_name(HclTokenKind k);
SrcRange hcl_token_range(const char *file, const HclToken *t);

/* ---- Traversals -------------------------------------------------------- */

typedef enum HclStepKind {
  HCL_STEP_ROOT,           /* name */
  HCL_STEP_ATTR,           /* .name */
  HCL_STEP_INDEX           /* [key] with a constant key, or legacy .0 */
} HclStepKind;

/* 56 bytes rather than 72 with the key inline: a large configuration has
** more steps than any other node, and few of them are index steps. */
typedef struct HclStep {
  HclStepKind kind;
  bool legacy;             /* INDEX written as .N (HIL style) */
  const char *name;        /* ROOT, ATTR */
  const Value *key;        /* INDEX: number or string (unknown after a bad
                              legacy index like .0.1); NULL otherwise */
  SrcRange range;          /* includes the dot / brackets */
} HclStep;

/* An absolute traversal starts with a ROOT step.  Its range runs from the
** first step to the last (hcl_trav_range); it is not stored, since most
** traversals sit in an expression that holds the same range already. */
typedef struct HclTraversal {
  HclStep *steps;
  uint32_t n;
} HclTraversal;

/* From the first step's start to the last step's end; no file (no
** subject) for an empty traversal. */
static inline SrcRange hcl_trav_range(const HclTraversal *t)
{
  SrcRange r = {0};
  if (t->n) {
    r = t->steps[0].range;
    r.end = t->steps[t->n - 1].range.end;
  }
  return r;
}

/* ---- Expressions ------------------------------------------------------- */

typedef enum HclExprKind {
  HCL_E_LITERAL,        /* lit: number, bool, string, null (dynamic) or,
                           as an error placeholder, DynamicVal unknown */
  HCL_E_TEMPLATE,       /* tmpl: parts converted to string and joined;
                           literal parts already unescaped and with strip
                           markers / heredoc indentation applied; if
                           directives are HCL_E_COND of two templates, for
                           directives HCL_E_TEMPLATE_JOIN */
  HCL_E_TEMPLATE_WRAP,  /* wrap: "${x}" - the raw value of x */
  HCL_E_TEMPLATE_JOIN,  /* wrap: a tuple-form HCL_E_FOR whose results are
                           joined as strings (the %{for} directive) */
  HCL_E_SCOPE_TRAV,     /* trav: a variable and static steps */
  HCL_E_REL_TRAV,       /* rel: static steps applied to any expression */
  HCL_E_INDEX,          /* index: coll[key] with a non-constant key */
  HCL_E_CALL,           /* call */
  HCL_E_COND,           /* cond: c ? t : f */
  HCL_E_BINARY,         /* binary */
  HCL_E_UNARY,          /* unary */
  HCL_E_TUPLE,          /* tuple */
  HCL_E_OBJECT,         /* object */
  HCL_E_FOR,            /* forx */
  HCL_E_SPLAT,          /* splat */
  HCL_E_ANON,           /* the splat's per-element symbol (no payload) */
  HCL_E_PAREN,          /* wrap: (x) */
  HCL_E_JSON            /* json: a value from a .tf.json file, interpreted
                           by hcl_json_to_expr */
} HclExprKind;

typedef enum HclBinOp {
  HCL_OP_OR, HCL_OP_AND,
  HCL_OP_EQ, HCL_OP_NE,
  HCL_OP_GT, HCL_OP_GE, HCL_OP_LT, HCL_OP_LE,
  HCL_OP_ADD, HCL_OP_SUB,
  HCL_OP_MUL, HCL_OP_DIV, HCL_OP_MOD
} HclBinOp;

typedef enum HclUnOp { HCL_OP_NOT, HCL_OP_NEG } HclUnOp;

typedef struct HclExpr HclExpr;
typedef struct HclJsonValue HclJsonValue;

typedef struct HclObjectItem {
  HclExpr *key;            /* the key expression as written */
  HclExpr *value;
  /* Non-NULL when the key is a literal name: a bare identifier or
  ** true/false/null, not in parentheses (HCL's ObjectConsKeyExpr). */
  const char *key_name;
  /* The key is a bare multi-step traversal like foo.bar: HCL reports
  ** "Ambiguous attribute key" when evaluating it. */
  bool key_ambiguous;
  bool key_parens;         /* key was written as (expr) */
} HclObjectItem;

struct HclExpr {
  HclExprKind kind;
  SrcRange range;
  union {
    Value lit;
    struct { HclExpr **parts; uint32_t n; } tmpl;
    HclExpr *wrap;
    HclTraversal trav;
    struct {
      HclExpr *src;
      HclStep *steps;
      uint32_t n;
    } rel;
    struct {
      HclExpr *coll;
      HclExpr *key;
      SrcRange bracket_range;   /* [ ... ] */
    } index;
    struct {
      const char *name;         /* full name, "provider::aws::arn_parse" */
      const char *base;         /* last part ("arn_parse"; == name when
                                   not namespaced) */
      uint32_t nparts;          /* 1 + number of "::" separators */
      HclExpr **args;
      uint32_t nargs;
      bool expand_final;        /* f(a, b...) */
      SrcRange name_range;
      SrcRange open_range;
      SrcRange close_range;
    } call;
    struct { HclExpr *c, *t, *f; } cond;
    struct { HclBinOp op; HclExpr *lhs, *rhs; } binary;
    struct { HclUnOp op; HclExpr *operand; SrcRange symbol_range; } unary;
    struct { HclExpr **items; uint32_t n; SrcRange open_range; } tuple;
    struct {
      HclObjectItem *items;
      uint32_t n;
      SrcRange open_range;
      bool unique_keys;         /* from JSON: a repeated key is an error
                                   ("Duplicate object attribute", subject
                                   the key) instead of last-wins */
    } object;
    struct {
      const char *key_var;      /* NULL when only a value variable */
      const char *val_var;
      HclExpr *coll;
      HclExpr *key;             /* object form; NULL for tuples */
      HclExpr *val;
      HclExpr *cond;            /* NULL when no `if` */
      bool group;               /* `...` after the value */
      bool object;              /* {for ...} vs [for ...] */
      SrcRange open_range;      /* no close range: nothing reports
                                   at the closing bracket */
    } forx;
    struct {
      HclExpr *src;
      HclExpr *each;            /* evaluated per element with `item` bound */
      HclExpr *item;            /* the HCL_E_ANON node inside `each` */
      SrcRange marker_range;    /* [*] or .* */
      bool attr_only;           /* .* form */
    } splat;
    const HclJsonValue *json;
  } u;
};

/* ---- JSON syntax values ------------------------------------------------ */

typedef enum HclJsonKind {
  HCL_J_NULL, HCL_J_BOOL, HCL_J_NUMBER, HCL_J_STRING, HCL_J_OBJECT,
  HCL_J_ARRAY
} HclJsonKind;

typedef struct HclJsonProp {
  const char *name;
  uint32_t name_len;
  SrcRange name_range;     /* the quoted name */
  const HclJsonValue *value;
} HclJsonProp;

struct HclJsonValue {
  HclJsonKind kind;
  SrcRange range;          /* the whole value; for objects/arrays from the
                              opening to the closing bracket */
  SrcRange open_range;     /* { or [ (objects, arrays) */
  union {
    bool b;
    Value num;             /* exact number (keeps its literal) */
    struct { const char *s; uint32_t len; } str;   /* decoded */
    struct { HclJsonProp *props; uint32_t n; } obj; /* order and duplicates
                                                       kept */
    struct { const HclJsonValue **items; uint32_t n; } arr;
  } u;
};

/* ---- Bodies ------------------------------------------------------------ */

typedef struct HclBody HclBody;

/* Without HCL's EqualsRange: nothing reports at the `=`, and a large
** configuration has one attribute per line. */
typedef struct HclAttribute {
  const char *name;
  HclExpr *expr;
  SrcRange range;          /* name through end of expression */
  SrcRange name_range;
} HclAttribute;

typedef struct HclBlock {
  const char *type;
  const char **labels;
  SrcRange *label_ranges;
  uint8_t *label_quoted;   /* per label: written as "x" (1) or x (0) */
  uint32_t nlabels;
  HclBody *body;
  SrcRange type_range;
  SrcRange open_brace;
  SrcRange close_brace;
} HclBlock;

typedef struct HclBodyItem {
  HclAttribute *attr;      /* exactly one of attr / block is set */
  HclBlock *block;
} HclBodyItem;

struct HclBody {
  /* Native syntax: items in source order, and the same split by kind
  ** (also in source order).  A redefined attribute is reported and only
  ** its first definition is kept in attrs/items.  (Counts are grouped
  ** after the pointers: no padding, one body per block.) */
  HclBodyItem *items;
  HclAttribute **attrs;
  HclBlock **blocks;
  /* JSON syntax: the object, or array of objects, holding the body. */
  const HclJsonValue *jv;
  /* Names consumed by an earlier hcl_body_partial_content. */
  const char **hidden_attrs;
  const char **hidden_blocks;
  uint32_t nitems;
  uint32_t nattrs;
  uint32_t nblocks;
  uint32_t nhidden_attrs;
  uint32_t nhidden_blocks;
  bool json;               /* JSON body: use hcl_body_content */
  SrcRange range;
  /* No end range (HCL's EndRange): nothing reads it, and a large
  ** configuration has a body per block. */
};

typedef struct HclFile {
  const char *name;
  HclBody *body;
  const char *src;         /* the text given to the parse call (not
                              copied; tokens are not kept: use hcl_lex) */
  uint32_t len;
} HclFile;

/* ---- Parsing ----------------------------------------------------------- */

/* A configuration file in native syntax.  Always returns a file (with a
** possibly partial body); errors go to d. */
HclFile *hcl_parse_file(Arena *a, const char *file, const char *src,
                        size_t len, Diags *d);
/* A configuration file in JSON syntax (.tf.json). */
HclFile *hcl_parse_json_file(Arena *a, const char *file, const char *src,
                             size_t len, Diags *d);
/* A standalone expression (newlines ignored, as in parentheses); extra
** tokens give "Extra characters after expression". */
HclExpr *hcl_parse_expr(Arena *a, const char *file, const char *src,
                        size_t len, Diags *d);
HclExpr *hcl_parse_expr_at(Arena *a, const char *file, const char *src,
                           size_t len, SrcPos start, Diags *d);
/* A bare template (templatefile / templatestring contents). */
HclExpr *hcl_parse_template(Arena *a, const char *file, const char *src,
                            size_t len, Diags *d);
HclExpr *hcl_parse_template_at(Arena *a, const char *file, const char *src,
                               size_t len, SrcPos start, Diags *d);
/* A standalone absolute traversal (a.b[0]); false with errors when the
** text is not one ("Invalid expression" etc.). */
bool hcl_parse_traversal(Arena *a, const char *file, const char *src,
                         size_t len, HclTraversal *out, Diags *d);

/* ---- Static analysis ---------------------------------------------------- */

/* Every absolute traversal the expression refers to, in source order
** (hcl.Expression.Variables): for-expression variables and splat symbols
** are excluded; object keys that are literal names are not references.
** JSON values are interpreted as templates.  *out lives in a. */
void hcl_expr_references(Arena *a, const HclExpr *e, HclTraversal **out,
                         uint32_t *n);
/* hcl.ExprAsKeyword: "foo" for a bare identifier foo (also true/false/
** null; parentheses removed), else NULL.  JSON: a string holding one. */
const char *hcl_expr_as_keyword(Arena *a, const HclExpr *e);
/* hcl.AbsTraversalForExpr: a static traversal (a.b["c"][0]); JSON strings
** are parsed as one.  False with an error diagnostic otherwise. */
bool hcl_expr_as_traversal(Arena *a, const HclExpr *e, HclTraversal *out,
                           Diags *d);
/* Strips HCL_E_PAREN wrappers. */
const HclExpr *hcl_expr_unwrap(const HclExpr *e);

/* JSON value to native expression.  literal_only: strings are taken
** verbatim (Terraform's literal contexts); otherwise strings are templates
** parsed with the native parser, positions inside the JSON file.  Objects
** become HCL_E_OBJECT (duplicate keys give "Duplicate object attribute"
** when not literal_only), arrays HCL_E_TUPLE.  A non-JSON expression is
** returned unchanged. */
HclExpr *hcl_json_to_expr(Arena *a, const HclExpr *e, bool literal_only,
                          Diags *d);

/* ---- Schema decoding (hcl.Body.Content) -------------------------------- */

typedef struct HclAttrSchema {
  const char *name;
  bool required;
} HclAttrSchema;

typedef struct HclBlockSchema {
  const char *type;
  const char *const *label_names;
  uint32_t nlabels;
} HclBlockSchema;

typedef struct HclBodySchema {
  const HclAttrSchema *attrs;
  uint32_t nattrs;
  const HclBlockSchema *blocks;
  uint32_t nblocks;
} HclBodySchema;

typedef struct HclBodyContent {
  HclAttribute **attrs;    /* in schema order for JSON and in source order
                              for native; look up with hcl_content_attr */
  uint32_t nattrs;
  HclBlock **blocks;       /* source order */
  uint32_t nblocks;
  SrcRange missing_item_range;
} HclBodyContent;

/* hcl.Body.Content: attributes and blocks of the schema, with errors for
** anything else ("Unsupported argument", "Unsupported block type"), for
** missing required arguments, label count mismatches, duplicates (JSON).
** Works for native and JSON bodies.  Returns false when it added errors. */
bool hcl_body_content(Arena *a, const HclBody *b, const HclBodySchema *s,
                      HclBodyContent *out, Diags *d);
/* hcl.Body.PartialContent: like content but leaves unknown names alone;
** *remain (may be NULL) is a body without the schema's names. */
bool hcl_body_partial_content(Arena *a, const HclBody *b,
                              const HclBodySchema *s, HclBodyContent *out,
                              HclBody **remain, Diags *d);
/* hcl.Body.JustAttributes: every attribute (source order); blocks are an
** error ("Unexpected \"x\" block").  JSON: every property. */
bool hcl_body_just_attributes(Arena *a, const HclBody *b,
                              HclAttribute ***out, uint32_t *n, Diags *d);
/* Attribute lookup by name (native bodies; NULL when absent). */
HclAttribute *hcl_body_attr(const HclBody *b, const char *name);
HclAttribute *hcl_content_attr(const HclBodyContent *c, const char *name);
/* Empty range at the start of the body (where a missing item would go). */
SrcRange hcl_body_missing_item_range(const HclBody *b);
/* Returns the suggestion among names[0..n) closest to given (Levenshtein
** distance < 3, first match wins) or NULL, like hcl's nameSuggestion. */
const char *hcl_name_suggestion(const char *given, const char *const *names,
                                uint32_t n);

/* ---- Debugging / tests -------------------------------------------------- */

/* Compact S-expression of an expression, e.g. (+ 1 (trav a .b [0])). */
void hcl_dump_expr(Buf *out, const HclExpr *e);
/* Body dump: (body (attr a ...) (block b ("l") (body ...))). */
void hcl_dump_body(Buf *out, const HclBody *b);

#endif
