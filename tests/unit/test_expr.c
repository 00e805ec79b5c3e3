/*
 * Unit tests of the workload expression language (sim/workload/ws_expr.c):
 * precedence, short-circuit evaluation, functions, and positioned errors;
 * and of lane programs (ws_expr_lanes.c) against the scalar interpreter on
 * random expressions, faults included.
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
    ws_expr_name(&t, "tid.x");  /* slot 0 */
    ws_expr_name(&t, "n");      /* slot 1 */
    ws_expr_name(&t, "stride"); /* slot 2 */
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
        assert_int_equal(ws_expr_compile(&e, cases[i].text, &t, "w.yaml", 3, 10,
                                         &err),
                         -1);
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
    assert_int_equal(ws_expr_compile(&e, "n / tid.x", &t, "w.yaml", 7, 5, &err),
                     0);
    assert_int_equal(ws_expr_eval(&e, vals, &v, &err), -1);
    ws_test_err(&err, "w.yaml", 7, "division by zero");
    assert_non_null(strstr(err.text, "w.yaml:7:7:"));
    ws_expr_free(&e);
    ws_err_clear(&err);
    assert_int_equal(ws_expr_compile(&e, "9223372036854775807 + 1", &t,
                                     "w.yaml", 1, 1, &err),
                     0);
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
static char *repeat(const char *head, const char *unit, int n, const char *tail)
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
    static const char *const units[] = {
        "- ", "!~", "+", "~", "(", "1 ? 1 : ", "abs(", "select(1, 1, "};
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

/* ---- lane programs against the scalar interpreter ------------------------ */

/* A small deterministic generator: the same expressions on every run. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return (uint32_t)(rnd_state >> 32) % n;
}

/* Values near the edges of every fault: zero, -1, shift counts around 63,
 * the extremes, powers of two. */
static int64_t rnd_value(void)
{
    static const int64_t edge[] = {0,
                                   1,
                                   -1,
                                   2,
                                   -2,
                                   3,
                                   7,
                                   -8,
                                   16,
                                   31,
                                   62,
                                   63,
                                   64,
                                   -64,
                                   1000,
                                   -1000,
                                   INT64_C(1) << 31,
                                   -(INT64_C(1) << 31),
                                   INT64_C(1) << 32,
                                   INT64_C(4611686018427387904),
                                   INT64_MAX,
                                   INT64_MIN,
                                   INT64_MIN + 1};

    if (rnd(3) == 0)
        return (int64_t)rnd(200) - 100;
    return edge[rnd(sizeof edge / sizeof edge[0])];
}

static const char *const rnd_names[] = {"tid.x", "n", "stride", "k", "c"};
#define RND_NAMES 5

/* Text appended to a buffer that rnd_expr's depth keeps large enough. */
struct rnd_text {
    char s[16384];
    size_t n;
};

static void put(struct rnd_text *t, const char *s)
{
    size_t k = strlen(s);

    assert_true(t->n + k < sizeof t->s);
    memcpy(t->s + t->n, s, k + 1);
    t->n += k;
}

/* A random expression of every operator, function and literal form. */
static void rnd_expr(struct rnd_text *t, int depth)
{
    static const char *const bin[] = {" + ",  " - ",  " * ",  " / ",  " % ",
                                      " << ", " >> ", " < ",  " <= ", " > ",
                                      " >= ", " == ", " != ", " & ",  " ^ ",
                                      " | ",  " && ", " || "};
    static const char *const un[] = {"-", "!", "~", "abs", "log2"};
    static const char *const lit[] = {"0",
                                      "1",
                                      "2",
                                      "4",
                                      "8",
                                      "63",
                                      "64",
                                      "0x10",
                                      "9223372036854775807",
                                      "4611686018427387904",
                                      "1024"};
    uint32_t k = depth <= 0 ? rnd(2) : rnd(8);

    switch (k) {
    case 0:
        put(t, rnd_names[rnd(RND_NAMES)]);
        break;
    case 1:
        put(t, lit[rnd(sizeof lit / sizeof lit[0])]);
        break;
    case 2:
    case 3:
    case 4:
        put(t, "(");
        rnd_expr(t, depth - 1);
        put(t, bin[rnd(sizeof bin / sizeof bin[0])]);
        rnd_expr(t, depth - 1);
        put(t, ")");
        break;
    case 5:
        put(t, un[rnd(sizeof un / sizeof un[0])]);
        put(t, "(");
        rnd_expr(t, depth - 1);
        put(t, ")");
        break;
    case 6:
        put(t, rnd(2) ? "min(" : "max(");
        rnd_expr(t, depth - 1);
        put(t, ", ");
        rnd_expr(t, depth - 1);
        put(t, ")");
        break;
    default: {
        int sel = (int)rnd(2);
        put(t, sel ? "select(" : "(");
        rnd_expr(t, depth - 1);
        put(t, sel ? ", " : " ? ");
        rnd_expr(t, depth - 1);
        put(t, sel ? ", " : " : ");
        rnd_expr(t, depth - 1);
        put(t, ")");
        break;
    }
    }
}

/* Masks: every lane, one lane, random lanes. */
static uint32_t rnd_mask(void)
{
    switch (rnd(3)) {
    case 0:
        return 0xffffffffu;
    case 1:
        return 1u << rnd(32);
    default:
        return (uint32_t)rnd(0xffffffffu) | 1u;
    }
}

/* Evaluates e with the lane program p for random lanes and values, and
 * each lane alone with ws_expr_eval: same values, the same lanes fault,
 * and lanes outside the mask are left alone. */
static void check_lanes(const char *text, const struct ws_expr *e,
                        const struct ws_expr_lanes *p,
                        const struct ws_expr_consts *c)
{
    int64_t vals[RND_NAMES * 32], out[32], one[RND_NAMES];

    for (int trial = 0; trial < 8; trial++) {
        uint32_t mask = rnd_mask(), bad;
        for (int s = 0; s < RND_NAMES; s++)
            for (int l = 0; l < 32; l++)
                vals[s * 32 + l] = c->known[s] ? c->value[s] : rnd_value();
        for (int l = 0; l < 32; l++)
            out[l] = 12345;
        bad = ws_expr_lanes_eval(p, vals, mask, out);
        for (int l = 0; l < 32; l++) {
            struct ws_err err;
            int64_t v;
            int rc;
            if (!(mask >> l & 1)) {
                if (out[l] != 12345)
                    fail_msg("'%s': lane %d outside the mask written", text, l);
                continue;
            }
            for (int s = 0; s < RND_NAMES; s++)
                one[s] = vals[s * 32 + l];
            ws_err_clear(&err);
            rc = ws_expr_eval(e, one, &v, &err);
            if ((rc < 0) != (int)(bad >> l & 1))
                fail_msg("'%s' lane %d: scalar %s, lanes %s", text, l,
                         rc < 0 ? err.text : "ok",
                         bad >> l & 1 ? "faulted" : "did not fault");
            if (rc == 0 && v != out[l])
                fail_msg("'%s' lane %d: scalar %lld, lanes %lld", text, l,
                         (long long)v, (long long)out[l]);
        }
    }
}

static void test_lanes_random(void **state)
{
    struct ws_expr_names t;
    struct rnd_text text;

    (void)state;
    memset(&t, 0, sizeof t);
    for (int s = 0; s < RND_NAMES; s++)
        ws_expr_name(&t, rnd_names[s]);
    for (int i = 0; i < 3000; i++) {
        struct ws_expr e;
        struct ws_expr_lanes p;
        struct ws_expr_consts c;
        struct ws_err err;
        memset(&c, 0, sizeof c);
        /* Some names known for the launch, so that parts fold. */
        for (int s = 1; s < RND_NAMES; s++)
            if (rnd(2)) {
                c.known[s] = 1;
                c.value[s] = rnd_value();
            }
        text.n = 0;
        text.s[0] = '\0';
        rnd_expr(&text, 1 + (int)rnd(5));
        ws_err_clear(&err);
        if (ws_expr_compile(&e, text.s, &t, "w.yaml", 1, 1, &err) < 0)
            fail_msg("'%s': %s", text.s, err.text);
        assert_int_equal(ws_expr_lanes_build(&p, &e, &c, &err), 0);
        check_lanes(text.s, &e, &p, &c);
        ws_expr_lanes_free(&p);
        ws_expr_free(&e);
    }
}

/* What folds: names known for the launch and what depends on them alone,
 * an arm whose condition folded, division by a power of two; what faults
 * stays, to fault for the lanes that run it. */
static void test_lanes_fold(void **state)
{
    static const struct {
        const char *text;
        uint32_t nops; /* of the lane program */
    } cases[] = {
        {"n * 4 + 1", 1},
        {"n > 0 ? stride : 1 / 0", 1}, /* the arm not taken goes */
        {"tid.x + n * 2", 2},          /* a literal right operand joins */
        {"tid.x / 16", 2},             /* a shift */
        {"tid.x % stride", 2},         /* stride = 4 */
        {"tid.x / 3", 2},
        {"2 * tid.x", 2}, /* and a left one that commutes */
        {"2 - tid.x", 3},
        {"1 << 64", 2}, /* faults: kept */
        {"n < 1 || tid.x > 3", 3},
        {"tid.x > 2 ? n : stride", 6},
    };
    struct ws_expr_names t = names();
    struct ws_expr_consts c;

    (void)state;
    memset(&c, 0, sizeof c);
    c.known[1] = c.known[2] = 1;
    c.value[1] = 100;
    c.value[2] = 4;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ws_expr e;
        struct ws_expr_lanes p;
        struct ws_err err;
        int64_t v;
        ws_err_clear(&err);
        assert_int_equal(ws_expr_compile(&e, cases[i].text, &t, "w.yaml", 1, 1,
                                         &err),
                         0);
        assert_int_equal(ws_expr_lanes_build(&p, &e, &c, &err), 0);
        if (p.nops != cases[i].nops)
            fail_msg("'%s': %u operations, expected %u", cases[i].text, p.nops,
                     cases[i].nops);
        assert_int_equal(ws_expr_lanes_const(&p, &v), cases[i].nops == 1);
        ws_expr_lanes_free(&p);
        ws_expr_free(&e);
    }
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
        cmocka_unit_test(test_lanes_random),
        cmocka_unit_test(test_lanes_fold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
