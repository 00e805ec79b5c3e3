/*
 * ws_grow: array growth by doubling (see ws_grow.h).
 */
#include "ws_grow.h"

#include <stdint.h>
#include <stdlib.h>

int ws_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
    size_t n = *cap ? *cap : first;
    void *q;

    if (need <= *cap)
        return 0;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem)
            return -1;
        n *= 2;
    }
    q = realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}
