/*
** fuzz_mtls: the plugin's certificate from the sixth field of go-plugin's
** handshake line (untrusted: whatever the plugin binary prints), through
** mtls_server_pem: base64 with or without padding, then X.509 DER, then
** PEM for the pinned root.
*/
#include <string.h>

#include "base/arena.h"
#include "net/mtls.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Arena a;
  arena_init(&a, 0);
  /* The handshake reader hands over a NUL-terminated field. */
  char *s = arena_alloc_raw(&a, 1, 1, size + 1);
  memcpy(s, data, size);
  s[size] = 0;
  const char *pem = NULL, *why = NULL;
  if (mtls_server_pem(&a, s, &pem, &why) && strlen(pem) < 27)
    __builtin_trap();        /* success must give a whole PEM block */
  arena_release(&a);
  return 0;
}
