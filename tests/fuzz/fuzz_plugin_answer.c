/*
** fuzz_plugin_answer: the plugin client's decoding of provider-function
** messages (net/prov_plugin.c), the bytes a plugin process sends: the
** first input byte picks a GetProviderSchema.Response (its `functions`:
** parameter and return types as cty type JSON) or a
** CallFunction.Response (the msgpack result against a fixed function's
** return type, the FunctionError with its optional argument index) or,
** with bit 1 set, a MoveResourceState.Response (the moved object against
** a fixed target type, diagnostics, private bytes) or, with bit 2 set
** (bit 0 clear; before bit 1), an OpenEphemeralResource.Response (the result
** against a fixed type, renew_at, private bytes, diagnostics); the
** schema's ephemeral_resource_schemas are reached through bit 0.  The
** rest is the protobuf message.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "net/prov_plugin.h"
#include "providers/provider.h"

#include "fuzz.h"

static const char *const names[] = {"a", "b"};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  ProvCall c = {&a, &d, NULL};
  if (data[0] & 1) {
    pplugin_decode_schema(&c, "fuzz.example/fz/fz", data + 1, size - 1);
  } else if (data[0] & 4) {
    /* an ephemeral type object({a = list(number), b = dynamic}) */
    const Type *types[2] = {ty_list(&a, &ty_number), &ty_dynamic};
    ProvOpenEphResp resp;
    pplugin_decode_open(&c, ty_object(&a, 2, names, types), data + 1,
                        size - 1, &resp);
  } else if (data[0] & 2) {
    /* the target type object({a = list(number), b = dynamic}) */
    const Type *types[2] = {ty_list(&a, &ty_number), &ty_dynamic};
    ProvMoveResp resp;
    pplugin_decode_move(&c, ty_object(&a, 2, names, types), data + 1,
                        size - 1, &resp);
  } else {
    /* returns object({a = list(number), b = dynamic}) */
    const Type *types[2] = {ty_list(&a, &ty_number), &ty_dynamic};
    ProvFunction f = {0};
    f.name = "fz";
    f.return_type = ty_object(&a, 2, names, types);
    ProvCallFuncResp resp;
    pplugin_decode_call(&c, &f, data + 1, size - 1, &resp);
  }
  arena_release(&a);
  return 0;
}
