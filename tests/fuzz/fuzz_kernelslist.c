/*
 * libFuzzer target: the kernelslist.g command-list parser.
 */
#include <stdint.h>
#include <stddef.h>

#include "trace/ws_kernelslist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ws_cmdlist list;
    struct ws_err err;

    ws_err_clear(&err);
    if (ws_kernelslist_parse_mem(&list, "fuzz", "dir", data, size, &err) == 0)
        ws_kernelslist_free(&list);
    return 0;
}
