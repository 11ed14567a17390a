/*
** goflate.c: Go's compress/flate compressor, re-expressed in C from the
** algorithm its source describes (deflate.go, huffman_code.go,
** huffman_bit_writer.go, token.go; checked against Go 1.19's output), so
** that the bytes are the same.  See goflate.h for the contract and
** docs/goflate.md for how it was checked against Go.
**
** Three parts: the bit writer and block encoder (which of stored, fixed
** or dynamic Huffman a block becomes, and how the code lengths are sent),
** the length-limited Huffman code builder (Go's package-merge variant;
** ties are broken by symbol, so any correct sort gives Go's codes), and
** the match finder (hash chains over a 64 KiB window that slides by
** 32 KiB, lazy matching for levels 4..9, skip-hashing for 2 and 3).
*/
#include "goflate.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- constants (RFC 1951 and Go's choices) ------------------------------ */

enum {
  WIN_BITS = 15,
  WIN_SIZE = 1 << WIN_BITS,
  WIN_MASK = WIN_SIZE - 1,
  MIN_MATCH = 4,          /* the shortest match Go emits */
  MAX_MATCH = 258,
  BASE_MATCH = 3,         /* RFC: a length code's zero */
  MAX_BLOCK_TOKENS = 1 << 14,
  MAX_STORED = 65535,
  HASH_BITS = 17,
  HASH_SIZE = 1 << HASH_BITS,
  HASH_MASK = HASH_SIZE - 1,
  MAX_HASH_OFFSET = 1 << 24,
  NUM_LIT = 286,
  NUM_OFF = 30,
  NUM_CODEGEN = 19,
  END_BLOCK = 256,
  LEN_CODES_START = 257,
  BAD_CODE = 255,
  SKIP_NEVER = INT_MAX,
};

#define MATCH_TYPE (1u << 30)
#define LENGTH_SHIFT 22
#define OFFSET_MASK ((1u << LENGTH_SHIFT) - 1)
#define HASH_MUL 0x1e35a7bdu

typedef struct {
  int good, lazy, nice, chain, fast_skip;
} Level;

/* Go's per-level parameters (deflate.go's levels table), from level 2. */
static const Level LEVELS[10] = {
  [2] = {4, 0, 16, 8, 5},
  [3] = {4, 0, 32, 32, 6},
  [4] = {4, 4, 16, 16, SKIP_NEVER},
  [5] = {8, 16, 32, 32, SKIP_NEVER},
  [6] = {8, 16, 128, 128, SKIP_NEVER},
  [7] = {8, 32, 128, 256, SKIP_NEVER},
  [8] = {32, 128, 258, 1024, SKIP_NEVER},
  [9] = {32, 258, 258, 4096, SKIP_NEVER},
};

static const uint8_t LEN_EXTRA[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2,
                                      2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5,
                                      5, 5, 0};
static const uint16_t LEN_BASE[29] = {0,  1,  2,  3,   4,   5,   6,   7,
                                      8,  10, 12, 14,  16,  20,  24,  28,
                                      32, 40, 48, 56,  64,  80,  96,  112,
                                      128, 160, 192, 224, 255};
static const uint8_t OFF_EXTRA[30] = {0, 0, 0,  0,  1,  1,  2,  2,  3,  3,
                                      4, 4, 5,  5,  6,  6,  7,  7,  8,  8,
                                      9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
static const uint16_t OFF_BASE[30] = {
  0x0000, 0x0001, 0x0002, 0x0003, 0x0004, 0x0006, 0x0008, 0x000c,
  0x0010, 0x0018, 0x0020, 0x0030, 0x0040, 0x0060, 0x0080, 0x00c0,
  0x0100, 0x0180, 0x0200, 0x0300, 0x0400, 0x0600, 0x0800, 0x0c00,
  0x1000, 0x1800, 0x2000, 0x3000, 0x4000, 0x6000};
static const uint8_t CODEGEN_ORDER[NUM_CODEGEN] = {
  16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

static int floor_log2(uint32_t v)
{
  int r = 0;
  while (v >>= 1)
    r++;
  return r;
}

/* xlength = length - 3, 0..255 -> 0..28 */
static uint32_t length_code(uint32_t xl)
{
  if (xl < 8)
    return xl;
  if (xl == 255)
    return 28;
  int l = floor_log2(xl);
  return (uint32_t)(4 * (l - 1)) + ((xl >> (l - 2)) & 3);
}

/* xoffset = distance - 1, 0..32767 -> 0..29 */
static uint32_t offset_code(uint32_t xo)
{
  if (xo < 4)
    return xo;
  int l = floor_log2(xo);
  return (uint32_t)(2 * l) + ((xo >> (l - 1)) & 1);
}

static uint16_t reverse_bits(uint16_t v, int n)
{
  uint16_t r = 0;
  for (int i = 0; i < n; i++, v >>= 1)
    r = (uint16_t)((r << 1) | (v & 1));
  return r;
}

/* ---- Huffman codes -------------------------------------------------------- */

typedef struct {
  uint16_t code, len;
} HCode;

typedef struct {
  uint16_t lit;
  int32_t freq;
} Node;

typedef struct {
  int32_t level, last, next_char, next_pair, needed;
} LevelInfo;

static int by_freq(const void *x, const void *y)
{
  const Node *a = x, *b = y;
  if (a->freq != b->freq)
    return a->freq < b->freq ? -1 : 1;
  return a->lit < b->lit ? -1 : a->lit > b->lit;
}

static int by_lit(const void *x, const void *y)
{
  const Node *a = x, *b = y;
  return a->lit < b->lit ? -1 : a->lit > b->lit;
}

/* How many symbols get each code length (bit_count[1..max_bits]), for
** list[0..n) sorted by ascending frequency with a sentinel at list[n]:
** the boundary package-merge Go uses, levels walked lazily. */
static int32_t bit_counts(const Node *list, int32_t n, int32_t max_bits,
                          int32_t *bit_count)
{
  LevelInfo lv[17];
  int32_t leaf[17][17];
  memset(lv, 0, sizeof lv);
  memset(leaf, 0, sizeof leaf);
  if (max_bits > n - 1)
    max_bits = n - 1;
  for (int32_t l = 1; l <= max_bits; l++) {
    lv[l].level = l;
    lv[l].last = list[1].freq;
    lv[l].next_char = list[2].freq;
    lv[l].next_pair = l == 1 ? INT32_MAX : list[0].freq + list[1].freq;
    leaf[l][l] = 2;
  }
  lv[max_bits].needed = 2 * n - 4;
  int32_t level = max_bits;
  for (;;) {
    LevelInfo *L = &lv[level];
    if (L->next_pair == INT32_MAX && L->next_char == INT32_MAX) {
      /* this level is exhausted: nothing more to pair above it */
      L->needed = 0;
      lv[level + 1].next_pair = INT32_MAX;
      level++;
      continue;
    }
    int32_t prev = L->last;
    if (L->next_char < L->next_pair) {
      int32_t k = leaf[level][level] + 1;
      L->last = L->next_char;
      leaf[level][level] = k;
      L->next_char = list[k].freq;
    } else {
      L->last = L->next_pair;
      memcpy(leaf[level], leaf[level - 1], (size_t)level * sizeof(int32_t));
      lv[level - 1].needed = 2;
    }
    if (--L->needed == 0) {
      if (level == max_bits)
        break;
      lv[level + 1].next_pair = prev + L->last;
      level++;
    } else {
      while (lv[level - 1].needed > 0)
        level--;
    }
  }
  int32_t bits = 1;
  for (int32_t l = max_bits; l > 0; l--, bits++)
    bit_count[bits] = leaf[max_bits][l] - leaf[max_bits][l - 1];
  return max_bits;
}

/* Codes for freq[0..nfreq), at most max_bits long, into codes[] (lengths
** of unused symbols set to 0).  scratch holds nfreq + 1 nodes. */
static void huff_generate(HCode *codes, const int32_t *freq, int nfreq,
                          int32_t max_bits, Node *scratch)
{
  int32_t count = 0;
  for (int i = 0; i < nfreq; i++) {
    if (freq[i] != 0)
      scratch[count++] = (Node){(uint16_t)i, freq[i]};
    else
      codes[i].len = 0;
  }
  if (count <= 2) {
    /* Go gives one or two used symbols the one-bit codes 0 and 1 */
    for (int32_t i = 0; i < count; i++)
      codes[scratch[i].lit] = (HCode){(uint16_t)i, 1};
    return;
  }
  qsort(scratch, (size_t)count, sizeof(Node), by_freq);
  scratch[count] = (Node){UINT16_MAX, INT32_MAX};
  int32_t bit_count[17] = {0};
  int32_t mb = bit_counts(scratch, count, max_bits, bit_count);
  /* canonical codes: the least frequent symbols take the longest codes,
  ** and within one length, codes ascend with the symbol */
  uint16_t code = 0;
  int32_t rest = count;
  for (int32_t n = 0; n <= mb; n++) {
    code = (uint16_t)(code << 1);
    if (n == 0 || bit_count[n] == 0)
      continue;
    Node *chunk = scratch + rest - bit_count[n];
    qsort(chunk, (size_t)bit_count[n], sizeof(Node), by_lit);
    for (int32_t i = 0; i < bit_count[n]; i++) {
      codes[chunk[i].lit] = (HCode){reverse_bits(code, (int)n), (uint16_t)n};
      code++;
    }
    rest -= bit_count[n];
  }
}

static int64_t bit_length(const HCode *codes, const int32_t *freq, int n)
{
  int64_t total = 0;
  for (int i = 0; i < n; i++)
    if (freq[i] != 0)
      total += (int64_t)freq[i] * codes[i].len;
  return total;
}

/* ---- bit writer and block encoder ----------------------------------------- */

typedef struct {
  Buf *out;
  uint64_t bits;
  unsigned nbits;
  int32_t lit_freq[NUM_LIT];
  int32_t off_freq[NUM_OFF];
  int32_t cg_freq[NUM_CODEGEN];
  uint8_t codegen[NUM_LIT + NUM_OFF + 1];
  HCode lit_codes[NUM_LIT];
  HCode off_codes[NUM_OFF];
  HCode cg_codes[NUM_CODEGEN];
  Node scratch[NUM_LIT + 1];
} BitWriter;

static HCode FIXED_LIT[NUM_LIT], FIXED_OFF[NUM_OFF], HUFF_OFF[NUM_OFF];
static int fixed_ready;

static void init_fixed(void)
{
  if (fixed_ready)
    return;
  for (int ch = 0; ch < NUM_LIT; ch++) {
    uint16_t bits, size;
    if (ch < 144) {
      bits = (uint16_t)(ch + 48);
      size = 8;
    } else if (ch < 256) {
      bits = (uint16_t)(ch + 400 - 144);
      size = 9;
    } else if (ch < 280) {
      bits = (uint16_t)(ch - 256);
      size = 7;
    } else {
      bits = (uint16_t)(ch + 192 - 280);
      size = 8;
    }
    FIXED_LIT[ch] = (HCode){reverse_bits(bits, size), size};
  }
  for (int ch = 0; ch < NUM_OFF; ch++)
    FIXED_OFF[ch] = (HCode){reverse_bits((uint16_t)ch, 5), 5};
  /* the offset code of Huffman-only blocks: one used symbol */
  HUFF_OFF[0] = (HCode){0, 1};
  fixed_ready = 1;
}

static void put_bits(BitWriter *w, uint32_t b, unsigned nb)
{
  w->bits |= (uint64_t)b << w->nbits;
  w->nbits += nb;
  while (w->nbits >= 8) {
    buf_putc(w->out, (char)(w->bits & 0xFF));
    w->bits >>= 8;
    w->nbits -= 8;
  }
}

static void put_code(BitWriter *w, HCode c)
{
  put_bits(w, c.code, c.len);
}

static void flush_bits(BitWriter *w)
{
  if (w->nbits > 0)
    buf_putc(w->out, (char)(w->bits & 0xFF));
  w->bits = 0;
  w->nbits = 0;
}

static void stored_header(BitWriter *w, size_t len, bool eof)
{
  put_bits(w, eof ? 1 : 0, 3);
  flush_bits(w);
  put_bits(w, (uint32_t)len, 16);
  put_bits(w, (uint32_t)(~len & 0xFFFF), 16);
}

static void stored_block(BitWriter *w, const unsigned char *p, size_t n,
                         bool eof)
{
  stored_header(w, n, eof);
  buf_put(w->out, p, n);
}

/* Run-length codes the literal and offset code lengths into w->codegen
** (symbols 0..18, each of 16/17/18 followed by its repeat count), counting
** them in w->cg_freq; ends with BAD_CODE. */
static void gen_codegen(BitWriter *w, int nlit, int noff, const HCode *lit,
                        const HCode *off)
{
  uint8_t in[NUM_LIT + NUM_OFF + 1];
  memset(w->cg_freq, 0, sizeof w->cg_freq);
  for (int i = 0; i < nlit; i++)
    in[i] = (uint8_t)lit[i].len;
  for (int i = 0; i < noff; i++)
    in[nlit + i] = (uint8_t)off[i].len;
  in[nlit + noff] = BAD_CODE;
  uint8_t *cg = w->codegen;
  int o = 0;
  uint8_t size = in[0];
  int count = 1;
  for (int i = 1; size != BAD_CODE; i++) {
    uint8_t next = in[i];
    if (next == size) {
      count++;
      continue;
    }
    if (size != 0) {
      cg[o++] = size;
      w->cg_freq[size]++;
      count--;
      while (count >= 3) {
        int n = count < 6 ? count : 6;
        cg[o++] = 16;
        cg[o++] = (uint8_t)(n - 3);
        w->cg_freq[16]++;
        count -= n;
      }
    } else {
      while (count >= 11) {
        int n = count < 138 ? count : 138;
        cg[o++] = 18;
        cg[o++] = (uint8_t)(n - 11);
        w->cg_freq[18]++;
        count -= n;
      }
      if (count >= 3) {
        cg[o++] = 17;
        cg[o++] = (uint8_t)(count - 3);
        w->cg_freq[17]++;
        count = 0;
      }
    }
    for (; count > 0; count--) {
      cg[o++] = size;
      w->cg_freq[size]++;
    }
    size = next;
    count = 1;
  }
  cg[o] = BAD_CODE;
}

/* Bits of a dynamic block with these codes; *ncg: code length codes sent */
static int64_t dynamic_size(BitWriter *w, const HCode *lit, const HCode *off,
                            int64_t extra, int *ncg)
{
  int n = NUM_CODEGEN;
  while (n > 4 && w->cg_freq[CODEGEN_ORDER[n - 1]] == 0)
    n--;
  int64_t header = 3 + 5 + 5 + 4 + 3 * n +
                   bit_length(w->cg_codes, w->cg_freq, NUM_CODEGEN) +
                   (int64_t)w->cg_freq[16] * 2 + (int64_t)w->cg_freq[17] * 3 +
                   (int64_t)w->cg_freq[18] * 7;
  *ncg = n;
  return header + bit_length(lit, w->lit_freq, NUM_LIT) +
         bit_length(off, w->off_freq, NUM_OFF) + extra;
}

static void dynamic_header(BitWriter *w, int nlit, int noff, int ncg, bool eof)
{
  put_bits(w, eof ? 5 : 4, 3);
  put_bits(w, (uint32_t)(nlit - 257), 5);
  put_bits(w, (uint32_t)(noff - 1), 5);
  put_bits(w, (uint32_t)(ncg - 4), 4);
  for (int i = 0; i < ncg; i++)
    put_bits(w, w->cg_codes[CODEGEN_ORDER[i]].len, 3);
  for (int i = 0;;) {
    uint8_t c = w->codegen[i++];
    if (c == BAD_CODE)
      break;
    put_code(w, w->cg_codes[c]);
    if (c == 16)
      put_bits(w, w->codegen[i++], 2);
    else if (c == 17)
      put_bits(w, w->codegen[i++], 3);
    else if (c == 18)
      put_bits(w, w->codegen[i++], 7);
  }
}

/* Counts the symbols of tokens[0..n) (which end with END_BLOCK) and builds
** the dynamic codes for them. */
static void index_tokens(BitWriter *w, const uint32_t *tok, size_t n,
                         int *nlit, int *noff)
{
  memset(w->lit_freq, 0, sizeof w->lit_freq);
  memset(w->off_freq, 0, sizeof w->off_freq);
  for (size_t i = 0; i < n; i++) {
    uint32_t t = tok[i];
    if (t < MATCH_TYPE) {
      w->lit_freq[t]++;
      continue;
    }
    w->lit_freq[LEN_CODES_START +
                length_code((t - MATCH_TYPE) >> LENGTH_SHIFT)]++;
    w->off_freq[offset_code(t & OFFSET_MASK)]++;
  }
  int l = NUM_LIT;
  while (w->lit_freq[l - 1] == 0)
    l--;
  int o = NUM_OFF;
  while (o > 0 && w->off_freq[o - 1] == 0)
    o--;
  if (o == 0) {
    /* a block without matches still sends one offset code */
    w->off_freq[0] = 1;
    o = 1;
  }
  huff_generate(w->lit_codes, w->lit_freq, NUM_LIT, 15, w->scratch);
  huff_generate(w->off_codes, w->off_freq, NUM_OFF, 15, w->scratch);
  *nlit = l;
  *noff = o;
}

static void write_tokens(BitWriter *w, const uint32_t *tok, size_t n,
                         const HCode *lit, const HCode *off)
{
  for (size_t i = 0; i < n; i++) {
    uint32_t t = tok[i];
    if (t < MATCH_TYPE) {
      put_code(w, lit[t]);
      continue;
    }
    uint32_t xl = (t - MATCH_TYPE) >> LENGTH_SHIFT;
    uint32_t lc = length_code(xl);
    put_code(w, lit[lc + LEN_CODES_START]);
    if (LEN_EXTRA[lc])
      put_bits(w, xl - LEN_BASE[lc], LEN_EXTRA[lc]);
    uint32_t xo = t & OFFSET_MASK;
    uint32_t oc = offset_code(xo);
    put_code(w, off[oc]);
    if (OFF_EXTRA[oc])
      put_bits(w, xo - OFF_BASE[oc], OFF_EXTRA[oc]);
  }
}

/* One block of tokens (room for one more: END_BLOCK is appended), as the
** cheapest of stored (only when the input it covers is known: `input` not
** NULL), fixed and dynamic Huffman, ties going to fixed, then stored. */
static void write_block(BitWriter *w, uint32_t *tok, size_t n, bool eof,
                        const unsigned char *input, size_t in_len)
{
  tok[n++] = END_BLOCK;
  int nlit, noff, ncg;
  index_tokens(w, tok, n, &nlit, &noff);
  int64_t extra = 0;
  bool storable = input != NULL && in_len <= MAX_STORED;
  int64_t stored = ((int64_t)in_len + 5) * 8;
  if (storable) {
    /* extra bits only matter against the stored size: fixed and dynamic
    ** both pay them */
    for (int c = LEN_CODES_START + 8; c < nlit; c++)
      extra += (int64_t)w->lit_freq[c] * LEN_EXTRA[c - LEN_CODES_START];
    for (int c = 4; c < noff; c++)
      extra += (int64_t)w->off_freq[c] * OFF_EXTRA[c];
  }
  const HCode *lit = FIXED_LIT, *off = FIXED_OFF;
  int64_t size = 3 + bit_length(FIXED_LIT, w->lit_freq, NUM_LIT) +
                 bit_length(FIXED_OFF, w->off_freq, NUM_OFF) + extra;
  gen_codegen(w, nlit, noff, w->lit_codes, w->off_codes);
  huff_generate(w->cg_codes, w->cg_freq, NUM_CODEGEN, 7, w->scratch);
  int64_t dyn = dynamic_size(w, w->lit_codes, w->off_codes, extra, &ncg);
  if (dyn < size) {
    size = dyn;
    lit = w->lit_codes;
    off = w->off_codes;
  }
  if (storable && stored < size) {
    stored_block(w, input, in_len, eof);
    return;
  }
  if (lit == FIXED_LIT)
    put_bits(w, eof ? 3 : 2, 3);
  else
    dynamic_header(w, nlit, noff, ncg, eof);
  write_tokens(w, tok, n, lit, off);
}

/* A block of literals only (HuffmanOnly level): dynamic, unless stored is
** smaller than the dynamic size plus a sixteenth. */
static void write_block_huff(BitWriter *w, const unsigned char *in, size_t n,
                             bool eof)
{
  memset(w->lit_freq, 0, sizeof w->lit_freq);
  for (size_t i = 0; i < n; i++)
    w->lit_freq[in[i]]++;
  w->lit_freq[END_BLOCK] = 1;
  /* Go leaves the other offset counts as the last block set them; they do
  ** not count, as HUFF_OFF gives those symbols no code */
  w->off_freq[0] = 1;
  huff_generate(w->lit_codes, w->lit_freq, NUM_LIT, 15, w->scratch);
  gen_codegen(w, END_BLOCK + 1, 1, w->lit_codes, HUFF_OFF);
  huff_generate(w->cg_codes, w->cg_freq, NUM_CODEGEN, 7, w->scratch);
  int ncg;
  int64_t size = dynamic_size(w, w->lit_codes, HUFF_OFF, 0, &ncg);
  if (n <= MAX_STORED && ((int64_t)n + 5) * 8 < size + (size >> 4)) {
    stored_block(w, in, n, eof);
    return;
  }
  dynamic_header(w, END_BLOCK + 1, 1, ncg, eof);
  for (size_t i = 0; i < n; i++)
    put_code(w, w->lit_codes[in[i]]);
  put_code(w, w->lit_codes[END_BLOCK]);
}

/* ---- the compressor --------------------------------------------------------- */

typedef enum { MODE_STORE, MODE_HUFF, MODE_DEFLATE } Mode;

struct GoFlate {
  BitWriter w;
  Mode mode;
  Level lv;
  bool sync;             /* flushing: process all input, however short */
  unsigned char *window; /* 2 * WIN_SIZE for deflate, MAX_STORED otherwise */
  int win_cap;
  int win_end;
  int index;             /* next position to look at */
  int block_start;       /* window position where the pending tokens start;
                            INT_MAX once it slid out of the window */
  bool byte_avail;       /* lazy matching: window[index-1] still pending */
  int length, offset;    /* lazy matching: the previous position's match */
  int chain_head;
  int hash_offset;       /* added to positions stored in the hash tables */
  int max_insert;
  uint32_t *hash_head;   /* HASH_SIZE */
  uint32_t *hash_prev;   /* WIN_SIZE */
  uint32_t *tokens;      /* MAX_BLOCK_TOKENS + 1 */
  size_t ntok;
};

static uint32_t hash4(const unsigned char *b)
{
  uint32_t v = (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 |
               (uint32_t)b[0] << 24;
  return (v * HASH_MUL) >> (32 - HASH_BITS);
}

static void rebase(uint32_t *t, size_t n, int delta)
{
  for (size_t i = 0; i < n; i++)
    t[i] = (int64_t)t[i] > delta ? (uint32_t)((int64_t)t[i] - delta) : 0;
}

static int fill_deflate(GoFlate *z, const unsigned char *b, size_t n)
{
  if (z->index >= 2 * WIN_SIZE - (MIN_MATCH + MAX_MATCH)) {
    /* slide the upper half down */
    memmove(z->window, z->window + WIN_SIZE, WIN_SIZE);
    z->index -= WIN_SIZE;
    z->win_end -= WIN_SIZE;
    z->block_start = z->block_start >= WIN_SIZE ? z->block_start - WIN_SIZE
                                                : INT_MAX;
    z->hash_offset += WIN_SIZE;
    if (z->hash_offset > MAX_HASH_OFFSET) {
      int delta = z->hash_offset - 1;
      z->hash_offset -= delta;
      z->chain_head -= delta;
      rebase(z->hash_prev, WIN_SIZE, delta);
      rebase(z->hash_head, HASH_SIZE, delta);
    }
  }
  size_t room = (size_t)(z->win_cap - z->win_end);
  if (n > room)
    n = room;
  memcpy(z->window + z->win_end, b, n);
  z->win_end += (int)n;
  return (int)n;
}

static int fill_store(GoFlate *z, const unsigned char *b, size_t n)
{
  size_t room = (size_t)(z->win_cap - z->win_end);
  if (n > room)
    n = room;
  memcpy(z->window + z->win_end, b, n);
  z->win_end += (int)n;
  return (int)n;
}

static void flush_tokens(GoFlate *z, int index)
{
  if (index <= 0)
    return;
  const unsigned char *in = NULL;
  size_t in_len = 0;
  if (z->block_start <= index) {
    in = z->window + z->block_start;
    in_len = (size_t)(index - z->block_start);
  }
  z->block_start = index;
  write_block(&z->w, z->tokens, z->ntok, false, in, in_len);
}

static int match_len(const unsigned char *a, const unsigned char *b, int max)
{
  for (int i = 0; i < max; i++)
    if (a[i] != b[i])
      return i;
  return max;
}

/* The longest match for pos along its hash chain, longer than prev_len;
** false when none qualifies. */
static bool find_match(GoFlate *z, int pos, int prev_head, int prev_len,
                       int lookahead, int *out_len, int *out_off)
{
  const unsigned char *win = z->window;
  int look = lookahead < MAX_MATCH ? lookahead : MAX_MATCH;
  int nice = look < z->lv.nice ? look : z->lv.nice;
  int tries = z->lv.chain;
  int length = prev_len;
  bool ok = false;
  if (length >= z->lv.good)
    tries >>= 2;
  unsigned char w_end = win[pos + length];
  int min_index = pos - WIN_SIZE;
  for (int i = prev_head; tries > 0; tries--) {
    if (w_end == win[i + length]) {
      int n = match_len(win + i, win + pos, look);
      /* a 4-byte match further than 4 KiB does not pay */
      if (n > length && (n > MIN_MATCH || pos - i <= 4096)) {
        length = n;
        *out_off = pos - i;
        ok = true;
        if (n >= nice)
          break;
        w_end = win[pos + n];
      }
    }
    if (i == min_index)
      break;
    i = (int)z->hash_prev[i & WIN_MASK] - z->hash_offset;
    if (i < min_index || i < 0)
      break;
  }
  *out_len = length;
  return ok;
}

static void insert_hash(GoFlate *z, int i)
{
  uint32_t *hh = &z->hash_head[hash4(z->window + i) & HASH_MASK];
  z->hash_prev[i & WIN_MASK] = *hh;
  *hh = (uint32_t)(i + z->hash_offset);
}

static void emit(GoFlate *z, uint32_t t)
{
  z->tokens[z->ntok++] = t;
}

static uint32_t match_token(int len, int off)
{
  return MATCH_TYPE + ((uint32_t)(len - BASE_MATCH) << LENGTH_SHIFT) +
         (uint32_t)(off - 1);
}

static void step_deflate(GoFlate *z)
{
  if (z->win_end - z->index < MIN_MATCH + MAX_MATCH && !z->sync)
    return;
  z->max_insert = z->win_end - (MIN_MATCH - 1);
  bool lazy = z->lv.fast_skip == SKIP_NEVER;
  for (;;) {
    int lookahead = z->win_end - z->index;
    if (lookahead < MIN_MATCH + MAX_MATCH) {
      if (!z->sync)
        return;
      if (lookahead == 0) {
        if (z->byte_avail) {
          emit(z, z->window[z->index - 1]);
          z->byte_avail = false;
        }
        if (z->ntok > 0) {
          flush_tokens(z, z->index);
          z->ntok = 0;
        }
        return;
      }
    }
    if (z->index < z->max_insert) {
      uint32_t *hh = &z->hash_head[hash4(z->window + z->index) & HASH_MASK];
      z->chain_head = (int)*hh;
      z->hash_prev[z->index & WIN_MASK] = (uint32_t)z->chain_head;
      *hh = (uint32_t)(z->index + z->hash_offset);
    }
    int prev_len = z->length, prev_off = z->offset;
    z->length = MIN_MATCH - 1;
    z->offset = 0;
    int min_index = z->index - WIN_SIZE;
    if (min_index < 0)
      min_index = 0;
    if (z->chain_head - z->hash_offset >= min_index &&
        (lazy ? lookahead > prev_len && prev_len < z->lv.lazy
              : lookahead > MIN_MATCH - 1)) {
      int nl, no;
      if (find_match(z, z->index, z->chain_head - z->hash_offset,
                     MIN_MATCH - 1, lookahead, &nl, &no)) {
        z->length = nl;
        z->offset = no;
      }
    }
    if (lazy ? prev_len >= MIN_MATCH && z->length <= prev_len
             : z->length >= MIN_MATCH) {
      if (lazy)
        emit(z, match_token(prev_len, prev_off));
      else
        emit(z, match_token(z->length, z->offset));
      if (z->length <= z->lv.fast_skip) {
        /* hash every position the match covers */
        int end = lazy ? z->index + prev_len - 1 : z->index + z->length;
        int i = z->index + 1;
        for (; i < end; i++)
          if (i < z->max_insert)
            insert_hash(z, i);
        z->index = i;
        if (lazy) {
          z->byte_avail = false;
          z->length = MIN_MATCH - 1;
        }
      } else {
        z->index += z->length;
      }
      if (z->ntok == MAX_BLOCK_TOKENS) {
        flush_tokens(z, z->index);
        z->ntok = 0;
      }
    } else {
      if (!lazy || z->byte_avail) {
        int i = lazy ? z->index - 1 : z->index;
        emit(z, z->window[i]);
        if (z->ntok == MAX_BLOCK_TOKENS) {
          flush_tokens(z, i + 1);
          z->ntok = 0;
        }
      }
      z->index++;
      if (lazy)
        z->byte_avail = true;
    }
  }
}

static void step_store(GoFlate *z)
{
  if (z->win_end > 0 && (z->win_end == MAX_STORED || z->sync)) {
    stored_block(&z->w, z->window, (size_t)z->win_end, false);
    z->win_end = 0;
  }
}

static void step_huff(GoFlate *z)
{
  if ((z->win_end < z->win_cap && !z->sync) || z->win_end == 0)
    return;
  write_block_huff(&z->w, z->window, (size_t)z->win_end, false);
  z->win_end = 0;
}

static void step(GoFlate *z)
{
  switch (z->mode) {
  case MODE_STORE: step_store(z); break;
  case MODE_HUFF: step_huff(z); break;
  case MODE_DEFLATE: step_deflate(z); break;
  }
}

GoFlate *goflate_new(Arena *a, Buf *out, int level)
{
  if (level == -1)
    level = 6;
  if (level != 0 && level != -2 && (level < 2 || level > 9))
    return NULL;
  init_fixed();
  GoFlate *z = ARENA_NEW(a, GoFlate, 1);
  z->w.out = out;
  if (level == 0 || level == -2) {
    z->mode = level == 0 ? MODE_STORE : MODE_HUFF;
    z->win_cap = MAX_STORED;
    z->window = ARENA_NEW(a, unsigned char, MAX_STORED);
    return z;
  }
  z->mode = MODE_DEFLATE;
  z->lv = LEVELS[level];
  z->win_cap = 2 * WIN_SIZE;
  z->window = ARENA_NEW(a, unsigned char, 2 * WIN_SIZE);
  z->hash_head = ARENA_NEW(a, uint32_t, HASH_SIZE);
  z->hash_prev = ARENA_NEW(a, uint32_t, WIN_SIZE);
  z->tokens = ARENA_NEW(a, uint32_t, MAX_BLOCK_TOKENS + 1);
  z->hash_offset = 1;
  z->length = MIN_MATCH - 1;
  z->chain_head = -1;
  return z;
}

void goflate_write(GoFlate *z, const unsigned char *src, size_t n)
{
  while (n > 0) {
    step(z);
    int k = z->mode == MODE_DEFLATE ? fill_deflate(z, src, n)
                                    : fill_store(z, src, n);
    src += k;
    n -= (size_t)k;
  }
}

void goflate_close(GoFlate *z)
{
  z->sync = true;
  step(z);
  stored_header(&z->w, 0, true);
  flush_bits(&z->w);
}

unsigned char *goflate_compress(Arena *a, const unsigned char *src, size_t n,
                                int level, size_t *out_len)
{
  Buf b;
  buf_init(&b, a);
  *out_len = 0;
  GoFlate *z = goflate_new(a, &b, level);
  if (!z)
    return NULL;
  goflate_write(z, src, n);
  goflate_close(z);
  *out_len = b.len;
  return (unsigned char *)b.p;
}

static void put_le32(Buf *b, uint32_t v)
{
  char t[4] = {(char)(v & 0xFF), (char)((v >> 8) & 0xFF),
               (char)((v >> 16) & 0xFF), (char)(v >> 24)};
  buf_put(b, t, 4);
}

struct GoGzip {
  GoFlate *z;
  Buf *out;
  uLong crc;
  uint32_t size;         /* length mod 2^32, as gzip's ISIZE */
};

GoGzip *goflate_gzip_new(Arena *a, Buf *out, int level)
{
  GoFlate *z = goflate_new(a, out, level);
  if (!z)
    return NULL;
  GoGzip *g = ARENA_NEW(a, GoGzip, 1);
  g->z = z;
  g->out = out;
  g->crc = crc32(0L, Z_NULL, 0);
  /* ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL OS=unknown */
  char hdr[10] = {0x1f, (char)0x8b, 8, 0, 0, 0, 0, 0, 0, (char)0xff};
  hdr[8] = level == 9 ? 2 : level == 1 ? 4 : 0;
  buf_put(out, hdr, sizeof hdr);
  return g;
}

void goflate_gzip_write(GoGzip *g, const unsigned char *src, size_t n)
{
  for (size_t off = 0; off < n;) {
    size_t chunk = n - off > (1u << 30) ? (1u << 30) : n - off;
    g->crc = crc32(g->crc, src + off, (uInt)chunk);
    off += chunk;
  }
  g->size += (uint32_t)n;
  goflate_write(g->z, src, n);
}

void goflate_gzip_close(GoGzip *g)
{
  goflate_close(g->z);
  put_le32(g->out, (uint32_t)g->crc);
  put_le32(g->out, g->size);
}

unsigned char *goflate_gzip(Arena *a, const unsigned char *src, size_t n,
                            int level, size_t *out_len)
{
  Buf b;
  buf_init(&b, a);
  *out_len = 0;
  GoGzip *g = goflate_gzip_new(a, &b, level);
  if (!g)
    return NULL;
  goflate_gzip_write(g, src, n);
  goflate_gzip_close(g);
  *out_len = b.len;
  return (unsigned char *)b.p;
}
