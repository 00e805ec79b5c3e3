/*
 * ws_model_aiq: the abstract instruction queue model of Pei et al.
 * ("Iteration time prediction for CNN in multi-GPU platform: modeling and
 * analysis", IEEE Access 2019), as the blog seed (002) summarises it.  A
 * kernel runs in N_iter = ceil(blocks / SMs) block iterations; in each, an
 * SM dispatches the block's global loads (I), shared loads (M) and global
 * stores (L) one after another:
 *
 *   memory bound:   C_b = I + M + L
 *   compute bound:  C_b = I + 1 + L_S + ceil(K / m) + L
 *   C_k = C_b x N_iter + L_GS
 *
 * with K the block's computation, m = SP units / LD-ST units the ways it
 * overlaps the memory queue, L_S the shared load latency and L_GS the
 * latency of the last global store.
 *
 * Readings where the summary is silent, chosen here: the counts are per SM
 * and per iteration (the kernel's total over N_iter and the SMs in use),
 * each dispatch costs the cycles the SM's LD/ST path spends on it (c_gl,
 * c_sl, c_gs: ws_model_params.c), K counts one cycle per compute warp
 * instruction, L_S is waited only by a kernel that loads from shared
 * memory, and a kernel is compute bound when 1 + L_S + ceil(K/m) exceeds
 * M, so that C_b is the longer of the two queues.
 *
 * Leaves out: memory latency beyond the final store (the model's authors
 * time CNN layers that stream), caches, occupancy beyond one block per SM
 * per iteration.
 */
#include "ws_model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ws_model_params.h"

static int ws_model_aiq_valid(const struct ws_aiq_params *p,
                              struct ws_model_result *r)
{
    const struct {
        const char *name;
        double v;
    } in[] = {
        {"blocks", p->blocks}, {"sms", p->sms},   {"gl", p->gl},
        {"sl", p->sl},         {"gs", p->gs},     {"cp", p->cp},
        {"c_gl", p->c_gl},     {"c_sl", p->c_sl}, {"c_gs", p->c_gs},
        {"m", p->m},           {"l_s", p->l_s},   {"l_gs", p->l_gs},
    };

    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        if (!isfinite(in[i].v) || in[i].v < 0)
            return ws_model_skip(r,
                                 "%s = %g: must be finite and not "
                                 "negative",
                                 in[i].name, in[i].v);
    if (p->blocks < 1 || p->sms < 1)
        return ws_model_skip(r, "no blocks or no SMs (blocks %g, sms %g)",
                             p->blocks, p->sms);
    if (p->m <= 0)
        return ws_model_skip(r, "m = 0: the SP/LD-ST ratio divides K");
    return 1;
}

/* The authors time CNN layers: launches of many blocks, each SM taking
 * its share in several iterations. */
static void ws_model_aiq_domain(const struct ws_aiq_params *p,
                                struct ws_model_result *r)
{
    if (p->blocks < 2 * p->sms)
        ws_model_domain(r, 0,
                        "%g blocks on %g SMs: the model times "
                        "launches of several block iterations (expected "
                        "at least %g blocks)",
                        p->blocks, p->sms, 2 * p->sms);
    else
        ws_model_domain(r, 1, "several block iterations");
}

int ws_model_aiq(const struct ws_aiq_params *p, struct ws_model_result *r)
{
    double iter, used, per, i, mm, l, k, compute, cb;

    ws_model_begin(r, "aiq");
    if (!ws_model_aiq_valid(p, r))
        return 0;
    ws_model_aiq_domain(p, r);
    iter = ceil(p->blocks / p->sms);
    used = fmin(p->blocks, p->sms);
    per = iter * used;
    ws_model_var(r, "N_iter", iter);
    i = p->gl / per * p->c_gl;
    mm = p->sl / per * p->c_sl;
    l = p->gs / per * p->c_gs;
    k = p->cp / per;
    ws_model_var(r, "I", i);
    ws_model_var(r, "M", mm);
    ws_model_var(r, "L", l);
    ws_model_var(r, "K", k);
    compute = 1 + (p->sl > 0 ? p->l_s : 0) + ceil(k / p->m);
    ws_model_var(r, "compute_queue", compute);
    cb = i + l + fmax(mm, compute);
    ws_model_var(r, "C_b", cb);
    r->cycles = cb * iter + p->l_gs;
    ws_model_var(r, "C_k", r->cycles);
    snprintf(r->regime, sizeof r->regime, "%s",
             compute > mm ? "compute bound" : "memory bound");
    return 1;
}

/* ---- The model for the table (ws_model_def.h) ---- */

#define AIQ(f) offsetof(struct ws_aiq_params, f)
static const struct ws_model_field ws_model_aiq_inputs[] = {
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

_Static_assert(sizeof(struct ws_aiq_params) <= sizeof(union ws_model_params),
               "The AIQ model's inputs fit the buffer every model shares");

static void ws_model_aiq_derive(const struct ws_profile *p,
                                const struct ws_gpu *g, int l2_may_be_warm,
                                union ws_model_params *out)
{
    struct ws_aiq_params in;

    memset(&in, 0, sizeof in);
    ws_model_params_aiq(p, g, &in);
    memcpy(out, &in, sizeof in);
}

static int ws_model_aiq_evaluate(const union ws_model_params *in,
                                 struct ws_model_result *r)
{
    struct ws_aiq_params p;

    memcpy(&p, in, sizeof p);
    return ws_model_aiq(&p, r);
}

const struct ws_model_def ws_model_aiq_def = {
    .name = "aiq",
    .what = "Pei et al.'s abstract instruction queue model",
    .bound = 0,
    .fields = ws_model_aiq_inputs,
    .nfields = (int)(sizeof ws_model_aiq_inputs
                     / sizeof ws_model_aiq_inputs[0]),
    .derive = ws_model_aiq_derive,
    .evaluate = ws_model_aiq_evaluate,
};
