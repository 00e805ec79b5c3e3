/*
 * ws_coalesce: what one warp memory instruction asks of the memory system.
 *
 * Global and local accesses: the distinct 32-byte sectors the active lanes
 * touch, and the distinct 128-byte lines those sectors fall in (one request
 * per line to L1, as the "black-box and white-box" GPU performance notes
 * describe).  Shared accesses: the number of wavefronts, i.e. 1 + the
 * replays caused by bank conflicts: lanes reading different
 * words of one bank serialise, lanes reading the same word share it
 * (broadcast).  Both the profile and the timing model use these functions,
 * so "sectors per request" means the same thing everywhere.
 *
 * Leaves out: timing, caches.
 */
#ifndef WS_COALESCE_H
#define WS_COALESCE_H

#include <stdint.h>

/* Worst case: 32 lanes x 16 bytes, each straddling two sectors. */
#define WS_COALESCE_MAX_SECTORS 64

struct ws_coalesce_result {
    unsigned nsectors;
    unsigned nlines;
    uint64_t sectors[WS_COALESCE_MAX_SECTORS]; /* sector addresses, sorted */
};

/* n addresses (active lanes only), width bytes each. */
void ws_coalesce(const uint64_t *addrs, unsigned n, unsigned width,
                 unsigned sector_bytes, unsigned line_bytes,
                 struct ws_coalesce_result *out);

/* Wavefronts a shared-memory access takes: max over banks of the distinct
 * bank-width words requested in that bank; at least 1 when n > 0. */
unsigned ws_shared_wavefronts(const uint64_t *addrs, unsigned n, unsigned width,
                              unsigned banks, unsigned bank_width);

/* Whether the AVX2 scans run where the CPU has them (1, the default).
 * For tests: with 0 the scalar twins answer, to be checked against the
 * same references on a machine that has AVX2.  Set before simulating. */
void ws_coalesce_set_vector(int on);

#endif
