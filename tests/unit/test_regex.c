/*
 * Unit tests of sim/util/ws_regex.c: the estimate of the states regcomp
 * builds (exact on small patterns, brackets and escaped braces not taken
 * for intervals, nested repetitions multiplied and saturated), the
 * refusals (length, states, loops around what can match "", back-
 * references), and that a refused pattern never reaches regcomp: checked
 * in a child process whose address space is capped, where regcomp of
 * "((a{1,99}){1,99}){1,99}" would fail after seconds of allocation.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/ws_regex.h"
#include "ws_test.h"


#define NESTED "((a{1,99}){1,99}){1,99}"

static void test_estimate_exact(void **state)
{
    static const struct {
        const char *pattern;
        uint64_t states;
    } cases[] = {
        {"", 1}, /* the end node */
        {"a", 2},
        {"abc", 4},
        {"a|b", 4}, /* and the alternation */
        {"a*", 3},
        {"a?", 3},
        {"a+", 4},  /* a, then a starred copy */
        {"(a)", 4}, /* the group's open and close */
        {"a{3}", 4},
        {"a{2,5}", 9}, /* 5 copies, 3 optional ones */
        {"a{,3}", 7},
        {"a{2,}", 5}, /* 2 copies and a starred one */
        {"a{0}", 2},  /* built, then dropped: counted */
        {".", 2},
        {"[{]", 2}, /* a brace in a bracket is a member */
        {"[{]{3}", 4},
        {"[]{]", 2}, /* ']' first is a member */
        {"[^]{]", 2},
        {"[[:alpha:]{]", 2},
        {"[[:alpha:]]{9}{9}", 82},
        {"a\\{3}", 5}, /* an escaped brace opens no interval */
        {"a{", 3},     /* nor one left open */
        {"a{x}", 5},
        {"*a", 3},    /* nothing to repeat: a literal */
        {"a)", 3},    /* unmatched ')': a literal */
        {"^a$", 12},  /* 4 nodes, twice per anchor */
        {"\\ba", 15}, /* \b: two anchors and their alternation */
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t got = ws_regex_states(cases[i].pattern);
        if (got != cases[i].states)
            fail_msg("'%s': %llu states, expected %llu", cases[i].pattern,
                     (unsigned long long)got,
                     (unsigned long long)cases[i].states);
    }
}

static void test_estimate_nested(void **state)
{
    (void)state;
    /* 99 x (1 + 99 x (1 + 99 x 2 ...)): about 2 million */
    assert_true(ws_regex_states(NESTED) > 1000000);
    assert_true(ws_regex_states("(a{1,99}){1,99}") > WS_REGEX_MAX_STATES);
    assert_true(ws_regex_states("a{99}") < WS_REGEX_MAX_STATES);
    /* "+" doubles: 2^21 copies */
    assert_true(ws_regex_states("(((((((((((((((((((((a+)+)+)+)+)+)+)+)+)+)"
                                ")+)+)+)+)+)+)+)+)+)+)+")
                > 2000000);
    /* saturates rather than wrapping */
    assert_true(ws_regex_states("((((((((a{32767}){32767}){32767}){32767})"
                                "{32767}){32767}){32767}){32767})")
                == UINT64_MAX);
    assert_true(ws_regex_states("a{99999999999999999999}")
                > WS_REGEX_MAX_STATES);
}

static void test_check_accepts(void **state)
{
    static const char *const good[] = {
        "saxpy",
        "^_Z.*gemm",
        "vecAdd|spill",
        "a{0,}",
        "[[:alpha:]]{9}{9}",
        "^_Z[0-9]+(gemm|conv)_kernel.*$",
        "(a+)*",
        "a*?",
        "(ab?)*",
        "(a?){3}",
        "[\\1]",
        "[{]+",
        "a\\{3}",
        "\\w+",
    };
    char why[200];

    (void)state;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (ws_regex_check(good[i], why, sizeof why) != 0)
            fail_msg("'%s' refused: %s", good[i], why);
}

/* Refused, with why holding "what (expected what)" and want. */
static void ws_test_refused(const char *pattern, const char *want)
{
    char why[200];

    if (ws_regex_check(pattern, why, sizeof why) == 0)
        fail_msg("'%.60s' accepted", pattern);
    if (!strstr(why, want) || !strstr(why, "(expected ")
        || why[strlen(why) - 1] != ')')
        fail_msg("'%.60s': '%s', expected '%s'", pattern, why, want);
}

static void test_check_refuses(void **state)
{
    char long_pattern[WS_REGEX_MAX_LEN + 2], why[200];

    (void)state;
    ws_test_refused(NESTED, "more than 2048 states");
    ws_test_refused("(a|b|c){999}", "more than 2048 states");
    ws_test_refused("(\\b.?){400}", "more than 2048 states");
    ws_test_refused("(^.?|$.?){200}", "more than 2048 states");
    ws_test_refused("(a?)+", "repetition at byte 5 repeats what can match");
    ws_test_refused("(a|)*", "repetition at byte 5");
    ws_test_refused("(a|b*)*", "repetition at byte 7");
    ws_test_refused("a**", "repetition at byte 3");
    ws_test_refused("(^)*", "repetition at byte 4");
    ws_test_refused("(a*){2,}", "repetition at byte 5");
    ws_test_refused("(((a?)+)?){20}", "repetition at byte 7");
    ws_test_refused("(a)\\1", "back-reference '\\1' at byte 4");
    memset(long_pattern, 'a', sizeof long_pattern - 1);
    long_pattern[sizeof long_pattern - 1] = '\0';
    ws_test_refused(long_pattern, "1025 bytes long (expected at most 1024)");
    long_pattern[WS_REGEX_MAX_LEN] = '\0';
    assert_int_equal(ws_regex_check(long_pattern, why, sizeof why), 0);
}

/* The deepest nesting the length allows compiles: the stack of groups
 * and regcomp's recursion both hold it. */
static void test_compile_deep(void **state)
{
    char p[WS_REGEX_MAX_LEN + 1], why[200];
    size_t depth = (WS_REGEX_MAX_LEN - 1) / 2;
    regex_t re;

    (void)state;
    memset(p, '(', depth);
    p[depth] = 'a';
    memset(p + depth + 1, ')', depth);
    p[2 * depth + 1] = '\0';
    assert_int_equal(ws_regex_compile(&re, p, REG_NOSUB, why, sizeof why), 0);
    assert_int_equal(regexec(&re, "xay", 0, NULL, 0), 0);
    regfree(&re);
    /* the same, unclosed: regcomp's own error, with its text */
    p[depth + 1] = '\0';
    assert_true(ws_regex_compile(&re, p, REG_NOSUB, why, sizeof why) > 0);
    assert_true(why[0] != '\0');
}

/* In a child capped at 256 MB of address space: the refusal comes before
 * regcomp, fast; and the worst pattern found within the bounds compiles
 * under the cap.  Exit 0 when both hold. */
static int ws_test_capped_child(void)
{
    struct rlimit rl = {256u << 20, 256u << 20};
    struct timespec t0, t1;
    char why[200];
    regex_t re;

    /* AddressSanitizer reserves terabytes of address space: no cap
     * under it. */
    if (!WS_TEST_ASAN && setrlimit(RLIMIT_AS, &rl) != 0)
        return 10;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (ws_regex_compile(&re, NESTED, REG_NOSUB, why, sizeof why)
        != WS_REGEX_BOUND)
        return 11;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (t1.tv_sec - t0.tv_sec > 1)
        return 12;
    if (ws_regex_compile(&re, "(a?|b?|c?|d?){157}x", REG_NOSUB, why, sizeof why)
        != 0)
        return 13;
    regfree(&re);
    return 0;
}

static void test_compile_capped(void **state)
{
    pid_t pid;
    int st;

    (void)state;
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(ws_test_capped_child());
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_shown(void **state)
{
    char buf[WS_REGEX_SHOWN], p[200];

    (void)state;
    assert_string_equal(ws_regex_shown(buf, "a\nb\tc"), "a?b?c");
    memset(p, 'x', 100);
    p[100] = '\0';
    ws_regex_shown(buf, p);
    assert_int_equal(strlen(buf), 64 + 3);
    assert_string_equal(buf + 64, "...");
    /* a two-byte character across the cut is left out whole */
    memset(p, 'x', 63);
    strcpy(p + 63, "\xC3\xA9yz");
    assert_string_equal(ws_regex_shown(buf, p) + 63, "...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate_exact),
        cmocka_unit_test(test_estimate_nested),
        cmocka_unit_test(test_check_accepts),
        cmocka_unit_test(test_check_refuses),
        cmocka_unit_test(test_compile_deep),
        cmocka_unit_test(test_compile_capped),
        cmocka_unit_test(test_shown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
