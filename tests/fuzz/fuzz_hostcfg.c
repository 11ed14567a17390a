/*
** fuzz_hostcfg: the host configuration (cairn.ini): hcfg_parse, which
** reads the text with core/config/ini.h and then checks every section and
** value (durations, numbers, source addresses), and the lookups cairn
** makes afterwards (hcfg_provider, once per provider a configuration
** uses: here the first and the last section's source).
*/
#include "base/arena.h"
#include "base/diag.h"
#include "config/hostcfg.h"
#include "config/ini.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *src = (const char *)data;
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  IniFile ini;
  if (ini_parse(&a, "fuzz.ini", src, size, &ini, &d))
    ini_get(&ini, "defaults", "parallelism");
  HostCfg c;
  hcfg_parse(&a, "fuzz.ini", src, size, &c, &d);
  if (c.nproviders) {
    hcfg_provider(&c, &a, c.providers[0].source);
    hcfg_provider(&c, &a, c.providers[c.nproviders - 1].source);
  }
  hcfg_provider(&c, &a, "acme.example/fleet/edge");
  arena_release(&a);
  return 0;
}
