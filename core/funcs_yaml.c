/*
** funcs_yaml: yamldecode, a YAML 1.2 subset parser (see docs/functions.md).
*/
#include "funcs_impl.h"

bool fn_yamldecode(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)a;
  (void)n;
  (void)out;
  return fn_error(c, "yamldecode is not implemented yet");
}
