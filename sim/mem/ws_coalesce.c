/*
 * ws_coalesce: sector coalescing and shared-memory bank conflicts (see
 * ws_coalesce.h).  At most a warp's lanes times a few pieces per call, so
 * small sorted arrays on the stack beat any hashing; nothing is allocated.
 */
#include "ws_coalesce.h"

#include <string.h>

#include "trace/ws_trace.h"

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
/* Lanes at consecutive addresses (a unit-stride access, the common case)
 * cover one run of sectors, written out without looking at each lane. */
static int ws_coalesce_run(const uint64_t *addrs, unsigned n, unsigned width,
                           unsigned sshift, struct ws_coalesce_result *out)
{
    uint64_t first, last;

    if (n == 0 || addrs[0] > UINT64_MAX - (uint64_t)n * width)
        return 0;
    for (unsigned i = 1; i < n; i++)
        if (addrs[i] != addrs[i - 1] + width)
            return 0;
    first = addrs[0] >> sshift;
    last = (addrs[n - 1] + width - 1) >> sshift;
    if (last - first >= WS_COALESCE_MAX_SECTORS)
        return 0;
    for (uint64_t s = first; s <= last; s++)
        out->sectors[out->nsectors++] = s << sshift;
    return 1;
}

/* Lane by lane.  A lane inside one sector, the same as the lane before
 * (half-warps reading one row twice, rows of a broadcast), is skipped
 * before the sorted insert: that insert searches whenever the sector is
 * not past the largest so far. */
static void ws_coalesce_lanes(const uint64_t *addrs, unsigned n, unsigned width,
                              unsigned sshift, struct ws_coalesce_result *out)
{
    uint64_t prev = 0;
    int have_prev = 0;

    for (unsigned i = 0; i < n; i++) {
        uint64_t first = addrs[i] >> sshift;
        uint64_t last = (addrs[i] + width - 1) >> sshift;
        if (first == last && have_prev && first == prev)
            continue;
        prev = last;
        have_prev = 1;
        for (uint64_t s = first;
             s <= last && out->nsectors < WS_COALESCE_MAX_SECTORS; s++)
            ws_add_sector(out->sectors, &out->nsectors, s << sshift);
    }
}

static void ws_coalesce_pow2(const uint64_t *addrs, unsigned n, unsigned width,
                             unsigned sshift, unsigned lshift,
                             struct ws_coalesce_result *out)
{
    uint64_t prev_line = 0;

    if (n > WS_WARP_SIZE)
        n = WS_WARP_SIZE;
    if (!ws_coalesce_run(addrs, n, width, sshift, out))
        ws_coalesce_lanes(addrs, n, width, sshift, out);
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
        uint64_t lo = addrs[0], hi = lo;
        for (unsigned i = 1; i < n; i++) {
            lo = addrs[i] < lo ? addrs[i] : lo;
            hi = addrs[i] > hi ? addrs[i] : hi;
        }
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
