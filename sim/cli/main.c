/*
 * warpsim: the command.  Dispatches to one subcommand per file (cmd_*.c).
 *
 * Exit statuses: 0 success, 2 bad input or usage (one error line on
 * stderr), 1 internal failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ws_cli.h"

static void ws_main_help(FILE *out)
{
    fprintf(out,
"usage: warpsim [--help] [--version] COMMAND [ARGS]\n"
"\n"
"warpsim is a trace-driven, warp-level, discrete-event GPU simulator.\n"
"\n"
"commands:\n"
"  run TRACE           simulate every kernel of a trace and report cycles,\n"
"                      IPC, occupancy, stalls, hit rates and bandwidth\n"
"  trace info PATH     summarise a trace or SASS listing: launch, instruction\n"
"                      mix, memory behaviour, unknown opcodes\n"
"  trace gen WORKLOAD  expand a workload description into an Accel-Sim trace\n"
"  profile TRACE       the analytic models' inputs for each kernel\n"
"  model NAME TRACE    one analytic model (mwp_cwp, mwp_cwp_l2, ..., see\n"
"                      model --help) with its parameters and intermediates;\n"
"                      --params FILE instead of TRACE evaluates it by hand\n"
"  config show         print the effective GPU config (after base: and --set)\n"
"  config list         list the built-in GPU configs\n"
"  config import GPGPUSIM_CONFIG [TRACE_CONFIG]\n"
"                      translate an Accel-Sim/GPGPU-Sim config into warpsim\n"
"                      YAML\n"
"  sweep FILE          run a design-space sweep (axes of parameters, config\n"
"                      keys, GPUs) in parallel into one resumable CSV;\n"
"                      'sweep merge' joins the shares of a job array\n"
"  plot RESULTS.csv    draw one column of a results table against another\n"
"                      as SVG (one line per --series value; needs gnuplot)\n"
"  validate [STUDY...]\n"
"                      run the seed studies (sweep, plots, report) into\n"
"                      validate/out/STUDY/; --quick for the reduced ones\n"
"  analyze rsm RESULTS.csv --target ts|ul|score\n"
"                      which resource groups explain the target across a\n"
"                      sweep's runs (resource significance, Ensemble OMP)\n"
"  compare SIM.json MEASURED\n"
"                      line simulated counters up against an Nsight Compute\n"
"                      CSV or an Accel-Sim log: per kernel and metric, MAPE\n"
"                      and Pearson r per metric\n"
"\n"
"Run 'warpsim COMMAND --help' for a command's options.\n"
"Exit status: 0 success, 2 bad input or usage, 1 internal failure.\n");
}

/* Warnings wait until the command has succeeded: a failed command prints
 * its one error line and nothing else.  A few are enough to show what is
 * wrong; the rest are counted. */
#define WS_MAIN_MAX_WARNINGS 20

static char ws_main_warnings[WS_MAIN_MAX_WARNINGS][WS_ERR_TEXT];
static int ws_main_nwarnings;

static void ws_main_warn(const char *line)
{
    if (ws_main_nwarnings < WS_MAIN_MAX_WARNINGS)
        snprintf(ws_main_warnings[ws_main_nwarnings], WS_ERR_TEXT, "%s", line);
    ws_main_nwarnings++;
}

static void ws_main_flush_warnings(void)
{
    int n = ws_main_nwarnings < WS_MAIN_MAX_WARNINGS ? ws_main_nwarnings
                                                     : WS_MAIN_MAX_WARNINGS;

    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s\n", ws_main_warnings[i]);
    if (ws_main_nwarnings > n)
        fprintf(stderr, "warpsim: %d more warnings not shown\n",
                ws_main_nwarnings - n);
}

/* Output lost to a full disk or a closed pipe is a failure, not a success
 * with nothing to show: stdout is flushed and closed here and checked. */
static int ws_main_finish(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
        if (rc == WS_EXIT_OK) {
            fprintf(stderr, "warpsim: cannot write standard output: %s\n",
                    strerror(errno));
            rc = WS_EXIT_INTERNAL;
        }
    }
    if (rc == WS_EXIT_OK)
        ws_main_flush_warnings();
    return rc;
}

static int ws_main_dispatch(int argc, char **argv)
{
    if (argc < 2)
        return ws_cli_usage("", "missing command"), ws_main_help(stderr),
               WS_EXIT_INPUT;
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        ws_main_help(stdout);
        return WS_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("warpsim %s\n", WS_VERSION);
        return WS_EXIT_OK;
    }
    if (strcmp(argv[1], "run") == 0)
        return ws_cmd_run(argc - 1, argv + 1);
    if (strcmp(argv[1], "trace") == 0)
        return ws_cmd_trace(argc - 1, argv + 1);
    if (strcmp(argv[1], "config") == 0)
        return ws_cmd_config(argc - 1, argv + 1);
    if (strcmp(argv[1], "profile") == 0)
        return ws_cmd_profile(argc - 1, argv + 1);
    if (strcmp(argv[1], "model") == 0)
        return ws_cmd_model(argc - 1, argv + 1);
    if (strcmp(argv[1], "sweep") == 0)
        return ws_cmd_sweep(argc - 1, argv + 1);
    if (strcmp(argv[1], "plot") == 0)
        return ws_cmd_plot(argc - 1, argv + 1);
    if (strcmp(argv[1], "analyze") == 0)
        return ws_cmd_analyze(argc - 1, argv + 1);
    if (strcmp(argv[1], "validate") == 0)
        return ws_cmd_validate(argc - 1, argv + 1);
    if (strcmp(argv[1], "compare") == 0)
        return ws_cmd_compare(argc - 1, argv + 1);
    fprintf(stderr, "warpsim: unknown command '%s' (expected run, "
            "trace, config, profile, model, sweep, plot, validate, analyze or "
            "compare; see 'warpsim --help')\n", argv[1]);
    return WS_EXIT_INPUT;
}

int main(int argc, char **argv)
{
    /* A reader that goes away (| head) is a write error on stdout, exit 1
     * with a message, not a silent death by signal. */
    signal(SIGPIPE, SIG_IGN);
    /* Nothing is worth computing when nothing can be written: files would
     * be written and the summary lost. */
    if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
        fprintf(stderr, "warpsim: standard output is closed (expected "
                "somewhere to write)\n");
        return WS_EXIT_INTERNAL;
    }
    ws_err_set_argv(argc, argv);
    ws_warn_set_sink(ws_main_warn);
    return ws_main_finish(ws_main_dispatch(argc, argv));
}
