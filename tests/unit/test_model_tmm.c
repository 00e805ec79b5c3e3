/*
 * Unit tests of the TMM model with block scheduling (model/ws_model_tmm.c,
 * Ma, Chamberlain & Agrawal, ASAP 2014, eqs 1, 3, 4, 8): each term of T_P
 * binding, each limit of B_a binding, the zigzag of f_sched in B_r, and
 * the inputs the model declines.  Every expected value is worked by hand
 * in the comment beside it.
 */
#include <math.h>
#include <string.h>

#include "ws_model.h"
#include "ws_test.h"

/* A GTX480-like SM group: P = 480 cores, Q = 32 per SM, so SMs = 15;
 * 48 KiB of shared memory, 32768 registers, 8 blocks and 1536 threads per
 * SM.  The kernel: 256 threads per block, 16 registers each, no shared
 * memory, so eq 4's candidates are
 *   registers  floor(32768 / (16 * 256)) = 8
 *   blocks     8
 *   threads    floor(1536 / 256)         = 6   <- B_a = 6
 * and B_r = 90 = 6 * 15 fills every SM once: f_sched = 1.
 * Work T1 = 480000 (T1/P = 1000), span 10, M = 480 transactions of
 * L = 400 cycles at T = 2 threads per core: M*L/(T*P) = 192000/960 = 200. */
static struct ws_tmm_params base(void)
{
    struct ws_tmm_params p;

    memset(&p, 0, sizeof p);
    p.t1 = 480000;
    p.t_inf = 10;
    p.m = 480;
    p.l = 400;
    p.t = 2;
    p.p = 480;
    p.q = 32;
    p.z = 49152;
    p.s_b = 0;
    p.r = 32768;
    p.r_t = 16;
    p.t_r = 256;
    p.b_r = 90;
    p.b_max = 8;
    p.t_max_mp = 1536;
    p.scale = 1;
    return p;
}

static void applies(const struct ws_tmm_params *p, struct ws_model_result *r)
{
    if (!ws_model_tmm(p, r))
        fail_msg("skipped: %s", r->why);
    assert_string_equal(r->model, "tmm");
}

static void skips(const struct ws_tmm_params *p, const char *want)
{
    struct ws_model_result r;

    assert_int_equal(ws_model_tmm(p, &r), 0);
    assert_int_equal(r.applies, 0);
    ws_test_near(r.cycles, 0, "cycles");
    if (!strstr(r.why, want))
        fail_msg("why '%s' lacks '%s'", r.why, want);
}

/* Work binds.  eq8_factor = ceil(32*90/(6*480)) * 6/(32*90) = 1/480;
 * eq 8 = max(480000, 480*400/2 = 96000) / 480 = 1000 = T1/P. */
static void test_work(void **state)
{
    struct ws_tmm_params p = base();
    struct ws_model_result r;

    (void)state;
    applies(&p, &r);
    ws_test_model_var(&r, "B_a_regs", 8, -1);
    ws_test_model_var(&r, "B_a_max", 8, -1);
    ws_test_model_var(&r, "B_a_threads", 6, -1);
    assert_true(isnan(ws_model_get(&r, "B_a_smem"))); /* S_B = 0 */
    ws_test_model_var(&r, "B_a", 6, -1);
    ws_test_model_var(&r, "SMs", 15, -1);
    ws_test_model_var(&r, "T1/P", 1000, -1);
    ws_test_model_var(&r, "T_inf", 10, -1);
    ws_test_model_var(&r, "M*L/(T*P)", 200, -1);
    ws_test_model_var(&r, "T_P", 1000, -1);
    ws_test_model_var(&r, "passes", 1, -1);
    ws_test_model_var(&r, "f_sched", 1, -1);
    ws_test_model_var(&r, "eq8_factor", 1.0 / 480, -1);
    ws_test_model_var(&r, "eq8", 1000, -1);
    ws_test_model_var(&r, "scale", 1, -1);
    ws_test_near(r.cycles, 1000, "cycles");
    assert_string_equal(r.regime, "work T1/P; B_a = 6, limited by threads");

    /* The scale multiplies the whole prediction: 2 * 1000. */
    p.scale = 2;
    applies(&p, &r);
    ws_test_near(r.cycles, 2000, "scaled cycles");
}

/* Memory binds: M = 4800, so M*L/(T*P) = 4800*400/(2*480) = 2000 and
 * eq 8 = max(480000, 960000) / 480 = 2000. */
static void test_memory(void **state)
{
    struct ws_tmm_params p = base();
    struct ws_model_result r;

    (void)state;
    p.m = 4800;
    applies(&p, &r);
    ws_test_model_var(&r, "M*L/(T*P)", 2000, -1);
    ws_test_model_var(&r, "T_P", 2000, -1);
    ws_test_model_var(&r, "eq8", 2000, -1);
    ws_test_near(r.cycles, 2000, "cycles");
    assert_string_equal(r.regime,
                        "memory M*L/(T*P); B_a = 6, limited by threads");
}

/* Span binds: T_inf = 5000 > eq 8 = 1000, so T_P = 5000 and the prediction
 * is max(eq 8, T_inf) = 5000. */
static void test_span(void **state)
{
    struct ws_tmm_params p = base();
    struct ws_model_result r;

    (void)state;
    p.t_inf = 5000;
    applies(&p, &r);
    ws_test_model_var(&r, "T_P", 5000, -1);
    ws_test_model_var(&r, "eq8", 1000, -1);
    ws_test_near(r.cycles, 5000, "cycles");
    assert_string_equal(r.regime, "span T_inf; B_a = 6, limited by threads");
}

/* Each limit of eq 4 binding once (threads: test_work). */
static void test_active_limits(void **state)
{
    struct ws_tmm_params p;
    struct ws_model_result r;

    (void)state;
    /* Shared memory: 16384 bytes a block, floor(49152/16384) = 3 < 6. */
    p = base();
    p.s_b = 16384;
    applies(&p, &r);
    ws_test_model_var(&r, "B_a_smem", 3, -1);
    ws_test_model_var(&r, "B_a", 3, -1);
    assert_non_null(strstr(r.regime, "B_a = 3, limited by shared memory"));

    /* Registers: 32 a thread, floor(32768/(32*256)) = 4 < 6. */
    p = base();
    p.r_t = 32;
    applies(&p, &r);
    ws_test_model_var(&r, "B_a_regs", 4, -1);
    ws_test_model_var(&r, "B_a", 4, -1);
    assert_non_null(strstr(r.regime, "B_a = 4, limited by registers"));

    /* The block limit: 64 threads a block gives registers
     * floor(32768/(16*64)) = 32 and threads floor(1536/64) = 24, so the
     * per-SM limit of 8 binds (not 8/15 as eq 4 prints it). */
    p = base();
    p.t_r = 64;
    applies(&p, &r);
    ws_test_model_var(&r, "B_a_regs", 32, -1);
    ws_test_model_var(&r, "B_a_threads", 24, -1);
    ws_test_model_var(&r, "B_a", 8, -1);
    assert_non_null(strstr(r.regime, "B_a = 8, limited by the block limit"));
}

/* f_sched (eq 3) as in the paper's Fig. 1: B_a = 1 (a block takes all
 * 48 KiB of shared memory), P/Q = 15, and the max term of eq 7 set to 1
 * (T1 = P = 480, M = 0, T_inf = 0), so the prediction is f_sched itself.
 * B_r one above a multiple of 15 needs one more, nearly empty, pass:
 *   B_r = 15:   ceil(15/15) * 15 / 15       = 1
 *   B_r = 16:   ceil(16/15) * 15 / 16       = 30/16   = 1.875
 *   B_r = 31:   3 * 15 / 31                 = 45/31   = 1.4516...
 *   B_r = 151:  11 * 15 / 151               = 165/151 = 1.0927...
 *   B_r = 1501: 101 * 15 / 1501             = 1515/1501 = 1.0093...
 *   B_r = 1500: 100 * 15 / 1500             = 1 */
static void test_zigzag(void **state)
{
    static const struct {
        double b_r, passes, f;
    } cases[] = {
        {15, 1, 1.0},           {16, 2, 30.0 / 16},         {31, 3, 45.0 / 31},
        {151, 11, 165.0 / 151}, {1501, 101, 1515.0 / 1501}, {1500, 100, 1.0},
    };
    struct ws_tmm_params p = base();
    struct ws_model_result r;
    double prev = INFINITY;

    (void)state;
    p.s_b = 49152;
    p.t1 = 480;
    p.m = 0;
    p.t_inf = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        p.b_r = cases[i].b_r;
        applies(&p, &r);
        ws_test_model_var(&r, "B_a", 1, -1);
        ws_test_model_var(&r, "passes", cases[i].passes, -1);
        ws_test_model_var(&r, "f_sched", cases[i].f, -1);
        /* eq 8's own form: ceil(32*B_r/480) * 1/(32*B_r) * 480 = f_sched */
        ws_test_model_var(&r, "eq8", cases[i].f, -1);
        ws_test_near(r.cycles, cases[i].f, "cycles");
        if (cases[i].f > 1) { /* the teeth shrink as B_r grows */
            assert_true(cases[i].f < prev);
            prev = cases[i].f;
        }
    }
}

static void test_skips(void **state)
{
    struct ws_tmm_params p;
    struct ws_model_result r;

    (void)state;
    /* A block larger than the SM: 2048 threads > 1536 gives B_a = 0. */
    p = base();
    p.t_r = 2048;
    skips(&p, "B_a = 0: a block's 2048 threads exceed the SM's 1536");
    p = base();
    p.s_b = 65536;
    skips(&p, "65536 bytes of shared memory exceed the SM's 49152");
    p = base();
    p.r_t = 255; /* 255 * 256 = 65280 > 32768 */
    skips(&p, "65280 registers exceed the SM's 32768");
    p = base();
    p.b_max = 0;
    skips(&p, "block limit is 0");

    /* A divisor of zero. */
    p = base();
    p.p = 0;
    skips(&p, "no cores");
    p = base();
    p.q = 0;
    skips(&p, "no cores");
    p = base();
    p.t = 0;
    skips(&p, "T = 0");
    p = base();
    p.t_r = 0;
    skips(&p, "T_r = 0");
    p = base();
    p.r_t = 0;
    skips(&p, "R_T = 0");
    p = base();
    p.b_r = 0;
    skips(&p, "B_r = 0");

    /* Nonsense inputs. */
    p = base();
    p.t1 = -1;
    skips(&p, "t1 = -1");
    p = base();
    p.l = NAN;
    skips(&p, "l = nan");

    /* No calibrated scale: no number, but the shape is still recorded. */
    p = base();
    p.scale = 0;
    assert_int_equal(ws_model_tmm(&p, &r), 0);
    assert_non_null(strstr(r.why, "scale = 0"));
    ws_test_near(ws_model_get(&r, "eq8"), 1000, "eq8");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_work),   cmocka_unit_test(test_memory),
        cmocka_unit_test(test_span),   cmocka_unit_test(test_active_limits),
        cmocka_unit_test(test_zigzag), cmocka_unit_test(test_skips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
