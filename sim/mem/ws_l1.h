/*
 * ws_l1: one SM's L1 data cache: a tag pipe taking one line request per
 * cycle, a sectored tag array (ws_cache.h) sized per kernel by its share
 * of the unified SRAM, MSHRs (l1.mshrs) and a miss queue (l1.miss_queue)
 * of requests bound for L2.
 *
 * Timed by reservation (ws_memsys.h).  A load's sectors hit after
 * l1.latency, merge with a fill in flight (and wait for it), or miss: the
 * misses take an MSHR (the earliest to free when all are taken), wait for
 * room in the miss queue, and go below; the line's sectors are valid from
 * when their data is back.  A full miss queue stops the tag pipe, hits
 * behind it included, until its head leaves (the back-pressure that makes
 * round trips lengthen under load).
 *
 * Write policy, as on NVIDIA parts: write-through, no allocate.  A store
 * goes below through the miss queue; a resident copy of its line is
 * updated (its sectors' data is there from the store's tag cycle), an
 * absent one is not brought in.  Atomics are performed below (at L2) and
 * leave the L1 as it is.  Loads that bypass L1 (or an SM without one this
 * kernel) take no MSHR and count as misses, as Nsight counts them.
 *
 * The level below is a port (ws_mem_req.h): the interconnect in the
 * simulator, a stub in the tests.
 *
 * Leaves out: the tag pipe's request bandwidth for stores, L1 write-back
 * of local memory, texture paths, sector-granular MSHR limits.
 */
#ifndef WS_L1_H
#define WS_L1_H

#include <stdint.h>

#include "config/ws_config.h"
#include "util/ws_cacheline.h"
#include "ws_cache.h"
#include "ws_mem_queue.h"
#include "ws_mem_req.h"

struct ws_l1 {
    /* A line of its own: SMs run side by side, each touching its L1. */
    _Alignas(WS_CACHELINE) struct ws_cache tags;
    struct ws_mshr mshr;
    struct ws_fifo missq; /* L1 misses, stores, atomics bound for L2 */
    double tag_free;      /* tag pipe: one line request per cycle */
    int on;               /* l1.enabled and this kernel has sets */
    uint32_t latency;     /* l1.latency: a hit, load to use */
    struct ws_mem_port below;
};

int ws_l1_init(struct ws_l1 *l1, const struct ws_gpu *g,
               struct ws_mem_port below);
void ws_l1_free(struct ws_l1 *l1);

/* Whether a load of the sectors in mask of line hits in L1 (each valid,
 * or filling from a miss already sent), so that ws_l1_load would touch
 * nothing below L1.  Reads the tags only. */
int ws_l1_hits(const struct ws_l1 *l1, uint64_t line, uint8_t mask);

/* A new kernel: the L1 is empty (real parts invalidate it at a kernel
 * boundary: it is not coherent) and uses `sets` sets, none: no L1. */
void ws_l1_new_kernel(struct ws_l1 *l1, uint32_t sets, int enabled);

/* Earliest cycle >= t at which an MSHR is free. */
uint64_t ws_l1_mshr_ready(struct ws_l1 *l1, uint64_t t);

/* The sectors r->mask of line r->line, asked for at r->t (r->src: the
 * SM): returns when they are in the SM.  cached: may hit and allocate. */
uint64_t ws_l1_load(struct ws_l1 *l1, const struct ws_line_req *r, int cached);

/* A store's sectors: returns when they are written below. */
uint64_t ws_l1_store(struct ws_l1 *l1, const struct ws_line_req *r);

/* An atomic's sectors (r->ops lane operations): returns when its result
 * is back. */
uint64_t ws_l1_atomic(struct ws_l1 *l1, const struct ws_line_req *r);

#endif
