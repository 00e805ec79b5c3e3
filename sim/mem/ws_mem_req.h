/*
 * ws_mem_req: what travels between the levels of the memory path.
 *
 *   struct ws_mem_req   one warp's access, as the LD/ST unit hands it to
 *                       the memory system (lane addresses, before
 *                       coalescing);
 *   struct ws_line_req  one line's worth of it below the coalescer: the
 *                       sectors of one 128-byte line, read, written or
 *                       operated on atomically, arriving at a cycle;
 *   struct ws_mem_port  a level's view of the level below it: one call
 *                       that times a line request and says when it is
 *                       done.  Tests put a stub behind it (a next level
 *                       that records requests and answers at chosen
 *                       cycles).
 *
 * Leaves out: data (the simulator times accesses, it does not move
 * values), request sizes on the wire (ws_icnt.h counts sectors).
 */
#ifndef WS_MEM_REQ_H
#define WS_MEM_REQ_H

#include <stdint.h>

#include "stats/ws_stats.h"

/* One warp's memory access. */
struct ws_mem_req {
    uint32_t sm;
    uint64_t cycle;          /* issue */
    const uint64_t *addrs;   /* one per active lane, in lane order */
    unsigned nlanes;         /* active lanes */
    unsigned width;          /* bytes per lane */
    struct ws_counters *ctr; /* the kernel's counters */
};

enum ws_line_op {
    WS_LINE_READ,  /* a load's missing sectors */
    WS_LINE_WRITE, /* store data (or a write-back, below L2) */
    WS_LINE_ATOMIC /* read-modify-write at L2, result returned */
};

/* One line's sectors on their way down. */
struct ws_line_req {
    uint64_t line; /* line index: address / line bytes */
    uint64_t t;    /* cycle it reaches the receiving level */
    uint32_t src;  /* the SM (below L2: the slice) */
    uint8_t mask;  /* sectors of the line, bit k = sector k */
    uint8_t op;    /* enum ws_line_op */
    uint16_t ops;  /* atomics: lane operations on the line */
    struct ws_counters *ctr;
};

/* The level below.  access returns when the request is done as the
 * sender sees it (a read's or atomic's data back, a write accepted) and
 * sets *left to the cycle the request left the sender's queue, i.e. the
 * receiver took it in (t when the receiver has no queue). */
struct ws_mem_port {
    uint64_t (*access)(void *ctx, const struct ws_line_req *r, uint64_t *left);
    void *ctx;
};

#endif
