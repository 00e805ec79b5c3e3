/*
 * warpsim plot: one chart of a results table (a sweep's CSV) as SVG, a
 * column against another, one line per value of a series column (and
 * per kernel, in the results of a multi-kernel trace).
 *
 * The table may be a sweep still running: a torn last row is left out.
 * The output is planned before anything is read, so -o cannot name the
 * table, and written only once gnuplot has drawn the whole chart.
 *
 * Leaves out: the drawing itself (report/ws_plot.c).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "report/ws_plot.h"
#include "util/ws_csv.h"
#include "ws_cli.h"
#include "util/ws_output.h"

static void ws_plot_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim plot RESULTS.csv --x COL --y COL [OPTIONS] -o OUT.svg\n"
        "\n"
        "Draws column --y of RESULTS.csv (a sweep's results, or any CSV with a\n"
        "header row) against column --x as an SVG chart, with gnuplot. Only rows\n"
        "whose status column reads \"ok\" are drawn, when the table has one;\n"
        "points are joined in order of x, one line per series value and, in the\n"
        "results of a multi-kernel trace (a kernel_id column), per kernel. Axes\n"
        "name their units where the column's name says them.\n"
        "\n"
        "options:\n"
        "      --x COL               the column on the horizontal axis\n"
        "      --y COL               the column on the vertical axis\n"
        "      --series COL          one line per value of this column\n"
        "      --logx, --logy        logarithmic axes (values must be positive)\n"
        "      --title TEXT          the chart's title (default \"Y against X\")\n"
        "  -o, --output FILE         the SVG file to write (required)\n"
        "  -h, --help                this text\n");
}

enum {
    WS_PLOT_OPT_X = 0x200,
    WS_PLOT_OPT_Y,
    WS_PLOT_OPT_SERIES,
    WS_PLOT_OPT_LOGX,
    WS_PLOT_OPT_LOGY,
    WS_PLOT_OPT_TITLE
};

struct ws_plot_args {
    struct ws_plot_spec spec;
    const char *input, *out;
};

/* A single-valued option into its slot; -1 after a usage error. */
static int ws_plot_option(struct ws_plot_args *a, int opt, const char *arg)
{
    switch (opt) {
    case WS_PLOT_OPT_X:
        return ws_cli_once("plot", &a->spec.x, arg, "--x");
    case WS_PLOT_OPT_Y:
        return ws_cli_once("plot", &a->spec.y, arg, "--y");
    case WS_PLOT_OPT_SERIES:
        return ws_cli_once("plot", &a->spec.series, arg, "--series");
    case WS_PLOT_OPT_TITLE:
        return ws_cli_once("plot", &a->spec.title, arg, "--title");
    case 'o':
        return ws_cli_once("plot", &a->out, arg, "-o");
    case WS_PLOT_OPT_LOGX:
        a->spec.logx = 1;
        return 0;
    case WS_PLOT_OPT_LOGY:
        a->spec.logy = 1;
        return 0;
    default:
        return 1;
    }
}

/* 0 ok, 1 after --help, WS_EXIT_INPUT after a usage error. */
static int ws_plot_parse_args(struct ws_plot_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"x", required_argument, NULL, WS_PLOT_OPT_X},
        {"y", required_argument, NULL, WS_PLOT_OPT_Y},
        {"series", required_argument, NULL, WS_PLOT_OPT_SERIES},
        {"logx", no_argument, NULL, WS_PLOT_OPT_LOGX},
        {"logy", no_argument, NULL, WS_PLOT_OPT_LOGY},
        {"title", required_argument, NULL, WS_PLOT_OPT_TITLE},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}};
    int opt, rc;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        if (opt == WS_OPT_HELP) {
            ws_plot_help(stdout);
            return 1;
        }
        rc = ws_plot_option(a, opt, optarg);
        if (rc < 0)
            return WS_EXIT_INPUT;
        if (rc > 0)
            return ws_cli_bad_option("plot", opt, argv);
    }
    if (optind != argc - 1)
        return ws_cli_usage("plot", optind >= argc
                                        ? "missing RESULTS.csv"
                                        : "more than one RESULTS.csv");
    if (!a->spec.x || !a->spec.y)
        return ws_cli_usage("plot", "missing %s COL",
                            a->spec.x ? "--y" : "--x");
    if (!a->out)
        return ws_cli_usage("plot", "missing -o OUT.svg");
    a->input = argv[optind];
    return 0;
}

/* Loads, checks and draws; errors placed at the word at fault. */
static int ws_plot_draw(const struct ws_plot_args *a, struct ws_output *o,
                        const char *cmd_word, struct ws_err *err)
{
    struct ws_csv t;
    const char *which = NULL;
    char *svg = NULL;
    int rc = ws_output_plan(o, 1, &a->input, 1, err);

    if (rc < 0)
        return -1;
    if (ws_csv_load(&t, a->input, 1, 0, err) < 0) {
        ws_err_place_arg(err, a->input);
        return -1;
    }
    rc = ws_plot_check_at(&t, &a->spec, &which, err);
    if (rc < 0)
        ws_err_place_arg(err, which ? which : a->input);
    if (rc == 0) {
        svg = ws_plot_svg(&t, &a->spec, err);
        rc = svg ? ws_output_write(o, svg, err) : -1;
        /* gnuplot's failures are not the table's: no column to point at. */
        if (rc < 0)
            ws_err_place_arg(err, cmd_word);
    }
    free(svg);
    ws_csv_free(&t);
    return rc;
}

int ws_cmd_plot(int argc, char **argv)
{
    struct ws_plot_args a;
    struct ws_output o = {.flag = "-o"};
    struct ws_err err;
    int rc;

    memset(&a, 0, sizeof a);
    a.spec.by_kernel = 1; /* a line never joins two kernels' rows */
    ws_err_clear(&err);
    rc = ws_plot_parse_args(&a, argc, argv);
    if (rc != 0)
        return rc == 1 ? WS_EXIT_OK : rc;
    o.path = a.out;
    rc = ws_plot_draw(&a, &o, argv[0], &err);
    ws_output_free(&o);
    return rc < 0 ? ws_cli_fail(&err) : WS_EXIT_OK;
}
