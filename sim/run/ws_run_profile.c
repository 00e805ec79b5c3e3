/*
 * ws_run_profile: every kernel of an input counted into a profile (see
 * ws_run_profile.h).
 */
#include "ws_run_profile.h"

int ws_run_profile_kernel(struct ws_input *in, size_t i,
                          const struct ws_gpu *gpu, struct ws_profile *p,
                          struct ws_err *err)
{
    struct ws_input_kernel k;
    const struct ws_cta_stream *cta;
    int rc;

    if (ws_input_kernel_open(in, i, &k, err) < 0)
        return -1;
    if (ws_profile_init(p, k.src.launch, gpu) < 0) {
        ws_input_kernel_close(&k);
        return ws_err_oom(err);
    }
    while ((rc = k.src.next(k.src.ctx, &cta, err)) == 1)
        ws_profile_add_cta(p, cta, k.src.ops);
    ws_input_kernel_close(&k);
    if (rc < 0)
        ws_profile_free(p);
    return rc;
}

int ws_run_profile_each(struct ws_input *in, const struct ws_gpu *gpu,
                        ws_run_profile_fn each, void *ctx, struct ws_err *err)
{
    int rc = 0;

    for (size_t i = 0; rc == 0 && i < ws_input_ncmds(in); i++) {
        struct ws_profile p;
        if (ws_input_cmd(in, i)->kind != WS_CMD_KERNEL)
            continue;
        rc = ws_run_profile_kernel(in, i, gpu, &p, err);
        if (rc < 0)
            break;
        rc = each(ctx, &p, i > 0, err);
        ws_profile_free(&p);
    }
    return rc < 0 ? -1 : 0;
}

int ws_run_refuse_static(const struct ws_input *in, const char *verb,
                         struct ws_err *err)
{
    if (!ws_input_is_static(in))
        return 0;
    return ws_err_at(err, ws_input_path(in), 1, 1,
                     "a SASS listing alone "
                     "has no dynamic instruction stream to %s (expected a "
                     "trace, or a workload description over the listing)",
                     verb);
}
