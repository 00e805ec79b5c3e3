/*
 * ws_memsys: the memory path below the LD/ST units: per-SM L1 data cache
 * with MSHRs, shared memory banks, the interconnect ports, L2 slices chosen
 * by an address hash, and DRAM channels (ws_dram.h).
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
#include "ws_cache.h"
#include "ws_coalesce.h"
#include "ws_dram.h"

/* A min-heap of completion times with fixed capacity: the MSHRs of one L1
 * or one L2 slice. */
struct ws_mshr {
    uint64_t *t;
    uint32_t n, cap;
};

/* A bounded FIFO, as the times its entries leave it (in order): a request
 * may enter once the entry cap places ahead of it has left. */
struct ws_fifo {
    uint64_t *t;
    uint32_t n, cap, head;
};

struct ws_mem_sm {
    struct ws_cache l1;
    struct ws_mshr mshr;
    struct ws_fifo missq;   /* L1 misses, stores, atomics bound for L2 */
    double tag_free;        /* L1 tag pipe: one line request per cycle */
    double shared_free;     /* shared memory: one wavefront per cycle */
    double req_free;        /* SM -> L2 port (store and atomic data) */
    double resp_free;       /* L2 -> SM port (load data) */
};

struct ws_mem_slice {
    struct ws_cache l2;
    struct ws_mshr mshr;
    struct ws_fifo inq;     /* requests from the SMs awaiting the slice */
    double free;
};

struct ws_memsys {
    const struct ws_gpu *gpu;
    struct ws_mem_sm *sm;
    struct ws_mem_slice *slice;
    struct ws_dram dram;
    uint32_t nsm, nslice, nchan;
    int l1_on;              /* l1.enabled, and this kernel has an L1 */
    uint32_t line_bytes, sector_bytes, l1_line_bytes;
    double port_cps;        /* core cycles per sector on an SM port */
    double slice_cps;       /* per sector in one slice */
    uint64_t l2_access;     /* slice access time: l2.latency - 2 icnt */
    /* The coalesced sectors of the access being timed: kept here so that
     * timing an access allocates nothing. */
    struct ws_coalesce_result scratch;
};

/* One warp's memory access, as the memory system sees it. */
struct ws_mem_req {
    uint32_t sm;
    uint64_t cycle;                 /* issue */
    const uint64_t *addrs;          /* one per active lane, in lane order */
    unsigned nlanes;                /* active lanes */
    unsigned width;                 /* bytes per lane */
    struct ws_counters *ctr;        /* the kernel's counters */
};

int ws_memsys_init(struct ws_memsys *m, const struct ws_gpu *gpu);
void ws_memsys_free(struct ws_memsys *m);

/* Earliest cycle >= t at which SM sm has a free L1 MSHR. */
uint64_t ws_mem_mshr_ready(struct ws_memsys *m, uint32_t sm, uint64_t t);

/* A global or local load (or LDGSTS); returns the cycle its data is in
 * registers (or shared memory).  cached: may allocate in L1. */
uint64_t ws_mem_load(struct ws_memsys *m, const struct ws_mem_req *r,
                     int cached);

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

/* The cycle by which every L2 slice and DRAM channel has finished what it
 * was given, write-backs included: a kernel is not over while its traffic
 * is not. */
uint64_t ws_mem_drained(const struct ws_memsys *m);

/* Per-kernel reset of the SM side (L1 contents do not survive a kernel;
 * L2 and DRAM row state do); resource clocks restart at 0.  l1_size is the
 * kernel's L1 (its share of the unified SRAM), at most l1.size. */
void ws_memsys_new_kernel(struct ws_memsys *m, uint64_t l1_size);

#endif
