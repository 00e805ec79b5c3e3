/*
 * ws_cli: what the subcommands of the warpsim command share: the options
 * that choose a GPU (--gpu, --set), error reporting with warpsim's exit
 * statuses, and the subcommand entry points.
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
void ws_cli_probe(struct ws_gpu *gpu);

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
    const char *listing;      /* --listing: another SM version's listing */
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
    {"max-warp-insts", required_argument, NULL, WS_OPT_MAX_WARP_INSTS}
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
    const char *params_file;    /* model --params FILE */
    const char *input;          /* NULL when params_file stands instead */
};

/* Parses argv[first..argc) of cmd; with_params_file accepts --params FILE
 * and then no input.  0 ok, 1 when --help was printed, WS_EXIT_INPUT
 * after a usage error. */
int ws_cli_parse_kernel_args(struct ws_cli_kernel_args *a, const char *cmd,
                             int argc, char **argv, int with_params_file,
                             void (*help)(FILE *out));

/* ws_output_plan against everything the input names (the path, a
 * folder's kernelslist.g, every kernel of the list; in may be NULL) and
 * the extra paths (--gpu, --listing, --params; NULL entries skipped),
 * before any work. */
struct ws_output;
int ws_cli_plan_outputs(struct ws_output *outs, int nouts,
                        const struct ws_input *in, const char *const *extra,
                        int nextra, struct ws_err *err);

/* Writes a JSON document (indented, key order kept) to a planned output. */
int ws_cli_write_json(struct ws_output *o, json_t *root, struct ws_err *err);

/* The end of a command that holds its report until the whole input was
 * read: when rc is 0, root goes to o (if it has a path), then text to
 * stdout.  Frees root and text; returns the final status. */
int ws_cli_finish_report(int rc, struct ws_output *o, json_t *root,
                         char *text, struct ws_err *err);

/* Reads kernel command i of in completely into a profile (initialised
 * here; on failure nothing needs freeing). */
int ws_cli_profile_kernel(struct ws_input *in, size_t i,
                          const struct ws_gpu *gpu, struct ws_profile *p,
                          struct ws_err *err);

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
