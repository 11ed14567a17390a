/*
** fuzz_zip: the .zip reader of provider mirrors (net/zip.c): zip_open on
** the input, then every entry extracted (stored or inflated, sizes and
** CRC-32 checked) into a sink that only counts, as `cairn init` does when
** it hashes and unpacks a package from a mirror on a shared disk.
*/
#include "base/arena.h"
#include "net/zip.h"

#include "fuzz.h"

static bool count(void *ctx, const uint8_t *p, size_t n)
{
  (void)p;
  *(size_t *)ctx += n;
  return *(size_t *)ctx < ((size_t)64 << 20);   /* a zip bomb stops here */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Arena a;
  arena_init(&a, 0);
  Zip z;
  const char *err = NULL;
  if (zip_open(&a, data, size, &z, &err)) {
    size_t total = 0;
    for (uint32_t i = 0; i < z.ne; i++)
      if (!zip_extract(&z, &z.e[i], count, &total, &err))
        break;
  }
  arena_release(&a);
  return 0;
}
