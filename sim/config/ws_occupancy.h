/*
 * ws_occupancy: how many CTAs of a kernel fit on one SM at once, and which
 * resource binds: threads, warps, registers (allocated per warp in units
 * of sm.reg_alloc_unit), shared memory (in units of sm.shared_alloc_unit)
 * or the block limit.  The same rules as the CUDA occupancy calculator, and
 * Ma et al.'s B_a (eq 4) with the per-SM block limit.
 *
 * Also the split of the unified L1/shared SRAM a kernel runs with, where
 * the config lists carveouts (sm.carveouts): the CUDA driver's choice, the
 * smallest carveout that holds the kernel's shared memory at the occupancy
 * it can otherwise reach (so L1 gets the rest), unless l1.carveout names
 * one, which is rounded up to a listed size as the driver rounds
 * cudaFuncAttributePreferredSharedMemoryCarveout.
 *
 * Leaves out: the 1 KiB per CTA that sm_80 and later reserve for the
 * system, and concurrent kernels' claims on the split.
 */
#ifndef WS_OCCUPANCY_H
#define WS_OCCUPANCY_H

#include <stdint.h>

#include "ws_config.h"
#include "trace/ws_trace.h"

enum ws_occ_limit {
    WS_OCC_BLOCKS,
    WS_OCC_THREADS,
    WS_OCC_WARPS,
    WS_OCC_REGISTERS,
    WS_OCC_SHARED,
    WS_OCC_LIMIT_COUNT
};

struct ws_occupancy {
    uint32_t ctas_per_sm; /* 0: a CTA does not fit at all */
    uint32_t by_limit[WS_OCC_LIMIT_COUNT];
    enum ws_occ_limit limit; /* the smallest of by_limit */
    uint32_t warps_per_cta;
    uint32_t regs_per_cta;
    uint64_t shared_per_cta;
    uint64_t carveout;       /* shared memory per SM, this kernel */
    uint64_t l1_size;        /* L1 data cache, this kernel */
    const char *carveout_by; /* "driver", "l1.carveout" or "fixed" */
};

void ws_occupancy_compute(const struct ws_gpu *gpu, const struct ws_launch *l,
                          struct ws_occupancy *occ);
const char *ws_occ_limit_name(enum ws_occ_limit limit);

#endif
