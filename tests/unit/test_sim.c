/*
 * Property tests of the timing model: the physics must hold for
 * any kernel, so each test builds a kernel in memory, runs it, and checks a
 * law rather than a recorded number: a dependent chain costs its latency
 * per link, a pointer chase the configured L2 or DRAM latency per hop, a
 * stream never beats DRAM bandwidth, more warps or more SMs never slow a
 * kernel down, bank conflicts cost wavefronts, a broken barrier is an error,
 * and the same run gives the same numbers.
 */
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "config/ws_config.h"
#include "timing/ws_probe.h"
#include "ws_synth.h"
#include "ws_test.h"

static struct ws_gpu gpu_of(const char *name, const char *const *sets, int n)
{
    struct ws_gpu g;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_cfg_load(&g, name, sets, n, &err) < 0)
        fail_msg("%s", err.text);
    return g;
}

/* ---- dependent and independent FFMA chains --------------------------- */

struct chain {
    unsigned n;
    int dependent;
};

static void gen_chain(struct ws_synth *k, uint32_t cta)
{
    const struct chain *c = k->user;

    (void)cta;
    ws_synth_warp(k, 0);
    for (unsigned i = 0; i < c->n; i++) {
        if (c->dependent)
            ws_synth_op(k, "FFMA", 1, 1, 2);
        else
            ws_synth_op(k, "FFMA", 10 + (int)(i % 100), 2, 3);
    }
    ws_synth_op(k, "EXIT", -1, -1, -1);
}

static uint64_t run_chain(const struct ws_gpu *g, unsigned n, int dependent)
{
    struct chain c = {n, dependent};
    struct ws_synth k;
    uint64_t cycles;

    ws_synth_init(&k, 1, 32, gen_chain, &c);
    cycles = ws_synth_run(&k, g, NULL);
    ws_synth_free(&k);
    return cycles;
}

static void test_fma_chain(void **state)
{
    const char *sets[] = {"units.fp32.latency=7"};
    struct ws_gpu g = gpu_of("v100", NULL, 0);
    struct ws_gpu g7 = gpu_of("v100", sets, 1);
    uint64_t c100 = run_chain(&g, 100, 1), c200 = run_chain(&g, 200, 1);

    (void)state;
    /* N dependent FFMAs take N x latency, plus a constant that is 0: the
     * first issues at cycle 0 and the kernel ends when the last result is
     * written (the EXIT does not wait for it). */
    assert_int_equal(c200 - c100, 100 * g.unit[WS_UNIT_FP32].latency);
    assert_int_equal(c100, 100 * g.unit[WS_UNIT_FP32].latency);
    assert_int_equal(run_chain(&g7, 200, 1) - run_chain(&g7, 100, 1), 700);
    /* Independent ones issue at the unit's rate: 16 lanes, one warp
     * instruction every 2 cycles. */
    assert_int_equal(run_chain(&g, 200, 0) - run_chain(&g, 100, 0),
                     100 * g.unit[WS_UNIT_FP32].interval);
}

/* ---- pointer chase ------------------------------------------------------ */

struct chase {
    unsigned hops;
    uint64_t base;
};

static void gen_chase(struct ws_synth *k, uint32_t cta)
{
    const struct chase *c = k->user;

    (void)cta;
    ws_synth_warp(k, 0);
    /* One lane follows the chain; each hop a new line, so L1 never hits. */
    for (unsigned i = 0; i < c->hops; i++)
        ws_synth_mem(k, "LDG.E", 2, 2, 1, c->base + 4096ull * i, 0, 4);
    ws_synth_op(k, "EXIT", -1, -1, -1);
}

static uint64_t run_chase(const struct ws_gpu *g, unsigned hops, int warm)
{
    struct chase c = {hops, 0x10000000};
    struct ws_synth k;
    struct ws_sim sim;
    struct ws_err err;
    struct ws_kernel_stats st;
    struct ws_cta_source src;
    uint64_t cycles;

    ws_synth_init(&k, 1, 32, gen_chase, &c);
    src = ws_synth_source(&k);
    ws_err_clear(&err);
    assert_int_equal(ws_sim_init(&sim, g, NULL, &err), 0);
    if (warm)
        ws_sim_memcpy(&sim, c.base, 4096ull * hops);
    assert_int_equal(ws_sim_kernel(&sim, &src, &st, &err), 0);
    cycles = st.ctr.v[WS_CTR_CYCLES];
    ws_kernel_stats_free(&st);
    ws_sim_free(&sim);
    ws_synth_free(&k);
    return cycles;
}

/* A dependent chain pays the configured load-to-use latency per hop:
 * exactly, for L2 hits and for DRAM as a latency and a bandwidth; with
 * banks (the default), between a row hit's latency (t_rcd less than a
 * closed bank's dram.latency) and a row conflict's (t_rp more) plus, at
 * most, one refresh. */
static void test_pointer_chase(void **state)
{
    /* H100's L2 halves (test_pointer_chase_halves) spread a DRAM hop
     * around dram.latency: off here, for the exact sums. */
    const char *simple[] = {"l2.far_latency=0", "dram.banked=false"};
    const char *banked[] = {"l2.far_latency=0"};

    (void)state;
    for (int i = 0; i < 2; i++) {
        struct ws_gpu g = gpu_of(i ? "h100" : "v100", simple, 2);
        double ghz = g.core_mhz / 1000.0, lo, hi;
        uint64_t hops;
        assert_int_equal(run_chase(&g, 64, 1) - run_chase(&g, 32, 1),
                         32 * g.l2.latency);
        assert_int_equal(run_chase(&g, 64, 0) - run_chase(&g, 32, 0),
                         32 * g.dram.latency);
        g = gpu_of(i ? "h100" : "v100", banked, 1);
        assert_int_equal(run_chase(&g, 64, 1) - run_chase(&g, 32, 1),
                         32 * g.l2.latency);
        hops = run_chase(&g, 64, 0) - run_chase(&g, 32, 0);
        lo = 32 * (g.dram.latency - g.dram.t_rcd * ghz) - 32;
        hi = 32 * (g.dram.latency + g.dram.t_rp * ghz) + g.dram.t_rfc * ghz
             + 32;
        if ((double)hops < lo || (double)hops > hi)
            fail_msg("32 DRAM hops took %llu cycles (expected %.0f to %.0f)",
                     (unsigned long long)hops, lo, hi);
    }
}

/* With two L2 halves (H100), a DRAM hop homed in the SM's own half is
 * the crossing faster than dram.latency and one homed in the other half
 * the crossing slower, half of each, so a long chase keeps the chase's
 * mean; L2 hits (footprint within a half) are untouched. */
static void test_pointer_chase_halves(void **state)
{
    const char *simple[] = {"dram.banked=false"};
    struct ws_gpu g = gpu_of("h100", simple, 1);
    uint64_t cross = (g.l2.far_latency - g.l2.latency) / 2;
    uint64_t prev = run_chase(&g, 16, 0), near = 0, far = 0;
    uint64_t sum;

    (void)state;
    assert_true(cross > 0);
    for (unsigned n = 17; n <= 48; n++) {
        uint64_t c = run_chase(&g, n, 0), hop = c - prev;
        if (hop == g.dram.latency - cross)
            near++;
        else if (hop == g.dram.latency + cross)
            far++;
        else
            fail_msg("hop %u took %llu cycles (expected %llu or %llu)", n,
                     (unsigned long long)hop,
                     (unsigned long long)(g.dram.latency - cross),
                     (unsigned long long)(g.dram.latency + cross));
        prev = c;
    }
    assert_true(near > 4 && far > 4);
    sum = run_chase(&g, 1040, 0) - run_chase(&g, 16, 0);
    assert_true(fabs((double)sum / 1024 - (double)g.dram.latency)
                < 0.1 * (double)cross);
    assert_int_equal(run_chase(&g, 64, 1) - run_chase(&g, 32, 1),
                     32 * g.l2.latency);
}

/* ---- streaming copy ------------------------------------------------------ */

struct stream {
    unsigned iters; /* lines per warp, 4 in flight at a time */
    uint64_t warps;
};

static void gen_copy(struct ws_synth *k, uint32_t cta)
{
    const struct stream *s = k->user;
    const uint64_t src = 0x100000000ull, dst = 0x200000000ull;

    for (uint32_t w = 0; w < 4; w++) {
        uint64_t gw = (uint64_t)cta * 4 + w;
        ws_synth_warp(k, w);
        for (unsigned i = 0; i < s->iters; i += 4) {
            for (unsigned u = 0; u < 4; u++) {
                uint64_t line = (uint64_t)(i + u) * s->warps + gw;
                ws_synth_mem(k, "LDG.E", 4 + (int)u, 2, 32, src + 128 * line, 4,
                             4);
            }
            for (unsigned u = 0; u < 4; u++) {
                uint64_t line = (uint64_t)(i + u) * s->warps + gw;
                ws_synth_mem(k, "STG.E", -1, 4 + (int)u, 32, dst + 128 * line,
                             4, 4);
            }
        }
        ws_synth_op(k, "EXIT", -1, -1, -1);
    }
}

static void test_stream_bandwidth(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        struct ws_gpu g = gpu_of(i ? "h100" : "v100", NULL, 0);
        uint32_t ctas = 4 * g.sm.count * 8;
        struct stream s = {16, (uint64_t)ctas * 4};
        struct ws_synth k;
        struct ws_kernel_stats st;
        double peak = g.dram.bandwidth / (g.core_mhz / 1000.0);
        double moved;
        ws_synth_init(&k, ctas, 128, gen_copy, &s);
        ws_synth_run(&k, &g, &st);
        moved = (double)(st.ctr.v[WS_CTR_DRAM_BYTES_READ]
                         + st.ctr.v[WS_CTR_DRAM_BYTES_WRITE])
                / (double)st.ctr.v[WS_CTR_CYCLES];
        if (moved > peak || moved < 0.75 * peak)
            fail_msg("%s: %.1f bytes/cycle, peak %.1f", g.name, moved, peak);
        ws_kernel_stats_free(&st);
        ws_synth_free(&k);
    }
}

/* ---- latency-bound kernel: more warps, fewer cycles ---------------------- */

struct chase_warps {
    unsigned hops;
};

static void gen_warp_chase(struct ws_synth *k, uint32_t cta)
{
    const struct chase_warps *c = k->user;

    ws_synth_warp(k, 0);
    for (unsigned i = 0; i < c->hops; i++)
        ws_synth_mem(k, "LDG.E", 2, 2, 32,
                     0x10000000ull + ((uint64_t)cta * c->hops + i) * 128, 4, 4);
    ws_synth_op(k, "EXIT", -1, -1, -1);
}

static void test_more_warps(void **state)
{
    struct chase_warps c = {16};
    uint64_t prev = UINT64_MAX, first = 0;
    double peak;

    (void)state;
    for (unsigned blocks = 1; blocks <= 32; blocks *= 2) {
        char set[64];
        const char *sets[] = {set, "sm.count=8"};
        struct ws_gpu g;
        struct ws_synth k;
        struct ws_kernel_stats st;
        uint64_t cycles;
        snprintf(set, sizeof set, "sm.max_blocks=%u", blocks);
        g = gpu_of("v100", sets, 2);
        peak = g.dram.bandwidth / (g.core_mhz / 1000.0);
        ws_synth_init(&k, 8 * 64, 32, gen_warp_chase, &c);
        cycles = ws_synth_run(&k, &g, &st);
        assert_true((double)st.ctr.v[WS_CTR_DRAM_BYTES_READ] / cycles <= peak);
        if (cycles > prev)
            fail_msg("%u CTAs per SM: %llu cycles, more than %llu with half",
                     blocks, (unsigned long long)cycles,
                     (unsigned long long)prev);
        if (blocks == 1)
            first = cycles;
        if (blocks == 2)
            assert_true(cycles * 10 < first * 6); /* latency bound: ~halves */
        prev = cycles;
        ws_kernel_stats_free(&st);
        ws_synth_free(&k);
    }
}

/* ---- loaded latency ------------------------------------------------------ */

/* Each warp chases its own lines (one 128-byte line per load, each load
 * waiting for the last): as warps per SM grow, the round trip stays at the
 * unloaded latency while DRAM keeps up, then rises as queues fill, and
 * the lines moved per cycle saturate at the DRAM bandwidth, never above. */
static void test_loaded_latency(void **state)
{
    struct chase_warps c = {16};
    double first = 0, prev = 0, peak = 0, moved = 0, hop = 0;

    (void)state;
    for (unsigned warps = 1; warps <= 64; warps *= 2) {
        char set[64];
        const char *sets[] = {set, "sm.max_warps=64"};
        struct ws_gpu g;
        struct ws_synth k;
        struct ws_kernel_stats st;
        uint64_t cycles;
        snprintf(set, sizeof set, "sm.max_blocks=%u", warps);
        g = gpu_of("v100", sets, 2);
        peak = g.dram.bandwidth / (g.core_mhz / 1000.0);
        ws_synth_init(&k, g.sm.count * warps, 32, gen_warp_chase, &c);
        cycles = ws_synth_run(&k, &g, &st);
        hop = (double)cycles / c.hops;
        moved = (double)st.ctr.v[WS_CTR_DRAM_BYTES_READ] / (double)cycles;
        print_message("loaded latency: %2u warps/SM, %4.0f cycles a round "
                      "trip, %5.1f of %.1f DRAM bytes/cycle\n",
                      warps, hop, moved, peak);
        if (moved > peak)
            fail_msg("%u warps/SM: %.1f bytes/cycle beat the %.1f peak", warps,
                     moved, peak);
        if (warps == 1)
            first = hop;
        else if (hop < prev * 0.98)
            fail_msg("%u warps/SM: %.0f cycles a round trip, less than %.0f "
                     "with half the warps",
                     warps, hop, prev);
        prev = hop;
        ws_kernel_stats_free(&st);
        ws_synth_free(&k);
    }
    /* 64 warps x 128 B in flight per SM is several times DRAM's
     * bandwidth-delay product: saturated, and waiting in queues. */
    if (moved < 0.8 * peak || hop < 1.5 * first)
        fail_msg("64 warps/SM: %.1f of %.1f bytes/cycle, round trip %.0f "
                 "against %.0f unloaded (expected saturation and queueing)",
                 moved, peak, hop, first);
}

/* ---- more SMs, never slower ------------------------------------------------ */

static void gen_mixed(struct ws_synth *k, uint32_t cta)
{
    for (uint32_t w = 0; w < 4; w++) {
        uint64_t base = 0x10000000ull + ((uint64_t)cta * 4 + w) * 4096;
        ws_synth_warp(k, w);
        for (int i = 0; i < 4; i++) {
            ws_synth_mem(k, "LDG.E", 4, 2, 32, base + 128 * (uint64_t)i, 4, 4);
            ws_synth_op(k, "FFMA", 5, 4, 5);
            ws_synth_op(k, "FFMA", 5, 5, 5);
            ws_synth_mem(k, "STG.E", -1, 5, 32, base + 2048 + 128 * (uint64_t)i,
                         4, 4);
        }
        ws_synth_op(k, "EXIT", -1, -1, -1);
    }
}

static void test_more_sms(void **state)
{
    uint64_t prev = UINT64_MAX;

    (void)state;
    for (unsigned sms = 5; sms <= 80; sms *= 2) {
        char set[32];
        const char *sets[] = {set};
        struct ws_gpu g;
        struct ws_synth k;
        uint64_t cycles;
        snprintf(set, sizeof set, "sm.count=%u", sms);
        g = gpu_of("v100", sets, 1);
        ws_synth_init(&k, 600, 128, gen_mixed, NULL);
        cycles = ws_synth_run(&k, &g, NULL);
        ws_synth_free(&k);
        if (cycles > prev)
            fail_msg("%u SMs: %llu cycles, more than with fewer SMs (%llu)",
                     sms, (unsigned long long)cycles, (unsigned long long)prev);
        prev = cycles;
    }
}

static void test_deterministic(void **state)
{
    struct ws_gpu g = gpu_of("a100", NULL, 0);
    struct ws_synth k;
    struct ws_kernel_stats a, b;

    (void)state;
    ws_synth_init(&k, 500, 128, gen_mixed, NULL);
    ws_synth_run(&k, &g, &a);
    ws_synth_run(&k, &g, &b);
    assert_memory_equal(&a.ctr, &b.ctr, sizeof a.ctr);
    ws_kernel_stats_free(&a);
    ws_kernel_stats_free(&b);
    ws_synth_free(&k);
}

/* ---- shared-memory bank conflicts --------------------------------------- */

static void gen_shared(struct ws_synth *k, uint32_t cta)
{
    const unsigned *stride_words = k->user;

    (void)cta;
    ws_synth_warp(k, 0);
    for (int i = 0; i < 16; i++)
        ws_synth_mem(k, "LDS", 2 + i % 8, 1, 32, 0, 4 * (int64_t)*stride_words,
                     4);
    ws_synth_op(k, "EXIT", -1, -1, -1);
}

static void test_bank_conflicts(void **state)
{
    const unsigned strides[] = {1, 2, 32};
    struct ws_gpu g = gpu_of("v100", NULL, 0);

    (void)state;
    for (int i = 0; i < 3; i++) {
        struct ws_synth k;
        struct ws_kernel_stats st;
        ws_synth_init(&k, 1, 32, gen_shared, &strides[i]);
        ws_synth_run(&k, &g, &st);
        assert_int_equal(st.ctr.v[WS_CTR_SHARED_REQUESTS], 16);
        assert_int_equal(st.ctr.v[WS_CTR_SHARED_WAVEFRONTS], 16 * strides[i]);
        assert_int_equal(st.ctr.v[WS_CTR_SHARED_BANK_CONFLICTS],
                         16 * (strides[i] - 1));
        ws_kernel_stats_free(&st);
        ws_synth_free(&k);
    }
}

/* ---- a barrier that can never complete ----------------------------------- */

/* Warps 0 and 1 meet at two barriers; warp 2 never reaches one.  With
 * late_exit it runs 40 independent FFMAs first, so the first barrier is
 * released only when it exits (PTX: exit releases a barrier that only the
 * exiting threads were holding up); otherwise it exits at once. */
static int early_exit_late;

static void gen_early_exit(struct ws_synth *k, uint32_t cta)
{
    (void)cta;
    for (uint32_t w = 0; w < 2; w++) {
        ws_synth_warp(k, w);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 5; i++)
                ws_synth_op(k, "FFMA", 10 + i, 1, 1);
            ws_synth_op(k, "BAR.SYNC", -1, -1, -1);
        }
        ws_synth_op(k, "EXIT", -1, -1, -1);
    }
    ws_synth_warp(k, 2);
    for (int i = 0; early_exit_late && i < 40; i++)
        ws_synth_op(k, "FFMA", 10 + i, 1, 1);
    ws_synth_op(k, "EXIT", -1, -1, -1);
}

/* Independent FFMAs: warp 1 needs 40 issue slots of 2 cycles before its
 * barrier, warp 0 only 10, so warp 0 waits about 60 cycles. */
static void gen_good_barrier(struct ws_synth *k, uint32_t cta)
{
    (void)cta;
    for (uint32_t w = 0; w < 2; w++) {
        ws_synth_warp(k, w);
        for (unsigned i = 0; i < (w ? 40u : 10u); i++)
            ws_synth_op(k, "FFMA", 10 + (int)i, 1, 1);
        ws_synth_op(k, "BAR.SYNC", -1, -1, -1);
        ws_synth_op(k, "EXIT", -1, -1, -1);
    }
}

static void test_barriers(void **state)
{
    struct ws_gpu g = gpu_of("v100", NULL, 0);
    struct ws_synth k;
    struct ws_kernel_stats st;
    uint64_t early, late;

    (void)state;
    ws_synth_init(&k, 1, 64, gen_good_barrier, NULL);
    assert_true(ws_synth_run(&k, &g, &st)
                >= 40 * g.unit[WS_UNIT_FP32].interval);
    assert_true(st.ctr.v[WS_CTR_STALL_BARRIER]
                >= 30 * g.unit[WS_UNIT_FP32].interval - 2);
    ws_kernel_stats_free(&st);
    ws_synth_free(&k);

    /* An exited warp is not waited for, at either barrier. */
    early_exit_late = 0;
    ws_synth_init(&k, 3, 96, gen_early_exit, NULL);
    early = ws_synth_run(&k, &g, &st);
    assert_int_equal(st.ctr.v[WS_CTR_CTAS], 3);
    ws_kernel_stats_free(&st);
    ws_synth_free(&k);
    assert_true(early < 20 * g.unit[WS_UNIT_FP32].interval);

    /* Waiting warps are released by the exit of the last one missing. */
    early_exit_late = 1;
    ws_synth_init(&k, 3, 96, gen_early_exit, NULL);
    late = ws_synth_run(&k, &g, &st);
    assert_true(late >= 40 * g.unit[WS_UNIT_FP32].interval);
    assert_true(st.ctr.v[WS_CTR_STALL_BARRIER]
                >= 2 * 30 * g.unit[WS_UNIT_FP32].interval - 4);
    ws_kernel_stats_free(&st);
    ws_synth_free(&k);
}

static void test_cta_too_big(void **state)
{
    struct ws_gpu g = gpu_of("v100", NULL, 0);
    struct ws_synth k;
    struct ws_sim sim;
    struct ws_err err;
    struct ws_kernel_stats st;
    struct ws_cta_source src;

    (void)state;
    ws_synth_init(&k, 1, 64, gen_good_barrier, NULL);
    k.g.launch.shmem = 200 * 1024;
    src = ws_synth_source(&k);
    ws_err_clear(&err);
    assert_int_equal(ws_sim_init(&sim, &g, NULL, &err), 0);
    assert_int_equal(ws_sim_kernel(&sim, &src, &st, &err), -1);
    assert_non_null(strstr(err.text, "needs more shared memory"));
    ws_kernel_stats_free(&st);
    ws_sim_free(&sim);
    ws_synth_free(&k);
}

/* A GPU whose simulator state would not fit the budget is refused before
 * anything is allocated, at the key responsible. */
static void test_state_budget(void **state)
{
    static const char *const many_sms[] = {"sm.count=50000"};
    static const char *const huge_l2[] = {"l1.line=16B", "l1.sector=4B",
                                          "l2.size=1GiB", "l2.line=16B",
                                          "l2.sector=4B"};
    struct ws_gpu g;
    struct ws_sim sim;
    struct ws_err err;

    (void)state;
    g = gpu_of("v100", many_sms, 1);
    ws_err_clear(&err);
    assert_int_equal(ws_sim_init(&sim, &g, NULL, &err), -1);
    assert_non_null(strstr(err.text, "command line:1:"));
    assert_non_null(strstr(err.text, "50000 SMs of"));
    assert_non_null(strstr(err.text, "expected at most 2048 MiB"));

    g = gpu_of("v100", huge_l2, 5);
    ws_err_clear(&err);
    assert_int_equal(ws_sim_init(&sim, &g, NULL, &err), -1);
    assert_non_null(strstr(err.text, "command line:3:"));
    assert_non_null(strstr(err.text, "lower l2.size"));

    g = gpu_of("v100", NULL, 0);
    ws_err_clear(&err);
    assert_int_equal(ws_sim_init(&sim, &g, NULL, &err), 0);
    ws_sim_free(&sim);
}

/* ---- the probe's departure delays ------------------------------------ */

/* V100's SM port moves 64 bytes a cycle (88.32 GB/s at 1.38 GHz): a
 * coalesced warp's four sectors leave 2 cycles after the previous warp's,
 * and the probe's copy measures exactly that.  Twice the port bandwidth
 * halves it, until the L1 tag pipe's line a cycle binds: the models'
 * input follows a what-if change of the hardware. */
static void test_probe_departure(void **state)
{
    static const char *const fast[] = {"icnt.bandwidth_per_sm=176.64GB/s"};
    struct ws_gpu g = gpu_of("v100", NULL, 0);
    struct ws_err err;
    double uncoal, coal, uncoal2, coal2;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_probe_departure(&g, &uncoal, &coal, &err), 0);
    assert_true(fabs(coal - 2.0) < 0.02);
    /* A block of one warp's uncoalesced load costs at least what a
     * coalesced warp's block does. */
    assert_true(uncoal >= coal);
    g = gpu_of("v100", fast, 1);
    assert_int_equal(ws_probe_departure(&g, &uncoal2, &coal2, &err), 0);
    assert_true(fabs(coal2 - 1.0) < 0.02);
    assert_true(uncoal2 > 0);
    /* A config that sets the delays keeps them. */
    g = gpu_of("v100", NULL, 0);
    g.model.departure_del_uncoal = 7;
    g.model.departure_del_coal = 3;
    assert_int_equal(ws_probe_model(&g, &err), 0);
    assert_true(g.model.departure_del_uncoal == 7
                && g.model.departure_del_coal == 3);
}

/* ---- dual issue ------------------------------------------------------- */

/* Warps 0 and 4 share sub-core 0: one streams independent FFMAs, the other
 * independent IADD3s, each unit taking a warp instruction per cycle. */
static void gen_dual(struct ws_synth *k, uint32_t cta)
{
    (void)cta;
    for (uint32_t w = 0; w < 5; w++) {
        ws_synth_warp(k, w);
        for (int i = 0; (w == 0 || w == 4) && i < 100; i++)
            ws_synth_op(k, w ? "IADD3" : "FFMA", 10 + i, 1, 2);
        ws_synth_op(k, "EXIT", -1, -1, -1);
    }
}

static void test_dual_issue(void **state)
{
    const char *single[] = {"units.fp32.lanes=32", "units.int.lanes=32"};
    const char *dual[] = {"units.fp32.lanes=32", "units.int.lanes=32",
                          "sched.dual_issue=true"};
    struct ws_gpu g1 = gpu_of("v100", single, 2), g2 = gpu_of("v100", dual, 3);
    struct ws_synth k;
    uint64_t c1, c2;

    (void)state;
    ws_synth_init(&k, 1, 160, gen_dual, NULL);
    c1 = ws_synth_run(&k, &g1, NULL);
    c2 = ws_synth_run(&k, &g2, NULL);
    ws_synth_free(&k);
    /* One issue per cycle: 200 cycles; two to different units: about 100. */
    assert_true(c1 >= 200);
    assert_true(c2 * 10 < c1 * 6);
}

/* ---- streamed warps ----------------------------------------------------- */

/* A source that hands warps out through readers (as workloads do) gives
 * the same simulation as one that hands out whole CTAs, whatever the
 * window: the simulator refills a warp's window without a trace of it in
 * the timing.  Windows of 1 and 3 instructions cross every instruction
 * kind, barriers and early exits included. */
static void test_streamed_same(void **state)
{
    static const unsigned stride_words = 2;
    struct stream st4 = {4, 200 * 4};
    struct {
        const char *gpu;
        ws_synth_gen gen;
        const void *user;
        uint32_t ctas, threads;
    } cases[] = {
        {"a100", gen_mixed, NULL, 300, 128},
        {"v100", gen_copy, &st4, 200, 128},
        {"v100", gen_shared, &stride_words, 40, 32},
        {"titanx", gen_early_exit, NULL, 20, 64},
        {"v100", gen_good_barrier, NULL, 20, 64},
    };

    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct ws_gpu g = gpu_of(cases[c].gpu, NULL, 0);
        struct ws_kernel_stats whole, part;
        struct ws_synth k;
        ws_synth_init(&k, cases[c].ctas, cases[c].threads, cases[c].gen,
                      cases[c].user);
        ws_synth_run(&k, &g, &whole);
        for (uint32_t win = 1; win <= 3; win += 2) {
            k.stream_window = win;
            ws_synth_run(&k, &g, &part);
            assert_memory_equal(&whole.ctr, &part.ctr, sizeof whole.ctr);
            assert_int_equal(whole.end, part.end);
            ws_kernel_stats_free(&part);
        }
        ws_kernel_stats_free(&whole);
        ws_synth_free(&k);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fma_chain),
        cmocka_unit_test(test_pointer_chase),
        cmocka_unit_test(test_pointer_chase_halves),
        cmocka_unit_test(test_stream_bandwidth),
        cmocka_unit_test(test_more_warps),
        cmocka_unit_test(test_loaded_latency),
        cmocka_unit_test(test_more_sms),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_streamed_same),
        cmocka_unit_test(test_bank_conflicts),
        cmocka_unit_test(test_barriers),
        cmocka_unit_test(test_cta_too_big),
        cmocka_unit_test(test_state_budget),
        cmocka_unit_test(test_dual_issue),
        cmocka_unit_test(test_probe_departure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
