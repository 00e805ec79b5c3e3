/*
 * ws_cli: shared command-line helpers (see ws_cli.h).
 */
#include "ws_cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/ws_num.h"

int ws_cli_once(const char *cmd, const char **slot, const char *arg,
                const char *flag)
{
    if (*slot)
        return ws_cli_usage(cmd, "%s given twice, '%s' and '%s' (expected "
                            "it once)", flag, *slot, arg), -1;
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
            return ws_cli_usage(cmd, "more than %d --set options",
                                WS_CLI_MAX_SETS), -1;
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
                                WS_CLI_MAX_SETS), -1;
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
    ip.opts = *opts;
    return ip;
}

int ws_cli_load_gpu(const struct ws_cli_gpu_opts *o, struct ws_gpu *gpu,
                    struct ws_err *err)
{
    return ws_cfg_load(gpu, o->gpu, o->sets, o->nsets, err);
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

    fprintf(stderr, "warpsim %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see 'warpsim %s --help')\n", cmd);
    return WS_EXIT_INPUT;
}

int ws_cli_limit_option(struct ws_trace_opts *t, const char *cmd, int opt,
                        const char *arg)
{
    uint64_t *dst = opt == WS_OPT_MAX_CTAS ? &t->max_ctas
                    : opt == WS_OPT_MAX_INSTS ? &t->max_insts
                    : opt == WS_OPT_MAX_WARP_INSTS ? &t->max_warp_insts : NULL;

    if (!dst)
        return 0;
    if (ws_num_u64(arg, strlen(arg), dst) < 0 || *dst == 0)
        return ws_cli_usage(cmd, "bad limit '%s' (expected a positive count)",
                            arg);
    return 1;
}

