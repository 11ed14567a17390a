/*
** prov_plugin: a provider (core/providers/provider.h) served by a Terraform
** provider plugin process, over tfplugin5 or tfplugin6 (whichever the
** plugin chose in the handshake, net/plugin.h), on gRPC (net/grpc.h) with
** protobuf-c code generated from the proto/ files.
**
** - The plugin is started on the first call (once per instance, i.e. per
**   provider configuration), with the protocol versions 5 and 6 offered,
**   and shared by every pool worker: each call is its own gRPC call.
** - Both protocols use the tfplugin6 message types: the two versions
**   carry the same fields under the same numbers for every call cairn
**   makes (v5's PrepareProviderConfig.prepared_config is not read; v6's
**   nested attribute types never appear in a v5 answer); only the method
**   paths differ.
** - DynamicValues go out as msgpack (net/msgpack.h) and are read from
**   msgpack or JSON; diagnostics keep their attribute paths; private bytes
**   are carried.  Deferred actions (a newer plugin's `deferred` field) are
**   refused with an error: cairn does not offer them.
** - A plugin that dies or stops answering mid-call gives Terraform's
**   "Plugin did not respond" error naming the call, with the last lines
**   of the plugin's stderr; a gRPC error status gives "Plugin error".
** - close: plugin.GRPCController/Shutdown, then up to 2 s for the process
**   to exit, then SIGKILL (plugin_stop).
**
** Memory: the instance, its schema and the process record live in the
** arena given to pplugin_open; responses in each call's arena.
*/
#ifndef CAIRN_PROV_PLUGIN_H
#define CAIRN_PROV_PLUGIN_H

#include <stdbool.h>

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "plugin.h"
#include "providers/provider.h"

/* An instance of the provider addr (fully qualified) served by the plugin
** binary at path.  No process is started here.  timeout_ms: the deadline
** of every call (0: 2 minutes for schema and validation calls, 1 hour for
** the others). */
Prov *pplugin_open(Arena *a, const char *addr, const char *path,
                   long timeout_ms);

/* True when p was opened by pplugin_open. */
bool pplugin_is(const Prov *p);

/* The protocol version the plugin chose (5 or 6), 0 before it started. */
int pplugin_version(Prov *p);

/* Provider functions (protocol 5.5 / 6.5): the signatures come from
** GetProviderSchema's `functions` map (the same as GetFunctions answers,
** which cairn therefore does not call); CallFunction sends one
** DynamicValue per argument, variadic ones each on their own, msgpack with
** the parameter's type, and reads the result with the return type or the
** FunctionError (text, optional argument index).  The encoding, without a
** process, for tests and fuzzing: a GetProviderSchema.Response message's
** schema (NULL with diagnostics in c); a CallFunction.Request for req
** (false with a diagnostic when an argument does not fit its type); a
** CallFunction.Response into resp (false when the bytes are not one).
** Memory in c->arena. */
const ProvProviderSchema *pplugin_decode_schema(ProvCall *c, const char *addr,
                                                const uint8_t *msg,
                                                size_t len);
bool pplugin_encode_call(ProvCall *c, const ProvFunction *f,
                         const ProvCallFuncReq *req, uint8_t **out,
                         size_t *len);
bool pplugin_decode_call(ProvCall *c, const ProvFunction *f,
                         const uint8_t *msg, size_t len,
                         ProvCallFuncResp *resp);

/* MoveResourceState (protocol 5.5 / 6.5, one message in both versions),
** without a process, for tests and fuzzing: the request for req (the
** source state as RawState.json), and the answer decoded into resp with
** target, the target type's implied type (its diagnostics in c; false
** when the bytes are not such a message).  Memory in c->arena. */
void pplugin_encode_move(ProvCall *c, const ProvMoveReq *req, uint8_t **out,
                         size_t *len);
bool pplugin_decode_move(ProvCall *c, const Type *target, const uint8_t *msg,
                         size_t len, ProvMoveResp *resp);

/* Ephemeral resources (protocol 5.7 / 6.7): GetProviderSchema's
** ephemeral_resource_schemas list the types; Validate-, Open-, Renew- and
** CloseEphemeralResource are forwarded (renew_at as Unix seconds, 0 when
** absent; private bytes carried).  An OpenEphemeralResource.Response
** decoded without a process, for fuzzing: the result read with type t
** (diagnostics in c); false when the bytes are not such a message.
** Memory in c->arena. */
bool pplugin_decode_open(ProvCall *c, const Type *t, const uint8_t *msg,
                         size_t len, ProvOpenEphResp *resp);

/* The gateway's sandbox for the process: the env, dir, set_ids, uid and
** gid fields of sb (net/plugin.h; the rest is ignored), borrowed: they
** must live as long as p.  Call before the first call. */
void pplugin_set_sandbox(Prov *p, const PluginLaunch *sb);

/* False once the plugin failed to start or its process exited (a crash
** mid-call): the instance will not serve again and should be closed. */
bool pplugin_alive(Prov *p);

#endif
