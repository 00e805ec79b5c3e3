/*
 * ws_model_params: model parameters from a profile and a config (see
 * ws_model_params.h).  Each quantity is what its paper means by it, mapped
 * onto a GPU the paper did not have; where that mapping is a choice, the
 * comment says which and why.
 */
#include "ws_model_params.h"

#include <math.h>
#include <string.h>

#include "config/ws_occupancy.h"

static double ws_per_warp(const struct ws_profile *p, double sum)
{
    return p->warps ? sum / (double)p->warps : 0;
}

static double ws_ghz(const struct ws_gpu *g)
{
    return g->core_mhz / 1000.0;
}

/* SMs with work: a grid smaller than the GPU leaves the rest idle. */
static double ws_active_sms(const struct ws_profile *p, const struct ws_gpu *g)
{
    return p->ctas < g->sm.count ? (double)p->ctas : g->sm.count;
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

/* Bytes an SM port moves per core cycle (icnt.bandwidth_per_sm). */
static double ws_port_bytes(const struct ws_gpu *g)
{
    return g->icnt.bandwidth_per_sm / ws_ghz(g);
}

/* ---- MWP/CWP ------------------------------------------------------------ */

/* The issue time of one warp's instructions on its sub-core, and of the
 * same instructions on the SM: a sub-core issues one instruction a cycle
 * (two, from two warps, where it dual-issues) and each pipe takes a warp
 * instruction every `interval` cycles, so the time is the larger of the
 * issue slots and the busiest pipe's occupancy, FP64 work at the FP64 rate
 * and so on.  One warp issues once a cycle at most; the SM's sub-cores
 * share the work of many. */
static void ws_issue_time(const struct ws_profile *p, const struct ws_gpu *g,
                          double *warp_cycles, double *sm_cycles)
{
    double pipe[WS_UNIT_COUNT] = {0}, slots = 0, busiest = 0;

    for (int c = 0; c < WS_OPC_COUNT; c++) {
        double n = ws_per_warp(p, (double)p->by_class[c]);
        enum ws_unit_kind u = ws_unit_for_class(c);
        slots += n;
        pipe[u] += n * g->unit[u].interval;
    }
    for (int u = 0; u < WS_UNIT_COUNT; u++)
        busiest = fmax(busiest, pipe[u]);
    *warp_cycles = fmax(slots, busiest);
    *sm_cycles = fmax(slots / (g->sched.dual_issue ? 2 : 1), busiest)
                 / g->sm.sub_cores;
}

/* The kernel's uncoalesced and coalesced transactions in the config's
 * unit (ws_cfg_transaction): the papers' 128-byte block (a line) or a
 * 32-byte sector.  MWP/CWP and TMM count the same transaction. */
static void ws_unit_transactions(const struct ws_profile_model *m,
                                 const struct ws_gpu *g, uint64_t *uncoal,
                                 uint64_t *coal)
{
    int lines = ws_cfg_transaction(g) == g->l1.line;

    *uncoal = lines ? m->uncoal_lines : m->uncoal_sectors;
    *coal = lines ? m->coal_lines : m->coal_sectors;
}

/* #Uncoal_per_mw and #Coal_per_mw, in that unit. */
static void ws_transactions(const struct ws_profile *p, const struct ws_gpu *g,
                            struct ws_mwp_params *out)
{
    const struct ws_profile_model *m = &p->model;
    uint64_t uncoal, coal;

    ws_unit_transactions(m, g, &uncoal, &coal);
    out->transaction_bytes = (double)ws_cfg_transaction(g);
    out->uncoal_per_mw = m->uncoal_insts
                             ? (double)uncoal / (double)m->uncoal_insts
                             : 0;
    out->coal_per_mw = m->coal_insts ? (double)coal / (double)m->coal_insts : 0;
}

/* Departure delays as the simulator's probe measured them for this config
 * (timing/ws_probe.h: the slope of a chase hop's time against one warp's
 * transactions, and of a copy's against its warps), or as the config sets
 * them.  Where neither has (the probe could not run), they come from the
 * SM port's bandwidth, an estimate, and departure_measured says so. */
static void ws_departure(const struct ws_gpu *g, struct ws_mwp_params *out)
{
    double port = (double)ws_cfg_transaction(g) / ws_port_bytes(g);

    out->departure_measured = g->model.departure_del_uncoal > 0
                              && g->model.departure_del_coal > 0;
    out->departure_del_uncoal = g->model.departure_del_uncoal > 0
                                    ? g->model.departure_del_uncoal
                                    : port;
    out->departure_del_coal =
        g->model.departure_del_coal > 0
            ? g->model.departure_del_coal
            : port * (out->coal_per_mw > 0 ? out->coal_per_mw : 1);
}

void ws_model_params_mwp(const struct ws_profile *p, const struct ws_gpu *g,
                         struct ws_mwp_params *out)
{
    const struct ws_profile_model *m = &p->model;
    double mem = (double)m->mem_insts, warp, sm;

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
                           ? 1.0
                                 - (double)m->read.n
                                       / (double)m->read_sector_refs
                           : 0;
    ws_transactions(p, g, out);
    ws_departure(g, out);
    /* Bytes moved, not requested: a strided warp moves whole sectors, and
     * stores move bytes too (Hong & Kim's 128 bytes are a coalesced warp's
     * 32 words; eq 6 is a bandwidth ceiling on what crosses the bus). */
    out->load_bytes_per_warp = mem > 0 ? (double)(m->coal_sectors
                                                  + m->uncoal_sectors)
                                             * (double)g->l2.sector / mem
                                       : 0;
    out->active_sms = ws_active_sms(p, g);
    ws_issue_time(p, g, &warp, &sm);
    /* Per instruction of #Total_insts, so that Issue_cycles x #Total_insts
     * is the time of all of the warp's instructions. */
    mem += (double)m->sync_insts;
    out->comp_insts = ws_per_warp(p, (double)p->warp_insts - mem);
    out->uncoal_insts = ws_per_warp(p, (double)m->uncoal_insts);
    out->coal_insts = ws_per_warp(p, (double)m->coal_insts);
    out->synch_insts = ws_per_warp(p, (double)m->sync_insts);
    {
        double total = out->comp_insts + out->uncoal_insts + out->coal_insts;
        out->issue_cycles = total > 0 ? sm / total : 0;
        out->issue_cycles_warp = total > 0 ? warp / total : 0;
    }
    out->first_comp_period_insts = ws_per_warp(p, (double)m->first_comp_insts);
    out->threads_per_block = ws_launch_threads(&p->launch);
    out->blocks = (double)p->ctas;
    out->active_blocks_per_sm = ws_active_blocks(p, g, out->active_sms);
}

/* ---- TMM ---------------------------------------------------------------- */

void ws_model_params_tmm(const struct ws_profile *p, const struct ws_gpu *g,
                         struct ws_tmm_params *out)
{
    const struct ws_profile_model *m = &p->model;
    /* A "core" is an FP32 lane: sub-cores x their FP32 lanes per SM. */
    double q = (double)g->sm.sub_cores * g->unit[WS_UNIT_FP32].lanes;
    uint64_t uncoal, coal;
    int lim;

    memset(out, 0, sizeof *out);
    out->t1 = (double)p->thread_insts;
    out->t_inf = m->span_steps_max;
    /* M counts chunks of C grouped accesses (section II.A: C is 32 on
     * NVIDIA GPUs, a warp's words), the same transaction as MWP/CWP's. */
    ws_unit_transactions(m, g, &uncoal, &coal);
    out->m = (double)(coal + uncoal);
    out->l = g->dram.latency;
    out->q = q;
    out->p = q * g->sm.count;
    out->z = (double)g->sm.shared_mem;
    out->s_b = p->launch.shmem;
    out->r = g->sm.registers;
    out->r_t = p->launch.nregs;
    out->t_r = ws_launch_threads(&p->launch);
    out->b_r = (double)p->ctas;
    out->b_max = g->sm.max_blocks;
    out->t_max_mp = g->sm.max_threads;
    out->reg_unit = g->sm.reg_alloc_unit;
    out->smem_unit = (double)g->sm.shared_alloc_unit;
    /* Threads per core as eq 4 allots them (T = B_a x T_r / Q): a grid
     * smaller than B_a x SMs is charged once, by f_sched (eq 3), not a
     * second time by fewer threads per core. */
    out->t = ws_model_tmm_blocks(out, &lim) * out->t_r / q;
    /* TMM is a proportionality: its terms are in time steps of an ideal
     * core, and the config's model.tmm_scale, calibrated on the FP32
     * throughput microbenchmark (validate/calibrate_tmm.py), turns them
     * into the GPU's cycles. */
    out->scale = g->model.tmm_scale;
}

/* ---- Roofline ----------------------------------------------------------- */

double ws_model_dram_bytes(const struct ws_profile *p, const struct ws_gpu *g,
                           int l2_may_be_warm)
{
    const struct ws_profile_model *m = &p->model;
    double sector = (double)g->l2.sector;
    double compulsory = (double)ws_profile_compulsory_reads(p) * sector;
    double written = (double)m->written.n * sector;

    if (m->incomplete)
        return 0;
    if (l2_may_be_warm)
        compulsory = compulsory > (double)g->l2.size
                         ? compulsory - (double)g->l2.size
                         : 0;
    /* L2 writes back: written data stays there until evicted, so at most
     * an L2-full of it never reaches DRAM during the kernel. */
    if (written > (double)g->l2.size)
        compulsory += written - (double)g->l2.size;
    return compulsory;
}

/* A pipe's peak in operations per SM cycle over `sms` SMs: each sub-core's
 * unit takes a warp instruction every `interval` cycles, doing `per_inst`
 * operations. */
static double ws_peak(const struct ws_gpu *g, enum ws_unit_kind u, double sms,
                      double per_inst)
{
    return sms * g->sm.sub_cores * per_inst / g->unit[u].interval;
}

void ws_model_params_roofline(const struct ws_profile *p,
                              const struct ws_gpu *g, int l2_may_be_warm,
                              struct ws_roofline_params *out)
{
    const struct ws_profile_model *m = &p->model;
    double ghz = ws_ghz(g), sector = (double)g->l2.sector;
    double sms = ws_active_sms(p, g);
    uint64_t tensor = p->by_class[WS_OPC_TENSOR];

    memset(out, 0, sizeof *out);
    /* Peaks of the SMs the grid can occupy.  An FMA counts 2 and a packed
     * half2 FMA 4 (ws_flops.h); a tensor instruction its shape's 2mnk,
     * averaged over the kernel's tensor instructions. */
    out->flops = m->flops;
    out->peak_flops = ws_peak(g, WS_UNIT_FP32, sms, WS_WARP_SIZE * 2.0);
    out->flops_fp16 = m->flops_fp16;
    out->peak_fp16 = ws_peak(g, WS_UNIT_FP16, sms, WS_WARP_SIZE * 4.0);
    out->flops_fp64 = m->flops_fp64;
    out->peak_fp64 = ws_peak(g, WS_UNIT_FP64, sms, WS_WARP_SIZE * 2.0);
    out->flops_tensor = m->flops_tensor;
    out->peak_tensor = tensor ? ws_peak(g, WS_UNIT_TENSOR, sms,
                                        m->flops_tensor / (double)tensor)
                              : 0;
    out->dram_bytes = ws_model_dram_bytes(p, g, l2_may_be_warm);
    out->dram_bw = g->dram.bandwidth / ghz;
    /* Every distinct sector read crosses L2 once at least, and every
     * sector stored or updated atomically reaches it (L1 writes through). */
    out->l2_bytes = m->incomplete
                        ? 0
                        : ((double)m->read.n + (double)m->store_sectors)
                              * sector;
    out->l2_bw = g->l2.bandwidth / ghz;
    /* The same sectors cross the SMs' ports, reads one way and writes the
     * other, each port at icnt.bandwidth_per_sm. */
    out->port_bytes = m->incomplete
                          ? 0
                          : fmax((double)m->read.n, (double)m->store_sectors)
                                * sector;
    out->port_bw = sms * ws_port_bytes(g);
    /* No L1 bandwidth in the configs: that roof is left out. */
}

/* ---- Quantitative roofline ---------------------------------------------- */

/* The pipe of the dominant operation: the one whose work takes longest at
 * its peak (FP32 where none has work). */
static enum ws_flop_kind ws_dominant(const double *work, const double *peak)
{
    enum ws_flop_kind best = WS_FLOP_FP32;
    double tbest = 0;

    for (int k = WS_FLOP_FP32; k < WS_FLOP_KINDS; k++) {
        double t = peak[k] > 0 ? work[k] / peak[k] : 0;
        if (t > tbest) {
            best = (enum ws_flop_kind)k;
            tbest = t;
        }
    }
    return best;
}

static const int ws_flop_class[WS_FLOP_KINDS] = {-1, WS_OPC_FP32, WS_OPC_FP16,
                                                 WS_OPC_FP64, WS_OPC_TENSOR};

/* C_op, C_ldst, C_other: each class's share of the instructions D times
 * its weight W = T_SP / T_x, the FP32 rate over the class's own (its
 * pipe's interval over FP32's). */
static void ws_inst_costs(const struct ws_profile *p, const struct ws_gpu *g,
                          int op_class, struct ws_qroofline_params *out)
{
    double total = (double)p->warp_insts, sp = g->unit[WS_UNIT_FP32].interval;

    for (int c = 0; c < WS_OPC_COUNT && total > 0; c++) {
        double cost = (double)p->by_class[c] / total
                      * g->unit[ws_unit_for_class(c)].interval / sp;
        if (c == op_class)
            out->c_op += cost;
        else if (ws_opcode_class_is_memory((enum ws_op_class)c))
            out->c_ldst += cost;
        else
            out->c_other += cost;
    }
}

void ws_model_params_qroofline(const struct ws_profile *p,
                               const struct ws_gpu *g, int l2_may_be_warm,
                               struct ws_qroofline_params *out)
{
    struct ws_roofline_params r;

    memset(out, 0, sizeof *out);
    ws_model_params_roofline(p, g, l2_may_be_warm, &r);
    const double work[WS_FLOP_KINDS] = {0, r.flops, r.flops_fp16, r.flops_fp64,
                                        r.flops_tensor};
    const double peak[WS_FLOP_KINDS] = {0, r.peak_flops, r.peak_fp16,
                                        r.peak_fp64, r.peak_tensor};
    enum ws_flop_kind k = ws_dominant(work, peak);

    out->w_comp = work[k];
    /* The device's peak: the authors' kernels fill the GPU. */
    out->t_op = peak[k] * g->sm.count / ws_active_sms(p, g);
    if (k != WS_FLOP_TENSOR) {
        out->m_fp = (double)p->by_class[ws_flop_class[k]];
        out->m_fma = (double)p->model.fma_insts[k];
    }
    ws_inst_costs(p, g, ws_flop_class[k], out);
    out->w_trans = r.dram_bytes;
    out->b_mem = r.dram_bw;
    out->blocks = (double)p->ctas;
    out->sms = g->sm.count;
}

/* ---- Abstract instruction queue ----------------------------------------- */

void ws_model_params_aiq(const struct ws_profile *p, const struct ws_gpu *g,
                         struct ws_aiq_params *out)
{
    const struct ws_space_stats *gl = &p->space[WS_SPACE_GLOBAL];
    const struct ws_space_stats *sh = &p->space[WS_SPACE_SHARED];
    struct ws_mwp_params mwp;
    uint64_t mem = 0, shared_on;
    double w;

    memset(out, 0, sizeof *out);
    for (int s = 0; s < WS_SPACE_COUNT; s++)
        if (s != WS_SPACE_NONE)
            mem += p->space[s].insts;
    out->blocks = (double)p->ctas;
    out->sms = g->sm.count;
    out->gl = (double)gl->loads;
    out->sl = (double)sh->loads;
    out->gs = (double)(gl->stores + gl->atomics);
    out->cp = (double)(p->warp_insts - mem);
    /* A global access leaves the SM as Hong & Kim's departure delay says
     * (eq 15, the config's measured delays); a shared one takes a cycle
     * per bank-conflict wavefront. */
    ws_model_params_mwp(p, g, &mwp);
    w = mwp.uncoal_insts + mwp.coal_insts;
    out->c_gl = w > 0 ? (mwp.departure_del_uncoal * mwp.uncoal_per_mw
                             * mwp.uncoal_insts
                         + mwp.departure_del_coal * mwp.coal_insts)
                            / w
                      : mwp.departure_del_coal;
    out->c_gs = out->c_gl;
    shared_on = sh->insts - sh->predicated_off;
    out->c_sl = shared_on ? (double)sh->wavefronts / (double)shared_on : 1;
    out->m = (double)g->unit[WS_UNIT_FP32].lanes / g->unit[WS_UNIT_LDST].lanes;
    out->l_s = g->shared.latency;
    out->l_gs = g->l2.latency;
}
