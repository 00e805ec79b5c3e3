/*
 * ws_kgen: kernels built in memory rather than read from a trace: a CTA
 * source whose CTAs a generator function writes, instruction by
 * instruction with their registers and lane addresses.  The simulator's
 * own microbenchmarks (ws_probe.c) are written with it, and so are the
 * property tests of the timing model.
 *
 * Leaves out: streamed warps (a generated CTA is handed out whole), more
 * than 32 warps per CTA, multi-dimensional launches.
 */
#ifndef WS_KGEN_H
#define WS_KGEN_H

#include <stdint.h>

#include "stats/ws_kernel_stats.h"
#include "trace/ws_opcode.h"
#include "trace/ws_trace.h"
#include "util/ws_err.h"
#include "util/ws_strtab.h"

struct ws_gpu;
struct ws_sim;
struct ws_kgen;

/* Writes CTA `cta` with ws_kgen_warp, ws_kgen_op and ws_kgen_mem. */
typedef void (*ws_kgen_fn)(struct ws_kgen *k, uint32_t cta);

struct ws_kgen {
    struct ws_launch launch;
    struct ws_strtab ops;
    uint32_t next_cta;
    ws_kgen_fn gen;
    const void *user; /* for the generator */
    struct ws_inst *inst;
    uint32_t ninst;
    size_t inst_cap;
    uint64_t *addrs;
    uint32_t naddr;
    size_t addr_cap;
    uint32_t first[32];
    struct ws_warp_stream warps[32];
    struct ws_cta_stream cta;
    int cur_warp;
    struct ws_inst spare; /* written instead when a buffer could not
                                   grow or an opcode is unknown */
    int failed;
};

/* A kernel of `ctas` CTAs of `threads` threads (1-D). */
void ws_kgen_init(struct ws_kgen *k, uint32_t ctas, uint32_t threads,
                  ws_kgen_fn gen, const void *user);
void ws_kgen_free(struct ws_kgen *k);

/* The CTA source of the kernel, from its first CTA. */
struct ws_cta_source ws_kgen_source(struct ws_kgen *k);

void ws_kgen_warp(struct ws_kgen *k, uint32_t warp);
/* Appends an instruction writing dst (-1: none) from src0/src1 (-1: none).
 * Never NULL: on failure (out of memory, an opcode not in the table) it
 * returns a spare record and the source's next CTA fails. */
struct ws_inst *ws_kgen_op(struct ws_kgen *k, const char *opcode, int dst,
                           int src0, int src1);
/* Appends a memory instruction: n lanes (mask 2^n - 1) at base + lane *
 * stride. */
struct ws_inst *ws_kgen_mem(struct ws_kgen *k, const char *opcode, int dst,
                            int src, unsigned lanes, uint64_t base,
                            int64_t stride, unsigned width);

/* Simulates the kernel on sim (its L2 and DRAM state carry over, as
 * between any two kernels); returns its cycles, or -1 with err set.
 * Fills *out when given (the caller frees it). */
int64_t ws_kgen_run(struct ws_kgen *k, struct ws_sim *sim,
                    struct ws_kernel_stats *out, struct ws_err *err);

#endif
