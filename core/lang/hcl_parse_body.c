/*
** hcl_parse_body: the structural level (parser.go's ParseBody,
** finishParsingBodyAttribute and finishParsingBlock): bodies, attributes
** with their duplicate checks, blocks and labels, single-line blocks, and
** recovery after a bad body item.
*/
#include "hcl_parse_priv.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---- Structure ---------------------------------------------------------- */

/* Open-addressing set of attribute names, for "Attribute redefined"
** without quadratic scans. */
typedef struct NameSet {
  HclAttribute **slots;
  uint32_t cap, n;
} NameSet;

static uint32_t hash_str(const char *s)
{
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

/* Returns the existing attribute with a's name, or adds a and returns NULL. */
static HclAttribute *nameset_add(Arena *ar, NameSet *s, HclAttribute *a)
{
  if (s->n * 2 >= s->cap) {
    uint32_t nc = s->cap ? s->cap * 2 : 16;
    HclAttribute **ns = ARENA_NEW(ar, HclAttribute *, nc);
    for (uint32_t i = 0; i < s->cap; i++) {
      if (!s->slots[i])
        continue;
      uint32_t h = hash_str(s->slots[i]->name) & (nc - 1);
      while (ns[h])
        h = (h + 1) & (nc - 1);
      ns[h] = s->slots[i];
    }
    s->slots = ns;
    s->cap = nc;
  }
  uint32_t h = hash_str(a->name) & (s->cap - 1);
  while (s->slots[h]) {
    if (strcmp(s->slots[h]->name, a->name) == 0)
      return s->slots[h];
    h = (h + 1) & (s->cap - 1);
  }
  s->slots[h] = a;
  s->n++;
  return NULL;
}

static HclAttribute *finish_attr(P *p, Tok ident, bool single_line)
{
  hcl_rd(p);   /* the `=` */
  SrcRange endr;
  int e0 = p->d->errors;
  HclExpr *e = hcl_p_expression(p);
  if (p->recovery && hcl_errs_since(p, e0)) {
    endr = hcl_prev_range(p);
    hcl_recover_after_body_item(p);
  } else {
    endr = hcl_prev_range(p);
    if (!single_line) {
      Tok end = hcl_peek(p);
      if (end.k != HCL_TOK_NEWLINE && end.k != HCL_TOK_EOF) {
        if (!p->recovery) {
          SrcRange c = hcl_between(ident.r, end.r);
          if (end.k == HCL_TOK_COMMA)
            hcl_err(p, end.r, &c, "Unexpected comma after argument",
                    "Argument definitions must be separated by newlines, not "
                    "commas. An argument definition must end with a newline.");
          else
            hcl_err(p, end.r, &c, "Missing newline after argument",
                    "An argument definition must end with a newline.");
        }
        endr = hcl_prev_range(p);
        hcl_recover_after_body_item(p);
      } else {
        endr = hcl_prev_range(p);
        hcl_rd(p);
      }
    }
  }
  HclAttribute *a = ARENA_NEW(p->a, HclAttribute, 1);
  a->name = hcl_tok_str(p, ident);
  a->expr = e;
  a->range = hcl_between(ident.r, endr);
  a->name_range = ident.r;
  return a;
}

static HclBody *single_attr_body(P *p, bool *ok)
{
  Tok ident = hcl_rd(p);
  *ok = false;
  if (ident.k != HCL_TOK_IDENT) {
    hcl_recover_after_body_item(p);
    hcl_err(p, ident.r, NULL, "Argument or block definition required",
            "An argument or block definition is required here.");
    return NULL;
  }
  Tok next = hcl_peek(p);
  if (next.k == HCL_TOK_EQUAL) {
    HclAttribute *a = finish_attr(p, ident, true);
    HclBody *b = ARENA_NEW(p->a, HclBody, 1);
    b->items = ARENA_NEW(p->a, HclBodyItem, 1);
    b->items[0].attr = a;
    b->nitems = 1;
    b->attrs = ARENA_NEW(p->a, HclAttribute *, 1);
    b->attrs[0] = a;
    b->nattrs = 1;
    b->range = a->range;
    *ok = true;
    return b;
  }
  hcl_recover_after_body_item(p);
  if (next.k == HCL_TOK_OQUOTE || next.k == HCL_TOK_OBRACE ||
      next.k == HCL_TOK_IDENT) {
    diag_error(p->d, hcl_rp(p, hcl_between(ident.r, next.r)),
               "Argument definition required",
               "A single-line block definition can contain only a single "
               "argument. If you meant to define argument \"%.*s\", use an "
               "equals sign to assign it a value. To define a nested block, "
               "place it on a line of its own within its parent block.",
               (int)ident.len, ident.s);
  } else {
    hcl_err(p, ident.r, NULL, "Argument or block definition required",
            "An argument or block definition is required here. To set an "
            "argument, use the equals sign \"=\" to introduce the argument "
            "value.");
  }
  return NULL;
}

static HclBlock *finish_block(P *p, Tok ident)
{
  HclBlock *blk = ARENA_NEW(p->a, HclBlock, 1);
  blk->type = hcl_tok_str(p, ident);
  blk->type_range = ident.r;
  Vec labels = {0};
  SrcRange *lranges = NULL;
  uint8_t *lq = NULL;
  uint32_t lcap = 0;
  Tok obrace;
  for (;;) {
    Tok t = hcl_peek(p);
    if (t.k == HCL_TOK_OBRACE) {
      obrace = hcl_rd(p);
      break;
    }
    if (t.k == HCL_TOK_OQUOTE || t.k == HCL_TOK_IDENT) {
      SrcRange r;
      const char *l;
      if (t.k == HCL_TOK_OQUOTE) {
        l = hcl_p_quoted_string(p, &r);
      } else {
        hcl_rd(p);
        l = hcl_tok_str(p, t);
        r = t.r;
      }
      if (labels.n == lcap) {
        uint32_t nc = lcap ? lcap * 2 : 4;
        lranges = arena_grow(p->s, lranges, sizeof(SrcRange),
                             _Alignof(SrcRange), lcap, nc);
        lq = arena_grow(p->s, lq, 1, 1, lcap, nc);
        lcap = nc;
      }
      lranges[labels.n] = r;
      lq[labels.n] = t.k == HCL_TOK_OQUOTE;
      hcl_vpush(p->s, &labels, (void *)l);
      continue;
    }
    SrcRange c = hcl_between(ident.r, t.r);
    if (t.k == HCL_TOK_EQUAL)
      hcl_err(p, t.r, &c, "Invalid block definition",
              "The equals sign \"=\" indicates an argument definition, and "
              "must not be used when defining a block.");
    else if (t.k == HCL_TOK_NEWLINE)
      hcl_err(p, t.r, &c, "Invalid block definition",
              "A block definition must have block content delimited by \"{\" "
              "and \"}\", starting on the same line as the block header.");
    else if (!p->recovery)
      hcl_err(p, t.r, &c, "Invalid block definition",
              "Either a quoted string block label or an opening brace (\"{\") "
              "is expected here.");
    hcl_recover_after_body_item(p);
    blk->labels = HCL_VFINAL(p, labels, const char *);
    blk->label_ranges = (SrcRange *)hcl_vcopy(p->a, lranges, sizeof(SrcRange),
                                              _Alignof(SrcRange), labels.n);
    blk->label_quoted = (uint8_t *)hcl_vcopy(p->a, lq, 1, 1, labels.n);
    blk->nlabels = labels.n;
    blk->body = ARENA_NEW(p->a, HclBody, 1);
    blk->body->range = ident.r;
    blk->open_brace = ident.r;
    blk->close_brace = ident.r;
    return blk;
  }
  blk->labels = HCL_VFINAL(p, labels, const char *);
  blk->label_ranges = (SrcRange *)hcl_vcopy(p->a, lranges, sizeof(SrcRange),
                                            _Alignof(SrcRange), labels.n);
  blk->label_quoted = (uint8_t *)hcl_vcopy(p->a, lq, 1, 1, labels.n);
  blk->nlabels = labels.n;
  blk->open_brace = obrace.r;

  HclBody *body = NULL;
  int e0 = p->d->errors;
  Tok nx = hcl_peek(p);
  if (nx.k == HCL_TOK_NEWLINE || nx.k == HCL_TOK_EOF ||
      nx.k == HCL_TOK_CBRACE) {
    body = hcl_p_body(p, HCL_TOK_CBRACE);
  } else {
    bool ok;
    body = single_attr_body(p, &ok);
    Tok t = hcl_peek(p);
    if (t.k == HCL_TOK_CBRACE) {
      hcl_rd(p);
    } else if (t.k == HCL_TOK_COMMA) {
      hcl_err(p, t.r, NULL, "Invalid single-argument block definition",
              "Single-line block syntax can include only one argument "
              "definition. To define multiple arguments, use the multi-line "
              "block syntax with one argument definition per line.");
      hcl_recover_to(p, HCL_TOK_CBRACE);
    } else if (t.k == HCL_TOK_NEWLINE) {
      hcl_err(p, t.r, NULL, "Invalid single-argument block definition",
              "An argument definition on the same line as its containing block "
              "creates a single-line block definition, which must also be "
              "closed on the same line. Place the block's closing brace "
              "immediately after the argument definition.");
      hcl_recover_to(p, HCL_TOK_CBRACE);
    } else {
      if (!p->recovery) {
        if (t.k == HCL_TOK_EOF) {
          SrcRange c = hcl_between(ident.r, obrace.r);
          hcl_err(p, obrace.r, &c, "Unclosed configuration block",
                  "There is no closing brace for this block before the end of "
                  "the file. This may be caused by incorrect brace nesting "
                  "elsewhere in this file.");
        } else {
          hcl_err(p, t.r, NULL, "Invalid single-argument block definition",
                  "A single-line block definition must end with a closing "
                  "brace immediately after its single argument definition.");
        }
      }
      hcl_recover_to(p, HCL_TOK_CBRACE);
    }
  }
  SrcRange cbrace = hcl_prev_range(p);
  Tok eol = hcl_peek(p);
  if (eol.k == HCL_TOK_NEWLINE || eol.k == HCL_TOK_EOF) {
    hcl_rd(p);
  } else {
    if (!p->recovery) {
      SrcRange c = hcl_between(ident.r, eol.r);
      hcl_err(p, eol.r, &c, "Missing newline after block definition",
              "A block definition must end with a newline.");
    }
    hcl_recover_after_body_item(p);
  }
  if (!body) {
    (void)e0;
    body = ARENA_NEW(p->a, HclBody, 1);
    body->range = hcl_between(obrace.r, cbrace);
  }
  blk->body = body;
  blk->close_brace = cbrace;
  return blk;
}

static HclBody *parse_body_inner(P *p, HclTokenKind end)
{
  HclBody *b = ARENA_NEW(p->a, HclBody, 1);
  SrcRange startr = hcl_prev_range(p), endr;
  HclBodyItem *items = NULL;
  uint32_t nitems = 0, icap = 0;
  Vec attrs = {0}, blocks = {0};
  NameSet names = {0};
  /* The file's own body grows across items in an arena of its own, so
  ** that the scratch arena can be rewound after each top-level item; the
  ** tree gets exact copies.  (Grown in the tree's arena, every outgrown
  ** copy stayed: about 1 MB in bench-parse's 21 files.) */
  bool top = end == HCL_TOK_EOF && p->depth == 0;
  Arena *coll = top ? &p->top : p->s;
  ArenaMark item_mark = arena_mark(p->s);
  for (;;) {
    if (top)
      arena_rewind(p->s, item_mark);
    Tok next = hcl_peek(p);
    if (next.k == end) {
      endr = next.r;
      hcl_rd(p);
      break;
    }
    if (next.k == HCL_TOK_NEWLINE) {
      hcl_rd(p);
      continue;
    }
    if (next.k == HCL_TOK_IDENT) {
      Tok ident = hcl_rd(p);
      Tok nx = hcl_peek(p);
      HclBodyItem it = {NULL, NULL};
      if (nx.k == HCL_TOK_EQUAL) {
        it.attr = finish_attr(p, ident, false);
      } else if (nx.k == HCL_TOK_OQUOTE || nx.k == HCL_TOK_OBRACE ||
                 nx.k == HCL_TOK_IDENT) {
        if (!hcl_p_enter(p)) {
          hcl_recover_after_body_item(p);
          continue;
        }
        it.block = finish_block(p, ident);
        p->depth--;
      } else {
        hcl_recover_after_body_item(p);
        hcl_err(p, ident.r, NULL, "Argument or block definition required",
                "An argument or block definition is required here. To set an "
                "argument, use the equals sign \"=\" to introduce the argument "
                "value.");
        continue;
      }
      if (it.attr) {
        HclAttribute *ex = nameset_add(coll, &names, it.attr);
        if (ex) {
          diag_error(p->d, &it.attr->name_range, "Attribute redefined",
                     "The argument \"%s\" was already set at %s. Each "
                     "argument may be set only once.", it.attr->name,
                     hcl_range_str(p, ex->name_range));
          continue;
        }
        hcl_vpush(coll, &attrs, it.attr);
      } else {
        hcl_vpush(coll, &blocks, it.block);
      }
      if (nitems == icap) {
        uint32_t nc = icap ? icap * 2 : 8;
        items = arena_grow(coll, items, sizeof(HclBodyItem),
                           _Alignof(HclBodyItem), icap, nc);
        icap = nc;
      }
      items[nitems++] = it;
      continue;
    }
    Tok bad = hcl_rd(p);
    if (!p->recovery) {
      if (bad.k == HCL_TOK_OQUOTE) {
        hcl_err(p, bad.r, NULL, "Invalid argument name",
                "Argument names must not be quoted.");
      } else if (bad.k == HCL_TOK_EOF) {
        if (end == HCL_TOK_CBRACE)
          hcl_err(p, startr, NULL, "Unclosed configuration block",
                  "There is no closing brace for this block before the end of "
                  "the file. This may be caused by incorrect brace nesting "
                  "elsewhere in this file.");
        else
          hcl_err(p, startr, NULL, "Unclosed configuration body",
                  "Found end of file before the end of this configuration "
                  "body.");
      } else {
        hcl_err(p, bad.r, NULL, "Argument or block definition required",
                "An argument or block definition is required here.");
      }
    }
    endr = hcl_prev_range(p);
    if (bad.k != HCL_TOK_EOF)
      hcl_recover_to(p, end);
    break;
  }
  b->items = (HclBodyItem *)hcl_vcopy(p->a, items, sizeof(HclBodyItem),
                                      _Alignof(HclBodyItem), nitems);
  b->nitems = nitems;
  b->attrs = HCL_VFINAL(p, attrs, HclAttribute *);
  b->nattrs = attrs.n;
  b->blocks = HCL_VFINAL(p, blocks, HclBlock *);
  b->nblocks = blocks.n;
  b->range = hcl_between(startr, endr);
  return b;
}

HclBody *hcl_p_body(P *p, HclTokenKind end)
{
  return parse_body_inner(p, end);
}
