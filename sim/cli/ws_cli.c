/*
 * ws_cli: shared command-line helpers (see ws_cli.h).
 */
#include "ws_cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/ws_probe.h"
#include "util/ws_num.h"
#include "util/ws_output.h"

int ws_cli_once(const char *cmd, const char **slot, const char *arg,
                const char *flag)
{
    if (*slot)
        return ws_cli_usage(cmd,
                            "%s given twice, '%s' and '%s' (expected "
                            "it once)",
                            flag, *slot, arg),
               -1;
    *slot = arg;
    return 0;
}

int ws_cli_gpu_option(struct ws_cli_gpu_opts *o, const char *cmd, int opt,
                      const char *arg)
{
    if (opt == WS_OPT_GPU)
        return ws_cli_once(cmd, &o->gpu, arg, "--gpu") < 0 ? -1 : 1;
    if (opt == WS_OPT_SET) {
        if (o->nsets == WS_CLI_MAX_SETS)
            return ws_cli_usage(cmd,
                                "more than %d --set options (expected at "
                                "most %d, one per config key)",
                                WS_CLI_MAX_SETS, WS_CLI_MAX_SETS),
                   -1;
        o->sets[o->nsets++] = arg;
        return 1;
    }
    return 0;
}

int ws_cli_param_option(struct ws_cli_params *o, const char *cmd, int opt,
                        const char *arg)
{
    if (opt == 'p') {
        if (o->nsets == WS_CLI_MAX_SETS)
            return ws_cli_usage(cmd, "more than %d --param options",
                                WS_CLI_MAX_SETS),
                   -1;
        o->sets[o->nsets++] = arg;
        return 1;
    }
    if (opt == WS_OPT_LISTING)
        return ws_cli_once(cmd, &o->listing, arg, "--listing") < 0 ? -1 : 1;
    return 0;
}

struct ws_input_params ws_cli_input_params(const struct ws_cli_params *p,
                                           const struct ws_trace_opts *opts)
{
    struct ws_input_params ip;

    ip.sets = p->sets;
    ip.nsets = p->nsets;
    ip.listing = p->listing;
    ip.listing_trace = 0;
    ip.opts = *opts;
    return ip;
}

int ws_cli_load_gpu(const struct ws_cli_gpu_opts *o, struct ws_gpu *gpu,
                    struct ws_err *err)
{
    return ws_cfg_load(gpu, o->gpu, o->sets, o->nsets, err);
}

int ws_cli_load_gpu_probed(const struct ws_cli_gpu_opts *o, struct ws_gpu *gpu,
                           struct ws_err *err)
{
    if (ws_cli_load_gpu(o, gpu, err) < 0)
        return -1;
    ws_probe_model_or_estimate(gpu);
    return 0;
}

int ws_cli_count(const char *cmd, const char *opt, const char *v, long min,
                 long *out)
{
    uint64_t n;

    if (ws_num_u64(v, strlen(v), &n) < 0 || n > 1000000 || (long)n < min)
        return ws_cli_usage(cmd,
                            "bad %s '%s' (expected a whole number from "
                            "%ld)",
                            opt, v, min);
    *out = (long)n;
    return 0;
}

int ws_cli_fail(const struct ws_err *err)
{
    fflush(stdout);
    fprintf(stderr, "%s\n", err->set ? err->text : "warpsim: internal error");
    return err->set && !err->internal ? WS_EXIT_INPUT : WS_EXIT_INTERNAL;
}

int ws_cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;

    /* cmd "" is warpsim itself: no blank before the colon or the option. */
    fprintf(stderr, "warpsim%s%s: ", *cmd ? " " : "", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'warpsim%s%s --help')\n", *cmd ? " " : "", cmd);
    return WS_EXIT_INPUT;
}

const char *ws_cli_option_word(int opt, char **argv, char buf[3])
{
    const char *last = argv[optind - 1];

    /* getopt sets optopt to the letter for a short option and to the
     * option's value (or 0) for a long one, whose word is last. */
    if (opt == ':' || strncmp(last, "--", 2) == 0 || optopt <= ' '
        || optopt >= 127)
        return last;
    buf[0] = '-';
    buf[1] = (char)optopt;
    buf[2] = '\0';
    return buf;
}

int ws_cli_bad_option(const char *cmd, int opt, char **argv)
{
    char buf[3];
    const char *word = ws_cli_option_word(opt, argv, buf);

    if (opt == ':')
        return ws_cli_usage(cmd, "option '%s' needs a value", word);
    return ws_cli_usage(cmd, "bad option '%s'", word);
}

int ws_cli_limit_option(struct ws_trace_opts *t, const char *cmd, int opt,
                        const char *arg)
{
    uint64_t *dst = opt == WS_OPT_MAX_CTAS         ? &t->max_ctas
                    : opt == WS_OPT_MAX_INSTS      ? &t->max_insts
                    : opt == WS_OPT_MAX_WARP_INSTS ? &t->max_warp_insts
                                                   : NULL;

    if (!dst)
        return 0;
    if (ws_num_u64(arg, strlen(arg), dst) < 0 || *dst == 0)
        return ws_cli_usage(cmd, "bad limit '%s' (expected a positive count)",
                            arg);
    return 1;
}


int ws_cli_input_option(struct ws_cli_gpu_opts *g, struct ws_cli_params *p,
                        struct ws_trace_opts *t, const char *cmd, int opt,
                        const char *arg)
{
    int used = ws_cli_gpu_option(g, cmd, opt, arg);

    if (used == 0)
        used = ws_cli_param_option(p, cmd, opt, arg);
    if (used == 0)
        used = ws_cli_limit_option(t, cmd, opt, arg);
    return used == WS_EXIT_INPUT ? -1 : used;
}

/* The long name of an option ws_cli_input_option handles, for messages. */
static const char *ws_cli_input_option_name(int opt)
{
    switch (opt) {
    case WS_OPT_GPU:
        return "--gpu";
    case WS_OPT_SET:
        return "--set";
    case 'p':
        return "--param";
    case WS_OPT_LISTING:
        return "--listing";
    case WS_OPT_MAX_CTAS:
        return "--max-ctas";
    case WS_OPT_MAX_INSTS:
        return "--max-insts";
    case WS_OPT_MAX_WARP_INSTS:
        return "--max-warp-insts";
    default:
        return "--allow-unknown-keys";
    }
}

int ws_cli_parse_kernel_args(struct ws_cli_kernel_args *a, const char *cmd,
                             int argc, char **argv, int with_params_file,
                             void (*help)(FILE *out))
{
    static const struct option longopts[] = {
        {"gpu", required_argument, NULL, WS_OPT_GPU},
        {"set", required_argument, NULL, WS_OPT_SET},
        {"json", required_argument, NULL, WS_OPT_JSON},
        {"allow-unknown-keys", no_argument, NULL, WS_OPT_ALLOW_UNKNOWN_KEYS},
        {"param", required_argument, NULL, 'p'},
        {"listing", required_argument, NULL, WS_OPT_LISTING},
        {"params", required_argument, NULL, WS_OPT_PARAMS_FILE},
        WS_CLI_LIMIT_LONGOPTS,
        {"help", no_argument, NULL, WS_OPT_HELP},
        {NULL, 0, NULL, 0}};
    const char *input_option = NULL;
    int opt;

    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":g:s:p:h", longopts, NULL)) != -1) {
        int used = ws_cli_input_option(&a->gpu, &a->params, &a->topts, cmd, opt,
                                       optarg);
        if (used < 0)
            return WS_EXIT_INPUT;
        if ((used || opt == WS_OPT_ALLOW_UNKNOWN_KEYS) && !input_option)
            input_option = ws_cli_input_option_name(opt);
        if (used)
            continue;
        switch (opt) {
        case WS_OPT_JSON:
            if (ws_cli_once(cmd, &a->json, optarg, "--json") < 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_PARAMS_FILE:
            if (!with_params_file)
                return ws_cli_usage(cmd, "bad option '--params'");
            if (ws_cli_once(cmd, &a->params_file, optarg, "--params") < 0)
                return WS_EXIT_INPUT;
            break;
        case WS_OPT_ALLOW_UNKNOWN_KEYS:
            a->topts.allow_unknown_keys = 1;
            break;
        case WS_OPT_HELP:
            help(stdout);
            return 1;
        default:
            return ws_cli_bad_option(cmd, opt, argv);
        }
    }
    if (a->params_file && input_option)
        return ws_cli_usage(cmd,
                            "'%s' has no effect with --params (the "
                            "parameters are given, not derived from an "
                            "input)",
                            input_option);
    if (a->params_file)
        return optind == argc
                   ? 0
                   : ws_cli_usage(cmd, "--params FILE stands for the input "
                                       "(expected no TRACE with it)");
    if (optind != argc - 1)
        return ws_cli_usage(cmd, optind >= argc ? "missing TRACE"
                                                : "more than one TRACE");
    a->input = argv[optind];
    return 0;
}

int ws_cli_plan_outputs(struct ws_output *outs, int nouts,
                        const struct ws_input *in, const char *const *extra,
                        int nextra, struct ws_err *err)
{
    size_t nfiles = in ? ws_input_nfiles(in) : 0;
    const char **inputs = calloc(nfiles + (size_t)nextra + 1, sizeof *inputs);
    int n = 0, rc;

    if (!inputs)
        return ws_err_oom(err);
    inputs[n++] = in ? ws_input_path(in) : NULL;
    for (int i = 0; i < nextra; i++)
        inputs[n++] = extra[i];
    for (size_t i = 0; i < nfiles; i++)
        inputs[n++] = ws_input_file(in, i);
    rc = ws_output_plan(outs, nouts, inputs, n, err);
    free(inputs);
    return rc;
}

int ws_cli_write_json(struct ws_output *o, json_t *root, struct ws_err *err)
{
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER
                                      | JSON_REAL_PRECISION(10));
    int rc;

    if (!text)
        return ws_err_oom(err);
    rc = ws_output_write(o, text, err);
    free(text);
    return rc;
}

int ws_cli_finish_report(int rc, struct ws_output *o, json_t *root, char *text,
                         struct ws_err *err)
{
    if (rc == 0 && o->path)
        rc = ws_cli_write_json(o, root, err);
    if (rc == 0)
        fputs(text, stdout);
    json_decref(root);
    free(text);
    return rc;
}
