/*
 * ws_cli: what the subcommands of the warpsim command share: the options
 * that choose a GPU (--gpu, --set), error reporting with warpsim's exit
 * statuses, the subcommand entry points, and the command table they are
 * listed in (ws_commands.c), with what is made from it: the main help,
 * the dispatch, the completion script (ws_complete.c).
 *
 * Leaves out: each subcommand's own options (one file per subcommand).
 */
#ifndef WS_CLI_H
#define WS_CLI_H

#include <jansson.h>
#include <stdio.h>

#include "config/ws_config.h"
#include "input/ws_input.h"
#include "ws_profile.h"
#include "util/ws_err.h"

#define WS_CLI_MAX_SETS 256

struct ws_cli_gpu_opts {
    const char *gpu;
    const char *sets[WS_CLI_MAX_SETS];
    int nsets;
};

/* Handles --gpu/--set for getopt_long loops; returns 1 when opt was one
 * of them, 0 when not, -1 after reporting a usage error (--gpu twice, too
 * many --set). */
int ws_cli_gpu_option(struct ws_cli_gpu_opts *o, const char *cmd, int opt,
                      const char *arg);

/* A count option's value (opt: its name) as a whole number from min to
 * 10^6; else a usage error of command cmd, and WS_EXIT_INPUT. */
int ws_cli_count(const char *cmd, const char *opt, const char *v, long min,
                 long *out);

/* Stores a single-valued option's argument in *slot; -1 after reporting a
 * usage error when it was given before (the last one silently winning
 * would leave an output unwritten or a config unused). */
int ws_cli_once(const char *cmd, const char **slot, const char *arg,
                const char *flag);

int ws_cli_load_gpu(const struct ws_cli_gpu_opts *o, struct ws_gpu *gpu,
                    struct ws_err *err);

/* The same, then the departure delays the models take measured by the
 * simulator's probe for this config (timing/ws_probe.h). */
int ws_cli_load_gpu_probed(const struct ws_cli_gpu_opts *o, struct ws_gpu *gpu,
                           struct ws_err *err);

/* Prints the error line to stderr; returns WS_EXIT_INPUT, or
 * WS_EXIT_INTERNAL for an internal failure such as out of memory. */
int ws_cli_fail(const struct ws_err *err);

/* The word getopt refused: argv[optind - 1], except for an unknown letter
 * inside a group ("-xyz"), which is not that word: "-x", written in buf. */
const char *ws_cli_option_word(int opt, char **argv, char buf[3]);

/* getopt's verdict as a usage error: a missing value (opt ':', with
 * optstrings that start with ':') or an unknown option, naming the word
 * ws_cli_option_word finds. */
int ws_cli_bad_option(const char *cmd, int opt, char **argv);

/* A usage error: "warpsim CMD: message" plus a hint; returns 2. */
int ws_cli_usage(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* --param options of commands that expand workloads. */
struct ws_cli_params {
    const char *sets[WS_CLI_MAX_SETS];
    int nsets;
    const char *listing; /* --listing: another SM version's listing */
};

/* Handles --param (-p) and --listing; like ws_cli_gpu_option. */
int ws_cli_param_option(struct ws_cli_params *o, const char *cmd, int opt,
                        const char *arg);

/* The input parameters the front door takes, from the command's options. */
struct ws_input_params ws_cli_input_params(const struct ws_cli_params *p,
                                           const struct ws_trace_opts *opts);

/* --gpu, --set, --param, --listing and the limits, which every command
 * that reads an input shares: 1 when opt was one of them, 0 when not, -1
 * after reporting a usage error. */
int ws_cli_input_option(struct ws_cli_gpu_opts *g, struct ws_cli_params *p,
                        struct ws_trace_opts *t, const char *cmd, int opt,
                        const char *arg);

/* Handles --max-ctas, --max-insts and --max-warp-insts: 1 when opt was one
 * of them, 0 when not, 2 (a usage error, reported) on a bad number. */
int ws_cli_limit_option(struct ws_trace_opts *t, const char *cmd, int opt,
                        const char *arg);

/* The long options ws_cli_limit_option handles, and their --help lines. */
#define WS_CLI_LIMIT_LONGOPTS \
    {"max-ctas", required_argument, NULL, WS_OPT_MAX_CTAS}, \
        {"max-insts", required_argument, NULL, WS_OPT_MAX_INSTS}, \
    { \
        "max-warp-insts", required_argument, NULL, WS_OPT_MAX_WARP_INSTS \
    }
/* The help lines of the options every command that opens an input takes
 * (ws_cli_input_option); the %s is the default GPU. */
#define WS_CLI_INPUT_HELP \
    "  -g, --gpu CONFIG          GPU config file or built-in name (default " \
    "%s)\n" \
    "  -s, --set KEY=VALUE       override one config key (repeatable)\n" \
    "  -p, --param NAME=VALUE    override a workload parameter (repeatable)\n" \
    "      --listing FILE        expand the workload over another listing;\n" \
    "                            for a trace, the cuobjdump listing of its\n" \
    "                            binary, whose control bits issue decides by\n"

#define WS_CLI_LIMIT_HELP \
    "      --max-ctas N          refuse launches of more CTAs (default 16777216)\n" \
    "      --max-insts N         refuse kernels of more warp instructions\n" \
    "                            (default 1000000000)\n" \
    "      --max-warp-insts N    refuse warps of more instructions (default\n" \
    "                            16777216)\n"

/* The options of the commands that read one input and report on each
 * kernel without simulating (profile, model). */
struct ws_cli_kernel_args {
    struct ws_cli_gpu_opts gpu;
    struct ws_cli_params params;
    struct ws_trace_opts topts;
    const char *json;
    const char *params_file; /* model --params FILE */
    const char *input;       /* NULL when params_file stands instead */
};

/* Parses argv[first..argc) of cmd; with_params_file accepts --params FILE
 * and then no input.  0 ok, 1 when --help was printed, WS_EXIT_INPUT
 * after a usage error. */
int ws_cli_parse_kernel_args(struct ws_cli_kernel_args *a, const char *cmd,
                             int argc, char **argv, int with_params_file,
                             void (*help)(FILE *out));

/* ws_output_plan against the input's path, the extra paths (--gpu,
 * --listing, --params; NULL entries skipped) and every file the input
 * reads (ws_input_file: a folder's kernelslist.g, every kernel of the
 * list, a workload's listing; in may be NULL), before any work. */
struct ws_output;
int ws_cli_plan_outputs(struct ws_output *outs, int nouts,
                        const struct ws_input *in, const char *const *extra,
                        int nextra, struct ws_err *err);

/* Writes a JSON document (indented, key order kept) to a planned output. */
int ws_cli_write_json(struct ws_output *o, json_t *root, struct ws_err *err);

/* The end of a command that holds its report until the whole input was
 * read: when rc is 0, root goes to o (if it has a path), then text to
 * stdout.  Frees root and text; returns the final status. */
int ws_cli_finish_report(int rc, struct ws_output *o, json_t *root, char *text,
                         struct ws_err *err);

/* The subcommands' entry points, one per cmd_*.c, each named by a row of
 * the command table (ws_commands.c); argv[0] is the command's name. */
int ws_cmd_trace(int argc, char **argv);
int ws_cmd_profile(int argc, char **argv);
int ws_cmd_model(int argc, char **argv);
int ws_cmd_run(int argc, char **argv);
int ws_cmd_config(int argc, char **argv);
int ws_cmd_sweep(int argc, char **argv);
int ws_cmd_plot(int argc, char **argv);
int ws_cmd_analyze(int argc, char **argv);
int ws_cmd_validate(int argc, char **argv);
int ws_cmd_compare(int argc, char **argv);

/* What a word on the command line is, for the shell's completion: an
 * option's argument, or an operand. */
enum ws_cli_value {
    WS_CLI_NONE, /* an option that takes no argument; no operand */
    WS_CLI_TEXT, /* a number, KEY=VALUE, a regex: nothing to offer */
    WS_CLI_FILE,
    WS_CLI_DIR,
    WS_CLI_GPU,   /* a built-in config's name, or a YAML file */
    WS_CLI_MODEL, /* a built-in model's name */
    WS_CLI_STUDY, /* one of validate's studies */
    WS_CLI_WORDS, /* one of the option's own words */
    WS_CLI_KEY    /* KEY=VALUE with KEY a config key (--set) */
};

/* One option of a command, as its --help names it. */
struct ws_cli_opt {
    const char *flags; /* "-g --gpu", "--json"; NULL ends a list */
    enum ws_cli_value value;
    const char *words; /* WS_CLI_WORDS: the choices, blank between */
};

/* One row of the command table: a command, or one of its subcommands.
 * The main help, the dispatch, the unknown-command error, the bash
 * completion and the man page's sections are all made from the table.
 * Each command keeps its own --help text and option parsing (cmd_*.c). */
struct ws_cli_command {
    const char *name; /* argv[1]; NULL ends the table */
    const char *sub;  /* argv[2], or NULL */
    const char *args; /* the main help's synopsis after the names */
    const char *what; /* its description, lines split by '\n' */
    int (*run)(int argc, char **argv); /* every row of a name: the same */
    const struct ws_cli_opt *opts;     /* its own options, or NULL */
    const struct ws_cli_opt *common;   /* shared ones (ws_cli_input_opts) */
    enum ws_cli_value operand;         /* the first operand */
    enum ws_cli_value operands;        /* those after it */
};

/* The table, in the main help's order, ended by a row whose name is NULL. */
extern const struct ws_cli_command ws_cli_commands[];

/* The row of name and sub (sub may be NULL or an operand), else the first
 * row of name; NULL when no row has that name. */
const struct ws_cli_command *ws_cli_command_find(const char *name,
                                                 const char *sub);

/* warpsim --help. */
void ws_cli_help(FILE *out);

/* "warpsim: unknown command 'WORD' (expected ...)", with the nearest
 * name when one is close; returns WS_EXIT_INPUT. */
int ws_cli_unknown_command(const char *word);

/* Each row as "NAME" or "NAME SUB", one a line (warpsim --commands, which
 * dist/man_page.sh reads). */
void ws_cli_print_commands(FILE *out);

/* The completion script for shell (only "bash" so far), made from the
 * table, the built-in configs and the model table; -1 for another shell. */
int ws_cli_completion(FILE *out, const char *shell);

/* Option codes for long-only options shared by subcommands. */
enum {
    WS_OPT_GPU = 'g',
    WS_OPT_SET = 's',
    WS_OPT_JSON = 0x100,
    WS_OPT_ALLOW_UNKNOWN_KEYS,
    WS_OPT_PARAM,
    WS_OPT_LISTING,
    WS_OPT_MAX_CTAS,
    WS_OPT_MAX_INSTS,
    WS_OPT_MAX_WARP_INSTS,
    WS_OPT_PARAMS_FILE,
    WS_OPT_HELP = 'h'
};

#endif
