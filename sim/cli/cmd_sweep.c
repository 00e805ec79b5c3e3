/*
 * warpsim sweep FILE: runs a sweep file's points in worker processes into
 * one resumable CSV, in shares for job arrays; `warpsim sweep merge` joins
 * the shares.  Parses the options into a request, calls ws_sweep_run or
 * ws_sweep_merge_files (run/ws_sweep_run.h), prints the error.
 *
 * Leaves out: everything a sweep does (run/ws_sweep_run.c and its files).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/ws_sweep_run.h"
#include "ws_cli.h"

enum {
    WS_OPT_DRY_RUN = 0x300,
    WS_OPT_REPORT,
    WS_OPT_ARRAY_INDEX,
    WS_OPT_ARRAY_SIZE,
    WS_OPT_RETRY_FAILED,
    WS_OPT_EXT_MODEL
};

/* Shares beyond this are a mistake (a glob of the wrong folder). */
#define WS_MERGE_MAX_SHARES 100000

static void ws_sweep_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim sweep FILE [OPTIONS]\n"
        "       warpsim sweep merge OUT.csv SHARE.csv...\n"
        "\n"
        "Runs every point of a sweep file (a kernel over the product of axes of\n"
        "workload parameters, config keys and GPUs; see README) in worker\n"
        "processes, one CSV row per point and kernel: the axes, cycles, every\n"
        "counter and every model's prediction.  Rerunning skips the points the\n"
        "results file already holds (keyed by a hash of each point's config,\n"
        "input files and parameters); a failing point is recorded with its error\n"
        "and the sweep goes on.\n"
        "\n"
        "options:\n"
        "  -j, --jobs N              worker processes (default: all cores)\n"
        "  -o, --output FILE         results CSV (default: FILE's name with .csv,\n"
        "                            in the current folder)\n"
        "      --dry-run             list the points and which are done; run none\n"
        "      --report              also write a markdown summary (OUT with .md):\n"
        "                            best and worst points, elasticity per axis\n"
        "      --array-index I       run only share I of --array-size K (a Slurm\n"
        "      --array-size K        job array, GNU parallel); join the shares with\n"
        "                            'warpsim sweep merge'\n"
        "      --retry-failed        rerun points recorded as failed\n"
        "      --model NAME=COMMAND  also run an external model at every point, as\n"
        "                            the file's models: do (README, \"External\n"
        "                            models\"); repeatable\n" WS_CLI_LIMIT_HELP
        "  -h, --help                this text\n"
        "\n"
        "exit status: 0 when every point ended (failed points included: see the\n"
        "summary), 1 on an internal error, 2 on bad input, 130 when interrupted\n"
        "(finished points are kept; rerun to go on).\n");
}

/* A job array's index given twice is a script's mistake (two shares'
 * options pasted together): which share would run is a guess. */
static int ws_sweep_array_option(struct ws_sweep_request *a, int opt,
                                 const char *v)
{
    int index = opt == WS_OPT_ARRAY_INDEX;
    const char *name = index ? "--array-index" : "--array-size";
    long *out = index ? &a->array_index : &a->array_size;

    if (*out >= 0)
        return ws_cli_usage("sweep", "%s given twice (expected it once)", name);
    return ws_cli_count("sweep", name, v, index ? 0 : 1, out);
}

static int ws_sweep_option(struct ws_sweep_request *a, int opt, char **argv)
{
    int used = ws_cli_limit_option(&a->topts, "sweep", opt, optarg);

    if (used)
        return used == 1 ? 0 : WS_EXIT_INPUT;
    switch (opt) {
    case 'j':
        if (a->jobs)
            return ws_cli_usage("sweep", "--jobs given twice (expected it "
                                         "once)");
        return ws_cli_count("sweep", "--jobs", optarg, 1, &a->jobs);
    case 'o':
        return ws_cli_once("sweep", &a->out, optarg, "--output") < 0
                   ? WS_EXIT_INPUT
                   : 0;
    case WS_OPT_DRY_RUN:
        a->dry_run = 1;
        return 0;
    case WS_OPT_REPORT:
        a->report = 1;
        return 0;
    case WS_OPT_RETRY_FAILED:
        a->retry_failed = 1;
        return 0;
    case WS_OPT_EXT_MODEL:
        if (a->nmodels == WS_SWEEP_MAX_MODELS)
            return ws_cli_usage("sweep",
                                "too many --model (expected at "
                                "most %d)",
                                WS_SWEEP_MAX_MODELS);
        a->models[a->nmodels++] = optarg;
        return 0;
    case WS_OPT_ARRAY_INDEX:
    case WS_OPT_ARRAY_SIZE:
        return ws_sweep_array_option(a, opt, optarg);
    case WS_OPT_HELP:
        ws_sweep_help(stdout);
        return 1;
    default:
        return ws_cli_bad_option("sweep", opt, argv);
    }
}

static int ws_sweep_parse(struct ws_sweep_request *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"jobs", required_argument, NULL, 'j'},
        {"output", required_argument, NULL, 'o'},
        {"dry-run", no_argument, NULL, WS_OPT_DRY_RUN},
        {"report", no_argument, NULL, WS_OPT_REPORT},
        {"array-index", required_argument, NULL, WS_OPT_ARRAY_INDEX},
        {"array-size", required_argument, NULL, WS_OPT_ARRAY_SIZE},
        {"retry-failed", no_argument, NULL, WS_OPT_RETRY_FAILED},
        {"model", required_argument, NULL, WS_OPT_EXT_MODEL},
        WS_CLI_LIMIT_LONGOPTS,
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}};
    int opt, rc;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":j:o:h", longopts, NULL)) != -1)
        if ((rc = ws_sweep_option(a, opt, argv)) != 0)
            return rc;
    if ((a->array_index < 0) != (a->array_size < 0))
        return ws_cli_usage("sweep", "--array-index and --array-size go "
                                     "together (expected both or neither)");
    if (a->array_size > 0 && a->array_index >= a->array_size)
        return ws_cli_usage("sweep",
                            "--array-index %ld is not below "
                            "--array-size %ld (expected 0 to %ld)",
                            a->array_index, a->array_size, a->array_size - 1);
    if (optind != argc - 1)
        return ws_cli_usage("sweep", optind >= argc ? "missing FILE"
                                                    : "more than one FILE");
    a->file = argv[optind];
    return 0;
}

/* warpsim sweep merge OUT.csv SHARE... (argv[0] is "merge"). */
static int ws_cmd_sweep_merge(int argc, char **argv)
{
    struct ws_err err;

    if (argc >= 2
        && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("usage: warpsim sweep merge OUT.csv SHARE.csv...\n\n"
               "Joins the shares of a sweep (--array-index/--array-size)\n"
               "into OUT.csv, sorted by point, after checking that they\n"
               "are shares of one sweep (their sweep column), that every\n"
               "point is whole (all of its rows, once) in exactly one\n"
               "share, and that no sweep is still writing one.\n\n"
               "options:\n"
               "  -h, --help                this help\n"
               "      --                    the names that follow are files,\n"
               "                            even those that start with '-'\n");
        return WS_EXIT_OK;
    }
    /* Names that start with '-' follow a "--"; any other such word is an
     * option merge does not have, not a file to write. */
    if (argc >= 2 && strcmp(argv[1], "--") == 0) {
        argv++;
        argc--;
    } else {
        for (int i = 1; i < argc; i++)
            if (argv[i][0] == '-' && argv[i][1])
                return ws_cli_usage("sweep merge",
                                    "unknown option '%s' (expected OUT.csv "
                                    "SHARE.csv..., '--' before a name that "
                                    "starts with '-')",
                                    argv[i]);
    }
    if (argc < 3)
        return ws_cli_usage("sweep merge",
                            argc < 2
                                ? "missing OUT.csv"
                                : "missing SHARE.csv (expected at least one)");
    if (argc - 2 > WS_MERGE_MAX_SHARES)
        return ws_cli_usage("sweep merge", "more than %d shares",
                            WS_MERGE_MAX_SHARES);
    ws_err_clear(&err);
    if (ws_sweep_merge_files(argv[1], (const char *const *)argv + 2, argc - 2,
                             &err)
        < 0)
        return ws_cli_fail(&err);
    return WS_EXIT_OK;
}

int ws_cmd_sweep(int argc, char **argv)
{
    struct ws_sweep_request rq;
    struct ws_err err;
    int rc;

    if (argc >= 2 && strcmp(argv[1], "merge") == 0)
        return ws_cmd_sweep_merge(argc - 1, argv + 1);
    ws_sweep_request_init(&rq);
    rc = ws_sweep_parse(&rq, argc, argv);
    if (rc != 0)
        return rc == 1 ? WS_EXIT_OK : rc;
    rq.say = stdout;
    rq.log = stderr;
    rq.progress = isatty(2);
    ws_err_clear(&err);
    rc = ws_sweep_run(&rq, NULL, &err);
    if (rc == 1)
        return 130;
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
