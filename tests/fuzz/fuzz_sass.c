/*
 * libFuzzer target: the cuobjdump/nvdisasm listing reader.
 */
#include <stdint.h>
#include <stddef.h>

#include "listing/ws_sass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ws_sass s;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_sass_parse_mem(&s, "fuzz", data, size, NULL, &err) == 0)
        ws_sass_free(&s);
    return 0;
}
