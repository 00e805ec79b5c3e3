/*
 * libFuzzer target: workload descriptions (YAML, expressions, rules) and
 * their expansion.  The listing is always the bundled saxpy one, so the
 * fuzzer explores the description, not the file system; expansion stops
 * after a few CTAs to keep each input fast.
 */
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <unistd.h>

#include "fuzz_tmp.h"
#include "workload/ws_expand.h"

#ifndef WS_SOURCE_DIR
#define WS_SOURCE_DIR "."
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *listing = WS_SOURCE_DIR
        "/traces/kernels/saxpy/saxpy.sm_80.sass";
    char path[64];
    struct ws_workload w;
    struct ws_expander x;
    struct ws_err err;
    const struct ws_cta_stream *cta;

    if (fuzz_tmp_write("workload", data, size, path, sizeof path) < 0)
        return 0;
    ws_err_clear(&err);
    if (ws_workload_load(&w, path, NULL, 0, listing, NULL, &err) == 0) {
        if (ws_expand_init(&x, &w, &err) == 0) {
            for (int i = 0; i < 4 && ws_expand_next(&x, &cta, &err) == 1; i++)
                ;
            ws_expand_free(&x);
        }
        ws_workload_free(&w);
    }
    remove(path);
    return 0;
}
