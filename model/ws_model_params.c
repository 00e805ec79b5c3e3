/*
 * ws_model_params: model parameters from a profile and a config (see
 * ws_model_params.h).
 */
#include "ws_model_params.h"

#include <math.h>
#include <stddef.h>
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
     * without timing can give; 0 (no reuse assumed) when the kernel
     * touched more sectors than the profile keeps. */
    out->l2_hit_rate = m->read_sector_refs && !m->incomplete
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
    /* TMM is a proportionality: its terms are in core cycles of an ideal
     * core, and the config's model.tmm_scale, calibrated on the FP32
     * throughput microbenchmark (validate/calibrate_tmm.sh), turns them
     * into the GPU's. */
    out->scale = g->model.tmm_scale;
}

void ws_model_params_roofline(const struct ws_profile *p,
                              const struct ws_gpu *g, int l2_may_be_warm,
                              struct ws_roofline_params *out)
{
    const struct ws_profile_model *m = &p->model;
    double ghz = ws_ghz(g), sector = (double)g->l2.sector;
    double compulsory = (double)ws_profile_compulsory_reads(p) * sector;
    double written = (double)m->written.n * sector;
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
    /* L2 writes back: written data stays there until evicted, so at most
     * an L2-full of it never reaches DRAM during the kernel. */
    if (written > (double)g->l2.size)
        compulsory += written - (double)g->l2.size;
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

static const struct ws_model_field ws_mwp_fields[] = {
    {"freq_ghz", offsetof(struct ws_mwp_params, freq_ghz),
     "Freq, SM clock in GHz"},
    {"mem_bw_gbs", offsetof(struct ws_mwp_params, mem_bw_gbs),
     "Mem_Bandwidth, GB/s"},
    {"mem_ld", offsetof(struct ws_mwp_params, mem_ld),
     "Mem_LD = Mem_L2_cache_miss, cycles"},
    {"mem_l2_hit", offsetof(struct ws_mwp_params, mem_l2_hit),
     "Mem_L2_cache_hit, cycles (L2 form)"},
    {"l2_hit_rate", offsetof(struct ws_mwp_params, l2_hit_rate),
     "share of sector reads that reuse a sector (L2 form)"},
    {"departure_del_uncoal", offsetof(struct ws_mwp_params, departure_del_uncoal),
     "Departure_del_uncoal, cycles"},
    {"departure_del_coal", offsetof(struct ws_mwp_params, departure_del_coal),
     "Departure_del_coal, cycles"},
    {"uncoal_per_mw", offsetof(struct ws_mwp_params, uncoal_per_mw),
     "#Uncoal_per_mw, transactions"},
    {"coal_per_mw", offsetof(struct ws_mwp_params, coal_per_mw),
     "#Coal_per_mw, transactions"},
    {"load_bytes_per_warp", offsetof(struct ws_mwp_params, load_bytes_per_warp),
     "Load_bytes_per_warp"},
    {"active_sms", offsetof(struct ws_mwp_params, active_sms),
     "#Active_SMs"},
    {"issue_cycles", offsetof(struct ws_mwp_params, issue_cycles),
     "Issue_cycles per warp instruction per SM"},
    {"comp_insts", offsetof(struct ws_mwp_params, comp_insts),
     "#Comp_insts per warp"},
    {"uncoal_insts", offsetof(struct ws_mwp_params, uncoal_insts),
     "#Uncoal_Mem_insts per warp"},
    {"coal_insts", offsetof(struct ws_mwp_params, coal_insts),
     "#Coal_Mem_insts per warp"},
    {"synch_insts", offsetof(struct ws_mwp_params, synch_insts),
     "#Synch_insts per warp"},
    {"first_comp_period_insts", offsetof(struct ws_mwp_params, first_comp_period_insts),
     "First_comp_period_insts per warp"},
    {"threads_per_block", offsetof(struct ws_mwp_params, threads_per_block),
     "#Threads_per_block"},
    {"blocks", offsetof(struct ws_mwp_params, blocks),
     "#Blocks"},
    {"active_blocks_per_sm", offsetof(struct ws_mwp_params, active_blocks_per_sm),
     "#Active_blocks_per_SM"},
};

static const struct ws_model_field ws_tmm_fields[] = {
    {"t1", offsetof(struct ws_tmm_params, t1),
     "T1, work: thread instructions"},
    {"t_inf", offsetof(struct ws_tmm_params, t_inf),
     "T_inf, span: longest dependent chain, cycles"},
    {"m", offsetof(struct ws_tmm_params, m),
     "M, global memory transactions"},
    {"l", offsetof(struct ws_tmm_params, l),
     "L, memory latency, cycles"},
    {"t", offsetof(struct ws_tmm_params, t),
     "T, threads per core"},
    {"p", offsetof(struct ws_tmm_params, p),
     "P, cores"},
    {"q", offsetof(struct ws_tmm_params, q),
     "Q, cores per SM"},
    {"z", offsetof(struct ws_tmm_params, z),
     "Z, shared memory per SM, bytes"},
    {"s_b", offsetof(struct ws_tmm_params, s_b),
     "S_B, shared memory per block, bytes"},
    {"r", offsetof(struct ws_tmm_params, r),
     "R, registers per SM"},
    {"r_t", offsetof(struct ws_tmm_params, r_t),
     "R_T, registers per thread"},
    {"t_r", offsetof(struct ws_tmm_params, t_r),
     "T_r, threads per block"},
    {"b_r", offsetof(struct ws_tmm_params, b_r),
     "B_r, requested blocks"},
    {"b_max", offsetof(struct ws_tmm_params, b_max),
     "block limit per SM"},
    {"t_max_mp", offsetof(struct ws_tmm_params, t_max_mp),
     "thread limit per SM"},
    {"scale", offsetof(struct ws_tmm_params, scale),
     "cycles per TMM time unit"},
};

static const struct ws_model_field ws_roofline_fields[] = {
    {"flops", offsetof(struct ws_roofline_params, flops),
     "FP32 operations, FMA = 2"},
    {"peak_flops", offsetof(struct ws_roofline_params, peak_flops),
     "FP32 operations per cycle, whole GPU"},
    {"dram_bytes", offsetof(struct ws_roofline_params, dram_bytes),
     "bytes that must cross DRAM"},
    {"dram_bw", offsetof(struct ws_roofline_params, dram_bw),
     "DRAM bytes per cycle"},
    {"l2_bytes", offsetof(struct ws_roofline_params, l2_bytes),
     "bytes that must cross L2"},
    {"l2_bw", offsetof(struct ws_roofline_params, l2_bw),
     "L2 bytes per cycle"},
    {"l1_bytes", offsetof(struct ws_roofline_params, l1_bytes),
     "bytes through L1"},
    {"l1_bw", offsetof(struct ws_roofline_params, l1_bw),
     "L1 bytes per cycle"},
    {"c_op", offsetof(struct ws_roofline_params, c_op),
     "arithmetic warp instructions"},
    {"c_ldst", offsetof(struct ws_roofline_params, c_ldst),
     "load/store warp instructions"},
    {"c_other", offsetof(struct ws_roofline_params, c_other),
     "other warp instructions"},
};

const struct ws_model_field *ws_model_fields(enum ws_model_kind kind, int *n)
{
    switch (kind) {
    case WS_MODEL_TMM:
        *n = (int)(sizeof ws_tmm_fields / sizeof ws_tmm_fields[0]);
        return ws_tmm_fields;
    case WS_MODEL_ROOFLINE:
        *n = (int)(sizeof ws_roofline_fields / sizeof ws_roofline_fields[0]);
        return ws_roofline_fields;
    default:
        *n = (int)(sizeof ws_mwp_fields / sizeof ws_mwp_fields[0]);
        return ws_mwp_fields;
    }
}

void ws_model_params_for(enum ws_model_kind kind, const struct ws_profile *p,
                         const struct ws_gpu *g, int l2_may_be_warm,
                         union ws_model_params *out)
{
    memset(out, 0, sizeof *out);
    if (kind == WS_MODEL_TMM)
        ws_model_params_tmm(p, g, &out->tmm);
    else if (kind == WS_MODEL_ROOFLINE)
        ws_model_params_roofline(p, g, l2_may_be_warm, &out->roofline);
    else
        ws_model_params_mwp(p, g, &out->mwp);
}

/* Finite inputs can still overflow (1e308 cycles of latency) or vanish
 * (a bandwidth of 1e-308): no number that is not a finite, non-negative
 * count of cycles is ever given as a prediction. */
static void ws_model_check_finite(struct ws_model_result *r)
{
    if (!r->applies)
        return;
    for (int i = 0; i < r->nvars; i++)
        if (!isfinite(r->vars[i].value)) {
            ws_model_skip(r, "%s overflows (expected parameters of ordinary "
                          "magnitude)", r->vars[i].name);
            return;
        }
    if (!isfinite(r->cycles) || r->cycles < 0)
        ws_model_skip(r, "the prediction is not a finite, non-negative "
                      "number of cycles (expected parameters of ordinary "
                      "magnitude)");
}

void ws_model_eval(enum ws_model_kind kind, const union ws_model_params *in,
                   struct ws_model_result *r)
{
    switch (kind) {
    case WS_MODEL_MWP: ws_model_mwp(&in->mwp, r); break;
    case WS_MODEL_MWP_L2: ws_model_mwp_l2(&in->mwp, r); break;
    case WS_MODEL_TMM: ws_model_tmm(&in->tmm, r); break;
    default: ws_model_roofline(&in->roofline, r); break;
    }
    ws_model_check_finite(r);
}

void ws_model_run_all(const struct ws_profile *p, const struct ws_gpu *g,
                      int l2_may_be_warm,
                      struct ws_model_result out[WS_MODEL_COUNT])
{
    union ws_model_params in;

    for (int k = 0; k < WS_MODEL_COUNT; k++) {
        ws_model_params_for((enum ws_model_kind)k, p, g, l2_may_be_warm, &in);
        ws_model_eval((enum ws_model_kind)k, &in, &out[k]);
    }
}
