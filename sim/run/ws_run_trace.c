/*
 * ws_run_trace: a trace summarised, a workload written out (see
 * ws_run_trace.h).
 */
#include "ws_run_trace.h"

#include <stdlib.h>
#include <string.h>

#include "trace/ws_tracew.h"
#include "ws_run_profile.h"

int ws_run_trace_info(struct ws_input *in, const struct ws_gpu *gpu,
                      struct ws_info_trace *t, struct ws_err *err)
{
    size_t n = ws_input_nkernels(in);
    int rc = 0;

    t->nkernels = 0;
    t->memcpy_count = t->memcpy_bytes = 0;
    t->kernels = calloc(n ? n : 1, sizeof *t->kernels);
    if (!t->kernels)
        return ws_err_oom(err);
    for (size_t i = 0; rc == 0 && i < ws_input_ncmds(in); i++) {
        const struct ws_cmd *c = ws_input_cmd(in, i);
        if (c->kind == WS_CMD_MEMCPY_HTOD) {
            t->memcpy_count++;
            t->memcpy_bytes += c->bytes;
        } else {
            rc = ws_run_profile_kernel(in, i, gpu, &t->kernels[t->nkernels],
                                       err);
            t->nkernels += rc == 0;
        }
    }
    if (rc < 0)
        ws_run_trace_info_free(t);
    return rc;
}

void ws_run_trace_info_free(struct ws_info_trace *t)
{
    for (size_t k = 0; k < t->nkernels; k++)
        ws_profile_free(&t->kernels[k]);
    free(t->kernels);
    t->kernels = NULL;
    t->nkernels = 0;
}

int ws_run_trace_gen(struct ws_input *in, FILE *fp, struct ws_err *err)
{
    const struct ws_cta_stream *cta;
    struct ws_input_kernel k;
    int rc;

    if (ws_input_kernel_open(in, 0, &k, err) < 0)
        return -1;
    ws_tracew_header(fp, k.src.launch);
    while ((rc = k.src.next(k.src.ctx, &cta, err)) == 1)
        ws_tracew_cta(fp, cta, k.src.ops);
    ws_input_kernel_close(&k);
    return rc;
}
