/*
 * Unit tests of the roofline bound (model/ws_model_roofline.c): each roof
 * binding once, each pipe's compute roof, the SM-port roof, the
 * intensities and ridge points, and the inputs with nothing to bound.
 * Every expected value is worked by hand in the comment beside it.
 */
#include <math.h>
#include <string.h>

#include "ws_model.h"
#include "ws_test.h"

/* Peaks per SM cycle: 1000 flops, DRAM 100 B, L2 200 B, L1 1000 B; ridge
 * points 1000/100 = 10, 1000/200 = 5, 1000/1000 = 1 flops per byte.
 * Work: 1e6 flops (1000 cycles), DRAM 5e4 B (500), L2 1e5 B (500), L1 1e5 B
 * (100): compute bound at 1000 cycles.  Intensities: 1e6/5e4 = 20,
 * 1e6/1e5 = 10, 1e6/1e5 = 10. */
static struct ws_roofline_params base(void)
{
    struct ws_roofline_params p;

    memset(&p, 0, sizeof p);
    p.flops = 1e6;
    p.peak_flops = 1000;
    p.dram_bytes = 5e4;
    p.dram_bw = 100;
    p.l2_bytes = 1e5;
    p.l2_bw = 200;
    p.l1_bytes = 1e5;
    p.l1_bw = 1000;
    return p;
}

static void bound(const struct ws_roofline_params *p, double cycles,
                  const char *regime)
{
    struct ws_model_result r;

    if (!ws_model_roofline(p, &r))
        fail_msg("skipped: %s", r.why);
    assert_string_equal(r.model, "roofline");
    ws_test_near(r.cycles, cycles, "cycles");
    assert_string_equal(r.regime, regime);
}

static void test_compute(void **state)
{
    struct ws_roofline_params p = base();
    struct ws_model_result r;

    (void)state;
    bound(&p, 1000, "FP32 compute bound");
    assert_int_equal(ws_model_roofline(&p, &r), 1);
    ws_test_model_var(&r, "compute_cycles", 1000, -1);
    ws_test_model_var(&r, "dram_cycles", 500, -1);
    ws_test_model_var(&r, "l2_cycles", 500, -1);
    ws_test_model_var(&r, "l1_cycles", 100, -1);
    ws_test_model_var(&r, "ai_dram", 20, -1);
    ws_test_model_var(&r, "ai_l2", 10, -1);
    ws_test_model_var(&r, "ai_l1", 10, -1);
    ws_test_model_var(&r, "ridge_dram", 10, -1);
    ws_test_model_var(&r, "ridge_l2", 5, -1);
    ws_test_model_var(&r, "ridge_l1", 1, -1);
}

/* Each memory roof above the compute roof's 1000 cycles in turn. */
static void test_memory_roofs(void **state)
{
    struct ws_roofline_params p;

    (void)state;
    p = base();
    p.dram_bytes = 2e5; /* 2e5 / 100 = 2000 cycles */
    bound(&p, 2000, "DRAM bound");
    p = base();
    p.l2_bytes = 6e5; /* 6e5 / 200 = 3000 */
    bound(&p, 3000, "L2 bound");
    p = base();
    p.l1_bytes = 5e6; /* 5e6 / 1000 = 5000 */
    bound(&p, 5000, "L1 bound");

    /* A level without a peak is no roof, however many bytes cross it. */
    p = base();
    p.l1_bytes = 5e6;
    p.l1_bw = 0;
    bound(&p, 1000, "FP32 compute bound");
    {
        struct ws_model_result r;

        ws_model_roofline(&p, &r);
        assert_true(isnan(ws_model_get(&r, "l1_cycles")));
        assert_true(isnan(ws_model_get(&r, "ridge_l1")));
    }

    /* No flops: DRAM alone, 5e4 / 100 = 500 (L2 500 ties, DRAM first). */
    p = base();
    p.flops = 0;
    bound(&p, 500, "DRAM bound");
}

/* Each pipe is a roof of its own, and the pipes run side by side: the
 * bound is the largest pipe time, not their sum.  FP64 4e5 ops at 200 per
 * cycle: 2000 cycles; tensor 3e6 at 1000: 3000; FP16 8e5 at 2000: 400
 * (below the FP32 roof's 1000, so FP32 binds without the others). */
static void test_pipes(void **state)
{
    struct ws_roofline_params p = base();
    struct ws_model_result r;

    (void)state;
    p.flops_fp16 = 8e5;
    p.peak_fp16 = 2000;
    bound(&p, 1000, "FP32 compute bound");
    assert_int_equal(ws_model_roofline(&p, &r), 1);
    ws_test_model_var(&r, "fp16_cycles", 400, -1);
    p.flops_fp64 = 4e5;
    p.peak_fp64 = 200;
    bound(&p, 2000, "FP64 compute bound");
    p.flops_tensor = 3e6;
    p.peak_tensor = 1000;
    bound(&p, 3000, "tensor compute bound");
    /* Tensor work alone (no FP32 at all) is still bounded: flashinfer's
     * HMMA-only prefill is not "nothing". */
    p = base();
    p.flops = 0;
    p.dram_bytes = p.l2_bytes = p.l1_bytes = 0;
    p.flops_tensor = 4096;
    p.peak_tensor = 2;
    bound(&p, 2048, "tensor compute bound");
    /* A pipe with work but no peak in the config is no roof. */
    p = base();
    p.flops_fp64 = 1e9;
    bound(&p, 1000, "FP32 compute bound");
}

/* The SM ports: 4e6 bytes one way over 1000 bytes per cycle (the SMs the
 * grid occupies) is 4000 cycles, above every other roof. */
static void test_port(void **state)
{
    struct ws_roofline_params p = base();

    (void)state;
    p.port_bytes = 4e6;
    p.port_bw = 1000;
    bound(&p, 4000, "SM port bound");
}

static void test_skips(void **state)
{
    struct ws_roofline_params p;
    struct ws_model_result r;

    (void)state;
    /* Nothing to bound. */
    p = base();
    p.flops = p.dram_bytes = p.l2_bytes = p.l1_bytes = 0;
    assert_int_equal(ws_model_roofline(&p, &r), 0);
    assert_int_equal(r.applies, 0);
    assert_non_null(strstr(r.why, "no flops and no bytes"));

    /* Work only where the config gives no peak. */
    p = base();
    p.dram_bytes = p.l2_bytes = p.l1_bytes = 0;
    p.peak_flops = 0;
    assert_int_equal(ws_model_roofline(&p, &r), 0);
    assert_non_null(strstr(r.why, "no roof has both work and a positive"));

    p = base();
    p.dram_bw = -1;
    assert_int_equal(ws_model_roofline(&p, &r), 0);
    assert_non_null(strstr(r.why, "dram_bw = -1"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compute), cmocka_unit_test(test_memory_roofs),
        cmocka_unit_test(test_pipes),   cmocka_unit_test(test_port),
        cmocka_unit_test(test_skips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
