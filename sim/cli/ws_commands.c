/*
 * ws_commands: the table of warpsim's commands and subcommands, and what is
 * made from it here: the main help, the lookup the dispatch uses, the
 * unknown-command error with the nearest name.  The completion script is
 * made from the same table in ws_complete.c, the man page from the help
 * and 'warpsim --commands' (dist/man_page.sh); tests/cli/commands.sh
 * fails when any of them disagrees with a command's own --help.
 *
 * A new command is its cmd_X.c plus one row here (and its entry point's
 * prototype in ws_cli.h, which -Wmissing-prototypes asks for).
 *
 * Leaves out: each command's own --help text and option parsing, which
 * stay beside its code in cmd_*.c; the options listed here are what the
 * shell completes, checked against that --help by the test.
 */
#include <stdio.h>
#include <string.h>

#include "measure/ws_cmp_sort.h"
#include "ws_cli.h"

/* The options of every command that reads one input (run, profile, model,
 * trace): ws_cli_input_option and WS_CLI_LIMIT_LONGOPTS. */
static const struct ws_cli_opt ws_cli_input_opts[] = {
    {"-g --gpu", WS_CLI_GPU, NULL},
    {"-s --set", WS_CLI_KEY, NULL},
    {"-p --param", WS_CLI_TEXT, NULL},
    {"--listing", WS_CLI_FILE, NULL},
    {"--allow-unknown-keys", WS_CLI_NONE, NULL},
    {"--max-ctas", WS_CLI_TEXT, NULL},
    {"--max-insts", WS_CLI_TEXT, NULL},
    {"--max-warp-insts", WS_CLI_TEXT, NULL},
    {NULL, WS_CLI_NONE, NULL}};

/* The rows' option lists are compound literals so that a command is one
 * row, options included.  A synopsis longer than WS_CLI_HELP_COLUMN - 4
 * puts its description on the lines below it, as the help always did. */
const struct ws_cli_command ws_cli_commands[] = {
    {"run", NULL, "TRACE",
     "simulate every kernel of a trace and report cycles,\n"
     "IPC, occupancy, stalls, hit rates and bandwidth",
     ws_cmd_run,
     (const struct ws_cli_opt[]){{"--json", WS_CLI_FILE, NULL},
                                 {"--csv", WS_CLI_FILE, NULL},
                                 {"--roofline", WS_CLI_FILE, NULL},
                                 {"--timeline", WS_CLI_FILE, NULL},
                                 {"--timeline-window", WS_CLI_TEXT, NULL},
                                 {"--timeline-max-events", WS_CLI_TEXT, NULL},
                                 {"--timeline-level", WS_CLI_WORDS, "warp cta"},
                                 {"-k --kernel", WS_CLI_TEXT, NULL},
                                 {"--max-kernels", WS_CLI_TEXT, NULL},
                                 {"--model", WS_CLI_TEXT, NULL},
                                 {"--mangled", WS_CLI_NONE, NULL},
                                 {"--threads", WS_CLI_TEXT, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     ws_cli_input_opts, WS_CLI_FILE, WS_CLI_NONE},
    {"trace", "info", "PATH",
     "summarise a trace or SASS listing: launch, instruction\n"
     "mix, memory behaviour, unknown opcodes",
     ws_cmd_trace,
     (const struct ws_cli_opt[]){{"--json", WS_CLI_FILE, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     ws_cli_input_opts, WS_CLI_FILE, WS_CLI_NONE},
    {"trace", "gen", "WORKLOAD",
     "expand a workload description into an Accel-Sim trace", ws_cmd_trace,
     (const struct ws_cli_opt[]){{"-o --output", WS_CLI_DIR, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     ws_cli_input_opts, WS_CLI_FILE, WS_CLI_NONE},
    {"trace", "pack", "TRACE",
     "pack a trace's kernels and copies into one binary\n"
     "file (-o OUT.wst) that every command reads unparsed",
     ws_cmd_trace,
     (const struct ws_cli_opt[]){{"-o --output", WS_CLI_FILE, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     ws_cli_input_opts, WS_CLI_FILE, WS_CLI_NONE},
    {"profile", NULL, "TRACE", "the analytic models' inputs for each kernel",
     ws_cmd_profile,
     (const struct ws_cli_opt[]){{"--json", WS_CLI_FILE, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     ws_cli_input_opts, WS_CLI_FILE, WS_CLI_NONE},
    {"model", NULL, "NAME TRACE",
     "one analytic model (mwp_cwp, mwp_cwp_l2, ..., see\n"
     "model --help) with its parameters and intermediates;\n"
     "--params FILE instead of TRACE evaluates it by hand",
     ws_cmd_model,
     (const struct ws_cli_opt[]){{"--params", WS_CLI_FILE, NULL},
                                 {"--json", WS_CLI_FILE, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     ws_cli_input_opts, WS_CLI_MODEL, WS_CLI_FILE},
    {"config", "show", "",
     "print the effective GPU config (after base: and --set)", ws_cmd_config,
     (const struct ws_cli_opt[]){{"-g --gpu", WS_CLI_GPU, NULL},
                                 {"-s --set", WS_CLI_KEY, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     NULL, WS_CLI_NONE, WS_CLI_NONE},
    {"config", "list", "", "list the built-in GPU configs", ws_cmd_config, NULL,
     NULL, WS_CLI_NONE, WS_CLI_NONE},
    {"config", "import", "GPGPUSIM_CONFIG [TRACE_CONFIG]",
     "translate an Accel-Sim/GPGPU-Sim config into warpsim\n"
     "YAML",
     ws_cmd_config,
     (const struct ws_cli_opt[]){{"-o --output", WS_CLI_FILE, NULL},
                                 {"--base", WS_CLI_GPU, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     NULL, WS_CLI_FILE, WS_CLI_FILE},
    {"sweep", NULL, "FILE",
     "run a design-space sweep (axes of parameters, config\n"
     "keys, GPUs) in parallel into one resumable CSV",
     ws_cmd_sweep,
     (const struct ws_cli_opt[]){{"-j --jobs", WS_CLI_TEXT, NULL},
                                 {"-o --output", WS_CLI_FILE, NULL},
                                 {"--dry-run", WS_CLI_NONE, NULL},
                                 {"--report", WS_CLI_NONE, NULL},
                                 {"--array-index", WS_CLI_TEXT, NULL},
                                 {"--array-size", WS_CLI_TEXT, NULL},
                                 {"--retry-failed", WS_CLI_NONE, NULL},
                                 {"--model", WS_CLI_TEXT, NULL},
                                 {"--max-ctas", WS_CLI_TEXT, NULL},
                                 {"--max-insts", WS_CLI_TEXT, NULL},
                                 {"--max-warp-insts", WS_CLI_TEXT, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     NULL, WS_CLI_FILE, WS_CLI_NONE},
    {"sweep", "merge", "OUT.csv SHARE.csv...",
     "join the shares of a job array (--array-index,\n"
     "--array-size) into one results CSV",
     ws_cmd_sweep, NULL, NULL, WS_CLI_FILE, WS_CLI_FILE},
    {"plot", NULL, "RESULTS.csv",
     "draw one column of a results table against another\n"
     "as SVG (one line per --series value; needs gnuplot)",
     ws_cmd_plot,
     (const struct ws_cli_opt[]){{"--x", WS_CLI_TEXT, NULL},
                                 {"--y", WS_CLI_TEXT, NULL},
                                 {"--series", WS_CLI_TEXT, NULL},
                                 {"--logx", WS_CLI_NONE, NULL},
                                 {"--logy", WS_CLI_NONE, NULL},
                                 {"--title", WS_CLI_TEXT, NULL},
                                 {"-o --output", WS_CLI_FILE, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     NULL, WS_CLI_FILE, WS_CLI_NONE},
    {"validate", NULL, "[STUDY...]",
     "run the seed studies (sweep, plots, report) into\n"
     "validate/out/STUDY/; --quick for the reduced ones",
     ws_cmd_validate,
     (const struct ws_cli_opt[]){{"--quick", WS_CLI_NONE, NULL},
                                 {"-j --jobs", WS_CLI_TEXT, NULL},
                                 {"-o --output", WS_CLI_DIR, NULL},
                                 {"--model", WS_CLI_TEXT, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     NULL, WS_CLI_STUDY, WS_CLI_STUDY},
    {"analyze", "rsm", "RESULTS.csv --target ts|ul|score",
     "which resource groups explain the target across a\n"
     "sweep's runs (resource significance, Ensemble OMP)",
     ws_cmd_analyze,
     (const struct ws_cli_opt[]){{"--target", WS_CLI_WORDS, "ts ul score"},
                                 {"--alpha", WS_CLI_TEXT, NULL},
                                 {"--tau", WS_CLI_TEXT, NULL},
                                 {"--kappa", WS_CLI_TEXT, NULL},
                                 {"--members", WS_CLI_TEXT, NULL},
                                 {"--subsample", WS_CLI_TEXT, NULL},
                                 {"--gamma", WS_CLI_TEXT, NULL},
                                 {"--seed", WS_CLI_TEXT, NULL},
                                 {"-o --output", WS_CLI_FILE, NULL},
                                 {"--plot", WS_CLI_FILE, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     NULL, WS_CLI_FILE, WS_CLI_NONE},
    {"compare", NULL, "SIM.json MEASURED",
     "line simulated counters up against an Nsight Compute\n"
     "CSV or an Accel-Sim log: per kernel and metric, MAPE\n"
     "and Pearson r per metric; or two runs' JSON against\n"
     "each other: what differs, and whether inputs and\n"
     "config are the same",
     ws_cmd_compare,
     (const struct ws_cli_opt[]){{"--kernel", WS_CLI_TEXT, NULL},
                                 {"--json", WS_CLI_FILE, NULL},
                                 {"--sort", WS_CLI_WORDS, WS_CMP_SORT_WORDS},
                                 {"--plot", WS_CLI_FILE, NULL},
                                 {NULL, WS_CLI_NONE, NULL}},
     NULL, WS_CLI_FILE, WS_CLI_FILE},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, WS_CLI_NONE, WS_CLI_NONE}};

/* Where the descriptions start in the main help. */
#define WS_CLI_HELP_COLUMN 22

const struct ws_cli_command *ws_cli_command_find(const char *name,
                                                 const char *sub)
{
    const struct ws_cli_command *first = NULL;

    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++) {
        if (strcmp(c->name, name) != 0)
            continue;
        if (!first)
            first = c;
        if (sub && c->sub && strcmp(c->sub, sub) == 0)
            return c;
    }
    return first;
}

/* One row: "  NAME SUB ARGS" and the description beside it, or under it
 * when the synopsis reaches the column. */
static void ws_cli_help_row(FILE *out, const struct ws_cli_command *c)
{
    char synopsis[128];
    const char *line = c->what;
    int width;

    width = snprintf(synopsis, sizeof synopsis, "%s%s%s%s%s", c->name,
                     c->sub ? " " : "", c->sub ? c->sub : "",
                     c->args[0] ? " " : "", c->args);
    if (width > WS_CLI_HELP_COLUMN - 4)
        fprintf(out, "  %s\n%*s", synopsis, WS_CLI_HELP_COLUMN, "");
    else
        fprintf(out, "  %-*s", WS_CLI_HELP_COLUMN - 2, synopsis);
    for (;;) {
        size_t n = strcspn(line, "\n");

        fprintf(out, "%.*s\n", (int)n, line);
        if (!line[n])
            break;
        line += n + 1;
        fprintf(out, "%*s", WS_CLI_HELP_COLUMN, "");
    }
}

void ws_cli_help(FILE *out)
{
    fprintf(
        out,
        "usage: warpsim [--help] [--version] COMMAND [ARGS]\n"
        "\n"
        "warpsim is a trace-driven, warp-level, discrete-event GPU simulator.\n"
        "\n"
        "commands:\n");
    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++)
        ws_cli_help_row(out, c);
    fprintf(
        out,
        "\n"
        "Run 'warpsim COMMAND --help' for a command's options;\n"
        "'warpsim --completion bash' prints a bash completion script.\n"
        "Exit status: 0 success, 2 bad input or usage, 1 internal failure.\n");
}

void ws_cli_print_commands(FILE *out)
{
    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++)
        fprintf(out, "%s%s%s\n", c->name, c->sub ? " " : "",
                c->sub ? c->sub : "");
}

/* The first row of its name: each command once, in the table's order
 * (the rows of one command are neighbours). */
static int ws_cli_first_of_name(const struct ws_cli_command *c)
{
    return c == ws_cli_commands || strcmp(c[-1].name, c->name) != 0;
}

/* Edit distance counting a swap of two neighbours as one edit (optimal
 * string alignment), capped: command names are short, and a word much
 * longer is no typo of one. */
#define WS_CLI_TYPO_MAX 32

static int ws_cli_distance(const char *a, const char *b)
{
    int d[WS_CLI_TYPO_MAX + 1][WS_CLI_TYPO_MAX + 1];
    int na = (int)strlen(a), nb = (int)strlen(b);

    if (na > WS_CLI_TYPO_MAX || nb > WS_CLI_TYPO_MAX)
        return WS_CLI_TYPO_MAX;
    for (int i = 0; i <= na; i++)
        d[i][0] = i;
    for (int j = 0; j <= nb; j++)
        d[0][j] = j;
    for (int i = 1; i <= na; i++) {
        for (int j = 1; j <= nb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[na][nb];
}

/* The command nearest word, when it is a typo of one: one edit for a
 * name of up to five letters, two for a longer one (two edits away from
 * a short name lie words that were never meant for it: 'plot', 'post'). */
static const char *ws_cli_nearest(const char *word)
{
    const char *best = NULL;
    int best_d = WS_CLI_TYPO_MAX;

    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++) {
        int d = ws_cli_distance(word, c->name);
        int allowed = strlen(c->name) > 5 ? 2 : 1;

        if (d <= allowed && d < best_d) {
            best = c->name;
            best_d = d;
        }
    }
    return best;
}

int ws_cli_unknown_command(const char *word)
{
    const char *near = ws_cli_nearest(word);
    int n = 0, k = 0;

    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++)
        n += ws_cli_first_of_name(c);
    fprintf(stderr, "warpsim: unknown command '%s'", word);
    if (near)
        fprintf(stderr, ", did you mean '%s'?", near);
    fprintf(stderr, " (expected ");
    for (const struct ws_cli_command *c = ws_cli_commands; c->name; c++) {
        if (!ws_cli_first_of_name(c))
            continue;
        k++;
        fprintf(stderr, "%s%s", c->name,
                k == n       ? ""
                : k == n - 1 ? " or "
                             : ", ");
    }
    fprintf(stderr, "; see 'warpsim --help')\n");
    return WS_EXIT_INPUT;
}
