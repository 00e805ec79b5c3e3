/*
 * ws_cal: a bandwidth calendar (see ws_cal.h).  All memory is allocated at
 * init; a booking walks the cycles it takes, jumping over the run of full
 * cycles a saturated port builds, so a long queue costs no long walk.
 */
#include "ws_cal.h"

#include <stdlib.h>
#include <string.h>

int ws_cal_init(struct ws_cal *c, double sector_cycles)
{
    memset(c, 0, sizeof *c);
    c->cap = 1.0 / sector_cycles;
    c->stamp = calloc(WS_CAL_SLOTS, sizeof *c->stamp);
    c->used = calloc(WS_CAL_SLOTS, sizeof *c->used);
    return c->stamp && c->used ? 0 : -1;
}

void ws_cal_free(struct ws_cal *c)
{
    free(c->stamp);
    free(c->used);
    memset(c, 0, sizeof *c);
}

void ws_cal_clear(struct ws_cal *c)
{
    memset(c->stamp, 0, WS_CAL_SLOTS * sizeof *c->stamp);
    c->full_lo = c->full_hi = c->newest = 0;
}

/* Capacity left in cycle t; a slot holding an older cycle is reclaimed,
 * one holding a newer cycle means t is past the ring's reach: free. */
static double ws_cal_left(struct ws_cal *c, uint64_t t, uint32_t *slot)
{
    uint32_t s = (uint32_t)(t & (WS_CAL_SLOTS - 1));

    *slot = s;
    if (c->stamp[s] == t + 1)
        return c->cap - c->used[s];
    if (c->stamp[s] > t + 1) {
        *slot = UINT32_MAX;
        return c->cap;
    }
    c->stamp[s] = t + 1;
    c->used[s] = 0.0f;
    return c->cap;
}

uint64_t ws_cal_reserve(struct ws_cal *c, uint64_t t, unsigned n)
{
    double rem = n;
    uint64_t first = UINT64_MAX, cyc = t;

    if (n == 0)
        return t;
    if (c->newest >= WS_CAL_SLOTS && cyc < c->newest - WS_CAL_SLOTS + 1)
        cyc = c->newest - WS_CAL_SLOTS + 1;
    while (rem > 1e-9) {
        uint32_t s;
        double left, take;

        if (cyc >= c->full_lo && cyc < c->full_hi)
            cyc = c->full_hi;
        left = ws_cal_left(c, cyc, &s);
        if (left <= 1e-9) {
            cyc++;
            continue;
        }
        take = left < rem ? left : rem;
        if (s != UINT32_MAX)
            c->used[s] += (float)take;
        rem -= take;
        if (first == UINT64_MAX)
            first = cyc;
        if (take >= left - 1e-9) {
            /* cyc is now full: grow the run it touches, or start one */
            if (cyc == c->full_hi)
                c->full_hi++;
            else if (cyc + 1 == c->full_lo)
                c->full_lo--;
            else if (cyc > c->full_hi) {
                c->full_lo = cyc;
                c->full_hi = cyc + 1;
            }
        }
        if (cyc > c->newest)
            c->newest = cyc;
        cyc++;
    }
    return first;
}
