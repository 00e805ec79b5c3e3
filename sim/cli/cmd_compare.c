/*
 * warpsim compare: simulated counters (the JSON of `warpsim run --json`)
 * held against measured ones, an Nsight Compute CSV export or an
 * Accel-Sim log, kernel by kernel and metric by metric, with MAPE and
 * Pearson's r per metric; optionally as JSON and as a log-log chart.  Or
 * two runs' JSON held against each other: what differs, counter by
 * counter, and whether the runs had the same inputs and config.
 *
 * How each format maps onto warpsim's metric names (the readers' header
 * comments say where each fact comes from):
 *   Nsight Compute CSV (ncu --csv --page raw, with or without
 *   --print-units base): every column is a metric under the name warpsim
 *   uses; values are scaled to base units.  gpc__cycles_elapsed.max is
 *   the cycles (sm__cycles_elapsed.avg when the export lacks it);
 *   time_us is those cycles over the SM clock
 *   (gpc__cycles_elapsed.avg.per_second, else
 *   sm__cycles_elapsed.avg.per_second), else gpu__time_duration.sum.
 *   Accel-Sim log: gpu_sim_cycle -> gpc__cycles_elapsed.max (and time_us
 *   at the -gpgpu_clock_domains core clock); gpu_sim_insn (thread
 *   instructions) -> smsp__thread_inst_executed.sum; the rise of
 *   gpgpu_n_tot_w_icount -> smsp__inst_executed.sum; gpu_occupancy ->
 *   sm__warps_active.avg.pct_of_peak_sustained_active; L1D and L2
 *   accesses and misses -> l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
 *   and lts__t_sector_hit_rate.pct; total dram reads / writes x the DRAM
 *   atom -> dram__bytes_read.sum / dram__bytes_write.sum.
 *
 * Units, identity and totals are checked before anything is compared: a
 * measured unit of another dimension than the metric, a launch id twice
 * (or for two kernels) on either side, cache totals no cache gives, are
 * one error at their place; what a log lacks for a reason of its own is
 * compared without, and the report (and the JSON's "notes") says why.
 *
 * Everything is read and computed before anything is written; outputs go
 * through the safe output path (ws_output.h), so a failure leaves none.
 *
 * Leaves out: reading, comparing and making the outputs
 * (run/ws_run_compare.h over measure/ws_measured.h, ws_simrun.h,
 * ws_compare.h); the layouts (report/ws_compare_text.c, ws_compare_json.c,
 * ws_compare_plot.c).  This file parses, calls and writes.
 */
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/ws_run_compare.h"
#include "util/ws_clip.h"
#include "util/ws_output.h"
#include "util/ws_regex.h"
#include "ws_cli.h"

static void ws_compare_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim compare SIM.json MEASURED [OPTIONS]\n"
        "       warpsim compare A.json B.json [OPTIONS]\n"
        "\n"
        "Holds a simulation (SIM.json, written by 'warpsim run --json') against\n"
        "measurements of the same kernels and prints, per kernel and metric, the\n"
        "simulated and measured values and their difference in percent of the\n"
        "measured (rows by the size of the difference, largest first), then per\n"
        "metric the MAPE and Pearson's r across kernels (r with 3 kernels or\n"
        "more) and the mean of the MAPEs.  Kernels or metrics found on one side\n"
        "only are listed at the end.\n"
        "\n"
        "Where a measured metric is not defined as the simulated counter it is\n"
        "held against, its rows are marked '!', a note says how they differ, and\n"
        "its MAPE is left out of the mean: an Accel-Sim log's L1D hit rate counts\n"
        "stores too, warpsim's (as Nsight's) loads only.  With an Nsight export,\n"
        "the header says that ncu locks the clocks to base by default\n"
        "(--clock-control base), so measured times are at the base clock, and\n"
        "which clock the simulated config runs its SMs at.\n"
        "\n"
        "Two runs (B.json a run's JSON too): kernels pair by launch id and name\n"
        "(the report says when the kernel lists differ); per kernel, every\n"
        "counter and derived figure that differs, with A's and B's values, the\n"
        "delta and the delta in percent of A, and how many are equal; and\n"
        "total_cycles.  The header names both runs' provenance and says whether\n"
        "they read the same inputs (by XXH3-128) and ran the same config (by its\n"
        "hash), or which differ: 'same inputs (2 files by XXH3-128); config\n"
        "differs: A h100 with --set dram.bandwidth=x1.5, B h100'.\n"
        "\n"
        "MEASURED, recognised by its content (plain, .xz or .zst):\n"
        "  an Nsight Compute CSV export, 'ncu --csv --page raw' (with or without\n"
        "    --print-units base): metrics under the names warpsim uses, scaled to\n"
        "    base units; gpc__cycles_elapsed.max is the cycles (else\n"
        "    sm__cycles_elapsed.avg); time_us is the cycles over the SM clock\n"
        "    (gpc__ or sm__cycles_elapsed.avg.per_second), else\n"
        "    gpu__time_duration.sum\n"
        "  an Accel-Sim / GPGPU-Sim log (its standard output):\n"
        "    gpu_sim_cycle               gpc__cycles_elapsed.max (and time_us at the\n"
        "                                -gpgpu_clock_domains core clock)\n"
        "    gpu_sim_insn                smsp__thread_inst_executed.sum\n"
        "    gpgpu_n_tot_w_icount rise   smsp__inst_executed.sum\n"
        "    gpu_occupancy               sm__warps_active.avg.pct_of_peak_sustained_active\n"
        "    L1D_total_cache_* rises     l1tex__t_sector_pipe_lsu_mem_global_op_ld_\n"
        "                                hit_rate.pct (all L1D accesses)\n"
        "    L2_total_cache_* rises      lts__t_sector_hit_rate.pct\n"
        "    total dram reads / writes   dram__bytes_read.sum / dram__bytes_write.sum\n"
        "    rises x DRAM atom           (busW x BL of the DRAM[0] line, else 32 B)\n"
        "    (cache, instruction and DRAM totals run on across kernels in GPGPU-Sim:\n"
        "    a kernel's share is the rise since the block before)\n"
        "\n"
        "Kernels pair by name and launch order: the base name (mangled\n"
        "_Z4apspPKfPfii and demangled apsp(const float *, ...) are both apsp) and\n"
        "the k-th launch of a name on each side.\n"
        "\n"
        "Refused, at the place at fault: a measured unit of another dimension\n"
        "than the metric (bytes in msecond, cycles in %%; units scale within a\n"
        "dimension only), a launch id twice or for two kernels (in either file),\n"
        "cache misses past the accesses or a miss rate that is not their quotient.\n"
        "What a log lacks for a reason of its own (no L1D simulated, a kernel\n"
        "without an access, no clock echoed) is noted in the report instead.\n"
        "\n"
        "options:\n"
        "      --kernel REGEX        only the kernels whose name, on either side, as\n"
        "                            written or base, matches (POSIX extended)\n"
        "      --json FILE           the same figures as JSON\n"
        "      --sort ORDER          the rows' order: error (by |difference %%|,\n"
        "                            largest first; the default), name (by metric\n"
        "                            name), none (as the files list them)\n"
        "      --plot FILE           simulated against measured, log-log, one point\n"
        "                            per kernel and metric (a colour per metric, or\n"
        "                            per unit, dram, lts, smsp..., past 12 metrics),\n"
        "                            beside the line y = x (SVG, gnuplot; not for\n"
        "                            two runs)\n"
        "  -h, --help                this text\n");
}

enum {
    WS_CMP_KERNEL = 0x200,
    WS_CMP_JSON,
    WS_CMP_PLOT,
    WS_CMP_SORT
};

/* What a usage error says is expected. */
#define WS_CMP_EXPECT_FILES \
    "(expected two files: SIM.json, written by " \
    "'warpsim run --json', then MEASURED, an Nsight Compute CSV export or " \
    "an Accel-Sim log, or a second run's JSON)"
#define WS_CMP_EXPECT_OPTS \
    "(expected --kernel REGEX, --json FILE, " \
    "--sort ORDER, --plot FILE or --help)"

struct ws_compare_args {
    const char *sim, *meas, *kernel, *json, *plot, *sort;
    regex_t re;
    int has_re;
};

/* ---- command line ----------------------------------------------------------- */

static int ws_compare_option(struct ws_compare_args *a, int opt,
                             const char *arg)
{
    switch (opt) {
    case WS_CMP_KERNEL:
        return ws_cli_once("compare", &a->kernel, arg, "--kernel");
    case WS_CMP_JSON:
        return ws_cli_once("compare", &a->json, arg, "--json");
    case WS_CMP_PLOT:
        return ws_cli_once("compare", &a->plot, arg, "--plot");
    case WS_CMP_SORT:
        return ws_cli_once("compare", &a->sort, arg, "--sort");
    default:
        return 1;
    }
}

static int ws_compare_regex(struct ws_compare_args *a)
{
    char why[160], shown[WS_REGEX_SHOWN];
    int rc;

    if (!a->kernel)
        return 0;
    if (!*a->kernel)
        return ws_cli_usage("compare", "empty --kernel (expected a POSIX "
                                       "extended regular expression)");
    /* Bounded first: glibc's regcomp can exhaust memory on a short one. */
    rc = ws_regex_compile(&a->re, a->kernel, REG_NOSUB, why, sizeof why);
    if (rc == WS_REGEX_BOUND)
        return ws_cli_usage("compare", "bad --kernel '%s': %s",
                            ws_regex_shown(shown, a->kernel), why);
    if (rc != 0)
        return ws_cli_usage("compare",
                            "bad --kernel '%s': %s (expected a "
                            "POSIX extended regular expression)",
                            ws_regex_shown(shown, a->kernel), why);
    a->has_re = 1;
    return 0;
}

/* An option getopt refused: unknown, or without its value.  The word
 * at fault is the last one read, unless it is a cluster of short options
 * ("-xy"), where optopt says which. */
static int ws_compare_bad_option(int opt, char **argv)
{
    char buf[3];
    const char *word = ws_cli_option_word(opt, argv, buf);

    if (opt == ':')
        return ws_cli_usage("compare",
                            "option '%s' needs a value (expected "
                            "it followed by one: --kernel REGEX, --json FILE, "
                            "--sort ORDER, --plot FILE)",
                            word);
    return ws_cli_usage("compare", "bad option '%s' " WS_CMP_EXPECT_OPTS, word);
}

/* 0 ok, 1 after --help, WS_EXIT_INPUT after a usage error. */
static int ws_compare_parse(struct ws_compare_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"kernel", required_argument, NULL, WS_CMP_KERNEL},
        {"json", required_argument, NULL, WS_CMP_JSON},
        {"plot", required_argument, NULL, WS_CMP_PLOT},
        {"sort", required_argument, NULL, WS_CMP_SORT},
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}};
    int opt, rc;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == WS_OPT_HELP) {
            ws_compare_help(stdout);
            return 1;
        }
        rc = ws_compare_option(a, opt, optarg);
        if (rc < 0)
            return WS_EXIT_INPUT;
        if (rc > 0)
            return ws_compare_bad_option(opt, argv);
    }
    if (argc - optind != 2)
        return ws_cli_usage("compare",
                            argc - optind < 2
                                ? "missing %s " WS_CMP_EXPECT_FILES
                                : "more than SIM.json and "
                                  "MEASURED, '%s' " WS_CMP_EXPECT_FILES,
                            argc - optind == 0   ? "SIM.json and MEASURED"
                            : argc - optind == 1 ? "MEASURED"
                                                 : argv[optind + 2]);
    a->sim = argv[optind];
    a->meas = argv[optind + 1];
    return ws_compare_regex(a);
}

/* ---- the command ------------------------------------------------------------------ */

/* Writes the outputs' texts to their temporary files first and puts them
 * in place only when every one is written, so a write that fails (a full
 * disk) leaves none of them; then the report. */
static int ws_cmp_write(struct ws_output *outs, const char *const *texts,
                        const char *report, struct ws_err *err)
{
    int rc = 0;

    for (int i = 0; rc == 0 && i < 2; i++) {
        size_t n = texts[i] ? strlen(texts[i]) : 0;
        if (!outs[i].path)
            continue;
        rc = ws_output_open(&outs[i], err);
        if (rc == 0
            && (fputs(texts[i], outs[i].fp) == EOF
                || (n && texts[i][n - 1] != '\n'
                    && fputc('\n', outs[i].fp) == EOF)
                || fflush(outs[i].fp) != 0)) {
            struct ws_clip q;
            rc = ws_err_msg(err,
                            "%s %s: cannot write: %s (expected a "
                            "writable path)",
                            outs[i].flag, ws_clip_path(&q, outs[i].path),
                            strerror(errno));
            err->internal = 1;
        }
    }
    for (int i = 0; i < 2; i++)
        if (outs[i].fp && (rc < 0 || ws_output_commit(&outs[i], err) < 0)) {
            ws_output_abort(&outs[i]);
            rc = -1;
        }
    if (rc == 0 && (fputs(report, stdout) == EOF || fflush(stdout) != 0)) {
        ws_err_msg(err, "cannot write the report to standard output "
                        "(expected it open)");
        err->internal = 1;
        return -1;
    }
    return rc;
}

static int ws_cmp_run(const struct ws_compare_args *a, struct ws_output *outs,
                      struct ws_err *err)
{
    const char *inputs[2] = {a->sim, a->meas};
    struct ws_run_compare_request rq = {
        a->sim,  a->meas, a->kernel,        a->has_re ? &a->re : NULL,
        a->json, a->plot, WS_CMP_SORT_ERROR};
    struct ws_run_compared o;
    const char *texts[2];
    struct ws_clip q;
    int rc;

    /* placed at its word, as a bad --set is: a usage error has no place */
    if (a->sort && ws_cmp_sort_parse(a->sort, &rq.sort) < 0)
        return ws_err_arg(err, a->sort, 0, 0,
                          "bad --sort '%s' (expected error, name or none)",
                          ws_clip(&q, a->sort));
    if (ws_output_plan(outs, 2, inputs, 2, err) < 0
        || ws_run_compare(&rq, &o, err) < 0)
        return -1;
    texts[0] = o.json;
    texts[1] = o.svg;
    rc = ws_cmp_write(outs, texts, o.text, err);
    ws_run_compared_free(&o);
    return rc;
}

int ws_cmd_compare(int argc, char **argv)
{
    struct ws_compare_args a;
    struct ws_output outs[2] = {{.flag = "--json"}, {.flag = "--plot"}};
    struct ws_err err;
    int rc;

    memset(&a, 0, sizeof a);
    ws_err_clear(&err);
    rc = ws_compare_parse(&a, argc, argv);
    if (rc != 0) {
        if (a.has_re)
            regfree(&a.re);
        return rc == 1 ? WS_EXIT_OK : rc;
    }
    outs[0].path = a.json;
    outs[1].path = a.plot;
    rc = ws_cmp_run(&a, outs, &err);
    for (int i = 0; i < 2; i++)
        ws_output_free(&outs[i]);
    if (a.has_re)
        regfree(&a.re);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
