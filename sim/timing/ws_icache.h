/*
 * ws_icache: instruction fetch of a sub-core: its L0 instruction cache and
 * the stream buffer that prefetches after a miss.
 *
 * Huerta et al. (MICRO 2025, sec. 5.2 and 7.3) find that each sub-core has
 * a private L0 instruction cache behind an L1 the SM's sub-cores share,
 * with a prefetcher that behaves as a stream buffer of 8 lines: without it
 * their model's error on an RTX A6000 was 45.6 % instead of 13.5 %, and a
 * perfect cache was 35 points wrong on kernels that jump (dwt2d, lud, nw).
 * Here a fetch of a line the L0 lacks is served by the stream buffer if it
 * holds that line, else after `latency` cycles, after which the buffer
 * asks for the next `prefetch` lines, one every `fill_interval` cycles.
 * A warp's next instruction cannot issue before its line is in.
 *
 * The L0 is 4-way set associative with LRU [EST: the associativity is not
 * published].  Fetch is asked once per line a warp enters (a warp walks a
 * line's instructions in order), when its previous instruction issues.
 *
 * Leaves out: the L1 instruction cache's own misses (kernels are small
 * next to it), the instruction buffer's three entries per warp, the fetch
 * scheduler's choice between warps (a fetch happens when asked).
 */
#ifndef WS_ICACHE_H
#define WS_ICACHE_H

#include <stdint.h>

#include "config/ws_config.h"

#define WS_ICACHE_WAYS 4
#define WS_ICACHE_MAX_PREFETCH 64

struct ws_icache_line {
    uint64_t tag;   /* line number + 1; 0 = empty */
    uint64_t ready; /* cycle its bytes are in */
    uint64_t used;  /* LRU stamp */
};

struct ws_icache {
    struct ws_icache_line *lines; /* [sets * WS_ICACHE_WAYS] */
    uint32_t sets;
    uint32_t line_shift;
    uint64_t stamp;
    /* The stream buffer: lines first .. first + n - 1, each ready at
     * sb_ready[(line - first) % depth] (a ring). */
    uint64_t sb_first;
    uint32_t sb_n, depth;
    uint64_t sb_ready[WS_ICACHE_MAX_PREFETCH];
    uint32_t latency, fill_interval;
    uint64_t misses, prefetch_hits; /* per kernel */
};

/* 0 with the cache empty (also when the config has none: l0_size 0,
 * then every fetch hits), -1 when out of memory. */
int ws_icache_init(struct ws_icache *c, const struct ws_gpu *g);
void ws_icache_free(struct ws_icache *c);
void ws_icache_reset(struct ws_icache *c);

/* The line number of pc, for telling when a warp enters a new line. */
static inline uint64_t ws_icache_line_of(const struct ws_icache *c, uint32_t pc)
{
    return (uint64_t)pc >> c->line_shift;
}

/* The cycle the instruction at pc is fetched by, asked at t. */
uint64_t ws_icache_fetch(struct ws_icache *c, uint32_t pc, uint64_t t);

#endif
