/*
 * Unit tests of the bounds of the RSM table analysis (sim/analyze/
 * ws_rsm_table.c, ws_rsm.c): the work estimate follows what ws_rsm_run
 * computes; kernels are reported in the order they first appear however
 * their rows interleave; a table of tens of thousands of kernels is
 * grouped in well under a second (it was one search of every kernel so
 * far per row, and a row array of the whole table per kernel); negative
 * cells are refused at their line and column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/ws_rsm_table.h"
#include "ws_test.h"

#define HEAD \
    "status,kernel,time_us,sm_util_pct,smsp__inst_executed.sum," \
    "l1tex__t_requests_pipe_lsu_mem_global.sum\n"

static const struct ws_rsm_args ws_test_args = {WS_RSM_TS,
                                                {0.1, 0.5, 0.8},
                                                {5, 0.5, 20, 0.8, 1.386, 1}};

/* The report of CSV text, or NULL with err set. */
static char *ws_test_report(const char *text, struct ws_err *err)
{
    struct ws_csv t;
    char *md;

    ws_err_clear(err);
    if (ws_csv_parse(&t, "t.csv", text, strlen(text), 0, 0, err) < 0)
        fail_msg("%s", err->text);
    md = ws_rsm_report(&t, &ws_test_args, NULL, NULL, err);
    ws_csv_free(&t);
    return md;
}

static void test_work(void **state)
{
    struct ws_rsm_opts o = {5, 0.5, 10, 0.8, 1.386, 1};

    (void)state;
    /* 100 rows: 80 drawn; 20 counters, 10 picks:
     * 10 x 80 x (2 x 20 + 10 x (20 + 100)) */
    assert_true(ws_rsm_work(100, 20, &o) == 10.0 * 80 * (40 + 10 * 120));
    /* 4 rows: 3 drawn, so at most 2 picks */
    assert_true(ws_rsm_work(4, 20, &o) == 10.0 * 3 * (40 + 2 * 24));
    /* picks stop at 1000 whatever kappa allows */
    o.kappa = 1;
    o.members = 1;
    assert_true(ws_rsm_work(100000, 5000, &o)
                == 80000.0 * (2 * 5000 + 1000 * (5000 + 1e6)));
}

static void test_kernel_order(void **state)
{
    const char *text = HEAD
        "ok,b,1,50,10,3\nok,a,2,60,25,1\nok,b,3,70,31,4\nok,a,4,55,42,1\n"
        "ok,b,5,65,50,9\nok,a,6,75,61,5\nok,a,7,80,77,2\n";
    struct ws_err err;
    char *md = ws_test_report(text, &err), *b, *a;

    (void)state;
    if (!md)
        fail_msg("%s", err.text);
    b = strstr(md, "## b (3 runs)");
    a = strstr(md, "## a (4 runs)");
    assert_non_null(b);
    assert_non_null(a);
    assert_true(b < a);
    free(md);
}

static void test_many_kernels(void **state)
{
    enum {
        N = 60000
    };
    size_t cap = sizeof HEAD + (size_t)N * 40, n;
    char *text = malloc(cap);
    struct timespec t0, t1;
    struct ws_err err;
    char *md;

    (void)state;
    assert_non_null(text);
    n = (size_t)snprintf(text, cap, "%s", HEAD);
    for (int i = 0; i < N; i++)
        n += (size_t)snprintf(text + n, cap - n, "ok,k%d,%d,50,%d,1\n", i,
                              i + 1, i);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    md = ws_test_report(text, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_null(md); /* no kernel has 3 rows */
    assert_non_null(strstr(err.text, "no kernel with 3 ok rows"));
    assert_true(t1.tv_sec - t0.tv_sec < 3);
    free(text);
}

static void test_negative(void **state)
{
    struct ws_err err;

    (void)state;
    assert_null(ws_test_report(HEAD "ok,k,1,50,10,3\nok,k,2,60,-25,1\n"
                                    "ok,k,3,70,31,4\n",
                               &err));
    ws_test_err(&err, "t.csv", 3,
                "column 'smsp__inst_executed.sum' "
                "holds -25");
    assert_non_null(strstr(err.text, "t.csv:3:11:"));
    assert_null(ws_test_report(HEAD "ok,k,1,-0.5,10,3\nok,k,2,60,25,1\n"
                                    "ok,k,3,70,31,4\n",
                               &err));
    ws_test_err(&err, "t.csv", 2, "column 'sm_util_pct' holds -0.5");
    /* a failed row's cells are not read */
    {
        char *md = ws_test_report(HEAD "ok,k,1,50,10,3\nfailed,k,,,-1,\n"
                                       "ok,k,2,60,25,1\nok,k,3,70,31,4\n",
                                  &err);
        if (!md)
            fail_msg("%s", err.text);
        free(md);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_work),
        cmocka_unit_test(test_kernel_order),
        cmocka_unit_test(test_many_kernels),
        cmocka_unit_test(test_negative),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
