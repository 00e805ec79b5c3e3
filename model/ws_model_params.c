/*
 * ws_model_params: model parameters from a profile and a config (see
 * ws_model_params.h).
 */
#include "ws_model_params.h"

#include <math.h>
#include <string.h>

#include "config/ws_occupancy.h"

static const char *const ws_model_names[WS_MODEL_COUNT] = {
    "mwp_cwp", "mwp_cwp_l2", "tmm", "roofline"
};

int ws_model_find(const char *name)
{
    for (int i = 0; i < WS_MODEL_COUNT; i++)
        if (strcmp(name, ws_model_names[i]) == 0)
            return i;
    return -1;
}

const char *ws_model_name(enum ws_model_kind kind)
{
    return (unsigned)kind < WS_MODEL_COUNT ? ws_model_names[kind] : "?";
}

static double ws_per_warp(const struct ws_profile *p, double sum)
{
    return p->warps ? sum / (double)p->warps : 0;
}

static double ws_ghz(const struct ws_gpu *g)
{
    return g->core_mhz / 1000.0;
}

/* CTAs resident per SM while the kernel runs: the occupancy limit, or
 * fewer when the grid does not fill every SM. */
static double ws_active_blocks(const struct ws_profile *p,
                               const struct ws_gpu *g, double active_sms)
{
    struct ws_occupancy occ;
    double per_sm;

    ws_occupancy_compute(g, &p->launch, &occ);
    per_sm = active_sms > 0 ? ceil((double)p->ctas / active_sms) : 0;
    return per_sm < occ.ctas_per_sm ? per_sm : occ.ctas_per_sm;
}

void ws_model_params_mwp(const struct ws_profile *p, const struct ws_gpu *g,
                         struct ws_mwp_params *out)
{
    const struct ws_profile_model *m = &p->model;
    /* One SM port serves a 32-byte sector in this many core cycles
     * (icnt.bandwidth_per_sm): the gap between two transactions leaving an
     * SM, which is what Hong & Kim's departure delay measures.  An
     * uncoalesced warp sends one transaction at a time; a coalesced one
     * sends its sectors back to back, so its delay is its sectors' worth. */
    double port = (double)g->l2.sector / (g->icnt.bandwidth_per_sm / ws_ghz(g));
    double mem = (double)m->mem_insts;

    memset(out, 0, sizeof *out);
    out->freq_ghz = ws_ghz(g);
    out->mem_bw_gbs = g->dram.bandwidth;
    out->mem_ld = g->dram.latency;
    out->mem_l2_hit = g->l2.latency;
    /* Reuse analysis: the share of sector reads that touch a sector some
     * access read before, i.e. the hit rate of an L2 that never evicts.
     * An upper bound on the real hit rate, and the only one a profile
     * without timing can give. */
    out->l2_hit_rate = m->read_sector_refs
        ? 1.0 - (double)m->read.n / (double)m->read_sector_refs : 0;
    out->uncoal_per_mw = m->uncoal_insts
        ? (double)m->uncoal_sectors / (double)m->uncoal_insts : 0;
    out->coal_per_mw = m->coal_insts
        ? (double)m->coal_sectors / (double)m->coal_insts : 0;
    out->departure_del_uncoal = port;
    out->departure_del_coal = port * (out->coal_per_mw > 0 ? out->coal_per_mw : 1);
    out->load_bytes_per_warp = m->load_insts
        ? (double)m->load_bytes / (double)m->load_insts : 0;
    out->active_sms = p->ctas < g->sm.count ? (double)p->ctas : g->sm.count;
    /* A warp instruction occupies its sub-core's issue slot for the FP32
     * unit's interval; the SM's sub-cores issue side by side, so per SM a
     * warp instruction costs interval / sub_cores cycles of issue. */
    out->issue_cycles = (double)g->unit[WS_UNIT_FP32].interval
                        / (double)g->sm.sub_cores;
    out->uncoal_insts = ws_per_warp(p, (double)m->uncoal_insts);
    out->coal_insts = ws_per_warp(p, (double)m->coal_insts);
    out->synch_insts = ws_per_warp(p, (double)m->sync_insts);
    out->comp_insts = ws_per_warp(p, (double)p->warp_insts - mem
                                     - (double)m->sync_insts);
    out->first_comp_period_insts = ws_per_warp(p, (double)m->first_comp_insts);
    out->threads_per_block = ws_launch_threads(&p->launch);
    out->blocks = (double)p->ctas;
    out->active_blocks_per_sm = ws_active_blocks(p, g, out->active_sms);
}

void ws_model_params_tmm(const struct ws_profile *p, const struct ws_gpu *g,
                         struct ws_tmm_params *out)
{
    /* A "core" is an FP32 lane: sub-cores x their FP32 lanes per SM. */
    double q = (double)g->sm.sub_cores * g->unit[WS_UNIT_FP32].lanes;
    double sms = p->ctas < g->sm.count ? (double)p->ctas : g->sm.count;
    double active = ws_active_blocks(p, g, sms);

    memset(out, 0, sizeof *out);
    out->t1 = (double)p->thread_insts;
    out->t_inf = p->model.span_max;
    out->m = (double)(p->model.coal_sectors + p->model.uncoal_sectors);
    out->l = g->dram.latency;
    out->q = q;
    out->p = q * g->sm.count;
    out->t = active * ws_launch_threads(&p->launch) / q;
    out->z = (double)g->sm.shared_mem;
    out->s_b = p->launch.shmem;
    out->r = g->sm.registers;
    out->r_t = p->launch.nregs;
    out->t_r = ws_launch_threads(&p->launch);
    out->b_r = (double)p->ctas;
    out->b_max = g->sm.max_blocks;
    out->t_max_mp = g->sm.max_threads;
    /* TMM is a proportionality; its time unit is one core cycle here
     * (T1/P, the span and M*L/(T*P) are all in cycles), so the factor is 1
     * until a calibration exists. */
    out->scale = 1.0;
}

void ws_model_params_roofline(const struct ws_profile *p,
                              const struct ws_gpu *g, int l2_may_be_warm,
                              struct ws_roofline_params *out)
{
    const struct ws_profile_model *m = &p->model;
    double ghz = ws_ghz(g), sector = (double)g->l2.sector;
    double compulsory = (double)ws_profile_compulsory_reads(p) * sector;
    const struct ws_unit_cfg *fp32 = &g->unit[WS_UNIT_FP32];

    memset(out, 0, sizeof *out);
    out->flops = m->flops;
    /* Each sub-core's FP32 unit takes a warp instruction every `interval`
     * cycles: 32 lanes, 2 operations for an FMA. */
    out->peak_flops = (double)g->sm.count * g->sm.sub_cores
                      * (double)WS_WARP_SIZE / fp32->interval * 2.0;
    if (l2_may_be_warm)
        compulsory = compulsory > (double)g->l2.size
                     ? compulsory - (double)g->l2.size : 0;
    out->dram_bytes = m->incomplete ? 0 : compulsory;
    out->dram_bw = g->dram.bandwidth / ghz;
    /* Every distinct sector read crosses L2 once at least, and every
     * sector stored or updated atomically reaches it (L1 writes through). */
    out->l2_bytes = m->incomplete ? 0
                    : ((double)m->read.n + (double)m->store_sectors) * sector;
    out->l2_bw = g->l2.bandwidth / ghz;
    /* No L1 bandwidth in the configs: that roof is left out. */
    out->c_op = (double)(p->by_class[WS_OPC_FP32] + p->by_class[WS_OPC_FP16]
                         + p->by_class[WS_OPC_FP64]
                         + p->by_class[WS_OPC_TENSOR]);
    out->c_ldst = (double)(p->by_class[WS_OPC_GLOBAL]
                           + p->by_class[WS_OPC_SHARED]
                           + p->by_class[WS_OPC_LOCAL]
                           + p->by_class[WS_OPC_CONST]
                           + p->by_class[WS_OPC_TEX]);
    out->c_other = (double)p->warp_insts - out->c_op - out->c_ldst;
}

void ws_model_run_all(const struct ws_profile *p, const struct ws_gpu *g,
                      int l2_may_be_warm,
                      struct ws_model_result out[WS_MODEL_COUNT])
{
    struct ws_mwp_params mwp;
    struct ws_tmm_params tmm;
    struct ws_roofline_params roof;

    ws_model_params_mwp(p, g, &mwp);
    ws_model_mwp(&mwp, &out[WS_MODEL_MWP]);
    ws_model_mwp_l2(&mwp, &out[WS_MODEL_MWP_L2]);
    ws_model_params_tmm(p, g, &tmm);
    ws_model_tmm(&tmm, &out[WS_MODEL_TMM]);
    ws_model_params_roofline(p, g, l2_may_be_warm, &roof);
    ws_model_roofline(&roof, &out[WS_MODEL_ROOFLINE]);
}
