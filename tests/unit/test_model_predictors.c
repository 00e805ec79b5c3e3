/*
 * Unit tests of the blog seed's two time predictors: the quantitative
 * roofline (model/ws_model_qroofline.c) and the abstract instruction queue
 * (model/ws_model_aiq.c): each case and its regime, the domain, and the
 * inputs refused.  Every expected value is worked by hand beside it.
 */
#include <math.h>
#include <string.h>

#include "ws_model.h"
#include "ws_test.h"

/* 1e6 operations at a peak of 1000 a cycle; 100 instructions of the
 * dominant type, 60 of them FMAs: E_mix = (100 + 60) / 200 = 0.8; C_op
 * 0.5, C_ldst 0.3, C_other 0.2: E_inst = 0.5; T'_op = 0.8 x 0.5 x 1000 =
 * 400 a cycle, so the arithmetic takes 2500 cycles.  1e5 bytes at 100 a
 * cycle take 1000: O_krn = 1e6 / 1e5 = 10 >= O_dev = 400 / 100 = 4,
 * compute bound at 2500. */
static struct ws_qroofline_params qbase(void)
{
    struct ws_qroofline_params p;

    memset(&p, 0, sizeof p);
    p.w_comp = 1e6;
    p.t_op = 1000;
    p.m_fp = 100;
    p.m_fma = 60;
    p.c_op = 0.5;
    p.c_ldst = 0.3;
    p.c_other = 0.2;
    p.w_trans = 1e5;
    p.b_mem = 100;
    p.blocks = 160;
    p.sms = 80;
    return p;
}

static void test_qroofline(void **state)
{
    struct ws_qroofline_params p = qbase();
    struct ws_model_result r;

    (void)state;
    assert_int_equal(ws_model_qroofline(&p, &r), 1);
    ws_test_near(r.cycles, 2500, "compute bound");
    ws_test_model_var(&r, "E_mix", 0.8, -1);
    ws_test_model_var(&r, "E_inst", 0.5, -1);
    ws_test_model_var(&r, "T'_op", 400, -1);
    ws_test_model_var(&r, "O_krn", 10, -1);
    ws_test_model_var(&r, "O_dev", 4, -1);
    assert_string_equal(r.regime, "compute bound (O_krn >= O_dev)");
    assert_int_equal(r.in_domain, 1);
    /* 5e5 bytes: 5000 cycles, O_krn = 2 < 4: memory bound. */
    p.w_trans = 5e5;
    assert_int_equal(ws_model_qroofline(&p, &r), 1);
    ws_test_near(r.cycles, 5000, "memory bound");
    assert_string_equal(r.regime, "memory bound (O_krn < O_dev)");
    /* No arithmetic: the traffic alone, outside the domain. */
    p.w_comp = 0;
    assert_int_equal(ws_model_qroofline(&p, &r), 1);
    ws_test_near(r.cycles, 5000, "traffic only");
    assert_int_equal(r.in_domain, 0);
    /* A launch on 40 of 80 SMs is outside it too. */
    p = qbase();
    p.blocks = 40;
    assert_int_equal(ws_model_qroofline(&p, &r), 1);
    assert_int_equal(r.in_domain, 0);
    assert_non_null(strstr(r.domain, "40 blocks on 80 SMs"));
    /* No E_mix without a count of the type's instructions (tensor). */
    p = qbase();
    p.m_fp = p.m_fma = 0;
    assert_int_equal(ws_model_qroofline(&p, &r), 1);
    ws_test_model_var(&r, "E_mix", 1, -1);
    ws_test_near(r.cycles, 2000, "E_mix 1");
}

static void test_qroofline_skips(void **state)
{
    struct ws_qroofline_params p;
    struct ws_model_result r;

    (void)state;
    p = qbase();
    p.m_fma = 200;
    assert_int_equal(ws_model_qroofline(&p, &r), 0);
    assert_non_null(strstr(r.why, "m_fma (200) exceeds m_fp"));
    p = qbase();
    p.w_comp = p.w_trans = 0;
    assert_int_equal(ws_model_qroofline(&p, &r), 0);
    p = qbase();
    p.b_mem = 0;
    assert_int_equal(ws_model_qroofline(&p, &r), 0);
    p = qbase();
    p.t_op = NAN;
    assert_int_equal(ws_model_qroofline(&p, &r), 0);
}

/* 160 blocks on 80 SMs: N_iter = 2, 160 SM-iterations.  Per SM and
 * iteration: I = 1600 / 160 x 2 = 20, M = 3200 / 160 x 1 = 20, L = 160 /
 * 160 x 2 = 2, K = 16000 / 160 = 100, m = 2: the compute queue is 1 + 20
 * + ceil(50) = 71 > M: compute bound, C_b = 20 + 2 + 71 = 93, C_k = 93 x 2
 * + 200 = 386.  With 16000 shared loads, M = 100 > 71: memory bound, C_b =
 * 20 + 100 + 2 = 122, C_k = 444. */
static struct ws_aiq_params abase(void)
{
    struct ws_aiq_params p;

    memset(&p, 0, sizeof p);
    p.blocks = 160;
    p.sms = 80;
    p.gl = 1600;
    p.sl = 3200;
    p.gs = 160;
    p.cp = 16000;
    p.c_gl = 2;
    p.c_sl = 1;
    p.c_gs = 2;
    p.m = 2;
    p.l_s = 20;
    p.l_gs = 200;
    return p;
}

static void test_aiq(void **state)
{
    struct ws_aiq_params p = abase();
    struct ws_model_result r;

    (void)state;
    assert_int_equal(ws_model_aiq(&p, &r), 1);
    ws_test_near(r.cycles, 386, "compute bound");
    ws_test_model_var(&r, "N_iter", 2, -1);
    ws_test_model_var(&r, "I", 20, -1);
    ws_test_model_var(&r, "M", 20, -1);
    ws_test_model_var(&r, "L", 2, -1);
    ws_test_model_var(&r, "K", 100, -1);
    ws_test_model_var(&r, "C_b", 93, -1);
    assert_string_equal(r.regime, "compute bound");
    assert_int_equal(r.in_domain, 1);
    p.sl = 16000;
    assert_int_equal(ws_model_aiq(&p, &r), 1);
    ws_test_near(r.cycles, 444, "memory bound");
    assert_string_equal(r.regime, "memory bound");
    /* No shared loads: nothing waits L_S; 1 + 0 + 50 = 51, C_b = 73, C_k
     * = 346. */
    p = abase();
    p.sl = 0;
    assert_int_equal(ws_model_aiq(&p, &r), 1);
    ws_test_near(r.cycles, 346, "no shared loads");
    /* Fewer blocks than two iterations' worth: outside its domain. */
    p = abase();
    p.blocks = 100;
    assert_int_equal(ws_model_aiq(&p, &r), 1);
    assert_int_equal(r.in_domain, 0);
    p.m = 0;
    assert_int_equal(ws_model_aiq(&p, &r), 0);
    assert_non_null(strstr(r.why, "m = 0"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qroofline),
        cmocka_unit_test(test_qroofline_skips),
        cmocka_unit_test(test_aiq),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
