/*
** hcl_lex.h: the incremental interface of the HCL scanner, private to the
** hcl_ modules (the parser pulls tokens in batches so that a large file's
** token stream never has to be held in memory at once).  The public
** whole-file interface is hcl_lex() in hcl.h.
*/
#ifndef CAIRN_HCL_LEX_H
#define CAIRN_HCL_LEX_H

#include "hcl.h"

typedef struct HclLexer HclLexer;

/* A scanner over src (not copied; it must outlive the scanner), allocated
** in a.  Lexical diagnostics go to d as batches are produced. */
HclLexer *hcl_lexer_new(Arena *a, const char *file, const char *src,
                        size_t len, SrcPos start, HclLexMode mode, Diags *d);
/* Writes the next tokens (at most max, max >= 4) to out and returns how
** many; the last token of the stream is HCL_TOK_EOF, after which it
** returns 0. */
uint32_t hcl_lexer_next(HclLexer *lx, HclToken *out, uint32_t max);

#endif
