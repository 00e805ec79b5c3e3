/*
 * Unit tests of sim/report/ws_sol.c, the Nsight-style utilisation and
 * occupancy view.  Kernels are made by hand on the H100 config, so every
 * number has a value worked out here: a pipe's busy share of the active
 * sub-core cycles, the theoretical occupancy and the limiter the launch
 * was built to hit, waves and the last wave's fill, and each hint's
 * trigger on one side of its threshold and not on the other.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "config/ws_config.h"
#include "config/ws_occupancy.h"
#include "report/ws_sol.h"
#include "stats/ws_kernel_stats.h"
#include "ws_test.h"

static struct ws_gpu ws_test_h100;

static int setup_gpu(void **state)
{
    (void)state;
    ws_test_config(&ws_test_h100, "h100");
    return 0;
}

/* A launch of grid x 256 threads at nregs registers per thread. */
static void sol_kernel(struct ws_kernel_stats *k, uint32_t grid, uint32_t nregs)
{
    memset(k, 0, sizeof *k);
    k->launch.grid[0] = grid;
    k->launch.grid[1] = k->launch.grid[2] = 1;
    k->launch.block[0] = 256;
    k->launch.block[1] = k->launch.block[2] = 1;
    k->launch.nregs = nregs;
    k->ctas_total = grid;
    ws_occupancy_compute(&ws_test_h100, &k->launch, &k->occ);
    k->ctr.v[WS_CTR_CYCLES] = 10000;
    k->ctr.v[WS_CTR_SM_CYCLES_ACTIVE] = 10000 * (uint64_t)ws_test_h100.sm.count;
    k->ctr.v[WS_CTR_INST] = 1000;
}

static int sol_has_hint(const struct ws_sol *s, const char *want)
{
    for (int i = 0; i < s->nhints; i++)
        if (strstr(s->hint[i], want))
            return 1;
    return 0;
}

/* 255 registers x 256 threads: 8 warps of 255 x 32 rounded to 256 x 32
 * registers = 65,536 per CTA, so one CTA of 8 warps fits in the SM's
 * 64 Ki registers: 8 of 64 warp slots, 12.5 %, limited by registers. */
static void test_sol_register_limit(void **state)
{
    struct ws_kernel_stats k;
    struct ws_sol s;

    (void)state;
    sol_kernel(&k, 1056, 255);
    assert_int_equal(k.occ.limit, WS_OCC_REGISTERS);
    assert_int_equal(k.occ.ctas_per_sm, 1);
    ws_sol_derive(&ws_test_h100, &k, &s);
    ws_test_near(s.theoretical_occ_pct, 12.5, "theoretical occupancy");
    assert_true(sol_has_hint(&s, "limited by registers (1 CTA per SM)"));
    /* 1056 CTAs on 132 slots: exactly 8 waves, the last one full */
    ws_test_near(s.waves, 8.0, "waves");
    ws_test_near(s.last_wave_pct, 100.0, "last wave");
    assert_false(sol_has_hint(&s, "waves:"));
}

/* 32 registers: the thread limit binds (2048 / 256 = 8 CTAs, 100 %); no
 * occupancy hint. */
static void test_sol_full_occupancy(void **state)
{
    struct ws_kernel_stats k;
    struct ws_sol s;

    (void)state;
    sol_kernel(&k, 1056 * 8, 32);
    ws_sol_derive(&ws_test_h100, &k, &s);
    ws_test_near(s.theoretical_occ_pct, 100.0, "theoretical occupancy");
    assert_false(sol_has_hint(&s, "theoretical occupancy"));
}

/* The FP32 pipe held 90 % of the active sub-core cycles is named the
 * busiest and the bottleneck; at 70 % it is the busiest, not a bound;
 * at 50 %, with memory idle, the kernel is latency-bound. */
static void test_sol_busiest_pipe(void **state)
{
    struct ws_kernel_stats k;
    struct ws_sol s;
    uint64_t sub = 10000 * (uint64_t)ws_test_h100.sm.count
                   * ws_test_h100.sm.sub_cores;

    (void)state;
    sol_kernel(&k, 1056, 32);
    k.ctr.v[WS_CTR_PIPE_FP32_CYCLES] = sub * 9 / 10;
    k.ctr.v[WS_CTR_PIPE_INT_CYCLES] = sub / 10;
    ws_sol_derive(&ws_test_h100, &k, &s);
    assert_int_equal(s.busiest, WS_UNIT_FP32);
    ws_test_near(s.pipe_pct[WS_UNIT_FP32], 90.0, "fp32 busy");
    ws_test_near(s.pipe_pct[WS_UNIT_INT], 10.0, "int busy");
    assert_true(sol_has_hint(&s, "the fp32 pipe is busy 90.0%"));
    k.ctr.v[WS_CTR_PIPE_FP32_CYCLES] = sub * 7 / 10;
    ws_sol_derive(&ws_test_h100, &k, &s);
    assert_int_equal(s.busiest, WS_UNIT_FP32);
    assert_false(sol_has_hint(&s, "pipe is busy"));
    assert_false(sol_has_hint(&s, "latency-bound"));
    /* under 60 % everywhere: nothing is near its peak */
    k.ctr.v[WS_CTR_PIPE_FP32_CYCLES] = sub / 2;
    ws_sol_derive(&ws_test_h100, &k, &s);
    assert_true(sol_has_hint(&s, "latency-bound"));
}

/* 4 CTAs on 132 SMs: the grid fills 3 % of them; 1.25 waves: the last a
 * quarter full, with its tail named. */
static void test_sol_grid_and_waves(void **state)
{
    struct ws_kernel_stats k;
    struct ws_sol s;

    (void)state;
    sol_kernel(&k, 4, 32);
    ws_sol_derive(&ws_test_h100, &k, &s);
    ws_test_near(s.grid_sm_pct, 100.0 * 4 / 132, "grid share of SMs");
    assert_true(sol_has_hint(&s, "the grid of 4 CTAs fills 3% of the 132"));
    sol_kernel(&k, 1056 + 264, 32);
    k.ctr.v[WS_CTR_TAIL_CYCLES] = 2500;
    ws_sol_derive(&ws_test_h100, &k, &s);
    ws_test_near(s.waves, 1.25, "waves");
    ws_test_near(s.last_wave_pct, 25.0, "last wave");
    assert_true(sol_has_hint(&s, "1.25 waves: the last is 25% full"));
    assert_true(sol_has_hint(&s, "(25.0% of the cycles)"));
}

/* DRAM at 75 % of 3352 GB/s over 10,000 cycles at the core clock. */
static void test_sol_dram_bound(void **state)
{
    struct ws_kernel_stats k;
    struct ws_sol s;
    double us;

    (void)state;
    sol_kernel(&k, 1056, 32);
    us = 10000.0 / ws_test_h100.core_mhz;
    k.ctr.v[WS_CTR_DRAM_BYTES_READ] = (uint64_t)(0.75 * us * 1e3
                                                 * ws_test_h100.dram.bandwidth);
    ws_sol_derive(&ws_test_h100, &k, &s);
    assert_true(s.dram_pct > 74.99 && s.dram_pct < 75.01);
    assert_true(sol_has_hint(&s, "bandwidth-bound"));
    assert_false(sol_has_hint(&s, "latency-bound"));
}

/* Every L2 sector crosses the interconnect: 70 % of what the active SMs'
 * links carry names it the bound; shares never pass 100 %. */
static void test_sol_icnt_bound(void **state)
{
    struct ws_kernel_stats k;
    struct ws_sol s;
    double us;

    (void)state;
    sol_kernel(&k, 1056, 32);
    us = (double)k.ctr.v[WS_CTR_SM_CYCLES_ACTIVE] / ws_test_h100.core_mhz;
    k.ctr.v[WS_CTR_L2_SECTORS_READ] =
        (uint64_t)(0.7 * us * 1e3 * ws_test_h100.icnt.bandwidth_per_sm
                   / (double)ws_test_h100.l2.sector);
    ws_sol_derive(&ws_test_h100, &k, &s);
    assert_true(s.icnt_pct > 69.9 && s.icnt_pct < 70.1);
    assert_true(sol_has_hint(&s, "the interconnect at 70.0%"));
    k.ctr.v[WS_CTR_L2_SECTORS_READ] *= 10;
    k.ctr.v[WS_CTR_L1_SECTORS] = k.ctr.v[WS_CTR_SM_CYCLES_ACTIVE] * 100;
    ws_sol_derive(&ws_test_h100, &k, &s);
    ws_test_near(s.icnt_pct, 100.0, "interconnect share, capped");
    ws_test_near(s.l1_pct, 100.0, "L1 share, capped");
    assert_true(sol_has_hint(&s, "L1/shared at 100.0%"));
}

/* The JSON names the numbers as Nsight Compute does where it can. */
static void test_sol_json_names(void **state)
{
    struct ws_kernel_stats k;
    json_t *o, *lim;

    (void)state;
    sol_kernel(&k, 1056, 255);
    o = ws_sol_json(&ws_test_h100, &k);
    assert_non_null(o);
    ws_test_near(json_real_value(
                     json_object_get(o,
                                     "sm__maximum_warps_per_active_cycle_pct")),
                 12.5, "theoretical occupancy in JSON");
    assert_non_null(json_object_get(
        o, "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"));
    assert_non_null(
        json_object_get(o,
                        "dram__throughput.avg.pct_of_peak_sustained_elapsed"));
    lim = json_object_get(o, "occupancy_limits");
    assert_int_equal(json_integer_value(
                         json_object_get(lim,
                                         "launch__occupancy_limit_registers")),
                     1);
    assert_true(json_array_size(json_object_get(o, "hints")) >= 1);
    json_decref(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sol_register_limit),
        cmocka_unit_test(test_sol_full_occupancy),
        cmocka_unit_test(test_sol_busiest_pipe),
        cmocka_unit_test(test_sol_grid_and_waves),
        cmocka_unit_test(test_sol_dram_bound),
        cmocka_unit_test(test_sol_icnt_bound),
        cmocka_unit_test(test_sol_json_names),
    };
    return cmocka_run_group_tests(tests, setup_gpu, NULL);
}
