/*
 * ws_coalesce: sector coalescing and shared-memory bank conflicts (see
 * ws_coalesce.h).  At most a warp's lanes times a few pieces per call, so
 * small sorted arrays on the stack beat any hashing; nothing is allocated.
 */
#include "ws_coalesce.h"

#include <string.h>

#include "trace/ws_trace.h"

/* The vector forms of the run-break and min/max scans: x86-64 with gcc or
 * clang, the CPU asked at run time (the baseline ISA has no AVX2). */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define WS_COALESCE_AVX2 1
#else
#define WS_COALESCE_AVX2 0
#endif

/* Whether the vector forms may run (ws_coalesce_set_vector): set by tests
 * before any simulation, read only after. */
static int ws_coalesce_vector = 1;

void ws_coalesce_set_vector(int on)
{
    ws_coalesce_vector = on;
}

/* A lane's shared access in bank-width words: 16 bytes (LDS.128) over
 * banks of 1 byte at the narrowest a config allows. */
#define WS_SHARED_MAX_PIECES 16
/* More banks than any GPU has; the per-bank tally lives on the stack. */
#define WS_SHARED_MAX_BANKS 1024

static void ws_insert_unique(uint64_t *set, unsigned *n, uint64_t v)
{
    unsigned lo = 0, hi = *n;

    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (set[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < *n && set[lo] == v)
        return;
    for (unsigned i = *n; i > lo; i--)
        set[i] = set[i - 1];
    set[lo] = v;
    (*n)++;
}

/* Lanes usually walk upwards, so most sectors belong at the end of the
 * sorted set: appending skips the search. */
static void ws_add_sector(uint64_t *set, unsigned *n, uint64_t v)
{
    if (*n == 0 || v > set[*n - 1])
        set[(*n)++] = v;
    else if (v != set[*n - 1])
        ws_insert_unique(set, n, v);
}

/* Sector and line sizes are powers of two on every GPU: shifts, not
 * divisions, on the path every memory instruction takes twice (the
 * profile and the memory system). */
/* Lanes that cover one stretch of bytes from addrs[0] to the end of lane
 * n - 1 (a unit-stride access, the common case, or a broadcast) cover one
 * range of sectors, written out without looking at each lane.  0 when the
 * stretch could wrap past 2^64 or spans more sectors than a result holds:
 * then lane by lane decides. */
static int ws_coalesce_range(const uint64_t *addrs, unsigned n, unsigned width,
                             unsigned sshift, struct ws_coalesce_result *out)
{
    uint64_t first, last;

    if (n == 0 || addrs[0] > UINT64_MAX - (uint64_t)n * width)
        return 0;
    first = addrs[0] >> sshift;
    last = (addrs[n - 1] + width - 1) >> sshift;
    if (last - first >= WS_COALESCE_MAX_SECTORS)
        return 0;
    for (uint64_t s = first; s <= last; s++)
        out->sectors[out->nsectors++] = s << sshift;
    return 1;
}

/* A partial warp at consecutive addresses. */
static int ws_coalesce_run(const uint64_t *addrs, unsigned n, unsigned width,
                           unsigned sshift, struct ws_coalesce_result *out)
{
    for (unsigned i = 1; i < n; i++)
        if (addrs[i] != addrs[i - 1] + width)
            return 0;
    return ws_coalesce_range(addrs, n, width, sshift, out);
}

/* Bit j set where a full warp's lane j starts a new run: its address is
 * neither its previous lane's nor one width past it (lane 0's bit is never
 * set).  With AVX2, four lanes a step and a vector compare's sign bits
 * as the mask: left to the compiler, the mask's variable shifts made
 * slower code than the scalar loop.  Integer tests either way: the same
 * bits from both. */
static uint32_t ws_run_breaks_scalar(const uint64_t *a, uint64_t width)
{
    uint32_t breaks = 0;

    for (unsigned j = 1; j < WS_WARP_SIZE; j++) {
        uint64_t d = a[j] - a[j - 1];
        breaks |= (uint32_t)(d != 0 && d != width) << j;
    }
    return breaks;
}

#if WS_COALESCE_AVX2
__attribute__((target("avx2"))) static uint32_t
ws_run_breaks_avx2(const uint64_t *a, uint64_t width)
{
    const __m256i w = _mm256_set1_epi64x((long long)width);
    const __m256i zero = _mm256_setzero_si256();
    uint32_t breaks = 0;

    for (unsigned k = 0; k < WS_WARP_SIZE / 4; k++) {
        __m256i cur = _mm256_loadu_si256((const __m256i *)(a + 4 * k));
        /* each lane's previous; lane 0 is its own (no break) */
        __m256i prev = k ? _mm256_loadu_si256((const __m256i *)(a + 4 * k - 1))
                         : _mm256_permute4x64_epi64(cur,
                                                    _MM_SHUFFLE(2, 1, 0, 0));
        __m256i d = _mm256_sub_epi64(cur, prev);
        __m256i same = _mm256_or_si256(_mm256_cmpeq_epi64(d, zero),
                                       _mm256_cmpeq_epi64(d, w));
        uint32_t kept = (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(same));
        breaks |= (~kept & 0xfu) << (4 * k);
    }
    return breaks;
}
#endif

static uint32_t ws_run_breaks(const uint64_t *a, uint64_t width)
{
#if WS_COALESCE_AVX2
    if (ws_coalesce_vector && __builtin_cpu_supports("avx2"))
        return ws_run_breaks_avx2(a, width);
#endif
    return ws_run_breaks_scalar(a, width);
}

/* Where the run that lane i starts ends (one past its last lane). */
static unsigned ws_run_end(const uint64_t *addrs, unsigned n, unsigned width,
                           uint32_t breaks, unsigned i)
{
    unsigned j;

    if (n == WS_WARP_SIZE) {
        /* i < 32: the shift is by 1 to 32, on 64 bits */
        breaks &= (uint32_t)(~(uint64_t)0 << (i + 1));
        return breaks ? (unsigned)__builtin_ctz(breaks) : n;
    }
    for (j = i + 1;
         j < n
         && (addrs[j] == addrs[j - 1] || addrs[j] == addrs[j - 1] + width);
         j++)
        ;
    return j;
}

/* Sectors first..last, in order, unless they are the one sector the last
 * span ended in (*prev): that skip comes before the sorted insert, which
 * searches whenever the sector is not past the largest so far.  A span
 * that wrapped past 2^64 (last < first) adds nothing and is no *prev:
 * taken as one, its wrapped end hid the next lane's sector 0. */
static void ws_coalesce_span(uint64_t first, uint64_t last, unsigned sshift,
                             uint64_t *prev, int *have_prev,
                             struct ws_coalesce_result *out)
{
    if (last < first || (first == last && *have_prev && first == *prev))
        return;
    *prev = last;
    *have_prev = 1;
    for (uint64_t s = first;
         s <= last && out->nsectors < WS_COALESCE_MAX_SECTORS; s++)
        ws_add_sector(out->sectors, &out->nsectors, s << sshift);
}

/* Run by run.  A run is lanes each at the address before it or one width
 * past it: a row read by a half-warp, a broadcast, a row at the end of a
 * broadcast.  Its bytes are one stretch, so it adds one range of sectors,
 * in the order lane-by-lane adding would have added them (the same set,
 * the same sectors kept when the cap cuts it).  Warps whose halves read
 * one row twice (blocks 16 threads wide) cost two runs, not 32 lanes.  A
 * run whose stretch wraps past 2^64 goes lane by lane, as every run did:
 * a lane whose own bytes wrap adds nothing, the lanes before it do. */
static void ws_coalesce_lanes(const uint64_t *addrs, unsigned n, unsigned width,
                              unsigned sshift, uint32_t breaks,
                              struct ws_coalesce_result *out)
{
    uint64_t prev = 0;
    int have_prev = 0;

    for (unsigned i = 0, j; i < n; i = j) {
        uint64_t end;
        j = ws_run_end(addrs, n, width, breaks, i);
        end = addrs[j - 1] + width - 1;
        if (end >= addrs[i]) {
            ws_coalesce_span(addrs[i] >> sshift, end >> sshift, sshift, &prev,
                             &have_prev, out);
            continue;
        }
        for (unsigned l = i; l < j; l++)
            ws_coalesce_span(addrs[l] >> sshift,
                             (addrs[l] + width - 1) >> sshift, sshift, &prev,
                             &have_prev, out);
    }
}

static void ws_coalesce_pow2(const uint64_t *addrs, unsigned n, unsigned width,
                             unsigned sshift, unsigned lshift,
                             struct ws_coalesce_result *out)
{
    uint64_t prev_line = 0;

    if (n > WS_WARP_SIZE)
        n = WS_WARP_SIZE;
    if (n == WS_WARP_SIZE) {
        /* a full warp: one vector pass finds its runs, and one run is
         * the whole warp's stretch */
        uint32_t breaks = ws_run_breaks(addrs, width);
        if (breaks || !ws_coalesce_range(addrs, n, width, sshift, out))
            ws_coalesce_lanes(addrs, n, width, sshift, breaks, out);
    } else if (!ws_coalesce_run(addrs, n, width, sshift, out)) {
        ws_coalesce_lanes(addrs, n, width, sshift, 0, out);
    }
    for (unsigned i = 0; i < out->nsectors; i++) {
        uint64_t line = out->sectors[i] >> lshift;
        if (i == 0 || line != prev_line)
            out->nlines++;
        prev_line = line;
    }
}

static int ws_is_pow2(unsigned v)
{
    return v && (v & (v - 1)) == 0;
}

void ws_coalesce(const uint64_t *addrs, unsigned n, unsigned width,
                 unsigned sector_bytes, unsigned line_bytes,
                 struct ws_coalesce_result *out)
{
    uint64_t prev_line = 0;

    out->nsectors = 0;
    out->nlines = 0;
    if (width == 0)
        width = 1;
    if (ws_is_pow2(sector_bytes) && ws_is_pow2(line_bytes)) {
        ws_coalesce_pow2(addrs, n, width, (unsigned)__builtin_ctz(sector_bytes),
                         (unsigned)__builtin_ctz(line_bytes), out);
        return;
    }
    for (unsigned i = 0; i < n && i < WS_WARP_SIZE; i++) {
        uint64_t first = addrs[i] / sector_bytes;
        uint64_t last = (addrs[i] + width - 1) / sector_bytes;
        for (uint64_t s = first;
             s <= last && out->nsectors < WS_COALESCE_MAX_SECTORS; s++)
            ws_add_sector(out->sectors, &out->nsectors, s * sector_bytes);
    }
    for (unsigned i = 0; i < out->nsectors; i++) {
        uint64_t line = out->sectors[i] / line_bytes;
        if (i == 0 || line != prev_line)
            out->nlines++;
        prev_line = line;
    }
}

/* The two patterns most shared accesses have, answered without a tally:
 * every lane at one address (a broadcast) and lanes at consecutive aligned
 * addresses (a row).  -1 when the access is neither. */
static long ws_shared_fast(const uint64_t *addrs, unsigned n, unsigned width,
                           unsigned banks, unsigned bank_width, unsigned pieces)
{
    int same = 1, row = width >= bank_width && width % bank_width == 0
                        && addrs[0] % bank_width == 0;
    uint64_t words;

    for (unsigned i = 1; i < n && (same || row); i++) {
        same = same && addrs[i] == addrs[0];
        row = row && addrs[i] == addrs[i - 1] + width;
    }
    /* A broadcast is `pieces` consecutive words (one, when narrower than
     * a bank), a row n of them each: consecutive words fill the banks in
     * turn. */
    if (same)
        words = pieces;
    else if (row)
        words = (uint64_t)n * pieces;
    else
        return -1;
    return (long)((words + banks - 1) / banks);
}

/* Distinct bank-width words per bank, worst bank, over n lanes.  Most
 * banks see one word, however many lanes share it: each bank keeps the
 * first word it saw, and only a different word looks back over the words
 * seen so far (linear in the lanes without conflicts, quadratic only in
 * the words of a conflict; a hash set cost a tenth of a shared-heavy
 * run's time in clearing and probing).  Which banks hold a word is a bit
 * set, one word for up to 64 banks, so nothing else is cleared first:
 * reading a counter just cleared by a block store stalled on the store. */
static unsigned ws_shared_tally(const uint64_t *addrs, unsigned n,
                                unsigned pieces, unsigned banks,
                                unsigned bank_width)
{
    uint64_t first[WS_SHARED_MAX_BANKS];
    uint64_t seen[WS_WARP_SIZE * WS_SHARED_MAX_PIECES];
    uint64_t used_few = 0, used_many[WS_SHARED_MAX_BANKS / 64];
    unsigned per_bank[WS_SHARED_MAX_BANKS], worst = 0, nseen = 0;
    /* Banks and their width are powers of two on every GPU: a mask and a
     * shift then, not a 64-bit division per lane. */
    uint64_t mask = (banks & (banks - 1)) == 0 ? banks - 1 : 0;
    int shift = (bank_width & (bank_width - 1)) == 0 ? __builtin_ctz(bank_width)
                                                     : -1;

    if (banks > 64)
        memset(used_many, 0, (banks + 63) / 64 * sizeof *used_many);
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < pieces; k++) {
            uint64_t w = (shift >= 0 ? addrs[i] >> shift
                                     : addrs[i] / bank_width)
                         + k;
            unsigned b = (unsigned)(mask ? w & mask : w % banks), j = 0;
            uint64_t bit = UINT64_C(1) << (b % 64);
            uint64_t *used = banks > 64 ? &used_many[b / 64] : &used_few;
            if (!(*used & bit)) {
                *used |= bit;
                first[b] = w;
                per_bank[b] = 0;
            } else {
                if (first[b] == w)
                    continue;
                while (j < nseen && seen[j] != w)
                    j++;
                if (j < nseen)
                    continue;
            }
            seen[nseen++] = w;
            if (++per_bank[b] > worst)
                worst = per_bank[b];
        }
    return worst;
}

/* The least and the greatest of n addresses.  A full warp with AVX2 takes
 * four lanes a step: AVX2 compares signed 64-bit lanes only, so the sign
 * bit is flipped on the way in and out (the unsigned order then is the
 * signed one).  The loop was most of the shared-memory test's cost. */
static void ws_lanes_min_max_scalar(const uint64_t *a, unsigned n, uint64_t *lo,
                                    uint64_t *hi)
{
    *lo = *hi = a[0];
    for (unsigned i = 1; i < n; i++) {
        *lo = a[i] < *lo ? a[i] : *lo;
        *hi = a[i] > *hi ? a[i] : *hi;
    }
}

#if WS_COALESCE_AVX2
__attribute__((target("avx2"))) static void
ws_lanes_min_max_avx2(const uint64_t *a, uint64_t *lo, uint64_t *hi)
{
    const __m256i sign = _mm256_set1_epi64x(INT64_MIN);
    __m256i mn = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)a), sign);
    __m256i mx = mn;
    uint64_t l[4], h[4];

    for (unsigned k = 1; k < WS_WARP_SIZE / 4; k++) {
        __m256i v = _mm256_xor_si256(_mm256_loadu_si256(
                                         (const __m256i *)(a + 4 * k)),
                                     sign);
        mn = _mm256_blendv_epi8(mn, v, _mm256_cmpgt_epi64(mn, v));
        mx = _mm256_blendv_epi8(mx, v, _mm256_cmpgt_epi64(v, mx));
    }
    _mm256_storeu_si256((__m256i *)l, _mm256_xor_si256(mn, sign));
    _mm256_storeu_si256((__m256i *)h, _mm256_xor_si256(mx, sign));
    *lo = l[0];
    *hi = h[0];
    for (unsigned i = 1; i < 4; i++) {
        *lo = l[i] < *lo ? l[i] : *lo;
        *hi = h[i] > *hi ? h[i] : *hi;
    }
}
#endif

static void ws_lanes_min_max(const uint64_t *a, unsigned n, uint64_t *lo,
                             uint64_t *hi)
{
#if WS_COALESCE_AVX2
    if (n == WS_WARP_SIZE && ws_coalesce_vector
        && __builtin_cpu_supports("avx2")) {
        ws_lanes_min_max_avx2(a, lo, hi);
        return;
    }
#endif
    ws_lanes_min_max_scalar(a, n, lo, hi);
}

/* The narrow case, nearly every access: one word per lane (no wider than
 * a bank), banks and their width powers of two, at most 64 banks. */
static int ws_shared_narrow(unsigned pieces, unsigned banks,
                            unsigned bank_width)
{
    return pieces == 1 && banks && banks <= 64 && (banks & (banks - 1)) == 0
           && bank_width && (bank_width & (bank_width - 1)) == 0;
}

/* ws_shared_tally, answered first without it in the narrow case when the
 * lanes' words span no more than the bank count: distinct words are then
 * in distinct banks, one wavefront.  Most accesses are so (a row, a
 * broadcast, half-warps reading the same row), and a minimum and a
 * maximum cost no branch on the addresses. */
static unsigned ws_shared_count(const uint64_t *addrs, unsigned n,
                                unsigned pieces, unsigned banks,
                                unsigned bank_width)
{
    if (n && ws_shared_narrow(pieces, banks, bank_width)) {
        /* the words' span from the addresses' (a shift keeps order) */
        int shift = __builtin_ctz(bank_width);
        uint64_t lo, hi;
        ws_lanes_min_max(addrs, n, &lo, &hi);
        if ((hi >> shift) - (lo >> shift) < banks)
            return 1;
    }
    return ws_shared_tally(addrs, n, pieces, banks, bank_width);
}

unsigned ws_shared_wavefronts(const uint64_t *addrs, unsigned n, unsigned width,
                              unsigned banks, unsigned bank_width)
{
    unsigned pieces = width > bank_width ? width / bank_width : 1;
    unsigned whole, group, sum = 0;

    if (n == 0)
        return 0;
    if (banks > WS_SHARED_MAX_BANKS)
        banks = WS_SHARED_MAX_BANKS;
    if (pieces > WS_SHARED_MAX_PIECES)
        pieces = WS_SHARED_MAX_PIECES;
    if (n > WS_WARP_SIZE)
        n = WS_WARP_SIZE;
    /* The one-word-per-bank test of the narrow tally answers a broadcast
     * or a row as soon as the shortcut would. */
    if (!ws_shared_narrow(pieces, banks, bank_width)) {
        long fast = ws_shared_fast(addrs, n, width, banks, bank_width, pieces);
        if (fast >= 0)
            return (unsigned)fast;
    }
    whole = ws_shared_count(addrs, n, pieces, banks, bank_width);
    /* A wavefront moves one word per bank.  Lanes wider than that are
     * served a group at a time (16 lanes for 8 bytes, 8 for 16), and a
     * word two groups share is read once per group: on H100 a 64-bit
     * access of 16 distinct words in one bank pair takes 32 wavefronts,
     * not 16, unless the whole warp fits in one wavefront
     * (validate/measured/h100 ncu_raw.csv, the matmul kernels' shared
     * wavefronts: README "Shared memory").  Groups are of active lanes in
     * order: the lane numbers are not kept. */
    group = banks * bank_width / (pieces * bank_width);
    if (whole <= 1 || group == 0 || group >= n)
        return whole;
    for (unsigned i = 0; i < n; i += group)
        sum += ws_shared_count(addrs + i, n - i < group ? n - i : group, pieces,
                               banks, bank_width);
    return sum;
}
