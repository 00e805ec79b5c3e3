/*
 * ws_grow: the one growth rule for the readers' and the simulator's arrays:
 * capacity doubles (from `first`) until it holds `need` elements, so
 * appending is amortised O(1) and a steady state allocates nothing.
 */
#ifndef WS_GROW_H
#define WS_GROW_H

#include <stddef.h>

/* 0 when *p holds at least `need` elements of `elem` bytes, -1 when out of
 * memory (*p and *cap are then unchanged). */
int ws_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first);

#endif
