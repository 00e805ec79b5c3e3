/*
 * Unit tests of what warpsim compare refuses or notes beyond a cell's
 * number (test_compare.c holds the readers' and the pairing's basics):
 *
 *   - units and dimensions: what each unit spelling measures and how it
 *     scales ('byte', 'B', 'KB', 'Kbyte', 'KiB', 'bit', '%', '' ...), the
 *     dimension Nsight's metric names give, a byte counter in a time unit
 *     refused at its unit cell, by its name or by the simulated counter's
 *     unit, a derived time whose clock is no clock;
 *   - identity: a launch id twice (a repeated row or block, byte for byte
 *     or not) or one id for two kernels, in an Nsight export, an
 *     Accel-Sim log and a run's JSON; a repeated block without ids;
 *   - an Accel-Sim log's cache totals: misses and pending hits past the
 *     accesses, a miss rate that is not misses / accesses, a total one
 *     block lacks, nan or fractional totals; and the notes of what a log
 *     legitimately lacks (no L1D, no clock, a kernel without an access),
 *     which the comparison keeps for its paired kernels.
 *
 * Leaves out: the report's layout (the command-line goldens).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/ws_compare.h"
#include "measure/ws_measured.h"
#include "measure/ws_simrun.h"
#include "ws_test.h"

static int parse(struct ws_measured *m, const char *name, const char *text,
                 struct ws_err *err)
{
    ws_err_clear(err);
    return ws_measured_parse(m, name, text, strlen(text), err);
}

/* Parses text, which must fail at name:line:col with want. */
static void parse_fails(const char *text, long line, long col, const char *want)
{
    struct ws_measured m;
    struct ws_err err;
    char at[48];

    assert_int_equal(parse(&m, "x", text, &err), -1);
    ws_test_err(&err, "x", line, want);
    snprintf(at, sizeof at, "x:%ld:%ld: ", line, col);
    if (col > 0 && strncmp(err.text, at, strlen(at)) != 0)
        fail_msg("error '%s' not at %s", err.text, at);
}

/* ---- units and dimensions ------------------------------------------------- */

static void test_unit_dims(void **state)
{
    static const struct {
        const char *unit;
        enum ws_meas_dim dim;
        double scale;
    } cases[] = {
        {"", WS_DIM_PLAIN, 1},
        {"byte", WS_DIM_BYTES, 1},
        {"B", WS_DIM_BYTES, 1},
        {"KB", WS_DIM_BYTES, 1e3},
        {"Kbyte", WS_DIM_BYTES, 1e3},
        {"KiB", WS_DIM_BYTES, 1024},
        {"Mibyte", WS_DIM_BYTES, 1048576},
        {"bit", WS_DIM_BYTES, 0.125},
        {"Kbit", WS_DIM_BYTES, 125},
        {"%", WS_DIM_PCT, 1},
        {"cycle", WS_DIM_CYCLES, 1},
        {"Kcycle", WS_DIM_CYCLES, 1e3},
        {"msecond", WS_DIM_TIME, 1e-3},
        {"ns", WS_DIM_TIME, 1e-9},
        {"second", WS_DIM_TIME, 1},
        {"hz", WS_DIM_CLOCK, 1},
        {"Ghz", WS_DIM_CLOCK, 1e9},
        {"cycle/nsecond", WS_DIM_CLOCK, 1e9},
        {"byte/second", WS_DIM_BYTE_RATE, 1},
        {"Gbyte/second", WS_DIM_BYTE_RATE, 1e9},
        {"inst/second", WS_DIM_COUNT_RATE, 1},
        {"byte/block", WS_DIM_RATIO, 1},
        {"%/register", WS_DIM_RATIO, 1},
        {"inst/cycle", WS_DIM_RATIO, 1},
        {"Minst", WS_DIM_COUNT, 1e6},
        {"sector", WS_DIM_COUNT, 1},
        {"warp", WS_DIM_COUNT, 1},
    };
    /* spellings Nsight never prints: no dimension, no scale */
    static const char *const odd[] = {
        "Byte", "bytes", "percent", "kbyte", "Kib",   "KiInst",
        "ms/",  "%%",    "K%",      " byte", "byte ", "Bytes/s",
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (ws_meas_unit_dim(cases[i].unit) != cases[i].dim)
            fail_msg("unit '%s' is %s", cases[i].unit,
                     ws_meas_dim_name(ws_meas_unit_dim(cases[i].unit)));
        ws_test_near(ws_meas_unit_scale(cases[i].unit), cases[i].scale,
                     cases[i].unit);
    }
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        if (ws_meas_unit_dim(odd[i]) != WS_DIM_UNKNOWN
            || !isnan(ws_meas_unit_scale(odd[i])))
            fail_msg("unit '%s' not refused", odd[i]);
    /* warpsim's own words in a run's JSON */
    assert_int_equal(ws_meas_sim_unit_dim("cta"), WS_DIM_COUNT);
    assert_int_equal(ws_meas_sim_unit_dim("warp-cycle"), WS_DIM_COUNT);
    assert_int_equal(ws_meas_sim_unit_dim("access"), WS_DIM_COUNT);
    assert_int_equal(ws_meas_sim_unit_dim("us"), WS_DIM_TIME);
    assert_int_equal(ws_meas_unit_dim("cta"), WS_DIM_UNKNOWN);
    /* a plain number or an unknown side fits anything */
    assert_true(ws_meas_dim_fits(WS_DIM_PLAIN, WS_DIM_BYTES));
    assert_true(ws_meas_dim_fits(WS_DIM_TIME, WS_DIM_UNKNOWN));
    assert_false(ws_meas_dim_fits(WS_DIM_TIME, WS_DIM_BYTES));
    assert_false(ws_meas_dim_fits(WS_DIM_BYTE_RATE, WS_DIM_CLOCK));
}

static void test_metric_dims(void **state)
{
    static const struct {
        const char *name;
        enum ws_meas_dim dim;
    } cases[] = {
        {"dram__bytes_read.sum", WS_DIM_BYTES},
        {"l1tex__m_xbar2l1tex_read_bytes.sum", WS_DIM_BYTES},
        {"gpc__cycles_elapsed.max", WS_DIM_CYCLES},
        {"sm__cycles_active.avg", WS_DIM_CYCLES},
        {"gpu__time_duration.sum", WS_DIM_TIME},
        {"time_us", WS_DIM_TIME},
        {"lts__t_sector_hit_rate.pct", WS_DIM_PCT},
        {"sm__warps_active.avg.pct_of_peak_sustained_active", WS_DIM_PCT},
        {"smsp__inst_executed.sum", WS_DIM_COUNT},
        {"lts__t_sectors_op_read.sum", WS_DIM_COUNT},
        {"smsp__warps_issue_stalled_barrier.sum", WS_DIM_COUNT},
        {"gpc__cycles_elapsed.avg.per_second", WS_DIM_CLOCK},
        {"dram__bytes.sum.per_second", WS_DIM_BYTE_RATE},
        {"smsp__inst_executed.sum.per_second", WS_DIM_COUNT_RATE},
        /* names that say nothing certain */
        {"smsp__issue_active.sum", WS_DIM_UNKNOWN},
        {"sm__warps_active.avg.per_cycle_active", WS_DIM_UNKNOWN},
        {"dram__bytes_per_cycles.sum", WS_DIM_UNKNOWN},
        {"launch__grid_size", WS_DIM_UNKNOWN},
        {"c__x.sum", WS_DIM_UNKNOWN},
        {"ipc", WS_DIM_UNKNOWN},
        {"", WS_DIM_UNKNOWN},
        {"__", WS_DIM_UNKNOWN},
        {"a__.pct", WS_DIM_PCT},
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (ws_meas_metric_dim(cases[i].name) != cases[i].dim)
            fail_msg("metric '%s' is %s", cases[i].name,
                     ws_meas_dim_name(ws_meas_metric_dim(cases[i].name)));
}

#define DIM_HEAD \
    "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"," \
    "\"gpc__cycles_elapsed.max\",\"gpc__cycles_elapsed.avg.per_second\"," \
    "\"smsp__issue_active.sum\"\n"

/* A run of one kernel with the four metrics, in warpsim's units. */
static const char dim_json[] =
    "{\"schema_version\": 1, \"kernels\": [{\"id\": 1, \"name\": \"_Z1av\","
    " \"counters\": {\"dram__bytes_read.sum\": {\"value\": 5, \"unit\": "
    "\"byte\"}, \"gpc__cycles_elapsed.max\": {\"value\": 5, \"unit\": "
    "\"cycle\"}, \"smsp__issue_active.sum\": {\"value\": 5, \"unit\": "
    "\"cycle\"}}, \"derived\": {\"time_us\": 1}}]}";

/* Compares csv against dim_json: 0, or -1 with the error in err. */
static int dim_compare(const char *csv, struct ws_err *err)
{
    struct ws_simrun s;
    struct ws_measured m;
    struct ws_compare c;
    int rc;

    ws_err_clear(err);
    assert_int_equal(ws_simrun_parse(&s, "s.json", dim_json, strlen(dim_json),
                                     err),
                     0);
    assert_int_equal(parse(&m, "d.csv", csv, err), 0);
    rc = ws_compare_run(&c, &s, &m, NULL, err);
    if (rc == 0)
        ws_compare_free(&c);
    ws_measured_free(&m);
    ws_simrun_free(&s);
    return rc;
}

static void dim_fails(const char *units, long col, const char *want)
{
    char csv[1024];
    struct ws_err err;
    char at[32];

    snprintf(csv, sizeof csv,
             DIM_HEAD "%s\n\"0\",\"a()\",\"1\",\"2\","
                      "\"3\",\"4\"\n",
             units);
    assert_int_equal(dim_compare(csv, &err), -1);
    ws_test_err(&err, "d.csv", 2, want);
    snprintf(at, sizeof at, "d.csv:2:%ld: ", col);
    if (strncmp(err.text, at, strlen(at)) != 0)
        fail_msg("error '%s' not at %s", err.text, at);
}

static void test_ncu_dims(void **state)
{
    struct ws_err err;

    (void)state;
    /* units that scale within their dimension compare */
    assert_int_equal(dim_compare(DIM_HEAD
                                 "\"\",\"\",\"KiB\",\"Kcycle\","
                                 "\"cycle/nsecond\",\"cycle\"\n"
                                 "\"0\",\"a()\",\"1\",\"2\",\"3\",\"4\"\n",
                                 &err),
                     0);
    assert_int_equal(dim_compare(DIM_HEAD
                                 "\"\",\"\",\"B\",\"\",\"Ghz\","
                                 "\"\"\n\"0\",\"a()\",\"1\",\"2\",\"3\","
                                 "\"4\"\n",
                                 &err),
                     0);
    /* no units row: plain numbers in base units */
    assert_int_equal(dim_compare(DIM_HEAD "\"0\",\"a()\",\"1\",\"2\","
                                          "\"3\",\"4\"\n",
                                 &err),
                     0);
    /* a byte counter in a time unit: by its Nsight name */
    dim_fails("\"\",\"\",\"msecond\",\"cycle\",\"hz\",\"cycle\"", 7,
              "metric dram__bytes_read.sum in unit 'msecond' is a time "
              "(expected a byte unit: byte, Kbyte, Mbyte");
    dim_fails("\"\",\"\",\"%\",\"cycle\",\"hz\",\"cycle\"", 7,
              "in unit '%' is a percentage (expected a byte unit");
    dim_fails("\"\",\"\",\"byte\",\"nsecond\",\"hz\",\"cycle\"", 14,
              "metric gpc__cycles_elapsed.max in unit 'nsecond' is a time "
              "(expected a cycle unit");
    /* a name that says nothing: the simulated counter's unit, cycle */
    dim_fails("\"\",\"\",\"byte\",\"cycle\",\"hz\",\"Kbyte\"", 27,
              "metric smsp__issue_active.sum in unit 'Kbyte' is a byte "
              "count (expected a cycle unit: cycle, Kcycle, Mcycle, ..., as "
              "the simulation counts it in 'cycle')");
    /* a clock in bytes per second: the time derived from it is refused */
    dim_fails("\"\",\"\",\"byte\",\"cycle\",\"Gbyte/second\",\"cycle\"", 22,
              "metric time_us comes from gpc__cycles_elapsed.avg.per_second,"
              " in unit 'Gbyte/second', which is a byte rate (expected a "
              "clock");
}

/* A zero clock refuses the time derived from it, at the clock's cell. */
static void test_ncu_zero_clock(void **state)
{
    struct ws_err err;

    (void)state;
    assert_int_equal(dim_compare(DIM_HEAD
                                 "\"\",\"\",\"byte\",\"cycle\","
                                 "\"hz\",\"cycle\"\n\"0\",\"a()\",\"1\","
                                 "\"2\",\"0\",\"4\"\n",
                                 &err),
                     -1);
    ws_test_err(&err, "d.csv", 3,
                "metric time_us comes from the clock "
                "gpc__cycles_elapsed.avg.per_second, which is '0'");
    assert_non_null(strstr(err.text, "d.csv:3:19: "));
}

/* ---- identity -------------------------------------------------------------- */

#define ID_HEAD "\"ID\",\"Kernel Name\",\"c__x.sum\"\n"

static void test_ncu_identity(void **state)
{
    struct ws_measured m;
    struct ws_err err;

    (void)state;
    /* a row twice, byte for byte: refused at the second */
    parse_fails(ID_HEAD "\"0\",\"a()\",\"1\"\n\"1\",\"b()\",\"2\"\n"
                        "\"1\",\"b()\",\"2\"\n",
                4, 1,
                "launch ID 1 of b() again, as "
                "at line 3 (expected each launch once");
    /* one ID, two kernels: both named */
    parse_fails(ID_HEAD "\"0\",\"a()\",\"1\"\n\"7\",\"b()\",\"2\"\n"
                        "\"3\",\"c()\",\"2\"\n\"7\",\"a()\",\"2\"\n",
                5, 1,
                "launch ID 7 is a() here but b() at line 3 (expected one "
                "kernel per launch ID");
    /* the same kernel under several IDs, and rows without an ID, read */
    assert_int_equal(parse(&m, "x",
                           ID_HEAD "\"0\",\"a()\",\"1\"\n"
                                   "\"1\",\"a()\",\"2\"\n\"\",\"a()\",\"3\"\n"
                                   "\"\",\"a()\",\"3\"\n",
                           &err),
                     0);
    assert_int_equal(m.nkernels, 4);
    ws_measured_free(&m);
}

/* An Accel-Sim block: uid (or none when NULL), cycles, thread and warp
 * instructions (running), L1D accesses, misses (running), miss rate. */
static char *as_block(char *buf, size_t size, const char *name, const char *uid,
                      const char *insn, const char *winsn, const char *l1a,
                      const char *l1m, const char *rate)
{
    char uidline[64] = "";

    if (uid)
        snprintf(uidline, sizeof uidline, "kernel_launch_uid = %s \n", uid);
    snprintf(buf, size,
             "kernel_name = %s \n%sgpu_sim_cycle = 100\n"
             "gpu_sim_insn = %s\n\tL1D_total_cache_accesses = %s\n"
             "\tL1D_total_cache_misses = %s\n%s%s%s"
             "gpgpu_n_tot_w_icount = %s\n"
             "icnt_total_pkts_simt_to_mem=1\n",
             name, uidline, insn, l1a, l1m,
             rate ? "\tL1D_total_cache_miss_rate = " : "", rate ? rate : "",
             rate ? "\n" : "", winsn);
    return buf;
}

/* Two blocks joined, to parse. */
static void as_two_fail(const char *b1, const char *b2, long line, long col,
                        const char *want)
{
    char text[2048];

    snprintf(text, sizeof text, "%s%s", b1, b2);
    parse_fails(text, line, col, want);
}

static void test_accelsim_identity(void **state)
{
    char a[512], b[512];

    (void)state;
    as_block(a, sizeof a, "_Z1av", "1", "64", "2", "10", "5", "0.5000");
    /* the same block twice */
    as_two_fail(a, a, 11, 21,
                "kernel_launch_uid 1 of _Z1av again, as at "
                "line 2 (expected each launch once");
    /* one uid for two kernels */
    as_two_fail(a,
                as_block(b, sizeof b, "_Z1bv", "1", "64", "4", "20", "10",
                         "0.5000"),
                11, 21,
                "kernel_launch_uid 1 is _Z1bv "
                "here but _Z1av at line 2");
    /* without uids, a repeat shows as warp instructions that do not rise */
    as_block(a, sizeof a, "_Z1av", NULL, "64", "2", "10", "5", "0.5000");
    as_two_fail(a, a, 15, 1,
                "gpgpu_n_tot_w_icount does not rise in the "
                "statistics block of _Z1av, though its gpu_sim_insn is 64");
    /* a total twice in one block: again is fine, another value is not */
    parse_fails("kernel_name = k\nL2_total_cache_accesses = 5\n"
                "L2_total_cache_accesses = 5\nL2_total_cache_accesses = 6\n",
                4, 1,
                "a second L2_total_cache_accesses in the statistics "
                "block of k");
    /* two uids in one block */
    parse_fails("kernel_name = k\nkernel_launch_uid = 1\n"
                "kernel_launch_uid = 2\n",
                3, 1, "a second kernel_launch_uid");
}

/* ---- cache totals ------------------------------------------------------------ */

static void test_accelsim_totals(void **state)
{
    char a[512], b[512];

    (void)state;
    as_block(a, sizeof a, "_Z1av", "1", "64", "2", "10", "5", "0.5000");
    /* misses that rise past the accesses */
    as_two_fail(a,
                as_block(b, sizeof b, "_Z1bv", "2", "64", "4", "12", "9",
                         "0.7500"),
                15, 2,
                "the L1D totals rise by 4 "
                "misses and 0 pending hits in the statistics block of _Z1bv,"
                " past their 2 accesses");
    /* in the first block: against the accesses themselves */
    parse_fails(as_block(b, sizeof b, "_Z1bv", "2", "64", "4", "12", "13",
                         NULL),
                6, 2, "rise by 13 misses");
    /* a miss rate that is not misses / accesses (to 4 decimals) */
    parse_fails(as_block(b, sizeof b, "_Z1bv", "2", "64", "4", "12", "4",
                         "0.3334"),
                7, 2,
                "L1D_total_cache_miss_rate 0.3334 "
                "is not L1D_total_cache_misses / L1D_total_cache_accesses, "
                "4 / 12 = 0.3333");
    parse_fails(as_block(b, sizeof b, "_Z1bv", "2", "64", "4", "0", "0",
                         "0.0000"),
                7, 2,
                "with no access in "
                "L1D_total_cache_accesses");
    /* pending hits count too */
    parse_fails("kernel_name = k\ngpu_sim_cycle = 1\n"
                "L2_total_cache_accesses = 10\nL2_total_cache_misses = 6\n"
                "L2_total_cache_pending_hits = 5\n"
                "icnt_total_pkts_simt_to_mem=1\n",
                5, 1,
                "the L2 totals rise "
                "by 6 misses and 5 pending hits");
    /* one of a pair without the other */
    parse_fails("kernel_name = k\ngpu_sim_cycle = 1\n"
                "L2_total_cache_accesses = 10\n"
                "icnt_total_pkts_simt_to_mem=1\n",
                3, 1, "L2_total_cache_accesses without L2_total_cache_misses");
    parse_fails("kernel_name = k\ngpu_sim_cycle = 1\n"
                "L2_total_cache_miss_rate = 0.1\n"
                "icnt_total_pkts_simt_to_mem=1\n",
                3, 1,
                "L2_total_cache_miss_rate without L2_total_cache_accesses");
    /* totals are whole numbers, never nan */
    parse_fails("kernel_name = k\nL2_total_cache_accesses = nan\n", 2, 26,
                "bad L2_total_cache_accesses value (expected a whole number");
    parse_fails("kernel_name = k\ngpu_sim_insn = 2.5\n", 2, 15,
                "bad gpu_sim_insn value");
    /* a total one block lacks, or only a later block has */
    as_block(a, sizeof a, "_Z1av", "1", "64", "2", "10", "5", NULL);
    as_two_fail(a,
                "kernel_name = _Z1bv \ngpu_sim_cycle = 5\n"
                "gpu_sim_insn = 5\ngpgpu_n_tot_w_icount = 9\n"
                "icnt_total_pkts_simt_to_mem=1\n",
                9, 1,
                "the statistics "
                "block of _Z1bv has no L1D_total_cache_accesses, which the "
                "block from line 1 has");
    as_two_fail("kernel_name = _Z1bv \ngpu_sim_cycle = 5\n"
                "gpu_sim_insn = 5\ngpgpu_n_tot_w_icount = 1\n"
                "icnt_total_pkts_simt_to_mem=1\n",
                a, 10, 2,
                "L1D_total_cache_accesses in the statistics block of _Z1av, "
                "but not in the block from line 1");
    /* a second core clock: a second run's option echo */
    parse_fails("-gpgpu_clock_domains 1000:1:1:1 # x\n"
                "-gpgpu_clock_domains 1500:1:1:1 # x\n",
                2, 22,
                "a second core clock, 1500 MHz, after 1000 MHz at line 1");
}

/* What a log lacks for a reason of its own: notes, not errors; kept by
 * the comparison for compared metrics and paired kernels only. */
static void test_accelsim_notes(void **state)
{
    static const char log[] =
        "kernel_name = _Z1av \nkernel_launch_uid = 1 \ngpu_sim_cycle = 100\n"
        "gpu_occupancy = nan% \nL2_total_cache_accesses = 10\n"
        "L2_total_cache_misses = 5\nicnt_total_pkts_simt_to_mem=1\n"
        "kernel_name = _Z1av \nkernel_launch_uid = 2 \ngpu_sim_cycle = 200\n"
        "gpu_occupancy = 50% \nL2_total_cache_accesses = 10\n"
        "L2_total_cache_misses = 5\nicnt_total_pkts_simt_to_mem=1\n"
        "-gpgpu_clock_domains 1000:1:1:1 # echoed late\n";
    static const char run[] =
        "{\"schema_version\": 1, \"kernels\": [{\"id\": 1, \"name\": "
        "\"_Z1av\", \"counters\": {}, \"derived\": {\"time_us\": 1, "
        "\"lts__t_sector_hit_rate.pct\": 50}}, {\"id\": 2, \"name\": "
        "\"_Z1av\", \"counters\": {}, \"derived\": {\"time_us\": 1, "
        "\"lts__t_sector_hit_rate.pct\": 50}}]}";
    struct ws_measured m;
    struct ws_simrun s;
    struct ws_compare c;
    struct ws_err err;
    long l2;
    int l2_note = 0;

    (void)state;
    assert_int_equal(parse(&m, "x", log, &err), 0);
    l2 = ws_measured_metric(&m, "lts__t_sector_hit_rate.pct");
    ws_test_near(ws_measured_value(&m, 0, (size_t)l2), 50, "L2 hit rate");
    assert_true(isnan(ws_measured_value(&m, 1, (size_t)l2)));
    /* the clock echoed after the blocks still times them */
    ws_test_near(ws_measured_value(&m, 0,
                                   (size_t)ws_measured_metric(&m, "time_us")),
                 0.1, "time");
    for (size_t i = 0; i < m.nnotes; i++) {
        const struct ws_meas_note *n = &m.notes[i];
        if (n->metric == (size_t)l2) {
            assert_int_equal(n->kernel, 1);
            assert_int_equal(n->line, 12);
            assert_non_null(strstr(n->why, "no L2 access"));
            l2_note++;
        }
    }
    assert_int_equal(l2_note, 1);
    /* occupancy nan; no L1D, DRAM, instructions in the log: notes of all
     * kernels, none for the time */
    assert_int_equal(m.nnotes, 1 + 1 + 5);
    ws_err_clear(&err);
    assert_int_equal(ws_simrun_parse(&s, "s.json", run, strlen(run), &err), 0);
    assert_int_equal(ws_compare_run(&c, &s, &m, NULL, &err), 0);
    /* of the compared metrics (time_us, the L2 hit rate) only the L2's */
    assert_int_equal(c.nnotes, 1);
    assert_string_equal(c.notes[0].metric, "lts__t_sector_hit_rate.pct");
    assert_int_equal(c.notes[0].pair, 1);
    ws_compare_free(&c);
    ws_simrun_free(&s);
    ws_measured_free(&m);
}

/* ---- the run's JSON ------------------------------------------------------------ */

static void simrun_fails(const char *text, long line, const char *want)
{
    struct ws_simrun s;
    struct ws_err err;

    ws_err_clear(&err);
    assert_int_equal(ws_simrun_parse(&s, "s.json", text, strlen(text), &err),
                     -1);
    ws_test_err(&err, "s.json", line, want);
}

#define SR_KERNEL(id, name, unit) \
    "{\"id\": " id ", \"name\": \"" name "\", " \
    "\"counters\": {\"dram__bytes_read.sum\": {\"value\": 1, \"unit\": \"" unit \
    "\"}}}"

static void test_simrun_checks(void **state)
{
    (void)state;
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n" SR_KERNEL(
                     "1", "_Z1av", "byte") ",\n" SR_KERNEL("1", "_Z1av",
                                                           "byte") "]}",
                 3,
                 "kernel 2 repeats "
                 "launch id 1 of kernel 1, _Z1av (expected each launch once");
    simrun_fails(
        "{\"schema_version\": 1, \"kernels\": [\n" SR_KERNEL(
            "4", "_Z1av",
            "byte") ",\n" SR_KERNEL("5", "_Z1bv",
                                    "byte") ",\n" SR_KERNEL("4", "_Z1bv",
                                                            "byte") "]}",
        4,
        "launch id 4 is "
        "_Z1bv in kernel 3 but _Z1av in kernel 1");
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n" SR_KERNEL(
                     "1", "_Z1av", "msecond") "]}",
                 2,
                 "counter "
                 "'dram__bytes_read.sum' in unit 'msecond' is a time "
                 "(expected a byte unit");
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n" SR_KERNEL(
                     "1", "_Z1av", "byte") ",\n" SR_KERNEL("2", "_Z1av",
                                                           "B") "]}",
                 3,
                 "counter "
                 "'dram__bytes_read.sum' is in 'B' here but in 'byte' "
                 "in kernel 1");
    /* simulated values are compared as they are: in base units */
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n" SR_KERNEL(
                     "1", "_Z1av", "Kbyte") "]}",
                 2,
                 "counter "
                 "'dram__bytes_read.sum' is in the scaled unit 'Kbyte'");
    simrun_fails("{\"schema_version\": 1, \"kernels\": [\n" SR_KERNEL(
                     "1", "_Z1av", "bit") "]}",
                 2,
                 "the scaled unit "
                 "'bit'");
}

/* Figures past a double once scaled, and numbers GPGPU-Sim never prints. */
static void test_accelsim_hostile(void **state)
{
    (void)state;
    parse_fails("kernel_name = k\ngpu_sim_cycle = 0x10\n", 2, 16,
                "bad gpu_sim_cycle value");
    parse_fails("kernel_name = k\ngpu_sim_cycle = 1\n"
                "DRAM[0]: 16 bks, busW=64 BL=64 CL=12,\n"
                "total dram reads = 1e306\n"
                "icnt_total_pkts_simt_to_mem=1\n",
                4, 1,
                "total dram reads "
                "rises by 1e+306, which at 4096 bytes an access passes a "
                "double");
    parse_fails("-gpgpu_clock_domains 0.001:1:1:1 # x\n"
                "kernel_name = k\ngpu_sim_cycle = 1e306\n"
                "icnt_total_pkts_simt_to_mem=1\n",
                2, 1,
                "the gpu_sim_cycle "
                "of k over the core clock, 0.001 MHz, passes a double");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_dims),
        cmocka_unit_test(test_metric_dims),
        cmocka_unit_test(test_ncu_dims),
        cmocka_unit_test(test_ncu_zero_clock),
        cmocka_unit_test(test_ncu_identity),
        cmocka_unit_test(test_accelsim_identity),
        cmocka_unit_test(test_accelsim_totals),
        cmocka_unit_test(test_accelsim_notes),
        cmocka_unit_test(test_accelsim_hostile),
        cmocka_unit_test(test_simrun_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
