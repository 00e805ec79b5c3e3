/*
 * Unit tests of the workload expression language (sim/trace/ws_expr.c):
 * precedence, short-circuit evaluation, functions, and positioned errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/ws_expr.h"
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

/* Compiles text, expecting a compile error containing want. */
static void compile_fails(const char *text, const char *want)
{
    struct ws_expr_names t = names();
    struct ws_expr e;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_expr_compile(&e, text, &t, "w.yaml", 2, 5, &err) == 0)
        fail_msg("'%.40s...' compiled, expected '%s'", text, want);
    ws_test_err(&err, "w.yaml", 2, want);
    /* A long expression is quoted cut short: the line keeps its end. */
    assert_true(strlen(err.text) < 400);
}

/* Evaluates text, expecting a run-time error containing want at col. */
static void eval_fails(const char *text, long col, const char *want)
{
    struct ws_expr_names t = names();
    const int64_t vals[3] = {5, 100, 4};
    struct ws_expr e;
    struct ws_err err;
    char where[32];
    int64_t v;

    ws_err_clear(&err);
    if (ws_expr_compile(&e, text, &t, "w.yaml", 4, 1, &err) < 0)
        fail_msg("%s: %s", text, err.text);
    if (ws_expr_eval(&e, vals, &v, &err) == 0)
        fail_msg("'%s' gave %lld, expected '%s'", text, (long long)v, want);
    ws_test_err(&err, "w.yaml", 4, want);
    snprintf(where, sizeof where, "w.yaml:4:%ld:", col);
    if (strncmp(err.text, where, strlen(where)) != 0)
        fail_msg("'%s': %s (expected column %ld)", text, err.text, col);
    ws_expr_free(&e);
}

/* n copies of unit, then tail: the long inputs a hostile file holds. */
static char *repeat(const char *head, const char *unit, int n,
                    const char *tail)
{
    size_t u = strlen(unit), h = strlen(head);
    char *s = malloc(h + u * (size_t)n + strlen(tail) + 1);

    assert_non_null(s);
    strcpy(s, head);
    for (int i = 0; i < n; i++)
        memcpy(s + h + u * (size_t)i, unit, u);
    strcpy(s + h + u * (size_t)n, tail);
    return s;
}

/* Every recursion of the parser is bounded: unary chains overflowed the
 * stack when only parentheses counted. */
static void test_depth(void **state)
{
    static const char *const units[] = {"- ", "!~", "+", "~", "(", "1 ? 1 : ",
                                        "abs(", "select(1, 1, "};
    char *s;

    (void)state;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        s = repeat("", units[i], 50000, "1");
        compile_fails(s, "nested too deeply");
        free(s);
    }
    /* 99 parentheses are 100 levels with the whole expression: allowed. */
    {
        char *open = repeat("", "(", 99, "7"), *all = repeat(open, ")", 99, "");
        assert_int_equal(eval(all), 7);
        free(all);
        free(open);
        open = repeat("", "(", 100, "7");
        all = repeat(open, ")", 100, "");
        compile_fails(all, "at most 100 levels");
        free(all);
        free(open);
    }
    /* Long flat chains are not deep: they loop, they do not recurse. */
    s = repeat("1", " + 1", 399, "");
    assert_int_equal(eval(s), 400);
    free(s);
    s = repeat("1", " && 1", 150, "");
    assert_int_equal(eval(s), 1);
    free(s);
    s = repeat("- ", "- ", 59, "3");
    assert_int_equal(eval(s), 3);
    free(s);
}

static void test_size_limits(void **state)
{
    char *open, *s;

    (void)state;
    s = repeat("1", " + 1", 5000, "");
    compile_fails(s, "expression too long");
    free(s);
    /* Eight pending values per parenthesis, one per precedence level. */
    open = repeat("", "1 | 1 ^ 1 & 1 == 1 < 1 << 1 + 1 * (", 20, "1");
    s = repeat(open, ")", 20, "");
    compile_fails(s, "too many values at once");
    free(s);
    free(open);
}

/* Undefined behaviour in C, each an error at the operator's column. */
static void test_overflow_errors(void **state)
{
    (void)state;
    eval_fails("abs(-9223372036854775807 - 1)", 1, "integer overflow");
    eval_fails("-(-9223372036854775807 - 1)", 1, "integer overflow");
    eval_fails("(-9223372036854775807 - 1) / -1", 28, "integer overflow");
    eval_fails("(-9223372036854775807 - 1) % -1", 28, "integer overflow");
    eval_fails("4611686018427387904 * 2", 21, "integer overflow");
    eval_fails("-9223372036854775807 - 2", 22, "integer overflow");
    eval_fails("1 << 64", 3, "shift by 64");
    eval_fails("1 >> 64", 3, "shift by 64");
    eval_fails("n << -1", 3, "shift by -1");
    eval_fails("3 << 62", 3, "integer overflow");
    eval_fails("1 << 63", 3, "integer overflow");
    eval_fails("log2(0)", 1, "log2 of 0");
    eval_fails("1 + log2(-8)", 5, "log2 of -8");
    eval_fails("n % (tid.x - 5)", 3, "division by zero");
    assert_int_equal(eval("-1 << 63"), INT64_MIN);
    assert_int_equal(eval("1 << 62"), INT64_C(1) << 62);
    assert_int_equal(eval("-8 >> 1"), -4);
    assert_int_equal(eval("-1 >> 63"), -1);
    assert_int_equal(eval("log2(1)"), 0);
    assert_int_equal(eval("log2(9223372036854775807)"), 62);
    assert_int_equal(eval("abs(-9223372036854775807)"), INT64_MAX);
    assert_int_equal(eval("(-9223372036854775807 - 1) / 1"), INT64_MIN);
    /* The arm not taken is not evaluated, so it raises nothing. */
    assert_int_equal(eval("tid.x > 9 ? log2(0) : 1 << 3"), 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_runtime_errors),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_size_limits),
        cmocka_unit_test(test_overflow_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
