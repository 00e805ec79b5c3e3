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
    c->sets = sets;
    c->assoc = assoc;
    c->sectors = sectors;
    c->tick = 0;
    c->lines = calloc((size_t)sets * assoc, sizeof *c->lines);
    return c->lines ? 0 : -1;
}

void ws_cache_free(struct ws_cache *c)
{
    free(c->lines);
    c->lines = NULL;
}

void ws_cache_clear(struct ws_cache *c)
{
    memset(c->lines, 0, (size_t)c->sets * c->assoc * sizeof *c->lines);
    c->tick = 0;
}

struct ws_cache_line *ws_cache_find(struct ws_cache *c, uint32_t set,
                                    uint64_t line)
{
    struct ws_cache_line *way = &c->lines[(size_t)set * c->assoc];

    for (uint32_t i = 0; i < c->assoc; i++) {
        if (way[i].tag == line + 1) {
            way[i].lru = ++c->tick;
            return &way[i];
        }
    }
    return NULL;
}

struct ws_cache_line *ws_cache_fetch(struct ws_cache *c, uint32_t set,
                                     uint64_t line,
                                     struct ws_cache_victim *victim)
{
    struct ws_cache_line *way = &c->lines[(size_t)set * c->assoc];
    struct ws_cache_line *lru = &way[0];

    victim->dirty = 0;
    victim->line = 0;
    for (uint32_t i = 0; i < c->assoc; i++) {
        if (way[i].tag == line + 1) {
            way[i].lru = ++c->tick;
            return &way[i];
        }
        if (way[i].lru < lru->lru)
            lru = &way[i];
    }
    if (lru->tag) {
        victim->line = lru->tag - 1;
        victim->dirty = lru->dirty & lru->valid;
    }
    memset(lru, 0, sizeof *lru);
    lru->tag = line + 1;
    lru->lru = ++c->tick;
    return lru;
}
