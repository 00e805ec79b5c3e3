/*
 * ws_model_roofline: the roofline (Williams, Waterman & Patterson, CACM
 * 2009) with one roof per level of the memory hierarchy, as in the
 * cache-aware roofline (Lopes et al., ISPASS 2017), and one compute roof
 * per pipe, in SM cycles:
 *
 *   time >= max(flops_k / peak_k for each pipe k (FP32, FP16, FP64,
 *               tensor), dram_bytes / dram_bw, l2_bytes / l2_bw,
 *               l1_bytes / l1_bw, port_bytes / port_bw)
 *
 * The pipes run side by side, so the bound is the largest of their times,
 * not their sum.  A lower bound, not a predictor: the simulator must never
 * beat it.  A roof counts only when it has a positive peak.  Peaks are
 * those of the SMs the grid can occupy (a launch of 4 CTAs cannot use 80
 * SMs' FP32 units, nor their ports to L2).  Beside the bound it records
 * the arithmetic intensities and ridge points.
 *
 * Leaves out: ceilings below the roofs (bank conflicts, divergence), the
 * quantitative roofline's efficiencies (its own model,
 * ws_model_qroofline.c) and where the counts come from
 * (ws_model_params.c).
 */
#include "ws_model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ws_model_params.h"

/* One roof: work over peak. */
struct ws_model_roofline_roof {
    const char *name;       /* for the regime */
    const char *cycles_var; /* the roof's time */
    const char *ai_var;     /* flops per byte at this level, or NULL */
    const char *ridge_var;  /* peak_flops / bandwidth, or NULL */
    double work, peak;
};

static int ws_model_roofline_valid(const struct ws_roofline_params *p,
                                   struct ws_model_result *r)
{
    const struct {
        const char *name;
        double v;
    } in[] = {
        {"flops", p->flops},
        {"peak_flops", p->peak_flops},
        {"flops_fp16", p->flops_fp16},
        {"peak_fp16", p->peak_fp16},
        {"flops_fp64", p->flops_fp64},
        {"peak_fp64", p->peak_fp64},
        {"flops_tensor", p->flops_tensor},
        {"peak_tensor", p->peak_tensor},
        {"dram_bytes", p->dram_bytes},
        {"dram_bw", p->dram_bw},
        {"l2_bytes", p->l2_bytes},
        {"l2_bw", p->l2_bw},
        {"l1_bytes", p->l1_bytes},
        {"l1_bw", p->l1_bw},
        {"port_bytes", p->port_bytes},
        {"port_bw", p->port_bw},
    };

    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        if (!isfinite(in[i].v) || in[i].v < 0)
            return ws_model_skip(r,
                                 "%s = %g: must be finite and not "
                                 "negative",
                                 in[i].name, in[i].v);
    return 1;
}

/* A memory roof's arithmetic intensity (FP32 flops per byte crossing that
 * level: Williams et al.'s operational intensity, for DRAM) and ridge
 * point (the intensity where the roof meets the FP32 roof). */
static void ws_model_roofline_ratios(const struct ws_roofline_params *p,
                                     const struct ws_model_roofline_roof *m,
                                     struct ws_model_result *r)
{
    if (!m->ai_var)
        return;
    if (m->work > 0)
        ws_model_var(r, m->ai_var, p->flops / m->work);
    if (p->peak_flops > 0)
        ws_model_var(r, m->ridge_var, p->peak_flops / m->peak);
}

/* The compute roofs come first: ws_model_roofline counts them apart. */
#define WS_ROOF_COMPUTE 4

int ws_model_roofline(const struct ws_roofline_params *p,
                      struct ws_model_result *r)
{
    const struct ws_model_roofline_roof roof[] = {
        {"FP32 compute", "compute_cycles", NULL, NULL, p->flops, p->peak_flops},
        {"FP16 compute", "fp16_cycles", NULL, NULL, p->flops_fp16,
         p->peak_fp16},
        {"FP64 compute", "fp64_cycles", NULL, NULL, p->flops_fp64,
         p->peak_fp64},
        {"tensor compute", "tensor_cycles", NULL, NULL, p->flops_tensor,
         p->peak_tensor},
        {"DRAM", "dram_cycles", "ai_dram", "ridge_dram", p->dram_bytes,
         p->dram_bw},
        {"L2", "l2_cycles", "ai_l2", "ridge_l2", p->l2_bytes, p->l2_bw},
        {"L1", "l1_cycles", "ai_l1", "ridge_l1", p->l1_bytes, p->l1_bw},
        {"SM port", "port_cycles", NULL, NULL, p->port_bytes, p->port_bw},
    };
    const int nroof = (int)(sizeof roof / sizeof roof[0]);
    double bound = 0, t;
    int bind = -1, any = 0;

    ws_model_begin(r, "roofline");
    ws_model_domain(r, 1, "it holds for every kernel");
    if (!ws_model_roofline_valid(p, r))
        return 0;
    for (int i = 0; i < nroof; i++)
        any |= roof[i].work > 0;
    if (!any)
        return ws_model_skip(r, "no flops and no bytes: nothing to bound");

    /* time >= work / peak for every roof with a positive peak; the first
     * of equal roofs names the regime. */
    for (int i = 0; i < nroof; i++) {
        if (roof[i].peak <= 0
            || (i < WS_ROOF_COMPUTE && roof[i].work <= 0 && i > 0))
            continue;
        t = roof[i].work / roof[i].peak;
        ws_model_var(r, roof[i].cycles_var, t);
        if (i >= WS_ROOF_COMPUTE)
            ws_model_roofline_ratios(p, &roof[i], r);
        if (bind < 0 || t > bound) {
            bound = t;
            bind = i;
        }
    }
    if (bind < 0 || bound == 0)
        return ws_model_skip(r, "no roof has both work and a positive "
                                "peak: the work lies on levels the config "
                                "gives no peak");
    r->cycles = bound;
    snprintf(r->regime, sizeof r->regime, "%s bound", roof[bind].name);
    return 1;
}

/* ---- The model for the table (ws_model_def.h) ---- */

#define ROOF(f) offsetof(struct ws_roofline_params, f)
static const struct ws_model_field ws_model_roofline_inputs[] = {
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

_Static_assert(sizeof(struct ws_roofline_params)
                   <= sizeof(union ws_model_params),
               "The roofline's inputs fit the buffer every model shares");

static void ws_model_roofline_derive(const struct ws_profile *p,
                                     const struct ws_gpu *g, int l2_may_be_warm,
                                     union ws_model_params *out)
{
    struct ws_roofline_params in;

    memset(&in, 0, sizeof in);
    ws_model_params_roofline(p, g, l2_may_be_warm, &in);
    memcpy(out, &in, sizeof in);
}

static int ws_model_roofline_evaluate(const union ws_model_params *in,
                                      struct ws_model_result *r)
{
    struct ws_roofline_params p;

    memcpy(&p, in, sizeof p);
    return ws_model_roofline(&p, r);
}

const struct ws_model_def ws_model_roofline_def = {
    .name = "roofline",
    .what = "the roofline per pipe and memory level (a lower bound)",
    .bound = 1,
    .fields = ws_model_roofline_inputs,
    .nfields = (int)(sizeof ws_model_roofline_inputs
                     / sizeof ws_model_roofline_inputs[0]),
    .derive = ws_model_roofline_derive,
    .evaluate = ws_model_roofline_evaluate,
};
