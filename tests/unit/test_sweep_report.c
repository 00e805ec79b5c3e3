/*
 * Unit tests of sim/report/ws_sweep_report: the within (fixed-effects)
 * elasticity estimator on synthetic power laws, and the markdown report
 * on small tables: axis ranking, failed rows, multi-kernel points, axes
 * that are not numbers, an unknown target.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/ws_sweep_report.h"
#include "util/ws_csv.h"
#include "ws_test.h"

/* y = c_g * x^-0.5 in four groups of different c_g: one shared slope. */
static void test_fit_power_law(void **state)
{
    static const double c[4] = {3.0, 10.0, 0.25, 700.0};
    double x[20], y[20];
    size_t g[20], n = 0;
    struct ws_elasticity e;

    (void)state;
    for (size_t grp = 0; grp < 4; grp++) {
        for (int k = 0; k < 5; k++) {
            x[n] = pow(2.0, k) * (double)(grp + 1);
            y[n] = c[grp] * pow(x[n], -0.5);
            g[n] = 100 * grp + 7; /* any integers name a group */
            n++;
        }
    }
    assert_int_equal(ws_elasticity_fit(x, y, g, n, &e), 0);
    assert_true(fabs(e.slope + 0.5) < 1e-12);
    assert_true(fabs(e.r2 - 1) < 1e-12);
    assert_int_equal(e.n, 20);
    assert_int_equal(e.groups, 4);
}

/* A group whose points share one x says nothing about the slope. */
static void test_fit_single_x_group(void **state)
{
    double x[7] = {1, 2, 4, 1, 2, 8, 8};
    double y[7], alone[2] = {5, 5};
    size_t g[7] = {0, 0, 0, 1, 1, 2, 2}, ga[2] = {3, 4};
    struct ws_elasticity e;

    (void)state;
    for (int i = 0; i < 7; i++)
        y[i] = (double)(g[i] + 1) * x[i] * x[i];
    y[6] = 99; /* in group 2, which is left out */
    assert_int_equal(ws_elasticity_fit(x, y, g, 7, &e), 0);
    assert_true(fabs(e.slope - 2) < 1e-12);
    assert_int_equal(e.n, 5);
    assert_int_equal(e.groups, 2);
    /* No group with two distinct x: nothing to fit. */
    assert_int_equal(ws_elasticity_fit(alone, alone, ga, 2, &e), -1);
    assert_int_equal(ws_elasticity_fit(x, y, g, 0, &e), -1);
}

static void parse(struct ws_csv *t, const char *text)
{
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_csv_parse(t, "r.csv", text, strlen(text), 0, 0, &err) < 0)
        fail_msg("%s", err.text);
}

/* cycles = 1000 * a^1 * b^0; the failed point has a wrong number that
 * must not count. */
static const char ws_table_ab[] = "point,status,error,a,b,cycles\n"
                                  "0,ok,,1,1,1000\n"
                                  "1,ok,,1,2,1000\n"
                                  "2,ok,,2,1,2000\n"
                                  "3,ok,,2,2,2000\n"
                                  "4,failed,\"run: bad | thing\",4,1,1\n"
                                  "5,ok,,4,2,4000\n"
                                  "6,ok,,8,1,8000\n"
                                  "7,ok,,8,2,8000\n";

static void test_report_axes(void **state)
{
    static const char *const axes[] = {"b", "a"};
    struct ws_csv t;
    struct ws_err err;
    char *md;
    const char *ra, *rb;

    (void)state;
    parse(&t, ws_table_ab);
    ws_err_clear(&err);
    md = ws_sweep_report(&t, axes, NULL, 2, "cycles", &err);
    assert_non_null(md);
    assert_non_null(strstr(md, "# Sweep report: cycles\n"));
    assert_non_null(strstr(md, "8 points, 7 ok, 1 failed."));
    assert_non_null(strstr(md, "- point 4 (b=1, a=4): run: bad \\| thing"));
    ra = strstr(md, "| a | 1 | +100 % | 1 | 7 | 2 |");
    rb = strstr(md, "| b | 0 | +0 % |");
    assert_non_null(ra);
    assert_non_null(rb);
    assert_true(ra < rb);
    assert_non_null(strstr(md, "Reading: doubling a changes cycles by "
                               "+100 %"));
    /* The failed point's 1 cycle is not the best. */
    assert_non_null(strstr(md, "## Best 3 points (lowest cycles)\n\n"
                               "| point | cycles | b | a |\n"
                               "|---|---:|---|---|\n| 0 | 1000 | 1 | 1 |\n"));
    assert_non_null(strstr(md, "## Worst 3 points (highest cycles)\n\n"
                               "| point | cycles | b | a |\n"
                               "|---|---:|---|---|\n| 7 | 8000 | 2 | 8 |\n"));
    free(md);
    ws_csv_free(&t);
}

/* Two kernels of one point add up; a GPU axis is not a number. */
static void test_report_kernels_and_text_axis(void **state)
{
    static const char text[] = "point,status,kernel,gpu,n,cycles\n"
                               "0,ok,k1,v100,1,100\n"
                               "0,ok,k2,v100,1,200\n"
                               "1,ok,k1,v100,4,400\n"
                               "1,ok,k2,v100,4,800\n"
                               "2,ok,k1,a100,1,50\n"
                               "2,ok,k2,a100,1,100\n"
                               "3,ok,k1,a100,4,200\n"
                               "3,ok,k2,a100,4,400\n";
    static const char *const axes[] = {"gpu", "n"};
    struct ws_csv t;
    struct ws_err err;
    char *md;

    (void)state;
    parse(&t, text);
    ws_err_clear(&err);
    md = ws_sweep_report(&t, axes, NULL, 2, "cycles", &err);
    assert_non_null(md);
    assert_non_null(strstr(md, "4 points, 4 ok, 0 failed."));
    assert_non_null(strstr(md, "| 3 | 600 | a100 | 4 |"));
    assert_non_null(strstr(md, "| 1 | 1200 | v100 | 4 |"));
    assert_non_null(strstr(md, "| n | 1 | +100 % | 1 | 4 | 2 |"));
    assert_non_null(strstr(md, "| gpu | not numeric |"));
    free(md);
    ws_csv_free(&t);
}

static void test_report_errors(void **state)
{
    static const char *const axes[] = {"a"}, *const bad_axes[] = {"z"};
    struct ws_csv t;
    struct ws_err err;

    (void)state;
    parse(&t, ws_table_ab);
    ws_err_clear(&err);
    assert_null(ws_sweep_report(&t, axes, NULL, 1, "ipc", &err));
    assert_true(err.set && !err.placed);
    assert_non_null(strstr(err.text, "no column 'ipc' in r.csv (expected "
                                     "one of: point, status"));
    ws_err_clear(&err);
    assert_null(ws_sweep_report(&t, bad_axes, NULL, 1, "cycles", &err));
    assert_non_null(strstr(err.text, "no column 'z'"));
    ws_csv_free(&t);
}

/* Nothing ok: the report still says so instead of failing. */
static void test_report_all_failed(void **state)
{
    static const char *const axes[] = {"a"};
    struct ws_csv t;
    struct ws_err err;
    char *md;

    (void)state;
    parse(&t, "status,error,a,cycles\nfailed,boom,1,\nfailed,,2,\n");
    ws_err_clear(&err);
    md = ws_sweep_report(&t, axes, NULL, 1, "cycles", &err);
    assert_non_null(md);
    assert_non_null(strstr(md, "2 points, 0 ok, 2 failed."));
    assert_non_null(strstr(md, "- line 2 (a=1): boom\n"));
    assert_non_null(strstr(md, "- line 3 (a=2): no message\n"));
    assert_non_null(strstr(md, "nothing to rank"));
    assert_non_null(strstr(md, "| a | one value per group |"));
    free(md);
    ws_csv_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_power_law),
        cmocka_unit_test(test_fit_single_x_group),
        cmocka_unit_test(test_report_axes),
        cmocka_unit_test(test_report_kernels_and_text_axis),
        cmocka_unit_test(test_report_errors),
        cmocka_unit_test(test_report_all_failed),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
