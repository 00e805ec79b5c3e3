/*
 * ws_cli: shared command-line helpers (see ws_cli.h).
 */
#include "ws_cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ws_cli_gpu_option(struct ws_cli_gpu_opts *o, int opt, const char *arg)
{
    if (opt == WS_OPT_GPU) {
        o->gpu = arg;
        return 1;
    }
    if (opt == WS_OPT_SET) {
        if (o->nsets == WS_CLI_MAX_SETS)
            return -1;
        o->sets[o->nsets++] = arg;
        return 1;
    }
    return 0;
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

int ws_cli_write_file(const char *path, const char *text, struct ws_err *err)
{
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    FILE *fp;
    int ok;

    if (!tmp)
        return ws_err_oom(err);
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    fp = fopen(tmp, "w");
    if (!fp) {
        ws_err_msg(err, "%s: cannot write: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    ok = fputs(text, fp) >= 0;
    ok = (fclose(fp) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        ws_err_msg(err, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
