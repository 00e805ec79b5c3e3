/*
 * ws_model_roofline: the roofline (Williams, Waterman & Patterson, CACM
 * 2009) with one roof per level of the memory hierarchy, as in the
 * cache-aware roofline (Lopes et al., ISPASS 2017), in SM cycles:
 *
 *   time >= max(flops / peak_flops, dram_bytes / dram_bw,
 *               l2_bytes / l2_bw, l1_bytes / l1_bw)
 *
 * A lower bound, not a predictor: the simulator must never beat it.  A
 * roof counts only when the config gives it a positive peak.  Beside the
 * bound it records the arithmetic intensities, the ridge points and the
 * compute roof of the quantitative roofline (Konstantinidis & Cotronis,
 * JPDC 2017), whose peak is scaled by the instruction-mix efficiency
 * E_inst; that variant is an intermediate only, because it is an estimate,
 * not a bound.
 *
 * Leaves out: Konstantinidis & Cotronis's operation-mix efficiency E_mix,
 * which needs the count of FMA instructions among the FP32 instructions
 * (our flops count an FMA as 2 but do not say how many there were); it is
 * taken as 1 and recorded as not computed (E_mix_computed = 0).  Also left
 * out: ceilings below the roofs (bank conflicts, divergence) and where the
 * counts come from (ws_model_params.c).
 */
#include "ws_model.h"

#include <math.h>
#include <stdio.h>

/* One roof: work over peak. */
struct ws_model_roofline_roof {
    const char *name;           /* for the regime */
    const char *cycles_var;     /* the roof's time */
    const char *ai_var;         /* flops per byte at this level, or NULL */
    const char *ridge_var;      /* peak_flops / bandwidth, or NULL */
    double work, peak;
};

static int ws_model_roofline_valid(const struct ws_roofline_params *p,
                                   struct ws_model_result *r)
{
    const struct { const char *name; double v; } in[] = {
        {"flops", p->flops}, {"peak_flops", p->peak_flops},
        {"dram_bytes", p->dram_bytes}, {"dram_bw", p->dram_bw},
        {"l2_bytes", p->l2_bytes}, {"l2_bw", p->l2_bw},
        {"l1_bytes", p->l1_bytes}, {"l1_bw", p->l1_bw},
        {"c_op", p->c_op}, {"c_ldst", p->c_ldst}, {"c_other", p->c_other},
    };

    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        if (!isfinite(in[i].v) || in[i].v < 0)
            return ws_model_skip(r, "%s = %g: must be finite and not "
                                 "negative", in[i].name, in[i].v);
    return 1;
}

/* A memory roof's arithmetic intensity (flops per byte crossing that
 * level: Williams et al.'s operational intensity, for DRAM) and ridge
 * point (the intensity where the roof meets the compute roof). */
static void ws_model_roofline_ratios(const struct ws_roofline_params *p,
                                     const struct ws_model_roofline_roof *m,
                                     struct ws_model_result *r)
{
    if (m->work > 0)
        ws_model_var(r, m->ai_var, p->flops / m->work);
    if (p->peak_flops > 0)
        ws_model_var(r, m->ridge_var, p->peak_flops / m->peak);
}

/* The quantitative roofline's compute roof (Konstantinidis & Cotronis,
 * as summarized in the "black-box and white-box" notes):
 *   E_inst = C_op / (C_op + C_ldst + C_other)
 *   T'_op  = E_mix * E_inst * T_op
 * with E_mix taken as 1 (see the top of the file). */
static void ws_model_roofline_quantitative(const struct ws_roofline_params *p,
                                           struct ws_model_result *r,
                                           double mem_bound)
{
    double c = p->c_op + p->c_ldst + p->c_other, einst, q;

    ws_model_var(r, "E_mix_computed", 0);
    if (c <= 0)
        return;                 /* no instruction mix given */
    einst = p->c_op / c;
    ws_model_var(r, "E_inst", einst);
    if (p->peak_flops <= 0 || (einst <= 0 && p->flops > 0))
        return;                 /* no compute roof to scale */
    q = p->flops > 0 ? p->flops / (p->peak_flops * einst) : 0;
    ws_model_var(r, "compute_quantitative_cycles", q);
    /* Their prediction: T'_op when compute bound, O_krn * B_mem when
     * memory bound, i.e. the time max(W / T'_op, bytes / B_mem). */
    ws_model_var(r, "quantitative_cycles", fmax(q, mem_bound));
}

int ws_model_roofline(const struct ws_roofline_params *p,
                      struct ws_model_result *r)
{
    const struct ws_model_roofline_roof roof[] = {
        {"compute", "compute_cycles", NULL, NULL, p->flops, p->peak_flops},
        {"DRAM", "dram_cycles", "ai_dram", "ridge_dram",
         p->dram_bytes, p->dram_bw},
        {"L2", "l2_cycles", "ai_l2", "ridge_l2", p->l2_bytes, p->l2_bw},
        {"L1", "l1_cycles", "ai_l1", "ridge_l1", p->l1_bytes, p->l1_bw},
    };
    const int nroof = (int)(sizeof roof / sizeof roof[0]);
    double bound = 0, mem_bound = 0, t;
    int bind = -1, any = 0;

    ws_model_begin(r, "roofline");
    if (!ws_model_roofline_valid(p, r))
        return 0;
    for (int i = 0; i < nroof; i++)
        any |= roof[i].work > 0;
    if (!any)
        return ws_model_skip(r, "no flops and no bytes: nothing to bound");

    /* time >= work / peak for every roof with a positive peak; the first
     * of equal roofs names the regime. */
    for (int i = 0; i < nroof; i++) {
        if (roof[i].peak <= 0)
            continue;
        t = roof[i].work / roof[i].peak;
        ws_model_var(r, roof[i].cycles_var, t);
        if (i > 0) {
            ws_model_roofline_ratios(p, &roof[i], r);
            mem_bound = fmax(mem_bound, t);
        }
        if (bind < 0 || t > bound) {
            bound = t;
            bind = i;
        }
    }
    if (bind < 0 || bound == 0)
        return ws_model_skip(r, "no roof has both work and a positive "
                             "peak: the work lies on levels the config "
                             "gives no peak");
    ws_model_roofline_quantitative(p, r, mem_bound);
    r->cycles = bound;
    snprintf(r->regime, sizeof r->regime, "%s bound", roof[bind].name);
    return 1;
}
