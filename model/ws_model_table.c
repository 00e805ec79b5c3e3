/*
 * ws_model_table: the built-in models by name, their inputs by field (for
 * "warpsim model NAME --params FILE" and for printing what a profile
 * gave), evaluation, and the elasticity of each prediction to each input
 * (see ws_model_params.h).  A new model is a row in each table here.
 */
#include "ws_model_params.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static const struct {
    const char *name, *what;
} ws_models[WS_MODEL_COUNT] = {
    {"mwp_cwp", "Hong & Kim's MWP/CWP (ISCA 2009)"},
    {"mwp_cwp_l2", "Wang & Lou's L2 form of MWP/CWP, eqs 20-22 as written"},
    {"mwp_cwp_l2_reuse", "warpsim's extension of it: the L2 ratio weighted "
     "by the kernel's reuse"},
    {"tmm", "Ma, Chamberlain & Agrawal's TMM with f_sched (ASAP 2014)"},
    {"roofline", "the roofline per pipe and memory level (a lower bound)"},
    {"qroofline", "Konstantinidis & Cotronis's quantitative roofline "
     "predictor"},
    {"aiq", "Pei et al.'s abstract instruction queue model"},
};

int ws_model_find(const char *name)
{
    for (int i = 0; i < WS_MODEL_COUNT; i++)
        if (strcmp(name, ws_models[i].name) == 0)
            return i;
    return -1;
}

const char *ws_model_name(enum ws_model_kind kind)
{
    return (unsigned)kind < WS_MODEL_COUNT ? ws_models[kind].name : "?";
}

const char *ws_model_what(enum ws_model_kind kind)
{
    return (unsigned)kind < WS_MODEL_COUNT ? ws_models[kind].what : "?";
}

const char *ws_model_names(void)
{
    static char names[160];

    if (!names[0])
        for (int i = 0; i < WS_MODEL_COUNT; i++) {
            size_t n = strlen(names);
            snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                     ws_models[i].name);
        }
    return names;
}

#define MWP(f) offsetof(struct ws_mwp_params, f)
static const struct ws_model_field ws_mwp_fields[] = {
    {"freq_ghz", MWP(freq_ghz), "Freq, SM clock in GHz"},
    {"mem_bw_gbs", MWP(mem_bw_gbs), "Mem_Bandwidth, GB/s"},
    {"mem_ld", MWP(mem_ld), "Mem_LD = Mem_L2_cache_miss, cycles"},
    {"mem_l2_hit", MWP(mem_l2_hit), "Mem_L2_cache_hit, cycles (L2 form)"},
    {"l2_hit_rate", MWP(l2_hit_rate),
     "share of sector reads that reuse a sector (reuse variant, domain)"},
    {"transaction_bytes", MWP(transaction_bytes),
     "the transaction: 128 (the papers' block) or 32 (sector)"},
    {"departure_del_uncoal", MWP(departure_del_uncoal),
     "Departure_del_uncoal, cycles per transaction"},
    {"departure_del_coal", MWP(departure_del_coal),
     "Departure_del_coal, cycles per coalesced warp"},
    {"departure_measured", MWP(departure_measured),
     "1: delays measured by the config's microbenchmark, 0: estimated"},
    {"uncoal_per_mw", MWP(uncoal_per_mw), "#Uncoal_per_mw, transactions"},
    {"coal_per_mw", MWP(coal_per_mw), "#Coal_per_mw, transactions"},
    {"load_bytes_per_warp", MWP(load_bytes_per_warp),
     "Load_bytes_per_warp, bytes moved per memory warp instruction"},
    {"active_sms", MWP(active_sms), "#Active_SMs"},
    {"issue_cycles", MWP(issue_cycles),
     "Issue_cycles: SM cycles per warp instruction"},
    {"issue_cycles_warp", MWP(issue_cycles_warp),
     "one warp's own cycles per instruction (0: Issue_cycles)"},
    {"comp_insts", MWP(comp_insts), "#Comp_insts per warp"},
    {"uncoal_insts", MWP(uncoal_insts), "#Uncoal_Mem_insts per warp"},
    {"coal_insts", MWP(coal_insts), "#Coal_Mem_insts per warp"},
    {"synch_insts", MWP(synch_insts), "#Synch_insts per warp"},
    {"first_comp_period_insts", MWP(first_comp_period_insts),
     "First_comp_period_insts per warp"},
    {"threads_per_block", MWP(threads_per_block), "#Threads_per_block"},
    {"blocks", MWP(blocks), "#Blocks"},
    {"active_blocks_per_sm", MWP(active_blocks_per_sm),
     "#Active_blocks_per_SM"},
};

#define TMM(f) offsetof(struct ws_tmm_params, f)
static const struct ws_model_field ws_tmm_fields[] = {
    {"t1", TMM(t1), "T1, work: thread instructions"},
    {"t_inf", TMM(t_inf), "T_inf, span: longest chain, time steps"},
    {"m", TMM(m), "M, global memory transactions"},
    {"l", TMM(l), "L, memory latency, time steps (cycles)"},
    {"t", TMM(t), "T, threads per core: B_a x T_r / Q"},
    {"p", TMM(p), "P, cores"},
    {"q", TMM(q), "Q, cores per SM"},
    {"z", TMM(z), "Z, shared memory per SM, bytes"},
    {"s_b", TMM(s_b), "S_B, shared memory per block, bytes"},
    {"r", TMM(r), "R, registers per SM"},
    {"r_t", TMM(r_t), "R_T, registers per thread"},
    {"t_r", TMM(t_r), "T_r, threads per block"},
    {"b_r", TMM(b_r), "B_r, requested blocks"},
    {"b_max", TMM(b_max), "block limit per SM"},
    {"t_max_mp", TMM(t_max_mp), "thread limit per SM"},
    {"reg_unit", TMM(reg_unit), "registers per warp granule (0: none)"},
    {"smem_unit", TMM(smem_unit), "shared memory granule, bytes (0: none)"},
    {"scale", TMM(scale), "cycles per TMM time unit"},
};

#define ROOF(f) offsetof(struct ws_roofline_params, f)
static const struct ws_model_field ws_roofline_fields[] = {
    {"flops", ROOF(flops), "FP32 operations, FMA = 2"},
    {"peak_flops", ROOF(peak_flops), "FP32 operations per cycle"},
    {"flops_fp16", ROOF(flops_fp16), "FP16 operations (half2 FMA = 4)"},
    {"peak_fp16", ROOF(peak_fp16), "FP16 operations per cycle"},
    {"flops_fp64", ROOF(flops_fp64), "FP64 operations"},
    {"peak_fp64", ROOF(peak_fp64), "FP64 operations per cycle"},
    {"flops_tensor", ROOF(flops_tensor), "tensor operations, 2mnk each"},
    {"peak_tensor", ROOF(peak_tensor), "tensor operations per cycle"},
    {"dram_bytes", ROOF(dram_bytes), "bytes that must cross DRAM"},
    {"dram_bw", ROOF(dram_bw), "DRAM bytes per cycle"},
    {"l2_bytes", ROOF(l2_bytes), "bytes that must cross L2"},
    {"l2_bw", ROOF(l2_bw), "L2 bytes per cycle"},
    {"l1_bytes", ROOF(l1_bytes), "bytes through L1"},
    {"l1_bw", ROOF(l1_bw), "L1 bytes per cycle"},
    {"port_bytes", ROOF(port_bytes), "bytes over the SM ports, one way"},
    {"port_bw", ROOF(port_bw), "SM port bytes per cycle, one way"},
};

#define QR(f) offsetof(struct ws_qroofline_params, f)
static const struct ws_model_field ws_qroofline_fields[] = {
    {"w_comp", QR(w_comp), "W_comp, operations of the dominant type"},
    {"t_op", QR(t_op), "T_op, its peak, operations per cycle"},
    {"m_fp", QR(m_fp), "M_fp, its instructions"},
    {"m_fma", QR(m_fma), "M_fma, of them fused multiply-adds"},
    {"c_op", QR(c_op), "C_op = D_op x W_op"},
    {"c_ldst", QR(c_ldst), "C_ldst"},
    {"c_other", QR(c_other), "C_other"},
    {"w_trans", QR(w_trans), "W_trans, DRAM bytes"},
    {"b_mem", QR(b_mem), "B_mem, DRAM bytes per cycle"},
    {"blocks", QR(blocks), "blocks (domain)"},
    {"sms", QR(sms), "SMs (domain)"},
};

#define AIQ(f) offsetof(struct ws_aiq_params, f)
static const struct ws_model_field ws_aiq_fields[] = {
    {"blocks", AIQ(blocks), "thread blocks"},
    {"sms", AIQ(sms), "SMs"},
    {"gl", AIQ(gl), "GL_dispatch, global load warp instructions"},
    {"sl", AIQ(sl), "S_dispatch, shared load warp instructions"},
    {"gs", AIQ(gs), "GS_dispatch, global store warp instructions"},
    {"cp", AIQ(cp), "CP_dispatch, compute warp instructions"},
    {"c_gl", AIQ(c_gl), "cycles to dispatch a global load"},
    {"c_sl", AIQ(c_sl), "cycles to dispatch a shared load"},
    {"c_gs", AIQ(c_gs), "cycles to dispatch a global store"},
    {"m", AIQ(m), "m, SP units per LD/ST unit"},
    {"l_s", AIQ(l_s), "L_S, shared load latency"},
    {"l_gs", AIQ(l_gs), "L_GS, global store latency"},
};

#define WS_NFIELDS(t) ((int)(sizeof t / sizeof t[0]))

const struct ws_model_field *ws_model_fields(enum ws_model_kind kind, int *n)
{
    switch (kind) {
    case WS_MODEL_TMM:
        *n = WS_NFIELDS(ws_tmm_fields);
        return ws_tmm_fields;
    case WS_MODEL_ROOFLINE:
        *n = WS_NFIELDS(ws_roofline_fields);
        return ws_roofline_fields;
    case WS_MODEL_QROOFLINE:
        *n = WS_NFIELDS(ws_qroofline_fields);
        return ws_qroofline_fields;
    case WS_MODEL_AIQ:
        *n = WS_NFIELDS(ws_aiq_fields);
        return ws_aiq_fields;
    default:
        *n = WS_NFIELDS(ws_mwp_fields);
        return ws_mwp_fields;
    }
}

double ws_model_field_get(const union ws_model_params *in,
                          const struct ws_model_field *f)
{
    return *(const double *)(const void *)((const char *)in + f->offset);
}

double *ws_model_field_ptr(union ws_model_params *in,
                           const struct ws_model_field *f)
{
    return (double *)(void *)((char *)in + f->offset);
}

void ws_model_params_for(enum ws_model_kind kind, const struct ws_profile *p,
                         const struct ws_gpu *g, int l2_may_be_warm,
                         union ws_model_params *out)
{
    memset(out, 0, sizeof *out);
    switch (kind) {
    case WS_MODEL_TMM:
        ws_model_params_tmm(p, g, &out->tmm);
        break;
    case WS_MODEL_ROOFLINE:
        ws_model_params_roofline(p, g, l2_may_be_warm, &out->roofline);
        break;
    case WS_MODEL_QROOFLINE:
        ws_model_params_qroofline(p, g, l2_may_be_warm, &out->qroofline);
        break;
    case WS_MODEL_AIQ:
        ws_model_params_aiq(p, g, &out->aiq);
        break;
    default:
        ws_model_params_mwp(p, g, &out->mwp);
        break;
    }
}

/* The largest prediction given, and intermediate: beyond, a number is
 * an overflow of absurd inputs, not a time (and 10 printed digits of
 * 1.79e308 would read back as infinity). */
#define WS_MODEL_MAX_CYCLES 1e18
#define WS_MODEL_MAX_VAR 1e300

/* Finite inputs can still overflow (1e308 cycles of latency) or vanish
 * (a bandwidth of 1e-308): no number that is not a finite, non-negative
 * count of cycles is ever given as a prediction. */
static void ws_model_check_finite(struct ws_model_result *r)
{
    if (!r->applies)
        return;
    for (int i = 0; i < r->nvars; i++)
        if (!isfinite(r->vars[i].value)
            || fabs(r->vars[i].value) > WS_MODEL_MAX_VAR) {
            ws_model_skip(r, "%s overflows (expected parameters of ordinary "
                          "magnitude)", r->vars[i].name);
            return;
        }
    if (!isfinite(r->cycles) || r->cycles < 0
        || r->cycles > WS_MODEL_MAX_CYCLES)
        ws_model_skip(r, "the prediction is not a number of cycles from 0 "
                      "to 1e18 (expected parameters of ordinary "
                      "magnitude)");
}

static void ws_model_eval_once(enum ws_model_kind kind,
                               const union ws_model_params *in,
                               struct ws_model_result *r)
{
    switch (kind) {
    case WS_MODEL_MWP: ws_model_mwp(&in->mwp, r); break;
    case WS_MODEL_MWP_L2: ws_model_mwp_l2(&in->mwp, r); break;
    case WS_MODEL_MWP_L2_REUSE: ws_model_mwp_l2_reuse(&in->mwp, r); break;
    case WS_MODEL_TMM: ws_model_tmm(&in->tmm, r); break;
    case WS_MODEL_ROOFLINE: ws_model_roofline(&in->roofline, r); break;
    case WS_MODEL_QROOFLINE: ws_model_qroofline(&in->qroofline, r); break;
    default: ws_model_aiq(&in->aiq, r); break;
    }
    ws_model_check_finite(r);
}

/* The prediction at one input scaled by f, or NaN where it does not
 * apply. */
static double ws_model_at(enum ws_model_kind kind,
                          const union ws_model_params *in,
                          const struct ws_model_field *f, double scale)
{
    union ws_model_params x = *in;
    struct ws_model_result r;

    *ws_model_field_ptr(&x, f) *= scale;
    ws_model_eval_once(kind, &x, &r);
    return r.applies && r.cycles > 0 ? r.cycles : NAN;
}

/* Elasticities by central differences at +-1 %: how many percent the
 * prediction moves per percent of an input, the local slope of
 * ln(cycles) on ln(input).  Inputs at 0, those whose step leaves the
 * model's domain of application, and those where the model is not smooth
 * (a ceiling such as eq 18's warps per block, a case boundary: the slopes
 * up and down differ by more than a tenth) have none, rather than the
 * step's jump read as a slope. */
static void ws_model_elasticities(enum ws_model_kind kind,
                                  const union ws_model_params *in,
                                  struct ws_model_result *r)
{
    const double h = 0.01;
    int n;
    const struct ws_model_field *f = ws_model_fields(kind, &n);

    r->nelast = 0;
    if (!r->applies || r->cycles <= 0)
        return;
    for (int i = 0; i < n && r->nelast < WS_MODEL_MAX_ELAST; i++) {
        double up, down;
        if (!(ws_model_field_get(in, &f[i]) > 0))
            continue;
        up = ws_model_at(kind, in, &f[i], 1 + h);
        down = ws_model_at(kind, in, &f[i], 1 - h);
        if (isnan(up) || isnan(down))
            continue;
        {
            double eu = log(up / r->cycles) / log(1 + h);
            double ed = log(r->cycles / down) / -log(1 - h);
            if (fabs(eu - ed) > 0.1 * fmax(fmax(fabs(eu), fabs(ed)), 0.1))
                continue;
        }
        r->elast[r->nelast].name = f[i].name;
        r->elast[r->nelast].value = (log(up) - log(down))
                                    / (log(1 + h) - log(1 - h));
        r->nelast++;
    }
}

void ws_model_eval(enum ws_model_kind kind, const union ws_model_params *in,
                   struct ws_model_result *r)
{
    ws_model_eval_once(kind, in, r);
    ws_model_elasticities(kind, in, r);
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
