/*
 * ws_cache: tag array with LRU (see ws_cache.h).  Sets are small (4 to 16
 * ways), so lookup is a linear scan; all memory is allocated at init.
 */
#include "ws_cache.h"

#include <stdlib.h>
#include <string.h>

int ws_cache_init(struct ws_cache *c, uint32_t sets, uint32_t assoc,
                  uint32_t sectors)
{
    size_t n = (size_t)sets * assoc;

    c->sets = c->max_sets = sets;
    c->assoc = assoc;
    c->sectors = sectors;
    c->tick = 0;
    c->lines = calloc(n, sizeof *c->lines);
    c->tag = calloc(n, sizeof *c->tag);
    c->lru = calloc(n, sizeof *c->lru);
    if (c->lines && c->tag && c->lru)
        return 0;
    ws_cache_free(c);
    return -1;
}

void ws_cache_free(struct ws_cache *c)
{
    free(c->lines);
    free(c->tag);
    free(c->lru);
    c->lines = NULL;
    c->tag = c->lru = NULL;
}

void ws_cache_clear(struct ws_cache *c)
{
    size_t n = (size_t)c->max_sets * c->assoc;

    memset(c->lines, 0, n * sizeof *c->lines);
    memset(c->tag, 0, n * sizeof *c->tag);
    memset(c->lru, 0, n * sizeof *c->lru);
    c->tick = 0;
}

void ws_cache_reshape(struct ws_cache *c, uint32_t sets)
{
    ws_cache_clear(c);
    c->sets = sets > c->max_sets ? c->max_sets : sets;
}

struct ws_cache_line *ws_cache_find(struct ws_cache *c, uint32_t set,
                                    uint64_t line)
{
    size_t base = (size_t)set * c->assoc;
    const uint64_t *tag = &c->tag[base];

    for (uint32_t i = 0; i < c->assoc; i++) {
        if (tag[i] == line + 1) {
            c->lru[base + i] = ++c->tick;
            return &c->lines[base + i];
        }
    }
    return NULL;
}

struct ws_cache_line *ws_cache_fetch(struct ws_cache *c, uint32_t set,
                                     uint64_t line,
                                     struct ws_cache_victim *victim)
{
    size_t base = (size_t)set * c->assoc;
    uint64_t *tag = &c->tag[base], *lru = &c->lru[base];
    uint32_t old = 0;

    victim->dirty = 0;
    victim->line = 0;
    for (uint32_t i = 0; i < c->assoc; i++) {
        if (tag[i] == line + 1) {
            lru[i] = ++c->tick;
            return &c->lines[base + i];
        }
        if (lru[i] < lru[old])
            old = i;
    }
    if (tag[old]) {
        struct ws_cache_line *v = &c->lines[base + old];
        victim->line = tag[old] - 1;
        victim->dirty = v->dirty & v->valid;
    }
    memset(&c->lines[base + old], 0, sizeof c->lines[base + old]);
    tag[old] = line + 1;
    lru[old] = ++c->tick;
    return &c->lines[base + old];
}
