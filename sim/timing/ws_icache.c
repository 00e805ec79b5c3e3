/*
 * ws_icache: L0 instruction cache and stream buffer (see ws_icache.h).
 */
#include "ws_icache.h"

#include <stdlib.h>
#include <string.h>

int ws_icache_init(struct ws_icache *c, const struct ws_gpu *g)
{
    uint64_t line = ws_icache_line(g), lines;

    memset(c, 0, sizeof *c);
    if (!g->icache.l0_size)
        return 0;
    lines = g->icache.l0_size / line;
    c->sets = (uint32_t)((lines + WS_ICACHE_WAYS - 1) / WS_ICACHE_WAYS);
    c->line_shift = (uint32_t)__builtin_ctzll(line);
    c->depth = g->icache.prefetch < WS_ICACHE_MAX_PREFETCH
                   ? g->icache.prefetch
                   : WS_ICACHE_MAX_PREFETCH;
    c->latency = g->icache.latency;
    c->fill_interval = g->icache.fill_interval;
    c->lines = calloc((size_t)c->sets * WS_ICACHE_WAYS, sizeof *c->lines);
    return c->lines ? 0 : -1;
}

void ws_icache_free(struct ws_icache *c)
{
    free(c->lines);
    memset(c, 0, sizeof *c);
}

/* A new kernel's code: nothing of the last one is worth keeping, and its
 * PCs would alias the new one's. */
void ws_icache_reset(struct ws_icache *c)
{
    if (c->lines)
        memset(c->lines, 0,
               (size_t)c->sets * WS_ICACHE_WAYS * sizeof *c->lines);
    c->sb_n = 0;
    c->stamp = 0;
    c->misses = c->prefetch_hits = 0;
}

/* The stream buffer's answer for line l asked at t: its ready cycle, or
 * 0 when it does not hold it.  A hit drops the lines before it and asks
 * for as many after the last, one fill_interval apart. */
static uint64_t ws_icache_stream(struct ws_icache *c, uint64_t l, uint64_t t)
{
    uint64_t ready, last;
    uint32_t skip;

    if (c->sb_n == 0 || l < c->sb_first || l >= c->sb_first + c->sb_n)
        return 0;
    skip = (uint32_t)(l - c->sb_first);
    ready = c->sb_ready[l % c->depth];
    last = c->sb_ready[(c->sb_first + c->sb_n - 1) % c->depth];
    for (uint32_t k = 0; k <= skip; k++) {
        uint64_t nl = c->sb_first + c->sb_n;
        last = (last > t ? last : t) + c->fill_interval;
        c->sb_first++;
        c->sb_ready[nl % c->depth] = last;
    }
    return ready > t ? ready : t;
}

/* A miss nothing holds: the line after `latency`, and the stream buffer
 * restarted behind it. */
static uint64_t ws_icache_miss(struct ws_icache *c, uint64_t l, uint64_t t)
{
    uint64_t ready = t + c->latency;

    c->sb_first = l + 1;
    c->sb_n = c->depth;
    for (uint32_t k = 0; k < c->depth; k++)
        c->sb_ready[(l + 1 + k) % c->depth] = ready
                                              + (uint64_t)(k + 1)
                                                    * c->fill_interval;
    return ready;
}

uint64_t ws_icache_fetch(struct ws_icache *c, uint32_t pc, uint64_t t)
{
    uint64_t l, ready;
    struct ws_icache_line *set, *victim;

    if (!c->lines)
        return t;
    l = ws_icache_line_of(c, pc);
    set = &c->lines[(l % c->sets) * WS_ICACHE_WAYS];
    victim = &set[0];
    for (int w = 0; w < WS_ICACHE_WAYS; w++) {
        if (set[w].tag == l + 1) {
            set[w].used = ++c->stamp;
            return set[w].ready > t ? set[w].ready : t;
        }
        if (set[w].used < victim->used)
            victim = &set[w];
    }
    c->misses++;
    ready = ws_icache_stream(c, l, t);
    if (ready)
        c->prefetch_hits++;
    else
        ready = ws_icache_miss(c, l, t);
    victim->tag = l + 1;
    victim->ready = ready;
    victim->used = ++c->stamp;
    return ready;
}
