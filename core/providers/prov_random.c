/*
** prov_random: the built-in hashicorp/random provider.
**
** random_bytes, random_id, random_integer, random_password, random_pet,
** random_shuffle, random_string, random_uuid, random_uuid4 and
** random_uuid7, with the upstream (plugin framework)
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
** - random_uuid7 fills the 74 bits after the millisecond timestamp with
**   random bits (RFC 9562 method 0); google/uuid puts a sub-millisecond
**   sequence in the first 12 of them, so ordering within one millisecond
**   differs;
** - bcrypt_hash hashes at most the first 72 bytes of the password (the
**   bcrypt limit; upstream's library rejects longer input).
*/
#include "lang/funcs.h"
#include "provider.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <time.h>

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

static const ProvAttrSchema bytes_attrs[] = {
  {.name = "base64", .type = &ty_string, .flags = COMP | PROV_SENSITIVE,
   .description = "The generated bytes presented in base64 string format."},
  {.name = "hex", .type = &ty_string, .flags = COMP | PROV_SENSITIVE,
   .description = "The generated bytes presented in hex string format."},
  {.name = "id", .type = &ty_string, .flags = COMP,
   .description = "A static value used internally by Terraform, this "
                  "should not be referenced in configurations."},
  {.name = "keepers", .type = &map_string, .flags = OPT,
   .description = "Arbitrary map of values that, when changed, will "
                  "trigger recreation of resource. See [the main provider "
                  "documentation](../index.html) for more information."},
  {.name = "length", .type = &ty_number, .flags = REQ,
   .description = "The number of bytes requested. The minimum value for "
                  "length is 1."},
};

#define UUIDN_ATTRS(keepers_see)                                           \
  {.name = "id", .type = &ty_string, .flags = COMP,                        \
   .description = "The generated uuid presented in string format."},       \
  {.name = "keepers", .type = &map_string, .flags = OPT,                   \
   .description = "Arbitrary map of values that, when changed, will "      \
                  "trigger recreation of resource. See " keepers_see       \
                  " for more information."},                               \
  {.name = "result", .type = &ty_string, .flags = COMP,                    \
   .description = "The generated uuid presented in string format."}

static const ProvAttrSchema uuid4_attrs[] = {
  UUIDN_ATTRS("[the main provider documentation](../index.html)"),
};
static const ProvAttrSchema uuid7_attrs[] = {
  UUIDN_ATTRS("the [main provider documentation](../index.html)"),
};

/* The ephemeral twins (random v3.7.0 password, v3.9.0 bytes). */
static const ProvAttrSchema eph_password_attrs[] = {
  {.name = "bcrypt_hash", .type = &ty_string, .flags = COMP | PROV_SENSITIVE},
  {.name = "length", .type = &ty_number, .flags = REQ},
  {.name = "lower", .type = &ty_bool, .flags = OC},
  {.name = "min_lower", .type = &ty_number, .flags = OC},
  {.name = "min_numeric", .type = &ty_number, .flags = OC},
  {.name = "min_special", .type = &ty_number, .flags = OC},
  {.name = "min_upper", .type = &ty_number, .flags = OC},
  {.name = "numeric", .type = &ty_bool, .flags = OC},
  {.name = "override_special", .type = &ty_string, .flags = OPT},
  {.name = "result", .type = &ty_string, .flags = COMP | PROV_SENSITIVE},
  {.name = "special", .type = &ty_bool, .flags = OC},
  {.name = "upper", .type = &ty_bool, .flags = OC},
};
static const ProvAttrSchema eph_bytes_attrs[] = {
  {.name = "base64", .type = &ty_string, .flags = COMP | PROV_SENSITIVE},
  {.name = "hex", .type = &ty_string, .flags = COMP | PROV_SENSITIVE},
  {.name = "length", .type = &ty_number, .flags = REQ},
};
static const ProvBlockSchema eph_password_block = {
  .attrs = eph_password_attrs, .nattrs = NATTRS(eph_password_attrs)};
static const ProvBlockSchema eph_bytes_block = {
  .attrs = eph_bytes_attrs, .nattrs = NATTRS(eph_bytes_attrs)};
static const ProvTypeSchema ephemerals[] = {
  {"random_bytes", {0, &eph_bytes_block}},
  {"random_password", {0, &eph_password_block}},
};

static const ProvBlockSchema bytes_block = {
  .attrs = bytes_attrs, .nattrs = NATTRS(bytes_attrs)};
static const ProvBlockSchema uuid4_block = {
  .attrs = uuid4_attrs, .nattrs = NATTRS(uuid4_attrs)};
static const ProvBlockSchema uuid7_block = {
  .attrs = uuid7_attrs, .nattrs = NATTRS(uuid7_attrs)};
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

enum {
  R_ID, R_INTEGER, R_PASSWORD, R_PET, R_SHUFFLE, R_STRING, R_UUID,
  R_BYTES, R_UUID4, R_UUID7
};

static const ProvTypeSchema resources[] = {
  [R_ID] = {"random_id", {0, &id_block}},
  [R_INTEGER] = {"random_integer", {0, &int_block}},
  [R_PASSWORD] = {"random_password", {3, &password_block}},
  [R_PET] = {"random_pet", {0, &pet_block}},
  [R_SHUFFLE] = {"random_shuffle", {0, &shuffle_block}},
  [R_STRING] = {"random_string", {2, &string_block}},
  [R_UUID] = {"random_uuid", {0, &uuid_block}},
  [R_BYTES] = {"random_bytes", {0, &bytes_block}},
  [R_UUID4] = {"random_uuid4", {0, &uuid4_block}},
  [R_UUID7] = {"random_uuid7", {0, &uuid7_block}},
};
static const ProvProviderSchema schema = {
  .provider = {0, &empty_block},
  .resources = resources, .nresources = NATTRS(resources),
  .ephemeral_resources = ephemerals,
  .nephemeral_resources = NATTRS(ephemerals),
  .plan_destroy = true,
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

static const char bc_alpha[] =
    "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* bcrypt's base64 (no padding). */
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
  Buf out;
  buf_init(&out, a);
  fn_bcrypt_hash(&out, a, pw, pwn, salt, cost);   /* the one bcrypt in cairn */
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
  int t = type_index(type_name);
  if (val_is_null(cfg) || !val_is_known(cfg))
    return;
  prov_warn_deprecated(c, block_of(p, type_name), cfg);
  if (is_stringish(t)) {
    /* Upstream's AtLeastOneOfTrue on numeric: numeric, special, upper and
    ** lower all configured false leave nothing to draw from. */
    static const char *const sets[] = {"special", "upper", "lower",
                                       "numeric"};
    int off = 0;
    for (int i = 0; i < 4; i++) {
      Value v = prov_get(cfg, sets[i]);
      off += !val_is_null(v) && val_is_known(v) && !v.u.b;
    }
    if (off == 4)
      prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "numeric"),
                     "Invalid Attribute Combination",
                     "At least one attribute out of "
                     "[special,upper,lower,numeric] must be specified as "
                     "true");
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
  } else if (t == R_BYTES) {
    Value lv = prov_get(cfg, "length");
    int64_t n;
    if (!val_is_null(lv) && val_is_known(lv) && val_num_int(lv, &n) && n < 1)
      prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "length"),
                     "Invalid Attribute Value",
                     "Attribute length value must be at least 1, got: %lld",
                     (long long)n);
  } else if (t == R_SHUFFLE) {
    /* Upstream has no validator and panics on a negative count; cairn
    ** refuses it in the framework's int64validator.AtLeast words. */
    Value rc = prov_get(cfg, "result_count");
    int64_t n;
    if (!val_is_null(rc) && val_is_known(rc) && val_num_int(rc, &n) && n < 0)
      prov_diag_attr(c, DIAG_ERROR, prov_path_attr(c->arena, "result_count"),
                     "Invalid Attribute Value",
                     "Attribute result_count value must be at least 0, "
                     "got: %lld",
                     (long long)n);
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

/* One character set as UTF-8 characters: s[off[i] .. off[i + 1]) is
** character i.  Upstream draws characters, not bytes (random provider
** PR #742), so an override_special of "\u00b0" gives `length` degree
** signs, never half of one. */
typedef struct CharSet {
  const char *s;
  uint32_t *off;
  uint32_t n;                    /* characters */
} CharSet;

static CharSet charset(Arena *a, const char *s, size_t len)
{
  CharSet cs = {s, ARENA_NEW(a, uint32_t, len + 1), 0};
  for (size_t i = 0; i < len; i++)
    if (((unsigned char)s[i] & 0xc0) != 0x80)   /* not a continuation */
      cs.off[cs.n++] = (uint32_t)i;
  cs.off[cs.n] = (uint32_t)len;
  return cs;
}

/* Appends one character of cs drawn from r. */
static void draw(Buf *out, Rng *r, const CharSet *cs)
{
  uint32_t k = (uint32_t)rng_below(r, cs->n);
  buf_put(out, cs->s + cs->off[k], cs->off[k + 1] - cs->off[k]);
}

/* random.CreateString: `length` characters (at least the sum of the
** minimums), each minimum drawn from its own set, the rest from the
** union of the enabled sets, then shuffled. */
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
  /* The characters drawn, one after another, then shuffled as units. */
  Buf drawn;
  buf_init(&drawn, a);
  uint32_t *start = ARENA_NEW(a, uint32_t, n + 1);
  size_t k = 0;
  Rng r = {0};
  for (int i = 0; i < 4; i++) {
    CharSet cs = charset(a, mins[i].set, strlen(mins[i].set));
    for (int64_t j = 0; j < mins[i].min; j++) {
      start[k++] = (uint32_t)drawn.len;
      draw(&drawn, &r, &cs);
    }
  }
  CharSet all = charset(a, buf_str(&chars), chars.len);
  while (k < n) {
    start[k++] = (uint32_t)drawn.len;
    draw(&drawn, &r, &all);
  }
  start[n] = (uint32_t)drawn.len;
  uint32_t *idx = ARENA_NEW(a, uint32_t, n);
  rng_shuffle_idx(&r, idx, (uint32_t)n);
  Buf shuf;
  buf_init(&shuf, a);
  for (size_t i = 0; i < n; i++)
    buf_put(&shuf, drawn.p + start[idx[i]],
            start[idx[i] + 1] - start[idx[i]]);
  *out = buf_str(&shuf);
  *outn = shuf.len;
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

static const char hexdig[] = "0123456789abcdef";

/* random_bytes' id, base64 (given, or standard with padding) and hex. */
static Value bytes_values(Arena *a, Value v, const uint8_t *b, size_t n,
                          const char *b64)
{
  char *hx = ARENA_NEW(a, char, 2 * n + 1);
  for (size_t i = 0; i < n; i++) {
    hx[2 * i] = hexdig[b[i] >> 4];
    hx[2 * i + 1] = hexdig[b[i] & 15];
  }
  if (!b64)
    b64 = prov_base64_encode(a, b, n, false, true);
  v = prov_set(a, v, "id", val_cstr(a, "none"));
  v = prov_set(a, v, "length", val_int((int64_t)n));
  v = prov_set(a, v, "base64", val_cstr(a, b64));
  return prov_set(a, v, "hex", val_cstr(a, hx));
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
    /* Unset: as many as the input has; an explicit 0 gives an empty list
    ** (upstream PR #537: result_count is never rewritten). */
    int64_t count = get_int(pl, "result_count", n);
    if (count < 0 || n == 0)
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
  case R_UUID4:
  case R_UUID7: {
    uint8_t u[16];
    prov_random_bytes(u, sizeof u);
    if (t == R_UUID7) {
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      prov_uuid7_stamp(u, (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
    } else {
      u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);
      u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
    }
    const char *us = prov_uuid_string(a, u);
    v = prov_set(a, v, "result", val_cstr(a, us));
    v = prov_set(a, v, "id", val_cstr(a, us));
    break;
  }
  case R_BYTES: {
    int64_t n = get_int(pl, "length", 0);
    if (n < 1 || n > (1 << 20)) {
      random_read_error(c, "invalid length");
      return;
    }
    uint8_t *bytes = ARENA_NEW(a, uint8_t, (size_t)n);
    prov_random_bytes(bytes, (size_t)n);
    v = bytes_values(a, v, bytes, (size_t)n, NULL);
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
    /* keepers stays null, as every other random import leaves it: an
    ** empty map would differ from a configuration without keepers and
    ** plan an update right after the import. */
    static const char *const names[] = {"byte_length", "prefix"};
    Value vals[2] = {val_int((int64_t)blen),
                     prefix && *prefix ? val_cstr(a, prefix)
                                       : val_null(&ty_string)};
    st = build(p, a, req->type_name, 2, names, vals);
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
  case R_BYTES: {
    uint8_t *bytes = NULL;
    size_t blen = 0, at = 0;
    if (!prov_base64_decode(a, id, strlen(id), &bytes, &blen, &at)) {
      diag_error(c->diags, NULL, "Import Random bytes Error",
                 "There was an error during the parsing of the base64 "
                 "string.\n\n%sOriginal Error: illegal base64 data at "
                 "input byte %zu", retry_msg, at);
      return;
    }
    st = build(p, a, req->type_name, 0, NULL, NULL);
    st = bytes_values(a, st, bytes, blen, id);
    break;
  }
  case R_UUID4:
  case R_UUID7: {
    uint8_t u[16];
    const char *err = prov_uuid_parse(a, id, u);
    if (err) {
      diag_error(c->diags, NULL, "Import Random UUID Error",
                 "There was an error during the parsing of the UUID.\n\n"
                 "%sOriginal Error: %s", retry_msg, err);
      return;
    }
    const char *us = prov_uuid_string(a, u);
    static const char *const names[] = {"id", "result"};
    Value vals[2] = {val_cstr(a, us), val_cstr(a, us)};
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

/* OpenEphemeralResource: upstream's Open draws as the managed create does
** (the same defaults: every class on, no minimum). */
static void open_eph(Prov *p, ProvCall *c, const ProvOpenEphReq *req,
                     ProvOpenEphResp *resp)
{
  Arena *a = c->arena;
  int t = type_index(req->type_name);
  Value v = req->config;
  if (t == R_PASSWORD) {
    for (const Default *d = string_defaults; d->name; d++)
      if (val_is_null(prov_get(v, d->name)))
        v = prov_set(a, v, d->name, default_value(a, d));
    if (val_is_null(prov_get(v, "numeric")))
      v = prov_set(a, v, "numeric", val_true);
  }
  ProvApplyResp ar;
  memset(&ar, 0, sizeof ar);
  create(c, t, v, &ar);
  if (ar.new_state.type)
    resp->result = prov_object_of(
        a, prov_schema_ephemeral(sch(p), req->type_name)->schema.block,
        ar.new_state);
}

static const ProvEphOps eph_ops = {validate_resource, open_eph, NULL, NULL};

static const ProvOps ops = {
  .eph = &eph_ops,
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
  .read_data_source = prov_default_read_data,
  .stop = prov_default_stop,
  .close = prov_default_close,
};

const ProvBuiltin prov_random_builtin = {
  .addr = "registry.terraform.io/hashicorp/random",
  .type = "random",
  .ops = &ops,
  .open = open_random,
};

/* ---- UUID encodings --------------------------------------------------- */

void prov_uuid7_stamp(uint8_t u[16], int64_t unix_ms)
{
  for (int i = 0; i < 6; i++)
    u[i] = (uint8_t)((uint64_t)unix_ms >> (40 - 8 * i));
  u[6] = (uint8_t)((u[6] & 0x0f) | 0x70);
  u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
}

const char *prov_uuid_string(Arena *a, const uint8_t u[16])
{
  char *s = ARENA_NEW(a, char, 37);
  size_t k = 0;
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      s[k++] = '-';
    s[k++] = hexdig[u[i] >> 4];
    s[k++] = hexdig[u[i] & 15];
  }
  return s;
}

static int hexval(char ch)
{
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  if (ch >= 'a' && ch <= 'f')
    return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F')
    return ch - 'A' + 10;
  return -1;
}

const char *prov_uuid_parse(Arena *a, const char *s, uint8_t u[16])
{
  size_t n = strlen(s);
  if (n == 36 + 9) {
    if (strncasecmp(s, "urn:uuid:", 9) != 0)
      return arena_printf(a, "invalid urn prefix: \"%.9s\"", s);
    s += 9;
  } else if (n == 36 + 2) {
    if (s[0] != '{' || s[37] != '}')
      return "invalid UUID format";
    s++;
  } else if (n == 32) {
    for (int i = 0; i < 16; i++) {
      int h = hexval(s[2 * i]), l = hexval(s[2 * i + 1]);
      if (h < 0 || l < 0)
        return "invalid UUID format";
      u[i] = (uint8_t)(h << 4 | l);
    }
    return NULL;
  } else if (n != 36) {
    return arena_printf(a, "invalid UUID length: %zu", n);
  }
  if (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
    return "invalid UUID format";
  static const int at[16] = {0,  2,  4,  6,  9,  11, 14, 16,
                             19, 21, 24, 26, 28, 30, 32, 34};
  for (int i = 0; i < 16; i++) {
    int h = hexval(s[at[i]]), l = hexval(s[at[i] + 1]);
    if (h < 0 || l < 0)
      return "invalid UUID format";
    u[i] = (uint8_t)(h << 4 | l);
  }
  return NULL;
}
