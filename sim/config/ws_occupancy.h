/*
 * ws_occupancy: how many CTAs of a kernel fit on one SM at once, and which
 * resource binds: threads, warps, registers (allocated per warp in units
 * of sm.reg_alloc_unit), shared memory (in units of sm.shared_alloc_unit)
 * or the block limit.  The same rules as the CUDA occupancy calculator, and
 * Ma et al.'s B_a (eq 4) with the per-SM block limit.
 *
 * Leaves out: the shared-memory carve-out choice (the config's split holds).
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
    uint32_t ctas_per_sm;            /* 0: a CTA does not fit at all */
    uint32_t by_limit[WS_OCC_LIMIT_COUNT];
    enum ws_occ_limit limit;         /* the smallest of by_limit */
    uint32_t warps_per_cta;
    uint32_t regs_per_cta;
    uint64_t shared_per_cta;
};

void ws_occupancy_compute(const struct ws_gpu *gpu, const struct ws_launch *l,
                          struct ws_occupancy *occ);
const char *ws_occ_limit_name(enum ws_occ_limit limit);

#endif
