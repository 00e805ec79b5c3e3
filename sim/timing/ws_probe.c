/*
 * ws_probe: the simulator's own microbenchmarks (see ws_probe.h).
 */
#include "ws_probe.h"

#include <gsl/gsl_fit.h>

#include "ws_kgen.h"
#include "ws_sim.h"

/* 1 MiB and a line between hops: every hop opens another DRAM row, as a
 * random chase's hops do (the levels study's chase, and dram.latency's
 * definition: a closed or conflicting bank). */
#define WS_PROBE_HOP_BYTES (1048576 + 128)
#define WS_PROBE_BASE 0x7e0000000000ull
/* Where the copy's stores go, away from its loads. */
#define WS_PROBE_REGION (1ull << 32)

static const unsigned ws_probe_hops[2] = {16, 32};
static const unsigned ws_probe_counts[6] = {1, 2, 4, 8, 16, 32};

struct ws_probe_kernel {
    unsigned hops;  /* chase: hops; copy: 0 */
    unsigned lanes; /* chase: lanes per load */
    unsigned sector;
    uint64_t base;
};

/* One warp: `hops` dependent loads (R2 from R2), each of `lanes` lanes a
 * sector apart. */
static void ws_probe_chase(struct ws_kgen *k, uint32_t cta)
{
    const struct ws_probe_kernel *p = k->user;

    (void)cta;
    ws_kgen_warp(k, 0);
    for (unsigned h = 0; h < p->hops; h++)
        ws_kgen_mem(k, "LDG.E", 2, 2, p->lanes,
                    p->base + (uint64_t)h * WS_PROBE_HOP_BYTES, p->sector, 4);
    ws_kgen_op(k, "EXIT", -1, -1, -1);
}

/* Every warp: one coalesced load of its 32 words and their store. */
static void ws_probe_copy(struct ws_kgen *k, uint32_t cta)
{
    const struct ws_probe_kernel *p = k->user;
    uint32_t warps = ws_launch_warps_per_cta(&k->launch);

    (void)cta;
    for (uint32_t w = 0; w < warps; w++) {
        uint64_t at = p->base + (uint64_t)w * 128;
        ws_kgen_warp(k, w);
        ws_kgen_mem(k, "LDG.E", 2, 1, 32, at, 4, 4);
        ws_kgen_mem(k, "STG.E", -1, 2, 32, at + WS_PROBE_REGION / 2, 4, 4);
        ws_kgen_op(k, "EXIT", -1, -1, -1);
    }
}

/* Cycles of one generated kernel on a simulator of its own: nothing an
 * earlier probe left (DRAM rows, the refresh schedule's phase, L2) moves
 * it.  The simulator has one SM, the one the probe's single CTA runs on:
 * the memory system below it is the config's whole, and the GPU's other
 * SMs would only cost their L1s' set-up. */
static int64_t ws_probe_run(const struct ws_gpu *one_sm, ws_kgen_fn gen,
                            uint32_t threads, struct ws_probe_kernel *p,
                            struct ws_err *err)
{
    struct ws_kgen k;
    struct ws_sim sim;
    int64_t cycles;

    p->base = WS_PROBE_BASE;
    if (ws_sim_init(&sim, one_sm, NULL, err) < 0)
        return -1;
    ws_kgen_init(&k, 1, threads, gen, p);
    cycles = ws_kgen_run(&k, &sim, NULL, err);
    ws_kgen_free(&k);
    ws_sim_free(&sim);
    return cycles;
}

/* The least-squares slope of y on x: the cost of one more transaction
 * (or warp), with the constant latency and launch in the intercept. */
static double ws_probe_slope(const double *x, const double *y, int n)
{
    double c0, c1, cov00, cov01, cov11, sumsq;

    if (n < 2
        || gsl_fit_linear(x, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01,
                          &cov11, &sumsq)
               != 0)
        return 0;
    return c1;
}

/* The time per hop of a chase whose loads have `lanes` lanes. */
static int ws_probe_hop(const struct ws_gpu *g, unsigned lanes, double *hop,
                        struct ws_err *err)
{
    struct ws_probe_kernel p = {0, lanes, (unsigned)g->l2.sector, 0};
    int64_t c[2];

    for (int i = 0; i < 2; i++) {
        p.hops = ws_probe_hops[i];
        c[i] = ws_probe_run(g, ws_probe_chase, lanes, &p, err);
        if (c[i] < 0)
            return -1;
    }
    *hop = (double)(c[1] - c[0]) / (ws_probe_hops[1] - ws_probe_hops[0]);
    return 0;
}

static int ws_probe_measure(const struct ws_gpu *g, double *uncoal,
                            double *coal, struct ws_err *err)
{
    unsigned per = (unsigned)(ws_cfg_transaction(g) / g->l2.sector);
    double x[6], y[6];
    int n = 0;

    if (per < 1)
        per = 1;
    for (int i = 0; i < 6 && ws_probe_counts[i] * per <= 32; i++, n++) {
        x[n] = ws_probe_counts[i];
        if (ws_probe_hop(g, ws_probe_counts[i] * per, &y[n], err) < 0)
            return -1;
    }
    *uncoal = ws_probe_slope(x, y, n);
    for (int i = 0; i < 6; i++) {
        struct ws_probe_kernel p = {0, 32, 4, 0};
        int64_t c = ws_probe_run(g, ws_probe_copy, 32 * ws_probe_counts[i], &p,
                                 err);
        if (c < 0)
            return -1;
        x[i] = ws_probe_counts[i];
        y[i] = (double)c;
    }
    *coal = ws_probe_slope(x, y, 6);
    return 0;
}

/* The L2 the probe's simulators are given: the config's slices, lines and
 * ways, but at most 1 MiB of sets.  The probe's kernels touch a few hundred
 * lines, every one a cold miss, so the L2's size does not move what they
 * measure, while setting up H100's 50 MiB of tags twenty times would cost
 * more than the run it serves. */
#define WS_PROBE_L2 (1u << 20)

int ws_probe_departure(const struct ws_gpu *g, double *uncoal, double *coal,
                       struct ws_err *err)
{
    struct ws_gpu one_sm = *g;
    uint64_t set_bytes = g->l2.line * g->l2.assoc * g->l2.slices;

    one_sm.sm.count = 1;
    if (set_bytes > 0 && g->l2.size > WS_PROBE_L2 && set_bytes <= WS_PROBE_L2)
        one_sm.l2.size = WS_PROBE_L2 / set_bytes * set_bytes;
    return ws_probe_measure(&one_sm, uncoal, coal, err);
}

int ws_probe_model(struct ws_gpu *g, struct ws_err *err)
{
    double uncoal, coal;

    if (g->model.departure_del_uncoal > 0 && g->model.departure_del_coal > 0)
        return 0;
    if (ws_probe_departure(g, &uncoal, &coal, err) < 0)
        return -1;
    /* A slope at or below 0 (no queueing at all) is no delay a model can
     * divide by: the least the SM can do is one request a cycle. */
    if (g->model.departure_del_uncoal <= 0)
        g->model.departure_del_uncoal = uncoal > 0 ? uncoal : 1;
    if (g->model.departure_del_coal <= 0)
        g->model.departure_del_coal = coal > 0 ? coal : 1;
    return 0;
}

void ws_probe_model_or_estimate(struct ws_gpu *g)
{
    struct ws_err scratch;

    ws_err_clear(&scratch);
    ws_probe_model(g, &scratch);
}
