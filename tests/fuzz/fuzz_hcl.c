/*
** fuzz_hcl: the HCL native syntax parser (hcl_parse_file, as the
** configuration loader and the .tfvars reader call it), then what the
** loaders do with the tree without evaluating it: every attribute's
** references (hcl_expr_references), keyword and traversal forms, and a
** dump of the whole body (which walks every node).
*/
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "lang/hcl.h"

#include "fuzz.h"

static void walk(Arena *a, const HclBody *b, Diags *d)
{
  for (uint32_t i = 0; i < b->nattrs; i++) {
    const HclExpr *e = b->attrs[i]->expr;
    HclTraversal *refs;
    uint32_t n;
    hcl_expr_references(a, e, &refs, &n);
    hcl_expr_as_keyword(a, e);
    HclTraversal t;
    hcl_expr_as_traversal(a, e, &t, d);
  }
  for (uint32_t i = 0; i < b->nblocks; i++)
    walk(a, b->blocks[i]->body, d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  HclFile *f = hcl_parse_file(&a, "fuzz.tf", (const char *)data, size, &d);
  if (f && f->body) {
    walk(&a, f->body, &d);
    Buf out;
    buf_init(&out, &a);
    hcl_dump_body(&out, f->body);
  }
  arena_release(&a);
  return 0;
}
