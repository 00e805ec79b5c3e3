/*
 * Unit tests of GPU configs (sim/config): units, every built-in config,
 * the print/load round trip, inheritance, --set overrides, and positioned
 * errors for each kind of bad config.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ws_cfg_schema.h"
#include "config/ws_config.h"
#include "config/ws_units.h"
#include "trace/ws_opcode.h"
#include "ws_test.h"

static void test_units(void **state)
{
    uint64_t b;
    double d;
    char buf[32];

    (void)state;
    assert_int_equal(ws_units_size("48KiB", &b), 0);
    assert_true(b == 49152);
    assert_int_equal(ws_units_size("48KB", &b), 0);
    assert_true(b == 49152);
    assert_int_equal(ws_units_size("6 MiB", &b), 0);
    assert_true(b == 6291456);
    assert_int_equal(ws_units_size("1.5KiB", &b), 0);
    assert_true(b == 1536);
    assert_int_equal(ws_units_size("128", &b), 0);
    assert_true(b == 128);
    assert_int_equal(ws_units_size("0.3B", &b), -1);
    assert_int_equal(ws_units_size("12 parsecs", &b), -1);
    assert_int_equal(ws_units_size("-4KiB", &b), -1);
    assert_int_equal(ws_units_size("1e300GiB", &b), -1);
    assert_int_equal(ws_units_freq("1380MHz", &d), 0);
    assert_true(d == 1380.0);
    assert_int_equal(ws_units_freq("1.41GHz", &d), 0);
    assert_true(d > 1409.999 && d < 1410.001);
    assert_int_equal(ws_units_freq("1380", &d), -1);
    assert_int_equal(ws_units_bandwidth("898GB/s", &d), 0);
    assert_true(d == 898.0);
    assert_int_equal(ws_units_bandwidth("3.352TB/s", &d), 0);
    assert_true(d > 3351.999 && d < 3352.001);
    assert_int_equal(ws_units_bandwidth("1GiB/s", &d), 0);
    assert_true(d > 1.0737 && d < 1.0738);
    assert_int_equal(ws_units_cycles("193 cycles", &b), 0);
    assert_true(b == 193);
    assert_int_equal(ws_units_cycles("193ns", &b), -1);
    ws_units_fmt_size(buf, sizeof buf, 6291456);
    assert_string_equal(buf, "6MiB");
    ws_units_fmt_size(buf, sizeof buf, 6291457);
    assert_string_equal(buf, "6291457B");
}

static struct ws_gpu load_ok(const char *name, const char *const *sets,
                             int nsets)
{
    struct ws_gpu g;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_cfg_load(&g, name, sets, nsets, &err) < 0)
        fail_msg("%s: %s", name ? name : "(default)", err.text);
    return g;
}

/* Compares two configs key by key through the schema's text form, which is
 * exactly what a user can see. */
static void assert_same_gpu(const struct ws_gpu *a, const struct ws_gpu *b)
{
    for (size_t i = 0; i < ws_cfg_key_count(); i++) {
        char x[256], y[256];
        ws_cfg_key_format(ws_cfg_key(i), a, x, sizeof x);
        ws_cfg_key_format(ws_cfg_key(i), b, y, sizeof y);
        if (strcmp(x, y) != 0)
            fail_msg("%s: %s != %s", ws_cfg_key(i)->path, x, y);
    }
}

static void test_builtins_round_trip(void **state)
{
    (void)state;
    for (int i = 0; ws_cfg_builtin_name(i); i++) {
        const char *name = ws_cfg_builtin_name(i);
        struct ws_gpu g = load_ok(name, NULL, 0), back;
        char path[64];
        FILE *fp;
        snprintf(path, sizeof path, "/tmp/ws-test-rt-%d.yaml", i);
        fp = fopen(path, "w");
        assert_non_null(fp);
        ws_cfg_print(fp, &g);
        fclose(fp);
        back = load_ok(path, NULL, 0);
        assert_same_gpu(&g, &back);
        remove(path);
    }
}

static void test_known_values(void **state)
{
    struct ws_gpu g;

    (void)state;
    g = load_ok(NULL, NULL, 0);
    assert_string_equal(g.name, "NVIDIA V100 PCIe 16GB");
    assert_int_equal(g.sm.count, 80);
    assert_true(g.l2.size == 6u << 20);
    assert_true(g.dram.bandwidth == 898.0);
    assert_int_equal(g.unit[WS_UNIT_FP32].latency, 4);
    /* Interval defaults to 32 / lanes. */
    assert_int_equal(g.unit[WS_UNIT_FP32].interval, 2);
    assert_int_equal(g.unit[WS_UNIT_SFU].interval, 8);
    g = load_ok("h100", NULL, 0);
    assert_int_equal(g.sm.count, 132);
    assert_int_equal(g.sm_version, 90);
    g = load_ok("gtx480.yaml", NULL, 0);
    assert_int_equal(g.sm.max_warps, 48);
    assert_int_equal(g.l2.hash, WS_L2_HASH_LINEAR);
}

static void test_inheritance(void **state)
{
    struct ws_gpu base = load_ok("v100", NULL, 0);
    struct ws_gpu sxm = load_ok("v100-sxm2", NULL, 0);

    (void)state;
    assert_true(sxm.core_mhz == 1530.0);
    assert_true(sxm.dram.bandwidth == 900.0);
    assert_int_equal(sxm.sm.count, base.sm.count);
    assert_true(sxm.l2.size == base.l2.size);
    assert_string_equal(sxm.name, "NVIDIA V100 SXM2 16GB");
}

static void test_overrides(void **state)
{
    const char *sets[] = {"l2.size=12MiB", "sm.count=100",
                          "units.sfu.latency=30 cycles",
                          "unknown_opcode_class=int", "l1.enabled=false"};
    struct ws_gpu g = load_ok("v100", sets, 5);

    (void)state;
    assert_true(g.l2.size == 12u << 20);
    assert_int_equal(g.sm.count, 100);
    assert_int_equal(g.unit[WS_UNIT_SFU].latency, 30);
    assert_int_equal(g.unknown_class, WS_OPC_INT);
    assert_int_equal(g.l1.enabled, 0);
}

static const char *write_tmp(const char *text)
{
    static char path[64];
    FILE *fp;

    snprintf(path, sizeof path, "/tmp/ws-test-bad.yaml");
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    return path;
}

static void test_bad_files(void **state)
{
    static const struct {
        const char *text;
        long line;
        const char *want;
    } cases[] = {
        {"base: v100\nl2:\n  sise: 6MiB\n", 3, "unknown key 'l2.sise'"},
        {"base: v100\nl2:\n  size: -6MiB\n", 3, "l2.size: bad value '-6MiB'"},
        {"base: v100\nl2:\n  size: 0B\n", 3, "l2.size: bad value"},
        {"base: v100\nl1:\n  line: 96B\n", 3, "power of two"},
        {"base: v100\nsm:\n  count: 3000000\n", 3, "from 1 to 100000"},
        {"base: v100\nsm:\n  count: eighty\n", 3, "a whole number"},
        {"base: v100\nclock:\n  core: 1380\n", 3, "a frequency"},
        {"base: v100\nsched:\n  policy: fifo\n", 3, "lrr, gto or two_level"},
        {"base: v100\nsm:\n  count: [1, 2]\n", 3, "a list is not"},
        {"base: v100\nsm: 80\n", 2, "is a group of keys"},
        {"base: v100\nl2:\n  size: 6MiB\n  size: 7MiB\n", 4, "duplicate key"},
        {"base: v100\nl2: {size: 6MiB\n", 0, "YAML syntax"},
        {"base: v100\nl2:\n  size: 6145KiB\n", 3, "not a whole number of sets"},
        {"base: v100\nsm:\n  max_threads: 4096\n", 3, "sm.max_warps"},
        {"base: v100\nsm:\n  shared_per_block: 128KiB\n", 3,
         "more shared memory than the SM"},
        {"base: v100\nl1:\n  size: 64KiB\n", 3, "unified SRAM"},
        {"base: v100\nunits:\n  sfu: {lanes: 1, latency: 4}\n", 1,
         "issue interval 32 longer than the latency 4"},
        {"base: v100\nl2:\n  slices: 48\n", 3, "do not divide"},
        {"base: nothing-like-this\n", 1, "base config 'nothing-like-this' not found"},
        {"name: \"x\"\n", 1, "missing key 'sm_version'"},
        {"- a\n- b\n", 1, "not a mapping"},
        {"base: v100\nunknown_opcode_class: fp128\n", 2, "an opcode class"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ws_gpu g;
        struct ws_err err;
        const char *path = write_tmp(cases[i].text);
        ws_err_clear(&err);
        if (ws_cfg_load(&g, path, NULL, 0, &err) == 0)
            fail_msg("case %zu loaded", i);
        ws_test_err(&err, path, cases[i].line, cases[i].want);
    }
    remove("/tmp/ws-test-bad.yaml");
}

static void test_bad_sets(void **state)
{
    struct ws_gpu g;
    struct ws_err err;
    const char *sets[] = {"sm.count=80", "l2.sise=12MiB"};
    const char *bad_value[] = {"l2.size=lots"};
    const char *no_eq[] = {"l2.size"};

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, NULL, sets, 2, &err), -1);
    ws_test_err(&err, "command line", 2, "did you mean 'l2.size'");
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, NULL, bad_value, 1, &err), -1);
    ws_test_err(&err, "command line", 1, "bad value 'lots'");
    assert_non_null(strstr(err.text, "command line:1:9:"));
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, NULL, no_eq, 1, &err), -1);
    ws_test_err(&err, "command line", 1, "no key");
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, "no-such-gpu", NULL, 0, &err), -1);
    assert_non_null(strstr(err.text, "no such file or built-in GPU config"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_builtins_round_trip),
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_inheritance),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_bad_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
