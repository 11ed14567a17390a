/*
** prov_random: the built-in hashicorp/random provider.
**
** random_id, random_integer, random_password, random_pet, random_shuffle,
** random_string and random_uuid, with the upstream (plugin framework)
** provider's schemas, schema versions, defaults, plan modifiers, import
** formats, state upgrades and messages.  Every argument forces
** replacement; `keepers` only when a non-null value changed (upstream's
** RequiresReplaceIfValuesNotNull).  Randomness comes from getrandom(2).
**
** Where cairn differs from upstream (documented in docs/providers.md):
** - random_pet draws from cairn's own word lists, so names differ;
** - random_integer and random_shuffle with `seed` are deterministic for a
**   given seed, but use cairn's generator (SplitMix64 over an FNV-1a hash
**   of the seed), not Go's math/rand, so the values differ from upstream;
** - bcrypt_hash hashes at most the first 72 bytes of the password (the
**   bcrypt limit; upstream's library rejects longer input).
*/
#include "provider.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

static const Type map_string = {.kind = TY_MAP, .elem = &ty_string};
static const Type list_string = {.kind = TY_LIST, .elem = &ty_string};

#define NATTRS(x) ((uint32_t)(sizeof(x) / sizeof((x)[0])))
#define OPT PROV_OPTIONAL
#define OC (PROV_OPTIONAL | PROV_COMPUTED)
#define COMP PROV_COMPUTED
#define REQ PROV_REQUIRED

#define KEEPERS                                                            \
  {.name = "keepers", .type = &map_string, .flags = OPT,                   \
   .description = "Arbitrary map of values that, when changed, will "      \
                  "trigger recreation of resource."}

static const ProvAttrSchema id_attrs[] = {
  {.name = "b64_std", .type = &ty_string, .flags = COMP,
   .description = "The generated id presented in base64 without additional "
                  "transformations."},
  {.name = "b64_url", .type = &ty_string, .flags = COMP,
   .description = "The generated id presented in base64, using the "
                  "URL-friendly character set."},
  {.name = "byte_length", .type = &ty_number, .flags = REQ,
   .description = "The number of random bytes to produce. The minimum "
                  "value is 1, which produces eight bits of randomness."},
  {.name = "dec", .type = &ty_string, .flags = COMP,
   .description = "The generated id presented in non-padded decimal "
                  "digits."},
  {.name = "hex", .type = &ty_string, .flags = COMP,
   .description = "The generated id presented in padded hexadecimal "
                  "digits."},
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "The generated id presented in base64 without additional "
                  "transformations or prefix."},
  KEEPERS,
  {.name = "prefix", .type = &ty_string, .flags = OPT,
   .description = "Arbitrary string to prefix the output value with."},
};

static const ProvAttrSchema int_attrs[] = {
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "The string representation of the integer result."},
  KEEPERS,
  {.name = "max", .type = &ty_number, .flags = REQ,
   .description = "The maximum inclusive value of the range."},
  {.name = "min", .type = &ty_number, .flags = REQ,
   .description = "The minimum inclusive value of the range."},
  {.name = "result", .type = &ty_number, .flags = COMP,
   .description = "The random integer result."},
  {.name = "seed", .type = &ty_string, .flags = OPT,
   .description = "A custom seed to always produce the same value."},
};

#define STRING_ATTRS(result_flags)                                         \
  KEEPERS,                                                                 \
  {.name = "length", .type = &ty_number, .flags = REQ,                     \
   .description = "The length of the string desired. The minimum value "   \
                  "for length is 1 and, length must also be >= "           \
                  "(`min_upper` + `min_lower` + `min_numeric` + "          \
                  "`min_special`)."},                                      \
  {.name = "lower", .type = &ty_bool, .flags = OC,                         \
   .description = "Include lowercase alphabet characters in the result. "  \
                  "Default value is `true`."},                             \
  {.name = "min_lower", .type = &ty_number, .flags = OC,                   \
   .description = "Minimum number of lowercase alphabet characters in "    \
                  "the result. Default value is `0`."},                    \
  {.name = "min_numeric", .type = &ty_number, .flags = OC,                 \
   .description = "Minimum number of numeric characters in the result. "   \
                  "Default value is `0`."},                                \
  {.name = "min_special", .type = &ty_number, .flags = OC,                 \
   .description = "Minimum number of special characters in the result. "   \
                  "Default value is `0`."},                                \
  {.name = "min_upper", .type = &ty_number, .flags = OC,                   \
   .description = "Minimum number of uppercase alphabet characters in "    \
                  "the result. Default value is `0`."},                    \
  {.name = "number", .type = &ty_bool, .flags = OC | PROV_DEPRECATED,      \
   .description = "Include numeric characters in the result. Default "     \
                  "value is `true`. **NOTE**: This is deprecated, use "    \
                  "`numeric` instead.",                                    \
   .deprecation_message = "**NOTE**: This is deprecated, use `numeric` "   \
                          "instead."},                                     \
  {.name = "numeric", .type = &ty_bool, .flags = OC,                       \
   .description = "Include numeric characters in the result. Default "     \
                  "value is `true`."},                                     \
  {.name = "override_special", .type = &ty_string, .flags = OPT,           \
   .description = "Supply your own list of special characters to use for " \
                  "string generation."},                                   \
  {.name = "result", .type = &ty_string, .flags = (result_flags),          \
   .description = "The generated random string."},                         \
  {.name = "special", .type = &ty_bool, .flags = OC,                       \
   .description = "Include special characters in the result. These are "  \
                  "`!@#$%&*()-_=+[]{}<>:?`. Default value is `true`."},    \
  {.name = "upper", .type = &ty_bool, .flags = OC,                         \
   .description = "Include uppercase alphabet characters in the result. "  \
                  "Default value is `true`."}

static const ProvAttrSchema password_attrs[] = {
  {.name = "bcrypt_hash", .type = &ty_string,
   .flags = COMP | PROV_SENSITIVE,
   .description = "A bcrypt hash of the generated random string."},
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "A static value used internally by Terraform, this "
                  "should not be referenced in configurations."},
  STRING_ATTRS(COMP | PROV_SENSITIVE),
};

static const ProvAttrSchema string_attrs[] = {
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "The generated random string."},
  STRING_ATTRS(COMP),
};

static const ProvAttrSchema pet_attrs[] = {
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "The random pet name."},
  KEEPERS,
  {.name = "length", .type = &ty_number, .flags = OC,
   .description = "The length (in words) of the pet name. Defaults "
                  "(unset) to `2`."},
  {.name = "prefix", .type = &ty_string, .flags = OPT,
   .description = "A string to prefix the name with."},
  {.name = "separator", .type = &ty_string, .flags = OC,
   .description = "The character to separate words in the pet name. "
                  "Defaults (unset) to \"-\"."},
};

static const ProvAttrSchema shuffle_attrs[] = {
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "A static value used internally by Terraform, this "
                  "should not be referenced in configurations."},
  {.name = "input", .type = &list_string, .flags = REQ,
   .description = "The list of strings to shuffle."},
  KEEPERS,
  {.name = "result", .type = &list_string, .flags = COMP,
   .description = "Random permutation of the list of strings given in "
                  "`input`."},
  {.name = "result_count", .type = &ty_number, .flags = OPT,
   .description = "The number of results to return. Defaults to the "
                  "number of items in the `input` list."},
  {.name = "seed", .type = &ty_string, .flags = OPT,
   .description = "Arbitrary string with which to seed the random number "
                  "generator."},
};

static const ProvAttrSchema uuid_attrs[] = {
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "The generated uuid presented in string format."},
  KEEPERS,
  {.name = "result", .type = &ty_string, .flags = COMP,
   .description = "The generated uuid presented in string format."},
};

static const ProvBlockSchema id_block = {
  .attrs = id_attrs, .nattrs = NATTRS(id_attrs)};
static const ProvBlockSchema int_block = {
  .attrs = int_attrs, .nattrs = NATTRS(int_attrs)};
static const ProvBlockSchema password_block = {
  .attrs = password_attrs, .nattrs = NATTRS(password_attrs)};
static const ProvBlockSchema pet_block = {
  .attrs = pet_attrs, .nattrs = NATTRS(pet_attrs)};
static const ProvBlockSchema shuffle_block = {
  .attrs = shuffle_attrs, .nattrs = NATTRS(shuffle_attrs)};
static const ProvBlockSchema string_block = {
  .attrs = string_attrs, .nattrs = NATTRS(string_attrs)};
static const ProvBlockSchema uuid_block = {
  .attrs = uuid_attrs, .nattrs = NATTRS(uuid_attrs)};
static const ProvBlockSchema empty_block = {0};

enum { R_ID, R_INTEGER, R_PASSWORD, R_PET, R_SHUFFLE, R_STRING, R_UUID };

static const ProvTypeSchema resources[] = {
  [R_ID] = {"random_id", {0, &id_block}},
  [R_INTEGER] = {"random_integer", {0, &int_block}},
  [R_PASSWORD] = {"random_password", {3, &password_block}},
  [R_PET] = {"random_pet", {0, &pet_block}},
  [R_SHUFFLE] = {"random_shuffle", {0, &shuffle_block}},
  [R_STRING] = {"random_string", {2, &string_block}},
  [R_UUID] = {"random_uuid", {0, &uuid_block}},
};
static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .resources = resources, .nresources = NATTRS(resources),
  .plan_destroy = true,
};

/* Blowfish's initial state: the fractional hex digits of pi (P-array
** followed by the four S-boxes), for bcrypt. */
static const uint32_t pi_words[18 + 4 * 256] = {
  0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0,
  0x082efa98, 0xec4e6c89, 0x452821e6, 0x38d01377, 0xbe5466cf, 0x34e90c6c,
  0xc0ac29b7, 0xc97c50dd, 0x3f84d5b5, 0xb5470917, 0x9216d5d9, 0x8979fb1b,
  0xd1310ba6, 0x98dfb5ac, 0x2ffd72db, 0xd01adfb7, 0xb8e1afed, 0x6a267e96,
  0xba7c9045, 0xf12c7f99, 0x24a19947, 0xb3916cf7, 0x0801f2e2, 0x858efc16,
  0x636920d8, 0x71574e69, 0xa458fea3, 0xf4933d7e, 0x0d95748f, 0x728eb658,
  0x718bcd58, 0x82154aee, 0x7b54a41d, 0xc25a59b5, 0x9c30d539, 0x2af26013,
  0xc5d1b023, 0x286085f0, 0xca417918, 0xb8db38ef, 0x8e79dcb0, 0x603a180e,
  0x6c9e0e8b, 0xb01e8a3e, 0xd71577c1, 0xbd314b27, 0x78af2fda, 0x55605c60,
  0xe65525f3, 0xaa55ab94, 0x57489862, 0x63e81440, 0x55ca396a, 0x2aab10b6,
  0xb4cc5c34, 0x1141e8ce, 0xa15486af, 0x7c72e993, 0xb3ee1411, 0x636fbc2a,
  0x2ba9c55d, 0x741831f6, 0xce5c3e16, 0x9b87931e, 0xafd6ba33, 0x6c24cf5c,
  0x7a325381, 0x28958677, 0x3b8f4898, 0x6b4bb9af, 0xc4bfe81b, 0x66282193,
  0x61d809cc, 0xfb21a991, 0x487cac60, 0x5dec8032, 0xef845d5d, 0xe98575b1,
  0xdc262302, 0xeb651b88, 0x23893e81, 0xd396acc5, 0x0f6d6ff3, 0x83f44239,
  0x2e0b4482, 0xa4842004, 0x69c8f04a, 0x9e1f9b5e, 0x21c66842, 0xf6e96c9a,
  0x670c9c61, 0xabd388f0, 0x6a51a0d2, 0xd8542f68, 0x960fa728, 0xab5133a3,
  0x6eef0b6c, 0x137a3be4, 0xba3bf050, 0x7efb2a98, 0xa1f1651d, 0x39af0176,
  0x66ca593e, 0x82430e88, 0x8cee8619, 0x456f9fb4, 0x7d84a5c3, 0x3b8b5ebe,
  0xe06f75d8, 0x85c12073, 0x401a449f, 0x56c16aa6, 0x4ed3aa62, 0x363f7706,
  0x1bfedf72, 0x429b023d, 0x37d0d724, 0xd00a1248, 0xdb0fead3, 0x49f1c09b,
  0x075372c9, 0x80991b7b, 0x25d479d8, 0xf6e8def7, 0xe3fe501a, 0xb6794c3b,
  0x976ce0bd, 0x04c006ba, 0xc1a94fb6, 0x409f60c4, 0x5e5c9ec2, 0x196a2463,
  0x68fb6faf, 0x3e6c53b5, 0x1339b2eb, 0x3b52ec6f, 0x6dfc511f, 0x9b30952c,
  0xcc814544, 0xaf5ebd09, 0xbee3d004, 0xde334afd, 0x660f2807, 0x192e4bb3,
  0xc0cba857, 0x45c8740f, 0xd20b5f39, 0xb9d3fbdb, 0x5579c0bd, 0x1a60320a,
  0xd6a100c6, 0x402c7279, 0x679f25fe, 0xfb1fa3cc, 0x8ea5e9f8, 0xdb3222f8,
  0x3c7516df, 0xfd616b15, 0x2f501ec8, 0xad0552ab, 0x323db5fa, 0xfd238760,
  0x53317b48, 0x3e00df82, 0x9e5c57bb, 0xca6f8ca0, 0x1a87562e, 0xdf1769db,
  0xd542a8f6, 0x287effc3, 0xac6732c6, 0x8c4f5573, 0x695b27b0, 0xbbca58c8,
  0xe1ffa35d, 0xb8f011a0, 0x10fa3d98, 0xfd2183b8, 0x4afcb56c, 0x2dd1d35b,
  0x9a53e479, 0xb6f84565, 0xd28e49bc, 0x4bfb9790, 0xe1ddf2da, 0xa4cb7e33,
  0x62fb1341, 0xcee4c6e8, 0xef20cada, 0x36774c01, 0xd07e9efe, 0x2bf11fb4,
  0x95dbda4d, 0xae909198, 0xeaad8e71, 0x6b93d5a0, 0xd08ed1d0, 0xafc725e0,
  0x8e3c5b2f, 0x8e7594b7, 0x8ff6e2fb, 0xf2122b64, 0x8888b812, 0x900df01c,
  0x4fad5ea0, 0x688fc31c, 0xd1cff191, 0xb3a8c1ad, 0x2f2f2218, 0xbe0e1777,
  0xea752dfe, 0x8b021fa1, 0xe5a0cc0f, 0xb56f74e8, 0x18acf3d6, 0xce89e299,
  0xb4a84fe0, 0xfd13e0b7, 0x7cc43b81, 0xd2ada8d9, 0x165fa266, 0x80957705,
  0x93cc7314, 0x211a1477, 0xe6ad2065, 0x77b5fa86, 0xc75442f5, 0xfb9d35cf,
  0xebcdaf0c, 0x7b3e89a0, 0xd6411bd3, 0xae1e7e49, 0x00250e2d, 0x2071b35e,
  0x226800bb, 0x57b8e0af, 0x2464369b, 0xf009b91e, 0x5563911d, 0x59dfa6aa,
  0x78c14389, 0xd95a537f, 0x207d5ba2, 0x02e5b9c5, 0x83260376, 0x6295cfa9,
  0x11c81968, 0x4e734a41, 0xb3472dca, 0x7b14a94a, 0x1b510052, 0x9a532915,
  0xd60f573f, 0xbc9bc6e4, 0x2b60a476, 0x81e67400, 0x08ba6fb5, 0x571be91f,
  0xf296ec6b, 0x2a0dd915, 0xb6636521, 0xe7b9f9b6, 0xff34052e, 0xc5855664,
  0x53b02d5d, 0xa99f8fa1, 0x08ba4799, 0x6e85076a, 0x4b7a70e9, 0xb5b32944,
  0xdb75092e, 0xc4192623, 0xad6ea6b0, 0x49a7df7d, 0x9cee60b8, 0x8fedb266,
  0xecaa8c71, 0x699a17ff, 0x5664526c, 0xc2b19ee1, 0x193602a5, 0x75094c29,
  0xa0591340, 0xe4183a3e, 0x3f54989a, 0x5b429d65, 0x6b8fe4d6, 0x99f73fd6,
  0xa1d29c07, 0xefe830f5, 0x4d2d38e6, 0xf0255dc1, 0x4cdd2086, 0x8470eb26,
  0x6382e9c6, 0x021ecc5e, 0x09686b3f, 0x3ebaefc9, 0x3c971814, 0x6b6a70a1,
  0x687f3584, 0x52a0e286, 0xb79c5305, 0xaa500737, 0x3e07841c, 0x7fdeae5c,
  0x8e7d44ec, 0x5716f2b8, 0xb03ada37, 0xf0500c0d, 0xf01c1f04, 0x0200b3ff,
  0xae0cf51a, 0x3cb574b2, 0x25837a58, 0xdc0921bd, 0xd19113f9, 0x7ca92ff6,
  0x94324773, 0x22f54701, 0x3ae5e581, 0x37c2dadc, 0xc8b57634, 0x9af3dda7,
  0xa9446146, 0x0fd0030e, 0xecc8c73e, 0xa4751e41, 0xe238cd99, 0x3bea0e2f,
  0x3280bba1, 0x183eb331, 0x4e548b38, 0x4f6db908, 0x6f420d03, 0xf60a04bf,
  0x2cb81290, 0x24977c79, 0x5679b072, 0xbcaf89af, 0xde9a771f, 0xd9930810,
  0xb38bae12, 0xdccf3f2e, 0x5512721f, 0x2e6b7124, 0x501adde6, 0x9f84cd87,
  0x7a584718, 0x7408da17, 0xbc9f9abc, 0xe94b7d8c, 0xec7aec3a, 0xdb851dfa,
  0x63094366, 0xc464c3d2, 0xef1c1847, 0x3215d908, 0xdd433b37, 0x24c2ba16,
  0x12a14d43, 0x2a65c451, 0x50940002, 0x133ae4dd, 0x71dff89e, 0x10314e55,
  0x81ac77d6, 0x5f11199b, 0x043556f1, 0xd7a3c76b, 0x3c11183b, 0x5924a509,
  0xf28fe6ed, 0x97f1fbfa, 0x9ebabf2c, 0x1e153c6e, 0x86e34570, 0xeae96fb1,
  0x860e5e0a, 0x5a3e2ab3, 0x771fe71c, 0x4e3d06fa, 0x2965dcb9, 0x99e71d0f,
  0x803e89d6, 0x5266c825, 0x2e4cc978, 0x9c10b36a, 0xc6150eba, 0x94e2ea78,
  0xa5fc3c53, 0x1e0a2df4, 0xf2f74ea7, 0x361d2b3d, 0x1939260f, 0x19c27960,
  0x5223a708, 0xf71312b6, 0xebadfe6e, 0xeac31f66, 0xe3bc4595, 0xa67bc883,
  0xb17f37d1, 0x018cff28, 0xc332ddef, 0xbe6c5aa5, 0x65582185, 0x68ab9802,
  0xeecea50f, 0xdb2f953b, 0x2aef7dad, 0x5b6e2f84, 0x1521b628, 0x29076170,
  0xecdd4775, 0x619f1510, 0x13cca830, 0xeb61bd96, 0x0334fe1e, 0xaa0363cf,
  0xb5735c90, 0x4c70a239, 0xd59e9e0b, 0xcbaade14, 0xeecc86bc, 0x60622ca7,
  0x9cab5cab, 0xb2f3846e, 0x648b1eaf, 0x19bdf0ca, 0xa02369b9, 0x655abb50,
  0x40685a32, 0x3c2ab4b3, 0x319ee9d5, 0xc021b8f7, 0x9b540b19, 0x875fa099,
  0x95f7997e, 0x623d7da8, 0xf837889a, 0x97e32d77, 0x11ed935f, 0x16681281,
  0x0e358829, 0xc7e61fd6, 0x96dedfa1, 0x7858ba99, 0x57f584a5, 0x1b227263,
  0x9b83c3ff, 0x1ac24696, 0xcdb30aeb, 0x532e3054, 0x8fd948e4, 0x6dbc3128,
  0x58ebf2ef, 0x34c6ffea, 0xfe28ed61, 0xee7c3c73, 0x5d4a14d9, 0xe864b7e3,
  0x42105d14, 0x203e13e0, 0x45eee2b6, 0xa3aaabea, 0xdb6c4f15, 0xfacb4fd0,
  0xc742f442, 0xef6abbb5, 0x654f3b1d, 0x41cd2105, 0xd81e799e, 0x86854dc7,
  0xe44b476a, 0x3d816250, 0xcf62a1f2, 0x5b8d2646, 0xfc8883a0, 0xc1c7b6a3,
  0x7f1524c3, 0x69cb7492, 0x47848a0b, 0x5692b285, 0x095bbf00, 0xad19489d,
  0x1462b174, 0x23820e00, 0x58428d2a, 0x0c55f5ea, 0x1dadf43e, 0x233f7061,
  0x3372f092, 0x8d937e41, 0xd65fecf1, 0x6c223bdb, 0x7cde3759, 0xcbee7460,
  0x4085f2a7, 0xce77326e, 0xa6078084, 0x19f8509e, 0xe8efd855, 0x61d99735,
  0xa969a7aa, 0xc50c06c2, 0x5a04abfc, 0x800bcadc, 0x9e447a2e, 0xc3453484,
  0xfdd56705, 0x0e1e9ec9, 0xdb73dbd3, 0x105588cd, 0x675fda79, 0xe3674340,
  0xc5c43465, 0x713e38d8, 0x3d28f89e, 0xf16dff20, 0x153e21e7, 0x8fb03d4a,
  0xe6e39f2b, 0xdb83adf7, 0xe93d5a68, 0x948140f7, 0xf64c261c, 0x94692934,
  0x411520f7, 0x7602d4f7, 0xbcf46b2e, 0xd4a20068, 0xd4082471, 0x3320f46a,
  0x43b7d4b7, 0x500061af, 0x1e39f62e, 0x97244546, 0x14214f74, 0xbf8b8840,
  0x4d95fc1d, 0x96b591af, 0x70f4ddd3, 0x66a02f45, 0xbfbc09ec, 0x03bd9785,
  0x7fac6dd0, 0x31cb8504, 0x96eb27b3, 0x55fd3941, 0xda2547e6, 0xabca0a9a,
  0x28507825, 0x530429f4, 0x0a2c86da, 0xe9b66dfb, 0x68dc1462, 0xd7486900,
  0x680ec0a4, 0x27a18dee, 0x4f3ffea2, 0xe887ad8c, 0xb58ce006, 0x7af4d6b6,
  0xaace1e7c, 0xd3375fec, 0xce78a399, 0x406b2a42, 0x20fe9e35, 0xd9f385b9,
  0xee39d7ab, 0x3b124e8b, 0x1dc9faf7, 0x4b6d1856, 0x26a36631, 0xeae397b2,
  0x3a6efa74, 0xdd5b4332, 0x6841e7f7, 0xca7820fb, 0xfb0af54e, 0xd8feb397,
  0x454056ac, 0xba489527, 0x55533a3a, 0x20838d87, 0xfe6ba9b7, 0xd096954b,
  0x55a867bc, 0xa1159a58, 0xcca92963, 0x99e1db33, 0xa62a4a56, 0x3f3125f9,
  0x5ef47e1c, 0x9029317c, 0xfdf8e802, 0x04272f70, 0x80bb155c, 0x05282ce3,
  0x95c11548, 0xe4c66d22, 0x48c1133f, 0xc70f86dc, 0x07f9c9ee, 0x41041f0f,
  0x404779a4, 0x5d886e17, 0x325f51eb, 0xd59bc0d1, 0xf2bcc18f, 0x41113564,
  0x257b7834, 0x602a9c60, 0xdff8e8a3, 0x1f636c1b, 0x0e12b4c2, 0x02e1329e,
  0xaf664fd1, 0xcad18115, 0x6b2395e0, 0x333e92e1, 0x3b240b62, 0xeebeb922,
  0x85b2a20e, 0xe6ba0d99, 0xde720c8c, 0x2da2f728, 0xd0127845, 0x95b794fd,
  0x647d0862, 0xe7ccf5f0, 0x5449a36f, 0x877d48fa, 0xc39dfd27, 0xf33e8d1e,
  0x0a476341, 0x992eff74, 0x3a6f6eab, 0xf4f8fd37, 0xa812dc60, 0xa1ebddf8,
  0x991be14c, 0xdb6e6b0d, 0xc67b5510, 0x6d672c37, 0x2765d43b, 0xdcd0e804,
  0xf1290dc7, 0xcc00ffa3, 0xb5390f92, 0x690fed0b, 0x667b9ffb, 0xcedb7d9c,
  0xa091cf0b, 0xd9155ea3, 0xbb132f88, 0x515bad24, 0x7b9479bf, 0x763bd6eb,
  0x37392eb3, 0xcc115979, 0x8026e297, 0xf42e312d, 0x6842ada7, 0xc66a2b3b,
  0x12754ccc, 0x782ef11c, 0x6a124237, 0xb79251e7, 0x06a1bbe6, 0x4bfb6350,
  0x1a6b1018, 0x11caedfa, 0x3d25bdd8, 0xe2e1c3c9, 0x44421659, 0x0a121386,
  0xd90cec6e, 0xd5abea2a, 0x64af674e, 0xda86a85f, 0xbebfe988, 0x64e4c3fe,
  0x9dbc8057, 0xf0f7c086, 0x60787bf8, 0x6003604d, 0xd1fd8346, 0xf6381fb0,
  0x7745ae04, 0xd736fccc, 0x83426b33, 0xf01eab71, 0xb0804187, 0x3c005e5f,
  0x77a057be, 0xbde8ae24, 0x55464299, 0xbf582e61, 0x4e58f48f, 0xf2ddfda2,
  0xf474ef38, 0x8789bdc2, 0x5366f9c3, 0xc8b38e74, 0xb475f255, 0x46fcd9b9,
  0x7aeb2661, 0x8b1ddf84, 0x846a0e79, 0x915f95e2, 0x466e598e, 0x20b45770,
  0x8cd55591, 0xc902de4c, 0xb90bace1, 0xbb8205d0, 0x11a86248, 0x7574a99e,
  0xb77f19b6, 0xe0a9dc09, 0x662d09a1, 0xc4324633, 0xe85a1f02, 0x09f0be8c,
  0x4a99a025, 0x1d6efe10, 0x1ab93d1d, 0x0ba5a4df, 0xa186f20f, 0x2868f169,
  0xdcb7da83, 0x573906fe, 0xa1e2ce9b, 0x4fcd7f52, 0x50115e01, 0xa70683fa,
  0xa002b5c4, 0x0de6d027, 0x9af88c27, 0x773f8641, 0xc3604c06, 0x61a806b5,
  0xf0177a28, 0xc0f586e0, 0x006058aa, 0x30dc7d62, 0x11e69ed7, 0x2338ea63,
  0x53c2dd94, 0xc2c21634, 0xbbcbee56, 0x90bcb6de, 0xebfc7da1, 0xce591d76,
  0x6f05e409, 0x4b7c0188, 0x39720a3d, 0x7c927c24, 0x86e3725f, 0x724d9db9,
  0x1ac15bb4, 0xd39eb8fc, 0xed545578, 0x08fca5b5, 0xd83d7cd3, 0x4dad0fc4,
  0x1e50ef5e, 0xb161e6f8, 0xa28514d9, 0x6c51133c, 0x6fd5c7e7, 0x56e14ec4,
  0x362abfce, 0xddc6c837, 0xd79a3234, 0x92638212, 0x670efa8e, 0x406000e0,
  0x3a39ce37, 0xd3faf5cf, 0xabc27737, 0x5ac52d1b, 0x5cb0679e, 0x4fa33742,
  0xd3822740, 0x99bc9bbe, 0xd5118e9d, 0xbf0f7315, 0xd62d1c7e, 0xc700c47b,
  0xb78c1b6b, 0x21a19045, 0xb26eb1be, 0x6a366eb4, 0x5748ab2f, 0xbc946e79,
  0xc6a376d2, 0x6549c2c8, 0x530ff8ee, 0x468dde7d, 0xd5730a1d, 0x4cd04dc6,
  0x2939bbdb, 0xa9ba4650, 0xac9526e8, 0xbe5ee304, 0xa1fad5f0, 0x6a2d519a,
  0x63ef8ce2, 0x9a86ee22, 0xc089c2b8, 0x43242ef6, 0xa51e03aa, 0x9cf2d0a4,
  0x83c061ba, 0x9be96a4d, 0x8fe51550, 0xba645bd6, 0x2826a2f9, 0xa73a3ae1,
  0x4ba99586, 0xef5562e9, 0xc72fefd3, 0xf752f7da, 0x3f046f69, 0x77fa0a59,
  0x80e4a915, 0x87b08601, 0x9b09e6ad, 0x3b3ee593, 0xe990fd5a, 0x9e34d797,
  0x2cf0b7d9, 0x022b8b51, 0x96d5ac3a, 0x017da67d, 0xd1cf3ed6, 0x7c7d2d28,
  0x1f9f25cf, 0xadf2b89b, 0x5ad6b472, 0x5a88f54c, 0xe029ac71, 0xe019a5e6,
  0x47b0acfd, 0xed93fa9b, 0xe8d3c48d, 0x283b57cc, 0xf8d56629, 0x79132e28,
  0x785f0191, 0xed756055, 0xf7960e44, 0xe3d35e8c, 0x15056dd4, 0x88f46dba,
  0x03a16125, 0x0564f0bd, 0xc3eb9e15, 0x3c9057a2, 0x97271aec, 0xa93a072a,
  0x1b3f6d9b, 0x1e6321f5, 0xf59c66fb, 0x26dcf319, 0x7533d928, 0xb155fdf5,
  0x03563482, 0x8aba3cbb, 0x28517711, 0xc20ad9f8, 0xabcc5167, 0xccad925f,
  0x4de81751, 0x3830dc8e, 0x379d5862, 0x9320f991, 0xea7a90c2, 0xfb3e7bce,
  0x5121ce64, 0x774fbe32, 0xa8b6e37e, 0xc3293d46, 0x48de5369, 0x6413e680,
  0xa2ae0810, 0xdd6db224, 0x69852dfd, 0x09072166, 0xb39a460a, 0x6445c0dd,
  0x586cdecf, 0x1c20c8ae, 0x5bbef7dd, 0x1b588d40, 0xccd2017f, 0x6bb4e3bb,
  0xdda26a7e, 0x3a59ff45, 0x3e350a44, 0xbcb4cdd5, 0x72eacea8, 0xfa6484bb,
  0x8d6612ae, 0xbf3c6f47, 0xd29be463, 0x542f5d9e, 0xaec2771b, 0xf64e6370,
  0x740e0d8d, 0xe75b1357, 0xf8721671, 0xaf537d5d, 0x4040cb08, 0x4eb4e2cc,
  0x34d2466a, 0x0115af84, 0xe1b00428, 0x95983a1d, 0x06b89fb4, 0xce6ea048,
  0x6f3f3b82, 0x3520ab82, 0x011a1d4b, 0x277227f8, 0x611560b1, 0xe7933fdc,
  0xbb3a792b, 0x344525bd, 0xa08839e1, 0x51ce794b, 0x2f32c9b7, 0xa01fbac9,
  0xe01cc87e, 0xbcc7d1f6, 0xcf0111c3, 0xa1e8aac7, 0x1a908749, 0xd44fbd9a,
  0xd0dadecb, 0xd50ada38, 0x0339c32a, 0xc6913667, 0x8df9317c, 0xe0b12b4f,
  0xf79e59b7, 0x43f5bb3a, 0xf2d519ff, 0x27d9459c, 0xbf97222c, 0x15e6fc2a,
  0x0f91fc71, 0x9b941525, 0xfae59361, 0xceb69ceb, 0xc2a86459, 0x12baa8d1,
  0xb6c1075e, 0xe3056a0c, 0x10d25065, 0xcb03a442, 0xe0ec6e0e, 0x1698db3b,
  0x4c98a0be, 0x3278e964, 0x9f1f9532, 0xe0d392df, 0xd3a0342b, 0x8971f21e,
  0x1b0a7441, 0x4ba3348c, 0xc5be7120, 0xc37632d8, 0xdf359f8d, 0x9b992f2e,
  0xe60b6f47, 0x0fe3f11d, 0xe54cda54, 0x1edad891, 0xce6279cf, 0xcd3e7e6f,
  0x1618b166, 0xfd2c1d05, 0x848fd2c5, 0xf6fb2299, 0xf523f357, 0xa6327623,
  0x93a83531, 0x56cccd02, 0xacf08162, 0x5a75ebb5, 0x6e163697, 0x88d273cc,
  0xde966292, 0x81b949d0, 0x4c50901b, 0x71c65614, 0xe6c6c7bd, 0x327a140a,
  0x45e1d006, 0xc3f27b9a, 0xc9aa53fd, 0x62a80f00, 0xbb25bfe2, 0x35bdd2f6,
  0x71126905, 0xb2040222, 0xb6cbcf7c, 0xcd769c2b, 0x53113ec0, 0x1640e3d3,
  0x38abbd60, 0x2547adf0, 0xba38209c, 0xf746ce76, 0x77afa1c5, 0x20756060,
  0x85cbfe4e, 0x8ae88dd8, 0x7aaaf9b0, 0x4cf9aa7e, 0x1948c25c, 0x02fb8a8c,
  0x01c36ae4, 0xd6ebe1f9, 0x90d4f869, 0xa65cdea0, 0x3f09252d, 0xc208e69f,
  0xb74e6132, 0xce77e25b, 0x578fdfe3, 0x3ac372e6,
};

/* ---- Randomness ------------------------------------------------------ */

/* A seeded generator for `seed` arguments; NULL seed means the OS. */
typedef struct Rng {
  bool seeded;
  uint64_t s;
} Rng;

static Rng rng_new(Value seed)
{
  Rng r = {0};
  if (!val_is_null(seed) && val_is_known(seed)) {
    uint64_t h = 14695981039346656037ull;  /* FNV-1a */
    for (uint32_t i = 0; i < seed.len; i++) {
      h ^= (unsigned char)seed.u.s[i];
      h *= 1099511628211ull;
    }
    r.seeded = true;
    r.s = h;
  }
  return r;
}

static uint64_t rng_next(Rng *r)
{
  if (!r->seeded) {
    uint64_t v;
    prov_random_bytes(&v, sizeof v);
    return v;
  }
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);  /* SplitMix64 */
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in [0, n); n == 0 means the full 64-bit range. */
static uint64_t rng_below(Rng *r, uint64_t n)
{
  if (n == 0)
    return rng_next(r);
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  for (;;) {
    uint64_t v = rng_next(r);
    if (v < limit)
      return v % n;
  }
}

static void rng_shuffle_idx(Rng *r, uint32_t *idx, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    idx[i] = i;
  for (uint32_t i = n; i > 1; i--) {
    uint32_t j = (uint32_t)rng_below(r, i);
    uint32_t t = idx[i - 1];
    idx[i - 1] = idx[j];
    idx[j] = t;
  }
}

/* ---- bcrypt (Go's golang.org/x/crypto/bcrypt, "$2a$", cost 10) -------- */

typedef struct Bf {
  uint32_t p[18];
  uint32_t s[4][256];
} Bf;

static uint32_t bf_f(const Bf *b, uint32_t x)
{
  return ((b->s[0][x >> 24] + b->s[1][(x >> 16) & 255]) ^
          b->s[2][(x >> 8) & 255]) +
         b->s[3][x & 255];
}

static void bf_encrypt(const Bf *b, uint32_t *l, uint32_t *r)
{
  uint32_t xl = *l ^ b->p[0], xr = *r;
  for (int i = 1; i <= 16; i += 2) {
    xr ^= bf_f(b, xl) ^ b->p[i];
    xl ^= bf_f(b, xr) ^ b->p[i + 1];
  }
  *l = xr ^ b->p[17];
  *r = xl;
}

static uint32_t stream_word(const uint8_t *d, size_t n, size_t *j)
{
  uint32_t w = 0;
  for (int i = 0; i < 4; i++) {
    if (*j >= n)
      *j = 0;
    w = w << 8 | d[(*j)++];
  }
  return w;
}

/* ExpandKey; salt may be NULL (expand0state). */
static void bf_expand(Bf *b, const uint8_t *salt, size_t sn,
                      const uint8_t *key, size_t kn)
{
  size_t j = 0;
  for (int i = 0; i < 18; i++)
    b->p[i] ^= stream_word(key, kn, &j);
  uint32_t l = 0, r = 0;
  j = 0;
  uint32_t *all[2] = {b->p, &b->s[0][0]};
  size_t cnt[2] = {18, 4 * 256};
  for (int part = 0; part < 2; part++)
    for (size_t i = 0; i < cnt[part]; i += 2) {
      if (salt) {
        l ^= stream_word(salt, sn, &j);
        r ^= stream_word(salt, sn, &j);
      }
      bf_encrypt(b, &l, &r);
      all[part][i] = l;
      all[part][i + 1] = r;
    }
}

static const char bc_alpha[] =
    "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* bcrypt's base64 (no padding). */
static void bc_encode(Buf *out, const uint8_t *d, size_t n)
{
  size_t i = 0;
  while (i < n) {
    uint32_t c1 = d[i++];
    buf_putc(out, bc_alpha[c1 >> 2]);
    c1 = (c1 & 3) << 4;
    if (i >= n) {
      buf_putc(out, bc_alpha[c1]);
      break;
    }
    uint32_t c2 = d[i++];
    buf_putc(out, bc_alpha[c1 | c2 >> 4]);
    c1 = (c2 & 15) << 2;
    if (i >= n) {
      buf_putc(out, bc_alpha[c1]);
      break;
    }
    c2 = d[i++];
    buf_putc(out, bc_alpha[c1 | c2 >> 6]);
    buf_putc(out, bc_alpha[c2 & 63]);
  }
}

static bool bc_decode(const char *s, size_t n, uint8_t *out, size_t outn)
{
  size_t k = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n && k < outn; i++) {
    const char *c = memchr(bc_alpha, s[i], 64);
    if (!c || !s[i])
      return false;
    acc = acc << 6 | (uint32_t)(c - bc_alpha);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[k++] = (uint8_t)(acc >> bits);
    }
  }
  return k == outn;
}

/* The hash of pw with the given 16-byte salt and cost. */
static const char *bcrypt_with_salt(Arena *a, const char *pw, size_t pwn,
                                    const uint8_t salt[16], int cost)
{
  uint8_t key[73];
  size_t kn = pwn > 72 ? 72 : pwn;
  memcpy(key, pw, kn);
  key[kn++] = 0;
  if (kn > 72)
    kn = 72;
  Bf *b = ARENA_NEW(a, Bf, 1);
  memcpy(b->p, pi_words, sizeof b->p);
  memcpy(b->s, pi_words + 18, sizeof b->s);
  bf_expand(b, salt, 16, key, kn);
  for (uint64_t i = 0; i < (1ull << cost); i++) {
    bf_expand(b, NULL, 0, key, kn);
    bf_expand(b, NULL, 0, salt, 16);
  }
  static const char magic[] = "OrpheanBeholderScryDoubt";
  uint32_t c[6];
  for (int i = 0; i < 6; i++)
    c[i] = (uint32_t)(unsigned char)magic[4 * i] << 24 |
           (uint32_t)(unsigned char)magic[4 * i + 1] << 16 |
           (uint32_t)(unsigned char)magic[4 * i + 2] << 8 |
           (unsigned char)magic[4 * i + 3];
  for (int k = 0; k < 64; k++)
    for (int i = 0; i < 6; i += 2)
      bf_encrypt(b, &c[i], &c[i + 1]);
  uint8_t raw[24];
  for (int i = 0; i < 6; i++) {
    raw[4 * i] = (uint8_t)(c[i] >> 24);
    raw[4 * i + 1] = (uint8_t)(c[i] >> 16);
    raw[4 * i + 2] = (uint8_t)(c[i] >> 8);
    raw[4 * i + 3] = (uint8_t)c[i];
  }
  Buf out;
  buf_init(&out, a);
  buf_printf(&out, "$2a$%02d$", cost);
  bc_encode(&out, salt, 16);
  bc_encode(&out, raw, 23);
  return buf_str(&out);
}

static const char *bcrypt_hash(Arena *a, const char *pw, size_t n)
{
  uint8_t salt[16];
  prov_random_bytes(salt, sizeof salt);
  return bcrypt_with_salt(a, pw, n, salt, 10);
}

/* CompareHashAndPassword: true when hash is a bcrypt hash of pw. */
static bool bcrypt_matches(Arena *a, const char *hash, const char *pw,
                           size_t n)
{
  size_t hn = strlen(hash);
  if (hn != 60 || hash[0] != '$' || hash[1] != '2' || hash[3] != '$' ||
      hash[6] != '$' || hash[4] < '0' || hash[4] > '3' || hash[5] < '0' ||
      hash[5] > '9')
    return false;
  int cost = (hash[4] - '0') * 10 + (hash[5] - '0');
  if (cost < 4 || cost > 31)
    return false;
  uint8_t salt[16];
  if (!bc_decode(hash + 7, 22, salt, 16))
    return false;
  const char *h = bcrypt_with_salt(a, pw, n, salt, cost);
  return strcmp(h + 7, hash + 7) == 0;
}

/* ---- Pet names (cairn's own lists; upstream's differ) ---------------- */

static const char *const adverbs[] = {
  "ably", "actually", "amazingly", "badly", "barely", "boldly", "bravely",
  "briefly", "brightly", "busily", "calmly", "carefully", "certainly",
  "cheaply", "cleanly", "clearly", "closely", "correctly", "curiously",
  "daily", "deadly", "deeply", "directly", "eagerly", "easily", "evenly",
  "exactly", "fairly", "finally", "firmly", "freely", "frankly", "gladly",
  "gently", "greatly", "happily", "hardly", "highly", "honestly", "hugely",
  "jointly", "justly", "kindly", "largely", "lightly", "likely", "loudly",
  "lovely", "mainly", "merely", "mildly", "mostly", "neatly", "nicely",
  "openly", "partly", "politely", "poorly", "possibly", "promptly",
  "properly", "proudly", "quickly", "quietly", "rapidly", "rarely",
  "really", "safely", "sharply", "simply", "slowly", "smoothly", "softly",
  "solely", "strongly", "surely", "sweetly", "swiftly", "terribly",
  "truly", "usually", "vastly", "warmly", "weekly", "wildly", "wisely",
};

static const char *const adjectives[] = {
  "able", "active", "adapted", "adept", "adjusted", "alert", "alive",
  "amazed", "amused", "apt", "assured", "awake", "balanced", "big",
  "blessed", "bold", "brave", "bright", "brief", "busy", "calm", "capable",
  "careful", "casual", "charming", "cheerful", "choice", "civil", "clean",
  "clear", "clever", "close", "comic", "cool", "cosmic", "crack", "crisp",
  "cuddly", "curious", "cute", "daring", "dear", "decent", "deep", "direct",
  "driven", "eager", "easy", "elegant", "enabled", "epic", "equal", "even",
  "exact", "fair", "famous", "fancy", "fast", "feasible", "fine", "firm",
  "fit", "fleet", "flowing", "fluent", "fond", "frank", "free", "fresh",
  "friendly", "full", "funny", "gentle", "genuine", "giving", "glad",
  "golden", "good", "grand", "great", "handy", "happy", "hardy", "healthy",
  "helpful", "heroic", "holy", "honest", "hopeful", "huge", "humble",
  "ideal", "immune", "innocent", "intent", "joint", "just", "keen", "kind",
  "large", "lasting", "learning", "legal", "liberal", "light", "live",
  "lively", "loved", "loving", "loyal", "lucky", "magical", "main",
  "major", "many", "massive", "master", "mature", "merry", "mighty",
  "mint", "modern", "modest", "moral", "moving", "musical", "native",
  "neat", "new", "nice", "noble", "normal", "novel", "open", "optimal",
  "patient", "peaceful", "perfect", "pleasant", "pleased", "polite",
  "popular", "positive", "precious", "pretty", "prime", "proper", "proud",
  "quick", "quiet", "rapid", "rare", "ready", "real", "relaxed", "renewed",
  "rested", "rich", "robust", "romantic", "safe", "sacred", "secure",
  "sharp", "shining", "simple", "smart", "smooth", "social", "solid",
  "sound", "special", "splendid", "stable", "steady", "still", "strong",
  "sunny", "super", "superb", "sure", "sweet", "swift", "tender", "thankful",
  "tidy", "tough", "trusty", "tuned", "ultimate", "unique", "united",
  "up", "upright", "useful", "valid", "vast", "verified", "vital", "vocal",
  "warm", "welcome", "well", "whole", "willing", "wise", "witty", "worthy",
};

static const char *const animals[] = {
  "aardvark", "albatross", "alpaca", "anchovy", "ant", "anteater",
  "antelope", "ape", "armadillo", "baboon", "badger", "barnacle",
  "barracuda", "bass", "bat", "bear", "beaver", "bee", "beetle", "bengal",
  "bison", "blackbird", "bluebird", "boa", "boar", "bobcat", "buffalo",
  "bull", "bulldog", "bunny", "buzzard", "camel", "canary", "caribou",
  "carp", "cat", "caterpillar", "catfish", "cattle", "chamois", "cheetah",
  "chicken", "chimp", "chipmunk", "cicada", "clam", "cobra", "cod",
  "collie", "condor", "coral", "cougar", "cow", "coyote", "crab", "crane",
  "crayfish", "cricket", "crow", "cub", "cuckoo", "deer", "dingo", "dodo",
  "dog", "dolphin", "donkey", "dory", "dove", "dragon", "duck", "eagle",
  "eel", "egret", "elephant", "elk", "emu", "falcon", "ferret", "finch",
  "firefly", "fish", "flamingo", "flounder", "fly", "foal", "fox", "frog",
  "gannet", "gazelle", "gecko", "gerbil", "gibbon", "giraffe", "gnat",
  "gnu", "goat", "goldfish", "goose", "gopher", "gorilla", "grouse",
  "guinea", "gull", "guppy", "haddock", "halibut", "hamster", "hare",
  "hawk", "hedgehog", "hen", "heron", "herring", "hippo", "hornet",
  "horse", "hound", "hummingbird", "husky", "hyena", "ibex", "ibis",
  "iguana", "impala", "jackal", "jaguar", "jay", "jellyfish", "kangaroo",
  "kid", "kingfisher", "kite", "kitten", "kiwi", "koala", "krill", "lamb",
  "lark", "lemming", "lemur", "leopard", "lion", "lizard", "llama",
  "lobster", "locust", "loon", "lynx", "macaw", "mackerel", "magpie",
  "mallard", "mammoth", "manatee", "mantis", "marlin", "marmot", "marten",
  "mastiff", "meerkat", "mink", "minnow", "mole", "mollusk", "mongoose",
  "monkey", "moose", "mosquito", "moth", "mouse", "mule", "mustang",
  "newt", "octopus", "opossum", "orca", "oriole", "osprey", "ostrich",
  "otter", "owl", "ox", "oyster", "panda", "panther", "parakeet", "parrot",
  "peacock", "pelican", "penguin", "perch", "pheasant", "pig", "pigeon",
  "pike", "piranha", "platypus", "polecat", "pony", "poodle", "porpoise",
  "possum", "prawn", "puffin", "puma", "python", "quail", "rabbit",
  "raccoon", "ram", "rat", "raven", "reindeer", "rhino", "robin", "rooster",
  "salmon", "sardine", "scorpion", "seal", "shark", "sheep", "shrew",
  "shrimp", "skunk", "sloth", "slug", "snail", "snake", "snipe", "sparrow",
  "spider", "squid", "squirrel", "stag", "starfish", "stork", "sturgeon",
  "swan", "swift", "tadpole", "tapir", "termite", "tern", "tiger", "toad",
  "tortoise", "toucan", "trout", "tuna", "turkey", "turtle", "unicorn",
  "urchin", "viper", "vulture", "wallaby", "walrus", "wasp", "weasel",
  "whale", "whippet", "wildcat", "wolf", "wombat", "woodcock", "worm",
  "wren", "yak", "zebra",
};

#define NWORDS(x) (sizeof(x) / sizeof((x)[0]))

static const char *pick(Rng *r, const char *const *words, size_t n)
{
  return words[rng_below(r, n)];
}

/* petname.Generate: adverbs, one adjective, one name. */
static const char *pet_name(Arena *a, int64_t words, const char *sep)
{
  Rng r = {0};
  Buf b;
  buf_init(&b, a);
  for (int64_t i = 0; i < words - 2; i++) {
    buf_puts(&b, pick(&r, adverbs, NWORDS(adverbs)));
    buf_puts(&b, sep);
  }
  if (words >= 2) {
    buf_puts(&b, pick(&r, adjectives, NWORDS(adjectives)));
    buf_puts(&b, sep);
  }
  buf_puts(&b, pick(&r, animals, NWORDS(animals)));
  return buf_str(&b);
}

/* ---- Helpers ---------------------------------------------------------- */

static const ProvProviderSchema *sch(Prov *p) { return p->impl; }

static int type_index(const char *type_name)
{
  for (int i = 0; i < (int)NATTRS(resources); i++)
    if (strcmp(resources[i].type_name, type_name) == 0)
      return i;
  return -1;
}

static const ProvBlockSchema *block_of(Prov *p, const char *type_name)
{
  return prov_schema_resource(sch(p), type_name)->schema.block;
}

static int64_t get_int(Value obj, const char *name, int64_t def)
{
  Value v = prov_get(obj, name);
  int64_t i;
  if (val_is_null(v) || !val_is_known(v) || v.type->kind != TY_NUMBER ||
      !val_num_int(v, &i))
    return def;
  return i;
}

static bool get_bool(Value obj, const char *name, bool def)
{
  Value v = prov_get(obj, name);
  if (val_is_null(v) || !val_is_known(v) || v.type->kind != TY_BOOL)
    return def;
  return v.u.b;
}

static const char *get_str(Value obj, const char *name)
{
  Value v = prov_get(obj, name);
  if (val_is_null(v) || !val_is_known(v) || v.type->kind != TY_STRING)
    return NULL;
  return v.u.s;
}

static const char retry_msg[] =
    "Retry the Terraform operation. If the error persists, please contact "
    "the provider developers.\n\n";

static void random_read_error(ProvCall *c, const char *err)
{
  diag_error(c->diags, NULL, "Random Read Error",
             "While attempting to generate a random value for this "
             "resource, a read error was generated.\n\n%sOriginal Error: %s",
             retry_msg, err);
}

static void open_random(Prov *p)
{
  p->impl = prov_schema_clone(p->arena, &schema);
}

static void get_schema(Prov *p, ProvCall *c, const ProvProviderSchema **out)
{
  (void)c;
  *out = sch(p);
}

/* ---- Validation --------------------------------------------------------- */

static bool is_stringish(int t) { return t == R_STRING || t == R_PASSWORD; }

static void validate_resource(Prov *p, ProvCall *c, const char *type_name,
                              Value cfg)
{
  (void)p;
  int t = type_index(type_name);
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  if (is_stringish(t)) {
    Value lv = prov_get(cfg, "length");
    int64_t len;
    if (val_is_null(lv) || !val_is_known(lv) || !val_num_int(lv, &len))
      return;
    ValPath path = prov_path_attr(c->arena, "length");
    if (len < 1)
      prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Value",
                     "Attribute length value must be at least 1, got: %lld",
                     (long long)len);
    static const char *const mins[] = {"min_upper", "min_lower",
                                       "min_numeric", "min_special"};
    int64_t sum = 0;
    for (int i = 0; i < 4; i++) {
      Value m = prov_get(cfg, mins[i]);
      if (!val_is_known(m))
        return;
      sum += get_int(cfg, mins[i], 0);
    }
    if (len < sum)
      prov_diag_attr(c, DIAG_ERROR, path, "Invalid Attribute Value",
                     "Attribute length value must be at least sum of "
                     "min_upper + min_lower + min_numeric + min_special, "
                     "got: %lld",
                     (long long)len);
  } else if (t == R_ID) {
    Value bl = prov_get(cfg, "byte_length");
    int64_t n;
    if (!val_is_null(bl) && val_is_known(bl) && val_num_int(bl, &n) && n < 1)
      prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "byte_length"),
                     "Invalid Attribute Value",
                     "Attribute byte_length value must be at least 1, "
                     "got: %lld",
                     (long long)n);
  }
}

/* ---- Plan ---------------------------------------------------------- */

typedef struct Default {
  const char *name;
  int kind;  /* 0 bool, 1 int, 2 string */
  int64_t i;
  const char *s;
} Default;

static const Default string_defaults[] = {
  {"lower", 0, 1, NULL},       {"special", 0, 1, NULL},
  {"upper", 0, 1, NULL},       {"min_lower", 1, 0, NULL},
  {"min_numeric", 1, 0, NULL}, {"min_special", 1, 0, NULL},
  {"min_upper", 1, 0, NULL},   {NULL, 0, 0, NULL},
};
static const Default pet_defaults[] = {
  {"length", 1, 2, NULL}, {"separator", 2, 0, "-"}, {NULL, 0, 0, NULL}};

static Value default_value(Arena *a, const Default *d)
{
  if (d->kind == 0)
    return val_bool(d->i != 0);
  if (d->kind == 1)
    return val_int(d->i);
  return val_cstr(a, d->s);
}

/* NumberNumericAttributePlanModifier: number and numeric follow each
** other; both default to true. */
static Value number_numeric(ProvCall *c, Value cfg, Value planned)
{
  Value nb = prov_get(cfg, "number"), nm = prov_get(cfg, "numeric");
  if (!val_is_known(nb) || !val_is_known(nm))
    return planned;
  if (!val_is_null(nb) && !val_is_null(nm) && nb.u.b != nm.u.b) {
    static const char *const both[] = {"number", "numeric"};
    for (int i = 0; i < 2; i++)
      prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, both[i]),
                     "Number and numeric are both configured with different "
                     "values",
                     "Number is deprecated, use numeric instead");
    return planned;
  }
  Value v = !val_is_null(nm) ? nm : !val_is_null(nb) ? nb : val_true;
  planned = prov_set(c->arena, planned, "number", v);
  return prov_set(c->arena, planned, "numeric", v);
}

static void plan(Prov *p, ProvCall *c, const ProvPlanReq *req,
                 ProvPlanResp *resp)
{
  Arena *a = c->arena;
  Value planned = req->proposed_new_state;
  if (val_is_null(planned)) {
    resp->planned_state = planned;
    return;
  }
  int t = type_index(req->type_name);
  const ProvBlockSchema *b = block_of(p, req->type_name);
  Value cfg = req->config, prior = req->prior_state;
  const Default *defs = is_stringish(t) ? string_defaults
                        : t == R_PET    ? pet_defaults
                                        : NULL;
  for (; defs && defs->name; defs++)
    if (val_is_null(prov_get(cfg, defs->name))) {
      Value dv = default_value(a, defs);
      planned = prov_set(a, planned, defs->name, dv);
      cfg = prov_set(a, cfg, defs->name, dv);
    }
  if (is_stringish(t)) {
    planned = number_numeric(c, cfg, planned);
    cfg = prov_set(a, cfg, "number", prov_get(planned, "number"));
    cfg = prov_set(a, cfg, "numeric", prov_get(planned, "numeric"));
  }
  if (val_is_null(prior) || !val_raw_equal(prior, planned, false))
    planned = prov_unknown_computed(a, b, prior, planned, cfg, NULL);
  resp->planned_state = planned;
  if (val_is_null(prior))
    return;
  for (uint32_t i = 0; i < b->nattrs; i++) {
    const ProvAttrSchema *at = &b->attrs[i];
    if (!(at->flags & (PROV_OPTIONAL | PROV_REQUIRED)))
      continue;
    bool replace;
    if (strcmp(at->name, "keepers") == 0) {
      replace = prov_map_replace_if_values_not_null(
          prov_get(prior, "keepers"), prov_get(req->config, "keepers"));
    } else if (strcmp(at->name, "override_special") == 0) {
      /* RequiresReplaceUnlessEmptyStringToNull */
      Value ps = prov_get(prior, at->name), pl = prov_get(planned, at->name);
      replace = prov_attr_changed(prior, planned, at->name) &&
                !(val_is_null(pl) && !val_is_null(ps) && ps.len == 0);
    } else {
      replace = prov_attr_changed(prior, planned, at->name);
    }
    if (replace)
      prov_requires_replace(c, resp, at->name);
  }
}

/* ---- Apply --------------------------------------------------------- */

static const char num_chars[] = "0123456789";
static const char lower_chars[] = "abcdefghijklmnopqrstuvwxyz";
static const char upper_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
static const char special_default[] = "!@#$%&*()-_=+[]{}<>:?";

/* random.CreateString. */
static bool create_string(ProvCall *c, Value pl, const char **out,
                          size_t *outn)
{
  Arena *a = c->arena;
  int64_t length = get_int(pl, "length", 0);
  const char *special = get_str(pl, "override_special");
  if (!special || !*special)
    special = special_default;
  Buf chars;
  buf_init(&chars, a);
  if (get_bool(pl, "upper", true))
    buf_puts(&chars, upper_chars);
  if (get_bool(pl, "lower", true))
    buf_puts(&chars, lower_chars);
  if (get_bool(pl, "numeric", true))
    buf_puts(&chars, num_chars);
  if (get_bool(pl, "special", true))
    buf_puts(&chars, special);
  if (chars.len == 0) {
    random_read_error(c, "the character set specified is empty");
    return false;
  }
  struct {
    const char *set;
    int64_t min;
  } mins[4] = {{num_chars, get_int(pl, "min_numeric", 0)},
               {lower_chars, get_int(pl, "min_lower", 0)},
               {upper_chars, get_int(pl, "min_upper", 0)},
               {special, get_int(pl, "min_special", 0)}};
  int64_t total = 0;
  for (int i = 0; i < 4; i++)
    total += mins[i].min > 0 ? mins[i].min : 0;
  if (length < 1 || length > (1 << 20) || total > (1 << 20)) {
    random_read_error(c, "invalid length");
    return false;
  }
  size_t n = (size_t)(length > total ? length : total);
  char *res = ARENA_NEW(a, char, n + 1);
  size_t k = 0;
  Rng r = {0};
  for (int i = 0; i < 4; i++) {
    size_t sn = strlen(mins[i].set);
    for (int64_t j = 0; j < mins[i].min; j++)
      res[k++] = mins[i].set[rng_below(&r, sn)];
  }
  const char *cs = buf_str(&chars);
  while (k < n)
    res[k++] = cs[rng_below(&r, chars.len)];
  uint32_t *idx = ARENA_NEW(a, uint32_t, n);
  rng_shuffle_idx(&r, idx, (uint32_t)n);
  char *shuf = ARENA_NEW(a, char, n + 1);
  for (size_t i = 0; i < n; i++)
    shuf[i] = res[idx[i]];
  *out = shuf;
  *outn = n;
  return true;
}

/* math/big's decimal rendering of a big-endian byte string. */
static const char *big_decimal(Arena *a, const uint8_t *b, size_t n)
{
  uint8_t *num = ARENA_NEW(a, uint8_t, n + 1);
  memcpy(num, b, n);
  char *digits = ARENA_NEW(a, char, n * 3 + 2);
  size_t nd = 0;
  size_t start = 0;
  while (start < n && num[start] == 0)
    start++;
  if (start == n)
    return "0";
  while (start < n) {
    unsigned rem = 0;
    for (size_t i = start; i < n; i++) {
      unsigned cur = rem * 256 + num[i];
      num[i] = (uint8_t)(cur / 10);
      rem = cur % 10;
    }
    digits[nd++] = (char)('0' + rem);
    while (start < n && num[start] == 0)
      start++;
  }
  char *out = ARENA_NEW(a, char, nd + 1);
  for (size_t i = 0; i < nd; i++)
    out[i] = digits[nd - 1 - i];
  return out;
}

static Value id_values(Arena *a, Value v, const uint8_t *bytes, size_t n,
                       const char *prefix, const char *id)
{
  static const char hexd[] = "0123456789abcdef";
  char *hx = ARENA_NEW(a, char, 2 * n + 1);
  for (size_t i = 0; i < n; i++) {
    hx[2 * i] = hexd[bytes[i] >> 4];
    hx[2 * i + 1] = hexd[bytes[i] & 15];
  }
  const char *pf = prefix ? prefix : "";
  v = prov_set(a, v, "id", val_cstr(a, id));
  v = prov_set(a, v, "b64_url", val_cstr(a, arena_printf(a, "%s%s", pf, id)));
  v = prov_set(a, v, "b64_std",
               val_cstr(a, arena_printf(a, "%s%s", pf,
                                        prov_base64_encode(a, bytes, n, false,
                                                           true))));
  v = prov_set(a, v, "hex", val_cstr(a, arena_printf(a, "%s%s", pf, hx)));
  v = prov_set(a, v, "dec",
               val_cstr(a, arena_printf(a, "%s%s", pf,
                                        big_decimal(a, bytes, n))));
  return v;
}

static Value list_of(Arena *a, Value *elems, uint32_t n)
{
  return val_list(a, &ty_string, elems, n);
}

static void create(ProvCall *c, int t, Value pl, ProvApplyResp *resp)
{
  Arena *a = c->arena;
  Value v = pl;
  switch (t) {
  case R_ID: {
    int64_t n = get_int(pl, "byte_length", 0);
    if (n < 1 || n > (1 << 20)) {
      random_read_error(c, "invalid byte_length");
      return;
    }
    uint8_t *bytes = ARENA_NEW(a, uint8_t, (size_t)n);
    prov_random_bytes(bytes, (size_t)n);
    v = id_values(a, v, bytes, (size_t)n, get_str(pl, "prefix"),
                  prov_base64_encode(a, bytes, (size_t)n, true, false));
    break;
  }
  case R_INTEGER: {
    int64_t mn = get_int(pl, "min", 0), mx = get_int(pl, "max", 0);
    if (mx < mn) {
      diag_error(c->diags, NULL, "Create Random Integer Error",
                 "The minimum (min) value needs to be smaller than or equal "
                 "to maximum (max) value.");
      return;
    }
    Rng r = rng_new(prov_get(pl, "seed"));
    uint64_t span = (uint64_t)mx - (uint64_t)mn + 1;
    int64_t res = (int64_t)((uint64_t)mn + rng_below(&r, span));
    v = prov_set(a, v, "result", val_int(res));
    v = prov_set(a, v, "id",
                 val_cstr(a, arena_printf(a, "%lld", (long long)res)));
    break;
  }
  case R_PASSWORD:
  case R_STRING: {
    const char *s;
    size_t n;
    if (!create_string(c, pl, &s, &n))
      return;
    v = prov_set(a, v, "result", val_str(a, s, n));
    if (t == R_PASSWORD) {
      v = prov_set(a, v, "bcrypt_hash", val_cstr(a, bcrypt_hash(a, s, n)));
      v = prov_set(a, v, "id", val_cstr(a, "none"));
    } else {
      v = prov_set(a, v, "id", val_str(a, s, n));
    }
    break;
  }
  case R_PET: {
    int64_t len = get_int(pl, "length", 2);
    const char *sep = get_str(pl, "separator");
    if (!sep)
      sep = "-";
    if (len < 1 || len > 1000) {
      random_read_error(c, "invalid length");
      return;
    }
    const char *name = pet_name(a, len, sep);
    const char *prefix = get_str(pl, "prefix");
    if (prefix)
      name = arena_printf(a, "%s%s%s", prefix, sep, name);
    v = prov_set(a, v, "id", val_cstr(a, name));
    break;
  }
  case R_SHUFFLE: {
    Value in = prov_get(pl, "input");
    uint32_t n = val_is_null(in) ? 0 : in.len;
    int64_t count = get_int(pl, "result_count", 0);
    if (count <= 0)
      count = n;
    if (n == 0)
      count = 0;
    if (count > (1 << 20)) {
      random_read_error(c, "result_count too large");
      return;
    }
    Value *out = ARENA_NEW(a, Value, (size_t)count + 1);
    uint32_t *idx = ARENA_NEW(a, uint32_t, n + 1);
    Rng r = rng_new(prov_get(pl, "seed"));
    int64_t k = 0;
    while (k < count) {
      rng_shuffle_idx(&r, idx, n);
      for (uint32_t i = 0; i < n && k < count; i++)
        out[k++] = in.u.elems[idx[i]];
    }
    v = prov_set(a, v, "result", list_of(a, out, (uint32_t)count));
    v = prov_set(a, v, "id", val_cstr(a, "-"));
    break;
  }
  case R_UUID: {
    const char *u = prov_random_uuid(a);
    v = prov_set(a, v, "result", val_cstr(a, u));
    v = prov_set(a, v, "id", val_cstr(a, u));
    break;
  }
  default:
    return;
  }
  resp->new_state = v;
}

static void apply(Prov *p, ProvCall *c, const ProvApplyReq *req,
                  ProvApplyResp *resp)
{
  (void)p;
  Value pl = req->planned_state;
  if (val_is_null(pl) || !val_is_null(req->prior_state)) {
    /* Delete, or an in-place update: nothing to generate. */
    resp->new_state = pl;
    return;
  }
  create(c, type_index(req->type_name), pl, resp);
}

static void read_resource(Prov *p, ProvCall *c, const ProvReadReq *req,
                          ProvReadResp *resp)
{
  (void)p;
  (void)c;
  resp->new_state = req->current_state;
  resp->private_data = req->private_data;
}

/* ---- Import ----------------------------------------------------------- */

/* A value of the type's schema with the given attributes, others null. */
static Value build(Prov *p, Arena *a, const char *type_name, int n,
                   const char *const *names, const Value *vals)
{
  const Type *t = prov_schema_implied_type(a, block_of(p, type_name));
  Value *vv = ARENA_NEW(a, Value, t->n);
  for (uint32_t i = 0; i < t->n; i++) {
    vv[i] = val_null(t->types[i]);
    for (int k = 0; k < n; k++)
      if (strcmp(names[k], t->names[i]) == 0)
        vv[i] = vals[k];
  }
  return val_object_typed(t, vv);
}

static bool is_uuid(const char *s)
{
  if (strlen(s) != 36)
    return false;
  for (int i = 0; i < 36; i++) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    char ch = s[i];
    bool hexd = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
                (ch >= 'A' && ch <= 'F');
    if (dash ? ch != '-' : !hexd)
      return false;
  }
  return true;
}

/* The string-like defaults for imported random_string/random_password. */
static Value string_import(Prov *p, Arena *a, const char *type_name,
                           const char *id, const char *result)
{
  static const char *const names[] = {
    "id", "result", "length", "special", "upper", "lower", "number",
    "numeric", "min_special", "min_upper", "min_lower", "min_numeric"};
  Value vals[12] = {val_cstr(a, id), val_cstr(a, result),
                    val_int((int64_t)strlen(result)), val_true, val_true,
                    val_true, val_true, val_true, val_int(0), val_int(0),
                    val_int(0), val_int(0)};
  return build(p, a, type_name, 12, names, vals);
}

static void import(Prov *p, ProvCall *c, const ProvImportReq *req,
                   ProvImportResp *resp)
{
  Arena *a = c->arena;
  int t = type_index(req->type_name);
  const char *id = req->id;
  Value st;
  switch (t) {
  case R_ID: {
    const char *prefix = NULL;
    const char *comma = strrchr(id, ',');
    if (comma) {
      prefix = arena_strndup(a, id, (size_t)(comma - id));
      id = comma + 1;
    }
    /* RawURLEncoding: translate to the standard alphabet and pad. */
    size_t n = strlen(id);
    char *std = ARENA_NEW(a, char, n + 4);
    bool bad = false;
    for (size_t i = 0; i < n; i++) {
      char ch = id[i];
      std[i] = ch == '-' ? '+' : ch == '_' ? '/' : ch;
      if (ch == '+' || ch == '/' || ch == '=' || ch == '\n' || ch == '\r')
        bad = true;
    }
    size_t m = n;
    if (n % 4 == 1)
      bad = true;
    while (m % 4)
      std[m++] = '=';
    uint8_t *bytes = NULL;
    size_t blen = 0, at = 0;
    if (bad || !prov_base64_decode(a, std, m, &bytes, &blen, &at)) {
      diag_error(c->diags, NULL, "Import Random ID Error",
                 "While attempting to import a random id there was a "
                 "decoding error.\n\n+%sOriginal Error: illegal base64 data "
                 "at input byte %zu",
                 retry_msg, bad ? n : at);
      return;
    }
    static const char *const names[] = {"byte_length", "keepers", "prefix"};
    Value vals[3] = {val_int((int64_t)blen),
                     val_map(a, &ty_string, NULL, 0),
                     prefix && *prefix ? val_cstr(a, prefix)
                                       : val_null(&ty_string)};
    st = build(p, a, req->type_name, 3, names, vals);
    st = id_values(a, st, bytes, blen, prefix, id);
    break;
  }
  case R_INTEGER: {
    /* result,min,max[,seed] */
    const char *parts[5];
    size_t lens[5];
    int np = 0;
    const char *s = id;
    for (;;) {
      const char *comma = strchr(s, ',');
      if (np == 5)
        break;
      parts[np] = s;
      lens[np] = comma ? (size_t)(comma - s) : strlen(s);
      np++;
      if (!comma)
        break;
      s = comma + 1;
    }
    int64_t nums[3];
    bool ok = np == 3 || np == 4;
    for (int i = 0; ok && i < 3; i++) {
      char *end;
      const char *txt = arena_strndup(a, parts[i], lens[i]);
      errno = 0;
      nums[i] = strtoll(txt, &end, 10);
      if (!*txt || *end || errno)
        ok = false;
    }
    if (!ok) {
      diag_error(c->diags, NULL, "Invalid Import ID",
                 "Import ID must be in the format "
                 "\"<result>,<min>,<max>\" or "
                 "\"<result>,<min>,<max>,<seed>\", got: %s",
                 id);
      return;
    }
    static const char *const names[] = {"result", "min", "max", "id",
                                        "seed"};
    Value vals[5] = {val_int(nums[0]), val_int(nums[1]), val_int(nums[2]),
                     val_str(a, parts[0], lens[0]),
                     np == 4 ? val_str(a, parts[3], lens[3])
                             : val_null(&ty_string)};
    st = build(p, a, req->type_name, 5, names, vals);
    break;
  }
  case R_PASSWORD:
    st = string_import(p, a, req->type_name, "none", id);
    st = prov_set(a, st, "bcrypt_hash",
                  val_cstr(a, bcrypt_hash(a, id, strlen(id))));
    break;
  case R_STRING:
    st = string_import(p, a, req->type_name, id, id);
    break;
  case R_UUID: {
    if (!is_uuid(id)) {
      diag_error(c->diags, NULL, "Random UUID Import Error",
                 "There was an error during the parsing of the UUID.\n\n"
                 "%sOriginal Error: uuid string is wrong length",
                 retry_msg);
      return;
    }
    static const char *const names[] = {"id", "result"};
    Value vals[2] = {val_cstr(a, id), val_cstr(a, id)};
    st = build(p, a, req->type_name, 2, names, vals);
    break;
  }
  default:
    prov_default_import(p, c, req, resp);
    return;
  }
  ProvImported *im = ARENA_NEW(a, ProvImported, 1);
  im->type_name = arena_strdup(a, req->type_name);
  im->state = st;
  resp->imported = im;
  resp->nimported = 1;
}

/* ---- Upgrade ------------------------------------------------------------ */

static Value fill_null(Arena *a, Value v, const char *name, Value def)
{
  return val_is_null(prov_get(v, name)) ? prov_set(a, v, name, def) : v;
}

static void upgrade(Prov *p, ProvCall *c, const ProvUpgradeReq *req,
                    ProvUpgradeResp *resp)
{
  Arena *a = c->arena;
  int t = type_index(req->type_name);
  const ProvBlockSchema *b = block_of(p, req->type_name);
  Value v;
  if (!prov_decode_state(c, b, req->raw_json, req->raw_len, &v))
    return;
  int64_t current = resources[t].schema.version;
  if (is_stringish(t) && req->version < current) {
    /* Imports by old provider versions left these null; fill them so
    ** they do not force replacement (upstream's upgraders do the same). */
    const char *res = get_str(v, "result");
    v = fill_null(a, v, "length",
                  val_int(res ? (int64_t)strlen(res) : 0));
    static const char *const mins[] = {"min_numeric", "min_upper",
                                       "min_lower", "min_special"};
    for (int i = 0; i < 4; i++)
      v = fill_null(a, v, mins[i], val_int(0));
    static const char *const flags[] = {"special", "upper", "lower",
                                        "number"};
    for (int i = 0; i < 4; i++)
      v = fill_null(a, v, flags[i], val_true);
    /* numeric appeared in version 2 (password) / 2 (string). */
    if (req->version < 2 || val_is_null(prov_get(v, "numeric")))
      v = prov_set(a, v, "numeric", prov_get(v, "number"));
    if (t == R_PASSWORD && res) {
      const char *h = get_str(v, "bcrypt_hash");
      if (!h || !bcrypt_matches(a, h, res, strlen(res)))
        v = prov_set(a, v, "bcrypt_hash",
                     val_cstr(a, bcrypt_hash(a, res, strlen(res))));
    }
  }
  resp->upgraded_state = v;
}

/* The provider has no data sources; the engine never asks. */
static void read_data(Prov *p, ProvCall *c, const ProvReadDataReq *req,
                      ProvReadDataResp *resp)
{
  (void)p;
  (void)resp;
  diag_error(c->diags, NULL, "Unsupported data source",
             "The provider has no data source \"%s\".", req->type_name);
}

static const ProvOps ops = {
  .get_schema = get_schema,
  .validate_provider_config = prov_default_validate,
  .validate_resource_config = validate_resource,
  .validate_data_resource_config = prov_default_validate_type,
  .upgrade_resource_state = upgrade,
  .configure = prov_default_configure,
  .read_resource = read_resource,
  .plan_resource_change = plan,
  .apply_resource_change = apply,
  .import_resource_state = import,
  .read_data_source = read_data,
  .stop = prov_default_stop,
  .close = prov_default_close,
};

const ProvBuiltin prov_random_builtin = {
  .addr = "registry.terraform.io/hashicorp/random",
  .type = "random",
  .ops = &ops,
  .open = open_random,
};
