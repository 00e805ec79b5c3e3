/*
 * ws_synth: kernels built in memory for the property tests of the timing
 * model: the library's generated kernels (timing/ws_kgen.h) with a test's
 * conveniences: failures fail the test, a fresh simulator per run, and a
 * streamed form whose warps are read through readers, so that the
 * simulator's window refills are exercised.
 */
#ifndef WS_SYNTH_H
#define WS_SYNTH_H

#include <stdint.h>

#include "timing/ws_kgen.h"
#include "timing/ws_sim.h"

struct ws_synth;
typedef void (*ws_synth_gen)(struct ws_synth *k, uint32_t cta);

struct ws_synth {
    struct ws_kgen g;
    ws_synth_gen gen;
    const void *user;
    /* When not 0, the source streams: warps are handed out through readers
     * that give at most this many instructions per read. */
    uint32_t stream_window;
    /* Control bits by PC (trace/ws_ctrl.h) the source hands out; NULL:
     * none.  Generated instructions sit at PC 16 x their index. */
    const struct ws_ctrl_table *ctrl;
};

/* A kernel of `ctas` CTAs of `threads` threads (1-D). */
void ws_synth_init(struct ws_synth *k, uint32_t ctas, uint32_t threads,
                   ws_synth_gen gen, const void *user);
void ws_synth_free(struct ws_synth *k);
struct ws_cta_source ws_synth_source(struct ws_synth *k);

void ws_synth_warp(struct ws_synth *k, uint32_t warp);
/* Appends an instruction writing dst (-1: none) from src0/src1 (-1: none). */
struct ws_inst *ws_synth_op(struct ws_synth *k, const char *opcode, int dst,
                            int src0, int src1);
/* Appends a memory instruction: n lanes (mask 2^n - 1) at base + lane*stride. */
struct ws_inst *ws_synth_mem(struct ws_synth *k, const char *opcode, int dst,
                             int src, unsigned lanes, uint64_t base,
                             int64_t stride, unsigned width);

/* Simulates the kernel on gpu from a fresh simulator; returns cycles and
 * fills *out when given.  Fails the test on error. */
uint64_t ws_synth_run(struct ws_synth *k, const struct ws_gpu *gpu,
                      struct ws_kernel_stats *out);

#endif
