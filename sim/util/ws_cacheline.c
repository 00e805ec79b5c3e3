/*
 * ws_cacheline: line-aligned, line-padded allocation (see ws_cacheline.h).
 */
#include "ws_cacheline.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *ws_calloc_lines(size_t n, size_t size)
{
    size_t bytes;
    void *p;

    if (size && n > SIZE_MAX / size)
        return NULL;
    bytes = n * size;
    if (bytes > SIZE_MAX - WS_CACHELINE)
        return NULL;
    /* aligned_alloc wants a multiple of the alignment, and at least one */
    bytes = (bytes + WS_CACHELINE - 1) / WS_CACHELINE * WS_CACHELINE;
    if (!bytes)
        bytes = WS_CACHELINE;
    if (!(p = aligned_alloc(WS_CACHELINE, bytes)))
        return NULL;
    return memset(p, 0, bytes);
}
