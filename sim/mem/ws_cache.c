/*
 * ws_cache: tag array and replacement policies (see ws_cache.h).  Sets are
 * small (4 to 16 ways), so lookup is a linear scan; all memory is
 * allocated at init.
 */
#include "ws_cache.h"

#include <stdlib.h>
#include <string.h>

#include "util/ws_cacheline.h"

/* ---- replacement policies ------------------------------------------------ */

static uint64_t ws_repl_now(uint64_t old, uint64_t tick)
{
    (void)old;
    return tick;
}

static uint64_t ws_repl_keep(uint64_t old, uint64_t tick)
{
    (void)tick;
    return old;
}

static uint64_t ws_repl_fill_now(uint64_t tick)
{
    return tick;
}

static const struct ws_repl_ops ws_repl_table[] = {
    [WS_REPL_LRU] = {"lru", ws_repl_now, ws_repl_fill_now},
    [WS_REPL_FIFO] = {"fifo", ws_repl_keep, ws_repl_fill_now},
};

const struct ws_repl_ops *ws_repl_ops_of(enum ws_repl_policy p)
{
    if ((unsigned)p >= sizeof ws_repl_table / sizeof ws_repl_table[0])
        return NULL;
    return &ws_repl_table[p];
}

/* ---- the tag array --------------------------------------------------------- */

int ws_cache_init(struct ws_cache *c, uint32_t sets, uint32_t assoc,
                  uint32_t sectors, enum ws_repl_policy policy)
{
    size_t n = (size_t)sets * assoc;

    c->sets = c->max_sets = sets;
    c->assoc = assoc;
    c->sectors = sectors;
    c->tick = 0;
    c->repl = ws_repl_ops_of(policy);
    c->ranks = 0;
    c->lines = NULL;
    c->tag = c->stamp = NULL;
    if (!c->repl)
        return -1;
    /* One block, tags first, then stamps, then lines (the 8-byte arrays
     * keep the lines' alignment): untouched until used (ws_cacheline.h),
     * so the idle SMs' L1s and the latency probes' L2s cost no page. */
    if (!(c->tag = ws_calloc_lines(n, WS_CACHE_WAY_BYTES)))
        return -1;
    c->stamp = c->tag + n;
    c->lines = (struct ws_cache_line *)(c->stamp + n);
    return 0;
}

void ws_cache_free(struct ws_cache *c)
{
    ws_free_lines(c->tag);
    c->lines = NULL;
    c->tag = c->stamp = NULL;
}

void ws_cache_clear(struct ws_cache *c)
{
    size_t n = (size_t)c->max_sets * c->assoc;

    /* Every hit and fill counts a tick, and nothing else writes the
     * arrays: at 0 they are as allocated or last cleared, all zero.  A
     * kernel's start clears every SM's L1, the idle SMs' and the latency
     * probes' too, which would touch pages no access ever did. */
    if (c->tick == 0)
        return;
    memset(c->tag, 0, n * WS_CACHE_WAY_BYTES); /* the block (ws_cache_init) */
    c->tick = 0;
}

void ws_cache_reshape(struct ws_cache *c, uint32_t sets)
{
    ws_cache_clear(c);
    c->sets = sets > c->max_sets ? c->max_sets : sets;
}

/* The index of the way holding line in set, or SIZE_MAX. */
static size_t ws_cache_way(const struct ws_cache *c, uint32_t set,
                           uint64_t line)
{
    size_t base = (size_t)set * c->assoc;

    for (uint32_t i = 0; i < c->assoc; i++)
        if (c->tag[base + i] == line + 1)
            return base + i;
    return SIZE_MAX;
}

struct ws_cache_line *ws_cache_find(struct ws_cache *c, uint32_t set,
                                    uint64_t line)
{
    size_t w = ws_cache_way(c, set, line);

    if (w == SIZE_MAX)
        return NULL;
    c->stamp[w] = c->repl->hit(c->stamp[w], ++c->tick);
    return &c->lines[w];
}

const struct ws_cache_line *ws_cache_peek(const struct ws_cache *c,
                                          uint32_t set, uint64_t line)
{
    size_t w = ws_cache_way(c, set, line);

    return w == SIZE_MAX ? NULL : &c->lines[w];
}

struct ws_cache_line *ws_cache_fetch(struct ws_cache *c, uint32_t set,
                                     uint64_t line,
                                     struct ws_cache_victim *victim)
{
    size_t base = (size_t)set * c->assoc;
    uint64_t *tag = &c->tag[base], *stamp = &c->stamp[base];
    struct ws_cache_line *v;
    uint32_t old = 0;

    victim->dirty = 0;
    victim->line = 0;
    victim->rank = c->assoc;
    /* A miss reads its victim's flags, a host cache miss of its own that
     * waits for the scan to pick the way: asked for now, they come while
     * the tags and stamps are read (streaming kernels miss at every
     * access, and this was their costliest line). */
    for (uint32_t i = 0; i < c->assoc; i++)
        __builtin_prefetch(&c->lines[base + i].valid);
    for (uint32_t i = 0; i < c->assoc; i++) {
        if (tag[i] == line + 1) {
            if (c->ranks) {
                victim->rank = 0;
                for (uint32_t j = 0; j < c->assoc; j++)
                    victim->rank += tag[j] && stamp[j] > stamp[i];
            }
            stamp[i] = c->repl->hit(stamp[i], ++c->tick);
            return &c->lines[base + i];
        }
        if (stamp[i] < stamp[old])
            old = i;
    }
    v = &c->lines[base + old];
    if (tag[old]) {
        victim->line = tag[old] - 1;
        victim->dirty = v->dirty & v->valid;
    }
    memset(v, 0, sizeof *v);
    tag[old] = line + 1;
    stamp[old] = c->repl->fill(++c->tick);
    return v;
}
