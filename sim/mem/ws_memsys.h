/*
 * ws_memsys: the memory path below the LD/ST units, assembled from one
 * module per level:
 *
 *   coalescer (ws_coalesce.h) -> per SM: L1 (ws_l1.h) and shared memory
 *   (ws_smem.h) -> interconnect ports (ws_icnt.h) -> L2 slices (ws_l2.h)
 *   -> DRAM channels (ws_dram.h)
 *
 * each level talking to the next through a port (ws_mem_req.h), so that
 * each can be tested with the next one stubbed.  This file is the glue:
 * it splits a warp's access into line requests, wires the ports, maps a
 * slice's lines to DRAM channels, and answers when memory is drained.
 *
 * Timing is by reservation: every resource (an SM's L1 tag pipe and ports,
 * a slice, a channel) is a server with a "free from" time; a request starts
 * at max(arrival, free), occupies it for its service time (bytes over
 * bandwidth) and completes after the resource's latency.  Queues in front
 * of servers are finite and push back: a slice takes a request only when
 * its input queue (l2.input_queue) has room, a request leaves the SM's miss
 * queue (l1.miss_queue) only then, and a full miss queue stops the L1 pipe,
 * hits behind it included, until its head leaves.  Under load the queues
 * fill, so round trips lengthen before bandwidth runs out.  The SMs issue in
 * global time order, so requests reach each server in arrival order and
 * the completion time of a load is known when it issues.  Bandwidth limits,
 * queueing behind them and MSHR capacity, not fixed stall rules, make a
 * kernel memory bound.
 *
 * Latencies match the config's load-to-use figures when nothing queues: an
 * L1 hit costs l1.latency, an L2 hit l2.latency and a DRAM access that
 * misses the row buffer dram.latency (ws_dram.h); icnt.latency is the
 * one-way part of the last two.
 *
 * Leaves out: request bandwidth of loads (requests are small), write-
 * allocate fetches for partial-sector writes, TLBs, texture filtering.
 */
#ifndef WS_MEMSYS_H
#define WS_MEMSYS_H

#include <stdint.h>

#include "config/ws_config.h"
#include "stats/ws_stats.h"
#include "ws_coalesce.h"
#include "ws_dram.h"
#include "ws_icnt.h"
#include "ws_l1.h"
#include "ws_l2.h"
#include "ws_mem_req.h"
#include "ws_smem.h"

struct ws_memsys {
    const struct ws_gpu *gpu;
    struct ws_l1 *l1; /* [SM] */
    struct ws_smem smem;
    struct ws_icnt icnt;
    struct ws_l2 l2;
    struct ws_dram dram;
    uint32_t nsm, nchan;
    uint32_t line_bytes, sector_bytes;
    /* The latest completion of this kernel's stores and atomics: nothing
     * waits on them, yet the kernel is not over before they are. */
    uint64_t last_done;
    /* The coalesced sectors of the access being timed: kept here so that
     * timing an access allocates nothing. */
    struct ws_coalesce_result scratch;
};

/* The ports point into m: it must not move after init. */
int ws_memsys_init(struct ws_memsys *m, const struct ws_gpu *gpu);
void ws_memsys_free(struct ws_memsys *m);

/* Earliest cycle >= t at which SM sm has a free L1 MSHR. */
uint64_t ws_mem_mshr_ready(struct ws_memsys *m, uint32_t sm, uint64_t t);

/* A global or local load (or LDGSTS); returns the cycle its data is in
 * registers (or shared memory).  cached: may allocate in L1. */
uint64_t ws_mem_load(struct ws_memsys *m, const struct ws_mem_req *r,
                     int cached);

/* A load in two steps, for one timed in its SM's own work beside other
 * SMs': r's sectors into the caller's buffer c; whether every line of
 * them hits in r's SM's L1 (then the load touches only that SM's L1:
 * reads, writes nothing); and the load on those sectors. */
void ws_mem_sectors(const struct ws_memsys *m, const struct ws_mem_req *r,
                    struct ws_coalesce_result *c);
int ws_mem_load_hits(const struct ws_memsys *m, const struct ws_mem_req *r,
                     const struct ws_coalesce_result *c);
uint64_t ws_mem_load_sectors(struct ws_memsys *m, const struct ws_mem_req *r,
                             const struct ws_coalesce_result *c, int cached);

/* One line's part of a bulk (TMA) copy: bytes from addr, inside one line,
 * read into shared memory or written from it, past L1 without allocating.
 * Returns when a read's data is in, or a write has reached L2. */
uint64_t ws_mem_bulk(struct ws_memsys *m, uint32_t sm, uint64_t t,
                     uint64_t addr, uint32_t bytes, int write,
                     struct ws_counters *ctr);

/* A store: write-through to L2.  Nothing waits on it; returns when the
 * data has reached L2. */
uint64_t ws_mem_store(struct ws_memsys *m, const struct ws_mem_req *r);

/* An atomic or reduction performed at L2; returns when its result is back
 * (meaningful for atomics that return a value). */
uint64_t ws_mem_atomic(struct ws_memsys *m, const struct ws_mem_req *r);

/* A shared-memory access; returns when it completes (data ready). */
uint64_t ws_mem_shared(struct ws_memsys *m, const struct ws_mem_req *r);

/* A host-to-device copy: its lines become valid (clean) in L2, as on real
 * parts, whose L2 is not flushed between a copy and the next kernel. */
void ws_mem_warm_l2(struct ws_memsys *m, uint64_t addr, uint64_t bytes);

/* The one answer to "when is memory drained": the cycle by which this
 * kernel's stores and atomics are done and every L2 slice and DRAM channel
 * has finished what it was given, write-backs included.  A kernel ends at
 * the later of this and its last SM event. */
uint64_t ws_mem_drained(const struct ws_memsys *m);

/* Per-kernel reset of the SM side (L1 contents do not survive a kernel;
 * L2 and DRAM row state do).  l1_size is the kernel's L1 (its share of the
 * unified SRAM), at most l1.size. */
void ws_memsys_new_kernel(struct ws_memsys *m, uint64_t l1_size);

#endif
