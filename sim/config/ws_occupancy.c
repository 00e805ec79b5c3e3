/*
 * ws_occupancy: CTAs per SM (see ws_occupancy.h).
 */
#include "ws_occupancy.h"

static uint64_t ws_round_up(uint64_t v, uint64_t unit)
{
    return unit ? (v + unit - 1) / unit * unit : v;
}

/* The smallest listed carveout of at least want bytes; the largest when
 * none is that big. */
static uint64_t ws_carveout_at_least(const struct ws_gpu *g, uint64_t want)
{
    for (uint32_t i = 0; i < g->sm.ncarveouts; i++)
        if (g->sm.carveout[i] >= want)
            return g->sm.carveout[i];
    return g->sm.carveout[g->sm.ncarveouts - 1];
}

static uint32_t ws_shared_limit(const struct ws_occupancy *occ, uint64_t shared)
{
    return occ->shared_per_cta ? (uint32_t)(shared / occ->shared_per_cta)
                               : UINT32_MAX;
}

static void ws_occupancy_pick(struct ws_occupancy *occ)
{
    uint32_t best = UINT32_MAX;

    occ->limit = WS_OCC_BLOCKS;
    for (int i = 0; i < WS_OCC_LIMIT_COUNT; i++) {
        if (occ->by_limit[i] < best) {
            best = occ->by_limit[i];
            occ->limit = (enum ws_occ_limit)i;
        }
    }
    occ->ctas_per_sm = best;
}

/* The kernel's L1/shared split, and the shared limit under it. */
static void ws_occupancy_split(const struct ws_gpu *g, struct ws_occupancy *occ)
{
    uint64_t sram_l1;

    occ->carveout = g->sm.shared_mem;
    occ->l1_size = g->l1.size;
    occ->carveout_by = "fixed";
    if (g->sm.ncarveouts == 0)
        return;
    if (g->l1.carveout != WS_CARVEOUT_AUTO) {
        /* A hint, as the driver takes cudaFuncAttributePreferred-
         * SharedMemoryCarveout: never so small that one CTA cannot run. */
        uint64_t want = g->l1.carveout > occ->shared_per_cta
                            ? g->l1.carveout
                            : occ->shared_per_cta;
        occ->carveout = ws_carveout_at_least(g, want);
        occ->carveout_by = "l1.carveout";
    } else {
        /* The occupancy the other limits allow (shared memory at its
         * largest carveout among them), then the least shared memory that
         * keeps it. */
        ws_occupancy_pick(occ);
        occ->carveout = ws_carveout_at_least(g, (uint64_t)occ->ctas_per_sm
                                                    * occ->shared_per_cta);
        occ->carveout_by = "driver";
    }
    sram_l1 = g->sm.l1_shared - occ->carveout;
    occ->l1_size = sram_l1 < g->l1.size ? sram_l1 : g->l1.size;
    /* Whole sets only; less than one set is no L1 at all. */
    occ->l1_size -= occ->l1_size % (g->l1.line * g->l1.assoc);
    if (occ->by_limit[WS_OCC_SHARED] != 0)
        occ->by_limit[WS_OCC_SHARED] = ws_shared_limit(occ, occ->carveout);
}

void ws_occupancy_compute(const struct ws_gpu *g, const struct ws_launch *l,
                          struct ws_occupancy *occ)
{
    uint32_t threads = ws_launch_threads(l);
    uint64_t regs_per_warp = ws_round_up((uint64_t)l->nregs * WS_WARP_SIZE,
                                         g->sm.reg_alloc_unit);
    occ->warps_per_cta = ws_launch_warps_per_cta(l);
    occ->regs_per_cta = (uint32_t)(regs_per_warp * occ->warps_per_cta);
    /* sm_80 on, the driver keeps sm.shared_reserved bytes of every CTA's
     * shared memory for itself (CUDA Programming Guide, "Shared Memory"
     * of compute capabilities 8.x and 9.0: 1 KB per thread block; ncu's
     * launch__shared_mem_per_block_driver reads 1,024 on our H100).  A
     * CTA with no shared memory of its own still takes it. */
    occ->shared_per_cta = ws_round_up(l->shmem + g->sm.shared_reserved,
                                      g->sm.shared_alloc_unit);
    occ->by_limit[WS_OCC_BLOCKS] = g->sm.max_blocks;
    occ->by_limit[WS_OCC_THREADS] = g->sm.max_threads / threads;
    occ->by_limit[WS_OCC_WARPS] = g->sm.max_warps / occ->warps_per_cta;
    occ->by_limit[WS_OCC_REGISTERS] = occ->regs_per_cta
                                          ? g->sm.registers / occ->regs_per_cta
                                          : UINT32_MAX;
    occ->by_limit[WS_OCC_SHARED] = ws_shared_limit(occ, g->sm.shared_mem);
    if (l->shmem > g->sm.shared_per_block)
        occ->by_limit[WS_OCC_SHARED] = 0;
    ws_occupancy_split(g, occ);
    ws_occupancy_pick(occ);
}

const char *ws_occ_limit_name(enum ws_occ_limit limit)
{
    static const char *const names[WS_OCC_LIMIT_COUNT] = {"blocks per SM",
                                                          "threads", "warps",
                                                          "registers",
                                                          "shared memory"};
    return (unsigned)limit < WS_OCC_LIMIT_COUNT ? names[limit] : "?";
}
