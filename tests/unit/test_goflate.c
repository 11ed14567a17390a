/*
** test_goflate: goflate's output against Go's compress/flate and
** compress/gzip, byte for byte.
**
** The expected SHA-256 sums come from Go 1.19 (a throw-away program that
** generates the same inputs with the same LCG, compresses each with
** flate.NewWriter(w, level) + Write + Close, once more through io.Copy in
** 32 KiB pieces, and with gzip.NewWriterLevel at -1 and 9;
** docs/goflate.md shows it).  Every output is also inflated with zlib and
** compared with the input.
*/
#include <mbedtls/sha256.h>
#include <stdbool.h>
#include <stdint.h>
#include <zlib.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/goflate.h"
#include "t.h"

typedef struct {
  uint64_t x;
} Lcg;

static uint32_t lcg_next(Lcg *l)
{
  l->x = l->x * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(l->x >> 33);
}

static const char *const WORDS[] = {
  "the ", "quick ", "brown ", "fox ", "jumps ", "over ", "lazy ", "dog ",
  "resource ", "provider ", "archive ", "zip ", "\n", "terraform ",
  "cairn ", "{ ", "} ", "= "};

/* Appends kind-`kind` data to b until it holds `n` more bytes (cut to n). */
static void gen(Buf *b, int kind, size_t n, uint64_t seed)
{
  Lcg l = {seed};
  size_t start = b->len;
  while (b->len - start < n) {
    size_t have = b->len - start;
    switch (kind) {
    case 0:
      buf_puts(b, WORDS[lcg_next(&l) % (sizeof WORDS / sizeof *WORDS)]);
      break;
    case 1:
      buf_putc(b, (char)(lcg_next(&l) >> 8));
      break;
    case 2:
      buf_putc(b, "abcabcabcabd"[have % 12]);
      if (lcg_next(&l) % 5000 == 0)
        buf_putc(b, (char)lcg_next(&l));
      break;
    case 3:
      buf_putc(b, (char)('a' + lcg_next(&l) % 4));
      break;
    case 4: {
      int k = (int)(lcg_next(&l) % 3);
      size_t seg = lcg_next(&l) % 3000 + 1;
      gen(b, k, seg, lcg_next(&l));
      break;
    }
    default:
      buf_putc(b, 0);
    }
  }
  b->len = start + n;
}

typedef struct {
  const char *name;
  int kind;
  size_t n;
  uint64_t seed;
  const char *lit; /* fixed content instead */
} Input;

static const Input INPUTS[] = {
  {"empty", -1, 0, 0, ""},
  {"one", -1, 1, 0, "a"},
  {"short", -1, 26, 0, "hello, hello, hello world\n"},
  {"text20k", 0, 20000, 1, NULL},
  {"random100k", 1, 100000, 2, NULL},
  {"repeat300k", 2, 300000, 3, NULL},
  {"abcd200k", 3, 200000, 4, NULL},
  {"mixed150k", 4, 150000, 5, NULL},
  {"text400k", 0, 400000, 6, NULL},
  {"zeros70k", 5, 70000, 0, NULL},
  {"mixed1m", 4, 1u << 20, 7, NULL},
};

typedef struct {
  const char *input;
  char mode;   /* f: flate, c: flate written in 32 KiB pieces, g: gzip */
  int level;
  size_t len;
  const char *sha256;
} Expect;

static const Expect EXPECT[] = {
  {"empty", 'f', 0, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'f', 2, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'f', 3, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'f', 4, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'f', 5, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'f', 6, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'f', 7, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'f', 8, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'f', 9, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'f', -2, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'c', 5, 5,
   "f067985d352d2da6dfaef4844a66d06c5371ecbd9530a4d195ac599fef8b3427"},
  {"empty", 'g', -1, 23,
   "30e6fa98fb48c2b132824d1ac5e2243c0be9e9082ff32598d34d7687ca7f6c7f"},
  {"empty", 'g', 9, 23,
   "10c2221846da8b4250e556aa520c86d6674614d7c5874d8b9cb7f26d62835036"},
  {"one", 'f', 0, 11,
   "d2058ee2a42e0cd4fc27ebdb9a3699e90af29d4de870ec999c5f338cb0cf8a86"},
  {"one", 'f', 2, 7,
   "e45ce219caee059e42126964e339db98bbd7d2bbdea1b03859dd48ac96bf269d"},
  {"one", 'f', 3, 7,
   "e45ce219caee059e42126964e339db98bbd7d2bbdea1b03859dd48ac96bf269d"},
  {"one", 'f', 4, 7,
   "e45ce219caee059e42126964e339db98bbd7d2bbdea1b03859dd48ac96bf269d"},
  {"one", 'f', 5, 7,
   "e45ce219caee059e42126964e339db98bbd7d2bbdea1b03859dd48ac96bf269d"},
  {"one", 'f', 6, 7,
   "e45ce219caee059e42126964e339db98bbd7d2bbdea1b03859dd48ac96bf269d"},
  {"one", 'f', 7, 7,
   "e45ce219caee059e42126964e339db98bbd7d2bbdea1b03859dd48ac96bf269d"},
  {"one", 'f', 8, 7,
   "e45ce219caee059e42126964e339db98bbd7d2bbdea1b03859dd48ac96bf269d"},
  {"one", 'f', 9, 7,
   "e45ce219caee059e42126964e339db98bbd7d2bbdea1b03859dd48ac96bf269d"},
  {"one", 'f', -2, 11,
   "d2058ee2a42e0cd4fc27ebdb9a3699e90af29d4de870ec999c5f338cb0cf8a86"},
  {"one", 'c', 5, 7,
   "e45ce219caee059e42126964e339db98bbd7d2bbdea1b03859dd48ac96bf269d"},
  {"one", 'g', -1, 25,
   "f1a7c8e8de042bc4fa970708757b62042de31814df7516c674d1379535f4ec21"},
  {"one", 'g', 9, 25,
   "fcb0c6c17cdb5fae5e897d85bbdc9f3559f638823824b62791d08fd5d0f73488"},
  {"short", 'f', 0, 36,
   "b700f2e69dc742b6df10ed09704f4c6bec2ae619bdf756ce682c48567a52c35a"},
  {"short", 'f', 2, 22,
   "0fe534a6b739372d72d1d055b1647350a042e29a91bc03b70195e51912de88c9"},
  {"short", 'f', 3, 22,
   "0fe534a6b739372d72d1d055b1647350a042e29a91bc03b70195e51912de88c9"},
  {"short", 'f', 4, 22,
   "0fe534a6b739372d72d1d055b1647350a042e29a91bc03b70195e51912de88c9"},
  {"short", 'f', 5, 22,
   "0fe534a6b739372d72d1d055b1647350a042e29a91bc03b70195e51912de88c9"},
  {"short", 'f', 6, 22,
   "0fe534a6b739372d72d1d055b1647350a042e29a91bc03b70195e51912de88c9"},
  {"short", 'f', 7, 22,
   "0fe534a6b739372d72d1d055b1647350a042e29a91bc03b70195e51912de88c9"},
  {"short", 'f', 8, 22,
   "0fe534a6b739372d72d1d055b1647350a042e29a91bc03b70195e51912de88c9"},
  {"short", 'f', 9, 22,
   "0fe534a6b739372d72d1d055b1647350a042e29a91bc03b70195e51912de88c9"},
  {"short", 'f', -2, 36,
   "b700f2e69dc742b6df10ed09704f4c6bec2ae619bdf756ce682c48567a52c35a"},
  {"short", 'c', 5, 22,
   "0fe534a6b739372d72d1d055b1647350a042e29a91bc03b70195e51912de88c9"},
  {"short", 'g', -1, 40,
   "4b6d8c1c9a014fdd2a3904a5f76264eb9073a6e861ad1be5b286e3bf93b9d2fc"},
  {"short", 'g', 9, 40,
   "8bb13899a87466ee46a61275aefb81eef0616384bb43766b6c7254b30d836c5b"},
  {"text20k", 'f', 0, 20010,
   "3873b10a64a4f2a6156ca93a6406055c55ef8f3afbb2f4e3ee9e2e5147027d65"},
  {"text20k", 'f', 2, 4605,
   "005f9b6ffd8fe35ea6cb624275564f4010aa604ad1e5dce7a8c550a84d7080bd"},
  {"text20k", 'f', 3, 4224,
   "ea6685c040a930bf9d6f2a00cdd9d5aff647b1505a2a09aa6fc4c5314990fbc2"},
  {"text20k", 'f', 4, 4198,
   "d5d4c7b691686d2614b3aadb405e9edc384bf23736805298dff4954260ea013f"},
  {"text20k", 'f', 5, 3972,
   "79a5d9c3ae19fee3c346c7c43ecde2d3958942ccedbe8dd51304ef006d8877a7"},
  {"text20k", 'f', 6, 3779,
   "271f60d3d57bbf32654d93114e579200dd5469b7b1c51f8c181ce54b11a950d2"},
  {"text20k", 'f', 7, 3767,
   "5f37cf825f0062bc198cf7444343dd8a55095c80230f7cfb73f9e01d9c0e44fe"},
  {"text20k", 'f', 8, 3767,
   "5f37cf825f0062bc198cf7444343dd8a55095c80230f7cfb73f9e01d9c0e44fe"},
  {"text20k", 'f', 9, 3767,
   "5f37cf825f0062bc198cf7444343dd8a55095c80230f7cfb73f9e01d9c0e44fe"},
  {"text20k", 'f', -2, 11004,
   "e4dfd4ec5eca7203b1cfa23c28c46c9179f9bf0c4843ee1d78140fca759feae2"},
  {"text20k", 'c', 5, 3972,
   "79a5d9c3ae19fee3c346c7c43ecde2d3958942ccedbe8dd51304ef006d8877a7"},
  {"text20k", 'g', -1, 3797,
   "d7bff1c9194cadae6c010c67f18725738162a714f8add972074ececcea21c28a"},
  {"text20k", 'g', 9, 3785,
   "bdec3982e032457d1b371c2046d6c5e16343516a96da9003e0b71be3f5bf1266"},
  {"random100k", 'f', 0, 100015,
   "e958f9051309e51d501350464b36e8773da710b9f467fb879c8c68fbacfb9660"},
  {"random100k", 'f', 2, 100040,
   "70922f30dfe3be86aaa90f655e527de4d787d692848b7794cace1183af4fee0d"},
  {"random100k", 'f', 3, 100040,
   "70922f30dfe3be86aaa90f655e527de4d787d692848b7794cace1183af4fee0d"},
  {"random100k", 'f', 4, 100040,
   "70922f30dfe3be86aaa90f655e527de4d787d692848b7794cace1183af4fee0d"},
  {"random100k", 'f', 5, 100040,
   "70922f30dfe3be86aaa90f655e527de4d787d692848b7794cace1183af4fee0d"},
  {"random100k", 'f', 6, 100040,
   "70922f30dfe3be86aaa90f655e527de4d787d692848b7794cace1183af4fee0d"},
  {"random100k", 'f', 7, 100040,
   "70922f30dfe3be86aaa90f655e527de4d787d692848b7794cace1183af4fee0d"},
  {"random100k", 'f', 8, 100040,
   "70922f30dfe3be86aaa90f655e527de4d787d692848b7794cace1183af4fee0d"},
  {"random100k", 'f', 9, 100040,
   "70922f30dfe3be86aaa90f655e527de4d787d692848b7794cace1183af4fee0d"},
  {"random100k", 'f', -2, 100015,
   "e958f9051309e51d501350464b36e8773da710b9f467fb879c8c68fbacfb9660"},
  {"random100k", 'c', 5, 100040,
   "70922f30dfe3be86aaa90f655e527de4d787d692848b7794cace1183af4fee0d"},
  {"random100k", 'g', -1, 100058,
   "cdc6f034e0d9b87709a6137793dfbc1d5b5723d64482d148507cf7531861376a"},
  {"random100k", 'g', 9, 100058,
   "d470b11cc007e9b367fbcd29b1c221d0baab38bb608b302ea306aa802418ecc1"},
  {"repeat300k", 'f', 0, 300030,
   "8db6062ab533d0e66ba4356ac8cf7c075917a3f53868c3829fe5cf4c8f965c4d"},
  {"repeat300k", 'f', 2, 1972,
   "25cd713490cfc473a49a8baceb910cecc19fe7da3a830dd6efe1f8d4b128a550"},
  {"repeat300k", 'f', 3, 1926,
   "6a0c9251db7be1f8c010e9fa9b55de10fdd464f812a83c1f023c151314ec3b99"},
  {"repeat300k", 'f', 4, 871,
   "76d502429038bc2d2452bfc36f3e7e9cfdc7039befaedd97992ce38a5507ab3e"},
  {"repeat300k", 'f', 5, 883,
   "2fe078ee63340c5340bbdd489c6bae8a3cf93a490d7c07449caff29fef09f888"},
  {"repeat300k", 'f', 6, 901,
   "3925da762bce81ac96fe7d109d15d097c25b55a186881ba723fd502f9e7f1a3c"},
  {"repeat300k", 'f', 7, 901,
   "3925da762bce81ac96fe7d109d15d097c25b55a186881ba723fd502f9e7f1a3c"},
  {"repeat300k", 'f', 8, 834,
   "c1f15c13399cbbe2200c6008336ef2d08fe582d2c89b9e0f8bce53b80f92c5a9"},
  {"repeat300k", 'f', 9, 834,
   "c1f15c13399cbbe2200c6008336ef2d08fe582d2c89b9e0f8bce53b80f92c5a9"},
  {"repeat300k", 'f', -2, 78297,
   "7261152eb185e4b3a080b05d16793e544899e99f0094eed781a3f2eac0a77a76"},
  {"repeat300k", 'c', 5, 883,
   "2fe078ee63340c5340bbdd489c6bae8a3cf93a490d7c07449caff29fef09f888"},
  {"repeat300k", 'g', -1, 919,
   "aaa5acc86822f018698197753995246cf121041a682f20b54d154bf09cba29db"},
  {"repeat300k", 'g', 9, 852,
   "a1bc9ea3a164d34a74eef8158fef83c5cedaf65222e83594b60e287dcf48b733"},
  {"abcd200k", 'f', 0, 200025,
   "13da8f04ab114339a914d7647a2eb220fddefbb4b4b366f8d81fc15b5d26acf2"},
  {"abcd200k", 'f', 2, 63496,
   "f7fc007c07acc5d01bcb8532c3ecb11d4568b61f0947a4dd137c3987c659c544"},
  {"abcd200k", 'f', 3, 61542,
   "da2848d6a291cb9eb8f4420114b98a0cb81cfa3d2d6b2f3be866e61fcae3dcba"},
  {"abcd200k", 'f', 4, 59773,
   "8efb2f666e6a57dd08b0323e72bbe954597177d06b3e8daba7de9f9f17ceea61"},
  {"abcd200k", 'f', 5, 59044,
   "966f1dcad9c2eb67900caa5daa9435070e44eb7f9f3c4ce2cb2236506185f8f3"},
  {"abcd200k", 'f', 6, 58304,
   "05adaebf8bf00320a8df57c4fcf7c40584dc03bdcde774be7074a84c16991272"},
  {"abcd200k", 'f', 7, 58205,
   "15dda6fa9f0e1338f1b88dece690054fe4110775565a35c471b7422dbc03edd7"},
  {"abcd200k", 'f', 8, 58205,
   "15dda6fa9f0e1338f1b88dece690054fe4110775565a35c471b7422dbc03edd7"},
  {"abcd200k", 'f', 9, 58205,
   "15dda6fa9f0e1338f1b88dece690054fe4110775565a35c471b7422dbc03edd7"},
  {"abcd200k", 'f', -2, 56277,
   "8f59057353a6d8290114b431f8636312a8483b4c97a1b7e6df00ac6828107fb6"},
  {"abcd200k", 'c', 5, 59044,
   "966f1dcad9c2eb67900caa5daa9435070e44eb7f9f3c4ce2cb2236506185f8f3"},
  {"abcd200k", 'g', -1, 58322,
   "4a26e4761adcd6a63076a433fc3d886e2b5395683262826a67a36ff8f1d2fcb9"},
  {"abcd200k", 'g', 9, 58223,
   "94c6397098ea459ec77f48aa229290ceb267ec939c86ffc949d5ce7ec8790c9a"},
  {"mixed150k", 'f', 0, 150020,
   "faf77fc99dda4fc6b32740f3971f8baf92c78b20b99d1730e4339d39fe21d43e"},
  {"mixed150k", 'f', 2, 56877,
   "62e708c510db16bd17800df5c66bd5f93c0e6f00e4d4638411676fa5aab505d6"},
  {"mixed150k", 'f', 3, 55359,
   "e3208ec5d6f3b333663561f55e332bf49a4a11bd317f7a72de257da53e84b416"},
  {"mixed150k", 'f', 4, 55223,
   "068e28aa0685fb484345b3fe6ee145f7b427fcfa7c518ddc39a4114c9f16d6f6"},
  {"mixed150k", 'f', 5, 54140,
   "6b6f311b158aafdbab865ed730b672282d9b705abc73bdd1807850a7198d42fb"},
  {"mixed150k", 'f', 6, 53216,
   "2f0bd9fef395f2f2ef1f4cf302fc9e5f64d9a15ed5f2a5db69d4c180c3237824"},
  {"mixed150k", 'f', 7, 53116,
   "37d46fdbb4d55f4ffd3688b6ca1c5d322413f74c5260850222c76fbaf9973fa9"},
  {"mixed150k", 'f', 8, 53041,
   "108b34b538180ad00fb03c6d7b187fbcf5980f1254b07bc33cd2df539fbe20ce"},
  {"mixed150k", 'f', 9, 53041,
   "108b34b538180ad00fb03c6d7b187fbcf5980f1254b07bc33cd2df539fbe20ce"},
  {"mixed150k", 'f', -2, 105562,
   "0b664be146a8c136a9f22e3d1fd39bfd8d17bde086c0d7e30db50dfcbc638911"},
  {"mixed150k", 'c', 5, 54140,
   "6b6f311b158aafdbab865ed730b672282d9b705abc73bdd1807850a7198d42fb"},
  {"mixed150k", 'g', -1, 53234,
   "6e6470e8e97800753c9c224a522456f051c8c03bef6a2b38d6be6d3212b45c47"},
  {"mixed150k", 'g', 9, 53059,
   "61e835f3cdde3bacfcd2469f6444cb0832ae37ea421c2971234f7836b675807a"},
  {"text400k", 'f', 0, 400040,
   "bced0ea96bf42cf7595cefea7db635f7829311947e39d81d060f4d7e686f5d9b"},
  {"text400k", 'f', 2, 89426,
   "d3234cb0d44698983dc9dc2ee6ac002305ef25ef4b0bd1695b2ca22c424bf8f2"},
  {"text400k", 'f', 3, 80827,
   "1b475de318657a6247f83ed0bd909a5ff5a966ab0c93f1174fccceb16edac84b"},
  {"text400k", 'f', 4, 80501,
   "c4b0fb730b8c5c1e53bcf914eb66f73935612f2a1d275a9290c2718b116179c2"},
  {"text400k", 'f', 5, 76164,
   "49575443dd1ff4391e71f318b199ed4fca87926a51206ca9d94132e62733dd7c"},
  {"text400k", 'f', 6, 70993,
   "e2716b67c6f4d328f29d9fb539b52e78fd16cc203274eddb4933c718515cb5df"},
  {"text400k", 'f', 7, 68224,
   "e4b2e2ee5ed2863087ebe9bf0f2d57fc47045a10d8fda6f2e7b36c1f0bac45ef"},
  {"text400k", 'f', 8, 66675,
   "86e574aa4acea98139c392665eba7157fd8abc5bbd8490fe1f75d2cd5c50f4de"},
  {"text400k", 'f', 9, 66675,
   "86e574aa4acea98139c392665eba7157fd8abc5bbd8490fe1f75d2cd5c50f4de"},
  {"text400k", 'f', -2, 219999,
   "638c5af7c93129fcc2bf215269fd62f92c20290bf5ef4159dc983d9ce338ebfb"},
  {"text400k", 'c', 5, 76164,
   "49575443dd1ff4391e71f318b199ed4fca87926a51206ca9d94132e62733dd7c"},
  {"text400k", 'g', -1, 71011,
   "c615eeed5ebd1dbc6e2a6907eaecf58e35e59996270fb51f155ed58a664e63ad"},
  {"text400k", 'g', 9, 66693,
   "13f73e53d5688c9978ece389a50a3e56ce10e002e98470fc7b74ed0eab73aa4d"},
  {"zeros70k", 'f', 0, 70015,
   "3046c81345025a2838fce7de4c841f52e7d0ccbe402349df1ce5736090ed943b"},
  {"zeros70k", 'f', 2, 327,
   "9d0bdfda9106c736a29a29af52971cb1aa68b081b900b12a8d897017fdd55e33"},
  {"zeros70k", 'f', 3, 327,
   "9d0bdfda9106c736a29a29af52971cb1aa68b081b900b12a8d897017fdd55e33"},
  {"zeros70k", 'f', 4, 89,
   "fa27b73dec9bd92af653da6660f5517eb96422b04ca0f6d7e8fef6b55268c079"},
  {"zeros70k", 'f', 5, 89,
   "fa27b73dec9bd92af653da6660f5517eb96422b04ca0f6d7e8fef6b55268c079"},
  {"zeros70k", 'f', 6, 89,
   "fa27b73dec9bd92af653da6660f5517eb96422b04ca0f6d7e8fef6b55268c079"},
  {"zeros70k", 'f', 7, 89,
   "fa27b73dec9bd92af653da6660f5517eb96422b04ca0f6d7e8fef6b55268c079"},
  {"zeros70k", 'f', 8, 89,
   "fa27b73dec9bd92af653da6660f5517eb96422b04ca0f6d7e8fef6b55268c079"},
  {"zeros70k", 'f', 9, 89,
   "fa27b73dec9bd92af653da6660f5517eb96422b04ca0f6d7e8fef6b55268c079"},
  {"zeros70k", 'f', -2, 8778,
   "5e1b3828fc6f7b79aef38d1f2f9eff717fe3b77265b76b04a9054b4923e30340"},
  {"zeros70k", 'c', 5, 89,
   "fa27b73dec9bd92af653da6660f5517eb96422b04ca0f6d7e8fef6b55268c079"},
  {"zeros70k", 'g', -1, 107,
   "6c9f238d40fe2cae9c241d78e5fb2dc201316fbc48b8966220b5985acad17f84"},
  {"zeros70k", 'g', 9, 107,
   "5ddcfdb8171924ca503e98de9a1042926d2592a8ace213749eef6650c4dd529b"},
  {"mixed1m", 'f', 0, 1048666,
   "a74bc64f3822081fa0736eae0888a566ba6ea007c84644d0a0fb6a2ffa254b8f"},
  {"mixed1m", 'f', 2, 454951,
   "ed706b8a0d9c6836cf6b719a2c16905e19c33f7c5c82703715de671dd5bd275c"},
  {"mixed1m", 'f', 3, 445673,
   "3d5d16ae0df993b4836024bed2c4756c56e4efb4b88a35e5da5d49521126317e"},
  {"mixed1m", 'f', 4, 444252,
   "44999f6efefd8ccc7f081641e8395711ef858532872849a2e747475a8c084eb6"},
  {"mixed1m", 'f', 5, 438334,
   "2fff86d2aa76bed37e5bdb6e2feb86943455388935653bd99db47a2fea64d378"},
  {"mixed1m", 'f', 6, 432644,
   "5291e85c3be633fc19ec6bb3876f00f15b80200e5e1836eb08490274a452d3fa"},
  {"mixed1m", 'f', 7, 432283,
   "c4b24697504505aa2e44b11af58f3c9e46b95c8a24f464f556497f5be4742d64"},
  {"mixed1m", 'f', 8, 431737,
   "85dbe29b8c6c344efaaf2c9c109e6f2841dcab588cc682d948f066d78f55ea04"},
  {"mixed1m", 'f', 9, 431736,
   "06aec9981739ee6a055a070540737e515284c9ab247928bf02b0c960317272a6"},
  {"mixed1m", 'f', -2, 776547,
   "c76447e3c5d67eeea567b5ee1cd2b711ab6a292b2a076c8e172b3b510c733ba8"},
  {"mixed1m", 'c', 5, 438334,
   "2fff86d2aa76bed37e5bdb6e2feb86943455388935653bd99db47a2fea64d378"},
  {"mixed1m", 'g', -1, 432662,
   "dd7c55cf07409caca075d11fb57283d5d3cafbceadb7f42cc4856ad53889e5cc"},
  {"mixed1m", 'g', 9, 431754,
   "3b134c0b5486b19c212dd9a804ff9f9ddc4b06a4c5a97aa23c03abf26219114b"},
};

static void input_bytes(Arena *a, const char *name, const unsigned char **p,
                        size_t *n)
{
  for (size_t i = 0; i < sizeof INPUTS / sizeof *INPUTS; i++) {
    const Input *in = &INPUTS[i];
    if (strcmp(in->name, name) != 0)
      continue;
    if (in->lit) {
      *p = (const unsigned char *)in->lit;
      *n = in->n;
      return;
    }
    Buf b;
    buf_init(&b, a);
    gen(&b, in->kind, in->n, in->seed);
    *p = (const unsigned char *)b.p;
    *n = b.len;
    return;
  }
  *p = NULL;
  *n = 0;
}

static void hex_sha256(const unsigned char *p, size_t n, char out[65])
{
  unsigned char sum[32];
  (void)mbedtls_sha256(p, n, sum, 0);
  for (int i = 0; i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", sum[i]);
}

/* Inflates p[0..n) (raw deflate, or gzip when gz) and compares with want. */
static int inflates_to(const unsigned char *p, size_t n, bool gz,
                       const unsigned char *want, size_t want_n, Arena *a)
{
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit2(&s, gz ? 16 + MAX_WBITS : -MAX_WBITS) != Z_OK)
    return 0;
  unsigned char *out = ARENA_NEW(a, unsigned char, want_n + 1);
  s.next_in = (Bytef *)p;
  s.avail_in = (uInt)n;
  s.next_out = out;
  s.avail_out = (uInt)(want_n + 1);
  int rc = inflate(&s, Z_FINISH);
  size_t got = want_n + 1 - s.avail_out;
  bool used_all = s.avail_in == 0;
  inflateEnd(&s);
  return rc == Z_STREAM_END && used_all && got == want_n &&
         (want_n == 0 || memcmp(out, want, want_n) == 0);
}

static void test_against_go(void)
{
  Arena a;
  arena_init(&a, 1 << 20);
  for (size_t i = 0; i < sizeof EXPECT / sizeof *EXPECT; i++) {
    const Expect *e = &EXPECT[i];
    ArenaMark m = arena_mark(&a);
    const unsigned char *src;
    size_t n;
    input_bytes(&a, e->input, &src, &n);
    T_CHECK(src != NULL);
    unsigned char *out = NULL;
    size_t out_len = 0;
    if (e->mode == 'g') {
      out = goflate_gzip(&a, src, n, e->level, &out_len);
    } else if (e->mode == 'f') {
      out = goflate_compress(&a, src, n, e->level, &out_len);
    } else {
      Buf b;
      buf_init(&b, &a);
      GoFlate *z = goflate_new(&a, &b, e->level);
      for (size_t off = 0; off < n; off += 32768)
        goflate_write(z, src + off, n - off < 32768 ? n - off : 32768);
      goflate_close(z);
      out = (unsigned char *)b.p;
      out_len = b.len;
    }
    char hex[65];
    hex_sha256(out, out_len, hex);
    if (out_len != e->len || strcmp(hex, e->sha256) != 0)
      fprintf(stderr, "goflate: %s %c%d: %zu bytes %s, Go: %zu bytes %s\n",
              e->input, e->mode, e->level, out_len, hex, e->len, e->sha256);
    T_EQ_INT(out_len, e->len);
    T_EQ_STR(hex, e->sha256);
    T_CHECK(inflates_to(out, out_len, e->mode == 'g', src, n, &a));
    arena_rewind(&a, m);
  }
  arena_release(&a);
}

static void test_levels(void)
{
  Arena a;
  arena_init(&a, 1 << 16);
  Buf b;
  buf_init(&b, &a);
  size_t n = 99;
  /* level 1 (Go's separate BestSpeed encoder) and out-of-range levels */
  T_CHECK(goflate_new(&a, &b, 1) == NULL);
  T_CHECK(goflate_new(&a, &b, 10) == NULL);
  T_CHECK(goflate_new(&a, &b, -3) == NULL);
  T_CHECK(goflate_compress(&a, (const unsigned char *)"x", 1, 1, &n) == NULL);
  T_EQ_INT(n, 0);
  /* -1 is Go's DefaultCompression: level 6 */
  size_t n6, nd;
  const unsigned char *in = (const unsigned char *)"abcabcabcabcabcabc";
  unsigned char *l6 = goflate_compress(&a, in, 18, 6, &n6);
  unsigned char *ld = goflate_compress(&a, in, 18, -1, &nd);
  T_EQ_INT(nd, n6);
  T_CHECK(memcmp(l6, ld, n6) == 0);
  arena_release(&a);
}

/* Below 64 KiB the window never slides, so Go's output does not depend on
** how the input was split into writes: the streaming gzip in small pieces
** equals the one-shot one (whose bytes test_against_go checks). */
static void test_gzip_stream(void)
{
  Arena a;
  arena_init(&a, 1 << 20);
  const unsigned char *src;
  size_t n;
  input_bytes(&a, "text20k", &src, &n);
  size_t one_len;
  unsigned char *one = goflate_gzip(&a, src, n, -1, &one_len);
  Buf b;
  buf_init(&b, &a);
  GoGzip *g = goflate_gzip_new(&a, &b, -1);
  T_CHECK(g != NULL);
  for (size_t off = 0; off < n; off += 777)
    goflate_gzip_write(g, src + off, n - off < 777 ? n - off : 777);
  goflate_gzip_close(g);
  T_EQ_INT(b.len, one_len);
  T_CHECK(memcmp(b.p, one, one_len) == 0);
  T_CHECK(goflate_gzip_new(&a, &b, 1) == NULL);
  arena_release(&a);
}

int main(void)
{
  T_RUN(test_against_go);
  T_RUN(test_levels);
  T_RUN(test_gzip_stream);
  return t_done("goflate");
}
