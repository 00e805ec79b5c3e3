/*
 * ws_cache: a sectored, set-associative cache of tags.  Each line holds
 * up to 8 sectors with their own valid and dirty bits and the cycle their
 * data arrives ("fill"), so a later access to a sector still in flight
 * merges with the earlier miss (what an MSHR does) instead of missing again.
 * Data is never stored: the simulator needs timing, not values.
 *
 * Which way a fill evicts is the replacement policy's (struct
 * ws_repl_ops): each way has one 64-bit stamp, the policy says what a hit
 * and a fill write there, and the victim is the way with the least stamp
 * (an empty way's is 0).  Keeping the victim rule fixed lets one scan of a
 * set find both the line and the victim, as a hardware lookup does; any
 * policy that ranks ways by a number fits (recency, age, a use count).
 * Two policies:
 *   lru   least recently used, the default (what warpsim always did): a
 *         hit and a fill both stamp the way with the cache's clock;
 *   fifo  first in, first out: only a fill stamps, so the victim is the
 *         line filled longest ago however often it hit.  GPGPU-Sim's other
 *         policy (gpu-cache.h: replacement_policy_t { LRU, FIFO }, the
 *         'L'/'F' letter of a -gpgpu_cache string).
 * A new policy is a row of ws_repl_table (ws_cache.c) and a name in
 * enum ws_repl_policy (config/ws_config.h).
 *
 * Leaves out: write policy (the levels decide what a write does), pseudo-
 * LRU trees and random replacement (no measured NVIDIA part is documented
 * to use them).
 */
#ifndef WS_CACHE_H
#define WS_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "config/ws_config.h"

#define WS_CACHE_MAX_SECTORS 8

/* A way's contents; its tag and replacement stamp live in the cache's own
 * arrays (struct ws_cache), apart from this payload: a lookup scans a
 * set's tags only, two host cache lines for 16 ways instead of twenty. */
struct ws_cache_line {
    uint64_t fill[WS_CACHE_MAX_SECTORS];
    uint8_t valid, dirty;
};

/* A way's share of a cache's memory, all of it in one block: its tag, its
 * stamp, its line (ws_cache_init; the simulator's size estimate). */
#define WS_CACHE_WAY_BYTES (2 * sizeof(uint64_t) + sizeof(struct ws_cache_line))

struct ws_cache;

/* A replacement policy: the stamp a hit leaves on a way that had `old`,
 * and the stamp of a fill; tick is the cache's clock, already advanced. */
struct ws_repl_ops {
    const char *name;
    uint64_t (*hit)(uint64_t old, uint64_t tick);
    uint64_t (*fill)(uint64_t tick);
};

struct ws_cache {
    uint32_t sets, assoc, sectors;
    uint32_t max_sets;           /* allocated; sets may be fewer */
    uint64_t tick;               /* one per hit or fill */
    uint64_t *tag;               /* sets * assoc: line index + 1; 0 = empty */
    uint64_t *stamp;             /* sets * assoc: the policy's per-way state */
    struct ws_cache_line *lines; /* sets * assoc */
    const struct ws_repl_ops *repl;
    int ranks; /* fetch reports a hit's rank (struct ws_cache_victim) */
};

/* A line evicted to make room; dirty sectors must be written back. */
struct ws_cache_victim {
    uint64_t line; /* line index */
    uint8_t dirty;
    /* For a cache with `ranks` set: the found way's rank in its set before
     * this access by the policy's stamps (0: the most recent under LRU),
     * assoc when the line was allocated (and always without `ranks`).  Under LRU a hit at rank r would also hit in a cache of
     * r + 1 ways per set (the stack property): the far L2 uses it. */
    uint32_t rank;
};

/* The policy's operations, NULL for a value outside the enum. */
const struct ws_repl_ops *ws_repl_ops_of(enum ws_repl_policy p);

int ws_cache_init(struct ws_cache *c, uint32_t sets, uint32_t assoc,
                  uint32_t sectors, enum ws_repl_policy policy);
void ws_cache_free(struct ws_cache *c);
void ws_cache_clear(struct ws_cache *c);
/* Empties the cache and uses `sets` of its allocated sets (at most
 * max_sets; 0: no cache, which callers must not look up): an L1 whose
 * share of the unified SRAM changes per kernel. */
void ws_cache_reshape(struct ws_cache *c, uint32_t sets);

/* The way holding line `line` (an index: address / line size) in set `set`,
 * or NULL.  A hit is told to the policy. */
struct ws_cache_line *ws_cache_find(struct ws_cache *c, uint32_t set,
                                    uint64_t line);

/* The same without telling the policy: reads nothing but the tags, writes
 * nothing (a question asked before the access itself). */
const struct ws_cache_line *ws_cache_peek(const struct ws_cache *c,
                                          uint32_t set, uint64_t line);

/* Finds or allocates line; an allocation evicts the way with the least
 * stamp (an empty way first, the lowest on a tie), reported in *victim
 * (dirty 0 when the way was empty or clean). */
struct ws_cache_line *ws_cache_fetch(struct ws_cache *c, uint32_t set,
                                     uint64_t line,
                                     struct ws_cache_victim *victim);

#endif
