/*
 * ws_cli: shared command-line helpers (see ws_cli.h).
 */
#include "ws_cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "listing/ws_sass.h"
#include "util/ws_lines.h"
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

int ws_cli_open_workload(const char *path, const struct ws_cli_params *p,
                         const struct ws_trace_opts *opts,
                         struct ws_workload *w, struct ws_expander *x,
                         struct ws_err *err)
{
    if (ws_workload_load(w, path, p->sets, p->nsets, p->listing, opts,
                         err) < 0)
        return -1;
    if (ws_expand_init(x, w, err) < 0) {
        ws_workload_free(w);
        return -1;
    }
    return 0;
}

void ws_cli_close_workload(struct ws_workload *w, struct ws_expander *x)
{
    ws_expand_free(x);
    ws_workload_free(w);
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

int ws_cli_params_unused(const struct ws_cli_params *p, struct ws_err *err)
{
    if (p->nsets > 0)
        return ws_err_arg(err, p->sets[0], 0, 0, "--param applies to "
                          "workload descriptions only (expected a "
                          "workload.yaml input, not a trace or listing)");
    if (p->listing)
        return ws_err_arg(err, p->listing, 0, 0, "--listing applies to "
                          "workload descriptions only (expected a "
                          "workload.yaml input, not a trace or listing)");
    return 0;
}

static int ws_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int ws_cli_detect(const char *input, char **list_path,
                  enum ws_input_kind *kind, struct ws_err *err)
{
    struct stat st;
    struct ws_lines in;
    char head[4096];
    size_t n = 0;
    char *line;
    size_t len;

    if (stat(input, &st) == 0 && S_ISDIR(st.st_mode)) {
        *list_path = malloc(strlen(input) + 16);
        if (!*list_path)
            return ws_err_oom(err);
        sprintf(*list_path, "%s/kernelslist.g", input);
        *kind = WS_INPUT_LIST;
        return 0;
    }
    if (ws_ends_with(input, ".traceg") || ws_ends_with(input, ".traceg.xz")) {
        *kind = WS_INPUT_KERNEL;
        return 0;
    }
    if (ws_ends_with(input, ".yaml") || ws_ends_with(input, ".yml")) {
        *kind = WS_INPUT_WORKLOAD;
        return 0;
    }
    if (ws_ends_with(input, ".g")) {
        *kind = WS_INPUT_LIST;
        return 0;
    }
    if (ws_lines_open(&in, input, err) < 0)
        return -1;
    while (n < sizeof head - 1 && ws_lines_next(&in, &line, &len, err) == 1) {
        size_t k = len < sizeof head - 1 - n ? len : sizeof head - 1 - n;
        memcpy(head + n, line, k);
        n += k;
        if (n < sizeof head - 1)
            head[n++] = '\n';
    }
    ws_lines_close(&in);
    if (err->set)
        return -1;
    if (ws_sass_sniff(head, n)) {
        *kind = WS_INPUT_LISTING;
        return 0;
    }
    return ws_err_at(err, input, 1, 1, "cannot tell what this file is "
                     "(expected a kernelslist.g, a kernel-N.traceg[.xz] or "
                     "a cuobjdump/nvdisasm listing)");
}

