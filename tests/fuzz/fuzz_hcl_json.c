/*
** fuzz_hcl_json: the HCL JSON syntax (.tf.json): hcl_parse_json_file, then
** the lazy interpretation the configuration loader drives, since a JSON
** body means nothing until read with a schema: the top-level block
** schema (core/config/config.c's), nested blocks with partial content,
** every remaining property as an attribute, and each value turned into a
** native expression (strings parsed as templates) with its references.
*/
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "lang/hcl.h"

#include "fuzz.h"

static const char *const name1[] = {"name"};
static const char *const type_name[] = {"type", "name"};

static void attrs(Arena *a, const HclBody *b, bool literal, Diags *d)
{
  HclAttribute **at = NULL;
  uint32_t n = 0;
  hcl_body_just_attributes(a, b, &at, &n, d);
  for (uint32_t i = 0; i < n; i++) {
    HclExpr *e = hcl_json_to_expr(a, at[i]->expr, literal, d);
    HclTraversal *refs;
    uint32_t nr;
    hcl_expr_references(a, e, &refs, &nr);
    hcl_expr_as_keyword(a, at[i]->expr);
  }
}

/* A resource-like block: nested blocks first, the rest as attributes. */
static void block_body(Arena *a, const HclBody *b, int depth, Diags *d)
{
  static const HclBlockSchema bs[] = {
      {"lifecycle", NULL, 0},   {"dynamic", name1, 1},
      {"provisioner", name1, 1}, {"connection", NULL, 0},
      {"validation", NULL, 0},  {"precondition", NULL, 0},
      {"postcondition", NULL, 0}, {"content", NULL, 0}};
  static const HclBodySchema s = {NULL, 0, bs, sizeof bs / sizeof *bs};
  HclBodyContent c;
  memset(&c, 0, sizeof c);
  HclBody *remain = NULL;
  hcl_body_partial_content(a, b, &s, &c, &remain, d);
  for (uint32_t i = 0; i < c.nblocks; i++) {
    if (depth < 4)
      block_body(a, c.blocks[i]->body, depth + 1, d);
  }
  if (remain)
    attrs(a, remain, false, d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  HclFile *f =
      hcl_parse_json_file(&a, "fuzz.tf.json", (const char *)data, size, &d);
  if (f && f->body) {
    static const HclBlockSchema bs[] = {
        {"terraform", NULL, 0}, {"provider", name1, 1},
        {"variable", name1, 1}, {"locals", NULL, 0},
        {"output", name1, 1},   {"module", name1, 1},
        {"resource", type_name, 2}, {"data", type_name, 2},
        {"moved", NULL, 0},     {"import", NULL, 0},
        {"check", name1, 1}};
    static const HclBodySchema s = {NULL, 0, bs, sizeof bs / sizeof *bs};
    HclBodyContent c;
    memset(&c, 0, sizeof c);
    hcl_body_content(&a, f->body, &s, &c, &d);
    for (uint32_t i = 0; i < c.nblocks; i++) {
      const HclBlock *b = c.blocks[i];
      if (strcmp(b->type, "locals") == 0)
        attrs(&a, b->body, false, &d);
      else
        block_body(&a, b->body, 0, &d);
    }
    /* The .tfvars.json reading of the same text: literal strings. */
    Diags d2;
    diag_init(&d2, &a);
    attrs(&a, f->body, true, &d2);
  }
  arena_release(&a);
  return 0;
}
