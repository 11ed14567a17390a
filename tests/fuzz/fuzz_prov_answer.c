/*
** fuzz_prov_answer: the decoding of a remote provider's answers
** (net/prov_https.c) through phttps_decode_answer, the code a call runs
** once an HTTP 200 body has arrived: JSON syntax, the answer's
** diagnostics and attribute paths, encoded values with unknown markers
** typed by the resource's schema, base64 private data, requires_replace,
** imported objects, function results and errors, ephemeral resources'
** results, private data and renew_at.  The first input byte picks the call (so one corpus
** covers all of them), the rest is the body.  The schema is a fixed
** GetProviderSchema answer with every kind of attribute type and block
** nesting, decoded once; the GetProviderSchema call fuzzes the schema
** decoder itself.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "net/prov_https.h"
#include "providers/provider.h"

#include "fuzz.h"

static const char *const schema_json =
    "{\"protocol_version\":1,"
    "\"provider\":{\"version\":0,\"block\":{\"attributes\":{"
    "\"region\":{\"type\":\"string\",\"optional\":true}}}},"
    "\"resource_schemas\":{\"fz_all\":{\"version\":1,\"block\":{"
    "\"attributes\":{"
    "\"id\":{\"type\":\"string\",\"computed\":true},"
    "\"n\":{\"type\":\"number\",\"optional\":true},"
    "\"b\":{\"type\":\"bool\",\"optional\":true},"
    "\"l\":{\"type\":[\"list\",\"string\"],\"optional\":true},"
    "\"s\":{\"type\":[\"set\",\"number\"],\"optional\":true},"
    "\"m\":{\"type\":[\"map\",\"string\"],\"optional\":true},"
    "\"o\":{\"type\":[\"object\",{\"a\":\"string\",\"b\":[\"list\","
    "\"number\"]}],\"optional\":true},"
    "\"t\":{\"type\":[\"tuple\",[\"string\",\"bool\"]],\"optional\":true},"
    "\"d\":{\"type\":\"dynamic\",\"optional\":true},"
    "\"secret\":{\"type\":\"string\",\"optional\":true,\"sensitive\":true},"
    "\"nested\":{\"nested_type\":{\"nesting_mode\":\"list\","
    "\"attributes\":{\"x\":{\"type\":\"string\",\"optional\":true}}},"
    "\"optional\":true}},"
    "\"block_types\":{"
    "\"single\":{\"nesting_mode\":\"single\",\"block\":{\"attributes\":{"
    "\"v\":{\"type\":\"string\",\"optional\":true}}}},"
    "\"lst\":{\"nesting_mode\":\"list\",\"max_items\":3,\"block\":{"
    "\"attributes\":{\"v\":{\"type\":\"number\",\"optional\":true}},"
    "\"block_types\":{\"inner\":{\"nesting_mode\":\"set\",\"block\":{"
    "\"attributes\":{\"w\":{\"type\":\"bool\",\"optional\":true}}}}}}},"
    "\"mp\":{\"nesting_mode\":\"map\",\"block\":{\"attributes\":{"
    "\"v\":{\"type\":\"string\",\"optional\":true}}}}}}},"
    "\"fz_small\":{\"version\":0,\"block\":{\"attributes\":{"
    "\"id\":{\"type\":\"string\",\"computed\":true}}}}},"
    "\"data_source_schemas\":{\"fz_info\":{\"version\":0,\"block\":{"
    "\"attributes\":{\"id\":{\"type\":\"string\",\"required\":true},"
    "\"tags\":{\"type\":[\"map\",[\"list\",\"string\"]],\"computed\":true}"
    "}}}},"
    "\"ephemeral_resource_schemas\":{\"fz_eph\":{\"version\":0,\"block\":{"
    "\"attributes\":{\"id\":{\"type\":\"string\",\"computed\":true},"
    "\"token\":{\"type\":\"string\",\"computed\":true,"
    "\"sensitive\":true}}}}},"
    "\"functions\":{\"fz_fn\":{\"parameters\":[{\"name\":\"a\","
    "\"type\":\"string\"}],\"variadic_parameter\":{\"name\":\"v\","
    "\"type\":\"dynamic\"},\"return\":{\"type\":[\"object\",{\"x\":"
    "[\"list\",\"number\"],\"d\":\"dynamic\"}]}}},"
    "\"server_capabilities\":{\"plan_destroy\":false}}";

static const struct {
  const char *call, *type_name;
} calls[] = {
    {"GetProviderSchema", NULL},
    {"ValidateResourceConfig", "fz_all"},
    {"UpgradeResourceState", "fz_all"},
    {"ReadResource", "fz_all"},
    {"PlanResourceChange", "fz_all"},
    {"ApplyResourceChange", "fz_all"},
    {"ImportResourceState", "fz_all"},
    {"ReadDataSource", "fz_info"},
    {"StopProvider", NULL},
    {"CallFunction", "fz_fn"},
    {"MoveResourceState", "fz_all"},
    {"OpenEphemeralResource", "fz_eph"},
    {"RenewEphemeralResource", "fz_eph"},
};

static Arena schema_arena;
static ProvProviderSchema *schema;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  arena_init(&schema_arena, 0);
  Diags d;
  diag_init(&d, &schema_arena);
  if (!phttps_decode_schema(&schema_arena, "fuzz", schema_json,
                            strlen(schema_json), &schema, &d)) {
    fprintf(stderr, "fuzz_prov_answer: the fixed schema does not decode: "
                    "%s: %s\n", d.head ? d.head->summary : "?",
            d.head && d.head->detail ? d.head->detail : "");
    exit(1);
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  size_t k = data[0] % (sizeof calls / sizeof *calls);
  Arena a;
  arena_init(&a, 0);
  Diags d;
  diag_init(&d, &a);
  ProvCall c = {&a, &d, NULL};
  phttps_decode_answer(&c, "fuzz.example/fz/fz", schema, calls[k].call,
                       calls[k].type_name, (const char *)data + 1, size - 1);
  arena_release(&a);
  return 0;
}
