/*
 * libFuzzer target: the GPU config loader.  The input is written to a
 * temporary file and loaded as --gpu, so YAML parsing, base: resolution,
 * schema conversion and cross-key checks all see it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <unistd.h>

#include "config/ws_config.h"
#include "fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    struct ws_gpu gpu;
    struct ws_err err;

    if (fuzz_tmp_write("config", data, size, path, sizeof path) < 0)
        return 0;
    ws_err_clear(&err);
    ws_cfg_load(&gpu, path, NULL, 0, &err);
    remove(path);
    return 0;
}
