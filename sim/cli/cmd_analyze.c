/*
 * warpsim analyze rsm: which resource groups explain a target across the
 * runs of a sweep (Islam et al.'s Resource Significance Measure by
 * Ensemble OMP, sim/analyze/ws_rsm.h), as markdown and a bar chart.
 *
 * Defaults follow the seed: tau 5, kappa 0.5, score's alphas 0.1 / 0.5 /
 * 0.8.  Its 50,000 ensemble members become 1000 (the RSM of the bundled
 * studies moves by less than 0.01 beyond a few hundred); the seed of the
 * random draws is fixed by default and printed, so a report is repeatable.
 *
 * Leaves out: the analysis (sim/analyze).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/ws_rsm_table.h"
#include "util/ws_csv.h"
#include "util/ws_num.h"
#include "ws_cli.h"
#include "util/ws_output.h"

static void ws_analyze_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim analyze rsm RESULTS.csv --target ts|ul|score [OPTIONS]\n"
        "\n"
        "Resource significance (Islam et al.): for each kernel of RESULTS.csv (a\n"
        "sweep's results), which groups of counters (the resource groups of\n"
        "--json: FMA, L2, DRAM, STALL, ...) explain the target across the runs.\n"
        "Targets: ts, the kernel time over the table's longest; ul, the SM idle\n"
        "share 1 - ul; score, 1 - alpha/ts with alpha by ul bucket. RSM is in\n"
        "[0, 1]; the report lists each group's RSM and its counters chosen.\n"
        "\n"
        "options:\n"
        "      --target T            ts, ul or score (required)\n"
        "      --alpha A,B,C         score's alpha for ul < 0.5, < 0.8, above\n"
        "                            (default 0.1,0.5,0.8)\n"
        "      --tau N               candidates per OMP step (default 5)\n"
        "      --kappa K             most counters chosen, as a share (default 0.5)\n"
        "      --members W           ensemble members (default 1000)\n"
        "      --subsample F         share of runs each member draws (default 0.8)\n"
        "      --gamma G             belief scale, exp(-G x error) (default 2 ln 2)\n"
        "      --seed S              seed of the random draws (default 1)\n"
        "  -o, --output FILE         the markdown report (default: standard output)\n"
        "      --plot FILE           a bar chart of RSM per group, SVG (gnuplot)\n"
        "  -h, --help                this text\n");
}

enum {
    WS_AN_TARGET = 0x200,
    WS_AN_ALPHA,
    WS_AN_TAU,
    WS_AN_KAPPA,
    WS_AN_MEMBERS,
    WS_AN_SUBSAMPLE,
    WS_AN_GAMMA,
    WS_AN_SEED,
    WS_AN_PLOT
};

struct ws_analyze_args {
    struct ws_rsm_args rsm;
    const char *input, *out, *plot, *target;
    const char *alpha, *tau, *kappa, *members, *subsample, *gamma, *seed;
};

static int ws_analyze_option(struct ws_analyze_args *a, int opt,
                             const char *arg)
{
    switch (opt) {
    case WS_AN_TARGET:
        return ws_cli_once("analyze", &a->target, arg, "--target");
    case WS_AN_ALPHA:
        return ws_cli_once("analyze", &a->alpha, arg, "--alpha");
    case WS_AN_TAU:
        return ws_cli_once("analyze", &a->tau, arg, "--tau");
    case WS_AN_KAPPA:
        return ws_cli_once("analyze", &a->kappa, arg, "--kappa");
    case WS_AN_MEMBERS:
        return ws_cli_once("analyze", &a->members, arg, "--members");
    case WS_AN_SUBSAMPLE:
        return ws_cli_once("analyze", &a->subsample, arg, "--subsample");
    case WS_AN_GAMMA:
        return ws_cli_once("analyze", &a->gamma, arg, "--gamma");
    case WS_AN_SEED:
        return ws_cli_once("analyze", &a->seed, arg, "--seed");
    case WS_AN_PLOT:
        return ws_cli_once("analyze", &a->plot, arg, "--plot");
    case 'o':
        return ws_cli_once("analyze", &a->out, arg, "-o");
    default:
        return 1;
    }
}

/* A number in [lo, hi] from an option's text; usage error otherwise. */
static int ws_analyze_real(const char *flag, const char *text, double lo,
                           double hi, int open_lo, double *v)
{
    char *end;

    if (!text)
        return 0;
    *v = strtod(text, &end);
    if (end == text || *end || !isfinite(*v) || *v > hi
        || (open_lo ? *v <= lo : *v < lo))
        return ws_cli_usage("analyze",
                            "bad %s '%s' (expected a number "
                            "%s %g and at most %g)",
                            flag, text, open_lo ? "above" : "from", lo, hi);
    return 0;
}

static int ws_analyze_whole(const char *flag, const char *text, uint64_t lo,
                            uint64_t hi, uint64_t *v)
{
    if (!text)
        return 0;
    if (ws_num_u64(text, strlen(text), v) < 0 || *v < lo || *v > hi)
        return ws_cli_usage("analyze",
                            "bad %s '%s' (expected a whole number "
                            "from %llu to %llu)",
                            flag, text, (unsigned long long)lo,
                            (unsigned long long)hi);
    return 0;
}

static int ws_analyze_alphas(const char *text, double *alpha)
{
    char extra;

    if (!text)
        return 0;
    if (sscanf(text, "%lf,%lf,%lf%c", &alpha[0], &alpha[1], &alpha[2], &extra)
            != 3
        || !isfinite(alpha[0]) || !isfinite(alpha[1]) || !isfinite(alpha[2]))
        return ws_cli_usage("analyze",
                            "bad --alpha '%s' (expected three "
                            "numbers A,B,C)",
                            text);
    return 0;
}

/* Turns the options' texts into the analysis settings. */
static int ws_analyze_settings(struct ws_analyze_args *a)
{
    struct ws_rsm_opts *o = &a->rsm.opts;
    uint64_t tau = 5, members = 1000, seed = 1;

    a->rsm.alpha[0] = 0.1;
    a->rsm.alpha[1] = 0.5;
    a->rsm.alpha[2] = 0.8;
    o->kappa = 0.5;
    o->subsample = 0.8;
    o->gamma = 2 * log(2.0);
    if (strcmp(a->target, "ts") == 0)
        a->rsm.target = WS_RSM_TS;
    else if (strcmp(a->target, "ul") == 0)
        a->rsm.target = WS_RSM_UL;
    else if (strcmp(a->target, "score") == 0)
        a->rsm.target = WS_RSM_SCORE;
    else
        return ws_cli_usage("analyze",
                            "bad --target '%s' (expected ts, ul "
                            "or score)",
                            a->target);
    if (ws_analyze_alphas(a->alpha, a->rsm.alpha)
        || ws_analyze_whole("--tau", a->tau, 1, 1000, &tau)
        || ws_analyze_whole("--members", a->members, 1, 1000000, &members)
        || ws_analyze_whole("--seed", a->seed, 0, UINT32_MAX, &seed)
        || ws_analyze_real("--kappa", a->kappa, 0, 1, 1, &o->kappa)
        || ws_analyze_real("--subsample", a->subsample, 0, 1, 1, &o->subsample)
        || ws_analyze_real("--gamma", a->gamma, 0, 1e6, 1, &o->gamma))
        return WS_EXIT_INPUT;
    o->tau = (unsigned)tau;
    o->members = (unsigned)members;
    o->seed = (unsigned long)seed;
    return 0;
}

/* 0 ok, 1 after --help, WS_EXIT_INPUT after a usage error. */
static int ws_analyze_parse(struct ws_analyze_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"target", required_argument, NULL, WS_AN_TARGET},
        {"alpha", required_argument, NULL, WS_AN_ALPHA},
        {"tau", required_argument, NULL, WS_AN_TAU},
        {"kappa", required_argument, NULL, WS_AN_KAPPA},
        {"members", required_argument, NULL, WS_AN_MEMBERS},
        {"subsample", required_argument, NULL, WS_AN_SUBSAMPLE},
        {"gamma", required_argument, NULL, WS_AN_GAMMA},
        {"seed", required_argument, NULL, WS_AN_SEED},
        {"plot", required_argument, NULL, WS_AN_PLOT},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}};
    int opt, rc;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        if (opt == WS_OPT_HELP) {
            ws_analyze_help(stdout);
            return 1;
        }
        rc = ws_analyze_option(a, opt, optarg);
        if (rc < 0)
            return WS_EXIT_INPUT;
        if (rc > 0)
            return ws_cli_bad_option("analyze", opt, argv);
    }
    if (optind >= argc || strcmp(argv[optind], "rsm") != 0)
        return ws_cli_usage("analyze",
                            optind >= argc ? "missing the "
                                             "analysis (expected 'rsm')"
                                           : "unknown analysis "
                                             "'%s' (expected 'rsm')",
                            argv[optind]);
    if (optind + 2 != argc)
        return ws_cli_usage("analyze", optind + 1 >= argc
                                           ? "missing "
                                             "RESULTS.csv"
                                           : "more than one RESULTS.csv");
    if (!a->target)
        return ws_cli_usage("analyze", "missing --target ts|ul|score");
    a->input = argv[optind + 1];
    return ws_analyze_settings(a);
}

static int ws_analyze_run(const struct ws_analyze_args *a,
                          struct ws_output *outs, int nouts,
                          const char *cmd_word, struct ws_err *err)
{
    struct ws_csv t;
    char *md, *svg = NULL;
    int rc = nouts ? ws_output_plan(outs, nouts, &a->input, 1, err) : 0;

    if (rc < 0)
        return -1;
    if (ws_csv_load(&t, a->input, 1, 0, err) < 0) {
        ws_err_place_arg(err, a->input);
        return -1;
    }
    md = ws_rsm_report(&t, &a->rsm, a->plot ? &svg : NULL, NULL, err);
    if (!md) {
        ws_err_place_arg(err, err->internal ? cmd_word : a->input);
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < nouts; i++) {
        const char *text = outs[i].path == a->plot ? svg : md;
        rc = ws_output_write(&outs[i], text, err);
    }
    if (rc == 0 && !a->out && fputs(md, stdout) == EOF)
        rc = ws_err_msg(err, "cannot write the report to standard output "
                             "(expected it open)");
    free(md);
    free(svg);
    ws_csv_free(&t);
    return rc;
}

int ws_cmd_analyze(int argc, char **argv)
{
    struct ws_analyze_args a;
    struct ws_output outs[2] = {{.flag = "-o"}, {.flag = "--plot"}};
    struct ws_err err;
    int rc, nouts = 0;

    memset(&a, 0, sizeof a);
    ws_err_clear(&err);
    rc = ws_analyze_parse(&a, argc, argv);
    if (rc != 0)
        return rc == 1 ? WS_EXIT_OK : rc;
    if (a.out)
        outs[nouts++].path = a.out;
    if (a.plot) {
        outs[nouts] = (struct ws_output){.flag = "--plot", .path = a.plot};
        nouts++;
    }
    rc = ws_analyze_run(&a, outs, nouts, argv[0], &err);
    for (int i = 0; i < 2; i++)
        ws_output_free(&outs[i]);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
