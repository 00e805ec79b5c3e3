/*
 * ws_occupancy: CTAs per SM (see ws_occupancy.h).
 */
#include "ws_occupancy.h"

static uint64_t ws_round_up(uint64_t v, uint64_t unit)
{
    return unit ? (v + unit - 1) / unit * unit : v;
}

void ws_occupancy_compute(const struct ws_gpu *g, const struct ws_launch *l,
                          struct ws_occupancy *occ)
{
    uint32_t threads = ws_launch_threads(l);
    uint64_t regs_per_warp = ws_round_up((uint64_t)l->nregs * WS_WARP_SIZE,
                                         g->sm.reg_alloc_unit);
    uint32_t best = UINT32_MAX;

    occ->warps_per_cta = ws_launch_warps_per_cta(l);
    occ->regs_per_cta = (uint32_t)(regs_per_warp * occ->warps_per_cta);
    occ->shared_per_cta = ws_round_up(l->shmem, g->sm.shared_alloc_unit);
    occ->by_limit[WS_OCC_BLOCKS] = g->sm.max_blocks;
    occ->by_limit[WS_OCC_THREADS] = g->sm.max_threads / threads;
    occ->by_limit[WS_OCC_WARPS] = g->sm.max_warps / occ->warps_per_cta;
    occ->by_limit[WS_OCC_REGISTERS] = occ->regs_per_cta
        ? g->sm.registers / occ->regs_per_cta : UINT32_MAX;
    occ->by_limit[WS_OCC_SHARED] = occ->shared_per_cta
        ? (uint32_t)(g->sm.shared_mem / occ->shared_per_cta) : UINT32_MAX;
    if (l->shmem > g->sm.shared_per_block)
        occ->by_limit[WS_OCC_SHARED] = 0;
    occ->limit = WS_OCC_BLOCKS;
    for (int i = 0; i < WS_OCC_LIMIT_COUNT; i++) {
        if (occ->by_limit[i] < best) {
            best = occ->by_limit[i];
            occ->limit = (enum ws_occ_limit)i;
        }
    }
    occ->ctas_per_sm = best;
}

const char *ws_occ_limit_name(enum ws_occ_limit limit)
{
    static const char *const names[WS_OCC_LIMIT_COUNT] = {
        "blocks per SM", "threads", "warps", "registers", "shared memory"
    };
    return (unsigned)limit < WS_OCC_LIMIT_COUNT ? names[limit] : "?";
}
