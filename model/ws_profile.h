/*
 * ws_profile: what a kernel's instruction stream contains, counted without
 * timing: the "code analysis" of the seed papers done from the trace.
 *
 * Instruction mix by class, memory instructions by space with their
 * coalescing (sectors and lines per request for global/local, wavefronts for
 * shared), active lanes, predicated-off instructions, unknown mnemonics.
 * "warpsim trace info" prints it; the analytic models read their
 * parameters from it (ws_model_params.c), never from the simulator's
 * internals: the model inputs below (struct ws_profile_model) are counted
 * here, from the instruction stream and the config's latencies alone.
 *
 * Leaves out: anything that depends on timing or cache state.
 */
#ifndef WS_PROFILE_H
#define WS_PROFILE_H

#include <stdint.h>

#include "config/ws_config.h"
#include "ws_flops.h"
#include "trace/ws_opcode.h"
#include "trace/ws_trace.h"
#include "util/ws_strtab.h"
#include "util/ws_u64set.h"

struct ws_space_stats {
    uint64_t insts; /* warp instructions in this space */
    uint64_t loads, stores, atomics;
    uint64_t predicated_off; /* mask 0: issued, no traffic */
    uint64_t lanes;          /* active lanes over the others */
    uint64_t sectors;        /* global/local: 32-byte sectors */
    uint64_t lines;          /* global/local: 128-byte line requests */
    uint64_t wavefronts;     /* shared: bank-conflict wavefronts */
    uint64_t bytes;          /* lanes x width */
};

/* The models' inputs, summed over the kernel's warps (averages are taken
 * per warp by the reader).  "Memory" means global and local accesses that
 * move data, as in Hong & Kim; shared memory counts as computation. */
struct ws_profile_model {
    uint64_t mem_insts;
    uint64_t coal_insts, uncoal_insts;     /* by the sectors they need */
    uint64_t coal_sectors, uncoal_sectors; /* their 32-byte transactions */
    uint64_t coal_lines, uncoal_lines;     /* their 128-byte blocks */
    uint64_t load_insts, load_bytes;       /* loads that move data: lanes x
                                              width (requested, not moved) */
    uint64_t sync_insts;                   /* BAR */
    uint64_t first_comp_insts;             /* before each warp's first memory
                                              instruction, summed */
    uint64_t warp_insts_min, warp_insts_max;
    double span_max, span_sum;         /* dependent chain per warp, cycles */
    double span_steps_max;             /* the same in TMM's time steps:
                                              1 per operation, L (DRAM
                                              latency) per global load */
    double flops;                      /* FP32 lane operations, FMA = 2 */
    double flops_fp16, flops_fp64;     /* the same on those pipes */
    double flops_tensor;               /* 2mnk per tensor instruction */
    uint64_t fma_insts[WS_FLOP_KINDS]; /* FMA warp instructions, by
                                              pipe */
    uint64_t read_sector_refs;         /* sectors read, with repeats */
    uint64_t store_sectors;            /* written or updated at L2 */
    struct ws_u64set read, written;    /* distinct sector addresses */
    struct ws_u64set write_first;      /* sectors written before the
                                              trace reads them */
    int incomplete;                    /* a set reached its bound (or
                                              memory ran out) */
};

struct ws_unknown_op {
    char name[32];
    uint64_t count;
};

/* Counts that are sums over instructions, whatever their order: a warp
 * takes them in its own half (ws_profile_warp_own) and adds them to the
 * kernel's at its end.  The flops are whole numbers (lanes times whole
 * operations per lane, 2mnk per tensor instruction), exact in a double,
 * so adding them a warp at a time gives what one at a time did. */
struct ws_profile_sums {
    uint64_t thread_insts, sync_insts;
    uint64_t by_class[WS_OPC_COUNT];
    uint64_t fma_insts[WS_FLOP_KINDS];
    double flops, flops_fp16, flops_fp64, flops_tensor;
};

struct ws_profile {
    char *name;
    struct ws_launch launch; /* scalars; name and nvbit not owned */
    uint64_t ctas, warps, warp_insts, thread_insts;
    uint64_t by_class[WS_OPC_COUNT];
    struct ws_space_stats space[WS_SPACE_COUNT];
    struct ws_unknown_op *unknown;
    uint32_t nunknown, unknown_cap;
    uint64_t unknown_insts;
    unsigned sector_bytes, line_bytes, banks, bank_width;
    struct ws_profile_model model;
    /* Latencies the dependent-chain length is weighed with, from the GPU. */
    uint32_t lat_unit[WS_UNIT_COUNT], lat_dram, lat_shared, lat_const;
};

/* The GPU supplies sector, line and bank geometry. */
int ws_profile_init(struct ws_profile *p, const struct ws_launch *launch,
                    const struct ws_gpu *gpu);
void ws_profile_add_cta(struct ws_profile *p, const struct ws_cta_stream *cta,
                        const struct ws_strtab *ops);

/* The same a warp at a time, for warps that arrive a window at a time
 * (streamed): ws_profile_cta once per CTA, then per warp begin, its
 * windows in order (addrs is what each window's inst.addr indexes), end.
 * Whole CTAs and streamed warps count the same totals. */
struct ws_profile_warp {
    /* Per register: its value's ready time, and the same in TMM's time
     * steps, side by side: a window's walk reads both for each operand,
     * and the warps' registers are cold in the host's cache by the next
     * window (one line per four registers, not two half-used ones). */
    struct ws_profile_reg {
        double ready, steps;
    } reg[WS_REG_RZ + 1];
    double span, span_steps;
    uint64_t ninst, first_comp;
    uint64_t wavefronts; /* its shared accesses', into the kernel's at end */
    int seen_mem;
    struct ws_profile_sums sums; /* into the kernel's at its end */
    uint64_t flops_op;           /* the opcode (+ 1) flops is for */
    struct ws_flops flops;
    /* The last window's first instruction the kernel's ordered counts
     * (ws_profile_warp_count) want: memory or unknown; n when none. */
    size_t count_from;
};

void ws_profile_cta(struct ws_profile *p);
void ws_profile_warp_begin(struct ws_profile *p, struct ws_profile_warp *pw);
void ws_profile_warp_add(struct ws_profile *p, struct ws_profile_warp *pw,
                         const struct ws_inst *insts, size_t n,
                         const uint64_t *addrs, const struct ws_strtab *ops);
/* ws_profile_warp_add in two halves: what only the warp's state holds
 * (its dependent chain, its instructions before the first memory one,
 * its shared accesses' bank-conflict wavefronts, its sums), which reads p
 * and may run beside other warps' on other threads; and the kernel's
 * memory counts and unknown opcodes, whose sets of sectors and list of
 * names depend on the order of all warps' windows (the simulator's commit
 * order).  The second needs only the window from pw->count_from on, which
 * the first sets: a window of arithmetic commits without being read
 * again, on a thread whose cache does not hold it. */
void ws_profile_warp_own(const struct ws_profile *p, struct ws_profile_warp *pw,
                         const struct ws_inst *insts, size_t n,
                         const uint64_t *addrs, const struct ws_strtab *ops);
void ws_profile_warp_count(struct ws_profile *p, const struct ws_inst *insts,
                           size_t n, const uint64_t *addrs,
                           const struct ws_strtab *ops);
void ws_profile_warp_end(struct ws_profile *p, struct ws_profile_warp *pw);
void ws_profile_free(struct ws_profile *p);

double ws_profile_ratio(uint64_t num, uint64_t den);

/* Distinct sectors the kernel reads that it did not write first: each must
 * come from DRAM at least once unless L2 already held it (compulsory
 * misses).  A sector read and later written (saxpy's y) counts; one
 * written and then read back does not. */
uint64_t ws_profile_compulsory_reads(const struct ws_profile *p);

#endif
