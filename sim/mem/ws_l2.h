/*
 * ws_l2: the L2 cache, split in slices chosen by an address hash, each a
 * server with an input queue (l2.input_queue requests from the SMs), a
 * sectored tag array (ws_cache.h) and MSHRs (l2.mshrs) in front of DRAM.
 *
 * Timed by reservation (ws_memsys.h): a request arriving at t enters its
 * slice's input queue when it has room, is served from when the slice is
 * free, occupies it one sector (or one atomic operation) per slice cycle,
 * and its sectors are ready l2.latency - 2 icnt.latency later on a hit,
 * when DRAM returns them on a miss, or when an earlier miss's fill does.
 *
 * Two halves (l2.far_latency set, H100): slices 0..n/2-1 form one half,
 * attached to SMs 0..m/2-1 and to their own DRAM channels.  A hit costs
 * the far latency when the line sits in the older half of its LRU set (a
 * half-size L2 would have lost it to the SM's own half); a miss costs the
 * crossing between halves when its line is homed in the other half, and
 * saves it when homed in the SM's own, around the chase's mean.
 *
 * Write policy, as on NVIDIA parts: write-back with allocate, no fetch (a
 * store's sectors become valid and dirty; the rest of the line is not
 * read); a dirty victim is written to DRAM when it is evicted.  An atomic
 * reads like a load and leaves its sectors dirty.
 *
 * The level below is a port (ws_mem_req.h): DRAM in the simulator, a stub
 * in the tests.  It gets reads of missing sectors and write-backs, with
 * src set to the slice.
 *
 * Leaves out: tag-pipe and data-array banking within a slice, ECC,
 * compression, partial-sector write fetches.
 */
#ifndef WS_L2_H
#define WS_L2_H

#include <stdint.h>

#include "config/ws_config.h"
#include "ws_cache.h"
#include "ws_mem_queue.h"
#include "ws_mem_req.h"

struct ws_l2_slice {
    struct ws_cache tags;
    struct ws_mshr mshr;
    struct ws_fifo inq; /* requests from the SMs awaiting the slice */
    double free;        /* the slice's pipe is free from */
};

struct ws_l2 {
    struct ws_l2_slice *slice;
    uint32_t nslice;
    enum ws_l2_hash hash;
    double slice_cps; /* core cycles per sector in one slice */
    uint64_t access;  /* hit time in the slice: l2.latency - 2 icnt */
    uint64_t far;     /* the far half's (l2.far_latency), 0: none */
    uint64_t cross;   /* half the far half's extra, each way (0: none) */
    uint32_t nsm;     /* SMs, the first half attached to slices' first half */
    uint64_t size, line_bytes;
    uint32_t fetch_sectors; /* sectors a read miss fetches together */
    struct ws_mem_port below;
};

int ws_l2_init(struct ws_l2 *l2, const struct ws_gpu *g,
               struct ws_mem_port below);
void ws_l2_free(struct ws_l2 *l2);

/* The slice serving line. */
uint32_t ws_l2_slice_of(const struct ws_l2 *l2, uint64_t line);

/* Times r (a read, write or atomic arriving at its slice at r->t): returns
 * when its sectors are ready in the slice (read, atomic) or written
 * (write); *admitted is when the slice's input queue took it. */
uint64_t ws_l2_access(struct ws_l2 *l2, const struct ws_line_req *r,
                      uint64_t *admitted);

/* As a port (ctx: the struct ws_l2): *left = admitted. */
uint64_t ws_l2_port(void *ctx, const struct ws_line_req *r, uint64_t *left);

/* A host-to-device copy: its lines become valid (clean), the last L2-full
 * of a larger copy only. */
void ws_l2_warm(struct ws_l2 *l2, uint64_t addr, uint64_t bytes);

/* When the last slice finishes taking in what it was given. */
double ws_l2_busy_until(const struct ws_l2 *l2);

#endif
