/*
 * ws_model_qroofline: the quantitative roofline predictor of Konstantinidis
 * & Cotronis ("A quantitative roofline model for GPU kernel performance
 * estimation using micro-benchmarks and hardware metric profiling", JPDC
 * 2017), as the blog seed (002) summarises it:
 *
 *   E_mix  = (M_fp + M_fma) / (2 M_fp)          operation-mix efficiency
 *   C_x    = D_x x W_x, D_x = I_x / I_total, W_x = T_SP / T_x
 *   E_inst = C_op / (C_op + C_ldst + C_other)   instruction-mix efficiency
 *   T'_op  = E_mix x E_inst x T_op              the kernel's compute peak
 *   O_krn  = W_comp / W_trans,  O_dev = T'_op / B_mem
 *   throughput = T'_op (O_krn >= O_dev, compute bound)
 *              = O_krn x B_mem (memory bound)
 *
 * and the time is W_comp over the throughput, i.e. max(W_comp / T'_op,
 * W_trans / B_mem).  A predictor, not a bound: E_inst charges every
 * non-arithmetic instruction against the arithmetic peak, as if the pipes
 * did not overlap.
 *
 * Leaves out: the micro-benchmarked peaks (the config's are used: warpsim
 * has no GPU to measure) and where the counts come from
 * (ws_model_params.c).  A kernel with no arithmetic is timed by its
 * traffic alone (W_trans / B_mem), which is the memory-bound formula at
 * W_comp -> 0.
 */
#include "ws_model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ws_model_params.h"

static int ws_model_qroofline_valid(const struct ws_qroofline_params *p,
                                    struct ws_model_result *r)
{
    const struct {
        const char *name;
        double v;
    } in[] = {
        {"w_comp", p->w_comp},   {"t_op", p->t_op},       {"m_fp", p->m_fp},
        {"m_fma", p->m_fma},     {"c_op", p->c_op},       {"c_ldst", p->c_ldst},
        {"c_other", p->c_other}, {"w_trans", p->w_trans}, {"b_mem", p->b_mem},
        {"blocks", p->blocks},   {"sms", p->sms},
    };

    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        if (!isfinite(in[i].v) || in[i].v < 0)
            return ws_model_skip(r,
                                 "%s = %g: must be finite and not "
                                 "negative",
                                 in[i].name, in[i].v);
    if (p->m_fma > p->m_fp)
        return ws_model_skip(r,
                             "m_fma (%g) exceeds m_fp (%g): FMAs are "
                             "among the instructions",
                             p->m_fma, p->m_fp);
    if (p->w_comp > 0 && (p->t_op <= 0 || p->c_op <= 0))
        return ws_model_skip(r,
                             "arithmetic without a peak or an "
                             "instruction share (t_op %g, c_op %g)",
                             p->t_op, p->c_op);
    if (p->w_trans > 0 && p->b_mem <= 0)
        return ws_model_skip(r, "DRAM traffic without DRAM bandwidth");
    if (p->w_comp <= 0 && p->w_trans <= 0)
        return ws_model_skip(r, "no arithmetic and no DRAM traffic: "
                                "nothing the model times");
    return 1;
}

/* The authors time whole-GPU kernels: a launch that leaves SMs idle is not
 * running at any of the peaks the model scales. */
static void ws_model_qroofline_domain(const struct ws_qroofline_params *p,
                                      struct ws_model_result *r)
{
    if (p->sms > 0 && p->blocks < p->sms)
        ws_model_domain(r, 0,
                        "%g blocks on %g SMs: the peaks are the whole "
                        "GPU's",
                        p->blocks, p->sms);
    else if (p->w_comp <= 0)
        ws_model_domain(r, 0, "no arithmetic: O_krn is undefined");
    else
        ws_model_domain(r, 1, "every SM busy, arithmetic work");
}

int ws_model_qroofline(const struct ws_qroofline_params *p,
                       struct ws_model_result *r)
{
    double emix = 1, einst, top, okrn, odev, compute, memory;

    ws_model_begin(r, "qroofline");
    ws_model_qroofline_domain(p, r);
    if (!ws_model_qroofline_valid(p, r))
        return 0;
    /* The inputs the quadrant-split view plots (ws_study_quadrant.c). */
    ws_model_var(r, "W_comp", p->w_comp);
    ws_model_var(r, "W_trans", p->w_trans);
    ws_model_var(r, "T_op", p->t_op);
    ws_model_var(r, "B_mem", p->b_mem);
    if (p->m_fp > 0)
        emix = (p->m_fp + p->m_fma) / (2 * p->m_fp);
    ws_model_var(r, "E_mix", emix);
    einst = p->c_op > 0 ? p->c_op / (p->c_op + p->c_ldst + p->c_other) : 0;
    ws_model_var(r, "E_inst", einst);
    top = emix * einst * p->t_op;
    ws_model_var(r, "T'_op", top);
    compute = p->w_comp > 0 ? p->w_comp / top : 0;
    memory = p->w_trans > 0 ? p->w_trans / p->b_mem : 0;
    ws_model_var(r, "compute_cycles", compute);
    ws_model_var(r, "memory_cycles", memory);
    if (p->w_comp > 0 && p->w_trans > 0) {
        okrn = p->w_comp / p->w_trans;
        odev = top / p->b_mem;
        ws_model_var(r, "O_krn", okrn);
        ws_model_var(r, "O_dev", odev);
    }
    r->cycles = fmax(compute, memory);
    snprintf(r->regime, sizeof r->regime, "%s",
             compute >= memory ? "compute bound (O_krn >= O_dev)"
                               : "memory bound (O_krn < O_dev)");
    return 1;
}

/* ---- The model for the table (ws_model_def.h) ---- */

#define QR(f) offsetof(struct ws_qroofline_params, f)
static const struct ws_model_field ws_model_qroofline_inputs[] = {
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

_Static_assert(sizeof(struct ws_qroofline_params)
                   <= sizeof(union ws_model_params),
               "The quantitative roofline's inputs fit the buffer every "
               "model shares");

static void ws_model_qroofline_derive(const struct ws_profile *p,
                                      const struct ws_gpu *g,
                                      int l2_may_be_warm,
                                      union ws_model_params *out)
{
    struct ws_qroofline_params in;

    memset(&in, 0, sizeof in);
    ws_model_params_qroofline(p, g, l2_may_be_warm, &in);
    memcpy(out, &in, sizeof in);
}

static int ws_model_qroofline_evaluate(const union ws_model_params *in,
                                       struct ws_model_result *r)
{
    struct ws_qroofline_params p;

    memcpy(&p, in, sizeof p);
    return ws_model_qroofline(&p, r);
}

const struct ws_model_def ws_model_qroofline_def = {
    .name = "qroofline",
    .what = "Konstantinidis & Cotronis's quantitative roofline "
            "predictor",
    .bound = 0,
    .fields = ws_model_qroofline_inputs,
    .nfields = (int)(sizeof ws_model_qroofline_inputs
                     / sizeof ws_model_qroofline_inputs[0]),
    .derive = ws_model_qroofline_derive,
    .evaluate = ws_model_qroofline_evaluate,
};
