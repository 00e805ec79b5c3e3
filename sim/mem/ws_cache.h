/*
 * ws_cache: a sectored, set-associative, LRU cache of tags.  Each line holds
 * up to 8 sectors with their own valid and dirty bits and the cycle their
 * data arrives ("fill"), so a later access to a sector still in flight
 * merges with the earlier miss (what an MSHR does) instead of missing again.
 * Data is never stored: the simulator needs timing, not values.
 *
 * Leaves out: replacement other than LRU, write policy (the memory system
 * decides what a write does).
 */
#ifndef WS_CACHE_H
#define WS_CACHE_H

#include <stdint.h>

#define WS_CACHE_MAX_SECTORS 8

/* A way's contents; its tag and LRU stamp live in the cache's own arrays
 * (struct ws_cache), apart from this payload: a lookup scans a set's tags
 * only, two host cache lines for 16 ways instead of twenty. */
struct ws_cache_line {
    uint64_t fill[WS_CACHE_MAX_SECTORS];
    uint8_t valid, dirty;
};

struct ws_cache {
    uint32_t sets, assoc, sectors;
    uint32_t max_sets;            /* allocated; sets may be fewer */
    uint64_t tick;
    uint64_t *tag;                /* sets * assoc: line index + 1; 0 = empty */
    uint64_t *lru;                /* sets * assoc: stamp of the last use */
    struct ws_cache_line *lines;  /* sets * assoc */
};

/* A line evicted to make room; dirty sectors must be written back. */
struct ws_cache_victim {
    uint64_t line;                /* line index */
    uint8_t dirty;
};

int ws_cache_init(struct ws_cache *c, uint32_t sets, uint32_t assoc,
                  uint32_t sectors);
void ws_cache_free(struct ws_cache *c);
void ws_cache_clear(struct ws_cache *c);
/* Empties the cache and uses `sets` of its allocated sets (at most
 * max_sets; 0: no cache, which callers must not look up): an L1 whose
 * share of the unified SRAM changes per kernel. */
void ws_cache_reshape(struct ws_cache *c, uint32_t sets);

/* The way holding line `line` (an index: address / line size) in set `set`,
 * or NULL.  A hit refreshes LRU. */
struct ws_cache_line *ws_cache_find(struct ws_cache *c, uint32_t set,
                                    uint64_t line);

/* Finds or allocates line; an allocation evicts the LRU way, reported in
 * *victim (dirty 0 when the way was empty or clean). */
struct ws_cache_line *ws_cache_fetch(struct ws_cache *c, uint32_t set,
                                     uint64_t line,
                                     struct ws_cache_victim *victim);

#endif
