/*
 * Unit tests of the RSM analysis (sim/analyze/ws_rsm.c): OMP recovers a
 * planted sparse signal, the ensemble's RSM lies in [0, 1] and is the
 * mean of its members (eq 5), the group of the planted counters ranks
 * first, and a run is repeatable from its seed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analyze/ws_rsm.h"
#include "ws_test.h"

#define ROWS 60
#define FEAT 20

/* A random dictionary, and t = 3 d_2 - 2 d_7 (+ noise of the given
 * standard deviation). */
static void planted(double *d, double *t, double noise)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

    gsl_rng_set(rng, 7);
    for (size_t r = 0; r < ROWS; r++) {
        for (size_t j = 0; j < FEAT; j++)
            d[r * FEAT + j] = gsl_rng_uniform(rng);
        t[r] = 3 * d[r * FEAT + 2] - 2 * d[r * FEAT + 7]
               + gsl_ran_gaussian(rng, noise);
    }
    gsl_rng_free(rng);
}

static void centre(double *d, double *t)
{
    double mt = 0;

    for (size_t r = 0; r < ROWS; r++)
        mt += t[r] / ROWS;
    for (size_t r = 0; r < ROWS; r++)
        t[r] -= mt;
    for (size_t j = 0; j < FEAT; j++) {
        double m = 0;
        for (size_t r = 0; r < ROWS; r++)
            m += d[r * FEAT + j] / ROWS;
        for (size_t r = 0; r < ROWS; r++)
            d[r * FEAT + j] -= m;
    }
}

static void test_omp_planted(void **state)
{
    static double d[ROWS * FEAT], t[ROWS];
    size_t sel[FEAT], n;
    double coef[FEAT];

    (void)state;
    planted(d, t, 0.0);
    centre(d, t);
    assert_int_equal(ws_omp(d, t, ROWS, FEAT, 5, 1, NULL, sel, coef, &n), 0);
    /* Exact: two picks explain everything, and the fit stops there. */
    assert_int_equal(n, 2);
    assert_true((sel[0] == 2 && sel[1] == 7) || (sel[0] == 7 && sel[1] == 2));
    for (size_t i = 0; i < n; i++)
        assert_true(fabs(coef[i] - (sel[i] == 2 ? 3.0 : -2.0)) < 1e-9);
}

/* Counters 0-9 in group 0, 10-19 in group 1 except 2 and 7 (group 2). */
static void groups(size_t *g)
{
    for (size_t j = 0; j < FEAT; j++)
        g[j] = j < 10 ? 0 : 1;
    g[2] = g[7] = 2;
}

static void test_rsm_ensemble(void **state)
{
    static double d[ROWS * FEAT], t[ROWS];
    size_t g[FEAT];
    struct ws_rsm_in in = {ROWS, FEAT, 3, d, t, g};
    struct ws_rsm_opts o = {5, 0.5, 200, 0.8, 1.3862943611198906, 42};
    struct ws_rsm_out a, b;

    (void)state;
    planted(d, t, 0.05);
    groups(g);
    assert_int_equal(ws_rsm_run(&in, &o, &a), 0);
    for (size_t k = 0; k < 3; k++)
        assert_true(a.rsm[k] >= 0 && a.rsm[k] <= 1);
    /* The planted group explains the target; the others add noise. */
    assert_true(a.rsm[2] > a.rsm[0] && a.rsm[2] > a.rsm[1]);
    assert_true(a.rsm[2] > 0.5);
    assert_true(a.picked[2] > 0.9 && a.picked[7] > 0.9);
    /* Repeatable from the seed. */
    assert_int_equal(ws_rsm_run(&in, &o, &b), 0);
    assert_memory_equal(a.rsm, b.rsm, 3 * sizeof *a.rsm);
    ws_rsm_out_free(&b);
    /* Eq 5: with one member the RSM is that member's eq 4, and W members
     * average W such values: W = 1 and 2 runs bracket the mean of 2. */
    {
        struct ws_rsm_opts one = o, two = o;
        struct ws_rsm_out x, y;
        one.members = 1;
        two.members = 2;
        assert_int_equal(ws_rsm_run(&in, &one, &x), 0);
        assert_int_equal(ws_rsm_run(&in, &two, &y), 0);
        for (size_t k = 0; k < 3; k++) {
            double first = x.rsm[k], second = 2 * y.rsm[k] - first;
            assert_true(second >= -1e-12 && second <= 1 + 1e-12);
        }
        ws_rsm_out_free(&x);
        ws_rsm_out_free(&y);
    }
    ws_rsm_out_free(&a);
}

static void test_rsm_degenerate(void **state)
{
    static double d[ROWS * FEAT], t[ROWS];
    size_t g[FEAT];
    struct ws_rsm_in in = {2, FEAT, 3, d, t, g};
    struct ws_rsm_opts o = {5, 0.5, 10, 1.0, 1.3862943611198906, 1};
    struct ws_rsm_out out;

    (void)state;
    groups(g);
    planted(d, t, 0);
    /* Too few runs to fit. */
    assert_int_equal(ws_rsm_run(&in, &o, &out), -1);
    /* A constant target: every RSM is 0. */
    in.nrows = ROWS;
    for (size_t r = 0; r < ROWS; r++)
        t[r] = 1.5;
    assert_int_equal(ws_rsm_run(&in, &o, &out), 0);
    for (size_t k = 0; k < 3; k++)
        assert_true(out.rsm[k] == 0);
    ws_rsm_out_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_omp_planted),
        cmocka_unit_test(test_rsm_ensemble),
        cmocka_unit_test(test_rsm_degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
