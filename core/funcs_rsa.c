/*
** funcs_rsa: rsadecrypt (PKCS #1 v1.5 with a PEM private key).
*/
#include "funcs_impl.h"

bool fn_rsadecrypt(FnCall *c, const Value *a, uint32_t n, Value *out)
{
  (void)a;
  (void)n;
  (void)out;
  return fn_error(c, "rsadecrypt is not implemented yet");
}
