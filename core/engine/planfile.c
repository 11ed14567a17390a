/*
** planfile.c: saved plans (planfile.h; the format is specified in
** docs/planfile.md).  This file holds what the writer (planfile_write.c)
** and the reader (planfile_read.c) share, the action and mode names and
** hex digests, and the configuration hash (planfile_config_hash).
*/
#include "planfile_priv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lang/funcs.h"

/* ---- shared by the writer and the reader ------------------------------- */

void planfile_hex_put(char *out, const uint8_t *d, size_t n)
{
  static const char hx[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = hx[d[i] >> 4];
    out[2 * i + 1] = hx[d[i] & 15];
  }
  out[2 * n] = 0;
}

const char *const planfile_action_names[] = {
    "NoOp", "Create", "Read", "Update", "DeleteThenCreate",
    "CreateThenDelete", "Delete", "Forget"};
const char *const planfile_mode_names[] = {"normal", "destroy", "refresh-only"};

/* ---- configuration hash ------------------------------------------------- */

typedef struct NamedFile {
  const char *base;
  const HclFile *f;
} NamedFile;

static int named_cmp(const void *pa, const void *pb)
{
  const NamedFile *a = pa, *b = pb;
  return strcmp(a->base, b->base);
}

const char *planfile_config_hash(Arena *a, const CfgModule *const *mods,
                                 uint32_t nmods)
{
  uint8_t dig[32];
  ArenaMark mk = arena_mark(a);
  Buf b;
  buf_init(&b, a);
  for (uint32_t i = 0; i < nmods; i++) {
    const CfgModule *m = mods[i];
    if (!m)
      continue;
    buf_printf(&b, "module %u %u", i, m->nfiles);
    buf_putc(&b, 0);
    NamedFile *nf = ARENA_NEW(a, NamedFile, m->nfiles);
    for (uint32_t k = 0; k < m->nfiles; k++) {
      const char *nm = m->files[k]->name ? m->files[k]->name : "";
      const char *sl = strrchr(nm, '/');
      nf[k].base = sl ? sl + 1 : nm;
      nf[k].f = m->files[k];
    }
    if (m->nfiles > 1)
      qsort(nf, m->nfiles, sizeof *nf, named_cmp);
    for (uint32_t k = 0; k < m->nfiles; k++) {
      buf_printf(&b, "file %s %u", nf[k].base, nf[k].f->len);
      buf_putc(&b, 0);
      if (nf[k].f->len)
        buf_put(&b, nf[k].f->src, nf[k].f->len);
    }
  }
  fn_dig_sha256(b.p ? b.p : "", b.len, dig);
  arena_rewind(a, mk);
  char *hex = ARENA_NEW(a, char, 65);
  planfile_hex_put(hex, dig, 32);
  return hex;
}
