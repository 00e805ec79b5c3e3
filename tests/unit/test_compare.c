/*
 * Unit tests of warpsim compare's library (sim/input): Nsight's numbers
 * with thousands separators, unit scaling to base units, kernel base
 * names from mangled and demangled names, the Nsight CSV and Accel-Sim
 * log readers (values, running totals, errors at their line and column,
 * a log cut short anywhere inside a block, the values each refuses), the
 * run JSON reader's errors, and the pairing of repeated kernels with MAPE
 * and Pearson's r, refusing the measured cells and units it cannot use.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/ws_compare.h"
#include "measure/ws_kname.h"
#include "measure/ws_measured.h"
#include "measure/ws_simrun.h"
#include "ws_test.h"

/* ---- numbers and units ---------------------------------------------------- */

static void number_ok(const char *s, double want)
{
    double v = -1;

    if (ws_meas_number(s, &v) != 0)
        fail_msg("'%s' not read as a number", s);
    ws_test_near(v, want, s);
}

static void number_bad(const char *s, int want)
{
    double v;

    if (ws_meas_number(s, &v) != want)
        fail_msg("'%s' not read as %s", s, want ? "absent" : "bad");
}

static void test_number(void **state)
{
    (void)state;
    number_ok("7,433,216", 7433216);
    number_ok("114,514.79", 114514.79);
    number_ok("1,604,028,292.79", 1604028292.79);
    number_ok("0", 0);
    number_ok("5,706", 5706);
    number_ok("860", 860);
    number_ok("1234567", 1234567);
    number_ok("-3.5", -3.5);
    number_ok("0.11", 0.11);
    number_ok("1.5e+09", 1.5e9);
    number_ok("2E3", 2000);
    number_bad("", 1);
    number_bad("n/a", 1);
    number_bad("N/A", 1);
    number_bad("1,23", -1); /* a group of two */
    number_bad("12,34,567", -1);
    number_bad("1234,567", -1); /* a first group of four */
    number_bad(",123", -1);
    number_bad("1,", -1);
    number_bad("1,234e5", -1); /* no exponent with separators */
    number_bad("1.", -1);
    number_bad(".5", -1);
    number_bad("1.2.3", -1);
    number_bad("-", -1);
    number_bad("nan", -1);
    number_bad("inf", -1);
    number_bad("1e999", -1);
    number_bad(" 1", -1);
    number_bad("CachePreferNone", -1);
}

static void test_units(void **state)
{
    static const struct {
        const char *unit;
        double scale;
    } cases[] = {
        {"", 1},
        {"byte", 1},
        {"Kbyte", 1e3},
        {"Mbyte", 1e6},
        {"Gbyte", 1e9},
        {"Tbyte", 1e12},
        {"KiB", 1024},
        {"Mibyte", 1048576},
        {"second", 1},
        {"msecond", 1e-3},
        {"usecond", 1e-6},
        {"nsecond", 1e-9},
        {"ns", 1e-9},
        {"us", 1e-6},
        {"ms", 1e-3},
        {"hz", 1},
        {"Khz", 1e3},
        {"Mhz", 1e6},
        {"Ghz", 1e9},
        {"cycle/nsecond", 1e9},
        {"cycle/usecond", 1e6},
        {"Gbyte/second", 1e9},
        {"byte/block", 1},
        {"%", 1},
        {"%/register", 1},
        {"cycle", 1},
        {"Kcycle", 1e3},
        {"Minst", 1e6},
        {"sector", 1},
        {"SM", 1},
        {"register/thread", 1},
        {"warp", 1},
    };
    static const char *const unknown[] = {
        "furlong",         "K%",     "Kfurlong",    "byte/",  "/second",
        "byte/cycle/warp", "Kinst/", "Kibyte/KiB/", "Kiinst", "kbyte",
        "bytes",           " byte",
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ws_test_near(ws_meas_unit_scale(cases[i].unit), cases[i].scale,
                     cases[i].unit);
    ws_test_near(ws_meas_unit_scale("Gbyte/msecond"), 1e12, "Gbyte/ms");
    ws_test_near(ws_meas_unit_scale("%/byte"), 1, "%/byte");
    ws_test_near(ws_meas_unit_scale("GiB"), 1073741824, "GiB");
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        if (!isnan(ws_meas_unit_scale(unknown[i])))
            fail_msg("unit '%s' not refused", unknown[i]);
}

/* ---- base names ------------------------------------------------------------ */

static void base_is(const char *name, const char *want)
{
    char *b = ws_kname_base(name);

    assert_non_null(b);
    if (strcmp(b, want) != 0)
        fail_msg("base of '%s' is '%s' (expected '%s')", name, b, want);
    free(b);
}

static void test_kname(void **state)
{
    (void)state;
    base_is("_Z4apspPKfPfii", "apsp");
    base_is("_Z6vecAddPKfS0_Pfi", "vecAdd");
    base_is("_Z6reduceILi256EEvPKfPfi", "reduce");
    base_is("_ZL3foov", "foo");
    base_is("_ZN5cudnn6detail12dgrad_engineIfLi512ELi6EEEviiiPKT_",
            "cudnn::detail::dgrad_engine");
    base_is("_ZN3FooIiE3barEv", "Foo::bar");
    base_is("_ZN3FooIPKN2ns4TypeELb1EE3barEv", "Foo::bar");
    base_is("_ZNSt6vectorIiE4sizeEv", "std::vector::size");
    base_is("_ZN12_GLOBAL__N_13fooEv", "(anonymous namespace)::foo");
    base_is("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11"
            "FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEviT0_T1_",
            "at::native::vectorized_elementwise_kernel");
    base_is("_ZN2ns1kIJifEE3runEv", "ns::k::run");   /* a pack */
    base_is("_ZN2ns1kIXadL_Z1fvEEE3runEv", "ns::k"); /* an expression */
    base_is("_ZN2ns1kC1Ev", "ns::k");                /* a constructor */
    /* demangled, as Nsight prints them */
    base_is("apsp(const float *, float *, int, int)", "apsp");
    base_is("void reduce<256>(const float *, float *, int)", "reduce");
    base_is("void cudnn::detail::dgrad_engine<float, 512>(int, int)",
            "cudnn::detail::dgrad_engine");
    base_is("(anonymous namespace)::foo(int)", "(anonymous namespace)::foo");
    base_is("void f<(int)1>(x)", "f");
    base_is("unsigned int g<std::pair<int, int>>(int)", "g");
    base_is("vecAdd", "vecAdd");
    /* not names a reader can make sense of: themselves */
    base_is("_Z", "_Z");
    base_is("_Zx", "_Zx");
    base_is("_Z99abc", "_Z99abc");
    base_is("", "");
}

/* Nesting that would blow the stack of a naive recursive reader. */
static void test_kname_hostile(void **state)
{
    size_t n = 200000;
    char *s = malloc(n + 16), *b;

    (void)state;
    assert_non_null(s);
    strcpy(s, "_ZN1aI");
    for (size_t i = 6; i < n; i++)
        s[i] = i % 2 ? 'J' : 'P';
    s[n] = '\0';
    b = ws_kname_base(s);
    assert_non_null(b);
    free(b);
    for (size_t i = 2; i < n; i += 2) /* "StStSt...": std:: again and again */
        s[i] = 'S', s[i + 1] = 't';
    s[1] = 'Z';
    memcpy(s, "_ZN", 3);
    b = ws_kname_base(s);
    assert_non_null(b);
    free(b);
    free(s);
}

/* ---- the Nsight CSV reader --------------------------------------------------- */

#define NCU_HEAD \
    "\"ID\",\"Process ID\",\"Kernel Name\",\"launch__func_cache_config\"," \
    "\"dram__bytes_read.sum\",\"gpc__cycles_elapsed.max\"," \
    "\"sm__cycles_elapsed.avg.per_second\",\"gpu__time_duration.sum\"\n"

static int ncu(struct ws_measured *m, const char *text, struct ws_err *err)
{
    ws_err_clear(err);
    return ws_measured_parse(m, "n.csv", text, strlen(text), err);
}

static void test_ncu_units(void **state)
{
    static const char text[] =
        "==PROF== Connected to process 1 (/tmp/a)\n" NCU_HEAD
        "\"\",\"\",\"\",\"\",\"Kbyte\",\"Kcycle\",\"cycle/nsecond\",\"usecond\"\n"
        "\"0\",\"7\",\"apsp(const float *, float *, int, int)\",\"CachePreferNone\","
        "\"268.03\",\"114.52\",\"1.60\",\"71.39\"\n"
        "\"1\",\"7\",\"apsp(const float *, float *, int, int)\",\"CachePreferNone\","
        "\"n/a\",\"1,145.23\",\"\",\"\"\n";
    struct ws_measured m;
    struct ws_err err;
    long dram, cyc, t;

    (void)state;
    assert_int_equal(ncu(&m, text, &err), 0);
    assert_int_equal(m.format, WS_MEAS_NCU);
    assert_int_equal(m.nkernels, 2);
    assert_string_equal(m.kernels[0].base, "apsp");
    assert_int_equal(m.kernels[0].line, 4);
    assert_int_equal(m.kernels[1].id, 1);
    dram = ws_measured_metric(&m, "dram__bytes_read.sum");
    cyc = ws_measured_metric(&m, "gpc__cycles_elapsed.max");
    t = ws_measured_metric(&m, "time_us");
    assert_true(dram >= 0 && cyc >= 0 && t >= 0);
    assert_int_equal(ws_measured_metric(&m, "Kernel Name"), -1);
    ws_test_near(ws_measured_value(&m, 0, (size_t)dram), 268030, "bytes");
    ws_test_near(ws_measured_value(&m, 0, (size_t)cyc), 114520, "cycles");
    ws_test_near(ws_measured_value(&m, 0, (size_t)t), 114520 / 1.6e9 * 1e6,
                 "time from the clock");
    assert_true(isnan(ws_measured_value(&m, 1, (size_t)dram)));
    ws_test_near(ws_measured_value(&m, 1, (size_t)cyc), 1145230, "cycles");
    assert_true(isnan(ws_measured_value(&m, 1, (size_t)t)));
    /* text in a metric column is kept, not an error, until used */
    assert_int_equal(m.nbad, 2);
    assert_int_equal(m.bad[0].line, 4);
    assert_int_equal(m.bad[0].col, 50);
    ws_measured_free(&m);
}

/* Without a clock, time comes from gpu__time_duration; without
 * gpc__cycles_elapsed.max, the cycles from sm__cycles_elapsed.avg. */
static void test_ncu_derived(void **state)
{
    static const char text[] =
        "\"ID\",\"Kernel Name\",\"sm__cycles_elapsed.avg\","
        "\"gpu__time_duration.sum\"\n"
        "\"\",\"\",\"cycle\",\"ns\"\n"
        "\"5\",\"k\",\"6,165.86\",\"3,872\"\n";
    struct ws_measured m;
    struct ws_err err;

    (void)state;
    assert_int_equal(ncu(&m, text, &err), 0);
    ws_test_near(ws_measured_value(
                     &m, 0,
                     (size_t)ws_measured_metric(&m, "gpc__cycles_elapsed.max")),
                 6165.86, "alias");
    ws_test_near(ws_measured_value(&m, 0,
                                   (size_t)ws_measured_metric(&m, "time_us")),
                 3.872, "duration");
    assert_int_equal(m.kernels[0].id, 5);
    ws_measured_free(&m);
}

static void ncu_fails(const char *text, long line, const char *want)
{
    struct ws_measured m;
    struct ws_err err;

    assert_int_equal(ncu(&m, text, &err), -1);
    ws_test_err(&err, "n.csv", line, want);
}

static void test_ncu_errors(void **state)
{
    (void)state;
    /* a truncated row, after ncu's log lines: the file's line number */
    ncu_fails("==PROF== a\n==PROF== b\n" NCU_HEAD
              "\"0\",\"1\",\"k\",\"x\",\"1\"\n",
              4, "row has 5 fields");
    ncu_fails(NCU_HEAD "\"0\",\"1\",\"k", 2, "ends inside a quoted field");
    ncu_fails(
        "\"ID\",\"Process ID\",\"dram__bytes_read.sum\"\n\"0\",\"1\",\"2\"\n",
        1, "no column \"Kernel Name\"");
    ncu_fails(NCU_HEAD "\"\",\"\",\"\",\"\",\"byte\",\"cycle\",\"hz\",\"ns\"\n",
              3, "no kernel rows");
    ncu_fails(
        "\"ID\",\"Kernel Name\",\"a__b.sum\",\"a__b.sum\"\n\"0\",\"k\",\"1\",\"2\"\n",
        1, "column 'a__b.sum' named twice");
    ncu_fails("\"ID\",\"Kernel Name\"\n\"x\",\"k\"\n", 2, "ID 'x'");
    ncu_fails("\"ID\",\"Kernel Name\"\n\"0\",\"\"\n", 2, "empty kernel name");
    ncu_fails("==PROF== only\n", 1, "no data");
}

/* The committed H100 export (validate/measured/h100): 23 launches. */
static void test_ncu_h100(void **state)
{
    struct ws_measured m;
    struct ws_err err;
    long cyc, t, dram;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_measured_load(&m, "validate/measured/h100/ncu_raw.csv",
                                      &err),
                     0);
    assert_int_equal(m.nkernels, 23);
    assert_string_equal(m.kernels[0].name,
                        "apsp(const float *, float *, int, int)");
    assert_string_equal(m.kernels[22].base, "vecAdd");
    assert_int_equal(m.kernels[22].line, 25);
    cyc = ws_measured_metric(&m, "gpc__cycles_elapsed.max");
    t = ws_measured_metric(&m, "time_us");
    dram = ws_measured_metric(&m, "dram__bytes_read.sum");
    ws_test_near(ws_measured_value(&m, 0, (size_t)cyc), 114523, "cycles");
    ws_test_near(ws_measured_value(&m, 0, (size_t)dram), 268032, "dram");
    ws_test_near(ws_measured_value(&m, 0, (size_t)t),
                 114523 / 1604028292.79 * 1e6, "time");
    /* every unit of a real export is one of Nsight's */
    assert_int_equal(m.nunit_bad, 0);
    ws_measured_free(&m);
    /* the 515 columns of the extended metrics too */
    ws_err_clear(&err);
    assert_int_equal(ws_measured_load(&m,
                                      "validate/measured/h100/"
                                      "ncu_extra.csv",
                                      &err),
                     0);
    assert_true(m.nmetrics > 400);
    assert_int_equal(m.nunit_bad, 0);
    ws_measured_free(&m);
}

/* ---- the Accel-Sim log reader ------------------------------------------------- */

#define AS_BLOCK(name, uid, cyc, insn, occ, l1a, l1m, w, rd, wr, l2a, l2m) \
    "kernel_name = " name " \nkernel_launch_uid = " uid " \n" \
    "gpu_sim_cycle = " cyc "\ngpu_sim_insn = " insn "\n" \
    "gpu_tot_sim_cycle = 99999\ngpu_occupancy = " occ "% \n" \
    "L1I_cache:\n\tL1I_total_cache_accesses = 77\n" \
    "\tL1D_total_cache_accesses = " l1a "\n\tL1D_total_cache_misses = " l1m \
    "\n\tL1D_total_cache_miss_rate = 0.2500\n" \
    "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT] = 4\n" \
    "gpgpu_n_tot_thrd_icount = 1\ngpgpu_n_tot_w_icount = " w "\n" \
    "total dram reads = " rd "\ntotal dram writes = " wr "\n" \
    "DRAM[0]: 16 bks, busW=8 BL=8 CL=12, tRRD=3 tCCD=2\n" \
    "L2_total_cache_accesses = " l2a "\nL2_total_cache_misses = " l2m "\n" \
    "\nicnt_total_pkts_mem_to_simt=5\nicnt_total_pkts_simt_to_mem=5\n"

static const char as_log[] =
    "-gpgpu_clock_domains 1000.0:1000.0:1000.0:850.0 # Clock Domain\n"
    "launching kernel name: _Z1kv uid: 1\n" AS_BLOCK("_Z1kv", "1", "2000",
                                                     "6400", "50.0000", "100",
                                                     "25", "200", "10", "2",
                                                     "400", "100")
        AS_BLOCK("_Z1kv", "2", "3000", "9600", "nan", "300", "75", "500", "30",
                 "2", "400", "100") "GPGPU-Sim: *** exit detected ***\n";

static long metric(const struct ws_measured *m, const char *name)
{
    long i = ws_measured_metric(m, name);

    if (i < 0)
        fail_msg("no metric %s", name);
    return i;
}

static void test_accelsim(void **state)
{
    struct ws_measured m;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_measured_parse(&m, "a.log", as_log, strlen(as_log),
                                       &err),
                     0);
    assert_int_equal(m.format, WS_MEAS_ACCELSIM);
    assert_int_equal(m.nkernels, 2);
    assert_int_equal(m.kernels[1].id, 2);
    assert_int_equal(m.kernels[0].line, 3);
    assert_string_equal(m.kernels[0].base, "k");
    ws_test_near(
        ws_measured_value(&m, 0, (size_t)metric(&m, "gpc__cycles_elapsed.max")),
        2000, "cycles");
    ws_test_near(ws_measured_value(&m, 1, (size_t)metric(&m, "time_us")), 3,
                 "time at 1000 MHz");
    ws_test_near(
        ws_measured_value(&m, 1,
                          (size_t)metric(&m, "smsp__thread_inst_executed.sum")),
        9600, "insn");
    /* running totals: the second kernel's share is the rise */
    ws_test_near(
        ws_measured_value(&m, 1, (size_t)metric(&m, "smsp__inst_executed.sum")),
        300, "warp insts");
    ws_test_near(
        ws_measured_value(
            &m, 0,
            (size_t)metric(
                &m, "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct")),
        75, "L1 hit rate");
    ws_test_near(
        ws_measured_value(
            &m, 1,
            (size_t)metric(
                &m, "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct")),
        75, "L1 hit rate of the rises");
    /* no L2 access in the second kernel: no hit rate */
    assert_true(isnan(
        ws_measured_value(&m, 1,
                          (size_t)metric(&m, "lts__t_sector_hit_rate.pct"))));
    ws_test_near(ws_measured_value(
                     &m, 0, (size_t)metric(&m, "lts__t_sector_hit_rate.pct")),
                 75, "L2 hit rate");
    /* DRAM accesses x the 64-byte atom of busW=8 BL=8 */
    ws_test_near(ws_measured_value(&m, 1,
                                   (size_t)metric(&m, "dram__bytes_read.sum")),
                 20 * 64, "DRAM read");
    ws_test_near(ws_measured_value(&m, 1,
                                   (size_t)metric(&m, "dram__bytes_write.sum")),
                 0, "DRAM write");
    ws_test_near(ws_measured_value(
                     &m, 0,
                     (size_t)metric(
                         &m,
                         "sm__warps_active.avg.pct_of_peak_sustained_active")),
                 50, "occ");
    assert_true(isnan(ws_measured_value(
        &m, 1,
        (size_t)metric(&m,
                       "sm__warps_active.avg.pct_of_peak_sustained_active"))));
    ws_measured_free(&m);
}

static void accelsim_fails(const char *text, long line, const char *want)
{
    struct ws_measured m;
    struct ws_err err;

    ws_err_clear(&err);
    assert_int_equal(ws_measured_parse(&m, "a.log", text, strlen(text), &err),
                     -1);
    ws_test_err(&err, "a.log", line, want);
}

/* Every cut of the log inside the second block, at a line's end or in
 * the middle of one, is refused: from the first character of the kernel's
 * name to the end line, the block's figures are partial.  Cuts between blocks
 * read the complete blocks. */
static void test_accelsim_cut(void **state)
{
    const char *second = strstr(as_log + 1, "kernel_name = _Z1kv \n"
                                            "kernel_launch_uid = 2");
    const char *end2 = strstr(second, "icnt_total_pkts_simt_to_mem=");
    size_t first_end = (size_t)(strstr(as_log, "icnt_total_pkts_simt_to_mem=")
                                - as_log);
    struct ws_measured m;
    struct ws_err err;

    (void)state;
    assert_non_null(second);
    assert_non_null(end2);
    for (size_t cut = (size_t)(second - as_log) + strlen("kernel_name = _");
         cut < (size_t)(end2 - as_log) + 10; cut++) {
        ws_err_clear(&err);
        if (ws_measured_parse(&m, "a.log", as_log, cut, &err) == 0)
            fail_msg("the log cut at byte %zu is read", cut);
        /* a figure cut in its middle ("kernel_launch_uid = ") is bad */
        if (!strstr(err.text, "cut short")
            && !strstr(err.text, "no gpu_sim_cycle")
            && !strstr(err.text, ": bad "))
            fail_msg("cut at byte %zu: %s", cut, err.text);
    }
    /* the end line itself is there: "icnt_total_pkts_simt_to_mem=5" */
    ws_err_clear(&err);
    assert_int_equal(ws_measured_parse(&m, "a.log", as_log,
                                       (size_t)(end2 - as_log) + 29, &err),
                     0);
    assert_int_equal(m.nkernels, 2);
    ws_measured_free(&m);
    /* cut between the blocks: the first is read whole */
    ws_err_clear(&err);
    assert_int_equal(ws_measured_parse(&m, "a.log", as_log, first_end + 30,
                                       &err),
                     0);
    assert_int_equal(m.nkernels, 1);
    ws_measured_free(&m);
    /* where the message puts it: the log's last line */
    ws_err_clear(&err);
    assert_int_equal(ws_measured_parse(&m, "a.log", as_log,
                                       (size_t)(end2 - as_log), &err),
                     -1);
    ws_test_err(&err, "a.log", 45,
                "the statistics block of _Z1kv (from "
                "line 25) ends with the log, cut short (expected");
}

/* A block with its end line cut out, followed by another. */
static void test_accelsim_cut_by_next(void **state)
{
    static const char text[] = "kernel_name = _Z1kv \ngpu_sim_cycle = 5\n"
                               "kernel_name = _Z1kv \ngpu_sim_cycle = 6\n"
                               "icnt_total_pkts_simt_to_mem=1\n";

    (void)state;
    accelsim_fails(text, 3,
                   "(from line 1) ends at another kernel_name, cut "
                   "short (expected");
}

static void test_accelsim_errors(void **state)
{
    (void)state;
    accelsim_fails(AS_BLOCK("_Z1kv", "1", "2000", "6400", "50", "100", "25",
                            "200", "10", "2", "400", "100")
                       AS_BLOCK("_Z1kv", "2", "3000", "9600", "50", "300", "75",
                                "199", "30", "2", "400", "100"),
                   36, "gpgpu_n_tot_w_icount falls from 200 to 199");
    accelsim_fails("kernel_name = _Z1kv \nkernel_launch_uid = 1 \n", 1,
                   "has no gpu_sim_cycle");
    accelsim_fails("kernel_name = _Z1kv _Z1jv \n", 1, "several kernels");
    accelsim_fails("kernel_name = \n", 1, "no kernel name");
    accelsim_fails("kernel_name = k\ngpu_sim_cycle = 12x\n", 2,
                   "bad gpu_sim_cycle value");
    accelsim_fails("kernel_name = k\nkernel_launch_uid = -1\n", 2,
                   "bad kernel_launch_uid");
    accelsim_fails("hello\nworld\n", 1, "neither an Nsight Compute CSV");
}

/* Values no GPGPU-Sim run prints. */
static void test_accelsim_refused(void **state)
{
    (void)state;
    accelsim_fails("kernel_name = k\ngpu_sim_cycle = 5\ngpu_sim_insn = 9\n"
                   "gpu_sim_cycle = 7\n",
                   4,
                   "a second gpu_sim_cycle in the "
                   "statistics block of k (from line 1)");
    accelsim_fails("kernel_name = k\ngpu_occupancy = 21.5% \n"
                   "gpu_occupancy = 21.5% \n",
                   3, "a second gpu_occupancy");
    accelsim_fails("kernel_name = k\ngpu_sim_cycle = 5\n"
                   "gpu_occupancy = 250% \n",
                   3,
                   "gpu_occupancy 250% is "
                   "above 100%");
    accelsim_fails("kernel_name = k\ngpu_sim_cycle = 5\n"
                   "gpu_occupancy = 100.5%\n",
                   3, "is above 100%");
    accelsim_fails("kernel_name = k\ngpu_sim_cycle = -5\n", 2,
                   "bad gpu_sim_cycle value");
    accelsim_fails("-gpgpu_clock_domains 0:0:0:0 # x\n", 1,
                   "bad core clock '0' in -gpgpu_clock_domains");
    accelsim_fails("-gpgpu_clock_domains 0.0:1:1:1 # x\n", 1,
                   "bad core clock '0.0'");
    accelsim_fails("-gpgpu_clock_domains nan:nan:nan:nan # x\n", 1,
                   "bad core clock 'nan'");
    accelsim_fails("-gpgpu_clock_domains -1132:1:1:1 # x\n", 1,
                   "bad core clock '-1132'");
    accelsim_fails("-gpgpu_clock_domains inf:1:1:1 # x\n", 1,
                   "bad core clock 'inf'");
    accelsim_fails("-gpgpu_clock_domains 1e9:1:1:1 # x\n", 1,
                   "bad core clock '1e9'");
    accelsim_fails("-gpgpu_clock_domains 1132.0 # x\n", 1, "bad core clock");
    accelsim_fails("-gpgpu_clock_domains # x\n", 1, "bad core clock");
    accelsim_fails("DRAM[0]: 16 bks, busW=0 BL=0 CL=12,\n", 1,
                   "bad DRAM atom 'busW=0 BL=0 CL=12'");
    accelsim_fails("DRAM[0]: 16 bks, busW=4 BL=0 CL=12,\n", 1, "bad DRAM atom");
    accelsim_fails("DRAM[0]: 16 bks, busW=99999999999 BL=99999999999 CL=1,\n",
                   1, "bad DRAM atom");
    accelsim_fails("DRAM[0]: 16 bks, busW=128 BL=64 CL=12,\n", 1,
                   "bad DRAM atom");
    accelsim_fails("DRAM[0]: 16 bks, busW=2.5 BL=8 CL=12,\n", 1,
                   "bad DRAM atom");
    accelsim_fails("DRAM[0]: 16 bks, busW=4 CL=12,\n", 1, "bad DRAM atom");
    /* a later channel's line is checked too */
    accelsim_fails("DRAM[0]: 16 bks, busW=4 BL=8 CL=12,\n"
                   "DRAM[1]: 16 bks, busW=0 BL=8 CL=12,\n",
                   2, "bad DRAM atom");
}

/* The clock and the atom the log gives, at their limits. */
static void test_accelsim_limits(void **state)
{
    static const char text[] =
        "-gpgpu_clock_domains 2000:1:1:1 # x\n"
        "DRAM[0]: 16 bks, busW=64 BL=64 CL=12,\n"
        "kernel_name = k\ngpu_sim_cycle = 4000\ngpu_occupancy = 100% \n"
        "total dram reads = 2\nicnt_total_pkts_simt_to_mem=1\n";
    struct ws_measured m;
    struct ws_err err;

    (void)state;
    ws_err_clear(&err);
    assert_int_equal(ws_measured_parse(&m, "a.log", text, strlen(text), &err),
                     0);
    ws_test_near(ws_measured_value(&m, 0, (size_t)metric(&m, "time_us")), 2,
                 "time at 2000 MHz");
    ws_test_near(ws_measured_value(&m, 0,
                                   (size_t)metric(&m, "dram__bytes_read.sum")),
                 2 * 4096, "4096-byte atom");
    ws_measured_free(&m);
}

/* ---- the run JSON reader ---------------------------------------------------------- */

static int simrun(struct ws_simrun *s, const char *text, struct ws_err *err)
{
    ws_err_clear(err);
    return ws_simrun_parse(s, "s.json", text, strlen(text), err);
}

static void simrun_fails(const char *text, long line, const char *want)
{
    struct ws_simrun s;
    struct ws_err err;

    assert_int_equal(simrun(&s, text, &err), -1);
    ws_test_err(&err, "s.json", line, want);
}

static void test_simrun(void **state)
{
    static const char text[] =
        "{\"schema_version\": 1, \"gpu\": \"G\", \"kernels\": [{\"id\": 1,\n"
        " \"name\": \"_Z1kv\", \"derived\": {\"ipc\": 2, \"time_us\": 1.5,\n"
        " \"lts__t_sector_hit_rate.pct\": 50, \"l1tex__x.pct\": null},\n"
        " \"counters\": {\"sm__x.sum\": {\"value\": 7, \"unit\": \"inst\"},\n"
        " \"gpc__cycles_elapsed.max\": {\"value\": 10, \"unit\": \"cycle\"},\n"
        " \"ws__own.sum\": {\"value\": 1}}}]}\n";
    static const char *const order[] = {
        "sm__x.sum",   "gpc__cycles_elapsed.max",    "time_us",
        "ws__own.sum", "lts__t_sector_hit_rate.pct",
    };
    struct ws_simrun s;
    struct ws_err err;

    (void)state;
    assert_int_equal(simrun(&s, text, &err), 0);
    assert_string_equal(s.gpu, "G");
    assert_int_equal(s.nkernels, 1);
    assert_string_equal(s.kernels[0].base, "k");
    assert_int_equal(s.kernels[0].nmetrics, 5);
    for (size_t i = 0; i < 5; i++)
        assert_string_equal(s.kernels[0].metrics[i].name, order[i]);
    assert_string_equal(s.kernels[0].metrics[2].unit, "us");
    assert_string_equal(s.kernels[0].metrics[4].unit, "%");
    assert_string_equal(s.kernels[0].metrics[3].unit, "");
    ws_simrun_free(&s);

    simrun_fails("[1]\n", 1, "not a JSON object");
    simrun_fails("{\"kernels\": []}\n", 1, "no \"schema_version\"");
    simrun_fails("{\n \"schema_version\": 2, \"kernels\": []}", 2,
                 "schema_version is not 1");
    simrun_fails("{\"schema_version\": 1}", 1, "no \"kernels\" array");
    simrun_fails("{\"schema_version\": 1,\n\"kernels\": []}", 2, "no kernels");
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n{\"id\": 1, "
                 "\"name\": \"k\"}]}",
                 2, "has no \"counters\"");
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n{\"id\": 1, "
                 "\"name\": \"k\", \"counters\": {\n\"a\": {\"value\": "
                 "\"x\"}}}]}",
                 3, "counter 'a' has no number \"value\"");
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n{\"id\": 0, "
                 "\"name\": \"k\", \"counters\": {}}]}",
                 2, "no launch \"id\"");
    simrun_fails("{\"schema_version\": 1, \"a\": 1, \"a\": 2}", 1,
                 "JSON error");
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n{\"id\": 1, "
                 "\"name\": \"k\", \"counters\": {\n\"a\": {\"value\":\n"
                 "-5}}}]}",
                 4, "counter 'a' is negative, -5");
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n{\"id\": 1, "
                 "\"name\": \"k\", \"counters\": {}, \"derived\": {\n"
                 "\"time_us\": -1}}]}",
                 3, "derived 'time_us' is negative");
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n{\"id\": 1, "
                 "\"name\": \"k\", \"counters\": {}, \"derived\": {\n"
                 "\"a__b.pct\": -0.5}}]}",
                 3,
                 "derived 'a__b.pct' is "
                 "negative");
    simrun_fails("{\"schema_version\": 1,\n \"kernels\": [", 2, "JSON error");
}

/* ---- pairing and statistics ----------------------------------------------------------- */

/* A run of kernels a, b, a, a with cycles 110, 50, 190, 310. */
static const char pair_json[] =
    "{\"schema_version\": 1, \"kernels\": ["
    "{\"id\": 1, \"name\": \"_Z1av\", \"counters\": {\"c__x.sum\": "
    "{\"value\": 110}, \"c__only_sim.sum\": {\"value\": 1}}},"
    "{\"id\": 2, \"name\": \"_Z1bv\", \"counters\": {\"c__x.sum\": "
    "{\"value\": 50}, \"c__only_sim.sum\": {\"value\": 1}}},"
    "{\"id\": 3, \"name\": \"_Z1av\", \"counters\": {\"c__x.sum\": "
    "{\"value\": 190}, \"c__only_sim.sum\": {\"value\": 1}}},"
    "{\"id\": 4, \"name\": \"_Z1av\", \"counters\": {\"c__x.sum\": "
    "{\"value\": 310}, \"c__only_sim.sum\": {\"value\": 1}}}]}";

/* Measured: a, a, b, c, a (the third a pairs with the run's third). */
static const char pair_csv[] =
    "\"ID\",\"Kernel Name\",\"c__x.sum\",\"c__x.avg\",\"c__meas.sum\","
    "\"device__attribute_x\"\n"
    "\"0\",\"a()\",\"100\",\"1\",\"1\",\"1\"\n"
    "\"1\",\"a()\",\"200\",\"1\",\"1\",\"1\"\n"
    "\"2\",\"b()\",\"0\",\"1\",\"1\",\"1\"\n"
    "\"3\",\"c()\",\"7\",\"1\",\"1\",\"1\"\n"
    "\"4\",\"a()\",\"300\",\"1\",\"1\",\"1\"\n";

struct pair_fix {
    struct ws_simrun s;
    struct ws_measured m;
};

static void pair_load(struct pair_fix *f, const char *csv)
{
    struct ws_err err;

    assert_int_equal(simrun(&f->s, pair_json, &err), 0);
    ws_err_clear(&err);
    assert_int_equal(ws_measured_parse(&f->m, "p.csv", csv, strlen(csv), &err),
                     0);
}

static void pair_free(struct pair_fix *f)
{
    ws_simrun_free(&f->s);
    ws_measured_free(&f->m);
}

static void test_pairing(void **state)
{
    struct pair_fix f;
    struct ws_compare c;
    struct ws_err err;

    (void)state;
    pair_load(&f, pair_csv);
    ws_err_clear(&err);
    assert_int_equal(ws_compare_run(&c, &f.s, &f.m, NULL, &err), 0);
    assert_int_equal(c.npairs, 4);
    assert_int_equal(c.pairs[0].meas, 0);
    assert_int_equal(c.pairs[1].meas, 2); /* b with b */
    assert_int_equal(c.pairs[2].meas, 1); /* second a, second a */
    assert_int_equal(c.pairs[2].launch, 2);
    assert_int_equal(c.pairs[3].meas, 4);
    assert_int_equal(c.pairs[3].launch, 3);
    assert_int_equal(c.nsim_only, 0);
    assert_int_equal(c.nmeas_only, 1); /* c */
    assert_int_equal(c.meas_only[0].index, 3);
    assert_int_equal(c.nmetrics, 1);
    assert_string_equal(c.metrics[0].name, "c__x.sum");
    /* b measured 0: no relative difference, out of MAPE, in r */
    assert_true(isnan(ws_compare_cell(&c, 1, 0)->diff_pct));
    assert_int_equal(c.metrics[0].n, 4);
    assert_int_equal(c.metrics[0].n_mape, 3);
    ws_test_near(c.metrics[0].mape, (10 + 5 + 10.0 / 3) / 3, "MAPE");
    assert_true(fabs(c.metrics[0].r - 0.99) < 0.01);
    assert_int_equal(c.nsim_metrics_only, 1);
    assert_string_equal(c.sim_metrics_only[0], "c__only_sim.sum");
    /* c__x.avg is a roll-up of a compared counter, device__ an attribute */
    assert_int_equal(c.nmeas_metrics_only, 1);
    assert_string_equal(c.meas_metrics_only[0], "c__meas.sum");
    assert_int_equal(c.nattrs, 2);
    ws_compare_free(&c);
    pair_free(&f);
}

static void test_pairing_regex(void **state)
{
    struct pair_fix f;
    struct ws_compare c;
    struct ws_err err;
    regex_t re;

    (void)state;
    pair_load(&f, pair_csv);
    assert_int_equal(regcomp(&re, "^b", REG_EXTENDED | REG_NOSUB), 0);
    ws_err_clear(&err);
    assert_int_equal(ws_compare_run(&c, &f.s, &f.m, &re, &err), 0);
    assert_int_equal(c.npairs, 1);
    assert_int_equal(c.pairs[0].sim, 1);
    assert_int_equal(c.nmeas_only, 0);
    /* one pair: no r */
    assert_true(isnan(c.metrics[0].r));
    ws_compare_free(&c);
    regfree(&re);
    assert_int_equal(regcomp(&re, "zzz", REG_EXTENDED | REG_NOSUB), 0);
    ws_err_clear(&err);
    assert_int_equal(ws_compare_run(&c, &f.s, &f.m, &re, &err), -1);
    assert_non_null(strstr(err.text, "--kernel selects no kernel"));
    regfree(&re);
    pair_free(&f);
}

/* A measured cell that is not a number fails where it is compared. */
static void test_pairing_bad_cell(void **state)
{
    static const char csv[] = "\"ID\",\"Kernel Name\",\"c__x.sum\"\n"
                              "\"0\",\"a()\",\"100\"\n"
                              "\"1\",\"a()\",\"2,00\"\n";
    struct pair_fix f;
    struct ws_compare c;
    struct ws_err err;

    (void)state;
    pair_load(&f, csv);
    ws_err_clear(&err);
    assert_int_equal(ws_compare_run(&c, &f.s, &f.m, NULL, &err), -1);
    ws_test_err(&err, "p.csv", 3, "'2,00' for c__x.sum is not a number");
    assert_non_null(strstr(err.text, "p.csv:3:11:"));
    pair_free(&f);
}

/* What the Nsight reader keeps rather than refuses is refused where it
 * is compared, at its place: a negative count, a unit that is not
 * Nsight's, a percentage in a unit other than %; a derived metric takes
 * on its sources' unit problems. */
static const char unit_json[] =
    "{\"schema_version\": 1, \"kernels\": [{\"id\": 1, \"name\": \"_Z1av\","
    " \"counters\": {\"c__x.sum\": {\"value\": 5},"
    " \"gpc__cycles_elapsed.max\": {\"value\": 5}},"
    " \"derived\": {\"time_us\": 1, \"c__h.pct\": 50}}]}";

static void unit_fails(const char *csv, long line, long col, const char *want)
{
    struct ws_simrun s;
    struct ws_measured m;
    struct ws_compare c;
    struct ws_err err;
    char at[32];

    assert_int_equal(simrun(&s, unit_json, &err), 0);
    ws_err_clear(&err);
    assert_int_equal(ws_measured_parse(&m, "u.csv", csv, strlen(csv), &err), 0);
    ws_err_clear(&err);
    assert_int_equal(ws_compare_run(&c, &s, &m, NULL, &err), -1);
    ws_test_err(&err, "u.csv", line, want);
    snprintf(at, sizeof at, "u.csv:%ld:%ld: ", line, col);
    if (strncmp(err.text, at, strlen(at)) != 0)
        fail_msg("error '%s' not at %s", err.text, at);
    ws_measured_free(&m);
    ws_simrun_free(&s);
}

#define UNIT_HEAD \
    "\"ID\",\"Kernel Name\",\"c__x.sum\",\"c__h.pct\"," \
    "\"sm__cycles_elapsed.avg\",\"sm__cycles_elapsed.avg.per_second\"\n"

static void test_pairing_refused(void **state)
{
    struct ws_simrun s;
    struct ws_measured m;
    struct ws_compare c;
    struct ws_err err;
    static const char ok[] = UNIT_HEAD
        "\"\",\"\",\"Kinst\",\"%\",\"cycle\",\"Ghz\"\n"
        "\"0\",\"a()\",\"1\",\"40\",\"2,000\",\"1\"\n";

    (void)state;
    /* the same export with good units compares */
    assert_int_equal(simrun(&s, unit_json, &err), 0);
    ws_err_clear(&err);
    assert_int_equal(ws_measured_parse(&m, "u.csv", ok, strlen(ok), &err), 0);
    assert_int_equal(ws_compare_run(&c, &s, &m, NULL, &err), 0);
    assert_int_equal(c.nmetrics, 4);
    ws_compare_free(&c);
    ws_measured_free(&m);
    ws_simrun_free(&s);

    unit_fails(UNIT_HEAD "\"\",\"\",\"inst\",\"%\",\"cycle\",\"hz\"\n"
                         "\"0\",\"a()\",\"-1,000\",\"40\",\"2\",\"1\"\n",
               3, 11, "'-1,000' for c__x.sum is negative");
    unit_fails(UNIT_HEAD "\"\",\"\",\"furlong\",\"%\",\"cycle\",\"hz\"\n"
                         "\"0\",\"a()\",\"1\",\"40\",\"2\",\"1\"\n",
               2, 7, "unknown unit 'furlong' for c__x.sum (expected");
    unit_fails(UNIT_HEAD "\"\",\"\",\"inst\",\"Kbyte\",\"cycle\",\"hz\"\n"
                         "\"0\",\"a()\",\"1\",\"40\",\"2\",\"1\"\n",
               2, 14,
               "metric c__h.pct in unit 'Kbyte' is a byte count (expected "
               "a percentage: %)");
    /* a clock in furlongs: the cycles are fine, the time is not */
    unit_fails(UNIT_HEAD "\"\",\"\",\"inst\",\"%\",\"cycle\",\"furlong\"\n"
                         "\"0\",\"a()\",\"1\",\"40\",\"2\",\"1\"\n",
               2, 26, "unknown unit 'furlong' for time_us");
    /* the same with a duration: the time is still refused */
    unit_fails(
        "\"ID\",\"Kernel Name\",\"c__x.sum\",\"c__h.pct\","
        "\"sm__cycles_elapsed.avg\",\"sm__cycles_elapsed.avg.per_second\","
        "\"gpu__time_duration.sum\"\n"
        "\"\",\"\",\"inst\",\"%\",\"cycle\",\"furlong\",\"ns\"\n"
        "\"0\",\"a()\",\"1\",\"40\",\"2\",\"1\",\"1\"\n",
        2, 26, "unknown unit 'furlong' for time_us");
    /* cycles in furlongs: both derived metrics refuse */
    unit_fails(UNIT_HEAD "\"\",\"\",\"inst\",\"%\",\"furlong\",\"hz\"\n"
                         "\"0\",\"a()\",\"1\",\"40\",\"2\",\"1\"\n",
               2, 18, "unknown unit 'furlong' for gpc__cycles_elapsed.max");
    unit_fails(UNIT_HEAD "\"\",\"\",\"inst\",\"%\",\"cycle\",\"hz\"\n"
                         "\"0\",\"a()\",\"1\",\"40\",\"-2\",\"1\"\n",
               3, 20, "'-2' for gpc__cycles_elapsed.max is negative");
    /* a number that the unit takes past a double */
    unit_fails(UNIT_HEAD "\"\",\"\",\"Pinst\",\"%\",\"cycle\",\"hz\"\n"
                         "\"0\",\"a()\",\"1e308\",\"40\",\"2\",\"1\"\n",
               3, 11, "'1e308' for c__x.sum is not a number");
}

static void test_pairing_none(void **state)
{
    static const char csv[] = "\"ID\",\"Kernel Name\",\"c__x.sum\"\n"
                              "\"0\",\"z()\",\"100\"\n";
    struct pair_fix f;
    struct ws_compare c;
    struct ws_err err;

    (void)state;
    pair_load(&f, csv);
    ws_err_clear(&err);
    assert_int_equal(ws_compare_run(&c, &f.s, &f.m, NULL, &err), -1);
    assert_non_null(strstr(err.text, "no kernel is both simulated and "
                                     "measured"));
    assert_non_null(strstr(err.text, "simulated a, b, a, ...; measured z"));
    pair_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_number),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_kname),
        cmocka_unit_test(test_kname_hostile),
        cmocka_unit_test(test_ncu_units),
        cmocka_unit_test(test_ncu_derived),
        cmocka_unit_test(test_ncu_errors),
        cmocka_unit_test(test_ncu_h100),
        cmocka_unit_test(test_accelsim),
        cmocka_unit_test(test_accelsim_cut),
        cmocka_unit_test(test_accelsim_cut_by_next),
        cmocka_unit_test(test_accelsim_errors),
        cmocka_unit_test(test_accelsim_refused),
        cmocka_unit_test(test_accelsim_limits),
        cmocka_unit_test(test_simrun),
        cmocka_unit_test(test_pairing),
        cmocka_unit_test(test_pairing_regex),
        cmocka_unit_test(test_pairing_bad_cell),
        cmocka_unit_test(test_pairing_refused),
        cmocka_unit_test(test_pairing_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
