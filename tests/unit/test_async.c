/*
 * Property tests of Hopper's asynchronous pipeline in the timing model
 * (timing/ws_async.h), on the H100 config: a dependent chain of wgmma
 * takes its turn on the tensor pipe per instruction (N/2 cycles for
 * m64nNk16), two warpgroups on one SM share the pipe and take twice as
 * long, an mbarrier wait ends exactly when the last transaction byte of a
 * TMA load lands, a wait for more bytes than arrive never ends (an error,
 * not a hang), and TMA copies never beat DRAM bandwidth.
 */
#include <stdlib.h>
#include <string.h>

#include "config/ws_config.h"
#include "trace/ws_async_op.h"
#include "ws_synth.h"
#include "ws_test.h"

static struct ws_gpu h100(void)
{
    struct ws_gpu g;

    ws_test_config(&g, "h100");
    return g;
}

static void synth_init90(struct ws_synth *k, uint32_t ctas, uint32_t threads,
                         ws_synth_gen gen, const void *user)
{
    ws_synth_init(k, ctas, threads, gen, user);
    k->g.launch.sm_version = 90;
}

/* ---- wgmma chains ------------------------------------------------------ */

struct chain {
    unsigned n;
    const char *op;
};

static void gen_wgmma(struct ws_synth *k, uint32_t cta)
{
    const struct chain *c = k->user;
    uint32_t warps = ws_launch_warps_per_cta(&k->g.launch);

    (void)cta;
    for (uint32_t w = 0; w < warps; w++) {
        ws_synth_warp(k, w);
        ws_synth_op(k, "WARPGROUP.ARRIVE", -1, -1, -1);
        for (unsigned i = 0; i < c->n; i++)
            ws_synth_op(k, c->op, 24, 24, -1);
        ws_synth_op(k, "WARPGROUP.DEPBAR.LE", -1, -1, -1)->imm = 0;
        ws_synth_op(k, "EXIT", -1, -1, -1);
    }
}

static uint64_t run_wgmma(const struct ws_gpu *g, const char *op, unsigned n,
                          uint32_t warpgroups, struct ws_kernel_stats *st)
{
    struct chain c = {n, op};
    struct ws_synth k;
    uint64_t cycles;

    synth_init90(&k, 1, 128 * warpgroups, gen_wgmma, &c);
    cycles = ws_synth_run(&k, g, st);
    ws_synth_free(&k);
    return cycles;
}

static void test_wgmma_chain(void **state)
{
    struct ws_gpu g = h100();
    const char *n256 = "HGMMA.64x256x16.F32";
    const char *n128 = "HGMMA.64x128x16.F32";
    uint64_t a = run_wgmma(&g, n256, 100, 1, NULL);
    uint64_t b = run_wgmma(&g, n256, 200, 1, NULL);

    (void)state;
    /* [LUO] Table VIII: m64n256k16 128 cycles; N/2 per instruction from
     * the config's 2048 multiply-adds per SM per cycle. */
    assert_int_equal(b - a, 100 * 128);
    assert_int_equal(run_wgmma(&g, n128, 200, 1, NULL)
                         - run_wgmma(&g, n128, 100, 1, NULL),
                     100 * 64);
    /* The chain is the whole kernel, less a few issue cycles. */
    assert_true(b >= 200 * 128 && b < 200 * 128 + 32);
    /* Below N = 64 the pipe's minimum turn holds. */
    assert_int_equal(run_wgmma(&g, "HGMMA.64x16x16.F32", 200, 1, NULL)
                         - run_wgmma(&g, "HGMMA.64x16x16.F32", 100, 1, NULL),
                     100 * g.wgmma.min_interval);
    /* fp8 does twice the work per cycle with twice the K: the same turn. */
    assert_int_equal(run_wgmma(&g, "QGMMA.64x256x32.F32.E4M3.E4M3", 200, 1,
                               NULL)
                         - run_wgmma(&g, "QGMMA.64x256x32.F32.E4M3.E4M3", 100,
                                     1, NULL),
                     100 * 128);
}

static void test_wgmma_shared_pipe(void **state)
{
    struct ws_gpu g = h100();
    struct ws_kernel_stats st;
    const char *op = "HGMMA.64x256x16.F32";
    uint64_t one = run_wgmma(&g, op, 200, 1, NULL);
    uint64_t two = run_wgmma(&g, op, 200, 2, &st);

    (void)state;
    /* Every warpgroup of the SM shares its four quarters: twice the work,
     * twice the time. */
    assert_int_equal(two - one, 200 * 128);
    assert_int_equal(st.ctr.v[WS_CTR_WGMMA_INST], 2 * 4 * 200);
    assert_int_equal(st.ctr.v[WS_CTR_WGMMA_PIPE_CYCLES], 2 * 4 * 200 * 128);
    ws_kernel_stats_free(&st);
}

/* ---- mbarrier and TMA -------------------------------------------------- */

#define MBAR 0x100
#define GBASE 0x10000000ull

struct tma {
    unsigned boxes;   /* per CTA */
    uint32_t rows;    /* per box, 128 bytes each */
    int64_t extra_tx; /* expected beyond the bytes sent */
};

static void put_box(struct ws_synth *k, uint64_t base, uint32_t rows)
{
    struct ws_inst *in = ws_synth_mem(k, "UTMALDG.2D", -1, -1, WS_BOX_WORDS, 0,
                                      0, 4);
    struct ws_box b = {base, 128, 0, MBAR, 128, rows, 1, 0, 0};

    ws_box_pack(&b, k->g.addrs + in->addr);
}

/* Warp 0 initialises the barrier, expects the boxes' bytes and sends the
 * boxes; warp 1 waits for phase 0, then exits. */
static void gen_tma(struct ws_synth *k, uint32_t cta)
{
    const struct tma *t = k->user;
    uint64_t bytes = (uint64_t)t->boxes * t->rows * 128;
    uint64_t base = GBASE + (uint64_t)cta * bytes;

    ws_synth_warp(k, 0);
    ws_synth_mem(k, "SYNCS.EXCH.64", -1, -1, 1, MBAR, 0, 8)->imm = 1;
    ws_synth_mem(k, "SYNCS.ARRIVE.TRANS64.A1T0", -1, -1, 1, MBAR, 0, 8)->imm =
        (int32_t)(bytes + (uint64_t)t->extra_tx);
    for (unsigned i = 0; i < t->boxes; i++)
        put_box(k, base + (uint64_t)i * t->rows * 128, t->rows);
    ws_synth_op(k, "EXIT", -1, -1, -1);
    ws_synth_warp(k, 1);
    ws_synth_mem(k, "SYNCS.PHASECHK.TRANS64.TRYWAIT", -1, -1, 1, MBAR, 0, 8)
        ->imm = 2 | 0;
    ws_synth_op(k, "EXIT", -1, -1, -1);
}

static void test_mbarrier_waits_for_last_byte(void **state)
{
    struct ws_gpu g = h100();
    struct tma t = {1, 1, 0};
    struct ws_synth k;
    struct ws_kernel_stats st;
    uint64_t tma_issue, landed, released;

    (void)state;
    /* one line: no spread around dram.latency by its L2 half */
    g.l2.far_latency = 0;
    synth_init90(&k, 1, 64, gen_tma, &t);
    (void)ws_synth_run(&k, &g, &st);
    ws_synth_free(&k);
    /* Warp 0 issues its three LD/ST-pipe instructions one unit interval
     * apart; the box's one line misses to a closed DRAM bank, so it lands
     * tma.latency + dram.latency after the copy issues (the load-to-use
     * figure of the config, as for a plain load). */
    tma_issue = 2ull * g.unit[WS_UNIT_LDST].interval;
    landed = tma_issue + g.tma.latency + g.dram.latency;
    /* Warp 1 waited from its PHASECHK at cycle 0. */
    released = st.ctr.v[WS_CTR_MBAR_WAIT_CYCLES] + 1;
    assert_int_equal(st.ctr.v[WS_CTR_MBAR_WAITS], 1);
    assert_int_equal(released, landed);
    assert_int_equal(st.ctr.v[WS_CTR_TMA_BYTES], 128);
    ws_kernel_stats_free(&st);
}

static void test_mbarrier_missing_bytes(void **state)
{
    struct ws_gpu g = h100();
    struct tma t = {2, 4, 1};
    struct ws_synth k;
    struct ws_sim sim;
    struct ws_cta_source src;
    struct ws_kernel_stats st;
    struct ws_err err;

    (void)state;
    synth_init90(&k, 1, 64, gen_tma, &t);
    src = ws_synth_source(&k);
    ws_err_clear(&err);
    assert_int_equal(ws_sim_init(&sim, &g, NULL, &err), 0);
    /* One byte more expected than sent: the phase never completes, and the
     * simulator says so instead of hanging. */
    assert_int_equal(ws_sim_kernel(&sim, &src, &st, &err), -1);
    assert_non_null(strstr(err.text, "never finished"));
    ws_kernel_stats_free(&st);
    ws_sim_close_readers(&sim);
    ws_sim_free(&sim);
    ws_synth_free(&k);
}

static void test_tma_below_dram_peak(void **state)
{
    struct ws_gpu g = h100();
    struct tma t = {8, 128, 0}; /* 8 boxes of 16 KiB per CTA */
    struct ws_synth k;
    struct ws_kernel_stats st;
    uint64_t cycles;
    double bytes, peak;

    (void)state;
    synth_init90(&k, 4 * g.sm.count, 64, gen_tma, &t);
    cycles = ws_synth_run(&k, &g, &st);
    ws_synth_free(&k);
    bytes = (double)st.ctr.v[WS_CTR_TMA_BYTES];
    assert_true(bytes == 4.0 * g.sm.count * 8 * 16384);
    assert_true(st.ctr.v[WS_CTR_DRAM_BYTES_READ] >= bytes);
    peak = g.dram.bandwidth / (g.core_mhz / 1000.0); /* bytes per cycle */
    print_message("TMA copy: %.0f B/cycle of a %.0f B/cycle DRAM peak\n",
                  bytes / (double)cycles, peak);
    assert_true(bytes / (double)cycles <= peak);
    /* A copy engine per SM keeps DRAM busy: well above a third of peak. */
    assert_true(bytes / (double)cycles > peak / 3);
    ws_kernel_stats_free(&st);
}

/* cp.async.mbarrier.arrive: ARRIVES.LDGSTSBAR arrives once the warp's
 * earlier LDGSTS have landed, so the waiter is released then. */
static void gen_ldgsts_arrive(struct ws_synth *k, uint32_t cta)
{
    (void)cta;
    ws_synth_warp(k, 0);
    ws_synth_mem(k, "SYNCS.EXCH.64", -1, -1, 1, MBAR, 0, 8)->imm = 1;
    ws_synth_mem(k, "LDGSTS.E.128", -1, 2, 1, GBASE, 0, 16);
    ws_synth_mem(k, "ARRIVES.LDGSTSBAR.64", -1, -1, 1, MBAR, 0, 8);
    ws_synth_op(k, "EXIT", -1, -1, -1);
    ws_synth_warp(k, 1);
    ws_synth_mem(k, "SYNCS.PHASECHK.TRANS64.TRYWAIT", -1, -1, 1, MBAR, 0, 8)
        ->imm = 2;
    ws_synth_op(k, "EXIT", -1, -1, -1);
}

static void test_ldgsts_arrive(void **state)
{
    struct ws_gpu g = h100();
    struct ws_synth k;
    struct ws_kernel_stats st;

    (void)state;
    g.l2.far_latency = 0; /* as in test_mbarrier_waits_for_last_byte */
    synth_init90(&k, 1, 64, gen_ldgsts_arrive, NULL);
    (void)ws_synth_run(&k, &g, &st);
    ws_synth_free(&k);
    /* The LDGSTS issues one LD/ST interval after the EXCH and misses to a
     * closed DRAM bank: its data is in dram.latency later; the waiter,
     * held from cycle 0, is released exactly then. */
    assert_int_equal(st.ctr.v[WS_CTR_MBAR_WAITS], 1);
    assert_int_equal(st.ctr.v[WS_CTR_MBAR_WAIT_CYCLES] + 1,
                     g.unit[WS_UNIT_LDST].interval + g.dram.latency);
    ws_kernel_stats_free(&st);
}

/* ---- clusters ------------------------------------------------------------ */

struct clus {
    unsigned chain; /* dependent FFMAs rank 0 runs before it arrives */
    int remote;     /* rank 1 arrives on rank 0's mbarrier instead */
    int multicast;  /* rank 0 multicasts one line to both CTAs */
};

static void gen_cluster(struct ws_synth *k, uint32_t cta)
{
    const struct clus *c = k->user;
    uint32_t rank = cta % 2;

    k->g.cta.has_cluster = 1;
    k->g.cta.cluster_id[0] = cta / 2;
    k->g.cta.cluster_rank = rank;
    ws_synth_warp(k, 0);
    if (c->remote || c->multicast) {
        ws_synth_mem(k, "SYNCS.EXCH.64", -1, -1, 1, MBAR, 0, 8)->imm = 1;
        ws_synth_op(k, "UCGABAR_ARV", -1, -1, -1);
        ws_synth_op(k, "UCGABAR_WAIT", -1, -1, -1);
    }
    if (c->multicast) {
        ws_synth_mem(k, "SYNCS.ARRIVE.TRANS64.A1T0", -1, -1, 1, MBAR, 0, 8)
            ->imm = 128;
        if (rank == 0) {
            struct ws_inst *in = ws_synth_mem(k, "UTMALDG.2D.MULTICAST", -1, -1,
                                              WS_BOX_WORDS, 0, 0, 4);
            struct ws_box b = {GBASE, 128, 0, MBAR, 128, 1, 1, 3, 0};
            ws_box_pack(&b, k->g.addrs + in->addr);
        }
        ws_synth_mem(k, "SYNCS.PHASECHK.TRANS64.TRYWAIT", -1, -1, 1, MBAR, 0, 8)
            ->imm = 2;
    } else if (c->remote) {
        if (rank == 1)
            ws_synth_mem(k, "SYNCS.ARRIVE.TRANS64.RED.A1T0", -1, -1, 1,
                         (0ull << 24) | MBAR, 0, 8);
        else
            ws_synth_mem(k, "SYNCS.PHASECHK.TRANS64.TRYWAIT", -1, -1, 1, MBAR,
                         0, 8)
                ->imm = 2;
    } else {
        for (unsigned i = 0; rank == 0 && i < c->chain; i++)
            ws_synth_op(k, "FFMA", 1, 1, 2);
        ws_synth_op(k, "UCGABAR_ARV", -1, -1, -1);
        ws_synth_op(k, "UCGABAR_WAIT", -1, -1, -1);
        for (unsigned i = 0; rank == 1 && i < c->chain; i++)
            ws_synth_op(k, "FFMA", 1, 1, 2);
    }
    ws_synth_op(k, "EXIT", -1, -1, -1);
}

static int run_cluster(const struct ws_gpu *g, const struct clus *c,
                       uint32_t clusters, struct ws_kernel_stats *st,
                       struct ws_err *err)
{
    struct ws_synth k;
    struct ws_sim sim;
    struct ws_cta_source src;
    int rc;

    synth_init90(&k, 2 * clusters, 32, gen_cluster, c);
    k.g.launch.cluster[0] = 2;
    src = ws_synth_source(&k);
    ws_err_clear(err);
    assert_int_equal(ws_sim_init(&sim, g, NULL, err), 0);
    rc = ws_sim_kernel(&sim, &src, st, err);
    if (rc < 0)
        ws_kernel_stats_free(st); /* the caller frees a run's only */
    ws_sim_close_readers(&sim);
    ws_sim_free(&sim);
    ws_synth_free(&k);
    return rc;
}

static void test_cluster_barrier(void **state)
{
    struct ws_gpu g = h100();
    struct clus c = {100, 0, 0};
    struct ws_kernel_stats st;
    struct ws_err err;
    uint64_t lat = g.unit[WS_UNIT_FP32].latency;

    (void)state;
    /* Rank 1 runs its chain only after rank 0 ran its own and arrived:
     * both chains, one after the other
     * (rank 0 arrives when its last FFMA issues, not when it is done). */
    assert_int_equal(run_cluster(&g, &c, 1, &st, &err), 0);
    assert_int_equal(st.ctr.v[WS_CTR_CLUSTER_REPLAYED], 0);
    assert_true(st.ctr.v[WS_CTR_CYCLES] >= (2 * 100 - 1) * lat);
    assert_true(st.ctr.v[WS_CTR_CYCLES] < 2 * 100 * lat + 64);
    ws_kernel_stats_free(&st);
}

static void test_cluster_remote_arrive(void **state)
{
    struct ws_gpu g = h100();
    struct clus c = {0, 1, 0};
    struct ws_kernel_stats st;
    struct ws_err err;

    (void)state;
    /* Rank 0's wait ends when rank 1's arrive has crossed the network. */
    assert_int_equal(run_cluster(&g, &c, 4, &st, &err), 0);
    assert_int_equal(st.ctr.v[WS_CTR_MBAR_WAITS], 4);
    assert_true(st.ctr.v[WS_CTR_CYCLES] > g.dsmem.latency);
    ws_kernel_stats_free(&st);
}

static void test_cluster_multicast(void **state)
{
    struct ws_gpu g = h100();
    struct clus c = {0, 0, 1};
    struct ws_kernel_stats st;
    struct ws_err err;

    (void)state;
    /* One copy feeds both CTAs' barriers: a line fetched once. */
    assert_int_equal(run_cluster(&g, &c, 1, &st, &err), 0);
    assert_int_equal(st.ctr.v[WS_CTR_TMA_BYTES], 128);
    assert_true(st.ctr.v[WS_CTR_CYCLES]
                >= g.tma.latency + g.dram.latency + g.dsmem.latency);
    ws_kernel_stats_free(&st);
}

static void test_cluster_too_big_for_gpc(void **state)
{
    /* One SM per GPC and one CTA per SM: a cluster of 2 cannot run, and the
     * simulator says so before it starts. */
    const char *sets[] = {"sm.count=4", "sm.gpcs=4", "sm.max_blocks=1"};
    struct ws_gpu g;
    struct clus c = {10, 0, 0};
    struct ws_kernel_stats st;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, "h100", sets, 3, &err), 0);
    assert_int_equal(run_cluster(&g, &c, 2, &st, &err), -1);
    assert_non_null(strstr(err.text, "a cluster of 2 CTAs cannot run"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wgmma_chain),
        cmocka_unit_test(test_wgmma_shared_pipe),
        cmocka_unit_test(test_mbarrier_waits_for_last_byte),
        cmocka_unit_test(test_mbarrier_missing_bytes),
        cmocka_unit_test(test_tma_below_dram_peak),
        cmocka_unit_test(test_ldgsts_arrive),
        cmocka_unit_test(test_cluster_barrier),
        cmocka_unit_test(test_cluster_remote_arrive),
        cmocka_unit_test(test_cluster_multicast),
        cmocka_unit_test(test_cluster_too_big_for_gpc),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
