/*
 * Unit tests of the workload expression language (sim/trace/ws_expr.c):
 * precedence, short-circuit evaluation, functions, and positioned errors.
 */
#include <stdio.h>
#include <string.h>

#include "trace/ws_expr.h"
#include "ws_test.h"

static struct ws_expr_names names(void)
{
    struct ws_expr_names t;

    memset(&t, 0, sizeof t);
    ws_expr_name(&t, "tid.x");     /* slot 0 */
    ws_expr_name(&t, "n");         /* slot 1 */
    ws_expr_name(&t, "stride");    /* slot 2 */
    return t;
}

static int64_t eval(const char *text)
{
    struct ws_expr_names t = names();
    const int64_t vals[3] = {5, 100, 4};
    struct ws_expr e;
    struct ws_err err;
    int64_t v;

    ws_err_clear(&err);
    if (ws_expr_compile(&e, text, &t, "w.yaml", 3, 10, &err) < 0)
        fail_msg("%s: %s", text, err.text);
    if (ws_expr_eval(&e, vals, &v, &err) < 0)
        fail_msg("%s: %s", text, err.text);
    ws_expr_free(&e);
    return v;
}

static void test_values(void **state)
{
    (void)state;
    assert_int_equal(eval("1 + 2 * 3"), 7);
    assert_int_equal(eval("(1 + 2) * 3"), 9);
    assert_int_equal(eval("4 * tid.x * stride + 0x100"), 336);
    assert_int_equal(eval("n / 3"), 33);
    assert_int_equal(eval("n % 7"), 2);
    assert_int_equal(eval("-tid.x + 1"), -4);
    assert_int_equal(eval("tid.x < n"), 1);
    assert_int_equal(eval("tid.x >= n ? 10 : 20"), 20);
    assert_int_equal(eval("tid.x == 5 && n == 100"), 1);
    assert_int_equal(eval("tid.x == 4 || n == 99"), 0);
    assert_int_equal(eval("1 << 10 >> 2"), 256);
    assert_int_equal(eval("6 & 3 | 8 ^ 1"), 11);
    assert_int_equal(eval("!0 + ~0"), 0);
    assert_int_equal(eval("min(n, 7) + max(2, tid.x)"), 12);
    assert_int_equal(eval("abs(-9) + log2(256)"), 17);
    assert_int_equal(eval("select(tid.x < 3, 1, 2)"), 2);
    assert_int_equal(eval("1 < 2 < 3"), 1);
    /* Short circuit: the arm not taken may divide by zero. */
    assert_int_equal(eval("n > 0 ? n / 1 : n / 0"), 100);
    assert_int_equal(eval("0 && 1 / 0"), 0);
    assert_int_equal(eval("1 || 1 / 0"), 1);
}

static void test_errors(void **state)
{
    static const struct {
        const char *text;
        long col;
        const char *want;
    } cases[] = {
        {"1 +", 13, "expression ends early"},
        {"nn + 1", 10, "unbound name 'nn'"},
        {"(1 + 2", 16, "missing ')'"},
        {"1 2", 12, "unexpected text"},
        {"foo(1)", 10, "unknown function"},
        {"min(1)", 15, "missing argument"},
        {"1 ? 2", 15, "'?' without ':'"},
        {"99999999999999999999", 10, "bad number"},
        {"3 $ 4", 12, "unexpected text"},
    };
    struct ws_expr_names t = names();

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ws_expr e;
        struct ws_err err;
        char where[32];
        ws_err_clear(&err);
        assert_int_equal(ws_expr_compile(&e, cases[i].text, &t, "w.yaml", 3,
                                         10, &err), -1);
        ws_test_err(&err, "w.yaml", 3, cases[i].want);
        snprintf(where, sizeof where, "w.yaml:3:%ld:", cases[i].col);
        if (strncmp(err.text, where, strlen(where)) != 0)
            fail_msg("'%s': %s (expected column %ld)", cases[i].text, err.text,
                     cases[i].col);
    }
}

static void test_runtime_errors(void **state)
{
    struct ws_expr_names t = names();
    const int64_t vals[3] = {0, 0, 0};
    struct ws_expr e;
    struct ws_err err;
    int64_t v;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_expr_compile(&e, "n / tid.x", &t, "w.yaml", 7, 5,
                                     &err), 0);
    assert_int_equal(ws_expr_eval(&e, vals, &v, &err), -1);
    ws_test_err(&err, "w.yaml", 7, "division by zero");
    assert_non_null(strstr(err.text, "w.yaml:7:7:"));
    ws_expr_free(&e);
    ws_err_clear(&err);
    assert_int_equal(ws_expr_compile(&e, "9223372036854775807 + 1", &t,
                                     "w.yaml", 1, 1, &err), 0);
    assert_int_equal(ws_expr_eval(&e, vals, &v, &err), -1);
    ws_test_err(&err, "w.yaml", 1, "integer overflow");
    ws_expr_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_runtime_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
