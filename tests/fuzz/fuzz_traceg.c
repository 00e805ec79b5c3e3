/*
 * libFuzzer target: the Accel-Sim kernel trace reader over arbitrary bytes.
 * Any input must end in a CTA stream or one error, never a crash or hang.
 */
#include <stdint.h>
#include <stddef.h>

#include "trace/ws_traceg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ws_traceg *r;
    struct ws_err err;
    const struct ws_cta_stream *cta;

    ws_err_clear(&err);
    if (ws_traceg_open_mem(&r, "fuzz", data, size, NULL, &err) < 0)
        return 0;
    while (ws_traceg_next_cta(r, &cta, &err) == 1)
        ;
    ws_traceg_close(r);
    return 0;
}
