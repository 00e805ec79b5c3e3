/*
 * Unit tests of GPU configs (sim/config): units, every built-in config,
 * the print/load round trip, inheritance, --set overrides, and positioned
 * errors for each kind of bad config.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/ws_cfg_schema.h"
#include "config/ws_config.h"
#include "config/ws_occupancy.h"
#include "config/ws_units.h"
#include "util/ws_yaml.h"
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
        snprintf(path, sizeof path, "/tmp/ws-test-rt-%ld-%d.yaml",
                 (long)getpid(), i);
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

/* Per process: other builds of the tree may run these tests meanwhile. */
/* The per-process scratch config's path, after writing text there (NULL:
 * the path only). */
static const char *write_tmp(const char *text)
{
    static char path[64];
    FILE *fp;

    snprintf(path, sizeof path, "/tmp/ws-test-bad-%ld.yaml", (long)getpid());
    if (!text)
        return path;
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
        {"base: v100\nl1:\n  size: 256KiB\n", 3, "unified SRAM"},
        {"base: gtx480\nl1:\n  size: 32KiB\n", 3, "unified SRAM"},
        {"base: v100\nsm:\n  carveouts: 0, 8KiB, 256KiB\n", 3,
         "exceeds the unified SRAM"},
        {"base: v100\nsm:\n  shared_mem: 64KiB\n  shared_per_block: 64KiB\n", 3,
         "not the largest carveout"},
        {"base: v100\nunits:\n  sfu: {lanes: 1, latency: 4}\n", 1,
         "issue interval 32 longer than the latency 4"},
        {"base: v100\nl2:\n  slices: 48\n", 3, "do not divide"},
        {"base: nothing-like-this\n", 1,
         "base config 'nothing-like-this' not found"},
        {"name: \"x\"\n", 1, "missing key 'sm_version'"},
        {"- a\n- b\n", 1, "not a YAML mapping"},
        {"base: v100\nname: \"V\\0X\"\n", 2, "a NUL character in a value"},
        {"base: v100\nsched:\n  policy: two_level\n  active_warps: 17\n", 4,
         "larger than the 16 warps of a sub-core"},
        {"base: v100\nsched: {policy: two_level}\n"
         "sm: {sub_cores: 1, max_warps: 2048, max_threads: 65536}\n",
         3, "two_level scheduling of 2048 warps per sub-core"},
        {"base: v100\nunknown_opcode_class: fp128\n", 2, "an opcode class"},
        /* libyaml's reader gives an offset, not a line: still placed. */
        {"base: v100\nname: \"ok\"\nsource: x\001\n", 3,
         "control characters are not allowed"},
        {"base: v100\nsource: x\xff\n", 2, "invalid leading UTF-8 octet"},
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
    remove(write_tmp(""));
}

static void test_bad_sets(void **state)
{
    struct ws_gpu g;
    struct ws_err err;
    const char *sets[] = {"sm.count=80", "l2.sise=12MiB"};
    const char *bad_value[] = {"l2.size=lots"};
    const char *no_eq[] = {"l2.size"};
    const char *control[] = {"name=V\001X"};
    const char *not_utf8[] = {"name=\xff\xfe"};

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
    ws_test_err(&err, "command line", 1, "has no '='");
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, NULL, (const char *[]){"=4MiB"}, 1, &err),
                     -1);
    ws_test_err(&err, "command line", 1, "has no key");
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, "no-such-gpu", NULL, 0, &err), -1);
    ws_test_err(&err, "command line", 1, "no such file or built-in GPU config");
    /* config show must be able to write names back as YAML. */
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, NULL, control, 1, &err), -1);
    ws_test_err(&err, "command line", 1, "expected printable UTF-8 text");
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, NULL, not_utf8, 1, &err), -1);
    ws_test_err(&err, "command line", 1, "expected printable UTF-8 text");
}

/* head, n copies of unit, then tail, written to a temporary file. */
static const char *write_repeat(const char *head, const char *unit, int n,
                                const char *tail)
{
    size_t u = strlen(unit), h = strlen(head);
    char *text = malloc(h + u * (size_t)n + strlen(tail) + 1);
    const char *path;

    assert_non_null(text);
    strcpy(text, head);
    for (int i = 0; i < n; i++)
        memcpy(text + h + u * (size_t)i, unit, u);
    strcpy(text + h + u * (size_t)n, tail);
    path = write_tmp(text);
    free(text);
    return path;
}

static void expect_load_error(const char *name, const char *where,
                              const char *want)
{
    struct ws_gpu g;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_cfg_load(&g, name, NULL, 0, &err) == 0)
        fail_msg("%s loaded, expected '%s'", name, want);
    ws_test_err(&err, where, 0, want);
}

/* The tree builder recursed once per level: 50 000 '[' overflowed the
 * stack.  Each form of nesting now stops at WS_YAML_MAX_DEPTH. */
static void test_deep_nesting(void **state)
{
    struct ws_gpu g;
    struct ws_err err;
    char where[96];
    const char *path;

    (void)state;
    path = write_repeat("a: ", "[", 50000, "");
    snprintf(where, sizeof where, "%s:1:35: ", path);
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, path, NULL, 0, &err), -1);
    ws_test_err(&err, path, 1, "nested too deeply (expected at most 32 levels");
    assert_non_null(strstr(err.text, where));
    path = write_repeat("a: ", "{a: ", 30000, "1");
    expect_load_error(path, path, "nested too deeply");
    path = write_repeat("a:\n", "- ", 20000, "1");
    expect_load_error(path, path, "nested too deeply");
    /* 31 levels under the root are fine for the parser (the schema then
     * rejects the value). */
    {
        char tail[40] = "1";
        memset(tail + 1, ']', 31);
        tail[32] = '\0';
        path = write_repeat("sm: ", "[", 31, tail);
        expect_load_error(path, path, "a list is not a config value");
        tail[31] = '}'; /* the mapping under sm: is a level */
        path = write_repeat("sm: {count: ", "[", 30, tail);
        expect_load_error(path, path, "a list is not a config value");
    }
    remove(path);
}

static void test_yaml_limits(void **state)
{
    struct ws_ynode *root;
    struct ws_err err;
    char *text = malloc(60000 * 16 + 64), *p = text;
    char key[300];

    (void)state;
    assert_non_null(text);
    /* 60 000 keys in one mapping: checked for duplicates in linear time
     * (seconds before), the duplicate found at the end. */
    for (int i = 0; i < 60000; i++)
        p += sprintf(p, "k%d: 1\n", i);
    ws_err_clear(&err);
    assert_int_equal(ws_yaml_parse(&root, "wide.yaml", text, strlen(text),
                                   &err),
                     0);
    ws_yaml_free(root);
    strcpy(p, "k59999: 2\n");
    assert_int_equal(ws_yaml_parse(&root, "wide.yaml", text, strlen(text),
                                   &err),
                     -1);
    ws_test_err(&err, "wide.yaml", 60001, "duplicate key 'k59999'");
    free(text);
    memset(key, 'k', sizeof key);
    strcpy(key + 260, ": 1\n");
    ws_err_clear(&err);
    assert_int_equal(ws_yaml_parse(&root, "long.yaml", key, strlen(key), &err),
                     -1);
    ws_test_err(&err, "long.yaml", 1, "a key of 260 bytes (expected at most");
}

/* A merge keeps the old order: merged mappings stay where they are,
 * replaced entries move to the end in the order of the source. */
static void test_merge(void **state)
{
    static const char dst_text[] = "a: 1\nb: {x: 1, y: 2}\nc: 3\n";
    static const char src_text[] = "b: {y: 5, z: 6}\na: 9\nd: 4\n";
    struct ws_ynode *dst, *src, *n, *b;
    struct ws_err err;
    const char *order = "bcad", *inner = "xyz";

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_yaml_parse(&dst, "d.yaml", dst_text,
                                   sizeof dst_text - 1, &err),
                     0);
    assert_int_equal(ws_yaml_parse(&src, "s.yaml", src_text,
                                   sizeof src_text - 1, &err),
                     0);
    assert_int_equal(ws_yaml_merge(dst, src), 0);
    for (n = dst->child; n; n = n->next, order++)
        assert_int_equal(n->key[0], *order);
    assert_int_equal(*order, '\0');
    b = ws_yaml_get(dst, "b");
    for (n = b->child; n; n = n->next, inner++)
        assert_int_equal(n->key[0], *inner);
    assert_string_equal(ws_yaml_get(b, "y")->value, "5");
    assert_string_equal(ws_yaml_get(dst, "a")->value, "9");
    ws_yaml_free(dst);
}

/* What a path names is said as it is: a folder, a pipe, a name too long
 * (an errno the old reader turned into "no such file"). */
static void test_bad_paths(void **state)
{
    char dir[64], fifo[96], base[96], longname[400];
    static char argv0[] = "warpsim", argv1[] = "--gpu", argv2[] = "nosuch-gpu";
    char *argv[] = {argv0, argv1, argv2, NULL};
    struct ws_gpu g;
    struct ws_err err;
    FILE *fp;

    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ws-test-dir-%ld", (long)getpid());
    snprintf(fifo, sizeof fifo, "%s/fifo.yaml", dir);
    snprintf(base, sizeof base, "%s/child.yaml", dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    expect_load_error(dir, "command line", "is a folder, not a config file");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    expect_load_error(fifo, "command line", "not a regular file");
    fp = fopen(base, "w");
    assert_non_null(fp);
    fprintf(fp, "# a base that is a folder\nbase: %s\n", dir);
    fclose(fp);
    expect_load_error(base, base, "is a folder");
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, base, NULL, 0, &err), -1);
    assert_non_null(strstr(err.text, "child.yaml:2:7: "));
    memset(longname, 'x', sizeof longname);
    memcpy(longname, "/tmp/", 5);
    strcpy(longname + 300, ".yaml");
    expect_load_error(longname, "command line", "File name too long");
    /* --gpu NAME found nowhere: placed at NAME's word of the command. */
    ws_err_set_argv(3, argv);
    ws_err_clear(&err);
    assert_int_equal(ws_cfg_load(&g, argv[2], NULL, 0, &err), -1);
    ws_test_err(&err, "command line", 2,
                "'nosuch-gpu': no such file or "
                "built-in GPU config");
    assert_non_null(strstr(err.text, "v100-sxm2"));
    ws_err_set_argv(0, NULL);
    remove(fifo);
    remove(base);
    rmdir(dir);
}

/* A built-in config's base: is built in: a v100.yaml in the working
 * folder does not stand in for it. */
static void test_builtin_base(void **state)
{
    char dir[64], cwd[4096];
    struct ws_gpu g;
    FILE *fp;

    (void)state;
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(dir, sizeof dir, "/tmp/ws-test-cwd-%ld", (long)getpid());
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(chdir(dir), 0);
    fp = fopen("v100.yaml", "w");
    assert_non_null(fp);
    fputs("not: a gpu\n", fp);
    fclose(fp);
    g = load_ok("v100-sxm2", NULL, 0);
    assert_string_equal(g.name, "NVIDIA V100 SXM2 16GB");
    /* Nor is a folder named like one (of results, say) taken for it. */
    assert_int_equal(mkdir("h100", 0700), 0);
    g = load_ok("h100", NULL, 0);
    assert_int_equal(g.sm.count, 132);
    rmdir("h100");
    remove("v100.yaml");
    assert_int_equal(chdir(cwd), 0);
    rmdir(dir);
}

/* sched.active_warps only matters under two_level. */
/* The L1/shared split per kernel, as the CUDA driver picks it. */
static void occ_of(const struct ws_gpu *g, uint32_t threads, uint32_t shmem,
                   struct ws_occupancy *occ)
{
    struct ws_launch l;

    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = threads;
    l.block[1] = l.block[2] = 1;
    l.nregs = 32;
    l.shmem = shmem;
    ws_occupancy_compute(g, &l, occ);
}

static void test_carveout(void **state)
{
    const char *at50[] = {"l1.carveout=50KiB"};
    const char *at8[] = {"l1.carveout=8KiB"};
    struct ws_gpu g = load_ok("v100", NULL, 0);
    struct ws_occupancy occ;
    struct ws_err err;

    (void)state;
    /* No shared memory: all 128 KB to L1. */
    occ_of(&g, 256, 0, &occ);
    assert_true(occ.carveout == 0 && occ.l1_size == 128u << 10);
    assert_string_equal(occ.carveout_by, "driver");
    /* 8 CTAs (the thread limit) x 4 KB: the 32 KB carveout holds them. */
    occ_of(&g, 256, 4096, &occ);
    assert_int_equal(occ.ctas_per_sm, 8);
    assert_true(occ.carveout == 32u << 10 && occ.l1_size == 96u << 10);
    /* 5 KB: 40 KB needed, the next carveout is 64 KB. */
    occ_of(&g, 256, 5120, &occ);
    assert_true(occ.carveout == 64u << 10);
    /* More than the largest carveout holds at full occupancy: the largest,
     * and shared memory limits. */
    occ_of(&g, 256, 40u << 10, &occ);
    assert_true(occ.carveout == 96u << 10 && occ.ctas_per_sm == 2);
    assert_int_equal(occ.limit, WS_OCC_SHARED);
    /* Set: rounded up to a listed size, and it may cost occupancy. */
    g = load_ok("v100", at50, 1);
    occ_of(&g, 256, 0, &occ);
    assert_true(occ.carveout == 64u << 10 && occ.l1_size == 64u << 10);
    assert_string_equal(occ.carveout_by, "l1.carveout");
    g = load_ok("v100", at8, 1);
    occ_of(&g, 256, 4096, &occ);
    assert_int_equal(occ.ctas_per_sm, 2);
    assert_int_equal(occ.limit, WS_OCC_SHARED);
    /* l1.size caps the L1 share. */
    {
        const char *cap[] = {"l1.size=32KiB"};
        g = load_ok("v100", cap, 1);
        occ_of(&g, 256, 0, &occ);
        assert_true(occ.l1_size == 32u << 10);
    }
    /* A fixed split stays fixed. */
    g = load_ok("gtx480", NULL, 0);
    occ_of(&g, 256, 0, &occ);
    assert_true(occ.carveout == 48u << 10 && occ.l1_size == 16u << 10);
    assert_string_equal(occ.carveout_by, "fixed");
    /* Impossible settings. */
    {
        const char *bad[][1] = {{"l1.carveout=100KiB"},
                                {"sm.carveouts=0,64KiB,32KiB"},
                                {"sm.carveouts=0,8KiB,,16KiB"},
                                {"l1.carveout=lots"}};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            ws_err_clear(&err);
            assert_int_equal(ws_cfg_load(&g, "v100", bad[i], 1, &err), -1);
        }
        ws_err_clear(&err);
        assert_int_equal(ws_cfg_load(&g, "titanx", at8, 1, &err), -1);
        assert_non_null(strstr(err.text, "fixed"));
    }
}

/* A config written before the fidelity keys (banked DRAM, queues, the
 * carveout list) still loads: the simple DRAM model, Accel-Sim's queue
 * sizes, a fixed L1/shared split. */
static void test_older_config(void **state)
{
    static const char *const added[] = {
        "banked:",  "bank_groups:", "burst:",       "write_batch:",
        "t_rcd:",   "t_rp:",        "t_ras:",       "t_ccd_l:",
        "t_wtr:",   "t_rtw:",       "t_rfc:",       "refresh_per_bank:",
        "t_refi:",  "miss_queue:",  "input_queue:", "carveouts:",
        "carveout:"};
    struct ws_gpu g = load_ok("gtx480", NULL, 0), old;
    char *text = NULL, line[512];
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len), *in, *out;

    (void)state;
    assert_non_null(mem);
    ws_cfg_print(mem, &g);
    fclose(mem);
    in = fmemopen(text, len, "r");
    out = fopen(write_tmp(""), "w");
    assert_non_null(in);
    assert_non_null(out);
    while (fgets(line, sizeof line, in)) {
        int drop = 0;
        for (size_t i = 0; i < sizeof added / sizeof added[0]; i++)
            drop |= strstr(line, added[i]) != NULL;
        if (!drop)
            fputs(line, out);
    }
    fclose(in);
    fclose(out);
    free(text);
    old = load_ok(write_tmp(NULL), NULL, 0);
    assert_int_equal(old.dram.banked, 0);
    assert_int_equal(old.l1.miss_queue, 16);
    assert_int_equal(old.l2.input_queue, 64);
    assert_int_equal(old.sm.ncarveouts, 0);
    assert_true(old.l1.carveout == WS_CARVEOUT_AUTO);
    remove(write_tmp(NULL));
}

static void test_sched_rules(void **state)
{
    const char *gto[] = {"sched.policy=gto", "sched.active_warps=2000"};
    const char *two[] = {"sched.policy=two_level", "sched.active_warps=16"};
    struct ws_gpu g;

    (void)state;
    g = load_ok("v100", gto, 2);
    assert_int_equal(g.sched.active_warps, 2000);
    g = load_ok("v100", two, 2);
    assert_int_equal(g.sched.active_warps, 16);
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
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_yaml_limits),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_bad_paths),
        cmocka_unit_test(test_builtin_base),
        cmocka_unit_test(test_sched_rules),
        cmocka_unit_test(test_carveout),
        cmocka_unit_test(test_older_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
